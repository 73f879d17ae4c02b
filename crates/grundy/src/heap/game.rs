//! [`HeapGame`]: a heap game parsed once and passed to every engine.

use crate::error::{Error, Result};
use crate::game::spec::GameSpec;
use crate::game::{Canonical, Components, Encoding, Footprint, Game, Show};
use crate::heap::rule::{
    notation_option_count_bound, notation_options, sum_options, CustomRule, HeapRule, Options,
};
#[cfg(feature = "script")]
use crate::heap::script::ScriptRule;
use std::fmt;
#[cfg(feature = "script")]
use std::path::PathBuf;

/// A heap game of the GAME notation, ready to play: the parsed [`GameSpec`], and for a rule
/// that is code, that code (a script read and compiled once, a program's own rule).
///
/// The [`GameSpec`] is the one description of the rule: the engines read the options of the
/// notation's rules from it and derive their tables from it (the splits of a take-and-break
/// code, the moves of a subtraction set); only the rules that are code run code of their own.
///
/// Every heap-game entry point takes it: [`crate::heap::sequence::compute`],
/// [`crate::heap::position::normal`], [`crate::heap::hint::hint`],
/// [`crate::pattern::value::analyze`], ...
///
/// It is also a [`Game`] whose positions are sums of heaps: a position is the multiset of its
/// heaps, kept as a sorted vector of non-empty heaps ([`HeapGame::position`]), and a move
/// replaces one heap by one of its options. By the Sprague-Grundy theorem the value of a sum is
/// the nim-sum of its heaps' values, so the general solvers of [`crate::solve`] agree with the
/// sequence engines; the sequence engines are far faster on single heaps.
///
/// ```
/// use grundy::heap::HeapGame;
/// use grundy::solve::acyclic;
///
/// let kayles: HeapGame = "kayles".parse()?;
/// assert_eq!(kayles.to_string(), "octal:0.77");
/// // Kayles values 0 1 2 3 1 4 3 2 1 4 2 6 ...: G(5) = 4 and G(11) = 6, so 5 + 11 has value 2.
/// assert_eq!(acyclic::grundy(&kayles, &HeapGame::position(&[5, 11]), 100_000)?, 4 ^ 6);
/// # Ok::<(), grundy::Error>(())
/// ```
#[derive(Debug)]
pub struct HeapGame {
    spec: GameSpec,
    code: Code,
}

/// The code a rule runs, for the rules that are code; the rules of the notation run none.
#[derive(Debug)]
enum Code {
    /// A rule of the notation: its options come from the [`GameSpec`].
    Notation,
    /// A user's Rhai script (`script:PATH`).
    #[cfg(feature = "script")]
    Script(Box<ScriptRule>),
    /// A program's own rule (Rust code, a Python callable), checked ([`GameSpec::Custom`]).
    Custom(Box<CustomRule>),
}

impl HeapGame {
    /// The game of a parsed notation; a `script:PATH` is read and compiled here (errors are
    /// [`Error::Invalid`](crate::Error::Invalid) with the script's line, or [`Error::Limit`](crate::Error::Limit) for an oversized file).
    pub fn from_spec(spec: GameSpec) -> Result<HeapGame> {
        let code = match &spec {
            #[cfg(feature = "script")]
            GameSpec::Script(p) => Code::Script(Box::new(ScriptRule::load(p)?)),
            #[cfg(not(feature = "script"))]
            GameSpec::Script(_) => {
                return Err(Error::invalid(
                    "script games need the `script` feature, and this build of the grundy \
                     library was compiled without it",
                ))
            }
            GameSpec::Custom(name) => {
                return Err(Error::invalid(format!(
                    "the rule {name} is code, not notation: build its game with HeapGame::custom"
                )))
            }
            _ => Code::Notation,
        };
        Ok(HeapGame { spec, code })
    }

    /// The game of a script compiled by the caller (for instance with
    /// [`ScriptRule::compile_limited`]); `name` stands for it in the notation (`script:NAME`).
    #[cfg(feature = "script")]
    pub fn from_script(name: impl Into<PathBuf>, script: ScriptRule) -> HeapGame {
        HeapGame {
            spec: GameSpec::Script(name.into()),
            code: Code::Script(Box::new(script)),
        }
    }

    /// The game of a program's own rule, called `name` (its [`GameSpec::Custom`]): it runs in
    /// every engine the built-in rules run in, each answer of the rule checked (every heap left
    /// below the heap moved from; the bounds of a declared [`HeapRule::shape`]).
    ///
    /// ```
    /// use grundy::heap::{HeapGame, Options};
    /// use grundy::pattern::value::analyze;
    /// use grundy::control::Control;
    ///
    /// // Take 1 or 2 tokens: G(n) = n mod 3.
    /// let take_one_or_two = |n: u64, out: &mut Options| {
    ///     for k in 1..=2.min(n) {
    ///         out.push(&[n - k]);
    ///     }
    ///     Ok(())
    /// };
    /// let game = HeapGame::custom("take-1-or-2", take_one_or_two);
    /// let a = analyze(&game, 100, &Control::none())?;
    /// assert_eq!(a.period.map(|p| p.period), Some(3));
    /// assert!(!a.proved); // no shape declared: found, not proved
    /// # Ok::<(), grundy::Error>(())
    /// ```
    pub fn custom(name: impl Into<String>, rule: impl HeapRule + 'static) -> HeapGame {
        let name = name.into();
        HeapGame {
            spec: GameSpec::Custom(name.clone()),
            code: Code::Custom(Box::new(CustomRule::new(name, rule))),
        }
    }

    /// The periodicity theorem a program's own rule declares ([`HeapRule::shape`]); `None` for
    /// the rules of the notation (whose theorems follow from the notation).
    pub fn shape(&self) -> Option<crate::pattern::periodic::Theorem> {
        match &self.code {
            Code::Custom(c) => c.shape(),
            _ => None,
        }
    }

    /// The parsed notation.
    pub fn spec(&self) -> &GameSpec {
        &self.spec
    }

    /// Makes the game's script, if it has one, watch the cancel token and deadline of `ctl`: a
    /// call of the script then stops within a few thousand operations of a cancellation. Games
    /// without a script run no code of their own and need nothing.
    pub fn watch(&mut self, ctl: &crate::control::Control) {
        #[cfg(feature = "script")]
        if let Code::Script(s) = &mut self.code {
            s.watch(ctl);
        }
        #[cfg(not(feature = "script"))]
        let _ = ctl;
    }

    /// An upper bound on the number of options of a heap of `n` (saturating), for limits on
    /// engines that enumerate options.
    pub fn option_count_bound(&self, n: u64) -> u128 {
        match &self.code {
            #[cfg(feature = "script")]
            Code::Script(_) => crate::script::MAX_ARRAY as u128,
            Code::Custom(c) => c.count_options(n),
            Code::Notation => notation_option_count_bound(&self.spec, n).unwrap_or(0),
        }
    }

    /// Appends the options of a single heap of `n` tokens to `out`: each option is the list of
    /// heaps left (empty when the heap is gone). Fails only for script rules.
    pub fn heap_options(&self, n: u64, out: &mut Options) -> Result<()> {
        match &self.code {
            #[cfg(feature = "script")]
            Code::Script(s) => s.options(n, out),
            Code::Custom(c) => c.checked_options(n, out),
            Code::Notation if notation_options(&self.spec, n, out) => Ok(()),
            Code::Notation => Err(Error::Internal(format!(
                "the rule {} has no code loaded",
                self.spec
            ))),
        }
    }

    /// The normal form of a sum of heaps as a [`Game`] position: the non-empty heaps, ascending.
    pub fn position(heaps: &[u64]) -> Vec<u64> {
        let mut p: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
        p.sort_unstable();
        p
    }
}

impl fmt::Display for HeapGame {
    /// The canonical notation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.spec.fmt(f)
    }
}

impl Game for HeapGame {
    /// A sum of heaps in normal form ([`HeapGame::position`]).
    type Position = Vec<u64>;

    /// Replacing one heap by each of its options (once per distinct heap size). Fails only for
    /// script rules.
    fn options(&self, p: &Vec<u64>, out: &mut Vec<Vec<u64>>) -> Result<()> {
        sum_options(self, p, out)
    }
}

/// The rule of a heap game, for the engines that take any [`HeapRule`] (the definition-level
/// reference); the same options as [`HeapGame::heap_options`], no declared shape beyond the
/// program's own ([`HeapGame::shape`]).
impl HeapRule for HeapGame {
    fn options(&self, n: u64, out: &mut Options) -> Result<()> {
        self.heap_options(n, out)
    }

    fn shape(&self) -> Option<crate::pattern::periodic::Theorem> {
        HeapGame::shape(self)
    }
}

/// One component a heap: by the Sprague-Grundy theorem the value of a sum of heaps is the
/// nim-sum of its heaps' values, so the search engine solves and caches each heap size once.
impl Components for HeapGame {
    fn split(&self, p: &Vec<u64>, out: &mut Vec<Vec<u64>>) -> Result<()> {
        out.extend(p.iter().map(|&h| vec![h]));
        Ok(())
    }
}

/// The order of the heaps does not matter: the normal form is the canonical form.
impl Canonical for HeapGame {
    fn canonical(&self, p: &Vec<u64>) -> Result<Vec<u64>> {
        Ok(HeapGame::position(p))
    }
}

/// A sum of heaps as `[3 4 5]`.
impl Show for HeapGame {
    fn show(&self, p: &Vec<u64>) -> Result<String> {
        let heaps: Vec<String> = p.iter().map(u64::to_string).collect();
        Ok(format!("[{}]", heaps.join(" ")))
    }
}

impl Footprint for HeapGame {
    fn bytes(&self, p: &Vec<u64>) -> usize {
        std::mem::size_of::<Vec<u64>>() + 8 * p.len()
    }

    /// The tokens (saturating).
    fn size(&self, p: &Vec<u64>) -> usize {
        p.iter().fold(0usize, |s, &h| {
            s.saturating_add(usize::try_from(h).unwrap_or(usize::MAX))
        })
    }
}

/// The number of heaps, then the heaps, as varints.
impl Encoding for HeapGame {
    fn encode(&self, p: &Vec<u64>, out: &mut Vec<u8>) {
        crate::varint::put(out, p.len() as u64);
        for &h in p {
            crate::varint::put(out, h);
        }
    }

    fn decode(&self, bytes: &[u8]) -> Result<Vec<u64>> {
        crate::varint::decode_all(bytes, |r| {
            let n = r.get()?;
            (0..n).map(|_| r.get()).collect()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::Control;
    use crate::error::Error;
    use crate::heap::reference;
    use crate::heap::sequence::compute;
    use crate::notation::game::parse_game;
    use crate::solve::acyclic::{self, reference::grundy_recursive};
    use proptest::prelude::*;

    /// Rules of every kind: Nim, a subtraction set, two-heap and three-heap take-and-break
    /// codes (0.8 removes a token and leaves three heaps), Grundy's game, a division game.
    const GAMES: [&str; 7] = [
        "nim",
        "sub:1,3,4",
        "kayles",
        "octal:0.8",
        "octal:4.F",
        "grundys-game",
        "divide:2,3",
    ];

    fn game(g: &str) -> HeapGame {
        g.parse().unwrap()
    }

    #[test]
    fn parsing_once_keeps_the_canonical_notation() {
        assert_eq!(game("kayles").to_string(), "octal:0.77");
        assert_eq!(
            game("dawsons-kayles").spec(),
            &parse_game("octal:0.07").unwrap()
        );
        let e = "octal:0.1x".parse::<HeapGame>().unwrap_err();
        assert!(matches!(e, Error::Parse(_)), "{e}");
    }

    #[test]
    fn positions_are_sorted_multisets_of_non_empty_heaps() {
        assert_eq!(HeapGame::position(&[3, 0, 1, 3]), vec![1, 3, 3]);
        let mut out = Vec::new();
        Game::options(&game("kayles"), &vec![2, 2], &mut out).unwrap();
        // Once per distinct heap: 2 → 1 or 0 (take one or two).
        assert_eq!(out, vec![vec![1, 2], vec![2]]);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(60))]

        /// The general memo solver on sums of heaps agrees with the nim-sum of the heap
        /// sequence engine's values (Sprague-Grundy), with the definition-level sequence, and
        /// with plain recursion over the sum game.
        #[test]
        fn general_solver_agrees_with_the_sequence_engine(
            which in 0..GAMES.len(),
            heaps in prop::collection::vec(0u64..9, 1..4),
        ) {
            let g = game(GAMES[which]);
            let p = HeapGame::position(&heaps);
            let engine = compute(&g, 9, &Control::none()).unwrap();
            let by_engine = heaps.iter().fold(0, |x, &h| x ^ engine.get(h as usize) as u64);
            let definition = reference::sequence(&g, 9).unwrap();
            let by_definition = heaps.iter().fold(0, |x, &h| x ^ definition[h as usize] as u64);
            let solved = acyclic::grundy(&g, &p, 1_000_000).unwrap();
            prop_assert_eq!(solved, by_engine, "{} {:?}", GAMES[which], heaps);
            prop_assert_eq!(solved, by_definition);
            prop_assert_eq!(grundy_recursive(&g, &p), solved);
        }
    }
}
