//! Doc comments from a schema's text: escaped where rustc or an editor
//! would stumble, fenced where Markdown would read code, so that a
//! description never becomes a doctest of the crate that includes it.

use proc_macro2::TokenStream;
use quote::quote;

/// A text as the lines of inner doc comments (`//!`), each with its leading space.
pub(super) fn inner_docs(text: &str) -> Vec<String> {
    text.split("\r\n").flat_map(|line| line.split(['\n', '\r'])).map(|line| format!(" {}", doc_line(line))).collect()
}

/// Doc comments for a schema's text. Lines end at `\n`, `\r\n` or a bare
/// `\r` (which rustc refuses inside a comment); characters rustc refuses in
/// comments (bidi controls) and other control characters are written
/// escaped; and a text that Markdown would read as code (an indented block,
/// a fence) is fenced as plain text.
pub(super) fn docs(doc: &Option<String>) -> TokenStream {
    let Some(text) = doc else { return quote! {} };
    let lines: Vec<String> = text.split("\r\n").flat_map(|line| line.split(['\n', '\r'])).map(doc_line).collect();
    let code_like = |line: &String| {
        let trimmed = line.trim_start_matches(' ');
        line.starts_with("    ") || line.starts_with('\t') || trimmed.starts_with("```") || trimmed.starts_with("~~~")
    };
    let mut out: Vec<String> = Vec::with_capacity(lines.len() + 2);
    if lines.iter().any(code_like) {
        // A fence longer than any run of backticks inside cannot be closed early.
        let longest = lines.iter().map(|line| longest_run(line, '`')).max().unwrap_or(0);
        let fence = "`".repeat(longest.max(2) + 1);
        out.push(format!("{fence}text"));
        out.extend(lines);
        out.push(fence);
    } else {
        out = without_lazy_continuations(lines);
    }
    let attributes = out.iter().map(|line| {
        let line = format!(" {line}");
        quote! { #[doc = #line] }
    });
    quote! { #(#attributes)* }
}

pub(super) fn doc_line(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    for c in line.trim_end().chars() {
        match c {
            // A tab is four spaces, as rustdoc reads it (clippy's tabs_in_doc_comments).
            '\t' => out.push_str("    "),
            // Bidi controls rustc refuses in comments; other controls (NUL,
            // ESC) an editor or a terminal would show as raw bytes.
            '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => out.push_str(&c.escape_unicode().to_string()),
            c if c.is_control() => out.push_str(&c.escape_unicode().to_string()),
            c => out.push(c),
        }
    }
    out
}

/// Markdown's lazy continuations made explicit: a line that continues a
/// list item without its indent is indented, one that continues a block
/// quote without its `>` gets one. The same document to Markdown, and what
/// rustdoc's readers and clippy's doc_lazy_continuation expect.
fn without_lazy_continuations(lines: Vec<String>) -> Vec<String> {
    // The current list item's content indent, and whether a quote is open.
    let (mut item, mut quote): (Option<usize>, bool) = (None, false);
    let mut out = Vec::with_capacity(lines.len());
    for line in lines {
        let spaces = line.len() - line.trim_start_matches(' ').len();
        let rest = &line[spaces..];
        let marker = rest.strip_prefix(['-', '*', '+']).map(|after| (1, after)).or_else(|| {
            let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            (1..=9).contains(&digits).then(|| rest[digits..].strip_prefix(['.', ')']).map(|after| (digits + 1, after))).flatten()
        });
        let list_item =
            marker.filter(|(_, after)| after.starts_with(' ')).map(|(width, after)| spaces + width + after.len() - after.trim_start_matches(' ').len());
        if rest.is_empty() {
            (item, quote) = (None, false);
            out.push(line);
        } else if let Some(indent) = list_item {
            (item, quote) = (Some(indent), false);
            out.push(line);
        } else if rest.starts_with('>') {
            quote = true;
            out.push(line);
        } else if quote {
            out.push(format!("> {line}"));
        } else if let Some(indent) = item.filter(|indent| spaces < *indent) {
            out.push(format!("{}{rest}", " ".repeat(indent)));
        } else {
            out.push(line);
        }
    }
    out
}

fn longest_run(line: &str, of: char) -> usize {
    line.split(|c| c != of).map(str::len).max().unwrap_or(0)
}

/// A value's doc: the value as the schema writes it, as code.
pub(super) fn value_doc(value: &str) -> TokenStream {
    docs(&Some(format!("`{}`", value.replace('`', "\\`"))))
}
