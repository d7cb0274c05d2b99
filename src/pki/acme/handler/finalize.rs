//! Finalizing an order (RFC 8555 §7.4): the proof checked again, the CSR checked, the
//! order claimed, then an X.509 certificate issued or an MTC entry appended, and an MTC
//! order made valid once a checkpoint covers its entry.

use super::id_of;
use super::signed::Signed;
use super::{json_answer, AcmeHandler, Outcome};
use crate::config::Issues;
use crate::finalize;
use crate::jose;
use crate::problem::Problem;
use crate::store::Order;
use pkit_der::Time;
use pkit_mtc::store::{CertKind, LogStore};
use serde_json::json;

impl AcmeHandler {
    pub(super) fn finalize(&mut self, s: Signed, path: &str) -> Outcome {
        let id = path
            .strip_suffix("/finalize")
            .and_then(|p| id_of(p, "/order/"));
        let o = self.own_order(&s, id)?;
        if o.status != "ready" {
            return Err(Problem::new(
                "orderNotReady",
                403,
                format!("the order is {}, not ready", o.status),
            ));
        }
        let p = s.jws.json().map_err(Problem::jose)?.unwrap_or(json!({}));
        let csr = p["csr"]
            .as_str()
            .and_then(jose::unb64)
            .ok_or_else(|| Problem::new("badCSR", 400, "\"csr\" must be a base64url DER CSR"))?;
        // The proof must still stand: every authorization valid and unexpired (a reused
        // one may expire before the order, and any may be deactivated, §7.5.2).
        let now = self.clock.now().unix;
        let authzs = self.db.order_authzs(o.id).map_err(Problem::db)?;
        if authzs
            .iter()
            .any(|z| z.status != "valid" || z.expires <= now)
        {
            self.db
                .advance_order(o.id, "ready", "invalid")
                .map_err(Problem::db)?;
            return Err(Problem::new(
                "orderNotReady",
                403,
                "an authorization of the order is no longer valid",
            ));
        }
        // CAA, checked when each authorization was validated, stands 8 hours (BR
        // §3.2.2.8): a reused one validated before that is checked again. Like the CSR,
        // before the order is claimed: a refusal leaves it ready, to finalize once the
        // records allow it.
        crate::caa::recheck(self.db.as_ref(), &self.config, &authzs, now)?;
        // Checked before the order is claimed, so a bad CSR leaves it ready to retry.
        let checked = crate::csr::check_csr(&csr, &o, &self.ca, self.backend)?;
        if !self.db.claim_order(o.id, now).map_err(Problem::db)? {
            return Err(Problem::new(
                "orderNotReady",
                403,
                "the order is being finalized already",
            ));
        }
        if let (Issues::Mtc, days) = self.config.issues(o.profile.as_deref()) {
            return self.finalize_mtc(o, checked, days.unwrap_or(1));
        }
        match finalize::issue(
            &self.ca,
            self.ca_store.as_mut(),
            &self.config,
            &o,
            checked,
            self.clock.now(),
        ) {
            Ok(cert) => {
                if let Err(e) = self.db.complete_order(&o, &cert).and_then(|done| {
                    done.then_some(()).ok_or_else(|| {
                        crate::store::StoreError("the order was no longer processing".into())
                    })
                }) {
                    // Signed and in the CA's records, but not in the ACME state: the order
                    // says which certificate it was, rather than stay processing.
                    let p = Problem::server(format!(
                        "certificate {} was issued but could not be recorded for the order: {e}",
                        cert.serial
                    ));
                    let _ = self
                        .db
                        .set_order_status(o.id, "invalid", Some(&p.json().to_string()));
                    return Err(p);
                }
            }
            Err(p) => {
                self.db
                    .set_order_status(o.id, "invalid", Some(&p.json().to_string()))
                    .map_err(Problem::db)?;
                return Err(p);
            }
        }
        let o = self.refreshed_order(o.id)?;
        Ok(json_answer(200, &self.order_json(&o)?)
            .with("location", self.url(&format!("/order/{}", o.id))))
    }

    /// An MTC order claimed: its entry appended to the log, the order left processing
    /// until a checkpoint covers it ([`crate::mtc`]).
    pub(super) fn finalize_mtc(
        &mut self,
        o: Order,
        key: crate::csr::CheckedCsr,
        days: u32,
    ) -> Outcome {
        let now = self.clock.now();
        let not_before = o.not_before.map_or(now, |t| Time { unix: t });
        let not_after = o.not_after.map_or_else(
            || not_before.plus_seconds(i64::from(days) * 86_400),
            |t| Time { unix: t },
        );
        let names = crate::csr::order_names(&o);
        let (log, store) = self.mtc_log()?;
        let log_id = log.log_id();
        let appended = crate::mtc::append(store, log, &names, &key, (not_before, not_after));
        let recorded = appended
            .and_then(|i| i64::try_from(i).map_err(|_| Problem::server("a log index past 2^63")))
            .and_then(|i| self.db.set_order_mtc(o.id, &log_id, i).map_err(Problem::db));
        if let Err(p) = recorded {
            // Not left processing with no entry to wait for.
            self.db
                .set_order_status(o.id, "invalid", Some(&p.json().to_string()))
                .map_err(Problem::db)?;
            return Err(p);
        }
        // Processing, as recorded: the certificate is made when the client looks again
        // after Retry-After (not here, should a checkpoint have come meanwhile).
        let o = self
            .db
            .order(o.id)
            .map_err(Problem::db)?
            .ok_or_else(|| Problem::server("the order vanished"))?;
        let answer = json_answer(200, &self.order_json(&o)?)
            .with("location", self.url(&format!("/order/{}", o.id)));
        Ok(self.poll_later(&o, answer))
    }

    /// The MTC log, for an order finalized on it.
    pub(super) fn mtc_log(&mut self) -> Result<(&crate::mtc::MtcLog, &mut dyn LogStore), Problem> {
        match (&self.config.mtc, self.mtc.as_deref_mut()) {
            (Some(m), Some(store)) => Ok((m, store)),
            _ => Err(Problem::server(
                "this server has no MTC CA (start it with --mtc)",
            )),
        }
    }

    /// An MTC order still processing: made valid with its standalone certificate once a
    /// checkpoint covers its entry, else as it was.
    pub(super) fn mtc_made(&mut self, o: Order) -> Result<Order, Problem> {
        let now = self.clock.now().unix;
        let (log, store) = self.mtc_log()?;
        let index = log
            .entry_of(&o)?
            .ok_or_else(|| Problem::server("the order's log entry is not recorded"))?;
        let serial = crate::mtc::serial_hex(log, index)?;
        let Some(der) =
            crate::mtc::certificate(store, log, index, CertKind::Standalone, now.max(0) as u64)?
        else {
            return Ok(o);
        };
        let cert = pkit_x509::cert::Certificate::from_der(&der)
            .map_err(|e| Problem::server(format!("the MTC certificate made: {e}")))?;
        let (not_before, not_after) = cert
            .validity()
            .map_err(|e| Problem::server(format!("the MTC certificate made: {e}")))?;
        let issued = crate::store::IssuedCert {
            serial,
            order_id: o.id,
            account_id: o.account_id,
            chain_pem: crate::mtc::chain_pem(log, &der),
            not_before: not_before.unix,
            not_after: not_after.unix,
            revoked: false,
        };
        // Another server may have made it at the same moment: then its record stands.
        self.db.complete_order(&o, &issued).map_err(Problem::db)?;
        self.db
            .order(o.id)
            .map_err(Problem::db)?
            .ok_or_else(|| Problem::new("malformed", 404, "no such order"))
    }
}
