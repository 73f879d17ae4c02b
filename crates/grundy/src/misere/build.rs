//! The construction of `Q_N`, heap by heap, and its check.
//!
//! **Stage n.** Suppose the quotient `Q = Q_{n-1}` of the closure of heaps `1..n-1` is known,
//! with, for every element `a`, a representative `y_a` of least total size (the sum of its heap
//! sizes) and the set `opts(a)` of the classes of the options of `y_a`. Every position of the
//! closure of heaps `1..n` is `y + k·[n]` with `y` in the old closure. As in Plambeck and
//! Siegel's construction, the outcome of `y + k·[n]` is taken to depend only on the class `a`
//! of `y` and on `k` (old classes persist when a heap whose options lie in the old closure is
//! adjoined); write `o(a, k)` for it. Then, for `k >= 1`, `y_a + k·[n]` is P exactly when
//! every option is N:
//!
//! - the moves inside `y_a` lead to `(b, k)` for `b` in `opts(a)`, and `y_b` is smaller than
//!   `y_a`, so `o(b, k)` is known when the elements are taken by increasing size;
//! - the moves in one copy of heap `n` lead to `(a·φ(o), k-1)` for each option `o` of heap `n`.
//!
//! So the column `o(·, k)` is a function of the column `o(·, k-1)`: once a column repeats, the
//! columns are periodic from there on, with preperiod `m` and period `p`. Two pairs are
//! indistinguishable exactly when `o(a·c, k+j) = o(b·c, l+j)` for every element `c` and every
//! `j` (the exponents reduced by the period), which is the definition of `≡` on the new closure;
//! their classes are the elements of `Q_n`, multiplied as `(a, k)(b, l) = (ab, k + l)`.
//!
//! **Check.** A bipartite monoid with a map from the heaps is the quotient when, for every
//! position `x`, `φ(x)` is a P-element exactly when `x` has a move and no option of `x` maps
//! into the P-portion (Plambeck and Siegel). After every stage this is checked on every
//! position `y_c + [h]`, `y_c` the least representative of an element `c` and `h` any heap
//! with moves: the options of `y_c` are known as classes, those of `[h]` from the rule. (For
//! `c` the condition includes: if `c·φ(h)` is a P-element, no option `o` of `h` has `c·φ(o)` in
//! the P-portion.) The check runs after every stage.
//! A violation means that a class of `Q_{n-1}` splits once heap `n` is adjoined (in Kayles,
//! `[5] + [5] ≡ 0` over heaps up to 8, but `[5] + [5] + [9]` is an N-position while `[9]` is a
//! P-position): the construction then stops, and the quotient holds for heaps up to `n - 1`.

use super::MAX_EXPONENT;
use crate::control::Control;
use crate::error::{Error, Result};
use crate::heap::rule::Options;
use crate::heap::HeapGame;
use std::collections::HashMap;

/// The quotient of the closure of heaps `0..=n`, with the data the next stage needs.
#[derive(Clone)]
pub(crate) struct Stage {
    /// |Q|.
    pub q: usize,
    /// The multiplication table, `q × q`, row-major.
    pub mul: Vec<u32>,
    /// Membership of the P-portion.
    pub p: Vec<bool>,
    /// The element of each heap size processed so far (heap 0 is the identity, 0).
    pub heap_map: Vec<u32>,
    /// The total size of each element's least representative.
    size: Vec<u64>,
    /// The classes of the options of each element's least representative.
    rep_opts: Vec<Vec<u32>>,
}

impl Stage {
    /// The quotient of the closure of the empty heap alone: the trivial monoid {1}, whose one
    /// element (the empty sum, a misère N-position) is not in the P-portion.
    pub fn trivial() -> Stage {
        Stage {
            q: 1,
            mul: vec![0],
            p: vec![false],
            heap_map: vec![0],
            size: vec![0],
            rep_opts: vec![vec![]],
        }
    }

    #[inline]
    pub fn m(&self, a: u32, b: u32) -> u32 {
        self.mul[a as usize * self.q + b as usize]
    }

    /// The element of the sum of `heaps` (each already mapped).
    fn image(&self, heaps: &[u64]) -> u32 {
        heaps.iter().fold(0, |acc, &h| {
            if h == 0 {
                acc
            } else {
                self.m(acc, self.heap_map[h as usize])
            }
        })
    }

    /// Adjoins heap `n = self.heap_map.len()`; at most `max_order` elements.
    pub fn adjoin(
        &mut self,
        game: &HeapGame,
        opts: &mut Options,
        max_order: usize,
        ctl: &Control,
    ) -> Result<()> {
        let n = self.heap_map.len() as u64;
        opts.clear();
        game.heap_options(n, opts)?;
        let mut g_opts: Vec<u32> = Vec::new();
        for o in opts.iter() {
            if let Some(&h) = o.iter().find(|&&h| h >= n) {
                return Err(Error::invalid(format!(
                    "heap {n} has an option with a heap of {h}: misère quotients are built for \
                     games whose moves leave only smaller heaps"
                )));
            }
            g_opts.push(self.image(o));
        }
        g_opts.sort_unstable();
        g_opts.dedup();
        if opts.is_empty() {
            // A heap without moves is the game 0.
            self.heap_map.push(0);
            return Ok(());
        }
        let q = self.q;
        let mut by_size: Vec<u32> = (0..q as u32).collect();
        by_size.sort_by_key(|&a| self.size[a as usize]);
        // Columns o(·, k) (true: P), until one repeats.
        let mut cols: Vec<Vec<bool>> = vec![self.p.clone()];
        let mut seen: HashMap<Vec<bool>, usize> = HashMap::new();
        seen.insert(self.p.clone(), 0);
        let mut _cols_mem = ctl.reserve(q as u64, "misère quotient columns")?;
        let (pre, per) = loop {
            ctl.stop_check()?;
            let k = cols.len();
            if k > MAX_EXPONENT {
                return Err(Error::limit(
                    crate::LimitKind::Positions,
                    format!("copies of heap {n} kept changing outcomes for {MAX_EXPONENT} copies"),
                    "use a smaller --max-heap",
                ));
            }
            let prev = &cols[k - 1];
            let mut col = vec![false; q];
            for &a in &by_size {
                let a = a as usize;
                col[a] = self.rep_opts[a].iter().all(|&b| !col[b as usize])
                    && g_opts.iter().all(|&g| !prev[self.m(a as u32, g) as usize]);
            }
            if let Some(&m) = seen.get(&col) {
                break (m, k - m);
            }
            _cols_mem.grow(q as u64, "misère quotient columns")?;
            seen.insert(col.clone(), k);
            cols.push(col);
        };
        let len = pre + per;
        let red = |e: usize| if e < len { e } else { pre + (e - pre) % per };
        // Signatures of the pairs (a, k): bit (c, j) is o(a·c, k + j).
        let pairs = q * len;
        let words = pairs.div_ceil(64);
        let _sig_mem = ctl.reserve(
            (pairs * words * 8 + pairs * 16) as u64,
            "misère quotient signatures",
        )?;
        let mut order: Vec<usize> = (0..pairs).collect();
        order.sort_by_key(|&i| (self.size[i / len] + (i % len) as u64 * n, i));
        let mut class_of_sig: HashMap<Vec<u64>, u32> = HashMap::new();
        let mut cls = vec![0u32; pairs];
        let mut reps: Vec<usize> = Vec::new();
        for &i in &order {
            ctl.tick()?;
            let (a, k) = ((i / len) as u32, i % len);
            let mut sig = vec![0u64; words];
            for c in 0..q {
                let ac = self.m(a, c as u32) as usize;
                for j in 0..len {
                    if cols[red(k + j)][ac] {
                        let bit = c * len + j;
                        sig[bit / 64] |= 1 << (bit % 64);
                    }
                }
            }
            let next = reps.len() as u32;
            let c = *class_of_sig.entry(sig).or_insert(next);
            if c == next {
                reps.push(i);
                if reps.len() > max_order {
                    return Err(Error::limit(
                        crate::LimitKind::Positions,
                        format!(
                            "the misère quotient has more than {max_order} elements once heap \
                             {n} is adjoined"
                        ),
                        "use a smaller --max-heap",
                    ));
                }
            }
            cls[i] = c;
        }
        let nq = reps.len();
        let _mul_mem = ctl.reserve((nq * nq * 4) as u64, "misère quotient table")?;
        let pair = |a: u32, k: usize| cls[a as usize * len + k];
        let mut mul = vec![0u32; nq * nq];
        for (x, &rx) in reps.iter().enumerate() {
            for (y, &ry) in reps.iter().enumerate() {
                let (a, k) = ((rx / len) as u32, rx % len);
                let (b, l) = ((ry / len) as u32, ry % len);
                mul[x * nq + y] = pair(self.m(a, b), red(k + l));
            }
        }
        let p = reps.iter().map(|&r| cols[r % len][r / len]).collect();
        let size = reps
            .iter()
            .map(|&r| self.size[r / len] + (r % len) as u64 * n)
            .collect();
        let rep_opts = reps
            .iter()
            .map(|&r| {
                let (a, k) = ((r / len) as u32, r % len);
                let mut v: Vec<u32> = self.rep_opts[a as usize]
                    .iter()
                    .map(|&b| pair(b, k))
                    .collect();
                if k >= 1 {
                    v.extend(g_opts.iter().map(|&g| pair(self.m(a, g), k - 1)));
                }
                v.sort_unstable();
                v.dedup();
                v
            })
            .collect();
        let mut heap_map: Vec<u32> = self.heap_map.iter().map(|&e| pair(e, 0)).collect();
        heap_map.push(pair(0, red(1)));
        *self = Stage {
            q: nq,
            mul,
            p,
            heap_map,
            size,
            rep_opts,
        };
        Ok(())
    }

    /// Checks the criterion described in the module documentation on every position
    /// `y_c + [h]`, `y_c` the least representative of an element `c` and `h` a heap with moves
    /// (`Err(Error::Invalid)` naming the failure).
    pub fn check(&self, game: &HeapGame, opts: &mut Options, ctl: &Control) -> Result<()> {
        if self.p[0] {
            return Err(Error::Internal(
                "misère quotient: the empty sum is in the P-portion".into(),
            ));
        }
        for h in 1..self.heap_map.len() as u64 {
            opts.clear();
            game.heap_options(h, opts)?;
            if opts.is_empty() {
                continue;
            }
            let mut imgs: Vec<u32> = opts.iter().map(|o| self.image(o)).collect();
            imgs.sort_unstable();
            imgs.dedup();
            let gh = self.heap_map[h as usize];
            for c in 0..self.q as u32 {
                ctl.tick()?;
                let said = self.p[self.m(c, gh) as usize];
                let in_rep = self.rep_opts[c as usize]
                    .iter()
                    .find(|&&b| self.p[self.m(b, gh) as usize]);
                let in_heap = imgs.iter().find(|&&g| self.p[self.m(c, g) as usize]);
                let follows = in_rep.is_none() && in_heap.is_none();
                if said != follows {
                    let why = match (in_rep, in_heap) {
                        (Some(b), _) => format!("its option of element {b} + heap {h} is P"),
                        (None, Some(g)) => format!("its option of element {c} times {g} is P"),
                        (None, None) => "none of its options is P".to_string(),
                    };
                    return Err(Error::invalid(format!(
                        "the least representative of element {c} plus heap {h} is said to be \
                         {}, but {why}",
                        if said { "P" } else { "N" }
                    )));
                }
            }
        }
        Ok(())
    }
}
