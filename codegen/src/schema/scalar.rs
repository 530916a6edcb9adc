//! Strings, integers and numbers, with their assertions; and the rule for
//! keywords of a type the schema does not have.

use super::keywords::{self, Family};
use super::{Keywords, Read, Reader, TYPED_ID};
use crate::model::{Check, Shape, TypeKind};
use serde_json::Value;
use std::path::Path;

/// The families of keywords that apply to some JSON types only, in the
/// order [`Reader::misplaced`] reads them.
const FAMILIES: [Family; 4] = [Family::Strings, Family::Numbers, Family::Arrays, Family::Objects];

/// Whether a keyword not read yet applies to values of some JSON types only.
pub(super) fn applies_to_some_types(schema: &Keywords) -> bool {
    keywords::having(|keyword| keyword.family != Family::Any).any(|keyword| schema.has(keyword) && !schema.is_taken(keyword))
}

/// The largest integer both languages hold exactly: the strict profile's bound.
const MAX_SAFE: i64 = (1 << 53) - 1;

impl Reader {
    /// Keywords for another type than the schema's: with a `type`, they can
    /// never apply, and are read as the no-ops they are; without one, they
    /// apply to values of their type only, which the assertion engine checks
    /// (the binding is any JSON value). Why the engine is needed, if it is.
    pub(super) fn misplaced(&mut self, doc: &super::Document, schema: &Keywords, base: Option<&str>) -> Option<String> {
        let mut engine = None;
        for family in FAMILIES {
            if base.is_some_and(|base| family.types().contains(&base)) {
                continue;
            }
            // A keyword read already (the engine's keywords are, before this) is not read twice.
            for keyword in keywords::having(|keyword| keyword.family == family).filter(|k| schema.has(k) && !schema.is_taken(k)) {
                let value = schema.take(keyword);
                if base.is_none() {
                    engine.get_or_insert_with(|| super::because(keyword, &schema.at(keyword)));
                    if let Some(value) = value {
                        self.engine_keyword(doc, keyword, value, &schema.at(keyword));
                    }
                }
            }
        }
        engine
    }

    pub(super) fn string(&mut self, file: &Path, schema: &Keywords, engine: &mut Option<String>) -> Shape {
        let mut checks = Vec::new();
        let (min, max) = (self.count(file, schema, "minLength"), self.count(file, schema, "maxLength"));
        if min.is_some_and(|min| min > 0) || max.is_some() {
            checks.push(Check::Length { min: min.filter(|min| *min > 0), max });
        }
        if let Some(pattern) = schema.take("pattern") {
            match pattern.as_str() {
                None => self.errors.push(file, schema.at("pattern"), "`pattern` must be a string"),
                Some(ecma) => match concord_runtime::pattern::translate(ecma) {
                    Ok(regex) => checks.push(Check::Pattern { ecma: ecma.to_owned(), regex }),
                    // A pattern the `regex` crate cannot mean alike (a lookaround, a
                    // backreference): the assertion engine's ECMA-262 engine checks it,
                    // in both languages; `prepare` refuses it if that engine cannot either.
                    Err(_) => {
                        engine.get_or_insert_with(|| super::because("pattern", &schema.at("pattern")));
                    }
                },
            }
        }
        checked(Shape::String, checks)
    }

    /// `"x-typed-id": prefix` on a string: a typed id. The prefix lands in
    /// generated code, so only a lowercase identifier is accepted.
    pub(super) fn typed_id(&mut self, file: &Path, schema: &Keywords) -> Option<Read> {
        let prefix = schema.take(TYPED_ID)?;
        let mut refused = false;
        for keyword in ["minLength", "maxLength", "pattern"] {
            if schema.take(keyword).is_some() {
                self.errors.push(
                    file,
                    schema.at(keyword),
                    format!("`{keyword}` cannot stand beside `{TYPED_ID}`, which fixes the string's form (`<prefix>_<UUIDv7>`): remove it"),
                );
                refused = true;
            }
        }
        match prefix.as_str() {
            Some(prefix) if typed_id_prefix(prefix) => (!refused).then(|| Read::Kind(TypeKind::TypedId(prefix.to_owned()))),
            Some(prefix) => {
                self.errors.push(
                    file,
                    schema.at(TYPED_ID),
                    format!(
                        "`{TYPED_ID}` prefix {prefix:?} is refused: a prefix is a lowercase identifier (`[a-z][a-z0-9]*`, words joined by \
                         single underscores, at most {MAX_PREFIX} characters), as it lands in generated code and in every id"
                    ),
                );
                None
            }
            None => {
                self.errors.push(file, schema.at(TYPED_ID), format!("`{TYPED_ID}` must be a string, the ids' prefix (such as \"run\"), not {prefix}"));
                None
            }
        }
    }

    pub(super) fn integer(&mut self, file: &Path, schema: &Keywords) -> Shape {
        let [minimum, exclusive_minimum, maximum, exclusive_maximum] = self.bounds(file, schema);
        // Integers between the bounds, inclusive: `minimum: 1.5` is 2,
        // `exclusiveMaximum: 10` is 9; the safe range bounds them all.
        let mut min = -MAX_SAFE;
        let mut max = MAX_SAFE;
        if let Some(value) = minimum {
            min = min.max(clamp(value.ceil()));
        }
        if let Some(value) = exclusive_minimum {
            min = min.max(clamp(value.floor()).saturating_add(1));
        }
        if let Some(value) = maximum {
            max = max.min(clamp(value.floor()));
        }
        if let Some(value) = exclusive_maximum {
            max = max.min(clamp(value.ceil()).saturating_sub(1));
        }
        let mut checks = Vec::new();
        if min != -MAX_SAFE || max != MAX_SAFE {
            checks.push(Check::IntegerRange { min, max });
        }
        if let Some(divisor) = self.divisor(file, schema) {
            match concord_runtime::number::integer_divisor(&divisor) {
                Ok(Some(divisor)) => checks.push(Check::IntegerMultipleOf(divisor)),
                Ok(None) => {}
                Err(why) => self.errors.push(file, schema.at("multipleOf"), why),
            }
        }
        checked(Shape::Integer, checks)
    }

    pub(super) fn number(&mut self, file: &Path, schema: &Keywords) -> Shape {
        let [minimum, exclusive_minimum, maximum, exclusive_maximum] = self.bounds(file, schema);
        let range = Check::NumberRange { minimum, exclusive_minimum, maximum, exclusive_maximum };
        let mut checks = Vec::new();
        if range != (Check::NumberRange { minimum: None, exclusive_minimum: None, maximum: None, exclusive_maximum: None }) {
            checks.push(range);
        }
        if let Some(divisor) = self.divisor(file, schema) {
            match concord_runtime::number::parse_divisor(&divisor) {
                Ok(_) => checks.push(Check::NumberMultipleOf(divisor)),
                Err(why) => self.errors.push(file, schema.at("multipleOf"), why),
            }
        }
        checked(Shape::Number, checks)
    }

    /// The bounds `[minimum, exclusive minimum, maximum, exclusive maximum]`.
    /// In draft-04, `exclusiveMinimum`/`exclusiveMaximum` are booleans that
    /// make `minimum`/`maximum` exclusive (without one, they mean nothing).
    fn bounds(&mut self, file: &Path, schema: &Keywords) -> [Option<f64>; 4] {
        let [minimum, maximum] = [self.number_value(file, schema, "minimum"), self.number_value(file, schema, "maximum")];
        if schema.dialect != super::Dialect::Draft4 {
            return [minimum, self.number_value(file, schema, "exclusiveMinimum"), maximum, self.number_value(file, schema, "exclusiveMaximum")];
        }
        let mut exclusive = |keyword: &'static str| match schema.take(keyword) {
            None | Some(Value::Bool(false)) => false,
            Some(Value::Bool(true)) => true,
            Some(_) => {
                self.errors.push(file, schema.at(keyword), format!("`{keyword}` must be a boolean in draft-04 (`true` makes the bound beside it exclusive)"));
                false
            }
        };
        let (exclusive_minimum, exclusive_maximum) = (exclusive("exclusiveMinimum"), exclusive("exclusiveMaximum"));
        let split = |bound: Option<f64>, exclusive: bool| if exclusive { [None, bound] } else { [bound, None] };
        let [minimum, exclusive_minimum] = split(minimum, exclusive_minimum);
        let [maximum, exclusive_maximum] = split(maximum, exclusive_maximum);
        [minimum, exclusive_minimum, maximum, exclusive_maximum]
    }

    /// `multipleOf`'s value as decimal text: a number above zero.
    fn divisor(&mut self, file: &Path, schema: &Keywords) -> Option<String> {
        let value = schema.take("multipleOf")?;
        match value {
            Value::Number(number) if number.as_f64().is_some_and(|v| v > 0.0) => Some(number.to_string()),
            _ => {
                self.errors.push(file, schema.at("multipleOf"), "`multipleOf` must be a number above zero");
                None
            }
        }
    }

    fn number_value(&mut self, file: &Path, schema: &Keywords, keyword: &'static str) -> Option<f64> {
        let value = schema.take(keyword)?;
        match value.as_f64() {
            Some(number) => Some(number),
            None => {
                let why = if value.is_boolean() {
                    " (a boolean `exclusiveMinimum`/`exclusiveMaximum` is draft-04's form: declare that dialect, or write the bound as a number)"
                } else {
                    ""
                };
                self.errors.push(file, schema.at(keyword), format!("`{keyword}` must be a number{why}"));
                None
            }
        }
    }

    /// A count keyword (`minLength`, `maxItems`, ...): a non-negative integer.
    pub(super) fn count(&mut self, file: &Path, schema: &Keywords, keyword: &'static str) -> Option<u64> {
        let value = schema.take(keyword)?;
        // 2020-12 allows `1.0` for a count.
        match value.as_u64().or_else(|| value.as_f64().filter(|v| v.fract() == 0.0 && *v >= 0.0).map(|v| v as u64)) {
            Some(count) => Some(count),
            None => {
                self.errors.push(file, schema.at(keyword), format!("`{keyword}` must be a non-negative integer"));
                None
            }
        }
    }
}

/// The longest `x-typed-id` prefix.
const MAX_PREFIX: usize = 32;

/// Whether `prefix` is `[a-z][a-z0-9]*(_[a-z0-9]+)*`, at most [`MAX_PREFIX`] long.
fn typed_id_prefix(prefix: &str) -> bool {
    prefix.len() <= MAX_PREFIX
        && prefix.starts_with(|c: char| c.is_ascii_lowercase())
        && prefix.split('_').all(|word| !word.is_empty() && word.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()))
}

fn clamp(value: f64) -> i64 {
    value.clamp(-(MAX_SAFE as f64) - 1.0, MAX_SAFE as f64 + 1.0) as i64
}

/// `shape` with `checks`, or `shape` alone when there are none.
pub(super) fn checked(shape: Shape, checks: Vec<Check>) -> Shape {
    if checks.is_empty() {
        shape
    } else {
        Shape::Checked(Box::new(shape), checks)
    }
}
