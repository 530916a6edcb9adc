//! `_core.RecordType`: one generated record type, read straight from JSON
//! bytes into its pydantic models ([`read`]) and written from them to
//! concord's bytes ([`write`]), each in one pass, the way pydantic-core
//! builds and serializes models in Rust.
//!
//! The node table is built from the plan codegen writes into each generated
//! module ([`plan`]), never from pydantic's internals. Both directions do only what
//! pydantic does: any refusal (and any error a check raises, any value of a
//! type the node does not expect) gives `None`, and the caller then takes
//! pydantic's own path, which names the problem.

mod plan;
mod read;
mod write;

pub use plan::Plan;

use concord_runtime::pattern::Patterns;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString, PyType};
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
    /// A check on the value read that no bound of its node expresses.
    Check {
        check: ValueCheck,
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

impl Node {
    /// The indexes of the nodes this one reads its parts with.
    fn children_mut(&mut self) -> Vec<&mut usize> {
        match self {
            Node::Alias(inner)
            | Node::Nullable(inner)
            | Node::NotNull(inner)
            | Node::List { items: inner, .. }
            | Node::Dict { values: inner, .. }
            | Node::Check { inner, .. }
            | Node::Root { inner, .. }
            | Node::Count { inner, .. } => vec![inner],
            Node::Tuple(items) => items.iter_mut().collect(),
            Node::Tag { choices, .. } | Node::JsonType { choices } => choices.iter_mut().map(|(_, choice)| choice).collect(),
            Node::Model(model) => model.fields.iter_mut().map(|field| &mut field.node).chain(model.extras.as_mut()).collect(),
            Node::Any | Node::Str { .. } | Node::Int { .. } | Node::Float { .. } | Node::Bool | Node::Null | Node::Literal(_) => Vec::new(),
        }
    }
}

/// What a model does with an unknown key.
enum Extra {
    Ignore,
    Forbid,
    Allow,
    /// Kept where one of the patterns matches it (`patternProperties`), else dropped.
    Matching(Patterns),
}

/// The checks run on a value once read, with the Rust runtime's code.
enum ValueCheck {
    /// `multipleOf` on numbers, exact on the decimal.
    MultipleOf(concord_runtime::number::Divisor),
    /// `uniqueItems: true`.
    UniqueItems,
    /// `"x-typed-id": prefix`.
    TypedId(String),
}

struct ModelNode {
    class: Py<PyType>,
    /// The class's `tp_alloc` where its `tp_new` is `object.__new__` (see [`read`]'s `allocate`).
    alloc: Option<pyo3::ffi::allocfunc>,
    fields: Vec<Field>,
    extra: Extra,
    /// A versioned envelope: its version property and the versions read.
    version: Option<(usize, Vec<i64>)>,
    /// How kept unknown keys' values are read (`__pydantic_extra__: dict[str, T]`); any JSON value when `None`.
    extras: Option<usize>,
    /// The fields by key, for a model with many.
    index: Option<HashMap<String, usize, BuildHasherDefault<Fnv>>>,
    /// Each field's Python name and its default (`None` for a required field, which a
    /// record must have read): what the reader copies into `__dict__` before the values read.
    defaults: Py<PyDict>,
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

#[pymethods]
impl RecordType {
    /// The reader and writer of the type `name` of the generated module
    /// `module`; `load(module)` gives a module's `Plan` and namespace, by its
    /// name in the package (`concord_runtime._model`).
    #[new]
    fn new(py: Python<'_>, module: &str, name: &str, load: Bound<'_, PyAny>) -> PyResult<Self> {
        RecordType::from_plan(py, module, name, load)
    }

    /// The record read from `data` under the strict profile (a refusal:
    /// raises `JsonError`, the strict check's), or `None` where pydantic's path must decide.
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
