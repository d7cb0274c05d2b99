//! The CA an ACME server issues from: its issuer (key, lint gate, name policy, chain
//! check) and the chain it serves after each leaf.

use pkit_ca::issuer::Issuer;

/// The CA an ACME server issues from.
pub struct Ca {
    /// The CA certificate and key, with its lint gate and name policy.
    pub issuer: Issuer,
    /// What follows the leaf in the chain served (intermediates, or the CA itself):
    /// [`Ca::served_chain`].
    pub chain: Vec<Vec<u8>>,
}

impl Ca {
    /// What follows each leaf in the chains the server hands out: the CA's own served
    /// chain (`pkit_ca::ca_files::served_chain`: its intermediates, nothing for a root),
    /// else, when a root issues, the root itself (`own`, read only then). Unlike `issue
    /// cert --bundle`, which leaves the root out as TLS servers send chains, an ACME
    /// client gets the certificate its path is built to (docs/acme.md), and certbot
    /// refuses a chain of one.
    pub fn served_chain<E>(
        chain: Vec<Vec<u8>>,
        own: impl FnOnce() -> Result<Vec<u8>, E>,
    ) -> Result<Vec<Vec<u8>>, E> {
        if chain.is_empty() {
            return Ok(vec![own()?]);
        }
        Ok(chain)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_root_serves_itself_after_the_leaf() {
        let root = || Ok::<_, ()>(vec![0x30, 0x01]);
        assert_eq!(
            Ca::served_chain(Vec::new(), root),
            Ok(vec![vec![0x30, 0x01]])
        );
        // An intermediate's chain as it is; the root is not read.
        let never = || -> Result<Vec<u8>, ()> { panic!("the root was read") };
        let chain = vec![vec![1], vec![2]];
        assert_eq!(Ca::served_chain(chain.clone(), never), Ok(chain));
        assert_eq!(
            Ca::served_chain(Vec::new(), || Err("unreadable")),
            Err("unreadable")
        );
    }
}
