//! Names in both languages, decided once: each language's identifier
//! rules (`rust`, `python`: keywords, reserved names, escapes, after
//! prost-build's `ident`), and the names both languages share, escaped when
//! either reserves them. The reader numbers names with these rules, `check`
//! asks them for collisions, and the emitters spell what they decided.

pub mod python;
pub mod rust;
pub mod words;

/// A type's name in both languages: escaped with a trailing `_` when either
/// language reserves it, so that a type has one name in both (`None_`,
/// `Option_` in Rust and in Python alike).
pub fn type_name(word: &str) -> String {
    if rust::reserves_type(word) || python::reserves_type(word) {
        format!("{word}_")
    } else {
        word.to_owned()
    }
}

/// The names of a versioned envelope's constants, the same in both
/// languages (`SUPPORTED_..._VERSIONS`, docs/decisions/versioned-envelopes.md):
/// all its versions, and the current one.
pub fn version_constants(type_name: &str) -> (String, String) {
    let upper = words::snake(type_name).to_uppercase();
    (format!("SUPPORTED_{upper}_VERSIONS"), format!("{upper}_VERSION"))
}

/// A registry entry's module name in both languages, escaped the same way.
pub fn module_name(word: &str) -> String {
    if rust::reserves_module(word) || python::reserves_module(word) {
        format!("{word}_")
    } else {
        word.to_owned()
    }
}
