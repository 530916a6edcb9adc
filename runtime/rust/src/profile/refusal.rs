//! Every refusal of the strict profile: its kind (the word both languages
//! report) and its message, written here once. The readers decide *that*
//! they refuse with the rules beside this file; only the reference reader
//! ([`crate::strict`]) adds the byte offset and shows the message.

use super::limits::MAX_DEPTH;
use super::text::{prefix, quote, shown};
use std::fmt;

/// What the strict profile refuses; `name()` is the same word in Python.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    TooLarge,
    ByteOrderMark,
    InvalidUtf8,
    Syntax,
    NonFinite,
    TooDeep,
    DuplicateKey,
    LoneSurrogate,
    UnsafeInteger,
    NegativeZero,
    NumberOutOfRange,
}

impl ErrorKind {
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::TooLarge => "too-large",
            ErrorKind::ByteOrderMark => "byte-order-mark",
            ErrorKind::InvalidUtf8 => "invalid-utf8",
            ErrorKind::Syntax => "syntax",
            ErrorKind::NonFinite => "non-finite",
            ErrorKind::TooDeep => "too-deep",
            ErrorKind::DuplicateKey => "duplicate-key",
            ErrorKind::LoneSurrogate => "lone-surrogate",
            ErrorKind::UnsafeInteger => "unsafe-integer",
            ErrorKind::NegativeZero => "negative-zero",
            ErrorKind::NumberOutOfRange => "number-out-of-range",
        }
    }
}

/// One refusal, before it has an offset: what a rule answers. Small and
/// `Copy`, so that the fast readers can carry it for free; the message is
/// only written when the reference reader reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// More bytes than the limit.
    TooLarge {
        size: usize,
        limit: usize,
    },
    ByteOrderMark,
    InvalidUtf8,
    /// Not what the grammar allows here (`found`: `None` at the end of input).
    Unexpected {
        expected: &'static str,
        found: Option<char>,
    },
    InvalidLiteral,
    /// A `-` with no digit after it.
    InvalidNumber,
    /// A byte below 0x20 inside a string.
    ControlCharacter(u8),
    InvalidEscape,
    /// `NaN`, `Infinity` or `-Infinity`.
    NonFinite,
    /// An array or object opened inside [`MAX_DEPTH`] open ones.
    TooDeep,
    /// A key the object already has (after unescaping).
    DuplicateKey,
    /// A `\u` escape of this surrogate that is not half of a pair.
    LoneSurrogate(u32),
    UnsafeInteger,
    NegativeZero,
    NumberOutOfRange,
}

impl Refusal {
    pub fn kind(self) -> ErrorKind {
        match self {
            Refusal::TooLarge { .. } => ErrorKind::TooLarge,
            Refusal::ByteOrderMark => ErrorKind::ByteOrderMark,
            Refusal::InvalidUtf8 => ErrorKind::InvalidUtf8,
            Refusal::Unexpected { .. } | Refusal::InvalidLiteral | Refusal::InvalidNumber | Refusal::ControlCharacter(_) | Refusal::InvalidEscape => {
                ErrorKind::Syntax
            }
            Refusal::NonFinite => ErrorKind::NonFinite,
            Refusal::TooDeep => ErrorKind::TooDeep,
            Refusal::DuplicateKey => ErrorKind::DuplicateKey,
            Refusal::LoneSurrogate(_) => ErrorKind::LoneSurrogate,
            Refusal::UnsafeInteger => ErrorKind::UnsafeInteger,
            Refusal::NegativeZero => ErrorKind::NegativeZero,
            Refusal::NumberOutOfRange => ErrorKind::NumberOutOfRange,
        }
    }

    /// The message, the same in both languages. `refused` is the refused
    /// value as a message may show it (a short prefix): the number literal
    /// as written, or the key after unescaping; the other refusals ignore it.
    pub fn message(self, refused: &str) -> String {
        match self {
            Refusal::TooLarge { size, limit } => format!("the input of {size} bytes exceeds the limit of {limit} bytes"),
            Refusal::ByteOrderMark => "a byte order mark is not allowed".into(),
            Refusal::InvalidUtf8 => "the input is not valid UTF-8".into(),
            Refusal::Unexpected { found: None, .. } => "unexpected end of input".into(),
            Refusal::Unexpected { expected, found: Some(c) } => format!("expected {expected}, found {}", quote(&c.to_string())),
            Refusal::InvalidLiteral => "invalid literal".into(),
            Refusal::InvalidNumber => "invalid number".into(),
            Refusal::ControlCharacter(byte) => format!("control character U+{byte:04X} must be escaped in a string"),
            Refusal::InvalidEscape => "invalid escape sequence".into(),
            Refusal::NonFinite => "NaN and Infinity are not JSON numbers".into(),
            Refusal::TooDeep => format!("nesting deeper than {MAX_DEPTH} levels"),
            Refusal::DuplicateKey => format!("duplicate key {}", shown(refused)),
            Refusal::LoneSurrogate(unit) => format!("lone surrogate \\u{unit:04x}"),
            Refusal::UnsafeInteger => format!("integer {} is outside ±(2^53-1)", prefix(refused)),
            Refusal::NegativeZero => "negative zero is refused".into(),
            Refusal::NumberOutOfRange => format!("number {} overflows to infinity", prefix(refused)),
        }
    }
}

/// The name of the refusal's kind: what a fast reader, which reports
/// nothing, says when it stops.
impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind().name())
    }
}

/// The duplicate-key refusal as a generated type's visitor raises it
/// (`bind`): the whole key in backticks, as serde names a field. Only a
/// reader other than concord's (`serde_json::from_str`, say) ever lets such
/// a key reach the type; concord's own refuse it first, as
/// [`Refusal::DuplicateKey`].
pub fn duplicate_key_in_type(key: &str) -> impl fmt::Display + '_ {
    struct Message<'k>(&'k str);

    impl fmt::Display for Message<'_> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "duplicate key `{}`", self.0)
        }
    }

    Message(key)
}
