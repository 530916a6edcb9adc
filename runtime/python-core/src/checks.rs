//! `concord_runtime::checks` and its building blocks for Python: the same Rust
//! code, the same messages (raised as `ValueError`); `concord_runtime.checks`
//! wraps them as pydantic validators.

use crate::json_value::{to_value, to_values};
use concord_runtime::bind::Failure;
use concord_runtime::checks;
use concord_runtime::number::{self, Divisor as RustDivisor};
use concord_runtime::pinned::Note;
use concord_runtime::read;
use concord_runtime::serde_json::{self, Value};
use concord_runtime::strict::Limits;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt};

fn refuse(result: Result<(), Failure>) -> PyResult<()> {
    result.map_err(|failure| PyValueError::new_err(failure.message().to_owned()))
}

/// A parsed `multipleOf` divisor (`Divisor("1.5")`), checking ints and floats.
#[pyclass(frozen)]
pub struct Divisor(RustDivisor);

#[pymethods]
impl Divisor {
    #[new]
    fn new(text: &str) -> PyResult<Self> {
        number::parse_divisor(text).map(Divisor).map_err(PyValueError::new_err)
    }

    /// Raises `ValueError` unless `value` (an int or a float, not a bool) is a multiple.
    fn check(&self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        if value.is_instance_of::<PyBool>() {
            Err(PyTypeError::new_err("a bool is not a number"))
        } else if let Ok(integer) = value.cast::<PyInt>() {
            let integer = integer.extract::<i64>().map_err(|_| PyValueError::new_err("an integer beyond 64 bits"))?;
            refuse(checks::integer_multiple_of(integer, &self.0))
        } else if let Ok(float) = value.cast::<PyFloat>() {
            refuse(checks::multiple_of(float.value(), &self.0))
        } else {
            Err(PyTypeError::new_err("not a number"))
        }
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }
}

/// Whether the float `value` is a multiple of the decimal `divisor`.
#[pyfunction]
pub fn multiple_of(value: f64, divisor: &str) -> PyResult<bool> {
    let divisor = number::parse_divisor(divisor).map_err(PyValueError::new_err)?;
    Ok(number::multiple_of(value, &divisor))
}

/// The first pair of equal items `(i, j)`, or `None`.
#[pyfunction]
pub fn first_duplicate(items: &Bound<'_, PyAny>) -> PyResult<Option<(usize, usize)>> {
    Ok(concord_runtime::value::first_duplicate(&to_values(items)?))
}

/// JSON Schema equality of two Python JSON values.
#[pyfunction]
pub fn json_equal(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(concord_runtime::value::json_equal(&to_value(a)?, &to_value(b)?))
}

#[pyfunction]
pub fn typed_id(value: &str, prefix: &str) -> bool {
    concord_runtime::typed_id::check_typed_id(value, prefix)
}

/// Raises `ValueError` naming the first two equal items.
#[pyfunction]
pub fn check_unique_items(items: &Bound<'_, PyAny>) -> PyResult<()> {
    refuse(checks::unique_items(&to_values(items)?))
}

#[pyfunction]
pub fn check_typed_id(value: &str, prefix: &str) -> PyResult<()> {
    refuse(checks::typed_id(value, prefix))
}

fn parse(json_text: &str) -> PyResult<Value> {
    serde_json::from_str(json_text).map_err(|error| PyValueError::new_err(format!("not JSON: {error}")))
}

/// `const`: `Constant('{"a": 1}').check(value)`.
#[pyclass(frozen)]
pub struct Constant(Value);

#[pymethods]
impl Constant {
    #[new]
    fn new(json_text: &str) -> PyResult<Self> {
        parse(json_text).map(Constant)
    }

    fn check(&self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        refuse(checks::const_value(&to_value(value)?, &self.0))
    }
}

/// `enum`: `Choices('[1, "a", null]').check(value)`.
#[pyclass(frozen)]
pub struct Choices(Vec<Value>);

#[pymethods]
impl Choices {
    #[new]
    fn new(json_text: &str) -> PyResult<Self> {
        match parse(json_text)? {
            Value::Array(values) => Ok(Choices(values)),
            _ => Err(PyValueError::new_err("enum is not an array")),
        }
    }

    fn check(&self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        refuse(checks::one_of_values(&to_value(value)?, &self.0))
    }
}

/// `patternProperties`' patterns as translated for the `regex` crate
/// (`Patterns(("^x-",))`): whether one matches a key, as Rust matches it.
#[pyclass(frozen)]
pub struct Patterns(concord_runtime::pattern::Patterns);

#[pymethods]
impl Patterns {
    #[new]
    fn new(translated: Vec<String>) -> PyResult<Self> {
        concord_runtime::pattern::Patterns::new(&translated).map(Patterns).map_err(PyValueError::new_err)
    }

    fn any_match(&self, key: &str) -> bool {
        self.0.any_match(key)
    }
}

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<Divisor>()?;
    module.add_class::<Patterns>()?;
    module.add_class::<Constant>()?;
    module.add_class::<Choices>()?;
    module.add_class::<Validator>()?;
    module.add_function(wrap_pyfunction!(multiple_of, module)?)?;
    module.add_function(wrap_pyfunction!(first_duplicate, module)?)?;
    module.add_function(wrap_pyfunction!(json_equal, module)?)?;
    module.add_function(wrap_pyfunction!(typed_id, module)?)?;
    module.add_function(wrap_pyfunction!(check_unique_items, module)?)?;
    module.add_function(wrap_pyfunction!(check_typed_id, module)?)?;
    Ok(())
}

/// One record type's schema as the engine checks it: `Validator(documents,
/// pointer)`, `documents` the pinned `(base URI, text, declared dialect or
/// None)` of the type's schema file first, then those its `$ref`s reach; built at once (the Python
/// `PinnedSchema` builds it on first use). The notes are the Rust runtime's,
/// word for word: `(pointer, keyword, schema_path, message, line)`.
#[pyclass(frozen)]
pub struct Validator(concord_runtime::pinned::Checker);

type NoteTuple = (String, String, String, String, String);

fn note_tuple(note: Note) -> NoteTuple {
    let line = note.to_string();
    (note.pointer, note.keyword, note.schema_path, note.message, line)
}

#[pymethods]
impl Validator {
    #[new]
    fn new(documents: Vec<(String, String, Option<String>)>, pointer: &str) -> PyResult<Self> {
        let documents: Vec<concord_runtime::pinned::Source<'_>> =
            documents.iter().map(|(uri, text, dialect)| concord_runtime::pinned::Source { uri, text, dialect: dialect.as_deref() }).collect();
        // A panic of the crate is a refusal, as in Rust (`pinned::Checker`).
        concord_runtime::pinned::Checker::build(&documents, pointer).map(Validator).map_err(PyValueError::new_err)
    }

    /// At most `limit` notes on why `value` (a Python JSON value) fails, and
    /// whether there are more; no notes when it passes.
    fn notes(&self, value: &Bound<'_, PyAny>, limit: usize) -> PyResult<(Vec<NoteTuple>, bool)> {
        let value = to_value(value)?;
        Ok(self.notes_of(&value, limit))
    }

    /// [`Validator::notes`] for a JSON document, read under the strict
    /// profile as the Rust runtime reads it (raises `JsonError`).
    fn notes_json(&self, py: Python<'_>, data: &[u8], max_bytes: usize, limit: usize) -> PyResult<(Vec<NoteTuple>, bool)> {
        let value = py.detach(|| read::value(data, Limits { max_bytes })).map_err(|error| crate::json_error(py, error))?;
        Ok(py.detach(|| self.notes_of(&value, limit)))
    }
}

impl Validator {
    fn notes_of(&self, value: &Value, limit: usize) -> (Vec<NoteTuple>, bool) {
        let (notes, more) = self.0.notes(value, limit);
        (notes.into_iter().map(note_tuple).collect(), more)
    }
}
