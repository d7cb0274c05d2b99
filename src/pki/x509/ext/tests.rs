//! Dispatch tests over every decoder, and the robustness sweep: truncations and
//! single-byte mutations of a valid value of each extension must give an error (with an
//! offset inside the value) or a value, never a panic.

use super::*;
use crate::der::primitives::BitString;
use crate::der::Deviations;
use crate::der::{tag, ErrorKind, Writer};

use super::samples::samples;

#[test]
fn every_decoder_has_a_sample_that_decodes() {
    let samples = samples();
    for (oid, _) in DECODERS {
        assert!(
            samples.iter().any(|(o, _)| o.as_bytes() == oid.as_bytes()),
            "no sample for {:?}",
            oid
        );
    }
    for (oid, der) in &samples {
        let v = decode(oid.id(), der, 1000);
        assert!(v.is_ok(), "{:?}: {:?}", oid, v);
        assert!(!matches!(v, Ok(ExtensionValue::Unknown(_))), "{oid:?}");
        assert!(is_known(oid.id()));
    }
}

#[test]
fn dispatch_picks_the_variant() {
    let s = samples();
    let get = |oid: &Oid| {
        s.iter()
            .find(|(o, _)| o.as_bytes() == oid.as_bytes())
            .map(|(_, d)| d.as_slice())
            .unwrap_or_default()
    };
    let der = get(&oids::CE_SUBJECT_ALT_NAME);
    assert!(matches!(
        decode(oids::CE_SUBJECT_ALT_NAME.id(), der, 0),
        Ok(ExtensionValue::SubjectAltName(v)) if v.len() == 4
    ));
    let der = get(&oids::CE_CERTIFICATE_ISSUER);
    assert!(matches!(
        decode(oids::CE_CERTIFICATE_ISSUER.id(), der, 0),
        Ok(ExtensionValue::CertificateIssuer(_))
    ));
    let der = get(&oids::CE_BASIC_CONSTRAINTS);
    assert_eq!(
        decode(oids::CE_BASIC_CONSTRAINTS.id(), der, 0),
        Ok(ExtensionValue::BasicConstraints(BasicConstraints {
            ca: true,
            path_len_constraint: Some(0)
        }))
    );
    let der = get(&oids::CE_INVALIDITY_DATE);
    let Ok(ExtensionValue::InvalidityDate(t)) = decode(oids::CE_INVALIDITY_DATE.id(), der, 0)
    else {
        panic!()
    };
    assert_eq!(t.to_string(), "2023-11-14T22:13:20Z");
    assert_eq!(
        decode(oids::PKIX_OCSP_NOCHECK.id(), &[0x05, 0x00], 0),
        Ok(ExtensionValue::OcspNoCheck)
    );
    assert_eq!(
        decode(oids::CE_INHIBIT_ANY_POLICY.id(), &[0x02, 0x01, 0x02], 0),
        Ok(ExtensionValue::InhibitAnyPolicy(2))
    );
    // invalidityDate is GeneralizedTime only: UTCTime is the wrong tag.
    let mut w = Writer::new();
    w.primitive(tag::UTC_TIME, b"231114221320Z");
    assert!(decode(oids::CE_INVALIDITY_DATE.id(), w.as_bytes(), 0).is_err());
}

#[test]
fn unknown_extensions_keep_their_bytes() {
    let oid = Oid::new("1.3.6.1.5.5.7.1.38");
    let raw = [0x30, 0x03, 0x02, 0x01, 0x07];
    assert_eq!(
        decode(oid.id(), &raw, 0),
        Ok(ExtensionValue::Unknown(&raw[..]))
    );
    // Even bytes that are not DER: an unknown value is not interpreted.
    assert_eq!(
        decode(oid.id(), &[0xff], 0),
        Ok(ExtensionValue::Unknown(&[0xff][..]))
    );
    assert!(!is_known(oid.id()));
}

#[test]
fn trailing_bytes_are_reported_after_the_value() {
    for (oid, der) in samples() {
        let mut long = der.clone();
        long.push(0x00);
        let err = decode(oid.id(), &long, 500).unwrap_err();
        assert_eq!(err.offset, 500 + der.len(), "{oid:?}");
        assert_eq!(err.kind, ErrorKind::TrailingData { count: 1 }, "{oid:?}");
    }
}

#[test]
fn lenient_mode_logs_instead_of_failing() {
    // keyUsage with a trailing zero bit and cRLReason 7.
    let log = Deviations::new();
    let ctx = Reader::lenient(&[], &log);
    let v = decode_with(&ctx, oids::CE_KEY_USAGE.id(), &[0x03, 0x02, 0x00, 0x80], 40).unwrap();
    assert!(matches!(v, ExtensionValue::KeyUsage(ku) if ku.contains(0)));
    let v = decode_with(&ctx, oids::CE_CRL_REASON.id(), &[0x0a, 0x01, 0x07], 60).unwrap();
    assert_eq!(v, ExtensionValue::CrlReason(CrlReason::Other(7)));
    let devs = log.take();
    assert_eq!(devs.iter().map(|d| d.offset).collect::<Vec<_>>(), [43, 60]);
    // Strict mode fails on the same bytes.
    assert!(decode(oids::CE_KEY_USAGE.id(), &[0x03, 0x02, 0x00, 0x80], 40).is_err());
}

/// xorshift64*: deterministic, so a failure reproduces.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

/// Decode and, on error, check the offset lies within the value. Whether the strict
/// decoder accepted it.
fn decode_checked(oid: &Oid, der: &[u8], base: usize) -> bool {
    let strict = decode(oid.id(), der, base);
    if let Err(e) = &strict {
        assert!(
            (base..=base + der.len()).contains(&e.offset),
            "{oid:?}: offset {} outside {base}..={}: {e}",
            e.offset,
            base + der.len()
        );
        // Rendering the message must not panic either.
        let _ = e.to_string();
    }
    let log = Deviations::new();
    let _ = decode_with(&Reader::lenient(&[], &log), oid.id(), der, base);
    strict.is_ok()
}

#[test]
fn truncations_fail_cleanly() {
    for (oid, der) in samples() {
        for n in 0..der.len() {
            let cut = &der[..n];
            let err = decode(oid.id(), cut, 7).unwrap_err();
            assert!(err.offset <= 7 + n, "{oid:?} cut at {n}: {err}");
            decode_checked(&oid, cut, 7);
        }
    }
}

#[test]
fn mutations_never_panic() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for (oid, der) in samples() {
        // Every position through a few interesting values, then random ones.
        for i in 0..der.len() {
            for v in [
                0x00,
                0x01,
                0x7f,
                0x80,
                0x81,
                0xff,
                der[i] ^ 0x20,
                der[i].wrapping_add(1),
            ] {
                let mut m = der.clone();
                m[i] = v;
                decode_checked(&oid, &m, 3);
            }
        }
        for _ in 0..2000 {
            let mut m = der.clone();
            let i = (rng.next() % m.len() as u64) as usize;
            m[i] = rng.next() as u8;
            // Sometimes cut as well, so mutated lengths meet short input.
            if rng.next() % 4 == 0 {
                let n = (rng.next() % (m.len() as u64 + 1)) as usize;
                m.truncate(n);
            }
            decode_checked(&oid, &m, 11);
        }
    }
}

#[test]
fn named_bits_helpers() {
    let nb = NamedBits {
        bits: BitString {
            unused_bits: 0,
            bytes: &[0x81],
        },
        names: &["a", "b"],
    };
    assert_eq!(nb.set_bits().collect::<Vec<_>>(), [0, 7]);
    assert_eq!(nb.set_names(), ["a", "bit7"]);
}

/// A longer sweep with several mutations at once, insertions and deletions: a fixed
/// sample of 4,000 per extension in the suite (a second or so in a debug build);
/// `PKIT_DEEP_MUTATIONS=50000 cargo test --lib pki::ext::tests::deep` after changing a
/// decoder sweeps further. The same seed gives the same inputs, so a failure reproduces.
#[test]
fn deep_mutations_never_panic() {
    let per_sample: u64 = match std::env::var("PKIT_DEEP_MUTATIONS") {
        Ok(v) => v
            .parse()
            .expect("PKIT_DEEP_MUTATIONS: a number of mutations"),
        Err(_) => 4_000,
    };
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for (oid, der) in samples() {
        // How the strict decoder took the mutants: a sweep that never reaches both
        // outcomes is not exercising the decoder.
        let (mut accepted, mut refused) = (0u64, 0u64);
        for _ in 0..per_sample {
            let mut m = der.clone();
            for _ in 0..=(rng.next() % 4) {
                if m.is_empty() {
                    break;
                }
                let i = (rng.next() % m.len() as u64) as usize;
                match rng.next() % 3 {
                    0 => m[i] = rng.next() as u8,
                    1 => {
                        m.remove(i);
                    }
                    _ => m.insert(i, rng.next() as u8),
                }
            }
            if decode_checked(&oid, &m, 19) {
                accepted += 1;
            } else {
                refused += 1;
            }
        }
        assert!(
            accepted > 0 && refused > 0,
            "{oid:?}: of {per_sample} mutants {accepted} decoded and {refused} failed: \
             the sweep does not reach both outcomes"
        );
    }
}

/// A public certificate as a CA issued it: the crates.io leaf from Amazon RSA 2048 M02
/// (serial 0ba1e6f16562526b7cf3e56b10f3442f, 2023-01-25), the same bytes as
/// RustCrypto's `x509-cert/tests/examples/crates.io-chain.pem`. Its ten extensions
/// include a three-SCT list that `openssl x509 -text` shows with the timestamps below.
const CRATES_IO_LEAF_B64: &[&str] = &[
    "MIIF/jCCBOagAwIBAgIQC6Hm8WViUmt88+VrEPNELzANBgkqhkiG9w0BAQsFADA8",
    "MQswCQYDVQQGEwJVUzEPMA0GA1UEChMGQW1hem9uMRwwGgYDVQQDExNBbWF6b24g",
    "UlNBIDIwNDggTTAyMB4XDTIzMDEyNTAwMDAwMFoXDTI0MDIyMzIzNTk1OVowFDES",
    "MBAGA1UEAxMJY3JhdGVzLmlvMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKC",
    "AQEA5ivp2b8HKoaSyAq/Gt4ZJbELL/FhVNXhnHmPvdhvkD6vtGSxJQhbACftNBB4",
    "Kor8zK+6o1mQSpR1SNnQ5OKJIko4s+e7p4tuFV3b4LSxh+nNBZmBTvEmb5nCVs/c",
    "78hXtLPu48Ws4rd+Ujz6ZEcGfK15X+XT04sJFoQRSnkTwhO3DsRXwUXxhckvNJen",
    "R6i0dH3Um5I7sIfzgxMFh66akg2PE8s7/oM0VCY4+9hwvWRTqpz+Byi3XO1Ph+BZ",
    "cvJhLwn4t/KdGaSU7EV8+qhNu4mP6dsjCY03Gpha1wCvlh4Vh/TsqR3R4oPhhohh",
    "+W3YdrTe8Deqs5nW9XrtB98F/QIDAQABo4IDIjCCAx4wHwYDVR0jBBgwFoAUwDFS",
    "zVpQw4J8dHHOy+mc+XrrguIwHQYDVR0OBBYEFB2jpSCo7Y3rXtxOmQPni/vQ8Ihd",
    "MFQGA1UdEQRNMEuCCWNyYXRlcy5pb4IbY2xvdWRmcm9udC1zdGF0aWMuY3JhdGVz",
    "Lmlvgg9pbmRleC5jcmF0ZXMuaW+CEHN0YXRpYy5jcmF0ZXMuaW8wDgYDVR0PAQH/",
    "BAQDAgWgMB0GA1UdJQQWMBQGCCsGAQUFBwMBBggrBgEFBQcDAjA7BgNVHR8ENDAy",
    "MDCgLqAshipodHRwOi8vY3JsLnIybTAyLmFtYXpvbnRydXN0LmNvbS9yMm0wMi5j",
    "cmwwEwYDVR0gBAwwCjAIBgZngQwBAgEwdQYIKwYBBQUHAQEEaTBnMC0GCCsGAQUF",
    "BzABhiFodHRwOi8vb2NzcC5yMm0wMi5hbWF6b250cnVzdC5jb20wNgYIKwYBBQUH",
    "MAKGKmh0dHA6Ly9jcnQucjJtMDIuYW1hem9udHJ1c3QuY29tL3IybTAyLmNlcjAM",
    "BgNVHRMBAf8EAjAAMIIBfgYKKwYBBAHWeQIEAgSCAW4EggFqAWgAdwDuzdBk1dsa",
    "zsVct520zROiModGfLzs3sNRSFlGcR+1mwAAAYXoOwzkAAAEAwBIMEYCIQDx3bii",
    "KZKB7CKHMUq25cNLF5RGhfqjRl0TfA1EUJw8ngIhANii/IksRi+gF3VZuqf+NpE6",
    "hamc+2sTJYmG/ICe7H3UAHUAc9meiRtMlnigIH1HneayxhzQUV5xGSqMa4AQesF3",
    "crUAAAGF6DsNTgAABAMARjBEAiBGBvFbTLCHkRTM71r0wslHjcary8UmGQ7rd7ws",
    "mZcoBAIgPZYVni2CIK0+U7aijle1LqEPDI2UtgnFtrKGefXhdAUAdgBIsONr2qZH",
    "NA/lagL6nTDrHFIBy1bdLIHZu7+rOdiEcwAAAYXoOw0UAAAEAwBHMEUCIE39dFmq",
    "xAUUmiJiGW9HS0/VbEIt0wC9VI0jCli9T28kAiEAx19Sl2Hzh62E0tISm5p1vmGr",
    "K3J+m3u3fm5+YcuCdUUwDQYJKoZIhvcNAQELBQADggEBAI3+jl3AGFqBVq3Amo97",
    "u86v/zHykGQQFvb9LyFdhIhw8OmI/C89YmUy+ZEVsc0GBO5jf3Xr/tUDidggbRva",
    "ajaR1lv5hWC6HjASg4dX/88ew5eKxV9ddjcNb15bzuxWPLw+X2NAq9S+QRnkDZkr",
    "/VW0rYSnu3YOEwxys56JSDzHx/UWqkUHb1bsO6ixxN8sbKjM4UDeB9WHvLHO85B8",
    "b5rgtqrT2vIqO1wtxxo3TY72eDEqu8N1MfatTEaOaJEQu86meGO7Wbx6QQX3OJc3",
    "ulPbBw+/o2sXvYxy251skJRwvyi00dGhxGSlRmbGGmXpWY97CPkY1iJwQ73uJ4qx",
    "Uj0=",
];

#[test]
fn real_certificate_extensions() {
    use base64::Engine;
    let der = base64::engine::general_purpose::STANDARD
        .decode(CRATES_IO_LEAF_B64.concat())
        .unwrap();
    let cert = crate::cert::Certificate::from_der(&der).unwrap();
    let exts = cert.extensions.unwrap().list().unwrap();
    assert_eq!(exts.len(), 10);
    let mut seen = Vec::new();
    for e in &exts {
        let v = decode(e.oid, e.value, e.value_offset).unwrap();
        assert!(!matches!(v, ExtensionValue::Unknown(_)), "{}", e.oid);
        match v {
            ExtensionValue::SubjectAltName(names) => {
                assert_eq!(names.len(), 4);
                assert_eq!(names[0], GeneralName::DnsName("crates.io".into()));
            }
            ExtensionValue::KeyUsage(ku) => {
                assert_eq!(ku.set_names(), ["digitalSignature", "keyEncipherment"]);
            }
            ExtensionValue::AuthorityKeyIdentifier(aki) => {
                assert_eq!(aki.key_identifier.map(<[u8]>::len), Some(20));
            }
            ExtensionValue::CertificatePolicies(p) => {
                assert_eq!(p[0].policy_identifier, oids::CABF_DV);
            }
            ExtensionValue::SctList(list) => {
                let times: Vec<u64> = list
                    .scts
                    .iter()
                    .filter_map(|s| s.v1.map(|v| v.timestamp_ms))
                    .collect();
                // Jan 25 09:21:02.180 / .286 / .228 2023 GMT.
                assert_eq!(
                    times,
                    [1_674_638_462_180, 1_674_638_462_286, 1_674_638_462_228]
                );
            }
            ExtensionValue::BasicConstraints(bc) => assert!(!bc.ca),
            _ => {}
        }
        seen.push(e.oid.name().unwrap_or_default());
    }
    assert_eq!(
        seen,
        [
            "authorityKeyIdentifier",
            "subjectKeyIdentifier",
            "subjectAltName",
            "keyUsage",
            "extendedKeyUsage",
            "cRLDistributionPoints",
            "certificatePolicies",
            "authorityInfoAccess",
            "basicConstraints",
            "ctPrecertificateSCTs"
        ]
    );
}
