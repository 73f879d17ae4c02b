//! What Jupyter shows: plots of Grundy sequences and misère quotients.
//!
//! A [`Plot`] is the command line's picture (`grundy seq --plot`, `grundy analyze --plot`):
//! it holds a [`Figure`] of `grundy::figure` and renders it with the same code, so a
//! notebook and a `--plot` file of the same game are the same SVG. A [`Quotient`] is the
//! library's [`MisereQuotient`] as plain Python values; the package's `MisereQuotient` draws
//! its multiplication table from them (`python/grundy/_display.py`).

use crate::{guard, naturals, to_py, InternalError, NativeHeapGame};
use grundy::figure::{self, Figure, Markers};
use grundy::misere::{self, MisereQuotient, Tameness};
use grundy::pattern::value::SequenceAnalysis;
use grundy::{Error, LimitKind};
use num_traits::ToPrimitive;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;

/// A plot of G(0), G(1), ... as the command line draws it; Jupyter shows it (`_repr_svg_`).
#[pyclass(frozen, module = "grundy", name = "Plot")]
pub struct Plot(Figure);

/// A figure of at most [`figure::MAX_POINTS`] values, or the limit error `grundy seq --plot`
/// gives for more.
fn bounded(fig: Figure) -> PyResult<Plot> {
    if fig.values.len() > figure::MAX_POINTS {
        return Err(to_py(Error::limit(
            LimitKind::Length,
            format!("a plot holds at most {} values", figure::MAX_POINTS),
            "plot fewer values",
        )));
    }
    Ok(Plot(fig))
}

/// Grundy values from any iterable of natural numbers below 2^64 (`ValueError` otherwise).
fn grundy_values(values: &Bound<'_, PyAny>) -> PyResult<Vec<u64>> {
    naturals(values, "value")?
        .iter()
        .enumerate()
        .map(|(i, v)| {
            v.to_u64().ok_or_else(|| {
                PyValueError::new_err(format!("value {}: {v} is not below 2^64", i + 1))
            })
        })
        .collect()
}

impl Plot {
    /// The plot of an analysis, as `grundy analyze --plot` draws it.
    pub fn of_analysis(a: &SequenceAnalysis) -> PyResult<Plot> {
        guard(|| bounded(Figure::analysis(a)))
    }
}

#[pymethods]
impl Plot {
    /// A plot of `values` (G(0), G(1), ...) under `title`, nothing marked.
    #[new]
    fn new(values: &Bound<'_, PyAny>, title: String) -> PyResult<Self> {
        guard(|| {
            bounded(Figure {
                title,
                values: grundy_values(values)?,
                markers: Markers::None,
            })
        })
    }

    /// The plot of `grundy seq GAME -n N --plot`: `values` are G(0), ..., G(N-1).
    #[staticmethod]
    fn sequence(game: &str, values: &Bound<'_, PyAny>) -> PyResult<Self> {
        guard(|| bounded(Figure::sequence(game, grundy_values(values)?)))
    }

    /// The caption.
    #[getter]
    fn title(&self) -> String {
        self.0.title.clone()
    }

    /// The values plotted, G(0) first.
    #[getter]
    fn values(&self) -> Vec<u64> {
        self.0.values.clone()
    }

    /// The SVG text.
    pub fn svg(&self) -> PyResult<String> {
        guard(|| figure::render_svg(&self.0).map_err(InternalError::new_err))
    }

    fn _repr_svg_(&self) -> PyResult<String> {
        self.svg()
    }

    /// Writes the SVG to `path` (`OSError` when the file cannot be written).
    fn save(&self, path: std::path::PathBuf) -> PyResult<()> {
        let svg = self.svg()?;
        std::fs::write(&path, svg)
            .map_err(|e| PyOSError::new_err(format!("{}: {e}", path.display())))
    }

    fn __repr__(&self) -> String {
        format!("Plot({:?}, {} values)", self.0.title, self.0.values.len())
    }
}

/// The misère quotient of a heap game as plain values (the package's `MisereQuotient` wraps
/// it).
#[pyclass(frozen, module = "grundy._grundy", name = "Quotient")]
pub struct Quotient(MisereQuotient);

/// `grundy misere GAME --max-heap N`: the misère quotient of the heaps up to `max_heap`.
#[pyfunction]
#[pyo3(signature = (game, max_heap, progress=None))]
pub fn _misere_quotient(
    py: Python<'_>,
    game: &NativeHeapGame,
    max_heap: u64,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<Quotient> {
    guard(|| {
        game.with(py, progress, |g, ctl| misere::quotient(g, max_heap, ctl))
            .map(Quotient)
    })
}

#[pymethods]
impl Quotient {
    /// The quotient as the document of `grundy misere --json` (`docs/schemas/quotient.json`).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::document(py, &misere::QuotientDocument::from(&self.0))
    }
    #[getter]
    fn game(&self) -> String {
        self.0.game().to_string()
    }
    #[getter]
    fn max_heap(&self) -> u64 {
        self.0.max_heap()
    }
    /// Every element as its normal word in the generators (`1` for the identity), by index.
    #[getter]
    fn elements(&self) -> Vec<String> {
        self.0.elements()
    }
    /// The multiplication table, row by row, of element indices.
    #[getter]
    fn table(&self) -> Vec<Vec<usize>> {
        self.0.table()
    }
    #[getter]
    fn p_portion(&self) -> Vec<usize> {
        self.0.p_portion()
    }
    /// The element of each heap 0, 1, ..., max_heap.
    #[getter]
    fn heap_map(&self) -> Vec<usize> {
        self.0.heap_map()
    }
    #[getter]
    fn generators(&self) -> Vec<(String, u64)> {
        self.0
            .generators()
            .iter()
            .map(|g| (g.name.clone(), g.heap))
            .collect()
    }
    #[getter]
    fn relations(&self) -> Vec<(String, String)> {
        self.0
            .relations()
            .iter()
            .map(|r| (r.left.clone(), r.right.clone()))
            .collect()
    }
    /// `(preperiod, period, statement)` when the quotient is proved for every heap size.
    #[getter]
    fn proof(&self) -> Option<(u64, u64, String)> {
        self.0
            .proof()
            .map(|p| (p.preperiod, p.period, p.describe(self.0.max_heap())))
    }
    /// `"trivial"`, `"tame"` or `"wild"`.
    #[getter]
    fn tameness(&self) -> &'static str {
        match self.0.tameness() {
            Tameness::Trivial => "trivial",
            Tameness::Tame { .. } => "tame",
            _ => "wild",
        }
    }
    /// The element of a heap of `n` tokens (for every n once the quotient is proved), or None.
    fn of_heap(&self, n: u64) -> Option<usize> {
        self.0.of_heap(n)
    }
    /// The element of a sum of heaps, or None when a heap has none.
    fn of_heaps(&self, heaps: Vec<u64>) -> Option<usize> {
        self.0.of_heaps(&heaps)
    }
}
