//! Throwaway tokens in a temporary directory, for `pkit bench --backend softhsm|nss`:
//! a fresh SoftHSM2 token, or a fresh NSS database, each logged into with a PIN made up
//! here. Nothing outside the directory is touched. [`bench_token`] picks one as the
//! benchmarks' `--backend` asks (or an NSS database of the caller's).

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

/// The token a benchmark runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BenchToken<'a> {
    /// A fresh SoftHSM2 token.
    Softhsm,
    /// NSS's softoken: a fresh database, or the one in `db` (logged into with the PIN
    /// the caller gives).
    Nss {
        /// An existing NSS database directory to use instead of a fresh one.
        db: Option<&'a Path>,
    },
}

/// The token `which` names for a benchmark run, its scratch files under `dir`
/// (`dir/softhsm`, `dir/nss`). Its module must be installed (else
/// [`BackendError::Unsupported`] names the Debian package). An existing NSS database is
/// logged into with what `pin` reads, asked only then; the secret is wiped once used.
///
/// SoftHSM2 reads its configuration once, when it is first loaded: this sets
/// `SOFTHSM2_CONF` to a scratch configuration, so call it before other threads read the
/// environment and before anything else in the process loads SoftHSM2.
pub fn bench_token<E: From<BackendError>>(
    which: BenchToken<'_>,
    dir: &Path,
    pin: impl FnOnce() -> std::result::Result<Option<Vec<u8>>, E>,
) -> std::result::Result<Arc<Token>, E> {
    match which {
        BenchToken::Softhsm => {
            require_module(SOFTHSM_MODULE, "softhsm2")?;
            let conf = softhsm_config(&dir.join("softhsm"))?;
            std::env::set_var("SOFTHSM2_CONF", conf);
            Ok(softhsm_token()?)
        }
        BenchToken::Nss { db: None } => {
            require_module(NSS_SOFTOKEN_MODULE, "libnss3")?;
            Ok(nss_token(&dir.join("nss"))?)
        }
        BenchToken::Nss { db: Some(db) } => {
            require_module(NSS_SOFTOKEN_MODULE, "libnss3")?;
            let uri = KeyUri {
                token: Some(NSS_KEY_TOKEN.into()),
                module_path: Some(NSS_SOFTOKEN_MODULE.into()),
                nss_db: Some(db.display().to_string()),
                ..KeyUri::default()
            };
            let mut secret = pin()?;
            let opened = Token::open(&uri, None, secret.as_deref());
            if let Some(s) = secret.as_mut() {
                s.fill(0);
            }
            Ok(opened?)
        }
    }
}

/// The module at `path` is installed, or the benchmark cannot run on it.
fn require_module(path: &str, package: &str) -> Result<()> {
    if Path::new(path).is_file() {
        Ok(())
    } else {
        Err(BackendError::Unsupported(format!(
            "{path} is not installed (Debian package {package})"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_module_not_installed_is_unsupported() {
        let e = require_module("/nonexistent/libnothing.so", "nothing").unwrap_err();
        assert_eq!(
            e,
            BackendError::Unsupported(
                "/nonexistent/libnothing.so is not installed (Debian package nothing)".into()
            )
        );
    }
}
