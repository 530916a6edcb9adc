//! Writes the model as a Python package of pydantic v2 models built on
//! `concord_runtime.Model`, and each entry's plan (`crate::plan`) beside
//! its types. Each construct's Python is in a file of its own (`object.rs`,
//! `enumeration.rs`, `union.rs`, `newtype.rs`, `typed_id.rs`); expressions
//! are built as syntax trees (`layout::Expr`), laid out once as ruff
//! formats them, and each module imports what its code named as it was built.

mod enumeration;
mod layout;
mod newtype;
mod object;
mod text;
mod typed_id;
mod types;
mod union;
mod width;

use crate::naming::python as ident;

use crate::model::{self, Field, Model, TypeId, TypeKind};
use layout::{assignment, Expr, LINE_WIDTH};
use std::cell::RefCell;
use std::collections::BTreeSet;
use text::{docstring, string_literal};

/// The package's files: (path inside the package folder, contents): a
/// module per registry entry, a module per pinned schema file below
/// `_pinned/`, and `__init__.py` giving each root and entry on first use.
pub fn package(model: &Model) -> Vec<(String, String)> {
    let mut files = vec![("__init__.py".to_owned(), layout::excuse_long_lines(&init(model)))];
    for index in 0..model.modules.len() {
        let emitter = Emitter { model, module: index, imports: RefCell::default() };
        let word = ident::module(&model.modules[index].word);
        files.push((format!("{word}.py"), layout::excuse_long_lines(&emitter.module())));
        files.push((format!("_pinned/{word}.py"), pinned(model, index)));
    }
    files.push(("_pinned/__init__.py".to_owned(), format!("# {}\n\"\"\"{PINNED_DOC}\"\"\"\n", super::HEADER)));
    files.push(("_schemas.py".to_owned(), schemas(model)));
    files.push(("_runtime.py".to_owned(), runtime()));
    files.push(("py.typed".to_owned(), String::new()));
    files
}

const PINNED_DOC: &str = "The registry's schema files as pinned, a module each: an entry loads those its types need.";

/// `_pinned/<entry>.py`: the entry's schema file as pinned (base URI,
/// digest, text), alone, so that a program loads only the texts of the
/// entries it uses; the record types' `SCHEMA`s name it.
fn pinned(model: &Model, index: usize) -> String {
    let module = &model.modules[index];
    let mut out = format!("# {}\n", super::HEADER);
    out.push_str(&docstring(&Some(format!("The schema file of {}, as pinned.", module.describe())), ""));
    out.push_str("\nimport concord_runtime\n\n");
    out.push_str("DOCUMENT = concord_runtime.PinnedDocument(\n");
    // A text too long for a line is written a line of the file at a time.
    let argument = |name: &str, value: &str| format!("    {name}={},\n", layout::string(&string_literal(value), 4, 5 + name.len(), 1));
    out.push_str(&argument("uri", &module.base));
    out.push_str(&argument("digest", &module.digest));
    out.push_str(&argument("text", &module.text));
    if let Some(dialect) = &module.declared_dialect {
        out.push_str(&argument("dialect", dialect));
    }
    out.push_str(")\n");
    layout::excuse_long_lines(&out)
}

/// `_schemas.py`: where each record type with a pinned schema is, for
/// `python -m concord_runtime validate`.
fn schemas(model: &Model) -> String {
    let mut out = format!("# {}\n", super::HEADER);
    out.push_str("\"\"\"The record types with a pinned schema: their path in the package.\"\"\"\n");
    // What `python -m concord_runtime validate` names, as `concord validate` does.
    out.push_str("\nRECORDS: dict[str, str] = {\n");
    for id in model.ids().filter(|id| model.get(*id).pinned()) {
        let path = string_literal(&record_path(model, id));
        let mut names = vec![model.label(id)];
        if model.get(id).is_root {
            names.insert(0, model.get(id).name.clone());
        }
        for name in names {
            // The key leaves room for `: (`; the value starts after its last line.
            let key = layout::string(&string_literal(&name), 4, 4, 3);
            let column = layout::width(key.rsplit('\n').next().unwrap_or(&key)) + if key.contains('\n') { 2 } else { 6 };
            out.push_str(&format!("    {key}: {},\n", layout::string(&path, 4, column, 1)));
        }
    }
    out.push_str("}\n\"\"\"The record types with a pinned schema, by root name and by `Entry.Type`: their path in the package.\"\"\"\n");
    layout::excuse_long_lines(&out)
}

/// `_runtime.py`, which `__init__.py` imports first: a concord_runtime that
/// does not run bindings of this version says so before any class is built.
fn runtime() -> String {
    format!(
        "# {}\n\"\"\"The concord_runtime these bindings were written for: imported first, so that another is named plainly.\"\"\"\n\n\
         import concord_runtime\n\nconcord_runtime.bindings_for({})\n",
        super::HEADER,
        string_literal(super::VERSION)
    )
}

/// `__init__.py`: each root and each entry's module by name, imported on
/// first use (PEP 562 `__getattr__`), so that a program loads the entries
/// it uses and what they need; type checkers and IDEs read the same names
/// from the imports under `typing.TYPE_CHECKING`.
fn init(model: &Model) -> String {
    let mut out = format!("# {}\n", super::HEADER);
    out.push_str("\"\"\"Pydantic models of a concord registry: a module per registry entry, each root also here.\n\nRead with `Model.from_json`, write with `record.to_json()`. A root or an entry is imported on first use.\"\"\"\n\n");
    // The runtime's version check first (isort sorts `from . import` after the
    // standard library); `gc` and `importlib` under names no entry's module can take.
    out.push_str("import gc as _gc\nimport importlib as _importlib\nimport typing\n\nfrom . import _runtime as _runtime\n");
    let mut words = Vec::new();
    let mut roots = Vec::new();
    for module in &model.modules {
        let word = ident::module(&module.word);
        if let Some(root) = module.root {
            roots.push((crate::naming::type_name(&model.get(root).name), word.clone()));
        }
        words.push(word);
    }
    words.sort_by(|a, b| natural_order(a, b));
    roots.sort_by(|a, b| natural_order(&a.1, &b.1));
    if !words.is_empty() {
        out.push_str("\nif typing.TYPE_CHECKING:\n");
        out.push_str(&import_names(".", &words, 4));
        for (root, word) in &roots {
            out.push_str(&import_names(&format!(".{word}"), std::slice::from_ref(root), 4));
        }
    }
    let mut names: Vec<String> = roots.iter().map(|(root, _)| root.clone()).chain(words.iter().cloned()).collect();
    names.sort_by(|a, b| isort_order(a, b));
    names.dedup();
    out.push('\n');
    out.push_str(&all(&names));
    let mut modules: Vec<(String, String)> = roots.iter().cloned().chain(words.iter().map(|word| (word.clone(), word.clone()))).collect();
    modules.sort_by(|a, b| isort_order(&a.0, &b.0));
    modules.dedup();
    // One entry a line, with ruff's magic trailing comma: ruff keeps it so.
    out.push_str("_MODULES: dict[str, str] = {\n");
    for (name, word) in &modules {
        // Laid out as `_schemas.py`'s `RECORDS`: the key leaves room for `: (`.
        let key = layout::string(&string_literal(name), 4, 4, 3);
        let column = layout::width(key.rsplit('\n').next().unwrap_or(&key)) + if key.contains('\n') { 2 } else { 6 };
        out.push_str(&format!("    {key}: {},\n", layout::string(&string_literal(word), 4, column, 1)));
    }
    out.push_str("}\n\"\"\"Each name's module: a root's entry, or the entry itself.\"\"\"\n");
    // Not for type checkers: a module `__getattr__` would make every
    // misspelt name an `object` to them, where now it is an error.
    out.push_str(concat!(
        "\n",
        "if not typing.TYPE_CHECKING:\n",
        "\n",
        "    def __getattr__(name: str) -> object:\n",
        "        \"\"\"A root or an entry's module, imported on first use.\"\"\"\n",
        "        if name not in _MODULES:\n",
        "            raise AttributeError(f\"module {__name__!r} has no attribute {name!r}\")\n",
        "        # Building its models keeps nearly every object the import makes: the cyclic\n",
        "        # collector's passes over them would find nothing to free (docs/performance.md).\n",
        "        collecting = _gc.isenabled()\n",
        "        _gc.disable()\n",
        "        try:\n",
        "            module = _importlib.import_module(f\".{_MODULES[name]}\", __name__)\n",
        "        finally:\n",
        "            if collecting:\n",
        "                _gc.enable()\n",
        "        value: object = module if _MODULES[name] == name else getattr(module, name)\n",
        "        globals()[name] = value\n",
        "        return value\n",
        "\n",
        "    def __dir__() -> list[str]:\n",
        "        return sorted({*globals(), *__all__})\n",
    ));
    out
}

/// `from module import a, b` at `indent`, as ruff lays it out: on one line,
/// else a name a line inside parentheses.
fn import_names(module: &str, names: &[String], indent: usize) -> String {
    let pad = " ".repeat(indent);
    let line = format!("{pad}from {module} import {}", names.join(", "));
    if layout::width(&line) <= LINE_WIDTH {
        return line + "\n";
    }
    let mut out = format!("{pad}from {module} import (\n");
    for name in names {
        out.push_str(&format!("{pad}    {name},\n"));
    }
    out + &pad + ")\n"
}

/// What the emitter holds while it writes one entry's module: the model,
/// the entry, and the third-party modules its code has named so far, which
/// are the module's imports (an unused import fails `ruff check`).
struct Emitter<'a> {
    model: &'a Model,
    module: usize,
    imports: RefCell<BTreeSet<&'static str>>,
}

impl Emitter<'_> {
    /// `module.name`, and `module` among the imports.
    fn named(&self, module: &'static str, name: &str) -> String {
        self.imports.borrow_mut().insert(module);
        format!("{module}.{name}")
    }

    fn typing(&self, name: &str) -> String {
        self.named("typing", name)
    }

    fn pydantic(&self, name: &str) -> String {
        self.named("pydantic", name)
    }

    fn runtime(&self, name: &str) -> String {
        self.named("concord_runtime", name)
    }

    fn class_name(&self, id: TypeId) -> String {
        crate::naming::type_name(&self.model.get(id).name)
    }

    fn module(&self) -> String {
        let (model, index) = (self.model, self.module);
        let in_module = |id: &TypeId| model.get(*id).module == index;
        // Top-level blocks, separated by two blank lines, each type after the
        // types it names: an alias is evaluated where it stands, and a class
        // whose annotations all resolve is complete (validator built) at once,
        // so nothing is built twice and no chain is walked recursively at import.
        let mut blocks: Vec<String> = Vec::new();
        let alias_rank = alias_ranks(model);
        // A versioned envelope's constants stand before its class, which reads them.
        let defined = |id: TypeId, pending: &[TypeId]| self.versions(id).map(|(block, _)| block).into_iter().chain([self.definition(id, pending)]);
        for component in model::components(model.types.len(), model.ids().filter(in_module), |id| model.references(id)) {
            if !in_module(&component[0]) {
                continue;
            }
            let cyclic = component.len() > 1 || model.references(component[0]).contains(&component[0]);
            if !cyclic {
                blocks.extend(defined(component[0], &[]));
                continue;
            }
            // A recursion cycle: its classes first, their annotations naming the
            // cycle quoted (resolved by the rebuild), then its aliases, which name
            // the classes, in their own order; then the rebuilds.
            let (classes, mut aliases): (Vec<TypeId>, Vec<TypeId>) = component.iter().partition(|id| model.is_record(**id));
            aliases.sort_by_key(|id| alias_rank[id.0]);
            blocks.extend(classes.iter().chain(&aliases).flat_map(|id| defined(*id, &component)));
            if !classes.is_empty() {
                blocks.push(classes.iter().map(|id| format!("{}.model_rebuild()\n", self.class_name(*id))).collect());
            }
        }
        let mut names: Vec<String> = model.ids().filter(in_module).map(|id| self.class_name(id)).collect();
        names.extend(model.ids().filter(in_module).filter_map(|id| self.versions(id)).flat_map(|(_, constants)| constants));
        blocks.push(plan(model, index));
        blocks.push(all(&names));

        let mut out = format!("# {}\n", super::HEADER);
        out.push_str(&docstring(&Some(format!("The types of {}.", model.modules[index].describe())), ""));
        out.push('\n');
        // No `from __future__ import annotations`: every annotation but those in
        // a cycle can be evaluated where it stands, which spares pydantic
        // compiling each one from a string at import.
        let pinned = model.ids().any(|id| model.get(id).module == index && model.get(id).pinned());
        // The pinned documents, imported as `_DOCUMENT_<n>`: no entry's module
        // word (lowercase) can take such a name.
        let documents = if pinned { model.documents(index) } else { Vec::new() };
        if pinned {
            let documents: Vec<Expr> = (0..documents.len()).map(|n| Expr::text(format!("_DOCUMENT_{n}"))).collect();
            let value = assignment(0, "_DOCUMENTS", None, Some(&Expr::list(documents)));
            blocks.insert(0, value + "\"\"\"This entry's schema file as pinned, then those its `$ref`s reach.\"\"\"\n");
        }
        let body = blocks.join("\n\n");
        // isort's sections: the standard library, then the third-party packages.
        let imports = self.imports.borrow();
        let mut sections: Vec<String> = [&["typing"][..], &["concord_runtime", "pydantic"]]
            .iter()
            .map(|section| section.iter().filter(|name| imports.contains(*name)).map(|name| format!("import {name}\n")).collect())
            .filter(|section: &String| !section.is_empty())
            .collect();
        // Then the package's own: the entries whose types it names, and the
        // pinned documents the assertion engine reads.
        let mut local = String::new();
        let mut others: Vec<String> = model
            .ids()
            .filter(|id| model.get(*id).module == index)
            .flat_map(|id| model.references(id))
            .map(|id| model.get(id).module)
            .filter(|module| *module != index)
            // Imported as `_name`: a field may bear the module's name, and a field's
            // default is bound before its annotation is read.
            .map(|module| format!("{word} as _{word}", word = ident::module(&model.modules[module].word)))
            .collect();
        others.sort_by(|a, b| natural_order(a, b));
        others.dedup();
        // isort's rule: one `as` import a line.
        for other in &others {
            local.push_str(&format!("from . import {other}\n"));
        }
        let mut pinned_imports: Vec<(String, usize)> =
            documents.iter().enumerate().map(|(n, other)| (format!("._pinned.{}", ident::module(&model.modules[*other].word)), n)).collect();
        pinned_imports.sort_by(|a, b| natural_order(&a.0, &b.0));
        for (module, n) in pinned_imports {
            local.push_str(&import_names(&module, &[format!("DOCUMENT as _DOCUMENT_{n}")], 0));
        }
        if !local.is_empty() {
            sections.push(local);
        }
        out.push_str(&sections.join("\n"));
        // isort's spacing: one blank line before a statement, two before a class.
        out.push_str(if blocks[0].starts_with("class ") { "\n\n" } else { "\n" });
        out.push_str(&body);
        out
    }

    /// One type's top-level block: a class, a `typing.Literal` alias, or a
    /// type alias. `pending` holds the types not defined yet where it stands.
    fn definition(&self, id: TypeId, pending: &[TypeId]) -> String {
        let def = self.model.get(id);
        let pending: Vec<String> = pending.iter().map(|id| self.class_name(*id)).collect();
        let pending = &pending[..];
        if let Some(inner) = self.root_value(id, pending) {
            return self.root_class(id, inner);
        }
        let name = self.class_name(id);
        // `TypeAlias`: mypy reads `X = None` as a variable, not as the type of null.
        let alias = |value: Expr| assignment(0, &name, Some(&Expr::text(self.typing("TypeAlias"))), Some(&value)) + &docstring(&def.doc, "");
        match &def.kind {
            TypeKind::Struct(body) => self.class(id, body, pending),
            TypeKind::Enum(values) => assignment(0, &name, None, Some(&self.literal(values))) + &docstring(&def.doc, ""),
            TypeKind::OpenEnum(open) => alias(self.open_enum(&open.values)),
            TypeKind::TypedId(prefix) => alias(self.typed_id(prefix)),
            TypeKind::Union(body) => alias(self.union_type(body, pending)),
            TypeKind::Alias(shape) => alias(self.python_type(shape)),
        }
    }

    /// The `NAME` and `SCHEMA_DIGEST` of a record class; its `SCHEMA` when it
    /// has a place of its own in its schema file; and `ASSERTED` when its
    /// module needs the engine, which then checks each record `from_json` reads.
    fn record_constants(&self, id: TypeId) -> String {
        let def = self.model.get(id);
        let text = Expr::subscript(self.typing("ClassVar"), vec![Expr::text("str")]);
        let constant = |name: &str, value: &str| assignment(4, name, Some(&text), Some(&Expr::text(string_literal(value))));
        let mut out = constant("NAME", &def.name) + &constant("SCHEMA_DIGEST", &def.schema_digest);
        if def.pinned() {
            let schema = self.runtime("PinnedSchema");
            let value = Expr::call(schema.clone(), vec![Expr::text("_DOCUMENTS"), Expr::text(string_literal(&def.origin.pointer))]);
            let annotation = Expr::subscript(self.typing("ClassVar"), vec![Expr::text(schema)]);
            out.push_str(&assignment(4, "SCHEMA", Some(&annotation), Some(&value)));
        }
        if def.asserted() {
            let annotation = Expr::subscript(self.typing("ClassVar"), vec![Expr::text("bool")]);
            out.push_str(&assignment(4, "ASSERTED", Some(&annotation), Some(&Expr::text("True"))));
            if let Some(why) = &self.model.modules[def.module].asserted_by {
                out.push_str(&docstring(&Some(format!("Also checked by the assertion engine when read, for what no type expresses: {why}.")), "    "));
            }
        }
        out
    }
}

/// `__all__`, in the order ruff wants it.
fn all(names: &[String]) -> String {
    let mut names = names.to_vec();
    names.sort_by(|a, b| isort_order(a, b));
    names.dedup();
    assignment(0, "__all__", None, Some(&Expr::list(names.iter().map(|name| Expr::text(string_literal(name))).collect())))
}

/// Python's names in the plan: a field's attribute where it is not its
/// JSON name, and another entry's module as the package names it.
struct PythonNames;

impl crate::plan::Names for PythonNames {
    fn field(&self, field: &Field) -> Option<String> {
        let name = ident::field(&field.word);
        (name != field.json_name).then_some(name)
    }

    fn module(&self, model: &Model, module: usize) -> String {
        ident::module(&model.modules[module].word)
    }
}

/// The entry's plan (`crate::plan`) as `_PLAN`, the JSON text the compiled
/// core's one-pass reader and writer read: a type a line, for a diff.
fn plan(model: &Model, index: usize) -> String {
    let plan = crate::plan::module(model, index, &PythonNames);
    let whole = crate::plan::text(&plan);
    let doc = docstring(&Some("How the runtime reads and writes this entry's types, as JSON (docs/architecture.md, the plan).".into()), "");
    let literal = string_literal(&whole);
    // ruff joins the parts wherever the whole fits: on the line, else alone inside the parentheses.
    if layout::width(&literal) + "_PLAN = ".len() <= LINE_WIDTH {
        return format!("_PLAN = {literal}\n") + &doc;
    }
    if layout::width(&literal) + 4 <= LINE_WIDTH {
        return format!("_PLAN = (\n    {literal}\n)\n") + &doc;
    }
    let mut parts = vec![format!("{{\"plan\": {}, \"types\": {{", plan["plan"])];
    let types = plan["types"].as_object().map(|types| types.iter().collect::<Vec<_>>()).unwrap_or_default();
    for (at, (name, body)) in types.iter().enumerate() {
        let comma = if at + 1 < types.len() { ", " } else { "" };
        parts.push(format!("{}: {}{comma}", serde_json::Value::from(name.as_str()), crate::plan::text(body)));
    }
    parts.push("}}".to_owned());
    let lines: Vec<String> = parts.iter().map(|part| format!("    {}", layout::string_lines(&string_literal(part), 4))).collect();
    format!("_PLAN = (\n{}\n)\n", lines.join("\n")) + &doc
}

/// A record type's path in the package, `module.Class`.
pub fn record_path(model: &Model, id: TypeId) -> String {
    format!("{}.{}", ident::module(&model.modules[model.get(id).module].word), crate::naming::type_name(&model.get(id).name))
}

/// Each alias's position in an order where every alias comes after the
/// aliases it names (aliases never form a cycle on their own: see `check`).
fn alias_ranks(model: &Model) -> Vec<usize> {
    let aliased = |id: TypeId| match &model.get(id).kind {
        TypeKind::Alias(_) | TypeKind::Union(_) => model.references(id),
        _ => vec![],
    };
    let mut rank = vec![0; model.types.len()];
    for (position, id) in model::components(model.types.len(), model.ids(), aliased).into_iter().flatten().enumerate() {
        rank[id.0] = position;
    }
    rank
}

/// The order ruff (RUF022) wants `__all__` in: all-capitals names (`S000`)
/// first, then capitalized ones, then the rest; digit runs compared as numbers.
fn isort_order(a: &str, b: &str) -> std::cmp::Ordering {
    let group = |name: &str| {
        let cased = name.chars().any(|c| c.is_ascii_alphabetic());
        if name.len() > 1 && cased && !name.chars().any(|c| c.is_ascii_lowercase()) {
            0
        } else if name.starts_with(|c: char| c.is_ascii_uppercase()) {
            1
        } else {
            2
        }
    };
    group(a).cmp(&group(b)).then_with(|| natural_order(a, b))
}

fn natural_order(a: &str, b: &str) -> std::cmp::Ordering {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i].is_ascii_digit() && b[j].is_ascii_digit() {
            let run = |s: &[u8], k: usize| k + s[k..].iter().take_while(|c| c.is_ascii_digit()).count();
            let (end_a, end_b) = (run(a, i), run(b, j));
            let (x, y) = (&a[i..end_a], &b[j..end_b]);
            // natord's rule: a run with a leading zero reads as a fraction.
            let order = if x[0] == b'0' || y[0] == b'0' { x.cmp(y) } else { x.len().cmp(&y.len()).then_with(|| x.cmp(y)) };
            if order.is_ne() {
                return order;
            }
            (i, j) = (end_a, end_b);
        } else if a[i] != b[j] {
            return a[i].cmp(&b[j]);
        } else {
            (i, j) = (i + 1, j + 1);
        }
    }
    (a.len() - i).cmp(&(b.len() - j)).then_with(|| a.cmp(b))
}

#[cfg(test)]
mod tests {
    use super::layout::Expr;
    use std::path::{Path, PathBuf};

    fn registries(dir: &Path, found: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap().map(Result::unwrap) {
            let path = entry.path();
            if path.is_dir() {
                registries(&path, found);
            } else if path.file_name().is_some_and(|name| name == "registry.json") {
                found.push(dir.to_owned());
            }
        }
    }

    /// Every statement the layout breaks over lines means, to Python's own
    /// parser, exactly what the emitter's one line means: a tuple of one
    /// pattern broken without its comma was a string (SchemaStore's
    /// pm2-ecosystem: each character of the pattern read as a pattern).
    /// Every registry the fixtures hold is generated, and each laid-out
    /// statement compared with its line by `ast.dump`.
    /// A run of spaces where a docstring wraps leaves no space at a line's end (W291).
    #[test]
    fn wrapped_docstring_lines_end_without_spaces() {
        assert_eq!(super::text::wrap("first.  second  third", 7), ["first.", "second", "third"]);
    }

    #[test]
    fn the_layout_never_changes_what_a_statement_means() {
        let mut found = Vec::new();
        registries(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures"), &mut found);
        found.sort();
        let mut generated = 0;
        for registry in &found {
            // The fixtures hold registries that are refused on purpose.
            if let Ok(model) = crate::load(registry) {
                super::package(&model);
                generated += 1;
            }
        }
        let from_fixtures = super::layout::LAID_OUT.lock().expect("the record").iter().filter(|(flat, laid)| flat != laid).count();
        // And every shape the emitter writes, at every depth, around strings that cannot fit.
        let long = |n: usize| Expr::text(super::text::string_literal(&"pattern-".repeat(n)));
        let annotation = Expr::subscript("tuple", vec![Expr::text("str"), Expr::text("...")]);
        for indent in (0..=48).step_by(4) {
            for n in [1, 6, 12, 15, 30] {
                let values = [
                    Expr::tuple(vec![long(n)]),
                    Expr::tuple(vec![long(n), long(1)]),
                    Expr::call("concord_runtime.checks.keep_matching", vec![Expr::text("self"), Expr::tuple(vec![long(n)])]),
                    Expr::call("pydantic.Field", vec![Expr::keyword("alias", long(n)), Expr::keyword("pattern", long(n / 2))]),
                    Expr::list(vec![long(1), Expr::tuple(vec![long(n)]), long(n)]),
                    Expr::union(vec![Expr::subscript("typing.Literal", vec![long(n)]), Expr::text("None")]),
                ];
                for value in &values {
                    super::layout::assignment(indent, "a_target", None, Some(value));
                    super::layout::assignment(indent, "a_target", Some(&annotation), Some(value));
                    super::layout::return_statement(indent, value);
                }
            }
        }
        let statements: Vec<(String, String)> = std::mem::take(&mut *super::layout::LAID_OUT.lock().expect("the record"))
            .into_iter()
            .filter(|(flat, laid)| flat != laid)
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        assert!(generated > 100 && from_fixtures > 100 && statements.len() > 900, "{generated} registries, {} statements broken over lines", statements.len());
        let python = std::env::var_os("CONCORD_PYTHON").unwrap_or_else(|| "python3".into());
        let script = r#"
import ast, json, sys
def tree(statement):
    code = statement.lstrip(" ")
    if code.rstrip().endswith(":"):
        code = code.rstrip() + " pass\n"
    return ast.dump(ast.parse(code))
differ = [(flat, laid) for flat, laid in json.load(sys.stdin) if tree(flat) != tree(laid)]
for flat, laid in differ[:5]:
    print(f"one line:\n{flat}laid out:\n{laid}")
sys.exit(1 if differ else 0)
"#;
        let mut child = std::process::Command::new(python)
            .args(["-c", script])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("a Python to parse with (CONCORD_PYTHON, else python3)");
        serde_json::to_writer(child.stdin.take().unwrap(), &statements).unwrap();
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success(), "{} of them change meaning:\n{}", statements.len(), String::from_utf8_lossy(&output.stdout));
    }
}
