//! Parsing and printing of the notations fixed by the specification: numbers, games, ordinals
//! and graph files. Every parser returns a [`ParseError`](crate::ParseError) naming the column
//! (and line, for files) at fault and what was expected there.

pub mod board;
pub mod game;
pub mod graph;
pub mod graph_ranks;
pub mod number;
pub mod ordinal;

/// The number of single-character insertions, deletions and substitutions that turn `a` into
/// `b` (Levenshtein distance), by the usual dynamic programme over prefixes: `d[i][j]`, the
/// distance between the first `i` characters of `a` and the first `j` of `b`, is the least of
/// `d[i-1][j] + 1`, `d[i][j-1] + 1` and `d[i-1][j-1] + [a_i != b_j]`; one row is kept.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitute = diagonal + usize::from(ca != *cb);
            diagonal = row[j + 1];
            row[j + 1] = substitute.min(row[j] + 1).min(diagonal + 1);
        }
    }
    row[b.len()]
}

/// The known name nearest to an unknown `given` one, when it is close enough to be a typing
/// slip: one or two edits, and fewer edits than `given` has characters (so that `x` does not
/// suggest `nim`). Compared in lower case, as names are read.
///
/// ```
/// use grundy::notation::suggestion;
/// assert_eq!(suggestion("kayls", &["nim", "kayles"]), Some("kayles"));
/// assert_eq!(suggestion("sq", &["seq", "position"]), Some("seq"));
/// assert_eq!(suggestion("xyz", &["nim", "kayles"]), None);
/// ```
pub fn suggestion<'a>(given: &str, known: &[&'a str]) -> Option<&'a str> {
    let given = given.to_ascii_lowercase();
    known
        .iter()
        .map(|k| (edit_distance(&given, k), *k))
        .filter(|&(d, _)| (1..=2).contains(&d) && d < given.chars().count())
        .min_by_key(|&(d, _)| d)
        .map(|(_, k)| k)
}

/// The message about an unknown game name or kind: what was given, the known name nearest to
/// it if there is one, and everything the notation accepts.
pub(crate) fn unknown_name(what: &str, given: &str, known: &[&str], accepted: &str) -> String {
    match suggestion(given, known) {
        Some(k) => format!("unknown {what} {given:?}: did you mean {k}? (expected {accepted})"),
        None => format!("unknown {what} {given:?}: expected {accepted}"),
    }
}

#[cfg(test)]
mod tests {
    use super::{edit_distance, suggestion};

    /// The distance from its definition: the least number of edits over every alignment,
    /// by brute-force recursion on the last characters.
    fn slow(a: &[char], b: &[char]) -> usize {
        match (a.split_last(), b.split_last()) {
            (None, _) => b.len(),
            (_, None) => a.len(),
            (Some((x, ra)), Some((y, rb))) => (slow(ra, b) + 1)
                .min(slow(a, rb) + 1)
                .min(slow(ra, rb) + usize::from(x != y)),
        }
    }

    #[test]
    fn edit_distance_matches_the_definition() {
        let words = [
            "", "a", "ab", "ba", "kayles", "kayls", "nim", "mni", "seq", "sq", "octal",
        ];
        for a in words {
            for b in words {
                let (ca, cb): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
                assert_eq!(edit_distance(a, b), slow(&ca, &cb), "{a} {b}");
            }
        }
    }

    #[test]
    fn suggestions_are_near_and_never_arbitrary() {
        let known = ["nim", "kayles", "dawsons-kayles", "officers"];
        assert_eq!(suggestion("kayls", &known), Some("kayles"));
        assert_eq!(suggestion("Kayls", &known), Some("kayles"));
        assert_eq!(suggestion("kayles", &known), None);
        assert_eq!(suggestion("dawson-kayles", &known), Some("dawsons-kayles"));
        assert_eq!(suggestion("x", &known), None);
        assert_eq!(suggestion("chess", &known), None);
    }
}
