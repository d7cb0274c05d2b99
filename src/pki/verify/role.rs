//! Where a certificate stands in a path, which decides the profile rules it is held to.

/// The certificate's place in the path being validated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    /// The certificate the path was built for (index 0).
    Leaf,
    /// A CA between the leaf and the trust anchor.
    Intermediate,
    /// The trust anchor, last in the path.
    Anchor,
}

impl Role {
    /// The role of certificate `at` in a path whose anchor is at `anchor`.
    pub(super) fn of(at: usize, anchor: usize) -> Role {
        if at == 0 {
            Role::Leaf
        } else if at == anchor {
            Role::Anchor
        } else {
            Role::Intermediate
        }
    }

    pub(super) fn is_ca(self) -> bool {
        self != Role::Leaf
    }
}
