//! libpq's TLS parameters that the `postgres` client's URL parser does not know: the
//! `sslmode` values `verify-ca` and `verify-full`, and `sslrootcert`. They are taken out
//! of the URL before the client parses it (it would refuse them) and become what the TLS
//! connector must check ([`ServerCheck`]); the client is left with `sslmode=require`, so
//! that it speaks TLS or nothing. `store` knows no cryptography: a check is a path and a
//! mode here, and the connector (`pki::backend::openssl::pg_tls`) does it.
//!
//! libpq's rules, as its documentation gives them:
//! - `verify-ca`: the server's chain must verify to the roots; `verify-full`: and the
//!   certificate must name the host the URL connects to.
//! - The roots are the PEM certificates in `sslrootcert=FILE`, by default
//!   `~/.postgresql/root.crt`; `sslrootcert=system` is the system's trusted certificates,
//!   and with it any `sslmode` but `verify-full` is refused (a name any public CA vouches
//!   for is the only thing worth checking there), `verify-full` being its default.
//! - `require` (and `prefer`, whenever TLS is used) with a root file that exists checks
//!   the chain as `verify-ca` does: libpq's rule for users who made the file before
//!   `verify-ca` existed. A file `sslrootcert` names must exist in every mode but
//!   `disable`: libpq would go on without checking, which a typo should not buy.

use percent_encoding::percent_decode_str;
use std::fmt;
use std::path::{Path, PathBuf};

/// The certificates a server's chain must end at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Roots {
    /// CA certificates in a PEM file.
    File(PathBuf),
    /// The system's trusted certificates (`sslrootcert=system`).
    System,
}

impl fmt::Display for Roots {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Roots::File(p) => write!(f, "{}", p.display()),
            Roots::System => f.write_str("the system's trusted certificates"),
        }
    }
}

/// What a server must prove over TLS before the client sends it anything.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerCheck {
    /// Its chain must verify to these.
    pub roots: Roots,
    /// `verify-full`: its certificate must also name the host connected to.
    pub host: bool,
}

/// libpq's `sslmode` values that pkit takes (`allow`, plain text first, the client
/// cannot do).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Disable,
    Prefer,
    Require,
    VerifyCa,
    VerifyFull,
}

impl Mode {
    fn parse(v: &str) -> Result<Mode, String> {
        Ok(match v {
            "disable" => Mode::Disable,
            "prefer" => Mode::Prefer,
            "require" => Mode::Require,
            "verify-ca" => Mode::VerifyCa,
            "verify-full" => Mode::VerifyFull,
            other => {
                return Err(format!(
                    "sslmode {other:?}: expected disable, prefer, require, verify-ca or \
                     verify-full"
                ))
            }
        })
    }

    fn name(self) -> &'static str {
        match self {
            Mode::Disable => "disable",
            Mode::Prefer => "prefer",
            Mode::Require => "require",
            Mode::VerifyCa => "verify-ca",
            Mode::VerifyFull => "verify-full",
        }
    }

    /// The mode the client is given: it speaks TLS for the checks, which are ours.
    fn for_client(self) -> &'static str {
        match self {
            Mode::VerifyCa | Mode::VerifyFull => "require",
            m => m.name(),
        }
    }
}

/// A URL component decoded as the client decodes it.
fn decode(s: &str) -> Result<String, String> {
    percent_decode_str(s)
        .decode_utf8()
        .map(|c| c.into_owned())
        .map_err(|_| "a URL parameter is not UTF-8 once decoded".to_string())
}

/// `url` without `sslmode` and `sslrootcert` (and with the `sslmode` the client is to
/// use), and the check they ask for. `home` is where `.postgresql/root.crt` is looked
/// for when `sslrootcert` is not given. The error is one line that does not repeat the
/// URL (the caller names it).
pub(crate) fn take_tls_params(
    url: &str,
    home: Option<&Path>,
) -> Result<(String, Option<ServerCheck>), String> {
    let (base, query) = split_query(url);
    let mut kept = Vec::new();
    let mut mode = None;
    let mut rootcert = None;
    for item in query.split('&').filter(|i| !i.is_empty()) {
        let (k, v) = item.split_once('=').unwrap_or((item, ""));
        match decode(k)?.as_str() {
            "sslmode" => mode = Some(Mode::parse(&decode(v)?)?),
            "sslrootcert" => rootcert = Some(decode(v)?),
            _ => kept.push(item.to_string()),
        }
    }
    // libpq: an empty sslrootcert is the default one.
    let rootcert = rootcert.filter(|r| !r.is_empty());
    let system = rootcert.as_deref() == Some("system");
    let mode = match (mode, system) {
        (None, true) => Some(Mode::VerifyFull),
        (Some(m), true) if m != Mode::VerifyFull => {
            return Err(format!(
                "sslmode={} is too weak for sslrootcert=system (use sslmode=verify-full)",
                m.name()
            ))
        }
        (m, _) => m,
    };
    let explicit = rootcert.is_some();
    let roots = match rootcert {
        Some(_) if system => Some(Roots::System),
        Some(path) => Some(Roots::File(PathBuf::from(path))),
        None => home.map(|h| Roots::File(h.join(".postgresql").join("root.crt"))),
    };
    let check = match mode.unwrap_or(Mode::Prefer) {
        Mode::Disable => None,
        m @ (Mode::VerifyCa | Mode::VerifyFull) => {
            let roots = roots.ok_or_else(|| {
                format!(
                    "sslmode={} needs the server's CA certificates: no sslrootcert, and no \
                     home directory for ~/.postgresql/root.crt",
                    m.name()
                )
            })?;
            if let Roots::File(p) = &roots {
                must_exist(p, explicit)?;
            }
            Some(ServerCheck {
                roots,
                host: m == Mode::VerifyFull,
            })
        }
        Mode::Prefer | Mode::Require => match roots {
            Some(Roots::File(p)) if explicit || p.exists() => {
                must_exist(&p, explicit)?;
                Some(ServerCheck {
                    roots: Roots::File(p),
                    host: false,
                })
            }
            _ => None,
        },
    };
    if let Some(m) = mode {
        kept.push(format!("sslmode={}", m.for_client()));
    }
    let url = if kept.is_empty() {
        base.to_string()
    } else {
        format!("{base}?{}", kept.join("&"))
    };
    Ok((url, check))
}

/// `url` before its query, and the query, where the client finds them: its user part
/// runs to the first `@` (a password may hold a `?`), the query from the next `?`.
fn split_query(url: &str) -> (&str, &str) {
    let after_scheme = url.find("://").map_or(0, |i| i + 3);
    let after_user = url[after_scheme..]
        .find('@')
        .map_or(after_scheme, |i| after_scheme + i + 1);
    match url[after_user..].find('?') {
        Some(i) => (&url[..after_user + i], &url[after_user + i + 1..]),
        None => (url, ""),
    }
}

/// The root file `path` is there to be read; `explicit`: `sslrootcert` named it (else it
/// is the default one).
fn must_exist(path: &Path, explicit: bool) -> Result<(), String> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => Ok(()),
        Ok(_) => Err(format!("sslrootcert {}: not a file", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(if explicit {
            format!("sslrootcert {}: no such file", path.display())
        } else {
            format!(
                "no sslrootcert, and the default {} does not exist (name the server's CA \
                 certificates with sslrootcert=FILE, or sslrootcert=system)",
                path.display()
            )
        }),
        Err(e) => Err(format!("sslrootcert {}: {e}", path.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A directory with `.postgresql/root.crt` in it when `with_root`.
    fn home(with_root: bool) -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        if with_root {
            std::fs::create_dir(d.path().join(".postgresql")).unwrap();
            std::fs::write(d.path().join(".postgresql/root.crt"), "x").unwrap();
        }
        d
    }

    fn take(url: &str, home: &Path) -> Result<(String, Option<ServerCheck>), String> {
        take_tls_params(url, Some(home))
    }

    #[test]
    fn verify_modes_are_taken_out_and_leave_require() {
        let h = home(false);
        let root = h.path().join("ca.pem");
        std::fs::write(&root, "x").unwrap();
        let url = format!(
            "postgres://ca@db.example/pkit?connect_timeout=3&sslmode=verify-full&sslrootcert={}\
             &application_name=a",
            root.display()
        );
        let (clean, check) = take(&url, h.path()).unwrap();
        assert_eq!(
            clean,
            "postgres://ca@db.example/pkit?connect_timeout=3&application_name=a&sslmode=require"
        );
        assert_eq!(
            check,
            Some(ServerCheck {
                roots: Roots::File(root.clone()),
                host: true
            })
        );
        let url = format!(
            "postgres://h/db?sslmode=verify-ca&sslrootcert={}",
            root.display()
        );
        let (clean, check) = take(&url, h.path()).unwrap();
        assert_eq!(clean, "postgres://h/db?sslmode=require");
        assert_eq!(check.map(|c| c.host), Some(false));
    }

    #[test]
    fn the_path_is_percent_decoded() {
        let h = home(false);
        let root = h.path().join("my roots.pem");
        std::fs::write(&root, "x").unwrap();
        let encoded = root.display().to_string().replace(' ', "%20");
        let (_, check) = take(
            &format!("postgres://h/db?sslmode=verify-ca&sslrootcert={encoded}"),
            h.path(),
        )
        .unwrap();
        assert_eq!(check.map(|c| c.roots), Some(Roots::File(root)));
    }

    #[test]
    fn the_default_root_file_is_in_home() {
        let h = home(true);
        let (clean, check) = take("postgres://h/db?sslmode=verify-full", h.path()).unwrap();
        assert_eq!(clean, "postgres://h/db?sslmode=require");
        assert_eq!(
            check.map(|c| c.roots),
            Some(Roots::File(h.path().join(".postgresql/root.crt")))
        );
        // Without one, the line names it.
        let bare = home(false);
        let e = take("postgres://h/db?sslmode=verify-ca", bare.path()).unwrap_err();
        assert!(
            e.contains(".postgresql/root.crt") && e.contains("does not exist"),
            "{e}"
        );
        let e = take_tls_params("postgres://h/db?sslmode=verify-ca", None).unwrap_err();
        assert!(e.contains("no home directory"), "{e}");
    }

    #[test]
    fn a_missing_named_file_is_one_line_naming_it() {
        let h = home(true);
        for mode in ["verify-full", "verify-ca", "require", "prefer"] {
            let e = take(
                &format!("postgres://h/db?sslmode={mode}&sslrootcert=/nonexistent/r.crt"),
                h.path(),
            )
            .unwrap_err();
            assert_eq!(e, "sslrootcert /nonexistent/r.crt: no such file");
        }
        // `disable` never looks at it.
        let (clean, check) = take(
            "postgres://h/db?sslrootcert=/nonexistent/r.crt&sslmode=disable",
            h.path(),
        )
        .unwrap();
        assert_eq!(
            (clean.as_str(), check),
            ("postgres://h/db?sslmode=disable", None)
        );
    }

    #[test]
    fn require_checks_the_chain_when_a_root_file_exists() {
        let (clean, check) = take("postgres://h/db?sslmode=require", home(false).path()).unwrap();
        assert_eq!(
            (clean.as_str(), check),
            ("postgres://h/db?sslmode=require", None)
        );
        let h = home(true);
        let (clean, check) = take("postgres://h/db?sslmode=require", h.path()).unwrap();
        assert_eq!(clean, "postgres://h/db?sslmode=require");
        assert_eq!(check.map(|c| c.host), Some(false));
        // No sslmode at all: the client's default (prefer) stays unnamed.
        let (clean, check) = take("postgres://h/db", h.path()).unwrap();
        assert_eq!(clean, "postgres://h/db");
        assert!(check.is_some());
    }

    #[test]
    fn system_roots_want_verify_full() {
        let h = home(false);
        let (clean, check) = take("postgres://h/db?sslrootcert=system", h.path()).unwrap();
        assert_eq!(clean, "postgres://h/db?sslmode=require");
        assert_eq!(
            check,
            Some(ServerCheck {
                roots: Roots::System,
                host: true
            })
        );
        for weak in ["verify-ca", "require", "prefer", "disable"] {
            let e = take(
                &format!("postgres://h/db?sslrootcert=system&sslmode={weak}"),
                h.path(),
            )
            .unwrap_err();
            assert!(e.contains("too weak") && e.contains(weak), "{e}");
        }
    }

    #[test]
    fn unknown_modes_are_refused_in_one_line() {
        let h = home(false);
        for bad in ["allow", "verify_full", "VERIFY-FULL", "", "require\nx"] {
            let e = take(
                &format!("postgres://h/db?sslmode={}", bad.replace('\n', "%0A")),
                h.path(),
            )
            .unwrap_err();
            assert!(e.starts_with("sslmode ") && e.contains("expected"), "{e}");
            assert_eq!(e.lines().count(), 1, "{e}");
        }
    }

    #[test]
    fn a_question_mark_in_the_password_is_not_the_query() {
        let h = home(false);
        let (clean, check) = take("postgres://u:p?w@h/db?sslrootcert=system", h.path()).unwrap();
        assert_eq!(clean, "postgres://u:p?w@h/db?sslmode=require");
        assert!(check.is_some());
        assert_eq!(
            take("postgres://u:p?w@h/db", h.path()).unwrap(),
            ("postgres://u:p?w@h/db".to_string(), None)
        );
    }

    #[test]
    fn other_parameters_pass_untouched() {
        let h = home(false);
        let url = "postgres://u@h/db?password=p%26q&application_name=x%20y";
        assert_eq!(take(url, h.path()).unwrap(), (url.to_string(), None));
        assert_eq!(
            take("postgres://u@h/db", h.path()).unwrap(),
            ("postgres://u@h/db".to_string(), None)
        );
    }
}
