//! `grundy count`: answers against enumeration written here, JSON shape, bad input.

use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;

fn grundy() -> Command {
    Command::cargo_bin("grundy").unwrap()
}

/// Nim-sum distribution of ordered k-tuples of nim heaps in [min, max], by enumeration.
fn nim_tuples(min: u64, max: u64, k: u32) -> Vec<u64> {
    let f = (max + 1).next_power_of_two() as usize;
    let mut dist = vec![0u64; f];
    let n = max - min + 1;
    for mut code in 0..n.pow(k) {
        let mut x = 0;
        for _ in 0..k {
            x ^= min + code % n;
            code /= n;
        }
        dist[x as usize] += 1;
    }
    dist
}

/// The same for multisets (non-decreasing sequences).
fn nim_multisets(min: u64, max: u64, k: u32, x: u64) -> u64 {
    fn rec(from: u64, max: u64, left: u32, acc: u64, x: u64) -> u64 {
        if left == 0 {
            return (acc == x) as u64;
        }
        (from..=max)
            .map(|h| rec(h, max, left - 1, acc ^ h, x))
            .sum()
    }
    rec(min, max, k, 0, x)
}

fn stdout_of(args: &[&str]) -> String {
    let out = grundy().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// `grundy count nim --heaps K --min M --max N --nim-sum X` and the extra arguments.
fn count_args(min: u64, max: u64, k: u32, x: u64, extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = ["count", "nim", "--heaps", &k.to_string(), "--min"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    args.extend([min.to_string(), "--max".into(), max.to_string()]);
    args.extend(["--nim-sum".into(), x.to_string()]);
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

fn stdout_of_owned(args: &[String]) -> String {
    stdout_of(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

#[test]
fn ordered_counts_every_target_and_modulus() {
    for (min, max, k) in [(1u64, 7u64, 3u32), (0, 5, 2), (3, 9, 4), (1, 1, 5)] {
        let want = nim_tuples(min, max, k);
        for (x, &w) in want.iter().enumerate() {
            let args = count_args(min, max, k, x as u64, &[]);
            assert_eq!(stdout_of_owned(&args), format!("{w}\n"));
            for q in [1u64, 2, 7, 10, 998_244_353] {
                let args = count_args(min, max, k, x as u64, &["--mod", &q.to_string()]);
                assert_eq!(stdout_of_owned(&args), format!("{}\n", w % q), "{args:?}");
            }
        }
    }
}

#[test]
fn unordered_counts() {
    for (min, max, k) in [(1u64, 6u64, 3u32), (0, 4, 4), (2, 5, 2)] {
        for x in 0..8u64 {
            let want = nim_multisets(min, max, k, x);
            let args = count_args(min, max, k, x, &["--unordered"]);
            assert_eq!(stdout_of_owned(&args), format!("{want}\n"), "{args:?}");
            let args = count_args(min, max, k, x, &["--unordered", "--mod", "6"]);
            assert_eq!(
                stdout_of_owned(&args),
                format!("{}\n", want % 6),
                "{args:?}"
            );
        }
    }
}

#[test]
fn distribution_text_and_json() {
    let want = nim_tuples(0, 3, 2);
    let text: String = want
        .iter()
        .enumerate()
        .map(|(x, c)| format!("{x} {c}\n"))
        .collect();
    let args = count_args(0, 3, 2, 1, &["--distribution"]);
    assert_eq!(stdout_of_owned(&args), text);
    let out = stdout_of_owned(&count_args(0, 3, 2, 1, &["--distribution", "--json"]));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["game"], "nim");
    assert_eq!(v["heaps"], 2);
    assert_eq!(v["min"], 0);
    assert_eq!(v["max"], 3);
    assert_eq!(v["nim_sum"], 1);
    assert!(v["modulus"].is_null());
    assert_eq!(v["unordered"], false);
    assert_eq!(v["count"], want[1]);
    let dist: Vec<u64> = v["distribution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .collect();
    assert_eq!(dist, want);
}

#[test]
#[allow(clippy::manual_div_ceil)]
fn huge_counts_are_exact_json_integers() {
    // 60 heaps of nim 1..3: (3^60 + 3·(-1)^60)/4 positions lose (the transform of the
    // histogram 0,1,1,1 is 3,-1,-1,-1), a count above 2^64. Computed here with u128.
    let want = (3u128.pow(60) + 3) / 4; // exact: 3^60 ≡ 1 (mod 4)
    assert_eq!(want * 4, 3u128.pow(60) + 3);
    let out = stdout_of(&["count", "nim", "--heaps", "60", "--max", "3", "--json"]);
    assert!(out.contains(&format!("\"count\":{want}")), "{out}");
    // Any size of K with a modulus.
    let out = stdout_of(&[
        "count",
        "nim",
        "--heaps",
        "1000000000000000000000",
        "--max",
        "3",
        "--mod",
        "1000",
    ]);
    assert_eq!(out.lines().count(), 1);
}

#[test]
fn bad_input_exit_codes() {
    // (arguments after `count`, exit status, a phrase the message must hold)
    let cases: [(&str, i32, &str); 9] = [
        (
            "nim --heaps 2 --max 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF",
            2,
            "--max",
        ),
        ("octal:0.1x7 --heaps 2 --max 5", 2, "GAME"),
        ("nim --heaps 2x --max 5", 2, "--heaps, column 2"),
        ("nim --heaps 2 --max 5 --mod 0", 2, "--mod"),
        ("nim --heaps 2 --min 6 --max 5", 2, "--min"),
        ("nim --heaps 2", 2, "--max"),
        // Limits: nim's values are its heap sizes; exact counts of astronomical size; multisets.
        ("nim --heaps 2 --max 1000000000000000000", 3, "--max"),
        ("nim --heaps 1000000000000 --max 100", 3, "--mod"),
        ("nim --heaps 1000 --max 100 --unordered", 3, "heaps"),
    ];
    for (args, code, phrase) in cases {
        grundy()
            .arg("count")
            .args(args.split(' '))
            .assert()
            .code(code)
            .stdout("")
            .stderr(contains(phrase));
    }
}

#[test]
fn help_has_an_example() {
    grundy()
        .args(["count", "--help"])
        .assert()
        .success()
        .stdout(contains("grundy count nim --heaps 3 --max 7"));
}

/// Counts for a heap game other than nim, against brute force over the values `grundy seq`
/// prints: the number of ordered pairs and triples of heaps in [1, N] whose values xor to 0.
#[test]
fn heap_games_agree_with_enumeration_of_their_sequence() {
    for game in ["kayles", "sub:1,3,4", "divide:2,3", "octal:0.07"] {
        let n = 40usize;
        let out = grundy()
            .args(["seq", game, "-n", &(n + 1).to_string()])
            .output()
            .unwrap();
        let g: Vec<u64> = String::from_utf8(out.stdout)
            .unwrap()
            .split_whitespace()
            .map(|v| v.parse().unwrap())
            .collect();
        let mut pairs = 0u64;
        let mut triples = 0u64;
        for a in 1..=n {
            for b in 1..=n {
                pairs += u64::from(g[a] == g[b]);
                for c in 1..=n {
                    triples += u64::from(g[a] ^ g[b] ^ g[c] == 0);
                }
            }
        }
        for (k, want) in [(2, pairs), (3, triples)] {
            grundy()
                .args([
                    "count",
                    game,
                    "--heaps",
                    &k.to_string(),
                    "--max",
                    &n.to_string(),
                ])
                .assert()
                .success()
                .stdout(format!("{want}\n"));
        }
    }
}

#[test]
fn limits_name_the_flags_of_count_not_library_settings() {
    // Nim values reach 2^25 here, the largest a count transforms.
    grundy()
        .args(["count", "nim", "--heaps", "2", "--max", "40000000"])
        .assert()
        .code(3)
        .stderr(contains("lower --max or raise --min"))
        .stderr(contains("Limits::").not());
}
