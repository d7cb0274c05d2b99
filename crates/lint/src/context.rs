//! One certificate as the lints see it: the parsed fields, its extensions decoded once,
//! and its type.

use crate::der::oid_registry as oids;
use crate::der::{ObjectId, Oid};
use crate::kind::CertType;
use pkit_x509::cert::Certificate;
use pkit_x509::ext::basic_constraints::BasicConstraints;
use pkit_x509::ext::{self, ExtensionValue, GeneralName};
use pkit_x509::extension::Extension;

/// A certificate and what every lint asks of it, the extensions most lints read decoded
/// once (the gate lints every certificate pkit signs, so this is on the issuing path).
pub struct CertContext<'a> {
    pub cert: &'a Certificate<'a>,
    /// Its extensions in order (empty when it has none or they do not decode).
    pub extensions: Vec<Extension<'a>>,
    pub kind: CertType,
    bc: Option<BasicConstraints>,
    ku: Option<Vec<usize>>,
    ekus: Option<Vec<ObjectId<'a>>>,
    sans: Vec<GeneralName<'a>>,
}

impl<'a> CertContext<'a> {
    pub fn new(cert: &'a Certificate<'a>, as_type: Option<CertType>) -> CertContext<'a> {
        let extensions = cert
            .extensions
            .and_then(|x| x.all().ok())
            .unwrap_or_default();
        let mut ctx = CertContext {
            cert,
            extensions,
            kind: CertType::Leaf,
            bc: None,
            ku: None,
            ekus: None,
            sans: Vec::new(),
        };
        ctx.bc = match ctx.value(&oids::CE_BASIC_CONSTRAINTS) {
            Some(ExtensionValue::BasicConstraints(b)) => Some(b),
            _ => None,
        };
        ctx.ku = match ctx.value(&oids::CE_KEY_USAGE) {
            Some(ExtensionValue::KeyUsage(bits)) => Some(bits.set_bits().collect()),
            _ => None,
        };
        ctx.ekus = match ctx.value(&oids::CE_EXT_KEY_USAGE) {
            Some(ExtensionValue::ExtendedKeyUsage(list)) => Some(list),
            _ => None,
        };
        ctx.sans = match ctx.value(&oids::CE_SUBJECT_ALT_NAME) {
            Some(ExtensionValue::SubjectAltName(n)) => n,
            _ => Vec::new(),
        };
        ctx.kind = as_type.unwrap_or_else(|| CertType::detect(&ctx));
        ctx
    }

    /// The first extension `oid`.
    pub fn extension(&self, oid: &Oid) -> Option<&Extension<'a>> {
        self.extensions.iter().find(|e| e.oid == *oid)
    }

    /// The decoded value of extension `oid` (`None` when absent or undecodable).
    pub fn value(&self, oid: &Oid) -> Option<ExtensionValue<'a>> {
        let e = self.extension(oid)?;
        ext::decode(e.oid, e.value, e.value_offset).ok()
    }

    pub fn basic_constraints(&self) -> Option<BasicConstraints> {
        self.bc
    }

    /// The extended key usages, when the extension is there.
    pub fn ekus(&self) -> Option<&[ObjectId<'a>]> {
        self.ekus.as_deref()
    }

    /// The keyUsage bits set, when the extension is there.
    pub fn key_usage(&self) -> Option<&[usize]> {
        self.ku.as_deref()
    }

    pub fn sans(&self) -> &[GeneralName<'a>] {
        &self.sans
    }

    pub fn dns_or_ip_sans(&self) -> usize {
        self.sans()
            .iter()
            .filter(|n| matches!(n, GeneralName::DnsName(_) | GeneralName::IpAddress(_)))
            .count()
    }

    /// Where an extension's value starts, for findings about it; the extensions' start
    /// (or the TBS's) when it is absent.
    pub fn offset_of(&self, oid: &Oid) -> usize {
        self.extension(oid)
            .map(|e| e.value_offset)
            .unwrap_or_else(|| self.extensions_offset())
    }

    /// Where the extensions are (or would be): the first one's value, else the subject
    /// public key's end.
    pub fn extensions_offset(&self) -> usize {
        self.extensions
            .first()
            .map(|e| e.value_offset)
            .unwrap_or(self.cert.spki.offset + self.cert.spki.raw.len())
    }

    /// Where `part` (a slice of the certificate) starts in it.
    pub fn offset_in(&self, part: &[u8]) -> usize {
        (part.as_ptr() as usize).saturating_sub(self.cert.raw.as_ptr() as usize)
    }

    /// The subject's commonName values.
    pub fn common_names(&self) -> Vec<String> {
        self.cert
            .subject
            .rdns()
            .unwrap_or_default()
            .iter()
            .flatten()
            .filter(|a| a.oid == oids::AT_COMMON_NAME)
            .filter_map(|a| a.text().ok())
            .collect()
    }

    /// The validity, in POSIX seconds (not before, not after).
    pub fn validity(&self) -> Option<(i64, i64)> {
        self.cert.validity().ok().map(|(b, a)| (b.unix, a.unix))
    }
}
