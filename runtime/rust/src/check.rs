//! The assertions generated code calls where a type cannot express one, as
//! `Result<(), String>`: the same messages the Python runtime raises
//! (`concord_runtime.checks`, through the compiled core). A message names
//! what is required and never repeats the refused value.

use crate::number::{self, Divisor};
use crate::value::{first_duplicate, json_equal};
use serde_json::Value;

/// `multipleOf` on a float (its shortest decimal, exactly).
pub fn multiple_of(value: f64, divisor: &Divisor) -> Result<(), String> {
    if number::multiple_of(value, divisor) { Ok(()) } else { Err(not_a_multiple(divisor)) }
}

/// `multipleOf` on an integer.
pub fn integer_multiple_of(value: i64, divisor: &Divisor) -> Result<(), String> {
    if number::integer_multiple_of(value, divisor) { Ok(()) } else { Err(not_a_multiple(divisor)) }
}

fn not_a_multiple(divisor: &Divisor) -> String {
    format!("not a multiple of {divisor} (multipleOf)")
}

/// `uniqueItems: true`, under JSON Schema equality.
pub fn unique_items(items: &[Value]) -> Result<(), String> {
    match first_duplicate(items) {
        None => Ok(()),
        Some((first, second)) => Err(format!("items {first} and {second} are equal (uniqueItems)")),
    }
}

/// `"x-typed-id": prefix`.
pub fn typed_id(value: &str, prefix: &str) -> Result<(), String> {
    if crate::typed_id::check_typed_id(value, prefix) { Ok(()) } else { Err(format!("not a {prefix}_ id with a lowercase UUIDv7 (x-typed-id)")) }
}

/// `const`, under JSON Schema equality.
pub fn const_value(value: &Value, constant: &Value) -> Result<(), String> {
    if json_equal(value, constant) { Ok(()) } else { Err("not the value const requires (const)".into()) }
}

/// `enum`, under JSON Schema equality.
pub fn one_of_values(value: &Value, values: &[Value]) -> Result<(), String> {
    if values.iter().any(|allowed| json_equal(value, allowed)) { Ok(()) } else { Err("not one of the values enum allows (enum)".into()) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn messages_name_the_keyword_not_the_value() {
        let divisor = number::parse_divisor("0.25").unwrap();
        assert_eq!(multiple_of(0.75, &divisor), Ok(()));
        assert_eq!(multiple_of(0.8, &divisor).unwrap_err(), "not a multiple of 0.25 (multipleOf)");
        assert_eq!(integer_multiple_of(3, &number::parse_divisor("2").unwrap()).unwrap_err(), "not a multiple of 2 (multipleOf)");
        assert_eq!(unique_items(&[json!("secret"), json!(1), json!("secret")]).unwrap_err(), "items 0 and 2 are equal (uniqueItems)");
        assert_eq!(unique_items(&[json!(1), json!(true)]), Ok(()));
        assert_eq!(typed_id("run_0190b7a2-5c1e-7d3f-8a2b-0123456789ab", "run"), Ok(()));
        assert_eq!(typed_id("secret", "run").unwrap_err(), "not a run_ id with a lowercase UUIDv7 (x-typed-id)");
        assert_eq!(const_value(&json!(1.0), &json!(1)), Ok(()));
        assert_eq!(const_value(&json!("secret"), &json!(1)).unwrap_err(), "not the value const requires (const)");
        assert_eq!(one_of_values(&json!([1]), &[json!("a"), json!([1.0])]), Ok(()));
        assert_eq!(one_of_values(&json!("secret"), &[json!("a")]).unwrap_err(), "not one of the values enum allows (enum)");
    }
}
