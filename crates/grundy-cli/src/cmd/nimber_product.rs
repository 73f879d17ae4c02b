//! `grundy nimber product`: bulk nim products in the Library Checker "Nim Product" format.
//!
//! Reads all of stdin, validates it completely ([`grundy::nimber::product_io`]), multiplies in
//! one batch ([`grundy::nimber::batch`]), formats every answer into one buffer and writes it at
//! once: bad input writes nothing to stdout.

use crate::error::CliError;
use grundy::nimber::{batch, product_io, Nim64};
use std::io::{Read, Write};

/// From this many products on, the batch is split over the rayon thread pool.
const PARALLEL_FROM: usize = 1 << 16;

/// Runs `grundy nimber product` on stdin.
pub fn run() -> Result<(), CliError> {
    let mut input = Vec::with_capacity(stdin_size_hint() + 1);
    std::io::stdin().lock().read_to_end(&mut input)?;
    let pairs = product_io::parse_products(&input).map_err(|e| e.in_source("stdin"))?;
    drop(input);
    let mut products = vec![Nim64(0); pairs.a.len()];
    if products.len() >= PARALLEL_FROM {
        batch::par_mul_slice(&pairs.a, &pairs.b, &mut products);
    } else {
        batch::mul_slice(&pairs.a, &pairs.b, &mut products);
    }
    let text = product_io::format_lines(&products);
    let mut out = std::io::stdout().lock();
    out.write_all(&text)?;
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
