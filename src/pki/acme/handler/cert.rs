//! Issued certificates (RFC 8555 §7.4.2): downloaded by the account that ordered them,
//! with an MTC one's landmark-relative alternate, and revoked (§7.6).

use super::signed::Signed;
use super::{AcmeHandler, Answer, Outcome};
use crate::jose::{self, Signer};
use crate::problem::Problem;
use pkit_mtc::store::CertKind;

impl AcmeHandler {
    pub(super) fn certificate(&mut self, s: Signed, path: &str) -> Outcome {
        let a = s.signer_account()?;
        let rest = path.strip_prefix("/cert/").unwrap_or("");
        let (serial, landmark) = match rest.strip_suffix("/landmark") {
            Some(serial) => (serial, true),
            None => (rest, false),
        };
        let c = self
            .db
            .cert(serial)
            .map_err(Problem::db)?
            .filter(|c| c.account_id == a.id)
            .ok_or_else(|| Problem::new("malformed", 404, "no such certificate"))?;
        let pem = |body: String, headers| Answer {
            status: 200,
            content_type: "application/pem-certificate-chain",
            body: body.into_bytes(),
            headers,
        };
        // Only a server with an MTC CA looks the order up: an X.509 download stays one
        // query.
        let order = match self.config.mtc {
            Some(_) => self
                .db
                .order(c.order_id)
                .map_err(Problem::db)?
                .filter(|o| o.mtc_index.is_some()),
            None => None,
        };
        let Some(order) = order else {
            if landmark {
                return Err(Problem::new("malformed", 404, "no such certificate"));
            }
            return Ok(pem(c.chain_pem, Vec::new()));
        };
        // An MTC certificate: the landmark-relative one is an alternate (§7.4.2) once an
        // active landmark covers the entry, made when asked for.
        let now = self.clock.now().unix.max(0) as u64;
        let (standalone_url, landmark_url) = (
            self.url(&format!("/cert/{serial}")),
            self.url(&format!("/cert/{serial}/landmark")),
        );
        let (log, store) = self.mtc_log()?;
        let index = log
            .entry_of(&order)?
            .ok_or_else(|| Problem::server("the order's log entry is not recorded"))?;
        if landmark {
            let der = crate::mtc::certificate(store, log, index, CertKind::Landmark, now)?
                .ok_or_else(|| {
                    Problem::new(
                        "malformed",
                        404,
                        "no active landmark covers this certificate's entry yet",
                    )
                })?;
            let up = format!("<{standalone_url}>;rel=\"alternate\"");
            return Ok(pem(crate::mtc::chain_pem(log, &der), vec![("link", up)]));
        }
        let mut headers = Vec::new();
        if crate::mtc::available(store, index, CertKind::Landmark, now)? {
            headers.push(("link", format!("<{landmark_url}>;rel=\"alternate\"")));
        }
        Ok(pem(c.chain_pem, headers))
    }

    pub(super) fn revoke(&mut self, s: Signed) -> Outcome {
        let p = s
            .jws
            .json()
            .map_err(Problem::jose)?
            .ok_or_else(|| Problem::new("malformed", 400, "revokeCert needs a payload"))?;
        let der = p["certificate"]
            .as_str()
            .and_then(jose::unb64)
            .ok_or_else(|| {
                Problem::new("malformed", 400, "\"certificate\" must be base64url DER")
            })?;
        let reason = match p.get("reason") {
            None => None,
            Some(r) => match r.as_u64() {
                Some(n @ (0..=6 | 8..=10)) => Some(n as u8),
                _ => {
                    return Err(Problem::new(
                        "badRevocationReason",
                        400,
                        "not a CRLReason code pkit accepts",
                    ))
                }
            },
        };
        let cert = pkit_x509::cert::Certificate::from_der(&der).map_err(|e| {
            Problem::new(
                "malformed",
                400,
                format!("the certificate does not parse: {e}"),
            )
        })?;
        let serial = pkit_der::hex(pkit_der::integer::unsigned_bytes(cert.serial));
        let issued = self.db.cert(&serial).map_err(Problem::db)?.ok_or_else(|| {
            Problem::new(
                "malformed",
                404,
                "this server did not issue that certificate",
            )
        })?;
        let mtc = self
            .db
            .order(issued.order_id)
            .map_err(Problem::db)?
            .is_some_and(|o| o.mtc_index.is_some());
        // Before the byte comparison: the landmark-relative certificate has the same
        // serial and other bytes, and gets this answer too.
        if mtc {
            return Err(Problem::new(
                "malformed",
                400,
                "a Merkle Tree Certificate is not revoked one by one: its CA revokes ranges \
                 of serial numbers",
            ));
        }
        // The certificate posted must be the one issued, byte for byte: a forged one with
        // its serial and the poster's key would otherwise pass the key check below.
        if leaf_der(&issued.chain_pem).as_deref() != Some(der.as_slice()) {
            return Err(Problem::new(
                "unauthorized",
                403,
                "that is not the certificate this server issued with this serial",
            ));
        }
        // §7.6: by the account that ordered it, or by the certificate's own key.
        let allowed = match (&s.account, &s.jws.signer) {
            (Some(a), _) => a.id == issued.account_id,
            (None, Signer::Jwk(jwk)) => jwk.spki == cert.spki.raw,
            _ => false,
        };
        if !allowed {
            return Err(Problem::new(
                "unauthorized",
                403,
                "only the account that ordered it or the certificate's key may revoke it",
            ));
        }
        if issued.revoked {
            return Err(Problem::new(
                "alreadyRevoked",
                400,
                "the certificate is revoked already",
            ));
        }
        let raw_serial = pkit_der::integer::unsigned_bytes(cert.serial).to_vec();
        self.ca_store
            .revoke(&raw_serial, self.clock.now().unix, reason)
            .map_err(|e| Problem::server(format!("the CA's records: {e}")))?;
        self.db.mark_revoked(&serial).map_err(Problem::db)?;
        Ok(Answer {
            status: 200,
            content_type: "application/json",
            body: Vec::new(),
            headers: Vec::new(),
        })
    }
}

/// The DER of the first certificate of a recorded chain: the one issued.
pub(super) fn leaf_der(chain_pem: &str) -> Option<Vec<u8>> {
    const END: &str = "-----END CERTIFICATE-----";
    let leaf = chain_pem.find(END).map(|i| &chain_pem[..i + END.len()])?;
    pkit_x509::der::pem::decode(leaf.as_bytes())
        .ok()
        .map(|b| b.der)
}
