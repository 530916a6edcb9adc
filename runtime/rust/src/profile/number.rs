//! The number rules: where a literal ends, and whether the profile takes it.
//! An integer literal (no fraction, no exponent) must lie within
//! ±(2^53-1), decided on its digits as written; anything else is a float,
//! which must stay finite once correctly rounded; neither may be negative
//! zero. Every reader takes these answers from here: the reference reader
//! with the value ([`number`]), the one-pass reader likewise ([`integer`],
//! [`float_literal`], so that each visitor is handed its own type), the fast
//! check with the verdict alone ([`verdict`], which skips the float parse
//! where the digits already decide).

use super::limits::MAX_SAFE_INTEGER;
use super::refusal::Refusal;

/// The words that are not JSON numbers, refused as [`Refusal::NonFinite`]
/// where a value starts with one (elsewhere they are just not values).
pub(crate) const NON_FINITE: [&[u8]; 3] = [b"NaN", b"Infinity", b"-Infinity"];

/// A number literal as the grammar reads it: the longest prefix that is a
/// JSON number, a fraction or an exponent taken only when digits follow (as
/// a regular expression would), so `1.` is the number `1` and a `.` after it.
#[derive(Clone, Copy, Debug)]
pub struct Literal {
    /// Where it starts (its `-`, or its first digit) and ends.
    pub start: usize,
    pub end: usize,
    /// Where its integer part's digits start and end.
    digits: usize,
    integer_end: usize,
    negative: bool,
    exponent: bool,
}

impl Literal {
    /// Whether it is an integer literal: no fraction, no exponent.
    #[inline]
    pub fn integer(&self) -> bool {
        self.end == self.integer_end
    }

    #[inline]
    pub fn negative(&self) -> bool {
        self.negative
    }

    /// Its integer part's digits, in `input`, the bytes it was found in.
    #[inline]
    pub fn digits<'a>(&self, input: &'a [u8]) -> &'a [u8] {
        &input[self.digits..self.integer_end]
    }

    /// Its text, in `input`, the text it was found in.
    #[inline]
    pub fn text<'a>(&self, input: &'a str) -> &'a str {
        &input[self.start..self.end]
    }
}

/// The literal starting at `start` (a `-` or a digit); `None` when no digit
/// follows the `-` ([`Refusal::InvalidNumber`]).
#[inline]
pub fn literal(bytes: &[u8], start: usize) -> Option<Literal> {
    let digit_at = |at: usize| bytes.get(at).is_some_and(u8::is_ascii_digit);
    let digits_from = |mut at: usize| {
        while digit_at(at) {
            at += 1;
        }
        at
    };
    let negative = bytes.get(start) == Some(&b'-');
    let digits = start + usize::from(negative);
    let integer_end = match bytes.get(digits) {
        Some(b'0') => digits + 1,
        Some(b'1'..=b'9') => digits_from(digits + 1),
        _ => return None,
    };
    let mut end = integer_end;
    if bytes.get(end) == Some(&b'.') && digit_at(end + 1) {
        end = digits_from(end + 1);
    }
    let mut exponent = false;
    if let Some(b'e' | b'E') = bytes.get(end) {
        let first = end + 1 + usize::from(matches!(bytes.get(end + 1), Some(b'+' | b'-')));
        if digit_at(first) {
            exponent = true;
            end = digits_from(first);
        }
    }
    Some(Literal { start, end, digits, integer_end, negative, exponent })
}

/// A number the profile takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    Integer(i64),
    Float(f64),
}

/// The value of `literal` (found in `input`), or the rule it breaks.
/// Always inlined: integers, the common case, are decided where they are
/// read.
#[inline(always)]
pub fn number(input: &str, literal: &Literal) -> Result<Number, Refusal> {
    if literal.integer() {
        return integer(literal.negative, literal.digits(input.as_bytes())).map(Number::Integer);
    }
    float_literal(literal.text(input)).map(Number::Float)
}

/// What [`number`] decides, without the value (and on bytes: the fast
/// check has no `str`): the same answer on every literal (tests check it),
/// with no float parse where the digits decide. A fraction without an
/// exponent is finite up to 308 integer digits; positive, it can at worst
/// round to 0, which is taken; negative, it cannot round to negative zero
/// once a digit other than `0` comes among its first 300 (that keeps it
/// above 1e-300). Any other literal goes to the parse.
#[inline]
pub(crate) fn verdict(bytes: &[u8], literal: &Literal) -> Result<(), Refusal> {
    if literal.integer() {
        return integer(literal.negative, literal.digits(bytes)).map(drop);
    }
    if !literal.exponent && literal.integer_end - literal.digits <= 308 {
        if !literal.negative {
            return Ok(());
        }
        let mut digits = bytes[literal.digits..literal.end].iter().filter(|&&byte| byte != b'.').take(300);
        if digits.any(|&digit| digit != b'0') {
            return Ok(());
        }
    }
    // The literal is ASCII, so always a `str`.
    let text = std::str::from_utf8(&bytes[literal.start..literal.end]).unwrap_or_default();
    float_literal(text).map(drop)
}

/// The integer rule, on the digits as written (no sign, no leading zero):
/// within ±(2^53-1), and not `-0`.
#[inline]
pub(crate) fn integer(negative: bool, digits: &[u8]) -> Result<i64, Refusal> {
    // 2^53 − 1 has 16 digits: anything longer is unsafe without reading it.
    if digits.len() > 16 {
        return Err(Refusal::UnsafeInteger);
    }
    let magnitude = digits.iter().fold(0i64, |value, &digit| value * 10 + i64::from(digit - b'0'));
    match (negative, magnitude) {
        (_, magnitude) if magnitude > MAX_SAFE_INTEGER => Err(Refusal::UnsafeInteger),
        (true, 0) => Err(Refusal::NegativeZero),
        (true, magnitude) => Ok(-magnitude),
        (false, magnitude) => Ok(magnitude),
    }
}

/// A float literal's value under the float rule.
#[inline]
pub(crate) fn float_literal(text: &str) -> Result<f64, Refusal> {
    float(float_value(text))
}

/// The float rule, on the correctly rounded value: finite, and not
/// negative zero (`-0.0`, `-1e-400`).
#[inline]
pub(crate) fn float(value: f64) -> Result<f64, Refusal> {
    if value.is_infinite() {
        Err(Refusal::NumberOutOfRange)
    } else if value == 0.0 && value.is_sign_negative() {
        Err(Refusal::NegativeZero)
    } else {
        Ok(value)
    }
}

/// A number literal's value, correctly rounded whatever its length: std's
/// parser under 1000 bytes (too few digits to offset an exponent near the
/// 65,536 where it saturates), else [`parse_float`].
#[inline]
pub(crate) fn float_value(text: &str) -> f64 {
    if text.len() < 1000 {
        if let Ok(value) = text.parse::<f64>() {
            return value;
        }
    }
    parse_float(text)
}

/// A JSON number with a fraction or exponent, correctly rounded whatever its
/// length. `f64::from_str` rounds correctly but saturates a written exponent
/// near 65,536, which a long run of digits can need to offset
/// (`0.000…001e1000001` is 1), so it gets a normalized form instead:
/// `0.<significant digits>e<small exponent>`, or a result outside the range.
pub(crate) fn parse_float(text: &str) -> f64 {
    let (negative, unsigned) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let signed = |value: f64| if negative { -value } else { value };
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(at) => (&unsigned[..at], &unsigned[at + 1..]),
        None => (unsigned, "0"),
    };
    let (integer, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let (sign, exponent_digits) = match exponent.strip_prefix('-') {
        Some(digits) => (-1, digits),
        None => (1, exponent.strip_prefix('+').unwrap_or(exponent)),
    };
    let exponent_digits = exponent_digits.trim_start_matches('0');
    // Past 12 digits the exponent outweighs any mantissa an input can hold.
    let exponent: i64 = if exponent_digits.len() > 12 { sign * 1_000_000_000_000 } else { sign * exponent_digits.parse::<i64>().unwrap_or(0) };
    let digits = format!("{integer}{fraction}");
    let leading_zeros = digits.bytes().take_while(|&b| b == b'0').count();
    let significant = digits[leading_zeros..].trim_end_matches('0');
    if significant.is_empty() {
        return signed(0.0);
    }
    // The value is 0.<significant> × 10^decimal.
    let decimal = integer.len() as i64 - leading_zeros as i64 + exponent;
    if decimal > 400 {
        return signed(f64::INFINITY);
    }
    if decimal < -400 {
        return signed(0.0);
    }
    signed(format!("0.{significant}e{decimal}").parse().expect("a normalized decimal parses"))
}
