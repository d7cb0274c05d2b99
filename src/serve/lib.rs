//! pkit's HTTP services: the layer every server stands on ([`http`]: workers,
//! connections, limits against hostile clients, the log) and the request handling of
//! each ([`ocsp_http`] for `pkit ocsp serve`, [`mtc_http`] for `pkit mtc serve`). The
//! command line, the fuzz targets and the tests call these same handlers.
//!
//! A handler answers a request as the HTTP layer hands it over, without a socket:
//!
//! ```
//! use pkit_mtc::store::SqliteLogStore;
//! use pkit_serve::http::{Body, Clock, Handler, Method, Request};
//! use pkit_serve::mtc_http::MtcHandler;
//! use std::time::Instant;
//!
//! let store = SqliteLogStore::open(std::path::Path::new(":memory:")).unwrap();
//! let mut log = MtcHandler { store: Box::new(store), prefix: "/log".into(), clock: Clock::System };
//! let mut ask = |method: Method, target: &str| {
//!     log.handle(Request {
//!         method: &method,
//!         target,
//!         content_type: None,
//!         peer: ([127, 0, 0, 1], 50000).into(),
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

/// The DER engine, under the path the modules use.
use pkit_der as der;

pub mod http;
pub mod mtc_http;
pub mod ocsp_http;
