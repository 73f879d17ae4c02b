//! `grundy nimber product`: bulk nim products in the Library Checker "Nim Product" format.
//!
//! Reads all of stdin, validates it completely ([`grundy::nimber::product_io`]), then multiplies
//! in batches ([`grundy::nimber::batch`]), formats and writes the answers a chunk at a time: bad
//! input is found before anything is written, so it writes nothing to stdout.

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
/// than the memory budget allows (the input, and 16 bytes a line for the parsed pairs).
pub fn run(max_input_mib: u64, settings: &crate::settings::Settings) -> Result<(), CliError> {
    let limit = max_input_mib.saturating_mul(1 << 20);
    let hint = stdin_size_hint().min(limit.min(1 << 40) as usize);
    let budget = settings.memory();
    let mut held = budget.reserve(0, "holding the input")?;
    let mut input: Vec<u8> = Vec::new();
    // Read in chunks of 1 MiB, refused once past the limit or the budget, checking line
    // lengths as they come.
    const READ_CHUNK: usize = 1 << 20;
    let mut chunk = vec![0u8; READ_CHUNK];
    let mut stdin = std::io::stdin().lock();
    let (mut line, mut line_len) = (1usize, 0usize);
    loop {
        let n = match stdin.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e.into()),
        };
        // Only a line running on past the chunk can make the reading endless: the length of
        // the line the chunk continues and of the line it ends with are checked here; lines
        // inside a chunk are bounded by the chunk and checked by the parser. Counting the line
        // ends and looking for bytes no input holds is one vectorised pass.
        let bytes = &chunk[..n];
        let (ends, all_may_appear) = scan(bytes);
        let (first, last) = match (
            bytes.iter().position(|&b| b == b'\n'),
            bytes.iter().rposition(|&b| b == b'\n'),
        ) {
            (Some(f), Some(l)) => (f, n - l - 1),
            _ => (n, 0),
        };
        let too_long = if line_len + first > MAX_LINE {
            Some(line)
        } else if ends > 0 && last > MAX_LINE {
            Some(line + ends)
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
        line_len = if ends > 0 { last } else { line_len + n };
        line += ends;
        if (input.len() + n) as u64 > limit {
            return Err(grundy::Error::limit(grundy::LimitKind::Input,
                format!("stdin is larger than {max_input_mib} MiB, the input size limit"),
                "pass --max-input-mib with a larger size, if the memory allows about 1.4 times the input",
            )
            .into());
        }
        // The text, and the 16 bytes a line of the pairs parsed from it.
        let need = (input.len() + n) as u64 + 16 * line as u64;
        if need > held.bytes() {
            held.resize(need, "holding and parsing the input")?;
        }
        if input.is_empty() {
            // A regular file is read into one allocation of its size (within the limits).
            input.reserve(hint.min(budget.limit() as usize));
        }
        input.extend_from_slice(&chunk[..n]);
        if let Some(bad) = (!all_may_appear)
            .then(|| chunk[..n].iter().position(|&b| !may_appear(b)))
            .flatten()
        {
            // A byte no product line holds: the input is refused at the line it is on, without
            // reading on (random bytes fail on their first line).
            let end = chunk[bad..n]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(n, |e| bad + e + 1);
            let upto = input.len() - n + end;
            product_io::parse_products(&input[..upto]).map_err(|e| e.in_source("stdin"))?;
        }
    }
    let pairs = product_io::parse_products(&input).map_err(|e| e.in_source("stdin"))?;
    drop(input);
    // Everything is valid: multiply and write a chunk at a time, so that neither all the
    // products nor all the text need to be held (and paged in) at once.
    let mut products = vec![Nim64(0); CHUNK.min(pairs.a.len())];
    let mut text = Vec::with_capacity(products.len() * 21);
    let mut out = std::io::stdout().lock();
    for (a, b) in pairs.a.chunks(CHUNK).zip(pairs.b.chunks(CHUNK)) {
        let products = &mut products[..a.len()];
        batch::mul_slice(a, b, products);
        text.clear();
        product_io::format_lines_into(products, &mut text);
        out.write_all(&text)?;
    }
    out.flush()?;
    Ok(())
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
