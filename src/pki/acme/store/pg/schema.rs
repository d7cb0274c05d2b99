//! The `acme_*` tables, versioned as the store `acme` in `pkit_schema`: each version a
//! step from the one before.

pub(super) const MIGRATIONS: &[&str] = &[
    "CREATE TABLE acme_nonces (nonce TEXT PRIMARY KEY, created BIGINT NOT NULL);
    CREATE TABLE acme_accounts (
        id          BIGSERIAL PRIMARY KEY,
        thumbprint  TEXT NOT NULL UNIQUE,
        jwk         TEXT NOT NULL,
        spki        BYTEA NOT NULL,
        status      TEXT NOT NULL,
        contact     TEXT NOT NULL,
        eab_kid     TEXT,
        created     BIGINT NOT NULL
    );
    CREATE TABLE acme_orders (
        id          BIGSERIAL PRIMARY KEY,
        account_id  BIGINT NOT NULL REFERENCES acme_accounts(id),
        status      TEXT NOT NULL,
        identifiers TEXT NOT NULL,
        profile     TEXT,
        replaces    TEXT,
        not_before  BIGINT,
        not_after   BIGINT,
        expires     BIGINT NOT NULL,
        error       TEXT,
        cert_serial TEXT,
        created     BIGINT NOT NULL
    );
    CREATE INDEX acme_orders_by_account ON acme_orders(account_id, created);
    CREATE TABLE acme_authzs (
        id          BIGSERIAL PRIMARY KEY,
        account_id  BIGINT NOT NULL REFERENCES acme_accounts(id),
        id_type     TEXT NOT NULL,
        id_value    TEXT NOT NULL,
        wildcard    BOOLEAN NOT NULL,
        status      TEXT NOT NULL,
        expires     BIGINT NOT NULL
    );
    CREATE INDEX acme_authzs_for_reuse ON acme_authzs(account_id, id_type, id_value, wildcard);
    CREATE TABLE acme_order_authzs (
        order_id    BIGINT NOT NULL REFERENCES acme_orders(id),
        authz_id    BIGINT NOT NULL REFERENCES acme_authzs(id),
        PRIMARY KEY (order_id, authz_id)
    );
    CREATE TABLE acme_challenges (
        id          BIGSERIAL PRIMARY KEY,
        authz_id    BIGINT NOT NULL REFERENCES acme_authzs(id),
        type        TEXT NOT NULL,
        token       TEXT NOT NULL,
        status      TEXT NOT NULL,
        validated   BIGINT,
        error       TEXT
    );
    CREATE INDEX acme_challenges_by_authz ON acme_challenges(authz_id);
    CREATE TABLE acme_certs (
        serial      TEXT PRIMARY KEY,
        order_id    BIGINT NOT NULL REFERENCES acme_orders(id),
        account_id  BIGINT NOT NULL REFERENCES acme_accounts(id),
        chain_pem   TEXT NOT NULL,
        not_before  BIGINT NOT NULL,
        not_after   BIGINT NOT NULL,
        revoked     BOOLEAN NOT NULL DEFAULT false
    );",
    // v2: MACed nonces (crate::nonce); only the spent ones are kept.
    "DROP TABLE acme_nonces;
    CREATE TABLE acme_spent_nonces (nonce TEXT PRIMARY KEY, made BIGINT NOT NULL);
    CREATE INDEX acme_spent_nonces_by_age ON acme_spent_nonces(made);
    CREATE TABLE acme_secrets (name TEXT PRIMARY KEY, value BYTEA NOT NULL);",
    // v2: the MTC log entry of an order finalized on an MTC CA: its log and index.
    // And when finalization claimed an order, so that one a stopped server left
    // processing can be told apart from one being finalized.
    "ALTER TABLE acme_orders ADD COLUMN mtc_index BIGINT;
    ALTER TABLE acme_orders ADD COLUMN mtc_log TEXT;
    ALTER TABLE acme_orders ADD COLUMN claimed BIGINT;",
    // v3: the orders that replace a certificate (RFC 9773 §5), looked up for each new one
    // that replaces it.
    "CREATE INDEX acme_orders_by_replaces ON acme_orders(replaces);",
];
