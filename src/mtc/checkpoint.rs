//! Checkpoints as C2SP signed notes (`tlog-checkpoint`, `signed-note`, profiled by
//! `mtc-tlog`):
//!
//! ```text
//! oid/1.3.6.1.4.1.32473.1.0.1          <- log origin
//! <tree size in decimal>
//! <base64 root hash>
//!
//! — oid/1.3.6.1.4.1.32473.1 <base64(key_id[4] || u64be timestamp || signature)>
//! ```
//!
//! The signed message follows tlog-cosignature: for an Ed25519 key (type 0x04) the
//! `cosignature/v1` text (`"cosignature/v1\ntime <timestamp>\n"` and the note body), for
//! ML-DSA-44 (0x06) and pkit's other cosigner algorithms the CosignedSubtree
//! (`subtree/v1`) of `[0, size)` with the signing time.

use super::cosign::{cosigned_subtree, Cosigner, CosignerKey};
use super::error::{MtcError, Result};
use super::hash::Hash;
use super::ids::TrustAnchorId;
use super::subtree::Subtree;
use crate::der::tls;
use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine as _;
use pkit_x509::alg::Algorithm;
use pkit_x509::backend::Backend;

/// The signature line marker: an em dash and a space (what
/// `pkit_x509::detect::looks_like_note` tells a note by).
pub const SIG_PREFIX: &str = pkit_x509::detect::NOTE_SIGNATURE_PREFIX;

/// The note body a checkpoint commits to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checkpoint {
    /// The log origin (`oid/1.3.6.1.4.1.<log ID>`).
    pub origin: String,
    /// The tree size the root is of.
    pub size: u64,
    /// The tree's root hash.
    pub root: Hash,
}

/// One signature line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoteSignature {
    /// The signer's note name (`oid/1.3.6.1.4.1.<ID>`).
    pub name: String,
    /// The key ID: the first four bytes of the key's hash with its name and type.
    pub key_id: [u8; 4],
    /// The timestamp (Unix seconds) of signature types that carry one (cosignature/v1),
    /// else 0.
    pub timestamp: u64,
    /// The signature bytes.
    pub signature: Vec<u8>,
}

impl Checkpoint {
    /// The note body: origin, size and base64 root, a line each.
    pub fn body(&self) -> String {
        format!(
            "{}\n{}\n{}\n",
            self.origin,
            self.size,
            B64.encode(self.root)
        )
    }

    /// What `key` signs for this checkpoint at `timestamp` (tlog-cosignature): the
    /// `cosignature/v1` text for Ed25519, the CosignedSubtree `[0, size)` otherwise.
    pub fn signed_message(
        &self,
        log: &TrustAnchorId,
        key: &CosignerKey,
        timestamp: u64,
    ) -> Result<Vec<u8>> {
        if key.alg == Algorithm::Ed25519 {
            return Ok(format!("cosignature/v1\ntime {timestamp}\n{}", self.body()).into_bytes());
        }
        cosigned_subtree(
            &key.id,
            timestamp,
            log,
            Subtree::new(0, self.size),
            &self.root,
        )
    }

    /// One signature line by `cosigner` at `timestamp` (without the final newline).
    pub fn signature_line(
        &self,
        log: &TrustAnchorId,
        cosigner: &Cosigner,
        timestamp: u64,
    ) -> Result<String> {
        let msg = self.signed_message(log, &cosigner.public, timestamp)?;
        let mut signer = cosigner.signer()?;
        let sig = signer.sign(&msg)?;
        let mut blob = tls::Writer::with_capacity(12 + sig.len());
        blob.bytes(&cosigner.public.key_id())
            .u64(timestamp)
            .bytes(&sig);
        Ok(format!(
            "{SIG_PREFIX}{} {}",
            cosigner.public.id.note_name(),
            B64.encode(blob.finish())
        ))
    }

    /// Sign and return the full note.
    pub fn sign(&self, log: &TrustAnchorId, cosigner: &Cosigner, timestamp: u64) -> Result<String> {
        Ok(format!(
            "{}\n{}\n",
            self.body(),
            self.signature_line(log, cosigner, timestamp)?
        ))
    }

    /// Parse a signed note: the body, a blank line, one or more signature lines.
    pub fn parse(note: &str) -> Result<(Checkpoint, Vec<NoteSignature>)> {
        let (body, sigs) = note
            .split_once("\n\n")
            .ok_or_else(|| MtcError::malformed(note.len(), "a blank line before signatures"))?;
        let lines: Vec<&str> = body.split('\n').collect();
        if lines.len() != 3 {
            return Err(MtcError::malformed(
                0,
                "origin, tree size and root hash lines",
            ));
        }
        let size_at = lines[0].len() + 1;
        let size: u64 = lines[1]
            .parse()
            .ok()
            .filter(|_| lines[1] == "0" || !lines[1].starts_with('0'))
            .ok_or_else(|| MtcError::malformed(size_at, "a decimal tree size"))?;
        let root_at = size_at + lines[1].len() + 1;
        let root: Hash = B64
            .decode(lines[2])
            .ok()
            .and_then(|v| v.try_into().ok())
            .ok_or_else(|| MtcError::malformed(root_at, "a base64 SHA-256 root hash"))?;
        let mut out = Vec::new();
        let mut at = body.len() + 2;
        for line in sigs.split_terminator('\n') {
            let bad = || MtcError::malformed(at, "a signature line \"— NAME BASE64\"");
            let rest = line.strip_prefix(SIG_PREFIX).ok_or_else(bad)?;
            let (name, b64) = rest.split_once(' ').ok_or_else(bad)?;
            let blob = B64.decode(b64).map_err(|_| bad())?;
            let mut r = tls::Reader::new(&blob);
            let key_id = r.array().map_err(|_| bad())?;
            let timestamp = r.u64().map_err(|_| bad())?;
            out.push(NoteSignature {
                name: name.to_string(),
                key_id,
                timestamp,
                signature: r.remaining().to_vec(),
            });
            at += line.len() + 1;
        }
        if out.is_empty() || !note.ends_with('\n') {
            return Err(MtcError::malformed(
                note.len(),
                "at least one signature line",
            ));
        }
        Ok((
            Checkpoint {
                origin: lines[0].to_string(),
                size,
                root,
            },
            out,
        ))
    }

    /// Whether `key` signed this checkpoint, judged by the first of `sigs` with its name
    /// and key ID, as Go's `note.Open` judges a note: that line verifying accepts, failing
    /// rejects, later lines of the same key are not consulted, and lines of other keys
    /// are ignored (C2SP signed-note). Only one is verified: a note from a stranger may
    /// carry hundreds of lines with a public name and key ID, and a server that checked
    /// each would spend a signature check per line.
    pub fn signed_by(
        &self,
        backend: &Backend,
        log: &TrustAnchorId,
        key: &CosignerKey,
        sigs: &[NoteSignature],
    ) -> bool {
        let (name, key_id) = (key.id.note_name(), key.key_id());
        sigs.iter()
            .find(|s| s.name == name && s.key_id == key_id)
            .is_some_and(|s| self.verify(backend, log, key, s).unwrap_or(false))
    }

    /// Check one signature line with a cosigner key (matching name and key ID).
    pub fn verify(
        &self,
        backend: &Backend,
        log: &TrustAnchorId,
        key: &CosignerKey,
        sig: &NoteSignature,
    ) -> Result<bool> {
        if sig.name != key.id.note_name()
            || sig.key_id != key.key_id()
            || self.origin != log.note_name()
        {
            return Ok(false);
        }
        let msg = self.signed_message(log, key, sig.timestamp)?;
        key.verify_message(backend, &msg, &sig.signature)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pkit_openssl as openssl;
    use pkit_x509::alg::Algorithm;

    #[test]
    fn sign_parse_verify() {
        let ca = TrustAnchorId::parse("32473.1").unwrap();
        let log = ca.log_id(1);
        let key = openssl::backend().generate(Algorithm::Ed25519).unwrap();
        let c = Cosigner::new(ca, key).unwrap();
        let cp = Checkpoint {
            origin: log.note_name(),
            size: 130,
            root: [3; 32],
        };
        let note = cp.sign(&log, &c, 1_700_000_000).unwrap();
        assert!(note.starts_with("oid/1.3.6.1.4.1.32473.1.0.1\n130\n"));
        let (back, sigs) = Checkpoint::parse(&note).unwrap();
        assert_eq!(back, cp);
        assert_eq!(sigs[0].timestamp, 1_700_000_000);
        assert!(back
            .verify(openssl::backend(), &log, &c.public, &sigs[0])
            .unwrap());
        let mut other = back.clone();
        other.size = 131;
        assert!(!other
            .verify(openssl::backend(), &log, &c.public, &sigs[0])
            .unwrap());
        assert!(Checkpoint::parse("x\n1\n").is_err());
        // tlog-cosignature's Ed25519 message: verified here with the backend directly.
        let msg = format!("cosignature/v1\ntime 1700000000\n{}", cp.body());
        assert!(openssl::backend()
            .verify(
                &c.public.spki,
                Algorithm::Ed25519.default_scheme(),
                msg.as_bytes(),
                &sigs[0].signature
            )
            .unwrap());
    }
}
