//! Python text the emitter writes: string literals that hold any text
//! exactly and plainly, docstrings wrapped to the line, float literals that
//! read back as the same value.

use super::width::{width, LINE_WIDTH};
use std::fmt::Write as _;

/// A Python string literal that holds `text` exactly; nothing in `text` can
/// end it early. Double quotes unless single ones need fewer escapes, as
/// `ruff format` prefers.
pub(super) fn string_literal(text: &str) -> String {
    let quote = if text.matches('"').count() > text.matches('\'').count() { '\'' } else { '"' };
    let mut out = String::with_capacity(text.len() + 2);
    out.push(quote);
    let ambiguous = ambiguous(text);
    for (at, c) in text.char_indices() {
        match c {
            '"' | '\'' if c != quote => out.push(c),
            '\'' => out.push_str("\\'"),
            c if ambiguous.binary_search(&at).is_ok() => escape_code_point(&mut out, c),
            c => escape_into(&mut out, c),
        }
    }
    out.push(quote);
    out
}

/// Where `text` holds a character a reader (and ruff's RUF001 to RUF003)
/// could take for another: one outside ASCII that is no letter or digit
/// (an en dash, a curly quote, a no-break space, a fullwidth comma), or a
/// letter outside ASCII in a word that also holds ASCII letters or stands
/// alone (a Cyrillic `а` in `pаss`). Written as an escape, it is the same
/// string to Python and plain to see; words of other scripts stay as they
/// are (`да`, `Описание`, `中文`).
fn ambiguous(text: &str) -> Vec<usize> {
    let mut found = Vec::new();
    let mut word: Vec<(usize, char)> = Vec::new();
    let flush = |word: &mut Vec<(usize, char)>, found: &mut Vec<usize>| {
        let mixed = word.iter().any(|(_, c)| c.is_ascii()) || word.len() == 1;
        if mixed {
            found.extend(word.iter().filter(|(_, c)| !c.is_ascii()).map(|(at, _)| *at));
        }
        word.clear();
    };
    for (at, c) in text.char_indices() {
        if c.is_alphanumeric() {
            word.push((at, c));
            continue;
        }
        flush(&mut word, &mut found);
        if !c.is_ascii() && !matches!(c, '\u{2028}' | '\u{2029}' | '\u{85}') {
            found.push(at);
        }
    }
    flush(&mut word, &mut found);
    found.sort_unstable();
    found
}

/// `\uXXXX`, or `\UXXXXXXXX` beyond the Basic Multilingual Plane.
fn escape_code_point(out: &mut String, c: char) {
    let code = c as u32;
    let _ = if code > 0xFFFF { write!(out, "\\U{code:08x}") } else { write!(out, "\\u{code:04x}") };
}

/// A docstring: triple-quoted, wrapped to [`LINE_WIDTH`], newlines kept,
/// everything else that could close or bend the literal escaped.
pub(super) fn docstring(doc: &Option<String>, indent: &str) -> String {
    let Some(doc) = doc else { return String::new() };
    // Room for the indent and the quotes on either side.
    let width = LINE_WIDTH - indent.len() - 6;
    let mut lines = Vec::new();
    for line in doc.lines() {
        let mut escaped = String::new();
        let line = line.trim_end();
        let ambiguous = ambiguous(line);
        for (at, c) in line.char_indices() {
            if ambiguous.binary_search(&at).is_ok() {
                escape_code_point(&mut escaped, c);
            } else {
                escape_into(&mut escaped, c);
            }
        }
        lines.extend(wrap(&escaped, width));
    }
    let last = lines.len().saturating_sub(1);
    let body = lines
        .iter()
        .enumerate()
        .map(|(n, line)| {
            let line = if n == 0 || line.is_empty() { line.clone() } else { format!("{indent}{line}") };
            // A word longer than the line: continued, as it is, on the next.
            continued(&line, if n == 0 { indent.len() + 3 } else { 0 }, if n == last { 3 } else { 0 })
        })
        .collect::<Vec<_>>()
        .join("\n");
    format!("{indent}\"\"\"{body}\"\"\"\n")
}

/// Greedy word wrap; a word longer than `width` keeps a line of its own.
pub(super) fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in text.split(' ') {
        let line = lines.last_mut().expect("starts with one line");
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            lines.push(word.to_owned());
        } else {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
    }
    // Where a run of spaces met a wrap, the line would end in one (W291).
    lines.iter().map(|line| line.trim_end().to_owned()).collect()
}

fn escape_into(out: &mut String, c: char) {
    match c {
        '\\' => out.push_str("\\\\"),
        '"' => out.push_str("\\\""),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        c if (c as u32) < 0x20 || c == '\u{7f}' => {
            let _ = write!(out, "\\x{:02x}", c as u32);
        }
        // Line and paragraph separators end a line in some editors; keep the source unambiguous.
        '\u{2028}' | '\u{2029}' | '\u{85}' => {
            let _ = write!(out, "\\u{:04x}", c as u32);
        }
        c => out.push(c),
    }
}

/// A Python float literal for a finite `f64` that reads back as the same value.
pub(super) fn float_literal(value: f64) -> String {
    let text = format!("{value:?}");
    if text.contains(['.', 'e', 'E']) {
        text
    } else {
        format!("{text}.0")
    }
}

/// A line of a string literal's body with `lead` columns before it and
/// `trail` after, within the limit: cut where it does not fit, each cut a
/// backslash-newline, which the literal does not hold, the rest continued
/// from the first column (an indent there would be part of the text). Cuts
/// fall between escape sequences, never inside one.
fn continued(line: &str, lead: usize, trail: usize) -> String {
    if lead + width(line) + trail <= LINE_WIDTH {
        return line.to_owned();
    }
    // Room for the backslash, or for what follows the last piece.
    let room = LINE_WIDTH - trail.max(1);
    let mut out = String::with_capacity(line.len() + line.len() / room * 2);
    let mut used = lead;
    let mut rest = line;
    while let Some(unit) = next_unit(rest) {
        let cost = width(unit);
        if used + cost > room && used > 0 {
            out.push_str("\\\n");
            used = 0;
        }
        out.push_str(unit);
        used += cost;
        rest = &rest[unit.len()..];
    }
    out
}

/// The first character of escaped text, with the rest of its escape sequence.
fn next_unit(text: &str) -> Option<&str> {
    let mut chars = text.char_indices();
    let (_, first) = chars.next()?;
    let length = match (first, chars.next()) {
        ('\\', Some((_, 'x'))) => 4,
        ('\\', Some((_, 'u'))) => 6,
        ('\\', Some((_, 'U'))) => 10,
        ('\\', Some((at, c))) => at + c.len_utf8(),
        _ => first.len_utf8(),
    };
    Some(&text[..length])
}
