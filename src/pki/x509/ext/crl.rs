//! CRL extensions that carry a number, and the CRL entry's reason code (RFC 5280 §5.2.3,
//! §5.2.4, §5.3.1). invalidityDate (§5.3.2) is a bare GeneralizedTime and
//! certificateIssuer (§5.3.3) a GeneralNames; both are read where they are dispatched.

use crate::der::{integer, tag, Error, ErrorKind, Reader, Result};

/// ```asn1
/// CRLNumber ::= INTEGER (0..MAX)
/// BaseCRLNumber ::= CRLNumber
/// ```
/// Returns the magnitude octets. §5.2.3: "CRL issuers MUST NOT use CRLNumber values
/// longer than 20 octets", so the value does not fit any machine integer in general.
pub(crate) fn read_crl_number<'a>(r: &mut Reader<'a>) -> Result<&'a [u8]> {
    let tlv = r.read_expect(tag::INTEGER)?;
    integer::check(r, tlv.content, tlv.content_offset())?;
    if integer::is_negative(tlv.content) {
        return Err(Error::new(tlv.content_offset(), ErrorKind::NegativeInteger));
    }
    let magnitude = integer::unsigned_bytes(tlv.content);
    if magnitude.len() > 20 {
        r.deviate(
            tlv.content_offset(),
            ErrorKind::Invalid(format!(
                "expected a CRL number of at most 20 octets, found {}",
                magnitude.len()
            )),
        )?;
    }
    Ok(magnitude)
}

/// ```asn1
/// CRLReason ::= ENUMERATED {
///      unspecified             (0),
///      keyCompromise           (1),
///      cACompromise            (2),
///      affiliationChanged      (3),
///      superseded              (4),
///      cessationOfOperation    (5),
///      certificateHold         (6),
///           -- value 7 is not used
///      removeFromCRL           (8),
///      privilegeWithdrawn      (9),
///      aACompromise           (10) }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CrlReason {
    /// unspecified (0).
    Unspecified,
    /// keyCompromise (1): the subject's private key is known or suspected to be
    /// compromised.
    KeyCompromise,
    /// cACompromise (2): the CA's private key is compromised.
    CaCompromise,
    /// affiliationChanged (3): the subject's name or other information changed.
    AffiliationChanged,
    /// superseded (4): the certificate has been replaced.
    Superseded,
    /// cessationOfOperation (5): the certificate is no longer needed.
    CessationOfOperation,
    /// certificateHold (6): the certificate is suspended.
    CertificateHold,
    /// removeFromCRL (8): a delta CRL takes a held certificate off the list.
    RemoveFromCrl,
    /// privilegeWithdrawn (9): a privilege the certificate asserts was withdrawn.
    PrivilegeWithdrawn,
    /// aACompromise (10): the attribute authority's key is compromised.
    AaCompromise,
    /// A value the ENUMERATED does not define (only in lenient mode).
    Other(i64),
}

impl CrlReason {
    /// The reason with ENUMERATED value `code`; `None` for 7 (unused) and unknown values.
    pub fn from_code(code: i64) -> Option<CrlReason> {
        use CrlReason::*;
        Some(match code {
            0 => Unspecified,
            1 => KeyCompromise,
            2 => CaCompromise,
            3 => AffiliationChanged,
            4 => Superseded,
            5 => CessationOfOperation,
            6 => CertificateHold,
            8 => RemoveFromCrl,
            9 => PrivilegeWithdrawn,
            10 => AaCompromise,
            _ => return None,
        })
    }

    /// The reason's ENUMERATED value.
    pub fn code(self) -> i64 {
        use CrlReason::*;
        match self {
            Unspecified => 0,
            KeyCompromise => 1,
            CaCompromise => 2,
            AffiliationChanged => 3,
            Superseded => 4,
            CessationOfOperation => 5,
            CertificateHold => 6,
            RemoveFromCrl => 8,
            PrivilegeWithdrawn => 9,
            AaCompromise => 10,
            Other(n) => n,
        }
    }

    /// The ASN.1 identifier (`keyCompromise`), or `None` for an undefined value.
    pub fn name(self) -> Option<&'static str> {
        use CrlReason::*;
        Some(match self {
            Unspecified => "unspecified",
            KeyCompromise => "keyCompromise",
            CaCompromise => "cACompromise",
            AffiliationChanged => "affiliationChanged",
            Superseded => "superseded",
            CessationOfOperation => "cessationOfOperation",
            CertificateHold => "certificateHold",
            RemoveFromCrl => "removeFromCRL",
            PrivilegeWithdrawn => "privilegeWithdrawn",
            AaCompromise => "aACompromise",
            Other(_) => return None,
        })
    }

    /// The reason whose ASN.1 identifier is `name`, in any case (`keyCompromise`,
    /// `KEYCOMPROMISE`); `None` for any other text.
    pub fn from_name(name: &str) -> Option<CrlReason> {
        (0..=10)
            .filter_map(CrlReason::from_code)
            .find(|r| r.name().is_some_and(|n| n.eq_ignore_ascii_case(name)))
    }

    /// Whether a CRL entry with this reason revokes its certificate: every reason but
    /// removeFromCRL, which a delta CRL gives a certificate it takes off hold (§5.3.1),
    /// and which a CA therefore never records for a revocation.
    pub fn revokes(self) -> bool {
        self != CrlReason::RemoveFromCrl
    }

    /// Read a CRLReason ENUMERATED (RFC 5280 §5.3.1).
    pub fn read(r: &mut Reader<'_>) -> Result<CrlReason> {
        let at = r.offset();
        let code = r.read_enumerated()?;
        match CrlReason::from_code(code) {
            Some(reason) => Ok(reason),
            None => {
                r.deviate(
                    at,
                    ErrorKind::Invalid(format!("expected a defined CRLReason, found {code}")),
                )?;
                Ok(CrlReason::Other(code))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::der::Deviations;

    #[test]
    fn crl_numbers() {
        assert_eq!(read_crl_number(&mut Reader::new(&[2, 1, 0])).unwrap(), &[0]);
        assert_eq!(
            read_crl_number(&mut Reader::new(&[2, 3, 0, 0x80, 1])).unwrap(),
            &[0x80, 1]
        );
        let mut twenty = vec![2, 20, 0x7f];
        twenty.extend([0xff; 19]);
        assert_eq!(
            read_crl_number(&mut Reader::new(&twenty)).unwrap().len(),
            20
        );
        let mut long = vec![2, 21, 0x7f];
        long.extend([0xff; 20]);
        assert_eq!(
            read_crl_number(&mut Reader::new(&long)).unwrap_err().offset,
            2
        );
        let err = read_crl_number(&mut Reader::new(&[2, 1, 0xff])).unwrap_err();
        assert_eq!((err.offset, err.kind), (2, ErrorKind::NegativeInteger));
        assert!(read_crl_number(&mut Reader::new(&[2, 2, 0, 1])).is_err());
        assert!(read_crl_number(&mut Reader::new(&[4, 1, 0])).is_err());
    }

    #[test]
    fn reasons() {
        let r = CrlReason::read(&mut Reader::new(&[0x0a, 1, 1])).unwrap();
        assert_eq!(
            (r, r.name(), r.code()),
            (CrlReason::KeyCompromise, Some("keyCompromise"), 1)
        );
        let r = CrlReason::read(&mut Reader::new(&[0x0a, 1, 8])).unwrap();
        assert_eq!(r.name(), Some("removeFromCRL"));
        // RFC 5280 §5.3.1 names codes 0..=10 except 7; each round-trips.
        let known: Vec<i64> = (0..=10)
            .filter(|&code| CrlReason::from_code(code).is_some_and(|r| r.code() == code))
            .collect();
        assert_eq!(known, [0, 1, 2, 3, 4, 5, 6, 8, 9, 10]);
        // 7 is not used.
        assert_eq!(
            CrlReason::read(&mut Reader::new(&[0x0a, 1, 7]))
                .unwrap_err()
                .offset,
            0
        );
        let log = Deviations::new();
        let r = CrlReason::read(&mut Reader::lenient(&[0x0a, 1, 7], &log)).unwrap();
        assert_eq!((r, r.name()), (CrlReason::Other(7), None));
        // INTEGER is not ENUMERATED.
        assert!(CrlReason::read(&mut Reader::new(&[0x02, 1, 1])).is_err());
    }

    #[test]
    fn reasons_by_name() {
        for code in (0..=10).filter(|&c| c != 7) {
            let r = CrlReason::from_code(code).unwrap();
            let name = r.name().unwrap();
            assert_eq!(CrlReason::from_name(name), Some(r));
            assert_eq!(CrlReason::from_name(&name.to_ascii_uppercase()), Some(r));
        }
        assert_eq!(
            CrlReason::from_name("cacompromise"),
            Some(CrlReason::CaCompromise)
        );
        assert_eq!(CrlReason::from_name("compromised"), None);
        assert_eq!(CrlReason::from_name(""), None);
        assert!(CrlReason::KeyCompromise.revokes() && CrlReason::CertificateHold.revokes());
        assert!(CrlReason::Other(7).revokes());
        assert!(!CrlReason::RemoveFromCrl.revokes());
    }
}
