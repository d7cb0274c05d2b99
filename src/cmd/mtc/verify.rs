//! `pkit mtc verify` (the draft §7.2 procedure) and `pkit mtc size`.

use super::common::{emit, mtc_err, now_of, Format, FormatArg};
use super::remote::Remote;
use crate::cmd::error::{CliError, CliResult, Exit};
use crate::cmd::io::{self, InForm};
use crate::cmd::key::AlgorithmParser;
use clap::Args;
use pkit::bench::mtc_size::certificate_sizes;
use pkit::bench::BenchError;
use pkit::der::hex;
use pkit::mtc::cert::CaInfo;
use pkit::mtc::cosign::{spki_of_cert_or_key, CosignerKey};
use pkit::mtc::ids::TrustAnchorId;
use pkit::mtc::remote::{signed_checkpoint, subtrees_from_log, SignedCheckpoint};
use pkit::mtc::tlog_witness::accept_named_cosignature;
use pkit::mtc::verify::{
    verify_certificates, without_ca_certificate, MtcVerdict, Policy, Step, TrustedSubtree,
};
use pkit::mtc::witness_policy::WitnessPolicy;
use pkit::mtc::MtcError;
use pkit::pki::alg::Algorithm;
use pkit::pki::backend::Backend;
use serde_json::json;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// The certificates (PEM or DER; every PEM block of a bundle is checked but the
    /// --ca certificate itself, which a chain from an ACME server ends with).
    #[arg(required = true)]
    pub certs: Vec<PathBuf>,
    /// The MTC CA certificate (mtc-ca.pem).
    #[arg(long)]
    pub ca: PathBuf,
    /// An extra trusted cosigner: its trust anchor ID and a public key or certificate
    /// file (repeatable).
    #[arg(long, value_name = "ID=KEY_OR_CERT")]
    pub cosigner: Vec<String>,
    /// Trusted (landmark) subtrees, one "LOG START END HEXHASH" per line, as
    /// `pkit mtc landmark list --subtrees` prints them.
    #[arg(long, value_name = "FILE")]
    pub trusted_subtrees: Option<PathBuf>,
    /// The log's prefix URL (tlog-tiles): each certificate's subtree is looked up in
    /// the log's checkpoint (signed by the CA), its hash computed from the tiles and
    /// proven consistent with the checkpoint's root, and trusted as a landmark is — for
    /// a landmark-relative certificate, only when the log's landmark list has an active
    /// landmark for that subtree. Certificates of subtrees the checkpoint does not hold
    /// yet rely on their cosignatures.
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
    /// A witness policy (c2sp.org/tlog-policy: `witness NAME VKEY`, `group NAME K
    /// NAME…`, `quorum NAME`): a cosigned certificate is valid only when the witnesses
    /// whose cosignatures in it verify meet the quorum, and with --url the log's
    /// checkpoint the landmarks come from must carry such a quorum too.
    #[arg(long, value_name = "FILE")]
    pub witness_policy: Option<PathBuf>,
    /// Verification time (RFC 3339), default now.
    #[arg(long, value_name = "TIME")]
    pub now: Option<String>,
    #[command(flatten)]
    pub output: FormatArg,
}

/// `--witness-policy FILE`, read.
pub(super) fn read_policy(path: &Path) -> CliResult<WitnessPolicy> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| CliError::io_at(&name, &e))?;
    WitnessPolicy::parse(&text).map_err(mtc_err(&name))
}

/// The witnesses of `policy` that are not among `keys` yet, added to them.
pub(super) fn with_policy_keys(
    mut keys: Vec<CosignerKey>,
    policy: Option<&WitnessPolicy>,
) -> Vec<CosignerKey> {
    for k in policy.map(WitnessPolicy::keys).unwrap_or_default() {
        if !keys.iter().any(|o| o.id == k.id) {
            keys.push(k);
        }
    }
    keys
}

/// Whether the checkpoint `signed` meets `policy`'s quorum: its signers verified as
/// cosigners, and the policy's witnesses named by verifier keys whose lines on it verify.
/// An error naming who did sign when not.
pub(super) fn check_quorum(
    be: &Backend,
    policy: &WitnessPolicy,
    what: &str,
    signed: &SignedCheckpoint,
) -> CliResult {
    let mut signers = signed.signers.clone();
    for (name, spki) in policy.named() {
        let line = accept_named_cosignature(be, &signed.checkpoint, &name, &spki, &signed.note)
            .map_err(mtc_err(what))?;
        if line.is_some() {
            signers.push(name);
        }
    }
    if policy.met_by(&signers) {
        return Ok(());
    }
    Err(CliError::negative(format!(
        "{what}: the witness policy's quorum is not met (signed by {})",
        if signers.is_empty() {
            "no one".to_string()
        } else {
            signers.join(", ")
        }
    )))
}

/// The first object of a file, as DER.
pub(super) fn read_der(path: &Path) -> CliResult<(String, Vec<u8>)> {
    let src = io::read_source(path)?;
    let item = io::split_items(src, InForm::Auto)
        .into_iter()
        .next()
        .ok_or_else(|| {
            CliError::parse(format!(
                "{}: offset 0: expected a certificate",
                path.display()
            ))
        })??;
    Ok((item.name, item.der))
}

/// `ID=FILE`: the SPKI of a PUBLIC KEY or a certificate.
pub(super) fn cosigner_key(spec: &str) -> CliResult<CosignerKey> {
    let (id, file) = spec
        .split_once('=')
        .ok_or_else(|| CliError::usage(format!("--cosigner {spec}: expected ID=KEY_OR_CERT")))?;
    let id = TrustAnchorId::parse(id).map_err(mtc_err("--cosigner"))?;
    let (name, der) = read_der(Path::new(file))?;
    let spki = spki_of_cert_or_key(&der).map_err(|e| CliError::der(&name, &e))?;
    CosignerKey::new(id, spki).map_err(mtc_err(&name))
}

/// The trusted-subtrees file (`TrustedSubtree::parse_list`).
fn trusted_subtrees(path: &Path) -> CliResult<Vec<TrustedSubtree>> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| CliError::io_at(&name, &e))?;
    TrustedSubtree::parse_list(&text).map_err(mtc_err(&name))
}

fn verdict_json(source: &str, v: &MtcVerdict) -> serde_json::Value {
    let r = &v.report;
    // What the MTCProof says is known once it was read (its subtree is the first of
    // it); before that, as for a certificate that is not an MTC one, it is null.
    let read = r.subtree.is_some();
    json!({
        "source": source,
        "valid": v.failed.is_none(),
        "failed_step": v.failed.as_ref().map(|(s, _)| s.name()),
        "reason": v.failed.as_ref().map(|(_, m)| m),
        "log": r.log,
        "index": r.index,
        "subtree": r.subtree.map(|s| json!({"start": s.start, "end": s.end})),
        "proof_length": read.then_some(r.proof_len),
        "cosigners": read.then_some(&r.cosigners),
        "verified_cosigners": read.then_some(&r.verified_cosigners),
        "landmark_relative": read.then_some(r.cosigners.is_empty()),
        "trusted_subtree": r.landmark,
        "entry_hash": r.entry_hash.map(|h| hex(&h)),
        "subtree_hash": r.subtree_hash.map(|h| hex(&h)),
    })
}

pub fn run(be: &Backend, a: VerifyArgs) -> CliResult<Exit> {
    let (ca_name, ca_der) = read_der(&a.ca)?;
    let ca = CaInfo::from_certificate(&ca_der).map_err(mtc_err(&ca_name))?;
    let witness_policy = a.witness_policy.as_deref().map(read_policy).transpose()?;
    if let Some(p) = &witness_policy {
        if !p.accepts_log(&ca.spki) {
            return Err(CliError::negative(format!(
                "{ca_name}: the witness policy lists no log with this CA's key"
            )));
        }
    }
    let cosigners = a
        .cosigner
        .iter()
        .map(|s| cosigner_key(s))
        .collect::<CliResult<Vec<_>>>()?;
    let cosigners = with_policy_keys(cosigners, witness_policy.as_ref());
    let trusted = match &a.trusted_subtrees {
        Some(p) => trusted_subtrees(p)?,
        None => Vec::new(),
    };
    let policy = Policy {
        ca,
        cosigners,
        trusted,
        now: now_of(&a.now)?,
    };
    let mut certs = Vec::new();
    for path in &a.certs {
        let src = io::read_source(path)?;
        for item in io::split_items(src, InForm::Auto) {
            certs.push(item?);
        }
    }
    let certs = without_ca_certificate(certs, &ca_der, |c| c.der.as_slice());
    if certs.is_empty() {
        return Err(CliError::usage(format!(
            "no MTC certificate given, only the CA certificate {ca_name}"
        )));
    }
    let ders: Vec<&[u8]> = certs.iter().map(|c| c.der.as_slice()).collect();
    let mut policy = policy;
    if let Some(url) = &a.url {
        let remote = Remote::new(url)?;
        if let Some(p) = &witness_policy {
            let signed =
                signed_checkpoint(be, &remote, &remote.base, &policy.ca, &policy.cosigners)
                    .map_err(mtc_err(url))?;
            check_quorum(be, p, &format!("{}/checkpoint", remote.base), &signed)?;
        }
        let from_log =
            subtrees_from_log(be, &remote, &remote.base, &policy, &ders).map_err(mtc_err(url))?;
        policy.trusted.extend(from_log);
    }
    let verdicts = verify_certificates(be, &ders, &policy);
    let mut items = Vec::new();
    let mut text = String::new();
    let mut all_valid = true;
    for (item, v) in certs.iter().zip(verdicts) {
        let mut v = v.map_err(mtc_err(&item.name))?;
        if let (Some(p), None, false) = (&witness_policy, &v.failed, v.report.landmark) {
            let ids: Vec<String> = v
                .report
                .verified_cosigners
                .iter()
                .filter_map(|d| TrustAnchorId::parse(d).ok())
                .map(|id| id.note_name())
                .collect();
            if !p.met_by(&ids) {
                v.failed = Some((
                    Step::Cosignature,
                    format!(
                        "the witness policy's quorum is not met by its cosigners ({})",
                        v.report.verified_cosigners.join(", ")
                    ),
                ));
            }
        }
        text.push_str(&verdict_text(&item.name, &v));
        all_valid &= v.failed.is_none();
        items.push(verdict_json(&item.name, &v));
    }
    match a.output.format {
        Format::Text => io::write_text(None, false, &text)?,
        Format::Json => io::write_text(
            None,
            false,
            &crate::cmd::output::json_text(&crate::cmd::output::envelope("mtc_verify", items)),
        )?,
    }
    Ok(if all_valid { Exit::Ok } else { Exit::Negative })
}

fn verdict_text(name: &str, v: &MtcVerdict) -> String {
    match &v.failed {
        None => {
            let r = &v.report;
            format!(
                "{name}: valid ({}, log {} index {}, subtree {}, {} proof hashes, cosigners: {})\n",
                if r.landmark {
                    "trusted subtree"
                } else {
                    "cosigned"
                },
                r.log.unwrap_or(0),
                r.index.unwrap_or(0),
                r.subtree.map(|s| s.to_string()).unwrap_or_default(),
                r.proof_len,
                if r.verified_cosigners.is_empty() {
                    "none".to_string()
                } else {
                    r.verified_cosigners.join(", ")
                }
            )
        }
        Some((step, m)) => format!("{name}: invalid: step {}: {m}\n", step.name()),
    }
}

#[derive(Args, Debug)]
pub struct SizeArgs {
    /// Key and cosigner algorithm.
    #[arg(long, value_parser = AlgorithmParser)]
    pub alg: Algorithm,
    /// Inclusion proof length in hashes (a batch subtree of 2^N entries; at most 47, the
    /// longest a log of 2^48 entries has).
    #[arg(long, default_value_t = 20)]
    pub proof_hashes: usize,
    #[command(flatten)]
    pub output: FormatArg,
}

pub fn run_size(be: &Backend, a: SizeArgs) -> CliResult<Exit> {
    let most = pkit::bench::mtc_size::MAX_PROOF_HASHES;
    if a.proof_hashes > most {
        return Err(CliError::usage(format!(
            "--proof-hashes {}: at most {most} (the longest proof in a log of 2^48 entries)",
            a.proof_hashes
        )));
    }
    let sizes = certificate_sizes(be, a.alg, a.proof_hashes).map_err(|e| match e {
        BenchError::Mtc(MtcError::Invalid(m)) => CliError::unsupported(format!("--alg {m}")),
        e => e.into(),
    })?;
    let (n, standalone, landmark) = (
        sizes.proof_hashes,
        sizes.standalone,
        sizes.landmark_relative,
    );
    let (leaf, inter) = (sizes.x509_leaf, sizes.x509_intermediate);
    let x509 = leaf + inter;
    let item = json!({
        "algorithm": a.alg.name(),
        "proof_hashes": n,
        "standalone": standalone,
        "landmark_relative": landmark,
        "x509_leaf": leaf,
        "x509_intermediate": inter,
        "x509_chain": x509,
    });
    let text = format!(
        "algorithm {}, inclusion proof {n} hashes\n  standalone MTC certificate      {:>6} bytes\n  landmark-relative certificate   {:>6} bytes\n  X.509 leaf + intermediate       {:>6} bytes ({} + {})\n",
        a.alg,
        standalone,
        landmark,
        x509,
        leaf,
        inter
    );
    emit(a.output.format, "mtc_size", item, &text)?;
    Ok(Exit::Ok)
}
