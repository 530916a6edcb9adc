//! Unions: a tagged union is a discriminated union of its branches' object
//! types (each declares its tag as a string literal, so `switch` on the tag
//! narrows); a union by JSON type is the union of its branches' types, which
//! `typeof`, `Array.isArray` and `instanceof Map` tell apart.

use super::text::doc_comment;
use super::Emitter;
use crate::model::{Shape, TypeId, Union};

impl Emitter<'_> {
    pub(super) fn union(&self, id: TypeId, union: &Union) -> String {
        let beside_integer = union.branches.iter().any(|branch| branch.key == "integer");
        let mut members: Vec<String> = Vec::new();
        for branch in &union.branches {
            for member in top_level_members(&self.branch_type(&branch.shape, beside_integer)) {
                if !members.iter().any(|known| *known == member) {
                    members.push(member.to_owned());
                }
            }
        }
        format!("{}export type {} = {};\n", doc_comment(&self.model.get(id).doc, ""), self.type_name(id), members.join(" | "))
    }

    pub(super) fn alias(&self, id: TypeId, shape: &Shape) -> String {
        format!("{}export type {} = {};\n", doc_comment(&self.model.get(id).doc, ""), self.type_name(id), self.type_of(shape))
    }
}

/// The members of a union type as spelled (`A | (B | C)[]` is `A` and
/// `(B | C)[]`), so that a type two branches share is listed once.
fn top_level_members(spelled: &str) -> Vec<&str> {
    let mut members = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    let bytes = spelled.as_bytes();
    let mut index = 0;
    while index < bytes.len() {
        match bytes[index] {
            b'(' | b'[' | b'<' | b'{' => depth += 1,
            b')' | b']' | b'>' | b'}' => depth = depth.saturating_sub(1),
            b'"' => {
                // A string literal's text is not syntax.
                index += 1;
                while index < bytes.len() && bytes[index] != b'"' {
                    index += if bytes[index] == b'\\' { 2 } else { 1 };
                }
            }
            b'|' if depth == 0 => {
                members.push(spelled[start..index].trim());
                start = index + 1;
            }
            _ => {}
        }
        index += 1;
    }
    members.push(spelled[start..].trim());
    members
}

#[cfg(test)]
mod tests {
    #[test]
    fn members_are_split_at_the_top_level_only() {
        assert_eq!(super::top_level_members("number | concord.JsonFloat"), ["number", "concord.JsonFloat"]);
        assert_eq!(super::top_level_members("(A | B)[] | \"x|y\" | null"), ["(A | B)[]", "\"x|y\"", "null"]);
    }
}
