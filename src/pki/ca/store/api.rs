//! What the CA logic and the commands see of a CA store: the [`CaStore`] trait, the
//! records it keeps and its errors. Implementations live beside this file.

use pkit_store::open_error::OpenError;

/// Where CRLs are kept, beside ca.db.
pub(crate) const CRL_DIR: &str = "crls";

#[non_exhaustive]
#[derive(Debug)]
/// Why the CA store failed.
pub enum StoreError {
    /// SQLite refused a statement, or `ca.db` could not be read or written.
    Sqlite(rusqlite::Error),
    /// A PostgreSQL server refused a statement, or the connection to it broke.
    #[cfg(feature = "postgres")]
    Postgres(postgres::Error),
    /// The database could not be opened, or was written by a newer pkit.
    Open(OpenError),
    /// A file the database refers to (a CRL in `crls/`) could not be written or read, or
    /// does not match its recorded digest.
    File(String),
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::Sqlite(e) => write!(f, "database: {e}"),
            #[cfg(feature = "postgres")]
            StoreError::Postgres(e) => {
                write!(f, "database: {}", pkit_store::pg_error::one_line(e))
            }
            StoreError::Open(e) => write!(f, "{e}"),
            StoreError::File(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for StoreError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StoreError::Sqlite(e) => Some(e),
            #[cfg(feature = "postgres")]
            StoreError::Postgres(e) => Some(e),
            StoreError::Open(e) => Some(e),
            StoreError::File(_) => None,
        }
    }
}

impl From<OpenError> for StoreError {
    fn from(e: OpenError) -> Self {
        StoreError::Open(e)
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError::Sqlite(e)
    }
}

#[cfg(feature = "postgres")]
impl From<postgres::Error> for StoreError {
    fn from(e: postgres::Error) -> Self {
        StoreError::Postgres(e)
    }
}

impl StoreError {
    /// Whether the error came from a database server (whose URL, not a file, names it).
    pub fn is_server(&self) -> bool {
        match self {
            #[cfg(feature = "postgres")]
            StoreError::Postgres(_) | StoreError::Open(OpenError::Postgres(_)) => true,
            StoreError::Open(OpenError::Foreign(_) | OpenError::Location(_)) => true,
            _ => false,
        }
    }
}

/// A result of the CA store.
pub type Result<T> = std::result::Result<T, StoreError>;

/// One issued certificate as stored.
#[derive(Debug, Clone)]
pub struct CertRecord {
    /// The serial number's content octets.
    pub serial: Vec<u8>,
    /// The subject as the user wrote it.
    pub subject: String,
    /// The start of the validity, in Unix seconds.
    pub not_before: i64,
    /// The end of the validity, in Unix seconds.
    pub not_after: i64,
    /// The profile's name ([`crate::profile::Profile::name`]).
    pub profile: String,
    /// The subject key's algorithm, by name.
    pub key_algorithm: String,
    /// `valid` or `revoked`.
    pub status: String,
    /// When it was issued, in Unix seconds.
    pub issued_at: i64,
    /// The certificate's DER.
    pub der: Vec<u8>,
}

/// A revoked certificate as a CRL or an OCSP response needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Revoked {
    /// The serial number's content octets.
    pub serial: Vec<u8>,
    /// When it was revoked, in Unix seconds.
    pub revoked_at: i64,
    /// CRLReason code (RFC 5280 5.3.1); None when no reason was given.
    pub reason: Option<u8>,
    /// The end of the certificate's validity, in Unix seconds: a CRL may drop it after.
    pub not_after: i64,
}

/// certificateHold: the one reason that a later revocation may replace (RFC 5280 5.3.1).
pub(crate) const CERTIFICATE_HOLD: u8 = 6;

/// Whether an earlier revocation (with reason `earlier`) stands against a new one with
/// `reason`: always, except a hold that a final reason now replaces.
pub(crate) fn revocation_stands(earlier: Option<u8>, reason: Option<u8>) -> bool {
    earlier != Some(CERTIFICATE_HOLD) || reason == Some(CERTIFICATE_HOLD)
}

/// What `revoke` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RevokeOutcome {
    /// The revocation was recorded.
    Revoked,
    /// The serial was already revoked; the earlier record stands (unless it was
    /// certificateHold, which a final reason replaces).
    AlreadyRevoked(Revoked),
    /// No certificate with that serial was issued by this CA.
    Unknown,
}

/// A serial's state for an OCSP answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CertStatus {
    /// Issued here and not revoked.
    Good,
    /// Revoked, with when and why.
    Revoked(Revoked),
    /// Not issued by this CA.
    Unknown,
}

/// One signed CRL as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrlRecord {
    /// The cRLNumber (RFC 5280 §5.2.3).
    pub number: u64,
    /// thisUpdate, in Unix seconds.
    pub this_update: i64,
    /// nextUpdate, in Unix seconds.
    pub next_update: i64,
    /// The signed CRL's DER.
    pub der: Vec<u8>,
}

/// One signed OCSP response (for a single serial) as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OcspRecord {
    /// The serial number the response is for.
    pub serial: Vec<u8>,
    /// producedAt, in Unix seconds.
    pub produced_at: i64,
    /// nextUpdate, in Unix seconds: the response is to be replaced before then.
    pub next_update: i64,
    /// The signed OCSPResponse DER.
    pub der: Vec<u8>,
}

/// A CA's records. Writes are atomic: each call commits all of its rows or none.
pub trait CaStore: Send {
    /// For a batch: make the commits that follow cheap to flush (SQLite checkpoints its
    /// WAL from a background thread) until the store is dropped.
    fn checkpoint_in_background(&mut self) -> Result<()>;
    /// Insert certificates in one transaction. Fails as a whole on a duplicate serial.
    fn insert_certificates(&mut self, certs: &[CertRecord]) -> Result<()> {
        self.insert_with_overrides(certs, &LintOverrides::default())
    }
    /// Insert certificates and what the lint gate let through for them in one
    /// transaction. Fails as a whole on a duplicate serial.
    fn insert_with_overrides(
        &mut self,
        certs: &[CertRecord],
        overrides: &LintOverrides,
    ) -> Result<()>;
    /// Insert a batch chunk's certificates (in batch order), what the lint gate let
    /// through for them, and `note`, in one transaction; the returned id is for
    /// [`CaStore::delivered`].
    fn insert_for_delivery(
        &mut self,
        certs: &[CertRecord],
        note: &DeliveryNote,
        overrides: &LintOverrides,
    ) -> Result<i64>;
    /// The chunk's files are written: forget its note.
    fn delivered(&mut self, chunk: i64) -> Result<()>;
    /// Every certificate whose delivery never finished: those of chunks still noted (in
    /// batch order), then those found undelivered before.
    fn undelivered(&self) -> Result<Vec<Undelivered>>;
    /// In one transaction: drop the notes of `chunks` (their deliveries ended; a note
    /// already gone is skipped with its certificates), keeping `still` of their
    /// certificates as found undelivered; and forget `settled` (ids of certificates
    /// now delivered or revoked).
    fn settle_deliveries(
        &mut self,
        chunks: &[i64],
        still: &[&Undelivered],
        settled: &[i64],
    ) -> Result<()>;
    /// Insert a certificate that renews the one with serial `replaces`, that link, and
    /// what the lint gate let through for it, in one transaction.
    fn insert_renewal(
        &mut self,
        cert: &CertRecord,
        replaces: &[u8],
        overrides: &LintOverrides,
    ) -> Result<()>;
    /// Every renewal: (new serial, the serial it replaces), in the order recorded.
    fn renewals(&self) -> Result<Vec<(Vec<u8>, Vec<u8>)>>;
    /// Every certificate signed past the gate: (serial, mode, findings JSON).
    fn lint_overrides(&self) -> Result<Vec<(Vec<u8>, String, String)>>;
    /// Every issued certificate, in the order issued.
    fn list(&self) -> Result<Vec<CertRecord>>;
    /// The certificate with serial number `serial`, if this CA issued one.
    fn get(&self, serial: &[u8]) -> Result<Option<CertRecord>>;
    /// How many certificates this CA issued.
    fn count(&self) -> Result<i64>;
    /// Record a revocation; two revokers never interleave.
    fn revoke(&mut self, serial: &[u8], at: i64, reason: Option<u8>) -> Result<RevokeOutcome>;
    /// Every revoked certificate in ascending serial order (byte order, which for these
    /// equal-length positive serials is numeric order), streamed to `f`.
    fn for_each_revoked(&self, f: &mut dyn FnMut(Revoked)) -> Result<()>;
    /// Every certificate not expired at `now` (notAfter at or after it): its serial and
    /// DER, streamed to `f` in no particular order.
    fn for_each_unexpired(&self, now: i64, f: &mut dyn FnMut(&[u8], &[u8])) -> Result<()>;
    /// The revocations recorded after the `seq`-th ([`CaStore::revocations_recorded`]
    /// counted `seq` of them), in the order they were recorded; a serial revoked again
    /// (a hold replaced) comes with its newest record.
    fn revoked_since(&self, seq: u64) -> Result<Vec<Revoked>>;
    /// How many certificates are revoked.
    fn revoked_count(&self) -> Result<usize>;
    /// How many revocations were ever recorded (each [`RevokeOutcome::Revoked`] counts
    /// one, in the transaction that records it): one row read, so a CRL publisher can ask
    /// often whether its CRL is still true without walking the revoked certificates.
    fn revocations_recorded(&self) -> Result<u64>;
    /// The status of one serial, for OCSP.
    fn status(&self, serial: &[u8]) -> Result<CertStatus>;
    /// Take the next CRL number: strictly increasing, starting at 1, committed before the
    /// CRL is written so that no two CRLs ever share one.
    fn next_crl_number(&mut self) -> Result<u64>;
    /// The last CRL number taken (0 when none was).
    fn last_crl_number(&self) -> Result<u64>;
    /// Take the `count` CRL numbers from `first` if they are the next ones (the last taken
    /// is `first - 1`); false when another took one first. CRLs are built and gated under
    /// the numbers they expect and only then claim them, so one the gate refuses spends
    /// none.
    fn claim_crl_numbers(&mut self, first: u64, count: u64) -> Result<bool>;
    /// Forget the recorded CRLs numbered below `number` (their rows, and their files
    /// beside ca.db): a server that republishes on every revocation keeps a bounded
    /// history instead of one file per revocation.
    fn forget_crls_before(&mut self, number: u64) -> Result<()>;
    /// Keep a signed CRL. A CRL number is never reused: a second insert of the same
    /// number fails and leaves the first alone.
    fn insert_crl(&mut self, crl: &CrlRecord) -> Result<()>;
    /// The CRL with the highest number, if any was stored, checked against its recorded
    /// digest.
    fn latest_crl(&self) -> Result<Option<CrlRecord>>;
    /// Keep pre-signed OCSP responses in one transaction, replacing older ones for the
    /// same serials.
    fn put_ocsp_responses(&mut self, responses: &[OcspRecord]) -> Result<()>;
    /// Every stored OCSP response, in serial order.
    fn ocsp_responses(&self) -> Result<Vec<OcspRecord>>;
}

/// Certificates signed with the lint gate in `warn` or `off` mode rather than enforcing,
/// each with what it found: recorded in the transaction that records the certificates
/// themselves, so that no certificate is on record without them (a process killed
/// between two commits would lose them). Empty when the gate enforced.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LintOverrides {
    /// The gate's mode as `ca.json` spells it (`warn`, `off`).
    pub mode: String,
    /// Each certificate's serial and the gate's findings for it (JSON).
    pub certs: Vec<(Vec<u8>, String)>,
}

/// Where one chunk's files are being written, recorded with its certificates.
///
/// A batch commits each chunk of certificates before it writes their key and
/// certificate files (a certificate handed out must be on record). A chunk is committed
/// together with a note naming where its files go and which process writes
/// them, and the note is dropped once the files are written. A process killed in between
/// leaves the note behind: its certificates were issued, but nobody may have received
/// them. `pkit issue list --undelivered` finds them, `pkit issue export --undelivered`
/// writes their certificate files again, and `pkit crl revoke --undelivered` revokes them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeliveryNote {
    /// The output directory.
    pub destination: String,
    /// The process writing them, in a form only the caller interprets (pkit: its process
    /// id and start time), so that a later process can tell a crashed delivery from one
    /// still under way.
    pub owner: String,
    /// The batch number of the chunk's first certificate; the others follow in order.
    pub first_n: u64,
}

/// Where an undelivered certificate is known from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pending {
    /// A chunk whose delivery never finished, with its [`DeliveryNote::owner`]: maybe
    /// still under way.
    Chunk {
        /// The chunk's id in the store.
        id: i64,
        /// The process delivering it ([`DeliveryNote::owner`]).
        owner: String,
    },
    /// A certificate already found undelivered by an earlier look.
    Found,
}

/// A certificate committed whose files are not known to have been delivered.
#[derive(Debug, Clone)]
pub struct Undelivered {
    /// The store's own id for the certificate.
    pub id: i64,
    /// Its number in its batch: its files are `<n>.key` and `<n>.pem`.
    pub n: u64,
    /// The directory its batch delivers files to.
    pub destination: String,
    /// Where it is known from.
    pub pending: Pending,
    /// The certificate as stored.
    pub cert: CertRecord,
}

impl Undelivered {
    /// Whether it is known from the still-noted chunk `chunk`.
    pub(crate) fn in_chunk(&self, chunk: i64) -> bool {
        matches!(self.pending, Pending::Chunk { id, .. } if id == chunk)
    }
}
