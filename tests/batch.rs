//! Batch reads (per-record isolation, docs/decisions/batch-reads.md):
//! `fixtures/batch/evidence.jsonl` holds good and bad records; Rust gives the
//! outcome written in `fixtures/batch/evidence.outcome`, and
//! `tests/python/test_batch.py` holds Python to the same file, so both
//! languages report the same failed lines with the same error kinds.

use concord::runtime::batch::{self, JsonLines};
use concord::runtime::Record;
use std::io::{BufReader, Read};

/// A line per input line or item: `N ok <id>` or `N <kind> <pointer>`,
/// given each position's failure, if any, and the records in order.
fn describe<'a>(
    positions: impl Iterator<Item = usize>,
    failure: impl Fn(usize) -> Option<&'a concord::runtime::Error>,
    records: &[concord::Evidence],
) -> String {
    let mut records = records.iter();
    let mut out = String::new();
    for at in positions {
        match failure(at) {
            Some(error) => {
                let pointer = match error.pointer() {
                    None => "-",
                    Some("") => "(root)",
                    Some(pointer) => pointer,
                };
                out.push_str(&format!("{at} {} {pointer}\n", error.kind()));
            }
            None => out.push_str(&format!("{at} ok {}\n", records.next().map_or("(none)", |record| record.id.as_str()))),
        }
    }
    out
}

#[test]
fn one_bad_line_never_aborts_the_read_and_each_is_named() {
    let input = std::fs::read("fixtures/batch/evidence.jsonl").unwrap();
    let expected = std::fs::read_to_string("fixtures/batch/evidence.outcome").unwrap();
    let outcome = batch::read_jsonl::<concord::Evidence, _>(input.as_slice(), 1024).unwrap();
    let failure = |line| outcome.failed.iter().find(|failed| failed.line == line).map(|failed| &failed.error);
    assert_eq!(describe(1..=expected.lines().count(), failure, &outcome.records), expected);
    // The trait's reader (the default limit, 64 MiB): the long line is read, and refused for what it holds.
    let outcome = concord::Evidence::read_jsonl(input.as_slice()).unwrap();
    let eighth = outcome.failed.iter().find(|failed| failed.line == 8).unwrap();
    assert_eq!((eighth.error.kind(), outcome.records.len(), outcome.failed.len()), ("unsafe-integer", 3, 10));
}

/// A reader that hands out a line of 64 MiB of digits one small piece at a
/// time, then a good record: the reader holds no more than the limit.
struct Endless {
    left: usize,
    tail: &'static [u8],
}

impl Read for Endless {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.left > 0 {
            let n = buf.len().min(self.left);
            buf[..n].fill(b'1');
            self.left -= n;
            return Ok(n);
        }
        let n = buf.len().min(self.tail.len());
        buf[..n].copy_from_slice(&self.tail[..n]);
        self.tail = &self.tail[n..];
        Ok(n)
    }
}

#[test]
fn a_line_past_the_limit_is_skipped_unheld_and_the_next_reads() {
    let tail = b"\n{\"id\":\"e2\",\"session_id\":\"s\",\"kind\":\"exit_code\",\"payload\":1}\n";
    let reader = BufReader::with_capacity(4096, Endless { left: 64 << 20, tail });
    let mut lines = JsonLines::<concord::Evidence, _>::new(reader, 1 << 20);
    let first = lines.next().unwrap().unwrap().unwrap_err();
    assert_eq!((first.line, first.error.kind()), (1, "too-large"));
    assert_eq!(first.error.to_string(), "too-large at byte 1048576: the line exceeds the limit of 1048576 bytes");
    let second = lines.next().unwrap().unwrap().unwrap();
    assert_eq!(second.id, "e2");
    assert!(lines.next().is_none());
}

#[test]
fn one_bad_item_of_an_array_fails_alone() {
    let input = std::fs::read("fixtures/batch/evidence-array.json").unwrap();
    let expected = std::fs::read_to_string("fixtures/batch/evidence-array.outcome").unwrap();
    let outcome = concord::Evidence::read_json_array(&input).unwrap();
    let failure = |index| outcome.failed.iter().find(|failed| failed.index == index).map(|failed| &failed.error);
    assert_eq!(describe(0..expected.lines().count(), failure, &outcome.records), expected);
    // What is no array of items fails as a whole, in the words of
    // fixtures/batch/array-refusals.tsv, which holds the Python runtime too.
    let refusals = std::fs::read_to_string("fixtures/batch/array-refusals.tsv").unwrap();
    for (input, message) in refusals.lines().map(|line| line.split_once('\t').unwrap()) {
        let error = concord::Evidence::read_json_array(input.as_bytes()).unwrap_err();
        assert_eq!(error.to_string(), message, "{input}");
    }
    assert!(refusals.lines().count() >= 7);
    assert_eq!(concord::Evidence::read_json_array(b" [ ] ").unwrap().records.len(), 0);
}
