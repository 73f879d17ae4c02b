//! `grundy nimber product`: bulk nim products in the Library Checker "Nim Product" format.
//!
//! Reads all of stdin, validates it completely ([`grundy::nimber::product_io`]), then multiplies
//! in batches ([`grundy::nimber::batch`]), formats and writes the answers a chunk at a time: bad
//! input is found before anything is written, so it writes nothing to stdout.

use crate::error::CliError;
use grundy::nimber::{batch, product_io, Nim64};
use std::io::{Read, Write};

/// Products computed and written at a time. One thread suffices: a batch product costs about
/// 1.3 ns, against some 80 ns of reading, parsing and writing a line.
const CHUNK: usize = 1 << 16;

/// Runs `grundy nimber product` on stdin, accepting at most `max_input_mib` MiB.
pub fn run(max_input_mib: u64) -> Result<(), CliError> {
    let limit = max_input_mib.saturating_mul(1 << 20);
    let hint = stdin_size_hint().min(limit.min(1 << 40) as usize);
    let mut input = Vec::with_capacity(hint + 1);
    // Read one byte more than the limit to know whether the input exceeds it.
    std::io::stdin()
        .lock()
        .take(limit.saturating_add(1))
        .read_to_end(&mut input)?;
    if input.len() as u64 > limit {
        return Err(grundy::Error::limit(grundy::LimitKind::Input,
            format!("stdin is larger than {max_input_mib} MiB, the input size limit"),
            "pass --max-input-mib with a larger size, if the memory allows about 1.4 times the input",
        )
        .into());
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
