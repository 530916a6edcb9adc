"""concord_runtime writes floats and strings as serde_json does."""

import pytest
from concord_runtime import dumps
from concord_runtime._json import format_float

# What serde_json 1.x (ryu) writes for these values, read off `serde_json::to_string`.
SERDE_JSON_FLOATS = [
    (1e16, "1e+16"),
    (1e15, "1000000000000000.0"),
    (1e-5, "0.00001"),
    (-1.234e-5, "-0.00001234"),
    (1e-6, "1e-6"),
    (1e-7, "1e-7"),
    (123456789012345680000.0, "1.2345678901234568e+20"),
    (0.1, "0.1"),
    (-906834.6387644875, "-906834.6387644875"),
    (5.0, "5.0"),
    (1.5e300, "1.5e+300"),
    (2.5e-300, "2.5e-300"),
    (0.0001234, "0.0001234"),
    (-0.0, "-0.0"),
    (5e-324, "5e-324"),
]


@pytest.mark.parametrize(("value", "text"), SERDE_JSON_FLOATS)
def test_floats_are_written_as_serde_json_writes_them(value: float, text: str) -> None:
    assert format_float(value) == text
    assert float(text) == value


def test_non_finite_floats_are_refused() -> None:
    with pytest.raises(ValueError, match="not a JSON number"):
        format_float(float("nan"))


def test_strings_are_escaped_as_serde_json_escapes_them() -> None:
    text = '\x01\x1f\x7f\u2028"\\/é\b\f\n\r\t😀'
    assert (
        dumps({"k": [text, None, True, 7]})
        == '{"k":["\\u0001\\u001f\x7f\u2028\\"\\\\/é\\b\\f\\n\\r\\t😀",null,true,7]}'
    )
