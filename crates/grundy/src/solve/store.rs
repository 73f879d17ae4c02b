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

use redb::{Database, ReadableDatabase, ReadableTable, ReadableTableMetadata, TableDefinition};
use std::cell::Cell;
use std::mem::ManuallyDrop;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
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

/// The memory an open store may take: its cache of pages, the values waiting to be written
/// and the database's own structures. A caller reserves it from its budget.
pub const MEMORY_BYTES: u64 = 2 * CACHE_BYTES as u64;

/// Values buffered by [`GameStore::put`] before they are written in one transaction.
const BATCH: usize = 4096;

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
        Ok(GameStore {
            store: self,
            tag: tag.as_bytes().to_vec(),
            pending: Mutex::new(Vec::new()),
            bad: AtomicBool::new(false),
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
}

impl GameStore<'_> {
    /// The value stored under `key`, if there is one whose checksum holds.
    pub fn get(&self, key: &[u8]) -> Option<u64> {
        self.store.with_db(|db| self.read(db, key)).flatten()
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
        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        pending.push((key.to_vec(), value));
        if pending.len() >= BATCH {
            let batch = std::mem::take(&mut *pending);
            drop(pending);
            self.write(batch);
        }
    }

    /// Writes the values recorded so far.
    pub fn flush(&self) {
        let batch = std::mem::take(&mut *self.pending.lock().unwrap_or_else(|e| e.into_inner()));
        if !batch.is_empty() {
            self.write(batch);
        }
    }

    fn write(&self, batch: Vec<(Vec<u8>, u64)>) {
        if self.store.full() {
            return;
        }
        self.store.with_db(|db| {
            let tx = db.begin_write()?;
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

    #[test]
    fn checksums_bind_tag_key_and_value() {
        let c = checksum(b"cram", b"k", 1);
        assert_ne!(c, checksum(b"cram", b"k", 2));
        assert_ne!(c, checksum(b"cram", b"j", 1));
        assert_ne!(c, checksum(b"chom", b"k", 1));
    }
}
