//! The one walk that makes a schema document's `$ref`s absolute, shared by
//! the generator (a merged `allOf` part taken from another entry) and the
//! engine (each document before the `jsonschema` crate registers it).
//!
//! Each caller gives its own URI resolution, for a stated reason: the
//! engine resolves as the `jsonschema` crate does (it then looks the
//! resulting URIs up with that same resolution), while the generator runs in
//! build scripts without the crate, with its own RFC 3986 resolver
//! (`concord_codegen::uri`). The JSON-Schema-Test-Suite's `$ref` and `$id`
//! cases hold the two to the same documents.

use serde_json::{Map, Value};

/// Every `$ref` of `document` (not its `$dynamicRef`s, which the dynamic
/// scope resolves) made absolute against `base` and the `$id`s on the way
/// (`id_of`: the URI an object gives itself in the document's dialect);
/// `resolve(base, reference)` gives an absolute URI without its fragment,
/// or `None` for a reference it cannot resolve, which stays as written.
/// Values of `enum`, `const`, `default` and `examples` are data, not schemas.
pub fn absolutize(document: &mut Value, base: &str, id_of: impl Fn(&Map<String, Value>) -> Option<String>, resolve: impl Fn(&str, &str) -> Option<String>) {
    let mut stack = vec![(document, base.to_owned())];
    while let Some((value, base)) = stack.pop() {
        match value {
            Value::Object(object) => {
                let base = match id_of(object) {
                    Some(id) => resolve(&base, &id).unwrap_or(base),
                    None => base,
                };
                if let Some(Value::String(target)) = object.get_mut("$ref") {
                    let fragment = target.split_once('#').map(|(_, fragment)| fragment.to_owned());
                    if let Some(uri) = resolve(&base, target) {
                        *target = match fragment {
                            Some(fragment) => format!("{uri}#{fragment}"),
                            None => uri,
                        };
                    }
                }
                for (key, item) in object.iter_mut() {
                    if !matches!(key.as_str(), "enum" | "const" | "default" | "examples") {
                        stack.push((item, base.clone()));
                    }
                }
            }
            Value::Array(items) => stack.extend(items.iter_mut().map(|item| (item, base.clone()))),
            _ => {}
        }
    }
}
