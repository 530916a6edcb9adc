//! `concord add URL`, `--update`, `--dialect` and `--uri`, against an HTTP
//! server of the test's own on the loopback address: a schema referencing
//! two others by URL (one behind a redirect, one referencing itself), a
//! 404, a document that changes upstream. Nothing here reaches past 127.0.0.1.

use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

mod common;
use common::*;

/// A page: status, extra headers, body.
type Page = (u16, Vec<(String, String)>, Vec<u8>);

/// An HTTP/1.1 server on 127.0.0.1 that answers each path from `pages`
/// (404 for others), one connection a request, until dropped, ten minutes
/// have passed (a busy machine builds the bindings in between) or it has
/// answered a thousand requests.
struct Server {
    base: String,
    pages: Arc<Mutex<HashMap<String, Page>>>,
    requests: Arc<Mutex<Vec<String>>>,
    stop: Arc<AtomicBool>,
}

impl Server {
    fn start() -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let pages: Arc<Mutex<HashMap<String, Page>>> = Arc::default();
        let requests: Arc<Mutex<Vec<String>>> = Arc::default();
        let stop = Arc::new(AtomicBool::new(false));
        let (served, asked, stopped) = (pages.clone(), requests.clone(), stop.clone());
        std::thread::spawn(move || {
            let deadline = Instant::now() + Duration::from_secs(600);
            let mut answered = 0;
            while !stopped.load(Ordering::Relaxed) && Instant::now() < deadline && answered < 1_000 {
                let Ok((mut stream, _)) = listener.accept() else {
                    std::thread::sleep(Duration::from_millis(5));
                    continue;
                };
                stream.set_nonblocking(false).unwrap();
                stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut line = String::new();
                if reader.read_line(&mut line).is_err() {
                    continue;
                }
                let path = line.split(' ').nth(1).unwrap_or("/").to_owned();
                loop {
                    let mut header = String::new();
                    if reader.read_line(&mut header).map_or(true, |n| n == 0) || header == "\r\n" {
                        break;
                    }
                }
                asked.lock().unwrap().push(path.clone());
                answered += 1;
                let (status, headers, body) = served.lock().unwrap().get(&path).cloned().unwrap_or((404, vec![], b"not here".to_vec()));
                let reason = match status {
                    200 => "OK",
                    302 => "Found",
                    _ => "Not Found",
                };
                let mut response = format!("HTTP/1.1 {status} {reason}\r\nContent-Length: {}\r\nConnection: close\r\n", body.len());
                for (name, value) in headers {
                    response.push_str(&format!("{name}: {value}\r\n"));
                }
                response.push_str("\r\n");
                let _ = stream.write_all(response.as_bytes()).and_then(|()| stream.write_all(&body));
            }
        });
        Server { base, pages, requests, stop }
    }

    fn serve(&self, path: &str, schema: &Value) {
        self.pages.lock().unwrap().insert(path.to_owned(), (200, vec![], serde_json::to_vec_pretty(schema).unwrap()));
    }

    fn redirect(&self, path: &str, to: &str) {
        self.pages.lock().unwrap().insert(path.to_owned(), (302, vec![("Location".to_owned(), to.to_owned())], Vec::new()));
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

const DRAFT7: &str = "http://json-schema.org/draft-07/schema#";

/// A pipeline schema that references two others by URL: `common.json`
/// relatively, and the units schema by an address that redirects; the
/// units schema references itself by its URL.
fn publish(server: &Server, limit_values: &[&str]) {
    server.serve(
        "/schemas/pipeline.json",
        &json!({
            "$schema": DRAFT7,
            "title": "Pipeline",
            "type": "object",
            "required": ["name", "steps"],
            "properties": {
                "name": {"$ref": "common.json#/definitions/name"},
                "steps": {"type": "array", "items": {"$ref": server.url("/old/units.json")}}
            },
            "additionalProperties": false
        }),
    );
    server.serve("/schemas/common.json", &json!({"$schema": DRAFT7, "definitions": {"name": {"type": "string", "pattern": "^[a-z][a-z0-9-]*$"}}}));
    server.redirect("/old/units.json", &server.url("/v2/units.json"));
    server.serve(
        "/v2/units.json",
        &json!({
            "$schema": DRAFT7,
            "title": "Unit",
            "type": "object",
            "required": ["run"],
            "properties": {
                "run": {"type": "string"},
                "limit": {"enum": limit_values},
                "then": {"type": "array", "items": {"$ref": format!("{}#", server.url("/old/units.json"))}}
            }
        }),
    );
}

fn index(registry: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(registry.join("registry.json")).unwrap()).unwrap()
}

#[test]
fn a_schema_and_the_documents_it_references_by_url_are_downloaded_once_pinned_and_bound() {
    let server = Server::start();
    publish(&server, &["cpu", "memory"]);
    let scratch = tempfile::tempdir().unwrap();
    let registry = scratch.path().join("registry");
    let arg = registry.to_str().unwrap();
    std::fs::create_dir_all(&registry).unwrap();

    let added = concord(&["add", "--registry", arg, &server.url("/schemas/pipeline.json")]);
    assert!(added.status.success(), "{}", text(&added));
    let host = server.base.trim_start_matches("http://").replace(':', "_");
    let report = text(&added);
    assert!(
        report.contains(&format!("added Pipeline ({host}/schemas/pipeline.json as {0}, downloaded from {0})", server.url("/schemas/pipeline.json"))),
        "{report}"
    );
    assert!(
        report.contains(&format!(
            "added Unit ({host}/old/units.json as {}, which {host}/schemas/pipeline.json references, downloaded from {} (redirected to {}))",
            server.url("/old/units.json"),
            server.url("/old/units.json"),
            server.url("/v2/units.json")
        )),
        "{report}"
    );
    assert!(report.contains(&format!("added Common ({host}/schemas/common.json as {}", server.url("/schemas/common.json"))), "{report}");
    let entries = index(&registry)["schemas"].as_array().unwrap().clone();
    assert_eq!(entries.len(), 3, "{entries:#?}");
    let unit = entries.iter().find(|entry| entry["name"] == "Unit").unwrap();
    assert_eq!(unit["uri"], json!(server.url("/old/units.json")), "the URI the `$ref`s name it by");
    assert_eq!(unit["source"], json!(server.url("/old/units.json")));
    assert_eq!(unit["fetched_from"], json!(server.url("/v2/units.json")));
    for entry in &entries {
        let bytes = std::fs::read(registry.join(entry["path"].as_str().unwrap())).unwrap();
        assert_eq!(entry["digest"], json!(concord_codegen::registry::digest(&bytes)), "pinned to the bytes downloaded");
    }
    let downloads = server.requests.lock().unwrap().len();
    assert_eq!(downloads, 4, "each document once, the redirect once: {:?}", server.requests.lock().unwrap());

    // Listed already: nothing is downloaded again.
    let again = concord(&["add", "--registry", arg, &server.url("/schemas/pipeline.json")]);
    assert_eq!(text(&again), "every file is listed already\n");
    assert_eq!(server.requests.lock().unwrap().len(), downloads);

    // Typed roots in both languages, agreeing with the pinned validator.
    let out = scratch.path().join("out");
    let generated = concord(&["generate", "--registry", arg, "--out", out.to_str().unwrap()]);
    assert!(generated.status.success(), "{}", text(&generated));
    let rust = std::fs::read_to_string(out.join("rust/concord_registry.rs")).unwrap();
    assert!(rust.contains("pub struct Pipeline {") && rust.contains("pub steps: Vec<") && rust.contains("pub struct Unit {"), "{rust}");
    let fixtures = scratch.path().join("fixtures");
    std::fs::create_dir_all(fixtures.join("Pipeline")).unwrap();
    let fixture = |name: &str, body: &str| std::fs::write(fixtures.join("Pipeline").join(name), body).unwrap();
    fixture("ok.json", r#"{"name":"build","steps":[{"run":"make","limit":"cpu","then":[{"run":"test"}]}]}"#);
    fixture("bad_name.json", r#"{"name":"Build","steps":[]}"#);
    fixture("bad_name.reject", "");
    fixture("bad_limit.json", r#"{"name":"build","steps":[{"run":"make","limit":"disk"}]}"#);
    fixture("bad_limit.reject", r#"at "/steps/0/limit""#);
    let (python, work) = (python(), workspace().join("target/concord-roundtrip"));
    let roundtrip = roundtrip(arg, &fixtures, &work, &python);
    assert!(text(&roundtrip).ends_with("3 passed, 0 failed\n"), "{}", text(&roundtrip));

    // Upstream changes: `--update` downloads again, re-pins, and says what breaks.
    let unchanged = concord(&["add", "--registry", arg, "--update", "Pipeline"]);
    assert!(text(&unchanged).contains("Pipeline: every downloaded document is as it was"), "{}", text(&unchanged));
    publish(&server, &["cpu"]);
    let before = std::fs::read(registry.join("registry.json")).unwrap();
    let updated = concord(&["add", "--registry", arg, "--update", "Pipeline"]);
    let report = text(&updated);
    assert!(updated.status.success(), "{report}");
    assert!(report.contains(&format!("updated {host}/old/units.json: sha256:")), "{report}");
    assert!(report.contains("enum-value-removed"), "{report}");
    assert_ne!(std::fs::read(registry.join("registry.json")).unwrap(), before);
    assert!(concord(&["check", "--registry", arg, "--out", out.to_str().unwrap()]).status.code() == Some(1), "the bindings are stale now");
}

#[test]
fn a_missing_document_is_named_with_the_ref_that_reached_it_and_nothing_is_written() {
    let server = Server::start();
    server.serve("/a.json", &json!({"$schema": DRAFT7, "type": "object", "properties": {"b": {"$ref": "missing/b.json"}}}));
    let scratch = tempfile::tempdir().unwrap();
    let registry = scratch.path().join("registry");
    std::fs::create_dir_all(&registry).unwrap();
    let refused = concord(&["add", "--registry", registry.to_str().unwrap(), &server.url("/a.json")]);
    assert!(!refused.status.success());
    let report = text(&refused);
    assert!(
        report.contains(&format!("cannot download {}: the server answered 404 Not Found (`$ref` \"missing/b.json\" in", server.url("/missing/b.json"))),
        "{report}"
    );
    assert_eq!(std::fs::read_dir(&registry).unwrap().count(), 0, "nothing downloaded is kept, and no index is made");
}

/// A file without `$schema` is added with the dialect the command gives,
/// and a `uri`; without one, the refusal says which option to pass.
#[test]
fn dialect_and_uri_are_written_into_the_entry() {
    let scratch = tempfile::tempdir().unwrap();
    let registry = scratch.path().join("registry");
    std::fs::create_dir_all(&registry).unwrap();
    std::fs::write(registry.join("legacy.json"), br#"{"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]}"#).unwrap();
    let arg = registry.to_str().unwrap();
    let file = registry.join("legacy.json");
    let refused = concord(&["add", "--registry", arg, file.to_str().unwrap()]);
    assert!(text(&refused).contains("it has no \"$schema\" and the registry declares no dialect: say which with --dialect"), "{}", text(&refused));
    assert!(!registry.join("registry.json").exists());
    let added = concord(&["add", "--registry", arg, "--dialect", "draft-07", "--uri", "https://legacy.example/legacy.json", file.to_str().unwrap()]);
    assert!(added.status.success(), "{}", text(&added));
    let entry = &index(&registry)["schemas"][0];
    assert_eq!((&entry["dialect"], &entry["uri"]), (&json!("draft-07"), &json!("https://legacy.example/legacy.json")));
    let out = scratch.path().join("out");
    assert!(concord(&["generate", "--registry", arg, "--out", out.to_str().unwrap()]).status.success());
    assert!(std::fs::read_to_string(out.join("rust/concord_registry.rs")).unwrap().contains("pub struct Legacy {"));
    // A typed root in both languages, read as draft-07, agreeing with the validator.
    let fixtures = scratch.path().join("fixtures");
    std::fs::create_dir_all(fixtures.join("Legacy")).unwrap();
    for (name, body) in
        [("ok.json", r#"{"id":7}"#), ("no_id.json", "{}"), ("no_id.reject", ""), ("id_text.json", r#"{"id":"7"}"#), ("id_text.reject", r#"at "/id""#)]
    {
        std::fs::write(fixtures.join("Legacy").join(name), body).unwrap();
    }
    let (python, work) = (python(), workspace().join("target/concord-roundtrip"));
    let roundtrip = roundtrip(arg, &fixtures, &work, &python);
    assert!(text(&roundtrip).ends_with("3 passed, 0 failed\n"), "{}", text(&roundtrip));
}

/// `concord roundtrip` in the harness folder the other tests share (its
/// compiled runtime is reused), Rust and Python: a scratch folder of its
/// own compiled the runtime again for each test, two minutes each.
fn roundtrip(registry: &str, fixtures: &Path, work: &Path, python: &str) -> std::process::Output {
    concord(&[
        "roundtrip",
        "--registry",
        registry,
        "--fixtures",
        fixtures.to_str().unwrap(),
        "--work-dir",
        work.to_str().unwrap(),
        "--python",
        python,
        "--languages",
        "rust,python",
    ])
}
