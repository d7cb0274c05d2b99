//! What a certificate is for, which decides the rules that apply: a root, a subordinate
//! or cross CA, a TLS or S/MIME subscriber, an OCSP responder, another leaf. How a
//! certificate's contents tell it is `detect.rs`'s.

/// What a certificate is for, which decides the rules that apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CertType {
    /// A self-signed CA certificate (BR §7.1.2.1).
    Root,
    /// A subordinate CA certificate (BR §7.1.2.2–§7.1.2.6).
    Intermediate,
    /// A cross-certificate (BR §7.1.2.2): a subordinate CA certificate issued to a CA
    /// that has a certificate of its own elsewhere. Nothing in it says so: `--as
    /// cross-ca` does, and its EKU rules are then §7.1.2.2's.
    CrossCa,
    /// A TLS subscriber certificate (BR §7.1.2.7).
    TlsLeaf,
    /// A mailbox certificate (S/MIME BR §7.1.2.3).
    SmimeLeaf,
    /// A delegated OCSP responder's certificate (BR §7.1.2.8).
    OcspSigner,
    /// Any other end-entity certificate (code signing, client only, …).
    Leaf,
}

impl CertType {
    /// Every type, in the order help lists them.
    pub const ALL: [CertType; 7] = [
        CertType::Root,
        CertType::Intermediate,
        CertType::CrossCa,
        CertType::TlsLeaf,
        CertType::SmimeLeaf,
        CertType::OcspSigner,
        CertType::Leaf,
    ];

    /// The type's name as `--as` and the JSON spell it: `root`, `tls-leaf`, …
    pub fn name(self) -> &'static str {
        match self {
            CertType::Root => "root",
            CertType::Intermediate => "intermediate",
            CertType::CrossCa => "cross-ca",
            CertType::TlsLeaf => "tls-leaf",
            CertType::SmimeLeaf => "smime-leaf",
            CertType::OcspSigner => "ocsp-signer",
            CertType::Leaf => "leaf",
        }
    }

    /// The type [`CertType::name`] spells, or one of its other spellings (`subordinate`,
    /// `cross`, `tls`, `server`, `smime`); `None` for anything else.
    pub fn from_name(s: &str) -> Option<CertType> {
        Some(match s {
            "root" => CertType::Root,
            "intermediate" | "subordinate" => CertType::Intermediate,
            "cross-ca" | "cross" => CertType::CrossCa,
            "tls-leaf" | "tls" | "server" => CertType::TlsLeaf,
            "smime-leaf" | "smime" => CertType::SmimeLeaf,
            "ocsp-signer" => CertType::OcspSigner,
            "leaf" => CertType::Leaf,
            _ => return None,
        })
    }

    /// Whether it is a CA certificate (root, intermediate or cross-certificate).
    pub fn is_ca(self) -> bool {
        matches!(
            self,
            CertType::Root | CertType::Intermediate | CertType::CrossCa
        )
    }
}
