//! Bytes as text: lowercase hex, the form serials, key identifiers, fingerprints and
//! hashes take in pkit's text and JSON output.

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
