//! `grundy value`: Grundy values of heaps of any size, through proved patterns.

use crate::error::CliError;
use crate::output::{json_int, print_json, stdout};
use crate::progress::Reporter;
use crate::settings::Settings;
use clap::Args;
use grundy::notation::number::parse_natural;
use grundy::pattern::value;
use serde_json::value::RawValue;
use std::io::Write;

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
    #[command(flatten)]
    progress: crate::progress::ProgressArgs,
}

/// Runs `grundy value`.
pub fn run(args: ValueArgs, settings: &Settings) -> Result<(), CliError> {
    let heaps = args
        .heaps
        .iter()
        .enumerate()
        .map(|(i, h)| parse_natural(h).map_err(|e| e.in_source(format!("N (heap {})", i + 1))))
        .collect::<Result<Vec<_>, _>>()?;
    let (rule, max) = super::analyze::game(&args.game, &args.max, settings)?;
    let bar = Reporter::new(settings, max, "computing", args.progress.lines)
        .forecasting(&rule, max, true);
    let report = |done| bar.set_position(done);
    let values = value::values(&rule, &heaps, max, &settings.control(&report))?;
    bar.finish_and_clear();
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
