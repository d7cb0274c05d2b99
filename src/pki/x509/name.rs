//! X.501 Names (RFC 5280 §4.1.2.4) and their RFC 4514 string form.
//!
//! ```asn1
//! Name ::= CHOICE { rdnSequence RDNSequence }
//! RDNSequence ::= SEQUENCE OF RelativeDistinguishedName
//! RelativeDistinguishedName ::= SET SIZE (1..MAX) OF AttributeTypeAndValue
//! AttributeTypeAndValue ::= SEQUENCE { type AttributeType, value AttributeValue }
//! ```

#![forbid(unsafe_code)]

use crate::der::{oid_registry as oids, string, tag, Context, ObjectId, Reader, Result};
use std::fmt::Write as _;

/// A borrowed Name: the raw TLV (compared byte for byte when chaining) and its content.
#[derive(Debug, Clone, Copy)]
pub struct Name<'a> {
    /// The whole `SEQUENCE` TLV.
    pub raw: &'a [u8],
    /// A reader over the content (keeps the strict/lenient mode it was read with).
    body: Reader<'a>,
    /// Absolute byte offset of the Name's SEQUENCE in the input.
    pub offset: usize,
}

impl PartialEq for Name<'_> {
    /// Names compare by encoding, as certificate path building does (RFC 5280 §7.1 allows
    /// more, but byte equality is what issuers produce).
    fn eq(&self, other: &Self) -> bool {
        self.raw == other.raw
    }
}

impl Eq for Name<'_> {}

/// One AttributeTypeAndValue.
#[derive(Debug, Clone, Copy)]
pub struct Attribute<'a> {
    /// The attribute type (e.g. id-at-commonName).
    pub oid: ObjectId<'a>,
    /// The value's tag (a string type in almost every Name).
    pub value_tag: u8,
    /// The value's content octets.
    pub value: &'a [u8],
    /// The value's full TLV (RFC 4514 `#hex` form for non-string values).
    pub value_raw: &'a [u8],
    /// Absolute byte offset of the value's content.
    pub value_offset: usize,
    /// The reader the attribute came from: decoding follows its strict/lenient mode.
    mode: Reader<'a>,
}

impl<'a> Name<'a> {
    /// Read a Name at the cursor (structure only; attributes decode on demand).
    #[inline]
    pub fn read(r: &mut Reader<'a>) -> Result<Self> {
        let rest = r.remaining();
        let tlv = r.read_expect(tag::SEQUENCE)?;
        Ok(Name {
            raw: &rest[..tlv.total_len],
            body: r.with_base(tlv.content, tlv.content_offset()),
            offset: tlv.offset,
        })
    }

    /// A Name from its complete DER at absolute `offset`.
    pub fn from_der(der: &'a [u8], offset: usize) -> Result<Self> {
        let mut r = Reader::new(&[]).with_base(der, offset);
        let n = Name::read(&mut r)?;
        r.finish()?;
        Ok(n)
    }

    /// Whether the Name has no RDNs (the empty sequence).
    pub fn is_empty(&self) -> bool {
        self.body.is_empty()
    }

    /// The RDNs in encoded order, each a list of attributes.
    pub fn rdns(&self) -> Result<Vec<Vec<Attribute<'a>>>> {
        let mut out = Vec::new();
        let mut r = self.body;
        let mut i = 0;
        while !r.is_empty() {
            let rdn = read_rdn(&mut r).at_index(i)?;
            out.push(rdn);
            i += 1;
        }
        Ok(out)
    }

    /// All attributes, flattened, in encoded order.
    pub fn attributes(&self) -> Result<Vec<Attribute<'a>>> {
        Ok(self.rdns()?.into_iter().flatten().collect())
    }

    /// The first value of an attribute type (e.g. the CN), decoded.
    pub fn first(&self, oid: &crate::der::Oid) -> Result<Option<String>> {
        for a in self.attributes()? {
            if a.oid == *oid {
                return a.text().map(Some);
            }
        }
        Ok(None)
    }

    /// RFC 4514: RDNs last to first, `,` between RDNs, `+` inside one, values escaped.
    pub fn to_rfc4514(&self) -> Result<String> {
        let body = self.body.remaining();
        let mut s = String::with_capacity(body.len());
        if rfc4514_common(body, &mut s).is_some() {
            return Ok(s);
        }
        self.rfc4514_general()
    }

    /// [`Name::to_rfc4514`] for any Name, through the general reader (and with its errors).
    fn rfc4514_general(&self) -> Result<String> {
        // RDN spans first (cheap), then attributes in reverse RDN order. The spans of
        // the first 16 RDNs live on the stack: no allocation besides the result for any
        // real-world name.
        const INLINE: usize = 16;
        let mut inline = [self.body; INLINE];
        let mut extra: Vec<Reader<'a>> = Vec::new();
        let mut count = 0;
        let mut r = self.body;
        while !r.is_empty() {
            let set = r.read_nested(tag::SET).at_index(count)?;
            match inline.get_mut(count) {
                Some(slot) => *slot = set,
                None => extra.push(set),
            }
            count += 1;
        }
        let mut s = String::with_capacity(self.body.remaining().len());
        for i in (0..count).rev() {
            if i + 1 < count {
                s.push(',');
            }
            let mut set = if i < INLINE {
                inline[i]
            } else {
                extra[i - INLINE]
            };
            if set.is_empty() {
                // At the SET itself (`31 00`), as `rdns` reports it.
                set.deviate(
                    set.offset().saturating_sub(2),
                    crate::der::ErrorKind::Invalid(
                        "expected at least one attribute in an RDN".into(),
                    ),
                )
                .at_index(i)?;
            }
            let mut first = true;
            while !set.is_empty() {
                if !first {
                    s.push('+');
                }
                first = false;
                let a = read_attribute(&mut set).at_index(i)?;
                a.write_rfc4514(&mut s).at_index(i)?;
            }
        }
        Ok(s)
    }
}

fn read_rdn<'a>(r: &mut Reader<'a>) -> Result<Vec<Attribute<'a>>> {
    let set_offset = r.offset();
    let mut set = r.read_nested(tag::SET)?;
    if set.is_empty() {
        // `RelativeDistinguishedName ::= SET SIZE (1..MAX)`; a lenient reader (a linter)
        // notes it (at the SET itself) and reads the empty RDN as one with nothing in it.
        set.deviate(
            set_offset,
            crate::der::ErrorKind::Invalid("expected at least one attribute in an RDN".into()),
        )?;
        return Ok(Vec::new());
    }
    let mut attrs = Vec::with_capacity(1);
    let mut prev: Option<&[u8]> = None;
    while !set.is_empty() {
        let raw = set.remaining();
        let atv = set.read_sequence()?;
        let this = &raw[..raw.len() - set.remaining().len()];
        // DER: SET OF sorted by encoding (X.690 §11.6).
        if let Some(p) = prev {
            if p > this {
                set.deviate(atv.offset(), crate::der::ErrorKind::UnsortedSet)?;
            }
        }
        prev = Some(this);
        attrs.push(attribute_body(atv)?);
    }
    Ok(attrs)
}

/// One AttributeTypeAndValue at the cursor.
fn read_attribute<'a>(r: &mut Reader<'a>) -> Result<Attribute<'a>> {
    attribute_body(r.read_sequence()?)
}

fn attribute_body(mut atv: Reader<'_>) -> Result<Attribute<'_>> {
    let oid = atv.read_oid().at("type")?;
    let value_raw = atv.remaining();
    let v = atv.read_tlv().at("value")?;
    atv.finish()?;
    Ok(Attribute {
        oid,
        value_tag: v.tag,
        value: v.content,
        value_raw: &value_raw[..v.total_len],
        value_offset: v.content_offset(),
        mode: atv,
    })
}

impl<'a> Attribute<'a> {
    /// Short name (CN, O, …) from the registry, else the dotted OID.
    pub fn type_name(&self) -> String {
        self.oid.name_or_dotted()
    }

    /// The value as text (string types decoded; others as `#hex` of the DER).
    pub fn text(&self) -> Result<String> {
        if string::is_string_tag(self.value_tag) {
            Ok(
                string::decode(&self.mode, self.value_tag, self.value, self.value_offset)?
                    .into_owned(),
            )
        } else {
            Ok(hash_hex(self.value_raw))
        }
    }

    fn write_rfc4514(&self, s: &mut String) -> Result<()> {
        let known = self.oid.name().filter(|_| is_dn_attribute(self.oid));
        match known {
            Some(n) => s.push_str(n),
            None => {
                let _ = write!(s, "{}", self.oid);
            }
        }
        s.push('=');
        if !string::is_string_tag(self.value_tag) || known.is_none() {
            // RFC 4514 §2.4: types without a string form, and unknown types, use #hex.
            s.push_str(&hash_hex(self.value_raw));
            return Ok(());
        }
        let text = string::decode(&self.mode, self.value_tag, self.value, self.value_offset)?;
        escape_into(s, &text);
        Ok(())
    }
}

/// Whether the registry name is a DN attribute short name (so it may appear in RFC 4514).
fn is_dn_attribute(oid: ObjectId<'_>) -> bool {
    let b = oid.as_bytes();
    b.starts_with(&[0x55, 0x04]) // 2.5.4.*
        || oid == oids::AT_DOMAIN_COMPONENT
        || oid == oids::AT_USER_ID
        || oid == oids::AT_EMAIL
        || oid == oids::AT_JURISDICTION_C
        || oid == oids::AT_JURISDICTION_ST
        || oid == oids::AT_JURISDICTION_L
        || oid == oids::AT_TRUST_ANCHOR_ID
}

fn hash_hex(raw: &[u8]) -> String {
    let mut s = String::with_capacity(1 + raw.len() * 2);
    s.push('#');
    for b in raw {
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// `to_rfc4514` for the shape nearly every real Name has, without the general reader:
/// short-form lengths, one attribute per RDN, a DN attribute type the registry names, and
/// a PrintableString, UTF8String or IA5String value with nothing to escape. Half the cost
/// of parse+fields over a root store went to formatting two names through the general
/// path. Anything else returns `None` and takes that path, which then also produces every
/// error; for the Names accepted here both give the same string (a unit test checks this
/// over the system root store).
fn rfc4514_common(body: &[u8], out: &mut String) -> Option<()> {
    // The AttributeTypeAndValue contents of the RDNs, in encoded order.
    let mut atvs = [&body[..0]; 16];
    let mut n = 0;
    let mut rest = body;
    while !rest.is_empty() {
        let (set, after) = short_tlv(rest, tag::SET)?;
        let (atv, left) = short_tlv(set, tag::SEQUENCE)?;
        if !left.is_empty() {
            return None;
        }
        *atvs.get_mut(n)? = atv;
        n += 1;
        rest = after;
    }
    for (k, atv) in atvs[..n].iter().rev().enumerate() {
        let (oid, value) = short_tlv(atv, tag::OID)?;
        let oid = ObjectId::from_content(oid, 0).ok()?;
        let name = oid.name().filter(|_| is_dn_attribute(oid))?;
        let (&value_tag, _) = value.split_first()?;
        let (text, left) = short_tlv(value, value_tag)?;
        // One pass over the value classifies every byte at once.
        let class = text.iter().fold(0, |m, &c| m | BYTE_CLASS[usize::from(c)]);
        let refused = match value_tag {
            tag::PRINTABLE_STRING => NOT_PRINTABLE,
            tag::IA5_STRING => NOT_ASCII,
            tag::UTF8_STRING => 0,
            _ => return None,
        } | SPECIAL;
        if class & refused != 0
            || !left.is_empty()
            || matches!(text.first(), Some(b'#' | b' '))
            || text.last() == Some(&b' ')
        {
            return None;
        }
        let text = std::str::from_utf8(text).ok()?;
        if k > 0 {
            out.push(',');
        }
        out.push_str(name);
        out.push('=');
        out.push_str(text);
    }
    Some(())
}

/// [`BYTE_CLASS`] bits: a character RFC 4514 §2.4 escapes anywhere in a value, one
/// outside PrintableString's set, a byte outside ASCII.
const SPECIAL: u8 = 1;
const NOT_PRINTABLE: u8 = 2;
const NOT_ASCII: u8 = 4;

static BYTE_CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        let special = matches!(
            b,
            b'"' | b'+' | b',' | b';' | b'<' | b'>' | b'\\' | 0..=0x1f | 0x7f
        );
        let printable = string::printable_char(b);
        t[c] = ((special as u8) * SPECIAL)
            | ((!printable as u8) * NOT_PRINTABLE)
            | ((b >= 0x80) as u8 * NOT_ASCII);
        c += 1;
    }
    t
};

/// A TLV with tag `t` and a short-form length at the start of `b`: its content and what
/// follows it.
fn short_tlv(b: &[u8], t: u8) -> Option<(&[u8], &[u8])> {
    match *b {
        [tag, len, ..] if tag == t && len < 0x80 => {
            let end = 2 + usize::from(len);
            Some((b.get(2..end)?, &b[end..]))
        }
        _ => None,
    }
}

/// Whether RFC 4514 §2.4 requires escaping anything in `v`.
fn needs_escaping(v: &str) -> bool {
    let b = v.as_bytes();
    let special = |c: &u8| {
        matches!(
            c,
            b'"' | b'+' | b',' | b';' | b'<' | b'>' | b'\\' | 0..=0x1f | 0x7f
        )
    };
    b.iter().any(special) || matches!(b.first(), Some(b'#' | b' ')) || b.last() == Some(&b' ')
}

/// RFC 4514 §2.4 escaping.
fn escape_into(s: &mut String, v: &str) {
    if !needs_escaping(v) {
        // The common case: nothing to escape, one copy.
        s.push_str(v);
        return;
    }
    let n = v.chars().count();
    for (i, c) in v.chars().enumerate() {
        match c {
            '"' | '+' | ',' | ';' | '<' | '>' | '\\' => {
                s.push('\\');
                s.push(c);
            }
            '#' if i == 0 => s.push_str("\\#"),
            ' ' if i == 0 || i + 1 == n => s.push_str("\\ "),
            '\0' => s.push_str("\\00"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                let _ = write!(s, "\\{:02X}", c as u32);
            }
            c => s.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::der::Writer;

    fn name(attrs: &[&[(crate::der::Oid, &str)]]) -> Vec<u8> {
        let mut w = Writer::new();
        w.sequence(|w| {
            for rdn in attrs {
                w.set(|w| {
                    for (oid, v) in *rdn {
                        w.sequence(|w| {
                            w.oid(oid);
                            w.utf8_string(v);
                        });
                    }
                });
            }
        });
        w.finish()
    }

    /// The common-shape path and the general one agree on every Name the first accepts,
    /// and the first declines the rest.
    #[test]
    fn common_path_matches_the_general_one() {
        let mut names = vec![
            name(&[
                &[(oids::AT_COUNTRY, "US")],
                &[(oids::AT_COMMON_NAME, "a.example")],
            ]),
            name(&[&[(oids::AT_COMMON_NAME, "Example, Inc.")]]),
            name(&[&[(oids::AT_COMMON_NAME, "x"), (oids::AT_ORGANIZATION, "y")]]),
            name(&[&[(oids::AT_COMMON_NAME, &"z".repeat(200))]]),
            name(&[&[(crate::der::Oid::new("1.2.3.4"), "unknown type")]]),
            name(&[]),
        ];
        // A non-string value (an INTEGER) and a PrintableString with '@'.
        let mut w = Writer::new();
        w.sequence(|w| {
            w.set(|w| {
                w.sequence(|w| {
                    w.oid(&oids::AT_COMMON_NAME);
                    w.integer_u64(7);
                });
            });
            w.set(|w| {
                w.sequence(|w| {
                    w.oid(&oids::AT_COMMON_NAME);
                    w.primitive(tag::PRINTABLE_STRING, b"a@b");
                });
            });
        });
        names.push(w.finish());
        let store = std::fs::read("/etc/ssl/certs/ca-certificates.crt").unwrap_or_default();
        for b in crate::der::pem::blocks(&store).into_iter().flatten() {
            let c = crate::cert::Certificate::from_der(&b.der).unwrap();
            names.push(c.issuer.raw.to_vec());
            names.push(c.subject.raw.to_vec());
        }
        let mut common = 0;
        for der in &names {
            let n = Name::from_der(der, 0).unwrap();
            let general = n.rfc4514_general();
            let mut s = String::new();
            if rfc4514_common(n.body.remaining(), &mut s).is_some() {
                common += 1;
                assert_eq!(Ok(&s), general.as_ref(), "{der:02x?}");
            }
            assert_eq!(n.to_rfc4514().ok(), general.ok());
        }
        // The first Name, the empty one and nearly all of a root store take the common
        // path; escapes, a multi-valued RDN, a long-form length, an unknown type, an
        // INTEGER value and '@' in a PrintableString do not.
        assert!(
            common >= 3 && common < names.len(),
            "{common} of {}",
            names.len()
        );
    }

    #[test]
    fn rfc4514_order_and_escaping() {
        let der = name(&[
            &[(oids::AT_COUNTRY, "US")],
            &[(oids::AT_ORGANIZATION, "Example, Inc.")],
            &[(oids::AT_COMMON_NAME, " #lead+trail ")],
        ]);
        let n = Name::from_der(&der, 0).unwrap();
        assert_eq!(
            n.to_rfc4514().unwrap(),
            "CN=\\ #lead\\+trail\\ ,O=Example\\, Inc.,C=US"
        );
        assert_eq!(
            n.first(&oids::AT_COMMON_NAME).unwrap().unwrap(),
            " #lead+trail "
        );
    }

    #[test]
    fn names_longer_than_the_inline_spans() {
        let values: Vec<String> = (0..40).map(|i| format!("n{i}")).collect();
        let rdns: Vec<[(crate::der::Oid, &str); 1]> = values
            .iter()
            .map(|v| [(oids::AT_ORG_UNIT, v.as_str())])
            .collect();
        let refs: Vec<&[(crate::der::Oid, &str)]> = rdns.iter().map(|r| &r[..]).collect();
        let der = name(&refs);
        let want: Vec<String> = values.iter().rev().map(|v| format!("OU={v}")).collect();
        let got = Name::from_der(&der, 0).unwrap().to_rfc4514().unwrap();
        assert_eq!(got, want.join(","));
    }

    #[test]
    fn multi_valued_and_unknown() {
        let der = name(&[&[(oids::AT_COMMON_NAME, "a"), (oids::AT_ORG_UNIT, "b")]]);
        let n = Name::from_der(&der, 0).unwrap();
        assert_eq!(n.to_rfc4514().unwrap(), "CN=a+OU=b");
        let der = name(&[&[(crate::der::Oid::new("1.2.3.4"), "x")]]);
        assert_eq!(
            Name::from_der(&der, 0).unwrap().to_rfc4514().unwrap(),
            "1.2.3.4=#0c0178"
        );
    }

    #[test]
    fn empty_and_malformed() {
        assert_eq!(
            Name::from_der(&[0x30, 0], 0).unwrap().to_rfc4514().unwrap(),
            ""
        );
        // An empty RDN, reported at its SET.
        let bad = [0x30, 0x02, 0x31, 0x00];
        let err = Name::from_der(&bad, 10).unwrap().to_rfc4514().unwrap_err();
        assert_eq!(err.offset, 12);
    }
}
