//! A union as pydantic's tagged union: a callable discriminator from the
//! runtime reads the tag (or the JSON type) as the Rust bindings do, and
//! each branch carries its key as a `pydantic.Tag`. The runtime leaves the
//! tag out of a refusal's JSON pointer by its place in the core schema
//! (`concord_runtime.unions.without_tags`), so a key spelled alike stays.

use super::layout::{self, Expr};
use super::text::string_literal;
use super::Emitter;
use crate::model::{Choice, Union};

impl Emitter<'_> {
    pub(super) fn union_type(&self, body: &Union, pending: &[String]) -> Expr {
        let branches: Vec<Expr> = body
            .branches
            .iter()
            .map(|branch| {
                let ty = layout::quote_pending(self.python_type(&branch.shape), pending);
                let tag = Expr::call(self.pydantic("Tag"), vec![Expr::text(string_literal(&branch.key))]);
                Expr::subscript(self.typing("Annotated"), vec![ty, tag])
            })
            .collect();
        let keys = Expr::tuple(body.branches.iter().map(|branch| Expr::text(string_literal(&branch.key))).collect());
        let discriminator = match &body.choice {
            Choice::Tag(property) => Expr::call(self.runtime("unions.tag"), vec![Expr::text(string_literal(property)), keys]),
            Choice::JsonType => Expr::call(self.runtime("unions.json_type"), vec![keys]),
        };
        // Each branch inside `Annotated`, so that a quoted forward reference never stands beside `|`.
        let discriminator = Expr::call(self.pydantic("Discriminator"), vec![discriminator]);
        Expr::subscript(self.typing("Annotated"), vec![Expr::union(branches), discriminator])
    }
}
