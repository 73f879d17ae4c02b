//! `grundy ordinal nim-mul | nim-inv | nim-pow | excess`: the nim product of ordinals below
//! ω^(ω^ω), the algebraic closure of GF(2), and the excesses behind it.

use super::ordinal::{ordinals, print_ordinal};
use crate::error::CliError;
use crate::output::{json_int, json_value, print_op};
use crate::progress::spinner;
use crate::settings::Settings;
use clap::Args;
use grundy::file::write_atomically;
use grundy::nimber::NimBig;
use grundy::notation::number::parse_natural;
use grundy::notation::ordinal::{load_excess_cache, parse_ordinal};
use grundy::ordinal::excess::MAX_EXCESS_PRIME;
use grundy::ordinal::nim_mul::{odd_prime_index, ClosureField, DEFAULT_MAX_DEGREE};
use grundy::ordinal::Ordinal;
use grundy::Error;
use num_traits::ToPrimitive;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Where the excesses computed are kept between runs.
#[derive(Args, Debug, Clone)]
pub struct CacheArgs {
    /// The excess cache file (default `$XDG_CACHE_HOME/grundy/excess.tsv`, else
    /// `~/.cache/grundy/excess.tsv`). Only a speed-up: results never depend on it. Only the
    /// commands nim-mul, nim-inv, nim-pow and excess read it; `excess` writes the excesses it
    /// computes, the others only excesses that took 0.1 s or more (a FILE given here is
    /// always kept up to date). No other grundy command touches it.
    #[arg(long, value_name = "FILE")]
    pub cache: Option<PathBuf>,
    /// Neither read nor write the excess cache.
    #[arg(long)]
    pub no_cache: bool,
    /// The largest degree over GF(2) of a finite field flattened by Gaussian elimination while
    /// building the fields for powers and inverses (memory grows as its square: 12000 takes
    /// about 60 MB). The top field of a tower is never flattened, and excesses are tested in
    /// towers that are never flattened at all (up to degree 2^28, memory linear in it).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_DEGREE)]
    pub max_degree: usize,
}

/// `nim-mul A B...`.
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  grundy ordinal nim-mul w w        # w^2\n  \
    grundy ordinal nim-mul w w^2      # 2, since w^3 = 2\n  grundy ordinal nim-mul w^w 'w^(w^2)' 3"
)]
pub struct NimMulArgs {
    /// Ordinals below w^(w^w) in Cantor normal form, e.g. `w^(w^2*3+1)*2+w+7`.
    #[arg(required = true, value_name = "A")]
    pub values: Vec<String>,
    /// Print one JSON document {"op", "args", "result"} instead of text.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub cache: CacheArgs,
}

/// `nim-inv A`.
#[derive(Args, Debug)]
#[command(
    after_help = "Example:\n  grundy ordinal nim-inv w   # w^2*3, as w ⊗ w^2 = 2 and 2 ⊗ 3 = 1"
)]
pub struct NimInvArgs {
    /// A nonzero ordinal below w^(w^w).
    #[arg(value_name = "A")]
    pub value: String,
    /// Print one JSON document {"op", "args", "result"} instead of text.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub cache: CacheArgs,
}

/// `nim-pow A E`.
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  grundy ordinal nim-pow w 3              # 2\n  \
    grundy ordinal nim-pow 'w^(w^2)' 7      # w+1, the excess of 7"
)]
pub struct NimPowArgs {
    /// An ordinal below w^(w^w).
    #[arg(value_name = "A")]
    pub value: String,
    /// A natural number exponent (A^0 = 1).
    #[arg(value_name = "E")]
    pub exponent: String,
    /// Print one JSON document {"op", "args", "result"} instead of text.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub cache: CacheArgs,
}

/// `excess P`.
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  grundy ordinal excess 19              # 4: alpha_19 = w^3+4\n  \
    grundy ordinal excess 47 --verbose    # 1, with alpha_47 = w^(w^7)+1 and timings on stderr\n  \
    grundy ordinal excess 47 --check      # 1, confirmed by the second route"
)]
pub struct ExcessArgs {
    /// An odd prime.
    #[arg(value_name = "P")]
    pub prime: String,
    /// Print, on stderr, each excess computed: f(p), alpha_p, the field degree and the time.
    #[arg(long, short)]
    pub verbose: bool,
    /// Check the answer by a second route: every candidate up to alpha_p tested again with the
    /// power taken before the norm, N(x^((2^f-1)/p)); exit status 1 if the routes disagree.
    #[arg(long)]
    pub check: bool,
    /// Print one JSON document {"op", "args", "result"} instead of text.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub cache: CacheArgs,
}

fn cache_path(args: &CacheArgs) -> Option<PathBuf> {
    if args.no_cache {
        return None;
    }
    if let Some(p) = &args.cache {
        return Some(p.clone());
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|s| !s.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
    Some(base.join("grundy").join("excess.tsv"))
}

/// The largest excess cache read: far above what any field the command builds writes (a line
/// an excess, each well under 1 KiB), and small enough that a device or a huge file given as
/// the cache is refused before it costs memory.
const MAX_CACHE_BYTES: u64 = 64 << 20;

/// The field, with the cached excesses read in (an unreadable cache is ignored).
fn open_field(args: &CacheArgs, settings: &Settings) -> ClosureField<NimBig> {
    let mut field = ClosureField::new();
    field.max_degree = args.max_degree;
    // Excess searches started inside products and powers stop on Ctrl-C too.
    field.watch(&settings.interruptible());
    if let Some(path) = cache_path(args) {
        let text = match std::fs::File::open(&path) {
            Ok(file) => match crate::files::read_text(file, MAX_CACHE_BYTES, settings) {
                Ok(bytes) => Some(valid_lines(&bytes, &path)),
                Err(_) => {
                    eprintln!(
                        "grundy: warning: the excess cache {} is not a cache file (larger than \
                         {} MiB, not text, or unreadable); it is ignored",
                        path.display(),
                        MAX_CACHE_BYTES >> 20
                    );
                    None
                }
            },
            Err(_) => None,
        };
        if let Some(text) = text {
            let load = load_excess_cache(&mut field, &text);
            if load.rejected > 0 {
                eprintln!(
                    "grundy: warning: the excess cache {} has {} damaged or inconsistent \
                     line(s); they are ignored and computed again",
                    path.display(),
                    load.rejected
                );
            }
        }
    }
    field
}

/// The lines of `bytes` that are UTF-8 text, with a warning naming the file when some are not
/// (they are left out; the rest of the cache is used).
fn valid_lines(bytes: &[u8], path: &std::path::Path) -> String {
    let mut text = String::with_capacity(bytes.len());
    let mut bad = 0usize;
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        match std::str::from_utf8(line) {
            Ok(l) => text.push_str(l),
            Err(_) => bad += 1,
        }
    }
    if bad > 0 {
        eprintln!(
            "grundy: warning: the excess cache {} has {bad} line(s) that are not UTF-8 text; \
             they are ignored",
            path.display()
        );
    }
    text
}

/// New excesses that took less than this in all are not written to the default cache: they
/// cost less to compute again than a file costs to keep, so plain arithmetic (`nim-mul w w^2`
/// needs only the excess of 3, found in microseconds) leaves the cache alone.
const WORTH_CACHING: Duration = Duration::from_millis(100);

/// Writes the excesses back if new ones were computed; a failure is only a warning. The default
/// cache is written by `excess` (which asks for an excess), and by the other commands only when
/// the excesses they computed took [`WORTH_CACHING`] or more; a `--cache FILE` given is always
/// kept up to date.
fn save_field(args: &CacheArgs, field: &ClosureField<NimBig>, known_before: &[u64], always: bool) {
    let new: Vec<_> = field
        .known_excesses()
        .filter(|e| !known_before.contains(&e.p))
        .collect();
    let spent: Duration = new.iter().filter_map(|e| e.time).sum();
    if new.is_empty() || !(always || args.cache.is_some() || spent >= WORTH_CACHING) {
        return;
    }
    let Some(path) = cache_path(args) else { return };
    // The default cache directory is created when missing; the directory of a path given with
    // --cache must exist.
    let parent = path.parent().filter(|d| !d.as_os_str().is_empty());
    let result = match parent {
        Some(dir) if args.cache.is_none() => std::fs::create_dir_all(dir),
        _ => Ok(()),
    }
    .and_then(|_| write_atomically(&path, field.excesses_to_tsv().as_bytes()));
    if let Err(e) = result {
        eprintln!(
            "grundy: warning: could not write the excess cache {}: {e}",
            path.display()
        );
    }
}

fn parse_arg(s: &str, i: usize) -> Result<Ordinal, CliError> {
    Ok(parse_ordinal(s).map_err(|e| e.in_source(format!("argument {i}")))?)
}

/// Runs `f` on a field read from the cache, saving new excesses afterwards (see
/// [`save_field`]; `always` for the command that asks for an excess).
fn with_field<T>(
    args: &CacheArgs,
    always: bool,
    settings: &Settings,
    f: impl FnOnce(&mut ClosureField<NimBig>) -> Result<T, CliError>,
) -> Result<T, CliError> {
    let mut field = open_field(args, settings);
    let before: Vec<u64> = field.known_excesses().map(|e| e.p).collect();
    let bar = spinner(settings, "computing in the field");
    let r = f(&mut field);
    bar.finish_and_clear();
    save_field(args, &field, &before, always);
    r
}

/// `grundy ordinal nim-mul`.
pub fn nim_mul(args: NimMulArgs, settings: &Settings) -> Result<(), CliError> {
    let xs: Vec<Ordinal> = args
        .values
        .iter()
        .enumerate()
        .map(|(i, s)| parse_arg(s, i + 1))
        .collect::<Result<_, _>>()?;
    let product = with_field(&args.cache, false, settings, |field| {
        let mut acc = Ordinal::one();
        for x in &xs {
            acc = field.mul_ordinals(&acc, x)?;
        }
        Ok(acc)
    })?;
    print_ordinal(args.json, "nim-mul", ordinals(&xs), &product)
}

/// `grundy ordinal nim-inv`.
pub fn nim_inv(args: NimInvArgs, settings: &Settings) -> Result<(), CliError> {
    let x = parse_arg(&args.value, 1)?;
    if x.is_zero() {
        return Err(CliError::usage("A: 0 has no nim inverse"));
    }
    let inv = with_field(&args.cache, false, settings, |field| {
        Ok(field.inv_ordinal(&x)?)
    })?;
    print_ordinal(args.json, "nim-inv", ordinals(&[x]), &inv)
}

/// `grundy ordinal nim-pow`.
pub fn nim_pow(args: NimPowArgs, settings: &Settings) -> Result<(), CliError> {
    let x = parse_arg(&args.value, 1)?;
    let e = parse_natural(&args.exponent).map_err(|e| e.in_source("argument 2 (E)"))?;
    let y = with_field(&args.cache, false, settings, |field| {
        Ok(field.pow_ordinal(&x, &e)?)
    })?;
    let operands = vec![json_value(&x.to_string()), json_int(&e)];
    print_ordinal(args.json, "nim-pow", operands, &y)
}

/// `grundy ordinal excess`.
pub fn excess(args: ExcessArgs, settings: &Settings) -> Result<(), CliError> {
    let n = parse_natural(&args.prime).map_err(|e| e.in_source("argument P"))?;
    let p = match n.to_u64() {
        Some(p) if p > MAX_EXCESS_PRIME => p,
        Some(p) if odd_prime_index(p).is_some() => p,
        _ => return Err(Error::invalid(format!("argument P: {n} is not an odd prime")).into()),
    };
    let verbose = args.verbose;
    // Printed once the spinner is gone.
    let mut notes = Vec::new();
    let m = with_field(&args.cache, true, settings, |field| {
        let known: Vec<u64> = field.known_excesses().map(|e| e.p).collect();
        let start = Instant::now();
        let ctl = settings.interruptible();
        let e = field.excess_with(p, &ctl)?;
        if args.check {
            let start = Instant::now();
            if !field.check_excess(&e, &ctl)? {
                return Err(Error::Internal(format!(
                    "the second route disagrees with m_{p} = {}",
                    e.m
                ))
                .into());
            }
            notes.push(format!(
                "m_{p} = {} checked by the second route (power before norm) in {:.3} s",
                e.m,
                start.elapsed().as_secs_f64()
            ));
        }
        if verbose {
            for x in field.known_excesses() {
                let how = match x.time {
                    Some(t) if !known.contains(&x.p) => {
                        format!("computed in {:.3} s", t.as_secs_f64())
                    }
                    _ => "from the cache".to_string(),
                };
                notes.push(format!(
                    "p = {}: m_p = {}, f(p) = {}, alpha_p = {}, field degree {}, {how}",
                    x.p, x.m, x.f, x.alpha, x.field_degree
                ));
            }
            notes.push(format!(
                "excess of {p}: {:.3} s in all",
                start.elapsed().as_secs_f64()
            ));
        }
        Ok(e.m)
    })?;
    for note in notes {
        eprintln!("{note}");
    }
    print_op(args.json, "excess", vec![json_int(&p)], json_int(&m), &m)
}
