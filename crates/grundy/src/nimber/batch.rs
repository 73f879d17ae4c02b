//! Many nim products at once, sharing the set-up of the basis change.
//!
//! - [`mul_slice`]: `out[i] = a[i] ⊗ b[i]`. On CPUs with AVX-512, GFNI and VPCLMULQDQ, eight
//!   products at a time (the basis changes as GFNI affine transforms, see
//!   `kernel::avx512`); otherwise one at a time by the fastest scalar path.
//! - [`mul_scalar_slice`]: `out[i] = c ⊗ xs[i]`. The product by a constant `c` is a GF(2)-linear
//!   map, the matrix whose column `j` is `c ⊗ 2^j`: for long slices it is tabulated once (64
//!   products) and applied by eight byte-table lookups, or by GFNI eight values at a time.
//! - [`par_mul_slice`]: [`mul_slice`] on chunks in parallel (rayon).
//!
//! Every path gives the same answers as the definition-level `nimber::reference` code (tests below).

use super::kernel::{self, basis};
use super::Nim64;
#[cfg(feature = "parallel")]
use rayon::prelude::*;

/// The slice as plain words.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
fn words(xs: &[Nim64]) -> &[u64] {
    // SAFETY: `Nim64` is `repr(transparent)` over `u64`.
    unsafe { std::slice::from_raw_parts(xs.as_ptr() as *const u64, xs.len()) }
}

/// The slice as plain words, mutably.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
fn words_mut(xs: &mut [Nim64]) -> &mut [u64] {
    // SAFETY: `Nim64` is `repr(transparent)` over `u64`.
    unsafe { std::slice::from_raw_parts_mut(xs.as_mut_ptr() as *mut u64, xs.len()) }
}

/// The vector path (AVX-512 + GFNI + VPCLMULQDQ) if the CPU supports it, with its matrices.
#[cfg(target_arch = "x86_64")]
fn vector() -> Option<&'static (&'static basis::BasisChange, kernel::avx512::Affine)> {
    use std::sync::OnceLock;
    static VECTOR: OnceLock<Option<(&'static basis::BasisChange, kernel::avx512::Affine)>> =
        OnceLock::new();
    VECTOR
        .get_or_init(|| {
            let hw = kernel::hardware()?;
            kernel::avx512::available().then(|| (hw.basis, kernel::avx512::Affine::new(hw.basis)))
        })
        .as_ref()
}

testing_pub! {
    /// Which path [`mul_slice`] takes on this CPU: `"avx512-gfni"`, `"pclmulqdq"` or `"portable"`.
    pub fn path() -> &'static str {
        #[cfg(target_arch = "x86_64")]
        if vector().is_some() {
            return "avx512-gfni";
        }
        kernel::path()
    }
}

testing_pub! {
    /// `out[i] = a[i] ⊗ b[i]` by one scalar product at a time (the path of CPUs without the vector
    /// instructions; public so that tests and benchmarks can compare the paths).
    ///
    /// # Panics
    /// If the three slices differ in length.
    pub fn mul_slice_scalar(a: &[Nim64], b: &[Nim64], out: &mut [Nim64]) {
        assert!(
            a.len() == b.len() && a.len() == out.len(),
            "slice lengths differ"
        );
        for ((o, &x), &y) in out.iter_mut().zip(a).zip(b) {
            *o = x * y;
        }
    }
}

/// `out[i] = a[i] ⊗ b[i]` for all `i`.
///
/// # Panics
/// If the three slices differ in length.
pub fn mul_slice(a: &[Nim64], b: &[Nim64], out: &mut [Nim64]) {
    assert!(
        a.len() == b.len() && a.len() == out.len(),
        "slice lengths differ"
    );
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
    let mut done = 0;
    #[cfg(target_arch = "x86_64")]
    if let Some((basis, affine)) = vector() {
        // SAFETY: `vector()` is `Some` only when the CPU has the instructions; lengths are equal.
        done =
            unsafe { kernel::avx512::mul_slice(basis, affine, words(a), words(b), words_mut(out)) };
    }
    mul_slice_scalar(&a[done..], &b[done..], &mut out[done..]);
}

/// The slice length from which [`mul_scalar_slice`] tabulates the product by the constant.
const TABULATE_FROM: usize = 256;

/// `out[i] = c ⊗ xs[i]` for all `i`.
///
/// # Panics
/// If `xs` and `out` differ in length.
pub fn mul_scalar_slice(c: Nim64, xs: &[Nim64], out: &mut [Nim64]) {
    assert_eq!(xs.len(), out.len(), "slice lengths differ");
    if xs.len() < TABULATE_FROM {
        for (o, &x) in out.iter_mut().zip(xs) {
            *o = c * x;
        }
        return;
    }
    // x ↦ c ⊗ x is linear: column j is c ⊗ 2^j.
    let m: basis::Matrix = std::array::from_fn(|j| kernel::mul64(c.0, 1 << j));
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
    let mut done = 0;
    #[cfg(target_arch = "x86_64")]
    if vector().is_some() {
        let affine = kernel::avx512::AffineMatrix::new(&m);
        // SAFETY: `vector()` is `Some` only when the CPU has the instructions; lengths are equal.
        done = unsafe { kernel::avx512::apply_slice(&affine, words(xs), words_mut(out)) };
    }
    if done < xs.len() {
        let table = basis::ByteTable::new(&m);
        for (o, &x) in out[done..].iter_mut().zip(&xs[done..]) {
            *o = Nim64(table.apply(x.0));
        }
    }
}

/// The number of products a parallel task takes at least.
const PAR_CHUNK: usize = 1 << 14;

/// `out[i] = a[i] ⊗ b[i]` for all `i`, chunks in parallel on the rayon thread pool (one chunk
/// after another when the library is built without the `parallel` feature).
///
/// # Panics
/// If the three slices differ in length.
pub fn par_mul_slice(a: &[Nim64], b: &[Nim64], out: &mut [Nim64]) {
    assert!(
        a.len() == b.len() && a.len() == out.len(),
        "slice lengths differ"
    );
    #[cfg(feature = "parallel")]
    let chunks = out
        .par_chunks_mut(PAR_CHUNK)
        .zip(a.par_chunks(PAR_CHUNK).zip(b.par_chunks(PAR_CHUNK)));
    #[cfg(not(feature = "parallel"))]
    let chunks = out
        .chunks_mut(PAR_CHUNK)
        .zip(a.chunks(PAR_CHUNK).zip(b.chunks(PAR_CHUNK)));
    chunks.for_each(|(o, (x, y))| mul_slice(x, y, o));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nimber::reference;
    use proptest::prelude::*;

    fn all_below_256() -> (Vec<Nim64>, Vec<Nim64>) {
        (0..256 * 256)
            .map(|i| (Nim64(i >> 8), Nim64(i & 255)))
            .unzip()
    }

    #[test]
    fn every_batch_path_agrees_with_mex_table() {
        let t = reference::mul_mex_table();
        let (a, b) = all_below_256();
        let mut out = vec![Nim64(0); a.len()];
        let check = |out: &[Nim64], what: &str| {
            for i in 0..a.len() {
                let e = t[a[i].0 as usize][b[i].0 as usize] as u64;
                assert_eq!(out[i].0, e, "{what}: {} ⊗ {}", a[i], b[i]);
            }
        };
        mul_slice(&a, &b, &mut out);
        check(&out, "mul_slice");
        out.fill(Nim64(0));
        par_mul_slice(&a, &b, &mut out);
        check(&out, "par_mul_slice");
        out.fill(Nim64(0));
        mul_slice_scalar(&a, &b, &mut out);
        check(&out, "mul_slice_scalar");
        for c in 0..256u64 {
            let xs: Vec<Nim64> = (0..256).map(Nim64).collect();
            let mut o = vec![Nim64(0); 256];
            mul_scalar_slice(Nim64(c), &xs, &mut o);
            for x in 0..256 {
                assert_eq!(
                    o[x].0, t[c as usize][x] as u64,
                    "mul_scalar_slice {c} ⊗ {x}"
                );
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]

        #[test]
        fn batch_paths_agree_with_reference(
            pairs in proptest::collection::vec((any::<u64>(), any::<u64>()), 0..100),
            c: u64,
            long in 256usize..300,
        ) {
            let a: Vec<Nim64> = pairs.iter().map(|p| Nim64(p.0)).collect();
            let b: Vec<Nim64> = pairs.iter().map(|p| Nim64(p.1)).collect();
            let expect: Vec<Nim64> =
                pairs.iter().map(|p| Nim64(reference::mul_u64(p.0, p.1))).collect();
            let mut out = vec![Nim64(0); a.len()];
            mul_slice(&a, &b, &mut out);
            prop_assert_eq!(&out, &expect);
            par_mul_slice(&a, &b, &mut out);
            prop_assert_eq!(&out, &expect);
            // Short (product by product) and long (tabulated) scalar multiples.
            let mut out2 = vec![Nim64(0); a.len()];
            mul_scalar_slice(Nim64(c), &a, &mut out2);
            for i in 0..a.len() {
                prop_assert_eq!(out2[i].0, reference::mul_u64(c, a[i].0));
            }
            let xs: Vec<Nim64> =
                (0..long as u64).map(|i| Nim64(i.wrapping_mul(0x9e37_79b9_7f4a_7c15))).collect();
            let mut out3 = vec![Nim64(0); long];
            mul_scalar_slice(Nim64(c), &xs, &mut out3);
            for i in (0..long).step_by(17) {
                prop_assert_eq!(out3[i].0, reference::mul_u64(c, xs[i].0));
            }
        }
    }

    #[test]
    fn parallel_batch_over_many_chunks() {
        let n = 3 * PAR_CHUNK + 5;
        let a: Vec<Nim64> = (0..n as u64)
            .map(|i| Nim64(i.wrapping_mul(0x2545_f491_4f6c_dd1d)))
            .collect();
        let b: Vec<Nim64> = (0..n as u64).map(|i| Nim64(!i ^ (i << 40))).collect();
        let mut out = vec![Nim64(0); n];
        let mut serial = vec![Nim64(0); n];
        par_mul_slice(&a, &b, &mut out);
        mul_slice_scalar(&a, &b, &mut serial);
        assert_eq!(out, serial);
        for i in (0..n).step_by(997) {
            assert_eq!(out[i].0, reference::mul_u64(a[i].0, b[i].0));
        }
    }
}

#[cfg(all(test, target_arch = "x86_64"))]
mod dispatch_tests {
    #[test]
    fn vector_path_is_taken_where_available() {
        if super::kernel::avx512::available() && super::kernel::clmul::available() {
            assert_eq!(super::path(), "avx512-gfni");
        }
        if super::kernel::clmul::available() {
            assert_eq!(super::kernel::path(), "pclmulqdq");
        }
    }
}
