//! The witness's side of tlog-witness over in-memory trees: it cosigns a log that
//! extends what it recorded, answers each refusal with the protocol's status, and never
//! records what it refused; and `sign-subtree` (`crate::tlog_subtree`), the subtree
//! cosignature of a checkpoint it cosigned.

use super::*;
use crate::checkpoint::NoteSignature;
use crate::hash::leaf_hash;
use crate::ids::TrustAnchorId;
use crate::tree::MemTree;
use crate::witness::parse_signature_line;
use crate::witness_state::SqliteWitnessState;
use pkit_x509::alg::Algorithm;

const T: u64 = 1_800_000_000;

struct Fixture {
    backend: &'static Backend,
    log: TrustAnchorId,
    ca: Cosigner,
    witness: Witness,
}

fn fixture() -> Fixture {
    fixture_with(Algorithm::Ed25519)
}

/// The fixture with a witness key of `alg`.
fn fixture_with(alg: Algorithm) -> Fixture {
    let backend = pkit_openssl::backend();
    let ca_id = TrustAnchorId::parse("32473.1").unwrap();
    let ca = Cosigner::new(ca_id.clone(), backend.generate(Algorithm::Ed25519).unwrap()).unwrap();
    let w_id = TrustAnchorId::parse("32473.900").unwrap();
    let cosigner = Cosigner::new(w_id, backend.generate(alg).unwrap()).unwrap();
    let info = CaInfo {
        ca_id: ca_id.clone(),
        spki: ca.public.spki.clone(),
        min_serial: 0,
        max_serial: 0,
    };
    Fixture {
        backend,
        log: ca_id.log_id(1),
        ca,
        witness: Witness {
            cosigner,
            cas: vec![info],
        },
    }
}

/// A tree of `n` leaves; `fork` changes every leaf from `fork` on.
fn tree(n: u32, fork: Option<u32>) -> MemTree {
    let mut t = MemTree::default();
    for i in 0..n {
        let salt = if fork.is_some_and(|f| i >= f) { 1u8 } else { 0 };
        t.push(leaf_hash(&[&i.to_be_bytes()[..], &[salt]].concat()));
    }
    t
}

impl Fixture {
    fn note(&self, t: &MemTree) -> (Checkpoint, String) {
        let cp = Checkpoint {
            origin: self.log.note_name(),
            size: t.size(),
            root: t.root(),
        };
        let note = cp.sign(&self.log, &self.ca, T).unwrap();
        (cp, note)
    }

    fn add(
        &self,
        state: &mut SqliteWitnessState,
        t: &MemTree,
        old: u64,
    ) -> std::result::Result<NoteSignature, Refusal> {
        let (cp, note) = self.note(t);
        let rq = request(t, &note, old, t.size()).unwrap();
        let line = self
            .witness
            .add_checkpoint(self.backend, state, &rq, T + 1)?;
        let sig = parse_signature_line(&cp, line.trim_end()).unwrap();
        assert!(cp
            .verify(self.backend, &self.log, &self.witness.cosigner.public, &sig)
            .unwrap());
        Ok(sig)
    }
}

#[test]
fn cosigns_a_log_that_extends_what_it_recorded_and_refuses_the_rest() {
    let f = fixture();
    let dir = tempfile::tempdir().unwrap();
    let mut state = SqliteWitnessState::open(&dir.path().join("witness.db")).unwrap();
    let origin = f.log.note_name();

    // First sight: from 0, no proof.
    let sig = f.add(&mut state, &tree(300, None), 0).unwrap();
    assert_eq!(sig.timestamp, T + 1);
    assert_eq!(state.recorded(&origin).unwrap().unwrap().size, 300);

    // Grown: from 300, with the proof.
    f.add(&mut state, &tree(1000, None), 300).unwrap();
    // The same checkpoint again is cosigned again.
    f.add(&mut state, &tree(1000, None), 1000).unwrap();

    // A stale old size: 409 with the size it holds, as text/x.tlog.size.
    let e = f.add(&mut state, &tree(1200, None), 300).unwrap_err();
    assert_eq!(
        (e.status(), e.body(), e.content_type()),
        (409, "1000\n".into(), SIZE_CONTENT_TYPE)
    );

    // A fork: the same origin and key, other leaves past 700: the proof cannot verify.
    let e = f.add(&mut state, &tree(1200, Some(700)), 1000).unwrap_err();
    assert_eq!(e.status(), 422, "{e:?}");
    // The same size with another root: a conflict.
    let e = f.add(&mut state, &tree(1000, Some(700)), 1000).unwrap_err();
    assert_eq!(e.status(), 409, "{e:?}");
    // Nothing refused was recorded.
    let r = state.recorded(&origin).unwrap().unwrap();
    assert_eq!((r.size, r.root), (1000, tree(1000, None).root()));
}

#[test]
fn unknown_logs_unsigned_checkpoints_and_bad_sizes() {
    let f = fixture();
    let dir = tempfile::tempdir().unwrap();
    let mut state = SqliteWitnessState::open(&dir.path().join("witness.db")).unwrap();
    let t = tree(10, None);

    // Another CA's log: 404.
    let other = TrustAnchorId::parse("32473.2").unwrap().log_id(1);
    let cp = Checkpoint {
        origin: other.note_name(),
        size: 10,
        root: t.root(),
    };
    let rq = request(&t, &cp.sign(&other, &f.ca, T).unwrap(), 0, 10).unwrap();
    let e = f
        .witness
        .add_checkpoint(f.backend, &mut state, &rq, T)
        .unwrap_err();
    assert_eq!(e.status(), 404, "{e:?}");

    // Signed by a key that is not the log's: 403.
    let impostor = Cosigner::new(
        TrustAnchorId::parse("32473.1").unwrap(),
        f.backend.generate(Algorithm::Ed25519).unwrap(),
    )
    .unwrap();
    let (cp, _) = f.note(&t);
    let rq = request(&t, &cp.sign(&f.log, &impostor, T).unwrap(), 0, 10).unwrap();
    let e = f
        .witness
        .add_checkpoint(f.backend, &mut state, &rq, T)
        .unwrap_err();
    assert_eq!(e.status(), 403, "{e:?}");

    // old past the size, or a proof from 0: 400.
    let (_, note) = f.note(&t);
    let mut rq = request(&t, &note, 0, 10).unwrap();
    rq.old = 11;
    assert_eq!(
        f.witness
            .add_checkpoint(f.backend, &mut state, &rq, T)
            .unwrap_err()
            .status(),
        400
    );
    rq.old = 0;
    rq.proof = vec![[0; 32]];
    assert_eq!(
        f.witness
            .add_checkpoint(f.backend, &mut state, &rq, T)
            .unwrap_err()
            .status(),
        400
    );
    assert!(state.recorded(&f.log.note_name()).unwrap().is_none());
}

/// Of the lines carrying the log's name and key ID, the first is the one verified: a
/// note padded with hundreds of such lines that do not verify buys one signature check,
/// not hundreds.
#[test]
fn one_line_by_the_logs_key_is_verified() {
    use base64::engine::general_purpose::STANDARD as B64;
    use base64::Engine as _;
    let f = fixture();
    let dir = tempfile::tempdir().unwrap();
    let mut state = SqliteWitnessState::open(&dir.path().join("witness.db")).unwrap();
    let t = tree(10, None);
    let (_, note) = f.note(&t);
    let good = note.lines().last().unwrap().to_string();
    let (head, sig) = good.rsplit_once(' ').unwrap();
    let mut raw = B64.decode(sig).unwrap();
    *raw.last_mut().unwrap() ^= 1;
    let bad = format!("{head} {}", B64.encode(raw));
    let body = &note[..note.len() - good.len() - 1];
    let mut with = |lines: &[&str]| {
        let note: String = std::iter::once(body.to_string())
            .chain(lines.iter().map(|l| format!("{l}\n")))
            .collect();
        let rq = request(&t, &note, 0, 10).unwrap();
        f.witness.add_checkpoint(f.backend, &mut state, &rq, T)
    };
    let mut padded = vec![bad.as_str(); 300];
    padded.push(&good);
    assert_eq!(with(&padded).unwrap_err().status(), 403);
    padded.reverse();
    assert!(with(&padded).is_ok());
}

#[test]
fn request_bodies_round_trip_and_malformed_ones_say_where() {
    let rq = AddCheckpoint {
        old: 20,
        proof: vec![[1; 32], [2; 32]],
        note: "origin\n30\nroot\n\n\u{2014} x y\n".into(),
    };
    assert_eq!(AddCheckpoint::parse(rq.body().as_bytes()).unwrap(), rq);
    let bad = |body: &str| match AddCheckpoint::parse(body.as_bytes()) {
        Err(Refusal::Malformed(w)) => w,
        other => panic!("{other:?}"),
    };
    assert!(bad("old 01\n\n").contains("at byte 0"));
    assert!(bad("new 1\n\n").contains("old SIZE"));
    assert!(bad("old 1\nnot base64\n\n").contains("at byte 6"));
    assert!(bad("old 1\n").contains("empty line"));
    let many = format!(
        "old 1\n{}\n",
        "AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=\n".repeat(64)
    );
    assert!(bad(&many).contains("at most 63"));
    assert_eq!(AddCheckpoint::parse(b"old 0\n\nx").unwrap().note, "x");
}

/// The witness's cosignature line on checkpoint `note`, as `add-checkpoint` answered it,
/// appended to the checkpoint (what the log sends to `sign-subtree`).
fn cosigned_note(f: &Fixture, t: &MemTree) -> (Checkpoint, String) {
    let dir = tempfile::tempdir().unwrap();
    let mut state = SqliteWitnessState::open(&dir.path().join("witness.db")).unwrap();
    let (cp, note) = f.note(t);
    let rq = request(t, &note, 0, t.size()).unwrap();
    let line = f
        .witness
        .add_checkpoint(f.backend, &mut state, &rq, T + 1)
        .unwrap();
    (cp.clone(), format!("{}\n{line}", cp.body()))
}

#[test]
fn sign_subtree_cosigns_a_proven_subtree_of_a_checkpoint_it_cosigned() {
    use crate::tlog_subtree::{accept, request as subtree_request, SignSubtree};
    use crate::tree::subtree_hash;
    let f = fixture_with(Algorithm::MlDsa44);
    let t = tree(13, None);
    let (cp, note) = cosigned_note(&f, &t);
    let key = &f.witness.cosigner.public;
    for st in [
        Subtree::new(8, 13),
        Subtree::new(0, 8),
        Subtree::new(12, 13),
    ] {
        let h = subtree_hash(&t, st).unwrap();
        let rq = subtree_request(&t, st, h, &note, 13).unwrap();
        assert_eq!(SignSubtree::parse(rq.body().as_bytes()).unwrap(), rq);
        let answer = f.witness.sign_subtree(f.backend, &rq).unwrap();
        // What the CA keeps: the cosignature over (st, h), timestamp 0, by the witness.
        let got = accept(f.backend, &cp, &f.log, key, st, &h, &answer)
            .unwrap()
            .expect("a cosignature that verifies");
        assert_eq!((got.subtree, got.hash), (st, h));
        assert!(key
            .verify_subtree(f.backend, 0, &f.log, st, &h, &got.signature)
            .unwrap());
        // Not over another subtree.
        let other = Subtree::new(0, 4);
        let oh = subtree_hash(&t, other).unwrap();
        assert!(accept(f.backend, &cp, &f.log, key, other, &oh, &answer)
            .unwrap()
            .is_none());
    }

    let st = Subtree::new(8, 13);
    let h = subtree_hash(&t, st).unwrap();
    let good = subtree_request(&t, st, h, &note, 13).unwrap();
    let refused = |rq: &SignSubtree| f.witness.sign_subtree(f.backend, rq).unwrap_err();
    // A hash the proof does not take to the root: 422.
    let mut rq = good.clone();
    rq.hash = [7; 32];
    assert_eq!(refused(&rq).status(), 422);
    // The checkpoint with only the log's signature, not the witness's: 403.
    let mut rq = good.clone();
    rq.note = f.note(&t).1;
    assert_eq!(refused(&rq).status(), 403);
    // A subtree past the checkpoint: 400.
    let bigger = tree(16, None);
    let mut rq = subtree_request(
        &bigger,
        Subtree::new(8, 16),
        subtree_hash(&bigger, Subtree::new(8, 16)).unwrap(),
        &note,
        16,
    )
    .unwrap();
    rq.note = note.clone();
    assert_eq!(refused(&rq).status(), 400);
    // A log it does not know: 404.
    let other = TrustAnchorId::parse("32473.2").unwrap().log_id(1);
    let mut rq = good.clone();
    rq.note = Checkpoint {
        origin: other.note_name(),
        ..cp.clone()
    }
    .sign(&other, &f.ca, T)
    .unwrap();
    assert_eq!(refused(&rq).status(), 404);
    // An Ed25519 witness (cosignature/v1 signs no subtrees): 404, the call is not there.
    let ed = fixture();
    let (_, ed_note) = cosigned_note(&ed, &t);
    let mut rq = good.clone();
    rq.note = ed_note;
    assert_eq!(
        ed.witness
            .sign_subtree(ed.backend, &rq)
            .unwrap_err()
            .status(),
        404
    );
}

#[test]
fn sign_subtree_bodies_that_are_not_one_say_where() {
    use crate::tlog_subtree::SignSubtree;
    let bad = |body: &str| match SignSubtree::parse(body.as_bytes()) {
        Err(Refusal::Malformed(w)) => w,
        other => panic!("{other:?}"),
    };
    let h = "AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=";
    assert!(bad(&format!("subtree 08 13\n{h}\n\n")).contains("at byte 0"));
    assert!(bad(&format!("subtree 9 13\n{h}\n\n")).contains("a valid, non-empty subtree"));
    assert!(bad(&format!("subtree 13 8\n{h}\n\n")).contains("a valid, non-empty subtree"));
    assert!(bad(&format!("subtree 8 8\n{h}\n\n")).contains("a valid, non-empty subtree"));
    assert!(bad(&format!("old 8 13\n{h}\n\n")).contains("subtree START END"));
    assert!(bad("subtree 8 13\nnot a hash\n\n").contains("at byte 13"));
    assert!(bad(&format!("subtree 8 13\n{h}\n")).contains("empty line"));
    let rq = SignSubtree::parse(format!("subtree 0 1\n{h}\n\nnote").as_bytes()).unwrap();
    assert_eq!(
        (rq.subtree, rq.proof.len(), rq.note.as_str()),
        (Subtree::new(0, 1), 0, "note")
    );
}
