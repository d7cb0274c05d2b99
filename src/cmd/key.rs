//! `pkit key`: generate private keys (PKCS#8, optionally password-encrypted) and extract
//! public keys, and the PKCS#12 subcommand. Key files are read by
//! [`load_private_key`] (`key_file.rs`).

use super::error::{CliError, CliResult, Exit, EXIT_CODES_HELP};
use super::io::{self, OutputOpts};
pub use super::key_file::load_private_key;
use super::token;
use clap::builder::{PossibleValue, TypedValueParser};
use clap::{Args, Subcommand, ValueEnum};
use pkit::pki::alg::Algorithm;
use pkit::pki::backend::{Backend, PrivateKey};
use pkit::pki::key;
use pkit::pki::key::encrypted::KdfChoice;
use pkit::pki::key::ml_dsa::MlDsaKeyFormat;
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

    /// json: describe the key on stdout (algorithm, public key and its SHA-256, whether
    /// encrypted, the file written); needs -o, since the private key never goes to stdout
    /// inside JSON.
    #[command(flatten)]
    pub format: super::created::FormatArgs,
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
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Algorithm, clap::Error> {
        AlgorithmsOf(&Algorithm::ALL).parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        AlgorithmsOf(&Algorithm::ALL).possible_values()
    }
}

/// `--alg` of a command that takes only some algorithms (`mtc ca new`: the cosigners'):
/// the others are a usage error (exit 2), and help lists only these.
#[derive(Clone, Debug)]
pub struct AlgorithmsOf(pub &'static [Algorithm]);

impl TypedValueParser for AlgorithmsOf {
    type Value = Algorithm;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Algorithm, clap::Error> {
        let s = value.to_string_lossy();
        let names: Vec<&str> = self.0.iter().map(|a| a.name()).collect();
        match Algorithm::from_name(&s) {
            Some(a) if self.0.contains(&a) => Ok(a),
            found => Err(clap::Error::raw(
                clap::error::ErrorKind::InvalidValue,
                format!(
                    "{} '{s}' for --alg; valid: {}\n",
                    if found.is_some() {
                        "this command does not take"
                    } else {
                        "unknown algorithm"
                    },
                    names.join(", ")
                ),
            )
            .with_cmd(cmd)),
        }
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            self.0.iter().map(|a| PossibleValue::new(a.name())),
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
        return gen_in_token(be, &a, uri);
    }
    if a.format.json() && a.out.as_deref().is_none_or(|p| p.as_os_str() == "-") {
        return Err(CliError::usage(
            "-f json describes the key: give -o FILE for the key itself",
        ));
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
    let encrypted = password.is_some();
    let (der, label) = match password {
        Some(mut pw) => {
            let kdf = match a.kdf {
                KdfArg::Pbkdf2 => KdfChoice::Pbkdf2,
                KdfArg::Scrypt => KdfChoice::Scrypt,
            };
            let der = key::encrypted::encrypt_private_key(be, &*key, &pw, kdf, format);
            pw.fill(0);
            (der?, "ENCRYPTED PRIVATE KEY")
        }
        None => (key.to_pkcs8_der(format)?, "PRIVATE KEY"),
    };
    write(a.out.as_deref(), a.force, true, a.outform, label, der)?;
    if a.format.json() {
        let mut files = super::created::Files::default();
        if let Some(p) = &a.out {
            files.add("key", p);
        }
        let mut item = key_json(be, key.as_ref())?;
        item["encrypted"] = encrypted.into();
        item["files"] = files.into_value();
        super::created::print_json("key", vec![item])?;
    } else {
        super::created::say_created(
            format_args!("{}{} key", if encrypted { "encrypted " } else { "" }, a.alg),
            a.out.as_deref(),
        );
    }
    Ok(Exit::Ok)
}

/// A new key as `key gen -f json` describes it: never its private part.
fn key_json(be: &Backend, key: &dyn PrivateKey) -> CliResult<serde_json::Value> {
    let spki = key.public_key_der()?;
    Ok(serde_json::json!({
        "type": "private_key",
        "algorithm": key.algorithm().name(),
        "public_key_sha256": pkit::der::hex(&be.digest(pkit::pki::alg::Digest::Sha256, &spki)),
        "public_key_pem": io::pem_encode("PUBLIC KEY", &spki),
    }))
}

/// `key gen -o pkcs11:…`: the key is made in the token; its public key goes to stdout.
fn gen_in_token(be: &Backend, a: &GenArgs, uri: &str) -> CliResult<Exit> {
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
    if a.format.json() {
        let mut item = key_json(be, &key)?;
        item["uri"] = token::shown(uri).into();
        item["files"] = serde_json::json!({});
        super::created::print_json("key", vec![item])?;
        return Ok(Exit::Ok);
    }
    write(
        None,
        false,
        false,
        a.outform,
        "PUBLIC KEY",
        key.public_key_der()?,
    )?;
    super::created::say_created(
        format_args!(
            "{} key in token {}: {}",
            a.alg,
            key.token().label,
            token::shown(uri)
        ),
        None,
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
    if let Some(p) = a.out.as_deref().filter(|p| p.as_os_str() != "-") {
        super::created::say_created("public key", Some(p));
    }
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
