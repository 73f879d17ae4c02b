//! `Serialize` and `Deserialize` for the value types whose representation is not a plain derive
//! (with the `serde` feature).
//!
//! - [`NimBig`] is written as its decimal string (any size; JSON numbers lose precision beyond
//!   2^53 in many readers), and read back from decimal or `0x` hexadecimal.
//! - [`Ordinal`] is written in the ordinal notation (`w^(w+1)*2+3`) and read back with
//!   [`parse_ordinal`], so a deserialised ordinal is always in Cantor normal form.

use crate::nimber::big::NimBig;
use crate::notation::ordinal::parse_ordinal;
use crate::ordinal::Ordinal;
use serde::de::Visitor;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

impl Serialize for NimBig {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for NimBig {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(NotationVisitor::<NimBig>::new(
            "a natural number in decimal or 0x hexadecimal",
            |s| s.parse::<NimBig>().map_err(|e| e.to_string()),
        ))
    }
}

impl Serialize for Ordinal {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Ordinal {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(NotationVisitor::<Ordinal>::new(
            "an ordinal in the notation w^(w+1)*2+3",
            |s| parse_ordinal(s).map_err(|e| e.to_string()),
        ))
    }
}

/// Reads a string and parses it with `parse`, reporting its error through the deserialiser.
struct NotationVisitor<T> {
    expecting: &'static str,
    parse: fn(&str) -> Result<T, String>,
}

impl<T> NotationVisitor<T> {
    fn new(expecting: &'static str, parse: fn(&str) -> Result<T, String>) -> Self {
        NotationVisitor { expecting, parse }
    }
}

impl<T> Visitor<'_> for NotationVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.expecting)
    }

    fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<T, E> {
        (self.parse)(s).map_err(E::custom)
    }
}

#[cfg(test)]
mod tests {
    use crate::control::Control;
    use crate::count::histogram::{Periodic, Run, RunList};
    use crate::count::tuples::{CountAnswer, CountSpec};
    use crate::heap::hint::hint;
    use crate::heap::position::{Move, PositionAnalysis};
    use crate::heap::HeapGame;
    use crate::nimber::{big::NimBig, n128::Nim128, n64::Nim64};
    use crate::notation::ordinal::parse_ordinal;
    use crate::ordinal::Ordinal;
    use crate::pattern::periodic::{PeriodOutcome, PeriodProof, Periodicity, Theorem};
    use crate::solve::{Outcome, Play};
    use num_bigint::BigUint;
    use proptest::prelude::*;
    use serde::de::DeserializeOwned;
    use serde::Serialize;
    use std::fmt::Debug;

    /// Writes `x` as JSON, reads it back, and checks the two agree; returns the JSON.
    fn round_trip<T: Serialize + DeserializeOwned + PartialEq + Debug>(x: &T) -> String {
        let json = serde_json::to_string(x).unwrap();
        let back: T = serde_json::from_str(&json).unwrap();
        assert_eq!(&back, x, "through {json}");
        json
    }

    #[test]
    fn nimbers_are_numbers_and_big_ones_decimal_strings() {
        assert_eq!(round_trip(&Nim64(u64::MAX)), u64::MAX.to_string());
        assert_eq!(round_trip(&Nim128(u128::MAX)), u128::MAX.to_string());
        let big = NimBig::from_words(vec![1, 2, 3]);
        let json = round_trip(&big);
        assert_eq!(json, format!("\"{}\"", big.to_biguint()));
        let hex: NimBig = serde_json::from_str("\"0x10\"").unwrap();
        assert_eq!(hex, NimBig::from(16u64));
        assert!(serde_json::from_str::<NimBig>("\"12a\"").is_err());
        assert!(serde_json::from_str::<NimBig>("12").is_err());
    }

    #[test]
    fn ordinals_use_the_notation_and_stay_normal() {
        for s in ["0", "7", "w", "w^(w^2*3+1)*2+w^2*5+w+7", "w^(w^w)+1"] {
            let a = parse_ordinal(s).unwrap();
            let json = round_trip(&a);
            assert_eq!(json, format!("\"{a}\""));
        }
        // Input in any accepted form comes back in normal form.
        let a: Ordinal = serde_json::from_str("\"1+w\"").unwrap();
        assert_eq!(a, parse_ordinal("w").unwrap());
        let e = serde_json::from_str::<Ordinal>("\"w^\"").unwrap_err();
        assert!(e.to_string().contains("column"), "{e}");
    }

    #[test]
    fn outcomes_analyses_patterns_and_counts() {
        round_trip(&vec![Outcome::P, Outcome::N, Outcome::D]);
        round_trip(&Play::Misere);
        let m = Move {
            heap: 1,
            from: 7,
            to: vec![2, 3],
        };
        round_trip(&PositionAnalysis {
            outcome: Outcome::N,
            nim_sum: Some(6),
            winning_moves: vec![m.clone()],
        });
        let dawsons: HeapGame = "octal:0.07".parse().unwrap();
        round_trip(&hint(&dawsons, &[3, 5], false, &Control::none()).unwrap());
        let nim: HeapGame = "nim".parse().unwrap();
        round_trip(&hint(&nim, &[1, 2, 3], true, &Control::none()).unwrap());
        let p = Periodicity {
            preperiod: 3,
            period: 34,
            saltus: 0,
        };
        let proof = PeriodProof {
            theorem: Theorem::TakeBreak { h: 2, t: 3 },
            applied: p,
            check: (0, u128::MAX),
        };
        round_trip(&PeriodOutcome::Proved(p, proof));
        round_trip(&PeriodOutcome::Apparent(p, Some(1 << 100)));
        round_trip(&PeriodOutcome::None);
        round_trip(&Periodic {
            preperiod: vec![0, 1],
            period: vec![2],
            saltus: 1,
        });
        round_trip(&RunList {
            runs: vec![Run { start: 0, value: 0 }],
            end: Some(u128::MAX),
        });
        round_trip(&CountAnswer {
            count: BigUint::from(3u8).pow(200),
            distribution: Some(vec![BigUint::from(5u8)]),
        });
        let spec = CountSpec {
            heaps: BigUint::from(10u8),
            nim_sum: BigUint::from(0u8),
            modulus: None,
            unordered: true,
            distribution: false,
        };
        let json = serde_json::to_string(&spec).unwrap();
        let back: CountSpec = serde_json::from_str(&json).unwrap();
        assert_eq!(serde_json::to_string(&back).unwrap(), json);
    }

    proptest! {
        #[test]
        fn any_big_nimber_round_trips(words in proptest::collection::vec(any::<u64>(), 0..6)) {
            round_trip(&NimBig::from_words(words));
        }
    }
}
