//! The plan: what a runtime needs to read, refuse and write the records of
//! one registry entry's types, written by concord's code generator from its
//! final model and carried by the generated code of every language (as
//! protobuf-es's generated code carries each message's descriptor). This
//! crate is its one definition: the Python core reads plans through these
//! types, the TypeScript runtime's declarations are held to the JSON Schema
//! made from them (`plan.schema.json`), and concord-codegen's tests hold every
//! plan it writes to them, key for key.
//!
//! A plan of another format, or holding a key or a kind this version does
//! not name, is refused by name, never read in part: a runtime that skipped
//! what it does not know would read records another way than the generator
//! meant.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

/// The plan format's version: every runtime refuses a plan of another.
/// Any change a runtime must know of changes it.
pub const PLAN_VERSION: u64 = 1;

/// The JSON Schema of the format, as checked in (`concord plan --schema`);
/// made from these types with the `schema` feature, and held to them by
/// concord-cli's tests, so that no installed command compiles schemars.
pub const SCHEMA: &str = include_str!("../plan.schema.json");

/// One registry entry's plan: its types by name, in the model's order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Module {
    /// [`PLAN_VERSION`].
    pub plan: u64,
    pub types: IndexMap<String, TypePlan>,
}

/// Why a plan was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanError(pub String);

impl std::fmt::Display for PlanError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PlanError {}

impl Module {
    /// Reads a plan's JSON text: its format first (a plan of another is
    /// refused naming both formats), then every key, each of which this
    /// version must name.
    pub fn from_json(text: &str) -> Result<Module, PlanError> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(|error| PlanError(format!("a plan is JSON: {error}")))?;
        Module::from_value(value)
    }

    /// [`Module::from_json`], from a JSON value.
    pub fn from_value(value: serde_json::Value) -> Result<Module, PlanError> {
        match value.get("plan") {
            Some(format) if format.as_u64() == Some(PLAN_VERSION) => {}
            Some(format) => {
                return Err(PlanError(format!(
                    "a plan of format {format}; this reads format {PLAN_VERSION}: generate with the concord of the runtime's version"
                )))
            }
            None => return Err(PlanError(format!("not a plan: no `plan` format (this reads format {PLAN_VERSION})"))),
        }
        serde_json::from_value(value).map_err(|error| PlanError(format!("a plan of format {PLAN_VERSION} holds what it does not define: {error}")))
    }
}

/// One named type: its kind, and what every kind may add.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "TypePlanText", into = "TypePlanText")]
pub struct TypePlan {
    pub kind: Kind,
    /// A record type: a type of its own with `from_json` in every language.
    pub record: bool,
    /// A type of its own that holds a value of another kind (Rust's newtype,
    /// Python's `RootModel`); a struct is one anyway.
    pub wrapped: bool,
    /// Whether the type carries its pinned schema, and whether reading it
    /// runs the assertion engine too.
    pub pinning: Option<Pinning>,
    /// What the engine checks that no type holds, when it is asserted.
    pub asserted_by: Option<String>,
}

/// What a named type is.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    Object(ObjectPlan),
    /// A closed set of strings.
    Enum(Vec<String>),
    /// Known strings; any other string is read and kept as it is.
    OpenEnum(Vec<String>),
    /// `<prefix>_<lowercase UUIDv7>`.
    TypedId(String),
    /// Another value's shape under this name.
    Alias(Value),
    Union(UnionPlan),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Pinning {
    Pinned,
    Asserted,
}

/// A type as written: exactly one kind, the rest beside it.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TypePlanText {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    object: Option<ObjectPlan>,
    #[serde(default, rename = "enum", skip_serializing_if = "Option::is_none")]
    enumeration: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    open_enum: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    typed_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    alias: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    union: Option<UnionPlan>,
    #[serde(default, skip_serializing_if = "is_false")]
    record: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    wrapped: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pinning: Option<Pinning>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    asserted_by: Option<String>,
}

fn is_false(value: &bool) -> bool {
    !*value
}

impl TryFrom<TypePlanText> for TypePlan {
    type Error = String;

    fn try_from(text: TypePlanText) -> Result<Self, String> {
        let kinds = [
            text.object.map(Kind::Object),
            text.enumeration.map(Kind::Enum),
            text.open_enum.map(Kind::OpenEnum),
            text.typed_id.map(Kind::TypedId),
            text.alias.map(Kind::Alias),
            text.union.map(Kind::Union),
        ];
        let mut kinds = kinds.into_iter().flatten();
        let kind = kinds.next().ok_or("a type with no kind: one of `object`, `enum`, `open_enum`, `typed_id`, `alias`, `union`")?;
        if kinds.next().is_some() {
            return Err("a type of two kinds: one of `object`, `enum`, `open_enum`, `typed_id`, `alias`, `union`".to_owned());
        }
        Ok(TypePlan { kind, record: text.record, wrapped: text.wrapped, pinning: text.pinning, asserted_by: text.asserted_by })
    }
}

impl From<TypePlan> for TypePlanText {
    fn from(plan: TypePlan) -> Self {
        let mut text = TypePlanText {
            object: None,
            enumeration: None,
            open_enum: None,
            typed_id: None,
            alias: None,
            union: None,
            record: plan.record,
            wrapped: plan.wrapped,
            pinning: plan.pinning,
            asserted_by: plan.asserted_by,
        };
        match plan.kind {
            Kind::Object(object) => text.object = Some(object),
            Kind::Enum(values) => text.enumeration = Some(values),
            Kind::OpenEnum(values) => text.open_enum = Some(values),
            Kind::TypedId(prefix) => text.typed_id = Some(prefix),
            Kind::Alias(value) => text.alias = Some(value),
            Kind::Union(union) => text.union = Some(union),
        }
        text
    }
}

/// An object's declared properties, in schema order, and what becomes of the rest.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ObjectPlan {
    pub fields: Vec<FieldPlan>,
    pub unknown_keys: UnknownKeys,
    /// `minProperties`/`maxProperties`: every key counts, dropped ones too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub properties: Option<Bounds>,
    /// A versioned envelope's version property, read before anything else.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<VersionPlan>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FieldPlan {
    /// The property's key in JSON.
    pub json: String,
    /// The field's name in the language whose plan this is, where it is not the key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub presence: Presence,
    pub value: Value,
}

/// Absent, `null` and a value: which of them a property may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Presence {
    /// Always there (its value may still be nullable).
    Required,
    /// Absent or a value; `null` is refused.
    Optional,
    /// Absent, `null` or a value: three states.
    OptionalNullable,
}

/// The unknown-key policy (docs/unknown-keys.md).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum UnknownKeys {
    Drop,
    Refuse,
    /// A growth point: kept verbatim, in input order.
    Keep,
    /// `additionalProperties` with a schema: kept, each value of this shape.
    Typed(Value),
    /// Kept where a key matches one of these (`patternProperties`), dropped elsewhere.
    Matching(Vec<PatternText>),
}

/// A pattern in both forms a runtime may run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct PatternText {
    /// The schema's ECMA-262 pattern (JavaScript's `RegExp` with `u`).
    pub ecma: String,
    /// The same pattern for Rust's `regex` crate.
    pub regex: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct VersionPlan {
    /// The property that holds the version.
    pub field: String,
    pub supported: Vec<i64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct UnionPlan {
    pub by: Choice,
    pub branches: Vec<Branch>,
}

/// How a union's branch is chosen before reading it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Choice {
    /// By the string value of this property of an object.
    Tag(String),
    /// By the value's JSON type (an integer literal apart from other numbers).
    JsonType,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Branch {
    /// The tag's value, or the JSON type's name (`object`, `array`, `string`,
    /// `integer`, `number`, `boolean`, `null`).
    pub key: String,
    pub value: Value,
}

/// A value's shape.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Value {
    /// Any JSON value.
    Any,
    Null,
    Boolean,
    /// An integer within ±(2^53-1).
    Integer,
    Number,
    String,
    Array(Box<Value>),
    /// An object of any keys, each value of this shape.
    Map(Box<Value>),
    Tuple(Vec<Value>),
    Nullable(Box<Value>),
    /// A named type.
    Ref(Reference),
    /// A value with checks on it.
    Checked(Box<Checked>),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Reference {
    #[serde(rename = "type")]
    pub name: String,
    /// Another entry's module, as the language whose plan this is names it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub module: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Checked {
    pub value: Value,
    pub checks: Vec<Check>,
}

/// One assertion on a value, in the order a runtime applies them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Check {
    /// A string's length in code points.
    Length(Bounds),
    Pattern(PatternText),
    /// Inclusive, within ±(2^53-1).
    IntegerRange {
        min: i64,
        max: i64,
    },
    IntegerMultipleOf(i64),
    NumberRange {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        minimum: Option<f64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        exclusive_minimum: Option<f64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        maximum: Option<f64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        exclusive_maximum: Option<f64>,
    },
    /// The divisor as the schema wrote it, a decimal: compared exactly.
    NumberMultipleOf(String),
    /// An array's length.
    Items(Bounds),
    UniqueItems,
    /// A map's number of keys.
    Properties(Bounds),
}

/// Inclusive bounds on a count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Bounds {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<u64>,
}

/// A type's schema says what its reading says: exactly one kind, with what
/// every kind may add beside it.
#[cfg(feature = "schema")]
impl schemars::JsonSchema for TypePlan {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "TypePlan".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let kinds = [
            ("object", generator.subschema_for::<ObjectPlan>(), "An object: its declared properties, and what becomes of the rest."),
            ("enum", generator.subschema_for::<Vec<String>>(), "A closed set of strings."),
            ("open_enum", generator.subschema_for::<Vec<String>>(), "Known strings; any other string is read and kept as it is."),
            ("typed_id", generator.subschema_for::<String>(), "`<prefix>_<lowercase UUIDv7>`, given the prefix."),
            ("alias", generator.subschema_for::<Value>(), "Another value's shape under this name."),
            ("union", generator.subschema_for::<UnionPlan>(), "A union, and how its branch is chosen."),
        ];
        let mut properties = serde_json::Map::new();
        for (name, schema, description) in &kinds {
            let mut schema = schema.clone();
            schema.insert("description".into(), (*description).into());
            properties.insert((*name).into(), schema.to_value());
        }
        properties.insert(
            "record".into(),
            serde_json::json!({"description": "A record type: a type of its own with `from_json` in every language.", "type": "boolean"}),
        );
        properties.insert(
            "wrapped".into(),
            serde_json::json!({"description": "A type of its own that holds a value of another kind (a newtype, a `RootModel`).", "type": "boolean"}),
        );
        properties.insert("pinning".into(), generator.subschema_for::<Pinning>().to_value());
        properties.insert("asserted_by".into(), serde_json::json!({"description": "What the assertion engine checks that no type holds.", "type": "string"}));
        let one_of: Vec<serde_json::Value> = kinds.iter().map(|(name, _, _)| serde_json::json!({"required": [name]})).collect();
        schemars::json_schema!({
            "description": "One named type: exactly one kind, and what every kind may add.",
            "type": "object",
            "properties": properties,
            "additionalProperties": false,
            "oneOf": one_of,
        })
    }
}
