//! The HTTP layer through the crate's public API: a real server on 127.0.0.1, a request
//! over a socket, limits on what it reads, and a stop by SIGTERM. Every wait is bounded,
//! so a server that hangs fails the test rather than stalling it.

use pkit_serve::{
    serve, Body, Endpoint, Handler, Reply, Request, ServeError, ServerOptions, MAX_BODY,
};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::mpsc;
use std::time::Duration;

/// How long any one step may take before the test gives up.
const BOUND: Duration = Duration::from_secs(10);

/// Answers with the request's method, path, body length and endpoint; a body too large
/// is 413.
struct Echo;

impl Handler for Echo {
    fn handle(&mut self, rq: Request<'_>) -> Reply {
        let (status, body) = match &rq.body {
            Body::Read(b) => (
                200,
                format!("{} {} {} @{}", rq.method, rq.target, b.len(), rq.endpoint),
            ),
            Body::TooLarge => (413, "too large".to_string()),
            _ => (400, "unread".to_string()),
        };
        Reply {
            status,
            content_type: "text/plain",
            headers: &[("cache-control", "no-store")],
            made_headers: vec![("x-echo", "yes".to_string())],
            body: body.into_bytes().into(),
            log: Vec::new(),
        }
    }
}

/// One HTTP/1.1 exchange on a fresh connection, read until the server closes it.
fn exchange(addr: SocketAddr, request: &[u8]) -> String {
    let mut s = TcpStream::connect_timeout(&addr, BOUND).unwrap();
    s.set_read_timeout(Some(BOUND)).unwrap();
    s.set_write_timeout(Some(BOUND)).unwrap();
    s.write_all(request).unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).unwrap();
    String::from_utf8_lossy(&out).into_owned()
}

#[test]
fn a_server_answers_on_loopback_and_stops_on_sigterm() {
    let at_any_port = || Endpoint {
        listen: "127.0.0.1:0".into(),
        tls: None,
    };
    let opts = ServerOptions {
        endpoints: vec![at_any_port(), at_any_port()],
        threads: Some(1),
        max_connections: 8,
        header_timeout: Duration::from_secs(5),
        blocking: false,
    };
    let (bound, at) = mpsc::channel();
    let (done, finished) = mpsc::channel();
    std::thread::spawn(move || {
        let r = serve(
            &opts,
            || Ok::<_, ServeError>(Echo),
            |l| {
                let _ = bound.send((l.addrs.clone(), l.threads));
            },
        );
        let _ = done.send(r.map_err(|e| e.to_string()));
    });
    let (addrs, threads) = at.recv_timeout(BOUND).expect("the server listens");
    assert_eq!(threads, 1);
    let addr = addrs[0];
    assert!(addr.ip().is_loopback() && addr.port() != 0);

    let got = exchange(
        addr,
        b"POST /hello?x=1 HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello",
    );
    assert!(got.starts_with("HTTP/1.1 200"), "{got}");
    let lower = got.to_ascii_lowercase();
    assert!(lower.contains("content-type: text/plain"), "{got}");
    assert!(lower.contains("cache-control: no-store"), "{got}");
    assert!(lower.contains("x-echo: yes"), "{got}");
    assert!(got.ends_with("POST /hello?x=1 5 @0"), "{got}");
    // The second endpoint is answered by the same worker, and the handler knows which.
    let second = exchange(
        addrs[1],
        b"GET /x HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
    );
    assert!(second.ends_with("GET /x 0 @1"), "{second}");

    // A body past the limit reaches the handler as TooLarge, unread.
    let big = format!(
        "POST /big HTTP/1.1\r\nHost: a\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        MAX_BODY + 1
    );
    let got = exchange(addr, big.as_bytes());
    assert!(got.starts_with("HTTP/1.1 413"), "{got}");

    // SIGTERM (caught by the server's signal watch, not the default action) stops it,
    // and `serve` says which signal did.
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &std::process::id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let outcome = finished.recv_timeout(BOUND).expect("the server stops");
    assert_eq!(outcome, Ok(Some(15)));
}
