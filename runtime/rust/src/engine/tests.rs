use crate::pinned::{Document, Note, Schema, Source};
use serde_json::{json, Value};

/// A validator for one document alone (its base below [`crate::pinned::BASE`]).
fn build(document: &str, pointer: &str) -> Result<jsonschema::Validator, String> {
    let base = format!("{}document.json", crate::pinned::BASE);
    super::build_many(&[Source::new(&base, document)], &[pointer])
}

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
static TEST: Document = Document { uri: "https://registry.concord.invalid/test.json", digest: "sha256:0", dialect: None, text: DOCUMENT };

static SHORT: Schema = Schema::new(&[&TEST], "/$defs/Short");
static LONG: Schema = Schema::new(&[&TEST], "/$defs/Odd name~1with~0tilde and space");
static TAGGED: Schema = Schema::new(&[&TEST], "/$defs/Tagged");
static LISTING: Schema = Schema::new(&[&TEST], "/$defs/Listing");

/// A one-document schema for a test, leaked (a `Schema` is a `static` in generated code).
fn schema(uri: &'static str, text: &str) -> &'static Schema {
    let document: &'static Document =
        Box::leak(Box::new(Document { uri, digest: "sha256:0", dialect: None, text: Box::leak(text.to_owned().into_boxed_str()) }));
    Box::leak(Box::new(Schema::new(Box::leak(vec![document].into_boxed_slice()), "")))
}

#[test]
fn a_static_assertion_enforces_its_subschema_with_internal_refs() {
    assert_eq!(SHORT.validate(&json!("ab")), Ok(()));
    assert_eq!(SHORT.validate(&json!(12345)), Ok(()), "maxLength applies to strings only");
    assert!(SHORT.validate(&json!("abc")).is_err());
    assert_eq!(LONG.validate(&json!("abc")), Ok(()));
    assert!(LONG.validate(&json!("ab")).is_err());
    assert_eq!(TAGGED.validate(&json!({"kind": "a", "a": 1})), Ok(()));
    assert_eq!(TAGGED.validate(&json!({"kind": "b", "B": 1})).unwrap_err().to_string(), "/B: its name does not match pattern \"^[a-z]+$\" (propertyNames)");
    assert_eq!(LISTING.validate(&json!(["x", 1, 2])), Ok(()));
    assert!(LISTING.validate(&json!(["x"])).is_err());
    assert!(LISTING.validate(&json!([1, 2, 3])).is_err());
}

#[test]
fn a_failure_names_the_keyword_and_where_but_never_the_value() {
    let document = r#"{"$id": "https://example.com/s.json", "properties": {"tags": {"items": {"not": {"const": "secret-value"}}}}}"#;
    let refusal = schema("https://registry.concord.invalid/s.json", document).validate(&json!({"tags": ["ok", "secret-value"]})).unwrap_err();
    let failure: &Note = &refusal.notes[0];
    assert_eq!((failure.pointer.as_str(), failure.keyword.as_str()), ("/tags/1", "not"));
    assert_eq!(refusal.to_string(), "/tags/1: is valid under the schema in not");
    let shown = SHORT.validate(&json!("a-secret-value")).unwrap_err();
    assert_eq!(shown.to_string(), "(root): is longer than 2 characters");
}

#[test]
fn what_cannot_be_enforced_is_refused_when_built() {
    assert!(build(r#"{"$ref": "https://example.com/elsewhere.json"}"#, "").is_err(), "a remote $ref is never fetched");
    assert!(build(r#"{"$ref": "file:///etc/passwd"}"#, "").is_err());
    let refused = schema("https://registry.concord.invalid/r.json", r#"{"$ref": "https://example.com/elsewhere.json"}"#);
    assert!(refused.validate(&json!(1)).unwrap_err().to_string().contains("cannot be registered"), "refused, not a panic");
    assert!(build("{}", "/$defs/Missing").unwrap_err().contains("no subschema"));
    assert!(build("{}", "$defs").unwrap_err().contains("not a JSON pointer"));
    assert!(build("not json", "").unwrap_err().contains("not JSON"));
    assert_eq!(SHORT.validate(&json!("ab")), Ok(()));
    // A `$ref` from one document of the registry to another resolves.
    static A: Document =
        Document { uri: "https://registry.concord.invalid/a.json", digest: "sha256:0", dialect: None, text: r#"{"$ref": "b.json#/$defs/Short"}"# };
    static B: Document =
        Document { uri: "https://registry.concord.invalid/b.json", digest: "sha256:0", dialect: None, text: r#"{"$defs": {"Short": {"maxLength": 2}}}"# };
    static ACROSS: Schema = Schema::new(&[&A, &B], "");
    let across = &ACROSS;
    assert_eq!(across.validate(&json!("ab")), Ok(()));
    assert!(across.validate(&json!("abc")).is_err());
}

#[test]
fn format_is_an_annotation() {
    let format = schema("https://registry.concord.invalid/f.json", r#"{"format": "email"}"#);
    assert_eq!(format.validate(&Value::String("not an email".into())), Ok(()));
}

/// A chain of `$ref`s, each with a description beside it, checks a value
/// through 10,000 links on a 2 MB stack in a debug build: the rewrite points
/// each link at the chain's end (checked link by link, 3,000 overflowed).
#[test]
fn a_long_ref_chain_is_checked_in_one_step() {
    let mut defs = serde_json::Map::new();
    for i in 0..10_000 {
        defs.insert(format!("d{i}"), json!({"$ref": format!("#/$defs/d{}", i + 1), "description": "one link"}));
    }
    defs.insert("d10000".into(), json!({"type": "string", "maxLength": 3}));
    let text = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/d0"}}, "$defs": defs}).to_string();
    let verdicts = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let validator = build(&text, "").unwrap();
            let refused = super::notes(&validator, &json!({"a": "abcd"}), 3).0;
            (validator.is_valid(&json!({"a": "abc"})), refused)
        })
        .unwrap()
        .join()
        .unwrap();
    assert!(verdicts.0);
    assert_eq!(verdicts.1.iter().map(ToString::to_string).collect::<Vec<_>>(), ["/a: is longer than 3 characters"]);
    // A cycle of links, and a link beside a keyword that is no annotation, stay as they are.
    let cycle = build(r##"{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "properties": {"x": {"$ref": "#/$defs/a"}}}"##, "");
    assert!(cycle.is_err() || cycle.is_ok(), "no hang");
    let beside = build(r##"{"$defs": {"a": {"$ref": "#/$defs/b", "maxLength": 1}, "b": {"type": "string"}}, "$ref": "#/$defs/a"}"##, "").unwrap();
    assert!(!beside.is_valid(&json!("ab")) && beside.is_valid(&json!("a")));
}

/// A document the registry knows by a URI other than its `$id`, whose
/// `$ref`s name an anchor: the crate panicked on nearly half of such builds
/// when both copies said the same `$id`.
#[test]
fn a_document_known_by_two_uris_resolves_its_anchors() {
    let document = r##"{"$id": "https://example.com/a", "$ref": "#foo", "$defs": {"A": {"$anchor": "foo", "type": "integer"}}}"##;
    for _ in 0..40 {
        // Prepared anew each time: the crate's choice was random per registry.
        super::forget_prepared();
        let built = std::panic::catch_unwind(|| {
            let validator = super::build_many(&[Source::new("https://registry.concord.invalid/a.json", document)], &[""]).unwrap();
            (validator.is_valid(&json!(1)), validator.is_valid(&json!("x")))
        });
        assert_eq!(built.ok(), Some((true, false)));
    }
    // Either name reaches the document, an anchor of it too.
    let other = r##"{"properties": {"a": {"$ref": "https://example.com/a#foo"}, "b": {"$ref": "https://registry.concord.invalid/a.json#/$defs/A"}}}"##;
    let documents = [Source::new("https://registry.concord.invalid/b.json", other), Source::new("https://registry.concord.invalid/a.json", document)];
    let validator = super::build_many(&documents, &[""]).unwrap();
    assert!(validator.is_valid(&json!({"a": 1, "b": 2})));
    assert!(!validator.is_valid(&json!({"a": "x"})) && !validator.is_valid(&json!({"b": "x"})));
}

/// `multipleOf` on the decimal form, exactly, as the types check it: the
/// crate alone divides the float's binary value once the decimal is beyond
/// its integers, and called `1e300` a multiple of `1.5`.
#[test]
fn multiple_of_is_exact_on_the_decimal_form() {
    let valid = |document: &str, value: &str| build(document, "").unwrap().is_valid(&serde_json::from_str(value).unwrap());
    let schema = r#"{"$schema": "https://json-schema.org/draft/2020-12/schema", "multipleOf": 1.5}"#;
    for (value, expected) in [("1e300", false), ("3e300", true), ("4.5", true), ("4", false), ("6", true), ("\"x\"", true)] {
        assert_eq!(valid(schema, value), expected, "{value}");
    }
    let tenth = r#"{"$schema": "https://json-schema.org/draft/2020-12/schema", "multipleOf": 0.1}"#;
    assert!(valid(tenth, "0.3") && !valid(tenth, "0.35"));
    let (notes, _) = super::notes(&build(schema, "").unwrap(), &json!(4), 3);
    assert_eq!(
        (notes[0].keyword.as_str(), notes[0].schema_path.as_str(), notes[0].message.as_str()),
        ("multipleOf", "/multipleOf", "is not a multiple of 1.5")
    );
}

/// A divisor the types cannot read, written under the rewrite's own name,
/// is refused when the validator is built, never read as another divisor.
#[test]
fn a_divisor_the_types_cannot_read_is_refused() {
    let error = build(r#"{"$schema": "https://json-schema.org/draft/2020-12/schema", "x-concord-multiple-of": "x"}"#, "").unwrap_err();
    assert!(error.contains("multipleOf \"x\""), "{error}");
}

/// The documents prepared for one set are reused only for the same set: the
/// same URI with another text, another dialect or another companion
/// document is another reading.
#[test]
fn prepared_documents_are_reused_only_for_the_same_set() {
    let uri = "https://registry.concord.invalid/prepared.json";
    let valid = |documents: &[Source<'_>], pointer: &str, value: Value| super::build_many(documents, &[pointer]).unwrap().is_valid(&value);
    let integer = r#"{"$defs": {"A": {"type": "integer"}, "B": {"$ref": "other.json"}}}"#;
    let string = r#"{"$defs": {"A": {"type": "string"}, "B": {"$ref": "other.json"}}}"#;
    let other = |text| Source::new("https://registry.concord.invalid/other.json", text);
    assert!(valid(&[Source::new(uri, integer), other(r#"{"minimum": 3}"#)], "/$defs/A", json!(1)));
    assert!(!valid(&[Source::new(uri, string), other(r#"{"minimum": 3}"#)], "/$defs/A", json!(1)));
    assert!(!valid(&[Source::new(uri, integer), other(r#"{"minimum": 3}"#)], "/$defs/B", json!(1)));
    assert!(valid(&[Source::new(uri, integer), other(r#"{"minimum": 0}"#)], "/$defs/B", json!(1)));
    // Draft-04 reads a boolean exclusiveMinimum; 2020-12 a number.
    let bound = r#"{"minimum": 1, "exclusiveMinimum": true}"#;
    let draft4 = Source { uri, text: bound, dialect: Some("http://json-schema.org/draft-04/schema#") };
    assert!(!valid(&[draft4], "", json!(1)));
    assert!(super::build_many(&[Source::new(uri, bound)], &[""]).is_err());
    // Each set's validators, many times over, from one preparation.
    for _ in 0..(super::PREPARED_KEPT * 2) {
        assert!(valid(&[Source::new(uri, integer), other(r#"{"minimum": 3}"#)], "/$defs/A", json!(2)));
    }
}
