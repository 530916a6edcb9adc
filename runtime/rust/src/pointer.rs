//! JSON pointers (RFC 6901) as every part of the runtime writes them: a leaf
//! the readers, the binder, the engine's notes and the Python core share.

/// Escapes one reference token of a JSON pointer: `~` as `~0`, `/` as `~1`.
pub fn escape_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}
