//! Nimbers: the `Nimber` class (any size, with the field's operations) and the batch nim
//! products over numpy arrays.

use super::*;

/// The nimber argument of an operator: a `Nimber` or a natural Python int; `None` for anything
/// else (the operator then returns `NotImplemented`).
pub(crate) fn nim_arg(obj: &Bound<'_, PyAny>) -> PyResult<Option<AnyNimber>> {
    if let Ok(n) = obj.cast::<Nimber>() {
        return Ok(Some(n.get().0.clone()));
    }
    if obj.is_instance_of::<PyInt>() {
        return Ok(Some(AnyNimber::from_biguint(&natural(obj, "nimber")?)));
    }
    Ok(None)
}

/// A nimber: a natural number under nim-addition (xor) and nim-multiplication, the field
/// operations of Conway's field On₂. Any size; Python ints convert both ways.
#[pyclass(frozen, module = "grundy", name = "Nimber")]
pub(crate) struct Nimber(AnyNimber);

pub(crate) fn new_nimber(py: Python<'_>, x: AnyNimber) -> PyResult<Py<PyAny>> {
    new_object(py, Nimber(x))
}

#[pymethods]
impl Nimber {
    #[new]
    #[pyo3(signature = (value=None))]
    fn new(value: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        guard(|| match value {
            None => Ok(Nimber(AnyNimber::zero())),
            Some(v) => match nim_arg(v)? {
                Some(x) => Ok(Nimber(x)),
                None => {
                    // Also accept anything int() accepts that is an integer (numpy integers).
                    let i = v.call_method0("__index__")?;
                    Ok(Nimber(AnyNimber::from_biguint(&natural(&i, "nimber")?)))
                }
            },
        })
    }

    fn __add__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        guard(|| match nim_arg(other)? {
            Some(o) => new_nimber(py, self.0.nim_add(&o)),
            None => Ok(py.NotImplemented()),
        })
    }

    fn __radd__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        self.__add__(py, other)
    }

    /// Subtraction is addition: every nimber is its own negative.
    fn __sub__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        self.__add__(py, other)
    }

    fn __rsub__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        self.__add__(py, other)
    }

    fn __mul__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        guard(|| match nim_arg(other)? {
            Some(o) => new_nimber(py, self.0.nim_mul(&o)),
            None => Ok(py.NotImplemented()),
        })
    }

    fn __rmul__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        self.__mul__(py, other)
    }

    fn __truediv__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        guard(|| match nim_arg(other)? {
            Some(o) => match o.nim_inv() {
                Some(i) => new_nimber(py, self.0.nim_mul(&i)),
                None => Err(PyZeroDivisionError::new_err("nimber division by 0")),
            },
            None => Ok(py.NotImplemented()),
        })
    }

    fn __rtruediv__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        guard(|| match nim_arg(other)? {
            Some(o) => match self.0.nim_inv() {
                Some(i) => new_nimber(py, o.nim_mul(&i)),
                None => Err(PyZeroDivisionError::new_err("nimber division by 0")),
            },
            None => Ok(py.NotImplemented()),
        })
    }

    /// `self ** e` in the nim-product; a negative `e` raises the inverse to `-e`.
    fn __pow__(
        &self,
        py: Python<'_>,
        exponent: &Bound<'_, PyAny>,
        modulo: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        guard(|| {
            if modulo.is_some_and(|m| !m.is_none()) {
                return Ok(py.NotImplemented());
            }
            let Ok(e) = exponent.extract::<BigInt>() else {
                return Ok(py.NotImplemented());
            };
            let base = if e.is_negative() {
                self.0
                    .nim_inv()
                    .ok_or_else(|| PyZeroDivisionError::new_err("0 has no nim-inverse"))?
            } else {
                self.0.clone()
            };
            let e = e.magnitude();
            let r = match &base {
                AnyNimber::Fixed(x) => AnyNimber::Fixed(algebra::pow(x, e)),
                AnyNimber::Big(x) => AnyNimber::from_big(x.checked_pow(e).map_err(to_py)?),
            };
            new_nimber(py, r)
        })
    }

    fn __neg__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __pos__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The nim-inverse (`ZeroDivisionError` for 0).
    fn inv(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        guard(|| match self.0.nim_inv() {
            Some(i) => new_nimber(py, i),
            None => Err(PyZeroDivisionError::new_err("0 has no nim-inverse")),
        })
    }

    /// The nim-square root: the unique `r` with `r * r == self` (squaring is a bijection).
    fn sqrt(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        guard(|| new_nimber(py, self.0.nim_sqrt()))
    }

    /// The multiplicative order: the least `n >= 1` with `self ** n == 1` (`ValueError` for 0).
    fn order(&self, py: Python<'_>) -> PyResult<BigUint> {
        guard(|| {
            let x = self.0.clone();
            run(py, None, |ctl| match &x {
                AnyNimber::Fixed(a) => algebra::order_with(a, ctl),
                AnyNimber::Big(a) => algebra::order_with(a, ctl),
            })
        })
    }

    /// The discrete logarithm of `self` to `base`: the least `x >= 0` with `base ** x == self`,
    /// or `None` when there is none (nimbers up to 2^128 at least).
    fn log(&self, py: Python<'_>, base: &Bound<'_, PyAny>) -> PyResult<Option<BigUint>> {
        guard(|| {
            let b = nim_arg(base)?
                .ok_or_else(|| PyValueError::new_err("log: the base must be a nimber or an int"))?;
            let y = self.0.clone();
            run(py, None, |ctl| match (&b, &y) {
                (AnyNimber::Fixed(b), AnyNimber::Fixed(y)) => algebra::log_with(b, y, ctl),
                (b, y) => algebra::log_with(&b.to_big(), &y.to_big(), ctl),
            })
        })
    }

    /// All roots of `x**2 + b*x + c == 0` among the nimbers, ascending (empty when none).
    #[staticmethod]
    fn solve_quadratic(
        py: Python<'_>,
        b: &Bound<'_, PyAny>,
        c: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<Py<PyAny>>> {
        guard(|| {
            let arg = |x: &Bound<'_, PyAny>| {
                nim_arg(x)?
                    .ok_or_else(|| PyValueError::new_err("expected a nimber or an int"))
                    .map(|n| n.to_big())
            };
            let (b, c) = (arg(b)?, arg(c)?);
            let roots = NimBig::solve_quadratic(&b, &c).map_err(to_py)?;
            roots
                .into_iter()
                .map(|r| new_nimber(py, AnyNimber::from_big(r)))
                .collect()
        })
    }

    fn __int__(&self) -> BigUint {
        self.0.to_biguint()
    }

    fn __index__(&self) -> BigUint {
        self.0.to_biguint()
    }

    fn __bool__(&self) -> bool {
        !self.0.is_zero()
    }

    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        // Equal to hash(int(self)), as a nimber equals the int of the same value.
        self.0.to_biguint().into_pyobject(py)?.hash()
    }

    fn __richcmp__(
        &self,
        py: Python<'_>,
        other: &Bound<'_, PyAny>,
        op: pyo3::basic::CompareOp,
    ) -> PyResult<Py<PyAny>> {
        guard(|| {
            let ordering = nim_arg(other)?.map(|o| self.0.to_biguint().cmp(&o.to_biguint()));
            Ok(compared(py, ordering, op))
        })
    }

    fn __repr__(&self) -> String {
        format!("Nimber({})", self.0.to_biguint())
    }

    fn __str__(&self) -> String {
        format!("*{}", self.0.to_biguint())
    }

    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, (BigUint,))> {
        Ok((
            py.get_type::<Nimber>().into_any().unbind(),
            (self.0.to_biguint(),),
        ))
    }
}

/// The error of a numpy array that cannot be read in place (not contiguous).
pub(crate) fn unusable(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// `out[i] = a[i] ⊗ b[i]` over contiguous `uint64` arrays, in place in `out`, on rayon's pool
/// with the GIL released.
#[pyfunction]
pub(crate) fn _nim_mul_arrays(
    py: Python<'_>,
    a: PyReadonlyArray1<'_, u64>,
    b: PyReadonlyArray1<'_, u64>,
    mut out: PyReadwriteArray1<'_, u64>,
) -> PyResult<()> {
    guard(|| {
        let a = a.as_slice().map_err(unusable)?;
        let b = b.as_slice().map_err(unusable)?;
        let out = out.as_slice_mut().map_err(unusable)?;
        if a.len() != b.len() || a.len() != out.len() {
            return Err(PyValueError::new_err(format!(
                "nim_mul: the arrays have lengths {}, {} and {}",
                a.len(),
                b.len(),
                out.len()
            )));
        }
        py.detach(|| batch::par_mul_slice(nims(a), nims(b), nims_mut(out)));
        Ok(())
    })
}

/// `out[i] = c ⊗ xs[i]` (the product by a constant, tabulated once).
#[pyfunction]
pub(crate) fn _nim_mul_scalar(
    py: Python<'_>,
    c: u64,
    xs: PyReadonlyArray1<'_, u64>,
    mut out: PyReadwriteArray1<'_, u64>,
) -> PyResult<()> {
    guard(|| {
        let xs = xs.as_slice().map_err(unusable)?;
        let out = out.as_slice_mut().map_err(unusable)?;
        if xs.len() != out.len() {
            return Err(PyValueError::new_err("nim_mul: lengths differ"));
        }
        py.detach(|| batch::mul_scalar_slice(Nim64(c), nims(xs), nims_mut(out)));
        Ok(())
    })
}

pub(crate) fn nims(xs: &[u64]) -> &[Nim64] {
    // SAFETY: `Nim64` is `repr(transparent)` over `u64`: same size, alignment and validity.
    unsafe { std::slice::from_raw_parts(xs.as_ptr().cast::<Nim64>(), xs.len()) }
}

pub(crate) fn nims_mut(xs: &mut [u64]) -> &mut [Nim64] {
    // SAFETY: as in `nims`; the borrow is unique.
    unsafe { std::slice::from_raw_parts_mut(xs.as_mut_ptr().cast::<Nim64>(), xs.len()) }
}
