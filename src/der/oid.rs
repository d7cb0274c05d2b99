//! OBJECT IDENTIFIER (X.690 §8.19): a borrowed view over content octets, a compile-time
//! encoder for the OIDs pkit names in code, and dotted-form conversion.

use super::error::{Error, ErrorKind, Result};
use super::reader::Reader;
use super::tag;
use std::fmt;

/// OID content octets borrowed from the input. Comparing two OIDs is a byte compare.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjectId<'a>(&'a [u8]);

/// Longest OID content pkit encodes at compile time.
const MAX_CONST_OID: usize = 40;

/// An OID known at compile time: `const ID_CE_SAN: Oid = Oid::new("2.5.29.17");`.
#[derive(Clone, Copy)]
pub struct Oid {
    bytes: [u8; MAX_CONST_OID],
    len: u8,
}

impl Oid {
    /// Encode a dotted OID at compile time; malformed input fails the build.
    pub const fn new(dotted: &str) -> Oid {
        let s = dotted.as_bytes();
        let mut arcs = [0u64; 20];
        let mut n = 0;
        let mut i = 0;
        let mut cur: u64 = 0;
        let mut digits = 0;
        while i <= s.len() {
            if i == s.len() || s[i] == b'.' {
                assert!(digits > 0, "empty arc in OID");
                arcs[n] = cur;
                n += 1;
                cur = 0;
                digits = 0;
            } else {
                assert!(s[i].is_ascii_digit(), "non-digit in OID");
                cur = cur * 10 + (s[i] - b'0') as u64;
                digits += 1;
            }
            i += 1;
        }
        assert!(n >= 2, "OID needs two arcs");
        let mut out = Oid {
            bytes: [0; MAX_CONST_OID],
            len: 0,
        };
        out = out.push_arc(arcs[0] * 40 + arcs[1]);
        let mut k = 2;
        while k < n {
            out = out.push_arc(arcs[k]);
            k += 1;
        }
        out
    }

    const fn push_arc(mut self, v: u64) -> Oid {
        let mut groups = 1;
        let mut t = v >> 7;
        while t > 0 {
            groups += 1;
            t >>= 7;
        }
        let mut g = groups;
        while g > 0 {
            g -= 1;
            let mut b = ((v >> (7 * g)) & 0x7f) as u8;
            if g > 0 {
                b |= 0x80;
            }
            self.bytes[self.len as usize] = b;
            self.len += 1;
        }
        self
    }

    /// The content octets.
    #[inline]
    pub const fn as_bytes(&self) -> &[u8] {
        self.bytes.split_at(self.len as usize).0
    }

    /// The same OID as a borrowed [`ObjectId`], the form readers return.
    #[inline]
    pub fn id(&self) -> ObjectId<'_> {
        ObjectId(self.as_bytes())
    }
}

impl PartialEq<Oid> for ObjectId<'_> {
    #[inline]
    fn eq(&self, other: &Oid) -> bool {
        self.0 == other.as_bytes()
    }
}

impl fmt::Debug for Oid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.id())
    }
}

impl<'a> ObjectId<'a> {
    /// Validate content octets: non-empty, each arc minimal (no leading 0x80), last octet
    /// ends an arc, arcs fit u64.
    pub fn from_content(content: &'a [u8], offset: usize) -> Result<Self> {
        if content.is_empty() || content[content.len() - 1] & 0x80 != 0 {
            return Err(Error::new(offset, ErrorKind::InvalidOid));
        }
        let mut start = true;
        let mut groups = 0;
        let mut lead = 0u8;
        for (i, &b) in content.iter().enumerate() {
            if start {
                if b == 0x80 {
                    return Err(Error::new(offset + i, ErrorKind::InvalidOid));
                }
                lead = b;
            }
            groups += 1;
            // 64 bits are ten groups of seven, the first holding one bit: an arc of ten
            // groups must lead with 0x81 to fit u64.
            if groups > 10 || (groups == 10 && lead != 0x81) {
                return Err(Error::new(offset + i, ErrorKind::InvalidOid));
            }
            start = b & 0x80 == 0;
            if start {
                groups = 0;
            }
        }
        Ok(ObjectId(content))
    }

    /// Wrap bytes already known to be valid (e.g. from the registry).
    pub const fn from_valid(content: &'a [u8]) -> Self {
        ObjectId(content)
    }

    /// The content octets (no tag or length), borrowed from the input.
    #[inline]
    pub fn as_bytes(&self) -> &'a [u8] {
        self.0
    }

    /// The arcs, first two split per X.690 §8.19.4.
    pub fn arcs(&self) -> impl Iterator<Item = u64> + '_ {
        let mut first = true;
        let mut pending: Option<u64> = None;
        let mut iter = self.0.iter();
        std::iter::from_fn(move || {
            if let Some(p) = pending.take() {
                return Some(p);
            }
            let mut v: u64 = 0;
            loop {
                let b = *iter.next()?;
                v = (v << 7) | u64::from(b & 0x7f);
                if b & 0x80 == 0 {
                    break;
                }
            }
            if first {
                first = false;
                let (a, b) = match v {
                    0..=39 => (0, v),
                    40..=79 => (1, v - 40),
                    _ => (2, v - 80),
                };
                pending = Some(b);
                Some(a)
            } else {
                Some(v)
            }
        })
    }
}

/// Encode a dotted OID string at run time (for user input such as `--ext 1.2.3=…`).
pub fn encode_dotted(dotted: &str) -> Option<Vec<u8>> {
    let arcs: Vec<u64> = dotted
        .split('.')
        .map(|a| a.parse().ok())
        .collect::<Option<_>>()?;
    if arcs.len() < 2 || arcs[0] > 2 || (arcs[0] < 2 && arcs[1] > 39) {
        return None;
    }
    let mut out = Vec::new();
    let first = arcs[0].checked_mul(40)?.checked_add(arcs[1])?;
    for v in std::iter::once(first).chain(arcs[2..].iter().copied()) {
        push_base128(&mut out, v);
    }
    Some(out)
}

/// Append one arc in base 128 (also the RELATIVE-OID arc encoding).
pub fn push_base128(out: &mut Vec<u8>, v: u64) {
    let mut groups = 1;
    while groups < 10 && v >> (7 * groups) != 0 {
        groups += 1;
    }
    for g in (0..groups).rev() {
        let mut b = ((v >> (7 * g)) & 0x7f) as u8;
        if g > 0 {
            b |= 0x80;
        }
        out.push(b);
    }
}

impl fmt::Display for ObjectId<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, arc) in self.arcs().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            write!(f, "{arc}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for ObjectId<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ObjectId({self})")
    }
}

impl<'a> Reader<'a> {
    /// Read an OBJECT IDENTIFIER (X.690 §8.19), its content validated.
    #[inline]
    pub fn read_oid(&mut self) -> Result<ObjectId<'a>> {
        let tlv = self.read_expect(tag::OID)?;
        ObjectId::from_content(tlv.content, tlv.content_offset())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn const_encoding_matches_known_bytes() {
        assert_eq!(
            Oid::new("1.2.840.10045.4.3.2").as_bytes(),
            &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02]
        );
        assert_eq!(Oid::new("2.5.29.17").as_bytes(), &[0x55, 0x1d, 0x11]);
        assert_eq!(
            Oid::new("2.16.840.1.101.3.4.3.18").as_bytes(),
            &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x12]
        );
        assert_eq!(Oid::new("1.3.101.112").as_bytes(), &[0x2b, 0x65, 0x70]);
        assert_eq!(Oid::new("2.999.3").as_bytes(), &[0x88, 0x37, 0x03]);
    }

    #[test]
    fn dotted_round_trip() {
        for s in [
            "1.2.840.113549.1.1.11",
            "2.5.4.3",
            "1.3.6.1.5.5.7.1.38",
            "2.999.3",
            "0.9.2342.19200300.100.1.25",
        ] {
            let bytes = encode_dotted(s).unwrap();
            assert_eq!(ObjectId::from_content(&bytes, 0).unwrap().to_string(), s);
        }
        assert!(encode_dotted("1").is_none());
        assert!(encode_dotted("1.40").is_none());
        assert!(encode_dotted("3.1").is_none());
    }

    #[test]
    fn rejects_malformed() {
        assert!(ObjectId::from_content(&[], 0).is_err());
        assert!(ObjectId::from_content(&[0x2a, 0x86], 0).is_err());
        assert!(ObjectId::from_content(&[0x2a, 0x80, 0x01], 0).is_err());
        assert!(ObjectId::from_content(&[0x80, 0x01], 0).is_err());
    }

    #[test]
    fn names_from_registry() {
        let sig = Oid::new("1.2.840.10045.4.3.2");
        assert_eq!(sig.id().name(), Some("ecdsa-with-SHA256"));
        assert_eq!(
            Oid::new("2.16.840.1.101.3.4.3.18").id().name(),
            Some("ML-DSA-65")
        );
    }
}
