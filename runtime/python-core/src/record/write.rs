//! Writing: the models to concord's bytes in one pass, as pydantic-core's
//! model serializer walks them with `by_alias` and `exclude_unset`
//! (`serializers/type_serializers/model.rs`: the entries of `__dict__` in
//! their order, those in `__pydantic_fields_set__`, then every kept unknown
//! key), so `to_json` need not have pydantic write the bytes and then pass
//! over them again. Each value is written by its node, and only when it is
//! of the node's Python type; strings are escaped as concord escapes them
//! (pydantic escapes alike), floats laid out by `concord_runtime::float`.
//! Whatever pydantic's path would refuse or write otherwise (a non-finite
//! float, negative zero, an unsafe integer, a lone surrogate, a key twice,
//! nesting past the reader's limit, a value of another type) gives `None`.

use super::{ModelNode, Node, RecordType};
use concord_runtime::canonical::Members;
use concord_runtime::float;
use concord_runtime::strict::{MAX_DEPTH, MAX_SAFE_INTEGER};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PySet, PyString, PyTuple};

/// Pydantic's path decides.
struct Refused;

type Written = Result<(), Refused>;

impl From<PyErr> for Refused {
    fn from(_: PyErr) -> Self {
        Refused
    }
}

/// `record`'s bytes as `to_json` writes them; with `canonical`, its canonical
/// form (RFC 8785: members in the UTF-16 order of their keys, no floats).
pub(super) fn write(record_type: &RecordType, record: &Bound<'_, PyAny>, canonical: bool) -> Option<Vec<u8>> {
    if !record_type.writable {
        return None;
    }
    let mut writer = Writer { out: Vec::with_capacity(256), depth: 0, canonical, members: Vec::new(), scratch: Vec::new() };
    writer.value(record_type, record_type.root, record).ok()?;
    Some(writer.out)
}

struct Writer {
    out: Vec<u8>,
    depth: usize,
    /// The canonical form (RFC 8785): each object's members moved into key order.
    canonical: bool,
    /// The members of each open object, by depth (reused across objects; canonical only).
    members: Vec<Members>,
    scratch: Vec<u8>,
}

/// An object being written: whether a member was, and (canonical) where each stands.
struct Object {
    depth: usize,
    first: bool,
}

impl Writer {
    fn begin_object(&mut self) -> Result<Object, Refused> {
        self.open(b'{')?;
        let depth = self.depth;
        if self.canonical {
            if self.members.len() <= depth {
                self.members.resize_with(depth + 1, Members::default);
            }
            self.members[depth].clear();
        }
        Ok(Object { depth, first: true })
    }

    /// Before a member's key: its separator; returns where the member starts.
    fn begin_member(&mut self, object: &mut Object) -> usize {
        if !object.first {
            self.out.push(b',');
        }
        object.first = false;
        self.out.len()
    }

    /// After a member's key (with its colon).
    fn keyed(&mut self, object: &Object, start: usize) -> Written {
        if self.canonical {
            self.members[object.depth].keyed(&self.out, start).ok_or(Refused)?;
        }
        Ok(())
    }

    fn end_member(&mut self, object: &Object) {
        if self.canonical {
            self.members[object.depth].ended(self.out.len());
        }
    }

    fn end_object(&mut self, object: Object) -> Written {
        if self.canonical {
            self.members[object.depth].order(&mut self.out, &mut self.scratch).ok_or(Refused)?;
        }
        self.close(b'}');
        Ok(())
    }

    fn open(&mut self, byte: u8) -> Written {
        if self.depth == MAX_DEPTH {
            return Err(Refused);
        }
        self.depth += 1;
        self.out.push(byte);
        Ok(())
    }

    fn close(&mut self, byte: u8) {
        self.depth -= 1;
        self.out.push(byte);
    }

    /// An array of `items`, each written by `each`.
    fn array<'py>(&mut self, items: impl Iterator<Item = Bound<'py, PyAny>>, mut each: impl FnMut(&mut Self, usize, &Bound<'py, PyAny>) -> Written) -> Written {
        self.open(b'[')?;
        for (at, item) in items.enumerate() {
            if at > 0 {
                self.out.push(b',');
            }
            each(self, at, &item)?;
        }
        self.close(b']');
        Ok(())
    }

    /// An object of a dict's entries (string keys), each value written by `each`.
    fn object<'py>(&mut self, dict: &Bound<'py, PyDict>, mut each: impl FnMut(&mut Self, &Bound<'py, PyAny>) -> Written) -> Written {
        let mut object = self.begin_object()?;
        for (key, item) in dict.iter() {
            let start = self.begin_member(&mut object);
            self.string(&key)?;
            self.out.push(b':');
            self.keyed(&object, start)?;
            each(self, &item)?;
            self.end_member(&object);
        }
        self.end_object(object)
    }

    fn string(&mut self, value: &Bound<'_, PyAny>) -> Written {
        let text = value.cast_exact::<PyString>().map_err(|_| Refused)?;
        // A lone surrogate has no UTF-8: pydantic's path names it.
        concord_runtime::profile::write_string_bytes(&mut self.out, text.to_str()?);
        Ok(())
    }

    fn integer(&mut self, value: &Bound<'_, PyAny>) -> Written {
        let integer: i64 = value.cast_exact::<PyInt>().map_err(|_| Refused)?.extract()?;
        if integer.unsigned_abs() > MAX_SAFE_INTEGER as u64 {
            return Err(Refused);
        }
        let mut digits = [0u8; 20];
        let mut at = digits.len();
        let mut rest = integer.unsigned_abs();
        loop {
            at -= 1;
            digits[at] = b'0' + (rest % 10) as u8;
            rest /= 10;
            if rest == 0 {
                break;
            }
        }
        if integer < 0 {
            self.out.push(b'-');
        }
        self.out.extend_from_slice(&digits[at..]);
        Ok(())
    }

    fn float(&mut self, value: &Bound<'_, PyAny>) -> Written {
        let number = value.cast_exact::<PyFloat>().map_err(|_| Refused)?.value();
        // A float has no canonical form (`jcs-rfc8785-integer-v1`): pydantic's path says so.
        if self.canonical || !number.is_finite() || (number == 0.0 && number.is_sign_negative()) {
            return Err(Refused);
        }
        float::write(&mut self.out, number);
        Ok(())
    }

    fn boolean(&mut self, value: &Bound<'_, PyAny>) -> Written {
        let flag = value.cast_exact::<PyBool>().map_err(|_| Refused)?.is_true();
        self.out.extend_from_slice(if flag { b"true" } else { b"false" });
        Ok(())
    }

    fn null(&mut self, value: &Bound<'_, PyAny>) -> Written {
        if !value.is_none() {
            return Err(Refused);
        }
        self.out.extend_from_slice(b"null");
        Ok(())
    }

    /// A value of `any`, by its Python type, as pydantic infers it: JSON's types only.
    fn any(&mut self, value: &Bound<'_, PyAny>) -> Written {
        if value.is_none() {
            self.null(value)
        } else if value.is_exact_instance_of::<PyString>() {
            self.string(value)
        } else if value.is_exact_instance_of::<PyBool>() {
            self.boolean(value)
        } else if value.is_exact_instance_of::<PyInt>() {
            self.integer(value)
        } else if value.is_exact_instance_of::<PyFloat>() {
            self.float(value)
        } else if let Ok(dict) = value.cast_exact::<PyDict>() {
            self.object(dict, |writer, item| writer.any(item))
        } else if let Ok(list) = value.cast_exact::<PyList>() {
            self.array(list.iter(), |writer, _, item| writer.any(item))
        } else if let Ok(tuple) = value.cast_exact::<PyTuple>() {
            self.array(tuple.iter(), |writer, _, item| writer.any(item))
        } else {
            Err(Refused)
        }
    }

    fn value(&mut self, record_type: &RecordType, index: usize, value: &Bound<'_, PyAny>) -> Written {
        match &record_type.nodes[index] {
            Node::Alias(inner) | Node::NotNull(inner) | Node::Check { inner, .. } | Node::Count { inner, .. } => self.value(record_type, *inner, value),
            Node::Any => self.any(value),
            Node::Str { .. } | Node::Literal(_) => self.string(value),
            Node::Int { .. } => self.integer(value),
            Node::Float { .. } => self.float(value),
            Node::Bool => self.boolean(value),
            Node::Null => self.null(value),
            Node::Nullable(inner) => {
                if value.is_none() {
                    self.null(value)
                } else {
                    self.value(record_type, *inner, value)
                }
            }
            Node::List { items, .. } => {
                let list = value.cast_exact::<PyList>().map_err(|_| Refused)?;
                self.array(list.iter(), |writer, _, item| writer.value(record_type, *items, item))
            }
            Node::Tuple(items) => {
                let tuple = value.cast_exact::<PyTuple>().map_err(|_| Refused)?;
                if tuple.len() != items.len() {
                    return Err(Refused);
                }
                self.array(tuple.iter(), |writer, at, item| writer.value(record_type, items[at], item))
            }
            Node::Dict { values, .. } => {
                let dict = value.cast_exact::<PyDict>().map_err(|_| Refused)?;
                self.object(dict, |writer, item| writer.value(record_type, *values, item))
            }
            Node::Tag { choices, .. } => {
                // The branch whose model the record is (pydantic asks the discriminator, which reads its tag).
                let choice = choices.iter().map(|(_, choice)| *choice).find(|&choice| is_model_of(record_type, choice, value)).ok_or(Refused)?;
                self.value(record_type, choice, value)
            }
            Node::JsonType { choices } => {
                let name = if value.is_none() {
                    "null"
                } else if value.is_exact_instance_of::<PyBool>() {
                    "boolean"
                } else if value.is_exact_instance_of::<PyInt>() {
                    if choices.iter().any(|(key, _)| key == "integer") {
                        "integer"
                    } else {
                        "number"
                    }
                } else if value.is_exact_instance_of::<PyFloat>() {
                    "number"
                } else if value.is_exact_instance_of::<PyString>() {
                    "string"
                } else if value.is_exact_instance_of::<PyList>() || value.is_exact_instance_of::<PyTuple>() {
                    "array"
                } else {
                    "object"
                };
                let (_, choice) = choices.iter().find(|(key, _)| key == name).ok_or(Refused)?;
                self.value(record_type, *choice, value)
            }
            Node::Root { class, inner } => {
                let py = value.py();
                if !value.get_type().is(class.bind(py)) {
                    return Err(Refused);
                }
                let set = value.getattr(intern!(py, "__pydantic_fields_set__"))?;
                if !set.cast_exact::<PySet>().map_err(|_| Refused)?.contains(intern!(py, "root"))? {
                    return Err(Refused);
                }
                self.value(record_type, *inner, &value.getattr(intern!(py, "root"))?)
            }
            Node::Model(model) => self.model(record_type, model, value),
        }
    }

    fn model(&mut self, record_type: &RecordType, model: &ModelNode, value: &Bound<'_, PyAny>) -> Written {
        let py = value.py();
        if !value.get_type().is(model.class.bind(py)) {
            return Err(Refused);
        }
        let dict = value.getattr(intern!(py, "__dict__"))?;
        let dict = dict.cast_exact::<PyDict>().map_err(|_| Refused)?;
        let set = value.getattr(intern!(py, "__pydantic_fields_set__"))?;
        let set = set.cast_exact::<PySet>().map_err(|_| Refused)?;
        let mut object = self.begin_object()?;
        let mut written: Vec<usize> = Vec::with_capacity(model.fields.len());
        let mut next = 0;
        let count = model.fields.len();
        for (name, item) in dict.iter() {
            if !set.contains(&name)? {
                continue;
            }
            let name = name.cast_exact::<PyString>().map_err(|_| Refused)?;
            // `__dict__` holds the fields in their order: the next one first.
            let same = |at: usize| {
                let field = model.fields[at].name.bind(py);
                field.is(name) || field.as_any().eq(name).unwrap_or(false)
            };
            let at = (0..count).map(|offset| (next + offset) % count).find(|&at| same(at)).ok_or(Refused)?;
            next = at + 1;
            let field = &model.fields[at];
            let start = self.begin_member(&mut object);
            self.out.extend_from_slice(&field.written);
            self.keyed(&object, start)?;
            self.value(record_type, field.node, &item)?;
            self.end_member(&object);
            written.push(at);
        }
        let extra = value.getattr(intern!(py, "__pydantic_extra__"))?;
        if let Ok(extra) = extra.cast_exact::<PyDict>() {
            for (key, item) in extra.iter() {
                let text = key.cast_exact::<PyString>().map_err(|_| Refused)?.to_str()?;
                // A kept key under a written property's JSON name: a key twice, which the writer refuses.
                if written.iter().any(|&at| model.fields[at].key == text) {
                    return Err(Refused);
                }
                let start = self.begin_member(&mut object);
                self.string(&key)?;
                self.out.push(b':');
                self.keyed(&object, start)?;
                match model.extras {
                    Some(node) => self.value(record_type, node, &item)?,
                    None => self.any(&item)?,
                }
                self.end_member(&object);
            }
        } else if !extra.is_none() {
            return Err(Refused);
        }
        self.end_object(object)
    }
}

/// Whether `value` is an instance of exactly the model node `index` stands for.
fn is_model_of(record_type: &RecordType, mut index: usize, value: &Bound<'_, PyAny>) -> bool {
    loop {
        match &record_type.nodes[index] {
            Node::Alias(inner) | Node::Check { inner, .. } | Node::Count { inner, .. } => index = *inner,
            Node::Model(model) => return value.get_type().is(model.class.bind(value.py())),
            _ => return false,
        }
    }
}
