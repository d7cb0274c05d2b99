//! What the CA signs with: a serial number holding 64 random bits (BR §7.1, the defence
//! against chosen-prefix hash collisions) and an allowed signature algorithm (BR
//! §7.1.3.2), which the OCSP lints ask about too.

use super::{br, not_smime, CORE, FULL};
use crate::finding::Level;
use crate::rule::Lint;
use pkit_x509::algid::AlgId;

/// BR §7.1.3.2: the signature algorithms a publicly trusted CA signs with (RSASSA-PKCS1
/// v1.5 or RSASSA-PSS, ECDSA; SHA-256, -384 or -512). Why not, when not.
pub(crate) fn signature_not_allowed(alg: &AlgId<'_>) -> Option<String> {
    use pkit_x509::alg::SignatureScheme as S;
    match alg.signature_scheme() {
        Ok(Some(
            S::EcdsaSha256
            | S::EcdsaSha384
            | S::EcdsaSha512
            | S::RsaPkcs1Sha256
            | S::RsaPkcs1Sha384
            | S::RsaPkcs1Sha512,
        )) => None,
        Ok(Some(S::RsaPss { digest, .. })) if digest != pkit_x509::alg::Digest::Sha1 => None,
        _ => Some(format!(
            "{}: the BRs allow RSA (PKCS#1 v1.5 or PSS) and ECDSA with SHA-256, -384 or -512",
            alg.name()
        )),
    }
}

/// The rules of this file.
pub(crate) static LINTS: &[Lint] = &[
    br(
        "e_cabf_serial_low_entropy",
        Level::Error,
        "CA/B Forum TLS BR §7.1",
        CORE,
        not_smime,
        |c, r| {
            // 64 bits of CSPRNG output take 8 octets, or 7 once in 256 (a leading zero
            // octet); 6 or fewer only once in 65,536 draws, so fewer than 7 is a serial
            // that did not hold 64 random bits (a CA drawing exactly 64 bits still gets
            // this finding once in 65,536 certificates).
            let magnitude = pkit_der::integer::unsigned_bytes(c.cert.serial);
            if magnitude.len() < 7 {
                r.report(
                    "tbsCertificate.serialNumber",
                    c.cert.serial_offset,
                    format!(
                        "{} octets of serial: 64 bits of CSPRNG output take 7 or more",
                        magnitude.len()
                    ),
                );
            }
        },
    )
    .since("2016-09-30", "Ballot 164"),
    br(
        "e_cabf_signature_algorithm_not_allowed",
        Level::Error,
        "CA/B Forum TLS BR §7.1.3.2",
        FULL,
        not_smime,
        |c, r| {
            if let Some(why) = signature_not_allowed(&c.cert.signature_algorithm) {
                r.report("signatureAlgorithm", c.cert.signature_algorithm.offset, why);
            }
        },
    )
    .since("2016-01-01", "BR 1.x §7.1.3, SHA-1 sunset"),
];
