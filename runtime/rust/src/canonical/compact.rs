//! The fast path of `digest()` in both languages: canonical bytes straight
//! from a record's compact JSON as `to_json` writes it (Rust's writer, or
//! pydantic's in Python), without a `Value` tree. Both escape strings the
//! canonical way (tests check every code point), so strings, keys and
//! integers are copied as written; objects are sorted by the UTF-16 code
//! units of their keys. Anything else (a float, an unsafe integer, a key
//! twice, nesting past the reader's limit, anything unexpected) gives `None`,
//! and the caller takes the reference route ([`super::canonicalize`]).

use crate::profile;
use std::cmp::Ordering;

/// The canonical bytes of compact, canonically escaped JSON, when it has them.
pub fn canonical(input: &[u8]) -> Option<Vec<u8>> {
    std::str::from_utf8(input).ok()?;
    let mut writer = Writer { bytes: input, pos: 0, out: Vec::with_capacity(input.len()), members: Vec::new(), scratch: Vec::new() };
    writer.value(0)?;
    if writer.pos != input.len() {
        return None;
    }
    Some(writer.out)
}

/// The members of one object as a writer writes them into its output, each
/// `"key":value` already canonical, in the order they come: moved into key
/// order afterwards when they were not in it, so that no writer needs a
/// tree. Used here and by the Python core's writer, which writes the
/// canonical form of a record straight from its models.
#[doc(hidden)]
#[derive(Default)]
pub struct Members {
    places: Vec<Member>,
    sorted: bool,
}

/// `"key":value` at `start..end` of the output, its colon at `colon - 1`.
struct Member {
    start: usize,
    colon: usize,
    end: usize,
}

impl Members {
    /// Ready for the next object.
    pub fn clear(&mut self) {
        self.places.clear();
        self.sorted = true;
    }

    /// After a member's `"key":` was written to `out` from `start` on; `None`
    /// for a key equal to the one before (a key twice) or one that does not decode.
    pub fn keyed(&mut self, out: &[u8], start: usize) -> Option<()> {
        let member = Member { start, colon: out.len(), end: out.len() };
        if let Some(last) = self.places.last() {
            match member_cmp(out, last, &member)? {
                Ordering::Less => {}
                Ordering::Equal => return None,
                Ordering::Greater => self.sorted = false,
            }
        }
        self.places.push(member);
        Some(())
    }

    /// After the member's value: where it ends.
    pub fn ended(&mut self, end: usize) {
        if let Some(last) = self.places.last_mut() {
            last.end = end;
        }
    }

    /// Moves the members written to `out` into key order when they are not
    /// in it (`scratch` is reused); `None` for a key twice.
    pub fn order(&mut self, out: &mut Vec<u8>, scratch: &mut Vec<u8>) -> Option<()> {
        if self.sorted {
            return Some(());
        }
        let order = |a: &Member, b: &Member| member_cmp(out, a, b);
        let mut unordered = false;
        self.places.sort_by(|a, b| {
            let found = order(a, b);
            unordered |= found.is_none();
            found.unwrap_or(Ordering::Equal)
        });
        if unordered || self.places.windows(2).any(|pair| order(&pair[0], &pair[1]) != Some(Ordering::Less)) {
            return None; // a key twice, or a key that does not decode
        }
        let begin = self.places.iter().map(|member| member.start).min()?;
        scratch.clear();
        for (index, member) in self.places.iter().enumerate() {
            if index > 0 {
                scratch.push(b',');
            }
            scratch.extend_from_slice(&out[member.start..member.end]);
        }
        out.truncate(begin);
        out.extend_from_slice(scratch);
        Some(())
    }
}

/// RFC 8785 order of two members' keys as written: ASCII keys without
/// escapes (nearly all) by their bytes, any other as [`key_cmp`] decodes it.
fn member_cmp(out: &[u8], a: &Member, b: &Member) -> Option<Ordering> {
    let (a, b) = (&out[a.start + 1..a.colon - 2], &out[b.start + 1..b.colon - 2]);
    let plain = |key: &[u8]| key.iter().all(|&byte| byte.is_ascii() && byte != b'\\');
    if plain(a) && plain(b) {
        return Some(a.cmp(b));
    }
    key_cmp(std::str::from_utf8(a).ok()?, std::str::from_utf8(b).ok()?)
}

/// Copies the input to the output in one pass, each value as it comes; an
/// object's members are written in input order, each already canonical, and
/// moved into key order afterwards when they were not in it (no tree:
/// records hold many small objects).
struct Writer<'a> {
    bytes: &'a [u8],
    pos: usize,
    out: Vec<u8>,
    /// The members of each open object, by depth (reused across objects).
    members: Vec<Members>,
    scratch: Vec<u8>,
}

impl Writer<'_> {
    fn value(&mut self, depth: usize) -> Option<()> {
        match *self.bytes.get(self.pos)? {
            b'"' => {
                let start = self.pos;
                self.pos = self.string_end()?;
                self.out.extend_from_slice(&self.bytes[start..self.pos]);
            }
            b'[' => {
                profile::nest(depth).ok()?;
                self.pos += 1;
                self.out.push(b'[');
                if self.bytes.get(self.pos) == Some(&b']') {
                    self.pos += 1;
                } else {
                    loop {
                        self.value(depth + 1)?;
                        match *self.bytes.get(self.pos)? {
                            b',' => self.out.push(b','),
                            b']' => break,
                            _ => return None,
                        }
                        self.pos += 1;
                    }
                    self.pos += 1;
                }
                self.out.push(b']');
            }
            b'{' => {
                profile::nest(depth).ok()?;
                self.object(depth)?;
            }
            b't' => self.word(b"true")?,
            b'f' => self.word(b"false")?,
            b'n' => self.word(b"null")?,
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
                // Integers only (a float has no canonical form), without a
                // leading zero, as the profile takes them (±(2^53-1), no -0).
                let safe = count > 0 && !(count > 1 && self.bytes[digits] == b'0') && profile::integer(digits > start, &self.bytes[digits..self.pos]).is_ok();
                if !safe || matches!(self.bytes.get(self.pos), Some(b'.' | b'e' | b'E')) {
                    return None;
                }
                self.out.extend_from_slice(&self.bytes[start..self.pos]);
            }
        }
        Some(())
    }

    fn object(&mut self, depth: usize) -> Option<()> {
        self.pos += 1;
        self.out.push(b'{');
        if self.bytes.get(self.pos) == Some(&b'}') {
            self.pos += 1;
            self.out.push(b'}');
            return Some(());
        }
        if self.members.len() <= depth {
            self.members.resize_with(depth + 1, Members::default);
        }
        let mut members = std::mem::take(&mut self.members[depth]);
        members.clear();
        loop {
            if self.bytes.get(self.pos) != Some(&b'"') {
                return None;
            }
            let start = self.out.len();
            let quote = self.pos;
            self.pos = self.string_end()?;
            if self.bytes.get(self.pos) != Some(&b':') {
                return None;
            }
            self.out.extend_from_slice(&self.bytes[quote..=self.pos]);
            self.pos += 1;
            members.keyed(&self.out, start)?;
            self.value(depth + 1)?;
            members.ended(self.out.len());
            match *self.bytes.get(self.pos)? {
                b',' => self.out.push(b','),
                b'}' => break,
                _ => return None,
            }
            self.pos += 1;
        }
        self.pos += 1;
        members.order(&mut self.out, &mut self.scratch)?;
        self.out.push(b'}');
        self.members[depth] = members;
        Some(())
    }

    fn word(&mut self, word: &'static [u8]) -> Option<()> {
        if !self.bytes[self.pos..].starts_with(word) {
            return None;
        }
        self.pos += word.len();
        self.out.extend_from_slice(word);
        Some(())
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

/// RFC 8785 key order (UTF-16 code units) of two keys as written.
fn key_cmp(a: &str, b: &str) -> Option<Ordering> {
    if a.contains('\\') || b.contains('\\') {
        let decode = |key: &str| serde_json::from_str::<String>(&format!("\"{key}\"")).ok();
        let (a, b) = (decode(a)?, decode(b)?);
        return Some(a.encode_utf16().cmp(b.encode_utf16()));
    }
    Some(super::utf16_cmp(a, b))
}
