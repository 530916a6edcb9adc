//! What JSON Schema's dialects are and what concord knows of every keyword
//! in each: a leaf that the registry reader (an entry's declared dialect
//! and annotations), the schema reader, the command and the docs all read.

pub mod dialect;
pub mod keywords;

pub use dialect::Dialect;
pub use keywords::Role;
