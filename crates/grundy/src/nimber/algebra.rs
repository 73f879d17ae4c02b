//! The field algorithms, written once over [`NimberField`] so that they serve the 64-bit,
//! 128-bit and any-size nimber types alike: powers, the Frobenius map and its inverse (square
//! roots), inverses, the trace, quadratic equations, multiplicative orders, primitive elements,
//! subfields and discrete logarithms.
//!
//! # The tower of fields
//! The nimbers below `2^(2^k)` form the field `F_k` of `2^(2^k)` elements, and `F_k ⊂ F_(k+1)` is
//! literally the inclusion of the smaller integers among the larger ones: embedding a nimber in
//! a larger field changes nothing in its representation, so there is no embedding function to
//! call, only the test [`in_subfield`] (and its Galois-theoretic form
//! [`in_subfield_by_frobenius`]: `x ∈ F_j` exactly when `x^(2^(2^j)) = x`). With
//! `T = 2^(2^(k-1))`, `F_k = F_(k-1)[T]` and `T² = T ⊕ h` where `h = T/2 = 2^(2^(k-1) - 1)`.
//!
//! Every algorithm works in the field of the largest level among its inputs, and the answer does
//! not depend on which larger field one imagines the inputs in — except the trace, which is
//! relative to a field ([`trace_in`]), and the roots of `x² ⊕ x = a`, which may lie one level up.
//!
//! # The multiplicative group
//! `F_k*` is cyclic of order `2^(2^k) - 1 = F0·F1·…·F(k-1)`, the product of the Fermat numbers
//! `Fi = 2^(2^i) + 1`, which are pairwise coprime. Their factorisations are known for `i ≤ 11`;
//! this module holds those of `F0 … F7` (`F5 = 641·6700417`, `F6 = 274177·67280421310721`,
//! `F7 = 59649589127497217·5704689200685129054721`), so orders and primitivity are computed in
//! the fields up to `F_8` (256-bit nimbers) and discrete logarithms — which need a baby-step
//! giant-step search in the largest prime factor — up to `F_7` (128-bit nimbers: the largest
//! prime there is 67280421310721, about `8.2·10^6` squared). Beyond, these functions return
//! [`Error::Limit`]. The tests check each factor's primality (trial division, or Miller-Rabin
//! with the bases proven sufficient below `3.3·10^24`) and that their product is `2^(2^k) - 1`.

use super::field::NimberField;
use crate::control::Control;
use crate::error::{Error, Result};
use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};
use std::hash::{Hash, Hasher};

/// The largest level `k` whose group order `2^(2^k) - 1` is factored here: [`order`] and
/// [`is_primitive`] work in the fields up to `F_8` (nimbers below `2^256`).
pub const MAX_ORDER_LEVEL: u32 = 8;

/// The largest level `k` in which [`log()`] works: `F_7`, the nimbers below `2^128`.
pub const MAX_LOG_LEVEL: u32 = 7;

/// The prime factors of the Fermat numbers `F_i = 2^(2^i) + 1` for `i = 0..=7` (each squarefree).
const FERMAT_FACTORS: [&[u128]; 8] = [
    &[3],
    &[5],
    &[17],
    &[257],
    &[65537],
    &[641, 6_700_417],
    &[274_177, 67_280_421_310_721],
    &[59_649_589_127_497_217, 5_704_689_200_685_129_054_721],
];

/// The prime factors of `2^(2^level) - 1 = F_0·F_1·…·F_(level-1)`, the order of the
/// multiplicative group of `F_level`, ascending. The group order is squarefree, so each prime
/// divides it once. `Error::Limit` beyond [`MAX_ORDER_LEVEL`].
pub fn group_order_factors(level: u32) -> Result<Vec<u128>> {
    if level > MAX_ORDER_LEVEL {
        return Err(beyond_factored(level, MAX_ORDER_LEVEL));
    }
    let mut primes: Vec<u128> = FERMAT_FACTORS[..level as usize]
        .iter()
        .flat_map(|f| f.iter().copied())
        .collect();
    primes.sort_unstable();
    Ok(primes)
}

/// `2^(2^level) - 1`, the order of `F_level*`.
pub fn group_order(level: u32) -> BigUint {
    (BigUint::one() << (1u64 << level)) - 1u32
}

fn beyond_factored(level: u32, max: u32) -> Error {
    let why = if max == MAX_ORDER_LEVEL {
        "orders need the prime factors of 2^(2^k)-1, held here up to k = 8; the next Fermat \
         number, F8 = 2^256+1, has a 62-digit prime factor"
    } else {
        "logarithms search the subgroup of the largest prime factor of the group order, \
         67280421310721 up to 2^128; beyond, it is 5704689200685129054721, out of reach"
    };
    Error::limit(
        crate::LimitKind::Fixed,
        format!(
            "the field of 2^(2^{level}) nimbers is beyond the largest supported one, of the \
             nimbers below 2^{}",
            1u64 << max
        ),
        format!("{why}; no option raises this limit"),
    )
}

/// The level of the smallest field holding all of `xs` (0 when empty).
pub fn common_level<T: NimberField>(xs: &[&T]) -> u32 {
    xs.iter().map(|x| x.level()).max().unwrap_or(0)
}

/// `a^e` by square-and-multiply from the top bit of `e` (`a^0 = 1`, also for `a = 0`).
pub fn pow_u128<T: NimberField>(a: &T, e: u128) -> T {
    let mut r = T::one();
    for i in (0..128 - e.leading_zeros()).rev() {
        r = r.nim_square();
        if (e >> i) & 1 == 1 {
            r = r.nim_mul(a);
        }
    }
    r
}

/// `a^e` for an exponent of any size, by square-and-multiply (`a^0 = 1`, also for `a = 0`).
/// The exponent is reduced modulo the group order `2^(2^k) - 1` of `a`'s field first when that
/// saves work (`a ≠ 0`, so `a^(2^(2^k)-1) = 1`).
pub fn pow<T: NimberField>(a: &T, e: &BigUint) -> T {
    let k = a.level();
    let reduced;
    let e = if !a.is_zero() && k < 32 && e.bits() > (1u64 << k) {
        reduced = e % group_order(k);
        if reduced.is_zero() {
            return T::one();
        }
        &reduced
    } else {
        e
    };
    if let Some(small) = e.to_u128() {
        return pow_u128(a, small);
    }
    let mut r = T::one();
    for i in (0..e.bits()).rev() {
        r = r.nim_square();
        if e.bit(i) {
            r = r.nim_mul(a);
        }
    }
    r
}

/// The Frobenius automorphism `x ↦ x²` (additive: `(a ⊕ b)² = a² ⊕ b²`).
pub fn frobenius<T: NimberField>(a: &T) -> T {
    a.nim_square()
}

/// The `j`-th power of the Frobenius map, `a^(2^j)`. On `F_k` the Frobenius map has order `2^k`
/// (`a^(2^(2^k)) = a`), so `j` is first reduced modulo `2^k`, `k = a.level()`.
pub fn frobenius_pow<T: NimberField>(a: &T, j: u128) -> T {
    let k = a.level();
    let j = if k < 128 { j % (1u128 << k) } else { j };
    square_times(a, j)
}

fn square_times<T: NimberField>(a: &T, times: u128) -> T {
    let mut r = a.clone();
    for _ in 0..times {
        r = r.nim_square();
    }
    r
}

/// The nim-inverse, `None` for 0 (the type's own method: fast types specialise it).
pub fn inv<T: NimberField>(a: &T) -> Option<T> {
    a.nim_inv()
}

testing_pub! {
    /// The nim-inverse by Fermat's little theorem in `F_k` (`k = a.level()`):
    /// `a^(-1) = a^(2^(2^k) - 2) = (a^(2^(n-1) - 1))²` with `n = 2^k`. The power `f(m) = a^(2^m - 1)`
    /// is built by the Itoh-Tsujii chain `f(2m) = f(m)^(2^m)·f(m)`, `f(m+1) = f(m)²·a`, walking the
    /// binary digits of `n - 1 = 11…1`: about `n` squarings and `2k` products. `None` for 0.
    pub fn inv_by_fermat<T: NimberField>(a: &T) -> Option<T> {
        if a.is_zero() {
            return None;
        }
        let k = a.level();
        let mut f = a.clone();
        let mut m: u128 = 1;
        for _ in 1..k {
            f = square_times(&f, m).nim_mul(&f);
            m *= 2;
            f = f.nim_square().nim_mul(a);
            m += 1;
        }
        // Now f = a^(2^m - 1) with m = 2^k - 1 (for k = 0, a = 1 and the answer is 1 = a²).
        Some(f.nim_square())
    }
}

/// The nim-square root (the type's own method). Every nimber has exactly one.
pub fn sqrt<T: NimberField>(a: &T) -> T {
    a.nim_sqrt()
}

/// The square root as the inverse Frobenius map on `F_k` (`k = a.level()`): since
/// `a^(2^(2^k)) = a`, the square root is `a^(2^(2^k - 1))`, that is `2^k - 1` squarings.
pub fn sqrt_by_frobenius<T: NimberField>(a: &T) -> T {
    square_times(a, (1u128 << a.level()) - 1)
}

/// The absolute trace of `a` over `GF(2)` in the field `F_level`:
/// `Tr(a) = a ⊕ a² ⊕ a^4 ⊕ … ⊕ a^(2^(2^level - 1))`, the sum of its `2^level` Frobenius
/// conjugates, which is 0 or 1. `None` when `a ∉ F_level` or `level ≥ 64`. From the definition:
/// `2^level` squarings (fine up to level 20 or so; `NimBig::trace` has a closed form).
pub fn trace_in<T: NimberField>(a: &T, level: u32) -> Option<bool> {
    if a.level() > level || level >= 64 {
        return None;
    }
    let mut sum = T::zero();
    let mut c = a.clone();
    for _ in 0..(1u64 << level) {
        sum = sum.nim_add(&c);
        c = c.nim_square();
    }
    Some(sum == T::one())
}

/// The trace of `a` over `GF(2)` in its own field `F_k`, `k = a.level()` (see [`trace_in`]). In
/// any strictly larger field the trace of `a` is 0 (each conjugate is counted an even number of
/// times).
pub fn trace<T: NimberField>(a: &T) -> bool {
    trace_in(a, a.level()).unwrap_or(false)
}

/// A root of `x² ⊕ x = a` in `F_k` (`k = a.level()`) by the trace formula, or `None` when the
/// trace of `a` in `F_k` is 1 (then there is none in `F_k`: `Tr(x² ⊕ x) = Tr(x)² ⊕ Tr(x) = 0`).
///
/// With `n = 2^k` and any `δ` of trace 1 — here `δ = 2^(2^k - 1)`, the top bit of `F_k`, which has
/// trace 1 because `T = 2^(2^k)` solves `T² ⊕ T = δ` outside `F_k` — the element
/// `x = Σ_{i=0}^{n-2} a^(2^i) · Σ_{j=i+1}^{n-1} δ^(2^j)` satisfies
/// `x² ⊕ x = a·Tr(δ) ⊕ δ·Tr(a) = a` when `Tr(a) = 0` (the sums telescope). `O(n)` products.
pub fn artin_schreier_by_trace_formula<T: NimberField>(a: &T) -> Option<T> {
    if trace(a) {
        return None;
    }
    let k = a.level();
    let n = 1usize << k;
    if n == 1 {
        return Some(T::zero()); // a = 0 in GF(2): x = 0
    }
    let delta = T::power_of_two((n - 1) as u32)?;
    let mut a_pows = Vec::with_capacity(n);
    let mut c = a.clone();
    for _ in 0..n {
        a_pows.push(c.clone());
        c = c.nim_square();
    }
    let mut d_pows = Vec::with_capacity(n);
    let mut d = delta;
    for _ in 0..n {
        d_pows.push(d.clone());
        d = d.nim_square();
    }
    // suffix = Σ_{j=i+1}^{n-1} δ^(2^j), for i from n-2 down to 0.
    let mut x = T::zero();
    let mut suffix = T::zero();
    for i in (0..n - 1).rev() {
        suffix = suffix.nim_add(&d_pows[i + 1]);
        x = x.nim_add(&a_pows[i].nim_mul(&suffix));
    }
    Some(x)
}

/// Both roots `[x, x ⊕ 1]` of `x² ⊕ x = a` in the nimbers (the quadratic closure of `GF(2)`: the
/// roots always exist). With `k = a.level()`: when `Tr(a) = 0` in `F_k` they lie in `F_k`;
/// otherwise in `F_(k+1)`, where with `T = 2^(2^k)`, `T² ⊕ T = δ = T/2`, and `x = y ⊕ T` for a
/// root `y ∈ F_k` of `y² ⊕ y = a ⊕ δ` (whose trace is `1 ⊕ 1 = 0`).
///
/// `Error::Limit` if the roots lie beyond the type (`F_(k+1)` above `T::MAX_LEVEL`).
pub fn solve_x2_plus_x<T: NimberField>(a: &T) -> Result<[T; 2]> {
    let root = match a.nim_artin_schreier() {
        Some(x) => x,
        None => {
            let k = a.level();
            if !trace(a) {
                return Err(Error::Internal(format!(
                    "no root of x²+x = a found in F_{k} although the trace is 0 (the type lacks \
                     NimberField::power_of_two)"
                )));
            }
            if k >= T::MAX_LEVEL || k >= 31 {
                return Err(Error::limit(
                    crate::LimitKind::Fixed,
                    format!(
                        "the roots of x²+x = a lie in the field of 2^(2^{}) nimbers, beyond this \
                         type",
                        k + 1
                    ),
                    "use the any-size nimber type NimBig",
                ));
            }
            let missing = || Error::Internal("the type lacks NimberField::power_of_two".into());
            let delta = T::power_of_two((1u32 << k) - 1).ok_or_else(missing)?;
            let t = T::power_of_two(1u32 << k).ok_or_else(missing)?;
            // a ⊕ δ may lie in a smaller field whose roots are one level up: recurse (its
            // level is below k whenever its own trace is 1, as its trace in F_k is 0).
            let [y, _] = solve_x2_plus_x(&a.nim_add(&delta))?;
            y.nim_add(&t)
        }
    };
    let other = root.nim_add(&T::one());
    Ok([root, other])
}

/// All roots of `x² ⊕ b·x ⊕ c = 0` in the nimbers, distinct and ascending (as integers).
///
/// - `b = 0`: `x² = c` has the single (double) root `√c`, listed once.
/// - `b ≠ 0`: substituting `x = b·y` gives `b²(y² ⊕ y) = c`, so `y² ⊕ y = c/b²`, whose two roots
///   `y, y ⊕ 1` ([`solve_x2_plus_x`]) give `x = b·y` and `b·y ⊕ b`. These lie in the field of
///   `b` and `c` or one level above.
pub fn solve_quadratic<T: NimberField + Ord>(b: &T, c: &T) -> Result<Vec<T>> {
    if b.is_zero() {
        return Ok(vec![c.nim_sqrt()]);
    }
    let b2 = b.nim_square();
    let inv_b2 = b2
        .nim_inv()
        .ok_or_else(|| Error::Internal("a nonzero square without inverse".into()))?;
    let [y0, y1] = solve_x2_plus_x(&c.nim_mul(&inv_b2))?;
    let mut roots = vec![b.nim_mul(&y0), b.nim_mul(&y1)];
    roots.sort();
    Ok(roots)
}

/// The multiplicative order of `a ≠ 0`: the least `n ≥ 1` with `a^n = 1`. It divides the group
/// order `N = 2^(2^k) - 1` of `a`'s field (and of every larger one). `N` is squarefree, so
/// starting from `N` and dividing out each prime `p` for which `a^(N'/p) = 1` leaves exactly the
/// primes of the order. `Error::Invalid` for 0, `Error::Limit` beyond [`MAX_ORDER_LEVEL`].
pub fn order<T: NimberField>(a: &T) -> Result<BigUint> {
    order_with(a, &Control::none())
}

/// [`order`], looking at `ctl` before each of its exponentiations (one per prime factor of the
/// group order, each up to `2^k` squarings): `Err(Error::Cancelled(_))` when stopped.
pub fn order_with<T: NimberField>(a: &T, ctl: &Control) -> Result<BigUint> {
    if a.is_zero() {
        return Err(Error::invalid("0 has no multiplicative order"));
    }
    let k = a.level();
    let primes = group_order_factors(k)?;
    let mut n = group_order(k);
    for p in primes {
        ctl.stop_check()?;
        let candidate = &n / BigUint::from(p);
        if pow(a, &candidate) == T::one() {
            n = candidate;
        }
    }
    Ok(n)
}

/// Whether `a` generates the multiplicative group of `F_level` (order `2^(2^level) - 1`); false
/// when `a ∉ F_level` or `a = 0`. `Error::Limit` beyond [`MAX_ORDER_LEVEL`].
pub fn is_primitive_in<T: NimberField>(a: &T, level: u32) -> Result<bool> {
    if level > MAX_ORDER_LEVEL {
        return Err(beyond_factored(level, MAX_ORDER_LEVEL));
    }
    if a.is_zero() || a.level() > level {
        return Ok(false);
    }
    Ok(order(a)? == group_order(level))
}

/// Whether `a` generates the multiplicative group of its own field `F_k`, `k = a.level()` (the
/// smallest field holding it). Note that 1 generates `F_0* = {1}`.
pub fn is_primitive<T: NimberField>(a: &T) -> Result<bool> {
    is_primitive_in(a, a.level())
}

/// Whether `a ∈ F_k`, the subfield of the `2^(2^k)` nimbers below `2^(2^k)`: the embedding
/// `F_k ⊂ F_(k+1)` is the inclusion of integers, so this is `a < 2^(2^k)`.
pub fn in_subfield<T: NimberField>(a: &T, k: u32) -> bool {
    a.level() <= k
}

/// Membership in `F_k` by Galois theory: `F_k` is the fixed field of the `2^k`-th power of the
/// Frobenius map, `{x : x^(2^(2^k)) = x}`. Computes the power (reduced as in [`frobenius_pow`];
/// every representable nimber lies in `F_127`, hence the answer true for `k ≥ 127`).
pub fn in_subfield_by_frobenius<T: NimberField>(a: &T, k: u32) -> bool {
    if k >= 127 {
        return true;
    }
    frobenius_pow(a, 1u128 << k) == *a
}

/// A fast hasher for the baby-step table (the elements of a cyclic group, hashed to 64 bits).
struct Fold(u64);

impl Hasher for Fold {
    fn finish(&self) -> u64 {
        let mut z = self.0;
        z ^= z >> 33;
        z = z.wrapping_mul(0xff51_afd7_ed55_8ccd);
        z ^= z >> 33;
        z = z.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        z ^ (z >> 33)
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut buf = [0u8; 8];
            buf[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(buf));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(23) ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

fn fingerprint<T: Hash>(x: &T) -> u64 {
    let mut h = Fold(0);
    x.hash(&mut h);
    h.finish()
}

/// The largest number of baby steps: `2^22` (a table of `2^24` four-byte slots, 64 MiB).
const MAX_BABY_STEPS: u64 = 1 << 22;

/// The `x ∈ [0, p)` with `g^x = y`, where `g` has prime order `p`; `None` if `y ∉ ⟨g⟩`.
///
/// Small `p`: exhaustive walk. Large `p`: baby-step giant-step with `m = min(⌈√p⌉, 2^22)`:
/// tabulate `g^j` for `j < m`, then walk `y·g^(-m·i)` for `i = 0, 1, …` until it is some `g^j`,
/// giving `x = i·m + j`. The table is open addressing over a 64-bit fingerprint of the element:
/// the slot comes from its top bits, and the slot stores `j + 1` (0 = empty) beside 9 more bits
/// of the fingerprint; a match is confirmed by recomputing `g^j`, so collisions cost time only.
pub fn log_prime_order<T: NimberField + Hash>(g: &T, y: &T, p: u64) -> Option<u64> {
    log_prime_order_with(g, y, p, &Control::none())
        .ok()
        .flatten()
}

/// [`log_prime_order`] under `ctl`: the baby-step table (4 bytes a slot) is reserved from its
/// memory budget before it is made, and its token and deadline are looked at every 4096 steps
/// (`Err(Error::Cancelled(_))` when stopped). The walks report the steps taken as progress.
pub fn log_prime_order_with<T: NimberField + Hash>(
    g: &T,
    y: &T,
    p: u64,
    ctl: &Control,
) -> Result<Option<u64>> {
    const STEPS_PER_CHECK: u64 = 4096;
    if p <= 1 << 16 {
        let mut cur = T::one();
        for x in 0..p {
            if cur == *y {
                return Ok(Some(x));
            }
            cur = cur.nim_mul(g);
        }
        return Ok(None);
    }
    let m = ((p as f64).sqrt().ceil() as u64).clamp(1, MAX_BABY_STEPS);
    // 2^slot_bits >= 2m slots (load at most 1/2).
    let slot_bits = 64 - m.leading_zeros() + 1;
    let mask = (1usize << slot_bits) - 1;
    let slot_of = |fp: u64| (fp >> (64 - slot_bits)) as usize;
    let check_of = |fp: u64| ((fp & 0x1ff) as u32) << 23;
    let _held = ctl.reserve(
        4u64 << slot_bits,
        "the baby-step table of a discrete logarithm",
    )?;
    let mut table = vec![0u32; 1 << slot_bits];
    // Baby steps in WALKS interleaved chains (independent products overlap in the CPU): chain
    // c holds g^j for j = c·len .. (c+1)·len.
    let len = m.div_ceil(WALKS);
    let step = pow_u128(g, len as u128);
    let mut chain: Vec<T> = Vec::with_capacity(WALKS as usize);
    let mut start = T::one();
    for _ in 0..WALKS {
        chain.push(start.clone());
        start = start.nim_mul(&step);
    }
    for t in 0..len {
        if t.is_multiple_of(STEPS_PER_CHECK) {
            ctl.check(t * WALKS)?;
        }
        for (c, cur) in chain.iter_mut().enumerate() {
            let j = c as u64 * len + t;
            if j < m {
                let fp = fingerprint(cur);
                let mut s = slot_of(fp);
                while table[s] != 0 {
                    s = (s + 1) & mask;
                }
                table[s] = check_of(fp) | (j as u32 + 1);
            }
            *cur = cur.nim_mul(g);
        }
    }
    // Giant steps y·g^(-m·i), i < ⌈p/m⌉, again in WALKS interleaved chains; g^(-m) is the
    // inverse of g^m, nonzero since g is. Any hit gives the unique x mod p.
    let Some(giant) = pow_u128(g, m as u128).nim_inv() else {
        return Ok(None);
    };
    let giants = p.div_ceil(m);
    let glen = giants.div_ceil(WALKS);
    let gstep = pow_u128(&giant, glen as u128);
    let mut walks: Vec<T> = Vec::with_capacity(WALKS as usize);
    let mut start = y.clone();
    for _ in 0..WALKS {
        walks.push(start.clone());
        start = start.nim_mul(&gstep);
    }
    for t in 0..glen {
        if t.is_multiple_of(STEPS_PER_CHECK) {
            ctl.check(m + t * WALKS)?;
        }
        for (c, walk) in walks.iter_mut().enumerate() {
            let fp = fingerprint(walk);
            let (mut s, check) = (slot_of(fp), check_of(fp));
            while table[s] != 0 {
                if table[s] & !((1 << 23) - 1) == check {
                    let j = (table[s] & ((1 << 23) - 1)) as u64 - 1;
                    if pow_u128(g, j as u128) == *walk {
                        let i = c as u64 * glen + t;
                        let x = (i as u128 * m as u128 + j as u128) % p as u128;
                        return Ok(Some(x as u64));
                    }
                }
                s = (s + 1) & mask;
            }
            *walk = walk.nim_mul(&giant);
        }
    }
    Ok(None)
}

/// The number of interleaved walks in [`log_prime_order`].
const WALKS: u64 = 4;

/// `b^e mod m` for `m < 2^63`.
fn mod_pow(mut b: u128, mut e: u128, m: u128) -> u128 {
    let mut r = 1 % m;
    b %= m;
    while e > 0 {
        if e & 1 == 1 {
            r = r * b % m;
        }
        b = b * b % m;
        e >>= 1;
    }
    r
}

/// The multiplicative order of `a ≠ 0` of level at most 7, as an integer below `2^128`.
fn order_u128<T: NimberField>(a: &T, primes: &[u128]) -> u128 {
    let mut n = u128::MAX >> (128 - (1u32 << a.level()));
    for &p in primes {
        if pow_u128(a, n / p) == T::one() {
            n /= p;
        }
    }
    n
}

/// The discrete logarithm: the smallest `x ≥ 0` with `a^x = b`, or `None` when `b` is not a
/// power of `a`. (With `0^0 = 1`: `log(0, 1) = 0`, `log(0, 0) = 1`.) The answer does not depend
/// on the field the powers are taken in; the powers of `a` stay in `a`'s field `F_k`, so a `b`
/// outside it gets `None` at once, and otherwise the search happens in `F_k`, which must have
/// `k ≤` [`MAX_LOG_LEVEL`] (`Error::Limit` beyond).
///
/// Pohlig-Hellman: let `n = ord(a)`, squarefree, dividing `2^(2^k) - 1`. The group `F_k*` is
/// cyclic, so `⟨a⟩` is its unique subgroup of order `n` and `b ∈ ⟨a⟩ ⟺ b^n = 1`. For each prime
/// `p | n`, `x ≡ x_p (mod p)` where `(a^(n/p))^(x_p) = b^(n/p)` is a logarithm in the subgroup
/// of order `p` ([`log_prime_order`]); the Chinese remainder theorem gives `x mod n`, the least
/// solution. The answer is checked by computing `a^x`.
pub fn log<T: NimberField + Hash>(a: &T, b: &T) -> Result<Option<BigUint>> {
    log_with(a, b, &Control::none())
}

/// [`log()`] under `ctl`: each subgroup search is [`log_prime_order_with`] (its table charged to
/// the memory budget, its walks stopped by the token and the deadline).
pub fn log_with<T: NimberField + Hash>(a: &T, b: &T, ctl: &Control) -> Result<Option<BigUint>> {
    // Every power of a lies in a's field F_k, so b outside it is no power of a, whatever k.
    let k = a.level();
    if b.level() > k {
        return Ok(None);
    }
    if k > MAX_LOG_LEVEL {
        return Err(beyond_factored(k, MAX_LOG_LEVEL));
    }
    if a.is_zero() {
        return Ok(if *b == T::one() {
            Some(BigUint::zero())
        } else if b.is_zero() {
            Some(BigUint::one())
        } else {
            None
        });
    }
    if b.is_zero() {
        return Ok(None);
    }
    let primes = group_order_factors(a.level())?;
    let n = order_u128(a, &primes);
    if pow_u128(b, n) != T::one() {
        return Ok(None);
    }
    // CRT accumulation: x ≡ r (mod modulus).
    let mut x = BigUint::zero();
    let mut modulus = BigUint::one();
    for &p in primes.iter().filter(|&&p| n % p == 0) {
        let e = n / p;
        let Some(xp) = log_prime_order_with(&pow_u128(a, e), &pow_u128(b, e), p as u64, ctl)?
        else {
            return Ok(None);
        };
        // Solve x + modulus·t ≡ xp (mod p): t = (xp - x)·modulus^(-1) mod p.
        let xm = (&x % p).to_u128().unwrap_or(0);
        let mm = (&modulus % p).to_u128().unwrap_or(0);
        let t = (xp as u128 + p - xm) % p * mod_pow(mm, p - 2, p) % p;
        x += &modulus * BigUint::from(t);
        modulus *= BigUint::from(p);
    }
    if pow(a, &x) != *b {
        return Err(Error::Internal(format!(
            "discrete logarithm check failed: a^{x} != b"
        )));
    }
    Ok(Some(x))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nimber::reference::{mul_mex_table, mul_u64};
    use crate::nimber::{Nim128, Nim64, NimBig};
    use proptest::prelude::*;

    fn nb(x: u64) -> NimBig {
        NimBig::from(x)
    }

    /// The mex-definition product below 256.
    fn mex(a: u64, b: u64) -> u64 {
        mul_mex_table()[a as usize][b as usize] as u64
    }

    /// The order of `a < 256` by walking its powers with the mex table.
    fn brute_order_f3(a: u64) -> u64 {
        let (mut x, mut n) = (a, 1);
        while x != 1 {
            x = mex(x, a);
            n += 1;
        }
        n
    }

    #[test]
    fn inverse_and_sqrt_exhaustively_in_f3() {
        for a in 0..256u64 {
            let x = nb(a);
            let s = sqrt_by_frobenius(&x).to_u64().unwrap();
            assert_eq!(mex(s, s), a, "sqrt {a}");
            assert_eq!(sqrt(&x), nb(s));
            if a == 0 {
                assert_eq!(inv_by_fermat(&x), None);
                continue;
            }
            let i = inv_by_fermat(&x).unwrap().to_u64().unwrap();
            assert_eq!(mex(a, i), 1, "inverse {a}");
            assert_eq!(inv(&x), Some(nb(i)));
        }
    }

    #[test]
    fn order_and_primitivity_exhaustively_in_f3() {
        let mut generators = 0;
        for a in 1..256u64 {
            let o = brute_order_f3(a);
            assert_eq!(order(&nb(a)).unwrap(), BigUint::from(o), "order {a}");
            assert_eq!(order(&Nim64::from_u64(a)).unwrap(), BigUint::from(o));
            let own = 1u64 << (1 << nb(a).level());
            assert_eq!(is_primitive(&nb(a)).unwrap(), o == own - 1, "{a}");
            if is_primitive_in(&nb(a), 3).unwrap() {
                generators += 1;
            }
        }
        // φ(255) = φ(3)·φ(5)·φ(17) = 2·4·16.
        assert_eq!(generators, 128);
        assert!(order(&nb(0)).is_err());
        assert!(!is_primitive_in(&nb(300), 3).unwrap());
        assert!(is_primitive(&nb(1)).unwrap());
    }

    #[test]
    fn order_in_f4_against_walking_the_powers() {
        for a in (1..65536u64).step_by(997) {
            let x = nb(a);
            let mut p = x.clone();
            let mut n = 1u64;
            while p != NimBig::one() {
                p = &p * &x;
                n += 1;
            }
            assert_eq!(order(&x).unwrap(), BigUint::from(n), "order {a}");
        }
    }

    #[test]
    fn log_exhaustively_in_f3() {
        for a in 0..256u64 {
            // The first exponent reaching each value, walking 0..=order (0^0 = 1).
            let mut first = [None; 256];
            let (mut p, mut e) = (1u64, 0u64);
            while first[p as usize].is_none() {
                first[p as usize] = Some(e);
                p = mex(p, a);
                e += 1;
            }
            for b in 0..256u64 {
                let got = log(&Nim64::from_u64(a), &Nim64::from_u64(b)).unwrap();
                assert_eq!(got, first[b as usize].map(BigUint::from), "log_{a} {b}");
            }
        }
    }

    #[test]
    fn log_in_f4_against_walking_the_powers() {
        for a in (2..65536u64).step_by(4099) {
            let x = Nim64::from_u64(a);
            let mut first = vec![None; 65536];
            let (mut p, mut e) = (Nim64::from_u64(1), 0u64);
            while first[p.0 as usize].is_none() {
                first[p.0 as usize] = Some(e);
                p = p.nim_mul(&x);
                e += 1;
            }
            for b in (0..65536u64).step_by(31) {
                let got = log(&x, &Nim64::from_u64(b)).unwrap();
                assert_eq!(got, first[b as usize].map(BigUint::from), "log_{a} {b}");
            }
        }
    }

    #[test]
    fn log_round_trips_in_f6_and_f7() {
        let mut r = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            r ^= r << 13;
            r ^= r >> 7;
            r ^= r << 17;
            r
        };
        for _ in 0..6 {
            let a = Nim64::from_u64(next() | 2);
            let e = next() as u128;
            let b = pow_u128(&a, e);
            let n = order(&a).unwrap().to_u128().unwrap();
            assert_eq!(log(&a, &b).unwrap(), Some(BigUint::from(e % n)));
        }
        // F_7: elements with the prime 67280421310721 in their order (baby-step giant-step).
        for _ in 0..1 {
            let a = Nim128((next() as u128) << 64 | next() as u128);
            let n = order(&a).unwrap().to_u128().unwrap();
            let e = ((next() as u128) << 64 | next() as u128) % n;
            let b = pow_u128(&a, e);
            assert_eq!(log(&a, &b).unwrap(), Some(BigUint::from(e)));
        }
        // b outside ⟨a⟩: a in F_6 (order dividing 2^64-1), b with b^(2^64-1) ≠ 1.
        let a = Nim128(5);
        let b = Nim128(1 << 100);
        assert_eq!(log(&a, &b).unwrap(), None);
        // 0 as a base, and 0 as the target.
        assert_eq!(log(&nb(0), &nb(1)).unwrap(), Some(BigUint::zero()));
        assert_eq!(log(&nb(0), &nb(0)).unwrap(), Some(BigUint::one()));
        assert_eq!(log(&nb(0), &nb(7)).unwrap(), None);
        assert_eq!(log(&nb(7), &nb(0)).unwrap(), None);
        assert!(matches!(
            log(&NimBig::pow2(200), &nb(3)),
            Err(Error::Limit(_))
        ));
        // b beyond a's field is no power of a, at any size.
        assert_eq!(log(&nb(3), &NimBig::pow2(200)).unwrap(), None);
        assert_eq!(log(&nb(1), &nb(2)).unwrap(), None);
        assert_eq!(log(&nb(0), &nb(2)).unwrap(), None);
    }

    #[test]
    fn quadratics_exhaustively_in_f3_with_roots_found_by_search_in_f4() {
        // All x in F_4 by the value of x² ⊕ x (roots of x² ⊕ x = a for a in F_3 lie in F_4).
        let mut roots_of: Vec<Vec<u64>> = vec![Vec::new(); 65536];
        for x in 0..65536u64 {
            let v = mul_u64(x, x) ^ x;
            roots_of[v as usize].push(x);
        }
        for a in 0..256u64 {
            let mut got: Vec<u64> = solve_x2_plus_x(&nb(a))
                .unwrap()
                .iter()
                .map(|x| x.to_u64().unwrap())
                .collect();
            got.sort();
            assert_eq!(got, roots_of[a as usize], "x²+x = {a}");
            let in_own_field = got.iter().all(|&x| nb(x).level() <= nb(a).level());
            assert_eq!(in_own_field, !trace(&nb(a)), "{a}");
        }
        // x² ⊕ b x ⊕ c for b, c in F_2 against a search over F_3 (where the roots lie).
        for b in 0..16u64 {
            for c in 0..16u64 {
                let want: Vec<u64> = (0..256u64)
                    .filter(|&x| mex(x, x) ^ mex(b, x) ^ c == 0)
                    .collect();
                let got: Vec<u64> = NimBig::solve_quadratic(&nb(b), &nb(c))
                    .unwrap()
                    .iter()
                    .map(|x| x.to_u64().unwrap())
                    .collect();
                assert_eq!(got, want, "x² + {b}x + {c}");
            }
        }
    }

    #[test]
    fn quadratics_over_f3_complete_by_search_in_f4() {
        // Sampled b, c in F_3; every root lies in F_4, searched exhaustively (kernel products,
        // themselves tested against the definition in `reference`).
        let mut r = 12345u64;
        for _ in 0..48 {
            r = r
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let (b, c) = ((r >> 20) & 0xff, (r >> 40) & 0xff);
            let want: Vec<u64> = (0..65536u64)
                .filter(|&x| {
                    let x = Nim64::from_u64(x);
                    let v = x.nim_square().nim_add(&x.nim_mul(&Nim64::from_u64(b)));
                    v == Nim64::from_u64(c)
                })
                .collect();
            let got: Vec<u64> = NimBig::solve_quadratic(&nb(b), &nb(c))
                .unwrap()
                .iter()
                .map(|x| x.to_u64().unwrap())
                .collect();
            assert_eq!(got, want, "x² + {b}x + {c}");
        }
    }

    #[test]
    fn trace_in_larger_fields_is_zero() {
        for a in 0..16u64 {
            assert_eq!(trace_in(&nb(a), 3), Some(false));
            assert_eq!(trace_in(&nb(a), 2).unwrap(), nb(a).bit(3));
        }
        assert_eq!(trace_in(&nb(300), 3), None);
    }

    #[test]
    fn subfields_by_size_and_by_frobenius() {
        for a in [0u64, 1, 2, 3, 4, 15, 16, 255, 256, 65535, 65536, 1 << 40] {
            for k in 0..8 {
                assert_eq!(in_subfield(&nb(a), k), in_subfield_by_frobenius(&nb(a), k));
                assert_eq!(
                    in_subfield(&nb(a), k),
                    (a as u128) < 1u128.wrapping_shl(1 << k) || k >= 7
                );
            }
        }
        let big = NimBig::pow2(300);
        assert!(!in_subfield_by_frobenius(&big, 8));
        assert!(in_subfield_by_frobenius(&big, 9));
    }

    #[test]
    fn the_factored_group_orders() {
        for level in 0..=MAX_ORDER_LEVEL {
            let primes = group_order_factors(level).unwrap();
            let product = primes
                .iter()
                .fold(BigUint::one(), |acc, &p| acc * BigUint::from(p));
            assert_eq!(product, group_order(level), "level {level}");
            for &p in &primes {
                assert!(is_prime(p), "{p}");
            }
        }
        assert!(matches!(group_order_factors(9), Err(Error::Limit(_))));
    }

    /// Trial division below 2^47, else Miller-Rabin with the primes up to 41 as bases, which
    /// is a proof below 3.3·10^24 (Sorenson and Webster).
    fn is_prime(p: u128) -> bool {
        if p < 1 << 47 {
            return p >= 2
                && (2..)
                    .take_while(|d| d * d <= p)
                    .all(|d| !p.is_multiple_of(d));
        }
        assert!(p < 3_317_044_064_679_887_385_961_981);
        let n = BigUint::from(p);
        let n1 = &n - 1u32;
        let s = n1.trailing_zeros().unwrap();
        let d = &n1 >> s;
        [2u32, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41]
            .iter()
            .all(|&a| {
                let mut x = BigUint::from(a).modpow(&d, &n);
                if x.is_one() || x == n1 {
                    return true;
                }
                for _ in 1..s {
                    x = &x * &x % &n;
                    if x == n1 {
                        return true;
                    }
                }
                false
            })
    }

    #[test]
    fn pow_reduces_large_exponents() {
        let a = nb(0x1234_5678_9abc_def1);
        let e = (BigUint::one() << 200u32) + 5u32;
        let r = e.clone() % group_order(6);
        assert_eq!(pow(&a, &e), pow(&a, &r));
        assert_eq!(pow(&nb(0), &BigUint::zero()), NimBig::one());
        assert_eq!(pow(&nb(0), &e), NimBig::zero());
        assert_eq!(frobenius_pow(&a, 64), a);
        assert_eq!(frobenius_pow(&a, 3), a.square().square().square());
        assert_eq!(frobenius(&a), a.square());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]

        #[test]
        fn generic_algorithms_agree_with_nimbig_specialisations(a: u128, b: u128) {
            let (x, y) = (NimBig::from(a), NimBig::from(b));
            prop_assert_eq!(sqrt_by_frobenius(&x), x.sqrt());
            prop_assert_eq!(inv_by_fermat(&x), x.inv());
            let roots = NimBig::solve_quadratic(&x, &y).unwrap();
            for r in &roots {
                prop_assert!((&(&r.square() + &(&x * r)) + &y).is_zero());
            }
            prop_assert_eq!(roots.len(), if a == 0 { 1 } else { 2 });
            // Fixed-width types through the same generic code.
            let (p, q) = (Nim128(a), Nim128(b));
            prop_assert_eq!(inv_by_fermat(&p).map(|v| v.nim_mul(&p)), (a != 0).then(Nim128::one));
            prop_assert_eq!(sqrt(&p).nim_square(), p);
            if let Ok(r) = solve_quadratic(&p, &q) {
                prop_assert!(r.windows(2).all(|w| w[0] < w[1]));
                for z in r {
                    prop_assert!(z.nim_square().nim_add(&p.nim_mul(&z)).nim_add(&q).is_zero());
                }
            }
        }

        #[test]
        fn order_divides_and_is_least(a in 1u64..) {
            let x = Nim64::from_u64(a);
            let n = order(&x).unwrap();
            prop_assert!(pow(&x, &n) == Nim64::one());
            for p in group_order_factors(x.level()).unwrap() {
                let p = BigUint::from(p);
                if (&n % &p).is_zero() {
                    prop_assert!(pow(&x, &(&n / &p)) != Nim64::one());
                }
            }
        }
    }

    /// A logarithm in the largest field reaches the subgroup of order 67280421310721, whose
    /// baby-step table (64 MiB) is refused by a smaller budget, and whose walks stop at once
    /// when the token is cancelled; orders stop too.
    #[test]
    fn logarithms_are_bounded_and_stop() {
        let a = Nim128(0x1234_5678_9abc_def0_1122_3344_5566_7789);
        let big = 67_280_421_310_721u128;
        assert_eq!(order(&a).unwrap().to_u128().unwrap() % big, 0);
        let b = pow_u128(&a, 0xdead_beef_cafe);
        let small = crate::control::MemoryBudget::new(16 << 20);
        match log_with(&a, &b, &Control::none().with_memory(small.clone())) {
            Err(Error::Limit(l)) => assert_eq!(l.kind, crate::LimitKind::Memory),
            other => panic!("expected the memory limit, got {other:?}"),
        }
        assert_eq!(small.used(), 0);
        let token = crate::control::CancelToken::new();
        token.cancel();
        let stopped = Control::none().with_token(token);
        assert!(matches!(
            log_with(&a, &b, &stopped),
            Err(Error::Cancelled(_))
        ));
        assert!(matches!(order_with(&a, &stopped), Err(Error::Cancelled(_))));
        assert_eq!(
            order_with(&a, &Control::none()).unwrap(),
            order(&a).unwrap()
        );
    }
}
