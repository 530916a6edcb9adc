//! One pass from bytes to a generated type under the strict profile: a serde
//! `Deserializer` that refuses, where they stand, everything
//! [`strict`](crate::strict) refuses, without building a `Value` first.
//!
//! It only has to *decide*. Its errors are not reported: on any refusal
//! [`Record::from_json`](crate::Record::from_json) re-reads the input with the
//! reference reader, which names the first strict-profile problem (kind,
//! offset, message, as in Python), else the schema problem with its pointer.
//! So a record with both kinds of problem is always reported by its
//! strict-profile problem, wherever the schema problem stands in the bytes.
//!
//! Duplicate keys: objects read through `deserialize_struct` are generated
//! types, whose visitors refuse a key met twice (declared keys by their slot,
//! kept or dropped unknown keys by their list); every other object (a
//! `Value`, a map, an ignored value) is checked here.
//!
//! Every rule it applies is the profile's own ([`crate::profile`]): the
//! same depth, number, string and escape decisions as the other readers.

use crate::profile::{self, Refusal};
use crate::strict::Limits;
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::fmt;

/// Why the fast reader stopped; see the module documentation.
#[derive(Debug)]
pub struct Refused(String);

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Refused {}

impl de::Error for Refused {
    fn custom<T: fmt::Display>(message: T) -> Self {
        Refused(message.to_string())
    }
}

/// A profile rule's refusal, by the name of its kind.
impl From<Refusal> for Refused {
    #[cold]
    fn from(refusal: Refusal) -> Self {
        Refused(refusal.to_string())
    }
}

fn refused<T>(why: &str) -> Result<T, Refused> {
    Err(Refused(why.to_owned()))
}

/// A JSON document as a `Value` under the strict profile: this one-pass
/// reader, then, only when it refuses, the reference reader
/// ([`strict::read_with`](crate::strict::read_with)) to name the first
/// problem. The same answer as the reference reader's (tests/conformance.rs
/// holds the two readers to it), in 12-15% fewer instructions on the
/// benches' records (most of either is building the `Value`): what
/// `validate_json` reads with.
pub fn value(bytes: &[u8], limits: Limits) -> Result<serde_json::Value, crate::strict::JsonError> {
    from_slice(bytes, limits).or_else(|_| crate::strict::read_with(bytes, limits))
}

/// Reads `bytes` into `T`, or refuses.
pub fn from_slice<'a, T: de::Deserialize<'a>>(bytes: &'a [u8], limits: Limits) -> Result<T, Refused> {
    let text = profile::input(bytes, limits.max_bytes).map_err(|(refusal, _)| refusal)?;
    let mut reader = Reader { text, bytes, pos: 0, depth: 0, scratch: String::new() };
    let value = OnePass::set(true, || T::deserialize(&mut reader))?;
    reader.skip_whitespace();
    if reader.pos != bytes.len() {
        return refused("trailing characters");
    }
    Ok(value)
}

thread_local! {
    /// Whether this thread is inside [`from_slice`], whose refusals are
    /// always re-read by the reference reader.
    static ONE_PASS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether a `Deserialize` impl runs under the one-pass reader, whose every
/// refusal `from_json` re-reads with the reference reader (which then gives
/// the error): an impl may take a faster way there when it gives the same
/// verdict ([`crate::bind::read_versioned`]).
pub fn in_one_pass() -> bool {
    ONE_PASS.with(std::cell::Cell::get)
}

/// Runs `read` with [`ONE_PASS`] cleared: the reference reader's re-read,
/// even from inside a `Deserialize` the one-pass reader runs.
pub(crate) fn by_reference<R>(read: impl FnOnce() -> R) -> R {
    OnePass::set(false, read)
}

/// Sets [`ONE_PASS`] while `read` runs, and restores it after, even when
/// `read` unwinds.
struct OnePass(bool);

impl OnePass {
    fn set<R>(value: bool, read: impl FnOnce() -> R) -> R {
        let _restore = OnePass(ONE_PASS.with(|flag| flag.replace(value)));
        read()
    }
}

impl Drop for OnePass {
    fn drop(&mut self) {
        ONE_PASS.with(|flag| flag.set(self.0));
    }
}

struct Reader<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    depth: usize,
    scratch: String,
}

/// A string as read: borrowed from the input unless it held an escape.
enum Text<'a, 's> {
    Input(&'a str),
    Scratch(&'s str),
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    fn expect(&mut self, byte: u8) -> Result<(), Refused> {
        self.skip_whitespace();
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            refused("unexpected character")
        }
    }

    fn enter(&mut self) -> Result<(), Refused> {
        self.depth = profile::nest(self.depth)?;
        self.pos += 1;
        Ok(())
    }

    fn literal(&mut self, word: &[u8]) -> Result<(), Refused> {
        if self.bytes[self.pos..].starts_with(word) {
            self.pos += word.len();
            Ok(())
        } else {
            Err(Refusal::InvalidLiteral.into())
        }
    }

    /// A string whose opening quote is at `pos`.
    fn string(&mut self) -> Result<Text<'a, '_>, Refused> {
        self.pos += 1;
        let start = self.pos;
        loop {
            let byte = *self.bytes.get(self.pos).ok_or_else(|| Refused("unterminated string".into()))?;
            match profile::STRING[byte as usize] {
                profile::PLAIN => self.pos += 1,
                profile::QUOTE => {
                    self.pos += 1;
                    return Ok(Text::Input(&self.text[start..self.pos - 1]));
                }
                profile::CONTROL => return Err(Refusal::ControlCharacter(byte).into()),
                _ => break,
            }
        }
        // An escape: decode the rest into the scratch buffer.
        self.scratch.clear();
        self.scratch.push_str(&self.text[start..self.pos]);
        loop {
            let run = self.pos;
            while let Some(&byte) = self.bytes.get(self.pos) {
                if profile::STRING[byte as usize] != profile::PLAIN {
                    break;
                }
                self.pos += 1;
            }
            self.scratch.push_str(&self.text[run..self.pos]);
            match self.peek() {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(Text::Scratch(&self.scratch));
                }
                Some(b'\\') => {
                    let (c, next) = profile::escape(self.bytes, self.pos)?;
                    self.scratch.push(c);
                    self.pos = next;
                }
                _ => return refused("control character or end of input in a string"),
            }
        }
    }

    /// A number, handed to the visitor as serde_json does: `u64` when not
    /// negative, `i64` when negative, `f64` with a fraction or exponent.
    fn number<V: Visitor<'a>>(&mut self, visitor: V) -> Result<V::Value, Refused> {
        let literal = profile::literal(self.bytes, self.pos).ok_or(Refusal::InvalidNumber)?;
        self.pos = literal.end;
        if literal.integer() {
            let value = profile::integer(literal.negative(), literal.digits(self.bytes))?;
            return if literal.negative() { visitor.visit_i64(value) } else { visitor.visit_u64(value as u64) };
        }
        visitor.visit_f64(profile::float_literal(literal.text(self.text))?)
    }

    /// Any value; `track_keys` says whether this reader checks an object's
    /// keys for duplicates (see the module documentation).
    fn value<V: Visitor<'a>>(&mut self, visitor: V, track_keys: bool) -> Result<V::Value, Refused> {
        self.skip_whitespace();
        match self.peek() {
            Some(b'{') => {
                self.enter()?;
                let value = visitor.visit_map(Object { reader: self, first: true, keys: track_keys.then(Keys::default) })?;
                self.expect(b'}')?;
                self.depth -= 1;
                Ok(value)
            }
            Some(b'[') => {
                self.enter()?;
                let value = visitor.visit_seq(Array { reader: self, first: true })?;
                self.expect(b']')?;
                self.depth -= 1;
                Ok(value)
            }
            Some(b'"') => match self.string()? {
                Text::Input(text) => visitor.visit_borrowed_str(text),
                Text::Scratch(text) => visitor.visit_str(text),
            },
            Some(b't') => self.literal(b"true").and_then(|()| visitor.visit_bool(true)),
            Some(b'f') => self.literal(b"false").and_then(|()| visitor.visit_bool(false)),
            Some(b'n') => self.literal(b"null").and_then(|()| visitor.visit_unit()),
            Some(b'-' | b'0'..=b'9') => self.number(visitor),
            _ => refused("expected a value"),
        }
    }
}

impl<'de> de::Deserializer<'de> for &mut Reader<'de> {
    type Error = Refused;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        self.value(visitor, true)
    }

    /// Generated types: their visitor checks the keys.
    fn deserialize_struct<V: Visitor<'de>>(self, _: &'static str, _: &'static [&'static str], visitor: V) -> Result<V::Value, Refused> {
        self.value(visitor, false)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        self.skip_whitespace();
        if self.peek() == Some(b'n') {
            self.literal(b"null")?;
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _: &'static str, visitor: V) -> Result<V::Value, Refused> {
        visitor.visit_newtype_struct(self)
    }

    /// A value nobody keeps is still read in full: it must meet the profile.
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        match crate::scan::value(self.bytes, self.pos, self.depth) {
            Some(end) => self.pos = end,
            // Not certainly accepted: read it in full, deciding exactly.
            None => drop(self.value(IgnoredAny, true)?),
        }
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map enum identifier
    }
}

/// The keys an object has had so far, for the duplicate check.
#[derive(Default)]
struct Keys<'a> {
    seen: Vec<Cow<'a, str>>,
}

impl<'a> Keys<'a> {
    fn insert(&mut self, key: Cow<'a, str>) -> Result<(), Refused> {
        // Objects are small; past a few dozen keys a sorted search would pay.
        if self.seen.len() < 32 {
            if self.seen.contains(&key) {
                return Err(Refusal::DuplicateKey.into());
            }
            self.seen.push(key);
            if self.seen.len() == 32 {
                self.seen.sort_unstable();
            }
            return Ok(());
        }
        match self.seen.binary_search(&key) {
            Ok(_) => Err(Refusal::DuplicateKey.into()),
            Err(at) => {
                self.seen.insert(at, key);
                Ok(())
            }
        }
    }
}

struct Object<'r, 'a> {
    reader: &'r mut Reader<'a>,
    first: bool,
    keys: Option<Keys<'a>>,
}

impl<'de> MapAccess<'de> for Object<'_, 'de> {
    type Error = Refused;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Refused> {
        let reader = &mut *self.reader;
        reader.skip_whitespace();
        match reader.peek() {
            Some(b'}') => return Ok(None),
            Some(b',') if !self.first => {
                reader.pos += 1;
                reader.skip_whitespace();
            }
            _ if self.first => {}
            _ => return refused("expected \",\" or \"}\""),
        }
        self.first = false;
        if reader.peek() != Some(b'"') {
            return refused("expected a key");
        }
        let key = match reader.string()? {
            Text::Input(text) => Cow::Borrowed(text),
            Text::Scratch(text) => Cow::Owned(text.to_owned()),
        };
        reader.expect(b':')?;
        if let Some(keys) = &mut self.keys {
            keys.insert(key.clone())?;
        }
        seed.deserialize(KeyReader(key)).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Refused> {
        seed.deserialize(&mut *self.reader)
    }
}

struct Array<'r, 'a> {
    reader: &'r mut Reader<'a>,
    first: bool,
}

impl<'de> SeqAccess<'de> for Array<'_, 'de> {
    type Error = Refused;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, Refused> {
        let reader = &mut *self.reader;
        reader.skip_whitespace();
        match reader.peek() {
            Some(b']') => return Ok(None),
            Some(b',') if !self.first => reader.pos += 1,
            _ if self.first => {}
            _ => return refused("expected \",\" or \"]\""),
        }
        self.first = false;
        seed.deserialize(&mut *reader).map(Some)
    }
}

/// An object key, handed to the key's `Deserialize` as a string.
struct KeyReader<'a>(Cow<'a, str>);

impl<'de> de::Deserializer<'de> for KeyReader<'de> {
    type Error = Refused;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        match self.0 {
            Cow::Borrowed(text) => visitor.visit_borrowed_str(text),
            Cow::Owned(text) => visitor.visit_string(text),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}
