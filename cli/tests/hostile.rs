//! Hostile registries (issue 8, item 4): strings meant to inject code or
//! break the output in either language, paths that leave the registry, and
//! schemas that are huge, deep or cyclic. Each yields safe, compiling code
//! or a clear error naming the file and the JSON pointer, within bounded
//! time and memory. The limits are in docs/limits.md.
//!
//! `refusals.rs` holds the first hostile regressions (`..` and absolute
//! paths, a symlinked schema leaving the registry, a FIFO schema, cycles
//! through unions and merges) and `cli.rs` hostile property names; these
//! tests do not repeat them.

mod common;

use common::*;
use concord_cli::roundtrip::{Expected, Fixture, Harness};
use concord_codegen::registry::digest;
use serde_json::{json, Map, Value};
use std::os::unix::ffi::OsStrExt as _;
use std::os::unix::process::ExitStatusExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

const DRAFT: &str = "https://json-schema.org/draft/2020-12/schema";

/// Strings that would close a literal, a comment or a docstring, or bend
/// the source, in Rust or in Python. Each is a property name, a `$defs` key,
/// an enum value, a tag, a title and a description below.
const HOSTILE: &[&str] = &[
    // Ends a Rust string and item, a Python string, and runs code in each.
    "\"; } fn injected() { panic!(\"rust\") } /* */ \"\"\" + __import__('os').system('exit 3') #",
    // Bare carriage returns (rustc refuses one in a doc comment), one at the end.
    "line\rbreak\r",
    // Backslashes before a quote and at the end; escapes written out.
    "C:\\dir\\\" \\n \\x00 \\u{0} \\N{BULLET} \\",
    // A docstring's own delimiters, at both ends.
    "\"\"\"docstring\"\"\"",
    "'''single'''",
    // NUL, other C0 controls, DEL and C1's NEL.
    "nul\0bel\u{7}vt\u{b}ff\u{c}esc\u{1b}fs\u{1c}del\u{7f}nel\u{85}",
    // Line and paragraph separators; a byte order mark inside.
    "ls\u{2028}ps\u{2029}bom\u{feff}",
    // Every bidi control (Trojan Source), and the marks rustc allows.
    "\u{202a}\u{202b}\u{202c}\u{202d}\u{202e}\u{2066}\u{2067}\u{2068}\u{2069}\u{200e}\u{200f}\u{61c}",
    // Markdown rustdoc would run as a doctest, were it code.
    "```\npanic!()\n```\n    assert!(false);",
    // Comment tokens of both languages.
    "*/ /* // # -- <!-- -->",
    // Format strings and templates.
    "{} {0} {name} %s %(x)s ${x} `x`",
    "",
    // Beyond the BMP; noncharacters; the replacement character.
    "\u{1f600}\u{10ffff}\u{fffe}\u{fffd}",
];

/// Writes `schemas` (name, document) into `dir` with an index pinning each.
fn write_registry(dir: &Path, schemas: &[(&str, Vec<u8>)]) -> PathBuf {
    write_registry_with(dir, schemas, |_, _| {})
}

/// As [`write_registry`], letting `edit` change each index entry.
fn write_registry_with(dir: &Path, schemas: &[(&str, Vec<u8>)], edit: impl Fn(&str, &mut Map<String, Value>)) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let mut entries = Vec::new();
    for (name, bytes) in schemas {
        let path = format!("{}.schema.json", name.to_lowercase());
        std::fs::write(dir.join(&path), bytes).unwrap();
        let mut entry = json!({"name": name, "path": path, "digest": digest(bytes)}).as_object().unwrap().clone();
        edit(name, &mut entry);
        entries.push(Value::Object(entry));
    }
    std::fs::write(dir.join("registry.json"), serde_json::to_vec_pretty(&json!({"format": 1, "schemas": entries})).unwrap()).unwrap();
    dir.to_path_buf()
}

fn bytes(schema: &Value) -> Vec<u8> {
    serde_json::to_vec(schema).unwrap()
}

/// `key` as a `$ref` fragment: a JSON pointer token, percent-encoded.
fn fragment(key: &str) -> String {
    let token = key.replace('~', "~0").replace('/', "~1");
    let mut out = String::new();
    for byte in token.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

// ---------------------------------------------------------------- strings

/// The registry every hostile string goes into, compiled once: as property
/// names, `$defs` keys (and `$ref`s to them), enum, open-enum and `const`
/// values, tags, titles, descriptions, `$comment`s, `examples`, `default`s,
/// `format`s and a `pattern`; a raw `$id` and index `uri` of an entry the
/// engine does not read (both become literals of the pinned documents);
/// records that contain themselves with no base case; a chain of 10,000
/// `$ref`s; arrays nested 32 deep through aliases (the limit); a 1 MB
/// property name and a 1 MB description.
fn injection_registry(dir: &Path) -> PathBuf {
    let mut properties = Map::new();
    let mut defs = Map::new();
    for text in HOSTILE {
        properties.insert(
            text.to_string(),
            json!({"type": "string", "title": text, "description": text, "$comment": text, "format": text, "default": text, "examples": [text]}),
        );
        defs.insert(
            text.to_string(),
            json!({"type": "object", "title": text, "description": text, "properties": {"v": {"type": "string", "description": text}}}),
        );
    }
    defs.insert("anchored".into(), json!({"$anchor": "plain-anchor", "type": "string", "description": HOSTILE[0]}));
    let mut choice: Vec<Value> = HOSTILE.iter().map(|text| json!(text)).collect();
    choice.push(Value::Null);
    let branches: Vec<Value> = HOSTILE
        .iter()
        .map(|text| json!({"type": "object", "title": text, "properties": {"kind": {"const": text}, "v": {"type": "integer"}}, "required": ["kind"]}))
        .collect();
    let consts: Map<String, Value> = HOSTILE.iter().enumerate().map(|(n, text)| (format!("c{n}"), json!({"const": text, "description": text}))).collect();
    let refs: Map<String, Value> =
        HOSTILE.iter().enumerate().map(|(n, text)| (format!("d{n}"), json!({"$ref": format!("#/$defs/{}", fragment(text))}))).collect();
    properties.insert("choice".into(), json!({"enum": choice}));
    properties.insert("tagged".into(), json!({"oneOf": branches}));
    properties.insert("open".into(), json!({"type": "string", "enum": HOSTILE, "x-open-enum": true}));
    properties.insert("consts".into(), json!({"type": "object", "properties": consts}));
    properties.insert("defs".into(), json!({"type": "object", "properties": refs}));
    properties.insert("anchored".into(), json!({"$ref": "#plain-anchor"}));
    // The engine's keyword: the whole document becomes a literal in both languages.
    properties.insert("guard".into(), json!({"type": "string", "not": {"enum": HOSTILE}}));
    properties.insert("pattern".into(), json!({"type": "string", "pattern": "^[\"'\\\\*/\r\n\u{2028}\u{202e}]*$"}));
    let texts = json!({
        "$schema": DRAFT,
        "$id": "https://example.com/%22%5C*/%0D%0A%E2%80%A8%E2%80%AE/texts",
        "title": HOSTILE[0],
        "description": HOSTILE[1],
        "$comment": HOSTILE[2],
        "examples": HOSTILE,
        "default": {"\"\"\"": "*/"},
        "type": "object",
        "properties": properties,
        "$defs": defs,
    });
    let choice = json!({"$schema": DRAFT, "title": HOSTILE[3], "description": HOSTILE[4], "enum": HOSTILE});
    let fixed = json!({"$schema": DRAFT, "description": HOSTILE[5], "const": HOSTILE[0]});
    // Hostile text as the index's `uri` of an entry. (A `$id` that is no URI
    // reference is refused where it stands: see the diagnostics test.)
    let raw_uri = json!({"$schema": DRAFT, "type": "object", "properties": {"a": {"type": "string"}}});
    // Records that hold themselves forever: no finite record is valid, the code still compiles.
    let endless = json!({"$schema": DRAFT, "type": "object", "properties": {"next": {"$ref": "#"}}, "required": ["next"]});
    let either = json!({"$schema": DRAFT, "anyOf": [{"$ref": "#"}, {"$ref": "#"}]});
    let mut chain = Map::new();
    for n in 0..9_999 {
        chain.insert(format!("d{n}"), json!({"$ref": format!("#/$defs/d{}", n + 1), "description": "one link"}));
    }
    chain.insert("d9999".into(), json!({"type": "string", "maxLength": 8}));
    let chain = json!({"$schema": DRAFT, "type": "object", "properties": {"a": {"$ref": "#/$defs/d0"}}, "$defs": chain});
    // 30 arrays, then a nullable array: 32 levels, the most concord allows.
    let mut nested = Map::new();
    for n in 0..30 {
        nested.insert(format!("n{n}"), json!({"type": "array", "items": {"$ref": format!("#/$defs/n{}", n + 1)}}));
    }
    nested.insert("n30".into(), json!({"type": ["array", "null"], "items": {"type": "string", "maxLength": 2}}));
    let nested = json!({"$schema": DRAFT, "type": "object", "properties": {"a": {"$ref": "#/$defs/n0"}}, "$defs": nested});
    let long_name = "n".repeat(1 << 20);
    let long = json!({"$schema": DRAFT, "type": "object", "description": "word ".repeat(1 << 18), "properties": {long_name: {"type": "string", "description": "x".repeat(1 << 20)}}});
    // RFC 3986 allows `'`, `(`, `)`, `;`, `!`, `*`: enough to try to end a
    // Python string or a Rust expression; the rest is percent-encoded.
    let uri: String = format!("urn:concord:{}", HOSTILE[0])
        .bytes()
        .map(|byte| if byte.is_ascii_alphanumeric() || b"-._~:/?@!$&'()*+,;=".contains(&byte) { (byte as char).to_string() } else { format!("%{byte:02X}") })
        .collect();
    write_registry_with(
        dir,
        &[
            ("Texts", bytes(&texts)),
            ("Choice", bytes(&choice)),
            ("Fixed", bytes(&fixed)),
            ("RawUri", bytes(&raw_uri)),
            ("Endless", bytes(&endless)),
            ("Either", bytes(&either)),
            ("Chain", bytes(&chain)),
            ("Nested", bytes(&nested)),
            ("Long", bytes(&long)),
        ],
        |name, entry| {
            if name == "RawUri" {
                entry.insert("uri".into(), json!(uri));
            }
        },
    )
}

/// One fixture: an input, written out, and what both languages must make of it.
fn fixture(dir: &Path, root: &str, name: &str, input: &Value, expected: Expected) -> Fixture {
    let folder = dir.join(root);
    std::fs::create_dir_all(&folder).unwrap();
    let file = folder.join(format!("{name}.json"));
    std::fs::write(&file, serde_json::to_vec(input).unwrap()).unwrap();
    Fixture { root: root.into(), name: format!("{name}.json"), input: file, expected }
}

/// Written back byte for byte: the input is compact and in schema order.
fn same(input: &Value) -> Expected {
    Expected::Output(serde_json::to_vec(input).unwrap())
}

/// A record of `Texts` holding every hostile string as data, `n` choosing
/// the enum value, the tag and the open-enum value.
fn texts_record(n: usize, open: &str, guard: &str) -> Value {
    let mut record = Map::new();
    for text in HOSTILE {
        record.insert(text.to_string(), json!(text));
    }
    record.insert("choice".into(), json!(HOSTILE[n]));
    record.insert("tagged".into(), json!({"kind": HOSTILE[n], "v": n}));
    record.insert("open".into(), json!(open));
    record.insert("consts".into(), HOSTILE.iter().enumerate().map(|(n, text)| (format!("c{n}"), json!(text))).collect::<Map<_, _>>().into());
    record.insert("defs".into(), HOSTILE.iter().enumerate().map(|(n, text)| (format!("d{n}"), json!({"v": text}))).collect::<Map<_, _>>().into());
    record.insert("anchored".into(), json!(HOSTILE[n]));
    record.insert("guard".into(), json!(guard));
    record.insert("pattern".into(), json!("\"'\\*/\r\n\u{2028}\u{202e}"));
    Value::Object(record)
}

/// Checks the generated Python: no statement calls a bare name (`exec`,
/// `__import__`), no function is defined,
/// every class docstring of a `$defs` type is its title and description.
const PYTHON_CHECK: &str = r#"
import ast, importlib, inspect, json, pathlib, sys
package = pathlib.Path(sys.argv[1])
# The package's own two functions, written by the emitter with no schema text in them
# (PEP 562: a root or an entry imported on first use), and nothing else, are not walked.
LAZY = {"__getattr__", "__dir__"}
def walk(node, path):
    for child in ast.iter_child_nodes(node):
        if path.name == "__init__.py" and isinstance(child, ast.FunctionDef) and child.name in LAZY:
            continue
        yield child
        yield from walk(child, path)
for path in sorted([*package.glob("*.py"), *package.glob("_pinned/*.py")]):
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in walk(tree, path):
        if isinstance(node, ast.Call):
            assert not isinstance(node.func, ast.Name), f"{path.name}:{node.lineno}: calls {node.func.id}"
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            raise AssertionError(f"{path.name}:{node.lineno}: defines a function")
        if isinstance(node, ast.Name):
            assert node.id not in ("injected", "__import__", "exec", "eval"), f"{path.name}:{node.lineno}: names {node.id}"
texts = importlib.import_module("concord_registry.texts")
expected = json.loads(sys.argv[2])
docs = {name: inspect.cleandoc(getattr(texts, name).__doc__ or "") for name in expected}
expected = {name: inspect.cleandoc(doc) for name, doc in expected.items()}
assert docs == expected, [(name, docs[name], expected[name]) for name in expected if docs[name] != expected[name]]
print(len(expected), "docstrings")
"#;

/// The docstring Python reads back for a title and a description: each
/// trimmed, joined by a blank line, each line trimmed (the emitter's rule:
/// its word wrap drops a line's leading spaces), every escape undone by
/// Python's reader.
fn docstring(title: &str, description: &str) -> String {
    let text = [title.trim(), description.trim()].iter().filter(|part| !part.is_empty()).copied().collect::<Vec<_>>().join("\n\n");
    text.lines().map(|line| line.trim_end().trim_start_matches(' ')).collect::<Vec<_>>().join("\n")
}

/// Every identifier of a Rust file, at any depth.
fn idents(tokens: proc_macro2::TokenStream, out: &mut Vec<String>) {
    for token in tokens {
        match token {
            proc_macro2::TokenTree::Ident(ident) => out.push(ident.to_string()),
            proc_macro2::TokenTree::Group(group) => idents(group.stream(), out),
            _ => {}
        }
    }
}

#[test]
fn injection_strings_compile_import_and_come_back_unchanged() {
    let python = PathBuf::from(python());
    let work = workspace().join("target/concord-roundtrip");
    // A fixed folder: a second run finds the bindings unchanged and builds nothing.
    let base = workspace().join("target/concord-hostile/injection");
    let _ = std::fs::remove_dir_all(&base);
    let registry = injection_registry(&base.join("registry"));
    let started = Instant::now();
    let mut config = concord_codegen::Config::new();
    config.registry(&registry);
    let mut harness = Harness::prepare(&config, &work).unwrap_or_else(|errors| panic!("{errors}"));
    let generated = started.elapsed();
    harness.build_rust().unwrap_or_else(|errors| panic!("{errors}"));
    harness.import_python(&python).unwrap_or_else(|errors| panic!("{errors}"));
    harness.typescript = true;
    harness.check_typescript().unwrap_or_else(|errors| panic!("{errors}"));

    let fixtures_dir = base.join("fixtures");
    let mut fixtures = Vec::new();
    for (n, text) in HOSTILE.iter().enumerate() {
        let record = texts_record(n, text, "fine");
        fixtures.push(fixture(&fixtures_dir, "Texts", &format!("t{n}"), &record, same(&record)));
        let unknown = texts_record(n, &format!("unknown {text}"), "fine");
        fixtures.push(fixture(&fixtures_dir, "Texts", &format!("open{n}"), &unknown, same(&unknown)));
        fixtures.push(fixture(&fixtures_dir, "Choice", &format!("c{n}"), &json!(text), same(&json!(text))));
        // The engine reads the document with every string in it, in both languages.
        let guarded = texts_record(n, text, text);
        fixtures.push(fixture(&fixtures_dir, "Texts", &format!("guard{n}"), &guarded, Expected::Refusal("at \"/guard\"".into())));
    }
    fixtures.push(fixture(&fixtures_dir, "Fixed", "fixed", &json!(HOSTILE[0]), same(&json!(HOSTILE[0]))));
    fixtures.push(fixture(&fixtures_dir, "Fixed", "other", &json!(HOSTILE[1]), Expected::Refusal(String::new())));
    fixtures.push(fixture(&fixtures_dir, "RawUri", "a", &json!({"a": HOSTILE[1]}), same(&json!({"a": HOSTILE[1]}))));
    fixtures.push(fixture(&fixtures_dir, "Endless", "finite", &json!({"next": {"next": {}}}), Expected::Refusal(String::new())));
    fixtures.push(fixture(&fixtures_dir, "Either", "one", &json!(1), Expected::Agreement { pointer: false }));
    fixtures.push(fixture(&fixtures_dir, "Chain", "a", &json!({"a": "12345678"}), same(&json!({"a": "12345678"}))));
    fixtures.push(fixture(&fixtures_dir, "Chain", "long", &json!({"a": "123456789"}), Expected::Refusal("at \"/a\"".into())));
    // Strings only fit 32 arrays deep.
    fixtures.push(fixture(&fixtures_dir, "Nested", "a", &json!({"a": [[[[[]]]], []]}), same(&json!({"a": [[[[[]]]], []]}))));
    fixtures.push(fixture(&fixtures_dir, "Nested", "string", &json!({"a": [[[["ab"]]]]}), Expected::Refusal("at \"/a/0/0/0/0\"".into())));
    let long = json!({"n".repeat(1 << 20): "x"});
    fixtures.push(fixture(&fixtures_dir, "Long", "a", &long, same(&long)));
    let report = harness.run(&fixtures, &python).unwrap_or_else(|errors| panic!("{errors}"));
    assert_eq!(report.failed(), 0, "{report}");
    assert_eq!(report.cases.len(), fixtures.len());

    // No string became code: not a Rust identifier, not a Python call or name.
    let files = config.generate().unwrap();
    let mut rust_idents = Vec::new();
    idents(files[0].contents.parse().unwrap(), &mut rust_idents);
    for word in ["injected", "panic", "system", "__import__"] {
        assert!(!rust_idents.iter().any(|ident| ident == word), "the Rust bindings name `{word}`");
    }
    let package = base.join("generated");
    concord_codegen::write_files(&package, &files).unwrap();
    // The docstrings of the `$defs` types: title, blank line, description, as written.
    let texts = concord_cli::load(&registry).unwrap();
    let mut expected = Map::new();
    for def in texts.types.iter().filter(|def| def.module == 0 && def.origin.pointer.starts_with("/$defs/") && def.origin.pointer != "/$defs/anchored") {
        let key = def.origin.pointer["/$defs/".len()..].replace("~1", "/").replace("~0", "~");
        expected.insert(def.name.clone(), json!(docstring(&key, &key)));
    }
    assert_eq!(expected.len(), HOSTILE.len());
    let check = Command::new(&python)
        .args(["-c", PYTHON_CHECK, package.join("python/concord_registry").to_str().unwrap(), &Value::Object(expected).to_string()])
        .env("PYTHONPATH", format!("{}:{}", package.join("python").display(), workspace().join("runtime/python").display()))
        .output()
        .unwrap();
    assert!(check.status.success(), "{}", text(&check));

    // TypeScript: the declarations type-check strictly, and importing the package defines
    // nothing a string spelled (every string is a JSON literal or in a comment, `*/` escaped).
    let typescript = package.join("typescript");
    std::fs::write(
        typescript.join("tsconfig.json"),
        format!(
            "{{\"extends\": {:?}, \"compilerOptions\": {{\"noEmit\": true}}, \"include\": [\"concord-registry/*.d.ts\"]}}",
            workspace().join("tsconfig.base.json").display().to_string()
        ),
    )
    .unwrap();
    let tsc = Command::new(workspace().join("node_modules/.bin/tsc")).arg("-p").arg(&typescript).output().unwrap();
    assert!(tsc.status.success(), "tsc refuses the generated declarations:\n{}", text(&tsc));
    let script = "const m = await import(process.argv[1]); const names = Object.keys(m).join(); \
                  if (globalThis.injected !== undefined || /injected|system|__import__/.test(names)) process.exit(3); \
                  console.log(names);";
    let node = Command::new("node")
        .args(["--input-type=module", "-e", script])
        .arg(typescript.join("concord-registry/index.js"))
        .current_dir(&typescript)
        .output()
        .unwrap();
    assert!(node.status.success(), "{}", text(&node));
    eprintln!("injection registry: generated in {:.1?}, {} fixtures passed in three languages", generated, report.cases.len());
}

// ---------------------------------------------------------------- paths

/// The rule: every file concord reads (the index and each schema) must
/// resolve, through any symlinks, to a regular file inside the registry
/// folder, of at most 16 MiB. A symlink inside the registry to a file inside
/// it is read (the pin is over the target's bytes); anything else is
/// refused, naming the index entry's file, with nothing read past the check.
#[test]
fn paths_resolve_inside_the_registry_or_are_refused() {
    let scratch = tempfile::tempdir().unwrap();
    let registry = scratch.path().join("registry");
    let outside = scratch.path().join("outside");
    std::fs::create_dir_all(registry.join("sub")).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    let schema = bytes(&json!({"$schema": DRAFT, "type": "object", "properties": {"a": {"type": "string"}}}));
    std::fs::write(outside.join("x.schema.json"), &schema).unwrap();
    std::fs::write(registry.join("sub/inside.schema.json"), &schema).unwrap();
    let link = |target: &Path, name: &str| std::os::unix::fs::symlink(target, registry.join(name)).unwrap();
    // A folder link that leaves, a chain of links that ends outside, a link
    // inside to a file inside, a loop, a dangling link, a folder, a device.
    link(&outside, "out");
    link(&registry.join("hop2"), "hop1");
    link(&outside.join("x.schema.json"), "hop2");
    link(&registry.join("sub/inside.schema.json"), "alias.schema.json");
    link(&registry.join("loop2"), "loop1");
    link(&registry.join("loop1"), "loop2");
    link(&registry.join("nowhere"), "dangling.schema.json");
    std::fs::create_dir(registry.join("folder.schema.json")).unwrap();
    link(Path::new("/dev/zero"), "zero.schema.json");
    // Names no index entry can spell (a path is a JSON string): not UTF-8,
    // and one with a line break. They are never read.
    let strange = [std::ffi::OsStr::from_bytes(b"latin1-\xe9.schema.json"), std::ffi::OsStr::new("a\ncargo:rustc-link-arg=-evil")];
    for name in strange {
        std::fs::write(registry.join(name), b"{").unwrap();
    }
    let pin = digest(&schema);
    let entries: Vec<Value> = [
        ("Parent", "sub/../sub/inside.schema.json"),
        ("Backslash", "sub\\inside.schema.json"),
        ("Through", "out/x.schema.json"),
        ("Chain", "hop1"),
        ("Alias", "alias.schema.json"),
        ("Inside", "./sub/inside.schema.json"),
        ("Loop", "loop1"),
        ("Dangling", "dangling.schema.json"),
        ("Folder", "folder.schema.json"),
        ("Zero", "zero.schema.json"),
        ("Nul", "sub/inside\u{0}.schema.json"),
        ("Index", "registry.json"),
    ]
    .iter()
    .map(|(name, path)| json!({"name": name, "path": path, "digest": pin}))
    .collect();
    std::fs::write(registry.join("registry.json"), serde_json::to_vec(&json!({"format": 1, "schemas": entries})).unwrap()).unwrap();

    let errors = match concord_codegen::registry::load(&registry) {
        Ok(_) => panic!("the registry was accepted"),
        Err(errors) => errors,
    };
    let at = |name: &str| registry.join(name).display().to_string();
    let outside_file = outside.join("x.schema.json").canonicalize().unwrap().display().to_string();
    let expected = [
        (at("registry.json"), "/schemas/0/path", "path \"sub/../sub/inside.schema.json\" leaves the registry folder (`..` is not allowed)".to_owned()),
        (at("registry.json"), "/schemas/1/path", "path \"sub\\\\inside.schema.json\" must use `/` as separator".to_owned()),
        (at("out/x.schema.json"), "", format!("resolves to {outside_file} outside the registry folder; a path or a link may not leave it")),
        (at("hop1"), "", format!("resolves to {outside_file} outside the registry folder; a path or a link may not leave it")),
        (at("loop1"), "", "cannot be resolved: Too many levels of symbolic links (os error 40)".to_owned()),
        (at("dangling.schema.json"), "", format!("missing: registry.json lists this file (pinned {pin}) but it does not exist")),
        (at("folder.schema.json"), "", "not a regular file: it must be a file (not a FIFO, a device or a folder)".to_owned()),
        (at("zero.schema.json"), "", "resolves to /dev/zero outside the registry folder; a path or a link may not leave it".to_owned()),
        (at("sub/inside\u{0}.schema.json"), "", "cannot be resolved: file name contained an unexpected NUL byte".to_owned()),
        (at("registry.json"), "", format!("digest drift: registry.json pins {pin} but the file's bytes hash to")),
    ];
    let found: Vec<(String, &str, &str)> = errors.diagnostics.iter().map(|d| (d.file.display().to_string(), d.pointer.as_str(), d.message.as_str())).collect();
    assert_eq!(found.len(), expected.len(), "{errors}");
    for ((file, pointer, message), (want_file, want_pointer, want)) in found.iter().zip(&expected) {
        assert_eq!((file, *pointer), (want_file, *want_pointer), "{errors}");
        assert!(message.starts_with(want.as_str()), "expected {want:?}, got {message:?}");
    }
    // The diagnostics stay one line each, whatever the names hold.
    assert_eq!(diagnostic_lines(&errors.to_string()), expected.len() + 1, "{errors}");

    // The link inside the registry reads the file it names; so does `./`.
    std::fs::write(
        registry.join("registry.json"),
        serde_json::to_vec(&json!({"format": 1, "schemas": [
            {"name": "Alias", "path": "alias.schema.json", "digest": pin},
            {"name": "Inside", "path": "./sub/inside.schema.json", "digest": pin},
        ]}))
        .unwrap(),
    )
    .unwrap();
    let loaded = concord_codegen::registry::load(&registry).unwrap();
    assert_eq!(loaded.schemas.iter().map(|s| s.bytes.clone()).collect::<Vec<_>>(), [schema.clone(), schema]);

    // A build script's rerun lines: the strange names are left to the folder's line.
    let directives = concord_codegen::Config::new().registry(&registry).rerun_directives();
    assert!(directives.iter().all(|line| line.starts_with("cargo:rerun-if-changed=") && !line.contains('\n')), "{directives:?}");
    assert!(directives.contains(&format!("cargo:rerun-if-changed={}", registry.display())), "{directives:?}");
    assert!(directives.contains(&format!("cargo:rerun-if-changed={}", registry.join("alias.schema.json").display())), "{directives:?}");
    assert!(!directives.iter().any(|line| line.contains("latin1") || line.contains("evil")), "{directives:?}");
}

// ---------------------------------------------------------------- size, depth, cycles

/// How `concord` ended under its bounds.
struct Run {
    what: String,
    status: ExitStatus,
    stderr: String,
    elapsed: Duration,
}

/// The address space each run may take (`ulimit -v`): over four times the
/// largest resident peak below (230 MB, 100,000 `$defs`). Past it an
/// allocation fails and concord aborts, which fails the test.
const MEMORY_MIB: u64 = 1024;
/// The wall-clock bound of each run: eight times the slowest case measured
/// (2,000 branches, 3.6 s, a debug build on a loaded machine).
const SECONDS: u64 = 30;

/// Runs `concord generate` on `registry` under [`MEMORY_MIB`] and
/// [`SECONDS`]; a run past the time bound is killed and fails the test.
fn generate(what: &str, registry: &Path) -> Run {
    let out = registry.with_extension("out");
    let shell = format!("ulimit -v {}; exec \"$0\" \"$@\"", MEMORY_MIB * 1024);
    let mut child = Command::new("sh")
        .args(["-c", &shell, env!("CARGO_BIN_EXE_concord"), "generate", "--registry"])
        .arg(registry)
        .arg("--out")
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stderr, &mut text).map(|_| text)
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > Duration::from_secs(SECONDS) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: `concord generate` ran longer than {SECONDS} s and was killed");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let run = Run { what: what.to_owned(), status, stderr: reader.join().unwrap().unwrap_or_default(), elapsed: started.elapsed() };
    eprintln!("{what}: {} in {:.2?}", if run.status.success() { "generated" } else { "refused" }, run.elapsed);
    // Never half-written: a refusal writes nothing.
    assert_eq!(out.exists(), run.status.success(), "{what}: output written {} ({})", out.exists(), run.stderr);
    assert!(run.status.signal().is_none() && run.status.code() != Some(101), "{what}: concord died ({}):\n{}", run.status, run.stderr);
    run
}

/// A line of the place a diagnostic shows (` --> file:3:7`, `  |`, `3 | the
/// line`, `  |   ^^^`): concord's own, under its diagnostic, the file's text
/// in it with every control and line separator blanked.
fn is_place(line: &str) -> bool {
    let rest = line.trim_start().trim_start_matches(|c: char| c.is_ascii_digit()).trim_start_matches(' ');
    line.trim_start().starts_with("--> ") || rest == "|" || rest.starts_with("| ")
}

/// The lines of a report that are not a place's: one per diagnostic, and the count.
fn diagnostic_lines(report: &str) -> usize {
    report.lines().filter(|line| !is_place(line)).count()
}

impl Run {
    fn generated(&self) {
        assert!(self.status.success(), "{}: refused:\n{}", self.what, self.stderr);
    }

    /// Refused with exit code 1, one diagnostic a line, holding every part of `expected`.
    fn refused(&self, expected: &[&str]) {
        assert_eq!(self.status.code(), Some(1), "{}: {}\n{}", self.what, self.status, self.stderr);
        let lines: Vec<&str> = self.stderr.lines().collect();
        let (last, diagnostics) = lines.split_last().unwrap();
        assert!(last.ends_with(" error") || last.ends_with(" errors"), "{}: {}", self.what, self.stderr);
        assert!(diagnostics.iter().all(|line| line.starts_with("error: ") || is_place(line)), "{}: {}", self.what, self.stderr);
        for part in expected {
            assert!(self.stderr.contains(part), "{}: expected {part:?} in:\n{}", self.what, self.stderr);
        }
    }
}

/// One entry `Big` whose document is `schema`.
fn one(dir: &Path, name: &str, schema: Vec<u8>) -> PathBuf {
    write_registry_with(&dir.join(name), &[("Big", schema)], |_, _| {})
}

/// An object schema with `count` properties named by `name`, each `property`.
fn properties(count: usize, name: impl Fn(usize) -> String, property: Value) -> Value {
    json!({"$schema": DRAFT, "type": "object", "properties": (0..count).map(|n| (name(n), property.clone())).collect::<Map<_, _>>()})
}

#[test]
fn deep_and_cyclic_schemas_compile_or_are_refused_where_they_stand() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let file = |name: &str| dir.join(name).join("big.schema.json").display().to_string();

    // 10,000 levels of JSON: the strict profile stops at 64, naming the byte.
    let levels = 10_000;
    let mut deep = format!("{{\"$schema\": \"{DRAFT}\", \"type\": \"object\", \"properties\": {{\"a\": ");
    deep.push_str(&"{\"type\": \"object\", \"properties\": {\"a\": ".repeat(levels));
    deep.push_str("{\"type\": \"string\"}");
    deep.push_str(&"}}".repeat(levels + 1));
    generate("10,000 levels", &one(dir, "deep", deep.into_bytes())).refused(&[&format!(
        "error: {}: refused by the strict JSON profile (docs/strict-json.md): too-deep at byte 1307: nesting deeper than 64 levels",
        file("deep")
    )]);
    // An index nested as deep.
    let index = dir.join("deep-index");
    std::fs::create_dir_all(&index).unwrap();
    std::fs::write(index.join("registry.json"), format!("{}{}", "[".repeat(levels), "]".repeat(levels))).unwrap();
    generate("an index 10,000 levels deep", &index).refused(&["registry.json: refused by the strict JSON profile (docs/strict-json.md): too-deep at byte 64"]);

    // A chain of 10,000 `$ref`s to a string with a `maxLength`.
    let mut chain: Map<String, Value> = (0..9_999).map(|n| (format!("d{n}"), json!({"$ref": format!("#/$defs/d{}", n + 1)}))).collect();
    chain.insert("d9999".into(), json!({"type": "string", "maxLength": 8}));
    generate(
        "10,000 $refs",
        &one(dir, "chain", bytes(&json!({"$schema": DRAFT, "type": "object", "properties": {"a": {"$ref": "#/$defs/d0"}}, "$defs": chain}))),
    )
    .generated();
    // 200 arrays nested through `$ref`s: past the limit where it passes it.
    let mut arrays: Map<String, Value> =
        (0..200).map(|n| (format!("d{n}"), json!({"type": "array", "items": {"$ref": format!("#/$defs/d{}", n + 1)}}))).collect();
    arrays.insert("d200".into(), json!({"type": "string", "maxLength": 8}));
    generate("200 arrays through $refs", &one(dir, "arrays", bytes(&json!({"$schema": DRAFT, "$defs": arrays, "$ref": "#/$defs/d0"})))).refused(&[
        &format!("error: {} at /$defs/d167: `D167` nests arrays, maps, nullables and unions 33 deep through `$ref`s; concord allows 32", file("arrays")),
        "\n1 error",
    ]);

    // `$ref` cycles with no base case, each refused where it stands: those
    // through merges while reading, then (in a run of their own, since the
    // types are checked once all are read) those through aliases.
    let cycle = |defs: Value, root: Value| {
        let mut schema = json!({"$schema": DRAFT, "$defs": defs});
        schema.as_object_mut().unwrap().extend(root.as_object().unwrap().clone());
        bytes(&schema)
    };
    let merges = dir.join("merges");
    write_registry(
        &merges,
        &[
            ("Merged", cycle(json!({}), json!({"allOf": [{"$ref": "#"}]}))),
            (
                "MergedPair",
                cycle(
                    json!({"a": {"allOf": [{"$ref": "#/$defs/b"}]}, "b": {"allOf": [{"$ref": "#/$defs/a"}]}}),
                    json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/a"}}}),
                ),
            ),
            ("Beside", cycle(json!({}), json!({"$ref": "#", "type": "object"}))),
        ],
    );
    let at = |dir: &Path, name: &str| dir.join(format!("{name}.schema.json")).display().to_string();
    // A `$ref` that leads back to a schema it is part of, for the same value
    // (through `allOf` and `$ref` alone), never ends: refused where it stands.
    let merged = "leads back, through `$ref` and `allOf` alone, to a schema it is part of, for the same value: checking it never ends \
                  (JSON Schema asks validators to refuse such a loop), so there is no type to make";
    generate("$ref cycles through merges", &merges).refused(&[
        &format!("error: {} at /allOf/0/$ref: `$ref` \"#\" {merged}", at(&merges, "merged")),
        &format!("error: {} at /$defs/a/allOf/0: `$ref` \"#/$defs/a\" {merged}", at(&merges, "mergedpair")),
        &format!("error: {} at /$defs/b/allOf/0: `$ref` \"#/$defs/b\" {merged}", at(&merges, "mergedpair")),
        &format!("error: {} at /$ref: `$ref` \"#\" {merged}", at(&merges, "beside")),
        "\n4 errors",
    ]);
    let aliases = dir.join("aliases");
    write_registry(
        &aliases,
        &[
            ("Root", cycle(json!({}), json!({"$ref": "#"}))),
            ("Pair", cycle(json!({"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}), json!({"$ref": "#/$defs/a"}))),
            ("Either", cycle(json!({}), json!({"anyOf": [{"$ref": "#"}]}))),
            ("Items", cycle(json!({}), json!({"type": "array", "items": {"$ref": "#"}}))),
            ("Values", cycle(json!({}), json!({"type": "object", "additionalProperties": {"$ref": "#"}}))),
            ("Anchor", cycle(json!({"a": {"$anchor": "here", "$ref": "#here"}}), json!({"type": "object", "properties": {"p": {"$ref": "#here"}}}))),
        ],
    );
    // Through an array or a map it is a tree, a type of its own (`Items`,
    // `Values` are not refused); with nothing between, no value is finite.
    let contains_itself = "contains itself with no array, map or object in between: no value of it is finite";
    generate("$ref cycles through aliases", &aliases).refused(&[
        &format!("error: {}: `Root` {contains_itself}", at(&aliases, "root")),
        &format!("error: {} at /$defs/a: `Pair` {contains_itself}", at(&aliases, "pair")),
        &format!("error: {} at /$defs/b: `B` {contains_itself}", at(&aliases, "pair")),
        &format!("error: {}: `Either` {contains_itself}", at(&aliases, "either")),
        &format!("error: {} at /$defs/a: `A` {contains_itself}", at(&aliases, "anchor")),
        "\n5 errors",
    ]);

    // `allOf` parts that each name the next three times, 14 deep: merged once
    // each, not 3^14 times (which took minutes and gigabytes).
    let next = |n: usize| json!({"$ref": format!("#/$defs/d{}", n + 1)});
    let mut tripled: Map<String, Value> = (0..14).map(|n| (format!("d{n}"), json!({"allOf": [next(n), next(n), next(n)]}))).collect();
    tripled.insert("d14".into(), json!({"type": "object", "properties": {"x": {"type": "string"}}}));
    let run = generate("allOf parts tripling 14 times", &one(dir, "tripled", bytes(&json!({"$schema": DRAFT, "$ref": "#/$defs/d0", "$defs": tripled}))));
    run.generated();
    assert!(run.elapsed < Duration::from_secs(SECONDS / 6), "{:?}", run.elapsed);
}

#[test]
fn huge_schemas_compile_or_meet_a_limit_named_where_it_stands() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let file = |name: &str| dir.join(name).join("big.schema.json").display().to_string();
    let string = json!({"type": "string"});

    // A 64 MiB file: refused from its size, before a byte is read.
    let huge = dir.join("huge");
    std::fs::create_dir_all(&huge).unwrap();
    let mut text = format!("{{\"$schema\": \"{DRAFT}\", \"type\": \"object\", \"description\": \"").into_bytes();
    text.resize(64 << 20, b'x');
    text.extend_from_slice(b"\"}");
    std::fs::write(huge.join("big.schema.json"), &text).unwrap();
    let pin = String::from_utf8(Command::new("sha256sum").arg(huge.join("big.schema.json")).output().unwrap().stdout).unwrap();
    let index = json!({"format": 1, "schemas": [{"name": "Big", "path": "big.schema.json", "digest": format!("sha256:{}", &pin[..64])}]});
    std::fs::write(huge.join("registry.json"), bytes(&index)).unwrap();
    generate("a 64 MiB schema", &huge).refused(&[&format!(
        "error: {}: too large: {} bytes, and concord reads files of at most 16777216 bytes (16 MiB; docs/limits.md)",
        file("huge"),
        text.len()
    )]);

    // 10^5 properties and enum values: refused at the keyword; 10^4 properties generate.
    // 10^5 `$defs`: refused at the first type past the registry's 50,000.
    generate("100,000 properties", &one(dir, "properties", bytes(&properties(100_000, |n| format!("p{n}"), string.clone()))))
        .refused(&[&format!("error: {} at /properties: `properties` holds 100000 entries; concord reads at most 10000 (docs/limits.md)", file("properties"))]);
    generate("10,000 properties", &one(dir, "properties-at-limit", bytes(&properties(10_000, |n| format!("p{n}"), string.clone())))).generated();
    let defs: Map<String, Value> = (0..100_000).map(|n| (format!("d{n}"), json!({"type": "object", "properties": {"x": {"type": "integer"}}}))).collect();
    generate("100,000 $defs", &one(dir, "defs", bytes(&json!({"$schema": DRAFT, "type": "object", "$defs": defs})))).refused(&[&format!(
        "error: {} at /$defs/d49999: more than 50000 named types (structs, enums, unions, aliases) in one registry, this the next",
        file("defs")
    )]);
    let values: Vec<String> = (0..100_000).map(|n| format!("v{n}")).collect();
    generate(
        "100,000 enum values",
        &one(dir, "enum", bytes(&json!({"$schema": DRAFT, "type": "object", "properties": {"e": {"type": "string", "enum": values}}}))),
    )
    .refused(&[&format!("error: {} at /properties/e/enum: `enum` holds 100000 entries; concord reads at most 10000", file("enum"))]);
    // 6 × 10,000 inline objects: more named types than a registry may make.
    let mut wide = properties(10_000, |n| format!("p{n}"), json!({"type": "object", "properties": {"x": {"type": "string"}}}));
    wide.as_object_mut().unwrap().remove("$schema");
    let defs: Map<String, Value> = (0..6).map(|n| (format!("d{n}"), wide.clone())).collect();
    generate("60,000 named types", &one(dir, "types", bytes(&json!({"$schema": DRAFT, "$defs": defs})))).refused(&[&format!(
        "error: {} at /$defs/d4/properties/p9993: more than 50000 named types (structs, enums, unions, aliases) in one registry, this the next: concord reads no further",
        file("types")
    )]);

    // A 1 MB property name and a 1 MB description generate (and compile: see the injection registry).
    generate("a 1 MB property name", &one(dir, "name", bytes(&properties(1, |_| "n".repeat(1 << 20), string.clone())))).generated();
    let described = json!({"$schema": DRAFT, "type": "object", "description": "word ".repeat(1 << 18), "properties": {"a": {"type": "string", "description": "x".repeat(1 << 20)}}});
    generate("a 1 MB description", &one(dir, "description", bytes(&described))).generated();

    // Found by these cases: each took time (or output) out of proportion.
    // A 1 MB key that is no keyword was compared letter by letter with every keyword (22 s).
    let run = generate("a 1 MB unknown keyword", &one(dir, "keyword", bytes(&json!({"$schema": DRAFT, "type": "object", "k".repeat(1 << 20): 1}))));
    run.generated();
    assert!(run.elapsed < Duration::from_secs(SECONDS / 6), "{:?}", run.elapsed);
    // 10,000 enum values, 10,000 properties and 2,000 tags that all make one
    // word: numbering each scanned from 2 (quadratic), and a union's branches
    // were told apart by one more `_` each (quadratic output).
    let alike: Vec<String> = (0..10_000).map(|n| format!("a{}", format!("{n:014b}").replace('0', "-").replace('1', "_"))).collect();
    let run = generate("10,000 enum values making one word", &one(dir, "alike", bytes(&json!({"$schema": DRAFT, "type": "string", "enum": alike}))));
    run.generated();
    assert!(run.elapsed < Duration::from_secs(SECONDS / 6), "{:?}", run.elapsed);
    let run = generate("10,000 properties making one word", &one(dir, "alike-properties", bytes(&properties(10_000, |n| alike[n].clone(), string.clone()))));
    run.generated();
    assert!(run.elapsed < Duration::from_secs(SECONDS / 3), "{:?}", run.elapsed);
    let branches: Vec<Value> = alike[..2_000].iter().map(|tag| json!({"type": "object", "properties": {"k": {"const": tag}}, "required": ["k"]})).collect();
    generate("2,000 tags making one word", &one(dir, "union", bytes(&json!({"$schema": DRAFT, "oneOf": branches})))).generated();
    let rust = std::fs::metadata(dir.join("union.out/rust/concord_registry.rs")).unwrap().len();
    assert!(rust < 8 << 20, "the Rust bindings of 2,000 branches take {rust} bytes");
}

/// The index is held to the rule schema files are: a FIFO or a link to
/// `/dev/zero` named `registry.json` made generation wait forever, or read
/// until memory ran out.
#[test]
fn an_index_that_is_no_regular_file_inside_the_registry_is_refused() {
    let scratch = tempfile::tempdir().unwrap();
    let make = |name: &str, how: &dyn Fn(&Path)| {
        let dir = scratch.path().join(name);
        std::fs::create_dir_all(&dir).unwrap();
        how(&dir.join("registry.json"));
        dir
    };
    let fifo = make("fifo", &|index| assert!(Command::new("mkfifo").arg(index).status().unwrap().success()));
    let zero = make("zero", &|index| std::os::unix::fs::symlink("/dev/zero", index).unwrap());
    let outside = scratch.path().join("outside.json");
    std::fs::write(&outside, br#"{"format": 1, "schemas": []}"#).unwrap();
    let out = make("outside", &|index| std::os::unix::fs::symlink(&outside, index).unwrap());
    let large = make("large", &|index| std::fs::File::create(index).unwrap().set_len(17 << 20).unwrap());
    let index = |dir: &Path| dir.join("registry.json").display().to_string();
    generate("a FIFO index", &fifo).refused(&[&format!("error: {}: the registry index is refused: not a regular file", index(&fifo))]);
    generate("an index linked to /dev/zero", &zero)
        .refused(&[&format!("error: {}: the registry index is refused: resolves to /dev/zero outside the registry folder", index(&zero))]);
    generate("an index linked outside", &out).refused(&[&format!("error: {}: the registry index is refused: resolves to {}", index(&out), outside.display())]);
    generate("a 17 MiB index", &large).refused(&[&format!("error: {}: the registry index is refused: too large: 17825792 bytes", index(&large))]);
}

/// A refusal quotes the schema (the engine's words, a key): a carriage
/// return, a line break, a NUL or a bidi control in it is shown escaped, so
/// each diagnostic stays one line and shows what the file holds.
#[test]
fn diagnostics_show_hostile_text_escaped_on_one_line() {
    let scratch = tempfile::tempdir().unwrap();
    let raw = "a\"b\\c */ \r\n\u{2028}\u{202e}\u{0}";
    let schema = json!({"$schema": DRAFT, "$id": format!("https://example.com/{raw}"), "type": "object",
        "properties": {"g": {"type": "string", "not": {"const": "x"}}, raw: {"type": "string", format!("x-growth-{raw}"): 1}}, format!("x-growth-{raw}"): 1});
    let registry = write_registry(&scratch.path().join("registry"), &[("Raw", bytes(&schema))]);
    let run = generate("hostile text in diagnostics", &registry);
    // Shown: `\r`, `\n`, `\u{2028}`, `\u{202e}`, `\0`; a pointer escapes `/` as `~1`.
    let shown = "a\"b\\c */ \\r\\n\\u{2028}\\u{202e}\\0";
    let token = shown.replace('/', "~1");
    run.refused(&[
        &format!("at /x-growth-{token}: `x-growth-{shown}` is refused in 2020-12: an unknown concord extension keyword"),
        &format!("at /properties/{token}/x-growth-{token}: `x-growth-{shown}` is refused in 2020-12: an unknown concord extension keyword"),
        // The `$id` is quoted where it is refused.
        r#"at /$id: `$id` "https://example.com/a\"b\\c */ \r\n\u{2028}\u{202e}\0" is not a URI reference"#,
        "\n3 errors",
    ]);
    assert!(!run.stderr.contains(['\r', '\u{2028}', '\u{202e}', '\0']), "{:?}", run.stderr);
}

/// `x-typed-id` prefixes become code (a Rust constant, a Python argument):
/// only lowercase identifiers are read, every other prefix is refused.
#[test]
fn typed_id_prefixes_that_are_no_identifier_are_refused() {
    let scratch = tempfile::tempdir().unwrap();
    let prefixes = ["run\n", "run\r", "run\u{202e}", "run\0", "run\u{2028}", "r\"un", "run */", "\"\"\"", "run\\", "rün"];
    let properties: Map<String, Value> =
        prefixes.iter().enumerate().map(|(n, prefix)| (format!("p{n}"), json!({"type": "string", "x-typed-id": prefix}))).collect();
    let registry = write_registry(&scratch.path().join("registry"), &[("Ids", bytes(&json!({"$schema": DRAFT, "type": "object", "properties": properties})))]);
    let errors = concord_cli::load(&registry).expect_err("refused").to_string();
    for (n, prefix) in prefixes.iter().enumerate() {
        let expected = format!(
            "at /properties/p{n}/x-typed-id: `x-typed-id` prefix {} is refused: a prefix is a lowercase identifier",
            concord_codegen::error::shown(&format!("{prefix:?}"))
        );
        assert!(errors.contains(&expected), "expected {expected:?} in:\n{errors}");
    }
    assert_eq!(diagnostic_lines(&errors), prefixes.len() + 1, "{errors}");
}
