//! The keyword table is complete, lists every keyword the code reads, and
//! is what the docs say.

use concord_codegen::vocabulary::keywords;
use std::path::{Path, PathBuf};

/// Every keyword the Draft 2020-12 meta-schema and its vocabularies declare
/// (`fixtures/vectors/metaschema-2020-12`) has a row in the table: none can be
/// forgotten, and so none can be dropped by omission.
#[test]
fn every_keyword_of_the_meta_schema_is_in_the_table() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/vectors/metaschema-2020-12");
    let mut seen = 0;
    for entry in std::fs::read_dir(&folder).unwrap() {
        let path = entry.unwrap().path();
        let schema: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        for keyword in schema["properties"].as_object().unwrap().keys() {
            assert!(keywords::lookup(keyword).is_some(), "{keyword} (from {}) is not in the keyword table", path.display());
            seen += 1;
        }
    }
    assert!(seen >= 60, "the meta-schema declares {seen} keywords; expected the whole dialect");
}

/// docs/schema-subset.md holds the table as the code renders it.
#[test]
fn the_docs_hold_the_table() {
    let docs = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/schema-subset.md")).unwrap();
    let table = keywords::markdown();
    assert!(docs.contains(&table), "docs/schema-subset.md must hold this table verbatim:\n{table}");
}

/// Every keyword name the code that reads schemas spells out (in
/// `schema.take("minLength")`, a `matches!` arm, a list of keywords) is a
/// row of the table: one the table does not list (or a misspelt one) would
/// escape its roles and facts, and read nothing unnoticed.
#[test]
fn every_keyword_the_code_reads_is_in_the_table() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    // What reads schemas and walks them; keywords.rs is the table itself.
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("codegen/src/schema")).unwrap().map(|entry| entry.unwrap().path()).collect();
    files.extend(["codegen/src/uri.rs", "codegen/src/vocabulary/dialect.rs", "cli/src/engine.rs", "cli/src/upgrade.rs"].map(|file| root.join(file)));
    // Names of a keyword's shape that are no keywords: the JSON types `type`
    // names, and the `$dynamicAnchor` name `concord upgrade` writes.
    let no_keyword = |name: &str| keywords::JSON_TYPES.contains(&name) || name == "meta";
    let (mut unlisted, mut listed) = (Vec::new(), std::collections::BTreeSet::new());
    for file in files.iter().filter(|file| file.extension().is_some_and(|extension| extension == "rs")) {
        let text = std::fs::read_to_string(file).unwrap();
        // A file's own tests may spell misspellings on purpose.
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        for literal in string_literals(code).into_iter().filter(|literal| keyword_shaped(literal) && !no_keyword(literal)) {
            match keywords::lookup(&literal) {
                Some(keyword) => _ = listed.insert(keyword.name),
                None => unlisted.push(format!("{}: {literal:?}", file.strip_prefix(&root).unwrap_or(file).display())),
            }
        }
    }
    // The scan sees what the reader reads (a broken one would see nothing, and pass).
    assert!(listed.len() >= 50, "the scan found {} keywords: {listed:?}", listed.len());
    assert!(unlisted.is_empty(), "the code reads keywords the table does not list:\n{}", unlisted.join("\n"));
}

/// Whether a string has a keyword's shape: letters, the first lowercase,
/// after an optional `$` (`minLength`, `$ref`); or `x-` and lowercase words
/// joined by `-` (`x-growth-point`).
fn keyword_shaped(text: &str) -> bool {
    match text.strip_prefix("x-") {
        Some(rest) => rest.split('-').all(|word| !word.is_empty() && word.chars().all(|c| c.is_ascii_lowercase())),
        None => {
            let name = text.strip_prefix('$').unwrap_or(text);
            name.starts_with(|c: char| c.is_ascii_lowercase()) && name.chars().all(|c| c.is_ascii_alphabetic())
        }
    }
}

/// The string literals of Rust source, outside comments: enough of Rust's
/// lexer for the files scanned (strings with escapes, raw strings, char
/// literals such as `'"'`, lifetimes).
fn string_literals(code: &str) -> Vec<String> {
    let chars: Vec<char> = code.chars().collect();
    let at = |index: usize| chars.get(index).copied().unwrap_or_default();
    let find = |from: usize, end: &[char]| (from..chars.len()).find(|&index| chars[index..].starts_with(end)).unwrap_or(chars.len());
    let mut literals = Vec::new();
    let mut index = 0;
    while index < chars.len() {
        let identifier = |c: char| c.is_alphanumeric() || c == '_';
        match chars[index] {
            '/' if at(index + 1) == '/' => index = find(index, &['\n']),
            '/' if at(index + 1) == '*' => index = find(index, &['*', '/']) + 2,
            // A char literal (`'"'`, `'\''`, `'\u{202e}'`) is skipped whole; a lifetime (`'a`) is no literal.
            '\'' if at(index + 1) == '\\' => index = find(index + 3, &['\'']) + 1,
            '\'' if at(index + 2) == '\'' => index += 3,
            'r' if !identifier(at(index.wrapping_sub(1))) && matches!(at(index + 1), '"' | '#') => {
                let hashes = chars[index + 1..].iter().take_while(|c| **c == '#').count();
                if at(index + 1 + hashes) != '"' {
                    index += 1;
                    continue;
                }
                let start = index + 2 + hashes;
                let close: Vec<char> = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
                let end = find(start, &close);
                literals.push(chars[start..end].iter().collect());
                index = end + close.len();
            }
            '"' => {
                let mut literal = String::new();
                index += 1;
                while index < chars.len() && chars[index] != '"' {
                    if chars[index] == '\\' {
                        literal.push(chars[index]);
                        index += 1;
                    }
                    literal.push(at(index));
                    index += 1;
                }
                literals.push(literal);
                index += 1;
            }
            _ => index += 1,
        }
    }
    literals
}
