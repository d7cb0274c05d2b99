//! The JSONL manifest `pkit issue batch --from` and `pkit mtc add --from` read: one JSON
//! object per line naming a certificate (or a log entry) to make,
//!
//! ```text
//! {"subject": "CN=a.example", "sans": ["DNS:a.example"], "profile": "server",
//!  "alg": "ecdsa-p256", "days": 90, "spki": "BASE64"}
//! ```
//!
//! every member optional but a subject or at least one SAN. Each reader takes the
//! members it uses (a batch makes its own keys, so it leaves `spki` unread; a log entry
//! has no profile) and fills in the rest from its command line. Blank lines are skipped;
//! errors name the line and the byte offset where it starts.
//!
//! The line is read here, beside the subject and SAN parsers it uses, so that both
//! issuers (the CA and the MTC log) read one format without one depending on the other.
//! A profile is the CA's notion: the line keeps its name, and the CA reads it with
//! [`ManifestLine::error`] naming the line when the name is not one of its profiles.

#![forbid(unsafe_code)]

use crate::alg::Algorithm;
use crate::san::parse_san;
use crate::subject::parse_subject;
use base64::Engine as _;
use serde_json::Value;
use std::fmt;

/// One manifest line, parsed and checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManifestLine {
    /// The subject as written (empty when the line has none).
    pub subject_text: String,
    /// The subject Name's DER (`30 00` when empty).
    pub subject: Vec<u8>,
    /// Each SAN as a GeneralName TLV, in the line's order.
    pub sans: Vec<Vec<u8>>,
    /// The certificate profile's name, when the line names one (the CA checks it).
    pub profile: Option<String>,
    /// The key algorithm, when the line names one.
    pub alg: Option<Algorithm>,
    /// The validity in days, when the line gives it.
    pub days: Option<u32>,
    /// A SubjectPublicKeyInfo's DER, when the line brings its own key.
    pub spki: Option<Vec<u8>>,
    /// The line's number in its manifest, from 1.
    pub line: usize,
    /// The byte offset of the line's start in the manifest.
    pub offset: usize,
}

/// A manifest line that could not be read: where it is and what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManifestError {
    /// The line's number, from 1.
    pub line: usize,
    /// The byte offset of the line's start in the manifest.
    pub offset: usize,
    /// What is wrong with it.
    pub message: String,
}

impl fmt::Display for ManifestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {} (byte {}): {}",
            self.line, self.offset, self.message
        )
    }
}

impl std::error::Error for ManifestError {}

/// The non-blank lines of a text, each with its number from 1 and the byte offset of its
/// start (a trailing `\r` dropped): how line-based inputs name where a line is.
pub fn nonblank_lines(text: &str) -> impl Iterator<Item = (usize, usize, &str)> {
    let mut offset = 0;
    text.split_inclusive('\n')
        .enumerate()
        .map(move |(n, raw)| {
            let at = offset;
            offset += raw.len();
            (n + 1, at, raw.trim_end_matches(['\n', '\r']))
        })
        .filter(|(_, _, l)| !l.trim().is_empty())
}

impl ManifestLine {
    /// Line `number` of a manifest, which starts at byte `offset`: its JSON, checked
    /// member by member.
    pub fn parse_at(
        line: &str,
        number: usize,
        offset: usize,
    ) -> Result<ManifestLine, ManifestError> {
        let mut parsed = ManifestLine::parse(line).map_err(|message| ManifestError {
            line: number,
            offset,
            message,
        })?;
        (parsed.line, parsed.offset) = (number, offset);
        Ok(parsed)
    }

    /// What is wrong with this line, found by a reader after parsing (an unknown
    /// profile), as the error that names where the line is.
    pub fn error(&self, message: impl Into<String>) -> ManifestError {
        ManifestError {
            line: self.line,
            offset: self.offset,
            message: message.into(),
        }
    }

    /// One line's JSON, checked member by member; on failure, what is wrong.
    fn parse(line: &str) -> Result<ManifestLine, String> {
        let v: Value = serde_json::from_str(line).map_err(|e| format!("bad JSON: {e}"))?;
        let subject_text = match &v["subject"] {
            Value::Null => String::new(),
            Value::String(s) => s.clone(),
            _ => return Err("subject must be a string".into()),
        };
        let subject = parse_subject(&subject_text).map_err(|e| e.0)?;
        let sans = match &v["sans"] {
            Value::Null => Vec::new(),
            Value::Array(xs) => xs
                .iter()
                .map(|x| {
                    let s = x.as_str().ok_or("sans must be strings")?;
                    parse_san(s).map(|s| s.der).map_err(|e| e.0)
                })
                .collect::<Result<Vec<_>, String>>()?,
            _ => return Err("sans must be an array".into()),
        };
        if subject == [0x30, 0x00] && sans.is_empty() {
            return Err("needs a subject or sans".into());
        }
        let profile = match &v["profile"] {
            Value::Null => None,
            p => Some(p.as_str().ok_or("profile must be a string")?.to_owned()),
        };
        let alg = match &v["alg"] {
            Value::Null => None,
            a => {
                let s = a.as_str().ok_or("alg must be a string")?;
                Some(Algorithm::from_name(s).ok_or(format!("unknown alg '{s}'"))?)
            }
        };
        let days = match &v["days"] {
            Value::Null => None,
            d => Some(
                d.as_u64()
                    .and_then(|d| u32::try_from(d).ok())
                    .filter(|&d| d > 0)
                    .ok_or("days must be a positive integer")?,
            ),
        };
        let spki = match &v["spki"] {
            Value::Null => None,
            b => Some(
                b.as_str()
                    .and_then(|b| base64::engine::general_purpose::STANDARD.decode(b).ok())
                    .ok_or("spki must be base64")?,
            ),
        };
        Ok(ManifestLine {
            subject_text,
            subject,
            sans,
            profile,
            alg,
            days,
            spki,
            line: 0,
            offset: 0,
        })
    }

    /// Every non-blank line of a manifest, parsed; the first bad line is the error.
    pub fn parse_all(text: &str) -> Result<Vec<ManifestLine>, ManifestError> {
        nonblank_lines(text)
            .map(|(line, offset, l)| ManifestLine::parse_at(l, line, offset))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_carry_what_they_name() {
        let l = ManifestLine::parse(
            r#"{"subject":"CN=a.example","sans":["DNS:a.example","IP:192.0.2.1"],"profile":"server","alg":"ed25519","days":30,"spki":"MCo="}"#,
        )
        .unwrap();
        assert_eq!(l.subject_text, "CN=a.example");
        assert_eq!(l.sans.len(), 2);
        assert_eq!(l.profile.as_deref(), Some("server"));
        assert_eq!(l.alg, Some(Algorithm::Ed25519));
        assert_eq!(l.days, Some(30));
        assert_eq!(l.spki.as_deref(), Some(&[0x30, 0x2a][..]));
        let bare = ManifestLine::parse(r#"{"sans":["DNS:b.example"]}"#).unwrap();
        assert_eq!(bare.subject, [0x30, 0x00]);
        assert_eq!(
            (bare.profile, bare.alg, bare.days, bare.spki),
            (None, None, None, None)
        );
    }

    #[test]
    fn bad_lines_say_what_is_wrong_and_where() {
        for (line, why) in [
            ("{", "bad JSON"),
            ("{}", "needs a subject or sans"),
            (r#"{"sans":"DNS:a"}"#, "sans must be an array"),
            (r#"{"sans":[1]}"#, "sans must be strings"),
            (r#"{"sans":["DNS:a"],"alg":"rot13"}"#, "unknown alg 'rot13'"),
            (
                r#"{"sans":["DNS:a"],"profile":7}"#,
                "profile must be a string",
            ),
            (
                r#"{"sans":["DNS:a"],"days":0}"#,
                "days must be a positive integer",
            ),
            (
                r#"{"sans":["DNS:a"],"days":-3}"#,
                "days must be a positive integer",
            ),
            (r#"{"sans":["DNS:a"],"spki":"%%"}"#, "spki must be base64"),
            (r#"{"subject":7}"#, "subject must be a string"),
        ] {
            let e = ManifestLine::parse(line).unwrap_err();
            assert!(e.contains(why), "{line}: {e}");
        }
        let text = "{\"sans\":[\"DNS:a\"]}\n\n{\"sans\":[]}\n";
        let e = ManifestLine::parse_all(text).unwrap_err();
        assert_eq!((e.line, e.offset), (3, 20));
    }
}
