//! Fields OCSP requests and responses share: `certs`, explicit extension lists, the
//! version.

use crate::cert::Certificate;
use crate::der::{tag, Context, ErrorKind, Reader, Result};
use crate::extension::Extensions;

/// `certs [0] EXPLICIT SEQUENCE OF Certificate OPTIONAL`: a reader over the SEQUENCE
/// content.
pub(crate) fn read_certs_field<'a>(s: &mut Reader<'a>) -> Result<Option<Reader<'a>>> {
    match s.read_optional(tag::explicit(0))? {
        Some(tlv) => {
            let mut w = s.with_base(tlv.content, tlv.content_offset());
            let seq = w.read_sequence().at("certs")?;
            w.finish().at("certs")?;
            Ok(Some(seq))
        }
        None => Ok(None),
    }
}

pub(crate) fn read_certs<'a>(certs: Option<Reader<'a>>) -> Result<Vec<Certificate<'a>>> {
    let Some(mut r) = certs else {
        return Ok(Vec::new());
    };
    let mut out = Vec::with_capacity(2);
    while !r.is_empty() {
        let i = out.len();
        let start = r.remaining();
        let offset = r.offset();
        let tlv = r.read_tlv().at_index(i).at("certs")?;
        let one = r.with_base(&start[..tlv.total_len], offset);
        out.push(Certificate::parse(one).at_index(i).at("certs")?);
    }
    Ok(out)
}

/// `[n] EXPLICIT Extensions OPTIONAL`.
pub(crate) fn read_explicit_extensions<'a>(
    r: &mut Reader<'a>,
    n: u8,
) -> Result<Option<Extensions<'a>>> {
    match r.read_optional(tag::explicit(n))? {
        Some(tlv) => {
            let mut e = r.with_base(tlv.content, tlv.content_offset());
            let exts = Extensions::read(&mut e)?;
            e.finish()?;
            Ok(Some(exts))
        }
        None => Ok(None),
    }
}

/// `[0] EXPLICIT Version DEFAULT v1` with `Version ::= INTEGER { v1(0) }`: DER omits
/// v1, and no other version exists.
pub(crate) fn read_version(r: &mut Reader<'_>) -> Result<u64> {
    let Some(tlv) = r.read_optional(tag::explicit(0))? else {
        return Ok(0);
    };
    let mut v = r.with_base(tlv.content, tlv.content_offset());
    let n = v.read_u64()?;
    v.finish()?;
    if n == 0 {
        r.deviate(tlv.offset, ErrorKind::DefaultEncoded("version v1"))?;
    } else {
        r.deviate(
            tlv.content_offset(),
            ErrorKind::UnknownVersion {
                found: u32::try_from(n).unwrap_or(u32::MAX - 1),
                highest: 0,
            },
        )?;
    }
    Ok(n)
}
