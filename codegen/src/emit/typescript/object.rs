//! An object type: an interface with the JSON names as written, absent,
//! `null` and a value as three states (`?:` under
//! `exactOptionalPropertyTypes`, `| null`), and kept unknown keys under the
//! runtime's `unknownKeys` symbol, which no JSON name can collide with.

use super::text::{doc_comment, property};
use super::Emitter;
use crate::model::{Presence, Struct, TypeId, UnknownKeys};

impl Emitter<'_> {
    pub(super) fn object(&self, id: TypeId, body: &Struct) -> String {
        let name = self.type_name(id);
        let mut out = doc_comment(&self.model.get(id).doc, "");
        out.push_str(&format!("export interface {name} {{\n"));
        for field in &body.fields {
            out.push_str(&doc_comment(&field.doc, "  "));
            let value = self.type_of(&field.shape);
            let declared = match field.presence {
                Presence::Required => format!("{}: {value}", property(&field.json_name)),
                Presence::Optional => format!("{}?: {value}", property(&field.json_name)),
                Presence::OptionalNullable if value.ends_with(" | null") => format!("{}?: {value}", property(&field.json_name)),
                Presence::OptionalNullable => format!("{}?: {value} | null", property(&field.json_name)),
            };
            out.push_str(&format!("  {declared};\n"));
        }
        let kept = match &body.unknown_keys {
            UnknownKeys::Drop | UnknownKeys::Refuse => None,
            UnknownKeys::Keep => Some(("The keys this growth point kept, in the order read: written back after the declared ones.", self.runtime("JsonValue"))),
            UnknownKeys::Matching(_) => {
                Some(("The keys that match `patternProperties`, kept in the order read: written back after the declared ones.", self.runtime("JsonValue")))
            }
            UnknownKeys::Typed(shape) => {
                Some(("The entries `additionalProperties` types, in the order read: written back after the declared ones.", self.type_of(shape)))
            }
        };
        if let Some((doc, value)) = kept {
            out.push_str(&format!("  /** {doc} */\n  [{}]?: {}<{value}>;\n", self.runtime("unknownKeys"), self.runtime("JsonMap")));
        }
        out.push_str("}\n");
        out
    }
}
