//! `multipleOf`, exactly, in integer arithmetic (the same Rust code serves Python).
//!
//! A float is taken as its shortest round-trip decimal (what concord writes
//! and Python's `repr` shows: `0.1` is 0.1, not the binary value nearest it),
//! the divisor as the schema's decimal text; the value is a multiple when
//! value / divisor is an integer, exactly. So `0.3` is a multiple of `0.1`,
//! which it is not in binary floating point.

/// A `multipleOf` divisor: `digits × 10^exponent`, `digits` without trailing zeros.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Divisor {
    digits: u64,
    exponent: i32,
}

/// Reads a divisor's decimal text (JSON number syntax): refuses one that is
/// not positive or has more than 19 significant digits.
pub fn parse_divisor(text: &str) -> Result<Divisor, String> {
    let refuse = |why: &str| Err(format!("multipleOf {text}: {why}"));
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(at) => match text[at + 1..].trim_start_matches('+').parse::<i32>() {
            Ok(exponent) if exponent.unsigned_abs() < 100_000 => (&text[..at], exponent),
            _ => return refuse("not a number this reads (exponent)"),
        },
        None => (text, 0),
    };
    if mantissa.starts_with('-') {
        return refuse("not positive");
    }
    let (integer, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if integer.is_empty() || !integer.bytes().chain(fraction.bytes()).all(|b| b.is_ascii_digit()) || mantissa.ends_with('.') {
        return refuse("not a decimal number");
    }
    let all = format!("{integer}{fraction}");
    let significant = all.trim_start_matches('0');
    let trimmed = significant.trim_end_matches('0');
    if trimmed.is_empty() {
        return refuse("not positive");
    }
    if trimmed.len() > 19 {
        return refuse("more than 19 significant digits");
    }
    let zeros = (significant.len() - trimmed.len()) as i32;
    Ok(Divisor { digits: trimmed.parse().expect("at most 19 digits"), exponent: exponent - fraction.len() as i32 + zeros })
}

/// Whether `value` (as its shortest decimal) is an integer multiple of `divisor`.
/// Non-finite values are multiples of nothing; zero is a multiple of everything.
pub fn multiple_of(value: f64, divisor: &Divisor) -> bool {
    if !value.is_finite() {
        return false;
    }
    let (digits, exponent) = crate::float::decimal(value);
    if digits == 0 {
        return true;
    }
    // value / divisor = (digits / divisor.digits) × 10^shift
    let shift = i64::from(exponent) - i64::from(divisor.exponent);
    if shift >= 0 {
        // divisor.digits must divide digits × 10^shift: what digits leaves of it must be 2^a 5^b, a, b <= shift.
        let rest = divisor.digits / gcd(digits, divisor.digits);
        let (twos, fives, other) = factor_2_5(rest);
        other == 1 && i64::from(twos) <= shift && i64::from(fives) <= shift
    } else {
        // divisor.digits × 10^-shift must divide digits (< 10^17): it cannot when larger.
        let scale = u32::try_from(-shift).ok().and_then(|power| 10u128.checked_pow(power));
        match scale.and_then(|scale| scale.checked_mul(u128::from(divisor.digits))) {
            Some(modulus) => u128::from(digits) % modulus == 0,
            None => false,
        }
    }
}

/// Whether the integer `value` is a multiple of `divisor` (p/q in lowest terms: of p).
pub fn integer_multiple_of(value: i64, divisor: &Divisor) -> bool {
    match divisor.numerator() {
        Some(p) => value.unsigned_abs() % p == 0,
        None => value == 0,
    }
}

/// For an `integer` type: `multipleOf` p/q (in lowest terms) holds exactly for
/// the multiples of `p`; `None` when p is 1 (every integer is one).
pub fn integer_divisor(text: &str) -> Result<Option<u64>, String> {
    match parse_divisor(text)?.numerator() {
        Some(1) => Ok(None),
        Some(p) => Ok(Some(p)),
        None => Err(format!("multipleOf {text}: beyond 2^64 (only 0 is a multiple)")),
    }
}

impl Divisor {
    /// `digits × 10^exponent`, for a `static` in generated code (the parts of a [`parse_divisor`]).
    pub const fn from_parts(mut digits: u64, mut exponent: i32) -> Divisor {
        assert!(digits > 0, "a divisor is positive");
        while digits % 10 == 0 {
            digits /= 10;
            exponent += 1;
        }
        Divisor { digits, exponent }
    }

    pub fn digits(&self) -> u64 {
        self.digits
    }

    pub fn exponent(&self) -> i32 {
        self.exponent
    }

    /// p of p/q in lowest terms, or `None` beyond u64.
    fn numerator(&self) -> Option<u64> {
        if self.exponent >= 0 {
            10u64.checked_pow(self.exponent as u32).and_then(|scale| scale.checked_mul(self.digits))
        } else {
            // digits / 10^k in lowest terms: take out of digits the 2s and 5s that 10^k cancels.
            let k = self.exponent.unsigned_abs();
            let (twos, fives, other) = factor_2_5(self.digits);
            Some(other * 2u64.pow(twos.saturating_sub(k)) * 5u64.pow(fives.saturating_sub(k)))
        }
    }
}

/// The divisor as decimal text: `1.5`, `0.0001`, `300`, `1e-40`.
impl std::fmt::Display for Divisor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let digits = self.digits.to_string();
        match self.exponent {
            0..=20 => write!(f, "{digits}{}", "0".repeat(self.exponent as usize)),
            -30..0 => {
                let point = digits.len() as i32 + self.exponent;
                if point > 0 {
                    write!(f, "{}.{}", &digits[..point as usize], &digits[point as usize..])
                } else {
                    write!(f, "0.{}{digits}", "0".repeat(point.unsigned_abs() as usize))
                }
            }
            exponent => write!(f, "{digits}e{exponent}"),
        }
    }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// `n` as `2^twos × 5^fives × other`.
fn factor_2_5(mut n: u64) -> (u32, u32, u64) {
    let twos = n.trailing_zeros();
    n >>= twos;
    let mut fives = 0;
    while n % 5 == 0 {
        n /= 5;
        fives += 1;
    }
    (twos, fives, n)
}

#[cfg(test)]
mod tests;
