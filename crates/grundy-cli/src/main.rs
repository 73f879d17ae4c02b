//! `grundy`: the command line of the grundy toolkit.
//!
//! A thin layer: arguments are parsed (clap), the library computes, and this crate formats the
//! answer as text or JSON. Errors are values rendered once, in [`main`], with the exit status of
//! the specification: 0 success, 2 bad input or usage, 3 a stated resource limit, 1 otherwise.

mod budget;
mod checkpoint;
mod cli;
mod cmd;
mod distributed;
mod error;
mod files;
mod output;
mod plot;
mod progress;
mod settings;

use clap::{Parser, Subcommand};
use cli::Later;
use error::{CliError, Raise, RAISE_MEMORY};
use grundy::LimitKind as K;
use settings::Settings;

/// Impartial combinatorial games: Grundy values, nimbers, game graphs, patterns and proofs.
#[derive(Parser, Debug)]
#[command(name = "grundy", version, about, long_about = None)]
#[command(after_help = "Examples:\n  grundy nimber mul 8 9          # 5\n  \
                      printf '1\\n2 3\\n' | grundy nimber product\n  \
                      grundy seq kayles -n 12\n  \
                      grundy analyze dawsons-kayles --plot dk.svg\n  \
                      grundy position nim 1 2 3      # P\n  \
                      grundy completions bash > ~/.local/share/bash-completion/completions/grundy\n\n\
                      Every command takes --help; analysis commands take --json.")]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Memory budget of every computation, e.g. 512M, 16G (binary units). Default:
    /// $GRUNDY_MEMORY if set, else a quarter of the physical memory. Work that would pass it
    /// stops with exit status 3.
    #[arg(long, global = true, value_name = "SIZE")]
    memory: Option<String>,
    /// Time limit of a command running a script game (script:PATH), in seconds, every call of
    /// the script included; 0 for none. Default: 600. Passing it exits with status 3.
    #[arg(long, global = true, value_name = "SECONDS")]
    script_time: Option<u64>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Nimber arithmetic: the field of nimbers (sum = xor, nim product, inverse, roots, logs).
    #[command(
        subcommand,
        after_help = "Examples:\n  grundy nimber mul 8 9          # 5\n  \
                      grundy nimber inv 2            # 3\n  \
                      grundy nimber solve 1 1        # 2 and 3\n  \
                      printf '1\\n8 9\\n' | grundy nimber product"
    )]
    Nimber(Later<cmd::nimber::NimberCommand>),
    /// Game graphs from files: outcomes, remoteness, generalized Sprague-Grundy values, DOT.
    #[command(
        subcommand,
        after_help = "Examples:\n  printf 'a: b\\nb: c\\nc: a d\\nd: e\\n' | grundy graph solve -\n  \
                      grundy graph solve game.txt --json\n  \
                      grundy graph dot game.txt | dot -Tsvg > game.svg"
    )]
    Graph(Later<cmd::graph::GraphCommand>),
    /// The Grundy values G(0) ... G(N-1) of a heap game, on one line.
    Seq(Later<cmd::seq::SeqArgs>),
    /// Outcome and every winning move of a sum of heaps (normal or misère play).
    Position(Later<cmd::position::PositionArgs>),
    /// The pattern of a heap game: its period (proved where a theorem applies), saltus, runs and
    /// self-similar rules.
    Analyze(Later<cmd::analyze::AnalyzeArgs>),
    /// Grundy values G(N) of heaps of any size, through proved patterns.
    Value(Later<cmd::value::ValueArgs>),
    /// The misère quotient of a heap game over heaps up to N: presentation, order, P-portion,
    /// heap map, tame or wild, proved for all heaps or not.
    Misere(Later<cmd::misere::MisereArgs>),
    /// Count K-heap positions by nim-sum: how many K-tuples (or multisets) of heap sizes in
    /// [M, N] have Grundy values xoring to X.
    Count(Later<cmd::count::CountArgs>),
    /// Ordinals and games with transfinite Grundy values (cascading nim, 1451F, 1149E, ...).
    #[command(
        subcommand,
        after_help = "Examples:\n  grundy ordinal nim-sum w+1 w+2         # 3\n  \
                      grundy ordinal nim-mul w w             # w^2\n  \
                      grundy ordinal cascade 1,0 0,3         # w+3"
    )]
    Ordinal(Later<cmd::ordinal::OrdinalCommand>),
    /// Solve a game given by its rules (Chomp, Cram, Node-Kayles, Wythoff, a Rhai script):
    /// outcome, Grundy value, winning moves.
    Solve(Later<cmd::solve::SolveArgs>),
    /// Play a game of heaps against the engine in the terminal, with hints that explain the
    /// winning move.
    Play(Later<cmd::play::PlayArgs>),
    /// The web playground on 127.0.0.1: play against the engine with hints, plot sequences,
    /// draw game graphs.
    #[command(
        after_help = "Examples:\n  grundy serve                  # then open http://127.0.0.1:7357\n  \
                      grundy serve --port 8080      # another port; 0 picks a free one\n\n\
                      The server answers only on 127.0.0.1 and stops with Ctrl-C. A port already \
                      in use is bad usage (exit status 2)."
    )]
    #[cfg(feature = "serve")]
    Serve(Later<ServeArgs>),
    /// A shell completion script for grundy (bash, zsh, fish, elvish, powershell) on stdout.
    Completions(Later<cmd::completions::CompletionsArgs>),
    /// Manual pages (roff) for grundy and every subcommand.
    Manpage(Later<cmd::manpage::ManpageArgs>),
}

/// Arguments of `grundy serve`.
#[cfg(feature = "serve")]
#[derive(clap::Args, Debug)]
struct ServeArgs {
    /// The port to listen on (127.0.0.1 only).
    #[arg(long, value_name = "P", default_value_t = grundy_cli::serve::DEFAULT_PORT)]
    port: u16,
}

/// The flags of `grundy seq` that bound its work.
const SEQ_RAISE: Raise = &[
    (K::Length, "ask for fewer values with -n"),
    (K::Memory, "ask for fewer values with -n"),
];

/// The flags of `grundy analyze` and `grundy value`.
const ANALYZE_RAISE: Raise = &[
    (K::Values, "raise --max, the number of values computed"),
    (K::Length, "lower --max, the number of values computed"),
    (K::Memory, "lower --max, the number of values computed"),
];

/// The flags of `grundy position` (normal play). `--max` bounds only the values computed for
/// heaps above 10^7 (through a pattern); below, the largest heap sets the cost.
const POSITION_RAISE: Raise = &[
    (K::Values, "raise --max, the number of values computed"),
    (
        K::Memory,
        "use smaller heaps (for heaps above 10^7, a smaller --max)",
    ),
];

/// The flags of `grundy position --misere`: `--max` plays no part; the heaps set the cost.
const POSITION_MISERE_RAISE: Raise = &[
    (K::Memory, "use fewer or smaller heaps"),
    (K::Positions, "use fewer or smaller heaps"),
];

/// The flags of `grundy misere`.
const MISERE_RAISE: Raise = &[
    (K::Positions, "use a smaller --max-heap"),
    (K::HeapSize, "use a smaller --max-heap"),
    (K::Memory, "use a smaller --max-heap"),
];

/// The flags of `grundy count`.
const COUNT_RAISE: Raise = &[
    (
        K::HeapRange,
        "count over a smaller range of heap sizes: lower --max or raise --min",
    ),
    (
        K::CountValue,
        "count over a smaller range of heap sizes: lower --max or raise --min",
    ),
    (
        K::Runs,
        "count over a smaller range of heap sizes: lower --max or raise --min",
    ),
    (
        K::Enumeration,
        "count over a smaller range of heap sizes: lower --max or raise --min",
    ),
    (
        K::Values,
        "count over a smaller range of heap sizes: lower --max",
    ),
    (K::ExactCount, "count modulo a number with --mod Q"),
    (
        K::Heaps,
        "count ordered tuples (without --unordered), or fewer heaps (--heaps)",
    ),
    (
        K::Memory,
        "count over a smaller range of heap sizes: lower --max",
    ),
];

/// The input of the graph commands that sets their memory (`--memory` is added to it).
const GRAPH_RAISE: Raise = &[(K::Memory, "use a smaller graph")];

/// The flags of `grundy solve`.
const SOLVE_RAISE: Raise = &[(K::Memory, RAISE_MEMORY)];

/// The flags of the ordinal commands.
const ORDINAL_RAISE: Raise = &[(
    K::FieldDegree,
    "raise --max-degree; memory grows as its square",
)];

fn run(command: Command, settings: &Settings) -> Result<(), CliError> {
    let s = settings;
    match command {
        Command::Nimber(Later(c)) => cmd::nimber::run(c, s),
        Command::Graph(Later(c)) => cmd::graph::run(c, s).map_err(|e| e.raise_with(GRAPH_RAISE)),
        Command::Seq(Later(a)) => cmd::seq::run(a, s).map_err(|e| e.raise_with(SEQ_RAISE)),
        Command::Position(Later(a)) => {
            let raise = match a.misere() {
                true => POSITION_MISERE_RAISE,
                false => POSITION_RAISE,
            };
            cmd::position::run(a, s).map_err(|e| e.raise_with(raise))
        }
        Command::Analyze(Later(a)) => {
            cmd::analyze::run(a, s).map_err(|e| e.raise_with(ANALYZE_RAISE))
        }
        Command::Value(Later(a)) => cmd::value::run(a, s).map_err(|e| e.raise_with(ANALYZE_RAISE)),
        Command::Misere(Later(a)) => cmd::misere::run(a, s).map_err(|e| e.raise_with(MISERE_RAISE)),
        Command::Count(Later(c)) => cmd::count::run(c, s).map_err(|e| e.raise_with(COUNT_RAISE)),
        Command::Ordinal(Later(c)) => {
            cmd::ordinal::run(c, s).map_err(|e| e.raise_with(ORDINAL_RAISE))
        }
        Command::Solve(Later(a)) => cmd::solve::run(a, s).map_err(|e| e.raise_with(SOLVE_RAISE)),
        Command::Completions(Later(a)) => cmd::completions::run(a),
        Command::Manpage(Later(a)) => cmd::manpage::run(a),
        Command::Play(Later(a)) => cmd::play::run(a, s),
        #[cfg(feature = "serve")]
        Command::Serve(Later(a)) => {
            grundy_cli::serve::run(a.port, s.memory().limit()).map_err(|e| match e.status {
                2 => CliError::usage(e.message),
                _ => CliError::Lib(grundy::Error::Internal(e.message)),
            })
        }
    }
}

/// Adds to an unknown subcommand the known one nearest to it (`grundy sq`: did you mean `seq`?)
/// when clap's own similarity test finds none: clap compares by Jaro similarity, which misses
/// short names with a letter left out; [`grundy::notation::suggestion`] counts edits.
fn suggest_subcommand(mut e: clap::Error) -> clap::Error {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::InvalidSubcommand || e.get(ContextKind::SuggestedSubcommand).is_some()
    {
        return e;
    }
    let Some(ContextValue::String(given)) = e.get(ContextKind::InvalidSubcommand) else {
        return e;
    };
    let given = given.clone();
    // The level of the tree the name was given at: follow the known subcommands before it.
    let mut level = cli::whole();
    for arg in std::env::args_os().skip(1) {
        let Some(arg) = arg.to_str() else { break };
        if arg == given {
            break;
        }
        if let Some(sub) = level.find_subcommand(arg) {
            level = sub.clone();
        }
    }
    let names: Vec<&str> = level.get_subcommands().map(|c| c.get_name()).collect();
    if let Some(near) = grundy::notation::suggestion(&given, &names) {
        e.insert(
            ContextKind::SuggestedSubcommand,
            ContextValue::String(near.to_string()),
        );
    }
    e
}

/// Charges every allocation of the process to the command's memory budget, except under
/// `grundy serve`, which charges each job to a budget of its own.
fn charge_unless_serving(command: &Command, settings: &Settings) {
    #[cfg(feature = "serve")]
    if matches!(command, Command::Serve(_)) {
        return;
    }
    let _ = command;
    budget::charge_process(settings.memory());
}

fn main() {
    let cli = match Cli::try_parse().map_err(suggest_subcommand) {
        Ok(cli) => cli,
        Err(e) => {
            // clap prints help/version with status 0 and usage errors with status 2.
            let _ = e.print();
            std::process::exit(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let status = budget::on_large_stack(move || {
        // Resolved once: every command reads its settings from this value.
        let settings = match Settings::resolve(cli.memory.as_deref(), cli.script_time) {
            Ok(s) => s,
            Err(e) => return e.report(),
        };
        charge_unless_serving(&cli.command, &settings);
        match run(cli.command, &settings) {
            Ok(()) => 0,
            Err(e) => e.finish(&settings).report(),
        }
    });
    std::process::exit(status);
}
