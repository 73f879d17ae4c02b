//! `POST /api/graph`: a small game graph solved, with a layered drawing.

use super::api::{ApiError, ApiJson};
use super::AppState;
use axum::extract::State;
use axum::Json;
use grundy::notation::graph::{parse_graph, GraphFormat};
use grundy::solve::{loopy, outcome, Play};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
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

/// One vertex of a solved graph, placed for drawing.
#[derive(Serialize, Debug)]
struct VertexDoc {
    name: String,
    /// `P`, `N` or `D`.
    outcome: String,
    remoteness: Option<u32>,
    /// The generalized Sprague-Grundy value (`3`, `inf{0,2}`), normal play only.
    value: Option<String>,
    /// Column of the layered drawing: the remoteness (P and N), one past the largest for D.
    layer: usize,
    /// Row within the layer.
    slot: usize,
}

/// `POST /api/graph`: outcomes (P, N, D), remoteness, generalized Sprague-Grundy values and a
/// layered layout of a small graph of the SPEC's "Game graphs" format.
///
/// Layout: vertex `v` goes to layer `remoteness(v)` (terminal positions at 0; a P position of
/// remoteness r has all its options in layers below r, and an N position a winning option at
/// r - 1), draws in a layer of their own after the last; within a layer, in input order.
pub async fn graph(
    State(state): State<Arc<AppState>>,
    ApiJson(req): ApiJson<GraphRequest>,
) -> Result<Json<Value>, ApiError> {
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
            for v in 0..nv as u32 {
                let layer = outcomes.remoteness(v).map_or(draw_layer, |r| r as usize);
                vertices.push(VertexDoc {
                    name: parsed.names.get(v).to_string(),
                    outcome: outcomes.outcome(v).to_string(),
                    remoteness: outcomes.remoteness(v),
                    value: values.as_ref().map(|vals| vals.value(g, v).to_string()),
                    layer,
                    slot: widths[layer],
                });
                widths[layer] += 1;
            }
            while widths.last() == Some(&0) {
                widths.pop();
            }
            let arcs: Vec<[u32; 2]> = (0..nv as u32)
                .flat_map(|v| g.options(v).iter().map(move |&w| [v, w]))
                .collect();
            Ok(Json(json!({
                "vertices": vertices,
                "arcs": arcs,
                "layers": widths,
                "misere": req.misere,
            })))
        })
        .await
}
