use super::*;

/// A literal's full extent, read from its own text.
fn whole(text: &str) -> number::Literal {
    let literal = literal(text.as_bytes(), 0).unwrap_or_else(|| panic!("{text} is a number"));
    assert_eq!(literal.end, text.len(), "{text} is read whole");
    literal
}

fn decide(text: &str) -> Result<Number, Refusal> {
    number(text, &whole(text))
}

#[test]
fn literals_end_where_the_grammar_says() {
    let end = |text: &str| literal(text.as_bytes(), 0).map(|literal| literal.end);
    assert_eq!(end("1."), Some(1));
    assert_eq!(end("1.e5"), Some(1));
    assert_eq!(end("1e"), Some(1));
    assert_eq!(end("1e+"), Some(1));
    assert_eq!(end("01"), Some(1));
    assert_eq!(end("-0.5e-3x"), Some(7));
    assert_eq!(end("12,"), Some(2));
    assert_eq!(end("-"), None);
    assert_eq!(end("-a"), None);
    assert_eq!(end("-.5"), None);
}

#[test]
fn integers_are_decided_on_their_digits() {
    assert_eq!(decide("0"), Ok(Number::Integer(0)));
    assert_eq!(decide("9007199254740991"), Ok(Number::Integer(MAX_SAFE_INTEGER)));
    assert_eq!(decide("-9007199254740991"), Ok(Number::Integer(-MAX_SAFE_INTEGER)));
    assert_eq!(decide("9007199254740992"), Err(Refusal::UnsafeInteger));
    assert_eq!(decide("-9007199254740992"), Err(Refusal::UnsafeInteger));
    assert_eq!(decide("9999999999999999"), Err(Refusal::UnsafeInteger));
    assert_eq!(decide("10000000000000000"), Err(Refusal::UnsafeInteger));
    assert_eq!(decide("-0"), Err(Refusal::NegativeZero));
    // A fraction or an exponent makes a float, whatever its value.
    assert_eq!(decide("1.0"), Ok(Number::Float(1.0)));
    assert_eq!(decide("1e2"), Ok(Number::Float(100.0)));
    assert_eq!(decide("9007199254740993.0"), Ok(Number::Float(9007199254740992.0)));
}

#[test]
fn floats_must_stay_finite_and_not_negative_zero() {
    assert_eq!(decide("-0.0"), Err(Refusal::NegativeZero));
    assert_eq!(decide("-0e7"), Err(Refusal::NegativeZero));
    assert_eq!(decide("-1e-400"), Err(Refusal::NegativeZero));
    assert_eq!(decide("1e-400"), Ok(Number::Float(0.0)));
    assert_eq!(decide("1e400"), Err(Refusal::NumberOutOfRange));
    assert_eq!(decide("-1e400"), Err(Refusal::NumberOutOfRange));
    assert_eq!(decide("1.7976931348623157e308"), Ok(Number::Float(f64::MAX)));
    assert_eq!(decide("1.7976931348623159e308"), Err(Refusal::NumberOutOfRange));
    let underflow = format!("-0.{}1", "0".repeat(400));
    assert_eq!(decide(&underflow), Err(Refusal::NegativeZero));
    // Past 1000 bytes, and with an exponent std's parser saturates.
    let offset = format!("0.{}1e700001", "0".repeat(700_000));
    assert_eq!(decide(&offset), Ok(Number::Float(1.0)));
}

/// Literals near every boundary the shortcut of `verdict` draws, and
/// random ones: `verdict` must answer as `number` does on each.
#[test]
fn the_verdict_is_the_numbers_own() {
    let mut texts: Vec<String> = Vec::new();
    for sign in ["", "-"] {
        for zeros in [0, 1, 290, 298, 299, 300, 301, 320, 323, 324, 325, 330, 400] {
            for digit in ["1", "2", "5", "9"] {
                texts.push(format!("{sign}0.{}{digit}", "0".repeat(zeros)));
                texts.push(format!("{sign}0.{}{digit}e1", "0".repeat(zeros)));
            }
            texts.push(format!("{sign}0.{}", "0".repeat(zeros + 1)));
        }
        for nines in [300, 307, 308, 309, 310] {
            texts.push(format!("{sign}{}.5", "9".repeat(nines)));
            texts.push(format!("{sign}1{}.0", "0".repeat(nines - 1)));
            texts.push(format!("{sign}17976931348623157{}.0", "0".repeat(nines - 17)));
        }
        for integer in ["0", "7", "9007199254740991", "9007199254740992", "123456789012345678"] {
            texts.push(format!("{sign}{integer}"));
        }
        for exponent in ["e308", "e309", "e-320", "e-324", "e-325", "E+2", "e00000000000000000400"] {
            texts.push(format!("{sign}1.5{exponent}"));
        }
    }
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move |bound: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % bound
    };
    for _ in 0..20_000 {
        let mut text = String::new();
        if next(2) == 0 {
            text.push('-');
        }
        let digits = 1 + next(20);
        text.push(char::from(b'1' + next(9) as u8));
        (1..digits).for_each(|_| text.push(char::from(b'0' + next(10) as u8)));
        if next(3) == 0 {
            text = text.replacen(|c: char| c.is_ascii_digit(), "0", 1).chars().take(text.starts_with('-') as usize + 1).collect();
        }
        if next(2) == 0 {
            text.push('.');
            (0..1 + next(5)).for_each(|_| text.push(char::from(b'0' + next(10) as u8)));
        }
        if next(2) == 0 {
            text.push_str(["e", "E", "e+", "e-"][next(4) as usize]);
            text.push_str(&next(400).to_string());
        }
        texts.push(text);
    }
    for text in &texts {
        let literal = whole(text);
        assert_eq!(verdict(text.as_bytes(), &literal), number(text, &literal).map(drop), "{text}");
    }
}

#[test]
fn nesting_stops_at_the_limit() {
    assert_eq!(nest(0), Ok(1));
    assert_eq!(nest(MAX_DEPTH - 1), Ok(MAX_DEPTH));
    assert_eq!(nest(MAX_DEPTH), Err(Refusal::TooDeep));
}

#[test]
fn escapes_and_surrogate_pairs() {
    let escape = |text: &str| escape(text.as_bytes(), 0);
    assert_eq!(escape(r"\n"), Ok(('\n', 2)));
    assert_eq!(escape(r"\/"), Ok(('/', 2)));
    assert_eq!(escape(r"\u00e9"), Ok(('é', 6)));
    assert_eq!(escape(r"\uD83D\uDE00"), Ok(('😀', 12)));
    assert_eq!(escape(r"\ud83d\ude00"), Ok(('😀', 12)));
    assert_eq!(escape(r"\uD83D"), Err(Refusal::LoneSurrogate(0xD83D)));
    assert_eq!(escape(r"\uD83D\n"), Err(Refusal::LoneSurrogate(0xD83D)));
    assert_eq!(escape(r"\uD83D\u0041"), Err(Refusal::LoneSurrogate(0xD83D)));
    assert_eq!(escape(r"\uD83D\uD83D"), Err(Refusal::LoneSurrogate(0xD83D)));
    assert_eq!(escape(r"\uDE00"), Err(Refusal::LoneSurrogate(0xDE00)));
    assert_eq!(escape(r"\u12"), Err(Refusal::InvalidEscape));
    assert_eq!(escape(r"\u12G4"), Err(Refusal::InvalidEscape));
    assert_eq!(escape(r"\x"), Err(Refusal::InvalidEscape));
    assert_eq!(escape("\\"), Err(Refusal::InvalidEscape));
}

/// The word-at-a-time form of the string table flags the same bytes: the
/// first flagged lane is the first byte that is not plain.
#[test]
fn the_string_mask_is_the_string_table() {
    for byte in 0..=255u8 {
        for lane in 0..8 {
            let mut word = [b'a'; 8];
            word[lane] = byte;
            let mask = not_plain(u64::from_le_bytes(word));
            let first = (mask != 0).then(|| mask.trailing_zeros() as usize / 8);
            let expected = (STRING[byte as usize] != PLAIN).then_some(lane);
            assert_eq!(first, expected, "byte {byte:#04x} in lane {lane}");
            // And behind another flagged byte, the first still wins.
            word[0] = b'"';
            let mask = not_plain(u64::from_le_bytes(word));
            assert_eq!(mask.trailing_zeros() / 8, 0);
        }
    }
}

#[test]
fn messages_are_the_vectors_own() {
    let shown = |refusal: Refusal, refused: &str| format!("{}: {}", refusal.kind().name(), refusal.message(refused));
    assert_eq!(shown(Refusal::DuplicateKey, "a"), "duplicate-key: duplicate key \"a\"");
    assert_eq!(shown(Refusal::DuplicateKey, "abcdefghijklmnopqrstuvwxyz"), "duplicate-key: duplicate key \"abcdefghijklmnopqrst…\"");
    assert_eq!(shown(Refusal::UnsafeInteger, "9007199254740992"), "unsafe-integer: integer 9007199254740992 is outside ±(2^53-1)");
    assert_eq!(shown(Refusal::NumberOutOfRange, "1e400"), "number-out-of-range: number 1e400 overflows to infinity");
    assert_eq!(shown(Refusal::LoneSurrogate(0xD800), ""), "lone-surrogate: lone surrogate \\ud800");
    assert_eq!(shown(Refusal::TooDeep, ""), "too-deep: nesting deeper than 64 levels");
    assert_eq!(shown(Refusal::ControlCharacter(0x1f), ""), "syntax: control character U+001F must be escaped in a string");
    assert_eq!(shown(Refusal::Unexpected { expected: "\":\"", found: Some('x') }, ""), "syntax: expected \":\", found \"x\"");
    assert_eq!(shown(Refusal::Unexpected { expected: "a value", found: None }, ""), "syntax: unexpected end of input");
    assert_eq!(duplicate_key_in_type("a").to_string(), "duplicate key `a`");
}
