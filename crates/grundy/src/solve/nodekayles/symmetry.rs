//! Automorphisms of the whole graph, and the key of a component as an image under them.
//!
//! An automorphism `σ` of `G` maps every set `C` of vertices onto a set `σ(C)` that induces
//! an isomorphic subgraph (`u ~ v` iff `σ(u) ~ σ(v)`), so `C` and `σ(C)` have equal values,
//! and any image of `C` chosen from any set of automorphisms is a sound key: equal keys
//! `σ(C) = τ(C′)` give `C′ = τ⁻¹σ(C)`, isomorphic to `C`. [`Symmetries::key`] chooses one so
//! that, when the automorphisms found are the whole group, every image of `C` gets the same
//! key (one entry per orbit); past [`MAX_SYMMETRIES`] the search below stops with a part of
//! the group, and the keys stay sound, only less shared.
//!
//! The automorphisms are found by backtracking: the vertices are taken in breadth-first
//! order, each mapped to a free vertex of the same colour (colours from refinement, an
//! invariant of isomorphism, so every automorphism respects them) adjacent to the image of
//! its parent, and a mapping is kept only if it preserves adjacency with every vertex mapped
//! before; a complete mapping is thus an automorphism.

/// The most automorphisms kept.
pub const MAX_SYMMETRIES: usize = 128;

/// The most extension steps of the automorphism search.
const MAX_STEPS: u64 = 1 << 22;

/// A permutation of the vertices: `perm[v]` is the image of `v`.
pub type Perm = [u8; 128];

/// Colours invariant under isomorphism: the degree, refined by rounds that mix each vertex's
/// colour with the (order-free) sum of a mix of its neighbours' colours, until the number of
/// colours stops growing. Equal colours may be merged by the hashing, never told apart
/// wrongly: an automorphism keeps every colour.
fn colours(adj: &[u128]) -> Vec<u64> {
    let n = adj.len();
    let mut c: Vec<u64> = adj.iter().map(|a| u64::from(a.count_ones())).collect();
    let distinct = |c: &[u64]| {
        let mut s = c.to_vec();
        s.sort_unstable();
        s.dedup();
        s.len()
    };
    let mut k = distinct(&c);
    for _ in 0..n {
        let next: Vec<u64> = (0..n)
            .map(|v| {
                let mut sum = 0u64;
                let mut b = adj[v];
                while b != 0 {
                    let w = b.trailing_zeros() as usize;
                    b &= b - 1;
                    sum = sum.wrapping_add(mix(c[w]));
                }
                mix(c[v] ^ mix(sum).rotate_left(17))
            })
            .collect();
        let k2 = distinct(&next);
        c = next;
        if k2 <= k {
            break;
        }
        k = k2;
    }
    c
}

/// The finaliser of splitmix64.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Automorphisms of the graph with adjacency masks `adj`: the identity first, then others
/// as the backtracking meets them, at most [`MAX_SYMMETRIES`] in all.
pub fn automorphisms(adj: &[u128]) -> Vec<Perm> {
    let n = adj.len();
    let colour = colours(adj);
    let class: Vec<u128> = (0..n)
        .map(|v| {
            (0..n)
                .filter(|&w| colour[w] == colour[v])
                .fold(0, |m, w| m | 1 << w)
        })
        .collect();
    // Breadth-first order, each vertex with the parent it was reached from.
    let mut order = Vec::with_capacity(n);
    let mut parent = vec![usize::MAX; n];
    let mut seen = 0u128;
    for root in 0..n {
        if seen >> root & 1 == 1 {
            continue;
        }
        seen |= 1 << root;
        let start = order.len();
        order.push(root);
        let mut i = start;
        while i < order.len() {
            let u = order[i];
            i += 1;
            let mut b = adj[u] & !seen;
            seen |= b;
            while b != 0 {
                let w = b.trailing_zeros() as usize;
                b &= b - 1;
                parent[w] = u;
                order.push(w);
            }
        }
    }
    let mut identity = [0u8; 128];
    for (v, slot) in identity.iter_mut().enumerate().take(n) {
        *slot = v as u8;
    }
    let mut search = Search {
        adj,
        class: &class,
        order: &order,
        parent: &parent,
        perm: [0; 128],
        found: vec![identity],
        steps: 0,
        identity,
    };
    search.extend(0, 0, 0);
    search.found
}

struct Search<'a> {
    adj: &'a [u128],
    class: &'a [u128],
    order: &'a [usize],
    parent: &'a [usize],
    perm: Perm,
    found: Vec<Perm>,
    steps: u64,
    identity: Perm,
}

impl Search<'_> {
    /// Maps `order[depth..]` given the mapping of `order[..depth]` (domain `dom`, image
    /// `img`); false once the search is to stop.
    fn extend(&mut self, depth: usize, dom: u128, img: u128) -> bool {
        let n = self.order.len();
        if depth == n {
            if self.perm[..n] != self.identity[..n] {
                self.found.push(self.perm);
            }
            return self.found.len() < MAX_SYMMETRIES;
        }
        let u = self.order[depth];
        let p = self.parent[u];
        let mut cand = self.class[u] & !img;
        if p != usize::MAX {
            cand &= self.adj[usize::from(self.perm[p])];
        }
        // The images of `u`'s neighbours mapped so far.
        let mut want = 0u128;
        let mut b = self.adj[u] & dom;
        while b != 0 {
            let x = b.trailing_zeros() as usize;
            b &= b - 1;
            want |= 1 << self.perm[x];
        }
        while cand != 0 {
            let w = cand.trailing_zeros() as usize;
            cand &= cand - 1;
            self.steps += 1;
            if self.steps > MAX_STEPS {
                return false;
            }
            if self.adj[w] & img != want {
                continue;
            }
            self.perm[u] = w as u8;
            if !self.extend(depth + 1, dom | 1 << u, img | 1 << w) {
                return false;
            }
        }
        true
    }
}

/// Automorphisms with what the keys need of them: each vertex's least image `rep[v]`, and
/// the automorphisms that map `v` onto it.
///
/// **Anchored keys.** For a set `C` let its anchors `A(C)` be its vertices of least
/// `(f(v, C), rep[v])`, where `f` is an invariant of the pair (here the degree of `v` inside
/// `C`): an automorphism `τ` gives `A(τC) = τA(C)`. The key of `C` is the least `σ(C)` over
/// the automorphisms `σ` that map some anchor `a` onto `rep[a]`. When the automorphisms form
/// a group, those for `τC` are the `ρτ⁻¹` for those `ρ` of `C`, which give the same images:
/// the key is the same for every image of `C`. Whatever the set of automorphisms, the key is
/// an image of `C`, hence sound.
#[derive(Clone, Debug, Default)]
pub struct Symmetries {
    /// The automorphisms, the identity first.
    perms: Vec<Perm>,
    /// `rep[v]`: the least image of `v`.
    rep: Vec<u8>,
    /// `fixing[start[v]..start[v + 1]]`: the automorphisms (indices) that map `v` to `rep[v]`.
    fixing: Vec<u8>,
    start: Vec<u32>,
}

impl Symmetries {
    /// The automorphisms of the graph `adj` (see [`automorphisms`]).
    pub fn of(adj: &[u128]) -> Symmetries {
        let n = adj.len();
        let perms = automorphisms(adj);
        let rep: Vec<u8> = (0..n)
            .map(|v| perms.iter().map(|p| p[v]).min().unwrap_or(v as u8))
            .collect();
        let mut fixing = Vec::new();
        let mut start = vec![0u32];
        for v in 0..n {
            fixing.extend(
                (0..perms.len())
                    .filter(|&k| perms[k][v] == rep[v])
                    .map(|k| k as u8),
            );
            start.push(fixing.len() as u32);
        }
        Symmetries {
            perms,
            rep,
            fixing,
            start,
        }
    }

    /// How many automorphisms besides the identity.
    #[cfg(test)]
    pub fn count(&self) -> usize {
        self.perms.len().saturating_sub(1)
    }

    /// The image of `set` under the `k`-th automorphism.
    #[inline]
    fn image(&self, k: usize, set: u128) -> u128 {
        let p = &self.perms[k];
        let mut out = 0;
        let mut s = set;
        while s != 0 {
            let v = s.trailing_zeros() as usize;
            s &= s - 1;
            out |= 1 << p[v];
        }
        out
    }

    /// The key of the connected set `set` (see the type's documentation), given the degree
    /// `deg[v]` inside it of each of its vertices: the least image of `set` under the
    /// automorphisms that map an anchor to its least image, or under all of them when that
    /// would be more.
    #[inline]
    pub fn key(&self, set: u128, deg: &[u8; 128]) -> u128 {
        if self.perms.len() <= 1 {
            return set;
        }
        let mut least = (u8::MAX, u8::MAX);
        let mut anchors = 0u128;
        let mut s = set;
        while s != 0 {
            let v = s.trailing_zeros() as usize;
            s &= s - 1;
            let f = (deg[v], self.rep[v]);
            if f < least {
                (least, anchors) = (f, 0);
            }
            if f == least {
                anchors |= 1 << v;
            }
        }
        let mut tries = 0;
        let mut a = anchors;
        while a != 0 {
            let v = a.trailing_zeros() as usize;
            a &= a - 1;
            tries += self.start[v + 1] - self.start[v];
        }
        let mut best = set;
        if tries as usize >= self.perms.len() {
            for k in 1..self.perms.len() {
                best = best.min(self.image(k, set));
            }
            return best;
        }
        best = u128::MAX;
        let mut a = anchors;
        while a != 0 {
            let v = a.trailing_zeros() as usize;
            a &= a - 1;
            for &k in &self.fixing[self.start[v] as usize..self.start[v + 1] as usize] {
                best = best.min(self.image(usize::from(k), set));
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The adjacency masks of the graph on `n` vertices with the edges of `bits` (one bit per
    /// pair `u < v`, in order).
    fn adjacency(n: usize, bits: u64) -> Vec<u128> {
        let mut adj = vec![0u128; n];
        let mut k = 0;
        for u in 0..n {
            for v in u + 1..n {
                if bits >> k & 1 == 1 {
                    adj[u] |= 1 << v;
                    adj[v] |= 1 << u;
                }
                k += 1;
            }
        }
        adj
    }

    /// Every permutation of `0..n`.
    fn permutations(n: usize) -> Vec<Vec<usize>> {
        if n == 0 {
            return vec![vec![]];
        }
        let mut out = Vec::new();
        for p in permutations(n - 1) {
            for i in 0..n {
                let mut q = p.clone();
                q.insert(i, n - 1);
                out.push(q);
            }
        }
        out
    }

    /// On every graph of at most 6 vertices the search finds exactly the automorphisms that
    /// trying every permutation finds (the groups are below the cap there but for the
    /// graphs on 6 vertices with groups of 144 or 720).
    #[test]
    fn the_automorphisms_of_every_small_graph() {
        for n in 1..=6 {
            let perms = permutations(n);
            for bits in 0..1u64 << (n * (n - 1) / 2) {
                let adj = adjacency(n, bits);
                let mut want: Vec<Vec<u8>> = perms
                    .iter()
                    .filter(|p| {
                        (0..n).all(|u| (0..n).all(|v| adj[u] >> v & 1 == adj[p[u]] >> p[v] & 1))
                    })
                    .map(|p| p.iter().map(|&v| v as u8).collect())
                    .collect();
                let mut got: Vec<Vec<u8>> = automorphisms(&adj)
                    .iter()
                    .map(|p| p[..n].to_vec())
                    .collect();
                assert_eq!(got[0], (0..n as u8).collect::<Vec<_>>(), "identity first");
                want.sort();
                got.sort();
                if want.len() <= MAX_SYMMETRIES {
                    assert_eq!(got, want, "{n} vertices, edges {bits:b}");
                } else {
                    assert_eq!(got.len(), MAX_SYMMETRIES);
                    assert!(got.iter().all(|p| want.contains(p)));
                }
            }
        }
    }

    /// The degrees inside `set`.
    fn degrees(adj: &[u128], set: u128) -> [u8; 128] {
        let mut deg = [0u8; 128];
        for (v, d) in deg.iter_mut().enumerate().take(adj.len()) {
            *d = (adj[v] & set).count_ones() as u8;
        }
        deg
    }

    /// On graphs whose whole group is found (below the cap), the key of every set of vertices
    /// is one of its images, and the same for all its images.
    #[test]
    fn keys_are_images_and_the_same_for_every_image() {
        let cycle6: Vec<u128> = (0..6)
            .map(|v: u32| 1u128 << ((v + 1) % 6) | 1 << ((v + 5) % 6))
            .collect();
        // The Petersen graph: outer cycle, spokes, inner pentagram (120 automorphisms).
        let mut petersen = vec![0u128; 10];
        for i in 0..5 {
            for (a, b) in [(i, (i + 1) % 5), (i, 5 + i), (5 + i, 5 + (i + 2) % 5)] {
                petersen[a] |= 1 << b;
                petersen[b] |= 1 << a;
            }
        }
        for (adj, group) in [(cycle6, 12), (petersen, 120)] {
            let n = adj.len();
            let s = Symmetries::of(&adj);
            assert_eq!(s.count() + 1, group);
            for set in 1..1u128 << n {
                let key = s.key(set, &degrees(&adj, set));
                assert!((0..group).any(|k| s.image(k, set) == key), "{set:b}");
                for k in 0..group {
                    let image = s.image(k, set);
                    assert_eq!(s.key(image, &degrees(&adj, image)), key, "{set:b}");
                }
            }
        }
    }
}
