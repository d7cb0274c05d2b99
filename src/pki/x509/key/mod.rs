//! Private keys, modelled once: PKCS#8 v1/v2 (RFC 5958), its encrypted form with the
//! password-based schemes PKCS#12 shares (RFC 8018, RFC 7914, RFC 7292), the inner RSA
//! and EC keys (RFC 8017, RFC 5915), the ML-DSA forms (RFC 9881), the fixed encodings
//! pkit writes itself, and loading a key to sign with.
//!
//! Everything here is structure; key material and cryptography come from a
//! backend the caller passes in.
//!
//! Each family is reached through its module, whose name says what its items are for:
//! [`pkcs8`] and [`encrypted`] (the two PKCS#8 forms), [`pbe`] and [`cost`] (the
//! password-based schemes and the work they may cost), [`inner`] (RSA and EC keys inside
//! PKCS#8), [`ml_dsa`], [`public`] (public keys taken apart), [`kind`] (which key an
//! algorithm names), [`encode`] (what pkit writes) and [`load`] (a key to sign with).

#![forbid(unsafe_code)]

pub mod cost;
pub mod encode;
pub mod encrypted;
pub mod inner;
pub mod kind;
pub mod load;
pub mod ml_dsa;
pub mod pbe;
pub mod pkcs8;
pub mod public;
