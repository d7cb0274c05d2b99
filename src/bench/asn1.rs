//! The parse document's "ASN.1 Primitive Performance", on pkit's DER engine: a TLV
//! header with a short and a long length, INTEGER encode and decode, OCTET STRING and
//! SEQUENCE encode and decode.

use super::harness::{Harness, Measurement};
use super::report::{measurement_json, Table};
use super::{BenchError, Result};
use crate::der::{tag, Reader, Writer};
use serde_json::json;
use std::hint::black_box;

/// Operations per measured run: each takes nanoseconds.
const LOOP: u64 = 100_000;

fn each(h: &Harness<'_>, label: &str, f: impl FnMut() -> Result<()>) -> Result<Measurement> {
    h.repeat(label, LOOP, f)
}

fn bad(e: crate::der::Error) -> BenchError {
    BenchError::Parse(e.to_string())
}

fn encoded(f: impl FnOnce(&mut Writer)) -> Vec<u8> {
    let mut w = Writer::new();
    f(&mut w);
    w.finish()
}

/// The ASN.1 primitives table: each DER primitive parsed and written, per operation.
pub fn table(h: &Harness<'_>) -> Result<Table> {
    let short = encoded(|w| {
        w.octet_string(&[0x5a; 40]);
    });
    let long = encoded(|w| {
        w.octet_string(&[0x5a; 1000]);
    });
    let int_small = encoded(|w| {
        w.integer_u64(42);
    });
    let int_medium = encoded(|w| {
        w.integer_u64(i64::MAX as u64);
    });
    let i128_max = i128::MAX.to_be_bytes();
    let int_large = encoded(|w| {
        w.integer_unsigned(&i128_max);
    });
    let seq = encoded(|w| {
        w.sequence(|w| {
            w.integer_u64(1);
            w.octet_string(&[7; 16]);
            w.boolean(true);
        });
    });
    let mut ops: Vec<(&str, Measurement)> = Vec::new();
    ops.push((
        "Tag/length, short length (1 byte)",
        each(h, "tlv short", || {
            black_box(Reader::new(black_box(&short)).read_tlv().map_err(bad)?);
            Ok(())
        })?,
    ));
    ops.push((
        "Tag/length, long length (multi-byte)",
        each(h, "tlv long", || {
            black_box(Reader::new(black_box(&long)).read_tlv().map_err(bad)?);
            Ok(())
        })?,
    ));
    ops.push((
        "INTEGER encode small (42)",
        each(h, "int encode small", || {
            black_box(encoded(|w| {
                w.integer_u64(black_box(42));
            }));
            Ok(())
        })?,
    ));
    ops.push((
        "INTEGER encode medium (i64::MAX)",
        each(h, "int encode medium", || {
            black_box(encoded(|w| {
                w.integer_u64(black_box(i64::MAX as u64));
            }));
            Ok(())
        })?,
    ));
    ops.push((
        "INTEGER encode large (i128::MAX)",
        each(h, "int encode large", || {
            black_box(encoded(|w| {
                w.integer_unsigned(black_box(&i128_max));
            }));
            Ok(())
        })?,
    ));
    for (label, der) in [
        ("INTEGER decode small", &int_small),
        ("INTEGER decode medium", &int_medium),
    ] {
        ops.push((
            label,
            each(h, label, || {
                black_box(Reader::new(black_box(der)).read_u64().map_err(bad)?);
                Ok(())
            })?,
        ));
    }
    ops.push((
        "INTEGER decode large (content bytes)",
        each(h, "int decode large", || {
            black_box(
                Reader::new(black_box(&int_large))
                    .read_integer()
                    .map_err(bad)?,
            );
            Ok(())
        })?,
    ));
    ops.push((
        "OCTET STRING encode (40 B)",
        each(h, "octets encode", || {
            black_box(encoded(|w| {
                w.octet_string(black_box(&[0x5a; 40]));
            }));
            Ok(())
        })?,
    ));
    ops.push((
        "OCTET STRING decode (40 B)",
        each(h, "octets decode", || {
            black_box(
                Reader::new(black_box(&short))
                    .read_expect(tag::OCTET_STRING)
                    .map_err(bad)?,
            );
            Ok(())
        })?,
    ));
    ops.push((
        "SEQUENCE encode (INTEGER, OCTET STRING, BOOLEAN)",
        each(h, "seq encode", || {
            black_box(encoded(|w| {
                w.sequence(|w| {
                    w.integer_u64(1);
                    w.octet_string(&[7; 16]);
                    w.boolean(true);
                });
            }));
            Ok(())
        })?,
    ));
    ops.push((
        "SEQUENCE decode (INTEGER, OCTET STRING, BOOLEAN)",
        each(h, "seq decode", || {
            let mut r = Reader::new(black_box(&seq));
            let mut s = r.read_sequence().map_err(bad)?;
            black_box(s.read_u64().map_err(bad)?);
            black_box(s.read_expect(tag::OCTET_STRING).map_err(bad)?);
            black_box(s.read_tlv().map_err(bad)?);
            s.finish().map_err(bad)?;
            Ok(())
        })?,
    ));
    Ok(Table {
        title: "ASN.1 Primitive Performance".into(),
        notes: vec![
            "pkit's DER reader and writer, one operation at a time (encodes include the buffer)."
                .into(),
        ],
        header: vec!["Operation".into(), "Time".into()],
        rows: ops
            .iter()
            .map(|(l, m)| vec![(*l).to_string(), format!("{:.1} ns", m.ns_per_item())])
            .collect(),
        text_columns: vec![0],
        json: json!({"title": "asn1 primitives", "rows": ops.iter().map(|(l, m)| json!({"operation": l, "measurement": measurement_json(m)})).collect::<Vec<_>>()}),
    })
}
