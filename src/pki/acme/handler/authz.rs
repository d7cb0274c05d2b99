//! Authorizations and their challenges (RFC 8555 §7.5): shown, deactivated, and a
//! challenge handed to the validators when its client says it is ready.

use super::id_of;
use super::signed::Signed;
use super::{json_answer, time, AcmeHandler, Outcome};
use crate::problem::Problem;
use crate::store::{Authz, Challenge};
use serde_json::{json, Value};

impl AcmeHandler {
    pub(super) fn authz_json(&self, a: &Authz, challenges: &[Challenge]) -> Value {
        let value = if a.wildcard {
            format!("*.{}", a.id_value)
        } else {
            a.id_value.clone()
        };
        let mut v = json!({
            "status": a.status,
            "expires": time(a.expires),
            "identifier": {"type": a.id_type, "value": value},
            "challenges": challenges.iter().map(|c| self.challenge_json(c)).collect::<Vec<_>>(),
        });
        if a.wildcard {
            v["wildcard"] = true.into();
            v["identifier"]["value"] = a.id_value.clone().into();
        }
        v
    }

    pub(super) fn challenge_json(&self, c: &Challenge) -> Value {
        let mut v = json!({
            "type": c.kind.as_str(),
            "url": self.url(&format!("/chall/{}", c.id)),
            "token": c.token,
            "status": c.status,
        });
        if let Some(t) = c.validated {
            v["validated"] = time(t).into();
        }
        if let Some(e) = &c.error {
            v["error"] = serde_json::from_str(e).unwrap_or(Value::Null);
        }
        v
    }

    pub(super) fn own_authz(&self, s: &Signed, id: Option<i64>) -> Result<Authz, Problem> {
        let a = s.signer_account()?;
        let z = id
            .map(|id| self.db.authz(id))
            .transpose()
            .map_err(Problem::db)?
            .flatten()
            .ok_or_else(|| Problem::new("malformed", 404, "no such authorization"))?;
        if z.account_id != a.id {
            return Err(Problem::new(
                "unauthorized",
                403,
                "not this account's authorization",
            ));
        }
        Ok(z)
    }

    pub(super) fn authz(&mut self, s: Signed, path: &str) -> Outcome {
        let mut z = self.own_authz(&s, id_of(path, "/authz/"))?;
        if let Some(p) = s.jws.json().map_err(Problem::jose)? {
            if p["status"] == json!("deactivated") {
                if !matches!(z.status.as_str(), "pending" | "valid") {
                    return Err(Problem::new(
                        "malformed",
                        400,
                        format!(
                            "an authorization that is {} cannot be deactivated",
                            z.status
                        ),
                    ));
                }
                self.db
                    .set_authz_status(z.id, "deactivated")
                    .map_err(Problem::db)?;
                z.status = "deactivated".into();
            }
        }
        let ch = self.db.challenges(z.id).map_err(Problem::db)?;
        let mut a = json_answer(200, &self.authz_json(&z, &ch));
        if ch.iter().any(|c| c.status == "processing") {
            a = a.with("retry-after", "1".into());
        }
        Ok(a)
    }

    pub(super) fn challenge(&mut self, s: Signed, path: &str) -> Outcome {
        let id = id_of(path, "/chall/");
        let c = id
            .map(|id| self.db.challenge(id))
            .transpose()
            .map_err(Problem::db)?
            .flatten()
            .ok_or_else(|| Problem::new("malformed", 404, "no such challenge"))?;
        let z = self.own_authz(&s, Some(c.authz_id))?;
        // A POST with a payload ({}) asks for validation (§7.5.1); POST-as-GET only looks.
        let asks = !s.jws.payload.is_empty();
        if asks && z.expires <= self.clock.now().unix {
            return Err(Problem::new(
                "malformed",
                400,
                "the authorization has expired",
            ));
        }
        let c = if asks
            && z.status == "pending"
            && self.db.start_challenge(c.id).map_err(Problem::db)?
        {
            self.validate
                .send(c.id)
                .map_err(|_| Problem::server("the validators have stopped"))?;
            self.db.challenge(c.id).map_err(Problem::db)?.unwrap_or(c)
        } else {
            c
        };
        let mut a = json_answer(200, &self.challenge_json(&c)).with(
            "link",
            format!("<{}>;rel=\"up\"", self.url(&format!("/authz/{}", z.id))),
        );
        // As the authorization says (§8.2): lego waits 5 s before its first look
        // without it, where a validation takes milliseconds.
        if c.status == "processing" {
            a = a.with("retry-after", "1".into());
        }
        Ok(a)
    }
}
