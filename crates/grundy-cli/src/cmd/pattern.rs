//! `grundy analyze` and `grundy value`: patterns of heap games, with proofs, and values of huge
//! heaps.

use crate::checkpoint::Checkpoint;
use crate::error::CliError;
use crate::output::{announce, control, json_int, print_json, stdout, Reporter};
use crate::plot;
use clap::Args;
use grundy::heap::sequence::Sequence;
use grundy::heap::HeapGame;
use grundy::notation::game::parse_game;
use grundy::notation::number::{parse_natural, parse_u64};
use grundy::pattern::value;
use serde_json::value::RawValue;
use std::io::Write;

/// Arguments of `grundy analyze`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  grundy analyze dawsons-kayles\n  \
                        period 34, preperiod 53 (proved)\n  \
                        grundy analyze octal:0.16 --max 1000000 --json\n  \
                        grundy analyze divide:2,3,4,5,6\n  \
                        grundy analyze dawsons-kayles --plot dk.svg   # preperiod shaded, \
                        period lines\n\n\
                        Periods of subtraction games (finite sets) and take-and-break codes are \
                        proved from finitely many values by the subtraction-game and Guy-Smith \
                        theorems; divide:D games get a proved self-similar rule \
                        G(n) = G(floor(n/r)) from their run engine. Other regularities are \
                        reported as apparent (proved: false).")]
pub struct AnalyzeArgs {
    /// The game (as for `grundy seq`), e.g. `kayles`, `octal:0.137`, `sub:1,3,4`.
    game: String,
    /// Compute at most N values (decimal or 0x-hexadecimal) while looking for a proof
    /// [default: 1000000; 10000 for codes leaving three heaps; 100000 for squares and scripts;
    /// for a finite subtraction set S of largest element t, the (|S|+1)^t + t values that
    /// surely prove its period, at most 2^26].
    #[arg(long, value_name = "N")]
    max: Option<String>,
    /// Print one JSON document `{"game", "computed", "period", "preperiod", "saltus",
    /// "proved", "pattern"}` instead of text.
    #[arg(long)]
    json: bool,
    /// Print a plain progress line to stderr every 2 seconds (for logs and pipes: the
    /// progress bar is drawn only when stderr is a terminal). Work still running after 2 s and
    /// estimated above 5 s of CPU time is announced on stderr either way, with the estimate
    /// (from its progress so far; an analysis may stop early, so its estimate is a bound).
    #[arg(long)]
    progress: bool,
    /// Also draw G(n) against n into FILE (SVG, extension .svg): the preperiod shaded and a
    /// line where each period begins, or where each run begins for divide:D games. The window
    /// is 0 <= n < max(64, preperiod + 4 periods), or the first 10000 values without a period
    /// (never more than 10000); divide:D games show their runs up to 100000 on a logarithmic
    /// axis.
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

/// Arguments of `grundy value`.
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  grundy value divide:2,3,4,5,6 1000000000000000000\n  \
                        3\n  grundy value kayles 1000000000000000000000000 5\n  \
                        grundy value grundys-game 100 --json\n\n\
                        Heaps below --max are computed directly; larger ones are answered \
                        through a proved period or self-similar rule. When none is proved and a \
                        heap is beyond what was computed, the exit status is 3."
)]
pub struct ValueArgs {
    /// The game (as for `grundy seq`).
    game: String,
    /// Heap sizes, any size (decimal or 0x-hexadecimal).
    #[arg(required = true, value_name = "N")]
    heaps: Vec<String>,
    /// Compute at most N values directly or while looking for a proof [default: as for
    /// `grundy analyze`].
    #[arg(long, value_name = "N")]
    max: Option<String>,
    /// Print one JSON document `{"game", "heaps", "values"}` instead of text.
    #[arg(long)]
    json: bool,
    /// Print a plain progress line to stderr every 2 seconds (for logs and pipes: the
    /// progress bar is drawn only when stderr is a terminal). Work still running after 2 s and
    /// estimated above 5 s of CPU time is announced on stderr either way, with the estimate
    /// (from its progress so far; an analysis may stop early, so its estimate is a bound).
    #[arg(long)]
    progress: bool,
}

/// The game, and `--max` (or the game's default).
fn game(game: &str, max: &Option<String>) -> Result<(HeapGame, u64), CliError> {
    let spec = parse_game(game).map_err(|e| e.in_source("GAME"))?;
    let max = match max {
        Some(m) => parse_u64(m).map_err(|e| e.in_source("--max"))?,
        None => value::default_max(&spec),
    };
    let mut game = HeapGame::from_spec(spec)?;
    // A script stops on Ctrl-C between two of its operations.
    crate::output::watch_game(&mut game);
    Ok((game, max))
}

/// The interval of `--checkpoint-every` (60 s by default).
pub fn checkpoint_every(every: &Option<String>) -> Result<std::time::Duration, CliError> {
    let secs = match every {
        Some(s) => parse_u64(s).map_err(|e| e.in_source("--checkpoint-every"))?,
        None => 60,
    };
    Ok(std::time::Duration::from_secs(secs))
}

/// Runs `grundy analyze`.
pub fn analyze(args: AnalyzeArgs) -> Result<(), CliError> {
    let (rule, max) = game(&args.game, &args.max)?;
    let plot_path = args.plot.as_deref().map(plot::target).transpose()?;
    let announced = announce(&rule, max, true);
    let bar = Reporter::new(max, "computing", args.progress);
    let report = |done| bar.set_position(done);
    let ctl = control(&report);
    let a = match &args.checkpoint {
        Some(path) => {
            let every = checkpoint_every(&args.checkpoint_every)?;
            let (mut cp, start) = Checkpoint::open(path, &rule.spec().to_string(), every)?;
            // The last step of the last round is saved at once.
            let mut save = |s: &Sequence| cp.save(s, s.len() as u64 >= max);
            value::analyze_saving(&rule, max, start, &ctl, &mut save)?
        }
        None => value::analyze(&rule, max, &ctl)?,
    };
    bar.finish_and_clear();
    drop(announced);
    if let Some(path) = plot_path {
        plot::write(&path, &plot::Figure::analysis(&a))?;
    }
    let period = a.period;
    if args.json {
        return print_json(&a);
    }
    let mut out = stdout();
    writeln!(out, "game: {}", a.game)?;
    match a.run_count() {
        Some(r) => writeln!(
            out,
            "computed: every heap below {} ({r} runs of equal values)",
            a.computed
        )?,
        None => writeln!(out, "computed: {} values", a.computed)?,
    }
    match period {
        Some(p) => {
            write!(out, "period {}, preperiod {}", p.period, p.preperiod)?;
            if p.saltus != 0 {
                write!(out, ", saltus {}", p.saltus)?;
            }
            writeln!(out, " ({})", if a.proved { "proved" } else { "not proved" })?;
        }
        None => writeln!(out, "period: none found")?,
    }
    if let Some(proof) = &a.proof {
        let (lo, hi) = proof.check;
        writeln!(out, "proof: {}", proof.theorem.statement())?;
        writeln!(
            out,
            "checked: G(n+{}) = G(n) for {lo} <= n < {hi}",
            proof.applied.period
        )?;
    }
    writeln!(out, "pattern: {}", a.pattern_beside_proof())?;
    out.flush()?;
    Ok(())
}

/// Runs `grundy value`.
pub fn value(args: ValueArgs) -> Result<(), CliError> {
    let heaps = args
        .heaps
        .iter()
        .enumerate()
        .map(|(i, h)| parse_natural(h).map_err(|e| e.in_source(format!("N (heap {})", i + 1))))
        .collect::<Result<Vec<_>, _>>()?;
    let (rule, max) = game(&args.game, &args.max)?;
    let announced = announce(&rule, max, true);
    let bar = Reporter::new(max, "computing", args.progress);
    let report = |done| bar.set_position(done);
    let values = value::values(&rule, &heaps, max, &control(&report))?;
    bar.finish_and_clear();
    drop(announced);
    if args.json {
        // Heaps and values may exceed every fixed-width type: exact JSON integers of any size.
        #[derive(serde::Serialize)]
        struct Doc<'a> {
            game: &'a str,
            heaps: Vec<Box<RawValue>>,
            values: Vec<Box<RawValue>>,
        }
        return print_json(&Doc {
            game: &rule.spec().to_string(),
            heaps: heaps.iter().map(json_int).collect(),
            values: values.iter().map(json_int).collect(),
        });
    }
    let mut out = stdout();
    for v in values {
        writeln!(out, "{v}")?;
    }
    out.flush()?;
    Ok(())
}
