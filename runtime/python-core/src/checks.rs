//! `concord_runtime::checks` and its building blocks for Python: the same Rust
//! code, the same messages (raised as `ValueError`); `concord_runtime.checks`
//! wraps them as pydantic validators.

use crate::json_value::{to_value, to_values};
use concord_runtime::bind::Failure;
use concord_runtime::checks;
use concord_runtime::number::{self, Divisor as RustDivisor};
use concord_runtime::serde_json::{self, Value};
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

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<Divisor>()?;
    module.add_class::<Constant>()?;
    module.add_class::<Choices>()?;
    module.add_class::<Assertion>()?;
    module.add_function(wrap_pyfunction!(multiple_of, module)?)?;
    module.add_function(wrap_pyfunction!(first_duplicate, module)?)?;
    module.add_function(wrap_pyfunction!(json_equal, module)?)?;
    module.add_function(wrap_pyfunction!(typed_id, module)?)?;
    module.add_function(wrap_pyfunction!(check_unique_items, module)?)?;
    module.add_function(wrap_pyfunction!(check_typed_id, module)?)?;
    Ok(())
}

/// An assertion the types cannot express: `Assertion(document, pointer)`,
/// the subschema at `pointer` of the schema document's text, built at once.
#[pyclass(frozen)]
pub struct Assertion(concord_runtime::jsonschema::Validator);

#[pymethods]
impl Assertion {
    #[new]
    fn new(document: &str, pointer: &str) -> PyResult<Self> {
        concord_runtime::assertion::build(document, pointer).map(Assertion).map_err(PyValueError::new_err)
    }

    /// The subschema at `pointer` of `documents[document]`, every document of
    /// the registry (as `(base URI, text)`) a resource, as in Rust.
    #[staticmethod]
    fn in_registry(documents: Vec<(String, String)>, document: usize, pointer: &str) -> PyResult<Self> {
        let documents: Vec<(&str, &str)> = documents.iter().map(|(uri, text)| (uri.as_str(), text.as_str())).collect();
        concord_runtime::assertion::build_in(&documents, document, pointer).map(Assertion).map_err(PyValueError::new_err)
    }

    /// `None`, or the failure as `(pointer, message)`.
    fn failure(&self, value: &Bound<'_, PyAny>) -> PyResult<Option<(String, String)>> {
        let value = to_value(value)?;
        Ok(concord_runtime::assertion::check_with(&self.0, &value).err().map(|failure| (failure.pointer, failure.message)))
    }

    /// `None`, or the failure as `(pointer, message)`, for a JSON document the
    /// strict reader already accepted (what `from_json` read).
    fn failure_json(&self, py: Python<'_>, data: &[u8]) -> PyResult<Option<(String, String)>> {
        py.detach(|| {
            let value: Value = serde_json::from_slice(data).map_err(|error| PyValueError::new_err(error.to_string()))?;
            Ok(concord_runtime::assertion::check_with(&self.0, &value).err().map(|failure| (failure.pointer, failure.message)))
        })
    }

    /// Raises `ValueError` with the failure's text (`Failure`'s Display in Rust).
    fn check(&self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let value = to_value(value)?;
        concord_runtime::assertion::check_with(&self.0, &value).map_err(|failure| PyValueError::new_err(failure.to_string()))
    }
}
