//! PKCS#11 URIs (RFC 7512): which module, token and object a key is.
//!
//! ```text
//! pkcs11:token=CA;object=root-key;type=private?module-path=/usr/lib/softhsm/libsofthsm2.so&pin-source=file:/run/pin
//! ```
//!
//! Path attributes (`;`-separated) select the token and the object; query attributes
//! (`&`-separated, after `?`) say how to reach the module and the PIN. Values are
//! percent-encoded. `x-` attributes are vendor extensions: pkit reads `x-nss-db` (the
//! NSS database directory softoken is initialised with) and ignores the others, as the
//! RFC asks; any other attribute it does not know makes the URI unusable, because a
//! URI that selects by something pkit cannot check might pick the wrong key.

#![forbid(unsafe_code)]

use std::fmt;

/// A parsed PKCS#11 URI. Every field is optional: an absent one matches anything.
/// `Debug` and `Display` leave the PIN out.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct KeyUri {
    /// `token`: the token's label (CK_TOKEN_INFO `label`).
    pub token: Option<String>,
    /// `manufacturer`: the token's manufacturer ID.
    pub manufacturer: Option<String>,
    /// `serial`: the token's serial number.
    pub serial: Option<String>,
    /// `model`: the token's model.
    pub model: Option<String>,
    /// `slot-id`: the slot the token is in.
    pub slot_id: Option<u64>,
    /// `object`: the object's label (CKA_LABEL).
    pub object: Option<String>,
    /// `id`: the object's CKA_ID, percent-decoded to bytes.
    pub id: Option<Vec<u8>>,
    /// `private`, `public`, `cert`, `secret-key` or `data`.
    pub object_type: Option<String>,
    /// `module-path`: the module's file.
    pub module_path: Option<String>,
    /// `module-name`: the module's name, looked for in the module directories.
    pub module_name: Option<String>,
    /// Where the PIN comes from (`pin-source`): a path, or one of `--pin`'s forms.
    pub pin_source: Option<String>,
    /// The PIN itself (`pin-value`). Never printed: [`KeyUri`]'s `Display` leaves it out.
    pub pin_value: Option<String>,
    /// `x-nss-db`: the directory of an NSS database, for NSS's softoken.
    pub nss_db: Option<String>,
}

impl fmt::Debug for KeyUri {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "KeyUri({self})")
    }
}

/// What is wrong with a URI, for a message that names the URI (without its PIN). It
/// names attributes, never their values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UriError(pub String);

impl fmt::Display for UriError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UriError {}

/// Whether `s` is a PKCS#11 URI rather than a file name.
pub fn is_pkcs11_uri(s: &str) -> bool {
    s.as_bytes()
        .get(..7)
        .is_some_and(|p| p.eq_ignore_ascii_case(b"pkcs11:"))
}

/// The key URI a key argument stands for: the argument itself when it is a URI, else
/// the text of the file it names when that holds one (another token CA's `ca.key`,
/// trimmed); `None` for anything else (a key file, or no file at all: the caller reads it
/// as a key and says what is wrong).
pub fn key_uri_in(spec: &str) -> Option<String> {
    if is_pkcs11_uri(spec) {
        return Some(spec.to_string());
    }
    std::fs::read_to_string(spec)
        .ok()
        .map(|t| t.trim().to_string())
        .filter(|t| is_pkcs11_uri(t))
}

impl KeyUri {
    /// Parse an RFC 7512 URI (`pkcs11:` path attributes `;`-separated, then `?` query
    /// attributes `&`-separated, values percent-decoded).
    pub fn parse(s: &str) -> Result<KeyUri, UriError> {
        if !is_pkcs11_uri(s) {
            return Err(UriError("expected a URI starting with pkcs11:".into()));
        }
        let rest = &s[7..];
        let (path, query) = match rest.split_once('?') {
            Some((p, q)) => (p, Some(q)),
            None => (rest, None),
        };
        let mut u = KeyUri::default();
        for (i, attr) in path.split(';').filter(|a| !a.is_empty()).enumerate() {
            // Named by position, not by text: the text could be a PIN typed in error.
            let (name, raw) = attr.split_once('=').ok_or_else(|| {
                UriError(format!("path attribute {}: expected NAME=VALUE", i + 1))
            })?;
            let value = || decode_text(name, raw);
            let slot = match name {
                "token" => &mut u.token,
                "manufacturer" => &mut u.manufacturer,
                "serial" => &mut u.serial,
                "model" => &mut u.model,
                "object" => &mut u.object,
                "type" => &mut u.object_type,
                // The PIN attributes' older place (RFC 7512 has them in the query).
                "pin-value" => &mut u.pin_value,
                "pin-source" => &mut u.pin_source,
                "id" => {
                    set_once(&mut u.id, name, decode(name, raw)?)?;
                    continue;
                }
                "slot-id" => {
                    let v = value()?;
                    let n = v
                        .bytes()
                        .all(|b| b.is_ascii_digit())
                        .then(|| v.parse().ok())
                        .flatten()
                        .ok_or_else(|| UriError("slot-id: expected a number".into()))?;
                    set_once(&mut u.slot_id, name, n)?;
                    continue;
                }
                // pkit does not select by these: it refuses them rather than ignore a
                // condition the URI sets.
                n @ ("library-manufacturer"
                | "library-description"
                | "library-version"
                | "slot-description"
                | "slot-manufacturer") => {
                    return Err(UriError(format!(
                        "path attribute '{n}' is not supported: name the module with \
                         module-path and the token with token= or slot-id="
                    )))
                }
                n if n.starts_with("x-") => {
                    value()?;
                    continue;
                }
                n => return Err(UriError(format!("unknown path attribute '{n}'"))),
            };
            set_once(slot, name, value()?)?;
        }
        for (i, attr) in query
            .into_iter()
            .flat_map(|q| q.split('&'))
            .filter(|a| !a.is_empty())
            .enumerate()
        {
            let (name, raw) = attr.split_once('=').ok_or_else(|| {
                UriError(format!("query attribute {}: expected NAME=VALUE", i + 1))
            })?;
            let slot = match name {
                "module-path" => &mut u.module_path,
                "module-name" => &mut u.module_name,
                "pin-source" => &mut u.pin_source,
                "pin-value" => &mut u.pin_value,
                "x-nss-db" => &mut u.nss_db,
                n if n.starts_with("x-") => continue,
                n => return Err(UriError(format!("unknown query attribute '{n}'"))),
            };
            set_once(slot, name, decode_text(name, raw)?)?;
        }
        if u.pin_source
            .as_deref()
            .is_some_and(|p| p.starts_with("pass:"))
        {
            return Err(UriError(
                "pin-source=pass:… would keep the PIN where messages show the URI: give it \
                 with --pin or pin-value, which pkit never prints"
                    .into(),
            ));
        }
        if u.nss_db
            .as_deref()
            .is_some_and(|d| d.contains(['\'', '\0']))
        {
            return Err(UriError(
                "x-nss-db: a directory name with a quote or NUL cannot be passed to softoken"
                    .into(),
            ));
        }
        if let Some(t) = &u.object_type {
            if !matches!(
                t.as_str(),
                "private" | "public" | "cert" | "secret-key" | "data"
            ) {
                return Err(UriError(format!(
                    "type '{t}': expected private, public, cert, secret-key or data"
                )));
            }
        }
        Ok(u)
    }

    /// The URI without its PIN value: what messages, JSON and the CA directory hold.
    pub fn without_pin(&self) -> KeyUri {
        KeyUri {
            pin_value: None,
            ..self.clone()
        }
    }
}

/// The URI in its canonical form, `pin-value` left out (a PIN is never printed).
impl fmt::Display for KeyUri {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut path: Vec<String> = Vec::new();
        let mut text = |name: &str, v: &Option<String>| {
            if let Some(v) = v {
                path.push(format!("{name}={}", encode(v.as_bytes())));
            }
        };
        text("token", &self.token);
        text("manufacturer", &self.manufacturer);
        text("serial", &self.serial);
        text("model", &self.model);
        text("object", &self.object);
        text("type", &self.object_type);
        if let Some(id) = &self.id {
            path.push(format!("id={}", encode_all(id)));
        }
        if let Some(n) = self.slot_id {
            path.push(format!("slot-id={n}"));
        }
        let mut query: Vec<String> = Vec::new();
        for (name, v) in [
            ("module-path", &self.module_path),
            ("module-name", &self.module_name),
            ("pin-source", &self.pin_source),
            ("x-nss-db", &self.nss_db),
        ] {
            if let Some(v) = v {
                query.push(format!("{name}={}", encode(v.as_bytes())));
            }
        }
        write!(f, "pkcs11:{}", path.join(";"))?;
        if !query.is_empty() {
            write!(f, "?{}", query.join("&"))?;
        }
        Ok(())
    }
}

fn set_once<T>(slot: &mut Option<T>, name: &str, v: T) -> Result<(), UriError> {
    if slot.is_some() {
        return Err(UriError(format!("attribute '{name}' given twice")));
    }
    *slot = Some(v);
    Ok(())
}

/// Percent-decoding (RFC 3986 §2.1).
fn decode(name: &str, s: &str) -> Result<Vec<u8>, UriError> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = b
                .get(i + 1..i + 3)
                .filter(|h| h.iter().all(u8::is_ascii_hexdigit))
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or_else(|| {
                    UriError(format!(
                        "attribute '{name}': '%' must be followed by two hex digits"
                    ))
                })?;
            out.push(hex);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Ok(out)
}

fn decode_text(name: &str, s: &str) -> Result<String, UriError> {
    String::from_utf8(decode(name, s)?)
        .map_err(|_| UriError(format!("attribute '{name}': not UTF-8 once decoded")))
}

/// Percent-encode what RFC 7512's `pchar` does not allow as it stands.
fn encode(b: &[u8]) -> String {
    let mut s = String::with_capacity(b.len());
    for &c in b {
        if c.is_ascii_alphanumeric() || b"-._~:[]@!$'()*+,/".contains(&c) {
            s.push(c as char);
        } else {
            s.push_str(&format!("%{c:02X}"));
        }
    }
    s
}

/// Every byte percent-encoded: the RFC's form for `id`.
fn encode_all(b: &[u8]) -> String {
    b.iter().map(|c| format!("%{c:02X}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_argument_is_a_uri_or_a_file_holding_one() {
        let uri = "pkcs11:token=CA;object=ca%20key";
        assert_eq!(key_uri_in(uri).as_deref(), Some(uri));
        assert_eq!(
            key_uri_in("PKCS11:object=x").as_deref(),
            Some("PKCS11:object=x")
        );
        let d = tempfile::tempdir().unwrap();
        let (holds, pem) = (d.path().join("ca.key"), d.path().join("key.pem"));
        std::fs::write(&holds, format!("{uri}\n")).unwrap();
        std::fs::write(&pem, "-----BEGIN PRIVATE KEY-----\n").unwrap();
        assert_eq!(key_uri_in(holds.to_str().unwrap()).as_deref(), Some(uri));
        assert_eq!(key_uri_in(pem.to_str().unwrap()), None);
        assert_eq!(key_uri_in(d.path().join("absent").to_str().unwrap()), None);
    }

    #[test]
    fn reads_the_rfcs_examples() {
        let u = KeyUri::parse(
            "pkcs11:token=The%20Software%20PKCS%2311%20Softtoken;manufacturer=Snake%20Oil,%20Inc.;model=1.0;object=my-certificate;type=cert;id=%69%95%3E%5C%F4%BD%EC%91;serial=?pin-source=file:/etc/token_pin",
        )
        .unwrap();
        assert_eq!(u.token.as_deref(), Some("The Software PKCS#11 Softtoken"));
        assert_eq!(u.manufacturer.as_deref(), Some("Snake Oil, Inc."));
        assert_eq!(u.object.as_deref(), Some("my-certificate"));
        assert_eq!(u.object_type.as_deref(), Some("cert"));
        assert_eq!(
            u.id.as_deref(),
            Some(&[0x69, 0x95, 0x3e, 0x5c, 0xf4, 0xbd, 0xec, 0x91][..])
        );
        assert_eq!(u.serial.as_deref(), Some(""));
        assert_eq!(u.pin_source.as_deref(), Some("file:/etc/token_pin"));
        assert_eq!(KeyUri::parse("pkcs11:").unwrap(), KeyUri::default());
        let u = KeyUri::parse("pkcs11:object=a?module-name=softhsm2&x-vendor=1").unwrap();
        assert_eq!(u.module_name.as_deref(), Some("softhsm2"));
    }

    #[test]
    fn the_pin_is_never_printed() {
        let u = KeyUri::parse(
            "pkcs11:token=CA;object=k?module-path=/usr/lib/softhsm/libsofthsm2.so&pin-value=1234",
        )
        .unwrap();
        assert_eq!(u.pin_value.as_deref(), Some("1234"));
        let shown = u.to_string();
        assert!(!shown.contains("1234"), "{shown}");
        assert_eq!(
            shown,
            "pkcs11:token=CA;object=k?module-path=/usr/lib/softhsm/libsofthsm2.so"
        );
        assert_eq!(KeyUri::parse(&shown).unwrap(), u.without_pin());
    }

    #[test]
    fn round_trips_through_its_text() {
        let u = KeyUri {
            token: Some("my token; with ?&=%".into()),
            object: Some("ca key".into()),
            id: Some(vec![0, 1, 0xff]),
            slot_id: Some(7),
            nss_db: Some("/tmp/nss db".into()),
            ..KeyUri::default()
        };
        assert_eq!(KeyUri::parse(&u.to_string()).unwrap(), u);
    }

    #[test]
    fn refuses_what_it_cannot_honour() {
        for (bad, why) in [
            ("file:/x", "pkcs11:"),
            ("pkcs11:token", "NAME=VALUE"),
            ("pkcs11:tokne=x", "unknown path attribute 'tokne'"),
            ("pkcs11:token=a;token=b", "given twice"),
            ("pkcs11:id=%zz", "two hex digits"),
            ("pkcs11:id=%4", "two hex digits"),
            ("pkcs11:object=%ff", "not UTF-8"),
            ("pkcs11:type=secret", "type 'secret'"),
            ("pkcs11:slot-id=x", "slot-id"),
            ("pkcs11:?pin=1", "unknown query attribute 'pin'"),
            ("pkcs11:id=%+F", "two hex digits"),
            ("pkcs11:slot-id=+7", "slot-id"),
            ("pkcs11:slot-description=x", "not supported"),
            ("pkcs11:object=k?pin-source=pass:1234", "pin-source=pass:"),
            ("pkcs11:?x-nss-db=/a'b", "x-nss-db"),
        ] {
            let e = KeyUri::parse(bad).unwrap_err();
            assert!(e.0.contains(why), "{bad}: {e}");
            assert!(!e.0.contains("1234"), "{bad}: the PIN is in {e}");
        }
        // Attributes without a value are named by position, not by their text.
        let e = KeyUri::parse("pkcs11:token=a?1234").unwrap_err();
        assert!(
            !e.0.contains("1234") && e.0.contains("query attribute 1"),
            "{e}"
        );
        // Non-ASCII text is no URI, and no panic.
        assert!(!is_pkcs11_uri("ключ.pem") && !is_pkcs11_uri("pkcs11é") && !is_pkcs11_uri(""));
        // The PIN in the path (the older form) is read, and shown nowhere.
        let u = KeyUri::parse("pkcs11:token=CA;pin-value=1234").unwrap();
        assert_eq!(u.pin_value.as_deref(), Some("1234"));
        assert!(!u.to_string().contains("1234") && !format!("{u:?}").contains("1234"));
    }
}
