//! The chain's validities, which a certificate's must lie within.

use super::*;
use pkit_openssl as openssl;
use pkit_x509::alg::Algorithm;
use pkit_x509::subject::parse_subject;

#[test]
fn a_validity_outside_a_ca_above_is_refused() {
    let key = openssl::backend().generate(Algorithm::EcdsaP256).unwrap();
    let now = Time::now();
    let der = pkit_ca::issuer::self_signed(
        &*key,
        &parse_subject("CN=Root").unwrap(),
        now,
        now.plus_seconds(86_400),
        None,
    )
    .unwrap();
    let c = Certificate::from_der(&der).unwrap();
    let (nb, na) = c.validity().unwrap();
    let chain = [ChainCert {
        not_before: nb,
        not_after: na,
        path_len: None,
        self_issued: true,
        ekus: None,
    }];
    assert!(nested(nb, na, &chain).is_ok());
    let r = nested(nb, na.plus_seconds(1), &chain).unwrap_err();
    assert_eq!((r.code, r.cert), ("expired", Some(1)));
    let r = nested(nb.plus_seconds(-1), na, &chain).unwrap_err();
    assert_eq!((r.code, r.cert), ("not-yet-valid", Some(1)));
}
