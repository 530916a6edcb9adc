//! Python JSON values (dict, list, tuple, str, int, float, bool, None) as
//! `serde_json::Value`, key order kept. `bool` is not an integer here (it is
//! a subclass of `int` in Python); integers beyond i64 and non-finite floats
//! are refused, as the strict profile refuses them on reading.

use concord_runtime::serde_json::{Map, Number, Value};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

pub fn to_value(object: &Bound<'_, PyAny>) -> PyResult<Value> {
    convert(object, 0)
}

/// The items of a list or tuple.
pub fn to_values(object: &Bound<'_, PyAny>) -> PyResult<Vec<Value>> {
    match to_value(object)? {
        Value::Array(items) => Ok(items),
        _ => Err(PyTypeError::new_err("not a list")),
    }
}

fn convert(object: &Bound<'_, PyAny>, depth: usize) -> PyResult<Value> {
    if depth > concord_runtime::strict::MAX_DEPTH {
        return Err(PyValueError::new_err(format!("nesting deeper than {} levels", concord_runtime::strict::MAX_DEPTH)));
    }
    if object.is_none() {
        Ok(Value::Null)
    } else if let Ok(boolean) = object.cast::<PyBool>() {
        Ok(Value::Bool(boolean.is_true()))
    } else if let Ok(integer) = object.cast::<PyInt>() {
        integer.extract::<i64>().map(Value::from).map_err(|_| PyValueError::new_err("an integer beyond 64 bits"))
    } else if let Ok(float) = object.cast::<PyFloat>() {
        Number::from_f64(float.value()).map(Value::Number).ok_or_else(|| PyValueError::new_err("a non-finite float is not JSON"))
    } else if let Ok(text) = object.cast::<PyString>() {
        Ok(Value::String(text.to_str()?.to_owned()))
    } else if let Ok(list) = object.cast::<PyList>() {
        list.iter().map(|item| convert(&item, depth + 1)).collect::<PyResult<_>>().map(Value::Array)
    } else if let Ok(tuple) = object.cast::<PyTuple>() {
        tuple.iter().map(|item| convert(&item, depth + 1)).collect::<PyResult<_>>().map(Value::Array)
    } else if let Ok(dict) = object.cast::<PyDict>() {
        let mut map = Map::with_capacity(dict.len());
        for (key, item) in dict.iter() {
            let key = key.cast::<PyString>().map_err(|_| PyTypeError::new_err("an object key that is not a str"))?;
            map.insert(key.to_str()?.to_owned(), convert(&item, depth + 1)?);
        }
        Ok(Value::Object(map))
    } else {
        Err(PyTypeError::new_err(format!("not a JSON value: {}", object.get_type().name()?)))
    }
}
