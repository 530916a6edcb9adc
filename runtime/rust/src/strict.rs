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

use crate::profile::{self, Refusal};
use serde_json::{Map, Number, Value};
use std::fmt;

pub use crate::profile::{ErrorKind, DEFAULT_MAX_BYTES, MAX_DEPTH, MAX_SAFE_INTEGER};

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

impl JsonError {
    /// `refusal` at `offset`, its message showing `refused` where it shows
    /// the refused value ([`Refusal::message`]).
    fn new(refusal: Refusal, offset: usize, refused: &str) -> Self {
        JsonError { kind: refusal.kind(), offset, message: refusal.message(refused) }
    }
}

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
    let text = profile::input(bytes, limits.max_bytes).map_err(|(refusal, offset)| JsonError::new(refusal, offset, ""))?;
    Parser { text, bytes, pos: 0, exact_integers: false }.document()
}

/// Reads a schema document: the strict profile, except that integers beyond
/// ±(2^53-1) are kept (exactly while they fit 64 bits, else as the nearest
/// float). The profile protects records; a schema may well say
/// `"maximum": 9223372036854775807`.
pub fn read_schema(bytes: &[u8]) -> Result<Value, JsonError> {
    match profile::input(bytes, usize::MAX) {
        Ok(text) => Parser { text, bytes, pos: 0, exact_integers: true }.document(),
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
    /// `expected …, found "x"`, or the end of input.
    fn unexpected(&self, expected: &'static str) -> JsonError {
        let found = self.text[self.pos..].chars().next();
        JsonError::new(Refusal::Unexpected { expected, found }, self.pos, "")
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
                    profile::nest(stack.len()).map_err(|refusal| JsonError::new(refusal, self.pos, ""))?;
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
    fn key(&mut self, map: &Map<String, Value>, expected: &'static str) -> Result<String, JsonError> {
        self.skip_whitespace();
        if self.peek() != Some(b'"') {
            return Err(self.unexpected(expected));
        }
        let start = self.pos;
        let key = self.string()?;
        if map.contains_key(&key) {
            return Err(JsonError::new(Refusal::DuplicateKey, start, &key));
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
            _ if profile::NON_FINITE.iter().any(|word| rest.starts_with(word)) => Err(JsonError::new(Refusal::NonFinite, self.pos, "")),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(self.unexpected("a value")),
        }
    }

    fn literal(&mut self, word: &[u8], value: Value) -> Result<Value, JsonError> {
        if self.bytes[self.pos..].starts_with(word) {
            self.pos += word.len();
            Ok(value)
        } else {
            Err(JsonError::new(Refusal::InvalidLiteral, self.pos, ""))
        }
    }

    /// A number, as the profile decides it ([`profile::number`]), refused at
    /// its first byte.
    fn number(&mut self) -> Result<Value, JsonError> {
        let start = self.pos;
        let literal = profile::literal(self.bytes, start).ok_or_else(|| JsonError::new(Refusal::InvalidNumber, start, ""))?;
        self.pos = literal.end;
        match profile::number(self.text, &literal) {
            Ok(profile::Number::Integer(value)) => Ok(Value::Number(value.into())),
            Ok(profile::Number::Float(value)) => Ok(Value::Number(Number::from_f64(value).expect("finite"))),
            // A schema keeps integers beyond the safe range: exactly while
            // they fit 64 bits, else as the nearest float.
            Err(Refusal::UnsafeInteger) if self.exact_integers => {
                let text = literal.text(self.text);
                Ok(match (text.parse::<i64>(), text.parse::<u64>()) {
                    (Ok(value), _) => Value::Number(value.into()),
                    (_, Ok(value)) => Value::Number(value.into()),
                    _ => Value::Number(Number::from_f64(profile::float_value(text)).unwrap_or_else(|| Number::from(0))),
                })
            }
            Err(refusal) => Err(JsonError::new(refusal, start, literal.text(self.text))),
        }
    }

    /// A string at `pos` (on its opening quote).
    fn string(&mut self) -> Result<String, JsonError> {
        self.pos += 1;
        let mut out = String::new();
        loop {
            let run = self.pos;
            while let Some(byte) = self.peek() {
                if profile::STRING[byte as usize] != profile::PLAIN {
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
                Some(b'\\') => {
                    let (c, next) = profile::escape(self.bytes, self.pos).map_err(|refusal| JsonError::new(refusal, self.pos, ""))?;
                    out.push(c);
                    self.pos = next;
                }
                Some(byte) => return Err(JsonError::new(Refusal::ControlCharacter(byte), self.pos, "")),
            }
        }
    }
}
