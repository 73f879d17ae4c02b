//! `grundy count GAME --heaps K --max N [--min M] [--nim-sum X] [--mod Q] [--unordered]
//! [--distribution] [--json]`: how many K-heap positions have a given nim-sum.
//!
//! The library does the work ([`grundy::count::count_from_histogram`]); this file reads the
//! arguments, gets the histogram of Grundy values over `[M, N]` and prints the answer.

use crate::error::CliError;

/// Bytes a value of the transforms of a count takes at most: the 128-bit transform and its
/// signed copy (32), two 64-bit residues (16), and one number of a distribution with its
/// heap-allocated digits (48).
const TRANSFORM_ENTRY_BYTES: u64 = 96;
use crate::output::{print_json, stdout};
use crate::progress::Reporter;
use crate::settings::Settings;
use clap::Args;
use grundy::count::histogram::{histogram_of_analysis, Histogram, Limits};
use grundy::count::{count_from_histogram_with, CountDocument, CountSpec};
use grundy::heap::HeapGame;
use grundy::notation::game::parse_game;
use grundy::notation::number::{parse_natural, parse_u128};
use grundy::pattern::value;
use num_bigint::BigUint;
use std::io::Write;

/// Arguments of `grundy count`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  grundy count nim --heaps 3 --max 7                  # 3-heap nim positions of heaps 1..7 that lose
  grundy count nim --heaps 1000000000000 --max 1000 --mod 998244353
  grundy count nim --heaps 4 --max 10 --nim-sum 5 --unordered
  grundy count nim --heaps 2 --min 0 --max 3 --distribution --json")]
pub struct CountArgs {
    /// The game, in the heap-game notation of the specification (e.g. `nim`, `sub:1-1000000`,
    /// `kayles`, `divide:2,3`).
    game: String,
    /// The number of heaps K (any size with --mod; exact counts are limited in size).
    #[arg(long, value_name = "K")]
    heaps: String,
    /// The largest heap size N.
    #[arg(long, value_name = "N")]
    max: String,
    /// The smallest heap size M.
    #[arg(long, value_name = "M", default_value = "1")]
    min: String,
    /// The nim-sum X counted (0: the positions lost by the player to move).
    #[arg(long = "nim-sum", value_name = "X", default_value = "0")]
    nim_sum: String,
    /// Count modulo Q (any positive integer) instead of exactly.
    #[arg(long = "mod", value_name = "Q")]
    modulus: Option<String>,
    /// Count multisets of heap sizes (order does not matter) instead of tuples.
    #[arg(long)]
    unordered: bool,
    /// Give the count for every nim-sum value, one `X COUNT` line each.
    #[arg(long)]
    distribution: bool,
    /// Print one JSON document: {"game", "heaps", "min", "max", "nim_sum", "modulus",
    /// "unordered", "count"} (and "distribution": [COUNT...] with --distribution). Numbers are
    /// exact JSON integers of any size.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    progress: crate::progress::ProgressArgs,
}

/// Values computed at most to find a proved pattern before counting (the analysis stops earlier
/// as soon as a period is proved).
const MAX_VALUES: u64 = 1 << 23;

/// The histogram of GAME's Grundy values over `[min, max]`: the game is analysed (a proved
/// period makes any range cheap), then the library builds the histogram.
/// Returns the game in canonical notation with it.
fn histogram_for(
    game: &str,
    min: u128,
    max: u128,
    plain: bool,
    settings: &Settings,
) -> Result<(String, Histogram), CliError> {
    let spec = parse_game(game).map_err(|e| e.in_source("GAME"))?;
    let budget = value::default_max(&spec).max(MAX_VALUES.min(max.saturating_add(1) as u64));
    let mut rule = HeapGame::from_spec(spec)?;
    // A script stops on Ctrl-C between two of its operations.
    settings.watch_game(&mut rule);
    let bar = Reporter::new(settings, budget, "analysing", plain).forecasting(&rule, budget, true);
    let report = |done| bar.set_position(done);
    let analysis = value::analyze(&rule, budget, &settings.control(&report))?;
    bar.finish_and_clear();
    let h = histogram_of_analysis(
        &rule,
        &analysis,
        min,
        max,
        &Limits::default(),
        &settings.interruptible(),
    )?;
    Ok((rule.spec().to_string(), h))
}

fn natural(arg: &str, name: &str) -> Result<BigUint, CliError> {
    Ok(parse_natural(arg).map_err(|e| e.in_source(name))?)
}

/// Runs `grundy count`.
pub fn run(args: CountArgs, settings: &Settings) -> Result<(), CliError> {
    let heaps = natural(&args.heaps, "--heaps")?;
    let max = parse_u128(&args.max).map_err(|e| e.in_source("--max"))?;
    let min = parse_u128(&args.min).map_err(|e| e.in_source("--min"))?;
    let nim_sum = natural(&args.nim_sum, "--nim-sum")?;
    let modulus = match &args.modulus {
        Some(q) => {
            let q = natural(q, "--mod")?;
            if q == BigUint::default() {
                return Err(CliError::usage(
                    "--mod: expected a positive modulus, found 0",
                ));
            }
            Some(q)
        }
        None => None,
    };
    if max == u128::MAX {
        return Err(CliError::usage(
            "--max: expected a heap size below 2^128 - 1 (the range must have a size below 2^128)",
        ));
    }
    if min > max {
        return Err(CliError::usage(format!(
            "--min {min} is above --max {max}: expected M <= N"
        )));
    }
    let (game, h) = histogram_for(&args.game, min, max, args.progress.lines, settings)?;
    let spec = CountSpec::new(heaps, nim_sum)
        .with_modulus(modulus)
        .with_unordered(args.unordered)
        .with_distribution(args.distribution);
    // Ctrl-C stops the transforms, which are held from the memory budget while they are
    // computed.
    let ctl = settings.interruptible();
    let _tables = ctl.reserve(
        (h.transform_len() as u64).saturating_mul(TRANSFORM_ENTRY_BYTES),
        "the count's transforms",
    )?;
    let answer = count_from_histogram_with(&h, &spec, &ctl)?;
    if args.json {
        return print_json(&CountDocument::new(game, min, max, &spec, &answer));
    }
    let mut out = stdout();
    match &answer.distribution {
        Some(d) => {
            for (x, c) in d.iter().enumerate() {
                writeln!(out, "{x} {c}")?;
            }
        }
        None => writeln!(out, "{}", answer.count)?,
    }
    out.flush()?;
    Ok(())
}
