//! The profile's limits, the same in both languages.

/// The deepest nesting of arrays and objects accepted, in both languages.
pub const MAX_DEPTH: usize = 64;
/// The default size limit: 64 MiB.
pub const DEFAULT_MAX_BYTES: usize = 64 * 1024 * 1024;
/// The largest integer both languages (and JavaScript) hold exactly.
pub const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;
