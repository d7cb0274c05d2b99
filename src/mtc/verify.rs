//! Relying-party verification (draft-ietf-plants-merkle-tree-certs-07 §7.2). Each check
//! is a [`Step`]; a certificate that fails names the first step it failed.
//!
//! > 1. signature algorithm id-alg-mtcProof without parameters; decode the MTCProof
//! > 2. serial in range and not revoked; index = serial & (2^48−1), log = serial >> 48
//! > 3. rebuild the TBSCertificateLogEntry and MTCLogEntry; entry_hash = HASH(0x00 || entry)
//! > 4. evaluate the inclusion proof to the expected subtree hash
//! > 5. a trusted subtree: hashes equal, no fallback; otherwise the required cosignatures
//! > 6. the ordinary X.509 checks (validity)

use super::cert::{split_serial, split_tbs, tbs_entry_of, CaInfo};
use super::cosign::CosignerKey;
use super::entry::encode_entry;
use super::error::{MtcError, Result};
use super::hash::{leaf_hash, Hash};
use super::ids::TrustAnchorId;
use super::proof::MtcProof;
use super::subtree::Subtree;
use super::tree::evaluate_inclusion_proof;
use crate::der::oid_registry as oids;
use crate::der::{integer, Time};
use pkit_x509::backend::Backend;
use pkit_x509::cert::Certificate;

/// The §7.2 steps, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// The signature algorithm is `id-alg-mtcProof` with absent parameters.
    SignatureAlgorithm,
    /// The serial number decodes to a log and an index.
    Serial,
    /// The issuer is the CA's log.
    Issuer,
    /// The inclusion proof leads from the entry to its subtree's hash.
    Inclusion,
    /// The subtree is one the relying party trusts (a landmark's), with that hash.
    TrustedSubtree,
    /// The CA's (and each trusted cosigner's) signature over the subtree verifies.
    Cosignature,
    /// The certificate is within its validity.
    Validity,
}

impl Step {
    /// The step's name, as reports print it.
    pub fn name(self) -> &'static str {
        match self {
            Step::SignatureAlgorithm => "signature-algorithm",
            Step::Serial => "serial",
            Step::Issuer => "issuer",
            Step::Inclusion => "inclusion-proof",
            Step::TrustedSubtree => "trusted-subtree",
            Step::Cosignature => "cosignature",
            Step::Validity => "validity",
        }
    }
}

/// A subtree the relying party already trusts (a landmark), with its hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrustedSubtree {
    /// The log's number under the CA.
    pub log: u16,
    /// The subtree.
    pub subtree: Subtree,
    /// Its hash, as the relying party learned it.
    pub hash: Hash,
}

impl TrustedSubtree {
    /// The line of the trusted-subtrees file (`pkit mtc landmark list --subtrees` writes
    /// it, `pkit mtc verify --trusted-subtrees` reads it): `LOG START END HEXHASH`.
    pub fn to_line(&self) -> String {
        format!(
            "{} {} {} {}",
            self.log,
            self.subtree.start,
            self.subtree.end,
            crate::der::hex(&self.hash)
        )
    }

    /// Every subtree of a trusted-subtrees file; blank lines and `#` comments skipped.
    /// A line that is not `LOG START END HEXHASH` is malformed at its byte offset.
    pub fn parse_list(text: &str) -> Result<Vec<TrustedSubtree>> {
        let mut out = Vec::new();
        let mut offset = 0;
        for line in text.split_inclusive('\n') {
            let t = line.trim();
            if !t.is_empty() && !t.starts_with('#') {
                let bad = || MtcError::malformed(offset, "\"LOG START END HEXHASH\"");
                let f: Vec<&str> = t.split_whitespace().collect();
                if f.len() != 4 {
                    return Err(bad());
                }
                let hash = (0..32)
                    .map(|i| {
                        f[3].get(2 * i..2 * i + 2)
                            .and_then(|h| u8::from_str_radix(h, 16).ok())
                    })
                    .collect::<Option<Vec<u8>>>()
                    .filter(|_| f[3].len() == 64)
                    .and_then(|v| v.try_into().ok())
                    .ok_or_else(bad)?;
                out.push(TrustedSubtree {
                    log: f[0].parse().map_err(|_| bad())?,
                    subtree: Subtree::new(
                        f[1].parse().map_err(|_| bad())?,
                        f[2].parse().map_err(|_| bad())?,
                    ),
                    hash,
                });
            }
            offset += line.len();
        }
        Ok(out)
    }
}

/// The relying party's policy.
#[derive(Debug, Clone)]
pub struct Policy {
    /// The CA, from its certificate.
    pub ca: CaInfo,
    /// Cosigners whose signatures are checked (the CA's own key is always among them and
    /// always required).
    pub cosigners: Vec<CosignerKey>,
    /// The subtrees trusted out of band (landmarks).
    pub trusted: Vec<TrustedSubtree>,
    /// The verification time.
    pub now: Time,
}

/// What a certificate says, as far as verification got.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// The log the serial names.
    pub log: Option<u16>,
    /// The entry's index the serial names.
    pub index: Option<u64>,
    /// The subtree the proof leads to.
    pub subtree: Option<Subtree>,
    /// The inclusion proof's length (hashes).
    pub proof_len: usize,
    /// Cosigner IDs carried (dotted), in certificate order.
    pub cosigners: Vec<String>,
    /// Cosigner IDs whose signature verified.
    pub verified_cosigners: Vec<String>,
    /// True when the certificate verified against a trusted subtree.
    pub landmark: bool,
    /// The entry's leaf hash.
    pub entry_hash: Option<Hash>,
    /// The subtree's hash the proof gives.
    pub subtree_hash: Option<Hash>,
}

/// The verdict: `failed` is `None` for a valid certificate.
#[derive(Debug, Clone)]
pub struct MtcVerdict {
    /// What was read and checked.
    pub report: Report,
    /// The first step that failed, and why.
    pub failed: Option<(Step, String)>,
}

/// Parse and verify a certificate. `Err` only for bytes that are not a certificate
/// (exit 3); an MTC proof that does not decode fails step 1.
pub fn verify_certificate(backend: &Backend, der: &[u8], policy: &Policy) -> Result<MtcVerdict> {
    let c = Certificate::from_der(der)
        .map_err(|e| MtcError::malformed(e.offset, format!("an X.509 certificate ({e})")))?;
    let mut report = Report::default();
    let fail = |report: Report, step: Step, msg: String| -> Result<MtcVerdict> {
        Ok(MtcVerdict {
            report,
            failed: Some((step, msg)),
        })
    };
    // Step 1.
    let alg_ok = |oid: &[u8], params: bool| oid == oids::ALG_MTC_PROOF.as_bytes() && !params;
    if !alg_ok(
        c.signature_algorithm.oid.as_bytes(),
        c.signature_algorithm.params.is_some(),
    ) || !alg_ok(
        c.tbs_signature.oid.as_bytes(),
        c.tbs_signature.params.is_some(),
    ) {
        return fail(
            report,
            Step::SignatureAlgorithm,
            "the signature algorithm is not id-alg-mtcProof without parameters".into(),
        );
    }
    if c.signature.unused_bits != 0 {
        return fail(
            report,
            Step::SignatureAlgorithm,
            "the signatureValue has unused bits".into(),
        );
    }
    let proof = match MtcProof::decode(c.signature.bytes) {
        Ok(p) => p,
        Err(e) => return fail(report, Step::SignatureAlgorithm, format!("MTCProof: {e}")),
    };
    report.subtree = Some(proof.subtree);
    report.proof_len = proof.inclusion_proof.len();
    report.cosigners = proof
        .signatures
        .iter()
        .map(|s| {
            TrustAnchorId::from_binary(&s.cosigner_id, 0)
                .map_or_else(|_| crate::der::hex(&s.cosigner_id), |i| i.to_string())
        })
        .collect();
    // Step 2.
    let serial = if integer::is_negative(c.serial) {
        None
    } else {
        integer::to_u64(c.serial, c.serial_offset).ok()
    };
    let Some(serial) = serial else {
        return fail(
            report,
            Step::Serial,
            "the serial number is not in [0, 2^64-1]".into(),
        );
    };
    let (log, index) = split_serial(serial);
    report.log = Some(log);
    report.index = Some(index);
    if log == 0 {
        return fail(report, Step::Serial, "log number 0 in the serial".into());
    }
    if serial < policy.ca.min_serial || serial > policy.ca.max_serial {
        return fail(
            report,
            Step::Serial,
            format!("serial {serial:#x} is outside the CA's [minSerial, maxSerial] (revoked)"),
        );
    }
    if TrustAnchorId::from_name_der(c.issuer.raw).as_ref() != Some(&policy.ca.ca_id) {
        return fail(
            report,
            Step::Issuer,
            format!("the issuer is not the CA ID {}", policy.ca.ca_id),
        );
    }
    let log_id = policy.ca.ca_id.log_id(log);
    // Step 3.
    let fields = split_tbs(c.tbs_raw)?;
    let entry = encode_entry(&proof.extensions, &tbs_entry_of(&fields)?)?;
    let entry_hash = leaf_hash(&entry);
    report.entry_hash = Some(entry_hash);
    // Step 4.
    let expected =
        match evaluate_inclusion_proof(index, proof.subtree, &entry_hash, &proof.inclusion_proof) {
            Ok(h) => h,
            Err(e) => return fail(report, Step::Inclusion, e.to_string()),
        };
    report.subtree_hash = Some(expected);
    // Step 5.
    if let Some(t) = policy
        .trusted
        .iter()
        .find(|t| t.log == log && t.subtree == proof.subtree)
    {
        if t.hash != expected {
            return fail(
                report,
                Step::TrustedSubtree,
                format!(
                    "the proof does not lead to the trusted subtree {} hash",
                    proof.subtree
                ),
            );
        }
        report.landmark = true;
    } else {
        let ca_key = CosignerKey::new(policy.ca.ca_id.clone(), policy.ca.spki.clone())?;
        let mut required = vec![ca_key.id.binary().to_vec()];
        let mut keys = vec![ca_key];
        for k in &policy.cosigners {
            if !keys.iter().any(|x| x.id == k.id) {
                keys.push(k.clone());
            }
        }
        for s in &proof.signatures {
            // Relying parties ignore cosigners they do not know.
            let Some(k) = keys
                .iter()
                .find(|k| k.id.binary() == s.cosigner_id.as_slice())
            else {
                continue;
            };
            if !k.verify_subtree(backend, 0, &log_id, proof.subtree, &expected, &s.signature)? {
                return fail(
                    report,
                    Step::Cosignature,
                    format!(
                        "the cosignature of {} over {} does not verify",
                        k.id, proof.subtree
                    ),
                );
            }
            report.verified_cosigners.push(k.id.to_string());
            required.retain(|r| r != &s.cosigner_id);
        }
        if !required.is_empty() {
            return fail(
                report,
                Step::Cosignature,
                format!(
                    "no cosignature from the CA {} and {} is not a trusted subtree",
                    policy.ca.ca_id, proof.subtree
                ),
            );
        }
    }
    // Step 6.
    let (nb, na) = c
        .validity()
        .map_err(|e| MtcError::malformed(e.offset, "a Validity"))?;
    if policy.now < nb || policy.now > na {
        return fail(
            report,
            Step::Validity,
            format!("not valid at {} (valid {} to {})", policy.now, nb, na),
        );
    }
    Ok(MtcVerdict {
        report,
        failed: None,
    })
}

/// The log number and subtree a certificate's MTCProof leads to, and whether it is
/// landmark-relative (carries no cosignatures), when it has one — what a relying party
/// needs to look the subtree up before verifying; anything malformed is left for
/// [`verify_certificate`] to name.
pub fn proof_subtree(der: &[u8]) -> Option<(u16, Subtree, bool)> {
    let c = Certificate::from_der(der).ok()?;
    let proof = MtcProof::decode(c.signature.bytes).ok()?;
    if integer::is_negative(c.serial) {
        return None;
    }
    let serial = integer::to_u64(c.serial, c.serial_offset).ok()?;
    Some((
        split_serial(serial).0,
        proof.subtree,
        proof.signatures.is_empty(),
    ))
}

/// [`verify_certificate`] for many certificates, in order, on the thread pool. Their
/// cosignatures are checked together first: a dry run finds the distinct cosignatures
/// the verifications ask for (certificates of one subtree carry the same ones), one
/// batch checks them (Ed25519 by one multiscalar multiplication), and the
/// verifications then find them answered.
pub fn verify_certificates(
    backend: &Backend,
    ders: &[&[u8]],
    policy: &Policy,
) -> Vec<Result<MtcVerdict>> {
    use pkit_x509::backend::{Prechecked, Question, VerifyItem};
    use rayon::prelude::*;
    let asked = Prechecked::questions_asked(backend, |dry| {
        ders.par_iter().for_each(|d| {
            let _ = verify_certificate(dry, d, policy);
        });
    });
    let items: Vec<VerifyItem<'_>> = asked.iter().map(Question::item).collect();
    let checked = Prechecked::over(backend, &items);
    ders.par_iter()
        .map(|d| verify_certificate(&checked, d, policy))
        .collect()
}

/// The inputs that are certificates to check: a chain as an ACME server serves it ends
/// with the MTC CA certificate `ca_der`, the trust anchor, not a certificate to check
/// against itself; every copy of it is left out. `der` gives an input's bytes.
pub fn without_ca_certificate<T>(
    inputs: Vec<T>,
    ca_der: &[u8],
    der: impl Fn(&T) -> &[u8],
) -> Vec<T> {
    inputs.into_iter().filter(|i| der(i) != ca_der).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_ca_certificate_of_a_served_chain_is_not_checked() {
        let chain = vec![vec![1u8], vec![9], vec![2], vec![9]];
        let left = without_ca_certificate(chain, &[9], |c| c.as_slice());
        assert_eq!(left, [vec![1], vec![2]]);
    }

    #[test]
    fn trusted_subtree_lines_read_back() {
        let t = TrustedSubtree {
            log: 1,
            subtree: Subtree::new(8, 16),
            hash: [0xab; 32],
        };
        let text = format!("# landmarks\n\n{}\n", t.to_line());
        assert_eq!(TrustedSubtree::parse_list(&text).unwrap(), vec![t]);
        let e = TrustedSubtree::parse_list("1 0 8 abcd\n").unwrap_err();
        assert_eq!(e, MtcError::malformed(0, "\"LOG START END HEXHASH\""));
        let e = TrustedSubtree::parse_list("\n1 0 8\n").unwrap_err();
        assert!(matches!(e, MtcError::Malformed { offset: 1, .. }), "{e}");
    }

    use super::*;
    use crate::cert::{build_certificate, ca_certificate, CaCertInput};
    use crate::cosign::Cosigner;
    use crate::entry::{encode_tbs_entry, leaf_extensions, TbsEntryInput};
    use crate::limits::UINT48_MAX;
    use crate::proof::Cosignature;
    use crate::tree::{inclusion_proof, subtree_hash, MemTree};
    use pkit_openssl as openssl;
    use pkit_x509::alg::Algorithm;

    /// A CA cosigner, a second cosigner, and the certificate of entry 2 of 5 carrying
    /// both cosignatures over `[0, 5)`.
    fn setup() -> (Policy, CosignerKey, Vec<u8>) {
        let be = openssl::backend();
        let ca_id = TrustAnchorId::parse("32473.1").unwrap();
        let ca = Cosigner::new(ca_id.clone(), be.generate(Algorithm::Ed25519).unwrap()).unwrap();
        let other_id = TrustAnchorId::parse("32473.99").unwrap();
        let other = Cosigner::new(other_id, be.generate(Algorithm::EcdsaP256).unwrap()).unwrap();
        let now = Time {
            unix: 1_800_000_000,
        };
        let ca_der = ca_certificate(&CaCertInput {
            ca_id: &ca_id,
            spki: &ca.public.spki,
            alg: Algorithm::Ed25519,
            not_before: now,
            not_after: now.plus_seconds(86_400),
            min_serial: 1 << 48,
            max_serial: (1 << 48) | UINT48_MAX,
        });
        let key = be
            .generate(Algorithm::EcdsaP256)
            .unwrap()
            .public_key_der()
            .unwrap();
        let issuer = ca_id.to_name_der();
        let entries: Vec<(Vec<u8>, Vec<u8>)> = (0..5u8)
            .map(|i| {
                let subject = [0x30, 0x00];
                let san = pkit_x509::san::parse_san(&format!("DNS:h{i}.example"))
                    .unwrap()
                    .der;
                let tbs = encode_tbs_entry(&TbsEntryInput {
                    issuer: &issuer,
                    not_before: now,
                    not_after: now.plus_seconds(3600),
                    subject: &subject,
                    spki: &key,
                    extensions: &leaf_extensions(&[san], true, &[]),
                })
                .unwrap();
                (encode_entry(&[], &tbs).unwrap(), tbs)
            })
            .collect();
        let tree = MemTree::from_leaves(entries.iter().map(|(e, _)| leaf_hash(e)).collect());
        let st = Subtree::new(0, 5);
        let h = subtree_hash(&tree, st).unwrap();
        let log = ca_id.log_id(1);
        let sign = |c: &Cosigner| Cosignature {
            cosigner_id: c.public.id.binary().to_vec(),
            signature: c
                .sign_subtree(&mut *c.signer().unwrap(), 0, &log, st, &h)
                .unwrap(),
        };
        let proof = MtcProof {
            extensions: Vec::new(),
            subtree: st,
            inclusion_proof: inclusion_proof(&tree, 2, st).unwrap(),
            signatures: vec![sign(&other), sign(&ca)],
        };
        let cert = build_certificate(&entries[2].1, &key, 1, 2, &proof).unwrap();
        let policy = Policy {
            ca: CaInfo::from_certificate(&ca_der).unwrap(),
            cosigners: Vec::new(),
            trusted: Vec::new(),
            now: now.plus_seconds(60),
        };
        (policy, other.public, cert)
    }

    #[test]
    fn cosigners_known_and_unknown() {
        let (mut policy, other, cert) = setup();
        // The unknown second cosigner is ignored.
        let v = verify_certificate(openssl::backend(), &cert, &policy).unwrap();
        assert!(v.failed.is_none(), "{:?}", v.failed);
        assert_eq!(v.report.cosigners, ["32473.1", "32473.99"]);
        assert_eq!(v.report.verified_cosigners, ["32473.1"]);
        // Known, it is checked too.
        policy.cosigners.push(other.clone());
        let v = verify_certificate(openssl::backend(), &cert, &policy).unwrap();
        assert_eq!(v.report.verified_cosigners, ["32473.1", "32473.99"]);
        // A wrong key for that ID fails the cosignature step.
        let wrong = openssl::backend()
            .generate(Algorithm::EcdsaP256)
            .unwrap()
            .public_key_der()
            .unwrap();
        policy.cosigners = vec![CosignerKey::new(other.id, wrong).unwrap()];
        let v = verify_certificate(openssl::backend(), &cert, &policy).unwrap();
        assert_eq!(v.failed.map(|f| f.0), Some(Step::Cosignature));
    }

    #[test]
    fn validity_and_revoked_serials() {
        let (mut policy, _, cert) = setup();
        policy.now = policy.now.plus_seconds(7200);
        let v = verify_certificate(openssl::backend(), &cert, &policy).unwrap();
        assert_eq!(v.failed.map(|f| f.0), Some(Step::Validity));
        let (mut policy, _, cert) = setup();
        policy.ca.min_serial = (1 << 48) | 3;
        let v = verify_certificate(openssl::backend(), &cert, &policy).unwrap();
        assert_eq!(v.failed.map(|f| f.0), Some(Step::Serial));
    }
}
