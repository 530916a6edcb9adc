//! The strict profile's rules, decided once for every reader and writer
//! (docs/strict-json.md): its limits, each rule as a small function or
//! table, every refusal's kind and message, and JSON text as both languages
//! write it. The readers walk the bytes each in their own way, for speed,
//! and ask here what to accept: the reference reader ([`crate::strict`]),
//! the fast check ([`crate::scan`]), the one-pass reader ([`crate::read`]),
//! the generated types' helpers ([`crate::bind`]) and the writers. A change
//! to a rule is one edit here, and the vectors (fixtures/vectors) that show
//! it. A leaf: it takes from none of them, and within it each file takes
//! only from the ones listed after it.
//!
//! - here: the input as a whole, before its grammar (`input`: size, byte
//!   order mark, UTF-8), and nesting ([`nest`]);
//! - numbers (`number.rs`): where a literal ends, the integer rule (within
//!   ±(2^53-1) on the digits as written, no `-0`), the float rule (finite,
//!   no negative zero), and [`NON_FINITE`];
//! - strings (`string.rs`): which bytes stand as they are, the escapes and
//!   the surrogate-pair rule;
//! - duplicate keys: [`Refusal::DuplicateKey`] (each reader keeps its own
//!   set of keys, sized for its use) and [`duplicate_key_in_type`];
//! - kinds and messages (`refusal.rs`): [`ErrorKind`], [`Refusal`];
//! - limits (`limits.rs`): [`MAX_DEPTH`], [`MAX_SAFE_INTEGER`],
//!   [`DEFAULT_MAX_BYTES`];
//! - writing (`text.rs`): string escaping, and a refused value's prefix.

mod limits;
mod number;
mod refusal;
mod string;
mod text;

#[cfg(test)]
mod tests;

pub use limits::{DEFAULT_MAX_BYTES, MAX_DEPTH, MAX_SAFE_INTEGER};
pub(crate) use number::{float, float_literal, float_value, integer, verdict, NON_FINITE};
// For the Python core's one-pass reader, which applies the profile as it builds models.
#[doc(hidden)]
pub use number::{literal, number, Literal, Number};
pub use refusal::{duplicate_key_in_type, ErrorKind, Refusal};
#[doc(hidden)]
pub use string::{escape, not_plain, PLAIN, STRING};
pub(crate) use string::{CONTROL, QUOTE};
pub(crate) use text::prefix;
pub use text::write_string_bytes;

/// The nesting rule: with `open` arrays and objects open, whether one more
/// may open; the depth it then stands at.
#[inline]
pub fn nest(open: usize) -> Result<usize, Refusal> {
    if open < MAX_DEPTH {
        Ok(open + 1)
    } else {
        Err(Refusal::TooDeep)
    }
}

/// The rules on the input as a whole, checked in this order before its
/// grammar: at most `max_bytes` (refused at that offset), no byte order
/// mark (at 0), UTF-8 throughout (at the first invalid byte). The text,
/// or the refusal and its offset.
#[doc(hidden)]
#[inline]
pub fn input(bytes: &[u8], max_bytes: usize) -> Result<&str, (Refusal, usize)> {
    if bytes.len() > max_bytes {
        return Err((Refusal::TooLarge { size: bytes.len(), limit: max_bytes }, max_bytes));
    }
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        return Err((Refusal::ByteOrderMark, 0));
    }
    std::str::from_utf8(bytes).map_err(|error| (Refusal::InvalidUtf8, error.valid_up_to()))
}
