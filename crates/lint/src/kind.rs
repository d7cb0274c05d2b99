//! What a certificate is for, which decides the rules that apply: told by its
//! basicConstraints and extendedKeyUsage (or set with `--as`).

use crate::der::oid_registry as oids;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CertType {
    Root,
    Intermediate,
    TlsLeaf,
    SmimeLeaf,
    OcspSigner,
    /// Any other end-entity certificate (code signing, client only, …).
    Leaf,
}

impl CertType {
    pub fn name(self) -> &'static str {
        match self {
            CertType::Root => "root",
            CertType::Intermediate => "intermediate",
            CertType::TlsLeaf => "tls-leaf",
            CertType::SmimeLeaf => "smime-leaf",
            CertType::OcspSigner => "ocsp-signer",
            CertType::Leaf => "leaf",
        }
    }

    pub fn from_name(s: &str) -> Option<CertType> {
        Some(match s {
            "root" => CertType::Root,
            "intermediate" | "subordinate" => CertType::Intermediate,
            "tls-leaf" | "tls" | "server" => CertType::TlsLeaf,
            "smime-leaf" | "smime" => CertType::SmimeLeaf,
            "ocsp-signer" => CertType::OcspSigner,
            "leaf" => CertType::Leaf,
            _ => return None,
        })
    }

    pub fn is_ca(self) -> bool {
        matches!(self, CertType::Root | CertType::Intermediate)
    }

    /// The type a certificate's contents say: a CA by basicConstraints (a root when it
    /// issued itself); otherwise by its extended key usages, a TLS leaf also when it has
    /// none but names hosts.
    pub fn detect(ctx: &crate::CertContext<'_>) -> CertType {
        if ctx.basic_constraints().is_some_and(|b| b.ca) {
            return if ctx.cert.is_self_issued() {
                CertType::Root
            } else {
                CertType::Intermediate
            };
        }
        match ctx.ekus() {
            Some(ekus) => {
                let has = |o: &crate::der::Oid| ekus.iter().any(|e| *e == *o);
                if has(&oids::KP_SERVER_AUTH) {
                    CertType::TlsLeaf
                } else if has(&oids::KP_OCSP_SIGNING) {
                    CertType::OcspSigner
                } else if has(&oids::KP_EMAIL_PROTECTION) {
                    CertType::SmimeLeaf
                } else {
                    CertType::Leaf
                }
            }
            None if ctx.dns_or_ip_sans() > 0 => CertType::TlsLeaf,
            None => CertType::Leaf,
        }
    }
}
