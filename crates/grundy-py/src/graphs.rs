//! Graphs: reading a graph file, and solving it (outcomes, remoteness, the generalized
//! Sprague-Grundy function).

use super::*;

/// `(names, sources, targets)` of a graph file's text (the command line's format; `edges`: one
/// `U V` arc a line).
#[pyfunction]
pub(crate) fn _parse_graph(
    py: Python<'_>,
    text: &str,
    edges: bool,
) -> PyResult<(Vec<String>, Vec<u32>, Vec<u32>)> {
    guard(|| {
        let format = if edges {
            GraphFormat::Arcs
        } else {
            GraphFormat::Adjacency
        };
        let bytes = text.as_bytes();
        let parsed = py
            .detach(|| parse_graph(bytes, format, &grundy::Control::none()))
            .map_err(to_py)?;
        let g = &parsed.graph;
        let n = g.vertex_count() as u32;
        let names = (0..n).map(|v| parsed.names.get(v).into_owned()).collect();
        let (mut src, mut dst) = (Vec::new(), Vec::new());
        for v in 0..n {
            for &w in g.options(v) {
                src.push(v);
                dst.push(w);
            }
        }
        Ok((names, src, dst))
    })
}

/// The solution of a graph as arrays: outcome codes (0 P, 1 N, 2 D), remoteness (-1 for a draw),
/// γ values (-1 for infinite, or for every vertex under misère play) and the sets K of the
/// infinite ones, by vertex.
pub(crate) type Solution<'py> = (
    Bound<'py, PyArray1<u8>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<i64>>,
    Vec<(u32, Vec<u64>)>,
);

#[pyfunction]
#[pyo3(signature = (n, sources, targets, misere=false, progress=None))]
pub(crate) fn _solve_graph<'py>(
    py: Python<'py>,
    n: usize,
    sources: PyReadonlyArray1<'py, u32>,
    targets: PyReadonlyArray1<'py, u32>,
    misere: bool,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Solution<'py>> {
    guard(|| {
        let src = sources.as_slice().map_err(unusable)?;
        let dst = targets.as_slice().map_err(unusable)?;
        if src.len() != dst.len() {
            return Err(PyValueError::new_err(
                "sources and targets differ in length",
            ));
        }
        let play = if misere { Play::Misere } else { Play::Normal };
        let (codes, remote, values, infinite) = run(py, progress, |ctl| {
            let arcs: Vec<(u32, u32)> = src.iter().copied().zip(dst.iter().copied()).collect();
            let g: Graph = Graph::from_arcs(n, &arcs)?;
            let o = outcome::solve(&g, play, ctl)?;
            let n32 = n as u32;
            let codes: Vec<u8> = (0..n32)
                .map(|v| match o.outcome(v) {
                    Outcome::P => 0,
                    Outcome::N => 1,
                    Outcome::D => 2,
                })
                .collect();
            let remote: Vec<i64> = (0..n32)
                .map(|v| o.remoteness(v).map_or(-1, i64::from))
                .collect();
            let mut values = vec![-1i64; n];
            let mut infinite = Vec::new();
            if !misere {
                let gamma = loopy::solve(&g, ctl)?;
                for v in 0..n32 {
                    match gamma.value(&g, v) {
                        Gamma::Finite(a) => values[v as usize] = a as i64,
                        Gamma::Infinite(k) => infinite.push((v, k)),
                    }
                }
            }
            Ok((codes, remote, values, infinite))
        })?;
        Ok((
            PyArray1::from_vec(py, codes),
            PyArray1::from_vec(py, remote),
            PyArray1::from_vec(py, values),
            infinite,
        ))
    })
}
