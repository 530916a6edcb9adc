//! `_core.RecordType`: one generated record type, read straight from JSON
//! bytes into its pydantic models ([`read`]) and written from them to
//! concord's bytes ([`write`]), each in one pass, the way pydantic-core
//! builds and serializes models in Rust.
//!
//! The node table comes from `concord_runtime._plan`, which reads it off
//! pydantic's own core schema of the type. Both directions do only what
//! pydantic does: any refusal (and any error a check raises, any value of a
//! type the node does not expect) gives `None`, and the caller then takes
//! pydantic's own path, which names the problem.

mod read;
mod write;

use concord_runtime::pattern::Patterns;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString, PyTuple, PyType};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// FNV-1a, for the reader's own tables (a model's fields by key, its string
/// cache): their keys are short, and an input can only look them up, never
/// add to them (the cache evicts), so the std hasher's protection buys
/// nothing and cost a tenth of a small record's read.
#[derive(Default)]
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut hash = if self.0 == 0 { 0xcbf2_9ce4_8422_2325 } else { self.0 };
        for &byte in bytes {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3);
        }
        self.0 = hash;
    }
}

enum Node {
    Alias(usize),
    Any,
    Str {
        min: Option<usize>,
        max: Option<usize>,
        pattern: Option<Patterns>,
    },
    Int {
        min: i64,
        max: i64,
        multiple: Option<i64>,
    },
    Float {
        ge: Option<f64>,
        le: Option<f64>,
        gt: Option<f64>,
        lt: Option<f64>,
    },
    Bool,
    Null,
    /// String literals: the values as read, and the objects pydantic returns for them.
    Literal(Vec<(String, Py<PyAny>)>),
    Nullable(usize),
    /// An optional property whose type is not nullable (`concord_runtime.NotNull`).
    NotNull(usize),
    List {
        items: usize,
        min: Option<usize>,
        max: Option<usize>,
    },
    /// A fixed-length array read into a Python tuple.
    Tuple(Vec<usize>),
    /// `minProperties`/`maxProperties` around an object type (`concord_runtime.checks.property_count`):
    /// every key of the input counts.
    Count {
        min: Option<usize>,
        max: Option<usize>,
        inner: usize,
    },
    Dict {
        values: usize,
        min: Option<usize>,
        max: Option<usize>,
    },
    /// A validator run on the value read (`pydantic.AfterValidator`, a model's "after" validator).
    After {
        function: Py<PyAny>,
        inner: usize,
    },
    /// A union picked by the string value of one property (`concord_runtime.unions.tag`).
    Tag {
        property: String,
        choices: Vec<(String, usize)>,
    },
    /// A union picked by the value's JSON type (`concord_runtime.unions.json_type`).
    JsonType {
        choices: Vec<(String, usize)>,
    },
    Model(Box<ModelNode>),
    Root {
        class: Py<PyType>,
        inner: usize,
    },
}

#[derive(Clone, Copy, PartialEq)]
enum Extra {
    Ignore,
    Forbid,
    Allow,
}

struct ModelNode {
    class: Py<PyType>,
    fields: Vec<Field>,
    extra: Extra,
    /// A versioned envelope: its version property and the versions read.
    version: Option<(usize, Vec<i64>)>,
    /// How kept unknown keys' values are read (`__pydantic_extra__: dict[str, T]`); any JSON value when `None`.
    extras: Option<usize>,
    /// The fields by key, for a model with many.
    index: Option<HashMap<String, usize, BuildHasherDefault<Fnv>>>,
}

struct Field {
    /// The Python name, the key of `__dict__`.
    name: Py<PyString>,
    /// The Python name when it is not the JSON name (at a growth point, a kept key may be spelled so).
    renamed: Option<String>,
    /// The JSON name read.
    key: String,
    /// `"name":` as written (`serialization_alias`, which is the JSON name in generated code).
    written: Vec<u8>,
    node: usize,
    default: Option<Py<PyAny>>,
}

/// One record type's one-pass reader and writer.
#[pyclass(frozen)]
pub struct RecordType {
    nodes: Vec<Node>,
    root: usize,
    /// Whether the writer may write it: no node serializes otherwise than by its type.
    writable: bool,
    /// The reader's string cache, kept across reads.
    keys: std::sync::Mutex<read::Keys>,
}

fn bound(item: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
    item.extract()
}

fn node(tuple: &Bound<'_, PyTuple>) -> PyResult<Node> {
    let kind: String = tuple.get_item(0)?.extract()?;
    let at = |index: usize| tuple.get_item(index);
    Ok(match kind.as_str() {
        "alias" => Node::Alias(at(1)?.extract()?),
        "any" => Node::Any,
        "str" => Node::Str {
            min: bound(&at(1)?)?,
            max: bound(&at(2)?)?,
            pattern: match at(3)?.extract::<Option<String>>()? {
                Some(pattern) => Some(Patterns::new(&[pattern]).map_err(PyValueError::new_err)?),
                None => None,
            },
        },
        "int" => Node::Int { min: at(1)?.extract()?, max: at(2)?.extract()?, multiple: at(3)?.extract()? },
        "float" => Node::Float { ge: at(1)?.extract()?, le: at(2)?.extract()?, gt: at(3)?.extract()?, lt: at(4)?.extract()? },
        "bool" => Node::Bool,
        "none" => Node::Null,
        "literal" => {
            let values: Vec<Bound<'_, PyAny>> = at(1)?.extract()?;
            Node::Literal(values.into_iter().map(|value| Ok((value.extract::<String>()?, value.unbind()))).collect::<PyResult<_>>()?)
        }
        "nullable" => Node::Nullable(at(1)?.extract()?),
        "not_null" => Node::NotNull(at(1)?.extract()?),
        "list" => Node::List { items: at(1)?.extract()?, min: bound(&at(2)?)?, max: bound(&at(3)?)? },
        "tuple" => Node::Tuple(at(1)?.extract()?),
        "count" => Node::Count { min: bound(&at(1)?)?, max: bound(&at(2)?)?, inner: at(3)?.extract()? },
        "dict" => Node::Dict { values: at(1)?.extract()?, min: bound(&at(2)?)?, max: bound(&at(3)?)? },
        "after" => Node::After { function: at(1)?.unbind(), inner: at(2)?.extract()? },
        "tag" => Node::Tag { property: at(1)?.extract()?, choices: at(2)?.extract()? },
        "json_type" => Node::JsonType { choices: at(2)?.extract()? },
        "root" => Node::Root { class: at(1)?.extract()?, inner: at(2)?.extract()? },
        "model" => {
            let class: Py<PyType> = at(1)?.extract()?;
            let mut fields = Vec::new();
            for field in at(2)?.try_iter()? {
                let field = field?;
                let field = field.cast::<PyTuple>()?;
                let name: Bound<'_, PyString> = field.get_item(0)?.extract()?;
                let has_default: bool = field.get_item(3)?.extract()?;
                let written: String = field.get_item(5)?.extract()?;
                let mut key = Vec::with_capacity(written.len() + 3);
                concord_runtime::profile::write_string_bytes(&mut key, &written);
                key.push(b':');
                let key_text: String = field.get_item(1)?.extract()?;
                let python: String = name.extract()?;
                fields.push(Field {
                    renamed: (python != key_text).then_some(python),
                    name: name.unbind(),
                    written: key,
                    key: field.get_item(1)?.extract()?,
                    node: field.get_item(2)?.extract()?,
                    default: if has_default { Some(field.get_item(4)?.unbind()) } else { None },
                });
            }
            let extra = match at(3)?.extract::<String>()?.as_str() {
                "ignore" => Extra::Ignore,
                "forbid" => Extra::Forbid,
                "allow" => Extra::Allow,
                other => return Err(PyValueError::new_err(format!("unknown extra behaviour {other:?}"))),
            };
            let version = match at(4)?.extract::<Option<(String, Vec<i64>)>>()? {
                None => None,
                Some((key, versions)) => {
                    let field = fields.iter().position(|field| field.key == key).ok_or_else(|| PyValueError::new_err(format!("no version field {key:?}")))?;
                    Some((field, versions))
                }
            };
            let extras = at(5)?.extract()?;
            let index = (fields.len() > 8).then(|| fields.iter().enumerate().map(|(at, field)| (field.key.clone(), at)).collect());
            Node::Model(Box::new(ModelNode { class, fields, extra, version, extras, index }))
        }
        other => return Err(PyValueError::new_err(format!("unknown reader node {other:?}"))),
    })
}

#[pymethods]
impl RecordType {
    #[new]
    fn new(nodes: Vec<Bound<'_, PyTuple>>, root: usize, writable: bool) -> PyResult<Self> {
        let nodes: Vec<Node> = nodes.iter().map(node).collect::<PyResult<_>>()?;
        let reach = |index: usize| if index < nodes.len() { Ok(()) } else { Err(PyValueError::new_err(format!("node {index} out of range"))) };
        reach(root)?;
        for each in &nodes {
            match each {
                Node::Alias(inner)
                | Node::Nullable(inner)
                | Node::NotNull(inner)
                | Node::List { items: inner, .. }
                | Node::Dict { values: inner, .. }
                | Node::After { inner, .. }
                | Node::Root { inner, .. }
                | Node::Count { inner, .. } => reach(*inner)?,
                Node::Tuple(items) => items.iter().try_for_each(|item| reach(*item))?,
                Node::Tag { choices, .. } | Node::JsonType { choices } => choices.iter().try_for_each(|(_, choice)| reach(*choice))?,
                Node::Model(model) => {
                    model.fields.iter().try_for_each(|field| reach(field.node))?;
                    model.extras.map_or(Ok(()), reach)?;
                }
                _ => {}
            }
        }
        Ok(RecordType { nodes, root, writable, keys: Default::default() })
    }

    /// The record read from `data` (checked under the strict profile first:
    /// raises `JsonError`), or `None` where pydantic's path must decide.
    fn read<'py>(&self, py: Python<'py>, data: &[u8], max_bytes: usize) -> PyResult<Option<Bound<'py, PyAny>>> {
        read::read(self, py, data, max_bytes)
    }

    /// `record`'s bytes as `to_json` writes them, or `None` where pydantic's
    /// serializer and the core's pass over its bytes must decide (a value
    /// the strict profile refuses, a value not of its field's type).
    fn write<'py>(&self, py: Python<'py>, record: &Bound<'py, PyAny>) -> Option<Bound<'py, PyBytes>> {
        let bytes = write::write(self, record, false)?;
        Some(PyBytes::new(py, &bytes))
    }

    /// `record`'s digest as `digest()` gives it, or `None` as for `write`
    /// (also for a record with no canonical form: a float).
    fn digest(&self, py: Python<'_>, record: &Bound<'_, PyAny>) -> Option<String> {
        let canonical = write::write(self, record, true)?;
        Some(py.detach(|| concord_runtime::canonical::digest_bytes(&canonical)))
    }
}
