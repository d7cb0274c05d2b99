//! A subtree's base as the name constraint state keeps it, and the name forms
//! (RFC 5280 §4.2.1.6) constraints sort names by: what `constraints.rs` and its
//! comparison rules (`within.rs`) share.

use pkit_x509::ext::{GeneralName, IpAddress};
use pkit_x509::name::Name;
use std::fmt;

/// The GeneralName alternatives (RFC 5280 §4.2.1.6) as constraints sort them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Form {
    OtherName,
    Email,
    Dns,
    X400,
    Directory,
    EdiParty,
    Uri,
    Ip,
    RegisteredId,
}

impl Form {
    pub(super) fn of(n: &GeneralName<'_>) -> Form {
        match n {
            GeneralName::OtherName(_) => Form::OtherName,
            GeneralName::Rfc822Name(_) => Form::Email,
            GeneralName::DnsName(_) => Form::Dns,
            GeneralName::X400Address(_) => Form::X400,
            GeneralName::DirectoryName(_) => Form::Directory,
            GeneralName::EdiPartyName(_) => Form::EdiParty,
            GeneralName::Uri(_) => Form::Uri,
            GeneralName::IpAddress(_) => Form::Ip,
            GeneralName::RegisteredId(_) => Form::RegisteredId,
        }
    }

    /// The ASN.1 name of the alternative, as RFC 5280 spells it.
    pub(super) fn label(self) -> &'static str {
        match self {
            Form::OtherName => "otherName",
            Form::Email => "rfc822Name",
            Form::Dns => "dNSName",
            Form::X400 => "x400Address",
            Form::Directory => "directoryName",
            Form::EdiParty => "ediPartyName",
            Form::Uri => "uniformResourceIdentifier",
            Form::Ip => "iPAddress",
            Form::RegisteredId => "registeredID",
        }
    }
}

/// One subtree's base, owned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Base {
    Dns(String),
    Email(String),
    Uri(String),
    /// Address then mask: 8 octets (IPv4) or 32 (IPv6).
    Ip(Vec<u8>),
    /// The Name's complete DER.
    Directory(Vec<u8>),
    /// A form pkit cannot compare, kept so that names of that form are refused.
    Unsupported(Form),
}

impl Base {
    /// `None` for an unsupported form in a non-critical extension: such a constraint
    /// cannot be applied, and a non-critical extension may be ignored in part.
    pub(super) fn from_general_name(n: &GeneralName<'_>, critical: bool) -> Option<Base> {
        Some(match n {
            GeneralName::DnsName(s) => Base::Dns(s.to_string()),
            GeneralName::Rfc822Name(s) => Base::Email(s.to_string()),
            GeneralName::Uri(s) => Base::Uri(s.to_string()),
            GeneralName::IpAddress(a) => Base::Ip(a.bytes.to_vec()),
            GeneralName::DirectoryName(d) => Base::Directory(d.raw.to_vec()),
            other if critical => Base::Unsupported(Form::of(other)),
            _ => return None,
        })
    }

    pub(super) fn form(&self) -> Form {
        match self {
            Base::Dns(_) => Form::Dns,
            Base::Email(_) => Form::Email,
            Base::Uri(_) => Form::Uri,
            Base::Ip(_) => Form::Ip,
            Base::Directory(_) => Form::Directory,
            Base::Unsupported(f) => *f,
        }
    }
}

impl fmt::Display for Base {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let label = self.form().label();
        match self {
            Base::Dns(s) | Base::Email(s) | Base::Uri(s) => write!(f, "{label} {s:?}"),
            Base::Ip(b) => write!(f, "{label} {}", IpAddress { bytes: b }),
            Base::Directory(raw) => write!(f, "{label} {:?}", dn_text(raw)),
            Base::Unsupported(_) => write!(f, "{label}"),
        }
    }
}

/// A Name's RFC 4514 form for messages, or its hex when it does not decode.
pub(super) fn dn_text(raw: &[u8]) -> String {
    Name::from_der(raw, 0)
        .and_then(|n| n.to_rfc4514())
        .unwrap_or_else(|_| crate::der::hex(raw))
}
