use assert_cmd::Command;

fn grundy() -> Command {
    Command::cargo_bin("grundy").unwrap()
}

#[test]
fn add_is_xor_of_any_size() {
    grundy()
        .args(["nimber", "add", "5", "3"])
        .assert()
        .success()
        .stdout("6\n");
    grundy()
        .args(["nimber", "add", "0x100000000000000000000000000000000", "1"])
        .assert()
        .success()
        .stdout("340282366920938463463374607431768211457\n");
}

#[test]
fn bad_number_exits_2_naming_the_argument() {
    grundy()
        .args(["nimber", "add", "5", "3x"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicates::str::contains("argument 2, column 2"));
}
