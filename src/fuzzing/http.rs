//! Targets for the HTTP servers' request handling, without the sockets: the handlers
//! `pkit ocsp serve` and `pkit mtc serve` run (`serve::OcspHandler`,
//! `serve::MtcHandler`), given a request as the HTTP layer hands it over. Each
//! runs against a small fixture built once per process: a CA with a fixed Ed25519 key
//! and a store that knows one good and one revoked certificate; a log of 300 entries
//! with a checkpoint and a landmark, in an in-memory database.
//!
//! The input's first byte is what the HTTP layer saw: 0 GET, 1 POST, 2 HEAD, 3 a POST
//! with another Content-Type, 4 a body over the limit, 5 a body that came too slowly, 6 a
//! body cut short, other: PUT. The rest is the request target up to the first newline;
//! after it, the body. [`fixture_seeds`] gives inputs that reach the answers.

use crate::der::Time;
use crate::mtc::hash::leaf_hash;
use crate::mtc::landmark::Landmark;
use crate::mtc::store::{LogStore, NewEntry, SqliteLogStore, StoredCheckpoint};
use crate::pki::alg::{Algorithm, Digest};
use crate::pki::backend::openssl;
use crate::pki::ca::issuer::self_signed;
use crate::pki::ca::ocsp::Responder;
use crate::pki::ca::ocsp_cache::ResponseCache;
use crate::pki::ca::store::{CaStore, CertRecord, SqliteCaStore};
use crate::pki::cert::Certificate;
use crate::pki::ocsp_request::{encode_request, IssuerHashes};
use crate::pki::subject::parse_subject;
use crate::serve::{Body, Clock, Handler, Method, MtcHandler, OcspHandler, Reply, Request};
use hyper::body::Bytes;
use std::hint::black_box;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

/// The fixed time the fixtures live at (2027-01-15).
const NOW: Time = Time {
    unix: 1_800_000_000,
};

const GOOD: [u8; 3] = [0x01, 0x02, 0x03];
const REVOKED: [u8; 3] = [0x04, 0x05, 0x06];

/// The request the input stands for, handed to `handler` as the HTTP layer would.
fn handle(handler: &mut dyn Handler, data: &[u8]) {
    let Some((m, rest)) = data.split_first() else {
        return;
    };
    let (target, body) = match rest.iter().position(|&b| b == b'\n') {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &[][..]),
    };
    let Ok(target) = std::str::from_utf8(target) else {
        return;
    };
    let (method, content_type, body) = match m {
        0 => (Method::GET, None, Body::Read(Bytes::new())),
        1 => (
            Method::POST,
            Some("application/ocsp-request"),
            Body::Read(Bytes::copy_from_slice(body)),
        ),
        2 => (Method::HEAD, None, Body::Read(Bytes::new())),
        3 => (
            Method::POST,
            Some("text/plain"),
            Body::Read(Bytes::copy_from_slice(body)),
        ),
        4 => (Method::POST, None, Body::TooLarge),
        5 => (Method::POST, None, Body::TooSlow),
        6 => (Method::POST, None, Body::Broken),
        _ => (Method::PUT, None, Body::Read(Bytes::copy_from_slice(body))),
    };
    let reply: Reply = handler.handle(Request {
        method: &method,
        target,
        content_type,
        accept: None,
        peer: ([127, 0, 0, 1], 0).into(),
        body,
        endpoint: 0,
        received: Instant::now(),
    });
    black_box((
        reply.status,
        reply.body,
        serde_json::to_string(&reply.log).ok(),
    ));
}

/// The OCSP fixture: the CA certificate (for the seeds' requests) and the handler.
type OcspFixture = Mutex<(Vec<u8>, OcspHandler)>;

fn ocsp_fixture() -> Option<&'static OcspFixture> {
    static F: OnceLock<Option<OcspFixture>> = OnceLock::new();
    F.get_or_init(|| {
        let be = openssl::backend();
        // RFC 8032 §7.1 TEST 1's private key, as PKCS#8 (RFC 8410 §7).
        let mut pkcs8 = vec![
            0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22,
            0x04, 0x20,
        ];
        pkcs8.extend([
            0x9d, 0x61, 0xb1, 0x9d, 0xef, 0xfd, 0x5a, 0x60, 0xba, 0x84, 0x4a, 0xf4, 0x92, 0xec,
            0x2c, 0xc4, 0x44, 0x49, 0xc5, 0x69, 0x7b, 0x32, 0x69, 0x19, 0x70, 0x3b, 0xac, 0x03,
            0x1c, 0xae, 0x7f, 0x60,
        ]);
        let key = be.private_key_from_pkcs8(&pkcs8, Algorithm::Ed25519).ok()?;
        let subject = parse_subject("CN=pkit fuzz CA").ok()?;
        let ca_der = self_signed(
            key.as_ref(),
            &subject,
            NOW.plus_seconds(-86_400),
            NOW.plus_seconds(86_400 * 365),
            None,
        )
        .ok()?;
        let responder = Responder::new(be, &ca_der, key, None, NOW).ok()?;
        let signer = responder.signer().ok()?;
        let mut store: Box<dyn CaStore> =
            Box::new(SqliteCaStore::open(Path::new(":memory:")).ok()?);
        let record = |serial: &[u8]| CertRecord {
            serial: serial.to_vec(),
            subject: "CN=leaf".into(),
            not_before: NOW.unix - 86_400,
            not_after: NOW.unix + 86_400,
            profile: "server".into(),
            key_algorithm: "ed25519".into(),
            status: "valid".into(),
            issued_at: NOW.unix - 86_400,
            der: vec![0x30, 0x00],
        };
        store
            .insert_certificates(&[record(&GOOD), record(&REVOKED)])
            .ok()?;
        store.revoke(&REVOKED, NOW.unix - 3600, Some(1)).ok()?;
        let handler = OcspHandler {
            responder: Arc::new(responder),
            signer,
            store,
            lifetime: 3600,
            cache: Arc::new(ResponseCache::new(16)),
            clock: Clock::Fixed(NOW),
        };
        Some(Mutex::new((ca_der, handler)))
    })
    .as_ref()
}

/// `pkit ocsp serve`'s handling of one request: the DER request from the POST body or
/// the GET path, parsed, answered from the store (cached or signed now), or the error
/// status and OCSP error response for what cannot be answered.
pub fn ocsp_http(data: &[u8]) {
    let Some(f) = ocsp_fixture() else { return };
    let mut f = f.lock().unwrap_or_else(|e| e.into_inner());
    handle(&mut f.1, data);
}

fn log_fixture() -> Option<&'static Mutex<MtcHandler>> {
    static F: OnceLock<Option<Mutex<MtcHandler>>> = OnceLock::new();
    F.get_or_init(|| {
        let mut store: Box<dyn LogStore> =
            Box::new(SqliteLogStore::open(Path::new(":memory:")).ok()?);
        let entries: Vec<NewEntry> = (0..300u32)
            .map(|i| {
                let entry = i.to_be_bytes().to_vec();
                NewEntry {
                    leaf: leaf_hash(&entry),
                    entry,
                    spki: Vec::new(),
                }
            })
            .collect();
        store.append_entries(&entries).ok()?;
        let root = store.load_tree().ok()?.root();
        let cp = StoredCheckpoint {
            size: 300,
            root,
            note: "oid/1.3.6.1.4.1.32473.1.0.0\n300\nAAAA\n\n".into(),
            created: NOW.unix,
        };
        store.insert_checkpoint(&cp, &[]).ok()?;
        store
            .insert_landmark(&Landmark {
                number: 1,
                tree_size: 256,
                expiry: u64::MAX,
            })
            .ok()?;
        Some(Mutex::new(MtcHandler {
            store,
            prefix: "/log".into(),
            clock: Clock::Fixed(NOW),
        }))
    })
    .as_ref()
}

/// `pkit mtc serve`'s handling of one request: the path mapped to a resource under the
/// prefix `/log`, and the resource read from the log.
pub fn mtc_http(data: &[u8]) {
    let Some(f) = log_fixture() else { return };
    let mut f = f.lock().unwrap_or_else(|e| e.into_inner());
    handle(&mut *f, data);
}

/// Inputs that reach the fixtures' answers, for the corpora (`fuzz/seed.sh` writes
/// them): OCSP requests for the good, revoked and an unknown serial by POST and GET,
/// and the log's resources.
pub fn fixture_seeds() -> Vec<(&'static str, Vec<u8>)> {
    let mut out = Vec::new();
    if let Some(f) = ocsp_fixture() {
        let f = f.lock().unwrap_or_else(|e| e.into_inner());
        if let Ok(ca) = Certificate::from_der(&f.0) {
            for (digest, serial, nonce) in [
                (Digest::Sha1, &GOOD[..], None),
                (Digest::Sha256, &REVOKED[..], Some(&[9u8; 16][..])),
                (Digest::Sha1, &[0x7f][..], None),
            ] {
                let hashes = IssuerHashes::of(openssl::backend(), &ca, digest);
                let der = encode_request(&hashes, serial, nonce);
                let mut post = b"\x01/\n".to_vec();
                post.extend(&der);
                out.push(("ocsp_http", post));
                let b64 = crate::der::pem::encode("X", &der);
                let body: String = b64.lines().filter(|l| !l.starts_with("-----")).collect();
                let mut get = vec![0u8];
                get.extend(format!("/{}", body.replace('/', "%2F").replace('+', "%2B")).bytes());
                out.push(("ocsp_http", get));
            }
        }
    }
    for path in [
        "/log/checkpoint",
        "/log/landmarks",
        "/log/tile/0/000",
        "/log/tile/0/001.p/44",
        "/log/tile/1/000.p/1",
        "/log/tile/entries/000",
        "/log/tile/entries/001.p/44",
        "/log/tile/0/x001/000?x=1",
    ] {
        let mut get = vec![0u8];
        get.extend(path.bytes());
        out.push(("mtc_http", get));
    }
    out
}
