//! Throwaway tokens in a temporary directory, for `pkit bench --backend softhsm|nss`:
//! a fresh SoftHSM2 token, or a fresh NSS database, each logged into with a PIN made up
//! here. Nothing outside the directory is touched.

use super::module::{self, NSS_SOFTOKEN_MODULE, SOFTHSM_MODULE};
use super::token::{failed, Token};
use super::uri::KeyUri;
use cryptoki::context::Pkcs11;
use cryptoki::session::UserType;
use cryptoki::slot::Slot;
use cryptoki::types::AuthPin;
use pkit_x509::backend::{BackendError, Result};
use std::path::Path;
use std::sync::Arc;

/// The user PIN of scratch tokens (they live only as long as their directory).
pub const SCRATCH_PIN: &str = "pkit-scratch";
const SCRATCH_SO_PIN: &str = "pkit-scratch-so";
const SCRATCH_LABEL: &str = "pkit scratch";

/// The SoftHSM2 configuration file for a token directory under `dir`. SoftHSM2 reads the
/// file named by `SOFTHSM2_CONF` when it is initialised, so the caller must set that
/// variable to the returned path before the module is first loaded (and before other
/// threads start).
pub fn softhsm_config(dir: &Path) -> Result<std::path::PathBuf> {
    let tokens = dir.join("tokens");
    let io = |e: std::io::Error| BackendError::Unavailable(format!("{}: {e}", dir.display()));
    std::fs::create_dir_all(&tokens).map_err(io)?;
    let conf = dir.join("softhsm2.conf");
    std::fs::write(
        &conf,
        format!(
            "directories.tokendir = {}\nobjectstore.backend = file\nlog.level = ERROR\n",
            tokens.display()
        ),
    )
    .map_err(io)?;
    Ok(conf)
}

/// A new SoftHSM2 token in the free slot, its user PIN [`SCRATCH_PIN`]. `SOFTHSM2_CONF`
/// must name a configuration from [`softhsm_config`].
pub fn softhsm_token() -> Result<Arc<Token>> {
    let ctx = module::load(SOFTHSM_MODULE, None)?;
    let slot = ctx
        .get_slots_with_token()
        .map_err(|e| failed(SOFTHSM_MODULE, "C_GetSlotList", &e))?
        .into_iter()
        .find(|&s| ctx.get_token_info(s).is_ok_and(|t| !t.token_initialized()))
        .ok_or_else(|| {
            BackendError::Unavailable(format!("{SOFTHSM_MODULE}: no free slot for a token"))
        })?;
    let so = AuthPin::from(SCRATCH_SO_PIN.to_string());
    ctx.init_token(slot, &so, SCRATCH_LABEL)
        .map_err(|e| failed(SOFTHSM_MODULE, "C_InitToken", &e))?;
    // The slot is renumbered once its token is initialised: find it by its label.
    let slot = slot_labelled(&ctx, SOFTHSM_MODULE, SCRATCH_LABEL)?;
    let session = ctx
        .open_rw_session(slot)
        .map_err(|e| failed(SOFTHSM_MODULE, "C_OpenSession", &e))?;
    session
        .login(UserType::So, Some(&so))
        .and_then(|()| session.init_pin(&AuthPin::from(SCRATCH_PIN.to_string())))
        .and_then(|()| session.logout())
        .map_err(|e| failed(SOFTHSM_MODULE, "C_InitPIN", &e))?;
    drop(session);
    let uri = KeyUri {
        token: Some(SCRATCH_LABEL.into()),
        module_path: Some(SOFTHSM_MODULE.into()),
        ..KeyUri::default()
    };
    Token::open(&uri, None, Some(SCRATCH_PIN.as_bytes()))
}

/// The slot whose token is labelled `label` in the module at `path`.
fn slot_labelled(ctx: &Pkcs11, path: &str, label: &str) -> Result<Slot> {
    ctx.get_slots_with_token()
        .map_err(|e| failed(path, "C_GetSlotList", &e))?
        .into_iter()
        .find(|&s| {
            ctx.get_token_info(s)
                .is_ok_and(|t| t.label().trim_end() == label)
        })
        .ok_or_else(|| BackendError::Unavailable(format!("{path}: no token labelled '{label}'")))
}

/// The token label of NSS softoken's key database.
pub const NSS_KEY_TOKEN: &str = "NSS Certificate DB";

/// NSS's key token on the database in `db_dir` (created there when it is not one yet),
/// its password set to [`SCRATCH_PIN`] when it had none.
pub fn nss_token(db_dir: &Path) -> Result<Arc<Token>> {
    let db = db_dir.display().to_string();
    std::fs::create_dir_all(db_dir).map_err(|e| BackendError::Unavailable(format!("{db}: {e}")))?;
    let ctx = module::load(NSS_SOFTOKEN_MODULE, Some(&module::nss_init_string(&db)))?;
    let slot = slot_labelled(&ctx, NSS_SOFTOKEN_MODULE, NSS_KEY_TOKEN)?;
    let info = ctx
        .get_token_info(slot)
        .map_err(|e| failed(NSS_SOFTOKEN_MODULE, "C_GetTokenInfo", &e))?;
    if !info.user_pin_initialized() {
        // A new database: its security officer logs in with the empty PIN and sets the
        // user's (what `certutil -N` does).
        let session = ctx
            .open_rw_session(slot)
            .map_err(|e| failed(NSS_SOFTOKEN_MODULE, "C_OpenSession", &e))?;
        session
            .login(UserType::So, Some(&AuthPin::from(String::new())))
            .and_then(|()| session.init_pin(&AuthPin::from(SCRATCH_PIN.to_string())))
            .and_then(|()| session.logout())
            .map_err(|e| failed(NSS_SOFTOKEN_MODULE, "C_InitPIN", &e))?;
    }
    let uri = KeyUri {
        token: Some(NSS_KEY_TOKEN.into()),
        module_path: Some(NSS_SOFTOKEN_MODULE.into()),
        nss_db: Some(db),
        ..KeyUri::default()
    };
    Token::open(&uri, None, Some(SCRATCH_PIN.as_bytes()))
}
