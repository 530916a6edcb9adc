//! What the command-line tests share: the workspace, the `concord` command,
//! and the Python that has the pinned packages.

#![allow(dead_code)] // each test file uses its own part

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// Runs `concord` in the workspace.
pub fn concord(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_concord")).args(args).current_dir(workspace()).output().unwrap()
}

/// Standard output and standard error, together.
pub fn text(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

/// The Python that has the pinned packages: `scripts/test` makes `.venv`.
pub fn python() -> String {
    let python = std::env::var("CONCORD_PYTHON").unwrap_or_else(|_| workspace().join(".venv/bin/python").display().to_string());
    assert!(Path::new(&python).exists(), "no Python at {python}: run scripts/test, which creates .venv with the pinned packages");
    python
}

/// Runs a command, failing the test with its output when it fails.
/// `concord roundtrip` of a registry of the workspace over its fixtures, in
/// both languages (the shared harness folder): how many passed, when none
/// failed.
pub fn roundtrip_passes(registry: &str, fixtures: &str) -> usize {
    let (python, work) = (python(), workspace().join("target/concord-roundtrip"));
    let output = concord(&["roundtrip", "--registry", registry, "--fixtures", fixtures, "--work-dir", work.to_str().unwrap(), "--python", &python]);
    let report = text(&output);
    assert!(output.status.success() && report.ends_with(" passed, 0 failed\n"), "{report}");
    report.lines().last().unwrap().split(' ').next().unwrap().parse().unwrap()
}

pub fn run_ok(command: &mut Command) -> Output {
    let output = command.output().unwrap_or_else(|error| panic!("cannot run {command:?}: {error}"));
    assert!(output.status.success(), "{command:?} failed:\n{}", text(&output));
    output
}

/// The workspace's tracked files copied to `to` (what a clone would hold).
pub fn copy_checkout(to: &Path) {
    let listed = run_ok(Command::new("git").args(["ls-files", "-z"]).current_dir(workspace()));
    for name in listed.stdout.split(|&byte| byte == 0).filter(|name| !name.is_empty()) {
        let name = std::str::from_utf8(name).unwrap();
        let (from, target) = (workspace().join(name), to.join(name));
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        let meta = std::fs::symlink_metadata(&from).unwrap();
        if meta.file_type().is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(&from).unwrap(), &target).unwrap();
        } else {
            std::fs::copy(&from, &target).unwrap();
        }
    }
}

/// What the tests that install concord as users do share: built once per
/// test run into `target/concord-dist/<name>` (nextest runs each test in a
/// process of its own; `NEXTEST_RUN_ID` names the run), one build at a time
/// (maturin stages each binary at one path of the workspace's target
/// folder, so two builds at once raced). Under `cargo test`, whose tests
/// are threads of one process per test file, once per process.
fn built_once(name: &str, build: impl FnOnce(&Path)) -> PathBuf {
    let dist = workspace().join("target/concord-dist");
    let dir = dist.join(name);
    let _lock = Lock::take(&dist.join("build.lock"));
    let run = std::env::var("NEXTEST_RUN_ID").unwrap_or_else(|_| format!("process {}", std::process::id()));
    let stamp = dist.join(format!("{name}.run"));
    if std::fs::read_to_string(&stamp).is_ok_and(|built| built == run) {
        return dir;
    }
    let _ = std::fs::remove_file(&stamp);
    let _ = std::fs::remove_dir_all(&dir);
    build(&dir);
    std::fs::write(&stamp, run).unwrap();
    dir
}

/// The `concord` command `cargo install`ed from a copy of this checkout,
/// which is then deleted: what the command needs, it carries. Returns the
/// installed binary.
pub fn install_from_a_deleted_copy() -> PathBuf {
    let root = built_once("installed", |root| {
        let copy = root.with_extension("checkout");
        let _ = std::fs::remove_dir_all(&copy);
        copy_checkout(&copy);
        // Compiled crates are shared with the other crates tests build as users do (the copy's own are built anew).
        let target = workspace().join("target/concord-consumers");
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        run_ok(
            Command::new(cargo)
                .args(["install", "--quiet", "--debug", "--locked", "--path"])
                .arg(copy.join("cli"))
                .arg("--root")
                .arg(root)
                .env("CARGO_TARGET_DIR", target),
        );
        std::fs::remove_dir_all(&copy).unwrap();
    });
    root.join("bin/concord")
}

/// The wheels `scripts/wheels` builds.
pub fn wheels() -> PathBuf {
    built_once("wheels", |dir| {
        run_ok(Command::new(workspace().join("scripts/wheels")).arg(dir).env("CONCORD_PYTHON", python()));
    })
}

/// The npm packages `scripts/packages` packs (it builds the wheels too:
/// the command's binary is the concord-cli wheel's).
pub fn npm_packages() -> PathBuf {
    built_once("packages", |dir| {
        run_ok(Command::new(workspace().join("scripts/packages")).arg(dir).env("CONCORD_PYTHON", python()));
    })
}

/// The tarball of npm package `name` in a folder `scripts/packages` filled.
pub fn tarball(packages: &Path, name: &str) -> PathBuf {
    let file = packages.join(format!("{name}-{}.tgz", env!("CARGO_PKG_VERSION")));
    assert!(file.exists(), "scripts/packages made no {}", file.display());
    file
}

/// A `PATH` holding Node's three commands and `sh` alone: no cargo, rustc
/// or Python, as on a TypeScript team's machine.
pub fn node_alone(dir: &Path) -> std::ffi::OsString {
    std::fs::create_dir_all(dir).unwrap();
    for tool in ["node", "npm", "npx", "sh"] {
        let found = run_ok(Command::new("sh").args(["-c", &format!("command -v {tool}")]));
        let found = PathBuf::from(String::from_utf8(found.stdout).unwrap().trim());
        std::os::unix::fs::symlink(&found, dir.join(tool)).unwrap();
    }
    dir.as_os_str().to_owned()
}

/// `program` (npm, npx, node) found on `path`, in `folder`, with npm's own
/// cache and no registry: all npm installs comes from the tarballs and
/// folders it is given.
pub fn npm_offline(program: &str, folder: &Path, path: &std::ffi::OsStr, cache: &Path) -> Command {
    // (A command's own PATH is the one its program is looked up in.)
    let mut command = Command::new(program);
    command
        .current_dir(folder)
        .env("PATH", path)
        .env("npm_config_cache", cache)
        .env("npm_config_offline", "true")
        .env("npm_config_registry", "http://127.0.0.1:9/")
        .env("npm_config_audit", "false")
        .env("npm_config_fund", "false")
        .env("npm_config_update_notifier", "false")
        .env_remove("CONCORD_PYTHON")
        .env_remove("CONCORD_NODE");
    command
}

/// A fresh virtual environment with no Rust toolchain on its `PATH`: the
/// wheels in `wheels` installed (concord-cli, which brings concord-runtime),
/// and pydantic at the version `requirements-dev.txt` pins, from the index.
pub struct Venv {
    pub dir: PathBuf,
    /// `PATH` for its commands: its own `bin`, and the system's folders that hold no cargo or rustc.
    pub path: std::ffi::OsString,
}

impl Venv {
    pub fn without_rust(dir: &Path, wheels: &Path) -> Venv {
        run_ok(Command::new(python()).args(["-m", "venv"]).arg(dir));
        let system = std::env::var_os("PATH").unwrap_or_default();
        let kept = std::env::split_paths(&system).filter(|folder| !["cargo", "rustc", "rustup"].iter().any(|tool| folder.join(tool).exists()));
        let path = std::env::join_paths(std::iter::once(dir.join("bin")).chain(kept)).unwrap();
        let venv = Venv { dir: dir.to_path_buf(), path };
        for tool in ["cargo", "rustc"] {
            let found = venv.command("sh").args(["-c", &format!("command -v {tool}")]).output().unwrap();
            assert!(!found.status.success(), "{tool} is on the venv's PATH: {}", text(&found));
        }
        venv.install(wheels);
        venv
    }

    /// `pip install concord-cli` from the wheels in `wheels` (only these
    /// two from the folder: never a package of the same name from the
    /// index), with pydantic at the pinned version from the index.
    pub fn install(&self, wheels: &Path) {
        let pins: Vec<String> = std::fs::read_to_string(workspace().join("requirements-dev.txt"))
            .unwrap()
            .lines()
            .filter(|line| {
                ["pydantic==", "pydantic_core==", "annotated-types==", "typing-inspection==", "typing_extensions=="].iter().any(|name| line.starts_with(name))
            })
            .map(str::to_owned)
            .collect();
        run_ok(self.command("pip").args(["install", "--quiet", "--disable-pip-version-check"]).args(&pins));
        run_ok(
            self.command("pip")
                .args(["install", "--quiet", "--disable-pip-version-check", "--no-index", "--find-links"])
                .arg(wheels)
                .arg(format!("concord-cli=={}", env!("CARGO_PKG_VERSION"))),
        );
    }

    /// A command of the venv's (`concord`, `python`, `pip`), with its `PATH`.
    pub fn command(&self, program: &str) -> Command {
        let local = self.dir.join("bin").join(program);
        let mut command = Command::new(if local.exists() { local } else { PathBuf::from(program) });
        command.env("PATH", &self.path).env_remove("PYTHONPATH").env_remove("CONCORD_PYTHON").env("VIRTUAL_ENV", &self.dir);
        command
    }
}

/// A lock between test processes: a folder, which only one can create.
/// (`File::lock` is newer than the crates' MSRV.) One left by a killed run
/// is taken after ten minutes, longer than a build of the wheels takes.
pub struct Lock(PathBuf);

impl Lock {
    /// Waits for the lock at `path` (a folder: made by one process only).
    /// One left by another test run (a killed one) is taken over; within
    /// a run, a holder is waited for as long as a cold build can take.
    pub fn take(path: &Path) -> Lock {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let run = std::env::var("NEXTEST_RUN_ID").unwrap_or_default();
        let started = std::time::Instant::now();
        loop {
            match std::fs::create_dir(path) {
                Ok(()) => {
                    std::fs::write(path.join("run"), &run).unwrap();
                    return Lock(path.to_path_buf());
                }
                Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => {
                    let holder = std::fs::read_to_string(path.join("run"));
                    let age = std::fs::metadata(path).and_then(|meta| meta.modified()).ok().and_then(|time| time.elapsed().ok());
                    let another_run = holder.is_ok_and(|holder| holder != run) && age.is_some_and(|age| age.as_secs() > 5);
                    if another_run || age.is_some_and(|age| age.as_secs() > 3600) {
                        let _ = std::fs::remove_dir_all(path);
                    }
                    assert!(started.elapsed().as_secs() < 3600, "{} was held for an hour", path.display());
                    std::thread::sleep(std::time::Duration::from_millis(500));
                }
                Err(error) => panic!("{}: {error}", path.display()),
            }
        }
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
