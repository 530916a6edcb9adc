//! The Rust bindings of the registry this repository ships (`registry/`),
//! generated at build time by `build.rs` from the pinned schemas.
//!
//! ```
//! use concord::runtime::Record;
//!
//! let bytes = br#"{"id":"ev_1","session_id":"s","kind":"exit_code","payload":{"exit_code":0}}"#;
//! let evidence = concord::Evidence::from_json(bytes).unwrap();
//! assert_eq!(evidence.to_json().unwrap(), bytes);
//! ```

pub use concord_runtime as runtime;

include!(concat!(env!("OUT_DIR"), "/concord_registry.rs"));
