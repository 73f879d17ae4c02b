//! Sums of heaps of a [`HeapGame`] as positions of the search engine: a position is the
//! multiset of its heaps (ascending, empty heaps left out), and its components are the heaps,
//! so each heap's value is searched once and cached under the heap size.
//!
//! This gives the engine's answer for the same sums that
//! [`heap::position`](crate::heap::position) solves from Grundy sequences; the tests compare
//! the two on random sums.

use super::Family;
use crate::error::Result;
use crate::heap::rule::Options;
use crate::heap::HeapGame;

/// Sums of heaps of one heap game.
#[derive(Debug)]
pub struct HeapSum<'g> {
    game: &'g HeapGame,
}

impl<'g> HeapSum<'g> {
    /// The sums of heaps of `game`.
    pub fn new(game: &'g HeapGame) -> HeapSum<'g> {
        HeapSum { game }
    }
}

impl Family for HeapSum<'_> {
    /// The heaps, ascending, without empty heaps ([`HeapGame::position`]).
    type Position = Vec<u64>;

    fn moves(&self, p: &Vec<u64>, out: &mut Vec<Vec<u64>>) -> Result<()> {
        let mut options = Options::new();
        for (i, &h) in p.iter().enumerate() {
            if i > 0 && p[i - 1] == h {
                continue;
            }
            options.clear();
            self.game.heap_options(h, &mut options)?;
            for heaps in options.iter() {
                let mut q: Vec<u64> = p[..i].iter().chain(&p[i + 1..]).copied().collect();
                q.extend_from_slice(heaps);
                out.push(HeapGame::position(&q));
            }
        }
        Ok(())
    }

    /// One component a heap.
    fn split(&self, p: &Vec<u64>, out: &mut Vec<Vec<u64>>) -> Result<()> {
        out.extend(p.iter().map(|&h| vec![h]));
        Ok(())
    }

    fn canonical(&self, p: &Vec<u64>) -> Result<Vec<u64>> {
        Ok(HeapGame::position(p))
    }

    fn show(&self, p: &Vec<u64>) -> Result<String> {
        let heaps: Vec<String> = p.iter().map(u64::to_string).collect();
        Ok(format!("[{}]", heaps.join(" ")))
    }

    /// The tokens (saturating).
    fn size(&self, p: &Vec<u64>) -> usize {
        p.iter().fold(0usize, |s, &h| {
            s.saturating_add(usize::try_from(h).unwrap_or(usize::MAX))
        })
    }

    fn bytes(&self, p: &Vec<u64>) -> usize {
        std::mem::size_of::<Vec<u64>>() + 8 * p.len()
    }
}

/// The number of heaps, then the heaps.
impl super::Encoding for HeapSum<'_> {
    fn encode(&self, p: &Vec<u64>, out: &mut Vec<u8>) {
        super::put(out, p.len() as u64);
        for &h in p {
            super::put(out, h);
        }
    }

    fn decode(&self, bytes: &[u8]) -> Result<Vec<u64>> {
        super::decode_with(bytes, |r| {
            let n = r.get()?;
            (0..n).map(|_| r.get()).collect()
        })
    }
}
