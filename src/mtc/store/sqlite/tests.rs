//! Unit tests of `sqlite.rs`.

use super::*;
use crate::hash::leaf_hash;
use crate::tree::{inclusion_proof, subtree_hash};

#[test]
fn stored_tree_matches_memory() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mtc.db");
    let leaves: Vec<Hash> = (0..77u8).map(|i| leaf_hash(&[i])).collect();
    {
        let mut s = SqliteLogStore::open(&path).unwrap();
        for chunk in leaves.chunks(10) {
            let batch: Vec<NewEntry> = chunk
                .iter()
                .map(|l| NewEntry {
                    entry: vec![1],
                    spki: vec![2],
                    leaf: *l,
                })
                .collect();
            s.append_entries(&batch).unwrap();
        }
    }
    // Reopen: the frontier comes back from the stored nodes.
    let mut s = SqliteLogStore::open(&path).unwrap();
    let extra = leaf_hash(&[77]);
    s.append_entries(&[NewEntry {
        entry: vec![1],
        spki: vec![2],
        leaf: extra,
    }])
    .unwrap();
    let mut all = leaves.clone();
    all.push(extra);
    let m = MemTree::from_leaves(all);
    for st in [
        Subtree::new(0, 78),
        Subtree::new(64, 78),
        Subtree::new(32, 64),
    ] {
        assert_eq!(subtree_hash(&s, st).unwrap(), subtree_hash(&m, st).unwrap());
        assert_eq!(
            inclusion_proof(&s, st.start + 5, st).unwrap(),
            inclusion_proof(&m, st.start + 5, st).unwrap()
        );
    }
    assert_eq!(s.load_tree().unwrap().root(), m.root());
}

/// Two connections append in turn (as an ACME server's workers do): each carries on from
/// the other's entries, and after `refresh` each sees the whole tree.
#[test]
fn two_connections_append_in_turn() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mtc.db");
    let mut a = SqliteLogStore::open(&path).unwrap();
    let mut b = SqliteLogStore::open(&path).unwrap();
    let leaves: Vec<Hash> = (0..23u8).map(|i| leaf_hash(&[i])).collect();
    let one = |l: &Hash| NewEntry {
        entry: vec![1],
        spki: vec![2],
        leaf: *l,
    };
    for (i, l) in leaves.iter().enumerate() {
        let s = if i % 3 == 0 { &mut a } else { &mut b };
        assert_eq!(s.append_entries(&[one(l)]).unwrap(), i as u64);
    }
    let m = MemTree::from_leaves(leaves);
    for s in [&mut a, &mut b] {
        s.refresh().unwrap();
        assert_eq!(s.size(), 23);
        let whole = Subtree::new(0, 23);
        assert_eq!(subtree_hash(&*s, whole).unwrap(), m.root());
        assert_eq!(
            inclusion_proof(&*s, 17, whole).unwrap(),
            inclusion_proof(&m, 17, whole).unwrap()
        );
    }
}

/// Checkpoints from two connections (two servers' checkpointers on one `mtc.db`): each
/// leads inside one immediate transaction from the log as both left it, so they follow
/// each other — 5 entries, then 8 — and the second with nothing new signs nothing.
#[test]
fn two_connections_checkpoint_in_turn() {
    use crate::ids::TrustAnchorId;
    use crate::issuer::{checkpoint_store, MtcCa};
    use pkit_openssl as openssl;
    use pkit_x509::alg::Algorithm;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mtc.db");
    let mut a = SqliteLogStore::open(&path).unwrap();
    let mut b = SqliteLogStore::open(&path).unwrap();
    let ca_id = TrustAnchorId::parse("32473.1").unwrap();
    let key = openssl::backend().generate(Algorithm::Ed25519).unwrap();
    let ca = MtcCa {
        ca_id: ca_id.clone(),
        log: 1,
        cosigner: crate::cosign::Cosigner::new(ca_id, key).unwrap(),
    };
    let leaves: Vec<Hash> = (0..8u8).map(|i| leaf_hash(&[i])).collect();
    let entries = |ls: &[Hash]| -> Vec<NewEntry> {
        ls.iter()
            .map(|l| NewEntry {
                entry: vec![1],
                spki: vec![2],
                leaf: *l,
            })
            .collect()
    };
    a.append_entries(&entries(&leaves[..5])).unwrap();
    assert_eq!(checkpoint_store(&mut a, &ca, 1).unwrap().checkpoint.size, 5);
    // B has not looked since it opened: its appends and its checkpoint start from the
    // log as it is.
    assert_eq!(b.append_entries(&entries(&leaves[5..])).unwrap(), 5);
    let r = checkpoint_store(&mut b, &ca, 2).unwrap();
    assert_eq!((r.previous_size, r.checkpoint.size), (5, 8));
    assert_eq!(r.checkpoint.root, MemTree::from_leaves(leaves).root());
    assert!(matches!(
        checkpoint_store(&mut a, &ca, 3),
        Err(MtcError::NothingNew { size: 8 })
    ));
    // Neither leader left its transaction open.
    a.append_entries(&entries(&[leaf_hash(b"more")])).unwrap();
}

fn proof_row(index: u64, kind: CertKind, byte: u8) -> StoredProof {
    StoredProof {
        index,
        kind,
        subtree: Subtree::new(index & !3, (index & !3) + 4),
        proof: vec![byte; 40 + (index % 64) as usize],
    }
}

fn cert_row(index: u64, kind: CertKind, byte: u8) -> StoredCertificate {
    StoredCertificate {
        index,
        kind,
        der: vec![byte; 700 + (index % 64) as usize],
        created: 1_700_000_000 + (index % 64) as i64,
    }
}

#[test]
fn issued_rows_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mtc.db");
    let mut s = SqliteLogStore::open(&path).unwrap();
    let proofs: Vec<_> = (0..10)
        .map(|i| proof_row(i, CertKind::Standalone, 1))
        .collect();
    let certs: Vec<_> = (0..10)
        .map(|i| cert_row(i, CertKind::Standalone, 1))
        .collect();
    s.insert_proofs(&proofs).unwrap();
    s.insert_certificates(&certs).unwrap();
    // The other kind of the same index is a row of its own.
    s.record_issued(
        &[proof_row(3, CertKind::Landmark, 2)],
        &[cert_row(3, CertKind::Landmark, 2)],
    )
    .unwrap();
    drop(s);
    let mut s = SqliteLogStore::open(&path).unwrap();
    assert_eq!(s.proofs_in(0, 10, CertKind::Standalone).unwrap(), proofs);
    assert_eq!(
        s.stored_certificates(0, 10, CertKind::Standalone).unwrap(),
        certs
    );
    assert_eq!(
        s.stored_certificates(2, 5, CertKind::Standalone).unwrap(),
        certs[2..5]
    );
    assert_eq!(
        s.stored_certificates(0, 10, CertKind::Landmark).unwrap(),
        [cert_row(3, CertKind::Landmark, 2)]
    );
    assert_eq!(
        s.proof(3, CertKind::Landmark).unwrap(),
        Some(proof_row(3, CertKind::Landmark, 2))
    );
    assert_eq!(
        s.stored_certificate(10, CertKind::Standalone).unwrap(),
        None
    );
    assert_eq!(s.proof(4, CertKind::Landmark).unwrap(), None);
    // Issuing again replaces the row of that index and kind.
    s.record_issued(
        &[proof_row(4, CertKind::Standalone, 9)],
        &[cert_row(4, CertKind::Standalone, 9)],
    )
    .unwrap();
    assert_eq!(
        s.stored_certificate(4, CertKind::Standalone).unwrap(),
        Some(cert_row(4, CertKind::Standalone, 9))
    );
    assert_eq!(
        s.proof(4, CertKind::Standalone).unwrap(),
        Some(proof_row(4, CertKind::Standalone, 9))
    );
    assert_eq!(s.proofs_in(0, 10, CertKind::Standalone).unwrap().len(), 10);
}

#[test]
fn failed_batch_stores_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = SqliteLogStore::open(&dir.path().join("mtc.db")).unwrap();
    // The second row's index is past SQLite's range: the whole batch is rolled back.
    let certs = [
        cert_row(1, CertKind::Standalone, 1),
        cert_row(u64::MAX, CertKind::Standalone, 1),
    ];
    assert!(s.insert_certificates(&certs).is_err());
    assert!(s
        .stored_certificates(0, 10, CertKind::Standalone)
        .unwrap()
        .is_empty());
    let proofs = [proof_row(1, CertKind::Standalone, 1)];
    assert!(s.record_issued(&proofs, &certs).is_err());
    assert_eq!(s.proof(1, CertKind::Standalone).unwrap(), None);
}

#[test]
fn migrates_a_version_1_database() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mtc.db");
    // A log written by the first schema: meta, entries and nodes, a checkpoint.
    let leaves: Vec<Hash> = (0..5u8).map(|i| leaf_hash(&[i])).collect();
    let m = MemTree::from_leaves(leaves.clone());
    {
        let conn = open_versioned(&path, &MIGRATIONS[..1]).unwrap();
        let v: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(v, 1);
        conn.execute("INSERT INTO meta (key, value) VALUES ('log', '1')", [])
            .unwrap();
        for (i, l) in leaves.iter().enumerate() {
            conn.execute(
                "INSERT INTO entries (idx, entry, spki, leaf) VALUES (?1, x'01', x'02', ?2)",
                params![i as i64, &l[..]],
            )
            .unwrap();
        }
        for level in 1..3u32 {
            for (i, h) in m.level(level).iter().enumerate() {
                conn.execute(
                    "INSERT INTO nodes (level, idx, hash) VALUES (?1, ?2, ?3)",
                    params![i64::from(level), i as i64, &h[..]],
                )
                .unwrap();
            }
        }
        conn.execute(
            "INSERT INTO checkpoints (size, root, note, created) VALUES (5, ?1, 'n', 7)",
            [&m.root()[..]],
        )
        .unwrap();
        assert!(conn
                .execute("INSERT INTO certificates (idx, kind, der, created) VALUES (0, 'standalone', x'30', 0)", [])
                .is_err());
    }
    let mut s = SqliteLogStore::open(&path).unwrap();
    let v: i64 = s
        .conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(v, SCHEMA_VERSION);
    // What was there is intact and the tree goes on from its right edge.
    assert_eq!(s.meta("log").unwrap().as_deref(), Some("1"));
    assert_eq!(s.size(), 5);
    assert_eq!(s.latest_checkpoint().unwrap().unwrap().root, m.root());
    s.append_entries(&[NewEntry {
        entry: vec![1],
        spki: vec![2],
        leaf: leaf_hash(&[5]),
    }])
    .unwrap();
    let mut all = leaves;
    all.push(leaf_hash(&[5]));
    assert_eq!(
        s.load_tree().unwrap().root(),
        MemTree::from_leaves(all).root()
    );
    // The new tables work.
    s.record_issued(
        &[proof_row(0, CertKind::Standalone, 1)],
        &[cert_row(0, CertKind::Standalone, 1)],
    )
    .unwrap();
    assert_eq!(
        s.stored_certificates(0, 6, CertKind::Standalone).unwrap(),
        [cert_row(0, CertKind::Standalone, 1)]
    );
    drop(s);
    // Opening again migrates nothing more.
    let s = SqliteLogStore::open(&path).unwrap();
    assert_eq!(s.proofs_in(0, 6, CertKind::Standalone).unwrap().len(), 1);
}
