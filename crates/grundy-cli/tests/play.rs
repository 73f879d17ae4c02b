//! `grundy play`: whole games through stdin (following hints wins; from a P position the engine
//! wins whatever the human does), every kind of bad input, and one game through a
//! pseudo-terminal.
//!
//! The engine is deterministic, so a game is driven by replaying: the moves chosen so far are
//! written to stdin, the transcript is read up to the end of input, and the next move is chosen
//! from what the transcript shows (the hint's move, or a random legal move of the heaps shown).

use assert_cmd::Command;
use grundy::control::Control;
use grundy::heap::hint::{self, Hint};
use grundy::heap::position::Move;
use grundy::heap::HeapGame;
use grundy::solve::Outcome;
use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn grundy() -> Command {
    Command::cargo_bin("grundy").unwrap()
}

/// The transcript of `grundy play ARGS` with `input` on stdin; the run must exit 0.
fn transcript(args: &[&str], input: impl Into<Vec<u8>>) -> String {
    let out = grundy()
        .arg("play")
        .args(args)
        .write_stdin(input)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

/// The heaps shown last: the final block of `  heap I: H` lines of the position display.
fn last_heaps(text: &str) -> Vec<u64> {
    let mut blocks: Vec<Vec<u64>> = Vec::new();
    let mut in_block = false;
    for line in text.lines() {
        let shown = line
            .strip_prefix("  heap ")
            .filter(|rest| !rest.contains('='))
            .and_then(|rest| rest.split_once(": "))
            .and_then(|(_, h)| h.split_whitespace().next())
            .and_then(|h| h.parse::<u64>().ok());
        match shown {
            Some(h) if in_block => blocks.last_mut().unwrap().push(h),
            Some(h) => {
                blocks.push(vec![h]);
                in_block = true;
            }
            None => {
                in_block = false;
                if line == "  no heaps left" {
                    blocks.push(Vec::new());
                }
            }
        }
    }
    blocks.pop().expect("no position shown")
}

/// The move of the last `hint: heap ...` line, as typed (the `heap I: H -> A B` notation).
fn last_hint(text: &str) -> Option<String> {
    text.lines()
        .rev()
        .find(|l| l.starts_with("hint: heap ") || l == &"hint: no winning move")
        .and_then(|l| l.strip_prefix("hint: "))
        .filter(|m| m.starts_with("heap "))
        .map(str::to_string)
}

/// Plays `game` from `heaps` with `--hints`, typing each hint the transcript shows, until the
/// game is over; returns the final transcript.
fn follow_hints(args: &[&str]) -> String {
    let mut args = args.to_vec();
    args.push("--hints");
    let mut input = String::new();
    for _ in 0..200 {
        let text = transcript(&args, input.as_str());
        if text.contains("game over:") {
            return text;
        }
        let mv = last_hint(&text).unwrap_or_else(|| panic!("no winning move shown:\n{text}"));
        input.push_str(&mv);
        input.push('\n');
    }
    panic!("the game did not end in 200 moves");
}

/// The transcript with line breaks as spaces, to find messages wrapped over lines.
fn flat(text: &str) -> String {
    text.replace('\n', " ")
}

/// Every move the human made in a transcript (`you: heap ...` lines).
fn human_moves(text: &str) -> usize {
    text.lines().filter(|l| l.starts_with("you: heap ")).count()
}

#[test]
fn following_the_hints_wins_nim_27_16_8_2_7() {
    let text = follow_hints(&["nim", "27", "16", "8", "2", "7"]);
    // The worked example: the first hint shows the columns, marks the 4s column and changes
    // the 7 to 1.
    assert!(text.contains("  heap  1: 27 = 11011\n"), "{text}");
    assert!(text.contains("  nim-sum:  6 = 00110\n"), "{text}");
    assert!(
        text.contains("change heap 5 from 7 to 1 (take 6)"),
        "{text}"
    );
    assert!(text.contains("you: heap 5: 7 -> 1\n"), "{text}");
    assert!(
        text.contains("game over: the engine has no move left, so you win"),
        "{text}"
    );
    // Every hint was N for the human: a winning position stays winning.
    assert!(!text.contains("hint: P"), "{text}");
    assert_eq!(last_heaps(&text), Vec::<u64>::new());
}

#[test]
fn following_the_hints_wins_kayles_and_dawsons_kayles() {
    for args in [
        &["kayles", "5", "7", "4"][..],
        &["octal:0.07", "9", "4"][..],
        &["sub:1,3,4", "10", "6"][..],
    ] {
        // Check with the library that the start is an N position, or the test means nothing.
        let rule: HeapGame = args[0].parse().unwrap();
        let heaps: Vec<u64> = args[1..].iter().map(|h| h.parse().unwrap()).collect();
        assert_eq!(
            hint::hint(&rule, &heaps, false, &Control::none())
                .unwrap()
                .outcome,
            Outcome::N
        );
        let text = follow_hints(args);
        assert!(text.contains("so you win (normal play"), "{args:?}\n{text}");
        assert!(text.contains("Sprague-Grundy"), "{text}");
    }
}

#[test]
fn following_the_hints_wins_misere_nim_and_kayles() {
    for args in [
        &["nim", "2", "3", "4", "--misere"][..],
        &["nim", "1", "1", "5", "--misere"][..],
        &["kayles", "3", "4", "--misere"][..],
    ] {
        let rule: HeapGame = args[0].parse().unwrap();
        let heaps: Vec<u64> = args[1..args.len() - 1]
            .iter()
            .map(|h| h.parse().unwrap())
            .collect();
        assert_eq!(
            hint::hint(&rule, &heaps, true, &Control::none())
                .unwrap()
                .outcome,
            Outcome::N
        );
        let text = follow_hints(args);
        // Under misère play the winner is the one left without a move.
        assert!(
            text.contains("you have no move left, so you win (misère play"),
            "{args:?}\n{text}"
        );
        assert!(text.contains("hint: N"), "{text}");
    }
    let text = follow_hints(&["nim", "2", "3", "4", "--misere"]);
    assert!(text.contains("Misère Nim (Bouton)"), "{text}");
}

/// Plays random legal moves (chosen with the library from the heaps shown) from a position that
/// is P for the human; the engine must win every game.
fn engine_wins_from_p(args: &[&str], misere: bool, seed: u64) -> String {
    let rule: HeapGame = args[0].parse().unwrap();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut input = String::new();
    for _ in 0..200 {
        let text = transcript(args, input.as_str());
        if text.contains("game over:") {
            return text;
        }
        let heaps = last_heaps(&text);
        // The human is always to move in a P position: the engine restores it every time.
        let h: Hint = hint::hint(&rule, &heaps, misere, &Control::none()).unwrap();
        assert_eq!(h.outcome, Outcome::P, "{heaps:?}\n{text}");
        let mut moves: Vec<Move> = Vec::new();
        for i in 0..heaps.len() {
            moves.extend(hint::legal_moves(&rule, &heaps, i, &Control::none()).unwrap());
        }
        let m = &moves[rng.gen_range(0..moves.len())];
        let to: Vec<String> = m.to.iter().map(u64::to_string).collect();
        // Alternate between the input forms.
        let line = match rng.gen_range(0..3) {
            0 => format!("{} -> {}", m.heap + 1, to.join(" ")),
            1 if !m.to.is_empty() => format!("{} {}", m.heap + 1, to.join(" ")),
            _ => format!("heap {}: {} -> {}", m.heap + 1, m.from, to.join(" ")),
        };
        input.push_str(line.trim_end());
        input.push('\n');
    }
    panic!("the game did not end in 200 moves");
}

#[test]
fn from_a_p_position_the_engine_wins_whatever_the_human_does() {
    for seed in 0..4 {
        let text = engine_wins_from_p(&["nim", "5", "9", "12"], false, seed);
        assert!(
            text.contains("you have no move left, so the engine wins (normal play"),
            "{text}"
        );
        let text = engine_wins_from_p(&["kayles", "1", "2", "3"], false, seed);
        assert!(text.contains("so the engine wins"), "{text}");
        let text = engine_wins_from_p(&["nim", "1", "1", "1", "--misere"], true, seed);
        assert!(
            text.contains("the engine has no move left, so the engine wins (misère play"),
            "{text}"
        );
        assert!(human_moves(&text) >= 1);
    }
}

#[test]
fn take_and_minus_forms_play_subtraction_games() {
    // The engine answers 10 -> 7 (values 0 and 2) by 6 -> 2, the move the hint explains.
    let text = transcript(&["sub:1,3,4", "10", "6"], "take 3 from 1\n1 -4\n");
    assert!(text.contains("you: heap 1: 10 -> 7\n"), "{text}");
    assert!(text.contains("engine: heap 2: 6 -> 2\n"), "{text}");
    assert!(text.contains("you: heap 1: 7 -> 3\n"), "{text}");
    // Taking 2 is not in the subtraction set {1, 3, 4}.
    let text = transcript(&["sub:1,3,4", "10", "6"], "take 2 from 1\n");
    assert!(
        flat(&text).contains("not a legal move: heap 1 (10 tokens) cannot become 8"),
        "{text}"
    );
}

#[test]
fn the_engine_can_move_first() {
    let text = transcript(&["nim", "3", "5", "--engine-first"], "");
    assert!(text.contains("The engine moves first."), "{text}");
    // 3 xor 5 = 6: the engine's winning move makes the heaps equal.
    assert!(text.contains("engine: heap 2: 5 -> 3\n"), "{text}");
    assert_eq!(last_heaps(&text), vec![3, 3]);
    assert!(text.ends_with("your move> \nend of input: the game is left unfinished.\n"));
}

#[test]
fn the_transcript_is_stable() {
    let text = transcript(&["nim", "3", "1"], "1 -> 0\nquit\n");
    assert_eq!(
        text,
        "grundy play: nim (normal play: whoever makes the last move wins).\n\
         You move first.\n\
         Type `help` for how to write a move; `hint` shows the winning move and why.\n\
         \n  heap 1: 3  ooo\n  heap 2: 1  o\n\
         your move> 1 -> 0\n\
         you: heap 1: 3 ->\n\
         engine: heap 1: 1 ->\n\
         \n  no heaps left\n\
         game over: you have no move left, so the engine wins (normal play: whoever cannot \
         move loses).\n"
    );
}

#[test]
fn commands_help_hint_moves_quit() {
    let text = transcript(
        &["kayles", "4", "9"],
        "help\nmoves 1\nmoves 3\nhint\nquit\n",
    );
    assert!(text.contains("take K from I      take K tokens"), "{text}");
    assert!(
        text.contains("heap 1 (4 tokens) has 4 legal moves:\n"),
        "{text}"
    );
    assert!(text.contains("\n  heap 1: 4 -> 1 1\n"), "{text}");
    assert!(
        text.contains("there is no heap 3: the heaps are numbered 1 to 2"),
        "{text}"
    );
    assert!(
        text.contains("hint: N: the player to move (you) can win."),
        "{text}"
    );
    assert!(
        text.contains("you quit: the game is left unfinished.\n"),
        "{text}"
    );
    assert_eq!(human_moves(&text), 0);
    let text = transcript(&["nim", "40"], "moves 1\n");
    assert!(
        text.contains("can become any smaller heap, 0 to 39"),
        "{text}"
    );
    // Large heaps are not drawn as tokens, and their options are not listed.
    let text = transcript(&["octal:0.77", "200000"], "moves 1\n");
    assert!(text.contains("  heap 1: 200000\n"), "{text}");
    assert!(text.contains("too many to list"), "{text}");
}

#[test]
fn bad_moves_are_answered_and_the_game_goes_on() {
    let cases = [
        ("2 -> x\n", "`x` is not a heap size"),
        ("2 ->> 3\n", "is not a heap size"),
        (
            "7 -> 1\n",
            "there is no heap 7: the heaps are numbered 1 to 3",
        ),
        ("0 -> 1\n", "there is no heap 0"),
        (
            "1 -> 9\n",
            "not a legal move: heap 1 (5 tokens) cannot become 9",
        ),
        (
            "heap 1: 4 -> 1\n",
            "not a legal move: heap 1 has 5 tokens, not 4",
        ),
        ("1 -> 1 1\n", "not a legal move"),
        (
            "take 6 from 1\n",
            "heap 1 has only 5 tokens: you cannot take 6",
        ),
        ("take 0 from 1\n", "taking 0 tokens is not a move"),
        ("take two from 1\n", "`two` is not a number of tokens"),
        ("take 1\n", "expected `take K from I`"),
        ("2\n", "a heap number alone is not a move"),
        ("dance\n", "unknown command `dance`"),
        ("moves\n", "`moves` takes one heap number"),
        ("99999999999999999999999 -> 1\n", "is not a heap number"),
    ];
    for (line, message) in cases {
        let text = transcript(&["nim", "5", "6", "7"], format!("{line}1 -> 0\n"));
        assert!(flat(&text).contains(message), "{line:?}\n{text}");
        // The prompt came again and the next, legal move was played.
        assert!(text.contains("you: heap 1: 5 ->\n"), "{line:?}\n{text}");
        assert_eq!(human_moves(&text), 1);
    }
    // Illegal for the rule: Kayles takes one or two adjacent pins.
    let text = transcript(&["kayles", "6"], "1 -> 1 1\n1 -> 2\n1 -> 1 3\n");
    assert!(
        flat(&text).contains("heap 1 (6 tokens) cannot become 1 + 1 under this game's rule"),
        "{text}"
    );
    assert!(text.contains("cannot become 2 under"), "{text}");
    assert!(text.contains("you: heap 1: 6 -> 1 3\n"), "{text}");
    // A very long line and bytes that are not UTF-8 are refused, not fatal.
    let mut long = "1".repeat(100_000).into_bytes();
    long.extend_from_slice(b"\n\xff\xfe\n1 -> 0\n");
    let text = transcript(&["nim", "5", "6", "7"], long);
    assert!(text.contains("that line is too long"), "{text}");
    assert!(text.contains("unknown command"), "{text}");
    assert_eq!(human_moves(&text), 1);
}

#[test]
fn end_of_input_mid_game_exits_politely() {
    let text = transcript(&["nim", "5", "6", "7"], "1 -> 3");
    assert!(text.contains("you: heap 1: 5 -> 3\n"), "{text}");
    assert!(text.ends_with("\nend of input: the game is left unfinished.\n"));
    let text = transcript(&["nim", "5"], "");
    assert!(text.ends_with("your move> \nend of input: the game is left unfinished.\n"));
}

#[test]
fn bad_arguments_exit_2_or_3() {
    grundy()
        .args(["play", "nimm", "3"])
        .assert()
        .code(2)
        .stderr(contains("GAME").and(contains("column")));
    grundy()
        .args(["play", "nim"])
        .assert()
        .code(2)
        .stderr(contains("at least one heap"));
    grundy()
        .args(["play", "nim", "3", "x"])
        .assert()
        .code(2)
        .stderr(contains("heap 2"));
    grundy()
        .args(["play", "kayles", "3", "10000001"])
        .assert()
        .code(3)
        .stderr(contains("heap 2 is 10000001, above the limit of 10000000"));
    grundy()
        .args(["play", "nim", "3", "--bogus"])
        .assert()
        .code(2);
    grundy()
        .args(["play", "--help"])
        .assert()
        .success()
        .stdout(contains("grundy play nim 27 16 8 2 7 --hints"));
}

/// One game through a real pseudo-terminal (util-linux `script`): the terminal echoes what is
/// typed, the program does not; the test waits for each prompt, reads the hint and types it.
#[test]
fn plays_through_a_pseudo_terminal() {
    use std::io::{Read, Write};
    use std::process::{Command as Process, Stdio};
    use std::sync::mpsc;
    use std::time::{Duration, Instant};

    if Process::new("script").arg("--version").output().is_err() {
        eprintln!(
            "note: `script` (util-linux) is not installed: the pseudo-terminal test is skipped"
        );
        return;
    }
    let bin = assert_cmd::cargo::cargo_bin("grundy");
    let command = format!("{} play nim 27 16 8 2 7 --hints", bin.display());
    let mut child = Process::new("script")
        .args(["-qec", &command, "/dev/null"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel::<Vec<u8>>();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = stdout.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let mut stdin = child.stdin.take().unwrap();
    let mut text = String::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut prompts_answered = 0;
    loop {
        let chunk = match rx.recv_timeout(Duration::from_secs(20)) {
            Ok(c) => c,
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
            Err(mpsc::RecvTimeoutError::Timeout) => panic!("no output for 20 s:\n{text}"),
        };
        text.push_str(&String::from_utf8_lossy(&chunk).replace('\r', ""));
        assert!(Instant::now() < deadline, "the game took too long:\n{text}");
        if text.matches("your move> ").count() > prompts_answered && text.ends_with("your move> ") {
            prompts_answered += 1;
            let mv = last_hint(&text).unwrap_or_else(|| panic!("no hint shown:\n{text}"));
            stdin.write_all(format!("{mv}\n").as_bytes()).unwrap();
            stdin.flush().unwrap();
        }
    }
    assert!(child.wait().unwrap().success());
    // The terminal echoed each typed move after its prompt.
    assert!(text.contains("your move> heap 5: 7 -> 1\n"), "{text}");
    assert!(text.contains("so you win (normal play"), "{text}");
    assert!(prompts_answered >= 2, "{text}");
}

/// A game written as a script plays like a built-in one; a script that fails is refused before
/// the game starts.
#[test]
fn script_games_play_and_broken_scripts_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let floor = dir.join("floor.rhai");
    std::fs::write(
        &floor,
        "fn options(n) {\n  let r = [];\n  for d in 2..=6 { r.push([n / d]); }\n  r\n}\n",
    )
    .unwrap();
    let game = format!("script:{}", floor.display());
    // G(13) = 1, G(100) = 0 (the divide game's values): an N position.
    let text = follow_hints(&[&game, "13", "100"]);
    assert!(text.contains("so you win (normal play"), "{text}");
    let broken = dir.join("broken.rhai");
    std::fs::write(
        &broken,
        "fn options(n) { if n == 3 { throw \"no\"; } [[n - 1]] }\n",
    )
    .unwrap();
    grundy()
        .args(["play", &format!("script:{}", broken.display()), "5"])
        .write_stdin("")
        .assert()
        .code(2)
        .stderr(contains("options(3)"));
}
