//! RFC 5280 §6.1 policy processing over certificates built here: policy trees, mappings,
//! and the explicit-policy, inhibit-mapping and inhibit-anyPolicy counters.

use super::*;
use crate::der::{tag, Writer};
use pkit_x509::ext::write::ext;

mod pkits;

const ANY: &str = "2.5.29.32.0";
const P1: &str = "2.16.840.1.101.3.2.1.48.1";
const P2: &str = "2.16.840.1.101.3.2.1.48.2";
const P3: &str = "2.16.840.1.101.3.2.1.48.3";
const P4: &str = "2.16.840.1.101.3.2.1.48.4";

fn oid(dotted: &str) -> Vec<u8> {
    Oid::new(dotted).as_bytes().to_vec()
}

/// One certificate of a test path: only what policy processing reads.
#[derive(Clone, Default)]
struct Spec {
    name: String,
    /// Issued by itself-as-named-before (the same subject as the previous certificate).
    self_issued: bool,
    policies: Option<Vec<String>>,
    mappings: Option<Vec<(String, String)>>,
    require_explicit: Option<u8>,
    inhibit_mapping: Option<u8>,
    inhibit_any: Option<u8>,
}

fn cert(name: &str) -> Spec {
    Spec {
        name: name.to_string(),
        ..Spec::default()
    }
}

impl Spec {
    fn policies(mut self, p: &[&str]) -> Self {
        self.policies = Some(p.iter().map(|s| s.to_string()).collect());
        self
    }
    fn maps(mut self, m: &[(&str, &str)]) -> Self {
        self.mappings = Some(
            m.iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect(),
        );
        self
    }
    fn require_explicit(mut self, v: u8) -> Self {
        self.require_explicit = Some(v);
        self
    }
    fn inhibit_mapping(mut self, v: u8) -> Self {
        self.inhibit_mapping = Some(v);
        self
    }
    fn inhibit_any(mut self, v: u8) -> Self {
        self.inhibit_any = Some(v);
        self
    }
    fn self_issued(mut self) -> Self {
        self.self_issued = true;
        self
    }
}

fn write_name(w: &mut Writer, cn: &str) {
    w.sequence(|w| {
        w.set(|w| {
            w.sequence(|w| {
                w.oid(&oids::AT_COMMON_NAME);
                w.utf8_string(cn);
            });
        });
    });
}

fn write_alg(w: &mut Writer) {
    w.sequence(|w| {
        w.oid(&oids::ED25519);
    });
}

/// A certificate with the spec's policy extensions. The signature is filler: policy
/// processing does not look at it.
fn encode(spec: &Spec, issuer: &str, subject: &str, serial: u64) -> Vec<u8> {
    let mut w = Writer::new();
    w.sequence(|w| {
        w.sequence(|w| {
            w.explicit(0, |w| {
                w.integer_u64(2);
            });
            w.integer_u64(serial);
            write_alg(w);
            write_name(w, issuer);
            w.sequence(|w| {
                w.primitive(0x17, b"250101000000Z");
                w.primitive(0x17, b"350101000000Z");
            });
            write_name(w, subject);
            w.sequence(|w| {
                write_alg(w);
                w.bit_string(&[7; 32]);
            });
            w.explicit(3, |w| {
                w.sequence(|w| write_extensions(w, spec));
            });
        });
        write_alg(w);
        w.bit_string(&[9; 64]);
    });
    w.finish()
}

fn write_extensions(w: &mut Writer, spec: &Spec) {
    // Always one extension, so that the Extensions SEQUENCE is never empty.
    ext(w, &oids::CE_BASIC_CONSTRAINTS, true, |w| {
        w.sequence(|w| {
            w.boolean(true);
        });
    });
    if let Some(ps) = &spec.policies {
        ext(w, &oids::CE_CERT_POLICIES, false, |w| {
            w.sequence(|w| {
                for p in ps {
                    w.sequence(|w| {
                        w.oid(&Oid::new(p));
                    });
                }
            });
        });
    }
    if let Some(ms) = &spec.mappings {
        ext(w, &oids::CE_POLICY_MAPPINGS, true, |w| {
            w.sequence(|w| {
                for (a, b) in ms {
                    w.sequence(|w| {
                        w.oid(&Oid::new(a));
                        w.oid(&Oid::new(b));
                    });
                }
            });
        });
    }
    if spec.require_explicit.is_some() || spec.inhibit_mapping.is_some() {
        ext(w, &oids::CE_POLICY_CONSTRAINTS, true, |w| {
            w.sequence(|w| {
                if let Some(v) = spec.require_explicit {
                    w.primitive(tag::implicit(0), &[v]);
                }
                if let Some(v) = spec.inhibit_mapping {
                    w.primitive(tag::implicit(1), &[v]);
                }
            });
        });
    }
    if let Some(v) = spec.inhibit_any {
        ext(w, &oids::CE_INHIBIT_ANY_POLICY, true, |w| {
            w.integer_u64(u64::from(v));
        });
    }
}

/// The DER of each certificate, trust anchor's child first; each is issued by the one
/// before it ("Trust Anchor" for the first), and a self-issued one keeps its issuer's
/// name.
fn build(specs: &[Spec]) -> Vec<Vec<u8>> {
    let mut issuer = "Trust Anchor".to_string();
    let mut out = Vec::new();
    for (k, s) in specs.iter().enumerate() {
        let subject = if s.self_issued {
            issuer.clone()
        } else {
            s.name.clone()
        };
        out.push(encode(s, &issuer, &subject, k as u64 + 1));
        issuer = subject;
    }
    out
}

fn run_der(ders: &[Vec<u8>], inputs: &PolicyInputs) -> Result<Vec<String>, PolicyError> {
    let certs: Vec<Certificate<'_>> = ders
        .iter()
        .map(|d| Certificate::from_der(d).expect("test certificate parses"))
        .collect();
    let mut st = PolicyState::new(inputs, certs.len());
    for (k, c) in certs.iter().enumerate() {
        st.process(c, k + 1)?;
    }
    let set = st.finish(certs.last().expect("a path"))?;
    Ok(set.iter().map(|p| dotted(p)).collect())
}

fn run(specs: &[Spec], inputs: &PolicyInputs) -> Result<Vec<String>, PolicyError> {
    run_der(&build(specs), inputs)
}

fn default() -> PolicyInputs {
    PolicyInputs::default()
}

fn explicit() -> PolicyInputs {
    PolicyInputs {
        initial_explicit_policy: true,
        ..PolicyInputs::default()
    }
}

fn user(set: &[&str], explicit: bool) -> PolicyInputs {
    PolicyInputs {
        initial_policy_set: set.iter().map(|s| oid(s)).collect(),
        initial_explicit_policy: explicit,
        ..PolicyInputs::default()
    }
}

fn ok(v: &[&str]) -> Result<Vec<String>, PolicyError> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort_by_key(|s| oid(s));
    Ok(v)
}

fn err_has(r: Result<Vec<String>, PolicyError>, parts: &[&str]) {
    let e = r.expect_err("expected the path to be refused").0;
    for p in parts {
        assert!(e.contains(p), "{e:?} lacks {p:?}");
    }
}

#[test]
fn any_policy_beside_a_specific_one_at_the_target() {
    // anyPolicy reaches the target, so it alone is the answer: P1 adds nothing.
    let path = [cert("CA").policies(&[ANY]), cert("EE").policies(&[ANY, P1])];
    assert_eq!(run(&path, &explicit()), ok(&[ANY]));
    assert_eq!(run(&path, &user(&[P1, P2], true)), ok(&[P1, P2]));
}

#[test]
fn no_policies_anywhere() {
    let path = [cert("CA"), cert("EE")];
    assert_eq!(run(&path, &default()), ok(&[]));
    err_has(run(&path, &explicit()), &["certificate 1", "§6.1.3 (f)"]);
    // Policies at the CA only: the leaf's missing extension empties the tree.
    let path = [cert("CA").policies(&[P1]), cert("EE")];
    assert_eq!(run(&path, &default()), ok(&[]));
    err_has(run(&path, &explicit()), &["certificate 2", "§6.1.3 (f)"]);
}

#[test]
fn same_policy_all_along() {
    let path = [
        cert("CA").policies(&[P1]),
        cert("Sub").policies(&[P1]),
        cert("EE").policies(&[P1]),
    ];
    assert_eq!(run(&path, &default()), ok(&[P1]));
    assert_eq!(run(&path, &explicit()), ok(&[P1]));
    assert_eq!(run(&path, &user(&[P1], true)), ok(&[P1]));
    // A user set disjoint from the path's: allowed unless explicit policy is required.
    assert_eq!(run(&path, &user(&[P2], false)), ok(&[]));
    err_has(
        run(&path, &user(&[P2], true)),
        &["certificate 3", "§6.1.5 (g)"],
    );
    // Listing anyPolicy in the user set is the same as leaving it empty.
    assert_eq!(run(&path, &user(&[ANY, P2], true)), ok(&[P1]));
}

#[test]
fn any_policy_at_the_ca_and_a_specific_leaf() {
    let path = [cert("CA").policies(&[ANY]), cert("EE").policies(&[P1])];
    assert_eq!(run(&path, &explicit()), ok(&[P1]));
    assert_eq!(run(&path, &user(&[P1, P2], true)), ok(&[P1]));
    err_has(run(&path, &user(&[P2], true)), &["§6.1.5 (g)"]);
    // anyPolicy all the way down stands for every policy.
    let path = [cert("CA").policies(&[ANY]), cert("EE").policies(&[ANY])];
    assert_eq!(run(&path, &explicit()), ok(&[ANY]));
    assert_eq!(run(&path, &user(&[P1, P2], true)), ok(&[P1, P2]));
    // A specific CA and an anyPolicy leaf: the CA's policies flow through.
    let path = [cert("CA").policies(&[P1, P2]), cert("EE").policies(&[ANY])];
    assert_eq!(run(&path, &explicit()), ok(&[P1, P2]));
    assert_eq!(run(&path, &user(&[P2, P3], true)), ok(&[P2]));
}

#[test]
fn policies_the_issuer_did_not_assert_are_dropped() {
    let path = [
        cert("CA").policies(&[P1, P2]),
        cert("EE").policies(&[P1, P2, P3]),
    ];
    assert_eq!(run(&path, &explicit()), ok(&[P1, P2]));
    assert_eq!(run(&path, &user(&[P2, P4], true)), ok(&[P2]));
    let path = [cert("CA").policies(&[P1]), cert("EE").policies(&[P2])];
    assert_eq!(run(&path, &default()), ok(&[]));
    err_has(run(&path, &explicit()), &["certificate 2", "§6.1.3 (f)"]);
}

#[test]
fn a_mapping_chain() {
    let path = [
        cert("CA1").policies(&[P1]).maps(&[(P1, P2)]),
        cert("CA2").policies(&[P2]).maps(&[(P2, P3)]),
        cert("EE").policies(&[P3]),
    ];
    // The set is in the trust anchor's domain: P1.
    assert_eq!(run(&path, &explicit()), ok(&[P1]));
    assert_eq!(run(&path, &user(&[P1], true)), ok(&[P1]));
    err_has(run(&path, &user(&[P3], true)), &["§6.1.5 (g)"]);
    // One policy mapped to two.
    let path = [
        cert("CA").policies(&[P1]).maps(&[(P1, P2), (P1, P3)]),
        cert("EE").policies(&[P3]),
    ];
    assert_eq!(run(&path, &explicit()), ok(&[P1]));
    // The unmapped policy is no longer expected below the mapping.
    let path = [
        cert("CA").policies(&[P1]).maps(&[(P1, P2)]),
        cert("EE").policies(&[P1]),
    ];
    err_has(run(&path, &explicit()), &["certificate 2"]);
}

#[test]
fn mapping_under_any_policy() {
    // §6.1.4 (b)(1): no node for P1 at depth 1, but an anyPolicy node: one is made.
    let path = [
        cert("CA").policies(&[ANY]).maps(&[(P1, P2)]),
        cert("EE").policies(&[P2]),
    ];
    assert_eq!(run(&path, &explicit()), ok(&[P1]));
    assert_eq!(run(&path, &user(&[P1], true)), ok(&[P1]));
    err_has(run(&path, &user(&[P2], true)), &["§6.1.5 (g)"]);
}

#[test]
fn inhibit_policy_mapping() {
    let path = |skip: u8| {
        [
            cert("CA1").policies(&[P1]).inhibit_mapping(skip),
            cert("CA2").policies(&[P1]).maps(&[(P1, P2)]),
            cert("EE").policies(&[P2]),
        ]
    };
    // 0: CA2's mapping is not honoured, so its P1 node goes (§6.1.4 (b)(2)).
    assert_eq!(run(&path(0), &default()), ok(&[]));
    err_has(run(&path(0), &explicit()), &["certificate 3"]);
    // 1: mapping is still allowed in the next certificate.
    assert_eq!(run(&path(1), &explicit()), ok(&[P1]));
    // The input does the same from the start.
    let inputs = PolicyInputs {
        initial_policy_mapping_inhibit: true,
        initial_explicit_policy: true,
        ..PolicyInputs::default()
    };
    let path = [
        cert("CA").policies(&[P1]).maps(&[(P1, P2)]),
        cert("EE").policies(&[P2]),
    ];
    err_has(run(&path, &inputs), &["certificate 2"]);
    // Only the mapped policy's nodes go.
    let path = [
        cert("CA1").policies(&[P1, P2]).inhibit_mapping(0),
        cert("CA2").policies(&[P1, P2]).maps(&[(P1, P3)]),
        cert("EE").policies(&[P1, P2, P3]),
    ];
    assert_eq!(run(&path, &explicit()), ok(&[P2]));
}

#[test]
fn inhibit_mapping_takes_the_lower_value_and_counts_down() {
    // Mapping allowed for one more certificate after CA1 (skip 1): CA2 maps, CA3 may not.
    let path = [
        cert("CA1").policies(&[P1]).inhibit_mapping(1),
        cert("CA2").policies(&[P1]).maps(&[(P1, P2)]),
        cert("CA3").policies(&[P2]).maps(&[(P2, P3)]),
        cert("EE").policies(&[P3]),
    ];
    err_has(run(&path, &explicit()), &["certificate 4"]);
    // A later, larger value does not raise the counter again.
    let path = [
        cert("CA1").policies(&[P1]).inhibit_mapping(0),
        cert("CA2").policies(&[P1]).inhibit_mapping(5),
        cert("CA3").policies(&[P1]).maps(&[(P1, P2)]),
        cert("EE").policies(&[P2]),
    ];
    err_has(run(&path, &explicit()), &["certificate 4"]);
}

#[test]
fn require_explicit_policy() {
    let path = |skip: u8| {
        [
            cert("CA1").policies(&[P1]).require_explicit(skip),
            cert("CA2"),
            cert("EE").policies(&[P1]),
        ]
    };
    // 0: required from the next certificate on, which has no policies.
    err_has(run(&path(0), &default()), &["certificate 2", "§6.1.3 (f)"]);
    err_has(run(&path(1), &default()), &["certificate 3", "§6.1.3 (f)"]);
    // 2: required after the target, the tree is empty by then.
    err_has(run(&path(2), &default()), &["certificate 3", "§6.1.5 (g)"]);
    assert_eq!(run(&path(3), &default()), ok(&[]));
    // With policies all along, the requirement is met.
    let path = [
        cert("CA1").policies(&[P1]).require_explicit(0),
        cert("EE").policies(&[P1]),
    ];
    assert_eq!(run(&path, &default()), ok(&[P1]));
    // The target's own requireExplicitPolicy of 0 counts (§6.1.5 (b)).
    let path = [cert("CA"), cert("EE").require_explicit(0)];
    err_has(run(&path, &default()), &["certificate 2", "§6.1.5 (g)"]);
    let path = [cert("CA"), cert("EE").require_explicit(1)];
    assert_eq!(run(&path, &default()), ok(&[]));
}

#[test]
fn inhibit_any_policy() {
    let path = |skip: u8, leaf: &str| {
        [
            cert("CA1").policies(&[ANY]).inhibit_any(skip),
            cert("CA2").policies(&[ANY]),
            cert("EE").policies(&[leaf]),
        ]
    };
    // 0: CA2's anyPolicy counts for nothing, so the tree empties at CA2.
    assert_eq!(run(&path(0, P1), &default()), ok(&[]));
    err_has(run(&path(0, P1), &explicit()), &["certificate 2"]);
    // 1: CA2 may still use anyPolicy, the leaf may not.
    assert_eq!(run(&path(1, P1), &explicit()), ok(&[P1]));
    err_has(run(&path(1, ANY), &explicit()), &["certificate 3"]);
    assert_eq!(run(&path(2, ANY), &explicit()), ok(&[ANY]));
    // The input inhibits anyPolicy from the start, a specific policy still matches.
    let inputs = PolicyInputs {
        initial_any_policy_inhibit: true,
        initial_explicit_policy: true,
        ..PolicyInputs::default()
    };
    let path = [cert("CA").policies(&[ANY]), cert("EE").policies(&[P1])];
    err_has(run(&path, &inputs), &["certificate 1"]);
    let path = [cert("CA").policies(&[ANY, P1]), cert("EE").policies(&[P1])];
    assert_eq!(run(&path, &inputs), ok(&[P1]));
}

#[test]
fn self_issued_intermediates() {
    // A self-issued CA below the target may use anyPolicy even when inhibited.
    let path = |self_issued: bool| {
        let mid = cert("CA1b").policies(&[ANY]);
        [
            cert("CA1").policies(&[ANY]).inhibit_any(0),
            if self_issued { mid.self_issued() } else { mid },
            cert("EE").policies(&[P1]),
        ]
    };
    assert!(build(&path(true))[1].len() > 10);
    assert_eq!(run(&path(true), &explicit()), ok(&[P1]));
    err_has(run(&path(false), &explicit()), &["certificate 2"]);
    // And a self-issued certificate does not count down requireExplicitPolicy.
    let path = |self_issued: bool| {
        let mid = cert("CA1b");
        [
            cert("CA1").policies(&[P1]).require_explicit(2),
            if self_issued { mid.self_issued() } else { mid },
            cert("EE").policies(&[P1]),
        ]
    };
    assert_eq!(run(&path(true), &default()), ok(&[]));
    err_has(
        run(&path(false), &default()),
        &["certificate 3", "§6.1.5 (g)"],
    );
    // Nor inhibitPolicyMapping: with skip 1, a self-issued CA between keeps mapping
    // allowed for the CA after it.
    let path = |self_issued: bool| {
        let mid = cert("CA1b").policies(&[P1]);
        [
            cert("CA1").policies(&[P1]).inhibit_mapping(1),
            if self_issued { mid.self_issued() } else { mid },
            cert("CA2").policies(&[P1]).maps(&[(P1, P2)]),
            cert("EE").policies(&[P2]),
        ]
    };
    assert_eq!(run(&path(true), &explicit()), ok(&[P1]));
    err_has(run(&path(false), &explicit()), &["certificate 4"]);
}

#[test]
fn a_self_issued_target_gets_no_any_policy_exception() {
    let path = [
        cert("CA").policies(&[ANY]).inhibit_any(0),
        cert("EE").policies(&[ANY]).self_issued(),
    ];
    err_has(run(&path, &explicit()), &["certificate 2"]);
}

#[test]
fn duplicate_policies_are_refused() {
    let path = [
        cert("CA").policies(&[P1, P2, P1]),
        cert("EE").policies(&[P1]),
    ];
    err_has(
        run(&path, &default()),
        &["certificate 1", "certificatePolicies"],
    );
    let path = [
        cert("CA").policies(&[ANY]),
        cert("EE").policies(&[ANY, ANY]),
    ];
    err_has(
        run(&path, &default()),
        &["certificate 2", "certificatePolicies"],
    );
}

#[test]
fn mapping_any_policy_is_refused() {
    let path = [
        cert("CA").policies(&[ANY]).maps(&[(P1, P2), (ANY, P3)]),
        cert("EE").policies(&[P3]),
    ];
    err_has(
        run(&path, &default()),
        &["certificate 1", "from anyPolicy", "§6.1.4 (a)"],
    );
    let path = [
        cert("CA").policies(&[P1]).maps(&[(P1, ANY)]),
        cert("EE").policies(&[P1]),
    ];
    err_has(
        run(&path, &default()),
        &["certificate 1", "to anyPolicy", "§6.1.4 (a)"],
    );
    // Refused even when the tree is already NULL: the check does not depend on it.
    let path = [cert("CA"), cert("CA2").maps(&[(ANY, P1)]), cert("EE")];
    err_has(run(&path, &default()), &["certificate 2", "§6.1.4 (a)"]);
}

#[test]
fn the_target_s_mappings_and_constraints_for_later_certificates_are_ignored() {
    // §6.1.4 applies to certificates below the target only.
    let path = [
        cert("CA").policies(&[P1]),
        cert("EE").policies(&[P1]).maps(&[(ANY, P2)]).inhibit_any(0),
    ];
    assert_eq!(run(&path, &explicit()), ok(&[P1]));
}

#[test]
fn the_tree_is_bounded() {
    // Thirty policies, each mapped to all thirty, twice: 30, 900, then 27,000 nodes.
    let ps: Vec<String> = (1..=30).map(|k| format!("1.2.3.{k}")).collect();
    let names: Vec<&str> = ps.iter().map(String::as_str).collect();
    let all: Vec<(&str, &str)> = names
        .iter()
        .flat_map(|a| names.iter().map(move |b| (*a, *b)))
        .collect();
    let path = [
        cert("CA1").policies(&names).maps(&all),
        cert("CA2").policies(&names).maps(&all),
        cert("CA3").policies(&names),
        cert("EE").policies(&names),
    ];
    let start = std::time::Instant::now();
    err_has(
        run(&path, &default()),
        &["certificate 3", "10000 nodes", "refused"],
    );
    assert!(start.elapsed() < std::time::Duration::from_secs(10));
    // One level less stays within the bound.
    let path = [
        cert("CA1").policies(&names).maps(&all),
        cert("CA2").policies(&names),
        cert("EE").policies(&names),
    ];
    let set = run(&path, &explicit()).unwrap();
    assert_eq!(set.len(), 30);
}

#[test]
fn misuse_is_an_error_not_a_panic() {
    let ders = build(&[cert("CA").policies(&[P1]), cert("EE").policies(&[P1])]);
    let c: Vec<Certificate<'_>> = ders
        .iter()
        .map(|d| Certificate::from_der(d).unwrap())
        .collect();
    let fresh = PolicyState::new(&default(), 2);
    assert!(fresh.clone().process(&c[1], 2).is_err());
    assert!(fresh.clone().process(&c[0], 0).is_err());
    assert!(fresh.clone().finish(&c[1]).is_err());
    let mut st = fresh.clone();
    st.process(&c[0], 1).unwrap();
    assert!(st.clone().process(&c[0], 1).is_err());
    assert!(st.clone().finish(&c[1]).is_err());
    assert!(st.clone().process(&c[1], 3).is_err());
    st.process(&c[1], 2).unwrap();
    assert_eq!(st.finish(&c[1]).unwrap(), vec![oid(P1)]);
    // After a refusal every call repeats it, even one that would otherwise go on.
    let mut st = fresh;
    let first = st.process(&c[1], 2).unwrap_err();
    assert_eq!(st.process(&c[0], 1).unwrap_err(), first);
    assert_eq!(st.finish(&c[1]).unwrap_err(), first);
    // A path of no certificates returns the user's set.
    let st = PolicyState::new(&user(&[P2], true), 0);
    assert_eq!(st.finish(&c[1]).unwrap(), vec![oid(P2)]);
}

#[test]
fn malformed_policy_extensions_are_errors() {
    let mut der = build(&[cert("CA").inhibit_any(3)]).remove(0);
    // inhibitAnyPolicy 3 → -3: a negative SkipCerts.
    let at = der
        .windows(3)
        .rposition(|w| w == [0x02, 0x01, 0x03])
        .unwrap();
    der[at + 2] = 0xfd;
    err_has(
        run_der(&[der], &default()),
        &["certificate 1", "inhibitAnyPolicy"],
    );
}

#[test]
fn describe_lists_dotted_oids() {
    assert_eq!(describe(&[]), "(none)");
    assert_eq!(describe(&[oid(P1), oid(ANY)]), format!("{P1}, {ANY}"));
    assert_eq!(describe(&[vec![0x2a, 0x81]]), "(not an OID: 2a81)");
}

#[test]
fn many_mappings_cost_linear_time() {
    // One policy mapped to twenty thousand, and four thousand policies each mapped
    // once: both stay well inside the bounds and must not take quadratic time.
    let wide: Vec<String> = (1..=20_000).map(|k| format!("1.2.4.{k}")).collect();
    let fan: Vec<(&str, &str)> = wide.iter().map(|p| (P1, p.as_str())).collect();
    let path = [
        cert("CA").policies(&[P1]).maps(&fan),
        cert("EE").policies(&[wide[19_999].as_str()]),
    ];
    let start = std::time::Instant::now();
    assert_eq!(run(&path, &explicit()), ok(&[P1]));
    let many: Vec<String> = (1..=4_000).map(|k| format!("1.2.5.{k}")).collect();
    let names: Vec<&str> = many.iter().map(String::as_str).collect();
    let pairs: Vec<(&str, &str)> = names.iter().map(|p| (*p, P2)).collect();
    let path = [
        cert("CA1").policies(&[ANY]),
        cert("CA2").policies(&names).maps(&pairs),
        cert("EE").policies(&[P2]),
    ];
    assert_eq!(run(&path, &explicit()).map(|s| s.len()), Ok(4_000));
    assert!(start.elapsed() < std::time::Duration::from_secs(20));
}

/// A small deterministic generator (xorshift), so that failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, one_in: u64) -> bool {
        self.below(one_in) == 0
    }
}

#[test]
fn random_paths_keep_the_tree_well_formed() {
    let pool = [ANY, P1, P2, P3, P4];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut outcomes = [0usize; 2];
    for _ in 0..1500 {
        let n = 1 + rng.below(5) as usize;
        let mut specs = Vec::new();
        for k in 0..n {
            let mut s = cert(&format!("C{k}"));
            if !rng.chance(5) {
                let mut ps: Vec<&str> = pool.iter().copied().filter(|_| rng.chance(2)).collect();
                if ps.is_empty() {
                    ps.push(pool[rng.below(5) as usize]);
                }
                s = s.policies(&ps);
            }
            if rng.chance(3) {
                let m: Vec<(&str, &str)> = (0..1 + rng.below(3))
                    .map(|_| {
                        (
                            pool[1 + rng.below(4) as usize],
                            pool[1 + rng.below(4) as usize],
                        )
                    })
                    .collect();
                s = s.maps(&m);
            }
            if rng.chance(4) {
                s = s.require_explicit(rng.below(4) as u8);
            }
            if rng.chance(4) {
                s = s.inhibit_mapping(rng.below(4) as u8);
            }
            if rng.chance(4) {
                s = s.inhibit_any(rng.below(4) as u8);
            }
            if k > 0 && rng.chance(4) {
                s = s.self_issued();
            }
            specs.push(s);
        }
        let inputs = PolicyInputs {
            initial_policy_set: pool
                .iter()
                .filter(|_| rng.chance(4))
                .map(|p| oid(p))
                .collect(),
            initial_explicit_policy: rng.chance(3),
            initial_policy_mapping_inhibit: rng.chance(4),
            initial_any_policy_inhibit: rng.chance(4),
        };
        let ders = build(&specs);
        let certs: Vec<Certificate<'_>> = ders
            .iter()
            .map(|d| Certificate::from_der(d).unwrap())
            .collect();
        let mut st = PolicyState::new(&inputs, n);
        let mut result = Ok(());
        for (k, c) in certs.iter().enumerate() {
            result = st.process(c, k + 1);
            st.check_invariants();
            if result.is_err() {
                break;
            }
        }
        let finished = result.and_then(|()| st.finish(&certs[n - 1]));
        if let Ok(set) = &finished {
            // The result never names a policy the user excluded.
            let user: Vec<Vec<u8>> = inputs.initial_policy_set.clone();
            if !user.is_empty() && !user.contains(&oid(ANY)) {
                assert!(set.iter().all(|p| user.contains(p)), "{set:?} ⊄ {user:?}");
            }
        }
        outcomes[usize::from(finished.is_ok())] += 1;
    }
    // Both outcomes are common, so the generator reaches the interesting cases.
    assert!(outcomes.iter().all(|&c| c > 200), "{outcomes:?}");
}

#[test]
fn an_inhibited_any_policy_carries_no_mappings() {
    // CA2 maps P1 under anyPolicy. With anyPolicy allowed, §6.1.3 (d)(2) gives CA2 an
    // anyPolicy node and §6.1.4 (b)(1) hangs P1 → {P2} off it. With anyPolicy
    // inhibited there is no such node, so P1 has no child at depth 2 and the mapping
    // has nothing to apply to. (OpenSSL 3.0 accepts this path: it derives the mapped
    // policy from the certificate's anyPolicy even when anyPolicy is inhibited.)
    let path = [
        cert("CA1").policies(&[P1]),
        cert("CA2").policies(&[ANY]).maps(&[(P1, P2)]),
        cert("EE").policies(&[P2]),
    ];
    assert_eq!(run(&path, &explicit()), ok(&[P1]));
    let inputs = PolicyInputs {
        initial_explicit_policy: true,
        initial_any_policy_inhibit: true,
        ..PolicyInputs::default()
    };
    err_has(run(&path, &inputs), &["certificate 2", "§6.1.3 (f)"]);
}
