//! Certificate policy processing along a path (RFC 5280 §6.1.2 (a),(d)–(f),(i)–(j),
//! §6.1.3 (d)–(f), §6.1.4 (a),(b),(h)–(j), §6.1.5 (a),(b),(g)).
//!
//! The path builder drives it: `PolicyState::new` with the relying party's inputs,
//! `PolicyState::process` for each certificate from the one the trust anchor issued
//! (1) to the target (n), then `PolicyState::finish`, which yields the
//! user-constrained policy set.
//!
//! The tree itself and the operations on it live in the private `tree` module; this file
//! holds the state variables, reads each certificate's policy extensions and applies
//! the steps in the RFC's order. The tree is bounded ([`MAX_NODES`], [`MAX_EXPECTED`]):
//! policy mapping can blow it up geometrically, and such a path is refused.

#![forbid(unsafe_code)]

mod valid_policy_tree;

use crate::der::oid_registry as oids;
use crate::der::{hex, Deviations, ObjectId, Oid, Reader};
use pkit_x509::cert::Certificate;
use pkit_x509::ext::{self, ExtensionValue, PolicyConstraints, PolicyInformation, PolicyMapping};
use pkit_x509::extension::Extension;
use std::fmt;
use valid_policy_tree::{is_any, Tree, TreeFull};

pub use valid_policy_tree::{MAX_EXPECTED, MAX_NODES};

/// The §6.1.1 inputs (c) user-initial-policy-set (an empty vec stands for {anyPolicy}),
/// (e) initial-policy-mapping-inhibit, (f) initial-explicit-policy and
/// (g) initial-any-policy-inhibit. Policy OIDs are their content octets.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PolicyInputs {
    /// user-initial-policy-set (§6.1.1 (c)); empty for {anyPolicy}.
    pub initial_policy_set: Vec<Vec<u8>>,
    /// initial-explicit-policy (§6.1.1 (f)).
    pub initial_explicit_policy: bool,
    /// initial-policy-mapping-inhibit (§6.1.1 (e)).
    pub initial_policy_mapping_inhibit: bool,
    /// initial-any-policy-inhibit (§6.1.1 (g)).
    pub initial_any_policy_inhibit: bool,
}

/// Why policy processing refused the path: names the certificate (1 = issued by the
/// trust anchor) and the RFC 5280 step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PolicyError(pub String);

impl fmt::Display for PolicyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PolicyError {}

fn fail<T>(i: usize, what: impl fmt::Display) -> Result<T, PolicyError> {
    Err(PolicyError(format!("certificate {i}: {what}")))
}

/// The bound on the tree, as the error for certificate `i` and `step`.
fn full(i: usize, step: &str) -> PolicyError {
    PolicyError(format!(
        "certificate {i}: the valid_policy_tree would exceed {MAX_NODES} nodes or \
         {MAX_EXPECTED} expected policies in {step}; the path is refused (policy mappings \
         or policies fan out too far)"
    ))
}

/// Dotted form; the user's input set is not validated here, so content octets that are
/// not an OID show as hex.
fn dotted(policy: &[u8]) -> String {
    match ObjectId::from_content(policy, 0) {
        Ok(oid) => oid.to_string(),
        Err(_) => format!("(not an OID: {})", hex(policy)),
    }
}

/// The policy state variables of §6.1.2 and the valid_policy_tree.
#[derive(Debug, Clone)]
pub(crate) struct PolicyState {
    /// None is the NULL tree.
    tree: Option<Tree>,
    explicit_policy: usize,
    inhibit_any_policy: usize,
    policy_mapping: usize,
    /// Path length (certificates after the trust anchor).
    n: usize,
    /// The last certificate processed (0 before the first).
    done: usize,
    /// user-initial-policy-set; None is {anyPolicy}.
    user_policies: Option<Vec<Vec<u8>>>,
    /// The first refusal: the state is half-updated after one, so every later call
    /// repeats it rather than go on from there.
    failed: Option<PolicyError>,
}

/// The policy-related extensions of one certificate, decoded.
struct CertPolicies<'a> {
    policies: Option<Vec<PolicyInformation<'a>>>,
    mappings: Option<Vec<PolicyMapping<'a>>>,
    constraints: Option<PolicyConstraints>,
    inhibit_any: Option<u64>,
}

impl<'a> CertPolicies<'a> {
    fn read(cert: &Certificate<'a>, i: usize) -> Result<Self, PolicyError> {
        let mut out = CertPolicies {
            policies: None,
            mappings: None,
            constraints: None,
            inhibit_any: None,
        };
        let Some(exts) = cert.extensions else {
            return Ok(out);
        };
        let list = match exts.list() {
            Ok(l) => l,
            Err(e) => return fail(i, format_args!("extensions: {e}")),
        };
        let wanted: [&Oid; 4] = [
            &oids::CE_CERT_POLICIES,
            &oids::CE_POLICY_MAPPINGS,
            &oids::CE_POLICY_CONSTRAINTS,
            &oids::CE_INHIBIT_ANY_POLICY,
        ];
        // Decoded strictly whatever mode the certificate was read in: a trust decision
        // does not rest on a malformed extension. The strict decoder also refuses a
        // policy listed twice in certificatePolicies (§4.2.1.4).
        for e in list.iter().filter(|e| wanted.iter().any(|w| e.oid == **w)) {
            let value = match decode(e) {
                Ok(v) => v,
                Err(err) => return fail(i, format_args!("{}: {err}", e.oid.name_or_dotted())),
            };
            match value {
                ExtensionValue::CertificatePolicies(p) => out.policies = Some(p),
                ExtensionValue::PolicyMappings(m) => out.mappings = Some(m),
                ExtensionValue::PolicyConstraints(c) => out.constraints = Some(c),
                ExtensionValue::InhibitAnyPolicy(v) => out.inhibit_any = Some(v),
                _ => {}
            }
        }
        Ok(out)
    }
}

/// One policy extension's value. Policy qualifiers are for display: a relying party does
/// not reject a path over one that breaks a size rule (PKITS 4.8.19: an explicitText of
/// 310 characters is valid). So when certificatePolicies fails the strict decoder but
/// reads as BER, its policy identifiers are taken without the qualifiers.
fn decode<'a>(e: &Extension<'a>) -> crate::der::Result<ExtensionValue<'a>> {
    let strict = ext::decode(e.oid, e.value, e.value_offset);
    if strict.is_ok() || e.oid != oids::CE_CERT_POLICIES {
        return strict;
    }
    let log = Deviations::new();
    let lenient = Reader::lenient(&[], &log);
    if ext::decode_with(&lenient, e.oid, e.value, e.value_offset).is_err() {
        return strict;
    }
    let mut r = Reader::new(e.value).with_base(e.value, e.value_offset);
    let mut list = r.read_sequence()?;
    let mut out = Vec::new();
    while !list.is_empty() {
        let at = list.offset();
        let mut info = list.read_sequence()?;
        let id = info.read_oid()?;
        // §4.2.1.4, as the strict decoder would have refused it.
        if out
            .iter()
            .any(|p: &PolicyInformation<'_>| p.policy_identifier == id)
        {
            return Err(crate::der::Error::invalid(
                at,
                format!("expected each policy once, found {id} twice"),
            ));
        }
        out.push(PolicyInformation {
            policy_identifier: id,
            policy_qualifiers: Vec::new(),
        });
    }
    r.finish()?;
    Ok(ExtensionValue::CertificatePolicies(out))
}

/// A counter's initial value: 0 when the input sets it, n+1 otherwise (§6.1.2 (d)–(f)).
fn initial(set: bool, n: usize) -> usize {
    if set {
        0
    } else {
        n.saturating_add(1)
    }
}

/// SkipCerts as a counter value; a value past usize cannot lower any counter.
fn skip_certs(v: u64) -> usize {
    usize::try_from(v).unwrap_or(usize::MAX)
}

impl PolicyState {
    /// `n`: the path length (certificates after the trust anchor).
    pub(crate) fn new(inputs: &PolicyInputs, n: usize) -> PolicyState {
        let user_policies = if inputs.initial_policy_set.is_empty()
            || inputs.initial_policy_set.iter().any(|p| is_any(p))
        {
            None
        } else {
            let mut set = inputs.initial_policy_set.clone();
            set.sort();
            set.dedup();
            Some(set)
        };
        PolicyState {
            tree: Some(Tree::root()),
            explicit_policy: initial(inputs.initial_explicit_policy, n),
            inhibit_any_policy: initial(inputs.initial_any_policy_inhibit, n),
            policy_mapping: initial(inputs.initial_policy_mapping_inhibit, n),
            n,
            done: 0,
            user_policies,
            failed: None,
        }
    }

    /// The trust anchor's own policyConstraints and inhibitAnyPolicy, applied to the
    /// path below it as §6.1.4 (i) and (j) apply a CA's (pkit's choice where §6.1.1
    /// leaves the anchor's constraints to the implementation; RFC 5937 §3 allows it):
    /// a root that requires explicit policy, or inhibits mapping or anyPolicy, holds
    /// every path under it to that. Called once, before certificate 1.
    pub(crate) fn anchor(&mut self, anchor: &Certificate<'_>) -> Result<(), PolicyError> {
        let ext = CertPolicies::read(anchor, 0)?;
        self.constrain(&ext);
        Ok(())
    }

    /// §6.1.4 (i) and (j): a CA's policyConstraints and inhibitAnyPolicy lower the
    /// counters.
    fn constrain(&mut self, ext: &CertPolicies<'_>) {
        if let Some(c) = &ext.constraints {
            if let Some(v) = c.require_explicit_policy.map(skip_certs) {
                self.explicit_policy = self.explicit_policy.min(v);
            }
            if let Some(v) = c.inhibit_policy_mapping.map(skip_certs) {
                self.policy_mapping = self.policy_mapping.min(v);
            }
        }
        if let Some(v) = ext.inhibit_any.map(skip_certs) {
            self.inhibit_any_policy = self.inhibit_any_policy.min(v);
        }
    }

    /// Process certificate `i` (1..=n, 1 = issued by the trust anchor, n = the target):
    /// §6.1.3 (d),(e),(f) for every certificate, and §6.1.4 (a),(b),(h),(i),(j) when
    /// i < n. Certificates must come in order, each once; after an error every later
    /// call (and [`PolicyState::finish`]) returns that error again.
    pub(crate) fn process(&mut self, cert: &Certificate<'_>, i: usize) -> Result<(), PolicyError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        let result = self.step(cert, i);
        if let Err(e) = &result {
            self.failed = Some(e.clone());
        }
        result
    }

    fn step(&mut self, cert: &Certificate<'_>, i: usize) -> Result<(), PolicyError> {
        if i != self.done + 1 || i > self.n {
            return fail(
                i,
                format_args!(
                    "processed out of order (expected certificate {} of {})",
                    self.done + 1,
                    self.n
                ),
            );
        }
        let ext = CertPolicies::read(cert, i)?;
        let self_issued = cert.is_self_issued();
        self.apply_policies(&ext, i, self_issued)?;
        if i < self.n {
            self.prepare_next(&ext, i, self_issued)?;
        }
        self.done = i;
        Ok(())
    }

    /// §6.1.3 (d)–(f).
    fn apply_policies(
        &mut self,
        ext: &CertPolicies<'_>,
        i: usize,
        self_issued: bool,
    ) -> Result<(), PolicyError> {
        match (&ext.policies, self.tree.as_mut()) {
            (Some(policies), Some(tree)) => {
                let any_allowed = self.inhibit_any_policy > 0 || (i < self.n && self_issued);
                let kept = valid_policy_tree::grow(tree, policies, i, any_allowed)
                    .map_err(|TreeFull| full(i, "§6.1.3 (d)"))?;
                if !kept {
                    self.tree = None;
                }
            }
            // (e): no certificatePolicies extension, NULL tree.
            (None, Some(_)) => self.tree = None,
            (_, None) => {}
        }
        // (f)
        if self.explicit_policy == 0 && self.tree.is_none() {
            return fail(
                i,
                "no valid policy remains and an explicit policy is required (§6.1.3 (f))",
            );
        }
        Ok(())
    }

    /// §6.1.4 (a),(b),(h),(i),(j): preparation for certificate i+1.
    fn prepare_next(
        &mut self,
        ext: &CertPolicies<'_>,
        i: usize,
        self_issued: bool,
    ) -> Result<(), PolicyError> {
        if let Some(mappings) = &ext.mappings {
            // (a)
            for m in mappings {
                if m.issuer_domain_policy == oids::CE_ANY_POLICY {
                    return fail(i, "policyMappings maps from anyPolicy (§6.1.4 (a))");
                }
                if m.subject_domain_policy == oids::CE_ANY_POLICY {
                    return fail(i, "policyMappings maps to anyPolicy (§6.1.4 (a))");
                }
            }
            // (b)
            if let Some(tree) = self.tree.as_mut() {
                let keep = if self.policy_mapping > 0 {
                    valid_policy_tree::map_policies(tree, mappings, i)
                        .map_err(|TreeFull| full(i, "§6.1.4 (b)(1)"))?;
                    true
                } else {
                    valid_policy_tree::delete_mapped(tree, mappings, i)
                };
                if !keep {
                    self.tree = None;
                }
            }
        }
        // (h)
        if !self_issued {
            self.explicit_policy = self.explicit_policy.saturating_sub(1);
            self.policy_mapping = self.policy_mapping.saturating_sub(1);
            self.inhibit_any_policy = self.inhibit_any_policy.saturating_sub(1);
        }
        // (i), (j)
        self.constrain(ext);
        Ok(())
    }

    /// §6.1.5 (a),(b),(g) after the target: the user-constrained policy set (OIDs as
    /// content octets, sorted), or an error when no policy remains and explicit_policy
    /// is 0. The set is {anyPolicy} alone when a chain of anyPolicy reaches the target
    /// and the user set is {anyPolicy}: every policy applies. An empty set with Ok means
    /// policy processing allows the path but no policy applies.
    pub(crate) fn finish(mut self, target: &Certificate<'_>) -> Result<Vec<Vec<u8>>, PolicyError> {
        if let Some(e) = self.failed {
            return Err(e);
        }
        let n = self.n;
        if self.done != n {
            return fail(
                n,
                format_args!(
                    "policy processing finished after {} of {n} certificates",
                    self.done
                ),
            );
        }
        if n == 0 {
            // No certificate below the trust anchor: nothing constrains the user's set.
            return Ok(self
                .user_policies
                .unwrap_or_else(|| vec![oids::CE_ANY_POLICY.as_bytes().to_vec()]));
        }
        let ext = CertPolicies::read(target, n)?;
        // (a)
        self.explicit_policy = self.explicit_policy.saturating_sub(1);
        // (b)
        if ext.constraints.and_then(|c| c.require_explicit_policy) == Some(0) {
            self.explicit_policy = 0;
        }
        // (g)
        if let (Some(tree), Some(user)) = (self.tree.as_mut(), &self.user_policies) {
            let kept = valid_policy_tree::intersect(tree, user, n)
                .map_err(|TreeFull| full(n, "§6.1.5 (g)"))?;
            if !kept {
                self.tree = None;
            }
        }
        match self.tree {
            Some(tree) => Ok(valid_policy_tree::authorities_policies(&tree, n)),
            None if self.explicit_policy > 0 => Ok(Vec::new()),
            None => fail(
                n,
                "no valid policy remains and an explicit policy is required (§6.1.5 (g))",
            ),
        }
    }
}

/// A policy set for messages: dotted OIDs, comma-separated.
pub fn describe(set: &[Vec<u8>]) -> String {
    if set.is_empty() {
        return "(none)".to_string();
    }
    set.iter().map(|p| dotted(p)).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
impl PolicyState {
    fn check_invariants(&self) {
        if let Some(t) = &self.tree {
            t.check_invariants();
        }
    }
}

#[cfg(test)]
mod tests;
