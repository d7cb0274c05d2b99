//! Trust anchor IDs (draft-ietf-plants-merkle-tree-certs-07 §5.1, §5.2): RELATIVE-OIDs
//! under 1.3.6.1.4.1, written in binary as the RELATIVE-OID content octets, in names as
//! `oid/1.3.6.1.4.1.<dotted>`, and in X.509 as a one-attribute Name of type
//! `id-rdna-trustAnchorID` (1.3.6.1.5.5.7.25.3).
//!
//! > log N = {caID 0 N}; landmark L of log N = {caID 1 N L}

use super::error::{MtcError, Result};
use crate::der::oid_registry as oids;
use crate::der::push_base128;
use crate::der::{tag, Writer};

/// "opaque TrustAnchorID<1..2^8-1>", kept with its dotted form.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TrustAnchorId {
    dotted: String,
    binary: Vec<u8>,
}

/// The prefix every trust anchor ID lives under, in note names.
pub const NOTE_PREFIX: &str = "oid/1.3.6.1.4.1.";

impl TrustAnchorId {
    /// Parse `32473.1` (at least one arc, decimal, at most 32 bytes in binary).
    pub fn parse(dotted: &str) -> Result<TrustAnchorId> {
        let mut binary = Vec::new();
        for arc in dotted.split('.') {
            if arc.is_empty()
                || !arc.bytes().all(|b| b.is_ascii_digit())
                || (arc.len() > 1 && arc.starts_with('0'))
            {
                return Err(MtcError::Invalid(format!(
                    "trust anchor ID {dotted:?}: expected dotted decimal arcs like 32473.1"
                )));
            }
            let v: u64 = arc.parse().map_err(|_| {
                MtcError::Invalid(format!("trust anchor ID {dotted:?}: arc {arc} too large"))
            })?;
            push_base128(&mut binary, v);
        }
        if binary.len() > 32 {
            return Err(MtcError::Invalid(format!(
                "trust anchor ID {dotted:?} is longer than 32 bytes"
            )));
        }
        Ok(TrustAnchorId {
            dotted: dotted.to_string(),
            binary,
        })
    }

    /// Decode the binary form (RELATIVE-OID content octets).
    pub fn from_binary(binary: &[u8], offset: usize) -> Result<TrustAnchorId> {
        if binary.is_empty() || binary.len() > 32 || binary[binary.len() - 1] & 0x80 != 0 {
            return Err(MtcError::malformed(
                offset,
                "a trust anchor ID (1 to 32 bytes of RELATIVE-OID arcs)",
            ));
        }
        let mut arcs = Vec::new();
        let mut v: u64 = 0;
        let mut first = true;
        for (i, &b) in binary.iter().enumerate() {
            if first && b == 0x80 {
                return Err(MtcError::malformed(offset + i, "a minimal base-128 arc"));
            }
            if v >> 57 != 0 {
                return Err(MtcError::malformed(offset + i, "an arc below 2^64"));
            }
            v = (v << 7) | u64::from(b & 0x7f);
            first = b & 0x80 == 0;
            if first {
                arcs.push(v.to_string());
                v = 0;
            }
        }
        Ok(TrustAnchorId {
            dotted: arcs.join("."),
            binary: binary.to_vec(),
        })
    }

    /// The ID in dotted decimal (`32473.1`).
    pub fn dotted(&self) -> &str {
        &self.dotted
    }

    /// The ID's binary form: the OID content octets of its arcs.
    pub fn binary(&self) -> &[u8] {
        &self.binary
    }

    /// `oid/1.3.6.1.4.1.<dotted>`: the cosigner name or log origin in notes and
    /// CosignedSubtree.
    pub fn note_name(&self) -> String {
        format!("{NOTE_PREFIX}{}", self.dotted)
    }

    /// `{caID 0 N}`: the ID of log `n` of this CA.
    pub fn log_id(&self, n: u16) -> TrustAnchorId {
        self.child(&[0, u64::from(n)])
    }

    /// `{caID 1 N L}`: the ID of landmark `l` of log `n`.
    pub fn landmark_id(&self, n: u16, l: u64) -> TrustAnchorId {
        self.child(&[1, u64::from(n), l])
    }

    fn child(&self, arcs: &[u64]) -> TrustAnchorId {
        let mut binary = self.binary.clone();
        let mut dotted = self.dotted.clone();
        for &a in arcs {
            push_base128(&mut binary, a);
            dotted.push('.');
            dotted.push_str(&a.to_string());
        }
        TrustAnchorId { dotted, binary }
    }

    /// The X.509 Name: one RDN holding one `id-rdna-trustAnchorID` attribute whose value
    /// is the RELATIVE-OID.
    pub fn to_name_der(&self) -> Vec<u8> {
        let mut w = Writer::with_capacity(48);
        w.sequence(|w| {
            w.set(|w| {
                w.sequence(|w| {
                    w.oid(&oids::AT_TRUST_ANCHOR_ID);
                    w.primitive(tag::RELATIVE_OID, &self.binary);
                });
            });
        });
        w.finish()
    }

    /// The trust anchor ID in an X.509 Name made by [`Self::to_name_der`], if it is one.
    pub fn from_name_der(name: &[u8]) -> Option<TrustAnchorId> {
        let mut r = crate::der::Reader::new(name);
        let mut seq = r.read_sequence().ok()?;
        let mut set = seq.read_nested(tag::SET).ok()?;
        let mut atv = set.read_sequence().ok()?;
        let oid = atv.read_oid().ok()?;
        if oid.as_bytes() != oids::AT_TRUST_ANCHOR_ID.as_bytes() {
            return None;
        }
        let tlv = atv.read_tlv().ok()?;
        if tlv.tag != tag::RELATIVE_OID || !(atv.is_empty() && set.is_empty() && seq.is_empty()) {
            return None;
        }
        TrustAnchorId::from_binary(tlv.content, tlv.content_offset()).ok()
    }
}

impl std::fmt::Display for TrustAnchorId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.dotted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binary_and_name_forms() {
        let id = TrustAnchorId::parse("32473.1").unwrap();
        assert_eq!(id.binary(), [0x81, 0xfd, 0x59, 0x01]);
        assert_eq!(
            crate::der::hex(&id.to_name_der()),
            "30143112301006082b0601050507190 30d0481fd5901".replace(' ', "")
        );
        assert_eq!(id.note_name(), "oid/1.3.6.1.4.1.32473.1");
        assert_eq!(id.log_id(1).note_name(), "oid/1.3.6.1.4.1.32473.1.0.1");
        assert_eq!(TrustAnchorId::from_binary(id.binary(), 0).unwrap(), id);
        assert_eq!(TrustAnchorId::from_name_der(&id.to_name_der()).unwrap(), id);
        assert!(TrustAnchorId::parse("1..2").is_err());
        assert!(TrustAnchorId::from_binary(&[0x81], 0).is_err());
    }
}
