//! A CRL kept true while a server runs: [`CrlPublisher`] signs the CA's CRL (and each
//! of its shards, when it shards them: [`Scope`]) at start,
//! again whenever a revocation is recorded (by this process or any other: `pkit crl
//! revoke`, ACME's revokeCert, a second server on the same records), and again once half
//! of the current CRL's thisUpdate..nextUpdate window has passed, so that a relying party
//! never holds one close to its nextUpdate. The CRL served is always the newest signed;
//! readers take it from a [`CurrentCrl`] without waiting on the signer.
//!
//! How fast a revocation shows: the publisher asks the records every `poll` whether the
//! count of recorded revocations ([`CaStore::revocations_recorded`], one row) moved. When
//! it did, it reads only the revocations recorded since ([`CaStore::revoked_since`]),
//! merges them into the entries it kept from the CRLs it served ([`RevokedList`]), and
//! signs again only the CRLs they change: the whole CRL and the shards they fall in. A
//! revocation is therefore in the served CRL within `poll` plus one merge, gate and
//! signature (0.1–0.35 s at a million entries, docs/perf.md);
//! revocations that arrive during one are taken by the next, so a burst of them costs a
//! few CRLs, not one each. At start and at each refresh every CRL is made from a walk of
//! the records, which also drops expired certificates when asked. The entries kept cost
//! memory about the size of the CRLs themselves.
//!
//! Every CRL goes through [`sign_lists`] (the lint gate; a number spent only by a CRL
//! the gate let through), is served, then recorded ([`CaStore::insert_crl`]); the records
//! keep the last [`KEPT`] of them, so a server republishing all day does not leave a file per
//! revocation.

use crate::crl_entries::RevokedList;
use crate::crl_generate::{
    scope_indices, sign_lists, walk_scopes, CrlError, CrlOptions, Scope, ToSign,
};
use crate::issuer::Issuer;
use crate::store::{CaStore, Revoked, StoreError};
use pkit_der::Time;
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::{Arc, RwLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How many of the newest CRLs the records keep while a publisher runs.
pub const KEPT: u64 = 8;

/// One signed CRL as it is served.
#[derive(Debug, Clone)]
pub struct Published {
    /// What it covers: the whole CRL, or one shard.
    pub scope: Scope,
    /// The CRL's DER.
    pub der: Arc<[u8]>,
    /// Its cRLNumber.
    pub number: u64,
    /// thisUpdate (Unix seconds).
    pub this_update: i64,
    /// nextUpdate (Unix seconds).
    pub next_update: i64,
    /// How many revoked certificates it lists.
    pub entries: usize,
    /// How long building, gating and signing it took.
    pub took: Duration,
    /// How many revocations the records held when it was made
    /// ([`CaStore::revocations_recorded`]).
    pub revocations: u64,
}

/// The newest CRL of one CA, shared between its publisher and whoever serves it.
#[derive(Debug, Default)]
pub struct CurrentCrl(RwLock<Option<Arc<Published>>>);

impl CurrentCrl {
    /// The newest CRL, if one was signed yet.
    pub fn get(&self) -> Option<Arc<Published>> {
        self.0.read().ok().and_then(|g| g.clone())
    }

    fn set(&self, p: &Arc<Published>) {
        if let Ok(mut g) = self.0.write() {
            *g = Some(Arc::clone(p));
        }
    }
}

/// When a CRL is remade.
#[derive(Debug, Clone, Copy)]
pub struct Schedule {
    /// nextUpdate − thisUpdate, in seconds.
    pub lifetime: i64,
    /// How often the records are asked whether a revocation came.
    pub poll: Duration,
    /// Leave out certificates that expired before thisUpdate.
    pub drop_expired: bool,
}

/// What a publisher tells its server's log.
#[derive(Debug)]
pub enum Event {
    /// A CRL was signed and is now served.
    Published {
        /// It.
        crl: Arc<Published>,
        /// Why it was made: `start`, `revocation` or `refresh`.
        why: &'static str,
    },
    /// Making or recording one failed; the previous stays served and it is tried again
    /// at the next poll.
    Failed {
        /// What failed.
        message: String,
    },
}

/// Signs one CA's CRLs from its records.
pub struct CrlPublisher {
    issuer: Issuer,
    store: Box<dyn CaStore>,
    schedule: Schedule,
    /// The whole CRL, then each shard when the CA shards ([`Scope::all_of`]).
    scopes: Vec<Scope>,
    current: Vec<Arc<CurrentCrl>>,
    /// The revocation count the served CRL was made after.
    seen: u64,
    /// Each scope's entries as its served CRL lists them, kept to merge the next
    /// revocations into; none until the first walk, or after a CRL failed.
    lists: Option<Vec<RevokedList>>,
}

/// Why a publisher could not start: its first CRL was not made.
#[derive(Debug)]
pub enum PublishStartError {
    /// The records could not be read or written.
    Store(StoreError),
    /// The CRL was refused by the lint gate, or not signed.
    Crl(CrlError),
}

impl std::fmt::Display for PublishStartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PublishStartError::Store(e) => write!(f, "{e}"),
            PublishStartError::Crl(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PublishStartError {}

impl CrlPublisher {
    /// A publisher for `issuer`'s CA, its first CRLs signed now (so a server never
    /// listens without them to serve): the whole CRL, then each shard.
    pub fn start(
        issuer: Issuer,
        store: Box<dyn CaStore>,
        schedule: Schedule,
        now: Time,
    ) -> Result<(CrlPublisher, Vec<Arc<Published>>), PublishStartError> {
        let mut p = CrlPublisher::new(issuer, store, schedule);
        let first = p.first(now)?;
        Ok((p, first))
    }

    /// A publisher for `issuer`'s CA with nothing signed yet: where it will serve
    /// ([`CrlPublisher::scopes`]) is known, so a server can check its routes before
    /// [`CrlPublisher::first`] spends a CRL number.
    pub fn new(issuer: Issuer, store: Box<dyn CaStore>, schedule: Schedule) -> CrlPublisher {
        let scopes = Scope::all_of(&issuer);
        CrlPublisher {
            current: scopes.iter().map(|_| Arc::default()).collect(),
            scopes,
            issuer,
            store,
            schedule,
            seen: 0,
            lists: None,
        }
    }

    /// Sign and serve the first CRLs: the whole CRL, then each shard.
    pub fn first(&mut self, now: Time) -> Result<Vec<Arc<Published>>, PublishStartError> {
        self.publish(now).map_err(|e| match e {
            CrlError::Store(e) => PublishStartError::Store(e),
            e => PublishStartError::Crl(e),
        })
    }

    /// Where the newest whole CRL is read.
    pub fn current(&self) -> Arc<CurrentCrl> {
        Arc::clone(&self.current[0])
    }

    /// Every scope it publishes, with where its newest CRL is read and the URLs it is
    /// served at.
    pub fn scopes(&self) -> Vec<(Scope, Vec<String>, Arc<CurrentCrl>)> {
        self.scopes
            .iter()
            .zip(&self.current)
            .map(|(s, c)| (*s, s.urls(&self.issuer), Arc::clone(c)))
            .collect()
    }

    /// Make, record and serve the next CRLs of every scope from one walk over the
    /// records, keeping each scope's entries for the revocations that come next.
    fn publish(&mut self, now: Time) -> Result<Vec<Arc<Published>>, CrlError> {
        let started = Instant::now();
        self.lists = None;
        // Read before the walk: a revocation recorded during it is read again after
        // ([`CrlPublisher::publish_new`] merges a serial it already lists in place).
        let seen = self.store.revocations_recorded()?;
        let options = self.options(now);
        let lists = walk_scopes(&self.issuer, &*self.store, &options, &self.scopes)?;
        let parts = ToSign::unjudged(&self.scopes, &lists);
        let all: Vec<usize> = (0..self.scopes.len()).collect();
        let out = self.sign_and_serve(&options, &parts, &all, seen, started)?;
        self.lists = Some(lists);
        Ok(out)
    }

    /// Make, record and serve the CRLs that the revocations recorded since the last
    /// ones change: those read ([`CaStore::revoked_since`]) are merged into the entries
    /// kept, and only the scopes they fall in are signed again (the whole CRL and the
    /// revoked certificates' shards). Without entries kept, or when they cannot take
    /// the new ones, every scope is made from the records ([`CrlPublisher::publish`]).
    fn publish_new(&mut self, now: Time) -> Result<Vec<Arc<Published>>, CrlError> {
        let Some(mut lists) = self.lists.take() else {
            return self.publish(now);
        };
        let started = Instant::now();
        let seen = self.store.revocations_recorded()?;
        let new = self.store.revoked_since(self.seen)?;
        let options = self.options(now);
        let mut by_scope: Vec<Vec<Revoked>> = vec![Vec::new(); self.scopes.len()];
        for r in new {
            if options.drop_expired && r.not_after < now.unix {
                continue;
            }
            for i in scope_indices(&self.issuer, &self.scopes, &r.serial) {
                by_scope[i].push(r.clone());
            }
        }
        // Per scope changed: its index, and the new entries alone (for the lint gate).
        let mut changed = Vec::new();
        for (i, new) in by_scope.iter().enumerate() {
            if new.is_empty() {
                continue;
            }
            let mut unjudged = RevokedList::with_capacity(new.len());
            if !lists[i].merge(new) || !unjudged.merge(new) {
                return self.publish(now);
            }
            changed.push((i, unjudged));
        }
        if changed.is_empty() {
            // Nothing this CA's CRLs list changed (only certificates already expired).
            self.seen = seen;
            self.lists = Some(lists);
            return Ok(Vec::new());
        }
        let parts: Vec<ToSign<'_>> = changed
            .iter()
            .map(|(i, unjudged)| ToSign {
                scope: self.scopes[*i],
                entries: &lists[*i],
                unjudged,
            })
            .collect();
        let which: Vec<usize> = changed.iter().map(|(i, _)| *i).collect();
        let out = self.sign_and_serve(&options, &parts, &which, seen, started)?;
        self.lists = Some(lists);
        Ok(out)
    }

    fn options(&self, now: Time) -> CrlOptions {
        CrlOptions {
            this_update: now,
            lifetime: self.schedule.lifetime,
            drop_expired: self.schedule.drop_expired,
        }
    }

    /// Sign `parts` ([`sign_lists`]: the lint gate, the numbers), the CRLs of the scopes
    /// at `which`, serve each, then record it. `seen` is the revocation count they were
    /// made after.
    fn sign_and_serve(
        &mut self,
        options: &CrlOptions,
        parts: &[ToSign<'_>],
        which: &[usize],
        seen: u64,
        started: Instant,
    ) -> Result<Vec<Arc<Published>>, CrlError> {
        let made = sign_lists(&self.issuer, self.store.as_mut(), options, parts)?;
        let took = started.elapsed();
        let mut out = Vec::with_capacity(made.len());
        for (m, &i) in made.into_iter().zip(which) {
            let published = Arc::new(Published {
                scope: self.scopes[i],
                der: Arc::from(&m.record.der[..]),
                number: m.record.number,
                this_update: m.record.this_update,
                next_update: m.record.next_update,
                entries: m.entries,
                took,
                revocations: seen,
            });
            // Served first, then recorded: the number is already claimed (never served
            // twice), and a million-entry CRL's file and fsync would otherwise hold back
            // the revocation it carries by a few hundred milliseconds.
            self.current[i].set(&published);
            self.store.insert_crl(&m.record)?;
            out.push(published);
        }
        self.seen = seen;
        // Best effort: old CRLs left on record cost disk, not correctness. Each
        // generation spends at most one number per scope.
        if let Some(first) = out.first() {
            let generations = (KEPT - 1) * self.scopes.len() as u64;
            let _ = self
                .store
                .forget_crls_before(first.number.saturating_sub(generations));
        }
        Ok(out)
    }

    /// Why the served CRL should be remade at `now`, if it should.
    fn due(&self, now: Time) -> Result<Option<&'static str>, StoreError> {
        if self.store.revocations_recorded()? != self.seen {
            return Ok(Some("revocation"));
        }
        let Some(c) = self.current[0].get() else {
            return Ok(Some("start"));
        };
        // Half the window gone: remade, so a client always gets at least half of one.
        let half = c.this_update + (c.next_update - c.this_update) / 2;
        Ok((now.unix >= half).then_some("refresh"))
    }

    /// One poll: remake the CRLs when due; what was done (nothing when not due).
    pub fn tick(&mut self, now: Time) -> Vec<Event> {
        let why = match self.due(now) {
            Ok(Some(why)) => why,
            Ok(None) => return Vec::new(),
            Err(e) => {
                return vec![Event::Failed {
                    message: format!("reading the records: {e}"),
                }]
            }
        };
        let made = match why {
            "revocation" => self.publish_new(now),
            _ => self.publish(now),
        };
        match made {
            Ok(crls) => crls
                .into_iter()
                .map(|crl| Event::Published { crl, why })
                .collect(),
            Err(e) => vec![Event::Failed {
                message: e.to_string(),
            }],
        }
    }

    /// Poll on a thread of its own until the returned handle is dropped, telling
    /// `report` what it does.
    pub fn spawn(
        mut self,
        report: impl Fn(Event) + Send + 'static,
    ) -> std::io::Result<PublisherThread> {
        let (stop, stopped) = mpsc::channel::<()>();
        let poll = self.schedule.poll;
        let join = std::thread::Builder::new()
            .name("crl-publisher".into())
            .spawn(move || loop {
                match stopped.recv_timeout(poll) {
                    Err(RecvTimeoutError::Timeout) => {}
                    // Told to stop, or the handle is gone.
                    _ => return,
                }
                for e in self.tick(Time::now()) {
                    report(e);
                }
            })?;
        Ok(PublisherThread {
            stop: Some(stop),
            join: Some(join),
        })
    }
}

/// A publisher's thread: dropping it stops the thread once its CRL in hand is done.
pub struct PublisherThread {
    stop: Option<Sender<()>>,
    join: Option<JoinHandle<()>>,
}

impl Drop for PublisherThread {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(j) = self.join.take() {
            let _ = j.join();
        }
    }
}

#[cfg(test)]
mod tests;
