//! `describe` through its public API on a real OCSP response from `tests/data`
//! (`resp-revoked-no-next-update.der`, see `tests/data/README.md`): the response status,
//! the responder, and the one revoked certificate it answers for.

mod common;

use common::{ctx, data, describe_data};
use pkit_describe::describe;
use pkit_x509::detect::Kind;

#[test]
fn an_ocsp_response_renders_its_single_responses() {
    let d = describe_data("lint/resp-revoked-no-next-update.der", Kind::OcspResponse);
    let json = &d.json;
    assert_eq!(json["type"], "ocsp_response");
    assert_eq!(json["response_status"], "successful");
    assert_eq!(json["response_type"]["name"], "id-pkix-ocsp-basic");
    assert_eq!(json["responder_id"]["by_name"], "CN=Cryptography CA,C=US");
    assert_eq!(json["produced_at"], "2018-10-24T00:28:54Z");
    let responses = json["responses"].as_array().unwrap();
    assert_eq!(responses.len(), 1);
    let single = &responses[0];
    assert_eq!(single["cert_id"]["hash_algorithm"]["name"], "sha1");
    assert_eq!(single["cert_id"]["serial_number"], "3f20");
    assert_eq!(single["cert_status"]["status"], "revoked");
    assert_eq!(
        single["cert_status"]["revocation_time"],
        "2017-12-27T00:28:54Z"
    );
    assert_eq!(single["this_update"], "2018-10-23T00:28:54Z");
    // RFC 6960 §4.2.1: nextUpdate is optional, and this response has none.
    assert!(single["next_update"].is_null());
    // The response carries no certificates of its responder.
    assert_eq!(json["certs"].as_array().map(Vec::len), Some(0));
    assert!(d.certs.is_empty());
    // An OCSP request's reader refuses a response.
    let der = data("lint/resp-revoked-no-next-update.der", Kind::OcspResponse);
    assert!(describe(Kind::OcspRequest, &der, &ctx()).is_err());
}
