//! Checkpoints of long sequence computations: `--checkpoint FILE` of `grundy analyze` and
//! `grundy seq`.
//!
//! A checkpoint is a short text header and the values as little-endian integers of the width
//! the sequence is stored in (1, 2 or 4 bytes):
//!
//! ```text
//! grundy checkpoint 1
//! game: octal:0.1777
//! values: 123456789
//! width: 1
//! checksum: 0123456789abcdef
//!
//! <values x width bytes>
//! ```
//!
//! The checksum is 64-bit FNV-1a of the value bytes. A file is written whole to a temporary
//! file and renamed over the old one, so it is always a complete checkpoint; one that is not
//! (cut short, changed, of another game) is refused, never used.

use crate::error::CliError;
use crate::output::write_atomically_with;
use grundy::heap::sequence::Sequence;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The first line of every checkpoint.
const MAGIC: &str = "grundy checkpoint 1";

/// The longest header line read (a game's canonical notation is far shorter).
const MAX_LINE: u64 = 4096;

/// A checkpoint file of one game, and when it was last written.
pub struct Checkpoint {
    path: PathBuf,
    game: String,
    every: Duration,
    last: Instant,
    saved: usize,
}

impl Checkpoint {
    /// The checkpoint `path` of `game` (canonical notation), written at most every `every`;
    /// with the values it holds, if the file exists (an empty sequence otherwise). A file that
    /// is not a sound checkpoint of `game` is refused (exit status 2).
    pub fn open(
        path: &str,
        game: &str,
        every: Duration,
    ) -> Result<(Checkpoint, Sequence), CliError> {
        let values = match std::fs::File::open(path) {
            Ok(f) => read(BufReader::with_capacity(1 << 20, f), game)
                .map_err(|why| CliError::usage(format!("--checkpoint {path}: {why}")))?,
            Err(e) if e.kind() == io::ErrorKind::NotFound => Sequence::U8(Vec::new()),
            Err(e) => {
                return Err(CliError::usage(format!(
                    "--checkpoint {path}: cannot be read: {e}"
                )))
            }
        };
        if !values.is_empty() {
            eprintln!(
                "grundy: resuming from checkpoint {path}: {} values",
                values.len()
            );
        }
        let cp = Checkpoint {
            path: PathBuf::from(path),
            game: game.to_string(),
            every,
            last: Instant::now(),
            saved: values.len(),
        };
        Ok((cp, values))
    }

    /// Writes `values` if `every` has passed since the last write (or `now`), and they are
    /// more than were written.
    pub fn save(&mut self, values: &Sequence, now: bool) -> grundy::Result<()> {
        if values.len() <= self.saved || !(now || self.last.elapsed() >= self.every) {
            return Ok(());
        }
        write(&self.path, &self.game, values).map_err(|e| {
            grundy::Error::Internal(format!(
                "writing the checkpoint {}: {e}",
                self.path.display()
            ))
        })?;
        self.saved = values.len();
        self.last = Instant::now();
        Ok(())
    }
}

/// 64-bit FNV-1a over everything written to it.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Write for Fnv {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut h = self.0;
        for &b in buf {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        self.0 = h;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn checksum(values: &Sequence) -> u64 {
    let mut h = Fnv::new();
    // Writing to the hash cannot fail.
    let _ = values.write_le(&mut h);
    h.0
}

fn write(path: &Path, game: &str, values: &Sequence) -> io::Result<()> {
    let sum = checksum(values);
    write_atomically_with(path, &mut |w| {
        write!(
            w,
            "{MAGIC}\ngame: {game}\nvalues: {}\nwidth: {}\nchecksum: {sum:016x}\n\n",
            values.len(),
            values.width()
        )?;
        values.write_le(w)
    })
}

/// The values of a checkpoint of `game`, or why it is refused.
fn read(mut r: impl BufRead, game: &str) -> Result<Sequence, String> {
    let damaged = |what: &str| {
        format!(
            "not a sound checkpoint ({what}): refused; delete it or name another file to start \
             afresh"
        )
    };
    let mut line = |name: &str| -> Result<String, String> {
        let mut s = String::new();
        (&mut r)
            .take(MAX_LINE)
            .read_line(&mut s)
            .map_err(|e| damaged(&format!("unreadable header: {e}")))?;
        let s = s
            .strip_suffix('\n')
            .ok_or_else(|| damaged("header cut short"))?;
        if name.is_empty() {
            return Ok(s.to_string());
        }
        s.strip_prefix(name)
            .and_then(|s| s.strip_prefix(": "))
            .map(str::to_string)
            .ok_or_else(|| damaged(&format!("no `{name}:` line")))
    };
    if line("")? != MAGIC {
        return Err(damaged(&format!("its first line is not `{MAGIC}`")));
    }
    let theirs = line("game")?;
    let count = line("values")?;
    let width = line("width")?;
    let sum = line("checksum")?;
    if !line("")?.is_empty() {
        return Err(damaged("no blank line after the header"));
    }
    if theirs != game {
        return Err(format!(
            "holds values of {theirs}, not of {game}: refused; name another file for {game}"
        ));
    }
    let count: usize = count.parse().map_err(|_| damaged("bad value count"))?;
    let width: usize = width.parse().map_err(|_| damaged("bad width"))?;
    let sum = u64::from_str_radix(&sum, 16).map_err(|_| damaged("bad checksum field"))?;
    let values = Sequence::read_le(&mut r, width, count)
        .ok_or_else(|| damaged("bad width"))?
        .map_err(|e| damaged(&format!("values cut short: {e}")))?;
    let mut rest = [0u8; 1];
    if r.read(&mut rest).map_err(|e| damaged(&e.to_string()))? != 0 {
        return Err(damaged("bytes after the values"));
    }
    if checksum(&values) != sum {
        return Err(damaged("checksum mismatch"));
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(game: &str, values: &Sequence) -> Vec<u8> {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("c");
        write(&p, game, values).unwrap();
        std::fs::read(p).unwrap()
    }

    #[test]
    fn round_trip_in_every_width() {
        for s in [
            Sequence::U8(vec![0, 1, 255, 7]),
            Sequence::U16(vec![0, 300, 65535]),
            Sequence::U32(vec![70000, 0, u32::MAX]),
            Sequence::U8(Vec::new()),
        ] {
            let b = bytes("kayles", &s);
            assert_eq!(read(&b[..], "kayles").unwrap(), s);
        }
    }

    #[test]
    fn damaged_or_foreign_checkpoints_are_refused() {
        let s = Sequence::U8((0..100u8).collect());
        let b = bytes("octal:0.6", &s);
        assert!(read(&b[..], "octal:0.6").is_ok());
        let e = read(&b[..], "octal:0.1777").unwrap_err();
        assert!(e.contains("holds values of octal:0.6"), "{e}");
        // Every byte flipped, and every cut, is caught.
        for i in 0..b.len() {
            let mut c = b.clone();
            c[i] ^= 0x10;
            assert!(read(&c[..], "octal:0.6").is_err(), "flip at {i}");
            assert!(read(&b[..i], "octal:0.6").is_err(), "cut at {i}");
        }
        let mut longer = b.clone();
        longer.push(0);
        assert!(read(&longer[..], "octal:0.6").is_err());
    }
}
