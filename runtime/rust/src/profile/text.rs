//! JSON text as both languages write it: string escaping, and how a
//! refused value is shown in a message.

/// How many characters of a refused value a message may show.
const SHOWN: usize = 20;

/// At most [`SHOWN`] characters of `text`, then `…` when there is more.
pub(crate) fn prefix(text: &str) -> String {
    match text.char_indices().nth(SHOWN) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

/// A string value for a message: a short prefix, as a JSON string.
pub(crate) fn shown(text: &str) -> String {
    quote(&prefix(text))
}

/// `text` as a JSON string literal (the canonical escaping).
pub(crate) fn quote(text: &str) -> String {
    let mut out = Vec::with_capacity(text.len() + 2);
    write_string_bytes(&mut out, text);
    String::from_utf8(out).expect("escaping keeps UTF-8")
}

/// For each byte: 0 to copy it, else the letter of its short escape, or `u`.
const ESCAPE: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut byte = 0;
    while byte < 0x20 {
        table[byte] = b'u';
        byte += 1;
    }
    table[0x08] = b'b';
    table[0x09] = b't';
    table[0x0a] = b'n';
    table[0x0c] = b'f';
    table[0x0d] = b'r';
    table[b'"' as usize] = b'"';
    table[b'\\' as usize] = b'\\';
    table
};

/// A JSON string as RFC 8785 writes it: `\b \t \n \f \r` short, other C0
/// controls as lowercase `\u00xx`, `"` and `\` escaped, all else raw. This
/// is also how serde_json escapes.
#[inline]
pub fn write_string_bytes(out: &mut Vec<u8>, text: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let bytes = text.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    let mut run = 0;
    loop {
        let at = next_escape(bytes, run);
        out.extend_from_slice(&bytes[run..at]);
        let Some(&byte) = bytes.get(at) else { break };
        let escape = ESCAPE[byte as usize];
        if escape == b'u' {
            out.extend_from_slice(&[b'\\', b'u', b'0', b'0', HEX[(byte >> 4) as usize], HEX[(byte & 0xf) as usize]]);
        } else {
            out.extend_from_slice(&[b'\\', escape]);
        }
        run = at + 1;
    }
    out.push(b'"');
}

/// The position of the first byte at or after `from` that needs an escape,
/// or the length. (Eight bytes at a time measured no faster: strings in
/// records are short.)
fn next_escape(bytes: &[u8], mut from: usize) -> usize {
    while from < bytes.len() && ESCAPE[bytes[from] as usize] == 0 {
        from += 1;
    }
    from
}
