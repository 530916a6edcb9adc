//! The last pass of `Model.to_json()`: pydantic's compact JSON in, concord's
//! bytes out. Strings, keys, integers and structure are copied as they are
//! (pydantic escapes strings exactly as concord does, which tests/python
//! checks); every float is laid out by `concord_runtime::float`; and what
//! the strict profile would refuse on reading is refused here, at its JSON
//! pointer: `NaN`/`Infinity` (pydantic writes them as such with
//! `ser_json_inf_nan="constants"`), negative zero, integers outside
//! ±(2^53-1), a key twice in one object (a kept unknown key named like a
//! declared property) and nesting deeper than the reader's limit.

use concord_runtime::scan::Keys;
use concord_runtime::strict::{MAX_DEPTH, MAX_SAFE_INTEGER};
use concord_runtime::{float, serde_json};

/// A value the writer refuses: its JSON pointer and what is wrong.
pub struct Refusal {
    pub pointer: String,
    pub message: String,
}

/// One open container: an object (with its current key's span) or an array
/// (with its current index).
struct Frame {
    object: bool,
    index: usize,
    key: (usize, usize),
}

/// Rewrites pydantic's compact JSON into concord's bytes; `None` when they
/// are the same bytes (no float needed laying out).
pub fn relayout(input: &[u8]) -> Result<Option<Vec<u8>>, Refusal> {
    let mut out: Option<Vec<u8>> = None;
    let mut stack: Vec<Frame> = Vec::with_capacity(16);
    // The keys of each open object, by depth (reused across objects).
    let mut keys: Vec<Keys> = Vec::new();
    let refuse = |stack: &[Frame], message: String| Refusal { pointer: pointer(input, stack), message };
    let mut expecting_key = false;
    let mut run = 0;
    let mut pos = 0;
    while pos < input.len() {
        match input[pos] {
            b'"' => {
                let end = string_end(input, pos);
                if expecting_key {
                    let depth = stack.len();
                    if let Some(frame) = stack.last_mut() {
                        frame.key = (pos, end);
                    }
                    if keys[depth - 1].insert(&input[pos..end]).is_none() {
                        let key: String = serde_json::from_slice(&input[pos..end]).unwrap_or_default();
                        let shown = serde_json::to_string(&prefix(&key)).unwrap_or_default();
                        return Err(refuse(&stack, format!("duplicate key {shown}")));
                    }
                    expecting_key = false;
                    // The colon after a key: no need to dispatch on it.
                    pos = if input.get(end) == Some(&b':') { end + 1 } else { end };
                    continue;
                }
                pos = end;
            }
            open @ (b'{' | b'[') => {
                if stack.len() == MAX_DEPTH {
                    return Err(refuse(&stack, format!("nesting deeper than {MAX_DEPTH} levels")));
                }
                stack.push(Frame { object: open == b'{', index: 0, key: (0, 0) });
                expecting_key = open == b'{';
                if expecting_key {
                    if keys.len() < stack.len() {
                        keys.resize_with(stack.len(), Keys::default);
                    }
                    keys[stack.len() - 1].clear();
                }
                pos += 1;
            }
            b'}' | b']' => {
                stack.pop();
                expecting_key = false;
                pos += 1;
            }
            b',' => {
                if let Some(frame) = stack.last_mut() {
                    frame.index += 1;
                    expecting_key = frame.object;
                }
                pos += 1;
            }
            b'-' | b'0'..=b'9' | b'N' | b'I' => {
                let start = pos;
                while pos < input.len() && matches!(input[pos], b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-' | b'a'..=b'z' | b'A'..=b'Z') {
                    pos += 1;
                }
                let token = &input[start..pos];
                if short_integer(token) || in_layout(token) {
                    continue;
                }
                if let Some(value) = number(token).map_err(|message| refuse(&stack, message))? {
                    let out = out.get_or_insert_with(|| Vec::with_capacity(input.len() + input.len() / 16));
                    out.extend_from_slice(&input[run..start]);
                    float::write(out, value);
                    run = pos;
                }
            }
            _ => pos += 1,
        }
    }
    if let Some(out) = &mut out {
        out.extend_from_slice(&input[run..]);
    }
    Ok(out)
}

/// Whether a token is an integer of at most 15 digits, other than `-0`: always safe.
#[inline]
fn short_integer(token: &[u8]) -> bool {
    let digits = token.strip_prefix(b"-").unwrap_or(token);
    !digits.is_empty() && digits.len() <= 15 && digits.iter().all(u8::is_ascii_digit) && !(digits == b"0" && digits.len() < token.len())
}

/// Whether a float token is already concord's layout, decided without
/// parsing it: positional (`-?(0|[1-9]d*).d+`), with the decimal exponent
/// `k` of its first significant digit in -5..16, at most 15 significant
/// digits and no trailing zero (but the `.0` of an integral value). Distinct
/// decimals of at most 15 significant digits read to distinct doubles, so
/// such a token is the unique shortest form of the value it reads to: the
/// digits concord would write. Anything else is parsed and laid out.
#[inline]
fn in_layout(token: &[u8]) -> bool {
    let unsigned = token.strip_prefix(b"-").unwrap_or(token);
    let Some(point) = unsigned.iter().position(|&b| b == b'.') else { return false };
    let (integer, fraction) = (&unsigned[..point], &unsigned[point + 1..]);
    if integer.is_empty() || fraction.is_empty() || !integer.iter().chain(fraction).all(u8::is_ascii_digit) {
        return false;
    }
    if integer == b"0" {
        // 0.000ddd: k = -(leading zeros + 1) must be at least -5; -0.0 is refused elsewhere.
        let zeros = fraction.iter().take_while(|&&b| b == b'0').count();
        let significant = fraction.len() - zeros;
        return zeros <= 4 && significant > 0 && significant <= 15 && fraction.last() != Some(&b'0');
    }
    if integer[0] == b'0' || integer.len() > 16 {
        return false;
    }
    if fraction == b"0" {
        let significant = integer.len() - integer.iter().rev().take_while(|&&b| b == b'0').count();
        return significant <= 15;
    }
    integer.len() + fraction.len() <= 15 && fraction.last() != Some(&b'0')
}

/// Where the string starting at `start` (its quote) ends, past its closing quote.
#[inline]
fn string_end(input: &[u8], start: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
    let mut pos = start + 1;
    loop {
        // Eight bytes at a time to the next quote or backslash (the lowest
        // flagged byte of the mask is exact).
        while let Some(chunk) = input.get(pos..pos + 8) {
            let word = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
            let mask = zero(word ^ (ONES * b'"' as u64)) | zero(word ^ (ONES * b'\\' as u64));
            if mask != 0 {
                pos += (mask.trailing_zeros() / 8) as usize;
                break;
            }
            pos += 8;
        }
        match input.get(pos) {
            Some(b'"') => return pos + 1,
            Some(b'\\') => pos += 2,
            Some(_) => break,
            None => return input.len(),
        }
    }
    while pos < input.len() {
        match input[pos] {
            b'"' => return pos + 1,
            b'\\' => pos += 2,
            _ => pos += 1,
        }
    }
    input.len()
}

/// A number token: `Ok(None)` to copy it, `Ok(Some(float))` to lay it out,
/// `Err(message)` to refuse it.
fn number(token: &[u8]) -> Result<Option<f64>, String> {
    let text = std::str::from_utf8(token).map_err(|_| "not a JSON number".to_owned())?;
    // Worded as the Rust writer words them (f64's Display: NaN, inf, -inf).
    match text {
        "NaN" => return Err("NaN is not a JSON number".into()),
        "Infinity" => return Err("inf is not a JSON number".into()),
        "-Infinity" => return Err("-inf is not a JSON number".into()),
        _ => {}
    }
    if !text.contains(['.', 'e', 'E']) {
        let digits = text.trim_start_matches('-');
        return match digits.parse::<i64>() {
            Ok(0) if text.starts_with('-') => Err("negative zero is refused".into()),
            Ok(value) if digits.len() <= 16 && value <= MAX_SAFE_INTEGER => Ok(None),
            _ => Err(format!("integer {} is outside ±(2^53-1), which the strict profile refuses", prefix(text))),
        };
    }
    let value: f64 = text.parse().map_err(|_| format!("{} is not a JSON number", prefix(text)))?;
    if !value.is_finite() {
        return Err(format!("{value} is not a JSON number"));
    }
    if value == 0.0 && value.is_sign_negative() {
        return Err("negative zero is refused".into());
    }
    Ok(Some(value))
}

/// At most 20 characters of `text`, then `…` when there is more (as the strict reader shows values).
fn prefix(text: &str) -> String {
    match text.char_indices().nth(20) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

/// The JSON pointer of the value the stack points at.
fn pointer(input: &[u8], stack: &[Frame]) -> String {
    let mut pointer = String::new();
    for frame in stack {
        pointer.push('/');
        if frame.object {
            let key: String = serde_json::from_slice(&input[frame.key.0..frame.key.1]).unwrap_or_default();
            pointer.push_str(&concord_runtime::pointer::escape_token(&key));
        } else {
            pointer.push_str(&frame.index.to_string());
        }
    }
    pointer
}
