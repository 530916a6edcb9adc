//! A string `enum` as a `typing.Literal` of its values; an open one
//! (`"x-open-enum"`) as `concord_runtime.OpenEnum[typing.Literal[...]]`:
//! any string, the known ones listed, the value the `str` read.

use super::layout::Expr;
use super::text::string_literal;
use super::Emitter;
use crate::model::EnumValue;

impl Emitter<'_> {
    /// `typing.Literal[...]` of enum values.
    pub(super) fn literal(&self, values: &[EnumValue]) -> Expr {
        Expr::subscript(self.typing("Literal"), values.iter().map(|value| Expr::text(string_literal(&value.value))).collect())
    }

    /// An open enum's type: any string, the known ones listed, so that a
    /// value is written back unchanged, known or not.
    pub(super) fn open_enum(&self, values: &[EnumValue]) -> Expr {
        Expr::subscript(self.runtime("OpenEnum"), vec![self.literal(values)])
    }
}
