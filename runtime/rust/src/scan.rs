//! The fast path of the strict check: one pass over the bytes that builds
//! nothing and answers only "certainly accepted" or "let the reference
//! decide". The Python core checks whole documents with it before pydantic
//! reads them; the one-pass reader ([`crate::read`]) skips the values a
//! generated type drops with it. Anything it refuses or is unsure of (an
//! escaped key, `NaN`, a number the profile refuses, any syntax error) is
//! left to `concord_runtime::strict`, which names the first problem with its
//! exact kind, offset and message. So this scanner can only ever be
//! too cautious, never wrong: it accepts a subset of what the reference
//! accepts, which tests/conformance.rs checks on every vector and mutation.
//!
//! Every rule it applies is the profile's own ([`crate::profile`]): the
//! same depth, number, string and escape decisions as the other readers.
//!
//! Strings need no decoding here: the input is UTF-8 (`accepts` checks
//! it, and `value`'s caller has). The size limit is the caller's.

use crate::profile;
use std::collections::HashSet;

/// Past this many keys an object's keys go into a hash set.
const LINEAR_KEYS: usize = 16;

/// Whether the document `bytes` is certainly accepted by the strict profile
/// (size limits aside).
pub fn accepts(bytes: &[u8]) -> bool {
    if profile::input(bytes, usize::MAX).is_err() {
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
                    profile::nest(self.depth + self.open.len()).ok()?;
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
                    let mask = profile::not_plain(u64::from_le_bytes(chunk.try_into().expect("eight bytes")));
                    if mask != 0 {
                        pos += (mask.trailing_zeros() / 8) as usize;
                        break;
                    }
                    pos += 8;
                } else {
                    while let Some(&byte) = bytes.get(pos) {
                        if profile::STRING[byte as usize] != profile::PLAIN {
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
                    pos = profile::escape(bytes, pos).ok()?.1;
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

    /// A number the profile takes ([`profile::verdict`]), followed by a
    /// byte that may follow a value.
    fn number(&mut self) -> Option<()> {
        let literal = profile::literal(self.bytes, self.pos)?;
        if !matches!(self.bytes.get(literal.end), None | Some(b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r')) {
            return None;
        }
        self.pos = literal.end;
        profile::verdict(self.bytes, &literal).ok()
    }
}
