//! Timing one cell: a warm-up run, then repetitions until `min_time` of measured time has
//! accumulated; the mean, fastest and slowest repetition are kept. Each repetition times
//! itself (the closure returns the measured duration), so per-repetition setup — a fresh
//! database file, say — stays outside the figure.

use super::Result;
use pkit_x509::backend::Backend;
use std::time::{Duration, Instant};

/// One measured cell: `items` processed per repetition.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Measurement {
    /// Items (certificates, signatures, …) per repetition.
    pub items: u64,
    /// Repetitions timed.
    pub repetitions: u64,
    /// Mean time of one repetition, in nanoseconds.
    pub mean_ns: f64,
    /// The fastest repetition, in nanoseconds.
    pub min_ns: f64,
    /// The slowest repetition, in nanoseconds.
    pub max_ns: f64,
}

impl Measurement {
    /// The mean time of one repetition, in milliseconds.
    pub fn mean_ms(&self) -> f64 {
        self.mean_ns / 1e6
    }

    /// Items per second.
    pub fn per_second(&self) -> f64 {
        if self.mean_ns > 0.0 {
            self.items as f64 * 1e9 / self.mean_ns
        } else {
            0.0
        }
    }

    /// Nanoseconds per item.
    pub fn ns_per_item(&self) -> f64 {
        self.mean_ns / self.items.max(1) as f64
    }
}

/// How cells are measured, and who hears about progress.
pub struct Harness<'a> {
    /// The backend under measurement: the CA's key, every signature, verification and
    /// digest goes through it.
    pub backend: &'a Backend,
    /// Where subscriber keys are made. A subscriber's key is not the CA's token's: with a
    /// PKCS#11 backend under measurement they still come from software, as they would in
    /// a CA whose key alone is in an HSM.
    pub subscriber_keys: &'a Backend,
    /// How long each cell repeats its work at least.
    pub min_time: Duration,
    /// Operation names to measure; the others run once, untimed, for their outputs.
    pub only: Option<Vec<String>>,
    /// Called with a label before each cell.
    pub progress: &'a (dyn Fn(&str) + Sync),
}

impl Harness<'_> {
    /// True when `op` is to be measured.
    pub fn wants(&self, op: &str) -> bool {
        self.only.as_ref().is_none_or(|o| o.iter().any(|x| x == op))
    }

    /// Measure an operation of nanoseconds: each run calls `op` `n` times, and the
    /// measurement is per call.
    pub fn repeat(
        &self,
        label: &str,
        n: u64,
        mut op: impl FnMut() -> Result<()>,
    ) -> Result<Measurement> {
        self.measure(label, n, || {
            timed(|| (0..n).try_for_each(|_| op())).map(|(d, ())| d)
        })
    }

    /// Measure `run` (which returns the time it measured). A warm-up run comes first; when
    /// that one alone lasts `min_time` (an RSA key generation batch, say) it is the
    /// measurement, as a second run would only double the wait for the same figure.
    pub fn measure(
        &self,
        label: &str,
        items: u64,
        mut run: impl FnMut() -> Result<Duration>,
    ) -> Result<Measurement> {
        (self.progress)(label);
        let warm = run()?;
        if warm >= self.min_time {
            let ns = warm.as_nanos() as f64;
            return Ok(Measurement {
                items,
                repetitions: 1,
                mean_ns: ns,
                min_ns: ns,
                max_ns: ns,
            });
        }
        let (mut total, mut reps) = (Duration::ZERO, 0u64);
        let (mut min, mut max) = (Duration::MAX, Duration::ZERO);
        while total < self.min_time || reps == 0 {
            let d = run()?;
            total += d;
            reps += 1;
            min = min.min(d);
            max = max.max(d);
        }
        Ok(Measurement {
            items,
            repetitions: reps,
            mean_ns: total.as_nanos() as f64 / reps as f64,
            min_ns: min.as_nanos() as f64,
            max_ns: max.as_nanos() as f64,
        })
    }
}

/// Run `f` and return how long it took with its result.
pub fn timed<T>(f: impl FnOnce() -> Result<T>) -> Result<(Duration, T)> {
    let start = Instant::now();
    let out = f()?;
    Ok((start.elapsed(), out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeats_until_the_minimum_time() {
        let h = Harness {
            backend: pkit_openssl::backend(),
            subscriber_keys: pkit_openssl::backend(),
            min_time: Duration::from_millis(5),
            only: None,
            progress: &|_| {},
        };
        let mut calls = 0;
        let m = h
            .measure("x", 10, || {
                calls += 1;
                Ok(Duration::from_millis(1))
            })
            .unwrap();
        assert_eq!(m.repetitions, 5);
        assert_eq!(calls, 6, "one warm-up run");
        assert_eq!(m.mean_ms(), 1.0);
        assert_eq!(m.per_second(), 10_000.0);
        // A warm-up as long as the minimum time is the measurement.
        let m = h.measure("y", 1, || Ok(Duration::from_millis(9))).unwrap();
        assert_eq!(m.repetitions, 1);
    }
}
