//! Valid instances of a registry type, drawn from the model both emitters
//! read: every union branch, optional properties absent, `null` or set,
//! unknown keys with nested values where a type keeps or drops them, strings
//! with escapes, control and non-BMP characters, numbers at their bounds and
//! at the layouts where float writers differ, nesting up to the depth limit.
//! Each generated value is recorded as a [`Site`], with what the model
//! expects there, for [`super::mutate`] to spoil.

use super::guided::{self, Documents};
use super::json::{Escape, Member, Node};
use super::random::Rng;
use concord_codegen::model::{Check, Model, Shape, Struct, TypeId, TypeKind, UnknownKeys};

/// The strict profile's nesting limit (`concord_runtime::strict::MAX_DEPTH`).
pub const MAX_DEPTH: usize = concord_runtime::strict::MAX_DEPTH;
/// How many values one instance holds before it takes the smallest values.
const MAX_SITES: usize = 2_000;

/// A generated document and where each of its values came from.
pub struct Instance<'m> {
    pub node: Node,
    pub sites: Vec<Site<'m>>,
}

/// One value of an instance: its path (steps from the root) and what the
/// model expects there.
#[derive(Clone, Debug)]
pub struct Site<'m> {
    pub path: Vec<usize>,
    pub expects: Expects<'m>,
}

#[derive(Clone, Copy, Debug)]
pub enum Expects<'m> {
    Type(TypeId),
    Shape(&'m Shape),
    /// A value any JSON is right for, where unknown keys are kept or dropped.
    Unknown,
}

/// Strings that tend to break writers and readers: escapes, controls,
/// non-BMP, separators, bidi controls, a BOM, noncharacters.
const AWKWARD: &[&str] = &[
    "\"",
    "\\",
    "/",
    "\u{0}",
    "\u{1}",
    "\u{1f}",
    "\u{7f}",
    "\n",
    "\r",
    "\t",
    "\u{8}",
    "\u{c}",
    "é",
    "😀",
    "\u{10ffff}",
    "\u{2028}",
    "\u{2029}",
    "\u{202e}",
    "\u{feff}",
    "\u{ffff}",
    "\u{fffd}",
    "e\u{301}",
    "ß",
    "İ",
    "*/",
    "\"\"\"",
    "{}",
    "'",
    "`",
    "$",
    "~",
    "%s",
];

/// Numbers whose shortest text differs between float writers, or which sit
/// at the edges of the float and safe-integer ranges.
const FLOATS: &[f64] = &[
    0.5,
    1.5,
    -2.5,
    0.1,
    100.0,
    1e16,
    1e20,
    1e21,
    1e22,
    9.999999999999999e20,
    1e-6,
    1e-7,
    1.5e-7,
    5e-324,
    2.2250738585072014e-308,
    1.7976931348623157e308,
    123456789.125,
    9007199254740993.0,
    4.35,
    0.30000000000000004,
    2e-5,
];

pub struct Generator<'m> {
    model: &'m Model,
    documents: &'m Documents,
    rng: Rng,
    sites: Vec<Site<'m>>,
    path: Vec<usize>,
    /// How deep this instance may nest before choosing the smallest values.
    depth: usize,
}

impl<'m> Generator<'m> {
    /// A valid instance of `id` (as far as the model can tell: what only the
    /// assertion engine checks, it may well fail).
    pub fn instance(model: &'m Model, documents: &'m Documents, id: TypeId, rng: Rng) -> Instance<'m> {
        let mut generator = Generator { model, documents, rng, sites: Vec::new(), path: Vec::new(), depth: 0 };
        // Mostly shallow; now and then as deep as the strict profile reads.
        generator.depth = if generator.rng.one_in(16) { MAX_DEPTH - 2 } else { 2 + generator.rng.below(5) };
        let node = generator.named(id);
        Instance { node, sites: generator.sites }
    }

    pub fn rng(&mut self) -> &mut Rng {
        &mut self.rng
    }

    /// Past its depth, or past [`MAX_SITES`] values in all (a type that
    /// holds arrays of itself would otherwise grow as 3 to the depth), an
    /// instance takes the smallest values.
    fn deep(&self) -> bool {
        self.path.len() >= self.depth || self.sites.len() >= MAX_SITES
    }

    fn site(&mut self, expects: Expects<'m>) {
        self.sites.push(Site { path: self.path.clone(), expects });
    }

    fn at(&mut self, step: usize, make: impl FnOnce(&mut Self) -> Node) -> Node {
        self.path.push(step);
        let node = make(self);
        self.path.pop();
        node
    }

    fn named(&mut self, id: TypeId) -> Node {
        self.site(Expects::Type(id));
        if self.path.len() >= MAX_DEPTH - 1 {
            return Node::Null;
        }
        let model = self.model;
        let def = model.get(id);
        if def.asserted() && self.rng.one_in(2) {
            // What the engine checks beside the type, the type's generator does not know.
            if let Some(node) = self.guided(def.module, &def.origin.pointer) {
                return node;
            }
        }
        match &def.kind {
            TypeKind::Struct(body) => self.structure(body, model.get(id).module),
            TypeKind::Enum(values) => {
                let value = &self.rng.pick(values).value;
                self.string_node(value.clone())
            }
            TypeKind::OpenEnum(open) => {
                if self.rng.one_in(4) {
                    let text = self.text(0, 12);
                    self.string_node(text)
                } else {
                    let value = &self.rng.pick(&open.values).value;
                    self.string_node(value.clone())
                }
            }
            TypeKind::TypedId(prefix) => {
                let id = format!("{prefix}_{}", self.uuid_v7());
                self.string_node(id)
            }
            TypeKind::Alias(Shape::Any) => {
                let def = model.get(id);
                self.guided(def.module, &def.origin.pointer).unwrap_or_else(|| self.any())
            }
            TypeKind::Alias(shape) => self.shape_inner(shape),
            TypeKind::Union(union) => {
                let branch = self.rng.pick(&union.branches);
                self.shape_inner(&branch.shape)
            }
        }
    }

    fn structure(&mut self, body: &'m Struct, module: usize) -> Node {
        let deep = self.deep();
        let mut members = Vec::new();
        for field in &body.fields {
            if !field.presence.is_required() && (deep || self.rng.one_in(2)) {
                continue;
            }
            let version = body.version.as_ref().filter(|version| version.field == field.json_name);
            let value = self.at(members.len(), |g| match &field.shape {
                // An envelope's version: one it supports (any other is a near-miss).
                _ if version.is_some() => {
                    g.site(Expects::Shape(&field.shape));
                    let supported = &version.map(|version| version.supported.as_slice()).unwrap_or_default();
                    Node::Number(g.rng.pick(supported).to_string())
                }
                Shape::Any => {
                    g.site(Expects::Shape(&field.shape));
                    g.guided(module, &field.pointer).unwrap_or_else(|| g.any())
                }
                shape => g.shape(shape),
            });
            members.push(Member { key: field.json_name.clone(), escape: self.escape(), value });
        }
        let (min, max) = count_bounds(&body.checks(), false);
        let declared: Vec<&str> = body.fields.iter().map(|field| field.json_name.as_str()).collect();
        let wanted = match &body.unknown_keys {
            UnknownKeys::Refuse => 0,
            _ if deep => 0,
            _ if self.rng.one_in(3) => 1 + self.rng.below(3),
            _ => 0,
        };
        let wanted = wanted.max((min as usize).saturating_sub(members.len()));
        if !matches!(body.unknown_keys, UnknownKeys::Refuse) {
            for _ in 0..wanted {
                let key = self.fresh_key(&members, &declared);
                let value = match &body.unknown_keys {
                    UnknownKeys::Typed(shape) => self.at(members.len(), |g| g.shape(shape)),
                    _ => self.at(members.len(), |g| {
                        g.site(Expects::Unknown);
                        g.any()
                    }),
                };
                members.push(Member { key, escape: self.escape(), value });
            }
        }
        while members.len() as u64 > max {
            let Some(position) = members.iter().rposition(|member| body.fields.iter().any(|f| f.json_name == member.key && !f.presence.is_required())) else {
                break;
            };
            members.remove(position);
            // The sites below it go, the ones after it move up.
            let (depth, prefix) = (self.path.len(), self.path.clone());
            self.sites.retain(|site| !(site.path.len() > depth && site.path.starts_with(&prefix) && site.path[depth] == position));
            for site in self.sites.iter_mut().filter(|site| site.path.len() > depth && site.path.starts_with(&prefix) && site.path[depth] > position) {
                site.path[depth] -= 1;
            }
        }
        if members.len() > 1 && self.rng.one_in(3) {
            self.shuffle(&mut members);
        }
        Node::Object(members)
    }

    /// Reorders members, moving their recorded sites along.
    fn shuffle(&mut self, members: &mut Vec<Member>) {
        let depth = self.path.len();
        let mut order: Vec<usize> = (0..members.len()).collect();
        for i in (1..order.len()).rev() {
            let j = self.rng.below(i + 1);
            order.swap(i, j);
        }
        let mut taken: Vec<Option<Member>> = members.drain(..).map(Some).collect();
        members.extend(order.iter().map(|&old| taken[old].take().expect("each member once")));
        // `order[new] = old`: a site below member `old` now lies below `new`.
        let mut new_of = vec![0; order.len()];
        for (new, &old) in order.iter().enumerate() {
            new_of[old] = new;
        }
        let prefix = self.path.clone();
        for site in self.sites.iter_mut().filter(|site| site.path.len() > depth && site.path.starts_with(&prefix)) {
            site.path[depth] = new_of[site.path[depth]];
        }
    }

    /// A key none of `members` and no declared property has.
    fn fresh_key(&mut self, members: &[Member], declared: &[&str]) -> String {
        loop {
            let key = if self.rng.one_in(8) { String::new() } else { self.text(1, 8) };
            if !declared.contains(&key.as_str()) && !members.iter().any(|member| member.key == key) {
                return key;
            }
        }
    }

    fn shape(&mut self, shape: &'m Shape) -> Node {
        match shape {
            Shape::Named(id) => self.named(*id),
            _ => {
                self.site(Expects::Shape(shape));
                self.shape_inner(shape)
            }
        }
    }

    /// A value of `shape`, whose site is recorded already.
    fn shape_inner(&mut self, shape: &'m Shape) -> Node {
        match shape {
            Shape::Any => self.any(),
            Shape::Null => Node::Null,
            Shape::Bool => Node::Bool(self.rng.one_in(2)),
            Shape::Integer => self.integer(&[]),
            Shape::Number => self.number(&[]),
            Shape::String => self.string(&[]),
            Shape::Array(inner) => self.array(inner, &[]),
            Shape::Map(inner) => self.map(inner, &[]),
            Shape::Nullable(inner) => {
                if self.deep() || self.rng.one_in(3) {
                    Node::Null
                } else {
                    self.shape_inner(inner)
                }
            }
            Shape::Named(id) => self.named(*id),
            Shape::Checked(inner, checks) => match &**inner {
                Shape::Integer => self.integer(checks),
                Shape::Number => self.number(checks),
                Shape::String => self.string(checks),
                Shape::Array(item) => self.array(item, checks),
                Shape::Map(value) => self.map(value, checks),
                other => self.shape_inner(other),
            },
            Shape::Tuple(items) => Node::Array(items.iter().enumerate().map(|(i, item)| self.at(i, |g| g.shape(item))).collect()),
        }
    }

    fn array(&mut self, item: &'m Shape, checks: &[Check]) -> Node {
        let unique = checks.contains(&Check::UniqueItems);
        let count = self.count(count_bounds(checks, true));
        let mut items: Vec<Node> = Vec::with_capacity(count);
        let mut tries = 0;
        while items.len() < count && tries < count * 8 + 8 {
            tries += 1;
            let mark = self.sites.len();
            let node = self.at(items.len(), |g| g.shape(item));
            if unique && items.iter().any(|other| json_equal(other, &node)) {
                self.sites.truncate(mark);
                continue;
            }
            items.push(node);
        }
        Node::Array(items)
    }

    fn map(&mut self, value: &'m Shape, checks: &[Check]) -> Node {
        let count = self.count(count_bounds(checks, false));
        let mut members = Vec::new();
        for _ in 0..count {
            let key = self.fresh_key(&members, &[]);
            let node = self.at(members.len(), |g| g.shape(value));
            members.push(Member { key, escape: self.escape(), value: node });
        }
        Node::Object(members)
    }

    /// Two times in three, a value drawn from the schema at `pointer` (for a
    /// place only the engine checks), its values below recorded as sites.
    fn guided(&mut self, module: usize, pointer: &str) -> Option<Node> {
        if self.rng.one_in(3) {
            return None;
        }
        let documents = self.documents;
        let schema = documents.at(module, pointer)?;
        let node = guided::value(schema, documents, module, &mut self.rng, 0);
        self.record_below(&node);
        Some(node)
    }

    fn record_below(&mut self, node: &Node) {
        let children: Vec<&Node> = match node {
            Node::Array(items) => items.iter().collect(),
            Node::Object(members) => members.iter().map(|member| &member.value).collect(),
            _ => return,
        };
        for (step, child) in children.into_iter().enumerate() {
            self.path.push(step);
            self.site(Expects::Unknown);
            self.record_below(child);
            self.path.pop();
        }
    }

    /// How many items or members, within bounds: a few, or the fewest when deep.
    fn count(&mut self, (min, max): (u64, u64)) -> usize {
        let most = if self.deep() { min } else { max.min(min + 3) };
        self.rng.between(min, most.max(min)) as usize
    }

    /// Any JSON value: scalars of every kind, and small nested containers.
    pub fn any(&mut self) -> Node {
        let deep = self.deep() || self.path.len() + 2 >= MAX_DEPTH;
        match self.rng.below(if deep { 6 } else { 8 }) {
            0 => Node::Null,
            1 => Node::Bool(self.rng.one_in(2)),
            2 => self.integer(&[]),
            3 => self.number(&[]),
            4 | 5 => {
                let text = self.text(0, 10);
                self.string_node(text)
            }
            6 => {
                let count = self.rng.below(3);
                Node::Array((0..count).map(|i| self.at(i, |g| g.any())).collect())
            }
            _ => {
                let mut members = Vec::new();
                for _ in 0..self.rng.below(3) {
                    let key = self.fresh_key(&members, &[]);
                    let value = self.at(members.len(), |g| g.any());
                    members.push(Member { key, escape: self.escape(), value });
                }
                Node::Object(members)
            }
        }
    }

    fn escape(&mut self) -> Escape {
        match self.rng.below(10) {
            0 => Escape::Ascii,
            1 => Escape::All,
            _ => Escape::Minimal,
        }
    }

    fn string_node(&mut self, text: String) -> Node {
        let escape = self.escape();
        Node::Str(text, escape)
    }

    /// Text of `min..=max` characters, often awkward ones.
    pub fn text(&mut self, min: usize, max: usize) -> String {
        let count = self.rng.between(min as u64, max as u64) as usize;
        let mut out = String::new();
        let mut length = 0;
        while length < count {
            let piece: String = if self.rng.one_in(3) { self.rng.pick(AWKWARD).to_string() } else { char::from(b'a' + self.rng.below(26) as u8).to_string() };
            let chars = piece.chars().count();
            if length + chars > count {
                continue;
            }
            length += chars;
            out.push_str(&piece);
        }
        out
    }

    fn string(&mut self, checks: &[Check]) -> Node {
        let (min, max) = checks
            .iter()
            .find_map(|check| match check {
                Check::Length { min, max } => Some((min.unwrap_or(0) as usize, max.map_or(usize::MAX, |max| max as usize))),
                _ => None,
            })
            .unwrap_or((0, usize::MAX));
        let pattern = checks.iter().find_map(|check| match check {
            Check::Pattern { regex, .. } => regex_syntax::parse(regex).ok(),
            _ => None,
        });
        for _ in 0..8 {
            let text = match &pattern {
                Some(hir) => {
                    let mut text = String::new();
                    super::pattern::sample(hir, &mut self.rng, &mut text);
                    text
                }
                None => {
                    let most = max.min(min + 12);
                    self.text(min, most.max(min))
                }
            };
            if (min..=max).contains(&text.chars().count()) {
                return self.string_node(text);
            }
        }
        let text = "a".repeat(min);
        self.string_node(text)
    }

    fn integer(&mut self, checks: &[Check]) -> Node {
        const SAFE: i64 = (1 << 53) - 1;
        let (min, max) = checks
            .iter()
            .find_map(|check| match check {
                Check::IntegerRange { min, max } => Some((*min, *max)),
                _ => None,
            })
            .unwrap_or((-SAFE, SAFE));
        let step = checks
            .iter()
            .find_map(|check| match check {
                Check::IntegerMultipleOf(step) => Some(*step as i64),
                _ => None,
            })
            .unwrap_or(1);
        let candidates = [min, max, min.saturating_add(1), max.saturating_sub(1), 0, 1, -1, 7, -42, 1 << 31, -(1 << 40), 1 << 32];
        let value = if self.rng.one_in(3) {
            let low = min.max(-1_000_000);
            let high = max.min(1_000_000).max(low);
            low + self.rng.between(0, (high - low) as u64) as i64
        } else {
            *self.rng.pick(&candidates)
        };
        let value = value.clamp(min, max);
        // The multiple of `step` nearest to `value` inside the bounds.
        let value = if step > 1 {
            let down = value.div_euclid(step) * step;
            if down >= min {
                down
            } else {
                down.saturating_add(step)
            }
        } else {
            value
        };
        Node::int(value)
    }

    fn number(&mut self, checks: &[Check]) -> Node {
        if let Some(divisor) = checks.iter().find_map(|check| match check {
            Check::NumberMultipleOf(text) => Some(text),
            _ => None,
        }) {
            return Node::Number(multiple(divisor, self.rng.between(0, 40) as i64 - 20));
        }
        let range = checks.iter().find_map(|check| match check {
            Check::NumberRange { minimum, exclusive_minimum, maximum, exclusive_maximum } => Some((*minimum, *exclusive_minimum, *maximum, *exclusive_maximum)),
            _ => None,
        });
        let value = match self.rng.below(4) {
            0 => return self.integer(&[]),
            1 => (self.rng.next_u64() as i64 as f64) / (1u64 << self.rng.below(60)) as f64,
            _ => {
                let value = *self.rng.pick(FLOATS);
                if self.rng.one_in(2) {
                    -value
                } else {
                    value
                }
            }
        };
        let value = match range {
            None => value,
            Some((minimum, exclusive_minimum, maximum, exclusive_maximum)) => {
                let low = minimum.into_iter().chain(exclusive_minimum.map(f64::next_up)).fold(f64::MIN, f64::max);
                let high = maximum.into_iter().chain(exclusive_maximum.map(f64::next_down)).fold(f64::MAX, f64::min);
                match self.rng.below(4) {
                    0 => low.max(-1e300),
                    1 => high.min(1e300),
                    _ if low <= value && value <= high => value,
                    _ => low.max(-1e6) + (high.min(1e6) - low.max(-1e6)) / 2.0,
                }
            }
        };
        let value = if value == 0.0 { 0.0 } else { value };
        Node::Number(float_text(value, &mut self.rng))
    }

    /// `xxxxxxxx-xxxx-7xxx-yxxx-xxxxxxxxxxxx`, lowercase.
    fn uuid_v7(&mut self) -> String {
        let high = self.rng.next_u64();
        let low = self.rng.next_u64();
        let hex = format!("{:016x}{:016x}", (high & !0xf000) | 0x7000, (low & !(0xc << 60)) | (0x8 << 60));
        format!("{}-{}-{}-{}-{}", &hex[..8], &hex[8..12], &hex[12..16], &hex[16..20], &hex[20..])
    }
}

/// The bounds of an `Items` check (`items`) or a `Properties` one.
fn count_bounds(checks: &[Check], items: bool) -> (u64, u64) {
    let bounds = checks.iter().find_map(|check| match (check, items) {
        (Check::Items { min, max }, true) | (Check::Properties { min, max }, false) => Some((min.unwrap_or(0), max.unwrap_or(u64::MAX))),
        _ => None,
    });
    bounds.unwrap_or((0, u64::MAX))
}

/// `value` in one of the layouts a writer may meet: shortest, exponent
/// with `e` or `E`, with or without a sign, or positional.
pub fn float_text(value: f64, rng: &mut Rng) -> String {
    let text = match rng.below(5) {
        0 => format!("{value:e}"),
        1 => format!("{value:E}"),
        2 => format!("{value:e}").replace('e', "e+").replace("e+-", "e-"),
        _ => format!("{value:?}"),
    };
    // `{:?}` writes `1e21` and `1e-7` for large and small numbers, which JSON reads.
    text
}

/// `factor` times the decimal `divisor`, exactly, as a JSON number.
pub fn multiple(divisor: &str, factor: i64) -> String {
    let (mantissa, exponent) = match divisor.split_once(['e', 'E']) {
        Some((mantissa, exponent)) => (mantissa, exponent.parse::<i64>().unwrap_or(0)),
        None => (divisor, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{whole}{fraction}").trim_start_matches('0').to_owned();
    let exponent = exponent - fraction.len() as i64;
    if digits.is_empty() || factor == 0 {
        return "0".to_owned();
    }
    let digits: u128 = digits.parse().unwrap_or(1);
    let product = digits.saturating_mul(factor.unsigned_abs() as u128);
    let sign = if factor < 0 { "-" } else { "" };
    if exponent == 0 {
        format!("{sign}{product}")
    } else {
        format!("{sign}{product}e{exponent}")
    }
}

/// Whether two generated values are equal as JSON (numbers by their text:
/// the generator writes one number one way within an array).
pub fn json_equal(a: &Node, b: &Node) -> bool {
    match (a, b) {
        (Node::Str(x, _), Node::Str(y, _)) => x == y,
        (Node::Number(x), Node::Number(y)) => x == y || x.parse::<f64>().ok() == y.parse::<f64>().ok(),
        (Node::Array(x), Node::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| json_equal(x, y)),
        (Node::Object(x), Node::Object(y)) => {
            x.len() == y.len() && x.iter().all(|member| y.iter().any(|other| other.key == member.key && json_equal(&member.value, &other.value)))
        }
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_multiples_are_exact() {
        assert_eq!(multiple("0.01", 37), "37e-2");
        assert_eq!(multiple("2.5", -3), "-75e-1");
        assert_eq!(multiple("1e-3", 2), "2e-3");
        assert_eq!(multiple("3", 4), "12");
        assert_eq!(multiple("0.5", 0), "0");
    }

    #[test]
    fn samples_match_their_pattern() {
        let mut rng = Rng::new(7);
        for pattern in [r"^[a-z]{2,4}-\d+$", r"^(foo|bar)?x*\.json$", r"[\p{L}&&[^a-z]]+", r"^\S+@\S+$"] {
            let hir = regex_syntax::parse(pattern).unwrap();
            let regex = concord_runtime::pattern::Pattern::new(pattern);
            for _ in 0..50 {
                let mut text = String::new();
                crate::fuzz::pattern::sample(&hir, &mut rng, &mut text);
                assert!(regex.is_match(&text), "{pattern} {text:?}");
            }
        }
    }
}
