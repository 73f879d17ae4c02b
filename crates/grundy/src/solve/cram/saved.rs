//! The engine's transposition table kept in a file between runs of one board: a search of
//! hours stopped (Ctrl-C, a deadline) writes everything its table holds, and the next run of
//! the same board starts from it, answering at once every region the first had settled.
//!
//! The format is the table's own ([`Table::save`]): a short text header naming the board, the
//! layout of the entries and the number of buckets, the buckets' words, and a checksum of all.
//! The file is written whole to a temporary file and renamed over the old one
//! ([`crate::file::write_atomically_with`]), so it is always a complete table: a run killed
//! while writing leaves the previous one. A file that is not a sound table of this board
//! (another board or layout, cut short, changed: its checksum fails) is refused, never used.
//!
//! Why the table read back is sound: every entry the engine writes is a true statement about
//! its key (a region's value, or values it does not have), whatever board it was met on, and
//! the checksum shows the words are those written; so the search that starts from them gives
//! the value of a search from scratch (the tests compare both, stopped at a fixed point).

use super::{Board, Cram, Error, Result};
use crate::control::format_bytes;
use crate::solve::table::{read_saved_header, Layout, Saved, Table, BUCKET_BYTES};
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

/// A file holding the table of a search of one Cram board (see the module documentation).
pub struct TableFile {
    path: PathBuf,
    about: String,
    every: Option<Duration>,
    saves: std::sync::atomic::AtomicUsize,
    read: Mutex<Option<usize>>,
    saved: Mutex<Option<std::result::Result<u64, String>>>,
}

/// What a table file holds, from its header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableFileInfo {
    /// The bytes of the table.
    pub bytes: u64,
    /// Entries written into it (an upper bound of those it holds).
    pub entries: usize,
}

impl TableFile {
    /// The table file `path` of the search of `board`, whose notation (rows of free and
    /// blocked cells, `cram:..../..#.`) the file's header records and a reader checks.
    pub fn new(path: impl Into<PathBuf>, board: &Board) -> Result<TableFile> {
        use crate::game::Show;
        Ok(TableFile {
            path: path.into(),
            about: Cram.show(board)?,
            every: None,
            saves: std::sync::atomic::AtomicUsize::new(0),
            read: Mutex::new(None),
            saved: Mutex::new(None),
        })
    }

    /// Saves the table every `every` as well, while engines share it (a search past its
    /// first seconds, see [`super::solve_saving`]): they stop, the table is written, and they
    /// search on from the board with it. A crash then loses at most `every` of work.
    pub fn every(mut self, every: Duration) -> TableFile {
        self.every = Some(every);
        self
    }

    /// The interval of [`TableFile::every`], if any.
    pub(crate) fn interval(&self) -> Option<Duration> {
        self.every
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// What the file holds: `Ok(None)` when there is no file, [`Error::Invalid`] when it is
    /// not a table of this board. Reads the header only.
    pub fn info(&self) -> Result<Option<TableFileInfo>> {
        Ok(self.header()?.map(|(saved, _)| TableFileInfo {
            bytes: saved.buckets as u64 * BUCKET_BYTES,
            entries: saved.entries,
        }))
    }

    /// The entries read from the file by the last search, if it started from it.
    pub fn entries_read(&self) -> Option<usize> {
        *self.read.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The outcome of the last save: the bytes written, or why the file could not be written;
    /// `None` when the search saved nothing (it stopped with another error).
    pub fn saved(&self) -> Option<std::result::Result<u64, String>> {
        self.saved.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    fn refused(&self, why: impl std::fmt::Display) -> Error {
        Error::invalid(format!(
            "the saved table {} cannot be used: {why}; name another file, or delete it to start afresh",
            self.path.display()
        ))
    }

    /// The header and the open file at its words; `None` when there is no file.
    fn header(&self) -> Result<Option<(Saved, BufReader<std::fs::File>)>> {
        let file = match std::fs::File::open(&self.path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(self.refused(e)),
        };
        let meta = file.metadata().map_err(|e| self.refused(e))?;
        if meta.is_dir() {
            return Err(Error::invalid(format!(
                "the table file {} is a directory: name a file",
                self.path.display()
            )));
        }
        let len = meta.len();
        let mut r = BufReader::with_capacity(1 << 20, file);
        let saved = read_saved_header(&mut r).map_err(|e| self.refused(e))?;
        if saved.about != self.about {
            return Err(self.refused(format!(
                "it is the table of '{}', not of '{}'",
                saved.about, self.about
            )));
        }
        if len != saved.file_bytes() {
            return Err(self.refused(format!(
                "it has {len} bytes where its header announces {}",
                saved.file_bytes()
            )));
        }
        Ok(Some((saved, r)))
    }

    /// The table in the file, for a search whose table may have `cap` buckets laid out as
    /// `layout`; `None` when there is no file.
    pub(crate) fn load(&self, cap: usize, layout: Layout) -> Result<Option<Table>> {
        let Some((saved, mut r)) = self.header()? else {
            return Ok(None);
        };
        if saved.buckets > cap {
            return Err(Error::limit(
                crate::error::LimitKind::Memory,
                format!(
                    "the saved table {} takes {}, more than this run's table may ({})",
                    self.path.display(),
                    format_bytes(saved.buckets as u64 * BUCKET_BYTES),
                    format_bytes(cap as u64 * BUCKET_BYTES)
                ),
                "raise the memory budget to at least twice the saved table",
            ));
        }
        let t = Table::load(&saved, cap, layout, &mut r as &mut dyn Read)
            .map_err(|e| self.refused(e))?;
        *self.read.lock().unwrap_or_else(|e| e.into_inner()) = Some(saved.entries);
        Ok(Some(t))
    }

    /// Writes `table` to the file whole; the outcome is kept for [`TableFile::saved`].
    pub(crate) fn save(&self, table: &Table) {
        let r = crate::file::write_atomically_with(&self.path, &mut |w| table.save(&self.about, w))
            .and_then(|()| std::fs::metadata(&self.path).map(|m| m.len()));
        *self.saved.lock().unwrap_or_else(|e| e.into_inner()) = Some(r.map_err(|e| e.to_string()));
        self.saves
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    /// How many times the table was written (or tried).
    pub fn saves(&self) -> usize {
        self.saves.load(std::sync::atomic::Ordering::Relaxed)
    }
}
