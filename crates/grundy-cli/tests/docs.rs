//! Every console example of `README.md` and `docs/*.md` is run here, so that none can drift from
//! what the binary prints.
//!
//! - ```` ```console ```` blocks are run by `trycmd`: `$ grundy ARGS` lines, then the expected
//!   output (stdout and stderr together), `? N` for an exit status other than 0, `...` for any
//!   lines and `[..]` for any part of a line.
//! - ```` ```shell-session ```` blocks hold commands that need a shell (pipes from `printf`,
//!   `cat`, `echo $?`). GitHub renders them like console blocks; `trycmd` skips them, and the test
//!   below runs each `$ ` line with `sh -c`, `grundy` first on the `PATH`, and compares the output
//!   exactly (`? N` as above).
//!
//! In both, the last line break of an expected output is for formatting only, so an output that
//! ends with a line break (nearly all) is followed by a blank line.
//!
//! Both run from the repository root, so the examples name files as a reader there would
//! (`docs/examples/cycle.txt`). Commands too slow for a test are in ```` ```sh ```` blocks, which
//! nothing runs.
//!
//! After an intended change of output, `TRYCMD=overwrite cargo test --release -p grundy-cli --test
//! docs` rewrites the console blocks with what the binary prints (review the diff); shell-session
//! blocks are edited by hand, from the printed failure.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the workspace root exists")
}

/// README.md and every page of docs/, in a fixed order.
fn pages() -> Vec<PathBuf> {
    let root = root();
    let mut pages = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/ exists")
        .map(|e| e.expect("a readable docs/ entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// An empty cache directory of this test run, so the examples neither read nor write the
/// user's caches (the `ordinal` commands keep one) and print the same on every machine.
/// Removed when dropped.
fn private_cache(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("grundy-docs-{name}-"))
        .tempdir()
        .expect("a writable temporary directory")
}

#[test]
fn console_blocks() {
    // trycmd runs each command in the process's working directory.
    std::env::set_current_dir(root()).expect("the workspace root is a directory");
    // Declared before the cases, which run when dropped: the directory outlives them.
    let cache = private_cache("console");
    let cases = trycmd::TestCases::new();
    cases.register_bin("grundy", Path::new(env!("CARGO_BIN_EXE_grundy")));
    cases.env(
        "XDG_CACHE_HOME",
        cache.path().to_string_lossy().into_owned(),
    );
    for page in pages() {
        cases.case(page);
    }
}

/// One `$ ` command of a shell-session block, where it stands, and what it must print.
struct Step {
    page: PathBuf,
    line: usize,
    command: String,
    status: i32,
    output: String,
}

/// The steps of every ```` ```shell-session ```` block of `text`.
fn shell_steps(page: &Path, text: &str) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    let mut inside = false;
    for (i, line) in text.lines().enumerate() {
        if !inside {
            inside = line.trim_end() == "```shell-session";
            continue;
        }
        if line.starts_with("```") {
            inside = false;
        } else if let Some(command) = line.strip_prefix("$ ") {
            steps.push(Step {
                page: page.to_path_buf(),
                line: i + 1,
                command: command.to_string(),
                status: 0,
                output: String::new(),
            });
        } else {
            let step = steps.last_mut().unwrap_or_else(|| {
                panic!(
                    "{}:{}: a shell-session block must open with a `$ ` line",
                    page.display(),
                    i + 1
                )
            });
            match line.strip_prefix("? ") {
                Some(code) if step.output.is_empty() => {
                    step.status = code.trim().parse().unwrap_or_else(|_| {
                        panic!("{}:{}: `? N` needs a number", page.display(), i + 1)
                    })
                }
                _ => {
                    step.output.push_str(line);
                    step.output.push('\n');
                }
            }
        }
    }
    assert!(
        !inside,
        "{}: a shell-session block is not closed",
        page.display()
    );
    steps
}

#[test]
fn shell_session_blocks() {
    let root = root();
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_grundy"))
        .parent()
        .expect("the binary has a directory")
        .to_path_buf();
    let mut path = vec![bin_dir];
    if let Some(old) = std::env::var_os("PATH") {
        path.extend(std::env::split_paths(&old));
    }
    let path = std::env::join_paths(path).expect("PATH entries without separators");

    let cache = private_cache("shell");
    let mut failures = Vec::new();
    let mut count = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).expect("a readable page");
        for mut step in shell_steps(&page, &text) {
            count += 1;
            // As in trycmd, the line break closing the last output line is for formatting only:
            // an output ending in a line break is written with a blank line after it.
            if step.output.ends_with('\n') {
                step.output.pop();
            }
            let out = Command::new("sh")
                .arg("-c")
                .arg(format!("exec 2>&1\n{}", step.command))
                .current_dir(&root)
                .env("PATH", &path)
                .env("XDG_CACHE_HOME", cache.path())
                .stdin(Stdio::null())
                .output()
                .expect("sh runs");
            let output = String::from_utf8_lossy(&out.stdout);
            let status = out.status.code().unwrap_or(-1);
            if output != step.output || status != step.status {
                failures.push(format!(
                    "{}:{}: $ {}\n--- expected (status {}) ---\n{}--- printed (status {}) ---\n{}",
                    step.page.display(),
                    step.line,
                    step.command,
                    step.status,
                    step.output,
                    status,
                    output
                ));
            }
        }
    }
    assert!(count > 0, "no shell-session example was found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Phrases that tell the history of the project or of where a page was written, not what it is
/// (`tests/history-phrases.txt`, one a line; `#` starts a comment line).
fn history_phrases() -> Vec<String> {
    include_str!("history-phrases.txt")
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// The README and the guide speak of the project as it is.
#[test]
fn pages_tell_no_history() {
    let phrases = history_phrases();
    assert!(phrases.len() >= 10, "{phrases:?}");
    let mut found = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).expect("a readable page");
        for (i, line) in text.lines().enumerate() {
            let lower = line.to_lowercase();
            for phrase in phrases.iter().filter(|p| lower.contains(p.as_str())) {
                found.push(format!("{}:{}: {phrase:?}: {line}", page.display(), i + 1));
            }
        }
    }
    assert!(found.is_empty(), "history words:\n{}", found.join("\n"));
}
