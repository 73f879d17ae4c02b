//! The transcript: heaps drawn as tokens, moves in words, lines wrapped and read.

use super::*;

/// `heap I: H -> A B` (1-based I), the notation of `grundy position`.
pub(super) fn show_move(m: &Move) -> String {
    let mut s = format!("heap {}: {} ->", m.heap + 1, m.from);
    for h in &m.to {
        s.push_str(&format!(" {h}"));
    }
    s
}

/// `1 token` / `5 tokens`.
pub(super) fn tokens(n: u64) -> String {
    if n == 1 {
        "1 token".into()
    } else {
        format!("{n} tokens")
    }
}

/// Splits `line` into lines of at most `width` characters at spaces, never inside a
/// `quoted` example (a longer word stays whole). Lines that start with a space are
/// preformatted (tables) and kept as they are.
pub(super) fn wrap(line: &str, width: usize) -> Vec<String> {
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
pub(super) fn say(out: &mut impl Write, message: &str) -> io::Result<()> {
    for l in wrap(message, WIDTH) {
        writeln!(out, "{l}")?;
    }
    Ok(())
}

/// Reads one line of at most [`MAX_LINE`] bytes (the rest of a longer line is skipped);
/// `None` at end of input.
pub(super) fn read_line(input: &mut impl BufRead) -> io::Result<Option<(String, bool)>> {
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
