//! The input and output of bulk nim products in the format of the Library Checker problem
//! "Nim Product": a count `T`, then `T` lines `A B` (`0 <= A, B < 2^64`); the answer is `T` lines
//! `A ⊗ B`.
//!
//! The parser reads the whole input as bytes in one pass, by hand (decimal, or hexadecimal after
//! `0x`), and validates all of it before anything is computed, so that a caller never writes a
//! partial answer. Spaces and tabs separate numbers; a line ends with `\n` or `\r\n`; blank lines
//! and whitespace after the last product are allowed, anything else is an error naming the line,
//! the column and what was expected. Both directions work on eight digits at a time inside a
//! 64-bit word (SWAR): the parser turns eight ASCII digits into their value with three
//! multiply-and-shift steps, the formatter eight digits of a value into ASCII with three
//! multiply-and-shift steps the other way.

use super::Nim64;
use crate::error::ParseError;

/// The pairs to multiply: `a[i] ⊗ b[i]` for each line `i`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProductInput {
    /// The left factors, in input order.
    pub a: Vec<Nim64>,
    /// The right factors, in input order.
    pub b: Vec<Nim64>,
}

/// A byte cursor that knows its line and column for error messages.
struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
    line: usize,
    line_start: usize,
}

/// What a number token may be, for error messages.
const NUMBER: &str = "a natural number below 2^64 (decimal, or hexadecimal after 0x)";

impl<'a> Cursor<'a> {
    /// The error at the current position.
    fn error(&self, message: String) -> ParseError {
        self.error_at(self.pos, message)
    }

    /// The error at byte `pos` of the current line; the column counts characters.
    fn error_at(&self, pos: usize, message: String) -> ParseError {
        let prefix = &self.bytes[self.line_start..pos];
        let column = String::from_utf8_lossy(prefix).chars().count() + 1;
        ParseError::at_line(self.line, Some(column), message)
    }

    /// What is at the current position, for "found ..." in messages.
    fn found(&self) -> String {
        match self.bytes.get(self.pos) {
            None => "the end of the input".into(),
            Some(b'\n') | Some(b'\r') => "the end of the line".into(),
            Some(_) => {
                let rest = &self.bytes[self.pos..];
                let end = rest.len().min(4);
                let text = String::from_utf8_lossy(&rest[..end]);
                let c = text.chars().next().unwrap_or('?');
                format!("{c:?}")
            }
        }
    }

    #[inline]
    fn skip_blanks(&mut self) {
        while let Some(b' ' | b'\t') = self.bytes.get(self.pos) {
            self.pos += 1;
        }
    }

    /// Consumes the end of a line (`\n`, `\r\n`) after optional blanks; `Ok(false)` at the end
    /// of the input.
    fn end_line(&mut self, what_else: &str) -> Result<bool, ParseError> {
        self.skip_blanks();
        match self.bytes.get(self.pos) {
            None => Ok(false),
            Some(b'\n') => {
                self.pos += 1;
                self.line += 1;
                self.line_start = self.pos;
                Ok(true)
            }
            Some(b'\r') if self.bytes.get(self.pos + 1) == Some(&b'\n') => {
                self.pos += 2;
                self.line += 1;
                self.line_start = self.pos;
                Ok(true)
            }
            _ => Err(self.error(format!(
                "expected the end of the line after {what_else}, found {}",
                self.found()
            ))),
        }
    }

    /// Parses a number below `2^64`, `what` naming it in messages.
    #[inline]
    fn number(&mut self, what: &str) -> Result<u64, ParseError> {
        let start = self.pos;
        let b = self.bytes;
        if b.get(start) == Some(&b'0') && matches!(b.get(start + 1), Some(b'x' | b'X')) {
            return self.hex(what);
        }
        let mut i = start;
        while b.get(i) == Some(&b'0') {
            i += 1;
        }
        let (significant, v) = digits_value(b, i);
        if i == start && significant == 0 {
            return Err(self.error(format!("expected {what}: {NUMBER}, found {}", self.found())));
        }
        // Without leading zeros, more than 20 digits is at least 10^20 > 2^64.
        let v = match u64::try_from(v) {
            Ok(v) if significant <= 20 => v,
            _ => return Err(self.too_large(start, what)),
        };
        i += significant;
        self.pos = i;
        self.after_number(what)?;
        Ok(v)
    }

    /// Parses `0x` and at most 16 significant hexadecimal digits.
    fn hex(&mut self, what: &str) -> Result<u64, ParseError> {
        let start = self.pos;
        let b = self.bytes;
        let mut i = start + 2;
        let digits_start = i;
        while b.get(i) == Some(&b'0') {
            i += 1;
        }
        let mut v: u64 = 0;
        let mut significant = 0;
        while let Some(d) = b.get(i).and_then(|&c| (c as char).to_digit(16)) {
            significant += 1;
            if significant > 16 {
                return Err(self.too_large(start, what));
            }
            v = v << 4 | d as u64;
            i += 1;
        }
        if i == digits_start {
            self.pos = i;
            return Err(self.error(format!(
                "expected hexadecimal digits after 0x in {what}, found {}",
                self.found()
            )));
        }
        self.pos = i;
        self.after_number(what)?;
        Ok(v)
    }

    /// A number must be followed by a blank, the end of a line, or the end of the input.
    #[inline(always)]
    fn after_number(&self, what: &str) -> Result<(), ParseError> {
        match self.bytes.get(self.pos) {
            None | Some(b' ' | b'\t' | b'\n' | b'\r') => Ok(()),
            Some(_) => Err(self.error(format!(
                "expected {what}: {NUMBER}, found {} inside the number",
                self.found()
            ))),
        }
    }

    fn too_large(&self, start: usize, what: &str) -> ParseError {
        let mut end = start;
        while end < self.bytes.len() && self.bytes[end].is_ascii_alphanumeric() {
            end += 1;
        }
        let text = String::from_utf8_lossy(&self.bytes[start..end]);
        self.error_at(
            start,
            format!("{what} = {text} does not fit in 64 bits (expected a number below 2^64)"),
        )
    }
}

/// Eight bytes from `i` as a little-endian word (the first byte lowest), if there are eight.
#[inline(always)]
fn word(b: &[u8], i: usize) -> Option<u64> {
    b.get(i..i + 8)
        .map(|w| u64::from_le_bytes(w.try_into().expect("eight bytes")))
}

/// The digits of a word (byte `k` minus `'0'`) and a mask with the high nibble of every
/// non-digit byte set. A byte is a digit exactly when `x = byte ⊕ 0x30 <= 9`, that is when
/// both `x` and `x + 6` are below 16; carries of `x + 6` only disturb bytes after a non-digit.
#[inline(always)]
fn digit_mask(w: u64) -> (u64, u64) {
    let x = w ^ 0x3030_3030_3030_3030;
    (
        x,
        (x.wrapping_add(0x0606_0606_0606_0606) | x) & 0xF0F0_F0F0_F0F0_F0F0,
    )
}

/// The number of consecutive ASCII digits from `i` and their value, eight bytes at a time where
/// possible. The value is exact while there are at most 24 digits (it is then below `2^80`);
/// beyond, only the count is meaningful, and the caller reports the number as too large.
#[inline(always)]
fn digits_value(b: &[u8], mut i: usize) -> (usize, u128) {
    let start = i;
    // Below 16 digits the value fits a u64 (< 10^16); the wider product only once past them.
    let mut v = 0u64;
    let mut wide = 0u128;
    while let Some(w) = word(b, i) {
        let (x, mask) = digit_mask(w);
        // Digits in this word: all eight, or up to the first non-digit.
        let n = if mask == 0 {
            8
        } else {
            (mask.trailing_zeros() / 8) as usize
        };
        if n > 0 {
            // The first `n` digits, moved to the top bytes (zeros in front).
            let d = eight_digits(x << (8 * (8 - n)));
            match i - start {
                0..=8 => v = v * POW10[n] + d,
                16 => wide = u128::from(v) * u128::from(POW10[n]) + u128::from(d),
                _ => {}
            }
        }
        i += n;
        if n < 8 {
            break;
        }
    }
    let mut len = i - start;
    if word(b, i).is_none() {
        // Fewer than eight bytes left: the rest digit by digit.
        while i < b.len() && b[i].is_ascii_digit() {
            let d = u64::from(b[i] - b'0');
            match i - start {
                0..=15 => v = v * 10 + d,
                16 => wide = u128::from(v) * 10 + u128::from(d),
                17..=23 => wide = wide * 10 + u128::from(d),
                _ => {}
            }
            i += 1;
        }
        len = i - start;
    }
    (len, if len <= 16 { u128::from(v) } else { wide })
}

/// The value of the `n <= 8` digits at the top of a word of digit values (first digit in the
/// lowest byte): pairs, then quadruples, then the eight digits combined by multiply-and-shift
/// (`10·d0 + d1` is `(x·(1 + 10·2^8)) >> 8` in each 16-bit half, and so on).
#[inline(always)]
fn eight_digits(x: u64) -> u64 {
    let x = (x.wrapping_mul(1 + (10 << 8)) >> 8) & 0x00FF_00FF_00FF_00FF;
    let x = (x.wrapping_mul(1 + (100 << 16)) >> 16) & 0x0000_FFFF_0000_FFFF;
    x.wrapping_mul(1 + (10000 << 32)) >> 32
}

/// `10^k` for `k <= 8`.
const POW10: [u64; 9] = [
    1,
    10,
    100,
    1000,
    10_000,
    100_000,
    1_000_000,
    10_000_000,
    100_000_000,
];

/// Where a parser puts the pairs it reads: [`ProductInput`] keeps them all; a caller may also
/// consume them as they come (multiplying a chunk at a time) through [`parse_products_into`].
pub trait ProductSink {
    /// Called once, before the pairs, with the number of lines the input can hold (at most
    /// `T`): room to reserve.
    fn start(&mut self, capacity: usize);
    /// One pair `A B`, in input order.
    fn pair(&mut self, a: Nim64, b: Nim64);
}

impl ProductSink for ProductInput {
    fn start(&mut self, capacity: usize) {
        self.a.reserve(capacity);
        self.b.reserve(capacity);
    }

    #[inline]
    fn pair(&mut self, a: Nim64, b: Nim64) {
        self.a.push(a);
        self.b.push(b);
    }
}

/// Parses `T` and the `T` lines `A B` of a "Nim Product" input, validating all of it.
///
/// Errors name the line and column: an empty input, a missing or malformed number, a number of
/// `2^64` or more, fewer lines than `T`, and anything but whitespace after the `T`-th line.
pub fn parse_products(input: &[u8]) -> Result<ProductInput, ParseError> {
    let mut out = ProductInput::default();
    parse_products_into(input, &mut out)?;
    Ok(out)
}

/// [`parse_products`], handing each pair to `sink` as it is read. On an error, the pairs before
/// it have been handed over: a caller that must not act on a bad input acts only once this
/// returns `Ok`.
pub fn parse_products_into(input: &[u8], sink: &mut impl ProductSink) -> Result<(), ParseError> {
    let mut c = Cursor {
        bytes: input,
        pos: 0,
        line: 1,
        line_start: 0,
    };
    c.skip_blanks();
    if input.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(ParseError::at_line(
            1,
            None,
            "expected the number of products T, found an empty input",
        ));
    }
    let t = c.number("the number of products T")?;
    let mut more = c.end_line("T")?;
    // Each product line takes at least 4 bytes ("a b\n"), so a T beyond that is an error
    // found below; reserving no more than the input can hold keeps memory bounded.
    sink.start((t as usize).min(input.len() / 4 + 1));
    for i in 0..t {
        if !more || c.bytes[c.pos..].iter().all(|b| b.is_ascii_whitespace()) {
            return Err(c.error(format!(
                "expected {t} product lines after T, found {i} (the input ends here)"
            )));
        }
        c.skip_blanks();
        let a = c.number("A")?;
        if !matches!(c.bytes.get(c.pos), Some(b' ' | b'\t')) {
            return Err(c.error(format!("expected a space and then B, found {}", c.found())));
        }
        c.skip_blanks();
        let b = c.number("B")?;
        more = c.end_line("A B")?;
        sink.pair(Nim64(a), Nim64(b));
    }
    // Only whitespace may follow.
    while let Some(&byte) = c.bytes.get(c.pos) {
        match byte {
            b' ' | b'\t' | b'\r' => c.pos += 1,
            b'\n' => {
                c.pos += 1;
                c.line += 1;
                c.line_start = c.pos;
            }
            _ => {
                return Err(c.error(format!(
                    "expected the end of the input after the {t} product lines announced by T, \
                     found {}",
                    c.found()
                )))
            }
        }
    }
    Ok(())
}

/// The eight decimal digits of `n < 10^8` as ASCII, the first digit in the lowest byte (leading
/// zeros included), by SWAR: `n` is split into two halves below `10^4` in 32-bit lanes, each
/// lane into hundreds and the rest in 16-bit lanes, each of those into tens and units in bytes.
/// A quotient by 100 of `x < 10^4` is `(x · 5243) >> 19` (exact below 43 699) and by 10 of
/// `x < 100` is `(x · 103) >> 10` (exact below 179); no lane's product reaches the next lane.
#[inline(always)]
fn eight_ascii(n: u32) -> u64 {
    let x = u64::from(n / 10_000) | u64::from(n % 10_000) << 32;
    let hundreds = ((x * 5243) >> 19) & 0x0000_007F_0000_007F;
    let x = hundreds | (x - hundreds * 100) << 16;
    let tens = ((x * 103) >> 10) & 0x000F_000F_000F_000F;
    let x = tens | (x - tens * 10) << 8;
    x | 0x3030_3030_3030_3030
}

/// Stores the eight bytes of `w` (lowest first) at `buf[at..at + 8]`.
#[inline(always)]
fn store(buf: &mut [u8], at: usize, w: u64) {
    buf[at..at + 8].copy_from_slice(&w.to_le_bytes());
}

/// Writes `n < 10^8` without leading zeros (`0` for zero) at the start of `buf` (at least 8
/// bytes); returns the number of digits. The leading zeros of [`eight_ascii`] are its low bytes
/// equal to `'0'`: their count is the trailing zero bytes of the word minus `'0'`s.
#[inline(always)]
fn write_short(buf: &mut [u8], n: u32) -> usize {
    let w = eight_ascii(n);
    let zeros = ((w ^ 0x3030_3030_3030_3030).trailing_zeros() / 8).min(7) as usize;
    store(buf, 0, w >> (8 * zeros));
    8 - zeros
}

/// Writes `x` in decimal and a newline at the start of `buf` (at least 21 bytes) as up to three
/// blocks of eight digits (`x < 2^64 < 10^20`: the first block has at most four); returns the
/// number of bytes written.
#[inline(always)]
fn write_line(buf: &mut [u8], x: u64) -> usize {
    const E8: u64 = 100_000_000;
    let n = if x < E8 {
        write_short(buf, x as u32)
    } else if x < E8 * E8 {
        let n = write_short(buf, (x / E8) as u32);
        store(buf, n, eight_ascii((x % E8) as u32));
        n + 8
    } else {
        let (top, rest) = (x / (E8 * E8), x % (E8 * E8));
        let n = write_short(buf, top as u32);
        store(buf, n, eight_ascii((rest / E8) as u32));
        store(buf, n + 8, eight_ascii((rest % E8) as u32));
        n + 16
    };
    buf[n] = b'\n';
    n + 1
}

/// Appends `x` in decimal and a newline to `out`.
pub fn push_line(out: &mut Vec<u8>, x: u64) {
    let mut buf = [0u8; 21];
    let n = write_line(&mut buf, x);
    out.extend_from_slice(&buf[..n]);
}

/// The answer: each value in decimal on its own line.
pub fn format_lines(values: &[Nim64]) -> Vec<u8> {
    let mut out = Vec::with_capacity(values.len() * 21);
    format_lines_into(values, &mut out);
    out
}

/// The longest line of the answer: 20 digits (`2^64 - 1 < 10^20`) and the newline.
pub const LINE_BYTES: usize = 21;

/// Appends each value in decimal on its own line to `out`.
pub fn format_lines_into(values: &[Nim64], out: &mut Vec<u8>) {
    // Room for the longest lines, written in place, then cut to what was written.
    let pos = out.len();
    out.resize(pos + values.len() * LINE_BYTES, 0);
    let n = format_lines_to(values, &mut out[pos..]);
    out.truncate(pos + n);
}

/// Writes each value in decimal on its own line at the start of `buf`, which must hold
/// [`LINE_BYTES`] bytes a value (a shorter one panics); returns the number of bytes written.
/// The same buffer serves chunk after chunk, with no clearing or growing in between.
pub fn format_lines_to(values: &[Nim64], buf: &mut [u8]) -> usize {
    assert!(
        buf.len() >= values.len() * LINE_BYTES,
        "room for the longest lines"
    );
    let mut pos = 0;
    for v in values {
        pos += write_line(&mut buf[pos..], v.0);
    }
    pos
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn err(input: &str) -> String {
        parse_products(input.as_bytes()).unwrap_err().to_string()
    }

    #[test]
    fn parses_library_checker_sample_and_variants() {
        let p = parse_products(b"3\n1 1\n2 2\n3 0x3\n").unwrap();
        assert_eq!(p.a, vec![Nim64(1), Nim64(2), Nim64(3)]);
        assert_eq!(p.b, vec![Nim64(1), Nim64(2), Nim64(3)]);
        let crlf = parse_products(b"2\r\n18446744073709551615 0\r\n0xFFFFFFFFFFFFFFFF 007\r\n\r\n")
            .unwrap();
        assert_eq!(crlf.a, vec![Nim64(u64::MAX), Nim64(u64::MAX)]);
        assert_eq!(crlf.b, vec![Nim64(0), Nim64(7)]);
        assert_eq!(parse_products(b"0\n").unwrap(), ProductInput::default());
        assert_eq!(parse_products(b"1\n 5\t6  ").unwrap().b, vec![Nim64(6)]);
    }

    #[test]
    fn errors_name_line_and_column() {
        assert!(err("").contains("empty input"));
        assert!(err(" \n\n").contains("empty input"));
        assert_eq!(
            err("2\n1 2\n"),
            "line 3, column 1: expected 2 product lines after T, found 1 (the input ends here)"
        );
        assert!(err("x\n").starts_with("line 1, column 1: expected the number of products T"));
        assert!(err("1\n1 2 3\n").starts_with("line 2, column 5: expected the end of the line"));
        assert!(err("1\n1\n").starts_with("line 2, column 2: expected a space and then B"));
        assert!(err("1\n1 18446744073709551616\n")
            .starts_with("line 2, column 3: B = 18446744073709551616 does not fit in 64 bits"));
        assert!(err("1\n0x10000000000000000 1\n").contains("does not fit in 64 bits"));
        assert!(err("1\n99999999999999999999 1\n").contains("does not fit"));
        assert!(err("1\n1 2\n3 4\n").starts_with("line 3, column 1: expected the end of the input"));
        assert!(err("1\n1 2x\n").starts_with("line 2, column 4: expected B"));
        assert!(err("1\n-1 2\n").starts_with("line 2, column 1: expected A"));
        assert!(err("1\n0x 2\n").starts_with("line 2, column 3: expected hexadecimal digits"));
        assert!(err("1\né 2\n").contains("found 'é'"));
        assert!(err("1\n1 2\n\n\nz").starts_with("line 5, column 1"));
        assert!(err("18446744073709551615\n1 1\n").contains("expected 18446744073709551615"));
    }

    #[test]
    fn formats_every_length() {
        let mut xs = vec![0u64, u64::MAX];
        for k in 0..20 {
            let p = 10u64.pow(k);
            xs.extend([p - 1, p, p + 1]);
        }
        let values: Vec<Nim64> = xs.iter().map(|&x| Nim64(x)).collect();
        let expect: String = xs.iter().map(|x| format!("{x}\n")).collect();
        assert_eq!(String::from_utf8(format_lines(&values)).unwrap(), expect);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn formatting_matches_display(x: u64) {
            let mut out = Vec::new();
            push_line(&mut out, x);
            prop_assert_eq!(String::from_utf8(out).unwrap(), format!("{x}\n"));
        }

        #[test]
        fn decimal_of_every_length(x: u64, y: u64, sx in 0u32..64, sy in 0u32..64, zeros in 0usize..30) {
            let (a, b) = (x >> sx, y >> sy);
            let text = format!("1\n{}{a} {b}", "0".repeat(zeros));
            let p = parse_products(text.as_bytes()).unwrap();
            prop_assert_eq!((p.a[0].0, p.b[0].0), (a, b));
            let text = format!("1\n{b} {a}\n      ");
            let p = parse_products(text.as_bytes()).unwrap();
            prop_assert_eq!((p.a[0].0, p.b[0].0), (b, a));
        }

        #[test]
        fn numbers_of_every_length_at_every_alignment(
            digits in "[1-9][0-9]{0,23}",
            pad in 0usize..9,
            at_end: bool,
        ) {
            let text = if at_end {
                format!("1\n{}7 {digits}", " ".repeat(pad))
            } else {
                format!("1\n{}{digits} 7\n", " ".repeat(pad))
            };
            let want = digits.parse::<u128>().unwrap();
            match (parse_products(text.as_bytes()), u64::try_from(want)) {
                (Ok(p), Ok(w)) => {
                    let got = if at_end { p.b[0].0 } else { p.a[0].0 };
                    prop_assert_eq!(got, w);
                }
                (Err(e), Err(_)) => prop_assert!(e.to_string().contains("does not fit"), "{}", e),
                (got, _) => prop_assert!(false, "{digits}: {:?}", got),
            }
        }

        #[test]
        fn round_trip(pairs in proptest::collection::vec((any::<u64>(), any::<u64>()), 0..20)) {
            let mut text = format!("{}\n", pairs.len());
            for (a, b) in &pairs {
                text.push_str(&format!("{a} {b:#x}\n"));
            }
            let p = parse_products(text.as_bytes()).unwrap();
            prop_assert_eq!(p.a, pairs.iter().map(|x| Nim64(x.0)).collect::<Vec<_>>());
            prop_assert_eq!(p.b, pairs.iter().map(|x| Nim64(x.1)).collect::<Vec<_>>());
        }

        /// One buffer serves chunk after chunk: what an earlier, longer chunk left in it never
        /// shows in the bytes a later chunk reports written.
        #[test]
        fn a_reused_buffer_holds_each_chunk_alone(
            chunks in proptest::collection::vec(
                proptest::collection::vec(any::<u64>().prop_map(|x| x >> (x % 64)), 0..12),
                1..5,
            ),
        ) {
            let mut buf = vec![b'9'; 12 * LINE_BYTES];
            for chunk in &chunks {
                let values: Vec<Nim64> = chunk.iter().map(|&x| Nim64(x)).collect();
                let n = format_lines_to(&values, &mut buf);
                let want: String = chunk.iter().map(|x| format!("{x}\n")).collect();
                prop_assert_eq!(std::str::from_utf8(&buf[..n]).unwrap(), want);
            }
        }
    }
}
