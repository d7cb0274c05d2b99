//! Tests of the OpenSSL backend as a whole: generation, signing, verification, and
//! loading keys through the key model.

use super::key::ml_dsa_oid;
use super::linked::digest_name;
use super::signers::OneShotSigner;
use super::*;
use native_ossl::cipher::CipherAlg;
use native_ossl::digest::DigestAlg;
use native_ossl::pkey::SignInit;
use pkit_x509::alg::SignatureScheme;
use pkit_x509::backend::pbe::{Hash, PbeCipher};
use pkit_x509::backend::BackendError;
use pkit_x509::backend::Signer as _;
use pkit_x509::key::encrypted::{
    encrypt_private_key, is_encrypted, EncryptedPrivateKeyInfo, KdfChoice,
};
use pkit_x509::key::encrypted::{PBKDF2_ITERATIONS, SCRYPT_N, SCRYPT_P, SCRYPT_R};
use pkit_x509::key::load::load_private;
use pkit_x509::key::ml_dsa::ml_dsa_expanded_len;
use pkit_x509::key::ml_dsa::{MlDsaKeyFormat, MlDsaPrivateKey};
use pkit_x509::key::pbe::prf_hash;
use pkit_x509::key::pbe::{Kdf, PbeScheme};
use pkit_x509::key::pkcs8::PrivateKeyInfo;
use std::sync::OnceLock;

/// The encodings pkit writes itself are byte for byte OpenSSL's.
#[test]
fn own_key_encodings_match_openssl() {
    for alg in Algorithm::ALL {
        for _ in 0..4 {
            let pkey = keygen_ctx(alg).unwrap().generate().unwrap();
            let k = OsslKey::new(alg, pkey);
            let ours = k.public_key_der().unwrap();
            assert_eq!(ours, k.openssl_public_key_der().unwrap(), "{alg} SPKI");
            if !alg.is_rsa() && ml_dsa_oid(alg).is_none() {
                let ours = k.to_pkcs8_der(MlDsaKeyFormat::default()).unwrap();
                assert_eq!(ours, k.openssl_pkcs8_der().unwrap(), "{alg} PKCS#8");
            }
        }
    }
}

#[test]
fn a_reused_keygen_context_gives_fresh_keys() {
    for alg in [Algorithm::EcdsaP256, Algorithm::Ed25519, Algorithm::MlDsa44] {
        let a = backend().generate(alg).unwrap().public_key_der().unwrap();
        let b = backend().generate(alg).unwrap().public_key_der().unwrap();
        assert_ne!(a, b, "{alg}");
    }
}

/// One key per algorithm the linked OpenSSL offers, generated once for all tests.
fn keys() -> &'static [Box<dyn PrivateKey>] {
    static KEYS: OnceLock<Vec<Box<dyn PrivateKey>>> = OnceLock::new();
    KEYS.get_or_init(|| {
        Algorithm::ALL
            .into_iter()
            .filter(|a| {
                let ok = backend().supports(*a);
                // CI builds with OpenSSL >= 3.5 (the xtask provides it): there, an
                // algorithm missing is a broken build, not a reason to test less.
                assert!(
                    ok || std::env::var("CI").as_deref() != Ok("true"),
                    "{a} is not in {} (CI=true needs every algorithm)",
                    openssl_version()
                );
                if !ok {
                    eprintln!("note: {a} skipped, not in {}", openssl_version());
                }
                ok
            })
            .map(|a| backend().generate(a).unwrap())
            .collect()
    })
}

fn flip(v: &[u8], i: usize) -> Vec<u8> {
    let mut v = v.to_vec();
    v[i] ^= 0x01;
    v
}

#[test]
fn version_and_probe() {
    assert!(
        backend().version().starts_with("OpenSSL 3."),
        "{}",
        backend().version()
    );
    for a in [Algorithm::EcdsaP256, Algorithm::Ed25519, Algorithm::Rsa2048] {
        assert!(backend().supports(a));
    }
    let ml_dsa = !backend().version().starts_with("OpenSSL 3.0");
    assert_eq!(backend().supports(Algorithm::MlDsa65), ml_dsa);
    if !ml_dsa {
        match backend().generate(Algorithm::MlDsa65) {
            Err(BackendError::Unsupported(m)) => {
                assert!(m.contains("cargo xtask build"), "{m}")
            }
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn sign_verify_and_tamper() {
    for key in keys() {
        let spki = key.public_key_der().unwrap();
        let mut signer = key.signer().unwrap();
        let scheme = signer.scheme();
        assert_eq!(scheme, key.algorithm().default_scheme());
        // Many signatures from one context: each must stand on its own, which
        // catches a context that hashes across calls.
        for msg in [&b"first message"[..], b"second", b"", &[0x5a; 3000]] {
            let sig = signer.sign(msg).unwrap();
            assert!(
                backend().verify(&spki, scheme, msg, &sig).unwrap(),
                "{}",
                key.algorithm()
            );
            if !msg.is_empty() {
                let bad = backend()
                    .verify(&spki, scheme, &flip(msg, 0), &sig)
                    .unwrap();
                assert!(!bad, "{}: tampered message verified", key.algorithm());
            }
            for i in [0, sig.len() / 2, sig.len() - 1] {
                let bad = backend()
                    .verify(&spki, scheme, msg, &flip(&sig, i))
                    .unwrap();
                assert!(
                    !bad,
                    "{}: tampered signature byte {i} verified",
                    key.algorithm()
                );
            }
            assert!(!backend().verify(&spki, scheme, msg, &[]).unwrap());
        }
        let sig = key.sign(b"one-off").unwrap();
        assert!(backend().verify(&spki, scheme, b"one-off", &sig).unwrap());
    }
}

#[test]
fn signers_are_independent_across_threads() {
    let key = keys().first().unwrap();
    let spki = key.public_key_der().unwrap();
    std::thread::scope(|s| {
        for t in 0..4u8 {
            let spki = &spki;
            s.spawn(move || {
                let mut signer = key.signer().unwrap();
                for i in 0..20u8 {
                    let msg = [t, i];
                    let sig = signer.sign(&msg).unwrap();
                    assert!(backend().verify(spki, signer.scheme(), &msg, &sig).unwrap());
                }
            });
        }
    });
}

#[test]
fn verify_other_schemes() {
    let rsa = keys()
        .iter()
        .find(|k| k.algorithm() == Algorithm::Rsa2048)
        .unwrap();
    let ec = keys()
        .iter()
        .find(|k| k.algorithm() == Algorithm::EcdsaP384)
        .unwrap();
    let ec_spki = ec.public_key_der().unwrap();
    let rsa_spki = rsa.public_key_der().unwrap();
    let pkey = |k: &dyn PrivateKey| {
        Pkey::<Private>::from_der(&k.to_pkcs8_der(MlDsaKeyFormat::Seed).unwrap()).unwrap()
    };
    let schemes = [
        (
            Digest::Sha1,
            SignatureScheme::RsaPkcs1Sha1,
            SignatureScheme::EcdsaSha1,
        ),
        (
            Digest::Sha384,
            SignatureScheme::RsaPkcs1Sha384,
            SignatureScheme::EcdsaSha384,
        ),
        (
            Digest::Sha512,
            SignatureScheme::RsaPkcs1Sha512,
            SignatureScheme::EcdsaSha512,
        ),
        (
            Digest::Sha256,
            SignatureScheme::RsaPkcs1Sha256,
            SignatureScheme::EcdsaSha256,
        ),
    ];
    for (d, rsa_scheme, ec_scheme) in schemes {
        let md = DigestAlg::fetch(digest_name(d), None).unwrap();
        let msg = b"tbsCertificate";
        for (k, spki, scheme) in [
            (pkey(&**rsa), &rsa_spki, rsa_scheme),
            (pkey(&**ec), &ec_spki, ec_scheme),
        ] {
            let sig = native_ossl::pkey::Signer::new(&k, &SignInit::new(Some(&md), None))
                .unwrap()
                .sign_oneshot(msg)
                .unwrap();
            assert!(
                backend().verify(spki, scheme, msg, &sig).unwrap(),
                "{scheme:?}"
            );
            assert!(!backend().verify(spki, scheme, b"other", &sig).unwrap());
        }
        let pss = SignatureScheme::RsaPss {
            digest: d,
            salt_len: d.output_len() as u32,
        };
        let params = native_ossl::pkey::rsa_pss_params(&md, d.output_len() as i32).unwrap();
        let sig =
            native_ossl::pkey::Signer::new(&pkey(&**rsa), &SignInit::new(Some(&md), Some(&params)))
                .unwrap()
                .sign_oneshot(msg)
                .unwrap();
        assert!(
            backend().verify(&rsa_spki, pss, msg, &sig).unwrap(),
            "{pss:?}"
        );
        assert!(!backend().verify(&rsa_spki, rsa_scheme, msg, &sig).unwrap());
    }
    // A key that does not fit the scheme made no such signature: a negative answer.
    assert!(!backend()
        .verify(&ec_spki, SignatureScheme::RsaPkcs1Sha256, b"m", &[0; 64])
        .unwrap());
    assert!(matches!(
        backend().verify(b"garbage", SignatureScheme::EcdsaSha256, b"m", &[0; 64]),
        Err(BackendError::BadKeyAt(_))
    ));
}

#[test]
fn pkcs8_round_trip() {
    for key in keys() {
        let der = key.to_pkcs8_der(MlDsaKeyFormat::default()).unwrap();
        let back = load_private(backend(), &der, None).unwrap();
        assert_eq!(back.algorithm(), key.algorithm());
        assert_eq!(
            back.public_key_der().unwrap(),
            key.public_key_der().unwrap()
        );
        // A loaded key signs for the original public key.
        let sig = back.sign(b"m").unwrap();
        let spki = key.public_key_der().unwrap();
        assert!(backend()
            .verify(&spki, key.algorithm().default_scheme(), b"m", &sig)
            .unwrap());
    }
}

#[test]
fn encrypted_round_trip_and_wrong_password() {
    for key in keys() {
        for kdf in [KdfChoice::Pbkdf2, KdfChoice::Scrypt] {
            let der =
                encrypt_private_key(backend(), &**key, b"s3cret", kdf, MlDsaKeyFormat::default())
                    .unwrap();
            assert!(is_encrypted(&der));
            let back = load_private(backend(), &der, Some(b"s3cret")).unwrap();
            assert_eq!(back.algorithm(), key.algorithm());
            assert_eq!(
                back.public_key_der().unwrap(),
                key.public_key_der().unwrap()
            );
            assert!(matches!(
                load_private(backend(), &der, Some(b"wrong")),
                Err(BackendError::BadPassword(_))
            ));
            assert!(matches!(
                load_private(backend(), &der, None),
                Err(BackendError::BadPassword(_))
            ));
        }
    }
    let key = keys().first().unwrap();
    for kdf in [KdfChoice::Pbkdf2, KdfChoice::Scrypt] {
        let der = encrypt_private_key(backend(), &**key, b"pw", kdf, MlDsaKeyFormat::Seed).unwrap();
        let e = EncryptedPrivateKeyInfo::from_der(&der).unwrap();
        match e.scheme().unwrap() {
            PbeScheme::Pbes2 { kdf: k, cipher, .. } => {
                assert_eq!(cipher, Some(PbeCipher::Aes256Cbc));
                match (kdf, k) {
                    (
                        KdfChoice::Pbkdf2,
                        Kdf::Pbkdf2 {
                            iterations,
                            prf,
                            salt,
                            ..
                        },
                    ) => {
                        assert_eq!(
                            (iterations, prf_hash(prf.as_ref()), salt.map(<[u8]>::len)),
                            (PBKDF2_ITERATIONS, Some(Hash::Sha256), Some(16))
                        );
                    }
                    (
                        KdfChoice::Scrypt,
                        Kdf::Scrypt {
                            cost,
                            block_size,
                            parallelization,
                            ..
                        },
                    ) => {
                        assert_eq!(
                            (cost, block_size, parallelization),
                            (SCRYPT_N, SCRYPT_R, SCRYPT_P)
                        );
                    }
                    other => panic!("{other:?}"),
                }
            }
            other => panic!("{other:?}"),
        }
        assert!(load_private(backend(), &der, Some(b"pw")).is_ok());
    }
}

#[test]
fn openssl_written_encrypted_keys_load() {
    // OpenSSL's own PBES2 output (its defaults: PBKDF2-HMAC-SHA256, 2048 iterations).
    let key = keys()
        .iter()
        .find(|k| k.algorithm() == Algorithm::EcdsaP256)
        .unwrap();
    let k = Pkey::<Private>::from_der(&key.to_pkcs8_der(MlDsaKeyFormat::Seed).unwrap()).unwrap();
    let aes = CipherAlg::fetch(c"AES-128-CBC", None).unwrap();
    let pem = k.to_pem_encrypted(&aes, b"pw").unwrap();
    let der = pem::parse(&pem).unwrap().into_contents();
    let back = load_private(backend(), &der, Some(b"pw")).unwrap();
    assert_eq!(
        back.public_key_der().unwrap(),
        key.public_key_der().unwrap()
    );
    assert!(matches!(
        load_private(backend(), &der, Some(b"nope")),
        Err(BackendError::BadPassword(_))
    ));
}

#[test]
fn garbage_and_foreign_keys() {
    for junk in [&b""[..], b"garbage", &[0x30, 0x03, 0x02, 0x01, 0x00]] {
        assert!(
            matches!(
                load_private(backend(), junk, None),
                Err(BackendError::BadKeyAt(_))
            ),
            "{junk:?}"
        );
    }
    // An Ed448 key: a real key type, but not one of pkit's nine.
    let ed448 = KeygenCtx::new(c"ED448").unwrap().generate().unwrap();
    match load_private(backend(), &ed448.to_pkcs8_der().unwrap(), None) {
        Err(BackendError::Unsupported(m)) => assert!(m.contains("1.3.101.113"), "{m}"),
        other => panic!("{other:?}"),
    }
    // RSA of a size pkit does not issue with.
    let mut ctx = KeygenCtx::new(c"RSA").unwrap();
    let p = ParamBuilder::new()
        .unwrap()
        .push_uint(c"bits", 1024)
        .unwrap()
        .build()
        .unwrap();
    ctx.set_params(&p).unwrap();
    let rsa1024 = ctx.generate().unwrap().to_pkcs8_der().unwrap();
    assert!(matches!(
        load_private(backend(), &rsa1024, None),
        Err(BackendError::Unsupported(_))
    ));
}

#[test]
fn traditional_keys_load() {
    for alg in [Algorithm::EcdsaP256, Algorithm::Rsa2048] {
        let key = keys().iter().find(|k| k.algorithm() == alg).unwrap();
        let k =
            Pkey::<Private>::from_der(&key.to_pkcs8_der(MlDsaKeyFormat::Seed).unwrap()).unwrap();
        let back = load_private(backend(), &k.to_der_legacy().unwrap(), None).unwrap();
        assert_eq!(back.algorithm(), alg);
        assert_eq!(
            back.public_key_der().unwrap(),
            key.public_key_der().unwrap()
        );
    }
}

#[test]
fn ml_dsa_formats() {
    for key in keys().iter().filter(|k| k.algorithm().is_ml_dsa()) {
        let alg = key.algorithm();
        let spki = key.public_key_der().unwrap();
        let mut seed_of = None;
        for format in [
            MlDsaKeyFormat::Seed,
            MlDsaKeyFormat::Expanded,
            MlDsaKeyFormat::Both,
        ] {
            let der = key.to_pkcs8_der(format).unwrap();
            let info = PrivateKeyInfo::from_der(&der).unwrap();
            let parsed = info.ml_dsa_form().unwrap().unwrap();
            match (format, parsed) {
                (MlDsaKeyFormat::Seed, MlDsaPrivateKey::Seed(s)) => {
                    // OneAsymmetricKey v1 with a 13-byte AlgorithmIdentifier, then
                    // OCTET STRING { [0] IMPLICIT OCTET STRING (32) }: 54 bytes.
                    assert_eq!(der.len(), 54);
                    assert_eq!(&der[..5], &[0x30, 0x34, 0x02, 0x01, 0x00]);
                    assert_eq!(&der[18..22], &[0x04, 0x22, 0x80, 0x20]);
                    seed_of = Some(s.to_vec());
                }
                (MlDsaKeyFormat::Expanded, MlDsaPrivateKey::Expanded(e)) => {
                    assert_eq!(Some(e.len()), ml_dsa_expanded_len(alg));
                }
                (MlDsaKeyFormat::Both, MlDsaPrivateKey::Both { seed, .. }) => {
                    assert_eq!(Some(seed.to_vec()), seed_of);
                }
                other => panic!("{other:?}"),
            }
            let back = load_private(backend(), &der, None).unwrap();
            assert_eq!(back.algorithm(), alg);
            assert_eq!(back.public_key_der().unwrap(), spki);
            let sig = back.sign(b"m").unwrap();
            assert!(backend()
                .verify(&spki, alg.default_scheme(), b"m", &sig)
                .unwrap());
            // A key read without its seed can be written only in expanded form.
            let seedless = format == MlDsaKeyFormat::Expanded;
            assert_eq!(back.to_pkcs8_der(MlDsaKeyFormat::Seed).is_err(), seedless);
            assert!(back.to_pkcs8_der(MlDsaKeyFormat::Expanded).is_ok());
        }
    }
}

#[test]
fn one_shot_contexts_are_re_armed_not_rebuilt() {
    for key in keys()
        .iter()
        .filter(|k| k.algorithm().default_scheme().digest().is_none())
    {
        let alg = key.algorithm();
        let der = key.to_pkcs8_der(MlDsaKeyFormat::Seed).unwrap();
        let pkey = Pkey::<Private>::from_der(&der).unwrap();
        let spki = key.public_key_der().unwrap();
        let mut s = OneShotSigner::new(&pkey, alg.default_scheme()).unwrap();
        assert_eq!(s.full_inits, 1, "{alg}");
        for msg in [&b"a"[..], b"b", b"", &[7; 500]] {
            let sig = s.sign(msg).unwrap();
            // A re-armed context signs each message on its own.
            assert!(backend()
                .verify(&spki, alg.default_scheme(), msg, &sig)
                .unwrap());
        }
        // Four signatures, and the key was given to the context only when it was made:
        // every later signature re-armed it (OpenSSL's reinit path) rather than
        // building the provider context again.
        assert_eq!(s.full_inits, 1, "{alg}: the signing context was rebuilt");
    }
}

#[test]
fn ml_dsa_both_form_must_agree() {
    for key in keys().iter().filter(|k| k.algorithm().is_ml_dsa()) {
        let mut der = key.to_pkcs8_der(MlDsaKeyFormat::Both).unwrap();
        let last = der.len() - 1;
        der[last] ^= 1;
        assert!(
            load_private(backend(), &der, None).is_err(),
            "{}: a seed and an expanded key that disagree were accepted",
            key.algorithm()
        );
    }
}

#[test]
fn digests() {
    let hex = |v: Vec<u8>| v.iter().map(|b| format!("{b:02x}")).collect::<String>();
    assert_eq!(
        hex(backend().digest(Digest::Sha1, b"abc")),
        "a9993e364706816aba3e25717850c26c9cd0d89d"
    );
    assert_eq!(
        hex(backend().digest(Digest::Sha256, b"abc")),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    assert_eq!(backend().digest(Digest::Sha384, b"").len(), 48);
    assert_eq!(backend().digest(Digest::Sha512, b"").len(), 64);
}

/// DSA signatures (FIPS 186-4) verify through OpenSSL's EVP under each digest pkit reads
/// (id-dsa-with-sha1, dsa-with-sha224, dsa-with-sha256): a 2048/224-bit key and
/// signatures made by the `openssl` command-line tool (tests/data/README.md), and a
/// PKITS certificate signed by its DSA CA.
#[test]
fn dsa_signatures_verify() {
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../tests/data/");
    let read = |f: &str| std::fs::read(format!("{data}{f}")).unwrap();
    let spki = read("dsa/dsa2048-224.spki");
    let msg = read("dsa/message.txt");
    let schemes = [
        ("sha1", SignatureScheme::DsaSha1),
        ("sha224", SignatureScheme::DsaSha224),
        ("sha256", SignatureScheme::DsaSha256),
    ];
    for (name, scheme) in schemes {
        let sig = read(&format!("dsa/message.{name}.sig"));
        assert!(
            backend().verify(&spki, scheme, &msg, &sig).unwrap(),
            "{name}"
        );
        assert!(!backend().verify(&spki, scheme, b"other", &sig).unwrap());
        // Another digest, another scheme: not this signature.
        for (other, s) in schemes {
            if other != name {
                assert!(!backend().verify(&spki, s, &msg, &sig).unwrap(), "{other}");
            }
        }
        // A DSA key makes no ECDSA signature, and an EC key no DSA one.
        assert!(!backend()
            .verify(&spki, SignatureScheme::EcdsaSha256, &msg, &sig)
            .unwrap());
        let mut broken = sig.clone();
        let last = broken.len() - 1;
        broken[last] ^= 1;
        assert!(!backend().verify(&spki, scheme, &msg, &broken).unwrap());
    }
    let ec = keys()
        .iter()
        .find(|k| k.algorithm() == Algorithm::EcdsaP256)
        .unwrap()
        .public_key_der()
        .unwrap();
    let sig = read("dsa/message.sha256.sig");
    assert!(!backend()
        .verify(&ec, SignatureScheme::DsaSha256, &msg, &sig)
        .unwrap());

    let ca = read("pkits/certs/DSACACert.crt");
    let ca = pkit_x509::cert::Certificate::from_der(&ca).unwrap();
    for (ee, valid) in [
        ("ValidDSASignaturesTest4EE.crt", true),
        ("InvalidDSASignatureTest6EE.crt", false),
    ] {
        let der = read(&format!("pkits/certs/{ee}"));
        let ee = pkit_x509::cert::Certificate::from_der(&der).unwrap();
        assert_eq!(
            ee.signature_algorithm.signature_scheme().unwrap(),
            Some(SignatureScheme::DsaSha1)
        );
        let ok = pkit_x509::signed::verify_signed(
            backend(),
            ca.spki.raw,
            &ee.signature_algorithm,
            ee.tbs_raw,
            ee.signature.bytes,
        )
        .unwrap();
        assert_eq!(ok, valid);
    }
}
