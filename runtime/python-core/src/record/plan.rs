//! The plan codegen writes into each generated module (`_PLAN`, the JSON
//! of `concord_codegen::plan`), read into typed structures, and turned into
//! the reader's node table: one record type's nodes and those of every type
//! it names, in its module or another, each type built once (a recursive
//! type names its own node).

use super::{Extra, Field, ModelNode, Node, RecordType, ValueCheck};
use concord_plan::{Bounds, Check, Checked, Choice, Kind, ObjectPlan, Presence, UnknownKeys, Value};
use concord_runtime::pattern::Patterns;
use concord_runtime::IndexMap;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyType};
use std::collections::HashMap;

/// One generated module's plan: its types by name, as the plan's one
/// definition (`concord-plan`) reads them.
#[pyclass(frozen)]
pub struct Plan {
    types: IndexMap<String, concord_plan::TypePlan>,
}

#[pymethods]
impl Plan {
    /// Reads a module's `_PLAN`: a plan of another format, or holding a key
    /// or a kind this version does not name, is refused, saying which.
    #[new]
    fn new(text: &str) -> PyResult<Self> {
        let plan = concord_plan::Module::from_json(text).map_err(|error| PyValueError::new_err(format!("the module's plan cannot be read: {error}")))?;
        Ok(Plan { types: plan.types })
    }
}

/// A count's bound as the node holds it.
fn count(bound: Option<u64>) -> Option<usize> {
    bound.map(|bound| usize::try_from(bound).unwrap_or(usize::MAX))
}

/// The integers every concord type reads: within ±(2^53-1).
const SAFE: i64 = concord_runtime::strict::MAX_SAFE_INTEGER;

/// Builds one record type's node table from the plans of the modules it reaches.
struct Builder<'py> {
    py: Python<'py>,
    /// A module's plan and namespace, by its name in the package.
    load: Bound<'py, PyAny>,
    modules: HashMap<String, (Py<Plan>, Bound<'py, PyAny>)>,
    nodes: Vec<Node>,
    built: HashMap<(String, String), usize>,
    /// Types named and not built yet, with their node's index.
    pending: Vec<((String, String), usize)>,
    /// The record type's own node.
    root: usize,
}

impl<'py> Builder<'py> {
    fn new(py: Python<'py>, load: Bound<'py, PyAny>) -> Self {
        Builder { py, load, modules: HashMap::new(), nodes: Vec::new(), built: HashMap::new(), pending: Vec::new(), root: 0 }
    }

    fn module(&mut self, name: &str) -> PyResult<(Py<Plan>, Bound<'py, PyAny>)> {
        if let Some((plan, namespace)) = self.modules.get(name) {
            return Ok((plan.clone_ref(self.py), namespace.clone()));
        }
        let (plan, namespace): (Py<Plan>, Bound<'py, PyAny>) = self.load.call1((name,))?.extract()?;
        self.modules.insert(name.to_owned(), (plan.clone_ref(self.py), namespace.clone()));
        Ok((plan, namespace))
    }

    fn add(&mut self, node: Node) -> usize {
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    /// The node of the type `name` of module `module`: its index, taken
    /// now and built by [`Builder::build`], so that a type can name itself
    /// and a chain of a thousand types is no deeper a call than one.
    fn named(&mut self, module: &str, name: &str) -> usize {
        let key = (module.to_owned(), name.to_owned());
        if let Some(&at) = self.built.get(&key) {
            return at;
        }
        let at = self.add(Node::Any);
        self.built.insert(key.clone(), at);
        self.pending.push((key, at));
        at
    }

    /// Builds every type named so far, and those they name; then points
    /// past every alias to what it names, so that neither the reader nor
    /// the writer walks a chain of aliases one call deeper each.
    fn build(&mut self) -> PyResult<()> {
        while let Some(((module, name), at)) = self.pending.pop() {
            self.build_type(&module, &name, at)?;
        }
        // Each alias's target, each chain walked once (`check` refuses a cycle of aliases).
        let mut target: Vec<Option<usize>> = vec![None; self.nodes.len()];
        for start in 0..self.nodes.len() {
            let mut path = Vec::new();
            let mut at = start;
            while target[at].is_none() {
                match self.nodes[at] {
                    Node::Alias(inner) if path.len() <= self.nodes.len() => {
                        path.push(at);
                        at = inner;
                    }
                    _ => target[at] = Some(at),
                }
            }
            let end = target[at].unwrap_or(at);
            for step in path {
                target[step] = Some(end);
            }
        }
        let target: Vec<usize> = target.into_iter().enumerate().map(|(at, end)| end.unwrap_or(at)).collect();
        for node in &mut self.nodes {
            for child in node.children_mut() {
                *child = target[*child];
            }
        }
        self.root = target[self.root];
        Ok(())
    }

    fn build_type(&mut self, module: &str, name: &str, at: usize) -> PyResult<()> {
        let (plan, namespace) = self.module(module)?;
        let plan = plan.get();
        let plan = plan.types.get(name).ok_or_else(|| PyValueError::new_err(format!("no type {name:?} in the plan of {module:?}")))?;
        let class = || -> PyResult<Py<PyType>> { Ok(namespace.get_item(name)?.cast_into::<PyType>()?.unbind()) };
        let inner = match &plan.kind {
            Kind::Object(object) => {
                let model = self.object(module, object, class()?)?;
                self.nodes[at] = match object.properties {
                    Some(Bounds { min, max }) => Node::Count { min: count(min), max: count(max), inner: self.add(model) },
                    None => model,
                };
                return Ok(());
            }
            Kind::Enum(values) => Node::Literal(values.iter().map(|value| (value.clone(), PyString::new(self.py, value).into_any().unbind())).collect()),
            Kind::OpenEnum(_) => Node::Str { min: None, max: None, pattern: None },
            Kind::TypedId(prefix) => {
                let text = self.add(Node::Str { min: None, max: None, pattern: None });
                Node::Check { check: ValueCheck::TypedId(prefix.clone()), inner: text }
            }
            Kind::Alias(value) => Node::Alias(self.value(module, value)?),
            Kind::Union(union) => {
                let mut choices = Vec::with_capacity(union.branches.len());
                for branch in &union.branches {
                    choices.push((branch.key.clone(), self.value(module, &branch.value)?));
                }
                match &union.by {
                    Choice::Tag(property) => Node::Tag { property: property.clone(), choices },
                    Choice::JsonType => Node::JsonType { choices },
                }
            }
        };
        // A type of its own that holds its value (a `RootModel`).
        self.nodes[at] = if plan.wrapped { Node::Root { class: class()?, inner: self.add(inner) } } else { inner };
        Ok(())
    }

    fn object(&mut self, module: &str, object: &ObjectPlan, class: Py<PyType>) -> PyResult<Node> {
        let mut fields = Vec::with_capacity(object.fields.len());
        for field in &object.fields {
            let value = self.value(module, &field.value)?;
            let node = match field.presence {
                Presence::Required => value,
                Presence::Optional => self.add(Node::NotNull(value)),
                Presence::OptionalNullable => self.add(Node::Nullable(value)),
            };
            let python = field.name.as_deref().unwrap_or(&field.json);
            let mut written = Vec::with_capacity(field.json.len() + 3);
            concord_runtime::profile::write_string_bytes(&mut written, &field.json);
            written.push(b':');
            fields.push(Field {
                name: PyString::intern(self.py, python).unbind(),
                renamed: field.name.clone(),
                key: field.json.clone(),
                written,
                node,
                default: (field.presence != Presence::Required).then(|| self.py.None()),
            });
        }
        let (extra, extras) = match &object.unknown_keys {
            UnknownKeys::Drop => (Extra::Ignore, None),
            UnknownKeys::Refuse => (Extra::Forbid, None),
            UnknownKeys::Keep => (Extra::Allow, None),
            UnknownKeys::Typed(value) => (Extra::Allow, Some(self.value(module, value)?)),
            UnknownKeys::Matching(patterns) => {
                let translated: Vec<String> = patterns.iter().map(|pattern| pattern.regex.clone()).collect();
                (Extra::Matching(Patterns::new(&translated).map_err(PyValueError::new_err)?), None)
            }
        };
        let version = match &object.version {
            None => None,
            Some(version) => {
                let field = fields
                    .iter()
                    .position(|field| field.key == version.field)
                    .ok_or_else(|| PyValueError::new_err(format!("no version field {:?}", version.field)))?;
                Some((field, version.supported.clone()))
            }
        };
        let index = (fields.len() > 8).then(|| fields.iter().enumerate().map(|(at, field)| (field.key.clone(), at)).collect());
        let defaults = PyDict::new(self.py);
        for field in &fields {
            defaults.set_item(
                field.name.bind(self.py),
                field.default.as_ref().map_or_else(|| self.py.None().into_bound(self.py), |default| default.bind(self.py).clone()),
            )?;
        }
        let defaults = defaults.unbind();
        let alloc = super::read::object_alloc(class.bind(self.py));
        Ok(Node::Model(Box::new(ModelNode { class, alloc, fields, extra, version, extras, index, defaults })))
    }

    fn value(&mut self, module: &str, value: &Value) -> PyResult<usize> {
        let node = match value {
            Value::Any => Node::Any,
            Value::Null => Node::Null,
            Value::Boolean => Node::Bool,
            Value::Integer => Node::Int { min: -SAFE, max: SAFE, multiple: None },
            Value::Number => Node::Float { ge: None, le: None, gt: None, lt: None },
            Value::String => Node::Str { min: None, max: None, pattern: None },
            Value::Array(items) => Node::List { items: self.value(module, items)?, min: None, max: None },
            Value::Map(values) => Node::Dict { values: self.value(module, values)?, min: None, max: None },
            Value::Tuple(items) => Node::Tuple(items.iter().map(|item| self.value(module, item)).collect::<PyResult<_>>()?),
            Value::Nullable(inner) => Node::Nullable(self.value(module, inner)?),
            Value::Ref(reference) => return Ok(self.named(reference.module.as_deref().unwrap_or(module), &reference.name)),
            Value::Checked(checked) => return self.checked(module, checked),
        };
        Ok(self.add(node))
    }

    /// A value with assertions: its bounds and pattern on its own node, the
    /// checks no node holds around it.
    fn checked(&mut self, module: &str, checked: &Checked) -> PyResult<usize> {
        let unsupported = || PyValueError::new_err("a check on a value of another type");
        // A named type's node is shared: bounds go on a node of this value's own.
        if matches!(checked.value, Value::Ref(_)) {
            return Err(unsupported());
        }
        let mut at = self.value(module, &checked.value)?;
        for check in &checked.checks {
            match (check, &mut self.nodes[at]) {
                (Check::Length(bounds), Node::Str { min, max, .. })
                | (Check::Items(bounds), Node::List { min, max, .. })
                | (Check::Properties(bounds), Node::Dict { min, max, .. }) => {
                    (*min, *max) = (count(bounds.min), count(bounds.max));
                }
                (Check::Pattern(text), Node::Str { pattern, .. }) => {
                    *pattern = Some(Patterns::new(std::slice::from_ref(&text.regex)).map_err(PyValueError::new_err)?)
                }
                (Check::IntegerRange { min: low, max: high }, Node::Int { min, max, .. }) => (*min, *max) = ((*min).max(*low), (*max).min(*high)),
                (Check::IntegerMultipleOf(divisor), Node::Int { multiple, .. }) => *multiple = Some(*divisor),
                (Check::NumberRange { minimum, exclusive_minimum, maximum, exclusive_maximum }, Node::Float { ge, le, gt, lt }) => {
                    (*ge, *gt, *le, *lt) = (*minimum, *exclusive_minimum, *maximum, *exclusive_maximum);
                }
                (Check::NumberMultipleOf(divisor), Node::Float { .. }) => {
                    let divisor = concord_runtime::number::parse_divisor(divisor).map_err(PyValueError::new_err)?;
                    at = self.add(Node::Check { check: ValueCheck::MultipleOf(divisor), inner: at });
                }
                (Check::UniqueItems, Node::List { .. }) => at = self.add(Node::Check { check: ValueCheck::UniqueItems, inner: at }),
                _ => return Err(unsupported()),
            }
        }
        Ok(at)
    }
}

impl RecordType {
    /// The reader and writer of the type `name` of module `module`, from
    /// the plans `load` gives by module name.
    pub(super) fn from_plan(py: Python<'_>, module: &str, name: &str, load: Bound<'_, PyAny>) -> PyResult<RecordType> {
        let mut builder = Builder::new(py, load);
        builder.root = builder.named(module, name);
        builder.build()?;
        Ok(RecordType { nodes: builder.nodes, root: builder.root, writable: true, keys: Default::default() })
    }
}
