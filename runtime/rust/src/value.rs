//! JSON Schema's equality of values: numbers by value (`1` equals `1.0`),
//! `true` not equal to `1`, objects whatever their key order.

use serde_json::Value;

pub fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(x), Some(y)) => x == y,
            _ => x.as_f64() == y.as_f64(),
        },
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| json_equal(x, y)),
        (Value::Object(x), Value::Object(y)) => x.len() == y.len() && x.iter().all(|(key, x)| y.get(key).is_some_and(|y| json_equal(x, y))),
        _ => a == b,
    }
}

/// The first pair of equal items, for `uniqueItems`.
pub fn first_duplicate(items: &[Value]) -> Option<(usize, usize)> {
    (1..items.len()).find_map(|second| (0..second).find(|first| json_equal(&items[*first], &items[second])).map(|first| (first, second)))
}
