use super::{build, Assertion, Failure};
use serde_json::{json, Value};

/// The groups of the suite's not, if-then-else, contains, dependentSchemas and
/// propertyNames files, each schema enforced as a whole document (pointer "").
#[test]
fn the_test_suite_agrees() {
    let mut checked = 0;
    for file in ["not.json", "if-then-else.json", "contains.json", "dependentSchemas.json", "propertyNames.json", "patternProperties.json", "maxLength.json"] {
        for group in crate::test_suite::groups(file) {
            let document = group["schema"].to_string();
            let validator = build(&document, "").unwrap_or_else(|error| panic!("{file}: {}: {error}", group["description"]));
            for test in group["tests"].as_array().unwrap() {
                let verdict = validator.validate(&test["data"]).is_ok();
                assert_eq!(verdict, test["valid"], "{file}: {}: {}", group["description"], test["description"]);
                checked += 1;
            }
        }
    }
    assert!(checked == 0 || checked > 100, "{checked}");
}

static DOCUMENT: &str = r##"{
    "$defs": {
        "Short": {"maxLength": 2},
        "Odd name/with~tilde and space": {"not": {"$ref": "#/$defs/Short"}},
        "Tagged": {
            "if": {"properties": {"kind": {"const": "a"}}, "required": ["kind"]},
            "then": {"required": ["a"]},
            "else": {"propertyNames": {"pattern": "^[a-z]+$"}}
        },
        "Listing": {"contains": {"type": "integer"}, "maxContains": 2}
    }
}"##;

/// The document alone, as a one-entry registry.
static DOCUMENTS: super::Documents = &[("https://registry.concord.invalid/test.json", DOCUMENT)];

static SHORT: Assertion = Assertion::new(DOCUMENTS, 0, "/$defs/Short");
static LONG: Assertion = Assertion::new(DOCUMENTS, 0, "/$defs/Odd name~1with~0tilde and space");
static TAGGED: Assertion = Assertion::new(DOCUMENTS, 0, "/$defs/Tagged");
static LISTING: Assertion = Assertion::new(DOCUMENTS, 0, "/$defs/Listing");

#[test]
fn a_static_assertion_enforces_its_subschema_with_internal_refs() {
    assert_eq!(SHORT.check(&json!("ab")), Ok(()));
    assert_eq!(SHORT.check(&json!(12345)), Ok(()), "maxLength applies to strings only");
    assert!(SHORT.check(&json!("abc")).is_err());
    assert_eq!(LONG.check(&json!("abc")), Ok(()));
    assert!(LONG.check(&json!("ab")).is_err());
    assert_eq!(TAGGED.check(&json!({"kind": "a", "a": 1})), Ok(()));
    assert_eq!(TAGGED.check(&json!({"kind": "b", "B": 1})).unwrap_err().pointer, "");
    assert_eq!(LISTING.check(&json!(["x", 1, 2])), Ok(()));
    assert!(LISTING.check(&json!(["x"])).is_err());
    assert!(LISTING.check(&json!([1, 2, 3])).is_err());
}

#[test]
fn a_failure_names_the_keyword_and_where_but_never_the_value() {
    let document = r#"{"$id": "https://example.com/s.json", "properties": {"tags": {"items": {"not": {"const": "secret-value"}}}}}"#;
    let documents: super::Documents = Box::leak(vec![("https://registry.concord.invalid/s.json", document)].into_boxed_slice());
    let assertion = Assertion::new(documents, 0, "");
    let failure: Failure = assertion.check(&json!({"tags": ["ok", "secret-value"]})).unwrap_err();
    assert_eq!(failure.pointer, "/tags/1");
    assert!(failure.message.contains("not"), "{failure}");
    assert_eq!(failure.to_string(), format!("{} (at /tags/1)", failure.message));
    let shown = SHORT.check(&json!("a-secret-value")).unwrap_err();
    assert!(shown.message.contains("maxLength") && !shown.message.contains("secret"), "{shown}");
    assert_eq!(shown.to_string(), shown.message);
}

#[test]
fn what_cannot_be_enforced_is_refused_when_built() {
    assert!(build(r#"{"$ref": "https://example.com/elsewhere.json"}"#, "").is_err(), "a remote $ref is never fetched");
    assert!(build(r#"{"$ref": "file:///etc/passwd"}"#, "").is_err());
    let refused = Assertion::new(&[("https://registry.concord.invalid/r.json", r#"{"$ref": "https://example.com/elsewhere.json"}"#)], 0, "");
    assert!(refused.check(&json!(1)).unwrap_err().message.contains("cannot be registered"), "refused, not a panic");
    assert!(build("{}", "/$defs/Missing").unwrap_err().contains("no subschema"));
    assert!(build("{}", "$defs").unwrap_err().contains("not a JSON pointer"));
    assert!(build("not json", "").unwrap_err().contains("not JSON"));
    assert_eq!(SHORT.check(&json!("ab")), Ok(()));
    // A `$ref` from one document of the registry to another resolves.
    let two: super::Documents = &[
        ("https://registry.concord.invalid/a.json", r#"{"$ref": "b.json#/$defs/Short"}"#),
        ("https://registry.concord.invalid/b.json", r#"{"$defs": {"Short": {"maxLength": 2}}}"#),
    ];
    let across = Assertion::new(two, 0, "");
    assert_eq!(across.check(&json!("ab")), Ok(()));
    assert!(across.check(&json!("abc")).is_err());
}

#[test]
fn format_is_an_annotation() {
    let format = Assertion::new(&[("https://registry.concord.invalid/f.json", r#"{"format": "email"}"#)], 0, "");
    assert_eq!(format.check(&Value::String("not an email".into())), Ok(()));
}
