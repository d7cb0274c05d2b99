//! The one rule set a CRL is held to (RFC 5280 §5, §6.3.3), whoever asks: `pkit crl
//! verify` reports it check by check ([`verify`]), and `pkit verify --crl` applies the
//! same rules before a CRL may say anything about a certificate
//! (`pki::verify::revocation` calls the functions below). The rules:
//!
//! - the CRL's issuer name is the CA's subject (compared as RFC 5280 §7.1 compares
//!   names), and its authorityKeyIdentifier (when both have one) the CA's
//!   subjectKeyIdentifier;
//! - the CA's keyUsage, when it has one, allows cRLSign (§4.2.1.3: a key without it
//!   "MUST NOT be used to verify signatures on CRLs");
//! - the signature algorithm inside the TBS is the one outside it, and the signature
//!   verifies under the CA's key;
//! - a cRLNumber is present and not critical (§5.2.3: "conforming CRL issuers MUST
//!   include this extension in all CRLs and MUST mark this extension as non-critical");
//! - no critical CRL or entry extension pkit does not process (§5.2, §5.3: such a CRL
//!   MUST NOT be used to determine the status of certificates);
//! - thisUpdate is at most [`SKEW_SECONDS`] in the future (the issuer's clock may run
//!   ahead of ours), and nextUpdate is present (§5.1.2.5: "Conforming CRL issuers MUST
//!   include the nextUpdate time") and not passed.
//!
//! `pkit verify` adds what only a status lookup needs (scope, delta CRLs, a complete CRL
//! past its nextUpdate brought up to date by a current delta, §6.3.3 (a)(1)(i)).

#![forbid(unsafe_code)]

use crate::der::hex;
use crate::der::oid_registry as oids;
use crate::der::{Reader, Time};
use crate::dn;
use pkit_x509::cert::Certificate;
use pkit_x509::crl::{Crl, RevokedCert};
use pkit_x509::ext::ku;
use pkit_x509::ext::{self, ExtensionValue};
use pkit_x509::ext::{AuthorityKeyIdentifier, CrlReason};
use pkit_x509::extension::Extension;

use pkit_x509::backend::Backend;
use pkit_x509::ocsp_verify::SKEW_SECONDS;
use pkit_x509::ocsp_verify::{Check, VerifyError};
use pkit_x509::signed::verify_signed;
use std::cmp::Ordering;

/// CRL extensions pkit processes (§5.2.1–§5.2.7, and authorityInfoAccess, RFC 5280
/// §5.2.7): a critical one outside these makes the CRL unusable.
const CRL_EXTENSIONS: [crate::der::Oid; 7] = [
    oids::CE_AUTHORITY_KEY_ID,
    oids::CE_ISSUER_ALT_NAME,
    oids::CE_CRL_NUMBER,
    oids::CE_DELTA_CRL_INDICATOR,
    oids::CE_ISSUING_DIST_POINT,
    oids::CE_FRESHEST_CRL,
    oids::PE_AUTHORITY_INFO_ACCESS,
];

/// CRL entry extensions pkit processes (§5.3.1–§5.3.3), and holdInstructionCode
/// (2.5.29.23, RFC 3280 §5.3.2, dropped from RFC 5280), which only says how to treat a
/// hold and so never stops a CRL from being used.
const ENTRY_EXTENSIONS: [crate::der::Oid; 4] = [
    oids::CE_CRL_REASON,
    oids::CE_INVALIDITY_DATE,
    oids::CE_CERTIFICATE_ISSUER,
    crate::der::Oid::new("2.5.29.23"),
];

/// §5.2: a critical CRL extension pkit does not process makes the CRL unusable.
pub(crate) fn check_crl_extension(e: &Extension<'_>) -> Result<(), String> {
    if e.critical && !CRL_EXTENSIONS.iter().any(|o| e.oid == *o) {
        return Err(format!(
            "it has a critical {} extension that pkit does not process (RFC 5280 §5.2)",
            e.oid.name_or_dotted()
        ));
    }
    Ok(())
}

/// §5.3: likewise for an extension of entry `i`.
pub(crate) fn check_entry_extension(i: usize, e: &Extension<'_>) -> Result<(), String> {
    if e.critical && !ENTRY_EXTENSIONS.iter().any(|o| e.oid == *o) {
        return Err(format!(
            "its entry {i} has a critical {} extension that pkit does not process (RFC 5280 \
             §5.3)",
            e.oid.name_or_dotted()
        ));
    }
    Ok(())
}

/// Every CRL and entry extension by [`check_crl_extension`] and
/// [`check_entry_extension`]; the number of entries.
pub(crate) fn check_extensions(crl: &Crl<'_>) -> Result<usize, String> {
    if let Some(x) = &crl.extensions {
        for e in x
            .list()
            .map_err(|e| format!("its extensions do not decode: {e}"))?
        {
            check_crl_extension(&e)?;
        }
    }
    let mut n = 0;
    for (i, entry) in crl.revoked().enumerate() {
        let entry = entry.map_err(|err| format!("its entry {i} does not decode: {err}"))?;
        if let Some(x) = entry.extensions {
            let list = x
                .list()
                .map_err(|err| format!("the extensions of its entry {i} do not decode: {err}"))?;
            for e in list {
                check_entry_extension(i, &e)?;
            }
        }
        n += 1;
    }
    Ok(n)
}

/// The CRL's authorityKeyIdentifier, when it has one with a keyIdentifier, is the
/// issuer's subjectKeyIdentifier (when that has one).
pub(crate) fn check_authority_key_id(
    crl: &Crl<'_>,
    issuer: &Certificate<'_>,
) -> Result<(), String> {
    let aki = match &crl.extensions {
        Some(x) => match x
            .find(&oids::CE_AUTHORITY_KEY_ID)
            .map_err(|e| e.to_string())?
        {
            Some(e) => {
                AuthorityKeyIdentifier::read(&mut Reader::new(e.value))
                    .map_err(|e| format!("its authorityKeyIdentifier does not decode: {e}"))?
                    .key_identifier
            }
            None => None,
        },
        None => None,
    };
    match (aki, issuer.subject_key_id()) {
        (Some(aki), Some(ski)) if aki != ski.as_slice() => Err(format!(
            "its authority key identifier {} is not the issuer's key identifier {}",
            hex(aki),
            hex(&ski)
        )),
        _ => Ok(()),
    }
}

/// §5.2.3: a cRLNumber, not critical.
pub(crate) fn check_number(crl: &Crl<'_>) -> Result<(), String> {
    let found = match &crl.extensions {
        Some(x) => x
            .find(&oids::CE_CRL_NUMBER)
            .map_err(|e| format!("its extensions do not decode: {e}"))?,
        None => None,
    };
    match found {
        None => Err("it has no cRLNumber (RFC 5280 §5.2.3: MUST be present)".into()),
        Some(e) if e.critical => {
            Err("its cRLNumber is critical (RFC 5280 §5.2.3: MUST be non-critical)".into())
        }
        Some(_) => Ok(()),
    }
}

/// §4.2.1.3: the issuer's keyUsage, when present, allows cRLSign.
pub(crate) fn check_issuer_may_sign(issuer: &Certificate<'_>) -> Result<(), String> {
    let found = issuer
        .extensions
        .map(|x| x.find(&oids::CE_KEY_USAGE))
        .transpose()
        .map_err(|e| format!("the issuer's extensions do not decode: {e}"))?
        .flatten();
    let Some(x) = found else {
        return Ok(());
    };
    match ext::decode(x.oid, x.value, x.value_offset) {
        Ok(ExtensionValue::KeyUsage(bits)) if bits.contains(ku::CRL_SIGN) => Ok(()),
        Ok(_) => Err(
            "the issuer's keyUsage does not allow cRLSign, so no CRL signed by its key can be \
             used (RFC 5280 §4.2.1.3)"
                .into(),
        ),
        Err(e) => Err(format!("the issuer's keyUsage does not decode: {e}")),
    }
}

/// thisUpdate no more than [`SKEW_SECONDS`] after `now`.
pub(crate) fn check_this_update(crl: &Crl<'_>, now: Time) -> Result<(), String> {
    if crl.this_update > now.plus_seconds(SKEW_SECONDS) {
        Err(format!(
            "its thisUpdate {} is in the future",
            crl.this_update
        ))
    } else {
        Ok(())
    }
}

/// How a CRL's nextUpdate stands at a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NextUpdate {
    /// Present and not passed.
    Current(Time),
    /// Present and passed: the CRL is stale.
    Passed(Time),
    /// Absent, which §5.1.2.5 forbids.
    Missing,
}

impl NextUpdate {
    /// How `crl`'s nextUpdate stands at `now`.
    pub(crate) fn of(crl: &Crl<'_>, now: Time) -> NextUpdate {
        match crl.next_update {
            // At nextUpdate itself the next CRL is due: this one is stale.
            Some(t) if t > now => NextUpdate::Current(t),
            Some(t) => NextUpdate::Passed(t),
            None => NextUpdate::Missing,
        }
    }

    /// Why the CRL cannot be used on its own, if it cannot.
    pub(crate) fn problem(self) -> Option<String> {
        match self {
            NextUpdate::Current(_) => None,
            NextUpdate::Passed(t) => Some(format!("stale: its nextUpdate {t} has passed")),
            NextUpdate::Missing => {
                Some("it has no nextUpdate (RFC 5280 §5.1.2.5: MUST be present)".into())
            }
        }
    }
}

/// Whether `crl` is within its validity window at `now` by the rules above.
pub(crate) fn is_current(crl: &Crl<'_>, now: Time) -> bool {
    check_this_update(crl, now).is_ok() && NextUpdate::of(crl, now).problem().is_none()
}

/// Every check made on `crl` as issued by `issuer` at `now`; valid when all pass.
pub fn verify(
    backend: &Backend,
    crl: &Crl<'_>,
    issuer: &Certificate<'_>,
    now: Time,
) -> Result<Vec<Check>, VerifyError> {
    let mut checks = Vec::new();
    let mut add = |name, ok, detail: String| checks.push(Check { name, ok, detail });
    let mut rule = |name, r: Result<(), String>, good: String| match r {
        Ok(()) => add(name, true, good),
        Err(why) => add(name, false, why),
    };
    let issuer_dn = issuer.subject.to_rfc4514().unwrap_or_default();
    let crl_dn = crl.issuer.to_rfc4514().unwrap_or_default();
    rule(
        "issuer_name",
        if dn::equal(&crl.issuer, &issuer.subject) {
            Ok(())
        } else {
            Err(format!("the CRL names {crl_dn}, the CA is {issuer_dn}"))
        },
        issuer_dn.clone(),
    );
    let has_aki = match &crl.extensions {
        Some(x) => x.find(&oids::CE_AUTHORITY_KEY_ID)?.is_some(),
        None => false,
    };
    if has_aki && issuer.subject_key_id().is_some() {
        rule(
            "authority_key_id",
            check_authority_key_id(crl, issuer),
            issuer.subject_key_id().map(|k| hex(&k)).unwrap_or_default(),
        );
    }
    rule(
        "key_usage",
        check_issuer_may_sign(issuer),
        "the CA may sign CRLs".into(),
    );
    rule(
        "crl_number",
        check_number(crl),
        "present, not critical".into(),
    );
    rule(
        "extensions",
        check_extensions(crl).map(|_| ()),
        "no critical extension pkit does not process".into(),
    );
    crl.check_signature_algorithms_match()?;
    let ok = verify_signed(
        backend,
        issuer.spki.raw,
        &crl.signature_algorithm,
        crl.tbs_raw,
        crl.signature.bytes,
    )
    .map_err(VerifyError::Signed)?;
    rule(
        "signature",
        if ok {
            Ok(())
        } else {
            Err("does not verify with the CA's public key".into())
        },
        format!("{} by the CA", crl.signature_algorithm.name()),
    );
    rule(
        "this_update",
        check_this_update(crl, now),
        crl.this_update.to_string(),
    );
    let next = NextUpdate::of(crl, now);
    rule(
        "next_update",
        next.problem().map_or(Ok(()), Err),
        crl.next_update.map(|t| t.to_string()).unwrap_or_default(),
    );
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
    /// The index of `crl`'s entries; an error when an entry does not decode.
    pub fn build(crl: &Crl<'a>) -> crate::der::Result<Self> {
        let entries = crl.revoked().collect::<crate::der::Result<Vec<_>>>()?;
        Ok(Self::from_entries(entries))
    }

    /// An index over entries a caller has already chosen (an indirect CRL's entries for
    /// one certificate issuer, say).
    pub(crate) fn from_entries(mut entries: Vec<RevokedCert<'a>>) -> Self {
        if !entries.is_sorted_by(|a, b| serial_cmp(a.serial, b.serial).is_le()) {
            entries.sort_unstable_by(|a, b| serial_cmp(a.serial, b.serial));
        }
        RevokedIndex { entries }
    }

    /// How many entries the CRL has.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the CRL revokes nothing.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// What the CRL says of the certificate whose serialNumber has the INTEGER content
    /// octets `serial`: its entry, if it has one. Magnitudes and signs are both compared:
    /// a negative serial (RFC 5280 §4.1.2.2 tolerates them from non-conforming CAs) is not
    /// the positive one with the same octets. A serial given as a magnitude (hex from a
    /// command line) is made content octets with `pkit_der::integer::from_unsigned`.
    /// The one look-up of both `pkit crl check` and `pkit verify --crl`.
    pub fn lookup(&self, serial: &[u8]) -> Option<Listing<'_, 'a>> {
        let negative = crate::der::integer::is_negative(serial);
        let first = self
            .entries
            .partition_point(|e| serial_cmp(e.serial, serial).is_lt());
        self.entries[first..]
            .iter()
            .take_while(|e| serial_cmp(e.serial, serial).is_eq())
            .find(|e| crate::der::integer::is_negative(e.serial) == negative)
            .map(|entry| Listing { entry })
    }
}

/// A CRL's entry for one certificate ([`RevokedIndex::lookup`]).
#[derive(Debug, Clone, Copy)]
pub struct Listing<'i, 'a> {
    /// The entry.
    pub entry: &'i RevokedCert<'a>,
}

impl Listing<'_, '_> {
    /// The entry's reasonCode (§5.3.1); `None` when it has none, an error when its
    /// extensions or the reason do not decode.
    pub fn reason(&self) -> crate::der::Result<Option<CrlReason>> {
        let Some(x) = &self.entry.extensions else {
            return Ok(None);
        };
        let Some(ext) = x.find(&oids::CE_CRL_REASON)? else {
            return Ok(None);
        };
        CrlReason::read(&mut Reader::new(ext.value)).map(Some)
    }

    /// Whether the entry revokes its certificate: any entry but one whose reason is
    /// removeFromCRL, which in a delta CRL takes a held certificate off the list
    /// ([`CrlReason::revokes`]). An entry whose reason does not decode still revokes.
    pub fn revokes(&self) -> bool {
        self.reason().ok().flatten().is_none_or(CrlReason::revokes)
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

    /// A CRL (signed by no one) listing `entries`: (serial content octets, reasonCode
    /// extension's value).
    fn crl_of(entries: &[(&[u8], Option<&[u8]>)]) -> Vec<u8> {
        use crate::der::{tag, Writer};
        let alg = |w: &mut Writer| {
            w.sequence(|w| {
                w.oid(&oids::ED25519);
            });
        };
        let mut w = Writer::new();
        w.sequence(|w| {
            w.sequence(|w| {
                w.integer_u64(1);
                alg(w);
                w.sequence(|_| {});
                w.time(Time { unix: 0 });
                w.sequence(|w| {
                    for (serial, reason) in entries {
                        w.sequence(|w| {
                            w.primitive(tag::INTEGER, serial);
                            w.time(Time { unix: 60 });
                            if let Some(r) = reason {
                                w.sequence(|w| {
                                    w.sequence(|w| {
                                        w.oid(&oids::CE_CRL_REASON);
                                        w.octet_string(r);
                                    });
                                });
                            }
                        });
                    }
                });
            });
            alg(w);
            w.bit_string(&[0; 64]);
        });
        w.finish()
    }

    #[test]
    fn lookups_compare_signs_and_read_reasons() {
        let key_compromise: &[u8] = &[0x0a, 1, 1];
        let remove: &[u8] = &[0x0a, 1, 8];
        let der = crl_of(&[
            // 255, and -1 with the same octets: both in the list, adjacent once sorted.
            (&[0x00, 0xff], Some(key_compromise)),
            (&[0xff], None),
            (&[0x05], Some(remove)),
            (&[0x06], Some(&[0x02, 1, 1])),
        ]);
        let crl = Crl::from_der(&der).unwrap();
        let index = RevokedIndex::build(&crl).unwrap();
        assert_eq!(index.len(), 4);
        let hit = index.lookup(&[0x00, 0xff]).unwrap();
        assert_eq!(hit.entry.serial, [0x00, 0xff]);
        assert_eq!(hit.reason().unwrap(), Some(CrlReason::KeyCompromise));
        assert!(hit.revokes());
        let negative = index.lookup(&[0xff]).unwrap();
        assert_eq!(negative.entry.serial, [0xff]);
        assert_eq!(negative.reason().unwrap(), None);
        // A magnitude from a command line reads as the positive serial.
        let typed = crate::der::integer::from_unsigned(&[0xff]);
        assert_eq!(index.lookup(&typed).unwrap().entry.serial, [0x00, 0xff]);
        // removeFromCRL is listed, and does not revoke.
        let removed = index.lookup(&[0x05]).unwrap();
        assert_eq!(removed.reason().unwrap(), Some(CrlReason::RemoveFromCrl));
        assert!(!removed.revokes());
        // A reasonCode that does not decode (an INTEGER): an error, and still revoked.
        let bad = index.lookup(&[0x06]).unwrap();
        assert!(bad.reason().is_err());
        assert!(bad.revokes());
        assert!(index.lookup(&[0x07]).is_none());
        assert!(
            index.lookup(&[0x00, 0x05]).is_some(),
            "a sign octet is no other serial"
        );
    }

    #[test]
    fn lookups_find_a_sign_on_either_side_of_its_twin() {
        for entries in [
            [&[0x00u8, 0x80][..], &[0x80][..]],
            [&[0x80][..], &[0x00, 0x80][..]],
        ] {
            let der = crl_of(&[(entries[0], None), (entries[1], None)]);
            let crl = Crl::from_der(&der).unwrap();
            let index = RevokedIndex::build(&crl).unwrap();
            for want in entries {
                assert_eq!(index.lookup(want).unwrap().entry.serial, want);
            }
        }
    }
}
