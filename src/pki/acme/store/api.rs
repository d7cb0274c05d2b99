//! What the ACME state holds (accounts, orders, authorizations, challenges, issued
//! certificates) and the [`AcmeStore`] trait both databases implement.

use crate::challenge::ChallengeType;

/// A store failure, as one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreError(pub String);

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for StoreError {}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError(e.to_string())
    }
}

pub(crate) type Result<T> = std::result::Result<T, StoreError>;

/// An account (RFC 8555 §7.1.2), as the state keeps it.
#[derive(Debug, Clone)]
pub struct Account {
    /// Its number: its URL is `BASE/acct/ID`.
    pub id: i64,
    /// Its key's JWK thumbprint (RFC 7638), by which a `newAccount` finds it.
    pub thumbprint: String,
    /// Its key as the JWK (JSON) it was registered with.
    pub jwk: String,
    /// Its key as a DER SubjectPublicKeyInfo, that its JWS signatures verify with.
    pub spki: Vec<u8>,
    /// `valid` or `deactivated`.
    pub status: String,
    /// Its `contact` URLs, as a JSON list.
    pub contact: String,
    /// When it was made (POSIX seconds).
    pub created: i64,
}

/// An order (RFC 8555 §7.1.3), as the state keeps it.
#[derive(Debug, Clone)]
pub struct Order {
    /// Its number: its URL is `BASE/order/ID`.
    pub id: i64,
    /// The account that made it.
    pub account_id: i64,
    /// `pending`, `ready`, `processing`, `valid` or `invalid` (§7.1.6).
    pub status: String,
    /// Its identifiers as the JSON list its client reads (`{"type", "value"}` each).
    pub identifiers: String,
    /// The profile it named, if any.
    pub profile: Option<String>,
    /// The ARI CertID of the certificate it replaces (RFC 9773 §5), if any.
    pub replaces: Option<String>,
    /// The notBefore its client asked for (POSIX seconds).
    pub not_before: Option<i64>,
    /// The notAfter its client asked for (POSIX seconds).
    pub not_after: Option<i64>,
    /// When it expires unfinalized (POSIX seconds).
    pub expires: i64,
    /// Why it became invalid: a problem document (JSON).
    pub error: Option<String>,
    /// Its certificate's serial (hex), once issued.
    pub cert_serial: Option<String>,
    /// When it was made (POSIX seconds).
    pub created: i64,
    /// The log entry of an MTC order once finalized (a Merkle Tree Certificate): its certificate is
    /// made when a checkpoint covers it.
    pub mtc_index: Option<i64>,
    /// The MTC log (its trust anchor ID, dotted) the entry is in.
    pub mtc_log: Option<String>,
    /// When finalization claimed it (POSIX seconds).
    pub claimed: Option<i64>,
}

/// An authorization (RFC 8555 §7.1.4), as the state keeps it.
#[derive(Debug, Clone)]
pub struct Authz {
    /// Its number: its URL is `BASE/authz/ID`.
    pub id: i64,
    /// The account it belongs to.
    pub account_id: i64,
    /// The identifier's type: `dns` or `ip` (RFC 8738).
    pub id_type: String,
    /// The identifier, without a wildcard's `*.`.
    pub id_value: String,
    /// Whether the order named `*.` this identifier.
    pub wildcard: bool,
    /// `pending`, `valid`, `invalid` or `deactivated` (§7.1.6).
    pub status: String,
    /// When it expires (POSIX seconds).
    pub expires: i64,
}

/// A challenge of an authorization (RFC 8555 §7.1.5, §8), as the state keeps it.
#[derive(Debug, Clone)]
pub struct Challenge {
    /// Its number: its URL is `BASE/chall/ID`.
    pub id: i64,
    /// The authorization it proves.
    pub authz_id: i64,
    /// How it is proven.
    pub kind: ChallengeType,
    /// Its token (base64url of 32 random bytes).
    pub token: String,
    /// `pending`, `processing`, `valid` or `invalid`.
    pub status: String,
    /// When it was validated (POSIX seconds).
    pub validated: Option<i64>,
    /// Why it failed: a problem document (JSON).
    pub error: Option<String>,
}

/// A certificate issued to an order, as the state keeps it for download, renewal
/// information and revocation.
#[derive(Debug, Clone)]
pub struct IssuedCert {
    /// Its serial number, hex: its URL is `BASE/cert/SERIAL`.
    pub serial: String,
    /// The order it was issued to.
    pub order_id: i64,
    /// The account that ordered it.
    pub account_id: i64,
    /// The chain served: the certificate, then its issuers, PEM.
    pub chain_pem: String,
    /// Its notBefore (POSIX seconds).
    pub not_before: i64,
    /// Its notAfter (POSIX seconds).
    pub not_after: i64,
    /// Whether it was revoked through ACME.
    pub revoked: bool,
}

/// An authorization a new order needs: reused, or new with these challenges.
#[derive(Debug, Clone)]
pub struct NewAuthz {
    /// The identifier's type: `dns` or `ip`.
    pub id_type: String,
    /// The identifier, without a wildcard's `*.`.
    pub id_value: String,
    /// Whether the order named `*.` this identifier.
    pub wildcard: bool,
    /// A valid authorization of the account to reuse, instead of a new one.
    pub reuse: Option<i64>,
    /// (type, token) of each challenge of a new one.
    pub challenges: Vec<(ChallengeType, String)>,
}

/// What a new order replaces (RFC 9773 §5), found in the records.
#[derive(Debug, Clone)]
pub struct Replacing {
    /// The certificate's ARI CertID as the order records and shows it
    /// (RFC 9773 §4.1: base64url AKI keyIdentifier, `.`, base64url serial).
    pub cert_id: String,
    /// Its serial, as [`IssuedCert::serial`].
    pub serial: String,
}

/// How creating an order went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Created {
    /// The new order's id.
    Order(i64),
    /// Nothing made: this order, not invalid, replaces the same certificate already.
    AlreadyReplaced(i64),
}

/// The columns every store reads its rows with, in the order the row readers expect.
pub(crate) const ORDER_COLUMNS: &str =
    "id, account_id, status, identifiers, profile, replaces, not_before, \
                             not_after, expires, error, cert_serial, created, mtc_index, mtc_log, claimed";

pub(crate) const ACCOUNT_COLUMNS: &str = "id, thumbprint, jwk, spki, status, contact, created";
pub(crate) const AUTHZ_COLUMNS: &str =
    "id, account_id, id_type, id_value, wildcard, status, expires";
/// [`AUTHZ_COLUMNS`] of the table aliased `a` (authorizations joined to an order).
pub(crate) const AUTHZ_COLUMNS_OF_A: &str =
    "a.id, a.account_id, a.id_type, a.id_value, a.wildcard, a.status, a.expires";
pub(crate) const CHALLENGE_COLUMNS: &str = "id, authz_id, type, token, status, validated, error";

/// What the server keeps, whichever database keeps it.
pub trait AcmeStore: Send {
    /// The key nonces are MACed with (RFC 8555 §6.5 lets a server make them as it likes), made (randomly, by whichever
    /// server asks first) and kept in the state, so that every server shares it.
    fn nonce_key(&self, fresh: &[u8; 32]) -> Result<Vec<u8>>;
    /// Record a nonce as spent: true the first time, false when it was spent already.
    /// With `prune` (the caller asks now and then) the spent ones past their lifetime go.
    fn spend_nonce(&self, nonce: &str, made: i64, now: i64, prune: bool) -> Result<bool>;
    /// The account whose key has JWK thumbprint `t`.
    fn account_by_thumbprint(&self, t: &str) -> Result<Option<Account>>;
    /// Account `id`.
    fn account(&self, id: i64) -> Result<Option<Account>>;
    /// Every account, by id.
    fn accounts(&self) -> Result<Vec<Account>>;
    /// A new account, `valid`, bound to external account `eab_kid` if given: its id.
    fn create_account(
        &self,
        thumbprint: &str,
        jwk: &str,
        spki: &[u8],
        contact: &str,
        eab_kid: Option<&str>,
        now: i64,
    ) -> Result<i64>;
    /// Set an account's contacts (a JSON list) and status.
    fn update_account(&self, id: i64, contact: &str, status: &str) -> Result<()>;
    /// Give an account a new key (RFC 8555 §7.3.5); false when another account has it.
    fn rekey_account(&self, id: i64, thumbprint: &str, jwk: &str, spki: &[u8]) -> Result<bool>;
    /// A new order with its authorizations (reusing `reuse`, making the rest with their
    /// challenges), in one transaction. One that `replaces` a certificate is made only
    /// when no order that is not invalid replaces it already, which the transaction
    /// decides: of two servers replacing one certificate at once, one makes its order.
    #[allow(clippy::too_many_arguments)]
    fn create_order(
        &mut self,
        account_id: i64,
        identifiers: &str,
        profile: Option<&str>,
        replaces: Option<&Replacing>,
        window: (Option<i64>, Option<i64>),
        expires: i64,
        authzs: &[NewAuthz],
        now: i64,
    ) -> Result<Created>;
    /// The orders that replace the certificate of ARI CertID `cert_id`, whatever their
    /// status.
    fn orders_replacing(&self, cert_id: &str) -> Result<Vec<Order>>;
    /// A valid, unexpired authorization of `account` for the identifier, to reuse.
    fn reusable_authz(
        &self,
        account_id: i64,
        id_type: &str,
        id_value: &str,
        wildcard: bool,
        now: i64,
    ) -> Result<Option<i64>>;
    /// How many orders `account` made since `since` (for its rate limit).
    fn orders_since(&self, account_id: i64, since: i64) -> Result<i64>;
    /// Order `id`.
    fn order(&self, id: i64) -> Result<Option<Order>>;
    /// The orders of `account_id`, or every order, by id.
    fn orders(&self, account_id: Option<i64>) -> Result<Vec<Order>>;
    /// An order's authorizations, by id.
    fn order_authzs(&self, order: i64) -> Result<Vec<Authz>>;
    /// Authorization `id`.
    fn authz(&self, id: i64) -> Result<Option<Authz>>;
    /// Set an authorization's status (`deactivated`, §7.5.2).
    fn set_authz_status(&self, id: i64, status: &str) -> Result<()>;
    /// An authorization's challenges, by id.
    fn challenges(&self, authz: i64) -> Result<Vec<Challenge>>;
    /// Challenge `id`.
    fn challenge(&self, id: i64) -> Result<Option<Challenge>>;
    /// Move a pending challenge to processing: true for the one caller that did (a
    /// challenge is validated once, however often it is posted).
    fn start_challenge(&self, id: i64) -> Result<bool>;
    /// Challenges left in processing (a server stopped while validating them).
    fn processing_challenges(&self) -> Result<Vec<i64>>;
    /// A challenge's outcome, and its authorization's with it.
    fn finish_challenge(&mut self, id: i64, error: Option<&str>, now: i64) -> Result<()>;
    /// Move an order from status `from` to `to`: true for the one caller that did.
    fn advance_order(&self, id: i64, from: &str, to: &str) -> Result<bool>;
    /// Claim a ready order for finalization at `now`: true for the one caller that did.
    fn claim_order(&self, id: i64, now: i64) -> Result<bool>;
    /// Set an order's status, and the problem document (JSON) that made it invalid.
    fn set_order_status(&self, id: i64, status: &str, error: Option<&str>) -> Result<()>;
    /// Record the MTC log entry (log ID, index) a processing order's certificate will be
    /// made from.
    fn set_order_mtc(&self, id: i64, log: &str, index: i64) -> Result<()>;
    /// The order's certificate, recorded with the processing order made valid, in one
    /// transaction: true for the one caller that did (two servers may make an MTC order's
    /// certificate at once; the second records nothing).
    fn complete_order(&mut self, order: &Order, cert: &IssuedCert) -> Result<bool>;
    /// The certificate of serial `serial` (hex), if this server issued it.
    fn cert(&self, serial: &str) -> Result<Option<IssuedCert>>;
    /// Record the certificate of serial `serial` (hex) as revoked.
    fn mark_revoked(&self, serial: &str) -> Result<()>;
}
