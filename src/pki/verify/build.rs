//! Path building: from the target up to a trust anchor, trying every candidate issuer
//! (by subject name; the authorityKeyIdentifier only orders the candidates, it never
//! rules one out), backtracking past dead ends, loops and paths that fail validation,
//! until a path validates or the candidates or the work budget run out. Cross-signed
//! hierarchies and several paths to several roots are the normal case, not an exception.
//!
//! Each (issuer key, certificate) signature from the pools is checked once per run and
//! cached, so 10,000 leaves under one intermediate cost one check of the intermediate.

use super::dn;
use super::inherited_key::working_keys;
use super::options::Options;
use super::pool::Pool;
use super::reason::Reason;
use super::validate::{validate, Check, Failure, RevocationSource};
use crate::der::oid_registry as oids;
use pkit_x509::backend::{Backend, BackendError};
use pkit_x509::cert::Certificate;
use pkit_x509::ext::{self, ExtensionValue};
use pkit_x509::signed::{verify_signed, SignedError};
use pkit_x509::spki::Spki;
use std::collections::HashMap;
use std::sync::Mutex;

/// No path is longer than this, whatever `--max-depth` says: a hostile pool must not
/// make the search (or the report) unbounded.
const MAX_PATH: usize = 32;

/// The intermediates `--max-depth` counts on `path` (target first, no anchor yet): as
/// RFC 5280 §6.1.4 (l) counts toward max_path_length, self-issued ones (a key rollover,
/// a re-issued CA) do not. MAX_PATH still bounds the path whatever it holds.
fn counted_intermediates(path: &[Certificate<'_>]) -> usize {
    path.iter().skip(1).filter(|c| !c.is_self_issued()).count()
}

/// The result for one target: the path that validated, or the most informative path
/// tried and why it failed.
#[derive(Debug, Clone)]
pub struct PathVerdict<'a> {
    /// Target first; ends at the trust anchor when a complete path was found.
    pub chain: Vec<Certificate<'a>>,
    /// Ok with the checks that passed, or the failure.
    pub result: Result<Vec<Check>, Failure>,
}

impl PathVerdict<'_> {
    /// Whether a path validated.
    pub fn valid(&self) -> bool {
        self.result.is_ok()
    }
}

/// The trust anchors, the intermediates on offer, and what the run shares.
pub struct Verifier<'a, 'p> {
    /// What checks signatures.
    pub backend: &'p Backend,
    /// The trust anchors.
    pub roots: &'p Pool<'a>,
    /// The intermediates on offer besides those that come with each target.
    pub intermediates: &'p Pool<'a>,
    /// Where revocation statuses come from; `None` checks none.
    pub revocation: Option<&'p dyn RevocationSource>,
    /// How many levels deep revocation checks may look for CRL signers other than the
    /// issuer: a signer's own path may need one too (a key rollover below a key
    /// rollover), but the search must end.
    crl_signer_depth: u8,
    /// Signature results for pool certificates, by (certificate DER, issuer key) address:
    /// the pools outlive the run, so their addresses name them.
    cache: Mutex<HashMap<(usize, usize), Result<bool, Reason>>>,
}

/// The search's running state for one target.
struct Search<'a, 'x> {
    opts: &'x Options<'x>,
    extra: &'x Pool<'a>,
    signatures: u32,
    steps: u32,
    exhausted: bool,
    /// The best failure so far, ranked (higher is more informative) with its path.
    best: Option<(u8, Vec<Certificate<'a>>, Failure)>,
}

impl<'a, 'x> Search<'a, 'x> {
    fn record(&mut self, rank: u8, path: &[Certificate<'a>], f: Failure) {
        let better = match &self.best {
            None => true,
            Some((r, p, _)) => rank > *r || (rank == *r && path.len() > p.len()),
        };
        if better {
            self.best = Some((rank, path.to_vec(), f));
        }
    }
}

/// Levels of CRL signers whose own CRLs may have other signers.
const CRL_SIGNER_DEPTH: u8 = 2;

/// Ranks of failures: a complete path that failed validation says most.
const RANK_UNKNOWN_ISSUER: u8 = 0;
const RANK_SIGNATURE: u8 = 1;
const RANK_DEPTH: u8 = 2;
const RANK_VALIDATION: u8 = 3;

impl<'a, 'p> Verifier<'a, 'p> {
    /// A verifier over these anchors and intermediates, asking `revocation` when given.
    pub fn new(
        backend: &'p Backend,
        roots: &'p Pool<'a>,
        intermediates: &'p Pool<'a>,
        revocation: Option<&'p dyn RevocationSource>,
    ) -> Self {
        Verifier {
            backend,
            roots,
            intermediates,
            revocation,
            crl_signer_depth: CRL_SIGNER_DEPTH,
            cache: Mutex::new(HashMap::new()),
        }
    }

    /// Verify `target`, with `extra` (the certificates that came with it) as further
    /// candidate intermediates.
    pub fn verify(
        &self,
        target: Certificate<'a>,
        extra: &[Certificate<'a>],
        opts: &Options<'_>,
    ) -> PathVerdict<'a> {
        let mut pool = Pool::new();
        for c in extra {
            pool.add(*c);
        }
        let mut s = Search {
            opts,
            extra: &pool,
            signatures: 0,
            steps: 0,
            exhausted: false,
            best: None,
        };
        if let Err(e) = target.check_signature_algorithms_match() {
            return PathVerdict {
                chain: vec![target],
                result: Err(Failure::new(Reason::Malformed, Some(0), e.to_string())),
            };
        }
        let mut path = vec![target];
        if self.roots.contains(&target) {
            // The target is itself trusted.
            match self.validate(&path, opts) {
                Ok(checks) => {
                    return PathVerdict {
                        chain: path,
                        result: Ok(checks),
                    }
                }
                Err(f) => s.record(RANK_VALIDATION, &path, f),
            }
        }
        if let Some(checks) = self.search(&mut path, &mut s) {
            return PathVerdict {
                chain: path,
                result: Ok(checks),
            };
        }
        let (chain, failure) = match s.best {
            _ if s.exhausted => (
                vec![target],
                Failure::new(
                    Reason::BudgetExceeded,
                    None,
                    format!(
                        "gave up after {} candidate issuers and {} signature checks",
                        s.steps, s.signatures
                    ),
                ),
            ),
            Some((_, p, f)) => (p, f),
            None => (
                vec![target],
                Failure::new(Reason::UnknownIssuer, Some(0), "no issuer found"),
            ),
        };
        PathVerdict {
            chain,
            result: Err(failure),
        }
    }

    /// Extend `path` upwards; Some(checks) when a complete path validates (left in
    /// `path`).
    fn search(
        &self,
        path: &mut Vec<Certificate<'a>>,
        s: &mut Search<'a, '_>,
    ) -> Option<Vec<Check>> {
        let top = *path.last()?;
        let candidates = self.candidates(&top, s.extra);
        if candidates.is_empty() {
            let at = path.len() - 1;
            let issuer = top.issuer.to_rfc4514().unwrap_or_default();
            s.record(
                RANK_UNKNOWN_ISSUER,
                path,
                Failure::new(
                    Reason::UnknownIssuer,
                    Some(at),
                    format!("no certificate for its issuer {issuer}"),
                ),
            );
            return None;
        }
        for (cand, anchor) in candidates {
            s.steps += 1;
            if s.steps > s.opts.budget.steps {
                s.exhausted = true;
                return None;
            }
            // A loop: the same key under the same name already on the path.
            if path
                .iter()
                .any(|p| p.spki.raw == cand.spki.raw && dn::equal(&p.subject, &cand.subject))
            {
                continue;
            }
            let at = path.len() - 1;
            // A DSA issuer without parameters inherits them from further up (RFC 3279
            // §2.3.2): its signature is checked once the path is complete.
            let signed = if cand.spki.dsa_parameters_absent() {
                Ok(true)
            } else {
                self.signed_by(&top, &cand, s)
            };
            if s.exhausted {
                return None;
            }
            match signed {
                Ok(true) => {}
                Ok(false) => {
                    s.record(
                        RANK_SIGNATURE,
                        path,
                        Failure::new(
                            Reason::SignatureInvalid,
                            Some(at),
                            "the signature does not verify under the issuer's key",
                        ),
                    );
                    continue;
                }
                Err(reason) => {
                    let what = top.signature_algorithm.name();
                    s.record(
                        RANK_SIGNATURE,
                        path,
                        Failure::new(reason, Some(at), format!("signature algorithm {what}")),
                    );
                    continue;
                }
            }
            let intermediates = counted_intermediates(path);
            path.push(cand);
            if anchor {
                if s.opts.max_depth.is_some_and(|d| intermediates > d) {
                    s.record(
                        RANK_DEPTH,
                        path,
                        Failure::new(
                            Reason::DepthExceeded,
                            None,
                            format!(
                                "{intermediates} intermediate(s) not self-issued, more than the \
                                 {} allowed (RFC 5280 §6.1.4 (l))",
                                s.opts.max_depth.unwrap_or(0)
                            ),
                        ),
                    );
                } else {
                    match self.validate(path, s.opts) {
                        Ok(checks) => return Some(checks),
                        Err(f) => s.record(RANK_VALIDATION, path, f),
                    }
                }
            } else if path.len() < MAX_PATH
                && s.opts
                    .max_depth
                    .is_none_or(|d| counted_intermediates(path) <= d)
            {
                if let Some(checks) = self.search(path, s) {
                    return Some(checks);
                }
                if s.exhausted {
                    return None;
                }
            } else {
                let why = match s.opts.max_depth {
                    Some(d) if path.len() < MAX_PATH => format!(
                        "more than the {d} intermediate(s) allowed, self-issued ones not \
                         counted (RFC 5280 §6.1.4 (l))"
                    ),
                    _ => format!("the path grew longer than {MAX_PATH} certificates"),
                };
                s.record(
                    RANK_DEPTH,
                    path,
                    Failure::new(Reason::DepthExceeded, None, why),
                );
            }
            path.pop();
        }
        None
    }

    /// §6.1 over a complete path, with the revocation sources and the CRL signers they
    /// may need.
    fn validate(
        &self,
        path: &[Certificate<'a>],
        opts: &Options<'_>,
    ) -> Result<Vec<Check>, Failure> {
        let keys = working_keys(path);
        if keys.iter().all(Option::is_none) {
            let signers = |c: &Certificate<'a>| self.crl_signers(c, path, opts);
            let revocation = self.revocation.map(|r| {
                (
                    r,
                    &signers as &dyn Fn(&Certificate<'a>) -> Vec<Certificate<'a>>,
                )
            });
            return validate(self.backend, path, opts, revocation);
        }
        self.inherited_signatures(path, &keys)?;
        // The path as §6.1 sees it: each parameterless DSA key completed, so that the
        // CRLs it signed verify too. The certificates' own bytes are unchanged.
        let whole: Vec<Certificate<'_>> = path
            .iter()
            .zip(&keys)
            .map(|(c, k)| {
                let mut c = *c;
                if let Some(spki) = k.as_deref().and_then(|k| Spki::from_der(k).ok()) {
                    c.spki = spki;
                }
                c
            })
            .collect();
        self.validate_whole(&whole, path, opts)
    }

    /// [`validate`] over `whole`, `path` with its keys completed (and so of a shorter
    /// lifetime): CRL signers are looked for from the certificate as it is in `path`.
    fn validate_whole<'w>(
        &self,
        whole: &[Certificate<'w>],
        path: &[Certificate<'a>],
        opts: &Options<'_>,
    ) -> Result<Vec<Check>, Failure>
    where
        'a: 'w,
    {
        let signers = |c: &Certificate<'w>| -> Vec<Certificate<'w>> {
            path.iter()
                .find(|p| p.raw == c.raw)
                .map(|p| self.crl_signers(p, path, opts))
                .unwrap_or_default()
        };
        let revocation = self.revocation.map(|r| {
            (
                r,
                &signers as &dyn Fn(&Certificate<'w>) -> Vec<Certificate<'w>>,
            )
        });
        validate(self.backend, whole, opts, revocation)
    }

    /// The signatures made by parameterless DSA keys on `path`, left by the search for
    /// when the path was complete, checked with the keys [`working_keys`] completed.
    fn inherited_signatures(
        &self,
        path: &[Certificate<'a>],
        keys: &[Option<Vec<u8>>],
    ) -> Result<(), Failure> {
        for (at, pair) in path.windows(2).enumerate() {
            let (c, issuer) = (&pair[0], &pair[1]);
            if !issuer.spki.dsa_parameters_absent() {
                continue;
            }
            let Some(key) = keys.get(at + 1).and_then(Option::as_deref) else {
                return Err(Failure::new(
                    Reason::SignatureInvalid,
                    Some(at),
                    "the issuer's DSA key has no parameters and none to inherit from a DSA \
                     key above it (RFC 3279 §2.3.2)",
                ));
            };
            let ok = verify_signed(
                self.backend,
                key,
                &c.signature_algorithm,
                c.tbs_raw,
                c.signature.bytes,
            );
            match ok {
                Ok(true) => {}
                Ok(false) => {
                    return Err(Failure::new(
                        Reason::SignatureInvalid,
                        Some(at),
                        "the signature does not verify under the issuer's key (its DSA \
                         parameters inherited, RFC 3279 §2.3.2)",
                    ))
                }
                Err(e) => {
                    return Err(Failure::new(
                        Reason::UnsupportedAlgorithm,
                        Some(at),
                        format!("signature algorithm {}: {e}", c.signature_algorithm.name()),
                    ))
                }
            }
        }
        Ok(())
    }

    /// Who could have issued `c`: trust anchors first (the shortest paths), then the
    /// pool's and the input's intermediates; within each, those whose subject key
    /// identifier is the one `c`'s authorityKeyIdentifier names come first. The flag
    /// says whether the candidate is a trust anchor.
    fn candidates(&self, c: &Certificate<'a>, extra: &Pool<'a>) -> Vec<(Certificate<'a>, bool)> {
        let aki = authority_key_id(c);
        let pools = [
            (self.roots, true),
            (self.intermediates, false),
            (extra, false),
        ];
        // Issuers write their subject's bytes: a pool that holds them knows the canonical
        // form, and only a name no pool has byte for byte is canonicalized here.
        let computed;
        let key = match pools.iter().find_map(|(p, _)| p.known_key(&c.issuer)) {
            Some(k) => k,
            None => {
                computed = dn::key(&c.issuer);
                &computed
            }
        };
        let mut out: Vec<(Certificate<'a>, bool)> = Vec::new();
        for (pool, anchor) in pools {
            let start = out.len();
            for cand in pool.with_subject_key(key) {
                if anchor || !self.roots.contains(cand) {
                    out.push((*cand, anchor));
                }
            }
            if let Some(aki) = &aki {
                out[start..].sort_by_key(|(cand, _)| cand.subject_key_id().as_ref() != Some(aki));
            }
        }
        out
    }

    /// Whether `issuer`'s key signed `c`; Err with the reason when that cannot be
    /// checked (an algorithm pkit lacks, a malformed key).
    fn signed_by(
        &self,
        c: &Certificate<'a>,
        issuer: &Certificate<'a>,
        s: &mut Search<'a, '_>,
    ) -> Result<bool, Reason> {
        // Both sides must be pool certificates: their addresses stay theirs for the run.
        let owned = |x: &Certificate<'a>| self.intermediates.owns(x) || self.roots.owns(x);
        let cacheable = owned(c) && owned(issuer);
        let key = (c.raw.as_ptr() as usize, issuer.spki.raw.as_ptr() as usize);
        if cacheable {
            let hit = self
                .cache
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get(&key)
                .copied();
            if let Some(r) = hit {
                return r;
            }
        }
        // RFC 5280 §4.1.1.2: the signature field inside the TBS names the same algorithm
        // as the unsigned one outside it.
        if c.check_signature_algorithms_match().is_err() {
            return Err(Reason::Malformed);
        }
        s.signatures += 1;
        if s.signatures > s.opts.budget.signatures {
            s.exhausted = true;
            return Ok(false);
        }
        let r = match verify_signed(
            self.backend,
            issuer.spki.raw,
            &c.signature_algorithm,
            c.tbs_raw,
            c.signature.bytes,
        ) {
            Ok(ok) => Ok(ok),
            Err(SignedError::UnsupportedAlgorithm(_)) => Err(Reason::UnsupportedAlgorithm),
            Err(SignedError::Backend(BackendError::Unsupported(_))) => {
                Err(Reason::UnsupportedAlgorithm)
            }
            Err(_) => Err(Reason::Malformed),
        };
        if cacheable {
            self.cache
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(key, r);
        }
        r
    }
}

/// The keyIdentifier of `c`'s authorityKeyIdentifier, if any.
fn authority_key_id(c: &Certificate<'_>) -> Option<Vec<u8>> {
    let e = c.extensions?.find(&oids::CE_AUTHORITY_KEY_ID).ok()??;
    match ext::decode(e.oid, e.value, e.value_offset).ok()? {
        ExtensionValue::AuthorityKeyIdentifier(a) => a.key_identifier.map(<[u8]>::to_vec),
        _ => None,
    }
}

mod crl_signers;
#[cfg(test)]
mod tests;
