//! Checkpoints of long sequence computations: `--checkpoint FILE` of `grundy analyze` and
//! `grundy seq`.
//!
//! A checkpoint is a short text header and the values as little-endian integers of the width
//! the sequence is stored in (1, 2 or 4 bytes):
//!
//! ```text
//! grundy checkpoint 2
//! game: octal:0.1777
//! rule: 0123456789abcdef
//! values: 123456789
//! width: 1
//! checksum: 0123456789abcdef
//!
//! <values x width bytes>
//! ```
//!
//! `rule` is a digest (64-bit FNV-1a) of the game's notation and, for a script game
//! (`script:PATH`), of the script's text, so a checkpoint of a script that was edited since is
//! refused. The checksum is 64-bit FNV-1a of every header line above it and of the value bytes,
//! so no field can be changed unseen. A file is written whole to a temporary file and renamed
//! over the old one, so it is always a complete checkpoint; one that is not (cut short, changed,
//! of another game or rule) is refused, never used. The directory of the file must exist when
//! the command starts (exit status 2 otherwise), and temporary files left there by a process
//! that was killed while writing are removed ([`remove_stale_temporaries`]).

use crate::error::CliError;
use grundy::file::{remove_stale_temporaries, write_atomically_with};
use grundy::heap::sequence::Sequence;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The first line of every checkpoint.
const MAGIC: &str = "grundy checkpoint 2";

/// The longest header line read (a game's canonical notation is far shorter).
const MAX_LINE: u64 = 4096;

/// A checkpoint file of one game, and when it was last written.
pub struct Checkpoint {
    path: PathBuf,
    game: String,
    rule: u64,
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
        let dir =
            crate::files::existing_directory(Path::new(path), &format!("--checkpoint {path}"))?;
        remove_stale_temporaries(dir);
        let rule = rule_digest(game)?;
        let values = match std::fs::File::open(path) {
            Ok(f) => {
                let len = f.metadata().map_or(u64::MAX, |m| m.len());
                read(BufReader::with_capacity(1 << 20, f), game, rule, len)
                    .map_err(|why| CliError::usage(format!("--checkpoint {path}: {why}")))?
            }
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
            rule,
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
        write(&self.path, &self.game, self.rule, values).map_err(|e| {
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

/// 64-bit FNV-1a over everything written to it: the checksum of [`grundy::checksum`], taken
/// as the bytes stream by.
struct Fnv(fnv::FnvHasher);

impl Fnv {
    fn new() -> Fnv {
        Fnv(fnv::FnvHasher::default())
    }

    fn finish(&self) -> u64 {
        std::hash::Hasher::finish(&self.0)
    }
}

impl Write for Fnv {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        std::hash::Hasher::write(&mut self.0, buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The digest of the rule of `game` (canonical notation): of the notation, and for a script
/// game of the script's text too (an unreadable script is bad input, exit status 2).
fn rule_digest(game: &str) -> Result<u64, CliError> {
    let mut h = Fnv::new();
    let _ = h.write_all(game.as_bytes());
    if let Some(path) = game.strip_prefix("script:") {
        let source = grundy::script::read_source(Path::new(path))?;
        let _ = h.write_all(b"\n");
        let _ = h.write_all(source.as_bytes());
    }
    Ok(h.finish())
}

/// The header lines covered by the checksum (everything between the first line and
/// `checksum:`).
fn header(game: &str, rule: u64, count: usize, width: usize) -> String {
    format!("game: {game}\nrule: {rule:016x}\nvalues: {count}\nwidth: {width}\n")
}

fn checksum(header: &str, values: &Sequence) -> u64 {
    let mut h = Fnv::new();
    // Writing to the hash cannot fail.
    let _ = h.write_all(header.as_bytes());
    let _ = values.write_le(&mut h);
    h.finish()
}

fn write(path: &Path, game: &str, rule: u64, values: &Sequence) -> io::Result<()> {
    let header = header(game, rule, values.len(), values.width());
    let sum = checksum(&header, values);
    write_atomically_with(path, &mut |w| {
        write!(w, "{MAGIC}\n{header}checksum: {sum:016x}\n\n")?;
        values.write_le(w)
    })
}

/// The values of a checkpoint of `game`, or why it is refused.
fn read(mut r: impl BufRead, game: &str, rule: u64, file_len: u64) -> Result<Sequence, String> {
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
    let their_rule = line("rule")?;
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
    let their_rule = u64::from_str_radix(&their_rule, 16).map_err(|_| damaged("bad rule field"))?;
    if their_rule != rule {
        return Err(format!(
            "holds values of another version of the rules of {game} (the script changed): \
             refused; delete it or name another file"
        ));
    }
    let count: usize = count.parse().map_err(|_| damaged("bad value count"))?;
    let width: usize = width.parse().map_err(|_| damaged("bad width"))?;
    if (count as u128) * (width as u128) > file_len as u128 {
        return Err(damaged("more values than the file holds"));
    }
    let sum = u64::from_str_radix(&sum, 16).map_err(|_| damaged("bad checksum field"))?;
    let values = Sequence::read_le(&mut r, width, count)
        .ok_or_else(|| damaged("bad width"))?
        .map_err(|e| damaged(&format!("values cut short: {e}")))?;
    let mut rest = [0u8; 1];
    if r.read(&mut rest).map_err(|e| damaged(&e.to_string()))? != 0 {
        return Err(damaged("bytes after the values"));
    }
    if checksum(&header(game, rule, count, width), &values) != sum {
        return Err(damaged("checksum mismatch"));
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULE: u64 = 0x0123_4567_89ab_cdef;

    fn bytes(game: &str, values: &Sequence) -> Vec<u8> {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("c");
        write(&p, game, RULE, values).unwrap();
        std::fs::read(p).unwrap()
    }

    fn read_back(b: &[u8], game: &str) -> Result<Sequence, String> {
        read(b, game, RULE, b.len() as u64)
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
            assert_eq!(read_back(&b, "kayles").unwrap(), s);
        }
    }

    #[test]
    fn damaged_or_foreign_checkpoints_are_refused() {
        let s = Sequence::U8((0..100u8).collect());
        let b = bytes("octal:0.6", &s);
        assert!(read_back(&b, "octal:0.6").is_ok());
        let e = read_back(&b, "octal:0.1777").unwrap_err();
        assert!(e.contains("holds values of octal:0.6"), "{e}");
        // Another rule of the same name (an edited script).
        let e = read(&b[..], "octal:0.6", RULE ^ 1, b.len() as u64).unwrap_err();
        assert!(e.contains("another version of the rules"), "{e}");
        // Every byte flipped, and every cut, is caught.
        for i in 0..b.len() {
            let mut c = b.clone();
            c[i] ^= 0x10;
            assert!(read_back(&c, "octal:0.6").is_err(), "flip at {i}");
            assert!(read_back(&b[..i], "octal:0.6").is_err(), "cut at {i}");
        }
        let mut longer = b.clone();
        longer.push(0);
        assert!(read_back(&longer, "octal:0.6").is_err());
    }

    /// Rewriting a header field (the width, the count) with a checksum to match the values
    /// alone is caught: the checksum covers the header.
    #[test]
    fn header_fields_are_under_the_checksum() {
        let s = Sequence::U16((0..50u16).collect());
        let b = String::from_utf8_lossy(&bytes("kayles", &s)).into_owned();
        let values_only = {
            let mut h = Fnv::new();
            let _ = s.write_le(&mut h);
            h.finish()
        };
        let sum_line = b
            .lines()
            .find(|l| l.starts_with("checksum: "))
            .unwrap()
            .to_string();
        let forged = b
            .replace("width: 2", "width: 1")
            .replace("values: 50", "values: 100")
            .replace(&sum_line, &format!("checksum: {values_only:016x}"));
        assert!(read_back(forged.as_bytes(), "kayles").is_err());
    }

    /// Temporary files of dead processes are removed, those of live ones and other files kept.
    #[cfg(target_os = "linux")]
    #[test]
    fn stale_temporaries_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let dead = dir.path().join(".grundy-4000000000-abc.tmp");
        let live = dir
            .path()
            .join(format!(".grundy-{}-abc.tmp", std::process::id()));
        let other = dir.path().join(".grundy-notes.tmp");
        for p in [&dead, &live, &other] {
            std::fs::write(p, b"x").unwrap();
        }
        remove_stale_temporaries(dir.path());
        assert!(!dead.exists());
        assert!(live.exists() && other.exists());
    }
}

/// `--checkpoint FILE` and `--checkpoint-every SECONDS`, the same for every command that
/// computes a sequence (`seq`, `analyze`).
#[derive(clap::Args, Debug)]
pub struct CheckpointArgs {
    /// Save the values computed to FILE every --checkpoint-every seconds (written whole to a
    /// new file, then renamed over FILE), and resume from FILE when it holds values of this
    /// game: a run killed midway loses at most one interval of work. A FILE of another game, or
    /// damaged, is refused (exit status 2) and left as it is.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<String>,
    /// Seconds between two checkpoint writes (decimal) [default: 60].
    #[arg(long, value_name = "SECONDS", requires = "checkpoint")]
    pub checkpoint_every: Option<String>,
}

impl CheckpointArgs {
    /// The interval of `--checkpoint-every` (60 s by default).
    pub fn every(&self) -> Result<std::time::Duration, crate::error::CliError> {
        interval(self.checkpoint_every.as_deref(), 60)
    }
}

/// The interval a `--checkpoint-every SECONDS` argument gives (a whole number of seconds),
/// `default` seconds without one.
pub fn interval(
    every: Option<&str>,
    default: u64,
) -> Result<std::time::Duration, crate::error::CliError> {
    let secs = match every {
        Some(s) => {
            grundy::notation::number::parse_u64(s).map_err(|e| e.in_source("--checkpoint-every"))?
        }
        None => default,
    };
    Ok(std::time::Duration::from_secs(secs))
}
