//! `grundy solve`: games given by their rules (Chomp, Cram, Node-Kayles, Wythoff, Rhai
//! scripts), solved by the search engine of the library.

use crate::error::CliError;
use crate::output::{interruptible, print_json, stdout};
use clap::Args;
use grundy::notation::board::{parse_board_game, BoardGame};
use grundy::solve::search::{Solution, SolutionDocument};
use grundy::solve::Play;
use grundy::Error;
use std::io::Write;

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
    On a cluster (a build with the `mpi` feature), over the ranks of an MPI job:\n  \
    mpirun -np 64 grundy solve cram:5x7 --distributed --checkpoint ckpt/\n\n\
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
    /// Print positions searched, table hits and time on stderr.
    #[arg(short, long)]
    pub(crate) verbose: bool,
    /// Solve over the ranks of an MPI job (run under mpirun or srun): every position reachable
    /// from the start is explored and settled, each by the rank owning it; rank 0 prints the
    /// answer, the same as without this flag. --memory is the budget of each rank.
    #[arg(long)]
    pub(crate) distributed: bool,
    /// With --distributed: after each round of the exploration, save what it added in DIR (a
    /// directory every rank can reach); the same command run again resumes after the last
    /// round all ranks saved.
    #[arg(long, value_name = "DIR", requires = "distributed")]
    pub(crate) checkpoint: Option<std::path::PathBuf>,
}

/// Runs `grundy solve`.
pub fn run(args: SolveArgs) -> Result<(), CliError> {
    if args.distributed {
        return crate::distributed::solve(&args);
    }
    if let Some(s) = heap_in_disguise(&args)? {
        return print(&args, &s);
    }
    let game = parse_board_game(&args.game).map_err(|e| Error::Parse(e.in_source("GAME")))?;
    // The command's memory budget (`--memory`, global) bounds the transposition table and the
    // graph file a Node-Kayles game is read from.
    if matches!(game, BoardGame::Rules(_)) {
        crate::output::start_script_clock();
    }
    let ctl = interruptible();
    let loaded = grundy::notation::board::load(&game, &ctl)?;
    let play = if args.misere {
        Play::Misere
    } else {
        Play::Normal
    };
    let s = grundy::solve::solve_loaded(&loaded, play, args.moves, &ctl)?;
    if args.verbose {
        eprintln!(
            "positions searched {}, table hits {} of {} lookups ({:.1}%), table {} bytes, time {:.3} s",
            s.stats.positions,
            s.stats.hits,
            s.stats.lookups,
            100.0 * s.stats.hit_rate(),
            s.stats.table_bytes,
            s.seconds
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

/// The solution of a board that is a heap game in disguise (normal play; see
/// [`super::disguised`]), found before any board is built.
fn heap_in_disguise(args: &SolveArgs) -> Result<Option<Solution>, CliError> {
    match super::disguised::recognise(&args.game) {
        Some(d) if !args.misere => {
            super::disguised::solve(d, args.moves, &interruptible()).map(Some)
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
