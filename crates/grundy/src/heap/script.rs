//! Heap rules written by the user in [Rhai](https://rhai.rs), a small embedded scripting
//! language.
//!
//! The script defines `fn options(n)`, returning the options of a heap of `n` tokens as an
//! array of options, each option the array of heaps left (`[]` or `[0]` when the heap is
//! removed; zero heaps are dropped). Every heap of an option must be smaller than `n`, which
//! makes every game end. `options` is called only for n >= 1: an empty heap has no moves. The floor-division game (n → floor(n/d), d = 2..6):
//!
//! ```text
//! fn options(n) {
//!     let result = [];
//!     for d in 2..=6 { result.push([n / d]); }
//!     result
//! }
//! ```
//!
//! The script runs in a sandbox: at most [`MAX_OPERATIONS`] operations per call, call depth
//! [`MAX_CALL_DEPTH`], strings of [`MAX_STRING`] bytes and arrays of [`MAX_ARRAY`] entries, no
//! file or network access (Rhai has none), so a bad script gives an error, never a hang.
//!
//! A host that runs scripts for others (the web playground) compiles them with
//! [`ScriptRule::compile_limited`]: a smaller operation budget, and the cancel token and
//! deadline of a [`Control`]; [`ScriptRule::watch`] attaches those to a script already compiled
//! (the command line's Ctrl-C). Rhai calls its progress hook before every operation; the hook
//! looks at the token and the clock every [`DEADLINE_CHECK_EVERY`] operations and stops the
//! script once the token is cancelled or the deadline has passed, so such a call ends within a
//! few thousand operations, with [`Error::Cancelled`].

use crate::control::Control;
use crate::error::{Error, Result};
use crate::heap::rule::Options;
use rhai::{Array, Dynamic, Engine, Scope, AST};
use std::path::Path;

pub use crate::script::{
    DEADLINE_CHECK_EVERY, MAX_ARRAY, MAX_CALL_DEPTH, MAX_OPERATIONS, MAX_SCRIPT_BYTES, MAX_STRING,
};

/// A compiled script rule.
pub struct ScriptRule {
    engine: Engine,
    ast: AST,
    path: String,
}

impl std::fmt::Debug for ScriptRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ScriptRule({})", self.path)
    }
}

impl ScriptRule {
    /// Reads and compiles the script at `path`; it must define `fn options(n)`.
    pub fn load(path: &Path) -> Result<ScriptRule> {
        let source = crate::script::read_source(path)?;
        ScriptRule::compile(&source, &path.display().to_string())
    }

    /// Compiles script source text; `name` is used in messages.
    pub fn compile(source: &str, name: &str) -> Result<ScriptRule> {
        ScriptRule::compile_with(source, name, MAX_OPERATIONS)
    }

    /// Compiles script source text with at most `max_operations` operations per call of
    /// `options`, every call watching the cancel token and the deadline of `ctl`: a call still
    /// running when the token is cancelled or the deadline passes stops with
    /// [`Error::Cancelled`] (see the module documentation). The script's `print` and `debug`
    /// write nothing ([`crate::script::silence`]): its text is not the host's to show.
    pub fn compile_limited(
        source: &str,
        name: &str,
        max_operations: u64,
        ctl: &Control,
    ) -> Result<ScriptRule> {
        let mut rule = ScriptRule::compile_with(source, name, max_operations)?;
        crate::script::silence(&mut rule.engine);
        rule.watch(ctl);
        Ok(rule)
    }

    /// Makes every later call of `options` watch the cancel token and the deadline of `ctl`
    /// (replacing what it watched before): it stops with [`Error::Cancelled`] within
    /// [`DEADLINE_CHECK_EVERY`] operations of the token being cancelled or the deadline passing.
    pub fn watch(&mut self, ctl: &Control) {
        crate::script::watch(&mut self.engine, ctl);
    }

    /// Readies the script to run inside a server: `print` and `debug` write nothing (a server's
    /// output is its own, not its users'; see [`crate::script::silence`]). `sleep`, which runs
    /// no operations and so could not be stopped at a deadline, is absent from every sandboxed
    /// engine (see [`crate::script`]).
    pub fn for_server(&mut self) {
        crate::script::silence(&mut self.engine);
    }

    fn compile_with(source: &str, name: &str, max_operations: u64) -> Result<ScriptRule> {
        let engine = crate::script::engine(max_operations);
        let ast = engine
            .compile(source)
            .map_err(|e| Error::invalid(format!("script {name}: {e}")))?;
        if !ast
            .iter_functions()
            .any(|f| f.name == "options" && f.params.len() == 1)
        {
            return Err(Error::invalid(format!(
                "script {name}: expected a function `fn options(n)` returning the options of \
                 heap n as an array of arrays of heaps"
            )));
        }
        Ok(ScriptRule {
            engine,
            ast,
            path: name.to_string(),
        })
    }

    /// Runs `options(n)` and appends its answer to `out`, checking its shape.
    pub fn options(&self, n: u64, out: &mut Options) -> Result<()> {
        if n == 0 {
            // No heap, no move: the script is asked only about heaps of at least one token.
            return Ok(());
        }
        let name = &self.path;
        let arg = i64::try_from(n).map_err(|_| {
            Error::limit(
                crate::LimitKind::Fixed,
                format!("script {name}: heap {n} does not fit a script integer (below 2^63)"),
                "use smaller heaps",
            )
        })?;
        let answer: Dynamic = self
            .engine
            .call_fn(&mut Scope::new(), &self.ast, "options", (arg,))
            .map_err(|e| crate::script::call_error(e, &format!("script {name}: options({n})")))?;
        // An array of arrays of heaps: two levels.
        let answer =
            crate::script::too_deep(answer, 2, &|| format!("script {name}: options({n})"))?;
        let bad = |what: String| {
            Error::invalid(format!(
                "script {name}: options({n}) {what}; expected an array of arrays of heaps \
                 smaller than {n}"
            ))
        };
        let list: Array = answer
            .try_cast::<Array>()
            .ok_or_else(|| bad("did not return an array".into()))?;
        let mut heaps: Vec<u64> = Vec::new();
        for (i, option) in list.into_iter().enumerate() {
            let option: Array = option
                .try_cast::<Array>()
                .ok_or_else(|| bad(format!("has option {} that is not an array", i + 1)))?;
            heaps.clear();
            for h in option {
                let h = h
                    .as_int()
                    .map_err(|t| bad(format!("has option {} holding a {t}", i + 1)))?;
                if h < 0 || h as u64 >= n {
                    return Err(bad(format!("has option {} holding heap {h}", i + 1)));
                }
                heaps.push(h as u64);
            }
            out.push(&heaps);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::CancelToken;
    use std::time::{Duration, Instant};

    fn run(src: &str, n: u64) -> Result<Vec<Vec<u64>>> {
        let s = ScriptRule::compile(src, "test")?;
        let mut o = Options::new();
        s.options(n, &mut o)?;
        Ok(o.iter().map(|x| x.to_vec()).collect())
    }

    #[test]
    fn floor_division_script() {
        let src = "fn options(n) { let r = []; for d in 2..=6 { r.push([n / d]); } r }";
        assert_eq!(
            run(src, 13).unwrap(),
            vec![vec![6], vec![4], vec![3], vec![2], vec![2]]
        );
        assert_eq!(run(src, 1).unwrap(), vec![Vec::<u64>::new(); 5]);
    }

    #[test]
    fn bad_scripts_are_errors_not_hangs() {
        let e = |src: &str| run(src, 5).unwrap_err().to_string();
        assert!(e("fn options(n) { loop {} }").contains("options(5)"));
        assert!(e("fn options(n) { options(n) }").contains("options(5)"));
        assert!(e("fn options(n) { [[n]] }").contains("heap 5"));
        assert!(e("fn options(n) { [[-1]] }").contains("heap -1"));
        assert!(e("fn options(n) { 3 }").contains("not return an array"));
        assert!(e("fn options(n) { [3] }").contains("not an array"));
        assert!(e("fn options(n) { [[\"a\"]] }").contains("string"));
        assert!(e("fn other(n) { [] }").contains("fn options(n)"));
        assert!(e("fn options(n) { let s = \"ab\"; loop { s += s; } }").contains("options(5)"));
        assert!(e("fn options(n) {").contains("test"));
    }

    #[test]
    fn limited_scripts_stop_at_their_budget_and_deadline() {
        let slow = "fn options(n) { let s = 0; for i in 0..1000000 { s += i; } [[n - 1]] }";
        let options = |s: &ScriptRule| s.options(3, &mut Options::new());
        // No deadline, a budget the loop fits in: the answer.
        let none = Control::none();
        let roomy = ScriptRule::compile_limited(slow, "slow", 100_000_000, &none).unwrap();
        options(&roomy).unwrap();
        // A budget the loop exceeds: a bad script, not a limit of the host.
        let small = ScriptRule::compile_limited(slow, "slow", 1000, &none).unwrap();
        assert!(matches!(options(&small), Err(Error::Invalid(_))));
        // A deadline already passed: stopped within the first check.
        let past = Control::none().with_deadline(Instant::now());
        let late = ScriptRule::compile_limited(slow, "slow", 100_000_000, &past).unwrap();
        let start = Instant::now();
        assert!(matches!(options(&late), Err(Error::Cancelled(_))));
        assert!(start.elapsed() < std::time::Duration::from_secs(1));
        // A deadline far away changes nothing.
        let far = Control::none().with_deadline(Instant::now() + Duration::from_secs(3600));
        let fine = ScriptRule::compile_limited(slow, "slow", 100_000_000, &far).unwrap();
        options(&fine).unwrap();
    }

    #[test]
    fn a_watched_script_stops_when_its_token_is_cancelled() {
        let endless = "fn options(n) { loop {} }";
        // No operation budget: only the token stops it.
        let mut s = ScriptRule::compile_limited(endless, "endless", 0, &Control::none()).unwrap();
        let token = CancelToken::new();
        s.watch(&Control::none().with_token(token.clone()));
        let stopper = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            token.cancel();
        });
        let start = Instant::now();
        assert!(matches!(
            s.options(3, &mut Options::new()),
            Err(Error::Cancelled(_))
        ));
        assert!(start.elapsed() < Duration::from_secs(5));
        stopper.join().unwrap();
    }
}
