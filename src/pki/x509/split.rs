//! One input's bytes as the objects in it: PEM bundles (any number of blocks), DER, or
//! bare base64, told apart by a look at the bytes. Every command that reads PKI files
//! goes through here (`cmd/io.rs` adds the file names), and so does the `detect` fuzz
//! target: this is the first code that hostile input meets.

#![forbid(unsafe_code)]

use crate::der::pem;
use base64::Engine;

/// How the bytes of an input are encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Form {
    /// Detect PEM, DER or base64.
    #[default]
    Auto,
    /// PEM blocks (`-----BEGIN …-----`).
    Pem,
    /// Binary DER, one or more values back to back.
    Der,
    /// Base64 of DER without PEM armour.
    Base64,
}

/// One object found in an input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// The PEM label (`CERTIFICATE`, `X509 CRL`…), if the item came from PEM.
    pub label: Option<String>,
    /// The object's DER.
    pub der: Vec<u8>,
}

/// Why an item could not be read: the byte offset in the input and what was wrong
/// ("expected …"), for the caller to prefix with the input's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitError {
    /// Byte offset in the input where the problem was found.
    pub offset: usize,
    /// What was expected there.
    pub message: String,
}

impl std::fmt::Display for SplitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "offset {}: {}", self.offset, self.message)
    }
}

impl std::error::Error for SplitError {}

impl SplitError {
    fn expected(offset: usize, what: impl std::fmt::Display) -> SplitError {
        SplitError {
            offset,
            message: format!("expected {what}"),
        }
    }
}

/// Split `data` into items. PEM blocks are decoded one by one, so one damaged block
/// does not hide the others: its error comes back in its place. Only PEM gives more
/// than one item.
pub fn split(data: Vec<u8>, form: Form) -> Vec<Result<Item, SplitError>> {
    if data.trim_ascii().is_empty() {
        return vec![Err(SplitError::expected(0, "data, found an empty input"))];
    }
    let form = match form {
        Form::Auto => detect_form(&data),
        f => f,
    };
    match form {
        // DER moves through without a copy (inputs can be large).
        Form::Der | Form::Auto => vec![Ok(Item {
            label: None,
            der: data,
        })],
        Form::Base64 => {
            let text: Vec<u8> = data
                .iter()
                .copied()
                .filter(|b| !b.is_ascii_whitespace())
                .collect();
            vec![base64::engine::general_purpose::STANDARD
                .decode(&text)
                .map(|der| Item { label: None, der })
                .map_err(|e| SplitError::expected(0, format_args!("base64: {e}")))]
        }
        Form::Pem => split_pem(&data),
    }
}

/// PEM if a `-----BEGIN ` line is present; base64 if the text is only base64 characters;
/// otherwise DER.
pub fn detect_form(data: &[u8]) -> Form {
    // DER starts with a tag octet, never with text: a quick look spares scanning a large
    // binary file for a PEM header.
    if data.first() == Some(&0x30) && !pem::has_block(&data[..data.len().min(4096)]) {
        return Form::Der;
    }
    if pem::has_block(data) {
        return Form::Pem;
    }
    let trimmed = data.trim_ascii();
    if trimmed.len() >= 4
        && trimmed
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || b"+/=\r\n \t".contains(b))
    {
        return Form::Base64;
    }
    Form::Der
}

fn split_pem(data: &[u8]) -> Vec<Result<Item, SplitError>> {
    pem::blocks(data)
        .into_iter()
        .map(|b| match b {
            Ok(b) => Ok(Item {
                label: Some(b.label),
                der: b.der,
            }),
            Err(e) => Err(SplitError {
                offset: e.offset,
                message: e.message,
            }),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_forms() {
        assert_eq!(detect_form(b"-----BEGIN CERTIFICATE-----\n"), Form::Pem);
        assert_eq!(detect_form(b"MIIB\nAAAA\n"), Form::Base64);
        assert_eq!(detect_form(&[0x30, 0x03, 0x02, 0x01, 0x00]), Form::Der);
    }

    #[test]
    fn splits_pem_bundles_and_reports_bad_blocks() {
        let good = pem::encode("CERTIFICATE", &[0x30, 0x00]);
        let bad = "-----BEGIN CERTIFICATE-----\n!!!!\n-----END CERTIFICATE-----\n";
        let data = format!("junk\n{good}{bad}{good}");
        let items = split(data.into_bytes(), Form::Auto);
        assert_eq!(items.len(), 3);
        assert_eq!(items[0].as_ref().unwrap().der, [0x30, 0x00]);
        let e = items[1].as_ref().unwrap_err();
        assert_eq!(e.offset, 5 + good.len() + 28);
        assert!(e.message.starts_with("expected base64"), "{}", e.message);
        assert!(items[2].is_ok());
    }

    #[test]
    fn empty_base64_and_legacy_encryption() {
        let e = split(b" \n".to_vec(), Form::Auto);
        assert_eq!(e[0].as_ref().unwrap_err().offset, 0);
        let b = split(b"MAMCAQE=\n".to_vec(), Form::Auto);
        assert_eq!(b[0].as_ref().unwrap().der, [0x30, 3, 2, 1, 1]);
        let legacy = b"-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: \
                       AES-128-CBC,00\n\nAAEC\n-----END RSA PRIVATE KEY-----\n";
        let l = split(legacy.to_vec(), Form::Auto);
        assert!(l[0].as_ref().unwrap_err().message.contains("legacy PEM"));
    }
}
