//! RFC 5280 §6.1 over one complete path, trust anchor first: validity, revocation, name
//! chaining, name constraints, policies, basicConstraints and pathLenConstraint,
//! keyUsage, unknown critical extensions; then what the relying party asked of the
//! target (purpose, name, the `webpki` rules, the renewal window). Signatures were
//! checked while the path was built ([`super::build`]).

use super::constraints::{NameConstraintState, NcError};
use super::dn;
use super::names;
use super::options::{Options, RevocationScope, Rules};
use super::policy::PolicyState;
use super::reason::Reason;
use super::revocation::Status;
use super::role::Role;
use super::{keyid, webpki};
use crate::der::oid_registry as oids;
use crate::der::Time;
use pkit_x509::backend::Backend;
use pkit_x509::cert::Certificate;
use pkit_x509::extension::Extension;

pub use super::failure::{Check, Failure};

mod extensions;

use extensions::{basic_constraints, critical_extensions, eku, extensions, key_usage};

/// What a revocation source is asked: the status of `cert`, issued by `issuer`, at
/// `now`. `crl_signers`: other certificates that may sign its CRLs (the CA's other keys,
/// indirect CRL issuers), each already validated to a trust anchor (RFC 5280 §6.3.3 (f)).
pub struct StatusQuery<'q, 'a> {
    /// The certificate whose status is asked.
    pub cert: &'q Certificate<'a>,
    /// Its issuer on the path.
    pub issuer: &'q Certificate<'a>,
    /// Other certificates that may sign its CRLs, each validated (§6.3.3 (f)).
    pub crl_signers: &'q [Certificate<'a>],
    /// The time the status is asked for.
    pub now: Time,
}

/// Where revocation statuses come from (CRLs, OCSP responses, a CA's database).
pub trait RevocationSource: Sync {
    /// The answer to `q`, checked with `backend`.
    fn status(&self, backend: &Backend, q: &StatusQuery<'_, '_>) -> Status;

    /// [`RevocationSource::status`], and which of its sources answered when one vouched
    /// for the certificate or revoked it (`the CA's records`, `OCSP (online)`…), for the
    /// verdict to say.
    fn status_by(
        &self,
        backend: &Backend,
        q: &StatusQuery<'_, '_>,
    ) -> (Status, Option<&'static str>) {
        (self.status(backend, q), None)
    }
}

/// Finds, for a certificate on the path, the validated certificates that may sign its
/// CRLs besides its issuer.
pub(crate) type CrlSigners<'f, 'a> = &'f dyn Fn(&Certificate<'a>) -> Vec<Certificate<'a>>;

/// keyUsage bit 5 (RFC 5280 §4.2.1.3).
const KEY_CERT_SIGN: usize = 5;

/// Validate `path` (target first, trust anchor last). Ok with the checks that passed;
/// Err with the first failure.
pub(crate) fn validate<'a>(
    backend: &Backend,
    path: &[Certificate<'a>],
    opts: &Options<'_>,
    revocation: Option<(&dyn RevocationSource, CrlSigners<'_, 'a>)>,
) -> Result<Vec<Check>, Failure> {
    let mut checks = Vec::new();
    match run_checks(backend, path, opts, revocation, &mut checks) {
        Ok(()) => Ok(checks),
        Err(mut f) => {
            f.passed = checks;
            Err(f)
        }
    }
}

/// The checks of [`validate`], each that passes added to `checks`.
fn run_checks<'a>(
    backend: &Backend,
    path: &[Certificate<'a>],
    opts: &Options<'_>,
    revocation: Option<(&dyn RevocationSource, CrlSigners<'_, 'a>)>,
    checks: &mut Vec<Check>,
) -> Result<(), Failure> {
    let mut ok = |name: &'static str, detail: String| {
        checks.push(Check {
            name,
            ok: true,
            detail,
        })
    };
    let n = path.len() - 1;
    let mut state = PathState::start(&path[n], n, opts, &mut ok)?;
    // The target's extensions, kept from the walk for the checks after it.
    let mut target_exts = Vec::new();
    for i in 1..=n {
        let at = n - i;
        let exts = state.step(
            backend,
            &path[at],
            &path[at + 1],
            i,
            opts,
            revocation,
            &mut ok,
        )?;
        if i == n {
            target_exts = exts;
        }
    }
    ok(
        "path",
        format!("{n} certificate(s) chain to a trust anchor"),
    );
    let target = &path[0];
    // A target that is itself a trust anchor (n = 0) is trusted as it is: there is no
    // path to process policies or key usages on.
    if n > 0 {
        state.finish(target, &target_exts, opts, &mut ok)?;
    } else {
        // A pinned certificate is trusted as itself, but it is still what the rules
        // and the name are asked of: its critical extensions must be understood, and
        // under webpki it is held to the profile of what it is (a leaf, or a root).
        let exts = extensions(target, 0)?;
        critical_extensions(&exts, 0)?;
        if opts.rules == Rules::WebPki {
            // Its signature is never checked (it is trusted as itself), so SHA-1 in it
            // says nothing; a leaf's key and names still do.
            let role = if basic_constraints(&exts, 0)?.is_some_and(|b| b.ca) {
                Role::Anchor
            } else {
                eku(&exts, 0, opts.purpose, true)?;
                Role::Leaf
            };
            webpki::check(target, &exts, role, 0)?;
        }
    }
    if let Some(id) = &opts.identity {
        match names::matches(target, id, opts.rules) {
            Ok(true) => ok("name", format!("{} matches", describe(id))),
            Ok(false) => {
                return Err(Failure::new(
                    Reason::HostnameMismatch,
                    Some(0),
                    format!("the certificate is not valid for {}", describe(id)),
                ))
            }
            Err(e) => return Err(Failure::new(Reason::Malformed, Some(0), e.to_string())),
        }
    }
    if let Some(window) = opts.expires_within {
        let limit = opts.now.plus_seconds(window);
        for (at, c) in path.iter().enumerate() {
            let (_, not_after) = c
                .validity()
                .map_err(|e| Failure::new(Reason::Malformed, Some(at), e.to_string()))?;
            if not_after.unix < limit.unix {
                return Err(Failure::new(
                    Reason::ExpiresSoon,
                    Some(at),
                    format!("expires {not_after}, within the window"),
                ));
            }
        }
    }
    Ok(())
}

/// What a check that passed reports: its name and what it found.
pub(crate) type Passed<'c> = &'c mut dyn FnMut(&'static str, String);

/// §6.1's state variables after the trust anchor and the certificates below it walked
/// so far (§6.1.2 initialised, §6.1.3 and §6.1.4 applied to each): what the rest of the
/// path is held to. [`validate`] walks a whole path through one; a CA keeps the state its
/// own chain leaves and continues it with each certificate it is about to sign
/// ([`crate::preissue`]), so the chain is walked once, not once per certificate.
#[derive(Debug, Clone)]
pub(crate) struct PathState {
    names: NameConstraintState,
    policy: PolicyState,
    max_path_length: usize,
    /// The certificates below the anchor: the target is certificate n.
    n: usize,
}

impl PathState {
    /// §6.1.2 for a path of `n` certificates below `anchor` (0: the anchor is the target).
    pub(crate) fn start(
        anchor: &Certificate<'_>,
        n: usize,
        opts: &Options<'_>,
        ok: Passed<'_>,
    ) -> Result<PathState, Failure> {
        let anchor_at = n;
        // OpenSSL and most verifiers also hold the anchor to its validity period; RFC
        // 5280 leaves it to the relying party. A root past its notAfter is not trusted.
        ok("validity", validity(anchor, anchor_at, opts.now)?);
        let mut st = PathState {
            names: NameConstraintState::new(),
            policy: PolicyState::new(&opts.policy, n),
            max_path_length: n,
            n,
        };
        // RFC 5280 §6.1.1 leaves the anchor's own constraints to the relying party (RFC
        // 5937 lets it apply them). pkit applies them all, as the Web PKI verifiers do: a
        // root that says "no intermediates", "only .internal", "explicit policy" or
        // carries a critical extension pkit does not understand means it for every path
        // below it.
        if n > 0 {
            let exts = extensions(anchor, anchor_at)?;
            anchor_may_issue(anchor, &exts, anchor_at)?;
            critical_extensions(&exts, anchor_at)?;
            profile(anchor, None, &exts, Role::Anchor, opts.rules, anchor_at)?;
            if let Some(l) =
                basic_constraints(&exts, anchor_at)?.and_then(|b| b.path_len_constraint)
            {
                st.max_path_length = st
                    .max_path_length
                    .min(usize::try_from(l).unwrap_or(usize::MAX));
            }
            st.names
                .update(anchor, opts.rules)
                .map_err(|e| nc_failure(e, anchor_at))?;
            st.policy
                .anchor(anchor)
                .map_err(|e| Failure::new(Reason::Policy, Some(anchor_at), e.0))?;
        }
        Ok(st)
    }

    /// The name constraints taken in so far.
    pub(crate) fn name_constraints(&self) -> &NameConstraintState {
        &self.names
    }

    /// §6.1.3 and §6.1.4 for certificate `i` (1: issued by the anchor, n: the target),
    /// issued by `issuer`: its extensions, read once, for the checks on the target.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn step<'a>(
        &mut self,
        backend: &Backend,
        cert: &Certificate<'a>,
        issuer: &Certificate<'a>,
        i: usize,
        opts: &Options<'_>,
        revocation: Option<(&dyn RevocationSource, CrlSigners<'_, 'a>)>,
        ok: Passed<'_>,
    ) -> Result<Vec<Extension<'a>>, Failure> {
        let (n, anchor_at) = (self.n, self.n);
        let at = n - i;
        let last = i == n;
        let self_issued = dn::equal(&cert.subject, &cert.issuer);
        ok("validity", validity(cert, at, opts.now)?);
        ok(
            "signature",
            format!(
                "certificate {at}: {} by certificate {}",
                cert.signature_algorithm.name(),
                at + 1
            ),
        );
        if !dn::equal(&cert.issuer, &issuer.subject) {
            return Err(Failure::new(
                Reason::UnknownIssuer,
                Some(at),
                "the issuer name is not the subject of the next certificate up",
            ));
        }
        let wanted = match opts.revocation {
            RevocationScope::None => false,
            RevocationScope::Leaf => last,
            RevocationScope::Chain => true,
        };
        if wanted {
            let (status, by) = match revocation {
                Some((source, signers)) => source.status_by(
                    backend,
                    &StatusQuery {
                        cert,
                        issuer,
                        crl_signers: &signers(cert),
                        now: opts.now,
                    },
                ),
                // Asked for and nothing to ask: not known, which hard-fail rejects.
                None => (
                    Status::Unknown("no revocation source was given".into()),
                    None,
                ),
            };
            let by = by.map_or_else(String::new, |s| format!(", from {s}"));
            match status {
                Status::Good => ok("revocation", format!("certificate {at}: good{by}")),
                Status::Revoked { reason, at: when } => {
                    let why = reason
                        .and_then(|r| r.name())
                        .map_or_else(String::new, |n| format!(" ({n})"));
                    return Err(Failure::new(
                        Reason::Revoked,
                        Some(at),
                        format!("revoked at {when}{why}{by}"),
                    ));
                }
                Status::Unknown(why) if opts.hard_fail => {
                    return Err(Failure::new(Reason::RevocationUnknown, Some(at), why));
                }
                // Soft-fail: the path passes, and its check says on what grounds.
                Status::Unknown(why) => ok(
                    "revocation",
                    format!("certificate {at}: not known, passed under soft-fail: {why}"),
                ),
            }
        }
        if !self_issued || last {
            self.names
                .check(cert, opts.rules)
                .map_err(|e| nc_failure(e, at))?;
        }
        self.policy
            .process(cert, i)
            .map_err(|e| Failure::new(Reason::Policy, Some(at), e.0))?;
        // Read once (where the first check that needs them stands, so failures keep
        // their order): the checks below look up several extensions each.
        let exts = extensions(cert, at)?;
        let own_profile = !last || opts.target_profile;
        if own_profile {
            critical_extensions(&exts, at)?;
            weak(cert, at, opts.rules)?;
            profile(
                cert,
                Some(issuer),
                &exts,
                Role::of(at, anchor_at),
                opts.rules,
                at,
            )?;
        }
        if !last {
            let bc = basic_constraints(&exts, at)?;
            if !bc.is_some_and(|b| b.ca) {
                return Err(Failure::new(
                    Reason::NotACa,
                    Some(at),
                    "basicConstraints does not say cA",
                ));
            }
            if !self_issued {
                if self.max_path_length == 0 {
                    return Err(Failure::new(
                        Reason::PathLengthExceeded,
                        Some(at),
                        "more CA certificates than a pathLenConstraint above allows",
                    ));
                }
                self.max_path_length -= 1;
            }
            if let Some(l) = bc.and_then(|b| b.path_len_constraint) {
                self.max_path_length = self
                    .max_path_length
                    .min(usize::try_from(l).unwrap_or(usize::MAX));
            }
            if let Some(ku) = key_usage(&exts, at)? {
                if !ku.contains(KEY_CERT_SIGN) {
                    return Err(Failure::new(
                        Reason::KeyUsage,
                        Some(at),
                        "keyUsage lacks keyCertSign",
                    ));
                }
            }
            self.names
                .update(cert, opts.rules)
                .map_err(|e| nc_failure(e, at))?;
            // OpenSSL also holds a CA's extendedKeyUsage, when it has one, to the purpose.
            eku(&exts, at, opts.purpose, false)?;
        } else if own_profile
            && exts.iter().any(|e| e.oid == oids::CE_NAME_CONSTRAINTS)
            && !cert.is_ca()
        {
            // §4.2.1.10: nameConstraints "MUST be used only in a CA certificate"; in a
            // leaf it would constrain nothing, so it says the issuer erred.
            return Err(Failure::new(
                Reason::NameConstraints,
                Some(at),
                "an end-entity certificate with nameConstraints (RFC 5280 §4.2.1.10: CA \
                 certificates only)",
            ));
        }
        Ok(exts)
    }

    /// §6.1.5 for the target (n > 0), whose extensions [`PathState::step`] gave: the
    /// policies the path is valid for, and the purpose asked of it.
    pub(crate) fn finish(
        self,
        target: &Certificate<'_>,
        target_exts: &[Extension<'_>],
        opts: &Options<'_>,
        ok: Passed<'_>,
    ) -> Result<(), Failure> {
        self.policy
            .finish(target)
            .map_err(|e| Failure::new(Reason::Policy, Some(0), e.0))?;
        ok(
            "policy",
            "the path is valid for the policies asked for".into(),
        );
        eku(target_exts, 0, opts.purpose, opts.rules == Rules::WebPki)
    }
}

/// The profile rules certificate `at` is held to in its `role`: key identifiers under
/// both rule sets, and the `webpki` rule set's own.
fn profile(
    cert: &Certificate<'_>,
    issuer: Option<&Certificate<'_>>,
    exts: &[Extension<'_>],
    role: Role,
    rules: Rules,
    at: usize,
) -> Result<(), Failure> {
    keyid::check(cert, issuer, exts, role, rules, at)?;
    if rules == Rules::WebPki {
        webpki::check(cert, exts, role, at)?;
    }
    Ok(())
}

/// A name constraints error as the failure it is: a violation or invalid constraints
/// are `name-constraints`, an undecodable extension `malformed`, too much work
/// `budget-exceeded`.
fn nc_failure(e: NcError, at: usize) -> Failure {
    let reason = match &e {
        NcError::Malformed(_) => Reason::Malformed,
        NcError::Invalid(_) | NcError::Violation(_) => Reason::NameConstraints,
        NcError::Budget(_) => Reason::BudgetExceeded,
    };
    Failure::new(reason, Some(at), e.to_string())
}

/// A trust anchor that issues must be allowed to: a CA by its basicConstraints (a v1
/// root has none and is taken as one) whose keyUsage, if present, allows keyCertSign.
/// OpenSSL holds roots to the same; a pinned end-entity certificate vouches only for
/// itself.
fn anchor_may_issue(
    anchor: &Certificate<'_>,
    exts: &[Extension<'_>],
    at: usize,
) -> Result<(), Failure> {
    let v1_root = anchor.version == 0 && anchor.is_self_issued();
    if !v1_root && !basic_constraints(exts, at)?.is_some_and(|b| b.ca) {
        return Err(Failure::new(
            Reason::NotACa,
            Some(at),
            "the trust anchor is not a CA (basicConstraints does not say cA)",
        ));
    }
    if key_usage(exts, at)?.is_some_and(|k| !k.contains(KEY_CERT_SIGN)) {
        return Err(Failure::new(
            Reason::KeyUsage,
            Some(at),
            "the trust anchor's keyUsage lacks keyCertSign",
        ));
    }
    Ok(())
}

/// The identity as the user would write it.
fn describe(id: &names::Identity<'_>) -> String {
    match id {
        names::Identity::Dns(d) => d.to_string(),
        names::Identity::Ip(ip) => ip.to_string(),
        names::Identity::Email(e) => e.to_string(),
    }
}

/// `c` is valid at `now`: what the check says when it is.
fn validity(c: &Certificate<'_>, at: usize, now: Time) -> Result<String, Failure> {
    let (nb, na) = c
        .validity()
        .map_err(|e| Failure::new(Reason::Malformed, Some(at), e.to_string()))?;
    if now.unix < nb.unix {
        return Err(Failure::new(
            Reason::NotYetValid,
            Some(at),
            format!("not valid before {nb}"),
        ));
    }
    if now.unix > na.unix {
        return Err(Failure::new(
            Reason::Expired,
            Some(at),
            format!("expired {na}"),
        ));
    }
    Ok(format!("certificate {at}: {nb} to {na}"))
}

/// The `webpki` rule on signatures: no SHA-1 (keys are [`webpki`]'s to judge).
fn weak(c: &Certificate<'_>, at: usize, rules: Rules) -> Result<(), Failure> {
    if rules != Rules::WebPki {
        return Ok(());
    }
    let alg = c.signature_algorithm.oid;
    // RSASSA-PSS names its hash in parameters (SHA-1 when they are absent).
    let sha1_scheme = c
        .signature_algorithm
        .signature_scheme()
        .ok()
        .flatten()
        .and_then(|s| s.digest())
        .is_some_and(|d| d == pkit_x509::alg::Digest::Sha1);
    if sha1_scheme
        || alg == oids::SHA1_WITH_RSA
        || alg == oids::ECDSA_WITH_SHA1
        || alg == oids::DSA_WITH_SHA1
    {
        return Err(Failure::new(
            Reason::WeakAlgorithm,
            Some(at),
            format!("signed with {}", alg.name_or_dotted()),
        ));
    }
    Ok(())
}
