//! Node-Kayles: a move deletes a vertex of an undirected graph together with its neighbours;
//! the player who cannot move (the graph is empty) loses.
//!
//! **Components.** A move touches one connected component only (a vertex and its neighbours
//! lie in one component), so a graph is the disjunctive sum of its components, and its value
//! the xor of theirs. On a path of `n` vertices a move deletes one, two or three consecutive
//! vertices and leaves the two sides: Dawson's Chess, `octal:0.137`.
//!
//! **Isomorphism.** Isomorphic graphs have equal values. The canonical form relabels the
//! vertices by colour refinement (1-dimensional Weisfeiler-Leman: start from degrees,
//! repeatedly recolour each vertex by its colour and the multiset of its neighbours' colours
//! until the partition is stable); the colours are invariant under isomorphism. When the
//! orderings that respect the colour classes are few (at most [`MAX_ORDERINGS`]), all are tried
//! and the least adjacency matrix is kept: an exact canonical labelling. Otherwise ties are
//! broken by the current labels: still an isomorphic graph (so the search stays right), though
//! two isomorphic graphs may then be stored twice.

use crate::error::Result;
use crate::game::Described;

/// The most vertices a graph may have (the options of a position are held while it is
/// searched: `n` graphs of `n² / 8` bytes).
pub const MAX_VERTICES: usize = 512;

/// The most colour-respecting orderings tried for an exact canonical labelling.
pub const MAX_ORDERINGS: usize = 720;

/// A simple undirected graph on vertices `0..n`, adjacency as bit rows.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BitGraph {
    n: u32,
    adj: Vec<u64>,
}

impl BitGraph {
    /// `n` vertices and no edge, or `None` beyond [`MAX_VERTICES`].
    pub fn empty(n: usize) -> Option<BitGraph> {
        (n <= MAX_VERTICES).then(|| BitGraph {
            n: n as u32,
            adj: vec![0; n * n.div_ceil(64)],
        })
    }

    /// The graph on `n` vertices with the edges `edges` (self-loops ignored), or `None` beyond
    /// [`MAX_VERTICES`] or for an endpoint `>= n`.
    pub fn from_edges(n: usize, edges: &[(usize, usize)]) -> Option<BitGraph> {
        let mut g = BitGraph::empty(n)?;
        for &(u, v) in edges {
            if u >= n || v >= n {
                return None;
            }
            if u != v {
                g.add_edge(u, v);
            }
        }
        Some(g)
    }

    /// The path `0 - 1 - … - (n-1)`.
    pub fn path(n: usize) -> Option<BitGraph> {
        let edges: Vec<_> = (1..n).map(|i| (i - 1, i)).collect();
        BitGraph::from_edges(n, &edges)
    }

    /// The cycle on `n` vertices (a path for `n < 3`).
    pub fn cycle(n: usize) -> Option<BitGraph> {
        let mut edges: Vec<_> = (1..n).map(|i| (i - 1, i)).collect();
        if n >= 3 {
            edges.push((n - 1, 0));
        }
        BitGraph::from_edges(n, &edges)
    }

    /// The `r × c` grid graph, vertex `i * c + j` at row `i`, column `j`.
    pub fn grid(r: usize, c: usize) -> Option<BitGraph> {
        let n = r.checked_mul(c)?;
        let mut edges = Vec::new();
        for i in 0..r {
            for j in 0..c {
                if j + 1 < c {
                    edges.push((i * c + j, i * c + j + 1));
                }
                if i + 1 < r {
                    edges.push((i * c + j, (i + 1) * c + j));
                }
            }
        }
        BitGraph::from_edges(n, &edges)
    }

    /// The number of vertices.
    pub fn len(&self) -> usize {
        self.n as usize
    }

    /// Whether the graph has no vertex.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    fn words(&self) -> usize {
        self.len().div_ceil(64)
    }

    fn row(&self, u: usize) -> &[u64] {
        let w = self.words();
        &self.adj[u * w..(u + 1) * w]
    }

    /// Whether `u` and `v` are adjacent.
    pub fn has_edge(&self, u: usize, v: usize) -> bool {
        self.row(u)[v / 64] >> (v % 64) & 1 == 1
    }

    fn add_edge(&mut self, u: usize, v: usize) {
        let w = self.words();
        self.adj[u * w + v / 64] |= 1 << (v % 64);
        self.adj[v * w + u / 64] |= 1 << (u % 64);
    }

    /// The neighbours of `u`, ascending.
    pub fn neighbours(&self, u: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.len()).filter(move |&v| self.has_edge(u, v))
    }

    /// The subgraph induced by the vertices `keep`, vertex `keep[i]` relabelled `i`.
    pub fn induced(&self, keep: &[usize]) -> BitGraph {
        let mut g = BitGraph {
            n: keep.len() as u32,
            adj: vec![0; keep.len() * keep.len().div_ceil(64)],
        };
        for (i, &u) in keep.iter().enumerate() {
            for (j, &v) in keep.iter().enumerate().skip(i + 1) {
                if self.has_edge(u, v) {
                    g.add_edge(i, j);
                }
            }
        }
        g
    }

    /// The vertices left after deleting `v` and its neighbours.
    pub fn after_taking(&self, v: usize) -> Vec<usize> {
        (0..self.len())
            .filter(|&u| u != v && !self.has_edge(u, v))
            .collect()
    }

    /// The stable colouring of colour refinement: `colour[v]`, colours `0..k` numbered in the
    /// order of their (isomorphism-invariant) signatures.
    fn refined_colours(&self) -> Vec<u32> {
        let n = self.len();
        let mut colour: Vec<u32> = (0..n).map(|v| self.neighbours(v).count() as u32).collect();
        let mut classes = usize::MAX;
        loop {
            let signature: Vec<(u32, Vec<u32>)> = (0..n)
                .map(|v| {
                    let mut around: Vec<u32> = self.neighbours(v).map(|u| colour[u]).collect();
                    around.sort_unstable();
                    (colour[v], around)
                })
                .collect();
            let mut distinct: Vec<&(u32, Vec<u32>)> = signature.iter().collect();
            distinct.sort();
            distinct.dedup();
            colour = signature
                .iter()
                .map(|s| distinct.binary_search(&s).unwrap_or(0) as u32)
                .collect();
            if distinct.len() == classes {
                return colour;
            }
            classes = distinct.len();
        }
    }
}

/// Every ordering of the vertices that lists the blocks `classes` in the order given, each block
/// in any order; `None` if there are more than `limit`.
fn orderings(classes: &[Vec<usize>], limit: usize) -> Option<Vec<Vec<usize>>> {
    let mut count: usize = 1;
    for c in classes {
        for k in 2..=c.len() {
            count = count.checked_mul(k)?;
            if count > limit {
                return None;
            }
        }
    }
    let mut all = vec![Vec::new()];
    for c in classes {
        let perms = permutations(c);
        all = all
            .into_iter()
            .flat_map(|prefix: Vec<usize>| {
                perms.iter().map(move |p| {
                    let mut o = prefix.clone();
                    o.extend_from_slice(p);
                    o
                })
            })
            .collect();
    }
    Some(all)
}

/// All permutations of `items` (Heap's algorithm would do; the blocks are small).
fn permutations(items: &[usize]) -> Vec<Vec<usize>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut out = Vec::new();
    for i in 0..items.len() {
        let mut rest = items.to_vec();
        let x = rest.remove(i);
        for mut p in permutations(&rest) {
            p.insert(0, x);
            out.push(p);
        }
    }
    out
}

/// Node-Kayles on graphs; `names` name the vertices of the starting graph in move listings.
#[derive(Clone, Debug, Default)]
pub struct NodeKayles {
    names: Vec<String>,
}

impl NodeKayles {
    /// Vertices of the starting graph are named `names[v]` in move listings (by their index
    /// from 1 where no name is given).
    pub fn with_names(names: Vec<String>) -> NodeKayles {
        NodeKayles { names }
    }

    fn name(&self, v: usize) -> String {
        self.names
            .get(v)
            .cloned()
            .unwrap_or_else(|| (v + 1).to_string())
    }
}

impl crate::Game for NodeKayles {
    type Position = BitGraph;
    fn options(&self, p: &BitGraph, out: &mut Vec<BitGraph>) -> crate::error::Result<()> {
        out.extend((0..p.len()).map(|v| p.induced(&p.after_taking(v))));
        Ok(())
    }
}

impl crate::game::Components for NodeKayles {
    /// The connected components (breadth-first search).
    fn split(&self, p: &BitGraph, out: &mut Vec<BitGraph>) -> Result<()> {
        let n = p.len();
        let mut seen = vec![false; n];
        for s in 0..n {
            if seen[s] {
                continue;
            }
            seen[s] = true;
            let mut component = vec![s];
            let mut i = 0;
            while i < component.len() {
                let u = component[i];
                i += 1;
                for v in p.neighbours(u) {
                    if !seen[v] {
                        seen[v] = true;
                        component.push(v);
                    }
                }
            }
            component.sort_unstable();
            out.push(p.induced(&component));
        }
        Ok(())
    }
}

impl crate::game::Canonical for NodeKayles {
    fn canonical(&self, p: &BitGraph) -> Result<BitGraph> {
        let colour = p.refined_colours();
        let mut classes: Vec<Vec<usize>> = Vec::new();
        let mut by_colour: Vec<usize> = (0..p.len()).collect();
        by_colour.sort_by_key(|&v| (colour[v], v));
        for v in by_colour {
            match classes.last_mut() {
                Some(c) if colour[c[0]] == colour[v] => c.push(v),
                _ => classes.push(vec![v]),
            }
        }
        Ok(match orderings(&classes, MAX_ORDERINGS) {
            Some(all) => all
                .iter()
                .map(|o| p.induced(o))
                .min()
                .unwrap_or_else(|| p.clone()),
            None => p.induced(&classes.concat()),
        })
    }
}

impl crate::game::Show for NodeKayles {
    /// The vertices, then the edges: `{0 1 2: 0-1 1-2}`.
    fn show(&self, p: &BitGraph) -> Result<String> {
        let vertices: Vec<String> = (0..p.len()).map(|v| v.to_string()).collect();
        let edges: Vec<String> = (0..p.len())
            .flat_map(|u| {
                p.neighbours(u)
                    .filter(move |&v| v > u)
                    .map(move |v| format!("{u}-{v}"))
            })
            .collect();
        Ok(format!("{{{}: {}}}", vertices.join(" "), edges.join(" ")))
    }

    /// A move is named by the vertex taken (its name in the starting graph, given to
    /// [`NodeKayles::with_names`]), the position after by the vertices left: `{a c d}`.
    fn described_moves(&self, p: &BitGraph) -> Result<Vec<Described<BitGraph>>> {
        Ok((0..p.len())
            .map(|v| {
                let keep = p.after_taking(v);
                let left: Vec<String> = keep.iter().map(|&u| self.name(u)).collect();
                (
                    self.name(v),
                    format!("{{{}}}", left.join(" ")),
                    p.induced(&keep),
                )
            })
            .collect())
    }
}

impl crate::game::Footprint for NodeKayles {
    /// The vertices.
    fn size(&self, p: &BitGraph) -> usize {
        p.len()
    }

    fn bytes(&self, p: &BitGraph) -> usize {
        std::mem::size_of::<BitGraph>() + 8 * p.adj.len()
    }
}

testing_pub! {
    /// Node-Kayles straight from the definition, on adjacency lists and vertex sets.
    pub mod reference {
        use std::collections::{BTreeSet, HashMap};

        /// The Grundy value of the subgraph of `adj` induced by `alive`.
        pub fn value(adj: &[Vec<usize>], alive: &BTreeSet<usize>, memo: &mut HashMap<BTreeSet<usize>, u64>) -> u64 {
            if let Some(&v) = memo.get(alive) {
                return v;
            }
            let mut seen = Vec::new();
            for &v in alive {
                let mut after = alive.clone();
                after.remove(&v);
                for u in &adj[v] {
                    after.remove(u);
                }
                seen.push(value(adj, &after, memo));
            }
            let g = crate::game::mex(&seen, &mut Vec::new());
            memo.insert(alive.clone(), g);
            g
        }
    }
}

/// The number of vertices, then the words of the adjacency rows.
impl crate::game::Encoding for NodeKayles {
    fn encode(&self, p: &BitGraph, out: &mut Vec<u8>) {
        crate::varint::put(out, u64::from(p.n));
        for &w in &p.adj {
            crate::varint::put(out, w);
        }
    }

    fn decode(&self, bytes: &[u8]) -> Result<BitGraph> {
        crate::varint::decode_all(bytes, |r| {
            let bad = || crate::Error::Internal("a malformed Node-Kayles graph".into());
            let n = usize::try_from(r.get()?).map_err(|_| bad())?;
            let mut g = BitGraph::empty(n).ok_or_else(bad)?;
            for w in &mut g.adj {
                *w = r.get()?;
            }
            Ok(g)
        })
    }
}
