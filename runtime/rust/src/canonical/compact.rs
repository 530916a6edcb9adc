//! The fast path of `digest()` in both languages: canonical bytes straight
//! from a record's compact JSON as `to_json` writes it (Rust's writer, or
//! pydantic's in Python), without a `Value` tree. Both escape strings the
//! canonical way (tests check every code point), so strings, keys and
//! integers are copied as written; objects are sorted by the UTF-16 code
//! units of their keys. Anything else (a float, an unsafe integer, a key
//! twice, nesting past the reader's limit, anything unexpected) gives `None`,
//! and the caller takes the reference route ([`super::canonicalize`]).

use crate::profile::{MAX_DEPTH, MAX_SAFE_INTEGER};
use std::cmp::Ordering;

enum Node<'a> {
    /// A string (with its quotes), an integer, `true`, `false` or `null`.
    Raw(&'a [u8]),
    Array(Vec<Node<'a>>),
    /// Keys without their quotes, as written (escaped).
    Object(Vec<(&'a str, Node<'a>)>),
}

/// The canonical bytes of compact, canonically escaped JSON, when it has them.
pub fn canonical(input: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(input).ok()?;
    let mut parser = Parser { text, bytes: input, pos: 0 };
    let node = parser.value(0)?;
    if parser.pos != input.len() {
        return None;
    }
    let mut out = Vec::with_capacity(input.len());
    write(&mut out, node)?;
    Some(out)
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Parser<'a> {
    fn value(&mut self, depth: usize) -> Option<Node<'a>> {
        match *self.bytes.get(self.pos)? {
            b'"' => {
                let start = self.pos;
                self.pos = self.string_end()?;
                Some(Node::Raw(&self.bytes[start..self.pos]))
            }
            open @ (b'{' | b'[') => {
                if depth == MAX_DEPTH {
                    return None;
                }
                self.pos += 1;
                let close = if open == b'{' { b'}' } else { b']' };
                let mut items = Vec::new();
                let mut entries = Vec::new();
                if self.bytes.get(self.pos) == Some(&close) {
                    self.pos += 1;
                } else {
                    loop {
                        if open == b'{' {
                            if self.bytes.get(self.pos) != Some(&b'"') {
                                return None;
                            }
                            let start = self.pos + 1;
                            self.pos = self.string_end()?;
                            let key = &self.text[start..self.pos - 1];
                            if self.bytes.get(self.pos) != Some(&b':') {
                                return None;
                            }
                            self.pos += 1;
                            entries.push((key, self.value(depth + 1)?));
                        } else {
                            items.push(self.value(depth + 1)?);
                        }
                        match *self.bytes.get(self.pos)? {
                            b',' => self.pos += 1,
                            byte if byte == close => {
                                self.pos += 1;
                                break;
                            }
                            _ => return None,
                        }
                    }
                }
                Some(if open == b'{' { Node::Object(entries) } else { Node::Array(items) })
            }
            b't' => self.word(b"true"),
            b'f' => self.word(b"false"),
            b'n' => self.word(b"null"),
            _ => {
                let start = self.pos;
                if self.bytes[start] == b'-' {
                    self.pos += 1;
                }
                let digits = self.pos;
                while let Some(b'0'..=b'9') = self.bytes.get(self.pos) {
                    self.pos += 1;
                }
                let count = self.pos - digits;
                // Integers only (a float has no canonical form), within ±(2^53-1), not -0.
                let safe = match count {
                    1..=15 => !(self.bytes[digits] == b'0' && (count > 1 || digits > start)),
                    16 => self.text[digits..self.pos].parse::<i64>().is_ok_and(|value| value <= MAX_SAFE_INTEGER) && self.bytes[digits] != b'0',
                    _ => false,
                };
                if !safe || matches!(self.bytes.get(self.pos), Some(b'.' | b'e' | b'E')) {
                    return None;
                }
                Some(Node::Raw(&self.bytes[start..self.pos]))
            }
        }
    }

    fn word(&mut self, word: &'static [u8]) -> Option<Node<'a>> {
        if !self.bytes[self.pos..].starts_with(word) {
            return None;
        }
        self.pos += word.len();
        Some(Node::Raw(word))
    }

    /// Past the closing quote of the string at `pos`.
    fn string_end(&self) -> Option<usize> {
        let mut pos = self.pos + 1;
        loop {
            match *self.bytes.get(pos)? {
                b'"' => return Some(pos + 1),
                b'\\' => pos += 2,
                _ => pos += 1,
            }
        }
    }
}

fn write(out: &mut Vec<u8>, node: Node<'_>) -> Option<()> {
    match node {
        Node::Raw(bytes) => out.extend_from_slice(bytes),
        Node::Array(items) => {
            out.push(b'[');
            for (index, item) in items.into_iter().enumerate() {
                if index > 0 {
                    out.push(b',');
                }
                write(out, item)?;
            }
            out.push(b']');
        }
        Node::Object(mut entries) => {
            let mut unordered = false;
            entries.sort_by(|(a, _), (b, _)| {
                let order = key_cmp(a, b);
                unordered |= order.is_none();
                order.unwrap_or(Ordering::Equal)
            });
            if unordered || entries.windows(2).any(|pair| key_cmp(pair[0].0, pair[1].0) != Some(Ordering::Less)) {
                return None; // a key twice, or a key that does not decode
            }
            out.push(b'{');
            for (index, (key, item)) in entries.into_iter().enumerate() {
                if index > 0 {
                    out.push(b',');
                }
                out.push(b'"');
                out.extend_from_slice(key.as_bytes());
                out.extend_from_slice(b"\":");
                write(out, item)?;
            }
            out.push(b'}');
        }
    }
    Some(())
}

/// RFC 8785 key order (UTF-16 code units) of two keys as written.
fn key_cmp(a: &str, b: &str) -> Option<Ordering> {
    if a.contains('\\') || b.contains('\\') {
        let decode = |key: &str| serde_json::from_str::<String>(&format!("\"{key}\"")).ok();
        let (a, b) = (decode(a)?, decode(b)?);
        return Some(a.encode_utf16().cmp(b.encode_utf16()));
    }
    Some(super::utf16_cmp(a, b))
}
