//! The string rules: which bytes a string may hold as they are, and what an
//! escape may stand for. A byte below 0x20 must be escaped; an escape is one
//! of `\" \\ \/ \b \f \n \r \t`, or `\u` and four hex digits naming a
//! character that is not a surrogate, or a high surrogate directly followed
//! by `\u` and a low one (together, one character). Anything else is
//! refused: a lone surrogate as [`Refusal::LoneSurrogate`], the rest as
//! [`Refusal::InvalidEscape`].

use super::refusal::Refusal;

/// A byte a string holds as it is.
pub const PLAIN: u8 = 0;
/// `"`, which ends the string.
pub(crate) const QUOTE: u8 = 1;
/// `\`, which starts an escape.
pub(crate) const BACKSLASH: u8 = 2;
/// A control character (below 0x20), refused unescaped.
pub(crate) const CONTROL: u8 = 3;

/// What each byte is inside a string.
pub const STRING: [u8; 256] = {
    let mut table = [PLAIN; 256];
    let mut byte = 0;
    while byte < 0x20 {
        table[byte] = CONTROL;
        byte += 1;
    }
    table[b'"' as usize] = QUOTE;
    table[b'\\' as usize] = BACKSLASH;
    table
};

/// [`STRING`] eight bytes at a time: a mask with the high bit of each byte
/// of `word` (little-endian) that is not [`PLAIN`] set. Its lowest set bit
/// is exact (a borrow only runs upwards from a flagged byte), so
/// `trailing_zeros() / 8` is the first such byte; bits above it may be
/// spurious. Tests check it against the table.
#[inline]
pub fn not_plain(word: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let quote = word ^ (ONES * b'"' as u64);
    let backslash = word ^ (ONES * b'\\' as u64);
    let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
    zero(quote) | zero(backslash) | (word.wrapping_sub(ONES * 0x20) & !word & HIGH)
}

/// The escape whose backslash is at `at`: the character it stands for, and
/// where the string goes on after it. (A pair, and a unit that is no
/// surrogate, are always characters: the replacement character is never
/// used, only spares the fast check a panic path.)
#[inline]
pub fn escape(bytes: &[u8], at: usize) -> Result<(char, usize), Refusal> {
    let short = match bytes.get(at + 1) {
        Some(b'u') => {
            let unit = hex(bytes, at + 2).ok_or(Refusal::InvalidEscape)?;
            return match unit {
                0xD800..=0xDBFF => {
                    let low = (bytes.get(at + 6..at + 8) == Some(b"\\u"))
                        .then(|| hex(bytes, at + 8))
                        .flatten()
                        .filter(|low| (0xDC00..=0xDFFF).contains(low))
                        .ok_or(Refusal::LoneSurrogate(unit))?;
                    let pair = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                    Ok((char::from_u32(pair).unwrap_or(char::REPLACEMENT_CHARACTER), at + 12))
                }
                0xDC00..=0xDFFF => Err(Refusal::LoneSurrogate(unit)),
                _ => Ok((char::from_u32(unit).unwrap_or(char::REPLACEMENT_CHARACTER), at + 6)),
            };
        }
        Some(b'"') => '"',
        Some(b'\\') => '\\',
        Some(b'/') => '/',
        Some(b'b') => '\u{8}',
        Some(b'f') => '\u{c}',
        Some(b'n') => '\n',
        Some(b'r') => '\r',
        Some(b't') => '\t',
        _ => return Err(Refusal::InvalidEscape),
    };
    Ok((short, at + 2))
}

/// The four hex digits at `at`, as a UTF-16 code unit.
#[inline]
fn hex(bytes: &[u8], at: usize) -> Option<u32> {
    let digits = bytes.get(at..at + 4)?;
    digits.iter().try_fold(0u32, |unit, &byte| Some(unit * 16 + (byte as char).to_digit(16)?))
}
