//! Certificate profiles: which extensions a certificate gets, by its role and key type
//! (RFC 5280 §4.2.1.3 keyUsage, §4.2.1.9 basicConstraints, §4.2.1.12 extKeyUsage).
//! The AKI of a certificate is its issuer's SKI ([`pkit_x509::ext::key_identifier`]).

use crate::der::oid_registry as oids;
use crate::der::{Oid, Writer};
use crate::pointers::Pointers;
use pkit_x509::alg::Algorithm;
use pkit_x509::ext::ku;
use pkit_x509::ext::write::ext;
use pkit_x509::manifest::{ManifestError, ManifestLine};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
/// What a certificate is for: the key usages, extended key usages and basicConstraints
/// the CA gives it.
pub enum Profile {
    /// A TLS server (serverAuth).
    Server,
    /// A TLS client (clientAuth).
    Client,
    /// A TLS server that is also a client (serverAuth and clientAuth).
    ServerClient,
    /// A code signer (codeSigning).
    CodeSigning,
    /// A delegated OCSP responder (OCSPSigning, RFC 6960 §4.2.2.2).
    OcspSigner,
    /// A subordinate CA (basicConstraints cA; keyCertSign, cRLSign and digitalSignature).
    Ca,
}

impl Profile {
    /// Every profile, in the order help lists them.
    pub const ALL: [Profile; 6] = [
        Profile::Server,
        Profile::Client,
        Profile::ServerClient,
        Profile::CodeSigning,
        Profile::OcspSigner,
        Profile::Ca,
    ];

    /// The profile a name on the command line or in a template means (case ignored), if any.
    pub fn from_name(s: &str) -> Option<Profile> {
        Some(match s.to_ascii_lowercase().as_str() {
            "server" | "tls-server" => Profile::Server,
            "client" | "tls-client" => Profile::Client,
            "server-client" | "serverclient" => Profile::ServerClient,
            "code-signing" | "codesigning" => Profile::CodeSigning,
            "ocsp-signer" | "ocsp" => Profile::OcspSigner,
            "ca" => Profile::Ca,
            _ => return None,
        })
    }

    /// The profile a manifest line names, if it names one; an unknown name is the line's
    /// error.
    pub fn of_line(line: &ManifestLine) -> Result<Option<Profile>, ManifestError> {
        line.profile
            .as_deref()
            .map(|s| {
                Profile::from_name(s).ok_or_else(|| line.error(format!("unknown profile '{s}'")))
            })
            .transpose()
    }

    /// The profile's canonical name, as the CA records it.
    pub fn name(self) -> &'static str {
        match self {
            Profile::Server => "server",
            Profile::Client => "client",
            Profile::ServerClient => "server-client",
            Profile::CodeSigning => "code-signing",
            Profile::OcspSigner => "ocsp-signer",
            Profile::Ca => "ca",
        }
    }

    fn ekus(self) -> &'static [Oid] {
        match self {
            Profile::Server => &[oids::KP_SERVER_AUTH],
            Profile::Client => &[oids::KP_CLIENT_AUTH],
            Profile::ServerClient => &[oids::KP_SERVER_AUTH, oids::KP_CLIENT_AUTH],
            Profile::CodeSigning => &[oids::KP_CODE_SIGNING],
            Profile::OcspSigner => &[oids::KP_OCSP_SIGNING],
            Profile::Ca => &[],
        }
    }
}

/// What the extensions depend on besides the profile.
pub(crate) struct ExtensionInputs<'a> {
    /// The profile the extensions are written for.
    pub profile: Profile,
    /// The subject key's algorithm; `None` when it is not one pkit generates (a CSR's key).
    pub key_alg: Option<Algorithm>,
    /// The subject key identifier to write (RFC 5280 §4.2.1.2).
    pub subject_key_id: [u8; 20],
    /// The issuer's SKI (absent for a self-signed root, whose AKI equals its SKI).
    pub authority_key_id: Option<&'a [u8]>,
    /// The pathLenConstraint, for the CA profile.
    pub path_len: Option<u32>,
    /// Encoded GeneralName TLVs.
    pub sans: &'a [Vec<u8>],
    /// True when the subject Name is empty: the SAN must then be critical.
    pub subject_empty: bool,
    /// Where relying parties find the issuer's OCSP responder, certificate and CRL.
    pub pointers: &'a Pointers,
    /// A nameConstraints value (critical) for a CA certificate.
    pub name_constraints: Option<&'a [u8]>,
    /// Extensions copied from a CSR (full Extension TLVs), placed after pkit's own; any
    /// OID pkit sets itself is skipped there.
    pub copied: &'a [(Vec<u8>, Vec<u8>)],
    /// The copied extensions are a template's: its basicConstraints, keyUsage,
    /// extKeyUsage and ocspNoCheck replace the profile's (the key identifiers stay
    /// pkit's).
    pub copied_wins: bool,
}

impl Profile {
    /// Whether a certificate of this profile names its subject in a SAN to be usable:
    /// TLS clients match server names only there (RFC 6125 §6.4.4 retired the CN
    /// fallback), and client authentication is matched the same way by current servers.
    pub fn needs_san(self) -> bool {
        matches!(
            self,
            Profile::Server | Profile::Client | Profile::ServerClient
        )
    }
}

/// Write the extension list (the elements of `Extensions`, without the outer SEQUENCE).
pub(crate) fn write_extensions(w: &mut Writer, x: &ExtensionInputs<'_>) {
    let is_ca = x.profile == Profile::Ca;
    let templated =
        |o: &Oid| x.copied_wins && x.copied.iter().any(|(c, _)| c.as_slice() == o.as_bytes());
    let own_bc = !templated(&oids::CE_BASIC_CONSTRAINTS);
    if own_bc {
        write_basic_constraints(w, is_ca, x.path_len);
    }
    if !templated(&oids::CE_KEY_USAGE) {
        write_key_usage(w, x);
    }
    let ekus = x.profile.ekus();
    if !ekus.is_empty() && !templated(&oids::CE_EXT_KEY_USAGE) {
        ext(w, &oids::CE_EXT_KEY_USAGE, false, |w| {
            w.sequence(|w| {
                for o in ekus {
                    w.oid(o);
                }
            });
        });
    }
    if x.profile == Profile::OcspSigner && !templated(&oids::PKIX_OCSP_NOCHECK) {
        // RFC 6960 §4.2.2.2.1: responders' certificates need not be checked for revocation.
        ext(w, &oids::PKIX_OCSP_NOCHECK, false, |w| {
            w.null();
        });
    }
    write_key_ids(w, x);
    write_rest(w, x);
}

fn write_basic_constraints(w: &mut Writer, is_ca: bool, path_len: Option<u32>) {
    ext(w, &oids::CE_BASIC_CONSTRAINTS, true, |w| {
        w.sequence(|w| {
            if is_ca {
                w.boolean(true);
                if let Some(n) = path_len {
                    w.integer_u64(u64::from(n));
                }
            }
        });
    });
}

fn write_key_usage(w: &mut Writer, x: &ExtensionInputs<'_>) {
    let is_ca = x.profile == Profile::Ca;
    let mut bits = Vec::new();
    if is_ca {
        bits.extend([ku::DIGITAL_SIGNATURE, ku::KEY_CERT_SIGN, ku::CRL_SIGN]);
    } else {
        bits.push(ku::DIGITAL_SIGNATURE);
        // keyEncipherment only makes sense for RSA key transport (TLS 1.2 RSA kx).
        let rsa = x.key_alg.is_some_and(Algorithm::is_rsa);
        if rsa && matches!(x.profile, Profile::Server | Profile::ServerClient) {
            bits.push(ku::KEY_ENCIPHERMENT);
        }
    }
    ext(w, &oids::CE_KEY_USAGE, true, |w| {
        w.named_bits(&bits);
    });
}

fn write_key_ids(w: &mut Writer, x: &ExtensionInputs<'_>) {
    ext(w, &oids::CE_SUBJECT_KEY_ID, false, |w| {
        w.octet_string(&x.subject_key_id);
    });
    let aki = x.authority_key_id.unwrap_or(&x.subject_key_id);
    ext(w, &oids::CE_AUTHORITY_KEY_ID, false, |w| {
        w.sequence(|w| {
            w.primitive(crate::der::tag::implicit(0), aki);
        });
    });
}

/// SANs, pointers, constraints, then the copied extensions.
fn write_rest(w: &mut Writer, x: &ExtensionInputs<'_>) {
    if !x.sans.is_empty() {
        ext(w, &oids::CE_SUBJECT_ALT_NAME, x.subject_empty, |w| {
            w.sequence(|w| {
                for s in x.sans {
                    w.raw(s);
                }
            });
        });
    }
    x.pointers.write(w);
    if let Some(nc) = x.name_constraints {
        ext(w, &oids::CE_NAME_CONSTRAINTS, true, |w| {
            w.raw(nc);
        });
    }
    // The profile decides these; a CSR's SAN, pointers and constraints are kept unless
    // the CA set its own.
    let own: [&Oid; 6] = [
        &oids::CE_BASIC_CONSTRAINTS,
        &oids::CE_KEY_USAGE,
        &oids::CE_EXT_KEY_USAGE,
        &oids::CE_SUBJECT_KEY_ID,
        &oids::CE_AUTHORITY_KEY_ID,
        &oids::PKIX_OCSP_NOCHECK,
    ];
    let p = x.pointers;
    let replaced: [(&Oid, bool); 4] = [
        (&oids::CE_SUBJECT_ALT_NAME, !x.sans.is_empty()),
        (
            &oids::PE_AUTHORITY_INFO_ACCESS,
            !p.ocsp.is_empty() || !p.ca_issuers.is_empty(),
        ),
        (&oids::CE_CRL_DIST_POINTS, !p.crl.is_empty()),
        (&oids::CE_NAME_CONSTRAINTS, x.name_constraints.is_some()),
    ];
    // A template's own are written in place of the profile's (above, they were not).
    let own: &[&Oid] = if x.copied_wins { &own[3..5] } else { &own };
    for (oid, raw) in x.copied {
        let is = |o: &Oid| o.as_bytes() == oid.as_slice();
        let set_here = replaced.iter().any(|(o, set)| *set && is(o));
        if !set_here && !own.iter().any(|o| is(o)) {
            w.raw(raw);
        }
    }
}
