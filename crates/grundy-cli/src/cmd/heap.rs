//! `grundy seq` and `grundy position`: Grundy sequences of heap games and sums of heaps.

use crate::error::CliError;
use crate::output::{control, interruptible, print_json, progress, stdout};
use crate::plot;
use clap::Args;
use grundy::heap::position::{self, PositionAnalysis};
use grundy::heap::sequence;
use grundy::heap::HeapGame;
use grundy::notation::game::parse_game;
use grundy::notation::number::parse_u64;
use grundy::solve::Outcome;
use std::io::Write;

/// Arguments of `grundy seq`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  grundy seq kayles -n 12\n  \
                        0 1 2 3 1 4 3 2 1 4 2 6\n  grundy seq octal:0.137 -n 100 --json\n  \
                        grundy seq sub:1,3,4 -n 0x20\n  \
                        grundy seq kayles -n 100 --plot kayles.svg\n\n\
                        GAME is one of: nim, sub:S (e.g. sub:1,3,4 or sub:1-1000), octal:CODE \
                        (e.g. octal:0.137, octal:4.07, hexadecimal digits 8-F allowed), kayles, \
                        dawsons-kayles, dawsons-chess, officers, grundys-game, divide:D (e.g. \
                        divide:2,3,4,5,6), squares, script:PATH (a Rhai script, see the README).")]
pub struct SeqArgs {
    /// The game, e.g. `kayles`, `octal:0.137`, `sub:1,3,4`, `divide:2,3`.
    game: String,
    /// How many values: G(0) ... G(N-1) (decimal or 0x-hexadecimal, at most 2000000000).
    #[arg(short = 'n', value_name = "N")]
    n: String,
    /// Print one JSON document `{"game", "values"}` instead of text.
    #[arg(long)]
    json: bool,
    /// Also draw G(n) against n into FILE (SVG; the extension must be .svg; at most 100000
    /// values).
    #[arg(long, value_name = "FILE")]
    plot: Option<String>,
}

/// Arguments of `grundy position`.
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  grundy position kayles 3 5 6\n  N\n  heap 2: 5 -> 2 2\n  \
                        grundy position nim 1 2 3\n  P\n  \
                        grundy position nim 1 1 2 --misere --json\n\n\
                        Output: P (the player to move loses) or N, then every winning move as \
                        `heap I: H -> H1' H2' ...` (I counts from 1; nothing after the arrow \
                        when the heap is removed)."
)]
pub struct PositionArgs {
    /// The game (as for `grundy seq`).
    game: String,
    /// Heap sizes (decimal or 0x-hexadecimal, below 2^64).
    #[arg(required = true, value_name = "HEAP")]
    heaps: Vec<String>,
    /// Misère play: the player who cannot move wins (the nim-sum is then null).
    #[arg(long)]
    misere: bool,
    /// Print one JSON document `{"outcome", "nim_sum", "winning_moves"}` instead of text.
    #[arg(long)]
    json: bool,
}

fn rule(game: &str) -> Result<HeapGame, CliError> {
    let spec = parse_game(game).map_err(|e| e.in_source("GAME"))?;
    let mut game = HeapGame::from_spec(spec)?;
    // A script stops on Ctrl-C between two of its operations.
    game.watch(&interruptible());
    Ok(game)
}

/// Runs `grundy seq`.
pub fn seq(args: SeqArgs) -> Result<(), CliError> {
    let n = parse_u64(&args.n).map_err(|e| e.in_source("-n"))?;
    let rule = rule(&args.game)?;
    let plot = match &args.plot {
        Some(file) if n > plot::MAX_POINTS as u64 => {
            return Err(grundy::Error::limit(
                format!(
                    "--plot {file}: a plot holds at most {} values",
                    plot::MAX_POINTS
                ),
                "plot fewer values (a smaller -n)",
            )
            .into())
        }
        Some(file) => Some(plot::target(file)?),
        None => None,
    };
    let bar = progress(n, "computing");
    let report = |done| bar.set_position(done);
    let values = sequence::compute(&rule, n, &control(&report))?;
    bar.finish_and_clear();
    if let Some(path) = plot {
        let figure = plot::Figure {
            title: format!("{}: G(n) for 0 <= n < {n}", args.game),
            values: values.iter().map(u64::from).collect(),
            markers: plot::Markers::None,
        };
        plot::write(&path, &figure)?;
    }
    if args.json {
        #[derive(serde::Serialize)]
        struct Doc<'a> {
            game: &'a str,
            values: Vec<u32>,
        }
        return print_json(&Doc {
            game: &args.game,
            values: values.to_vec(),
        });
    }
    let mut out = stdout();
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            out.write_all(b" ")?;
        }
        write!(out, "{v}")?;
    }
    writeln!(out)?;
    out.flush()?;
    Ok(())
}

/// Runs `grundy position`.
pub fn position(args: PositionArgs) -> Result<(), CliError> {
    let rule = rule(&args.game)?;
    let heaps = args
        .heaps
        .iter()
        .enumerate()
        .map(|(i, h)| parse_u64(h).map_err(|e| e.in_source(format!("heap {}", i + 1))))
        .collect::<Result<Vec<u64>, _>>()?;
    let analysis = if args.misere {
        position::misere(&rule, &heaps, &interruptible())?
    } else {
        let max = heaps.iter().copied().max().unwrap_or(0);
        let bar = progress(max.saturating_add(1), "computing");
        let report = |done| bar.set_position(done);
        let a = position::normal(&rule, &heaps, &control(&report))?;
        bar.finish_and_clear();
        a
    };
    if args.json {
        print_json(&json(&analysis))
    } else {
        let mut out = stdout();
        write_text(&mut out, &analysis)?;
        out.flush()?;
        Ok(())
    }
}

fn outcome_str(o: Outcome) -> &'static str {
    match o {
        Outcome::P => "P",
        Outcome::N => "N",
        Outcome::D => "D",
    }
}

fn write_text(out: &mut impl Write, a: &PositionAnalysis) -> std::io::Result<()> {
    writeln!(out, "{}", outcome_str(a.outcome))?;
    for m in &a.winning_moves {
        write!(out, "heap {}: {} ->", m.heap + 1, m.from)?;
        for h in &m.to {
            write!(out, " {h}")?;
        }
        writeln!(out)?;
    }
    Ok(())
}

/// The JSON document of `grundy position`, fields in the order of the specification.
#[derive(serde::Serialize)]
struct PositionDoc {
    outcome: &'static str,
    nim_sum: Option<u64>,
    winning_moves: Vec<MoveDoc>,
}

#[derive(serde::Serialize)]
struct MoveDoc {
    heap: usize,
    from: u64,
    to: Vec<u64>,
}

fn json(a: &PositionAnalysis) -> PositionDoc {
    PositionDoc {
        outcome: outcome_str(a.outcome),
        nim_sum: a.nim_sum,
        winning_moves: a
            .winning_moves
            .iter()
            .map(|m| MoveDoc {
                heap: m.heap + 1,
                from: m.from,
                to: m.to.clone(),
            })
            .collect(),
    }
}
