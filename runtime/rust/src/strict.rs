//! The strict reading profile, identical to `concord_runtime.strict` in
//! Python: both accept the same bytes, refuse the same bytes, and report the
//! first problem with the same kind, byte offset and message.
//!
//! In order: the size limit; no byte order mark; the whole input must be
//! UTF-8; then one pass of RFC 8259 grammar in which duplicate keys (after
//! unescaping), lone surrogates, `NaN`/`Infinity`, numbers that overflow,
//! negative zero, integers outside ±(2^53-1) and nesting deeper than
//! [`MAX_DEPTH`] are refused where they stand. Floats stay readable.
//! Messages echo at most a short prefix of any refused value.

use serde_json::{Map, Number, Value};
use std::fmt;

pub(crate) use crate::profile::{prefix, quote, shown};
pub use crate::profile::{DEFAULT_MAX_BYTES, MAX_DEPTH, MAX_SAFE_INTEGER};

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

/// The first problem in the input: its kind, byte offset and a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError {
    pub kind: ErrorKind,
    pub offset: usize,
    pub message: String,
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}: {}", self.kind.name(), self.offset, self.message)
    }
}

impl std::error::Error for JsonError {}

/// Settings of the profile that may differ per use: only the size limit.
/// (The depth limit is fixed, so that both languages always agree.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub max_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_bytes: DEFAULT_MAX_BYTES }
    }
}

/// Reads one JSON document under the strict profile with default limits.
pub fn read(bytes: &[u8]) -> Result<Value, JsonError> {
    read_with(bytes, Limits::default())
}

/// Checks one JSON document under the strict profile without building it:
/// the fast scan ([`crate::scan`]) decides, and the reference reader names
/// the first problem whenever the scan is not certain.
pub fn check_with(bytes: &[u8], limits: Limits) -> Result<(), JsonError> {
    if bytes.len() <= limits.max_bytes && crate::scan::accepts(bytes) {
        return Ok(());
    }
    read_with(bytes, limits).map(drop)
}

/// Reads one JSON document under the strict profile.
pub fn read_with(bytes: &[u8], limits: Limits) -> Result<Value, JsonError> {
    if bytes.len() > limits.max_bytes {
        return Err(JsonError {
            kind: ErrorKind::TooLarge,
            offset: limits.max_bytes,
            message: format!("the input of {} bytes exceeds the limit of {} bytes", bytes.len(), limits.max_bytes),
        });
    }
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        return Err(JsonError { kind: ErrorKind::ByteOrderMark, offset: 0, message: "a byte order mark is not allowed".into() });
    }
    let text = std::str::from_utf8(bytes).map_err(|error| JsonError {
        kind: ErrorKind::InvalidUtf8,
        offset: error.valid_up_to(),
        message: "the input is not valid UTF-8".into(),
    })?;
    Parser { text, bytes, pos: 0, exact_integers: false }.document()
}

/// Reads a schema document: the strict profile, except that integers beyond
/// ±(2^53-1) are kept (exactly while they fit 64 bits, else as the nearest
/// float). The profile protects records; a schema may well say
/// `"maximum": 9223372036854775807`.
pub fn read_schema(bytes: &[u8]) -> Result<Value, JsonError> {
    match std::str::from_utf8(bytes) {
        Ok(text) if !text.starts_with('\u{feff}') => Parser { text, bytes, pos: 0, exact_integers: true }.document(),
        // The strict reader names what is wrong with the bytes.
        _ => read(bytes),
    }
}

enum Frame {
    Array(Vec<Value>),
    Object(Map<String, Value>, String),
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    /// Keep integers beyond the safe range ([`read_schema`]).
    exact_integers: bool,
}

impl Parser<'_> {
    fn error(&self, kind: ErrorKind, offset: usize, message: impl Into<String>) -> JsonError {
        JsonError { kind, offset, message: message.into() }
    }

    /// `expected …, found "x"`, or the end of input.
    fn unexpected(&self, expected: &str) -> JsonError {
        match self.text[self.pos..].chars().next() {
            None => self.error(ErrorKind::Syntax, self.pos, "unexpected end of input"),
            Some(c) => self.error(ErrorKind::Syntax, self.pos, format!("expected {expected}, found {}", quote(&c.to_string()))),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    fn document(mut self) -> Result<Value, JsonError> {
        let mut stack: Vec<Frame> = Vec::new();
        'value: loop {
            self.skip_whitespace();
            let mut value = match self.peek() {
                Some(open @ (b'{' | b'[')) => {
                    if stack.len() == MAX_DEPTH {
                        return Err(self.error(ErrorKind::TooDeep, self.pos, format!("nesting deeper than {MAX_DEPTH} levels")));
                    }
                    self.pos += 1;
                    self.skip_whitespace();
                    if open == b'[' {
                        if self.peek() == Some(b']') {
                            self.pos += 1;
                            Value::Array(Vec::new())
                        } else {
                            stack.push(Frame::Array(Vec::new()));
                            continue 'value;
                        }
                    } else if self.peek() == Some(b'}') {
                        self.pos += 1;
                        Value::Object(Map::new())
                    } else {
                        let map = Map::new();
                        let key = self.key(&map, "a string key or \"}\"")?;
                        stack.push(Frame::Object(map, key));
                        continue 'value;
                    }
                }
                _ => self.scalar()?,
            };
            // Hand the value to its container; close containers that end here.
            loop {
                match stack.last_mut() {
                    None => {
                        self.skip_whitespace();
                        if self.pos < self.bytes.len() {
                            return Err(self.unexpected("the end of input after the JSON value"));
                        }
                        return Ok(value);
                    }
                    Some(Frame::Array(items)) => {
                        items.push(value);
                        self.skip_whitespace();
                        match self.peek() {
                            Some(b',') => {
                                self.pos += 1;
                                continue 'value;
                            }
                            Some(b']') => {
                                self.pos += 1;
                                let Some(Frame::Array(items)) = stack.pop() else { unreachable!() };
                                value = Value::Array(items);
                            }
                            _ => return Err(self.unexpected("\",\" or \"]\"")),
                        }
                    }
                    Some(Frame::Object(map, key)) => {
                        map.insert(std::mem::take(key), value);
                        self.skip_whitespace();
                        match self.peek() {
                            Some(b',') => {
                                self.pos += 1;
                                let next = self.key(map, "a string key")?;
                                *key = next;
                                continue 'value;
                            }
                            Some(b'}') => {
                                self.pos += 1;
                                let Some(Frame::Object(map, _)) = stack.pop() else { unreachable!() };
                                value = Value::Object(map);
                            }
                            _ => return Err(self.unexpected("\",\" or \"}\"")),
                        }
                    }
                }
            }
        }
    }

    /// A key and its colon; a key the object already has is refused here,
    /// before its value is read.
    fn key(&mut self, map: &Map<String, Value>, expected: &str) -> Result<String, JsonError> {
        self.skip_whitespace();
        if self.peek() != Some(b'"') {
            return Err(self.unexpected(expected));
        }
        let start = self.pos;
        let key = self.string()?;
        if map.contains_key(&key) {
            return Err(self.error(ErrorKind::DuplicateKey, start, format!("duplicate key {}", shown(&key))));
        }
        self.skip_whitespace();
        if self.peek() != Some(b':') {
            return Err(self.unexpected("\":\""));
        }
        self.pos += 1;
        Ok(key)
    }

    fn scalar(&mut self) -> Result<Value, JsonError> {
        let rest = &self.bytes[self.pos..];
        match self.peek() {
            Some(b'"') => self.string().map(Value::String),
            Some(b't') => self.literal(b"true", Value::Bool(true)),
            Some(b'f') => self.literal(b"false", Value::Bool(false)),
            Some(b'n') => self.literal(b"null", Value::Null),
            _ if rest.starts_with(b"NaN") || rest.starts_with(b"Infinity") || rest.starts_with(b"-Infinity") => {
                Err(self.error(ErrorKind::NonFinite, self.pos, "NaN and Infinity are not JSON numbers"))
            }
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(self.unexpected("a value")),
        }
    }

    fn literal(&mut self, word: &[u8], value: Value) -> Result<Value, JsonError> {
        if self.bytes[self.pos..].starts_with(word) {
            self.pos += word.len();
            Ok(value)
        } else {
            Err(self.error(ErrorKind::Syntax, self.pos, "invalid literal"))
        }
    }

    fn digits(&mut self) {
        while let Some(b'0'..=b'9') = self.peek() {
            self.pos += 1;
        }
    }

    /// The longest prefix that is a JSON number: a fraction or exponent is
    /// taken only when digits follow, as a regular expression would.
    fn number(&mut self) -> Result<Value, JsonError> {
        let start = self.pos;
        let digit_at = |p: usize| self.bytes.get(p).is_some_and(u8::is_ascii_digit);
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(self.error(ErrorKind::Syntax, start, "invalid number")),
        }
        let mut integer = true;
        if self.peek() == Some(b'.') && digit_at(self.pos + 1) {
            integer = false;
            self.pos += 1;
            self.digits();
        }
        if let Some(b'e' | b'E') = self.peek() {
            let sign = matches!(self.bytes.get(self.pos + 1), Some(b'+' | b'-'));
            let first = self.pos + 1 + usize::from(sign);
            if digit_at(first) {
                integer = false;
                self.pos = first;
                self.digits();
            }
        }
        let text = &self.text[start..self.pos];
        let negative_zero = || self.error(ErrorKind::NegativeZero, start, "negative zero is refused");
        if integer {
            let digits = text.trim_start_matches('-');
            // 2^53 − 1 has 16 digits: anything longer is unsafe without parsing.
            let value = if digits.len() <= 16 { text.parse::<i64>().ok() } else { None };
            match value {
                Some(value) if value.abs() <= MAX_SAFE_INTEGER => {
                    if value == 0 && text.starts_with('-') {
                        return Err(negative_zero());
                    }
                    Ok(Value::Number(value.into()))
                }
                _ if self.exact_integers && text != "-0" => Ok(match (text.parse::<i64>(), text.parse::<u64>()) {
                    (Ok(value), _) => Value::Number(value.into()),
                    (_, Ok(value)) => Value::Number(value.into()),
                    _ => Value::Number(Number::from_f64(parse_float(text)).unwrap_or_else(|| Number::from(0))),
                }),
                _ => Err(self.error(ErrorKind::UnsafeInteger, start, format!("integer {} is outside ±(2^53-1)", prefix(text)))),
            }
        } else {
            let value = parse_float(text);
            if value.is_infinite() {
                return Err(self.error(ErrorKind::NumberOutOfRange, start, format!("number {} overflows to infinity", prefix(text))));
            }
            if value == 0.0 && value.is_sign_negative() {
                return Err(negative_zero());
            }
            Ok(Value::Number(Number::from_f64(value).expect("finite")))
        }
    }

    /// A string at `pos` (on its opening quote).
    fn string(&mut self) -> Result<String, JsonError> {
        self.pos += 1;
        let mut out = String::new();
        loop {
            let run = self.pos;
            while let Some(byte) = self.peek() {
                if byte == b'"' || byte == b'\\' || byte < 0x20 {
                    break;
                }
                self.pos += 1;
            }
            out.push_str(&self.text[run..self.pos]);
            match self.peek() {
                None => return Err(self.unexpected("")),
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => self.escape(&mut out)?,
                Some(byte) => return Err(self.error(ErrorKind::Syntax, self.pos, format!("control character U+{byte:04X} must be escaped in a string"))),
            }
        }
    }

    fn escape(&mut self, out: &mut String) -> Result<(), JsonError> {
        let start = self.pos;
        let invalid = |parser: &Self| parser.error(ErrorKind::Syntax, start, "invalid escape sequence");
        let simple = match self.bytes.get(self.pos + 1).copied() {
            Some(b'u') => {
                let unit = self.hex(self.pos + 2).ok_or_else(|| invalid(self))?;
                self.pos += 6;
                let lone = |parser: &Self| parser.error(ErrorKind::LoneSurrogate, start, format!("lone surrogate \\u{unit:04x}"));
                let c = match unit {
                    0xD800..=0xDBFF => {
                        let low = (self.bytes.get(self.pos..self.pos + 2) == Some(b"\\u"))
                            .then(|| self.hex(self.pos + 2))
                            .flatten()
                            .filter(|low| (0xDC00..=0xDFFF).contains(low))
                            .ok_or_else(|| lone(self))?;
                        self.pos += 6;
                        char::from_u32(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)).expect("a valid pair")
                    }
                    0xDC00..=0xDFFF => return Err(lone(self)),
                    _ => char::from_u32(unit).expect("not a surrogate"),
                };
                out.push(c);
                return Ok(());
            }
            letter => short_escape(letter).ok_or_else(|| invalid(self))?,
        };
        out.push(simple);
        self.pos += 2;
        Ok(())
    }

    fn hex(&self, at: usize) -> Option<u32> {
        let digits = self.text.get(at..at + 4)?;
        if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        u32::from_str_radix(digits, 16).ok()
    }
}

/// The character of a two-character escape (`\n` and its kin), by its letter.
pub(crate) fn short_escape(letter: Option<u8>) -> Option<char> {
    Some(match letter? {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        _ => return None,
    })
}

/// A JSON number with a fraction or exponent, correctly rounded whatever its
/// length. `f64::from_str` rounds correctly but saturates a written exponent
/// near 65,536, which a long run of digits can need to offset
/// (`0.000…001e1000001` is 1), so it gets a normalized form instead:
/// `0.<significant digits>e<small exponent>`, or a result outside the range.
pub(crate) fn parse_float(text: &str) -> f64 {
    let (negative, unsigned) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let signed = |value: f64| if negative { -value } else { value };
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(at) => (&unsigned[..at], &unsigned[at + 1..]),
        None => (unsigned, "0"),
    };
    let (integer, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let (sign, exponent_digits) = match exponent.strip_prefix('-') {
        Some(digits) => (-1, digits),
        None => (1, exponent.strip_prefix('+').unwrap_or(exponent)),
    };
    let exponent_digits = exponent_digits.trim_start_matches('0');
    // Past 12 digits the exponent outweighs any mantissa an input can hold.
    let exponent: i64 = if exponent_digits.len() > 12 { sign * 1_000_000_000_000 } else { sign * exponent_digits.parse::<i64>().unwrap_or(0) };
    let digits = format!("{integer}{fraction}");
    let leading_zeros = digits.bytes().take_while(|&b| b == b'0').count();
    let significant = digits[leading_zeros..].trim_end_matches('0');
    if significant.is_empty() {
        return signed(0.0);
    }
    // The value is 0.<significant> × 10^decimal.
    let decimal = integer.len() as i64 - leading_zeros as i64 + exponent;
    if decimal > 400 {
        return signed(f64::INFINITY);
    }
    if decimal < -400 {
        return signed(0.0);
    }
    signed(format!("0.{significant}e{decimal}").parse().expect("a normalized decimal parses"))
}
