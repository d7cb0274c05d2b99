//! The CA's records as a relying party's revocation source (`pkit verify --ca DIR`):
//! path validation asks them by serial through `pkit_verify`'s [`IssuedRecords`], and
//! gets the status its CRLs and OCSP answers would give.

use super::api::{CaStore, CertStatus};
use crate::der::Time;
use pkit_verify::revocation::Status;
use pkit_verify::sources::IssuedRecords;
use pkit_x509::ext::CrlReason;

impl CertStatus {
    /// The revocation status these records give: the CRLReason code and the revocation
    /// time its CRLs and OCSP answers carry (a code no CRLReason names kept as
    /// `Other`, as a CRL entry's would be).
    pub fn revocation(&self) -> Status {
        match self {
            CertStatus::Good => Status::Good,
            CertStatus::Revoked(r) => Status::Revoked {
                reason: r.reason.map(|code| {
                    CrlReason::from_code(i64::from(code))
                        .unwrap_or(CrlReason::Other(i64::from(code)))
                }),
                at: Time { unix: r.revoked_at },
            },
            CertStatus::Unknown => Status::Unknown("not in the CA's database".into()),
        }
    }
}

impl IssuedRecords for Box<dyn CaStore> {
    fn status(&self, serial: &[u8]) -> Status {
        match CaStore::status(self.as_ref(), serial) {
            Ok(s) => s.revocation(),
            Err(e) => Status::Unknown(format!("the CA's database: {e}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Revoked;

    #[test]
    fn statuses_read_as_their_crl_would_say() {
        let held = CertStatus::Revoked(Revoked {
            serial: vec![1],
            revoked_at: 1_700_000_000,
            reason: Some(6),
            not_after: 0,
        });
        assert_eq!(
            held.revocation(),
            Status::Revoked {
                reason: Some(CrlReason::CertificateHold),
                at: Time {
                    unix: 1_700_000_000
                },
            }
        );
        let odd = CertStatus::Revoked(Revoked {
            serial: vec![1],
            revoked_at: 0,
            reason: Some(7),
            not_after: 0,
        });
        assert!(matches!(
            odd.revocation(),
            Status::Revoked {
                reason: Some(CrlReason::Other(7)),
                ..
            }
        ));
        assert_eq!(CertStatus::Good.revocation(), Status::Good);
        assert!(matches!(
            CertStatus::Unknown.revocation(),
            Status::Unknown(why) if why.contains("not in the CA's database")
        ));
    }

    #[test]
    fn records_answer_by_serial() {
        let dir = tempfile::tempdir().unwrap();
        let store = super::super::open(&dir.path().join("ca.db")).unwrap();
        assert!(matches!(
            IssuedRecords::status(&store, &[0x42]),
            Status::Unknown(why) if why.contains("not in the CA's database")
        ));
    }
}
