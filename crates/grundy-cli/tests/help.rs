//! Every command and nested subcommand documents itself with at least one example: the test
//! walks the whole command tree through `grundy PATH --help` (the `Commands:` sections) and
//! fails on any help without "Example".

mod cli_tree;

#[test]
fn every_command_has_an_example() {
    let tree = cli_tree::tree();
    // The tree has the SPEC's commands: at least nimber (10), graph (2), ordinal (14), the heap
    // commands and the top level.
    assert!(tree.len() >= 35, "only {} commands found", tree.len());
    let missing: Vec<String> = tree
        .iter()
        .filter(|(_, text)| !text.contains("Example"))
        .map(|(path, _)| format!("grundy {}", path.join(" ")))
        .collect();
    assert!(missing.is_empty(), "no example in: {missing:?}");
}

#[test]
fn every_example_is_a_grundy_command_line() {
    for (path, text) in cli_tree::tree() {
        let block = &text[text.find("Example").unwrap_or(0)..];
        assert!(
            block.contains("grundy "),
            "grundy {} --help: {block}",
            path.join(" ")
        );
    }
}

/// Splits a command line into words, honouring single quotes (as the examples use them).
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mut word, mut quoted, mut any) = (String::new(), false, false);
    for c in line.chars() {
        match c {
            '\'' => (quoted, any) = (!quoted, true),
            c if c.is_whitespace() && !quoted => {
                if any {
                    out.push(std::mem::take(&mut word));
                }
                any = false;
            }
            c => {
                word.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(word);
    }
    out
}

/// A stated answer worth checking: a number, `none`, an ordinal, or a comparison sign.
fn is_value(token: &str) -> bool {
    token == "none"
        || ["<", "=", ">"].contains(&token)
        || (!token.is_empty()
            && token
                .chars()
                .all(|c| c.is_ascii_digit() || "w^*+()".contains(c)))
}

/// The examples of one help text with what they say the command prints: from `grundy ARGS  #
/// ANSWER ...` or `grundy ARGS  prints ANSWER`, the first word of the answer when it is a value;
/// from lines printed under an example, those lines.
fn stated_outputs(help: &str) -> Vec<(Vec<String>, Vec<String>)> {
    let mut found: Vec<(Vec<String>, Vec<String>)> = Vec::new();
    let mut open = false; // the last line was an example whose output may follow
    for line in help[help.find("Example").unwrap_or(help.len())..].lines() {
        let text = line.trim();
        if text.is_empty() {
            open = false;
            continue;
        }
        if let Some(command) = text.strip_prefix("grundy ") {
            let (args, answer) = match (command.find(" # "), command.find(" prints ")) {
                (Some(i), _) => (&command[..i], Some(&command[i + 3..])),
                (None, Some(i)) => (&command[..i], Some(&command[i + 8..])),
                (None, None) => (command, None),
            };
            if args.contains(['|', '>', ';', '$', '~']) {
                open = false;
                continue;
            }
            let mut expected = Vec::new();
            if let Some(answer) = answer {
                let token = answer
                    .split_whitespace()
                    .next()
                    .unwrap_or("")
                    .trim_end_matches([',', ':']);
                if is_value(token) {
                    expected.push(token.to_string());
                }
            }
            found.push((words(args), expected));
            open = answer.is_none();
        } else if text.contains("grundy ") {
            // Another example (a pipe into grundy): not output.
            open = false;
        } else if open && line.starts_with("  ") {
            // An output line, or `prints ANSWER` on the line below the example.
            let output = match text.strip_prefix("prints ") {
                Some(answer) => answer.split_whitespace().next().unwrap_or(""),
                None => text,
            };
            if let Some(last) = found.last_mut() {
                last.1.push(output.to_string());
            }
        } else {
            open = false;
        }
    }
    found.retain(|(_, expected)| !expected.is_empty());
    found
}

#[test]
fn examples_print_what_the_help_says() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("help-examples");
    std::fs::create_dir_all(&dir).unwrap();
    let mut checked = 0;
    for (path, text) in cli_tree::tree() {
        for (args, expected) in stated_outputs(&text) {
            // The ordinal field commands would read and write the user's excess cache.
            let field = args[0] == "ordinal"
                && ["nim-mul", "nim-inv", "nim-pow", "excess"].contains(&args[1].as_str());
            let out = assert_cmd::Command::cargo_bin("grundy")
                .unwrap()
                .args(&args)
                .args(field.then_some("--no-cache"))
                .current_dir(&dir)
                .output()
                .unwrap();
            let stdout = String::from_utf8_lossy(&out.stdout);
            let lines: Vec<&str> = stdout.lines().collect();
            for e in &expected {
                assert!(
                    lines.contains(&e.as_str()),
                    "grundy {} --help: `grundy {}` should print {e:?}, prints {stdout:?}",
                    path.join(" "),
                    args.join(" ")
                );
            }
            checked += 1;
        }
    }
    assert!(
        checked >= 25,
        "only {checked} examples with a stated output"
    );
}
