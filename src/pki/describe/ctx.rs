//! Options that change what is described, and the backend that decrypts and checks MACs.

use crate::der::Time;
use pkit_x509::backend::Backend;

/// Options that change what is described.
#[derive(Clone)]
pub struct Ctx<'a> {
    /// The time validity is judged against.
    pub now: Time,
    /// Show private key material.
    pub show_private: bool,
    /// Password for PKCS#12 and encrypted keys.
    pub password: Option<Vec<u8>>,
    /// Read BER, reporting deviations as warnings.
    pub lenient: bool,
    /// What decrypts keys and PKCS#12 safes and checks their MACs.
    pub backend: &'a Backend,
}

impl std::fmt::Debug for Ctx<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ctx")
            .field("now", &self.now)
            .field("show_private", &self.show_private)
            .field("password", &self.password.as_ref().map(|_| "<hidden>"))
            .field("lenient", &self.lenient)
            .field("backend", &self.backend.version())
            .finish()
    }
}
