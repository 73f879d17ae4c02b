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
