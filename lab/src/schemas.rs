//! Random Draft 2020-12 schemas for fuzzing the generator
//! (`concord-lab fuzz-schemas`, `lab/tests/generator_fuzz.rs`).
//!
//! [`case`] draws one test case from a seed: the documents of a small
//! registry (one, sometimes two or three that `$ref` each other by file name
//! or `$id`), each drawn from a grammar of 2020-12 keywords (objects, arrays,
//! strings, numbers, enums, unions, `allOf`, `not`, `if`, `$defs` and `$ref`
//! with cycles, anchors and `$id`s, concord's `x-` keywords) and of junk
//! (unknown and misspelt keywords, values of the wrong type, huge numbers,
//! names and texts that are hostile to either language: quotes, backslashes,
//! `*/`, `"""`, bare CR, NUL, U+2028, bidi controls, keywords, names that
//! collide once case-converted). Depth and size are bounded.
//!
//! The generator draws only from the fuzzers' SplitMix64
//! ([`concord_cli::fuzz::random`]), in a fixed order: a seed gives the same
//! case forever, whatever the versions of the crates around it. The fuzzing
//! loop itself is [`run`].

pub mod run;

use concord_cli::fuzz::random::Rng;
use serde_json::{json, Map, Value};

/// The dialect every well-formed document declares.
pub const DRAFT: &str = "https://json-schema.org/draft/2020-12/schema";
/// The host of every `$id` and `uri` the generator makes (`.invalid`: never fetched).
pub const HOST: &str = "https://fuzz.concord.invalid";

/// One test case: the documents of one registry, the first the main one.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    pub seed: u64,
    pub documents: Vec<Document>,
}

/// One schema document of a case.
#[derive(Clone, Debug, PartialEq)]
pub struct Document {
    /// Its file name, in the case's folder (`main.schema.json`, ...): other
    /// documents of the case `$ref` it by that name.
    pub file: String,
    /// The index's `uri` for it, when it has one.
    pub uri: Option<String>,
    pub schema: Value,
}

impl Document {
    /// The bytes written to disk: pretty JSON, as people write schemas.
    pub fn bytes(&self) -> Vec<u8> {
        let mut bytes = serde_json::to_vec_pretty(&self.schema).expect("a JSON value always serializes");
        bytes.push(b'\n');
        bytes
    }
}

const FILES: &[&str] = &["main.schema.json", "second.schema.json", "third.schema.json"];
/// How deep schemas nest (the deep template goes further, on purpose).
const MAX_DEPTH: usize = 5;

/// The case of a seed.
pub fn case(seed: u64) -> Case {
    let mut rng = Rng::new(seed);
    // Half the cases are clean: no junk, every value of the right type and
    // every `$ref` to a place that exists, so that more of them generate
    // and the emitters see more; the other half mixes junk in.
    let clean = rng.chance(50);
    let count = match rng.below(100) {
        0..=79 => 1,
        80..=93 => 2,
        _ => 3,
    };
    let tag = format!("{seed:016x}");
    let plans: Vec<Plan> = (0..count).map(|index| Plan::draw(&mut rng, index, &tag, clean)).collect();
    let mut documents = Vec::with_capacity(count);
    for index in 0..count {
        let budget = rng.between(12, 60) as usize;
        let mut generator = Gen { rng: &mut rng, plans: &plans, index, budget, clean };
        let schema = generator.document();
        documents.push(Document { file: plans[index].file.clone(), uri: plans[index].uri.clone(), schema });
    }
    Case { seed, documents }
}

/// What the documents of a case know of each other before any is drawn.
struct Plan {
    file: String,
    /// The root's `$id`, when it has one.
    id: Option<Value>,
    uri: Option<String>,
    defs: Vec<String>,
    /// `$anchor` names, each on a definition (by index).
    anchors: Vec<(String, usize)>,
    /// `definitions` instead of `$defs`.
    old_place: bool,
}

impl Plan {
    fn draw(rng: &mut Rng, index: usize, tag: &str, clean: bool) -> Plan {
        let file = FILES[index].to_owned();
        let stem = file.trim_end_matches(".schema.json");
        let id = match rng.below(100) {
            0..=19 => Some(json!(format!("{HOST}/{tag}/{stem}"))),
            20..=22 => Some(json!(format!("{HOST}/{tag}/{stem}#"))),
            23 if !clean => Some(rng.pick(&[json!(5), json!("not a uri"), json!("#fragment"), json!(""), json!("relative/path.json")]).clone()),
            _ => None,
        };
        let uri = (index > 0 && id.is_none() && rng.chance(15)).then(|| format!("{HOST}/{tag}/uri-{stem}.json"));
        let mut defs: Vec<String> = Vec::new();
        for _ in 0..rng.below(5) {
            let name = def_name(rng);
            if !defs.contains(&name) {
                defs.push(name);
            }
        }
        let mut anchors = Vec::new();
        for position in 0..defs.len() {
            if rng.chance(15) {
                let anchor = if clean { rng.pick(&ANCHORS[..7]) } else { rng.pick(ANCHORS) };
                anchors.push((anchor.to_string(), position));
            }
        }
        Plan { file, id, uri, defs, anchors, old_place: rng.chance(5) }
    }

    fn place(&self) -> &'static str {
        if self.old_place {
            "definitions"
        } else {
            "$defs"
        }
    }
}

/// Draws the schemas of one document.
struct Gen<'a> {
    rng: &'a mut Rng,
    plans: &'a [Plan],
    index: usize,
    /// Schemas left to draw in this document before only leaves are.
    budget: usize,
    /// No junk (see [`case`]).
    clean: bool,
}

impl Gen<'_> {
    fn plan(&self) -> &Plan {
        &self.plans[self.index]
    }

    fn document(&mut self) -> Value {
        let mut root = Map::new();
        match self.rng.below(100) {
            _ if self.clean => insert(&mut root, "$schema", json!(DRAFT)),
            0..=93 => insert(&mut root, "$schema", json!(DRAFT)),
            94..=95 => {}
            96..=97 => insert(&mut root, "$schema", json!("http://json-schema.org/draft-07/schema#")),
            98 => insert(&mut root, "$schema", json!("https://example.com/my-dialect")),
            _ => insert(&mut root, "$schema", json!(5)),
        }
        if let Some(id) = self.plan().id.clone() {
            insert(&mut root, "$id", id);
        }
        let defs_first = self.rng.chance(20);
        let defs = self.definitions();
        if defs_first {
            self.put_definitions(&mut root, defs.clone());
        }
        match self.rng.below(100) {
            // A document of `$defs` only.
            0..=7 => {}
            8..=69 => extend(&mut root, self.object(0)),
            70..=98 => match self.schema(0) {
                Value::Object(body) => extend(&mut root, Value::Object(body)),
                // A boolean root: the whole document stays an object, the body `not`.
                other => insert(&mut root, "not", json!({"not": other})),
            },
            _ if self.clean => extend(&mut root, self.object(0)),
            // A document that is not an object at all.
            _ => return self.rng.pick(&[json!(true), json!([]), json!("schema"), json!(null)]).clone(),
        }
        if !defs_first {
            self.put_definitions(&mut root, defs);
        }
        Value::Object(root)
    }

    fn definitions(&mut self) -> Vec<(String, Value)> {
        let plan_defs = self.plan().defs.clone();
        let anchors = self.plan().anchors.clone();
        let mut out = Vec::new();
        for (position, name) in plan_defs.iter().enumerate() {
            let mut body = match self.rng.below(100) {
                0..=14 => self.template(1),
                _ => self.schema(1),
            };
            for (anchor, _) in anchors.iter().filter(|(_, at)| *at == position) {
                if let Value::Object(map) = &mut body {
                    insert(map, "$anchor", json!(anchor));
                }
            }
            out.push((name.clone(), body));
        }
        out
    }

    fn put_definitions(&mut self, root: &mut Map<String, Value>, defs: Vec<(String, Value)>) {
        if defs.is_empty() {
            return;
        }
        let place = self.plan().place();
        let map: Map<String, Value> = defs.into_iter().collect();
        insert(root, place, Value::Object(map));
    }

    /// One schema, drawn at `depth`.
    fn schema(&mut self, depth: usize) -> Value {
        if depth >= MAX_DEPTH || self.budget == 0 {
            return self.leaf();
        }
        self.budget -= 1;
        let schema = match self.rng.below(100) {
            0..=21 => self.object(depth),
            22..=31 => self.array(depth),
            32..=40 => self.string(),
            41..=48 => self.numeric(),
            49..=55 => self.enumeration(),
            56..=59 => self.type_list(depth),
            60..=67 => self.union(depth),
            68..=73 => self.all_of(depth),
            74..=81 => self.reference(),
            82..=85 => self.conditional(depth),
            86..=87 => self.rng.pick(&[json!(true), json!(false), json!({})]).clone(),
            88..=92 => self.nullable(depth),
            _ => self.template(depth),
        };
        self.decorate(schema)
    }

    /// A small schema, for where depth or budget ran out.
    fn leaf(&mut self) -> Value {
        match self.rng.below(100) {
            0..=24 => json!({"type": "string"}),
            25..=39 => json!({"type": "integer"}),
            40..=49 => json!({"type": "number"}),
            50..=59 => json!({"type": "boolean"}),
            60..=64 => json!({"type": "null"}),
            65..=71 => json!({}),
            72..=75 => json!(true),
            76..=89 => self.reference(),
            _ => self.enumeration(),
        }
    }

    /// Annotations and junk around a schema.
    fn decorate(&mut self, schema: Value) -> Value {
        let Value::Object(mut map) = schema else { return schema };
        if self.rng.chance(12) {
            insert(&mut map, "title", json!(text(self.rng)));
        }
        if self.rng.chance(12) {
            insert(&mut map, "description", json!(text(self.rng)));
        }
        if self.rng.chance(3) {
            insert(&mut map, "$comment", json!(text(self.rng)));
        }
        if self.rng.chance(2) {
            insert(&mut map, "default", json_value(self.rng));
        }
        if self.rng.chance(2) {
            insert(&mut map, "examples", json!([json_value(self.rng)]));
        }
        if self.rng.chance(2) {
            let keyword = *self.rng.pick(&["deprecated", "readOnly", "writeOnly"]);
            insert(&mut map, keyword, json!(true));
        }
        if self.rng.chance(2) && !self.clean {
            insert(&mut map, "$anchor", json!(self.rng.pick(ANCHORS)));
        }
        if self.rng.chance(2) && !self.clean {
            // An embedded resource.
            let tag = self.rng.next_u64();
            let id = *self.rng.pick(&["sub.json", "nested/sub.json", "#plain", "urn:fuzz:sub"]);
            insert(&mut map, "$id", json!(if self.rng.chance(50) { format!("{HOST}/embedded/{tag:x}/{id}") } else { id.to_owned() }));
        }
        if self.rng.chance(6) && !self.clean {
            self.junk(&mut map);
        }
        Value::Object(map)
    }

    /// One keyword that is not what a well-formed schema holds.
    fn junk(&mut self, map: &mut Map<String, Value>) {
        let (keyword, value): (&str, Value) = match self.rng.below(6) {
            0 => {
                let keyword =
                    *self.rng.pick(&["foo", "$version", "tsType", "example", "markdownDescription", "i18n", "propertiesX", "$todo", "enumDescriptions"]);
                (keyword, json_value(self.rng))
            }
            1 => {
                let keyword = *self.rng.pick(&[
                    "maxLenght",
                    "requried",
                    "additionalproperties",
                    "porperties",
                    "itmes",
                    "minimun",
                    "exclusiveMinimun",
                    "patern",
                    "x-growthpoint",
                    "x-open-enums",
                    "x-typedid",
                    "$dfs",
                    "Type",
                    "ENUM",
                    "oneof",
                    "allof",
                    "anyof",
                    "$Ref",
                    "minItem",
                ]);
                (keyword, json_value(self.rng))
            }
            2 => self
                .rng
                .pick(&[
                    ("dependencies", json!({})),
                    ("additionalItems", json!(false)),
                    ("nullable", json!(true)),
                    ("id", json!("x")),
                    ("$recursiveRef", json!("#")),
                    ("$recursiveAnchor", json!(true)),
                    ("x-foo", json!(true)),
                    ("x-", json!(1)),
                ])
                .clone(),
            3 | 4 => self
                .rng
                .pick(&[
                    ("minLength", json!("3")),
                    ("required", json!(5)),
                    ("required", json!(["a", "a"])),
                    ("required", json!([5])),
                    ("properties", json!([])),
                    ("items", json!(5)),
                    ("items", json!([])),
                    ("enum", json!({})),
                    ("enum", json!([])),
                    ("type", json!(5)),
                    ("type", json!("strin")),
                    ("type", json!([])),
                    ("type", json!(["string", "string"])),
                    ("multipleOf", json!(0)),
                    ("multipleOf", json!(-1)),
                    ("multipleOf", json!("2")),
                    ("pattern", json!(5)),
                    ("additionalProperties", json!("no")),
                    ("$ref", json!(5)),
                    ("$defs", json!([])),
                    ("allOf", json!({})),
                    ("allOf", json!([])),
                    ("oneOf", json!([])),
                    ("anyOf", json!(5)),
                    ("x-growth-point", json!("yes")),
                    ("minimum", json!(true)),
                    ("exclusiveMaximum", json!(true)),
                    ("$anchor", json!(5)),
                    ("$anchor", json!("1 bad")),
                    ("maxItems", json!(-1)),
                    ("maxLength", json!(1.5)),
                    ("prefixItems", json!({})),
                    ("uniqueItems", json!(1)),
                    ("not", json!(5)),
                    ("if", json!([])),
                    ("title", json!(5)),
                    ("description", json!([])),
                    ("format", json!(5)),
                    ("$schema", json!(5)),
                    ("$id", json!(7)),
                    ("x-open-enum", json!("yes")),
                    ("x-typed-id", json!(7)),
                    ("dependentRequired", json!({"a": "b"})),
                    ("dependentSchemas", json!({"a": 5})),
                    ("patternProperties", json!({"(": {}})),
                    ("minProperties", json!("1")),
                    ("contains", json!(5)),
                    ("propertyNames", json!(5)),
                    ("$comment", json!(5)),
                    ("readOnly", json!("no")),
                    ("unevaluatedProperties", json!(5)),
                    ("const", json!(null)),
                    ("$dynamicRef", json!("#meta")),
                    ("$dynamicAnchor", json!("meta")),
                    ("contentSchema", json!({"type": "integer"})),
                ])
                .clone(),
            _ => self
                .rng
                .pick(&[
                    ("maximum", json!(1e308)),
                    ("minimum", json!(-1e308)),
                    ("maxLength", json!(1e300)),
                    ("minItems", json!(u64::MAX)),
                    ("maxItems", json!(9_007_199_254_740_993_u64)),
                    ("multipleOf", json!(1e-320)),
                    ("minimum", json!(i64::MIN)),
                    ("maxProperties", json!(u64::MAX)),
                ])
                .clone(),
        };
        insert(map, keyword, value);
    }

    fn object(&mut self, depth: usize) -> Value {
        let mut map = Map::new();
        if self.rng.chance(92) {
            insert(&mut map, "type", json!("object"));
        }
        let n = self.rng.below(6);
        let names = property_names(self.rng, n);
        if !names.is_empty() || self.rng.chance(30) {
            let mut properties = Map::new();
            for name in &names {
                let schema = self.schema(depth + 1);
                properties.insert(name.clone(), schema);
            }
            insert(&mut map, "properties", Value::Object(properties));
        }
        if self.rng.chance(60) {
            let mut required: Vec<Value> = names.iter().filter(|_| self.rng.chance(50)).map(|name| json!(name)).collect();
            if self.rng.chance(8) && !self.clean {
                required.push(json!(property_name(self.rng)));
            }
            if self.rng.chance(3) && !required.is_empty() && !self.clean {
                required.push(required[0].clone());
            }
            insert(&mut map, "required", Value::Array(required));
        }
        match self.rng.below(100) {
            0..=49 => {}
            50..=69 => insert(&mut map, "additionalProperties", json!(false)),
            70..=77 => insert(&mut map, "additionalProperties", json!(true)),
            78..=94 => {
                let schema = self.schema(depth + 1);
                insert(&mut map, "additionalProperties", schema);
            }
            _ => insert(&mut map, "additionalProperties", json!({})),
        }
        match self.rng.below(100) {
            0..=9 => insert(&mut map, "x-growth-point", json!(true)),
            10 => insert(&mut map, "x-growth-point", json!(false)),
            _ => {}
        }
        if self.rng.chance(8) {
            insert(&mut map, "minProperties", count(self.rng, self.clean));
        }
        if self.rng.chance(8) {
            insert(&mut map, "maxProperties", count(self.rng, self.clean));
        }
        if self.rng.chance(6) {
            let pattern = pattern(self.rng, self.clean);
            let schema = self.schema(depth + 1);
            insert(&mut map, "patternProperties", json!({pattern: schema}));
        }
        if self.rng.chance(5) {
            let value = if self.rng.chance(60) { json!(false) } else { self.schema(depth + 1) };
            insert(&mut map, "unevaluatedProperties", value);
        }
        if self.rng.chance(4) {
            let (a, b) = (property_name(self.rng), property_name(self.rng));
            insert(&mut map, "dependentRequired", json!({a: [b]}));
        }
        if self.rng.chance(3) {
            let a = property_name(self.rng);
            let schema = self.schema(depth + 1);
            insert(&mut map, "dependentSchemas", json!({a: schema}));
        }
        if self.rng.chance(3) {
            insert(&mut map, "propertyNames", json!({"pattern": pattern(self.rng, self.clean), "maxLength": 8}));
        }
        Value::Object(map)
    }

    fn array(&mut self, depth: usize) -> Value {
        let mut map = Map::new();
        if self.rng.chance(92) {
            insert(&mut map, "type", json!("array"));
        }
        match self.rng.below(100) {
            0..=59 => {
                let items = self.schema(depth + 1);
                insert(&mut map, "items", items);
            }
            60..=79 => {
                let n = self.rng.between(1, 3);
                let prefix: Vec<Value> = (0..n).map(|_| self.schema(depth + 1)).collect();
                insert(&mut map, "prefixItems", Value::Array(prefix));
                match self.rng.below(100) {
                    // A tuple.
                    0..=59 => {
                        insert(&mut map, "items", json!(false));
                        insert(&mut map, "minItems", json!(n));
                        if self.rng.chance(20) {
                            insert(&mut map, "maxItems", json!(n));
                        }
                    }
                    60..=79 => {
                        let items = self.schema(depth + 1);
                        insert(&mut map, "items", items);
                    }
                    _ => {}
                }
            }
            80..=84 => insert(&mut map, "items", json!(false)),
            _ => {}
        }
        if self.rng.chance(15) {
            insert(&mut map, "minItems", count(self.rng, self.clean));
        }
        if self.rng.chance(15) {
            insert(&mut map, "maxItems", count(self.rng, self.clean));
        }
        match self.rng.below(100) {
            0..=9 => insert(&mut map, "uniqueItems", json!(true)),
            10..=11 => insert(&mut map, "uniqueItems", json!(false)),
            _ => {}
        }
        if self.rng.chance(6) {
            let contains = self.schema(depth + 1);
            insert(&mut map, "contains", contains);
            if self.rng.chance(50) {
                insert(&mut map, "minContains", count(self.rng, self.clean));
            }
            if self.rng.chance(30) {
                insert(&mut map, "maxContains", count(self.rng, self.clean));
            }
        }
        if self.rng.chance(3) {
            let value = if self.rng.chance(60) { json!(false) } else { self.schema(depth + 1) };
            insert(&mut map, "unevaluatedItems", value);
        }
        Value::Object(map)
    }

    fn string(&mut self) -> Value {
        let mut map = Map::new();
        insert(&mut map, "type", json!("string"));
        if self.rng.chance(6) {
            insert(&mut map, "x-typed-id", typed_id_prefix(self.rng, self.clean));
            if self.rng.chance(80) || self.clean {
                return Value::Object(map);
            }
        }
        if self.rng.chance(15) {
            insert(&mut map, "minLength", count(self.rng, self.clean));
        }
        if self.rng.chance(15) {
            insert(&mut map, "maxLength", count(self.rng, self.clean));
        }
        if self.rng.chance(22) {
            insert(&mut map, "pattern", json!(pattern(self.rng, self.clean)));
        }
        if self.rng.chance(12) {
            insert(&mut map, "format", self.rng.pick(&format_values()).clone());
        }
        if self.rng.chance(8) {
            let n = self.rng.between(1, 5) as usize;
            let values = string_values(self.rng, n);
            insert(&mut map, "enum", Value::Array(values));
            if self.rng.chance(30) {
                insert(&mut map, "x-open-enum", json!(true));
            }
        } else if self.rng.chance(3) {
            insert(&mut map, "const", json!(string_value(self.rng)));
        }
        Value::Object(map)
    }

    fn numeric(&mut self) -> Value {
        let mut map = Map::new();
        insert(&mut map, "type", json!(if self.rng.chance(55) { "integer" } else { "number" }));
        for keyword in ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"] {
            if self.rng.chance(18) {
                insert(&mut map, keyword, number(self.rng, self.clean));
            }
        }
        if self.rng.chance(22) {
            insert(&mut map, "multipleOf", self.rng.pick(&multiples()).clone());
        }
        if self.rng.chance(4) {
            let values: Vec<Value> = (0..self.rng.between(1, 4)).map(|_| number(self.rng, self.clean)).collect();
            insert(&mut map, "enum", Value::Array(values));
        } else if self.rng.chance(2) {
            insert(&mut map, "const", number(self.rng, self.clean));
        }
        Value::Object(map)
    }

    fn enumeration(&mut self) -> Value {
        let mut map = Map::new();
        let n = self.rng.between(1, 6) as usize;
        let (values, strings) = match self.rng.below(100) {
            0..=49 => (string_values(self.rng, n), true),
            50..=64 => {
                let mut values = string_values(self.rng, n);
                let at = self.rng.below(values.len() + 1);
                values.insert(at, json!(null));
                (values, false)
            }
            65..=79 => ((0..n).map(|_| json_value(self.rng)).collect(), false),
            80..=84 if !self.clean => (vec![], false),
            80..=84 => (string_values(self.rng, n), true),
            _ => ((0..n).map(|_| number(self.rng, self.clean)).collect(), false),
        };
        match self.rng.below(100) {
            0..=44 if strings => insert(&mut map, "type", json!("string")),
            45..=59 => insert(&mut map, "type", json!(["string", "null"])),
            60..=64 if !self.clean => insert(&mut map, "type", json!(*self.rng.pick(&["integer", "object", "number", "boolean"]))),
            _ => {}
        }
        let constant = !self.rng.chance(85);
        if !constant {
            insert(&mut map, "enum", Value::Array(values));
        } else {
            let value = values.first().cloned().unwrap_or_else(|| json_value(self.rng));
            insert(&mut map, "const", value);
        }
        match self.rng.below(100) {
            _ if self.clean && constant => {}
            0..=14 => insert(&mut map, "x-open-enum", json!(true)),
            15 => insert(&mut map, "x-open-enum", json!(false)),
            16 if !self.clean => insert(&mut map, "x-typed-id", typed_id_prefix(self.rng, self.clean)),
            _ => {}
        }
        Value::Object(map)
    }

    /// `"type": [...]` of several types, with keywords of some of them.
    fn type_list(&mut self, depth: usize) -> Value {
        let mut types: Vec<Value> = Vec::new();
        for _ in 0..self.rng.between(2, 4) {
            let name = json!(self.rng.pick(TYPES));
            if !types.contains(&name) || (self.rng.chance(5) && !self.clean) {
                types.push(name);
            }
        }
        if self.rng.chance(3) && !self.clean {
            types.push(self.rng.pick(&[json!("strin"), json!(5), json!(null)]).clone());
        }
        let mut map = Map::new();
        insert(&mut map, "type", Value::Array(types));
        if self.rng.chance(30) {
            let names = property_names(self.rng, 2);
            let mut properties = Map::new();
            for name in names {
                let schema = self.schema(depth + 1);
                properties.insert(name, schema);
            }
            insert(&mut map, "properties", Value::Object(properties));
        }
        if self.rng.chance(25) {
            insert(&mut map, "minLength", count(self.rng, self.clean));
        }
        if self.rng.chance(25) {
            insert(&mut map, "minimum", number(self.rng, self.clean));
        }
        if self.rng.chance(25) {
            let items = self.schema(depth + 1);
            insert(&mut map, "items", items);
        }
        if self.rng.chance(10) {
            insert(&mut map, "enum", Value::Array(string_values(self.rng, 2)));
        }
        Value::Object(map)
    }

    /// `type: [X, "null"]`, or `["null", X]`.
    fn nullable(&mut self, depth: usize) -> Value {
        let mut inner = match self.rng.below(5) {
            0 => self.object(depth),
            1 => self.array(depth),
            2 => self.string(),
            3 => self.numeric(),
            _ => self.enumeration(),
        };
        if let Value::Object(map) = &mut inner {
            if let Some(Value::String(name)) = map.get("type").cloned() {
                let types = if self.rng.chance(70) { json!([name, "null"]) } else { json!(["null", name]) };
                map.insert("type".to_owned(), types);
                if let Some(Value::Array(values)) = map.get_mut("enum") {
                    if self.rng.chance(50) {
                        values.push(json!(null));
                    }
                }
            }
        }
        inner
    }

    fn union(&mut self, depth: usize) -> Value {
        let keyword = if self.rng.chance(55) { "oneOf" } else { "anyOf" };
        let branches: Vec<Value> = match self.rng.below(100) {
            0..=34 => self.tagged_branches(depth),
            // By JSON type, sometimes two of one type, or integer and number.
            35..=59 => {
                let mut types: Vec<&str> = Vec::new();
                for _ in 0..self.rng.between(2, 4) {
                    let name = *self.rng.pick(TYPES);
                    if !types.contains(&name) || self.rng.chance(15) {
                        types.push(name);
                    }
                }
                types.iter().map(|name| self.of_type(name, depth + 1)).collect()
            }
            // Objects no value tells apart.
            60..=74 => (0..self.rng.between(2, 3)).map(|_| self.object(depth + 1)).collect(),
            75..=89 => (0..self.rng.between(1, 4)).map(|_| self.schema(depth + 1)).collect(),
            90..=94 => vec![json!(false), self.schema(depth + 1), json!(true)],
            95..=97 if !self.clean => vec![],
            98..=99 if !self.clean => return json!({keyword: self.schema(depth + 1)}),
            _ => (0..self.rng.between(2, 3)).map(|_| self.schema(depth + 1)).collect(),
        };
        let mut map = Map::new();
        insert(&mut map, keyword, Value::Array(branches));
        if self.rng.chance(20) {
            // Keywords beside the union apply to every branch.
            match self.rng.below(5) {
                0 => insert(&mut map, "type", json!("object")),
                1 => {
                    let name = property_name(self.rng);
                    let schema = self.leaf();
                    insert(&mut map, "properties", json!({name: schema}));
                }
                2 => insert(&mut map, "required", json!([property_name(self.rng)])),
                3 => insert(&mut map, "minLength", json!(1)),
                _ => insert(&mut map, "type", json!(["string", "integer"])),
            }
        }
        if self.rng.chance(4) && !self.clean {
            let other = if keyword == "oneOf" { "anyOf" } else { "oneOf" };
            let branches = vec![self.leaf(), self.leaf()];
            insert(&mut map, other, Value::Array(branches));
        }
        Value::Object(map)
    }

    /// Object branches that each require a tag property with its own constant.
    fn tagged_branches(&mut self, depth: usize) -> Vec<Value> {
        let tag = if self.rng.chance(50) { (*self.rng.pick(&["kind", "type", "tag", "$type", "@type"])).to_owned() } else { property_name(self.rng) };
        let n = self.rng.between(2, 4) as usize;
        let mut values: Vec<String> = Vec::new();
        while values.len() < n {
            let value = string_value(self.rng);
            if !values.contains(&value) || (self.rng.chance(5) && !self.clean) {
                values.push(value);
            }
        }
        let mut branches = Vec::new();
        for value in values {
            let constant = match self.rng.below(4) {
                0 => json!({"const": value}),
                1 => json!({"type": "string", "const": value}),
                2 => json!({"enum": [value]}),
                _ => json!({"type": "string", "enum": [value]}),
            };
            let mut properties = Map::new();
            properties.insert(tag.clone(), constant);
            let mut required = vec![json!(tag)];
            let n = self.rng.below(3);
            for name in property_names(self.rng, n) {
                if name != tag {
                    let schema = self.schema(depth + 1);
                    properties.insert(name.clone(), schema);
                    if self.rng.chance(40) {
                        required.push(json!(name));
                    }
                }
            }
            if self.rng.chance(8) {
                required.remove(0);
            }
            let mut branch = Map::new();
            if self.rng.chance(85) {
                insert(&mut branch, "type", json!("object"));
            }
            insert(&mut branch, "properties", Value::Object(properties));
            insert(&mut branch, "required", Value::Array(required));
            if self.rng.chance(20) {
                insert(&mut branch, "additionalProperties", json!(false));
            }
            branches.push(Value::Object(branch));
        }
        branches
    }

    /// A schema of one JSON type, as a union branch.
    fn of_type(&mut self, name: &str, depth: usize) -> Value {
        match name {
            "object" => self.object(depth),
            "array" => self.array(depth),
            "string" => self.string(),
            "integer" | "number" => {
                let mut schema = self.numeric();
                schema["type"] = json!(name);
                schema
            }
            other => json!({"type": other}),
        }
    }

    fn all_of(&mut self, depth: usize) -> Value {
        let shared = ["a", "b", "id", "kind", "type"];
        let mut parts = Vec::new();
        for _ in 0..self.rng.between(1, 4) {
            let part = match self.rng.below(100) {
                // Objects that may define the same property differently.
                0..=34 => {
                    let mut properties = Map::new();
                    for _ in 0..self.rng.between(1, 3) {
                        let name = *self.rng.pick(&shared);
                        let schema = self.schema(depth + 1);
                        properties.insert(name.to_owned(), schema);
                    }
                    let required: Vec<Value> = properties.keys().filter(|_| self.rng.chance(40)).map(|name| json!(name)).collect();
                    let mut part = json!({"properties": properties, "required": required});
                    if self.rng.chance(60) {
                        part["type"] = json!("object");
                    }
                    part
                }
                35..=54 => self.reference(),
                55..=64 => json!({"required": [*self.rng.pick(&shared)]}),
                65..=74 => {
                    let name = *self.rng.pick(&shared);
                    let schema = self.leaf();
                    json!({"type": "object", "properties": {name: schema}, "additionalProperties": false})
                }
                75..=82 => {
                    let mut part = if self.rng.chance(50) { self.string() } else { self.numeric() };
                    if self.rng.chance(30) {
                        part["type"] = json!(*self.rng.pick(TYPES));
                    }
                    part
                }
                83..=89 => {
                    let inner = vec![self.schema(depth + 1), self.reference()];
                    json!({"allOf": inner})
                }
                90..=94 => self.rng.pick(&[json!(true), json!(false)]).clone(),
                _ => {
                    if self.rng.chance(50) {
                        json!({"x-growth-point": true})
                    } else {
                        json!({"additionalProperties": self.leaf()})
                    }
                }
            };
            parts.push(part);
        }
        let mut map = Map::new();
        insert(&mut map, "allOf", Value::Array(parts));
        if self.rng.chance(25) {
            insert(&mut map, "type", json!("object"));
            let name = *self.rng.pick(&shared);
            let schema = self.leaf();
            insert(&mut map, "properties", json!({name: schema}));
        }
        if self.rng.chance(8) {
            let branches = vec![self.leaf(), self.leaf()];
            insert(&mut map, "oneOf", Value::Array(branches));
        }
        Value::Object(map)
    }

    /// A `$ref` (now and then with keywords beside it).
    fn reference(&mut self) -> Value {
        let plan = self.plan();
        let defs = plan.defs.clone();
        let place = plan.place();
        let anchors: Vec<String> = plan.anchors.iter().map(|(name, _)| name.clone()).collect();
        let others: Vec<usize> = (0..self.plans.len()).filter(|other| *other != self.index).collect();
        let junk = |choice: usize| matches!(choice, 66..=70 | 86..=99);
        let target = loop {
            let choice = self.rng.below(100);
            if self.clean && junk(choice) {
                continue;
            }
            match choice {
                0..=49 if !defs.is_empty() => {
                    let name = self.rng.pick(&defs).clone();
                    break format!("#/{place}/{}", self.token(&name));
                }
                50..=57 => break "#".to_owned(),
                58..=65 if !anchors.is_empty() => break format!("#{}", self.rng.pick(&anchors)),
                66..=68 => {
                    let name = property_name(self.rng);
                    break format!("#/properties/{}", self.token(&name));
                }
                69..=70 => break format!("#/{place}/NoSuchThing"),
                71..=85 if !others.is_empty() => {
                    let other = &self.plans[*self.rng.pick(&others)];
                    let base = match (&other.id, &other.uri) {
                        (Some(Value::String(id)), _) if self.rng.chance(70) => id.trim_end_matches('#').to_owned(),
                        (_, Some(uri)) if self.rng.chance(70) => uri.clone(),
                        _ => other.file.clone(),
                    };
                    let other_defs = other.defs.clone();
                    let other_place = other.place();
                    break match self.rng.below(10) {
                        0..=4 if !other_defs.is_empty() => {
                            let name = self.rng.pick(&other_defs).clone();
                            format!("{base}#/{other_place}/{}", self.token(&name))
                        }
                        5 => {
                            let name = property_name(self.rng);
                            format!("{base}#/properties/{}", self.token(&name))
                        }
                        6 => format!("{base}#"),
                        _ => base,
                    };
                }
                86..=88 => {
                    break (*self.rng.pick(&["https://example.com/schemas/x.json", "https://json-schema.org/draft/2020-12/schema", "urn:uuid:1234"])).to_owned()
                }
                89..=90 => break (*self.rng.pick(&["other.schema.json", "../outside.json", "main.schema.json#/$defs/X"])).to_owned(),
                91..=93 if !defs.is_empty() => break format!("#/{place}/{}", self.rng.pick(&defs)),
                94 => break (*self.rng.pick(&["#%zz", "", "#/", "#//", "#/~2", "#/$defs/"])).to_owned(),
                95 => return json!({"$dynamicRef": "#meta"}),
                96..=99 => break format!("#/{place}/{}", def_name(self.rng)),
                _ => {}
            }
        };
        let mut map = Map::new();
        insert(&mut map, "$ref", json!(target));
        if self.rng.chance(15) {
            match self.rng.below(5) {
                0 => insert(&mut map, "description", json!(text(self.rng))),
                1 => insert(&mut map, "type", json!("object")),
                2 => {
                    let name = property_name(self.rng);
                    insert(&mut map, "properties", json!({name: {"type": "string"}}));
                }
                3 => insert(&mut map, "minLength", json!(2)),
                _ => insert(&mut map, "required", json!([property_name(self.rng)])),
            }
        }
        Value::Object(map)
    }

    /// A JSON pointer token for a name, as a URI fragment: escaped, mostly.
    fn token(&mut self, name: &str) -> String {
        let token = name.replace('~', "~0").replace('/', "~1");
        if self.rng.chance(85) {
            percent_encode(&token)
        } else {
            token
        }
    }

    fn conditional(&mut self, depth: usize) -> Value {
        let mut map = Map::new();
        if self.rng.chance(50) {
            insert(&mut map, "type", json!(*self.rng.pick(TYPES)));
        }
        if self.rng.chance(55) {
            let not = self.schema(depth + 1);
            insert(&mut map, "not", not);
        }
        if self.rng.chance(55) {
            let condition = self.schema(depth + 1);
            insert(&mut map, "if", condition);
            if self.rng.chance(70) {
                let then = self.schema(depth + 1);
                insert(&mut map, "then", then);
            }
            if self.rng.chance(50) {
                let otherwise = self.schema(depth + 1);
                insert(&mut map, "else", otherwise);
            }
        }
        Value::Object(map)
    }

    /// Shapes people write on purpose: recursion, maps, growth points, deep nests.
    fn template(&mut self, depth: usize) -> Value {
        let defs = self.plan().defs.clone();
        let place = self.plan().place();
        let to_def = |gen: &mut Gen| -> String {
            if defs.is_empty() {
                "#".to_owned()
            } else {
                let name = gen.rng.pick(&defs).clone();
                format!("#/{place}/{}", gen.token(&name))
            }
        };
        match self.rng.below(9) {
            // A linked list, with or without a base case.
            0 => {
                let next = to_def(self);
                let value = self.leaf();
                let mut list = json!({"type": "object", "properties": {"value": value, "next": {"$ref": next}}});
                if self.rng.chance(40) {
                    list["required"] = json!(["next"]);
                }
                list
            }
            1 => json!({"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": to_def(self)}}}}),
            2 => json!({"anyOf": [{"$ref": to_def(self)}, {"type": "null"}]}),
            3 => json!({"type": "object", "additionalProperties": self.schema(depth + 1)}),
            4 => {
                let names = property_names(self.rng, 2);
                let properties: Map<String, Value> = names.into_iter().map(|name| (name, self.leaf())).collect();
                json!({"type": "object", "x-growth-point": true, "properties": properties})
            }
            // Deep: arrays of arrays (past the strict profile's 64 levels, now and then).
            5 => {
                let mut schema = self.leaf();
                for _ in 0..self.rng.between(6, 36) {
                    schema = json!({"type": "array", "items": schema});
                }
                schema
            }
            // Wide.
            6 => {
                let mut properties = Map::new();
                for index in 0..self.rng.between(20, 80) {
                    properties.insert(format!("{}{index}", property_name(self.rng)), json!({"type": "string"}));
                }
                json!({"type": "object", "properties": properties})
            }
            // Names that collide once case-converted.
            7 => {
                let group = *self.rng.pick(COLLIDING);
                let properties: Map<String, Value> = group.iter().map(|name| ((*name).to_owned(), json!({"type": "integer"}))).collect();
                if self.rng.chance(50) {
                    json!({"type": "object", "properties": properties, "required": group})
                } else {
                    json!({"type": "string", "enum": group, "x-open-enum": self.rng.chance(40)})
                }
            }
            // Nested `allOf`s over `$ref`s: merges that could blow up.
            _ => {
                let mut schema = json!({"$ref": to_def(self)});
                for _ in 0..self.rng.between(2, 8) {
                    schema = json!({"allOf": [schema.clone(), {"$ref": to_def(self)}, schema]});
                }
                schema
            }
        }
    }
}

/// Sets a keyword (a later draw of the same keyword replaces the value).
fn insert(map: &mut Map<String, Value>, keyword: &str, value: Value) {
    map.insert(keyword.to_owned(), value);
}

/// Adds a body's keywords to a document root, keeping the root's own.
fn extend(root: &mut Map<String, Value>, body: Value) {
    if let Value::Object(body) = body {
        for (keyword, value) in body {
            root.entry(keyword).or_insert(value);
        }
    }
}

/// Percent-encodes what a URI fragment may not hold (RFC 3986).
fn percent_encode(token: &str) -> String {
    let mut out = String::with_capacity(token.len());
    for byte in token.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/?".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

const TYPES: &[&str] = &["object", "array", "string", "integer", "number", "boolean", "null"];

/// Plain names, then names either language reserves, then hostile text.
const PLAIN_NAMES: &[&str] = &[
    "id",
    "name",
    "kind",
    "value",
    "items",
    "count",
    "fooBar",
    "foo_bar",
    "FooBar",
    "foo-bar",
    "FOO_BAR",
    "foo.bar",
    "HTTPServer",
    "http_server",
    "a",
    "b",
    "x",
    "next",
    "children",
    "data",
    "createdAt",
    "created_at",
    "v2",
    "gpu-arch",
    "gpu_arch",
    "@context",
    "context",
];
const RESERVED_NAMES: &[&str] = &[
    "type",
    "self",
    "Self",
    "None",
    "none",
    "True",
    "false",
    "class",
    "def",
    "async",
    "await",
    "crate",
    "super",
    "fn",
    "match",
    "yield",
    "import",
    "from",
    "lambda",
    "extra",
    "extra_",
    "model_config",
    "model_dump",
    "model_fields",
    "model_dump_json_x",
    "json",
    "dict",
    "schema",
    "str",
    "int",
    "float",
    "bool",
    "list",
    "object",
    "typing",
    "pydantic",
    "concord_runtime",
    "Option",
    "String",
    "Vec",
    "Box",
    "Result",
    "Some",
    "Ok",
    "Err",
    "digest",
    "to_json",
    "from_json",
    "mro",
    "register",
    "__init__",
    "__class__",
    "_private",
    "__",
    "_",
    "r#type",
    "Unrecognized",
    "unrecognized",
    "UnrecognizedValue",
    "bind",
    "serde",
    "__map",
    "__key",
    "__value",
    "__count",
    "__dropped",
    "__v0",
    "deserializer",
    "serializer",
    "std",
    "core",
    "PINNED_SCHEMAS",
    "DOCUMENTS",
    "_DOCUMENTS",
    "NAME",
    "SCHEMA_DIGEST",
    "ASSERTION",
    "__all__",
    "__pydantic_extra__",
    "model_extra",
    "annotations",
    "Record",
    "Value",
    "IndexMap",
    "EXPECTING",
    "read",
];
const HOSTILE_NAMES: &[&str] = &[
    "",
    " ",
    "\"",
    "'",
    "\\",
    "*/",
    "/*",
    "\"\"\"",
    "'''",
    "a\rb",
    "a\u{0}b",
    "\u{0}",
    "line\nbreak",
    "tab\there",
    "\u{2028}",
    "\u{2029}",
    "\u{85}",
    "\u{202e}evil",
    "\u{2066}x\u{2069}",
    "\u{feff}",
    "é",
    "ü",
    "日本語",
    "🦀",
    "1st",
    "123",
    "0",
    "-",
    "$ref",
    "properties",
    "#",
    "~",
    "~1",
    "/",
    "a/b",
    "%25",
    "%",
    "{",
    "}",
    "a b",
    "{{x}}",
    "${x}",
    "`",
    "```",
    "#[doc]",
    "// c",
    "# c",
    "\\u0000",
    "\\n",
    "'; DROP",
    "\u{7f}",
    "\u{1b}[31m",
    "end\\",
    "ﬁ",
    "İ",
    "ß",
    "Ǆ",
    "\u{301}",
    "a\u{301}",
];
/// Names that become one word in either language.
const COLLIDING: &[&[&str]] = &[
    &["fooBar", "foo_bar", "FooBar", "foo-bar", "FOO_BAR", "foo bar", "foo.bar"],
    &["type", "r#type", "type_", "Type"],
    &["None", "none", "None_"],
    &["class", "class_"],
    &["extra", "extra_"],
    &["self", "self_", "Self"],
    &["", "empty", "Empty"],
    &["1st", "field_1st", "_1st"],
    &["é", "u00e9", "U00e9"],
    &["model_dump", "model_dump_"],
    &["unrecognized", "Unrecognized", "unrecognized_value", "UnrecognizedValue"],
    &["a-b", "a_b", "A_B", "aB"],
    &["json", "json_"],
    &["V1", "1", "v1"],
];
const ANCHORS: &[&str] = &["node", "Item", "a-b", "x.y", "_u", "A1", "meta", "1abc", "a b", ""];
fn format_values() -> Vec<Value> {
    vec![
        json!("date-time"),
        json!("date"),
        json!("email"),
        json!("uri"),
        json!("uuid"),
        json!("ipv4"),
        json!("regex"),
        json!("fancy-unknown"),
        json!(""),
        json!(5),
    ]
}

const PATTERNS: &[&str] = &[
    // Well-formed, and meaning the same in both languages.
    "^[a-z]+$",
    "^\\d{3}-\\d{4}$",
    "[\\s\\S]*",
    "(?:ab|cd)+",
    "^\\p{L}+$",
    "a{2,5}",
    "^$",
    ".",
    "\\w+@\\w+\\.com",
    "[^]",
    "[]",
    "\\u00e9",
    "\\u{1F600}",
    "[\\-a]",
    "^\"\"\"$",
    "\\*/",
    "'",
    "\\\\",
    "\\/",
    "\\cJ",
    "\\0",
    "[\\b]",
    "\\bword\\b",
    "(?<name>a)",
    "a|",
    "|",
    "()",
    "^[^\\r\\n]*$",
    "\\u2028",
    "[\\u0000-\\u001f]",
    "^\\$\\{",
    "#\\{x\\}",
    "\\\\\\\"",
    "[\\]]",
    "^-?\\d+(\\.\\d+)?$",
    // Hostile: invalid, or meaning nothing the `regex` crate can say.
    "(",
    ")",
    "[",
    "a**",
    "(?<=a)b",
    "(?<!a)b",
    "(?=a)",
    "(a)\\1",
    "\\k<name>",
    "(?<n>a)\\k<n>",
    "\\",
    "(?i)abc",
    "[[:alpha:]]",
    "a{,3}",
    "\\p{Invalid}",
    "\\Z",
    "\\z",
    "\\A",
    "(a{1000}){1000}",
    "((a+)+)+$",
    "x{99999}",
    "\\B",
    "\\x",
    "\\u12",
    "[z-a]",
    "\\p{Script=Greek}",
    "\\P{L}",
    "(?s).",
    "\\h",
    "a{2}{3}",
    "*",
    "+",
    "?",
    "{1}",
    "(?P<n>a)",
    "\\ca",
    "\\c",
    "[\\d-z]",
    "\\-",
    "\\e",
    "[a-\\d]",
    "\\u{110000}",
    "\\ud800",
    "(?<a>x)(?<a>y)",
    "a{3,2}",
    "\\p{Lu}{2,}",
    "[\\p{L}--a]",
    "[a&&b]",
    "\u{0}",
    "\\\u{0}",
];

fn multiples() -> Vec<Value> {
    vec![
        json!(1),
        json!(2),
        json!(3),
        json!(10),
        json!(0.01),
        json!(0.1),
        json!(0.5),
        json!(2.5),
        json!(1e-9),
        json!(1e-300),
        json!(1e308),
        json!(1.0),
        json!(7),
        json!(9_007_199_254_740_993_u64),
        json!(0.3),
        json!(1e21),
        json!(u64::MAX),
        json!(0.0001),
        json!(1.5e-7),
    ]
}

fn numbers() -> Vec<Value> {
    vec![
        json!(0),
        json!(1),
        json!(-1),
        json!(2),
        json!(3),
        json!(7),
        json!(10),
        json!(100),
        json!(0.5),
        json!(1.5),
        json!(-2.5),
        json!(0.01),
        json!(0.1),
        json!(1e-9),
        json!(1e21),
        json!(1e308),
        json!(-1e308),
        json!(9_007_199_254_740_991_u64),
        json!(9_007_199_254_740_992_u64),
        json!(9_007_199_254_740_993_u64),
        json!(u64::MAX),
        json!(i64::MIN),
        json!(5e-324),
        json!(2.225_073_858_507_201_4e-308),
        json!(1.0),
        json!(1e16),
        json!(-9_007_199_254_740_993_i64),
        json!(-0.0),
    ]
}

fn number(rng: &mut Rng, clean: bool) -> Value {
    let numbers = numbers();
    // `-0.0` last: not in clean cases (the strict profile refuses `-0`).
    let numbers = if clean { &numbers[..numbers.len() - 1] } else { &numbers[..] };
    rng.pick(numbers).clone()
}

fn count(rng: &mut Rng, clean: bool) -> Value {
    let counts =
        [json!(0), json!(1), json!(2), json!(3), json!(5), json!(10), json!(1.0), json!(2.0), json!(9_007_199_254_740_993_u64), json!(1e300), json!(u64::MAX)];
    match rng.below(100) {
        _ if clean => rng.pick(&counts).clone(),
        0..=89 => rng.pick(&counts).clone(),
        _ => rng.pick(&[json!("3"), json!(-1), json!(1.5), json!(true), json!(null), json!([])]).clone(),
    }
}

fn pattern(rng: &mut Rng, clean: bool) -> String {
    let patterns = if clean { &PATTERNS[..WELL_FORMED_PATTERNS] } else { PATTERNS };
    (*rng.pick(patterns)).to_owned()
}

/// How many of [`PATTERNS`], from the first, are well-formed and mean the same in both languages.
const WELL_FORMED_PATTERNS: usize = 35;

fn typed_id_prefix(rng: &mut Rng, clean: bool) -> Value {
    match rng.below(100) {
        _ if clean => json!(*rng.pick(&["run", "job_run", "a1", "evt", "x", "abcdefghijklmnopqrstuvwxyzabcdef"])),
        0..=69 => json!(*rng.pick(&["run", "job_run", "a1", "evt", "x", "abcdefghijklmnopqrstuvwxyzabcdef"])),
        _ => rng
            .pick(&[
                json!("Run"),
                json!(""),
                json!("run_"),
                json!(7),
                json!("a\"b"),
                json!("run-id"),
                json!("1run"),
                json!("abcdefghijklmnopqrstuvwxyzabcdefg"),
            ])
            .clone(),
    }
}

/// A property name: plain mostly, reserved or hostile often enough.
fn property_name(rng: &mut Rng) -> String {
    match rng.below(100) {
        0..=59 => (*rng.pick(PLAIN_NAMES)).to_owned(),
        60..=79 => (*rng.pick(RESERVED_NAMES)).to_owned(),
        80..=97 => (*rng.pick(HOSTILE_NAMES)).to_owned(),
        _ => "n".repeat(rng.between(64, 300) as usize),
    }
}

/// `n` property names, distinct (a JSON object holds a key once).
fn property_names(rng: &mut Rng, n: usize) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    if rng.chance(6) {
        let group = *rng.pick(COLLIDING);
        return group.iter().take(n.max(2)).map(|name| (*name).to_owned()).collect();
    }
    for _ in 0..n {
        let name = property_name(rng);
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// A `$defs` key.
fn def_name(rng: &mut Rng) -> String {
    match rng.below(100) {
        0..=49 => (*rng.pick(&["Node", "Item", "Leaf", "Tree", "Kind", "node", "item", "Thing", "Shape", "Root", "FuzzValue", "Value"])).to_owned(),
        50..=79 => property_name(rng),
        _ => (*rng.pick(&["shapes/transform", "a~b", "a%b", "with space", "Fuzz0001", "Fuzz", "Self", "None", "Option", "type", "Box", "T1"])).to_owned(),
    }
}

fn string_value(rng: &mut Rng) -> String {
    match rng.below(100) {
        0..=44 => (*rng.pick(&["a", "b", "circle", "square", "max-autotune", "max_autotune", "ON", "on", "1.0", "v1", "x y", "Self", "None"])).to_owned(),
        _ => property_name(rng),
    }
}

/// `n` string values, now and then one listed twice.
fn string_values(rng: &mut Rng, n: usize) -> Vec<Value> {
    if rng.chance(5) {
        let group = *rng.pick(COLLIDING);
        return group.iter().map(|value| json!(value)).collect();
    }
    let mut values: Vec<Value> = Vec::new();
    for _ in 0..n {
        let value = json!(string_value(rng));
        if !values.contains(&value) || rng.chance(4) {
            values.push(value);
        }
    }
    values
}

/// A JSON value of any type.
fn json_value(rng: &mut Rng) -> Value {
    match rng.below(12) {
        0 => json!(null),
        1 => json!(rng.chance(50)),
        2 | 3 => number(rng, true),
        4..=6 => json!(string_value(rng)),
        7 => json!([]),
        8 => json!([1, "a", null]),
        9 => json!({}),
        10 => json!({"a": 1, "b": [true]}),
        _ => json!({"nested": {"deeper": [null, {"x": "y"}]}}),
    }
}

/// A title or description.
fn text(rng: &mut Rng) -> String {
    const TEXTS: &[&str] = &[
        "A plain description.",
        "*/ /* */",
        "\"\"\"",
        "'''",
        "ends with a backslash \\",
        "\\",
        "a\rb",
        "a\r\nb",
        "nul \u{0} inside",
        "```rust\nfn main() { panic!() }\n```",
        "    indented like code\n    assert!(false);",
        "\tTab indented",
        "~~~\ncode\n~~~",
        "line\u{2028}separator",
        "\u{202e}bidi override",
        "#![doc = \"x\"]",
        "\"",
        "{",
        "}",
        "`",
        "``",
        "<script>alert(1)</script>",
        "%s %d {} {0}",
        "\\u{0}",
        "r#\"raw\"#",
        "\"#",
        "'\"'\"",
        "'''\"\"\"",
        "trailing spaces   ",
        "   ",
        "",
        "\u{7f}\u{1b}[31m",
        "# Heading\n\n- item\n- item",
        ">>> print('doctest')\nprint",
        "\"\"\"; import os; \"\"\"",
        "x\"",
        "\\\"\"\"",
        "\u{85}next line",
        "para\u{2029}graph",
        "\r",
        "\n\n\n",
        "é日本語🦀",
        "\\N{DASH}",
        "{{ jinja }}",
        "\\x00",
    ];
    match rng.below(100) {
        0..=93 => (*rng.pick(TEXTS)).to_owned(),
        94..=96 => "word ".repeat(rng.between(20, 120) as usize),
        _ => "x".repeat(rng.between(90, 400) as usize),
    }
}
