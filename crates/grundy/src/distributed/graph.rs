//! The part of a graph that one rank holds: the vertices it owns, with their reverse arcs. The
//! graph file is read into parts by [`notation::graph_ranks`](crate::notation::graph_ranks), each
//! rank reading a byte range of the file, so that no rank holds the whole graph.

use crate::control::Reservation;

/// The vertices a rank owns, with their reverse arcs: the part of a graph file this rank holds.
#[derive(Debug)]
pub struct GraphPart {
    pub(crate) ranks: usize,
    pub(crate) names: Vec<Box<str>>,
    pub(crate) first: Vec<u64>,
    pub(crate) degree: Vec<u64>,
    pub(crate) pred_start: Vec<usize>,
    pub(crate) preds: Vec<u64>,
    pub(crate) total: (u64, u64),
    pub(crate) _held: Option<Reservation>,
}

/// Bytes a [`GraphPart`] takes: 32 bytes a vertex (offset of first appearance, out-degree,
/// reverse-arc start, the name's pointer) plus the name, and 8 bytes a reverse arc.
pub fn part_bytes(vertices: u64, name_bytes: u64, arcs: u64) -> u64 {
    40 * vertices + name_bytes + 8 * arcs
}

impl GraphPart {
    /// The number of vertices this rank owns.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// True if this rank owns no vertex.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The name of owned vertex `i`.
    pub fn name(&self, i: usize) -> &str {
        &self.names[i]
    }

    /// The byte offset of the first appearance of owned vertex `i` in the file.
    pub fn first(&self, i: usize) -> u64 {
        self.first[i]
    }

    /// The out-degree of owned vertex `i`.
    #[inline]
    pub fn out_degree(&self, i: usize) -> u64 {
        self.degree[i]
    }

    /// The predecessors of owned vertex `i` (global ids: `index·K + owner`), with multiplicity.
    #[inline]
    pub fn predecessors(&self, i: usize) -> &[u64] {
        &self.preds[self.pred_start[i]..self.pred_start[i + 1]]
    }

    /// The reverse arcs held here (arcs into owned vertices).
    pub fn arc_count(&self) -> usize {
        self.preds.len()
    }

    /// The vertices and arcs of the whole graph.
    pub fn totals(&self) -> (u64, u64) {
        self.total
    }

    /// The global id of owned vertex `i` on rank `rank`.
    pub fn gid(&self, i: usize, rank: usize) -> u64 {
        i as u64 * self.ranks as u64 + rank as u64
    }
}
