//! Targets for the DER engine alone: the ASN.1 tree walk `pkit parse -f asn1` prints
//! (every element, primitives decoded, OCTET and BIT STRINGs opened when they hold DER),
//! over a strict reader and over a lenient one that logs each BER deviation.

use super::objects::show;
use crate::der::{tree, Deviations, Reader};

pub fn der_strict(data: &[u8]) {
    if let Ok(nodes) = tree::walk(Reader::new(data)) {
        show(nodes);
    }
    show(crate::pki::detect::sniff(data));
}

pub fn der_lenient(data: &[u8]) {
    let log = Deviations::new();
    if let Ok(nodes) = tree::walk(Reader::lenient(data, &log)) {
        show(nodes);
    }
    show(log.take());
}
