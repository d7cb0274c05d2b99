//! Bytes as text: lowercase hex, the form serials, key identifiers, fingerprints and
//! hashes take in pkit's text and JSON output; and hex read back into bytes (a serial
//! argument, a template's `der_hex`, an RFC 4514 `#hex` value).

/// Lowercase hex without separators.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        s.push(DIGITS[usize::from(b >> 4)] as char);
        s.push(DIGITS[usize::from(b & 15)] as char);
    }
    s
}

/// The bytes hex text spells: pairs of hex digits in either case, with every character
/// `skip` accepts ignored wherever it stands (`:` in a serial as OpenSSL prints it,
/// `01:02`); `None` for any other character or an odd number of digits. Empty text is
/// no bytes: a caller that needs some says so.
pub fn parse_hex(text: &str, skip: impl Fn(char) -> bool) -> Option<Vec<u8>> {
    let digits = text
        .chars()
        .filter(|&c| !skip(c))
        .map(|c| c.to_digit(16).and_then(|d| u8::try_from(d).ok()))
        .collect::<Option<Vec<u8>>>()?;
    if digits.len() % 2 != 0 {
        return None;
    }
    Some(digits.chunks_exact(2).map(|p| p[0] << 4 | p[1]).collect())
}

/// The bytes a hex string spells (upper or lower case, no separators), for test vectors
/// written as RFCs print them.
///
/// # Panics
///
/// On a character that is not a hex digit or an odd length: the input is a constant in a
/// test, where a panic is the failure wanted, and never data from outside.
#[cfg(any(test, feature = "test-util"))]
pub fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        // Test constants only (see Panics): a bad vector should stop the test here.
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("a hex digit pair"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_text_reads_back_with_the_separators_asked_for() {
        let colon = |c| c == ':';
        assert_eq!(parse_hex("01:aB:ff", colon), Some(vec![1, 0xab, 0xff]));
        assert_eq!(
            parse_hex(&hex(&[0, 0x7f, 0x80]), colon),
            Some(vec![0, 0x7f, 0x80])
        );
        assert_eq!(parse_hex("", colon), Some(Vec::new()));
        // An odd count of digits, a stray character, a separator not asked for.
        assert_eq!(parse_hex("abc", colon), None);
        assert_eq!(parse_hex("0g", colon), None);
        assert_eq!(parse_hex("01:02", |_| false), None);
        assert_eq!(parse_hex("0 1\n02", char::is_whitespace), Some(vec![1, 2]));
        // Not ASCII: refused, never split inside a character.
        assert_eq!(parse_hex("é1", colon), None);
    }
}
