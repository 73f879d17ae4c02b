//! Graph files (the specification's "Game graphs" formats).
//!
//! * **Adjacency** ([`GraphFormat::Adjacency`], the default): UTF-8 text; each line that is not
//!   blank and does not start with `#` is `V: W1 W2 ...`, vertex `V` and its options. A vertex
//!   named only as an option, or listed with no options, has no moves. Names are runs of
//!   letters, digits, `_`, `.`, `-`. A vertex may be listed once. Cycles and self-loops are
//!   allowed; an option repeated on a line is one move listed twice (it changes nothing).
//! * **Arc list** ([`GraphFormat::Arcs`], `--edges`): one arc `U V` a line, `U` and `V` natural
//!   numbers below 2^64 (decimal or `0x` hexadecimal); a vertex's name is its number in decimal.
//!   Blank lines and `#` comments are skipped here too.
//!
//! Vertices are numbered in order of first appearance (a line's vertex before its options).
//! Every error names the line and column (in characters, 1-based) and what was expected. Memory
//! is reserved from the memory budget of the [`Control`] every reader takes, as the file is
//! read: beyond it, [`Error::Limit`]
//! is returned before the allocation that would cross it, and the bytes are given back when
//! the reading ends (the caller then holds the graph). The readers look at the control's
//! token and deadline every 65536 lines and report the lines read as progress, so a
//! cancelled or timed-out read stops with [`Error::Cancelled`].

use crate::control::{format_bytes, Control, Reservation, LIBRARY_MEMORY_ADVICE};
use crate::error::{Error, ParseError, Result};
use crate::game::graph::{check_size_for, Graph, VertexId};
use crate::game::hash::FxHashMap;
use std::borrow::Cow;
use std::collections::hash_map::Entry;
use std::io::{BufRead, Read};

/// Which of the two graph file formats to read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum GraphFormat {
    /// `V: W1 W2 ...` lines with named vertices.
    #[default]
    Adjacency,
    /// `U V` lines with integer vertex ids.
    Arcs,
}

/// The names of a graph's vertices: named vertices in one text buffer, or (arc lists) the
/// integer ids, written in decimal on demand.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Names {
    text: String,
    ends: Vec<usize>,
    numbers: Vec<u64>,
}

impl Names {
    /// The name of vertex `v`.
    pub fn get(&self, v: impl Into<u64>) -> Cow<'_, str> {
        let v = v.into() as usize;
        if self.ends.is_empty() {
            return Cow::Owned(self.numbers[v].to_string());
        }
        let start = if v == 0 { 0 } else { self.ends[v - 1] };
        Cow::Borrowed(&self.text[start..self.ends[v]])
    }

    /// The number of names.
    pub fn len(&self) -> usize {
        self.ends.len().max(self.numbers.len())
    }

    /// True if there are no names.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn push(&mut self, name: &str) {
        self.text.push_str(name);
        self.ends.push(self.text.len());
    }

    fn bytes(&self) -> u64 {
        (self.text.capacity() + 8 * self.ends.capacity() + 8 * self.numbers.capacity()) as u64
    }
}

/// A graph read from a file, with its vertices' names.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ParsedGraph {
    /// The graph; vertex ids follow the order of first appearance.
    pub graph: Graph,
    /// The name of each vertex.
    pub names: Names,
}

/// Reads a graph file, drawing memory from the budget of `ctl` and stopping when it says so
/// (module documentation): beyond the budget, [`Error::Limit`]; errors in the text are
/// [`Error::Parse`] with the line and column.
pub fn parse_graph(input: &[u8], format: GraphFormat, ctl: &Control) -> Result<ParsedGraph> {
    let (graph, names) = parse_graph_as::<u32>(input, format, ctl)?;
    Ok(ParsedGraph { graph, names })
}

/// Reads the text of a graph file from `input` in chunks of 64 KiB, each reserved from the
/// budget of `ctl` before it is read and each preceded by a look at its token and deadline, up
/// to `cap` bytes: the size a file reports is never trusted (devices and pipes report 0, and
/// `/dev/zero` never ends). Beyond `cap`, the memory [`Error::Limit`] naming `what`; a failure
/// to read is [`Error::Invalid`]. The bytes are held from the budget by the returned
/// [`Reservation`] for as long as the caller keeps the text.
pub fn read_bounded(
    mut input: impl Read,
    cap: u64,
    what: &str,
    ctl: &Control,
) -> Result<(Vec<u8>, Reservation)> {
    const CHUNK: usize = 1 << 16;
    let mut held = ctl.reserve(0, what)?;
    let mut text: Vec<u8> = Vec::new();
    loop {
        ctl.stop_check()?;
        let len = text.len();
        if len as u64 > cap {
            return Err(Error::limit_with_amounts(
                crate::LimitKind::Memory,
                format!("{what} is larger than {}", format_bytes(cap)),
                LIBRARY_MEMORY_ADVICE,
                len as u64,
                cap,
            ));
        }
        held.resize((len + CHUNK) as u64, what)?;
        text.resize(len + CHUNK, 0);
        let read = loop {
            match input.read(&mut text[len..]) {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                other => break other,
            }
        }
        .map_err(|e| Error::invalid(format!("{what}: cannot read it: {e}")))?;
        text.truncate(len + read);
        if read == 0 {
            held.resize(text.len() as u64, what)?;
            return Ok((text, held));
        }
    }
}

/// How many lines are read between two looks at the control.
const LINES_PER_CHECK: usize = 1 << 16;

/// As [`parse_graph`], numbering the vertices with ids of type `I` while reading: with `u64`,
/// graphs beyond the 32-bit caps (2^31 − 2 vertices, 2^31 − 1 arcs) are read, at twice the
/// memory an arc and a vertex (the budget counts `I`'s words).
pub fn parse_graph_as<I: VertexId>(
    input: &[u8],
    format: GraphFormat,
    ctl: &Control,
) -> Result<(Graph<I>, Names)> {
    let text = utf8_text(input)?;
    let reader = Reader::<I>::new(ctl)?;
    match format {
        GraphFormat::Adjacency => reader.adjacency(text),
        GraphFormat::Arcs => reader.arcs::<I>(text.as_bytes()),
    }
}

/// `input` as UTF-8 text, or the error at the line and column of the first invalid byte.
pub(crate) fn utf8_text(input: &[u8]) -> Result<&str> {
    std::str::from_utf8(input).map_err(|e| {
        let good = &input[..e.valid_up_to()];
        let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
        let start = good.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let column = std::str::from_utf8(&good[start..]).map_or(1, |s| s.chars().count() + 1);
        Error::Parse(ParseError::at_line(
            line,
            Some(column),
            "invalid UTF-8: graph files are UTF-8 text",
        ))
    })
}

/// The error of line `n` of an arc list longer than [`MAX_LINE`] bytes.
pub(crate) fn long_line(n: usize) -> Error {
    Error::Parse(ParseError::at_line(
        n,
        None,
        format!("the line is longer than {MAX_LINE} bytes: expected 'U V' arcs"),
    ))
}

/// Reads an arc-list graph file ([`GraphFormat::Arcs`]) from a stream, one line at a time,
/// drawing memory from the budget of `ctl` and stopping when it says so: unlike
/// [`parse_graph`], the text is never held in memory, which matters for files of 10^8 arcs
/// (1.6 GB of text). Same errors and limits as [`parse_graph`]; a failure to read is
/// [`Error::Invalid`].
pub fn parse_arcs_stream(input: impl BufRead, ctl: &Control) -> Result<ParsedGraph> {
    let (graph, names) = parse_arcs_stream_as::<u32>(input, ctl)?;
    Ok(ParsedGraph { graph, names })
}

/// As [`parse_arcs_stream`], numbering the vertices with ids of type `I` while reading: with
/// `u64`, graphs beyond the 32-bit caps (2^31 − 2 vertices, 2^31 − 1 arcs) are read, at twice
/// the memory an arc and a vertex (the budget counts `I`'s words).
pub fn parse_arcs_stream_as<I: VertexId>(
    input: impl BufRead,
    ctl: &Control,
) -> Result<(Graph<I>, Names)> {
    Reader::<I>::new(ctl)?.arcs::<I>(input)
}

/// The longest line of a streamed arc list, in bytes: a bound on the line buffer (an arc line is
/// under 50 bytes; comments may be longer).
pub(crate) const MAX_LINE: usize = 1 << 20;

/// A line as UTF-8, or the parse error at the first invalid byte (1-based line and column).
pub(crate) fn utf8_line(raw: &[u8], line: usize) -> Result<&str> {
    std::str::from_utf8(raw).map_err(|e| {
        let column =
            std::str::from_utf8(&raw[..e.valid_up_to()]).map_or(1, |s| s.chars().count() + 1);
        Error::Parse(ParseError::at_line(
            line,
            Some(column),
            "invalid UTF-8: graph files are UTF-8 text",
        ))
    })
}

fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '.' || c == '-'
}

/// The 1-based character column of byte offset `at` in `line`.
pub(crate) fn column(line: &str, at: usize) -> usize {
    line[..at].chars().count() + 1
}

fn describe(c: Option<char>) -> String {
    match c {
        None => "end of line".into(),
        Some(c) => format!("'{c}'"),
    }
}

/// The fast path of the arc-list reader: a line of exactly two plain decimal numbers separated
/// (and optionally surrounded) by spaces or tabs. Anything else (comments, blank lines, hex,
/// errors) returns `None` and goes to [`slow_arc_line`], which also reports the errors.
pub(crate) fn decimal_pair(line: &[u8]) -> Option<[u64; 2]> {
    let mut p = 0;
    let mut out = [0u64; 2];
    for value in out.iter_mut() {
        while p < line.len() && (line[p] == b' ' || line[p] == b'\t') {
            p += 1;
        }
        let start = p;
        let mut v: u64 = 0;
        while p < line.len() && line[p].is_ascii_digit() {
            v = v.checked_mul(10)?.checked_add((line[p] - b'0') as u64)?;
            p += 1;
        }
        // Reject "" and "0x..." (a digit run followed by a letter) alike.
        if p == start || (p < line.len() && line[p] != b' ' && line[p] != b'\t') {
            return None;
        }
        *value = v;
    }
    while p < line.len() && (line[p] == b' ' || line[p] == b'\t') {
        p += 1;
    }
    (p == line.len()).then_some(out)
}

/// The general arc-list line reader: `None` for blank and comment lines, the pair `U V`
/// (decimal or `0x` hexadecimal), or the error at its column.
pub(crate) fn slow_arc_line(line: &str, n: usize) -> Result<Option<[u64; 2]>> {
    let err =
        |at: usize, msg: String| Error::Parse(ParseError::at_line(n, Some(column(line, at)), msg));
    let body = line.trim_start();
    if body.is_empty() || body.starts_with('#') {
        return Ok(None);
    }
    let mut values = [0u64; 2];
    let mut at = 0;
    let mut found = 0;
    for token in line.split([' ', '\t']) {
        if !token.is_empty() {
            if found == 2 {
                return Err(err(
                    at,
                    format!(
                        "expected the end of the line after 'U V', found '{}'",
                        clip(token)
                    ),
                ));
            }
            values[found] = crate::notation::number::parse_u64(token).map_err(|e| {
                let inner = e.at.column.unwrap_or(1);
                Error::Parse(ParseError::at_line(
                    n,
                    Some(column(line, at) + inner - 1),
                    format!(
                        "expected a vertex id (a natural number below 2^64): {}",
                        e.message
                    ),
                ))
            })?;
            found += 1;
        }
        at += token.len() + 1;
    }
    if found < 2 {
        return Err(err(
            line.len(),
            "expected two vertex ids 'U V' on the line".into(),
        ));
    }
    Ok(Some(values))
}

/// The head of an adjacency line `V: W1 W2 ...`: the vertex name, the byte offset where it
/// starts and that of the colon.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AdjacencyHead<'a> {
    pub(crate) name: &'a str,
    pub(crate) start: usize,
    pub(crate) colon_at: usize,
}

/// Reads the head of line `n` (1-based) of an adjacency file, the line without its end: `None`
/// for blank and comment lines, else the vertex name up to the colon, or the error at its
/// column.
pub(crate) fn adjacency_head(line: &str, n: usize) -> Result<Option<AdjacencyHead<'_>>> {
    let err =
        |at: usize, msg: String| Error::Parse(ParseError::at_line(n, Some(column(line, at)), msg));
    let body = line.trim_start();
    if body.is_empty() || body.starts_with('#') {
        return Ok(None);
    }
    let start = line.len() - body.len();
    let name_len = body
        .char_indices()
        .find(|&(_, c)| !is_name_char(c))
        .map_or(body.len(), |(j, _)| j);
    if name_len == 0 {
        return Err(err(
            start,
            format!(
                "expected a vertex name (letters, digits, _, ., -), found {}",
                describe(body.chars().next())
            ),
        ));
    }
    let name = &body[..name_len];
    let rest = &body[name_len..];
    let after = rest.trim_start_matches([' ', '\t']);
    let colon_at = start + name_len + (rest.len() - after.len());
    if !after.starts_with(':') {
        return Err(err(
            colon_at,
            format!(
                "expected ':' after the vertex name '{}', found {}",
                clip(name),
                describe(after.chars().next())
            ),
        ));
    }
    Ok(Some(AdjacencyHead {
        name,
        start,
        colon_at,
    }))
}

/// The error of a vertex `name` listed again on line `n` at column `at` (1-based), first
/// listed on line `first`.
pub(crate) fn listed_twice(name: &str, n: usize, at: usize, first: usize) -> Error {
    Error::Parse(ParseError::at_line(
        n,
        Some(at),
        format!(
            "vertex '{}' is listed twice (first on line {first})",
            clip(name)
        ),
    ))
}

/// Characters of a token quoted in a message; longer tokens are cut (a vertex name may be
/// megabytes long, and a message repeating it whole helps nobody).
pub const MAX_QUOTED: usize = 64;

/// `token` as quoted in messages: whole up to [`MAX_QUOTED`] characters, else its first
/// characters and its length in bytes.
pub fn clip(token: &str) -> String {
    match token.char_indices().nth(MAX_QUOTED) {
        None => token.to_string(),
        Some((end, _)) => format!("{}… ({} bytes)", &token[..end], token.len()),
    }
}

/// The options of an adjacency line after its colon (at byte `colon_at`), each with its byte
/// offset in the line, or the error at the column of the first character that is not in a name.
pub(crate) fn adjacency_options(
    line: &str,
    colon_at: usize,
    n: usize,
) -> impl Iterator<Item = Result<(usize, &str)>> {
    let mut at = colon_at + 1;
    line[at..].split([' ', '\t']).filter_map(move |token| {
        let here = at;
        at += token.len() + 1;
        if token.is_empty() {
            return None;
        }
        Some(
            match token.char_indices().find(|&(_, c)| !is_name_char(c)) {
                Some((j, c)) => Err(Error::Parse(ParseError::at_line(
                    n,
                    Some(column(line, here + j)),
                    format!("expected a vertex name (letters, digits, _, ., -), found '{c}'"),
                ))),
                None => Ok((here, token)),
            },
        )
    })
}

/// A reader numbering named vertices with ids of type `I`.
struct Reader<'a, 'c, I> {
    ids: FxHashMap<&'a str, I>,
    names: Names,
    ctl: &'c Control<'c>,
    /// The bytes the reading needs so far, held from the budget of `ctl`.
    held: Reservation,
}

impl<'a, 'c, I: VertexId> Reader<'a, 'c, I> {
    fn new(ctl: &'c Control<'c>) -> Result<Self> {
        Ok(Reader {
            ids: FxHashMap::default(),
            names: Names::default(),
            ctl,
            held: ctl.reserve(0, "reading the graph")?,
        })
    }

    /// Every [`LINES_PER_CHECK`] lines: reports the line number `i` (0-based) and stops if the
    /// control says so.
    #[inline]
    fn line_check(&self, i: usize) -> Result<()> {
        if i.is_multiple_of(LINES_PER_CHECK) {
            self.ctl.check(i as u64)
        } else {
            Ok(())
        }
    }

    /// Bytes held so far (map entries: key, value and control byte, rounded up).
    fn bytes(&self, arcs: usize, extra_per_arc: u64) -> u64 {
        self.ids.capacity() as u64 * 32 + self.names.bytes() + arcs as u64 * extra_per_arc
    }

    /// Holds `needed` bytes in all (the reading's estimate so far) from the budget, or returns
    /// the memory limit error counting what the budget already holds for others.
    fn check_memory(&mut self, needed: u64) -> Result<()> {
        match self.held.resize(needed, "reading the graph") {
            Err(Error::Limit(l)) if l.kind == crate::LimitKind::Memory => {
                let limit = self.ctl.memory().limit();
                let others = self.ctl.memory().used().saturating_sub(self.held.bytes());
                let needed = needed.saturating_add(others);
                Err(Error::limit_with_amounts(
                    crate::LimitKind::Memory,
                    format!(
                        "reading the graph needs more than {}, above the {} memory limit",
                        format_bytes(needed),
                        format_bytes(limit)
                    ),
                    LIBRARY_MEMORY_ADVICE,
                    needed,
                    limit,
                ))
            }
            other => other,
        }
    }

    fn id(&mut self, name: &'a str) -> Result<I> {
        let count = self.ids.len();
        let next = I::from_usize(count);
        match self.ids.entry(name) {
            Entry::Occupied(o) => Ok(*o.get()),
            Entry::Vacant(slot) => {
                check_size_for::<I>(count as u64 + 1, 0)?;
                slot.insert(next);
                self.names.push(name);
                Ok(next)
            }
        }
    }

    fn adjacency(mut self, text: &'a str) -> Result<(Graph<I>, Names)> {
        let w = I::BYTES;
        // Each vertex has at most one line: remember (vertex, first arc, line number).
        let mut lines: Vec<(I, usize)> = Vec::new();
        let mut listed_on: FxHashMap<I, usize> = FxHashMap::default();
        let mut targets: Vec<I> = Vec::new();
        for (i, raw) in text.split('\n').enumerate() {
            self.line_check(i)?;
            let n = i + 1;
            let line = raw.strip_suffix('\r').unwrap_or(raw);
            let Some(head) = adjacency_head(line, n)? else {
                continue;
            };
            let v = self.id(head.name)?;
            if let Some(first) = listed_on.insert(v, n) {
                let at = column(line, head.start);
                return Err(listed_twice(head.name, n, at, first));
            }
            lines.push((v, targets.len()));
            for option in adjacency_options(line, head.colon_at, n) {
                targets.push(self.id(option?.1)?);
                if targets.len() & 0xFFFF == 0 {
                    let needed = self.bytes(targets.capacity(), w);
                    self.check_memory(needed)?;
                }
            }
        }
        drop(listed_on);
        let n = self.ids.len();
        let e = targets.len();
        check_size_for::<I>(n as u64, e as u64)?;
        let needed = self.bytes(e, 2 * w) + Graph::<I>::bytes_needed(n as u64, e as u64);
        self.check_memory(needed)?;
        let mut degree = vec![I::zero(); n + 1];
        for (k, &(v, first)) in lines.iter().enumerate() {
            let end = lines.get(k + 1).map_or(e, |l| l.1);
            degree[v.index() + 1] = I::from_usize(end - first);
        }
        for i in 0..n {
            let prev = degree[i];
            degree[i + 1] += prev;
        }
        let offsets = degree;
        let mut csr = vec![I::zero(); e];
        for (k, &(v, first)) in lines.iter().enumerate() {
            let end = lines.get(k + 1).map_or(e, |l| l.1);
            let o = offsets[v.index()].index();
            csr[o..o + end - first].copy_from_slice(&targets[first..end]);
        }
        drop(targets);
        drop(self.ids);
        let graph = Graph::from_csr(offsets, csr)?;
        Ok((graph, self.names))
    }

    /// Reads an arc list from `input`, one line at a time, so that the text is never held
    /// whole. Memory: the arcs in chunks of at most 2^16 (8 bytes an arc, no reallocation copies),
    /// then the forward targets beside them (12 bytes an arc at the peak, before the chunks
    /// are dropped); the id map ([`IdMap`]) and the ids as numbers (8 bytes a vertex).
    fn arcs<J: VertexId>(mut self, mut input: impl BufRead) -> Result<(Graph<J>, Names)> {
        const CHUNK: usize = 1 << 16;
        let w = J::BYTES;
        let mut ids: IdMap<J> = IdMap::Dense(Vec::new());
        let mut chunks: Vec<Vec<[J; 2]>> = Vec::new();
        let mut e = 0usize;
        let mut buf: Vec<u8> = Vec::new();
        for i in 0.. {
            self.line_check(i)?;
            buf.clear();
            let read = (&mut input)
                .take(MAX_LINE as u64 + 1)
                .read_until(b'\n', &mut buf)
                .map_err(|e| Error::invalid(format!("reading the graph after line {i}: {e}")))?;
            if read == 0 {
                break;
            }
            if buf.len() > MAX_LINE && buf.last() != Some(&b'\n') {
                return Err(long_line(i + 1));
            }
            let raw = buf.strip_suffix(b"\n").unwrap_or(&buf);
            let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
            let values = match decimal_pair(raw) {
                Some(pair) => pair,
                None => {
                    let line = utf8_line(raw, i + 1)?;
                    match slow_arc_line(line, i + 1)? {
                        Some(pair) => pair,
                        None => continue,
                    }
                }
            };
            let mut ends = [J::zero(); 2];
            for (end, value) in ends.iter_mut().zip(values) {
                *end = ids.id(value, &mut self.names.numbers)?;
            }
            if chunks.last().is_none_or(|c| c.len() == c.capacity()) {
                // Chunks double from 64 arcs up to CHUNK, so small files take little memory.
                let size = e.clamp(64, CHUNK);
                let needed = ids.bytes() + self.names.bytes() + 2 * w * (e + size) as u64;
                self.check_memory(needed)?;
                chunks.push(Vec::with_capacity(size));
            }
            if let Some(c) = chunks.last_mut() {
                c.push(ends);
            }
            e += 1;
        }
        drop(ids);
        let n = self.names.len();
        check_size_for::<J>(n as u64, e as u64)?;
        let needed =
            self.names.bytes() + 2 * w * e as u64 + Graph::<J>::bytes_needed(n as u64, e as u64);
        self.check_memory(needed)?;
        // Counting sort by tail: offsets[u + 1] counts u's arcs, prefix sums make offsets[u] the
        // start of u's slice and serve as the fill cursors, which end at the next start; one
        // shift restores the starts.
        let mut offsets = vec![J::zero(); n + 1];
        for &[u, _] in chunks.iter().flatten() {
            offsets[u.index() + 1] += J::one();
        }
        for i in 0..n {
            let prev = offsets[i];
            offsets[i + 1] += prev;
        }
        // Each chunk is freed once placed (the targets are zero pages until written).
        let mut targets = vec![J::zero(); e];
        for chunk in chunks {
            for [u, v] in chunk {
                let cursor = &mut offsets[u.index()];
                targets[cursor.index()] = v;
                *cursor += J::one();
            }
        }
        offsets.copy_within(0..n, 1);
        offsets[0] = J::zero();
        let graph = Graph::from_csr(offsets, targets)?;
        Ok((graph, self.names))
    }
}

/// The map from the integer ids of an arc list to vertex numbers (order of first appearance).
/// While ids stay small (below four times the number of vertices, or 2^20) it is a plain
/// table indexed by id, 4 to 8 bytes a slot, instead of a hash map (about 17 to 35 bytes a
/// vertex); the first id beyond that moves it to a hash map.
enum IdMap<I> {
    Dense(Vec<I>),
    Sparse(FxHashMap<u64, I>),
}

impl<I: VertexId> IdMap<I> {
    /// An empty slot of the dense table: `I::MAX` is never a vertex number.
    const EMPTY: I = I::MAX;

    /// The vertex number of `value`, a new one (its id recorded in `numbers`) if unseen.
    fn id(&mut self, value: u64, numbers: &mut Vec<u64>) -> Result<I> {
        let next = I::from_usize(numbers.len());
        if let IdMap::Dense(table) = self {
            let bound = (4 * (numbers.len() as u64 + 1)).max(1 << 20);
            if value >= bound {
                let map: FxHashMap<u64, I> = numbers
                    .iter()
                    .enumerate()
                    .map(|(i, &x)| (x, I::from_usize(i)))
                    .collect();
                *self = IdMap::Sparse(map);
            } else {
                let i = value as usize;
                if i >= table.len() {
                    let len = (i + 1).max(2 * table.len());
                    table.resize(len, IdMap::EMPTY);
                }
                if table[i] != IdMap::EMPTY {
                    return Ok(table[i]);
                }
                check_size_for::<I>(numbers.len() as u64 + 1, 0)?;
                table[i] = next;
                numbers.push(value);
                return Ok(next);
            }
        }
        let IdMap::Sparse(map) = self else {
            unreachable!("a dense map was handled above")
        };
        match map.entry(value) {
            Entry::Occupied(o) => Ok(*o.get()),
            Entry::Vacant(slot) => {
                check_size_for::<I>(numbers.len() as u64 + 1, 0)?;
                slot.insert(next);
                numbers.push(value);
                Ok(next)
            }
        }
    }

    fn bytes(&self) -> u64 {
        match self {
            IdMap::Dense(t) => I::BYTES * t.capacity() as u64,
            IdMap::Sparse(m) => (16 + 2 * I::BYTES) * m.capacity() as u64,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::MemoryBudget;

    /// A control whose only part is a budget of `limit` bytes.
    fn budget(limit: u64) -> Control<'static> {
        Control::none().with_memory(MemoryBudget::new(limit))
    }

    fn parse(s: &str) -> Result<ParsedGraph> {
        parse_graph(s.as_bytes(), GraphFormat::Adjacency, &Control::none())
    }

    fn parse_arcs(s: &str) -> Result<ParsedGraph> {
        parse_graph(s.as_bytes(), GraphFormat::Arcs, &Control::none())
    }

    fn error_at(r: Result<ParsedGraph>) -> (Option<usize>, Option<usize>, String) {
        match r {
            Err(Error::Parse(e)) => (e.at.line, e.at.column, e.message),
            other => panic!("expected a parse error, got {other:?}"),
        }
    }

    #[test]
    fn adjacency_files_number_vertices_by_first_appearance() {
        let p = parse("# a comment\n\nb: c a\r\n  a:   b\tb\nc:\nd.x-1_é:\n").unwrap();
        let names: Vec<String> = (0..p.names.len() as u32)
            .map(|v| p.names.get(v).into())
            .collect();
        assert_eq!(names, ["b", "c", "a", "d.x-1_é"]);
        assert_eq!(p.graph.options(0), &[1, 2]);
        assert_eq!(p.graph.options(2), &[0, 0]);
        assert_eq!(p.graph.options(1), &[] as &[u32]);
        assert_eq!(p.graph.arc_count(), 4);
        let empty = parse("").unwrap();
        assert_eq!(empty.graph.vertex_count(), 0);
    }

    #[test]
    fn adjacency_errors_name_line_and_column() {
        assert_eq!(
            error_at(parse("a: b\nb c\n")),
            (
                Some(2),
                Some(3),
                "expected ':' after the vertex name 'b', found 'c'".into()
            )
        );
        assert_eq!(error_at(parse("a b")).1, Some(3));
        assert_eq!(
            error_at(parse("a")).2,
            "expected ':' after the vertex name 'a', found end of line"
        );
        let (l, c, m) = error_at(parse("a: b\nb: a\na: c\n"));
        assert_eq!((l, c), (Some(3), Some(1)));
        assert!(m.contains("listed twice (first on line 1)"), "{m}");
        let (l, c, m) = error_at(parse("x: y\né: b! c"));
        assert_eq!((l, c), (Some(2), Some(5)));
        assert!(m.contains("found '!'"), "{m}");
        assert_eq!(error_at(parse(": b")).1, Some(1));
        assert_eq!(error_at(parse("  $a: b")).1, Some(3));
        let (l, c, m) = error_at(parse_graph(
            b"a: b\nb: \xff\n",
            GraphFormat::Adjacency,
            &Control::none(),
        ));
        assert_eq!((l, c), (Some(2), Some(4)));
        assert!(m.contains("UTF-8"));
    }

    #[test]
    fn arc_lists_read_integer_ids() {
        let p = parse_arcs("5 3\n3 5\n# c\n\n0x10 5\n3 3\n").unwrap();
        let names: Vec<String> = (0..p.names.len() as u32)
            .map(|v| p.names.get(v).into())
            .collect();
        assert_eq!(names, ["5", "3", "16"]);
        assert_eq!(p.graph.options(1), &[0, 1]);
        assert_eq!(p.graph.options(2), &[0]);
        assert_eq!(error_at(parse_arcs("1 2\n1 x\n")).0, Some(2));
        assert_eq!(error_at(parse_arcs("1 2\n1 x\n")).1, Some(3));
        assert_eq!(error_at(parse_arcs("1 2 3")).1, Some(5));
        assert_eq!(error_at(parse_arcs("7")).1, Some(2));
        let (_, c, m) = error_at(parse_arcs("1 18446744073709551616"));
        assert_eq!(c, Some(3));
        assert!(m.contains("64"), "{m}");
        assert!(error_at(parse_arcs("-1 2")).2.contains("vertex id"));
        // The fast path and the general one agree on spacing, leading zeros and hex.
        let p = parse_arcs("\t1\t2 \n 007 1\n1 0x7\n2 18446744073709551615\n").unwrap();
        let names: Vec<String> = (0..p.names.len() as u32)
            .map(|v| p.names.get(v).into())
            .collect();
        assert_eq!(names, ["1", "2", "7", "18446744073709551615"]);
        assert_eq!(p.graph.options(0), &[1, 2]);
        assert_eq!(p.graph.options(2), &[0]);
        assert_eq!(error_at(parse_arcs("1 2x")).1, Some(4));
    }

    #[test]
    fn the_memory_limit_is_enforced() {
        let mut s = String::new();
        for i in 0..200_000 {
            s.push_str(&format!("{i} {}\n", i + 1));
        }
        let r = parse_graph(s.as_bytes(), GraphFormat::Arcs, &budget(1 << 20));
        assert!(matches!(r, Err(Error::Limit(_))), "{r:?}");
        assert!(parse_graph(s.as_bytes(), GraphFormat::Arcs, &budget(1 << 30)).is_ok());
    }

    /// The readers draw on a shared budget: what others hold counts, the bytes are given back
    /// when the reading ends, and a cancelled token or a passed deadline stops a read of either
    /// format (also from a stream) before its first line.
    #[test]
    fn readers_share_the_budget_and_stop_when_told() {
        let mut arcs = String::new();
        let mut adjacency = String::new();
        for i in 0..100_000 {
            arcs.push_str(&format!("{i} {}\n", i + 1));
            adjacency.push_str(&format!("v{i}: v{}\n", i + 1));
        }
        let budget = MemoryBudget::new(64 << 20);
        let ctl = Control::none().with_memory(budget.clone());
        for (text, format) in [
            (&arcs, GraphFormat::Arcs),
            (&adjacency, GraphFormat::Adjacency),
        ] {
            let g = parse_graph(text.as_bytes(), format, &ctl).unwrap();
            assert_eq!(g.graph.arc_count(), 100_000);
            assert_eq!(budget.used(), 0, "the reading gives its bytes back");
            // Held elsewhere, 63 MiB leave too little for the reading.
            let others = budget.reserve(63 << 20, "another table").unwrap();
            match parse_graph(text.as_bytes(), format, &ctl) {
                Err(Error::Limit(l)) => {
                    assert_eq!(l.kind, crate::LimitKind::Memory);
                    assert!(l.what.contains("reading the graph"), "{}", l.what);
                    assert!(l
                        .amounts
                        .is_some_and(|(need, lim)| need > lim && lim == 64 << 20));
                }
                other => panic!("expected the memory limit, got {other:?}"),
            }
            drop(others);
            assert_eq!(budget.used(), 0);
        }
        let token = crate::control::CancelToken::new();
        token.cancel();
        let stopped = Control::none().with_token(token);
        let past = Control::none().with_deadline(std::time::Instant::now());
        for ctl in [&stopped, &past] {
            for format in [GraphFormat::Arcs, GraphFormat::Adjacency] {
                let r = parse_graph(b"1 2\n", format, ctl).map(|_| ());
                assert!(matches!(r, Err(Error::Cancelled(_))));
            }
            let r = parse_arcs_stream(arcs.as_bytes(), ctl).map(|_| ());
            assert!(matches!(r, Err(Error::Cancelled(_))));
        }
    }

    /// The bounded reader takes a file to its end within the cap, refuses an endless input
    /// (`std::io::repeat`, as `/dev/zero`) at the cap or at the budget, and holds its bytes
    /// from the budget until the text is dropped.
    #[test]
    fn the_bounded_reader_never_trusts_the_input_to_end() {
        let budget = MemoryBudget::new(4 << 20);
        let ctl = Control::none().with_memory(budget.clone());
        let (text, held) = read_bounded(&b"a: b\n"[..], 1 << 20, "the file", &ctl).unwrap();
        assert_eq!(text, b"a: b\n");
        assert_eq!(budget.used(), held.bytes());
        drop(held);
        let endless = std::io::repeat(0);
        match read_bounded(endless, 1 << 20, "the file", &ctl) {
            Err(Error::Limit(l)) => assert!(l.what.contains("larger than"), "{}", l.what),
            other => panic!(
                "expected the size limit, got {:?}",
                other.map(|t| t.0.len())
            ),
        }
        match read_bounded(std::io::repeat(0), 1 << 30, "the file", &ctl) {
            Err(Error::Limit(l)) => assert_eq!(l.kind, crate::LimitKind::Memory),
            other => panic!("expected the budget, got {:?}", other.map(|t| t.0.len())),
        }
        assert_eq!(budget.used(), 0);
        let token = crate::control::CancelToken::new();
        token.cancel();
        let r = read_bounded(
            std::io::repeat(0),
            1 << 30,
            "f",
            &Control::none().with_token(token),
        );
        assert!(matches!(r.map(|t| t.0.len()), Err(Error::Cancelled(_))));
    }

    proptest::proptest! {
        #[test]
        fn arc_lists_number_ids_by_first_appearance(
            arcs in proptest::collection::vec((0usize..12, 0usize..12), 0..40),
        ) {
            // Small ids (the dense table) and huge ones (the hash map after the switch), mixed.
            let pool = [0u64, 1, 2, 5, 9, 1000, 1 << 21, 1 << 40, u64::MAX, 3, 7, 4];
            let mut text = String::new();
            let mut seen: Vec<u64> = Vec::new();
            let mut expected = Vec::new();
            for &(a, b) in &arcs {
                text.push_str(&format!("{} {}\n", pool[a], pool[b]));
                let mut number = |x: u64| match seen.iter().position(|&y| y == x) {
                    Some(i) => i as u32,
                    None => {
                        seen.push(x);
                        seen.len() as u32 - 1
                    }
                };
                let u = number(pool[a]);
                expected.push((u, number(pool[b])));
            }
            let p = parse_arcs(&text).unwrap();
            proptest::prop_assert_eq!(&p.graph, &Graph::<u32>::from_arcs(seen.len(), &expected).unwrap());
            let names: Vec<String> = (0..p.names.len() as u32).map(|v| p.names.get(v).into()).collect();
            let want: Vec<String> = seen.iter().map(u64::to_string).collect();
            proptest::prop_assert_eq!(names, want);
            // Read with 64-bit ids: the same graph, built from 64-bit arcs, and the same names.
            let (wide, wide_names) = parse_arcs_stream_as::<u64>(text.as_bytes(), &Control::none()).unwrap();
            let expected64: Vec<(u64, u64)> =
                expected.iter().map(|&(u, v)| (u.into(), v.into())).collect();
            proptest::prop_assert_eq!(&wide, &Graph::<u64>::from_arcs(seen.len(), &expected64).unwrap());
            proptest::prop_assert_eq!(&wide_names, &p.names);
        }
    }

    proptest::proptest! {
        #[test]
        fn adjacency_read_with_64_bit_ids_is_the_same_graph(
            lines in proptest::collection::vec(
                (0usize..15, proptest::collection::vec(0usize..15, 0..6)), 0..15),
        ) {
            let mut text = String::new();
            let mut listed = std::collections::HashSet::new();
            for (v, options) in &lines {
                if listed.insert(*v) {
                    let options: Vec<String> = options.iter().map(|w| format!("v{w}")).collect();
                    text.push_str(&format!("v{v}: {}\n", options.join(" ")));
                }
            }
            let narrow = parse(&text).unwrap();
            let (wide, names) = parse_graph_as::<u64>(text.as_bytes(), GraphFormat::Adjacency, &Control::none()).unwrap();
            proptest::prop_assert_eq!(Some(wide), narrow.graph.to_width::<u64>());
            proptest::prop_assert_eq!(names, narrow.names);
        }
    }

    #[test]
    fn wide_ids_count_8_byte_words_against_the_budget() {
        let text = "0 1\n1 2\n2 0\n";
        // Find the least budget that reads the list with 32-bit ids: 64-bit ids need more.
        let least = (0..10_000u64)
            .find(|&m| parse_arcs_stream_as::<u32>(text.as_bytes(), &budget(m)).is_ok())
            .unwrap();
        assert!(matches!(
            parse_arcs_stream_as::<u64>(text.as_bytes(), &budget(least)),
            Err(Error::Limit(_))
        ));
        assert!(parse_arcs_stream_as::<u64>(text.as_bytes(), &budget(2 * least)).is_ok());
    }

    #[test]
    fn streamed_arc_lists_read_as_whole_ones() {
        let text = "5 3\r\n3 5\n# c\n\n0x10 5\n3 3";
        let whole = parse_arcs(text).unwrap();
        let streamed = parse_arcs_stream(
            std::io::BufReader::with_capacity(3, text.as_bytes()),
            &Control::none(),
        )
        .unwrap();
        assert_eq!(whole.graph, streamed.graph);
        assert_eq!(whole.names, streamed.names);
        let bad = parse_arcs_stream(&b"1 2\n3 \xff4\n"[..], &Control::none());
        assert_eq!(error_at(bad).0, Some(2));
        let bad = parse_arcs_stream(&b"1 2\n3 \xff4\n"[..], &Control::none());
        assert_eq!(error_at(bad).1, Some(3));
        let long = format!("1 2\n#{}\n", "x".repeat(MAX_LINE));
        let (line, _, m) = error_at(parse_arcs_stream(long.as_bytes(), &Control::none()));
        assert_eq!(line, Some(2));
        assert!(m.contains("longer than"), "{m}");
        let fits = format!("1 2\n#{}\n3 4", "x".repeat(MAX_LINE - 2));
        assert_eq!(
            parse_arcs_stream(fits.as_bytes(), &Control::none())
                .unwrap()
                .graph
                .arc_count(),
            2
        );
    }
}
