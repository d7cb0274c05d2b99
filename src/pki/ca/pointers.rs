//! Where relying parties find out about a certificate: its issuer's OCSP responder and
//! certificate (authorityInfoAccess, RFC 5280 §4.2.2.1) and its CRL (cRLDistributionPoints,
//! §4.2.1.13). A CA records these once (`DIR/ca.json`, [`crate::settings`]) and every
//! certificate it issues carries them.
//!
//! ```asn1
//! AuthorityInfoAccessSyntax ::= SEQUENCE SIZE (1..MAX) OF AccessDescription
//! AccessDescription ::= SEQUENCE { accessMethod OBJECT IDENTIFIER,
//!                                  accessLocation GeneralName }
//! CRLDistributionPoints ::= SEQUENCE SIZE (1..MAX) OF DistributionPoint
//! DistributionPoint ::= SEQUENCE { distributionPoint [0] DistributionPointName OPTIONAL, … }
//! DistributionPointName ::= CHOICE { fullName [0] GeneralNames, … }
//! ```

use crate::der::oid_registry as oids;
use crate::der::{tag, Writer};
use pkit_x509::ext::write::ext;

/// The URLs one certificate points to. Empty lists write no extension.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pointers {
    /// OCSP responders (AIA id-ad-ocsp).
    pub ocsp: Vec<String>,
    /// Where the issuer's certificate is served (AIA id-ad-caIssuers, DER or PKCS#7).
    pub ca_issuers: Vec<String>,
    /// Where the issuer's CRL is served (one distribution point, its fullName).
    pub crl: Vec<String>,
}

/// Why a URL cannot be a pointer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PointerError(pub String);

impl std::fmt::Display for PointerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PointerError {}

/// Check a pointer URL: `http://host…`, ASCII, no spaces. Relying parties fetch
/// revocation data over plain http (RFC 5280 §4.2.1.13 and §4.2.2.1 name http and ldap;
/// RFC 6960 Appendix A.1; the CA/Browser Forum BRs §7.1.2.7 require http): an https
/// responder would need its own certificate checked for revocation first.
pub fn check_url(flag: &str, url: &str) -> Result<(), PointerError> {
    let rest = url.strip_prefix("http://").ok_or_else(|| {
        PointerError(format!(
            "{flag} {url}: expected an http:// URL (clients fetch revocation data and issuer \
             certificates over plain http)"
        ))
    })?;
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    if host.is_empty() || !url.is_ascii() || url.contains(|c: char| c.is_ascii_whitespace()) {
        return Err(PointerError(format!(
            "{flag} {url}: expected http://HOST[:PORT]/PATH in ASCII, without spaces"
        )));
    }
    Ok(())
}

/// The names each kind of pointer URL goes by where it was given (a command's flags, a
/// file's keys), for the messages about them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PointerNames<'a> {
    /// What OCSP responder URLs are given as.
    pub ocsp: &'a str,
    /// What caIssuers URLs are given as.
    pub ca_issuers: &'a str,
    /// What CRL URLs are given as.
    pub crl: &'a str,
}

impl Pointers {
    /// Whether no pointer of any kind is set.
    pub fn is_empty(&self) -> bool {
        self.ocsp.is_empty() && self.ca_issuers.is_empty() && self.crl.is_empty()
    }

    /// These pointers (a CA's) with each kind `given` has replacing that kind, and the
    /// kinds it lacks kept: a certificate that names its own OCSP responder still points
    /// to its CA's CRL. Every URL given is checked first ([`check_url`], named as `names`
    /// says; OCSP, then caIssuers, then CRL).
    pub fn replaced_by(
        &self,
        given: &Pointers,
        names: &PointerNames<'_>,
    ) -> Result<Pointers, PointerError> {
        let kind = |name: &str, given: &[String], own: &[String]| {
            for u in given {
                check_url(name, u)?;
            }
            Ok::<_, PointerError>(if given.is_empty() { own } else { given }.to_vec())
        };
        Ok(Pointers {
            ocsp: kind(names.ocsp, &given.ocsp, &self.ocsp)?,
            ca_issuers: kind(names.ca_issuers, &given.ca_issuers, &self.ca_issuers)?,
            crl: kind(names.crl, &given.crl, &self.crl)?,
        })
    }

    /// Write authorityInfoAccess and cRLDistributionPoints (non-critical, as RFC 5280
    /// requires of both), each only when it has URLs.
    pub fn write(&self, w: &mut Writer) {
        if !self.ocsp.is_empty() || !self.ca_issuers.is_empty() {
            ext(w, &oids::PE_AUTHORITY_INFO_ACCESS, false, |w| {
                w.sequence(|w| {
                    let described = self
                        .ocsp
                        .iter()
                        .map(|u| (&oids::AD_OCSP, u))
                        .chain(self.ca_issuers.iter().map(|u| (&oids::AD_CA_ISSUERS, u)));
                    for (method, url) in described {
                        w.sequence(|w| {
                            w.oid(method);
                            w.primitive(tag::implicit(6), url.as_bytes());
                        });
                    }
                });
            });
        }
        if !self.crl.is_empty() {
            ext(w, &oids::CE_CRL_DIST_POINTS, false, |w| {
                w.sequence(|w| {
                    w.sequence(|w| {
                        write_full_name(w, &self.crl);
                    });
                });
            });
        }
    }
}

/// `[0] DistributionPointName { fullName [0] GeneralNames }` of URIs: what a certificate's
/// distribution point and a CRL's issuingDistributionPoint both hold.
pub fn write_full_name(w: &mut Writer, urls: &[String]) {
    w.tlv(tag::implicit_constructed(0), |w| {
        w.tlv(tag::implicit_constructed(0), |w| {
            for url in urls {
                w.primitive(tag::implicit(6), url.as_bytes());
            }
        });
    });
}

/// The CRL shard of a certificate with serial number `serial` (its magnitude, big-endian)
/// among `shards`: the serial modulo the count. Serials are random, so shards fill
/// evenly; the same function places a certificate at issuance and its revocation in a
/// CRL.
pub fn shard_of(serial: &[u8], shards: u32) -> u32 {
    let n = u64::from(shards.max(1));
    let r = serial
        .iter()
        .fold(0u64, |r, b| (r * 256 + u64::from(*b)) % n);
    r as u32
}

/// Where shard `shard` of the CRL at `url` is served: `-SHARD` before the extension of
/// the path's last segment (`http://ca.example/int.crl` → `http://ca.example/int-3.crl`),
/// or after it when it has none; the query, if any, stays.
pub fn shard_url(url: &str, shard: u32) -> String {
    let (path, query) = match url.find(['?', '#']) {
        Some(i) => url.split_at(i),
        None => (url, ""),
    };
    let last = path.rfind('/').map_or(0, |i| i + 1);
    match path[last..].rfind('.') {
        Some(dot) if dot > 0 => {
            let at = last + dot;
            format!("{}-{shard}{}{query}", &path[..at], &path[at..])
        }
        _ => format!("{path}-{shard}{query}"),
    }
}

/// The path of an `http://host[:port]/path` URL (`/` when it has none), its query and
/// fragment left out: what `pkit ca serve` routes by, whatever host a URL names.
pub fn url_path(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let rest = rest.split(['?', '#']).next().unwrap_or("");
    match rest.find('/') {
        Some(i) => rest[i..].to_string(),
        None => "/".to_string(),
    }
}

/// The URIs a certificate's extensions point to: authorityInfoAccess (OCSP, caIssuers)
/// and cRLDistributionPoints (each point's fullName URIs). What `pkit ca serve` checks a
/// served CA's certificate against: every URL its parent wrote must be answered.
pub fn in_certificate(
    extensions: &pkit_x509::extension::Extensions<'_>,
) -> crate::der::Result<Pointers> {
    use pkit_x509::ext::{decode, DistributionPointName, ExtensionValue, GeneralName};
    let uris = |names: &[GeneralName<'_>]| -> Vec<String> {
        names
            .iter()
            .filter_map(|n| match n {
                GeneralName::Uri(u) => Some(u.to_string()),
                _ => None,
            })
            .collect()
    };
    let mut p = Pointers::default();
    for e in extensions.all()? {
        match decode(e.oid, e.value, e.value_offset)? {
            ExtensionValue::AuthorityInfoAccess(list) => {
                for d in list {
                    let GeneralName::Uri(u) = &d.access_location else {
                        continue;
                    };
                    if d.access_method == oids::AD_OCSP {
                        p.ocsp.push(u.to_string());
                    } else if d.access_method == oids::AD_CA_ISSUERS {
                        p.ca_issuers.push(u.to_string());
                    }
                }
            }
            ExtensionValue::CrlDistributionPoints(points) => {
                for dp in points {
                    if let Some(DistributionPointName::FullName(names)) = &dp.distribution_point {
                        p.crl.extend(uris(names));
                    }
                }
            }
            _ => {}
        }
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pkit_x509::ext::{self as x, ExtensionValue, GeneralName};

    #[test]
    fn writes_what_the_parser_reads() {
        let p = Pointers {
            ocsp: vec!["http://ocsp.example/".into()],
            ca_issuers: vec!["http://ca.example/ca.der".into()],
            crl: vec![
                "http://ca.example/ca.crl".into(),
                "http://b.example/c".into(),
            ],
        };
        let mut w = Writer::new();
        w.sequence(|w| p.write(w));
        let der = w.finish();
        let exts =
            pkit_x509::extension::Extensions::read(&mut crate::der::Reader::new(&der)).unwrap();
        let aia = exts.find(&oids::PE_AUTHORITY_INFO_ACCESS).unwrap().unwrap();
        let Ok(ExtensionValue::AuthorityInfoAccess(list)) = x::decode(aia.oid, aia.value, 0) else {
            panic!("no AIA")
        };
        assert_eq!(list.len(), 2);
        assert_eq!(list[0].access_method, oids::AD_OCSP);
        assert!(
            matches!(&list[1].access_location, GeneralName::Uri(u) if u == "http://ca.example/ca.der")
        );
        let cdp = exts.find(&oids::CE_CRL_DIST_POINTS).unwrap().unwrap();
        assert!(!cdp.critical);
        assert!(x::decode(cdp.oid, cdp.value, 0).is_ok());
        // And read back whole, as `ca serve` reads a served CA's certificate.
        assert_eq!(in_certificate(&exts).unwrap(), p);
    }

    #[test]
    fn shards() {
        assert_eq!(shard_of(&[0x01, 0x00], 16), 0);
        assert_eq!(shard_of(&[0x01, 0x03], 16), 3);
        assert_eq!(shard_of(&[0xff; 20], 1), 0);
        assert_eq!(shard_of(&[0x00, 0x00, 0x07], 5), 2);
        assert_eq!(
            shard_url("http://ca.example/int.crl", 3),
            "http://ca.example/int-3.crl"
        );
        assert_eq!(
            shard_url("http://ca.example/crl", 0),
            "http://ca.example/crl-0"
        );
        assert_eq!(
            shard_url("http://ca.example/a.b/crl", 2),
            "http://ca.example/a.b/crl-2"
        );
        assert_eq!(
            shard_url("http://ca.example/x.crl?v=1", 9),
            "http://ca.example/x-9.crl?v=1"
        );
    }

    #[test]
    fn urls_must_be_plain_http() {
        assert!(check_url("--ocsp-url", "http://127.0.0.1:8080/").is_ok());
        assert!(check_url("--ocsp-url", "http://ocsp.example").is_ok());
        assert!(check_url("--crl-url", "https://ca.example/ca.crl").is_err());
        assert!(check_url("--crl-url", "ldap://ca.example/").is_err());
        assert!(check_url("--crl-url", "http:///x").is_err());
        assert!(check_url("--crl-url", "http://a b/").is_err());
    }

    #[test]
    fn given_kinds_replace_the_cas_and_the_others_stay() {
        let names = PointerNames {
            ocsp: "--ocsp-url",
            ca_issuers: "--issuer-url",
            crl: "--crl-url",
        };
        let urls = |u: &[&str]| u.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let ca = Pointers {
            ocsp: urls(&["http://ocsp.ca.example"]),
            ca_issuers: urls(&["http://ca.example/ca.der"]),
            crl: urls(&["http://ca.example/ca.crl"]),
        };
        let given = Pointers {
            ocsp: urls(&["http://ocsp1.example", "http://ocsp2.example"]),
            ..Pointers::default()
        };
        let p = ca.replaced_by(&given, &names).unwrap();
        assert_eq!(p.ocsp, given.ocsp);
        assert_eq!(
            (p.ca_issuers, p.crl),
            (ca.ca_issuers.clone(), ca.crl.clone())
        );
        assert_eq!(ca.replaced_by(&Pointers::default(), &names).unwrap(), ca);
        // A bad URL is named as it was given, OCSP's before the CRL's.
        let bad = Pointers {
            ocsp: urls(&["https://ocsp.example"]),
            crl: urls(&["ftp://ca.example"]),
            ..Pointers::default()
        };
        let e = Pointers::default().replaced_by(&bad, &names).unwrap_err();
        assert!(e.0.starts_with("--ocsp-url https://ocsp.example: "), "{e}");
    }
}
