//! CLI tests of `grundy ordinal ...` (ordinal arithmetic and transfinite games).

use assert_cmd::Command;
use predicates::str::contains;

fn grundy() -> Command {
    Command::cargo_bin("grundy").unwrap()
}

fn ok(args: &[&str], stdout: &str) {
    grundy()
        .args(args)
        .assert()
        .success()
        .stdout(stdout.to_string());
}

fn bad(args: &[&str], code: i32, message: &str) {
    grundy()
        .args(args)
        .assert()
        .code(code)
        .stdout("")
        .stderr(contains(message));
}

/// A temporary file holding `text`, removed when dropped.
fn file(text: &str) -> TempFile {
    let file = tempfile::Builder::new()
        .prefix("grundy-ordinal-test-")
        .suffix(".txt")
        .tempfile()
        .unwrap();
    std::fs::write(file.path(), text).unwrap();
    TempFile(file.into_temp_path())
}

/// A temporary file named by a `&str` path.
struct TempFile(tempfile::TempPath);

impl TempFile {
    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

#[test]
fn nim_sum_worked_example() {
    ok(
        &["ordinal", "nim-sum", "w^(w)*4+w^3*9+11", "w^(w)*6+w^3*5+w"],
        "w^(w)*2+w^3*12+w+11\n",
    );
    ok(&["ordinal", "nim-sum", "5", "3"], "6\n");
    ok(&["ordinal", "nim-sum", "w+w", "3+w"], "w*3\n");
    ok(&["ordinal", "nim-sum", "w^2*5", "w^2*5"], "0\n");
}

#[test]
fn arithmetic() {
    ok(&["ordinal", "add", "w", "1"], "w+1\n");
    ok(&["ordinal", "add", "1", "w"], "w\n");
    ok(&["ordinal", "mul", "w+1", "2"], "w*2+1\n");
    ok(&["ordinal", "mul", "2", "w"], "w\n");
    ok(&["ordinal", "pow", "w+1", "3"], "w^3+w^2+w+1\n");
    ok(
        &["ordinal", "pow", "2", "100"],
        "1267650600228229401496703205376\n",
    );
    ok(&["ordinal", "cmp", "w^(w)", "w^100*7"], ">\n");
    ok(&["ordinal", "cmp", "1+w", "w"], "=\n");
    ok(&["ordinal", "cmp", "w*2", "w^2"], "<\n");
    ok(
        &["ordinal", "add", "w^(w^2*3+1)*2+w^2*5+w+7", "0"],
        "w^(w^2*3+1)*2+w^2*5+w+7\n",
    );
}

#[test]
fn cascade() {
    ok(&["ordinal", "cascade", "1,0", "0,3"], "w+3\n");
    ok(
        &["ordinal", "cascade", "1,0", "0,3", "--move"],
        "w+3\nr1p1: 1 -> 0, set r1p2 = 3\n",
    );
    ok(&["ordinal", "cascade", "2,5", "2,5", "--move"], "0\nP\n");
    ok(
        &["ordinal", "cascade", "4,0,9,11", "6,0,5,0"],
        "w^3*2+w*12+11\n",
    );
    ok(
        &["ordinal", "cascade", "1,0", "0,3", "--json"],
        "{\"value\":\"w+3\",\"outcome\":\"N\",\"winning_move\":{\"at\":\"r1p1\",\"from\":\"1\",\"to\":\"0\",\"set\":[{\"at\":\"r1p2\",\"to\":\"3\"}]}}\n",
    );
    ok(
        &[
            "ordinal",
            "cascade",
            "0x10000000000000000000000000000000000000000,0",
        ],
        "w*1461501637330902918203684832716283019655932542976\n",
    );
}

#[test]
fn matrix_dag_election() {
    let m = file("1 2\n3 4\n");
    ok(
        &["ordinal", "matrix", m.path(), "--move"],
        "w^2+w+4\n(1,1): 1 -> 0, set (2,1) = 2, set (2,2) = 0\n",
    );
    let z = file("# a P-position: every anti-diagonal xors to 0\n0 1\n1 0\n");
    ok(&["ordinal", "matrix", z.path(), "--move"], "0\nP\n");
    let g = file("a=1: b\nb=2: c\nc=3\n");
    ok(&["ordinal", "dag", g.path()], "w^2+w*2+3\n");
    let e = file("a=1: b c\nb=1: c\nc=1\n");
    ok(
        &["ordinal", "election", e.path(), "--move"],
        "w^2+w+1\na: 1 -> 0, set b = 0, set c = 0\n",
    );
    grundy()
        .args(["ordinal", "dag", "-", "--json"])
        .write_stdin("x=2: y\ny=2\n")
        .assert()
        .success()
        .stdout("{\"value\":\"w*2+2\",\"outcome\":\"N\",\"winning_move\":{\"at\":\"x\",\"from\":\"2\",\"to\":\"0\",\"set\":[{\"at\":\"y\",\"to\":\"0\"}]}}\n");
}

/// A matrix row of 200,000 entries and a vertex with 200,000 successors, the sizes at which
/// reading them was once quadratic (words located by recounting the line).
#[test]
fn wide_matrix_rows_and_long_successor_lists() {
    let w = 200_000;
    let mut row = vec!["0"; w];
    row[0] = "1";
    row[w - 1] = "5";
    let m = file(&format!("{}\n", row.join(" ")));
    ok(
        &["ordinal", "matrix", m.path(), "--move"],
        &format!("w^{}+5\n(1,1): 1 -> 0, set (1,{w}) = 0\n", w - 1),
    );
    let names: Vec<String> = (0..w).map(|i| format!("v{i}")).collect();
    let g = file(&format!("a=1: {}\nv{}=3\n", names.join(" "), w - 1));
    // Every successor is a sink, so a counts at ω and the move sets the last one listed
    // (a longest path's next vertex) to clear the units.
    ok(
        &["ordinal", "dag", g.path(), "--move"],
        &format!("w+3\na: 1 -> 0, set v{} = 0\n", w - 1),
    );
}

#[test]
fn increases() {
    ok(&["ordinal", "increases", "--zero", "0:2"], "w+1\n");
    ok(
        &["ordinal", "increases", "--zero", "0:1", "5:1", "--move"],
        "w+4\nheap 1: 0:1 -> 4:0\n",
    );
    ok(&["ordinal", "increases", "3:2", "3", "--move"], "0\nP\n");
    ok(&["ordinal", "increases", "--forced", "7:2"], "1\n");
    ok(
        &["ordinal", "increases", "--forced", "--zero", "0:1"],
        "w\n",
    );
    // The position of docs/ordinals.md under each of the four rules.
    let position = ["0:1", "3:2", "5:0"];
    let run = |flags: &[&str], tail: &str, stdout: &str| {
        let mut args = vec!["ordinal", "increases"];
        args.extend_from_slice(flags);
        args.extend_from_slice(&position);
        args.push(tail);
        ok(&args, stdout);
    };
    run(&[], "--move", "6\nheap 3: 5:0 -> 3:0\n");
    run(&["--zero"], "--move", "w+4\nheap 1: 0:1 -> 4:0\n");
    run(&["--forced"], "--move", "4\nheap 3: 5:0 -> 1:0\n");
    run(
        &["--forced", "--zero"],
        "--json",
        "{\"value\":\"w+4\",\"outcome\":\"N\",\"winning_move\":{\"at\":\"heap 1\",\"from\":\"0:1\",\"to\":\"4:0\",\"set\":[]}}\n",
    );
}

/// Mex as cascade positions: mex(ℕ ∪ {ω}) = ω+1, mex{ω·a+b} = ω².
#[test]
fn seed_mex_examples() {
    ok(&["ordinal", "cascade", "1,1"], "w+1\n");
    ok(&["ordinal", "cascade", "1,0,0"], "w^2\n");
}

#[test]
fn bad_input_exits_2_naming_the_place() {
    bad(
        &["ordinal", "nim-sum", "w", "w+"],
        2,
        "argument 2, column 3: expected a natural number, w, or '('",
    );
    bad(
        &["ordinal", "add", "w^(2"],
        2,
        "argument 1, column 5: expected ')'",
    );
    bad(&["ordinal", "cmp", "w", "x"], 2, "B, column 1");
    bad(&["ordinal", "pow", "w", "1e"], 2, "EXPONENT, column 2");
    bad(&["ordinal", "cascade", "1,0", "2,x"], 2, "row 2, column 3");
    bad(&["ordinal", "increases", "3:y"], 2, "heap 1, column 3");
    let m = file("1 2\n3\n");
    bad(
        &["ordinal", "matrix", m.path()],
        2,
        "line 2: expected 2 entries",
    );
    let m = file("1 2\n3 q\n");
    bad(&["ordinal", "matrix", m.path()], 2, "line 2, column 3");
    let c = file("a=1: b\nb: a\n");
    bad(&["ordinal", "dag", c.path()], 2, "cycle through vertex");
    let d = file("a=1: b\na=2\n");
    bad(
        &["ordinal", "election", d.path()],
        2,
        "line 2, column 1: vertex a is listed twice",
    );
    bad(&["ordinal", "dag", "/nonexistent/file"], 2, "cannot open");
    bad(&["ordinal", "nim-sum"], 2, "required");
}

#[test]
fn limits_exit_3() {
    bad(&["ordinal", "pow", "2", "100000000"], 3, "limit reached");
    bad(&["ordinal", "pow", "w+1", "1000000"], 3, "limit reached");
    let mut args = vec!["ordinal", "mul"];
    args.extend(std::iter::repeat_n("w+1", 5000));
    bad(&args, 3, "more than 4096 terms");
}

#[test]
fn help_has_examples() {
    for sub in [
        "nim-sum",
        "add",
        "mul",
        "pow",
        "cmp",
        "cascade",
        "matrix",
        "dag",
        "election",
        "increases",
    ] {
        grundy()
            .args(["ordinal", sub, "--help"])
            .assert()
            .success()
            .stdout(contains("grundy ordinal"));
    }
}
