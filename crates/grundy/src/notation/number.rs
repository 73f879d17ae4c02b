//! Natural numbers as the command line writes them: decimal, or hexadecimal after `0x`.
//!
//! Nimbers and heap sizes are not limited to 64 bits, so the general parser returns a
//! [`BigUint`]; [`parse_u64`] and [`parse_u128`] are the fixed-width forms, which report a
//! number that does not fit as an error rather than truncating it.

use crate::error::ParseError;
use num_bigint::BigUint;
use num_traits::Num;

/// Splits `s` into its radix and digits, checking the digits; errors carry 1-based columns.
fn digits(s: &str) -> Result<(u32, &str, usize), ParseError> {
    let (radix, body, offset) = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(rest) => (16, rest, 2),
        None => (10, s, 0),
    };
    if body.is_empty() {
        return Err(ParseError::at_column(
            offset + 1,
            if radix == 16 {
                "expected hexadecimal digits after 0x".to_string()
            } else {
                "expected a natural number (decimal, or hexadecimal after 0x), found nothing"
                    .to_string()
            },
        ));
    }
    for (i, c) in body.char_indices() {
        if !c.is_digit(radix) {
            let what = if radix == 16 {
                "a hexadecimal digit"
            } else {
                "a decimal digit"
            };
            return Err(ParseError::at_column(
                offset + body[..i].chars().count() + 1,
                format!("expected {what}, found {c:?}"),
            ));
        }
    }
    Ok((radix, body, offset))
}

/// Parses a natural number of any size.
pub fn parse_natural(s: &str) -> Result<BigUint, ParseError> {
    let (radix, body, _) = digits(s)?;
    BigUint::from_str_radix(body, radix)
        .map_err(|e| ParseError::at_column(1, format!("not a natural number: {e}")))
}

/// Parses a natural number below 2^128.
pub fn parse_u128(s: &str) -> Result<u128, ParseError> {
    let (radix, body, _) = digits(s)?;
    u128::from_str_radix(body, radix).map_err(|_| {
        ParseError::at_column(
            1,
            format!("{s} does not fit in 128 bits (expected a number below 2^128)"),
        )
    })
}

/// Parses a natural number below 2^64.
pub fn parse_u64(s: &str) -> Result<u64, ParseError> {
    let (radix, body, _) = digits(s)?;
    u64::from_str_radix(body, radix).map_err(|_| {
        ParseError::at_column(
            1,
            format!("{s} does not fit in 64 bits (expected a number below 2^64)"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_and_hex() {
        assert_eq!(parse_u64("0").unwrap(), 0);
        assert_eq!(parse_u64("18446744073709551615").unwrap(), u64::MAX);
        assert_eq!(parse_u64("0xff").unwrap(), 255);
        assert_eq!(
            parse_u128("0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF").unwrap(),
            u128::MAX
        );
        assert_eq!(
            parse_natural("340282366920938463463374607431768211456").unwrap(),
            BigUint::from(1u8) << 128
        );
    }

    #[test]
    fn errors_name_the_column() {
        let e = parse_u64("12a4").unwrap_err();
        assert_eq!(e.at.column, Some(3));
        assert!(e.message.contains("decimal digit"));
        let e = parse_u64("0xg").unwrap_err();
        assert_eq!(e.at.column, Some(3));
        assert!(parse_u64("").is_err());
        assert!(parse_u64("0x").is_err());
        assert!(parse_u64("-1").is_err());
        assert!(parse_u64("18446744073709551616")
            .unwrap_err()
            .message
            .contains("64 bits"));
    }
}

/// Nimbers are written as natural numbers: decimal, or hexadecimal after `0x`.
mod nimbers {
    use super::{parse_natural, parse_u128, parse_u64};
    use crate::error::ParseError;
    use crate::nimber::{Nim128, Nim64, NimBig};
    use std::str::FromStr;

    impl FromStr for Nim64 {
        type Err = ParseError;
        /// Decimal, or hexadecimal after `0x`; a number of 2^64 or more is an error.
        fn from_str(s: &str) -> Result<Nim64, ParseError> {
            parse_u64(s).map(Nim64)
        }
    }

    impl FromStr for Nim128 {
        type Err = ParseError;
        /// Decimal, or hexadecimal after `0x`; a number of 2^128 or more is an error.
        fn from_str(s: &str) -> Result<Nim128, ParseError> {
            parse_u128(s).map(Nim128)
        }
    }

    impl FromStr for NimBig {
        type Err = ParseError;
        /// Decimal, or hexadecimal after `0x`, of any size.
        fn from_str(s: &str) -> Result<NimBig, ParseError> {
            parse_natural(s).map(|x| NimBig::from_biguint(&x))
        }
    }
}
