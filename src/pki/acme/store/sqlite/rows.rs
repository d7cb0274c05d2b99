//! Rows of `acme.db` read into the records, in the column order of the `*_COLUMNS`
//! constants.

use crate::challenge::ChallengeType;
use crate::store::api::{Account, Authz, Challenge, Order};
use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ValueRef};

/// The `type` column: a name [`ChallengeType::parse`] knows, else the row is refused
/// (a state written by a newer server with a type this one does not validate).
impl FromSql for ChallengeType {
    fn column_result(v: ValueRef<'_>) -> FromSqlResult<Self> {
        let name = v.as_str()?;
        ChallengeType::parse(name)
            .ok_or_else(|| FromSqlError::Other(format!("challenge type {name:?}").into()))
    }
}

pub(super) fn order_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Order> {
    Ok(Order {
        id: r.get(0)?,
        account_id: r.get(1)?,
        status: r.get(2)?,
        identifiers: r.get(3)?,
        profile: r.get(4)?,
        replaces: r.get(5)?,
        not_before: r.get(6)?,
        not_after: r.get(7)?,
        expires: r.get(8)?,
        error: r.get(9)?,
        cert_serial: r.get(10)?,
        created: r.get(11)?,
        mtc_index: r.get(12)?,
        mtc_log: r.get(13)?,
        claimed: r.get(14)?,
    })
}

pub(super) fn account_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Account> {
    Ok(Account {
        id: r.get(0)?,
        thumbprint: r.get(1)?,
        jwk: r.get(2)?,
        spki: r.get(3)?,
        status: r.get(4)?,
        contact: r.get(5)?,
        created: r.get(6)?,
    })
}

pub(super) fn authz_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Authz> {
    Ok(Authz {
        id: r.get(0)?,
        account_id: r.get(1)?,
        id_type: r.get(2)?,
        id_value: r.get(3)?,
        wildcard: r.get(4)?,
        status: r.get(5)?,
        expires: r.get(6)?,
    })
}

pub(super) fn challenge_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Challenge> {
    Ok(Challenge {
        id: r.get(0)?,
        authz_id: r.get(1)?,
        kind: r.get(2)?,
        token: r.get(3)?,
        status: r.get(4)?,
        validated: r.get(5)?,
        error: r.get(6)?,
    })
}
