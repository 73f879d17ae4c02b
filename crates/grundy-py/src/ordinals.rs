//! Ordinals: the `Ordinal` class (Cantor normal form, nim-sum, nim product) and the games with
//! transfinite values (cascading nim, the matrix game, the DAG game).

use super::*;

/// An ordinal below ε₀ in Cantor normal form (`w^(w+1)*2+w+7`), with nim-sum and nim-product.
#[pyclass(frozen, module = "grundy", name = "Ordinal")]
pub(crate) struct PyOrdinal(Ordinal);

pub(crate) fn ordinal_arg(obj: &Bound<'_, PyAny>) -> PyResult<Option<Ordinal>> {
    if let Ok(o) = obj.cast::<PyOrdinal>() {
        return Ok(Some(o.get().0.clone()));
    }
    if obj.is_instance_of::<PyInt>() {
        return Ok(Some(Ordinal::from(natural(obj, "ordinal")?)));
    }
    if let Ok(s) = obj.extract::<String>() {
        return Ok(Some(
            grundy::notation::ordinal::parse_ordinal(&s).map_err(|e| to_py(e.into()))?,
        ));
    }
    Ok(None)
}

pub(crate) fn need_ordinal(obj: &Bound<'_, PyAny>) -> PyResult<Ordinal> {
    ordinal_arg(obj)?
        .ok_or_else(|| PyValueError::new_err("expected an Ordinal, an int or a string"))
}

pub(crate) fn new_ordinal(py: Python<'_>, x: Ordinal) -> PyResult<Py<PyAny>> {
    new_object(py, PyOrdinal(x))
}

#[pymethods]
impl PyOrdinal {
    /// An ordinal from its notation (`"w^2*3+1"`), a natural number, or an Ordinal.
    #[new]
    #[pyo3(signature = (value=None))]
    fn new(value: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        guard(|| match value {
            None => Ok(PyOrdinal(Ordinal::zero())),
            Some(v) => Ok(PyOrdinal(need_ordinal(v)?)),
        })
    }

    /// The nim-sum (Hessenberg-style coefficient-wise xor).
    fn nim_sum(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        guard(|| new_ordinal(py, nim_sum(&self.0, &need_ordinal(other)?)))
    }

    /// The nim-product (Conway's multiplication of On₂), below ω^(ω^ω).
    fn nim_mul(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        guard(|| {
            let (a, b) = (self.0.clone(), need_ordinal(other)?);
            let r = run(py, None, |ctl| {
                let mut field = ClosureField::<NimBig>::new();
                field.watch(ctl);
                field.mul_ordinals(&a, &b)
            })?;
            new_ordinal(py, r)
        })
    }

    /// The nim-inverse (below ω^(ω^ω)).
    fn nim_inv(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        guard(|| {
            let a = self.0.clone();
            let r = run(py, None, |ctl| {
                let mut field = ClosureField::<NimBig>::new();
                field.watch(ctl);
                field.inv_ordinal(&a)
            })?;
            new_ordinal(py, r)
        })
    }

    /// The nim-power `self ** e` for a natural number e.
    fn nim_pow(&self, py: Python<'_>, e: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        guard(|| {
            let (a, e) = (self.0.clone(), natural(e, "exponent")?);
            let r = run(py, None, |ctl| {
                let mut field = ClosureField::<NimBig>::new();
                field.watch(ctl);
                field.pow_ordinal(&a, &e)
            })?;
            new_ordinal(py, r)
        })
    }

    /// `^` is the nim-sum, as for ints.
    fn __xor__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        guard(|| match ordinal_arg(other)? {
            Some(o) => new_ordinal(py, nim_sum(&self.0, &o)),
            None => Ok(py.NotImplemented()),
        })
    }

    fn __rxor__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        self.__xor__(py, other)
    }

    /// Whether the ordinal is a natural number.
    #[getter]
    fn is_finite(&self) -> bool {
        self.0.is_finite()
    }

    /// The Cantor normal form's terms `(exponent, coefficient)`, leading term first.
    #[getter]
    fn terms(&self, py: Python<'_>) -> PyResult<Vec<(Py<PyAny>, BigUint)>> {
        self.0
            .terms()
            .iter()
            .map(|t| Ok((new_ordinal(py, t.exponent.clone())?, t.coefficient.clone())))
            .collect()
    }

    fn __int__(&self) -> PyResult<BigUint> {
        self.0
            .as_natural()
            .ok_or_else(|| PyValueError::new_err(format!("{} is not a natural number", self.0)))
    }

    fn __bool__(&self) -> bool {
        !self.0.is_zero()
    }

    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        match self.0.as_natural() {
            Some(n) => n.into_pyobject(py)?.hash(),
            None => self.0.to_string().into_pyobject(py)?.hash(),
        }
    }

    fn __richcmp__(
        &self,
        py: Python<'_>,
        other: &Bound<'_, PyAny>,
        op: pyo3::basic::CompareOp,
    ) -> PyResult<Py<PyAny>> {
        guard(|| {
            // A string is notation to build an Ordinal from, not an ordinal to compare with.
            let ordering = match other.extract::<String>() {
                Ok(_) => None,
                Err(_) => ordinal_arg(other)?.map(|o| self.0.cmp(&o)),
            };
            Ok(compared(py, ordering, op))
        })
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Ordinal('{}')", self.0)
    }

    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, (String,))> {
        Ok((
            py.get_type::<PyOrdinal>().into_any().unbind(),
            (self.0.to_string(),),
        ))
    }
}

/// The value of cascading nim: rows of piles, leftmost pile the highest power.
#[pyfunction]
pub(crate) fn cascade(py: Python<'_>, rows: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    guard(|| {
        let rows: Vec<Vec<BigUint>> = rows
            .try_iter()?
            .enumerate()
            .map(|(i, r)| naturals(&r?, &format!("row {} pile", i + 1)))
            .collect::<PyResult<_>>()?;
        if rows.iter().any(Vec::is_empty) {
            return Err(PyValueError::new_err("cascade: every row needs a pile"));
        }
        new_ordinal(py, cascade_value(&rows))
    })
}

/// A level game's value and a winning move `(vertex, from, to, [(vertex, new heap)...])`.
pub(crate) type LevelAnswer = (
    Py<PyAny>,
    Option<(usize, BigUint, BigUint, Vec<(usize, BigUint)>)>,
);

pub(crate) fn level_answer(
    py: Python<'_>,
    game: &LevelGame,
    heaps: &[BigUint],
) -> PyResult<LevelAnswer> {
    let v = game.value(heaps).map_err(to_py)?;
    let mv = game.winning_move(heaps).map_err(to_py)?;
    Ok((
        new_ordinal(py, v)?,
        mv.map(|m| (m.vertex, m.from, m.to, m.set)),
    ))
}

/// The matrix game of Codeforces 1451F ("Nullify The Matrix"): value and a winning move, cells
/// numbered row by row.
#[pyfunction]
pub(crate) fn _matrix_game(py: Python<'_>, rows: &Bound<'_, PyAny>) -> PyResult<LevelAnswer> {
    guard(|| {
        let rows: Vec<Vec<BigUint>> = rows
            .try_iter()?
            .enumerate()
            .map(|(i, r)| naturals(&r?, &format!("row {} entry", i + 1)))
            .collect::<PyResult<_>>()?;
        let m = rows.first().map_or(0, Vec::len);
        if m == 0 || rows.iter().any(|r| r.len() != m) {
            return Err(PyValueError::new_err(
                "matrix: expected a non-empty matrix with rows of equal length",
            ));
        }
        let game = LevelGame::grid(rows.len(), m).map_err(to_py)?;
        let heaps: Vec<BigUint> = rows.into_iter().flatten().collect();
        level_answer(py, &game, &heaps)
    })
}

/// A level game on a DAG given by successor lists: `path` rule (the DAG path game) or
/// successors rule (Codeforces 1149E, "Election Promises").
#[pyfunction]
pub(crate) fn _dag_game(
    py: Python<'_>,
    successors: Vec<Vec<usize>>,
    heaps: &Bound<'_, PyAny>,
    path: bool,
) -> PyResult<LevelAnswer> {
    guard(|| {
        let heaps = naturals(heaps, "heap")?;
        if heaps.len() != successors.len() {
            return Err(PyValueError::new_err(format!(
                "{} heaps for {} vertices",
                heaps.len(),
                successors.len()
            )));
        }
        let rule = if path {
            FreeSet::Path
        } else {
            FreeSet::Successors
        };
        let game = LevelGame::new(successors, rule).map_err(to_py)?;
        level_answer(py, &game, &heaps)
    })
}
