//! An object type: a `concord_runtime.Model` class of its fields, its
//! unknown-key policy as pydantic's `extra`, and what pydantic cannot say
//! itself as the runtime's checks: the property count, an envelope's
//! version (with its constants), the keys `patternProperties` keeps.

use super::layout::{self, assignment, Expr};
use super::text::{docstring, string_literal};
use super::{ident, Emitter};
use crate::model::{Field, Presence, Struct, TypeId, TypeKind, UnknownKeys};

impl Emitter<'_> {
    pub(super) fn class(&self, id: TypeId, body: &Struct, pending: &[String]) -> String {
        let def = self.model.get(id);
        let mut out = layout::class_head(&self.class_name(id), &Expr::text(self.runtime("Model")));
        if def.doc.is_some() {
            out.push_str(&docstring(&def.doc, "    "));
            out.push('\n');
        }
        let extra = match body.unknown_keys {
            UnknownKeys::Drop => "ignore",
            UnknownKeys::Refuse => "forbid",
            UnknownKeys::Keep | UnknownKeys::Typed(_) | UnknownKeys::Matching(_) => "allow",
        };
        let mut config = vec![Expr::keyword("extra", Expr::text(string_literal(extra)))];
        // pydantic warns at import when a field starts like its own methods
        // (`model_dump_x`); the exact names are escaped (`ident::field`).
        if body.fields.iter().any(|f| ident::field(&f.word).starts_with("model_")) {
            config.push(Expr::keyword("protected_namespaces", Expr::text("()")));
        }
        out.push_str(&assignment(4, "model_config", None, Some(&Expr::call(self.pydantic("ConfigDict"), config))));
        out.push_str(&self.record_constants(id));
        for field in &body.fields {
            out.push('\n');
            out.push_str(&self.field_lines(field, pending));
        }
        // Counts every key of the input, dropped ones too: only the input has them.
        if let Some(count) = &body.property_count {
            let bound = |bound: &Option<u64>| Expr::text(bound.map_or_else(|| "None".to_owned(), |bound| bound.to_string()));
            // Around the read, as Rust counts: after the keys' own refusals, before a missing property's.
            let check = Expr::call(self.runtime("checks.property_count"), vec![bound(&count.min), bound(&count.max)]);
            out.push('\n');
            out.push_str(&assignment(4, "_check_properties", None, Some(&check)));
        }
        if let Some(version) = &body.version {
            // Before anything else, as the Rust bindings read it (docs/decisions/versioned-envelopes.md).
            let (all, _) = crate::naming::version_constants(&def.name);
            let check = Expr::call(
                self.runtime("checks.version_check"),
                vec![Expr::text(string_literal(&version.field)), Expr::text(all), Expr::text(string_literal(&def.name))],
            );
            out.push('\n');
            out.push_str(&assignment(4, "_check_version", None, Some(&check)));
        }
        if let UnknownKeys::Matching(patterns) = &body.unknown_keys {
            // Keys `patternProperties` matches are data; the other unknown keys are dropped, as Rust drops them.
            let patterns: Vec<Expr> = patterns.iter().map(|pattern| Expr::text(string_literal(&pattern.regex))).collect();
            out.push_str(&format!("\n    @{}(mode=\"after\")\n", self.pydantic("model_validator")));
            out.push_str(&format!("    def _keep_matching_keys(self) -> {}:\n", self.typing("Self")));
            let call = Expr::call(self.runtime("checks.keep_matching"), vec![Expr::text("self"), Expr::tuple(patterns)]);
            out.push_str(&layout::return_statement(8, &call));
        }
        if let UnknownKeys::Typed(shape) = &body.unknown_keys {
            let annotation = layout::quote_pending(Expr::subscript("dict", vec![Expr::text("str"), self.python_type(shape)]), pending);
            let value = Expr::call(self.pydantic("Field"), vec![Expr::keyword("init", Expr::text("False"))]);
            out.push('\n');
            out.push_str(&assignment(4, "__pydantic_extra__", Some(&annotation), Some(&value)));
            out.push_str(&docstring(&Some("Entries beyond the declared properties (`additionalProperties`), in the order read.".into()), "    "));
        }
        out
    }

    fn field_lines(&self, field: &Field, pending: &[String]) -> String {
        let name = ident::field(&field.word);
        let ty = self.python_type(&field.shape);
        let alias = (name != field.json_name).then(|| Expr::keyword("alias", Expr::text(string_literal(&field.json_name))));
        let default_none = |alias: Option<Expr>| std::iter::once(Expr::keyword("default", Expr::text("None"))).chain(alias).collect::<Vec<_>>();
        let (annotation, arguments) = match field.presence {
            Presence::Required => (ty, alias.map(|alias| vec![alias])),
            // Absent stays absent (unset, so not written); null is a value, and
            // the type holds it already (`Nothing | None` would be `None | None`).
            Presence::OptionalNullable if self.holds_none(&field.shape) => (ty, Some(default_none(alias))),
            // Null is a value, but of a registry root's class (`RootModel`), which
            // `None` is not an instance of: `| None` lets the default be `None`
            // (an explicit null is then `None`, written back as null all the same).
            Presence::OptionalNullable => (Expr::union(vec![ty, Expr::text("None")]), Some(default_none(alias))),
            // Absent stays absent; an explicit null is refused.
            Presence::Optional => (Expr::subscript(self.runtime("NotNull"), vec![ty]), Some(default_none(alias))),
        };
        let annotation = layout::quote_pending(annotation, pending);
        let value = match arguments {
            None => None,
            // `default=None` alone is written `= None`.
            Some(arguments) if arguments == [Expr::keyword("default", Expr::text("None"))] => Some(Expr::text("None")),
            Some(arguments) => Some(Expr::call(self.pydantic("Field"), arguments)),
        };
        let mut out = assignment(4, &name, Some(&annotation), value.as_ref());
        out.push_str(&docstring(&field.doc, "    "));
        out
    }

    /// A versioned envelope's constants (`SUPPORTED_..._VERSIONS`,
    /// docs/decisions/versioned-envelopes.md): their block, and their names.
    pub(super) fn versions(&self, id: TypeId) -> Option<(String, [String; 2])> {
        let TypeKind::Struct(Struct { version: Some(version), .. }) = &self.model.get(id).kind else { return None };
        let name = &self.model.get(id).name;
        let (all, current) = crate::naming::version_constants(name);
        let listed: Vec<Expr> = version.supported.iter().map(|version| Expr::text(version.to_string())).collect();
        let annotation = Expr::subscript("tuple", vec![Expr::text("int"), Expr::text("...")]);
        let mut block = assignment(0, &all, Some(&annotation), Some(&Expr::tuple(listed)));
        block.push_str(&docstring(
            &Some(format!("The versions of `{name}` this binding reads (`{}`); any other is refused as `unsupported-version`.", version.field)),
            "",
        ));
        block.push_str(&assignment(0, &current, Some(&Expr::text("int")), Some(&Expr::text(version.current().to_string()))));
        block.push_str(&docstring(&Some(format!("The current version of `{name}`: the largest supported, for new envelopes.")), ""));
        Some((block, [all, current]))
    }
}
