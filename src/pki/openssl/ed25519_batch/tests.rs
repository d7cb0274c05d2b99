//! Batch and single verification give OpenSSL's single verdicts on the Ed25519 edge cases
//! ("Taming the many EdDSAs", Wycheproof) and on random corruptions.

use super::*;
use crate::backend;
use pkit_x509::alg::{Algorithm, SignatureScheme};
use pkit_x509::backend::VerifyItem;
use pkit_x509::key::public::PublicParts;
use serde_json::Value;

/// A signature case: raw key, message, signature (any length, as the vectors have it).
struct Case {
    name: String,
    key: Vec<u8>,
    message: Vec<u8>,
    signature: Vec<u8>,
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn data(name: &str) -> Value {
    let path = format!(
        "{}/../../../tests/data/ed25519/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap()
}

/// The 768 vectors of filippo.io/mostly-harmless/ed25519vectors (every combination of
/// low-order, mixed-order and non-canonical A and R).
fn edge_cases() -> Vec<Case> {
    data("ed25519vectors.json")
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .map(|(i, v)| Case {
            name: format!("ed25519vectors #{i} {}", v["Flags"]),
            key: hex(v["A"].as_str().unwrap()),
            message: v["M"].as_str().unwrap().as_bytes().to_vec(),
            signature: [hex(v["R"].as_str().unwrap()), hex(v["S"].as_str().unwrap())].concat(),
        })
        .collect()
}

/// Wycheproof's 150 Ed25519 verification vectors.
fn wycheproof() -> Vec<Case> {
    let d = data("wycheproof_ed25519_test.json");
    let mut out = Vec::new();
    for g in d["testGroups"].as_array().unwrap() {
        let key = hex(g["publicKey"]["pk"].as_str().unwrap());
        for t in g["tests"].as_array().unwrap() {
            out.push(Case {
                name: format!("wycheproof tcId {} ({})", t["tcId"], t["comment"]),
                key: key.clone(),
                message: hex(t["msg"].as_str().unwrap()),
                signature: hex(t["sig"].as_str().unwrap()),
            });
        }
    }
    out
}

fn spki(key: &[u8]) -> Vec<u8> {
    PublicParts::Ed25519(key.to_vec()).to_spki()
}

/// OpenSSL's single verdict (a key it cannot decode counts as not verifying).
fn openssl_verdict(c: &Case, spki: &[u8]) -> bool {
    backend()
        .verify(spki, SignatureScheme::Ed25519, &c.message, &c.signature)
        .unwrap_or(false)
}

/// Honest signatures by fresh keys, as cases.
fn honest(n: usize) -> Vec<Case> {
    (0..n)
        .map(|i| {
            let k = backend().generate(Algorithm::Ed25519).unwrap();
            let message = format!("honest message {i}").into_bytes();
            let signature = k.sign(&message).unwrap();
            let spki = k.public_key_der().unwrap();
            Case {
                name: format!("honest #{i}"),
                key: spki[spki.len() - 32..].to_vec(),
                message,
                signature,
            }
        })
        .collect()
}

/// The cases as backend questions, each key in the SPKI beside it.
fn questions<'a>(cases: &'a [Case], spkis: &'a [Vec<u8>]) -> Vec<VerifyItem<'a>> {
    cases
        .iter()
        .zip(spkis)
        .map(|(c, s)| VerifyItem {
            spki_der: s,
            scheme: SignatureScheme::Ed25519,
            message: &c.message,
            signature: &c.signature,
        })
        .collect()
}

/// `Backend::verify_batch` over `cases` gives, case for case, OpenSSL's single verdict.
fn batch_agrees(cases: &[Case]) {
    let spkis: Vec<Vec<u8>> = cases.iter().map(|c| spki(&c.key)).collect();
    let items = questions(cases, &spkis);
    let got = backend().verify_batch(&items);
    for ((c, s), g) in cases.iter().zip(&spkis).zip(got) {
        assert_eq!(
            g.unwrap_or(false),
            openssl_verdict(c, s),
            "{}: batch and OpenSSL disagree",
            c.name
        );
    }
}

/// The items of `cases` that have an Ed25519 key and signature shape.
fn items(cases: &[Case]) -> Vec<Item<'_>> {
    cases
        .iter()
        .filter_map(|c| {
            Some(Item {
                key: c.key.as_slice().try_into().ok()?,
                message: &c.message,
                signature: c.signature.as_slice().try_into().ok()?,
            })
        })
        .collect()
}

#[test]
fn honest_signatures_are_decided_by_the_batch() {
    let cases = honest(64);
    assert!(verify(&items(&cases)).iter().all(|v| *v == Some(true)));
    batch_agrees(&cases);
}

#[test]
fn each_edge_case_beside_honest_signatures_gets_openssls_verdict() {
    let honest = honest(3);
    for set in [edge_cases(), wycheproof()] {
        for c in set {
            // The case alone among valid ones, so a batch is formed around it.
            let mut cases: Vec<Case> = honest
                .iter()
                .map(|h| Case {
                    name: h.name.clone(),
                    key: h.key.clone(),
                    message: h.message.clone(),
                    signature: h.signature.clone(),
                })
                .collect();
            cases.insert(1, c);
            batch_agrees(&cases);
        }
    }
}

#[test]
fn all_edge_cases_in_one_batch_get_openssls_verdicts() {
    let mut cases = edge_cases();
    cases.extend(wycheproof());
    cases.extend(honest(8));
    batch_agrees(&cases);
}

/// The vectors with a point of small order other than the identity (where cofactored and
/// cofactorless verification can differ) or an encoding that is not canonical never reach the batch: the batch decides nothing for them.
#[test]
fn cofactor_and_encoding_edge_cases_are_kept_out_of_the_batch() {
    let cases = edge_cases();
    let honest = honest(1);
    let mut kept_out = 0;
    for c in &cases {
        let pair = [&honest[0], c];
        let both: Vec<Item<'_>> = pair
            .iter()
            .map(|c| Item {
                key: c.key.as_slice().try_into().unwrap(),
                message: &c.message,
                signature: c.signature.as_slice().try_into().unwrap(),
            })
            .collect();
        // Low order alone is the identity, which is in the prime-order subgroup: both
        // equations agree on it, so it may be batched.
        let risky = ["LowOrderComponent", "NonCanonical", "LowOrderResidue"]
            .iter()
            .any(|f| c.name.contains(f));
        if risky {
            assert_eq!(verify(&both)[1], None, "{} was batched", c.name);
            kept_out += 1;
        }
    }
    assert!(
        kept_out > 700,
        "only {kept_out} of {} edge cases",
        cases.len()
    );
}

/// Valid signatures with one bit flipped in R, s, the key or the message; batches
/// that mix them with valid ones.
#[test]
fn random_corruptions_get_openssls_verdicts() {
    let mut cases = honest(48);
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for c in cases.iter_mut().skip(1).step_by(3) {
        let r = next() as usize;
        let bit = 1u8 << (r % 8);
        match (r / 8) % 4 {
            0 => c.signature[(r / 32) % 32] ^= bit,
            1 => c.signature[32 + (r / 32) % 32] ^= bit,
            2 => c.key[(r / 32) % 32] ^= bit,
            _ => c.message[0] ^= bit,
        }
        c.name.push_str(" (corrupted)");
    }
    for chunk in cases.chunks(8) {
        batch_agrees(chunk);
    }
    batch_agrees(&cases);
}

#[test]
fn canonical_encodings() {
    let mut one = [0u8; 32];
    one[0] = 1;
    assert!(canonical_encoding(&one));
    one[31] = 0x80; // x = 0 with its sign bit set
    assert!(!canonical_encoding(&one));
    assert!(!canonical_encoding(&P)); // y = p
    let mut below = P;
    below[0] -= 1; // y = p - 1 = -1
    assert!(canonical_encoding(&below));
    below[31] |= 0x80;
    assert!(!canonical_encoding(&below));
    assert!(!canonical_encoding(&[0xff; 32]));
}

/// The vector files are the ones tests/data/README.md names.
#[test]
fn vector_files_match_their_checksums() {
    use sha2::{Digest, Sha256};
    let dir = format!("{}/../../../tests/data/ed25519", env!("CARGO_MANIFEST_DIR"));
    let sums = std::fs::read_to_string(format!("{dir}/SHA256SUMS")).unwrap();
    for line in sums.lines() {
        let (sum, name) = line.split_once("  ").unwrap();
        let got = Sha256::digest(std::fs::read(format!("{dir}/{name}")).unwrap());
        let got: String = got.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(got, sum, "{name}");
    }
}

/// A key whose AlgorithmIdentifier carries parameters (a NULL): OpenSSL refuses it, and
/// so must the batch — it is left to single verification, which reports the error.
#[test]
fn keys_with_parameters_are_not_batched() {
    let cases = honest(4);
    // SEQUENCE { SEQUENCE { OID 1.3.101.112, NULL }, BIT STRING { 00, key } }
    let with_null = |key: &[u8]| {
        let mut alg = vec![0x06, 0x03, 0x2b, 0x65, 0x70, 0x05, 0x00];
        alg.splice(0..0, [0x30, alg.len() as u8]);
        let mut bits = vec![0x03, 33, 0x00];
        bits.extend_from_slice(key);
        let mut body = alg;
        body.extend(bits);
        let mut der = vec![0x30, body.len() as u8];
        der.extend(body);
        der
    };
    let spkis: Vec<Vec<u8>> = cases.iter().map(|c| with_null(&c.key)).collect();
    let items = questions(&cases, &spkis);
    let single = backend().verify(
        items[0].spki_der,
        items[0].scheme,
        items[0].message,
        items[0].signature,
    );
    assert!(
        single.is_err(),
        "OpenSSL took a key with parameters: {single:?}"
    );
    for v in backend().verify_batch(&items) {
        assert!(v.is_err(), "the batch decided a key OpenSSL refuses: {v:?}");
    }
}
