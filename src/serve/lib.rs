//! pkit's HTTP services: the layer every server stands on ([`serve`] with its
//! [`ServerOptions`]: workers, connections, limits against hostile clients, HTTPS, the
//! log) and the request handling of each ([`OcspHandler`] for `pkit ocsp serve`,
//! [`MtcHandler`] for `pkit mtc serve`; `pkit acme serve`'s is in `pkit-acme`). A server
//! is a [`Handler`] turning a [`Request`] into a [`Reply`]. The command line, the fuzz
//! targets and the tests call these same handlers.
//!
//! A handler answers a request as the HTTP layer hands it over, without a socket:
//!
//! ```
//! use pkit_mtc::store::SqliteLogStore;
//! use pkit_serve::{Body, Clock, Handler, Method, MtcHandler, Request};
//! use std::time::Instant;
//!
//! let store = SqliteLogStore::open(std::path::Path::new(":memory:")).unwrap();
//! let mut log = MtcHandler { store: Box::new(store), prefix: "/log".into(), clock: Clock::System };
//! let mut ask = |method: Method, target: &str| {
//!     log.handle(Request {
//!         method: &method,
//!         target,
//!         content_type: None,
//!         accept: None,
//!         peer: ([127, 0, 0, 1], 50000).into(),
//!         endpoint: 0,
//!         body: Body::Read(Default::default()),
//!         received: Instant::now(),
//!     })
//! };
//! // A log with no checkpoint yet serves none; only GET and HEAD are answered.
//! assert_eq!(ask(Method::GET, "/log/checkpoint").status, 404);
//! assert_eq!(ask(Method::POST, "/log/checkpoint").status, 405);
//! assert_eq!(ask(Method::GET, "/log/tile/0/x").status, 400);
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs, unreachable_pub)]

/// The DER engine, under the path the modules use.
use pkit_der as der;

mod ca_http;
mod http;
mod metrics;
mod mtc_http;
mod ocsp_http;
mod witness_http;

pub use ca_http::{url_path, CaHandler, CaRoute, CaUrls, RouteError, Routes, OWN};
pub use http::{
    log_line, serve, Body, Clock, Endpoint, Handler, Listening, Method, Reply, Request, ServeError,
    ServerOptions, TlsIdentity, MAX_BODY,
};
pub use metrics::Metrics;
pub use mtc_http::{normalize_prefix, MtcHandler};
pub use ocsp_http::{OcspHandler, OcspOutcome};
pub use witness_http::WitnessHandler;
