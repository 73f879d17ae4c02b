//! The rules of heap games: what a single heap of n tokens may become in one move.
//!
//! A heap game is a rule `n ↦ {lists of heaps}`; a position is a multiset of heaps and a move
//! replaces one heap by one of its options. By the Sprague-Grundy theorem the value of a
//! position is the xor of its heaps' values, so everything reduces to the sequence G(n).

use crate::error::{Error, Result};
use crate::game::spec::{GameSpec, TakeBreak};
use crate::pattern::periodic::Theorem;

/// The options of one heap, written by [`HeapRule::options`] into a caller-owned buffer: a flat
/// list of heaps and the end of each option, so that no allocation happens per option.
#[derive(Clone, Debug, Default)]
pub struct Options {
    heaps: Vec<u64>,
    ends: Vec<usize>,
}

impl Options {
    /// An empty buffer.
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets every option (keeps the memory).
    pub fn clear(&mut self) {
        self.heaps.clear();
        self.ends.clear();
    }

    /// Adds one option: the heaps left (empty when the heap is removed); zeros are dropped.
    pub fn push(&mut self, heaps: &[u64]) {
        self.heaps.extend(heaps.iter().copied().filter(|&h| h > 0));
        self.ends.push(self.heaps.len());
    }

    /// The number of options.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there are no options (a terminal heap).
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The heaps of option `i`.
    pub fn get(&self, i: usize) -> &[u64] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.heaps[start..self.ends[i]]
    }

    /// Every option, in the order pushed.
    pub fn iter(&self) -> impl Iterator<Item = &[u64]> + '_ {
        (0..self.len()).map(move |i| self.get(i))
    }
}

/// A heap game's rule: the options of a single heap.
///
/// The built-in rules implement it, and so can a program's own rule: wrapped by
/// [`HeapGame::custom`](crate::heap::HeapGame::custom), it runs in every engine the built-in
/// rules run in (sequences, analysis with periods, values of huge heaps, positions, hints, misère
/// play). A closure `Fn(u64, &mut Options) -> Result<()>` is a rule.
pub trait HeapRule: Send + Sync {
    /// Appends every option of a heap of `n` tokens to `out` (without clearing it). Every heap
    /// of every option is smaller than `n` (so every game ends). Fails only for rules that are
    /// user code (a script error, a Python exception, a malformed answer).
    fn options(&self, n: u64, out: &mut Options) -> Result<()>;

    /// The periodicity theorem the rule's moves fall under, declared by the rule: a finite
    /// subtraction game with largest move `t` ([`Theorem::Subtraction`]), or a take-and-break
    /// game removing at most `t` tokens and leaving at most `h` heaps, every such split of what
    /// is left being allowed whenever one is ([`Theorem::TakeBreak`]). With a declaration the
    /// analysis proves periods by that theorem; without one (the default) periods are found
    /// but not proved. The engines check the bounds of the declaration (`t`, `h`) on every
    /// option they generate and refuse a rule that breaks them; the rest of the premise (moves
    /// from a large heap are those from a smaller one with the largest heap grown) is the
    /// rule's promise.
    fn shape(&self) -> Option<Theorem> {
        None
    }
}

/// A closure is a rule (without a declared shape).
impl<F> HeapRule for F
where
    F: Fn(u64, &mut Options) -> Result<()> + Send + Sync,
{
    fn options(&self, n: u64, out: &mut Options) -> Result<()> {
        self(n, out)
    }
}

/// A program's own heap rule, named, as the engines run it: every answer is checked (each heap
/// below `n`; the bounds of the declared shape), so that a faulty rule gives an error, never a
/// wrong value or an endless game.
pub struct CustomRule {
    name: String,
    rule: Box<dyn HeapRule>,
    shape: Option<Theorem>,
}

impl std::fmt::Debug for CustomRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CustomRule({})", self.name)
    }
}

impl CustomRule {
    /// The rule `rule`, called `name` in messages.
    pub fn new(name: impl Into<String>, rule: impl HeapRule + 'static) -> CustomRule {
        let shape = rule.shape();
        CustomRule {
            name: name.into(),
            rule: Box::new(rule),
            shape,
        }
    }

    /// The name given to the rule.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The declared shape ([`HeapRule::shape`]).
    pub fn shape(&self) -> Option<Theorem> {
        self.shape
    }

    /// The options of `n` from the rule, checked.
    pub(crate) fn checked_options(&self, n: u64, out: &mut Options) -> Result<()> {
        let first = out.len();
        self.rule.options(n, out)?;
        for i in first..out.len() {
            let o = out.get(i);
            let bad = |why: String| {
                Error::invalid(format!(
                    "rule {}: option {o:?} of a heap of {n}: {why}",
                    self.name
                ))
            };
            if let Some(&h) = o.iter().find(|&&h| h >= n) {
                return Err(bad(format!(
                    "a heap of {h} is left, and every heap left must be below {n}"
                )));
            }
            let left = o.iter().fold(0u64, |s, &h| s.saturating_add(h));
            let taken = n.checked_sub(left).ok_or_else(|| {
                bad("the heaps left hold more tokens than the heap had".to_string())
            })?;
            match self.shape {
                Some(Theorem::Subtraction { t }) if o.len() > 1 || taken == 0 || taken > t => {
                    return Err(bad(format!(
                        "the rule declares a subtraction game with moves of at most {t}, \
                         and this move takes {taken} leaving {} heaps",
                        o.len()
                    )));
                }
                Some(Theorem::TakeBreak { h, t }) if taken > t || o.len() as u64 > h.max(1) => {
                    return Err(bad(format!(
                        "the rule declares a take-and-break game taking at most {t} tokens and \
                         leaving at most {} heaps, and this move takes {taken} leaving {}",
                        h.max(1),
                        o.len()
                    )));
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The number of options of a heap of `n`, by generating them (0 if the rule fails: the
    /// engine meets the error again when it asks for the options).
    pub(crate) fn count_options(&self, n: u64) -> u128 {
        let mut out = Options::new();
        match self.rule.options(n, &mut out) {
            Ok(()) => out.len() as u128,
            Err(_) => 0,
        }
    }
}

/// An upper bound on the number of options of a heap of `n` (saturating) in a game of the
/// notation, for the limits of the engines that enumerate options; `None` for the rules that
/// are code (a script, a program's own rule), whose options are only known by running them.
pub(crate) fn notation_option_count_bound(spec: &GameSpec, n: u64) -> Option<u128> {
    let n = n as u128;
    Some(match spec {
        GameSpec::Nim => n,
        GameSpec::Subtraction(s) => s.len().min(n),
        GameSpec::TakeBreak(c) => {
            let mut total = 0u128;
            for (k, &d) in c.digits().iter().enumerate() {
                let m = n.saturating_sub(k as u128);
                total += (d & 3 != 0) as u128 + (d & 4 != 0) as u128 * (m / 2);
                if d & 8 != 0 {
                    total += m * m / 12 + 1;
                }
            }
            total
        }
        GameSpec::GrundysGame => n / 2,
        GameSpec::Divide(d) => d.len() as u128,
        GameSpec::Squares => (n as f64).sqrt() as u128 + 1,
        GameSpec::Script(_) | GameSpec::Custom(_) => return None,
    })
}

/// Appends the options of a heap of `n` in a game of the notation to `out`, straight from its
/// description; `false` (nothing appended) for the rules that are code, which run their own.
pub(crate) fn notation_options(spec: &GameSpec, n: u64, out: &mut Options) -> bool {
    match spec {
        GameSpec::Nim => (0..n).for_each(|m| out.push(&[m])),
        GameSpec::Subtraction(s) => {
            for &(lo, hi) in s.ranges() {
                if lo > n {
                    break;
                }
                (lo..=hi.min(n)).for_each(|k| out.push(&[n - k]));
            }
        }
        GameSpec::TakeBreak(c) => take_break_options(c, n, out),
        GameSpec::GrundysGame => (1..n.div_ceil(2)).for_each(|a| out.push(&[a, n - a])),
        GameSpec::Divide(ds) => ds.iter().for_each(|d| {
            if n > 0 {
                out.push(&[n / d])
            }
        }),
        GameSpec::Squares => {
            let mut k = 1u64;
            while k * k <= n {
                out.push(&[n - k * k]);
                k += 1;
            }
        }
        GameSpec::Script(_) | GameSpec::Custom(_) => return false,
    }
    true
}

/// The options of a take-and-break heap of `n`: for each `k` with digit `d_k`, removing `k`
/// tokens and leaving 0 (bit 1, only if `n = k`), 1, 2 or 3 non-empty heaps (bits 2, 4, 8) of
/// total `n - k`, each multiset once (parts listed ascending).
fn take_break_options(c: &TakeBreak, n: u64, out: &mut Options) {
    for (k, &d) in c.digits().iter().enumerate() {
        let k = k as u64;
        if k > n {
            break;
        }
        let m = n - k;
        if d & 1 != 0 && m == 0 {
            out.push(&[]);
        }
        if d & 2 != 0 && m >= 1 {
            out.push(&[m]);
        }
        if d & 4 != 0 {
            (1..=m / 2).for_each(|a| out.push(&[a, m - a]));
        }
        if d & 8 != 0 {
            for a in 1..=m / 3 {
                (a..=(m - a) / 2).for_each(|b| out.push(&[a, b, m - a - b]));
            }
        }
    }
}

/// Appends the options of the sum of heaps `p` (sorted): heap `i` replaced by each of its
/// options, once per distinct heap size, each result sorted. Stops at the first rule error.
pub(crate) fn sum_options<R: HeapRule + ?Sized>(
    rule: &R,
    p: &[u64],
    out: &mut Vec<Vec<u64>>,
) -> Result<()> {
    let mut opts = Options::new();
    for (i, &h) in p.iter().enumerate() {
        if i > 0 && p[i - 1] == h {
            continue;
        }
        opts.clear();
        rule.options(h, &mut opts)?;
        for o in opts.iter() {
            let mut q: Vec<u64> = Vec::with_capacity(p.len() + o.len());
            q.extend_from_slice(&p[..i]);
            q.extend_from_slice(&p[i + 1..]);
            q.extend_from_slice(o);
            q.sort_unstable();
            out.push(q);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(game: &str, n: u64) -> Vec<Vec<u64>> {
        let r: crate::heap::HeapGame = game.parse().unwrap();
        let mut o = Options::new();
        r.heap_options(n, &mut o).unwrap();
        o.iter().map(|s| s.to_vec()).collect()
    }

    #[test]
    fn options_follow_the_definitions() {
        assert_eq!(opts("kayles", 3), vec![vec![2], vec![1, 1], vec![1]]);
        assert_eq!(opts("octal:0.8", 4), vec![vec![1, 1, 1]]);
        assert_eq!(opts("octal:4.0", 4), vec![vec![1, 3], vec![2, 2]]);
        assert_eq!(opts("octal:0.1", 1), vec![Vec::<u64>::new()]);
        assert_eq!(opts("grundys-game", 6), vec![vec![1, 5], vec![2, 4]]);
        assert_eq!(opts("divide:2,3", 5), vec![vec![2], vec![1]]);
        assert_eq!(opts("divide:2,3", 1), vec![Vec::<u64>::new(), vec![]]);
        assert_eq!(opts("squares", 5), vec![vec![4], vec![1]]);
        assert_eq!(opts("sub:1-2,5", 5), vec![vec![4], vec![3], vec![]]);
        assert_eq!(opts("nim", 2), vec![vec![], vec![1]]);
    }
}
