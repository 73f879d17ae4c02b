//! `grundy seq` and `grundy position`: Grundy sequences of heap games and sums of heaps.

use crate::checkpoint::Checkpoint;
use crate::error::CliError;
use crate::output::{announce, control, interruptible, print_json, progress, stdout, Reporter};
use crate::plot;
use clap::Args;
use grundy::game::spec::GameSpec;
use grundy::heap::position::{self, PositionAnalysis, PositionDocument};
use grundy::heap::sequence;
use grundy::heap::HeapGame;
use grundy::notation::game::parse_game;
use grundy::notation::number::{parse_natural, parse_u64};
use grundy::pattern::value;
use grundy::solve::Outcome;
use num_bigint::BigUint;
use num_traits::ToPrimitive;
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
                        divide:2,3,4,5,6), squares, script:PATH (a Rhai script, see docs/heap-games.md).")]
pub struct SeqArgs {
    /// The game, e.g. `kayles`, `octal:0.137`, `sub:1,3,4`, `divide:2,3`.
    game: String,
    /// How many values: G(0) ... G(N-1) (decimal or 0x-hexadecimal, at most 2000000000).
    #[arg(short = 'n', value_name = "N")]
    n: String,
    /// Print one JSON document `{"game", "values"}` instead of text.
    #[arg(long)]
    json: bool,
    /// Print a plain progress line to stderr every 2 seconds (for logs and pipes: the
    /// progress bar is drawn only when stderr is a terminal). Work still running after 2 s and
    /// estimated above 5 s of CPU time is announced on stderr either way, with the estimate
    /// (from its progress so far; an analysis may stop early, so its estimate is a bound).
    #[arg(long)]
    progress: bool,
    /// Also draw G(n) against n into FILE (SVG; the extension must be .svg; at most 100000
    /// values).
    #[arg(long, value_name = "FILE")]
    plot: Option<String>,
    /// Save the values computed to FILE every --checkpoint-every seconds (written whole to a
    /// new file, then renamed over FILE), and resume from FILE when it holds values of this
    /// game: a run killed midway loses at most one interval of work. A FILE of another game, or
    /// damaged, is refused (exit status 2) and left as it is.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<String>,
    /// Seconds between two checkpoint writes (decimal) [default: 60].
    #[arg(long, value_name = "SECONDS", requires = "checkpoint")]
    checkpoint_every: Option<String>,
}

/// Arguments of `grundy position`.
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  grundy position kayles 3 5 6\n  N\n  heap 2: 5 -> 2 2\n  \
                        grundy position nim 1 2 3\n  P\n  \
                        grundy position nim 1 1 2 --misere --json\n  \
                        grundy position sub:1,3,4 100000000000000000000000   # by its period\n\n\
                        Output: P (the player to move loses) or N, then every winning move as \
                        `heap I: H -> H1' H2' ...` (I counts from 1; nothing after the arrow \
                        when the heap is removed)."
)]
pub struct PositionArgs {
    /// The game (as for `grundy seq`).
    game: String,
    /// Heap sizes (decimal or 0x-hexadecimal), any size: Nim's values are the heaps; other
    /// games above 10^7 take their values from a proved pattern (see --max).
    #[arg(required = true, value_name = "HEAP")]
    heaps: Vec<String>,
    /// For heaps above 10^7 (games other than Nim and divide:D): compute at most N values
    /// while looking for a proved pattern [default: as for `grundy analyze`]. A heap beyond
    /// them without a proved pattern is a stated limit (exit status 3).
    #[arg(long, value_name = "N")]
    max: Option<String>,
    /// Misère play: the player who cannot move wins (the nim-sum is then null).
    #[arg(long)]
    misere: bool,
    /// Print one JSON document `{"outcome", "nim_sum", "winning_moves"}` instead of text.
    #[arg(long)]
    json: bool,
}

impl PositionArgs {
    /// Whether the sum is played misère (`--misere`).
    pub fn misere(&self) -> bool {
        self.misere
    }
}

fn rule(game: &str) -> Result<HeapGame, CliError> {
    let spec = parse_game(game).map_err(|e| e.in_source("GAME"))?;
    let mut game = HeapGame::from_spec(spec)?;
    // A script stops on Ctrl-C between two of its operations.
    crate::output::watch_game(&mut game);
    Ok(game)
}

/// Runs `grundy seq`.
pub fn seq(args: SeqArgs) -> Result<(), CliError> {
    let n = parse_u64(&args.n).map_err(|e| e.in_source("-n"))?;
    let rule = rule(&args.game)?;
    let game = rule.spec().to_string();
    let plot = match &args.plot {
        Some(file) if n > plot::MAX_POINTS as u64 => {
            return Err(grundy::Error::limit(
                grundy::LimitKind::Length,
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
    let announced = announce(&rule, n, false);
    let bar = Reporter::new(n, "computing", args.progress);
    let report = |done| bar.set_position(done);
    let ctl = control(&report);
    let values = match &args.checkpoint {
        Some(path) => {
            let every = super::pattern::checkpoint_every(&args.checkpoint_every)?;
            let (mut cp, mut start) = Checkpoint::open(path, &game, every)?;
            if start.len() as u64 > n {
                start.truncate(n as usize);
            }
            let mut save = |s: &sequence::Sequence| cp.save(s, false);
            let values = sequence::extend_saving(&rule, start, n, &ctl, &mut save)?;
            cp.save(&values, true)?;
            values
        }
        None => sequence::compute(&rule, n, &ctl)?,
    };
    bar.finish_and_clear();
    drop(announced);
    if let Some(path) = plot {
        let figure = plot::Figure::sequence(&args.game, values.iter().map(u64::from).collect());
        plot::write(&path, &figure)?;
    }
    if args.json {
        #[derive(serde::Serialize)]
        struct Doc<'a> {
            game: &'a str,
            values: Vec<u32>,
        }
        return print_json(&Doc {
            game: &game,
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
        .map(|(i, h)| parse_natural(h).map_err(|e| e.in_source(format!("heap {}", i + 1))))
        .collect::<Result<Vec<BigUint>, _>>()?;
    let small: Option<Vec<u64>> = heaps.iter().map(|h| h.to_u64()).collect();
    let engine_holds = |hs: &[u64]| {
        matches!(rule.spec(), GameSpec::Nim | GameSpec::Divide(_))
            || hs.iter().all(|&h| h <= position::MAX_HEAP)
    };
    let analysis = match small {
        Some(hs) if args.misere => PositionDocument::from(&misere_position(&rule, &hs)?),
        None if args.misere => {
            return Err(grundy::Error::limit(
                grundy::LimitKind::Fixed,
                "misère play is analysed for heaps below 2^64",
                "use smaller heaps",
            )
            .into())
        }
        Some(hs) if engine_holds(&hs) => {
            let max = hs.iter().copied().max().unwrap_or(0);
            let bar = progress(max.saturating_add(1), "computing");
            let report = |done| bar.set_position(done);
            let a = position::normal(&rule, &hs, &control(&report))?;
            bar.finish_and_clear();
            PositionDocument::from(&a)
        }
        _ => by_pattern(&rule, &heaps, &args.max)?,
    };
    if args.json {
        print_json(&analysis)
    } else {
        let mut out = stdout();
        write_text(&mut out, &analysis)?;
        out.flush()?;
        Ok(())
    }
}

/// A sum of heaps in misère play, with a note on stderr saying how it was answered: Bouton's
/// rule (Nim), the misère quotient of the heaps up to the largest one, or the direct search.
fn misere_position(rule: &HeapGame, hs: &[u64]) -> Result<PositionAnalysis, CliError> {
    let ctl = interruptible();
    if let GameSpec::Nim = rule.spec() {
        eprintln!("note: misère Nim, by Bouton's rule");
        return Ok(position::misere(rule, hs, &ctl)?);
    }
    if let Some(found) = grundy::misere::through_quotient(rule, hs, &ctl)? {
        let q = &found.quotient;
        eprintln!(
            "note: answered through the misère quotient of {} over heaps up to {} (order {})",
            q.game(),
            q.max_heap(),
            q.order()
        );
        return Ok(found.analysis);
    }
    eprintln!("note: answered by direct misère search (no misère quotient for these heaps)");
    Ok(position::misere(rule, hs, &ctl)?)
}

/// The analysis of a sum of heaps of any size, in normal play, by the library
/// ([`position::normal_by_pattern`]: Nim by `G(n) = n`, other games through the values a
/// pattern gives, computing at most `max` values), with a progress bar.
fn by_pattern(
    rule: &HeapGame,
    heaps: &[BigUint],
    max: &Option<String>,
) -> Result<PositionDocument, CliError> {
    let max = match max {
        Some(m) => Some(parse_u64(m).map_err(|e| e.in_source("--max"))?),
        None => None,
    };
    let bar = progress(
        max.unwrap_or_else(|| value::default_max(rule.spec())),
        "computing",
    );
    let report = |done| bar.set_position(done);
    let a = position::normal_by_pattern(rule, heaps, max, &control(&report))?;
    bar.finish_and_clear();
    Ok(PositionDocument::from(&a))
}

fn outcome_str(o: Outcome) -> &'static str {
    match o {
        Outcome::P => "P",
        Outcome::N => "N",
        Outcome::D => "D",
    }
}

fn write_text(out: &mut impl Write, a: &PositionDocument) -> std::io::Result<()> {
    writeln!(out, "{}", outcome_str(a.outcome))?;
    for m in &a.winning_moves {
        write!(out, "heap {}: {} ->", m.heap, m.from)?;
        for h in &m.to {
            write!(out, " {h}")?;
        }
        writeln!(out)?;
    }
    Ok(())
}
