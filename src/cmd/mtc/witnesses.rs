//! `pkit mtc checkpoint --witness URL=KEY`: the CA's side of c2sp.org/tlog-witness. Each
//! witness gets `add-checkpoint` with the size it cosigned last (remembered in
//! `DIR/witness-sizes.json`, 0 the first time) and the consistency proof from there; a
//! 409 names the size it holds, and it is asked once more with the proof from that size.
//! The witnesses are asked in parallel, each within the timeout; a cosignature is kept
//! only when it verifies with the key given for that witness. Once the quorum has
//! cosigned, each pkit-style witness that did (named by a trust anchor ID, with an
//! ML-DSA-44 key) is asked for `sign-subtree` on the checkpoint's covering subtrees, and
//! the cosignatures that verify go into the standalone certificates of those subtrees;
//! a witness that gives none is reported and does not hold the checkpoint back (the
//! call is optional in the protocol, and certificates need only the CA's).

use super::verify::read_der;
use crate::cmd::error::{CliError, CliResult};
use crate::cmd::http_get::agent;
use pkit::mtc::checkpoint::Checkpoint;
use pkit::mtc::cosign::spki_of_cert_or_key;
use pkit::mtc::cosign::CosignerKey;
use pkit::mtc::ids::TrustAnchorId;
use pkit::mtc::ids::NOTE_PREFIX;
use pkit::mtc::issuer::{CheckpointResult, MtcCa, Witnessed};
use pkit::mtc::store::{LogStore, SubtreeSignature};
use pkit::mtc::subtree::Subtree;
use pkit::mtc::tlog_subtree;
use pkit::mtc::tlog_witness::{
    accept_cosignature, accept_named_cosignature, note_signature, request, SIZE_CONTENT_TYPE,
};
use pkit::mtc::witness_policy::{parse_witness_vkey, WitnessKey};
use pkit::mtc::MtcError;
use pkit::pki::backend::Backend;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A witness to ask: its submission prefix and the key its cosignature must verify with.
#[derive(Debug, Clone)]
pub struct WitnessTarget {
    /// The submission prefix, without a trailing slash.
    pub url: String,
    /// Its public key's SubjectPublicKeyInfo.
    pub spki: Vec<u8>,
    /// Its note name, when given by a verifier key (a witness named `example.com/w1`);
    /// `None`: a pkit witness, named by its trust anchor ID in its lines.
    pub name: Option<String>,
}

/// Whether `key` looks like a signed-note verifier key (`NAME+KEYID+BASE64`, an
/// eight-digit hex key ID) rather than a file name.
fn looks_like_vkey(key: &str) -> bool {
    let mut parts = key.splitn(3, '+');
    let id = parts.nth(1).unwrap_or("");
    parts.next().is_some() && id.len() == 8 && id.bytes().all(|b| b.is_ascii_hexdigit())
}

/// `--witness URL=KEY`: KEY is a public key or certificate file (PEM or DER), or the
/// witness's verifier key (`NAME+KEYID+BASE64`: Ed25519 `cosignature/v1` under any
/// name, or a pkit witness's key under its trust anchor ID).
pub fn parse_witness(spec: &str) -> CliResult<WitnessTarget> {
    let (url, file) = spec
        .rsplit_once('=')
        .filter(|(u, f)| (u.starts_with("http://") || u.starts_with("https://")) && !f.is_empty())
        .ok_or_else(|| {
            CliError::usage(format!(
                "--witness {spec}: expected URL=KEY (the witness's submission prefix URL and its public key or certificate file)"
            ))
        })?;
    let url = url.trim_end_matches('/').to_string();
    if !Path::new(file).exists() && looks_like_vkey(file) {
        let key = parse_witness_vkey(file)
            .map_err(|e| CliError::usage(format!("--witness {spec}: {e}")))?;
        return Ok(match key {
            // A pkit witness's own verifier key: named by its trust anchor ID, as with
            // its key file.
            WitnessKey::Cosigner(k) => WitnessTarget {
                url,
                spki: k.spki,
                name: None,
            },
            WitnessKey::Named { name, spki } => WitnessTarget {
                url,
                spki,
                name: Some(name),
            },
        });
    }
    let (name, der) = read_der(Path::new(file))?;
    let spki = spki_of_cert_or_key(&der).map_err(|e| CliError::der(&name, &e))?;
    Ok(WitnessTarget {
        url,
        spki,
        name: None,
    })
}

/// What one witness did.
#[derive(Debug, Clone)]
pub struct Asked {
    /// Its submission prefix.
    pub url: String,
    /// Its cosignature line, or why there is none.
    pub outcome: Result<String, String>,
    /// The covering subtrees it was asked to cosign, each cosigned or why not.
    pub subtrees: Vec<(Subtree, Result<(), String>)>,
}

/// One POST's result: the line, a conflict (the size the witness holds), or a failure.
enum Reply {
    Cosigned(String),
    Conflict(u64),
    Failed(String),
}

/// The sizes each witness cosigned last, as this CA remembers them.
fn sizes_file(dir: &Path) -> PathBuf {
    dir.join("witness-sizes.json")
}

fn read_sizes(dir: &Path) -> BTreeMap<String, u64> {
    std::fs::read(sizes_file(dir))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default()
}

/// The witnesses a CA asks, and how.
#[derive(Debug, Clone)]
pub struct Panel {
    /// The witnesses.
    pub witnesses: Vec<WitnessTarget>,
    /// The CA directory, which keeps the sizes they cosigned.
    pub dir: PathBuf,
    /// How long each has to answer.
    pub timeout: Duration,
    /// How many cosignatures a checkpoint needs to be published.
    pub quorum: usize,
}

impl Panel {
    /// `--witness URL=KEY…`, `--witness-quorum K` (default: all) and the timeout, for
    /// the CA directory `dir`; `flag` names the options in messages.
    pub fn from_args(
        specs: &[String],
        quorum: Option<usize>,
        timeout: &str,
        dir: &Path,
        flag: &str,
    ) -> CliResult<Panel> {
        let witnesses = specs
            .iter()
            .map(|w| parse_witness(w))
            .collect::<CliResult<Vec<_>>>()?;
        let quorum = quorum.unwrap_or(witnesses.len());
        if quorum > witnesses.len() {
            return Err(CliError::usage(format!(
                "{flag}-quorum {quorum}: only {} {flag} given",
                witnesses.len()
            )));
        }
        let timeout = Duration::from_secs(
            crate::cmd::ca_dir::parse_duration(&format!("{flag}-timeout"), timeout)?.unsigned_abs(),
        );
        Ok(Panel {
            witnesses,
            dir: dir.to_path_buf(),
            timeout,
            quorum,
        })
    }

    /// The witness step of a checkpoint (`mtc::issuer::checkpoint_witnessed`): ask every
    /// witness, and either the lines to add (the quorum met) or an error saying how many
    /// cosigned. What each witness did is in the second value.
    pub fn cosign(
        &self,
        backend: &Backend,
        store: &dyn LogStore,
        r: &CheckpointResult,
        ca: &MtcCa,
    ) -> (pkit::mtc::Result<Witnessed>, Vec<Asked>) {
        if self.witnesses.is_empty() {
            return (Ok(Witnessed::default()), Vec::new());
        }
        let cp = match Checkpoint::parse(&r.checkpoint.note) {
            Ok((cp, _)) => cp,
            Err(e) => return (Err(e), Vec::new()),
        };
        // Witnesses that know the log by a standard verifier key (Go's note package:
        // Ed25519, type 0x01, named by the origin) find a signature of that kind too.
        let mut note = r.checkpoint.note.clone();
        match note_signature(&cp, &cp.origin, &ca.cosigner) {
            Ok(Some(line)) => {
                note.push_str(&line);
                note.push('\n');
            }
            Ok(None) => {}
            Err(e) => return (Err(e), Vec::new()),
        }
        let mut asked = ask(backend, self, store, &cp, &note, &ca.log_id());
        let lines: Vec<String> = asked
            .iter()
            .filter_map(|w| w.outcome.as_ref().ok().cloned())
            .collect();
        if lines.len() < self.quorum {
            let e = MtcError::Untrusted(format!(
                "{} of {} witnesses cosigned the checkpoint at size {}, quorum {}: nothing new published",
                lines.len(),
                self.witnesses.len(),
                cp.size,
                self.quorum
            ));
            return (Err(e), asked);
        }
        let subtree_signatures =
            self.ask_subtrees(backend, store, &cp, r, &ca.log_id(), &mut asked);
        (
            Ok(Witnessed {
                lines,
                subtree_signatures,
            }),
            asked,
        )
    }

    /// `sign-subtree` for each covering subtree of `r`, of each witness that cosigned
    /// checkpoint `cp` and can sign subtrees: those named by a trust anchor ID with an
    /// ML-DSA-44 key (subtree/v1; an Ed25519 `cosignature/v1` cannot). In parallel
    /// across witnesses; what each did goes into its `asked`.
    fn ask_subtrees(
        &self,
        backend: &Backend,
        store: &dyn LogStore,
        cp: &Checkpoint,
        r: &CheckpointResult,
        log: &TrustAnchorId,
        asked: &mut [Asked],
    ) -> Vec<SubtreeSignature> {
        let http = agent(self.timeout);
        // The proofs come from the log's store (one thread); the requests differ per
        // witness only in the note.
        let requests: Vec<Result<tlog_subtree::SignSubtree, String>> = r
            .subtrees
            .iter()
            .map(|&(st, hash)| {
                tlog_subtree::request(store, st, hash, "", cp.size)
                    .map_err(|e| format!("{st}: {e}"))
            })
            .collect();
        let keys: Vec<Option<CosignerKey>> = self
            .witnesses
            .iter()
            .zip(asked.iter())
            .map(|(w, a)| subtree_key(w, a.outcome.as_ref().ok()?))
            .collect();
        let results: Vec<Vec<(Subtree, Result<SubtreeSignature, String>)>> =
            std::thread::scope(|s| {
                let handles: Vec<_> = self
                    .witnesses
                    .iter()
                    .zip(&keys)
                    .zip(asked.iter())
                    .map(|((w, key), a)| {
                        let (http, requests) = (&http, &requests);
                        std::thread::Builder::new().spawn_scoped(s, move || {
                            let (Some(key), Ok(line)) = (key, &a.outcome) else {
                                return Vec::new();
                            };
                            // The checkpoint with this witness's cosignature only, as the
                            // protocol asks.
                            let note = format!("{}\n{line}\n", cp.body());
                            r.subtrees
                                .iter()
                                .zip(requests)
                                .map(|(&(st, _), rq)| {
                                    let got = rq.clone().and_then(|mut rq| {
                                        rq.note = note.clone();
                                        sign_subtree(http, backend, w, key, cp, log, &rq)
                                    });
                                    (st, got)
                                })
                                .collect()
                        })
                    })
                    .collect();
                // A thread that could not start, or ended in a panic, asked nothing.
                handles
                    .into_iter()
                    .map(|h| h.ok().and_then(|h| h.join().ok()).unwrap_or_default())
                    .collect()
            });
        let mut sigs = Vec::new();
        for (a, got) in asked.iter_mut().zip(results) {
            for (st, g) in got {
                a.subtrees
                    .push((st, g.as_ref().map(|_| ()).map_err(String::clone)));
                sigs.extend(g.ok());
            }
        }
        sigs
    }
}

/// The key a witness's subtree cosignatures verify with, when it can make them: a
/// witness named by its trust anchor ID (its cosignature `line` says which) with an
/// ML-DSA-44 key.
fn subtree_key(w: &WitnessTarget, line: &str) -> Option<CosignerKey> {
    if w.name.is_some() {
        return None;
    }
    let name = line
        .strip_prefix(pkit::mtc::checkpoint::SIG_PREFIX)?
        .split(' ')
        .next()?;
    let id = TrustAnchorId::parse(name.strip_prefix(NOTE_PREFIX)?).ok()?;
    let key = CosignerKey::new(id, w.spki.clone()).ok()?;
    (key.alg == pkit::pki::alg::Algorithm::MlDsa44).then_some(key)
}

/// POST one `sign-subtree` and judge the answer.
fn sign_subtree(
    http: &ureq::Agent,
    backend: &Backend,
    w: &WitnessTarget,
    key: &CosignerKey,
    cp: &Checkpoint,
    log: &TrustAnchorId,
    rq: &tlog_subtree::SignSubtree,
) -> Result<SubtreeSignature, String> {
    let (st, body) = (rq.subtree, rq.body());
    let url = format!("{}/sign-subtree", w.url);
    let mut resp = http
        .post(&url)
        .send(body.as_str())
        .map_err(|e| format!("{st}: {e}"))?;
    let status = resp.status().as_u16();
    let text = resp
        .body_mut()
        .with_config()
        .limit(64 * 1024)
        .read_to_string()
        .map_err(|e| format!("{st}: reading the answer: {e}"))?;
    if status != 200 {
        return Err(format!("{st}: HTTP {status}: {}", first_line(&text)));
    }
    tlog_subtree::accept(backend, cp, log, key, st, &rq.hash, &text)
        .map_err(|e| format!("{st}: {e}"))?
        .ok_or_else(|| format!("{st}: no cosignature in its answer verifies with its key"))
}

/// An answer's first line, at most 200 characters, for a message.
fn first_line(text: &str) -> String {
    text.lines()
        .next()
        .unwrap_or("")
        .chars()
        .take(200)
        .collect()
}

/// Ask every witness of `panel` to cosign checkpoint `cp` (its signed note `note`) of
/// log `log`, whose tree `store` holds.
pub fn ask(
    backend: &Backend,
    panel: &Panel,
    store: &dyn LogStore,
    cp: &Checkpoint,
    note: &str,
    log: &TrustAnchorId,
) -> Vec<Asked> {
    let (dir, witnesses, timeout) = (panel.dir.as_path(), &panel.witnesses[..], panel.timeout);
    let mut sizes = read_sizes(dir);
    let http = agent(timeout);
    let mut outcome: Vec<Option<Result<String, String>>> = vec![None; witnesses.len()];
    // Round one at the remembered sizes; round two, for a 409, at the size it named.
    let mut old: Vec<Option<u64>> = witnesses
        .iter()
        .map(|w| {
            Some(
                sizes
                    .get(&w.url)
                    .copied()
                    .filter(|s| *s <= cp.size)
                    .unwrap_or(0),
            )
        })
        .collect();
    for round in 0..2 {
        let bodies: Vec<Option<Result<String, String>>> = old
            .iter()
            .map(|o| {
                o.map(|old| {
                    request(store, note, old, cp.size)
                        .map(|r| r.body())
                        .map_err(|e| e.to_string())
                })
            })
            .collect();
        let replies: Vec<Option<Reply>> = std::thread::scope(|s| {
            let handles: Vec<_> = witnesses
                .iter()
                .zip(&bodies)
                .map(|(w, body)| {
                    let http = &http;
                    std::thread::Builder::new().spawn_scoped(s, move || {
                        body.as_ref().map(|b| match b {
                            Ok(b) => post(http, backend, w, b, cp, log),
                            Err(e) => Reply::Failed(e.clone()),
                        })
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| match h {
                    Ok(h) => h
                        .join()
                        .unwrap_or_else(|_| Some(Reply::Failed("panicked".into()))),
                    Err(e) => Some(Reply::Failed(format!("could not start a thread: {e}"))),
                })
                .collect()
        });
        for (i, r) in replies.into_iter().enumerate() {
            let asked_at = old[i].take();
            match r {
                None => {}
                Some(Reply::Cosigned(line)) => {
                    sizes.insert(witnesses[i].url.clone(), cp.size);
                    outcome[i] = Some(Ok(line));
                }
                Some(Reply::Conflict(held)) if held > cp.size => {
                    outcome[i] = Some(Err(format!(
                        "it cosigned size {held}, past this checkpoint's {}: the log was rolled back or forked",
                        cp.size
                    )));
                }
                // Asked from the size it named and still a conflict: the same size with
                // another root, or a witness that moved meanwhile.
                Some(Reply::Conflict(held)) if round == 1 || Some(held) == asked_at => {
                    outcome[i] = Some(Err(format!(
                        "HTTP 409: it holds size {held} and does not take this checkpoint from there"
                    )));
                }
                Some(Reply::Conflict(held)) => old[i] = Some(held),
                Some(Reply::Failed(why)) => outcome[i] = Some(Err(why)),
            }
        }
        if old.iter().all(Option::is_none) {
            break;
        }
    }
    // Best effort: a lost file costs one more round trip per witness next time.
    if let Ok(text) = serde_json::to_vec_pretty(&sizes) {
        let _ = std::fs::write(sizes_file(dir), text);
    }
    witnesses
        .iter()
        .zip(outcome)
        .map(|(w, o)| Asked {
            url: w.url.clone(),
            outcome: o.unwrap_or_else(|| Err("not asked".into())),
            subtrees: Vec::new(),
        })
        .collect()
}

/// POST one add-checkpoint and judge the answer.
fn post(
    http: &ureq::Agent,
    backend: &Backend,
    w: &WitnessTarget,
    body: &str,
    cp: &Checkpoint,
    log: &TrustAnchorId,
) -> Reply {
    let url = format!("{}/add-checkpoint", w.url);
    let mut resp = match http.post(&url).send(body) {
        Ok(r) => r,
        Err(e) => return Reply::Failed(format!("{e}")),
    };
    let status = resp.status().as_u16();
    let ct = resp
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let text = match resp
        .body_mut()
        .with_config()
        .limit(64 * 1024)
        .read_to_string()
    {
        Ok(t) => t,
        Err(e) => return Reply::Failed(format!("reading the answer: {e}")),
    };
    match status {
        200 => match match &w.name {
            Some(name) => accept_named_cosignature(backend, cp, name, &w.spki, &text),
            None => accept_cosignature(backend, cp, log, &w.spki, &text),
        } {
            Ok(Some(line)) => Reply::Cosigned(line),
            Ok(None) => Reply::Failed("no cosignature in its answer verifies with its key".into()),
            Err(e) => Reply::Failed(e.to_string()),
        },
        409 if ct.starts_with(SIZE_CONTENT_TYPE) => match text.trim_end().parse() {
            Ok(n) => Reply::Conflict(n),
            Err(_) => Reply::Failed(format!(
                "HTTP 409 with a size that is not one: {:?}",
                text.trim_end()
            )),
        },
        _ => Reply::Failed(format!("HTTP {status}: {}", first_line(&text))),
    }
}
