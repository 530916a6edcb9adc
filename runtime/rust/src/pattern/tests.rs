//! The shared table `fixtures/vectors/patterns.json`, which the Python test
//! (tests/python/test_patterns.py) reads too: translations, ECMA verdicts, refusals.

use super::{translate, Pattern};
use serde_json::Value;

fn table() -> Vec<Value> {
    let text = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/vectors/patterns.json"));
    let document: Value = serde_json::from_str(text).expect("patterns.json is JSON");
    document["patterns"].as_array().expect("a list of patterns").clone()
}

#[test]
fn translations_match_the_table_and_give_ecma_verdicts() {
    let mut problems = Vec::new();
    for entry in table().iter().filter(|entry| entry.get("refused").is_none()) {
        let ecma = entry["pattern"].as_str().unwrap();
        let translated = match translate(ecma) {
            Ok(translated) => translated,
            Err(reason) => {
                problems.push(format!("{ecma:?} refused: {reason}"));
                continue;
            }
        };
        if entry["translated"].as_str() != Some(translated.as_str()) {
            problems.push(format!("{ecma:?} translates to {translated:?}, the table says {}", entry["translated"]));
        }
        let regex = regex::Regex::new(&translated).unwrap();
        for case in entry["cases"].as_array().unwrap() {
            let (text, expected) = (case[0].as_str().unwrap(), case[1].as_bool().unwrap());
            if regex.is_match(text) != expected {
                problems.push(format!("{ecma:?} on {text:?}: expected {expected}"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn refusals_name_the_construct() {
    let mut problems = Vec::new();
    for entry in table().iter().filter(|entry| entry.get("refused").is_some()) {
        let (ecma, reason) = (entry["pattern"].as_str().unwrap(), entry["refused"].as_str().unwrap());
        match translate(ecma) {
            Ok(translated) => problems.push(format!("{ecma:?} translated to {translated:?}, expected a refusal naming {reason:?}")),
            Err(message) if !message.contains(reason) => problems.push(format!("{ecma:?} refused with {message:?}, expected {reason:?}")),
            Err(_) => {}
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_property_name_compiles() {
    for name in super::GENERAL_CATEGORIES.iter().chain(super::BINARY_PROPERTIES) {
        for escape in ["p", "P"] {
            let ecma = format!("[\\{escape}{{{name}}}]");
            translate(&ecma).unwrap_or_else(|reason| panic!("{ecma}: {reason}"));
        }
    }
}

#[test]
fn a_static_pattern_compiles_once_on_first_use() {
    static DIGITS: Pattern = Pattern::new("^[0-9]+$");
    assert!(DIGITS.is_match("123"));
    assert!(!DIGITS.is_match("12a"));
    assert_eq!(DIGITS.as_str(), "^[0-9]+$");
}
