//! The state an auditor or a witness keeps between runs (`pkit mtc audit --state`,
//! `pkit mtc cosign --state`): the log's origin and the tree it last verified — size,
//! root and right edge — as a JSON object, where the next audit starts and what the log
//! must extend.
//!
//! ```json
//! {"origin": "oid/1.3.6.1.4.1.32473.1.0.1", "size": 1000, "root": "BASE64",
//!  "frontier": ["BASE64", null, …]}
//! ```

use super::Seen;
use crate::error::{MtcError, Result};
use crate::frontier::Frontier;
use crate::hash::Hash;
use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine;
use serde_json::{json, Value};

impl Seen {
    /// The state of the log `origin` at this tree, as pretty JSON with a final newline.
    pub fn to_json(&self, origin: &str) -> String {
        let parts: Vec<Value> = self
            .frontier
            .parts()
            .iter()
            .map(|p| p.map_or(Value::Null, |h| Value::String(B64.encode(h))))
            .collect();
        let v = json!({
            "origin": origin,
            "size": self.size,
            "root": B64.encode(self.root),
            "frontier": parts,
        });
        // A `Value` built here always serializes.
        format!("{}\n", serde_json::to_string_pretty(&v).unwrap_or_default())
    }

    /// A state file's text read back, for the log `origin`: malformed text is
    /// [`MtcError::Malformed`]; the state of another log, [`MtcError::Invalid`]; a right
    /// edge that does not give the stated root is malformed too (a file edited by hand
    /// or cut short), so a fork can never hide behind it.
    pub fn from_json(text: &str, origin: &str) -> Result<Seen> {
        let bad = |what: &str| MtcError::malformed(0, what);
        let v: Value = serde_json::from_str(text).map_err(|e| bad(&format!("JSON ({e})")))?;
        let Some(seen_origin) = v["origin"].as_str() else {
            return Err(bad("an audit or witness state (with an origin)"));
        };
        if seen_origin != origin {
            return Err(MtcError::Invalid(format!(
                "the state of {seen_origin}, not of {origin}; use another --state file"
            )));
        }
        let hash = |s: &Value| -> Option<Hash> { B64.decode(s.as_str()?).ok()?.try_into().ok() };
        let size = v["size"].as_u64().ok_or_else(|| bad("a tree size"))?;
        let root = hash(&v["root"]).ok_or_else(|| bad("a root (base64 of 32 bytes)"))?;
        let parts = v["frontier"]
            .as_array()
            .ok_or_else(|| bad("a frontier (the right edge's hashes)"))?
            .iter()
            .map(|p| {
                if p.is_null() {
                    Ok(None)
                } else {
                    hash(p).map(Some).ok_or(())
                }
            })
            .collect::<std::result::Result<Vec<_>, ()>>()
            .map_err(|()| bad("frontier hashes in base64 of 32 bytes"))?;
        let frontier = Frontier::from_parts(size, parts)?;
        if frontier.root() != root {
            return Err(bad("a right edge that gives the stated root"));
        }
        Ok(Seen {
            size,
            root,
            frontier,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::leaf_hash;

    fn seen(n: u32) -> Seen {
        let mut f = Frontier::default();
        for i in 0..n {
            f.push(leaf_hash(&i.to_be_bytes()), |_, _, _| Ok(()))
                .unwrap();
        }
        Seen {
            size: u64::from(n),
            root: f.root(),
            frontier: f,
        }
    }

    #[test]
    fn the_state_reads_back() {
        let s = seen(1000);
        let text = s.to_json("oid/1.3.6.1.4.1.32473.1.0.1");
        let back = Seen::from_json(&text, "oid/1.3.6.1.4.1.32473.1.0.1").unwrap();
        assert_eq!((back.size, back.root), (s.size, s.root));
        // Another log's state is a usage error; a root its edge does not give, malformed.
        let other = Seen::from_json(&text, "oid/1.3.6.1.4.1.32473.2.0.1").unwrap_err();
        assert!(matches!(other, MtcError::Invalid(_)), "{other}");
        let forged = text.replacen(&B64.encode(s.root), &B64.encode([7u8; 32]), 1);
        let e = Seen::from_json(&forged, "oid/1.3.6.1.4.1.32473.1.0.1").unwrap_err();
        assert!(e.to_string().contains("right edge"), "{e}");
        assert!(Seen::from_json("{}", "x")
            .unwrap_err()
            .to_string()
            .contains("origin"));
    }
}
