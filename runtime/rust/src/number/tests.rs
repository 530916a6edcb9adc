use super::{integer_divisor, integer_multiple_of, multiple_of, parse_divisor, Divisor};

fn is_multiple(value: f64, divisor: &str) -> bool {
    multiple_of(value, &parse_divisor(divisor).unwrap())
}

#[test]
fn decimal_multiples_are_exact() {
    let cases: &[(f64, &str, bool)] = &[
        (0.3, "0.1", true), // 0.3 / 0.1 is 2.9999999999999996 in binary floating point
        (0.7, "0.1", true),
        (0.75, "0.25", true),
        (0.8, "0.25", false),
        (4.5, "1.5", true),
        (-4.5, "1.5", true),
        (35.0, "1.5", false),
        (0.0075, "0.0001", true),
        (0.00751, "0.0001", false),
        (1e308, "0.123456789", false),
        (1e308, "1e308", true),
        (1e308, "1e307", true),
        (1e307, "1e308", false),
        (1e308, "3", false),
        (1e308, "2", true),
        (1e308, "1024", true),
        (5e-324, "1e-324", true),
        (5e-324, "1e-323", false),
        (1.7976931348623157e308, "1e292", true),
        (0.0, "7", true),
        (10.0, "2", true),
        (7.0, "2", false),
        (9007199254740991.0, "9007199254740991", true),
        (9007199254740991.0, "3", false),
        (12.0, "1.2E1", true),
        (12.0, "120e-1", true),
        (1.0, "0.3333333333333333333", false),
        (1e-7, "1e-8", true),
        (1e-8, "1e-7", false),
        (123.456, "0.001", true),
        (123.456, "0.01", false),
        (f64::NAN, "1", false),
        (f64::INFINITY, "1", false),
    ];
    for &(value, divisor, expected) in cases {
        assert_eq!(is_multiple(value, divisor), expected, "{value:e} multipleOf {divisor}");
    }
}

#[test]
fn divisors_are_refused_by_name() {
    for (text, why) in [
        ("0", "not positive"),
        ("0.000", "not positive"),
        ("-1.5", "not positive"),
        ("1.00000000000000000001", "more than 19 significant digits"),
        ("abc", "not a decimal number"),
        ("1.", "not a decimal number"),
        (".5", "not a decimal number"),
        ("1e", "exponent"),
        ("1e999999", "exponent"),
    ] {
        let message = parse_divisor(text).unwrap_err();
        assert!(message.contains(why) && message.contains(text), "{text}: {message}");
    }
    assert!(parse_divisor("1234567890123456789").is_ok());
    assert!(parse_divisor("0.00012345678901234567890").is_ok(), "trailing zeros are not significant");
    assert_eq!(parse_divisor("100").unwrap(), parse_divisor("1e2").unwrap());
    assert_eq!(parse_divisor("0.0010").unwrap(), parse_divisor("1E-3").unwrap());
}

#[test]
fn integer_divisors_are_the_numerator_in_lowest_terms() {
    for (text, expected) in [
        ("2", Some(2)),
        ("1", None),
        ("1.0", None),
        ("0.5", None),
        ("1e-8", None),
        ("1.5", Some(3)),
        ("0.123456789", Some(123456789)),
        ("2.5", Some(5)),
        ("0.04", None),
        ("0.12", Some(3)),
        ("1e3", Some(1000)),
        ("9999999999999999999", Some(9_999_999_999_999_999_999)),
    ] {
        assert_eq!(integer_divisor(text), Ok(expected), "{text}");
    }
    assert!(integer_divisor("1e20").unwrap_err().contains("beyond 2^64"));
    assert!(integer_divisor("-2").is_err());
}

/// The JSON-Schema-Test-Suite's multipleOf groups (an integer type through `integer_divisor`).
#[test]
fn the_test_suite_agrees() {
    let mut checked = 0;
    for group in crate::test_suite::groups("multipleOf.json") {
        let divisor = group["schema"]["multipleOf"].to_string();
        let integer = group["schema"]["type"] == "integer";
        for test in group["tests"].as_array().unwrap() {
            let data = &test["data"];
            let verdict = match data.as_f64() {
                None => true, // multipleOf asserts nothing on a non-number
                Some(_) if integer && data.is_i64() => match integer_divisor(&divisor).unwrap() {
                    None => true,
                    Some(p) => data.as_i64().unwrap().unsigned_abs() % p == 0,
                },
                Some(value) if integer => value.fract() == 0.0 && is_multiple(value, &divisor) && value.abs() < 2f64.powi(53),
                Some(value) => is_multiple(value, &divisor),
            };
            assert_eq!(verdict, test["valid"], "{}: {data}", group["description"]);
            checked += 1;
        }
    }
    assert!(checked == 0 || checked >= 10, "{checked}");
}

#[test]
fn integers_are_multiples_of_the_numerator() {
    let divisor = parse_divisor("1.5").unwrap();
    assert!(integer_multiple_of(9, &divisor) && integer_multiple_of(-3, &divisor) && integer_multiple_of(0, &divisor));
    assert!(!integer_multiple_of(4, &divisor));
    assert!(integer_multiple_of(i64::MAX, &parse_divisor("1e-8").unwrap()));
    let huge = parse_divisor("1e30").unwrap();
    assert!(integer_multiple_of(0, &huge) && !integer_multiple_of(i64::MIN, &huge));
}

#[test]
fn divisors_are_shown_as_decimals_and_built_from_parts() {
    for (text, shown) in [("1.5", "1.5"), ("0.0001", "0.0001"), ("3e2", "300"), ("1e-40", "1e-40"), ("1e30", "1e30"), ("12.50", "12.5"), ("0.012", "0.012")] {
        let divisor = parse_divisor(text).unwrap();
        assert_eq!(divisor.to_string(), shown);
        assert_eq!(Divisor::from_parts(divisor.digits() * 100, divisor.exponent() - 2), divisor);
        assert_eq!(parse_divisor(shown), Ok(divisor));
    }
}
