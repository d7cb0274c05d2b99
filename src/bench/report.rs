//! Results and their three renderings: markdown in the seed documents' layout (the
//! default), a terminal table (comfy-table), and JSON with every cell's mean, min, max and
//! repetitions. A bench fills [`Report`]: the machine header, then titled tables of text
//! cells for the eye plus one JSON value per table for scripts.

use super::harness::Measurement;
use super::machine::Machine;
use serde_json::{json, Value};
use std::fmt::Write as _;

/// One table: a title, notes under it, a header row and the rows, plus its JSON form.
#[derive(Debug, Clone)]
pub struct Table {
    /// The table's title.
    pub title: String,
    /// Notes printed under the title (configuration, what a row means).
    pub notes: Vec<String>,
    /// The header row.
    pub header: Vec<String>,
    /// The rows, as printed.
    pub rows: Vec<Vec<String>>,
    /// Columns (by index) holding text, left-aligned; the others are numbers.
    pub text_columns: Vec<usize>,
    /// The table as JSON, for `-f json`.
    pub json: Value,
}

/// A bench's whole output.
#[derive(Debug, Clone)]
pub struct Report {
    /// `crypto`, `parse`, `x509`, `compare`.
    pub bench: String,
    /// The command line that made it (secrets left out).
    pub command: String,
    /// The machine it ran on.
    pub machine: Machine,
    /// Its tables, in order.
    pub tables: Vec<Table>,
}

/// One operation of a pipeline: its measured cells by batch size.
#[derive(Debug, Clone)]
pub struct OpRow {
    /// The stage's name (`cert_gen`, `db_insert`, …).
    pub op: &'static str,
    /// What the stage does, for the table's notes.
    pub notes: &'static str,
    /// Its measurement at each batch size.
    pub cells: Vec<(u64, Measurement)>,
}

impl OpRow {
    /// The cell of batch size `batch`, if measured.
    pub fn cell(&self, batch: u64) -> Option<&Measurement> {
        self.cells.iter().find(|(b, _)| *b == batch).map(|(_, m)| m)
    }
}

/// Milliseconds as the seeds print them: two decimals, and below 0.01 ms enough
/// decimals for three significant digits (a sub-microsecond stage never reads 0.000).
pub fn ms(v: f64) -> String {
    if v >= 0.01 || v <= 0.0 {
        format!("{v:.2}")
    } else {
        let decimals = ((-v.log10()).ceil() as usize + 2).min(9);
        format!("{v:.decimals$}")
    }
}

/// Thousands per second: one decimal below 1000, thousands separators above, and two
/// significant digits below 0.1 (an RSA batch of key generations never reads 0.0).
pub fn kps(per_second: f64) -> String {
    let k = per_second / 1000.0;
    if k >= 1000.0 {
        group(k.round() as u64)
    } else if k >= 0.1 || k <= 0.0 {
        format!("{k:.1}")
    } else {
        let decimals = ((-k.log10()).ceil() as usize + 1).min(9);
        format!("{k:.decimals$}")
    }
}

/// An integer with `,` between thousands.
pub fn group(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A measurement as JSON: items, repetitions and times.
pub fn measurement_json(m: &Measurement) -> Value {
    json!({
        "items": m.items,
        "repetitions": m.repetitions,
        "mean_ms": m.mean_ns / 1e6,
        "min_ms": m.min_ns / 1e6,
        "max_ms": m.max_ns / 1e6,
        "per_second": m.per_second(),
    })
}

/// The seeds' pipeline table: `| Operation | B64 ms | Tput K/s | … | Notes |`, one column
/// pair per batch size in `columns`.
pub fn pipeline_table(title: String, notes: Vec<String>, rows: &[OpRow], columns: &[u64]) -> Table {
    let mut header = vec!["Operation".to_string()];
    for b in columns {
        header.push(format!("B{b} ms"));
        header.push("Tput K/s".into());
    }
    header.push("Notes".into());
    let text_rows = rows
        .iter()
        .map(|r| {
            let mut line = vec![format!("`{}`", r.op)];
            for b in columns {
                match r.cell(*b) {
                    Some(m) => {
                        line.push(format!("{} ms", ms(m.mean_ms())));
                        line.push(kps(m.per_second()));
                    }
                    None => line.extend(["-".to_string(), "-".to_string()]),
                }
            }
            line.push(r.notes.to_string());
            line
        })
        .collect();
    let json_rows: Vec<Value> = rows
        .iter()
        .map(|r| {
            json!({
                "operation": r.op,
                "notes": r.notes,
                "cells": r.cells.iter().map(|(b, m)| {
                    let mut v = measurement_json(m);
                    v["batch"] = json!(b);
                    v
                }).collect::<Vec<_>>(),
            })
        })
        .collect();
    let last = header.len() - 1;
    Table {
        json: json!({"title": title, "operations": json_rows}),
        title,
        notes,
        header,
        rows: text_rows,
        text_columns: vec![0, last],
    }
}

impl Report {
    /// Markdown: the command, the machine, then each table under a `##` heading.
    pub fn markdown(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "# pkit bench {}\n", self.bench);
        let _ = writeln!(s, "```\n{}\n```\n", self.command);
        for l in self.machine.lines() {
            let _ = writeln!(s, "- {l}");
        }
        for t in &self.tables {
            let _ = writeln!(s, "\n## {}\n", t.title);
            for n in &t.notes {
                let _ = writeln!(s, "{n}");
            }
            if !t.notes.is_empty() {
                s.push('\n');
            }
            let _ = writeln!(s, "| {} |", t.header.join(" | "));
            let rule: Vec<&str> = (0..t.header.len())
                .map(|i| {
                    if t.text_columns.contains(&i) {
                        "---"
                    } else {
                        "---:"
                    }
                })
                .collect();
            let _ = writeln!(s, "|{}|", rule.join("|"));
            for r in &t.rows {
                let _ = writeln!(s, "| {} |", r.join(" | "));
            }
        }
        s
    }

    /// A terminal table per section (comfy-table), with the machine above.
    pub fn terminal(&self) -> String {
        use comfy_table::{presets::UTF8_FULL_CONDENSED, CellAlignment, Table as Ct};
        let mut s = String::new();
        let _ = writeln!(s, "pkit bench {}", self.bench);
        for l in self.machine.lines() {
            let _ = writeln!(s, "  {l}");
        }
        for t in &self.tables {
            let _ = writeln!(s, "\n{}", t.title);
            for n in &t.notes {
                let _ = writeln!(s, "  {n}");
            }
            let mut ct = Ct::new();
            ct.load_style(UTF8_FULL_CONDENSED);
            ct.set_header(t.header.iter().map(|h| h.replace('`', "")));
            for r in &t.rows {
                ct.add_row(r.iter().map(|c| c.replace('`', "")));
            }
            for i in 0..t.header.len() {
                if let Some(col) = ct.column_mut(i) {
                    if !t.text_columns.contains(&i) {
                        col.set_cell_alignment(CellAlignment::Right);
                    }
                }
            }
            let _ = writeln!(s, "{ct}");
        }
        s
    }

    /// One JSON item: the machine and every table's cells.
    pub fn to_json(&self) -> Value {
        json!({
            "bench": self.bench,
            "command": self.command,
            "machine": self.machine.to_json(),
            "tables": self.tables.iter().map(|t| t.json.clone()).collect::<Vec<_>>(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_print_as_in_the_seeds() {
        assert_eq!(ms(0.0042), "0.00420");
        assert_eq!(ms(0.00031), "0.000310");
        assert_eq!(ms(10.314), "10.31");
        assert_eq!(kps(81_100.0), "81.1");
        assert_eq!(kps(17.49), "0.017");
        assert_eq!(kps(1_597_000.0), "1,597");
        assert_eq!(group(1_234_567), "1,234,567");
    }
}
