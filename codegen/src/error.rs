//! Diagnostics: every problem carries the file, a JSON pointer into it and
//! what is wrong. Checks push into an [`Errors`] list instead of stopping at
//! the first problem, so one run reports everything (as serde_derive's `Ctxt`).

use std::fmt;
use std::path::{Path, PathBuf};

/// One problem, located.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub file: PathBuf,
    /// A JSON pointer into `file`; empty for the whole file.
    pub pointer: String,
    pub message: String,
}

impl fmt::Display for Diagnostic {
    /// One line per diagnostic, whatever the schema holds: a line break, a
    /// carriage return, a NUL or a bidi control in a file name, a key or a
    /// message is shown escaped, so a hostile schema cannot hide text or
    /// fake a line of the report (a message keeps the line breaks concord
    /// puts in it, such as a compiler's output).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", shown(&self.file.display().to_string()))?;
        if !self.pointer.is_empty() {
            write!(f, " at {}", shown(&self.pointer))?;
        }
        write!(f, ": ")?;
        for line in self.message.split('\n').enumerate() {
            match line {
                (0, text) => write!(f, "{}", shown(text))?,
                (_, text) => write!(f, "\n{}", shown(text))?,
            }
        }
        Ok(())
    }
}

/// `text` with every character a terminal would not print as itself
/// escaped as Rust writes it (`\r`, `\n`, `\0`, `\u{202e}`): controls,
/// bidi controls, line separators. For schema text in a message.
pub fn shown(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            // Printable as they are; `escape_debug` would add a backslash.
            '"' | '\'' | '\\' | '\t' => out.push(c),
            c => out.extend(c.escape_debug()),
        }
    }
    out
}

/// The largest file a report shows lines of (a schema file concord reads
/// is at most 64 MiB; past this, the pointer alone locates a problem).
const MAX_SHOWN_FILE: usize = 16 * 1024 * 1024;

/// Every problem found in one run. Nothing is written while this is non-empty.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Errors {
    pub diagnostics: Vec<Diagnostic>,
}

impl Errors {
    pub fn push(&mut self, file: &Path, pointer: impl Into<String>, message: impl Into<String>) {
        self.diagnostics.push(Diagnostic { file: file.to_path_buf(), pointer: pointer.into(), message: message.into() });
    }

    pub fn one(file: &Path, pointer: impl Into<String>, message: impl Into<String>) -> Self {
        let mut errors = Errors::default();
        errors.push(file, pointer, message);
        errors
    }

    pub fn is_empty(&self) -> bool {
        self.diagnostics.is_empty()
    }

    pub fn extend(&mut self, other: Errors) {
        self.diagnostics.extend(other.diagnostics);
    }

    /// `Ok(value)` when nothing was reported, else every diagnostic.
    pub fn finish<T>(self, value: T) -> Result<T, Errors> {
        if self.is_empty() {
            Ok(value)
        } else {
            Err(self)
        }
    }
}

impl fmt::Display for Errors {
    /// Each diagnostic on its line, then, where its file is JSON that holds
    /// its pointer, the line of the file it points at, with the line and
    /// column (`concord_runtime::location`), as rustc shows a span.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Each file read once per report.
        let mut texts: Vec<(&Path, Option<Vec<u8>>)> = Vec::new();
        for diagnostic in &self.diagnostics {
            writeln!(f, "error: {diagnostic}")?;
            if diagnostic.pointer.is_empty() {
                continue;
            }
            let at = match texts.iter().position(|(file, _)| *file == diagnostic.file.as_path()) {
                Some(at) => at,
                None => {
                    texts.push((&diagnostic.file, std::fs::read(&diagnostic.file).ok().filter(|text| text.len() <= MAX_SHOWN_FILE)));
                    texts.len() - 1
                }
            };
            let Some(text) = &texts[at].1 else { continue };
            if let Some(place) = concord_runtime::location::at_pointer(text, &diagnostic.pointer, &shown(&diagnostic.file.display().to_string())) {
                write!(f, "{place}")?;
            }
        }
        let count = self.diagnostics.len();
        write!(f, "{count} error{}", if count == 1 { "" } else { "s" })
    }
}

impl std::error::Error for Errors {}

/// Appends one escaped reference token to a JSON pointer (RFC 6901).
pub fn pointer_push(pointer: &str, token: &str) -> String {
    format!("{pointer}/{}", concord_runtime::pointer::escape_token(token))
}
