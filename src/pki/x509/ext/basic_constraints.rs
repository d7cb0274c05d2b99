//! basicConstraints (RFC 5280 §4.2.1.9): whether the subject is a CA, and how many
//! intermediate CAs may follow it.

use crate::der::{tag, Context, Reader, Result};

/// ```asn1
/// BasicConstraints ::= SEQUENCE {
///      cA                      BOOLEAN DEFAULT FALSE,
///      pathLenConstraint       INTEGER (0..MAX) OPTIONAL }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BasicConstraints {
    /// cA: whether the subject is a CA (RFC 5280 §4.2.1.9).
    pub ca: bool,
    /// pathLenConstraint: how many non-self-issued intermediates may follow this CA, if
    /// limited.
    pub path_len_constraint: Option<u64>,
}

impl BasicConstraints {
    /// Read a BasicConstraints SEQUENCE; DER forbids encoding `cA` FALSE, its default.
    pub fn read(r: &mut Reader<'_>) -> Result<Self> {
        let mut s = r.read_sequence()?;
        let ca = s.read_default_false().at("cA")?;
        let path_len_constraint = if s.peek_tag() == Some(tag::INTEGER) {
            // read_u64 rejects negative values, which (0..MAX) excludes.
            Some(s.read_u64().at("pathLenConstraint")?)
        } else {
            None
        };
        s.finish()?;
        Ok(BasicConstraints {
            ca,
            path_len_constraint,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bc(der: &[u8]) -> Result<BasicConstraints> {
        let mut r = Reader::new(der);
        let v = BasicConstraints::read(&mut r)?;
        r.finish()?;
        Ok(v)
    }

    #[test]
    fn forms() {
        // End entity: empty SEQUENCE.
        assert_eq!(bc(&[0x30, 0x00]).unwrap(), BasicConstraints::default());
        // CA:TRUE.
        assert!(bc(&[0x30, 0x03, 0x01, 0x01, 0xff]).unwrap().ca);
        // CA:TRUE, pathlen:0 (the usual issuing-CA form).
        let v = bc(&[0x30, 0x06, 0x01, 0x01, 0xff, 0x02, 0x01, 0x00]).unwrap();
        assert_eq!(v.path_len_constraint, Some(0));
    }

    #[test]
    fn errors() {
        // cA FALSE encoded: DER forbids the default.
        let err = bc(&[0x30, 0x03, 0x01, 0x01, 0x00]).unwrap_err();
        assert_eq!(err.path_string(), "cA");
        // Negative pathLenConstraint.
        let err = bc(&[0x30, 0x06, 0x01, 0x01, 0xff, 0x02, 0x01, 0xff]).unwrap_err();
        assert_eq!(err.offset, 5);
        // Trailing element.
        let err = bc(&[0x30, 0x05, 0x01, 0x01, 0xff, 0x05, 0x00]).unwrap_err();
        assert_eq!(err.offset, 5);
        // Truncated.
        assert!(bc(&[0x30, 0x03, 0x01, 0x01]).is_err());
    }
}
