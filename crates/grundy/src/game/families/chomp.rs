//! Chomp: a board of cells in rows, bottom row first, each row no longer than the one below
//! (a Young diagram with the poisoned corner at the bottom left). A move takes a cell `(r, c)`
//! with every cell above and to the right of it: rows `r, r+1, …` are cut to length `c`. The
//! poisoned corner `(0, 0)` cannot be taken, so the position holding only the corner is
//! terminal (the player to move, who would have to eat the poison, loses under normal play).
//!
//! **Symmetry.** Reflecting the board in its diagonal (the conjugate partition: column `j` has
//! `#{i : rows[i] > j}` cells) maps moves to moves and keeps the corner, so a position and its
//! transpose have equal values; the canonical form is the lesser of the two.
//!
//! **Strategy stealing.** Every rectangle other than 1×1 is an N-position: if taking the top
//! right cell lost, the reply winning against it would already have been available as a first
//! move (it takes that cell too). The argument gives no move; the search finds one.

use crate::error::Result;
use crate::game::Described;

/// A Chomp position: row lengths, bottom row first, non-increasing, every row non-empty; the
/// first row holds the poisoned corner, so it is never empty.
pub type Rows = Vec<u32>;

/// The family of Chomp positions.
#[derive(Clone, Copy, Debug, Default)]
pub struct Chomp;

/// The full `r × c` rectangle (`r` rows of `c` cells); `r, c >= 1`.
pub fn rectangle(r: u32, c: u32) -> Rows {
    vec![c; r as usize]
}

/// The transpose of `rows` (the conjugate partition).
pub fn transpose(rows: &[u32]) -> Rows {
    let width = rows.first().copied().unwrap_or(0);
    (0..width)
        .map(|j| rows.iter().take_while(|&&len| len > j).count() as u32)
        .collect()
}

/// The position after taking cell `(r, c)` (0-based; `c < rows[r]`, not the corner).
pub fn take(rows: &[u32], r: usize, c: u32) -> Rows {
    let mut after: Rows = rows.to_vec();
    for len in &mut after[r..] {
        *len = (*len).min(c);
    }
    while after.last() == Some(&0) {
        after.pop();
    }
    after
}

impl crate::Game for Chomp {
    type Position = Rows;
    fn options(&self, p: &Rows, out: &mut Vec<Rows>) -> crate::error::Result<()> {
        for (r, &len) in p.iter().enumerate() {
            for c in u32::from(r == 0)..len {
                out.push(take(p, r, c));
            }
        }
        Ok(())
    }
}

impl crate::game::Components for Chomp {}

impl crate::game::Canonical for Chomp {
    fn canonical(&self, p: &Rows) -> Result<Rows> {
        let t = transpose(p);
        Ok(if t < *p { t } else { p.clone() })
    }
}

impl crate::game::Show for Chomp {
    fn show(&self, p: &Rows) -> Result<String> {
        let rows: Vec<String> = p.iter().map(u32::to_string).collect();
        Ok(format!("chomp:{}", rows.join(",")))
    }

    /// A move is named by the cell taken, `(row,column)`, 1-based from the poisoned corner.
    fn described_moves(&self, p: &Rows) -> Result<Vec<Described<Rows>>> {
        let mut out = Vec::new();
        for (r, &len) in p.iter().enumerate() {
            for c in u32::from(r == 0)..len {
                let after = take(p, r, c);
                out.push((format!("({},{})", r + 1, c + 1), self.show(&after)?, after));
            }
        }
        Ok(out)
    }
}

impl crate::game::Footprint for Chomp {
    /// The cells.
    fn size(&self, p: &Rows) -> usize {
        p.iter().map(|&r| r as usize).sum()
    }

    fn bytes(&self, p: &Rows) -> usize {
        std::mem::size_of::<Rows>() + 4 * p.len()
    }
}

testing_pub! {
    /// Chomp straight from the definition: the board as a set of cells, a move removes every
    /// cell `(i, j)` with `i >= r` and `j >= c`.
    pub mod reference {
        use std::collections::{BTreeSet, HashMap};

        /// The Grundy value of the board whose cells are `cells` (which must hold the corner).
        pub fn value(cells: &BTreeSet<(u32, u32)>, memo: &mut HashMap<BTreeSet<(u32, u32)>, u64>) -> u64 {
            if let Some(&v) = memo.get(cells) {
                return v;
            }
            let mut seen = Vec::new();
            for &(r, c) in cells.iter().filter(|&&cell| cell != (0, 0)) {
                let after: BTreeSet<(u32, u32)> =
                    cells.iter().copied().filter(|&(i, j)| i < r || j < c).collect();
                seen.push(value(&after, memo));
            }
            let v = crate::game::mex(&seen, &mut Vec::new());
            memo.insert(cells.clone(), v);
            v
        }

        /// The cells of a board given by row lengths.
        pub fn cells(rows: &[u32]) -> BTreeSet<(u32, u32)> {
            rows.iter()
                .enumerate()
                .flat_map(|(r, &len)| (0..len).map(move |c| (r as u32, c)))
                .collect()
        }
    }
}

/// The number of rows, then each row's length.
impl crate::game::Encoding for Chomp {
    fn encode(&self, p: &Rows, out: &mut Vec<u8>) {
        crate::varint::put(out, p.len() as u64);
        for &r in p {
            crate::varint::put(out, u64::from(r));
        }
    }

    fn decode(&self, bytes: &[u8]) -> Result<Rows> {
        crate::varint::decode_all(bytes, |r| {
            let n = r.get()?;
            (0..n)
                .map(|_| {
                    u32::try_from(r.get()?)
                        .map_err(|_| crate::Error::Internal("a Chomp row above 2^32".into()))
                })
                .collect()
        })
    }
}
