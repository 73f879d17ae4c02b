//! `grundy graph ...`: game graphs read from files, solved with outcomes, remoteness and
//! generalized Sprague-Grundy values, or drawn as Graphviz DOT.

use crate::error::{CliError, RAISE_MEMORY};
use crate::files::ReadError;
use crate::output::stdout;
use crate::progress;
use crate::settings::Settings;
use clap::{Args, Subcommand};
use grundy::control::format_bytes;
use grundy::game::graph::{is_id_cap, Graph, VertexId};
use grundy::notation::graph::{parse_arcs_stream_as, parse_graph_as, GraphFormat, Names};
use grundy::solve::loopy::{self, Gamma, LoopyValues, VertexDocument};
use grundy::solve::outcome::{self, Outcomes};
use grundy::solve::{Outcome, Play};
use grundy::{Error, LimitKind};
use std::io::Write;

/// Game-graph subcommands.
#[derive(Subcommand, Debug)]
pub enum GraphCommand {
    /// Solve every vertex: outcome (P, N or D), remoteness and generalized Sprague-Grundy value.
    ///
    /// One line a vertex, in order of first appearance: `V OUTCOME REMOTENESS VALUE`.
    #[command(
        after_help = "Example:\n  printf 'a: b\\nb: c\\nc: a d\\nd: e\\n' | grundy graph solve -\n\
        prints\n  a D - inf{}\n  b D - inf{}\n  c D - inf{1}\n  d N 1 1\n  e P 0 0\n\n        On a cluster (a build with the `mpi` feature), every rank reads its own part of the file:\n          mpirun -np 64 grundy graph solve big.txt --edges --distributed --checkpoint ckpt/ > answer.txt"
    )]
    Solve {
        #[command(flatten)]
        input: Input,
        /// Print one JSON document instead of text.
        #[arg(long)]
        json: bool,
        /// Solve over the ranks of an MPI job (run under mpirun or srun): each rank reads its own
        /// byte range of FILE and holds only the vertices it owns; rank 0 prints the answer,
        /// the same as without this flag. --memory is the budget of each rank.
        #[arg(long)]
        distributed: bool,
        /// With --distributed: print the ranks' work and traffic to stderr when done (rounds,
        /// bytes sent an arc, seconds a phase).
        #[arg(long, requires = "distributed")]
        stats: bool,
        /// With --distributed: save each rank's state in DIR (a directory every rank can reach)
        /// when the outcomes are done and after each stage of the values; the same command run
        /// again resumes from the last state all ranks saved (the file is read again).
        #[arg(long, value_name = "DIR", requires = "distributed")]
        checkpoint: Option<std::path::PathBuf>,
    },
    /// Write the graph in Graphviz DOT, vertices coloured by outcome (P red, N blue, D grey).
    #[command(after_help = "Example:\n  grundy graph dot game.txt | dot -Tsvg > game.svg")]
    Dot {
        #[command(flatten)]
        input: Input,
    },
}

/// The input options shared by the graph subcommands.
#[derive(Args, Debug)]
pub struct Input {
    /// The graph file (`-` for standard input): lines `V: W1 W2 ...`, or `U V` arcs with --edges.
    pub(crate) file: String,
    /// Misère play: the player who cannot move wins (values are then not computed).
    #[arg(long)]
    pub(crate) misere: bool,
    /// Read one arc `U V` a line, with integer vertex ids.
    #[arg(long)]
    pub(crate) edges: bool,
    /// Solve with 64-bit vertex ids whatever the size (hidden: tests the path taken beyond the
    /// 32-bit caps, where arc lists read from a file are read again with 64-bit ids; memory
    /// estimates then use 8-byte words).
    #[arg(long, hide = true)]
    wide_ids: bool,
}

/// Runs a graph subcommand.
pub fn run(command: GraphCommand, settings: &Settings) -> Result<(), CliError> {
    match command {
        GraphCommand::Solve {
            input,
            json,
            distributed: true,
            stats,
            checkpoint,
        } => crate::distributed::graph_solve(&input, json, stats, checkpoint.as_deref(), settings),
        GraphCommand::Solve { input, json, .. } => match solve(&input, settings)? {
            AnySolved::U32(s) if json => write_json(&s),
            AnySolved::U64(s) if json => write_json(&s),
            AnySolved::U32(s) => write_text(&s),
            AnySolved::U64(s) => write_text(&s),
        },
        GraphCommand::Dot { input } => match solve(&input, settings)? {
            AnySolved::U32(s) => write_dot(&s),
            AnySolved::U64(s) => write_dot(&s),
        },
    }
}

/// A parsed and solved graph, with ids of type `I`.
struct Solved<I: VertexId> {
    graph: Graph<I>,
    names: Names,
    outcomes: Outcomes<I>,
    values: Option<LoopyValues<I>>,
}

/// A solved graph of either id width (32 bits when the size allows, see
/// [`needs_u64`](grundy::game::graph::needs_u64)).
enum AnySolved {
    U32(Solved<u32>),
    U64(Solved<u64>),
}

/// The limit error of a need (`needs`, e.g. "holding the file needs 2.0 GiB") of `needed`
/// bytes, above the budget `limit`.
fn memory_error(needs: String, needed: u64, limit: u64) -> Error {
    Error::limit_with_amounts(
        LimitKind::Memory,
        format!("{needs}, above the {} memory limit", format_bytes(limit)),
        RAISE_MEMORY,
        needed,
        limit,
    )
}

fn solve(input: &Input, settings: &Settings) -> Result<AnySolved, CliError> {
    // The command's memory budget (`--memory`, `GRUNDY_MEMORY` or a quarter of the RAM).
    let limit = settings.memory().limit();
    let in_source = |e: Error| in_source(e, &input.file);
    let unreadable = |e: std::io::Error| unreadable(&input.file, e);
    let play = if input.misere {
        Play::Misere
    } else {
        Play::Normal
    };
    if input.edges {
        // Arc lists are streamed line by line: the text (16 bytes an arc) is never held. They
        // are read with 32-bit ids; a file beyond the 32-bit caps is read again with 64-bit ids
        // (standard input cannot be read twice), or at once with --wide-ids.
        let read = |wide: bool| -> Result<AnySolved, CliError> {
            Ok(if wide {
                AnySolved::U64(solve_arcs(input, play, settings)?)
            } else {
                AnySolved::U32(solve_arcs(input, play, settings)?)
            })
        };
        return match read(input.wide_ids) {
            Err(CliError::Lib(e)) if is_id_cap(&e) && input.file != "-" && !input.wide_ids => {
                read(true)
            }
            other => other,
        };
    }
    {
        // Read in chunks against the budget: the size a file reports is not trusted (devices
        // and pipes report 0), and a NUL byte (never valid in a graph file) ends it at once.
        let read = if input.file == "-" {
            crate::files::read_text(std::io::stdin().lock(), limit, settings)
        } else {
            let file = std::fs::File::open(&input.file).map_err(unreadable)?;
            crate::files::read_text(file, limit, settings)
        };
        let bytes = match read {
            Ok(b) => b,
            Err(ReadError::Io(_)) if settings.interrupted() => {
                return Err(CliError::Lib(Error::Cancelled(grundy::Interruption::Token)));
            }
            Err(ReadError::Io(e)) => return Err(unreadable(e)),
            Err(ReadError::TooLarge(n)) => {
                let what = if input.file == "-" {
                    "holding the input"
                } else {
                    "holding the file"
                };
                let needs = format!("{what} needs more than {}", format_bytes(limit));
                return Err(CliError::Lib(memory_error(needs, n, limit)));
            }
            Err(ReadError::Nul(line)) => {
                return Err(CliError::Lib(in_source(Error::Parse(
                    grundy::ParseError::at_line(
                        line,
                        None,
                        "a NUL byte: graph files are UTF-8 text",
                    ),
                ))))
            }
        };
        // The text is held from the command's budget while the reader, drawing on the same
        // budget, numbers the vertices; its limit error counts the text in (it is stated again
        // to say so).
        let ctl = settings.interruptible();
        let _text = ctl.reserve(bytes.len() as u64, "holding the graph's text")?;
        let in_source = |e: Error| match e {
            Error::Limit(l) if l.kind == LimitKind::Memory => {
                let needed = l.amounts.map_or(limit, |(needed, _)| needed);
                let needs = format!(
                    "reading the graph needs more than {} (its text included)",
                    format_bytes(needed)
                );
                memory_error(needs, needed, limit)
            }
            other => in_source(other),
        };
        // Read with 32-bit ids unless asked otherwise; a text beyond the 32-bit caps is read
        // again (it is held) with 64-bit ids.
        let read = |wide: bool| -> Result<AnySolved, CliError> {
            let format = GraphFormat::Adjacency;
            Ok(if wide {
                let (g, names) = parse_graph_as::<u64>(&bytes, format, &ctl).map_err(in_source)?;
                AnySolved::U64(solve_graph(g, names, play, settings)?)
            } else {
                let (g, names) = parse_graph_as::<u32>(&bytes, format, &ctl).map_err(in_source)?;
                AnySolved::U32(solve_graph(g, names, play, settings)?)
            })
        };
        match read(input.wide_ids) {
            Err(CliError::Lib(e)) if is_id_cap(&e) && !input.wide_ids => read(true),
            other => other,
        }
    }
}

/// A parse error located in `file` (other errors unchanged).
pub(crate) fn in_source(e: Error, file: &str) -> Error {
    match e {
        Error::Parse(p) => Error::Parse(p.in_source(source_name(file))),
        other => other,
    }
}

/// The usage error for a file that cannot be read.
pub(crate) fn unreadable(file: &str, e: std::io::Error) -> CliError {
    CliError::usage(format!("FILE: cannot read '{file}': {e}"))
}

/// Reads the arc list of `input` with ids of type `I`, line by line, and solves it.
fn solve_arcs<I: VertexId>(
    input: &Input,
    play: Play,
    settings: &Settings,
) -> Result<Solved<I>, CliError> {
    const BUFFER: usize = 1 << 20;
    let ctl = settings.interruptible();
    let (graph, names) = if input.file == "-" {
        parse_arcs_stream_as::<I>(std::io::stdin().lock(), &ctl)
    } else {
        let file = std::fs::File::open(&input.file).map_err(|e| unreadable(&input.file, e))?;
        parse_arcs_stream_as::<I>(std::io::BufReader::with_capacity(BUFFER, file), &ctl)
    }
    .map_err(|e| in_source(e, &input.file))?;
    solve_graph(graph, names, play, settings)
}

/// Outcomes, remoteness and (normal play) `γ` values of every vertex, with progress bars. The
/// graph and 16 bytes a vertex of output buffers are held from the run's budget while the
/// solvers run; the solvers reserve their own words from it.
fn solve_graph<I: VertexId>(
    graph: Graph<I>,
    names: Names,
    play: Play,
    settings: &Settings,
) -> Result<Solved<I>, CliError> {
    let n = graph.vertex_count() as u64;
    let held = graph.memory_bytes() + 16 * n;
    let _graph = settings.budgeted().reserve(held, "holding the graph")?;
    let bar = progress::bar(settings, n, "outcomes");
    let report = |done: u64| bar.set_position(done);
    let outcomes = outcome::solve(&graph, play, &settings.control(&report))?;
    bar.finish_and_clear();
    let values = if play == Play::Normal {
        let bar = progress::bar(settings, n, "values");
        let report = |done: u64| bar.set_position(done);
        let v = loopy::solve(&graph, &settings.control(&report))?;
        bar.finish_and_clear();
        Some(v)
    } else {
        None
    };
    Ok(Solved {
        graph,
        names,
        outcomes,
        values,
    })
}

fn source_name(file: &str) -> String {
    if file == "-" {
        "<stdin>".into()
    } else {
        file.into()
    }
}

/// The vertex ids of `g` in order.
fn vertices<I: VertexId>(g: &Graph<I>) -> impl Iterator<Item = I> {
    (0..g.vertex_count()).map(I::from_usize)
}

fn write_text<I: VertexId>(s: &Solved<I>) -> Result<(), CliError> {
    let mut out = stdout();
    let g = &s.graph;
    for v in vertices(g) {
        let name = s.names.get(v.to_u64_lossless());
        let remoteness = s.outcomes.remoteness(v).map(I::to_u64_lossless);
        let value = s.values.as_ref().map(|vals| vals.value(g, v));
        text_line(
            &mut out,
            &name,
            s.outcomes.outcome(v),
            remoteness,
            value.as_ref(),
        )?;
    }
    out.flush()?;
    Ok(())
}

/// One vertex of the text answer: `V OUTCOME REMOTENESS VALUE`.
pub(crate) fn text_line(
    out: &mut impl Write,
    name: &str,
    outcome: Outcome,
    remoteness: Option<u64>,
    value: Option<&Gamma>,
) -> std::io::Result<()> {
    write!(out, "{name} {outcome} ")?;
    match remoteness {
        Some(r) => write!(out, "{r} ")?,
        None => write!(out, "- ")?,
    }
    match value {
        Some(v) => writeln!(out, "{v}"),
        None => writeln!(out, "-"),
    }
}

fn write_json<I: VertexId>(s: &Solved<I>) -> Result<(), CliError> {
    // Streamed: one document, written vertex by vertex so that huge graphs need no copy.
    let mut out = stdout();
    let g = &s.graph;
    json_start(&mut out)?;
    for v in vertices(g) {
        let name = s.names.get(v.to_u64_lossless());
        let remoteness = s.outcomes.remoteness(v).map(I::to_u64_lossless);
        let value = s.values.as_ref().map(|vals| vals.value(g, v));
        let first = v == I::zero();
        json_vertex(
            &mut out,
            first,
            &name,
            s.outcomes.outcome(v),
            remoteness,
            value.as_ref(),
        )?;
    }
    json_end(&mut out)?;
    out.flush()?;
    Ok(())
}

/// The start of the JSON answer, the library's [`grundy::solve::loopy::GraphDocument`] streamed
/// one [`VertexDocument`] at a time so that huge graphs need no copy.
pub(crate) fn json_start(out: &mut impl Write) -> std::io::Result<()> {
    write!(out, "{{\"vertices\":[")
}

/// The end of the JSON answer.
pub(crate) fn json_end(out: &mut impl Write) -> std::io::Result<()> {
    writeln!(out, "]}}")
}

/// One vertex of the JSON answer (`first`: no comma before it).
pub(crate) fn json_vertex(
    out: &mut impl Write,
    first: bool,
    name: &str,
    outcome: Outcome,
    remoteness: Option<u64>,
    value: Option<&Gamma>,
) -> std::io::Result<()> {
    if !first {
        write!(out, ",")?;
    }
    let doc = VertexDocument::new(name, outcome, remoteness, value);
    serde_json::to_writer(&mut *out, &doc).map_err(std::io::Error::from)
}

fn write_dot<I: VertexId>(s: &Solved<I>) -> Result<(), CliError> {
    let mut out = stdout();
    let g = &s.graph;
    let names = |v: I| s.names.get(v.to_u64_lossless());
    writeln!(out, "digraph game {{")?;
    writeln!(out, "  node [style=filled, fontcolor=white];")?;
    for v in vertices(g) {
        let o = s.outcomes.outcome(v);
        let colour = match o {
            Outcome::P => "red",
            Outcome::N => "blue",
            Outcome::D => "grey",
        };
        let remoteness = s
            .outcomes
            .remoteness(v)
            .map_or("-".to_string(), |r| r.to_string());
        let value = s
            .values
            .as_ref()
            .map_or("-".to_string(), |vals| vals.value(g, v).to_string());
        writeln!(
            out,
            "  \"{}\" [fillcolor={colour}, label=\"{}\\n{o} {remoteness} {value}\"];",
            names(v),
            names(v)
        )?;
    }
    for v in vertices(g) {
        for &w in g.options(v) {
            writeln!(out, "  \"{}\" -> \"{}\";", names(v), names(w))?;
        }
    }
    writeln!(out, "}}")?;
    out.flush()?;
    Ok(())
}
