//! Why a server could not start or went down.

/// Why a server could not start or went down: the socket could not be bound, or a
/// system resource (threads, signal handlers, the runtime) failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum ServeError {
    /// The address could not be listened on.
    Bind {
        /// The address as given (`host:port`).
        listen: String,
        /// The system's error.
        source: std::io::Error,
    },
    /// What was being done, and the system's error.
    Io {
        /// What was being done (`sharing the listening socket`, …).
        what: &'static str,
        /// The system's error.
        source: std::io::Error,
    },
    /// A worker thread panicked.
    WorkerFailed,
    /// The TLS certificate or key could not be used.
    Tls(String),
    /// The options named no address to listen on.
    NoEndpoint,
}

impl ServeError {
    pub(crate) fn io(what: &'static str, source: std::io::Error) -> ServeError {
        ServeError::Io { what, source }
    }
}

impl std::fmt::Display for ServeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ServeError::Bind { listen, source } => write!(f, "listening on {listen}: {source}"),
            ServeError::Io { what, source } => write!(f, "{what}: {source}"),
            ServeError::WorkerFailed => f.write_str("a worker thread failed"),
            ServeError::Tls(why) => write!(f, "TLS: {why}"),
            ServeError::NoEndpoint => f.write_str("no address to listen on"),
        }
    }
}

impl std::error::Error for ServeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ServeError::Bind { source, .. } | ServeError::Io { source, .. } => Some(source),
            ServeError::WorkerFailed | ServeError::Tls(_) | ServeError::NoEndpoint => None,
        }
    }
}
