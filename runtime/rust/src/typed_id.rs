//! `"x-typed-id": "<prefix>"` (docs/decisions/typed-ids.md): a string `<prefix>_<UUIDv7>`, the
//! UUID in lowercase canonical form (8-4-4-4-12 hex), version 7, the
//! RFC 9562 variant (`10xx`).

/// Whether `value` is `<prefix>_` followed by a lowercase canonical UUIDv7.
pub fn check_typed_id(value: &str, prefix: &str) -> bool {
    value.strip_prefix(prefix).and_then(|rest| rest.strip_prefix('_')).is_some_and(is_uuid_v7)
}

fn is_uuid_v7(uuid: &str) -> bool {
    let bytes = uuid.as_bytes();
    bytes.len() == 36
        && bytes.iter().enumerate().all(|(at, &byte)| match at {
            8 | 13 | 18 | 23 => byte == b'-',
            14 => byte == b'7',
            19 => matches!(byte, b'8' | b'9' | b'a' | b'b'),
            _ => matches!(byte, b'0'..=b'9' | b'a'..=b'f'),
        })
}

#[cfg(test)]
mod tests {
    use super::check_typed_id;

    #[test]
    fn only_prefixed_lowercase_canonical_uuid_v7() {
        let good = "0190b7a2-5c1e-7d3f-8a2b-0123456789ab";
        assert!(check_typed_id(&format!("run_{good}"), "run"));
        for variant in ['8', '9', 'a', 'b'] {
            assert!(check_typed_id(&format!("run_0190b7a2-5c1e-7d3f-{variant}a2b-0123456789ab"), "run"));
        }
        assert!(check_typed_id(&format!("tool_call_{good}"), "tool_call"));
        let bad = [
            (good.to_string(), "no prefix"),
            (format!("run-{good}"), "not an underscore"),
            (format!("job_{good}"), "another prefix"),
            (format!("run_{good} "), "trailing space"),
            (format!("run__{good}"), "two underscores"),
            (format!("run_{}", good.to_uppercase()), "uppercase"),
            ("run_0190b7a2-5c1e-4d3f-8a2b-0123456789ab".into(), "version 4"),
            ("run_0190b7a2-5c1e-7d3f-ca2b-0123456789ab".into(), "variant 110x"),
            ("run_0190b7a2-5c1e-7d3f-7a2b-0123456789ab".into(), "variant 0xxx"),
            ("run_0190b7a25c1e7d3f8a2b0123456789ab".into(), "no hyphens"),
            ("run_{0190b7a2-5c1e-7d3f-8a2b-0123456789ab}".into(), "braces"),
            ("run_0190b7a2-5c1e-7d3f-8a2b-0123456789a".into(), "too short"),
            ("run_0190b7a2-5c1e-7d3f-8a2b-0123456789abc".into(), "too long"),
            ("run_0190b7g2-5c1e-7d3f-8a2b-0123456789ab".into(), "not hex"),
            ("run_0190b7a2-5c1e-7d3f-8a2b-0123456789a\u{e9}".into(), "not ASCII"),
            ("run_".into(), "empty"),
        ];
        for (value, why) in bad {
            assert!(!check_typed_id(&value, "run"), "{why}: {value}");
        }
    }
}
