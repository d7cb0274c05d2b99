//! The `verify_pool` target: `pkit verify`'s path builder fed a pool of certificates.
//! Random bytes would rarely make one certificate, let alone a pool, so the input is
//! read with `arbitrary` as a structure: trust anchors, intermediates and a leaf, each
//! a certificate from a fixed seed set (NIST PKITS: a root, CAs with name constraints,
//! policies, path length limits, self-issued key rollovers, a DSA CA) with a few bytes
//! changed, or raw bytes; and the options `verify` takes (time, purpose, depth, host).

use super::objects::show;
use crate::der::Time;
use crate::pki::backend::openssl;
use crate::pki::cert::Certificate;
use crate::pki::verify::build::Verifier;
use crate::pki::verify::names::Identity;
use crate::pki::verify::options::{Budget, Options, Purpose};
use crate::pki::verify::pool::Pool;
use arbitrary::{Arbitrary, Unstructured};

macro_rules! pkits {
    ($($f:literal),* $(,)?) => {
        &[$(include_bytes!(concat!("../../tests/data/pkits/certs/", $f))),*]
    };
}

/// The seed certificates (tests/data/pkits, public domain).
const SEEDS: &[&[u8]] = pkits![
    "TrustAnchorRootCertificate.crt",
    "GoodCACert.crt",
    "GoodsubCACert.crt",
    "ValidCertificatePathTest1EE.crt",
    "nameConstraintsDN1CACert.crt",
    "ValidDNnameConstraintsTest1EE.crt",
    "nameConstraintsDNS1CACert.crt",
    "ValidDNSnameConstraintsTest30EE.crt",
    "BasicSelfIssuedNewKeyCACert.crt",
    "BasicSelfIssuedNewKeyOldWithNewCACert.crt",
    "ValidBasicSelfIssuedNewWithOldTest3EE.crt",
    "pathLenConstraint0CACert.crt",
    "PoliciesP1234CACert.crt",
    "Mapping1to2CACert.crt",
    "ValidPolicyMappingTest1EE.crt",
    "DSACACert.crt",
    "ValidDSASignaturesTest4EE.crt",
];

/// One certificate of the input.
#[derive(Debug, Arbitrary)]
enum Cert {
    Seed(u8),
    /// A seed with bytes overwritten: (position, value) pairs.
    Edited(u8, Vec<(u16, u8)>),
    Raw(Vec<u8>),
}

impl Cert {
    fn der(&self) -> Vec<u8> {
        let seed = |i: &u8| SEEDS[usize::from(*i) % SEEDS.len()].to_vec();
        match self {
            Cert::Seed(i) => seed(i),
            Cert::Edited(i, edits) => {
                let mut d = seed(i);
                for (at, v) in edits {
                    let n = d.len();
                    d[usize::from(*at) % n] = *v;
                }
                d
            }
            Cert::Raw(b) => b.clone(),
        }
    }
}

#[derive(Debug, Arbitrary)]
struct Input {
    roots: Vec<Cert>,
    intermediates: Vec<Cert>,
    /// Certificates that came with the leaf.
    extra: Vec<Cert>,
    leaf: Cert,
    /// Seconds after 2010-01-01, when the PKITS certificates are valid.
    after_2010: u32,
    purpose: u8,
    max_depth: Option<u8>,
    host: Option<String>,
}

/// Pools as large as a hostile input wants would only measure the budget; the budget
/// itself is what ends a search in a large pool, and it is kept.
const MAX_POOL: usize = 64;

pub fn verify_pool(data: &[u8]) {
    let Ok(input) = Input::arbitrary_take_rest(Unstructured::new(data)) else {
        return;
    };
    let ders = |v: &[Cert]| -> Vec<Vec<u8>> { v.iter().take(MAX_POOL).map(Cert::der).collect() };
    let (roots, inter, extra) = (
        ders(&input.roots),
        ders(&input.intermediates),
        ders(&input.extra),
    );
    let leaf = input.leaf.der();
    let (roots, inter) = (pool(&roots), pool(&inter));
    let extra: Vec<Certificate<'_>> = extra
        .iter()
        .filter_map(|d| Certificate::from_der(d).ok())
        .collect();
    let Ok(target) = Certificate::from_der(&leaf) else {
        return;
    };
    let mut opts = Options::at(Time {
        unix: 1_262_304_000 + i64::from(input.after_2010),
    });
    opts.purpose = match input.purpose % 4 {
        0 => Purpose::Any,
        1 => Purpose::Server,
        2 => Purpose::Client,
        _ => Purpose::Email,
    };
    opts.max_depth = input.max_depth.map(usize::from);
    opts.identity = input.host.as_deref().and_then(|h| Identity::parse(h).ok());
    opts.budget = Budget::default();
    let v = Verifier::new(openssl::backend(), &roots, &inter, None);
    show(v.verify(target, &extra, &opts));
}

fn pool(ders: &[Vec<u8>]) -> Pool<'_> {
    let mut p = Pool::new();
    for d in ders {
        if let Ok(c) = Certificate::from_der(d) {
            p.add(c);
        }
    }
    p
}
