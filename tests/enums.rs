//! Generated enums name their JSON strings as prost's `as_str_name` does:
//! `as_str`, `Display` and `FromStr` by the schema's strings, for closed and
//! open enums alike.

use concord::cls_artifact::CompileConfigMode;
use concord::evidence::EvidenceKind;

#[test]
fn a_closed_enum_is_its_json_string_both_ways() {
    assert_eq!(CompileConfigMode::MaxAutotune.as_str(), "max-autotune");
    assert_eq!(CompileConfigMode::MaxAutotune.to_string(), "max-autotune");
    assert_eq!("reduce-overhead".parse::<CompileConfigMode>(), Ok(CompileConfigMode::ReduceOverhead));
    // The Rust name is not a JSON string of the enum.
    let refused = "MaxAutotune".parse::<CompileConfigMode>().unwrap_err();
    assert_eq!(
        refused.to_string(),
        r#""MaxAutotune" is not a value of CompileConfigMode (one of "default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs")"#
    );
}

#[test]
fn an_open_enum_keeps_any_other_string() {
    assert_eq!(EvidenceKind::FileDiff.as_str(), "file_diff");
    assert_eq!("file_diff".parse::<EvidenceKind>(), Ok(EvidenceKind::FileDiff));
    let other: EvidenceKind = "new_kind".parse().unwrap();
    assert_eq!(other, EvidenceKind::Unrecognized("new_kind".to_owned()));
    assert_eq!(other.to_string(), "new_kind");
}
