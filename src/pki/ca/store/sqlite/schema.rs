//! The schema of `ca.db`: forward-only migrations, applied in order and counted by
//! `PRAGMA user_version`.

/// Forward migrations; index i takes the schema from version i to i + 1.
pub(super) const MIGRATIONS: &[&str] = &[
    // v1: issued certificates. Serials are 20 random bytes, UNIQUE.
    "CREATE TABLE certificates (
        id          INTEGER PRIMARY KEY,
        serial      BLOB NOT NULL UNIQUE,
        subject     TEXT NOT NULL,
        not_before  INTEGER NOT NULL,
        not_after   INTEGER NOT NULL,
        profile     TEXT NOT NULL,
        key_algorithm TEXT NOT NULL,
        status      TEXT NOT NULL DEFAULT 'valid',
        issued_at   INTEGER NOT NULL,
        der         BLOB NOT NULL
    );
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);",
    // v2: revocation. `status` becomes 'revoked'; the reason is the CRLReason code (NULL
    // when none is given). The partial index keeps CRL generation a walk over the revoked
    // rows in serial order, however many certificates were issued.
    "ALTER TABLE certificates ADD COLUMN revoked_at INTEGER;
    ALTER TABLE certificates ADD COLUMN revocation_reason INTEGER;
    CREATE INDEX certificates_revoked ON certificates(serial) WHERE revoked_at IS NOT NULL;",
    // v3: signed CRLs by cRLNumber, and pre-signed OCSP responses by serial, so a CA's
    // published artefacts live beside the certificates they speak about.
    "CREATE TABLE crls (
        number      INTEGER PRIMARY KEY,
        this_update INTEGER NOT NULL,
        next_update INTEGER NOT NULL,
        der         BLOB NOT NULL
    );
    CREATE TABLE ocsp_responses (
        serial      BLOB PRIMARY KEY,
        produced_at INTEGER NOT NULL,
        next_update INTEGER NOT NULL,
        der         BLOB NOT NULL
    );",
    // v4: the revoked index covers every column CRL generation reads, so `crl gen` is one
    // sequential walk over the index instead of a table lookup per entry (on a million
    // revoked certificates: 5.3 s of random page reads before, see docs/perf.md).
    "DROP INDEX certificates_revoked;
    CREATE INDEX certificates_revoked
        ON certificates(serial, revoked_at, revocation_reason, not_after)
        WHERE revoked_at IS NOT NULL;",
    // v5: a CRL's DER lives in `crls/<number>.crl` beside ca.db, the table keeps its
    // size and SHA-256. A million-entry CRL is 53 MB: as a row it was written twice (WAL,
    // then checkpoint) with two fsyncs, half of `crl gen`'s time. Rows from before keep
    // their DER in `der`.
    "CREATE TABLE crls_v5 (
        number      INTEGER PRIMARY KEY,
        this_update INTEGER NOT NULL,
        next_update INTEGER NOT NULL,
        size        INTEGER NOT NULL,
        sha256      BLOB,
        der         BLOB
    );
    INSERT INTO crls_v5 (number, this_update, next_update, size, der)
        SELECT number, this_update, next_update, length(der), der FROM crls;
    DROP TABLE crls;
    ALTER TABLE crls_v5 RENAME TO crls;",
    // v6: deliveries (see the deliveries in `api.rs`). A batch chunk's note goes in with its
    // certificates and leaves when their files are written: one row per chunk, so the
    // bookkeeping costs two row writes per thousand certificates. Certificates found
    // undelivered after a crash are kept one row each until exported or revoked.
    "CREATE TABLE pending_deliveries (
        id          INTEGER PRIMARY KEY,
        destination TEXT NOT NULL,
        owner       TEXT NOT NULL,
        first_n     INTEGER NOT NULL,
        first_cert  INTEGER NOT NULL,
        last_cert   INTEGER NOT NULL
    );
    CREATE TABLE undelivered (
        cert        INTEGER PRIMARY KEY REFERENCES certificates(id),
        destination TEXT NOT NULL,
        n           INTEGER NOT NULL
    );",
    // v7: renewals. A certificate `issue renew` made names the one it replaces.
    "CREATE TABLE renewals (
        serial      BLOB PRIMARY KEY REFERENCES certificates(serial),
        replaces    BLOB NOT NULL REFERENCES certificates(serial)
    );",
    // v8: certificates signed with the lint gate in warn or off mode, and what it found.
    "CREATE TABLE lint_overrides (
        serial      BLOB PRIMARY KEY REFERENCES certificates(serial),
        mode        TEXT NOT NULL,
        findings    TEXT NOT NULL
    );",
    // v9: each revocation's place in the order revocations were recorded (the
    // `revocations` count in `meta` it made), so a CRL publisher reads only those since
    // its last CRL instead of walking every revoked certificate again.
    "ALTER TABLE certificates ADD COLUMN revocation_seq INTEGER;
    CREATE INDEX certificates_revocation_seq ON certificates(revocation_seq)
        WHERE revocation_seq IS NOT NULL;",
];

/// The version a fully migrated `ca.db` has in `PRAGMA user_version`.
#[cfg(test)]
pub(super) const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;
