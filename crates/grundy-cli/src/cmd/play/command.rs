//! What a line typed during a game means: a move or a command.

/// What the human typed.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Command {
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
pub(super) enum Typed {
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
pub(super) const EXPECTED: &str =
    "expected a move such as `2 -> 9` (heap 2 becomes 9), `2 -> 1 3` \
                        (heap 2 becomes heaps 1 and 3), `2 ->` (remove heap 2), `take 7 from 2`, \
                        or a command: hint, moves I, help, quit";

pub(super) const HELP: &str = "\
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
pub(super) fn number(word: &str, what: &str) -> Result<u64, String> {
    word.parse::<u64>()
        .map_err(|_| format!("`{word}` is not {what} (expected a whole number); {EXPECTED}"))
}

/// Reads heap sizes typed after an arrow.
pub(super) fn numbers(words: &[&str]) -> Result<Vec<u64>, String> {
    words.iter().map(|w| number(w, "a heap size")).collect()
}

/// Parses one line of input. The grammar, after `->` and `:` are split off as words:
/// `[heap] I [: H] -> A...`, `I A...`, `I -K`, `take K from [heap] I`, or a command word.
pub(super) fn parse_command(line: &str) -> Result<Command, String> {
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
