//! `pkit key`: generate private keys (PKCS#8, optionally password-encrypted) and extract
//! public keys. [`load_private_key`] is the one way every subcommand reads a key file.

use super::error::{CliError, CliResult, Exit, EXIT_CODES_HELP};
use super::io::{self, InForm, OutputOpts};
use super::token;
use clap::builder::{PossibleValue, TypedValueParser};
use clap::{Args, Subcommand, ValueEnum};
use pkit::pki::alg::Algorithm;
use pkit::pki::backend::{Backend, PrivateKey};
use pkit::pki::key::{self, KdfChoice, MlDsaKeyFormat};
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
#[command(after_help = EXIT_CODES_HELP)]
pub struct KeyArgs {
    #[command(subcommand)]
    pub command: KeyCommand,
}

#[derive(Subcommand, Debug)]
pub enum KeyCommand {
    /// Generate a private key and write it as PKCS#8 (PEM by default, mode 0600).
    #[command(after_help = EXIT_CODES_HELP)]
    Gen(GenArgs),
    /// Write the public key (SubjectPublicKeyInfo) of a private key.
    #[command(after_help = EXIT_CODES_HELP)]
    Pub(PubArgs),
    /// Write a key, its certificate and chain as a PKCS#12 file (PBES2 AES-256, HMAC-SHA-256
    /// MAC), for Java keystores, Windows and browsers.
    #[command(after_help = EXIT_CODES_HELP)]
    P12(super::p12::P12Args),
}

#[derive(Args, Debug)]
pub struct GenArgs {
    /// Key algorithm. Case-insensitive; OpenSSL spellings also work (prime256v1,
    /// secp384r1, ED25519, rsa:3072, ML-DSA-65, mldsa87…).
    #[arg(short, long, value_name = "ALG", value_parser = AlgorithmParser)]
    pub alg: Algorithm,

    /// Write the key to FILE (created with mode 0600) instead of stdout. A PKCS#11 URI
    /// (`pkcs11:token=…;object=LABEL?module-path=…`) generates the key in that token
    /// instead (sensitive, never extractable) and prints its public key.
    #[arg(short, long, value_name = "FILE|URI")]
    pub out: Option<PathBuf>,

    /// PIN of the token for `-o pkcs11:…` (pass:, env:, file:, fd:); default: the URI's
    /// pin-value or pin-source.
    #[arg(long, value_name = "SRC")]
    pub pin: Option<String>,

    /// Encrypt the key (PKCS#8 PBES2, AES-256-CBC) with the password from SRC:
    /// pass:TEXT, env:VAR, file:PATH (first line) or fd:N.
    #[arg(long, value_name = "SRC")]
    pub passout: Option<String>,

    /// Password-based key derivation for --passout.
    #[arg(long, value_enum, default_value_t = KdfArg::Pbkdf2, requires = "passout")]
    pub kdf: KdfArg,

    /// How an ML-DSA private key is stored (RFC 9881 §6); seed by default.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub mldsa_key_format: Option<MlDsaFormatArg>,

    /// Output encoding.
    #[arg(long, value_enum, default_value_t = OutForm::Pem)]
    pub outform: OutForm,

    /// Overwrite the output file if it exists.
    #[arg(long)]
    pub force: bool,
}

#[derive(Args, Debug)]
pub struct PubArgs {
    /// The private key: PKCS#8 (encrypted or not) or a traditional RSA/EC key, as PEM or
    /// DER; `-` reads stdin.
    #[arg(value_name = "KEY")]
    pub key: PathBuf,

    /// Password of an encrypted key: pass:TEXT, env:VAR, file:PATH (first line) or fd:N.
    #[arg(long, value_name = "SRC")]
    pub passin: Option<String>,
    /// PIN of the PKCS#11 token that holds the key (pass:, env:, file:, fd:); default: the
    /// key URI's pin-value or pin-source.
    #[arg(long, value_name = "SRC")]
    pub pin: Option<String>,

    /// Write the public key to FILE instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    pub out: Option<PathBuf>,

    /// Output encoding.
    #[arg(long, value_enum, default_value_t = OutForm::Pem)]
    pub outform: OutForm,

    /// Overwrite the output file if it exists.
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum KdfArg {
    /// PBKDF2 with HMAC-SHA256, 100000 iterations (readable by OpenSSL 1.1 and later).
    Pbkdf2,
    /// scrypt with N=2^14, r=8, p=1 (memory-hard; what `openssl pkcs8 -scrypt` writes).
    Scrypt,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MlDsaFormatArg {
    /// The 32-byte seed the key expands from (smallest; the default).
    Seed,
    /// The expanded private key only (for software that cannot expand a seed).
    Expanded,
    /// Both the seed and the expanded key.
    Both,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutForm {
    /// PEM armour (text).
    Pem,
    /// Binary DER (never written to a terminal).
    Der,
}

/// `--alg`: any spelling [`Algorithm::from_name`] accepts; help and completions list the
/// canonical names. An unknown name is a usage error (exit 2) listing them.
#[derive(Clone, Debug)]
pub struct AlgorithmParser;

impl TypedValueParser for AlgorithmParser {
    type Value = Algorithm;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Algorithm, clap::Error> {
        let s = value.to_string_lossy();
        Algorithm::from_name(&s).ok_or_else(|| {
            clap::Error::raw(
                clap::error::ErrorKind::InvalidValue,
                format!(
                    "unknown algorithm '{s}' for --alg; valid: {}\n",
                    Algorithm::names_list()
                ),
            )
            .with_cmd(cmd)
        })
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            Algorithm::ALL
                .into_iter()
                .map(|a| PossibleValue::new(a.name())),
        ))
    }
}

pub fn run(be: &Backend, a: KeyArgs) -> CliResult<Exit> {
    match a.command {
        KeyCommand::Gen(g) => gen(be, g),
        KeyCommand::Pub(p) => public(be, p),
        KeyCommand::P12(p) => super::p12::run(be, p),
    }
}

fn gen(be: &Backend, a: GenArgs) -> CliResult<Exit> {
    if let Some(uri) = a
        .out
        .as_deref()
        .and_then(Path::to_str)
        .filter(|o| token::is_pkcs11_uri(o))
    {
        return gen_in_token(&a, uri);
    }
    let format = match (a.mldsa_key_format, a.alg.is_ml_dsa()) {
        (None, _) => MlDsaKeyFormat::default(),
        (Some(f), true) => match f {
            MlDsaFormatArg::Seed => MlDsaKeyFormat::Seed,
            MlDsaFormatArg::Expanded => MlDsaKeyFormat::Expanded,
            MlDsaFormatArg::Both => MlDsaKeyFormat::Both,
        },
        (Some(_), false) => {
            return Err(CliError::usage(format!(
                "--mldsa-key-format applies to ML-DSA keys, not {}",
                a.alg
            )))
        }
    };
    let password = match &a.passout {
        Some(spec) => {
            let pw = io::read_secret(spec)?;
            if pw.is_empty() {
                return Err(CliError::usage(format!(
                    "--passout {spec}: the password is empty"
                )));
            }
            Some(pw)
        }
        None => None,
    };
    let key = be.generate(a.alg)?;
    let (der, label) = match password {
        Some(mut pw) => {
            let kdf = match a.kdf {
                KdfArg::Pbkdf2 => KdfChoice::Pbkdf2,
                KdfArg::Scrypt => KdfChoice::Scrypt,
            };
            let der = key::encrypt_private_key(be, &*key, &pw, kdf, format);
            pw.fill(0);
            (der?, "ENCRYPTED PRIVATE KEY")
        }
        None => (key.to_pkcs8_der(format)?, "PRIVATE KEY"),
    };
    write(a.out.as_deref(), a.force, true, a.outform, label, der)?;
    Ok(Exit::Ok)
}

/// `key gen -o pkcs11:…`: the key is made in the token; its public key goes to stdout.
fn gen_in_token(a: &GenArgs, uri: &str) -> CliResult<Exit> {
    for (given, flag) in [
        (a.passout.is_some(), "--passout"),
        (a.mldsa_key_format.is_some(), "--mldsa-key-format"),
    ] {
        if given {
            return Err(CliError::usage(format!(
                "{flag} applies to key files; a key generated in a PKCS#11 token never leaves it"
            )));
        }
    }
    let key = token::generate_key(uri, a.alg, a.pin.as_deref())?;
    write(
        None,
        false,
        false,
        a.outform,
        "PUBLIC KEY",
        key.public_key_der()?,
    )?;
    eprintln!(
        "pkit: generated {} key in token {}: {}",
        a.alg,
        key.token().label,
        token::shown(uri)
    );
    Ok(Exit::Ok)
}

fn public(be: &Backend, a: PubArgs) -> CliResult<Exit> {
    let key = load_private_key(be, &a.key, a.passin.as_deref(), a.pin.as_deref())?;
    let spki = key.public_key_der()?;
    write(
        a.out.as_deref(),
        a.force,
        false,
        a.outform,
        "PUBLIC KEY",
        spki,
    )?;
    Ok(Exit::Ok)
}

fn write(
    out: Option<&Path>,
    force: bool,
    private: bool,
    form: OutForm,
    label: &str,
    mut der: Vec<u8>,
) -> CliResult {
    let opts = OutputOpts {
        path: out,
        force,
        private,
        binary: form == OutForm::Der,
    };
    let result = match form {
        OutForm::Der => io::write_output(&opts, &der),
        OutForm::Pem => {
            let mut pem = io::pem_encode(label, &der).into_bytes();
            let r = io::write_output(&opts, &pem);
            if private {
                pem.fill(0);
            }
            r
        }
    };
    if private {
        der.fill(0);
    }
    result
}

/// PEM labels a private key may carry. The traditional ones hold an `RSAPrivateKey` or
/// `ECPrivateKey`, which the backend converts.
const KEY_LABELS: [&str; 4] = [
    "PRIVATE KEY",
    "ENCRYPTED PRIVATE KEY",
    "RSA PRIVATE KEY",
    "EC PRIVATE KEY",
];

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
            Ok(i) if i.label.as_deref().is_none_or(|l| KEY_LABELS.contains(&l)) => {
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
    let encrypted =
        item.label.as_deref() == Some("ENCRYPTED PRIVATE KEY") || key::is_encrypted(&item.der);
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
                "{name}: the private key is encrypted; a password is needed (--passin \
                 pass:TEXT, env:VAR, file:PATH or fd:N, or run at a terminal to be asked)"
            )))
        }
        None => None,
    };
    let loaded = key::load_private(be, &item.der, password.as_deref());
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
        eprintln!(
            "pkit: warning: {}: the private key is readable by other users (mode {:03o}); \
             chmod 600 it",
            path.display(),
            mode & 0o777
        );
    }
}
