//! The GAME notation of the command line: which heap game a string names.
//!
//! | GAME | meaning |
//! |---|---|
//! | `nim` | take any positive number from one heap |
//! | `sub:S` | subtraction game, S a comma list of positive integers and ranges `a-b` |
//! | `octal:CODE` | take-and-break code `d0.d1d2...`, digits 0-9 and A-F |
//! | `kayles`, `dawsons-kayles`, `dawsons-chess`, `officers` | `octal:0.77`, `0.07`, `0.137`, `0.6` |
//! | `grundys-game` | split one heap into two unequal non-empty heaps |
//! | `divide:D` | replace n by floor(n/d) for d in D; a heap reaching 0 is gone |
//! | `squares` | take a positive perfect square from one heap |
//! | `script:PATH` | rules written by the user in a Rhai script |
//!
//! Numbers are decimal or `0x`-hexadecimal and must fit in 64 bits. Every error names the
//! 1-based column of the offending character and what was expected there.

use crate::error::{Error, ParseError};
use crate::game::spec::{GameSpec, SubtractionSet, TakeBreak};
use crate::heap::HeapGame;
use std::path::PathBuf;

impl std::str::FromStr for HeapGame {
    type Err = Error;

    /// Parses the GAME notation ([`parse_game`]) and builds the rule.
    fn from_str(s: &str) -> Result<HeapGame, Error> {
        HeapGame::from_spec(parse_game(s)?)
    }
}

/// What the notation accepts, for messages about an unknown game name.
const KNOWN: &str = "nim, sub:S, octal:CODE, kayles, dawsons-kayles, dawsons-chess, officers, \
                     grundys-game, divide:D, squares or script:PATH";

/// The game names of the notation, for suggestions.
const NAMES: &[&str] = &[
    "nim",
    "kayles",
    "dawsons-kayles",
    "dawsons-chess",
    "officers",
    "grundys-game",
    "squares",
];

/// The game kinds (before `:`), for suggestions.
const KINDS: &[&str] = &["sub", "octal", "divide", "script"];

/// Parses the GAME notation. Errors name the 1-based column of the offending character.
///
/// ```
/// use grundy::notation::game::parse_game;
/// use grundy::game::spec::GameSpec;
/// assert_eq!(parse_game("kayles").unwrap(), parse_game("octal:0.77").unwrap());
/// assert_eq!(parse_game("octal:0.1x7").unwrap_err().at.column, Some(10));
/// ```
pub fn parse_game(s: &str) -> Result<GameSpec, ParseError> {
    let alias = |code: &str| {
        let digits: Vec<u8> = code
            .bytes()
            .filter(|b| *b != b'.')
            .map(|b| b - b'0')
            .collect();
        TakeBreak::new(&digits)
            .map(GameSpec::TakeBreak)
            .ok_or_else(|| ParseError::whole("internal: bad alias"))
    };
    // Names and kinds are read in any case (`Kayles`, `OCTAL:0.77`); a script's path is not.
    match s.to_ascii_lowercase().as_str() {
        "nim" => return Ok(GameSpec::Nim),
        "kayles" => return alias("0.77"),
        "dawsons-kayles" => return alias("0.07"),
        "dawsons-chess" => return alias("0.137"),
        "officers" => return alias("0.6"),
        "grundys-game" => return Ok(GameSpec::GrundysGame),
        "squares" => return Ok(GameSpec::Squares),
        _ => {}
    }
    let Some((kind, body)) = s.split_once(':') else {
        return Err(ParseError::at_column(
            1,
            super::unknown_name("game", s, NAMES, KNOWN),
        ));
    };
    let col0 = kind.chars().count() + 2; // column of the first character of the body
    match kind.to_ascii_lowercase().as_str() {
        "sub" => parse_subtraction(body, col0).map(GameSpec::Subtraction),
        "octal" => parse_code(body, col0).map(GameSpec::TakeBreak),
        "divide" => parse_divide(body, col0).map(GameSpec::Divide),
        "script" => {
            if body.is_empty() {
                Err(ParseError::at_column(
                    col0,
                    "expected a script file path after script:",
                ))
            } else {
                Ok(GameSpec::Script(PathBuf::from(body)))
            }
        }
        _ => Err(ParseError::at_column(
            1,
            super::unknown_name("game kind", kind, KINDS, KNOWN),
        )),
    }
}

/// A cursor over the characters of a game body, tracking 1-based columns.
struct Cursor<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    column: usize,
}

impl<'a> Cursor<'a> {
    fn new(s: &'a str, column: usize) -> Self {
        Cursor {
            chars: s.chars().peekable(),
            column,
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next();
        if c.is_some() {
            self.column += 1;
        }
        c
    }

    fn found(&mut self) -> String {
        match self.peek() {
            Some(c) => format!("found {c:?}"),
            None => "found the end".to_string(),
        }
    }

    /// A natural number below 2^64, decimal or `0x`-hexadecimal.
    fn number(&mut self, what: &str) -> Result<u64, ParseError> {
        let start = self.column;
        let mut radix = 10;
        if self.peek() == Some('0') {
            self.bump();
            if matches!(self.peek(), Some('x' | 'X')) {
                self.bump();
                radix = 16;
                if !self.peek().is_some_and(|c| c.is_ascii_hexdigit()) {
                    let f = self.found();
                    return Err(ParseError::at_column(
                        self.column,
                        format!("expected a hexadecimal digit after 0x, {f}"),
                    ));
                }
            } else {
                return Ok(0).and_then(|v| self.more_digits(v, radix, start));
            }
        } else if !self.peek().is_some_and(|c| c.is_ascii_digit()) {
            let f = self.found();
            return Err(ParseError::at_column(
                self.column,
                format!("expected {what} (decimal, or hexadecimal after 0x), {f}"),
            ));
        }
        self.more_digits(0, radix, start)
    }

    fn more_digits(&mut self, mut v: u64, radix: u32, start: usize) -> Result<u64, ParseError> {
        while let Some(d) = self.peek().and_then(|c| c.to_digit(radix)) {
            self.bump();
            v = v
                .checked_mul(radix as u64)
                .and_then(|v| v.checked_add(d as u64))
                .ok_or_else(|| {
                    ParseError::at_column(
                        start,
                        "number too large: expected a number below 2^64".to_string(),
                    )
                })?;
        }
        Ok(v)
    }
}

/// A comma list of items read by `item`, then the end of the body.
fn comma_list<T>(
    body: &str,
    col0: usize,
    more: &str,
    mut item: impl FnMut(&mut Cursor) -> Result<T, ParseError>,
) -> Result<Vec<T>, ParseError> {
    let mut cur = Cursor::new(body, col0);
    let mut items = Vec::new();
    loop {
        items.push(item(&mut cur)?);
        match cur.bump() {
            None => return Ok(items),
            Some(',') => {}
            Some(c) => {
                return Err(ParseError::at_column(
                    cur.column - 1,
                    format!("expected {more}, found {c:?}"),
                ))
            }
        }
    }
}

/// `S`: a comma list of positive integers and ranges `a-b`.
fn parse_subtraction(body: &str, col0: usize) -> Result<SubtractionSet, ParseError> {
    let ranges = comma_list(body, col0, "',', '-' or the end", |cur| {
        let col = cur.column;
        let lo = cur.number("a positive integer")?;
        if lo == 0 {
            return Err(ParseError::at_column(
                col,
                "expected a positive integer, found 0 (a move must take at least one token)",
            ));
        }
        let mut hi = lo;
        if cur.peek() == Some('-') {
            cur.bump();
            let col_hi = cur.column;
            hi = cur.number("the end of the range")?;
            if hi < lo {
                return Err(ParseError::at_column(
                    col_hi,
                    format!("expected a range end >= {lo}, found {hi}"),
                ));
            }
        }
        Ok((lo, hi))
    })?;
    SubtractionSet::from_ranges(ranges)
        .ok_or_else(|| ParseError::at_column(col0, "expected a non-empty subtraction set"))
}

/// `D`: a comma list of divisors, each at least 2.
fn parse_divide(body: &str, col0: usize) -> Result<Vec<u64>, ParseError> {
    let mut ds = comma_list(body, col0, "',' or the end", |cur| {
        let col = cur.column;
        let d = cur.number("a divisor")?;
        if d < 2 {
            return Err(ParseError::at_column(
                col,
                format!(
                    "expected a divisor >= 2, found {d} ({})",
                    if d == 0 {
                        "division by zero"
                    } else {
                        "n -> n would repeat a position forever"
                    }
                ),
            ));
        }
        Ok(d)
    })?;
    ds.sort_unstable();
    ds.dedup();
    Ok(ds)
}

/// `d0.d1d2...`: a take-and-break code.
fn parse_code(body: &str, col0: usize) -> Result<TakeBreak, ParseError> {
    let mut digits = Vec::new();
    let mut point = None;
    for (i, c) in body.chars().enumerate() {
        let col = col0 + i;
        if c == '.' {
            if point.is_some() {
                return Err(ParseError::at_column(
                    col,
                    "expected an octal/hex digit, found a second '.'",
                ));
            }
            if digits.is_empty() {
                return Err(ParseError::at_column(
                    col,
                    "expected the digit d0 before '.'",
                ));
            }
            point = Some(col);
            continue;
        }
        let Some(d) = c.to_digit(16) else {
            return Err(ParseError::at_column(
                col,
                format!(
                    "expected an octal/hex digit (0-9, A-F){}, found {c:?}",
                    if point.is_none() { " or '.'" } else { "" }
                ),
            ));
        };
        if point.is_none() && !digits.is_empty() {
            return Err(ParseError::at_column(
                col,
                format!("expected '.' after the single digit d0, found {c:?}"),
            ));
        }
        if point.is_none() && d & 3 != 0 {
            return Err(ParseError::at_column(
                col,
                format!(
                    "d0 = {c} is not allowed: d0 (moves removing no tokens) may hold only bits 4 \
                     and 8 (split a heap); bit 2 would leave the heap unchanged and bit 1 would \
                     remove an empty heap, giving a game without end"
                ),
            ));
        }
        digits.push(d as u8);
    }
    if digits.is_empty() {
        return Err(ParseError::at_column(
            col0,
            "expected a take-and-break code such as 0.137",
        ));
    }
    if point.is_none() || digits.len() == 1 {
        return Err(ParseError::at_column(
            col0 + body.chars().count(),
            "expected digits after the point (a code such as 0.137)",
        ));
    }
    TakeBreak::new(&digits)
        .ok_or_else(|| ParseError::at_column(col0, "expected a take-and-break code"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn col(s: &str) -> usize {
        parse_game(s).unwrap_err().at.column.unwrap()
    }

    #[test]
    fn names_and_aliases() {
        assert_eq!(parse_game("nim").unwrap(), GameSpec::Nim);
        assert_eq!(
            parse_game("officers").unwrap().to_string(),
            "octal:0.6".to_string()
        );
        assert_eq!(
            parse_game("dawsons-chess").unwrap().to_string(),
            "octal:0.137"
        );
        assert_eq!(parse_game("octal:4.07").unwrap().to_string(), "octal:4.07");
        let c = parse_game("octal:0.8F0").unwrap();
        let tb = c.take_break().unwrap();
        assert_eq!((tb.last_digit(), tb.max_heaps()), (2, 3));
        assert!(tb.is_hexadecimal());
        let k = parse_game("kayles").unwrap();
        assert_eq!(k.take_break().unwrap().max_heaps(), 2);
    }

    #[test]
    fn subtraction_sets_are_ranges() {
        let g = parse_game("sub:1-1000000").unwrap();
        let s = g.subtraction().unwrap();
        assert_eq!(s.ranges(), &[(1, 1_000_000)]);
        assert_eq!(s.len(), 1_000_000);
        let g = parse_game("sub:4,1,0x3,2,10-12").unwrap();
        let s = g.subtraction().unwrap();
        assert_eq!(s.ranges(), &[(1, 4), (10, 12)]);
        assert!(s.contains(11) && !s.contains(5) && !s.contains(13));
        assert_eq!(s.max(), 12);
        assert_eq!(
            parse_game("divide:6,2,3").unwrap().divisors(),
            Some(&[2u64, 3, 6][..])
        );
    }

    #[test]
    fn errors_name_the_column() {
        assert_eq!(col("octal:0.1x7"), 10);
        assert_eq!(col("octal:1.07"), 7);
        assert_eq!(col("octal:2.07"), 7);
        assert_eq!(col("octal:0.1.2"), 10);
        assert_eq!(col("octal:07"), 8);
        assert_eq!(col("octal:0"), 8);
        assert_eq!(col("octal:"), 7);
        assert_eq!(col("sub:1,,3"), 7);
        assert_eq!(col("sub:0"), 5);
        assert_eq!(col("sub:5-3"), 7);
        assert_eq!(col("sub:1;2"), 6);
        assert_eq!(col("sub:99999999999999999999"), 5);
        assert_eq!(col("sub:0x"), 7);
        assert_eq!(col("divide:1"), 8);
        assert_eq!(col("divide:2,0"), 10);
        assert_eq!(col("foo"), 1);
        assert_eq!(col("foo:1"), 1);
        assert_eq!(col("script:"), 8);
        assert!(parse_game("sub:99999999999999999999")
            .unwrap_err()
            .message
            .contains("2^64"));
    }
}
