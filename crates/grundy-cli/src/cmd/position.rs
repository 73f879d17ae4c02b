//! `grundy position`: the outcome and the winning moves of a sum of heaps, in normal or misère
//! play.

use crate::error::CliError;
use crate::output::{print_json, stdout};
use crate::progress;
use crate::settings::Settings;
use clap::Args;
use grundy::game::spec::GameSpec;
use grundy::heap::position::{self, PositionAnalysis, PositionDocument};
use grundy::heap::HeapGame;
use grundy::notation::number::{parse_natural, parse_u64};
use grundy::pattern::value;
use grundy::solve::Outcome;
use num_bigint::BigUint;
use num_traits::ToPrimitive;
use std::io::Write;

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

/// Runs `grundy position`.
pub fn run(args: PositionArgs, settings: &Settings) -> Result<(), CliError> {
    let rule = super::heap_game(&args.game, settings)?;
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
        Some(hs) if args.misere => PositionDocument::from(&misere_position(&rule, &hs, settings)?),
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
            let bar = progress::bar(settings, max.saturating_add(1), "computing");
            let report = |done| bar.set_position(done);
            let a = position::normal(&rule, &hs, &settings.control(&report))?;
            bar.finish_and_clear();
            PositionDocument::from(&a)
        }
        _ => by_pattern(&rule, &heaps, &args.max, settings)?,
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
fn misere_position(
    rule: &HeapGame,
    hs: &[u64],
    settings: &Settings,
) -> Result<PositionAnalysis, CliError> {
    let ctl = settings.interruptible();
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
    settings: &Settings,
) -> Result<PositionDocument, CliError> {
    let max = match max {
        Some(m) => Some(parse_u64(m).map_err(|e| e.in_source("--max"))?),
        None => None,
    };
    let bar = progress::bar(
        settings,
        max.unwrap_or_else(|| value::default_max(rule.spec())),
        "computing",
    );
    let report = |done| bar.set_position(done);
    let a = position::normal_by_pattern(rule, heaps, max, &settings.control(&report))?;
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
