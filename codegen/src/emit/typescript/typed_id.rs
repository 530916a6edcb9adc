//! A typed id: a branded template-literal type (`run_${string}`), made only
//! by its parser, which checks the lowercase UUIDv7 as Rust and Python do.

use super::text::{doc_comment, string};
use super::Emitter;
use crate::model::TypeId;

impl Emitter<'_> {
    pub(super) fn typed_id(&self, id: TypeId, prefix: &str) -> String {
        let name = self.type_name(id);
        let prefix = string(prefix);
        let doc = doc_comment(&self.model.get(id).doc, "");
        if self.model.is_record(id) {
            // Its value is declared with the record's (mod.rs).
            return format!("{doc}export type {name} = {}<{prefix}>;\n", self.runtime("TypedId"));
        }
        format!(
            "{}export type {name} = {}<{prefix}>;\n/** Parses and checks `{}_<lowercase UUIDv7>` ids. */\nexport declare const {name}: {}<{prefix}>;\n",
            doc,
            self.runtime("TypedId"),
            prefix.trim_matches('"').replace("*/", "*\\/"),
            self.runtime("TypedIdType"),
        )
    }
}
