//! Errors as values: what went wrong, where, and what was expected.
//!
//! Three kinds of failure reach a user, and the command line maps each to its exit status:
//! bad input ([`Error::Parse`], [`Error::Invalid`]: status 2), a stated resource limit
//! ([`Error::Limit`]: status 3), and everything else ([`Error::Internal`]: status 1). A
//! computation stopped on request ([`Error::Cancelled`]) is not a failure of the input either:
//! status 1, or 130 when the request was the user's Ctrl-C.

use std::fmt;

/// A result whose error is this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Where in the input a parse error sits: an argument, a line, a column (all 1-based).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Location {
    /// The name of the argument or file being read, if known (e.g. `GAME`, `graph.txt`).
    pub source: Option<String>,
    /// 1-based line number, for multi-line inputs.
    pub line: Option<usize>,
    /// 1-based column (in characters), if known.
    pub column: Option<usize>,
}

/// Input that does not follow its notation: names the place and what was expected there.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParseError {
    /// Where the problem is.
    pub at: Location,
    /// What is wrong, phrased as "expected X, found Y" where possible.
    pub message: String,
}

impl ParseError {
    /// An error at a column of a one-line input.
    pub fn at_column(column: usize, message: impl Into<String>) -> Self {
        ParseError {
            at: Location {
                column: Some(column),
                ..Location::default()
            },
            message: message.into(),
        }
    }

    /// An error at a line (and optionally a column) of a multi-line input.
    pub fn at_line(line: usize, column: Option<usize>, message: impl Into<String>) -> Self {
        ParseError {
            at: Location {
                line: Some(line),
                column,
                ..Location::default()
            },
            message: message.into(),
        }
    }

    /// An error with no position (the whole input is at fault).
    pub fn whole(message: impl Into<String>) -> Self {
        ParseError {
            at: Location::default(),
            message: message.into(),
        }
    }

    /// Names the argument or file this error was found in.
    pub fn in_source(mut self, source: impl Into<String>) -> Self {
        self.at.source = Some(source.into());
        self
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut wrote = false;
        if let Some(s) = &self.at.source {
            write!(f, "{s}")?;
            wrote = true;
        }
        if let Some(l) = self.at.line {
            write!(f, "{}line {l}", if wrote { ", " } else { "" })?;
            wrote = true;
        }
        if let Some(c) = self.at.column {
            write!(f, "{}column {c}", if wrote { ", " } else { "" })?;
            wrote = true;
        }
        if wrote {
            write!(f, ": ")?;
        }
        write!(f, "{}", self.message)
    }
}

impl std::error::Error for ParseError {}

/// Which limit was reached, in the library's own terms: each kind names the setting (an
/// argument, a field of a limits structure, a constant) that bounds the work. A front end maps
/// a kind to its own means of raising it (a command-line flag, a form field).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LimitKind {
    /// A memory budget passed by the caller (the `memory_limit` of graph readers, the memory
    /// check of graph solvers).
    Memory,
    /// More Grundy values are needed than were allowed: the `max` of an analysis.
    Values,
    /// More Grundy values were asked than the library computes (`sequence::MAX_LEN`, and
    /// `sequence::MAX_LEN_THREE_HEAPS` for codes leaving three heaps).
    Length,
    /// The largest heap whose value an engine computes directly (no proved pattern answers it).
    HeapSize,
    /// The number of options of one heap that a move listing enumerates.
    Options,
    /// The range of heap sizes of a count (its `min` and `max`).
    HeapRange,
    /// `count::histogram::Limits::max_value`: the Grundy values a count transforms.
    CountValue,
    /// The runs a run table holds or a count visits (`Limits::max_runs`, the run engine's
    /// `max_runs`).
    Runs,
    /// `count::histogram::Limits::max_enumeration`: heap sizes evaluated one by one.
    Enumeration,
    /// The size of an exact count (counting modulo a number avoids it).
    ExactCount,
    /// The number of heaps of an unordered count.
    Heaps,
    /// The positions a search stores (its `max_positions`).
    Positions,
    /// The degree of a finite field flattened by elimination (`max_flat`).
    FieldDegree,
    /// The vertices and arcs a graph's id width holds (wider ids raise it).
    Ids,
    /// The size of an input (bytes of a file, a script, standard input).
    Input,
    /// The time a script call may take.
    Deadline,
    /// A bound of the library itself (a word size, a supported range): no setting raises it.
    Fixed,
}

/// A stated resource limit was reached: which one, and how to raise it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct LimitError {
    /// Which limit: the setting that raises it.
    pub kind: LimitKind,
    /// What ran out, with the numbers (e.g. "the graph needs 31 GiB, above the 12 GiB limit").
    pub what: String,
    /// How to raise the limit or avoid it, in library terms (e.g. "a larger memory budget").
    pub how_to_raise: String,
    /// The amount needed and the limit, in the limit's unit (bytes for [`LimitKind::Memory`]),
    /// where they were measured: a caller that set aside part of its budget can restate them.
    pub amounts: Option<(u64, u64)>,
}

impl fmt::Display for LimitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "limit reached: {}", self.what)?;
        if !self.how_to_raise.is_empty() {
            write!(f, " ({})", self.how_to_raise)?;
        }
        Ok(())
    }
}

impl std::error::Error for LimitError {}

/// Every failure the library reports.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Input that does not follow its notation.
    #[error("{0}")]
    Parse(#[from] ParseError),
    /// Input that parses but means nothing (division by zero, an infinite game, ...).
    #[error("{0}")]
    Invalid(String),
    /// A stated resource limit was reached.
    #[error("{0}")]
    Limit(#[from] LimitError),
    /// A failure that is not the input's fault.
    #[error("internal error: {0}")]
    Internal(String),
    /// The computation was stopped by its [`Control`](crate::control::Control), for the
    /// reason given: the cancel token was set, or the deadline passed. Nothing of the
    /// computation is returned.
    #[error("cancelled")]
    Cancelled(Interruption),
}

/// Why a computation stopped before its end ([`Error::Cancelled`]). A computation that outgrows
/// its memory budget is not interrupted but refused, with a [`LimitError`] of kind memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Interruption {
    /// The cancel token was set: Ctrl-C on the command line, a client gone, Python's
    /// `KeyboardInterrupt`.
    Token,
    /// The deadline passed: a request's time budget, a script's time limit.
    Deadline,
}

impl Error {
    /// Shorthand for [`Error::Invalid`].
    pub fn invalid(message: impl Into<String>) -> Self {
        Error::Invalid(message.into())
    }

    /// Shorthand for [`Error::Limit`] of a `kind` of limit.
    pub fn limit(
        kind: LimitKind,
        what: impl Into<String>,
        how_to_raise: impl Into<String>,
    ) -> Self {
        Error::Limit(LimitError {
            kind,
            what: what.into(),
            how_to_raise: how_to_raise.into(),
            amounts: None,
        })
    }

    /// [`Error::limit`] with the amount `needed` above the `limit` (see [`LimitError::amounts`]).
    pub fn limit_with_amounts(
        kind: LimitKind,
        what: impl Into<String>,
        how_to_raise: impl Into<String>,
        needed: u64,
        limit: u64,
    ) -> Self {
        Error::Limit(LimitError {
            kind,
            what: what.into(),
            how_to_raise: how_to_raise.into(),
            amounts: Some((needed, limit)),
        })
    }
}
