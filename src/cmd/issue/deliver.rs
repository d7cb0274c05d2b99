//! Handing over one issued certificate (`issue cert`, `issue renew`): its key, the
//! certificate alone or with the CA's chain (`--bundle`, what a TLS server serves), a
//! PKCS#12 file of all three (`--p12-out`), and the report. The certificate is in the
//! CA's records before any of these files is written.

use crate::cmd::ca_dir::ca_chain;
use crate::cmd::created::{
    certificate_item, check_free, print_json, say_created, Files, FormatArgs,
};
use crate::cmd::error::{CliError, CliResult};
use crate::cmd::flags::OutputArgs;
use crate::cmd::io;
use crate::cmd::p12::{protection, write_pkcs12, P12};
use crate::cmd::request::key_pem;
use clap::Args;
use pkit::der::hex;
use pkit::pki::backend::{Backend, PrivateKey};
use pkit::pki::ca::issuer::Issued;
use pkit::pki::ca::profile::Profile;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Where an issued certificate goes.
#[derive(Args, Debug, Clone, Default)]
pub struct DeliverArgs {
    #[command(flatten)]
    pub output: OutputArgs,
    /// Write the certificate followed by the CA's chain to -o (intermediates; the root is
    /// left out, as TLS servers send it): the file nginx's ssl_certificate, Envoy and
    /// HAProxy take.
    #[arg(long)]
    pub bundle: bool,
    /// Also write a PKCS#12 file (mode 0600) of the key, the certificate and the CA's
    /// chain (needs the key: --key-out, or renew's --key).
    #[arg(long, value_name = "FILE")]
    pub p12_out: Option<PathBuf>,
    /// Password source for --p12-out (pass:, env:, file:, fd:); asked for at a terminal
    /// when not given.
    #[arg(long, value_name = "SRC", requires = "p12_out")]
    pub p12_passout: Option<String>,
    /// Protect --p12-out as old Windows and Java need: PBE-SHA1-3DES and a SHA-1 MAC
    /// instead of AES-256 and SHA-256 (weak: only for those readers; `key p12 --legacy`).
    #[arg(long, requires = "p12_out")]
    pub p12_legacy: bool,
    #[command(flatten)]
    pub format: FormatArgs,
}

/// The certificate's private key, when pkit holds it: a new one is written to `out`.
#[derive(Clone, Copy)]
pub struct HeldKey<'a> {
    pub key: &'a dyn PrivateKey,
    pub out: Option<&'a Path>,
}

impl DeliverArgs {
    /// Refuse, before any work, files that exist and what cannot be delivered. `key_out`:
    /// where a new key goes; `key_held`: whether the key will be at hand (a new one, or
    /// one read from a file); `give_key`: what to ask for when it is not.
    pub fn check(&self, key_out: Option<&Path>, key_held: bool, give_key: &str) -> CliResult {
        if self.p12_out.is_some() && !key_held {
            return Err(CliError::usage(format!(
                "--p12-out needs the certificate's key: {give_key}"
            )));
        }
        check_free(
            &[self.output.out.as_deref(), key_out, self.p12_out.as_deref()],
            self.output.force,
        )
    }
}

/// Write what `d` asks for and report it. `note` follows the certificate in the text
/// line (`(renews serial …)`), when there is one.
pub fn deliver(
    be: &Backend,
    ca: &Path,
    issued: &Issued,
    profile: Profile,
    key: Option<HeldKey<'_>>,
    d: &DeliverArgs,
    note: Option<&str>,
) -> CliResult<Value> {
    let force = d.output.force;
    let mut files = Files::default();
    // The files written beside the certificate, for its one line on stderr.
    let mut beside = Vec::new();
    let needs_chain = d.bundle || d.p12_out.is_some();
    let chain = if needs_chain {
        ca_chain(ca)?
    } else {
        Vec::new()
    };
    if let Some(HeldKey { key, out }) = key {
        if let Some(path) = out {
            io::write_file_atomic(path, key_pem(be, key, None)?.as_bytes(), force, true)?;
            files.add("key", path);
            beside.push(format!("its key in {}", path.display()));
        }
        if let Some(p12) = &d.p12_out {
            let contents = P12 {
                key,
                cert: &issued.der,
                chain: &chain,
                name: None,
            };
            write_pkcs12(
                be,
                &contents,
                d.p12_passout.as_deref(),
                protection(d.p12_legacy),
                p12,
                force,
            )?;
            files.add("pkcs12", p12);
            beside.push(format!("PKCS#12 in {}", p12.display()));
        }
    }
    let mut text = io::pem_encode("CERTIFICATE", &issued.der);
    if d.bundle {
        for c in &chain {
            text.push_str(&io::pem_encode("CERTIFICATE", c));
        }
    }
    let role = if d.bundle { "bundle" } else { "certificate" };
    match (&d.output.out, d.format.json()) {
        (Some(p), _) if p.as_os_str() != "-" => {
            io::write_text(Some(p), force, &text)?;
            files.add(role, p);
        }
        // In JSON the certificate travels in the item's `pem`.
        (_, true) => {}
        (_, false) => io::write_text(None, false, &text)?,
    }
    let mut item = certificate_item(be, &issued.der, profile.name(), files);
    if d.format.json() {
        item["lint_findings"] = issued
            .findings
            .iter()
            .map(pkit::lint::Finding::to_json)
            .collect::<Vec<_>>()
            .into();
    } else {
        crate::cmd::ca_dir::note_findings(&issued.findings);
    }
    if !d.format.json() {
        let mut what = format!(
            "certificate serial {} for {}{}",
            hex(&issued.serial),
            item["subject_dn"].as_str().unwrap_or_default(),
            note.map_or(String::new(), |n| format!(" {n}"))
        );
        // The files beside it in brackets, so that the line still ends ` in FILE`.
        if !beside.is_empty() {
            what.push_str(&format!(" ({})", beside.join(", ")));
        }
        say_created(what, d.output.out.as_deref());
    }
    Ok(item)
}

/// Print the JSON report of `items` when asked for.
pub fn report(d: &DeliverArgs, items: Vec<Value>) -> CliResult {
    if d.format.json() {
        print_json("issued", items)?;
    }
    Ok(())
}
