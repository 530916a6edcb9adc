//! `enum` and `const`: a closed set of strings becomes an enum type.

use super::{Keywords, Reader};
use crate::model::EnumValue;
use crate::names;
use serde_json::Value;
use std::path::Path;

impl Reader {
    /// `enum`/`const` as an enum type of its strings, and whether `null`
    /// is allowed too; `Some(None)` when other values are allowed, which the
    /// assertion engine checks on the schema's own type.
    pub(super) fn enum_values(&mut self, file: &Path, schema: &Keywords, base: Option<&str>, nullable: bool) -> Option<Option<(Vec<EnumValue>, bool)>> {
        let (enum_values, constant) = (schema.take("enum"), schema.take("const"));
        let (keyword, raw): (&str, Vec<&Value>) = match (enum_values, constant) {
            (Some(_), Some(_)) => {
                self.errors.push(file, schema.pointer, "use either `enum` or `const`, not both");
                return None;
            }
            (Some(Value::Array(values)), None) if !values.is_empty() => ("enum", values.iter().collect()),
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
        for (position, text) in strings {
            let at = if keyword == "enum" { format!("{}/{position}", schema.at("enum")) } else { schema.at("const") };
            if values.iter().any(|v| v.value == text) {
                self.errors.push(file, at, format!("duplicate enum value {text:?}"));
            } else {
                values.push(EnumValue { value: text.to_owned(), word: names::pascal(text, "V") });
            }
        }
        Some(Some((values, null)))
    }
}
