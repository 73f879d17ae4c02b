//! A graph file read by byte ranges: each rank reads the lines of its own range, and the
//! vertices and their reverse arcs go to their owners. No rank holds the whole graph.
//!
//! **Ranges.** With a file of `S` bytes and `K` ranks, rank `r` starts at the first line
//! beginning at or after byte `⌊S·r/K⌋` and ends where rank `r+1` starts ([`line_range`]): the
//! ranges are line-aligned, disjoint, cover the file, and each rank finds its own by reading a
//! few bytes at its two ends. Line numbers are global: rank `r` adds the number of newlines in
//! the ranges before its own (an all-gather of one count a rank).
//!
//! **Order of first appearance.** The one-process reader numbers vertices in the order they
//! first appear (a line's vertex before its options). The byte offset of a name's first
//! occurrence in the file orders the vertices the same way, and is known to the rank that
//! reads it: each rank sends the least offset of each name it saw to the name's owner, which
//! keeps the least. The answer is written in that order ([`crate::distributed::order`]).
//!
//! **Errors.** The one-process reader reports the first error of the file; here each rank finds
//! the first error of its range, and the ranks agree on the one with the least line
//! ([`crate::distributed::Bsp::agree`]). A NUL byte (checked first) and invalid UTF-8 (checked next, over
//! the whole file) precede the line errors, as in the one-process reader; a vertex listed twice
//! is found by its owner, which sees all its listings.

use super::graph::{
    adjacency_head, adjacency_options, column, decimal_pair, listed_twice, long_line,
    slow_arc_line, utf8_line, utf8_text, GraphFormat, MAX_LINE,
};
use crate::control::Reservation;
use crate::distributed::graph::{part_bytes, GraphPart};
use crate::distributed::wire::{put_bytes, Read as WireRead};
use crate::distributed::{numbers, owner_hash, Bsp, Comm, Keyed, Outbox};
use crate::error::{Error, ParseError, Result};
use crate::game::hash::FxHashMap;
use std::io::{Read, Seek, SeekFrom};

/// The line-aligned byte range `[start, end)` of rank `rank` of `ranks` in a file of `len`
/// bytes (see the module documentation).
pub fn line_range<F: Read + Seek>(
    file: &mut F,
    len: u64,
    rank: usize,
    ranks: usize,
) -> std::io::Result<(u64, u64)> {
    let nominal = |r: usize| (len as u128 * r as u128 / ranks.max(1) as u128) as u64;
    let start = line_start_from(file, len, nominal(rank))?;
    let end = if rank + 1 >= ranks {
        len
    } else {
        line_start_from(file, len, nominal(rank + 1))?
    };
    Ok((start, end.max(start)))
}

/// The first position `p ≥ at` that begins a line (`p = 0`, or byte `p − 1` is a newline), or
/// `len`.
fn line_start_from<F: Read + Seek>(file: &mut F, len: u64, at: u64) -> std::io::Result<u64> {
    if at == 0 || at >= len {
        return Ok(at.min(len));
    }
    file.seek(SeekFrom::Start(at - 1))?;
    let mut buf = vec![0u8; 1 << 16];
    let mut pos = at - 1;
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            return Ok(len);
        }
        if let Some(i) = buf[..n].iter().position(|&b| b == b'\n') {
            return Ok((pos + i as u64 + 1).min(len));
        }
        pos += n as u64;
    }
}

/// A name as read on one rank, before its owner numbers it.
#[derive(Clone, Copy)]
enum Key<'t> {
    Name(&'t str),
    Number(u64),
}

/// What a rank reads in its range: its distinct names (local ids in order of first sight here),
/// the offset of each one's first appearance, the head listings and the arcs.
struct Local<'t> {
    by_name: FxHashMap<&'t str, u32>,
    by_number: FxHashMap<u64, u32>,
    keys: Vec<Key<'t>>,
    first: Vec<u64>,
    /// (local id, line, column) of each `V:` line.
    heads: Vec<(u32, u64, u64)>,
    arcs: Vec<[u32; 2]>,
}

impl<'t> Local<'t> {
    fn new() -> Self {
        Local {
            by_name: FxHashMap::default(),
            by_number: FxHashMap::default(),
            keys: Vec::new(),
            first: Vec::new(),
            heads: Vec::new(),
            arcs: Vec::new(),
        }
    }

    fn name(&mut self, name: &'t str, at: u64) -> u32 {
        let next = self.keys.len() as u32;
        let id = *self.by_name.entry(name).or_insert(next);
        if id == next {
            self.keys.push(Key::Name(name));
            self.first.push(at);
        }
        id
    }

    fn number(&mut self, x: u64, at: u64) -> u32 {
        let next = self.keys.len() as u32;
        let id = *self.by_number.entry(x).or_insert(next);
        if id == next {
            self.keys.push(Key::Number(x));
            self.first.push(at);
        }
        id
    }

    /// Bytes held: map entries, keys, offsets, listings and arcs.
    fn bytes(&self) -> u64 {
        let maps = 32 * (self.by_name.capacity() + self.by_number.capacity()) as u64;
        maps + 32 * self.keys.capacity() as u64
            + 24 * self.heads.capacity() as u64
            + 8 * self.arcs.capacity() as u64
    }
}

/// The error of a NUL byte on line `n`.
fn nul_error(n: u64) -> Error {
    Error::Parse(ParseError::at_line(
        n as usize,
        None,
        "a NUL byte: graph files are UTF-8 text",
    ))
}

/// Shifts the line of a parse error found in a range by the lines before the range.
fn shifted(e: Error, base: u64) -> Error {
    match e {
        Error::Parse(mut p) => {
            p.at.line = p.at.line.map(|l| l + base as usize);
            Error::Parse(p)
        }
        other => other,
    }
}

/// Reads this rank's range `text` (starting at byte `offset` of the file) of a graph file, and
/// gives each vertex to its owner. Collective. Errors are the one-process reader's, agreed among
/// ranks (see the module documentation); memory is reserved from the control's budget.
pub fn read<C: Comm + ?Sized>(
    bsp: &Bsp<'_, C>,
    text: &[u8],
    offset: u64,
    format: GraphFormat,
) -> Result<GraphPart> {
    let ctl = bsp.control();
    let newlines = text.iter().filter(|&&b| b == b'\n').count() as u64;
    let counts = bsp.all_gather(&[newlines]);
    let base: u64 = counts[..bsp.rank()].iter().sum();
    let held = ctl.reserve(text.len() as u64, "holding this rank's part of the file");
    if format == GraphFormat::Adjacency {
        // As the one-process reader: a NUL byte first, then invalid UTF-8, then the lines.
        let nul = text.iter().position(|&b| b == 0).map(|at| {
            let n = base + text[..at].iter().filter(|&&b| b == b'\n').count() as u64 + 1;
            (n, nul_error(n))
        });
        bsp.agree(match (nul, held.as_ref()) {
            (Some(e), _) => Err(e),
            (None, Err(e)) => Err((0, e.clone())),
            (None, Ok(_)) => Ok(()),
        })?;
        bsp.agree(utf8_text(text).map(|_| ()).map_err(|e| {
            let e = shifted(e, base);
            (line_key(&e, 0), e)
        }))?;
    }
    let held = bsp.check(held)?;
    let mut local = Local::new();
    let mut local_held = ctl.reserve(0, "reading this rank's part of the file")?;
    let parsed = match format {
        GraphFormat::Adjacency => {
            // Checked above: the range is UTF-8.
            let s = std::str::from_utf8(text).map_err(|_| (0, Error::Internal("UTF-8".into())));
            s.and_then(|s| adjacency(s, offset, base, &mut local, &mut local_held))
        }
        _ => arcs(text, offset, base, &mut local, &mut local_held),
    };
    // Names to their owners: the key, the offset of its first appearance here, its listings.
    let k = bsp.size();
    let mut out = Outbox::new(k);
    let mut sent_to: Vec<Vec<u32>> = vec![Vec::new(); k];
    local.heads.sort_unstable();
    let mut heads = local.heads.iter().peekable();
    let mut digits = String::new();
    for (id, key) in local.keys.iter().enumerate() {
        let bytes: &[u8] = match key {
            Key::Name(s) => s.as_bytes(),
            Key::Number(x) => {
                digits.clear();
                use std::fmt::Write;
                let _ = write!(digits, "{x}");
                digits.as_bytes()
            }
        };
        let to = (owner_hash(bytes) % k as u64) as usize;
        sent_to[to].push(id as u32);
        let b = &mut out.to[to];
        put_bytes(b, bytes);
        crate::distributed::wire::put(b, local.first[id]);
        let mut listings = Vec::new();
        while let Some(&&(h, line, col)) = heads.peek() {
            if h as usize != id {
                break;
            }
            listings.push((line, col));
            heads.next();
        }
        crate::distributed::wire::put(b, listings.len() as u64);
        for (line, col) in listings {
            crate::distributed::wire::put(b, line);
            crate::distributed::wire::put(b, col);
        }
    }
    // The batches, the exchange's copy of them and what comes back (as much, on average).
    let sent_bytes = 3 * out.bytes();
    let (inbox, _) = bsp.exchange(
        local_held
            .grow(sent_bytes, "reading this rank's part of the file")
            .map(|()| out.to)
            .map_err(|e| (0, e)),
    )?;
    // The owner numbers its vertices and finds the vertices listed twice.
    let numbering = number_names(bsp, &inbox);
    drop(inbox);
    let (names, first, replies, listed_twice_error) = bsp.check(numbering)?;
    let (replies, _) = bsp.exchange(Ok(replies))?;
    let first_error = match (parsed, listed_twice_error) {
        (Err(a), Some(b)) => Err(if b.0 < a.0 { b } else { a }),
        (Err(a), None) | (Ok(()), Some(a)) => Err(a),
        (Ok(()), None) => Ok(()),
    };
    bsp.agree(first_error)?;
    // The global id of each local name, from its owner's replies (in the order sent).
    let mut gid = vec![0u64; local.keys.len()];
    let mut decode = || -> Result<()> {
        for (from, ids) in sent_to.iter().enumerate() {
            let mut r = numbers(&replies[from]);
            for &id in ids {
                gid[id as usize] = r.get()?;
            }
        }
        Ok(())
    };
    bsp.check(decode())?;
    drop(replies);
    // Arcs to the owner of their head (a reverse arc) and out-degrees to the owner of the tail.
    let mut degree = vec![0u64; local.keys.len()];
    for &[u, _] in &local.arcs {
        degree[u as usize] += 1;
    }
    let mut out = Outbox::new(k);
    let mut with_degree = vec![0u64; k];
    for (id, &d) in degree.iter().enumerate() {
        if d > 0 {
            with_degree[bsp.owner(gid[id])] += 1;
        }
    }
    for (to, &c) in with_degree.iter().enumerate() {
        out.put(to, c);
    }
    for (id, &d) in degree.iter().enumerate() {
        if d > 0 {
            let g = gid[id];
            out.put(bsp.owner(g), g / k as u64);
            out.put(bsp.owner(g), d);
        }
    }
    drop(degree);
    for &[u, v] in &local.arcs {
        let (gu, gv) = (gid[u as usize], gid[v as usize]);
        out.put(bsp.owner(gv), gv / k as u64);
        out.put(bsp.owner(gv), gu);
    }
    let arcs_here = local.arcs.len() as u64;
    drop(local);
    drop(gid);
    drop(held);
    let sent_bytes = 3 * out.bytes();
    let out = local_held
        .grow(sent_bytes, "sending this rank's arcs")
        .map(|()| out.to);
    let (inbox, _) = bsp.exchange(out.map_err(|e| (0, e)))?;
    drop(local_held);
    let built = build(bsp, names, first, &inbox);
    drop(inbox);
    let mut part = bsp.check(built)?;
    let totals = bsp.all_gather(&[part.len() as u64, arcs_here]);
    part.total = (
        totals.chunks(2).map(|w| w[0]).sum(),
        totals.chunks(2).map(|w| w[1]).sum(),
    );
    Ok(part)
}

/// The agreement key of a parse error: twice its line (so that an error found later on the
/// same line, key `2·line + 1`, comes after).
fn line_key(e: &Error, later: u64) -> u64 {
    match e {
        Error::Parse(p) => p.at.line.map_or(0, |l| 2 * l as u64 + later),
        _ => 0,
    }
}

/// Grows a reservation to what `local` holds, every 2^16 arcs.
fn charge(local: &Local<'_>, held: &mut Reservation) -> Result<(), Keyed> {
    if local.arcs.len() & 0xFFFF == 0 {
        held.resize(local.bytes(), "reading this rank's part of the file")
            .map_err(|e| (0, e))?;
    }
    Ok(())
}

/// The lines of an adjacency range; stops at the first error (keyed by its line).
fn adjacency<'t>(
    text: &'t str,
    offset: u64,
    base: u64,
    local: &mut Local<'t>,
    held: &mut Reservation,
) -> Result<(), Keyed> {
    let mut at = 0usize;
    for (i, raw) in text.split('\n').enumerate() {
        let start = at;
        at += raw.len() + 1;
        let n = (base + i as u64 + 1) as usize;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let key = |e: Error, later| (line_key(&e, later), e);
        let head = match adjacency_head(line, n) {
            Ok(Some(h)) => h,
            Ok(None) => continue,
            Err(e) => return Err(key(e, 0)),
        };
        let place = offset + start as u64;
        let v = local.name(head.name, place + head.start as u64);
        local
            .heads
            .push((v, n as u64, column(line, head.start) as u64));
        for option in adjacency_options(line, head.colon_at, n) {
            let (pos, name) = option.map_err(|e| key(e, 1))?;
            let w = local.name(name, place + pos as u64);
            local.arcs.push([v, w]);
            charge(local, held)?;
        }
    }
    Ok(())
}

/// The lines of an arc-list range; stops at the first error (keyed by its line).
fn arcs(
    text: &[u8],
    offset: u64,
    base: u64,
    local: &mut Local<'_>,
    held: &mut Reservation,
) -> Result<(), Keyed> {
    let mut at = 0usize;
    let end = text.strip_suffix(b"\n").unwrap_or(text);
    if text.is_empty() {
        return Ok(());
    }
    for (i, raw) in end.split(|&b| b == b'\n').enumerate() {
        let start = at;
        at += raw.len() + 1;
        let n = (base + i as u64 + 1) as usize;
        let key = |e: Error| (line_key(&e, 0), e);
        if raw.len() > MAX_LINE {
            return Err(key(long_line(n)));
        }
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        let [u, v] = match decimal_pair(raw) {
            Some(pair) => pair,
            None => {
                let line = utf8_line(raw, n).map_err(key)?;
                match slow_arc_line(line, n).map_err(key)? {
                    Some(pair) => pair,
                    None => continue,
                }
            }
        };
        // An arc line holds at least "U V": its first two bytes order U before V.
        let place = offset + start as u64;
        let (u, v) = (local.number(u, place), local.number(v, place + 1));
        local.arcs.push([u, v]);
        charge(local, held)?;
    }
    Ok(())
}

/// What an owner learns from the names sent to it: its vertices' names and first offsets, the
/// replies (each sender's names' ids, in the order sent), and the first vertex listed twice.
type Numbering = (Vec<Box<str>>, Vec<u64>, Vec<Vec<u8>>, Option<Keyed>);

fn number_names<C: Comm + ?Sized>(bsp: &Bsp<'_, C>, inbox: &[Vec<u8>]) -> Result<Numbering> {
    let (k, me) = (bsp.size() as u64, bsp.rank() as u64);
    let mut index: FxHashMap<&str, u64> = FxHashMap::default();
    let mut names: Vec<Box<str>> = Vec::new();
    let mut first: Vec<u64> = Vec::new();
    let mut listings: Vec<(u64, u64, u64)> = Vec::new();
    let mut replies = vec![Vec::new(); bsp.size()];
    let mut held = bsp.control().reserve(0, "numbering this rank's vertices")?;
    for (from, batch) in inbox.iter().enumerate() {
        let mut r = WireRead::new(batch);
        while !r.is_empty() {
            let name = r.get_str()?;
            let at = r.get()?;
            let next = names.len() as u64;
            let i = *index.entry(name).or_insert(next);
            if i == next {
                names.push(name.into());
                first.push(at);
                if names.len() & 0xFFFF == 0 {
                    let bytes = 80 * names.capacity() as u64 + 24 * listings.capacity() as u64;
                    held.resize(bytes, "numbering this rank's vertices")?;
                }
            } else {
                first[i as usize] = first[i as usize].min(at);
            }
            for _ in 0..r.get()? {
                listings.push((i, r.get()?, r.get()?));
            }
            crate::distributed::wire::put(&mut replies[from], i * k + me);
        }
    }
    drop(index);
    // A vertex listed more than once: the error is at its second listing.
    listings.sort_unstable();
    let mut twice: Option<Keyed> = None;
    for i in 1..listings.len() {
        let (v, line, col) = listings[i];
        let second = listings[i - 1].0 == v && (i < 2 || listings[i - 2].0 != v);
        if second && twice.as_ref().is_none_or(|(key, _)| 2 * line < *key) {
            let first_line = listings[i - 1].1 as usize;
            let e = listed_twice(&names[v as usize], line as usize, col as usize, first_line);
            twice = Some((2 * line, e));
        }
    }
    Ok((names, first, replies, twice))
}

/// Builds the part from the owner's names and the degrees and reverse arcs sent to it.
fn build<C: Comm + ?Sized>(
    bsp: &Bsp<'_, C>,
    names: Vec<Box<str>>,
    first: Vec<u64>,
    inbox: &[Vec<u8>],
) -> Result<GraphPart> {
    let n = names.len();
    let mut degree = vec![0u64; n];
    let mut pred_start = vec![0usize; n + 1];
    let index = |i: u64| -> Result<usize> {
        (i < n as u64)
            .then_some(i as usize)
            .ok_or_else(|| Error::Internal("a message for a vertex not owned here".into()))
    };
    // Two passes over the reverse arcs: count, then place (a counting sort by head).
    let mut arcs = 0u64;
    for batch in inbox {
        let mut r = numbers(batch);
        for _ in 0..r.get()? {
            let i = index(r.get()?)?;
            degree[i] += r.get()?;
        }
        while !r.is_empty() {
            pred_start[index(r.get()?)? + 1] += 1;
            r.get()?;
            arcs += 1;
        }
    }
    let name_bytes: u64 = names.iter().map(|s| s.len() as u64).sum();
    let held = bsp.control().reserve(
        part_bytes(n as u64, name_bytes, arcs),
        "holding this rank's part of the graph",
    )?;
    for i in 0..n {
        pred_start[i + 1] += pred_start[i];
    }
    let mut cursor = pred_start.clone();
    let mut preds = vec![0u64; arcs as usize];
    for batch in inbox {
        let mut r = numbers(batch);
        for _ in 0..r.get()? {
            r.get()?;
            r.get()?;
        }
        while !r.is_empty() {
            let i = index(r.get()?)?;
            preds[cursor[i]] = r.get()?;
            cursor[i] += 1;
        }
    }
    Ok(GraphPart {
        ranks: bsp.size(),
        names,
        first,
        degree,
        pred_start,
        preds,
        total: (0, 0),
        _held: Some(held),
    })
}
