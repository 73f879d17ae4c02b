//! Every command and nested subcommand documents itself with at least one example: the test
//! walks the whole command tree through `grundy PATH --help` (the `Commands:` sections) and
//! fails on any help without "Example".

use assert_cmd::Command;

fn help(path: &[String]) -> String {
    let out = Command::cargo_bin("grundy")
        .unwrap()
        .args(path)
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success(), "grundy {} --help", path.join(" "));
    String::from_utf8(out.stdout).unwrap()
}

/// The subcommands listed in a help text (clap's own `help` left out).
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

#[test]
fn every_command_has_an_example() {
    let mut todo: Vec<Vec<String>> = vec![Vec::new()];
    let mut seen = 0;
    let mut missing = Vec::new();
    while let Some(path) = todo.pop() {
        let text = help(&path);
        seen += 1;
        if !text.contains("Example") {
            missing.push(format!("grundy {}", path.join(" ")));
        }
        for sub in subcommands(&text) {
            let mut p = path.clone();
            p.push(sub);
            todo.push(p);
        }
    }
    // The tree has the SPEC's commands: at least nimber (10), graph (2), ordinal (14), the heap
    // commands and the top level.
    assert!(seen >= 35, "only {seen} commands found");
    assert!(missing.is_empty(), "no example in: {missing:?}");
}

#[test]
fn every_example_names_grundy() {
    // An example is a real command line: each help's example block runs `grundy ...`.
    let top = help(&[]);
    for sub in subcommands(&top) {
        let text = help(std::slice::from_ref(&sub));
        let block = &text[text.find("Example").unwrap_or(0)..];
        assert!(block.contains("grundy "), "grundy {sub} --help: {block}");
    }
}
