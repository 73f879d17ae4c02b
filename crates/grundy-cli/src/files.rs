//! Files of the command line: the directory of a file to write, checked before any work, and
//! text inputs read in chunks (graph files, caches). Files are written whole by
//! [`grundy::file::write_atomically`].

use crate::error::CliError;
use crate::settings::Settings;
use std::io;

/// The directory the file `path` is written in (`.` for a bare name), or the usage error (exit
/// status 2), naming `what` (e.g. `--plot FILE`), when it does not exist: checked before any
/// work, so that no work is lost to a file that cannot be written.
pub fn existing_directory<'a>(
    path: &'a std::path::Path,
    what: &str,
) -> Result<&'a std::path::Path, CliError> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    if dir.is_dir() {
        Ok(dir)
    } else {
        Err(CliError::usage(format!(
            "{what}: the directory {} does not exist",
            dir.display()
        )))
    }
}

/// How [`read_text`] failed.
#[derive(Debug)]
pub enum ReadError {
    /// Reading failed.
    Io(io::Error),
    /// The input has more than the cap (at least this many bytes were seen).
    TooLarge(u64),
    /// A NUL byte, on this 1-based line: the input is not text.
    Nul(usize),
}

/// Reads all of `input`, a text in which no NUL byte is valid (graph files), in chunks of
/// 64 KiB: at most `cap` bytes are held, whatever size the file system reports (a device or a
/// pipe reports 0), and a chunk holding a NUL byte ends the reading at once, so `/dev/zero` is
/// refused after its first chunk. Checks Ctrl-C between chunks.
pub fn read_text(
    mut input: impl io::Read,
    cap: u64,
    settings: &Settings,
) -> Result<Vec<u8>, ReadError> {
    const CHUNK: usize = 1 << 16;
    let mut bytes = Vec::new();
    let mut chunk = vec![0u8; CHUNK];
    loop {
        if settings.interrupted() {
            return Err(ReadError::Io(io::Error::new(
                io::ErrorKind::Interrupted,
                "interrupted",
            )));
        }
        let n = match input.read(&mut chunk) {
            Ok(0) => return Ok(bytes),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(ReadError::Io(e)),
        };
        if let Some(at) = chunk[..n].iter().position(|&b| b == 0) {
            let line = bytes
                .iter()
                .chain(&chunk[..at])
                .filter(|&&b| b == b'\n')
                .count()
                + 1;
            return Err(ReadError::Nul(line));
        }
        if bytes.len() as u64 + n as u64 > cap {
            return Err(ReadError::TooLarge(bytes.len() as u64 + n as u64));
        }
        bytes.extend_from_slice(&chunk[..n]);
    }
}
