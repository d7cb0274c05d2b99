//! `describe` through its public API on a real CSR from `tests/data` (`weak-internal.csr`,
//! see `tests/data/README.md`): the subject, the key, and the subjectAltName its
//! extensionRequest asks for.

mod common;

use common::{ctx, data, describe_data};
use pkit_describe::describe;
use pkit_x509::detect::Kind;

#[test]
fn a_csr_renders_its_subject_key_and_requested_extensions() {
    let d = describe_data("lint/weak-internal.csr", Kind::Csr);
    let der = data("lint/weak-internal.csr", Kind::Csr);
    let json = &d.json;
    assert_eq!(json["type"], "csr");
    // PKCS#10's version field is 0, printed as version 1.
    assert_eq!(json["version"], 1);
    assert_eq!(json["subject_dn"], "CN=host.corp");
    let spki = &json["subject_public_key_info"];
    assert_eq!(spki["key_type"], "RSA");
    assert_eq!(spki["key_bits"], 1024);
    // The extensionRequest attribute (PKCS#9), and its extensions listed as a
    // certificate's would be.
    assert_eq!(json["attributes"][0]["name"], "extensionRequest");
    let san = &json["extensions"][0];
    assert_eq!(san["name"], "subjectAltName");
    assert_eq!(san["value"][0]["type"], "dns");
    assert_eq!(san["value"][0]["value"], "host.corp");
    assert_eq!(san["value"][1]["value"], "a_b.example.com");
    assert_eq!(
        json["signature_algorithm"]["name"],
        "sha256WithRSAEncryption"
    );
    assert_eq!(d.objects, vec![(Kind::Csr, der.clone())]);
    // A certificate's reader refuses it: describing needs the right kind.
    assert!(describe(Kind::Certificate, &der, &ctx()).is_err());
}
