//! The GAME notation of games given by their rules (`grundy solve`): `chomp:…`, `cram:…`,
//! `node-kayles:…`, `wythoff:A,B` and `rules:PATH`. Errors name the 1-based column at fault and
//! what was expected there.
//!
//! ```
//! use grundy::notation::board::{parse_board_game, BoardGame};
//! assert_eq!(parse_board_game("chomp:3,2,2").unwrap(), BoardGame::Chomp(vec![3, 2, 2]));
//! assert_eq!(parse_board_game("chomp:2x3").unwrap(), BoardGame::Chomp(vec![3, 3]));
//! let e = parse_board_game("cram:../.x").unwrap_err();
//! assert_eq!(e.at.column, Some(10));
//! ```

use crate::error::ParseError;
use crate::game::families::cram::{Board, MAX_CELLS};
use crate::game::families::node_kayles::MAX_VERTICES;
use std::path::PathBuf;

/// A graph of the `node-kayles:` notation.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum GraphSpec {
    /// `path:N`: vertices `1..N` in a row.
    Path(usize),
    /// `cycle:N`: a path closed into a cycle.
    Cycle(usize),
    /// `grid:RxC`: the `R × C` grid graph.
    Grid(usize, usize),
    /// `FILE`: a graph file (the graph-file format, arcs read as undirected edges).
    File(PathBuf),
}

/// A parsed game of the rules notation.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BoardGame {
    /// `chomp:A,B,C` or `chomp:RxC`: row lengths, bottom row first.
    Chomp(Vec<u32>),
    /// `cram:RxC` or `cram:ROWS`.
    Cram(Board),
    /// `node-kayles:GRAPH`.
    NodeKayles(GraphSpec),
    /// `wythoff:A,B`.
    Wythoff(u64, u64),
    /// `rules:PATH`: a Rhai script.
    Rules(PathBuf),
}

/// What the rules notation accepts, for messages.
pub const KNOWN: &str = "chomp:A,B,C, chomp:RxC, cram:RxC, cram:ROWS, node-kayles:path:N, \
                         node-kayles:cycle:N, node-kayles:grid:RxC, node-kayles:FILE, \
                         wythoff:A,B or rules:PATH";

/// Whether `s` names a game of the rules notation (by its kind before the first `:`).
pub fn is_board_game(s: &str) -> bool {
    matches!(
        s.split_once(':').map(|(k, _)| k),
        Some("chomp" | "cram" | "node-kayles" | "wythoff" | "rules")
    )
}

/// A cursor over a body, with 1-based columns.
struct Cursor<'a> {
    s: &'a [u8],
    i: usize,
    col0: usize,
}

impl Cursor<'_> {
    fn column(&self) -> usize {
        self.col0 + self.i
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn error(&self, expected: &str) -> ParseError {
        let found = match self.peek() {
            Some(c) => format!("{:?}", c as char),
            None => "the end".to_string(),
        };
        ParseError::at_column(self.column(), format!("expected {expected}, found {found}"))
    }

    /// A natural number, decimal or `0x` hexadecimal, at most `max`.
    fn number(&mut self, what: &str, max: u64) -> Result<u64, ParseError> {
        let start = self.i;
        let hex = self.s[self.i..].starts_with(b"0x") || self.s[self.i..].starts_with(b"0X");
        let digits_at = if hex { self.i + 2 } else { self.i };
        let mut end = digits_at;
        while end < self.s.len()
            && (if hex {
                self.s[end].is_ascii_hexdigit()
            } else {
                self.s[end].is_ascii_digit()
            })
        {
            end += 1;
        }
        if end == digits_at {
            self.i = digits_at;
            return Err(self.error(what));
        }
        let text = std::str::from_utf8(&self.s[digits_at..end]).unwrap_or("");
        let value = u64::from_str_radix(text, if hex { 16 } else { 10 })
            .ok()
            .filter(|&v| v <= max);
        match value {
            Some(v) => {
                self.i = end;
                Ok(v)
            }
            None => {
                self.i = start;
                Err(ParseError::at_column(
                    self.column(),
                    format!("expected {what} of at most {max}"),
                ))
            }
        }
    }

    fn expect(&mut self, c: u8, what: &str) -> Result<(), ParseError> {
        if self.peek() == Some(c) {
            self.i += 1;
            Ok(())
        } else {
            Err(self.error(what))
        }
    }

    fn end(&self) -> Result<(), ParseError> {
        match self.peek() {
            None => Ok(()),
            Some(_) => Err(self.error("the end of the game")),
        }
    }

    /// `RxC`, each side at least 1, the product at most `max_cells`.
    fn dimensions(&mut self, max_cells: usize) -> Result<(usize, usize), ParseError> {
        let at = self.column();
        let r = self.number("a number of rows", u16::MAX as u64)?;
        self.expect(b'x', "'x' between rows and columns")?;
        let c = self.number("a number of columns", u16::MAX as u64)?;
        self.end()?;
        if r == 0 || c == 0 {
            return Err(ParseError::at_column(
                at,
                "expected at least one row and one column",
            ));
        }
        if (r * c) as usize > max_cells {
            return Err(ParseError::at_column(
                at,
                format!("expected at most {max_cells} cells, found {r}x{c}"),
            ));
        }
        Ok((r as usize, c as usize))
    }
}

/// The game kinds (before `:`), for suggestions.
const KINDS: &[&str] = &["chomp", "cram", "node-kayles", "wythoff", "rules"];

/// Parses a game of the rules notation.
pub fn parse_board_game(s: &str) -> Result<BoardGame, ParseError> {
    let Some((kind, body)) = s.split_once(':') else {
        return Err(ParseError::at_column(
            1,
            super::unknown_name("game", s, KINDS, KNOWN),
        ));
    };
    let col0 = kind.chars().count() + 2;
    let mut cur = Cursor {
        s: body.as_bytes(),
        i: 0,
        col0,
    };
    // Kinds are read in any case (`Cram:3x3`); a script's path is not.
    match kind.to_ascii_lowercase().as_str() {
        "chomp" => parse_chomp(&mut cur).map(BoardGame::Chomp),
        "cram" => parse_cram(&mut cur).map(BoardGame::Cram),
        "node-kayles" => parse_graph(body, &mut cur).map(BoardGame::NodeKayles),
        "wythoff" => {
            let max = crate::game::families::wythoff::MAX_HEAP;
            let a = cur.number("a heap size", max)?;
            cur.expect(b',', "',' between the two heaps")?;
            let b = cur.number("a heap size", max)?;
            cur.end()?;
            Ok(BoardGame::Wythoff(a, b))
        }
        "rules" if !body.is_empty() => Ok(BoardGame::Rules(PathBuf::from(body))),
        "rules" => Err(cur.error("a script file path")),
        _ => Err(ParseError::at_column(
            1,
            super::unknown_name("game kind", kind, KINDS, KNOWN),
        )),
    }
}

/// The most cells of a Chomp position (its options are held while it is searched: one for each
/// cell, each a list of rows).
pub const MAX_CHOMP: u64 = 1 << 12;

fn parse_chomp(cur: &mut Cursor) -> Result<Vec<u32>, ParseError> {
    let body = cur.s;
    // `RxC` has an `x` (beyond the `0x` of a hexadecimal first number) and no comma.
    let after_prefix = if body.starts_with(b"0x") {
        &body[2..]
    } else {
        body
    };
    let is_rect = !body.contains(&b',') && after_prefix.iter().any(|&b| b == b'x' || b == b'X');
    if is_rect {
        let (r, c) = cur.dimensions(MAX_CHOMP as usize)?;
        return Ok(crate::game::families::chomp::rectangle(r as u32, c as u32));
    }
    let mut rows = Vec::new();
    let mut cells = 0u64;
    loop {
        let at = cur.column();
        let len = cur.number("a row length", MAX_CHOMP)?;
        if len == 0 {
            return Err(ParseError::at_column(
                at,
                "expected a row length of at least 1",
            ));
        }
        if let Some(&prev) = rows.last() {
            if u64::from(prev) < len {
                return Err(ParseError::at_column(
                    at,
                    format!("expected a row no longer than the one below ({prev}), found {len}"),
                ));
            }
        }
        rows.push(len as u32);
        cells += len;
        if cells > MAX_CHOMP {
            return Err(ParseError::at_column(
                at,
                format!("expected at most {MAX_CHOMP} cells in all"),
            ));
        }
        match cur.peek() {
            None => return Ok(rows),
            Some(b',') => cur.i += 1,
            Some(_) => return Err(cur.error("',' or the end of the rows")),
        }
    }
}

fn parse_cram(cur: &mut Cursor) -> Result<Board, ParseError> {
    let body = cur.s;
    if body.first().is_some_and(u8::is_ascii_digit) {
        let (r, c) = cur.dimensions(MAX_CELLS)?;
        return Board::empty(r, c).ok_or_else(|| cur.error("a smaller board"));
    }
    let rows: Vec<&[u8]> = body.split(|&b| b == b'/').collect();
    let width = rows[0].len();
    // Validate every character first, so that the first bad one is the one reported.
    let mut col = cur.col0;
    for (r, row) in rows.iter().enumerate() {
        for &b in row.iter() {
            if b != b'.' && b != b'#' {
                let found = String::from_utf8_lossy(&body[col - cur.col0..])
                    .chars()
                    .next()
                    .unwrap_or('?');
                return Err(ParseError::at_column(
                    col,
                    format!(
                        "expected '.' (free), '#' (blocked) or '/' (next row), found {found:?}"
                    ),
                ));
            }
            col += 1;
        }
        if row.is_empty() {
            return Err(ParseError::at_column(col, "expected a row of '.' and '#'"));
        }
        if row.len() != width {
            return Err(ParseError::at_column(
                col - row.len(),
                format!(
                    "expected a row of {width} cells like the first, found {} (row {})",
                    row.len(),
                    r + 1
                ),
            ));
        }
        col += 1;
    }
    let mut board = Board::blocked(rows.len(), width).ok_or_else(|| {
        ParseError::at_column(cur.col0, format!("expected at most {MAX_CELLS} cells"))
    })?;
    for (r, row) in rows.iter().enumerate() {
        for (c, &b) in row.iter().enumerate() {
            board.set_cell(r, c, b == b'.');
        }
    }
    Ok(board)
}

fn parse_graph(body: &str, cur: &mut Cursor) -> Result<GraphSpec, ParseError> {
    let max = MAX_VERTICES as u64;
    if body.starts_with("path:") {
        cur.i += 5;
        let n = cur.number("a number of vertices", max)?;
        cur.end()?;
        return Ok(GraphSpec::Path(n as usize));
    }
    if body.starts_with("cycle:") {
        cur.i += 6;
        let n = cur.number("a number of vertices", max)?;
        cur.end()?;
        return Ok(GraphSpec::Cycle(n as usize));
    }
    if body.starts_with("grid:") {
        cur.i += 5;
        let (r, c) = cur.dimensions(MAX_VERTICES)?;
        return Ok(GraphSpec::Grid(r, c));
    }
    if body.is_empty() {
        return Err(cur.error("path:N, cycle:N, grid:RxC or a graph file"));
    }
    Ok(GraphSpec::File(PathBuf::from(body)))
}

/// Loads a parsed game: builds the graph of `node-kayles:` (reading a graph file, at most the
/// memory budget of `ctl` while reading), reads and compiles a `rules:` script (its calls watch
/// `ctl`) and runs its `start()`.
pub fn load(
    game: &BoardGame,
    ctl: &crate::control::Control,
) -> crate::error::Result<crate::game::families::Loaded> {
    use crate::error::{Error, LimitKind};
    use crate::game::families::node_kayles::{BitGraph, NodeKayles, MAX_VERTICES};
    use crate::game::families::{wythoff, Loaded};
    let too_big = |n: usize| {
        Error::limit(
            LimitKind::Fixed,
            format!("a Node-Kayles graph of {n} vertices, above {MAX_VERTICES}"),
            "use a smaller graph",
        )
    };
    Ok(match game {
        BoardGame::Chomp(rows) => Loaded::Chomp(rows.clone()),
        BoardGame::Cram(b) => Loaded::Cram(b.clone()),
        BoardGame::Wythoff(a, b) => {
            wythoff::Wythoff::check((*a, *b))?;
            Loaded::Wythoff((*a, *b))
        }
        BoardGame::NodeKayles(spec) => {
            let (g, names) = match spec {
                GraphSpec::Path(n) => (BitGraph::path(*n).ok_or_else(|| too_big(*n))?, Vec::new()),
                GraphSpec::Cycle(n) => {
                    (BitGraph::cycle(*n).ok_or_else(|| too_big(*n))?, Vec::new())
                }
                GraphSpec::Grid(r, c) => (
                    BitGraph::grid(*r, *c).ok_or_else(|| too_big(r * c))?,
                    Vec::new(),
                ),
                GraphSpec::File(path) => {
                    use super::graph::{parse_graph, read_bounded, GraphFormat};
                    let what = format!("graph file {}", path.display());
                    let file = std::fs::File::open(path)
                        .map_err(|e| Error::invalid(format!("{what}: cannot read it: {e}")))?;
                    // A graph of at most MAX_VERTICES vertices fits well within 16 MiB of text:
                    // a longer file is refused whatever the budget.
                    const MAX_TEXT: u64 = 16 << 20;
                    let cap = ctl.memory().limit().min(MAX_TEXT);
                    let (bytes, _text) = match read_bounded(file, cap, &what, ctl) {
                        Err(Error::Limit(_)) if cap == MAX_TEXT => {
                            return Err(Error::limit(
                                LimitKind::Fixed,
                                format!("{what} is longer than 16 MiB"),
                                format!("a Node-Kayles graph has at most {MAX_VERTICES} vertices"),
                            ))
                        }
                        other => other?,
                    };
                    let parsed =
                        parse_graph(&bytes, GraphFormat::Adjacency, ctl).map_err(|e| match e {
                            Error::Parse(p) => {
                                Error::Parse(p.in_source(path.display().to_string()))
                            }
                            other => other,
                        })?;
                    let n = parsed.graph.vertex_count();
                    let mut edges = Vec::with_capacity(parsed.graph.arc_count());
                    for u in 0..n {
                        for &v in parsed.graph.options(u as u32) {
                            edges.push((u, v as usize));
                        }
                    }
                    let g = BitGraph::from_edges(n, &edges).ok_or_else(|| too_big(n))?;
                    let names = (0..n as u32)
                        .map(|v| parsed.names.get(v).into_owned())
                        .collect();
                    (g, names)
                }
            };
            Loaded::NodeKayles(NodeKayles::with_names(names), g)
        }
        #[cfg(feature = "script")]
        BoardGame::Rules(path) => {
            let r = crate::game::families::rules::Rules::load(path, ctl)?;
            let start = r.start()?;
            Loaded::Rules(Box::new(r), start)
        }
        #[cfg(not(feature = "script"))]
        BoardGame::Rules(_) => {
            let _ = ctl;
            return Err(Error::invalid(
                "rules:PATH needs the library's `script` feature".to_string(),
            ));
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn column(s: &str) -> Option<usize> {
        parse_board_game(s).unwrap_err().at.column
    }

    #[test]
    fn forms() {
        assert_eq!(
            parse_board_game("chomp:1").unwrap(),
            BoardGame::Chomp(vec![1])
        );
        assert_eq!(
            parse_board_game("chomp:0x3,2").unwrap(),
            BoardGame::Chomp(vec![3, 2])
        );
        assert_eq!(
            parse_board_game("wythoff:3,5").unwrap(),
            BoardGame::Wythoff(3, 5)
        );
        assert_eq!(
            parse_board_game("node-kayles:grid:2x3").unwrap(),
            BoardGame::NodeKayles(GraphSpec::Grid(2, 3))
        );
        assert_eq!(
            parse_board_game("node-kayles:path:0").unwrap(),
            BoardGame::NodeKayles(GraphSpec::Path(0))
        );
        let BoardGame::Cram(b) = parse_board_game("cram:.../.#./...").unwrap() else {
            panic!()
        };
        assert_eq!(b.to_string(), "cram:.../.#./...");
        let BoardGame::Cram(b) = parse_board_game("cram:2x3").unwrap() else {
            panic!()
        };
        assert_eq!(b.to_string(), "cram:.../...");
        assert!(is_board_game("rules:x.rhai") && !is_board_game("octal:0.07"));
    }

    #[test]
    fn errors_name_the_column() {
        assert_eq!(column("chomp:2,3"), Some(9)); // a row longer than the one below
        assert_eq!(column("chomp:2,,"), Some(9));
        assert_eq!(column("chomp:0"), Some(7));
        assert_eq!(column("cram:..x"), Some(8));
        assert_eq!(column("cram:../..."), Some(9));
        assert_eq!(column("cram:0x3"), Some(9)); // 0x3 rows, then no 'x'
        assert_eq!(column("rules:"), Some(7));
        assert_eq!(column("wythoff:3"), Some(10));
        assert_eq!(column("wythoff:3,99999999"), Some(11));
        assert_eq!(column("node-kayles:path:x"), Some(18));
        assert_eq!(column("node-kayles:grid:3x"), Some(20));
        assert_eq!(column("cram:100000x100000"), Some(6));
        assert_eq!(column("checkers:3"), Some(1));
    }
}
