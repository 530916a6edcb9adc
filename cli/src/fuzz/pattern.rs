//! Strings a `pattern` matches, drawn from its syntax tree (the regex
//! crate's own parser): for instances that must pass a pattern.

use super::random::Rng;
use regex_syntax::hir::{Class, Hir, HirKind};

/// A string the regular expression matches.
pub fn sample(hir: &Hir, rng: &mut Rng, out: &mut String) {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => {}
        HirKind::Literal(literal) => out.push_str(&String::from_utf8_lossy(&literal.0)),
        HirKind::Class(Class::Unicode(class)) => {
            let ranges = class.ranges();
            if !ranges.is_empty() {
                let range = rng.pick(ranges);
                let (start, end) = (range.start() as u32, range.end() as u32);
                let code = start + rng.between(0, u64::from(end - start).min(200)) as u32;
                out.push(char::from_u32(code).unwrap_or(range.start()));
            }
        }
        HirKind::Class(Class::Bytes(class)) => {
            let ranges = class.ranges();
            if !ranges.is_empty() {
                let range = rng.pick(ranges);
                let byte = range.start() + rng.between(0, u64::from(range.end() - range.start())) as u8;
                out.push(if byte.is_ascii() { char::from(byte) } else { 'a' });
            }
        }
        HirKind::Repetition(repetition) => {
            let most = repetition.max.unwrap_or(repetition.min + 3).min(repetition.min + 3);
            let count = rng.between(u64::from(repetition.min), u64::from(most.max(repetition.min)));
            for _ in 0..count.min(64) {
                sample(&repetition.sub, rng, out);
            }
        }
        HirKind::Capture(capture) => sample(&capture.sub, rng, out),
        HirKind::Concat(parts) => parts.iter().for_each(|part| sample(part, rng, out)),
        HirKind::Alternation(parts) => sample(rng.pick(parts), rng, out),
    }
}
