//! The distributed solvers against the one-process ones, on ranks as threads: the same lines in
//! the same order, the same first error.

use super::order::{for_each, Line};
use super::{loopy, retrograde, threads, Bsp};
use crate::control::Control;
use crate::error::Result;
use crate::notation::graph::{parse_graph, GraphFormat};
use crate::notation::graph_ranks::{line_range, read};
use crate::solve::{loopy as one_loopy, outcome, Play};
use proptest::prelude::*;

/// The one-process answer: every vertex in order of first appearance.
fn one_process(text: &str, format: GraphFormat, play: Play) -> Result<Vec<Line>> {
    let p = parse_graph(text.as_bytes(), format, &crate::control::Control::none())?;
    let o = outcome::solve(&p.graph, play, &Control::none())?;
    let v = match play {
        Play::Normal => Some(one_loopy::solve(&p.graph, &Control::none())?),
        Play::Misere => None,
    };
    Ok((0..p.graph.vertex_count() as u32)
        .map(|i| Line {
            name: p.names.get(i).into(),
            outcome: o.outcome(i),
            remoteness: o.remoteness(i).map(u64::from),
            value: v.as_ref().map(|v| v.value(&p.graph, i)),
        })
        .collect())
}

/// This rank's part of the graph `text`, read from its own line range.
fn read_part<C: super::Comm + ?Sized>(
    bsp: &Bsp<'_, C>,
    text: &str,
    format: GraphFormat,
) -> Result<super::graph::GraphPart> {
    let bytes = text.as_bytes();
    let mut file = std::io::Cursor::new(bytes);
    let (start, end) =
        line_range(&mut file, bytes.len() as u64, bsp.rank(), bsp.size()).expect("a cursor reads");
    read(bsp, &bytes[start as usize..end as usize], start, format)
}

/// The answer of `ranks` ranks, each reading its own line range of `text`, at rank 0 (every
/// rank must return the same error).
pub(crate) fn distributed(
    text: &str,
    format: GraphFormat,
    play: Play,
    ranks: usize,
) -> Result<Vec<Line>> {
    let results = threads::run(ranks, |c| {
        let ctl = Control::none();
        let bsp = Bsp::new(c, &ctl);
        let part = read_part(&bsp, text, format)?;
        let o = retrograde::solve(&bsp, &part, play)?;
        let v = match play {
            Play::Normal => Some(loopy::solve(&bsp, &part)?),
            Play::Misere => None,
        };
        let mut lines = Vec::new();
        for_each(&bsp, &part, &o, v.as_ref(), |l| {
            lines.push(l);
            Ok(())
        })?;
        Ok(lines)
    });
    let mut results = results.into_iter();
    let first = results.next().expect("one rank at least");
    for other in results {
        match (&first, other) {
            (Ok(_), Ok(l)) => assert!(l.is_empty(), "only rank 0 writes"),
            (Err(a), Err(b)) => assert_eq!(a, &b, "every rank returns the same error"),
            (a, b) => panic!("ranks disagree: {a:?} / {b:?}"),
        }
    }
    first
}

/// A graph file of `n` vertices and the arcs in either format: adjacency lines in a shuffled
/// order (some vertices unlisted), with comments, blank lines and CRLF ends.
fn file_text(n: usize, arcs: &[(u32, u32)], format: GraphFormat, seed: u64) -> String {
    let mut x = seed | 1;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut text = String::new();
    match format {
        GraphFormat::Arcs => {
            for &(u, v) in arcs {
                // Numbers spread so that some are large; one written in hex.
                let name = |w: u32| u64::from(w) * 1_000_003 % 977 + u64::from(w) * 1000;
                if next() % 9 == 0 {
                    text.push_str(&format!("0x{:x} {}\n", name(u), name(v)));
                } else {
                    text.push_str(&format!("{} {}\n", name(u), name(v)));
                }
                if next() % 13 == 0 {
                    text.push_str("# a comment\n\n");
                }
            }
        }
        _ => {
            let mut options = vec![Vec::new(); n];
            for &(u, v) in arcs {
                options[u as usize].push(v);
            }
            let mut order: Vec<usize> = (0..n).collect();
            for i in (1..n).rev() {
                order.swap(i, (next() % (i as u64 + 1)) as usize);
            }
            for u in order {
                if options[u].is_empty() && next() % 3 == 0 {
                    continue;
                }
                let w: Vec<String> = options[u].iter().map(|v| format!("v{v}")).collect();
                let end = if next() % 5 == 0 { "\r\n" } else { "\n" };
                text.push_str(&format!("v{u}: {}{end}", w.join(" ")));
                if next() % 11 == 0 {
                    text.push_str("  # note\n\n");
                }
            }
        }
    }
    text
}

#[test]
fn hand_graph_with_cycles_matches() {
    let text = "a: b\nb: c\nc: a d\nd: e\nloop: loop e\n";
    for ranks in 1..=4 {
        for play in [Play::Normal, Play::Misere] {
            assert_eq!(
                distributed(text, GraphFormat::Adjacency, play, ranks),
                one_process(text, GraphFormat::Adjacency, play)
            );
        }
    }
    assert_eq!(
        distributed("", GraphFormat::Adjacency, Play::Normal, 3),
        Ok(Vec::new())
    );
}

/// The outcomes saved as bytes come back equal, and the values resumed from the state after a
/// stage are the values of a run never stopped, on every rank.
#[test]
fn checkpoints_of_outcomes_and_values_resume_to_the_same_answer() {
    use crate::error::Error;
    let text = "a: b c f\nb: a\nc: d g\nd: e\nf: g h\ng: h\nloop: loop e\nx: a b c d e f g h\n";
    for ranks in 1..=4 {
        let ok = threads::run(ranks, |c| {
            let ctl = Control::none();
            let bsp = Bsp::new(c, &ctl);
            let part = read_part(&bsp, text, GraphFormat::Adjacency).unwrap();
            let o = retrograde::solve(&bsp, &part, Play::Normal).unwrap();
            let back =
                retrograde::PartOutcomes::from_bytes(&o.to_bytes(), Play::Normal, part.len());
            assert_eq!(back.as_ref(), Ok(&o));
            let want = loopy::solve(&bsp, &part).unwrap();
            let mut stages = 0;
            for cut in 1.. {
                let mut saved = None;
                let stopped = loopy::solve_from(&bsp, &part, None, &mut |s, committed| {
                    if committed && s.next() == cut {
                        saved = Some(s.to_bytes());
                        return Err(Error::Cancelled(crate::error::Interruption::Token));
                    }
                    Ok(())
                });
                let Some(saved) = saved else {
                    assert_eq!(stopped.as_ref(), Ok(&want));
                    break;
                };
                assert!(matches!(stopped, Err(Error::Cancelled(_))));
                let from = loopy::Stage::from_bytes(&saved, part.len()).unwrap();
                let resumed =
                    loopy::solve_from(&bsp, &part, Some(from), &mut |_, _| Ok(())).unwrap();
                assert_eq!(resumed, want, "resumed after stage {cut}");
                stages += 1;
            }
            stages
        });
        // Values 0, 1, 2 and ∞: stages to cut after.
        assert!(ok.iter().all(|&s| s >= 3), "{ok:?}");
    }
}

#[test]
fn first_error_of_the_file_wins() {
    let cases = [
        // A syntax error on a later line than a vertex listed twice, in another rank's range.
        "a: b\nb: c\nc: a\nd: e\na: d\nx: y\ny: z\nz: q\nq: r\nr: !\n",
        // The reverse: the syntax error comes first.
        "a: b\nb c\nc: a\nd: e\ne: f\nf: g\ng: h\nh: i\ni: j\na: j\n",
        // An error in the options and a relisting on the same line: the relisting first.
        "a: b\nb: c\nc: d\nd: e\ne: f\nf: g\ng: h\nh: i\ni: j\na: $\n",
        // Invalid UTF-8 far after a syntax error: reported first, as a whole-file check.
        "a: b\nb c\nc: a\nd: e\ne: f\nf: g\ng: h\nh: i\ni: j\nj: \u{FFFF}k\n",
        // Three listings of one vertex: the error is at the second.
        "a: b\nb: c\na: c\nc: d\nd: e\na: e\n",
    ];
    for text in cases {
        for ranks in 1..=4 {
            let want = one_process(text, GraphFormat::Adjacency, Play::Normal);
            assert!(want.is_err());
            assert_eq!(
                distributed(text, GraphFormat::Adjacency, Play::Normal, ranks),
                want
            );
        }
    }
    // A NUL byte comes before everything, invalid UTF-8 before the lines.
    let mut bytes = b"a: b\nb c\nc: a\nd: \xff\ne: f\nf: g\ng: h\nh: i\n".to_vec();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    assert!(text.contains('\u{FFFD}'));
    bytes.push(0);
    let arcs = "1 2\n2 3\n3 x\n4 5\n5 6\n6 7 8\n";
    for ranks in 1..=4 {
        let want = one_process(arcs, GraphFormat::Arcs, Play::Normal);
        assert!(want.is_err());
        assert_eq!(
            distributed(arcs, GraphFormat::Arcs, Play::Normal, ranks),
            want
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn ranks_answer_as_one_process(
        (n, arcs) in crate::solve::tests_support::random_graph(40, 90),
        ranks in 1usize..=4,
        seed in any::<u64>(),
        misere in any::<bool>(),
        edges in any::<bool>(),
    ) {
        let format = if edges { GraphFormat::Arcs } else { GraphFormat::Adjacency };
        let play = if misere { Play::Misere } else { Play::Normal };
        let text = file_text(n, &arcs, format, seed);
        let want = one_process(&text, format, play).unwrap();
        prop_assert_eq!(distributed(&text, format, play, ranks).unwrap(), want);
    }

    #[test]
    fn ranks_report_the_first_error_as_one_process(
        (n, arcs) in crate::solve::tests_support::random_graph(30, 60),
        ranks in 2usize..=4,
        seed in any::<u64>(),
        bad_line in any::<prop::sample::Index>(),
        kind in 0usize..4,
    ) {
        let text = file_text(n, &arcs, GraphFormat::Adjacency, seed);
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        if lines.is_empty() {
            return Ok(());
        }
        let at = bad_line.index(lines.len());
        let first_listed = lines.iter().find(|l| l.contains(':') && !l.trim_start().starts_with('#')).cloned();
        match (kind, first_listed) {
            (0, _) => lines.insert(at, "x y".into()),
            (1, Some(l)) => lines.insert(at, l),
            (2, _) => lines[at].push_str(" b@d"),
            _ => lines.insert(at, "é: \u{1F600}".into()),
        }
        let text = lines.join("\n");
        let want = one_process(&text, GraphFormat::Adjacency, Play::Normal);
        prop_assert_eq!(distributed(&text, GraphFormat::Adjacency, Play::Normal, ranks), want);
    }
}
