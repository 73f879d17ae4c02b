//! The `grundy nimber` arithmetic subcommands: answers, and every kind of bad input.

use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;

fn grundy() -> Command {
    Command::cargo_bin("grundy").unwrap()
}

/// Runs `grundy nimber ARGS` and returns stdout, asserting success.
fn ok(args: &[&str]) -> String {
    let out = grundy().arg("nimber").args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn mul_small_and_any_size() {
    // 8 ⊗ n for n = 1..16 (Conway).
    let expect = [8, 12, 4, 11, 3, 7, 15, 13, 5, 1, 9, 6, 14, 10, 2, 128];
    for (n, e) in (1..=16).zip(expect) {
        assert_eq!(ok(&["mul", "8", &n.to_string()]), format!("{e}\n"));
    }
    assert_eq!(ok(&["mul", "2", "3", "4", "5"]), "2\n");
    assert_eq!(ok(&["mul", "7"]), "7\n");
    // 2^(2^k) ⊗ 2^(2^k) = 3/2 · 2^(2^k), below and above 2^128.
    assert_eq!(
        ok(&["mul", "0x10000000000000000", "0x10000000000000000"]),
        format!("{}\n", 3u128 << 63)
    );
    let t = format!("0x1{}", "0".repeat(64)); // 2^256
    let want = (num_bigint::BigUint::from(3u32) << 255u32).to_string();
    assert_eq!(ok(&["mul", &t, &t]), format!("{want}\n"));
    // Distinct Fermat 2-powers multiply as integers: 2^128 ⊗ 2^256 = 2^384.
    let t128 = format!("0x1{}", "0".repeat(32));
    let want = (num_bigint::BigUint::from(1u32) << 384u32).to_string();
    assert_eq!(ok(&["mul", &t128, &t]), format!("{want}\n"));
}

#[test]
fn div_and_inv() {
    assert_eq!(ok(&["div", "5", "9"]), "8\n");
    assert_eq!(ok(&["inv", "2"]), "3\n");
    assert_eq!(ok(&["inv", "1"]), "1\n");
    // x / x = 1 and x ⊗ inv(x) = 1 above 2^128.
    let x = "0x123456789abcdef0123456789abcdef0123456789";
    assert_eq!(ok(&["div", x, x]), "1\n");
    let i = ok(&["inv", x]);
    assert_eq!(ok(&["mul", x, i.trim()]), "1\n");
}

#[test]
fn pow_sqrt() {
    assert_eq!(ok(&["pow", "2", "3"]), "1\n");
    assert_eq!(ok(&["pow", "0", "0"]), "1\n");
    assert_eq!(ok(&["pow", "0", "5"]), "0\n");
    assert_eq!(ok(&["pow", "16", "1"]), "16\n");
    assert_eq!(ok(&["sqrt", "123456789"]), "98433322\n");
    assert_eq!(ok(&["sqrt", "0"]), "0\n");
    let x = "0x123456789abcdef0123456789abcdef0123456789";
    let s = ok(&["sqrt", x]);
    assert_eq!(ok(&["pow", s.trim(), "2"]), ok(&["add", x, "0"]));
    // Exponents of any size: x^(2^256 - 1 + 1) = x in F_8.
    let e = format!("0x1{}", "0".repeat(64));
    assert_eq!(ok(&["pow", x, &e]), ok(&["add", x, "0"]));
}

#[test]
fn order_and_log() {
    assert_eq!(ok(&["order", "1"]), "1\n");
    assert_eq!(ok(&["order", "2"]), "3\n");
    assert_eq!(ok(&["order", "3"]), "3\n");
    // 16 lies in F_3 (order 255 = 3·5·17): its order n has 16^n = 1 and no prime left out.
    let n: u64 = ok(&["order", "16"]).trim().parse().unwrap();
    assert_eq!(255 % n, 0);
    assert_eq!(ok(&["pow", "16", &n.to_string()]), "1\n");
    for p in [3, 5, 17] {
        if n.is_multiple_of(p) {
            assert_ne!(ok(&["pow", "16", &(n / p).to_string()]), "1\n");
        }
    }
    assert_eq!(ok(&["log", "2", "3"]), "2\n");
    assert_eq!(ok(&["log", "2", "1"]), "0\n");
    assert_eq!(ok(&["log", "2", "4"]), "none\n");
    assert_eq!(ok(&["log", "3", "0"]), "none\n");
    assert_eq!(ok(&["log", "0", "1"]), "0\n");
    assert_eq!(ok(&["log", "0", "0"]), "1\n");
    // A round trip in F_6: log_a(a^e) = e mod ord(a).
    let a = "0x1234567890abcdef";
    let e: u128 = 987_654_321_987_654_321;
    let b = ok(&["pow", a, &e.to_string()]);
    let n: u128 = ok(&["order", a]).trim().parse().unwrap();
    assert_eq!(ok(&["log", a, b.trim()]), format!("{}\n", e % n));
    // An order in F_8 (256-bit nimbers) divides 2^256 - 1.
    let big = format!("0x3{}", "0".repeat(60));
    let n = ok(&["order", &big]);
    assert_eq!(ok(&["pow", &big, n.trim()]), "1\n");
}

#[test]
fn solve_lists_roots_ascending() {
    assert_eq!(ok(&["solve", "1", "1"]), "2\n3\n");
    assert_eq!(ok(&["solve", "0", "2"]), "3\n");
    assert_eq!(ok(&["solve", "1", "0"]), "0\n1\n");
    // Roots beyond 2^128 satisfy the equation.
    let (b, c) = ("3", "0x10000000000000000000000000000000000000000");
    let roots = ok(&["solve", b, c]);
    let roots: Vec<&str> = roots.lines().collect();
    assert_eq!(roots.len(), 2);
    for r in roots {
        let x2 = ok(&["mul", r, r]);
        let bx = ok(&["mul", b, r]);
        assert_eq!(ok(&["add", x2.trim(), bx.trim(), c]), "0\n");
    }
}

#[test]
fn bad_numbers_name_argument_and_column() {
    grundy()
        .args(["nimber", "mul", "5", "3x"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains("argument 2, column 2"));
    grundy()
        .args(["nimber", "div", "5", "0xg"])
        .assert()
        .code(2)
        .stderr(contains("B, column 3"));
    grundy()
        .args(["nimber", "pow", "5", "1e5"])
        .assert()
        .code(2)
        .stderr(contains("E, column 2"));
    for cmd in ["inv", "sqrt", "order"] {
        grundy()
            .args(["nimber", cmd, "1.5"])
            .assert()
            .code(2)
            .stdout("")
            .stderr(contains("A, column 2"));
    }
    grundy()
        .args(["nimber", "log", "2", ""])
        .assert()
        .code(2)
        .stderr(contains("B, column 1"));
    grundy()
        .args(["nimber", "solve", "x", "1"])
        .assert()
        .code(2)
        .stderr(contains("B, column 1"));
    grundy()
        .args(["nimber", "solve", "1", "0x"])
        .assert()
        .code(2)
        .stderr(contains("C, column 3"));
}

#[test]
fn meaningless_operations_exit_2() {
    grundy()
        .args(["nimber", "div", "7", "0"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains("division by zero"));
    grundy()
        .args([
            "nimber",
            "div",
            "0x1000000000000000000000000000000000",
            "0x0",
        ])
        .assert()
        .code(2)
        .stderr(contains("division by zero"));
    grundy()
        .args(["nimber", "inv", "0"])
        .assert()
        .code(2)
        .stderr(contains("A: 0 has no inverse"));
    grundy()
        .args(["nimber", "order", "0"])
        .assert()
        .code(2)
        .stderr(contains("0 has no multiplicative order"));
}

#[test]
fn limits_exit_3_and_say_why() {
    let f9 = format!("0x1{}", "0".repeat(64)); // 2^256, in F_9
    grundy()
        .args(["nimber", "order", &f9])
        .assert()
        .code(3)
        .stdout("")
        .stderr(contains("limit reached").and(contains("below 2^256")));
    let f8 = format!("0x1{}", "0".repeat(32)); // 2^128, in F_8
                                               // A target beyond the base's field is no power of it, at any size.
    assert_eq!(ok(&["log", "3", &f9]), "none\n");
    grundy()
        .args(["nimber", "log", &f8, "3"])
        .assert()
        .code(3)
        .stderr(contains("below 2^128"));
    // A power whose work is out of bounds: a 2^18-bit base and a 333-bit exponent.
    let huge = format!("0x1{}", "0".repeat(1 << 16));
    grundy()
        .args(["nimber", "pow", &huge, &"9".repeat(100)])
        .assert()
        .code(3)
        .stderr(contains("exponent"));
}

#[test]
fn usage_errors_and_help() {
    grundy().args(["nimber", "div", "5"]).assert().code(2);
    grundy().args(["nimber", "mul"]).assert().code(2);
    grundy()
        .args(["nimber", "solve", "1", "2", "3"])
        .assert()
        .code(2);
    for (cmd, example) in [
        ("mul", "grundy nimber mul 8 9"),
        ("div", "grundy nimber div 5 9"),
        ("inv", "grundy nimber inv 2"),
        ("pow", "grundy nimber pow 2 3"),
        ("sqrt", "grundy nimber sqrt 123456789"),
        ("order", "grundy nimber order 2"),
        ("log", "grundy nimber log 2 3"),
        ("solve", "grundy nimber solve 1 1"),
    ] {
        grundy()
            .args(["nimber", cmd, "--help"])
            .assert()
            .success()
            .stdout(contains(example));
    }
}
