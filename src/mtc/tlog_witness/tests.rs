//! The witness's side of tlog-witness over in-memory trees: it cosigns a log that
//! extends what it recorded, answers each refusal with the protocol's status, and never
//! records what it refused.

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
    let backend = pkit_openssl::backend();
    let ca_id = TrustAnchorId::parse("32473.1").unwrap();
    let ca = Cosigner::new(ca_id.clone(), backend.generate(Algorithm::Ed25519).unwrap()).unwrap();
    let w_id = TrustAnchorId::parse("32473.900").unwrap();
    let cosigner = Cosigner::new(w_id, backend.generate(Algorithm::Ed25519).unwrap()).unwrap();
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
