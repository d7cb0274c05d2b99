//! Tag constants (X.690 §8.1.2). pkit's structures only use single-octet tags; the generic
//! tree reader handles high tag numbers separately.

/// BOOLEAN, universal 1.
pub const BOOLEAN: u8 = 0x01;
/// INTEGER, universal 2.
pub const INTEGER: u8 = 0x02;
/// BIT STRING, universal 3.
pub const BIT_STRING: u8 = 0x03;
/// OCTET STRING, universal 4.
pub const OCTET_STRING: u8 = 0x04;
/// NULL, universal 5.
pub const NULL: u8 = 0x05;
/// OBJECT IDENTIFIER, universal 6.
pub const OID: u8 = 0x06;
/// ENUMERATED, universal 10.
pub const ENUMERATED: u8 = 0x0a;
/// UTF8String, universal 12.
pub const UTF8_STRING: u8 = 0x0c;
/// RELATIVE-OID, universal 13.
pub const RELATIVE_OID: u8 = 0x0d;
/// SEQUENCE and SEQUENCE OF, universal 16 with the constructed bit.
pub const SEQUENCE: u8 = 0x30;
/// SET and SET OF, universal 17 with the constructed bit.
pub const SET: u8 = 0x31;
/// NumericString, universal 18.
pub const NUMERIC_STRING: u8 = 0x12;
/// PrintableString, universal 19.
pub const PRINTABLE_STRING: u8 = 0x13;
/// TeletexString (T61String), universal 20.
pub const TELETEX_STRING: u8 = 0x14;
/// VideotexString, universal 21.
pub const VIDEOTEX_STRING: u8 = 0x15;
/// IA5String, universal 22.
pub const IA5_STRING: u8 = 0x16;
/// UTCTime, universal 23.
pub const UTC_TIME: u8 = 0x17;
/// GeneralizedTime, universal 24.
pub const GENERALIZED_TIME: u8 = 0x18;
/// GraphicString, universal 25.
pub const GRAPHIC_STRING: u8 = 0x19;
/// VisibleString, universal 26.
pub const VISIBLE_STRING: u8 = 0x1a;
/// GeneralString, universal 27.
pub const GENERAL_STRING: u8 = 0x1b;
/// UniversalString (UCS-4), universal 28.
pub const UNIVERSAL_STRING: u8 = 0x1c;
/// BMPString (UCS-2), universal 30.
pub const BMP_STRING: u8 = 0x1e;

/// The constructed bit of an identifier octet (X.690 §8.1.2.5).
pub const CONSTRUCTED: u8 = 0x20;
/// The context-specific class bits of an identifier octet.
pub const CONTEXT: u8 = 0x80;
/// The application class bits of an identifier octet.
pub const APPLICATION: u8 = 0x40;

/// `[n] EXPLICIT` (constructed, context-specific).
#[inline]
pub const fn explicit(n: u8) -> u8 {
    CONTEXT | CONSTRUCTED | n
}

/// `[n] IMPLICIT` on a primitive type.
#[inline]
pub const fn implicit(n: u8) -> u8 {
    CONTEXT | n
}

/// `[n] IMPLICIT` on a constructed type (SEQUENCE, SET).
#[inline]
pub const fn implicit_constructed(n: u8) -> u8 {
    CONTEXT | CONSTRUCTED | n
}

/// The class of a tag, the top two bits of its identifier octet (X.690 §8.1.2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// Types X.680 defines (INTEGER, SEQUENCE, …).
    Universal,
    /// Tags an application defines for itself.
    Application,
    /// Tags that distinguish fields inside one structure (`[0]`, `[1]`, …).
    Context,
    /// Tags private to an organisation.
    Private,
}

impl Class {
    /// The class encoded in an identifier octet.
    pub fn of(first_octet: u8) -> Class {
        match first_octet >> 6 {
            0 => Class::Universal,
            1 => Class::Application,
            2 => Class::Context,
            _ => Class::Private,
        }
    }

    /// The lowercase name printed in tree dumps.
    pub fn as_str(self) -> &'static str {
        match self {
            Class::Universal => "universal",
            Class::Application => "application",
            Class::Context => "context",
            Class::Private => "private",
        }
    }
}

/// The universal type name for a tag number, e.g. "SEQUENCE".
pub fn universal_name(number: u32) -> Option<&'static str> {
    Some(match number {
        0 => "EOC",
        1 => "BOOLEAN",
        2 => "INTEGER",
        3 => "BIT STRING",
        4 => "OCTET STRING",
        5 => "NULL",
        6 => "OBJECT IDENTIFIER",
        7 => "ObjectDescriptor",
        8 => "EXTERNAL",
        9 => "REAL",
        10 => "ENUMERATED",
        11 => "EMBEDDED PDV",
        12 => "UTF8String",
        13 => "RELATIVE-OID",
        16 => "SEQUENCE",
        17 => "SET",
        18 => "NumericString",
        19 => "PrintableString",
        20 => "TeletexString",
        21 => "VideotexString",
        22 => "IA5String",
        23 => "UTCTime",
        24 => "GeneralizedTime",
        25 => "GraphicString",
        26 => "VisibleString",
        27 => "GeneralString",
        28 => "UniversalString",
        30 => "BMPString",
        _ => return None,
    })
}

/// Human description of a single-octet tag, e.g. "SEQUENCE" or "\[0\] constructed".
pub fn describe(tag: u8) -> String {
    let number = u32::from(tag & 0x1f);
    let constructed = tag & CONSTRUCTED != 0;
    match Class::of(tag) {
        Class::Universal => universal_name(number)
            .map(str::to_string)
            .unwrap_or_else(|| format!("universal {number}")),
        Class::Context => format!(
            "[{number}]{}",
            if constructed { " constructed" } else { "" }
        ),
        c => format!("{} [{number}]", c.as_str()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describes_tags() {
        assert_eq!(describe(SEQUENCE), "SEQUENCE");
        assert_eq!(describe(explicit(3)), "[3] constructed");
        assert_eq!(describe(implicit(2)), "[2]");
        assert_eq!(describe(0x41), "application [1]");
    }
}
