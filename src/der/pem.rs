//! PEM (RFC 7468), pkit's one reader and writer of it: the blocks of a text found with
//! their offsets, one block decoded, blocks written with 64-column lines. Every PEM input
//! pkit reads comes through here (`pkit-x509`'s input splitter, the PostgreSQL root
//! file, the HTTPS server's certificate chain).
//!
//! Decoding is fast enough for a 70 MB CRL: the base64 lines are joined with one memcpy
//! each and decoded a large chunk at a time (a general crate that matches and copies
//! character by character took 0.7 s for the PEM form of a million-entry CRL, against
//! 0.16 s for everything else `pkit crl check` does). RFC 1421 headers after the BEGIN
//! line (`Proc-Type: …`, `DEK-Info: …`, ending at a blank line) are skipped; a block
//! whose `Proc-Type` says `ENCRYPTED` is refused by name, since its body is ciphertext
//! only OpenSSL's legacy scheme opens.

#![forbid(unsafe_code)]

use base64::Engine;
use std::fmt;
use std::io::Write;

/// Base64 characters decoded per call.
const CHUNK: usize = 64 * 1024;

/// The line a block begins with, up to its label.
const BEGIN: &[u8] = b"-----BEGIN ";

/// The line a block ends with, up to its label.
const END: &[u8] = b"-----END ";

/// A decoded block: its label and contents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// The label between `-----BEGIN ` and `-----` (e.g. `CERTIFICATE`).
    pub label: String,
    /// The base64 body, decoded.
    pub der: Vec<u8>,
}

/// Why a block could not be read: the byte offset (into the text given) where the
/// problem is, and what was wrong there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PemError {
    /// Byte offset where the problem was found.
    pub offset: usize,
    /// What was wrong: "expected …", or why pkit does not read the block.
    pub message: String,
}

impl PemError {
    fn expected(offset: usize, what: impl fmt::Display) -> PemError {
        PemError {
            offset,
            message: format!("expected {what}"),
        }
    }

    /// The same error, its offset moved by `by` (a block's start in a larger text).
    fn shifted(self, by: usize) -> PemError {
        PemError {
            offset: self.offset + by,
            ..self
        }
    }
}

impl fmt::Display for PemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "offset {}: {}", self.offset, self.message)
    }
}

impl std::error::Error for PemError {}

/// Whether `data` holds a `-----BEGIN ` line anywhere.
pub fn has_block(data: &[u8]) -> bool {
    memchr::memmem::find(data, BEGIN).is_some()
}

/// Every block of `data`, in order, each decoded on its own so that one damaged block
/// does not hide the others: its error comes back in its place, with offsets into
/// `data`. Text outside blocks is ignored (RFC 7468 §5.2 allows explanatory text).
pub fn blocks(data: &[u8]) -> Vec<Result<Block, PemError>> {
    let mut out = Vec::new();
    let mut pos = 0;
    while let Some(rel) = memchr::memmem::find(&data[pos..], BEGIN) {
        let start = pos + rel;
        let Some(end) = memchr::memmem::find(&data[start..], END).map(|e| start + e) else {
            out.push(Err(PemError::expected(start, "a matching -----END line")));
            break;
        };
        // The END line runs to the next newline (or the end of data).
        let line_end = memchr::memchr(b'\n', &data[end..]).map_or(data.len(), |n| end + n + 1);
        out.push(decode(&data[start..line_end]).map_err(|e| e.shifted(start)));
        pos = line_end;
    }
    out
}

/// Decode `block`, which runs from `-----BEGIN ` to the end of its `-----END ` line;
/// errors carry offsets into `block`.
pub fn decode(block: &[u8]) -> Result<Block, PemError> {
    let first_end = memchr::memchr(b'\n', block).unwrap_or(block.len());
    let label = boundary(&block[..first_end], BEGIN)
        .ok_or_else(|| PemError::expected(0, "a '-----BEGIN LABEL-----' line"))?;
    let body_start = (first_end + 1).min(block.len());
    let end_at = memchr::memmem::rfind(&block[body_start..], END)
        .map(|i| body_start + i)
        .ok_or_else(|| PemError::expected(body_start, "a '-----END' line"))?;
    let end_line = &block[end_at..];
    let end_line = &end_line[..memchr::memchr(b'\n', end_line).unwrap_or(end_line.len())];
    if boundary(end_line, END) != Some(label) {
        return Err(PemError::expected(
            end_at,
            format_args!("'-----END {}-----'", String::from_utf8_lossy(label)),
        ));
    }
    let body = skip_headers(&block[body_start..end_at])?;
    let body_at = end_at - body.len();
    let der = decode_body(body).map_err(|e| PemError::expected(body_at, e))?;
    Ok(Block {
        label: String::from_utf8_lossy(label).into_owned(),
        der,
    })
}

/// The body after RFC 1421 headers, if the block has any (a first line with a colon;
/// they end at the first blank line); refused when they say the body is encrypted.
fn skip_headers(body: &[u8]) -> Result<&[u8], PemError> {
    let first = &body[..memchr::memchr(b'\n', body).unwrap_or(body.len())];
    if !first.contains(&b':') {
        return Ok(body);
    }
    let mut at = 0;
    while at < body.len() {
        let line_end = memchr::memchr(b'\n', &body[at..]).map_or(body.len(), |n| at + n + 1);
        let line = body[at..line_end].trim_ascii();
        if line.is_empty() {
            return Ok(&body[line_end..]);
        }
        if line.starts_with(b"Proc-Type:") && memchr::memmem::find(line, b"ENCRYPTED").is_some() {
            return Err(PemError {
                offset: 0,
                message: "the block uses legacy PEM encryption (Proc-Type: 4,ENCRYPTED), \
                          which pkit does not read; convert it with `openssl pkcs8 -topk8`"
                    .into(),
            });
        }
        at = line_end;
    }
    Err(PemError::expected(0, "a blank line after the PEM headers"))
}

/// The base64 lines of a body, decoded: joined into a small buffer and decoded whenever
/// it holds a whole number of quanta, so neither the joined text nor its pages ever exist
/// at full size.
fn decode_body(body: &[u8]) -> Result<Vec<u8>, String> {
    let mut der = Vec::with_capacity(body.len() / 4 * 3);
    let mut chunk = Vec::with_capacity(CHUNK + 128);
    let engine = &base64::engine::general_purpose::STANDARD;
    let mut flush = |chunk: &mut Vec<u8>, last: bool| -> Result<(), String> {
        let take = if last {
            chunk.len()
        } else {
            chunk.len() / 4 * 4
        };
        engine
            .decode_vec(&chunk[..take], &mut der)
            .map_err(|e| format!("base64 contents: {e}"))?;
        chunk.drain(..take);
        Ok(())
    };
    for line in body.split(|&b| b == b'\n') {
        chunk.extend_from_slice(line.trim_ascii());
        if chunk.len() >= CHUNK {
            flush(&mut chunk, false)?;
        }
    }
    flush(&mut chunk, true)?;
    Ok(der)
}

/// The label of a `-----BEGIN LABEL-----` / `-----END LABEL-----` line.
fn boundary<'a>(line: &'a [u8], prefix: &[u8]) -> Option<&'a [u8]> {
    line.trim_ascii_end()
        .strip_prefix(prefix)?
        .strip_suffix(b"-----")
}

/// PEM-encode with 64-column lines and `\n` endings (RFC 7468 §2).
pub fn encode(label: &str, der: &[u8]) -> String {
    let mut out = Vec::with_capacity(der.len() / 48 * 65 + 2 * label.len() + 64);
    // Writing into a Vec cannot fail, and the text is ASCII.
    let _ = write(&mut out, label, der);
    String::from_utf8(out).unwrap_or_default()
}

/// [`encode`] straight into `w`, a block of lines at a time: a 53 MB CRL never exists
/// as one 71 MB string. Written here rather than through a general crate, which wants its
/// own copy of the contents.
pub fn write(w: &mut dyn Write, label: &str, der: &[u8]) -> std::io::Result<()> {
    const LINES_PER_WRITE: usize = 1024;
    let engine = &base64::engine::general_purpose::STANDARD;
    writeln!(w, "-----BEGIN {label}-----")?;
    let mut text = String::with_capacity(LINES_PER_WRITE * 65);
    for block in der.chunks(48 * LINES_PER_WRITE) {
        text.clear();
        for line in block.chunks(48) {
            engine.encode_string(line, &mut text);
            text.push('\n');
        }
        w.write_all(text.as_bytes())?;
    }
    writeln!(w, "-----END {label}-----")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(label: &str, body: &str) -> Vec<u8> {
        format!("-----BEGIN {label}-----\n{body}-----END {label}-----\n").into_bytes()
    }

    #[test]
    fn decodes_lines_and_crlf() {
        let b = block("X509 CRL", "AAEC\r\nAwQF\r\n");
        let got = decode(&b).unwrap();
        assert_eq!(got.label, "X509 CRL");
        assert_eq!(got.der, [0, 1, 2, 3, 4, 5]);
        // Same bytes as the pem crate.
        assert_eq!(pem::parse(&b).unwrap().contents(), got.der.as_slice());
    }

    #[test]
    fn encoding_matches_the_pem_crate() {
        for len in [0, 1, 47, 48, 49, 96, 1000] {
            let der: Vec<u8> = (0..len).map(|i| (i * 7) as u8).collect();
            let theirs = pem::encode_config(
                &pem::Pem::new("X509 CRL", der.clone()),
                pem::EncodeConfig::new().set_line_ending(pem::LineEnding::LF),
            );
            assert_eq!(encode("X509 CRL", &der), theirs, "{len} bytes");
        }
    }

    #[test]
    fn headers_are_skipped_and_encryption_refused() {
        let b = block("X509 CRL", "Comment: made here\n\nAAEC\n");
        assert_eq!(decode(&b).unwrap().der, [0, 1, 2]);
        assert_eq!(pem::parse(&b).unwrap().contents(), [0, 1, 2]);
        // A folded header (RFC 1421 §4.2), which the independent reader does not take.
        let b = block("X509 CRL", "Comment: made here\n  and continued\n\nAAEC\n");
        assert_eq!(decode(&b).unwrap().der, [0, 1, 2]);
        let b = block(
            "RSA PRIVATE KEY",
            "Proc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00\n\nAAEC\n",
        );
        assert!(decode(&b).unwrap_err().message.contains("legacy PEM"));
        let b = block("A", "Comment: no blank line\n");
        assert!(decode(&b).unwrap_err().message.contains("blank line"));
    }

    #[test]
    fn blocks_come_back_in_order_with_offsets_into_the_text() {
        let good = encode("CERTIFICATE", &[0x30, 0x00]);
        let bad = "-----BEGIN CERTIFICATE-----\n!!!!\n-----END CERTIFICATE-----\n";
        let text = format!("junk\n{good}{bad}{good}-----BEGIN X-----\nAAEC\n");
        let got = blocks(text.as_bytes());
        assert_eq!(got.len(), 4);
        assert_eq!(got[0].as_ref().unwrap().der, [0x30, 0x00]);
        let e = got[1].as_ref().unwrap_err();
        assert_eq!(e.offset, 5 + good.len() + 28);
        assert!(e.message.starts_with("expected base64"), "{e}");
        assert!(got[2].is_ok());
        let e = got[3].as_ref().unwrap_err();
        assert_eq!(e.offset, 5 + 2 * good.len() + bad.len());
        assert!(has_block(text.as_bytes()) && !has_block(b"MIIB"));
    }

    #[test]
    fn names_what_is_wrong() {
        let bad_end = b"-----BEGIN A-----\nAAEC\n-----END B-----\n";
        let e = decode(bad_end).unwrap_err();
        assert_eq!(
            (e.offset, e.message.as_str()),
            (23, "expected '-----END A-----'")
        );
        let bad_b64 = block("A", "AA!C\n");
        let e = decode(&bad_b64).unwrap_err();
        assert_eq!(e.offset, 18);
        assert!(e.message.starts_with("expected base64 contents"), "{e}");
        assert!(decode(b"-----BEGIN A-----\nAAEC\n").is_err());
    }
}
