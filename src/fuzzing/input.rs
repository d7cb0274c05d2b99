//! The `detect` target: an input as every command first meets it, split into items
//! (PEM blocks, DER, base64) and each item's kind told from its label or its shape.
//! A PEM block pkit writes back must read the same: that is asserted.

use super::objects::show;
use crate::der::pem;
use crate::pki::detect::Kind;
use crate::pki::split::{split, Form, Item};

pub fn detect(data: &[u8]) {
    for item in split(data.to_vec(), Form::Auto).into_iter().flatten() {
        let kind = Kind::of_item(&item);
        show(kind.as_str());
        // `parse -f pem` writes each item back under its kind's label.
        let text = pem::encode(kind.pem_label(), &item.der);
        let again: Vec<_> = split(text.into_bytes(), Form::Pem);
        let want = Item {
            label: Some(kind.pem_label().to_string()),
            der: item.der,
        };
        assert!(
            again.len() == 1 && again[0].as_ref() == Ok(&want),
            "a PEM block pkit wrote did not read back as written"
        );
    }
}
