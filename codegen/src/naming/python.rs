//! Python identifiers for the model's word forms.

const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del", "elif", "else", "except", "finally", "for",
    "from", "global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
];

/// Names a field may not take on a model: pydantic `BaseModel` attributes,
/// the runtime's own methods, and the names the generated module's
/// annotations and defaults refer to (a field would shadow them in the class
/// body).
const RESERVED_FIELDS: &[&str] = &[
    // pydantic.BaseModel
    "construct",
    "copy",
    "dict",
    "from_orm",
    "json",
    "model_computed_fields",
    "model_config",
    "model_construct",
    "model_copy",
    "model_dump",
    "model_dump_json",
    "model_extra",
    "model_fields",
    "model_fields_set",
    "model_json_schema",
    "model_parametrized_name",
    "model_post_init",
    "model_rebuild",
    "model_validate",
    "model_validate_json",
    "model_validate_strings",
    "parse_file",
    "parse_obj",
    "parse_raw",
    "schema",
    "schema_json",
    "update_forward_refs",
    "validate",
    // the model class's metaclass (`type`, `abc.ABCMeta`): pydantic warns that a field would shadow them
    "mro",
    "register",
    // concord_runtime.Model
    "digest",
    "from_json",
    "to_json",
    // what generated annotations and defaults name
    "typing",
    "pydantic",
    "concord_runtime",
    "str",
    "int",
    "float",
    "bool",
    "dict",
    "list",
    "object",
    // names pycodestyle calls ambiguous (E741: `l`, `O` and `I` read as `1` and `0`)
    "l",
    "O",
    "I",
];

/// A model field from a snake_case word: `class` becomes `class_`.
pub fn field(word: &str) -> String {
    if KEYWORDS.contains(&word) || RESERVED_FIELDS.contains(&word) {
        format!("{word}_")
    } else {
        word.to_owned()
    }
}

/// The names a record class's body binds itself (`concord_runtime`'s
/// record constants): inside the body, a field annotated with a type of
/// that name would name the attribute instead.
const CLASS_ATTRIBUTES: &[&str] = &["NAME", "SCHEMA_DIGEST", "SCHEMA", "ASSERTED"];

/// Whether a class or alias may not take this name (`None`, `NAME`).
pub fn reserves_type(word: &str) -> bool {
    KEYWORDS.contains(&word) || CLASS_ATTRIBUTES.contains(&word)
}

/// Whether a module may not take this name: a keyword, or a name the
/// package's own `__init__.py` imports.
pub fn reserves_module(word: &str) -> bool {
    KEYWORDS.contains(&word) || matches!(word, "typing" | "pydantic" | "concord_runtime")
}

/// A module: the name both languages give it (`super::module_name`).
pub fn module(word: &str) -> String {
    super::module_name(word)
}
