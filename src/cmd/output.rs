//! Rendering: the JSON envelope (`{"schema":"pkit/v1","type":…,"items":[…]}`), and text
//! rendered from the same JSON values, so text and JSON can never disagree about a field.

use serde_json::{Map, Value};
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};

pub const SCHEMA: &str = "pkit/v1";

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

static COLOR: AtomicBool = AtomicBool::new(false);

/// Decide once whether text output is coloured: `always`, or `auto` on a terminal without
/// NO_COLOR.
pub fn set_color(c: ColorChoice) {
    use std::io::IsTerminal;
    let on = match c {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stdout().is_terminal()
        }
    };
    COLOR.store(on, Ordering::Relaxed);
}

fn bold(s: &str) -> String {
    if COLOR.load(Ordering::Relaxed) {
        format!("\x1b[1m{s}\x1b[0m")
    } else {
        s.to_string()
    }
}

/// The envelope every JSON output uses.
pub fn envelope(kind: &str, items: Vec<Value>) -> Value {
    serde_json::json!({"schema": SCHEMA, "type": kind, "items": items})
}

/// The envelope written straight to `w`, items serialized one after another (so an item
/// can produce its own JSON while printing, see `describe::Deferred`). Pretty, with a
/// trailing newline, like [`json_text`] of [`envelope`].
pub fn write_envelope<T: serde::Serialize>(
    w: &mut dyn std::io::Write,
    kind: &str,
    items: &[T],
) -> std::io::Result<()> {
    struct Envelope<'a, T>(&'a str, &'a [T]);
    impl<T: serde::Serialize> serde::Serialize for Envelope<'_, T> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeMap;
            let mut m = s.serialize_map(Some(3))?;
            m.serialize_entry("schema", SCHEMA)?;
            m.serialize_entry("type", self.0)?;
            m.serialize_entry("items", self.1)?;
            m.end()
        }
    }
    // The pretty printer makes many tiny writes (indents, quotes); a buffer of the
    // concrete type takes them without a dynamic call each.
    use std::io::Write as _;
    let mut b = std::io::BufWriter::with_capacity(1 << 16, w);
    serde_json::to_writer_pretty(&mut b, &Envelope(kind, items))?;
    b.write_all(b"\n")?;
    b.flush()
}

/// Pretty JSON text with a trailing newline.
pub fn json_text(v: &Value) -> String {
    let mut s = serde_json::to_string_pretty(v).unwrap_or_default();
    s.push('\n');
    s
}

/// One compact JSON line.
pub fn json_line(v: &Value) -> String {
    let mut s = v.to_string();
    s.push('\n');
    s
}

/// Render a described object as indented text. `{oid,name}` objects print as
/// `name (oid)`, `pem` is left out, and long base64 blobs are abbreviated.
pub fn text(v: &Value, title: &str) -> String {
    let mut out = String::new();
    match v.get("source").and_then(Value::as_str) {
        Some(src) => {
            let _ = writeln!(out, "{} ({src})", bold(title));
        }
        None => {
            let _ = writeln!(out, "{}", bold(title));
        }
    }
    if let Value::Object(m) = v {
        write_map(&mut out, m, 1);
    } else {
        let _ = writeln!(out, "  {}", scalar(v));
    }
    out
}

fn indent(depth: usize) -> String {
    "  ".repeat(depth)
}

fn is_oid_name(m: &Map<String, Value>) -> bool {
    m.contains_key("oid")
        && m.keys()
            .all(|k| k == "oid" || k == "name" || k == "parameters_b64")
}

/// `{oid, name, critical, value}`: an extension, shown as a heading with its value below.
fn is_extension(m: &Map<String, Value>) -> bool {
    m.contains_key("oid") && m.contains_key("critical") && m.contains_key("value")
}

/// Keys text leaves out: the raw PEM, the item type (the title says it), the source (in
/// the title), and attribute lists that repeat a `<key>_dn` string.
fn skip_in_text(m: &Map<String, Value>, k: &str, depth: usize) -> bool {
    k == "pem"
        || (depth == 1 && (k == "type" || k == "source"))
        || m.contains_key(&format!("{k}_dn"))
}

fn oid_name(m: &Map<String, Value>) -> String {
    let oid = m.get("oid").and_then(Value::as_str).unwrap_or("");
    match m.get("name").and_then(Value::as_str) {
        Some(n) if !n.is_empty() && n != oid => format!("{n} ({oid})"),
        _ => oid.to_string(),
    }
}

fn label(key: &str) -> String {
    key.trim_end_matches("_b64").replace('_', " ")
}

fn scalar(v: &Value) -> String {
    match v {
        Value::Null => "-".into(),
        Value::String(s) => printable(s),
        Value::Object(m) if is_oid_name(m) => oid_name(m),
        other => other.to_string(),
    }
}

/// `s` for a terminal: control characters (C0, DEL, C1) written as Rust escapes. A string
/// from a certificate may hold any of them (an IA5String CPS URI, a BMPString name): a
/// line break would forge a line of the report, an ESC would drive the terminal.
fn printable(s: &str) -> String {
    if !s.chars().any(char::is_control) {
        return s.to_string();
    }
    s.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

fn abbreviate_b64(s: &str) -> String {
    if s.len() <= 64 {
        s.to_string()
    } else {
        format!("{}… ({} base64 chars)", &s[..48], s.len())
    }
}

fn write_map(out: &mut String, m: &Map<String, Value>, depth: usize) {
    for (k, v) in m {
        if skip_in_text(m, k, depth) {
            continue;
        }
        let pad = indent(depth);
        match v {
            Value::Array(items)
                if !items.is_empty()
                    && items
                        .iter()
                        .all(|i| i.as_object().is_some_and(is_extension)) =>
            {
                let _ = writeln!(out, "{pad}{}:", label(k));
                for item in items.iter().filter_map(Value::as_object) {
                    let crit = if item["critical"] == Value::Bool(true) {
                        " [critical]"
                    } else {
                        ""
                    };
                    let head = oid_name(item);
                    match &item["value"] {
                        Value::Object(vm) if !vm.is_empty() => {
                            let _ = writeln!(out, "{pad}  {head}{crit}:");
                            write_map(out, vm, depth + 2);
                        }
                        Value::Object(_) | Value::Null => {
                            let _ = writeln!(out, "{pad}  {head}{crit}");
                        }
                        Value::Array(xs)
                            if xs.iter().all(|x| {
                                !x.is_object() || x.as_object().is_some_and(is_oid_name)
                            }) =>
                        {
                            let joined: Vec<String> = xs.iter().map(scalar).collect();
                            let _ = writeln!(out, "{pad}  {head}{crit}: {}", joined.join(", "));
                        }
                        Value::Array(xs) => {
                            let _ = writeln!(out, "{pad}  {head}{crit}:");
                            let mut wrapper = Map::new();
                            wrapper.insert("-".into(), Value::Array(xs.clone()));
                            let mut sub = String::new();
                            write_map(&mut sub, &wrapper, depth + 1);
                            // Drop the synthetic "-:" heading line.
                            for line in sub.lines().skip(1) {
                                let _ = writeln!(out, "{line}");
                            }
                        }
                        other => {
                            let _ = writeln!(out, "{pad}  {head}{crit}: {}", scalar(other));
                        }
                    }
                }
            }
            Value::Object(inner) if is_oid_name(inner) => {
                let _ = writeln!(out, "{pad}{}: {}", label(k), oid_name(inner));
            }
            Value::Object(inner) if inner.is_empty() => {}
            Value::Object(inner) => {
                let _ = writeln!(out, "{pad}{}:", label(k));
                write_map(out, inner, depth + 1);
            }
            Value::Array(items) if items.is_empty() => {
                let _ = writeln!(out, "{pad}{}: (none)", label(k));
            }
            Value::Array(items)
                if items.iter().all(|i| {
                    !i.is_object() || is_oid_name(i.as_object().unwrap_or(&Map::new()))
                }) =>
            {
                let joined: Vec<String> = items.iter().map(scalar).collect();
                let line = joined.join(", ");
                if line.len() <= 100 {
                    let _ = writeln!(out, "{pad}{}: {line}", label(k));
                } else {
                    let _ = writeln!(out, "{pad}{}:", label(k));
                    for s in joined {
                        let _ = writeln!(out, "{pad}  - {s}");
                    }
                }
            }
            Value::Array(items) => {
                let _ = writeln!(out, "{pad}{}:", label(k));
                for item in items {
                    match item {
                        Value::Object(im) => {
                            let mut first = true;
                            let mut sub = String::new();
                            write_map(&mut sub, im, depth + 2);
                            for line in sub.lines() {
                                // Every line of `sub` starts with its indent.
                                let trimmed =
                                    line.get((depth + 2) * 2..).unwrap_or(line.trim_start());
                                if first {
                                    let _ = writeln!(out, "{pad}  - {trimmed}");
                                    first = false;
                                } else {
                                    let _ = writeln!(out, "{line}");
                                }
                            }
                        }
                        other => {
                            let _ = writeln!(out, "{pad}  - {}", scalar(other));
                        }
                    }
                }
            }
            Value::String(s) if k.ends_with("_b64") => {
                let _ = writeln!(out, "{pad}{} (base64): {}", label(k), abbreviate_b64(s));
            }
            other => {
                let _ = writeln!(out, "{pad}{}: {}", label(k), scalar(other));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Strings from a certificate cannot forge lines or drive the terminal: control
    /// characters are escaped, in a list of objects too.
    #[test]
    fn control_characters_are_escaped() {
        let v = serde_json::json!({
            "policies": [{"cps": "http://a\nb", "notice": "\u{1b}[31mred"}],
            "note": "tab\there\u{85}",
        });
        let t = text(&v, "Certificate");
        assert!(t.contains("http://a\\nb"), "{t}");
        assert!(t.contains("\\u{1b}[31mred"), "{t}");
        assert!(t.contains("tab\\there\\u{85}"), "{t}");
        assert!(!t.contains('\u{1b}') && !t.contains('\u{85}'), "{t}");
    }

    #[test]
    fn text_rendering() {
        let v = serde_json::json!({
            "serial_number": "0a",
            "signature_algorithm": {"oid": "1.2.840.10045.4.3.2", "name": "ecdsa-with-SHA256"},
            "validity": {"not_before": "2026-01-01T00:00:00Z"},
            "extensions": [{"name": "basicConstraints", "critical": true}],
            "pem": "-----BEGIN…",
        });
        let t = text(&v, "Certificate");
        assert!(t.contains("  serial number: 0a\n"));
        assert!(t.contains("signature algorithm: ecdsa-with-SHA256 (1.2.840.10045.4.3.2)"));
        assert!(t.contains("  validity:\n    not before: 2026-01-01T00:00:00Z\n"));
        assert!(!t.contains("BEGIN"));
        let v = serde_json::json!({
            "source": "a.pem",
            "issuer_dn": "CN=x",
            "issuer": [{"type": {"oid": "2.5.4.3", "name": "CN"}, "value": "x"}],
            "extensions": [{"oid": "2.5.29.19", "name": "basicConstraints", "critical": true, "value": {"ca": false}}],
        });
        let t = text(&v, "Certificate");
        assert!(t.starts_with("Certificate (a.pem)\n"), "{t}");
        assert!(t.contains("  issuer dn: CN=x\n"));
        assert!(
            !t.contains("value: x"),
            "attribute list repeats issuer_dn: {t}"
        );
        assert!(
            t.contains("    basicConstraints (2.5.29.19) [critical]:\n      ca: false\n"),
            "{t}"
        );
    }
}
