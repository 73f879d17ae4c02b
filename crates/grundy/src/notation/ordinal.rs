//! The ordinal notation of the specification: Cantor normal form with `w` for ω.
//!
//! Canonical output (printed by [`Ordinal`]'s `Display`): `w^(w^2*3+1)*2+w^2*5+w+7` — terms in
//! decreasing order, a coefficient after its power following `*`, an exponent in parentheses
//! unless it is a plain natural number, `0` for zero.
//!
//! Input is wider, and is *evaluated with ordinal arithmetic*, so every reading has one meaning:
//!
//! ```text
//! expr   := prod ('+' prod)*          ordinal sum, left to right (not commutative: 1+w = w)
//! prod   := factor ('*' factor)*      ordinal product, left to right (2*w = w, w*2 = w+w)
//! factor := NATURAL | power | '(' expr ')'
//! power  := ('w' | 'ω') ['^' atom]   ω^atom
//! atom   := NATURAL | 'w' | 'ω' | '(' expr ')'
//! ```
//!
//! NATURAL is decimal or `0x` hexadecimal of any size. Spaces are ignored. So `w+w` reads as
//! `w*2`, `3+w` as `w`, `w^w` as `w^(w)`. Parentheses may nest at most [`MAX_DEPTH`] deep, and
//! the left factor of a product may have at most [`MAX_PRODUCT_TERMS`] terms.

use crate::checksum::fnv1a;
use crate::error::ParseError;
use crate::notation::number::{parse_natural, parse_u64};
use crate::ordinal::excess::{CacheLoad, CachedExcess};
use crate::ordinal::nim_mul::{ClosureField, Coefficient};
use crate::ordinal::Ordinal;
use num_bigint::BigUint;

/// The deepest nesting of parentheses accepted (deeper input is an error, not a stack overflow).
pub const MAX_DEPTH: usize = 200;

/// The most terms the left factor of a product `α*β` may have (the product copies them, so a
/// long chain `(w+1)*(w+1)*...` would otherwise take quadratic time).
pub const MAX_PRODUCT_TERMS: usize = 4096;

/// Parses an ordinal; errors name the 1-based column and what was expected.
pub fn parse_ordinal(s: &str) -> Result<Ordinal, ParseError> {
    let chars: Vec<char> = s.chars().collect();
    let mut p = Parser { s: &chars, pos: 0 };
    p.skip_spaces();
    if p.peek().is_none() {
        return Err(ParseError::at_column(
            1,
            "expected an ordinal such as w^2*3+w+1, found nothing",
        ));
    }
    let x = p.expr(0)?;
    p.skip_spaces();
    if let Some(c) = p.peek() {
        return Err(p.error(format!("expected '+', '*' or the end, found {c:?}")));
    }
    Ok(x)
}

struct Parser<'a> {
    s: &'a [char],
    pos: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.s.get(self.pos).copied()
    }

    fn skip_spaces(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }

    fn error(&self, message: String) -> ParseError {
        ParseError::at_column(self.pos + 1, message)
    }

    fn found(&self) -> String {
        match self.peek() {
            Some(c) => format!("{c:?}"),
            None => "the end".to_string(),
        }
    }

    /// Consumes `c` (after spaces) if it is next.
    fn eat(&mut self, c: char) -> bool {
        self.skip_spaces();
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expr(&mut self, depth: usize) -> Result<Ordinal, ParseError> {
        let mut x = self.prod(depth)?;
        while self.eat('+') {
            x.add_assign(&self.prod(depth)?);
        }
        Ok(x)
    }

    fn prod(&mut self, depth: usize) -> Result<Ordinal, ParseError> {
        let mut x = self.factor(depth, false)?;
        while self.eat('*') {
            // α·β copies α's lower terms: bound α so that a long product stays fast.
            if x.terms().len() > MAX_PRODUCT_TERMS {
                return Err(self.error(format!(
                    "the left factor of this product has more than {MAX_PRODUCT_TERMS} terms \
                     (limit of the notation)"
                )));
            }
            x = x.mul(&self.factor(depth, false)?);
        }
        Ok(x)
    }

    /// A factor; in an exponent (`atom`) a power `w` takes no exponent of its own.
    fn factor(&mut self, depth: usize, atom: bool) -> Result<Ordinal, ParseError> {
        self.skip_spaces();
        match self.peek() {
            Some('w' | 'ω') => {
                self.pos += 1;
                if !atom && self.eat('^') {
                    let e = self.factor(depth, true)?;
                    Ok(Ordinal::omega_pow(e))
                } else {
                    Ok(Ordinal::omega())
                }
            }
            Some('(') => {
                if depth >= MAX_DEPTH {
                    return Err(
                        self.error(format!("parentheses nested deeper than {MAX_DEPTH} levels"))
                    );
                }
                self.pos += 1;
                let x = self.expr(depth + 1)?;
                if !self.eat(')') {
                    return Err(self.error(format!("expected ')' or '+', found {}", self.found())));
                }
                Ok(x)
            }
            Some(c) if c.is_ascii_digit() => {
                let start = self.pos;
                while self.peek().is_some_and(|c| c.is_ascii_alphanumeric()) {
                    self.pos += 1;
                }
                let text: String = self.s[start..self.pos].iter().collect();
                parse_natural(&text)
                    .map(Ordinal::from_natural)
                    .map_err(|e| {
                        let col = e.at.column.unwrap_or(1);
                        ParseError::at_column(start + col, e.message)
                    })
            }
            _ => Err(self.error(format!(
                "expected {}, found {}",
                if atom {
                    "an exponent (a natural number, w, or an ordinal in parentheses)"
                } else {
                    "a natural number, w, or '('"
                },
                self.found()
            ))),
        }
    }
}

/// Parses a cascading-nim row `a_n,...,a_0` (comma-separated naturals, leftmost the highest
/// power); errors name the column.
pub fn parse_row(s: &str) -> Result<Vec<BigUint>, ParseError> {
    let mut out = Vec::new();
    let mut col = 1;
    for part in s.split(',') {
        let n = parse_natural(part.trim()).map_err(|e| {
            let inner = e.at.column.unwrap_or(1) - 1;
            let lead = part.len() - part.trim_start().len();
            ParseError::at_column(col + lead + inner, e.message)
        })?;
        out.push(n);
        col += part.chars().count() + 1;
    }
    Ok(out)
}

/// Parses a heap of nim with increases: `N` or `N:T` (a heap of N with T increase tokens,
/// T below 2^64; T defaults to 0).
pub fn parse_token_heap(s: &str) -> Result<(BigUint, u64), ParseError> {
    let (n, t) = match s.split_once(':') {
        Some((n, t)) => (n, Some(t)),
        None => (s, None),
    };
    let heap = parse_natural(n)?;
    let tokens = match t {
        None => 0,
        Some(t) => parse_u64(t).map_err(|e| {
            ParseError::at_column(n.chars().count() + 1 + e.at.column.unwrap_or(1), e.message)
        })?,
    };
    Ok((heap, tokens))
}

/// Parses a matrix of naturals: one row a line, entries separated by spaces or tabs; blank
/// lines and lines starting with `#` are skipped. All rows must have the same length.
pub fn parse_matrix(text: &str) -> Result<Vec<Vec<BigUint>>, ParseError> {
    let mut rows: Vec<Vec<BigUint>> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let mut row = Vec::new();
        for (col, word) in words(line) {
            let n = parse_natural(word).map_err(|e| {
                ParseError::at_line(i + 1, Some(col + e.at.column.unwrap_or(1) - 1), e.message)
            })?;
            row.push(n);
        }
        if let Some(first) = rows.first() {
            if first.len() != row.len() {
                return Err(ParseError::at_line(
                    i + 1,
                    None,
                    format!(
                        "expected {} entries like the first row, found {}",
                        first.len(),
                        row.len()
                    ),
                ));
            }
        }
        rows.push(row);
    }
    if rows.is_empty() {
        return Err(ParseError::whole(
            "expected a matrix (rows of naturals), found no row",
        ));
    }
    Ok(rows)
}

/// The whitespace-separated words of a line with their 1-based starting columns (in
/// characters), in one pass: linear in the line's length, however many words it has.
fn words(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    // The current word's starting column and byte offset.
    let mut start: Option<(usize, usize)> = None;
    for (col, (b, c)) in line.char_indices().enumerate() {
        if c.is_whitespace() {
            if let Some((word_col, word_start)) = start.take() {
                out.push((word_col, &line[word_start..b]));
            }
        } else if start.is_none() {
            start = Some((col + 1, b));
        }
    }
    if let Some((word_col, word_start)) = start {
        out.push((word_col, &line[word_start..]));
    }
    out
}

fn col_of(line: &str, byte: usize) -> usize {
    line[..byte].chars().count() + 1
}

/// A DAG with a heap on each vertex, read from a heap-graph file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeapGraph {
    /// Vertex names, in order of first appearance.
    pub names: Vec<String>,
    /// Successors of each vertex (indices into `names`).
    pub succ: Vec<Vec<usize>>,
    /// The heap on each vertex (0 unless given).
    pub heaps: Vec<BigUint>,
}

/// Parses a heap-graph file: each non-blank line not starting with `#` is
/// `V[=HEAP][: W1 W2 ...]` — vertex V, its heap (default 0) and its successors. Names are runs
/// of letters, digits, `_`, `.`, `-` (as in the SPEC's graph files). A vertex named only as a
/// successor has heap 0 and no successors; a vertex may be listed once.
pub fn parse_heap_graph(text: &str) -> Result<HeapGraph, ParseError> {
    let mut g = HeapGraph {
        names: Vec::new(),
        succ: Vec::new(),
        heaps: Vec::new(),
    };
    let mut index: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut listed: Vec<bool> = Vec::new();
    let mut id = |name: &str, g: &mut HeapGraph, listed: &mut Vec<bool>| -> usize {
        if let Some(&i) = index.get(name) {
            return i;
        }
        index.insert(name.to_string(), g.names.len());
        g.names.push(name.to_string());
        g.succ.push(Vec::new());
        g.heaps.push(BigUint::default());
        listed.push(false);
        g.names.len() - 1
    };
    let is_name = |c: char| c.is_alphanumeric() || matches!(c, '_' | '.' | '-');
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let (head, tail) = match line.split_once(':') {
            Some((h, t)) => (h, Some((h.chars().count() + 1, t))),
            None => (line, None),
        };
        let (name_part, heap_part) = match head.split_once('=') {
            Some((n, h)) => (n, Some((n.chars().count() + 1, h))),
            None => (head, None),
        };
        let name = name_part.trim();
        let name_col = col_of(name_part, name_part.len() - name_part.trim_start().len());
        if name.is_empty() {
            return Err(ParseError::at_line(
                line_no,
                Some(name_col),
                "expected a vertex name",
            ));
        }
        if let Some((k, c)) = name.chars().enumerate().find(|&(_, c)| !is_name(c)) {
            return Err(ParseError::at_line(
                line_no,
                Some(name_col + k),
                format!(
                    "expected a name character (letter, digit, _ . -) or '=' or ':', found {c:?}"
                ),
            ));
        }
        let v = id(name, &mut g, &mut listed);
        if listed[v] {
            return Err(ParseError::at_line(
                line_no,
                Some(name_col),
                format!("vertex {name} is listed twice"),
            ));
        }
        listed[v] = true;
        if let Some((eq_col, h)) = heap_part {
            let lead = h.len() - h.trim_start().len();
            g.heaps[v] = parse_natural(h.trim()).map_err(|e| {
                ParseError::at_line(
                    line_no,
                    Some(eq_col + lead + e.at.column.unwrap_or(1)),
                    format!("heap of {name}: {}", e.message),
                )
            })?;
        }
        if let Some((colon_col, t)) = tail {
            for (col, w) in words(t) {
                if let Some((k, c)) = w.chars().enumerate().find(|&(_, c)| !is_name(c)) {
                    return Err(ParseError::at_line(
                        line_no,
                        Some(colon_col + col + k),
                        format!("expected a successor name, found {c:?}"),
                    ));
                }
                let u = id(w, &mut g, &mut listed);
                g.succ[v].push(u);
            }
        }
    }
    if g.names.is_empty() {
        return Err(ParseError::whole(
            "expected at least one vertex line `V=HEAP: W1 W2`",
        ));
    }
    Ok(g)
}

/// Reads the text of an excess cache (written by [`ClosureField::excesses_to_tsv`]): the entries
/// whose checksum matches their fields and whose fields read as numbers and an ordinal, and the
/// number of the other lines that are not comments. The entries are checked against the field
/// only when loaded ([`ClosureField::load_excesses`]).
pub fn read_excess_cache(text: &str) -> (Vec<CachedExcess>, usize) {
    let mut entries = Vec::new();
    let mut unreadable = 0;
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        match read_excess_line(line) {
            Some(e) => entries.push(e),
            None => unreadable += 1,
        }
    }
    (entries, unreadable)
}

/// One line `p<TAB>m<TAB>f<TAB>field degree<TAB>α_p<TAB>checksum`, if the checksum matches.
fn read_excess_line(line: &str) -> Option<CachedExcess> {
    let (fields, sum) = line.rsplit_once('\t')?;
    if sum.len() != 16 || u64::from_str_radix(sum, 16).ok()? != fnv1a(fields.as_bytes()) {
        return None;
    }
    let cols: Vec<&str> = fields.split('\t').collect();
    let [p, m, f, degree, alpha] = cols[..] else {
        return None;
    };
    Some(CachedExcess {
        p: p.parse().ok()?,
        m: m.parse().ok()?,
        f: f.parse().ok()?,
        field_degree: degree.parse().ok()?,
        alpha: parse_ordinal(alpha).ok()?,
    })
}

/// Loads the excesses of a cache's text into `field`: [`read_excess_cache`], then
/// [`ClosureField::load_excesses`].
pub fn load_excess_cache<C: Coefficient>(field: &mut ClosureField<C>, text: &str) -> CacheLoad {
    let (entries, unreadable) = read_excess_cache(text);
    field.load_excesses(entries, unreadable)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ordinal::cnf::tests::arb_ordinal;
    use proptest::prelude::*;

    fn p(s: &str) -> String {
        parse_ordinal(s).unwrap().to_string()
    }

    #[test]
    fn canonical_examples() {
        for s in [
            "0",
            "1",
            "w",
            "w+7",
            "w^2*5+w+7",
            "w^(w^2*3+1)*2+w^2*5+w+7",
            "w^(w)",
            "w^(w^(w))*3+w^(w+1)+w^18446744073709551616*340282366920938463463374607431768211457",
        ] {
            assert_eq!(p(s), s);
        }
    }

    #[test]
    fn non_canonical_input_is_evaluated() {
        assert_eq!(p("w+w"), "w*2");
        assert_eq!(p("3+w"), "w");
        assert_eq!(p("1+w"), "w");
        assert_eq!(p("w+3+w^2"), "w^2");
        assert_eq!(p("2*w"), "w");
        assert_eq!(p("w*2*3"), "w*6");
        assert_eq!(p("(w+1)*2"), "w*2+1");
        assert_eq!(p("(w+1)*w"), "w^2");
        assert_eq!(p("w^w"), "w^(w)");
        assert_eq!(p("w^0*5"), "5");
        assert_eq!(p(" w ^ 2 * 0 + 0x10 "), "16");
        assert_eq!(p("ω^(ω+1)"), "w^(w+1)");
        assert_eq!(p("w^1"), "w");
    }

    #[test]
    fn errors_name_the_column() {
        let cases = [
            ("", 1, "found nothing"),
            ("w+", 3, "expected a natural number"),
            ("w^", 3, "an exponent"),
            ("w^(w+1", 7, "expected ')'"),
            ("w*x", 3, "found 'x'"),
            ("w^2^3", 4, "expected '+', '*' or the end"),
            ("12a", 3, "decimal digit"),
            ("w+0xz", 5, "hexadecimal"),
            ("w)", 2, "found ')'"),
            ("-1", 1, "found '-'"),
        ];
        for (s, col, what) in cases {
            let e = parse_ordinal(s).unwrap_err();
            assert_eq!(e.at.column, Some(col), "{s}: {e}");
            assert!(e.message.contains(what), "{s}: {e}");
        }
        let deep = format!("{}1{}", "(".repeat(5000), ")".repeat(5000));
        assert!(parse_ordinal(&deep)
            .unwrap_err()
            .message
            .contains("nested deeper"));
        let chain = "(w+1)*".repeat(5000) + "1";
        assert!(parse_ordinal(&chain)
            .unwrap_err()
            .message
            .contains("more than 4096 terms"));
        let long: String = (0..20000)
            .rev()
            .map(|e| format!("w^{e}"))
            .collect::<Vec<_>>()
            .join("+");
        assert_eq!(parse_ordinal(&long).unwrap().terms().len(), 20000);
        let deep_w = "w^(".repeat(5000);
        assert!(parse_ordinal(&deep_w).is_err());
    }

    #[test]
    fn rows_heaps_matrices_graphs() {
        let n = |v: &[u64]| v.iter().map(|&x| BigUint::from(x)).collect::<Vec<_>>();
        assert_eq!(parse_row("1,0,0x10").unwrap(), n(&[1, 0, 16]));
        assert_eq!(parse_row("7").unwrap(), n(&[7]));
        assert_eq!(parse_row("1,x").unwrap_err().at.column, Some(3));
        assert_eq!(parse_row("12,3a").unwrap_err().at.column, Some(5));
        assert_eq!(parse_row("1,,2").unwrap_err().at.column, Some(3));
        assert_eq!(parse_token_heap("5:2").unwrap(), (BigUint::from(5u8), 2));
        assert_eq!(parse_token_heap("5").unwrap(), (BigUint::from(5u8), 0));
        assert_eq!(parse_token_heap("5:x").unwrap_err().at.column, Some(3));
        assert_eq!(
            parse_matrix("1 2\n# c\n\n3  4\n").unwrap(),
            vec![n(&[1, 2]), n(&[3, 4])]
        );
        let e = parse_matrix("1 2\n3 x4").unwrap_err();
        assert_eq!((e.at.line, e.at.column), (Some(2), Some(3)));
        let e = parse_matrix("1 2\n3").unwrap_err();
        assert_eq!(e.at.line, Some(2));
        assert!(parse_matrix("# only a comment").is_err());
        let g = parse_heap_graph("a=3: b c\nb = 5 : c\n# x\nc\n").unwrap();
        assert_eq!(g.names, ["a", "b", "c"]);
        assert_eq!(g.succ, vec![vec![1, 2], vec![2], vec![]]);
        assert_eq!(g.heaps, n(&[3, 5, 0]));
        let e = parse_heap_graph("a=3: b\nb=x").unwrap_err();
        assert_eq!((e.at.line, e.at.column), (Some(2), Some(3)));
        let e = parse_heap_graph("a: b!").unwrap_err();
        assert_eq!((e.at.line, e.at.column), (Some(1), Some(5)));
        let e = parse_heap_graph("a: b\na=1").unwrap_err();
        assert!(e.message.contains("twice"));
        assert!(parse_heap_graph("").is_err());
    }

    /// The words of a line with columns found the slow way: each word's column counted from the
    /// start of the line.
    fn words_by_recounting(line: &str) -> Vec<(usize, &str)> {
        let mut out = Vec::new();
        let mut rest = line;
        while let Some(i) = rest.find(|c: char| !c.is_whitespace()) {
            let word_start = line.len() - rest.len() + i;
            let tail = &line[word_start..];
            let end = tail.find(char::is_whitespace).unwrap_or(tail.len());
            out.push((col_of(line, word_start), &tail[..end]));
            rest = &tail[end..];
        }
        out
    }

    /// A matrix row of 200,000 entries and a vertex with 200,000 successors (inputs whose words
    /// were once located by recounting the line for each word): every entry read, and an error
    /// in the last word names its column.
    #[test]
    fn wide_rows_and_long_successor_lists() {
        let w = 200_000usize;
        let row: Vec<String> = (0..w).map(|i| (i % 10).to_string()).collect();
        let rows = parse_matrix(&row.join(" ")).unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].len(), w);
        assert_eq!(rows[0][w - 1], BigUint::from((w - 1) as u64 % 10));
        let bad = format!("{} x", row.join(" "));
        let e = parse_matrix(&bad).unwrap_err();
        assert_eq!(e.at.column, Some(2 * w + 1));

        let names: Vec<String> = (0..w).map(|i| format!("v{i}")).collect();
        let text = format!("a=1: {}\n", names.join(" "));
        let g = parse_heap_graph(&text).unwrap();
        assert_eq!(g.names.len(), w + 1);
        assert_eq!(g.succ[0].len(), w);
        assert_eq!(g.succ[0][w - 1], w);
        let e = parse_heap_graph(&format!("a=1: {} b!", names.join(" "))).unwrap_err();
        // "a=1: " is 5 characters; the names and their spaces follow, then "b!".
        let names_len: usize = names.iter().map(|n| n.len() + 1).sum();
        assert_eq!(e.at.column, Some(5 + names_len + 2));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn print_parse_round_trip(a in arb_ordinal(3)) {
            let s = a.to_string();
            prop_assert_eq!(parse_ordinal(&s).unwrap(), a);
        }

        #[test]
        fn words_match_recounting(line in "[ a\\t\u{e9}\u{3000}b\u{1F600}]{0,24}") {
            prop_assert_eq!(words(&line), words_by_recounting(&line));
        }

        #[test]
        fn garbage_never_panics(s in "[w0-9()^*+ x]{0,20}") {
            let _ = parse_ordinal(&s);
        }
    }
}
