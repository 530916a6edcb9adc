//! `concord-lab`: concord's own proof at scale, beside the `concord`
//! command: the corpus survey and the generator fuzzer.

use clap::{Parser, Subcommand};
use concord_cli::roundtrip;
use concord_codegen::Errors;
use concord_lab::{schemas, survey};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "concord-lab", version, about = "concord's own proof at scale: the corpus survey and the generator fuzzer")]
struct Lab {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Survey a corpus of Draft 2020-12 schemas (fixtures/vectors/corpus's layout):
    /// which generate, compile and import, alone and as one registry, and
    /// whether every instance reads with equal bytes in both languages and
    /// each language's types give its validator's verdict.
    /// Prints a markdown table; exits 1 when an instance disagrees.
    Survey {
        #[arg(long, default_value = "fixtures/vectors/corpus")]
        corpus: PathBuf,
        /// Also write the table here.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Scratch folder: one registry per schema, the combined registry and its fixtures.
        #[arg(long, default_value = "target/concord-survey")]
        work_dir: PathBuf,
        /// The round-trip harness's folder, shared with `concord roundtrip`.
        #[arg(long, default_value = "target/concord-roundtrip")]
        harness_dir: PathBuf,
        /// [default: $CONCORD_PYTHON, else .venv/bin/python, else python3].
        #[arg(long)]
        python: Option<PathBuf>,
    },
    /// Fuzz the generator with random Draft 2020-12 schemas (and junk): each
    /// must generate or be refused with a located error, never panic or hang;
    /// the accepted ones are built in batches, and must compile and import.
    /// Findings are written below --findings; exits 1 when there is any.
    FuzzSchemas {
        /// The run's seed (each case's seed is drawn from it).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Stop drawing cases after this long: 30s, 60m, 2h.
        #[arg(long, value_parser = concord_cli::fuzz::runner::parse_duration)]
        time: Option<std::time::Duration>,
        /// Stop after this many cases [default: 1000 when --time is not given].
        #[arg(long)]
        schemas: Option<u64>,
        /// Accepted cases per compiled batch (one registry, one cargo build); 0 generates only.
        #[arg(long, default_value_t = 20)]
        batch: usize,
        #[arg(long, default_value = "target/concord-fuzz/schema-findings")]
        findings: PathBuf,
        /// Scratch folder: the case in progress, the batch, shrinking.
        #[arg(long, default_value = "target/concord-fuzz/schemas")]
        work_dir: PathBuf,
        /// The round-trip harness's folder (its cargo target is shared with `concord roundtrip`).
        #[arg(long, default_value = "target/concord-roundtrip")]
        harness_dir: PathBuf,
        /// [default: $CONCORD_PYTHON, else .venv/bin/python, else python3].
        #[arg(long)]
        python: Option<PathBuf>,
        /// A generation that takes longer than this is a hang.
        #[arg(long, default_value = "10s", value_parser = concord_cli::fuzz::runner::parse_duration)]
        hang: std::time::Duration,
        /// Builds a build or import failure may spend on shrinking its case.
        #[arg(long, default_value_t = 12)]
        shrink_builds: usize,
        /// Do not hold each batch's Python package to ruff and mypy --strict.
        #[arg(long)]
        no_lint: bool,
    },
}

fn main() -> ExitCode {
    match run(Lab::parse().command) {
        Ok(code) => code,
        Err(errors) => {
            eprintln!("{errors}");
            ExitCode::FAILURE
        }
    }
}

fn run(command: Command) -> Result<ExitCode, Errors> {
    match command {
        Command::Survey { corpus, out, work_dir, harness_dir, python } => {
            let python = python.unwrap_or_else(roundtrip::default_python);
            let candidates = survey::corpus::candidates(&corpus)?;
            let options = survey::Options { work_dir: &work_dir, harness_dir: &harness_dir, python: &python, isolate_failures: true };
            let result = survey::run(candidates, &options)?;
            let table = survey::corpus::markdown(&result);
            print!("{table}");
            if let Some(out) = out {
                concord_codegen::output::write_atomically(&out, table.as_bytes()).map_err(|e| Errors::one(&out, "", e))?;
            }
            let disagreeing = result.checked().iter().filter(|checked| !checked.case.passed()).count();
            Ok(if disagreeing == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
        }
        Command::FuzzSchemas { seed, time, schemas, batch, findings, work_dir, harness_dir, python, hang, shrink_builds, no_lint } => {
            let options = schemas::run::Options {
                seed,
                time,
                schemas: schemas.or(if time.is_none() { Some(1000) } else { None }),
                batch,
                findings,
                work_dir,
                harness_dir,
                python: python.unwrap_or_else(roundtrip::default_python),
                hang,
                shrink_builds,
                progress: Some(std::time::Duration::from_secs(10)),
                lint: !no_lint,
            };
            let summary = schemas::run::run(&options, &mut |line| println!("{line}"))?;
            println!("most common refusals:");
            for (reason, count) in summary.top_reasons(12) {
                println!("{count:>8}  {reason}");
            }
            if summary.hung {
                // The hung generation's thread cannot be stopped: end the process.
                std::process::exit(1);
            }
            Ok(if summary.findings.is_empty() { ExitCode::SUCCESS } else { ExitCode::FAILURE })
        }
    }
}
