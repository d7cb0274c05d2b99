//! Merkle Tree Certificates (draft-ietf-plants-merkle-tree-certs-07) with C2SP
//! checkpoints.
//!
//! Build a tree of entries, prove one, and check the proof against the root:
//!
//! ```
//! use pkit_mtc::hash::leaf_hash;
//! use pkit_mtc::subtree::Subtree;
//! use pkit_mtc::tree::{evaluate_inclusion_proof, inclusion_proof, MemTree};
//!
//! let entries: Vec<Vec<u8>> = (0..1000u32).map(|i| i.to_be_bytes().to_vec()).collect();
//! let tree = MemTree::from_leaves(entries.iter().map(|e| leaf_hash(e)).collect());
//! let whole = Subtree::new(0, 1000);
//! let proof = inclusion_proof(&tree, 617, whole).unwrap();
//! assert_eq!(proof.len(), 10);
//! let root = evaluate_inclusion_proof(617, whole, &leaf_hash(&entries[617]), &proof).unwrap();
//! assert_eq!(root, tree.root());
//! // Another entry at that index does not lead to the root.
//! let other = evaluate_inclusion_proof(617, whole, &leaf_hash(b"forged"), &proof).unwrap();
//! assert_ne!(other, tree.root());
//! ```
//!
//! # Public API, by pipeline stage
//!
//! Each stage of issuing and checking MTC certificates is a separate public function, so
//! a benchmark can time them one by one:
//!
//! | stage | call |
//! |---|---|
//! | `cert_gen` | ordinary X.509 issuance (the CA's, `pkit-ca`); MTC input is its TBS |
//! | `entry_convert` | [`cert::entry_from_certificate`] (X.509 → MTCLogEntry + SPKI), or [`entry::encode_tbs_entry`] + [`entry::encode_entry`] from parts |
//! | `leaf_hash` | [`hash::leaf_hash`] |
//! | `db_insert_entries` | [`store::LogStore::append_entries`] (one transaction per call) |
//! | `tree_build` | [`tree::MemTree::from_leaves`], then [`tree::MemTree::root`] |
//! | `proof_gen_all` | [`tree::all_inclusion_proofs`] |
//! | `proof_gen_one` | [`tree::inclusion_proof`] (from a [`tree::MemTree`] or a [`store::LogStore`]) |
//! | `checkpoint_create` | [`issuer::create_checkpoint`] |
//! | `db_insert_checkpoint` | [`store::LogStore::insert_checkpoint`] |
//! | `proof_encode` | [`proof::MtcProof::encode`] |
//! | `db_insert_proofs` | [`store::LogStore::insert_proofs`] (one transaction per call) |
//! | `standalone_build` | [`cert::build_tbs`] |
//! | `standalone_encode` | [`cert::assemble`] (DER; PEM through the `pem` crate) |
//! | `db_insert_standalone` | [`store::LogStore::insert_certificates`] (one transaction per call) |
//! | `proof_verify_one` / `proof_verify_all` | [`tree::evaluate_inclusion_proof`]; the whole §7.2 check is [`verify::verify_certificate`] |
//! | `db_read_entries` | [`store::LogStore::entries`] |
//! | `db_read_standalone` | [`store::LogStore::stored_certificates`] |
//!
//! `pkit mtc cert` runs the issuing stages for one index at a time through
//! [`issuer::issue`] (the proof from the stored tree, then encode, build and assemble),
//! over a range with [`issuer::issue_range`], which records proofs and certificates
//! together with [`store::LogStore::record_issued`].
//!
//! # Modules
//!
//! - [`hash`]: leaf and node hashing (SHA-256 through `sha2`).
//! - [`subtree`]: `[start, end)` validity and covering subtrees, overflow-safe.
//! - [`tree`]: complete nodes by level, subtree hashes, inclusion and consistency proofs
//!   and their evaluation, over any [`tree::NodeSource`].
//! - [`ids`]: trust anchor IDs (binary, dotted, note name, X.509 Name).
//! - [`entry`]: TBSCertificateLogEntry / MTCLogEntry encoding.
//! - [`cosign`]: CosignedSubtree, cosigner keys, key IDs.
//! - [`checkpoint`]: the C2SP signed-note checkpoint.
//! - [`proof`]: MTCProof TLS encoding.
//! - [`cert`]: certificate assembly, serials, the §5.5 CA certificate.
//! - [`verify`]: the §7.2 relying-party procedure, naming the failed step.
//! - [`landmark`]: landmarks, the landmark list text, and the subtrees the active ones
//!   certify (from the log's own tree, or a served list).
//! - [`limits`]: the wire format's integer bounds (uint48).
//! - [`store`]: the log store ([`store::LogStore`]) and `mtc.db`, its SQLite
//!   implementation.
//! - [`frontier`]: the right edge a log store appends through.
//! - [`issuer`]: checkpointing, and per-index proofs (in the signed subtree, or one asked
//!   for) and certificates from the store.
//! - [`audit`]: recomputing a tiled log's root from its tiles, checking each tile
//!   level and the consistency with the tree seen before (`pkit mtc audit`).
//! - [`publish`]: what a log serves, resource by resource, bounded by its latest
//!   checkpoint (`pkit mtc serve`), and a static copy brought up to it tile by tile,
//!   the checkpoint last ([`publish::catch_up`], `pkit mtc tiles`).
//! - [`tile_source`]: a served log's tree read from its tiles, for proofs
//!   against a log known only by URL (`pkit mtc verify --url`).
//! - [`fetch`]: where a served log's resources come from ([`fetch::Fetch`]).
//! - [`remote`]: a served log seen from outside: its checkpoint checked against the
//!   CA's key, its subtrees proven from its tiles, its active landmarks.
//! - [`setup`]: a CA directory's files, a new CA's certificate and serial range, the
//!   log's record of whose it is, the directory made in a crash-safe order, and the CA
//!   loaded with its cosigner key.
//! - [`witness`]: what a witness signs, and the cosignatures the CA takes from one
//!   into its log ([`witness::Cosignatures`]).
//! - [`tiles`]: the log as tlog-tiles (c2sp.org/tlog-tiles, mtc-tlog): which tiles
//!   a tree has, their paths, hash tiles and entry bundles.

#![forbid(unsafe_code)]
#![deny(missing_docs, unreachable_pub)]

/// The DER engine, under the path the modules use.
use pkit_der as der;

pub mod add;
pub mod audit;
pub mod cert;
pub mod checkpoint;
pub mod cosign;
pub mod entry;
pub mod error;
pub mod fetch;
pub mod frontier;
pub mod hash;
pub mod ids;
pub mod issuer;
pub mod landmark;
pub mod limits;
pub mod proof;
pub mod publish;
pub mod remote;
pub mod setup;
pub mod store;
pub mod subtree;
pub mod tile_source;
pub mod tiles;
pub mod tlog_subtree;
pub mod tlog_witness;
pub mod tree;
pub mod verify;
pub mod witness;
#[cfg(feature = "postgres")]
pub mod witness_pg;
pub mod witness_policy;
pub mod witness_state;

#[cfg(test)]
mod tree_properties;

pub use error::{MtcError, Result};
