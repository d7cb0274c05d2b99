//! Signing contexts, reused across signatures: creating one costs more than a
//! signature, so each thread keeps one per key.

use super::ffi;
use super::linked::{crypto, digest, digest_name};
use native_ossl::digest::DigestCtx;
use native_ossl::error::ErrorStack;
use native_ossl::params::ParamBuilder;
use native_ossl::pkey::{Pkey, Private, RawSigner};
use pkit_x509::alg::{Digest, SignatureScheme};
use pkit_x509::backend::Result;
use pkit_x509::backend::Signer;

/// ECDSA and RSA PKCS#1 v1.5: the message is hashed in Rust and the hash signed with one
/// `EVP_PKEY_sign` context kept for the signer's life. `EVP_PKEY_sign` keeps its state
/// between calls, while an `EVP_DigestSign` context would have to be set up again for
/// every message.
pub(super) struct PrehashSigner {
    ctx: RawSigner,
    scheme: SignatureScheme,
    digest: Digest,
    max_len: usize,
}

impl PrehashSigner {
    pub(super) fn new(
        key: &Pkey<Private>,
        scheme: SignatureScheme,
        digest: Digest,
    ) -> Result<Self> {
        let mut ctx = RawSigner::new(key, None).map_err(crypto("signing context"))?;
        if key.is_a(c"RSA") {
            // PKCS#1 v1.5 padding around a DigestInfo naming the hash (RFC 8017 §9.2).
            let p = ParamBuilder::new()
                .and_then(|b| b.push_utf8_string(c"pad-mode", c"pkcs1"))
                .and_then(|b| b.push_utf8_string(c"digest", digest_name(digest)))
                .and_then(|b| b.build())
                .map_err(crypto("signing context"))?;
            ctx.set_params(&p).map_err(crypto("signing context"))?;
        }
        let max_len = ctx
            .sign_len(digest.output_len())
            .map_err(crypto("signing context"))?;
        Ok(PrehashSigner {
            ctx,
            scheme,
            digest,
            max_len,
        })
    }
}

impl Signer for PrehashSigner {
    fn scheme(&self) -> SignatureScheme {
        self.scheme
    }

    fn sign(&mut self, message: &[u8]) -> Result<Vec<u8>> {
        let hash = digest(self.digest, message);
        let mut sig = vec![0u8; self.max_len];
        let n = self.ctx.sign(&hash, &mut sig).map_err(crypto("signing"))?;
        sig.truncate(n);
        Ok(sig)
    }
}

/// Ed25519 and ML-DSA sign the message itself through `EVP_DigestSign`. OpenSSL marks
/// that context finished after each signature; initialising it again with a NULL key
/// re-arms the same provider context (OpenSSL 3.0's `do_sigver_init` "reinit" path)
/// instead of building a new one.
pub(super) struct OneShotSigner {
    ctx: DigestCtx,
    /// Keeps the key alive as long as the context refers to it.
    key: Pkey<Private>,
    scheme: SignatureScheme,
    armed: bool,
    max_len: usize,
    /// Full initialisations (with the key) so far, for tests to see that signing
    /// re-arms the context instead of building it again.
    #[cfg(test)]
    pub(super) full_inits: u32,
}

impl OneShotSigner {
    pub(super) fn new(key: &Pkey<Private>, scheme: SignatureScheme) -> Result<Self> {
        let ctx = DigestCtx::new_empty().map_err(crypto("signing context"))?;
        let mut s = OneShotSigner {
            ctx,
            key: key.clone(),
            scheme,
            armed: false,
            max_len: key.max_output_size(),
            #[cfg(test)]
            full_inits: 0,
        };
        s.init(true)?;
        Ok(s)
    }

    /// `with_key`: a full initialisation; otherwise the re-arm described above.
    fn init(&mut self, with_key: bool) -> Result<()> {
        let pkey = if with_key {
            self.key.as_ptr().cast()
        } else {
            std::ptr::null_mut()
        };
        // SAFETY: ctx is a live EVP_MD_CTX owned by self; pkey is NULL or a live EVP_PKEY
        // that self.key keeps referenced; all other pointers are NULL, which
        // EVP_DigestSignInit_ex accepts (no digest, default library context, no
        // properties, no parameters, no EVP_PKEY_CTX out-pointer).
        let rc = unsafe {
            ffi::EVP_DigestSignInit_ex(
                self.ctx.as_ptr().cast(),
                std::ptr::null_mut(),
                std::ptr::null(),
                std::ptr::null_mut(),
                std::ptr::null(),
                pkey,
                std::ptr::null(),
            )
        };
        if rc != 1 {
            return Err(crypto("signing context")(ErrorStack::drain()));
        }
        self.armed = true;
        #[cfg(test)]
        if with_key {
            self.full_inits += 1;
        }
        Ok(())
    }
}

impl Signer for OneShotSigner {
    fn scheme(&self) -> SignatureScheme {
        self.scheme
    }

    fn sign(&mut self, message: &[u8]) -> Result<Vec<u8>> {
        if !self.armed && self.init(false).is_err() {
            self.init(true)?;
        }
        let mut sig = vec![0u8; self.max_len];
        let mut len = sig.len();
        // SAFETY: ctx was initialised for signing above; sig is writable for len bytes
        // and message readable for its length; OpenSSL writes at most len bytes and
        // stores the signature length in len.
        let rc = unsafe {
            ffi::EVP_DigestSign(
                self.ctx.as_ptr().cast(),
                sig.as_mut_ptr(),
                &mut len,
                message.as_ptr(),
                message.len(),
            )
        };
        self.armed = false;
        if rc != 1 {
            return Err(crypto("signing")(ErrorStack::drain()));
        }
        sig.truncate(len);
        Ok(sig)
    }
}
