//! JSON documents as the fuzzer writes them: every literal as chosen text,
//! so that a case can hold what no JSON value type can (a repeated key, `-0`,
//! `1.0`, a lone surrogate, an escaped key) and still be mutated as a tree.

use std::fmt::Write as _;

#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    Null,
    Bool(bool),
    /// A number literal, exactly as written (`-0`, `1E+2`, `9007199254740992`).
    Number(String),
    Str(String, Escape),
    /// Any literal written verbatim (`"\ud800"`): what a Rust string cannot hold.
    Raw(String),
    Array(Vec<Node>),
    /// Members in order; a key may repeat.
    Object(Vec<Member>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Member {
    pub key: String,
    pub escape: Escape,
    pub value: Node,
}

/// How a string is written: the same text read back either way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Escape {
    /// Only what JSON requires (`"`, `\`, controls).
    Minimal,
    /// Every character beyond ASCII as `\uXXXX` (surrogate pairs beyond the BMP), and `/` as `\/`.
    Ascii,
    /// Every character as `\uXXXX`.
    All,
}

impl Node {
    pub fn str(text: impl Into<String>) -> Node {
        Node::Str(text.into(), Escape::Minimal)
    }

    pub fn int(value: i64) -> Node {
        Node::Number(value.to_string())
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = String::new();
        self.write(&mut out);
        out.into_bytes()
    }

    fn write(&self, out: &mut String) {
        match self {
            Node::Null => out.push_str("null"),
            Node::Bool(value) => out.push_str(if *value { "true" } else { "false" }),
            Node::Number(text) | Node::Raw(text) => out.push_str(text),
            Node::Str(text, escape) => write_string(out, text, *escape),
            Node::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write(out);
                }
                out.push(']');
            }
            Node::Object(members) => {
                out.push('{');
                for (i, member) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_string(out, &member.key, member.escape);
                    out.push(':');
                    member.value.write(out);
                }
                out.push('}');
            }
        }
    }

    /// The JSON type's name, as the schema spells it (integers apart from numbers).
    pub fn json_type(&self) -> &'static str {
        match self {
            Node::Null => "null",
            Node::Bool(_) => "boolean",
            Node::Number(text) if !text.contains(['.', 'e', 'E']) => "integer",
            Node::Number(_) => "number",
            Node::Str(..) | Node::Raw(_) => "string",
            Node::Array(_) => "array",
            Node::Object(_) => "object",
        }
    }

    /// The child at `step` (an array index, or a member's position).
    pub fn child_mut(&mut self, step: usize) -> Option<&mut Node> {
        match self {
            Node::Array(items) => items.get_mut(step),
            Node::Object(members) => members.get_mut(step).map(|member| &mut member.value),
            _ => None,
        }
    }

    /// The node at `path` (steps from the root).
    pub fn at_mut(&mut self, path: &[usize]) -> Option<&mut Node> {
        path.iter().try_fold(self, |node, &step| node.child_mut(step))
    }

    /// Nesting depth: a scalar is 0, `[]` is 1.
    pub fn depth(&self) -> usize {
        match self {
            Node::Array(items) => 1 + items.iter().map(Node::depth).max().unwrap_or(0),
            Node::Object(members) => 1 + members.iter().map(|member| member.value.depth()).max().unwrap_or(0),
            _ => 0,
        }
    }

    /// The JSON pointer of `path`.
    pub fn pointer(&self, path: &[usize]) -> String {
        let mut pointer = String::new();
        let mut node = self;
        for &step in path {
            match node {
                Node::Array(items) if step < items.len() => {
                    let _ = write!(pointer, "/{step}");
                    node = &items[step];
                }
                Node::Object(members) if step < members.len() => {
                    pointer.push('/');
                    pointer.push_str(&concord_runtime::pointer::escape_token(&members[step].key));
                    node = &members[step].value;
                }
                _ => break,
            }
        }
        pointer
    }
}

fn write_string(out: &mut String, text: &str, escape: Escape) {
    out.push('"');
    for c in text.chars() {
        match (c, escape) {
            (_, Escape::All) => push_unicode(out, c),
            ('"', _) => out.push_str("\\\""),
            ('\\', _) => out.push_str("\\\\"),
            ('\n', Escape::Minimal) => out.push_str("\\n"),
            ('\t', Escape::Minimal) => out.push_str("\\t"),
            ('\u{8}', _) => out.push_str("\\b"),
            ('\u{c}', _) => out.push_str("\\f"),
            ('\r', _) => out.push_str("\\r"),
            ('/', Escape::Ascii) => out.push_str("\\/"),
            (c, Escape::Ascii) if !c.is_ascii() || c.is_ascii_control() => push_unicode(out, c),
            (c, _) if c < ' ' => push_unicode(out, c),
            (c, _) => out.push(c),
        }
    }
    out.push('"');
}

fn push_unicode(out: &mut String, c: char) {
    let mut units = [0u16; 2];
    for unit in c.encode_utf16(&mut units) {
        let _ = write!(out, "\\u{unit:04x}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_escape_reads_back_as_the_same_text() {
        let text = "a\"\\/\n\t\r\u{1}é😀\u{2028}";
        for escape in [Escape::Minimal, Escape::Ascii, Escape::All] {
            let bytes = Node::Str(text.into(), escape).to_bytes();
            assert_eq!(serde_json::from_slice::<String>(&bytes).unwrap(), text, "{}", String::from_utf8_lossy(&bytes));
        }
        let object = Node::Object(vec![
            Member { key: "a/b".into(), escape: Escape::All, value: Node::Array(vec![Node::int(1), Node::Number("-0".into())]) },
            Member { key: "a/b".into(), escape: Escape::Minimal, value: Node::Null },
        ]);
        assert_eq!(object.to_bytes(), br#"{"\u0061\u002f\u0062":[1,-0],"a/b":null}"#);
        assert_eq!((object.pointer(&[0, 1]), object.depth()), ("/a~1b/1".to_owned(), 2));
    }
}
