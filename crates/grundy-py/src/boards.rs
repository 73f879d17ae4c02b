//! Games by their rules (Chomp, Cram, Node-Kayles, Wythoff, scripts): checking, showing and
//! solving a position of the rules notation.

use super::*;

/// The parsed game of the rules notation (`ValueError` with the command line's message).
pub(crate) fn board_game(notation: &str) -> PyResult<grundy::notation::board::BoardGame> {
    parse_board_game(notation).map_err(|e| to_py(Error::Parse(e.in_source("GAME"))))
}

/// Checks a game of the rules notation without loading it (no file or script is read).
#[pyfunction]
pub(crate) fn _parse_board(notation: &str) -> PyResult<()> {
    guard(|| board_game(notation).map(|_| ()))
}

/// The starting position of a game of the rules notation, in its family's notation (a graph
/// file is read, a script's `start()` run).
#[pyfunction]
pub(crate) fn _show_board(py: Python<'_>, notation: &str) -> PyResult<String> {
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
pub(crate) fn _solve_board<'py>(
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
