//! The OpenSSL backend (native-ossl). (Being implemented.)

use super::{Backend, BackendError, PrivateKey, Result};
use crate::pki::alg::{Algorithm, Digest, SignatureScheme};

pub struct OpensslBackend;

static BACKEND: OpensslBackend = OpensslBackend;

pub fn backend() -> &'static dyn Backend {
    &BACKEND
}

impl Backend for OpensslBackend {
    fn version(&self) -> String {
        "OpenSSL (unknown)".into()
    }
    fn supports(&self, _alg: Algorithm) -> bool {
        false
    }
    fn generate(&self, alg: Algorithm) -> Result<Box<dyn PrivateKey>> {
        Err(BackendError::Unsupported(format!("{alg}: not built yet")))
    }
    fn load_private_der(&self, _der: &[u8], _password: Option<&[u8]>) -> Result<Box<dyn PrivateKey>> {
        Err(BackendError::Unsupported("not built yet".into()))
    }
    fn verify(&self, _spki: &[u8], _s: SignatureScheme, _m: &[u8], _sig: &[u8]) -> Result<bool> {
        Err(BackendError::Unsupported("not built yet".into()))
    }
    fn digest(&self, _alg: Digest, _data: &[u8]) -> Vec<u8> {
        Vec::new()
    }
}
