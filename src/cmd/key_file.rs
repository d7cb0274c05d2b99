//! Reading a private key file: [`load_private_key`] is the one way every subcommand does
//! (PEM, DER or base64; PKCS#8, encrypted PKCS#8 or traditional RSA/EC; or a key in a
//! PKCS#11 token named by URI).

use super::error::{CliError, CliResult};
use super::io::{self, InForm};
use super::token;
use pkit::pki::backend::{Backend, PrivateKey};
use pkit::pki::key;
use std::path::Path;

/// Read a private key from `path` (`-` for stdin): PEM (the first private key block of a
/// bundle), DER or base64; PKCS#8, encrypted PKCS#8, or traditional RSA/EC. `passin` is a
/// password source (`pass:`, `env:`, `file:`, `fd:`). An encrypted key without `passin`
/// is an error (exit 3): pkit never prompts. Errors are one line naming the file.
///
/// `path` may also be a PKCS#11 URI, or a file holding one (a CA directory's `ca.key`
/// for a key in a token): the key is then the token's, reached with `pin`.
pub fn load_private_key(
    be: &Backend,
    path: &Path,
    passin: Option<&str>,
    pin: Option<&str>,
) -> CliResult<Box<dyn PrivateKey>> {
    load_private_key_with_flag(be, path, passin, pin, "--passin")
}

/// [`load_private_key`] for a key whose password the flag `passin_flag` gives (`issue ca
/// --parent`'s `--parent-passin`): the hint for a missing password names it.
pub fn load_private_key_with_flag(
    be: &Backend,
    path: &Path,
    passin: Option<&str>,
    pin: Option<&str>,
    passin_flag: &str,
) -> CliResult<Box<dyn PrivateKey>> {
    if let Some(text) = path.to_str().filter(|t| token::is_pkcs11_uri(t)) {
        return token::load_key(text, pin);
    }
    let src = io::read_source(path)?;
    if let Some(text) = std::str::from_utf8(&src.data)
        .ok()
        .map(str::trim)
        .filter(|t| token::is_pkcs11_uri(t))
    {
        return token::load_key(text, pin);
    }
    let name = src.name.clone();
    let mut first_err = None;
    let mut found = None;
    for item in io::split_items(src, InForm::Auto) {
        match item {
            Ok(i) if key::load::may_be_private_key(i.label.as_deref()) => {
                found = Some(i);
                break;
            }
            Ok(_) => {}
            Err(e) => {
                first_err.get_or_insert(e);
            }
        }
    }
    let Some(item) = found else {
        return Err(first_err.unwrap_or_else(|| {
            CliError::parse(format!(
                "{name}: no private key found (expected a PRIVATE KEY PEM block or DER PKCS#8)"
            ))
        }));
    };
    let encrypted = key::load::is_encrypted_key(item.label.as_deref(), &item.der);
    let mut password = match passin {
        Some(spec) => Some(io::read_secret(spec)?),
        // At a terminal, ask (without echo); a script gets an error instead of a hang.
        None if encrypted && io::stdin_is_terminal() => Some(
            rpassword::prompt_password(format!("Password for {name}: "))
                .map(String::into_bytes)
                .map_err(|e| CliError::io_at("the terminal", &e))?,
        ),
        None if encrypted => {
            return Err(CliError::parse(format!(
                "{name}: the private key is encrypted; a password is needed ({passin_flag} \
                 pass:TEXT, env:VAR, file:PATH or fd:N, or run at a terminal to be asked)"
            )))
        }
        None => None,
    };
    let loaded = key::load::load_private(be, &item.der, password.as_deref());
    if let Some(pw) = password.as_mut() {
        pw.fill(0);
    }
    let key = loaded.map_err(|e| {
        let mut err = CliError::from(e);
        err.message = format!("{}: {}", item.name, err.message);
        err
    })?;
    warn_if_readable_by_others(path);
    Ok(key)
}

/// A private key file that other users can read is one they may have copied: say so,
/// naming it (as ssh does), and go on.
fn warn_if_readable_by_others(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let Ok(meta) = std::fs::metadata(path) else {
        return;
    };
    let mode = meta.permissions().mode();
    if meta.is_file() && mode & 0o044 != 0 {
        note!(
            "pkit: warning: {}: the private key is readable by other users (mode {:03o}); \
             chmod 600 it",
            path.display(),
            mode & 0o777
        );
    }
}
