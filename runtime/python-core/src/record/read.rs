//! Reading: JSON bytes to the models, the way pydantic-core's
//! `validators/model.rs` builds them (the instance made by the type's
//! `tp_new`, then `__dict__`, `__pydantic_extra__`, `__pydantic_private__`
//! and `__pydantic_fields_set__` set directly), so `from_json` need not check
//! the bytes and then have pydantic parse them a second time. The parser
//! applies the strict profile as it reads, with the profile's own rules
//! (`concord_runtime::profile`: the input's size, byte order mark and UTF-8
//! first, then strings, escapes, numbers, nesting and duplicate keys where
//! they stand; a value it drops goes through `concord_runtime::scan`), so no
//! pass checks the bytes before it. On any refusal the strict check reads the
//! input again and names the profile's problem, if there is one; else
//! pydantic's path decides, as for any type refusal.

use super::{Extra, Fnv, ModelNode, Node, RecordType, ValueCheck};
use crate::json_error;
use concord_runtime::profile::{self, Number};
use concord_runtime::strict::{self, Limits};
use pyo3::exceptions::PyValueError;
use pyo3::ffi;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyFrozenSet, PyList, PySet, PyString, PyTuple, PyType};
use std::borrow::Cow;
use std::collections::HashMap;
use std::collections::HashSet;
use std::hash::BuildHasherDefault;
use std::hash::Hasher;

/// A refusal, or an error a check raised: either way pydantic's path decides.
struct Refused;

type Read<T> = Result<T, Refused>;

impl From<std::convert::Infallible> for Refused {
    fn from(never: std::convert::Infallible) -> Self {
        match never {}
    }
}

impl From<PyErr> for Refused {
    fn from(_: PyErr) -> Self {
        Refused
    }
}

/// Inputs at least this long are checked with the GIL released; below it,
/// releasing and taking it back costs more than the check.
const DETACHED: usize = 64 * 1024;

pub(super) fn read<'py>(record: &RecordType, py: Python<'py>, data: &[u8], max_bytes: usize) -> PyResult<Option<Bound<'py, PyAny>>> {
    // The rules on the input as a whole: its size, no byte order mark, UTF-8 throughout.
    if profile::input(data, max_bytes).is_ok() {
        // The type's string cache, kept from read to read; a read while another holds it (a check
        // of the user's that reads a record, another thread while a check runs) keeps its own.
        let mut own = Keys::default();
        let mut shared = record.keys.try_lock().ok();
        let keys = match shared.as_deref_mut() {
            Some(keys) => keys,
            None => &mut own,
        };
        let mut parser = Parser { input: data, pos: 0, depth: 0, slots: Vec::new(), py, keys };
        parser.ws();
        if let Ok(value) = parser.value(record, record.root) {
            if parser.pos == data.len() {
                return Ok(Some(value));
            }
        }
    }
    // Refused, by the profile or by the type: the strict check names the profile's problem, if any.
    let limits = Limits { max_bytes };
    let checked = if data.len() >= DETACHED { py.detach(|| strict::check_with(data, limits)) } else { strict::check_with(data, limits) };
    checked.map_err(|error| json_error(py, error))?;
    Ok(None)
}

/// The keys met in one object that no field of its model reads, to refuse one met twice
/// (a field's own key is refused twice by its slot).
#[derive(Default)]
struct Unknown<'a> {
    list: Vec<Cow<'a, str>>,
    set: HashSet<Cow<'a, str>>,
}

impl<'a> Unknown<'a> {
    /// Past this many keys, they go into a hash set.
    const LINEAR: usize = 16;

    fn insert(&mut self, key: Cow<'a, str>) -> Read<()> {
        if self.list.len() < Self::LINEAR {
            if self.list.contains(&key) {
                return Err(Refused);
            }
            self.list.push(key);
            return Ok(());
        }
        if self.set.is_empty() {
            self.set.extend(self.list.iter().cloned());
        }
        if self.set.insert(key) {
            Ok(())
        } else {
            Err(Refused)
        }
    }
}

/// Short strings (object keys, and the values `any` reads) made into Python
/// strings once, by their bytes: records repeat them, as pydantic's own
/// string cache knows (its `cache_strings`).
#[derive(Default)]
pub(super) struct Keys {
    slots: Vec<Option<Cached>>,
    /// The names of the fields read, as a frozenset (`__pydantic_fields_set__` is a copy):
    /// by the model (its address) and which of its fields were read, a bit each.
    sets: HashMap<(usize, u64), Py<PyFrozenSet>, BuildHasherDefault<Fnv>>,
}

/// A string's bytes as they stand in the input, and the Python string made of them.
type Cached = (Box<[u8]>, Py<PyString>);

impl Keys {
    const SIZE: usize = 256;

    fn get<'py>(&mut self, py: Python<'py>, raw: &[u8], text: &str) -> Bound<'py, PyString> {
        if raw.len() > 32 {
            return PyString::new(py, text);
        }
        if self.slots.is_empty() {
            self.slots.resize_with(Self::SIZE, || None);
        }
        let mut hasher = Fnv::default();
        hasher.write(raw);
        let slot = &mut self.slots[(hasher.finish() as usize) % Self::SIZE];
        if let Some((bytes, string)) = slot {
            if **bytes == *raw {
                return string.bind(py).clone();
            }
        }
        let string = PyString::new(py, text);
        *slot = Some((raw.into(), string.clone().unbind()));
        string
    }

    /// The names of `model`'s fields whose bit is set in `read`.
    fn fields_set<'py>(&mut self, py: Python<'py>, model: &ModelNode, read: u64) -> PyResult<Bound<'py, PyFrozenSet>> {
        let key = (std::ptr::from_ref(model) as usize, read);
        if let Some(names) = self.sets.get(&key) {
            return Ok(names.bind(py).clone());
        }
        // Each model reads few sets of fields; an input that reads many keeps the table small.
        if self.sets.len() >= 4096 {
            self.sets.clear();
        }
        let names = PyFrozenSet::new(py, model.fields.iter().enumerate().filter(|(at, _)| read >> at & 1 == 1).map(|(_, field)| field.name.bind(py)))?;
        self.sets.insert(key, names.clone().unbind());
        Ok(names)
    }
}

struct Parser<'a, 'py, 'k> {
    input: &'a [u8],
    pos: usize,
    /// How many arrays and objects are open around the cursor.
    depth: usize,
    /// Buffers for the values of a model's fields, kept from model to model.
    slots: Vec<Vec<Option<Bound<'py, PyAny>>>>,
    py: Python<'py>,
    keys: &'k mut Keys,
}

impl<'a, 'py> Parser<'a, 'py, '_> {
    fn ws(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.input.get(self.pos) {
            self.pos += 1;
        }
    }

    fn peek(&self) -> u8 {
        self.input.get(self.pos).copied().unwrap_or(0)
    }

    /// Past `byte` and the whitespace after it, or a refusal.
    fn expect(&mut self, byte: u8) -> Read<()> {
        if self.peek() != byte {
            return Err(Refused);
        }
        self.pos += 1;
        self.ws();
        Ok(())
    }

    /// After a member or an item: whether another follows (past its comma).
    fn more(&mut self, close: u8) -> Read<bool> {
        self.ws();
        match self.peek() {
            b',' => {
                self.pos += 1;
                self.ws();
                Ok(true)
            }
            byte if byte == close => {
                self.pos += 1;
                self.ws();
                Ok(false)
            }
            _ => Err(Refused),
        }
    }

    /// The string at the cursor (its quote), unescaped, and its raw bytes; a control
    /// character, a bad escape or a lone surrogate is refused (the profile's string rules).
    fn string(&mut self) -> Read<(Cow<'a, str>, &'a [u8])> {
        let input = self.input;
        if self.peek() != b'"' {
            return Err(Refused);
        }
        let start = self.pos + 1;
        let mut pos = plain(input, start);
        if input.get(pos) == Some(&b'"') {
            self.pos = pos + 1;
            let raw = &input[start..pos];
            return Ok((Cow::Borrowed(text(raw)?), raw));
        }
        let mut unescaped = String::from(text(&input[start..pos])?);
        loop {
            match input.get(pos) {
                Some(b'"') => break,
                Some(b'\\') => {
                    let (character, next) = profile::escape(input, pos).map_err(|_| Refused)?;
                    unescaped.push(character);
                    pos = next;
                    let run = pos;
                    pos = plain(input, pos);
                    unescaped.push_str(text(&input[run..pos])?);
                }
                // A control character, or the end of the input.
                _ => return Err(Refused),
            }
        }
        self.pos = pos + 1;
        Ok((Cow::Owned(unescaped), &input[start..pos]))
    }

    /// The number at the cursor, as the profile reads it (an integer within ±(2^53-1), a
    /// finite float, neither negative zero).
    fn number(&mut self) -> Read<Number> {
        let literal = profile::literal(self.input, self.pos).ok_or(Refused)?;
        self.pos = literal.end;
        // The literal is ASCII, within the input, which is UTF-8.
        profile::number(text(&self.input[..literal.end])?, &literal).map_err(|_| Refused)
    }

    /// Past the literal `word` (`true`, `false`, `null`).
    fn word(&mut self, word: &[u8]) -> Read<()> {
        if self.input.get(self.pos..self.pos + word.len()) != Some(word) {
            return Err(Refused);
        }
        self.pos += word.len();
        Ok(())
    }

    /// Reads the object at the cursor member by member: `each` gets the key
    /// (unescaped, and its bytes as they stand) with the cursor at the value,
    /// and reads past the value. The cursor ends past the object and its whitespace.
    fn object(&mut self, mut each: impl FnMut(&mut Self, Cow<'a, str>, &'a [u8]) -> Read<()>) -> Read<()> {
        // Even an empty one counts towards the depth.
        profile::nest(self.depth).map_err(|_| Refused)?;
        self.expect(b'{')?;
        if self.peek() == b'}' {
            self.pos += 1;
            self.ws();
            return Ok(());
        }
        self.depth += 1;
        loop {
            let (key, raw) = self.string()?;
            self.ws();
            self.expect(b':')?;
            each(self, key, raw)?;
            if !self.more(b'}')? {
                self.depth -= 1;
                return Ok(());
            }
        }
    }

    /// Reads the array at the cursor item by item, as [`Parser::object`] reads members.
    fn array(&mut self, mut each: impl FnMut(&mut Self) -> Read<()>) -> Read<()> {
        // Even an empty one counts towards the depth.
        profile::nest(self.depth).map_err(|_| Refused)?;
        self.expect(b'[')?;
        if self.peek() == b']' {
            self.pos += 1;
            self.ws();
            return Ok(());
        }
        self.depth += 1;
        loop {
            each(self)?;
            if !self.more(b']')? {
                self.depth -= 1;
                return Ok(());
            }
        }
    }

    /// Past the value at the cursor and its whitespace, unread: the strict profile's fast
    /// check scans it, and refuses what it is not certain of.
    fn skip(&mut self) -> Read<()> {
        self.pos = concord_runtime::scan::value(self.input, self.pos, self.depth).ok_or(Refused)?;
        Ok(())
    }

    /// How many members the object at the cursor has; the cursor stays.
    fn members(&mut self) -> Read<usize> {
        let start = self.pos;
        let mut count = 0;
        self.object(|parser, _, _| {
            count += 1;
            parser.skip()
        })?;
        self.pos = start;
        Ok(count)
    }

    /// The string value of `property` at the top of the object at the cursor, which is left unread.
    fn tag(&mut self, property: &str) -> Read<Option<Cow<'a, str>>> {
        let start = self.pos;
        let mut found = None;
        if self.peek() == b'{' {
            self.pos += 1;
            self.ws();
            if self.peek() != b'}' {
                loop {
                    let (key, _) = self.string()?;
                    self.ws();
                    self.expect(b':')?;
                    if key == property {
                        if self.peek() == b'"' {
                            found = Some(self.string()?.0);
                        }
                        break;
                    }
                    self.skip()?;
                    if !self.more(b'}')? {
                        break;
                    }
                }
            }
        }
        self.pos = start;
        Ok(found)
    }

    /// A JSON value as pydantic's `any` gives it: dict, list, str, int, float, bool, None.
    fn any(&mut self) -> Read<Bound<'py, PyAny>> {
        let py = self.py;
        let value = match self.peek() {
            b'"' => {
                let (text, raw) = self.string()?;
                self.keys.get(py, raw, &text).into_any()
            }
            b'{' => {
                let dict = PyDict::new(py);
                self.object(|parser, key, raw| {
                    let key = parser.keys.get(py, raw, &key);
                    let before = dict.len();
                    dict.set_item(key, parser.any()?)?;
                    // A key met twice.
                    if dict.len() == before {
                        return Err(Refused);
                    }
                    Ok(())
                })?;
                return Ok(dict.into_any());
            }
            b'[' => {
                let mut items = Vec::new();
                self.array(|parser| {
                    items.push(parser.any()?);
                    Ok(())
                })?;
                return Ok(PyList::new(py, items)?.into_any());
            }
            b't' => {
                self.word(b"true")?;
                PyBool::new(py, true).to_owned().into_any()
            }
            b'f' => {
                self.word(b"false")?;
                PyBool::new(py, false).to_owned().into_any()
            }
            b'n' => {
                self.word(b"null")?;
                py.None().into_bound(py)
            }
            _ => match self.number()? {
                Number::Integer(value) => value.into_pyobject(py)?.into_any(),
                Number::Float(value) => PyFloat::new(py, value).into_any(),
            },
        };
        self.ws();
        Ok(value)
    }

    /// The value at the cursor as node `index` reads it, and the cursor past it and its whitespace.
    fn value(&mut self, reader: &RecordType, index: usize) -> Read<Bound<'py, PyAny>> {
        let py = self.py;
        let value = match &reader.nodes[index] {
            Node::Alias(inner) => return self.value(reader, *inner),
            Node::Any => return self.any(),
            Node::Str { min, max, pattern } => {
                let (text, _) = self.string()?;
                if min.is_some() || max.is_some() {
                    let length = text.chars().count();
                    if min.is_some_and(|min| length < min) || max.is_some_and(|max| length > max) {
                        return Err(Refused);
                    }
                }
                if pattern.as_ref().is_some_and(|pattern| !pattern.any_match(&text)) {
                    return Err(Refused);
                }
                PyString::new(py, &text).into_any()
            }
            Node::Int { min, max, multiple } => {
                let Number::Integer(value) = self.number()? else {
                    return Err(Refused);
                };
                if value < *min || value > *max || multiple.is_some_and(|multiple| value % multiple != 0) {
                    return Err(Refused);
                }
                value.into_pyobject(py)?.into_any()
            }
            Node::Float { ge, le, gt, lt } => {
                let value = match self.number()? {
                    // Exact: the profile's integers are safe.
                    Number::Integer(value) => value as f64,
                    Number::Float(value) => value,
                };
                if ge.is_some_and(|ge| value < ge) || le.is_some_and(|le| value > le) || gt.is_some_and(|gt| value <= gt) || lt.is_some_and(|lt| value >= lt) {
                    return Err(Refused);
                }
                PyFloat::new(py, value).into_any()
            }
            Node::Bool => match self.peek() {
                b't' => {
                    self.word(b"true")?;
                    PyBool::new(py, true).to_owned().into_any()
                }
                b'f' => {
                    self.word(b"false")?;
                    PyBool::new(py, false).to_owned().into_any()
                }
                _ => return Err(Refused),
            },
            Node::Null => {
                self.word(b"null")?;
                py.None().into_bound(py)
            }
            Node::Literal(values) => {
                let (text, _) = self.string()?;
                let (_, value) = values.iter().find(|(known, _)| *known == text).ok_or(Refused)?;
                value.bind(py).clone()
            }
            Node::Nullable(inner) => {
                if self.peek() == b'n' {
                    self.word(b"null")?;
                    py.None().into_bound(py)
                } else {
                    return self.value(reader, *inner);
                }
            }
            Node::NotNull(inner) => {
                if self.peek() == b'n' {
                    return Err(Refused);
                }
                return self.value(reader, *inner);
            }
            Node::List { items, min, max } => {
                let mut values = Vec::new();
                self.array(|parser| {
                    values.push(parser.value(reader, *items)?);
                    Ok(())
                })?;
                if min.is_some_and(|min| values.len() < min) || max.is_some_and(|max| values.len() > max) {
                    return Err(Refused);
                }
                PyList::new(py, values)?.into_any()
            }
            Node::Tuple(items) => {
                let mut values = Vec::with_capacity(items.len());
                self.array(|parser| {
                    let item = *items.get(values.len()).ok_or(Refused)?;
                    values.push(parser.value(reader, item)?);
                    Ok(())
                })?;
                if values.len() != items.len() {
                    return Err(Refused);
                }
                PyTuple::new(py, values)?.into_any()
            }
            Node::Count { min, max, inner } => {
                if self.peek() == b'{' {
                    let members = self.members()?;
                    if min.is_some_and(|min| members < min) || max.is_some_and(|max| members > max) {
                        return Err(Refused);
                    }
                }
                return self.value(reader, *inner);
            }
            Node::Dict { values, min, max } => {
                let dict = PyDict::new(py);
                self.object(|parser, key, raw| {
                    let key = parser.keys.get(py, raw, &key);
                    let before = dict.len();
                    dict.set_item(key, parser.value(reader, *values)?)?;
                    // A key met twice.
                    if dict.len() == before {
                        return Err(Refused);
                    }
                    Ok(())
                })?;
                if min.is_some_and(|min| dict.len() < min) || max.is_some_and(|max| dict.len() > max) {
                    return Err(Refused);
                }
                dict.into_any()
            }
            Node::Check { check, inner } => {
                let value = self.value(reader, *inner)?;
                check.holds(&value)?;
                return Ok(value);
            }
            Node::Tag { property, choices } => {
                let tag = self.tag(property)?.ok_or(Refused)?;
                let (_, choice) = choices.iter().find(|(key, _)| *key == tag).ok_or(Refused)?;
                return self.value(reader, *choice);
            }
            Node::JsonType { choices } => {
                let name = match self.peek() {
                    b'n' => "null",
                    b't' | b'f' => "boolean",
                    b'"' => "string",
                    b'[' => "array",
                    b'{' => "object",
                    _ => {
                        let start = self.pos;
                        let integer = matches!(self.number()?, Number::Integer(_));
                        self.pos = start;
                        if integer && choices.iter().any(|(key, _)| key == "integer") {
                            "integer"
                        } else {
                            "number"
                        }
                    }
                };
                let (_, choice) = choices.iter().find(|(key, _)| key == name).ok_or(Refused)?;
                return self.value(reader, *choice);
            }
            Node::Root { class, inner } => {
                let value = self.value(reader, *inner)?;
                let instance = new_instance(class.bind(py))?;
                set(&instance, intern!(py, "__pydantic_fields_set__"), &PySet::new(py, [intern!(py, "root")])?.into_any())?;
                set(&instance, intern!(py, "root"), &value)?;
                return Ok(instance);
            }
            Node::Model(model) => return self.model(reader, model),
        };
        self.ws();
        Ok(value)
    }

    fn model(&mut self, reader: &RecordType, model: &ModelNode) -> Read<Bound<'py, PyAny>> {
        let py = self.py;
        // The values read, by field: a buffer of the parser's, kept for the next model.
        let mut slots = self.slots.pop().unwrap_or_default();
        slots.resize(model.fields.len(), None);
        let extra = matches!(model.extra, Extra::Allow | Extra::Matching(_)).then(|| PyDict::new(py));
        let mut extra_keys: Vec<Bound<'py, PyString>> = Vec::new();
        let mut unknown = Unknown::default();
        // Properties usually come in the order the schema lists them.
        let mut next = 0;
        let count = model.fields.len();
        self.object(|parser, key, raw| {
            // The next field first; a large model by its index, a small one by a look round.
            let found = if count > 0 && model.fields[next % count].key == key {
                Some(next % count)
            } else if let Some(index) = &model.index {
                index.get(key.as_ref()).copied()
            } else {
                (0..count).map(|offset| (next + offset) % count).find(|&at| model.fields[at].key == key)
            };
            if let Some(at) = found {
                if slots[at].is_some() {
                    return Err(Refused); // a key met twice
                }
                slots[at] = Some(parser.value(reader, model.fields[at].node)?);
                next = at + 1;
                return Ok(());
            }
            unknown.insert(key.clone())?;
            match &extra {
                // A key no pattern matches is dropped, as at every default-policy type.
                Some(_) if matches!(&model.extra, Extra::Matching(patterns) if !patterns.any_match(&key)) => parser.skip(),
                Some(extra) => {
                    let key = parser.keys.get(py, raw, &key);
                    let value = match model.extras {
                        Some(node) => parser.value(reader, node)?,
                        None => parser.any()?,
                    };
                    extra.set_item(&key, value)?;
                    extra_keys.push(key);
                    Ok(())
                }
                None if matches!(model.extra, Extra::Forbid) => Err(Refused),
                None => parser.skip(),
            }
        })?;
        if let Some((field, versions)) = &model.version {
            if let Some(version) = &slots[*field] {
                if !versions.contains(&version.extract::<i64>()?) {
                    return Err(Refused);
                }
            }
        }
        // `__dict__`: a copy of the model's dict of defaults (no key hashed, no table grown),
        // then each value read in its place.
        let dict = model.defaults.bind(py).copy()?;
        // Which fields were read, a bit each.
        let (mut one, mut many) = ([0u64; 1], Vec::new());
        let read: &mut [u64] = if model.fields.len() <= 64 {
            &mut one
        } else {
            many.resize(model.fields.len().div_ceil(64), 0);
            &mut many
        };
        for (at, (field, slot)) in model.fields.iter().zip(slots.drain(..)).enumerate() {
            match slot {
                Some(value) => {
                    dict.set_item(field.name.bind(py), value)?;
                    read[at / 64] |= 1 << (at % 64);
                }
                None if field.default.is_none() => return Err(Refused),
                None => {}
            }
        }
        self.slots.push(slots);
        let fields_set = if model.fields.len() <= 64 {
            // The names of the fields read, a set copied whole from the one kept for them.
            let names = self.keys.fields_set(py, model, read[0])?;
            // SAFETY: `names` is a live frozenset; `PySet_New` returns a new reference or null with an exception set.
            unsafe { Bound::from_owned_ptr_or_err(py, ffi::PySet_New(names.as_ptr()))?.cast_into::<PySet>().map_err(PyErr::from)? }
        } else {
            let fields_set = PySet::empty(py)?;
            for (at, field) in model.fields.iter().enumerate() {
                if was_read(read, at) {
                    fields_set.add(field.name.bind(py))?;
                }
            }
            fields_set
        };
        // A kept key spelled like a renamed field's Python name: pydantic counts it as setting
        // that field too (its issue 7700), and `_model._unmark_unread` takes that back when the
        // field's own JSON name was not read. The set is the one that leaves.
        for key in extra_keys {
            let text = key.to_str()?;
            let unread = model.fields.iter().enumerate().any(|(at, field)| field.renamed.as_deref() == Some(text) && !was_read(read, at));
            if !unread {
                fields_set.add(key)?;
            }
        }
        let instance = match model.alloc {
            Some(alloc) => allocate(model.class.bind(py), alloc)?,
            None => new_instance(model.class.bind(py))?,
        };
        set(&instance, intern!(py, "__dict__"), &dict)?;
        match extra {
            Some(extra) => set(&instance, intern!(py, "__pydantic_extra__"), &extra)?,
            None => set(&instance, intern!(py, "__pydantic_extra__"), &py.None().into_bound(py))?,
        }
        set(&instance, intern!(py, "__pydantic_private__"), &py.None().into_bound(py))?;
        set(&instance, intern!(py, "__pydantic_fields_set__"), fields_set.as_any())?;
        Ok(instance)
    }
}

/// Whether bit `at` of `read` is set.
fn was_read(read: &[u64], at: usize) -> bool {
    read[at / 64] >> (at % 64) & 1 == 1
}

/// The text of bytes inside the input, which `read` has checked as UTF-8 whole.
fn text(bytes: &[u8]) -> Read<&str> {
    // A run between quotes and escapes starts and ends at ASCII bytes, so it is UTF-8 too;
    // checking again costs a tenth of the read.
    debug_assert!(std::str::from_utf8(bytes).is_ok());
    // SAFETY: the whole input passed `profile::input` (UTF-8 throughout) before the parser
    // ran, and `bytes` is a run of it cut at ASCII bytes.
    Ok(unsafe { std::str::from_utf8_unchecked(bytes) })
}

/// Where the run of bytes a string holds as they are, from `pos`, ends: at a quote, a
/// backslash, a control character or the end of the input (eight bytes at a time, as the
/// strict check scans).
#[inline]
fn plain(input: &[u8], mut pos: usize) -> usize {
    while let Some(chunk) = input.get(pos..pos + 8) {
        let mask = profile::not_plain(u64::from_le_bytes(chunk.try_into().expect("eight bytes")));
        if mask != 0 {
            return pos + (mask.trailing_zeros() / 8) as usize;
        }
        pos += 8;
    }
    while input.get(pos).is_some_and(|&byte| profile::STRING[byte as usize] == profile::PLAIN) {
        pos += 1;
    }
    pos
}

/// An instance of `class` made by its `tp_new` with no arguments, `__init__` not run
/// (pydantic-core's `create_class`).
fn new_instance<'py>(class: &Bound<'py, PyType>) -> PyResult<Bound<'py, PyAny>> {
    let py = class.py();
    let arguments = PyTuple::empty(py);
    // SAFETY: `class` is a live type object; `Py_tp_new` of a type is a `newfunc`
    // or null, and a `newfunc` may be called with a tuple and null keywords.
    unsafe {
        let slot = ffi::PyType_GetSlot(class.as_type_ptr(), ffi::Py_tp_new);
        if slot.is_null() {
            return Err(PyValueError::new_err("a type without tp_new"));
        }
        let new: ffi::newfunc = std::mem::transmute::<*mut std::ffi::c_void, ffi::newfunc>(slot);
        Bound::from_owned_ptr_or_err(py, new(class.as_type_ptr(), arguments.as_ptr(), std::ptr::null_mut()))
    }
}

/// `class`'s `tp_alloc`, where its `tp_new` is `object.__new__`: [`allocate`] may then make
/// its instances. `None` where the class has a `__new__` of its own, which must run.
pub(super) fn object_alloc(class: &Bound<'_, PyType>) -> Option<ffi::allocfunc> {
    // SAFETY: live type objects (`object` is static, which `PyType_GetSlot` takes since 3.10);
    // `Py_tp_new` is a `newfunc` or null, `Py_tp_alloc` an `allocfunc` or null.
    unsafe {
        let object = std::ptr::addr_of_mut!(ffi::PyBaseObject_Type);
        let new = ffi::PyType_GetSlot(class.as_type_ptr(), ffi::Py_tp_new);
        let alloc = ffi::PyType_GetSlot(class.as_type_ptr(), ffi::Py_tp_alloc);
        // `object.__new__` refuses an abstract class: so does the reader, by leaving it to `tp_new`.
        let abstract_ = ffi::PyType_GetFlags(class.as_type_ptr()) & ffi::Py_TPFLAGS_IS_ABSTRACT != 0;
        if abstract_ || new.is_null() || alloc.is_null() || new != ffi::PyType_GetSlot(object, ffi::Py_tp_new) {
            return None;
        }
        Some(std::mem::transmute::<*mut std::ffi::c_void, ffi::allocfunc>(alloc))
    }
}

/// An instance of `class` (whose `tp_new` is `object.__new__`) made by its `tp_alloc`, as
/// `object.__new__` makes it but for the instance dictionary it prepares (on 3.11, the
/// instance's inline values): the reader sets `__dict__` at once, and Python made that
/// dictionary from the values only to free it, three allocations an instance for nothing
/// (pydantic-core's `create_class` pays them).
fn allocate<'py>(class: &Bound<'py, PyType>, alloc: ffi::allocfunc) -> PyResult<Bound<'py, PyAny>> {
    // SAFETY: `alloc` is the live type's own `tp_alloc`; it returns a new reference or null
    // with an exception set.
    unsafe { Bound::from_owned_ptr_or_err(class.py(), alloc(class.as_type_ptr(), 0)) }
}

/// Sets an attribute past the class's `__setattr__` (pydantic-core's `force_setattr`).
fn set<'py>(instance: &Bound<'py, PyAny>, name: &Bound<'py, PyString>, value: &Bound<'py, PyAny>) -> PyResult<()> {
    // SAFETY: three live objects; the call returns -1 with an exception set on failure.
    let status = unsafe { ffi::PyObject_GenericSetAttr(instance.as_ptr(), name.as_ptr(), value.as_ptr()) };
    if status == -1 {
        Err(PyErr::fetch(instance.py()))
    } else {
        Ok(())
    }
}

impl ValueCheck {
    /// Whether the value read meets the check, with the Rust runtime's code.
    fn holds(&self, value: &Bound<'_, PyAny>) -> Read<()> {
        let holds = match self {
            ValueCheck::MultipleOf(divisor) => match value.cast::<PyFloat>() {
                Ok(float) => concord_runtime::number::multiple_of(float.value(), divisor),
                Err(_) => return Err(Refused),
            },
            ValueCheck::UniqueItems => concord_runtime::value::first_duplicate(&crate::json_value::to_values(value)?).is_none(),
            ValueCheck::TypedId(prefix) => concord_runtime::typed_id::check_typed_id(value.cast::<PyString>().map_err(|_| Refused)?.to_str()?, prefix),
        };
        if holds {
            Ok(())
        } else {
            Err(Refused)
        }
    }
}
