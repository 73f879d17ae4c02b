//! CLI tests of `grundy ordinal nim-mul | nim-inv | nim-pow | excess`.

use assert_cmd::Command;
use predicates::str::contains;

/// A private cache directory, so tests neither read nor write the user's cache; removed when
/// dropped.
fn cache_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("grundy-nim-test-{name}-"))
        .tempdir()
        .unwrap()
}

/// The command with a private cache directory that lives as long as the command.
struct Grundy {
    command: Command,
    _cache: tempfile::TempDir,
}

impl std::ops::Deref for Grundy {
    type Target = Command;
    fn deref(&self) -> &Command {
        &self.command
    }
}

impl std::ops::DerefMut for Grundy {
    fn deref_mut(&mut self) -> &mut Command {
        &mut self.command
    }
}

fn grundy(name: &str) -> Grundy {
    let cache = cache_dir(name);
    let mut command = Command::cargo_bin("grundy").unwrap();
    command.env("XDG_CACHE_HOME", cache.path());
    Grundy {
        command,
        _cache: cache,
    }
}

fn ok(name: &str, args: &[&str], stdout: &str) {
    grundy(name)
        .args(args)
        .assert()
        .success()
        .stdout(format!("{stdout}\n"));
}

fn bad(name: &str, args: &[&str], code: i32, message: &str) {
    grundy(name)
        .args(args)
        .assert()
        .code(code)
        .stdout("")
        .stderr(contains(message));
}

#[test]
fn nim_mul_published_values() {
    ok("mul1", &["ordinal", "nim-mul", "w", "w"], "w^2");
    ok("mul2", &["ordinal", "nim-mul", "w", "w^2"], "2");
    ok("mul3", &["ordinal", "nim-mul", "w", "7"], "w*7");
    ok("mul4", &["ordinal", "nim-mul", "w", "w", "w", "3"], "1");
    ok("mul5", &["ordinal", "nim-mul", "3", "5"], "15"); // (2⊕1)⊗(4⊕1) = 8⊕2⊕4⊕1
    ok("mul6", &["ordinal", "nim-mul", "8", "8"], "13");
}

#[test]
fn nim_pow_published_values() {
    ok("pow1", &["ordinal", "nim-pow", "w", "3"], "2");
    ok("pow2", &["ordinal", "nim-pow", "w^w", "5"], "4");
    ok("pow3", &["ordinal", "nim-pow", "w^(w^2)", "7"], "w+1");
    ok("pow4", &["ordinal", "nim-pow", "w+1", "0"], "1");
}

#[test]
fn nim_inv_round_trips() {
    ok("inv1", &["ordinal", "nim-inv", "w"], "w^2*3");
    ok("inv2", &["ordinal", "nim-inv", "2"], "3");
    let out = grundy("inv3")
        .args(["ordinal", "nim-inv", "w^(w)*5+w^2+9"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let inv = String::from_utf8(out).unwrap();
    ok(
        "inv4",
        &["ordinal", "nim-mul", "w^(w)*5+w^2+9", inv.trim()],
        "1",
    );
}

#[test]
fn excess_values_and_cache() {
    let dir = cache_dir("excess");
    let cache = dir.path().join("ex.tsv");
    let cache_s = cache.to_str().unwrap();
    for (p, m) in [("3", "0"), ("7", "1"), ("19", "4"), ("23", "1")] {
        grundy("excess-run")
            .args(["ordinal", "excess", p, "--cache", cache_s])
            .assert()
            .success()
            .stdout(format!("{m}\n"));
    }
    let text = std::fs::read_to_string(&cache).unwrap();
    assert!(text.contains("19\t4\t18\t"), "{text}");
    grundy("excess-verbose")
        .args(["ordinal", "excess", "23", "--verbose", "--cache", cache_s])
        .assert()
        .success()
        .stdout("1\n")
        .stderr(contains("p = 23: m_p = 1, f(p) = 11, alpha_p = w^(w^3)+1"))
        .stderr(contains("from the cache"));
    grundy("excess-nocache")
        .args(["ordinal", "excess", "13", "--no-cache", "-v"])
        .assert()
        .success()
        .stdout("0\n")
        .stderr(contains("computed in"));
    // The second route agrees, and says so on stderr; the answer on stdout is unchanged.
    grundy("excess-check")
        .args(["ordinal", "excess", "47", "--no-cache", "--check"])
        .assert()
        .success()
        .stdout("1\n")
        .stderr(contains("m_47 = 1 checked by the second route"));
}

#[test]
fn bad_input() {
    bad("b1", &["ordinal", "excess", "9"], 2, "not an odd prime");
    bad("b2", &["ordinal", "excess", "2"], 2, "not an odd prime");
    bad("b3", &["ordinal", "excess", "x"], 2, "argument P");
    bad(
        "b4",
        &["ordinal", "nim-mul", "w^(w^w)", "2"],
        2,
        "not below w^(w^w)",
    );
    bad("b5", &["ordinal", "nim-mul", "w", "w^"], 2, "argument 2");
    bad(
        "b6",
        &["ordinal", "nim-inv", "0"],
        2,
        "A: 0 has no nim inverse",
    );
    bad("b7", &["ordinal", "nim-pow", "w", "-1"], 2, "-1");
    bad(
        "b9",
        &["ordinal", "excess", "18446744073709551557"],
        3,
        "up to 1000000",
    );
    // Excesses are tested in towers that are never flattened: their limit is the memory budget.
    bad(
        "b8",
        &["ordinal", "excess", "47", "--no-cache", "--memory", "1K"],
        3,
        "raise it with --memory",
    );
    // Inverses still flatten the levels below the top of a tower.
    bad(
        "b10",
        &["ordinal", "nim-inv", "w^(w^13)+1", "--max-degree", "100"],
        3,
        "raise --max-degree",
    );
}

#[test]
fn help_has_examples() {
    for sub in ["nim-mul", "nim-inv", "nim-pow", "excess"] {
        grundy("help")
            .args(["ordinal", sub, "--help"])
            .assert()
            .success()
            .stdout(contains("grundy ordinal"));
    }
}

#[test]
fn the_excess_cache_follows_xdg_cache_home_and_no_cache_skips_it() {
    let dir = cache_dir("xdg");
    let dir = dir.path();
    let file = dir.join("grundy").join("excess.tsv");
    Command::cargo_bin("grundy")
        .unwrap()
        .env("XDG_CACHE_HOME", dir)
        .args(["ordinal", "excess", "7", "--no-cache"])
        .assert()
        .success()
        .stdout("1\n");
    assert!(!file.exists(), "--no-cache wrote {}", file.display());
    Command::cargo_bin("grundy")
        .unwrap()
        .env("XDG_CACHE_HOME", dir)
        .args(["ordinal", "excess", "7"])
        .assert()
        .success()
        .stdout("1\n");
    let cached = std::fs::read_to_string(&file).unwrap();
    assert!(cached.lines().any(|l| l.starts_with("7\t")), "{cached}");
    // Without XDG_CACHE_HOME the cache sits under $HOME/.cache.
    let home = cache_dir("home");
    let home = home.path();
    Command::cargo_bin("grundy")
        .unwrap()
        .env_remove("XDG_CACHE_HOME")
        .env("HOME", home)
        .args(["ordinal", "excess", "7"])
        .assert()
        .success();
    assert!(home.join(".cache/grundy/excess.tsv").exists());
    for sub in ["nim-mul", "nim-inv", "nim-pow", "excess"] {
        grundy("xdg-help")
            .args(["ordinal", sub, "--help"])
            .assert()
            .success()
            .stdout(contains("--no-cache"))
            .stdout(contains("XDG_CACHE_HOME"));
    }
}

/// Plain arithmetic that needs only excesses found at once leaves the cache alone; `excess`,
/// which asks for one, keeps it; the help says which commands touch it.
#[test]
fn only_commands_that_need_an_excess_write_the_cache() {
    let dir = cache_dir("untouched");
    let file = dir.path().join("grundy").join("excess.tsv");
    let run = |args: &[&str], out: &str| {
        Command::cargo_bin("grundy")
            .unwrap()
            .env("XDG_CACHE_HOME", dir.path())
            .args(args)
            .assert()
            .success()
            .stdout(format!("{out}\n"));
    };
    run(&["ordinal", "nim-mul", "w", "w^2"], "2");
    run(&["ordinal", "nim-inv", "w"], "w^2*3");
    run(&["ordinal", "nim-pow", "w", "3"], "2");
    run(&["ordinal", "nim-sum", "w+1", "w+2"], "3");
    run(&["ordinal", "cascade", "1,0", "0,3"], "w+3");
    run(&["nimber", "mul", "8", "9"], "5");
    assert!(
        !dir.path().join("grundy").exists(),
        "{} was written",
        file.display()
    );
    run(&["ordinal", "excess", "7"], "1");
    assert!(file.exists(), "excess did not keep {}", file.display());
    grundy("cache-help")
        .args(["ordinal", "nim-mul", "--help"])
        .assert()
        .success()
        .stdout(contains("No other grundy command touches it"));
}

/// A cache line cut short (a crash while writing, a full disk) or altered is ignored with a
/// warning and the value is computed again, never read wrong; the cache is then rewritten whole.
#[test]
fn a_damaged_excess_cache_is_not_trusted() {
    let dir = cache_dir("poisoned");
    let cache = dir.path().join("c.tsv");
    let cache_s = cache.to_str().unwrap();
    let pow = ["ordinal", "nim-pow", "--cache", cache_s, "w^(w^23)", "97"];
    grundy("poisoned-fill")
        .args(pow)
        .assert()
        .success()
        .stdout("w+256\n");
    let text = std::fs::read_to_string(&cache).unwrap();
    assert!(text.lines().any(|l| l.starts_with("97\t")), "{text}");
    // Every cut inside the last line, and one byte changed in it.
    let last = text.trim_end().rsplit('\n').next().unwrap().len();
    let mut damaged: Vec<String> = (1..last)
        .map(|k| format!("{}\n", &text[..text.len() - 1 - k]))
        .collect();
    damaged.push(text.replacen("w+256", "w+255", 1));
    for bad in damaged {
        std::fs::write(&cache, &bad).unwrap();
        grundy("poisoned-read")
            .args(pow)
            .assert()
            .success()
            .stdout("w+256\n")
            .stderr(contains("damaged or inconsistent"));
        assert_eq!(std::fs::read_to_string(&cache).unwrap(), text, "{bad}");
    }
}

/// `--cache` in a directory that does not exist: the answer is given, the cache is not written
/// (with a warning), and no directory is created.
#[test]
fn a_cache_path_in_a_missing_directory_creates_nothing() {
    let root = cache_dir("missing");
    let dir = root.path().join("no").join("such");
    let cache = dir.join("c.tsv");
    grundy("missing-dir")
        .args(["ordinal", "excess", "7", "--cache", cache.to_str().unwrap()])
        .assert()
        .success()
        .stdout("1\n")
        .stderr(contains("could not write the excess cache"));
    assert!(
        !dir.parent().unwrap().exists(),
        "{} was created",
        dir.display()
    );
}

/// `nim-pow` with the exponent 10^12 (reduced modulo the order of the field's multiplicative
/// group): against the library's κ-polynomial square-and-multiply where that is quick, and as
/// `(A^(10^6))^(10^6)` for an ordinal whose powers have hundreds of terms.
#[test]
fn nim_pow_with_a_large_exponent() {
    let out = |name: &str, args: &[&str]| -> String {
        let o = grundy(name).args(args).assert().success();
        String::from_utf8(o.get_output().stdout.clone())
            .unwrap()
            .trim_end()
            .to_string()
    };
    let e = "1000000000000";
    let a = "w^(w^2)+w+1";
    let mut f = grundy::ordinal::nim_mul::ClosureField::<grundy::nimber::NimBig>::new();
    let x = grundy::ordinal::nim_mul::KappaPoly::from_ordinal(
        &grundy::notation::ordinal::parse_ordinal(a).unwrap(),
    )
    .unwrap();
    let want = f
        .pow_by_products(&x, &num_bigint::BigUint::from(10u32).pow(12))
        .unwrap()
        .to_ordinal();
    assert_eq!(
        out("pow-big1", &["ordinal", "nim-pow", a, e]),
        want.to_string()
    );
    let a = "w^(w^4)*3+w^(w^2)+w+5";
    let whole = out("pow-big2", &["ordinal", "nim-pow", a, e]);
    let half = out("pow-big3", &["ordinal", "nim-pow", a, "1000000"]);
    assert_eq!(
        out("pow-big4", &["ordinal", "nim-pow", &half, "1000000"]),
        whole
    );
    assert_ne!(whole, "0");
}
