//! `grundy analyze`: the pattern of a heap game (period, saltus, runs, self-similar rules),
//! proved where a theorem applies.

use crate::checkpoint::Checkpoint;
use crate::error::CliError;
use crate::output::{print_json, stdout};
use crate::plot;
use crate::progress::Reporter;
use crate::settings::Settings;
use clap::Args;
use grundy::heap::sequence::Sequence;
use grundy::heap::HeapGame;
use grundy::notation::number::parse_u64;
use grundy::pattern::value;
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
    #[command(flatten)]
    progress: crate::progress::ProgressArgs,
    /// Also draw G(n) against n into FILE (SVG, extension .svg): the preperiod shaded and a
    /// line where each period begins, or where each run begins for divide:D games. The window
    /// is 0 <= n < max(64, preperiod + 4 periods), or the first 10000 values without a period
    /// (never more than 10000); divide:D games show their runs up to 100000 on a logarithmic
    /// axis.
    #[arg(long, value_name = "FILE")]
    plot: Option<String>,
    #[command(flatten)]
    save: crate::checkpoint::CheckpointArgs,
}

/// The game, and `--max` (or the game's default).
pub(crate) fn game(
    game: &str,
    max: &Option<String>,
    settings: &Settings,
) -> Result<(HeapGame, u64), CliError> {
    let game = super::heap_game(game, settings)?;
    let max = match max {
        Some(m) => parse_u64(m).map_err(|e| e.in_source("--max"))?,
        None => value::default_max(game.spec()),
    };
    Ok((game, max))
}

/// Runs `grundy analyze`.
pub fn run(args: AnalyzeArgs, settings: &Settings) -> Result<(), CliError> {
    let (rule, max) = game(&args.game, &args.max, settings)?;
    let plot_path = args.plot.as_deref().map(plot::target).transpose()?;
    let bar = Reporter::new(settings, max, "computing", args.progress.lines)
        .forecasting(&rule, max, true);
    let report = |done| bar.set_position(done);
    let ctl = settings.control(&report);
    let a = match &args.save.checkpoint {
        Some(path) => {
            let every = args.save.every()?;
            let (mut cp, start) = Checkpoint::open(path, &rule.spec().to_string(), every)?;
            // The last step of the last round is saved at once.
            let mut save = |s: &Sequence| cp.save(s, s.len() as u64 >= max);
            value::analyze_saving(&rule, max, start, &ctl, &mut save)?
        }
        None => value::analyze(&rule, max, &ctl)?,
    };
    bar.finish_and_clear();
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
