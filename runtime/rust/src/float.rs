//! The bytes concord writes for a float, in both languages (docs/output-bytes.md).
//!
//! The digits are the shortest that read back to the same `f64` (as Python's
//! `repr` and every modern formatter find them); the layout around them is
//! concord's own, so output bytes do not change with a formatter's release:
//!
//! - the value is `d1.d2…dn × 10^k`;
//! - for `-5 <= k < 16`, positional: `0.00001`, `123.45`, and an integral
//!   value keeps a `.0` (`1000000000000000.0`);
//! - otherwise `d1[.d2…dn]e±k`, the exponent's sign always written:
//!   `1e+16`, `1.5e-7`, `5e-324`, `1.7976931348623157e+308`;
//! - a negative value gets a leading `-`.
//!
//! Non-finite values and negative zero have no layout: the strict profile
//! refuses them on reading, so writers refuse them before they get here.

/// The smallest and one past the largest decimal exponent written positionally.
const POSITIONAL: std::ops::Range<i32> = -5..16;

/// Appends the layout of a finite, non-negative-zero `value`.
#[inline]
pub fn write(out: &mut Vec<u8>, value: f64) {
    debug_assert!(value.is_finite() && !(value == 0.0 && value.is_sign_negative()));
    if formatter_writes_the_layout() {
        // zmij 1.0 writes zero as `0.0` and the sign as `-`, as the layout does.
        out.extend_from_slice(zmij::Buffer::new().format_finite(value).as_bytes());
        return;
    }
    relay(out, value);
}

/// Values that take every branch of a formatter's layout: zero, each side
/// of the positional range's two ends, integral values with and without
/// trailing zeros, one- to three-digit exponents of both signs,
/// subnormals, the extremes, and negatives of each kind.
const PROBES: [f64; 26] = [
    0.0,
    1.0,
    -1.5,
    100.0,
    123.45,
    1e15,
    9999999999999998.0,
    1e16,
    1.5e16,
    123456789012345680.0,
    1e-5,
    1.25e-5,
    0.001234,
    9.9e-6,
    1e-7,
    0.1,
    1e22,
    1.5e-100,
    -2.5e100,
    5e-324,
    2.2250738585072014e-308,
    1.7976931348623157e308,
    -1.7976931348623157e308,
    -0.00001,
    -1e16,
    4.35e-6,
];

/// Whether the formatter this build links writes concord's layout itself
/// (zmij 1.0 does: positional for first-digit exponents -5..=15, else
/// `d.ddde±k`), checked once per process on [`PROBES`] against the layout
/// rebuilt from its digits. Its output is then copied as it is, with no
/// second pass over the digits; a release that wrote another layout would
/// fail the check, and every value would be laid out again from its digits ([`relay`]),
/// so the bytes never change with the formatter's version.
#[inline]
fn formatter_writes_the_layout() -> bool {
    static CHECKED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *CHECKED.get_or_init(|| PROBES.iter().all(|&value| zmij::Buffer::new().format_finite(value) == relaid(value)))
}

/// Appends the layout of `value` rebuilt from the formatter's digits alone,
/// whatever layout it wrote them in.
fn relay(out: &mut Vec<u8>, value: f64) {
    if value == 0.0 {
        out.extend_from_slice(b"0.0");
        return;
    }
    if value < 0.0 {
        out.push(b'-');
    }
    let (digits, exponent) = shortest(zmij::Buffer::new().format_finite(value.abs()));
    lay_out(out, digits.as_slice(), exponent);
}

fn relaid(value: f64) -> String {
    let mut out = Vec::with_capacity(32);
    relay(&mut out, value);
    String::from_utf8(out).expect("a float's layout is ASCII")
}

/// The layout of `value` as a string (see [`write`]).
pub fn format(value: f64) -> String {
    let mut out = Vec::with_capacity(24);
    write(&mut out, value);
    String::from_utf8(out).expect("a float's layout is ASCII")
}

/// `|value|` as `A × 10^x`, `A` its shortest round-trip digits (under 10^17,
/// the digits Python's `repr` shows too): exact decimal arithmetic on a float.
pub(crate) fn decimal(value: f64) -> (u64, i32) {
    if value == 0.0 {
        return (0, 0);
    }
    let mut buffer = zmij::Buffer::new();
    let (digits, k) = shortest(buffer.format_finite(value.abs()));
    let digits = digits.as_slice();
    let integer = digits.iter().fold(0u64, |integer, digit| integer * 10 + u64::from(digit - b'0'));
    (integer, k - (digits.len() as i32 - 1))
}

/// Up to 17 significant digits and the decimal exponent `k` of the first,
/// read off a formatter's output in whatever layout it chose.
fn shortest(text: &str) -> (Digits, i32) {
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(at) => (&text[..at], text[at + 1..].trim_start_matches('+').parse::<i32>().expect("an exponent")),
        None => (text, 0),
    };
    let (integer, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let mut digits = Digits::default();
    // Position of the first significant digit relative to the point.
    let mut k = exponent + integer.len() as i32 - 1;
    let mut leading = true;
    for byte in integer.bytes().chain(fraction.bytes()) {
        if leading && byte == b'0' {
            k -= 1;
            continue;
        }
        leading = false;
        digits.push(byte);
    }
    digits.trim_zeros();
    (digits, k)
}

fn lay_out(out: &mut Vec<u8>, digits: &[u8], k: i32) {
    if POSITIONAL.contains(&k) {
        if k < 0 {
            out.extend_from_slice(b"0.");
            out.extend(std::iter::repeat_n(b'0', (-k - 1) as usize));
            out.extend_from_slice(digits);
        } else {
            let integer = k as usize + 1;
            if digits.len() > integer {
                out.extend_from_slice(&digits[..integer]);
                out.push(b'.');
                out.extend_from_slice(&digits[integer..]);
            } else {
                out.extend_from_slice(digits);
                out.extend(std::iter::repeat_n(b'0', integer - digits.len()));
                out.extend_from_slice(b".0");
            }
        }
    } else {
        out.push(digits[0]);
        if digits.len() > 1 {
            out.push(b'.');
            out.extend_from_slice(&digits[1..]);
        }
        out.push(b'e');
        out.push(if k < 0 { b'-' } else { b'+' });
        out.extend_from_slice(itoa::Buffer::new().format(k.unsigned_abs()).as_bytes());
    }
}

/// A short inline digit buffer: an f64 never needs more than 17.
#[derive(Default)]
struct Digits {
    bytes: [u8; 24],
    len: usize,
}

impl Digits {
    fn push(&mut self, byte: u8) {
        self.bytes[self.len] = byte;
        self.len += 1;
    }

    fn trim_zeros(&mut self) {
        while self.len > 1 && self.bytes[self.len - 1] == b'0' {
            self.len -= 1;
        }
    }

    fn as_slice(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

#[cfg(test)]
mod tests {
    use super::{format, formatter_writes_the_layout, relaid};

    /// The formatter's own text is the layout, so `write` copies it: on the
    /// probes (checked at first use) and on random finite values of every
    /// exponent, each also read back to the same bits.
    #[test]
    fn the_formatter_writes_the_layout_on_random_values() {
        assert!(formatter_writes_the_layout(), "zmij's layout changed: every float is laid out again (slower, same bytes)");
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut checked = 0;
        while checked < 200_000 {
            // xorshift64*: every bit pattern is as likely.
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            let random = state.wrapping_mul(0x2545_f491_4f6c_dd1d);
            // Every other value near the positional range's ends (a fraction,
            // or an integer, times 10^-8 to 10^18), where the layout has most
            // branches; the rest any bit pattern.
            let value = match checked % 4 {
                0 => (random >> 11) as f64 / (1u64 << 53) as f64 * 10f64.powi((random % 27) as i32 - 8),
                1 => (random >> (random % 64)) as f64,
                _ => f64::from_bits(random),
            };
            if !value.is_finite() || (value == 0.0 && value.is_sign_negative()) {
                continue;
            }
            let text = format(value);
            assert_eq!(text, relaid(value), "{value:e}");
            assert_eq!(text.parse::<f64>().unwrap().to_bits(), value.to_bits(), "{text} reads back");
            checked += 1;
        }
    }

    #[test]
    fn layout_at_every_boundary() {
        let cases: &[(f64, &str)] = &[
            (0.0, "0.0"),
            (1.0, "1.0"),
            (-1.5, "-1.5"),
            (123.45, "123.45"),
            (1e15, "1000000000000000.0"),
            (9999999999999998.0, "9999999999999998.0"),
            (1e16, "1e+16"),
            (1.5e16, "1.5e+16"),
            (1e-5, "0.00001"),
            (1.25e-5, "0.0000125"),
            (9.9e-6, "9.9e-6"),
            (1e-7, "1e-7"),
            (0.1, "0.1"),
            (5e-324, "5e-324"),
            (2.2250738585072014e-308, "2.2250738585072014e-308"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (-1.7976931348623157e308, "-1.7976931348623157e+308"),
            (123456789012345680.0, "1.2345678901234568e+17"),
        ];
        for (value, text) in cases {
            assert_eq!(format(*value), *text, "{value:e}");
            assert_eq!(text.parse::<f64>().unwrap().to_bits(), value.to_bits(), "{text} reads back");
        }
    }
}
