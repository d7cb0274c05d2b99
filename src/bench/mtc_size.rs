//! `pkit mtc size`: what a relying party downloads for one TLS server certificate of a
//! given algorithm — a standalone MTC certificate (with one cosignature), a
//! landmark-relative one (none), and the X.509 leaf with the intermediate it needs —
//! each built for real with the same key type, the inclusion proof `proof_hashes` long.

use super::Result;
use pkit_ca::issuer::{self_signed, Issuer, Request};
use pkit_ca::profile::Profile;
use pkit_der::Time;
use pkit_mtc::cert::build_certificate;
use pkit_mtc::cosign::COSIGNER_ALGORITHMS;
use pkit_mtc::entry::{
    encode_entry, encode_tbs_entry, leaf_extensions, parse_entry, TbsEntryInput,
};
use pkit_mtc::ids::TrustAnchorId;
use pkit_mtc::proof::{Cosignature, MtcProof};
use pkit_mtc::subtree::Subtree;
use pkit_mtc::MtcError;
use pkit_x509::alg::Algorithm;
use pkit_x509::backend::Backend;
use pkit_x509::san::parse_san;
use pkit_x509::subject::parse_subject;

/// The longest inclusion proof a log of 2^48 entries can have, less one.
pub const MAX_PROOF_HASHES: usize = 47;

/// The sizes, in bytes, of one server certificate each way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CertificateSizes {
    /// The inclusion proof's length used, in hashes.
    pub proof_hashes: usize,
    /// A standalone MTC certificate with the CA's cosignature.
    pub standalone: usize,
    /// A landmark-relative MTC certificate (no signature).
    pub landmark_relative: usize,
    /// The X.509 leaf.
    pub x509_leaf: usize,
    /// The intermediate that signs it.
    pub x509_intermediate: usize,
}

/// Build each kind of certificate for `alg` (an MTC cosigner algorithm) with keys from
/// `backend`, the proof `proof_hashes` long (at most [`MAX_PROOF_HASHES`]).
pub fn certificate_sizes(
    backend: &Backend,
    alg: Algorithm,
    proof_hashes: usize,
) -> Result<CertificateSizes> {
    if !COSIGNER_ALGORITHMS.contains(&alg) {
        return Err(MtcError::Invalid(format!("{alg}: not an MTC cosigner algorithm")).into());
    }
    let now = Time::now();
    let later = now.plus_seconds(7 * 86_400);
    let name = |text: &str| parse_subject(text).map_err(|e| MtcError::Invalid(e.0));
    let subject = name("CN=www.example.com")?;
    let san = parse_san("DNS:www.example.com").map_err(|e| MtcError::Invalid(e.0))?;
    let spki = backend.generate(alg)?.public_key_der()?;
    let ca_id = TrustAnchorId::parse("32473.1")?;
    let ext = leaf_extensions(std::slice::from_ref(&san.der), false, &[]);
    let tbs = encode_tbs_entry(&TbsEntryInput {
        issuer: &ca_id.to_name_der(),
        not_before: now,
        not_after: later,
        subject: &subject,
        spki: &spki,
        extensions: &ext,
    })?;
    let entry = encode_entry(&[], &tbs)?;
    let n = proof_hashes.min(MAX_PROOF_HASHES);
    let mut proof = MtcProof {
        extensions: Vec::new(),
        subtree: Subtree::new(0, 1u64 << n),
        inclusion_proof: vec![[0u8; 32]; n],
        signatures: vec![Cosignature {
            cosigner_id: ca_id.binary().to_vec(),
            signature: backend.generate(alg)?.sign(b"size estimate")?,
        }],
    };
    let tbs_entry = parse_entry(&entry)?.tbs_entry;
    let standalone = build_certificate(tbs_entry, &spki, 1, 0, &proof)?.len();
    proof.signatures.clear();
    let landmark_relative = build_certificate(tbs_entry, &spki, 1, 0, &proof)?.len();
    // The X.509 comparison: an intermediate of the same algorithm and the leaf it signs.
    let inter_key = backend.generate(alg)?;
    let inter = self_signed(
        inter_key.as_ref(),
        &name("CN=Example Issuing CA,O=Example")?,
        now,
        later,
        Some(0),
    )?;
    let x509_intermediate = inter.len();
    let issuer = Issuer::new(inter, inter_key)?;
    let mut signer = issuer.key.signer()?;
    let leaf = issuer.issue(
        signer.as_mut(),
        &Request {
            key_alg: Some(alg),
            sans: vec![san.der],
            ..Request::new(subject, spki, Profile::Server, now, later)
        },
    )?;
    Ok(CertificateSizes {
        proof_hashes: n,
        standalone,
        landmark_relative,
        x509_leaf: leaf.der.len(),
        x509_intermediate,
    })
}
