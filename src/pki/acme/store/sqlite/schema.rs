//! `acme.db`'s tables, each version a step from the one before, so that a state made by
//! an older server opens in a newer one.

pub(super) const MIGRATIONS: &[&str] = &[
    // v1. Times are POSIX seconds. `identifiers` and `contact` are JSON arrays.
    "CREATE TABLE nonces (nonce TEXT PRIMARY KEY, created INTEGER NOT NULL);
    CREATE TABLE accounts (
        id          INTEGER PRIMARY KEY,
        thumbprint  TEXT NOT NULL UNIQUE,
        jwk         TEXT NOT NULL,
        spki        BLOB NOT NULL,
        status      TEXT NOT NULL,
        contact     TEXT NOT NULL,
        eab_kid     TEXT,
        created     INTEGER NOT NULL
    );
    CREATE TABLE orders (
        id          INTEGER PRIMARY KEY,
        account_id  INTEGER NOT NULL REFERENCES accounts(id),
        status      TEXT NOT NULL,
        identifiers TEXT NOT NULL,
        profile     TEXT,
        replaces    TEXT,
        not_before  INTEGER,
        not_after   INTEGER,
        expires     INTEGER NOT NULL,
        error       TEXT,
        cert_serial TEXT,
        created     INTEGER NOT NULL
    );
    CREATE INDEX orders_by_account ON orders(account_id);
    CREATE TABLE authzs (
        id          INTEGER PRIMARY KEY,
        account_id  INTEGER NOT NULL REFERENCES accounts(id),
        id_type     TEXT NOT NULL,
        id_value    TEXT NOT NULL,
        wildcard    INTEGER NOT NULL,
        status      TEXT NOT NULL,
        expires     INTEGER NOT NULL
    );
    CREATE INDEX authzs_for_reuse ON authzs(account_id, id_type, id_value, wildcard);
    CREATE TABLE order_authzs (
        order_id    INTEGER NOT NULL REFERENCES orders(id),
        authz_id    INTEGER NOT NULL REFERENCES authzs(id),
        PRIMARY KEY (order_id, authz_id)
    );
    CREATE TABLE challenges (
        id          INTEGER PRIMARY KEY,
        authz_id    INTEGER NOT NULL REFERENCES authzs(id),
        type        TEXT NOT NULL,
        token       TEXT NOT NULL,
        status      TEXT NOT NULL,
        validated   INTEGER,
        error       TEXT
    );
    CREATE INDEX challenges_by_authz ON challenges(authz_id);
    CREATE TABLE certs (
        serial      TEXT PRIMARY KEY,
        order_id    INTEGER NOT NULL REFERENCES orders(id),
        account_id  INTEGER NOT NULL REFERENCES accounts(id),
        chain_pem   TEXT NOT NULL,
        not_before  INTEGER NOT NULL,
        not_after   INTEGER NOT NULL,
        revoked     INTEGER NOT NULL DEFAULT 0
    );",
    // v2: nonces are MACed (crate::nonce); only the spent ones are kept, until they
    // expire, and the key is shared here.
    "DROP TABLE nonces;
    CREATE TABLE spent_nonces (nonce TEXT PRIMARY KEY, made INTEGER NOT NULL);
    CREATE INDEX spent_nonces_by_age ON spent_nonces(made);
    CREATE TABLE secrets (name TEXT PRIMARY KEY, value BLOB NOT NULL);",
    // v3: the MTC log entry of an order finalized on an MTC CA: its log and index.
    // And when finalization claimed an order, so that one a stopped server left
    // processing can be told apart from one being finalized.
    "ALTER TABLE orders ADD COLUMN mtc_index INTEGER;
    ALTER TABLE orders ADD COLUMN mtc_log TEXT;
    ALTER TABLE orders ADD COLUMN claimed INTEGER;",
    // v4: the orders that replace a certificate (RFC 9773 §5), looked up for each new one
    // that replaces it.
    "CREATE INDEX orders_by_replaces ON orders(replaces);",
    // v5: a spent nonce is one row of one b-tree, in the order they were made (the
    // nonce's own second, which its MAC covers, so the pair is as unique as the nonce):
    // a spend writes near the end of it and a prune cuts its front, where before it wrote
    // a table, its key's index and its age's index, at three random places. The spent
    // ones are carried over (one spent before the upgrade stays spent after it). And an
    // account's orders by age, for its rate limit, which counted all of them.
    "CREATE TABLE spent_nonces_v5 (
        made  INTEGER NOT NULL,
        nonce TEXT NOT NULL,
        PRIMARY KEY (made, nonce)
    ) WITHOUT ROWID;
    INSERT INTO spent_nonces_v5 (made, nonce) SELECT made, nonce FROM spent_nonces;
    DROP TABLE spent_nonces;
    ALTER TABLE spent_nonces_v5 RENAME TO spent_nonces;
    CREATE INDEX orders_by_account_age ON orders(account_id, created);
    DROP INDEX orders_by_account;",
];
