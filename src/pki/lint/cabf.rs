//! What the CA/Browser Forum's TLS Baseline Requirements say of certificates (version
//! 2.x with ballot SC-081's validity schedule). `CabfTlsCore` rules hold for a private CA
//! too; `CabfTls` rules only for one that means to be publicly trusted.

use crate::der::oid_registry as oids;
use crate::der::Oid;
use crate::kind::CertType;
use crate::{CertContext, Level, Lint, Reporter, RuleSet};
use pkit_x509::algid::AlgId;
use pkit_x509::ext::crl_dp::DistributionPointName;
use pkit_x509::ext::key_usage as ku;
use pkit_x509::ext::{ExtensionValue, GeneralName};
use pkit_x509::spki::Spki;
use std::net::IpAddr;

const fn br(
    name: &'static str,
    level: Level,
    source: &'static str,
    set: RuleSet,
    applies: fn(CertType) -> bool,
    check: fn(&CertContext<'_>, &mut Reporter<'_>),
) -> Lint {
    Lint {
        name,
        level,
        source,
        set,
        applies,
        check,
        // The BRs' own effective date; lints whose rule came later say when.
        since: Some(crate::Dated::new("2012-07-01", "BR 1.0 effective date")),
        until: None,
    }
}

fn tls(t: CertType) -> bool {
    t == CertType::TlsLeaf
}

fn ca(t: CertType) -> bool {
    t.is_ca()
}

fn root(t: CertType) -> bool {
    t == CertType::Root
}

fn sub_ca(t: CertType) -> bool {
    matches!(t, CertType::Intermediate | CertType::CrossCa)
}

fn ocsp_signer(t: CertType) -> bool {
    t == CertType::OcspSigner
}

/// Every certificate but an S/MIME leaf, which the S/MIME BRs' own key and algorithm
/// rules judge (they allow what the TLS BRs do not, e.g. Ed25519 from S/MIME BR 1.0.3).
fn not_smime(t: CertType) -> bool {
    t != CertType::SmimeLeaf
}

use RuleSet::{CabfTls as FULL, CabfTlsCore as CORE};

/// BR §6.3.2 (SC-081): the longest validity, in days, for a TLS subscriber certificate
/// issued at `at` (POSIX seconds).
pub fn max_validity_days(at: i64) -> i64 {
    const STEPS: [(i64, i64); 3] = [
        (1_773_532_800, 200), // 2026-03-15
        (1_805_068_800, 100), // 2027-03-15
        (1_868_227_200, 47),  // 2029-03-15
    ];
    STEPS
        .iter()
        .rev()
        .find(|(from, _)| at >= *from)
        .map_or(398, |(_, d)| *d)
}

/// The longest validity a TLS subscriber certificate issued at `at` may have, and the
/// rule that says so: BR 1.0 §9.4 (60 months), BR 1.x §6.3.2 (39 months from 2015-04-01;
/// 825 days from 2018-03-01, Ballot 193; 398 days from 2020-09-01, Ballot SC-31), then
/// ballot SC-081's steps.
pub(crate) fn validity_limit(at: i64) -> (Limit, &'static str) {
    use crate::date;
    if at >= const { date("2026-03-15") } {
        (Limit::Days(max_validity_days(at)), "Ballot SC-081")
    } else if at >= const { date("2020-09-01") } {
        (Limit::Days(398), "Ballot SC-31")
    } else if at >= const { date("2018-03-01") } {
        (Limit::Days(825), "Ballot 193")
    } else if at >= const { date("2015-04-01") } {
        (Limit::Months(39), "BR 1.x §6.3.2")
    } else {
        (Limit::Months(60), "BR 1.0 §9.4")
    }
}

/// A validity limit, in days or in calendar months.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Limit {
    Days(i64),
    Months(i64),
}

impl Limit {
    /// Whether a validity from `nb` to `na` (inclusive, POSIX seconds) exceeds it.
    fn exceeded(self, nb: i64, na: i64) -> bool {
        match self {
            // §1.6.4: the validity period includes both its first and its last second.
            Limit::Days(d) => na - nb + 1 > d * 86_400,
            Limit::Months(m) => {
                // Calendar months, a day past the target month's end rolling into the
                // next (2017-01-31 + 39 months = 2020-05-01), as zlint's Go counts them.
                let c = crate::der::Time { unix: nb }.civil();
                let months = i64::from(c.month) - 1 + m;
                let first = crate::der::Time::from_civil(crate::der::time::Civil {
                    year: c.year + months / 12,
                    month: (months % 12 + 1) as u32,
                    day: 1,
                    ..c
                });
                first.is_some_and(|f| na > f.unix + (i64::from(c.day) - 1) * 86_400)
            }
        }
    }

    fn text(self) -> String {
        match self {
            Limit::Days(d) => format!("{d} days"),
            Limit::Months(m) => format!("{m} months"),
        }
    }
}

/// What is wrong with a subordinate CA certificate's extendedKeyUsage, the BRs' profiles
/// told apart by the EKU itself: one with only the Precertificate Signing EKU is a
/// precertificate signing CA (§7.1.2.4); one whose EKU lists neither serverAuth nor
/// anyExtendedKeyUsage is not a TLS CA (§7.1.2.3) and these rules are not its; a TLS CA
/// (§7.1.2.10.6) has serverAuth and not anyExtendedKeyUsage; a cross-certificate
/// (§7.1.2.2, `--as cross-ca`) may also have no EKU at all, or anyExtendedKeyUsage alone.
fn subca_eku_problem(
    kind: CertType,
    ekus: Option<&[crate::der::ObjectId<'_>]>,
) -> Option<&'static str> {
    let cross = kind == CertType::CrossCa;
    let Some(ekus) = ekus else {
        return (!cross).then_some(
            "a TLS subordinate CA certificate must have extendedKeyUsage (with serverAuth)",
        );
    };
    let has = |o: &Oid| ekus.iter().any(|e| *e == *o);
    let any = has(&oids::KP_ANY);
    if ekus.len() == 1 && (has(&PRECERT_SIGNING) || (cross && any)) {
        return None;
    }
    if any {
        return Some(if cross {
            "a cross-certificate with anyExtendedKeyUsage must have no other EKU"
        } else {
            "a TLS subordinate CA certificate must not have anyExtendedKeyUsage"
        });
    }
    None
}

/// The CA/Browser Forum's reserved policy identifiers for TLS certificates (§7.1.6.1).
const RESERVED_POLICIES: [Oid; 4] = [oids::CABF_DV, oids::CABF_OV, oids::CABF_IV, oids::CABF_EV];

/// A DNS name as §7.1.2.7.12 wants it: LDH labels (a wildcard only as the whole first
/// label), 1–63 octets each, at most 253 in all, no empty labels. Why not, when not.
pub(crate) fn dns_name_problem(name: &str) -> Option<&'static str> {
    let n = name.strip_suffix('.').unwrap_or(name);
    if n.is_empty() || n.len() > 253 {
        return Some("is empty or longer than 253 octets");
    }
    for (i, label) in n.split('.').enumerate() {
        if i == 0 && label == "*" {
            continue;
        }
        if label.is_empty() || label.len() > 63 {
            return Some("has an empty label or one longer than 63 octets");
        }
        if label.contains('*') {
            return Some("has a wildcard other than a whole leftmost label");
        }
        if !label
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        {
            return Some("has a character other than a letter, digit or hyphen");
        }
        if label.starts_with('-') || label.ends_with('-') {
            return Some("has a label that starts or ends with a hyphen");
        }
    }
    None
}

/// An Internal Name (BR §1.6.1): one whose rightmost label is not a top-level domain the
/// Public Suffix List's ICANN section knows (`app.internal`, `host.corp`, `localhost`).
/// Onion names are left to Appendix B's own rules.
pub(crate) fn internal_name(name: &str) -> bool {
    let n = name.strip_suffix('.').unwrap_or(name).to_ascii_lowercase();
    let n = n.strip_prefix("*.").unwrap_or(&n);
    if n.ends_with(".onion") {
        return false;
    }
    match psl::suffix(n.as_bytes()) {
        Some(s) => !s.is_known(),
        None => true,
    }
}

/// An address IANA reserves (private, loopback, link-local, documentation, …).
fn reserved_ip(ip: &IpAddr) -> bool {
    match ip {
        IpAddr::V4(a) => {
            a.is_private()
                || a.is_loopback()
                || a.is_link_local()
                || a.is_unspecified()
                || a.is_broadcast()
                || a.is_documentation()
                || a.octets()[0] >= 240
                || (a.octets()[0] == 100 && (64..128).contains(&a.octets()[1]))
        }
        IpAddr::V6(a) => {
            let s = a.segments();
            a.is_loopback()
                || a.is_unspecified()
                || (s[0] & 0xfe00) == 0xfc00
                || (s[0] & 0xffc0) == 0xfe80
                || (s[0] == 0x2001 && s[1] == 0x0db8)
        }
    }
}

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

/// Whether cRLDistributionPoints gives a CRL over http (BR §7.1.2.11.2; S/MIME BR
/// §7.1.2.3(b)).
pub(crate) fn has_http_crl(c: &CertContext<'_>) -> bool {
    match c.value(&oids::CE_CRL_DIST_POINTS) {
        Some(ExtensionValue::CrlDistributionPoints(dps)) => dps.iter().any(|dp| {
            matches!(&dp.distribution_point, Some(DistributionPointName::FullName(names))
                if names.iter().any(|n| matches!(n, GeneralName::Uri(u) if u.starts_with("http://"))))
        }),
        _ => false,
    }
}

/// Whether authorityInfoAccess names an OCSP responder over http.
fn has_ocsp(c: &CertContext<'_>) -> bool {
    match c.value(&oids::PE_AUTHORITY_INFO_ACCESS) {
        Some(ExtensionValue::AuthorityInfoAccess(list)) => list.iter().any(|a| {
            a.access_method == oids::AD_OCSP
                && matches!(&a.access_location, GeneralName::Uri(u) if u.starts_with("http://"))
        }),
        _ => false,
    }
}

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

const SAN: &str = "tbsCertificate.extensions.subjectAltName";

/// RFC 6962 §3.1's Precertificate Signing Certificate EKU, which BR §7.1.2.7.10 forbids
/// in a subscriber certificate (it belongs to a CA's precertificate signer).
const PRECERT_SIGNING: Oid = Oid::new("1.3.6.1.4.1.11129.2.4.4");
const SPKI: &str = "tbsCertificate.subjectPublicKeyInfo";

pub static LINTS: &[Lint] = &[
    br(
        "e_cabf_validity_too_long",
        Level::Error,
        "CA/B Forum TLS BR §6.3.2",
        CORE,
        tls,
        |c, r| {
            let Some((nb, na)) = c.validity() else { return };
            let (limit, rule) = validity_limit(c.at);
            if limit.exceeded(nb, na) {
                r.report(
                    "tbsCertificate.validity",
                    c.cert.validity_offset(),
                    format!(
                        "{} days of validity; at most {} by the rules of {} ({rule})",
                        (na - nb + 86_400) / 86_400,
                        limit.text(),
                        crate::der::Time { unix: c.at }
                            .to_string()
                            .split('T')
                            .next()
                            .unwrap_or_default()
                    ),
                );
            }
        },
    ),
    br(
        "e_cabf_san_missing",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.7.12",
        CORE,
        tls,
        |c, r| {
            if c.dns_or_ip_sans() == 0 {
                r.report(
                "tbsCertificate.extensions",
                c.extensions_offset(),
                "a TLS certificate must name its hosts in subjectAltName (dNSName or iPAddress)",
            );
            }
        },
    ),
    br(
        "e_cabf_san_forbidden_type",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.7.12",
        CORE,
        tls,
        |c, r| {
            for n in c.sans() {
                if !matches!(n, GeneralName::DnsName(_) | GeneralName::IpAddress(_)) {
                    r.report(
                        SAN,
                        c.offset_of(&oids::CE_SUBJECT_ALT_NAME),
                        format!(
                            "a {} name: only dNSName and iPAddress are allowed",
                            n.kind()
                        ),
                    );
                }
            }
        },
    ),
    br(
        "e_cabf_dns_name_malformed",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.7.12",
        CORE,
        tls,
        |c, r| {
            for n in c.sans() {
                if let GeneralName::DnsName(d) = n {
                    if let Some(why) = dns_name_problem(d) {
                        r.report(
                            SAN,
                            c.offset_of(&oids::CE_SUBJECT_ALT_NAME),
                            format!("{d:?} {why}"),
                        );
                    }
                }
            }
        },
    ),
    br(
        "e_cabf_cn_not_in_san",
        Level::Error,
        "CA/B Forum TLS BR §7.1.4.3",
        FULL,
        tls,
        |c, r| {
            // From BR 1.8.0 (SC48, 2021-08-25) byte for byte, an address in its
            // canonical text (dotted decimal, RFC 5952); before, any spelling of one of
            // the names.
            let exact = c.at >= const { crate::date("2021-08-25") };
            let sans = c.sans();
            for cn in c.common_names() {
                let found = sans.iter().any(|n| match n {
                    GeneralName::DnsName(d) if exact => **d == *cn,
                    GeneralName::DnsName(d) => d.eq_ignore_ascii_case(&cn),
                    GeneralName::IpAddress(ip) => ip.address().is_some_and(|a| {
                        if exact {
                            a.to_string() == cn
                        } else {
                            cn.parse::<IpAddr>().is_ok_and(|b| a == b)
                        }
                    }),
                    _ => false,
                });
                if !found {
                    r.report(
                        "tbsCertificate.subject",
                        c.cert.subject.offset,
                        if exact {
                            format!(
                                "commonName {cn:?} is not, byte for byte, one of the \
                                 subjectAltName entries"
                            )
                        } else {
                            format!("commonName {cn:?} is not one of the subjectAltName entries")
                        },
                    );
                }
            }
        },
    ),
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
            } else if c.at >= const { crate::date("2020-08-20") } {
                // §7.1.3.1 (SC31): the AlgorithmIdentifier byte for byte.
                if let Some(p) = spki_encoding_problem(c.spki()) {
                    r.report(SPKI, c.cert.spki.algorithm.offset, p);
                }
            }
        },
    ),
    br(
        "e_cabf_eku_server_auth_missing",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.7.10",
        CORE,
        tls,
        |c, r| {
            let has = c
                .ekus()
                .is_some_and(|e| e.iter().any(|o| *o == oids::KP_SERVER_AUTH));
            if !has {
                r.report(
                    "tbsCertificate.extensions",
                    c.offset_of(&oids::CE_EXT_KEY_USAGE),
                    "extendedKeyUsage must be present with id-kp-serverAuth",
                );
            }
        },
    ),
    br(
        "e_cabf_eku_forbidden",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.7.10",
        CORE,
        tls,
        |c, r| {
            let forbidden: [(&Oid, &str); 6] = [
                (&oids::KP_ANY, "anyExtendedKeyUsage"),
                (&oids::KP_CODE_SIGNING, "codeSigning"),
                (&oids::KP_EMAIL_PROTECTION, "emailProtection"),
                (&oids::KP_TIME_STAMPING, "timeStamping"),
                (&oids::KP_OCSP_SIGNING, "OCSPSigning"),
                (
                    &PRECERT_SIGNING,
                    "Precertificate Signing Certificate (RFC 6962 §3.1)",
                ),
            ];
            // anyExtendedKeyUsage from SC31 (BR 1.7.1, 2020-08-20); the others from
            // BR 2.0.0's profile (SC-62, 2023-09-15).
            let profile = c.at >= const { crate::date("2023-09-15") };
            for e in c.ekus().unwrap_or_default() {
                if let Some((_, name)) = forbidden.iter().find(|(o, _)| *e == **o) {
                    if profile || *e == oids::KP_ANY {
                        r.report(
                            "tbsCertificate.extensions.extKeyUsage",
                            c.offset_of(&oids::CE_EXT_KEY_USAGE),
                            format!("{name} must not be in a TLS server certificate"),
                        );
                    }
                }
            }
        },
    )
    .since("2020-08-20", "Ballot SC31 (BR 1.7.1)"),
    br(
        "e_cabf_leaf_key_usage_ca_bits",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.7.11",
        CORE,
        tls,
        |c, r| {
            let bits = c.key_usage().unwrap_or_default();
            if bits.contains(&ku::KEY_CERT_SIGN) || bits.contains(&ku::CRL_SIGN) {
                r.report(
                    "tbsCertificate.extensions.keyUsage",
                    c.offset_of(&oids::CE_KEY_USAGE),
                    "keyCertSign and cRLSign must not be set in a subscriber certificate",
                );
            }
        },
    ),
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
        "e_cabf_ca_key_usage_bits",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.10.7",
        CORE,
        ca,
        |c, r| {
            let Some(bits) = c.key_usage() else { return };
            if !(bits.contains(&ku::KEY_CERT_SIGN) && bits.contains(&ku::CRL_SIGN)) {
                r.report(
                    "tbsCertificate.extensions.keyUsage",
                    c.offset_of(&oids::CE_KEY_USAGE),
                    "a CA certificate's keyUsage must set keyCertSign and cRLSign",
                );
            }
        },
    ),
    br(
        "e_cabf_ca_key_usage_not_critical",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.10.7",
        CORE,
        ca,
        |c, r| {
            if let Some(e) = c.extension(&oids::CE_KEY_USAGE).filter(|e| !e.critical) {
                r.report(
                    "tbsCertificate.extensions.keyUsage",
                    e.value_offset,
                    "a CA certificate's keyUsage must be critical",
                );
            }
        },
    ),
    br(
        "e_cabf_leaf_key_usage_not_critical",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.7.11",
        CORE,
        tls,
        |c, r| {
            if let Some(e) = c.extension(&oids::CE_KEY_USAGE).filter(|e| !e.critical) {
                r.report(
                    "tbsCertificate.extensions.keyUsage",
                    e.value_offset,
                    "a TLS subscriber certificate's keyUsage must be critical",
                );
            }
        },
    )
    .since("2023-09-15", "Ballot SC-62"),
    br(
        "e_cabf_leaf_key_usage_prohibited",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.7.11",
        CORE,
        tls,
        |c, r| {
            // The bits the profile's table allows by key: RSA digitalSignature,
            // keyEncipherment and (NOT RECOMMENDED) dataEncipherment; ECDSA
            // digitalSignature and (NOT RECOMMENDED) keyAgreement. (keyCertSign and
            // cRLSign are e_cabf_leaf_key_usage_ca_bits'.)
            let Some(bits) = c.key_usage() else { return };
            let Ok(info) = c.spki().key_info() else {
                return;
            };
            let (allowed, key): (&[usize], &str) = match info.family.as_str() {
                "RSA" => (
                    &[
                        ku::DIGITAL_SIGNATURE,
                        ku::KEY_ENCIPHERMENT,
                        ku::DATA_ENCIPHERMENT,
                    ],
                    "an RSA",
                ),
                "EC" => (&[ku::DIGITAL_SIGNATURE, ku::KEY_AGREEMENT], "an ECDSA"),
                _ => return,
            };
            for b in bits
                .iter()
                .filter(|b| !allowed.contains(b) && **b != ku::KEY_CERT_SIGN && **b != ku::CRL_SIGN)
            {
                r.report(
                    "tbsCertificate.extensions.keyUsage",
                    c.offset_of(&oids::CE_KEY_USAGE),
                    format!(
                        "{} must not be set with {key} key",
                        ku::KEY_USAGE_BITS.get(*b).unwrap_or(&"an unnamed bit")
                    ),
                );
            }
        },
    )
    .since("2023-09-15", "Ballot SC-62"),
    br(
        "e_cabf_root_eku_present",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.1.2",
        FULL,
        root,
        |c, r| {
            if let Some(e) = c.extension(&oids::CE_EXT_KEY_USAGE) {
                r.report(
                    "tbsCertificate.extensions.extKeyUsage",
                    e.value_offset,
                    "a root CA certificate must not have extendedKeyUsage",
                );
            }
        },
    ),
    br(
        "e_cabf_policy_missing",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.7.9",
        FULL,
        tls,
        |c, r| {
            // BR 1.x §7.1.6.4: a policy identifier that says the certificate follows the
            // BRs (the CA's own OID would do); from SC31 (2020-09-30) a reserved one.
            let policies = c.policy_oids();
            let reserved = policies
                .iter()
                .any(|p| RESERVED_POLICIES.iter().any(|o| *p == *o));
            if c.at < const { crate::date("2020-09-30") } {
                if policies.is_empty() {
                    r.report(
                        "tbsCertificate.extensions",
                        c.offset_of(&oids::CE_CERT_POLICIES),
                        "certificatePolicies must hold a policy identifier",
                    );
                }
            } else if !reserved {
                r.report(
                    "tbsCertificate.extensions",
                    c.offset_of(&oids::CE_CERT_POLICIES),
                    "certificatePolicies must hold one of the CA/B Forum's reserved policy OIDs",
                );
            }
        },
    ),
    br(
        "e_cabf_ca_subject_attributes_missing",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.10.2",
        FULL,
        ca,
        |c, r| {
            // An empty value says nothing: it is not the attribute being present.
            let has = |oid: &Oid| c.subject_has(oid);
            for (oid, name) in [
                (&oids::AT_COUNTRY, "countryName"),
                (&oids::AT_ORGANIZATION, "organizationName"),
            ] {
                if !has(oid) {
                    r.report(
                        "tbsCertificate.subject",
                        c.cert.subject.offset,
                        format!("a CA certificate's subject must have {name}"),
                    );
                }
            }
        },
    ),
    br(
        "e_cabf_subca_policy_missing",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.10.5",
        FULL,
        sub_ca,
        |c, r| {
            if c.extension(&oids::CE_CERT_POLICIES).is_none() {
                r.report(
                    "tbsCertificate.extensions",
                    c.extensions_offset(),
                    "a subordinate CA certificate must have certificatePolicies",
                );
            }
        },
    ),
    br(
        "e_cabf_subca_eku_missing",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.10.6",
        FULL,
        sub_ca,
        |c, r| {
            // anyExtendedKeyUsage from SC31 (2020-08-20); EKU required by BR 2.0.0's
            // profile (SC-62, 2023-09-15).
            let ekus = c.ekus();
            if ekus.is_none() && c.at < const { crate::date("2023-09-15") } {
                return;
            }
            if let Some(why) = subca_eku_problem(c.kind, ekus) {
                r.report(
                    "tbsCertificate.extensions",
                    c.offset_of(&oids::CE_EXT_KEY_USAGE),
                    why,
                );
            }
        },
    )
    .since("2020-08-20", "Ballot SC31 (BR 1.7.1)"),
    br(
        "e_cabf_aia_missing",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.7.7",
        FULL,
        tls,
        |c, r| {
            if c.extension(&oids::PE_AUTHORITY_INFO_ACCESS).is_none() {
                r.report(
                    "tbsCertificate.extensions",
                    c.extensions_offset(),
                    "a TLS subscriber certificate must have authorityInfoAccess",
                );
            }
        },
    ),
    br(
        "w_cabf_aia_ca_issuers_missing",
        Level::Warning,
        "CA/B Forum TLS BR §7.1.2.7.7",
        FULL,
        tls,
        |c, r| {
            let aia = match c.value(&oids::PE_AUTHORITY_INFO_ACCESS) {
                Some(ExtensionValue::AuthorityInfoAccess(list)) => list,
                // Its absence is e_cabf_aia_missing.
                _ => return,
            };
            let has = aia.iter().any(|a| {
                a.access_method == oids::AD_CA_ISSUERS
                    && matches!(&a.access_location, GeneralName::Uri(u) if u.starts_with("http://"))
            });
            if !has {
                r.report(
                    "tbsCertificate.extensions.authorityInfoAccess",
                    c.offset_of(&oids::PE_AUTHORITY_INFO_ACCESS),
                    "authorityInfoAccess should give the issuing CA's certificate (caIssuers, \
                     http)",
                );
            }
        },
    ),
    br(
        "e_cabf_ocsp_url_missing",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.3(c)",
        FULL,
        tls,
        |c, r| {
            // BR 1.x: authorityInformationAccess MUST hold the OCSP responder's http URL
            // (the CRL pointer was optional).
            if !has_ocsp(c) {
                r.report(
                    "tbsCertificate.extensions",
                    c.offset_of(&oids::PE_AUTHORITY_INFO_ACCESS),
                    "authorityInfoAccess must give the OCSP responder (http)",
                );
            }
        },
    )
    .until("2023-09-15", "BR 2.0.0, Ballot SC-62"),
    br(
        "e_cabf_crl_distribution_point_missing",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.11.2",
        FULL,
        tls,
        |c, r| {
            // SC-063: a CRL is where revocation is told unless an OCSP responder is
            // named, or the certificate is short-lived (§1.6.1: ≤ 10 days; ≤ 7 from
            // 2026-03-15, SC-081).
            if has_http_crl(c) || has_ocsp(c) {
                return;
            }
            let short = if c.at >= const { crate::date("2026-03-15") } {
                7
            } else {
                10
            };
            if c.validity()
                // Inclusive of the last second (§1.6.4): `na - nb + 1 <= short days`.
                .is_some_and(|(nb, na)| na - nb < short * 86_400)
            {
                return;
            }
            r.report(
                "tbsCertificate.extensions",
                c.offset_of(&oids::CE_CRL_DIST_POINTS),
                "cRLDistributionPoints must give the CA's CRL (http): the certificate names no \
                 OCSP responder and is not short-lived",
            );
        },
    )
    .since("2024-03-15", "Ballot SC-063"),
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
    br(
        "e_cabf_ocsp_signer_nocheck_missing",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.8.2",
        CORE,
        ocsp_signer,
        |c, r| {
            if c.extension(&oids::PKIX_OCSP_NOCHECK).is_none() {
                r.report(
                    "tbsCertificate.extensions",
                    c.extensions_offset(),
                    "a delegated OCSP responder's certificate must carry id-pkix-ocsp-nocheck, \
                     or clients check its revocation with itself",
                );
            }
        },
    ),
    br(
        "e_cabf_ocsp_signer_eku",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.8.5",
        CORE,
        ocsp_signer,
        |c, r| {
            let ekus = c.ekus().unwrap_or_default();
            let signing = ekus.iter().any(|o| *o == oids::KP_OCSP_SIGNING);
            if !signing || ekus.len() != 1 {
                r.report(
                    "tbsCertificate.extensions.extKeyUsage",
                    c.offset_of(&oids::CE_EXT_KEY_USAGE),
                    "a delegated OCSP responder's extendedKeyUsage must be id-kp-OCSPSigning \
                     alone",
                );
            }
        },
    )
    .since("2023-09-15", "Ballot SC-62"),
    br(
        "e_cabf_internal_name",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.7.12",
        FULL,
        tls,
        |c, r| {
            for n in c.sans() {
                if let GeneralName::DnsName(d) = n {
                    if dns_name_problem(d).is_none() && internal_name(d) {
                        r.report(
                            SAN,
                            c.offset_of(&oids::CE_SUBJECT_ALT_NAME),
                            format!(
                                "{d:?} is an internal name: its top-level domain is not in the \
                                 Public Suffix List"
                            ),
                        );
                    }
                }
            }
        },
    )
    .since("2015-11-01", "BR 1.x §7.1.4.2.1"),
    br(
        "e_cabf_ip_reserved",
        Level::Error,
        "CA/B Forum TLS BR §7.1.2.7.12",
        FULL,
        tls,
        |c, r| {
            for n in c.sans() {
                if let GeneralName::IpAddress(ip) = n {
                    if let Some(a) = ip.address().filter(reserved_ip) {
                        r.report(
                            SAN,
                            c.offset_of(&oids::CE_SUBJECT_ALT_NAME),
                            format!("{a} is a reserved address"),
                        );
                    }
                }
            }
        },
    )
    .since("2015-11-01", "BR 1.x §7.1.4.2.1"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dns_names_and_addresses() {
        assert!(dns_name_problem("www.example.com").is_none());
        assert!(dns_name_problem("*.example.com").is_none());
        assert!(dns_name_problem("app.internal").is_none());
        assert!(dns_name_problem("a_b.example.com").is_some());
        assert!(dns_name_problem("w*.example.com").is_some());
        assert!(dns_name_problem("-a.example").is_some());
        assert!(dns_name_problem("a..example").is_some());
        assert!(internal_name("app.internal"));
        assert!(internal_name("localhost"));
        assert!(internal_name("*.corp."));
        assert!(!internal_name("www.example.com"));
        assert!(!internal_name("*.example.co.uk"));
        assert!(!internal_name("example.com."));
        assert!(!internal_name("x.onion"));
        assert!(reserved_ip(&"10.1.2.3".parse().unwrap()));
        assert!(reserved_ip(&"fd00::1".parse().unwrap()));
        assert!(!reserved_ip(&"8.8.8.8".parse().unwrap()));
        assert_eq!(max_validity_days(1_773_532_799), 398);
        assert_eq!(max_validity_days(1_868_227_200), 47);
    }

    #[test]
    fn the_validity_schedule_by_issuance() {
        use crate::date;
        let day = 86_400;
        let limit = |d: &str| validity_limit(date(d)).0;
        assert_eq!(limit("2013-01-01"), Limit::Months(60));
        assert_eq!(limit("2015-04-01"), Limit::Months(39));
        assert_eq!(limit("2018-02-28"), Limit::Months(39));
        assert_eq!(limit("2018-03-01"), Limit::Days(825));
        assert_eq!(limit("2020-08-31"), Limit::Days(825));
        assert_eq!(limit("2020-09-01"), Limit::Days(398));
        assert_eq!(limit("2026-03-15"), Limit::Days(200));
        assert_eq!(limit("2027-03-15"), Limit::Days(100));
        assert_eq!(limit("2029-03-15"), Limit::Days(47));
        // Inclusive of the last second (§1.6.4): 398 days end one second early.
        let nb = date("2021-01-01");
        assert!(!Limit::Days(398).exceeded(nb, nb + 398 * day - 1));
        assert!(Limit::Days(398).exceeded(nb, nb + 398 * day));
        // 39 calendar months from 2017-01-01 end on 2020-04-01; from 2017-01-31, on
        // 2020-05-01 (April has 30 days).
        let nb = date("2017-01-01");
        assert!(!Limit::Months(39).exceeded(nb, date("2020-04-01")));
        assert!(Limit::Months(39).exceeded(nb, date("2020-04-01") + 1));
        let nb = date("2017-01-31");
        assert!(!Limit::Months(39).exceeded(nb, date("2020-05-01")));
        assert!(Limit::Months(39).exceeded(nb, date("2020-05-01") + 1));
    }

    #[test]
    fn subordinate_ca_ekus_by_profile() {
        use crate::der::ObjectId;
        let server = ObjectId::from_valid(oids::KP_SERVER_AUTH.as_bytes());
        let any = ObjectId::from_valid(oids::KP_ANY.as_bytes());
        let precert = ObjectId::from_valid(PRECERT_SIGNING.as_bytes());
        let email = ObjectId::from_valid(oids::KP_EMAIL_PROTECTION.as_bytes());
        let sub = CertType::Intermediate;
        let cross = CertType::CrossCa;
        assert!(subca_eku_problem(sub, None).is_some());
        assert!(subca_eku_problem(cross, None).is_none());
        assert!(subca_eku_problem(sub, Some(&[server])).is_none());
        assert!(subca_eku_problem(sub, Some(&[server, any])).is_some());
        assert!(subca_eku_problem(sub, Some(&[any])).is_some());
        assert!(subca_eku_problem(cross, Some(&[any])).is_none());
        assert!(subca_eku_problem(cross, Some(&[any, server])).is_some());
        assert!(subca_eku_problem(sub, Some(&[precert])).is_none());
        // A non-TLS CA: not this rule's.
        assert!(subca_eku_problem(sub, Some(&[email])).is_none());
    }
}
