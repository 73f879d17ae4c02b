//! `grundy misere`: the misère quotient of a heap game restricted to heaps up to N.

use crate::error::CliError;
use crate::output::{print_json, stdout};
use crate::progress;
use crate::settings::Settings;
use clap::Args;
use grundy::heap::HeapGame;
use grundy::misere::{self, MisereQuotient, QuotientDocument, Tameness};
use grundy::notation::game::parse_game;
use grundy::notation::number::parse_u64;
use std::io::Write;

/// The heap bound when `--max-heap` is not given.
pub const DEFAULT_MAX_HEAP: u64 = 32;

/// Arguments of `grundy misere`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  grundy misere octal:0.75 --max-heap 40\n  \
                        grundy misere nim --max-heap 3\n  \
                        grundy misere kayles --json\n\n\
                        Prints the presentation (generators: heaps whose element is new; \
                        relations), the order |Q|, the P-portion, tame or wild, the heap map \
                        (heap size: element; once a period is proved, the preperiod and one \
                        period) and whether the quotient is proved for every heap \
                        size (periodicity theorem) or holds for heaps up to N only. Every \
                        stage is certified to be the quotient (classes that a new heap splits \
                        are revised), so the answer is exact for the heaps it covers.")]
pub struct MisereArgs {
    /// The game (as for `grundy seq`), e.g. `octal:0.75`, `kayles`, `sub:1,3,4`.
    game: String,
    /// The largest heap size of the closure (decimal or 0x-hexadecimal, at most 100000).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_HEAP, value_parser = parse_max_heap)]
    max_heap: u64,
    /// Print one JSON document `{"game", "max_heap", "order", "elements", "mul", "identity",
    /// "p_portion", "heap_map", "generators", "relations", "proved", "preperiod", "period",
    /// "tame"}` instead of text; `heap_map` lists every heap up to N.
    #[arg(long)]
    json: bool,
    /// Write each step of the construction that needs more than the extension (the rounds of a
    /// recalibration: candidate, least failure, the free products tried) to stderr.
    #[arg(short, long)]
    verbose: bool,
}

/// Writes the library's log records to stderr, one line each.
struct StderrLog;

impl log::Log for StderrLog {
    fn enabled(&self, _: &log::Metadata) -> bool {
        true
    }
    fn log(&self, record: &log::Record) {
        eprintln!("{}", record.args());
    }
    fn flush(&self) {}
}

static STDERR_LOG: StderrLog = StderrLog;

/// Runs `grundy misere`.
pub fn run(args: MisereArgs, settings: &Settings) -> Result<(), CliError> {
    let spec = parse_game(&args.game).map_err(|e| e.in_source("GAME"))?;
    let mut game = HeapGame::from_spec(spec)?;
    settings.watch_game(&mut game);
    if args.verbose && log::set_logger(&STDERR_LOG).is_ok() {
        log::set_max_level(log::LevelFilter::Debug);
    }
    let bar = progress::bar(settings, args.max_heap, "adjoining heaps");
    let report = |done| bar.set_position(done);
    let q = misere::quotient(&game, args.max_heap, &settings.control(&report))?;
    bar.finish_and_clear();
    if args.json {
        return print_json(&QuotientDocument::from(&q));
    }
    let mut out = stdout();
    write_text(&mut out, &q)?;
    out.flush()?;
    Ok(())
}

fn tame_text(t: Tameness) -> String {
    match t {
        Tameness::Trivial => "trivial (no heap has a move)".into(),
        Tameness::Tame { nim_bits: 0 } => {
            "tame (Z/2: the quotient of misère Nim on 1-heaps)".into()
        }
        Tameness::Tame { nim_bits } => format!(
            "tame (the quotient of misère Nim with heaps below {})",
            1u64 << nim_bits.min(63)
        ),
        _ => "wild".into(),
    }
}

fn write_text(out: &mut impl Write, q: &MisereQuotient) -> std::io::Result<()> {
    writeln!(out, "game: {}", q.game())?;
    match q.proof() {
        Some(p) => writeln!(
            out,
            "holds for: every heap size, proved: {}",
            p.describe(q.max_heap())
        )?,
        None => writeln!(out, "holds for: heaps up to {} only", q.max_heap())?,
    }
    writeln!(out, "order: {}", q.order())?;
    writeln!(out, "{}", tame_text(q.tameness()))?;
    let gens: Vec<String> = q
        .generators()
        .iter()
        .map(|g| format!("{} = heap {}", g.name, g.heap))
        .collect();
    writeln!(out, "generators: {}", gens.join(", "))?;
    let rels: Vec<String> = q.relations().iter().map(|r| r.to_string()).collect();
    writeln!(out, "relations: {}", rels.join(", "))?;
    let p: Vec<String> = q.p_portion().iter().map(|&e| q.word(e)).collect();
    writeln!(out, "P-portion: {}", p.join(", "))?;
    writeln!(out, "elements: {}", q.elements().join(", "))?;
    writeln!(out, "heap map:")?;
    let map = q.heap_map();
    let shown = shown_heaps(q);
    for (n, e) in map.iter().enumerate().take(shown) {
        writeln!(out, "  {n}: {}", q.word(*e))?;
    }
    if let Some(p) = q.proof().filter(|_| shown < map.len()) {
        writeln!(
            out,
            "  ...: period {} from heap {}: heap n has the element of heap n - {} (--json lists \
             every heap up to {})",
            p.period,
            p.preperiod,
            p.period,
            q.max_heap()
        )?;
    }
    Ok(())
}

/// How many heaps (0, 1, ...) the text output lists: every heap up to N, or, once the heap map
/// is proved periodic with period p from heap n0, the heaps below n0 + p (the preperiod and
/// one period), which determine all the others.
fn shown_heaps(q: &MisereQuotient) -> usize {
    let all = q.heap_map().len();
    match q.proof() {
        Some(p) => {
            usize::try_from(p.preperiod.saturating_add(p.period)).map_or(all, |k| k.min(all))
        }
        None => all,
    }
}

/// Parses a `--max-heap` given in hexadecimal too (clap's default parser takes decimal only).
pub fn parse_max_heap(s: &str) -> Result<u64, String> {
    parse_u64(s).map_err(|e| e.to_string())
}
