//! The nim product of ordinals below `ω^(ω^ω)`: the algebraic closure of GF(2).
//!
//! ## The field
//! Conway's nim-sum and nim-product `a ⊗ b = mex { a'⊗b ⊕ a⊗b' ⊕ a'⊗b' : a' < a, b' < b }` make
//! the class of all ordinals a field `On₂` of characteristic 2. Its pieces, in order:
//!
//! * The natural numbers are the **quadratic closure** of GF(2): the nimbers below `2^(2^k)` form
//!   the field of order `2^(2^k)`, and every finite field of 2-power degree sits in one of them
//!   ([`crate::nimber`]). The equation `x³ = 2` has no root among them (a cube root of 2 generates a
//!   field of degree 6), and ω is the least ordinal beyond them: **ω³ = 2**.
//! * The ordinals below `ω^(ω^ω)` are the **algebraic closure** of GF(2) (Conway, *On Numbers and
//!   Games*, ch. 6; Lenstra, "On the algebraic closure of two", 1977, and "Nim multiplication",
//!   1978; DiMuro, "On On_p"). They are built one prime power at a time. For the `n`-th odd prime
//!   `p` (3, 5, 7, … for `n` = 1, 2, 3, …) and `k ≥ 1` put
//!   `κ_(p^k) = ω^(ω^(n-1) · p^(k-1))` (so `κ_3 = ω`, `κ_9 = ω³`, `κ_5 = ω^ω`, `κ_7 = ω^(ω²)`).
//!   The ordinals below `κ_(p^k)` form a field; it has no extension of degree `p`'s power beyond
//!   what `κ_(p^(k-1))` gives, and `κ_(p^k)` is its least element that is not a `p`-th power there:
//!   `κ_(p^k)^p = κ_(p^(k-1))` for `k ≥ 2`, and `κ_p^p = α_p`, where the **excess** `α_p` is the
//!   least ordinal below `κ_p` that is not a `p`-th power of an ordinal below `κ_p`.
//!   Examples: `α_3 = 2` (ω³ = 2), `α_5 = 4` (`(ω^ω)^5 = 4`), `α_7 = ω+1` (`(ω^(ω²))^7 = ω+1`), and
//!   Lenstra's `α_47 = ω^(ω^7)+1` (`(ω^(ω^13))^47 = ω^(ω^7)+1`). The excesses are computed by
//!   [`super::excess`].
//!
//! ## Ordinals as polynomials in the κ's
//! Write an ordinal below `ω^(ω^ω)` in Cantor normal form `Σ ω^(e_i)·c_i`, each exponent
//! `e = ω^(r)·a_r + … + ω·a_1 + a_0` below `ω^ω` (natural `a`'s). For the prime `p` of index
//! `n = j+1`, expand `a_j = Σ_k d_k p^k` in base `p`. Then, as nim products,
//!
//! `ω^e = ⊗_j ω^(ω^j·a_j)` and `ω^(ω^j·a_j) = ⊗_k κ_(p^(k+1))^(d_k)`,
//!
//! and `ω^e·c = ω^e ⊗ c`, `Σ` of distinct terms = their nim-sum. (Conway's theorem: below
//! `κ_(p^(k+1))` every ordinal is a polynomial of degree `< p` in `κ_(p^(k+1))` over the ordinals
//! below it, with the ordinal arithmetic of the exponents matching the digits.) So an ordinal is a
//! polynomial in the κ's with finite-nimber coefficients: [`KappaPoly`], keyed by the exponent
//! vector `(a_0, a_1, …)` of its monomials.
//!
//! ## The product
//! Multiply coefficients as nimbers and monomials by adding their exponents **digit by digit in
//! base p, carrying downward**: a digit reaching `p` at place `k ≥ 1` is the factor
//! `κ_(p^(k+1))^p = κ_(p^k)`, one more at place `k - 1`; a digit reaching `p` at place 0 is the
//! factor `κ_p^p = α_p`, an ordinal below `κ_p`, multiplied in recursively (it involves only
//! smaller primes, so the recursion ends). Equivalently the part of prime `p` is a polynomial in
//! the single generator `Y = κ_(p^K)`: `ω^(ω^j·a) = Y^(a reversed in K base-p digits)`, reduced
//! by `Y^(p^K) = α_p` ([`super::tower`] uses this form).
//!
//! ## Inverse and division
//! An ordinal `x ≠ 0` lies in a finite subfield `GF(2^M)` (the tower of [`super::tower`] over its
//! generators), where `x^(-1) = x^(2^M - 2)` (Lagrange: `x^(2^M - 1) = 1`). The inverse is
//! computed there in flat coordinates and converted back; `a ⊘ b = a ⊗ b^(-1)`.

use super::cnf::{Ordinal, Term};
use super::tower::{Tower, MAX_TOP_DEGREE};
use crate::control::{Control, MemoryBudget, Reservation};
use crate::gf2::BinaryField;
use crate::nimber::NimberField;
use crate::{Error, Result};
use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;
use std::sync::{Mutex, OnceLock};

/// A finite-nimber type usable as the coefficients of ordinals: a [`NimberField`] converting to and
/// from natural numbers.
pub trait Coefficient: NimberField {
    /// The nimber equal to `n`, if this type can hold it.
    fn from_natural(n: &BigUint) -> Option<Self>;
    /// The natural number equal to this nimber.
    fn to_natural(&self) -> BigUint;
}

/// Nimbers below 2^64 as coefficients (the fast kernel's product).
impl Coefficient for crate::nimber::Nim64 {
    fn from_natural(n: &BigUint) -> Option<Self> {
        n.to_u64().map(crate::nimber::Nim64)
    }
    fn to_natural(&self) -> BigUint {
        BigUint::from(self.0)
    }
}

/// Nimbers of any size as coefficients (Karatsuba on the Fermat tower).
impl Coefficient for crate::nimber::NimBig {
    fn from_natural(n: &BigUint) -> Option<Self> {
        Some(crate::nimber::NimBig::from_biguint(n))
    }
    fn to_natural(&self) -> BigUint {
        self.to_biguint()
    }
}

/// The most odd primes whose κ's an ordinal may use: exponents `ω^j` with `j` below this.
pub const MAX_PRIME_INDEX: usize = 100_000;

/// The odd prime of index `j` (0 → 3, 1 → 5, 2 → 7, …): `κ_p = ω^(ω^j)`.
pub fn odd_prime(j: usize) -> u64 {
    static PRIMES: OnceLock<Mutex<Vec<u64>>> = OnceLock::new();
    let mut v = PRIMES
        .get_or_init(|| Mutex::new(vec![3]))
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    while v.len() <= j {
        let mut c = v.last().copied().unwrap_or(1) + 2;
        while !is_prime(c) {
            c += 2;
        }
        v.push(c);
    }
    v[j]
}

/// Whether `n` is prime (trial division; `n` is small here).
pub fn is_prime(n: u64) -> bool {
    if n < 2 {
        return false;
    }
    let mut d = 2;
    while d * d <= n {
        if n.is_multiple_of(d) {
            return false;
        }
        d += 1;
    }
    true
}

/// The index `j` of an odd prime `p` (`p = odd_prime(j)`), `None` if `p` is not an odd prime.
pub fn odd_prime_index(p: u64) -> Option<usize> {
    if p < 3 || !is_prime(p) {
        return None;
    }
    (0..).find(|&j| odd_prime(j) >= p)
}

/// A monomial `⊗_j ω^(ω^j·a_j)`: the vector `(a_0, a_1, …)` without trailing zeros.
pub type Exponents = Vec<u64>;

/// The base-`p` digits of `a`, least significant first.
pub fn digits(mut a: u64, p: u64) -> Vec<u64> {
    let mut d = Vec::new();
    while a > 0 {
        d.push(a % p);
        a /= p;
    }
    d
}

/// `a` with its `k` base-`p` digits in reverse order: the exponent of `κ_(p^k)` in
/// `ω^(ω^j·a) = κ_(p^k)^(rev a)` (requires `a < p^k`).
pub fn reverse_digits(a: u64, p: u64, k: u32) -> u64 {
    let d = digits(a, p);
    (0..k as usize).fold(0u64, |acc, i| acc * p + d.get(i).copied().unwrap_or(0))
}

/// Adds two exponents of the prime `p` digit by digit, carrying downward (see the module
/// documentation): returns the new exponent and whether a carry left place 0 (a factor `α_p`).
fn add_exponents(a: u64, b: u64, p: u64) -> Result<(u64, bool)> {
    let (da, db) = (digits(a, p), digits(b, p));
    let n = da.len().max(db.len());
    let mut out = vec![0u64; n];
    let mut carry = 0;
    for k in (0..n).rev() {
        let s = da.get(k).copied().unwrap_or(0) + db.get(k).copied().unwrap_or(0) + carry;
        if s >= p {
            out[k] = s - p;
            carry = 1;
        } else {
            out[k] = s;
            carry = 0;
        }
    }
    let mut v: u64 = 0;
    for &d in out.iter().rev() {
        v = v
            .checked_mul(p)
            .and_then(|v| v.checked_add(d))
            .ok_or_else(|| {
                Error::limit(
                    crate::LimitKind::Fixed,
                    "an exponent of the product exceeds 2^64",
                    "",
                )
            })?;
    }
    Ok((v, carry == 1))
}

/// An ordinal below `ω^(ω^ω)` as a polynomial in the κ's with finite-nimber coefficients (see the
/// module documentation): a map from monomials to nonzero coefficients.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KappaPoly<C> {
    terms: BTreeMap<Exponents, C>,
}

impl<C: Coefficient> KappaPoly<C> {
    /// The ordinal 0.
    pub fn zero() -> Self {
        KappaPoly {
            terms: BTreeMap::new(),
        }
    }

    /// The nimber `c` (a finite ordinal).
    pub fn constant(c: C) -> Self {
        Self::monomial(Vec::new(), c)
    }

    /// `c ⊗ monomial`.
    pub fn monomial(mut m: Exponents, c: C) -> Self {
        while m.last() == Some(&0) {
            m.pop();
        }
        let mut p = Self::zero();
        p.add_term(m, c);
        p
    }

    /// Whether this is 0.
    pub fn is_zero(&self) -> bool {
        self.terms.is_empty()
    }

    /// The terms, monomial and coefficient.
    pub fn terms(&self) -> impl Iterator<Item = (&Exponents, &C)> {
        self.terms.iter()
    }

    /// Adds `c ⊗ m` (nim-sum), `m` without trailing zeros.
    pub fn add_term(&mut self, m: Exponents, c: C) {
        if c.is_zero() {
            return;
        }
        match self.terms.entry(m) {
            std::collections::btree_map::Entry::Vacant(e) => {
                e.insert(c);
            }
            std::collections::btree_map::Entry::Occupied(mut e) => {
                let s = e.get().nim_add(&c);
                if s.is_zero() {
                    e.remove();
                } else {
                    *e.get_mut() = s;
                }
            }
        }
    }

    /// The nim-sum `self ⊕ other`.
    pub fn add(&self, other: &Self) -> Self {
        let mut s = self.clone();
        for (m, c) in &other.terms {
            s.add_term(m.clone(), c.clone());
        }
        s
    }

    /// The ordinal `self`, read from an ordinal in Cantor normal form; an
    /// [`Error::Invalid`] at or above `ω^(ω^ω)`.
    pub fn from_ordinal(x: &Ordinal) -> Result<Self> {
        let mut p = Self::zero();
        for t in x.terms() {
            let mut m: Exponents = Vec::new();
            for et in t.exponent.terms() {
                let j = et.exponent.as_natural().ok_or_else(|| {
                    Error::invalid(format!(
                        "{x} is not below w^(w^w): nim multiplication is defined here for the \
                         algebraic closure of GF(2), the ordinals below w^(w^w)"
                    ))
                })?;
                let j = j.to_usize().filter(|&j| j < MAX_PRIME_INDEX).ok_or_else(|| {
                    Error::limit(crate::LimitKind::Fixed,
                        format!("an exponent term w^{j} uses a prime beyond the {MAX_PRIME_INDEX}-th odd prime"),
                        "use exponents below w^100000",
                    )
                })?;
                let a = et.coefficient.to_u64().ok_or_else(|| {
                    Error::limit(
                        crate::LimitKind::Fixed,
                        format!("the exponent coefficient {} exceeds 2^64", et.coefficient),
                        "use smaller exponents",
                    )
                })?;
                if m.len() <= j {
                    m.resize(j + 1, 0);
                }
                m[j] = a;
            }
            let c = C::from_natural(&t.coefficient).ok_or_else(|| {
                Error::limit(
                    crate::LimitKind::Fixed,
                    format!(
                        "the coefficient {} is too large for the nimber type",
                        t.coefficient
                    ),
                    "",
                )
            })?;
            p.add_term(m, c);
        }
        Ok(p)
    }

    /// The ordinal in Cantor normal form.
    pub fn to_ordinal(&self) -> Ordinal {
        Ordinal::from_terms(self.terms.iter().map(|(m, c)| {
            let e = Ordinal::from_terms(
                m.iter()
                    .enumerate()
                    .map(|(j, &a)| (Ordinal::from(j as u64), BigUint::from(a))),
            );
            (e, c.to_natural())
        }))
    }
}

/// The field of ordinals below `ω^(ω^ω)` with nim arithmetic: holds the excesses `α_p` computed
/// so far (see [`super::excess`]) and a memo of monomial products.
///
/// **Memory.** The memo, the cached towers and the terms of every product and conversion under
/// way are charged to the memory budget of the [`Control`] the field [watches](Self::watch)
/// (unlimited until then), before they grow: a product that would pass the budget returns the
/// memory [`Error::Limit`] instead. The memo holds at most [`MEMO_LIMIT`] entries and
/// [`TOWER_CACHE`] towers are kept; their bytes are given back when they are dropped.
pub struct ClosureField<C> {
    pub(crate) excess: BTreeMap<u64, super::excess::Excess>,
    alpha: HashMap<usize, KappaPoly<C>>,
    memo: HashMap<(Exponents, Exponents), KappaPoly<C>>,
    /// The bytes of `memo` and `alpha`, held from `memory`.
    memo_held: Reservation,
    /// The budget the memo, the towers, the products and the excess searches under way draw on.
    pub(crate) memory: MemoryBudget,
    /// Products of terms done since the last look at the cancel token and the clock.
    steps: u32,
    /// The towers built most recently, by what they hold (building one is the costly step),
    /// each with the bytes it holds from `memory`.
    towers: Vec<(TowerKey, Rc<Tower>, Reservation)>,
    /// The binomial towers built most recently ([`super::excess::KappaTower`]), by what they hold.
    pub(crate) binomial: Vec<(TowerKey, Rc<super::excess::KappaTower>)>,
    /// Lenstra's `κ_h` computed so far ([`ClosureField::kappa`]).
    pub(crate) kappas: HashMap<u64, KappaPoly<C>>,
    /// The largest degree over GF(2) of a finite field flattened by Gaussian elimination (the
    /// levels below the top of a [`Tower`]; memory grows as its square).
    pub max_degree: usize,
    /// Time spent in excess computations nested in the ones under way (one entry a level), to
    /// report each prime's own time.
    pub(crate) nested: Vec<std::time::Duration>,
    /// The cancel token and deadline that excess searches started by products and powers watch
    /// (see [`ClosureField::watch`]).
    pub(crate) stop: (crate::control::CancelToken, Option<std::time::Instant>),
}

/// The default limit on the degree of the finite fields built ([`ClosureField::max_degree`]).
pub const DEFAULT_MAX_DEGREE: usize = 12_000;

/// The most monomial products the memo of a [`ClosureField`] keeps.
pub const MEMO_LIMIT: usize = 1 << 16;

/// How many recently built towers a [`ClosureField`] keeps.
pub const TOWER_CACHE: usize = 4;

/// How many products of terms a product does between two looks at the cancel token and clock.
const STEPS_PER_CHECK: u32 = 1024;

/// What the memo is called in memory limit errors.
const MEMO_WHAT: &str = "the nim-product memo";

/// The bytes a term of a κ-polynomial costs when its monomial has `len` digits: the monomial's
/// vector and its heap block, the coefficient, and a B-tree slot (an accounting, not a
/// measurement; see [`crate::control`]).
fn term_bytes<C>(len: usize) -> u64 {
    (std::mem::size_of::<Exponents>() + 8 * len + std::mem::size_of::<C>() + 32) as u64
}

/// The bytes of a whole polynomial, counted as [`term_bytes`] a term.
fn poly_bytes<C>(p: &KappaPoly<C>) -> u64 {
    p.terms.keys().map(|m| term_bytes::<C>(m.len())).sum()
}

/// The longest monomial of some polynomials (a product or a conversion never makes longer
/// ones than its inputs and the excesses it uses).
fn longest<C>(ps: &[&KappaPoly<C>]) -> usize {
    ps.iter()
        .flat_map(|p| p.terms.keys().map(Vec::len))
        .max()
        .unwrap_or(0)
}

/// The memory of a polynomial being built, charged in blocks of [`CHARGE_BLOCK`] terms ahead of
/// its growth.
struct TermCharge {
    held: Reservation,
    per_term: u64,
    terms: usize,
}

/// The number of terms a [`TermCharge`] reserves at a time.
const CHARGE_BLOCK: usize = 1024;

impl TermCharge {
    fn new(memory: &MemoryBudget, per_term: u64) -> Result<TermCharge> {
        Ok(TermCharge {
            held: memory.reserve(0, "a nim product")?,
            per_term,
            terms: 0,
        })
    }

    /// Makes sure `len` terms (and one block more) are charged.
    fn cover(&mut self, len: usize) -> Result<()> {
        if len >= self.terms {
            self.terms = len + CHARGE_BLOCK;
            self.held.resize(
                (self.terms as u64).saturating_mul(self.per_term),
                "the terms of a nim product",
            )?;
        }
        Ok(())
    }
}

/// The bytes a tower of nimber level `level` with the extensions `k` holds, when each field
/// it flattens stays within `max_flat` bits and its top within [`MAX_TOP_DEGREE`] (otherwise
/// building it is refused before it grows, and nothing is charged): a flattened level of degree
/// `m` keeps `m` rows of tower coordinates and an echelon form of `m` rows with their tracked
/// combinations, about `3m²/8` bytes; the radical top of degree `M` keeps the images of the
/// nimber bits and of each generator, `M/8` bytes each.
fn tower_bytes(level: u32, k: &BTreeMap<usize, u32>, max_flat: usize) -> u64 {
    let mut degrees = vec![1u64 << level.min(6)];
    for (&j, &d) in k {
        let n = odd_prime(j).checked_pow(d);
        let m = n.and_then(|n| n.checked_mul(*degrees.last().unwrap_or(&1)));
        match m {
            Some(m) if m <= MAX_TOP_DEGREE as u64 => degrees.push(m),
            _ => return 0,
        }
    }
    // The nimbers alone (no extension) are one flattened level.
    let (top, flat) = match degrees.split_last() {
        Some((&top, flat)) if !flat.is_empty() => (top, flat),
        _ => (0, &degrees[..]),
    };
    if flat.iter().any(|&m| m > max_flat as u64) {
        return 0;
    }
    let images = (1u64 << level.min(6)) + k.len() as u64;
    flat.iter().map(|&m| 3 * m * m / 8 + 64).sum::<u64>() + images * (top / 8 + 8)
}

/// The nim product of two nimbers below `2^64` computed with the coefficient type `C` (the
/// product of the base field the towers are built over).
pub(crate) fn small_nim_mul<C: Coefficient>(a: u64, b: u64) -> u64 {
    C::from_u64(a)
        .nim_mul(&C::from_u64(b))
        .to_natural()
        .to_u64()
        .unwrap_or(0)
}

/// What a tower holds: the nimber level and the digit count per prime index.
pub(crate) type TowerKey = (u32, BTreeMap<usize, u32>);

impl<C: Coefficient> Default for ClosureField<C> {
    fn default() -> Self {
        Self::new()
    }
}

impl<C: Coefficient> ClosureField<C> {
    /// A field with no excess known yet (they are computed on demand).
    pub fn new() -> Self {
        ClosureField {
            excess: BTreeMap::new(),
            alpha: HashMap::new(),
            memo: HashMap::new(),
            memo_held: MemoryBudget::unlimited()
                .reserve(0, MEMO_WHAT)
                .expect("0 bytes fit"),
            memory: MemoryBudget::unlimited(),
            steps: 0,
            towers: Vec::new(),
            binomial: Vec::new(),
            kappas: HashMap::new(),
            nested: Vec::new(),
            max_degree: DEFAULT_MAX_DEGREE,
            stop: (crate::control::CancelToken::new(), None),
        }
    }

    /// Makes every later excess search of this field, including those a product or a power
    /// starts when it needs an excess not known yet, stop with [`crate::Error::Cancelled`] once
    /// the token of `ctl` is cancelled or its deadline has passed (checked before each
    /// candidate is tested), and every product, power, inverse and conversion too (checked
    /// every 1024 products of terms). The memo, the towers and the products
    /// under way draw on the memory budget of `ctl` from then on (see the type's
    /// documentation): the memo is moved to it (or emptied if it does not fit), the towers
    /// built so far are dropped.
    pub fn watch(&mut self, ctl: &Control) {
        self.stop = (ctl.token().clone(), ctl.deadline());
        let memory = ctl.memory().clone();
        self.towers.clear();
        let bytes = self.memo_held.bytes();
        self.memo_held = match memory.reserve(bytes, MEMO_WHAT) {
            Ok(r) => r,
            Err(_) => {
                self.memo.clear();
                self.alpha.clear();
                memory.reserve(0, MEMO_WHAT).expect("0 bytes fit")
            }
        };
        self.memory = memory;
    }

    /// The bytes the memo and the cached towers hold from the memory budget now.
    pub fn held_bytes(&self) -> u64 {
        self.memo_held.bytes() + self.towers.iter().map(|(_, _, r)| r.bytes()).sum::<u64>()
    }

    /// Counts one step of work; every [`STEPS_PER_CHECK`] steps, `Err(Error::Cancelled(_))` if the
    /// watched token is cancelled or its deadline has passed.
    fn tick(&mut self) -> Result<()> {
        self.steps += 1;
        if self.steps < STEPS_PER_CHECK {
            return Ok(());
        }
        self.steps = 0;
        self.stop_check()
    }

    /// `Err(Error::Cancelled(why))` if the watched token is cancelled or its deadline has passed.
    fn stop_check(&self) -> Result<()> {
        let (token, deadline) = &self.stop;
        match crate::control::interruption(token, *deadline) {
            Some(why) => Err(Error::Cancelled(why)),
            None => Ok(()),
        }
    }

    /// `α_p` for the prime of index `j`, as a polynomial (computing the excess if needed).
    pub(crate) fn alpha(&mut self, j: usize) -> Result<KappaPoly<C>> {
        if let Some(a) = self.alpha.get(&j) {
            return Ok(a.clone());
        }
        let e = self.excess(odd_prime(j))?;
        let a = KappaPoly::from_ordinal(&e.alpha)?;
        self.memo_held.grow(poly_bytes(&a) + 64, MEMO_WHAT)?;
        self.alpha.insert(j, a.clone());
        Ok(a)
    }

    /// The product of two monomials (module documentation: digits added with downward carries,
    /// a carry out of place 0 of prime `p` multiplies by `α_p`), from the highest prime down.
    fn mul_monomials(&mut self, a: &[u64], b: &[u64]) -> Result<KappaPoly<C>> {
        let n = a.len().max(b.len());
        if n == 0 {
            return Ok(KappaPoly::constant(C::one()));
        }
        let key = (a.to_vec(), b.to_vec());
        if let Some(r) = self.memo.get(&key) {
            return Ok(r.clone());
        }
        let j = n - 1;
        let p = odd_prime(j);
        let x = a.get(j).copied().unwrap_or(0);
        let y = b.get(j).copied().unwrap_or(0);
        let (t, carry) = add_exponents(x, y, p)?;
        let trim = |v: &[u64]| {
            let mut v = v[..v.len().min(j)].to_vec();
            while v.last() == Some(&0) {
                v.pop();
            }
            v
        };
        let mut lower = self.mul_monomials(&trim(a), &trim(b))?;
        if carry {
            let alpha = self.alpha(j)?;
            lower = self.mul(&lower, &alpha)?;
        }
        let mut out = KappaPoly::zero();
        for (m, c) in lower.terms {
            let mut m = m;
            if t != 0 {
                m.resize(j, 0);
                m.push(t);
            }
            out.add_term(m, c);
        }
        if self.memo.len() < MEMO_LIMIT {
            let bytes = poly_bytes(&out) + 2 * term_bytes::<C>(n) + 32;
            self.memo_held.grow(bytes, MEMO_WHAT)?;
            self.memo.insert(key, out.clone());
        }
        Ok(out)
    }

    /// The nim product `x ⊗ y` of two polynomials: term by term. The terms of the product are
    /// charged to the memory budget as it grows, and the cancel token and deadline are looked
    /// at every 1024 products of terms (see [`Self::watch`]).
    pub fn mul(&mut self, x: &KappaPoly<C>, y: &KappaPoly<C>) -> Result<KappaPoly<C>> {
        let mut acc = KappaPoly::zero();
        let mut charge = self.charge(&[x, y])?;
        for (ma, ca) in &x.terms {
            for (mb, cb) in &y.terms {
                self.tick()?;
                let c = ca.nim_mul(cb);
                for (m, d) in self.mul_monomials(ma, mb)?.terms {
                    acc.add_term(m, d.nim_mul(&c));
                }
                charge.cover(acc.terms.len())?;
            }
        }
        Ok(acc)
    }

    /// A charge for a polynomial built from `inputs` (its monomials are no longer than theirs
    /// and the excesses').
    fn charge(&self, inputs: &[&KappaPoly<C>]) -> Result<TermCharge> {
        let alphas: Vec<&KappaPoly<C>> = self.alpha.values().collect();
        let len = longest(inputs).max(longest(&alphas));
        TermCharge::new(&self.memory, term_bytes::<C>(len))
    }

    /// The nim power `x^e` (`x^0 = 1`), computed in the finite field holding `x`.
    ///
    /// That field has `2^d` elements (`d` its degree over GF(2)), so its nonzero elements form
    /// a group of order `2^d − 1` and `x^(2^d − 1) = 1` for `x ≠ 0` (Lagrange): `x^e` is
    /// `x^(e mod (2^d − 1))`, taken by square-and-multiply on the flat representation. That is
    /// at most `d` squarings of field elements, whatever the size of `e`, where squaring the
    /// κ-polynomial ([`Self::pow_by_products`]) costs a product of every pair of its terms a
    /// bit of `e`. When flattening the field is refused ([`crate::LimitKind::FieldDegree`]),
    /// the power falls back to the polynomial products.
    pub fn pow(&mut self, x: &KappaPoly<C>, e: &BigUint) -> Result<KappaPoly<C>> {
        if e.is_zero() {
            return Ok(KappaPoly::constant(C::one()));
        }
        if x.is_zero() {
            return Ok(KappaPoly::zero());
        }
        let tower = match self.tower_for(&[x]) {
            Ok(t) => t,
            Err(Error::Limit(l)) if l.kind == crate::LimitKind::FieldDegree => {
                return self.pow_by_products(x, e)
            }
            Err(other) => return Err(other),
        };
        let v = self.poly_to_flat(&tower, x)?;
        let f = tower.field();
        let order = (BigUint::one() << f.degree()) - 1u32;
        let y = f.pow(&v, &(e % &order));
        self.flat_to_poly(&tower, &y)
    }

    /// The nim power `x^e` (`x^0 = 1`) by square-and-multiply on κ-polynomials: a product a
    /// bit of `e`, with no finite field built. The slow reference for [`Self::pow`].
    pub fn pow_by_products(&mut self, x: &KappaPoly<C>, e: &BigUint) -> Result<KappaPoly<C>> {
        let mut r = KappaPoly::constant(C::one());
        for i in (0..e.bits()).rev() {
            r = self.mul(&r, &r)?;
            if e.bit(i) {
                r = self.mul(&r, x)?;
            }
        }
        Ok(r)
    }

    /// The nim inverse `x^(-1)`, computed in the finite field holding `x` (module documentation);
    /// [`Error::Invalid`] for 0.
    pub fn inv(&mut self, x: &KappaPoly<C>) -> Result<KappaPoly<C>> {
        if x.is_zero() {
            return Err(Error::invalid("0 has no nim inverse"));
        }
        let tower = self.tower_for(&[x])?;
        let v = self.poly_to_flat(&tower, x)?;
        let f = tower.field();
        let e = (BigUint::one() << f.degree()) - 2u32;
        let inv = f.pow(&v, &e);
        self.flat_to_poly(&tower, &inv)
    }

    /// The nim quotient `x ⊘ y = x ⊗ y^(-1)`; [`Error::Invalid`] when `y = 0`.
    pub fn div(&mut self, x: &KappaPoly<C>, y: &KappaPoly<C>) -> Result<KappaPoly<C>> {
        let yi = self.inv(y)?;
        self.mul(x, &yi)
    }

    /// What a finite field holding all of `xs` needs: the nimber level `J` and, per prime index,
    /// the number of base-`p` digits `K` (including, recursively, what each `α_p` used needs).
    pub fn needs(&mut self, xs: &[&KappaPoly<C>]) -> Result<(u32, BTreeMap<usize, u32>)> {
        let mut level = 1u32;
        let mut k: BTreeMap<usize, u32> = BTreeMap::new();
        let visit = |p: &KappaPoly<C>, level: &mut u32, k: &mut BTreeMap<usize, u32>| {
            for (m, c) in p.terms() {
                *level = (*level).max(c.level());
                for (j, &a) in m.iter().enumerate() {
                    let d = digits(a, odd_prime(j)).len() as u32;
                    if d > 0 {
                        let e = k.entry(j).or_insert(0);
                        *e = (*e).max(d);
                    }
                }
            }
        };
        for x in xs {
            visit(x, &mut level, &mut k);
        }
        // Each adjoined prime needs its excess, which may need lower primes: close downward.
        let mut done: Vec<usize> = Vec::new();
        loop {
            let next = k.keys().rev().find(|j| !done.contains(j)).copied();
            let Some(j) = next else { break };
            done.push(j);
            let a = self.alpha(j)?;
            visit(&a, &mut level, &mut k);
        }
        if level > 6 {
            return Err(Error::limit(
                crate::LimitKind::Fixed,
                "a coefficient needs nimbers of 128 bits or more in a finite-field computation",
                "use coefficients below 2^64",
            ));
        }
        Ok((level, k))
    }

    /// The flat tower holding all of `xs`.
    pub fn tower_for(&mut self, xs: &[&KappaPoly<C>]) -> Result<Rc<Tower>> {
        let key = self.needs(xs)?;
        if let Some(i) = self.towers.iter().position(|(k, _, _)| *k == key) {
            let entry = self.towers.remove(i);
            let t = entry.1.clone();
            self.towers.push(entry);
            return Ok(t);
        }
        self.stop_check()?;
        if self.towers.len() >= TOWER_CACHE {
            self.towers.remove(0);
        }
        let held = self.memory.reserve(
            tower_bytes(key.0, &key.1, self.max_degree),
            "a finite field of the nim-product tower",
        )?;
        let t = Rc::new(self.build_tower(key.0, &key.1)?);
        self.towers.push((key, t.clone(), held));
        Ok(t)
    }

    /// Builds the tower for nimber level `level` and the primes with digit counts `k`.
    pub fn build_tower(&mut self, level: u32, k: &BTreeMap<usize, u32>) -> Result<Tower> {
        let mul = small_nim_mul::<C>;
        let mut tower = Tower::nimbers(level, &mul)?;
        for (&j, &d) in k {
            let a = self.alpha(j)?;
            let av = self.poly_to_flat(&tower, &a)?;
            tower.adjoin(j, odd_prime(j), d, &av, self.max_degree)?;
        }
        Ok(tower)
    }

    /// The image of `x` in the top field of `tower` (which must hold it).
    pub fn poly_to_flat(&self, tower: &Tower, x: &KappaPoly<C>) -> Result<Vec<u64>> {
        let f = tower.field();
        let mut acc = f.zero();
        for (m, c) in x.terms() {
            // A term costs powers in a field of up to `MAX_TOP_DEGREE` bits.
            self.stop_check()?;
            let c = c
                .to_natural()
                .to_u64()
                .filter(|&c| c >> (tower.nimber_bits() - 1) >> 1 == 0)
                .ok_or_else(|| Error::Internal("coefficient outside the tower".into()))?;
            let mut v = tower.nimber(c);
            for (j, &a) in m.iter().enumerate() {
                if a == 0 {
                    continue;
                }
                let (g, k) = tower
                    .generator(j)
                    .ok_or_else(|| Error::Internal("prime outside the tower".into()))?;
                let e = reverse_digits(a, odd_prime(j), k);
                v = f.mul(&v, &f.pow(g, &BigUint::from(e)));
            }
            for (s, t) in acc.iter_mut().zip(&v) {
                *s ^= t;
            }
        }
        Ok(acc)
    }

    /// The polynomial whose image in the top field of `tower` is `v`: flat → tower coordinates
    /// level by level; the block `t` of the level adjoining prime `p` with `K` digits is the
    /// coefficient of `κ_(p^K)^t = ω^(ω^j·a)` with `a` = `t` reversed in `K` digits.
    ///
    /// The answer has at most `M/D` terms (`M` the degree of the top field, `D` its nimber
    /// bits: each term takes a block of `D` coordinates), and that many are charged to the
    /// memory budget before it is built.
    pub fn flat_to_poly(&self, tower: &Tower, v: &[u64]) -> Result<KappaPoly<C>> {
        let most = tower.degree() / tower.nimber_bits().max(1);
        let len = tower
            .extensions()
            .iter()
            .map(|&(j, _)| j + 1)
            .max()
            .unwrap_or(0);
        let _held = self.memory.reserve(
            (most as u64).saturating_mul(term_bytes::<C>(len)),
            "the terms of a nim product",
        )?;
        self.flat_to_poly_level(tower, tower.len() - 1, v)
    }

    fn flat_to_poly_level(&self, tower: &Tower, level: usize, v: &[u64]) -> Result<KappaPoly<C>> {
        self.stop_check()?;
        let coords = tower.to_tower(level, v);
        let (_, ext) = tower.level_shape(level);
        let Some((j, p, k, n)) = ext else {
            return Ok(KappaPoly::constant(C::from_u64(coords[0])));
        };
        let (pw, _) = tower.level_shape(level - 1);
        let mut out = KappaPoly::zero();
        for t in 0..n {
            let blk = &coords[t * pw..(t + 1) * pw];
            if blk.iter().all(|&w| w == 0) {
                continue;
            }
            let a = reverse_digits(t as u64, p, k);
            for (m, c) in self.flat_to_poly_level(tower, level - 1, blk)?.terms {
                let mut m = m;
                if a != 0 {
                    m.resize(j, 0);
                    m.push(a);
                }
                out.add_term(m, c);
            }
        }
        Ok(out)
    }

    /// The nim product of two ordinals below `ω^(ω^ω)`.
    pub fn mul_ordinals(&mut self, a: &Ordinal, b: &Ordinal) -> Result<Ordinal> {
        let (x, y) = (KappaPoly::from_ordinal(a)?, KappaPoly::from_ordinal(b)?);
        Ok(self.mul(&x, &y)?.to_ordinal())
    }

    /// The nim power `a^e` of an ordinal below `ω^(ω^ω)`.
    pub fn pow_ordinal(&mut self, a: &Ordinal, e: &BigUint) -> Result<Ordinal> {
        let x = KappaPoly::from_ordinal(a)?;
        Ok(self.pow(&x, e)?.to_ordinal())
    }

    /// The nim inverse of a nonzero ordinal below `ω^(ω^ω)`.
    pub fn inv_ordinal(&mut self, a: &Ordinal) -> Result<Ordinal> {
        let x = KappaPoly::from_ordinal(a)?;
        Ok(self.inv(&x)?.to_ordinal())
    }

    /// The nim quotient `a ⊘ b` of ordinals below `ω^(ω^ω)`, `b ≠ 0`.
    pub fn div_ordinals(&mut self, a: &Ordinal, b: &Ordinal) -> Result<Ordinal> {
        let (x, y) = (KappaPoly::from_ordinal(a)?, KappaPoly::from_ordinal(b)?);
        Ok(self.div(&x, &y)?.to_ordinal())
    }
}

/// Checks that `t` is a term of an ordinal below `ω^(ω^ω)` (its exponent's terms have finite
/// exponents).
pub fn below_omega_omega_omega(x: &Ordinal) -> bool {
    x.terms()
        .iter()
        .all(|t: &Term| t.exponent.terms().iter().all(|e| e.exponent.is_finite()))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::notation::ordinal::parse_ordinal;
    use proptest::prelude::*;

    /// Coefficients below 2^64 in the tests: the shared 64-bit nimber type.
    pub(crate) use crate::nimber::Nim64 as TestNim;

    pub(crate) type F = ClosureField<TestNim>;

    fn o(s: &str) -> Ordinal {
        parse_ordinal(s).unwrap()
    }

    /// Finite ordinals multiply as finite nimbers: the κ-polynomial product of constants agrees
    /// with the definition-level recursion of the nimber module.
    #[test]
    fn finite_products_agree_with_the_nimber_reference() {
        let mut f = ClosureField::<crate::nimber::NimBig>::new();
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..200 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let (a, b) = (x >> 32, x & 0xFFFF_FFFF);
            let want = crate::nimber::reference::mul_u64(a, b);
            let got = f
                .mul_ordinals(&Ordinal::from_natural(a), &Ordinal::from_natural(b))
                .unwrap();
            assert_eq!(got, Ordinal::from_natural(want), "{a} ⊗ {b}");
        }
    }

    /// Lenstra's example: (ω^(ω^13))^47 = ω^(ω^7) + 1.
    #[test]
    fn lenstra_example_p47() {
        let mut f = ClosureField::<crate::nimber::NimBig>::new();
        let got = f
            .pow_ordinal(&o("w^(w^13)"), &BigUint::from(47u32))
            .unwrap();
        assert_eq!(got, o("w^(w^7)+1"));
    }

    /// Powers in the flat field agree with square-and-multiply on κ-polynomials, including
    /// exponents at and around the group order `2^d − 1` and zero.
    #[test]
    fn powers_agree_with_polynomial_products() {
        let mut f = F::new();
        for a in [
            "0",
            "1",
            "7",
            "w",
            "w+1",
            "w^2*3+w+5",
            "w^(w)+2",
            "w^(w^2)+w+1",
            "w^(w^3)+w^(w)+3",
        ] {
            let x = KappaPoly::from_ordinal(&o(a)).unwrap();
            let d = if x.is_zero() {
                1
            } else {
                f.tower_for(&[&x]).unwrap().field().degree()
            };
            let order = (BigUint::one() << d) - 1u32;
            let mut exponents: Vec<BigUint> = (0u32..20).map(BigUint::from).collect();
            exponents.extend([order.clone() - 1u32, order.clone(), order.clone() + 1u32]);
            exponents.push(BigUint::from(1_000_003u32));
            for e in exponents {
                let want = f.pow_by_products(&x, &e).unwrap();
                assert_eq!(f.pow(&x, &e).unwrap(), want, "{a}^{e}");
            }
        }
    }

    /// `x^(10^12)`, the exponent at which a product a bit of `e` on a polynomial of many terms
    /// took minutes: against the polynomial products for an ordinal whose powers stay small,
    /// and by `x^(ab) = (x^a)^b` and `x^(a+b) = x^a ⊗ x^b` for one whose powers fill the field.
    #[test]
    fn powers_with_a_large_exponent() {
        let mut f = F::new();
        let e = BigUint::from(10u32).pow(12);
        let x = KappaPoly::from_ordinal(&o("w^(w^2)+w+1")).unwrap();
        assert_eq!(f.pow(&x, &e).unwrap(), f.pow_by_products(&x, &e).unwrap());

        let x = KappaPoly::from_ordinal(&o("w^(w^4)*3+w^(w^2)+w+5")).unwrap();
        let million = BigUint::from(10u32).pow(6);
        let big = f.pow(&x, &e).unwrap();
        let by_halves = f.pow(&x, &million).unwrap();
        assert_eq!(f.pow(&by_halves, &million).unwrap(), big);
        let (a, b) = (BigUint::from(999_999_999_999u64), BigUint::one());
        let (xa, xb) = (f.pow(&x, &a).unwrap(), f.pow(&x, &b).unwrap());
        assert_eq!(f.mul(&xa, &xb).unwrap(), big);
        // Any size of exponent: x^(10^1000) = (x^(10^500))^(10^500).
        let huge = BigUint::from(10u32).pow(1000);
        let half = f.pow(&x, &BigUint::from(10u32).pow(500)).unwrap();
        assert_eq!(
            f.pow(&half, &BigUint::from(10u32).pow(500)).unwrap(),
            f.pow(&x, &huge).unwrap()
        );
        assert!(!big.is_zero());
    }

    fn mul(f: &mut F, a: &str, b: &str) -> String {
        f.mul_ordinals(&o(a), &o(b)).unwrap().to_string()
    }

    #[test]
    fn published_products() {
        let mut f = F::new();
        assert_eq!(mul(&mut f, "w", "w"), "w^2");
        assert_eq!(mul(&mut f, "w", "w^2"), "2");
        assert_eq!(mul(&mut f, "w", "7"), "w*7");
        assert_eq!(
            f.pow_ordinal(&o("w"), &3u32.into()).unwrap().to_string(),
            "2"
        );
        assert_eq!(
            f.pow_ordinal(&o("w^w"), &5u32.into()).unwrap().to_string(),
            "4"
        );
        assert_eq!(
            f.pow_ordinal(&o("w^(w^2)"), &7u32.into())
                .unwrap()
                .to_string(),
            "w+1"
        );
        // 2 ⊗ 3 = 1 among the nimbers, so ω ⊗ (ω^2 ⊗ 3) = 2 ⊗ 3 = 1.
        assert_eq!(mul(&mut f, "w", "w^2*3"), "1");
        assert_eq!(f.inv_ordinal(&o("w")).unwrap().to_string(), "w^2*3");
    }

    #[test]
    fn ordinals_at_or_above_the_closure_are_refused() {
        let mut f = F::new();
        for s in ["w^(w^w)", "w^(w^w)*2+1", "w^(w^(w+1))"] {
            assert!(
                matches!(f.mul_ordinals(&o(s), &o("2")), Err(Error::Invalid(_))),
                "{s}"
            );
        }
        assert!(matches!(f.inv_ordinal(&o("0")), Err(Error::Invalid(_))));
    }

    #[test]
    fn lenstra_excesses_of_the_first_twelve_odd_primes() {
        // OEIS A380496: p = 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41.
        let want = [0, 0, 1, 1, 0, 0, 4, 1, 0, 1, 0, 1];
        let mut f = F::new();
        let got: Vec<u64> = (0..12).map(|j| f.excess(odd_prime(j)).unwrap().m).collect();
        assert_eq!(got, want);
        assert_eq!(f.excess(3).unwrap().alpha.to_string(), "2");
        assert_eq!(f.excess(5).unwrap().alpha.to_string(), "4");
        assert_eq!(f.excess(7).unwrap().alpha.to_string(), "w+1");
        assert_eq!(f.excess(19).unwrap().alpha.to_string(), "w^3+4");
    }

    #[test]
    fn excess_minimality_checked_by_the_slow_criterion() {
        // The first seven odd primes: α_p is not a p-th power, every candidate κ_f + j below it
        // is, and so are small ordinals below κ_f.
        let mut f = F::new();
        for j in 0..7 {
            let p = odd_prime(j);
            let e = f.excess(p).unwrap();
            let alpha = KappaPoly::from_ordinal(&e.alpha).unwrap();
            assert!(!super::super::excess::reference::is_pth_power(&mut f, &alpha, p).unwrap());
            let kf = f.kappa(e.f).unwrap();
            let kf_ord = kf.to_ordinal();
            for m in 0..e.m {
                let x = KappaPoly::from_ordinal(&kf_ord.add(&Ordinal::from(m))).unwrap();
                assert!(super::super::excess::reference::is_pth_power(&mut f, &x, p).unwrap());
            }
            for small in (1u64..6).filter(|&s| Ordinal::from(s) < kf_ord) {
                let x = KappaPoly::constant(TestNim(small));
                assert!(super::super::excess::reference::is_pth_power(&mut f, &x, p).unwrap());
            }
        }
    }

    /// A random ordinal below ω^(ω^3): up to 4 terms ω^(ω^2·c+ω·b+a)·d with small a, b, c, d.
    fn small_ordinal() -> impl Strategy<Value = KappaPoly<TestNim>> {
        proptest::collection::vec((0u64..9, 0u64..5, 0u64..7, 1u64..16), 0..4).prop_map(|ts| {
            let mut p = KappaPoly::zero();
            for (a, b, c, d) in ts {
                p.add_term(
                    {
                        let mut m = vec![a, b, c];
                        while m.last() == Some(&0) {
                            m.pop();
                        }
                        m
                    },
                    TestNim(d),
                );
            }
            p
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn field_laws_below_omega_omega_cubed(
            x in small_ordinal(), y in small_ordinal(), z in small_ordinal()
        ) {
            let mut f = F::new();
            let xy = f.mul(&x, &y).unwrap();
            prop_assert_eq!(&xy, &f.mul(&y, &x).unwrap());
            let xy_z = f.mul(&xy, &z).unwrap();
            let yz = f.mul(&y, &z).unwrap();
            prop_assert_eq!(&xy_z, &f.mul(&x, &yz).unwrap());
            let x_yz = f.mul(&x, &y.add(&z)).unwrap();
            let xz = f.mul(&x, &z).unwrap();
            prop_assert_eq!(x_yz, xy.add(&xz));
            // The flat field of the tower computes the same product.
            let tower = f.tower_for(&[&x, &y]).unwrap();
            let (fx, fy) = (f.poly_to_flat(&tower, &x).unwrap(), f.poly_to_flat(&tower, &y).unwrap());
            prop_assert_eq!(f.flat_to_poly(&tower, &fx).unwrap(), x.clone());
            prop_assert_eq!(f.flat_to_poly(&tower, &tower.field().mul(&fx, &fy)).unwrap(), xy);
            if !x.is_zero() {
                let xi = f.inv(&x).unwrap();
                prop_assert_eq!(f.mul(&x, &xi).unwrap(), KappaPoly::constant(TestNim(1)));
            }
        }
    }

    /// An ordinal with `n` terms `ω^(i)·(i+1)`, `i < n` (a product of two such has `n²` term
    /// products).
    fn many_terms(n: u64) -> Ordinal {
        let text: Vec<String> = (0..n).rev().map(|i| format!("w^{i}*{}", i + 1)).collect();
        o(&text.join("+"))
    }

    fn is_memory_limit(r: &Result<Ordinal>) -> bool {
        matches!(r, Err(Error::Limit(l)) if l.kind == crate::LimitKind::Memory)
    }

    /// Products, powers and inverses draw their memo, towers and terms from the watched budget:
    /// a budget too small for them refuses with the memory limit; one large enough gives the
    /// same answers as an unwatched field, holds bytes while the field lives and has them all
    /// back once it is dropped.
    #[test]
    fn products_are_charged_to_the_memory_budget() {
        let (x, y) = (many_terms(30), many_terms(25));
        let want = F::new().mul_ordinals(&x, &y).unwrap();
        let small = crate::control::MemoryBudget::new(4 << 10);
        let mut f = F::new();
        f.watch(&Control::none().with_memory(small.clone()));
        assert!(is_memory_limit(&f.mul_ordinals(&x, &y)));
        drop(f);
        assert_eq!(small.used(), 0, "a refused product gives its bytes back");

        let budget = crate::control::MemoryBudget::new(256 << 20);
        let mut f = F::new();
        f.watch(&Control::none().with_memory(budget.clone()));
        assert_eq!(f.mul_ordinals(&x, &y).unwrap(), want);
        let w = o("w^(w^2)+w+1");
        let inv = f.inv_ordinal(&w).unwrap();
        assert_eq!(f.mul_ordinals(&w, &inv).unwrap(), Ordinal::one());
        assert!(f.held_bytes() > 0 && budget.used() >= f.held_bytes());
        drop(f);
        assert_eq!(
            budget.used(),
            0,
            "the memo and the towers give their bytes back"
        );

        // A tower alone: the field of ω^(ω²)'s prime 7 (degree 42 over the nimbers below 2^2
        // and more) is refused by a budget below its accounted bytes.
        let mut f = F::new();
        f.watch(&Control::none().with_memory(crate::control::MemoryBudget::new(64)));
        assert!(is_memory_limit(&f.inv_ordinal(&o("w^(w^2)+1"))));
    }

    /// A cancelled token or a passed deadline stops products (every 1024 products of terms) and
    /// the conversions of inverses; the field still works once watched again without them.
    #[test]
    fn products_and_inverses_stop_when_cancelled() {
        let (x, y) = (many_terms(40), many_terms(40));
        let token = crate::control::CancelToken::new();
        token.cancel();
        let mut f = F::new();
        f.watch(&Control::none().with_token(token));
        assert_eq!(
            f.mul_ordinals(&x, &y),
            Err(Error::Cancelled(crate::error::Interruption::Token))
        );
        assert_eq!(
            f.inv_ordinal(&o("w+1")),
            Err(Error::Cancelled(crate::error::Interruption::Token))
        );
        let past = std::time::Instant::now();
        f.watch(&Control::none().with_deadline(past));
        assert_eq!(
            f.mul_ordinals(&x, &y),
            Err(Error::Cancelled(crate::error::Interruption::Deadline))
        );
        f.watch(&Control::none());
        assert_eq!(
            f.mul_ordinals(&x, &y).unwrap(),
            F::new().mul_ordinals(&x, &y).unwrap()
        );
    }

    /// The accounted bytes of a tower grow as the square of its flattened degrees and are 0
    /// (left to the degree limits) past them.
    #[test]
    fn tower_bytes_follow_the_flattened_degrees() {
        let none = BTreeMap::new();
        assert!(tower_bytes(1, &none, DEFAULT_MAX_DEGREE) > 0);
        let k7: BTreeMap<usize, u32> = [(2, 1)].into_iter().collect();
        let k7_2: BTreeMap<usize, u32> = [(0, 1), (2, 1)].into_iter().collect();
        assert!(
            tower_bytes(1, &k7_2, DEFAULT_MAX_DEGREE) > tower_bytes(1, &k7, DEFAULT_MAX_DEGREE)
        );
        let huge: BTreeMap<usize, u32> = [(0, 30)].into_iter().collect();
        assert_eq!(tower_bytes(1, &huge, DEFAULT_MAX_DEGREE), 0);
    }
}
