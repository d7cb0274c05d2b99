//! The issuance path against its raw limit: one subscriber key generation plus one CA
//! signature per certificate is what issuance cannot go below; `issue_in_memory` is
//! `Issuer::issue` (TBS encoding, extensions, signing, assembly) with the same key
//! generation — the path `pkit issue batch` and `bench x509`'s cert_gen take, lint gate
//! included; `issue_in_memory_gate_off` is the same with the gate off, so the two give
//! the gate's cost.
//!
//! Run: `cargo xtask bench --bench issue -- --warm-up-time 1 --measurement-time 3`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use pkit::der::Time;
use pkit::pki::alg::Algorithm;
use pkit::pki::backend::openssl;
use pkit::pki::ca::gate::GateMode;
use pkit::pki::ca::issuer::{self_signed, Issuer, Request};
use pkit::pki::ca::profile::Profile;
use pkit::pki::subject::parse_subject;
use std::hint::black_box;

fn issuance(c: &mut Criterion) {
    let backend = openssl::backend();
    let now = Time::now();
    let later = now.plus_seconds(86_400 * 365);
    for alg in [Algorithm::EcdsaP256, Algorithm::Ed25519, Algorithm::MlDsa65] {
        let ca_key = backend.generate(alg).expect("CA key");
        let ca_subject = parse_subject("CN=Bench Root").expect("subject");
        let ca_der = self_signed(ca_key.as_ref(), &ca_subject, now, later, None).expect("CA");
        let mut issuer = Issuer::new(ca_der, ca_key).expect("issuer");
        let subject = parse_subject("CN=host.example").expect("subject");
        let mut g = c.benchmark_group(format!("issue/{alg}"));
        g.throughput(Throughput::Elements(1));
        g.sample_size(20);
        let mut signer = issuer.key.signer().expect("signer");
        // A TBS-sized message, so the raw signature costs what issuance's does.
        let msg = vec![0x5au8; 400];
        g.bench_function("raw_keygen_sign", |b| {
            b.iter(|| {
                let k = backend.generate(alg).expect("key");
                black_box(k.public_key_der().expect("spki"));
                black_box(signer.sign(&msg).expect("sign"))
            })
        });
        let request = |k: &dyn pkit::pki::backend::PrivateKey| Request {
            key_alg: Some(alg),
            sans: vec![
                pkit::pki::san::parse_san("DNS:bench.example")
                    .expect("SAN")
                    .der,
            ],
            ..Request::new(
                subject.clone(),
                k.public_key_der().expect("spki"),
                Profile::Server,
                now,
                // pkit's default for a TLS server: what the lint gate lets through.
                now.plus_seconds(86_400 * 90),
            )
        };
        g.bench_function("issue_in_memory", |b| {
            b.iter(|| {
                let k = backend.generate(alg).expect("key");
                black_box(
                    issuer
                        .issue(signer.as_mut(), &request(k.as_ref()))
                        .expect("issue"),
                )
            })
        });
        // The gate alone, on the TBS of a certificate just issued.
        let issued = issuer
            .issue(
                signer.as_mut(),
                &request(backend.generate(alg).expect("key").as_ref()),
            )
            .expect("issue");
        let cert = pkit::pki::cert::Certificate::from_der(&issued.der).expect("parse");
        let scheme = cert
            .signature_algorithm
            .signature_scheme()
            .expect("scheme")
            .expect("known scheme");
        g.bench_function("lint_gate_only", |b| {
            b.iter(|| black_box(issuer.gate.check(cert.tbs_raw, scheme).expect("clean")))
        });
        // The same without the lint gate: the gap between the two is what linting every
        // certificate before its signature costs.
        drop(signer);
        issuer.gate.mode = GateMode::Off;
        let mut signer = issuer.key.signer().expect("signer");
        g.bench_function("issue_in_memory_gate_off", |b| {
            b.iter(|| {
                let k = backend.generate(alg).expect("key");
                black_box(
                    issuer
                        .issue(signer.as_mut(), &request(k.as_ref()))
                        .expect("issue"),
                )
            })
        });
        g.finish();
    }
}

criterion_group!(benches, issuance);
criterion_main!(benches);
