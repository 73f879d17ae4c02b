//! `grundy solve`: games given by their rules. Expected values are worked out by hand in the
//! comments (or are theorems), not copied from the program.

mod common;

use common::{fails, grundy, json_of, temp};
use predicates::str::contains;

#[test]
fn one_row_cram_is_dawsons_kayles_with_its_winning_move() {
    // 1×4: the dominoes leave 1×2 (value 1), two single cells (0) or 1×2: mex {1, 0} = 2, and
    // the middle domino is the one winning move.
    grundy()
        .args(["solve", "cram:1x4", "--moves"])
        .assert()
        .success()
        .stdout("N\nvalue 2\n(1,2)-(1,3): cram:.##.\n");
    // An even × even board is P (the second player mirrors through the centre).
    grundy()
        .args(["solve", "cram:2x2"])
        .assert()
        .success()
        .stdout("P\nvalue 0\n");
    grundy()
        .args(["solve", "cram:../.."])
        .assert()
        .success()
        .stdout("P\nvalue 0\n");
}

#[test]
fn chomp_two_by_two() {
    // 2×2: taking (1,2) or (2,1) leaves a 2-cell line (value 1); taking (2,2) leaves rows 2,1,
    // whose two options are 2-cell lines: value 0. So the value is mex {1, 1, 0} = 2.
    grundy()
        .args(["solve", "chomp:2x2", "--moves"])
        .assert()
        .success()
        .stdout("N\nvalue 2\n(2,2): chomp:2,1\n");
    grundy()
        .args(["solve", "chomp:1"])
        .assert()
        .success()
        .stdout("P\nvalue 0\n");
}

#[test]
fn node_kayles_and_wythoff() {
    // A path of 3: the middle vertex takes everything (value 0), an end leaves one vertex (1).
    grundy()
        .args(["solve", "node-kayles:path:3", "--moves"])
        .assert()
        .success()
        .stdout("N\nvalue 2\n2: {}\n");
    // (1, 2) is the first Beatty pair (⌊φ⌋, ⌊φ²⌋).
    grundy()
        .args(["solve", "wythoff:2,1"])
        .assert()
        .success()
        .stdout("P\nvalue 0\n");
    // A triangle (every move empties it: value 1) and a lone vertex (value 1): 1 ⊕ 1 = 0.
    let file = temp("triangle.txt", "a: b c\nb: c\nd:\n");
    grundy()
        .args([
            "solve",
            &format!("node-kayles:{}", file.display()),
            "--moves",
        ])
        .assert()
        .success()
        .stdout("P\nvalue 0\n");
    let _ = std::fs::remove_file(file);
}

#[test]
fn misere_prints_the_outcome_only() {
    // 1×2 under misère play: the one move hands the opponent a position without moves, which
    // the opponent wins.
    grundy()
        .args(["solve", "cram:1x2", "--misere"])
        .assert()
        .success()
        .stdout("P\n");
    // 1×4: the middle domino leaves two lone cells, where the opponent cannot move and so
    // wins; an end domino leaves 1×2, a misère P-position: N, won by the end dominoes.
    grundy()
        .args(["solve", "cram:1x4", "--misere", "--moves"])
        .assert()
        .success()
        .stdout("N\n(1,1)-(1,2): cram:##..\n(1,3)-(1,4): cram:..##\n");
}

#[test]
fn json_document() {
    let v = json_of(&["solve", "cram:1x4", "--moves", "--json"]);
    assert_eq!(v["game"], "cram:1x4");
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["value"], 2);
    assert_eq!(v["winning_moves"][0]["move"], "(1,2)-(1,3)");
    assert_eq!(v["winning_moves"][0]["after"], "cram:.##.");
    // A strip is answered from its heap game (Dawson's Kayles) without a search; a board of two
    // rows is searched, and the statistics count its positions.
    assert_eq!(v["stats"]["positions"], 0);
    let v = json_of(&["solve", "cram:2x3", "--json"]);
    assert!(v["stats"]["positions"].as_u64().unwrap() > 0);
    let v = json_of(&["solve", "cram:1x2", "--misere", "--json"]);
    assert_eq!(v["value"], serde_json::Value::Null);
    assert_eq!(v["outcome"], "P");
}

#[test]
fn verbose_prints_statistics_on_stderr() {
    grundy()
        .args(["solve", "cram:3x3", "-v"])
        .assert()
        .success()
        .stderr(contains("positions searched").and(contains("table hits")));
}

#[test]
fn verbose_names_the_method_chosen() {
    grundy()
        .args(["solve", "wythoff:60,60", "-v"])
        .assert()
        .success()
        .stdout("N\nvalue 87\n")
        .stderr(contains("method: mex table"));
    grundy()
        .args(["solve", "cram:3x3", "-v"])
        .assert()
        .success()
        .stderr(contains("method: the Cram engine"));
}

use predicates::prelude::PredicateBooleanExt;

#[test]
fn bad_notation_is_exit_2_with_the_column() {
    fails(&["solve", "cram:..x"], 2, &["column 8"]);
    grundy()
        .args(["solve", "chomp:3,4"])
        .assert()
        .code(2)
        .stderr(contains("column 9").and(contains("no longer than")));
    fails(&["solve", "draughts:3"], 2, &["column 1"]);
    grundy()
        .args(["solve", "node-kayles:/nonexistent/graph.txt"])
        .assert()
        .code(2);
}

#[test]
fn a_tiny_memory_budget_is_exit_3_naming_memory() {
    grundy()
        .args(["solve", "cram:5x5", "--no-cache", "--memory", "1K"])
        .assert()
        .code(3)
        .stderr(contains("transposition table").and(contains("--memory")));
    grundy()
        .args(["solve", "cram:2x2", "--memory", "lots"])
        .assert()
        .code(2);
}

#[test]
fn a_huge_cram_board_stops_at_the_memory_budget() {
    grundy()
        .args(["solve", "cram:64x64", "--no-cache"])
        .env("GRUNDY_MEMORY", "1G")
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(3)
        .stderr(contains("--memory"));
}

#[test]
fn rules_in_a_script() {
    // Nim on arrays of heaps, split into heaps: 3 ⊕ 4 ⊕ 5 = 2.
    let script = temp(
        "nim.rhai",
        "fn start() { [3, 4, 5] }\n\
         fn moves(p) { let out = []; for i in 0..p.len() { for k in 0..p[i] { let q = p; q[i] = k; out.push(q); } } out }\n\
         fn split(p) { let out = []; for h in p { out.push([h]); } out }\n\
         fn canonical(p) { let q = p; q.sort(); q }\n",
    );
    grundy()
        .args(["solve", &format!("rules:{}", script.display())])
        .assert()
        .success()
        .stdout("N\nvalue 2\n");
    let bad = temp("bad.rhai", "fn start() { 0 }\n");
    fails(
        &["solve", &format!("rules:{}", bad.display())],
        2,
        &["fn moves(p)"],
    );
    let _ = std::fs::remove_file(script);
    let _ = std::fs::remove_file(bad);
}
