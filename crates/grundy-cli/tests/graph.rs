//! `grundy graph solve` and `grundy graph dot`: outputs per the specification, and every kind of
//! bad input (exit status 2 with line and column; 3 for the memory limit).

use assert_cmd::Command;
use predicates::str::contains;

fn grundy() -> Command {
    Command::cargo_bin("grundy").unwrap()
}

const CYCLE: &str = "# a→b→c→a with c→d→e\na: b\nb: c\nc: a d\nd: e\n";

fn solve_stdin(args: &[&str], input: &str) -> assert_cmd::assert::Assert {
    let mut all = vec!["graph", "solve", "-"];
    all.extend_from_slice(args);
    grundy().args(all).write_stdin(input).assert()
}

#[test]
fn solve_prints_outcome_remoteness_and_value_in_order_of_appearance() {
    solve_stdin(&[], CYCLE)
        .success()
        .stdout("a D - inf{}\nb D - inf{}\nc D - inf{1}\nd N 1 1\ne P 0 0\n");
    // Self-loops: a lone one is a draw; one with an exit to a terminal vertex is N.
    solve_stdin(&[], "x: x\ny: y z\n")
        .success()
        .stdout("x D - inf{}\ny N 1 inf{0}\nz P 0 0\n");
    // Nim heaps 0..3 as a graph have their size.
    solve_stdin(&[], "h3: h2 h1 h0\nh2: h1 h0\nh1: h0\n")
        .success()
        .stdout("h3 N 1 3\nh2 N 1 2\nh1 N 1 1\nh0 P 0 0\n");
}

#[test]
fn solve_from_a_file_and_misere() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("cycle.txt");
    std::fs::write(&path, CYCLE).unwrap();
    grundy()
        .args(["graph", "solve", "--misere", path.to_str().unwrap()])
        .assert()
        .success()
        .stdout("a N 4 -\nb P 3 -\nc N 2 -\nd P 1 -\ne N 0 -\n");
}

#[test]
fn solve_json_has_exactly_the_specified_fields() {
    let out = solve_stdin(&["--json"], CYCLE)
        .success()
        .get_output()
        .stdout
        .clone();
    let doc: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let vs = doc["vertices"].as_array().unwrap();
    assert_eq!(doc.as_object().unwrap().len(), 1);
    assert_eq!(vs.len(), 5);
    assert_eq!(
        vs[2],
        serde_json::json!({"name": "c", "outcome": "D", "remoteness": null, "value": null, "infinite_options": [1]})
    );
    assert_eq!(
        vs[3],
        serde_json::json!({"name": "d", "outcome": "N", "remoteness": 1, "value": 1, "infinite_options": null})
    );
    let out = solve_stdin(&["--json", "--misere"], CYCLE)
        .success()
        .get_output()
        .stdout
        .clone();
    let doc: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(
        doc["vertices"][0],
        serde_json::json!({"name": "a", "outcome": "N", "remoteness": 4, "value": null, "infinite_options": null})
    );
}

#[test]
fn empty_input_gives_empty_output() {
    solve_stdin(&[], "").success().stdout("");
    solve_stdin(&[], "# only a comment\n\n")
        .success()
        .stdout("");
    solve_stdin(&["--json"], "")
        .success()
        .stdout("{\"vertices\":[]}\n");
}

#[test]
fn edges_format_names_vertices_by_their_ids() {
    solve_stdin(&["--edges"], "10 20\n20 30\n30 10\n30 40\n40 50\n")
        .success()
        .stdout("10 D - inf{}\n20 D - inf{}\n30 D - inf{1}\n40 N 1 1\n50 P 0 0\n");
}

#[test]
fn dot_colours_vertices_by_outcome() {
    let out = grundy()
        .args(["graph", "dot", "-"])
        .write_stdin(CYCLE)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let dot = String::from_utf8(out).unwrap();
    assert!(dot.starts_with("digraph game {\n"), "{dot}");
    assert!(dot.contains("\"a\" [fillcolor=grey"), "{dot}");
    assert!(dot.contains("\"d\" [fillcolor=blue"), "{dot}");
    assert!(dot.contains("\"e\" [fillcolor=red"), "{dot}");
    assert!(dot.contains("\"c\" -> \"d\";"), "{dot}");
    assert!(dot.trim_end().ends_with('}'));
    // Misère recolours: e is N (blue), d is P (red).
    grundy()
        .args(["graph", "dot", "--misere", "-"])
        .write_stdin(CYCLE)
        .assert()
        .success()
        .stdout(contains("\"e\" [fillcolor=blue").and(contains("\"d\" [fillcolor=red")));
}

use predicates::prelude::PredicateBooleanExt;

fn bad(args: &[&str], input: &[u8], message: &str) {
    let mut all = vec!["graph", "solve", "-"];
    all.extend_from_slice(args);
    grundy()
        .args(all)
        .write_stdin(input)
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains(message));
}

#[test]
fn bad_graph_files_exit_2_with_line_and_column() {
    bad(&[], b"a: b\nb c\n", "line 2, column 3: expected ':'");
    bad(
        &[],
        b"a: b$ c\n",
        "line 1, column 5: expected a vertex name",
    );
    bad(
        &[],
        b"a: b\n*x: y\n",
        "line 2, column 1: expected a vertex name",
    );
    bad(
        &[],
        b"a: b\nb: a\na: c\n",
        "line 3, column 1: vertex 'a' is listed twice",
    );
    bad(
        &[],
        b"a: b\nb: \xc3\x28\n",
        "line 2, column 4: invalid UTF-8",
    );
    bad(
        &["--edges"],
        b"1 2\n2 x\n",
        "line 2, column 3: expected a vertex id",
    );
    bad(
        &["--edges"],
        b"1 -2\n",
        "line 1, column 3: expected a vertex id",
    );
    bad(
        &["--edges"],
        b"1 99999999999999999999\n",
        "line 1, column 3",
    );
    bad(
        &["--edges"],
        b"1 2 3\n",
        "line 1, column 5: expected the end of the line",
    );
    bad(
        &["--edges"],
        b"1\n",
        "line 1, column 2: expected two vertex ids",
    );
    bad(
        &["--edges"],
        b"a: b\n",
        "line 1, column 1: expected a vertex id",
    );
}

#[test]
fn bad_arguments_exit_2_and_the_memory_limit_exits_3() {
    grundy()
        .args(["graph", "solve", "/nonexistent/graph.txt"])
        .assert()
        .code(2)
        .stderr(contains("cannot read '/nonexistent/graph.txt'"));
    grundy()
        .args(["graph", "solve", "-", "--memory", "lots"])
        .write_stdin(CYCLE)
        .assert()
        .code(2)
        .stderr(contains("--memory"));
    grundy()
        .args(["graph", "solve", "-", "--memory", "100"])
        .write_stdin(CYCLE)
        .assert()
        .code(3)
        .stderr(
            contains("memory limit")
                .and(contains("use a smaller graph; or raise it with --memory")),
        );
    grundy().args(["graph", "dot"]).assert().code(2);
    // The environment variable sets the budget when the flag is absent; the flag wins.
    grundy()
        .args(["graph", "dot", "-"])
        .env("GRUNDY_MEMORY", "100")
        .write_stdin(CYCLE)
        .assert()
        .code(3)
        .stderr(contains("memory limit").and(contains("GRUNDY_MEMORY")));
    grundy()
        .args(["graph", "solve", "-"])
        .env("GRUNDY_MEMORY", "plenty")
        .write_stdin(CYCLE)
        .assert()
        .code(2)
        .stderr(contains("GRUNDY_MEMORY"));
    // The streamed arc-list reader checks the budget before taking memory for arcs.
    grundy()
        .args(["graph", "solve", "--edges", "-", "--memory", "100"])
        .write_stdin("1 2\n2 3\n")
        .assert()
        .code(3)
        .stderr(contains("reading the graph needs").and(contains("100 B memory limit")));
    // The limit reported is the one set, though the text held takes part of it.
    for memory in ["10", "100"] {
        grundy()
            .args(["graph", "solve", "-", "--memory", memory])
            .write_stdin(CYCLE)
            .assert()
            .code(3)
            .stderr(contains(format!("the {memory} B memory limit")).and(contains("--memory")));
    }
    grundy()
        .args(["graph", "solve", "-", "--memory", "64M"])
        .env("GRUNDY_MEMORY", "100")
        .write_stdin(CYCLE)
        .assert()
        .success();
}

#[test]
fn help_shows_examples() {
    grundy()
        .args(["graph", "solve", "--help"])
        .assert()
        .success()
        .stdout(contains("Example").and(contains("grundy graph solve")));
    grundy()
        .args(["graph", "dot", "--help"])
        .assert()
        .success()
        .stdout(contains("grundy graph dot"));
}

/// The 64-bit id path (taken beyond 2^31 vertices or arcs, forced here on a small graph by a
/// hidden flag) prints exactly what the 32-bit path prints, and budgets 8-byte words.
#[test]
fn wide_ids_give_the_same_output_and_count_8_byte_words() {
    let text = "a: b\nb: c\nc: a d\nd: e\nx: x y\ny: z\n";
    for args in [
        &["graph", "solve", "-"][..],
        &["graph", "solve", "-", "--json"],
        &["graph", "solve", "-", "--misere"],
        &["graph", "dot", "-"],
    ] {
        let narrow = grundy().args(args).write_stdin(text).output().unwrap();
        let wide = grundy()
            .args(args)
            .arg("--wide-ids")
            .write_stdin(text)
            .output()
            .unwrap();
        assert!(narrow.status.success() && wide.status.success());
        assert!(!narrow.stdout.is_empty());
        assert_eq!(narrow.stdout, wide.stdout, "{args:?}");
    }
    // 8 vertices, 8 arcs: reading with 32-bit ids needs 720 bytes beside the text, with 64-bit
    // ids 920 (id map values, arc lists and the graph in 8-byte words); the message counts the
    // text in.
    grundy()
        .args(["graph", "solve", "-", "--memory", "900"])
        .write_stdin(text)
        .assert()
        .success();
    grundy()
        .args(["graph", "solve", "-", "--memory", "900", "--wide-ids"])
        .write_stdin(text)
        .assert()
        .code(3)
        .stderr(contains(format!(
            "reading the graph needs more than {} B (its text included), above the 900 B",
            920 + text.len()
        )));
}

/// Arc lists read with 64-bit ids (from a file or standard input) print what the 32-bit read
/// prints.
#[test]
fn wide_ids_read_arc_lists_the_same() {
    let text = "0 1\n1 2\n2 0\n2 3\n7 7\n7 3\n0x10 7\n";
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let file = dir.join("arcs.txt");
    std::fs::write(&file, text).unwrap();
    let file = file.to_str().unwrap();
    for extra in [&[][..], &["--json"], &["--misere"]] {
        let narrow = grundy()
            .args(["graph", "solve", "--edges", file])
            .args(extra)
            .output()
            .unwrap();
        assert!(narrow.status.success() && !narrow.stdout.is_empty());
        let wide_file = grundy()
            .args(["graph", "solve", "--edges", "--wide-ids", file])
            .args(extra)
            .output()
            .unwrap();
        let wide_stdin = grundy()
            .args(["graph", "solve", "--edges", "--wide-ids", "-"])
            .args(extra)
            .write_stdin(text)
            .output()
            .unwrap();
        assert_eq!(narrow.stdout, wide_file.stdout, "{extra:?}");
        assert_eq!(narrow.stdout, wide_stdin.stdout, "{extra:?}");
    }
}
