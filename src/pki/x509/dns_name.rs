//! DNS names as certificates and the protocols around them write them: RFC 1034 §3.5's
//! preferred name syntax (letters, digits and hyphens; labels of 1–63 octets that neither
//! start nor end with a hyphen; 253 octets in all), which RFC 5280 §4.2.1.6 requires of
//! dNSNames, IDNs in A-label (`xn--`) form, and a wildcard only as the whole leftmost
//! label (RFC 6125 §6.4.3, BR §7.1.2.7.12).
//!
//! The one syntax check pkit has: the verifier (reference and presented names, name
//! constraints), the linter (BR rules), the CA's name policy and ACME's identifiers
//! call [`check`] with the [`Syntax`] their rules allow — underscores, which the BRs
//! forbid since 2019 but older certificates and internal names carry, and wildcards —
//! and word the [`DnsNameError`] in their own terms.

#![forbid(unsafe_code)]

use std::fmt;

/// The longest name, in octets, without a trailing dot (RFC 1035 §2.3.4's 255 on the
/// wire less the length octets of the first label and the root).
pub const MAX_NAME_LEN: usize = 253;

/// The longest label, in octets (RFC 1035 §2.3.4).
pub const MAX_LABEL_LEN: usize = 63;

/// What a name may hold beyond the preferred name syntax.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Syntax {
    /// `*` as the whole leftmost label (and nowhere else).
    pub wildcard: bool,
    /// `_` in labels (SRV-style and internal names).
    pub underscore: bool,
}

impl Syntax {
    /// The preferred name syntax alone: no wildcard, no underscore.
    pub const HOST: Syntax = Syntax {
        wildcard: false,
        underscore: false,
    };
}

/// Why a name does not have the syntax asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DnsNameError {
    /// The name is empty.
    Empty,
    /// The name is longer than [`MAX_NAME_LEN`] octets.
    TooLong,
    /// A label is empty (`a..b`, a leading dot).
    EmptyLabel,
    /// A label is longer than [`MAX_LABEL_LEN`] octets.
    LabelTooLong,
    /// A `*` other than a whole leftmost label, where wildcards are allowed.
    Wildcard,
    /// A character outside the labels' alphabet (`*` too where wildcards are not
    /// allowed, `_` where underscores are not).
    Character(char),
    /// The label starts or ends with a hyphen.
    Hyphen,
}

impl fmt::Display for DnsNameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DnsNameError::Empty => f.write_str("is empty"),
            DnsNameError::TooLong => write!(f, "is longer than {MAX_NAME_LEN} characters"),
            DnsNameError::EmptyLabel => f.write_str("has an empty label"),
            DnsNameError::LabelTooLong => {
                write!(f, "has a label longer than {MAX_LABEL_LEN} characters")
            }
            DnsNameError::Wildcard => {
                f.write_str("has a wildcard other than a whole leftmost label")
            }
            DnsNameError::Character(c) => write!(
                f,
                "has {c:?}, outside the letters, digits and hyphens of a host name (IDNs go in xn-- form)"
            ),
            DnsNameError::Hyphen => f.write_str("has a label that starts or ends with '-'"),
        }
    }
}

impl std::error::Error for DnsNameError {}

/// Check `name` (without a trailing dot) against the preferred name syntax and what
/// `syntax` adds. Lengths are octets; the first fault found, label by label from the
/// left, is the one reported.
pub fn check(name: &str, syntax: Syntax) -> Result<(), DnsNameError> {
    if name.is_empty() {
        return Err(DnsNameError::Empty);
    }
    if name.len() > MAX_NAME_LEN {
        return Err(DnsNameError::TooLong);
    }
    for (i, label) in name.split('.').enumerate() {
        if i == 0 && syntax.wildcard && label == "*" {
            continue;
        }
        if label.is_empty() {
            return Err(DnsNameError::EmptyLabel);
        }
        if label.len() > MAX_LABEL_LEN {
            return Err(DnsNameError::LabelTooLong);
        }
        if syntax.wildcard && label.contains('*') {
            return Err(DnsNameError::Wildcard);
        }
        if let Some(c) = label
            .chars()
            .find(|&c| !(c.is_ascii_alphanumeric() || c == '-' || (syntax.underscore && c == '_')))
        {
            return Err(DnsNameError::Character(c));
        }
        if label.starts_with('-') || label.ends_with('-') {
            return Err(DnsNameError::Hyphen);
        }
    }
    Ok(())
}

// The Public Suffix List, compiled in by the `psl` crate so that a verdict does not
// depend on the network or on when it runs: the BRs forbid a wildcard standing for a
// whole public suffix (§3.2.2.6: "If a wildcard would fall within the label immediately
// to the left of a registry-controlled or public suffix, CAs MUST refuse issuance"),
// which Chrome refuses to match, and Internal Names (§1.6.1, §7.1.2.7.12).

/// Whether `domain` is itself a public suffix: an ICANN or private entry of the list,
/// or a top-level domain the list does not know (the list's implicit `*` rule).
pub fn is_public_suffix(domain: &str) -> bool {
    let lower = domain.to_ascii_lowercase();
    let bare = lower.strip_suffix('.').unwrap_or(&lower);
    psl::suffix(bare.as_bytes()).is_some_and(|s| s.as_bytes() == bare.as_bytes())
}

/// Whether a presented dNSName is a wildcard standing for a whole public suffix:
/// `*.` followed by a public suffix.
pub fn is_public_suffix_wildcard(presented: &str) -> bool {
    presented
        .strip_prefix("*.")
        .is_some_and(|rest| !rest.is_empty() && is_public_suffix(rest))
}

/// An Internal Name (BR §1.6.1): one whose rightmost label is not a top-level domain the
/// Public Suffix List's ICANN section knows (`app.internal`, `host.corp`, `localhost`).
/// Onion names are left to Appendix B's own rules.
pub fn is_internal_name(name: &str) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;

    const WILD: Syntax = Syntax {
        wildcard: true,
        underscore: false,
    };

    #[test]
    fn preferred_name_syntax() {
        for ok in [
            "example.com",
            "a",
            "xn--bcher-kva.example",
            "a-b.c9",
            &"a".repeat(63),
        ] {
            assert_eq!(check(ok, Syntax::HOST), Ok(()), "{ok}");
        }
        let long = format!(
            "{}.{}.{}.{}",
            "a".repeat(63),
            "b".repeat(63),
            "c".repeat(63),
            "d".repeat(61)
        );
        assert_eq!(long.len(), 253);
        assert_eq!(check(&long, Syntax::HOST), Ok(()));
        assert_eq!(
            check(&format!("{long}e"), Syntax::HOST),
            Err(DnsNameError::TooLong)
        );
        for (bad, why) in [
            ("", DnsNameError::Empty),
            ("a..b", DnsNameError::EmptyLabel),
            (".a", DnsNameError::EmptyLabel),
            (&"a".repeat(64), DnsNameError::LabelTooLong),
            ("-a.b", DnsNameError::Hyphen),
            ("a-.b", DnsNameError::Hyphen),
            ("a_b.c", DnsNameError::Character('_')),
            ("*.example.com", DnsNameError::Character('*')),
            ("bücher.example", DnsNameError::Character('ü')),
            ("a b", DnsNameError::Character(' ')),
        ] {
            assert_eq!(check(bad, Syntax::HOST), Err(why), "{bad:?}");
        }
    }

    #[test]
    fn wildcards_and_underscores_when_asked_for() {
        assert_eq!(check("*.example.com", WILD), Ok(()));
        assert_eq!(check("*", WILD), Ok(()));
        for bad in ["a.*.example.com", "f*.example.com", "**.example.com"] {
            assert_eq!(check(bad, WILD), Err(DnsNameError::Wildcard), "{bad}");
        }
        let under = Syntax {
            underscore: true,
            ..Syntax::HOST
        };
        assert_eq!(check("_acme-challenge.example.com", under), Ok(()));
        assert_eq!(
            check("_acme-challenge.example.com", Syntax::HOST),
            Err(DnsNameError::Character('_'))
        );
    }
}

#[cfg(test)]
mod public_suffix_tests {
    use super::*;

    #[test]
    fn public_suffixes_come_from_the_list() {
        for ps in [
            "co.uk",
            "com",
            "github.io",
            "CO.UK",
            "co.uk.",
            "s3.amazonaws.com",
            "unknowntld",
        ] {
            assert!(is_public_suffix(ps), "{ps}");
        }
        for not in ["example.co.uk", "example.com", "user.github.io"] {
            assert!(!is_public_suffix(not), "{not}");
        }
    }

    #[test]
    fn wildcards_over_public_suffixes() {
        for w in ["*.com", "*.co.uk", "*.CO.UK.", "*.s3.amazonaws.com"] {
            assert!(is_public_suffix_wildcard(w), "{w}");
        }
        for n in ["*.example.com", "co.uk", "www.co.uk", "*.", "*"] {
            assert!(!is_public_suffix_wildcard(n), "{n}");
        }
    }
}
