//! Checkpoints of distributed runs in a directory every rank can reach (a shared file system on
//! a cluster): a [`Journal`] whose rounds are files (exploring games by their rules), and
//! saved parts of each rank's state ([`Directory::save_part`], solving graphs).
//!
//! ```text
//! DIR/manifest                 written by rank 0 once every rank has written its files
//! DIR/rank-R/round-N.log       what round N of an exploration added on rank R, then a checksum
//! DIR/rank-R/NAME.part         a part of rank R's state, then a checksum
//! ```
//!
//! The manifest is lines of text: a first line, then `key: value` lines, the first three fixed
//! and the others the progress of the run (`round: N`, the last round of an exploration all
//! ranks logged; for graphs `outcomes: done` and `values: STAGE`):
//!
//! ```text
//! grundy distributed checkpoint 1
//! command: solve
//! input: 3f0c9a7d5e12b4c8
//! ranks: 2
//! round: 17
//! ```
//!
//! `input` is a digest of what the command reads (the caller's choice: for `grundy solve`, the
//! game's notation and the bytes of the file it names). A round's log and a part are their bytes
//! followed by their 64-bit FNV-1a checksum, little-endian.
//!
//! **Atomic steps.** Every file is written whole to a temporary name in the same directory and
//! renamed over its final name, so a file is either absent, the old one, or complete. Round `N`
//! counts as finished only once the manifest says so, which rank 0 writes after every rank has
//! written its log of round `N` (the ranks agree on that first). A run killed at any moment
//! therefore leaves a manifest naming a round whose logs all exist; logs of later rounds are
//! ignored and overwritten.
//!
//! **Resuming.** A run with the same command, input and number of ranks reads the logs of
//! rounds `0..=N` and goes on with round `N + 1`. A manifest of another command, input or
//! number of ranks, or a log that is missing or fails its checksum, is an error
//! ([`Error::Invalid`]): a checkpoint is used as it is or not at all.

use super::explore::Journal;
use crate::checksum::fnv1a;
use crate::error::{Error, Result};
use crate::file::write_atomically;
use std::path::{Path, PathBuf};

/// The first line of a manifest.
const MAGIC: &str = "grundy distributed checkpoint 1";

/// A checkpoint directory, as one rank uses it.
#[derive(Debug)]
pub struct Directory {
    dir: PathBuf,
    command: String,
    input: String,
    rank: usize,
    ranks: usize,
    /// The progress lines of the manifest, in order.
    progress: Vec<(String, String)>,
}

impl Directory {
    /// The checkpoint directory `dir` of `command` on `input` (a digest), as rank `rank` of
    /// `ranks` uses it: created if missing; if it holds a manifest, that must be of the same
    /// command, input and number of ranks (else [`Error::Invalid`] saying which differs).
    pub fn open(
        dir: &Path,
        command: &str,
        input: &str,
        rank: usize,
        ranks: usize,
    ) -> Result<Directory> {
        let shown = dir.display();
        let io = |what: &str, e: std::io::Error| {
            Error::invalid(format!("checkpoint directory {shown}: {what}: {e}"))
        };
        std::fs::create_dir_all(dir.join(format!("rank-{rank}")))
            .map_err(|e| io("cannot create it", e))?;
        let mut d = Directory {
            dir: dir.to_path_buf(),
            command: command.to_string(),
            input: input.to_string(),
            rank,
            ranks,
            progress: Vec::new(),
        };
        let text = match std::fs::read_to_string(dir.join("manifest")) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(d),
            Err(e) => return Err(io("cannot read its manifest", e)),
        };
        let refuse = |why: String| {
            Error::invalid(format!(
                "checkpoint directory {shown}: {why}; use another directory, or remove this \
                 one to start afresh"
            ))
        };
        let mut lines = text.lines();
        if lines.next() != Some(MAGIC) {
            return Err(refuse("its manifest is not a grundy checkpoint's".into()));
        }
        let mut field = |name: &str| -> Result<String> {
            lines
                .next()
                .and_then(|l| l.strip_prefix(name)?.strip_prefix(": "))
                .map(str::to_string)
                .ok_or_else(|| refuse(format!("its manifest has no `{name}` line")))
        };
        let (c, i, k) = (field("command")?, field("input")?, field("ranks")?);
        if c != command {
            return Err(refuse(format!(
                "it holds a checkpoint of `{c}`, not `{command}`"
            )));
        }
        if i != input {
            return Err(refuse(format!(
                "it holds a checkpoint of other input (digest {i}, this input's is {input})"
            )));
        }
        if k != ranks.to_string() {
            return Err(refuse(format!(
                "it was written by {k} ranks, and this run has {ranks}"
            )));
        }
        for line in lines {
            let (key, value) = line
                .split_once(": ")
                .ok_or_else(|| refuse(format!("its manifest has a line `{line}`")))?;
            d.progress.push((key.to_string(), value.to_string()));
        }
        if let Some(r) = d.get("round") {
            r.parse::<u64>()
                .map_err(|_| refuse(format!("its manifest's round `{r}` is not a number")))?;
        }
        Ok(d)
    }

    /// The progress line `key` of the manifest, if the run that wrote it got that far.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.progress
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Sets the progress line `key` to `value`: rank 0 writes the manifest anew. Call it on
    /// every rank once all of them have saved what the line stands for.
    pub fn set(&mut self, key: &str, value: &str) -> Result<()> {
        match self.progress.iter_mut().find(|(k, _)| k == key) {
            Some((_, v)) => *v = value.to_string(),
            None => self.progress.push((key.to_string(), value.to_string())),
        }
        if self.rank != 0 {
            return Ok(());
        }
        let mut text = format!(
            "{MAGIC}\ncommand: {}\ninput: {}\nranks: {}\n",
            self.command, self.input, self.ranks
        );
        for (k, v) in &self.progress {
            text.push_str(&format!("{k}: {v}\n"));
        }
        let path = self.dir.join("manifest");
        write_atomically(&path, text.as_bytes()).map_err(|e| {
            Error::invalid(format!(
                "checkpoint {}: cannot write it: {e}",
                path.display()
            ))
        })
    }

    /// Saves `bytes` as this rank's part `name` (with its checksum, atomically).
    pub fn save_part(&self, name: &str, bytes: &[u8]) -> Result<()> {
        self.write_checked(&self.part_path(name), bytes)
    }

    /// This rank's part `name`, checked.
    pub fn load_part(&self, name: &str) -> Result<Vec<u8>> {
        read_checked(&self.part_path(name))
    }

    /// Removes this rank's part `name` if it exists (a part no manifest line needs any more).
    pub fn remove_part(&self, name: &str) {
        let _ = std::fs::remove_file(self.part_path(name));
    }

    fn part_path(&self, name: &str) -> PathBuf {
        self.dir
            .join(format!("rank-{}", self.rank))
            .join(format!("{name}.part"))
    }

    fn write_checked(&self, path: &Path, data: &[u8]) -> Result<()> {
        let mut bytes = Vec::with_capacity(data.len() + 8);
        bytes.extend_from_slice(data);
        bytes.extend_from_slice(&fnv1a(data).to_le_bytes());
        write_atomically(path, &bytes).map_err(|e| {
            Error::invalid(format!(
                "checkpoint {}: cannot write it: {e}",
                path.display()
            ))
        })
    }

    /// The last round finished by the run that wrote the directory (`None`: none).
    pub fn finished(&self) -> Option<u64> {
        self.get("round").and_then(|r| r.parse().ok())
    }

    fn log_path(&self, round: u64) -> PathBuf {
        self.dir
            .join(format!("rank-{}", self.rank))
            .join(format!("round-{round}.log"))
    }
}

/// The bytes of a file written by [`Directory::write_checked`], checked.
fn read_checked(path: &Path) -> Result<Vec<u8>> {
    let bad = |why: String| {
        Error::invalid(format!(
            "checkpoint {}: {why}; remove the directory to start afresh",
            path.display()
        ))
    };
    let mut bytes = std::fs::read(path).map_err(|e| bad(format!("{e}")))?;
    if bytes.len() < 8 {
        return Err(bad("cut short".into()));
    }
    let at = bytes.len() - 8;
    let sum = u64::from_le_bytes(bytes[at..].try_into().unwrap_or_default());
    bytes.truncate(at);
    if fnv1a(&bytes) != sum {
        return Err(bad("its checksum does not match".into()));
    }
    Ok(bytes)
}

impl Journal for Directory {
    fn replay(&mut self) -> Result<Vec<Vec<u8>>> {
        let Some(last) = self.finished() else {
            return Ok(Vec::new());
        };
        (0..=last)
            .map(|round| read_checked(&self.log_path(round)))
            .collect()
    }

    fn record(&mut self, round: u64, log: &[u8]) -> Result<()> {
        self.write_checked(&self.log_path(round), log)
    }

    fn commit(&mut self, round: u64) -> Result<()> {
        self.set("round", &round.to_string())
    }
}
