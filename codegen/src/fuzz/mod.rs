//! The proof of agreement at scale, by two fuzzers.
//!
//! `concord fuzz`: instances drawn from the model ([`instances`], [`guided`]),
//! each spoiled once in many ways ([`mutate`]), go as the same bytes to the
//! Rust and the Python bindings in long-lived worker processes ([`runner`]),
//! which must give the same verdict, error kind, pointer, output bytes and
//! digest.
//!
//! `concord fuzz-schemas`: random schemas drawn from a grammar of 2020-12
//! keywords and junk ([`schemas`]) must each end in bindings that build and
//! import, or in a refusal that says where.

pub mod guided;
pub mod instances;
pub mod json;
pub mod mutate;
pub mod random;
pub mod runner;
pub mod schemas;
