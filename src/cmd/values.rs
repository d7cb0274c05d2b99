//! The values of flags that take one of a fixed set (`--profile`, `--reason`, `--rules`,
//! `--as`, `--type`, `--ops`): one value parser, [`OneOf`], that lists the canonical
//! names to clap (help, man pages and shell completions offer them) and reads a value
//! with the library's own reader, and the sets themselves, each named from the library
//! that defines it.

use clap::builder::{PossibleValue, TypedValueParser};
use pkit::lint::{CertType, Rules};
use pkit::pki::ca::profile::Profile;
use pkit::pki::detect::Kind;
use pkit::pki::ext::CrlReason;

/// The value parser of a flag whose values are a fixed set: help, man pages and shell
/// completions list `names`, and `parse` reads the value into its type (taking more
/// spellings than the names where the library does: aliases, any case). With `list`,
/// the value is comma-separated (`--rules rfc5280,cabf-tls`) and each part must be one
/// of them. Anything else is a usage error (exit 2) in one line naming the flag, what
/// was given and what it takes.
#[derive(Clone, Copy)]
pub struct OneOf<T> {
    names: fn() -> Vec<&'static str>,
    parse: fn(&str) -> Option<T>,
    list: bool,
}

impl<T> OneOf<T> {
    /// One of `names`, read by `parse`.
    pub const fn new(names: fn() -> Vec<&'static str>, parse: fn(&str) -> Option<T>) -> Self {
        OneOf {
            names,
            parse,
            list: false,
        }
    }

    /// A comma-separated list of `names`, read whole by `parse`.
    pub const fn list(names: fn() -> Vec<&'static str>, parse: fn(&str) -> Option<T>) -> Self {
        OneOf {
            names,
            parse,
            list: true,
        }
    }

    /// `a, b or c`.
    fn expected(&self) -> String {
        let names = (self.names)();
        match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => names.join(""),
        }
    }
}

impl<T: Clone + Send + Sync + 'static> TypedValueParser for OneOf<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<T, clap::Error> {
        let s = value.to_string_lossy();
        let flag = arg
            .and_then(|a| a.get_long())
            .map_or_else(String::new, |l| format!("--{l} "));
        let refuse = |what: String| {
            clap::Error::raw(clap::error::ErrorKind::InvalidValue, format!("{what}\n"))
                .with_cmd(cmd)
        };
        if self.list {
            // The first part that is none of them, named.
            if let Some(bad) = s
                .split(',')
                .map(str::trim)
                .find(|p| !p.is_empty() && (self.parse)(p).is_none())
                .filter(|bad| *bad != s.trim())
            {
                return Err(refuse(format!(
                    "{flag}{s}: '{bad}' is not one of {}",
                    self.expected()
                )));
            }
        }
        (self.parse)(&s).ok_or_else(|| {
            refuse(format!(
                "{flag}{s}: expected {}{}",
                if self.list {
                    "a comma-separated list of "
                } else {
                    ""
                },
                self.expected()
            ))
        })
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new((self.names)().into_iter().map(PossibleValue::new)))
    }
}

/// `--profile` (`issue cert`, `issue batch`): pkit's certificate profiles.
pub const PROFILES: OneOf<Profile> = OneOf::new(
    || Profile::ALL.iter().map(|p| p.name()).collect(),
    Profile::from_name,
);

/// `--rules` (`lint`), `--lint-rules` (`issue ca`): rule sets, comma-separated.
pub const RULE_SETS: OneOf<Rules> = OneOf::list(|| Rules::NAMES.to_vec(), |s| Rules::parse(s).ok());

/// `--reason`: a reason name as RFC 5280 spells it (any case), its code. removeFromCRL
/// belongs to delta CRLs only and is refused.
pub const REASONS: OneOf<u8> = OneOf::new(
    || {
        // keyCompromise first: the reason a revocation most often has.
        (1..=10)
            .chain([0])
            .filter_map(CrlReason::from_code)
            .filter(|r| r.revokes())
            .filter_map(CrlReason::name)
            .collect()
    },
    |s| {
        CrlReason::from_name(s)
            .filter(|r| r.revokes())
            .and_then(|r| u8::try_from(r.code()).ok())
    },
);

/// `--as`: a certificate type, by any of its names.
pub const CERT_TYPES: OneOf<CertType> = OneOf::new(
    || CertType::ALL.iter().map(|t| t.name()).collect(),
    CertType::from_name,
);

/// `--type`: what an input is, by the names help gives (and the other spellings
/// `Kind::from_name` takes: x509, p12, …).
pub const KINDS: OneOf<Kind> = OneOf::new(
    || {
        vec![
            "cert",
            "csr",
            "crl",
            "ocsp-request",
            "ocsp-response",
            "pkcs7",
            "pkcs12",
            "spki",
            "pkcs8",
            "checkpoint",
            "asn1",
        ]
    },
    Kind::from_name,
);

/// `--ops`: the operations `bench x509` measures, by name.
pub const OPERATIONS: OneOf<String> = OneOf::new(
    || {
        pkit::bench::x509::OPERATIONS
            .iter()
            .map(|(n, _)| *n)
            .collect()
    },
    |s| {
        pkit::bench::x509::OPERATIONS
            .iter()
            .any(|(n, _)| *n == s)
            .then(|| s.to_string())
    },
);
