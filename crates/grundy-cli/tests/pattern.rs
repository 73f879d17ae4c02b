//! `grundy analyze` and `grundy value`: outputs, JSON fields, bad input (exit 2) and unprovable
//! huge heaps (exit 3).

mod common;

use common::{fails, grundy, json_of};
use predicates::str::contains;

#[test]
fn analyze_dawsons_kayles_json_has_exactly_the_document_fields() {
    let v = json_of(&["analyze", "dawsons-kayles", "--json"]);
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    let mut keys = keys;
    keys.sort_unstable();
    // The fields of the contract, and the proof and run count of the analysis document.
    assert_eq!(
        keys,
        [
            "computed",
            "game",
            "pattern",
            "period",
            "preperiod",
            "proof",
            "proved",
            "runs",
            "saltus"
        ]
    );
    assert!(v["proof"].as_str().unwrap().contains("Guy-Smith"));
    assert!(v["runs"].is_null());
    assert_eq!(v["game"], "octal:0.07");
    assert_eq!(v["period"], 34);
    assert_eq!(v["preperiod"], 53);
    assert_eq!(v["saltus"], 0);
    assert_eq!(v["proved"], true);
    assert!(v["computed"].as_u64().unwrap() >= 176);
    assert!(v["pattern"].as_str().unwrap().contains("Guy-Smith"));
}

#[test]
fn analyze_text_names_the_inequality() {
    grundy()
        .args(["analyze", "kayles"])
        .assert()
        .success()
        .stdout(contains("period 12, preperiod 71 (proved)"))
        .stdout(contains("checked: G(n+12) = G(n) for 71 <= n < 156"));
    grundy()
        .args(["analyze", "sub:1,2,3"])
        .assert()
        .success()
        .stdout(contains("period 4, preperiod 0 (proved)"));
}

#[test]
fn analyze_text_states_the_proof_once() {
    let out = grundy().args(["analyze", "kayles"]).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert_eq!(text.matches("Guy-Smith").count(), 1, "{text}");
    assert_eq!(text.matches("71 <= n < 156").count(), 1, "{text}");
    assert!(
        text.contains("pattern: periodic: G(n+12) = G(n) for every n >= 71 (proved); one period"),
        "{text}"
    );
}

#[test]
fn analyze_nim_divide_and_unprovable_games() {
    let v = json_of(&["analyze", "nim", "--json"]);
    assert_eq!(
        (v["period"].as_u64(), v["saltus"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(v["proved"], true);
    let v = json_of(&["analyze", "divide:2,3,4,5,6", "--json"]);
    assert_eq!(v["period"], serde_json::Value::Null);
    assert_eq!(v["proved"], true);
    assert!(v["pattern"]
        .as_str()
        .unwrap()
        .contains("G(n) = G(floor(n/12)) for every n >= 6"));
    // No theorem covers Grundy's game: whatever is seen is not proved.
    let v = json_of(&["analyze", "grundys-game", "--max", "2000", "--json"]);
    assert_eq!(v["proved"], false);
    assert_eq!(v["computed"], 2000);
    // Too few values for the Guy-Smith bound of Kayles (168 needed).
    let v = json_of(&["analyze", "kayles", "--max", "100", "--json"]);
    assert_eq!(v["proved"], false);
}

#[test]
fn analyze_bad_input_exits_2() {
    fails(&["analyze", "octal:0.1x"], 2, &["GAME, column 10"]);
    fails(&["analyze", "kayles", "--max", "12z"], 2, &["--max"]);
    grundy().args(["analyze"]).assert().code(2);
}

#[test]
fn value_of_huge_heaps_through_proofs() {
    grundy()
        .args([
            "value",
            "divide:2,3,4,5,6",
            "1000000000000000000",
            "6",
            "12",
        ])
        .assert()
        .success()
        .stdout("3\n0\n1\n");
    // Beyond 2^128: the self-similar rule reduces the heap first.
    grundy()
        .args([
            "value",
            "divide:2,3,4,5,6",
            "0x1000000000000000000000000000000000000",
        ])
        .assert()
        .success();
    // Kayles is periodic with period 12 from 71 and 10^24 = 4 (mod 12), so G(10^24) = G(76),
    // read here from `grundy seq`.
    let seq = grundy()
        .args(["seq", "kayles", "-n", "77"])
        .assert()
        .success();
    let seq = String::from_utf8(seq.get_output().stdout.clone()).unwrap();
    let g: Vec<&str> = seq.split_whitespace().collect();
    grundy()
        .args(["value", "kayles", "1000000000000000000000000", "5"])
        .assert()
        .success()
        .stdout(format!("{}\n{}\n", g[76], g[5]));
    grundy()
        .args(["value", "nim", "123456789012345678901234567890"])
        .assert()
        .success()
        .stdout("123456789012345678901234567890\n");
    let v = json_of(&["value", "sub:1,2,3", "10", "11", "--json"]);
    assert_eq!(v["values"], serde_json::json!([2, 3]));
    assert_eq!(v["heaps"], serde_json::json!([10, 11]));
}

#[test]
fn value_beyond_what_can_be_computed_exits_3() {
    fails(
        &["value", "grundys-game", "1000000000000", "--max", "1000"],
        3,
        &["no pattern", "--max"],
    );
    grundy()
        .args(["value", "squares", "100000000000000000000000"])
        .assert()
        .code(3);
}

#[test]
fn value_bad_input_exits_2() {
    grundy()
        .args(["value", "kayles", "12", "-3"])
        .assert()
        .code(2);
    fails(&["value", "kayles", "1x"], 2, &["N (heap 1), column 2"]);
    fails(&["value", "divide:1", "5"], 2, &["GAME"]);
    grundy().args(["value", "kayles"]).assert().code(2);
}

#[test]
fn analyze_finds_self_similar_rules_in_any_game() {
    // The floor-division game written as a script: no theorem, but the rule shows in the runs.
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("floor.rhai");
    std::fs::write(
        &path,
        "fn options(n) { let r = []; for d in 2..=6 { r.push([n / d]); } r }",
    )
    .unwrap();
    let game = format!("script:{}", path.display());
    let v = json_of(&["analyze", &game, "--max", "20000", "--json"]);
    assert_eq!(v["proved"], false);
    assert_eq!(v["period"], serde_json::Value::Null);
    assert!(v["pattern"]
        .as_str()
        .unwrap()
        .contains("apparently self-similar: G(n) = G(floor(n/12)) for 6 <= n < 20000"));
}

#[test]
fn help_has_examples() {
    for cmd in ["analyze", "value"] {
        grundy()
            .args([cmd, "--help"])
            .assert()
            .success()
            .stdout(contains("Examples:"))
            .stdout(contains("--max"));
    }
}

/// G(0..len) of the subtraction game with the finite set `set`, from the definition.
fn slow_subtraction(set: &[usize], len: usize) -> Vec<usize> {
    let mut g = vec![0; len];
    for n in 0..len {
        let options: Vec<usize> = set.iter().filter(|&&s| s <= n).map(|&s| g[n - s]).collect();
        g[n] = (0..).find(|v| !options.contains(v)).unwrap();
    }
    g
}

#[test]
fn finite_subtraction_games_search_far_enough_without_max() {
    // S = {1..10^6}: G(n) = n mod (10^6 + 1), proved from 2·10^6 + 1 values.
    grundy()
        .args(["value", "sub:1-1000000", "12983567378251"])
        .assert()
        .success()
        .stdout("394697\n");
    let slow = slow_subtraction(&[3, 5, 8], 150_001);
    let heaps = ["99991", "120000", "150000"];
    let expected: String = heaps
        .iter()
        .map(|h| format!("{}\n", slow[h.parse::<usize>().unwrap()]))
        .collect();
    grundy()
        .args(["value", "sub:3,5,8"])
        .args(heaps)
        .assert()
        .success()
        .stdout(expected);
    grundy()
        .args(["analyze", "sub:1-1000000"])
        .assert()
        .success()
        .stdout(contains("period 1000001, preperiod 0 (proved)"));
}

#[test]
fn analyze_of_a_three_heap_code_refuses_at_once_above_its_cap() {
    let start = std::time::Instant::now();
    fails(
        &["analyze", "octal:0.8", "--max", "200000"],
        3,
        &["game leaving three heaps", "lower --max"],
    );
    assert!(
        start.elapsed().as_secs() < 5,
        "refused only after {:?}",
        start.elapsed()
    );
    // The default cap is 10^4 values.
    let v = json_of(&["analyze", "octal:0.8", "--json"]);
    assert_eq!(v["computed"], 10_000);
}
