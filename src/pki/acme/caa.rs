//! Certification Authority Authorization (RFC 8659, with RFC 8657's `accounturi` and
//! `validationmethods`): whether a domain's CAA records let this CA — the issuer domain
//! name `--caa-identity` gives it — issue for a name, for this account, after this
//! challenge. Asked when a challenge is validated (the method is known then, and RFC
//! 8657 binds to it) and again at finalize for an authorization validated longer ago
//! than the Baseline Requirements let a check stand ([`recheck`]).

use crate::challenge::ChallengeType;
use crate::config::AcmeConfig;
use crate::problem::Problem;
use crate::store::{AcmeStore, Authz};
use hickory_resolver::net::runtime::TokioRuntimeProvider;
use hickory_resolver::proto::rr::{RData, RecordType};
use hickory_resolver::Resolver;
use std::future::Future;

/// How long a CAA check stands, in seconds. BR §3.2.2.8: the CA issues within the
/// record's TTL or 8 hours of checking, whichever is greater; TTLs are not kept here, so
/// 8 hours.
pub(crate) const STANDS_FOR: i64 = 8 * 3600;

/// Property tags this CA understands; a critical property with any other tag forbids
/// issuance (RFC 8659 §4.1). `iodef` is understood and not acted on (reporting is
/// optional, §4.4); `issuemail` (RFC 9495) governs email addresses, not names.
const UNDERSTOOD: [&str; 4] = ["issue", "issuewild", "iodef", "issuemail"];

/// The longest stretch of a record's value a refusal quotes back.
const QUOTED: usize = 80;

/// One CAA resource record's property (RFC 8659 §4.1):
///
/// ```text
/// +0-1-2-3-4-5-6-7-|0-1-2-3-4-5-6-7-|
/// | Flags          | Tag Length = n |
/// +----------------|----------------+...+---------------+
/// | Tag char 0     | Tag char 1     |...| Tag char n-1  |
/// +----------------|----------------+...+---------------+
/// | Value byte 0   | Value byte 1   |.....| Value byte m-1 |
/// ```
///
/// Of the flags only bit 0 (128), Issuer Critical, means anything.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Property {
    pub critical: bool,
    pub tag: String,
    pub value: Vec<u8>,
}

/// What issuance is asked for.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Request<'a> {
    /// This CA's issuer domain name.
    pub identity: &'a str,
    /// The name is `*.` the one looked up (BR §3.2.2.8: its CAA is the base name's).
    pub wildcard: bool,
    /// The ordering account's URL (RFC 8657 §3: what `accounturi` must be).
    pub account_uri: &'a str,
    /// The challenge type that proved control (RFC 8657 §4: what `validationmethods`
    /// must list); `None` when none did, which no `validationmethods` lists.
    pub method: Option<ChallengeType>,
}

/// Whether the Relevant RRset `rrset` lets `rq` through (RFC 8659 §4.2, §4.3); when it
/// does not, why, in words.
///
/// An empty set, or one with no property that governs the name (no `issue`, nor for a
/// wildcard `issuewild`), restricts nothing. A wildcard is governed by the `issuewild`
/// properties when there are any, else by `issue`; a name by `issue` alone. Any one
/// governing property that names this CA, with parameters this request satisfies, is
/// enough.
pub(crate) fn evaluate(rrset: &[Property], rq: &Request<'_>) -> Result<(), String> {
    if let Some(p) = rrset
        .iter()
        .find(|p| p.critical && !UNDERSTOOD.iter().any(|t| p.tag.eq_ignore_ascii_case(t)))
    {
        return Err(format!(
            "a critical property {:?} this CA does not understand forbids issuance",
            p.tag
        ));
    }
    let tagged = |tag: &str| -> Vec<&Property> {
        // Tags match case-insensitively (§4.1).
        rrset
            .iter()
            .filter(|p| p.tag.eq_ignore_ascii_case(tag))
            .collect()
    };
    let (issue, issuewild) = (tagged("issue"), tagged("issuewild"));
    let (tag, governing) = if rq.wildcard && !issuewild.is_empty() {
        ("issuewild", issuewild)
    } else {
        ("issue", issue)
    };
    if governing.is_empty() {
        return Ok(());
    }
    let mut why = Vec::new();
    for p in &governing {
        match authorizes(&p.value, rq) {
            Ok(()) => return Ok(()),
            Err(w) => why.push(format!("{tag} {}: {w}", quoted(&p.value))),
        }
    }
    Err(why.join("; "))
}

fn quoted(value: &[u8]) -> String {
    let text = String::from_utf8_lossy(value);
    let mut shown: String = text.chars().take(QUOTED).collect();
    if text.chars().count() > QUOTED {
        shown.push('…');
    }
    format!("{shown:?}")
}

/// Whether one `issue`/`issuewild` value authorizes `rq`; why not otherwise.
fn authorizes(value: &[u8], rq: &Request<'_>) -> Result<(), String> {
    // A value that does not parse grants nothing, though its property still governs: a
    // typo in a record must not open the name to every CA.
    let v = IssueValue::parse(value).ok_or("not the issue value syntax (RFC 8659 §4.2)")?;
    let issuer = v.issuer.ok_or("names no issuer: no CA may issue")?;
    if !issuer.eq_ignore_ascii_case(rq.identity) {
        return Err(format!("names another issuer than {}", rq.identity));
    }
    // Parameter tags are compared case-insensitively: reading `AccountURI` as unknown and
    // ignoring it would drop the restriction its holder meant.
    let named = |tag: &str| -> Vec<&str> {
        v.parameters
            .iter()
            .filter(|(t, _)| t.eq_ignore_ascii_case(tag))
            .map(|(_, v)| *v)
            .collect()
    };
    match named("accounturi").as_slice() {
        [] => {}
        [uri] if *uri == rq.account_uri => {}
        [_] => {
            return Err(format!(
                "accounturi is not this account ({})",
                rq.account_uri
            ))
        }
        _ => {
            return Err("more than one accounturi, which no account satisfies (RFC 8657 §3)".into())
        }
    }
    match named("validationmethods").as_slice() {
        [] => Ok(()),
        [list] => {
            let methods: Vec<&str> = list.split(',').collect();
            if !methods.iter().all(|m| is_label(m)) {
                return Err("validationmethods is not a list of method names (RFC 8657 §4)".into());
            }
            let method = rq.method.map_or("", ChallengeType::as_str);
            if methods.contains(&method) {
                Ok(())
            } else {
                Err(format!("validationmethods does not list {method}"))
            }
        }
        _ => {
            Err("more than one validationmethods, which no request satisfies (RFC 8657 §4)".into())
        }
    }
}

/// An `issue` or `issuewild` property value (RFC 8659 §4.2):
///
/// ```text
/// issue-value = *WSP [issuer-domain-name *WSP]
///    [";" *WSP [parameters *WSP]]
///
/// issuer-domain-name = label *("." label)
/// label = (ALPHA / DIGIT) *( *("-") (ALPHA / DIGIT))
///
/// parameters = (parameter *WSP ";" *WSP parameters) / parameter
/// parameter = tag *WSP "=" *WSP value
/// tag = (ALPHA / DIGIT) *( *("-") (ALPHA / DIGIT))
/// value = *(%x21-3A / %x3C-7E)
/// ```
#[derive(Debug, PartialEq, Eq)]
struct IssueValue<'a> {
    issuer: Option<&'a str>,
    parameters: Vec<(&'a str, &'a str)>,
}

fn is_wsp(c: char) -> bool {
    c == ' ' || c == '\t'
}

impl<'a> IssueValue<'a> {
    fn parse(value: &'a [u8]) -> Option<IssueValue<'a>> {
        // The grammar is ASCII: other bytes cannot match it.
        let text = std::str::from_utf8(value).ok()?;
        let (head, tail) = match text.split_once(';') {
            Some((h, t)) => (h, Some(t)),
            None => (text, None),
        };
        let head = head.trim_matches(is_wsp);
        let issuer = match head {
            "" => None,
            d if is_domain_name(d) => Some(d),
            _ => return None,
        };
        let mut parameters = Vec::new();
        let tail = tail.map(|t| t.trim_matches(is_wsp)).unwrap_or("");
        if !tail.is_empty() {
            // `value` excludes ";", so each piece between semicolons is one parameter;
            // an empty piece (";;", a trailing ";") matches nothing in the grammar.
            for piece in tail.split(';') {
                let (tag, value) = piece.split_once('=')?;
                let (tag, value) = (tag.trim_matches(is_wsp), value.trim_matches(is_wsp));
                if !is_label(tag) || !value.bytes().all(|b| (0x21..=0x7e).contains(&b)) {
                    return None;
                }
                parameters.push((tag, value));
            }
        }
        Some(IssueValue { issuer, parameters })
    }
}

/// `label = (ALPHA / DIGIT) *( *("-") (ALPHA / DIGIT))`, the shape of an issuer domain
/// name's labels, of parameter tags and of RFC 8657's method names.
pub(crate) fn is_label(s: &str) -> bool {
    let b = s.as_bytes();
    match (b.first(), b.last()) {
        (Some(f), Some(l)) => {
            f.is_ascii_alphanumeric()
                && l.is_ascii_alphanumeric()
                && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-')
        }
        _ => false,
    }
}

/// `issuer-domain-name = label *("." label)`: what `--caa-identity` must be too.
pub fn is_domain_name(s: &str) -> bool {
    s.split('.').all(is_label)
}

/// A Relevant RRset with the name it was found at; `None` when no name had one.
pub(crate) type Relevant = Option<(String, Vec<Property>)>;

/// The Relevant RRset of `name` (RFC 8659 §3): the CAA RRset of the name itself, else of
/// its parent, and so on up to, not including, the root — the first that is not empty,
/// with the name it was found at; `None` when none has one. `lookup` answers one fully
/// qualified name's CAA RRset (empty for no records, the name not existing included; a
/// CNAME followed as the resolver follows it), or fails, which ends the search.
pub(crate) async fn relevant_rrset<F, Fut, E>(name: &str, mut lookup: F) -> Result<Relevant, E>
where
    F: FnMut(String) -> Fut,
    Fut: Future<Output = Result<Vec<Property>, E>>,
{
    let mut at = name.trim_end_matches('.');
    while !at.is_empty() {
        let found = lookup(format!("{at}.")).await?;
        if !found.is_empty() {
            return Ok(Some((at.to_string(), found)));
        }
        at = at.split_once('.').map_or("", |(_, parent)| parent);
    }
    Ok(None)
}

/// One name's CAA RRset, asked of `resolver`: empty when it has none (NOERROR with no
/// answer, or NXDOMAIN); any other failure (SERVFAIL, REFUSED, no answer) is an error.
async fn lookup(
    resolver: &Resolver<TokioRuntimeProvider>,
    fqdn: String,
) -> Result<Vec<Property>, Problem> {
    match resolver.lookup(fqdn.as_str(), RecordType::CAA).await {
        Ok(found) => Ok(found
            .answers()
            .iter()
            .filter_map(|rec| match &rec.data {
                RData::CAA(c) => Some(Property {
                    critical: c.issuer_critical,
                    tag: c.tag.clone(),
                    value: c.value.clone(),
                }),
                _ => None,
            })
            .collect()),
        Err(e) if e.is_no_records_found() => Ok(Vec::new()),
        Err(e) => Err(crate::dns::dns_problem(format!(
            "looking up CAA at {fqdn}: {e}"
        ))),
    }
}

/// One DNS identifier to check: the name (`*.name` with `wildcard`), the ordering
/// account's URL and the challenge type that validated it.
#[derive(Debug, Clone)]
pub(crate) struct Asked {
    pub name: String,
    pub wildcard: bool,
    pub account_uri: String,
    pub method: Option<ChallengeType>,
}

impl Asked {
    /// The identifier as the order names it.
    fn shown(&self) -> String {
        if self.wildcard {
            format!("*.{}", self.name)
        } else {
            self.name.clone()
        }
    }
}

/// Whether the CAA records of `name` (a DNS identifier; `*.name` with `wildcard`) let this
/// CA issue for `account_uri` after a `method` challenge. Nothing is looked up without
/// [`AcmeConfig::caa_identity`]. A refusal is `caa`; a look-up that fails is `dns` — BR
/// §3.2.2.8 allows issuing on a failed look-up only in narrow cases this server cannot
/// tell, so it refuses.
pub(crate) fn check(
    config: &AcmeConfig,
    name: &str,
    wildcard: bool,
    account_uri: &str,
    method: ChallengeType,
) -> Result<(), Problem> {
    check_all(
        config,
        &[Asked {
            name: name.to_string(),
            wildcard,
            account_uri: account_uri.to_string(),
            method: Some(method),
        }],
    )
}

/// [`check`] for each of `asked` in turn, the first refusal ending it; all the look-ups
/// share one resolver and one [`crate::config::TIMEOUT`], so that an order of a
/// hundred names costs a finalize no more than one validation.
pub(crate) fn check_all(config: &AcmeConfig, asked: &[Asked]) -> Result<(), Problem> {
    let Some(identity) = config.caa_identity.as_deref() else {
        return Ok(());
    };
    if asked.is_empty() {
        return Ok(());
    }
    // The name being looked up, for a time-out's message.
    let current = std::cell::RefCell::new(String::new());
    let at = &current;
    // The look-ups' outcome inside, the resolver's own failures (its time-out) outside.
    let outcome = crate::dns::with_resolver(config, |r| async move {
        for a in asked {
            *at.borrow_mut() = a.shown();
            let found = match relevant_rrset(&a.name, |fqdn| lookup(&r, fqdn)).await {
                Ok(found) => found,
                Err(mut p) => {
                    p.detail = format!("CAA for {}: {}", a.shown(), p.detail);
                    return Ok(Err(p));
                }
            };
            if let Err(p) = verdict(identity, a, found) {
                return Ok(Err(p));
            }
        }
        Ok(Ok(()))
    })
    .map_err(|mut p| {
        p.detail = format!("CAA for {}: {}", current.borrow(), p.detail);
        p
    })?;
    outcome
}

/// What the Relevant RRset `found` says of `a`.
fn verdict(identity: &str, a: &Asked, found: Relevant) -> Result<(), Problem> {
    let Some((at, rrset)) = found else {
        return Ok(());
    };
    let rq = Request {
        identity,
        wildcard: a.wildcard,
        account_uri: &a.account_uri,
        method: a.method,
    };
    evaluate(&rrset, &rq).map_err(|why| {
        Problem::new(
            "caa",
            403,
            format!(
                "the CAA records at {at} forbid {identity} to issue for {}: {why}",
                a.shown()
            ),
        )
    })
}

/// Finalize's check of an order's DNS authorizations: each validated longer ago than a
/// CAA check stands ([`STANDS_FOR`]; a reused one) is checked again, with the challenge
/// type that validated it.
pub(crate) fn recheck(
    store: &dyn AcmeStore,
    config: &AcmeConfig,
    authzs: &[Authz],
    now: i64,
) -> Result<(), Problem> {
    if config.caa_identity.is_none() {
        return Ok(());
    }
    let mut asked = Vec::new();
    for z in authzs.iter().filter(|z| z.id_type == "dns") {
        let proof = store
            .challenges(z.id)
            .map_err(Problem::db)?
            .into_iter()
            .find(|c| c.status == "valid");
        // No valid challenge and no time: checked, with no method to satisfy
        // validationmethods (a valid authorization always has one).
        let (method, at) = proof.map_or((None, i64::MIN), |c| {
            (Some(c.kind), c.validated.unwrap_or(i64::MIN))
        });
        if now.saturating_sub(at) >= STANDS_FOR {
            asked.push(Asked {
                name: z.id_value.clone(),
                wildcard: z.wildcard,
                account_uri: config.account_url(z.account_id),
                method,
            });
        }
    }
    check_all(config, &asked)
}

#[cfg(test)]
mod tests;
