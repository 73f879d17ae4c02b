//! `grundy play GAME H1 H2 ...`: a game of heaps against the engine, in the terminal.
//!
//! The human and the engine take turns on the sum of heaps. The library decides everything:
//! [`hint::legal_moves`] and [`hint::apply`] say what a move may be and what it leaves,
//! [`hint::engine_move`] chooses the engine's reply (a winning move whenever one exists, by the
//! Sprague-Grundy theorem under normal play and Bouton's rule or a search under misère play), and
//! [`hint::hint`] explains the position. This module only reads lines, shows the heaps and says
//! what happened, so that a transcript of a game reads like a worked example.
//!
//! Input is line-based, so the game works the same from a terminal and from a pipe; when standard
//! input is not a terminal the line read is echoed after the prompt, so that the transcript shows
//! it where a terminal would.

use crate::error::CliError;
use crate::output::stdout;
use clap::Args;
use grundy::game::spec::GameSpec;
use grundy::heap::hint;
use grundy::heap::position::{Move, MAX_HEAP};
use grundy::heap::{HeapGame, Options};
use grundy::notation::game::parse_game;
use grundy::notation::number::parse_u64;
use grundy::solve::Outcome;
use grundy::Error;
use std::io::{self, BufRead, IsTerminal, Read, Write};

/// Arguments of `grundy play`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  grundy play nim 27 16 8 2 7 --hints\n  \
                        grundy play kayles 5 7 --engine-first\n  \
                        grundy play nim 1 2 2 --misere\n  \
                        printf 'hint\\n5 -> 1\\n' | grundy play nim 27 16 8 2 7\n\n\
                        Moves: `heap I: H -> A B` (as printed by `grundy position`), or short: \
                        `I -> A B` / `I A B` (heap I becomes heaps A and B), `I ->` or `I 0` \
                        (remove heap I), `take K from I` / `I -K`. Commands: hint, moves I, help, \
                        quit. Heaps are numbered from 1.")]
pub struct PlayArgs {
    /// The game (as for `grundy seq`), e.g. `nim`, `kayles`, `sub:1,3,4`, `octal:0.07`.
    game: String,
    /// Heap sizes (decimal or 0x-hexadecimal, at most 10000000); at least one.
    #[arg(value_name = "HEAP")]
    heaps: Vec<String>,
    /// Misère play: the player who cannot move wins (who takes the last token loses).
    #[arg(long)]
    misere: bool,
    /// Let the engine make the first move (the human moves first otherwise).
    #[arg(long)]
    engine_first: bool,
    /// Print the hint (the winning move and why) before every move of the human.
    #[arg(long)]
    hints: bool,
}

/// The longest input line read; the rest of a longer line is skipped, so that no input can
/// exhaust memory.
const MAX_LINE: u64 = 4096;

/// The most moves `moves I` lists, and the most options it is willing to enumerate.
const MAX_LISTED: usize = 60;
const MAX_ENUMERATED: u128 = 100_000;

/// Heaps up to this size are also drawn as rows of tokens.
const MAX_DRAWN: u64 = 40;

/// The width to which explanations are wrapped.
const WIDTH: usize = 78;

/// Runs `grundy play`.
pub fn run(args: PlayArgs) -> Result<(), CliError> {
    let spec = parse_game(&args.game).map_err(|e| e.in_source("GAME"))?;
    let rule = HeapGame::from_spec(spec)?;
    if args.heaps.is_empty() {
        return Err(CliError::usage(
            "grundy play needs at least one heap, e.g. `grundy play nim 3 4 5`",
        ));
    }
    let heaps = args
        .heaps
        .iter()
        .enumerate()
        .map(|(i, h)| parse_u64(h).map_err(|e| e.in_source(format!("heap {}", i + 1))))
        .collect::<Result<Vec<u64>, _>>()?;
    if let Some((i, h)) = heaps.iter().enumerate().find(|(_, &h)| h > MAX_HEAP) {
        return Err(Error::limit(
            grundy::LimitKind::HeapSize,
            format!(
                "heap {} is {h}, above the limit of {MAX_HEAP} for `grundy play`",
                i + 1
            ),
            "use smaller heaps; `grundy position` analyses larger Nim heaps",
        )
        .into());
    }
    // Analysing the start once shows any limit (options, misère search) before the game begins;
    // every later position is reachable from it and so within the same limits.
    hint::hint(&rule, &heaps, args.misere, &crate::output::budgeted())?;
    let stdin = io::stdin();
    let mut game = Game {
        game: args.game,
        rule,
        heaps,
        misere: args.misere,
        hints: args.hints,
        echo: !stdin.is_terminal(),
    };
    let first = if args.engine_first {
        Player::Engine
    } else {
        Player::Human
    };
    game.play(&mut stdin.lock(), &mut stdout(), first)
}

/// Whose turn it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Player {
    Human,
    Engine,
}

/// A game in progress.
struct Game {
    game: String,
    rule: HeapGame,
    heaps: Vec<u64>,
    misere: bool,
    hints: bool,
    /// Whether to echo each line read (when input does not come from a terminal).
    echo: bool,
}

/// What the human typed.
#[derive(Debug, PartialEq, Eq)]
enum Command {
    /// A blank line.
    Empty,
    /// A move: heap `heap` (1-based) becomes something.
    Play(Typed),
    Hint,
    /// `moves I` (1-based).
    Moves(u64),
    Help,
    Quit,
}

/// A move as typed, before it is checked against the heaps.
#[derive(Debug, PartialEq, Eq)]
enum Typed {
    /// Heap `heap` (1-based), of `from` tokens if given, becomes the heaps `to` (0 for none).
    Becomes {
        heap: u64,
        from: Option<u64>,
        to: Vec<u64>,
    },
    /// Take `k` tokens from heap `heap` (1-based), leaving one heap.
    Take { heap: u64, k: u64 },
}

/// What a line should look like, for the messages that answer a malformed one.
const EXPECTED: &str = "expected a move such as `2 -> 9` (heap 2 becomes 9), `2 -> 1 3` \
                        (heap 2 becomes heaps 1 and 3), `2 ->` (remove heap 2), `take 7 from 2`, \
                        or a command: hint, moves I, help, quit";

const HELP: &str = "\
Type a move, one of:
  heap I: H -> A B   heap I, of H tokens, becomes heaps A and B (as `grundy position` prints)
  I -> A B           the same without the size; `I -> A` leaves one heap of A tokens
  I A B              the same without the arrow
  I ->   or   I 0    remove heap I
  take K from I      take K tokens from heap I, leaving one heap
  I -K               the same
or a command:
  hint               the winning move, and why it wins
  moves I            every legal move of heap I
  help               this list
  quit               leave the game
Heaps are numbered from 1, as shown.";

/// Reads a whole number typed by the human.
fn number(word: &str, what: &str) -> Result<u64, String> {
    word.parse::<u64>()
        .map_err(|_| format!("`{word}` is not {what} (expected a whole number); {EXPECTED}"))
}

/// Reads heap sizes typed after an arrow.
fn numbers(words: &[&str]) -> Result<Vec<u64>, String> {
    words.iter().map(|w| number(w, "a heap size")).collect()
}

/// Parses one line of input. The grammar, after `->` and `:` are split off as words:
/// `[heap] I [: H] -> A...`, `I A...`, `I -K`, `take K from [heap] I`, or a command word.
fn parse_command(line: &str) -> Result<Command, String> {
    let spaced = line
        .trim()
        .to_lowercase()
        .replace("->", " -> ")
        .replace(':', " : ");
    let words: Vec<&str> = spaced.split_whitespace().collect();
    let Some(&first) = words.first() else {
        return Ok(Command::Empty);
    };
    match (first, words.len()) {
        ("hint", 1) => return Ok(Command::Hint),
        ("help" | "?", 1) => return Ok(Command::Help),
        ("quit" | "exit", 1) => return Ok(Command::Quit),
        ("moves", 2) => return Ok(Command::Moves(number(words[1], "a heap number")?)),
        ("moves", _) => return Err("`moves` takes one heap number, e.g. `moves 2`".into()),
        ("take", _) => {
            let heap = match words.as_slice() {
                [_, _, "from", i] | [_, _, "from", "heap", i] => *i,
                _ => return Err("expected `take K from I`, e.g. `take 7 from 2`".into()),
            };
            return Ok(Command::Play(Typed::Take {
                heap: number(heap, "a heap number")?,
                k: number(words[1], "a number of tokens")?,
            }));
        }
        _ => {}
    }
    let rest = if first == "heap" {
        &words[1..]
    } else {
        &words[..]
    };
    let Some((&i, rest)) = rest.split_first() else {
        return Err(format!("`heap` needs a heap number; {EXPECTED}"));
    };
    if !i.starts_with(|c: char| c.is_ascii_digit()) {
        return Err(format!("unknown command `{i}`; {EXPECTED}"));
    }
    let heap = number(i, "a heap number")?;
    let typed = match rest {
        [] => {
            return Err(format!(
                "a heap number alone is not a move: say what heap {heap} becomes, e.g. \
                 `{heap} -> 0`, or `moves {heap}` for its moves"
            ))
        }
        [":", h, "->", to @ ..] => Typed::Becomes {
            heap,
            from: Some(number(h, "a heap size")?),
            to: numbers(to)?,
        },
        ["->", to @ ..] => Typed::Becomes {
            heap,
            from: None,
            to: numbers(to)?,
        },
        [k] if k.starts_with('-') => Typed::Take {
            heap,
            k: number(&k[1..], "a number of tokens")?,
        },
        to => Typed::Becomes {
            heap,
            from: None,
            to: numbers(to)?,
        },
    };
    Ok(Command::Play(typed))
}

/// `heap I: H -> A B` (1-based I), the notation of `grundy position`.
fn show_move(m: &Move) -> String {
    let mut s = format!("heap {}: {} ->", m.heap + 1, m.from);
    for h in &m.to {
        s.push_str(&format!(" {h}"));
    }
    s
}

/// `1 token` / `5 tokens`.
fn tokens(n: u64) -> String {
    if n == 1 {
        "1 token".into()
    } else {
        format!("{n} tokens")
    }
}

/// Splits `line` into lines of at most `width` characters at spaces, never inside a
/// `quoted` example (a longer word stays whole). Lines that start with a space are
/// preformatted (tables) and kept as they are.
fn wrap(line: &str, width: usize) -> Vec<String> {
    if line.starts_with(' ') || line.chars().count() <= width {
        return vec![line.to_string()];
    }
    // Words joined back while a backquote is open, so that examples stay on one line.
    let mut words: Vec<String> = Vec::new();
    let mut open = false;
    for word in line.split(' ') {
        match words.last_mut() {
            Some(last) if open => {
                last.push(' ');
                last.push_str(word);
            }
            _ => words.push(word.to_string()),
        }
        open ^= word.matches('`').count() % 2 == 1;
    }
    let mut lines = Vec::new();
    let mut cur = String::new();
    for word in words {
        if !cur.is_empty() && cur.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(&word);
    }
    lines.push(cur);
    lines
}

/// Writes a message, wrapped to [`WIDTH`] columns.
fn say(out: &mut impl Write, message: &str) -> io::Result<()> {
    for l in wrap(message, WIDTH) {
        writeln!(out, "{l}")?;
    }
    Ok(())
}

/// Reads one line of at most [`MAX_LINE`] bytes (the rest of a longer line is skipped);
/// `None` at end of input.
fn read_line(input: &mut impl BufRead) -> io::Result<Option<(String, bool)>> {
    let mut buf = Vec::new();
    let n = input.by_ref().take(MAX_LINE).read_until(b'\n', &mut buf)?;
    if n == 0 {
        return Ok(None);
    }
    let mut too_long = false;
    if buf.last() != Some(&b'\n') && n as u64 == MAX_LINE {
        too_long = true;
        let mut skipped = Vec::new();
        while input
            .by_ref()
            .take(MAX_LINE)
            .read_until(b'\n', &mut skipped)?
            > 0
        {
            if skipped.last() == Some(&b'\n') {
                break;
            }
            skipped.clear();
        }
    }
    Ok(Some((String::from_utf8_lossy(&buf).into_owned(), too_long)))
}

impl Game {
    /// Plays until the player to move has no move, the human quits, or input ends.
    fn play(
        &mut self,
        input: &mut impl BufRead,
        out: &mut impl Write,
        mut turn: Player,
    ) -> Result<(), CliError> {
        self.banner(out, turn)?;
        // Whether the heaps on screen are the current ones.
        let mut shown = false;
        if turn == Player::Engine {
            self.show(out)?;
            shown = true;
        }
        loop {
            if !self.has_move()? {
                if !shown {
                    self.show(out)?;
                }
                self.finish(out, turn)?;
                break;
            }
            shown = false;
            match turn {
                Player::Engine => {
                    let mv = hint::engine_move(
                        &self.rule,
                        &self.heaps,
                        self.misere,
                        &crate::output::budgeted(),
                    )?
                    .ok_or_else(|| Error::Internal("the engine found no move".into()))?;
                    writeln!(out, "engine: {}", show_move(&mv))?;
                    self.heaps = hint::apply(&self.rule, &self.heaps, &mv)?;
                    turn = Player::Human;
                }
                Player::Human => {
                    self.show(out)?;
                    if self.hints {
                        self.write_hint(out)?;
                    }
                    let Some((mv, after)) = self.read_move(input, out)? else {
                        break;
                    };
                    writeln!(out, "you: {}", show_move(&mv))?;
                    self.heaps = after;
                    turn = Player::Engine;
                }
            }
        }
        out.flush()?;
        Ok(())
    }

    fn banner(&self, out: &mut impl Write, first: Player) -> io::Result<()> {
        let rule = if self.misere {
            "misère play: whoever makes the last move loses"
        } else {
            "normal play: whoever makes the last move wins"
        };
        writeln!(out, "grundy play: {} ({rule}).", self.game)?;
        match first {
            Player::Human => writeln!(out, "You move first.")?,
            Player::Engine => writeln!(out, "The engine moves first.")?,
        }
        writeln!(
            out,
            "Type `help` for how to write a move; `hint` shows the winning move and why."
        )
    }

    /// The heaps, numbered from 1, drawn as rows of tokens when they are small.
    fn show(&self, out: &mut impl Write) -> io::Result<()> {
        writeln!(out)?;
        if self.heaps.is_empty() {
            return writeln!(out, "  no heaps left");
        }
        let wi = self.heaps.len().to_string().len();
        let max = self.heaps.iter().copied().max().unwrap_or(0);
        let wh = max.to_string().len();
        for (i, &h) in self.heaps.iter().enumerate() {
            write!(out, "  heap {:>wi$}: {h:>wh$}", i + 1)?;
            if max <= MAX_DRAWN && h > 0 {
                write!(out, "  ")?;
                for t in 0..h {
                    if t > 0 && t % 5 == 0 {
                        write!(out, " ")?;
                    }
                    write!(out, "o")?;
                }
            }
            writeln!(out)?;
        }
        Ok(())
    }

    /// Whether any heap has a move (the player to move can play).
    fn has_move(&self) -> Result<bool, CliError> {
        let mut opts = Options::new();
        for &h in &self.heaps {
            opts.clear();
            self.rule.heap_options(h, &mut opts)?;
            if !opts.is_empty() {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Announces the winner: `stuck` is the player to move, who has no move.
    fn finish(&self, out: &mut impl Write, stuck: Player) -> io::Result<()> {
        let who = match stuck {
            Player::Human => "you have no move left",
            Player::Engine => "the engine has no move left",
        };
        let winner = match (stuck, self.misere) {
            (Player::Engine, false) | (Player::Human, true) => "you win",
            (Player::Human, false) | (Player::Engine, true) => "the engine wins",
        };
        let why = if self.misere {
            "misère play: whoever cannot move wins"
        } else {
            "normal play: whoever cannot move loses"
        };
        writeln!(out, "game over: {who}, so {winner} ({why}).")
    }

    /// The hint for the player to move: outcome, explanation, suggested move.
    fn write_hint(&self, out: &mut impl Write) -> Result<(), CliError> {
        let h = hint::hint(
            &self.rule,
            &self.heaps,
            self.misere,
            &crate::output::budgeted(),
        )?;
        let verdict = match h.outcome {
            Outcome::N => "N: the player to move (you) can win",
            Outcome::P => "P: the player to move (you) loses against perfect play",
            Outcome::D => "D: neither player can force a win",
        };
        writeln!(out, "hint: {verdict}.")?;
        for line in &h.explanation {
            say(out, line)?;
        }
        match &h.suggested {
            Some(m) => writeln!(out, "hint: {}", show_move(m))?,
            None => writeln!(out, "hint: no winning move")?,
        }
        Ok(())
    }

    /// `moves I`: every legal move of heap I, in the typed syntax.
    fn write_moves(&self, out: &mut impl Write, i: u64) -> Result<(), CliError> {
        let idx = match self.index(i) {
            Ok(idx) => idx,
            Err(m) => {
                say(out, &m)?;
                return Ok(());
            }
        };
        let h = self.heaps[idx];
        if let GameSpec::Nim = self.rule.spec() {
            if h == 0 {
                writeln!(out, "heap {i} is empty: it has no move.")?;
            } else {
                let m = format!(
                    "heap {i} ({}) can become any smaller heap, 0 to {}: e.g. `{i} -> {}` or \
                     `take 1 from {i}`.",
                    tokens(h),
                    h - 1,
                    h - 1
                );
                say(out, &m)?;
            }
            return Ok(());
        }
        let bound = self.rule.option_count_bound(h);
        if bound > MAX_ENUMERATED {
            let m = format!(
                "heap {i} ({}) has up to {bound} options, too many to list: type a move directly.",
                tokens(h)
            );
            say(out, &m)?;
            return Ok(());
        }
        let moves = hint::legal_moves(&self.rule, &self.heaps, idx, &crate::output::budgeted())?;
        if moves.is_empty() {
            writeln!(out, "heap {i} ({}) has no legal move.", tokens(h))?;
            return Ok(());
        }
        writeln!(
            out,
            "heap {i} ({}) has {} legal move{}:",
            tokens(h),
            moves.len(),
            if moves.len() == 1 { "" } else { "s" }
        )?;
        for m in moves.iter().take(MAX_LISTED) {
            writeln!(out, "  {}", show_move(m))?;
        }
        if moves.len() > MAX_LISTED {
            writeln!(out, "  ... and {} more", moves.len() - MAX_LISTED)?;
        }
        Ok(())
    }

    /// The 0-based index of heap `i` (1-based), or a message naming the heaps that exist.
    fn index(&self, i: u64) -> Result<usize, String> {
        let n = self.heaps.len();
        match usize::try_from(i) {
            Ok(i) if (1..=n).contains(&i) => Ok(i - 1),
            _ if n == 1 => Err(format!("there is no heap {i}: there is only heap 1")),
            _ => Err(format!(
                "there is no heap {i}: the heaps are numbered 1 to {n}"
            )),
        }
    }

    /// The move the human typed, checked by the library; a message saying what is wrong
    /// otherwise.
    fn check(&self, typed: Typed) -> Result<(Move, Vec<u64>), String> {
        let (heap, from, to) = match typed {
            Typed::Becomes { heap, from, to } => {
                let idx = self.index(heap)?;
                (idx, from.unwrap_or(self.heaps[idx]), to)
            }
            Typed::Take { heap, k } => {
                let idx = self.index(heap)?;
                let h = self.heaps[idx];
                if k == 0 {
                    return Err("taking 0 tokens is not a move: take at least 1".into());
                }
                if k > h {
                    return Err(format!(
                        "heap {heap} has only {}: you cannot take {k}",
                        tokens(h)
                    ));
                }
                (idx, h, vec![h - k])
            }
        };
        let mut to: Vec<u64> = to.into_iter().filter(|&p| p > 0).collect();
        to.sort_unstable();
        let mv = Move::new(heap, from, to);
        match hint::apply(&self.rule, &self.heaps, &mv) {
            Ok(after) => Ok((mv, after)),
            Err(e @ Error::Invalid(_)) => Err(format!(
                "not a legal move: {e}; type `moves {}` for the legal moves of heap {}",
                heap + 1,
                heap + 1
            )),
            Err(e) => Err(format!("that move cannot be checked: {e}")),
        }
    }

    /// Prompts until the human types a legal move (returned with the heaps after it), quits or
    /// input ends (`None`).
    fn read_move(
        &self,
        input: &mut impl BufRead,
        out: &mut impl Write,
    ) -> Result<Option<(Move, Vec<u64>)>, CliError> {
        loop {
            write!(out, "your move> ")?;
            out.flush()?;
            let Some((line, too_long)) = read_line(input)? else {
                writeln!(out)?;
                writeln!(out, "end of input: the game is left unfinished.")?;
                return Ok(None);
            };
            if self.echo {
                let shown: String = line.trim_end().chars().take(80).collect();
                writeln!(out, "{shown}")?;
            }
            if too_long {
                say(
                    out,
                    &format!("that line is too long (more than {MAX_LINE} bytes); {EXPECTED}"),
                )?;
                continue;
            }
            match parse_command(&line) {
                Ok(Command::Empty) => {}
                Ok(Command::Help) => writeln!(out, "{HELP}")?,
                Ok(Command::Hint) => self.write_hint(out)?,
                Ok(Command::Moves(i)) => self.write_moves(out, i)?,
                Ok(Command::Quit) => {
                    writeln!(out, "you quit: the game is left unfinished.")?;
                    return Ok(None);
                }
                Ok(Command::Play(typed)) => match self.check(typed) {
                    Ok(done) => return Ok(Some(done)),
                    Err(m) => say(out, &m)?,
                },
                Err(m) => say(out, &m)?,
            }
        }
    }
}

#[cfg(test)]
mod tests {
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
            match hint::engine_move(&g.rule, &heaps, false, &grundy::control::Control::none())
                .unwrap()
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
}
