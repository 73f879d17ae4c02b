//! Grundy sequences G(0), G(1), ... of heap games, with one entry point and automatic choice of
//! engine.
//!
//! Values are stored in the narrowest of `u8`, `u16`, `u32` that holds them: an engine runs over
//! a vector of the current width and stops when a value does not fit; the values so far are then
//! widened and the engine resumes. So a sequence costs about one byte per value when its values
//! stay below 256.

use crate::control::Control;
use crate::error::{Error, Result};
use crate::game::spec::GameSpec;
use crate::heap::HeapGame;
use crate::heap::{naive, reference, sparse};

/// The longest sequence [`compute`] makes: 2·10^9 values (about 2 GB when values fit a byte).
pub const MAX_LEN: u64 = 2_000_000_000;

/// The longest sequence of a game whose moves may leave three heaps (hexadecimal digits 8-F):
/// those cost about n²·B/128 word operations (B the value bound), hours beyond this.
pub const MAX_LEN_THREE_HEAPS: u64 = 100_000;

/// A cell type for stored values: `u8`, `u16` or `u32` (sealed: no other type implements it).
/// The analyses of [`crate::pattern`] read sequences through it, in their stored width.
pub trait Cell:
    Copy + Default + Send + Sync + Ord + std::ops::BitXor<Output = Self> + sealed::Sealed + 'static
{
    /// The largest value the type holds.
    const MAX: u32;
    /// Narrows `v` (which must be at most `MAX`).
    fn from_u32(v: u32) -> Self;
    /// Widens to `u32`.
    fn get(self) -> u32;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for u8 {}
    impl Sealed for u16 {}
    impl Sealed for u32 {}
}

macro_rules! cell {
    ($t:ty) => {
        impl Cell for $t {
            const MAX: u32 = <$t>::MAX as u32;
            #[inline(always)]
            fn from_u32(v: u32) -> Self {
                v as $t
            }
            #[inline(always)]
            fn get(self) -> u32 {
                self as u32
            }
        }
    };
}
cell!(u8);
cell!(u16);
cell!(u32);

testing_pub! {
    /// What an engine run over cells of one width ended with.
    #[derive(Debug, PartialEq, Eq)]
    pub enum Fill {
        /// All requested values are done.
        Done,
        /// The next value does not fit the cell type: widen and resume.
        Overflow,
    }
}

/// Evaluates `$body` with `$v` bound to the cells of the sequence `$seq` (a `&Sequence` or
/// `&mut Sequence`), whatever their width: the body is compiled once per cell type.
macro_rules! with_cells {
    ($seq:expr, $v:ident => $body:expr) => {
        match $seq {
            $crate::heap::sequence::Sequence::U8($v) => $body,
            $crate::heap::sequence::Sequence::U16($v) => $body,
            $crate::heap::sequence::Sequence::U32($v) => $body,
        }
    };
}
pub(crate) use with_cells;

/// A Grundy sequence G(0..len), stored compactly.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Sequence {
    /// Every value below 256.
    U8(Vec<u8>),
    /// Every value below 65536.
    U16(Vec<u16>),
    /// Any value.
    U32(Vec<u32>),
}

impl Sequence {
    /// G(n). Panics if `n >= len()`.
    #[inline]
    pub fn get(&self, n: usize) -> u32 {
        match self {
            Sequence::U8(v) => v[n] as u32,
            Sequence::U16(v) => v[n] as u32,
            Sequence::U32(v) => v[n],
        }
    }

    /// The number of values.
    pub fn len(&self) -> usize {
        match self {
            Sequence::U8(v) => v.len(),
            Sequence::U16(v) => v.len(),
            Sequence::U32(v) => v.len(),
        }
    }

    /// Whether there are no values.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// All values as `u32`.
    pub fn to_vec(&self) -> Vec<u32> {
        self.iter().collect()
    }

    /// The values in order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.len()).map(move |i| self.get(i))
    }

    /// The bytes one value takes: 1, 2 or 4.
    pub fn width(&self) -> usize {
        match self {
            Sequence::U8(_) => 1,
            Sequence::U16(_) => 2,
            Sequence::U32(_) => 4,
        }
    }

    /// The largest value (0 for an empty sequence).
    pub fn max_value(&self) -> u32 {
        with_cells!(self, v => v.iter().max().map_or(0, |x| x.get()))
    }

    /// Keeps the first `len` values and returns the memory of the rest.
    pub fn truncate(&mut self, len: usize) {
        with_cells!(self, v => {
            v.truncate(len);
            v.shrink_to_fit();
        })
    }

    /// Writes the values as `width()`-byte little-endian integers, in order.
    pub fn write_le(&self, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        with_cells!(self, v => {
            let mut buf = Vec::with_capacity(1 << 16);
            for chunk in v.chunks(1 << 14) {
                buf.clear();
                for &x in chunk {
                    buf.extend_from_slice(&x.get().to_le_bytes()[..self.width()]);
                }
                w.write_all(&buf)?;
            }
            Ok(())
        })
    }

    /// Reads `len` values written by [`Sequence::write_le`] with `width` bytes each (1, 2 or
    /// 4; `None` for another width). Fails with the reader's error, e.g. on a short input.
    pub fn read_le(
        r: &mut dyn std::io::Read,
        width: usize,
        len: usize,
    ) -> Option<std::io::Result<Sequence>> {
        fn read<T: Cell>(
            r: &mut dyn std::io::Read,
            width: usize,
            len: usize,
        ) -> std::io::Result<Vec<T>> {
            let mut out: Vec<T> = Vec::new();
            out.try_reserve_exact(len)
                .map_err(|e| std::io::Error::new(std::io::ErrorKind::OutOfMemory, e))?;
            let mut buf = vec![0u8; width << 14];
            while out.len() < len {
                let k = (len - out.len()).min(1 << 14);
                r.read_exact(&mut buf[..k * width])?;
                out.extend(buf[..k * width].chunks_exact(width).map(|b| {
                    let mut x = [0u8; 4];
                    x[..width].copy_from_slice(b);
                    T::from_u32(u32::from_le_bytes(x))
                }));
            }
            Ok(out)
        }
        Some(match width {
            1 => read(r, 1, len).map(Sequence::U8),
            2 => read(r, 2, len).map(Sequence::U16),
            4 => read(r, 4, len).map(Sequence::U32),
            _ => return None,
        })
    }
}

testing_pub! {
    /// Which algorithm computes a sequence.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum SequenceEngine {
        /// The best engine for the rule ([`compute`]'s choice).
        Auto,
        /// Every option enumerated, then mex ([`mod@reference`]): slow, from the definition.
        Reference,
        /// Tight per-rule loops with bitset mex ([`naive`]).
        Naive,
        /// Rare/common value classes for two-heap splitting games ([`sparse`]).
        Sparse,
    }
}

/// G(0), ..., G(n-1) of `game`, by the engine best suited to it: the sparse-space engine for
/// take-and-break games that leave at most two heaps (and Grundy's game) beyond a few thousand
/// values, the naive engine otherwise. `Error::Limit` above [`MAX_LEN`] values.
///
/// G(n) = mex { G(h1) ⊕ ... ⊕ G(hk) : n → (h1, ..., hk) }: the options of a heap are sums of
/// smaller heaps (or of fewer tokens), whose values are known when G(n) is computed, and the
/// value of a sum is the nim-sum of its parts (Sprague-Grundy).
///
/// ```
/// use grundy::heap::{sequence, HeapGame};
/// let sub: HeapGame = "sub:1,2".parse()?;
/// // With moves {1, 2}, G(n) = n mod 3.
/// let g = sequence::compute(&sub, 7, &grundy::control::Control::none())?;
/// assert_eq!(g.to_vec(), [0, 1, 2, 0, 1, 2, 0]);
/// # Ok::<(), grundy::Error>(())
/// ```
pub fn compute(game: &HeapGame, n: u64, ctl: &Control) -> Result<Sequence> {
    compute_with(game, n, SequenceEngine::Auto, ctl)
}

testing_pub! {
    /// G(0), ..., G(n-1) of `rule` by a chosen engine (the sparse engine falls back to the naive one
    /// for rules it does not handle).
    pub fn compute_with(
        rule: &HeapGame,
        n: u64,
        engine: SequenceEngine,
        ctl: &Control,
    ) -> Result<Sequence> {
        extend_from(rule, Sequence::U8(Vec::new()), n, engine, ctl)
    }
}

/// Extends a sequence of `game` (as returned by [`compute`]) to G(0..n), reusing the values it
/// holds; returned unchanged if it already has `n` values or more.
pub fn extend(game: &HeapGame, seq: Sequence, n: u64, ctl: &Control) -> Result<Sequence> {
    extend_from(game, seq, n, SequenceEngine::Auto, ctl)
}

/// A hook called with the values computed so far, between two steps of a long computation
/// (see [`extend_saving`]); an error it returns stops the computation.
pub type SaveFn<'a> = dyn FnMut(&Sequence) -> Result<()> + 'a;

/// [`extend`] in steps, calling `saved` with the values so far after each step, so that a long
/// run can keep them (a checkpoint) and later resume from them with [`extend`]; the result is
/// the same as [`extend`]'s.
///
/// A step is a 32nd of the values so far, at least 2^20 and at most 2^24 values: the engines
/// rebuild their side tables from all the values at each start (linear time, a few nanoseconds
/// a value against the microsecond or so a value costs), so steps that grow with the length
/// keep that cost to a few percent.
pub fn extend_saving(
    rule: &HeapGame,
    mut seq: Sequence,
    n: u64,
    ctl: &Control,
    saved: &mut SaveFn<'_>,
) -> Result<Sequence> {
    check_len(rule, n)?;
    let _held = ctl.reserve(
        n.saturating_mul(seq.width() as u64),
        "the values of the sequence",
    )?;
    // One reservation for the whole run, so that the steps do not reallocate.
    let reserved =
        with_cells!(&mut seq, v => v.try_reserve_exact((n as usize).saturating_sub(v.len())));
    if reserved.is_err() {
        return Err(Error::limit(
            crate::LimitKind::Memory,
            format!("not enough memory for {n} values"),
            "ask for fewer values",
        ));
    }
    while (seq.len() as u64) < n {
        let len = seq.len() as u64;
        let step = (len / 32).clamp(1 << 20, 1 << 24);
        seq = extend(rule, seq, (len + step).min(n), ctl)?;
        saved(&seq)?;
    }
    Ok(seq)
}

/// Fails with a [`LimitKind::Length`](crate::LimitKind::Length) error when `n` values of `rule`
/// are more than a sequence holds: [`MAX_LEN`], and [`MAX_LEN_THREE_HEAPS`] for codes leaving
/// three heaps (whose cost grows as the square of `n`).
pub(crate) fn check_len(rule: &HeapGame, n: u64) -> Result<()> {
    if n > MAX_LEN {
        return Err(Error::limit(
            crate::LimitKind::Length,
            format!("{n} values asked, above the limit of {MAX_LEN} values per sequence"),
            "ask for fewer values",
        ));
    }
    if let GameSpec::TakeBreak(c) = rule.spec() {
        if c.max_heaps() == 3 && n > MAX_LEN_THREE_HEAPS {
            return Err(Error::limit(
                crate::LimitKind::Length,
                format!(
                    "{n} values of a game leaving three heaps asked, above the limit of \
                     {MAX_LEN_THREE_HEAPS} (the cost grows as the square of N)"
                ),
                "ask for fewer values",
            ));
        }
    }
    Ok(())
}

fn extend_from(
    rule: &HeapGame,
    seq: Sequence,
    n: u64,
    engine: SequenceEngine,
    ctl: &Control,
) -> Result<Sequence> {
    check_len(rule, n)?;
    let n = n as usize;
    if seq.len() >= n {
        return Ok(seq);
    }
    let engine = match engine {
        SequenceEngine::Auto if sparse::handles(rule) && n > 4096 => SequenceEngine::Sparse,
        SequenceEngine::Auto => SequenceEngine::Naive,
        SequenceEngine::Sparse if !sparse::handles(rule) => SequenceEngine::Naive,
        e => e,
    };
    let mut v16: Vec<u16> = match seq {
        Sequence::U8(mut v8) => {
            if run(engine, rule, &mut v8, n, ctl)? == Fill::Done {
                return Ok(Sequence::U8(v8));
            }
            widen(v8)
        }
        Sequence::U16(v) => v,
        Sequence::U32(v) => return finish32(engine, rule, v, n, ctl),
    };
    if run(engine, rule, &mut v16, n, ctl)? == Fill::Done {
        return Ok(Sequence::U16(v16));
    }
    finish32(engine, rule, widen(v16), n, ctl)
}

fn finish32(
    engine: SequenceEngine,
    rule: &HeapGame,
    mut v32: Vec<u32>,
    n: usize,
    ctl: &Control,
) -> Result<Sequence> {
    match run(engine, rule, &mut v32, n, ctl)? {
        Fill::Done => Ok(Sequence::U32(v32)),
        Fill::Overflow => Err(Error::limit(
            crate::LimitKind::Fixed,
            "a Grundy value does not fit in 32 bits",
            "values of 2^32 and above are not supported",
        )),
    }
}

fn widen<A: Cell, B: Cell>(v: Vec<A>) -> Vec<B> {
    let mut out = Vec::new();
    if out.try_reserve_exact(v.capacity()).is_err() {
        // Falls back to growing as needed; the engines report their own limits.
        out = Vec::new();
    }
    out.extend(v.into_iter().map(|x| B::from_u32(x.get())));
    out
}

fn run<T: Cell>(
    engine: SequenceEngine,
    rule: &HeapGame,
    values: &mut Vec<T>,
    n: usize,
    ctl: &Control,
) -> Result<Fill> {
    // The values are counted against the budget at their width (1, 2 or 4 bytes); the engines'
    // other tables grow with the values' size, not with n.
    let _bytes = ctl.reserve(
        (n as u64).saturating_mul(std::mem::size_of::<T>() as u64),
        "the sequence's values",
    )?;
    if values
        .try_reserve_exact(n.saturating_sub(values.len()))
        .is_err()
    {
        return Err(Error::limit(
            crate::LimitKind::Memory,
            format!("not enough memory for {n} values"),
            "ask for fewer values",
        ));
    }
    match engine {
        SequenceEngine::Reference => reference::extend(rule, values, n, ctl),
        SequenceEngine::Sparse => sparse::extend(rule, values, n, ctl),
        _ => naive::extend(rule, values, n, ctl),
    }
}

/// Appends `v` to `values` as a `T`, or reports that it does not fit.
#[inline(always)]
pub(crate) fn push<T: Cell>(values: &mut Vec<T>, v: u32) -> Option<Fill> {
    if v > T::MAX {
        return Some(Fill::Overflow);
    }
    values.push(T::from_u32(v));
    None
}

/// How often (in values) the engines check their [`Control`] (report progress, and stop if
/// asked to).
pub const PROGRESS_EVERY: usize = 1 << 14;
