//! Language-neutral word forms of schema names (`snake`, `pascal`, numbered
//! when alike). The languages' own rules for what they reserve are beside
//! this file (`rust`, `python`), applied once by `super::type_name`.

use std::collections::{HashMap, HashSet};
use std::hash::Hash;

/// Splits a name into ASCII words: at every character that is not an ASCII
/// letter or digit, and at case changes (`gpuArch`, `HTTPServer`).
fn words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let chars: Vec<char> = name.chars().collect();
    for (position, &c) in chars.iter().enumerate() {
        if !c.is_ascii_alphanumeric() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            continue;
        }
        if c.is_ascii_uppercase() && !current.is_empty() {
            let previous = chars[position - 1];
            let next_is_lower = chars.get(position + 1).is_some_and(|n| n.is_ascii_lowercase());
            if previous.is_ascii_lowercase() || previous.is_ascii_digit() || (previous.is_ascii_uppercase() && next_is_lower) {
                words.push(std::mem::take(&mut current));
            }
        }
        current.push(c);
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// A name with no ASCII letter or digit gets one made of its code points,
/// so that `é` and `ü` stay distinct.
fn code_points(name: &str) -> String {
    name.chars().map(|c| format!("u{:04x}", c as u32)).collect::<Vec<_>>().join("_")
}

/// `snake_case`, always a plain ASCII identifier that starts with a letter.
pub fn snake(name: &str) -> String {
    let words = words(name);
    let joined = if words.is_empty() {
        if name.is_empty() {
            return "empty".to_owned();
        }
        code_points(name)
    } else {
        words.iter().map(|w| w.to_ascii_lowercase()).collect::<Vec<_>>().join("_")
    };
    if joined.starts_with(|c: char| c.is_ascii_digit()) {
        format!("field_{joined}")
    } else {
        joined
    }
}

/// `PascalCase`, always a plain ASCII identifier that starts with a capital.
/// `prefix` is put before a name that would start with a digit.
pub fn pascal(name: &str, prefix: &str) -> String {
    let words = words(name);
    let joined: String = if words.is_empty() {
        if name.is_empty() {
            return "Empty".to_owned();
        }
        code_points(name).split('_').map(capitalize).collect()
    } else {
        words.iter().map(|w| capitalize(&w.to_ascii_lowercase())).collect()
    };
    if joined.starts_with(|c: char| c.is_ascii_digit()) {
        format!("{prefix}{joined}")
    } else {
        joined
    }
}

/// Keeps a name that is PascalCase already (`ClsArtifact`, `HTTPServer`) as is.
pub fn type_word(name: &str) -> String {
    let mut chars = name.chars();
    if chars.next().is_some_and(|c| c.is_ascii_uppercase()) && chars.all(|c| c.is_ascii_alphanumeric()) {
        name.to_owned()
    } else {
        pascal(name, "T")
    }
}

fn capitalize(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_ascii_uppercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}

/// Names made unique by numbering: the first of a form keeps it, a later
/// one that comes out alike gets the first free `2`, `3`, ... after it.
/// Linear however many names come out alike (a scan from `2` each time
/// would be quadratic: 10,000 enum values that all make `A`).
#[derive(Debug)]
pub struct Numbering<K> {
    taken: HashSet<K>,
    /// The next number to try, per form.
    next: HashMap<String, usize>,
}

impl<K: Eq + Hash> Default for Numbering<K> {
    fn default() -> Self {
        Numbering { taken: HashSet::new(), next: HashMap::new() }
    }
}

impl<K: Eq + Hash> Numbering<K> {
    /// `base`, or `base` and the first number whose `key` is not taken yet;
    /// `key` says when two names are the same (their identifier, say).
    pub fn unique(&mut self, base: &str, key: impl Fn(&str) -> K) -> String {
        if self.taken.insert(key(base)) {
            return base.to_owned();
        }
        let next = self.next.entry(base.to_owned()).or_insert(2);
        loop {
            let candidate = format!("{base}{next}");
            *next += 1;
            // The count only moves on: a number passed over is not tried
            // again, even once `release` frees its name.
            if self.taken.insert(key(&candidate)) {
                return candidate;
            }
        }
    }

    /// Frees a name given out, for a type whose reading was undone.
    pub fn release(&mut self, key: &K) {
        self.taken.remove(key);
    }
}

/// The words of `names` in `form` (`snake`, `pascal`), made unique: a name
/// that already is its own form keeps it, whatever its place, and of the
/// others that come out alike the later are numbered (`foo_bar`, `foo-bar`
/// make `foo_bar` and `foo_bar2`, in either order). Linear, as [`Numbering`].
pub fn unique_words<'a>(names: impl IntoIterator<Item = &'a str>, form: impl Fn(&str) -> String) -> Vec<String> {
    let names: Vec<&str> = names.into_iter().collect();
    let bases: Vec<String> = names.iter().map(|name| form(name)).collect();
    let mut numbering = Numbering::default();
    let mut words: Vec<Option<String>> = vec![None; names.len()];
    for pass in [true, false] {
        for (position, (name, base)) in names.iter().zip(&bases).enumerate() {
            if words[position].is_none() && (*name == base.as_str()) == pass {
                words[position] = Some(numbering.unique(base, str::to_owned));
            }
        }
    }
    words.into_iter().map(|word| word.unwrap_or_default()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snake_case_forms() {
        assert_eq!(snake("gpuArch"), "gpu_arch");
        assert_eq!(snake("gpu-arch"), "gpu_arch");
        assert_eq!(snake("HTTPServer"), "http_server");
        assert_eq!(snake("_id"), "id");
        assert_eq!(snake("1st"), "field_1st");
        assert_eq!(snake("é"), "u00e9");
        assert_eq!(snake(""), "empty");
        assert_eq!(snake("driver_version"), "driver_version");
    }

    #[test]
    fn pascal_case_forms() {
        assert_eq!(pascal("tool_result", "V"), "ToolResult");
        assert_eq!(pascal("exit-code", "V"), "ExitCode");
        assert_eq!(pascal("1.0", "V"), "V10");
        assert_eq!(pascal("", "V"), "Empty");
        assert_eq!(pascal("\"\"", "V"), "U0022U0022");
        assert_eq!(type_word("ClsArtifact"), "ClsArtifact");
        assert_eq!(type_word("compile_config"), "CompileConfig");
    }

    #[test]
    fn a_name_that_is_its_own_word_keeps_it() {
        assert_eq!(unique_words(["foo-bar", "foo_bar"], snake), ["foo_bar2", "foo_bar"]);
        assert_eq!(unique_words(["foo_bar", "foo-bar"], snake), ["foo_bar", "foo_bar2"]);
        assert_eq!(unique_words(["a-b", "A_B", "aB"], snake), ["a_b", "a_b2", "a_b3"]);
        assert_eq!(unique_words(["exit-code", "ExitCode"], |name| pascal(name, "V")), ["ExitCode2", "ExitCode"]);
    }

    #[test]
    fn numbering_takes_the_first_free_number() {
        let mut numbering = Numbering::default();
        let names: Vec<String> = ["a", "a2", "a", "a", "b", "a3"].iter().map(|name| numbering.unique(name, str::to_owned)).collect();
        assert_eq!(names, ["a", "a2", "a3", "a4", "b", "a32"]);
    }
}
