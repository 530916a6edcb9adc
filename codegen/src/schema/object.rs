//! Objects: declared properties become a struct's fields; the unknown-key
//! policy comes from `additionalProperties`, `unevaluatedProperties` and
//! `x-growth-point` (docs/unknown-keys.md).

use super::keywords::VERSION_FIELD;
use super::scalar::checked;
use super::{doc_text, Document, Keywords, Read, Reader, GROWTH_POINT};
use crate::error::pointer_push;
use crate::model::{Check, Count, Field, Pattern, Presence, Shape, Struct, UnknownKeys, Version};
use crate::naming::words;
use serde_json::{Map, Value};
use std::path::Path;

impl Reader {
    pub(super) fn object(&mut self, doc: &mut Document, schema: &Keywords, hint: &str) -> Option<Read> {
        let file = doc.file;
        let growth_point = match schema.take(GROWTH_POINT) {
            None | Some(Value::Bool(false)) => false,
            Some(Value::Bool(true)) => true,
            Some(_) => {
                self.errors.push(file, schema.at(GROWTH_POINT), format!("`{GROWTH_POINT}` must be true or false"));
                false
            }
        };
        let (min, max) = (self.count(file, schema, "minProperties"), self.count(file, schema, "maxProperties"));
        let property_count = (min.is_some_and(|min| min > 0) || max.is_some()).then(|| Count { min: min.filter(|min| *min > 0), max });
        // Keywords beside `properties` that evaluate properties in place: the
        // keys they name are not unevaluated, whatever the type declares.
        let evaluated_in_place = ["if", "then", "else", "dependentSchemas"].iter().any(|k| schema.has(k));
        let additional = match (schema.take("additionalProperties"), schema.take("unevaluatedProperties")) {
            // `additionalProperties` evaluates every other key: `unevaluatedProperties`
            // beside it can only refuse what it refuses; the engine checks it.
            (Some(additional), Some(_)) => {
                doc.needs_engine("unevaluatedProperties", &schema.at("unevaluatedProperties"));
                Some(additional)
            }
            (None, Some(Value::Bool(true))) => None,
            (None, Some(Value::Bool(false))) if !evaluated_in_place => Some(&Value::Bool(false)),
            // An unevaluated-properties schema, or `false` beside keywords that
            // evaluate keys the type does not declare: the keys are kept, the
            // engine checks them.
            (None, Some(_)) => {
                doc.needs_engine("unevaluatedProperties", &schema.at("unevaluatedProperties"));
                Some(&Value::Null)
            }
            (additional, None) => additional,
        };
        // Keys matching `patternProperties` are data, whatever the policy says of
        // other keys: kept verbatim, checked (and other keys refused, if so) by the engine.
        // Beside declared properties at the default policy, the other keys are
        // unknown, and dropped as anywhere else: then the patterns decide,
        // alike in both languages (where one cannot be meant alike, every key
        // is kept). Without declared properties, every key is data.
        let default_policy = matches!(additional, None | Some(Value::Bool(true))) || additional.is_some_and(|rule| rule.as_object().is_some_and(Map::is_empty));
        let patterns = schema.object.get("patternProperties").and_then(Value::as_object);
        if let (Some(patterns), true, false, true) = (patterns, default_policy, growth_point, schema.has("properties")) {
            let translated: Option<Vec<Pattern>> =
                patterns.keys().map(|ecma| concord_runtime::pattern::translate(ecma).ok().map(|regex| Pattern { ecma: ecma.clone(), regex })).collect();
            if let Some(translated) = translated.filter(|translated| !translated.is_empty()) {
                return self.object_fields(doc, schema, hint, UnknownKeys::Matching(translated), property_count, false);
            }
        }
        let additional = if patterns.is_some() { Some(&Value::Null) } else { additional };
        let unknown_keys = match additional {
            Some(Value::Null) => UnknownKeys::Keep,
            None | Some(Value::Bool(true)) => UnknownKeys::Drop,
            Some(Value::Object(extra)) if extra.is_empty() => UnknownKeys::Drop,
            Some(Value::Bool(false)) => UnknownKeys::Refuse,
            Some(extra) => UnknownKeys::Typed(self.shape(doc, extra, &schema.at("additionalProperties"), &format!("{hint}Value"))?),
        };
        if growth_point {
            let conflict = match unknown_keys {
                UnknownKeys::Refuse => Some("refuses unknown keys"),
                UnknownKeys::Typed(_) => Some("types unknown keys as a map"),
                _ => None,
            };
            if let Some(conflict) = conflict {
                let keyword = if schema.has("unevaluatedProperties") { "unevaluatedProperties" } else { "additionalProperties" };
                self.errors.push(
                    file,
                    schema.at(GROWTH_POINT),
                    format!("a growth point keeps unknown keys verbatim, but `{keyword}` here {conflict}: a type cannot be both"),
                );
                return None;
            }
        }

        self.object_fields(doc, schema, hint, unknown_keys, property_count, growth_point)
    }

    /// An object's declared properties, with its unknown-key policy decided.
    fn object_fields(
        &mut self,
        doc: &mut Document,
        schema: &Keywords,
        hint: &str,
        unknown_keys: UnknownKeys,
        property_count: Option<Count>,
        growth_point: bool,
    ) -> Option<Read> {
        let file = doc.file;
        let version_field = schema.take(VERSION_FIELD);
        let Some(properties) = schema.take("properties") else {
            if version_field.is_some() {
                self.errors.push(file, schema.at(VERSION_FIELD), format!("`{VERSION_FIELD}` names a property, and this object declares none"));
                return None;
            }
            // `required` without `properties`: keys the object must have, which
            // the engine checks; the object itself is free-form data.
            if schema.take("required").is_some() {
                doc.needs_engine("required", &schema.at("required"));
            }
            return Some(match unknown_keys {
                // A growth point with no properties: every key is kept.
                _ if growth_point => Read::Struct(Struct { fields: vec![], unknown_keys: UnknownKeys::Keep, property_count, version: None }),
                // Free-form data: every key is the data, nothing is unknown.
                UnknownKeys::Drop | UnknownKeys::Keep | UnknownKeys::Matching(_) => {
                    Read::Shape(checked(Shape::Map(Box::new(Shape::Any)), map_checks(property_count)))
                }
                UnknownKeys::Typed(values) => Read::Shape(checked(Shape::Map(Box::new(values)), map_checks(property_count))),
                UnknownKeys::Refuse => Read::Struct(Struct { fields: vec![], unknown_keys: UnknownKeys::Refuse, property_count, version: None }),
            });
        };
        let unknown_keys = if growth_point { UnknownKeys::Keep } else { unknown_keys };
        let Some(properties) = properties.as_object() else {
            self.errors.push(file, schema.at("properties"), "`properties` must be an object of schemas");
            return None;
        };
        let required = self.required(file, schema, properties, &mut doc.engine)?;
        let mut fields = Vec::new();
        // Two property names may make one word (`foo-bar`, `foo_bar`): one that
        // already is its word keeps it, a rewritten one is numbered.
        let words = words::unique_words(properties.keys().map(String::as_str), words::snake);
        for ((name, property), word) in properties.iter().zip(words) {
            let at = pointer_push(&schema.at("properties"), name);
            let property_hint = format!("{hint}{}", words::pascal(name, "V"));
            // The version property's integer `enum` is the envelope's version
            // check, which both languages run: the engine need not check it again.
            let version_property = version_field.and_then(Value::as_str) == Some(name.as_str());
            let read = if version_property { without_integer_values(property) } else { None };
            let Some(shape) = self.shape(doc, read.as_ref().unwrap_or(property), &at, &property_hint) else { continue };
            // Whether null is a value of an optional one is known once every type is read (`lower::presence`).
            let presence = if required.contains(&name.as_str()) { Presence::Required } else { Presence::Optional };
            fields.push(Field { json_name: name.clone(), word, doc: doc_text(property), shape, presence, pointer: at });
        }
        let version = match version_field {
            Some(field) => Some(self.version(file, &schema.at(VERSION_FIELD), field, properties, &fields)?),
            None => None,
        };
        Some(Read::Struct(Struct { fields, unknown_keys, property_count, version }))
    }

    /// `x-version-field`: a required property of this object, an integer
    /// `enum` or `const`, whose values are the supported versions.
    fn version(&mut self, file: &Path, at: &str, field: &Value, properties: &Map<String, Value>, fields: &[Field]) -> Option<Version> {
        let Some(name) = field.as_str() else {
            self.errors.push(file, at, format!("`{VERSION_FIELD}` must be the name of a property"));
            return None;
        };
        let shown = crate::error::shown(name);
        let Some(declared) = fields.iter().find(|declared| declared.json_name == name) else {
            self.errors.push(file, at, format!("`{VERSION_FIELD}` names `{shown}`, which this object does not declare"));
            return None;
        };
        if !declared.presence.is_required() {
            self.errors.push(file, at, format!("`{VERSION_FIELD}` names `{shown}`, which is not required: an envelope must say its version"));
            return None;
        }
        match properties.get(name).and_then(versions_listed) {
            Some(supported) => Some(Version { field: name.to_owned(), supported }),
            None => {
                self.errors.push(
                    file,
                    at,
                    format!("`{VERSION_FIELD}` names `{shown}`, which must be `\"type\": \"integer\"` with the supported versions as an `enum` of integers (or one `const`)"),
                );
                None
            }
        }
    }

    /// The declared properties `required` names; one it names without
    /// declaring makes `engine` true (the engine checks the key is there).
    fn required<'a>(&mut self, file: &Path, schema: &Keywords<'a>, properties: &Map<String, Value>, engine: &mut Option<String>) -> Option<Vec<&'a str>> {
        let at = schema.at("required");
        let Some(required) = schema.take("required") else { return Some(vec![]) };
        let Some(items) = required.as_array() else {
            self.errors.push(file, at, "`required` must be an array of property names");
            return None;
        };
        let mut names: Vec<&str> = Vec::new();
        // A set, not a scan of the earlier entries: a list may be long.
        let mut listed = std::collections::HashSet::new();
        for (position, item) in items.iter().enumerate() {
            let item_at = format!("{at}/{position}");
            match item.as_str() {
                None => self.errors.push(file, item_at, "`required` entries must be strings"),
                Some(name) if !listed.insert(name) => self.errors.push(file, item_at, format!("{name:?} is listed twice")),
                // Required but not declared: the engine checks the key is there.
                Some(name) if !properties.contains_key(name) => {
                    engine.get_or_insert_with(|| super::because("required", &schema.at("required")));
                }
                Some(name) => names.push(name),
            }
        }
        Some(names)
    }
}

/// The versions a version property lists: its integer `enum` (or `const`),
/// when it is `"type": "integer"` and lists integers only.
fn versions_listed(property: &Value) -> Option<Vec<i64>> {
    let property = property.as_object()?;
    let listed: Vec<&Value> = match (property.get("enum"), property.get("const")) {
        (Some(Value::Array(values)), None) => values.iter().collect(),
        (None, Some(value)) => vec![value],
        _ => return None,
    };
    let versions: Vec<i64> = listed.into_iter().map(Value::as_i64).collect::<Option<_>>()?;
    (property.get("type")? == "integer" && !versions.is_empty()).then_some(versions)
}

/// A version property's schema without its `enum` or `const` when these
/// are what [`Version`] checks ([`versions_listed`]); `None` otherwise.
fn without_integer_values(property: &Value) -> Option<Value> {
    versions_listed(property)?;
    let mut object = property.as_object()?.clone();
    object.remove("enum");
    object.remove("const");
    Some(Value::Object(object))
}

/// A map's key count, as the check its shape carries.
fn map_checks(count: Option<Count>) -> Vec<Check> {
    count.map(|count| Check::Properties { min: count.min, max: count.max }).into_iter().collect()
}
