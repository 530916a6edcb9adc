//! Text that schemas put into generated TypeScript: string literals and doc
//! comments. A schema's strings reach the code only through these two, so
//! no description, key or pattern can end a comment or a literal early.

/// `text` as a TypeScript string literal: JSON's escaping, which JavaScript
/// reads the same way (ES2019 allows U+2028 and U+2029 raw in strings).
pub fn string(text: &str) -> String {
    serde_json::Value::from(text).to_string()
}

/// A property name as TypeScript declares it: bare when it is an ASCII
/// identifier, else quoted. Reserved words are plain property names.
pub fn property(name: &str) -> String {
    let mut chars = name.chars();
    let identifier =
        chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$') && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if identifier && name != "__proto__" {
        name.to_owned()
    } else {
        string(name)
    }
}

/// A JSDoc comment of `doc`, indented by `indent`, or nothing. `*/` would end
/// the comment: it is written `*\/`, which JSDoc shows as written.
pub fn doc_comment(doc: &Option<String>, indent: &str) -> String {
    let Some(doc) = doc.as_deref().map(str::trim).filter(|doc| !doc.is_empty()) else {
        return String::new();
    };
    let safe = doc.replace("*/", "*\\/").replace('\r', "");
    let lines: Vec<&str> = safe.lines().collect();
    if lines.len() == 1 {
        return format!("{indent}/** {} */\n", lines[0].trim_end());
    }
    let mut out = format!("{indent}/**\n");
    for line in lines {
        let line = line.trim_end();
        if line.is_empty() {
            out.push_str(&format!("{indent} *\n"));
        } else {
            out.push_str(&format!("{indent} * {line}\n"));
        }
    }
    out.push_str(&format!("{indent} */\n"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_a_schema_says_ends_a_comment_or_a_literal() {
        let doc = doc_comment(&Some("ends */ here\nand `*/` again".to_owned()), "");
        assert_eq!(doc.matches("*/").count(), 1, "{doc}");
        assert!(doc.ends_with(" */\n"));
        assert_eq!(string("a\"b\\c\n\u{2028}"), "\"a\\\"b\\\\c\\n\u{2028}\"");
        assert_eq!(property("kind"), "kind");
        assert_eq!(property("class"), "class");
        assert_eq!(property("a-b"), "\"a-b\"");
        assert_eq!(property("2"), "\"2\"");
        assert_eq!(property("__proto__"), "\"__proto__\"");
        assert_eq!(property("é"), "\"é\"");
    }
}
