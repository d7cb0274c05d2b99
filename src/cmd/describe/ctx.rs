//! Options that change what `pkit parse` describes.

use pkit::der::Time;

/// Options that change what is described.
#[derive(Debug, Clone)]
pub struct Ctx {
    /// The time validity is judged against (`--now`).
    pub now: Time,
    /// Print private key material (`--show-private`).
    pub show_private: bool,
    /// Password for PKCS#12 and encrypted keys (`--passin`).
    pub password: Option<Vec<u8>>,
    /// Read BER, reporting deviations as warnings (`--lenient`).
    pub lenient: bool,
}
