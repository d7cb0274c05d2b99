//! `CertID` (RFC 6960 §4.1.1): how requests and responses name a certificate.

use crate::algid::AlgId;
use crate::der::hex;
use crate::der::{integer, Context, Reader, Result};

/// A borrowed `CertID` (RFC 6960 §4.1.1).
#[derive(Debug, Clone, Copy)]
pub struct CertId<'a> {
    /// hashAlgorithm: the digest both hashes are made with.
    pub hash_algorithm: AlgId<'a>,
    /// issuerNameHash: the hash of the issuer's Name DER.
    pub issuer_name_hash: &'a [u8],
    /// issuerKeyHash: the hash of the issuer's subjectPublicKey BIT STRING content.
    pub issuer_key_hash: &'a [u8],
    /// serialNumber INTEGER content octets (sign included).
    pub serial: &'a [u8],
    /// Absolute byte offset of the serialNumber INTEGER.
    pub serial_offset: usize,
    /// The whole CertID TLV (responders match requests to responses on it).
    pub raw: &'a [u8],
}

impl<'a> CertId<'a> {
    /// Read a CertID at the cursor.
    pub fn read(r: &mut Reader<'a>) -> Result<Self> {
        let start = r.remaining();
        let mut s = r.read_sequence()?;
        let raw = &start[..start.len() - r.remaining().len()];
        let hash_algorithm = AlgId::read(&mut s).at("hashAlgorithm")?;
        let issuer_name_hash = s.read_octet_string().at("issuerNameHash")?;
        let issuer_key_hash = s.read_octet_string().at("issuerKeyHash")?;
        let serial_offset = s.offset();
        let serial = s.read_integer().at("serialNumber")?;
        s.finish()?;
        Ok(CertId {
            hash_algorithm,
            issuer_name_hash,
            issuer_key_hash,
            serial,
            serial_offset,
            raw,
        })
    }

    /// The serial as lowercase hex of its magnitude.
    pub fn serial_hex(&self) -> String {
        hex(integer::unsigned_bytes(self.serial))
    }
}
