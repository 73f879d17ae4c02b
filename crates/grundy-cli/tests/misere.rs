//! `grundy misere` and `position --misere` through the quotient.

mod common;

use common::{fails, grundy, json_of, stdout_of};
use predicates::str::contains;

#[test]
fn octal_075_json_and_text() {
    let v = json_of(&["misere", "octal:0.75", "--max-heap", "40", "--json"]);
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
    fails(&["misere", "octal:0.7x"], 2, &["GAME"]);
    grundy()
        .args(["misere", "kayles", "--max-heap", "x"])
        .assert()
        .code(2);
    fails(
        &["misere", "kayles", "--max-heap", "1000000"],
        3,
        &["--max-heap"],
    );
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

/// Once a period is proved, the text lists the preperiod and one period of the heap map, and
/// the rule that gives every other heap; the JSON keeps every heap up to N, and the rule printed
/// reproduces it.
#[test]
fn proved_heap_map_is_printed_up_to_one_period() {
    let args = ["misere", "octal:0.75", "--max-heap", "40"];
    let text = stdout_of(&args);
    let json = stdout_of(&[&args[..], &["--json"]].concat());
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let (n0, p) = (
        v["preperiod"].as_u64().unwrap(),
        v["period"].as_u64().unwrap(),
    );
    assert_eq!((n0, p), (8, 2));
    let map: Vec<u64> = v["heap_map"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_u64().unwrap())
        .collect();
    assert_eq!(map.len(), 41);
    let elements: Vec<&str> = v["elements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap())
        .collect();
    let listed: Vec<&str> = text
        .lines()
        .skip_while(|l| *l != "heap map:")
        .skip(1)
        .collect();
    let shown = (n0 + p) as usize;
    assert_eq!(listed.len(), shown + 1, "{text}");
    for (n, line) in listed[..shown].iter().enumerate() {
        assert_eq!(*line, format!("  {n}: {}", elements[map[n] as usize]));
    }
    assert_eq!(
        listed[shown],
        "  ...: period 2 from heap 8: heap n has the element of heap n - 2 (--json lists every \
         heap up to 40)"
    );
    for n in shown..map.len() {
        assert_eq!(map[n], map[n - p as usize], "heap {n}");
    }
    // Kayles: 5,001 heaps answered in a few lines.
    let kayles = stdout_of(&["misere", "kayles", "--max-heap", "5000"]);
    assert!(kayles.contains("every heap size, proved"), "{kayles}");
    assert!(kayles.lines().count() < 120, "{kayles}");
    // Unproved: every heap up to N.
    let unproved = stdout_of(&["misere", "octal:0.75", "--max-heap", "12"]);
    assert!(unproved.ends_with("  12: b\n"), "{unproved}");
}

/// `-v` writes the rounds of a recalibration to stderr; without it stderr stays empty.
#[test]
fn verbose_prints_the_recalibration_rounds() {
    let args = ["misere", "dawsons-kayles", "--max-heap", "25"];
    let quiet = grundy().args(args).output().unwrap();
    assert!(quiet.status.success());
    assert!(
        quiet.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&quiet.stderr)
    );
    let loud = grundy().args(args).arg("-v").output().unwrap();
    assert!(loud.status.success());
    assert_eq!(loud.stdout, quiet.stdout);
    let err = String::from_utf8_lossy(&loud.stderr);
    assert!(err.contains("heap 25: extension of base"), "{err}");
    assert!(
        err.contains(" round ") && err.contains(": candidate of"),
        "{err}"
    );
    assert!(err.contains("recalibrated in"), "{err}");
}
