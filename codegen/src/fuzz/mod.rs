//! `concord fuzz`: the proof of agreement at scale. Instances drawn from the
//! model ([`instances`]), each spoiled once in many ways ([`mutate`]), go as
//! the same bytes to the Rust and the Python bindings in long-lived worker
//! processes ([`runner`]), which must give the same verdict, error kind,
//! pointer, output bytes and digest.

pub mod guided;
pub mod instances;
pub mod json;
pub mod mutate;
pub mod random;
pub mod runner;
