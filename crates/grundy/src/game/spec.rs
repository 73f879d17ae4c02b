//! Heap games by their rules: what the GAME notation ([`crate::notation::game`]) names. A rule
//! is a value: a subtraction set, a take-and-break code, a set of divisors, or one of the named
//! games; [`crate::heap::HeapGame`] runs it in the engines.

use std::fmt;
use std::path::PathBuf;

/// A subtraction set: a finite union of disjoint ranges of positive integers, kept as ranges so
/// that `sub:1-1000000` costs two numbers, not a million.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SubtractionSet {
    /// Sorted, disjoint, non-adjacent inclusive ranges `(lo, hi)`, `1 <= lo <= hi`.
    ranges: Vec<(u64, u64)>,
}

impl SubtractionSet {
    /// The set holding the union of the given inclusive ranges (each `1 <= lo <= hi`); ranges
    /// may overlap or come in any order. Returns `None` for an empty list or a range with a zero
    /// or `lo > hi`.
    pub fn from_ranges(mut ranges: Vec<(u64, u64)>) -> Option<Self> {
        if ranges.is_empty() || ranges.iter().any(|&(lo, hi)| lo == 0 || lo > hi) {
            return None;
        }
        ranges.sort_unstable();
        let mut merged: Vec<(u64, u64)> = Vec::with_capacity(ranges.len());
        for (lo, hi) in ranges {
            match merged.last_mut() {
                Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
                _ => merged.push((lo, hi)),
            }
        }
        Some(SubtractionSet { ranges: merged })
    }

    /// The disjoint inclusive ranges, ascending.
    pub fn ranges(&self) -> &[(u64, u64)] {
        &self.ranges
    }

    /// The largest element (the `t` of the periodicity theorem for subtraction games).
    pub fn max(&self) -> u64 {
        self.ranges.last().map_or(0, |r| r.1)
    }

    /// Whether the set is finite: always true for `sub:S` (Nim and `squares` are their own
    /// variants of [`GameSpec`]).
    pub fn is_finite(&self) -> bool {
        true
    }

    /// Whether `k` is in the set.
    pub fn contains(&self, k: u64) -> bool {
        let i = self.ranges.partition_point(|r| r.1 < k);
        i < self.ranges.len() && self.ranges[i].0 <= k
    }

    /// The number of elements.
    pub fn len(&self) -> u128 {
        self.ranges
            .iter()
            .map(|&(lo, hi)| (hi - lo) as u128 + 1)
            .sum()
    }

    /// Always false: a subtraction set has at least one element.
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }
}

impl fmt::Display for SubtractionSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, &(lo, hi)) in self.ranges.iter().enumerate() {
            if i > 0 {
                write!(f, ",")?;
            }
            if lo == hi {
                write!(f, "{lo}")?;
            } else {
                write!(f, "{lo}-{hi}")?;
            }
        }
        Ok(())
    }
}

/// A take-and-break code `d0.d1d2...dt`.
///
/// Digit `d_k` says what may be done after removing `k` tokens from a heap: bit 1 remove the
/// whole heap (the heap had exactly `k` tokens), bit 2 leave one non-empty heap, bit 4 leave two
/// non-empty heaps, bit 8 leave three non-empty heaps. `d0` (removing nothing) may hold only
/// bits 4 and 8: splitting a heap without removing tokens ends, because the number of heaps
/// grows and cannot exceed the number of tokens, but "leave one heap" would leave the heap as it
/// was (a loop) and "remove the whole heap of 0 tokens" has no meaning.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TakeBreak {
    /// `digits[k] = d_k`; trailing zero digits are dropped (`digits.len() >= 1`).
    digits: Vec<u8>,
}

impl TakeBreak {
    /// The code with the given digits `d0, d1, ...`; `None` if a digit exceeds 15 or `d0` holds
    /// bit 1 or 2.
    pub fn new(digits: &[u8]) -> Option<Self> {
        if digits.is_empty() || digits.iter().any(|&d| d > 15) || digits[0] & 3 != 0 {
            return None;
        }
        let mut digits = digits.to_vec();
        while digits.len() > 1 && *digits.last().unwrap_or(&1) == 0 {
            digits.pop();
        }
        Some(TakeBreak { digits })
    }

    /// The digit `d_k` (0 beyond the last digit).
    pub fn digit(&self, k: usize) -> u8 {
        self.digits.get(k).copied().unwrap_or(0)
    }

    /// All digits `d0, d1, ..., dt` (no trailing zeros).
    pub fn digits(&self) -> &[u8] {
        &self.digits
    }

    /// `t`: the index of the last non-zero digit after the point (0 if there is none).
    pub fn last_digit(&self) -> usize {
        self.digits.len() - 1
    }

    /// `h`: the largest number of heaps a move can leave (0 to 3).
    pub fn max_heaps(&self) -> usize {
        let all = self.digits.iter().fold(0u8, |a, &d| a | d);
        match all {
            a if a & 8 != 0 => 3,
            a if a & 4 != 0 => 2,
            a if a & 2 != 0 => 1,
            _ => 0,
        }
    }

    /// Whether some digit exceeds 7 (a hexadecimal game: a move may leave three heaps).
    pub fn is_hexadecimal(&self) -> bool {
        self.digits.iter().any(|&d| d > 7)
    }

    /// Whether `d0` is non-zero (heaps may be split without removing tokens).
    pub fn splits_without_removal(&self) -> bool {
        self.digits[0] != 0
    }
}

impl fmt::Display for TakeBreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const HEX: &[u8; 16] = b"0123456789ABCDEF";
        write!(f, "{}.", HEX[self.digits[0] as usize] as char)?;
        if self.digits.len() == 1 {
            write!(f, "0")?;
        }
        for &d in &self.digits[1..] {
            write!(f, "{}", HEX[d as usize] as char)?;
        }
        Ok(())
    }
}

/// A heap game named by the GAME notation: pure data, no file is read while parsing.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum GameSpec {
    /// Take any positive number of tokens from one heap: G(n) = n.
    Nim,
    /// Take k tokens, k in a finite set.
    Subtraction(SubtractionSet),
    /// A take-and-break (octal or hexadecimal) game.
    TakeBreak(TakeBreak),
    /// Grundy's game: split a heap into two unequal non-empty heaps.
    GrundysGame,
    /// Replace n by floor(n/d) for d in the set (sorted, distinct, each >= 2).
    Divide(Vec<u64>),
    /// Take a positive perfect square.
    Squares,
    /// Rules in a Rhai script at this path (see [`crate::heap::script`]).
    Script(PathBuf),
    /// A program's own rule, given as code (a Rust closure, a Python callable) and shown by the
    /// name given to it; it has no notation ([`crate::heap::HeapGame::custom`]).
    Custom(String),
}

impl GameSpec {
    /// The take-and-break code, for `octal:` games and their aliases.
    pub fn take_break(&self) -> Option<&TakeBreak> {
        match self {
            GameSpec::TakeBreak(c) => Some(c),
            _ => None,
        }
    }

    /// The subtraction set, for `sub:` games.
    pub fn subtraction(&self) -> Option<&SubtractionSet> {
        match self {
            GameSpec::Subtraction(s) => Some(s),
            _ => None,
        }
    }

    /// The divisor set D, for `divide:` games.
    pub fn divisors(&self) -> Option<&[u64]> {
        match self {
            GameSpec::Divide(d) => Some(d),
            _ => None,
        }
    }
}

impl fmt::Display for GameSpec {
    /// The canonical notation (aliases become their octal codes).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameSpec::Nim => write!(f, "nim"),
            GameSpec::Subtraction(s) => write!(f, "sub:{s}"),
            GameSpec::TakeBreak(c) => write!(f, "octal:{c}"),
            GameSpec::GrundysGame => write!(f, "grundys-game"),
            GameSpec::Divide(d) => {
                write!(f, "divide:")?;
                for (i, x) in d.iter().enumerate() {
                    write!(f, "{}{x}", if i > 0 { "," } else { "" })?;
                }
                Ok(())
            }
            GameSpec::Squares => write!(f, "squares"),
            GameSpec::Script(p) => write!(f, "script:{}", p.display()),
            GameSpec::Custom(name) => f.write_str(name),
        }
    }
}
