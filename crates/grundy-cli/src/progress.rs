//! Progress of long work on stderr: bars and spinners drawn only on a terminal, plain lines
//! for logs (`--progress`), and the forecast of long work's CPU time.

use crate::settings::Settings;
use grundy::game::spec::GameSpec;
use grundy::heap::sequence;
use grundy::heap::HeapGame;
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
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
    /// What the work is called (the spinner's message before any note).
    message: &'static str,
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
        (plain && !settings.draws_progress())
            .then(|| Plain::start(message, extent, PLAIN_EVERY, std::io::stderr()))
    }

    /// Starts the thread that writes a line to `out` every `every`, with the count last
    /// recorded: a line comes on time even while the work reports nothing (a search reading
    /// a cold store, a step longer than `every`), so a log shows that the work is alive.
    fn start(
        message: &'static str,
        extent: Extent,
        every: Duration,
        mut out: impl Write + Send + 'static,
    ) -> Plain {
        let start = Instant::now();
        let done = Arc::new(AtomicU64::new(0));
        let note = Arc::new(Mutex::new(String::new()));
        let (stop, stopped) = mpsc::channel::<()>();
        let count = Arc::clone(&done);
        let noted = Arc::clone(&note);
        let ticker = std::thread::Builder::new()
            .name("grundy-progress".into())
            .spawn(move || {
                while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(every) {
                    let done = count.load(Relaxed);
                    let elapsed = start.elapsed().as_secs();
                    let note = match noted.lock() {
                        Ok(n) if !n.is_empty() => format!("; {n}"),
                        _ => String::new(),
                    };
                    let _ = match extent {
                        Extent::Steps(total) => {
                            let percent = done as f64 * 100.0 / total.max(1) as f64;
                            writeln!(
                                out,
                                "grundy: {message}: {done} of {total} ({percent:.0}%), {elapsed} s elapsed{note}"
                            )
                        }
                        Extent::Count(unit) => {
                            writeln!(out, "grundy: {message}: {done} {unit}, {elapsed} s elapsed{note}")
                        }
                    };
                }
                Box::new(out) as Box<dyn Write + Send>
            })
            .ok();
        Plain {
            message,
            start,
            done,
            note,
            stop: Mutex::new(Some(stop)),
            ticker: Mutex::new(ticker),
        }
    }

    /// Stops the lines; the writer, to say the work is done (`None` if the thread could not
    /// be started or was lost).
    fn stop(&self) -> Option<Box<dyn Write + Send>> {
        self.stop.lock().ok()?.take();
        let ticker = self.ticker.lock().ok()?.take()?;
        ticker.join().ok()
    }
}

impl Drop for Plain {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The plain lines of a [`Reporter`]: a thread writes one every [`PLAIN_EVERY`].
struct Plain {
    message: &'static str,
    start: Instant,
    /// The count last recorded.
    done: Arc<AtomicU64>,
    /// Where the work stands in words (empty: nothing said), written after the count.
    note: Arc<Mutex<String>>,
    /// Dropped to stop the thread.
    stop: Mutex<Option<mpsc::Sender<()>>>,
    /// The thread, which gives its writer back when it stops.
    ticker: Mutex<Option<std::thread::JoinHandle<Box<dyn Write + Send>>>>,
}

/// How often [`Reporter`] writes a plain progress line.
const PLAIN_EVERY: Duration = Duration::from_secs(2);

impl Reporter {
    /// A reporter for `total` steps named `message`; plain lines only with `plain` and when
    /// stderr is not a terminal (where the bar is drawn instead).
    pub fn new(settings: &Settings, total: u64, message: &'static str, plain: bool) -> Reporter {
        Reporter {
            bar: bar(settings, total, message),
            message,
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
            message,
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
            p.done.store(done, Relaxed);
        }
    }

    /// Records where the work stands in words (a search's [`grundy::Control::note`]): the
    /// spinner shows it after its message, and the plain lines after the count.
    pub fn set_note(&self, note: &str) {
        if !self.bar.is_hidden() {
            self.bar.set_message(format!("{} ({note})", self.message));
        }
        if let Some(p) = &self.plain {
            if let Ok(mut n) = p.note.lock() {
                n.clear();
                n.push_str(note);
            }
        }
    }

    /// Clears the bar; a plain reporter says it is done.
    pub fn finish_and_clear(&self) {
        self.bar.finish_and_clear();
        if let Some(p) = &self.plain {
            let seconds = p.start.elapsed().as_secs_f64();
            if let Some(mut out) = p.stop() {
                let _ = writeln!(out, "grundy: {}: done in {seconds:.1} s", p.message);
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer whose bytes the test reads back.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Shared {
        fn lines(&self) -> Vec<String> {
            let bytes = self.0.lock().unwrap().clone();
            String::from_utf8(bytes)
                .unwrap()
                .lines()
                .map(String::from)
                .collect()
        }
    }

    /// Waits (at most 10 s, for a loaded machine) until `out` has a line that `want` accepts.
    fn wait_for(out: &Shared, want: impl Fn(&[String]) -> bool) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let lines = out.lines();
            if want(&lines) || Instant::now() > deadline {
                return lines;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn plain_lines_come_on_time_while_the_work_reports_nothing() {
        let out = Shared::default();
        let every = Duration::from_millis(10);
        let plain = Plain::start("searching", Extent::Count("positions"), every, out.clone());
        let silent = wait_for(&out, |l| l.len() >= 3);
        assert!(silent.len() >= 3, "{silent:?}");
        assert!(silent
            .iter()
            .all(|l| l.starts_with("grundy: searching: 0 positions, ")));
        plain.done.store(4096, Relaxed);
        let later = wait_for(&out, |l| l.iter().any(|l| l.contains(" 4096 positions, ")));
        assert!(later
            .iter()
            .any(|l| l.starts_with("grundy: searching: 4096 positions, ")));
        // Stopped, the thread gives the writer back and writes no more.
        assert!(plain.stop().is_some());
        let stopped = out.lines().len();
        std::thread::sleep(every * 5);
        assert_eq!(out.lines().len(), stopped);
    }

    #[test]
    fn plain_lines_end_with_the_last_note() {
        let out = Shared::default();
        let plain = Plain::start(
            "searching",
            Extent::Count("positions"),
            Duration::from_millis(10),
            out.clone(),
        );
        let reporter = Reporter {
            bar: indicatif::ProgressBar::hidden(),
            message: "searching",
            plain: Some(plain),
            forecast: None,
        };
        reporter.set_position(7);
        reporter.set_note("asking whether the board's value is 0: 1 of 9 options asked");
        reporter.set_note(
            "the board: value at least 1; asking whether its value is 1: 0 of 8 options asked",
        );
        let want = "grundy: searching: 7 positions, ";
        let last =
            "; the board: value at least 1; asking whether its value is 1: 0 of 8 options asked";
        let lines = wait_for(&out, |l| l.iter().any(|l| l.ends_with(last)));
        drop(reporter);
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(want) && l.ends_with(last)),
            "{lines:?}"
        );
        // A line carries the last note only, never two.
        assert!(
            lines.iter().all(|l| l.matches("asking").count() <= 1),
            "{lines:?}"
        );
    }

    #[test]
    fn plain_lines_of_steps_give_the_share_done() {
        let out = Shared::default();
        let plain = Plain::start(
            "values",
            Extent::Steps(200),
            Duration::from_millis(10),
            out.clone(),
        );
        plain.done.store(50, Relaxed);
        let lines = wait_for(&out, |l| l.iter().any(|l| l.contains(" 50 of 200 ")));
        drop(plain);
        assert!(lines
            .iter()
            .any(|l| l.starts_with("grundy: values: 50 of 200 (25%), ")));
    }
}
