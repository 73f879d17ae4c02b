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
//!
//! **What a script can reach.** The engine is built from Rhai's packages of pure functions
//! (arithmetic, logic, strings, arrays, maps, function pointers, bit fields, mathematics) and
//! nothing else: no `sleep` (which blocks the thread and cannot be stopped by the watcher, which
//! runs between operations), no `exit`, no clock (`timestamp`), no byte blobs, and no module
//! resolver, so `import` cannot read files. `print` and `debug` write to standard error, never to
//! standard output, where answers and JSON documents go; a host running scripts for others turns
//! them off with [`silence`].
//!
//! **Time.** Each call has its operation budget; a whole run (every call of a sequence, an
//! analysis) is bounded by the deadline of the [`Control`] the host watches with: the command
//! line sets one from its script time limit, the server from its job deadline.
//!
//! **Sizes.** Rhai checks the size of an array after every operation that changes it by walking
//! the array, so filling an array of `k` entries costs time in `k^2`; [`MAX_ARRAY`] is kept small
//! enough (2^16 entries) that a loop pushing without end reaches it in about a second.

use crate::control::Control;
use crate::error::{Error, Interruption, LimitKind, Result};
use rhai::packages::{
    ArithmeticPackage, BasicArrayPackage, BasicFnPackage, BasicIteratorPackage, BasicMapPackage,
    BasicMathPackage, BasicStringPackage, BitFieldPackage, LogicPackage, MoreStringPackage,
    Package,
};
use rhai::{Dynamic, Engine, EvalAltResult};
use std::io::Read;
use std::path::Path;

/// Operations a single call of a script function may take.
pub const MAX_OPERATIONS: u64 = 10_000_000;
/// Nesting of function calls.
pub const MAX_CALL_DEPTH: usize = 64;
/// Bytes in a string.
pub const MAX_STRING: usize = 1 << 16;
/// Entries in an array or a map (see the module documentation for why it is small).
pub const MAX_ARRAY: usize = 1 << 16;
/// Bytes of a script file.
pub const MAX_SCRIPT_BYTES: u64 = 1 << 20;
/// How many operations pass between two looks at the cancel token and the clock, when the
/// script is watched.
pub const DEADLINE_CHECK_EVERY: u64 = 4096;

/// A sandboxed engine allowing `max_operations` operations per call: the packages listed in the
/// module documentation, the size limits above, `print` and `debug` to standard error.
pub fn engine(max_operations: u64) -> Engine {
    let mut engine = Engine::new_raw();
    for package in [
        ArithmeticPackage::new().as_shared_module(),
        LogicPackage::new().as_shared_module(),
        BasicStringPackage::new().as_shared_module(),
        MoreStringPackage::new().as_shared_module(),
        BasicIteratorPackage::new().as_shared_module(),
        BasicFnPackage::new().as_shared_module(),
        BitFieldPackage::new().as_shared_module(),
        BasicMathPackage::new().as_shared_module(),
        BasicArrayPackage::new().as_shared_module(),
        BasicMapPackage::new().as_shared_module(),
    ] {
        engine.register_global_module(package);
    }
    engine
        .set_max_operations(max_operations)
        .set_max_call_levels(MAX_CALL_DEPTH)
        .set_max_string_size(MAX_STRING)
        .set_max_array_size(MAX_ARRAY)
        .set_max_map_size(MAX_ARRAY)
        .set_max_expr_depths(64, 64);
    engine.on_print(|s| eprintln!("{s}"));
    engine.on_debug(|s, source, _| match source {
        Some(source) => eprintln!("{source}: {s}"),
        None => eprintln!("{s}"),
    });
    engine
}

/// Turns `print` and `debug` of `engine` off: they still evaluate their arguments, and write
/// nothing. For hosts running scripts for others (a server must not write their text to its own
/// streams).
pub fn silence(engine: &mut Engine) {
    engine.on_print(|_| {});
    engine.on_debug(|_, _, _| {});
}

/// Makes every later call on `engine` watch the cancel token and the deadline of `ctl`
/// (replacing what it watched before): a call stops within [`DEADLINE_CHECK_EVERY`] operations
/// of the token being cancelled or the deadline passing.
///
/// The call also stops, at the first operation after it happens, once the bytes held by the
/// threads charging the memory budget of `ctl` pass it (measured by
/// [`CountingAlloc`](crate::control::alloc::CountingAlloc) where the host installs it): with the
/// memory limit error of [`call_error`]. A script can build large values in few operations
/// (copies of a long string in closures or map keys, which Rhai's size limits do not see), so
/// the budget is looked at on every operation; it costs one atomic load.
pub fn watch(engine: &mut Engine, ctl: &Control) {
    let token = ctl.token().clone();
    let deadline = ctl.deadline();
    let memory = ctl.memory().clone();
    engine.on_progress(move |ops| {
        if memory.is_over() {
            return Some(Dynamic::from(OverBudget(memory.clone())));
        }
        if !ops.is_multiple_of(DEADLINE_CHECK_EVERY) {
            return None;
        }
        let why = if token.is_cancelled() {
            Interruption::Token
        } else if deadline.is_some_and(|d| std::time::Instant::now() >= d) {
            Interruption::Deadline
        } else {
            return None;
        };
        Some(Dynamic::from(Stopped(why)))
    });
}

/// The value a watched call stops with when its memory budget is passed.
#[derive(Clone)]
struct OverBudget(crate::control::MemoryBudget);

/// The value a watched call stops with when its token or deadline says so.
#[derive(Clone)]
struct Stopped(Interruption);

/// The library error for a failed script call: a call stopped by its watcher is
/// [`Error::Cancelled`], or the memory limit error when it stopped for its memory budget;
/// anything else is the script's fault, reported as [`Error::Invalid`]
/// with `context` (e.g. `script rules.rhai: moves([1, 2])`) in front of Rhai's message.
#[allow(clippy::boxed_local)] // Rhai hands its errors over boxed.
pub fn call_error(e: Box<EvalAltResult>, context: &str) -> Error {
    match *e {
        EvalAltResult::ErrorTerminated(value, _) => {
            if let Some(OverBudget(memory)) = value.clone().try_cast::<OverBudget>() {
                memory.over()
            } else if let Some(Stopped(why)) = value.try_cast::<Stopped>() {
                Error::Cancelled(why)
            } else {
                Error::Internal("a script call ended for no reason given".into())
            }
        }
        e => Error::invalid(format!("{context}: {e}")),
    }
}

/// The deepest nesting (of arrays, maps and curried function pointers) that a value a script
/// hands to grundy may have. Deeper values are refused with [`too_deep`].
pub const MAX_VALUE_DEPTH: usize = 256;

/// Whether `value` nests arrays, maps or curried function pointers more than `limit` levels
/// deep (a plain value has depth 0, `[1]` depth 1). Recurses at most `limit + 1` levels, however
/// deep the value is.
pub fn deeper_than(value: &Dynamic, limit: usize) -> bool {
    fn below<'a>(mut children: impl Iterator<Item = &'a Dynamic>, limit: usize) -> bool {
        limit == 0 || children.any(|c| deeper_than(c, limit - 1))
    }
    if let Ok(a) = value.as_array_ref() {
        !a.is_empty() && below(a.iter(), limit)
    } else if let Ok(m) = value.as_map_ref() {
        !m.is_empty() && below(m.values(), limit)
    } else if let Some(f) = value.read_lock::<rhai::FnPtr>() {
        f.is_curried() && below(f.iter_curry(), limit)
    } else {
        false
    }
}

/// Drops `value` without recursion: a value nested a million levels deep would overflow the
/// stack of the recursive drop that Rust derives.
pub fn dispose(value: Dynamic) {
    let mut pending = vec![value];
    while let Some(v) = pending.pop() {
        let v = v.flatten();
        if v.is_array() {
            pending.extend(v.cast::<rhai::Array>());
        } else if v.is_map() {
            pending.extend(v.cast::<rhai::Map>().into_values());
        } else if v.is_fnptr() {
            let mut f = v.cast::<rhai::FnPtr>();
            pending.extend(f.iter_curry_mut().map(std::mem::take));
        }
    }
}

/// Checks the nesting of a value a script returned: the value itself when it nests at most
/// `limit` levels, otherwise it is dropped without recursion ([`dispose`]) and the error names
/// `context` (e.g. `script game.rhai: start()`).
pub fn too_deep(value: Dynamic, limit: usize, context: &dyn Fn() -> String) -> Result<Dynamic> {
    if !deeper_than(&value, limit) {
        return Ok(value);
    }
    dispose(value);
    Err(Error::invalid(format!(
        "{}: returned a value nested more than {limit} levels deep",
        context()
    )))
}

/// Reads the source of the script at `path`, refusing sources above [`MAX_SCRIPT_BYTES`]. The
/// size the file system reports is not trusted (a device or a pipe reports 0): at most one byte
/// more than the limit is read, and a source that reaches it is refused.
pub fn read_source(path: &Path) -> Result<String> {
    let name = path.display().to_string();
    let unreadable =
        |e: std::io::Error| Error::invalid(format!("script {name}: cannot read it: {e}"));
    let file = std::fs::File::open(path).map_err(unreadable)?;
    let mut bytes = Vec::new();
    file.take(MAX_SCRIPT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    if bytes.len() as u64 > MAX_SCRIPT_BYTES {
        return Err(Error::limit(
            LimitKind::Input,
            format!("script {name} has more than {MAX_SCRIPT_BYTES} bytes"),
            "shorten the script",
        ));
    }
    String::from_utf8(bytes)
        .map_err(|e| Error::invalid(format!("script {name}: cannot read it as UTF-8 text: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(source: &str) -> std::result::Result<Dynamic, Box<EvalAltResult>> {
        engine(MAX_OPERATIONS).eval::<Dynamic>(source)
    }

    /// Functions that block, read the clock or reach files are not in the sandbox.
    #[test]
    fn blocking_and_outside_functions_are_absent() {
        for source in [
            "sleep(1)",
            "sleep(0.5)",
            "exit(1)",
            "timestamp()",
            "blob(10)",
            r#"import "/etc/hostname" as m; 1"#,
        ] {
            assert!(run(source).is_err(), "{source} ran");
        }
        // The pure functions are there.
        assert_eq!(
            run("let a = [3, 1, 2]; a.sort(); a[0] + max(4, 5) + \"ab\".len()")
                .unwrap()
                .as_int()
                .unwrap(),
            8
        );
    }

    /// A loop pushing without end stops at the array cap with an error, quickly.
    #[test]
    fn a_push_loop_stops_at_the_array_cap() {
        let start = std::time::Instant::now();
        let e = run("let a = []; loop { a.push(1); }").unwrap_err();
        assert!(e.to_string().contains("array"), "{e}");
        assert!(start.elapsed() < std::time::Duration::from_secs(20));
    }

    /// A source longer than the limit is refused without reading it all: /dev/zero reports 0
    /// bytes and never ends.
    #[cfg(unix)]
    #[test]
    fn an_endless_source_is_refused() {
        let e = read_source(Path::new("/dev/zero")).unwrap_err();
        assert!(
            matches!(e, Error::Limit(ref l) if l.kind == LimitKind::Input),
            "{e}"
        );
    }
}
