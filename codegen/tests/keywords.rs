//! The keyword table is complete and is what the docs say.

use concord_codegen::vocabulary::keywords;
use std::path::Path;

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
