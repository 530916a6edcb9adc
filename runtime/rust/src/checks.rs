//! The assertions generated types make on values (`maxLength`, `pattern`,
//! `minimum`, `multipleOf`, `minItems`, `uniqueItems`, ...). The Python
//! bindings make the same ones: natively in pydantic where its rule is the
//! same (lengths in code points, bounds, the `regex` crate for patterns),
//! else through these very functions in the compiled core. Messages never
//! repeat the refused value: records may hold private data.

use crate::bind::Failure;
use crate::pattern::Pattern;

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

pub fn integer_multiple_of(value: i64, divisor: u64) -> Result<(), Failure> {
    if value.unsigned_abs() % divisor == 0 {
        Ok(())
    } else {
        Err(Failure::new(format!("integer not a multiple of {divisor}")))
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

/// `multipleOf` on a number, exactly, on its shortest decimal form.
pub fn number_multiple_of(value: f64, divisor: &str) -> Result<(), Failure> {
    let multiple = crate::number::parse_divisor(divisor).is_ok_and(|parsed| crate::number::multiple_of(value, &parsed));
    if multiple {
        Ok(())
    } else {
        Err(Failure::new(format!("number not a multiple of {divisor}")))
    }
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

/// `uniqueItems`, by JSON equality of the values as written.
pub fn unique<T: serde::Serialize>(items: &[T]) -> Result<(), Failure> {
    let values: Vec<serde_json::Value> = items.iter().map(|item| serde_json::to_value(item).unwrap_or_default()).collect();
    match crate::value::first_duplicate(&values) {
        None => Ok(()),
        Some((first, second)) => Err(Failure::new(format!("array items {first} and {second} are equal"))),
    }
}
