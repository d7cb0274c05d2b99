//! Signatures checked together before the code that needs them asks one at a time.
//!
//! Path building, OCSP and MTC verification check one signature per call, deep inside
//! their logic; batch verification wants them all at once. A caller that knows which
//! signatures are coming checks them in one parallel batch and hands that code a
//! [`Prechecked`] backend: its `verify` answers from the batch's verdicts and passes
//! anything else to the backend behind it. Where the questions are only known by asking
//! (an MTC certificate's cosignatures follow from its proof), a dry run
//! (`Prechecked::dry_run`) collects them first. The verdicts are keyed by a SHA-256 of the
//! whole question (scheme, key, message, signature), so an answer is only ever given to
//! the question that was asked.

use super::api::{Backend, PrivateKey, TlsStream, VerifyItem};
use super::error::{BackendError, Result};
use super::parallel::verify_batch_parallel;
use super::pbe::Pbe;
use crate::pki::alg::{Algorithm, Digest, SignatureScheme};
use sha2::{Digest as _, Sha256};
use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

pub struct Prechecked<'b> {
    inner: &'b dyn Backend,
    verdicts: HashMap<[u8; 32], bool>,
    /// A dry run's questions (`Prechecked::dry_run`), each distinct one once.
    asked: Option<Mutex<Asked>>,
}

/// A dry run's questions so far: their keys, and each distinct one in asking order.
type Asked = (HashSet<[u8; 32]>, Vec<Question>);

/// A signature question kept beyond the borrow that asked it.
#[derive(Debug, Clone)]
pub struct Question {
    pub spki_der: Vec<u8>,
    pub scheme: SignatureScheme,
    pub message: Vec<u8>,
    pub signature: Vec<u8>,
}

impl Question {
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

impl<'b> Prechecked<'b> {
    /// Check `items` (each distinct question once) in one parallel batch on `inner`.
    pub fn new(inner: &'b dyn Backend, items: &[VerifyItem<'_>]) -> Prechecked<'b> {
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
            .zip(verify_batch_parallel(inner, &batch))
            // An error is not remembered: asked again, the backend gives it again.
            .filter_map(|((q, _), v)| v.ok().map(|v| (*q, v)))
            .collect();
        Prechecked {
            inner,
            verdicts,
            asked: None,
        }
    }

    /// A dry run: every signature is answered "valid" and the question kept, so a
    /// caller learns which signatures its verifications ask for (as far as each gets
    /// when all pass) and can check them in one batch with [`Prechecked::new`]. Its
    /// verdicts mean nothing, so it is not public: a library user holding one could
    /// mistake it for a backend.
    pub(crate) fn dry_run(inner: &'b dyn Backend) -> Prechecked<'b> {
        Prechecked {
            inner,
            verdicts: HashMap::new(),
            asked: Some(Mutex::new((HashSet::new(), Vec::new()))),
        }
    }

    /// The distinct questions a dry run was asked, in the order first asked.
    pub(crate) fn asked(self) -> Vec<Question> {
        self.asked
            .map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner()).1)
            .unwrap_or_default()
    }

    /// How many questions have an answer ready.
    pub fn len(&self) -> usize {
        self.verdicts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.verdicts.is_empty()
    }
}

impl Backend for Prechecked<'_> {
    fn version(&self) -> String {
        self.inner.version()
    }
    fn supports(&self, alg: Algorithm) -> bool {
        self.inner.supports(alg)
    }
    fn generate(&self, alg: Algorithm) -> Result<Box<dyn PrivateKey>> {
        self.inner.generate(alg)
    }
    fn generate_many(&self, alg: Algorithm, n: usize) -> Result<Vec<Box<dyn PrivateKey>>> {
        self.inner.generate_many(alg, n)
    }
    fn private_key_from_pkcs8(&self, pkcs8: &[u8], alg: Algorithm) -> Result<Box<dyn PrivateKey>> {
        self.inner.private_key_from_pkcs8(pkcs8, alg)
    }
    fn pbe(&self) -> &dyn Pbe {
        self.inner.pbe()
    }
    fn verify(
        &self,
        spki_der: &[u8],
        scheme: SignatureScheme,
        message: &[u8],
        signature: &[u8],
    ) -> Result<bool> {
        let item = VerifyItem {
            spki_der,
            scheme,
            message,
            signature,
        };
        let q = question(&item);
        if let Some(asked) = &self.asked {
            let mut asked = asked.lock().unwrap_or_else(|e| e.into_inner());
            if asked.0.insert(q) {
                asked.1.push(Question {
                    spki_der: spki_der.to_vec(),
                    scheme,
                    message: message.to_vec(),
                    signature: signature.to_vec(),
                });
            }
            return Ok(true);
        }
        match self.verdicts.get(&q) {
            Some(v) => Ok(*v),
            None => self.inner.verify(spki_der, scheme, message, signature),
        }
    }
    fn verify_batch(&self, items: &[VerifyItem<'_>]) -> Vec<Result<bool>> {
        if self.asked.is_some() {
            return items
                .iter()
                .map(|i| self.verify(i.spki_der, i.scheme, i.message, i.signature))
                .collect();
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
    fn digest(&self, alg: Digest, data: &[u8]) -> Vec<u8> {
        self.inner.digest(alg, data)
    }
    fn tls_peer_chain(
        &self,
        stream: &mut dyn TlsStream,
        server_name: Option<&str>,
    ) -> Result<Vec<Vec<u8>>> {
        self.inner.tls_peer_chain(stream, server_name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pki::backend::openssl;

    /// Answers come from the batch for the questions it was given, from the backend
    /// behind for any other; a changed message or key is another question.
    #[test]
    fn answers_only_the_questions_asked() {
        let b = openssl::backend();
        let k = b.generate(Algorithm::Ed25519).unwrap();
        let other = b.generate(Algorithm::Ed25519).unwrap();
        let spki = k.public_key_der().unwrap();
        let other_spki = other.public_key_der().unwrap();
        let msgs: Vec<Vec<u8>> = (0..4u8).map(|i| vec![i; 100]).collect();
        let sigs: Vec<Vec<u8>> = msgs.iter().map(|m| k.sign(m).unwrap()).collect();
        let items: Vec<VerifyItem<'_>> = msgs
            .iter()
            .zip(&sigs)
            .map(|(m, s)| VerifyItem {
                spki_der: &spki,
                scheme: SignatureScheme::Ed25519,
                message: m,
                signature: s,
            })
            .collect();
        let p = Prechecked::new(b, &items);
        assert_eq!(p.len(), 4);
        let ed = SignatureScheme::Ed25519;
        assert!(p.verify(&spki, ed, &msgs[0].clone(), &sigs[0]).unwrap());
        assert!(!p.verify(&spki, ed, &msgs[1], &sigs[0]).unwrap());
        assert!(!p.verify(&other_spki, ed, &msgs[0], &sigs[0]).unwrap());
        let mixed = [
            items[2],
            VerifyItem {
                message: &msgs[3],
                ..items[2]
            },
        ];
        let v: Vec<bool> = p
            .verify_batch(&mixed)
            .into_iter()
            .map(|r| r.unwrap())
            .collect();
        assert_eq!(v, [true, false]);
    }

    #[test]
    fn a_dry_run_collects_each_question_once() {
        let b = openssl::backend();
        let k = b.generate(Algorithm::Ed25519).unwrap();
        let spki = k.public_key_der().unwrap();
        let sig = k.sign(b"m").unwrap();
        let d = Prechecked::dry_run(b);
        let ed = SignatureScheme::Ed25519;
        assert!(d.verify(&spki, ed, b"m", &sig).unwrap());
        assert!(d.verify(&spki, ed, b"m", &sig).unwrap());
        assert!(d.verify(&spki, ed, b"other", &sig).unwrap());
        let asked = d.asked();
        assert_eq!(asked.len(), 2);
        let items: Vec<VerifyItem<'_>> = asked.iter().map(Question::item).collect();
        let p = Prechecked::new(b, &items);
        assert!(p.verify(&spki, ed, b"m", &sig).unwrap());
        assert!(!p.verify(&spki, ed, b"other", &sig).unwrap());
    }
}
