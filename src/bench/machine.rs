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
    /// The 1-minute load average before the bench started (Linux), so a reader can tell
    /// figures from a busy machine: above `cores`, other work took CPU time from it.
    pub load_before: Option<f64>,
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

/// Whether a machine with `cores` logical CPUs at `load` is busy: more runnable work than
/// CPUs, so a bench started now measures a share of the machine, not the machine.
pub fn is_busy(load: f64, cores: usize) -> bool {
    load > cores as f64
}

impl Machine {
    /// Describe this machine; `threads` is the size of the pool the bench runs in,
    /// `load_before` the load average read before it started.
    pub fn detect(threads: usize, backend: &Backend, load_before: Option<f64>) -> Machine {
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
            load_before,
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
        .chain(self.load_before.map(|l| {
            let busy = if is_busy(l, self.cores) {
                " (busy: figures are low and noisy)"
            } else {
                ""
            };
            format!("Load before: {l:.2}{busy}")
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
            "load_before": self.load_before,
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
    fn busy_is_more_work_than_cores() {
        assert!(!is_busy(1.9, 2));
        assert!(is_busy(2.5, 2));
        if std::path::Path::new("/proc/loadavg").exists() {
            assert!(load_average().is_some_and(|l| l >= 0.0));
        }
    }
}
