//! Why a value fails its pinned schema, in the engine's words but never
//! the value's: the notes both languages give, word for word. A leaf: the
//! engine writes notes, `pinned` hands them out.

use std::fmt;

/// At most this many notes are given for one refused value (docs/decisions/refusal-notes.md).
pub const MAX_NOTES: usize = 3;

/// Why a value fails its schema: at most three notes
/// (docs/decisions/refusal-notes.md), and whether the engine found more.
/// The same notes, word for word, in both languages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub notes: Vec<Note>,
    /// More problems were found than the notes show.
    pub more: bool,
}

/// One problem: where in the value (a JSON pointer), the schema keyword and
/// where it stands in the schema, and what is wrong, in the schema's words
/// only: never the refused value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// JSON pointer into the value (`""`: the value itself).
    pub pointer: String,
    /// The keyword that refused it (`pattern`, `required`, `x-typed-id`...).
    pub keyword: String,
    /// JSON pointer of that keyword in the type's subschema.
    pub schema_path: String,
    pub message: String,
}

impl fmt::Display for Note {
    /// `/session/gpu_arch: does not match pattern "^sm_[0-9]+$"`; `(root)` for
    /// the value itself. Control characters in the pointer are escaped, so
    /// that a note is one line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pointer.is_empty() {
            f.write_str("(root)")?;
        }
        for c in self.pointer.chars() {
            if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') {
                write!(f, "\\u{:04x}", c as u32)?;
            } else {
                write!(f, "{c}")?;
            }
        }
        write!(f, ": {}", self.message)
    }
}

impl fmt::Display for Refusal {
    /// A note a line; `...` on a last line when there were more.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, note) in self.notes.iter().enumerate() {
            if index > 0 {
                f.write_str("\n")?;
            }
            note.fmt(f)?;
        }
        if self.more {
            f.write_str("\n...")?;
        }
        Ok(())
    }
}

impl std::error::Error for Refusal {}
