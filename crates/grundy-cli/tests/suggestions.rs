//! Unknown names get the nearest known one: subcommands (`grundy sq`), game names and kinds
//! (`grundy analyze kayls`); game names and kinds are read in any case.

use assert_cmd::Command;
use predicates::str::contains;

fn grundy() -> Command {
    Command::cargo_bin("grundy").unwrap()
}

#[test]
fn unknown_subcommands_get_the_nearest() {
    for (args, near) in [
        (&["sq"][..], "'seq'"),
        (&["seqq"], "'seq'"),
        (&["analyse", "kayles"], "'analyze'"),
        (&["nimber", "mull", "2", "3"], "'mul'"),
        (&["ordinal", "nim-mull", "w", "w"], "'nim-mul'"),
    ] {
        grundy()
            .args(args)
            .assert()
            .code(2)
            .stderr(contains("similar subcommand"))
            .stderr(contains(near));
    }
    // Nothing near: no tip.
    let out = grundy().arg("xyzzy").assert().code(2).get_output().clone();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("similar"));
}

#[test]
fn unknown_games_get_the_nearest() {
    for (args, near) in [
        (&["analyze", "kayls"][..], "did you mean kayles?"),
        (
            &["seq", "dawson-kayles", "-n", "5"],
            "did you mean dawsons-kayles?",
        ),
        (&["seq", "octl:0.77", "-n", "5"], "did you mean octal?"),
        (
            &["position", "grundy-game", "7"],
            "did you mean grundys-game?",
        ),
        (&["solve", "cramm:1x4"], "did you mean cram?"),
        (&["solve", "chmp:2x2"], "did you mean chomp?"),
    ] {
        grundy().args(args).assert().code(2).stderr(contains(near));
    }
    // Nothing near: the list of what is accepted, no guess.
    let out = grundy()
        .args(["seq", "zzz", "-n", "3"])
        .assert()
        .code(2)
        .get_output()
        .clone();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !err.contains("did you mean") && err.contains("expected nim"),
        "{err}"
    );
}

#[test]
fn game_names_are_read_in_any_case() {
    let kayles = "0 1 2 3 1 4 3 2 1 4 2 6\n";
    for game in ["kayles", "Kayles", "KAYLES", "octal:0.77", "OCTAL:0.77"] {
        grundy()
            .args(["seq", game, "-n", "12"])
            .assert()
            .success()
            .stdout(kayles);
    }
    grundy()
        .args(["solve", "Cram:1x4"])
        .assert()
        .success()
        .stdout("N\nvalue 2\n");
}
