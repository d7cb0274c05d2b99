//! One token of a module: found by the URI's token attributes, logged in once, and
//! handing out sessions — one per signing thread, since a PKCS#11 session serves one
//! thread at a time. Logging in is per application, not per session: the session that
//! logged in is kept open for the token's life so every later session shares the login.

use super::module;
use super::uri::KeyUri;
use cryptoki::context::Pkcs11;
use cryptoki::error::{Error, RvError};
use cryptoki::mechanism::MechanismType;
use cryptoki::session::{Session, UserType};
use cryptoki::slot::Slot;
use cryptoki::types::RawAuthPin;
use pkit_x509::backend::{BackendError, Result};
use std::sync::{Arc, Mutex};

/// A token found in a loaded module and logged into, with the mechanisms it offers.
pub struct Token {
    ctx: Pkcs11,
    slot: Slot,
    /// The module's path, for messages.
    pub module: String,
    /// The token's label.
    pub label: String,
    /// "SoftHSM 2.6 (…/libsofthsm2.so)": the module as `Backend::version` names it.
    pub description: String,
    mechanisms: Vec<MechanismType>,
    /// The session holding the login; `None` when no login was needed.
    _login: Mutex<Option<Session>>,
}

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Token({} in {})", self.label, self.module)
    }
}

/// The module a URI names: `module-path`, else `module-name`, else `default`.
pub(crate) fn module_path(uri: &KeyUri, default: Option<&str>) -> Result<String> {
    if let Some(p) = &uri.module_path {
        return Ok(p.clone());
    }
    if let Some(n) = &uri.module_name {
        return module::find_module(n);
    }
    default.map(str::to_string).ok_or_else(|| {
        BackendError::Unavailable(format!(
            "{uri}: no module named: add ?module-path=/path/to/module.so to the URI"
        ))
    })
}

impl Token {
    /// Open the token `uri` names in its module, logging in with `pin` when given (or
    /// when the token requires it, failing without one).
    pub fn open(
        uri: &KeyUri,
        default_module: Option<&str>,
        pin: Option<&[u8]>,
    ) -> Result<Arc<Token>> {
        let path = module_path(uri, default_module)?;
        let init = match (&uri.nss_db, module::is_nss_softoken(&path)) {
            // softoken's own report of a missing directory is an opaque vendor code.
            (Some(db), _) if !std::path::Path::new(db).is_dir() => {
                return Err(BackendError::Unavailable(format!(
                    "{uri}: NSS database directory {db}: no such directory"
                )))
            }
            (Some(db), _) => Some(module::nss_init_string(db)),
            (None, true) => {
                return Err(BackendError::Unavailable(format!(
                    "{uri}: NSS's softoken needs its database: add &x-nss-db=DIR to the URI \
                     (or give --nss-db DIR)"
                )))
            }
            (None, false) => None,
        };
        let ctx = module::load(&path, init.as_deref())?;
        let info = ctx
            .get_library_info()
            .map_err(|e| failed(&path, "C_GetInfo", &e))?;
        let v = info.library_version();
        let description = format!(
            "{} {} {}.{} (PKCS#11 module {path})",
            info.manufacturer_id().trim(),
            info.library_description().trim(),
            v.major(),
            v.minor()
        );
        let slots = ctx
            .get_slots_with_token()
            .map_err(|e| failed(&path, "C_GetSlotList", &e))?;
        let mut matching = Vec::new();
        let mut seen = Vec::new();
        for slot in slots {
            let Ok(t) = ctx.get_token_info(slot) else {
                continue;
            };
            let label = t.label().trim_end().to_string();
            seen.push(label.clone());
            let fits = |want: &Option<String>, have: &str| {
                want.as_deref().is_none_or(|w| w == have.trim_end())
            };
            if fits(&uri.token, &label)
                && fits(&uri.manufacturer, t.manufacturer_id())
                && fits(&uri.serial, t.serial_number())
                && fits(&uri.model, t.model())
                && uri.slot_id.is_none_or(|id| id == slot.id())
            {
                matching.push((slot, label, t.login_required(), t.user_pin_locked()));
            }
        }
        let (slot, label, login_required, locked) = match matching.len() {
            0 => {
                return Err(BackendError::Unavailable(format!(
                    "{uri}: no such token in {path} (its tokens: {})",
                    if seen.is_empty() {
                        "none".to_string()
                    } else {
                        seen.join(", ")
                    }
                )))
            }
            1 => matching.remove(0),
            n => {
                return Err(BackendError::Usage(format!(
                    "{uri}: {n} tokens of {path} match; name one with token=LABEL"
                )))
            }
        };
        if locked {
            return Err(BackendError::BadPassword(format!(
                "{uri}: the token's user PIN is locked (too many wrong PINs); its security \
                 officer must reset it"
            )));
        }
        let mechanisms = ctx.get_mechanism_list(slot).unwrap_or_default();
        let session = ctx
            .open_rw_session(slot)
            .map_err(|e| failed(&path, "C_OpenSession", &e))?;
        let login = match pin {
            Some(pin) => {
                let raw = RawAuthPin::new(Box::new(pin.to_vec()));
                match session.login_with_raw(UserType::User, &raw) {
                    Ok(()) | Err(Error::Pkcs11(RvError::UserAlreadyLoggedIn, _)) => Some(session),
                    Err(e) => return Err(login_failure(uri, &label, &path, &e)),
                }
            }
            None if login_required => {
                return Err(BackendError::PinNeeded(format!(
                    "{uri}: token {label} needs a PIN"
                )))
            }
            None => None,
        };
        Ok(Arc::new(Token {
            ctx,
            slot,
            module: path,
            label,
            description,
            mechanisms,
            _login: Mutex::new(login),
        }))
    }

    /// A new read-write session (logged in if the token is).
    pub fn session(&self) -> Result<Session> {
        self.ctx
            .open_rw_session(self.slot)
            .map_err(|e| failed(&self.module, "C_OpenSession", &e))
    }

    /// Whether the token lists mechanism `m` (C_GetMechanismList).
    pub fn offers(&self, m: MechanismType) -> bool {
        self.mechanisms.contains(&m)
    }

    /// `Ok` when the token offers `m`, else `Unsupported` naming the module and the
    /// mechanism (exit 5).
    pub fn require(&self, m: MechanismType, what: &str) -> Result<()> {
        if self.offers(m) {
            Ok(())
        } else {
            Err(BackendError::Unsupported(format!(
                "{what}: PKCS#11 module {} does not offer {m}",
                self.module
            )))
        }
    }
}

/// Why C_Login refused: a wrong PIN and a locked PIN are the user's to fix (exit 3, as a
/// wrong password); anything else is the module's failure.
fn login_failure(uri: &KeyUri, label: &str, module: &str, e: &Error) -> BackendError {
    match e {
        Error::Pkcs11(RvError::PinIncorrect | RvError::PinInvalid | RvError::PinLenRange, _) => {
            BackendError::BadPassword(format!("{uri}: wrong PIN for token {label}"))
        }
        Error::Pkcs11(RvError::PinLocked, _) => BackendError::BadPassword(format!(
            "{uri}: the token's user PIN is locked (too many wrong PINs); its security \
             officer must reset it"
        )),
        Error::Pkcs11(RvError::PinExpired, _) => BackendError::BadPassword(format!(
            "{uri}: the PIN of token {label} has expired; set a new one with the token's tools"
        )),
        e => failed(module, "C_Login", e),
    }
}

/// A PKCS#11 call that failed where it should not have.
pub(crate) fn failed(module: &str, call: &str, e: &Error) -> BackendError {
    BackendError::Crypto(format!("PKCS#11 module {module}: {call}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use cryptoki::context::Function;

    /// Neither SoftHSM2 nor NSS's softoken locks a PIN after wrong tries, so the CLI
    /// tests cannot make one; the mapping is checked here.
    #[test]
    fn login_refusals_say_what_the_user_must_do() {
        let uri = KeyUri::parse("pkcs11:token=T;object=k?pin-value=9999").unwrap();
        let shown = uri.without_pin();
        let cases = [
            (RvError::PinIncorrect, "wrong PIN"),
            (RvError::PinLocked, "locked"),
            (RvError::PinExpired, "expired"),
        ];
        for (rv, words) in cases {
            let e = login_failure(&shown, "T", "/m.so", &Error::Pkcs11(rv, Function::Login));
            assert!(
                matches!(&e, BackendError::BadPassword(m) if m.contains(words) && !m.contains("9999")),
                "{e}"
            );
        }
        let e = login_failure(
            &shown,
            "T",
            "/m.so",
            &Error::Pkcs11(RvError::DeviceError, Function::Login),
        );
        assert!(matches!(e, BackendError::Crypto(_)), "{e}");
    }
}
