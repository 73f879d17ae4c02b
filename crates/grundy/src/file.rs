//! Files written whole: a reader of the path sees the old contents or the new ones, never a
//! part.
//!
//! The bytes go to a new temporary file in the same directory, are flushed to the disk
//! (`fsync`), and the temporary file is renamed over the path. On POSIX file systems a rename
//! within one directory is atomic: the name points at the old file until it points at the
//! complete new one, so a process killed midway leaves the old file and at most a stray
//! temporary file ([`remove_stale_temporaries`] clears those of processes that are gone).
//! Checkpoints (of `grundy seq` and of the distributed engines), plots and caches are written
//! so.

use std::io::{self, BufWriter, Write};
use std::path::Path;

/// The start of the name of every temporary file [`write_atomically_with`] creates, followed by
/// the writer's process id, a `-`, random characters and `.tmp`.
pub const TEMPORARY_PREFIX: &str = ".grundy-";

/// Writes `bytes` to `path` whole (module documentation). The directory must exist: none is
/// created.
///
/// A `path` that exists and is not a regular file (a device such as `/dev/stdout` or
/// `/dev/null`, a FIFO) is written to in place, never renamed over: replacing `/dev/null` with
/// a file would break the whole system, and a device has no old contents to keep.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_atomically_with(path, &mut |w| w.write_all(bytes))
}

/// [`write_atomically`] of what `fill` writes (buffered), for contents too large to build in
/// memory first.
pub fn write_atomically_with(
    path: &Path,
    fill: &mut dyn FnMut(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        let mut target = std::fs::OpenOptions::new().write(true).open(path)?;
        let mut w = BufWriter::with_capacity(1 << 20, &mut target);
        fill(&mut w)?;
        return w.flush();
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    // The process id in the name tells a later run whether the file is stale
    // ([`remove_stale_temporaries`]).
    let prefix = format!("{TEMPORARY_PREFIX}{}-", std::process::id());
    builder.prefix(&prefix).suffix(".tmp");
    // The new file gets the old one's permissions, or those of a file created by `fs::write`
    // (0644 before the umask) rather than the temporary file's private 0600.
    #[cfg(unix)]
    let permissions = std::fs::metadata(path)
        .map(|m| m.permissions())
        .unwrap_or_else(|_| {
            use std::os::unix::fs::PermissionsExt;
            std::fs::Permissions::from_mode(0o644)
        });
    #[cfg(unix)]
    builder.permissions(permissions);
    let mut file = builder.tempfile_in(dir)?;
    {
        let mut w = BufWriter::with_capacity(1 << 20, file.as_file_mut());
        fill(&mut w)?;
        w.flush()?;
    }
    file.as_file().sync_all()?;
    file.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Removes from `dir` the temporary files (`.grundy-PID-*.tmp`) of writes whose process is gone:
/// a process killed while writing leaves one behind. Files of live processes, and any other
/// file, are left alone. Failures are ignored (the files are only clutter).
pub fn remove_stale_temporaries(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(TEMPORARY_PREFIX))
            .filter(|n| n.ends_with(".tmp"))
            .and_then(|n| n.split_once('-'))
            .and_then(|(pid, _)| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && !process_alive(pid) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Whether process `pid` runs (on Linux, where `/proc` tells; elsewhere it is assumed to).
fn process_alive(pid: u32) -> bool {
    if cfg!(target_os = "linux") {
        Path::new(&format!("/proc/{pid}")).exists()
    } else {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A write replaces the file whole and leaves no temporary file; a failing `fill` leaves
    /// the old contents; a stale temporary of a process that is gone is removed, one of this
    /// process and any other file are kept.
    #[test]
    fn writes_are_whole_and_stale_temporaries_go() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("answer.txt");
        write_atomically(&path, b"old").unwrap();
        let failed = write_atomically_with(&path, &mut |w| {
            w.write_all(b"half")?;
            Err(io::Error::other("stopped"))
        });
        assert!(failed.is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
        write_atomically(&path, b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        let names = || {
            let mut v: Vec<String> = std::fs::read_dir(dir.path())
                .unwrap()
                .map(|e| e.unwrap().file_name().into_string().unwrap())
                .collect();
            v.sort();
            v
        };
        assert_eq!(names(), ["answer.txt"]);
        // No process has an id above the kernel's maximum (2^22).
        let stale = format!("{TEMPORARY_PREFIX}{}-x.tmp", u32::MAX);
        let mine = format!("{TEMPORARY_PREFIX}{}-y.tmp", std::process::id());
        for name in [&stale, &mine, &".grundy-notes".to_string()] {
            std::fs::write(dir.path().join(name), b"").unwrap();
        }
        remove_stale_temporaries(dir.path());
        let mut want = vec!["answer.txt".to_string(), mine, ".grundy-notes".to_string()];
        want.sort();
        assert_eq!(names(), want);
    }
}
