//! `describe` through its public API on a real certificate from `tests/data` (NIST
//! PKITS's trust anchor, see `tests/data/README.md`): the fields `pkit parse` prints.

use pkit_describe::{describe, Ctx};
use pkit_openssl as openssl;
use pkit_x509::detect::Kind;

#[test]
fn a_certificate_renders_its_fields() {
    let path = format!(
        "{}/../../../tests/data/pkits/certs/TrustAnchorRootCertificate.crt",
        env!("CARGO_MANIFEST_DIR")
    );
    let der = std::fs::read(&path).unwrap();
    let ctx = Ctx {
        now: pkit_der::Time::now(),
        show_private: false,
        password: None,
        lenient: false,
        backend: openssl::backend(),
    };
    let json = describe(Kind::Certificate, &der, &ctx).unwrap().json;
    let name = "CN=Trust Anchor,O=Test Certificates 2011,C=US";
    assert_eq!(json["type"], "certificate");
    assert_eq!(json["version"], 3);
    assert_eq!(json["serial_number"], "01");
    assert_eq!(json["subject_dn"], name);
    assert_eq!(json["issuer_dn"], name);
    assert_eq!(json["self_issued"], true);
    // RFC 5280 §4.2: the SKI, keyUsage and basicConstraints the anchor carries.
    assert_eq!(json["extensions"].as_array().map(Vec::len), Some(3));
    // What is not a certificate is an error, not a description.
    assert!(describe(Kind::Certificate, &der[..10], &ctx).is_err());
}
