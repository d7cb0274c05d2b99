//! Renewal information (RFC 9773): the window to renew a certificate in (§4), and the
//! certificate a new order replaces (§5).

use super::cert::leaf_der;
use super::{json_answer, time, AcmeHandler, Outcome};
use crate::ari::CertId;
use crate::jose;
use crate::problem::Problem;
use crate::store::Replacing;
use serde_json::{json, Value};

impl AcmeHandler {
    /// RFC 9773: the window in which to renew a certificate, by its ARI identifier
    /// (base64url AKI keyIdentifier "." base64url serial).
    pub(super) fn renewal_info(&self, path: &str) -> Outcome {
        let id = path.trim_start_matches("/renewal-info/");
        let serial = id
            .split_once('.')
            .and_then(|(_, s)| jose::unb64(s))
            .ok_or_else(|| Problem::new("malformed", 400, "expected AKI.serial, each base64url"))?;
        let serial = pkit_der::hex(pkit_der::integer::unsigned_bytes(&serial));
        let c = self
            .db
            .cert(&serial)
            .map_err(Problem::db)?
            .ok_or_else(|| Problem::new("malformed", 404, "no such certificate"))?;
        let (start, end) =
            crate::ari::window(c.not_before, c.not_after, c.revoked, self.clock.now().unix);
        Ok(json_answer(
            200,
            &json!({"suggestedWindow": {"start": time(start), "end": time(end)}}),
        )
        .with("retry-after", "21600".into()))
    }

    /// A new order's `replaces` (RFC 9773 §5): the ARI CertID of a certificate this
    /// server issued to this account, for at least one of the order's identifiers. That
    /// no other order replaces it already is for the store to decide, at creation, once
    /// the orders that do have had their status brought up to date (one past its expiry
    /// or with a failed authorization is invalid, and does not count).
    pub(super) fn replaced(
        &mut self,
        a: &crate::store::Account,
        p: &Value,
        listed: &[Value],
    ) -> Result<Option<Replacing>, Problem> {
        let given = match p.get("replaces") {
            None | Some(Value::Null) => return Ok(None),
            Some(v) => v.as_str().unwrap_or_default(),
        };
        let id = CertId::parse(given).ok_or_else(|| {
            Problem::new(
                "malformed",
                400,
                format!(
                    "replaces {given:?}: expected a certificate's ARI identifier, base64url \
                     AKI keyIdentifier \".\" base64url serial (RFC 9773 §4.1)"
                ),
            )
        })?;
        let unknown = || {
            Problem::new(
                "malformed",
                400,
                format!("replaces {given}: this server issued no such certificate"),
            )
        };
        let serial = pkit_der::hex(pkit_der::integer::unsigned_bytes(&id.serial));
        let issued = self
            .db
            .cert(&serial)
            .map_err(Problem::db)?
            .ok_or_else(unknown)?;
        let der = leaf_der(&issued.chain_pem)
            .ok_or_else(|| Problem::server(format!("certificate {serial}: no PEM recorded")))?;
        let cert = pkit_x509::cert::Certificate::from_der(&der)
            .map_err(|e| Problem::server(format!("certificate {serial}: {e}")))?;
        // The serial is this CA's; so must the key identifier be. A certificate without
        // one (a Merkle Tree Certificate) is named by its serial, as renewal info names it.
        let aki = match cert.extension_value(&pkit_der::oid_registry::CE_AUTHORITY_KEY_ID) {
            Some(pkit_x509::ext::ExtensionValue::AuthorityKeyIdentifier(aki)) => {
                aki.key_identifier.map(<[u8]>::to_vec)
            }
            _ => None,
        };
        if aki.as_ref().is_some_and(|k| *k != id.key_id) {
            return Err(unknown());
        }
        if issued.account_id != a.id {
            return Err(Problem::new(
                "unauthorized",
                403,
                format!("replaces {given}: that certificate was issued to another account"),
            ));
        }
        let old = self
            .db
            .order(issued.order_id)
            .map_err(Problem::db)?
            .ok_or_else(|| Problem::server(format!("certificate {serial}: its order vanished")))?;
        let old: Vec<Value> = serde_json::from_str(&old.identifiers).unwrap_or_default();
        if !listed.iter().any(|i| old.contains(i)) {
            return Err(Problem::new(
                "malformed",
                400,
                format!("replaces {given}: the order names none of that certificate's identifiers"),
            ));
        }
        // Recorded as the certificate gives it, so that two spellings of one serial are
        // one replacement.
        let cert_id = CertId {
            key_id: aki.unwrap_or(id.key_id),
            serial: cert.serial.to_vec(),
        }
        .to_string();
        for o in self.db.orders_replacing(&cert_id).map_err(Problem::db)? {
            if o.status != "invalid" {
                self.refreshed_order(o.id)?;
            }
        }
        Ok(Some(Replacing {
            cert_id,
            serial: issued.serial,
        }))
    }
}
