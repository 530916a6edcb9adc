//! The assertions generated types make on values (`maxLength`, `pattern`,
//! `minimum`, `multipleOf`, `minItems`, `uniqueItems`, ...). The Python
//! bindings make the same ones: natively in pydantic where its rule is the
//! same (lengths in code points, bounds, the `regex` crate for patterns),
//! else through these very functions in the compiled core. Messages never
//! repeat the refused value: records may hold private data.

use crate::failure::Failure;
use crate::number::{self, Divisor};
use crate::pattern::Pattern;
use crate::value::{first_duplicate, json_equal};
use serde_json::Value;

/// String length in Unicode code points, as JSON Schema and Python count it.
pub fn length(value: &str, min: Option<u64>, max: Option<u64>) -> Result<(), Failure> {
    let count = value.chars().count() as u64;
    if let Some(min) = min.filter(|min| count < *min) {
        return Err(Failure::new(format!("string shorter than {min} characters")));
    }
    if let Some(max) = max.filter(|max| count > *max) {
        return Err(Failure::new(format!("string longer than {max} characters")));
    }
    Ok(())
}

pub fn pattern(value: &str, pattern: &Pattern) -> Result<(), Failure> {
    if pattern.is_match(value) {
        Ok(())
    } else {
        Err(Failure::new(format!("string does not match the pattern {:?}", pattern.as_str())))
    }
}

pub fn integer_range(value: i64, min: i64, max: i64) -> Result<(), Failure> {
    if value < min {
        Err(Failure::new(format!("integer below the minimum {min}")))
    } else if value > max {
        Err(Failure::new(format!("integer above the maximum {max}")))
    } else {
        Ok(())
    }
}

/// `[minimum, exclusiveMinimum, maximum, exclusiveMaximum]`, each optional.
pub fn number_range(value: f64, bounds: [Option<f64>; 4]) -> Result<(), Failure> {
    let [minimum, exclusive_minimum, maximum, exclusive_maximum] = bounds;
    let refused = |what: &str, bound: f64| Err(Failure::new(format!("number {what} {}", crate::float::format(bound))));
    match () {
        _ if minimum.is_some_and(|bound| value < bound) => refused("below the minimum", minimum.unwrap_or_default()),
        _ if exclusive_minimum.is_some_and(|bound| value <= bound) => refused("not above", exclusive_minimum.unwrap_or_default()),
        _ if maximum.is_some_and(|bound| value > bound) => refused("above the maximum", maximum.unwrap_or_default()),
        _ if exclusive_maximum.is_some_and(|bound| value >= bound) => refused("not below", exclusive_maximum.unwrap_or_default()),
        _ => Ok(()),
    }
}

/// `multipleOf` on a float (its shortest decimal, exactly).
pub fn multiple_of(value: f64, divisor: &Divisor) -> Result<(), Failure> {
    if number::multiple_of(value, divisor) {
        Ok(())
    } else {
        Err(not_a_multiple(divisor))
    }
}

/// `multipleOf` on an integer.
pub fn integer_multiple_of(value: i64, divisor: &Divisor) -> Result<(), Failure> {
    if number::integer_multiple_of(value, divisor) {
        Ok(())
    } else {
        Err(not_a_multiple(divisor))
    }
}

fn not_a_multiple(divisor: &Divisor) -> Failure {
    Failure::new(format!("not a multiple of {divisor} (multipleOf)"))
}

pub fn items(count: usize, min: Option<u64>, max: Option<u64>) -> Result<(), Failure> {
    let count = count as u64;
    if let Some(min) = min.filter(|min| count < *min) {
        return Err(Failure::new(format!("array shorter than {min} items")));
    }
    if let Some(max) = max.filter(|max| count > *max) {
        return Err(Failure::new(format!("array longer than {max} items")));
    }
    Ok(())
}

pub fn properties(count: usize, min: Option<u64>, max: Option<u64>) -> Result<(), Failure> {
    let count = count as u64;
    if let Some(min) = min.filter(|min| count < *min) {
        return Err(Failure::new(format!("object with fewer than {min} properties")));
    }
    if let Some(max) = max.filter(|max| count > *max) {
        return Err(Failure::new(format!("object with more than {max} properties")));
    }
    Ok(())
}

/// `uniqueItems: true`, under JSON Schema equality, on values as written.
pub fn unique<T: serde::Serialize>(items: &[T]) -> Result<(), Failure> {
    let values: Vec<Value> = items.iter().map(|item| serde_json::to_value(item).unwrap_or_default()).collect();
    unique_items(&values)
}

/// `uniqueItems: true`, under JSON Schema equality.
pub fn unique_items(items: &[Value]) -> Result<(), Failure> {
    match first_duplicate(items) {
        None => Ok(()),
        Some((first, second)) => Err(Failure::new(format!("items {first} and {second} are equal (uniqueItems)"))),
    }
}

/// `"x-typed-id": prefix`.
pub fn typed_id(value: &str, prefix: &str) -> Result<(), Failure> {
    if crate::typed_id::check_typed_id(value, prefix) {
        Ok(())
    } else {
        Err(Failure::new(format!("not a {prefix}_ id with a lowercase UUIDv7 (x-typed-id)")))
    }
}

/// `const`, under JSON Schema equality.
pub fn const_value(value: &Value, constant: &Value) -> Result<(), Failure> {
    if json_equal(value, constant) {
        Ok(())
    } else {
        Err(Failure::new("not the value const requires (const)"))
    }
}

/// `enum`, under JSON Schema equality.
pub fn one_of_values(value: &Value, values: &[Value]) -> Result<(), Failure> {
    if values.iter().any(|allowed| json_equal(value, allowed)) {
        Ok(())
    } else {
        Err(Failure::new("not one of the values enum allows (enum)"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn message(result: Result<(), Failure>) -> String {
        result.unwrap_err().message().to_owned()
    }

    #[test]
    fn messages_name_the_keyword_not_the_value() {
        let divisor = number::parse_divisor("0.25").unwrap();
        assert_eq!(multiple_of(0.75, &divisor), Ok(()));
        assert_eq!(message(multiple_of(0.8, &divisor)), "not a multiple of 0.25 (multipleOf)");
        assert_eq!(message(integer_multiple_of(3, &number::parse_divisor("2").unwrap())), "not a multiple of 2 (multipleOf)");
        assert_eq!(message(unique_items(&[json!("secret"), json!(1), json!("secret")])), "items 0 and 2 are equal (uniqueItems)");
        assert_eq!(unique_items(&[json!(1), json!(true)]), Ok(()));
        assert_eq!(typed_id("run_0190b7a2-5c1e-7d3f-8a2b-0123456789ab", "run"), Ok(()));
        assert_eq!(message(typed_id("secret", "run")), "not a run_ id with a lowercase UUIDv7 (x-typed-id)");
        assert_eq!(const_value(&json!(1.0), &json!(1)), Ok(()));
        assert_eq!(message(const_value(&json!("secret"), &json!(1))), "not the value const requires (const)");
        assert_eq!(one_of_values(&json!([1]), &[json!("a"), json!([1.0])]), Ok(()));
        assert_eq!(message(one_of_values(&json!("secret"), &[json!("a")])), "not one of the values enum allows (enum)");
        assert_eq!(message(length("ab", Some(3), None)), "string shorter than 3 characters");
    }
}
