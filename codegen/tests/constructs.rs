//! `tests/constructs`: the constructs concord binds beyond plain objects
//! (assertions on strings, numbers, arrays and objects; roots that are
//! arrays, enums or a `$ref`; `$defs`-only documents; `definitions` and
//! `$anchor` targets; unions; `allOf`; the assertion engine's keywords;
//! `x-open-enum` and `x-typed-id`; references between entries and to an
//! older-dialect entry), each with inputs both languages must read alike and
//! inputs both must refuse at the same pointer.

mod common;
use common::*;

#[test]
fn constructs_round_trip_in_both_languages() {
    let python = python();
    let work = workspace().join("target/concord-roundtrip");
    let args = ["roundtrip", "--registry", "tests/constructs/registry", "--fixtures", "tests/constructs/roundtrip", "--work-dir"];
    let output = concord(&[&args[..], &[work.to_str().unwrap(), "--python", &python]].concat());
    assert!(output.status.success(), "{}", text(&output));
    let passed: usize = text(&output).lines().last().unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!(text(&output).ends_with(" passed, 0 failed\n") && passed >= 140, "{}", text(&output));
}
