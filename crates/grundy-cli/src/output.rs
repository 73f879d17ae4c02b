//! Writing answers: buffered stdout, JSON documents, progress bars that appear only on a
//! terminal, and the [`Control`] of long computations (progress bar and Ctrl-C).

use crate::error::CliError;
use grundy::control::{CancelToken, Control, MemoryBudget, ProgressFn};
use grundy::game::spec::GameSpec;
use grundy::heap::sequence;
use grundy::heap::HeapGame;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The exit status of a command stopped by Ctrl-C (128 + SIGINT, the shells' convention).
pub const INTERRUPTED: i32 = 130;

/// How long after Ctrl-C a command may take to stop by itself (the engines check their token
/// every few milliseconds) before the process ends anyway.
const INTERRUPT_GRACE: Duration = Duration::from_millis(1500);

static INTERRUPT: OnceLock<CancelToken> = OnceLock::new();

/// The token that Ctrl-C cancels. The SIGINT handler is installed on first use, so only
/// commands that compute take Ctrl-C over (`play` and `serve` keep the default handling). On
/// Ctrl-C the token is cancelled, the computation returns `Error::Cancelled(_)` and the command
/// ends with "interrupted" and status [`INTERRUPTED`]; should it still run after
/// [`INTERRUPT_GRACE`] (or on a second Ctrl-C), the process ends at once with the same message
/// and status.
fn interrupt_token() -> &'static CancelToken {
    INTERRUPT.get_or_init(|| {
        let token = CancelToken::new();
        let seen = token.clone();
        // A handler that cannot be installed leaves Ctrl-C to the default action (the process
        // ends at once), which stops it too.
        let _ = ctrlc::set_handler(move || {
            if seen.is_cancelled() {
                interrupted_exit();
            }
            seen.cancel();
            std::thread::spawn(|| {
                std::thread::sleep(INTERRUPT_GRACE);
                interrupted_exit();
            });
        });
        token
    })
}

fn interrupted_exit() -> ! {
    eprintln!("grundy: interrupted");
    std::process::exit(INTERRUPTED);
}

/// Whether Ctrl-C has been pressed during a computation.
pub fn interrupted() -> bool {
    INTERRUPT.get().is_some_and(CancelToken::is_cancelled)
}

/// A [`Control`] stopped by Ctrl-C, without progress reports, drawing on the command's memory
/// budget ([`memory`]) and, once a script game is loaded, stopped at the script time limit
/// ([`start_script_clock`]).
pub fn interruptible() -> Control<'static> {
    let ctl = budgeted().with_token(interrupt_token().clone());
    match SCRIPT_DEADLINE.get() {
        Some(&d) => ctl.with_deadline(d),
        None => ctl,
    }
}

/// A [`Control`] with the command's memory budget only (Ctrl-C keeps its default action).
pub fn budgeted() -> Control<'static> {
    Control::none().with_memory(memory().clone())
}

static MEMORY: OnceLock<MemoryBudget> = OnceLock::new();

/// The memory budget of every computation of the command: set once from `--memory` or
/// `GRUNDY_MEMORY` ([`set_memory`]), else [`default_memory`].
pub fn memory() -> &'static MemoryBudget {
    MEMORY.get_or_init(|| MemoryBudget::new(default_memory()))
}

/// Sets the memory budget from the `--memory` flag, else the environment variable
/// `GRUNDY_MEMORY`, else [`default_memory`]. A malformed size is a usage error naming where it
/// came from.
pub fn set_memory(flag: Option<&str>) -> Result<(), CliError> {
    let limit = match flag {
        Some(s) => parse_size(s).ok_or_else(|| {
            CliError::usage(format!(
                "--memory: expected a size like 512M or 16G, found '{s}'"
            ))
        })?,
        None => match std::env::var("GRUNDY_MEMORY") {
            Ok(s) => parse_size(&s).ok_or_else(|| {
                CliError::usage(format!(
                    "GRUNDY_MEMORY: expected a size like 512M or 16G, found '{s}'"
                ))
            })?,
            Err(_) => default_memory(),
        },
    };
    let _ = MEMORY.set(MemoryBudget::new(limit));
    Ok(())
}

/// Parses `SIZE` (`123`, `64K`, `512M`, `16G`, `1T`; binary units, an optional `B` or `iB`)
/// into bytes.
pub fn parse_size(s: &str) -> Option<u64> {
    let (digits, unit) = match s.find(|c: char| !c.is_ascii_digit()) {
        Some(i) => s.split_at(i),
        None => (s, ""),
    };
    let shift = match unit.to_ascii_uppercase().trim_end_matches(['B', 'I']) {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => return None,
    };
    let n: u64 = digits.parse().ok()?;
    n.checked_mul(1 << shift)
}

/// The budget when none is set: a quarter of the physical memory (`MemTotal` in
/// `/proc/meminfo`), or [`FALLBACK_MEMORY`] where that cannot be read. A quarter leaves room
/// for the rest of the machine and for what the budget does not count (the program, buffers of
/// fixed size, allocator slack).
pub fn default_memory() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| total_kib(&m))
        .map_or(FALLBACK_MEMORY, |kib| kib.saturating_mul(1024) / 4)
}

/// The default budget where the physical memory cannot be read: 2 GiB.
pub const FALLBACK_MEMORY: u64 = 2 << 30;

/// The `MemTotal:` figure of a `/proc/meminfo` text, in KiB.
fn total_kib(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

static SCRIPT_TIME: OnceLock<Option<Duration>> = OnceLock::new();
static SCRIPT_DEADLINE: OnceLock<Instant> = OnceLock::new();

/// The default of `--script-time`: how long a command may run a script game, in seconds.
pub const DEFAULT_SCRIPT_SECONDS: u64 = 600;

/// Sets the time limit of a command running a script (`--script-time SECONDS`; 0: none).
pub fn set_script_time(seconds: Option<u64>) {
    let s = seconds.unwrap_or(DEFAULT_SCRIPT_SECONDS);
    let _ = SCRIPT_TIME.set((s > 0).then(|| Duration::from_secs(s)));
}

/// The script time limit in seconds, if any.
pub fn script_time() -> Option<Duration> {
    *SCRIPT_TIME.get_or_init(|| Some(Duration::from_secs(DEFAULT_SCRIPT_SECONDS)))
}

/// Starts the clock of the script time limit: every [`Control`] made afterwards stops at the
/// deadline, and so does every call of the script watched with one. Called once a script game
/// is loaded, so that the limit bounds the whole run of the command, every call included.
pub fn start_script_clock() {
    if let Some(t) = script_time() {
        let _ = SCRIPT_DEADLINE.set(Instant::now() + t);
    }
}

/// Starts the script clock if `game` is a script, then makes its script watch Ctrl-C and the
/// deadline.
pub fn watch_game(game: &mut HeapGame) {
    if matches!(game.spec(), GameSpec::Script(_)) {
        start_script_clock();
    }
    game.watch(&interruptible());
}

/// A [`Control`] that reports to `report` (a progress bar's `set_position`) and is stopped by
/// Ctrl-C.
pub fn control<'a>(report: ProgressFn<'a>) -> Control<'a> {
    interruptible().with_progress(report)
}

/// Writes `bytes` to `path` so that the file is either its old self or complete: the bytes go
/// to a new file in the same directory, are flushed to the disk, and the new file is renamed
/// over `path` (a rename within a directory is atomic on POSIX file systems). A process killed
/// midway leaves at most a stray temporary file, never a truncated `path`. The directory must
/// exist: none is created.
///
/// A `path` that exists and is not a regular file (a device such as `/dev/stdout` or
/// `/dev/null`, a FIFO) is written to in place, never renamed over: replacing `/dev/null` with
/// a file would break the whole system, and a device has no old contents to keep.
pub fn write_atomically(path: &std::path::Path, bytes: &[u8]) -> io::Result<()> {
    write_atomically_with(path, &mut |w| w.write_all(bytes))
}

/// [`write_atomically`] of what `fill` writes (buffered), for contents too large to build in
/// memory first.
pub fn write_atomically_with(
    path: &std::path::Path,
    fill: &mut dyn FnMut(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        let mut target = std::fs::OpenOptions::new().write(true).open(path)?;
        let mut w = BufWriter::with_capacity(1 << 20, &mut target);
        fill(&mut w)?;
        return w.flush();
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    // The new file gets the old one's permissions, or those of a file created by `fs::write`
    // (0644 before the umask) rather than the temporary file's private 0600.
    let mut builder = tempfile::Builder::new();
    // The process id in the name tells a later run whether the file is stale
    // (`checkpoint::remove_stale_temporaries`).
    let prefix = format!(".grundy-{}-", std::process::id());
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    let permissions = std::fs::metadata(path)
        .map(|m| m.permissions())
        .unwrap_or_else(|_| {
            use std::os::unix::fs::PermissionsExt;
            std::fs::Permissions::from_mode(0o644)
        });
    #[cfg(unix)]
    builder.permissions(permissions);
    let mut file = builder.tempfile_in(dir)?;
    {
        let mut w = BufWriter::with_capacity(1 << 20, file.as_file_mut());
        fill(&mut w)?;
        w.flush()?;
    }
    file.as_file().sync_all()?;
    file.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// The directory the file `path` is written in (`.` for a bare name), or the usage error (exit
/// status 2), naming `what` (e.g. `--plot FILE`), when it does not exist: checked before any
/// work, so that no work is lost to a file that cannot be written.
pub fn existing_directory<'a>(
    path: &'a std::path::Path,
    what: &str,
) -> Result<&'a std::path::Path, CliError> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    if dir.is_dir() {
        Ok(dir)
    } else {
        Err(CliError::usage(format!(
            "{what}: the directory {} does not exist",
            dir.display()
        )))
    }
}

/// How [`read_text`] failed.
#[derive(Debug)]
pub enum ReadError {
    /// Reading failed.
    Io(io::Error),
    /// The input has more than the cap (at least this many bytes were seen).
    TooLarge(u64),
    /// A NUL byte, on this 1-based line: the input is not text.
    Nul(usize),
}

/// Reads all of `input`, a text in which no NUL byte is valid (graph files), in chunks of
/// 64 KiB: at most `cap` bytes are held, whatever size the file system reports (a device or a
/// pipe reports 0), and a chunk holding a NUL byte ends the reading at once, so `/dev/zero` is
/// refused after its first chunk. Checks Ctrl-C between chunks.
pub fn read_text(mut input: impl io::Read, cap: u64) -> Result<Vec<u8>, ReadError> {
    const CHUNK: usize = 1 << 16;
    let mut bytes = Vec::new();
    let mut chunk = vec![0u8; CHUNK];
    loop {
        if interrupted() {
            return Err(ReadError::Io(io::Error::new(
                io::ErrorKind::Interrupted,
                "interrupted",
            )));
        }
        let n = match input.read(&mut chunk) {
            Ok(0) => return Ok(bytes),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(ReadError::Io(e)),
        };
        if let Some(at) = chunk[..n].iter().position(|&b| b == 0) {
            let line = bytes
                .iter()
                .chain(&chunk[..at])
                .filter(|&&b| b == b'\n')
                .count()
                + 1;
            return Err(ReadError::Nul(line));
        }
        if bytes.len() as u64 + n as u64 > cap {
            return Err(ReadError::TooLarge(bytes.len() as u64 + n as u64));
        }
        bytes.extend_from_slice(&chunk[..n]);
    }
}

/// A buffered, locked stdout. Flush it (or drop it) before exiting.
pub fn stdout() -> BufWriter<io::StdoutLock<'static>> {
    BufWriter::with_capacity(1 << 16, io::stdout().lock())
}

/// Prints one JSON document (and a newline) to stdout.
#[allow(dead_code)]
pub fn print_json<T: serde::Serialize>(value: &T) -> Result<(), CliError> {
    let mut out = stdout();
    serde_json::to_writer(&mut out, value).map_err(|e| CliError::Io(e.into()))?;
    writeln!(out)?;
    out.flush()?;
    Ok(())
}

/// A progress bar on stderr for `total` steps, hidden unless stderr is a terminal.
#[allow(dead_code)]
pub fn progress(total: u64, message: &'static str) -> indicatif::ProgressBar {
    if !io::stderr().is_terminal() {
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

/// A number of any size as an exact JSON integer (JSON numbers have no size limit; numbers
/// beyond 64 bits are written in full, never as strings or floats).
pub fn json_int(x: &impl ToString) -> Box<serde_json::value::RawValue> {
    serde_json::value::RawValue::from_string(x.to_string())
        .unwrap_or_else(|_| json_value(&serde_json::Value::Null))
}

/// Any serialisable value (a string, a list, null) as a JSON fragment.
pub fn json_value<T: serde::Serialize + ?Sized>(x: &T) -> Box<serde_json::value::RawValue> {
    serde_json::value::to_raw_value(x)
        .unwrap_or_else(|_| serde_json::value::to_raw_value(&()).expect("null is valid JSON"))
}

/// The JSON document of an arithmetic command (`grundy nimber mul`, `grundy ordinal nim-sum`,
/// ...): `{"op": NAME, "args": [...], "result": ...}`, the arguments as parsed (canonical form).
#[derive(serde::Serialize)]
pub struct OpDoc<'a> {
    /// The subcommand, e.g. `mul`, `nim-sum`.
    pub op: &'a str,
    /// The arguments: integers for natural numbers, strings for ordinals.
    pub args: Vec<Box<serde_json::value::RawValue>>,
    /// The answer.
    pub result: Box<serde_json::value::RawValue>,
}

/// Writes the answer of an arithmetic command: `text` as one line, or with `json` the document
/// [`OpDoc`] `{"op", "args", "result"}`.
pub fn print_op(
    json: bool,
    op: &str,
    args: Vec<Box<serde_json::value::RawValue>>,
    result: Box<serde_json::value::RawValue>,
    text: &dyn std::fmt::Display,
) -> Result<(), CliError> {
    if json {
        return print_json(&OpDoc { op, args, result });
    }
    let mut out = stdout();
    writeln!(out, "{text}")?;
    out.flush()?;
    Ok(())
}

/// A spinner on stderr for work whose length is unknown (a discrete logarithm, building a field),
/// hidden unless stderr is a terminal. Call `finish_and_clear` when done.
pub fn spinner(message: &'static str) -> indicatif::ProgressBar {
    if !io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_style(
        indicatif::ProgressStyle::with_template("{spinner} {msg} [{elapsed_precise}]")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
    );
    bar.set_message(message);
    bar.enable_steady_tick(std::time::Duration::from_millis(100));
    bar
}

/// Progress of long work on stderr: the bar of [`progress`] on a terminal, and with `plain`
/// (the `--progress` flag) a plain line every few seconds when stderr is not a terminal, for
/// logs and pipes.
pub struct Reporter {
    bar: indicatif::ProgressBar,
    plain: Option<Plain>,
}

struct Plain {
    message: &'static str,
    total: u64,
    start: Instant,
    last: Mutex<Instant>,
}

/// How often [`Reporter`] writes a plain progress line.
const PLAIN_EVERY: Duration = Duration::from_secs(2);

impl Reporter {
    /// A reporter for `total` steps named `message`; plain lines only with `plain` and when
    /// stderr is not a terminal (where the bar is drawn instead).
    pub fn new(total: u64, message: &'static str, plain: bool) -> Reporter {
        let now = Instant::now();
        Reporter {
            bar: progress(total, message),
            plain: (plain && !io::stderr().is_terminal()).then(|| Plain {
                message,
                total,
                start: now,
                last: Mutex::new(now),
            }),
        }
    }

    /// Records that `done` steps are done (and feeds the forecast of [`announce`]).
    pub fn set_position(&self, done: u64) {
        self.bar.set_position(done);
        forecast(done);
        if let Some(p) = &self.plain {
            let Ok(mut last) = p.last.lock() else { return };
            if last.elapsed() >= PLAIN_EVERY {
                *last = Instant::now();
                let percent = done as f64 * 100.0 / p.total.max(1) as f64;
                eprintln!(
                    "grundy: {}: {done} of {} ({percent:.0}%), {} s elapsed",
                    p.message,
                    p.total,
                    p.start.elapsed().as_secs()
                );
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
/// [`announce`].
const ANNOUNCE_ABOVE: f64 = 5.0;

/// When [`announce`] takes its first measure of the work's progress.
const FIRST_SAMPLE: Duration = Duration::from_secs(1);

/// When [`announce`] takes its second measure and says its estimate, if the work still runs.
const DEFER: Duration = Duration::from_secs(2);

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
/// estimate is then an upper bound, and said so. The returned guard is held while the work
/// runs; dropping it ends the forecast.
pub fn announce(game: &HeapGame, n: u64, at_most: bool) -> Announcement {
    let hexadecimal = matches!(game.spec(), GameSpec::TakeBreak(c) if c.is_hexadecimal());
    // A length beyond the engines' limits is refused by the computation itself, at once.
    if matches!(game.spec(), GameSpec::Nim | GameSpec::Divide(_))
        || n > sequence::MAX_LEN
        || (hexadecimal && n > sequence::MAX_LEN_THREE_HEAPS)
    {
        return Announcement { active: false };
    }
    let Some(cpu) = cpu_seconds() else {
        return Announcement { active: false };
    };
    let Ok(mut f) = FORECAST.lock() else {
        return Announcement { active: false };
    };
    *f = Some(Forecast {
        n,
        at_most,
        exponent: hexadecimal.then_some(2.0),
        start: Instant::now(),
        cpu,
        first: None,
        said: false,
    });
    Announcement { active: true }
}

/// The work announced by [`announce`], fed by [`Reporter::set_position`].
static FORECAST: Mutex<Option<Forecast>> = Mutex::new(None);

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
}

/// Feeds the announced forecast with `done` values computed; says it once, at [`DEFER`].
fn forecast(done: u64) {
    let Ok(mut guard) = FORECAST.try_lock() else {
        return;
    };
    let Some(f) = guard.as_mut().filter(|f| !f.said) else {
        return;
    };
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

/// Held while announced work runs; see [`announce`].
pub struct Announcement {
    active: bool,
}

impl Drop for Announcement {
    fn drop(&mut self) {
        if self.active {
            if let Ok(mut f) = FORECAST.lock() {
                *f = None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{parse_size, total_kib};

    #[test]
    fn sizes() {
        assert_eq!(parse_size("512M").unwrap(), 512 << 20);
        assert_eq!(parse_size("16G").unwrap(), 16 << 30);
        assert_eq!(parse_size("16GiB").unwrap(), 16 << 30);
        assert_eq!(parse_size("100").unwrap(), 100);
        assert!(parse_size("12X").is_none());
        assert!(parse_size("G").is_none());
        assert!(parse_size("99999999999T").is_none());
    }

    #[test]
    fn total_memory_is_read_from_meminfo() {
        let m = "MemTotal:       24000000 kB\nMemFree:  100 kB\nMemAvailable:   20000000 kB\n";
        assert_eq!(total_kib(m), Some(24_000_000));
        assert_eq!(total_kib("MemAvailable: 5 kB\n"), None);
    }
}
