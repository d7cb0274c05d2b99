//! Targets for the objects `pkit parse` reads — certificates, CSRs, CRLs, OCSP messages,
//! PKCS#7 / CMS, PKCS#12, SubjectPublicKeyInfo and PKCS#8 — each run through
//! [`crate::describe::describe`], the very function `parse` calls, strictly and then
//! leniently (`parse --lenient`), with `PASSWORD` for what is encrypted (`--passin`),
//! and the JSON written out (so lists `parse` writes while printing, a CRL's entries, are
//! read too). Every field `parse` decodes meets the fuzzer's bytes; nothing here imitates
//! it.

use crate::der::Time;
use crate::describe::{describe, Ctx};
use crate::pki::backend::openssl;
use crate::pki::detect::Kind;
use std::hint::black_box;

/// The password every encrypted seed is made with (`fuzz/seed.sh`), and that the
/// `cryptography_vectors` PKCS#12 files mostly use.
pub const PASSWORD: &[u8] = b"cryptography";

/// A formatted value, kept from being optimised away.
pub fn show(v: impl std::fmt::Debug) {
    black_box(format!("{v:?}"));
}

/// Describe `data` as `kind` in both modes, as `parse --type KIND [--lenient]` would;
/// whether it succeeded.
fn both_modes(kind: Kind, data: &[u8]) -> bool {
    let mut ok = false;
    for lenient in [false, true] {
        let ctx = Ctx {
            // Fixed, so that a crash replays whatever the date.
            now: Time {
                unix: 1_767_225_600,
            },
            show_private: true,
            password: Some(PASSWORD.to_vec()),
            lenient,
            backend: openssl::backend(),
        };
        match describe(kind, data, &ctx) {
            Ok(d) => {
                black_box(serde_json::to_string(&d).ok());
                show(&d.warnings);
                ok = true;
            }
            Err(e) => show(e),
        }
    }
    ok
}

pub fn certificate(data: &[u8]) {
    both_modes(Kind::Certificate, data);
}

pub fn csr(data: &[u8]) {
    both_modes(Kind::Csr, data);
}

pub fn crl(data: &[u8]) {
    both_modes(Kind::Crl, data);
}

pub fn pkcs7(data: &[u8]) {
    both_modes(Kind::Pkcs7, data);
}

pub fn ocsp_request(data: &[u8]) {
    both_modes(Kind::OcspRequest, data);
}

pub fn ocsp_response(data: &[u8]) {
    both_modes(Kind::OcspResponse, data);
}

/// A PFX: the MAC checked with `PASSWORD`, every safe opened and every bag described.
pub fn pkcs12(data: &[u8]) {
    both_modes(Kind::Pkcs12, data);
}

pub fn spki(data: &[u8]) {
    both_modes(Kind::Spki, data);
}

/// A PKCS#8 key, plain or else encrypted (then decrypted with `PASSWORD`).
pub fn pkcs8(data: &[u8]) {
    if !both_modes(Kind::Pkcs8, data) {
        both_modes(Kind::EncryptedPkcs8, data);
    }
}
