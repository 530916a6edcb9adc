//! Verifies the registry's pins and generates its Rust bindings into OUT_DIR.
//! A schema whose bytes no longer match its pin fails the build.

fn main() {
    if let Err(errors) = concord_codegen::Config::new().registry("registry").compile() {
        eprintln!("{errors}");
        std::process::exit(1);
    }
}
