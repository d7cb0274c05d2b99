//! The backend against the two real modules: a scratch SoftHSM2 token and a scratch NSS
//! database. One test drives both, because SoftHSM2 reads its configuration from the
//! process environment once. Signatures are checked by the OpenSSL backend too.

use super::module::{NSS_SOFTOKEN_MODULE, SOFTHSM_MODULE};
use super::*;
use pkit_openssl as openssl;

/// The modules, or why the test cannot run: under CI a missing module fails it.
fn modules_present() -> bool {
    let present = std::path::Path::new(SOFTHSM_MODULE).is_file()
        && std::path::Path::new(NSS_SOFTOKEN_MODULE).is_file();
    if !present {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true: {SOFTHSM_MODULE} and {NSS_SOFTOKEN_MODULE} are needed (scripts/test installs softhsm2 and libnss3)"
        );
        eprintln!("skipped: SoftHSM2 or NSS softoken missing");
    }
    present
}

/// What the token's verifier says of `signature`.
fn token_verifies(
    be: &Pkcs11Backend,
    spki_der: &[u8],
    scheme: pkit_x509::alg::SignatureScheme,
    message: &[u8],
    signature: &[u8],
) -> bool {
    be.verify(&pkit_x509::backend::VerifyItem {
        spki_der,
        scheme,
        message,
        signature,
    })
    .unwrap()
}

fn exercise(be: &Pkcs11Backend, algs: &[Algorithm]) {
    let soft = openssl::backend();
    for &alg in algs {
        assert!(be.supports(alg), "{alg} on {}", be.description());
        let key = be.generate(alg).unwrap();
        assert_eq!(key.algorithm(), alg);
        let spki = key.public_key_der().unwrap();
        let scheme = alg.default_scheme();
        let mut signer = key.signer().unwrap();
        assert_eq!(signer.scheme(), scheme);
        for msg in [&b"to be signed"[..], &[0u8; 3000][..]] {
            let sig = signer.sign(msg).unwrap();
            assert!(
                soft.verify(&spki, scheme, msg, &sig).unwrap(),
                "{alg}: OpenSSL"
            );
            assert!(token_verifies(be, &spki, scheme, msg, &sig), "{alg}: token");
            assert!(
                !token_verifies(be, &spki, scheme, b"other", &sig),
                "{alg}: wrong message"
            );
        }
        // The token verifies what OpenSSL signed too.
        let sw = soft.generate(alg).unwrap();
        let sig = sw.sign(b"m").unwrap();
        assert!(token_verifies(
            be,
            &sw.public_key_der().unwrap(),
            scheme,
            b"m",
            &sig
        ));
        assert!(key
            .to_pkcs8_der(pkit_x509::key::ml_dsa::MlDsaKeyFormat::Seed)
            .is_err());
    }
}

#[test]
fn softhsm_and_nss_sign_and_verify() {
    if !modules_present() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let soft = openssl::backend();
    let no_pin = || -> Result<Option<Vec<u8>>> { panic!("a scratch token asked for a PIN") };
    let hsm = scratch::bench_token(scratch::BenchToken::Softhsm, dir.path(), no_pin).unwrap();
    let hsm = Pkcs11Backend::on(hsm, soft);
    assert!(
        hsm.description().contains("SoftHSM"),
        "{}",
        hsm.description()
    );
    exercise(
        &hsm,
        &[
            Algorithm::EcdsaP256,
            Algorithm::EcdsaP384,
            Algorithm::Ed25519,
            Algorithm::Rsa2048,
        ],
    );
    assert!(!hsm.supports(Algorithm::MlDsa65));
    let e = hsm.generate(Algorithm::MlDsa65).unwrap_err();
    assert!(matches!(e, BackendError::Unsupported(_)), "{e}");

    // A named token key: found again by its URI, sensitive and never extractable.
    let new = NewKey {
        label: Some("ca key"),
        id: None,
        persist: true,
    };
    let made = hsm.generate_named(Algorithm::EcdsaP256, &new).unwrap();
    let uri = KeyUri::parse(&format!(
        "pkcs11:token=pkit%20scratch;object=ca%20key?module-path={SOFTHSM_MODULE}"
    ))
    .unwrap();
    let found = Pkcs11Backend::open(&uri, None, Some(scratch::SCRATCH_PIN.as_bytes()), soft)
        .unwrap()
        .find_key(&uri)
        .unwrap();
    assert_eq!(
        found.public_key_der().unwrap(),
        made.public_key_der().unwrap()
    );
    let p = found.protection().unwrap();
    assert!(
        p.sensitive && !p.extractable && p.never_extractable && p.always_sensitive,
        "{p:?}"
    );
    // A new key by that name is refused, not added beside it; another name is made once.
    let named = NewKey::for_uri(&uri).unwrap();
    assert_eq!(
        hsm.generate_new(Algorithm::EcdsaP256, &uri, &named).err(),
        Some(NewKeyError::Exists {
            token: "pkit scratch".into()
        })
    );
    let fresh = KeyUri::parse(&format!(
        "pkcs11:token=pkit%20scratch;object=fresh;id=%01?module-path={SOFTHSM_MODULE}"
    ))
    .unwrap();
    let named = NewKey::for_uri(&fresh).unwrap();
    assert_eq!((named.label, named.id), (Some("fresh"), Some(&[1u8][..])));
    let made = hsm
        .generate_new(Algorithm::Ed25519, &fresh, &named)
        .unwrap();
    assert_eq!(
        hsm.find_key(&fresh).unwrap().public_key_der().unwrap(),
        made.public_key_der().unwrap()
    );
    assert!(matches!(
        hsm.generate_new(Algorithm::Ed25519, &fresh, &named),
        Err(NewKeyError::Exists { .. })
    ));
    // An unknown object, an unknown token. (A wrong PIN cannot be tried here: this
    // process is logged in already, and a login is per process. The CLI tests try it.)
    let missing = KeyUri::parse(&format!(
        "pkcs11:token=pkit%20scratch;object=nope?module-path={SOFTHSM_MODULE}"
    ))
    .unwrap();
    let e = hsm.find_key(&missing).err().unwrap();
    assert!(matches!(e, BackendError::Unavailable(_)), "{e}");
    let e = Pkcs11Backend::open(
        &KeyUri::parse(&format!("pkcs11:token=absent?module-path={SOFTHSM_MODULE}")).unwrap(),
        None,
        Some(b"x"),
        soft,
    )
    .err()
    .unwrap();
    assert!(
        matches!(e, BackendError::Unavailable(_)) && e.to_string().contains("pkit scratch"),
        "{e}"
    );

    let nss = scratch::bench_token(scratch::BenchToken::Nss { db: None }, dir.path(), no_pin);
    let nss = Pkcs11Backend::on(nss.unwrap(), soft);
    exercise(
        &nss,
        &[
            Algorithm::EcdsaP256,
            Algorithm::EcdsaP384,
            Algorithm::Rsa2048,
        ],
    );
    // NSS keeps a token key as SoftHSM2 does: sensitive, never extractable.
    let kept = nss
        .generate_named(
            Algorithm::EcdsaP256,
            &NewKey {
                label: Some("nss ca key"),
                id: None,
                persist: true,
            },
        )
        .unwrap();
    let p = kept.protection().unwrap();
    assert!(
        p.sensitive && !p.extractable && p.never_extractable && p.always_sensitive,
        "{p:?}"
    );
    let e = nss.generate(Algorithm::Ed25519).err().unwrap();
    assert!(
        matches!(&e, BackendError::Unsupported(m) if m.contains("CKM_EC_EDWARDS_KEY_PAIR_GEN") && m.contains("softokn3")),
        "{e}"
    );
    // The same database opened as an existing one, with the PIN asked for then.
    let db = dir.path().join("nss");
    let asked = || Ok::<_, BackendError>(Some(scratch::SCRATCH_PIN.as_bytes().to_vec()));
    let again = scratch::bench_token(
        scratch::BenchToken::Nss { db: Some(&db) },
        dir.path(),
        asked,
    );
    let kept_uri = KeyUri {
        object: Some("nss ca key".into()),
        ..KeyUri::default()
    };
    let found = Pkcs11Backend::on(again.unwrap(), soft)
        .find_key(&kept_uri)
        .unwrap();
    assert_eq!(
        found.public_key_der().unwrap(),
        kept.public_key_der().unwrap()
    );
}

#[test]
fn a_new_key_needs_a_label() {
    let uri = KeyUri::parse("pkcs11:token=t;id=%02").unwrap();
    assert_eq!(NewKey::for_uri(&uri).err(), Some(NewKeyError::NoLabel));
    assert_eq!(
        NewKeyError::NoLabel.to_string(),
        "name the new key with object=LABEL"
    );
}
