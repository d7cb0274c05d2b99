//! A certificate authority on disk: `DIR/ca.pem` (its certificate), `DIR/ca.key` (PKCS#8,
//! mode 0600, optionally encrypted), `DIR/ca.db` (the store). Issuing builds the TBS once,
//! signs it with a per-thread signer, and returns the certificate; recording and writing
//! files is the caller's (so batches can commit per chunk), or, for one certificate,
//! [`Issuer::issue_and_record`]'s ([`crate::issue_one`]).

use super::gate::LintGate;
use super::pointers::Pointers;
use super::policy::Policy;
use super::profile::{self, ExtensionInputs, Profile};
use super::store::CertRecord;
use super::tbs::{self, TbsFields};
use crate::der::{Time, Writer};
use pkit_verify::preissue::{PreIssue, Refusal};
use pkit_x509::alg::{Algorithm, SignatureScheme};
use pkit_x509::backend::{BackendError, PrivateKey, Signer};
use pkit_x509::cert::Certificate;
use pkit_x509::ext::key_identifier;

#[non_exhaustive]
#[derive(Debug)]
/// Why the CA could not issue.
pub enum CaError {
    /// The CA certificate or a request could not be decoded.
    Parse(String),
    /// The key or signer failed, or lacks an algorithm.
    Backend(BackendError),
    /// The CA cannot issue now (expired, not yet valid, not a CA).
    Refused(String),
    /// The request asks for what this CA will not sign as asked (a validity past the CA's,
    /// a server certificate without a SAN): the caller must change the request.
    Request(String),
    /// The lint gate refused what was to be signed (these findings).
    Lint(Vec<pkit_lint::Finding>),
    /// The CA's chain or policy forbids what was to be signed ([`crate::precheck`]).
    Forbidden(Refusal),
}

impl std::fmt::Display for CaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CaError::Parse(m) | CaError::Refused(m) | CaError::Request(m) => f.write_str(m),
            CaError::Backend(e) => write!(f, "{e}"),
            CaError::Lint(found) => {
                let errors: Vec<&str> = found
                    .iter()
                    .filter(|x| x.level == pkit_lint::Level::Error)
                    .map(|x| x.lint)
                    .collect();
                write!(f, "the lint gate refused to sign: {}", errors.join(", "))
            }
            CaError::Forbidden(r) => write!(f, "the CA refused to sign: {r}"),
        }
    }
}

impl std::error::Error for CaError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CaError::Backend(e) => Some(e),
            CaError::Forbidden(r) => Some(r),
            CaError::Parse(_) | CaError::Refused(_) | CaError::Request(_) | CaError::Lint(_) => {
                None
            }
        }
    }
}

impl From<BackendError> for CaError {
    fn from(e: BackendError) -> Self {
        CaError::Backend(e)
    }
}

/// The issuing side: certificate fields copied once, the key shared across threads.
pub struct Issuer {
    /// The CA certificate's DER.
    pub cert_der: Vec<u8>,
    /// The CA's private key.
    pub key: Box<dyn PrivateKey>,
    /// The CA certificate's subject Name TLV: the issuer of what it signs, byte for byte.
    pub subject: Vec<u8>,
    /// The CA's subject key identifier, the authorityKeyIdentifier of what it signs.
    pub key_id: Vec<u8>,
    /// The start of the CA certificate's validity.
    pub not_before: Time,
    /// The end of the CA certificate's validity: nothing it signs outlives it.
    pub not_after: Time,
    /// The signature algorithm the CA's key signs with.
    pub scheme: SignatureScheme,
    /// The CA certificate's own pathLenConstraint: how many CAs may still follow it.
    pub path_len: Option<u64>,
    /// What the certificates it issues point to (the CA's settings; empty by default).
    pub pointers: Pointers,
    /// How many partitioned CRLs it publishes (0 or 1: one): each certificate's
    /// cRLDistributionPoints names the shard of its serial.
    pub crl_shards: u32,
    /// The lint gate every certificate passes before it is signed.
    pub gate: LintGate,
    /// The CA's rules on names (ca.json `allow`, `deny`), applied before every signature.
    pub policy: Policy,
    /// Its chain, every certificate validated through it before it is signed: set by
    /// whoever loads the CA from its directory, which holds the chain.
    pub chain: Option<PreIssue>,
}

/// What to put in one certificate.
pub struct Request {
    /// The subject Name DER.
    pub subject: Vec<u8>,
    /// The subject's SubjectPublicKeyInfo DER.
    pub spki: Vec<u8>,
    /// The subject key's algorithm; `None` when it is not one pkit generates (a CSR's key).
    pub key_alg: Option<Algorithm>,
    /// The profile: key usages, extended key usages and basicConstraints.
    pub profile: Profile,
    /// The subjectAltName entries, as encoded GeneralName TLVs.
    pub sans: Vec<Vec<u8>>,
    /// The start of the validity period.
    pub not_before: Time,
    /// The end of the validity period.
    pub not_after: Time,
    /// The pathLenConstraint of a CA certificate.
    pub path_len: Option<u32>,
    /// (OID content, full Extension TLV) copied from a CSR.
    pub copied: Vec<(Vec<u8>, Vec<u8>)>,
    /// Pointers for this certificate instead of the issuer's.
    pub pointers: Option<Pointers>,
    /// A nameConstraints value ([`crate::name_constraints::encode`]); CA profile only.
    pub name_constraints: Option<Vec<u8>>,
    /// Cut a validity that reaches outside the issuer's to fit, instead of refusing it.
    pub clip: bool,
    /// `copied` is a template ([`crate::template`]): its basicConstraints, keyUsage and
    /// extKeyUsage replace the profile's.
    pub copied_wins: bool,
}

impl Request {
    /// A request for `subject`'s key `spki` under `profile`, valid from `not_before` to
    /// `not_after`, asking nothing else: no SAN, the CA's pointers, no constraints.
    pub fn new(
        subject: Vec<u8>,
        spki: Vec<u8>,
        profile: Profile,
        not_before: Time,
        not_after: Time,
    ) -> Request {
        Request {
            subject,
            spki,
            key_alg: None,
            profile,
            sans: Vec::new(),
            not_before,
            not_after,
            path_len: None,
            copied: Vec::new(),
            pointers: None,
            name_constraints: None,
            clip: false,
            copied_wins: false,
        }
    }
}

/// One issued certificate.
pub struct Issued {
    /// The serial number: 20 random bytes, positive (RFC 5280 §4.1.2.2).
    pub serial: [u8; 20],
    /// The signed certificate's DER.
    pub der: Vec<u8>,
    /// The start of its validity.
    pub not_before: Time,
    /// The end of its validity (cut to the CA's when the request asked to clip).
    pub not_after: Time,
    /// What the lint gate found and let through (warnings; errors too under `warn`).
    pub findings: Vec<pkit_lint::Finding>,
}

impl Issued {
    /// The store row for this certificate, issued now and valid.
    pub fn record(&self, subject: &str, profile: Profile, key_alg: &str) -> CertRecord {
        CertRecord {
            serial: self.serial.to_vec(),
            subject: subject.to_string(),
            not_before: self.not_before.unix,
            not_after: self.not_after.unix,
            profile: profile.name().to_string(),
            key_algorithm: key_alg.to_string(),
            status: "valid".into(),
            issued_at: Time::now().unix,
            der: self.der.clone(),
        }
    }

    /// Record this certificate in the CA's records, in one transaction: its row (the
    /// renewal of `renews` when given) and, under a gate that did not enforce, what the
    /// gate let through — as every command that issues one certificate does.
    pub fn record_in(
        &self,
        store: &mut dyn crate::store::CaStore,
        row: &CertRecord,
        renews: Option<&[u8]>,
        mode: crate::gate::GateMode,
    ) -> crate::store::Result<()> {
        let overrides = crate::gate::overrides(mode, [(&self.serial[..], &self.findings[..])]);
        match renews {
            Some(old) => store.insert_renewal(row, old, &overrides),
            None => store.insert_with_overrides(std::slice::from_ref(row), &overrides),
        }
    }
}

impl Issuer {
    /// Wrap a loaded CA certificate and key, checking they belong together.
    pub fn new(cert_der: Vec<u8>, key: Box<dyn PrivateKey>) -> Result<Issuer, CaError> {
        let c =
            Certificate::from_der(&cert_der).map_err(|e| CaError::Parse(format!("ca.pem: {e}")))?;
        let (not_before, not_after) = c
            .validity()
            .map_err(|e| CaError::Parse(format!("ca.pem: {e}")))?;
        if !c.certifies_key(key.as_ref())? {
            return Err(CaError::Refused(
                "ca.key does not match the public key in ca.pem".into(),
            ));
        }
        let key_id = c
            .subject_key_id()
            .unwrap_or_else(|| key_identifier(c.spki.key.bytes).to_vec());
        let Some(bc) = c.basic_constraints().filter(|b| b.ca) else {
            return Err(CaError::Refused(
                "ca.pem is not a CA certificate (its basicConstraints do not set cA)".into(),
            ));
        };
        let path_len = bc.path_len_constraint;
        Ok(Issuer {
            pointers: Pointers::default(),
            crl_shards: 0,
            gate: LintGate::default(),
            policy: Policy::default(),
            chain: None,
            path_len,
            subject: c.subject.raw.to_vec(),
            key_id,
            not_before,
            not_after,
            scheme: key.algorithm().default_scheme(),
            key,
            cert_der,
        })
    }

    /// Refuse to issue from a CA outside its validity.
    pub fn check_valid_at(&self, now: Time) -> Result<(), CaError> {
        if now > self.not_after {
            return Err(CaError::Refused(format!(
                "the CA certificate expired at {}",
                self.not_after
            )));
        }
        if now < self.not_before {
            return Err(CaError::Refused(format!(
                "the CA certificate is not valid before {}",
                self.not_before
            )));
        }
        Ok(())
    }

    /// The pathLenConstraint a CA certificate issued by this CA gets: what was asked for, or
    /// by default one less than ours. RFC 5280 6.1.4 (l)-(m): a chain through a CA with
    /// pathLenConstraint 0 to another CA does not validate, so issuing one only produces an
    /// unusable certificate — refuse instead.
    pub(crate) fn sub_ca_path_len(&self, requested: Option<u32>) -> Result<Option<u32>, CaError> {
        let Some(ours) = self.path_len else {
            return Ok(requested);
        };
        if ours == 0 {
            return Err(CaError::Refused(
                "this CA's pathLenConstraint is 0: it may not certify another CA".into(),
            ));
        }
        let most = u32::try_from(ours - 1).unwrap_or(u32::MAX);
        match requested {
            None => Ok(Some(most)),
            Some(n) if n <= most => Ok(Some(n)),
            Some(n) => Err(CaError::Refused(format!(
                "path length {n} exceeds what this CA allows below it ({most})"
            ))),
        }
    }

    /// The validity a request gets: as asked when it lies within the issuer's (RFC 5280
    /// §6.1.3 (a)(2): a certificate outlasting its issuer fails validation once the
    /// issuer expires), else cut to fit when the request allows, else refused.
    pub(crate) fn validity_for(&self, req: &Request) -> Result<(Time, Time), CaError> {
        if req.not_after < req.not_before {
            return Err(CaError::Request(format!(
                "the validity ends ({}) before it starts ({})",
                req.not_after, req.not_before
            )));
        }
        let inside = req.not_before >= self.not_before && req.not_after <= self.not_after;
        if !inside && !req.clip {
            return Err(CaError::Request(format!(
                "the validity {} .. {} reaches outside the CA's ({} .. {}); ask for less, or \
                 --clip-validity to cut it to the CA's",
                req.not_before, req.not_after, self.not_before, self.not_after
            )));
        }
        let not_before = req.not_before.max(self.not_before);
        let not_after = req.not_after.min(self.not_after);
        if not_after <= not_before {
            return Err(CaError::Request(format!(
                "the validity {} .. {} lies outside the CA's",
                req.not_before, req.not_after
            )));
        }
        Ok((not_before, not_after))
    }

    /// What a CA that applies the full TLS Baseline Requirements adds to what it signs,
    /// when the request does not say: to a TLS server certificate, the CA/B Forum's
    /// domain-validated policy (2.23.140.1.2.1; BR §7.1.2.7.9, §7.1.6.1); to a
    /// subordinate CA, the same policy and serverAuth (BR §7.1.2.10.5, §7.1.2.10.6).
    fn with_required_policies<'r>(
        &self,
        req: &'r Request,
    ) -> std::borrow::Cow<'r, [(Vec<u8>, Vec<u8>)]> {
        use crate::der::oid_registry as oids;
        let tls = matches!(req.profile, Profile::Server | Profile::ServerClient);
        let sub_ca = req.profile == Profile::Ca;
        if !self.gate.rules.cabf_tls || !(tls || sub_ca) {
            return std::borrow::Cow::Borrowed(&req.copied);
        }
        let has =
            |o: &crate::der::Oid| req.copied.iter().any(|(c, _)| c.as_slice() == o.as_bytes());
        let mut all = req.copied.clone();
        if !has(&oids::CE_CERT_POLICIES) {
            let mut w = Writer::new();
            pkit_x509::ext::write::ext(&mut w, &oids::CE_CERT_POLICIES, false, |w| {
                w.sequence(|w| {
                    w.sequence(|w| {
                        w.oid(&oids::CABF_DV);
                    });
                });
            });
            all.push((oids::CE_CERT_POLICIES.as_bytes().to_vec(), w.finish()));
        }
        if sub_ca && !has(&oids::CE_EXT_KEY_USAGE) {
            let mut w = Writer::new();
            pkit_x509::ext::write::ext(&mut w, &oids::CE_EXT_KEY_USAGE, false, |w| {
                w.sequence(|w| {
                    w.oid(&oids::KP_SERVER_AUTH);
                });
            });
            all.push((oids::CE_EXT_KEY_USAGE.as_bytes().to_vec(), w.finish()));
        }
        std::borrow::Cow::Owned(all)
    }

    /// Whether the CA's policy and chain allow names: a certificate's subject (Name DER)
    /// and subjectAltName entries (GeneralName TLVs), asked before anything is made for
    /// them (a whole batch before its first signature; an ACME order).
    pub fn check_names(&self, subject: &[u8], sans: &[Vec<u8>]) -> Result<(), CaError> {
        super::precheck::names_allowed(&self.policy, self.chain.as_ref(), subject, sans)
            .map_err(CaError::Forbidden)
    }

    /// Refuse a to-be-signed certificate that the CA's policy or chain forbids.
    fn forbids(&self, tbs_der: &[u8]) -> Result<(), CaError> {
        if self.policy.is_empty() && self.chain.is_none() {
            return Ok(());
        }
        let der = tbs::assemble(tbs_der, self.scheme, &[]);
        if !self.policy.is_empty() {
            let cert = Certificate::from_der(&der)
                .map_err(|e| CaError::Parse(format!("the certificate to be signed: {e}")))?;
            let sans = match cert.extension_value(&crate::der::oid_registry::CE_SUBJECT_ALT_NAME) {
                Some(pkit_x509::ext::ExtensionValue::SubjectAltName(n)) => n,
                _ => Vec::new(),
            };
            self.policy.check_names(&cert.subject, &sans).map_err(|d| {
                CaError::Forbidden(Refusal::new("ca-policy", Some(0), d.to_string()))
            })?;
        }
        if let Some(chain) = &self.chain {
            chain.certificate(&der).map_err(CaError::Forbidden)?;
        }
        Ok(())
    }

    /// Build, sign and assemble one certificate: refused, before the signature, when
    /// the CA's policy or chain forbids it or its lint gate finds an error.
    pub fn issue(&self, signer: &mut dyn Signer, req: &Request) -> Result<Issued, CaError> {
        let (tbs, serial, not_before, not_after) = self.tbs_for(req)?;
        self.forbids(&tbs)?;
        self.sign_linted(signer, tbs, serial, not_before, not_after)
    }

    /// The lint gate, then the signature.
    fn sign_linted(
        &self,
        signer: &mut dyn Signer,
        tbs: Vec<u8>,
        serial: [u8; 20],
        not_before: Time,
        not_after: Time,
    ) -> Result<Issued, CaError> {
        let findings = self
            .gate
            .check(&tbs, self.scheme)
            .map_err(|r| CaError::Lint(r.findings))?;
        let sig = signer.sign(&tbs)?;
        Ok(Issued {
            serial,
            der: tbs::assemble(&tbs, signer.scheme(), &sig),
            not_before,
            not_after,
            findings,
        })
    }

    /// [`Issuer::issue`] for a certificate whose names [`Issuer::check_names`] allowed,
    /// of a kind (profile, validity, key algorithm) [`Issuer::precheck`] allowed: the
    /// chain is not asked again (a batch, [`crate::batch`]); the lint gate still is.
    pub(crate) fn issue_prechecked(
        &self,
        signer: &mut dyn Signer,
        req: &Request,
    ) -> Result<Issued, CaError> {
        let (tbs, serial, not_before, not_after) = self.tbs_for(req)?;
        self.sign_linted(signer, tbs, serial, not_before, not_after)
    }

    /// Whether the CA's policy and chain would let `req` be issued, without signing
    /// (a batch asks this of each kind of certificate it holds before signing any).
    pub fn precheck(&self, req: &Request) -> Result<(), CaError> {
        let (tbs, ..) = self.tbs_for(req)?;
        self.forbids(&tbs)
    }

    /// The TBSCertificate `req` asks for, with its serial and validity.
    fn tbs_for(&self, req: &Request) -> Result<(Vec<u8>, [u8; 20], Time, Time), CaError> {
        let path_len = match req.profile {
            Profile::Ca => self.sub_ca_path_len(req.path_len)?,
            _ => req.path_len,
        };
        check_request(req)?;
        let (not_before, not_after) = self.validity_for(req)?;
        let copied = self.with_required_policies(req);
        let eku = crate::der::oid_registry::CE_EXT_KEY_USAGE;
        let added_eku = copied.len() != req.copied.len()
            && copied.iter().any(|(o, _)| o.as_slice() == eku.as_bytes())
            && !req
                .copied
                .iter()
                .any(|(o, _)| o.as_slice() == eku.as_bytes());
        let mut serial = [0u8; 20];
        super::random_bytes(&mut serial)
            .map_err(|e| CaError::Refused(format!("randomness: {e}")))?;
        let serial = tbs::random_serial(|s| *s = serial);
        let spki = pkit_x509::spki::Spki::from_der(&req.spki)
            .map_err(|e| CaError::Parse(format!("public key: {e}")))?;
        let subject_key_id = key_identifier(spki.key.bytes);
        let subject_empty = req.subject == [0x30, 0x00];
        let pointers = self.pointers_for(req.pointers.as_ref(), &serial);
        let inputs = ExtensionInputs {
            profile: req.profile,
            key_alg: req.key_alg,
            subject_key_id,
            authority_key_id: Some(&self.key_id),
            path_len,
            sans: &req.sans,
            subject_empty,
            pointers: &pointers,
            name_constraints: req.name_constraints.as_deref(),
            copied: &copied,
            // The subordinate CA's serverAuth is one of the usages the profile would
            // otherwise decide.
            copied_wins: req.copied_wins || added_eku,
        };
        let tbs = tbs::encode_tbs(&TbsFields {
            serial: &serial,
            scheme: self.scheme,
            issuer: &self.subject,
            not_before,
            not_after,
            subject: &req.subject,
            spki: &req.spki,
            extensions: &|w: &mut Writer| profile::write_extensions(w, &inputs),
        });
        Ok((tbs, serial, not_before, not_after))
    }
}

impl Issuer {
    /// What a certificate with serial `serial` points to: the request's pointers or the
    /// CA's, the CA's CRL URLs replaced by its shard's when the CA shards its CRLs.
    fn pointers_for(&self, requested: Option<&Pointers>, serial: &[u8]) -> Pointers {
        let mut p = requested.unwrap_or(&self.pointers).clone();
        if self.crl_shards > 1 && p.crl == self.pointers.crl {
            let shard = super::pointers::shard_of(serial, self.crl_shards);
            p.crl = p
                .crl
                .iter()
                .map(|u| super::pointers::shard_url(u, shard))
                .collect();
        }
        p
    }
}

/// What makes a request unusable whatever the CA: a certificate for TLS that names no
/// host in a SAN, constraints on a certificate that is not a CA's.
fn check_request(req: &Request) -> Result<(), CaError> {
    let san_oid = crate::der::oid_registry::CE_SUBJECT_ALT_NAME;
    let has_san = !req.sans.is_empty()
        || req
            .copied
            .iter()
            .any(|(o, _)| o.as_slice() == san_oid.as_bytes());
    if req.profile.needs_san() && !has_san {
        return Err(CaError::Request(format!(
            "a {} certificate needs a subject alternative name (--san DNS:…): TLS peers match \
             names only there",
            req.profile.name()
        )));
    }
    if req.name_constraints.is_some() && req.profile != Profile::Ca {
        return Err(CaError::Request(
            "name constraints belong in a CA certificate".into(),
        ));
    }
    Ok(())
}

/// A self-signed CA certificate for `key`.
pub fn self_signed(
    key: &dyn PrivateKey,
    subject: &[u8],
    not_before: Time,
    not_after: Time,
    path_len: Option<u32>,
) -> Result<Vec<u8>, CaError> {
    let off = LintGate {
        mode: super::gate::GateMode::Off,
        ..LintGate::default()
    };
    self_signed_with(key, subject, not_before, not_after, path_len, None, &off).map(|(der, _)| der)
}

/// [`self_signed`] with a nameConstraints value ([`crate::name_constraints::encode`]),
/// through the lint `gate`: the certificate and what the gate found and let through.
pub fn self_signed_with(
    key: &dyn PrivateKey,
    subject: &[u8],
    not_before: Time,
    not_after: Time,
    path_len: Option<u32>,
    name_constraints: Option<&[u8]>,
    gate: &LintGate,
) -> Result<(Vec<u8>, Vec<pkit_lint::Finding>), CaError> {
    let spki_der = key.public_key_der()?;
    let spki = pkit_x509::spki::Spki::from_der(&spki_der)
        .map_err(|e| CaError::Parse(format!("public key: {e}")))?;
    let key_id = key_identifier(spki.key.bytes);
    let mut serial = [0u8; 20];
    super::random_bytes(&mut serial).map_err(|e| CaError::Refused(format!("randomness: {e}")))?;
    let serial = tbs::random_serial(|s| *s = serial);
    let inputs = ExtensionInputs {
        profile: Profile::Ca,
        key_alg: Some(key.algorithm()),
        subject_key_id: key_id,
        authority_key_id: None,
        path_len,
        sans: &[],
        subject_empty: false,
        pointers: &Pointers::default(),
        name_constraints,
        copied: &[],
        copied_wins: false,
    };
    let scheme = key.algorithm().default_scheme();
    let tbs = tbs::encode_tbs(&TbsFields {
        serial: &serial,
        scheme,
        issuer: subject,
        not_before,
        not_after,
        subject,
        spki: &spki_der,
        extensions: &|w: &mut Writer| profile::write_extensions(w, &inputs),
    });
    let findings = gate
        .check(&tbs, scheme)
        .map_err(|r| CaError::Lint(r.findings))?;
    let sig = key.sign(&tbs)?;
    Ok((tbs::assemble(&tbs, scheme, &sig), findings))
}
