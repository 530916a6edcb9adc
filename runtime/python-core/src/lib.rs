//! `concord_runtime._core`: the compiled core of concord's Python runtime,
//! built on the Rust runtime (`concord-runtime`) so that both languages share
//! one implementation of the strict reader, canonical JSON and the float
//! layout. The pure-Python implementations stay in `concord_runtime` as the
//! test oracle; tests run both over every vector and require the same results.
//!
//! Refusals raise the Python runtime's own exception classes
//! (`concord_runtime.strict.JsonError`, `concord_runtime.canonical.CanonicalError`,
//! `concord_runtime.RecordError`), with the same fields and messages.

mod checks;
mod json_value;
mod record;
mod relayout;

use concord_runtime::canonical::{self, CanonicalError};
use concord_runtime::strict::{self, JsonError, Limits};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// Raises the Python exception `module.class(*arguments)`.
fn raise<'py, A>(py: Python<'py>, module: &str, class: &str, arguments: A) -> PyErr
where
    A: pyo3::call::PyCallArgs<'py>,
{
    match py.import(module).and_then(|module| module.getattr(class)).and_then(|class| class.call1(arguments)) {
        Ok(error) => PyErr::from_value(error),
        Err(error) => error,
    }
}

pub(crate) fn json_error(py: Python<'_>, error: JsonError) -> PyErr {
    raise(py, "concord_runtime.strict", "JsonError", (error.kind.name(), error.offset, error.message))
}

fn canonical_error(py: Python<'_>, error: CanonicalError) -> PyErr {
    match error {
        CanonicalError::Read(error) => json_error(py, error),
        CanonicalError::NotCanonical { pointer, message } => raise(py, "concord_runtime.canonical", "CanonicalError", (pointer, message)),
    }
}

/// Checks `data` under the strict profile; raises `JsonError` with the first problem.
#[pyfunction]
fn check(py: Python<'_>, data: &[u8], max_bytes: usize) -> PyResult<()> {
    py.detach(|| strict::check_with(data, Limits { max_bytes })).map_err(|error| json_error(py, error))
}

/// Whether the fast scan alone accepts `data` (for tests: it must never
/// accept what the reference refuses).
#[pyfunction]
fn scan_accepts(data: &[u8]) -> bool {
    concord_runtime::scan::accepts(data)
}

/// The reference reader's verdict alone (for tests).
#[pyfunction]
fn check_reference(py: Python<'_>, data: &[u8], max_bytes: usize) -> PyResult<()> {
    py.detach(|| strict::read_with(data, Limits { max_bytes }).map(drop)).map_err(|error| json_error(py, error))
}

/// Reads `data` strictly and returns its canonical bytes (`jcs-rfc8785-integer-v1`).
#[pyfunction]
fn canonicalize<'py>(py: Python<'py>, data: &[u8], max_bytes: usize) -> PyResult<Bound<'py, PyBytes>> {
    let bytes = py
        .detach(|| strict::read_with(data, Limits { max_bytes }).map_err(CanonicalError::Read).and_then(|value| canonical::to_bytes(&value)))
        .map_err(|error| canonical_error(py, error))?;
    Ok(PyBytes::new(py, &bytes))
}

/// `sha256:<hex>` over the canonical form of `data`.
#[pyfunction]
fn digest_json(py: Python<'_>, data: &[u8], max_bytes: usize) -> PyResult<String> {
    let bytes = canonicalize(py, data, max_bytes)?;
    Ok(canonical::digest_bytes(bytes.as_bytes()))
}

/// The digest of a record from pydantic's JSON of it, or `None` when it has
/// none (a float, an unsafe integer, ...): the caller then asks the oracle,
/// which walks the record in canonical order, to name the first problem.
#[pyfunction]
fn record_digest(py: Python<'_>, dump: &[u8]) -> Option<String> {
    py.detach(|| canonical::digest_compact(dump).ok())
}

/// The canonical bytes of compact JSON as pydantic writes it, by the fast
/// path of `record_digest` alone (for tests), or `None` where it defers.
#[pyfunction]
fn canonical_of_compact<'py>(py: Python<'py>, dump: &[u8]) -> Option<Bound<'py, PyBytes>> {
    canonical::from_compact(dump).map(|bytes| PyBytes::new(py, &bytes))
}

/// concord's bytes for pydantic's compact JSON of a record: floats laid out
/// by `concord_runtime::float`; non-finite floats, negative zero and unsafe
/// integers refused with `RecordError` at their pointer.
#[pyfunction]
fn write_record<'py>(py: Python<'py>, dump: Bound<'py, PyBytes>) -> PyResult<Bound<'py, PyBytes>> {
    let input = dump.as_bytes();
    match py.detach(|| relayout::relayout(input)) {
        Ok(None) => Ok(dump),
        Ok(Some(bytes)) => Ok(PyBytes::new(py, &bytes)),
        Err(refusal) => Err(raise(py, "concord_runtime._json", "RecordError", (refusal.pointer, refusal.message))),
    }
}

/// concord's text for a finite float that is not negative zero.
#[pyfunction]
fn format_float(value: f64) -> PyResult<String> {
    if !value.is_finite() || (value == 0.0 && value.is_sign_negative()) {
        return Err(PyValueError::new_err(format!("{value} has no JSON layout")));
    }
    Ok(concord_runtime::float::format(value))
}

/// The byte ranges `(start, end)` of a top-level JSON array's items
/// (`concord_runtime::batch::array_items`); raises `JsonError` for an input
/// that is no array of items.
#[pyfunction]
fn array_items(py: Python<'_>, data: &[u8]) -> PyResult<Vec<(usize, usize)>> {
    py.detach(|| concord_runtime::batch::array_items(data))
        .map(|items| items.into_iter().map(|range| (range.start, range.end)).collect())
        .map_err(|error| json_error(py, error))
}

/// `sha256:<hex>` over exact bytes.
#[pyfunction]
fn digest_bytes(data: &[u8]) -> String {
    canonical::digest_bytes(data)
}

/// The line and column of byte `offset` of the input `name`, and the line
/// with a caret (`concord_runtime::location`), as `concord json` shows them.
#[pyfunction]
fn location_at(data: &[u8], offset: usize, name: &str) -> String {
    concord_runtime::location::at_offset(data, offset, name)
}

/// The same for where a JSON pointer stands in the input, if it is JSON up to there.
#[pyfunction]
fn location_of(data: &[u8], pointer: &str, name: &str) -> Option<String> {
    concord_runtime::location::at_pointer(data, pointer, name)
}

/// The 1-based line and column of byte `offset` of `data`.
#[pyfunction]
fn line_and_column(data: &[u8], offset: usize) -> (usize, usize) {
    concord_runtime::location::line_and_column(data, offset)
}

/// The byte offset and width of where a JSON pointer stands in `data`, if it is JSON up to there.
#[pyfunction]
fn pointer_place(data: &[u8], pointer: &str) -> Option<(usize, usize)> {
    concord_runtime::location::pointer_place(data, pointer)
}

#[pymodule]
fn _core(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(check, module)?)?;
    module.add_function(wrap_pyfunction!(location_at, module)?)?;
    module.add_function(wrap_pyfunction!(location_of, module)?)?;
    module.add_function(wrap_pyfunction!(line_and_column, module)?)?;
    module.add_function(wrap_pyfunction!(pointer_place, module)?)?;
    module.add_function(wrap_pyfunction!(scan_accepts, module)?)?;
    module.add_function(wrap_pyfunction!(check_reference, module)?)?;
    module.add_function(wrap_pyfunction!(canonicalize, module)?)?;
    module.add_function(wrap_pyfunction!(digest_json, module)?)?;
    module.add_function(wrap_pyfunction!(record_digest, module)?)?;
    module.add_function(wrap_pyfunction!(canonical_of_compact, module)?)?;
    module.add_function(wrap_pyfunction!(write_record, module)?)?;
    module.add_function(wrap_pyfunction!(format_float, module)?)?;
    module.add_function(wrap_pyfunction!(digest_bytes, module)?)?;
    module.add_function(wrap_pyfunction!(array_items, module)?)?;
    module.add_class::<record::RecordType>()?;
    module.add_class::<record::Plan>()?;
    checks::register(module)?;
    Ok(())
}
