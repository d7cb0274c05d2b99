//! Rows of the `acme_*` tables read into the records, in the column order of the
//! `*_COLUMNS` constants, and the driver's errors as one line.

use crate::challenge::ChallengeType;
use crate::store::api::{Account, Authz, Challenge, Order, StoreError};
use postgres::types::{FromSql, Type};

/// The `type` column: a name [`ChallengeType::parse`] knows, else the row is refused
/// (a state written by a newer server with a type this one does not validate).
impl<'a> FromSql<'a> for ChallengeType {
    fn from_sql(
        ty: &Type,
        raw: &'a [u8],
    ) -> Result<Self, Box<dyn std::error::Error + Sync + Send>> {
        let name = <&str as FromSql>::from_sql(ty, raw)?;
        ChallengeType::parse(name).ok_or_else(|| format!("challenge type {name:?}").into())
    }

    fn accepts(ty: &Type) -> bool {
        <&str as FromSql>::accepts(ty)
    }
}
use pkit_store::pg_error::one_line;
use postgres::Row;

pub(super) fn pg(e: postgres::Error) -> StoreError {
    StoreError(one_line(&e))
}

pub(super) fn account_row(r: &Row) -> Account {
    Account {
        id: r.get(0),
        thumbprint: r.get(1),
        jwk: r.get(2),
        spki: r.get(3),
        status: r.get(4),
        contact: r.get(5),
        created: r.get(6),
    }
}

pub(super) fn order_row(r: &Row) -> Order {
    Order {
        id: r.get(0),
        account_id: r.get(1),
        status: r.get(2),
        identifiers: r.get(3),
        profile: r.get(4),
        replaces: r.get(5),
        not_before: r.get(6),
        not_after: r.get(7),
        expires: r.get(8),
        error: r.get(9),
        cert_serial: r.get(10),
        created: r.get(11),
        mtc_index: r.get(12),
        mtc_log: r.get(13),
        claimed: r.get(14),
    }
}

pub(super) fn authz_row(r: &Row) -> Authz {
    Authz {
        id: r.get(0),
        account_id: r.get(1),
        id_type: r.get(2),
        id_value: r.get(3),
        wildcard: r.get(4),
        status: r.get(5),
        expires: r.get(6),
    }
}

/// A challenge's row; an error, not a panic, for a type this server does not know.
pub(super) fn challenge_row(r: &Row) -> Result<Challenge, postgres::Error> {
    Ok(Challenge {
        id: r.try_get(0)?,
        authz_id: r.try_get(1)?,
        kind: r.try_get(2)?,
        token: r.try_get(3)?,
        status: r.try_get(4)?,
        validated: r.try_get(5)?,
        error: r.try_get(6)?,
    })
}
