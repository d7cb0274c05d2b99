//! Mailbox syntax, as an rfc822Name must have it (RFC 5280 §4.2.1.6: "a 'Mailbox' as
//! defined in Section 4.1.2 of [RFC2821]", now RFC 5321 §4.1.2):
//!
//! ```text
//! Mailbox        = Local-part "@" ( Domain / address-literal )
//! Local-part     = Dot-string / Quoted-string
//! Dot-string     = Atom *("."  Atom)
//! Atom           = 1*atext
//! Quoted-string  = DQUOTE *QcontentSMTP DQUOTE
//! QcontentSMTP   = qtextSMTP / quoted-pairSMTP
//! quoted-pairSMTP  = %d92 %d32-126
//! qtextSMTP      = %d32-33 / %d35-91 / %d93-126
//! ```
//!
//! `atext` is RFC 5322 §3.2.3's; RFC 6531 §3.3 adds UTF-8 beyond ASCII to atext and
//! qtextSMTP, which an SmtpUTF8Mailbox (RFC 8398) may use. An ASCII domain must be a
//! host name (a U-label one is left to the caller): an address-literal (`[192.0.2.1]`) is a valid mailbox but names no host a
//! constraint could place, so it is refused here and fails every constraint, as any
//! name that cannot be compared does. Name constraints need this: a name that is not
//! a mailbox (`a@b@example.com`) has no well-defined domain, and reading one anyway
//! (after its last `@`, say) would let it pass a permitted subtree its sender never
//! owned.

use super::names;

/// A mailbox split into its local part (quotes and escapes kept, as it compares) and
/// its domain (a trailing dot kept). Err: why it is not one.
pub(crate) fn parse(text: &str) -> Result<(&str, &str), String> {
    let at = if text.starts_with('"') {
        quoted_end(text)?
    } else {
        let at = text.find('@').ok_or("has no '@'")?;
        dot_string(&text[..at])?;
        at
    };
    let (local, rest) = text.split_at(at);
    let domain = rest
        .strip_prefix('@')
        .ok_or("has something after its quoted local part other than '@'")?;
    let bare = domain.strip_suffix('.').unwrap_or(domain);
    // A domain in U-labels (RFC 6531 allows one in an SmtpUTF8Mailbox) is left to the
    // caller, which cannot compare it without IDNA and says so.
    if bare.is_ascii() {
        names::check_host_name(bare).map_err(|why| format!("has a domain that {why}"))?;
    } else if bare.is_empty() || bare.split('.').any(str::is_empty) {
        return Err("has a domain with an empty label".into());
    }
    Ok((local, domain))
}

/// RFC 5322 §3.2.3 atext, with RFC 6531's UTF-8.
fn is_atext(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-/=?^_`{|}~".contains(c) || !c.is_ascii()
}

fn dot_string(local: &str) -> Result<(), String> {
    if local.is_empty() {
        return Err("has an empty local part".into());
    }
    for atom in local.split('.') {
        if atom.is_empty() {
            return Err(
                "has a local part with an empty atom (a leading, trailing or double '.')".into(),
            );
        }
        if let Some(c) = atom.chars().find(|&c| !is_atext(c)) {
            return Err(format!("has {c:?} in an unquoted local part"));
        }
    }
    Ok(())
}

/// The offset just past the closing quote of a Quoted-string at the start of `text`.
fn quoted_end(text: &str) -> Result<usize, String> {
    let mut chars = text.char_indices().skip(1);
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Ok(i + 1),
            '\\' => match chars.next() {
                Some((_, e)) if (' '..='~').contains(&e) => {}
                _ => return Err("has a bad escape in its quoted local part".into()),
            },
            c if (' '..='~').contains(&c) || !c.is_ascii() => {}
            c => return Err(format!("has {c:?} in its quoted local part")),
        }
    }
    Err("has an unterminated quoted local part".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mailboxes() {
        assert_eq!(parse("alice@example.com"), Ok(("alice", "example.com")));
        assert_eq!(parse("a.b+c@example.com."), Ok(("a.b+c", "example.com.")));
        assert_eq!(parse("*@example.com"), Ok(("*", "example.com")));
        assert_eq!(parse("user*@example.com"), Ok(("user*", "example.com")));
        assert_eq!(parse("\"a@b\"@example.com"), Ok(("\"a@b\"", "example.com")));
        assert_eq!(
            parse("\"a\\\"b\"@example.com"),
            Ok(("\"a\\\"b\"", "example.com"))
        );
        // RFC 6531 local parts (an SmtpUTF8Mailbox).
        assert_eq!(parse("δοκιμή@example.com"), Ok(("δοκιμή", "example.com")));
    }

    #[test]
    fn not_mailboxes() {
        for bad in [
            "a@b@example.com",
            "invalid@address@example.com",
            "example.com",
            "@example.com",
            "alice@",
            "alice@.example.com",
            "alice@exa mple.com",
            ".alice@example.com",
            "alice.@example.com",
            "a..b@example.com",
            "a b@example.com",
            "a(b)@example.com",
            "\"ab@example.com",
            "\"a\"b@example.com",
            "\"a\\\u{7}\"@example.com",
            "alice@[192.0.2.1]",
            "",
            "@",
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }
}
