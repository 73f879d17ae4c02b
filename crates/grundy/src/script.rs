//! The sandbox every user script runs in: rules of heap games (`script:PATH`, see
//! [`heap::script`](crate::heap::script)) and games by rules alike.
//!
//! Scripts are written in [Rhai](https://rhai.rs), a small embedded language with no file or
//! network access. Every engine built here bounds a script's work: operations per call, call
//! depth, sizes of strings, arrays and maps, nesting of expressions. A host that must stop
//! scripts (Ctrl-C, a server's deadline) attaches a [`Control`] with [`watch`]: Rhai calls its
//! progress hook before every operation, and the hook looks at the token and the clock every
//! [`DEADLINE_CHECK_EVERY`] operations, so a watched call ends within a few thousand operations
//! of the request to stop, with [`Error::Cancelled`] (see [`call_error`]).

use crate::control::Control;
use crate::error::{Error, LimitKind, Result};
use rhai::{Dynamic, Engine, EvalAltResult};
use std::path::Path;

/// Operations a single call of a script function may take.
pub const MAX_OPERATIONS: u64 = 10_000_000;
/// Nesting of function calls.
pub const MAX_CALL_DEPTH: usize = 64;
/// Bytes in a string.
pub const MAX_STRING: usize = 1 << 16;
/// Entries in an array or a map.
pub const MAX_ARRAY: usize = 1 << 20;
/// Bytes of a script file.
pub const MAX_SCRIPT_BYTES: u64 = 1 << 20;
/// How many operations pass between two looks at the cancel token and the clock, when the
/// script is watched.
pub const DEADLINE_CHECK_EVERY: u64 = 4096;

/// A sandboxed engine allowing `max_operations` operations per call.
pub fn engine(max_operations: u64) -> Engine {
    let mut engine = Engine::new();
    engine
        .set_max_operations(max_operations)
        .set_max_call_levels(MAX_CALL_DEPTH)
        .set_max_string_size(MAX_STRING)
        .set_max_array_size(MAX_ARRAY)
        .set_max_map_size(MAX_ARRAY)
        .set_max_expr_depths(64, 64);
    engine
}

/// Makes every later call on `engine` watch the cancel token and the deadline of `ctl`
/// (replacing what it watched before): a call stops within [`DEADLINE_CHECK_EVERY`] operations
/// of the token being cancelled or the deadline passing.
pub fn watch(engine: &mut Engine, ctl: &Control) {
    let token = ctl.token().clone();
    let deadline = ctl.deadline();
    engine.on_progress(move |ops| {
        (ops.is_multiple_of(DEADLINE_CHECK_EVERY)
            && (token.is_cancelled() || deadline.is_some_and(|d| std::time::Instant::now() >= d)))
        .then_some(Dynamic::UNIT)
    });
}

/// The library error for a failed script call: a call stopped by its watcher is
/// [`Error::Cancelled`]; anything else is the script's fault, reported as [`Error::Invalid`]
/// with `context` (e.g. `script rules.rhai: moves([1, 2])`) in front of Rhai's message.
#[allow(clippy::boxed_local)] // Rhai hands its errors over boxed.
pub fn call_error(e: Box<EvalAltResult>, context: &str) -> Error {
    match *e {
        EvalAltResult::ErrorTerminated(..) => Error::Cancelled,
        e => Error::invalid(format!("{context}: {e}")),
    }
}

/// Reads the source of the script at `path`, refusing files above [`MAX_SCRIPT_BYTES`].
pub fn read_source(path: &Path) -> Result<String> {
    let name = path.display().to_string();
    let meta = std::fs::metadata(path)
        .map_err(|e| Error::invalid(format!("script {name}: cannot read it: {e}")))?;
    if meta.len() > MAX_SCRIPT_BYTES {
        return Err(Error::limit(
            LimitKind::Input,
            format!(
                "script {name} has {} bytes, above {MAX_SCRIPT_BYTES}",
                meta.len()
            ),
            "shorten the script",
        ));
    }
    std::fs::read_to_string(path)
        .map_err(|e| Error::invalid(format!("script {name}: cannot read it: {e}")))
}
