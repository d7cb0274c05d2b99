//! What the CA/Browser Forum's TLS Baseline Requirements say of certificates (version
//! 2.x with ballot SC-081's validity schedule). `CabfTlsCore` rules hold for a private CA
//! too; `CabfTls` rules only for one that means to be publicly trusted.
//!
//! One file per part of the BRs' certificate profile, each with its `LINTS`:
//! [`validity`] (§6.3.2), [`names`] (subjectAltName and commonName, §7.1.2.7.12,
//! §7.1.4), [`keys`] (§6.1.5, §7.1.3.1), [`usages`] (keyUsage and extendedKeyUsage,
//! §7.1.2.7.10–11, §7.1.2.10.6–7), [`signing`] (the serial's entropy and the signature
//! algorithm, §7.1, §7.1.3.2), [`policies`] (§7.1.2.7.9, §7.1.2.10.2, §7.1.2.10.5),
//! [`revocation`] (AIA and CRL pointers, §7.1.2.7.7, §7.1.2.11.2) and [`ocsp_signer`]
//! (§7.1.2.8). A new rule goes into the file of its part; a new file is listed in
//! `run.rs`'s families.

use crate::cert_type::CertType;
use crate::context::CertContext;
use crate::finding::Level;
use crate::options::RuleSet;
use crate::rule::{Lint, Reporter};

pub(crate) mod keys;
pub(crate) mod names;
pub(crate) mod ocsp_signer;
pub(crate) mod policies;
pub(crate) mod revocation;
pub(crate) mod signing;
pub(crate) mod usages;
pub(crate) mod validity;

/// A TLS BR rule of the certificates `applies` accepts, in force from the BRs' own
/// effective date (lints whose rule came later say when, with `.since`).
pub(crate) const fn br(
    name: &'static str,
    level: Level,
    source: &'static str,
    set: RuleSet,
    applies: fn(CertType) -> bool,
    check: fn(&CertContext<'_>, &mut Reporter<'_>),
) -> Lint {
    Lint::certificate(name, level, source, set, applies, check)
        .since("2012-07-01", "BR 1.0 effective date")
}

/// A TLS subscriber certificate.
pub(crate) fn tls(t: CertType) -> bool {
    t == CertType::TlsLeaf
}

/// Any CA certificate.
pub(crate) fn ca(t: CertType) -> bool {
    t.is_ca()
}

/// A root CA certificate.
pub(crate) fn root(t: CertType) -> bool {
    t == CertType::Root
}

/// A subordinate CA certificate or a cross-certificate.
pub(crate) fn sub_ca(t: CertType) -> bool {
    matches!(t, CertType::Intermediate | CertType::CrossCa)
}

/// A delegated OCSP responder's certificate.
pub(crate) fn ocsp_signer(t: CertType) -> bool {
    t == CertType::OcspSigner
}

/// Every certificate but an S/MIME leaf, which the S/MIME BRs' own key and algorithm
/// rules judge (they allow what the TLS BRs do not, e.g. Ed25519 from S/MIME BR 1.0.3).
pub(crate) fn not_smime(t: CertType) -> bool {
    t != CertType::SmimeLeaf
}

/// The rule sets, as the tables name them: the BRs whole, and their core.
pub(crate) use RuleSet::{CabfTls as FULL, CabfTlsCore as CORE};
