//! Every refusal names the file, the JSON pointer and what is wrong, and all
//! problems of a registry are reported together.

use concord_codegen::registry::digest;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

const DRAFT: &str = "https://json-schema.org/draft/2020-12/schema";

/// A registry in a temporary folder, every file pinned.
struct Registry {
    dir: tempfile::TempDir,
}

impl Registry {
    fn new(schemas: &[(&str, Value)]) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let mut entries = Vec::new();
        for (name, schema) in schemas {
            let path = format!("{}.schema.json", name.to_lowercase());
            let bytes = serde_json::to_vec_pretty(schema).unwrap();
            std::fs::write(dir.path().join(&path), &bytes).unwrap();
            entries.push(json!({"name": name, "path": path, "digest": digest(&bytes)}));
        }
        let registry = Registry { dir };
        registry.write_index(json!({"format": 1, "schemas": entries}));
        registry
    }

    fn write_index(&self, index: Value) {
        std::fs::write(self.path().join("registry.json"), serde_json::to_vec_pretty(&index).unwrap()).unwrap();
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn file(&self, name: &str) -> PathBuf {
        self.path().join(name)
    }

    /// Every diagnostic, one per line, as the command line prints them.
    fn errors(&self) -> String {
        match concord_codegen::load(self.path()) {
            Ok(_) => panic!("the registry was accepted"),
            Err(errors) => errors.to_string(),
        }
    }
}

fn object(properties: Value) -> Value {
    json!({"$schema": DRAFT, "type": "object", "properties": properties})
}

fn assert_has(errors: &str, expected: &[&str]) {
    for part in expected {
        assert!(errors.contains(part), "expected {part:?} in:\n{errors}");
    }
}

#[test]
fn the_shipped_registry_loads() {
    let registry = Path::new(env!("CARGO_MANIFEST_DIR")).join("../registry");
    let model = concord_codegen::load(&registry).unwrap();
    assert!(model.types.iter().any(|t| t.name == "ClsArtifact" && t.is_root));
}

#[test]
fn remote_ref_is_refused() {
    let registry = Registry::new(&[("Root", object(json!({"a": {"$ref": "https://example.com/a.json"}})))]);
    let file = registry.file("root.schema.json");
    assert_has(&registry.errors(), &[&format!("{} at /properties/a/$ref: remote `$ref` \"https://example.com/a.json\" is refused", file.display())]);
}

#[test]
fn ref_to_another_file_is_refused() {
    let registry = Registry::new(&[("Root", object(json!({"a": {"$ref": "other.schema.json#/$defs/A"}})))]);
    assert_has(&registry.errors(), &["at /properties/a/$ref: `$ref` \"other.schema.json#/$defs/A\" points into another file"]);
}

#[test]
fn unsupported_keywords_are_refused_and_all_reported() {
    let registry = Registry::new(&[(
        "Root",
        object(json!({
            "name": {"type": "string", "dependencies": {}},
            "size": {"type": "array", "additionalItems": false},
            "tag": {"type": "string", "x-growthpoint": true},
            "kind": {"type": "string", "maxLenght": 2}
        })),
    )]);
    let errors = registry.errors();
    assert_has(
        &errors,
        &[
            "root.schema.json at /properties/name/dependencies: `dependencies` is refused in 2020-12: a validator of this dialect ignores it",
            "root.schema.json at /properties/size/additionalItems: `additionalItems` is refused in 2020-12: a Draft 2020-12 validator ignores it",
            "root.schema.json at /properties/tag/x-growthpoint: `x-growthpoint` is refused in 2020-12: an unknown concord extension keyword",
            "root.schema.json at /properties/kind/maxLenght: `maxLenght` is refused in 2020-12: it looks like a misspelt keyword",
            "4 errors",
        ],
    );
}

#[test]
fn wrong_or_missing_dialect_is_refused() {
    let mut draft7 = object(json!({}));
    draft7["$schema"] = json!("https://example.com/my-dialect");
    let mut missing = object(json!({}));
    missing.as_object_mut().unwrap().remove("$schema");
    let mut draft3 = object(json!({}));
    draft3["$schema"] = json!("http://json-schema.org/draft-03/schema#");
    let registry = Registry::new(&[("Old", draft7), ("Bare", missing), ("Three", draft3)]);
    assert_has(
        &registry.errors(),
        &[
            "old.schema.json at /$schema: unsupported dialect \"https://example.com/my-dialect\": concord reads draft-04, draft-06, draft-07, 2019-09 and 2020-12",
            "bare.schema.json: missing \"$schema\": declare the dialect in the document (\"$schema\": \"https://json-schema.org/draft/2020-12/schema\"), or in registry.json, for this entry or for the whole registry (\"dialect\": \"draft-07\"; docs/dialects.md)",
            "three.schema.json at /$schema: unsupported dialect \"http://json-schema.org/draft-03/schema#\"",
        ],
    );
}

/// A keyword a document's dialect does not have is refused where its
/// author plainly meant a rule (a validator of that dialect ignores it),
/// naming the dialect; a draft-04 boolean bound is not a number elsewhere,
/// nor a number a boolean in draft-04; concord's own keyword beside an older
/// draft's `$ref` would be lost, and is refused.
#[test]
fn keywords_a_dialect_does_not_have_are_refused_naming_it() {
    let with = |dialect: &str, properties: Value| {
        let mut schema = object(properties);
        schema["$schema"] = json!(dialect);
        schema
    };
    let draft4 = with(
        "http://json-schema.org/draft-04/schema#",
        json!({
            "a": {"const": "x"},
            "b": {"type": "integer", "maximum": 3, "exclusiveMaximum": 3},
            "c": {"type": "string", "$id": "https://example.com/c"},
            "d": {"type": "array", "contains": {"type": "integer"}}
        }),
    );
    let draft6 = with("http://json-schema.org/draft-06/schema#", json!({"a": {"if": {"type": "string"}, "then": {"minLength": 1}}}));
    let draft7 = with(
        "http://json-schema.org/draft-07/schema#",
        json!({
            "a": {"$anchor": "here", "type": "string"},
            "b": {"type": "integer", "minimum": 0, "exclusiveMinimum": true},
            "c": {"dependentRequired": {"x": ["y"]}},
            "d": {"$ref": "#/properties/a", "x-open-enum": true},
            "e": {"unevaluatedProperties": false}
        }),
    );
    let draft2019 = with(
        "https://json-schema.org/draft/2019-09/schema",
        json!({
            "a": {"type": "array", "prefixItems": [{"type": "string"}]},
            "b": {"dependencies": {"x": ["y"]}},
            "c": {"$dynamicRef": "#x"}
        }),
    );
    let registry = Registry::new(&[("Four", draft4), ("Six", draft6), ("Seven", draft7), ("Nineteen", draft2019)]);
    assert_has(
        &registry.errors(),
        &[
            "four.schema.json at /properties/a/const: `const` is refused in draft-04: a draft-06 keyword a draft-04 validator ignores",
            "four.schema.json at /properties/b/exclusiveMaximum: `exclusiveMaximum` must be a boolean in draft-04",
            "four.schema.json at /properties/c/$id: `$id` is refused in draft-04: draft-04 spells it `id`",
            "four.schema.json at /properties/d/contains: `contains` is refused in draft-04",
            "six.schema.json at /properties/a/if: `if` is refused in draft-06: a draft-07 keyword",
            "six.schema.json at /properties/a/then: `then` is refused in draft-06",
            "seven.schema.json at /properties/a/$anchor: `$anchor` is refused in draft-07: a 2019-09 keyword",
            "seven.schema.json at /properties/b/exclusiveMinimum: `exclusiveMinimum` must be a number (a boolean `exclusiveMinimum`/`exclusiveMaximum` is draft-04's form",
            "seven.schema.json at /properties/c/dependentRequired: `dependentRequired` is refused in draft-07: a 2019-09 keyword a validator of this draft ignores: use `dependencies`",
            "seven.schema.json at /properties/d/x-open-enum: `x-open-enum` beside `$ref` is ignored in draft-07, where `$ref` overrides the keywords beside it",
            "seven.schema.json at /properties/e/unevaluatedProperties: `unevaluatedProperties` is refused in draft-07",
            "nineteen.schema.json at /properties/a/prefixItems: `prefixItems` is refused in 2019-09: a 2020-12 keyword",
            "nineteen.schema.json at /properties/b/dependencies: `dependencies` is refused in 2019-09",
            "nineteen.schema.json at /properties/c/$dynamicRef: `$dynamicRef` is refused in 2019-09",
        ],
    );
}

/// 2019-09's `unevaluatedItems` does not see what `contains` matched, and
/// the engine reads it as 2020-12 does: such a document is refused, not
/// checked otherwise than its draft says.
#[test]
fn unevaluated_items_beside_contains_in_2019_09_is_refused() {
    let mut schema = object(json!({"list": {"type": "array", "contains": {"type": "string"}, "unevaluatedItems": false}}));
    schema["$schema"] = json!("https://json-schema.org/draft/2019-09/schema");
    assert_has(
        &Registry::new(&[("Items", schema.clone())]).errors(),
        &["items.schema.json at /properties/list/unevaluatedItems: `unevaluatedItems` beside `contains` in a 2019-09 document", "1 error"],
    );
    // Inside an array of `items` (2019-09's tuple form) too.
    let mut nested = object(json!({"list": {"type": "array", "contains": {"type": "string"}, "items": [{"type": "array", "unevaluatedItems": false}]}}));
    nested["$schema"] = json!("https://json-schema.org/draft/2019-09/schema");
    assert_has(
        &Registry::new(&[("Items", nested)]).errors(),
        &["items.schema.json at /properties/list/items/0/unevaluatedItems: `unevaluatedItems` beside `contains` in a 2019-09 document"],
    );
    schema["$schema"] = json!(DRAFT);
    assert!(concord_codegen::load(Registry::new(&[("Items", schema)]).path()).is_ok(), "2020-12 counts what `contains` matched, as the engine does");
}

/// registry.json may declare the dialect of documents without `$schema`,
/// for an entry or the whole registry; a name that is no dialect, and an
/// entry's dialect its document's own `$schema` contradicts, are refused.
#[test]
fn a_declared_dialect_must_be_one_and_must_not_contradict_the_document() {
    let mut bare = object(json!({"a": {"$ref": "#/definitions/a", "maxLength": 1}}));
    bare.as_object_mut().unwrap().remove("$schema");
    bare["definitions"] = json!({"a": {"type": "string"}});
    let registry = Registry::new(&[("Bare", bare.clone()), ("Typed", object(json!({})))]);
    let index: Value = serde_json::from_slice(&std::fs::read(registry.file("registry.json")).unwrap()).unwrap();
    // The registry's default reads the bare document; the entry's own
    // contradicts the typed one's `$schema`.
    let mut declared = index.clone();
    declared["dialect"] = json!("draft-07");
    declared["schemas"][1]["dialect"] = json!("http://json-schema.org/draft-04/schema#");
    registry.write_index(declared);
    assert_has(&registry.errors(), &["typed.schema.json at /$schema: registry.json declares this entry draft-04, but its `$schema` names 2020-12", "1 error"]);
    let mut wrong = index.clone();
    wrong["dialect"] = json!("draft-03");
    wrong["schemas"][0]["dialect"] = json!(7);
    registry.write_index(wrong);
    assert_has(
        &registry.errors(),
        &[
            "registry.json at /dialect: `dialect` \"draft-03\" is not a dialect concord reads: one of \"draft-04\", \"draft-06\", \"draft-07\", \"2019-09\", \"2020-12\"",
            "registry.json at /schemas/0/dialect: `dialect` 7 is not a dialect concord reads",
        ],
    );
    // Declared draft-07, the bare document reads: the `$ref` overrides its sibling.
    let mut good = index;
    good["schemas"][0]["dialect"] = json!("draft-07");
    registry.write_index(good);
    let model = concord_codegen::load(registry.path()).unwrap();
    assert_eq!(model.modules[0].declared_dialect.as_deref(), Some("http://json-schema.org/draft-07/schema#"));
    assert_eq!(model.modules[1].declared_dialect, None);
}

/// Each spelling of a dialect's URI the engine reads is that dialect
/// (compose-spec declares `https://json-schema.org/draft-07/schema`): the
/// reader and the engine never take one document for two dialects.
#[test]
fn every_spelling_of_a_dialect_the_engine_reads_is_read() {
    let mut compose = object(json!({"a": {"type": "string"}}));
    compose["$schema"] = json!("https://json-schema.org/draft-07/schema");
    let mut typed = object(json!({"a": {"type": "string"}}));
    typed["$schema"] = json!("http://json-schema.org/draft/2020-12/schema#");
    let registry = Registry::new(&[("Compose", compose), ("Typed", typed)]);
    let model = concord_codegen::load(registry.path()).unwrap();
    let root = |module: usize| &model.get(model.modules[module].root.unwrap()).kind;
    assert!(matches!(root(0), concord_codegen::model::TypeKind::Struct(_)), "draft-07 spelt with https and no `#`: types");
    assert!(matches!(root(1), concord_codegen::model::TypeKind::Struct(_)), "2020-12 spelt with http and `#`: types");
}

#[test]
fn property_names_that_make_one_word_are_numbered() {
    let registry = Registry::new(&[("Root", object(json!({"gpu-arch": {"type": "string"}, "gpu_arch": {"type": "string"}})))]);
    let model = concord_codegen::load(registry.path()).unwrap();
    let concord_codegen::model::TypeKind::Struct(body) = &model.types[0].kind else { panic!() };
    let words: Vec<(&str, &str)> = body.fields.iter().map(|f| (f.json_name.as_str(), f.word.as_str())).collect();
    // The property whose name already is its field name keeps it, wherever it stands.
    assert_eq!(words, [("gpu-arch", "gpu_arch2"), ("gpu_arch", "gpu_arch")]);
    let registry = Registry::new(&[("Root", object(json!({"gpu_arch": {"type": "string"}, "gpu-arch": {"type": "string"}, "GpuArch": {"type": "string"}})))]);
    let model = concord_codegen::load(registry.path()).unwrap();
    let concord_codegen::model::TypeKind::Struct(body) = &model.types[0].kind else { panic!() };
    let words: Vec<(&str, &str)> = body.fields.iter().map(|f| (f.json_name.as_str(), f.word.as_str())).collect();
    assert_eq!(words, [("gpu_arch", "gpu_arch"), ("gpu-arch", "gpu_arch2"), ("GpuArch", "gpu_arch3")]);
}

#[test]
fn type_names_that_come_out_alike_are_numbered() {
    let mut schema = object(json!({"session": {"type": "object", "properties": {}}}));
    schema["$defs"] = json!({"RootSession": {"type": "string"}});
    let registry = Registry::new(&[("Root", schema)]);
    let model = concord_codegen::load(registry.path()).unwrap();
    let names: Vec<&str> = model.types.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["Root", "RootSession", "RootSession2"]);
}

#[test]
fn enum_values_that_make_one_word_are_numbered() {
    let registry = Registry::new(&[("Root", object(json!({"mode": {"type": "string", "enum": ["max-autotune", "max_autotune", "Self", "self"]}})))]);
    let model = concord_codegen::load(registry.path()).unwrap();
    let concord_codegen::model::TypeKind::Enum(values) = &model.types[1].kind else { panic!("{:?}", model.types[1]) };
    let words: Vec<&str> = values.iter().map(|value| value.word.as_str()).collect();
    assert_eq!(words, ["MaxAutotune", "MaxAutotune2", "Self", "Self2"]);
}

#[test]
fn a_growth_point_cannot_be_closed() {
    let mut closed = object(json!({"a": {"type": "string"}}));
    closed["x-growth-point"] = json!(true);
    closed["additionalProperties"] = json!(false);
    let mut typed = object(json!({}));
    typed["x-growth-point"] = json!(true);
    typed["additionalProperties"] = json!({"type": "integer"});
    let registry = Registry::new(&[("Closed", closed), ("Typed", typed)]);
    assert_has(
        &registry.errors(),
        &[
            "closed.schema.json at /x-growth-point: a growth point keeps unknown keys verbatim, but `additionalProperties` here refuses unknown keys",
            "typed.schema.json at /x-growth-point: a growth point keeps unknown keys verbatim, but `additionalProperties` here types unknown keys as a map",
        ],
    );
}

#[test]
fn paths_may_not_leave_the_registry() {
    let registry = Registry::new(&[]);
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("x.schema.json"), "{}").unwrap();
    std::os::unix::fs::symlink(outside.path().join("x.schema.json"), registry.file("link.schema.json")).unwrap();
    let pin = digest(b"{}");
    registry.write_index(json!({"format": 1, "schemas": [
        {"name": "Up", "path": "../x.schema.json", "digest": pin},
        {"name": "Absolute", "path": outside.path().join("x.schema.json"), "digest": pin},
        {"name": "Link", "path": "link.schema.json", "digest": pin},
    ]}));
    assert_has(
        &registry.errors(),
        &[
            "registry.json at /schemas/0/path: path \"../x.schema.json\" leaves the registry folder",
            "registry.json at /schemas/1/path: path",
            "must be relative to the registry folder",
            "link.schema.json: resolves to",
            "outside the registry folder",
        ],
    );
}

#[test]
fn a_changed_byte_is_digest_drift() {
    let registry = Registry::new(&[("Root", object(json!({"a": {"type": "string"}})))]);
    let file = registry.file("root.schema.json");
    let pinned = digest(&std::fs::read(&file).unwrap());
    let mut bytes = std::fs::read(&file).unwrap();
    bytes.push(b'\n');
    std::fs::write(&file, &bytes).unwrap();
    assert_has(
        &registry.errors(),
        &[&format!(
            "{}: digest drift: registry.json pins {pinned} but the file's bytes hash to {}; if the change is deliberate, re-pin with `concord pin --registry",
            file.display(),
            digest(&bytes)
        )],
    );
}

#[test]
fn a_missing_file_is_named() {
    let registry = Registry::new(&[("Root", object(json!({})))]);
    std::fs::remove_file(registry.file("root.schema.json")).unwrap();
    assert_has(&registry.errors(), &["root.schema.json: missing: registry.json lists this file (pinned sha256:"]);
}

#[test]
fn duplicate_keys_are_refused() {
    let registry = Registry::new(&[]);
    let text = format!(r#"{{"$schema": "{DRAFT}", "type": "object", "properties": {{"a": {{}}, "a": {{}}}}}}"#);
    std::fs::write(registry.file("dup.schema.json"), &text).unwrap();
    registry.write_index(json!({"format": 1, "schemas": [{"name": "Dup", "path": "dup.schema.json", "digest": digest(text.as_bytes())}]}));
    assert_has(
        &registry.errors(),
        &["dup.schema.json: refused by the strict JSON profile (docs/strict-json.md): duplicate-key at byte 102: duplicate key \"a\""],
    );
}

#[test]
fn shapes_the_languages_cannot_share_are_refused() {
    let mut schema = object(json!({
        "junk": {"type": ["string", 5]},
        "level": {"type": "string", "enum": ["a", "a"]}
    }));
    schema["required"] = json!(["missing", "missing"]);
    let registry = Registry::new(&[("Root", schema)]);
    assert_has(
        &registry.errors(),
        &["at /properties/junk/type: unknown type 5", "at /properties/level/enum/1: duplicate enum value \"a\"", "at /required/1: \"missing\" is listed twice"],
    );
}

/// A type that contains itself through an array or a map (a tree) is a
/// type of its own in both languages; one that contains itself with nothing
/// between holds no finite value, and is refused.
#[test]
fn a_type_that_contains_itself_with_nothing_between_is_refused_and_a_tree_is_not() {
    let mut schema = object(json!({"tree": {"$ref": "#/$defs/Tree"}, "loop": {"$ref": "#/$defs/Loop"}}));
    schema["$defs"] = json!({"Tree": {"type": "array", "items": {"$ref": "#/$defs/Tree"}}, "Loop": {"anyOf": [{"$ref": "#/$defs/Loop"}, {"type": "null"}]}});
    let registry = Registry::new(&[("Root", schema.clone())]);
    assert_has(&registry.errors(), &["at /$defs/Loop: `Loop` contains itself with no array, map or object in between: no value of it is finite", "1 error"]);
    schema["properties"].as_object_mut().unwrap().remove("loop");
    schema["$defs"].as_object_mut().unwrap().remove("Loop");
    let registry = Registry::new(&[("Root", schema)]);
    let model = concord_codegen::load(registry.path()).unwrap();
    let tree = model.ids().find(|&id| model.get(id).name == "Tree").unwrap();
    assert!(model.get(tree).wrapped && model.is_record(tree), "a tree is a type of its own");
}

#[test]
fn subschemas_only_the_engine_reads_are_held_to_the_keyword_table() {
    let registry = Registry::new(&[(
        "Root",
        object(json!({
            "a": {"not": {"maxLenght": 2}},
            "b": {"properties": {"c": {"$ref": "https://example.com/c.json"}}},
            "d": {"if": {"additionalItems": false}}
        })),
    )]);
    let model = concord_codegen::load(Registry::new(&[("Root", object(json!({"a": {"not": {"maxLength": 2}}})))]).path()).unwrap();
    assert!(model.get(model.modules[0].root.unwrap()).asserted(), "`not` makes the module's records go through the engine");
    assert_has(
        &registry.errors(),
        &[
            "at /properties/a/not/maxLenght: `maxLenght` is refused in 2020-12: it looks like a misspelt keyword",
            // Followed by the engine alone, a `$ref` still leads nowhere concord does not read.
            "at /properties/b/properties/c/$ref: remote `$ref` \"https://example.com/c.json\" is refused: concord never fetches schemas",
            "at /properties/d/if/additionalItems: `additionalItems` is refused",
        ],
    );
}

#[test]
fn the_index_is_read_strictly() {
    let registry = Registry::new(&[]);
    registry.write_index(json!({"format": 2, "schemas": [
        {"name": "lower", "path": "x.json", "digest": "md5:00", "extra": 1},
        {"name": "Spaced", "path": "y.json", "digest": "md5:00", "uri": "urn:a b\"c"},
        {"name": "Relative", "path": "z.json", "digest": "md5:00", "uri": "z.json"},
    ], "more": true}));
    assert_has(
        &registry.errors(),
        &[
            "registry.json at /schemas/1/uri: uri \"urn:a b\\\"c\" is not a URI (RFC 3986 does not allow ' ' in one)",
            "registry.json at /schemas/2/uri: uri \"z.json\" must be an absolute URI without a fragment",
            "registry.json at /more: unknown key \"more\"",
            "registry.json at /format: `format` must be 1",
            "registry.json at /schemas/0/extra: unknown key \"extra\"",
            "registry.json at /schemas/0/name: name \"lower\" must be a PascalCase identifier",
            "registry.json at /schemas/0/digest: digest \"md5:00\" must be \"sha256:\" and 64 lowercase hex digits",
        ],
    );
}

#[test]
fn a_root_may_be_any_schema_and_a_document_of_defs_only_is_a_module() {
    let reference = json!({"$schema": DRAFT, "$ref": "#/$defs/A", "$defs": {"A": {"type": "object", "properties": {}}}});
    let array = json!({"$schema": DRAFT, "type": "array", "items": {"type": "string", "maxLength": 3}, "minItems": 1});
    let defs_only = json!({"$schema": DRAFT, "$defs": {"Metadata": {"type": "object", "properties": {"a": {"type": "string"}}}}});
    let also_metadata = json!({"$schema": DRAFT, "$defs": {"Metadata": {"type": "string"}}});
    let registry = Registry::new(&[("Reference", reference), ("Tags", array), ("Shared", defs_only), ("Other", also_metadata)]);
    let model = concord_codegen::load(registry.path()).unwrap();
    let names: Vec<(&str, usize, bool)> = model.types.iter().map(|t| (t.name.as_str(), t.module, t.is_root)).collect();
    // A root that only refers to a definition is that definition, under the
    // entry's name; `Metadata` twice, once in each module: names need only be
    // unique within an entry.
    // A document of `$defs` only: its root is any JSON value, its definitions the module's types.
    assert_eq!(names, [("Reference", 0, true), ("Tags", 1, true), ("Shared", 2, true), ("Metadata", 2, false), ("Other", 3, true), ("Metadata", 3, false)]);
    assert!(matches!(model.types[2].kind, concord_codegen::model::TypeKind::Alias(concord_codegen::model::Shape::Any)));
}

#[test]
fn a_misspelt_keyword_is_refused_and_an_unknown_annotation_is_not() {
    let registry = Registry::new(&[("Root", object(json!({"name": {"type": "string", "maxLenght": 3, "example": "x", "$todo": 1}})))]);
    let errors = registry.errors();
    assert_has(&errors, &["at /properties/name/maxLenght: `maxLenght` is refused in 2020-12: it looks like a misspelt keyword", "1 error"]);
}

#[test]
fn all_of_parts_that_conflict_leave_the_engine_to_check_and_a_cycle_is_refused() {
    let closed = json!({"$schema": DRAFT, "allOf": [
        {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false},
        {"type": "object", "properties": {"b": {"type": "string"}}}
    ]});
    let typed = json!({"$schema": DRAFT, "allOf": [{"type": "object"}, {"type": "array"}]});
    let conflicts = Registry::new(&[("Closed", closed), ("Typed", typed)]);
    let model = concord_codegen::load(conflicts.path()).unwrap();
    assert!(model.modules.iter().all(|module| model.get(module.root.unwrap()).asserted()), "the engine checks what the merged types leave out");
    let closed_root = model.modules[0].root.unwrap();
    let concord_codegen::model::TypeKind::Struct(body) = &model.get(closed_root).kind else { panic!() };
    assert!(matches!(body.unknown_keys, concord_codegen::model::UnknownKeys::Drop), "the merged type is open, never stricter than the schema");

    let cycle = json!({"$schema": DRAFT, "$ref": "#/$defs/A", "type": "object", "$defs": {"A": {"allOf": [{"$ref": "#/$defs/A"}], "type": "object"}}});
    let registry = Registry::new(&[("Cycle", cycle)]);
    assert_has(
        &registry.errors(),
        &["cycle.schema.json at /$defs/A/allOf/0/$ref: `$ref` \"#/$defs/A\" leads back, through `$ref` and `allOf` alone, to a schema it is part of, for the same value"],
    );
}

#[test]
fn open_enums_and_typed_ids_are_refused_where_they_cannot_apply() {
    let registry = Registry::new(&[(
        "Root",
        object(json!({
            "a": {"type": "string", "x-open-enum": true},
            "b": {"type": "integer", "enum": [1], "x-open-enum": true},
            "c": {"type": "string", "enum": ["x"], "x-open-enum": "yes"},
            "d": {"type": "string", "const": "x", "x-open-enum": true},
            "e": {"type": "integer", "x-typed-id": "run"},
            "f": {"x-typed-id": "run"},
            "g": {"type": "string", "x-typed-id": "Run"},
            "h": {"type": "string", "x-typed-id": "run\"); evil(\""},
            "i": {"type": "string", "x-typed-id": ""},
            "j": {"type": "string", "x-typed-id": 7},
            "k": {"type": "string", "x-typed-id": "run_"},
            "l": {"type": "string", "x-typed-id": "run", "pattern": "^run_"},
            "m": {"type": "string", "enum": ["x"], "x-typed-id": "run"},
            "n": {"type": "object", "x-open-enum": true},
            "o": {"type": "string", "enum": ["x"], "x-open-enums": true}
        })),
    )]);
    let errors = registry.errors();
    assert_has(
        &errors,
        &[
            "root.schema.json at /properties/a/x-open-enum: `x-open-enum` opens a string `enum`, and this schema has no `enum`",
            "root.schema.json at /properties/b/x-open-enum: `x-open-enum` opens a string `enum`",
            "root.schema.json at /properties/c/x-open-enum: `x-open-enum` must be true or false, not \"yes\"",
            "root.schema.json at /properties/d/x-open-enum: `x-open-enum` opens an `enum`, and a `const` is one fixed value",
            "root.schema.json at /properties/e/x-typed-id: `x-typed-id` applies to strings (`\"type\": \"string\"`), not to `\"type\": \"integer\"`",
            "root.schema.json at /properties/f/x-typed-id: `x-typed-id` applies to strings (`\"type\": \"string\"`), not to a schema without `type`",
            "root.schema.json at /properties/g/x-typed-id: `x-typed-id` prefix \"Run\" is refused: a prefix is a lowercase identifier",
            "root.schema.json at /properties/h/x-typed-id: `x-typed-id` prefix \"run\\\"); evil(\\\"\" is refused",
            "root.schema.json at /properties/i/x-typed-id: `x-typed-id` prefix \"\" is refused",
            "root.schema.json at /properties/j/x-typed-id: `x-typed-id` must be a string, the ids' prefix (such as \"run\"), not 7",
            "root.schema.json at /properties/k/x-typed-id: `x-typed-id` prefix \"run_\" is refused",
            "root.schema.json at /properties/l/pattern: `pattern` cannot stand beside `x-typed-id`",
            "root.schema.json at /properties/m/x-typed-id: `x-typed-id` cannot stand beside `enum` or `const`",
            "root.schema.json at /properties/n/x-open-enum: `x-open-enum` opens a string `enum`, and this schema has no `enum`",
            "root.schema.json at /properties/o/x-open-enums: `x-open-enums` is refused in 2020-12: an unknown concord extension keyword",
        ],
    );
}

#[test]
fn an_open_enum_value_named_like_the_catch_all_moves_the_catch_all() {
    let mut schema = object(json!({"s": {"type": "string", "enum": ["unrecognized", "unrecognized_value", "ok"], "x-open-enum": true}}));
    schema["required"] = json!(["s"]);
    let dir = tempfile::tempdir().unwrap();
    let bytes = serde_json::to_vec_pretty(&schema).unwrap();
    std::fs::write(dir.path().join("root.schema.json"), &bytes).unwrap();
    let index = json!({"format": 1, "schemas": [{"name": "Root", "path": "root.schema.json", "digest": digest(&bytes)}]});
    std::fs::write(dir.path().join("registry.json"), serde_json::to_vec(&index).unwrap()).unwrap();
    let model = concord_codegen::load(dir.path()).expect("an open enum with such values is accepted");
    let rust = concord_codegen::emit::rust::module(&model);
    assert!(rust.contains("Unrecognized,") && rust.contains("UnrecognizedValue,") && rust.contains("UnrecognizedValue2(String)"), "{rust}");
}

#[test]
fn a_union_no_value_names_the_branch_of_is_any_value_checked_by_the_engine() {
    let registry = Registry::new(&[(
        "Root",
        object(json!({"either": {"oneOf": [{"type": "object", "properties": {"a": {}}}, {"type": "object", "properties": {"b": {}}}]}})),
    )]);
    let model = concord_codegen::load(registry.path()).unwrap();
    assert!(model.get(model.modules[0].root.unwrap()).asserted());
    let either = model.types.iter().find(|t| t.name == "RootEither").unwrap();
    assert!(matches!(either.kind, concord_codegen::model::TypeKind::Alias(concord_codegen::model::Shape::Any)), "{either:?}");
}

/// Found by the generator fuzzer: a union read inside a tuple's elements,
/// whose types the reader then forgets (a tuple holds plain shapes only),
/// was still decided later, at an index no type had any more.
#[test]
fn a_union_the_reader_forgets_is_not_decided_later() {
    let tuple = json!({"type": "array", "prefixItems": [{}, {"anyOf": [{"type": "string"}, {"type": "integer"}]}], "items": false, "minItems": 2});
    let registry = Registry::new(&[("Root", json!({"$schema": DRAFT, "$defs": {"Pair": {"type": "object", "properties": {"pair": tuple}}}}))]);
    let model = concord_codegen::load(registry.path()).unwrap();
    let pair = model.types.iter().find(|t| t.name == "Pair").unwrap();
    let concord_codegen::model::TypeKind::Struct(body) = &pair.kind else { panic!("{pair:?}") };
    assert!(
        matches!(&body.fields[0].shape, concord_codegen::model::Shape::Checked(inner, _) if matches!(**inner, concord_codegen::model::Shape::Array(_))),
        "an array, not a tuple: {:?}",
        body.fields[0].shape
    );
}

/// Found trying concord as a new user would (issue 8): `pin` panicked on an
/// index whose `schemas` held a non-object, and a FIFO named as a schema
/// made generation wait forever. Both are refused, naming the place.
#[test]
fn a_malformed_index_entry_and_a_fifo_are_refused_not_a_panic_or_a_hang() {
    let registry = Registry::new(&[("Root", object(json!({})))]);
    let bytes = std::fs::read(registry.file("root.schema.json")).unwrap();
    registry.write_index(json!({"format": 1, "schemas": [5, {"name": "Root", "path": "root.schema.json", "digest": digest(b"old")}]}));
    let pin = concord_codegen::registry::pin(registry.path()).expect_err("refused").to_string();
    assert_has(&pin, &["registry.json at /schemas/0: a schema entry must be an object"]);
    let index = std::fs::read_to_string(registry.file("registry.json")).unwrap();
    assert!(index.contains(&digest(b"old")) && !index.contains(&digest(&bytes)), "nothing is written while an entry is wrong");

    let fifo = registry.file("fifo.schema.json");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
    assert!(made.success());
    registry.write_index(json!({"format": 1, "schemas": [{"name": "Fifo", "path": "fifo.schema.json", "digest": digest(b"")}]}));
    assert_has(&registry.errors(), &["fifo.schema.json: not a regular file"]);
    let pin = concord_codegen::registry::pin(registry.path()).expect_err("refused").to_string();
    assert_has(&pin, &["fifo.schema.json: not a regular file"]);
}

/// Cycles no document nests, found by hostile schemas: an alias cycle under
/// a union hung the union's lowering, and a union whose branch is the whole
/// schema again, with keywords beside it to spread into the branch,
/// recursed until the stack overflowed. Both are refused (the second, a
/// merge that contains itself, is a recursive type with no object in it).
#[test]
fn cycles_through_unions_and_merges_are_refused_not_a_hang_or_a_crash() {
    let aliases = json!({"$schema": DRAFT, "type": "object", "properties": {"u": {"$ref": "#/$defs/U"}},
        "$defs": {"U": {"oneOf": [{"$ref": "#/$defs/A"}, {"type": "string"}]}, "A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}});
    let spread = json!({"$schema": DRAFT, "type": ["string", "integer"], "oneOf": [{"$ref": "#"}]});
    assert_has(
        &Registry::new(&[("Aliases", aliases)]).errors(),
        &["aliases.schema.json at /$defs/A: `A` contains itself with no array, map or object in between"],
    );
    // The branch merges to the whole schema again: a recursive type, which
    // contains itself with nothing in between.
    assert_has(&Registry::new(&[("Spread", spread)]).errors(), &["spread.schema.json at /oneOf/0", "contains itself with no array, map or object in between"]);
}

/// `x-version-field` names a required integer property listing its versions;
/// anything else is refused where it stands.
#[test]
fn a_version_field_must_name_a_required_integer_enum() {
    let envelope = |field: Value, version: Value, required: Value| json!({"$schema": DRAFT, "type": "object", "x-version-field": field, "required": required, "properties": {"v": version, "a": {"type": "string"}}});
    let registry = Registry::new(&[
        ("NotAName", envelope(json!(1), json!({"type": "integer", "enum": [1]}), json!(["v"]))),
        ("Undeclared", envelope(json!("w"), json!({"type": "integer", "enum": [1]}), json!(["v"]))),
        ("Optional", envelope(json!("v"), json!({"type": "integer", "enum": [1]}), json!([]))),
        ("NoSet", envelope(json!("v"), json!({"type": "integer"}), json!(["v"]))),
        ("Strings", envelope(json!("v"), json!({"type": "string", "enum": ["1"]}), json!(["v"]))),
        ("Fine", envelope(json!("v"), json!({"type": "integer", "const": 3}), json!(["v"]))),
    ]);
    let errors = registry.errors();
    assert_has(
        &errors,
        &[
            "notaname.schema.json at /x-version-field: `x-version-field` must be the name of a property",
            "undeclared.schema.json at /x-version-field: `x-version-field` names `w`, which this object does not declare",
            "optional.schema.json at /x-version-field: `x-version-field` names `v`, which is not required: an envelope must say its version",
            "noset.schema.json at /x-version-field: `x-version-field` names `v`, which must be `\"type\": \"integer\"` with the supported versions as an `enum` of integers (or one `const`)",
            "strings.schema.json at /x-version-field: `x-version-field` names `v`, which must be",
        ],
    );
    assert!(!errors.contains("fine.schema.json"), "{errors}");
}

/// Containers as each dialect reads them: data in draft-07's `$defs` (no
/// keyword there) is refused only where a `$ref` makes it a schema; in
/// 2020-12, where `$defs` is the keyword, every entry must be a schema; a
/// key no dialect names is a container only where a `$ref` reaches into it,
/// else still a misspelt `$defs`.
#[test]
fn containers_hold_data_only_where_the_dialect_says_so() {
    const DRAFT7: &str = "http://json-schema.org/draft-07/schema#";
    let reached = Registry::new(&[(
        "Root",
        json!({"$schema": DRAFT7, "type": "object", "properties": {"a": {"$ref": "#/$defs/note"}}, "$defs": {"note": "text", "other": 3}}),
    )]);
    let errors = reached.errors();
    assert_has(&errors, &["at /properties/a/$ref: `$ref` \"#/$defs/note\" points at a value that is not a schema"]);
    assert!(!errors.contains("/$defs/other"), "{errors}");

    let keyword = Registry::new(&[("Root", json!({"$schema": DRAFT, "type": "object", "$defs": {"note": "text"}}))]);
    assert_has(&keyword.errors(), &["at /$defs/note: a schema must be an object or a boolean"]);

    let unreached = Registry::new(&[("Root", json!({"$schema": DRAFT7, "type": "object", "defs": {"a": {"type": "string"}}}))]);
    assert_has(&unreached.errors(), &["at /defs: `defs` is refused in draft-07: it looks like a misspelt keyword"]);

    let reached = Registry::new(&[(
        "Root",
        json!({"$schema": DRAFT7, "type": "object", "properties": {"a": {"$ref": "#/defs/a"}}, "defs": {"a": {"type": "string"}, "data": 3}}),
    )]);
    assert!(concord_codegen::load(reached.path()).is_ok());
}

/// `read_as` reads a document as a later dialect than its `$schema` names,
/// and only so: not an earlier or the same one, not a document without
/// `$schema`, not beside `dialect`. The refusal of a later dialect's keyword
/// names the choice.
#[test]
fn read_as_names_a_later_dialect_than_the_documents_own() {
    const DRAFT4: &str = "http://json-schema.org/draft-04/schema#";
    let schema = json!({"$schema": DRAFT4, "type": "object", "properties": {"v": {"const": "2"}}});
    let plain = Registry::new(&[("Root", schema.clone())]);
    assert_has(&plain.errors(), &["at /properties/v/const: `const` is refused in draft-04", "`\"read_as\": \"draft-06\"` in its registry.json entry"]);

    let with = |entry: Value, schema: &Value| {
        let registry = Registry::new(&[("Root", schema.clone())]);
        let mut index: Value = serde_json::from_slice(&std::fs::read(registry.file("registry.json")).unwrap()).unwrap();
        for (key, value) in entry.as_object().unwrap() {
            index["schemas"][0][key] = value.clone();
        }
        registry.write_index(index);
        registry
    };
    assert!(concord_codegen::load(with(json!({"read_as": "draft-06"}), &schema).path()).is_ok());
    assert_has(
        &with(json!({"read_as": "draft-04"}), &schema).errors(),
        &["at /$schema: registry.json reads this document as draft-04 (`read_as`), which is not later than the draft-04"],
    );
    let without = json!({"type": "object"});
    assert_has(&with(json!({"read_as": "draft-07"}), &without).errors(), &["it has no `$schema` to read past: declare its dialect with `dialect` instead"]);
    assert_has(&with(json!({"read_as": "draft-07", "dialect": "draft-06"}), &without).errors(), &["at /schemas/0/read_as: an entry has `dialect`"]);
    assert_has(&with(json!({"read_as": "draft-05"}), &schema).errors(), &["at /schemas/0/read_as: `read_as` \"draft-05\" is not a dialect concord reads"]);
    // A draft-04 `id` is ignored, as the later dialect ignores it, only where no `$ref` leaves the document.
    let id = json!({"$schema": DRAFT4, "id": "https://x.example/a.json", "type": "object", "properties": {"v": {"$ref": "other.json"}}});
    assert_has(&with(json!({"read_as": "draft-06"}), &id).errors(), &["at /id: `id` is refused in draft-06"]);
}

/// An entry's `annotations` reads keys no dialect has (a published
/// schema's misspelling, another tool's keyword) and draft-04's `id` in a
/// later dialect as their validators read them, checking nothing; the
/// refusal names the choice; a keyword concord reads cannot be declared.
#[test]
fn annotations_read_a_documents_unknown_keys_as_its_validators_do() {
    const DRAFT7: &str = "http://json-schema.org/draft-07/schema#";
    let schema = json!({"$schema": DRAFT7, "id": "https://x.example/a.json", "type": "object", "properties": {"v": {"type": "string", "maxLenth": 3}}});
    let plain = Registry::new(&[("Root", schema.clone())]);
    let errors = plain.errors();
    assert_has(
        &errors,
        &[
            "at /properties/v/maxLenth: `maxLenth` is refused in draft-07: it looks like a misspelt keyword, which would leave a rule unchecked: did you mean `maxLength`?; \
             or, for a document that is not yours to change, read it as its validators do, checking nothing: `\"annotations\": [\"maxLenth\"]` in its registry.json entry",
            "at /id: `id` is refused in draft-07: draft-04's `$id`",
            "`\"annotations\": [\"id\"]`",
        ],
    );
    let with = |annotations: Value| {
        let registry = Registry::new(&[("Root", schema.clone())]);
        let mut index: Value = serde_json::from_slice(&std::fs::read(registry.file("registry.json")).unwrap()).unwrap();
        index["schemas"][0]["annotations"] = annotations;
        registry.write_index(index);
        registry
    };
    assert!(concord_codegen::load(with(json!(["maxLenth", "id"])).path()).is_ok());
    assert_has(&with(json!(["maxLenth"])).errors(), &["at /id: `id` is refused in draft-07"]);
    assert_has(
        &with(json!(["maxLenth", "required"])).errors(),
        &["at /schemas/0/annotations/1: \"required\" is a keyword concord reads, and the assertion engine would still apply it"],
    );
    assert_has(&with(json!(["id", "id"])).errors(), &["at /schemas/0/annotations/1: \"id\" is listed twice"]);
    assert_has(&with(json!("maxLenth")).errors(), &["at /schemas/0/annotations: `annotations` must be a list"]);
    assert_has(&with(json!([])).errors(), &["at /schemas/0/annotations: `annotations` must be a list"]);
}

/// A misspelt keyword names the keyword meant, an unknown type the type
/// meant, and each diagnostic shows its line of the schema, with line and
/// column and a caret under the key, as rustc shows a span.
#[test]
fn diagnostics_suggest_what_was_meant_and_show_the_line() {
    let registry =
        Registry::new(&[("Root", object(json!({"a": {"type": "string", "minLenght": 3}, "b": {"type": "integr"}, "c": {"type": "array", "maxItem": 3}})))]);
    let errors = registry.errors();
    assert_has(
        &errors,
        &[
            "at /properties/a/minLenght: `minLenght` is refused in 2020-12: it looks like a misspelt keyword, which would leave a rule unchecked: did you mean `minLength`?",
            "at /properties/b/type: unknown type \"integr\": did you mean \"integer\"?",
            "did you mean `maxItems`?",
        ],
    );
    // `to_vec_pretty` puts "minLenght" on line 7, indented by 6 spaces; the
    // gutter widens for line 10.
    let file = registry.file("root.schema.json");
    assert_has(&errors, &[&format!(" --> {}:7:7\n  |\n7 |       \"minLenght\": 3\n  |       ^^^^^^^^^^^\n", file.display())]);
    assert_has(&errors, &[&format!("  --> {}:10:7\n   |\n10 |       \"type\": \"integr\"\n   |       ^^^^^^\n", file.display())]);
}

/// Two versions of one schema under one `$id` (SchemaStore keeps
/// `rancher-fleet-0.5` and `-0.8` so) each resolve their own `$ref`s in one
/// registry; a third document's `$ref` to that `$id` cannot say which it
/// means, and is refused naming both files.
#[test]
fn two_documents_claiming_one_uri_each_resolve_within_themselves() {
    const DRAFT7: &str = "http://json-schema.org/draft-07/schema#";
    let id = "https://json.example/fleet.json";
    let old = json!({"$schema": DRAFT7, "$id": id, "type": "object", "properties": {"c": {"$ref": "#/definitions/cond"}}, "definitions": {"cond": {"type": "string"}}});
    let new = json!({"$schema": DRAFT7, "$id": id, "type": "object", "properties": {"t": {"$ref": "#/definitions/target"}}, "definitions": {"target": {"type": "integer"}}});
    let both = Registry::new(&[("FleetA", old.clone()), ("FleetB", new.clone())]);
    let model = concord_codegen::load(both.path()).unwrap();
    assert_eq!(model.modules.iter().map(|module| module.refers_to.len()).collect::<Vec<_>>(), [0, 0], "each reads only itself");
    let referrer = json!({"$schema": DRAFT7, "type": "object", "properties": {"f": {"$ref": id}}});
    let three = Registry::new(&[("FleetA", old.clone()), ("FleetB", new), ("Uses", referrer)]);
    assert_has(
        &three.errors(),
        &[&format!("a `$ref` names {id}, which two entries claim (fleeta.schema.json and fleetb.schema.json: two versions of one schema?)")],
    );
    // Two copies of one document (each schema of a set bundling a shared file) are that document.
    let referrer = json!({"$schema": DRAFT7, "type": "object", "properties": {"f": {"$ref": id}}});
    let copies = Registry::new(&[("FleetA", old.clone()), ("FleetCopy", old), ("Uses", referrer)]);
    assert!(concord_codegen::load(copies.path()).is_ok(), "{}", copies.errors());
}

/// A `$ref` of a fragment alone, in a draft-04 embedded resource (`"id":
/// "nullable-path"`, as SchemaStore's base-04 has), names a place of that
/// resource: where it has none, the reader refuses it, saying so, rather
/// than leaving the engine to fail on it.
#[test]
fn a_fragment_in_an_embedded_resource_names_a_place_of_that_resource() {
    const DRAFT4: &str = "http://json-schema.org/draft-04/schema#";
    let schema = json!({
        "$schema": DRAFT4, "id": "https://json.example/base-04.json", "type": "object",
        "properties": {"p": {"$ref": "path"}, "q": {"$ref": "#/definitions/nullable-path"}},
        "definitions": {
            "path": {"id": "path", "type": "string", "minLength": 1},
            "nullable-path": {"id": "nullable-path", "oneOf": [{"$ref": "#/definitions/path"}, {"type": "null"}]},
            "ok": {"id": "ok", "definitions": {"inner": {"type": "string"}}, "not": {"$ref": "#/definitions/inner"}}
        }
    });
    let errors = Registry::new(&[("Base", schema)]).errors();
    assert_has(
        &errors,
        &["at /definitions/nullable-path/oneOf/0/$ref: `$ref` \"#/definitions/path\" stands in the embedded resource at /definitions/nullable-path (its `id` makes it a document of its own), so it names that resource's /definitions/path, which does not exist"],
    );
    assert!(errors.ends_with("1 error"), "the resource's own place resolves: {errors}");
}

/// The version-less `$schema` (`http://json-schema.org/schema#`, as
/// Angular's and MISP's schemas declare) names no draft: refused, naming
/// `read_as`, by which the entry says which draft the document is.
#[test]
fn a_versionless_schema_is_read_as_the_dialect_its_entry_names() {
    let schema = json!({"$schema": "http://json-schema.org/schema#", "type": "object", "properties": {"a": {"type": "string"}}});
    let registry = Registry::new(&[("Root", schema)]);
    assert_has(
        &registry.errors(),
        &["at /$schema: \"http://json-schema.org/schema#\" names no draft in particular", "`\"read_as\"` in its registry.json entry"],
    );
    let mut index: Value = serde_json::from_slice(&std::fs::read(registry.file("registry.json")).unwrap()).unwrap();
    index["schemas"][0]["read_as"] = json!("draft-07");
    registry.write_index(index);
    assert!(concord_codegen::load(registry.path()).is_ok());
}

/// The object of an inline `"type": ["object", "null"]` is a type of its
/// own, but not the location's schema (which admits null too): it carries no
/// pinned schema, so its records cannot disagree with a validator that
/// accepts the `null` the struct refuses (ansible-rulebook's `print_event`,
/// found by `concord fuzz` over the second corpus).
#[test]
fn the_object_half_of_an_inline_nullable_object_is_not_pinned() {
    let schema = json!({"$schema": DRAFT, "type": "object", "properties": {"print_event": {
        "type": ["object", "null"], "properties": {"pretty": {"type": "boolean"}}, "additionalProperties": false
    }}});
    let registry = Registry::new(&[("Action", schema)]);
    let model = concord_codegen::load(registry.path()).unwrap();
    let inner = model.types.iter().find(|def| def.origin.pointer == "/properties/print_event").expect("the object's type");
    assert!(!inner.pinned(), "{inner:?}");
    assert!(model.types.iter().find(|def| def.is_root).unwrap().pinned());
}
