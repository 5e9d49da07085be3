//! A tiny exact fraction for the constants of the hand value (0.5, 0.75, 1.25, 0.25, …).
//!
//! The hand value is computed exactly, so that 7/3 stays 7/3; the terms are evaluated by integer
//! algebra on numerators and denominators in i128 (saturating, so hostile parameters cannot panic)
//! and truncated toward zero.

use super::error::DurakError;
use std::fmt;

/// A reduced fraction with a positive denominator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Frac {
    num: i64,
    den: i64,
}

fn gcd(mut a: i64, mut b: i64) -> i64 {
    a = a.saturating_abs();
    b = b.saturating_abs();
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a.max(1)
}

impl Frac {
    /// The whole number `n` (denominator 1).
    pub const fn int(n: i64) -> Frac {
        Frac { num: n, den: 1 }
    }

    /// `num/den`, reduced; a zero denominator is an error.
    pub fn new(num: i64, den: i64) -> Result<Frac, DurakError> {
        if den == 0 || den == i64::MIN || num == i64::MIN {
            return Err(DurakError::BadNumber {
                token: format!("{num}/{den}"),
                reason: "not a usable fraction".to_string(),
            });
        }
        let g = gcd(num, den);
        let sign = if den < 0 { -1 } else { 1 };
        Ok(Frac {
            num: sign * num / g,
            den: sign * den / g,
        })
    }

    /// Const constructor for already-reduced literals with a positive denominator.
    pub(super) const fn lit(num: i64, den: i64) -> Frac {
        Frac { num, den }
    }

    /// The numerator (it carries the sign).
    pub fn num(self) -> i64 {
        self.num
    }

    /// The denominator, always positive.
    pub fn den(self) -> i64 {
        self.den
    }

    /// Reads `100`, `-3`, `0.75`, `1/4`.
    pub fn parse(s: &str) -> Result<Frac, DurakError> {
        let t = s.trim();
        let bad = |reason: &str| DurakError::BadNumber {
            token: t.to_string(),
            reason: reason.to_string(),
        };
        if let Some((n, d)) = t.split_once('/') {
            let n: i64 = n.trim().parse().map_err(|_| bad("not a fraction"))?;
            let d: i64 = d.trim().parse().map_err(|_| bad("not a fraction"))?;
            if d == 0 {
                return Err(bad("zero denominator"));
            }
            return Frac::new(n, d).map_err(|_| bad("not a usable fraction"));
        }
        let (neg, body) = match t.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, t.strip_prefix('+').unwrap_or(t)),
        };
        let (int_part, frac_part) = body.split_once('.').unwrap_or((body, ""));
        let digits_ok = |p: &str| p.chars().all(|c| c.is_ascii_digit());
        if body.is_empty() || !digits_ok(int_part) || !digits_ok(frac_part) || body == "." {
            return Err(bad("not a number"));
        }
        if int_part.len() > 12 || frac_part.len() > 6 {
            return Err(bad("too many digits (at most 12 before and 6 after the point)"));
        }
        let mut num: i64 = 0;
        for ch in int_part.chars().chain(frac_part.chars()) {
            num = num * 10 + (ch as i64 - '0' as i64);
        }
        let den = 10i64.pow(frac_part.len() as u32);
        Frac::new(if neg { -num } else { num }, den).map_err(|_| bad("not a number"))
    }
}

impl fmt::Display for Frac {
    /// Integers plainly, terminating decimals as decimals (`0.75`), others as `n/d`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            return write!(f, "{}", self.num);
        }
        let mut d = self.den;
        let mut places = 0u32;
        let mut scale: i64 = 1;
        while d % 10 == 0 || d % 2 == 0 || d % 5 == 0 {
            if d % 10 == 0 {
                d /= 10;
            } else if d % 2 == 0 {
                d /= 2;
            } else {
                d /= 5;
            }
            places += 1;
            scale = scale.saturating_mul(10);
            if places > 18 {
                break;
            }
        }
        if d != 1 {
            return write!(f, "{}/{}", self.num, self.den);
        }
        // Exact: num/den = num * (scale/den) / scale.
        let scaled = self.num as i128 * (scale / self.den) as i128;
        let sign = if scaled < 0 { "-" } else { "" };
        let a = scaled.unsigned_abs();
        let s = scale as u128;
        let mut frac_digits = format!("{:0width$}", a % s, width = places as usize);
        while frac_digits.ends_with('0') {
            frac_digits.pop();
        }
        write!(f, "{sign}{}.{frac_digits}", a / s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints() {
        for (text, num, den, shown) in [
            ("100", 100, 1, "100"),
            ("0.75", 3, 4, "0.75"),
            ("-1.25", -5, 4, "-1.25"),
            ("1/3", 1, 3, "1/3"),
            ("2/-4", -1, 2, "-0.5"),
            ("+0.250", 1, 4, "0.25"),
        ] {
            let f = Frac::parse(text).unwrap();
            assert_eq!((f.num(), f.den()), (num, den), "{text}");
            assert_eq!(f.to_string(), shown, "{text}");
        }
        for bad in ["", "x", "1/0", "1.2.3", ".", "1e5", "9999999999999"] {
            assert!(Frac::parse(bad).is_err(), "{bad}");
        }
    }
}
