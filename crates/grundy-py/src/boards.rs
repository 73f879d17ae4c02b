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
/// file a Node-Kayles game is read from) are held to `memory` bytes. Progress is reported as
/// `progress(done, note)`: the positions searched, and where a Cram search stands at the board
/// (the value asked about and the options asked; `None` until it says).
///
/// With `checkpoint` (a path; a Cram board in normal play only), the search's table is kept in
/// that file: the search starts from the table saved there and saves it when it stops
/// (interrupted or done), and every `checkpoint_every` seconds once its engines share it.
#[pyfunction]
#[pyo3(signature = (notation, misere=false, moves=false, memory=None, progress=None, checkpoint=None, checkpoint_every=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn _solve_board<'py>(
    py: Python<'py>,
    notation: &str,
    misere: bool,
    moves: bool,
    memory: Option<u64>,
    progress: Option<&Bound<'py, PyAny>>,
    checkpoint: Option<std::path::PathBuf>,
    checkpoint_every: Option<u64>,
) -> PyResult<Bound<'py, PyAny>> {
    guard(|| {
        let game = board_game(notation)?;
        let budget = memory.map_or_else(MemoryBudget::unlimited, MemoryBudget::new);
        let play = if misere { Play::Misere } else { Play::Normal };
        let s = run_noting(py, progress, true, budget, |ctl| {
            let loaded = grundy::notation::board::load(&game, ctl)?;
            let solved = match (&loaded, &checkpoint) {
                (_, None) => grundy::solve::solve_loaded(&loaded, play, moves, ctl),
                (grundy::game::families::Loaded::Cram(b), Some(path)) if !misere => {
                    solve_saving(b, moves, path, checkpoint_every, ctl)
                }
                _ => Err(Error::invalid(
                    "checkpoint=: only a Cram board in normal play keeps a table to save",
                )),
            };
            solved.map_err(|e| match e {
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

/// A Cram board solved from and to the table file `path` (saved every `every` seconds too,
/// if given); a table that could not be written is an error.
fn solve_saving(
    board: &grundy::game::families::cram::Board,
    moves: bool,
    path: &std::path::Path,
    every: Option<u64>,
    ctl: &grundy::Control,
) -> grundy::Result<grundy::solve::search::Solution> {
    use grundy::solve::cram::{self, TableFile};
    let mut file = TableFile::new(path, board)?;
    if let Some(e) = every {
        file = file.every(std::time::Duration::from_secs(e));
    }
    let s = cram::solve_saving(board, moves, None, &file, ctl)?;
    if let Some(Err(why)) = file.saved() {
        return Err(Error::Internal(format!(
            "the table could not be saved to {}: {why}",
            path.display()
        )));
    }
    Ok(s)
}
