//! The command line's error: a library error or an I/O failure, mapped to an exit status.

use grundy::Error;
use std::io;

/// Why a command failed, rendered once to stderr by [`CliError::report`].
#[derive(Debug)]
pub enum CliError {
    /// An error from the library (bad input, limit, internal).
    Lib(Error),
    /// Bad usage detected by the command line itself (status 2).
    Usage(String),
    /// Reading or writing failed.
    Io(io::Error),
}

impl CliError {
    /// Shorthand for a usage error (exit status 2).
    #[allow(dead_code)]
    pub fn usage(message: impl Into<String>) -> Self {
        CliError::Usage(message.into())
    }

    /// Prints the message to stderr and returns the exit status of the specification.
    pub fn report(&self) -> i32 {
        match self {
            // Stopped by Ctrl-C: the shells' status for an interrupt.
            CliError::Lib(Error::Cancelled) if crate::output::interrupted() => {
                eprintln!("grundy: interrupted");
                crate::output::INTERRUPTED
            }
            CliError::Lib(e) => {
                eprintln!("grundy: {e}");
                match e {
                    Error::Parse(_) | Error::Invalid(_) => 2,
                    Error::Limit(_) => 3,
                    // Error::Internal, and any kind of error a later library adds.
                    _ => 1,
                }
            }
            CliError::Usage(m) => {
                eprintln!("grundy: {m}");
                2
            }
            // A reader that went away (`grundy seq ... | head`) is not a failure.
            CliError::Io(e) if e.kind() == io::ErrorKind::BrokenPipe => 0,
            CliError::Io(e) => {
                eprintln!("grundy: i/o error: {e}");
                1
            }
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
