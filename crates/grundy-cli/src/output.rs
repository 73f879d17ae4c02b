//! Writing answers: buffered stdout, JSON documents, progress bars that appear only on a
//! terminal, and the [`Control`] of long computations (progress bar and Ctrl-C).

use crate::error::CliError;
use grundy::control::{CancelToken, Control, ProgressFn};
use std::io::{self, BufWriter, IsTerminal, Write};
use std::sync::OnceLock;
use std::time::Duration;

/// The exit status of a command stopped by Ctrl-C (128 + SIGINT, the shells' convention).
pub const INTERRUPTED: i32 = 130;

/// How long after Ctrl-C a command may take to stop by itself (the engines check their token
/// every few milliseconds) before the process ends anyway.
const INTERRUPT_GRACE: Duration = Duration::from_millis(1500);

static INTERRUPT: OnceLock<CancelToken> = OnceLock::new();

/// The token that Ctrl-C cancels. The SIGINT handler is installed on first use, so only
/// commands that compute take Ctrl-C over (`play` and `serve` keep the default handling). On
/// Ctrl-C the token is cancelled, the computation returns `Error::Cancelled` and the command
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

/// A [`Control`] stopped by Ctrl-C, without progress reports.
pub fn interruptible() -> Control<'static> {
    Control::none().with_token(interrupt_token().clone())
}

/// A [`Control`] that reports to `report` (a progress bar's `set_position`) and is stopped by
/// Ctrl-C.
pub fn control<'a>(report: ProgressFn<'a>) -> Control<'a> {
    interruptible().with_progress(report)
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
