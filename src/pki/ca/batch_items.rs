//! What a batch issues, as [`BatchItem`]s: `count` certificates named by templates
//! (`pkit issue batch --count`, and `pkit bench`'s `cert_gen`), or the lines of a JSONL
//! manifest (`--from`), each filled in from the batch's defaults where it says nothing.

use crate::batch::BatchItem;
use crate::der::Time;
use crate::profile::Profile;
use crate::validity;
use pkit_x509::alg::Algorithm;
use pkit_x509::manifest::{ManifestError, ManifestLine};
use pkit_x509::san::{parse_san, SanError};
use pkit_x509::subject::{parse_subject, SubjectError};
use std::fmt;

/// The subject template of a numbered batch when none is given: `{n}` stands for each
/// certificate's number.
pub const DEFAULT_SUBJECT: &str = "CN=host-{n}.example";
/// The SAN template that goes with [`DEFAULT_SUBJECT`] when no SAN template is given.
pub const DEFAULT_SAN: &str = "DNS:host-{n}.example";

/// What a batch's items take when they do not say.
#[derive(Debug, Clone, Copy)]
pub struct ItemDefaults {
    /// The profile.
    pub profile: Profile,
    /// The new keys' algorithm.
    pub alg: Algorithm,
    /// The validity in days; `None`: each profile's default at `now`
    /// ([`validity::default_days`]).
    pub days: Option<u32>,
    /// The batch's time, which the default validities are judged at.
    pub now: Time,
}

impl ItemDefaults {
    fn days_for(&self, p: Profile) -> u32 {
        self.days
            .unwrap_or_else(|| validity::default_days(p, self.now))
    }
}

/// Why a batch's items could not be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ItemsError {
    /// A numbered batch of this profile, which needs a SAN, was given no SAN template.
    NeedsSan(Profile),
    /// A SAN template, its number filled in, is not a SAN.
    San(SanError),
    /// The subject template, its number filled in, is not a subject.
    Subject(SubjectError),
    /// A manifest line does not read, names an unknown profile, or lacks the SAN its
    /// profile needs.
    Manifest(ManifestError),
}

impl fmt::Display for ItemsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ItemsError::NeedsSan(p) => write!(f, "a {} certificate needs a SAN", p.name()),
            ItemsError::San(e) => write!(f, "{e}"),
            ItemsError::Subject(e) => write!(f, "{e}"),
            ItemsError::Manifest(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ItemsError {}

/// `count` items numbered from 1, `{n}` in the subject template and in each SAN template
/// standing for the item's number. Without SAN templates the default subject
/// ([`DEFAULT_SUBJECT`]) gets [`DEFAULT_SAN`]; any other subject none, which a profile
/// that needs a SAN refuses before anything is made.
pub fn numbered_items(
    count: u64,
    subject_template: &str,
    san_templates: &[String],
    d: &ItemDefaults,
) -> Result<Vec<BatchItem>, ItemsError> {
    let san_templates: Vec<&str> = match (san_templates.is_empty(), subject_template) {
        (true, DEFAULT_SUBJECT) => vec![DEFAULT_SAN],
        _ => san_templates.iter().map(String::as_str).collect(),
    };
    if d.profile.needs_san() && san_templates.is_empty() {
        return Err(ItemsError::NeedsSan(d.profile));
    }
    let days = d.days_for(d.profile);
    (1..=count)
        .map(|n| {
            let number = n.to_string();
            let sans = san_templates
                .iter()
                .map(|t| {
                    parse_san(&t.replace("{n}", &number))
                        .map(|x| x.der)
                        .map_err(ItemsError::San)
                })
                .collect::<Result<Vec<_>, _>>()?;
            let text = subject_template.replace("{n}", &number);
            Ok(BatchItem {
                n,
                subject: parse_subject(&text).map_err(ItemsError::Subject)?,
                subject_text: text,
                sans,
                profile: d.profile,
                alg: d.alg,
                days,
            })
        })
        .collect()
}

/// The items of a JSONL manifest ([`pkit_x509::manifest`]), numbered from 1 in order:
/// what a line leaves out comes from `d`. A line of a profile that needs a SAN must give
/// one.
pub fn manifest_items(text: &str, d: &ItemDefaults) -> Result<Vec<BatchItem>, ItemsError> {
    let lines = ManifestLine::parse_all(text).map_err(ItemsError::Manifest)?;
    let mut out = Vec::with_capacity(lines.len());
    for line in lines {
        let profile = Profile::of_line(&line)
            .map_err(ItemsError::Manifest)?
            .unwrap_or(d.profile);
        if profile.needs_san() && line.sans.is_empty() {
            return Err(ItemsError::Manifest(line.error(format!(
                "a {} certificate needs sans (e.g. \"sans\": [\"DNS:host.example\"])",
                profile.name()
            ))));
        }
        out.push(BatchItem {
            n: out.len() as u64 + 1,
            subject_text: line.subject_text,
            subject: line.subject,
            sans: line.sans,
            profile,
            alg: line.alg.unwrap_or(d.alg),
            days: line.days.unwrap_or_else(|| d.days_for(profile)),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defaults(profile: Profile) -> ItemDefaults {
        ItemDefaults {
            profile,
            alg: Algorithm::EcdsaP256,
            days: None,
            now: Time {
                unix: 1_800_000_000,
            },
        }
    }

    #[test]
    fn numbered_items_fill_in_their_number() {
        let d = defaults(Profile::Server);
        let items = numbered_items(3, DEFAULT_SUBJECT, &[], &d).unwrap();
        assert_eq!(items.len(), 3);
        assert_eq!(items[2].n, 3);
        assert_eq!(items[2].subject_text, "CN=host-3.example");
        assert_eq!(
            items[2].subject,
            parse_subject("CN=host-3.example").unwrap()
        );
        assert_eq!(
            items[2].sans,
            [parse_san("DNS:host-3.example").unwrap().der]
        );
        assert_eq!(
            items[0].days,
            validity::default_days(Profile::Server, d.now)
        );

        let sans = ["DNS:a{n}.example".to_string(), "IP:10.0.0.{n}".to_string()];
        let given = ItemDefaults {
            days: Some(7),
            ..defaults(Profile::Client)
        };
        let items = numbered_items(2, "CN=user {n},O=Example", &sans, &given).unwrap();
        assert_eq!(items[1].subject_text, "CN=user 2,O=Example");
        assert_eq!(items[1].sans[1], parse_san("IP:10.0.0.2").unwrap().der);
        assert_eq!((items[1].days, items[1].profile), (7, Profile::Client));
        assert!(numbered_items(0, DEFAULT_SUBJECT, &[], &d)
            .unwrap()
            .is_empty());
    }

    #[test]
    fn numbered_items_refuse_what_they_cannot_make() {
        let d = defaults(Profile::Server);
        // Another subject takes no default SAN, and a server certificate needs one.
        assert_eq!(
            numbered_items(1, "CN=x{n}", &[], &d),
            Err(ItemsError::NeedsSan(Profile::Server))
        );
        // Refused before any item, even for none.
        assert!(numbered_items(0, "CN=x{n}", &[], &d).is_err());
        assert!(numbered_items(1, "CN=x{n}", &[], &defaults(Profile::Ca)).is_ok());
        let bad_san = ["DNS:a b{n}".to_string()];
        assert!(matches!(
            numbered_items(1, "CN=x", &bad_san, &d),
            Err(ItemsError::San(_))
        ));
        let san = ["DNS:a{n}.example".to_string()];
        assert!(matches!(
            numbered_items(1, "XX=x{n}", &san, &d),
            Err(ItemsError::Subject(_))
        ));
    }

    #[test]
    fn manifest_lines_take_the_defaults_they_leave_out() {
        let d = defaults(Profile::Server);
        let text = "{\"subject\":\"CN=a\",\"sans\":[\"DNS:a.example\"]}\n\n\
                    {\"subject\":\"CN=b\",\"profile\":\"ca\",\"alg\":\"ed25519\",\"days\":30}\n";
        let items = manifest_items(text, &d).unwrap();
        assert_eq!(items.len(), 2);
        assert_eq!((items[0].n, items[0].profile), (1, Profile::Server));
        assert_eq!(items[0].alg, Algorithm::EcdsaP256);
        assert_eq!(
            items[0].days,
            validity::default_days(Profile::Server, d.now)
        );
        assert_eq!((items[1].n, items[1].profile), (2, Profile::Ca));
        assert_eq!((items[1].alg, items[1].days), (Algorithm::Ed25519, 30));

        let Err(ItemsError::Manifest(e)) = manifest_items("\n{\"subject\":\"CN=c\"}\n", &d) else {
            panic!("a server certificate without sans")
        };
        assert_eq!((e.line, e.offset), (2, 1));
        assert!(e.message.contains("needs sans"), "{e}");
        let Err(ItemsError::Manifest(e)) =
            manifest_items("{\"subject\":\"CN=x\",\"profile\":\"nope\"}", &d)
        else {
            panic!("an unknown profile")
        };
        assert!(e.message.contains("unknown profile 'nope'"), "{e}");
        assert!(manifest_items("not json", &d).is_err());
    }
}
