//! `enum` and `const`: a closed set of strings becomes an enum type.

use super::{Keywords, Reader};
use crate::model::EnumValue;
use crate::names;
use serde_json::Value;
use std::path::Path;

impl Reader {
    pub(super) fn enum_values(&mut self, file: &Path, schema: &Keywords, base: Option<&str>, nullable: bool) -> Option<Vec<EnumValue>> {
        let (enum_values, constant) = (schema.take("enum"), schema.take("const"));
        if base.is_some_and(|b| b != "string") || nullable {
            self.errors.push(file, schema.at("type"), "`enum` and `const` are supported for strings only (\"type\": \"string\")");
            return None;
        }
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
        let mut values: Vec<EnumValue> = Vec::new();
        for (position, value) in raw.into_iter().enumerate() {
            let at = if keyword == "enum" { format!("{}/{position}", schema.at("enum")) } else { schema.at("const") };
            match value {
                Value::String(text) if values.iter().any(|v| v.value == *text) => {
                    self.errors.push(file, at, format!("duplicate enum value {text:?}"));
                }
                Value::String(text) => values.push(EnumValue { value: text.clone(), word: names::pascal(text, "V") }),
                other => self.errors.push(file, at, format!("`{keyword}` value {other} is not a string: only string values are supported")),
            }
        }
        Some(values)
    }
}
