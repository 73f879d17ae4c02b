//! `grundy seq` and `grundy position`: exact SPEC formats and every bad-input case.

mod common;

use common::{fails, grundy, json_of};
use predicates::str::contains;

#[test]
fn seq_prints_one_line() {
    grundy()
        .args(["seq", "kayles", "-n", "12"])
        .assert()
        .success()
        .stdout("0 1 2 3 1 4 3 2 1 4 2 6\n");
    grundy()
        .args(["seq", "grundys-game", "-n", "0x8"])
        .assert()
        .success()
        .stdout("0 0 0 1 0 2 1 0\n");
    grundy()
        .args(["seq", "squares", "-n", "10"])
        .assert()
        .success()
        .stdout("0 1 0 1 2 0 1 0 1 2\n");
    grundy()
        .args(["seq", "divide:2,3", "-n", "6"])
        .assert()
        .success()
        .stdout("0 1 2 0 0 0\n");
    grundy()
        .args(["seq", "nim", "-n", "0"])
        .assert()
        .success()
        .stdout("\n");
}

#[test]
fn seq_json() {
    let v = json_of(&["seq", "octal:0.137", "-n", "8", "--json"]);
    assert_eq!(
        v,
        serde_json::json!({"game": "octal:0.137", "values": [0, 1, 1, 2, 0, 3, 1, 1]})
    );
}

#[test]
fn seq_script() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let good = dir.join("floor.rhai");
    std::fs::write(
        &good,
        "// options of heap n: floor(n/d) for d = 2..6\n\
         fn options(n) { let r = []; for d in 2..=6 { r.push([n / d]); } r }\n",
    )
    .unwrap();
    let want = grundy()
        .args(["seq", "divide:2,3,4,5,6", "-n", "100"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    grundy()
        .args(["seq", &format!("script:{}", good.display()), "-n", "100"])
        .assert()
        .success()
        .stdout(want);
    let hang = dir.join("hang.rhai");
    std::fs::write(&hang, "fn options(n) { loop { } }").unwrap();
    fails(
        &["seq", &format!("script:{}", hang.display()), "-n", "5"],
        2,
        &["options(1)"],
    );
    let bad = dir.join("bad.rhai");
    std::fs::write(&bad, "fn options(n) { [[n + 1]] }").unwrap();
    fails(
        &["seq", &format!("script:{}", bad.display()), "-n", "5"],
        2,
        &["heap 2"],
    );
    let syntax = dir.join("syntax.rhai");
    std::fs::write(&syntax, "fn options(n) {").unwrap();
    fails(
        &["seq", &format!("script:{}", syntax.display()), "-n", "5"],
        2,
        &["syntax.rhai"],
    );
    fails(
        &[
            "seq",
            &format!("script:{}", dir.join("none.rhai").display()),
            "-n",
            "5",
        ],
        2,
        &["cannot read"],
    );
}

#[test]
fn seq_bad_input() {
    for (game, column, what) in [
        ("octal:0.1x7", "column 10", "octal/hex digit"),
        ("octal:1.07", "column 7", "d0"),
        ("sub:1,,3", "column 7", "positive integer"),
        ("sub:5-3", "column 7", "range end"),
        ("sub:0", "column 5", "positive integer"),
        ("sub:99999999999999999999", "column 5", "2^64"),
        ("divide:1", "column 8", "divisor >= 2"),
        ("chess", "column 1", "unknown game"),
    ] {
        grundy()
            .args(["seq", game, "-n", "5"])
            .assert()
            .code(2)
            .stdout("")
            .stderr(contains(format!("GAME, {column}")))
            .stderr(contains(what));
    }
    fails(&["seq", "kayles", "-n", "12x"], 2, &["-n, column 3"]);
    fails(&["seq", "kayles"], 2, &["-n"]);
    fails(&["seq", "kayles", "-n", "3000000000"], 3, &["limit"]);
    fails(&["seq", "octal:0.8", "-n", "100001"], 3, &["three heaps"]);
}

#[test]
fn position_text() {
    grundy()
        .args(["position", "nim", "1", "2", "3"])
        .assert()
        .success()
        .stdout("P\n");
    grundy()
        .args(["position", "kayles", "3", "5", "6"])
        .assert()
        .success()
        .stdout("N\nheap 2: 5 -> 2 2\n");
    grundy()
        .args(["position", "octal:0.1", "1", "1", "1"])
        .assert()
        .success()
        .stdout("N\nheap 1: 1 ->\nheap 2: 1 ->\nheap 3: 1 ->\n");
    grundy()
        .args(["position", "nim", "3", "5"])
        .assert()
        .success()
        .stdout("N\nheap 2: 5 -> 3\n");
}

#[test]
fn position_json_and_misere() {
    let out = grundy()
        .args(["position", "nim", "3", "5", "--json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "{\"outcome\":\"N\",\"nim_sum\":6,\"winning_moves\":[{\"heap\":2,\"from\":5,\"to\":[3]}]}\n"
    );
    // Misère Nim with heaps 1 1 2: take the 2-heap down to 1 (three 1-heaps, odd).
    grundy()
        .args(["position", "nim", "1", "1", "2", "--misere", "--json"])
        .assert()
        .success()
        .stdout(
            "{\"outcome\":\"N\",\"nim_sum\":null,\"winning_moves\":[{\"heap\":3,\"from\":2,\"to\":[1]}]}\n",
        );
    // Misère Kayles: a single heap of 1 is lost for the player to move (who must take it).
    grundy()
        .args(["position", "kayles", "1", "--misere"])
        .assert()
        .success()
        .stdout("P\n");
    grundy()
        .args(["position", "kayles", "2", "--misere"])
        .assert()
        .success()
        .stdout("N\nheap 1: 2 -> 1\n");
}

#[test]
fn position_bad_input_and_limits() {
    fails(&["position", "kayles", "3", "x5"], 2, &["heap 2, column 1"]);
    fails(&["position", "kayles"], 2, &["HEAP"]);
    fails(&["position", "octal:0.1x", "3"], 2, &["GAME, column 10"]);
    // Kayles' value of 10^9 comes from its proved period, but its options are too many to
    // list the winning moves from.
    fails(
        &["position", "kayles", "1000000000"],
        3,
        &["options to list winning moves from"],
    );
    // Kayles is answered through its quotient; Dawson's Kayles past heap 24 has none built for
    // positions, and the search of these sums reaches its limit.
    grundy()
        .args(["position", "kayles", "30", "31", "32", "33", "--misere"])
        .assert()
        .success()
        .stderr(contains("misère quotient"));
    fails(
        &[
            "position",
            "dawsons-kayles",
            "30",
            "31",
            "32",
            "33",
            "--misere",
        ],
        3,
        &["misère search"],
    );
    fails(&["position", "nim", "1e5"], 2, &["heap 1"]);
}

#[test]
fn position_takes_heaps_of_any_size_where_the_game_allows() {
    // Nim: G(n) = n for any n; the winning move from 2^70 and 1 leaves 1 and 1.
    grundy()
        .args(["position", "nim", "1180591620717411303424", "1"])
        .assert()
        .success()
        .stdout("N\nheap 1: 1180591620717411303424 -> 1\n");
    let out = grundy()
        .args(["position", "nim", "1180591620717411303424", "3", "--json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("\"nim_sum\":1180591620717411303427"),
        "{text}"
    );
    // sub:1,3,4 from the definition: period 7 from 0 (checked here on 100 values), so a heap
    // of 10^23 has the value of its residue, and the winning moves are the s in S leaving value 0.
    let set = [1usize, 3, 4];
    let mut g = vec![0usize; 100];
    for n in 0..100 {
        let options: Vec<usize> = set.iter().filter(|&&s| s <= n).map(|&s| g[n - s]).collect();
        g[n] = (0..).find(|v| !options.contains(v)).unwrap();
    }
    assert!((7..100).all(|n| g[n] == g[n - 7]));
    let h: u128 = 10u128.pow(23);
    let value = |n: u128| g[(n % 7) as usize];
    let mut expected = if value(h) == 0 { "P\n" } else { "N\n" }.to_string();
    for s in set {
        if value(h) != 0 && value(h - s as u128) == 0 {
            expected += &format!("heap 1: {h} -> {}\n", h - s as u128);
        }
    }
    grundy()
        .args(["position", "sub:1,3,4", &h.to_string()])
        .assert()
        .success()
        .stdout(expected);
    // No proved pattern and a heap beyond the values computed: a stated limit naming --max.
    fails(
        &["position", "grundys-game", "100000000000", "--max", "1000"],
        3,
        &["no pattern", "raise --max"],
    );
    fails(
        &["position", "grundys-game", "18446744073709551616"],
        3,
        &["--max"],
    );
}

#[test]
fn help_has_examples() {
    for cmd in ["seq", "position"] {
        grundy()
            .args([cmd, "--help"])
            .assert()
            .success()
            .stdout(contains("Examples:"));
    }
}

#[test]
fn seq_limits_name_the_flag() {
    fails(
        &["seq", "kayles", "-n", "3000000000"],
        3,
        &["above the limit of 2000000000 values", "-n"],
    );
}
