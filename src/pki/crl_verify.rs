//! Checking a CRL against the CA that should have issued it (RFC 5280 §6.3.3): issuer
//! name, authority key identifier, signature, and the thisUpdate..nextUpdate window. Each
//! check is reported by name, as OCSP verification reports its own.

#![forbid(unsafe_code)]

use crate::der::hex;
use crate::der::oid_registry as oids;
use crate::der::{Reader, Time};
use crate::pki::cert::Certificate;
use crate::pki::crl::{Crl, RevokedCert};
use crate::pki::ext::key_id::AuthorityKeyIdentifier;

use crate::pki::backend::Backend;
use crate::pki::ocsp_verify::{Check, VerifyError, SKEW_SECONDS};
use crate::pki::signed::verify_signed;
use std::cmp::Ordering;

/// Every check made on `crl` as issued by `issuer` at `now`; valid when all pass.
pub fn verify(
    backend: &dyn Backend,
    crl: &Crl<'_>,
    issuer: &Certificate<'_>,
    now: Time,
) -> Result<Vec<Check>, VerifyError> {
    let mut checks = Vec::new();
    let mut add = |name, ok, detail: String| checks.push(Check { name, ok, detail });
    let issuer_dn = issuer.subject.to_rfc4514().unwrap_or_default();
    let crl_dn = crl.issuer.to_rfc4514().unwrap_or_default();
    add(
        "issuer_name",
        crl.issuer.raw == issuer.subject.raw,
        if crl.issuer.raw == issuer.subject.raw {
            issuer_dn.clone()
        } else {
            format!("the CRL names {crl_dn}, the CA is {issuer_dn}")
        },
    );
    let aki = match &crl.extensions {
        Some(x) => match x.find(&oids::CE_AUTHORITY_KEY_ID)? {
            Some(e) => AuthorityKeyIdentifier::read(&mut Reader::new(e.value))?.key_identifier,
            None => None,
        },
        None => None,
    };
    if let (Some(aki), Some(ski)) = (aki, issuer.subject_key_id()) {
        add(
            "authority_key_id",
            aki == ski.as_slice(),
            if aki == ski.as_slice() {
                hex(aki)
            } else {
                format!("{} is not the CA's key identifier {}", hex(aki), hex(&ski))
            },
        );
    }
    crl.check_signature_algorithms_match()?;
    let ok = verify_signed(
        backend,
        issuer.spki.raw,
        &crl.signature_algorithm,
        crl.tbs_raw,
        crl.signature.bytes,
    )
    .map_err(VerifyError::Signed)?;
    add(
        "signature",
        ok,
        if ok {
            format!("{} by the CA", crl.signature_algorithm.name())
        } else {
            "does not verify with the CA's public key".into()
        },
    );
    let early = crl.this_update > now.plus_seconds(SKEW_SECONDS);
    add(
        "this_update",
        !early,
        if early {
            format!("{} is in the future", crl.this_update)
        } else {
            crl.this_update.to_string()
        },
    );
    match crl.next_update {
        Some(t) => add(
            "next_update",
            t >= now,
            if t >= now {
                t.to_string()
            } else {
                format!("{t} has passed: the CRL is stale")
            },
        ),
        None => add(
            "next_update",
            false,
            "absent (RFC 5280 §5.1.2.5 requires it)".into(),
        ),
    }
    Ok(checks)
}

/// Positive INTEGER content octets in numeric order (shorter is smaller once the sign
/// octet is stripped).
fn serial_cmp(a: &[u8], b: &[u8]) -> Ordering {
    let (a, b) = (
        crate::der::integer::unsigned_bytes(a),
        crate::der::integer::unsigned_bytes(b),
    );
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

/// A CRL's entries sorted by serial, for lookups by binary search: one pass over the
/// entries builds it (CRLs pkit writes are already sorted, so nothing moves), then each
/// serial costs O(log n) — checking a list of serials against a million-entry CRL does
/// not rescan it per serial.
pub struct RevokedIndex<'a> {
    entries: Vec<RevokedCert<'a>>,
}

impl<'a> RevokedIndex<'a> {
    pub fn build(crl: &Crl<'a>) -> crate::der::Result<Self> {
        let entries = crl.revoked().collect::<crate::der::Result<Vec<_>>>()?;
        Ok(Self::from_entries(entries))
    }

    /// An index over entries a caller has already chosen (an indirect CRL's entries for
    /// one certificate issuer, say).
    pub fn from_entries(mut entries: Vec<RevokedCert<'a>>) -> Self {
        if !entries.is_sorted_by(|a, b| serial_cmp(a.serial, b.serial).is_le()) {
            entries.sort_unstable_by(|a, b| serial_cmp(a.serial, b.serial));
        }
        RevokedIndex { entries }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entry for `serial` (its magnitude or its INTEGER content octets).
    pub fn find(&self, serial: &[u8]) -> Option<&RevokedCert<'a>> {
        self.entries
            .binary_search_by(|e| serial_cmp(e.serial, serial))
            .ok()
            .map(|i| &self.entries[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serial_order_is_numeric() {
        assert_eq!(serial_cmp(&[0x00, 0x80], &[0x7f]), Ordering::Greater);
        assert_eq!(serial_cmp(&[0x01, 0x00], &[0xff]), Ordering::Greater);
        assert_eq!(serial_cmp(&[0x00, 0x80], &[0x80]), Ordering::Equal);
        assert_eq!(serial_cmp(&[0x02], &[0x03]), Ordering::Less);
    }
}
