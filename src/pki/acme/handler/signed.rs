//! Every POST is a JWS (RFC 8555 §6.2–6.5): checked for its URL, its nonce (spent once,
//! across workers and processes) and its signature before its payload is read.

use super::AcmeHandler;
use crate::jose::{Jws, Signer};
use crate::problem::Problem;

/// A verified request: who sent it and what.
pub(super) struct Signed {
    pub(super) jws: Jws,
    /// The account, for a `kid` JWS.
    pub(super) account: Option<crate::store::Account>,
}

impl Signed {
    /// The account that signed, for a resource only an account signs for. `verify`
    /// refuses a `jwk` JWS on every such resource, so each request that reaches one has
    /// its account; should that change, the request is refused, not the worker lost.
    pub(super) fn signer_account(&self) -> Result<&crate::store::Account, Problem> {
        self.account.as_ref().ok_or_else(|| {
            Problem::new(
                "malformed",
                400,
                "this resource wants a JWS signed by an account (\"kid\")",
            )
        })
    }
}

impl AcmeHandler {
    /// §6.2–6.5: the URL the JWS names is this one, its nonce is fresh, and its signature
    /// verifies with its `jwk` or its account's key.
    pub(super) fn verify(&mut self, body: &[u8], path: &str) -> Result<Signed, Problem> {
        let jws = Jws::parse(body).map_err(Problem::jose)?;
        let now = self.clock.now().unix;
        if jws.url != self.url(path) {
            return Err(Problem::new(
                "unauthorized",
                401,
                format!("the JWS is for {}, not {}", jws.url, self.url(path)),
            ));
        }
        let nonce = jws
            .nonce
            .as_deref()
            .ok_or_else(|| Problem::new("badNonce", 400, "the JWS has no nonce"))?;
        let bad = || {
            Problem::new(
                "badNonce",
                400,
                "the nonce was not issued here, has expired or was used already",
            )
        };
        let made = crate::nonce::made_at(&self.nonce_key, nonce, now).ok_or_else(bad)?;
        // One spend in 64 (by the nonce's own random first character) clears out the
        // expired ones.
        let prune = nonce.as_bytes()[0] == b'A';
        if !self
            .db
            .spend_nonce(nonce, made, now, prune)
            .map_err(Problem::db)?
        {
            return Err(bad());
        }
        let uses_jwk = matches!(path, "/new-account" | "/revoke-cert");
        match &jws.signer {
            Signer::Jwk(jwk) => {
                if !uses_jwk {
                    return Err(Problem::new(
                        "malformed",
                        400,
                        "this resource wants a JWS signed by an account (\"kid\")",
                    ));
                }
                jws.verify(self.backend, &jwk.spki).map_err(Problem::jose)?;
                Ok(Signed { jws, account: None })
            }
            Signer::Kid(kid) => {
                if path == "/new-account" {
                    return Err(Problem::new(
                        "malformed",
                        400,
                        "newAccount is signed with the new key (\"jwk\"), not an account",
                    ));
                }
                let account = kid
                    .strip_prefix(&self.url("/acct/"))
                    .and_then(|id| id.parse().ok())
                    .map(|id| self.db.account(id))
                    .transpose()
                    .map_err(Problem::db)?
                    .flatten()
                    .ok_or_else(|| {
                        Problem::new("accountDoesNotExist", 400, format!("no account {kid}"))
                    })?;
                jws.verify(self.backend, &account.spki)
                    .map_err(Problem::jose)?;
                if account.status != "valid" {
                    return Err(Problem::new(
                        "unauthorized",
                        401,
                        format!("the account is {}", account.status),
                    ));
                }
                Ok(Signed {
                    jws,
                    account: Some(account),
                })
            }
        }
    }
}
