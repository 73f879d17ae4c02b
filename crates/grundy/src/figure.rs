//! Pictures of Grundy sequences: `--plot FILE.svg` on `grundy seq` and `grundy analyze`, and
//! the same pictures in Jupyter (the Python package draws with [`Figure::sequence`],
//! [`Figure::analysis`] and [`render_svg`]).
//!
//! A plot shows G(n) against n: points joined by lines for short sequences, a scatter of small
//! dots for long ones. An analysis adds what it found: the preperiod shaded and a vertical line
//! at the first n of every period after it (every k-th period when there are many). A
//! floor-division game, whose runs of equal values grow geometrically, is drawn on a
//! logarithmic n axis: each run a segment from a point at its first heap, and a vertical line
//! where the value changes. The title names the game and the proof status.
//!
//! The figure draws what the library computed (the values, the period, [`SequenceAnalysis::value`] for
//! the window); it computes nothing about the game itself.
//!
//! [`SequenceAnalysis::value`]: crate::pattern::value::SequenceAnalysis::value
//!
//! Only SVG is written (with the crate `plotters`): it needs no font file, since the viewer draws
//! the text. A PNG would need the bitmap backend to rasterise text itself, with a font file
//! shipped inside the binary; `rsvg-convert plot.svg -o plot.png` does it better outside.

use crate::pattern::value::SequenceAnalysis;
use num_traits::ToPrimitive;
use plotters::coord::ranged1d::ValueFormatter;
use plotters::prelude::*;

/// Sequences up to this length are drawn as points joined by lines; longer ones as a scatter.
pub const LINE_LIMIT: usize = 200;

/// The most values a plot holds (an SVG of more points is too large to be useful).
pub const MAX_POINTS: usize = 100_000;

/// The values an analysis plot shows when no period bounds the window, and at most.
pub const ANALYSIS_WINDOW: u64 = 10_000;

/// The heaps the plot of a floor-division game shows, on a logarithmic axis (its runs grow
/// geometrically).
pub const RUNS_WINDOW: u64 = 100_000;

/// Run boundaries are drawn only when there are at most this many in the window.
pub const MAX_RUN_MARKS: usize = 200;

/// Picture size in pixels.
const SIZE: (u32, u32) = (960, 480);

/// The colour of the points (and the line joining them).
pub const POINT_COLOUR: RGBColor = RGBColor(31, 119, 180);
/// The colour of the period lines.
pub const PERIOD_COLOUR: RGBColor = RGBColor(214, 39, 40);
/// The colour of the run boundaries of a floor-division game.
pub const RUN_COLOUR: RGBColor = RGBColor(44, 160, 44);
/// The colour of the shaded preperiod.
pub const PREPERIOD_COLOUR: RGBColor = RGBColor(255, 127, 14);

/// What is marked on the plot besides the values.
#[derive(Clone, Debug)]
pub enum Markers {
    /// Nothing.
    None,
    /// Shade `0 .. preperiod` and draw a line at every `preperiod + k·period` in the window.
    Period {
        /// The first n of the periodic part.
        preperiod: usize,
        /// The period.
        period: usize,
    },
    /// A line at each n where a new run of equal values begins (n > 0, G(n) ≠ G(n-1)); drawn
    /// on a logarithmic n axis.
    Runs,
}

/// A plot of `G(0) ... G(values.len() - 1)`.
#[derive(Clone, Debug)]
pub struct Figure {
    /// The caption, naming the game and what was found.
    pub title: String,
    /// `G(n)` for `n = 0, 1, ...`.
    pub values: Vec<u64>,
    /// What to mark.
    pub markers: Markers,
}

impl Figure {
    /// The plot of `grundy seq GAME -n N --plot`: `values` are G(0), ..., G(N-1), nothing
    /// marked.
    pub fn sequence(game: &str, values: Vec<u64>) -> Figure {
        Figure {
            title: format!("{game}: G(n) for 0 <= n < {}", values.len()),
            values,
            markers: Markers::None,
        }
    }

    /// The plot of `grundy analyze --plot`: the values in a window that shows the pattern
    /// found (the preperiod and four periods, at least 64 values; the runs of a floor-division
    /// game; at most [`ANALYSIS_WINDOW`] values otherwise), and its markers.
    pub fn analysis(a: &SequenceAnalysis) -> Figure {
        let (window, markers) = match a.period {
            Some(p) if a.run_count().is_none() => (
                (p.preperiod as u64)
                    .saturating_add(4 * p.period as u64)
                    .max(64),
                Markers::Period {
                    preperiod: p.preperiod,
                    period: p.period,
                },
            ),
            _ if a.run_count().is_some() => (RUNS_WINDOW, Markers::Runs),
            _ => (ANALYSIS_WINDOW, Markers::None),
        };
        let window = match markers {
            Markers::Runs => window,
            _ => window.min(ANALYSIS_WINDOW),
        };
        // G(n) for n in the window, as far as the analysis knows them.
        let values: Vec<u64> = (0..window)
            .map_while(|n| a.value(&n.into()).ok()?.to_u64())
            .collect();
        let status = if a.proved { "proved" } else { "not proved" };
        let found = match (a.period, &markers) {
            (_, Markers::Runs) => format!("{} runs", a.run_count().unwrap_or(0)),
            (Some(p), _) if p.saltus != 0 => format!(
                "period {}, preperiod {}, saltus {}",
                p.period, p.preperiod, p.saltus
            ),
            (Some(p), _) => format!("period {}, preperiod {}", p.period, p.preperiod),
            (None, _) => "no period found".to_string(),
        };
        Figure {
            title: format!("{}: {found} ({status})", a.game),
            values,
            markers,
        }
    }
}

/// The x positions of the markers of `fig` (period starts or run starts) within the window.
pub fn marker_positions(fig: &Figure) -> Vec<usize> {
    let n = fig.values.len();
    match fig.markers {
        Markers::None => Vec::new(),
        Markers::Period { preperiod, period } => {
            let step = period.max(1) * period_stride(fig);
            (preperiod..n).step_by(step).collect()
        }
        Markers::Runs => (1..n)
            .filter(|&i| fig.values[i] != fig.values[i - 1])
            .collect(),
    }
}

/// At most this many period lines are drawn: with more, every k-th period is marked.
pub const MAX_PERIOD_MARKS: usize = 16;

/// Every how many periods a line is drawn: 1, or more when the window holds more than
/// [`MAX_PERIOD_MARKS`] periods (Nim's period 1 would otherwise hide the points).
pub fn period_stride(fig: &Figure) -> usize {
    match fig.markers {
        Markers::Period { preperiod, period } => {
            let periods = fig
                .values
                .len()
                .saturating_sub(preperiod)
                .div_ceil(period.max(1));
            periods.div_ceil(MAX_PERIOD_MARKS).max(1)
        }
        _ => 1,
    }
}

/// Renders `fig` as an SVG document (an error only if plotters fails to draw, which it does
/// not for a [`Figure`] of at most [`MAX_POINTS`] values).
pub fn render_svg(fig: &Figure) -> Result<String, String> {
    let mut svg = String::new();
    draw(fig, &mut svg).map_err(|e| format!("drawing the plot: {e}"))?;
    Ok(svg)
}

/// A tick label: the integer at the tick, nothing at a tick between integers.
fn integer_label(x: &f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        String::new()
    }
}

type DrawResult = Result<(), Box<dyn std::error::Error>>;

/// The chart with its title, margins and room for the tick labels.
fn builder<'a, 'b>(
    root: &'a DrawingArea<SVGBackend<'b>, plotters::coord::Shift>,
    title: &str,
) -> ChartBuilder<'a, 'b, SVGBackend<'b>> {
    let mut b = ChartBuilder::on(root);
    b.caption(title, ("sans-serif", 20))
        .margin(12)
        .margin_right(30)
        .x_label_area_size(40)
        .y_label_area_size(50);
    b
}

/// The axes, with integer tick labels and the descriptions `x_desc` and G(n).
fn draw_axes<X, Y>(
    chart: &mut ChartContext<'_, SVGBackend<'_>, Cartesian2d<X, Y>>,
    x_desc: &str,
) -> DrawResult
where
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    chart
        .configure_mesh()
        .disable_mesh()
        .x_label_formatter(&integer_label)
        .y_label_formatter(&integer_label)
        .x_desc(x_desc)
        .y_desc("G(n)")
        .draw()?;
    Ok(())
}

/// The legend, in the upper right corner (the plot leaves headroom for it).
fn draw_legend<'a, X, Y>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, Cartesian2d<X, Y>>,
) -> DrawResult
where
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}

/// Headroom above the highest point, for the legend.
fn y_range(values: &[u64]) -> std::ops::Range<f64> {
    let top = values.iter().copied().max().unwrap_or(0) as f64;
    -0.5..(top * 1.2 + 1.5)
}

fn draw(fig: &Figure, svg: &mut String) -> DrawResult {
    let root = SVGBackend::with_string(svg, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    match fig.markers {
        Markers::Runs if fig.values.len() > 2 => draw_runs(fig, &root)?,
        _ => draw_linear(fig, &root)?,
    }
    root.present()?;
    Ok(())
}

/// The runs `(start, end, value)` of equal values of `values[1..]`, `end` exclusive.
pub fn runs(values: &[u64]) -> Vec<(usize, usize, u64)> {
    let mut runs: Vec<(usize, usize, u64)> = Vec::new();
    for (n, &v) in values.iter().enumerate().skip(1) {
        match runs.last_mut() {
            Some(run) if run.2 == v => run.1 = n + 1,
            _ => runs.push((n, n + 1, v)),
        }
    }
    runs
}

/// A floor-division game on a logarithmic n axis, since its runs grow geometrically: each run
/// of equal values is a horizontal segment with a point where it begins, and a vertical line
/// marks each n where the value changes. Heap 0 (value 0) is left off the axis.
fn draw_runs(fig: &Figure, root: &DrawingArea<SVGBackend, plotters::coord::Shift>) -> DrawResult {
    let n = fig.values.len() as f64;
    let y_range = y_range(&fig.values);
    let mut chart =
        builder(root, &fig.title).build_cartesian_2d((1f64..n).log_scale(), y_range.clone())?;
    draw_axes(&mut chart, "n (logarithmic scale)")?;
    let marks = marker_positions(fig);
    if !marks.is_empty() && marks.len() <= MAX_RUN_MARKS {
        let (y_lo, y_hi) = (y_range.start, y_range.end);
        chart
            .draw_series(
                marks.iter().map(|&m| {
                    PathElement::new(vec![(m as f64, y_lo), (m as f64, y_hi)], RUN_COLOUR)
                }),
            )?
            .label("the value changes")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], RUN_COLOUR));
    }
    let runs = runs(&fig.values);
    chart.draw_series(runs.iter().map(|&(a, b, v)| {
        PathElement::new(
            vec![(a as f64, v as f64), ((b as f64).min(n), v as f64)],
            POINT_COLOUR.stroke_width(2),
        )
    }))?;
    chart
        .draw_series(
            runs.iter()
                .map(|&(a, _, v)| Circle::new((a as f64, v as f64), 3, POINT_COLOUR.filled())),
        )?
        .label("G(n): a run of equal values from each point")
        .legend(|(x, y)| Rectangle::new([(x + 4, y - 4), (x + 12, y + 4)], POINT_COLOUR.filled()));
    draw_legend(&mut chart)
}

/// The values on a linear n axis, with the preperiod and period marks.
fn draw_linear(fig: &Figure, root: &DrawingArea<SVGBackend, plotters::coord::Shift>) -> DrawResult {
    let n = fig.values.len();
    let x_range = -0.5..(n.max(1) as f64 - 0.5);
    let y_range = y_range(&fig.values);
    let mut chart = builder(root, &fig.title).build_cartesian_2d(x_range, y_range.clone())?;
    draw_axes(&mut chart, "n")?;

    let (y_lo, y_hi) = (y_range.start, y_range.end);
    if let Markers::Period { preperiod, .. } = fig.markers {
        if preperiod > 0 {
            let right = preperiod.min(n) as f64 - 0.5;
            let shade = PREPERIOD_COLOUR.mix(0.2).filled();
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(-0.5, y_lo), (right, y_hi)],
                    shade,
                )))?
                .label(format!("preperiod 0 <= n < {preperiod}"))
                .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 16, y + 5)], shade));
        }
    }
    let marks = marker_positions(fig);
    let (mark_colour, mark_label) = match fig.markers {
        Markers::Period { period, .. } => match period_stride(fig) {
            1 => (PERIOD_COLOUR, format!("period {period} begins")),
            k => (
                PERIOD_COLOUR,
                format!("every {k}th period begins (period {period})"),
            ),
        },
        _ => (RUN_COLOUR, "run of equal values begins".to_string()),
    };
    if !marks.is_empty() && (marks.len() <= MAX_RUN_MARKS || !matches!(fig.markers, Markers::Runs))
    {
        chart
            .draw_series(
                marks.iter().map(|&m| {
                    PathElement::new(vec![(m as f64, y_lo), (m as f64, y_hi)], mark_colour)
                }),
            )?
            .label(mark_label)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], mark_colour));
    }

    let points = fig
        .values
        .iter()
        .enumerate()
        .map(|(i, &v)| (i as f64, v as f64));
    let radius = if n <= LINE_LIMIT {
        chart.draw_series(LineSeries::new(points.clone(), POINT_COLOUR.mix(0.6)))?;
        3
    } else {
        1
    };
    chart
        .draw_series(points.map(|p| Circle::new(p, radius, POINT_COLOUR.filled())))?
        .label("G(n)")
        .legend(|(x, y)| Rectangle::new([(x + 4, y - 4), (x + 12, y + 4)], POINT_COLOUR.filled()));
    draw_legend(&mut chart)
}
