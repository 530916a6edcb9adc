//! `fixtures/constructs`: the constructs concord binds beyond plain objects
//! (assertions on strings, numbers, arrays and objects; roots that are
//! arrays, enums or a `$ref`; `$defs`-only documents; `definitions` and
//! `$anchor` targets; unions; object schemas without `type`; `allOf`; the
//! assertion engine's keywords;
//! `x-open-enum` and `x-typed-id`; references between entries and to an
//! older-dialect entry; types that contain themselves through arrays and
//! maps, and types that reach themselves through every container the plan
//! holds, alone and nested (`Recursion`, and `Node`: a map of nullable
//! values of itself, which once overflowed the TypeScript reader's stack
//! while it compiled); rules that see only their own schema object), each
//! with inputs every language must read alike and inputs every language must
//! refuse at the same pointer.

mod common;
use common::*;

#[test]
fn constructs_round_trip_in_both_languages() {
    let passed = roundtrip_passes("fixtures/constructs/registry", "fixtures/constructs/roundtrip");
    assert!(passed >= 267, "{passed} passed");
}

/// An object schema without `type` (CloudFormation's resource schemas,
/// many configuration schemas) admits every other JSON value too: it is a
/// union by JSON type whose `object` branch is the struct users expect,
/// with its unknown-key policy, and whose other branches hold each other
/// value as what it is (an integer apart from a fraction, so each is written
/// back as read). A root `type` list is a union the same way. The round-trip
/// fixtures `Untyped/` and `SchemaOrBoolean/` hold both languages and the
/// validator to it.
#[test]
fn an_object_schema_without_type_is_its_struct_or_any_other_value() {
    let files = concord_codegen::Config::new().registry(workspace().join("fixtures/constructs/registry")).generate().unwrap();
    let rust: String = files[0].contents.split_whitespace().collect::<Vec<_>>().join(" ");
    for declaration in [
        "pub enum Untyped { /// When a JSON object. Object(UntypedObject), /// When a JSON array. Array(Vec<::concord_runtime::Value>), /// When a JSON string. String_(String), /// When a JSON integer. Integer(i64), /// When a JSON number. Number(f64), /// When a JSON boolean. Boolean(bool), /// When a JSON null. Null(()), }",
        "pub struct UntypedObject { pub name: String,",
        "pub tags: Option<UntypedObjectTags>,",
        "pub enum SchemaOrBoolean { /// When a JSON object. Object(Box<SchemaOrBooleanObject>), /// When a JSON boolean. Boolean(bool), }",
    ] {
        assert!(rust.contains(declaration), "{declaration}");
    }
    let python = &files.iter().find(|f| f.path.ends_with("untyped.py")).unwrap().contents;
    assert!(python.contains("class UntypedObject(concord_runtime.Model):\n    model_config = pydantic.ConfigDict(extra=\"forbid\")"), "{python}");
    assert!(
        python.contains("concord_runtime.unions.json_type((\"object\", \"array\", \"string\", \"integer\", \"number\", \"boolean\", \"null\"))"),
        "{python}"
    );
}

/// A `$ref` into another entry's root or definition is that entry's type,
/// named by its module's path in both languages; one to any other place of
/// it is any JSON value the engine checks.
#[test]
fn a_reference_into_another_entry_is_its_type() {
    use concord_codegen::model::{Shape, TypeKind};
    let model = concord_cli::load(&workspace().join("fixtures/constructs/registry")).unwrap();
    let crossref = model.types.iter().find(|t| t.name == "Crossref").unwrap();
    let TypeKind::Struct(body) = &crossref.kind else { panic!("{crossref:?}") };
    let level = &body.fields[0];
    let Shape::Named(id) = level.shape else { panic!("{:?}", level.shape) };
    assert_eq!((model.get(id).name.as_str(), model.modules[model.get(id).module].name.as_str()), ("Level", "Level"));
    assert_eq!(body.fields[1].shape, Shape::Any, "a place with no type of its own");

    let files = concord_codegen::Config::new().registry(workspace().join("fixtures/constructs/registry")).generate().unwrap();
    let rust = &files[0].contents;
    assert!(rust.contains("pub level: Option<super::level::Level>,"), "the Rust path to the other module");
    let python = files.iter().find(|f| f.path.ends_with("crossref.py")).unwrap();
    assert!(python.contents.contains("from . import level as _level\n") && python.contents.contains("_level.Level"), "{}", python.contents);
}

/// A versioned envelope (`x-version-field`) has its versions as constants in
/// both languages (`SUPPORTED_..._VERSIONS`, docs/decisions/versioned-envelopes.md), and its version is
/// read first (the round-trip fixtures `Envelope/` hold both languages to it).
#[test]
fn a_versioned_envelope_has_its_versions_as_constants() {
    let files = concord_codegen::Config::new().registry(workspace().join("fixtures/constructs/registry")).generate().unwrap();
    let rust = &files[0].contents;
    assert!(rust.contains("pub const SUPPORTED_EXTENSION_VERSIONS: &[i64] = &[1, 2];"), "Rust constants");
    assert!(rust.contains("pub const EXTENSION_VERSION: i64 = 2;"));
    let read: String = rust.split_whitespace().collect();
    assert!(read.contains("version\"schema_version\"inSUPPORTED_EXTENSION_VERSIONS,holderschema_version;"), "the version is read first");
    let python = &files.iter().find(|f| f.path.ends_with("envelope.py")).unwrap().contents;
    assert!(python.contains("SUPPORTED_EXTENSION_VERSIONS: tuple[int, ...] = (1, 2)"), "Python constants");
    assert!(python.contains("EXTENSION_VERSION: int = 2"));
    let python: String = python.split_whitespace().collect();
    assert!(python.contains("_check_version=concord_runtime.checks.version_check(\"schema_version\",SUPPORTED_EXTENSION_VERSIONS,\"Extension\")"));
}

/// Every dialect is read into types, each keyword with its own dialect's
/// meaning, one entry per difference (`fixtures/dialects`): draft-04's
/// boolean `exclusiveMaximum`/`exclusiveMinimum` and its `id` (a base URI,
/// and as `#name` a place); draft-06's `const`, `$id: "#name"`, `contains`,
/// `propertyNames` and boolean schemas; draft-07's ignored `$ref` siblings,
/// `dependencies` in both forms, `if`, and `contentEncoding` and
/// `contentMediaType` as annotations (as every dialect reads them); an array of `items` with `additionalItems` as a tuple
/// (draft-07 and 2019-09); 2019-09's applied `$ref` siblings,
/// `$recursiveRef`, `dependentRequired` and `unevaluatedProperties`; a
/// document without `$schema` read in the dialect registry.json declares;
/// and containers read as each dialect reads them: draft-07's `$defs` (no
/// keyword there) holding data beside schemas, draft-04 definitions under a
/// key no dialect names (vega's `defs`) that `$ref`s reach; and keys a
/// registry entry declares annotations (`annotations`: a misspelling in a
/// published schema, draft-04's `id` under draft-07), checking nothing.
/// Both languages give every fixture's verdict, bytes and digest, and so
/// does the pinned validator, in the document's dialect.
#[test]
fn each_dialect_is_read_into_types_with_its_own_meanings_in_both_languages() {
    let files = concord_codegen::Config::new().registry(workspace().join("fixtures/dialects/registry")).generate().unwrap();
    let rust = &files[0].contents;
    for declaration in [
        "pub struct Draft04 {",
        "pub struct Draft04Ids {",
        "pub struct Point {",
        "pub struct Draft06 {",
        "pub enum Draft06Kind {",
        "pub type Center = (f64, f64);",
        "pub struct Draft07 {",
        "pub pair: Option<(String, i64)>,",
        "pub struct Draft201909Tuples {",
        "pub pair: Option<(bool, String)>,",
        "pub struct Declared {",
        "dialect: Some(\"http://json-schema.org/draft-07/schema#\"),",
        "pub struct Draft07Containers {",
        "pub archs: Option<Vec<Arch>>,",
        "pub struct Draft04Containers {",
        "pub marks: Vec<Mark>,",
        "pub struct Draft04ReadAs {",
        "pub version: Draft04ReadAsVersion,",
        "pub struct Draft07Annotations {",
        "pub authors: Option<Vec<::concord_runtime::Value>>,",
    ] {
        assert!(rust.contains(declaration), "{declaration}");
    }
    let python: String = files.iter().filter(|f| f.path.parent().is_some_and(|folder| folder.ends_with("_pinned"))).map(|f| f.contents.as_str()).collect();
    assert!(python.contains("dialect=\"http://json-schema.org/draft-07/schema#\""), "{python}");
    assert_eq!(roundtrip_passes("fixtures/dialects/registry", "fixtures/dialects/roundtrip"), 63);
}
