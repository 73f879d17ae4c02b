//! The nim product of ordinals below ω^(ω^ω): the excesses by Lenstra's algorithm (time per
//! prime, and from scratch by field size with FFT against Karatsuba products), GF(2)
//! polynomial products (carry-less multiply + Karatsuba against shift-xor; the additive FFT
//! against Karatsuba by size class), products in the largest towers through the polynomial basis
//! of a lower level against the Kronecker image of every level (and whole excesses with either),
//! and ordinal products.
//!
//! `cargo bench -p grundy --bench ordinal_nim` (add `-- quick` for fewer repetitions).

mod common;

use common::{header, median_time, row};
use grundy::gf2::fft;
use grundy::gf2::{self, BinaryField};
use grundy::nimber::NimBig;
use grundy::notation::ordinal::{load_excess_cache, parse_ordinal};
use grundy::ordinal::excess::reference::is_pth_power;
use grundy::ordinal::nim_mul::{odd_prime, ClosureField, KappaPoly};
use num_bigint::BigUint;
use rand::{Rng, SeedableRng};

type F = ClosureField<NimBig>;

fn main() {
    let quick = std::env::args().any(|a| a == "quick");
    let runs = if quick { 3 } else { 7 };

    // Excesses: each prime on a field that already knows the smaller primes (read from the
    // cache format), so the time is that prime's own. The naive method: the slow κ-polynomial
    // criterion on α_p alone (smallest primes only).
    header("Excesses α_p = κ_f(p) + m_p, first 20 odd primes (time per prime)");
    let mut all = F::new();
    for j in 0..20 {
        all.excess(odd_prime(j)).expect("excess");
    }
    let tsv = all.excesses_to_tsv();
    let mut total = std::time::Duration::ZERO;
    for j in 0..20 {
        let p = odd_prime(j);
        let smaller: String = tsv
            .lines()
            .filter(|l| {
                l.split('\t')
                    .next()
                    .and_then(|x| x.parse::<u64>().ok())
                    .is_some_and(|q| q < p)
            })
            .map(|l| format!("{l}\n"))
            .collect();
        let prime_runs = if p == 47 || p == 59 {
            runs.min(3)
        } else {
            runs
        };
        let fast = median_time(prime_runs, || {
            let mut f = F::new();
            load_excess_cache(&mut f, &smaller);
            f.excess(p).expect("excess").m
        });
        total += fast;
        let naive = (p <= 13).then(|| {
            let e = all.excess(p).expect("excess");
            let alpha = KappaPoly::<NimBig>::from_ordinal(&e.alpha).expect("alpha");
            median_time(runs, || {
                let mut f = F::new();
                load_excess_cache(&mut f, &smaller);
                is_pth_power(&mut f, &alpha, p).expect("check")
            })
        });
        let e = all.excess(p).expect("excess");
        row(
            &format!(
                "p = {p}: m = {}, α = {}, field degree {}",
                e.m, e.alpha, e.field_degree
            ),
            1,
            fast,
            naive,
        );
    }
    println!("\nall 20 primes: {}", common::fmt_duration(total));

    header("GF(2)[x] products (clmul + Karatsuba vs shift-xor)");
    let mut rng = rand::rngs::StdRng::seed_from_u64(8);
    for bits in [64usize, 256, 1024, 5060, 16384] {
        let words = bits.div_ceil(64);
        let a: Vec<u64> = (0..words).map(|_| rng.gen()).collect();
        let b: Vec<u64> = (0..words).map(|_| rng.gen()).collect();
        let fast = median_time(runs, || gf2::mul(&a, &b));
        let mut school = vec![0u64; 2 * words];
        let sb = median_time(runs, || {
            school.iter_mut().for_each(|w| *w = 0);
            gf2::mul_schoolbook_into(&a, &b, &mut school);
            school[0]
        });
        let naive = median_time(runs.min(5), || gf2::reference::mul_shift_xor(&a, &b));
        row(
            &format!("{bits}-bit product, Karatsuba over clmul"),
            1,
            fast,
            Some(naive),
        );
        row(
            &format!("{bits}-bit product, schoolbook clmul"),
            1,
            sb,
            Some(naive),
        );
    }

    header("GF(2)[x] products by size class (additive FFT over GF(2^64) vs Karatsuba, the previous method)");
    for bits in [1_000usize, 10_000, 100_000, 1_000_000, 10_000_000] {
        let words = bits.div_ceil(64);
        let a: Vec<u64> = (0..words).map(|_| rng.gen()).collect();
        let b: Vec<u64> = (0..words).map(|_| rng.gen()).collect();
        let reps = if bits >= 1_000_000 { runs.min(3) } else { runs };
        let fft = median_time(reps, || fft::mul(&a, &b));
        let kara = median_time(reps, || gf2::mul_karatsuba(&a, &b));
        row(
            &format!("{bits}-bit product, FFT; other = Karatsuba"),
            1,
            fft,
            Some(kara),
        );
    }

    // One excess per size class of its field, from scratch, with the products of the towers
    // on the transform (as shipped) against Karatsuba only (the previous method), in one run.
    header("Excesses from scratch by field size (FFT products vs Karatsuba products)");
    for p in [47u64, 139, 263, 283] {
        let reps = if p >= 263 { 1 } else { runs.min(3) };
        let mut field_degree = 0;
        let fft = median_time(reps, || {
            let e = F::new().excess(p).expect("excess");
            field_degree = e.field_degree;
            e.m
        });
        gf2::set_fft_words(usize::MAX);
        let kara = median_time(reps, || F::new().excess(p).expect("excess").m);
        gf2::set_fft_words(gf2::FFT_WORDS);
        row(
            &format!("p = {p}, field degree {field_degree}; other = Karatsuba"),
            1,
            fft,
            Some(kara),
        );
    }

    // Products in the top field of the largest towers: through the polynomial basis of a lower
    // level (as shipped) against one Kronecker image of every level (the previous product),
    // on the same operands in one run; then whole excesses from scratch with either product.
    header("Tower products (polynomial basis of a lower level vs Kronecker image of every level)");
    let mut g = F::new();
    for p in [283u64, 347, 359, 557] {
        let f = grundy::ordinal::excess::order_of_two(p);
        let x = g.candidate(f, 0).expect("candidate");
        let kt = g.kappa_tower(&[&x]).expect("tower");
        let t = &kt.tower;
        let mut old = t.clone();
        old.set_flat(usize::MAX, 0);
        let a: Vec<u64> = (0..t.words()).map(|_| rng.gen::<u64>() & 15).collect();
        let b: Vec<u64> = (0..t.words()).map(|_| rng.gen::<u64>() & 15).collect();
        let reps = if t.degree() >= 1_000_000 {
            1
        } else {
            runs.min(3)
        };
        let new = median_time(reps, || t.mul(&a, &b));
        let prev = median_time(reps, || old.mul(&a, &b));
        assert_eq!(t.mul(&a, &b), old.mul(&a, &b));
        row(
            &format!(
                "p = {p}: M = {}, basis of level {:?}; other = Kronecker",
                t.degree(),
                t.flat_level()
            ),
            1,
            new,
            Some(prev),
        );
    }
    header("Excesses from scratch (polynomial-basis products vs Kronecker products)");
    for p in [263u64, 283] {
        let new = median_time(1, || F::new().excess(p).expect("excess").m);
        grundy::ordinal::binomial::set_flat_from_words(usize::MAX);
        let prev = median_time(1, || F::new().excess(p).expect("excess").m);
        grundy::ordinal::binomial::set_flat_from_words(grundy::ordinal::binomial::FLAT_FROM_WORDS);
        row(&format!("p = {p}; other = Kronecker"), 1, new, Some(prev));
    }

    // The test that decides an excess, on α_p itself: the norm to GF(2^f) in the binomial
    // tower against the previous method, x^((2^M-1)/p) by square-and-multiply in the tower
    // with flattened lower levels (only where that finishes in minutes).
    header("The p-th power test of α_p (binomial tower + norm vs flattened tower + full power)");
    let mut g = F::new();
    for p in [47u64, 59, 107, 139, 227, 263, 283] {
        let e = g.excess(p).expect("excess");
        let alpha = KappaPoly::<NimBig>::from_ordinal(&e.alpha).expect("alpha");
        let kt = g.kappa_tower(&[&alpha]).expect("tower");
        let v = kt.element(&alpha).expect("element");
        let ctl = grundy::control::Control::none();
        let fast = median_time(runs.min(3), || {
            kt.tower
                .pth_power_character(&v, p, e.f, &ctl)
                .expect("test")
        });
        let naive = (e.field_degree <= 20_000).then(|| {
            let t = g.tower_for(&[&alpha]).expect("flat tower");
            let fv = g.poly_to_flat(&t, &alpha).expect("flat");
            let exp = ((BigUint::from(1u32) << e.field_degree) - 1u32) / p;
            median_time(1, || t.field().pow(&fv, &exp))
        });
        row(
            &format!("p = {p}: field degree {}", e.field_degree),
            1,
            fast,
            naive,
        );
    }

    header("Ordinal nim products below ω^(ω^3) (κ-polynomials vs the flat tower field)");
    let mut f = F::new();
    let random = |rng: &mut rand::rngs::StdRng, terms: usize| {
        let mut p = KappaPoly::<NimBig>::zero();
        for _ in 0..terms {
            let mut m = vec![
                rng.gen_range(0..9u64),
                rng.gen_range(0..5),
                rng.gen_range(0..7),
            ];
            while m.last() == Some(&0) {
                m.pop();
            }
            p.add_term(m, NimBig::from(rng.gen_range(1..16u64)));
        }
        p
    };
    for terms in [1usize, 4, 16] {
        let xs: Vec<_> = (0..64).map(|_| random(&mut rng, terms)).collect();
        let fast = median_time(runs, || {
            let mut acc = 0usize;
            for w in xs.windows(2) {
                acc += f.mul(&w[0], &w[1]).expect("product").terms().count();
            }
            acc
        });
        let refs: Vec<&KappaPoly<NimBig>> = xs.iter().collect();
        let tower = f.tower_for(&refs).expect("tower");
        let flat = median_time(runs, || {
            let mut acc = 0usize;
            for w in xs.windows(2) {
                let (a, b) = (
                    f.poly_to_flat(&tower, &w[0]).expect("flat"),
                    f.poly_to_flat(&tower, &w[1]).expect("flat"),
                );
                acc += f
                    .flat_to_poly(&tower, &tower.field().mul(&a, &b))
                    .expect("back")
                    .terms()
                    .count();
            }
            acc
        });
        row(
            &format!(
                "{terms}-term products (63), κ-polynomials; other = via GF(2^{})",
                tower.degree()
            ),
            63,
            fast,
            Some(flat),
        );
    }

    header("Nim powers A^(10^12) (flat field, exponent reduced mod 2^d - 1; naive: κ-polynomial square-and-multiply)");
    let e = BigUint::from(10u32).pow(12);
    for a in ["w^(w^2)+w+1", "w^(w^3)+w^(w)+3", "w^(w^4)*3+w^(w^2)+w+5"] {
        let x = KappaPoly::<NimBig>::from_ordinal(&parse_ordinal(a).unwrap()).unwrap();
        let mut f = F::new();
        let fast = median_time(runs, || f.pow(&x, &e).expect("power").terms().count());
        let naive = median_time(1, || {
            f.pow_by_products(&x, &e).expect("power").terms().count()
        });
        row(&format!("({a})^(10^12)"), 1, fast, Some(naive));
    }
}
