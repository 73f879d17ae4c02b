//! The ordinal notation of the specification: Cantor normal form with `w` for ω.
//!
//! Canonical output (printed by [`Ordinal`]'s `Display`): `w^(w^2*3+1)*2+w^2*5+w+7` — terms in
//! decreasing order, a coefficient after its power following `*`, an exponent in parentheses
//! unless it is a plain natural number, `0` for zero.
//!
//! Input is wider, and is *evaluated with ordinal arithmetic*, so every reading has one meaning:
//!
//! ```text
//! expr   := prod ('+' prod)*          ordinal sum, left to right (not commutative: 1+w = w)
//! prod   := factor ('*' factor)*      ordinal product, left to right (2*w = w, w*2 = w+w)
//! factor := NATURAL | power | '(' expr ')'
//! power  := ('w' | 'ω') ['^' atom]   ω^atom
//! atom   := NATURAL | 'w' | 'ω' | '(' expr ')'
//! ```
//!
//! NATURAL is decimal or `0x` hexadecimal of any size. Spaces are ignored. So `w+w` reads as
//! `w*2`, `3+w` as `w`, `w^w` as `w^(w)`. Parentheses may nest at most [`MAX_DEPTH`] deep.

use crate::error::ParseError;
use crate::notation::number::parse_natural;
use crate::ordinal::Ordinal;

/// The deepest nesting of parentheses accepted (deeper input is an error, not a stack overflow).
pub const MAX_DEPTH: usize = 200;

/// Parses an ordinal; errors name the 1-based column and what was expected.
pub fn parse_ordinal(s: &str) -> Result<Ordinal, ParseError> {
    let chars: Vec<char> = s.chars().collect();
    let mut p = Parser { s: &chars, pos: 0 };
    p.skip_spaces();
    if p.peek().is_none() {
        return Err(ParseError::at_column(
            1,
            "expected an ordinal such as w^2*3+w+1, found nothing",
        ));
    }
    let x = p.expr(0)?;
    p.skip_spaces();
    if let Some(c) = p.peek() {
        return Err(p.error(format!("expected '+', '*' or the end, found {c:?}")));
    }
    Ok(x)
}

struct Parser<'a> {
    s: &'a [char],
    pos: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.s.get(self.pos).copied()
    }

    fn skip_spaces(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }

    fn error(&self, message: String) -> ParseError {
        ParseError::at_column(self.pos + 1, message)
    }

    fn found(&self) -> String {
        match self.peek() {
            Some(c) => format!("{c:?}"),
            None => "the end".to_string(),
        }
    }

    /// Consumes `c` (after spaces) if it is next.
    fn eat(&mut self, c: char) -> bool {
        self.skip_spaces();
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expr(&mut self, depth: usize) -> Result<Ordinal, ParseError> {
        let mut x = self.prod(depth)?;
        while self.eat('+') {
            x = x.add(&self.prod(depth)?);
        }
        Ok(x)
    }

    fn prod(&mut self, depth: usize) -> Result<Ordinal, ParseError> {
        let mut x = self.factor(depth, false)?;
        while self.eat('*') {
            x = x.mul(&self.factor(depth, false)?);
        }
        Ok(x)
    }

    /// A factor; in an exponent (`atom`) a power `w` takes no exponent of its own.
    fn factor(&mut self, depth: usize, atom: bool) -> Result<Ordinal, ParseError> {
        self.skip_spaces();
        match self.peek() {
            Some('w' | 'ω') => {
                self.pos += 1;
                if !atom && self.eat('^') {
                    let e = self.factor(depth, true)?;
                    Ok(Ordinal::omega_pow(e))
                } else {
                    Ok(Ordinal::omega())
                }
            }
            Some('(') => {
                if depth >= MAX_DEPTH {
                    return Err(
                        self.error(format!("parentheses nested deeper than {MAX_DEPTH} levels"))
                    );
                }
                self.pos += 1;
                let x = self.expr(depth + 1)?;
                if !self.eat(')') {
                    return Err(self.error(format!("expected ')' or '+', found {}", self.found())));
                }
                Ok(x)
            }
            Some(c) if c.is_ascii_digit() => {
                let start = self.pos;
                while self.peek().is_some_and(|c| c.is_ascii_alphanumeric()) {
                    self.pos += 1;
                }
                let text: String = self.s[start..self.pos].iter().collect();
                parse_natural(&text)
                    .map(Ordinal::from_natural)
                    .map_err(|e| {
                        let col = e.at.column.unwrap_or(1);
                        ParseError::at_column(start + col, e.message)
                    })
            }
            _ => Err(self.error(format!(
                "expected {}, found {}",
                if atom {
                    "an exponent (a natural number, w, or an ordinal in parentheses)"
                } else {
                    "a natural number, w, or '('"
                },
                self.found()
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ordinal::cnf::tests::arb_ordinal;
    use proptest::prelude::*;

    fn p(s: &str) -> String {
        parse_ordinal(s).unwrap().to_string()
    }

    #[test]
    fn canonical_examples() {
        for s in [
            "0",
            "1",
            "w",
            "w+7",
            "w^2*5+w+7",
            "w^(w^2*3+1)*2+w^2*5+w+7",
            "w^(w)",
            "w^(w^(w))*3+w^(w+1)+w^18446744073709551616*340282366920938463463374607431768211457",
        ] {
            assert_eq!(p(s), s);
        }
    }

    #[test]
    fn non_canonical_input_is_evaluated() {
        assert_eq!(p("w+w"), "w*2");
        assert_eq!(p("3+w"), "w");
        assert_eq!(p("1+w"), "w");
        assert_eq!(p("w+3+w^2"), "w^2");
        assert_eq!(p("2*w"), "w");
        assert_eq!(p("w*2*3"), "w*6");
        assert_eq!(p("(w+1)*2"), "w*2+1");
        assert_eq!(p("(w+1)*w"), "w^2");
        assert_eq!(p("w^w"), "w^(w)");
        assert_eq!(p("w^0*5"), "5");
        assert_eq!(p(" w ^ 2 * 0 + 0x10 "), "16");
        assert_eq!(p("ω^(ω+1)"), "w^(w+1)");
        assert_eq!(p("w^1"), "w");
    }

    #[test]
    fn errors_name_the_column() {
        let cases = [
            ("", 1, "found nothing"),
            ("w+", 3, "expected a natural number"),
            ("w^", 3, "an exponent"),
            ("w^(w+1", 7, "expected ')'"),
            ("w*x", 3, "found 'x'"),
            ("w^2^3", 4, "expected '+', '*' or the end"),
            ("12a", 3, "decimal digit"),
            ("w+0xz", 5, "hexadecimal"),
            ("w)", 2, "found ')'"),
            ("-1", 1, "found '-'"),
        ];
        for (s, col, what) in cases {
            let e = parse_ordinal(s).unwrap_err();
            assert_eq!(e.at.column, Some(col), "{s}: {e}");
            assert!(e.message.contains(what), "{s}: {e}");
        }
        let deep = format!("{}1{}", "(".repeat(5000), ")".repeat(5000));
        assert!(parse_ordinal(&deep)
            .unwrap_err()
            .message
            .contains("nested deeper"));
        let deep_w = "w^(".repeat(5000);
        assert!(parse_ordinal(&deep_w).is_err());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn print_parse_round_trip(a in arb_ordinal(3)) {
            let s = a.to_string();
            prop_assert_eq!(parse_ordinal(&s).unwrap(), a);
        }

        #[test]
        fn garbage_never_panics(s in "[w0-9()^*+ x]{0,20}") {
            let _ = parse_ordinal(&s);
        }
    }
}
