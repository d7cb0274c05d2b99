//! The bad-certificate set: for each rule pkit lints, a certificate (or CRL) that breaks it
//! (made with `issue cert --lint off`, a `--template`, or OpenSSL), the lint it must
//! trip and the rule sets to lint it with. `tests/lint_cli.rs` checks pkit flags each;
//! `tests/lint_peers.rs` checks zlint and pkilint agree where they have the rule.

use super::{issue_ca, issue_leaf as leaf, ossl, pk_ok, require_openssl, s, write_file};
use std::path::{Path, PathBuf};

/// One bad certificate.
pub struct BadCert {
    pub file: PathBuf,
    /// The pkit lint it must trip.
    pub lint: &'static str,
    /// The `pkit lint` arguments to lint it with: `--rules …`, and `--as TYPE` where
    /// its contents do not say its type.
    pub args: Vec<&'static str>,
}

/// OpenSSL's CA command line signs `csr` as `ca` (a pkit CA directory) into `DIR/name`,
/// with the extensions of `ext` (an `-extfile`) and `extra` arguments.
fn openssl_signs(
    ca: &Path,
    csr: &Path,
    dir: &Path,
    name: &str,
    ext: &[u8],
    extra: &[&str],
) -> PathBuf {
    let extfile = write_file(dir, &format!("{name}.ext"), ext);
    let out = dir.join(name);
    let (ca_pem, ca_key, csr, extfile, o) = (
        s(&ca.join("ca.pem")),
        s(&ca.join("ca.key")),
        s(csr),
        s(&extfile),
        s(&out),
    );
    let mut args = vec![
        "x509", "-req", "-in", &csr, "-CA", &ca_pem, "-CAkey", &ca_key, "-extfile", &extfile,
        "-out", &o,
    ];
    args.extend_from_slice(extra);
    let (code, text) = ossl(&args);
    assert_eq!(code, Some(0), "openssl x509 -req: {text}");
    out
}

/// Build the set in `dir`.
pub fn build(dir: &Path) -> Vec<BadCert> {
    require_openssl();
    let ca = issue_ca(dir, "ca", "CN=Lint CA", &[]);
    let template = |name: &str, json: &str| -> PathBuf {
        write_file(dir, &format!("{name}.json"), json.as_bytes())
    };
    let off = "--lint";
    let mut cases: Vec<(PathBuf, &'static str, &'static str)> = Vec::new();
    cases.push((
        leaf(
            &ca,
            dir,
            "long",
            &["--san", "DNS:a.example", "--days", "300", off, "off"],
        ),
        "e_cabf_validity_too_long",
        "rfc5280,cabf-tls-core",
    ));
    let t1 = template(
        "nosan",
        r#"{"ext_key_usage": ["serverAuth"], "subject": "CN=x"}"#,
    );
    cases.push((
        leaf(
            &ca,
            dir,
            "nosan",
            &[
                "--template",
                &s(&t1),
                "--profile",
                "code-signing",
                off,
                "off",
            ],
        ),
        "e_cabf_san_missing",
        "rfc5280,cabf-tls-core",
    ));
    cases.push((
        leaf(
            &ca,
            dir,
            "cn",
            &[
                "--subject",
                "CN=a.example",
                "--san",
                "DNS:b.example",
                off,
                "off",
            ],
        ),
        "e_cabf_cn_not_in_san",
        "rfc5280,cabf-tls",
    ));
    cases.push((
        leaf(
            &ca,
            dir,
            "underscore",
            &["--san", "DNS:a_b.example", off, "off"],
        ),
        "e_cabf_dns_name_malformed",
        "rfc5280,cabf-tls-core",
    ));
    cases.push((
        leaf(
            &ca,
            dir,
            "email",
            &[
                "--san",
                "DNS:a.example",
                "--san",
                "email:a@example.com",
                off,
                "off",
            ],
        ),
        "e_cabf_san_forbidden_type",
        "rfc5280,cabf-tls-core",
    ));
    let t2 = template("eku", r#"{"ext_key_usage": ["serverAuth", "codeSigning"]}"#);
    cases.push((
        leaf(
            &ca,
            dir,
            "eku",
            &["--template", &s(&t2), "--san", "DNS:a.example", off, "off"],
        ),
        "e_cabf_eku_forbidden",
        "rfc5280,cabf-tls-core",
    ));
    let t3 = template(
        "ku",
        r#"{"key_usage": ["digitalSignature", "keyCertSign"], "ext_key_usage": ["serverAuth"]}"#,
    );
    let ku = leaf(
        &ca,
        dir,
        "ku",
        &["--template", &s(&t3), "--san", "DNS:a.example", off, "off"],
    );
    cases.push((
        ku.clone(),
        "e_cabf_leaf_key_usage_ca_bits",
        "rfc5280,cabf-tls-core",
    ));
    cases.push((ku, "e_rfc_key_cert_sign_without_ca", "rfc5280"));
    let t4 = template(
        "nc",
        r#"{"permit": ["DNS:.example"], "ext_key_usage": ["serverAuth"]}"#,
    );
    cases.push((
        leaf(
            &ca,
            dir,
            "nc",
            &["--template", &s(&t4), "--san", "DNS:a.example", off, "off"],
        ),
        "e_rfc_name_constraints_in_end_entity",
        "rfc5280",
    ));
    // authorityInfoAccess, critical: SEQUENCE { SEQUENCE { id-ad-ocsp, [6] "http://o/" } }
    let t6 = template(
        "aia",
        r#"{"extensions": [{"oid": "1.3.6.1.5.5.7.1.1", "critical": true,
           "der_hex": "3017301506082b060105050730018609687474703a2f2f6f2f"}]}"#,
    );
    cases.push((
        leaf(
            &ca,
            dir,
            "aia",
            &["--template", &s(&t6), "--san", "DNS:a.example", off, "off"],
        ),
        "e_rfc_aia_critical",
        "rfc5280",
    ));
    let t7 = template(
        "kunc",
        r#"{"extensions": [{"oid": "2.5.29.15", "critical": false, "der_hex": "03020780"}], "ext_key_usage": ["serverAuth"]}"#,
    );
    cases.push((
        leaf(
            &ca,
            dir,
            "kunc",
            &["--template", &s(&t7), "--san", "DNS:a.example", off, "off"],
        ),
        "w_rfc_key_usage_not_critical",
        "rfc5280",
    ));
    // A CA certificate whose basicConstraints are not critical, and one with a path
    // length but no keyCertSign.
    let t8 = template(
        "bcnc",
        r#"{"extensions": [{"oid": "2.5.29.19", "critical": false, "der_hex": "30030101ff"}], "key_usage": ["keyCertSign", "cRLSign"]}"#,
    );
    cases.push((
        leaf(
            &ca,
            dir,
            "bcnc",
            &[
                "--template",
                &s(&t8),
                "--profile",
                "ca",
                "--subject",
                "CN=Sub",
                off,
                "off",
            ],
        ),
        "e_rfc_ca_basic_constraints_not_critical",
        "rfc5280",
    ));
    let t9 = template(
        "pathlen",
        r#"{"extensions": [{"oid": "2.5.29.19", "critical": true, "der_hex": "30060101ff020100"}], "key_usage": ["digitalSignature"]}"#,
    );
    let pathlen = leaf(
        &ca,
        dir,
        "pathlen",
        &[
            "--template",
            &s(&t9),
            "--profile",
            "ca",
            "--subject",
            "CN=Sub2",
            off,
            "off",
        ],
    );
    cases.push((
        pathlen.clone(),
        "e_rfc_path_len_without_key_cert_sign",
        "rfc5280",
    ));
    cases.push((pathlen.clone(), "e_rfc_ca_key_cert_sign_missing", "rfc5280"));
    cases.push((pathlen, "e_cabf_ca_key_usage_bits", "rfc5280,cabf-tls-core"));
    // An empty subject whose SAN is not critical.
    let t10 = template(
        "empty",
        r#"{"extensions": [{"oid": "2.5.29.17", "critical": false, "der_hex": "300b8209612e6578616d706c65"}], "ext_key_usage": ["serverAuth"]}"#,
    );
    cases.push((
        leaf(&ca, dir, "empty", &["--template", &s(&t10), off, "off"]),
        "e_rfc_empty_subject_without_critical_san",
        "rfc5280",
    ));
    // A private CA's intermediate lacks what a public one needs: policies and serverAuth.
    let int = dir.join("int");
    pk_ok(&[
        "issue",
        "ca",
        "--dir",
        &s(&int),
        "--parent",
        &s(&ca),
        "--subject",
        "CN=Lint Int",
        "--no-passout",
    ]);
    cases.push((
        int.join("ca.pem"),
        "e_cabf_subca_policy_missing",
        "rfc5280,cabf-tls",
    ));
    cases.push((
        int.join("ca.pem"),
        "e_cabf_subca_eku_missing",
        "rfc5280,cabf-tls",
    ));
    // …and a CA's subject needs countryName and organizationName.
    cases.push((
        int.join("ca.pem"),
        "e_cabf_ca_subject_attributes_missing",
        "rfc5280,cabf-tls",
    ));
    // What a publicly trusted CA must add: policies, caIssuers, CDP; RSA or ECDSA keys;
    // no reserved addresses.
    let private = leaf(
        &ca,
        dir,
        "private",
        &[
            "--alg",
            "ed25519",
            "--san",
            "DNS:a.example",
            "--san",
            "IP:10.1.2.3",
        ],
    );
    for rule in [
        "e_cabf_policy_missing",
        "e_cabf_aia_missing",
        "e_cabf_crl_distribution_point_missing",
        "e_cabf_key_algorithm_not_allowed",
        "e_cabf_ip_reserved",
    ] {
        cases.push((private.clone(), rule, "rfc5280,cabf-tls"));
    }
    // From OpenSSL: a 1024-bit RSA key (by CSR), a zero serial and no AKI, a root with
    // extendedKeyUsage and no keyUsage.
    let key1024 = dir.join("rsa1024.key");
    let csr = dir.join("rsa1024.csr");
    let (code, out) = ossl(&[
        "req",
        "-new",
        "-newkey",
        "rsa:1024",
        "-nodes",
        "-keyout",
        &s(&key1024),
        "-subj",
        "/CN=weak.example",
        "-addext",
        "subjectAltName=DNS:weak.example",
        "-out",
        &s(&csr),
    ]);
    assert_eq!(code, Some(0), "{out}");
    let weak = dir.join("weak.pem");
    pk_ok(&[
        "issue",
        "cert",
        "--ca",
        &s(&ca),
        "--csr",
        &s(&csr),
        "-o",
        &s(&weak),
        off,
        "off",
    ]);
    cases.push((weak, "e_cabf_weak_key", "rfc5280,cabf-tls-core"));
    let zero = openssl_signs(&ca, &csr, dir, "zero.pem", b"basicConstraints=critical,CA:FALSE\nsubjectAltName=DNS:zero.example\nextendedKeyUsage=serverAuth\nauthorityKeyIdentifier=none\nsubjectKeyIdentifier=none\n", &["-set_serial", "0", "-days", "30"]);
    let noeku = openssl_signs(
        &ca,
        &csr,
        dir,
        "noeku.pem",
        b"subjectAltName=DNS:weak.example\n",
        &["-days", "30"],
    );
    cases.push((
        noeku,
        "e_cabf_eku_server_auth_missing",
        "rfc5280,cabf-tls-core",
    ));
    cases.push((zero.clone(), "e_rfc_serial_not_positive", "rfc5280"));
    cases.push((
        zero.clone(),
        "e_cabf_serial_low_entropy",
        "rfc5280,cabf-tls-core",
    ));
    cases.push((zero.clone(), "e_rfc_aki_missing", "rfc5280"));
    cases.push((zero, "w_rfc_ski_missing", "rfc5280"));
    let root = dir.join("ekuroot.pem");
    let (code, out) = ossl(&[
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:P-256",
        "-nodes",
        "-keyout",
        &s(&dir.join("ekuroot.key")),
        "-subj",
        "/CN=EKU Root",
        "-days",
        "30",
        "-addext",
        "extendedKeyUsage=serverAuth",
        "-out",
        &s(&root),
    ]);
    assert_eq!(code, Some(0), "{out}");
    cases.push((root.clone(), "e_cabf_root_eku_present", "rfc5280,cabf-tls"));
    let long_serial = dir.join("longserial.pem");
    let (code, out) = ossl(&[
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:P-256",
        "-nodes",
        "-keyout",
        &s(&dir.join("longserial.key")),
        "-subj",
        "/CN=Long Serial",
        "-days",
        "3",
        "-set_serial",
        "0x0102030405060708090a0b0c0d0e0f101112131415",
        "-out",
        &s(&long_serial),
    ]);
    assert_eq!(code, Some(0), "{out}");
    cases.push((long_serial, "e_rfc_serial_too_long", "rfc5280"));
    cases.push((root, "e_rfc_ca_key_usage_missing", "rfc5280"));

    // cabf-tls: an internal name, and a certificate signed with SHA-1 (by OpenSSL).
    cases.push((
        leaf(&ca, dir, "internal", &["--san", "DNS:app.internal"]),
        "e_cabf_internal_name",
        "rfc5280,cabf-tls",
    ));
    let sha1 = openssl_signs(
        &ca,
        &csr,
        dir,
        "sha1.pem",
        b"subjectAltName=DNS:sha1.example.com\nextendedKeyUsage=serverAuth\n",
        &["-sha1", "-days", "30"],
    );
    cases.push((
        sha1,
        "e_cabf_signature_algorithm_not_allowed",
        "rfc5280,cabf-tls",
    ));
    // A rule that ended: before BR 2.0.0 (2023-09-15) a TLS leaf named its OCSP
    // responder. A leaf of 2022 without one, from a CA made then.
    let old_ca = issue_ca(
        dir,
        "ca-2021",
        "CN=Lint CA 2021",
        &["--now", "2021-01-01T00:00:00Z", "--days", "3650"],
    );
    let old = leaf(
        &old_ca,
        dir,
        "leaf-2022",
        &[
            "--san",
            "DNS:old.example.com",
            "--not-before",
            "2022-06-01T00:00:00Z",
            "--days",
            "90",
            "--lint",
            "off",
        ],
    );
    cases.push((old, "e_cabf_ocsp_url_missing", "rfc5280,cabf-tls"));
    // keyUsage as the BR profiles have it (§7.1.2.7.11, §7.1.2.10.7): critical, and for
    // an RSA key no keyAgreement; AIA with OCSP but no caIssuers (a SHOULD).
    let ku_open = openssl_signs(
        &ca,
        &csr,
        dir,
        "ku-open.pem",
        b"subjectAltName=DNS:ku.example.com\nextendedKeyUsage=serverAuth\n\
          keyUsage=digitalSignature,keyAgreement\n\
          authorityInfoAccess=OCSP;URI:http://ocsp.example.com\n",
        &["-days", "30"],
    );
    for rule in [
        "e_cabf_leaf_key_usage_not_critical",
        "e_cabf_leaf_key_usage_prohibited",
    ] {
        cases.push((ku_open.clone(), rule, "rfc5280,cabf-tls-core"));
    }
    cases.push((ku_open, "w_cabf_aia_ca_issuers_missing", "rfc5280,cabf-tls"));
    let ca_ku_open = openssl_signs(
        &ca,
        &csr,
        dir,
        "ca-ku-open.pem",
        b"basicConstraints=critical,CA:TRUE\nkeyUsage=keyCertSign,cRLSign\n",
        &["-days", "30"],
    );
    cases.push((
        ca_ku_open,
        "e_cabf_ca_key_usage_not_critical",
        "rfc5280,cabf-tls-core",
    ));
    // Delegated OCSP responders: one without id-pkix-ocsp-nocheck (OpenSSL), one whose
    // extendedKeyUsage holds more than OCSPSigning.
    let signer = openssl_signs(
        &ca,
        &csr,
        dir,
        "signer.pem",
        b"extendedKeyUsage=OCSPSigning\nkeyUsage=critical,digitalSignature\n",
        &["-days", "30"],
    );
    cases.push((
        signer,
        "e_cabf_ocsp_signer_nocheck_missing",
        "rfc5280,cabf-tls-core",
    ));
    let t11 = template(
        "signer2",
        r#"{"ext_key_usage": ["OCSPSigning", "clientAuth"], "subject": "CN=Responder"}"#,
    );
    cases.push((
        leaf(
            &ca,
            dir,
            "signer2",
            &[
                "--template",
                &s(&t11),
                "--profile",
                "ocsp-signer",
                off,
                "off",
            ],
        ),
        "e_cabf_ocsp_signer_eku",
        "rfc5280,cabf-tls-core",
    ));
    // S/MIME (cabf-smime): each a mailbox-strict certificate (policy 2.23.140.1.5.1.3,
    // CDP, one mailbox) with one field changed (`null` drops it).
    let mailbox = serde_json::json!({
        "ext_key_usage": ["emailProtection"], "key_usage": ["digitalSignature"],
        "sans": ["email:alice@example.com"], "subject": "CN=alice@example.com",
        "crl_urls": ["http://pki.example.com/mail.crl"], "policies": ["2.23.140.1.5.1.3"],
    });
    let smime_cases: [(&str, &'static str, serde_json::Value, &[&str], &'static str); 7] = [
        (
            "smime-long",
            "e_smime_validity_too_long",
            serde_json::json!({}),
            &["--days", "900"],
            "rfc5280,cabf-smime",
        ),
        (
            "smime-eku",
            "e_smime_eku_forbidden",
            serde_json::json!({"ext_key_usage": ["emailProtection", "codeSigning"]}),
            &[],
            "rfc5280,cabf-smime",
        ),
        (
            "smime-nomail",
            "e_smime_mailbox_missing",
            serde_json::json!({"sans": ["URI:https://example.com/alice"], "subject": "CN=Alice"}),
            &[],
            "rfc5280,cabf-smime",
        ),
        (
            "smime-subject",
            "e_smime_subject_email_not_in_san",
            serde_json::json!({"subject": "CN=Alice,emailAddress=bob@example.com"}),
            &[],
            "rfc5280,cabf-smime",
        ),
        (
            "smime-nopolicy",
            "e_smime_policy_missing",
            serde_json::json!({"policies": null}),
            &[],
            "rfc5280,cabf-smime",
        ),
        (
            "smime-nocdp",
            "e_smime_crl_distribution_point_missing",
            serde_json::json!({"crl_urls": null}),
            &[],
            "rfc5280,cabf-smime",
        ),
        // Without emailProtection its contents no longer say S/MIME: `--as` does.
        (
            "smime-ekumissing",
            "e_smime_eku_email_protection_missing",
            serde_json::json!({"ext_key_usage": ["clientAuth"]}),
            &[],
            "rfc5280,cabf-smime --as smime-leaf",
        ),
    ];
    for (name, lint, change, extra, rules) in smime_cases {
        let mut json = mailbox.clone();
        for (k, v) in change.as_object().unwrap() {
            match v {
                serde_json::Value::Null => json.as_object_mut().unwrap().remove(k),
                v => json.as_object_mut().unwrap().insert(k.clone(), v.clone()),
            };
        }
        let tpl = template(name, &json.to_string());
        let mut args = vec!["--template", &s(&tpl), off, "off"]
            .into_iter()
            .map(String::from)
            .collect::<Vec<_>>();
        args.extend(extra.iter().map(|a| a.to_string()));
        let file = leaf(
            &ca,
            dir,
            name,
            &args.iter().map(String::as_str).collect::<Vec<_>>(),
        );
        cases.push((file, lint, rules));
    }
    // An S/MIME certificate for a 1024-bit key and without keyUsage, by OpenSSL.
    let smime_weak = openssl_signs(
        &ca,
        &csr,
        dir,
        "smime-weak.pem",
        b"extendedKeyUsage=emailProtection\nsubjectAltName=email:weak@example.com\n\
          certificatePolicies=2.23.140.1.5.1.3\n\
          crlDistributionPoints=URI:http://pki.example.com/mail.crl\n",
        &["-days", "30"],
    );
    cases.push((smime_weak.clone(), "e_smime_weak_key", "rfc5280,cabf-smime"));
    cases.push((
        smime_weak,
        "e_smime_key_usage_missing",
        "rfc5280,cabf-smime",
    ));
    cases
        .into_iter()
        .map(|(file, lint, rules)| {
            let mut words = rules.split_whitespace();
            let mut args = vec!["--rules", words.next().unwrap()];
            args.extend(words);
            BadCert { file, lint, args }
        })
        .collect()
}

/// The bad CRLs: an OpenSSL CRL without cRLNumber or AKI (v2, by an issuerAltName, so
/// that zlint's parser reads it) and a 30-day CRL from a CA set for public trust, signed
/// with `--lint off`.
pub fn crls(dir: &Path) -> Vec<BadCert> {
    require_openssl();
    let ca = issue_ca(dir, "crl-ca", "CN=CRL CA,O=Example,C=US", &[]);
    let index = write_file(dir, "crl-index.txt", b"");
    let cnf = write_file(
        dir,
        "crl-ca.cnf",
        format!(
            "[ca]\ndefault_ca=x\n[x]\ndatabase={}\ndefault_md=sha256\ndefault_crl_days=3\n\
             crl_extensions=crl_ext\n[crl_ext]\nissuerAltName=URI:http://pki.example.com/\n",
            s(&index)
        )
        .as_bytes(),
    );
    let v1 = dir.join("bare.crl");
    let (code, out) = ossl(&[
        "ca",
        "-gencrl",
        "-config",
        &s(&cnf),
        "-cert",
        &s(&ca.join("ca.pem")),
        "-keyfile",
        &s(&ca.join("ca.key")),
        "-out",
        &s(&v1),
    ]);
    assert_eq!(code, Some(0), "openssl ca -gencrl: {out}");
    let public = issue_ca(
        dir,
        "crl-public",
        "CN=Public CRL CA,O=Example,C=US",
        &[
            "--lint-rules",
            "rfc5280,cabf-tls",
            "--issuer-url",
            "http://pki.example.com/ca.der",
            "--crl-url",
            "http://pki.example.com/ca.crl",
        ],
    );
    let month = dir.join("bad-month.crl");
    pk_ok(&[
        "crl",
        "gen",
        "--ca",
        &s(&public),
        "--next-update",
        "30d",
        "--lint",
        "off",
        "-o",
        &s(&month),
    ]);
    let bad = |file: &PathBuf, lint, rules| BadCert {
        file: file.clone(),
        lint,
        args: vec!["--rules", rules],
    };
    vec![
        bad(&v1, "e_rfc_crl_number_missing", "rfc5280"),
        bad(&v1, "e_rfc_crl_aki_missing", "rfc5280"),
        bad(&month, "e_cabf_crl_next_update_too_far", "rfc5280,cabf-tls"),
    ]
}
