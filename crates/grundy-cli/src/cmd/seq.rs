//! `grundy seq`: the Grundy sequence of a heap game.

use crate::checkpoint::Checkpoint;
use crate::error::CliError;
use crate::output::{print_json, stdout};
use crate::plot;
use crate::progress::Reporter;
use crate::settings::Settings;
use clap::Args;
use grundy::heap::sequence;
use grundy::notation::number::parse_u64;
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
    #[command(flatten)]
    progress: crate::progress::ProgressArgs,
    /// Also draw G(n) against n into FILE (SVG; the extension must be .svg; at most 100000
    /// values).
    #[arg(long, value_name = "FILE")]
    plot: Option<String>,
    #[command(flatten)]
    save: crate::checkpoint::CheckpointArgs,
}

/// Runs `grundy seq`.
pub fn run(args: SeqArgs, settings: &Settings) -> Result<(), CliError> {
    let n = parse_u64(&args.n).map_err(|e| e.in_source("-n"))?;
    let rule = super::heap_game(&args.game, settings)?;
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
    let bar =
        Reporter::new(settings, n, "computing", args.progress.lines).forecasting(&rule, n, false);
    let report = |done| bar.set_position(done);
    let ctl = settings.control(&report);
    let values = match &args.save.checkpoint {
        Some(path) => {
            let every = args.save.every()?;
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
