//! Signatures checked together before the code that needs them asks one at a time.
//!
//! Path building, OCSP and MTC verification check one signature per call, deep inside
//! their logic; batch verification wants them all at once. A caller that knows which
//! signatures are coming checks them in one parallel batch and hands that code its
//! backend with a [`Prechecked`] verifier ([`Prechecked::over`]): it answers from the
//! batch's verdicts and passes anything else to the verifier it replaced. Where the questions are only known by asking
//! (an MTC certificate's cosignatures follow from its proof), a dry run
//! (`Prechecked::questions_asked`) collects them first. The verdicts are keyed by a SHA-256 of the
//! whole question (scheme, key, message, signature), so an answer is only ever given to
//! the question that was asked.

use super::api::{SignatureVerifier, VerifyItem};
use super::error::{BackendError, Result};
use super::parallel::verify_batch_parallel;
use super::provider::Backend;
use crate::alg::SignatureScheme;
use sha2::{Digest as _, Sha256};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

/// A verifier that answers from verdicts found ahead of time.
pub struct Prechecked {
    inner: Arc<dyn SignatureVerifier>,
    verdicts: HashMap<[u8; 32], bool>,
    /// A dry run's questions (`Prechecked::questions_asked`), each distinct one once.
    asked: Option<Mutex<Asked>>,
}

/// A dry run's questions so far: their keys, and each distinct one in asking order.
type Asked = (HashSet<[u8; 32]>, Vec<Question>);

/// A signature question kept beyond the borrow that asked it.
#[derive(Debug, Clone)]
pub struct Question {
    /// The signer's SubjectPublicKeyInfo DER.
    pub spki_der: Vec<u8>,
    /// The signature algorithm the signature claims.
    pub scheme: SignatureScheme,
    /// The signed bytes.
    pub message: Vec<u8>,
    /// The signature value.
    pub signature: Vec<u8>,
}

impl Question {
    /// The question as the borrowed item a verifier takes.
    pub fn item(&self) -> VerifyItem<'_> {
        VerifyItem {
            spki_der: &self.spki_der,
            scheme: self.scheme,
            message: &self.message,
            signature: &self.signature,
        }
    }
}

/// The question `item` asks, as a key: each field length-prefixed, so no two questions
/// share one.
fn question(item: &VerifyItem<'_>) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(format!("{:?}", item.scheme).as_bytes());
    for part in [item.spki_der, item.message, item.signature] {
        h.update((part.len() as u64).to_be_bytes());
        h.update(part);
    }
    h.finalize().into()
}

impl Prechecked {
    /// `backend` with its verifier answering `items` (each distinct question once) from
    /// one parallel batch checked now.
    pub fn over(backend: &Backend, items: &[VerifyItem<'_>]) -> Backend {
        let mut seen = HashMap::with_capacity(items.len());
        let mut unique = Vec::with_capacity(items.len());
        for it in items {
            let q = question(it);
            if seen.insert(q, ()).is_none() {
                unique.push((q, *it));
            }
        }
        let batch: Vec<VerifyItem<'_>> = unique.iter().map(|(_, it)| *it).collect();
        let verdicts = unique
            .iter()
            .zip(verify_batch_parallel(backend, &batch))
            // An error is not remembered: asked again, the backend gives it again.
            .filter_map(|((q, _), v)| v.ok().map(|v| (*q, v)))
            .collect();
        backend.with_verifier(Arc::new(Prechecked {
            inner: backend.verifier.clone(),
            verdicts,
            asked: None,
        }))
    }

    /// The signatures `run` asks to have checked, each distinct one once, in the order
    /// first asked: `run` is handed a dry run of `backend`, whose verifier answers every
    /// signature "valid" and keeps the question, so it learns which signatures its
    /// verifications ask for (as far as each gets when all pass); [`Prechecked::over`]
    /// then checks them in one batch. The dry run's verdicts mean nothing, so it is only
    /// lent to `run`, never handed out.
    pub fn questions_asked(backend: &Backend, run: impl FnOnce(&Backend)) -> Vec<Question> {
        let dry = Arc::new(Prechecked {
            inner: backend.verifier.clone(),
            verdicts: HashMap::new(),
            asked: Some(Mutex::new((HashSet::new(), Vec::new()))),
        });
        run(&backend.with_verifier(dry.clone()));
        let asked = dry
            .asked
            .as_ref()
            .map(|m| std::mem::take(&mut m.lock().unwrap_or_else(|e| e.into_inner()).1));
        asked.unwrap_or_default()
    }
}

impl SignatureVerifier for Prechecked {
    fn verify(&self, item: &VerifyItem<'_>) -> Result<bool> {
        let q = question(item);
        if let Some(asked) = &self.asked {
            let mut asked = asked.lock().unwrap_or_else(|e| e.into_inner());
            if asked.0.insert(q) {
                asked.1.push(Question {
                    spki_der: item.spki_der.to_vec(),
                    scheme: item.scheme,
                    message: item.message.to_vec(),
                    signature: item.signature.to_vec(),
                });
            }
            return Ok(true);
        }
        match self.verdicts.get(&q) {
            Some(v) => Ok(*v),
            None => self.inner.verify(item),
        }
    }
    fn verify_batch(&self, items: &[VerifyItem<'_>]) -> Vec<Result<bool>> {
        if self.asked.is_some() {
            return items.iter().map(|i| self.verify(i)).collect();
        }
        let known: Vec<Option<bool>> = items
            .iter()
            .map(|it| self.verdicts.get(&question(it)).copied())
            .collect();
        let rest: Vec<VerifyItem<'_>> = items
            .iter()
            .zip(&known)
            .filter(|(_, k)| k.is_none())
            .map(|(it, _)| *it)
            .collect();
        let mut rest = self.inner.verify_batch(&rest).into_iter();
        known
            .into_iter()
            .map(|k| match k {
                Some(v) => Ok(v),
                None => rest.next().unwrap_or_else(|| {
                    Err(BackendError::Crypto(
                        "the backend gave fewer verdicts than signatures asked".into(),
                    ))
                }),
            })
            .collect()
    }
}
