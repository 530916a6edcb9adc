//! Near-misses: a valid instance spoiled once. A wrong JSON type at any
//! position (an array for an object, a one-key map for an enum, a number for
//! a string), a required property missing, an extra key, a value just
//! outside its enum or bound, a repeated key, an unsafe integer, `-0`, a lone
//! surrogate, nesting one past the limit, or bytes cut short.

use super::instances::{float_text, Expects, Instance, MAX_DEPTH};
use super::json::{Escape, Member, Node};
use super::random::Rng;
use concord_codegen::model::{Check, Choice, Model, Shape, TypeKind};

/// A mutated instance: its bytes and what was done to it.
pub struct Mutant {
    pub bytes: Vec<u8>,
    pub what: String,
    /// Whether the change was to one value of the tree (so the input has at
    /// most one problem, if its base had none), not to its bytes.
    pub one_value: bool,
}

/// One change to `instance`, chosen at random.
pub fn mutate(instance: &Instance<'_>, model: &Model, rng: &mut Rng) -> Mutant {
    if rng.one_in(12) {
        return bytes(instance.node.to_bytes(), rng);
    }
    for _ in 0..8 {
        let site = rng.pick(&instance.sites);
        let mut node = instance.node.clone();
        let pointer = node.pointer(&site.path);
        let Some(target) = node.at_mut(&site.path) else { continue };
        if let Some(what) = change(target, site.expects, site.path.len(), model, rng) {
            return Mutant { bytes: node.to_bytes(), what: format!("{what} at {pointer:?}"), one_value: true };
        }
    }
    bytes(instance.node.to_bytes(), rng)
}

/// Values of every JSON type, for a value of the wrong one.
fn wrong_values() -> Vec<Node> {
    let number = |text: &str| Node::Number(text.to_owned());
    vec![
        Node::Array(vec![]),
        Node::Array(vec![Node::str("a"), Node::int(1), Node::Bool(false), Node::Null]),
        Node::Array(vec![Node::Array(vec![])]),
        Node::Array(vec![Node::Object(vec![])]),
        Node::Object(vec![]),
        Node::Object(vec![Member { key: "k".into(), escape: Escape::Minimal, value: Node::int(1) }]),
        Node::Object(vec![Member { key: String::new(), escape: Escape::Minimal, value: Node::int(0) }]),
        Node::str("s"),
        Node::str(""),
        Node::str("1"),
        Node::str("true"),
        Node::str("null"),
        Node::str("2024-01-01T00:00:00Z"),
        Node::int(0),
        Node::int(-3),
        number("1.5"),
        number("1.0"),
        number("100.0"),
        number("2.5e-7"),
        number("1e300"),
        Node::Bool(true),
        Node::Bool(false),
        Node::Null,
    ]
}

/// Changes the value at one site; `None` when the chosen change does not apply there.
fn change(target: &mut Node, expects: Expects<'_>, depth: usize, model: &Model, rng: &mut Rng) -> Option<String> {
    match rng.below(10) {
        // A value of another JSON type.
        0..=2 => {
            let mut candidates: Vec<Node> = wrong_values().into_iter().filter(|value| value.json_type() != target.json_type()).collect();
            if let Node::Object(members) = &*target {
                // A struct given as a positional array (serde reads one so by default).
                candidates.push(Node::Array(members.iter().map(|member| member.value.clone()).collect()));
            }
            if let Node::Str(text, _) = &*target {
                // An enum value given as a one-key map (serde's externally tagged form).
                candidates.push(Node::Object(vec![Member { key: text.clone(), escape: Escape::Minimal, value: Node::Null }]));
                candidates.push(Node::Array(vec![Node::str(text.clone())]));
            }
            if let Node::Number(text) = &*target {
                candidates.push(Node::str(text.clone()));
            }
            let value = rng.pick(&candidates).clone();
            let what = format!("{} for {}", value.json_type(), target.json_type());
            *target = value;
            Some(what)
        }
        3 => object_change(target, expects, model, rng),
        4 => scalar_change(target, rng),
        5 => named_change(target, expects, model, rng),
        6 | 7 => bound_change(target, expects, rng),
        8 => array_change(target, rng),
        _ => {
            // Nesting at the depth limit, or one past it.
            let over = rng.one_in(2);
            let total = MAX_DEPTH + usize::from(over);
            let levels = total.checked_sub(depth).filter(|levels| *levels > 0)?;
            *target = (1..levels).fold(Node::Array(vec![]), |inner, _| Node::Array(vec![inner]));
            Some(format!("nesting {total} deep"))
        }
    }
}

fn object_change(target: &mut Node, expects: Expects<'_>, model: &Model, rng: &mut Rng) -> Option<String> {
    let Node::Object(members) = target else { return None };
    let body = match expects {
        Expects::Type(id) => match &model.get(id).kind {
            TypeKind::Struct(body) => Some(body),
            _ => None,
        },
        _ => None,
    };
    match rng.below(5) {
        0 if !members.is_empty() => {
            // A key again: the same spelling or another escape of it.
            let member = rng.pick(members).clone();
            let escape = *rng.pick(&[Escape::Minimal, Escape::All]);
            let position = rng.below(members.len() + 1);
            members.insert(position, Member { escape, ..member.clone() });
            Some(format!("repeated key {:?}", member.key))
        }
        1 => {
            let declared: Vec<&str> = body.map(|body| body.fields.iter().map(|f| f.json_name.as_str()).collect()).unwrap_or_default();
            let key = ["zz", "", "extra", "__class__", "a b", "é"].into_iter().find(|key| !declared.contains(key) && !members.iter().any(|m| m.key == *key))?;
            // The value of a member beside it: at a map or typed unknown keys
            // the key is then the one problem (too many keys, or none).
            let value = match members.len() {
                0 => rng.pick(&wrong_values()).clone(),
                len => members[rng.below(len)].value.clone(),
            };
            let position = rng.below(members.len() + 1);
            members.insert(position, Member { key: key.to_owned(), escape: Escape::Minimal, value });
            Some(format!("extra key {key:?}"))
        }
        2 => {
            let body = body?;
            let required: Vec<usize> =
                (0..members.len()).filter(|&i| body.fields.iter().any(|f| f.presence.is_required() && f.json_name == members[i].key)).collect();
            if required.is_empty() {
                return None;
            }
            let position = required[rng.below(required.len())];
            let removed = members.remove(position);
            Some(format!("required {:?} missing", removed.key))
        }
        3 => {
            let body = body?;
            let present: Vec<usize> =
                (0..members.len()).filter(|&i| body.fields.iter().any(|f| !f.presence.is_required() && f.json_name == members[i].key)).collect();
            let position = *present.get(rng.below(present.len().max(1)))?;
            members[position].value = Node::Null;
            Some(format!("null for optional {:?}", members[position].key))
        }
        _ if members.len() > 1 => {
            members.reverse();
            Some("members reversed".to_owned())
        }
        _ => None,
    }
}

fn scalar_change(target: &mut Node, rng: &mut Rng) -> Option<String> {
    let replacement = match target {
        Node::Number(text) => {
            let integer = !text.contains(['.', 'e', 'E']);
            let choices: &[&str] = if integer {
                &[
                    "9007199254740992",
                    "-9007199254740992",
                    "9007199254740991",
                    "-9007199254740991",
                    "18446744073709551616",
                    "-0",
                    "1.0",
                    "1e0",
                    "10E-1",
                    "1e400",
                    "-0.0",
                ]
            } else {
                &["-0", "-0.0", "-0e0", "1e400", "-1e400", "4.9e-325", "9007199254740993", "1E+2", "0.1e1"]
            };
            Node::Number(rng.pick(choices).to_string())
        }
        Node::Str(text, _) => {
            let position = text.char_indices().map(|(i, _)| i).nth(rng.below(text.chars().count() + 1)).unwrap_or(text.len());
            let (before, after) = text.split_at(position);
            let escaped = |part: &str| {
                let written = String::from_utf8(Node::str(part).to_bytes()).expect("UTF-8");
                written[1..written.len() - 1].to_owned()
            };
            let inserted = rng.pick(&["\\ud800", "\\udc00", "\\ud83d", "\\ud83d\\ude00", "\\u0000", "\\uDFFF\\uD800"]);
            Node::Raw(format!("\"{}{inserted}{}\"", escaped(before), escaped(after)))
        }
        Node::Bool(value) => Node::Number(if *value { "1" } else { "0" }.to_owned()),
        Node::Null => Node::str("null"),
        _ => return None,
    };
    let what = format!("{} for {}", String::from_utf8_lossy(&replacement.to_bytes()), String::from_utf8_lossy(&target.to_bytes()));
    *target = replacement;
    Some(what)
}

/// A value just outside an enum, an open enum, a typed id or a union's tags.
fn named_change(target: &mut Node, expects: Expects<'_>, model: &Model, rng: &mut Rng) -> Option<String> {
    let Expects::Type(id) = expects else { return None };
    match (&model.get(id).kind, &mut *target) {
        (TypeKind::Enum(_) | TypeKind::OpenEnum(_) | TypeKind::TypedId(_), Node::Str(text, _)) => {
            let changed = match rng.below(6) {
                0 => format!("{text}x"),
                1 => text.to_uppercase(),
                2 => text.chars().skip(1).collect(),
                3 => format!(" {text}"),
                4 => text.replace('7', "4"),
                _ => String::new(),
            };
            let what = format!("{changed:?} for {text:?}");
            *text = changed;
            Some(what)
        }
        (TypeKind::Union(union), Node::Object(members)) => {
            let Choice::Tag(property) = &union.choice else { return None };
            let member = members.iter_mut().find(|member| &member.key == property)?;
            let other = rng.pick(&union.branches).key.clone();
            let value = if rng.one_in(2) { Node::str(other) } else { Node::str(format!("{}?", union.branches[0].key)) };
            let what = format!("tag {property:?} set to {}", String::from_utf8_lossy(&value.to_bytes()));
            member.value = value;
            Some(what)
        }
        _ => None,
    }
}

/// Each bound of a checked value crossed by the smallest step.
fn bound_change(target: &mut Node, expects: Expects<'_>, rng: &mut Rng) -> Option<String> {
    let Expects::Shape(Shape::Checked(_, checks)) = expects else { return None };
    let check = rng.pick(checks);
    let replacement = match (check, &*target) {
        (Check::Length { min, max }, Node::Str(text, escape)) => {
            let count = match (min, max, rng.one_in(2)) {
                (Some(min), _, true) | (Some(min), None, _) if *min > 0 => *min - 1,
                (_, Some(max), _) => max + 1,
                _ => return None,
            };
            let mut changed: String = text.chars().take(count as usize).collect();
            while (changed.chars().count() as u64) < count {
                changed.push(if rng.one_in(3) { '😀' } else { 'a' });
            }
            Node::Str(changed, *escape)
        }
        (Check::Pattern { .. }, Node::Str(text, escape)) => {
            let changed = match rng.below(4) {
                0 => format!("{text} "),
                1 => format!("!{text}"),
                2 => String::new(),
                _ => text.chars().rev().collect(),
            };
            Node::Str(changed, *escape)
        }
        (Check::IntegerRange { min, max }, Node::Number(_)) => {
            let value = if rng.one_in(2) { i128::from(*min) - 1 } else { i128::from(*max) + 1 };
            Node::Number(value.to_string())
        }
        (Check::IntegerMultipleOf(step), Node::Number(text)) => {
            let value: i64 = text.parse().ok()?;
            Node::Number((value + if *step > 1 { 1 } else { 0 }).to_string())
        }
        (Check::NumberRange { minimum, exclusive_minimum, maximum, exclusive_maximum }, Node::Number(_)) => {
            let edges: Vec<f64> =
                [minimum.map(f64::next_down), *exclusive_minimum, maximum.map(f64::next_up), *exclusive_maximum].into_iter().flatten().collect();
            if edges.is_empty() {
                return None;
            }
            let value = *rng.pick(&edges);
            let value = if value == 0.0 { 0.0 } else { value };
            Node::Number(float_text(value, rng))
        }
        (Check::NumberMultipleOf(_), Node::Number(text)) => {
            // One more digit at the end of the mantissa: no longer a multiple.
            let (mantissa, exponent) = text.split_once(['e', 'E']).unwrap_or((text.as_str(), "0"));
            let exponent: i64 = exponent.parse().ok()?;
            Node::Number(format!("{mantissa}1e{}", exponent - 1))
        }
        (Check::Items { min, max }, Node::Array(items)) => {
            let mut items = items.clone();
            match (min, max) {
                (Some(min), _) if *min > 0 && (items.len() as u64) >= *min && rng.one_in(2) => items.truncate(*min as usize - 1),
                (_, Some(max)) if !items.is_empty() => {
                    while (items.len() as u64) <= *max {
                        items.push(items[items.len() - 1].clone());
                    }
                }
                _ => return None,
            }
            Node::Array(items)
        }
        (Check::UniqueItems, Node::Array(items)) if !items.is_empty() => {
            let mut items = items.clone();
            let copy = rng.pick(&items).clone();
            items.insert(rng.below(items.len() + 1), copy);
            Node::Array(items)
        }
        (Check::Properties { min, max }, Node::Object(members)) => {
            let mut members = members.clone();
            match (min, max) {
                (Some(min), _) if *min > 0 && (members.len() as u64) >= *min && rng.one_in(2) => members.truncate(*min as usize - 1),
                (_, Some(max)) => {
                    while (members.len() as u64) <= *max {
                        let key = format!("k{}", members.len());
                        members.push(Member { key, escape: Escape::Minimal, value: Node::int(1) });
                    }
                }
                _ => return None,
            }
            Node::Object(members)
        }
        _ => return None,
    };
    let what = format!("{check:?} crossed");
    *target = replacement;
    Some(what)
}

/// An array one item shorter or longer (a tuple's length, a bound).
fn array_change(target: &mut Node, rng: &mut Rng) -> Option<String> {
    let Node::Array(items) = target else { return None };
    if !items.is_empty() && rng.one_in(2) {
        items.pop();
        Some("last item removed".to_owned())
    } else {
        let item = items.last().cloned().unwrap_or(Node::Null);
        items.push(item);
        Some("last item repeated".to_owned())
    }
}

/// A change to the bytes themselves.
fn bytes(mut bytes: Vec<u8>, rng: &mut Rng) -> Mutant {
    let position = rng.below(bytes.len() + 1);
    let what = match rng.below(6) {
        0 | 1 => {
            bytes.truncate(position);
            format!("cut at byte {position}")
        }
        2 => {
            let choices: [&[u8]; 5] = [b"\xff", b"\xc0\x80", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x80"];
            let inserted = *rng.pick(&choices);
            bytes.splice(position..position, inserted.iter().copied());
            format!("invalid UTF-8 at byte {position}")
        }
        3 => {
            let choices: [&[u8]; 8] = [b"\x01", b"\t", b" ", b",", b"]", b"}", b"\"", b"\\"];
            let inserted = *rng.pick(&choices);
            bytes.splice(position..position, inserted.iter().copied());
            format!("{:?} inserted at byte {position}", String::from_utf8_lossy(inserted))
        }
        4 => {
            bytes.splice(0..0, "\u{feff}".bytes());
            "byte order mark".to_owned()
        }
        _ => {
            let choices: [&[u8]; 5] = [b" \n", b"x", b"{}", b" 1", b"\x00"];
            let tail = *rng.pick(&choices);
            bytes.extend_from_slice(tail);
            format!("{:?} after the value", String::from_utf8_lossy(tail))
        }
    };
    Mutant { bytes, what, one_value: false }
}
