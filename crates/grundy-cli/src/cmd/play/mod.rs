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
pub fn run(args: PlayArgs, settings: &crate::settings::Settings) -> Result<(), CliError> {
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
    let ctl = settings.budgeted();
    hint::hint(&rule, &heaps, args.misere, &ctl)?;
    let stdin = io::stdin();
    let mut game = Game {
        game: args.game,
        rule,
        heaps,
        misere: args.misere,
        hints: args.hints,
        echo: !stdin.is_terminal(),
        ctl,
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
    /// The engine's control: the run's memory budget (Ctrl-C keeps its default action).
    ctl: grundy::control::Control<'static>,
}

mod command;
#[cfg(test)]
mod tests;
mod text;

use command::*;
use text::*;

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
                    let mv = hint::engine_move(&self.rule, &self.heaps, self.misere, &self.ctl)?
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
        let h = hint::hint(&self.rule, &self.heaps, self.misere, &self.ctl)?;
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
        let moves = hint::legal_moves(&self.rule, &self.heaps, idx, &self.ctl)?;
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
