//! DER errors: every one carries the byte offset where decoding stopped and, once it has
//! travelled up through the structure readers, the field path (`tbs.extensions[3].extnValue`).

use std::fmt;

/// What went wrong, phrased as what was expected at the offset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorKind {
    /// The input ended inside a header or content.
    Truncated {
        /// Bytes the header or content needed.
        needed: usize,
        /// Bytes the input still had.
        available: usize,
    },
    /// A different tag was found than the structure requires.
    UnexpectedTag {
        /// The identifier octet the structure requires.
        expected: u8,
        /// The identifier octet in the input.
        found: u8,
    },
    /// A length that does not fit in the remaining input.
    LengthOverrun {
        /// The length the header declares.
        length: usize,
        /// Bytes left in the enclosing input after the header.
        available: usize,
    },
    /// DER requires the shortest length form.
    NonMinimalLength,
    /// Indefinite lengths are BER only.
    IndefiniteLength,
    /// Lengths beyond 2^32 are never legitimate here.
    LengthTooLarge,
    /// DER requires the shortest INTEGER encoding.
    NonMinimalInteger,
    /// An INTEGER with no content octets.
    EmptyInteger,
    /// A value that must be non-negative was negative.
    NegativeInteger,
    /// An INTEGER too large for the field that holds it.
    IntegerOverflow,
    /// BOOLEAN must be one octet, 0x00 or 0xFF.
    InvalidBoolean,
    /// NULL must have empty content.
    InvalidNull,
    /// BIT STRING unused-bits octet out of range or non-zero padding.
    InvalidBitString(&'static str),
    /// Malformed OBJECT IDENTIFIER content.
    InvalidOid,
    /// Malformed UTCTime / GeneralizedTime.
    InvalidTime(&'static str),
    /// String content not allowed by its type (PrintableString, IA5String, UTF8String…).
    InvalidString(&'static str),
    /// Bytes left over after a complete value.
    TrailingData {
        /// How many bytes are left over.
        count: usize,
    },
    /// Nesting deeper than the reader allows (hostile input guard).
    TooDeep {
        /// The deepest nesting the reader accepts.
        limit: usize,
    },
    /// High tag numbers (>= 31) are not used by any structure pkit decodes strictly.
    HighTagNumber,
    /// SET OF elements must be sorted in DER.
    UnsortedSet,
    /// A TLS-presentation vector (`opaque x<min..max>`) whose length is out of bounds.
    /// `u32`, which TLS vector bounds never exceed, keeps every variant but `Invalid`
    /// within 16 bytes, so `Error` stays as small as the parsers' `Result`s need (24-byte
    /// fields cost the certificate parser 2% more instructions).
    VectorLength {
        /// The length the vector's prefix declares.
        length: u32,
        /// The smallest length the vector's type allows.
        min: u32,
        /// The largest length the vector's type allows.
        max: u32,
    },
    /// A DEFAULT value encoded (X.690 §11.5: DER omits it); names the field.
    DefaultEncoded(&'static str),
    /// A version that does not fit the structure's contents (RFC 5280 §4.1.2.1, §5.1.2.1):
    /// what was expected.
    WrongVersion(&'static str),
    /// A version number the structure does not have: the INTEGER found and the highest
    /// one allowed (0 is v1).
    UnknownVersion {
        /// The version INTEGER in the input.
        found: u32,
        /// The highest version the structure defines.
        highest: u8,
    },
    /// A structure-level rule (names the rule).
    Invalid(String),
}

/// A decoding error with its position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// Absolute byte offset into the input where the problem was found.
    pub offset: usize,
    /// Which rule the input broke.
    pub kind: ErrorKind,
    /// Field path, outermost first; filled in as the error travels outwards.
    pub path: Vec<String>,
}

impl Error {
    /// An error of `kind` at byte `offset`, with no field path yet.
    pub fn new(offset: usize, kind: ErrorKind) -> Self {
        Error {
            offset,
            kind,
            path: Vec::new(),
        }
    }

    /// A structure-level error that is not one of the encoding rules.
    pub fn invalid(offset: usize, what: impl Into<String>) -> Self {
        Error::new(offset, ErrorKind::Invalid(what.into()))
    }

    /// Prefix the path with the field the error happened in.
    #[must_use]
    pub fn at(mut self, field: &str) -> Self {
        self.path.insert(0, field.to_string());
        self
    }

    /// The dotted path, e.g. `tbs.extensions[3].extnValue` (empty when unknown).
    pub fn path_string(&self) -> String {
        let mut s = String::new();
        for seg in &self.path {
            if !s.is_empty() && !seg.starts_with('[') {
                s.push('.');
            }
            s.push_str(seg);
        }
        s
    }

    /// What was expected, without offset or path (for JSON `message`).
    pub fn message(&self) -> String {
        self.kind.to_string()
    }
}

/// Add field context to a `Result` as it propagates.
pub trait Context<T> {
    /// Prefix the error's path with `field` (see [`Error::at`]).
    fn at(self, field: &str) -> Result<T, Error>;
    /// `name[index]`, formatted only when there is an error (keeps the success path free
    /// of allocations).
    fn at_index(self, index: usize) -> Result<T, Error>;
}

impl<T> Context<T> for Result<T, Error> {
    #[inline]
    fn at(self, field: &str) -> Result<T, Error> {
        self.map_err(|e| e.at(field))
    }
    #[inline]
    fn at_index(self, index: usize) -> Result<T, Error> {
        self.map_err(|e| e.at(&format!("[{index}]")))
    }
}

/// A `Result` whose error defaults to a DER [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ErrorKind::*;
        match self {
            Truncated { needed, available } => write!(
                f,
                "expected {needed} more byte(s), input ends after {available}"
            ),
            UnexpectedTag { expected, found } => write!(
                f,
                "expected {} (tag 0x{expected:02x}), found {} (tag 0x{found:02x})",
                crate::tag::describe(*expected),
                crate::tag::describe(*found)
            ),
            LengthOverrun { length, available } => write!(
                f,
                "length {length} exceeds the {available} byte(s) that remain"
            ),
            NonMinimalLength => write!(f, "expected a minimal DER length encoding"),
            IndefiniteLength => write!(
                f,
                "expected a definite length (indefinite length is BER, not DER)"
            ),
            LengthTooLarge => write!(f, "expected a length below 2^32"),
            NonMinimalInteger => write!(f, "expected a minimally encoded INTEGER"),
            EmptyInteger => write!(f, "expected INTEGER content, found none"),
            NegativeInteger => write!(f, "expected a non-negative INTEGER"),
            IntegerOverflow => write!(f, "expected an INTEGER that fits the field"),
            InvalidBoolean => write!(f, "expected BOOLEAN 0x00 or 0xff"),
            InvalidNull => write!(f, "expected NULL with empty content"),
            InvalidBitString(why) => write!(f, "expected a valid BIT STRING: {why}"),
            InvalidOid => write!(f, "expected a valid OBJECT IDENTIFIER"),
            InvalidTime(why) => write!(f, "expected a valid time: {why}"),
            InvalidString(why) => write!(f, "expected a valid string: {why}"),
            TrailingData { count } => {
                write!(f, "expected end of data, found {count} trailing byte(s)")
            }
            TooDeep { limit } => write!(f, "expected nesting at most {limit} levels deep"),
            HighTagNumber => write!(f, "expected a low tag number (< 31)"),
            UnsortedSet => write!(f, "expected SET OF elements in DER order"),
            VectorLength { length, min, max } => write!(
                f,
                "expected a vector of {min} to {max} byte(s), found {length}"
            ),
            DefaultEncoded(what) => {
                write!(f, "expected DEFAULT {what} to be omitted, found it encoded")
            }
            WrongVersion(expected) => write!(f, "expected {expected}"),
            UnknownVersion { found, highest: 0 } => {
                write!(f, "expected version v1, found v{}", u64::from(*found) + 1)
            }
            UnknownVersion { found, highest } => write!(
                f,
                "expected version v1 to v{}, found v{}",
                highest + 1,
                u64::from(*found) + 1
            ),
            Invalid(what) => write!(f, "{what}"),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "offset {}: ", self.offset)?;
        if !self.path.is_empty() {
            write!(f, "{}: ", self.path_string())?;
        }
        write!(f, "{}", self.kind)
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every parser returns `Result<_, Error>`: a bigger `ErrorKind` makes each of those
    /// results bigger on the success path too (measured: +2% instructions per parsed
    /// certificate when a variant grew past 16 bytes).
    #[test]
    fn error_kind_stays_small() {
        assert_eq!(std::mem::size_of::<ErrorKind>(), 24);
    }

    #[test]
    fn path_joins_fields_and_indices() {
        let e = Error::new(7, ErrorKind::InvalidOid)
            .at("extnID")
            .at("[3]")
            .at("extensions")
            .at("tbs");
        assert_eq!(e.path_string(), "tbs.extensions[3].extnID");
        assert_eq!(
            e.to_string(),
            "offset 7: tbs.extensions[3].extnID: expected a valid OBJECT IDENTIFIER"
        );
    }
}
