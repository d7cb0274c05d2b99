//! Generic ASN.1 walk for `parse -f asn1` and for inputs of unknown type: a flat list of
//! nodes (depth-first) with offsets, lengths and decoded primitive values. Rendering is the
//! caller's job. Recursion is bounded by [`MAX_DEPTH`].

use super::error::{Error, ErrorKind, Result};
use super::reader::{Reader, Tlv, MAX_DEPTH};
use super::tag::{self, Class};
use super::{integer, oid::ObjectId, string, time};

/// One element of the tree.
#[derive(Debug, Clone)]
pub struct Node {
    /// Nesting level: 0 for a top-level element.
    pub depth: usize,
    /// Absolute byte offset of the identifier octet.
    pub offset: usize,
    /// Octets of identifier and length together.
    pub header_len: usize,
    /// Octets of content (for an indefinite length, up to the end-of-contents octets).
    pub content_len: usize,
    /// The tag's class.
    pub class: Class,
    /// Whether the element is constructed (has child elements).
    pub constructed: bool,
    /// The tag number within its class.
    pub number: u32,
    /// Whether the length is the BER indefinite form.
    pub indefinite: bool,
    /// The tag's display name: "SEQUENCE", "\[0\]", "application \[3\]".
    pub label: String,
    /// A decoded primitive value, when there is one to show.
    pub value: Option<String>,
}

/// Walk every element of `data` (several top-level elements allowed). OCTET STRING and
/// BIT STRING contents that are themselves valid DER are expanded, as dumpasn1 does.
pub fn walk(r: Reader<'_>) -> Result<Vec<Node>> {
    let mut out = Vec::new();
    walk_level(r, 0, &mut out)?;
    Ok(out)
}

fn walk_level(mut r: Reader<'_>, depth: usize, out: &mut Vec<Node>) -> Result<()> {
    if depth > MAX_DEPTH {
        return Err(Error::new(
            r.offset(),
            ErrorKind::TooDeep { limit: MAX_DEPTH },
        ));
    }
    while !r.is_empty() {
        let tlv = r.read_tlv()?;
        if tlv.tag == 0 && tlv.content.is_empty() {
            // Indefinite-length parsing consumes its own end-of-contents; one found here
            // stands outside any indefinite length (X.690 §8.1.5).
            return Err(Error::invalid(
                tlv.offset,
                "expected an element, found end-of-contents outside an indefinite length",
            ));
        }
        let class = Class::of(tlv.tag);
        let constructed = tlv.is_constructed();
        let label = match class {
            Class::Universal => tag::universal_name(tlv.number)
                .map(str::to_string)
                .unwrap_or_else(|| format!("universal {}", tlv.number)),
            Class::Context => format!("[{}]", tlv.number),
            c => format!("{} [{}]", c.as_str(), tlv.number),
        };
        let idx = out.len();
        out.push(Node {
            depth,
            offset: tlv.offset,
            header_len: tlv.header_len,
            content_len: tlv.content.len(),
            class,
            constructed,
            number: tlv.number,
            indefinite: tlv.indefinite,
            label,
            value: None,
        });
        let inner = r.with_base(tlv.content, tlv.content_offset());
        if constructed {
            walk_level(inner, depth + 1, out)?;
        } else if class == Class::Universal {
            let (value, nested) = primitive_value(&r, &tlv);
            out[idx].value = value;
            if let Some(skip) = nested {
                let start = tlv.content_offset() + skip;
                let sub = r.with_base(&tlv.content[skip..], start);
                // Only expand when the whole payload parses; otherwise it is opaque data.
                let mut trial = Vec::new();
                if walk_level(sub, depth + 1, &mut trial).is_ok() && !trial.is_empty() {
                    out[idx].value = None;
                    out.extend(trial);
                }
            }
        } else if !tlv.content.is_empty() && tlv.content.len() <= 64 {
            out[idx].value = Some(hex_preview(tlv.content));
        }
    }
    Ok(())
}

/// Decoded value of a universal primitive, and where encapsulated DER might start.
fn primitive_value(r: &Reader<'_>, tlv: &Tlv<'_>) -> (Option<String>, Option<usize>) {
    let c = tlv.content;
    let off = tlv.content_offset();
    let looks_nested = |skip: usize| {
        c.len() > skip + 1 && matches!(c[skip], 0x30 | 0x31 | 0x04 | 0x02 | 0x03 | 0x06)
    };
    match tlv.tag {
        tag::BOOLEAN => (Some(if c == [0] { "FALSE" } else { "TRUE" }.into()), None),
        tag::INTEGER | tag::ENUMERATED => {
            let v = match integer::to_i64(c, off) {
                Ok(v) if c.len() <= 8 => v.to_string(),
                _ => hex_preview(c),
            };
            (Some(v), None)
        }
        tag::NULL => (None, None),
        tag::OID => match ObjectId::from_content(c, off) {
            Ok(o) => (
                Some(match o.name() {
                    Some(n) => format!("{o} ({n})"),
                    None => o.to_string(),
                }),
                None,
            ),
            Err(_) => (Some(format!("invalid OID {}", hex_preview(c))), None),
        },
        tag::RELATIVE_OID => (Some(relative_oid(c)), None),
        tag::UTC_TIME => (
            Some(time::parse_utc_time(r, c, off).map_or_else(|_| lossy(c), |t| t.to_string())),
            None,
        ),
        tag::GENERALIZED_TIME => (
            Some(
                time::parse_generalized_time(r, c, off)
                    .map_or_else(|_| lossy(c), |t| t.to_string()),
            ),
            None,
        ),
        t if string::is_string_tag(t) => (
            Some(string::decode(r, t, c, off).map_or_else(|_| lossy(c), |s| s.into_owned())),
            None,
        ),
        tag::OCTET_STRING => (Some(hex_preview(c)), looks_nested(0).then_some(0)),
        tag::BIT_STRING => {
            let v = match c.split_first() {
                Some((u, rest)) => format!("unused {u}: {}", hex_preview(rest)),
                None => String::new(),
            };
            (
                Some(v),
                (c.first() == Some(&0) && looks_nested(1)).then_some(1),
            )
        }
        _ => (Some(hex_preview(c)), None),
    }
}

fn lossy(c: &[u8]) -> String {
    String::from_utf8_lossy(c).into_owned()
}

/// RELATIVE-OID content as dotted arcs (used by MTC trust anchor IDs).
pub fn relative_oid(c: &[u8]) -> String {
    let mut arcs = Vec::new();
    let mut v: u64 = 0;
    for &b in c {
        v = (v << 7) | u64::from(b & 0x7f);
        if b & 0x80 == 0 {
            arcs.push(v.to_string());
            v = 0;
        }
    }
    arcs.join(".")
}

/// Hex of up to 32 bytes, then an ellipsis and the total.
pub fn hex_preview(c: &[u8]) -> String {
    const SHOW: usize = 32;
    let mut s = String::with_capacity(SHOW * 2 + 16);
    for b in c.iter().take(SHOW) {
        s.push_str(&format!("{b:02x}"));
    }
    if c.len() > SHOW {
        s.push_str(&format!("… ({} bytes)", c.len()));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reader::Deviations;

    #[test]
    fn walks_and_expands_encapsulated() {
        // SEQUENCE { OID 2.5.29.19, OCTET STRING { SEQUENCE { BOOLEAN TRUE } } }
        let der = [
            0x30, 0x0c, 0x06, 0x03, 0x55, 0x1d, 0x13, 0x04, 0x05, 0x30, 0x03, 0x01, 0x01, 0xff,
        ];
        let nodes = walk(Reader::new(&der)).unwrap();
        let labels: Vec<_> = nodes.iter().map(|n| (n.depth, n.label.as_str())).collect();
        assert_eq!(
            labels,
            [
                (0, "SEQUENCE"),
                (1, "OBJECT IDENTIFIER"),
                (1, "OCTET STRING"),
                (2, "SEQUENCE"),
                (3, "BOOLEAN")
            ]
        );
        assert_eq!(
            nodes[1].value.as_deref(),
            Some("2.5.29.19 (basicConstraints)")
        );
        assert_eq!(nodes[3].offset, 9);
    }

    #[test]
    fn stray_end_of_contents_is_refused() {
        let err = walk(Reader::new(&[0x05, 0x00, 0x00, 0x00])).unwrap_err();
        assert_eq!(err.offset, 2);
        let log = Deviations::new();
        // Inside an indefinite length the EOC is consumed by the reader, not seen here.
        let nodes = walk(Reader::lenient(&[0x30, 0x80, 0x05, 0x00, 0x00, 0x00], &log)).unwrap();
        assert_eq!(nodes.len(), 2);
    }

    #[test]
    fn deep_nesting_is_refused() {
        let depth = 10_000;
        let mut der = Vec::new();
        // Build a definite-length 10,000-deep SEQUENCE from the inside out.
        let mut inner: Vec<u8> = Vec::new();
        for _ in 0..depth {
            let mut w = crate::writer::Writer::new();
            w.primitive(0x30, &inner);
            inner = w.finish();
        }
        der.extend(inner);
        let err = walk(Reader::new(&der)).unwrap_err();
        assert_eq!(err.kind, ErrorKind::TooDeep { limit: MAX_DEPTH });
        let log = Deviations::new();
        assert!(walk(Reader::lenient(&der, &log)).is_err());
    }
}
