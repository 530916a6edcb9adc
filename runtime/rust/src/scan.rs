//! The fast path of the strict check: one pass over the bytes that builds
//! nothing and answers only "certainly accepted" or "let the reference
//! decide". The Python core checks whole documents with it before pydantic
//! reads them; the one-pass reader ([`crate::read`]) skips the values a
//! generated type drops with it. Anything unusual (an escaped key, a surrogate escape, `NaN`, a
//! long integer, a number that may overflow or be negative zero, any syntax
//! error) is left to `concord_runtime::strict`, which names the first problem
//! with its exact kind, offset and message. So this scanner can only ever be
//! too cautious, never wrong: it accepts a subset of what the reference
//! accepts, which tests/conformance.rs checks on every vector and mutation.
//!
//! The caller has already checked the size limit, the byte order mark and
//! UTF-8, so strings need no decoding here.

use crate::profile::{MAX_DEPTH, MAX_SAFE_INTEGER};
use std::collections::HashSet;

/// Past this many keys an object's keys go into a hash set.
const LINEAR_KEYS: usize = 16;

/// Whether the document `bytes` is certainly accepted by the strict profile
/// (size limits aside).
pub fn accepts(bytes: &[u8]) -> bool {
    if bytes.starts_with(b"\xEF\xBB\xBF") || std::str::from_utf8(bytes).is_err() {
        return false;
    }
    Scanner { bytes, pos: 0, depth: 0, open: Vec::with_capacity(16), keys: Vec::new() }.value(true).is_some()
}

/// The end of the one value that starts at `pos` (after any whitespace),
/// nested `depth` levels deep, when it is certainly accepted.
pub fn value(bytes: &[u8], pos: usize, depth: usize) -> Option<usize> {
    Scanner { bytes, pos, depth, open: Vec::new(), keys: Vec::new() }.value(false)
}

/// The keys of one open object (shared with the writer's pass).
#[derive(Default)]
pub struct Keys<'a> {
    list: Vec<&'a [u8]>,
    set: HashSet<&'a [u8]>,
}

impl<'a> Keys<'a> {
    pub fn clear(&mut self) {
        self.list.clear();
        self.set.clear();
    }

    /// Adds `key`; `None` when the object already has it.
    pub fn insert(&mut self, key: &'a [u8]) -> Option<()> {
        if self.list.len() < LINEAR_KEYS {
            if self.list.contains(&key) {
                return None;
            }
            self.list.push(key);
            return Some(());
        }
        if self.set.is_empty() {
            self.set.extend(self.list.iter().copied());
        }
        self.set.insert(key).then_some(())
    }
}

struct Scanner<'a> {
    bytes: &'a [u8],
    pos: usize,
    /// How deep the value being scanned stands.
    depth: usize,
    /// `true` for an open object, `false` for an open array.
    open: Vec<bool>,
    /// The keys of each open object, by depth (reused across objects).
    keys: Vec<Keys<'a>>,
}

/// A mask with the high bit of each byte of `word` that is `"`, `\` or below
/// 0x20 set; its lowest set bit is exact (a borrow only runs upwards from a
/// flagged byte), so `trailing_zeros() / 8` is the first such byte.
#[inline]
fn special(word: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let quote = word ^ (ONES * b'"' as u64);
    let backslash = word ^ (ONES * b'\\' as u64);
    let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
    zero(quote) | zero(backslash) | (word.wrapping_sub(ONES * 0x20) & !word & HIGH)
}

impl<'a> Scanner<'a> {
    #[inline]
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    #[inline]
    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    /// One value; with `whole`, nothing but whitespace may follow it.
    fn value(&mut self, whole: bool) -> Option<usize> {
        'value: loop {
            self.skip_whitespace();
            match self.peek()? {
                open @ (b'{' | b'[') => {
                    if self.depth + self.open.len() == MAX_DEPTH {
                        return None;
                    }
                    self.pos += 1;
                    self.skip_whitespace();
                    let object = open == b'{';
                    let close = if object { b'}' } else { b']' };
                    if self.peek() == Some(close) {
                        self.pos += 1;
                    } else {
                        self.open.push(object);
                        if object {
                            let depth = self.open.len();
                            if self.keys.len() < depth {
                                self.keys.resize_with(depth, Keys::default);
                            }
                            self.keys[depth - 1].clear();
                            self.key()?;
                        }
                        continue 'value;
                    }
                }
                b'"' => {
                    self.string()?;
                }
                b't' => self.literal(b"true")?,
                b'f' => self.literal(b"false")?,
                b'n' => self.literal(b"null")?,
                b'-' | b'0'..=b'9' => self.number()?,
                _ => return None,
            }
            // After a value: a comma, or the end of containers.
            loop {
                self.skip_whitespace();
                let Some(&object) = self.open.last() else {
                    return (!whole || self.pos == self.bytes.len()).then_some(self.pos);
                };
                match (object, self.peek()?) {
                    (_, b',') => {
                        self.pos += 1;
                        if object {
                            self.key()?;
                        }
                        continue 'value;
                    }
                    (true, b'}') | (false, b']') => {
                        self.pos += 1;
                        self.open.pop();
                    }
                    _ => return None,
                }
            }
        }
    }

    /// A key without escapes, not yet in its object, and its colon.
    fn key(&mut self) -> Option<()> {
        self.skip_whitespace();
        if self.peek()? != b'"' {
            return None;
        }
        let start = self.pos + 1;
        if self.string()? {
            return None;
        }
        let key = &self.bytes[start..self.pos - 1];
        let depth = self.open.len();
        self.keys[depth - 1].insert(key)?;
        self.skip_whitespace();
        if self.peek()? != b':' {
            return None;
        }
        self.pos += 1;
        Some(())
    }

    /// A string at its opening quote; whether it held an escape.
    #[inline]
    fn string(&mut self) -> Option<bool> {
        let bytes = self.bytes;
        let mut pos = self.pos + 1;
        let mut escaped = false;
        loop {
            loop {
                if let Some(chunk) = bytes.get(pos..pos + 8) {
                    let mask = special(u64::from_le_bytes(chunk.try_into().expect("eight bytes")));
                    if mask != 0 {
                        pos += (mask.trailing_zeros() / 8) as usize;
                        break;
                    }
                    pos += 8;
                } else {
                    while let Some(&byte) = bytes.get(pos) {
                        if byte == b'"' || byte == b'\\' || byte < 0x20 {
                            break;
                        }
                        pos += 1;
                    }
                    break;
                }
            }
            match bytes.get(pos)? {
                b'"' => {
                    self.pos = pos + 1;
                    return Some(escaped);
                }
                b'\\' => {
                    escaped = true;
                    pos = escape(bytes, pos)?;
                }
                _ => return None,
            }
        }
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        if self.bytes[self.pos..].starts_with(word) {
            self.pos += word.len();
            Some(())
        } else {
            None
        }
    }

    /// A number that is certainly finite, not negative zero, and (when an
    /// integer) within ±(2^53-1); followed by a byte that may follow a value.
    fn number(&mut self) -> Option<()> {
        let bytes = self.bytes;
        let start = self.pos;
        let negative = bytes[start] == b'-';
        let mut pos = start + usize::from(negative);
        let digits = |mut pos: usize| {
            while let Some(b'0'..=b'9') = bytes.get(pos) {
                pos += 1;
            }
            pos
        };
        let integer_start = pos;
        match bytes.get(pos)? {
            b'0' => pos += 1,
            b'1'..=b'9' => pos = digits(pos),
            _ => return None,
        }
        let integer_end = pos;
        let mut fraction_end = pos;
        if bytes.get(pos) == Some(&b'.') {
            fraction_end = digits(pos + 1);
            if fraction_end == pos + 1 {
                return None;
            }
            pos = fraction_end;
        }
        let exponent = matches!(bytes.get(pos), Some(b'e' | b'E'));
        if exponent {
            let sign = usize::from(matches!(bytes.get(pos + 1), Some(b'+' | b'-')));
            let end = digits(pos + 1 + sign);
            // Long exponents (and a missing one) go to the reference.
            if end == pos + 1 + sign || end - (pos + 1 + sign) > 4 {
                return None;
            }
            pos = end;
        }
        if !matches!(bytes.get(pos), None | Some(b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r')) {
            return None;
        }
        self.pos = pos;
        let integer_digits = integer_end - integer_start;
        if !exponent && fraction_end == integer_end {
            // An integer: 15 digits are always safe, 17 never.
            if negative && bytes[integer_start] == b'0' {
                return None;
            }
            return match integer_digits {
                0..=15 => Some(()),
                16 => {
                    let text = std::str::from_utf8(&bytes[integer_start..integer_end]).ok()?;
                    (text.parse::<i64>().ok()? <= MAX_SAFE_INTEGER).then_some(())
                }
                _ => None,
            };
        }
        if !exponent {
            // A fraction without exponent is finite up to 308 integer digits;
            // negative, it is negative zero only when every digit is zero.
            if integer_digits > 308 {
                return None;
            }
            if negative && bytes[integer_start..fraction_end].iter().all(|&b| b == b'0' || b == b'.') {
                return None;
            }
            return Some(());
        }
        let text = std::str::from_utf8(&bytes[start..pos]).ok()?;
        let value: f64 = text.parse().ok()?;
        (value.is_finite() && !(value == 0.0 && negative)).then_some(())
    }
}

/// The escape at `at` (its backslash): where reading goes on, or `None` for
/// anything but a simple escape, a non-surrogate `\u` or a surrogate pair.
#[inline]
fn escape(bytes: &[u8], at: usize) -> Option<usize> {
    match bytes.get(at + 1)? {
        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => Some(at + 2),
        b'u' => {
            let unit = hex(bytes, at + 2)?;
            match unit {
                0xD800..=0xDBFF => {
                    if bytes.get(at + 6..at + 8)? != b"\\u" {
                        return None;
                    }
                    let low = hex(bytes, at + 8)?;
                    (0xDC00..=0xDFFF).contains(&low).then_some(at + 12)
                }
                0xDC00..=0xDFFF => None,
                _ => Some(at + 6),
            }
        }
        _ => None,
    }
}

fn hex(bytes: &[u8], at: usize) -> Option<u32> {
    let digits = bytes.get(at..at + 4)?;
    digits.iter().try_fold(0u32, |value, &byte| Some(value * 16 + (byte as char).to_digit(16)?))
}
