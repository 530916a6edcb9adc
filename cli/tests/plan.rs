//! The plan's one definition (concord-plan) published: its JSON Schema is
//! checked in (`plan/plan.schema.json`), every golden plan is valid under
//! it, and the TypeScript runtime's declarations of the plan
//! (`runtime/typescript/src/record/plan.types.ts`) are made from it. After a
//! change to the definition: `CONCORD_BLESS=1 cargo nextest run -p concord-cli --test plan`.

mod common;
use common::*;

fn bless() -> bool {
    std::env::var_os("CONCORD_BLESS").is_some()
}

fn checked_in(path: &std::path::Path, made: &str) {
    if bless() {
        std::fs::write(path, made).unwrap();
    }
    let found = std::fs::read_to_string(path).unwrap_or_default();
    assert!(found == made, "{} is not what the plan's definition makes: run with CONCORD_BLESS=1 and review the diff", path.display());
}

#[test]
fn the_plan_schema_is_checked_in_and_every_golden_plan_is_valid_under_it() {
    let schema = plan_schema();
    let text = serde_json::to_string_pretty(&schema).unwrap() + "\n";
    checked_in(&workspace().join("plan/plan.schema.json"), &text);

    let source = [concord_runtime::document::Source::new("urn:concord:plan", &text)];
    let checker = concord_runtime::pinned::Checker::build(&source, "").unwrap();
    let golden: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(workspace().join("fixtures/constructs/expected/plan.json")).unwrap()).unwrap();
    for (module, plan) in golden.as_object().unwrap() {
        assert!(checker.validate(plan).is_ok(), "{module}: {:?}", checker.notes(plan, 3));
    }
    // What the definition refuses, the schema refuses too.
    let mut two_kinds = golden["bounds"].clone();
    two_kinds["types"]["Bounds"]["enum"] = serde_json::json!(["a"]);
    let mut unknown = golden["bounds"].clone();
    unknown["types"]["Bounds"]["object"]["closed"] = serde_json::json!(true);
    let mut format = golden["bounds"].clone();
    format["plan"] = serde_json::json!(2);
    for refused in [two_kinds, unknown, format] {
        assert!(!checker.is_valid(&refused) && concord_plan::Module::from_value(refused).is_err());
    }
}

#[test]
fn the_typescript_runtime_declares_the_plan_the_schema_defines() {
    let made = typescript_declarations(&plan_schema());
    checked_in(&workspace().join("runtime/typescript/src/record/plan.types.ts"), &made);
}

/// TypeScript declarations of the plan schema's definitions: each `$defs`
/// entry an exported type, named as the schema names it.
fn typescript_declarations(schema: &serde_json::Value) -> String {
    let mut out = String::from(
        "// @generated from plan/plan.schema.json (the plan's one definition, concord-plan) by cli/tests/plan.rs.\n\
         // Do not edit: change the definition, then run `CONCORD_BLESS=1 cargo nextest run -p concord-cli --test plan`.\n\n",
    );
    out.push_str(&declaration("Module", schema));
    for (name, definition) in schema["$defs"].as_object().unwrap() {
        out.push('\n');
        out.push_str(&declaration(name, definition));
    }
    out
}

fn declaration(name: &str, schema: &serde_json::Value) -> String {
    let doc = schema["description"].as_str().map(|text| format!("/** {} */\n", text.replace("*/", "*\\/"))).unwrap_or_default();
    format!("{doc}export type {name} = {};\n", ts(schema, 0))
}

fn ts(schema: &serde_json::Value, depth: usize) -> String {
    let indent = "  ".repeat(depth + 1);
    if let Some(reference) = schema["$ref"].as_str() {
        return reference.rsplit('/').next().unwrap().to_owned();
    }
    if let Some(value) = schema.get("const") {
        return value.to_string();
    }
    if let Some(values) = schema["enum"].as_array() {
        return values.iter().map(|value| value.to_string()).collect::<Vec<_>>().join(" | ");
    }
    for keyword in ["oneOf", "anyOf"] {
        if let Some(branches) = schema[keyword].as_array() {
            // A `oneOf` of `required` lists beside `properties`: exactly one of those keys.
            if schema.get("properties").is_some() {
                let keys: Vec<&str> = branches.iter().filter_map(|branch| branch["required"][0].as_str()).collect();
                let properties = schema["properties"].as_object().unwrap();
                let shared: Vec<String> = properties
                    .iter()
                    .filter(|(key, _)| !keys.contains(&key.as_str()))
                    .map(|(key, value)| format!("{indent}{key}?: {};\n", ts(value, depth + 1)))
                    .collect();
                // One member per kind (that there is exactly one is the reader's to check: `in` narrows these).
                let each: Vec<String> = keys.iter().map(|key| format!("\n{indent}| {{ {key}: {} }}", ts(&properties[*key], depth + 1))).collect();
                return format!("{{\n{}{}}} & ({}\n{})", shared.concat(), "  ".repeat(depth), each.concat(), "  ".repeat(depth));
            }
            let types: Vec<String> = branches.iter().map(|branch| ts(branch, depth)).collect();
            return types.join(" | ");
        }
    }
    let types: Vec<&str> = match &schema["type"] {
        serde_json::Value::String(one) => vec![one.as_str()],
        serde_json::Value::Array(many) => many.iter().filter_map(|t| t.as_str()).collect(),
        _ => vec![],
    };
    let spelled: Vec<String> = types
        .iter()
        .map(|kind| match *kind {
            "string" => "string".to_owned(),
            "integer" | "number" => "number".to_owned(),
            "boolean" => "boolean".to_owned(),
            "null" => "null".to_owned(),
            "array" => format!("{}[]", wrapped(&ts(&schema["items"], depth))),
            "object" => object(schema, depth),
            other => panic!("a plan schema type with no TypeScript spelling: {other}"),
        })
        .collect();
    assert!(!spelled.is_empty(), "a plan schema part with no TypeScript spelling: {schema}");
    spelled.join(" | ")
}

fn wrapped(text: &str) -> String {
    if text.contains(' ') {
        format!("({text})")
    } else {
        text.to_owned()
    }
}

fn object(schema: &serde_json::Value, depth: usize) -> String {
    let indent = "  ".repeat(depth + 1);
    let Some(properties) = schema["properties"].as_object() else {
        return format!("{{ [key: string]: {} }}", ts(&schema["additionalProperties"], depth));
    };
    let required: Vec<&str> = schema["required"].as_array().map(|list| list.iter().filter_map(|key| key.as_str()).collect()).unwrap_or_default();
    let mut out = String::from("{\n");
    for (key, value) in properties {
        let doc = value["description"].as_str().map(|text| format!("{indent}/** {} */\n", text.replace("*/", "*\\/"))).unwrap_or_default();
        let optional = if required.contains(&key.as_str()) { "" } else { "?" };
        out.push_str(&format!("{doc}{indent}{key}{optional}: {};\n", ts(value, depth + 1)));
    }
    out.push_str(&"  ".repeat(depth));
    out.push('}');
    out
}

/// `concord plan` prints every entry's plan, the goldens' `plan.json` for
/// the constructs, and `--schema` the checked-in schema; a registry that does
/// not load is a located error, not a panic.
#[test]
fn concord_plan_prints_every_entrys_plan_and_the_schema() {
    let printed = concord(&["plan", "--registry", "fixtures/constructs/registry"]);
    assert!(printed.status.success(), "{}", text(&printed));
    let golden = std::fs::read_to_string(workspace().join("fixtures/constructs/expected/plan.json")).unwrap();
    assert_eq!(String::from_utf8_lossy(&printed.stdout), golden);
    let schema = concord(&["plan", "--schema"]);
    assert_eq!(String::from_utf8_lossy(&schema.stdout), std::fs::read_to_string(workspace().join("plan/plan.schema.json")).unwrap());
    let missing = concord(&["plan", "--registry", "no/such/registry"]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(text(&missing).contains("no/such/registry/registry.json: cannot read the registry index"), "{}", text(&missing));
}

/// The JSON Schema of the plan format, made from the plan's one definition
/// (concord-plan's `schema` feature, schemars): what `plan/plan.schema.json`
/// must hold.
fn plan_schema() -> serde_json::Value {
    let mut schema = schemars::schema_for!(concord_plan::Module).to_value();
    not_null_where_optional(&mut schema);
    let version = concord_plan::PLAN_VERSION;
    schema["description"] = serde_json::json!(format!(
        "The plan, format {version}: what a runtime needs to read, refuse and write the records of one registry entry's types (docs/plan.md)"
    ));
    schema["properties"]["plan"] = serde_json::json!({ "description": "The plan's format: a runtime refuses any other.", "const": version });
    schema
}

/// An optional key of the plan is absent, never `null` (the writer leaves out
/// what it does not say), where schemars allows `null` for every `Option`.
fn not_null_where_optional(schema: &mut serde_json::Value) {
    match schema {
        serde_json::Value::Object(object) => {
            let required: Vec<String> = object
                .get("required")
                .and_then(|list| list.as_array())
                .map(|list| list.iter().filter_map(|key| key.as_str().map(str::to_owned)).collect())
                .unwrap_or_default();
            if let Some(serde_json::Value::Object(properties)) = object.get_mut("properties") {
                for (_, property) in properties.iter_mut().filter(|(key, _)| !required.contains(key)) {
                    let Some(property) = property.as_object_mut() else { continue };
                    if let Some(serde_json::Value::Array(types)) = property.get_mut("type") {
                        types.retain(|kind| kind != "null");
                        if types.len() == 1 {
                            let only = types.remove(0);
                            property.insert("type".into(), only);
                        }
                    }
                    if let Some(serde_json::Value::Array(branches)) = property.get_mut("anyOf") {
                        branches.retain(|branch| branch.get("type").and_then(|kind| kind.as_str()) != Some("null"));
                        if branches.len() == 1 {
                            let only = branches.remove(0);
                            property.remove("anyOf");
                            if let serde_json::Value::Object(only) = only {
                                property.extend(only);
                            }
                        }
                    }
                }
            }
            object.values_mut().for_each(not_null_where_optional);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(not_null_where_optional),
        _ => {}
    }
}
