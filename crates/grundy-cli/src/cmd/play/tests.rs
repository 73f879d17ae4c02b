use super::*;

fn becomes(heap: u64, from: Option<u64>, to: &[u64]) -> Command {
    Command::Play(Typed::Becomes {
        heap,
        from,
        to: to.to_vec(),
    })
}

#[test]
fn every_move_form_parses() {
    assert_eq!(
        parse_command("heap 2: 16 -> 9"),
        Ok(becomes(2, Some(16), &[9]))
    );
    assert_eq!(
        parse_command("2:16->1 3"),
        Ok(becomes(2, Some(16), &[1, 3]))
    );
    assert_eq!(parse_command("2 -> 9"), Ok(becomes(2, None, &[9])));
    assert_eq!(parse_command("heap 2 -> 9"), Ok(becomes(2, None, &[9])));
    assert_eq!(parse_command("2 ->"), Ok(becomes(2, None, &[])));
    assert_eq!(parse_command("2 0"), Ok(becomes(2, None, &[0])));
    assert_eq!(parse_command(" 3 1 2 "), Ok(becomes(3, None, &[1, 2])));
    assert_eq!(
        parse_command("Take 4 from 1"),
        Ok(Command::Play(Typed::Take { heap: 1, k: 4 }))
    );
    assert_eq!(
        parse_command("take 4 from heap 1"),
        Ok(Command::Play(Typed::Take { heap: 1, k: 4 }))
    );
    assert_eq!(
        parse_command("1 -4"),
        Ok(Command::Play(Typed::Take { heap: 1, k: 4 }))
    );
    assert_eq!(parse_command("hint"), Ok(Command::Hint));
    assert_eq!(parse_command("moves 3"), Ok(Command::Moves(3)));
    assert_eq!(parse_command("HELP"), Ok(Command::Help));
    assert_eq!(parse_command("quit"), Ok(Command::Quit));
    assert_eq!(parse_command("   "), Ok(Command::Empty));
}

#[test]
fn malformed_lines_say_what_was_expected() {
    for bad in [
        "2 -> x",
        "two -> 1",
        "2",
        "take 4",
        "take x from 1",
        "moves",
        "moves a",
        "1 --4",
        "heap",
        "2 -> -1",
        "99999999999999999999999 -> 1",
        "heap 2: -> 1",
    ] {
        let e = parse_command(bad).expect_err(bad);
        assert!(!e.is_empty(), "{bad}");
    }
    assert!(parse_command("dance")
        .unwrap_err()
        .contains("unknown command `dance`"));
}

#[test]
fn wrapping_keeps_words_and_tables() {
    let text = "a ".repeat(100);
    for l in wrap(text.trim(), 10) {
        assert!(
            l.len() <= 10 && !l.starts_with(' ') && !l.ends_with(' '),
            "{l:?}"
        );
    }
    let quoted = wrap("see `2 -> 1 3` here", 12);
    assert_eq!(quoted, vec!["see", "`2 -> 1 3`", "here"]);
    let table = format!("  {}", "1".repeat(100));
    assert_eq!(wrap(&table, 10), vec![table.clone()]);
}

fn game(g: &str, heaps: &[u64], misere: bool) -> Game {
    Game {
        game: g.into(),
        rule: g.parse().unwrap(),
        heaps: heaps.to_vec(),
        misere,
        hints: false,
        echo: true,
        ctl: grundy::control::Control::none(),
    }
}

/// The loop on in-memory input: the human follows every hint of Nim 27 16 8 2 7 and wins.
#[test]
fn following_hints_wins_in_memory() {
    let mut g = game("nim", &[27, 16, 8, 2, 7], false);
    let mut out = Vec::new();
    let mut input = String::new();
    // Play the hint each turn by simulating the engine here too.
    let mut heaps = g.heaps.clone();
    loop {
        let h = hint::hint(&g.rule, &heaps, false, &grundy::control::Control::none()).unwrap();
        let Some(m) = h.suggested else { break };
        input.push_str(&show_move(&m));
        input.push('\n');
        heaps = hint::apply(&g.rule, &heaps, &m).unwrap();
        match hint::engine_move(&g.rule, &heaps, false, &grundy::control::Control::none()).unwrap()
        {
            Some(e) => heaps = hint::apply(&g.rule, &heaps, &e).unwrap(),
            None => break,
        }
    }
    g.play(&mut input.as_bytes(), &mut out, Player::Human)
        .unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("so you win"), "{text}");
}

#[test]
fn long_lines_are_skipped() {
    let mut data = vec![b'x'; 10_000];
    data.extend_from_slice(b"\nhint\n");
    let mut r = &data[..];
    let (_, long) = read_line(&mut r).unwrap().unwrap();
    assert!(long);
    let (line, long) = read_line(&mut r).unwrap().unwrap();
    assert_eq!((line.as_str(), long), ("hint\n", false));
    assert!(read_line(&mut r).unwrap().is_none());
}
