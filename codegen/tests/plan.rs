//! Every plan concord-codegen writes reads through the plan's one definition
//! (`concord-plan`), which refuses any key it does not name, and writes back
//! as the same text: the writer (JSON, without serde's derive, which a build
//! script does not compile) and the definition every runtime is held to
//! cannot drift apart. The registries: the shipped one, every construct,
//! dialect, quirk and validation registry, and each `concord diff` pair.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace").to_path_buf()
}

fn registries() -> Vec<PathBuf> {
    let root = root();
    let mut found: Vec<PathBuf> =
        ["registry", "fixtures/constructs/registry", "fixtures/dialects/registry", "fixtures/quirks/registry", "fixtures/validation/registry"]
            .iter()
            .map(|dir| root.join(dir))
            .collect();
    for pair in std::fs::read_dir(root.join("fixtures/diff")).expect("fixtures/diff") {
        let pair = pair.expect("a readable folder").path();
        for side in ["old", "new"] {
            if pair.join(side).join("registry.json").is_file() {
                found.push(pair.join(side));
            }
        }
    }
    found
}

#[test]
fn every_plan_the_generator_writes_reads_through_the_definition_and_writes_back_the_same() {
    let mut modules = 0;
    let mut kinds = std::collections::BTreeSet::new();
    for dir in registries() {
        let model = concord_codegen::load(&dir).unwrap_or_else(|errors| panic!("{}: {errors}", dir.display()));
        let serde_json::Value::Object(plans) = concord_codegen::plan::registry(&model) else { panic!("a plan per module") };
        for (module, written) in plans {
            let read = concord_plan::Module::from_value(written.clone()).unwrap_or_else(|error| panic!("{} {module}: {error}", dir.display()));
            for plan in read.types.values() {
                kinds.insert(format!("{:?}", std::mem::discriminant(&plan.kind)));
            }
            let again = serde_json::to_string(&read).unwrap();
            assert_eq!(again, serde_json::to_string(&written).unwrap(), "{} {module}: the definition writes it otherwise", dir.display());
            modules += 1;
        }
    }
    assert!(modules > 100, "{modules} modules");
    assert_eq!(kinds.len(), 6, "every kind of type was read");
}

#[test]
fn a_plan_of_another_format_or_with_a_key_it_does_not_name_is_refused_by_name() {
    let model = concord_codegen::load(&root().join("fixtures/constructs/registry")).unwrap();
    let plans = concord_codegen::plan::registry(&model);
    let bounds = plans["bounds"].clone();
    assert!(concord_plan::Module::from_value(bounds.clone()).is_ok());

    let mut other = bounds.clone();
    other["plan"] = serde_json::json!(2);
    let error = concord_plan::Module::from_value(other).unwrap_err().to_string();
    assert!(error.contains("a plan of format 2; this reads format 1"), "{error}");

    // A key no part of the plan names, at each level: the module, a type, an object, a field, a value.
    type Change = fn(&mut serde_json::Value);
    let unknown: [(&str, Change); 5] = [
        ("`comment`", |plan| plan["comment"] = serde_json::json!("x")),
        ("`deprecated`", |plan| plan["types"]["Bounds"]["deprecated"] = serde_json::json!(true)),
        ("`closed`", |plan| plan["types"]["Bounds"]["object"]["closed"] = serde_json::json!(true)),
        ("`default`", |plan| plan["types"]["Bounds"]["object"]["fields"][0]["default"] = serde_json::json!(1)),
        ("`checked_twice`", |plan| plan["types"]["Bounds"]["object"]["fields"][0]["value"] = serde_json::json!({"checked_twice": "string"})),
    ];
    for (name, change) in unknown {
        let mut changed = bounds.clone();
        change(&mut changed);
        let error = concord_plan::Module::from_value(changed).unwrap_err().to_string();
        assert!(error.contains(name) && error.contains("format 1"), "{name}: {error}");
    }
}
