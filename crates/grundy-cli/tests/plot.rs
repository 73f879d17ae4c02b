//! `--plot FILE.svg` on `grundy seq` and `grundy analyze`: the SVG is well-formed XML, holds one
//! point per value placed at the value printed on stdout, and marks the period (or the runs) at
//! the right n; bad paths and extensions exit with status 2.
//!
//! The pixel position of heap n is read off the plotted points themselves (their x is linear in
//! n), so the markers are checked against the points, independently of the plotting library's
//! layout.

use assert_cmd::Command;
use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;
use std::path::PathBuf;

fn grundy() -> Command {
    Command::cargo_bin("grundy").unwrap()
}

/// A fresh path in the test's scratch directory.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("plot-tests");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

const POINT: &str = "#1F77B4";
const PERIOD: &str = "#D62728";
const RUN: &str = "#2CA02C";
const PREPERIOD: &str = "#FF7F0E";

/// What a plot holds: data points (cx, cy) in drawing order, vertical marker lines by colour,
/// filled rectangles by colour, and all text.
struct Svg {
    points: Vec<(f64, f64)>,
    verticals: Vec<(String, f64)>,
    rects: Vec<String>,
    text: String,
}

fn read_svg(path: &PathBuf) -> Svg {
    let source = std::fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&source).expect("the plot is well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let num = |n: &roxmltree::Node, a: &str| n.attribute(a).unwrap().parse::<f64>().unwrap();
    let mut svg = Svg {
        points: Vec::new(),
        verticals: Vec::new(),
        rects: Vec::new(),
        text: String::new(),
    };
    for n in doc.descendants() {
        match n.tag_name().name() {
            "circle" => {
                assert_eq!(n.attribute("fill"), Some(POINT));
                svg.points.push((num(&n, "cx"), num(&n, "cy")));
            }
            "polyline" => {
                let pts: Vec<(f64, f64)> = n
                    .attribute("points")
                    .unwrap()
                    .split_whitespace()
                    .map(|p| {
                        let (x, y) = p.split_once(',').unwrap();
                        (x.parse().unwrap(), y.parse().unwrap())
                    })
                    .collect();
                if pts.len() == 2 && pts[0].0 == pts[1].0 && pts[0].1 != pts[1].1 {
                    let colour = n.attribute("stroke").unwrap_or("").to_string();
                    svg.verticals.push((colour, pts[0].0));
                }
            }
            "rect" => svg
                .rects
                .push(n.attribute("fill").unwrap_or("").to_string()),
            "text" => {
                svg.text.push_str(n.text().unwrap_or("").trim());
                svg.text.push('\n');
            }
            _ => {}
        }
    }
    svg
}

impl Svg {
    /// The x of the vertical lines of `colour`, in drawing order.
    fn marks(&self, colour: &str) -> Vec<f64> {
        self.verticals
            .iter()
            .filter(|(c, _)| c == colour)
            .map(|m| m.1)
            .collect()
    }
}

/// The x pixel of heap n, from the first and last points (x is linear in n).
fn x_of(points: &[(f64, f64)]) -> impl Fn(usize) -> f64 + '_ {
    let (first, last) = (points[0].0, points[points.len() - 1].0);
    let step = (last - first) / (points.len() - 1) as f64;
    move |n| first + step * n as f64
}

fn values(stdout: &[u8]) -> Vec<u64> {
    String::from_utf8_lossy(stdout)
        .split_whitespace()
        .map(|v| v.parse().unwrap())
        .collect()
}

/// Each point's height is the value printed: equal values at equal heights, larger higher.
fn assert_points_are(points: &[(f64, f64)], values: &[u64]) {
    assert_eq!(points.len(), values.len(), "one point per value");
    let x = x_of(points);
    for (i, (&(cx, cy), &v)) in points.iter().zip(values).enumerate() {
        assert!((cx - x(i)).abs() <= 1.0, "point {i} at x {cx}");
        for (&(_, cy2), &v2) in points.iter().zip(values) {
            // SVG y grows downwards.
            assert_eq!(
                v.cmp(&v2),
                cy2.partial_cmp(&cy).unwrap(),
                "heights of {v} and {v2}"
            );
        }
    }
}

#[test]
fn seq_plot_has_one_point_per_value_at_its_height() {
    let path = scratch("kayles.svg");
    let plain = grundy()
        .args(["seq", "kayles", "-n", "30"])
        .output()
        .unwrap();
    let out = grundy()
        .args(["seq", "kayles", "-n", "30", "--plot"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success());
    // The plot is written besides the normal output, which is unchanged.
    assert_eq!(out.stdout, plain.stdout);
    let svg = read_svg(&path);
    assert_points_are(&svg.points, &values(&out.stdout));
    assert!(
        svg.text.contains("kayles"),
        "title names the game: {}",
        svg.text
    );
    assert!(svg.verticals.iter().all(|(c, _)| c != PERIOD && c != RUN));
}

#[test]
fn seq_plot_with_json_and_long_scatter() {
    let path = scratch("grundys.svg");
    let out = grundy()
        .args(["seq", "grundys-game", "-n", "1000", "--json", "--plot"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success());
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let values: Vec<u64> = doc["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    let svg = read_svg(&path);
    assert_eq!(svg.points.len(), 1000);
    let top = values.iter().max().unwrap();
    let highest = svg.points.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
    for (p, v) in svg.points.iter().zip(&values) {
        assert_eq!(p.1 == highest, v == top);
    }
}

#[test]
fn analyze_plot_marks_preperiod_and_periods() {
    // Dawson's Kayles: period 34 from n = 53, proved. The window is 53 + 4·34 = 189 heaps.
    let path = scratch("dawsons.svg");
    grundy()
        .args(["analyze", "dawsons-kayles", "--plot"])
        .arg(&path)
        .assert()
        .success()
        .stdout(contains("period 34, preperiod 53 (proved)"));
    let seq = grundy()
        .args(["seq", "dawsons-kayles", "-n", "189"])
        .output()
        .unwrap();
    let svg = read_svg(&path);
    assert_points_are(&svg.points, &values(&seq.stdout));
    let x = x_of(&svg.points);
    let marks: Vec<f64> = svg.marks(PERIOD);
    let expected: Vec<usize> = vec![53, 87, 121, 155];
    assert_eq!(marks.len(), expected.len(), "{marks:?}");
    for (m, n) in marks.iter().zip(expected) {
        assert!(
            (m - x(n)).abs() <= 1.0,
            "period line at {m}, heap {n} at {}",
            x(n)
        );
    }
    assert!(svg.rects.iter().any(|f| f == PREPERIOD), "shaded preperiod");
    assert!(svg
        .text
        .contains("octal:0.07: period 34, preperiod 53 (proved)"));
    assert!(svg.text.contains("preperiod"));
}

#[test]
fn short_periods_are_marked_every_few_periods() {
    // Nim: G(n) = n, period 1 and saltus 1 from 0; 64 heaps shown, at most 16 lines: every 4th.
    let path = scratch("nim.svg");
    grundy()
        .args(["analyze", "nim", "--plot"])
        .arg(&path)
        .assert()
        .success();
    let svg = read_svg(&path);
    let values: Vec<u64> = (0..64).collect();
    assert_points_are(&svg.points, &values);
    let x = x_of(&svg.points);
    let marks: Vec<f64> = svg.marks(PERIOD);
    assert_eq!(marks.len(), 16);
    for (k, m) in marks.iter().enumerate() {
        assert!((m - x(4 * k)).abs() <= 1.0, "line {k} at {m}");
    }
    assert!(svg.text.contains("every 4th period begins (period 1)"));
    assert!(svg
        .text
        .contains("nim: period 1, preperiod 0, saltus 1 (proved)"));
}

#[test]
fn analysis_window_is_at_most_ten_thousand_heaps() {
    // Period 10001 from 0: four periods would be 40004 heaps; the plot stops at 10000.
    let path = scratch("sub.svg");
    grundy()
        .args(["analyze", "sub:1-10000", "--plot"])
        .arg(&path)
        .assert()
        .success()
        .stdout(contains("period 10001, preperiod 0 (proved)"));
    let svg = read_svg(&path);
    assert_eq!(svg.points.len(), 10_000);
    let marks: Vec<f64> = svg.marks(PERIOD);
    assert_eq!(marks.len(), 1);
    assert!((marks[0] - x_of(&svg.points)(0)).abs() <= 1.0);
}

#[test]
fn analyze_plot_of_a_divide_game_shows_its_runs_on_a_log_axis() {
    // Heaps 1 .. 99999 on a logarithmic axis: one point where each run of equal values begins,
    // a line where the value changes.
    let path = scratch("divide.svg");
    grundy()
        .args(["analyze", "divide:2,3", "--plot"])
        .arg(&path)
        .assert()
        .success();
    let seq = grundy()
        .args(["seq", "divide:2,3", "-n", "100000"])
        .output()
        .unwrap();
    let values = values(&seq.stdout);
    let mut starts: Vec<usize> = vec![1];
    starts.extend((2..values.len()).filter(|&i| values[i] != values[i - 1]));
    let run_values: Vec<u64> = starts.iter().map(|&a| values[a]).collect();
    let svg = read_svg(&path);
    assert_eq!(svg.points.len(), starts.len(), "one point per run");
    // Heights as the values; x logarithmic in n, read off the first and last points.
    for (i, (&(_, cy), &v)) in svg.points.iter().zip(&run_values).enumerate() {
        for (&(_, cy2), &v2) in svg.points.iter().zip(&run_values) {
            assert_eq!(v.cmp(&v2), cy2.partial_cmp(&cy).unwrap(), "run {i}");
        }
    }
    let (first, last) = (svg.points[0].0, svg.points[svg.points.len() - 1].0);
    let (a0, a1) = (
        (starts[0] as f64).ln(),
        (*starts.last().unwrap() as f64).ln(),
    );
    let x = |n: usize| first + ((n as f64).ln() - a0) / (a1 - a0) * (last - first);
    for (&(cx, _), &a) in svg.points.iter().zip(&starts) {
        assert!(
            (cx - x(a)).abs() <= 1.5,
            "run from {a} drawn at {cx}, expected {}",
            x(a)
        );
    }
    let changes: Vec<usize> = (1..values.len())
        .filter(|&i| values[i] != values[i - 1])
        .collect();
    let marks = svg.marks(RUN);
    assert_eq!(marks.len(), changes.len());
    for (m, n) in marks.iter().zip(changes) {
        assert!(
            (m - x(n)).abs() <= 1.5,
            "change line at {m}, heap {n} at {}",
            x(n)
        );
    }
    assert!(svg.text.contains("divide:2,3"));
    assert!(svg.text.contains("(proved)"));
    assert!(svg.text.contains("logarithmic"));
}

#[test]
fn unknown_extension_exits_2_before_computing() {
    let path = scratch("plot.txt");
    grundy()
        .args(["seq", "kayles", "-n", "10", "--plot"])
        .arg(&path)
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains("--plot").and(contains(".svg")));
    assert!(!path.exists());
    grundy()
        .args(["analyze", "kayles", "--plot", "noextension"])
        .assert()
        .code(2)
        .stderr(contains("expected a file name ending in .svg"));
}

#[test]
fn png_is_refused_with_the_reason() {
    grundy()
        .args(["seq", "kayles", "-n", "10", "--plot"])
        .arg(scratch("plot.png"))
        .assert()
        .code(2)
        .stderr(contains("PNG").and(contains("rsvg-convert")));
}

#[test]
fn unwritable_paths_exit_2() {
    grundy()
        .args([
            "seq",
            "kayles",
            "-n",
            "10",
            "--plot",
            "/nonexistent/dir/k.svg",
        ])
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains("does not exist"));
    // A directory where the file should go: the write fails, nothing goes to stdout.
    let dir = scratch("a-directory.svg");
    std::fs::create_dir_all(&dir).unwrap();
    grundy()
        .args(["analyze", "kayles", "--plot"])
        .arg(&dir)
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains("cannot write"));
}

#[test]
fn too_many_points_is_a_limit() {
    grundy()
        .args(["seq", "nim", "-n", "100001", "--plot"])
        .arg(scratch("big.svg"))
        .assert()
        .code(3)
        .stderr(contains("at most 100000").and(contains("-n")));
}

/// A plot replaces the file it names whole: written to a new file beside it, then renamed over
/// it, so no temporary file stays behind and the old plot is intact until the new one is
/// complete.
#[test]
fn a_plot_replaces_its_file_whole_and_leaves_nothing_else() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("plot-atomic");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("p.svg");
    std::fs::write(&path, "an older plot").unwrap();
    for n in ["20", "40"] {
        let out = grundy()
            .args(["seq", "kayles", "-n", n, "--plot"])
            .arg(&path)
            .output()
            .unwrap();
        assert!(out.status.success());
        assert_eq!(read_svg(&path).points.len(), n.parse::<usize>().unwrap());
    }
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["p.svg"]);
}
