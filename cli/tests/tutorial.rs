//! docs/tutorial.md, run as it is written: every `sh` block's lines in
//! order (a `cd` line moves the folder the later ones run in; a line
//! commented `# fails` must fail), every `file=` block written, and every
//! `text output` block found in the output of the line before it (`…`
//! stands for text that differs from run to run, such as digests).
//!
//! Three lines are done the way they can be before concord is published:
//! `cargo install concord-cli` installs from a copy of this checkout that
//! is then deleted, `.venv/bin/pip install concord-cli` installs the
//! wheels `scripts/wheels` builds (pydantic from the index), and `npm
//! install concord-runtime concord-engine concord-cli` installs the
//! tarballs `scripts/packages` packs, with the platform packages their
//! optionalDependencies name, npm offline. The crate's
//! `concord-codegen = "0.1.0"` and `concord-runtime = "0.1.0"` resolve to
//! this checkout through a `[patch.crates-io]` above the tutorial's folder.

use std::path::Path;
use std::process::Command;

mod common;
use common::*;

enum Block {
    Commands(Vec<String>),
    File { path: String, contents: String },
    Output(Vec<String>),
}

fn blocks(markdown: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut lines = markdown.lines();
    while let Some(line) = lines.next() {
        let Some(info) = line.strip_prefix("```") else { continue };
        let mut body = Vec::new();
        for line in lines.by_ref() {
            if line.starts_with("```") {
                break;
            }
            body.push(line.to_owned());
        }
        let info: Vec<&str> = info.split_whitespace().collect();
        if let Some(path) = info.iter().find_map(|word| word.strip_prefix("file=")) {
            out.push(Block::File { path: path.to_owned(), contents: body.join("\n") + "\n" });
        } else if info.first() == Some(&"sh") {
            out.push(Block::Commands(body));
        } else if info == ["text", "output"] {
            out.push(Block::Output(body));
        }
    }
    out
}

/// Whether `output` holds `expected`, its `…` standing for any text.
fn holds(output: &str, expected: &str) -> bool {
    output.lines().any(|line| {
        let mut rest = line;
        expected.split('…').all(|piece| match rest.find(piece) {
            Some(at) => {
                rest = &rest[at + piece.len()..];
                true
            }
            None => false,
        })
    })
}

#[test]
fn the_tutorial_runs_as_written() {
    let markdown = std::fs::read_to_string(workspace().join("docs/tutorial.md")).unwrap();
    let scratch = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(scratch.path().join(".cargo")).unwrap();
    std::fs::write(
        scratch.path().join(".cargo/config.toml"),
        format!(
            "[patch.crates-io]\nconcord-codegen = {{ path = {:?} }}\nconcord-runtime = {{ path = {:?} }}\n",
            workspace().join("codegen").display().to_string(),
            workspace().join("runtime/rust").display().to_string()
        ),
    )
    .unwrap();
    let mut folder = scratch.path().join("work");
    std::fs::create_dir_all(&folder).unwrap();
    let mut path = std::env::var_os("PATH").unwrap_or_default();
    // One cargo target for every crate a test builds as a user would (the disk is shared).
    let target = workspace().join("target/concord-consumers");
    let mut last = String::new();
    let (mut installed_cli, mut installed_wheels, mut installed_npm, mut checked) = (false, false, false, 0);
    for block in blocks(&markdown) {
        match block {
            Block::File { path: file, contents } => {
                let file = folder.join(file);
                std::fs::create_dir_all(file.parent().unwrap()).unwrap();
                std::fs::write(file, contents).unwrap();
            }
            Block::Output(expected) => {
                for line in expected.iter().filter(|line| !line.trim().is_empty()) {
                    assert!(holds(&last, line.trim()), "the tutorial shows {line:?}, and the command wrote:\n{last}");
                    checked += 1;
                }
            }
            Block::Commands(lines) => {
                for line in lines.iter().map(|line| line.trim()).filter(|line| !line.is_empty() && !line.starts_with('#')) {
                    let (command, comment) = line.split_once(" # ").map_or((line, ""), |(command, comment)| (command.trim(), comment.trim()));
                    if let Some(to) = command.strip_prefix("cd ") {
                        folder = folder.join(to);
                        continue;
                    }
                    let output = match command {
                        "cargo install concord-cli" => {
                            let concord = install_from_a_deleted_copy();
                            path = std::env::join_paths(std::iter::once(concord.parent().unwrap().to_path_buf()).chain(std::env::split_paths(&path))).unwrap();
                            installed_cli = true;
                            continue;
                        }
                        ".venv/bin/pip install concord-cli" => {
                            let wheels = wheels();
                            let venv = Venv { dir: folder.join(".venv"), path: path.clone() };
                            venv.install(&wheels);
                            installed_wheels = true;
                            continue;
                        }
                        "npm install concord-runtime concord-engine concord-cli" => {
                            let packages = npm_packages();
                            let names = ["concord-runtime", "concord-engine", "concord-engine-linux-x64-gnu", "concord-cli", "concord-cli-linux-x64-gnu"];
                            run_ok(
                                npm_offline("npm", &folder, &path, &scratch.path().join("npm-cache"))
                                    .args(["install", "--loglevel=error"])
                                    .args(names.map(|name| tarball(&packages, name))),
                            );
                            installed_npm = true;
                            continue;
                        }
                        command => shell(command, &folder, &path, &target),
                    };
                    last = text(&output);
                    if comment.starts_with("fails") {
                        assert!(!output.status.success(), "`{command}` was to fail, and did not:\n{last}");
                    } else {
                        assert!(output.status.success(), "`{command}` failed:\n{last}");
                    }
                }
            }
        }
    }
    assert!(installed_cli && installed_wheels && installed_npm && checked >= 7, "the tutorial no longer installs all three, or shows little output");
}

fn shell(command: &str, folder: &Path, path: &std::ffi::OsStr, target: &Path) -> std::process::Output {
    Command::new("sh")
        .args(["-c", command])
        .current_dir(folder)
        .env("PATH", path)
        .env("CARGO_TARGET_DIR", target)
        .env_remove("CONCORD_PYTHON")
        .env_remove("PYTHONPATH")
        .env_remove("VIRTUAL_ENV")
        .output()
        .unwrap()
}
