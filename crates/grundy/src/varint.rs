//! Numbers and byte strings as bytes: the encoding of positions (`game::Encoding`),
//! of messages between ranks and of checkpoints.
//!
//! A number is a LEB128 varint: 7 bits a byte, the high bit set on every byte but the last, so a
//! number below `2^(7k)` takes `k` bytes; the encoding is unique (no trailing zero groups are
//! written), so equal numbers give equal bytes. A byte string is its length, then its bytes.
//! Bytes read back only ever come from these writers; anything else is an internal error.

use crate::error::{Error, Result};

/// Appends `x` as a LEB128 varint.
#[inline]
pub(crate) fn put(buf: &mut Vec<u8>, mut x: u64) {
    while x >= 0x80 {
        buf.push(x as u8 | 0x80);
        x >>= 7;
    }
    buf.push(x as u8);
}

/// Appends a length and the bytes.
pub(crate) fn put_bytes(buf: &mut Vec<u8>, b: &[u8]) {
    put(buf, b.len() as u64);
    buf.extend_from_slice(b);
}

fn malformed() -> Error {
    Error::Internal("malformed bytes: not written by this encoding".into())
}

/// A cursor over received bytes.
pub(crate) struct Read<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Read<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Read { bytes, at: 0 }
    }

    /// True once every byte is read.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.at >= self.bytes.len()
    }

    /// The next varint.
    #[inline]
    pub(crate) fn get(&mut self) -> Result<u64> {
        let mut x = 0u64;
        let mut shift = 0;
        loop {
            let b = *self.bytes.get(self.at).ok_or_else(malformed)?;
            self.at += 1;
            if shift > 63 {
                return Err(malformed());
            }
            x |= ((b & 0x7f) as u64) << shift;
            if b < 0x80 {
                return Ok(x);
            }
            shift += 7;
        }
    }

    /// The next length-prefixed bytes.
    pub(crate) fn get_bytes(&mut self) -> Result<&'a [u8]> {
        let n = self.get()? as usize;
        let end = self.at.checked_add(n).ok_or_else(malformed)?;
        let b = self.bytes.get(self.at..end).ok_or_else(malformed)?;
        self.at = end;
        Ok(b)
    }

    /// The next length-prefixed UTF-8 string.
    pub(crate) fn get_str(&mut self) -> Result<&'a str> {
        std::str::from_utf8(self.get_bytes()?).map_err(|_| malformed())
    }
}

/// Reads the varints of an encoded value; the whole of `bytes` must be used.
pub(crate) fn decode_all<T>(bytes: &[u8], f: impl FnOnce(&mut Read<'_>) -> Result<T>) -> Result<T> {
    let mut r = Read::new(bytes);
    let x = f(&mut r)?;
    if !r.is_empty() {
        return Err(crate::error::Error::Internal(
            "bytes left over after an encoded value".into(),
        ));
    }
    Ok(x)
}
