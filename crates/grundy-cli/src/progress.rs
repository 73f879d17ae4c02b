//! Progress of long work on stderr: bars and spinners drawn only on a terminal, plain lines
//! for logs (`--progress`), and the forecast of long work's CPU time.

use crate::settings::Settings;
use grundy::game::spec::GameSpec;
use grundy::heap::sequence;
use grundy::heap::HeapGame;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A progress bar on stderr for `total` steps, hidden unless stderr is a terminal.
pub fn bar(settings: &Settings, total: u64, message: &'static str) -> indicatif::ProgressBar {
    if !settings.draws_progress() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(total);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{msg} [{elapsed_precise}] {wide_bar} {pos}/{len} ({per_sec}, eta {eta})",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar.set_message(message);
    bar
}

/// A spinner on stderr for work whose length is unknown (a discrete logarithm, building a field),
/// hidden unless stderr is a terminal. Call `finish_and_clear` when done.
pub fn spinner(settings: &Settings, message: &'static str) -> indicatif::ProgressBar {
    styled_spinner(settings, message, "{spinner} {msg} [{elapsed_precise}]")
}

/// A spinner on stderr drawn with `template`, hidden unless stderr is a terminal.
fn styled_spinner(
    settings: &Settings,
    message: &'static str,
    template: &str,
) -> indicatif::ProgressBar {
    if !settings.draws_progress() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_style(
        indicatif::ProgressStyle::with_template(template)
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
    );
    bar.set_message(message);
    bar.enable_steady_tick(Duration::from_millis(100));
    bar
}

/// The `--progress` flag of the commands that compute heap values.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct ProgressArgs {
    /// Print a plain progress line to stderr every 2 seconds (for logs and pipes: the
    /// progress bar is drawn only when stderr is a terminal). Work still running after 2 s and
    /// estimated above 5 s of CPU time is announced on stderr either way, with the estimate
    /// (from its progress so far; an analysis may stop early, so its estimate is a bound).
    #[arg(long = "progress")]
    pub lines: bool,
}

/// Progress of long work on stderr: the [`bar`] on a terminal, and with `plain` (the
/// `--progress` flag) a plain line every few seconds when stderr is not a terminal, for logs
/// and pipes; and the forecast of [`Reporter::forecasting`], fed by the same progress.
pub struct Reporter {
    bar: indicatif::ProgressBar,
    plain: Option<Plain>,
    forecast: Option<Mutex<Forecast>>,
}

/// How far work goes: a number of steps, or a count in some unit with no end known
/// ([`Reporter::counting`]).
#[derive(Clone, Copy)]
enum Extent {
    Steps(u64),
    Count(&'static str),
}

impl Plain {
    /// Plain lines about work of `extent` when `plain` asks for them and stderr is not a
    /// terminal (where a bar or spinner is drawn instead).
    fn when(
        settings: &Settings,
        plain: bool,
        message: &'static str,
        extent: Extent,
    ) -> Option<Plain> {
        let now = Instant::now();
        (plain && !settings.draws_progress()).then(|| Plain {
            message,
            extent,
            start: now,
            last: Mutex::new(now),
        })
    }
}

struct Plain {
    message: &'static str,
    extent: Extent,
    start: Instant,
    last: Mutex<Instant>,
}

/// How often [`Reporter`] writes a plain progress line.
const PLAIN_EVERY: Duration = Duration::from_secs(2);

impl Reporter {
    /// A reporter for `total` steps named `message`; plain lines only with `plain` and when
    /// stderr is not a terminal (where the bar is drawn instead).
    pub fn new(settings: &Settings, total: u64, message: &'static str, plain: bool) -> Reporter {
        Reporter {
            bar: bar(settings, total, message),
            forecast: None,
            plain: Plain::when(settings, plain, message, Extent::Steps(total)),
        }
    }

    /// A reporter for work whose end is not known beforehand (a search), counted in `unit`
    /// (e.g. "positions searched"): a spinner with the count and the time elapsed on a
    /// terminal; with `plain` (the `--progress` flag), a plain line every few seconds when
    /// stderr is not a terminal.
    pub fn counting(
        settings: &Settings,
        message: &'static str,
        unit: &'static str,
        plain: bool,
    ) -> Reporter {
        let template = format!("{{spinner}} {{msg}}: {{human_pos}} {unit} [{{elapsed_precise}}]");
        Reporter {
            bar: styled_spinner(settings, message, &template),
            forecast: None,
            plain: Plain::when(settings, plain, message, Extent::Count(unit)),
        }
    }

    /// Records that `done` steps are done (and feeds the forecast of
    /// [`Reporter::forecasting`]).
    pub fn set_position(&self, done: u64) {
        self.bar.set_position(done);
        if let Some(f) = &self.forecast {
            if let Ok(mut f) = f.try_lock() {
                f.feed(done);
            }
        }
        if let Some(p) = &self.plain {
            let Ok(mut last) = p.last.lock() else { return };
            if last.elapsed() >= PLAIN_EVERY {
                *last = Instant::now();
                let elapsed = p.start.elapsed().as_secs();
                match p.extent {
                    Extent::Steps(total) => {
                        let percent = done as f64 * 100.0 / total.max(1) as f64;
                        eprintln!(
                            "grundy: {}: {done} of {total} ({percent:.0}%), {elapsed} s elapsed",
                            p.message
                        );
                    }
                    Extent::Count(unit) => {
                        eprintln!("grundy: {}: {done} {unit}, {elapsed} s elapsed", p.message)
                    }
                }
            }
        }
    }

    /// Clears the bar; a plain reporter says it is done.
    pub fn finish_and_clear(&self) {
        self.bar.finish_and_clear();
        if let Some(p) = &self.plain {
            eprintln!(
                "grundy: {}: done in {:.1} s",
                p.message,
                p.start.elapsed().as_secs_f64()
            );
        }
    }
}

/// Work whose total is estimated above this many seconds of CPU time is announced by
/// [`Reporter::forecasting`].
const ANNOUNCE_ABOVE: f64 = 5.0;

/// When [`Reporter::forecasting`] takes its first measure of the work's progress.
const FIRST_SAMPLE: Duration = Duration::from_secs(1);

/// When [`Reporter::forecasting`] takes its second measure and says its estimate, if the work
/// still runs.
const DEFER: Duration = Duration::from_secs(2);

impl Reporter {
    /// Announces long work on stderr with an estimate of its CPU time, e.g. "computing 10^8 values:
    /// about 90 s of CPU time more". Nothing is computed for the estimate: it is read from the
    /// work's own progress ([`Reporter::set_position`]) and the process's CPU time, which other
    /// programs on the machine do not inflate. After [`FIRST_SAMPLE`] the values done `d1` and the
    /// CPU time `c1` are noted, after [`DEFER`] again `d2`, `c2`; the engine's cost grows as `n^e`
    /// in the number of values, so the whole run costs `c2·(N/d2)^e`. The exponent is 2 for
    /// hexadecimal codes (each value of a game leaving three heaps scans all earlier pairs),
    /// otherwise measured from the two samples, `ln(c2/c1) / ln(d2/d1)`, clamped to [1, 2] (the
    /// engines cost between a constant and a scan of the earlier values a value), and 1 when the
    /// first sample is too short to time. The estimate is said once, and only when the whole run
    /// is estimated above [`ANNOUNCE_ABOVE`]; work that ends within [`DEFER`] says nothing. Nim and
    /// divide games need no sequence.
    ///
    /// `at_most` says the work may stop early (an analysis ends once a period is proved): the
    /// estimate is then an upper bound, and said so. The forecast ends with the reporter.
    pub fn forecasting(mut self, game: &HeapGame, n: u64, at_most: bool) -> Reporter {
        let hexadecimal = matches!(game.spec(), GameSpec::TakeBreak(c) if c.is_hexadecimal());
        // A length beyond the engines' limits is refused by the computation itself, at once.
        if matches!(game.spec(), GameSpec::Nim | GameSpec::Divide(_))
            || n > sequence::MAX_LEN
            || (hexadecimal && n > sequence::MAX_LEN_THREE_HEAPS)
        {
            return self;
        }
        let Some(cpu) = cpu_seconds() else {
            return self;
        };
        self.forecast = Some(Mutex::new(Forecast {
            n,
            at_most,
            exponent: hexadecimal.then_some(2.0),
            start: Instant::now(),
            cpu,
            first: None,
            said: false,
        }));
        self
    }
}

/// The work a [`Reporter`] forecasts, fed by [`Reporter::set_position`].
struct Forecast {
    n: u64,
    at_most: bool,
    /// The cost exponent when the engine's cost model fixes it.
    exponent: Option<f64>,
    start: Instant,
    /// The process's CPU time when the work started.
    cpu: f64,
    /// Values done and CPU seconds spent at [`FIRST_SAMPLE`].
    first: Option<(u64, f64)>,
    said: bool,
}

impl Forecast {
    /// The estimated CPU seconds of the whole run, from `done` values in `used` seconds.
    fn total(&self, done: u64, used: f64) -> Option<f64> {
        let (d1, c1) = self.first?;
        if done <= d1 || done >= self.n {
            return None;
        }
        let exponent = match self.exponent {
            Some(e) => e,
            None if c1 >= 0.1 && used > c1 => {
                ((used / c1).ln() / (done as f64 / d1 as f64).ln()).clamp(1.0, 2.0)
            }
            None => 1.0,
        };
        Some(used * (self.n as f64 / done as f64).powf(exponent))
    }

    /// Feeds the forecast with `done` values computed; says it once, at [`DEFER`].
    fn feed(&mut self, done: u64) {
        let f = self;
        if f.said {
            return;
        }
        let elapsed = f.start.elapsed();
        if elapsed < FIRST_SAMPLE {
            return;
        }
        let Some(used) = cpu_seconds().map(|c| c - f.cpu) else {
            return;
        };
        if f.first.is_none() {
            if done > 0 {
                f.first = Some((done, used));
            }
            return;
        }
        if elapsed < DEFER {
            return;
        }
        f.said = true;
        let Some(total) = f.total(done, used).filter(|&t| t > ANNOUNCE_ABOVE) else {
            return;
        };
        let (n, more) = (f.n, (total - used).max(1.0).round());
        if f.at_most {
            eprintln!(
            "grundy: still computing: up to {n} values, about {more} s of CPU time more at most \
             (the search stops once a period is proved)"
        );
        } else {
            eprintln!(
                "grundy: computing {n} values: about {more} s of CPU time more ({done} done in \
             {used:.1} s)"
            );
        }
    }
}

/// The CPU time of this process so far (every thread, user and system), in seconds, from
/// `/proc/self/stat` (fields 14 and 15, in clock ticks of 1/100 s); `None` where it cannot be
/// read.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) is in parentheses and may hold spaces: count from after it.
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i)?.parse::<u64>().ok();
    // Field 3 (the state) is the first after the parenthesis: fields 14 and 15 are at 11, 12.
    Some((ticks(11)? + ticks(12)?) as f64 / 100.0)
}
