//! The compact JSON writer behind [`Record::to_json`](crate::Record::to_json):
//! a serde `Serializer` that writes the bytes Python writes
//! (docs/output-bytes.md) and refuses what the strict profile would refuse
//! on reading, so a record written is a record that reads back: non-finite
//! floats, negative zero, integers outside ±(2^53-1), and nesting deeper
//! than the reader's limit (a key written twice is refused by `bind`).
//!
//! Strings are escaped as canonical JSON escapes them (which is also how
//! serde_json and Python's `json` do); floats are laid out by [`float`].

use crate::float;
use crate::profile::{self, write_string_bytes, MAX_SAFE_INTEGER};
use serde::ser::{self, Serialize};
use std::fmt;

/// Why a value cannot be written; the pointer is added by the caller.
#[derive(Debug)]
pub struct Unwritable(pub String);

impl fmt::Display for Unwritable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Unwritable {}

impl ser::Error for Unwritable {
    fn custom<T: fmt::Display>(message: T) -> Self {
        Unwritable(message.to_string())
    }
}

/// Writes `value` as compact JSON.
pub fn to_vec<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, Unwritable> {
    let mut writer = Writer { out: Vec::with_capacity(128), depth: 0 };
    value.serialize(&mut writer)?;
    Ok(writer.out)
}

#[derive(Default)]
pub struct Writer {
    out: Vec<u8>,
    /// Open arrays and objects: more than the reader's limit is refused.
    depth: usize,
}

impl Writer {
    #[inline]
    fn integer(&mut self, value: i128) -> Result<(), Unwritable> {
        if value.unsigned_abs() > MAX_SAFE_INTEGER as u128 {
            return Err(Unwritable(format!("integer {value} is outside ±(2^53-1), which the strict profile refuses")));
        }
        self.out.extend_from_slice(itoa::Buffer::new().format(value as i64).as_bytes());
        Ok(())
    }

    #[inline]
    fn open(&mut self, bracket: u8) -> Result<(), Unwritable> {
        self.depth = profile::nest(self.depth).map_err(|refusal| Unwritable(refusal.message("")))?;
        self.out.push(bracket);
        Ok(())
    }

    #[inline]
    fn close(&mut self, bracket: u8) {
        self.depth -= 1;
        self.out.push(bracket);
    }

    fn float(&mut self, value: f64) -> Result<(), Unwritable> {
        if !value.is_finite() {
            return Err(Unwritable(format!("{value} is not a JSON number")));
        }
        profile::float(value).map_err(|refusal| Unwritable(refusal.message("")))?;
        float::write(&mut self.out, value);
        Ok(())
    }
}

fn unsupported<T>(what: &str) -> Result<T, Unwritable> {
    Err(Unwritable(format!("{what} has no JSON form in concord's bindings")))
}

impl<'w> ser::Serializer for &'w mut Writer {
    type Ok = ();
    type Error = Unwritable;
    type SerializeSeq = Compound<'w>;
    type SerializeTuple = Compound<'w>;
    type SerializeTupleStruct = Compound<'w>;
    type SerializeTupleVariant = ser::Impossible<(), Unwritable>;
    type SerializeMap = Compound<'w>;
    type SerializeStruct = Compound<'w>;
    type SerializeStructVariant = ser::Impossible<(), Unwritable>;

    #[inline]
    fn serialize_bool(self, value: bool) -> Result<(), Unwritable> {
        self.out.extend_from_slice(if value { b"true" } else { b"false" });
        Ok(())
    }

    #[inline]
    fn serialize_i8(self, value: i8) -> Result<(), Unwritable> {
        self.integer(value.into())
    }

    #[inline]
    fn serialize_i16(self, value: i16) -> Result<(), Unwritable> {
        self.integer(value.into())
    }

    #[inline]
    fn serialize_i32(self, value: i32) -> Result<(), Unwritable> {
        self.integer(value.into())
    }

    #[inline]
    fn serialize_i64(self, value: i64) -> Result<(), Unwritable> {
        // The common case, without the detour through i128.
        if value.unsigned_abs() <= MAX_SAFE_INTEGER as u64 {
            self.out.extend_from_slice(itoa::Buffer::new().format(value).as_bytes());
            return Ok(());
        }
        self.integer(value.into())
    }

    #[inline]
    fn serialize_i128(self, value: i128) -> Result<(), Unwritable> {
        self.integer(value)
    }

    #[inline]
    fn serialize_u8(self, value: u8) -> Result<(), Unwritable> {
        self.integer(value.into())
    }

    #[inline]
    fn serialize_u16(self, value: u16) -> Result<(), Unwritable> {
        self.integer(value.into())
    }

    #[inline]
    fn serialize_u32(self, value: u32) -> Result<(), Unwritable> {
        self.integer(value.into())
    }

    #[inline]
    fn serialize_u64(self, value: u64) -> Result<(), Unwritable> {
        self.integer(value.into())
    }

    #[inline]
    fn serialize_u128(self, value: u128) -> Result<(), Unwritable> {
        self.integer(i128::try_from(value).unwrap_or(i128::MAX))
    }

    #[inline]
    fn serialize_f32(self, value: f32) -> Result<(), Unwritable> {
        self.float(value.into())
    }

    #[inline]
    fn serialize_f64(self, value: f64) -> Result<(), Unwritable> {
        self.float(value)
    }

    #[inline]
    fn serialize_char(self, value: char) -> Result<(), Unwritable> {
        self.serialize_str(value.encode_utf8(&mut [0; 4]))
    }

    #[inline]
    fn serialize_str(self, value: &str) -> Result<(), Unwritable> {
        write_string_bytes(&mut self.out, value);
        Ok(())
    }

    #[inline]
    fn serialize_bytes(self, _: &[u8]) -> Result<(), Unwritable> {
        unsupported("a byte string")
    }

    #[inline]
    fn serialize_none(self) -> Result<(), Unwritable> {
        self.serialize_unit()
    }

    #[inline]
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Unwritable> {
        value.serialize(self)
    }

    #[inline]
    fn serialize_unit(self) -> Result<(), Unwritable> {
        self.out.extend_from_slice(b"null");
        Ok(())
    }

    #[inline]
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Unwritable> {
        self.serialize_unit()
    }

    #[inline]
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<(), Unwritable> {
        self.serialize_str(variant)
    }

    #[inline]
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Result<(), Unwritable> {
        value.serialize(self)
    }

    #[inline]
    fn serialize_newtype_variant<T: Serialize + ?Sized>(self, _: &'static str, _: u32, _: &'static str, _: &T) -> Result<(), Unwritable> {
        unsupported("an enum variant with data")
    }

    #[inline]
    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'w>, Unwritable> {
        self.open(b'[')?;
        Ok(Compound { writer: self, first: true })
    }

    #[inline]
    fn serialize_tuple(self, len: usize) -> Result<Compound<'w>, Unwritable> {
        self.serialize_seq(Some(len))
    }

    #[inline]
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Compound<'w>, Unwritable> {
        self.serialize_seq(Some(len))
    }

    #[inline]
    fn serialize_tuple_variant(self, _: &'static str, _: u32, _: &'static str, _: usize) -> Result<Self::SerializeTupleVariant, Unwritable> {
        unsupported("an enum variant with data")
    }

    #[inline]
    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'w>, Unwritable> {
        self.open(b'{')?;
        Ok(Compound { writer: self, first: true })
    }

    #[inline]
    fn serialize_struct(self, _: &'static str, len: usize) -> Result<Compound<'w>, Unwritable> {
        self.serialize_map(Some(len))
    }

    #[inline]
    fn serialize_struct_variant(self, _: &'static str, _: u32, _: &'static str, _: usize) -> Result<Self::SerializeStructVariant, Unwritable> {
        unsupported("an enum variant with data")
    }
}

pub struct Compound<'w> {
    writer: &'w mut Writer,
    first: bool,
}

impl Compound<'_> {
    #[inline]
    fn comma(&mut self) {
        if !std::mem::take(&mut self.first) {
            self.writer.out.push(b',');
        }
    }
}

impl ser::SerializeSeq for Compound<'_> {
    type Ok = ();
    type Error = Unwritable;

    #[inline]
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unwritable> {
        self.comma();
        value.serialize(&mut *self.writer)
    }

    #[inline]
    fn end(self) -> Result<(), Unwritable> {
        self.writer.close(b']');
        Ok(())
    }
}

impl ser::SerializeTuple for Compound<'_> {
    type Ok = ();
    type Error = Unwritable;

    #[inline]
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unwritable> {
        ser::SerializeSeq::serialize_element(self, value)
    }

    #[inline]
    fn end(self) -> Result<(), Unwritable> {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleStruct for Compound<'_> {
    type Ok = ();
    type Error = Unwritable;

    #[inline]
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unwritable> {
        ser::SerializeSeq::serialize_element(self, value)
    }

    #[inline]
    fn end(self) -> Result<(), Unwritable> {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Unwritable;

    #[inline]
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Unwritable> {
        self.comma();
        key.serialize(KeyWriter(&mut *self.writer))?;
        self.writer.out.push(b':');
        Ok(())
    }

    #[inline]
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unwritable> {
        value.serialize(&mut *self.writer)
    }

    #[inline]
    fn end(self) -> Result<(), Unwritable> {
        self.writer.close(b'}');
        Ok(())
    }
}

impl ser::SerializeStruct for Compound<'_> {
    type Ok = ();
    type Error = Unwritable;

    #[inline]
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Unwritable> {
        ser::SerializeMap::serialize_entry(self, key, value)
    }

    #[inline]
    fn end(self) -> Result<(), Unwritable> {
        ser::SerializeMap::end(self)
    }
}

/// An object key: strings only, as JSON has them.
struct KeyWriter<'w>(&'w mut Writer);

impl ser::Serializer for KeyWriter<'_> {
    type Ok = ();
    type Error = Unwritable;
    type SerializeSeq = ser::Impossible<(), Unwritable>;
    type SerializeTuple = ser::Impossible<(), Unwritable>;
    type SerializeTupleStruct = ser::Impossible<(), Unwritable>;
    type SerializeTupleVariant = ser::Impossible<(), Unwritable>;
    type SerializeMap = ser::Impossible<(), Unwritable>;
    type SerializeStruct = ser::Impossible<(), Unwritable>;
    type SerializeStructVariant = ser::Impossible<(), Unwritable>;

    #[inline]
    fn serialize_str(self, value: &str) -> Result<(), Unwritable> {
        self.0.serialize_str(value)
    }

    #[inline]
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<(), Unwritable> {
        self.0.serialize_str(variant)
    }

    #[inline]
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Result<(), Unwritable> {
        value.serialize(self)
    }

    #[inline]
    fn serialize_bool(self, _: bool) -> Result<(), Unwritable> {
        unsupported("a key that is not a string")
    }
    #[inline]
    fn serialize_i8(self, _: i8) -> Result<(), Unwritable> {
        unsupported("a key that is not a string")
    }
    #[inline]
    fn serialize_i16(self, _: i16) -> Result<(), Unwritable> {
        unsupported("a key that is not a string")
    }
    #[inline]
    fn serialize_i32(self, _: i32) -> Result<(), Unwritable> {
        unsupported("a key that is not a string")
    }
    #[inline]
    fn serialize_i64(self, _: i64) -> Result<(), Unwritable> {
        unsupported("a key that is not a string")
    }
    #[inline]
    fn serialize_u8(self, _: u8) -> Result<(), Unwritable> {
        unsupported("a key that is not a string")
    }
    #[inline]
    fn serialize_u16(self, _: u16) -> Result<(), Unwritable> {
        unsupported("a key that is not a string")
    }
    #[inline]
    fn serialize_u32(self, _: u32) -> Result<(), Unwritable> {
        unsupported("a key that is not a string")
    }
    #[inline]
    fn serialize_u64(self, _: u64) -> Result<(), Unwritable> {
        unsupported("a key that is not a string")
    }
    #[inline]
    fn serialize_f32(self, _: f32) -> Result<(), Unwritable> {
        unsupported("a key that is not a string")
    }
    #[inline]
    fn serialize_f64(self, _: f64) -> Result<(), Unwritable> {
        unsupported("a key that is not a string")
    }
    #[inline]
    fn serialize_char(self, value: char) -> Result<(), Unwritable> {
        self.0.serialize_char(value)
    }
    #[inline]
    fn serialize_bytes(self, _: &[u8]) -> Result<(), Unwritable> {
        unsupported("a key that is not a string")
    }
    #[inline]
    fn serialize_none(self) -> Result<(), Unwritable> {
        unsupported("a key that is not a string")
    }
    #[inline]
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<(), Unwritable> {
        unsupported("a key that is not a string")
    }
    #[inline]
    fn serialize_unit(self) -> Result<(), Unwritable> {
        unsupported("a key that is not a string")
    }
    #[inline]
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Unwritable> {
        unsupported("a key that is not a string")
    }
    #[inline]
    fn serialize_newtype_variant<T: Serialize + ?Sized>(self, _: &'static str, _: u32, _: &'static str, _: &T) -> Result<(), Unwritable> {
        unsupported("a key that is not a string")
    }
    #[inline]
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Unwritable> {
        unsupported("a key that is not a string")
    }
    #[inline]
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Unwritable> {
        unsupported("a key that is not a string")
    }
    #[inline]
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeTupleStruct, Unwritable> {
        unsupported("a key that is not a string")
    }
    #[inline]
    fn serialize_tuple_variant(self, _: &'static str, _: u32, _: &'static str, _: usize) -> Result<Self::SerializeTupleVariant, Unwritable> {
        unsupported("a key that is not a string")
    }
    #[inline]
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Unwritable> {
        unsupported("a key that is not a string")
    }
    #[inline]
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct, Unwritable> {
        unsupported("a key that is not a string")
    }
    #[inline]
    fn serialize_struct_variant(self, _: &'static str, _: u32, _: &'static str, _: usize) -> Result<Self::SerializeStructVariant, Unwritable> {
        unsupported("a key that is not a string")
    }
}
