//! Enums as unions of string literals, which `switch` narrows; an open enum
//! adds `concord.Unrecognized`, a string branded so that only a read (or
//! `concord.unrecognized(text)`) makes one: a typo stays a type error, and
//! an unknown value read is kept and written back unchanged.

use super::text::{doc_comment, string};
use super::Emitter;
use crate::model::{EnumValue, TypeId};

impl Emitter<'_> {
    pub(super) fn enumeration(&self, id: TypeId, values: &[EnumValue], open: bool) -> String {
        let mut members: Vec<String> = values.iter().map(|value| string(&value.value)).collect();
        if open {
            members.push(self.runtime("Unrecognized"));
        }
        if members.is_empty() {
            members.push("never".to_owned());
        }
        format!("{}export type {} = {};\n", doc_comment(&self.model.get(id).doc, ""), self.type_name(id), members.join(" | "))
    }
}
