//! The Public Suffix List, as the `webpki` rules consult it: a wildcard may not stand
//! for every name under a public suffix (`*.co.uk`, `*.github.io`). The BRs forbid a CA
//! to issue one (§3.2.2.6: "If a wildcard would fall within the label immediately to
//! the left of a registry-controlled or public suffix, CAs MUST refuse issuance"), and
//! Chrome refuses to match one. The list is compiled in by the `psl` crate, so the
//! verdict does not depend on the network or on when it runs.

/// Whether `domain` is itself a public suffix: an ICANN or private entry of the list,
/// or a top-level domain the list does not know (the list's implicit `*` rule).
pub(crate) fn is_public_suffix(domain: &str) -> bool {
    let lower = domain.to_ascii_lowercase();
    let bare = lower.strip_suffix('.').unwrap_or(&lower);
    psl::suffix(bare.as_bytes()).is_some_and(|s| s.as_bytes() == bare.as_bytes())
}

/// Whether a presented dNSName is a wildcard standing for a whole public suffix:
/// `*.` followed by a public suffix.
pub(crate) fn is_public_suffix_wildcard(presented: &str) -> bool {
    presented
        .strip_prefix("*.")
        .is_some_and(|rest| !rest.is_empty() && is_public_suffix(rest))
}

#[cfg(test)]
mod tests {
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
