//! `pkit mtc`: run a Merkle Tree Certificate CA (draft-ietf-plants-merkle-tree-certs-07)
//! and verify its certificates. A CA directory holds `mtc-ca.pem` (the §5.5 CA
//! certificate, unsigned), `cosigner.key` (0600) and `mtc.db`.

mod add;
mod audit;
pub(super) mod bucket;
mod ca;
mod common;
mod cosign;
mod remote;
mod serve;
mod state;
pub(super) mod tiles;
mod tree;
mod verify;
mod witness;
pub(super) mod witnesses;

/// The MTC CA's log and key, for `acme serve --mtc`.
pub use common::{load_ca, open_store as open_log};

use super::error::{CliResult, Exit};
use ca::{CaArgs, CaCommand};
use clap::{Args, Subcommand};
use common::Format;
use pkit::pki::backend::Backend;

#[derive(Args, Debug)]
pub struct MtcArgs {
    #[command(subcommand)]
    pub command: MtcCommand,
}

#[derive(Subcommand, Debug)]
pub enum MtcCommand {
    /// Create an MTC CA.
    Ca(CaArgs),
    /// Append certificate requests to the issuance log.
    Add(add::AddArgs),
    /// Sign a checkpoint and the covering subtrees of the entries added since the last.
    Checkpoint(tree::CheckpointArgs),
    /// Write a standalone (default) or landmark-relative certificate for a log entry, and
    /// record it in mtc.db.
    Cert(tree::CertArgs),
    /// Allocate and list landmarks.
    Landmark(tree::LandmarkArgs),
    /// Print the inclusion proof of an entry.
    Proof(tree::ProofArgs),
    /// Print the consistency proof between two tree sizes.
    Consistency(tree::ConsistencyArgs),
    /// Verify an MTC certificate (draft §7.2): exit 0 valid, 1 invalid, 3 unparseable.
    Verify(verify::VerifyArgs),
    /// Compare certificate sizes: standalone, landmark-relative, X.509 leaf + intermediate.
    Size(verify::SizeArgs),
    /// Write the log as static tlog-tiles files (checkpoint, landmarks, tiles, entry
    /// bundles), incrementally.
    Tiles(tiles::TilesArgs),
    /// Serve the log over HTTP as tlog-tiles (checkpoint, landmarks, tiles, entry bundles).
    ///
    /// GET and HEAD only (others get 405); a path that is no resource gets 404, a
    /// malformed tile path 400, a request body over 64 KiB 413. Tiles and bundles are sent
    /// as immutable, the checkpoint may be cached 2 s and the landmark list 60 s. One JSON
    /// line per request on stderr.
    Serve(serve::ServeArgs),
    /// Audit a served log: signatures, the root from the tiles, consistency with the tree
    /// seen before (exit 1 on a fork or a bad tile).
    Audit(audit::AuditArgs),
    /// Witness a served log: check its checkpoint and that it extends the one cosigned
    /// last, then print a cosignature line (tlog-cosignature).
    Cosign(cosign::CosignArgs),
    /// Run a witness over HTTP (c2sp.org/tlog-witness) for logs to submit their
    /// checkpoints to.
    Witness(witness::WitnessArgs),
}

impl MtcArgs {
    /// Whether errors go to stderr as JSON (`-f json`).
    pub fn wants_json(&self) -> bool {
        let f = match &self.command {
            MtcCommand::Ca(CaArgs {
                command: CaCommand::New(n),
            }) => n.output.format,
            MtcCommand::Add(x) => x.output.format,
            MtcCommand::Checkpoint(x) => x.output.format,
            MtcCommand::Proof(x) => x.output.format,
            MtcCommand::Consistency(x) => x.output.format,
            MtcCommand::Verify(x) => x.output.format,
            MtcCommand::Size(x) => x.output.format,
            MtcCommand::Tiles(x) => x.output.format,
            MtcCommand::Audit(x) => x.output.format,
            MtcCommand::Cosign(x) => x.output.format,
            MtcCommand::Serve(_) | MtcCommand::Witness(_) => Format::Text,
            MtcCommand::Landmark(l) => match &l.command {
                tree::LandmarkCommand::Allocate { format, .. }
                | tree::LandmarkCommand::List { format, .. } => *format,
            },
            MtcCommand::Cert(_) => Format::Text,
        };
        f == Format::Json
    }
}

pub fn run(be: &'static Backend, a: MtcArgs) -> CliResult<Exit> {
    match a.command {
        MtcCommand::Ca(CaArgs {
            command: CaCommand::New(n),
        }) => ca::run_new(be, n),
        MtcCommand::Add(x) => add::run(be, x),
        MtcCommand::Checkpoint(x) => tree::run_checkpoint(be, x),
        MtcCommand::Cert(x) => tree::run_cert(x),
        MtcCommand::Landmark(x) => tree::run_landmark(x),
        MtcCommand::Proof(x) => tree::run_proof(x),
        MtcCommand::Consistency(x) => tree::run_consistency(x),
        MtcCommand::Verify(x) => verify::run(be, x),
        MtcCommand::Size(x) => verify::run_size(be, x),
        MtcCommand::Tiles(x) => tiles::run(x),
        MtcCommand::Audit(x) => audit::run(be, x),
        MtcCommand::Cosign(x) => cosign::run(be, x),
        MtcCommand::Serve(x) => serve::run(x),
        MtcCommand::Witness(x) => witness::run(be, x),
    }
}
