//! `grundy nimber product`: bulk nim products in the Library Checker "Nim Product" format.
//!
//! Maps stdin (a regular file) or reads it, parses and validates it completely
//! ([`grundy::nimber::product_io`]) while multiplying the pairs in batches as they come
//! ([`grundy::nimber::batch`]), then formats and writes the answers a chunk at a time through
//! one buffer: bad input is found before anything is written, so it writes nothing to stdout.

use crate::error::CliError;
use grundy::nimber::{batch, product_io, Nim64};
use std::io::{Read, Write};

/// Products computed and written at a time. One thread suffices: a batch product costs about
/// 1.3 ns, against some 50 ns of reading, parsing and writing a line.
const CHUNK: usize = 1 << 16;

/// The line length checked while reading: a product line `A B` has at most 41 characters (two numbers
/// below 2^64, or 18 in hexadecimal with `0x`). A longer line that runs on to the end of a chunk
/// read is refused at once as bad input, so that an input with no line ends (`/dev/zero`) is
/// not read on; shorter runs inside a chunk are left to the parser.
pub const MAX_LINE: usize = 4096;

/// Runs `grundy nimber product` on stdin, accepting at most `max_input_mib` MiB, and no more
/// than the memory budget allows (the input, and 16 bytes a line for the pairs and products).
///
/// A regular file on stdin is mapped into memory ([`map_stdin`]) rather than copied in, so the
/// kernel neither copies it nor zeroes a buffer of its size; pipes and terminals are read in
/// chunks. Both go through the same checks a chunk at a time ([`Checks`]), so both refuse the
/// same inputs with the same messages.
pub fn run(max_input_mib: u64, settings: &crate::settings::Settings) -> Result<(), CliError> {
    let limit = max_input_mib.saturating_mul(1 << 20);
    let budget = settings.memory();
    let mut checks = Checks {
        line: 1,
        line_len: 0,
        limit,
        max_input_mib,
        held: budget.reserve(0, "holding the input")?,
    };
    let mapped = map_stdin(max_input_mib)?;
    let read;
    let input: &[u8] = match &mapped {
        Some(map) => {
            for from in (0..map.len()).step_by(READ_CHUNK) {
                let to = (from + READ_CHUNK).min(map.len());
                checks.chunk(&map[..to], from)?;
            }
            map
        }
        None => {
            read = read_stdin(&mut checks, budget.limit())?;
            &read
        }
    };
    // The pairs are multiplied as they are parsed, a chunk at a time: only the products are
    // kept (8 bytes a line) until the whole input is known to be valid.
    let mut sink = Multiply::default();
    product_io::parse_products_into(input, &mut sink).map_err(|e| e.in_source("stdin"))?;
    sink.flush();
    drop(mapped);
    // Everything is valid: format and write a chunk at a time into one buffer, so that the text
    // is never held (and paged in) whole.
    let products = sink.products;
    let mut text = vec![0u8; CHUNK.min(products.len()) * product_io::LINE_BYTES];
    let mut out = std::io::stdout().lock();
    for chunk in products.chunks(CHUNK) {
        let n = product_io::format_lines_to(chunk, &mut text);
        out.write_all(&text[..n])?;
    }
    out.flush()?;
    Ok(())
}

/// Multiplies the pairs handed over by the parser, [`CHUNK`] at a time, into `products`.
#[derive(Default)]
struct Multiply {
    a: Vec<Nim64>,
    b: Vec<Nim64>,
    products: Vec<Nim64>,
}

impl Multiply {
    /// Multiplies the pairs held and appends their products.
    fn flush(&mut self) {
        let at = self.products.len();
        self.products.resize(at + self.a.len(), Nim64(0));
        batch::mul_slice(&self.a, &self.b, &mut self.products[at..]);
        self.a.clear();
        self.b.clear();
    }
}

impl product_io::ProductSink for Multiply {
    fn start(&mut self, capacity: usize) {
        self.products.reserve_exact(capacity);
        self.a.reserve_exact(CHUNK.min(capacity));
        self.b.reserve_exact(CHUNK.min(capacity));
    }

    #[inline]
    fn pair(&mut self, a: Nim64, b: Nim64) {
        self.a.push(a);
        self.b.push(b);
        if self.a.len() == CHUNK {
            self.flush();
        }
    }
}

/// Bytes read (or checked, for a mapped file) at a time.
const READ_CHUNK: usize = 1 << 20;

/// The checks made on the input a chunk at a time, before it is parsed: the size limit, the
/// memory budget, lines too long to be product lines, and bytes no product line holds.
struct Checks {
    /// The line the next chunk starts on.
    line: usize,
    /// The length of that line before the next chunk.
    line_len: usize,
    /// The input size limit in bytes, and as given in MiB.
    limit: u64,
    max_input_mib: u64,
    /// The bytes held for the input and its pairs.
    held: grundy::control::Reservation,
}

impl Checks {
    /// Checks the chunk `input[from..]`, the input so far ending with it ([`Checks::admit`],
    /// then [`bad_bytes`]).
    fn chunk(&mut self, input: &[u8], from: usize) -> Result<(), CliError> {
        let all_may_appear = self.admit(from, &input[from..])?;
        bad_bytes(input, from, all_may_appear)
    }

    /// The checks that come before the chunk `bytes` (after `before` bytes) is held: its line
    /// lengths, the size limit and the memory budget.
    ///
    /// Only a line running on past the chunk can make the reading endless: the length of the
    /// line the chunk continues and of the line it ends with are checked here; lines inside a
    /// chunk are bounded by the chunk and checked by the parser. Counting the line ends and
    /// looking for bytes no input holds is one vectorised pass ([`scan`]). Returns whether every byte of the chunk
    /// [`may_appear`].
    fn admit(&mut self, before: usize, bytes: &[u8]) -> Result<bool, CliError> {
        let n = bytes.len();
        let (ends, all_may_appear) = scan(bytes);
        let (first, last) = match (
            bytes.iter().position(|&b| b == b'\n'),
            bytes.iter().rposition(|&b| b == b'\n'),
        ) {
            (Some(f), Some(l)) => (f, n - l - 1),
            _ => (n, 0),
        };
        let too_long = if self.line_len + first > MAX_LINE {
            Some(self.line)
        } else if ends > 0 && last > MAX_LINE {
            Some(self.line + ends)
        } else {
            None
        };
        if let Some(at) = too_long {
            return Err(grundy::ParseError::at_line(
                at,
                None,
                format!(
                    "a line longer than {MAX_LINE} bytes: a product line is `A B`, two numbers \
                     below 2^64"
                ),
            )
            .in_source("stdin")
            .into());
        }
        self.line_len = if ends > 0 { last } else { self.line_len + n };
        self.line += ends;
        let total = (before + n) as u64;
        if total > self.limit {
            return Err(too_large(self.max_input_mib));
        }
        // The text, and the 16 bytes a line of the pairs parsed from it.
        let need = total + 16 * self.line as u64;
        if need > self.held.bytes() {
            self.held.resize(need, "holding and parsing the input")?;
        }
        Ok(all_may_appear)
    }
}

/// Refuses the input, at the line it is on and without reading on (random bytes fail on their
/// first line), if the chunk `input[from..]` holds a byte no product line holds (not
/// `all_may_appear`): the parser's error on the input up to the end of that byte's line.
fn bad_bytes(input: &[u8], from: usize, all_may_appear: bool) -> Result<(), CliError> {
    let bytes = &input[from..];
    if all_may_appear {
        return Ok(());
    }
    if let Some(bad) = bytes.iter().position(|&b| !may_appear(b)) {
        let end = bytes[bad..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |e| bad + e + 1);
        product_io::parse_products(&input[..from + end]).map_err(|e| e.in_source("stdin"))?;
    }
    Ok(())
}

/// The input size limit error.
fn too_large(max_input_mib: u64) -> CliError {
    grundy::Error::limit(
        grundy::LimitKind::Input,
        format!("stdin is larger than {max_input_mib} MiB, the input size limit"),
        "pass --max-input-mib with a larger size, if the memory allows about 1.4 times the input",
    )
    .into()
}

/// Reads all of stdin in chunks of [`READ_CHUNK`] bytes, each checked ([`Checks::chunk`])
/// before the next is read; the memory budget's `budget_limit` caps the first allocation.
fn read_stdin(checks: &mut Checks, budget_limit: u64) -> Result<Vec<u8>, CliError> {
    let hint = stdin_size_hint().min(checks.limit.min(1 << 40) as usize);
    let mut input: Vec<u8> = Vec::new();
    let mut chunk = vec![0u8; READ_CHUNK];
    let mut stdin = std::io::stdin().lock();
    loop {
        let n = match stdin.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e.into()),
        };
        let all_may_appear = checks.admit(input.len(), &chunk[..n])?;
        if input.is_empty() {
            // A regular file is read into one allocation of its size (within the limits).
            input.reserve(hint.min(budget_limit as usize));
        }
        let from = input.len();
        input.extend_from_slice(&chunk[..n]);
        bad_bytes(&input, from, all_may_appear)?;
    }
    Ok(input)
}

/// Whether `b` may appear in a valid input: digits, the `x` of `0x`, hexadecimal letters and
/// blanks. Branch-free, so that [`scan`] vectorises: `b | 0x20` is the lower case of a letter
/// (and maps no other byte to `a`-`f` or `x`).
#[inline(always)]
fn may_appear(b: u8) -> bool {
    let lower = b | 0x20;
    (b.wrapping_sub(b'0') < 10)
        | (lower.wrapping_sub(b'a') < 6)
        | (lower == b'x')
        | (b == b' ')
        | (b == b'\t')
        | (b == b'\r')
        | (b == b'\n')
}

/// The number of line ends in `bytes`, and whether every byte [`may_appear`], in one pass of
/// 128-byte blocks whose counts fit a byte (so that the loop is vectorised).
fn scan(bytes: &[u8]) -> (usize, bool) {
    let (mut ends, mut ok) = (0usize, true);
    for block in bytes.chunks(128) {
        let (mut e, mut all) = (0u8, true);
        for &b in block {
            e += u8::from(b == b'\n');
            all &= may_appear(b);
        }
        ends += usize::from(e);
        ok &= all;
    }
    (ends, ok)
}

/// Maps stdin into memory when it is a non-empty regular file, from its current offset to its
/// end, with its pages read in at once (`MAP_POPULATE`); `None` for pipes and terminals, or
/// if the mapping fails (the input is then read). A file beyond the limit is the input size
/// error (`max_input_mib`), before anything is mapped.
///
/// The map is read-only and private. Were another process to shorten the file while it is
/// mapped, reading past its new end would raise SIGBUS: the same risk every program that maps
/// its input takes; a file given on stdin is not expected to change under the reader.
fn map_stdin(max_input_mib: u64) -> Result<Option<memmap2::Mmap>, CliError> {
    #[cfg(unix)]
    {
        use std::io::Seek;
        use std::os::fd::AsFd;
        let Ok(fd) = std::io::stdin().as_fd().try_clone_to_owned() else {
            return Ok(None);
        };
        let mut file = std::fs::File::from(fd);
        let (Ok(meta), Ok(offset)) = (file.metadata(), file.stream_position()) else {
            return Ok(None);
        };
        let len = meta.len().saturating_sub(offset);
        if !meta.is_file() || len == 0 {
            return Ok(None);
        }
        if len > max_input_mib.saturating_mul(1 << 20) {
            return Err(too_large(max_input_mib));
        }
        let Ok(len) = usize::try_from(len) else {
            return Ok(None);
        };
        // SAFETY: the map is read-only and private, and only read as bytes; see above for a
        // file shortened while mapped.
        let map = unsafe {
            memmap2::MmapOptions::new()
                .offset(offset)
                .len(len)
                .populate()
                .map(&file)
        };
        Ok(map.ok())
    }
    #[cfg(not(unix))]
    {
        let _ = max_input_mib;
        Ok(None)
    }
}

/// The size of stdin when it is a regular file (so that it is read into one allocation), else 0.
fn stdin_size_hint() -> usize {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        if let Ok(fd) = std::io::stdin().as_fd().try_clone_to_owned() {
            if let Ok(meta) = std::fs::File::from(fd).metadata() {
                if meta.is_file() {
                    return meta.len().min(1 << 34) as usize;
                }
            }
        }
    }
    0
}
