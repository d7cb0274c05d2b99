//! A root and an intermediate under it made into temporary directories, and what a new
//! CA refuses before anything is made.

use super::*;
use crate::der::{oid_registry as oids, Writer};
use crate::pointers::Pointers;
use crate::store::SqliteCaStore;
use pkit_openssl as openssl;
use pkit_x509::alg::Algorithm;

fn name(cn: &str) -> Vec<u8> {
    let mut w = Writer::new();
    w.sequence(|w| {
        w.set(|w| {
            w.sequence(|w| {
                w.oid(&oids::AT_COMMON_NAME);
                w.utf8_string(cn);
            });
        });
    });
    w.finish()
}

fn new_ca(cn: &str) -> NewCa {
    NewCa {
        subject: name(cn),
        subject_text: format!("CN={cn}"),
        settings: CaSettings::default(),
        path_len: None,
        name_constraints: None,
        not_before: Time::now(),
        days: None,
        clip: false,
        lint: GateMode::Enforce,
    }
}

#[test]
fn what_a_new_ca_refuses_first() {
    let d = tempfile::tempdir().unwrap();
    check_free(d.path()).unwrap();
    std::fs::write(d.path().join(KEY_FILE), "x").unwrap();
    assert!(matches!(check_free(d.path()), Err(CreateError::Exists(p)) if p.ends_with(KEY_FILE)));

    let mut ca = new_ca("x");
    ca.check().unwrap();
    ca.subject = vec![0x30, 0x00];
    assert!(matches!(ca.check(), Err(CreateError::EmptySubject)));
    let mut ca = new_ca("x");
    ca.settings.lint_rules = pkit_lint::Rules::parse("rfc5280,cabf-tls").unwrap();
    assert!(matches!(ca.check(), Err(CreateError::PublicTrustPointers)));
    ca.settings.pointers = Pointers {
        ca_issuers: vec!["http://ca.example/ca.der".into()],
        crl: vec!["http://ca.example/ca.crl".into()],
        ..Pointers::default()
    };
    ca.check().unwrap();
}

#[test]
fn validity_by_default_and_as_asked() {
    let mut ca = new_ca("x");
    let nb = ca.not_before;
    assert_eq!(ca.not_after(false), validity::not_after_for(nb, ROOT_DAYS));
    assert_eq!(
        ca.not_after(true),
        validity::not_after_for(nb, validity::default_days(Profile::Ca, nb))
    );
    ca.days = Some(7);
    assert_eq!(ca.not_after(true), validity::not_after_for(nb, 7));
}

#[test]
fn a_root_then_an_intermediate_under_it() {
    let be = openssl::backend();
    let base = tempfile::tempdir().unwrap();
    let (root_dir, sub_dir) = (base.path().join("root"), base.path().join("sub"));

    let root = new_ca("Root");
    let root_key = be.generate(Algorithm::EcdsaP256).unwrap();
    let made = root.self_signed(root_key.as_ref()).unwrap();
    assert!(made.chain.is_none() && made.root.is_none());
    let written = root.write(&root_dir, &made, b"the key", None).unwrap();
    assert_eq!(std::fs::read(&written.key).unwrap(), b"the key");
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&written.key)
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o077, 0, "ca.key is its owner's alone");
    }
    assert!(root_dir.join(DB_FILE).is_file());
    assert_eq!(CaSettings::load(&root_dir).unwrap(), root.settings);
    assert_eq!(ca_files::ca_certificate(&root_dir).unwrap(), made.der);
    assert_eq!((written.chain, written.root), (None, None));
    // Written once: a second CA is not made over it.
    assert!(matches!(
        root.write(&root_dir, &made, b"another key", None),
        Err(CreateError::Io(_, e)) if e.kind() == std::io::ErrorKind::AlreadyExists
    ));

    let parent = Issuer::new(made.der.clone(), root_key).unwrap();
    let mut parent_store = SqliteCaStore::open(&root_dir.join(DB_FILE)).unwrap();
    let sub = NewCa {
        path_len: Some(0),
        ..new_ca("Sub")
    };
    let sub_key = be.generate(Algorithm::Ed25519).unwrap();
    let cert = sub
        .under(sub_key.as_ref(), &parent, &root_dir, &mut parent_store)
        .unwrap();
    let issued = parent_store.list().unwrap();
    assert_eq!(issued.len(), 1, "the parent records what it signed");
    assert_eq!(
        (issued[0].der.clone(), issued[0].profile.as_str()),
        (cert.der.clone(), "ca")
    );
    assert_eq!(issued[0].subject, "CN=Sub");
    // Under a root: the chain is the intermediate alone, the anchor the root.
    assert_eq!(
        cert.chain.as_deref(),
        Some(pem::encode("CERTIFICATE", &cert.der).as_str())
    );
    assert_eq!(cert.root, Some(pem::encode("CERTIFICATE", &made.der)));
    assert!(matches!(
        check_unused(&parent_store),
        Err(CreateError::RecordsInUse(1))
    ));

    let written = sub.write(&sub_dir, &cert, b"sub key", None).unwrap();
    assert_eq!(written.chain, Some(sub_dir.join(CHAIN_FILE)));
    assert_eq!(written.root, Some(sub_dir.join(ROOT_FILE)));
    assert_eq!(
        ca_files::chain_to_anchor(&sub_dir).unwrap(),
        vec![cert.der.clone(), made.der.clone()]
    );
    check_unused(&SqliteCaStore::open(&sub_dir.join(DB_FILE)).unwrap()).unwrap();

    // A CA with pathLenConstraint 0 certifies no CA: refused, nothing recorded.
    let below = Issuer::new(cert.der.clone(), sub_key).unwrap();
    let mut below_store = SqliteCaStore::open(&sub_dir.join(DB_FILE)).unwrap();
    let third_key = be.generate(Algorithm::Ed25519).unwrap();
    let refused = new_ca("Third").under(third_key.as_ref(), &below, &sub_dir, &mut below_store);
    assert!(matches!(refused, Err(CreateError::Ca(CaError::Refused(_)))));
    assert_eq!(below_store.count().unwrap(), 0);
}
