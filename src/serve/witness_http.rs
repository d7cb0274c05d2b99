//! `pkit mtc witness serve`'s answers: c2sp.org/tlog-witness's `add-checkpoint` at
//! `PREFIX/add-checkpoint` and `sign-subtree` at `PREFIX/sign-subtree`, POST only. The
//! witness's checks, its state and its cosignatures are the library's
//! ([`pkit_mtc::tlog_witness::Witness`], [`pkit_mtc::tlog_subtree`]); this maps a
//! request to them and each outcome to its status code, Content-Type and log line.
//! Each worker thread holds its own [`WitnessHandler`] with its own connection to the
//! state (`witness.db`), whose transactions keep two workers from interleaving.

use super::http::{Body, Clock, Handler, Method, Reply, Request};
use pkit_mtc::tlog_subtree::SignSubtree;
use pkit_mtc::tlog_witness::{AddCheckpoint, Refusal, Witness, WitnessState};
use pkit_x509::backend::Backend;
use serde_json::json;
use std::sync::Arc;

/// One worker.
pub struct WitnessHandler {
    /// The witness's key and the logs it knows (shared by the workers).
    pub witness: Arc<Witness>,
    /// This worker's connection to the witness's state.
    pub state: Box<dyn WitnessState>,
    /// The crypto backend that checks the logs' signatures and signs.
    pub backend: &'static Backend,
    /// The submission prefix's path (`/w`; empty for the root).
    pub prefix: String,
    /// The cosignatures' timestamps.
    pub clock: Clock,
}

/// What a request gets, and what its log line says.
struct Answer {
    status: u16,
    content_type: &'static str,
    body: String,
    /// The checkpoint's origin and size, once read.
    checkpoint: Option<(String, u64)>,
    /// Why it was refused, when it was.
    refused: Option<String>,
}

impl Answer {
    fn refusal(r: &Refusal, checkpoint: Option<(String, u64)>) -> Answer {
        Answer {
            status: r.status(),
            content_type: r.content_type(),
            body: r.body(),
            checkpoint,
            refused: Some(r.reason()),
        }
    }

    fn plain(status: u16, why: &str) -> Answer {
        Answer::refusal(&Refusal::Malformed(why.into()), None).with_status(status)
    }

    fn with_status(mut self, status: u16) -> Answer {
        self.status = status;
        self
    }
}

impl WitnessHandler {
    fn answer(&mut self, rq: &Request<'_>) -> Answer {
        let call = rq.target.strip_prefix(self.prefix.as_str()).unwrap_or("");
        let sign_subtree =
            match call {
                "/add-checkpoint" => false,
                "/sign-subtree" => true,
                _ => return Answer::plain(
                    404,
                    "not found: the witness answers PREFIX/add-checkpoint and PREFIX/sign-subtree",
                ),
            };
        if *rq.method != Method::POST {
            return Answer::plain(405, &format!("{} is POST only", &call[1..]));
        }
        let body = match &rq.body {
            Body::Read(b) => b,
            Body::TooLarge => return Answer::plain(413, "request bodies are limited to 64 KiB"),
            Body::TooSlow => return Answer::plain(408, "the request body came too slowly"),
            Body::Broken => return Answer::plain(400, "the request body was cut short"),
        };
        let (note, outcome) = if sign_subtree {
            match SignSubtree::parse(body) {
                Ok(rq) => (
                    rq.note.clone(),
                    self.witness.sign_subtree(self.backend, &rq),
                ),
                Err(r) => return Answer::refusal(&r, None),
            }
        } else {
            match AddCheckpoint::parse(body) {
                Ok(add) => {
                    let now = u64::try_from(self.clock.now().unix).unwrap_or(0);
                    let outcome =
                        self.witness
                            .add_checkpoint(self.backend, self.state.as_mut(), &add, now);
                    (add.note, outcome)
                }
                Err(r) => return Answer::refusal(&r, None),
            }
        };
        // For the log line: the checkpoint as it says it is, before any check.
        let said = note.lines().take(2).collect::<Vec<_>>();
        let checkpoint = match said[..] {
            [origin, size] => size.parse().ok().map(|s| (origin.to_string(), s)),
            _ => None,
        };
        match outcome {
            Ok(lines) => Answer {
                status: 200,
                content_type: "text/plain; charset=utf-8",
                body: lines,
                checkpoint,
                refused: None,
            },
            Err(r) => Answer::refusal(&r, checkpoint),
        }
    }
}

impl Handler for WitnessHandler {
    fn handle(&mut self, rq: Request<'_>) -> Reply {
        let a = self.answer(&rq);
        let mut line = json!({
            "time": self.clock.now().to_string(),
            "peer": rq.peer.to_string(),
            "method": rq.method.as_str(),
            "path": rq.target,
            "http": a.status,
            "us": rq.received.elapsed().as_micros() as u64,
        });
        if let Some((origin, size)) = &a.checkpoint {
            line["origin"] = json!(origin);
            line["size"] = json!(size);
        }
        if let Some(why) = &a.refused {
            line["refused"] = json!(why);
        }
        let headers: &'static [(&'static str, &'static str)] = if a.status == 405 {
            &[("cache-control", "no-store"), ("allow", "POST")]
        } else {
            &[("cache-control", "no-store")]
        };
        Reply {
            status: a.status,
            content_type: a.content_type,
            headers,
            made_headers: Vec::new(),
            body: a.body.into_bytes().into(),
            log: vec![line],
        }
    }
}
