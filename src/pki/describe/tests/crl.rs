//! `describe` through its public API on a real CRL from `tests/data` (PKITS's trust
//! anchor CRL, see `tests/data/README.md`): the fields `pkit parse` prints, the one
//! revoked serial with its reason, and the DER it would emit.

mod common;

use common::{ctx, data, describe_data};
use pkit_describe::describe;
use pkit_x509::detect::Kind;

#[test]
fn a_crl_renders_its_fields_and_entries() {
    let mut d = describe_data("pkits/crls/TrustAnchorRootCRL.crl", Kind::Crl);
    let der = data("pkits/crls/TrustAnchorRootCRL.crl", Kind::Crl);
    // A long entry list may be left for printing; this one fills in either way.
    d.fill_deferred().unwrap();
    let json = &d.json;
    assert_eq!(json["type"], "crl");
    assert_eq!(json["version"], 2);
    assert_eq!(
        json["issuer_dn"],
        "CN=Trust Anchor,O=Test Certificates 2011,C=US"
    );
    assert_eq!(json["this_update"], "2010-01-01T08:30:00Z");
    assert_eq!(json["next_update"], "2030-12-31T08:30:00Z");
    assert_eq!(json["revoked_count"], 1);
    let entry = &json["revoked_certificates"][0];
    assert_eq!(entry["serial_number"], "68");
    // RFC 5280 §5.3.1: the entry's reasonCode.
    assert_eq!(entry["extensions"][0]["name"], "cRLReason");
    assert_eq!(entry["extensions"][0]["value"]["reason"], "keyCompromise");
    // RFC 5280 §5.2: the authorityKeyIdentifier and cRLNumber every CRL carries.
    let names: Vec<&str> = json["crl_extensions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["authorityKeyIdentifier", "cRLNumber"]);
    assert_eq!(json["crl_extensions"][1]["value"]["crl_number"], "1");
    // `-f der` emits the CRL itself; a CRL holds no certificates for `--summary`.
    assert_eq!(d.objects, vec![(Kind::Crl, der.clone())]);
    assert!(d.certs.is_empty());
    // A truncated CRL is an error, not a description.
    assert!(describe(Kind::Crl, &der[..der.len() - 1], &ctx()).is_err());
}
