//! `grundy misere` and `position --misere` through the quotient.

use assert_cmd::Command;
use predicates::str::contains;

fn grundy() -> Command {
    Command::cargo_bin("grundy").unwrap()
}

#[test]
fn octal_075_json_and_text() {
    let out = grundy()
        .args(["misere", "octal:0.75", "--max-heap", "40", "--json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["game"], "octal:0.75");
    assert_eq!(v["order"], 8);
    assert_eq!(v["identity"], 0);
    assert_eq!(v["proved"], true);
    assert_eq!(v["max_heap"], 40);
    assert_eq!(v["mul"].as_array().unwrap().len(), 8);
    assert_eq!(v["heap_map"].as_array().unwrap().len(), 41);
    assert_eq!(v["p_portion"].as_array().unwrap().len(), 2);
    for key in ["elements", "generators", "relations"] {
        assert!(v[key].is_array(), "{key}");
    }
    grundy()
        .args(["misere", "octal:0.75", "--max-heap", "0x28"])
        .assert()
        .success()
        .stdout(contains("order: 8\n"))
        .stdout(contains("wild\n"))
        .stdout(contains("every heap size, proved"))
        .stdout(contains("relations: "));
    grundy()
        .args(["misere", "nim", "--max-heap", "3"])
        .assert()
        .success()
        .stdout(contains("order: 6\n"))
        .stdout(contains("tame"))
        .stdout(contains("heaps up to 3 only"));
}

#[test]
fn bad_input_and_limits() {
    grundy()
        .args(["misere", "octal:0.7x"])
        .assert()
        .code(2)
        .stderr(contains("GAME"));
    grundy()
        .args(["misere", "kayles", "--max-heap", "x"])
        .assert()
        .code(2);
    grundy()
        .args(["misere", "kayles", "--max-heap", "1000000"])
        .assert()
        .code(3)
        .stderr(contains("--max-heap"));
}

#[test]
fn position_uses_the_quotient() {
    grundy()
        .args([
            "position",
            "octal:0.75",
            "2",
            "3",
            "5",
            "7",
            "11",
            "--misere",
        ])
        .assert()
        .success()
        .stderr(contains("misère quotient"));
    grundy()
        .args(["position", "nim", "1", "1", "2", "--misere"])
        .assert()
        .success()
        .stdout("N\nheap 3: 2 -> 1\n")
        .stderr(contains("Bouton"));
}

/// Kayles: heap 9 splits a class of the quotient of heaps up to 8; the quotient is revised,
/// not cut short, and answers positions.
#[test]
fn kayles_is_revised_past_a_split() {
    let out = grundy()
        .args(["misere", "kayles", "--max-heap", "12", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["max_heap"], 12);
    assert_eq!(doc["order"], 24);
    assert_eq!(doc["heap_map"].as_array().unwrap().len(), 13);
    assert!(doc.get("stopped_at").is_none());
    // [9] is a P-position and [5] + [5] + [9] an N-position, both answered by the quotient.
    grundy()
        .args(["position", "kayles", "9", "--misere"])
        .assert()
        .success()
        .stdout("P\n")
        .stderr(contains("misère quotient"));
    grundy()
        .args(["position", "kayles", "5", "5", "9", "--misere"])
        .assert()
        .success()
        .stdout(predicates::str::starts_with("N\n"))
        .stderr(contains("misère quotient"));
}
