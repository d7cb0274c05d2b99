//! SIGINT and SIGTERM while a server runs: the first one runs a stop function (the
//! server stops accepting and finishes what it has in hand).

use super::error::ServeError;
use std::thread::JoinHandle;

/// Watches for SIGINT and SIGTERM: on the first, `stop` runs.
/// [`SignalWatch::finish`] ends the watch and says which signal came, if one did.
pub(crate) struct SignalWatch {
    handle: signal_hook::iterator::Handle,
    thread: JoinHandle<Option<i32>>,
}

impl SignalWatch {
    pub(crate) fn start(stop: impl FnOnce() + Send + 'static) -> Result<SignalWatch, ServeError> {
        let mut signals = signal_hook::iterator::Signals::new([
            signal_hook::consts::SIGINT,
            signal_hook::consts::SIGTERM,
        ])
        .map_err(|e| ServeError::io("installing signal handlers", e))?;
        let handle = signals.handle();
        let thread = std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                let sig = signals.forever().next();
                if sig.is_some() {
                    stop();
                }
                sig
            })
            .map_err(|e| ServeError::io("starting the signal watcher", e))?;
        Ok(SignalWatch { handle, thread })
    }

    /// Stop watching; the signal that stopped the server, if any.
    pub(crate) fn finish(self) -> Option<i32> {
        self.handle.close();
        self.thread.join().ok().flatten()
    }
}
