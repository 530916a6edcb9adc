//! The Python package's shape at scale: every type defined after the types
//! it names, deep chains that import, and names pydantic treats specially.

use concord_codegen::model::{Field, Model, Module, Origin, Pinning, Presence, Shape, Struct, TypeDef, TypeId, TypeKind, UnknownKeys};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::*;

/// Runs `code` with the generated package of `out` and the runtime on the path;
/// any warning is an error.
fn run_python(out: &Path, code: &str) -> Output {
    let path = std::env::join_paths([out.join("python"), workspace().join("runtime/python")]).unwrap();
    Command::new(python()).args(["-W", "error", "-c", code]).env("PYTHONPATH", path).output().unwrap()
}

/// Writes a one-schema registry pinned to its bytes, generates both
/// languages, and returns the output folder.
fn generate(scratch: &Path, schema: &Value) -> PathBuf {
    let registry = scratch.join("registry");
    std::fs::create_dir_all(&registry).unwrap();
    let bytes = serde_json::to_vec_pretty(schema).unwrap();
    std::fs::write(registry.join("root.schema.json"), &bytes).unwrap();
    let digest = concord_codegen::registry::digest(&bytes);
    let index = json!({"format": 1, "schemas": [{"name": "Root", "path": "root.schema.json", "digest": digest}]});
    std::fs::write(registry.join("registry.json"), serde_json::to_vec(&index).unwrap()).unwrap();
    let out = scratch.join("generated");
    let generate = concord(&["generate", "--registry", registry.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(generate.status.success(), "{}", text(&generate));
    out
}

/// `D0.next -> D1 -> ... -> D999`: each class was defined before the classes
/// it names, and rebuilding D0 walked the whole chain (`RecursionError` from
/// 57 types on); with a model validator on every class, pydantic-core could
/// not reuse a nested model's validator and crashed from about 700 on.
#[test]
fn a_chain_of_a_thousand_nested_types_imports_and_reads() {
    const DEPTH: usize = 1_000;
    let mut defs = serde_json::Map::new();
    for link in 0..DEPTH {
        let mut properties = json!({"value": {"type": "integer"}});
        if link + 1 < DEPTH {
            properties["next"] = json!({"$ref": format!("#/$defs/D{}", link + 1)});
        }
        defs.insert(format!("D{link}"), json!({"type": "object", "properties": properties}));
    }
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {"start": {"$ref": "#/$defs/D0"}},
        "$defs": defs,
    });
    let scratch = tempfile::tempdir().unwrap();
    let out = generate(scratch.path(), &schema);

    let module = std::fs::read_to_string(out.join("python/concord_registry/root.py")).unwrap();
    assert!(!module.contains("model_rebuild"), "no cycle, so nothing to rebuild");
    let position = |class: &str| module.find(&format!("\nclass {class}(")).unwrap_or_else(|| panic!("no class {class}"));
    assert!(position("D999") < position("D998") && position("D1") < position("D0") && position("D0") < position("Root"));

    let read = run_python(
        &out,
        "import concord_registry as m\n\
         data = b'{\"start\":{\"next\":{\"next\":{\"value\":3},\"value\":2},\"value\":1}}'\n\
         record = m.Root.from_json(data)\n\
         assert record.start.next.next.value == 3\n\
         assert record.to_json() == b'{\"start\":{\"value\":1,\"next\":{\"value\":2,\"next\":{\"value\":3}}}}', record.to_json()\n",
    );
    assert!(read.status.success(), "{}", text(&read));
}

/// `fixtures/quirks`: a `$defs` alias of null (its Python type is `None`, and
/// `Nothing | None` would be `None | None`), names pydantic warns about, and
/// recursion through an alias, run through both languages.
#[test]
fn quirks_round_trip_in_both_languages_and_import_without_warnings() {
    let passed = roundtrip_passes("fixtures/quirks/registry", "fixtures/quirks/roundtrip");
    assert!(passed >= 10, "{passed} passed");

    let scratch = tempfile::tempdir().unwrap();
    let out = scratch.path().join("generated");
    let generate = concord(&["generate", "--registry", "fixtures/quirks/registry", "--out", out.to_str().unwrap()]);
    assert!(generate.status.success(), "{}", text(&generate));
    let import = run_python(&out, "import concord_registry as m\nassert m.Quirks.model_fields['mro_'].alias == 'mro'\n");
    assert!(import.status.success(), "{}", text(&import));
}

fn alias(name: &str, shape: Shape) -> TypeDef {
    TypeDef {
        name: name.to_owned(),
        origin: Origin { file: "chain.schema.json".into(), pointer: format!("/$defs/{name}") },
        doc: None,
        schema_digest: "sha256:0".to_owned(),
        is_root: false,
        wrapped: false,
        module: 0,
        pinning: Pinning::None,
        kind: TypeKind::Alias(shape),
    }
}

/// A chain of 100,000 `$ref` aliases is checked and written in one pass:
/// a walk along the chain per alias was cubic (10,000 took minutes) and
/// recursion along it overflowed the stack.
#[test]
fn a_long_alias_chain_is_checked_and_ordered_without_recursion() {
    const LENGTH: usize = 100_000;
    let mut model = Model::default();
    model.modules.push(Module {
        name: "Chain".to_owned(),
        entry: "Chain".to_owned(),
        version: None,
        word: "chain".to_owned(),
        file: "chain.schema.json".into(),
        root: None,
        text: String::new(),
        digest: String::new(),
        base: String::new(),
        declared_dialect: None,
        refers_to: Vec::new(),
        asserted_by: None,
    });
    let field = Field {
        json_name: "start".to_owned(),
        word: "start".to_owned(),
        doc: None,
        shape: Shape::Nullable(Box::new(Shape::Named(TypeId(1)))),
        presence: Presence::OptionalNullable,
        pointer: "/properties/start".to_owned(),
    };
    let mut root = alias("Root", Shape::Any);
    root.kind = TypeKind::Struct(Struct { fields: vec![field], unknown_keys: UnknownKeys::Drop, property_count: None, version: None });
    model.types.push(root);
    for link in 0..LENGTH {
        let next = if link + 1 < LENGTH { Shape::Named(TypeId(link + 2)) } else { Shape::String };
        model.types.push(alias(&format!("T{link}"), next));
    }
    concord_codegen::check::check(&model).unwrap();
    assert!(!Shape::Named(TypeId(1)).admits_null(&model));

    let (_, module) = concord_codegen::emit::python::package(&model).remove(1);
    let line = |link: usize| {
        let next = if link + 1 < LENGTH { format!("T{}", link + 1) } else { "str".to_owned() };
        module.find(&format!("\nT{link}: typing.TypeAlias = {next}\n")).unwrap_or_else(|| panic!("no alias T{link}"))
    };
    for link in (1..LENGTH).step_by(997) {
        assert!(line(link) < line(link - 1), "T{link} must come before T{}", link - 1);
    }
    assert!(line(0) < module.find("\nclass Root(").unwrap());

    // A loop of aliases with nothing between is still found, once per alias on it.
    model.types[LENGTH].kind = TypeKind::Alias(Shape::Nullable(Box::new(Shape::Named(TypeId(1)))));
    let errors = concord_codegen::check::check(&model).unwrap_err().to_string();
    assert_eq!(errors.matches("contains itself with no array, map or object in between").count(), LENGTH, "{}", &errors[..200]);
}

/// A registry whose every line is long: long type, property and enum names,
/// nested arrays of constrained strings, every numeric bound, constraints
/// on a recursive type (forward references), quotes in names and docs.
fn long_registry(scratch: &Path) -> PathBuf {
    let long = "an_exceedingly_long_property_name_that_no_annotation_can_follow_on_the_same_line_of_a_class_body";
    let words = |stem: &str| (0..4).map(|n| format!("{stem}_{n}_and_a_long_tail_that_makes_the_literal_overflow_any_line")).collect::<Vec<_>>();
    let constrained = json!({"type": "string", "minLength": 1, "maxLength": 64, "pattern": "^[a-z][a-z0-9_-]*[a-z0-9]$"});
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "description": "A record whose \"description\" runs on and on, with quotes ' and \" and a backslash \\ in it, well past the width of any line that ruff would accept in a docstring. See https://example.invalid/a/long/address/that/runs/on/and/on/past/the/end/of/any/line/of/source/code/even/a/wide/one.html for more.",
        "type": "object",
        "minProperties": 1,
        "maxProperties": 9_007_199_254_740_991u64,
        "properties": {
            long: {"type": "array", "items": {"type": "array", "items": constrained, "minItems": 1, "maxItems": 99, "uniqueItems": true}, "maxItems": 12, "uniqueItems": true},
            "grid_of_bounded_numbers_with_a_name_long_enough": {"type": "array", "items": {"type": "array", "items": {"type": "number", "exclusiveMinimum": -1.5e300, "exclusiveMaximum": 1.5e300, "multipleOf": 0.0001}}},
            "bounded_integer": {"type": "integer", "minimum": -9_007_199_254_740_991i64, "maximum": 9_007_199_254_740_991u64, "multipleOf": 7},
            "bounded_number": {"type": ["number", "null"], "minimum": -123_456_789.125, "maximum": 987_654_321.5, "multipleOf": 0.125},
            "choice_of_long_words": {"enum": words("choice")},
            "say \"hi\"": {"type": "string", "maxLength": 3, "description": "A name with quotes: its alias is a string with quotes."},
            "quoted_enum": {"enum": ["it's", "\"quoted\"", "plain"]},
            "map_of_constrained_lists": {"type": "object", "additionalProperties": {"type": "array", "items": constrained, "minItems": 2}, "maxProperties": 4},
            "tree": {"$ref": "#/$defs/TreeNodeWithAnUnusuallyLongNameForARecursiveTypeSoThatItsClassHeadDoesNotFitOnOneLineOfCode"},
            // Strings no line holds: an alias, a pattern, a tag.
            "a-json-name-that-is-no-identifier-so-that-its-alias-string-alone-overflows-the-line-it-is-written-on": {"type": "string", "pattern": "^(?:[a-z][a-z0-9_-]*[a-z0-9]|[A-Z][A-Z0-9_-]*[A-Z0-9]|[0-9]+(?:\\.[0-9]+)*|x{1,3}y{2,4}z{3,5}w{4,6}v{5,7}u{6,8})$"},
            "tagged": {"oneOf": [{"$ref": "#/$defs/FirstBranch"}, {"$ref": "#/$defs/SecondBranch"}]},
            "envelope": {"$ref": "#/$defs/VersionedEnvelopeWithANameLongEnoughThatItsConstantsOverflowTheirLines"},
        },
        "additionalProperties": {"type": "array", "items": constrained, "maxItems": 3, "uniqueItems": true},
        "required": [long],
        "$defs": {
            "TreeNodeWithAnUnusuallyLongNameForARecursiveTypeSoThatItsClassHeadDoesNotFitOnOneLineOfCode": {
                "type": "object",
                "properties": {
                    "children_of_this_node_kept_unique": {"type": "array", "items": {"$ref": "#/$defs/TreeNodeWithAnUnusuallyLongNameForARecursiveTypeSoThatItsClassHeadDoesNotFitOnOneLineOfCode"}, "minItems": 1, "maxItems": 1000, "uniqueItems": true},
                    "parent_of_this_node_if_it_has_one": {"$ref": "#/$defs/TreeNodeWithAnUnusuallyLongNameForARecursiveTypeSoThatItsClassHeadDoesNotFitOnOneLineOfCode"},
                    "labels_by_name": {"type": "object", "additionalProperties": {"$ref": "#/$defs/TreeNodeWithAnUnusuallyLongNameForARecursiveTypeSoThatItsClassHeadDoesNotFitOnOneLineOfCode"}, "minProperties": 1},
                },
                "additionalProperties": false,
            },
            "LongWordsOfAnEnumerationWhoseNameAloneTakesMostOfTheLine": {"enum": words("word")},
            "FirstBranch": {"type": "object", "properties": {"kind": {"const": "a_tag_whose_value_is_long_enough_that_neither_its_tag_nor_its_literal_fits_on_one_line_of_code"}}, "required": ["kind"]},
            "SecondBranch": {"type": "object", "properties": {"kind": {"const": "second"}}, "required": ["kind"]},
            "VersionedEnvelopeWithANameLongEnoughThatItsConstantsOverflowTheirLines": {
                "type": "object",
                "x-version-field": "version_of_the_envelope_under_a_long_name",
                "properties": {"version_of_the_envelope_under_a_long_name": {"type": "integer", "enum": (1..=40).collect::<Vec<_>>()}},
                "required": ["version_of_the_envelope_under_a_long_name"],
            },
        },
    });
    let registry = scratch.join("long-registry");
    std::fs::create_dir_all(&registry).unwrap();
    let bytes = serde_json::to_vec_pretty(&schema).unwrap();
    std::fs::write(registry.join("root.schema.json"), &bytes).unwrap();
    let digest = concord_codegen::registry::digest(&bytes);
    let name = "ARootRecordWithALongNameThatPushesEveryImportAndConstantPastTheLimit";
    let index = json!({"format": 1, "schemas": [{"name": name, "path": "root.schema.json", "digest": digest}]});
    std::fs::write(registry.join("registry.json"), serde_json::to_vec(&index).unwrap()).unwrap();
    registry
}

/// The generated package is what `ruff format` writes, and clean under
/// `ruff check` and `mypy --strict` (the repository's settings) for every
/// registry, not only the shipped one: the test registries, and one whose
/// names and constraints overflow every line. One ruff and one mypy run
/// over all the packages, each renamed after its registry (imports inside
/// a package are relative).
#[test]
fn generated_python_is_ruff_formatted_and_clean_under_ruff_and_mypy() {
    let scratch = tempfile::tempdir().unwrap();
    let packages = scratch.path().join("packages");
    std::fs::create_dir_all(&packages).unwrap();
    let long = long_registry(scratch.path());
    let registries =
        [("constructs", workspace().join("fixtures/constructs/registry")), ("quirks", workspace().join("fixtures/quirks/registry")), ("long", long)];
    for (name, registry) in &registries {
        let out = scratch.path().join(name);
        let generate = concord(&["generate", "--registry", registry.to_str().unwrap(), "--out", out.to_str().unwrap()]);
        assert!(generate.status.success(), "{name}: {}", text(&generate));
        std::fs::rename(out.join("python/concord_registry"), packages.join(name)).unwrap();
    }
    let config = workspace().join("pyproject.toml");
    let tool = |args: &[&str]| {
        let output = Command::new(python()).args(args).current_dir(workspace()).output().unwrap();
        (output.status.success(), text(&output))
    };
    let packages = packages.to_str().unwrap();
    let config = config.to_str().unwrap();
    let mut failures = String::new();
    for args in [
        &["-m", "ruff", "check", "--no-cache", "--config", config, packages][..],
        &["-m", "ruff", "format", "--no-cache", "--diff", "--config", config, packages],
        &["-m", "mypy", "--config-file", config, "--no-incremental", "--cache-dir", "/dev/null", packages],
    ] {
        let (passed, output) = tool(args);
        if !passed {
            failures.push_str(&format!("$ {}\n{output}\n", args.join(" ")));
        }
    }
    assert!(failures.is_empty(), "{failures}");
}

/// Every line of every generated Python file fits ruff's limit (`line-length`
/// in `pyproject.toml`), whether or not ruff would excuse it: the pinned texts
/// a line of their file at a time, strings too long for a line in parts, a
/// word too long for a docstring line continued on the next. Only a name
/// leaves a line longer: a field's, with the head of its annotation, which
/// `ruff format` keeps on its line (it takes parentheses put there away).
#[test]
fn every_generated_python_line_fits_the_line_limit() {
    const LIMIT: usize = 120;
    let config = std::fs::read_to_string(workspace().join("pyproject.toml")).unwrap();
    assert!(config.contains(&format!("\nline-length = {LIMIT}\n")), "the limit is pyproject.toml's");
    let scratch = tempfile::tempdir().unwrap();
    let long = long_registry(scratch.path());
    let mut registries: Vec<PathBuf> = ["registry", "fixtures/constructs/registry", "fixtures/quirks/registry", "fixtures/validation/registry"]
        .iter()
        .map(|path| workspace().join(path))
        .collect();
    registries.push(long);
    let mut checked = 0;
    for registry in &registries {
        for file in
            concord_codegen::Config::new().registry(registry).generate().unwrap().iter().filter(|file| file.path.extension().is_some_and(|ext| ext == "py"))
        {
            for (number, line) in file.contents.lines().enumerate() {
                checked += 1;
                if line.chars().count() <= LIMIT {
                    continue;
                }
                let is_name = |text: &str| !text.is_empty() && text.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '.');
                let head = line.strip_suffix("  # noqa: E501").and_then(|code| code.trim_start().split_once(": "));
                let excused = head.is_some_and(|(name, annotation)| is_name(name) && annotation.strip_suffix('[').is_some_and(is_name));
                assert!(excused, "{}:{}: {} columns: {line}", file.path.display(), number + 1, line.chars().count());
            }
        }
    }
    assert!(checked > 3_000, "{checked} lines");
}

/// The parts of a pinned text, and of every string split over lines, are the
/// text exactly (each file is still verified against its digest on import).
#[test]
fn split_strings_and_continued_docstrings_read_back_exactly() {
    let scratch = tempfile::tempdir().unwrap();
    let registry = long_registry(scratch.path());
    let out = scratch.path().join("generated");
    let generate = concord(&["generate", "--registry", registry.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(generate.status.success(), "{}", text(&generate));
    let code = format!(
        "import json, pathlib, concord_registry as c\n\
         root = c.ARootRecordWithALongNameThatPushesEveryImportAndConstantPastTheLimit\n\
         assert root.SCHEMA.document.text == pathlib.Path({schema:?}).read_bytes().decode()\n\
         assert 'See https://example.invalid/a/long/address/that/runs/on/and/on/past/the/end/of/any/line/of/source/code/even/a/wide/one.html for' in ' '.join(root.__doc__.split())\n\
         field = root.model_fields['a_json_name_that_is_no_identifier_so_that_its_alias_string_alone_overflows_the_line_it_is_written_on']\n\
         assert field.alias == 'a-json-name-that-is-no-identifier-so-that-its-alias-string-alone-overflows-the-line-it-is-written-on'\n\
         record = root.from_json(json.dumps({{'{long}': [], 'tagged': {{'kind': 'a_tag_whose_value_is_long_enough_that_neither_its_tag_nor_its_literal_fits_on_one_line_of_code'}}}}))\n\
         assert record.tagged.kind.startswith('a_tag_whose'), record\n",
        schema = registry.join("root.schema.json").to_str().unwrap(),
        long = "an_exceedingly_long_property_name_that_no_annotation_can_follow_on_the_same_line_of_a_class_body",
    );
    let output = run_python(&out, &code);
    assert!(output.status.success(), "{}", text(&output));
}

/// A versioned envelope's constants stand before the class that reads them,
/// and the module exports them; a union's tags are its branch keys as the
/// schema writes them (the runtime tells a tag from a key by the schema).
#[test]
fn version_constants_come_first_and_union_tags_read_as_written() {
    let files = concord_codegen::Config::new().registry(workspace().join("fixtures/constructs/registry")).generate().unwrap();
    let python = |name: &str| &files.iter().find(|file| file.path.ends_with(name)).unwrap().contents;
    let envelope = python("envelope.py");
    let at = |text: &str| envelope.find(text).unwrap_or_else(|| panic!("{text}: {envelope}"));
    assert!(at("SUPPORTED_EXTENSION_VERSIONS: tuple[int, ...] = (1, 2)") < at("EXTENSION_VERSION: int = 2"));
    assert!(at("EXTENSION_VERSION: int = 2") < at("class Extension(concord_runtime.Model):"));
    assert!(envelope.contains(r#"__all__ = ["EXTENSION_VERSION", "SUPPORTED_EXTENSION_VERSIONS", "Envelope", "Extension"]"#), "{envelope}");
    let unions = python("unions.py");
    assert!(unions.contains(r#"typing.Annotated[Started, pydantic.Tag("started")] | typing.Annotated[Stopped, pydantic.Tag("stopped")]"#), "{unions}");
    assert!(unions.contains(r#"typing.Annotated[None, pydantic.Tag("null")]"#), "{unions}");
    assert!(files.iter().all(|file| !file.contents.contains(r"\x01branch")));
}
