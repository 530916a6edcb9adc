//! Values for places the model types as any JSON value and the assertion
//! engine checks (a `not`, an `if`, a union no value names, an older
//! dialect's document): drawn from the schema text itself, so that most of
//! them pass the engine and their mutants probe it, instead of random values
//! it refuses at once. Best effort: what it does not follow, the engine
//! refuses, and both languages must still agree on that.

use super::json::{Escape, Member, Node};
use super::random::Rng;
use serde_json::Value;

/// The registry's schema documents, parsed once per run, with their base URIs.
pub struct Documents {
    documents: Vec<Option<Value>>,
    bases: Vec<String>,
}

impl Documents {
    pub fn new(model: &concord_codegen::model::Model) -> Self {
        Documents {
            documents: model.modules.iter().map(|module| concord_runtime::strict::read_schema(module.text.as_bytes()).ok()).collect(),
            bases: model.modules.iter().map(|module| module.base.clone()).collect(),
        }
    }

    /// The schema at `pointer` of document `module`.
    pub fn at(&self, module: usize, pointer: &str) -> Option<&Value> {
        self.documents.get(module)?.as_ref()?.pointer(pointer)
    }

    /// Where a `$ref` from document `module` leads: a pointer in it, or
    /// another entry's document named relative to its base.
    fn resolve(&self, module: usize, reference: &str) -> Option<(usize, &Value)> {
        let (uri, fragment) = reference.split_once('#').unwrap_or((reference, ""));
        let target = if uri.is_empty() {
            module
        } else {
            let base = &self.bases[module];
            let absolute = if uri.contains("://") { uri.to_owned() } else { format!("{}{uri}", &base[..base.rfind('/').map_or(0, |slash| slash + 1)]) };
            self.bases.iter().position(|other| *other == absolute)?
        };
        let pointer = if fragment.starts_with('/') || fragment.is_empty() { fragment } else { return None };
        Some((target, self.at(target, pointer)?))
    }
}

/// A value `schema` (in document `module`) probably accepts.
pub fn value(schema: &Value, documents: &Documents, module: usize, rng: &mut Rng, depth: usize) -> Node {
    let Value::Object(keywords) = schema else { return Node::Null };
    if depth > 12 {
        return Node::Null;
    }
    if let Some(constant) = keywords.get("const") {
        return node(constant);
    }
    if let Some(Value::Array(values)) = keywords.get("enum") {
        if !values.is_empty() {
            return node(rng.pick(values));
        }
    }
    for examples in ["examples", "default"] {
        if let Some(found) = keywords.get(examples) {
            if rng.one_in(3) {
                return match found {
                    Value::Array(values) if examples == "examples" && !values.is_empty() => node(rng.pick(values)),
                    other => node(other),
                };
            }
        }
    }
    if let Some(Value::String(reference)) = keywords.get("$ref") {
        if let Some((module, target)) = documents.resolve(module, reference) {
            return value(target, documents, module, rng, depth + 1);
        }
    }
    for union in ["oneOf", "anyOf"] {
        if let Some(Value::Array(branches)) = keywords.get(union) {
            if !branches.is_empty() {
                return value(rng.pick(branches), documents, module, rng, depth + 1);
            }
        }
    }
    if let Some(Value::Array(parts)) = keywords.get("allOf") {
        if let Some(typed) = parts.iter().find(|part| part.get("type").is_some() || part.get("properties").is_some()) {
            return value(typed, documents, module, rng, depth + 1);
        }
    }
    let types: Vec<&str> = match keywords.get("type") {
        Some(Value::String(name)) => vec![name.as_str()],
        Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).collect(),
        _ if keywords.contains_key("properties") || keywords.contains_key("required") => vec!["object"],
        _ if keywords.contains_key("items") || keywords.contains_key("prefixItems") => vec!["array"],
        _ if keywords.contains_key("minLength") || keywords.contains_key("pattern") => vec!["string"],
        _ if keywords.contains_key("minimum") || keywords.contains_key("maximum") => vec!["number"],
        _ => vec!["string", "integer", "boolean", "null"],
    };
    let number = |name: &str| keywords.get(name).and_then(Value::as_f64);
    match *rng.pick(&types) {
        "null" => Node::Null,
        "boolean" => Node::Bool(rng.one_in(2)),
        "integer" | "number" => {
            let low = number("minimum").or(number("exclusiveMinimum").map(|n| n + 1.0)).unwrap_or(-100.0);
            let high = number("maximum").or(number("exclusiveMaximum").map(|n| n - 1.0)).unwrap_or(low.max(0.0) + 100.0);
            let value = (low.ceil() as i64).saturating_add(rng.between(0, (high - low).clamp(0.0, 1000.0) as u64) as i64);
            Node::int(value)
        }
        "string" => {
            let min = number("minLength").unwrap_or(0.0) as usize;
            let max = number("maxLength").map_or(min + 8, |max| max as usize);
            let pattern = keywords.get("pattern").and_then(Value::as_str).and_then(|ecma| concord_runtime::pattern::translate(ecma).ok());
            let text = match pattern.and_then(|regex| regex_syntax::parse(&regex).ok()) {
                Some(hir) => {
                    let mut text = String::new();
                    super::pattern::sample(&hir, rng, &mut text);
                    text
                }
                None => (0..rng.between(min as u64, max.max(min) as u64)).map(|_| char::from(b'a' + rng.below(26) as u8)).collect(),
            };
            Node::Str(text, Escape::Minimal)
        }
        "array" => {
            let mut items: Vec<Node> = match keywords.get("prefixItems") {
                Some(Value::Array(prefix)) => prefix.iter().map(|item| value(item, documents, module, rng, depth + 1)).collect(),
                _ => Vec::new(),
            };
            let min = number("minItems").unwrap_or(0.0) as usize;
            let count = min.max(items.len()) + if keywords.get("items") == Some(&Value::Bool(false)) { 0 } else { rng.below(3) };
            if let Some(item) = keywords.get("items").filter(|items| items.is_object()) {
                while items.len() < count {
                    items.push(value(item, documents, module, rng, depth + 1));
                }
            }
            if let Some(contains) = keywords.get("contains") {
                items.push(value(contains, documents, module, rng, depth + 1));
            }
            Node::Array(items)
        }
        "object" => {
            let properties = keywords.get("properties").and_then(Value::as_object);
            let required: Vec<&str> =
                keywords.get("required").and_then(Value::as_array).map(|names| names.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
            let mut members: Vec<Member> = Vec::new();
            for (name, schema) in properties.into_iter().flatten() {
                if required.contains(&name.as_str()) || rng.one_in(2) {
                    members.push(Member { key: name.clone(), escape: Escape::Minimal, value: value(schema, documents, module, rng, depth + 1) });
                }
            }
            // `dependentRequired` (and draft-07's array form of `dependencies`): what a present key needs.
            let mut wanted: Vec<String> = required.iter().map(|name| name.to_string()).collect();
            for dependencies in ["dependentRequired", "dependencies"] {
                for (key, needs) in keywords.get(dependencies).and_then(Value::as_object).into_iter().flatten() {
                    if members.iter().any(|member| &member.key == key) || wanted.contains(key) {
                        wanted.extend(needs.as_array().into_iter().flatten().filter_map(Value::as_str).map(str::to_owned));
                    }
                }
            }
            for name in wanted {
                if !members.iter().any(|member| member.key == name) {
                    let schema = properties.and_then(|properties| properties.get(&name));
                    let value = schema.map_or(Node::str("x"), |schema| value(schema, documents, module, rng, depth + 1));
                    members.push(Member { key: name, escape: Escape::Minimal, value });
                }
            }
            Node::Object(members)
        }
        _ => Node::Null,
    }
}

/// A JSON value as a node, numbers as `serde_json` writes them.
pub fn node(value: &Value) -> Node {
    match value {
        Value::Null => Node::Null,
        Value::Bool(value) => Node::Bool(*value),
        Value::Number(number) => Node::Number(number.to_string()),
        Value::String(text) => Node::str(text.clone()),
        Value::Array(items) => Node::Array(items.iter().map(node).collect()),
        Value::Object(map) => Node::Object(map.iter().map(|(key, value)| Member { key: key.clone(), escape: Escape::Minimal, value: node(value) }).collect()),
    }
}
