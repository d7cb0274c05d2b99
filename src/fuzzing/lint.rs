//! The `lint` target: an input as `pkit lint` meets it, split into items, each item's
//! kind told from its label or shape, and linted by [`crate::lint::lint_object`] (the
//! function the command and the CA's gate share) under every rule set, the findings
//! written out as the JSON `pkit lint -f json` prints. Hostile objects meet each rule's
//! decoding of the part it checks, and the lenient reader's deviations.

use super::objects::show;
use crate::lint::{lint_object, LintOptions, Rules};
use crate::pki::backend::openssl;
use crate::pki::detect::Kind;
use crate::pki::split::{split, Form};
use std::hint::black_box;

pub fn lint(data: &[u8]) {
    let opts = LintOptions {
        rules: Rules {
            rfc5280: true,
            cabf_tls_core: true,
            cabf_tls: true,
            cabf_smime: true,
        },
        as_type: None,
        // Fixed, so that a crash replays whatever the date.
        at: Some(1_767_225_600),
    };
    for item in split(data.to_vec(), Form::Auto).into_iter().flatten() {
        let kind = Kind::of_item(&item);
        match lint_object(kind, &item.der, openssl::backend(), &opts) {
            Some(Ok(linted)) => {
                let json: Vec<_> = linted.findings.iter().map(|f| f.to_json()).collect();
                black_box(serde_json::to_string(&json).ok());
                show(&linted.not_run);
                show((
                    &linted.name,
                    &linted.serial,
                    &linted.cert_type,
                    linted.judged_at,
                ));
            }
            Some(Err(e)) => show(e),
            None => {}
        }
    }
}
