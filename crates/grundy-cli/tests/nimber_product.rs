//! `grundy nimber product`: the Library Checker "Nim Product" format, checked against the slow
//! reference product of the library, and every kind of bad input (exit 2, nothing on stdout).

use assert_cmd::Command;
use grundy::nimber::reference;
use predicates::prelude::*;
use rand::{Rng, SeedableRng};

fn product(input: &str) -> assert_cmd::assert::Assert {
    Command::cargo_bin("grundy")
        .unwrap()
        .args(["nimber", "product"])
        .write_stdin(input)
        .assert()
}

#[test]
fn small_products() {
    product("3\n1 1\n2 2\n8 9\n").success().stdout("1\n3\n5\n");
    product("0\n").success().stdout("");
}

#[test]
fn published_row_of_eight() {
    let mut input = String::from("16\n");
    for n in 1..=16 {
        input.push_str(&format!("8 {n}\n"));
    }
    product(&input)
        .success()
        .stdout("8\n12\n4\n11\n3\n7\n15\n13\n5\n1\n9\n6\n14\n10\n2\n128\n");
}

#[test]
fn fermat_powers_squared() {
    // 2^(2^k) ⊗ 2^(2^k) = 3/2 · 2^(2^k).
    let mut input = String::from("6\n");
    let mut expect = String::new();
    for k in 0..6 {
        let f = 1u64 << (1 << k);
        input.push_str(&format!("{f} {f}\n"));
        expect.push_str(&format!("{}\n", f + f / 2));
    }
    product(&input).success().stdout(expect);
}

#[test]
fn random_products_agree_with_reference() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(2);
    let n = 2000;
    let mut input = format!("{n}\n");
    let mut expect = String::new();
    for i in 0..n {
        let (a, b): (u64, u64) = (rng.gen::<u64>() >> (i % 64), rng.gen());
        // Alternate decimal and hexadecimal, as the SPEC allows both.
        if i % 3 == 0 {
            input.push_str(&format!("{a:#x} {b}\n"));
        } else {
            input.push_str(&format!("{a} {b}\n"));
        }
        expect.push_str(&format!("{}\n", reference::mul_u64(a, b)));
    }
    product(&input).success().stdout(expect);
}

#[test]
fn tolerates_crlf_and_trailing_whitespace() {
    product("2\r\n3 3 \r\n 18446744073709551615\t1\r\n\r\n  \n")
        .success()
        .stdout("2\n18446744073709551615\n");
    product("1\n2 3").success().stdout("1\n");
}

/// Bad input: exit status 2, nothing on stdout, and a message naming the place.
fn rejects(input: &str, message: &str) {
    product(input)
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(message));
}

#[test]
fn bad_input_is_named_and_writes_nothing() {
    rejects(
        "",
        "expected the number of products T, found an empty input",
    );
    rejects("\n \n", "empty input");
    rejects(
        "3\n1 1\n2 2\n",
        "stdin, line 4, column 1: expected 3 product lines after T, found 2",
    );
    rejects(
        "2\n1 1\n2 2\n3 3\n",
        "line 4, column 1: expected the end of the input after the 2",
    );
    rejects("1\n1 1\ngarbage\n", "line 3, column 1");
    rejects("1\n1 one\n", "line 2, column 3: expected B");
    rejects("1\nx 1\n", "line 2, column 1: expected A");
    rejects("1\n1\n", "line 2, column 2: expected a space and then B");
    rejects(
        "1\n1 2 3\n",
        "line 2, column 5: expected the end of the line",
    );
    rejects(
        "1\n18446744073709551616 1\n",
        "line 2, column 1: A = 18446744073709551616 does not fit in 64 bits",
    );
    rejects(
        "1\n1 0x10000000000000000\n",
        "line 2, column 3: B = 0x10000000000000000 does not fit",
    );
    rejects("1\n-1 2\n", "line 2, column 1");
    rejects(
        "two\n1 2\n",
        "line 1, column 1: expected the number of products T",
    );
    rejects(
        "1 2\n1 2\n",
        "line 1, column 3: expected the end of the line after T",
    );
    rejects("1\n1 2x\n", "line 2, column 4");
    // A huge T with few lines is an error, not an allocation.
    rejects(
        "18446744073709551615\n1 1\n",
        "expected 18446744073709551615 product lines",
    );
    // The error on the last line still leaves stdout empty (everything is validated first).
    let mut input = String::from("1000\n");
    for i in 0..999 {
        input.push_str(&format!("{i} {i}\n"));
    }
    input.push_str("1 2 junk\n");
    rejects(&input, "line 1001, column 5");
}

#[test]
fn help_has_an_example() {
    Command::cargo_bin("grundy")
        .unwrap()
        .args(["nimber", "product", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("grundy nimber product"));
}

#[test]
fn input_size_limit_exits_3() {
    // About 1.3 MiB of input against a 1 MiB limit.
    let n = 60_000;
    let mut input = format!("{n}\n");
    for i in 0..n {
        input.push_str(&format!("{} {}\n", 1_000_000_000_000u64 + i, i));
    }
    assert!(input.len() > 1 << 20);
    Command::cargo_bin("grundy")
        .unwrap()
        .args(["nimber", "product", "--max-input-mib", "1"])
        .write_stdin(input.clone())
        .assert()
        .code(3)
        .stdout("")
        .stderr(
            predicate::str::contains("larger than 1 MiB")
                .and(predicate::str::contains("--max-input-mib")),
        );
    Command::cargo_bin("grundy")
        .unwrap()
        .args(["nimber", "product", "--max-input-mib", "2"])
        .write_stdin(input)
        .assert()
        .success();
}
