use super::*;
use proptest::prelude::*;

/// GF(16) = GF(2)[z]/(z^4 + z + 1), then `Y^3 = z` (`z` generates GF(16)^×, of order
/// 15, a multiple of 3, so it is no cube), then `U^5 = Y + 1`, then `V^7 = U·Y^2 + z`. The
/// product, square, Frobenius and norm identities tested hold in any such ring; the
/// irreducibility of the last two levels matters only to `sample_field_axioms_and_order`.
fn sample() -> BinomialTower {
    let mut t = BinomialTower::new(&[0b10011]).unwrap();
    t.adjoin(3, vec![Monomial { c: 2, e: vec![] }]).unwrap();
    t.adjoin(
        5,
        vec![Monomial { c: 1, e: vec![1] }, Monomial { c: 1, e: vec![0] }],
    )
    .unwrap();
    t.adjoin(
        7,
        vec![
            Monomial {
                c: 1,
                e: vec![2, 1],
            },
            Monomial {
                c: 2,
                e: vec![0, 0],
            },
        ],
    )
    .unwrap();
    t
}

fn element(t: &BinomialTower) -> impl Strategy<Value = Vec<u64>> {
    let mask = (1u64 << t.d) - 1;
    proptest::collection::vec(any::<u64>().prop_map(move |x| x & mask), t.words())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn products_and_squares_agree_with_the_definition(
        (a, b) in (element(&sample()), element(&sample()))
    ) {
        let t = sample();
        prop_assert_eq!(t.mul(&a, &b), reference::mul(&t, &a, &b));
        prop_assert_eq!(t.square(&a), reference::mul(&t, &a, &a));
    }

    #[test]
    fn frobenius_tables_agree_with_repeated_squaring(
        a in element(&sample()), s in 1u64..200
    ) {
        let t = sample();
        let ctl = Control::none();
        let fr = t.frobenius(s, &ctl).unwrap();
        let mut want = a.clone();
        for _ in 0..s {
            want = t.square(&want);
        }
        prop_assert_eq!(t.apply(&fr, &a), want);
    }
}

/// A tower whose products are large enough to go through the additive transform
/// ([`crate::gf2::fft`]): the ring identities hold there too, against the square
/// (which is linear and takes no product) and a Frobenius power (a ring morphism).
/// The Kronecker product of every level, in level `i`.
fn kron(t: &BinomialTower, i: usize, a: &[u64], b: &[u64]) -> Vec<u64> {
    unstoppable(t.mul_kronecker_until(i, a, b, &Never))
}

/// The sample tower with products through the polynomial basis of level `k`.
fn sample_flat(k: usize) -> BinomialTower {
    let mut t = sample();
    t.set_flat(0, 4 * [1, 3, 15][k]);
    assert_eq!(t.flat_level(), Some(k));
    t
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn products_through_a_polynomial_basis_agree_with_the_definition(
        (a, b) in (element(&sample()), element(&sample())), k in 1usize..3
    ) {
        let t = sample_flat(k);
        let want = reference::mul(&t, &a, &b);
        prop_assert_eq!(t.mul(&a, &b), want.clone());
        prop_assert_eq!(kron(&t, 3, &a, &b), want);
        prop_assert_eq!(t.mul(&a, &a), reference::mul(&t, &a, &a));
        // Level 2 through level 1's basis.
        let (a2, b2) = (&a[..15], &b[..15]);
        prop_assert_eq!(t.mul_at(2, a2, b2), kron(&t, 2, a2, b2));
    }
}

/// A tower past `MAX_BINOMIAL_DEGREE` is refused with a limit no setting raises.
#[test]
fn towers_past_the_degree_limit_are_a_fixed_limit() {
    let mut t = BinomialTower::new(&[0b10011]).unwrap();
    let r = t.adjoin(1 << 27, vec![Monomial { c: 2, e: vec![] }]);
    assert!(
        matches!(&r, Err(Error::Limit(l)) if l.kind == crate::LimitKind::Fixed),
        "{r:?}"
    );
    assert_eq!(t.height(), 0);
}

#[test]
fn polynomial_basis_edges() {
    let t = sample_flat(2);
    let fl = t.flat().unwrap();
    // θ^0 = 1, and the coordinates of 1 are (1, 0, …).
    assert_eq!(fl.powers[..fl.cw], t.compact(&t.one_at(2), fl.cw)[..]);
    assert_eq!(fl.to_flat[0], 1);
    // Zero, one, and elements with only top or only bottom coefficients.
    let w = t.words();
    let zero = vec![0u64; w];
    let mut top = vec![0u64; w];
    top[w - 1] = 15;
    let mut low = vec![0u64; w];
    low[0] = 9;
    for a in [&zero, &t.one(), &top, &low] {
        for b in [&zero, &t.one(), &top, &low] {
            assert_eq!(t.mul(a, b), reference::mul(&t, a, b));
        }
    }
    // No level of at most 3 bits: no polynomial basis; towers too small: none either.
    let mut none = sample();
    none.set_flat(0, 3);
    assert_eq!(none.flat_level(), None);
    assert_eq!(sample().flat_level(), None);
}

/// `count` pseudo-random elements of GF(16) (xorshift from `seed`).
fn nibbles(count: usize, seed: u64) -> Vec<u64> {
    let mut x = 0x2545_f491_4f6c_dd1du64 ^ seed;
    (0..count)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x & 15
        })
        .collect()
}

/// The sample tower with two more levels, `W = 15015` words: large enough for the
/// additive transform.
fn big_sample() -> BinomialTower {
    let mut t = sample();
    t.adjoin(
        11,
        vec![
            Monomial {
                c: 3,
                e: vec![1, 2, 3],
            },
            Monomial {
                c: 1,
                e: vec![0, 4, 0],
            },
        ],
    )
    .unwrap();
    t.adjoin(
        13,
        vec![
            Monomial {
                c: 7,
                e: vec![2, 0, 5, 10],
            },
            Monomial {
                c: 2,
                e: vec![0, 0, 0, 0],
            },
        ],
    )
    .unwrap();
    t
}

#[test]
fn transform_sized_products_keep_the_ring_identities() {
    let mut t = big_sample();
    t.set_flat(usize::MAX, 0);
    assert_eq!(t.flat_level(), None);
    // An operand's Kronecker image, the shorter factor of the product.
    let last = t.padded_index(5, t.words() - 1, 1);
    assert!((last + 1) * (2 * t.d - 1) / 64 >= gf2::FFT_WORDS, "{last}");
    let a = nibbles(t.words(), 1);
    let b = nibbles(t.words(), 2);
    let c = nibbles(t.words(), 3);
    // A product through the transform stops on a cancelled control, and runs to the same
    // product on a live one.
    let token = crate::control::CancelToken::new();
    let ctl = Control::none().with_token(token.clone());
    assert_eq!(t.mul_until(&a, &b, &Deadline::of(&ctl)), Ok(t.mul(&a, &b)));
    token.cancel();
    assert!(matches!(
        t.mul_until(&a, &b, &Deadline::of(&ctl)),
        Err(Error::Cancelled(_))
    ));
    assert!(matches!(
        t.pow(&a, &BigUint::from(12345u32), &ctl),
        Err(Error::Cancelled(_))
    ));
    assert_eq!(t.mul(&a, &a), t.square(&a));
    let bc: Vec<u64> = b.iter().zip(&c).map(|(x, y)| x ^ y).collect();
    let ab = t.mul(&a, &b);
    let lhs = t.mul(&a, &bc);
    let rhs: Vec<u64> = ab.iter().zip(t.mul(&a, &c)).map(|(x, y)| x ^ y).collect();
    assert_eq!(lhs, rhs);
    assert_eq!(t.mul(&ab, &c), t.mul(&a, &t.mul(&b, &c)));
    let fr = t.frobenius(3, &Control::none()).unwrap();
    assert_eq!(
        t.apply(&fr, &ab),
        t.mul(&t.apply(&fr, &a), &t.apply(&fr, &b))
    );
}

/// At transform sizes, products through the polynomial basis of level 3 (420 bits) agree
/// with the Kronecker products of every level, themselves through the transform.
#[test]
fn transform_sized_products_through_a_polynomial_basis() {
    let mut t = big_sample();
    t.set_flat(0, FLAT_BITS);
    assert_eq!(t.flat_level(), Some(3));
    let a = nibbles(t.words(), 4);
    let b = nibbles(t.words(), 5);
    let top = t.height();
    assert_eq!(t.mul(&a, &b), kron(&t, top, &a, &b));
    assert_eq!(t.mul(&a, &a), kron(&t, top, &a, &a));
    let w4 = t.w[4];
    assert_eq!(
        t.mul_at(4, &a[..w4], &b[..w4]),
        kron(&t, 4, &a[..w4], &b[..w4])
    );
}

#[test]
fn sample_field_axioms_and_order() {
    // Every nonzero x satisfies x^(2^M - 1) = 1 in a field; the norm to GF(2^f) for f | M
    // agrees with the power (2^M - 1)/(2^f - 1).
    let t = sample();
    let ctl = Control::none();
    let m = t.degree();
    assert_eq!(m, 4 * 3 * 5 * 7);
    let mut x = vec![0u64; t.words()];
    x[1] = 3;
    x[t.words() - 1] = 5;
    x[7] = 1;
    let order = (BigUint::one() << m) - 1u32;
    assert!(t.is_one(&t.pow(&x, &order, &ctl).unwrap()));
    for f in [4u64, 12, 20, 60, 140] {
        let e = ((BigUint::one() << m) - 1u32) / ((BigUint::one() << f) - 1u32);
        assert_eq!(
            t.norm(&x, f, &ctl).unwrap(),
            t.pow(&x, &e, &ctl).unwrap(),
            "f={f}"
        );
    }
    // Y_1 = the cube root of z has degree 12; z^5 (a cube root of unity) degree 2.
    let y = t
        .monomial(&Monomial {
            c: 1,
            e: vec![1, 0, 0],
        })
        .unwrap();
    assert_eq!(t.element_degree(&y, &ctl).unwrap(), 12);
    let w = t
        .monomial(&Monomial {
            c: t.mul0(t.mul0(2, 2), t.mul0(t.mul0(2, 2), 2)),
            e: vec![0, 0, 0],
        })
        .unwrap();
    assert_eq!(t.element_degree(&w, &ctl).unwrap(), 2);
    assert_eq!(t.element_degree(&x, &ctl).unwrap(), m);
}
