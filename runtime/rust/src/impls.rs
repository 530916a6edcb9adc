//! The impls of generated types, as declarative macros. The bindings
//! declare each type as one would by hand (docs, attributes, derives) and
//! then name one of these macros per type, after all the declarations, the
//! way prost's output is its declarations and a derive
//! (docs/generated-rust.md). macro_rules, not a derive crate: a proc-macro
//! would put syn into every user's normal dependencies.
//!
//! The expansions are what the generator wrote out by hand before: the
//! helpers of [`crate::bind`], called with the type's own keys and checks.
//! Lints do not fire inside another crate's macro expansions, so an object
//! with nothing to write warns no one about an unused `mut`.

/// `Record` (and `Pinned`, for a type with a place of its own in its schema
/// file): `record!(Type, "Name", DIGEST)`, `record!(Type, "Name", DIGEST,
/// pinned "/pointer" in DOCUMENTS)`, or `asserted` for a type whose records
/// are also checked by the assertion engine when read.
#[macro_export]
macro_rules! record {
    ($type:ident, $name:literal, $digest:expr) => {
        impl $crate::Record for $type {
            const NAME: &'static str = $name;
            const SCHEMA_DIGEST: &'static str = $digest;
        }
    };
    ($type:ident, $name:literal, $digest:expr, pinned $pointer:literal in $documents:expr) => {
        $crate::record!($type, $name, $digest);
        $crate::__pinned!($type, $pointer, $documents);
    };
    ($type:ident, $name:literal, $digest:expr, asserted $pointer:literal in $documents:expr) => {
        impl $crate::Record for $type {
            const NAME: &'static str = $name;
            const SCHEMA_DIGEST: &'static str = $digest;
            fn from_json(bytes: &[u8]) -> Result<Self, $crate::Error> {
                $crate::from_json_asserted(bytes)
            }
        }
        $crate::__pinned!($type, $pointer, $documents);
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __pinned {
    ($type:ident, $pointer:literal, $documents:expr) => {
        impl $crate::Pinned for $type {
            fn schema() -> &'static $crate::pinned::Schema {
                static SCHEMA: $crate::pinned::Schema = $crate::pinned::Schema::new($documents, $pointer);
                &SCHEMA
            }
        }
    };
}

/// An object type's `Deserialize` (from a JSON object only, each unknown
/// key handled where it stands by the type's policy) and `Serialize`
/// (declared properties in schema order, then kept unknown keys):
///
/// ```text
/// object! {
///     Session "Session";
///     fields { gpu_arch: "gpu_arch" required, hostname: "hostname" optional (Self::check_hostname) }
///     unknown keep extra;          // or `drop`, `refuse`, `keep extra (Self::check_extra)`,
///                                  // `keep extra matching ["^x-"]` (beside `patternProperties`)
///     count 1, None;               // optional: minProperties, maxProperties
///     version "schema_version" in VERSIONS, holder schema_version;   // optional: an envelope
/// }
/// ```
#[macro_export]
macro_rules! object {
    (
        $type:ident $name:literal;
        fields { $($field:ident: $json:literal $presence:ident $(($check:path))?),* $(,)? }
        unknown $unknown:ident $($catch_all:ident $(($catch_check:path))? $(matching [$($pattern:literal),+ $(,)?])?)?;
        $(count $min:expr, $max:expr;)?
        $(version $version:literal in $versions:expr, holder $holder:ident;)?
    ) => {
        impl<'de> $crate::bind::Object<'de> for $type {
            const EXPECTING: &'static str = concat!("an object (", $name, ")");
            fn read<__A: $crate::serde::de::MapAccess<'de>>(mut map: __A) -> Result<Self, __A::Error> {
                $(let mut $field = None;)*
                $crate::__unknown!(slot dropped, $unknown $($catch_all)?);
                $($($crate::__ignore!($($pattern)+); let mut dropped = Vec::new();)?)?
                $(let mut count = 0usize; $crate::__ignore!($min);)?
                while let Some(key) = map.next_key::<$crate::bind::Key<'de>>()? {
                    $(count += 1; $crate::__ignore!($min);)?
                    match key.as_str() {
                        $($json => $crate::__field!(read map, $field, $json $(, $check)?),)*
                        _ => $crate::__unknown!(read map, key, dropped, [$($json),*], $unknown $($catch_all $(($catch_check))? $(matching [$($pattern),+])?)?),
                    }
                }
                $($crate::bind::check_object($crate::checks::properties(count, $min, $max))?;)?
                Ok(Self { $($field: $crate::__field!(value $presence, $field, $json),)* $($catch_all,)? })
            }
        }

        impl<'de> $crate::serde::Deserialize<'de> for $type {
            fn deserialize<__D: $crate::serde::Deserializer<'de>>(deserializer: __D) -> Result<Self, __D::Error> {
                $crate::__object_read!(deserializer, $name $(, $version, $versions, $holder)?)
            }
        }

        impl $crate::serde::Serialize for $type {
            fn serialize<__S: $crate::serde::Serializer>(&self, serializer: __S) -> Result<__S::Ok, __S::Error> {
                let mut map = $crate::serde::Serializer::serialize_map(serializer, None)?;
                $($crate::__field!(write map, self, $field, $json, $presence);)*
                $crate::__unknown!(write map, self, [$($json),*], $unknown $($catch_all)?);
                $crate::serde::ser::SerializeMap::end(map)
            }
        }
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __ignore {
    ($($anything:tt)*) => {};
}

#[doc(hidden)]
#[macro_export]
macro_rules! __object_read {
    ($deserializer:ident, $name:literal) => {
        $crate::bind::read_object($deserializer)
    };
    // A versioned envelope: its version is read before anything else.
    ($deserializer:ident, $name:literal, $version:literal, $versions:expr, $holder:ident) => {
        $crate::bind::read_versioned($deserializer, $version, $versions, $name, |record: &Self| record.$holder)
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __field {
    (read $map:ident, $field:ident, $json:literal) => {
        $crate::bind::field(&mut $map, &mut $field, $json)?
    };
    (read $map:ident, $field:ident, $json:literal, $check:path) => {
        $crate::bind::field_checked(&mut $map, &mut $field, $json, $check)?
    };
    (value required, $field:ident, $json:literal) => {
        $crate::bind::required($field, $json)?
    };
    (value optional, $field:ident, $json:literal) => {
        $field
    };
    (write $map:ident, $self:ident, $field:ident, $json:literal, required) => {
        $crate::bind::entry(&mut $map, $json, &$self.$field)?
    };
    (write $map:ident, $self:ident, $field:ident, $json:literal, optional) => {
        $crate::bind::optional(&mut $map, $json, &$self.$field)?
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __unknown {
    (slot $dropped:ident, drop) => {
        let mut $dropped = Vec::new();
    };
    (slot $dropped:ident, refuse) => {};
    (slot $dropped:ident, keep $catch_all:ident) => {
        let mut $catch_all = $crate::IndexMap::new();
    };
    (read $map:ident, $key:ident, $dropped:ident, [$($json:literal),*], drop) => {
        $crate::bind::skip(&mut $map, &mut $dropped, $key)?
    };
    (read $map:ident, $key:ident, $dropped:ident, [$($json:literal),*], refuse) => {
        $crate::bind::refuse(&mut $map, $key, &[$($json),*])?
    };
    (read $map:ident, $key:ident, $dropped:ident, [$($json:literal),*], keep $catch_all:ident) => {
        $crate::bind::keep(&mut $map, &mut $catch_all, $key)?
    };
    (read $map:ident, $key:ident, $dropped:ident, [$($json:literal),*], keep $catch_all:ident ($check:path)) => {
        $crate::bind::keep_checked(&mut $map, &mut $catch_all, $key, $check)?
    };
    (read $map:ident, $key:ident, $dropped:ident, [$($json:literal),*], keep $catch_all:ident matching [$($pattern:literal),+]) => {{
        static PATTERNS: [$crate::pattern::Pattern; [$($pattern),+].len()] = [$($crate::pattern::Pattern::new($pattern)),+];
        $crate::bind::keep_matching(&mut $map, &mut $catch_all, &mut $dropped, $key, &PATTERNS)?
    }};
    (write $map:ident, $self:ident, [$($json:literal),*], drop) => {};
    (write $map:ident, $self:ident, [$($json:literal),*], refuse) => {};
    (write $map:ident, $self:ident, [$($json:literal),*], keep $catch_all:ident) => {
        $crate::bind::entries(&mut $map, &$self.$catch_all, &[$($json),*])?
    };
}

/// A closed string enum: `Enumeration`, serde (from one of its strings
/// only: serde's derive would also read a unit variant from a one-key map),
/// and `as_str`, `Display` and `FromStr` by its JSON strings:
/// `enumeration!(Mode { Default = "default", MaxAutotune = "max-autotune" })`.
#[macro_export]
macro_rules! enumeration {
    ($type:ident { $($variant:ident = $value:literal),* $(,)? }) => {
        impl $crate::bind::Enumeration for $type {
            const VALUES: &'static [&'static str] = &[$($value),*];
            const VARIANTS: &'static [Self] = &[$(Self::$variant),*];
            fn index(self) -> usize {
                self as usize
            }
        }

        impl $type {
            /// The value's JSON string.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(Self::$variant => $value,)*
                }
            }
        }

        impl ::core::fmt::Display for $type {
            fn fmt(&self, formatter: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                formatter.write_str(self.as_str())
            }
        }

        impl ::core::str::FromStr for $type {
            type Err = $crate::bind::NotAValue;
            fn from_str(text: &str) -> Result<Self, Self::Err> {
                $crate::bind::enum_from_str(text, stringify!($type))
            }
        }

        impl<'de> $crate::serde::Deserialize<'de> for $type {
            fn deserialize<__D: $crate::serde::Deserializer<'de>>(deserializer: __D) -> Result<Self, __D::Error> {
                $crate::bind::read_enum(deserializer)
            }
        }

        impl $crate::serde::Serialize for $type {
            fn serialize<__S: $crate::serde::Serializer>(&self, serializer: __S) -> Result<__S::Ok, __S::Error> {
                $crate::bind::write_enum(*self, serializer)
            }
        }
    };
}

/// An open enum (`"x-open-enum": true`): the known strings as variants and
/// a catch-all variant that keeps any other string:
/// `open_enumeration!(Backend { Inductor = "inductor" } else Other)`.
#[macro_export]
macro_rules! open_enumeration {
    ($type:ident { $($variant:ident = $value:literal),* $(,)? } else $catch_all:ident) => {
        impl $crate::bind::OpenEnumeration for $type {
            const VALUES: &'static [&'static str] = &[$($value),*];
            const KNOWN: &'static [Self] = &[$(Self::$variant),*];
            fn unrecognized(value: String) -> Self {
                Self::$catch_all(value)
            }
            fn as_str(&self) -> &str {
                match self {
                    $(Self::$variant => $value,)*
                    Self::$catch_all(value) => value,
                }
            }
        }

        impl $type {
            /// The value's JSON string, known or not.
            pub fn as_str(&self) -> &str {
                $crate::bind::OpenEnumeration::as_str(self)
            }
        }

        impl ::core::fmt::Display for $type {
            fn fmt(&self, formatter: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                formatter.write_str(self.as_str())
            }
        }

        impl ::core::str::FromStr for $type {
            type Err = ::core::convert::Infallible;
            fn from_str(text: &str) -> Result<Self, Self::Err> {
                Ok($crate::bind::open_enum_from_str(text))
            }
        }

        impl<'de> $crate::serde::Deserialize<'de> for $type {
            fn deserialize<__D: $crate::serde::Deserializer<'de>>(deserializer: __D) -> Result<Self, __D::Error> {
                $crate::bind::read_open_enum(deserializer)
            }
        }

        impl $crate::serde::Serialize for $type {
            fn serialize<__S: $crate::serde::Serializer>(&self, serializer: __S) -> Result<__S::Ok, __S::Error> {
                $crate::bind::write_open_enum(self, serializer)
            }
        }
    };
}

/// A typed id (`"x-typed-id": prefix`), a string newtype that holds only
/// `<prefix>_<lowercase UUIDv7>`: `typed_id!(RunId, "run")`.
#[macro_export]
macro_rules! typed_id {
    ($type:ident, $prefix:literal) => {
        impl $type {
            /// The ids' prefix, before `_` and the UUID (`x-typed-id`).
            pub const PREFIX: &'static str = $prefix;

            #[doc = concat!(" `value` as an id, if it is `", $prefix, "_` followed by a lowercase UUIDv7.")]
            pub fn new(value: impl Into<String>) -> Result<Self, $crate::bind::Failure> {
                $crate::bind::typed_id(value.into(), Self::PREFIX).map(Self)
            }

            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl<'de> $crate::serde::Deserialize<'de> for $type {
            fn deserialize<__D: $crate::serde::Deserializer<'de>>(deserializer: __D) -> Result<Self, __D::Error> {
                $crate::bind::read_typed_id(deserializer, Self::PREFIX).map(Self)
            }
        }

        impl $crate::serde::Serialize for $type {
            fn serialize<__S: $crate::serde::Serializer>(&self, serializer: __S) -> Result<__S::Ok, __S::Error> {
                serializer.serialize_str(&self.0)
            }
        }
    };
}

/// A union, an enum with a variant per branch: the value is read whole and
/// its branch chosen by its tag property or by its JSON type, then read
/// from it; writing writes the branch as it is. Each branch is given with
/// its position (macro_rules cannot count) and its key:
/// `union!(Shape by tag "kind" { 0 Circle = "circle", 1 Square = "square" (Self::check_square) })`
/// or `union!(Limit by json_type { 0 Integer = "integer", 1 String = "string" })`.
#[macro_export]
macro_rules! union {
    ($type:ident by $by:ident $($property:literal)? { $($index:literal $variant:ident = $key:literal $(($check:path))?),+ $(,)? }) => {
        impl<'de> $crate::serde::Deserialize<'de> for $type {
            fn deserialize<__D: $crate::serde::Deserializer<'de>>(deserializer: __D) -> Result<Self, __D::Error> {
                let value = $crate::bind::raw(deserializer)?;
                match $crate::bind::$by(&value, $($property,)? &[$($key),+])? {
                    $($index => $crate::__branch!(value $(, $check)?).map(Self::$variant),)+
                    // `tag` and `json_type` return the position of one of the keys given.
                    _ => Err($crate::serde::de::Error::custom("no branch of the union matches")),
                }
            }
        }

        impl $crate::serde::Serialize for $type {
            fn serialize<__S: $crate::serde::Serializer>(&self, serializer: __S) -> Result<__S::Ok, __S::Error> {
                match self {
                    $(Self::$variant(branch) => $crate::serde::Serialize::serialize(branch, serializer),)+
                }
            }
        }
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __branch {
    ($value:ident) => {
        $crate::bind::branch($value)
    };
    ($value:ident, $check:path) => {
        $crate::bind::branch_checked($value, $check)
    };
}

/// A registry root that is not an object (an array, a string, ...), a
/// newtype `pub struct Type(pub T)` read as its `T`:
/// `newtype!(Tags)`, or `newtype!(Tags (Self::check))` with the checks of
/// what it holds.
#[macro_export]
macro_rules! newtype {
    ($type:ident $(($check:path))?) => {
        impl<'de> $crate::serde::Deserialize<'de> for $type {
            fn deserialize<__D: $crate::serde::Deserializer<'de>>(deserializer: __D) -> Result<Self, __D::Error> {
                $crate::__newtype_read!(deserializer $(, $check)?).map(Self)
            }
        }

        impl $crate::serde::Serialize for $type {
            fn serialize<__S: $crate::serde::Serializer>(&self, serializer: __S) -> Result<__S::Ok, __S::Error> {
                $crate::serde::Serialize::serialize(&self.0, serializer)
            }
        }
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __newtype_read {
    ($deserializer:ident) => {
        $crate::serde::Deserialize::deserialize($deserializer)
    };
    ($deserializer:ident, $check:path) => {
        $crate::bind::read_checked($deserializer, $check)
    };
}
