//! `enum` and `const`: a closed set of strings becomes an enum type; with
//! `"x-open-enum": true`, an enum that also keeps any other string.

use super::{Keywords, Read, Reader, OPEN_ENUM, TYPED_ID};
use crate::model::{EnumValue, OpenEnum, TypeKind};
use crate::naming::words;
use serde_json::Value;
use std::path::Path;

impl Reader {
    /// `enum`/`const` as an enum type of its strings, and whether `null`
    /// is allowed too; `Some(None)` when other values are allowed, which the
    /// assertion engine checks on the schema's own type.
    pub(super) fn enum_values(&mut self, file: &Path, schema: &Keywords, base: Option<&str>, nullable: bool) -> Option<Option<(Vec<EnumValue>, bool)>> {
        let (enum_values, constant) = (schema.take("enum"), schema.take("const"));
        let (keyword, raw): (&str, Vec<&Value>) = match (enum_values, constant) {
            // Both: the value must be in both; the engine checks that.
            (Some(_), Some(_)) => return Some(None),
            (Some(Value::Array(values)), None) if !values.is_empty() => ("enum", values.iter().collect()),
            // An empty `enum` accepts nothing: the engine refuses every value.
            (Some(Value::Array(_)), None) => return Some(None),
            (Some(_), None) => {
                self.errors.push(file, schema.at("enum"), "`enum` must be a non-empty array");
                return None;
            }
            (None, Some(value)) => ("const", vec![value]),
            (None, None) => unreachable!("called for enum or const"),
        };
        let has_null = raw.iter().any(|value| value.is_null());
        let strings: Vec<(usize, &str)> = raw.iter().enumerate().filter_map(|(position, value)| value.as_str().map(|text| (position, text))).collect();
        let others = raw.len() - strings.len() - usize::from(has_null);
        let null = match base {
            // A string type: values of other types can never match.
            Some("string") if !strings.is_empty() => nullable && has_null,
            None if !strings.is_empty() && others == 0 => has_null,
            _ => return Some(None),
        };
        let mut values: Vec<EnumValue> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut kept = Vec::new();
        for (position, text) in strings {
            let at = if keyword == "enum" { format!("{}/{position}", schema.at("enum")) } else { schema.at("const") };
            if seen.insert(text) {
                kept.push(text);
            } else {
                self.errors.push(file, at, format!("duplicate enum value {text:?}"));
            }
        }
        // Two values may make one word (`a-b`, `a_b`): a value that already is
        // its variant name keeps it, a rewritten one is numbered.
        let words = words::unique_words(kept.iter().copied(), |text| words::pascal(text, "V"));
        for (text, word) in kept.into_iter().zip(words) {
            values.push(EnumValue { value: text.to_owned(), word });
        }
        Some(Some((values, null)))
    }

    /// The enum `values` make, closed or (with `x-open-enum`) open.
    pub(super) fn enumeration(&mut self, file: &Path, schema: &Keywords, values: Vec<EnumValue>) -> Option<Read> {
        if schema.take(TYPED_ID).is_some() {
            self.errors.push(
                file,
                schema.at(TYPED_ID),
                format!("`{TYPED_ID}` cannot stand beside `enum` or `const`: a typed id is any `<prefix>_<UUIDv7>`, an enum a list of strings"),
            );
            return None;
        }
        let open = match schema.take(OPEN_ENUM) {
            None | Some(Value::Bool(false)) => false,
            Some(Value::Bool(true)) => true,
            Some(other) => {
                self.errors.push(file, schema.at(OPEN_ENUM), format!("`{OPEN_ENUM}` must be true or false, not {other}"));
                return None;
            }
        };
        if !open {
            return Some(Read::Enum(values));
        }
        if schema.has("const") {
            self.errors.push(
                file,
                schema.at(OPEN_ENUM),
                format!("`{OPEN_ENUM}` opens an `enum`, and a `const` is one fixed value: write `\"enum\": [...]` to list the known values"),
            );
            return None;
        }
        let catch_all = catch_all(&values);
        Some(Read::Kind(TypeKind::OpenEnum(OpenEnum { values, catch_all })))
    }

    /// Refuses concord's string keywords where they cannot apply: an
    /// `x-open-enum` without `enum`, an `x-typed-id` on what is not a string.
    pub(super) fn misplaced_extensions(&mut self, file: &Path, schema: &Keywords, base: Option<&str>) -> Option<()> {
        let mut misplaced = false;
        if schema.take(OPEN_ENUM).is_some() {
            // An `enum` read here held values other than strings (a string enum is read before).
            let why = if schema.has("enum") || schema.has("const") { "this schema's values are not all strings" } else { "this schema has no `enum`" };
            self.errors.push(file, schema.at(OPEN_ENUM), format!("`{OPEN_ENUM}` opens a string `enum`, and {why}"));
            misplaced = true;
        }
        if base != Some("string") && schema.take(TYPED_ID).is_some() {
            let what = base.map_or_else(|| "a schema without `type`".to_owned(), |base| format!("`\"type\": \"{base}\"`"));
            self.errors.push(file, schema.at(TYPED_ID), format!("`{TYPED_ID}` applies to strings (`\"type\": \"string\"`), not to {what}"));
            misplaced = true;
        }
        (!misplaced).then_some(())
    }
}

/// The open enum's catch-all variant: `Unrecognized`, or, when a known
/// value already takes that word, the first of `UnrecognizedValue`,
/// `UnrecognizedValue2`, ... no known value takes.
fn catch_all(values: &[EnumValue]) -> String {
    let taken = |word: &str| values.iter().any(|value| value.word == word);
    std::iter::once("Unrecognized".to_owned())
        .chain((1..).map(|n: usize| if n == 1 { "UnrecognizedValue".to_owned() } else { format!("UnrecognizedValue{n}") }))
        .find(|word| !taken(word))
        .expect("finitely many values take finitely many words")
}
