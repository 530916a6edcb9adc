//! JSON Schema equality of JSON values (`const`, `enum`, `uniqueItems`):
//! numbers by mathematical value (`1` equals `1.0`), `true` never equals `1`,
//! objects whatever their key order, arrays item by item.

use serde_json::{Number, Value};
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

/// Whether `a` and `b` are equal under JSON Schema equality.
pub fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(a), Value::Bool(b)) => a == b,
        (Value::Number(a), Value::Number(b)) => number_key(a) == number_key(b),
        (Value::String(a), Value::String(b)) => a == b,
        (Value::Array(a), Value::Array(b)) => a.len() == b.len() && a.iter().zip(b).all(|(a, b)| json_equal(a, b)),
        (Value::Object(a), Value::Object(b)) => a.len() == b.len() && a.iter().all(|(key, a)| b.get(key).is_some_and(|b| json_equal(a, b))),
        _ => false,
    }
}

/// The first pair `(i, j)`, `i < j`, of equal items: the smallest such `j`, then
/// the smallest `i`. Hashes a canonical form, so large arrays take linear time.
pub fn first_duplicate(items: &[Value]) -> Option<(usize, usize)> {
    const QUADRATIC_UP_TO: usize = 16;
    if items.len() <= QUADRATIC_UP_TO {
        return (1..items.len()).find_map(|j| (0..j).find(|&i| json_equal(&items[i], &items[j])).map(|i| (i, j)));
    }
    let mut seen: HashMap<u64, Vec<usize>> = HashMap::with_capacity(items.len());
    for (j, item) in items.iter().enumerate() {
        let mut hasher = DefaultHasher::new();
        hash_canonical(item, &mut hasher);
        let same_hash = seen.entry(hasher.finish()).or_default();
        if let Some(&i) = same_hash.iter().find(|&&i| json_equal(&items[i], item)) {
            return Some((i, j));
        }
        same_hash.push(j);
    }
    None
}

/// A number's mathematical value: an integer when it is one, else the float's bits.
#[derive(PartialEq, Eq, Hash)]
enum NumberKey {
    Integer(i128),
    Float(u64),
}

fn number_key(number: &Number) -> NumberKey {
    if let Some(integer) = number.as_i64() {
        return NumberKey::Integer(integer.into());
    }
    if let Some(integer) = number.as_u64() {
        return NumberKey::Integer(integer.into());
    }
    let float = number.as_f64().expect("a JSON number is an i64, a u64 or an f64");
    // Integral floats below 2^127 convert exactly (and -0.0 becomes 0).
    if float.fract() == 0.0 && float.abs() < 1.7e38 {
        NumberKey::Integer(float as i128)
    } else {
        NumberKey::Float(float.to_bits())
    }
}

/// Hashes what [`json_equal`] compares: equal values hash alike.
fn hash_canonical(value: &Value, state: &mut impl Hasher) {
    match value {
        Value::Null => 0u8.hash(state),
        Value::Bool(b) => (1u8, b).hash(state),
        Value::Number(number) => (2u8, number_key(number)).hash(state),
        Value::String(text) => (3u8, text).hash(state),
        Value::Array(items) => {
            (4u8, items.len()).hash(state);
            items.iter().for_each(|item| hash_canonical(item, state));
        }
        Value::Object(map) => {
            (5u8, map.len()).hash(state);
            let mut entries: Vec<_> = map.iter().collect();
            entries.sort_unstable_by_key(|&(key, _)| key);
            for (key, item) in entries {
                key.hash(state);
                hash_canonical(item, state);
            }
        }
    }
}

#[cfg(test)]
mod tests;
