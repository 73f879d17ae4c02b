//! The bytes of messages between ranks: numbers and strings as in [`crate::varint`], and
//! errors.

use crate::error::{Error, LimitKind, ParseError, Result};

pub(crate) use crate::varint::{put, put_bytes, Read};

fn malformed() -> Error {
    Error::Internal("a malformed message between ranks".into())
}

/// The limit kinds a message carries, by their index here (others travel as `Fixed`).
const KINDS: [LimitKind; 6] = [
    LimitKind::Memory,
    LimitKind::Ids,
    LimitKind::Input,
    LimitKind::Deadline,
    LimitKind::Positions,
    LimitKind::Fixed,
];

fn put_opt(buf: &mut Vec<u8>, x: Option<usize>) {
    put(buf, x.map_or(0, |x| x as u64 + 1));
}

fn get_opt(r: &mut Read<'_>) -> Result<Option<usize>> {
    Ok(r.get()?.checked_sub(1).map(|x| x as usize))
}

/// Appends an error, to be rebuilt by [`get_error`] on another rank.
pub fn put_error(buf: &mut Vec<u8>, e: &Error) {
    match e {
        Error::Parse(p) => {
            put(buf, 0);
            put_opt(buf, p.at.line);
            put_opt(buf, p.at.column);
            put_bytes(buf, p.at.source.as_deref().unwrap_or("").as_bytes());
            put_bytes(buf, p.message.as_bytes());
        }
        Error::Invalid(m) => {
            put(buf, 1);
            put_bytes(buf, m.as_bytes());
        }
        Error::Limit(l) => {
            put(buf, 2);
            let kind = KINDS.iter().position(|&k| k == l.kind).unwrap_or(5);
            put(buf, kind as u64);
            put_bytes(buf, l.what.as_bytes());
            put_bytes(buf, l.how_to_raise.as_bytes());
            let (needed, limit) = l.amounts.unwrap_or((0, 0));
            put(buf, u64::from(l.amounts.is_some()));
            put(buf, needed);
            put(buf, limit);
        }
        Error::Cancelled(why) => {
            put(buf, 4);
            put(
                buf,
                matches!(why, crate::error::Interruption::Deadline) as u64,
            );
        }
        other => {
            put(buf, 3);
            let m = match other {
                Error::Internal(m) => m.clone(),
                e => e.to_string(),
            };
            put_bytes(buf, m.as_bytes());
        }
    }
}

/// The error written by [`put_error`] (a malformed one is itself an internal error).
pub fn get_error(bytes: &[u8]) -> Error {
    let read = || -> Result<Error> {
        let mut r = Read::new(bytes);
        Ok(match r.get()? {
            0 => {
                let line = get_opt(&mut r)?;
                let column = get_opt(&mut r)?;
                let source = r.get_str()?.to_string();
                let mut p = match line {
                    Some(l) => ParseError::at_line(l, column, r.get_str()?),
                    None => match column {
                        Some(c) => ParseError::at_column(c, r.get_str()?),
                        None => ParseError::whole(r.get_str()?),
                    },
                };
                if !source.is_empty() {
                    p = p.in_source(source);
                }
                Error::Parse(p)
            }
            1 => Error::Invalid(r.get_str()?.into()),
            2 => {
                let kind = *KINDS.get(r.get()? as usize).ok_or_else(malformed)?;
                let what = r.get_str()?.to_string();
                let how = r.get_str()?.to_string();
                let has = r.get()? == 1;
                let (needed, limit) = (r.get()?, r.get()?);
                if has {
                    Error::limit_with_amounts(kind, what, how, needed, limit)
                } else {
                    Error::limit(kind, what, how)
                }
            }
            4 => Error::Cancelled(match r.get()? {
                0 => crate::error::Interruption::Token,
                _ => crate::error::Interruption::Deadline,
            }),
            _ => Error::Internal(r.get_str()?.into()),
        })
    };
    read().unwrap_or_else(|e| e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_and_errors_travel_unchanged() {
        let xs = [0u64, 1, 127, 128, 300, 1 << 35, u64::MAX];
        let mut buf = Vec::new();
        for &x in &xs {
            put(&mut buf, x);
        }
        // A number below 2^(7k) takes k bytes.
        assert_eq!(buf.len(), 1 + 1 + 1 + 2 + 2 + 6 + 10);
        let mut r = Read::new(&buf);
        for &x in &xs {
            assert_eq!(r.get().unwrap(), x);
        }
        assert!(r.is_empty());
        assert!(Read::new(&[0x80]).get().is_err());
        let errors = [
            Error::Parse(ParseError::at_line(3, Some(4), "expected x").in_source("g.txt")),
            Error::Parse(ParseError::at_line(3, None, "a NUL byte")),
            Error::Invalid("no".into()),
            Error::limit_with_amounts(LimitKind::Memory, "needs 2 GiB", "--memory", 2, 1),
            Error::limit(LimitKind::Ids, "too many", ""),
            Error::Internal("oops".into()),
            Error::Cancelled(crate::error::Interruption::Token),
            Error::Cancelled(crate::error::Interruption::Deadline),
        ];
        for e in errors {
            let mut buf = Vec::new();
            put_error(&mut buf, &e);
            assert_eq!(get_error(&buf), e);
        }
    }
}
