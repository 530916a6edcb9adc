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
