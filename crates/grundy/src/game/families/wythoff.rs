//! Wythoff's game: two heaps `(a, b)`; a move takes any positive number from one heap, or the
//! same positive number from both.
//!
//! **Symmetry.** Swapping the heaps maps moves to moves: `(a, b)` and `(b, a)` have equal
//! values, and the canonical form puts the smaller heap first.
//!
//! **P-positions** (Wythoff, 1907). The P-positions are the pairs `(⌊nφ⌋, ⌊nφ²⌋)` and their
//! swaps, `n >= 0`, `φ = (1 + √5)/2`: the Beatty sequences of `φ` and `φ²` partition the
//! positive integers, and `⌊nφ²⌋ − ⌊nφ⌋ = n`, so every difference occurs once. [`p_position`]
//! computes the `n`th pair exactly, with integers.

use crate::error::{Error, LimitKind, Result};

/// A Wythoff position: the two heaps.
pub type Heaps = (u64, u64);

/// The largest heap the engine takes: a position `(a, b)` has `a + b + min(a, b)` options, held
/// while it is searched, and the search visits up to `a · b` positions.
pub const MAX_HEAP: u64 = 1 << 11;

/// The family of Wythoff positions.
#[derive(Clone, Copy, Debug, Default)]
pub struct Wythoff;

impl Wythoff {
    /// Checks that `(a, b)` is within [`MAX_HEAP`].
    pub fn check(p: Heaps) -> Result<()> {
        if p.0.max(p.1) > MAX_HEAP {
            return Err(Error::limit(
                LimitKind::Fixed,
                format!("Wythoff heaps above {MAX_HEAP} ({}, {})", p.0, p.1),
                "use smaller heaps",
            ));
        }
        Ok(())
    }
}

/// The `n`th P-position `(⌊nφ⌋, ⌊nφ²⌋)`, exactly: `⌊nφ⌋ = ⌊(n + √(5n²))/2⌋` and
/// `⌊nφ²⌋ = ⌊nφ⌋ + n`; the integer square root `s = ⌊√(5n²)⌋` is never exact for `n > 0`
/// (√5 is irrational), so `⌊(n + √(5n²))/2⌋ = ⌊(n + s)/2⌋`.
pub fn p_position(n: u64) -> Heaps {
    let n2 = u128::from(n) * u128::from(n) * 5;
    let s = n2.isqrt() as u64;
    let a = (n + s) / 2;
    (a, a + n)
}

impl crate::Game for Wythoff {
    type Position = Heaps;
    /// Fails beyond [`MAX_HEAP`].
    fn options(&self, &(a, b): &Heaps, out: &mut Vec<Heaps>) -> Result<()> {
        Wythoff::check((a, b))?;
        out.extend((0..a).map(|x| (x, b)));
        out.extend((0..b).map(|y| (a, y)));
        out.extend((1..=a.min(b)).map(|k| (a - k, b - k)));
        Ok(())
    }
}

impl crate::game::Components for Wythoff {}

impl crate::game::Canonical for Wythoff {
    fn canonical(&self, &(a, b): &Heaps) -> Result<Heaps> {
        Ok((a.min(b), a.max(b)))
    }
}

impl crate::game::Show for Wythoff {
    fn show(&self, &(a, b): &Heaps) -> Result<String> {
        Ok(format!("wythoff:{a},{b}"))
    }

    /// A move is named by what it takes: `first -K`, `second -K` or `both -K`.
    fn described_moves(&self, &(a, b): &Heaps) -> Result<Vec<crate::game::Described<Heaps>>> {
        Wythoff::check((a, b))?;
        let mut out = Vec::new();
        let mut push = |name: String, q: Heaps| -> Result<()> {
            out.push((name, self.show(&q)?, q));
            Ok(())
        };
        for k in 1..=a {
            push(format!("first -{k}"), (a - k, b))?;
        }
        for k in 1..=b {
            push(format!("second -{k}"), (a, b - k))?;
        }
        for k in 1..=a.min(b) {
            push(format!("both -{k}"), (a - k, b - k))?;
        }
        Ok(out)
    }
}

impl crate::game::Footprint for Wythoff {
    fn size(&self, &(a, b): &Heaps) -> usize {
        (a + b) as usize
    }

    fn bytes(&self, _: &Heaps) -> usize {
        std::mem::size_of::<Heaps>()
    }
}

/// The two heaps.
impl crate::game::Encoding for Wythoff {
    fn encode(&self, &(a, b): &Heaps, out: &mut Vec<u8>) {
        crate::varint::put(out, a);
        crate::varint::put(out, b);
    }

    fn decode(&self, bytes: &[u8]) -> Result<Heaps> {
        crate::varint::decode_all(bytes, |r| Ok((r.get()?, r.get()?)))
    }
}
