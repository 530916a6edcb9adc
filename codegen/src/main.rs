//! `concord`: generate, check and pin a registry's bindings, and run the
//! shared round-trip suite through both languages.

use clap::{Parser, Subcommand};
use concord_codegen::{registry, roundtrip, stale_files, write_files, Config, Errors};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "concord", version, about = "Compile a digest-pinned JSON Schema registry into Rust serde types and Python pydantic models that agree")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Write the Rust and Python bindings of a registry.
    Generate {
        #[arg(long, default_value = "registry")]
        registry: PathBuf,
        #[arg(long, default_value = "generated")]
        out: PathBuf,
    },
    /// Fail when a pin drifted or the generated bindings are stale.
    Check {
        #[arg(long, default_value = "registry")]
        registry: PathBuf,
        #[arg(long, default_value = "generated")]
        out: PathBuf,
    },
    /// Re-pin every schema to its current bytes, after a deliberate change.
    Pin {
        #[arg(long, default_value = "registry")]
        registry: PathBuf,
    },
    /// Build the bindings of a registry in both languages and run every fixture through both.
    Roundtrip {
        #[arg(long, default_value = "registry")]
        registry: PathBuf,
        #[arg(long, default_value = "tests/roundtrip")]
        fixtures: PathBuf,
        /// Scratch folder for the generated crate and package (kept, so rebuilds are incremental).
        #[arg(long, default_value = "target/concord-roundtrip")]
        work_dir: PathBuf,
        /// The Python with pydantic installed [default: $CONCORD_PYTHON, else .venv/bin/python, else python3].
        #[arg(long)]
        python: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    match run(Cli::parse().command) {
        Ok(code) => code,
        Err(errors) => {
            eprintln!("{errors}");
            ExitCode::FAILURE
        }
    }
}

fn run(command: Command) -> Result<ExitCode, Errors> {
    match command {
        Command::Generate { registry, out } => {
            let files = Config::new().registry(&registry).generate()?;
            write_files(&out, &files)?;
            for file in &files {
                println!("wrote {}", out.join(&file.path).display());
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Check { registry, out } => {
            let files = Config::new().registry(&registry).generate()?;
            let stale = stale_files(&out, &files);
            if stale.is_empty() {
                println!("ok: every pin holds and {} is up to date", out.display());
                return Ok(ExitCode::SUCCESS);
            }
            let mut errors = Errors::default();
            for file in stale {
                let message = format!(
                    "stale: this file does not match what {} generates; run `concord generate --registry {} --out {}`",
                    registry.display(),
                    registry.display(),
                    out.display()
                );
                errors.push(&file, "", message);
            }
            Err(errors)
        }
        Command::Pin { registry: dir } => {
            let changes = registry::pin(&dir)?;
            if changes.is_empty() {
                println!("every pin already matches its file");
            }
            for change in changes {
                println!("{}: {} -> {}", change.path, change.old.as_deref().unwrap_or("(none)"), change.new);
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Roundtrip { registry, fixtures, work_dir, python } => {
            let python = python.unwrap_or_else(roundtrip::default_python);
            let report = roundtrip::run(Config::new().registry(&registry), &fixtures, &work_dir, &python)?;
            print!("{report}");
            Ok(if report.failed() == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
        }
    }
}
