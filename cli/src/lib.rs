//! The parts of the `concord` command, for its own tests and for concord's
//! lab (not a stable API: depend on `concord-codegen` from a build script).
//!
//! The command loads a registry as a build script does (concord-codegen),
//! and checks more before it writes or pins anything: the assertion engine
//! is built for every record type ([`engine`]). Around that: the round-trip
//! suite ([`roundtrip`]) and the differential fuzzer ([`fuzz`]), which build
//! bindings against the runtime this command carries ([`harness`]),
//! `concord diff` ([`diff`]), `concord upgrade` ([`upgrade`]) and `concord
//! add`, which lists files and downloads URLs ([`add`], [`fetch`]).

pub mod add;
pub mod diff;
pub mod engine;
pub mod fetch;
pub mod fuzz;
pub mod harness;
pub mod report;
pub mod roundtrip;
pub mod upgrade;

use concord_codegen::model::Model;
use concord_codegen::{registry, schema, Errors};
use std::path::Path;

/// Reads, verifies and checks a registry as a build script does, and builds
/// the assertion engine for every record type: the model the command writes
/// from, with every problem of both reported together.
pub fn load(registry_dir: &Path) -> Result<Model, Errors> {
    let registry = registry::load(registry_dir)?;
    let schema::Reading { model, mut errors, stopped } = schema::read_all(&registry);
    // Past a limit the reader stopped: the engine would spend its time on
    // tens of thousands of types of a registry that generates nothing.
    if !stopped {
        engine::check(&model, &mut errors);
    }
    let model = errors.finish(model)?;
    concord_codegen::check::check(&model)?;
    Ok(model)
}

/// A record type's pinned schema, owned: the texts of its documents and the
/// pointer of its subschema (bindings carry the same as statics).
pub struct RecordSchema {
    /// `(base URI, text, declared dialect)`: its own document first, then those its `$ref`s reach.
    documents: Vec<(String, String, Option<String>)>,
    pointer: String,
}

impl RecordSchema {
    /// The pinned schema of a registry's record type, named as `concord
    /// validate` names it: a root's name, or any record type's `Entry.Type`.
    pub fn find(model: &Model, name: &str) -> Result<RecordSchema, Errors> {
        let found = model.ids().find(|&id| {
            let def = model.get(id);
            def.pinned() && (model.label(id) == name || (def.is_root && def.name == name))
        });
        let Some(id) = found else {
            let names: Vec<String> = model.ids().filter(|&id| model.get(id).is_root && model.get(id).pinned()).map(|id| model.get(id).name.clone()).collect();
            let message = format!("no record type of that name in the registry (a root: {}; or any record type as Entry.Type)", names.join(", "));
            return Err(Errors::one(Path::new(name), "", message));
        };
        let def = model.get(id);
        let documents = model
            .documents(def.module)
            .into_iter()
            .map(|module| (model.modules[module].base.clone(), model.modules[module].text.clone(), model.modules[module].declared_dialect.clone()))
            .collect();
        Ok(RecordSchema { documents, pointer: def.origin.pointer.clone() })
    }

    /// Checks a value as the bindings' `validate` does: the same verdict and notes.
    pub fn validate(&self, value: &serde_json::Value) -> Result<(), concord_runtime::pinned::Refusal> {
        let documents: Vec<concord_runtime::pinned::Source<'_>> =
            self.documents.iter().map(|(uri, text, dialect)| concord_runtime::pinned::Source { uri, text, dialect: dialect.as_deref() }).collect();
        concord_runtime::pinned::validate_once(&documents, &self.pointer, value)
    }
}

/// The JSON Schema of the plan format (`concord plan --schema`), made from
/// the plan's one definition (concord-plan) and checked in as
/// `plan/plan.schema.json` (`cli/tests/plan.rs` keeps it current, and the
/// TypeScript runtime's declarations with it).
pub fn plan_schema() -> serde_json::Value {
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
