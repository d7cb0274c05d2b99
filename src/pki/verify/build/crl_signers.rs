//! CRL signers other than a certificate's issuer (RFC 5280 §6.3.3 (f)): the same CA's
//! certificates under other keys and indirect CRL issuers, each validated to a trust
//! anchor before its CRLs are believed.

use super::Verifier;
use crate::der::oid_registry as oids;
use crate::dn;
use crate::options::Options;
use crate::pool::Pool;
use pkit_x509::cert::Certificate;
use pkit_x509::ext::{ExtensionValue, GeneralName};

impl<'a> Verifier<'a, '_> {
    /// Certificates other than `c`'s issuer on `path` that may sign `c`'s CRLs (RFC 5280
    /// §6.3.3 (f)): a certificate of the same CA under another key (a key rollover, a
    /// separate CRL key), or of an indirect CRL issuer its cRLDistributionPoints name.
    /// Each must itself have a valid path to a trust anchor, its own revocation checked
    /// with the CRLs signed by the keys on that path.
    pub(super) fn crl_signers(
        &self,
        c: &Certificate<'a>,
        path: &[Certificate<'a>],
        opts: &Options<'_>,
    ) -> Vec<Certificate<'a>> {
        let mut names = vec![dn::key(&c.issuer)];
        let crl_issuers = crl_issuer_names(c);
        // A CRL issuer's own certificate may send its status to the CRLs that issuer
        // signs (PKITS 4.14.30: the indirect CRL covers the CRL issuer's certificate
        // too). That certificate is the one whose path is being validated, so it is
        // taken as a signer without validating its path a second time.
        let names_itself = crl_issuers.contains(&dn::key(&c.subject));
        for n in crl_issuers {
            if !names.contains(&n) {
                names.push(n);
            }
        }
        let issuer_key = path
            .iter()
            .position(|p| p.raw == c.raw)
            .and_then(|i| path.get(i + 1))
            .map(|i| i.spki.raw);
        if self.crl_signer_depth == 0 {
            return Vec::new();
        }
        // The signer's own path, revocation included (a revoked CRL key signs nothing
        // that counts: PKITS 4.4.21), but no purpose, name or renewal window.
        let mut plain = Options::at(opts.now);
        plain.policy = opts.policy.clone();
        plain.budget = opts.budget;
        plain.revocation = opts.revocation;
        plain.hard_fail = opts.hard_fail;
        // §6.3.3 (f): the CRL signer's path ends at the same trust anchor as the path
        // whose certificate it speaks for.
        let Some(anchor) = path.last() else {
            return Vec::new();
        };
        let mut same_anchor = Pool::new();
        same_anchor.add(*anchor);
        let mut sub = Verifier::new(
            self.backend,
            &same_anchor,
            self.intermediates,
            self.revocation,
        );
        sub.crl_signer_depth = self.crl_signer_depth - 1;
        let mut out: Vec<Certificate<'a>> = Vec::new();
        for name in &names {
            let pools = [self.roots, self.intermediates];
            for cand in pools
                .iter()
                .flat_map(|p| p.with_subject_key(name))
                .take(MAX_CRL_SIGNERS)
            {
                if Some(cand.spki.raw) == issuer_key || out.iter().any(|o| o.raw == cand.raw) {
                    continue;
                }
                let trusted = cand.raw == anchor.raw
                    || (names_itself && cand.raw == c.raw)
                    || sub.verify(*cand, path, &plain).valid();
                if trusted {
                    out.push(*cand);
                }
            }
        }
        out
    }
}

/// Candidate CRL signers looked at per name: a pool of look-alikes must not turn each
/// revocation check into a thousand path validations.
const MAX_CRL_SIGNERS: usize = 8;

/// The names (as [`dn::key`]s) of the CRL issuers `c`'s cRLDistributionPoints name.
fn crl_issuer_names(c: &Certificate<'_>) -> Vec<Vec<u8>> {
    let Some(ExtensionValue::CrlDistributionPoints(points)) =
        c.extension_value(&oids::CE_CRL_DIST_POINTS)
    else {
        return Vec::new();
    };
    points
        .iter()
        .flat_map(|p| p.crl_issuer.iter().flatten())
        .filter_map(|g| match g {
            GeneralName::DirectoryName(n) => Some(dn::key(n)),
            _ => None,
        })
        .collect()
}
