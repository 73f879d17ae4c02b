//! A store of solved values that outlives a run: one file, read by every later run.
//!
//! An engine keys each value by a game tag (`"cram"`, …) and bytes of its own (a canonical
//! position), and asks the store before searching. The file is a [`redb`] database: pure Rust
//! (nothing to build or link), ACID transactions over a single file, copy-on-write pages with
//! checksums, and a commit that is atomic on a crash (the previous commit stays readable). On
//! top of that every record carries its own checksum, so that a value read back is one that was
//! written under this key, whatever happened to the file:
//!
//! * the table `meta` holds the [`MAGIC`] and the [`FORMAT`] of the file, and for each game tag
//!   the engine tag the values were computed under; a file without the magic or of another
//!   format is not used, and a game whose engine tag differs has its values cleared before any
//!   is read (they are rebuilt as the engine finds them);
//! * the table `values` maps `tag length, tag, key` to the value (8 bytes, little-endian) and a
//!   64-bit checksum of tag, key and value. A record whose checksum fails is reported once and
//!   read as missing: a value from the store is never trusted without it.
//!
//! A store that cannot be opened or read (a corrupt file, a file of another program, a
//! directory without write permission) is reported as a warning by the caller and the search
//! goes on without it; nothing in the store can change an answer, only the time it takes. The
//! database library may panic on a damaged file rather than return an error: every call into it
//! runs under [`std::panic::catch_unwind`], a panic there is silenced and taken as an error, and
//! a database that panicked is never used again nor dropped (its file is left as it is).
//!
//! The file grows up to a cap in bytes: once its size reaches it, new values are no longer
//! written (the ones written stay readable).
//!
//! Looking up a key that is not there walks the database's tree like one that is, and most
//! keys a search asks about are new: walking for each of them costs about a fifth of a long
//! Cram search. So a [`GameStore`] asks the file only about the keys it may hold: every key
//! when the file held values of the game as it was opened (until it reads the keys held into
//! the filter: at once if asked, else once its lookups reach the records in the file), else
//! only the keys the run has recorded itself. These are remembered in a Bloom filter of
//! [`filter_bytes`]`(cap)` bytes, which may answer "recorded" for a key that was not (a lookup
//! for nothing, about one key in a hundred while the file is under its cap) but never "not
//! recorded" for one that was, so no value written is missed.

use fastbloom::AtomicBloomFilter;
use redb::{Database, ReadableDatabase, ReadableTable, ReadableTableMetadata, TableDefinition};
use std::cell::Cell;
use std::mem::ManuallyDrop;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Mutex, Once};

thread_local! {
    /// Whether this thread is inside a call to the database, whose panics are not reported.
    static QUIET: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` (a call into the database), turning a panic into an error whose message is the
/// panic's; the panic hook in place when the first store was opened stays in charge of every
/// other panic.
fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(Cell::get) {
                previous(info);
            }
        }));
    });
    let was = QUIET.with(|q| q.replace(true));
    let r = catch_unwind(AssertUnwindSafe(f));
    QUIET.with(|q| q.set(was));
    r.map_err(|p| {
        let what = p
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        format!("the database failed: {what}")
    })
}

/// The first record of the table `meta`, under the key `"magic"`.
pub const MAGIC: &[u8] = b"grundy value store";

/// The layout of the records; a file of another format is not used.
pub const FORMAT: u32 = 1;

/// The cap of a store's file when none is given: 1 GiB.
pub const DEFAULT_CAP_BYTES: u64 = 1 << 30;

/// The database's cache of pages in memory.
const CACHE_BYTES: usize = 16 << 20;

/// The memory an open store of cap `cap` may take: its cache of pages, the values waiting to
/// be written, the database's own structures and the filter of the keys a run records (one
/// game at a time). A caller reserves it from its budget.
pub fn memory_bytes(cap: u64) -> u64 {
    2 * CACHE_BYTES as u64 + filter_bytes(cap)
}

/// The bytes of the filter of the keys a run records in a store of cap `cap`: a sixty-fourth
/// of the cap (about ten bits a record, a record taking about 80 bytes of the file: a Cram key
/// of 33 bytes, 16 of value and checksum, and the tree's share), from 64 KiB to 256 MiB (ten
/// bits for each of the records of a file of 16 GiB; a larger cap gives its records fewer).
pub fn filter_bytes(cap: u64) -> u64 {
    (cap / 64).clamp(1 << 16, 1 << 28)
}

/// The bytes a record takes in the file, about: what the filter is sized for.
const RECORD_BYTES: u64 = 80;

/// An empty filter of the keys a run records in a store of cap `cap`, on huge pages where the
/// system has them: a lookup reads one word at a place the key's hash picks, and with pages
/// of 4 KiB that read missed the TLB as well as the cache.
fn filter(cap: u64) -> AtomicBloomFilter {
    let words = (filter_bytes(cap) / 8) as usize;
    // Zeroed memory that nothing has touched yet (the allocator maps it fresh): its pages are
    // taken as the filter fills, on huge pages if advised now.
    let mut bits: Vec<u64> = vec![0; words];
    crate::solve::table::advise_huge_pages(bits.as_mut_ptr().cast(), words * 8);
    // Seven at most: the optimum for ten bits a record, and a small cap (a filter of at least
    // 64 KiB for a few records) would otherwise ask for thousands a key.
    let hashes = fastbloom::optimal_hashes(words * 64, (cap / RECORD_BYTES).max(1) as usize).min(7);
    AtomicBloomFilter::from_vec(bits).hashes(hashes)
}

/// Values buffered by [`GameStore::put`] before they are written in one transaction.
const BATCH: usize = 4096;

/// One batch in this many is committed durably (synced to the disk), and the last one of a
/// run: a sync cost as much as writing the batch, and a run stopped by a crash or a signal
/// loses at most the values of this many batches.
const DURABLE_EVERY: u32 = 16;

const META: TableDefinition<&str, &[u8]> = TableDefinition::new("meta");
const VALUES: TableDefinition<&[u8], &[u8]> = TableDefinition::new("values");

/// Why a store is not used.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The file cannot be opened, read or written as a database.
    #[error("{path}: {message}")]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// What the database library said.
        message: String,
    },
    /// Another process has the store open (a database file is used by one process at a
    /// time).
    #[error("{path}: in use by another process")]
    Busy {
        /// The file.
        path: PathBuf,
    },
    /// The file is a database, but not a value store of this format.
    #[error("{path}: not a grundy value store of format {FORMAT}")]
    Foreign {
        /// The file.
        path: PathBuf,
    },
}

/// The default file of the store: `$XDG_CACHE_HOME/grundy/values.redb`, else
/// `$HOME/.cache/grundy/values.redb`; `None` if neither variable is set.
pub fn default_path() -> Option<PathBuf> {
    let base = match std::env::var_os("XDG_CACHE_HOME").filter(|s| !s.is_empty()) {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(std::env::var_os("HOME").filter(|s| !s.is_empty())?).join(".cache"),
    };
    Some(base.join("grundy").join("values.redb"))
}

/// A 64-bit checksum of a record (FNV-1a over the bytes, then the finaliser of splitmix64 so
/// that every input bit reaches every output bit).
fn checksum(tag: &[u8], key: &[u8], value: u64) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in tag
        .iter()
        .chain(&[0xff])
        .chain(key)
        .chain(&value.to_le_bytes())
    {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h = (h ^ (h >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    h ^ (h >> 31)
}

/// The key of a record: the tag's length, the tag, the engine's key.
fn record_key(tag: &[u8], key: &[u8]) -> Vec<u8> {
    let mut k = Vec::with_capacity(1 + tag.len() + key.len());
    k.push(tag.len() as u8);
    k.extend_from_slice(tag);
    k.extend_from_slice(key);
    k
}

/// An open store (see the module documentation).
pub struct Store {
    db: ManuallyDrop<Database>,
    path: PathBuf,
    cap: u64,
    /// The first error of the database, after which it is no longer used.
    failed: Mutex<Option<String>>,
}

impl Drop for Store {
    fn drop(&mut self) {
        if self.failed().is_none() {
            // SAFETY: `db` is dropped here only, once, and not used afterwards.
            let _ = guarded(|| unsafe { ManuallyDrop::drop(&mut self.db) });
        }
    }
}

fn unreadable(path: &Path, e: impl std::fmt::Display) -> StoreError {
    StoreError::Unreadable {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

impl Store {
    /// Opens the store at `path`, creating it (and its directory) if there is none, with a cap
    /// of `cap` bytes on its file.
    pub fn open(path: &Path, cap: u64) -> Result<Store, StoreError> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| unreadable(path, e))?;
        }
        let db = guarded(|| {
            redb::Builder::new()
                .set_cache_size(CACHE_BYTES)
                .create(path)
        })
        .map_err(|e| unreadable(path, e))?
        .map_err(|e| match e {
            redb::DatabaseError::DatabaseAlreadyOpen => StoreError::Busy {
                path: path.to_path_buf(),
            },
            e => unreadable(path, e),
        })?;
        let store = Store {
            db: ManuallyDrop::new(db),
            path: path.to_path_buf(),
            cap,
            failed: Mutex::new(None),
        };
        let checked = guarded(|| store.check_magic());
        match checked {
            Ok(Ok(())) => Ok(store),
            Ok(Err(e)) => Err(e),
            Err(e) => {
                store.fail(e.clone());
                Err(unreadable(path, e))
            }
        }
    }

    /// The first error of the database, if any.
    fn failed(&self) -> Option<String> {
        self.failed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Records an error of the database: it is not used again.
    fn fail(&self, e: String) {
        let mut f = self.failed.lock().unwrap_or_else(|e| e.into_inner());
        f.get_or_insert(e);
    }

    /// Runs `f` on the database unless it failed before; an error or a panic makes it fail.
    fn with_db<T>(&self, f: impl FnOnce(&Database) -> Result<T, redb::Error>) -> Option<T> {
        if self.failed().is_some() {
            return None;
        }
        match guarded(|| f(&self.db)) {
            Ok(Ok(v)) => Some(v),
            Ok(Err(e)) => {
                self.fail(e.to_string());
                None
            }
            Err(e) => {
                self.fail(e);
                None
            }
        }
    }

    /// Checks the magic and the format of the file, or writes them into a new one.
    fn check_magic(&self) -> Result<(), StoreError> {
        let err = |e: &dyn std::fmt::Display| unreadable(&self.path, e);
        let read = || -> Result<Option<bool>, redb::Error> {
            let tx = self.db.begin_read()?;
            let meta = match tx.open_table(META) {
                Ok(m) => m,
                Err(redb::TableError::TableDoesNotExist(_)) => return Ok(None),
                Err(e) => return Err(e.into()),
            };
            let magic = meta.get("magic")?.map(|v| v.value().to_vec());
            let format = meta.get("format")?.map(|v| v.value().to_vec());
            Ok(Some(
                magic.as_deref() == Some(MAGIC)
                    && format.as_deref() == Some(&FORMAT.to_le_bytes()[..]),
            ))
        };
        match read().map_err(|e| err(&e))? {
            Some(true) => return Ok(()),
            Some(false) => {
                return Err(StoreError::Foreign {
                    path: self.path.clone(),
                })
            }
            None => {}
        }
        let tx = self.db.begin_write().map_err(|e| err(&e))?;
        {
            let mut meta = tx.open_table(META).map_err(|e| err(&e))?;
            let magic = meta
                .get("magic")
                .map_err(|e| err(&e))?
                .map(|v| v.value().to_vec());
            let format = meta
                .get("format")
                .map_err(|e| err(&e))?
                .map(|v| v.value().to_vec());
            match (magic, format) {
                (None, None) if meta.is_empty().map_err(|e| err(&e))? => {
                    meta.insert("magic", MAGIC).map_err(|e| err(&e))?;
                    meta.insert("format", &FORMAT.to_le_bytes()[..])
                        .map_err(|e| err(&e))?;
                }
                (Some(m), Some(f)) if m == MAGIC && f == FORMAT.to_le_bytes() => {}
                _ => {
                    return Err(StoreError::Foreign {
                        path: self.path.clone(),
                    })
                }
            }
            tx.open_table(VALUES).map_err(|e| err(&e))?;
        }
        tx.commit().map_err(|e| err(&e))
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The values of the game `tag` computed under the engine `engine`: if the store holds
    /// values of `tag` from another engine, they are removed first.
    pub fn game(&self, tag: &str, engine: &str) -> Result<GameStore<'_>, StoreError> {
        match guarded(|| self.game_unguarded(tag, engine)) {
            Ok(r) => r,
            Err(e) => {
                self.fail(e.clone());
                Err(unreadable(&self.path, e))
            }
        }
    }

    fn game_unguarded(&self, tag: &str, engine: &str) -> Result<GameStore<'_>, StoreError> {
        let err = |e: &dyn std::fmt::Display| unreadable(&self.path, e);
        assert!(tag.len() < 256, "a game tag of at most 255 bytes");
        let meta_key = format!("engine:{tag}");
        let same = {
            let tx = self.db.begin_read().map_err(|e| err(&e))?;
            let meta = tx.open_table(META).map_err(|e| err(&e))?;
            let got = meta.get(meta_key.as_str()).map_err(|e| err(&e))?;
            got.is_some_and(|v| v.value() == engine.as_bytes())
        };
        if !same {
            let tx = self.db.begin_write().map_err(|e| err(&e))?;
            {
                let mut values = tx.open_table(VALUES).map_err(|e| err(&e))?;
                let lo = record_key(tag.as_bytes(), &[]);
                values
                    .retain(|k, _| !k.starts_with(&lo))
                    .map_err(|e| err(&e))?;
                let mut meta = tx.open_table(META).map_err(|e| err(&e))?;
                meta.insert(meta_key.as_str(), engine.as_bytes())
                    .map_err(|e| err(&e))?;
            }
            tx.commit().map_err(|e| err(&e))?;
        }
        let (held, records) = if same {
            let tx = self.db.begin_read().map_err(|e| err(&e))?;
            let values = tx.open_table(VALUES).map_err(|e| err(&e))?;
            let lo = record_key(tag.as_bytes(), &[]);
            let first = values
                .range::<&[u8]>(lo.as_slice()..)
                .map_err(|e| err(&e))?
                .next()
                .transpose()
                .map_err(|e| err(&e))?;
            let held = first.is_some_and(|(k, _)| k.value().starts_with(&lo));
            (held, values.len().map_err(|e| err(&e))?)
        } else {
            (false, 0)
        };
        let written = filter(self.cap);
        Ok(GameStore {
            store: self,
            tag: tag.as_bytes().to_vec(),
            pending: Mutex::new(Vec::new()),
            bad: AtomicBool::new(false),
            held: AtomicBool::new(held),
            records,
            index_first: false,
            index: std::sync::OnceLock::new(),
            written,
            lookups: AtomicU64::new(0),
            found: AtomicU64::new(0),
            recorded: AtomicU64::new(0),
            batches: AtomicU32::new(0),
        })
    }

    fn full(&self) -> bool {
        std::fs::metadata(&self.path).map_or(true, |m| m.len() >= self.cap)
    }
}

/// The values of one game in a [`Store`]: [`get`](GameStore::get) and
/// [`put`](GameStore::put) of `key bytes → value`. Safe to share between threads.
pub struct GameStore<'s> {
    store: &'s Store,
    tag: Vec<u8>,
    pending: Mutex<Vec<(Vec<u8>, u64)>>,
    /// Whether a record failed its checksum.
    bad: AtomicBool,
    /// Whether every key is looked up: the file held values of this game when it was opened,
    /// and they are not indexed in `written`.
    held: AtomicBool,
    /// The records of every game in the file when it was opened.
    records: u64,
    /// Whether the first lookup indexes the values held ([`GameStore::index_when_asked`]).
    index_first: bool,
    /// Once the values held are indexed, how many keys were read.
    index: std::sync::OnceLock<u64>,
    /// The keys recorded by [`put`](GameStore::put) (see the module documentation).
    written: AtomicBloomFilter,
    /// The lookups that went to the file.
    lookups: AtomicU64,
    /// The lookups that found a value.
    found: AtomicU64,
    /// The values recorded by [`put`](GameStore::put).
    recorded: AtomicU64,
    /// The full batches written.
    batches: AtomicU32,
}

impl GameStore<'_> {
    /// The value stored under `key`, if there is one whose checksum holds. A key recorded by
    /// [`put`](GameStore::put) is there once it is written (by a full batch or
    /// [`flush`](GameStore::flush)) and the file is under its cap.
    ///
    /// While every key is looked up (the file held values of the game), the keys held are
    /// indexed ([`index_when_asked`](GameStore::index_when_asked)) at the first lookup if asked,
    /// else once the lookups reach the number of records the file held: reading a record in a
    /// pass costs less than looking one up, so a search pays at most about twice what it would
    /// have paid had it known from the start whether to index (a small search on a large file
    /// never indexes it; a long search on a small file indexes it soon).
    pub fn get(&self, key: &[u8]) -> Option<u64> {
        if self.held.load(Ordering::Relaxed)
            && (self.index_first || self.lookups.load(Ordering::Relaxed) >= self.records)
        {
            self.index.get_or_init(|| self.read_index());
        }
        if !self.held.load(Ordering::Relaxed) && !self.written.contains(key) {
            return None;
        }
        self.lookups.fetch_add(1, Ordering::Relaxed);
        let v = self.store.with_db(|db| self.read(db, key)).flatten();
        if v.is_some() {
            self.found.fetch_add(1, Ordering::Relaxed);
        }
        v
    }

    /// How many calls of [`get`](GameStore::get) found a value.
    pub fn found(&self) -> u64 {
        self.found.load(Ordering::Relaxed)
    }

    /// How many values [`put`](GameStore::put) recorded (written unless the file reached its
    /// cap).
    pub fn recorded(&self) -> u64 {
        self.recorded.load(Ordering::Relaxed)
    }

    /// Has the first call of [`get`](GameStore::get) read the keys of the values the file
    /// holds for this game into the filter of the keys recorded, so that from then on only
    /// keys the file holds (and about one in a hundred others) are looked up in it, as on a
    /// file without values of the game. That is one pass over the records, worth it before a
    /// search that asks about many regions; a search that asks about none does not pay it. A
    /// database error leaves every key looked up, and is reported by
    /// [`trouble`](GameStore::trouble).
    pub fn index_when_asked(&mut self) {
        self.index_first = true;
    }

    /// How many keys the index read, if it has.
    pub fn indexed(&self) -> Option<u64> {
        self.index.get().copied()
    }

    /// The pass of [`index_when_asked`](GameStore::index_when_asked): the keys read.
    fn read_index(&self) -> u64 {
        let lo = record_key(&self.tag, &[]);
        let read = self.store.with_db(|db| {
            let tx = db.begin_read()?;
            let values = tx.open_table(VALUES)?;
            let mut n = 0u64;
            for rec in values.range::<&[u8]>(lo.as_slice()..)? {
                let (k, _) = rec?;
                let Some(key) = k.value().strip_prefix(lo.as_slice()) else {
                    break;
                };
                self.written.insert(key);
                n += 1;
            }
            Ok(n)
        });
        if let Some(n) = read {
            self.held.store(false, Ordering::Relaxed);
            return n;
        }
        0
    }

    /// How many calls of [`get`](GameStore::get) looked in the file.
    pub fn lookups(&self) -> u64 {
        self.lookups.load(Ordering::Relaxed)
    }

    fn read(&self, db: &Database, key: &[u8]) -> Result<Option<u64>, redb::Error> {
        let tx = db.begin_read()?;
        let values = tx.open_table(VALUES)?;
        let Some(rec) = values.get(record_key(&self.tag, key).as_slice())? else {
            return Ok(None);
        };
        let rec = rec.value();
        if rec.len() != 16 {
            self.bad.store(true, Ordering::Relaxed);
            return Ok(None);
        }
        let value = u64::from_le_bytes(rec[..8].try_into().expect("8 bytes"));
        let sum = u64::from_le_bytes(rec[8..].try_into().expect("8 bytes"));
        if sum != checksum(&self.tag, key, value) {
            self.bad.store(true, Ordering::Relaxed);
            return Ok(None);
        }
        Ok(Some(value))
    }

    /// Records `key → value`; the values are written in batches, and at the latest by
    /// [`flush`](GameStore::flush).
    pub fn put(&self, key: &[u8], value: u64) {
        self.written.insert(key);
        self.recorded.fetch_add(1, Ordering::Relaxed);
        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        pending.push((key.to_vec(), value));
        if pending.len() >= BATCH {
            let batch = std::mem::take(&mut *pending);
            drop(pending);
            let n = self.batches.fetch_add(1, Ordering::Relaxed) + 1;
            self.write(batch, n.is_multiple_of(DURABLE_EVERY));
        }
    }

    /// Writes the values recorded so far.
    pub fn flush(&self) {
        let batch = std::mem::take(&mut *self.pending.lock().unwrap_or_else(|e| e.into_inner()));
        // A batch, or a commit of nothing that makes the batches written since the last
        // durable commit durable.
        let since = self.batches.swap(0, Ordering::Relaxed) % DURABLE_EVERY;
        if !batch.is_empty() || since != 0 {
            self.write(batch, true);
        }
    }

    /// Writes `batch` in one transaction, on the disk before this returns if `durable` (else
    /// with the next durable commit; a crash before it loses the batch, never the file).
    fn write(&self, batch: Vec<(Vec<u8>, u64)>, durable: bool) {
        if self.store.full() {
            return;
        }
        self.store.with_db(|db| {
            let mut tx = db.begin_write()?;
            if !durable {
                // Refused only around persistent savepoints, which the store has none of; the
                // commit is then durable, which costs time and nothing else.
                let _ = tx.set_durability(redb::Durability::None);
            }
            {
                let mut values = tx.open_table(VALUES)?;
                for (key, value) in &batch {
                    let mut rec = [0u8; 16];
                    rec[..8].copy_from_slice(&value.to_le_bytes());
                    rec[8..].copy_from_slice(&checksum(&self.tag, key, *value).to_le_bytes());
                    values.insert(record_key(&self.tag, key).as_slice(), &rec[..])?;
                }
            }
            tx.commit()?;
            Ok(())
        });
    }

    /// What went wrong, if anything: a record that failed its checksum, or the database's
    /// first error (after which the store was no longer used). For a warning.
    pub fn trouble(&self) -> Option<String> {
        if let Some(e) = self.store.failed() {
            return Some(format!("{}: {e}", self.store.path.display()));
        }
        self.bad.load(Ordering::Relaxed).then(|| {
            format!(
                "{}: records that fail their checksum were ignored",
                self.store.path.display()
            )
        })
    }
}

impl Drop for GameStore<'_> {
    fn drop(&mut self) {
        self.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_come_back_and_other_engines_are_cleared() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub").join("v.redb");
        {
            let s = Store::open(&path, DEFAULT_CAP_BYTES).unwrap();
            let g = s.game("cram", "e1").unwrap();
            g.put(b"abc", 3);
            g.put(b"abd", 5);
            let h = s.game("chomp", "e1").unwrap();
            h.put(b"abc", 7);
        }
        let s = Store::open(&path, DEFAULT_CAP_BYTES).unwrap();
        let g = s.game("cram", "e1").unwrap();
        assert_eq!(g.get(b"abc"), Some(3));
        assert_eq!(g.get(b"abd"), Some(5));
        assert_eq!(g.get(b"ab"), None);
        drop(g);
        let g = s.game("cram", "e2").unwrap();
        assert_eq!(g.get(b"abc"), None);
        assert_eq!(s.game("chomp", "e1").unwrap().get(b"abc"), Some(7));
        assert!(g.trouble().is_none());
    }

    #[test]
    fn a_file_of_another_kind_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.redb");
        std::fs::write(&path, vec![0x5a; 10_000]).unwrap();
        assert!(Store::open(&path, DEFAULT_CAP_BYTES).is_err());
    }

    #[test]
    fn a_full_store_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.redb");
        let s = Store::open(&path, 1).unwrap();
        let g = s.game("cram", "e").unwrap();
        g.put(b"k", 1);
        g.flush();
        assert_eq!(g.get(b"k"), None);
    }

    /// On a file without values of the game, only keys the run recorded are looked up (a few
    /// others as the filter's false positives); every value recorded and written comes back,
    /// in this run and the next, where every key is looked up.
    #[test]
    fn only_keys_that_may_be_there_are_looked_up() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.redb");
        let key = |i: u32| i.to_le_bytes();
        {
            let s = Store::open(&path, DEFAULT_CAP_BYTES).unwrap();
            s.game("chomp", "e").unwrap().put(b"other game", 9);
            let g = s.game("cram", "e").unwrap();
            assert!(!g.held.load(Ordering::Relaxed));
            for i in 0..5000 {
                assert_eq!(g.get(&key(i)), None);
            }
            assert!(g.lookups() < 100, "{} lookups", g.lookups());
            for i in 0..1000 {
                g.put(&key(i), u64::from(i % 7));
            }
            g.flush();
            let before = g.lookups();
            for i in 0..1000 {
                assert_eq!(g.get(&key(i)), Some(u64::from(i % 7)));
            }
            assert_eq!(g.lookups() - before, 1000);
            for i in 1000..5000 {
                assert_eq!(g.get(&key(i)), None);
            }
            assert!(g.lookups() - before < 1100, "{} lookups", g.lookups());
        }
        let s = Store::open(&path, DEFAULT_CAP_BYTES).unwrap();
        let g = s.game("cram", "e").unwrap();
        assert!(g.held.load(Ordering::Relaxed));
        assert_eq!(g.get(&key(999)), Some(999 % 7));
        assert_eq!(g.get(&key(1000)), None);
        assert_eq!((g.lookups(), g.found(), g.recorded()), (2, 1, 0));
        drop(g);
        // Once indexed, only the keys the file holds are looked up.
        let mut g = s.game("cram", "e").unwrap();
        g.index_when_asked();
        assert_eq!(g.indexed(), None);
        assert_eq!(g.get(&key(0)), Some(0));
        assert_eq!(g.indexed(), Some(1000));
        assert!(!g.held.load(Ordering::Relaxed));
        for i in 0..5000 {
            assert_eq!(g.get(&key(i)), (i < 1000).then_some(u64::from(i % 7)));
        }
        assert!(g.lookups() < 1100, "{} lookups", g.lookups());
        drop(g);
        // Not asked to index, a search indexes once its lookups reach the file's records
        // (1001: the other game's too), then looks up only the keys the file holds.
        let g = s.game("cram", "e").unwrap();
        assert_eq!(g.records, 1001);
        for i in 1000..2001 {
            assert_eq!(g.get(&key(i)), None);
        }
        assert_eq!((g.indexed(), g.lookups()), (None, 1001));
        assert_eq!(g.get(&key(12)), Some(12 % 7));
        assert_eq!(g.indexed(), Some(1000));
        for i in 2001..7001 {
            assert_eq!(g.get(&key(i)), None);
        }
        assert!(g.lookups() < 1100, "{} lookups", g.lookups());
        drop(g);
        // A game whose values were cleared for another engine holds none.
        assert!(!s.game("cram", "f").unwrap().held.load(Ordering::Relaxed));
    }

    /// Values written in full batches, most of them committed without a sync, all reach the
    /// next run (the sync itself matters only on a crash, which this does not stage).
    #[test]
    fn values_written_in_many_batches_reach_the_next_run() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.redb");
        let n = 3 * BATCH as u32;
        {
            let s = Store::open(&path, DEFAULT_CAP_BYTES).unwrap();
            let g = s.game("cram", "e").unwrap();
            for i in 0..n {
                g.put(&i.to_le_bytes(), u64::from(i % 5));
            }
            assert!(g.pending.lock().unwrap().is_empty());
        }
        let s = Store::open(&path, DEFAULT_CAP_BYTES).unwrap();
        let g = s.game("cram", "e").unwrap();
        for i in (0..n).step_by(97) {
            assert_eq!(g.get(&i.to_le_bytes()), Some(u64::from(i % 5)), "{i}");
        }
    }

    #[test]
    fn the_filter_takes_few_hashes_whatever_the_cap() {
        for cap in [1, 1 << 10, 1 << 20, DEFAULT_CAP_BYTES, 8 << 30, u64::MAX] {
            let f = filter(cap);
            assert!(
                (1..=7).contains(&f.num_hashes()),
                "{cap}: {}",
                f.num_hashes()
            );
            assert_eq!(f.num_bits() as u64, filter_bytes(cap) * 8);
        }
    }

    #[test]
    fn checksums_bind_tag_key_and_value() {
        let c = checksum(b"cram", b"k", 1);
        assert_ne!(c, checksum(b"cram", b"k", 2));
        assert_ne!(c, checksum(b"cram", b"j", 1));
        assert_ne!(c, checksum(b"chom", b"k", 1));
    }
}
