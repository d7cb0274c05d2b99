//! The tests of `pkit_x509::backend` that need a real backend: OpenSSL.

use pkit_openssl as openssl;
use pkit_x509::alg::Algorithm;
use pkit_x509::alg::SignatureScheme;
use pkit_x509::backend::VerifyItem;
use pkit_x509::backend::*;

/// Answers come from the batch for the questions it was given, from the backend
/// behind for any other; a changed message or key is another question.
#[test]
fn answers_only_the_questions_asked() {
    let b = openssl::backend();
    let k = b.generate(Algorithm::Ed25519).unwrap();
    let other = b.generate(Algorithm::Ed25519).unwrap();
    let spki = k.public_key_der().unwrap();
    let other_spki = other.public_key_der().unwrap();
    let msgs: Vec<Vec<u8>> = (0..4u8).map(|i| vec![i; 100]).collect();
    let sigs: Vec<Vec<u8>> = msgs.iter().map(|m| k.sign(m).unwrap()).collect();
    let items: Vec<VerifyItem<'_>> = msgs
        .iter()
        .zip(&sigs)
        .map(|(m, s)| VerifyItem {
            spki_der: &spki,
            scheme: SignatureScheme::Ed25519,
            message: m,
            signature: s,
        })
        .collect();
    let p = Prechecked::over(b, &items);
    let ed = SignatureScheme::Ed25519;
    assert!(p.verify(&spki, ed, &msgs[0].clone(), &sigs[0]).unwrap());
    assert!(!p.verify(&spki, ed, &msgs[1], &sigs[0]).unwrap());
    assert!(!p.verify(&other_spki, ed, &msgs[0], &sigs[0]).unwrap());
    let mixed = [
        items[2],
        VerifyItem {
            message: &msgs[3],
            ..items[2]
        },
    ];
    let v: Vec<bool> = p
        .verify_batch(&mixed)
        .into_iter()
        .map(|r| r.unwrap())
        .collect();
    assert_eq!(v, [true, false]);
}

#[test]
fn a_dry_run_collects_each_question_once() {
    let b = openssl::backend();
    let k = b.generate(Algorithm::Ed25519).unwrap();
    let spki = k.public_key_der().unwrap();
    let sig = k.sign(b"m").unwrap();
    let ed = SignatureScheme::Ed25519;
    let asked = Prechecked::questions_asked(b, |d| {
        assert!(d.verify(&spki, ed, b"m", &sig).unwrap());
        assert!(d.verify(&spki, ed, b"m", &sig).unwrap());
        assert!(d.verify(&spki, ed, b"other", &sig).unwrap());
    });
    assert_eq!(asked.len(), 2);
    let items: Vec<VerifyItem<'_>> = asked.iter().map(Question::item).collect();
    let p = Prechecked::over(b, &items);
    assert!(p.verify(&spki, ed, b"m", &sig).unwrap());
    assert!(!p.verify(&spki, ed, b"other", &sig).unwrap());
}
