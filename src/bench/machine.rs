//! Where a bench ran: CPU model, cores, threads used, memory, OS, crypto library, pkit
//! version and date — the header every result table carries, so figures from two machines
//! are never compared blind.

use crate::der::Time;
use pkit_x509::backend::Backend;
use serde_json::{json, Value};

/// The machine a report was measured on, as the seeds' tables describe it.
#[derive(Debug, Clone)]
pub struct Machine {
    /// The CPU's model name.
    pub cpu: String,
    /// Logical CPUs the OS offers this process.
    pub cores: usize,
    /// Worker threads the parallel stages use.
    pub threads: usize,
    /// Memory, in GiB.
    pub memory_gib: f64,
    /// The operating system and kernel.
    pub os: String,
    /// The crypto backend and its version, as the backend reports it.
    pub crypto: String,
    /// pkit's version.
    pub pkit: String,
    /// When the report was made (RFC 3339).
    pub date: String,
    /// How busy the machine was before the bench started, so a reader can tell figures
    /// from a busy machine.
    pub before: Before,
}

/// What other work did on the machine just before a bench (Linux; `None` elsewhere).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Before {
    /// The 1-minute load average: work over the last minute, runnable or waiting.
    pub load: Option<f64>,
    /// The CPUs' busy time over [`Before::WINDOW`], in cores: work running now, which the
    /// load average shows only a minute later (a job started 10 s ago barely moves it).
    pub busy_cores: Option<f64>,
}

impl Before {
    /// How long the CPUs are watched before a bench.
    pub const WINDOW: std::time::Duration = std::time::Duration::from_millis(250);

    /// Read both, watching the CPUs for [`Before::WINDOW`]; to be called before any of
    /// the bench's own threads run.
    pub fn read() -> Before {
        let first = cpu_jiffies();
        std::thread::sleep(Before::WINDOW);
        let busy_cores = match (first, cpu_jiffies()) {
            // The share of all the system's CPUs, times how many there are (/proc/stat
            // counts them all, whatever this process may run on).
            (Some((b0, t0, cpus)), Some((b1, t1, _))) if t1 > t0 => {
                Some((b1 - b0) as f64 / (t1 - t0) as f64 * cpus as f64)
            }
            _ => None,
        };
        Before {
            load: load_average(),
            busy_cores,
        }
    }

    /// Whether a machine with `cores` logical CPUs was busy: more runnable work than
    /// CPUs over the last minute, or, just now, other work keeping at least one core (and
    /// a quarter of them) busy. A bench started then measures a share of the machine.
    pub fn is_busy(&self, cores: usize) -> bool {
        let running = (cores as f64 / 4.0).max(1.0);
        self.load.is_some_and(|l| l > cores as f64) || self.busy_cores.is_some_and(|b| b >= running)
    }

    /// `load average 2.31, 1.9 cores busy`: what was read, for a warning or a report.
    pub fn describe(&self) -> String {
        let parts: Vec<String> = self
            .load
            .map(|l| format!("load average {l:.2}"))
            .into_iter()
            .chain(self.busy_cores.map(|b| format!("{b:.1} cores busy")))
            .collect();
        parts.join(", ")
    }
}

/// The 1-minute load average (`/proc/loadavg`), where the system has one.
pub fn load_average() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// All CPUs' busy and total time so far, in clock ticks (`/proc/stat`'s `cpu` line: user,
/// nice, system, idle, iowait, irq, softirq, steal; idle and iowait are not busy), and
/// how many CPUs that is (its `cpuN` lines).
fn cpu_jiffies() -> Option<(u64, u64, usize)> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let cpus = stat
        .lines()
        .filter(|l| l.starts_with("cpu") && l.as_bytes().get(3).is_some_and(u8::is_ascii_digit))
        .count();
    let line = stat.lines().find(|l| l.starts_with("cpu "))?;
    let v: Vec<u64> = line
        .split_whitespace()
        .skip(1)
        .take(8)
        .map(|f| f.parse().ok())
        .collect::<Option<_>>()?;
    let total: u64 = v.iter().sum();
    let idle = v.get(3)? + v.get(4)?;
    Some((total - idle, total, cpus.max(1)))
}

impl Machine {
    /// Describe this machine; `threads` is the size of the pool the bench runs in,
    /// `before` what other work did before it started.
    pub fn detect(threads: usize, backend: &Backend, before: Before) -> Machine {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let cpu = field(&cpuinfo, "model name")
            .or_else(|| field(&cpuinfo, "Model"))
            .unwrap_or_else(|| std::env::consts::ARCH.to_string());
        let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
        let memory_gib = field(&meminfo, "MemTotal")
            .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
            .map_or(0.0, |kib| kib / (1024.0 * 1024.0));
        let release = std::fs::read_to_string("/etc/os-release").unwrap_or_default();
        let distro = release
            .lines()
            .find_map(|l| l.strip_prefix("PRETTY_NAME="))
            .map(|v| v.trim_matches('"').to_string());
        let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease")
            .map(|s| s.trim().to_string())
            .ok();
        let os = match (distro, kernel) {
            (Some(d), Some(k)) => format!("{d}, Linux {k}"),
            (Some(d), None) => d,
            (None, Some(k)) => format!("Linux {k}"),
            (None, None) => std::env::consts::OS.to_string(),
        };
        Machine {
            cpu,
            cores: std::thread::available_parallelism().map_or(1, usize::from),
            threads,
            memory_gib,
            os,
            crypto: backend.version(),
            pkit: env!("CARGO_PKG_VERSION").to_string(),
            date: Time::now().to_string(),
            before,
        }
    }

    /// One line per fact, for the top of a markdown report.
    pub fn lines(&self) -> Vec<String> {
        vec![
            format!("CPU: {} ({} logical cores)", self.cpu, self.cores),
            format!("Threads used: {}", self.threads),
            format!("Memory: {:.1} GiB", self.memory_gib),
            format!("OS: {}", self.os),
            format!("Crypto: {}", self.crypto),
            format!("pkit: {}", self.pkit),
            format!("Date: {}", self.date),
        ]
        .into_iter()
        .chain((self.before != Before::default()).then(|| {
            let busy = if self.before.is_busy(self.cores) {
                " (busy: figures are low and noisy)"
            } else {
                ""
            };
            format!("Before: {}{busy}", self.before.describe())
        }))
        .collect()
    }

    /// The description as JSON, for `-f json` reports.
    pub fn to_json(&self) -> Value {
        json!({
            "cpu": self.cpu,
            "cores": self.cores,
            "threads": self.threads,
            "memory_gib": (self.memory_gib * 10.0).round() / 10.0,
            "os": self.os,
            "crypto": self.crypto,
            "pkit": self.pkit,
            "date": self.date,
            "load_before": self.before.load,
            "busy_cores_before": self.before.busy_cores.map(|b| (b * 10.0).round() / 10.0),
        })
    }
}

/// The value of `key: value` in a /proc text file.
fn field(text: &str, key: &str) -> Option<String> {
    text.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        (k.trim() == key).then(|| v.trim().to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn busy_is_more_work_than_cores_or_a_core_taken_now() {
        let at = |load, busy_cores| Before {
            load: Some(load),
            busy_cores: Some(busy_cores),
        };
        assert!(!at(1.9, 0.2).is_busy(2));
        assert!(at(2.5, 0.2).is_busy(2));
        // Two loops started seconds ago: the load average has not seen them yet.
        assert!(at(0.5, 2.0).is_busy(2));
        assert!(at(0.5, 1.0).is_busy(2));
        // On 16 cores, one other core's work is not a busy machine; four are.
        assert!(!at(0.5, 1.0).is_busy(16));
        assert!(at(0.5, 4.0).is_busy(16));
        assert!(!Before::default().is_busy(2));
        assert_eq!(
            at(2.312, 1.94).describe(),
            "load average 2.31, 1.9 cores busy"
        );
        if std::path::Path::new("/proc/stat").exists() {
            let b = Before::read();
            assert!(b.load.is_some_and(|l| l >= 0.0), "{b:?}");
            let (_, _, cpus) = cpu_jiffies().unwrap();
            assert!(
                b.busy_cores
                    .is_some_and(|c| c >= 0.0 && c <= cpus as f64 + 0.01),
                "{b:?}"
            );
        }
    }
}
