//! A typed id (`"x-typed-id": prefix`): a string that the runtime's check
//! (the Rust runtime's code) holds to `<prefix>_<lowercase UUIDv7>`.

use super::layout::Expr;
use super::text::string_literal;
use super::Emitter;

impl Emitter<'_> {
    pub(super) fn typed_id(&self, prefix: &str) -> Expr {
        let check = Expr::call(self.runtime("checks.typed_id"), vec![Expr::text(string_literal(prefix))]);
        Expr::subscript(self.typing("Annotated"), vec![Expr::text("str"), Expr::call(self.pydantic("AfterValidator"), vec![check])])
    }
}
