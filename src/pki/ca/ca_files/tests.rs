//! A CA directory loaded to sign: its settings and chain check in place, and each way it
//! can fail named.

use super::*;
use crate::der::{pem, Time};
use crate::issuer::self_signed;
use pkit_openssl as openssl;
use pkit_x509::alg::Algorithm;
use pkit_x509::subject::parse_subject;

/// A root CA's directory: `ca.pem` and `ca.json` (an allow rule); the key comes back
/// for the loader.
fn root_dir(dir: &Path) -> Box<dyn PrivateKey> {
    let be = openssl::backend();
    let key = be.generate(Algorithm::EcdsaP256).unwrap();
    let now = Time::now();
    let name = parse_subject("CN=Files CA").unwrap();
    let der = self_signed(key.as_ref(), &name, now, now.plus_seconds(86_400), None).unwrap();
    std::fs::write(dir.join(CA_CERT_FILE), pem::encode("CERTIFICATE", &der)).unwrap();
    std::fs::write(
        dir.join(crate::settings::FILE),
        r#"{"allow": ["DNS:*.corp.example"], "crl_urls": ["http://ca.example/ca.crl"]}"#,
    )
    .unwrap();
    key
}

#[test]
fn a_ca_loads_with_its_settings_and_its_chain_check() {
    let be = openssl::backend();
    let d = tempfile::tempdir().unwrap();
    let key = root_dir(d.path());
    let mut asked = None;
    let issuer = load_issuer(be, d.path(), |path| {
        asked = Some(path.to_path_buf());
        Ok::<_, ()>(key)
    })
    .unwrap();
    assert_eq!(asked.unwrap(), d.path().join(KEY_FILE));
    assert!(
        issuer.chain.is_some(),
        "the pre-issuance check is installed"
    );
    assert_eq!(issuer.pointers.crl, ["http://ca.example/ca.crl"]);
    assert_eq!(issuer.policy.texts().0, ["DNS:*.corp.example"]);
}

#[test]
fn each_failure_is_named_and_the_key_is_asked_for_last() {
    let be = openssl::backend();
    let d = tempfile::tempdir().unwrap();
    let never = |_: &Path| -> Result<Box<dyn PrivateKey>, &str> { panic!("not asked") };
    assert!(matches!(
        load_issuer(be, d.path(), never),
        Err(LoadError::Files(CaFilesError::Io { .. }))
    ));

    let key = root_dir(d.path());
    std::fs::write(d.path().join(crate::settings::FILE), "{").unwrap();
    assert!(matches!(
        load_issuer(be, d.path(), never),
        Err(LoadError::Settings(_))
    ));
    std::fs::remove_file(d.path().join(crate::settings::FILE)).unwrap();

    let refused = load_issuer(be, d.path(), |_| Err("wrong password"));
    assert!(matches!(refused, Err(LoadError::Key("wrong password"))));
    let other = be.generate(Algorithm::EcdsaP256).unwrap();
    let mismatched = load_issuer(be, d.path(), |_| Ok::<_, ()>(other));
    assert!(matches!(
        mismatched,
        Err(LoadError::Ca(CaError::Refused(_)))
    ));
    assert!(load_issuer(be, d.path(), |_| Ok::<_, ()>(key)).is_ok());
}
