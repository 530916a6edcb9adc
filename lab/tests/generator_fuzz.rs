//! Generator fuzzing (`concord fuzz-schemas`, docs/fuzzing.md): its findings
//! kept as regression tests, and a short fixed-seed pass of its grammar.
//!
//! Every file of `fixtures/generator-findings` (a folder there is one case of
//! several documents, `main.schema.json` first) either generates or is
//! refused with diagnostics that name the file and the place, never a
//! panic; what generates is built as one registry (one cargo build) and
//! imported. [`EXPECTED`] pins each one's outcome, so that a fix cannot
//! quietly turn into a refusal, nor a refusal lose its place.

mod common;
use common::*;

use concord_lab::schemas::run::{self, Entry, File, Generation, Options};
use std::path::Path;
use std::time::Duration;

/// What each finding must come to: generated, or refused with this text.
const EXPECTED: &[(&str, Option<&str>)] = &[
    ("allof-nested-over-the-same-refs", None),
    ("allof-ref-percent-encoded", None),
    ("allof-ref-to-missing-anchor", Some("at /properties/a/allOf/0/$ref: `$ref` \"#nowhere\" names no `$anchor`")),
    ("allof-ref-to-root-in-three-properties", None),
    ("closed-object-without-properties", None),
    ("engine-bad-pattern-under-property-names", Some("at /propertyNames/pattern: the assertion engine cannot check this schema")),
    ("engine-dynamic-ref-to-no-anchor", Some("at /$dynamicRef: the assertion engine cannot check this schema")),
    // A type's keyword without `type` is read in that type's branch: the reader names what is wrong first.
    ("engine-keyword-wrong-type-untyped", Some("at /minLength: `minLength` must be a non-negative integer")),
    // The reader follows a `$ref` the engine alone reads too (build scripts refuse it as well).
    ("engine-missing-ref-target-under-not", Some("at /properties/x/not/properties/y/$ref: `$ref` target \"#/$defs/NoSuchThing\" does not exist in this document")),
    ("engine-panics-on-a-shared-id", Some("at /$defs/T1/properties/name/prefixItems/0/properties/foo_bar/anyOf/0/$ref: the assertion engine cannot check this schema: the jsonschema crate failed on it (a panic")),
    ("engine-subschema-not-a-schema", Some("at /properties/kind/not/properties/u/not/anyOf: `anyOf` must be an array of schemas")),
    // Both, where each stands: read in the object branch, the reader names each.
    ("engine-two-keywords-wrong-alike", Some("at /minProperties: `minProperties` must be a non-negative integer")),
    ("engine-two-refs-that-are-no-uris", Some("second.schema.json at /properties/a/properties/match/$ref: the assertion engine cannot check this schema")),
    ("identifiers-longer-than-a-line", None),
    ("module-order-10", None),
    ("module-order-2", None),
    ("nullable-of-a-null-alias", None),
    ("open-enum-of-values-not-strings", Some("at /x-open-enum: `x-open-enum` opens a string `enum`, and this schema's values are not all strings")),
    ("optional-field-of-a-root-that-admits-null", None),
    ("pinned-schema-ending-in-a-url", None),
    ("refused-entry-referenced-by-an-engine-entry", Some("main.schema.json at /$schema: unsupported dialect 5")),
    ("root-array-with-checks-referenced-by-its-items", None),
    ("root-id-not-a-uri", Some("at /$id: `$id` \"not a uri\" is not a URI reference")),
    ("root-id-with-fragment", Some("has a fragment, which a document's URI cannot have")),
    ("root-newtype-without-checks", None),
    ("tuple-items-recursive-merge", None),
    ("tuple-items-ref-declared-then-dropped", None),
    ("type-named-like-a-record-constant", None),
    ("types-named-like-generated-statics", None),
    ("types-named-like-serde-generics", None),
    ("union-containing-itself-through-an-object", None),
    ("union-containing-itself-through-arrays", None),
    ("union-last-branch-before-a-comma", None),
    ("wide-by-bytes-narrow-by-columns", None),
];

/// Every finding as a registry entry, by its short name.
fn findings() -> Vec<(String, Entry)> {
    let dir = workspace().join("fixtures/generator-findings");
    let mut items: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|item| item.unwrap().path()).collect();
    items.sort();
    items
        .into_iter()
        .map(|path| {
            let file_name = path.file_name().unwrap().to_str().unwrap().to_owned();
            let read = |path: &Path, name: &str| File { name: name.to_owned(), uri: None, bytes: std::fs::read(path).unwrap() };
            let (short, files) = match file_name.strip_suffix(".schema.json") {
                Some(short) => (short.to_owned(), vec![read(&path, "main.schema.json")]),
                None => {
                    assert!(path.is_dir(), "{} is neither <name>.schema.json nor a folder", path.display());
                    let mut names: Vec<String> = std::fs::read_dir(&path).unwrap().map(|f| f.unwrap().file_name().into_string().unwrap()).collect();
                    names.sort_by_key(|name| (name != "main.schema.json", name.clone()));
                    (file_name.clone(), names.iter().map(|name| read(&path.join(name), name)).collect())
                }
            };
            let name = format!("Finding{}", concord_codegen::naming::words::pascal(&short, "N"));
            (short, Entry { name, seed: 0, files })
        })
        .collect()
}

#[test]
fn every_finding_generates_or_is_refused_where_it_says_and_what_generates_builds_and_imports() {
    let scratch = tempfile::tempdir().unwrap();
    let findings = findings();
    let listed: Vec<&str> = EXPECTED.iter().map(|(name, _)| *name).collect();
    let present: Vec<&str> = findings.iter().map(|(short, _)| short.as_str()).collect();
    assert_eq!(present, listed, "each file of fixtures/generator-findings has its line in EXPECTED, in order");

    let mut accepted = Vec::new();
    for ((short, entry), (_, expected)) in findings.into_iter().zip(EXPECTED) {
        let dir = scratch.path().join("alone").join(&short);
        run::write_registry(&dir, std::slice::from_ref(&entry)).unwrap();
        match (run::generate(&dir), expected) {
            (Generation::Accepted, None) => accepted.push(entry),
            (Generation::Refused(errors), Some(text)) => {
                assert!(run::unlocated(&errors, &dir).is_none(), "{short}: a diagnostic does not say where:\n{errors}");
                assert!(errors.to_string().contains(text), "{short}: expected {text:?} in:\n{errors}");
            }
            (Generation::Panicked(panic), _) => panic!("{short}: the generator panicked: {panic}"),
            (Generation::Accepted, Some(text)) => panic!("{short}: generated, but expected a refusal with {text:?}"),
            (Generation::Refused(errors), None) => panic!("{short}: expected to generate, refused:\n{errors}"),
        }
    }
    let harness = workspace().join("target/concord-roundtrip");
    if let Err((stage, message)) = run::build(&accepted, &scratch.path().join("batch"), &harness, Path::new(&python()), true) {
        panic!("the findings that generate, as one registry: {stage:?} failed:\n{message}");
    }
}

fn options(seed: u64, schemas: u64, batch: usize, scratch: &Path) -> Options {
    Options {
        seed,
        time: None,
        schemas: Some(schemas),
        batch,
        findings: scratch.join("findings"),
        work_dir: scratch.join("work"),
        harness_dir: workspace().join("target/concord-roundtrip"),
        python: python().into(),
        hang: Duration::from_secs(10),
        shrink_builds: 0,
        progress: None,
        lint: true,
    }
}

fn no_findings(summary: &run::Summary) {
    let findings: Vec<String> = summary.findings.iter().map(|finding| format!("{finding}\n{}", finding.what)).collect();
    assert!(findings.is_empty(), "{summary}\n{}", findings.join("\n\n"));
}

/// 300 cases of a fixed seed, generated only: none panics, hangs or is
/// refused without saying where; and the grammar keeps making both kinds.
#[test]
fn a_fixed_seed_pass_of_the_grammar_generates_or_refuses_where_it_says() {
    let scratch = tempfile::tempdir().unwrap();
    let summary = run::run(&options(0x5eed_0001, 300, 0, scratch.path()), &mut |_| {}).unwrap();
    no_findings(&summary);
    assert_eq!(summary.generated, 300);
    assert!(summary.accepted >= 60 && summary.refused >= 60, "{summary}");
}

/// The cases a fixed seed accepts among 50, built as one batch (one cargo
/// build) and imported.
#[test]
fn a_fixed_seed_batch_builds_and_imports() {
    let scratch = tempfile::tempdir().unwrap();
    let summary = run::run(&options(0x5eed_0002, 50, 1000, scratch.path()), &mut |_| {}).unwrap();
    no_findings(&summary);
    assert!(summary.batches == 1 && summary.built >= 15, "{summary}");
}

/// A seed gives the same case forever: the grammar draws only from the
/// fuzzers' SplitMix64 (`concord_cli::fuzz::random`), in a fixed order.
/// (Change these only with the grammar or that generator, and say so: the
/// seeds in docs/fuzzing.md then name other cases.)
#[test]
fn a_seed_gives_the_same_case() {
    use concord_lab::schemas::case;
    assert_eq!(case(42), case(42));
    assert_ne!(case(42), case(43));
    let drawn: Vec<u8> = (0..20).flat_map(|seed| case(seed).documents).flat_map(|document| document.bytes()).collect();
    assert_eq!(concord_codegen::registry::digest(&drawn), "sha256:541f90964a21e35f34fd6ed854d91b4662febaf37e7129efeb002b63e251afee");
}
