//! The native half of the Python package `grundy`: PyO3 classes and functions over the library's
//! public interface, imported as `grundy._grundy` and re-exported (with pure-Python helpers:
//! progress bars, graphs from networkx, plots) by `python/grundy/__init__.py`.
//!
//! Three rules hold at this boundary:
//! - **Errors.** A library error becomes a Python exception once, here ([`to_py`]): bad input
//!   `ValueError` with the message the command line prints, a stated limit `grundy.LimitError`
//!   (with `kind`, the setting that raises it), a cancellation `KeyboardInterrupt`.
//! - **No panic crosses.** Every entry point runs under [`guard`] (`catch_unwind`), and long
//!   computations run on a worker thread whose panic is caught the same way; a panic becomes
//!   `grundy.InternalError` (a `RuntimeError`), never PyO3's `PanicException`, a `BaseException`.
//! - **Long work releases the GIL** and stops on Ctrl-C ([`run`]): the worker runs with the GIL
//!   released while the calling thread polls `PyErr_CheckSignals` and forwards progress, so the
//!   worker itself pays one relaxed atomic store a progress report and nothing else.

use grundy::control::{CancelToken, Control, MemoryBudget, LIBRARY_MEMORY_ADVICE};
use grundy::count::histogram::{histogram_of_analysis, Limits};
use grundy::count::{count_from_histogram_with, CountSpec};
use grundy::game::spec::GameSpec;
use grundy::heap::position::{self, PositionAnalysis};
use grundy::heap::{sequence, HeapGame, HeapRule, Options};
use grundy::nimber::{algebra, batch, AnyNimber, Nim64, NimBig, NimberField};
use grundy::notation::board::parse_board_game;
use grundy::notation::game::parse_game;
use grundy::notation::graph::{parse_graph, GraphFormat};
use grundy::ordinal::nim_mul::ClosureField;
use grundy::ordinal::nim_sum::nim_sum;
use grundy::pattern::periodic::Theorem;
use grundy::pattern::value::{self, AnalysisDocument, SequenceAnalysis};
use grundy::solve::loopy::{self, Gamma};
use grundy::solve::search::SolutionDocument;
use grundy::solve::{outcome, Outcome, Play};
use grundy::transfinite::games::{cascade_value, FreeSet, LevelGame};
use grundy::{Error, Graph, Ordinal};
use num_bigint::{BigInt, BigUint};
use num_traits::{Signed, ToPrimitive, Zero};
use numpy::{PyArray1, PyReadonlyArray1, PyReadwriteArray1};
use pyo3::exceptions::{
    PyKeyboardInterrupt, PyRuntimeError, PyTypeError, PyValueError, PyZeroDivisionError,
};
use pyo3::prelude::*;
use pyo3::types::PyInt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

mod display;

pyo3::create_exception!(
    grundy,
    LimitError,
    pyo3::exceptions::PyException,
    "A stated limit was reached; the message says which and how to raise it. `kind` names the \
     limit (`memory`, `values`, `positions`, ...)."
);
pyo3::create_exception!(
    grundy,
    InternalError,
    PyRuntimeError,
    "A failure inside grundy itself (a bug): the computation stopped, the interpreter lives on."
);

/// The Python exception for a library error.
fn to_py(e: Error) -> PyErr {
    match e {
        Error::Parse(p) => PyValueError::new_err(p.to_string()),
        Error::Invalid(m) => PyValueError::new_err(m),
        Error::Limit(l) => {
            let kind = format!("{:?}", l.kind).to_lowercase();
            let err = LimitError::new_err(l.to_string());
            Python::attach(|py| {
                // Setting an attribute on a fresh exception object cannot fail in practice; if it
                // did, the exception still carries the message.
                let _ = err.value(py).setattr("kind", kind);
            });
            err
        }
        Error::Cancelled(_) => PyKeyboardInterrupt::new_err("cancelled"),
        other => InternalError::new_err(other.to_string()),
    }
}

/// The message of a caught panic.
fn panic_message(p: Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}

/// An answer document (the one JSON shape the command line and the server write) as Python
/// values, through the JSON text: numbers stay exact, `null` becomes `None`.
pub(crate) fn document<'py>(
    py: Python<'py>,
    doc: &impl serde::Serialize,
) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(doc).map_err(|e| InternalError::new_err(e.to_string()))?;
    py.import("json")?.call_method1("loads", (text,))
}

/// Runs `f`, turning a panic into `grundy.InternalError`.
fn guard<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|p| {
        Err(InternalError::new_err(format!(
            "internal error: {}",
            panic_message(p)
        )))
    })
}

/// How often the calling thread looks for signals and progress while a worker computes.
const POLL: Duration = Duration::from_millis(25);

/// Runs `work` on a worker thread with the GIL released, under a [`Control`] whose cancel token
/// is set when `PyErr_CheckSignals` reports a signal (Ctrl-C), or when the `progress` callback
/// raises. The calling thread waits for the worker `POLL` at a time, re-acquiring the GIL
/// between waits to check signals and to call `progress(done)` when the count moved. The
/// signal's exception (normally `KeyboardInterrupt`) is raised once the worker has stopped.
fn run<T: Send>(
    py: Python<'_>,
    progress: Option<&Bound<'_, PyAny>>,
    work: impl FnOnce(&Control) -> grundy::Result<T> + Send,
) -> PyResult<T> {
    run_within(py, progress, MemoryBudget::unlimited(), work)
}

/// [`run`] with the worker's tables drawn from `memory`.
fn run_within<T: Send>(
    py: Python<'_>,
    progress: Option<&Bound<'_, PyAny>>,
    memory: MemoryBudget,
    work: impl FnOnce(&Control) -> grundy::Result<T> + Send,
) -> PyResult<T> {
    let token = CancelToken::new();
    let done = AtomicU64::new(0);
    let report = |d: u64| done.store(d, Relaxed);
    let callback: Option<Py<PyAny>> = progress.map(|p| p.clone().unbind());
    let (result, raised) = py.detach(|| {
        std::thread::scope(|s| {
            let (tx, rx) = mpsc::channel::<()>();
            let ctl = Control::none()
                .with_token(token.clone())
                .with_memory(memory)
                .with_progress(&report);
            let worker = s.spawn(move || {
                let r = catch_unwind(AssertUnwindSafe(|| work(&ctl)));
                let _ = tx.send(());
                r
            });
            let mut raised: Option<PyErr> = None;
            let mut shown = u64::MAX;
            while let Err(mpsc::RecvTimeoutError::Timeout) = rx.recv_timeout(POLL) {
                Python::attach(|py| {
                    if raised.is_some() {
                        return;
                    }
                    if let Err(e) = py.check_signals() {
                        token.cancel();
                        raised = Some(e);
                        return;
                    }
                    let d = done.load(Relaxed);
                    if let (Some(cb), true) = (&callback, d != shown) {
                        shown = d;
                        if let Err(e) = cb.call1(py, (d,)) {
                            token.cancel();
                            raised = Some(e);
                        }
                    }
                });
            }
            let result = worker.join().unwrap_or_else(Err).map_err(|p| {
                InternalError::new_err(format!("internal error: {}", panic_message(p)))
            });
            (result, raised)
        })
    });
    if let Some(e) = raised {
        return Err(e);
    }
    result?.map_err(to_py)
}

/// A natural number from a Python int (`ValueError` for a negative one).
fn natural(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<BigUint> {
    if let Ok(x) = obj.extract::<u64>() {
        return Ok(BigUint::from(x));
    }
    let x: BigInt = obj.extract()?;
    if x.is_negative() {
        return Err(PyValueError::new_err(format!(
            "{what}: expected a natural number, found {x}"
        )));
    }
    Ok(x.magnitude().clone())
}

fn naturals(objs: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<BigUint>> {
    objs.try_iter()?
        .enumerate()
        .map(|(i, o)| natural(&o?, &format!("{what} {}", i + 1)))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Nimbers

/// The nimber argument of an operator: a `Nimber` or a natural Python int; `None` for anything
/// else (the operator then returns `NotImplemented`).
fn nim_arg(obj: &Bound<'_, PyAny>) -> PyResult<Option<AnyNimber>> {
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
struct Nimber(AnyNimber);

fn new_nimber(py: Python<'_>, x: AnyNimber) -> PyResult<Py<PyAny>> {
    Ok(Bound::new(py, Nimber(x))?.into_any().unbind())
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
            let Some(o) = nim_arg(other)? else {
                return Ok(py.NotImplemented());
            };
            let (a, b) = (self.0.to_biguint(), o.to_biguint());
            Ok(pyo3::types::PyBool::new(py, op.matches(a.cmp(&b)))
                .to_owned()
                .into_any()
                .unbind())
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
fn unusable(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// `out[i] = a[i] ⊗ b[i]` over contiguous `uint64` arrays, in place in `out`, on rayon's pool
/// with the GIL released.
#[pyfunction]
fn _nim_mul_arrays(
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
fn _nim_mul_scalar(
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

fn nims(xs: &[u64]) -> &[Nim64] {
    // SAFETY: `Nim64` is `repr(transparent)` over `u64`: same size, alignment and validity.
    unsafe { std::slice::from_raw_parts(xs.as_ptr().cast::<Nim64>(), xs.len()) }
}

fn nims_mut(xs: &mut [u64]) -> &mut [Nim64] {
    // SAFETY: as in `nims`; the borrow is unique.
    unsafe { std::slice::from_raw_parts_mut(xs.as_mut_ptr().cast::<Nim64>(), xs.len()) }
}

// ---------------------------------------------------------------------------------------------
// Heap games

/// A heap game of the command line's GAME notation, or a Python callable's rule: the library's
/// engines either way.
#[pyclass(frozen, module = "grundy._grundy", name = "NativeHeapGame")]
struct NativeHeapGame {
    /// Locked during a computation: a script rule is pointed at each call's cancel token.
    game: Mutex<HeapGame>,
    name: String,
    /// For a Python rule: the exception its callable raised, re-raised as it is.
    raised: Option<Arc<Mutex<Option<PyErr>>>>,
}

impl NativeHeapGame {
    /// Runs `f` on the game under `run`, the game's script (if any) watching the call's token.
    /// When a Python rule raised, its own exception is raised, not the library's error.
    fn with<T: Send>(
        &self,
        py: Python<'_>,
        progress: Option<&Bound<'_, PyAny>>,
        f: impl FnOnce(&HeapGame, &Control) -> grundy::Result<T> + Send,
    ) -> PyResult<T> {
        let result = run(py, progress, |ctl| {
            let mut game = self
                .game
                .lock()
                .map_err(|_| Error::Internal("a previous call panicked".into()))?;
            game.watch(ctl);
            f(&game, ctl)
        });
        let raised = self.raised.as_ref().and_then(|r| r.lock().ok()?.take());
        match (result, raised) {
            (Err(_), Some(e)) => Err(e),
            (result, _) => result,
        }
    }
}

/// A heap rule that is a Python callable: `rule(n)` returns the options of a heap of `n`, each
/// the heap left (an int, 0 when it is gone) or an iterable of the heaps left. The library
/// checks every answer (each heap below `n`, the declared shape); an exception of the callable
/// is kept to be raised as it is.
struct PyRule {
    rule: Py<PyAny>,
    shape: Option<Theorem>,
    raised: Arc<Mutex<Option<PyErr>>>,
}

impl PyRule {
    /// The options of `n` as the callable answers them.
    fn call(&self, py: Python<'_>, n: u64, out: &mut Options) -> PyResult<()> {
        let natural = |h: &Bound<'_, PyAny>| {
            h.extract::<u64>().map_err(|_| {
                PyValueError::new_err(format!(
                    "rule({n}) returned a heap of {h}: a heap is a natural number"
                ))
            })
        };
        let answer = self.rule.bind(py).call1((n,))?;
        let mut heaps: Vec<u64> = Vec::new();
        for option in answer.try_iter()? {
            let option = option?;
            heaps.clear();
            if option.is_instance_of::<PyInt>() {
                heaps.push(natural(&option)?);
            } else {
                for h in option.try_iter()? {
                    heaps.push(natural(&h?)?);
                }
            }
            out.push(&heaps);
        }
        Ok(())
    }
}

impl HeapRule for PyRule {
    fn options(&self, n: u64, out: &mut Options) -> grundy::Result<()> {
        Python::attach(|py| {
            self.call(py, n, out).map_err(|e| {
                let message = format!("rule({n}) raised {e}");
                if let Ok(mut slot) = self.raised.lock() {
                    slot.get_or_insert(e);
                }
                Error::invalid(message)
            })
        })
    }

    fn shape(&self) -> Option<Theorem> {
        self.shape
    }
}

/// The result of `HeapGame.analyze`: what the Grundy sequence does.
#[pyclass(frozen, module = "grundy", name = "Analysis")]
struct Analysis(SequenceAnalysis);

#[pymethods]
impl Analysis {
    /// The game's canonical notation.
    #[getter]
    fn game(&self) -> String {
        self.0.game.clone()
    }
    /// How many values were computed.
    #[getter]
    fn computed(&self) -> u128 {
        self.0.computed
    }
    /// The period p (G(n + p) = G(n) + saltus from the preperiod on), or None.
    #[getter]
    fn period(&self) -> Option<usize> {
        self.0.period.map(|p| p.period)
    }
    /// The first n from which the sequence is purely periodic, or None.
    #[getter]
    fn preperiod(&self) -> Option<usize> {
        self.0.period.map(|p| p.preperiod)
    }
    /// s in G(n + p) = G(n) + s (0 for plain periodicity), or None.
    #[getter]
    fn saltus(&self) -> Option<u64> {
        self.0.period.map(|p| p.saltus)
    }
    /// Whether the period is proved for every heap.
    #[getter]
    fn proved(&self) -> bool {
        self.0.proved
    }
    /// The theorem applied and the range of heaps it checked, in words (None without proof).
    #[getter]
    fn proof(&self) -> Option<String> {
        self.0.proof.as_ref().map(|p| p.to_string())
    }
    /// The number of runs of equal values, when the values were computed run by run.
    #[getter]
    fn runs(&self) -> Option<usize> {
        self.0.run_count()
    }
    /// The analysis as the document of `grundy analyze --json` and `POST /api/analyze`
    /// (`docs/schemas/analysis.json`), as a dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        document(py, &AnalysisDocument::from(&self.0))
    }
    /// Any other regularity found, in words and formulae.
    #[getter]
    fn pattern(&self) -> String {
        self.0.pattern.clone()
    }
    /// G(n) by the analysis (any size of n, where a pattern allows it).
    fn value(&self, n: &Bound<'_, PyAny>) -> PyResult<BigUint> {
        guard(|| self.0.value(&natural(n, "n")?).map_err(to_py))
    }
    /// The plot of `grundy analyze --plot`: the values, the preperiod shaded and the periods
    /// marked.
    fn plot(&self) -> PyResult<display::Plot> {
        display::Plot::of_analysis(&self.0)
    }
    fn _repr_svg_(&self) -> PyResult<String> {
        self.plot()?.svg()
    }
    fn __repr__(&self) -> String {
        let a = &self.0;
        let opt = |x: Option<String>| x.unwrap_or_else(|| "None".into());
        format!(
            "Analysis(game={:?}, computed={}, period={}, preperiod={}, saltus={}, proved={})",
            a.game,
            a.computed,
            opt(a.period.map(|p| p.period.to_string())),
            opt(a.period.map(|p| p.preperiod.to_string())),
            opt(a.period.map(|p| p.saltus.to_string())),
            if a.proved { "True" } else { "False" },
        )
    }
}

/// A position's analysis as plain values: (outcome, nim_sum, [(heap index, from, [to...])]).
type PositionTuple = (String, Option<BigUint>, Vec<(usize, BigUint, Vec<BigUint>)>);

fn position_tuple(a: PositionAnalysis) -> PositionTuple {
    (
        a.outcome.to_string(),
        a.nim_sum.map(BigUint::from),
        a.winning_moves
            .into_iter()
            .map(|m| {
                (
                    m.heap,
                    BigUint::from(m.from),
                    m.to.into_iter().map(BigUint::from).collect(),
                )
            })
            .collect(),
    )
}

#[pymethods]
impl NativeHeapGame {
    #[new]
    fn new(notation: &str) -> PyResult<Self> {
        guard(|| {
            let spec = parse_game(notation).map_err(|e| to_py(e.in_source("GAME").into()))?;
            let game = HeapGame::from_spec(spec).map_err(to_py)?;
            let name = game.spec().to_string();
            Ok(NativeHeapGame {
                game: Mutex::new(game),
                name,
                raised: None,
            })
        })
    }

    /// The game of a Python rule `rule(n)`, called `name`; `max_take` (with `max_heaps`)
    /// declares that a move takes at most `max_take` tokens and leaves at most `max_heaps`
    /// heaps, every such split of what is left being allowed whenever one is: the Guy-Smith
    /// theorem then proves periods (`max_heaps = 1` is a subtraction game).
    #[staticmethod]
    #[pyo3(signature = (rule, name, max_take=None, max_heaps=1))]
    fn from_rule(
        rule: &Bound<'_, PyAny>,
        name: &str,
        max_take: Option<u64>,
        max_heaps: u64,
    ) -> PyResult<Self> {
        guard(|| {
            if !rule.is_callable() {
                return Err(PyTypeError::new_err(
                    "the rule must be callable: rule(n) -> options",
                ));
            }
            let raised = Arc::new(Mutex::new(None));
            let shape = max_take.map(|t| Theorem::TakeBreak { h: max_heaps, t });
            let game = HeapGame::custom(
                name,
                PyRule {
                    rule: rule.clone().unbind(),
                    shape,
                    raised: raised.clone(),
                },
            );
            Ok(NativeHeapGame {
                game: Mutex::new(game),
                name: name.to_string(),
                raised: Some(raised),
            })
        })
    }

    #[getter]
    fn name(&self) -> String {
        self.name.clone()
    }

    /// G(0..n) as a numpy uint32 array.
    #[pyo3(signature = (n, progress=None))]
    fn sequence<'py>(
        &self,
        py: Python<'py>,
        n: u64,
        progress: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray1<u32>>> {
        guard(|| {
            let values = self.with(py, progress, |g, ctl| {
                sequence::compute(g, n, ctl).map(|s| s.to_vec())
            })?;
            Ok(PyArray1::from_vec(py, values))
        })
    }

    /// The analysis of the sequence up to `max` values (None: the game's default).
    #[pyo3(signature = (max=None, progress=None))]
    fn analyze(
        &self,
        py: Python<'_>,
        max: Option<u64>,
        progress: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Analysis> {
        guard(|| {
            let a = self.with(py, progress, |g, ctl| {
                value::analyze(g, max.unwrap_or_else(|| value::default_max(g.spec())), ctl)
            })?;
            Ok(Analysis(a))
        })
    }

    /// The default number of values `analyze` computes.
    fn default_max(&self) -> PyResult<u64> {
        guard(|| {
            let g = self
                .game
                .lock()
                .map_err(|_| InternalError::new_err("a previous call panicked"))?;
            Ok(value::default_max(g.spec()))
        })
    }

    /// G(n) for each n (any size), by proofs and patterns where n is beyond computing.
    #[pyo3(signature = (heaps, max=None, progress=None))]
    fn values(
        &self,
        py: Python<'_>,
        heaps: &Bound<'_, PyAny>,
        max: Option<u64>,
        progress: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<BigUint>> {
        guard(|| {
            let heaps = naturals(heaps, "heap")?;
            self.with(py, progress, |g, ctl| {
                let max = max.unwrap_or_else(|| value::default_max(g.spec()));
                value::values(g, &heaps, max, ctl)
            })
        })
    }

    /// Outcome, nim-sum and winning moves of a sum of heaps.
    #[pyo3(signature = (heaps, misere=false, max=None, progress=None))]
    fn position(
        &self,
        py: Python<'_>,
        heaps: &Bound<'_, PyAny>,
        misere: bool,
        max: Option<u64>,
        progress: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PositionTuple> {
        guard(|| {
            let heaps = naturals(heaps, "heap")?;
            self.with(py, progress, |g, ctl| {
                position_of(g, &heaps, misere, max, ctl)
            })
        })
    }

    fn __repr__(&self) -> String {
        format!("HeapGame({:?})", self.name)
    }
}

/// `grundy position`: the engines for heaps they hold, Nim's own rule and proved patterns
/// beyond.
fn position_of(
    game: &HeapGame,
    heaps: &[BigUint],
    misere: bool,
    max: Option<u64>,
    ctl: &Control,
) -> grundy::Result<PositionTuple> {
    let small: Option<Vec<u64>> = heaps.iter().map(|h| h.to_u64()).collect();
    let engine_holds = |hs: &[u64]| {
        matches!(game.spec(), GameSpec::Nim | GameSpec::Divide(_))
            || hs.iter().all(|&h| h <= position::MAX_HEAP)
    };
    match small {
        Some(hs) if misere => return Ok(position_tuple(position::misere(game, &hs, ctl)?)),
        None if misere => {
            return Err(Error::limit(
                grundy::LimitKind::Fixed,
                "misère play is analysed for heaps below 2^64",
                "use smaller heaps",
            ))
        }
        Some(hs) if engine_holds(&hs) => {
            return Ok(position_tuple(position::normal(game, &hs, ctl)?))
        }
        _ => {}
    }
    let a = position::normal_by_pattern(game, heaps, max, ctl)?;
    let moves = a
        .winning_moves
        .into_iter()
        .map(|m| (m.heap, m.from, m.to))
        .collect();
    Ok((a.outcome.to_string(), Some(a.nim_sum), moves))
}

/// The most values `count` computes before it relies on a proved pattern.
const COUNT_MAX_VALUES: u64 = 1 << 23;

/// `grundy count`: the number of `heaps`-tuples (or multisets) of heap sizes in `[min, max]`
/// whose values xor to `nim_sum`, modulo `modulus`; with `distribution`, the count for every
/// nim-sum.
#[pyfunction]
#[pyo3(signature = (game, heaps, max, min=None, nim_sum=None, modulus=None, unordered=false, distribution=false, progress=None))]
#[allow(clippy::too_many_arguments)]
fn _count(
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

// ---------------------------------------------------------------------------------------------
// Graphs

/// `(names, sources, targets)` of a graph file's text (the command line's format; `edges`: one
/// `U V` arc a line).
#[pyfunction]
fn _parse_graph(
    py: Python<'_>,
    text: &str,
    edges: bool,
) -> PyResult<(Vec<String>, Vec<u32>, Vec<u32>)> {
    guard(|| {
        let format = if edges {
            GraphFormat::Arcs
        } else {
            GraphFormat::Adjacency
        };
        let bytes = text.as_bytes();
        let parsed = py
            .detach(|| parse_graph(bytes, format, u64::MAX))
            .map_err(to_py)?;
        let g = &parsed.graph;
        let n = g.vertex_count() as u32;
        let names = (0..n).map(|v| parsed.names.get(v).into_owned()).collect();
        let (mut src, mut dst) = (Vec::new(), Vec::new());
        for v in 0..n {
            for &w in g.options(v) {
                src.push(v);
                dst.push(w);
            }
        }
        Ok((names, src, dst))
    })
}

/// The solution of a graph as arrays: outcome codes (0 P, 1 N, 2 D), remoteness (-1 for a draw),
/// γ values (-1 for infinite, or for every vertex under misère play) and the sets K of the
/// infinite ones, by vertex.
type Solution<'py> = (
    Bound<'py, PyArray1<u8>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<i64>>,
    Vec<(u32, Vec<u64>)>,
);

#[pyfunction]
#[pyo3(signature = (n, sources, targets, misere=false, progress=None))]
fn _solve_graph<'py>(
    py: Python<'py>,
    n: usize,
    sources: PyReadonlyArray1<'py, u32>,
    targets: PyReadonlyArray1<'py, u32>,
    misere: bool,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Solution<'py>> {
    guard(|| {
        let src = sources.as_slice().map_err(unusable)?;
        let dst = targets.as_slice().map_err(unusable)?;
        if src.len() != dst.len() {
            return Err(PyValueError::new_err(
                "sources and targets differ in length",
            ));
        }
        let play = if misere { Play::Misere } else { Play::Normal };
        let (codes, remote, values, infinite) = run(py, progress, |ctl| {
            let arcs: Vec<(u32, u32)> = src.iter().copied().zip(dst.iter().copied()).collect();
            let g: Graph = Graph::from_arcs(n, &arcs)?;
            let o = outcome::solve(&g, play, ctl)?;
            let n32 = n as u32;
            let codes: Vec<u8> = (0..n32)
                .map(|v| match o.outcome(v) {
                    Outcome::P => 0,
                    Outcome::N => 1,
                    Outcome::D => 2,
                })
                .collect();
            let remote: Vec<i64> = (0..n32)
                .map(|v| o.remoteness(v).map_or(-1, i64::from))
                .collect();
            let mut values = vec![-1i64; n];
            let mut infinite = Vec::new();
            if !misere {
                let gamma = loopy::solve(&g, ctl)?;
                for v in 0..n32 {
                    match gamma.value(&g, v) {
                        Gamma::Finite(a) => values[v as usize] = a as i64,
                        Gamma::Infinite(k) => infinite.push((v, k)),
                    }
                }
            }
            Ok((codes, remote, values, infinite))
        })?;
        Ok((
            PyArray1::from_vec(py, codes),
            PyArray1::from_vec(py, remote),
            PyArray1::from_vec(py, values),
            infinite,
        ))
    })
}

// ---------------------------------------------------------------------------------------------
// Games by their rules

/// The parsed game of the rules notation (`ValueError` with the command line's message).
fn board_game(notation: &str) -> PyResult<grundy::notation::board::BoardGame> {
    parse_board_game(notation).map_err(|e| to_py(Error::Parse(e.in_source("GAME"))))
}

/// Checks a game of the rules notation without loading it (no file or script is read).
#[pyfunction]
fn _parse_board(notation: &str) -> PyResult<()> {
    guard(|| board_game(notation).map(|_| ()))
}

/// The starting position of a game of the rules notation, in its family's notation (a graph
/// file is read, a script's `start()` run).
#[pyfunction]
fn _show_board(py: Python<'_>, notation: &str) -> PyResult<String> {
    guard(|| {
        let game = board_game(notation)?;
        run(py, None, |ctl| {
            grundy::notation::board::load(&game, ctl)?.show()
        })
    })
}

/// Solves a game of the rules notation with the library's search, answering its document
/// (`docs/schemas/solution.json`) as a dict; its tables (and the graph
/// file a Node-Kayles game is read from) are held to `memory` bytes. Progress reports count
/// positions searched.
#[pyfunction]
#[pyo3(signature = (notation, misere=false, moves=false, memory=None, progress=None))]
fn _solve_board<'py>(
    py: Python<'py>,
    notation: &str,
    misere: bool,
    moves: bool,
    memory: Option<u64>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    guard(|| {
        let game = board_game(notation)?;
        let budget = memory.map_or_else(MemoryBudget::unlimited, MemoryBudget::new);
        let play = if misere { Play::Misere } else { Play::Normal };
        let s = run_within(py, progress, budget, |ctl| {
            let loaded = grundy::notation::board::load(&game, ctl)?;
            grundy::solve::solve_loaded(&loaded, play, moves, ctl).map_err(|e| match e {
                Error::Limit(mut l) if l.how_to_raise == LIBRARY_MEMORY_ADVICE => {
                    l.how_to_raise = "raise memory=, in bytes".into();
                    Error::Limit(l)
                }
                other => other,
            })
        })?;
        document(py, &SolutionDocument::new(notation, &s))
    })
}

// ---------------------------------------------------------------------------------------------
// Ordinals

/// An ordinal below ε₀ in Cantor normal form (`w^(w+1)*2+w+7`), with nim-sum and nim-product.
#[pyclass(frozen, module = "grundy", name = "Ordinal")]
struct PyOrdinal(Ordinal);

fn ordinal_arg(obj: &Bound<'_, PyAny>) -> PyResult<Option<Ordinal>> {
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

fn need_ordinal(obj: &Bound<'_, PyAny>) -> PyResult<Ordinal> {
    ordinal_arg(obj)?
        .ok_or_else(|| PyValueError::new_err("expected an Ordinal, an int or a string"))
}

fn new_ordinal(py: Python<'_>, x: Ordinal) -> PyResult<Py<PyAny>> {
    Ok(Bound::new(py, PyOrdinal(x))?.into_any().unbind())
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
            if other.extract::<String>().is_ok() {
                return Ok(py.NotImplemented());
            }
            let Some(o) = ordinal_arg(other)? else {
                return Ok(py.NotImplemented());
            };
            Ok(pyo3::types::PyBool::new(py, op.matches(self.0.cmp(&o)))
                .to_owned()
                .into_any()
                .unbind())
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
fn cascade(py: Python<'_>, rows: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
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
type LevelAnswer = (
    Py<PyAny>,
    Option<(usize, BigUint, BigUint, Vec<(usize, BigUint)>)>,
);

fn level_answer(py: Python<'_>, game: &LevelGame, heaps: &[BigUint]) -> PyResult<LevelAnswer> {
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
fn _matrix_game(py: Python<'_>, rows: &Bound<'_, PyAny>) -> PyResult<LevelAnswer> {
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
fn _dag_game(
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

/// Panics inside the boundary: the test suite checks that it becomes `grundy.InternalError`,
/// on the calling thread and on a worker (`worker=True`), and that the interpreter lives on.
#[pyfunction]
#[pyo3(signature = (message, worker=false))]
fn _panic_for_test(py: Python<'_>, message: String, worker: bool) -> PyResult<()> {
    guard(|| {
        if worker {
            run(py, None, |_| -> grundy::Result<()> { panic!("{message}") })
        } else {
            panic!("{message}")
        }
    })
}

#[pymodule]
fn _grundy(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    // The package's version (`grundy.__version__`), that of the Rust crates it is built from.
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("LimitError", py.get_type::<LimitError>())?;
    m.add("InternalError", py.get_type::<InternalError>())?;
    m.add_class::<Nimber>()?;
    m.add_class::<NativeHeapGame>()?;
    m.add_class::<Analysis>()?;
    m.add_class::<PyOrdinal>()?;
    m.add_class::<display::Plot>()?;
    m.add_class::<display::Quotient>()?;
    m.add_function(wrap_pyfunction!(display::_misere_quotient, m)?)?;
    m.add_function(wrap_pyfunction!(_nim_mul_arrays, m)?)?;
    m.add_function(wrap_pyfunction!(_nim_mul_scalar, m)?)?;
    m.add_function(wrap_pyfunction!(_count, m)?)?;
    m.add_function(wrap_pyfunction!(_parse_graph, m)?)?;
    m.add_function(wrap_pyfunction!(_solve_graph, m)?)?;
    m.add_function(wrap_pyfunction!(cascade, m)?)?;
    m.add_function(wrap_pyfunction!(_parse_board, m)?)?;
    m.add_function(wrap_pyfunction!(_show_board, m)?)?;
    m.add_function(wrap_pyfunction!(_solve_board, m)?)?;
    m.add_function(wrap_pyfunction!(_matrix_game, m)?)?;
    m.add_function(wrap_pyfunction!(_dag_game, m)?)?;
    m.add_function(wrap_pyfunction!(_panic_for_test, m)?)?;
    Ok(())
}
