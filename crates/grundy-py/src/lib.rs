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

mod boards;
mod count;
mod display;
mod graphs;
mod heap;
mod nimbers;
mod ordinals;

use boards::*;
use count::*;
use graphs::*;
use heap::*;
use nimbers::*;
use ordinals::*;

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

/// `value` as a new Python object of its class (a `Nimber`, an `Ordinal`).
fn new_object<T: pyo3::PyClass>(py: Python<'_>, value: T) -> PyResult<Py<PyAny>>
where
    pyo3::PyClassInitializer<T>: From<T>,
{
    Ok(Bound::new(py, value)?.into_any().unbind())
}

/// The answer of a rich comparison `op` between two values ordered as `ordering`, as a Python
/// bool; `NotImplemented` when the other value is of no kind the class compares with (`None`).
fn compared(
    py: Python<'_>,
    ordering: Option<std::cmp::Ordering>,
    op: pyo3::basic::CompareOp,
) -> Py<PyAny> {
    match ordering {
        Some(o) => pyo3::types::PyBool::new(py, op.matches(o))
            .to_owned()
            .into_any()
            .unbind(),
        None => py.NotImplemented(),
    }
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
    run_noting(py, progress, false, memory, work)
}

/// [`run_within`]; with `notes`, `progress` is called as `progress(done, note)`, with where the
/// search stands in words ([`Control::note`]; `None` before the first note), whenever the count
/// or the note has changed.
fn run_noting<T: Send>(
    py: Python<'_>,
    progress: Option<&Bound<'_, PyAny>>,
    notes: bool,
    memory: MemoryBudget,
    work: impl FnOnce(&Control) -> grundy::Result<T> + Send,
) -> PyResult<T> {
    let token = CancelToken::new();
    let done = AtomicU64::new(0);
    let report = |d: u64| done.store(d, Relaxed);
    let noted = std::sync::Mutex::new(None::<String>);
    let note = |text: &str| {
        if let Ok(mut n) = noted.lock() {
            *n = Some(text.to_string());
        }
    };
    let callback: Option<Py<PyAny>> = progress.map(|p| p.clone().unbind());
    let (result, raised) = py.detach(|| {
        std::thread::scope(|s| {
            let (tx, rx) = mpsc::channel::<()>();
            let ctl = Control::none()
                .with_token(token.clone())
                .with_memory(memory)
                .with_progress(&report);
            let ctl = if notes { ctl.with_notes(&note) } else { ctl };
            let worker = s.spawn(move || {
                let r = catch_unwind(AssertUnwindSafe(|| work(&ctl)));
                let _ = tx.send(());
                r
            });
            let mut raised: Option<PyErr> = None;
            let mut shown = (u64::MAX, None);
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
                    let now = (
                        done.load(Relaxed),
                        noted.lock().ok().and_then(|n| n.clone()),
                    );
                    if let (Some(cb), true) = (&callback, now != shown) {
                        shown = now.clone();
                        let (d, n) = now;
                        let called = if notes {
                            cb.call1(py, (d, n))
                        } else {
                            cb.call1(py, (d,))
                        };
                        if let Err(e) = called {
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
    // A `RAYON_NUM_THREADS` rayon would obey by spawning threads without end is refused here,
    // at import, before any parallel work (`grundy::control::thread_setting`).
    grundy::control::thread_setting().map_err(to_py)?;
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
