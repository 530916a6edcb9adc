//! What the generated `Deserialize` and `Serialize` impls call.
//!
//! concord writes those impls itself instead of deriving them, because
//! serde's derive admits shapes JSON Schema refuses (a struct from a
//! positional array, a unit enum from a one-key map) and handles unknown keys
//! through `flatten`, which buffers every value. Here an object is read from a
//! JSON object only, an enum from a string only, and each unknown key is
//! handled where it stands by its type's policy. The helpers are generic so
//! that each generated type expands to little code.

pub use crate::failure::Failure;
use crate::profile;
use indexmap::map::Entry;
use indexmap::IndexMap;
use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, Serializer};
use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

/// A generated object type: reads itself from the entries of a JSON object.
pub trait Object<'de>: Sized {
    /// How a refusal names what was expected, e.g. `an object (Session)`.
    const EXPECTING: &'static str;

    fn read<A: MapAccess<'de>>(map: A) -> Result<Self, A::Error>;
}

/// A generated enum: a closed set of JSON strings.
pub trait Enumeration: Copy + 'static {
    /// Each variant's JSON string, in declaration order.
    const VALUES: &'static [&'static str];
    /// The variants, in the same order.
    const VARIANTS: &'static [Self];

    /// The variant's position in [`VARIANTS`](Self::VARIANTS).
    fn index(self) -> usize;
}

/// `Deserialize` for an [`Object`]: a JSON object, nothing else.
pub fn read_object<'de, D: Deserializer<'de>, T: Object<'de>>(deserializer: D) -> Result<T, D::Error> {
    struct ObjectVisitor<T>(PhantomData<T>);

    impl<'de, T: Object<'de>> Visitor<'de> for ObjectVisitor<T> {
        type Value = T;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(T::EXPECTING)
        }

        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
            T::read(map)
        }
    }

    deserializer.deserialize_struct(T::EXPECTING, &[], ObjectVisitor(PhantomData))
}

/// What an unsupported version's refusal starts with: [`crate::Error`] makes it
/// the distinct `unsupported-version` kind.
pub const UNSUPPORTED_VERSION: &str = "unsupported version ";

/// `Deserialize` for an [`Object`] that is a versioned envelope
/// (`x-version-field`): the version is checked before anything else
/// (docs/decisions/versioned-envelopes.md: a reader that does not know a
/// version cannot vouch for the rest).
/// The reference reader reads the object whole, checks its version, then
/// reads the record from it; a version missing or not an integer is left to
/// the record's own read to refuse. The one-pass reader reads the record as
/// it comes and checks its `version` after: any refusal sends `from_json` to
/// the reference reader, which names the version first, so only the
/// accepted records, the common case, skip the buffering.
pub fn read_versioned<'de, D: Deserializer<'de>, T: for<'a> Object<'a>>(
    deserializer: D,
    field: &str,
    supported: &[i64],
    name: &str,
    version: fn(&T) -> i64,
) -> Result<T, D::Error> {
    let unsupported = |number: &dyn fmt::Display| {
        let listed: Vec<String> = supported.iter().map(i64::to_string).collect();
        let message = format!("{UNSUPPORTED_VERSION}{number} of {name}: supported {}", listed.join(", "));
        Failure::version(format!("/{}", crate::pointer::escape_token(field)), message).into_error()
    };
    if crate::read::in_one_pass() {
        let record: T = read_object(deserializer)?;
        return match version(&record) {
            known if supported.contains(&known) => Ok(record),
            other => Err(unsupported(&other)),
        };
    }
    let value = serde_json::Value::deserialize(deserializer)?;
    if let Some(serde_json::Value::Number(number)) = value.get(field) {
        let known = number.as_i64().is_some_and(|version| supported.contains(&version));
        if !known && (number.is_i64() || number.is_u64()) {
            return Err(unsupported(number));
        }
    }
    // The object itself, not `T::deserialize`, which would check the version again, forever.
    struct Unversioned<T>(T);
    impl<'de, T: Object<'de>> Deserialize<'de> for Unversioned<T> {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            read_object(deserializer).map(Unversioned)
        }
    }
    branch::<Unversioned<T>, D::Error>(value).map(|read| read.0)
}

/// `Deserialize` for an [`Enumeration`]: one of its strings, nothing else.
pub fn read_enum<'de, D: Deserializer<'de>, T: Enumeration>(deserializer: D) -> Result<T, D::Error> {
    struct EnumVisitor<T>(PhantomData<T>);

    impl<T: Enumeration> Visitor<'_> for EnumVisitor<T> {
        type Value = T;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("one of the strings ")?;
            for (index, value) in T::VALUES.iter().enumerate() {
                let separator = if index == 0 { "" } else { ", " };
                write!(f, "{separator}`{value}`")?;
            }
            Ok(())
        }

        fn visit_str<E: de::Error>(self, value: &str) -> Result<T, E> {
            variant(value).ok_or_else(|| E::unknown_variant(value, T::VALUES))
        }
    }

    deserializer.deserialize_str(EnumVisitor(PhantomData))
}

/// `Serialize` for an [`Enumeration`]: its string.
pub fn write_enum<S: Serializer, T: Enumeration>(value: T, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(T::VALUES[value.index()])
}

/// The variant whose JSON string `text` is.
fn variant<T: Enumeration>(text: &str) -> Option<T> {
    T::VALUES.iter().position(|candidate| *candidate == text).map(|index| T::VARIANTS[index])
}

/// `FromStr` for an [`Enumeration`]: one of its JSON strings.
pub fn enum_from_str<T: Enumeration>(text: &str, type_name: &'static str) -> Result<T, NotAValue> {
    variant(text).ok_or_else(|| NotAValue { type_name, values: T::VALUES, text: text.to_owned() })
}

/// A string that is none of an enum's values (its `FromStr` error).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotAValue {
    type_name: &'static str,
    values: &'static [&'static str],
    text: String,
}

impl fmt::Display for NotAValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} is not a value of {} (one of ", self.text, self.type_name)?;
        for (index, value) in self.values.iter().enumerate() {
            let separator = if index == 0 { "" } else { ", " };
            write!(f, "{separator}{value:?}")?;
        }
        f.write_str(")")
    }
}

impl std::error::Error for NotAValue {}

/// A generated open enum (`"x-open-enum": true`): known strings, and a
/// catch-all variant that keeps any other string.
pub trait OpenEnumeration: Clone + 'static {
    /// Each known variant's JSON string, in declaration order.
    const VALUES: &'static [&'static str];
    /// The known variants, in the same order.
    const KNOWN: &'static [Self];

    /// The catch-all variant holding `value`, a string none of
    /// [`VALUES`](Self::VALUES).
    fn unrecognized(value: String) -> Self;

    /// The string the value stands for: a known variant's, or the kept one.
    fn as_str(&self) -> &str;
}

/// `Deserialize` for an [`OpenEnumeration`]: any string, nothing else; a
/// known one is its variant, any other is kept as it was read.
pub fn read_open_enum<'de, D: Deserializer<'de>, T: OpenEnumeration>(deserializer: D) -> Result<T, D::Error> {
    struct OpenEnumVisitor<T>(PhantomData<T>);

    impl<T: OpenEnumeration> Visitor<'_> for OpenEnumVisitor<T> {
        type Value = T;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a string")
        }

        fn visit_str<E: de::Error>(self, value: &str) -> Result<T, E> {
            Ok(known(value).unwrap_or_else(|| T::unrecognized(value.to_owned())))
        }

        fn visit_string<E: de::Error>(self, value: String) -> Result<T, E> {
            Ok(known(&value).unwrap_or_else(|| T::unrecognized(value)))
        }
    }

    deserializer.deserialize_str(OpenEnumVisitor(PhantomData))
}

/// `FromStr` for an [`OpenEnumeration`]: a known string is its variant,
/// any other the catch-all's.
pub fn open_enum_from_str<T: OpenEnumeration>(text: &str) -> T {
    known(text).unwrap_or_else(|| T::unrecognized(text.to_owned()))
}

/// The known variant whose JSON string `text` is.
fn known<T: OpenEnumeration>(text: &str) -> Option<T> {
    T::VALUES.iter().position(|candidate| *candidate == text).map(|index| T::KNOWN[index].clone())
}

/// `Serialize` for an [`OpenEnumeration`]: its string, a kept one unchanged.
pub fn write_open_enum<S: Serializer, T: OpenEnumeration>(value: &T, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(value.as_str())
}

/// A typed id's string (`"x-typed-id": prefix`): a JSON string that is
/// `<prefix>_<lowercase UUIDv7>`, refused with the message Python raises too.
pub fn read_typed_id<'de, D: Deserializer<'de>>(deserializer: D, prefix: &str) -> Result<String, D::Error> {
    let value = String::deserialize(deserializer)?;
    typed_id(value, prefix).map_err(Failure::into_error)
}

/// `value` when it is a `<prefix>_<lowercase UUIDv7>` id, else the refusal.
pub fn typed_id(value: String, prefix: &str) -> Result<String, Failure> {
    crate::checks::typed_id(&value, prefix).map(|()| value)
}

/// An object key as read: borrowed from the input unless it held an escape.
pub struct Key<'de>(Cow<'de, str>);

impl Key<'_> {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;

        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string key")
            }

            fn visit_borrowed_str<E: de::Error>(self, value: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(value)))
            }

            fn visit_str<E: de::Error>(self, value: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(value.to_owned())))
            }

            fn visit_string<E: de::Error>(self, value: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(value)))
            }
        }

        deserializer.deserialize_str(KeyVisitor)
    }
}

/// Reads a declared property's value into its slot; a second occurrence of
/// the key is refused.
pub fn field<'de, A: MapAccess<'de>, T: Deserialize<'de>>(map: &mut A, slot: &mut Option<T>, name: &'static str) -> Result<(), A::Error> {
    if slot.is_some() {
        return Err(de::Error::duplicate_field(name));
    }
    *slot = Some(map.next_value()?);
    Ok(())
}

/// A required property's value, or the refusal naming it.
pub fn required<T, E: de::Error>(slot: Option<T>, name: &'static str) -> Result<T, E> {
    // At the field itself, as pydantic points at it (serde's own error would be at the object).
    slot.ok_or_else(|| Failure::at(format!("/{}", crate::pointer::escape_token(name)), format!("missing field `{name}`")).into_error())
}

/// An unknown key kept with its value: at a growth point (`T` is `Value`)
/// or beside `additionalProperties` (`T` is its type), in the order read.
pub fn keep<'de, A: MapAccess<'de>, T: Deserialize<'de>>(map: &mut A, kept: &mut IndexMap<String, T>, key: Key<'de>) -> Result<(), A::Error> {
    let value = map.next_value()?;
    match kept.entry(key.0.into_owned()) {
        Entry::Occupied(entry) => Err(de::Error::custom(profile::duplicate_key_in_type(entry.key()))),
        Entry::Vacant(entry) => {
            entry.insert(value);
            Ok(())
        }
    }
}

/// An unknown key beside `patternProperties` at a type that drops the
/// others: kept with its value when one of `patterns` matches it (it is
/// data), else dropped as [`skip`] drops it.
pub fn keep_matching<'de, A: MapAccess<'de>>(
    map: &mut A,
    kept: &mut IndexMap<String, serde_json::Value>,
    dropped: &mut Vec<Key<'de>>,
    key: Key<'de>,
    patterns: &[crate::pattern::Pattern],
) -> Result<(), A::Error> {
    if patterns.iter().any(|pattern| pattern.is_match(key.as_str())) {
        keep(map, kept, key)
    } else {
        skip(map, dropped, key)
    }
}

/// An unknown key at a type that drops them: the value is still read in
/// full (it must meet the strict profile) and a second occurrence of the key
/// is still refused.
pub fn skip<'de, A: MapAccess<'de>>(map: &mut A, dropped: &mut Vec<Key<'de>>, key: Key<'de>) -> Result<(), A::Error> {
    map.next_value::<de::IgnoredAny>()?;
    if dropped.iter().any(|seen| seen.0 == key.0) {
        return Err(de::Error::custom(profile::duplicate_key_in_type(key.as_str())));
    }
    dropped.push(key);
    Ok(())
}

/// The refusal of an unknown key at a closed type. It is raised where the
/// key's value would be read, so that the refusal's pointer names the key.
pub fn refuse<'de, A: MapAccess<'de>>(map: &mut A, key: Key<'de>, declared: &'static [&'static str]) -> Result<(), A::Error> {
    struct Refusal<'k> {
        key: Key<'k>,
        declared: &'static [&'static str],
    }

    impl<'de> de::DeserializeSeed<'de> for Refusal<'_> {
        type Value = ();

        fn deserialize<D: Deserializer<'de>>(self, _: D) -> Result<(), D::Error> {
            Err(de::Error::unknown_field(self.key.as_str(), self.declared))
        }
    }

    map.next_value_seed(Refusal { key, declared })
}

/// Writes a declared property.
pub fn entry<M: SerializeMap, T: Serialize + ?Sized>(map: &mut M, key: &'static str, value: &T) -> Result<(), M::Error> {
    map.serialize_entry(key, value)
}

/// Writes an optional property when it is present.
pub fn optional<M: SerializeMap, T: Serialize>(map: &mut M, key: &'static str, value: &Option<T>) -> Result<(), M::Error> {
    match value {
        Some(value) => map.serialize_entry(key, value),
        None => Ok(()),
    }
}

/// Writes kept unknown keys, after the declared properties, in their order.
/// A kept key spelled like a declared property (put there by hand: reading
/// never does) would be written twice, which no reader accepts: refused,
/// at that key.
pub fn entries<M: SerializeMap, T: Serialize>(map: &mut M, kept: &IndexMap<String, T>, declared: &[&str]) -> Result<(), M::Error> {
    struct Duplicate<'k>(&'k str);

    impl Serialize for Duplicate<'_> {
        fn serialize<S: Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
            Err(serde::ser::Error::custom(profile::Refusal::DuplicateKey.message(self.0)))
        }
    }

    for (key, value) in kept {
        if declared.contains(&key.as_str()) {
            return map.serialize_entry(key, &Duplicate(key));
        }
        map.serialize_entry(key, value)?;
    }
    Ok(())
}

/// Reads a value and checks it before anything else is read, so that a
/// refusal's pointer is the value's own.
struct Checked<T>(fn(&T) -> Result<(), Failure>);

impl<'de, T: Deserialize<'de>> de::DeserializeSeed<'de> for Checked<T> {
    type Value = T;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        let value = T::deserialize(deserializer)?;
        (self.0)(&value).map_err(Failure::into_error)?;
        Ok(value)
    }
}

/// [`field`] for a property whose value has assertions.
pub fn field_checked<'de, A: MapAccess<'de>, T: Deserialize<'de>>(
    map: &mut A,
    slot: &mut Option<T>,
    name: &'static str,
    check: fn(&T) -> Result<(), Failure>,
) -> Result<(), A::Error> {
    if slot.is_some() {
        return Err(de::Error::duplicate_field(name));
    }
    *slot = Some(map.next_value_seed(Checked(check))?);
    Ok(())
}

/// [`keep`] for typed entries with assertions.
pub fn keep_checked<'de, A: MapAccess<'de>, T: Deserialize<'de>>(
    map: &mut A,
    kept: &mut IndexMap<String, T>,
    key: Key<'de>,
    check: fn(&T) -> Result<(), Failure>,
) -> Result<(), A::Error> {
    let value = map.next_value_seed(Checked(check))?;
    match kept.entry(key.0.into_owned()) {
        Entry::Occupied(entry) => Err(de::Error::custom(profile::duplicate_key_in_type(entry.key()))),
        Entry::Vacant(entry) => {
            entry.insert(value);
            Ok(())
        }
    }
}

/// `Deserialize` for a value with assertions (a registry root that is not
/// an object type, say).
pub fn read_checked<'de, D: Deserializer<'de>, T: Deserialize<'de>>(deserializer: D, check: fn(&T) -> Result<(), Failure>) -> Result<T, D::Error> {
    de::DeserializeSeed::deserialize(Checked(check), deserializer)
}

/// An assertion on an object as a whole, after its members were read.
pub fn check_object<E: de::Error>(result: Result<(), Failure>) -> Result<(), E> {
    result.map_err(Failure::into_error)
}

/// Checks every element of an array, naming the refused one.
pub fn each<T>(items: &[T], mut check: impl FnMut(&T) -> Result<(), Failure>) -> Result<(), Failure> {
    items.iter().enumerate().try_for_each(|(index, item)| check(item).map_err(|failure| failure.at_index(index)))
}

/// Checks every value of a map, naming the refused one's key.
pub fn each_value<T>(map: &IndexMap<String, T>, mut check: impl FnMut(&T) -> Result<(), Failure>) -> Result<(), Failure> {
    map.iter().try_for_each(|(key, value)| check(value).map_err(|failure| failure.at_key(key)))
}

/// A union's value, read whole: the branch is chosen by looking at it.
pub fn raw<'de, D: Deserializer<'de>>(deserializer: D) -> Result<serde_json::Value, D::Error> {
    serde_json::Value::deserialize(deserializer)
}

/// The branch a tagged union's value names: the position in `tags` of its
/// `property`'s string.
pub fn tag<E: de::Error>(value: &serde_json::Value, property: &str, tags: &[&str]) -> Result<usize, E> {
    let serde_json::Value::Object(object) = value else {
        return Err(Failure::new(format!("expected an object with the tag `{property}`")).into_error());
    };
    match object.get(property) {
        None => Err(Failure::new(format!("missing the tag `{property}`")).into_error()),
        Some(serde_json::Value::String(tag)) if tags.contains(&tag.as_str()) => Ok(tags.iter().position(|t| t == tag).unwrap_or_default()),
        Some(_) => Err(Failure::new(format!("the tag `{property}` is not one of {}", quoted(tags))).into_error()),
    }
}

/// The branch of a union by JSON type: the position of the value's type in
/// `types` (an integer goes to `number` when there is no `integer`).
pub fn json_type<E: de::Error>(value: &serde_json::Value, types: &[&str]) -> Result<usize, E> {
    use serde_json::Value;
    let name = match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(number) if number.is_f64() => "number",
        Value::Number(_) if types.contains(&"integer") => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    types.iter().position(|t| *t == name).ok_or_else(|| Failure::new(format!("expected one of the types {}", quoted(types))).into_error())
}

fn quoted(names: &[&str]) -> String {
    names.iter().map(|name| format!("`{name}`")).collect::<Vec<_>>().join(", ")
}

/// Reads a union's chosen branch from its value, refusals pointing inside it.
pub fn branch<T: de::DeserializeOwned, E: de::Error>(value: serde_json::Value) -> Result<T, E> {
    Failure::forget_raised();
    serde_path_to_error::deserialize(value).map_err(|error| match crate::Error::from_path(error) {
        crate::Error::Schema { pointer, message } => Failure::at(pointer, message).into_error(),
        crate::Error::Version { pointer, message } => Failure::version(pointer, message).into_error(),
        other => Failure::new(other.to_string()).into_error(),
    })
}

/// [`branch`] for a branch with assertions.
pub fn branch_checked<T: de::DeserializeOwned, E: de::Error>(value: serde_json::Value, check: fn(&T) -> Result<(), Failure>) -> Result<T, E> {
    let branch = branch(value)?;
    check(&branch).map_err(Failure::into_error)?;
    Ok(branch)
}

/// A tuple element's failure, one array index further out.
pub fn element(index: usize, result: Result<(), Failure>) -> Result<(), Failure> {
    result.map_err(|failure| failure.at_index(index))
}
