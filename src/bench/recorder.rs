//! A bench's table as it is measured: each stage's cells, batch size by batch size, in
//! the order the seeds' tables list the operations. Every pipeline bench (x509, mtc,
//! verify) records through it.

use super::harness::{Harness, Measurement};
use super::report::OpRow;
use super::Result;
use std::collections::BTreeMap;
use std::time::Duration;

/// Collects each stage's cells across batch sizes.
pub struct Recorder<'a, 'h> {
    /// How cells are measured.
    pub h: &'a Harness<'h>,
    /// The row names' prefix (the algorithm).
    pub prefix: String,
    /// The batch size being run.
    pub batch: u64,
    /// Each stage's cells so far, by batch size.
    pub cells: BTreeMap<&'static str, Vec<(u64, Measurement)>>,
}

impl<'a, 'h> Recorder<'a, 'h> {
    /// Run `batch` for each batch size in turn, recording its stages under `prefix`;
    /// the rows come in the order of `ops`.
    pub fn run_batches(
        h: &'a Harness<'h>,
        prefix: String,
        batches: &[u64],
        ops: &[(&'static str, &'static str)],
        mut batch: impl FnMut(&mut Self, u64) -> Result<()>,
    ) -> Result<Vec<OpRow>> {
        let mut rec = Recorder {
            h,
            prefix,
            batch: 0,
            cells: BTreeMap::new(),
        };
        for &n in batches {
            rec.batch = n;
            batch(&mut rec, n)?;
        }
        Ok(rec.rows(ops))
    }

    /// Measure `run` as operation `op` over `items`, or run it once when `op` is not
    /// asked for.
    pub fn stage(
        &mut self,
        op: &'static str,
        items: u64,
        mut run: impl FnMut() -> Result<Duration>,
    ) -> Result<()> {
        if !self.h.wants(op) {
            return run().map(drop);
        }
        let label = format!("{} {op} B{}", self.prefix, self.batch);
        let m = self.h.measure(&label, items, run)?;
        self.cells.entry(op).or_default().push((self.batch, m));
        Ok(())
    }

    /// Rows in the order of `ops`, leaving out operations never measured.
    pub fn rows(self, ops: &[(&'static str, &'static str)]) -> Vec<OpRow> {
        let mut cells = self.cells;
        ops.iter()
            .filter_map(|(op, notes)| cells.remove(op).map(|cells| OpRow { op, notes, cells }))
            .collect()
    }
}
