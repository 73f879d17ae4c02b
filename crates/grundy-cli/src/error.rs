//! The command line's error: a library error or an I/O failure, mapped to an exit status.

use grundy::{Error, Interruption, LimitKind};
use std::io;

/// How one command raises each kind of library limit: `(kind, advice naming the flag)`. The
/// library speaks of its own settings (`max`, a memory budget, `Limits::max_value`); the command
/// line names the flag or environment variable that sets them.
pub type Raise = &'static [(LimitKind, &'static str)];

/// The memory budget of every command: the flag and the environment variable.
pub const RAISE_MEMORY: &str =
    "raise it with --memory (e.g. --memory 16G) or the GRUNDY_MEMORY environment variable";

/// The script time limit of every command: its flag.
const RAISE_SCRIPT_TIME: &str = "raise it with --script-time SECONDS, or 0 for no limit";

/// Why a command failed, rendered once to stderr by [`CliError::report`].
#[derive(Debug)]
pub enum CliError {
    /// An error from the library (bad input, limit, internal).
    Lib(Error),
    /// Bad usage detected by the command line itself (status 2).
    Usage(String),
    /// Reading or writing failed.
    Io(io::Error),
    /// A failure another process reports (the ranks of a distributed run agree on one error,
    /// which rank 0 prints): only the exit status.
    #[allow(dead_code)]
    Quiet(i32),
}

impl CliError {
    /// Shorthand for a usage error (exit status 2).
    #[allow(dead_code)]
    pub fn usage(message: impl Into<String>) -> Self {
        CliError::Usage(message.into())
    }

    /// Replaces the library's advice on a limit of a kind listed in `raise` by the command's
    /// own (the flag that raises it); other errors are unchanged.
    pub fn raise_with(self, raise: Raise) -> Self {
        match self {
            CliError::Lib(Error::Limit(mut l)) => {
                if let Some((_, advice)) = raise.iter().find(|(k, _)| *k == l.kind) {
                    l.how_to_raise = (*advice).to_string();
                }
                CliError::Lib(Error::Limit(l))
            }
            other => other,
        }
    }

    /// Makes a memory limit name the flag that raises the budget: `--memory` is added to the
    /// command's own advice (fewer values, smaller heaps), or replaces the library's.
    pub fn with_memory_flag(self) -> Self {
        match self {
            CliError::Lib(Error::Limit(mut l))
                if l.kind == LimitKind::Memory && !l.how_to_raise.contains("--memory") =>
            {
                l.how_to_raise = if l.how_to_raise.is_empty()
                    || l.how_to_raise == grundy::control::LIBRARY_MEMORY_ADVICE
                {
                    RAISE_MEMORY.to_string()
                } else {
                    format!("{}; or {RAISE_MEMORY}", l.how_to_raise)
                };
                CliError::Lib(Error::Limit(l))
            }
            other => other,
        }
    }

    /// The error as the run reports it, in the words of its settings: a memory limit names the
    /// flag that raises the budget ([`CliError::with_memory_flag`]), and the passed deadline is
    /// the script time limit of `settings`, with its seconds and flag.
    pub fn finish(self, settings: &crate::settings::Settings) -> Self {
        match self.with_memory_flag() {
            CliError::Lib(Error::Cancelled(Interruption::Deadline)) => {
                let secs = settings.script_time().map_or(0, |t| t.as_secs());
                CliError::Lib(Error::limit(
                    LimitKind::Deadline,
                    format!("the script game ran for {secs} s, the script time limit"),
                    RAISE_SCRIPT_TIME,
                ))
            }
            other => other,
        }
    }

    /// Prints the message to stderr and returns the exit status of the specification.
    pub fn report(&self) -> i32 {
        let (message, status) = self.rendered();
        if let Some(m) = message {
            eprintln!("{m}");
        }
        status
    }

    /// The message for stderr (none for a reader that went away, or an error another process
    /// reports) and the exit status of the specification.
    pub fn rendered(&self) -> (Option<String>, i32) {
        match self {
            // Stopped by Ctrl-C: the shells' status for an interrupt.
            CliError::Lib(Error::Cancelled(Interruption::Token)) => (
                Some("grundy: interrupted".into()),
                crate::settings::INTERRUPTED,
            ),
            // Stopped by the script time limit, the command line's only deadline: a stated
            // limit, with its flag ([`CliError::finish`] says how long it was).
            CliError::Lib(Error::Cancelled(Interruption::Deadline)) => {
                let e = Error::limit(
                    LimitKind::Deadline,
                    "the script game ran past the script time limit",
                    RAISE_SCRIPT_TIME,
                );
                (Some(format!("grundy: {e}")), 3)
            }
            CliError::Lib(e) => {
                let status = match e {
                    Error::Parse(_) | Error::Invalid(_) => 2,
                    Error::Limit(_) => 3,
                    // Error::Internal, and any kind of error a later library adds.
                    _ => 1,
                };
                (Some(format!("grundy: {e}")), status)
            }
            CliError::Usage(m) => (Some(format!("grundy: {m}")), 2),
            // A reader that went away (`grundy seq ... | head`) is not a failure.
            CliError::Io(e) if e.kind() == io::ErrorKind::BrokenPipe => (None, 0),
            CliError::Io(e) => (Some(format!("grundy: i/o error: {e}")), 1),
            CliError::Quiet(status) => (None, *status),
        }
    }
}

impl From<Error> for CliError {
    fn from(e: Error) -> Self {
        CliError::Lib(e)
    }
}

impl From<grundy::ParseError> for CliError {
    fn from(e: grundy::ParseError) -> Self {
        CliError::Lib(Error::Parse(e))
    }
}

impl From<io::Error> for CliError {
    fn from(e: io::Error) -> Self {
        CliError::Io(e)
    }
}
