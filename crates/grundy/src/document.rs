//! Pieces the answer documents share (the document types themselves live beside the results
//! they write: `pattern::value::AnalysisDocument`, `solve::search::SolutionDocument`,
//! `heap::position::PositionDocument`, ...).

use num_bigint::BigUint;
use std::fmt;

/// A natural number of any size, written in a document as an exact JSON integer (`12`, or
/// `340282366920938463463374607431768211457`: digits, never a string or a float).
///
/// A value below `2^64` is written as a plain `u64`, so any serde format takes it; a larger one
/// needs `serde_json`, which writes its digits in full, and reads back from the digits of a
/// JSON document's text (not from a `serde_json::Value`, which has no integers beyond 64 bits).
/// Its JSON Schema is `{"type": "integer", "minimum": 0}`.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Natural(pub BigUint);

impl fmt::Display for Natural {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl From<BigUint> for Natural {
    fn from(n: BigUint) -> Natural {
        Natural(n)
    }
}

impl From<u64> for Natural {
    fn from(n: u64) -> Natural {
        Natural(BigUint::from(n))
    }
}

impl From<u128> for Natural {
    fn from(n: u128) -> Natural {
        Natural(BigUint::from(n))
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Natural {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::Error;
        match u64::try_from(&self.0) {
            Ok(small) => serializer.serialize_u64(small),
            Err(_) => serde_json::value::RawValue::from_string(self.0.to_string())
                .map_err(S::Error::custom)?
                .serialize(serializer),
        }
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Natural {
    /// Reads the number's text as it stands in the document: decimal digits only (no sign,
    /// fraction or exponent), so every value read is the integer written.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let raw = Box::<serde_json::value::RawValue>::deserialize(deserializer)?;
        let text = raw.get();
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(D::Error::custom(format!(
                "expected a natural number as a JSON integer, found {text}"
            )));
        }
        text.parse::<BigUint>()
            .map(Natural)
            .map_err(|e| D::Error::custom(e.to_string()))
    }
}

#[cfg(feature = "serde")]
impl schemars::JsonSchema for Natural {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Natural".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"type": "integer", "minimum": 0})
    }
}

#[cfg(all(test, feature = "serde"))]
mod tests {
    use super::*;

    #[test]
    fn naturals_are_exact_json_integers_both_ways() {
        let big = "340282366920938463463374607431768211457"; // 2^128 + 1
        for text in [
            "0",
            "7",
            "18446744073709551615",
            "18446744073709551616",
            big,
        ] {
            let n: Natural = serde_json::from_str(text).unwrap();
            assert_eq!(n.to_string(), text);
            assert_eq!(serde_json::to_string(&n).unwrap(), text);
        }
        for bad in ["-1", "1.5", "1e3", "\"5\"", "null"] {
            assert!(serde_json::from_str::<Natural>(bad).is_err(), "{bad}");
        }
    }
}
