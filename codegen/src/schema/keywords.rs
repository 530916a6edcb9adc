//! The keyword table: every keyword of the Draft 2020-12 vocabularies, the
//! keywords of other drafts that real schemas still carry, and concord's own
//! `x-` annotations, each with what concord does with it. The reader consults
//! it for every key of every schema object, and `docs/schema-subset.md`
//! holds its rendering (a test keeps the two equal), so a keyword can be
//! neither forgotten nor silently dropped.

/// What concord does with a keyword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Read into the model: it shapes a type, a field or a policy.
    Bound(&'static str),
    /// Checked on every value, the same way in both languages.
    Enforced(&'static str),
    /// Changes neither what is accepted nor what is written: kept as
    /// documentation or ignored alike.
    Annotation(&'static str),
    /// Refused at generation time, for this reason.
    Refused(&'static str),
}

#[derive(Clone, Copy, Debug)]
pub struct Keyword {
    pub name: &'static str,
    /// The vocabulary that defines it (`core`, `applicator`, ..., `concord`,
    /// or the older draft it comes from).
    pub vocabulary: &'static str,
    pub role: Role,
}

use Role::{Annotation, Bound, Enforced, Refused};

const fn keyword(name: &'static str, vocabulary: &'static str, role: Role) -> Keyword {
    Keyword { name, vocabulary, role }
}

/// Keywords whose value is one subschema.
pub const ONE: &[&str] =
    &["not", "if", "then", "else", "contains", "propertyNames", "items", "additionalProperties", "unevaluatedItems", "unevaluatedProperties", "contentSchema"];
/// Keywords whose value is an array of subschemas.
pub const MANY: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];
/// Keywords whose value maps names to subschemas.
pub const NAMED: &[&str] = &["properties", "patternProperties", "dependentSchemas", "$defs", "definitions"];

pub const GROWTH_POINT: &str = "x-growth-point";
pub const OPEN_ENUM: &str = "x-open-enum";
pub const TYPED_ID: &str = "x-typed-id";
pub const VERSION_FIELD: &str = "x-version-field";

/// Every keyword concord knows, by vocabulary.
pub const KEYWORDS: &[Keyword] = &[
    // core
    keyword("$schema", "core", Bound("Draft 2020-12; an entry in draft-04, draft-06, draft-07 or 2019-09 makes no types yet, its records are checked by the assertion engine in that dialect; `http` or `https`, with or without `#`")),
    keyword("$id", "core", Bound("a document's base URI; below the root, an embedded resource: any JSON value, checked by the assertion engine")),
    keyword("$ref", "core", Bound("the type it points to in this document; keywords beside it apply too (merged as an `allOf`); a reference by URI: any JSON value, which the assertion engine checks (it never fetches: a `$ref` outside the registry is refused where it stands, and what the engine cannot build is refused by `concord pin` and `generate`)")),
    keyword("$anchor", "core", Bound("a name `$ref: \"#name\"` resolves to")),
    keyword("$defs", "core", Bound("named types of the entry's module")),
    keyword("$comment", "core", Annotation("ignored")),
    keyword("$vocabulary", "core", Annotation("declares a meta-schema's vocabularies; no effect on records")),
    keyword("$dynamicRef", "core", Enforced("resolved through the dynamic scope, so one location can mean different schemas: any JSON value, checked by the assertion engine")),
    keyword("$dynamicAnchor", "core", Bound("a name `$dynamicRef` resolves to, by the assertion engine")),
    // applicator
    keyword("properties", "applicator", Bound("fields of an object type, in schema order")),
    keyword("additionalProperties", "applicator", Bound("the unknown-key policy: `false` refuses, a schema types the extra entries (docs/unknown-keys.md)")),
    keyword("items", "applicator", Bound("the element type of an array (after `prefixItems`: the rest)")),
    keyword("prefixItems", "applicator", Bound("with `items: false` and as many `minItems`: a tuple (`(A, B)`, `tuple[A, B]`) of plain shapes; else the items are any values and the assertion engine checks them")),
    keyword("contains", "applicator", Enforced("by the assertion engine: the record's JSON is checked against the pinned schema, in both languages")),
    keyword("patternProperties", "applicator", Enforced("by the assertion engine: the record's JSON is checked against the pinned schema, in both languages")),
    keyword("dependentSchemas", "applicator", Enforced("by the assertion engine: the record's JSON is checked against the pinned schema, in both languages")),
    keyword("propertyNames", "applicator", Enforced("by the assertion engine: the record's JSON is checked against the pinned schema, in both languages")),
    keyword("if", "applicator", Enforced("by the assertion engine: the record's JSON is checked against the pinned schema, in both languages")),
    keyword("then", "applicator", Enforced("by the assertion engine: the record's JSON is checked against the pinned schema, in both languages")),
    keyword("else", "applicator", Enforced("by the assertion engine: the record's JSON is checked against the pinned schema, in both languages")),
    keyword("allOf", "applicator", Bound("the parts merged into one type: properties in part order, `required` joined; where parts disagree, a looser type and the assertion engine")),
    keyword("anyOf", "applicator", Bound("a union, when the value itself names its branch: by a tag property every branch requires with its own constant string, or by distinct JSON types; otherwise any JSON value, checked by the assertion engine")),
    keyword("oneOf", "applicator", Bound("as `anyOf`; such branches exclude each other, so exactly one matches")),
    keyword("not", "applicator", Enforced("by the assertion engine: the record's JSON is checked against the pinned schema, in both languages")),
    // unevaluated
    keyword("unevaluatedProperties", "unevaluated", Bound("`false`: a closed type, like `additionalProperties: false`; a schema: the keys are kept and the assertion engine checks them")),
    keyword("unevaluatedItems", "unevaluated", Enforced("by the assertion engine: the record's JSON is checked against the pinned schema, in both languages")),
    // validation
    keyword("type", "validation", Bound("the value's type; `[X, \"null\"]` is nullable; several types are a union by JSON type")),
    keyword("enum", "validation", Bound("string values (and `null`): an enum type; other values: checked by the assertion engine")),
    keyword("const", "validation", Bound("a string: a one-value enum type; another value: checked by the assertion engine")),
    keyword("required", "validation", Bound("required fields; the others are optional")),
    keyword("multipleOf", "validation", Enforced("integers exactly; numbers on their shortest decimal form, exactly")),
    keyword("maximum", "validation", Enforced("integers and numbers")),
    keyword("exclusiveMaximum", "validation", Enforced("integers and numbers")),
    keyword("minimum", "validation", Enforced("integers and numbers")),
    keyword("exclusiveMinimum", "validation", Enforced("integers and numbers")),
    keyword("maxLength", "validation", Enforced("in Unicode code points")),
    keyword("minLength", "validation", Enforced("in Unicode code points")),
    keyword("pattern", "validation", Enforced("ECMA-262, translated for the `regex` crate, which both languages run; a pattern it cannot mean alike (a lookaround): the assertion engine")),
    keyword("maxItems", "validation", Enforced("arrays")),
    keyword("minItems", "validation", Enforced("arrays")),
    keyword("uniqueItems", "validation", Enforced("JSON equality: `1` equals `1.0`, `true` does not equal `1`; over objects, by the assertion engine on the input")),
    keyword("maxContains", "validation", Enforced("by the assertion engine: the record's JSON is checked against the pinned schema, in both languages")),
    keyword("minContains", "validation", Enforced("by the assertion engine: the record's JSON is checked against the pinned schema, in both languages")),
    keyword("maxProperties", "validation", Enforced("objects, counting every key read (dropped ones too)")),
    keyword("minProperties", "validation", Enforced("objects, counting every key read (dropped ones too)")),
    keyword("dependentRequired", "validation", Enforced("by the assertion engine: the record's JSON is checked against the pinned schema, in both languages")),
    // format-annotation
    keyword("format", "format-annotation", Annotation("a string stays a string; 2020-12 makes `format` an annotation by default")),
    // content
    keyword("contentEncoding", "content", Annotation("the string is kept as written")),
    keyword("contentMediaType", "content", Annotation("the string is kept as written")),
    keyword("contentSchema", "content", Annotation("the string is kept as written")),
    // meta-data
    keyword("title", "meta-data", Annotation("documentation")),
    keyword("description", "meta-data", Annotation("documentation")),
    keyword("default", "meta-data", Annotation("never written: output holds only what the input held")),
    keyword("deprecated", "meta-data", Annotation("ignored")),
    keyword("readOnly", "meta-data", Annotation("ignored")),
    keyword("writeOnly", "meta-data", Annotation("ignored")),
    keyword("examples", "meta-data", Annotation("ignored")),
    // concord
    keyword(GROWTH_POINT, "concord", Bound("`true`: unknown keys are kept verbatim and written back (docs/unknown-keys.md)")),
    keyword(OPEN_ENUM, "concord", Bound("`true` beside a string `enum`: any other string is kept and written back unchanged (`Unrecognized(String)` in Rust, `OpenEnum[Literal[...]]`, a `str`, in Python; docs/extensions.md)")),
    keyword(TYPED_ID, "concord", Bound("a prefix (`[a-z][a-z0-9]*` words joined by `_`) on a string: only `<prefix>_<lowercase UUIDv7>` is read (a newtype in Rust, a checked `str` in Python; docs/extensions.md)")),
    keyword(VERSION_FIELD, "concord", Bound("the property (required, an integer `enum` or `const`) that holds an envelope's version: any other version is refused before anything else, as `unsupported-version` (docs/extensions.md)")),
    // other drafts
    keyword("definitions", "draft-07", Bound("a place for named types, as `$defs`")),
    keyword("dependencies", "draft-07", Refused("a Draft 2020-12 validator ignores it, so the records would not be checked as its author meant: use `dependentRequired` or `dependentSchemas`")),
    keyword("additionalItems", "draft-2019-09", Refused("a Draft 2020-12 validator ignores it: use `items` after `prefixItems`")),
    keyword("$recursiveRef", "draft-2019-09", Refused("a Draft 2020-12 validator ignores it: use `$ref`")),
    keyword("$recursiveAnchor", "draft-2019-09", Refused("a Draft 2020-12 validator ignores it")),
    keyword("id", "draft-04", Refused("Draft 4's `$id`: a Draft 2020-12 validator ignores it")),
    keyword("nullable", "openapi-3.0", Refused("a Draft 2020-12 validator ignores it: use `\"type\": [X, \"null\"]`")),
];

/// Keywords no generated type expresses: the records of a document that
/// holds any of them are also checked by the assertion engine (the
/// `jsonschema` crate, in both languages), against the pinned schema.
pub const ENGINE: &[&str] = &[
    "not",
    "if",
    "then",
    "else",
    "contains",
    "minContains",
    "maxContains",
    "dependentRequired",
    "dependentSchemas",
    "propertyNames",
    "patternProperties",
    "unevaluatedItems",
    "prefixItems",
    "$dynamicAnchor",
];

/// Keywords other tools write as documentation, outside any vocabulary.
/// They are annotations even though they look like misspellings of ours.
const KNOWN_ANNOTATIONS: &[&str] = &["example", "markdownDescription", "deprecationMessage", "errorMessage", "enumDescriptions", "markdownEnumDescriptions"];

pub fn lookup(name: &str) -> Option<&'static Keyword> {
    KEYWORDS.iter().find(|keyword| keyword.name == name)
}

/// What an unknown keyword is: an annotation, as Draft 2020-12 reads it,
/// unless it looks like a misspelt keyword of ours or an unknown `x-`
/// keyword (a misspelt `x-growth-point` must not pass unnoticed).
pub fn unknown(name: &str) -> Role {
    if KNOWN_ANNOTATIONS.contains(&name) {
        return Annotation("an annotation other tools read");
    }
    if name.starts_with("x-") {
        return Refused("an unknown extension keyword: concord knows `x-growth-point`, `x-open-enum`, `x-typed-id` and `x-version-field`, and a misspelt one must not pass unnoticed");
    }
    let misspelt = KEYWORDS
        .iter()
        .filter(|keyword| !matches!(keyword.role, Annotation(_)))
        .find(|keyword| close(&keyword.name.to_ascii_lowercase(), &name.to_ascii_lowercase()));
    match misspelt {
        Some(_) => Refused("it looks like a misspelt keyword, which would leave a rule unchecked"),
        None => Annotation("an unknown keyword: Draft 2020-12 reads it as an annotation"),
    }
}

/// Whether two names are one or two edits apart (and long enough for that
/// to mean a misspelling), or equal ignoring case.
fn close(known: &str, name: &str) -> bool {
    if known == name {
        return true;
    }
    let allowed = match known.len() {
        0..=3 => 0,
        4..=6 => 1,
        _ => 2,
    };
    // Names whose lengths differ by more are farther apart without counting:
    // the edit distance to a megabyte-long key would take seconds.
    allowed > 0
        && name.len().abs_diff(known.len()) <= allowed * 4
        && name.chars().count().abs_diff(known.len()) <= allowed
        && edit_distance(known, name) <= allowed
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1).min(row[j] + 1).min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

/// The table as Markdown, as `docs/schema-subset.md` holds it.
pub fn markdown() -> String {
    let mut out = String::from("| keyword | vocabulary | concord | how |\n|---|---|---|---|\n");
    for keyword in KEYWORDS {
        let (role, how) = match keyword.role {
            Bound(how) => ("bound", how),
            Enforced(how) => ("enforced", how),
            Annotation(how) => ("annotation", how),
            Refused(why) => ("refused", why),
        };
        out.push_str(&format!("| `{}` | {} | {role} | {} |\n", keyword.name, keyword.vocabulary, how.replace('|', "\\|")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misspellings_are_refused_and_other_unknown_keywords_are_annotations() {
        for name in ["maxLenght", "porperties", "additionalproperties", "x-growth-pont", "x-open-enums", "x-typedid", "requried", "minimun"] {
            assert!(matches!(unknown(name), Refused(_)), "{name}");
        }
        for name in ["example", "$version", "$todo", "tsType", "markdownDescription", "i18n"] {
            assert!(matches!(unknown(name), Annotation(_)), "{name}");
        }
    }

    #[test]
    fn every_keyword_is_listed_once() {
        for (index, keyword) in KEYWORDS.iter().enumerate() {
            assert!(KEYWORDS[index + 1..].iter().all(|other| other.name != keyword.name), "{} is listed twice", keyword.name);
        }
    }
}
