//! The options both servers (`ocsp serve`, `mtc serve`) take, and their help on how a
//! server meets clients; the servers themselves are `pkit::serve`.

use super::ca_dir::parse_duration;
use super::error::CliResult;
use clap::Args;
use pkit::serve::ServerOptions;
use std::time::Duration;

/// A `--listen` value: an address and port, or a host name and port (resolved when the
/// server binds). Anything else is a usage error when the arguments are read, before a
/// server starts (or, for `acme serve`, issues itself a certificate for the name).
pub fn listen_address(v: &str) -> Result<String, String> {
    if v.parse::<std::net::SocketAddr>().is_ok() {
        return Ok(v.to_string());
    }
    // Any name the resolver may know (`/etc/hosts` and container DNS hold names with
    // `_`); an address is what SocketAddr parsed above.
    let named = v.rsplit_once(':').is_some_and(|(host, port)| {
        port.parse::<u16>().is_ok()
            && !host.is_empty()
            && !host
                .chars()
                .any(|c| c.is_whitespace() || matches!(c, ':' | '/' | '[' | ']' | '@'))
    });
    if named {
        Ok(v.to_string())
    } else {
        Err(
            "expected ADDRESS:PORT (127.0.0.1:8080, [::1]:8443, localhost:8080) with a \
             port from 0 to 65535"
                .into(),
        )
    }
}

/// The server options both servers take.
#[derive(Args, Debug)]
pub struct HttpArgs {
    /// Address to listen on, e.g. 127.0.0.1:8080.
    #[arg(long, value_name = "ADDR:PORT", value_parser = listen_address)]
    pub listen: String,
    /// Worker threads, each with its own database connection (and, for `ocsp serve`,
    /// its own signer); connections are spread over them (default: one per CPU).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=512))]
    pub threads: Option<u16>,
    /// Connections open at once; further clients wait in the kernel's accept queue
    /// until one closes. This bounds memory: a connection holds at most a 32 KiB read
    /// buffer, a 64 KiB request body and the answer it is sending.
    #[arg(long, value_name = "N", default_value_t = 512,
          value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub max_connections: u32,
    /// How long a client has to send a whole request header, counted from the
    /// connection's opening or from the previous answer (and as long again for the
    /// body), and how long an answer may wait for a client that does not read it; past
    /// it the connection is closed.
    #[arg(long, value_name = "DURATION", default_value = "10s")]
    pub header_timeout: String,
}

/// The text every server's man page carries on how it meets clients.
pub const BEHAVIOUR_HELP: &str = "HTTP: HTTP/1.1 and HTTP/1.0, persistent connections \
for both (HTTP/1.0 with `Connection: keep-alive`, as `ab -k` sends it, is answered with \
`Connection: keep-alive` and a Content-Length). Limits against hostile clients: a request \
header must arrive within --header-timeout of the connection opening or of the previous \
answer (and its body within as long again), else the connection is closed without an \
answer, and so is one whose answers have not been read for as long; a header over 16 KiB \
gets 431; a body over 64 KiB gets 413 — from Content-Length \
before any of it is read, or once a chunked body passes the limit — and the connection is \
closed; an unparsable request line or header gets 400 and the connection is closed; at \
most --max-connections connections are open at once, more wait in the kernel's queue. \
SIGINT or SIGTERM stops accepting, finishes the answers in hand (waiting at most 5 s), \
closes the connections with none and exits 0.";

impl HttpArgs {
    /// The server's options, `--header-timeout` read.
    pub fn options(&self) -> CliResult<ServerOptions> {
        let header_timeout = parse_duration("--header-timeout", &self.header_timeout)?;
        Ok(ServerOptions::plain(
            &self.listen,
            self.threads.map(usize::from),
            self.max_connections as usize,
            Duration::from_secs(header_timeout.unsigned_abs()),
        ))
    }
}
