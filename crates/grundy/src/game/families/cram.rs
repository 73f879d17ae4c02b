//! Cram: dominoes placed on a board of free and blocked cells. A move fills two orthogonally
//! adjacent free cells; the player who cannot move loses (normal play).
//!
//! **Components.** A move touches only cells of one connected region of free cells, so a
//! board is the disjunctive sum of its regions (4-connected sets of free cells) and its value
//! the xor of theirs. A region of one cell has no move and is dropped. Each region is cropped
//! to its bounding box before it is stored.
//!
//! **Symmetry.** The eight symmetries of the square (four rotations, four reflections) map a
//! board to one with the same game graph. The canonical form is the least of the eight images,
//! compared as `(rows, columns, cells)`.
//!
//! **Known values.** A 1×n strip is Dawson's Kayles (`octal:0.07`): a domino takes two adjacent
//! cells of a row, leaving the two sides. Boards with both sides even are P (the second player
//! answers each move by its image through the centre); boards with one side even and one odd
//! are N (the first player takes the two central cells, then mirrors).

use crate::error::Result;
use crate::game::Described;

/// A Cram board: `rows × cols` cells, a set bit in `free` (bit `r * cols + c`) for a free cell.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    rows: u16,
    cols: u16,
    free: Vec<u64>,
}

/// The most cells a board may have (the options of a position are held while it is searched:
/// about `2 · cells` boards of `cells / 8` bytes).
pub const MAX_CELLS: usize = 1 << 12;

impl Board {
    /// An empty board (all cells free) of `rows × cols`, or `None` beyond [`MAX_CELLS`].
    pub fn empty(rows: usize, cols: usize) -> Option<Board> {
        let mut b = Board::blocked(rows, cols)?;
        for i in 0..rows * cols {
            b.set(i, true);
        }
        Some(b)
    }

    /// A board of `rows × cols` blocked cells, or `None` beyond [`MAX_CELLS`].
    pub fn blocked(rows: usize, cols: usize) -> Option<Board> {
        if rows.checked_mul(cols)? > MAX_CELLS
            || rows > u16::MAX as usize
            || cols > u16::MAX as usize
        {
            return None;
        }
        Some(Board {
            rows: rows as u16,
            cols: cols as u16,
            free: vec![0; (rows * cols).div_ceil(64)],
        })
    }

    /// The number of rows.
    pub fn rows(&self) -> usize {
        self.rows as usize
    }

    /// The number of columns.
    pub fn cols(&self) -> usize {
        self.cols as usize
    }

    /// Whether cell `(r, c)` is free.
    pub fn is_free(&self, r: usize, c: usize) -> bool {
        self.get(r * self.cols() + c)
    }

    /// Frees (`true`) or blocks cell `(r, c)`.
    pub fn set_cell(&mut self, r: usize, c: usize, free: bool) {
        let i = r * self.cols() + c;
        self.set(i, free);
    }

    fn get(&self, i: usize) -> bool {
        self.free[i / 64] >> (i % 64) & 1 == 1
    }

    fn set(&mut self, i: usize, free: bool) {
        if free {
            self.free[i / 64] |= 1 << (i % 64);
        } else {
            self.free[i / 64] &= !(1 << (i % 64));
        }
    }

    /// Every domino placement: pairs of cells `((r, c), (r', c'))`, horizontal then vertical
    /// for each cell in reading order.
    pub fn dominoes(&self) -> Vec<((usize, usize), (usize, usize))> {
        let mut out = Vec::new();
        for r in 0..self.rows() {
            for c in 0..self.cols() {
                if !self.is_free(r, c) {
                    continue;
                }
                if c + 1 < self.cols() && self.is_free(r, c + 1) {
                    out.push(((r, c), (r, c + 1)));
                }
                if r + 1 < self.rows() && self.is_free(r + 1, c) {
                    out.push(((r, c), (r + 1, c)));
                }
            }
        }
        out
    }

    /// The board with the cells `a` and `b` filled.
    pub fn place(&self, a: (usize, usize), b: (usize, usize)) -> Board {
        let mut after = self.clone();
        after.set_cell(a.0, a.1, false);
        after.set_cell(b.0, b.1, false);
        after
    }

    /// The image of the board under symmetry `t` (0..8): bit 0 mirrors the columns, bit 1
    /// mirrors the rows, bit 2 transposes (applied last).
    fn transformed(&self, t: u8) -> Board {
        let (h, w) = (self.rows(), self.cols());
        let (nh, nw) = if t & 4 != 0 { (w, h) } else { (h, w) };
        let mut out = Board {
            rows: nh as u16,
            cols: nw as u16,
            free: vec![0; self.free.len()],
        };
        for r in 0..h {
            for c in 0..w {
                if self.is_free(r, c) {
                    let c1 = if t & 1 != 0 { w - 1 - c } else { c };
                    let r1 = if t & 2 != 0 { h - 1 - r } else { r };
                    let (r2, c2) = if t & 4 != 0 { (c1, r1) } else { (r1, c1) };
                    out.set_cell(r2, c2, true);
                }
            }
        }
        out
    }

    /// The sub-board of rows `r0..r1` and columns `c0..c1` holding only the cells of `cells`.
    fn crop(&self, cells: &[(usize, usize)]) -> Board {
        let r0 = cells.iter().map(|x| x.0).min().unwrap_or(0);
        let r1 = cells.iter().map(|x| x.0).max().map_or(0, |r| r + 1);
        let c0 = cells.iter().map(|x| x.1).min().unwrap_or(0);
        let c1 = cells.iter().map(|x| x.1).max().map_or(0, |c| c + 1);
        let mut out = Board {
            rows: (r1 - r0) as u16,
            cols: (c1 - c0) as u16,
            free: vec![0; ((r1 - r0) * (c1 - c0)).div_ceil(64)],
        };
        for &(r, c) in cells {
            out.set_cell(r - r0, c - c0, true);
        }
        out
    }
}

impl std::fmt::Display for Board {
    /// The `cram:ROWS` notation: rows separated by `/`, `.` free, `#` blocked.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("cram:")?;
        for r in 0..self.rows() {
            if r > 0 {
                f.write_str("/")?;
            }
            for c in 0..self.cols() {
                f.write_str(if self.is_free(r, c) { "." } else { "#" })?;
            }
        }
        Ok(())
    }
}

/// The family of Cram boards.
#[derive(Clone, Copy, Debug, Default)]
pub struct Cram;

impl crate::Game for Cram {
    type Position = Board;
    fn options(&self, p: &Board, out: &mut Vec<Board>) -> crate::error::Result<()> {
        out.extend(p.dominoes().into_iter().map(|(a, b)| p.place(a, b)));
        Ok(())
    }
}

impl crate::game::Components for Cram {
    /// The regions of free cells with at least two cells (flood fill), each cropped.
    fn split(&self, p: &Board, out: &mut Vec<Board>) -> Result<()> {
        let (h, w) = (p.rows(), p.cols());
        let mut seen = vec![false; h * w];
        let mut stack = Vec::new();
        for start in 0..h * w {
            if seen[start] || !p.get(start) {
                continue;
            }
            seen[start] = true;
            stack.push(start);
            let mut cells = Vec::new();
            while let Some(i) = stack.pop() {
                let (r, c) = (i / w, i % w);
                cells.push((r, c));
                let mut visit = |j: usize| {
                    if !seen[j] && p.get(j) {
                        seen[j] = true;
                        stack.push(j);
                    }
                };
                if c > 0 {
                    visit(i - 1);
                }
                if c + 1 < w {
                    visit(i + 1);
                }
                if r > 0 {
                    visit(i - w);
                }
                if r + 1 < h {
                    visit(i + w);
                }
            }
            if cells.len() >= 2 {
                out.push(p.crop(&cells));
            }
        }
        Ok(())
    }
}

impl crate::game::Canonical for Cram {
    fn canonical(&self, p: &Board) -> Result<Board> {
        Ok((1..8)
            .map(|t| p.transformed(t))
            .fold(p.clone(), |best, b| best.min(b)))
    }
}

impl crate::game::Show for Cram {
    fn show(&self, p: &Board) -> Result<String> {
        Ok(p.to_string())
    }

    /// A move is named by its two cells, `(row,column)-(row,column)`, 1-based from the top left.
    fn described_moves(&self, p: &Board) -> Result<Vec<Described<Board>>> {
        Ok(p.dominoes()
            .into_iter()
            .map(|(a, b)| {
                let after = p.place(a, b);
                (
                    format!("({},{})-({},{})", a.0 + 1, a.1 + 1, b.0 + 1, b.1 + 1),
                    after.to_string(),
                    after,
                )
            })
            .collect())
    }
}

impl crate::game::Footprint for Cram {
    /// The free cells.
    fn size(&self, p: &Board) -> usize {
        p.free.iter().map(|w| w.count_ones() as usize).sum()
    }

    fn bytes(&self, p: &Board) -> usize {
        std::mem::size_of::<Board>() + 8 * p.free.len()
    }
}

testing_pub! {
    /// Cram straight from the definition, on a grid of booleans.
    pub mod reference {
        use std::collections::HashMap;

        /// The Grundy value of the grid (`true` = free), by `mex` over every domino placement.
        pub fn value(grid: &[Vec<bool>], memo: &mut HashMap<Vec<Vec<bool>>, u64>) -> u64 {
            if let Some(&v) = memo.get(grid) {
                return v;
            }
            let mut seen = Vec::new();
            for r in 0..grid.len() {
                for c in 0..grid[r].len() {
                    for (dr, dc) in [(0, 1), (1, 0)] {
                        let (r2, c2) = (r + dr, c + dc);
                        if r2 < grid.len() && c2 < grid[r].len() && grid[r][c] && grid[r2][c2] {
                            let mut after = grid.to_vec();
                            after[r][c] = false;
                            after[r2][c2] = false;
                            seen.push(value(&after, memo));
                        }
                    }
                }
            }
            let v = crate::game::mex(&seen, &mut Vec::new());
            memo.insert(grid.to_vec(), v);
            v
        }
    }
}

/// The rows, the columns, then the words of free cells.
impl crate::game::Encoding for Cram {
    fn encode(&self, p: &Board, out: &mut Vec<u8>) {
        crate::varint::put(out, u64::from(p.rows));
        crate::varint::put(out, u64::from(p.cols));
        for &w in &p.free {
            crate::varint::put(out, w);
        }
    }

    fn decode(&self, bytes: &[u8]) -> Result<Board> {
        crate::varint::decode_all(bytes, |r| {
            let bad = || crate::Error::Internal("a malformed Cram board".into());
            let rows = usize::try_from(r.get()?).map_err(|_| bad())?;
            let cols = usize::try_from(r.get()?).map_err(|_| bad())?;
            let mut b = Board::blocked(rows, cols).ok_or_else(bad)?;
            for w in &mut b.free {
                *w = r.get()?;
            }
            Ok(b)
        })
    }
}
