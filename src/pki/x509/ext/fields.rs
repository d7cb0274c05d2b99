//! Field readers the extension readers share: named-bit lists, `SEQUENCE SIZE (1..MAX)
//! OF`, `DEFAULT FALSE` flags and small tagged integers, each with the DER rule it
//! enforces (or reports as a deviation in lenient mode).

use crate::der::primitives::BitString;
use crate::der::{ErrorKind, Reader, Result};
use std::borrow::Cow;

/// A named-bit BIT STRING (KeyUsage, ReasonFlags, netscapeCertType) together with the
/// names its type gives the bit positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NamedBits<'a> {
    /// The BIT STRING as read.
    pub bits: BitString<'a>,
    /// The names of the bit positions, from bit 0, as the extension's ASN.1 gives them.
    pub names: &'static [&'static str],
}

impl<'a> NamedBits<'a> {
    /// Positions of the bits that are set, lowest first.
    pub fn set_bits(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.bits.bit_len()).filter(|&n| self.bits.bit(n))
    }

    /// Whether bit `n` is set.
    pub fn contains(&self, n: usize) -> bool {
        self.bits.bit(n)
    }

    /// The names of the bits that are set; positions the type does not name come out as
    /// `bitN` so nothing set is hidden.
    pub fn set_names(&self) -> Vec<Cow<'static, str>> {
        self.set_bits()
            .map(|n| match self.names.get(n) {
                Some(name) => Cow::Borrowed(*name),
                None => Cow::Owned(format!("bit{n}")),
            })
            .collect()
    }
}

/// Read a named-bit BIT STRING under tag `t`. DER removes trailing zero bits from a
/// named-bit list (X.690 §11.2.2), so a last data bit of zero is a deviation.
pub(crate) fn read_named_bits<'a>(
    r: &mut Reader<'a>,
    t: u8,
    names: &'static [&'static str],
) -> Result<NamedBits<'a>> {
    let tlv = r.read_expect(t)?;
    let bits = BitString::parse(r, tlv.content, tlv.content_offset())?;
    if let Some(&last) = bits.bytes.last() {
        if last & (1u8 << bits.unused_bits) == 0 {
            r.deviate(
                tlv.content_offset() + tlv.content.len() - 1,
                ErrorKind::InvalidBitString("trailing zero bits in a named-bit list"),
            )?;
        }
    }
    Ok(NamedBits { bits, names })
}

/// `SEQUENCE SIZE (1..MAX) OF T` under tag `t`: each element read by `item`, errors
/// carrying the element's index in their path. An empty list breaks the size constraint
/// (`what` names the element type in the message).
pub(crate) fn read_seq_of<'a, T>(
    r: &mut Reader<'a>,
    t: u8,
    what: &str,
    mut item: impl FnMut(&mut Reader<'a>) -> Result<T>,
) -> Result<Vec<T>> {
    let mut s = r.read_nested(t)?;
    if s.is_empty() {
        s.deviate(
            s.offset(),
            ErrorKind::Invalid(format!("expected at least one {what}, found none")),
        )?;
    }
    let mut out = Vec::new();
    while !s.is_empty() {
        let i = out.len();
        // The path segment is only formatted on the error path.
        out.push(item(&mut s).map_err(|e| e.at(&format!("[{i}]")))?);
    }
    Ok(out)
}

/// `[n] IMPLICIT BOOLEAN DEFAULT FALSE`: absent is false, and DER forbids encoding the
/// default, so an encoded FALSE is a deviation.
pub(crate) fn read_flag(r: &mut Reader<'_>, t: u8) -> Result<bool> {
    let Some(tlv) = r.read_optional(t)? else {
        return Ok(false);
    };
    match tlv.content {
        [0xff] => Ok(true),
        [0x00] => {
            r.deviate(tlv.offset, ErrorKind::DefaultEncoded("FALSE"))?;
            Ok(false)
        }
        [_] => {
            r.deviate(tlv.content_offset(), ErrorKind::InvalidBoolean)?;
            Ok(true)
        }
        _ => Err(crate::der::Error::new(
            tlv.content_offset(),
            ErrorKind::InvalidBoolean,
        )),
    }
}

/// `[n] IMPLICIT INTEGER (0..MAX)` as u64, if present.
pub(crate) fn read_tagged_u64(r: &mut Reader<'_>, t: u8) -> Result<Option<u64>> {
    let Some(tlv) = r.read_optional(t)? else {
        return Ok(None);
    };
    crate::der::integer::check(r, tlv.content, tlv.content_offset())?;
    crate::der::integer::to_u64(tlv.content, tlv.content_offset()).map(Some)
}
