//! The subject public key (BR §6.1.5, §7.1.3.1): RSA of at least 2048 bits or ECDSA on
//! P-256, P-384 or P-521, and, for a publicly trusted CA, only those algorithms in the
//! one encoding §7.1.3.1 fixes. The key checks are shared with the CSR lints and the
//! S/MIME rules.

use super::{br, not_smime, CORE, FULL};
use crate::context::CertContext;
use crate::finding::Level;
use crate::rule::{Lint, Reporter};
use pkit_x509::spki::Spki;

/// §6.1.5 (and the S/MIME BRs' §6.1.5, which say the same): RSA of at least 2048 bits
/// in whole octets, ECDSA on P-256, P-384 or P-521. Why not, when not.
pub(crate) fn weak_key_problem(spki: &Spki<'_>) -> Option<String> {
    let info = spki.key_info().ok()?;
    let bits = info.bits.unwrap_or(0);
    match info.family.as_str() {
        "RSA" if bits < 2048 => Some(format!("an RSA key of {bits} bits; at least 2048")),
        "RSA" if bits % 8 != 0 => Some(format!(
            "an RSA modulus of {bits} bits, not a whole number of octets"
        )),
        "EC" => match info.parameters.as_deref() {
            Some("P-256" | "P-384" | "P-521") => None,
            other => Some(format!(
                "an EC key on {}; P-256, P-384 or P-521",
                other.unwrap_or("an unnamed curve")
            )),
        },
        _ => None,
    }
}

/// §6.1.5 for a publicly trusted CA: RSA or ECDSA keys only. Why not, when not.
pub(crate) fn key_algorithm_problem(spki: &Spki<'_>) -> Option<String> {
    let info = spki.key_info().ok()?;
    (!matches!(info.family.as_str(), "RSA" | "EC")).then(|| {
        format!(
            "an {} key; publicly trusted TLS certificates have RSA or ECDSA keys",
            info.family
        )
    })
}

/// BR §7.1.3.1.1 and §7.1.3.1.2: the only encodings of the subject key's
/// AlgorithmIdentifier (RSA with NULL parameters; ECDSA with its named curve). What is
/// wrong, when something is.
fn spki_encoding_problem(spki: &Spki<'_>) -> Option<String> {
    const RSA: &[u8] = &[
        0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00,
    ];
    const P256: &[u8] = &[
        0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a, 0x86,
        0x48, 0xce, 0x3d, 0x03, 0x01, 0x07,
    ];
    const P384: &[u8] = &[
        0x30, 0x10, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x05, 0x2b, 0x81,
        0x04, 0x00, 0x22,
    ];
    const P521: &[u8] = &[
        0x30, 0x10, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x05, 0x2b, 0x81,
        0x04, 0x00, 0x23,
    ];
    let raw = spki.algorithm.raw;
    let info = spki.key_info().ok()?;
    let ok = match info.family.as_str() {
        "RSA" => raw == RSA,
        "EC" => [P256, P384, P521].contains(&raw),
        _ => return None,
    };
    (!ok).then(|| {
        format!(
            "the {} key's AlgorithmIdentifier is encoded as {}, not as BR §7.1.3.1 fixes it",
            info.family,
            crate::der::hex(raw)
        )
    })
}

/// [`weak_key_problem`] of a certificate's key, as a finding.
pub(crate) fn weak_key(c: &CertContext<'_>, r: &mut Reporter<'_>) {
    if let Some(p) = weak_key_problem(c.spki()) {
        r.report(SPKI, c.cert.spki.offset, p);
    }
}
const SPKI: &str = "tbsCertificate.subjectPublicKeyInfo";

/// The rules of this file.
pub(crate) static LINTS: &[Lint] = &[
    br(
        "e_cabf_weak_key",
        Level::Error,
        "CA/B Forum TLS BR §6.1.5",
        CORE,
        not_smime,
        weak_key,
    ),
    br(
        "e_cabf_key_algorithm_not_allowed",
        Level::Error,
        "CA/B Forum TLS BR §6.1.5",
        FULL,
        not_smime,
        |c, r| {
            if let Some(p) = key_algorithm_problem(c.spki()) {
                r.report(SPKI, c.cert.spki.offset, p);
            } else if c.at >= const { crate::dates::date("2020-08-20") } {
                // §7.1.3.1 (SC31): the AlgorithmIdentifier byte for byte.
                if let Some(p) = spki_encoding_problem(c.spki()) {
                    r.report(SPKI, c.cert.spki.algorithm.offset, p);
                }
            }
        },
    ),
];
