//! A CA's own policy on the names it certifies, beyond what its certificate says: rules
//! kept in `DIR/ca.json` (`issue ca --allow/--deny`, `issue policy`), applied before
//! every signature and to every ACME order, so that a CA whose certificate carries no
//! name constraints (or looser ones than its operators mean) still signs only what it
//! is for. Name constraints bind every CA below; a policy binds this CA alone and may be
//! changed without a new certificate.
//!
//! Rules, `TYPE:PATTERN` (types case-insensitive):
//!
//! - `DNS:host.example`: that name only; `DNS:*.corp.example`: every name below
//!   `corp.example`, at any depth, and wildcard names there (`*.a.corp.example`), but
//!   not `corp.example` itself (allow both to have both). Compared without case and
//!   without a final dot.
//! - `IP:10.0.0.0/8`, `IP:fd00::/8`: addresses in the network; `IP:192.0.2.1`: that one.
//! - `email:user@corp.example`: that mailbox; `email:@corp.example`: any mailbox at that
//!   host; `email:@*.corp.example`: any mailbox at a host below it.
//! - `URI:host.example`, `URI:*.corp.example`: URIs whose host is allowed by the same
//!   rule as a DNS name (a URI without a host matches no rule).
//!
//! What a rule decides: a name matching any `deny` rule is refused, whatever the allow
//! rules say (a wildcard name is refused when a name it covers would be). When there
//! are `allow` rules, every name must match one of its own type, and a name of a type
//! no allow rule names is refused: a CA allowed `DNS:*.corp.example` does not sign IP
//! addresses (step-ca's policy engine reads its lists the same way). No rules: every name.

use crate::der::oid_registry as oids;
use pkit_x509::dns_name;
use pkit_x509::ext::GeneralName;
use pkit_x509::name::Name;
use std::fmt;
use std::net::IpAddr;

/// A name a certificate would carry, as the policy judges it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PolicyName<'a> {
    /// A dNSName (or a commonName read as one).
    Dns(&'a str),
    /// An iPAddress.
    Ip(IpAddr),
    /// An rfc822Name (or an emailAddress attribute).
    Email(&'a str),
    /// A uniformResourceIdentifier.
    Uri(&'a str),
}

impl PolicyName<'_> {
    fn form(&self) -> Form {
        match self {
            PolicyName::Dns(_) => Form::Dns,
            PolicyName::Ip(_) => Form::Ip,
            PolicyName::Email(_) => Form::Email,
            PolicyName::Uri(_) => Form::Uri,
        }
    }
}

impl fmt::Display for PolicyName<'_> {
    /// As a rule or `--san` spells it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PolicyName::Dns(d) => write!(f, "DNS:{d}"),
            PolicyName::Ip(ip) => write!(f, "IP:{ip}"),
            PolicyName::Email(e) => write!(f, "email:{e}"),
            PolicyName::Uri(u) => write!(f, "URI:{u}"),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    Dns,
    Ip,
    Email,
    Uri,
}

impl Form {
    fn plural(self) -> &'static str {
        match self {
            Form::Dns => "DNS names",
            Form::Ip => "IP addresses",
            Form::Email => "email addresses",
            Form::Uri => "URIs",
        }
    }
}

/// A domain pattern: one name, or every name below a domain.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Domain {
    /// Lowercase, without a final dot.
    name: String,
    below: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Pattern {
    Dns(Domain),
    Ip {
        net: IpAddr,
        prefix: u8,
    },
    /// A whole mailbox (local part as written, host lowercase).
    Mailbox {
        local: String,
        host: String,
    },
    /// Any mailbox at a host the domain pattern allows.
    MailHost(Domain),
    Uri(Domain),
}

/// One rule, with its text as written (for messages and for ca.json).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    text: String,
    pattern: Pattern,
}

/// Why a rule is not one: the rule and what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleError(pub String);

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RuleError {}

/// A rule a change was to remove that the policy does not have (its text as given).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoSuchRule(pub String);

impl fmt::Display for NoSuchRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: the CA's policy has no such rule", self.0)
    }
}

impl std::error::Error for NoSuchRule {}

/// A change to a CA's policy, as `pkit issue policy` makes it: every rule dropped first
/// when `clear`, then each rule of `remove` (as written) taken out, then `add`'s rules
/// added, each once.
#[derive(Debug, Clone, Default)]
pub struct PolicyChange {
    /// Drop every rule first.
    pub clear: bool,
    /// Rules to take out, as written; each must be there, unless `clear` took it.
    pub remove: Vec<String>,
    /// Rules to add.
    pub add: Policy,
}

impl PolicyChange {
    /// Whether the change changes nothing.
    pub fn is_empty(&self) -> bool {
        !self.clear && self.remove.is_empty() && self.add.is_empty()
    }
}

/// Why the CA's policy refuses a name: the name and the rule that denies it, or the allow
/// rules it matches none of, as `pkit` prints it after the `ca-policy` code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PolicyRefusal(String);

impl fmt::Display for PolicyRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PolicyRefusal {}

impl Rule {
    /// Parse `TYPE:PATTERN` (see the module's documentation).
    pub fn parse(s: &str) -> Result<Rule, RuleError> {
        let err = |m: &str| RuleError(format!("{s}: {m}"));
        let (ty, value) = s
            .split_once(':')
            .ok_or_else(|| err("expected TYPE:PATTERN (DNS:, IP:, email:, URI:)"))?;
        let pattern = match ty.to_ascii_lowercase().as_str() {
            "dns" => Pattern::Dns(domain(value).map_err(|m| err(&m))?),
            "uri" => Pattern::Uri(domain(value).map_err(|m| {
                err(&format!(
                    "{m} (URI rules name the URI's host, as DNS rules do)"
                ))
            })?),
            "ip" => {
                let (addr, bits) = match value.split_once('/') {
                    Some((a, b)) => (a, Some(b)),
                    None => (value, None),
                };
                let net: IpAddr = addr
                    .parse()
                    .map_err(|_| err("expected an IPv4 or IPv6 address, or ADDRESS/PREFIX"))?;
                let max = if net.is_ipv4() { 32 } else { 128 };
                let prefix =
                    match bits {
                        None => max,
                        Some(b) => b.parse::<u8>().ok().filter(|b| *b <= max).ok_or_else(|| {
                            err(&format!("expected a prefix length of 0 to {max}"))
                        })?,
                    };
                if masked(net, prefix) != net {
                    return Err(err("the address has bits set past the prefix length"));
                }
                Pattern::Ip { net, prefix }
            }
            "email" => match value.rsplit_once('@') {
                Some(("", host)) => Pattern::MailHost(domain(host).map_err(|m| err(&m))?),
                Some((local, host)) if !local.contains('@') && local.is_ascii() => {
                    let d = domain(host).map_err(|m| err(&m))?;
                    if d.below {
                        return Err(err(
                            "expected a mailbox, @host or @*.domain (a wildcard host takes \
                             no local part)",
                        ));
                    }
                    Pattern::Mailbox {
                        local: local.to_string(),
                        host: d.name,
                    }
                }
                _ => return Err(err("expected a mailbox, @host or @*.domain")),
            },
            other => {
                return Err(err(&format!(
                    "unknown type '{other}' (expected DNS, IP, email or URI)"
                )))
            }
        };
        Ok(Rule {
            text: s.to_string(),
            pattern,
        })
    }

    /// The rule as written.
    pub fn text(&self) -> &str {
        &self.text
    }

    fn form(&self) -> Form {
        match self.pattern {
            Pattern::Dns(_) => Form::Dns,
            Pattern::Ip { .. } => Form::Ip,
            Pattern::Mailbox { .. } | Pattern::MailHost(_) => Form::Email,
            Pattern::Uri(_) => Form::Uri,
        }
    }

    /// Whether every name `name` stands for is one the rule names (`whole`), or at
    /// least one is (`!whole`): a wildcard name is allowed only when all it covers is,
    /// and denied when any of it is.
    fn matches(&self, name: &PolicyName<'_>, whole: bool) -> bool {
        match (&self.pattern, name) {
            (Pattern::Dns(d), PolicyName::Dns(n)) => d.covers(n, whole),
            (Pattern::Uri(d), PolicyName::Uri(u)) => {
                uri_host(u).is_some_and(|h| d.covers(h, whole))
            }
            (Pattern::Ip { net, prefix }, PolicyName::Ip(ip)) => {
                net.is_ipv4() == ip.is_ipv4() && masked(*ip, *prefix) == *net
            }
            (Pattern::Mailbox { local, host }, PolicyName::Email(e)) => e
                .rsplit_once('@')
                .is_some_and(|(l, h)| l == local && lower(h) == *host),
            (Pattern::MailHost(d), PolicyName::Email(e)) => e
                .rsplit_once('@')
                .is_some_and(|(l, h)| !l.is_empty() && d.covers(h, whole)),
            _ => false,
        }
    }
}

impl Domain {
    /// Whether the names `name` stands for (itself, or with a `*.` first label every
    /// name one label below the rest) are all (`whole`) or partly within this pattern.
    fn covers(&self, name: &str, whole: bool) -> bool {
        let name = lower(name);
        let (wild, base) = match name.strip_prefix("*.") {
            Some(rest) => (true, rest.to_string()),
            None => (false, name),
        };
        let below = |n: &str, d: &str| {
            n.len() > d.len() && n.ends_with(d) && n.as_bytes()[n.len() - d.len() - 1] == b'.'
        };
        match (self.below, wild) {
            // One name against one name; a wildcard's names are never one exact name
            // wholly, and contain it when it is one label below the wildcard's base.
            (false, false) => base == self.name,
            (false, true) => {
                !whole
                    && self
                        .name
                        .split_once('.')
                        .is_some_and(|(_, parent)| parent == base)
            }
            (true, false) => below(&base, &self.name),
            // Names one label below `base` are below the pattern's domain when `base`
            // is it or below it.
            (true, true) => base == self.name || below(&base, &self.name),
        }
    }
}

/// A host pattern: `host.example` or `*.domain.example`, lowercased.
fn domain(value: &str) -> Result<Domain, String> {
    let value = value.strip_suffix('.').unwrap_or(value);
    let (below, name) = match value.strip_prefix("*.") {
        Some(rest) => (true, rest),
        None => (false, value),
    };
    let syntax = dns_name::Syntax {
        underscore: true,
        ..dns_name::Syntax::HOST
    };
    if dns_name::check(name, syntax).is_err() {
        return Err(
            "expected a host name or *.domain in ASCII (punycode for IDNs); a wildcard may \
             only be the whole first label"
                .into(),
        );
    }
    Ok(Domain {
        name: lower(name),
        below,
    })
}

fn lower(s: &str) -> String {
    let s = s.strip_suffix('.').unwrap_or(s);
    s.to_ascii_lowercase()
}

/// The host of an absolute URI (`scheme://[userinfo@]host[:port]/…`), without brackets.
fn uri_host(uri: &str) -> Option<&str> {
    let rest = uri.split_once("://")?.1;
    let authority = rest.split(['/', '?', '#']).next()?;
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = match host_port.strip_prefix('[') {
        Some(v6) => v6.split_once(']')?.0,
        None => host_port.split(':').next()?,
    };
    (!host.is_empty()).then_some(host)
}

/// `ip` with the bits past `prefix` cleared.
fn masked(ip: IpAddr, prefix: u8) -> IpAddr {
    match ip {
        IpAddr::V4(a) => {
            let bits = u32::from(a);
            let keep = u32::MAX.checked_shl(32 - u32::from(prefix)).unwrap_or(0);
            IpAddr::V4((bits & keep).into())
        }
        IpAddr::V6(a) => {
            let bits = u128::from(a);
            let keep = u128::MAX.checked_shl(128 - u32::from(prefix)).unwrap_or(0);
            IpAddr::V6((bits & keep).into())
        }
    }
}

/// A CA's rules: what it may sign and what it never signs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Policy {
    /// Rules of which a name must match one, when there are any.
    pub allow: Vec<Rule>,
    /// Rules of which a name must match none.
    pub deny: Vec<Rule>,
}

impl Policy {
    /// Parse lists of rules as written.
    pub fn parse(allow: &[String], deny: &[String]) -> Result<Policy, RuleError> {
        let rules = |l: &[String]| -> Result<Vec<Rule>, RuleError> {
            l.iter().map(|s| Rule::parse(s)).collect()
        };
        Ok(Policy {
            allow: rules(allow)?,
            deny: rules(deny)?,
        })
    }

    /// Whether the policy has no rule: it then allows every name.
    pub fn is_empty(&self) -> bool {
        self.allow.is_empty() && self.deny.is_empty()
    }

    /// Whether the CA may certify `name`; if not, why, naming the rule.
    pub fn check(&self, name: &PolicyName<'_>) -> Result<(), PolicyRefusal> {
        if let Some(r) = self.deny.iter().find(|r| r.matches(name, false)) {
            return Err(PolicyRefusal(format!(
                "{name}: denied by the CA's rule deny {}",
                r.text
            )));
        }
        if self.allow.is_empty() {
            return Ok(());
        }
        let form = name.form();
        let mut same_form = self.allow.iter().filter(|r| r.form() == form).peekable();
        if same_form.peek().is_none() {
            return Err(PolicyRefusal(format!(
                "{name}: the CA's policy allows no {} (no allow rule of that type)",
                form.plural()
            )));
        }
        if same_form.clone().any(|r| r.matches(name, true)) {
            return Ok(());
        }
        let list: Vec<&str> = same_form.map(|r| r.text.as_str()).collect();
        Err(PolicyRefusal(format!(
            "{name}: not allowed by the CA's policy (allow {})",
            list.join(", ")
        )))
    }

    /// Every name a certificate with this subject and these subjectAltName entries would
    /// carry, checked: DNS names, IP addresses, mailboxes (SmtpUTF8Mailbox too) and URIs
    /// in the SAN, and in the subject each emailAddress and each commonName that reads
    /// as a host name or an IP address (a relying party that still reads the CN would
    /// take it as one). The first refusal.
    pub fn check_names(
        &self,
        subject: &Name<'_>,
        sans: &[GeneralName<'_>],
    ) -> Result<(), PolicyRefusal> {
        if self.is_empty() {
            return Ok(());
        }
        for n in sans {
            match n {
                GeneralName::DnsName(d) => self.check(&PolicyName::Dns(d))?,
                GeneralName::IpAddress(a) => match a.address() {
                    Some(ip) => self.check(&PolicyName::Ip(ip))?,
                    None => return Err(PolicyRefusal(format!("IP:{a}: not an IP address"))),
                },
                GeneralName::Rfc822Name(e) => self.check(&PolicyName::Email(e))?,
                GeneralName::Uri(u) => self.check(&PolicyName::Uri(u))?,
                GeneralName::OtherName(o) if o.type_id == oids::ON_SMTP_UTF8_MAILBOX => {
                    let text = o.text().unwrap_or_default();
                    self.check(&PolicyName::Email(&text))?
                }
                // Names the rules have no form for are not the policy's to judge: a
                // directoryName is the subject's kind of name, the rest name no host.
                _ => {}
            }
        }
        let attrs = subject
            .attributes()
            .map_err(|e| PolicyRefusal(format!("subject: {e}")))?;
        for a in attrs {
            let Ok(text) = a.text() else { continue };
            if a.oid == oids::AT_EMAIL {
                self.check(&PolicyName::Email(&text))?;
            } else if a.oid == oids::AT_COMMON_NAME {
                if let Ok(ip) = text.parse::<IpAddr>() {
                    self.check(&PolicyName::Ip(ip))?;
                } else if text.contains('.') && domain(&text).is_ok() {
                    self.check(&PolicyName::Dns(&text))?;
                }
            }
        }
        Ok(())
    }

    /// Take out the rule written `text` (allow or deny); whether there was one.
    pub fn remove(&mut self, text: &str) -> bool {
        let before = self.allow.len() + self.deny.len();
        self.allow.retain(|x| x.text() != text);
        self.deny.retain(|x| x.text() != text);
        before != self.allow.len() + self.deny.len()
    }

    /// Make `change` ([`PolicyChange`]). A rule to remove that is not there refuses the
    /// change, which may then be half made: the caller keeps the policy it had.
    pub fn change(&mut self, change: PolicyChange) -> Result<(), NoSuchRule> {
        if change.clear {
            *self = Policy::default();
        }
        for r in &change.remove {
            if !self.remove(r) && !change.clear {
                return Err(NoSuchRule(r.clone()));
            }
        }
        self.merge(change.add);
        Ok(())
    }

    /// Add `other`'s rules, each once.
    pub fn merge(&mut self, other: Policy) {
        for (list, new) in [(&mut self.allow, other.allow), (&mut self.deny, other.deny)] {
            for rule in new {
                if !list.contains(&rule) {
                    list.push(rule);
                }
            }
        }
    }

    /// The rule lists as ca.json keeps them.
    pub fn texts(&self) -> (Vec<String>, Vec<String>) {
        let t = |l: &[Rule]| l.iter().map(|r| r.text.clone()).collect();
        (t(&self.allow), t(&self.deny))
    }
}

#[cfg(test)]
mod tests;
