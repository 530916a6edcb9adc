//! The engine: the `jsonschema` crate, reading the pinned schema documents
//! with concord's annotations given their meaning. It checks the keywords no
//! generated type expresses (`not`, `if`/`then`/`else`, `contains`,
//! `propertyNames`, type-less schemas such as `{"maxLength": 2}`...) when a
//! record is read, and a whole value against its schema in `validate`.
//!
//! The crate is built without its default features, so it has no way to
//! fetch a remote `$ref` (nor a file): a reference outside the registry fails
//! when the validator is built, which the generator does for every record
//! type. `format` stays an annotation, as 2020-12 says.

use crate::document::Source;
use crate::notes::Note;
use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::{Draft, Keyword, ValidationError, Validator};
use serde_json::{json, Map, Value};
use std::collections::{HashMap, HashSet};

/// The notes on why `value` fails the validator, in the engine's order, at
/// most `limit`; and whether there are more.
pub fn notes(validator: &Validator, value: &Value, limit: usize) -> (Vec<Note>, bool) {
    let mut notes = Vec::new();
    for error in validator.iter_errors(value) {
        for note in describe(&error) {
            if notes.len() == limit {
                return (notes, true);
            }
            notes.push(note);
        }
    }
    (notes, false)
}

/// An engine error as notes that never repeat the refused value (docs/decisions/refusal-notes.md):
/// what is wrong, said with the schema's words only. A property the schema
/// does not allow is a note of its own, at the property.
fn describe(error: &ValidationError<'_>) -> Vec<Note> {
    let pointer = error.instance_path().as_str().to_owned();
    let mut schema_path = error.schema_path().as_str().to_owned();
    let mut keyword = error.kind().keyword().to_owned();
    // The rewrite's keywords stand for the `type` beside them and for `multipleOf`.
    for (rewrite, original) in [(INTEGER, "type"), (MULTIPLE_OF, "multipleOf")] {
        if keyword == rewrite {
            keyword = original.to_owned();
            schema_path = format!("{}/{original}", schema_path.strip_suffix(&format!("/{rewrite}")).unwrap_or(&schema_path));
        }
    }
    let note = |pointer: String, message: String| Note { pointer, keyword: keyword.clone(), schema_path: schema_path.clone(), message };
    let plural = |count: u64, one: &str, many: &str| format!("{count} {}", if count == 1 { one } else { many });
    let message = match error.kind() {
        ValidationErrorKind::AdditionalProperties { unexpected } | ValidationErrorKind::UnevaluatedProperties { unexpected } => {
            let why = if keyword == "additionalProperties" { "is not allowed (additionalProperties)" } else { "is not allowed (unevaluatedProperties)" };
            return unexpected.iter().map(|key| note(format!("{pointer}/{}", crate::pointer::escape_token(key)), why.to_owned())).collect();
        }
        ValidationErrorKind::PropertyNames { error } => {
            // The inner error is about the name itself: point at the property.
            let name = error.instance().as_str().map(crate::pointer::escape_token).unwrap_or_default();
            let inner = describe(error).into_iter().next().map(|inner| inner.message).unwrap_or_default();
            return vec![note(format!("{pointer}/{name}"), format!("its name {inner} (propertyNames)"))];
        }
        ValidationErrorKind::AdditionalItems { limit } => format!("has more than {}", plural(*limit as u64, "item", "items")),
        ValidationErrorKind::UnevaluatedItems { .. } => "has items the schema does not allow (unevaluatedItems)".to_owned(),
        ValidationErrorKind::AnyOf { .. } => "is not valid under any of the schemas in anyOf".to_owned(),
        ValidationErrorKind::OneOfNotValid { .. } => "is not valid under any of the schemas in oneOf".to_owned(),
        ValidationErrorKind::OneOfMultipleValid { .. } => "is valid under more than one of the schemas in oneOf".to_owned(),
        ValidationErrorKind::BacktrackLimitExceeded { .. } | ValidationErrorKind::RegexEngineFailure { .. } => {
            "could not be matched against its pattern".to_owned()
        }
        ValidationErrorKind::Pattern { pattern } => format!("does not match pattern {}", quoted(pattern)),
        ValidationErrorKind::Constant { .. } => "is not the value const requires".to_owned(),
        ValidationErrorKind::Enum { .. } => "is not one of the values enum allows".to_owned(),
        ValidationErrorKind::Contains => "has no item valid under contains".to_owned(),
        ValidationErrorKind::ContentEncoding { content_encoding } => format!("is not in content encoding {}", quoted(content_encoding)),
        ValidationErrorKind::FromUtf8 { .. } => "does not decode to UTF-8 text".to_owned(),
        ValidationErrorKind::ContentMediaType { content_media_type } => format!("is not of media type {}", quoted(content_media_type)),
        ValidationErrorKind::Custom { message, .. } => message.clone(),
        ValidationErrorKind::ExclusiveMaximum { limit } => format!("is not less than {limit}"),
        ValidationErrorKind::ExclusiveMinimum { limit } => format!("is not greater than {limit}"),
        ValidationErrorKind::Maximum { limit } => format!("is greater than the maximum of {limit}"),
        ValidationErrorKind::Minimum { limit } => format!("is less than the minimum of {limit}"),
        ValidationErrorKind::FalseSchema => "is not allowed (the schema is false)".to_owned(),
        ValidationErrorKind::Format { format } => format!("is not a {}", quoted(format)),
        ValidationErrorKind::MaxItems { limit } => format!("has more than {}", plural(*limit, "item", "items")),
        ValidationErrorKind::MinItems { limit } => format!("has fewer than {}", plural(*limit, "item", "items")),
        ValidationErrorKind::MaxLength { limit } => format!("is longer than {}", plural(*limit, "character", "characters")),
        ValidationErrorKind::MinLength { limit } => format!("is shorter than {}", plural(*limit, "character", "characters")),
        ValidationErrorKind::MaxProperties { limit } => format!("has more than {}", plural(*limit, "property", "properties")),
        ValidationErrorKind::MinProperties { limit } => format!("has fewer than {}", plural(*limit, "property", "properties")),
        ValidationErrorKind::MultipleOf { multiple_of } => format!("is not a multiple of {}", json!(multiple_of)),
        ValidationErrorKind::Not { .. } => "is valid under the schema in not".to_owned(),
        ValidationErrorKind::Required { property } => match property {
            Value::String(name) => format!("lacks the required property {}", quoted(name)),
            _ => "lacks a required property".to_owned(),
        },
        ValidationErrorKind::Type { kind: TypeKind::Single(one) } => format!("is not of type \"{one}\""),
        ValidationErrorKind::Type { kind: TypeKind::Multiple(many) } => {
            let names: Vec<String> = many.iter().map(|one| format!("\"{one}\"")).collect();
            format!("is not of types {}", names.join(", "))
        }
        ValidationErrorKind::UniqueItems => "has non-unique items".to_owned(),
        ValidationErrorKind::Referencing(problem) => format!("cannot be checked: {problem}"),
    };
    vec![note(pointer, message)]
}

/// A text of the schema's, in double quotes, escaped as JSON escapes it.
fn quoted(text: &str) -> String {
    Value::String(text.to_owned()).to_string()
}

/// One validator over several subschemas of the first of `documents` (their
/// `anyOf`; one pointer: that subschema alone). The documents are parsed,
/// rewritten and registered once per set ([`prepared`]): a generated module
/// builds the validator of each of its types from the same documents, and
/// doing that work per type made a document of many types cost its size
/// times their number.
pub fn build_many(documents: &[Source<'_>], pointers: &[&str]) -> Result<Validator, String> {
    let prepared = prepared(documents)?;
    for pointer in pointers {
        if !pointer.is_empty() && !pointer.starts_with('/') {
            return Err(format!("{pointer:?} is not a JSON pointer"));
        }
        if prepared.first.pointer(pointer).is_none() {
            return Err(format!("no subschema at {pointer:?}"));
        }
    }
    let options = jsonschema::options()
        .should_validate_formats(false)
        .offline()
        .with_registry(&prepared.registry)
        .with_keyword(TYPED_ID, |_, value, _| Ok(Box::new(TypedId(value.as_str().unwrap_or_default().to_owned()))))
        .with_keyword(INTEGER, |_, _, _| Ok(Box::new(Integer)))
        .with_keyword(MULTIPLE_OF, |_, value, _| match MultipleOf::of(value) {
            Ok(multiple_of) => Ok(Box::new(multiple_of)),
            Err(why) => Err(ValidationError::custom(why)),
        });
    // The crate's own place of a refusal is the document's only when it built the whole document.
    let of_document = pointers == [""];
    let built = if of_document {
        // The document at its own base URI, in its own dialect: a wrapper
        // `$ref` to it would stand outermost in the dynamic scope, and the
        // crate then resolves a 2019-09 `$recursiveRef` short of the
        // document's `$recursiveAnchor` (the suite's "$recursiveRef with
        // nesting").
        let (contents, at) = prepared.own.as_ref().map_or((&prepared.first, &prepared.base), |(contents, at)| (contents, at));
        options.with_draft(dialect_of(contents)).with_base_uri(at.clone()).build(contents)
    } else {
        // A subschema: a wrapper of nothing but `$ref`s, in 2020-12.
        let base = &prepared.base;
        options.with_draft(Draft::Draft202012).build(&match pointers {
            [pointer] => json!({"$ref": format!("{base}#{}", fragment(pointer))}),
            pointers => json!({"anyOf": pointers.iter().map(|pointer| json!({"$ref": format!("{base}#{}", fragment(pointer))})).collect::<Vec<_>>()}),
        })
    };
    built.map_err(|error| {
        // A document its meta-schema refuses: where in the document (the crate checks a whole document against it).
        let place = error.instance_path().as_str();
        let place = if place.is_empty() || !of_document { String::new() } else { format!(" (the schema at {place})") };
        match pointers {
            [pointer] => format!("the subschema at {pointer:?} cannot be enforced: {}{place}", error.masked()),
            _ => format!("a subschema cannot be enforced: {}{place}", error.masked()),
        }
    })
}

/// A set of documents as the engine reads them, ready to build validators from.
struct Prepared {
    /// Every document, rewritten ([`keep_concord_meaning`]), on top of the
    /// meta-schemas of every draft, which a `$ref` may name.
    registry: referencing::Registry<'static>,
    /// The first document's base URI, and the first document as registered under it.
    base: String,
    first: Value,
    /// The first document as its own `$id` names it, when that is another
    /// URI: the whole document is built there, the base its references resolve against.
    own: Option<(Value, String)>,
}

/// The sets prepared last, most recent last: a process holds a few
/// registries' documents (a module's types are built one after another),
/// and a command that checks many schemas once must not hold them all.
static PREPARED: std::sync::Mutex<Vec<(Vec<Key>, std::sync::Arc<Prepared>)>> = std::sync::Mutex::new(Vec::new());
const PREPARED_KEPT: usize = 16;

/// A document of a set, as its [`Source`] says it: equal keys, equal reading.
#[derive(PartialEq)]
struct Key {
    uri: String,
    dialect: Option<String>,
    text: String,
}

impl Key {
    fn matches(keys: &[Key], documents: &[Source<'_>]) -> bool {
        keys.len() == documents.len()
            && keys.iter().zip(documents).all(|(key, source)| key.uri == source.uri && key.dialect.as_deref() == source.dialect && key.text == source.text)
    }
}

/// `documents` prepared, from the cache when the same set was prepared lately.
fn prepared(documents: &[Source<'_>]) -> Result<std::sync::Arc<Prepared>, String> {
    // A panic while the lock was held (the crate's, caught by the caller) leaves the list whole.
    let lock = || PREPARED.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    {
        let mut cache = lock();
        if let Some(at) = cache.iter().position(|(keys, _)| Key::matches(keys, documents)) {
            let hit = cache.remove(at);
            let prepared = hit.1.clone();
            cache.push(hit);
            return Ok(prepared);
        }
    }
    let prepared = std::sync::Arc::new(prepare(documents)?);
    let keys =
        documents.iter().map(|source| Key { uri: source.uri.to_owned(), dialect: source.dialect.map(str::to_owned), text: source.text.to_owned() }).collect();
    let mut cache = lock();
    if cache.len() == PREPARED_KEPT {
        cache.remove(0);
    }
    cache.push((keys, prepared.clone()));
    Ok(prepared)
}

/// Empties the cache: for a test that needs a fresh preparation each time.
#[cfg(test)]
fn forget_prepared() {
    PREPARED.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clear();
}

fn prepare(documents: &[Source<'_>]) -> Result<Prepared, String> {
    let mut resources = Vec::with_capacity(documents.len());
    let mut first = None;
    let mut own_of_first = None;
    for (index, source) in documents.iter().enumerate() {
        let uri = source.uri;
        let mut contents: Value = serde_json::from_str(source.text).map_err(|error| format!("the schema document {uri} is not JSON: {error}"))?;
        // A text without `$schema` is read in the dialect its registry
        // declares; one its registry entry reads as a later dialect
        // (`read_as`), in that one, whatever its `$schema` says.
        if let (Some(dialect), Value::Object(object)) = (source.dialect, &mut contents) {
            object.insert("$schema".to_owned(), Value::String(dialect.to_owned()));
        }
        let draft = dialect_of(&contents);
        keep_concord_meaning(&mut contents, draft);
        shorten_reference_chains(&mut contents);
        // Registered under its `$id` (draft-04's `id`) and under the URI the
        // registry gives it, when they differ (a `$ref` may use either). The
        // second copy has no `$id` of its own: with it, both copies would
        // hold one anchor under one URI, and the crate panics on resolving it
        // (it takes the copy at random;
        // `a_document_known_by_two_uris_resolves_its_anchors`); its relative
        // `$ref`s are made absolute against the `$id`, which is what they
        // resolve against wherever the document is found.
        let id_keyword = if draft == Draft::Draft4 { "id" } else { "$id" };
        let own_id = match &contents {
            Value::Object(object) if !(draft <= Draft::Draft7 && object.contains_key("$ref")) => object.get(id_keyword).and_then(Value::as_str),
            _ => None,
        };
        if let Some(id) = own_id.filter(|id| !id.starts_with('#')) {
            let id = absolute(uri, id).unwrap_or_else(|| id.trim_end_matches('#').to_owned());
            if id != *uri {
                let mut alias = contents.clone();
                if let Value::Object(object) = &mut alias {
                    object.remove(id_keyword);
                }
                absolutize_references(&mut alias, &id, draft);
                let with_id = std::mem::replace(&mut contents, alias);
                if index == 0 {
                    own_of_first = Some((with_id.clone(), id.clone()));
                }
                resources.push((id, in_its_dialect(with_id)));
            }
        }
        if index == 0 {
            first = Some((contents.clone(), uri.to_owned()));
        }
        resources.push((uri.to_owned(), in_its_dialect(contents)));
    }
    let (first, base) = first.ok_or_else(|| "no schema document".to_owned())?;
    let registry = referencing::SPECIFICATIONS
        .extend(resources)
        .and_then(|builder| builder.prepare())
        .map_err(|error| format!("the schema documents cannot be registered: {error}"))?;
    Ok(Prepared { registry, base, first, own: own_of_first })
}

/// A document as a resource of the dialect its `$schema` names: a draft-07
/// document's `$ref` siblings are ignored, a draft-04 `exclusiveMaximum` is
/// a boolean (`fixtures/dialects`). A meta-schema the crate does not know
/// (which concord's reader refuses before the engine sees it) is read as
/// Draft 2020-12, as every document was before, rather than fetched.
fn in_its_dialect(contents: Value) -> jsonschema::Resource {
    dialect_of(&contents).create_resource(contents)
}

/// The dialect a document's `$schema` names (a meta-schema the crate does
/// not know: Draft 2020-12).
fn dialect_of(contents: &Value) -> Draft {
    match Draft::default().detect(contents) {
        Draft::Unknown => Draft::Draft202012,
        known => known,
    }
}

/// `"x-typed-id": "<prefix>"`: a string is `<prefix>_` and a lowercase UUIDv7.
const TYPED_ID: &str = "x-typed-id";

/// Added by the rewrite beside every `type` that allows integers but not
/// numbers: such a number is written without fraction or exponent.
const INTEGER: &str = "x-concord-integer";

/// `multipleOf`, renamed by the rewrite: checked on the number's decimal
/// form exactly, as the types check it (`crate::number`). The crate checks
/// the float's binary value once the decimal one is beyond its integers
/// (`1e300` is a multiple of `1.5` there, not as written).
const MULTIPLE_OF: &str = "x-concord-multiple-of";

struct TypedId(String);

impl<'i> Keyword<'i> for TypedId {
    fn validate(&self, instance: &'i Value) -> Result<(), ValidationError<'i>> {
        if self.is_valid(instance) {
            Ok(())
        } else {
            Err(ValidationError::custom(format!("is not a typed id {} (the prefix, an underscore, a lowercase UUIDv7)", quoted(&self.0))))
        }
    }

    fn is_valid(&self, instance: &'i Value) -> bool {
        instance.as_str().is_none_or(|text| crate::typed_id::check_typed_id(text, &self.0))
    }
}

struct Integer;

impl<'i> Keyword<'i> for Integer {
    fn validate(&self, instance: &'i Value) -> Result<(), ValidationError<'i>> {
        if self.is_valid(instance) {
            Ok(())
        } else {
            Err(ValidationError::custom("is not of type \"integer\" (it is written with a fraction or an exponent)"))
        }
    }

    /// serde_json reads `1.0` and `1e2` as floats, `1` as an integer: the
    /// layout the types hold to (JSON Schema calls `1.0` an integer). A
    /// float with a fraction is `type`'s to refuse.
    fn is_valid(&self, instance: &'i Value) -> bool {
        !matches!(instance, Value::Number(number) if number.as_f64().is_some_and(|float| number.is_f64() && float.fract() == 0.0))
    }
}

/// The divisor as the types read it, and its text. The rewrite renames only
/// a divisor the types read; one a document writes under this name itself
/// and the types cannot read is refused, never read as another.
struct MultipleOf(crate::number::Divisor, String);

impl MultipleOf {
    fn of(value: &Value) -> Result<MultipleOf, String> {
        let text = value.to_string();
        Ok(MultipleOf(crate::number::parse_divisor(&text)?, text))
    }
}

impl<'i> Keyword<'i> for MultipleOf {
    fn validate(&self, instance: &'i Value) -> Result<(), ValidationError<'i>> {
        if self.is_valid(instance) {
            Ok(())
        } else {
            Err(ValidationError::custom(format!("is not a multiple of {}", self.1)))
        }
    }

    fn is_valid(&self, instance: &'i Value) -> bool {
        match instance {
            Value::Number(number) => match (number.as_i64(), number.as_f64()) {
                (Some(integer), _) => crate::number::integer_multiple_of(integer, &self.0),
                (None, Some(float)) => crate::number::multiple_of(float, &self.0),
                (None, None) => false,
            },
            _ => true,
        }
    }
}

/// concord's annotations keep their meaning under the engine: the fixed
/// rewrite of a pinned document before the engine reads it
/// (docs/validation.md). It changes only what the types would otherwise
/// read differently from the engine:
/// - `"x-open-enum": true` removes its `enum`: the types keep any other string;
/// - a `type` that allows `integer` but not `number` gets `"x-concord-integer":
///   true`: an integer is written without fraction or exponent;
/// - `multipleOf` becomes `"x-concord-multiple-of"`, checked on the decimal
///   form exactly, as the types check it;
/// - `x-typed-id` is a keyword of the engine's (registered, not rewritten);
/// - in a draft-06 or draft-07 document, `contentEncoding` and
///   `contentMediaType` are removed: those drafts let a validator assert
///   them, and the crate does, but concord reads them as annotations in
///   every dialect, as it reads `format` (most validators do: the corpus's
///   CloudEvents example holds a placeholder where base64 belongs).
fn keep_concord_meaning(document: &mut Value, draft: Draft) {
    let content_asserted = matches!(draft, Draft::Draft6 | Draft::Draft7);
    // A loop over a stack, not recursion: documents may nest deeply. Each
    // entry says whether it is a map of schemas by name (`properties`...),
    // whose keys are names, not keywords.
    let mut stack = vec![(document, false)];
    while let Some((value, names)) = stack.pop() {
        match value {
            Value::Object(object) => {
                if names {
                    stack.extend(object.values_mut().map(|schema| (schema, false)));
                    continue;
                }
                if object.get("x-open-enum") == Some(&Value::Bool(true)) {
                    object.remove("enum");
                }
                if allows_integers_only(object) {
                    object.insert(INTEGER.to_owned(), Value::Bool(true));
                }
                if let Some(divisor) =
                    object.get("multipleOf").filter(|divisor| divisor.is_number() && crate::number::parse_divisor(&divisor.to_string()).is_ok())
                {
                    let divisor = divisor.clone();
                    object.remove("multipleOf");
                    object.insert(MULTIPLE_OF.to_owned(), divisor);
                }
                if content_asserted {
                    object.remove("contentEncoding");
                    object.remove("contentMediaType");
                }
                for (key, item) in object.iter_mut() {
                    match key.as_str() {
                        // Data, not schemas.
                        "enum" | "const" | "default" | "examples" => {}
                        "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas" | "dependencies" => stack.push((item, true)),
                        _ => stack.push((item, false)),
                    }
                }
            }
            Value::Array(items) => stack.extend(items.iter_mut().map(|item| (item, false))),
            _ => {}
        }
    }
}

/// Keywords that change nothing a value is checked against.
const ANNOTATIONS: &[&str] = &["title", "description", "$comment", "examples", "default", "deprecated", "readOnly", "writeOnly"];

/// Points each `$ref` that only passes a value on (a schema of `$ref` and
/// annotations, to another such schema of the same document...) at the end
/// of its chain. The engine checks a value through each link by recursion:
/// a chain of 3,000 overflowed a 2 MB stack in a debug build. The same
/// checks, so no change of meaning; applied only to references by JSON
/// pointer in documents without embedded `$id`s or dynamic references,
/// where a fragment means the same place wherever it stands.
fn shorten_reference_chains(document: &mut Value) {
    let mut links: HashMap<String, String> = HashMap::new();
    let mut stack = vec![(&*document, String::new())];
    while let Some((value, pointer)) = stack.pop() {
        match value {
            Value::Object(object) => {
                if (!pointer.is_empty() && object.contains_key("$id")) || object.contains_key("$dynamicRef") || object.contains_key("$recursiveRef") {
                    return;
                }
                if let Some(Value::String(target)) = object.get("$ref") {
                    let plain = object.keys().all(|key| key == "$ref" || ANNOTATIONS.contains(&key.as_str()));
                    if let Some(target) =
                        target.strip_prefix('#').filter(|target| plain && (target.is_empty() || target.starts_with('/')) && !target.contains('%'))
                    {
                        links.insert(pointer.clone(), target.to_owned());
                    }
                }
                for (key, item) in object {
                    if !matches!(key.as_str(), "enum" | "const" | "default" | "examples") {
                        stack.push((item, format!("{pointer}/{}", crate::pointer::escape_token(key))));
                    }
                }
            }
            Value::Array(items) => stack.extend(items.iter().enumerate().map(|(index, item)| (item, format!("{pointer}/{index}")))),
            _ => {}
        }
    }
    let mut ends: HashMap<&str, String> = HashMap::new();
    let mut cyclic: HashSet<&str> = HashSet::new();
    for start in links.keys() {
        let mut path: Vec<&str> = Vec::new();
        let mut on_path: HashSet<&str> = HashSet::new();
        let mut at: &str = start;
        let end = loop {
            if let Some(end) = ends.get(at) {
                break Some(end.clone());
            }
            if cyclic.contains(at) || !on_path.insert(at) {
                break None;
            }
            path.push(at);
            match links.get(at) {
                Some(next) if links.contains_key(next.as_str()) => at = next,
                Some(next) => break Some(next.clone()),
                None => break None,
            }
        };
        match end {
            Some(end) => ends.extend(path.into_iter().map(|link| (link, end.clone()))),
            // A cycle of links: left as it is, for the reader has refused it.
            None => cyclic.extend(path),
        }
    }
    let ends: Vec<(String, String)> = ends.into_iter().map(|(link, end)| (link.to_owned(), end)).collect();
    for (link, end) in ends {
        if let Some(Value::Object(object)) = document.pointer_mut(&link) {
            object.insert("$ref".to_owned(), Value::String(format!("#{}", fragment(&end))));
        }
    }
}

fn allows_integers_only(schema: &Map<String, Value>) -> bool {
    match schema.get("type") {
        Some(Value::String(one)) => one == "integer",
        Some(Value::Array(many)) => many.iter().any(|one| one == "integer") && !many.iter().any(|one| one == "number"),
        _ => false,
    }
}

/// `reference` resolved against `base`, without a fragment (`None`: not a
/// URI reference, which the engine then refuses itself).
fn absolute(base: &str, reference: &str) -> Option<String> {
    let base = jsonschema::uri::from_str(base).ok()?;
    let resolved = jsonschema::uri::resolve_against(&base.borrow(), reference).ok()?;
    Some(resolved.as_str().split('#').next().unwrap_or_default().to_owned())
}

/// Every `$ref` of a document made absolute against `base` and the `$id`s
/// on the way, resolved as the crate resolves them.
fn absolutize_references(document: &mut Value, base: &str, draft: Draft) {
    let id_keyword = if draft == Draft::Draft4 { "id" } else { "$id" };
    let id_of = |object: &serde_json::Map<String, Value>| object.get(id_keyword).and_then(Value::as_str).filter(|id| !id.starts_with('#')).map(str::to_owned);
    crate::references::absolutize(document, base, id_of, absolute);
}

/// A JSON pointer as a URI fragment (RFC 6901 §6): what is not allowed there, percent-encoded.
fn fragment(pointer: &str) -> String {
    let mut out = String::with_capacity(pointer.len());
    for byte in pointer.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/?".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests;
