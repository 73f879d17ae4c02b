//! Writing answers: buffered stdout, JSON documents, progress bars that appear only on a terminal.

use crate::error::CliError;
use std::io::{self, BufWriter, IsTerminal, Write};

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
