//! The CA an ACME server issues from: its issuer (key, lint gate, name policy, chain
//! check) and the chain it serves after each leaf.

use pkit_ca::issuer::Issuer;

/// The CA an ACME server issues from.
pub struct Ca {
    /// The CA certificate and key, with its lint gate and name policy.
    pub issuer: Issuer,
    /// What follows the leaf in the chain served (intermediates, or the CA itself).
    pub chain: Vec<Vec<u8>>,
}
