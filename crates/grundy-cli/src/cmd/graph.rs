//! `grundy graph ...`: game graphs read from files, solved with outcomes, remoteness and
//! generalized Sprague-Grundy values, or drawn as Graphviz DOT.

use crate::error::{CliError, RAISE_MEMORY};
use crate::output::{control, progress, stdout};
use clap::{Args, Subcommand};
use grundy::game::graph::{human_bytes, is_id_cap, Graph, VertexId};
use grundy::notation::graph::{parse_arcs_stream_as, parse_graph_as, GraphFormat, Names};
use grundy::solve::loopy::{self, LoopyValues};
use grundy::solve::outcome::{self, Outcomes};
use grundy::solve::{Outcome, Play};
use grundy::{Error, LimitKind};
use std::io::{Read, Write};

/// Game-graph subcommands.
#[derive(Subcommand, Debug)]
pub enum GraphCommand {
    /// Solve every vertex: outcome (P, N or D), remoteness and generalized Sprague-Grundy value.
    ///
    /// One line a vertex, in order of first appearance: `V OUTCOME REMOTENESS VALUE`.
    #[command(
        after_help = "Example:\n  printf 'a: b\\nb: c\\nc: a d\\nd: e\\n' | grundy graph solve -\n\
        prints\n  a D - inf{}\n  b D - inf{}\n  c D - inf{1}\n  d N 1 1\n  e P 0 0"
    )]
    Solve {
        #[command(flatten)]
        input: Input,
        /// Print one JSON document instead of text.
        #[arg(long)]
        json: bool,
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
    file: String,
    /// Misère play: the player who cannot move wins (values are then not computed).
    #[arg(long)]
    misere: bool,
    /// Read one arc `U V` a line, with integer vertex ids.
    #[arg(long)]
    edges: bool,
    /// Memory limit for reading and solving, e.g. 512M, 16G (default: $GRUNDY_MEMORY if set,
    /// else 80% of the memory available now).
    #[arg(long, value_name = "SIZE")]
    memory: Option<String>,
    /// Solve with 64-bit vertex ids whatever the size (hidden: tests the path taken beyond the
    /// 32-bit caps, where arc lists read from a file are read again with 64-bit ids; memory
    /// estimates then use 8-byte words).
    #[arg(long, hide = true)]
    wide_ids: bool,
}

/// Runs a graph subcommand.
pub fn run(command: GraphCommand) -> Result<(), CliError> {
    match command {
        GraphCommand::Solve { input, json } => match solve(&input)? {
            AnySolved::U32(s) if json => write_json(&s),
            AnySolved::U64(s) if json => write_json(&s),
            AnySolved::U32(s) => write_text(&s),
            AnySolved::U64(s) => write_text(&s),
        },
        GraphCommand::Dot { input } => match solve(&input)? {
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

/// Parses `SIZE` (`123`, `64K`, `512M`, `16G`, `1T`; binary units) into bytes.
fn parse_size(s: &str) -> Option<u64> {
    let (digits, unit) = match s.find(|c: char| !c.is_ascii_digit()) {
        Some(i) => s.split_at(i),
        None => (s, ""),
    };
    let shift = match unit.to_ascii_uppercase().trim_end_matches(['B', 'I']) {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => return None,
    };
    let n: u64 = digits.parse().ok()?;
    n.checked_mul(1 << shift)
}

/// The default memory budget: 80% of `MemAvailable` in `/proc/meminfo` (memory the kernel can
/// hand out without swapping, page cache included), or 8 GiB if it cannot be read.
fn default_memory() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| available_kib(&m))
        .map_or(8 << 30, |kib| kib * 1024 / 5 * 4)
}

/// The `MemAvailable:` figure of a `/proc/meminfo` text, in KiB.
fn available_kib(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The memory budget: `--memory`, else the environment variable `GRUNDY_MEMORY`, else
/// [`default_memory`]. A malformed size is a usage error naming where it came from.
pub(crate) fn memory_limit(flag: Option<&str>) -> Result<u64, CliError> {
    if let Some(s) = flag {
        return parse_size(s).ok_or_else(|| {
            CliError::usage(format!(
                "--memory: expected a size like 512M or 16G, found '{s}'"
            ))
        });
    }
    match std::env::var("GRUNDY_MEMORY") {
        Ok(s) => parse_size(&s).ok_or_else(|| {
            CliError::usage(format!(
                "GRUNDY_MEMORY: expected a size like 512M or 16G, found '{s}'"
            ))
        }),
        Err(_) => Ok(default_memory()),
    }
}

fn limit_error(what: &str, needed: u64, limit: u64) -> CliError {
    let needs = format!("{what} needs {}", human_bytes(needed));
    CliError::Lib(memory_error(needs, needed, limit))
}

/// The limit error of a need (`needs`, e.g. "holding the file needs 2.0 GiB") of `needed`
/// bytes, above the budget `limit`.
fn memory_error(needs: String, needed: u64, limit: u64) -> Error {
    Error::limit_with_amounts(
        LimitKind::Memory,
        format!("{needs}, above the {} memory limit", human_bytes(limit)),
        RAISE_MEMORY,
        needed,
        limit,
    )
}

fn solve(input: &Input) -> Result<AnySolved, CliError> {
    let limit = memory_limit(input.memory.as_deref())?;
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
                AnySolved::U64(solve_arcs(input, play, limit)?)
            } else {
                AnySolved::U32(solve_arcs(input, play, limit)?)
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
        let bytes = if input.file == "-" {
            let mut b = Vec::new();
            std::io::stdin()
                .take(limit.saturating_add(1))
                .read_to_end(&mut b)?;
            if b.len() as u64 > limit {
                return Err(limit_error("holding the input", b.len() as u64, limit));
            }
            b
        } else {
            let size = std::fs::metadata(&input.file).map_err(unreadable)?.len();
            if size > limit {
                return Err(limit_error("holding the file", size, limit));
            }
            std::fs::read(&input.file).map_err(unreadable)?
        };
        let budget = limit.saturating_sub(bytes.len() as u64);
        // The reader is given what the text leaves of the budget; its limit error is restated
        // with the text counted in, against the whole budget the user set.
        let in_source = |e: Error| match e {
            Error::Limit(l) if l.kind == LimitKind::Memory => {
                let needed = l.amounts.map_or(budget, |(needed, _)| needed);
                let needed = needed.saturating_add(bytes.len() as u64);
                let needs = format!(
                    "reading the graph needs more than {} (its text included)",
                    human_bytes(needed)
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
                let (g, names) =
                    parse_graph_as::<u64>(&bytes, format, budget).map_err(in_source)?;
                AnySolved::U64(solve_checked(g, names, play, limit)?)
            } else {
                let (g, names) =
                    parse_graph_as::<u32>(&bytes, format, budget).map_err(in_source)?;
                AnySolved::U32(solve_checked(g, names, play, limit)?)
            })
        };
        match read(input.wide_ids) {
            Err(CliError::Lib(e)) if is_id_cap(&e) && !input.wide_ids => read(true),
            other => other,
        }
    }
}

/// Checks the memory budget for solving `graph` ([`check_solve_memory`]), then solves it.
fn solve_checked<I: VertexId>(
    graph: Graph<I>,
    names: Names,
    play: Play,
    limit: u64,
) -> Result<Solved<I>, CliError> {
    let (n, e) = (graph.vertex_count() as u64, graph.arc_count() as u64);
    check_solve_memory::<I>(n, e, play, limit)?;
    solve_graph(graph, names, play)
}

/// A parse error located in `file` (other errors unchanged).
fn in_source(e: Error, file: &str) -> Error {
    match e {
        Error::Parse(p) => Error::Parse(p.in_source(source_name(file))),
        other => other,
    }
}

/// The usage error for a file that cannot be read.
fn unreadable(file: &str, e: std::io::Error) -> CliError {
    CliError::usage(format!("FILE: cannot read '{file}': {e}"))
}

/// Reads the arc list of `input` with ids of type `I`, line by line, and solves it.
fn solve_arcs<I: VertexId>(input: &Input, play: Play, limit: u64) -> Result<Solved<I>, CliError> {
    const BUFFER: usize = 1 << 20;
    let (graph, names) = if input.file == "-" {
        parse_arcs_stream_as::<I>(std::io::stdin().lock(), limit)
    } else {
        let file = std::fs::File::open(&input.file).map_err(|e| unreadable(&input.file, e))?;
        parse_arcs_stream_as::<I>(std::io::BufReader::with_capacity(BUFFER, file), limit)
    }
    .map_err(|e| in_source(e, &input.file))?;
    solve_checked(graph, names, play, limit)
}

/// Fails with a limit error unless solving a graph of `n` vertices and `e` arcs with ids of
/// type `I` fits `limit` bytes: the graph, the solvers' words (of `I`'s width) and 16 bytes a
/// vertex of output buffers.
fn check_solve_memory<I: VertexId>(n: u64, e: u64, play: Play, limit: u64) -> Result<(), CliError> {
    let solver_bytes = outcome::bytes_needed_for::<I>(n)
        + if play == Play::Normal {
            loopy::bytes_needed_for::<I>(n)
        } else {
            0
        };
    let needed = Graph::<I>::bytes_needed(n, e) + solver_bytes + 16 * n;
    if needed > limit {
        return Err(limit_error("solving the graph", needed, limit));
    }
    Ok(())
}

/// Outcomes, remoteness and (normal play) `γ` values of every vertex, with progress bars.
fn solve_graph<I: VertexId>(
    graph: Graph<I>,
    names: Names,
    play: Play,
) -> Result<Solved<I>, CliError> {
    let n = graph.vertex_count() as u64;
    let bar = progress(n, "outcomes");
    let report = |done: u64| bar.set_position(done);
    let outcomes = outcome::solve(&graph, play, &control(&report))?;
    bar.finish_and_clear();
    let values = if play == Play::Normal {
        let bar = progress(n, "values");
        let report = |done: u64| bar.set_position(done);
        let v = loopy::solve(&graph, &control(&report))?;
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
        write!(out, "{name} {} ", s.outcomes.outcome(v))?;
        match s.outcomes.remoteness(v) {
            Some(r) => write!(out, "{r} ")?,
            None => write!(out, "- ")?,
        }
        match &s.values {
            Some(vals) => writeln!(out, "{}", vals.value(g, v))?,
            None => writeln!(out, "-")?,
        }
    }
    out.flush()?;
    Ok(())
}

fn write_json<I: VertexId>(s: &Solved<I>) -> Result<(), CliError> {
    // Streamed: one document, written vertex by vertex so that huge graphs need no copy.
    let mut out = stdout();
    let g = &s.graph;
    write!(out, "{{\"vertices\":[")?;
    for v in vertices(g) {
        if v > I::zero() {
            write!(out, ",")?;
        }
        let name = serde_json::to_string(&s.names.get(v.to_u64_lossless()))
            .map_err(std::io::Error::from)?;
        write!(
            out,
            "{{\"name\":{name},\"outcome\":\"{}\",",
            s.outcomes.outcome(v)
        )?;
        match s.outcomes.remoteness(v) {
            Some(r) => write!(out, "\"remoteness\":{r},")?,
            None => write!(out, "\"remoteness\":null,")?,
        }
        match s.values.as_ref().map(|vals| vals.value(g, v)) {
            Some(grundy::solve::loopy::Gamma::Finite(a)) => {
                write!(out, "\"value\":{a},\"infinite_options\":null}}")?
            }
            Some(grundy::solve::loopy::Gamma::Infinite(k)) => {
                let k: Vec<String> = k.iter().map(u64::to_string).collect();
                write!(
                    out,
                    "\"value\":null,\"infinite_options\":[{}]}}",
                    k.join(",")
                )?
            }
            None => write!(out, "\"value\":null,\"infinite_options\":null}}")?,
        }
    }
    writeln!(out, "]}}")?;
    out.flush()?;
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::{available_kib, parse_size};

    #[test]
    fn sizes() {
        assert_eq!(parse_size("512M").unwrap(), 512 << 20);
        assert_eq!(parse_size("16G").unwrap(), 16 << 30);
        assert_eq!(parse_size("16GiB").unwrap(), 16 << 30);
        assert_eq!(parse_size("100").unwrap(), 100);
        assert!(parse_size("12X").is_none());
        assert!(parse_size("G").is_none());
        assert!(parse_size("99999999999T").is_none());
    }

    #[test]
    fn available_memory_is_read_from_meminfo() {
        let m = "MemTotal:       24000000 kB\nMemFree:  100 kB\nMemAvailable:   20000000 kB\n";
        assert_eq!(available_kib(m), Some(20_000_000));
        assert_eq!(available_kib("MemTotal: 5 kB\n"), None);
    }
}
