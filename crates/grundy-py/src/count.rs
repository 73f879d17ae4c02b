//! Counting positions: how many tuples or multisets of heaps have a given nim-sum.

use super::*;

/// The most values `count` computes before it relies on a proved pattern.
pub(crate) const COUNT_MAX_VALUES: u64 = 1 << 23;

/// `grundy count`: the number of `heaps`-tuples (or multisets) of heap sizes in `[min, max]`
/// whose values xor to `nim_sum`, modulo `modulus`; with `distribution`, the count for every
/// nim-sum.
#[pyfunction]
#[pyo3(signature = (game, heaps, max, min=None, nim_sum=None, modulus=None, unordered=false, distribution=false, progress=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn _count(
    py: Python<'_>,
    game: &NativeHeapGame,
    heaps: &Bound<'_, PyAny>,
    max: u128,
    min: Option<u128>,
    nim_sum: Option<&Bound<'_, PyAny>>,
    modulus: Option<&Bound<'_, PyAny>>,
    unordered: bool,
    distribution: bool,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<(BigUint, Option<Vec<BigUint>>)> {
    guard(|| {
        let heaps = natural(heaps, "heaps")?;
        let min = min.unwrap_or(1);
        let nim_sum = match nim_sum {
            Some(x) => natural(x, "nim_sum")?,
            None => BigUint::zero(),
        };
        let modulus = match modulus {
            Some(q) if !q.is_none() => {
                let q = natural(q, "mod")?;
                if q.is_zero() {
                    return Err(PyValueError::new_err(
                        "--mod: expected a positive modulus, found 0",
                    ));
                }
                Some(q)
            }
            _ => None,
        };
        if max == u128::MAX {
            return Err(PyValueError::new_err(
                "--max: expected a heap size below 2^128 - 1 (the range must have a size below 2^128)",
            ));
        }
        if min > max {
            return Err(PyValueError::new_err(format!(
                "--min {min} is above --max {max}: expected M <= N"
            )));
        }
        let spec = CountSpec::new(heaps, nim_sum)
            .with_modulus(modulus)
            .with_unordered(unordered)
            .with_distribution(distribution);
        let answer = game.with(py, progress, |g, ctl| {
            let budget = value::default_max(g.spec())
                .max(COUNT_MAX_VALUES.min(max.saturating_add(1) as u64));
            let analysis = value::analyze(g, budget, ctl)?;
            let h = histogram_of_analysis(g, &analysis, min, max, &Limits::default(), ctl)?;
            count_from_histogram_with(&h, &spec, ctl)
        })?;
        Ok((answer.count, answer.distribution))
    })
}
