//! Eight nim products at a time: GFNI affine transforms for the basis changes, VPCLMULQDQ for the
//! carry-less products (AVX-512).
//!
//! **Basis change of eight values.** A 64×64 matrix `M` over GF(2) is an 8×8 array of 8×8 blocks
//! `B[I][J]` (output byte `I`, input byte `J`): `M·v` has byte `I` equal to `⊕_J B[I][J]·v[J]`.
//! `gf2p8affine` multiplies every byte of a 64-bit lane by that lane's 8×8 matrix. Hold the
//! eight values transposed (`T`: lane `K`, byte `m` = byte `K` of value `m`; one byte permutation),
//! and for `s = 0..8` rotate the lanes by `s` (lane `I` gets `T` lane `(I+s) mod 8`) and apply the
//! blocks `B[I][(I+s) mod 8]` lane by lane: the xor of the eight results has lane `I`, byte `m`
//! equal to byte `I` of `M·v_m`, the transposed answer. One more permutation undoes the transpose.
//!
//! **Products.** `vpclmulqdq` multiplies the even (or odd) lanes of two registers, four 128-bit
//! products each; unpacking gathers the low and high halves, and Barrett's reduction
//! (`q = c_hi ⊕ (c_hi·μ')_hi`, `c mod P = c_lo ⊕ (q·r)_lo`) runs on all eight at once.

use super::basis::{BasisChange, Matrix};
use std::arch::x86_64::*;

/// Whether the CPU has the instructions of this module.
pub fn available() -> bool {
    is_x86_feature_detected!("avx512f")
        && is_x86_feature_detected!("avx512bw")
        && is_x86_feature_detected!("avx512vbmi")
        && is_x86_feature_detected!("gfni")
        && is_x86_feature_detected!("vpclmulqdq")
}

/// A 64×64 matrix as GFNI blocks: `rot[s]` holds, in lane `I`, the block `B[I][(I+s) mod 8]`
/// encoded for `gf2p8affine` (byte `7-i` is row `i` of the block).
#[derive(Clone)]
pub struct AffineMatrix {
    rot: [[u64; 8]; 8],
}

impl AffineMatrix {
    /// Encodes a matrix given by its columns.
    pub fn new(m: &Matrix) -> AffineMatrix {
        let mut rot = [[0u64; 8]; 8];
        for (s, lanes) in rot.iter_mut().enumerate() {
            for (big_i, lane) in lanes.iter_mut().enumerate() {
                let big_j = (big_i + s) % 8;
                let mut block = 0u64;
                for i in 0..8 {
                    let row = 8 * big_i + i;
                    let mut bits = 0u64;
                    for k in 0..8 {
                        bits |= (m[8 * big_j + k] >> row & 1) << k;
                    }
                    block |= bits << (8 * (7 - i));
                }
                *lane = block;
            }
        }
        AffineMatrix { rot }
    }
}

/// The byte permutation transposing an 8×8 byte array held in one register (its own inverse).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
unsafe fn transpose_index() -> __m512i {
    let idx: [u8; 64] = std::array::from_fn(|i| ((i % 8) * 8 + i / 8) as u8);
    _mm512_loadu_si512(idx.as_ptr() as *const _)
}

/// The eight blocks of `m` loaded into registers.
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn load_matrix(m: &AffineMatrix) -> [__m512i; 8] {
    std::array::from_fn(|s| _mm512_loadu_si512(m.rot[s].as_ptr() as *const _))
}

/// `M·v` for each of the eight 64-bit lanes of `v` (see the module documentation).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
unsafe fn apply8(m: &[__m512i; 8], tr: __m512i, v: __m512i) -> __m512i {
    let t = _mm512_permutexvar_epi8(tr, v);
    macro_rules! step {
        ($s:literal) => {
            _mm512_gf2p8affine_epi64_epi8::<0>(_mm512_alignr_epi64::<$s>(t, t), m[$s])
        };
    }
    let a = _mm512_xor_si512(_mm512_gf2p8affine_epi64_epi8::<0>(t, m[0]), step!(1));
    let b = _mm512_xor_si512(step!(2), step!(3));
    let c = _mm512_xor_si512(step!(4), step!(5));
    let d = _mm512_xor_si512(step!(6), step!(7));
    let acc = _mm512_xor_si512(_mm512_xor_si512(a, b), _mm512_xor_si512(c, d));
    _mm512_permutexvar_epi8(tr, acc)
}

/// `φ(a)·φ(b) mod P` lane by lane: four products per `vpclmulqdq`, then Barrett's reduction.
#[inline]
#[target_feature(enable = "avx512f,vpclmulqdq")]
unsafe fn mul_reduce8(pa: __m512i, pb: __m512i, mu: __m512i, r: __m512i) -> __m512i {
    let even = _mm512_clmulepi64_epi128::<0x00>(pa, pb);
    let odd = _mm512_clmulepi64_epi128::<0x11>(pa, pb);
    let lo = _mm512_unpacklo_epi64(even, odd);
    let hi = _mm512_unpackhi_epi64(even, odd);
    let t = _mm512_unpackhi_epi64(
        _mm512_clmulepi64_epi128::<0x00>(hi, mu),
        _mm512_clmulepi64_epi128::<0x01>(hi, mu),
    );
    let q = _mm512_xor_si512(hi, t);
    let u = _mm512_unpacklo_epi64(
        _mm512_clmulepi64_epi128::<0x00>(q, r),
        _mm512_clmulepi64_epi128::<0x01>(q, r),
    );
    _mm512_xor_si512(lo, u)
}

/// The GFNI forms of the basis change `φ` and its inverse.
pub struct Affine {
    to_poly: AffineMatrix,
    from_poly: AffineMatrix,
}

impl Affine {
    /// Encodes the basis change.
    pub fn new(basis: &BasisChange) -> Affine {
        Affine {
            to_poly: AffineMatrix::new(&basis.to_poly),
            from_poly: AffineMatrix::new(&basis.from_poly),
        }
    }
}

/// `out[i] = a[i] ⊗ b[i]` for the first `8·⌊len/8⌋` entries; returns how many were done.
///
/// # Safety
/// The CPU must pass [`available`]; `a`, `b`, `out` have equal lengths.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni,vpclmulqdq")]
pub unsafe fn mul_slice(
    basis: &BasisChange,
    affine: &Affine,
    a: &[u64],
    b: &[u64],
    out: &mut [u64],
) -> usize {
    let tr = transpose_index();
    let to = load_matrix(&affine.to_poly);
    let from = load_matrix(&affine.from_poly);
    let mu = _mm512_set1_epi64(basis.mu as i64);
    let r = _mm512_set1_epi64(basis.r as i64);
    let n = a.len() / 8 * 8;
    for i in (0..n).step_by(8) {
        let va = _mm512_loadu_si512(a.as_ptr().add(i) as *const _);
        let vb = _mm512_loadu_si512(b.as_ptr().add(i) as *const _);
        let pa = apply8(&to, tr, va);
        let pb = apply8(&to, tr, vb);
        let c = apply8(&from, tr, mul_reduce8(pa, pb, mu, r));
        _mm512_storeu_si512(out.as_mut_ptr().add(i) as *mut _, c);
    }
    n
}

/// `out[i] = M·xs[i]` for the first `8·⌊len/8⌋` entries (a linear map applied to a slice, such as
/// the product by a constant); returns how many were done.
///
/// # Safety
/// The CPU must pass [`available`]; `xs` and `out` have equal lengths.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
pub unsafe fn apply_slice(m: &AffineMatrix, xs: &[u64], out: &mut [u64]) -> usize {
    let tr = transpose_index();
    let mm = load_matrix(m);
    let n = xs.len() / 8 * 8;
    for i in (0..n).step_by(8) {
        let v = _mm512_loadu_si512(xs.as_ptr().add(i) as *const _);
        _mm512_storeu_si512(out.as_mut_ptr().add(i) as *mut _, apply8(&mm, tr, v));
    }
    n
}
