//! The plan: what every runtime needs to know of a registry entry's types to
//! read, refuse and write their records, produced from the final model and
//! nothing else, as JSON, the same for every language (protobuf-es's
//! descriptors, embedded in generated code, play this part). The Python
//! package carries each entry's plan (`_PLAN`), which the compiled core reads
//! for its one-pass reader and writer; the TypeScript runtime is to read the
//! same. docs/architecture.md describes its format; `PLAN_VERSION` changes
//! with any change a runtime must know of.
//!
//! Names are the language-neutral ones (the JSON names, the type names every
//! language shares); a language whose fields or modules are named otherwise
//! gives its names through [`Names`].

use crate::model::{Check, Choice, Field, Model, Pinning, Presence, Shape, TypeDef, TypeId, TypeKind, UnknownKeys};
use serde_json::{json, Map, Value};

/// The plan format's version: a runtime refuses a plan of another.
pub const PLAN_VERSION: u64 = 1;

/// How a language names what the plan holds, where it names it otherwise
/// than the JSON does.
pub trait Names {
    /// A field's name in the language, when it is not its JSON name.
    fn field(&self, field: &Field) -> Option<String>;
    /// A module (a registry entry) as the language names it.
    fn module(&self, model: &Model, module: usize) -> String;
}

/// The names every language shares: JSON names, and each entry's word.
pub struct Neutral;

impl Names for Neutral {
    fn field(&self, _: &Field) -> Option<String> {
        None
    }

    fn module(&self, model: &Model, module: usize) -> String {
        model.modules[module].word.clone()
    }
}

/// The plan of one registry entry's types, in the order the model holds them.
pub fn module(model: &Model, index: usize, names: &dyn Names) -> Value {
    let planner = Planner { model, module: index, names };
    let mut types = Map::new();
    for id in model.ids().filter(|id| model.get(*id).module == index) {
        types.insert(crate::naming::type_name(&model.get(id).name), planner.type_plan(id));
    }
    json!({ "plan": PLAN_VERSION, "types": types })
}

/// Every entry's plan, by its module's neutral name: what the goldens hold.
pub fn registry(model: &Model) -> Value {
    let modules: Map<String, Value> = (0..model.modules.len()).map(|index| (model.modules[index].word.clone(), module(model, index, &Neutral))).collect();
    Value::Object(modules)
}

/// A plan as text: JSON with a space after each `,` and `:`, as Python's
/// `json.dumps` writes it, so that generated code can break its lines at
/// the spaces.
pub fn text(plan: &Value) -> String {
    struct Spaced;
    impl serde_json::ser::Formatter for Spaced {
        fn begin_array_value<W: ?Sized + std::io::Write>(&mut self, writer: &mut W, first: bool) -> std::io::Result<()> {
            if first {
                Ok(())
            } else {
                writer.write_all(b", ")
            }
        }

        fn begin_object_key<W: ?Sized + std::io::Write>(&mut self, writer: &mut W, first: bool) -> std::io::Result<()> {
            if first {
                Ok(())
            } else {
                writer.write_all(b", ")
            }
        }

        fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
            writer.write_all(b": ")
        }
    }
    let mut out = Vec::new();
    concord_runtime::serde::Serialize::serialize(plan, &mut serde_json::Serializer::with_formatter(&mut out, Spaced)).expect("a JSON value writes");
    String::from_utf8(out).expect("JSON is UTF-8")
}

struct Planner<'a> {
    model: &'a Model,
    module: usize,
    names: &'a dyn Names,
}

impl Planner<'_> {
    fn type_plan(&self, id: TypeId) -> Value {
        let def: &TypeDef = self.model.get(id);
        let mut plan = Map::new();
        let (kind, body) = match &def.kind {
            TypeKind::Struct(body) => {
                let mut object = Map::new();
                object.insert("fields".into(), body.fields.iter().map(|field| self.field(field)).collect());
                object.insert("unknown_keys".into(), self.unknown_keys(&body.unknown_keys));
                if let Some(count) = &body.property_count {
                    object.insert("properties".into(), bounds(count.min, count.max));
                }
                if let Some(version) = &body.version {
                    object.insert("version".into(), json!({ "field": version.field, "supported": version.supported }));
                }
                ("object", Value::Object(object))
            }
            TypeKind::Enum(values) => ("enum", values.iter().map(|value| Value::from(value.value.as_str())).collect()),
            TypeKind::OpenEnum(open) => ("open_enum", open.values.iter().map(|value| Value::from(value.value.as_str())).collect()),
            TypeKind::TypedId(prefix) => ("typed_id", Value::from(prefix.as_str())),
            TypeKind::Alias(shape) => ("alias", self.value(shape)),
            TypeKind::Union(union) => {
                let by = match &union.choice {
                    Choice::Tag(property) => json!({ "tag": property }),
                    Choice::JsonType => Value::from("json_type"),
                };
                let branches: Vec<Value> = union.branches.iter().map(|branch| json!({ "key": branch.key, "value": self.value(&branch.shape) })).collect();
                ("union", json!({ "by": by, "branches": branches }))
            }
        };
        plan.insert(kind.into(), body);
        if self.model.is_record(id) {
            plan.insert("record".into(), Value::Bool(true));
        }
        // A struct is a type of its own in every language anyway.
        if def.wrapped && !matches!(def.kind, TypeKind::Struct(_)) {
            plan.insert("wrapped".into(), Value::Bool(true));
        }
        match def.pinning {
            Pinning::None => {}
            Pinning::Pinned => {
                plan.insert("pinning".into(), Value::from("pinned"));
            }
            Pinning::Asserted => {
                plan.insert("pinning".into(), Value::from("asserted"));
                if let Some(why) = &self.model.modules[def.module].asserted_by {
                    plan.insert("asserted_by".into(), Value::from(why.as_str()));
                }
            }
        }
        Value::Object(plan)
    }

    fn field(&self, field: &Field) -> Value {
        let presence = match field.presence {
            Presence::Required => "required",
            Presence::Optional => "optional",
            Presence::OptionalNullable => "optional_nullable",
        };
        let mut plan = Map::new();
        plan.insert("json".into(), Value::from(field.json_name.as_str()));
        if let Some(name) = self.names.field(field) {
            plan.insert("name".into(), Value::from(name));
        }
        plan.insert("presence".into(), Value::from(presence));
        plan.insert("value".into(), self.value(&field.shape));
        Value::Object(plan)
    }

    fn unknown_keys(&self, policy: &UnknownKeys) -> Value {
        match policy {
            UnknownKeys::Drop => Value::from("drop"),
            UnknownKeys::Refuse => Value::from("refuse"),
            UnknownKeys::Keep => Value::from("keep"),
            UnknownKeys::Typed(shape) => json!({ "typed": self.value(shape) }),
            UnknownKeys::Matching(patterns) => {
                json!({ "matching": patterns.iter().map(|pattern| json!({ "ecma": pattern.ecma, "regex": pattern.regex })).collect::<Vec<_>>() })
            }
        }
    }

    /// A value's shape: a JSON type's name, or an object naming its kind.
    fn value(&self, shape: &Shape) -> Value {
        match shape {
            Shape::Any => Value::from("any"),
            Shape::Null => Value::from("null"),
            Shape::Bool => Value::from("boolean"),
            Shape::Integer => Value::from("integer"),
            Shape::Number => Value::from("number"),
            Shape::String => Value::from("string"),
            Shape::Array(items) => json!({ "array": self.value(items) }),
            Shape::Map(values) => json!({ "map": self.value(values) }),
            Shape::Tuple(items) => json!({ "tuple": items.iter().map(|item| self.value(item)).collect::<Vec<_>>() }),
            Shape::Nullable(inner) => json!({ "nullable": self.value(inner) }),
            Shape::Named(id) => {
                let def = self.model.get(*id);
                let mut reference = Map::new();
                reference.insert("type".into(), Value::from(crate::naming::type_name(&def.name)));
                if def.module != self.module {
                    reference.insert("module".into(), Value::from(self.names.module(self.model, def.module)));
                }
                json!({ "ref": reference })
            }
            Shape::Checked(inner, checks) => json!({ "checked": { "value": self.value(inner), "checks": checks.iter().map(check).collect::<Vec<_>>() } }),
        }
    }
}

/// One assertion on a value, as the model holds it.
fn check(check: &Check) -> Value {
    match check {
        Check::Length { min, max } => json!({ "length": bounds(*min, *max) }),
        Check::Pattern { ecma, regex } => json!({ "pattern": { "ecma": ecma, "regex": regex } }),
        Check::IntegerRange { min, max } => json!({ "integer_range": { "min": min, "max": max } }),
        Check::IntegerMultipleOf(divisor) => json!({ "integer_multiple_of": divisor }),
        Check::NumberRange { minimum, exclusive_minimum, maximum, exclusive_maximum } => {
            let mut range = Map::new();
            for (name, bound) in
                [("minimum", minimum), ("exclusive_minimum", exclusive_minimum), ("maximum", maximum), ("exclusive_maximum", exclusive_maximum)]
            {
                if let Some(bound) = bound {
                    range.insert(name.into(), json!(bound));
                }
            }
            json!({ "number_range": range })
        }
        Check::NumberMultipleOf(divisor) => json!({ "number_multiple_of": divisor }),
        Check::Items { min, max } => json!({ "items": bounds(*min, *max) }),
        Check::UniqueItems => Value::from("unique_items"),
        Check::Properties { min, max } => json!({ "properties": bounds(*min, *max) }),
    }
}

/// Inclusive bounds on a count, each left out when absent.
fn bounds(min: Option<u64>, max: Option<u64>) -> Value {
    let mut bounds = Map::new();
    if let Some(min) = min {
        bounds.insert("min".into(), Value::from(min));
    }
    if let Some(max) = max {
        bounds.insert("max".into(), Value::from(max));
    }
    Value::Object(bounds)
}
