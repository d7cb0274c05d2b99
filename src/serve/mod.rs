//! pkit's HTTP services: the layer every server stands on ([`http`]: workers,
//! connections, limits against hostile clients, the log) and the request handling of
//! each ([`ocsp_http`] for `pkit ocsp serve`, [`mtc_http`] for `pkit mtc serve`). The
//! command line, the fuzz targets and the tests call these same handlers.

#![forbid(unsafe_code)]

pub mod http;
pub mod mtc_http;
pub mod ocsp_http;
