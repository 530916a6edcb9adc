//! concord's lab: what only concord's own tests and benchmarks run, never
//! a user's build. The corpus survey and the JSON-Schema-Test-Suite's
//! classing ([`survey`]), and the generator fuzzer ([`schemas`]), both on
//! top of the `concord` command's round-trip harness (concord-cli), and
//! both writing and building their registries through [`registry`].

mod panics;
pub mod registry;
pub mod schemas;
pub mod survey;
