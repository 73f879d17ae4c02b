//! The whole `grundy` command tree, read from the binary's own help texts: every command path
//! with its `--help` output, found through the `Commands:` sections (clap's `help` left out).

use assert_cmd::Command;

/// `grundy PATH --help` (which must succeed).
pub fn help(path: &[String]) -> String {
    let out = Command::cargo_bin("grundy")
        .unwrap()
        .args(path)
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success(), "grundy {} --help", path.join(" "));
    String::from_utf8(out.stdout).unwrap()
}

/// The subcommands listed in a help text.
pub fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

/// Every command path (the top level is the empty path) with its help text.
pub fn tree() -> Vec<(Vec<String>, String)> {
    let mut todo: Vec<Vec<String>> = vec![Vec::new()];
    let mut all = Vec::new();
    while let Some(path) = todo.pop() {
        let text = help(&path);
        for sub in subcommands(&text) {
            let mut p = path.clone();
            p.push(sub);
            todo.push(p);
        }
        all.push((path, text));
    }
    all
}
