//! `grundy solve`: games given by their rules (Chomp, Cram, Node-Kayles, Wythoff, Rhai
//! scripts), solved by the search engine of the library.

use crate::error::CliError;
use crate::output::{print_json, stdout};
use crate::progress::Reporter;
use crate::settings::Settings;
use clap::Args;
use grundy::notation::board::{parse_board_game, BoardGame};
use grundy::solve::search::{Solution, SolutionDocument};
use grundy::solve::Play;
use grundy::Error;
use std::io::Write;
#[cfg(feature = "store")]
use std::sync::OnceLock;

/// Arguments of `grundy solve`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  \
    grundy solve cram:3x3                 # P, value 0\n  \
    grundy solve chomp:3,2,2 --moves      # every winning move: (row,column): position after\n  \
    grundy solve cram:.../.#./... --json\n  \
    grundy solve node-kayles:grid:3x4 -v  # statistics on stderr\n  \
    grundy solve node-kayles:graph.txt    # a graph file, edges undirected\n  \
    grundy solve wythoff:3,5 --misere\n  \
    grundy solve rules:game.rhai --moves  # rules in a Rhai script (docs/games-by-rules.md)\n\n\
    A long Cram search uses every core (RAYON_NUM_THREADS=1 keeps one thread):\n  \
    grundy solve cram:7x7 --memory 16G -v  # the table takes half of --memory\n\n\
    A search of hours keeps its table in a file: stopped (Ctrl-C), the same command goes on:\n  \
    grundy solve cram:7x8 --memory 16G --checkpoint 7x8.table --progress\n\n\
    On a cluster (a build with the `mpi` feature), over the ranks of an MPI job:\n  \
    mpirun -np 64 grundy solve cram:6x9 --distributed   # Cram by components\n  \
    mpirun -np 64 grundy solve chomp:9x9 --distributed --checkpoint ckpt/\n\n\
    GAME is one of: chomp:A,B,C (row lengths, bottom row first, non-increasing), chomp:RxC, \
    cram:RxC, cram:ROWS (rows separated by /, '.' free, '#' blocked), node-kayles:path:N, \
    node-kayles:cycle:N, node-kayles:grid:RxC, node-kayles:FILE, wythoff:A,B, rules:PATH.\n\n\
    Output: P (the player to move loses) or N; then `value G` (normal play only); with --moves \
    one line per winning move, `MOVE: POSITION-AFTER`.")]
pub struct SolveArgs {
    /// The game, e.g. `cram:4x5`, `chomp:3,3,2`, `node-kayles:path:20`, `wythoff:4,7`.
    pub(crate) game: String,
    /// Misère play: the player who cannot move wins (no value is printed: misère values do not
    /// add; the outcome comes from a direct search).
    #[arg(long)]
    pub(crate) misere: bool,
    /// Also print every winning move, as the move and the position after it.
    #[arg(long)]
    pub(crate) moves: bool,
    /// Print one JSON document `{"game", "outcome", "value", "winning_moves", "stats"}`.
    #[arg(long)]
    pub(crate) json: bool,
    /// Print positions searched, table hits, time and threads on stderr, and what a Cram search
    /// read from the store of solved values and recorded in it.
    #[arg(short, long)]
    pub(crate) verbose: bool,
    /// Solve over the ranks of an MPI job (run under mpirun or srun); rank 0 prints the answer,
    /// the same as without this flag, and --memory is the budget of each rank. A Cram board in
    /// normal play is searched by components (every rank runs the Cram engine on its share of
    /// the options, and values of large regions cross ranks); other games, misère play and
    /// --checkpoint explore and settle every reachable position, each on the rank owning it.
    #[arg(long)]
    pub(crate) distributed: bool,
    /// For a Cram board in normal play: keep the search's table in the file PATH. The search
    /// starts from the table saved there, if any, and saves its table there when it stops
    /// (Ctrl-C, SIGTERM) or finishes, so the same command run again goes on where it stopped.
    /// With --distributed: after each round of the exploration, save what it added in the
    /// directory PATH (every rank must reach it); the same command run again resumes after the
    /// last round all ranks saved.
    #[arg(long, value_name = "PATH")]
    pub(crate) checkpoint: Option<std::path::PathBuf>,
    /// With --checkpoint FILE (a Cram board, without --distributed): also save the table every
    /// SECONDS once the search's engines share it (past its first seconds), so that a crash
    /// loses at most that much work; the engines pause while it is written (a few seconds a
    /// gigabyte) [default: 1800].
    #[arg(long, value_name = "SECONDS", requires = "checkpoint")]
    pub(crate) checkpoint_every: Option<String>,
    /// Neither read nor extend the store of solved values (Cram regions of 24 cells or more,
    /// kept in $XDG_CACHE_HOME/grundy/values.redb, else ~/.cache/grundy/values.redb).
    #[arg(long)]
    pub(crate) no_cache: bool,
    /// The largest size of the store's file, e.g. 512M (binary units); once it is reached no
    /// value is added. Default: 1G.
    #[arg(long, value_name = "SIZE")]
    pub(crate) cache_size: Option<String>,
    /// Print a plain progress line to stderr every 2 seconds, with the positions searched so far
    /// by every thread and, for a Cram board, the value asked about and the board's options
    /// asked (for logs and pipes: on a terminal a spinner shows the same instead).
    #[arg(long)]
    pub(crate) progress: bool,
}

/// Runs `grundy solve`.
pub fn run(args: SolveArgs, settings: &Settings) -> Result<(), CliError> {
    if args.distributed {
        if args.checkpoint_every.is_some() {
            return Err(CliError::usage(
                "--checkpoint-every: --distributed saves its checkpoint after each round",
            ));
        }
        return crate::distributed::solve(&args, settings);
    }
    if let Some(s) = heap_in_disguise(&args, settings)? {
        return print(&args, &s);
    }
    let game = parse_board_game(&args.game).map_err(|e| Error::Parse(e.in_source("GAME")))?;
    // The command's memory budget (`--memory`, global) bounds the transposition table and the
    // graph file a Node-Kayles game is read from.
    if matches!(game, BoardGame::Rules(_)) {
        settings.start_script_clock();
    }
    let reporter = Reporter::counting(settings, "searching", "positions", args.progress);
    let report = |done| reporter.set_position(done);
    let note = |text: &str| reporter.set_note(text);
    let ctl = settings.control(&report).with_notes(&note);
    let loaded = grundy::notation::board::load(&game, &ctl)?;
    let play = if args.misere {
        Play::Misere
    } else {
        Play::Normal
    };
    let cap = cache_cap(&args)?;
    let s =
        match &loaded {
            grundy::game::families::Loaded::Cram(b) if !args.misere => {
                let file = table_file(&args, b)?;
                let s = cram_with_store(b, args.moves, cap, args.verbose, file.as_ref(), &ctl);
                reporter.finish_and_clear();
                if let Some(f) = &file {
                    report_saved(f, s.is_ok(), &args, s.as_ref().ok())?;
                }
                s?
            }
            _ if args.checkpoint.is_some() => return Err(CliError::usage(
                "--checkpoint: without --distributed, only a Cram board in normal play keeps a \
                 table to save (other games and misère play: add --distributed)",
            )),
            _ => grundy::solve::solve_loaded(&loaded, play, args.moves, &ctl)?,
        };
    reporter.finish_and_clear();
    if args.verbose {
        eprintln!(
            "positions searched {}, table hits {} of {} lookups ({:.1}%), table {} bytes, time {:.3} s, {}",
            s.stats.positions,
            s.stats.hits,
            s.stats.lookups,
            100.0 * s.stats.hit_rate(),
            s.stats.table_bytes,
            s.seconds,
            match s.stats.threads {
                1 => "one thread".to_string(),
                n => format!("{n} threads"),
            }
        );
        let method = match (&loaded, s.stats.method) {
            (grundy::game::families::Loaded::Cram(_), None) if !args.misere => {
                "the Cram engine".to_string()
            }
            (grundy::game::families::Loaded::Chomp(_), None) if !args.misere => {
                "the Chomp engine".to_string()
            }
            (grundy::game::families::Loaded::NodeKayles(..), None) if !args.misere => {
                "the Node-Kayles engine".to_string()
            }
            (_, None) => "misère search of the whole sum".to_string(),
            (_, Some(m)) => m.to_string(),
        };
        eprintln!("method: {method}");
    }
    print(&args, &s)
}

/// The largest size of the store of solved values (`--cache-size`), `None` with `--no-cache`.
pub(crate) fn cache_cap(args: &SolveArgs) -> Result<Option<u64>, CliError> {
    let cap = match args.cache_size.as_deref() {
        None => DEFAULT_CACHE_BYTES,
        Some(c) => crate::settings::parse_size(c).ok_or_else(|| {
            CliError::usage(format!(
                "--cache-size: expected a size like 512M or 16G, found '{c}'"
            ))
        })?,
    };
    Ok((!args.no_cache).then_some(cap))
}

/// The default of `--cache-size`.
#[cfg(feature = "store")]
const DEFAULT_CACHE_BYTES: u64 = grundy::solve::store::DEFAULT_CAP_BYTES;
#[cfg(not(feature = "store"))]
const DEFAULT_CACHE_BYTES: u64 = 1 << 30;

/// A Cram board under normal play, searched on every core when it is large enough
/// ([`cram::solve_with_threads`](grundy::solve::cram::solve_with_threads)), with the store of
/// solved values of at most `cap` bytes when there is one (`None`: `--no-cache`), and from and
/// to the table file `file` if there is one (`--checkpoint`).
fn cram_with_store(
    board: &grundy::game::families::cram::Board,
    moves: bool,
    cap: Option<u64>,
    verbose: bool,
    file: Option<&grundy::solve::cram::TableFile>,
    ctl: &grundy::Control,
) -> Result<Solution, CliError> {
    use grundy::solve::cram;
    with_cram_store(board, cap, verbose, ctl, |archive| match file {
        Some(f) => cram::solve_saving(board, moves, archive, f, ctl),
        None => cram::solve_with_threads(board, Play::Normal, moves, archive, ctl),
    })
}

/// The table file of `--checkpoint` for the Cram board `board` (the search's table is kept
/// there), after saying on stderr what it holds if it exists; a file that is not a table of
/// this board is refused (exit status 2) before any search.
fn table_file(
    args: &SolveArgs,
    board: &grundy::game::families::cram::Board,
) -> Result<Option<grundy::solve::cram::TableFile>, CliError> {
    let Some(path) = &args.checkpoint else {
        return Ok(None);
    };
    let what = format!("--checkpoint {}", path.display());
    let dir = crate::files::existing_directory(path, &what)?;
    grundy::file::remove_stale_temporaries(dir);
    crate::settings::saves_on_interrupt();
    let every =
        crate::checkpoint::interval(args.checkpoint_every.as_deref(), DEFAULT_TABLE_SAVE_SECONDS)?;
    let f = grundy::solve::cram::TableFile::new(path, board)?.every(every);
    if let Some(info) = f.info()? {
        eprintln!(
            "grundy: resuming from the table in {} ({}, {} entries)",
            path.display(),
            grundy::control::format_bytes(info.bytes),
            info.entries
        );
    }
    Ok(Some(f))
}

/// The default of `--checkpoint-every` for a Cram search's table: half an hour.
const DEFAULT_TABLE_SAVE_SECONDS: u64 = 1800;

/// Says on stderr where the search's table was saved, or why it could not be: a table that
/// could not be saved is an error (exit status 1) once the answer, if any, is printed.
fn report_saved(
    f: &grundy::solve::cram::TableFile,
    answered: bool,
    args: &SolveArgs,
    s: Option<&Solution>,
) -> Result<(), CliError> {
    match f.saved() {
        Some(Ok(bytes)) => {
            eprintln!(
                "grundy: the table was saved to {} ({}){}",
                f.path().display(),
                grundy::control::format_bytes(bytes),
                if answered {
                    ""
                } else {
                    "; the same command goes on from it"
                }
            );
            Ok(())
        }
        Some(Err(why)) => {
            if let Some(s) = s {
                print(args, s)?;
            }
            Err(Error::Internal(format!(
                "the table could not be saved to {}: {why}",
                f.path().display()
            ))
            .into())
        }
        None => Ok(()),
    }
}

/// `search(archive)` with the store of solved Cram values of at most `cap` bytes as the
/// archive when there is one (`None`: `--no-cache`), else with none: a store that cannot be
/// opened or read is reported on stderr and left out (it can only save time). The store is
/// opened when the search first asks it about a region, so that a board settled without
/// searching a region of [`ARCHIVE_MIN_CELLS`](grundy::solve::cram::ARCHIVE_MIN_CELLS) cells
/// (an even × even board, a small one) neither opens nor creates the file. `search` is called
/// once either way. With `verbose`, a line on stderr says how many values the search read from
/// the store and recorded in it, or that it asked none.
#[cfg(feature = "store")]
pub(crate) fn with_cram_store<T>(
    board: &grundy::game::families::cram::Board,
    cap: Option<u64>,
    verbose: bool,
    ctl: &grundy::Control,
    search: impl FnOnce(Option<&dyn grundy::solve::cram::Archive>) -> Result<T, grundy::Error>,
) -> Result<T, CliError> {
    use grundy::solve::{cram, store};
    let Some(cap) = cap else {
        return Ok(search(None)?);
    };
    // Only regions of ARCHIVE_MIN_CELLS cells or more are stored; boards beyond the engine go
    // to the generic search, which keeps no values.
    let cells = cram::Shape::from_board(board).map_or(0, |s| s.cells());
    let large = cells >= cram::ARCHIVE_MIN_CELLS;
    let Some(path) = store::default_path().filter(|_| large) else {
        return Ok(search(None)?);
    };
    let opened = OnceLock::new();
    let lazy = LazyStore {
        path,
        cap,
        index: cells >= INDEX_MIN_CELLS,
        budget: ctl.memory().clone(),
        opened: &opened,
        game: OnceLock::new(),
    };
    let s = search(Some(&lazy));
    let game = lazy.game.get().and_then(Option::as_ref);
    if let Some(game) = game {
        game.flush();
    }
    if verbose {
        match (game, opened.get().and_then(Option::as_ref)) {
            (Some(game), Some((st, _))) => {
                let indexed = game
                    .indexed()
                    .map_or(String::new(), |n| format!(", {n} keys indexed first"));
                eprintln!(
                    "store: {} read, {} recorded{indexed} ({})",
                    game.found(),
                    game.recorded(),
                    st.path().display()
                );
            }
            _ if lazy.game.get().is_none() => {
                eprintln!(
                    "store: not opened (no region of {} cells or more was searched)",
                    grundy::solve::cram::ARCHIVE_MIN_CELLS
                )
            }
            _ => {}
        }
    }
    if let Some(t) = game.and_then(|g| g.trouble()) {
        eprintln!("grundy: warning: the store of solved values: {t}");
    }
    Ok(s?)
}

/// The store of solved Cram values as an [`Archive`](grundy::solve::cram::Archive) that opens
/// the file at the first question; a store that cannot be used (the budget too small for its
/// pages, another run holding it, a damaged file) answers nothing and records nothing.
#[cfg(feature = "store")]
struct LazyStore<'a> {
    path: std::path::PathBuf,
    cap: u64,
    /// Whether to read the file's keys before the first lookup
    /// ([`GameStore::index_when_asked`](grundy::solve::store::GameStore::index_when_asked)).
    index: bool,
    /// The budget the store's pages are reserved from.
    budget: grundy::control::MemoryBudget,
    /// The open store with the budget's reservation for its pages, once asked for (`None`:
    /// it cannot be used).
    opened: &'a OnceLock<Option<(grundy::solve::store::Store, grundy::control::Reservation)>>,
    /// This engine's values in it, once asked for.
    game: OnceLock<Option<grundy::solve::store::GameStore<'a>>>,
}

#[cfg(feature = "store")]
impl<'a> LazyStore<'a> {
    /// The engine's values in the store, opening it on the first call.
    fn game(&self) -> Option<&grundy::solve::store::GameStore<'a>> {
        use grundy::solve::{cram, store};
        let warn = |e: &dyn std::fmt::Display| {
            eprintln!("grundy: warning: the store of solved values is not used: {e}")
        };
        self.game
            .get_or_init(|| {
                let opened: &'a _ = self.opened;
                let (st, _) = opened
                    .get_or_init(|| {
                        // The database's pages in memory, from the budget: a budget too small
                        // for them goes without the store.
                        let pages = self
                            .budget
                            .reserve(store::memory_bytes(self.cap), "the store of solved values")
                            .ok()?;
                        match store::Store::open(&self.path, self.cap) {
                            Ok(st) => Some((st, pages)),
                            // Another run has it open: this one goes without it.
                            Err(store::StoreError::Busy { .. }) => None,
                            Err(e) => {
                                warn(&e);
                                None
                            }
                        }
                    })
                    .as_ref()?;
                match st.game(cram::ARCHIVE_TAG, env!("CARGO_PKG_VERSION")) {
                    Ok(mut g) => {
                        if self.index {
                            g.index_when_asked();
                        }
                        Some(g)
                    }
                    Err(e) => {
                        warn(&e);
                        None
                    }
                }
            })
            .as_ref()
    }
}

#[cfg(feature = "store")]
impl grundy::solve::cram::Archive for LazyStore<'_> {
    fn get(&self, key: &[u8]) -> Option<u64> {
        self.game()?.get(key)
    }

    fn put(&self, key: &[u8], value: u64) {
        if let Some(g) = self.game() {
            g.put(key, value);
        }
    }
}

/// The fewest free cells of a board whose search reads the keys the store holds before it
/// asks about a region
/// ([`GameStore::index_when_asked`](grundy::solve::store::GameStore::index_when_asked)):
/// such a search asks about regions for minutes, and a pass over the keys (seconds for a file
/// of a gigabyte) costs less than looking up in the file every region it has not seen; the
/// search of a smaller board looks them up until its lookups reach the records in the file,
/// and then reads the keys.
#[cfg(feature = "store")]
const INDEX_MIN_CELLS: u32 = 48;

/// `search` without an archive: this build has no store.
#[cfg(not(feature = "store"))]
pub(crate) fn with_cram_store<T>(
    _board: &grundy::game::families::cram::Board,
    _cap: Option<u64>,
    _verbose: bool,
    _ctl: &grundy::Control,
    search: impl FnOnce(Option<&dyn grundy::solve::cram::Archive>) -> Result<T, grundy::Error>,
) -> Result<T, CliError> {
    Ok(search(None)?)
}

/// The solution of a board that is a heap game in disguise (normal play; see
/// [`super::disguised`]), found before any board is built.
fn heap_in_disguise(args: &SolveArgs, settings: &Settings) -> Result<Option<Solution>, CliError> {
    match super::disguised::recognise(&args.game) {
        Some(d) if !args.misere => {
            super::disguised::solve(d, args.moves, &settings.interruptible()).map(Some)
        }
        _ => Ok(None),
    }
}

fn print(args: &SolveArgs, s: &Solution) -> Result<(), CliError> {
    if args.json {
        write_json(&args.game, s)
    } else {
        write_text(s)
    }
}

pub(crate) fn write_text(s: &Solution) -> Result<(), CliError> {
    let mut out = stdout();
    writeln!(out, "{}", s.outcome)?;
    if let Some(v) = s.value {
        writeln!(out, "value {v}")?;
    }
    for m in &s.winning_moves {
        writeln!(out, "{}: {}", m.name, m.after)?;
    }
    out.flush()?;
    Ok(())
}

/// Prints the library's [`SolutionDocument`] of `s`.
pub(crate) fn write_json(game: &str, s: &Solution) -> Result<(), CliError> {
    print_json(&SolutionDocument::new(game, s))
}
