//! The settings of one run of the command line, resolved once in `main` from the global flags
//! and the environment and handed to every command by reference: the memory budget, the script
//! time limit and its clock, the Ctrl-C token, and whether progress is drawn. Commands build
//! the [`Control`] of each computation from it; nothing a command reads is a process global.

use crate::error::CliError;
use grundy::control::{CancelToken, Control, MemoryBudget, ProgressFn};
use grundy::game::spec::GameSpec;
use grundy::heap::HeapGame;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Once, OnceLock};
use std::time::{Duration, Instant};

/// The exit status of a command stopped by Ctrl-C (128 + SIGINT, the shells' convention).
pub const INTERRUPTED: i32 = 130;

/// How long after Ctrl-C a command may take to stop by itself (the engines check their token
/// every few milliseconds) before the process ends anyway.
const INTERRUPT_GRACE: Duration = Duration::from_millis(1500);

/// Interrupts closer than this to the first are that one delivered again: GNU `timeout -s INT`
/// signals the command and then its whole process group, so the command may see two SIGINTs
/// microseconds apart, where a person's second Ctrl-C comes later.
const SAME_INTERRUPT: Duration = Duration::from_millis(250);

/// The default of `--script-time`: how long a command may run a script game, in seconds.
pub const DEFAULT_SCRIPT_SECONDS: u64 = 600;

/// The default budget where the physical memory cannot be read: 2 GiB.
pub const FALLBACK_MEMORY: u64 = 2 << 30;

/// What every command of one run shares (module documentation).
#[derive(Debug)]
pub struct Settings {
    /// The memory budget of every computation (`--memory`, `GRUNDY_MEMORY`, or a quarter of
    /// the physical memory).
    memory: MemoryBudget,
    /// The time limit of a run of a script game (`--script-time`; `None`: no limit).
    script_time: Option<Duration>,
    /// When the script time limit passes, once a script game is loaded.
    script_deadline: OnceLock<Instant>,
    /// The token Ctrl-C cancels.
    interrupt: CancelToken,
    /// Installs the Ctrl-C handler on first use.
    handler: Once,
    /// Whether stderr is a terminal: progress bars and spinners are drawn only then.
    terminal: bool,
}

impl Settings {
    /// The settings of a run: the budget from `memory` (the `--memory` flag), else the
    /// environment variable `GRUNDY_MEMORY`, else [`default_memory`]; the script time limit
    /// from `script_seconds` (`--script-time`; 0: none) or [`DEFAULT_SCRIPT_SECONDS`]. A
    /// malformed size, or a `RAYON_NUM_THREADS` that is not a number of threads up to
    /// [`grundy::control::MAX_THREADS`], is a usage error naming where it came from.
    pub fn resolve(memory: Option<&str>, script_seconds: Option<u64>) -> Result<Self, CliError> {
        let size = |s: &str, from: &str| {
            parse_size(s).ok_or_else(|| {
                CliError::usage(format!(
                    "{from}: expected a size like 512M or 16G, found '{s}'"
                ))
            })
        };
        let limit = match memory {
            Some(s) => size(s, "--memory")?,
            None => match std::env::var("GRUNDY_MEMORY") {
                Ok(s) => size(&s, "GRUNDY_MEMORY")?,
                Err(_) => default_memory(),
            },
        };
        // Read before any parallel work, so that rayon never starts the pool of a malformed
        // or absurd count.
        grundy::control::thread_setting().map_err(|e| CliError::usage(e.to_string()))?;
        let seconds = script_seconds.unwrap_or(DEFAULT_SCRIPT_SECONDS);
        Ok(Settings {
            memory: MemoryBudget::new(limit),
            script_time: (seconds > 0).then(|| Duration::from_secs(seconds)),
            script_deadline: OnceLock::new(),
            interrupt: CancelToken::new(),
            handler: Once::new(),
            terminal: std::io::stderr().is_terminal(),
        })
    }

    /// The memory budget of every computation of the run.
    pub fn memory(&self) -> &MemoryBudget {
        &self.memory
    }

    /// The script time limit, if any.
    pub fn script_time(&self) -> Option<Duration> {
        self.script_time
    }

    /// Whether progress bars and spinners are drawn (stderr is a terminal).
    pub fn draws_progress(&self) -> bool {
        self.terminal
    }

    /// Starts the clock of the script time limit: every [`Control`] made afterwards stops at
    /// the deadline, and so does every call of the script watched with one. Called once a
    /// script game is loaded, so that the limit bounds the whole run of the command, every call
    /// included; later calls change nothing.
    pub fn start_script_clock(&self) {
        if let Some(t) = self.script_time {
            let _ = self.script_deadline.set(Instant::now() + t);
        }
    }

    /// A [`Control`] with the run's memory budget only (Ctrl-C keeps its default action).
    pub fn budgeted(&self) -> Control<'static> {
        Control::none().with_memory(self.memory.clone())
    }

    /// A [`Control`] stopped by Ctrl-C, without progress reports, drawing on the run's memory
    /// budget and, once a script game is loaded, stopped at the script time limit
    /// ([`Settings::start_script_clock`]).
    ///
    /// The first call takes Ctrl-C over, so only commands that compute do (`play` and `serve`
    /// keep the default handling). On Ctrl-C the token is cancelled, the computation returns
    /// `Error::Cancelled(_)` and the command ends with "interrupted" and status
    /// [`INTERRUPTED`]; should it still run after [`INTERRUPT_GRACE`] (or on a second Ctrl-C,
    /// [`SAME_INTERRUPT`] or more after the first),
    /// the process ends at once with the same message and status (unless the command saves its
    /// work when stopped: [`saves_on_interrupt`]). The handler owns a clone of
    /// the token: the operating system's handler is process-wide, the token is not.
    pub fn interruptible(&self) -> Control<'static> {
        self.handler.call_once(|| {
            let seen = self.interrupt.clone();
            // A handler that cannot be installed leaves Ctrl-C to the default action (the
            // process ends at once), which stops it too.
            let mut first: Option<Instant> = None;
            let _ = ctrlc::set_handler(move || {
                match first {
                    // The same stop delivered twice, as `timeout -s INT` does (to the
                    // command, then to its process group): not a second Ctrl-C.
                    Some(t) if t.elapsed() < SAME_INTERRUPT => return,
                    Some(_) => interrupted_exit(),
                    None => first = Some(Instant::now()),
                }
                seen.cancel();
                if SAVES_ON_INTERRUPT.load(Ordering::Relaxed) {
                    eprintln!(
                        "grundy: stopping: saving the search's table (Ctrl-C again ends at once, without saving)"
                    );
                    return;
                }
                std::thread::spawn(|| {
                    std::thread::sleep(INTERRUPT_GRACE);
                    interrupted_exit();
                });
            });
        });
        let ctl = self.budgeted().with_token(self.interrupt.clone());
        match self.script_deadline.get() {
            Some(&d) => ctl.with_deadline(d),
            None => ctl,
        }
    }

    /// A [`Control`] that reports to `report` (a progress bar's `set_position`) and is stopped
    /// as [`Settings::interruptible`] says.
    pub fn control<'a>(&self, report: ProgressFn<'a>) -> Control<'a> {
        self.interruptible().with_progress(report)
    }

    /// Whether Ctrl-C has been pressed during a computation.
    pub fn interrupted(&self) -> bool {
        self.interrupt.is_cancelled()
    }

    /// Starts the script clock if `game` is a script, then makes its script watch Ctrl-C and
    /// the deadline.
    pub fn watch_game(&self, game: &mut HeapGame) {
        if matches!(game.spec(), GameSpec::Script(_)) {
            self.start_script_clock();
        }
        game.watch(&self.interruptible());
    }
}

/// Whether the command saves its work when interrupted ([`saves_on_interrupt`]).
static SAVES_ON_INTERRUPT: AtomicBool = AtomicBool::new(false);

/// Tells the Ctrl-C handler that the command saves its work when stopped (a search's table
/// of gigabytes, written in seconds): it then waits for the save instead of ending the process
/// [`INTERRUPT_GRACE`] after Ctrl-C; a second Ctrl-C still ends it at once.
pub fn saves_on_interrupt() {
    SAVES_ON_INTERRUPT.store(true, Ordering::Relaxed);
}

fn interrupted_exit() -> ! {
    eprintln!("grundy: interrupted");
    std::process::exit(INTERRUPTED);
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

/// The budget when none is set: a quarter of the physical memory, or [`FALLBACK_MEMORY`] where
/// that cannot be read. A quarter leaves room for the rest of the machine and for what the
/// budget does not count (the program, buffers of fixed size, allocator slack).
pub fn default_memory() -> u64 {
    physical_memory().map_or(FALLBACK_MEMORY, |bytes| bytes / 4)
}

/// The physical memory in bytes: the number of pages times the page size (`sysconf`, one
/// system call; reading `/proc/meminfo` would cost more than the rest of a small command).
#[cfg(unix)]
fn physical_memory() -> Option<u64> {
    // SAFETY: `sysconf` reads a system figure and has no preconditions.
    let (pages, size) = unsafe {
        (
            libc::sysconf(libc::_SC_PHYS_PAGES),
            libc::sysconf(libc::_SC_PAGESIZE),
        )
    };
    let pages = u64::try_from(pages).ok().filter(|&p| p > 0)?;
    let size = u64::try_from(size).ok().filter(|&s| s > 0)?;
    pages.checked_mul(size)
}

/// The physical memory where no portable call gives it: unknown.
#[cfg(not(unix))]
fn physical_memory() -> Option<u64> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// The physical memory agrees with the kernel's `MemTotal` (which leaves out what the
    /// firmware keeps, so it is a little below the page count) and the default budget is a
    /// quarter of it.
    #[test]
    #[cfg(target_os = "linux")]
    fn physical_memory_agrees_with_meminfo() {
        let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap();
        let line = meminfo
            .lines()
            .find(|l| l.starts_with("MemTotal:"))
            .unwrap();
        let kib: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
        let bytes = physical_memory().unwrap();
        assert!(bytes >= kib * 1024, "{bytes} < {kib} KiB");
        assert!(bytes - kib * 1024 <= bytes / 8, "{bytes} vs {kib} KiB");
        assert_eq!(default_memory(), bytes / 4);
    }

    /// The flag wins over the default; a malformed flag names itself; the script clock starts
    /// once and bounds every control made after it, and 0 seconds means no limit.
    #[test]
    fn settings_are_resolved_once() {
        let s = Settings::resolve(Some("64M"), Some(5)).unwrap();
        assert_eq!(s.memory().limit(), 64 << 20);
        assert_eq!(s.budgeted().memory().limit(), 64 << 20);
        assert_eq!(s.script_time(), Some(Duration::from_secs(5)));
        assert!(s.budgeted().deadline().is_none());
        s.start_script_clock();
        let first = s.interruptible().deadline().unwrap();
        s.start_script_clock();
        assert_eq!(s.interruptible().deadline(), Some(first));
        assert!(!s.interrupted());
        match Settings::resolve(Some("lots"), None) {
            Err(CliError::Usage(m)) => assert!(m.starts_with("--memory"), "{m}"),
            other => panic!("expected a usage error, got {other:?}"),
        }
        let unlimited = Settings::resolve(Some("1G"), Some(0)).unwrap();
        unlimited.start_script_clock();
        assert!(unlimited.interruptible().deadline().is_none());
    }
}
