//! Batch reads with per-record isolation (docs/decisions/batch-reads.md):
//! a JSON Lines stream gives the records that read and, for each line that
//! did not, its number and why. One bad line never aborts the batch; a line
//! longer than the size limit is a failed record, skipped without being held
//! in memory, so memory stays bounded by the largest record, not the file.
//! `concord_runtime.batch` in Python reads the same lines to the same
//! outcome: the same failed lines, with the same error kinds.

use crate::strict::{ErrorKind, JsonError};
use crate::{Error, Record};
use std::io::BufRead;
use std::marker::PhantomData;

/// What a batch read gave: the records that read, in order, and the lines that did not.
#[derive(Debug)]
pub struct ReadOutcome<T> {
    pub records: Vec<T>,
    pub failed: Vec<Failed>,
}

/// A line that did not read: its number (from 1) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failed {
    pub line: usize,
    pub error: Error,
}

/// Reads every line of `reader` as a record of `T` (each as `T::from_json`),
/// collecting the records and the failed lines. Only an I/O error ends the
/// read early.
pub fn read_jsonl<T: Record, R: BufRead>(reader: R, max_bytes: usize) -> std::io::Result<ReadOutcome<T>> {
    let mut outcome = ReadOutcome { records: Vec::new(), failed: Vec::new() };
    for item in JsonLines::<T, R>::new(reader, max_bytes) {
        match item? {
            Ok(record) => outcome.records.push(record),
            Err(failed) => outcome.failed.push(failed),
        }
    }
    Ok(outcome)
}

/// The records of a JSON Lines stream one at a time, each `Ok` or the failed
/// line. A line is what stands before a `\n`; the end of the stream ends the
/// last line, and an empty rest after the last `\n` is no line. A line of
/// more than `max_bytes` bytes (without its `\n`) fails as `too-large`.
pub struct JsonLines<T, R> {
    reader: R,
    max_bytes: usize,
    line: usize,
    buffer: Vec<u8>,
    record: PhantomData<fn() -> T>,
}

impl<T: Record, R: BufRead> JsonLines<T, R> {
    pub fn new(reader: R, max_bytes: usize) -> Self {
        JsonLines { reader, max_bytes, line: 0, buffer: Vec::new(), record: PhantomData }
    }

    /// The next line into `buffer`, unless it is longer than the limit:
    /// `None` at the end of the stream, else whether it was too long.
    fn next_line(&mut self) -> std::io::Result<Option<bool>> {
        self.buffer.clear();
        let (mut any, mut too_long) = (false, false);
        loop {
            let available = match self.reader.fill_buf() {
                Ok(available) => available,
                Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(error) => return Err(error),
            };
            if available.is_empty() {
                return Ok(any.then_some(too_long));
            }
            any = true;
            let (part, end) = match available.iter().position(|&byte| byte == b'\n') {
                Some(at) => (&available[..at], Some(at + 1)),
                None => (available, None),
            };
            if !too_long && self.buffer.len() + part.len() <= self.max_bytes {
                self.buffer.extend_from_slice(part);
            } else {
                // Past the limit: the rest of the line is skipped, not kept.
                too_long = true;
                self.buffer.clear();
            }
            let consumed = end.unwrap_or(part.len());
            self.reader.consume(consumed);
            if end.is_some() {
                return Ok(Some(too_long));
            }
        }
    }
}

impl<T: Record, R: BufRead> Iterator for JsonLines<T, R> {
    type Item = std::io::Result<Result<T, Failed>>;

    fn next(&mut self) -> Option<Self::Item> {
        let too_long = match self.next_line() {
            Ok(Some(too_long)) => too_long,
            Ok(None) => return None,
            Err(error) => return Some(Err(error)),
        };
        self.line += 1;
        let line = self.line;
        if too_long {
            let error =
                JsonError { kind: ErrorKind::TooLarge, offset: self.max_bytes, message: format!("the line exceeds the limit of {} bytes", self.max_bytes) };
            return Some(Ok(Err(Failed { line, error: Error::Json(error) })));
        }
        Some(Ok(T::from_json(&self.buffer).map_err(|error| Failed { line, error })))
    }
}

/// What reading a JSON array of records gave: the records that read, in
/// order, and the items that did not.
#[derive(Debug)]
pub struct ArrayOutcome<T> {
    pub records: Vec<T>,
    pub failed: Vec<FailedItem>,
}

/// An item of the array that did not read: its index (from 0) and why (a
/// strict-profile error's offset counts from the item's first byte).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FailedItem {
    pub index: usize,
    pub error: Error,
}

/// Reads a JSON array whose items are records of `T`, each item as
/// `T::from_json` reads it: one bad item (a duplicate key, a wrong value,
/// nesting too deep) fails alone. Only an input that is no array, or whose
/// array never closes, fails as a whole ([`array_items`]).
pub fn read_array<T: Record>(bytes: &[u8]) -> Result<ArrayOutcome<T>, Error> {
    let items = array_items(bytes).map_err(Error::Json)?;
    let mut outcome = ArrayOutcome { records: Vec::new(), failed: Vec::new() };
    for (index, range) in items.into_iter().enumerate() {
        match T::from_json(&bytes[range]) {
            Ok(record) => outcome.records.push(record),
            Err(error) => outcome.failed.push(FailedItem { index, error }),
        }
    }
    Ok(outcome)
}

/// The byte ranges of a top-level JSON array's items, found without reading
/// them: brackets and braces are counted (outside strings), so that what is
/// wrong inside an item is that item's problem alone. The input must be an
/// array that closes, with items between commas; anything else is the whole
/// input's error (`syntax`, or `too-large` beyond the default limit).
pub fn array_items(bytes: &[u8]) -> Result<Vec<std::ops::Range<usize>>, JsonError> {
    let syntax = |offset: usize, message: &str| JsonError { kind: ErrorKind::Syntax, offset, message: message.to_owned() };
    if bytes.len() > crate::strict::DEFAULT_MAX_BYTES {
        let message = format!("the input of {} bytes exceeds the limit of {} bytes", bytes.len(), crate::strict::DEFAULT_MAX_BYTES);
        return Err(JsonError { kind: ErrorKind::TooLarge, offset: crate::strict::DEFAULT_MAX_BYTES, message });
    }
    let is_space = |byte: u8| matches!(byte, b' ' | b'\t' | b'\n' | b'\r');
    let mut at = bytes.iter().position(|&byte| !is_space(byte)).unwrap_or(bytes.len());
    if bytes.get(at) != Some(&b'[') {
        return Err(syntax(at, "expected a JSON array of records"));
    }
    at += 1;
    let mut items = Vec::new();
    loop {
        while at < bytes.len() && is_space(bytes[at]) {
            at += 1;
        }
        if items.is_empty() && bytes.get(at) == Some(&b']') {
            at += 1;
            break;
        }
        let start = at;
        let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
        while at < bytes.len() {
            let byte = bytes[at];
            if in_string {
                match byte {
                    _ if escaped => escaped = false,
                    b'\\' => escaped = true,
                    b'"' => in_string = false,
                    _ => {}
                }
            } else {
                match byte {
                    b'"' => in_string = true,
                    b'[' | b'{' => depth += 1,
                    b']' | b'}' if depth > 0 => depth -= 1,
                    b',' | b']' if depth == 0 => break,
                    _ => {}
                }
            }
            at += 1;
        }
        let mut end = at;
        while end > start && is_space(bytes[end - 1]) {
            end -= 1;
        }
        match bytes.get(at) {
            None => return Err(syntax(bytes.len(), "the array of records is not closed")),
            Some(_) if end == start => return Err(syntax(at, "expected a record before this")),
            Some(&delimiter) => {
                items.push(start..end);
                at += 1;
                if delimiter == b']' {
                    break;
                }
            }
        }
    }
    match bytes[at..].iter().position(|&byte| !is_space(byte)) {
        Some(extra) => Err(syntax(at + extra, "trailing characters after the array of records")),
        None => Ok(items),
    }
}
