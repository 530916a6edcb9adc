use super::{first_duplicate, json_equal};
use serde_json::{json, Value};

#[test]
fn equality_is_json_schema_equality() {
    let equal = [
        (json!(1), json!(1.0)),
        (json!(-2), json!(-2.0)),
        (json!(0), json!(-0.0)),
        (json!(9007199254740992u64), json!(9007199254740992.0)),
        (json!(u64::MAX), json!(u64::MAX)),
        (json!(1.5), json!(1.5)),
        (json!({"a": 1, "b": [true, null]}), json!({"b": [true, null], "a": 1.0})),
        (json!([]), json!([])),
        (json!({}), json!({})),
        (json!("a\u{0}b"), json!("a\u{0}b")),
    ];
    for (a, b) in equal {
        assert!(json_equal(&a, &b) && json_equal(&b, &a), "{a} = {b}");
    }
    let different = [
        (json!(true), json!(1)),
        (json!(false), json!(0)),
        (json!(null), json!(0)),
        (json!(""), json!(null)),
        (json!([false]), json!([0])),
        (json!({"a": true}), json!({"a": 1})),
        (json!([1, 2]), json!([2, 1])),
        (json!({"a": 1}), json!({"a": 1, "b": 2})),
        (json!(1.5), json!(1)),
        (json!(i64::MIN), json!(u64::MAX)),
        (json!(9007199254740993u64), json!(9007199254740992.0)),
        (json!("\u{e9}"), json!("e\u{301}")),
    ];
    for (a, b) in different {
        assert!(!json_equal(&a, &b) && !json_equal(&b, &a), "{a} != {b}");
    }
}

#[test]
fn the_first_duplicate_is_found_small_or_large() {
    assert_eq!(first_duplicate(&[json!(1), json!(true), json!(1.0)]), Some((0, 2)));
    assert_eq!(first_duplicate(&[json!(1), json!(2), json!(2), json!(1)]), Some((1, 2)));
    assert_eq!(first_duplicate(&[json!({"a": 1, "b": 2}), json!({"b": 2.0, "a": 1})]), Some((0, 1)));
    assert_eq!(first_duplicate(&[json!(0), json!(false), json!(null), json!(""), json!([]), json!({})]), None);
    assert_eq!(first_duplicate(&[]), None);
    // Past the quadratic size: hashed, with the same answer.
    let mut large: Vec<Value> = (0..10_000).map(|i| json!({"id": i, "tags": [i % 7, "x"]})).collect();
    assert_eq!(first_duplicate(&large), None);
    large.push(json!({"tags": [2.0, "x"], "id": 1234.0}));
    large.push(json!(17));
    assert_eq!(first_duplicate(&large), Some((1234, 10_000)));
    let floats: Vec<Value> = (0..100).map(|i| json!(i as f64 + 0.5)).chain([json!(50.5)]).collect();
    assert_eq!(first_duplicate(&floats), Some((50, 100)));
    let booleans_and_numbers: Vec<Value> = (0..40).map(|i| if i % 2 == 0 { json!(i) } else { json!(i % 4 == 1) }).collect();
    assert_eq!(first_duplicate(&booleans_and_numbers), Some((1, 5)));
}

/// The suite's groups that hold only `const`, `enum` or `uniqueItems`.
#[test]
fn the_test_suite_agrees() {
    let mut checked = 0;
    for file in ["const.json", "enum.json", "uniqueItems.json"] {
        for group in crate::test_suite::groups(file) {
            let schema = group["schema"].as_object().unwrap();
            if schema.keys().any(|key| !matches!(key.as_str(), "$schema" | "$comment" | "const" | "enum" | "uniqueItems")) {
                continue;
            }
            for test in group["tests"].as_array().unwrap() {
                let data = &test["data"];
                let verdict = if let Some(constant) = schema.get("const") {
                    json_equal(data, constant)
                } else if let Some(Value::Array(values)) = schema.get("enum") {
                    values.iter().any(|value| json_equal(data, value))
                } else {
                    schema["uniqueItems"] == false || data.as_array().is_none_or(|items| first_duplicate(items).is_none())
                };
                assert_eq!(verdict, test["valid"], "{file}: {}: {data}", group["description"]);
                checked += 1;
            }
        }
    }
    assert!(checked == 0 || checked > 100, "{checked}");
}
