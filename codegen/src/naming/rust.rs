//! Rust identifiers for the model's word forms (after prost-build's `ident`).

/// Keywords of every edition up to 2024; usable as `r#kw` except the ones
/// in [`NOT_RAW`].
const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern", "false", "fn", "for", "gen", "if", "impl", "in", "let",
    "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where",
    "while", "abstract", "become", "box", "do", "final", "macro", "override", "priv", "try", "typeof", "unsized", "virtual", "yield",
];
const NOT_RAW: &[&str] = &["crate", "self", "super", "Self"];
/// Prelude names the generated code uses unqualified, for readability; a
/// schema type of that name is renamed rather than shadow them.
const PRELUDE: &[&str] = &["Box", "Option", "String", "Vec", "Some", "None", "Ok", "Err", "Result"];
/// The statics generated code defines beside the types (the pinned schema
/// files): a tuple struct of that name would be a second value of it.
const STATICS: &[&str] = &["PINNED", "DOCUMENTS"];

/// A struct field from a snake_case word: `type` becomes `r#type`.
pub fn field(word: &str) -> String {
    if NOT_RAW.contains(&word) {
        format!("{word}_")
    } else if KEYWORDS.contains(&word) {
        format!("r#{word}")
    } else {
        word.to_owned()
    }
}

/// Whether a type or variant may not take this name: `Self`, the prelude
/// names generated code refers to (`Option`), and its own statics (`PINNED`).
pub fn reserves_type(word: &str) -> bool {
    NOT_RAW.contains(&word) || PRELUDE.contains(&word) || STATICS.contains(&word)
}

/// Whether a module may not take this name.
pub fn reserves_module(word: &str) -> bool {
    KEYWORDS.contains(&word) || NOT_RAW.contains(&word)
}

/// A module: the name both languages give it (`super::module_name`).
pub fn module(word: &str) -> String {
    super::module_name(word)
}

/// The field that holds a growth point's unknown keys (or a typed map's
/// entries): `extra`, or `extra_` when a property is called `extra`.
/// No property name becomes `extra_`: snake_case words never end in `_`.
pub fn catch_all<'a>(mut fields: impl Iterator<Item = &'a str>) -> &'static str {
    if fields.any(|field| field == "extra") {
        "extra_"
    } else {
        "extra"
    }
}
