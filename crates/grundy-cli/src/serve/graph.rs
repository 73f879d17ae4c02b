//! `POST /api/graph`: a small game graph solved, with a layered drawing.

use super::api::{ApiError, ApiJson};
use super::AppState;
use axum::extract::State;
use axum::Json;
use grundy::notation::graph::{parse_graph, GraphFormat};
use grundy::solve::loopy::{self, GraphDocument, VertexDocument};
use grundy::solve::{outcome, Play};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// `POST /api/graph {text, format?, misere?}`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct GraphRequest {
    pub(super) text: String,
    #[serde(default)]
    pub(super) format: Option<String>,
    #[serde(default)]
    pub(super) misere: bool,
}

/// The answer of `POST /api/graph`: the library's [`GraphDocument`], the document `grundy
/// graph solve --json` writes (its `vertices`), with the drawing beside it.
#[derive(Serialize, Debug)]
pub struct GraphAnswer {
    /// The solved graph: every vertex's name, outcome, remoteness and value.
    #[serde(flatten)]
    graph: GraphDocument,
    /// The place of each vertex in the layered drawing, in the order of `vertices`: `[layer,
    /// slot]`, the layer (column) being the remoteness for P and N vertices and one past the
    /// largest for draws, the slot its row within the layer.
    places: Vec<[usize; 2]>,
    /// Every arc `[v, w]` (`w` an option of `v`), by vertex index.
    arcs: Vec<[u32; 2]>,
    /// The number of vertices in each layer.
    layers: Vec<usize>,
    /// Whether the graph was solved under misère play (no values then).
    misere: bool,
}

/// `POST /api/graph`: outcomes (P, N, D), remoteness, generalized Sprague-Grundy values (the
/// [`GraphDocument`] of `grundy graph solve --json`) and a layered layout of a small graph of
/// the SPEC's "Game graphs" format ([`GraphAnswer`]).
///
/// Layout: vertex `v` goes to layer `remoteness(v)` (terminal positions at 0; a P position of
/// remoteness r has all its options in layers below r, and an N position a winning option at
/// r - 1), draws in a layer of their own after the last; within a layer, in input order.
pub async fn graph(
    State(state): State<Arc<AppState>>,
    ApiJson(req): ApiJson<GraphRequest>,
) -> Result<Json<GraphAnswer>, ApiError> {
    let limits = state.limits.clone();
    let format = match req.format.as_deref() {
        None | Some("adjacency") => GraphFormat::Adjacency,
        Some("arcs") => GraphFormat::Arcs,
        Some(f) => {
            return Err(ApiError::bad(format!(
                "format: expected \"adjacency\" or \"arcs\", found {f:?}"
            )))
        }
    };
    let play = if req.misere {
        Play::Misere
    } else {
        Play::Normal
    };
    // Parsing and solving a graph of t bytes visits at most about t vertices times t arcs.
    let cost = (req.text.len() as u128).pow(2);
    state
        .lane(cost)
        .run(move |ctl| {
            // The reader draws on the job's memory budget and stops at its deadline.
            let parsed = parse_graph(req.text.as_bytes(), format, ctl).map_err(|e| match e {
                grundy::Error::Parse(p) => ApiError::bad(p.in_source("text").to_string()),
                e => e.into(),
            })?;
            let g = &parsed.graph;
            let (nv, na) = (g.vertex_count(), g.arc_count());
            if nv == 0 {
                return Err(ApiError::bad(
                    "text: expected at least one vertex line V: W1 W2 ...",
                ));
            }
            if nv > limits.graph_vertices || na > limits.graph_arcs {
                return Err(ApiError::bad(format!(
                    "the graph has {nv} vertices and {na} arcs, above the limits of {} vertices \
                     and {} arcs (use grundy graph solve for large graphs)",
                    limits.graph_vertices, limits.graph_arcs
                )));
            }
            let outcomes = outcome::solve(g, play, ctl)?;
            let values = match play {
                Play::Normal => Some(loopy::solve(g, ctl)?),
                Play::Misere => None,
            };
            let draw_layer = (0..nv as u32)
                .filter_map(|v| outcomes.remoteness(v))
                .max()
                .map_or(0, |r| r as usize + 1);
            let mut widths: Vec<usize> = vec![0; draw_layer + 1];
            let mut vertices = Vec::with_capacity(nv);
            let mut places = Vec::with_capacity(nv);
            for v in 0..nv as u32 {
                let remoteness = outcomes.remoteness(v);
                let layer = remoteness.map_or(draw_layer, |r| r as usize);
                let value = values.as_ref().map(|vals| vals.value(g, v));
                vertices.push(VertexDocument::new(
                    parsed.names.get(v),
                    outcomes.outcome(v),
                    remoteness.map(u64::from),
                    value.as_ref(),
                ));
                places.push([layer, widths[layer]]);
                widths[layer] += 1;
            }
            while widths.last() == Some(&0) {
                widths.pop();
            }
            let arcs: Vec<[u32; 2]> = (0..nv as u32)
                .flat_map(|v| g.options(v).iter().map(move |&w| [v, w]))
                .collect();
            Ok(Json(GraphAnswer {
                graph: GraphDocument { vertices },
                places,
                arcs,
                layers: widths,
                misere: req.misere,
            }))
        })
        .await
}
