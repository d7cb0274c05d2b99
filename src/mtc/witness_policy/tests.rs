//! Policies in c2sp.org/tlog-policy's format: the quorum rules, and each malformed line
//! named with its number.

use super::*;
use crate::cosign::Cosigner;

fn key(id: &str, alg: Algorithm) -> CosignerKey {
    let k = pkit_openssl::backend().generate(alg).unwrap();
    Cosigner::new(TrustAnchorId::parse(id).unwrap(), k)
        .unwrap()
        .public
}

fn id(s: &str) -> String {
    TrustAnchorId::parse(s).unwrap().note_name()
}

#[test]
fn quorums_of_groups_of_witnesses() {
    let log = key("32473.1", Algorithm::Ed25519);
    let ws: Vec<CosignerKey> = (61..=66)
        .map(|n| {
            let alg = if n == 66 {
                Algorithm::MlDsa44
            } else {
                Algorithm::Ed25519
            };
            key(&format!("32473.{n}"), alg)
        })
        .collect();
    let text = format!(
        "# the example of tlog-policy, two organisations\n\
         log {}\n\n\
         witness X1 {} https://x1.example/\n\
         witness X2 {}\n\
         witness X3 {}\n\
         group X-witnesses 2 X1 X2 X3\n\
         \twitness Y1 {}\n\
         witness Y2 {}\n\
         witness Y3 {}\n\
         group Y-witnesses any Y1 Y2 Y3\n\
         group X-and-Y all X-witnesses Y-witnesses\n\
         quorum X-and-Y\n",
        vkey_of(&log),
        vkey_of(&ws[0]),
        vkey_of(&ws[1]),
        vkey_of(&ws[2]),
        vkey_of(&ws[3]),
        vkey_of(&ws[4]),
        vkey_of(&ws[5]),
    );
    let p = WitnessPolicy::parse(&text).unwrap();
    assert_eq!(p.keys().len(), 6);
    assert!(p.accepts_log(&log.spki));
    assert!(!p.accepts_log(&ws[0].spki));
    assert!(p.met_by(&[id("32473.61"), id("32473.62"), id("32473.66")]));
    assert!(!p.met_by(&[id("32473.61"), id("32473.66")]));
    assert!(!p.met_by(&[id("32473.61"), id("32473.62"), id("32473.63")]));
    assert!(!p.met_by(&[]));
    // quorum none: anything goes.
    assert!(WitnessPolicy::parse("quorum none\n").unwrap().met_by(&[]));
    // A witness named otherwise, with an Ed25519 cosignature/v1 key.
    let raw = [7u8; 32];
    let name = "example.com/w1";
    let mut m = name.as_bytes().to_vec();
    m.extend_from_slice(b"\n\x04");
    m.extend_from_slice(&raw);
    let kid: String = crate::hash::sha256(&m)[..4]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let mut blob = vec![4u8];
    blob.extend_from_slice(&raw);
    let vkey = format!("{name}+{kid}+{}", B64.encode(&blob));
    let p = WitnessPolicy::parse(&format!(
        "witness L {vkey}\nwitness A {}\ngroup G all L A\nquorum G\n",
        vkey_of(&ws[0])
    ))
    .unwrap();
    assert_eq!(p.named().len(), 1);
    assert_eq!(p.keys().len(), 1);
    assert!(p.met_by(&[name.to_string(), id("32473.61")]));
    assert!(!p.met_by(&[id("32473.61")]));
    // The key round-trips through its verifier key.
    let back = parse_vkey(&vkey_of(&ws[5])).unwrap();
    assert_eq!((back.id, back.spki), (ws[5].id.clone(), ws[5].spki.clone()));
}

#[test]
fn malformed_policies_name_their_line() {
    let w = key("32473.61", Algorithm::Ed25519);
    let v = vkey_of(&w);
    let line_of = |text: &str| match WitnessPolicy::parse(text) {
        Err(MtcError::Line { line, expected, .. }) => (line, expected),
        other => panic!("{text}: {other:?}"),
    };
    assert_eq!(line_of(&format!("witness A {v}\n")).0, 2);
    assert!(line_of(&format!("witness A {v}\n")).1.contains("quorum"));
    assert_eq!(line_of(&format!("witness A {v}\nquorum B\n")).0, 2);
    assert_eq!(
        line_of(&format!("witness A {v}\nwitness A2 {v}\nquorum A\n")).0,
        2
    );
    assert_eq!(
        line_of(&format!("witness A {v}\ngroup G 2 A\nquorum G\n")).0,
        2
    );
    assert_eq!(
        line_of(&format!("witness A {v}\ngroup G any A A\nquorum G\n")).0,
        2
    );
    assert_eq!(line_of(&format!("witness none {v}\nquorum none\n")).0, 1);
    assert_eq!(line_of("quorum none\nquorum none\n").0, 2);
    assert_eq!(line_of("frobnicate\nquorum none\n").0, 1);
    // A key whose ID is not its own, a name that is not a trust anchor ID, a bad type.
    let wrong_id = format!(
        "{}+00000000+{}",
        w.id.note_name(),
        v.splitn(3, '+').nth(2).unwrap()
    );
    assert!(line_of(&format!("witness A {wrong_id}\nquorum A\n"))
        .1
        .contains("key ID"));
    assert!(parse_vkey("example.com/w1+01020304+AQ==")
        .unwrap_err()
        .contains("trust anchor ID"));
    assert!(parse_vkey(&format!("{}+01020304+/wE=", w.id.note_name()))
        .unwrap_err()
        .contains("key type 0xff"));
}
