//! The keyword table: every keyword of the dialects concord reads
//! (draft-04, draft-06, draft-07, 2019-09, 2020-12), the keywords other
//! specifications carry into schemas, and concord's own `x-` annotations,
//! each with what concord does with it in each dialect, and the facts the
//! reader, the engine's walk and `concord upgrade` go by (its subschemas, the
//! types it applies to, whether only the engine checks it, ...). The reader
//! consults it for every key of every schema object, in the document's
//! dialect, and `docs/schema-subset.md` holds its rendering (a test keeps the
//! two equal), so a keyword can be neither forgotten nor silently dropped.
//!
//! A keyword a dialect does not have is what that dialect makes of it: an
//! annotation its validators ignore. Where its author plainly meant a rule
//! (`const` in draft-04, `dependencies` in 2020-12), the rule would go
//! unchecked, so it is refused, with the dialect that has it.

use super::dialect::{Dialect, ALL};

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

/// How many subschemas a keyword's value holds: what a walk of a
/// document's schemas descends into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arity {
    /// None: its value is data, a name or a URI.
    Zero,
    /// One (`items` is also an array of them before 2020-12).
    One,
    /// An array of them.
    Many,
    /// An object mapping names to them (`dependencies` maps names to a
    /// subschema or a list of names).
    Named,
}

/// The JSON types whose reader takes a keyword: on a value of another type
/// it is a no-op, so a schema without `type` that holds it is read as a
/// union by JSON type, each branch with its own type's keywords.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Read whatever the value's type.
    Any,
    Strings,
    /// Integers and numbers.
    Numbers,
    Arrays,
    Objects,
}

impl Family {
    /// The names `type` gives the family's values.
    pub fn types(self) -> &'static [&'static str] {
        match self {
            Family::Any => JSON_TYPES,
            Family::Strings => &["string"],
            Family::Numbers => &["integer", "number"],
            Family::Arrays => &["array"],
            Family::Objects => &["object"],
        }
    }
}

/// The JSON types `type` names, in the order a schema without `type` is
/// read as a union of them.
pub const JSON_TYPES: &[&str] = &["object", "array", "string", "integer", "number", "boolean", "null"];

#[derive(Clone, Copy, Debug)]
pub struct Keyword {
    pub name: &'static str,
    /// The vocabulary that defines it (`core`, `applicator`, ..., `concord`,
    /// or the specification it comes from).
    pub vocabulary: &'static str,
    /// What it is from a dialect on, oldest first: each span lasts until the
    /// next begins, and the first begins at draft-04.
    pub spans: &'static [(Dialect, Role)],
    pub arity: Arity,
    pub family: Family,
    /// No generated type expresses it: where the dialect has it (bound or
    /// enforced), the records of its document are also checked by the
    /// assertion engine (the `jsonschema` crate, in both languages), against
    /// the pinned schema.
    pub engine_only: bool,
    /// It only asserts something of the value it stands beside: a union
    /// branch made of such keywords (and annotations) adds checks, not a shape.
    pub asserts_only: bool,
    /// Where `allOf` parts give it different values, the merged type may
    /// leave it to the engine: the type stays looser than the schema, never
    /// stricter.
    pub loosenable: bool,
    /// Its entries become the fields, variants or branches of one type, so
    /// their number is bounded (`MAX_MEMBERS`, docs/limits.md).
    pub members_bounded: bool,
}

impl Keyword {
    /// What the keyword is in `dialect`.
    pub fn role(&self, dialect: Dialect) -> Role {
        self.spans.iter().rev().find(|(from, _)| *from <= dialect).unwrap_or(&self.spans[0]).1
    }
}

use Role::{Annotation, Bound, Enforced, Refused};

const D4: Dialect = Dialect::Draft4;
const D6: Dialect = Dialect::Draft6;
const D7: Dialect = Dialect::Draft7;
const D2019: Dialect = Dialect::Draft201909;
const D2020: Dialect = Dialect::Draft202012;

/// A row: a keyword with no subschema, read whatever the type, and none of
/// the facts below until a builder sets it.
const fn keyword(name: &'static str, vocabulary: &'static str, spans: &'static [(Dialect, Role)]) -> Keyword {
    Keyword {
        name,
        vocabulary,
        spans,
        arity: Arity::Zero,
        family: Family::Any,
        engine_only: false,
        asserts_only: false,
        loosenable: false,
        members_bounded: false,
    }
}

/// The builders of a row's facts, so that a row stays a line or two.
impl Keyword {
    const fn holds(self, arity: Arity) -> Keyword {
        Keyword { arity, ..self }
    }
    const fn applies_to(self, family: Family) -> Keyword {
        Keyword { family, ..self }
    }
    const fn engine_only(self) -> Keyword {
        Keyword { engine_only: true, ..self }
    }
    const fn asserts_only(self) -> Keyword {
        Keyword { asserts_only: true, ..self }
    }
    const fn loosenable(self) -> Keyword {
        Keyword { loosenable: true, ..self }
    }
    const fn members_bounded(self) -> Keyword {
        Keyword { members_bounded: true, ..self }
    }
}

use Arity::{Many, Named, One};
use Family::{Arrays, Numbers, Objects, Strings};

pub const GROWTH_POINT: &str = "x-growth-point";
pub const OPEN_ENUM: &str = "x-open-enum";
pub const TYPED_ID: &str = "x-typed-id";
pub const VERSION_FIELD: &str = "x-version-field";
/// The vocabulary of concord's own keywords, the four above.
pub const CONCORD: &str = "concord";

/// What the engine does for a keyword no type expresses.
const BY_ENGINE: &str = "by the assertion engine: the record's JSON is checked against the pinned schema, in both languages";

/// Every keyword concord knows, by vocabulary.
pub const KEYWORDS: &[Keyword] = &[
    // core
    keyword("$schema", "core", &[(D4, Bound("the document's dialect: any spelling of a dialect's URI the engine reads (`http` or `https`, with or without `#`); a document without it is read in the dialect its registry declares (docs/dialects.md)"))]),
    keyword("$id", "core", &[
        (D4, Refused("draft-04 spells it `id`: a draft-04 validator ignores `$id`, so `$ref`s by it would not resolve")),
        (D6, Bound("a document's base URI; below the root, an embedded resource: any JSON value, checked by the assertion engine; `\"#name\"` is a name `$ref: \"#name\"` resolves to; beside `$ref`, ignored")),
        (D2019, Bound("a document's base URI; below the root, an embedded resource: any JSON value, checked by the assertion engine")),
    ]),
    keyword("$ref", "core", &[
        (D4, Bound("the type it points to in this document; keywords beside it are ignored, as the draft says; a reference by URI: any JSON value, which the assertion engine checks (it never fetches: a `$ref` outside the registry is refused where it stands, and what the engine cannot build is refused by `concord pin` and `generate`)")),
        (D2019, Bound("the type it points to in this document; keywords beside it apply too (merged as an `allOf`); a reference by URI: any JSON value, which the assertion engine checks (it never fetches: a `$ref` outside the registry is refused where it stands, and what the engine cannot build is refused by `concord pin` and `generate`)")),
    ]),
    keyword("$anchor", "core", &[
        (D4, Refused("a 2019-09 keyword a validator of this draft ignores, so a `$ref` to it would not resolve: name the place with `$id: \"#name\"` (`id` in draft-04)")),
        (D2019, Bound("a name `$ref: \"#name\"` resolves to")),
    ]),
    keyword("$defs", "core", &[
        (D4, Bound("no keyword of the draft, but a place `$ref` reaches by JSON pointer (the draft's own is `definitions`): its schemas are named types of the entry's module, and a value in it that is no schema is data")),
        (D2019, Bound("named types of the entry's module")),
    ]).holds(Named),
    keyword("$comment", "core", &[(D4, Annotation("ignored"))]),
    keyword("$vocabulary", "core", &[(D4, Annotation("declares a meta-schema's vocabularies; no effect on records"))]),
    keyword("$dynamicRef", "core", &[
        (D4, Refused("a 2020-12 keyword a validator of this dialect ignores: use `$ref`")),
        (D2020, Enforced("resolved through the dynamic scope, so one location can mean different schemas: any JSON value, checked by the assertion engine")),
    ]),
    keyword("$dynamicAnchor", "core", &[
        (D4, Refused("a 2020-12 keyword a validator of this dialect ignores")),
        (D2020, Bound("a name `$dynamicRef` resolves to, by the assertion engine")),
    ]).engine_only(),
    keyword("$recursiveRef", "core", &[
        (D4, Refused("a 2019-09 keyword a validator of this draft ignores: use `$ref`")),
        (D2019, Enforced("resolved through the dynamic scope, so one location can mean different schemas: any JSON value, checked by the assertion engine")),
        (D2020, Refused("a 2019-09 keyword a Draft 2020-12 validator ignores: use `$ref` (or `$dynamicRef`; `concord upgrade` rewrites it)")),
    ]),
    keyword("$recursiveAnchor", "core", &[
        (D4, Refused("a 2019-09 keyword a validator of this draft ignores")),
        (D2019, Bound("where `$recursiveRef` resolves to, by the assertion engine")),
        (D2020, Refused("a 2019-09 keyword a Draft 2020-12 validator ignores (`$dynamicAnchor`; `concord upgrade` rewrites it)")),
    ]).engine_only(),
    keyword("id", "core", &[
        (D4, Bound("a document's base URI; below the root, an embedded resource: any JSON value, checked by the assertion engine; `\"#name\"` is a name `$ref: \"#name\"` resolves to; beside `$ref`, ignored")),
        (D6, Refused("draft-04's `$id`: a validator of this dialect ignores it, so `$ref`s by it would not resolve")),
    ]),
    keyword("definitions", "core", &[(D4, Bound("named types of the entry's module, as `$defs`"))]).holds(Named),
    // applicator
    keyword("properties", "applicator", &[(D4, Bound("fields of an object type, in schema order"))]).holds(Named).applies_to(Objects).members_bounded(),
    keyword("additionalProperties", "applicator", &[(D4, Bound("the unknown-key policy: `false` refuses, a schema types the extra entries (docs/unknown-keys.md)"))]).holds(One).applies_to(Objects).loosenable(),
    keyword("items", "applicator", &[
        (D4, Bound("a schema: the element type of an array; an array of schemas: a tuple, as 2020-12's `prefixItems`, the rest typed by `additionalItems`")),
        (D2020, Bound("the element type of an array (after `prefixItems`: the rest)")),
    ]).holds(One).applies_to(Arrays),
    keyword("prefixItems", "applicator", &[
        (D4, Refused("a 2020-12 keyword a validator of this dialect ignores: use an array of `items`")),
        (D2020, Bound("with `items: false` and as many `minItems`: a tuple (`(A, B)`, `tuple[A, B]`) of plain shapes; else the items are any values and the assertion engine checks them")),
    ]).holds(Many).applies_to(Arrays).engine_only().loosenable().members_bounded(),
    keyword("additionalItems", "applicator", &[
        (D4, Bound("after an array of `items`, the rest, as 2020-12's `items` after `prefixItems`; beside a schema `items` or none, ignored, as the draft says")),
        (D2020, Refused("a Draft 2020-12 validator ignores it: use `items` after `prefixItems` (`concord upgrade` rewrites it)")),
    ]).holds(One).applies_to(Arrays),
    keyword("contains", "applicator", &[
        (D4, Refused("a draft-06 keyword a draft-04 validator ignores, so the rule would go unchecked")),
        (D6, Enforced(BY_ENGINE)),
    ]).holds(One).applies_to(Arrays).engine_only().asserts_only().loosenable(),
    keyword("patternProperties", "applicator", &[(D4, Enforced(BY_ENGINE))]).holds(Named).applies_to(Objects).engine_only().loosenable().members_bounded(),
    // No family: a schema without `type` holding it is any value the engine checks, not a union by type.
    keyword("dependencies", "applicator", &[
        (D4, Enforced("by the assertion engine, both forms (required names and a schema): the record's JSON is checked against the pinned schema, in both languages")),
        (D2019, Refused("a validator of this dialect ignores it, so the records would not be checked as its author meant: use `dependentRequired` or `dependentSchemas` (`concord upgrade` rewrites it)")),
    ]).holds(Named).engine_only(),
    keyword("dependentSchemas", "applicator", &[
        (D4, Refused("a 2019-09 keyword a validator of this draft ignores: use `dependencies`")),
        (D2019, Enforced(BY_ENGINE)),
    ]).holds(Named).applies_to(Objects).engine_only().loosenable().members_bounded(),
    keyword("propertyNames", "applicator", &[
        (D4, Refused("a draft-06 keyword a draft-04 validator ignores, so the rule would go unchecked")),
        (D6, Enforced(BY_ENGINE)),
    ]).holds(One).applies_to(Objects).engine_only().asserts_only().loosenable(),
    keyword("if", "applicator", &[
        (D4, Refused("a draft-07 keyword a validator of this draft ignores, so the rule would go unchecked")),
        (D7, Enforced(BY_ENGINE)),
    ]).holds(One).engine_only().asserts_only().loosenable(),
    keyword("then", "applicator", &[
        (D4, Refused("a draft-07 keyword a validator of this draft ignores, so the rule would go unchecked")),
        (D7, Enforced(BY_ENGINE)),
    ]).holds(One).engine_only().asserts_only().loosenable(),
    keyword("else", "applicator", &[
        (D4, Refused("a draft-07 keyword a validator of this draft ignores, so the rule would go unchecked")),
        (D7, Enforced(BY_ENGINE)),
    ]).holds(One).engine_only().asserts_only().loosenable(),
    keyword("allOf", "applicator", &[(D4, Bound("the parts merged into one type: properties in part order, `required` joined; where parts disagree, a looser type and the assertion engine"))]).holds(Many).members_bounded(),
    keyword("anyOf", "applicator", &[(D4, Bound("a union, when the value itself names its branch: by a tag property every branch requires with its own constant string, or by distinct JSON types; otherwise any JSON value, checked by the assertion engine"))]).holds(Many).members_bounded(),
    keyword("oneOf", "applicator", &[(D4, Bound("as `anyOf`; such branches exclude each other, so exactly one matches"))]).holds(Many).members_bounded(),
    keyword("not", "applicator", &[(D4, Enforced(BY_ENGINE))]).holds(One).engine_only().asserts_only().loosenable(),
    // unevaluated
    keyword("unevaluatedProperties", "unevaluated", &[
        (D4, Refused("a 2019-09 keyword a validator of this draft ignores, so the rule would go unchecked")),
        (D2019, Bound("`false`: a closed type, like `additionalProperties: false`; a schema: the keys are kept and the assertion engine checks them")),
    ]).holds(One).applies_to(Objects).loosenable(),
    keyword("unevaluatedItems", "unevaluated", &[
        (D4, Refused("a 2019-09 keyword a validator of this draft ignores, so the rule would go unchecked")),
        (D2019, Enforced(BY_ENGINE)),
    ]).holds(One).applies_to(Arrays).engine_only().loosenable(),
    // validation
    keyword("type", "validation", &[(D4, Bound("the value's type; `[X, \"null\"]` is nullable; several types are a union by JSON type"))]).members_bounded(),
    keyword("enum", "validation", &[(D4, Bound("string values (and `null`): an enum type; other values: checked by the assertion engine"))]).loosenable().members_bounded(),
    keyword("const", "validation", &[
        (D4, Refused("a draft-06 keyword a draft-04 validator ignores, so the rule would go unchecked: use a one-value `enum`")),
        (D6, Bound("a string: a one-value enum type; another value: checked by the assertion engine")),
    ]).loosenable(),
    keyword("required", "validation", &[(D4, Bound("required fields; the others are optional"))]).applies_to(Objects).asserts_only().members_bounded(),
    keyword("multipleOf", "validation", &[(D4, Enforced("integers exactly; numbers on their shortest decimal form, exactly"))]).applies_to(Numbers).asserts_only().loosenable(),
    keyword("maximum", "validation", &[(D4, Enforced("integers and numbers"))]).applies_to(Numbers).asserts_only().loosenable(),
    keyword("exclusiveMaximum", "validation", &[
        (D4, Enforced("a boolean: `true` makes `maximum` exclusive")),
        (D6, Enforced("integers and numbers")),
    ]).applies_to(Numbers).asserts_only().loosenable(),
    keyword("minimum", "validation", &[(D4, Enforced("integers and numbers"))]).applies_to(Numbers).asserts_only().loosenable(),
    keyword("exclusiveMinimum", "validation", &[
        (D4, Enforced("a boolean: `true` makes `minimum` exclusive")),
        (D6, Enforced("integers and numbers")),
    ]).applies_to(Numbers).asserts_only().loosenable(),
    keyword("maxLength", "validation", &[(D4, Enforced("in Unicode code points"))]).applies_to(Strings).asserts_only().loosenable(),
    keyword("minLength", "validation", &[(D4, Enforced("in Unicode code points"))]).applies_to(Strings).asserts_only().loosenable(),
    keyword("pattern", "validation", &[(D4, Enforced("ECMA-262, translated for the `regex` crate, which both languages run; a pattern it cannot mean alike (a lookaround): the assertion engine"))]).applies_to(Strings).asserts_only().loosenable(),
    keyword("maxItems", "validation", &[(D4, Enforced("arrays"))]).applies_to(Arrays).asserts_only().loosenable(),
    keyword("minItems", "validation", &[(D4, Enforced("arrays"))]).applies_to(Arrays).asserts_only().loosenable(),
    keyword("uniqueItems", "validation", &[(D4, Enforced("JSON equality: `1` equals `1.0`, `true` does not equal `1`; over objects, by the assertion engine on the input"))]).applies_to(Arrays).asserts_only().loosenable(),
    keyword("maxContains", "validation", &[
        (D4, Refused("a 2019-09 keyword a validator of this draft ignores, so the rule would go unchecked")),
        (D2019, Enforced(BY_ENGINE)),
    ]).applies_to(Arrays).engine_only().asserts_only().loosenable(),
    keyword("minContains", "validation", &[
        (D4, Refused("a 2019-09 keyword a validator of this draft ignores, so the rule would go unchecked")),
        (D2019, Enforced(BY_ENGINE)),
    ]).applies_to(Arrays).engine_only().asserts_only().loosenable(),
    keyword("maxProperties", "validation", &[(D4, Enforced("objects, counting every key read (dropped ones too)"))]).applies_to(Objects).asserts_only().loosenable(),
    keyword("minProperties", "validation", &[(D4, Enforced("objects, counting every key read (dropped ones too)"))]).applies_to(Objects).asserts_only().loosenable(),
    keyword("dependentRequired", "validation", &[
        (D4, Refused("a 2019-09 keyword a validator of this draft ignores: use `dependencies`")),
        (D2019, Enforced(BY_ENGINE)),
    ]).applies_to(Objects).engine_only().asserts_only().loosenable().members_bounded(),
    // format
    keyword("format", "format-annotation", &[(D4, Annotation("a string stays a string: the engine asserts no format, in any dialect (2019-09 and 2020-12 make it an annotation by default)"))]),
    // content
    keyword("contentEncoding", "content", &[(D4, Annotation("the string is kept as written: draft-06 and draft-07 let a validator assert it, and the engine does not, as it asserts no `format`"))]),
    keyword("contentMediaType", "content", &[(D4, Annotation("the string is kept as written: draft-06 and draft-07 let a validator assert it, and the engine does not, as it asserts no `format`"))]),
    keyword("contentSchema", "content", &[(D4, Annotation("the string is kept as written"))]).holds(One),
    // meta-data
    keyword("title", "meta-data", &[(D4, Annotation("documentation"))]),
    keyword("description", "meta-data", &[(D4, Annotation("documentation"))]),
    keyword("default", "meta-data", &[(D4, Annotation("never written: output holds only what the input held"))]),
    keyword("deprecated", "meta-data", &[(D4, Annotation("ignored"))]),
    keyword("readOnly", "meta-data", &[(D4, Annotation("ignored"))]),
    keyword("writeOnly", "meta-data", &[(D4, Annotation("ignored"))]),
    keyword("examples", "meta-data", &[(D4, Annotation("ignored"))]),
    // concord
    keyword(GROWTH_POINT, CONCORD, &[(D4, Bound("`true`: unknown keys are kept verbatim and written back (docs/unknown-keys.md)"))]).applies_to(Objects),
    keyword(OPEN_ENUM, CONCORD, &[(D4, Bound("`true` beside a string `enum`: any other string is kept and written back unchanged (`Unrecognized(String)` in Rust, `OpenEnum[Literal[...]]`, a `str`, in Python; docs/extensions.md)"))]),
    keyword(TYPED_ID, CONCORD, &[(D4, Bound("a prefix (`[a-z][a-z0-9]*` words joined by `_`) on a string: only `<prefix>_<lowercase UUIDv7>` is read (a newtype in Rust, a checked `str` in Python; docs/extensions.md)"))]),
    keyword(VERSION_FIELD, CONCORD, &[(D4, Bound("the property (required, an integer `enum` or `const`) that holds an envelope's version: any other version is refused before anything else, as `unsupported-version` (docs/extensions.md)"))]),
    // other specifications
    keyword("nullable", "openapi-3.0", &[(D4, Refused("OpenAPI 3.0's keyword, which no JSON Schema validator reads, so the `null` its author meant to allow would be refused: use `\"type\": [X, \"null\"]` (a document that is not yours: keep a corrected copy in the registry, docs/dialects.md)"))]),
];

/// Keywords other tools write as documentation, outside any vocabulary.
/// They are annotations even though they look like misspellings of ours.
/// Not rows, as no dialect or specification defines them: a row is a
/// keyword to [`lookup`], and a registry could then not declare them
/// annotations, nor a type reached by `#/$defs/example` be named after them.
const KNOWN_ANNOTATIONS: &[&str] = &["example", "markdownDescription", "deprecationMessage", "errorMessage", "enumDescriptions", "markdownEnumDescriptions"];

/// The first dialect after `dialect` where `name` is a keyword that asserts
/// (bound or enforced): the one a document using it was written for.
pub fn asserting_after(name: &str, dialect: Dialect) -> Option<Dialect> {
    let keyword = lookup(name)?;
    super::dialect::ALL.into_iter().find(|later| *later > dialect && matches!(keyword.role(*later), Bound(_) | Enforced(_)))
}

pub fn lookup(name: &str) -> Option<&'static Keyword> {
    KEYWORDS.iter().find(|keyword| keyword.name == name)
}

/// How many subschemas the value of `name` holds: none, for what is no keyword.
pub fn arity(name: &str) -> Arity {
    lookup(name).map_or(Arity::Zero, |keyword| keyword.arity)
}

/// The keywords `fact` holds for, in table order.
pub fn having(fact: impl Fn(&Keyword) -> bool) -> impl Iterator<Item = &'static str> {
    KEYWORDS.iter().filter(move |keyword| fact(keyword)).map(|keyword| keyword.name)
}

/// What a key of a schema object is in `dialect`: its row's role there, or
/// what an unknown keyword is.
pub fn role(name: &str, dialect: Dialect) -> Role {
    lookup(name).map_or_else(|| unknown(name), |keyword| keyword.role(dialect))
}

/// What an unknown keyword is: an annotation, as every dialect reads it,
/// unless it looks like a misspelt keyword, or like one of concord's `x-`
/// keywords (a misspelt `x-growth-point` must not pass unnoticed).
pub fn unknown(name: &str) -> Role {
    if KNOWN_ANNOTATIONS.contains(&name) {
        return Annotation("an annotation other tools read");
    }
    if let Some(word) = name.strip_prefix("x-") {
        let first = word.split(['-', '_']).next().unwrap_or_default().to_ascii_lowercase();
        let mut ours = KEYWORDS.iter().filter(|keyword| keyword.vocabulary == CONCORD);
        let like_ours = ["growth", "open", "typed", "version", "concord"].contains(&first.as_str())
            || (name.len() <= 32 && ours.any(|keyword| edit_distance(keyword.name, &name.to_ascii_lowercase()) <= 3));
        return if like_ours {
            Refused("an unknown concord extension keyword: concord knows `x-growth-point`, `x-open-enum`, `x-typed-id` and `x-version-field`, and a misspelt one must not pass unnoticed")
        } else {
            Annotation("another tool's extension keyword: ignored")
        };
    }
    let misspelt = KEYWORDS
        .iter()
        .filter(|keyword| keyword.spans.iter().any(|(_, role)| !matches!(role, Annotation(_))))
        .find(|keyword| close(&keyword.name.to_ascii_lowercase(), &name.to_ascii_lowercase()));
    match misspelt {
        Some(_) => Refused("it looks like a misspelt keyword, which would leave a rule unchecked"),
        None => Annotation("an unknown keyword: every dialect reads it as an annotation"),
    }
}

/// The keyword an unknown name looks like a misspelling of, if any: the
/// one [`unknown`] refuses it for.
pub fn misspelling_of(name: &str) -> Option<&'static str> {
    let lower = name.to_ascii_lowercase();
    let asserting = KEYWORDS.iter().filter(|keyword| keyword.spans.iter().any(|(_, role)| !matches!(role, Annotation(_))));
    // The nearest, where several are close (`maxItem`: `maxItems`, not `maxItems`' neighbours).
    asserting
        .filter(|keyword| close(&keyword.name.to_ascii_lowercase(), &lower))
        .min_by_key(|keyword| edit_distance(&keyword.name.to_ascii_lowercase(), &lower))
        .map(|keyword| keyword.name)
}

/// The name among `known` that `name` is one or two edits from (or equal
/// to but for case), the nearest: what a diagnostic suggests.
pub fn nearest<'a>(name: &str, known: &[&'a str]) -> Option<&'a str> {
    let lower = name.to_ascii_lowercase();
    known.iter().copied().filter(|candidate| close(candidate, &lower)).min_by_key(|candidate| edit_distance(candidate, &lower))
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

/// The table as Markdown, as `docs/schema-subset.md` holds it: a column
/// per dialect, one per fact, and what the keyword does in each span of
/// the dialects.
pub fn markdown() -> String {
    const FACTS: [&str; 6] = ["subschemas", "applies to", "engine only", "asserts only", "loosenable", "bounded members"];
    let mut out = String::from("| keyword | vocabulary |");
    for dialect in ALL {
        out.push_str(&format!(" {dialect} |"));
    }
    for fact in FACTS {
        out.push_str(&format!(" {fact} |"));
    }
    out.push_str(" how |\n|---|---|");
    out.push_str(&"---|".repeat(ALL.len() + FACTS.len()));
    out.push_str("---|\n");
    let yes = |fact: bool| if fact { "yes" } else { "" };
    for keyword in KEYWORDS {
        out.push_str(&format!("| `{}` | {} |", keyword.name, keyword.vocabulary));
        for dialect in ALL {
            out.push_str(&format!(" {} |", role_word(keyword.role(dialect))));
        }
        let subschemas = match keyword.arity {
            Arity::Zero => "",
            One => "one",
            Many => "many",
            Named => "named",
        };
        let applies_to = match keyword.family {
            Family::Any => "any",
            Strings => "strings",
            Numbers => "numbers",
            Arrays => "arrays",
            Objects => "objects",
        };
        let facts = [subschemas, applies_to, yes(keyword.engine_only), yes(keyword.asserts_only), yes(keyword.loosenable), yes(keyword.members_bounded)];
        for fact in facts {
            out.push_str(&format!(" {fact} |"));
        }
        let hows: Vec<String> = keyword
            .spans
            .iter()
            .enumerate()
            .map(|(index, (from, role))| {
                let how = role_text(*role).replace('|', "\\|");
                if keyword.spans.len() == 1 {
                    return how;
                }
                let last = keyword.spans.get(index + 1).map_or(Dialect::Draft202012, |(next, _)| ALL[ALL.iter().position(|d| d == next).unwrap_or(1) - 1]);
                let count = ALL.iter().filter(|dialect| *from <= **dialect && **dialect <= last).count();
                let span = match count {
                    1 => from.to_string(),
                    2 => format!("{from} and {last}"),
                    _ => format!("{from} to {last}"),
                };
                format!("**{span}**: {how}")
            })
            .collect();
        out.push_str(&format!(" {} |\n", hows.join("; ")));
    }
    out
}

fn role_word(role: Role) -> &'static str {
    match role {
        Bound(_) => "bound",
        Enforced(_) => "enforced",
        Annotation(_) => "annotation",
        Refused(_) => "refused",
    }
}

fn role_text(role: Role) -> &'static str {
    match role {
        Bound(text) | Enforced(text) | Annotation(text) | Refused(text) => text,
    }
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
    fn other_tools_extension_keywords_are_annotations_and_ours_misspelt_are_refused() {
        for name in ["x-kubernetes-list-type", "x-intellij-html-description", "x-taplo", "x-nullable", "x-ms-enum", "x-openapi-ref"] {
            assert!(matches!(unknown(name), Annotation(_)), "{name}");
        }
        for name in ["x-growth", "x-growth_point", "x-open", "x-typed-ids", "x-version", "x-concord-integer", "x-growthpoint", "x-versionfield"] {
            assert!(matches!(unknown(name), Refused(_)), "{name}");
        }
    }

    #[test]
    fn every_row_says_what_it_is_from_draft_04_on_oldest_first() {
        for keyword in KEYWORDS {
            assert_eq!(keyword.spans.first().map(|(from, _)| *from), Some(Dialect::Draft4), "{}", keyword.name);
            assert!(keyword.spans.windows(2).all(|pair| pair[0].0 < pair[1].0), "{}: spans out of order", keyword.name);
            assert!(keyword.spans.windows(2).all(|pair| pair[0].1 != pair[1].1), "{}: two spans say the same", keyword.name);
        }
    }

    #[test]
    fn a_keyword_is_what_its_dialect_makes_of_it() {
        assert!(matches!(role("const", Dialect::Draft4), Refused(_)));
        assert!(matches!(role("const", Dialect::Draft6), Bound(_)));
        assert!(matches!(role("dependencies", Dialect::Draft7), Enforced(_)));
        assert!(matches!(role("dependencies", Dialect::Draft202012), Refused(_)));
        assert!(matches!(role("id", Dialect::Draft4), Bound(_)));
        assert!(matches!(role("$id", Dialect::Draft4), Refused(_)));
        assert!(matches!(role("contentEncoding", Dialect::Draft7), Annotation(_)));
        assert!(matches!(role("$recursiveRef", Dialect::Draft201909), Enforced(_)));
    }

    #[test]
    fn every_keyword_is_listed_once() {
        for (index, keyword) in KEYWORDS.iter().enumerate() {
            assert!(KEYWORDS[index + 1..].iter().all(|other| other.name != keyword.name), "{} is listed twice", keyword.name);
        }
    }
}
