//! One certificate as the lints see it: the parsed fields, its extensions decoded once,
//! its type, the day it is judged as of, and what of it did not decode.
//!
//! Nothing that fails to decode is read as absent. Each part is decoded strictly, then,
//! when that fails, leniently: a part that decodes leniently is used and its deviations
//! become findings ([`crate::encoding`]); a part that does not decode at all is a finding
//! of its own, and a lint that asks for it (through the accessors below) is reported as
//! not run instead of judging a certificate it cannot see.

use crate::cert_type::CertType;
use crate::der::oid_registry as oids;
use crate::der::Deviation;
use crate::der::{Deviations, ErrorKind, ObjectId, Oid, Reader};
use pkit_x509::cert::Certificate;
use pkit_x509::ext::BasicConstraints;
use pkit_x509::ext::{self, ExtensionValue, GeneralName};
use pkit_x509::extension::Extension;
use pkit_x509::name::Attribute;
use pkit_x509::spki::Spki;
use std::cell::Cell;

/// A part of the certificate that lints read and that may not decode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// The extensions list itself (those after the break are unknown).
    Extensions,
    /// The extension at this index of [`CertContext::extensions`].
    Extension(usize),
    /// The subject name (RFC 5280 §4.1.2.6) or one of its attribute values.
    Subject,
    /// The validity (RFC 5280 §4.1.2.5).
    Validity,
    /// The subject public key (RFC 5280 §4.1.2.7).
    PublicKey,
}

/// What did not decode as DER: a deviation read past leniently, or (`undecodable`) a part
/// that could not be read at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// What is wrong with it.
    pub kind: ErrorKind,
    /// The field, as findings name fields.
    pub path: String,
    /// Its byte offset in the certificate.
    pub offset: usize,
    /// Whether the part did not decode at all (not merely leniently).
    pub undecodable: bool,
}

/// A certificate and what every lint asks of it, the extensions decoded once (the gate
/// lints every certificate pkit signs, so this is on the issuing path).
pub struct CertContext<'a> {
    /// The certificate.
    pub cert: &'a Certificate<'a>,
    /// Its extensions in order, duplicates included (as far as the list decodes).
    pub extensions: Vec<Extension<'a>>,
    /// Each extension's value (same order); `None` where it did not decode even leniently.
    values: Vec<Option<ExtensionValue<'a>>>,
    /// Its type: told by its contents, or as asked (`--as`).
    pub kind: CertType,
    /// Why the certificate is of that type, in a few words.
    pub kind_reason: String,
    /// The day the rules are judged as of (POSIX seconds): the certificate's notBefore
    /// unless the caller says otherwise.
    pub at: i64,
    /// Whether the certificate's own key verifies its signature, when the caller checked
    /// (the lints do no cryptography): RFC 5280's exemptions are for self-signed
    /// certificates, not merely self-issued ones.
    pub self_signed: Option<bool>,
    problems: Vec<Problem>,
    broken: Vec<Part>,
    /// The first broken part a check asked for since [`CertContext::begin_check`].
    touched: Cell<Option<Part>>,
    /// The broken part the type was told through, when it was (not with `--as`).
    type_unsure: Option<Part>,
    subject: Vec<Vec<Attribute<'a>>>,
    validity: Option<(i64, i64)>,
}

impl<'a> CertContext<'a> {
    /// Read `cert` (leniently when `log` is given): everything but its type, which
    /// [`CertContext::told`] sets.
    pub(crate) fn read(
        cert: &'a Certificate<'a>,
        log: Option<&'a Deviations>,
        at: Option<i64>,
        self_signed: Option<bool>,
    ) -> CertContext<'a> {
        let mut ctx = CertContext {
            cert,
            extensions: Vec::new(),
            values: Vec::new(),
            kind: CertType::Leaf,
            kind_reason: String::new(),
            at: 0,
            self_signed,
            problems: Vec::new(),
            broken: Vec::new(),
            touched: Cell::new(None),
            type_unsure: None,
            subject: Vec::new(),
            validity: None,
        };
        ctx.read_extensions(log);
        match cert.subject.rdns() {
            Ok(rdns) => ctx.subject = rdns,
            Err(e) => ctx.fail(Part::Subject, "tbsCertificate.subject", e),
        }
        // The issuer is the issuing CA's subject, copied byte for byte: what is wrong with
        // it is a finding on a certificate read (leniently) for linting, never a reason
        // for the gate to refuse what a CA with a legacy name signs.
        if log.is_some() {
            match cert.issuer.rdns() {
                Ok(rdns) => {
                    ctx.check_strings("tbsCertificate.issuer", rdns.iter().flatten());
                }
                Err(e) => ctx.problem("tbsCertificate.issuer", e, true),
            }
        }
        let subject = std::mem::take(&mut ctx.subject);
        if ctx.check_strings("tbsCertificate.subject", subject.iter().flatten()) {
            // An attribute whose value does not decode: the lints that read the
            // subject's values cannot tell what is there.
            ctx.broken.push(Part::Subject);
        }
        ctx.subject = subject;
        match cert.validity() {
            Ok((nb, na)) => ctx.validity = Some((nb.unix, na.unix)),
            Err(e) => ctx.fail(Part::Validity, "tbsCertificate.validity", e),
        }
        if let Err(e) = cert.spki.key_info() {
            ctx.fail(
                Part::PublicKey,
                "tbsCertificate.subjectPublicKeyInfo",
                e.at("subjectPublicKey"),
            );
        }
        if let Some(log) = log {
            // Taken last: decoding the names and times above logs into it too.
            for Deviation { offset, what } in log.take() {
                let path = ctx.field_at(offset);
                ctx.problems.push(Problem {
                    kind: what,
                    path,
                    offset,
                    undecodable: false,
                });
            }
        }
        ctx.at = at.or(ctx.validity.map(|(nb, _)| nb)).unwrap_or_else(now);
        ctx
    }

    /// Set the certificate's type, why it is that, and the broken part it was told
    /// through, if any.
    pub(crate) fn told(&mut self, kind: CertType, reason: String, unsure: Option<Part>) {
        self.kind = kind;
        self.kind_reason = reason;
        self.type_unsure = unsure;
    }

    fn read_extensions(&mut self, log: Option<&'a Deviations>) {
        let Some(list) = self.cert.extensions else {
            return;
        };
        let (exts, err) = list.all_partial();
        if let Some(e) = err {
            self.fail(Part::Extensions, "tbsCertificate.extensions", e);
        }
        for e in exts {
            let strict = ext::decode(e.oid, e.value, e.value_offset);
            // Leniently, when the certificate was read so: what decodes that way is
            // used, and each deviation (logged with its offset) is reported.
            let v = match (strict, log) {
                (Ok(v), _) => Ok(v),
                (Err(first), Some(log)) => {
                    ext::decode_with(&Reader::lenient(&[], log), e.oid, e.value, e.value_offset)
                        .map_err(|_| first)
                }
                (Err(first), None) => Err(first),
            };
            let v = match v {
                Ok(v) => Some(v),
                Err(err) => {
                    let i = self.extensions.len();
                    self.fail(Part::Extension(i), &ext_path(e.oid), err);
                    None
                }
            };
            self.extensions.push(e);
            self.values.push(v);
        }
    }

    /// Decode each attribute's text once, so that a lenient reader logs what is wrong
    /// with it and a refusal is reported rather than the value dropped. Whether any
    /// value did not decode.
    fn check_strings<'b>(
        &mut self,
        path: &str,
        attrs: impl Iterator<Item = &'b Attribute<'a>>,
    ) -> bool
    where
        'a: 'b,
    {
        let mut failed = false;
        for a in attrs {
            if let Err(e) = a.text() {
                let name = a.type_name();
                self.problem(&format!("{path}.{name}"), e, true);
                failed = true;
            }
        }
        failed
    }

    fn problem(&mut self, path: &str, e: crate::der::Error, undecodable: bool) {
        let inner = e.path_string();
        self.problems.push(Problem {
            offset: e.offset,
            kind: e.kind,
            path: match inner.strip_prefix(path.rsplit('.').next().unwrap_or_default()) {
                // `extensions` + `extensions[1].extnID`: the field once.
                Some(rest) if !inner.is_empty() => format!("{path}{rest}"),
                _ if inner.is_empty() => path.to_string(),
                _ if inner.starts_with('[') => format!("{path}{inner}"),
                _ => format!("{path}.{inner}"),
            },
            undecodable,
        });
    }

    fn fail(&mut self, part: Part, path: &str, e: crate::der::Error) {
        self.broken.push(part);
        self.problem(path, e, true);
    }

    /// What did not decode as DER, in the order found.
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }

    /// Start of one lint's check: forget what the previous one asked for.
    pub(crate) fn begin_check(&self) {
        self.touched.set(None);
    }

    /// The broken part the check since [`CertContext::begin_check`] asked for, if any:
    /// its findings cannot be trusted and it is reported as not run.
    pub(crate) fn touched(&self) -> Option<Part> {
        self.touched.get()
    }

    /// The broken part the certificate's type was told through, if any.
    pub fn type_unsure(&self) -> Option<Part> {
        self.type_unsure
    }

    /// What a broken part is called in a "not run" note.
    pub fn part_name(&self, part: Part) -> String {
        match part {
            Part::Extensions => "the extensions list".into(),
            Part::Extension(i) => self.extensions[i].oid.name_or_dotted(),
            Part::Subject => "the subject".into(),
            Part::Validity => "the validity".into(),
            Part::PublicKey => "the public key".into(),
        }
    }

    fn touch_if_broken(&self, part: Part) {
        if self.touched.get().is_none() && self.broken.contains(&part) {
            self.touched.set(Some(part));
        }
    }

    /// The index of the first extension `oid`; an extensions list that broke off leaves
    /// the absence of any other unknown, which marks the check.
    fn index_of(&self, oid: &Oid) -> Option<usize> {
        let i = self.extensions.iter().position(|e| e.oid == *oid);
        if i.is_none() {
            self.touch_if_broken(Part::Extensions);
        }
        i
    }

    /// The first extension `oid` (whether or not its value decodes).
    pub fn extension(&self, oid: &Oid) -> Option<&Extension<'a>> {
        self.index_of(oid).map(|i| &self.extensions[i])
    }

    /// The decoded value of extension `oid`: `None` when absent; when it is present but
    /// does not decode, `None` too and the check is marked as unable to run.
    pub fn value(&self, oid: &Oid) -> Option<&ExtensionValue<'a>> {
        let i = self.index_of(oid)?;
        self.touch_if_broken(Part::Extension(i));
        self.values[i].as_ref()
    }

    /// Whether basicConstraints asserts cA: what RFC 5280's CA rules go by, whatever type
    /// the certificate is linted as.
    pub fn asserts_ca(&self) -> bool {
        self.basic_constraints().is_some_and(|b| b.ca)
    }

    /// basicConstraints (RFC 5280 §4.2.1.9), when the extension is there and decodes.
    pub fn basic_constraints(&self) -> Option<BasicConstraints> {
        match self.value(&oids::CE_BASIC_CONSTRAINTS) {
            Some(ExtensionValue::BasicConstraints(b)) => Some(*b),
            _ => None,
        }
    }

    /// The extended key usages, when the extension is there.
    pub fn ekus(&self) -> Option<&[ObjectId<'a>]> {
        match self.value(&oids::CE_EXT_KEY_USAGE) {
            Some(ExtensionValue::ExtendedKeyUsage(list)) => Some(list),
            _ => None,
        }
    }

    /// Whether extendedKeyUsage is there and lists `oid`.
    pub fn has_eku(&self, oid: &Oid) -> bool {
        self.ekus().is_some_and(|l| l.iter().any(|e| *e == *oid))
    }

    /// The keyUsage bits set, when the extension is there.
    pub fn key_usage(&self) -> Option<Vec<usize>> {
        match self.value(&oids::CE_KEY_USAGE) {
            Some(ExtensionValue::KeyUsage(bits)) => Some(bits.set_bits().collect()),
            _ => None,
        }
    }

    /// The subjectAltName entries (none when it is absent).
    pub fn sans(&self) -> &[GeneralName<'a>] {
        match self.value(&oids::CE_SUBJECT_ALT_NAME) {
            Some(ExtensionValue::SubjectAltName(n)) => n,
            _ => &[],
        }
    }

    /// The certificatePolicies' identifiers (none when it is absent).
    pub fn policy_oids(&self) -> Vec<ObjectId<'a>> {
        match self.value(&oids::CE_CERT_POLICIES) {
            Some(ExtensionValue::CertificatePolicies(list)) => {
                list.iter().map(|p| p.policy_identifier).collect()
            }
            _ => Vec::new(),
        }
    }

    /// How many dNSName and iPAddress entries subjectAltName has: the names a TLS
    /// certificate certifies.
    pub fn dns_or_ip_sans(&self) -> usize {
        self.sans()
            .iter()
            .filter(|n| matches!(n, GeneralName::DnsName(_) | GeneralName::IpAddress(_)))
            .count()
    }

    /// Where an extension's value starts, for findings about it; the extensions' start
    /// (or the TBS's) when it is absent.
    pub fn offset_of(&self, oid: &Oid) -> usize {
        self.extensions
            .iter()
            .find(|e| e.oid == *oid)
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

    /// The subject's attributes, in encoded order.
    pub fn subject_attributes(&self) -> impl Iterator<Item = &Attribute<'a>> {
        self.touch_if_broken(Part::Subject);
        self.subject.iter().flatten()
    }

    /// Whether the subject has attribute `oid` with a value that is not empty (an empty
    /// value says nothing: it is not the attribute being present).
    pub fn subject_has(&self, oid: &Oid) -> bool {
        self.subject_attributes()
            .any(|a| a.oid == *oid && a.text().is_ok_and(|t| !t.trim().is_empty()))
    }

    /// The subject's commonName values.
    pub fn common_names(&self) -> Vec<String> {
        self.subject_attributes()
            .filter(|a| a.oid == oids::AT_COMMON_NAME)
            .filter_map(|a| a.text().ok())
            .collect()
    }

    /// The validity, in POSIX seconds (not before, not after).
    pub fn validity(&self) -> Option<(i64, i64)> {
        self.touch_if_broken(Part::Validity);
        self.validity
    }

    /// The subject public key, for checks of its algorithm and size.
    pub fn spki(&self) -> &Spki<'a> {
        self.touch_if_broken(Part::PublicKey);
        &self.cert.spki
    }

    /// The certificate's field at `offset`, for a deviation the parser logged there.
    fn field_at(&self, offset: usize) -> String {
        let c = self.cert;
        let within = |start: usize, len: usize| offset >= start && offset < start + len;
        if let Some(x) = c.extensions {
            if within(self.offset_in(x.content()), x.content().len()) {
                // Extensions are in order: the first whose value ends past the offset
                // holds it, in its header (the critical flag) or its value.
                return self
                    .extensions
                    .iter()
                    .find(|e| offset < e.value_offset + e.value.len())
                    .map_or_else(|| "tbsCertificate.extensions".into(), |e| ext_path(e.oid));
            }
        }
        if within(c.subject.offset, c.subject.raw.len()) {
            "tbsCertificate.subject".into()
        } else if within(c.issuer.offset, c.issuer.raw.len()) {
            "tbsCertificate.issuer".into()
        } else if within(c.spki.offset, c.spki.raw.len()) {
            "tbsCertificate.subjectPublicKeyInfo".into()
        } else if offset >= c.validity_offset() && offset < c.subject.offset {
            "tbsCertificate.validity".into()
        } else if offset < c.serial_offset {
            "tbsCertificate.version".into()
        } else if offset < c.tbs_signature.offset {
            "tbsCertificate.serialNumber".into()
        } else if offset < self.offset_in(c.tbs_raw) + c.tbs_raw.len() {
            "tbsCertificate".into()
        } else if offset < c.signature_algorithm.offset + c.signature_algorithm.raw.len() {
            "signatureAlgorithm".into()
        } else {
            "signatureValue".into()
        }
    }
}

/// The path findings give an extension: `tbsCertificate.extensions.keyUsage`.
pub(crate) fn ext_path(oid: ObjectId<'_>) -> String {
    format!("tbsCertificate.extensions.{}", oid.name_or_dotted())
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}
