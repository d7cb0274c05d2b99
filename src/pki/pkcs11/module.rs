//! Loading a PKCS#11 module. A module is initialised once per process (a second
//! C_Initialize is an error), so loaded modules are kept for the life of the process,
//! one per (path, initialisation string).

use cryptoki::context::{CInitializeArgs, CInitializeFlags, Pkcs11};
use cryptoki::error::{Error, RvError};
use pkit_x509::backend::{BackendError, Result};
use std::collections::HashMap;
use std::ffi::CString;
use std::path::Path;
use std::sync::{Mutex, OnceLock};

/// Where Debian puts SoftHSM's module, one of the two pkit is tested with;
/// `--backend softhsm` and `module-name=` find it here.
pub const SOFTHSM_MODULE: &str = "/usr/lib/softhsm/libsofthsm2.so";
/// Where Debian puts NSS's softoken module, the other one pkit is tested with;
/// `--backend nss` and `module-name=` find it here.
pub const NSS_SOFTOKEN_MODULE: &str = "/usr/lib/x86_64-linux-gnu/libsoftokn3.so";

/// Directories searched for `module-name=NAME` (as `NAME.so` and `libNAME.so`): p11-kit's
/// module directory and the usual library directories.
const MODULE_DIRS: &[&str] = &[
    "/usr/lib/x86_64-linux-gnu/pkcs11",
    "/usr/lib/softhsm",
    "/usr/lib/x86_64-linux-gnu",
    "/usr/lib64/pkcs11",
    "/usr/lib64",
    "/usr/lib/pkcs11",
    "/usr/lib",
];

/// The path of the module called `name` (`softhsm2`, `softokn3`, `opensc-pkcs11`…).
pub fn find_module(name: &str) -> Result<String> {
    let candidates = [format!("{name}.so"), format!("lib{name}.so")];
    MODULE_DIRS
        .iter()
        .flat_map(|d| candidates.iter().map(move |c| Path::new(d).join(c)))
        .find(|p| p.is_file())
        .map(|p| p.display().to_string())
        .ok_or_else(|| {
            BackendError::Unavailable(format!(
                "no PKCS#11 module named {name} in {}",
                MODULE_DIRS.join(", ")
            ))
        })
}

/// NSS's softoken reads its database directory from the initialisation string passed in
/// C_Initialize's reserved argument (what NSS itself passes when it loads softoken).
pub fn nss_init_string(db_dir: &str) -> String {
    format!(
        "configdir='sql:{db_dir}' certPrefix='' keyPrefix='' secmod='secmod.db' \
         flags=noModDB"
    )
}

/// Whether `path` is NSS's softoken, which needs an initialisation string.
pub fn is_nss_softoken(path: &str) -> bool {
    Path::new(path)
        .file_name()
        .is_some_and(|f| f.to_string_lossy().starts_with("libsoftokn3"))
}

type Loaded = HashMap<(String, Option<String>), Pkcs11>;

/// The module at `path`, loaded and initialised (with `init` as its reserved argument
/// when given); the same context on every later call.
pub fn load(path: &str, init: Option<&str>) -> Result<Pkcs11> {
    static LOADED: OnceLock<Mutex<Loaded>> = OnceLock::new();
    let mut loaded = LOADED
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let key = (path.to_string(), init.map(str::to_string));
    if let Some(ctx) = loaded.get(&key) {
        return Ok(ctx.clone());
    }
    // A module is initialised once per process: a second initialisation string (another
    // NSS database) would be ignored and the first one's tokens used instead.
    if loaded.keys().any(|(p, _)| p == path) {
        return Err(BackendError::Usage(format!(
            "PKCS#11 module {path} is already initialised with another database in this \
             run; one command can use one database of it"
        )));
    }
    if !Path::new(path).is_file() {
        return Err(BackendError::Unavailable(format!(
            "PKCS#11 module {path}: no such file"
        )));
    }
    let ctx = Pkcs11::new(path).map_err(|e| {
        BackendError::BadKey(format!(
            "{path} is not a PKCS#11 module: {}",
            load_error(&e)
        ))
    })?;
    let flags = CInitializeFlags::OS_LOCKING_OK;
    let result = match init {
        None => ctx.initialize(CInitializeArgs::new(flags)),
        Some(s) => {
            // The string must outlive C_Initialize only; softoken copies what it needs.
            let c = CString::new(s)
                .map_err(|_| BackendError::Usage("an init string with a NUL byte".into()))?;
            let reserved = std::ptr::NonNull::new(c.as_ptr() as *mut std::ffi::c_void)
                .ok_or_else(|| BackendError::Crypto("a null init string".into()))?;
            // SAFETY: `reserved` points at a NUL-terminated string that lives until the
            // call returns, which is what softoken reads through pReserved.
            let args = unsafe { CInitializeArgs::new_with_reserved(flags, reserved) };
            ctx.initialize(args)
        }
    };
    match result {
        Ok(()) | Err(Error::Pkcs11(RvError::CryptokiAlreadyInitialized, _)) => {}
        Err(e) => {
            return Err(BackendError::Unavailable(format!(
                "PKCS#11 module {path}: C_Initialize failed: {e}"
            )))
        }
    }
    loaded.insert(key, ctx.clone());
    Ok(ctx)
}

/// libloading's message without its noise (the whole dlerror text is long).
fn load_error(e: &Error) -> String {
    let s = e.to_string();
    s.lines().next().unwrap_or("").to_string()
}
