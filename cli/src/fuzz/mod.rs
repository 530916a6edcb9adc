//! The proof of agreement at scale: differential fuzzing.
//!
//! `concord fuzz`: instances drawn from the model ([`instances`], [`guided`]),
//! each spoiled once in many ways ([`mutate`]), go as the same bytes to the
//! Rust and the Python bindings in long-lived worker processes ([`runner`]),
//! which must give the same verdict, error kind, pointer, output bytes and
//! digest. (The generator's own fuzzer, `concord-lab fuzz-schemas`, is in
//! concord's lab.)

pub mod guided;
pub mod instances;
pub mod json;
pub mod mutate;
pub mod pattern;
pub mod random;
pub mod runner;
