//! Python's text of a float (`repr`, as `json.dump` and `str` write it) and `round(x, n)`, which
//! datatrove's statistics files are made of.

/// Python's `repr(x)` of a float: the shortest digits that read back as `x`, in positional form
/// from 1e-4 up to 1e16 (with ".0" when whole) and in exponent form outside (`1e-05`,
/// `1.5e+16`); `inf`, `-inf`, `nan`. (`json.dump` writes those three as `Infinity`,
/// `-Infinity`, `NaN`: see [`json_float`].)
pub fn repr(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.into();
    }
    // Rust's `{:e}` gives as few digits as round-trip, as Python's repr does; but of two
    // candidates equally near (the value halfway between them), not always Python's, which
    // rounds the exact value half to even: so does Rust's formatting at a given precision.
    let shortest = format!("{:e}", x.abs());
    let significant = shortest
        .split_once('e')
        .map_or(shortest.as_str(), |(mantissa, _)| mantissa)
        .chars()
        .filter(char::is_ascii_digit)
        .count();
    let scientific = format!("{:.*e}", significant.saturating_sub(1), x.abs());
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
    let sign = if x.is_sign_negative() { "-" } else { "" };
    // Python's decpt: the value is 0.DIGITS x 10^decpt.
    let decpt = exponent + 1;
    let body = if (-3..=16).contains(&decpt) {
        positional(&digits, decpt)
    } else {
        let (first, rest) = digits.split_at(1);
        let fraction = if rest.is_empty() {
            String::new()
        } else {
            format!(".{rest}")
        };
        let exp_sign = if exponent < 0 { '-' } else { '+' };
        format!("{first}{fraction}e{exp_sign}{:02}", exponent.abs())
    };
    format!("{sign}{body}")
}

/// DIGITS with the point after `decpt` of them (zeros added on either side), ".0" when whole.
fn positional(digits: &str, decpt: i32) -> String {
    if decpt <= 0 {
        return format!("0.{}{digits}", "0".repeat(decpt.unsigned_abs() as usize));
    }
    let decpt = decpt as usize;
    if digits.len() <= decpt {
        format!("{digits}{}.0", "0".repeat(decpt - digits.len()))
    } else {
        format!("{}.{}", &digits[..decpt], &digits[decpt..])
    }
}

/// A float as Python's `json.dump` writes it: `repr`, with `Infinity`, `-Infinity` and `NaN`.
pub fn json_float(x: f64) -> String {
    if x.is_nan() {
        "NaN".into()
    } else if x.is_infinite() {
        if x > 0.0 { "Infinity" } else { "-Infinity" }.into()
    } else {
        repr(x)
    }
}

/// Python's `round(x, digits)` of a float: the decimal of `digits` places nearest to the exact
/// value of `x` (halfway cases to even), read back as a float.
pub fn round(x: f64, digits: usize) -> f64 {
    if !x.is_finite() {
        return x;
    }
    // Rust's fixed-precision formatting rounds the exact binary value, ties to even, as
    // Python's correctly rounded dtoa does.
    format!("{x:.digits$}").parse().unwrap_or(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repr_is_pythons() {
        // Python 3: repr() of each. 10.7392730712890625 is exactly halfway between two
        // 17-digit decimals: Python rounds it to the even one.
        for (x, text) in [
            (10.739273071289062, "10.739273071289062"),
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (1.0, "1.0"),
            (0.1, "0.1"),
            (1.0 / 3.0, "0.3333333333333333"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (0.000015, "1.5e-05"),
            (123456.0, "123456.0"),
            (1e15, "1000000000000000.0"),
            (1e16, "1e+16"),
            (1.5e16, "1.5e+16"),
            (2.5e-300, "2.5e-300"),
            (1e22, "1e+22"),
            (-2.75, "-2.75"),
            (f64::INFINITY, "inf"),
        ] {
            assert_eq!(repr(x), text, "{x:e}");
        }
        assert_eq!(json_float(f64::NEG_INFINITY), "-Infinity");
    }

    #[test]
    fn round_is_pythons() {
        // Python 3: round(x, 3); 0.0625 and 2.675 are exact halfway (or below it) in binary.
        for (x, rounded) in [
            (0.1234, 0.123),
            (0.0625, 0.062),
            (0.1875, 0.188),
            (2.675, 2.675),
            (0.0005, 0.001),
            (0.00049999, 0.0),
            (1.0 / 3.0, 0.333),
            (0.9996, 1.0),
        ] {
            assert_eq!(round(x, 3), rounded, "{x}");
        }
    }
}
