//! Targets for Merkle Tree Certificates: certificates checked by the relying party's
//! steps against a fixed CA, MTCProofs decoded and re-encoded with their inclusion
//! proofs evaluated, checkpoints and signed notes (and landmark lists) parsed and their
//! signatures checked, tiles and entry bundles audited as `pkit mtc audit` reads a log,
//! and cosignature lines read as `pkit mtc checkpoint --cosignature` reads them.

use super::objects::show;
use crate::der::Time;
use crate::mtc::audit::audit;
use crate::mtc::cert::CaInfo;
use crate::mtc::checkpoint::Checkpoint;
use crate::mtc::cosign::CosignerKey;
use crate::mtc::fetch::FetchError;
use crate::mtc::hash::{leaf_hash, Hash};
use crate::mtc::ids::TrustAnchorId;
use crate::mtc::landmark::parse_list;
use crate::mtc::proof::MtcProof;
use crate::mtc::subtree::Subtree;
use crate::mtc::tiles::Tile;
use crate::mtc::tree::evaluate_inclusion_proof;
use crate::mtc::verify::{proof_subtree, verify_certificate, Policy, TrustedSubtree};
use crate::mtc::witness::{parse_signature_line, SubtreeCosignature};
use crate::pki::backend::openssl;
use std::hint::black_box;
use std::sync::OnceLock;

/// RFC 8032 §7.1 TEST 1's Ed25519 public key, as an SPKI: a real key, so that signature
/// checks run to the end and fail there.
const ED25519_SPKI: [u8; 44] = {
    let mut s = [0u8; 44];
    let head = [
        0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00,
    ];
    let key = [
        0xd7, 0x5a, 0x98, 0x01, 0x82, 0xb1, 0x0a, 0xb7, 0xd5, 0x4b, 0xfe, 0xd3, 0xc9, 0x64, 0x07,
        0x3a, 0x0e, 0xe1, 0x72, 0xf3, 0xda, 0xa6, 0x23, 0x25, 0xaf, 0x02, 0x1a, 0x68, 0xf7, 0x07,
        0x51, 0x1a,
    ];
    let mut i = 0;
    while i < 12 {
        s[i] = head[i];
        i += 1;
    }
    while i < 44 {
        s[i] = key[i - 12];
        i += 1;
    }
    s
};

/// The relying party every MTC target checks against: CA `32473.1` (the draft's
/// example arcs), cosigning with the key above, trusting a landmark over entries 0..8.
struct Fixture {
    log: TrustAnchorId,
    key: CosignerKey,
    policy: Policy,
}

fn fixture() -> Option<&'static Fixture> {
    static F: OnceLock<Option<Fixture>> = OnceLock::new();
    F.get_or_init(|| {
        let ca_id = TrustAnchorId::parse("32473.1").ok()?;
        let key = CosignerKey::new(ca_id.clone(), ED25519_SPKI.to_vec()).ok()?;
        let policy = Policy {
            ca: CaInfo {
                ca_id: ca_id.clone(),
                spki: ED25519_SPKI.to_vec(),
                min_serial: 0,
                max_serial: u64::MAX,
            },
            cosigners: vec![key.clone()],
            trusted: vec![TrustedSubtree {
                log: 0,
                subtree: Subtree { start: 0, end: 8 },
                hash: [7; 32],
            }],
            now: Time {
                unix: 1_800_000_000,
            },
        };
        Some(Fixture {
            log: ca_id.log_id(0),
            key,
            policy,
        })
    })
    .as_ref()
}

/// A DER certificate through `pkit mtc verify`'s steps (and `parse`'s MTC view).
pub fn mtc_cert(data: &[u8]) {
    black_box(proof_subtree(data));
    if let Some(f) = fixture() {
        if let Ok(v) = verify_certificate(openssl::backend(), data, &f.policy) {
            show(v);
        }
    }
    if let Ok((entry, proof)) = crate::mtc::cert::entry_from_certificate(data) {
        black_box(leaf_hash(&entry));
        black_box(MtcProof::decode(&proof).ok());
    }
    black_box(CaInfo::from_certificate(data).ok());
}

/// An MTCProof (the signatureValue of an MTC certificate): decoded, re-encoded (which
/// must decode to the same proof), its inclusion proof evaluated for an entry at the
/// subtree's start, and its cosignatures checked against the fixed cosigner.
pub fn mtc_proof(data: &[u8]) {
    let Ok(p) = MtcProof::decode(data) else {
        return;
    };
    if let Ok(again) = p.encode() {
        let mut want = p.clone();
        crate::mtc::proof::normalize_signatures(&mut want.signatures);
        assert_eq!(
            MtcProof::decode(&again).ok(),
            Some(want),
            "an MTCProof pkit encoded did not decode to itself"
        );
    }
    let leaf: Hash = leaf_hash(&p.extensions);
    let Ok(root) = evaluate_inclusion_proof(p.subtree.start, p.subtree, &leaf, &p.inclusion_proof)
    else {
        return;
    };
    let Some(f) = fixture() else { return };
    for s in &p.signatures {
        if s.cosigner_id == f.key.id.binary() {
            let ok = f.key.verify_subtree(
                openssl::backend(),
                0,
                &f.log,
                p.subtree,
                &root,
                &s.signature,
            );
            black_box(ok.ok());
        }
    }
}

/// A signed note (checkpoint) as text: parsed, its body written back and parsed again,
/// every signature line checked against the fixed cosigner; the same text read as a
/// landmark list.
pub fn mtc_checkpoint(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    black_box(parse_list(text).ok());
    let Ok((cp, sigs)) = Checkpoint::parse(text) else {
        return;
    };
    let body = cp.body();
    black_box(&body);
    let Some(f) = fixture() else { return };
    for s in &sigs {
        black_box(cp.verify(openssl::backend(), &f.log, &f.key, s).ok());
    }
}

/// Tiles and cosignatures. The first byte chooses: odd, the rest is a tree size, a root
/// and tiles that an audit of that tree fetches (the tile for a path is a piece of the
/// input chosen by the path, so the same input always serves the same tiles); even, the
/// rest is a file of cosignature lines for a fixed checkpoint.
pub fn mtc_tile(data: &[u8]) {
    match data.split_first() {
        Some((m, rest)) if m & 1 == 1 => tiles(rest),
        Some((_, rest)) => cosignature_lines(rest),
        None => {}
    }
}

fn tiles(data: &[u8]) {
    if data.len() < 41 {
        return;
    }
    let (head, rest) = data.split_at(41);
    let mut size = [0u8; 8];
    size.copy_from_slice(&head[..8]);
    let mut root = [0u8; 32];
    root.copy_from_slice(&head[8..40]);
    let entries = head[40] & 1 == 1;
    // Pieces of the input separated by a 0xff 0xfe marker serve as the tiles.
    let pieces: Vec<&[u8]> = split_on(rest, b"\xff\xfe");
    let fetch = |path: &str| -> Result<Vec<u8>, FetchError> {
        black_box(Tile::parse(path).ok());
        let h = leaf_hash(path.as_bytes());
        let i = usize::from(h[0]) % pieces.len().max(1);
        pieces
            .get(i)
            .map(|p| p.to_vec())
            .ok_or_else(|| FetchError::NotFound(format!("{path}: not found")))
    };
    if let Ok(r) = audit(&fetch, u64::from_be_bytes(size), root, None, entries) {
        show(r);
    }
}

fn split_on<'a>(data: &'a [u8], sep: &[u8]) -> Vec<&'a [u8]> {
    let mut out = Vec::new();
    let mut rest = data;
    while let Some(i) = memchr::memmem::find(rest, sep) {
        out.push(&rest[..i]);
        rest = &rest[i + sep.len()..];
    }
    out.push(rest);
    out
}

/// Each line read as a cosignature on a fixed checkpoint, the way `pkit mtc checkpoint
/// --cosignature FILE` reads a witness's file.
fn cosignature_lines(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Some(f) = fixture() else { return };
    let cp = Checkpoint {
        origin: f.log.note_name(),
        size: 8,
        root: [7; 32],
    };
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        if let Some(s) = parse_signature_line(&cp, line) {
            black_box(cp.verify(openssl::backend(), &f.log, &f.key, &s).ok());
        }
        // The same line as a witness's subtree cosignature (`--subtree-cosignature`).
        black_box(SubtreeCosignature::parse_line(line, 1, 0).ok());
    }
}
