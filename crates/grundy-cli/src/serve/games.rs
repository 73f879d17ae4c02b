//! `GET /api/games` and the checks of the heap endpoints' games: the notation, a script sent
//! as source text, the heaps against the limits, and the cost estimates that pick a job's lane.

use super::api::ApiError;
use super::limits::Limits;
use axum::Json;
use grundy::control::Control;
use grundy::game::spec::GameSpec;
use grundy::heap::position::Move;
use grundy::heap::script::ScriptRule;
use grundy::heap::HeapGame;
use grundy::notation::game::parse_game;
use serde::Deserialize;
use serde_json::{json, Value};
use std::path::PathBuf;

/// The body of the heap endpoints: the game (GAME notation, and the script's source text when
/// `game` is `"script"`) and what each endpoint asks about it. An endpoint takes some of the
/// optional fields ([`GameRequest::only`]) and needs some ([`need`]); a field no endpoint takes
/// is refused by serde, one another endpoint takes by [`GameRequest::only`], both as unknown.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct GameRequest {
    /// GAME notation, or `script`.
    pub game: String,
    /// The script's source (for `game: "script"`).
    #[serde(default)]
    pub script: Option<String>,
    /// `/api/seq`: the number of values.
    #[serde(default)]
    pub n: Option<u64>,
    /// `/api/hint`, `/api/move`, `/api/moves`: the heaps.
    #[serde(default)]
    pub heaps: Option<Vec<u64>>,
    /// `/api/hint`, `/api/move`: misère play (the player who cannot move wins).
    #[serde(default)]
    pub misere: Option<bool>,
    /// `/api/move`: the human's move, played before the engine answers.
    #[serde(default)]
    pub human: Option<Move>,
    /// `/api/moves`: the heap (0-based) whose moves are listed.
    #[serde(default)]
    pub heap: Option<usize>,
}

impl GameRequest {
    /// Refuses the optional fields present that `endpoint` does not take (those outside
    /// `takes`), as serde refuses a field no endpoint takes, naming the endpoints that take it.
    pub(super) fn only(&self, endpoint: &str, takes: &[&str]) -> Result<(), ApiError> {
        let present = [
            ("n", self.n.is_some(), "/api/seq"),
            (
                "heaps",
                self.heaps.is_some(),
                "/api/hint, /api/move and /api/moves",
            ),
            ("misere", self.misere.is_some(), "/api/hint and /api/move"),
            ("human", self.human.is_some(), "/api/move"),
            ("heap", self.heap.is_some(), "/api/moves"),
        ];
        match present
            .iter()
            .find(|(name, here, _)| *here && !takes.contains(name))
        {
            Some((name, _, owners)) => Err(ApiError::bad(format!(
                "request body: unknown field `{name}` for {endpoint} (`{name}` is for {owners})"
            ))),
            None => Ok(()),
        }
    }

    /// Whether the request asks for misère play.
    pub(super) fn misere(&self) -> bool {
        self.misere.unwrap_or(false)
    }
}

/// The value of a field the endpoint needs, or serde's error for a missing field.
pub(super) fn need<T>(value: Option<T>, name: &str) -> Result<T, ApiError> {
    value.ok_or_else(|| ApiError::bad(format!("request body: missing field `{name}`")))
}

/// A game checked for notation and size, whose rule is built inside a job (a script gets the
/// job's deadline).
#[derive(Clone, Debug)]
pub struct CheckedGame {
    pub(super) spec: GameSpec,
    script: Option<String>,
    script_operations: u64,
}

impl CheckedGame {
    /// The canonical notation (`script` for scripts).
    pub(super) fn name(&self) -> String {
        match self.spec {
            GameSpec::Script(_) => "script".into(),
            _ => self.spec.to_string(),
        }
    }

    /// The game; a script is compiled with the operation budget, watching the job's `ctl`,
    /// with `print` and `debug` silenced and `sleep` refused ([`ScriptRule::for_server`]).
    pub(super) fn rule(&self, ctl: &Control) -> Result<HeapGame, ApiError> {
        match &self.script {
            Some(src) => {
                let mut rule =
                    ScriptRule::compile_limited(src, "script", self.script_operations, ctl)?;
                rule.for_server();
                Ok(HeapGame::from_script("script", rule))
            }
            None => Ok(HeapGame::from_spec(self.spec.clone())?),
        }
    }

    /// The rule, for cost estimates: `None` for scripts, whose cost is unknown.
    pub(super) fn builtin(&self) -> Option<HeapGame> {
        match self.script {
            Some(_) => None,
            None => HeapGame::from_spec(self.spec.clone()).ok(),
        }
    }
}

/// A cost estimate for work no bound is known for (scripts, misère searches, analyses of
/// divide games): it always runs in the heavy lane, under the deadline.
pub(super) const UNKNOWN_COST: u128 = u128::MAX;

/// An upper bound on the options visited to compute G(0..=max) of `rule`: each G(n) is the mex
/// of at most `option_count_bound(n)` option values, and the bound grows with n, so the sum is at
/// most `(max + 1) * option_count_bound(max)`.
pub(super) fn sequence_cost(rule: &HeapGame, max: u64) -> u128 {
    (u128::from(max) + 1).saturating_mul(rule.option_count_bound(max).max(1))
}

/// The cost estimate of a hint, a move or a move list on `heaps`: the sequence up to the largest
/// heap, then the options of every heap, a few times over (a move checks whether the game is
/// over before and after the engine's reply). Misère play of games other than Nim is a search
/// over positions: unknown.
pub(super) fn position_cost(game: &CheckedGame, heaps: &[u64], misere: bool) -> u128 {
    let Some(rule) = game.builtin() else {
        return UNKNOWN_COST;
    };
    if misere && game.spec != GameSpec::Nim {
        return UNKNOWN_COST;
    }
    // Positions of Nim and divide games need no sequence (G(n) = n; a divide game's value is
    // found by a walk of a few steps per heap).
    let values = match game.spec {
        GameSpec::Nim | GameSpec::Divide(_) => 0,
        _ => sequence_cost(&rule, heaps.iter().copied().max().unwrap_or(0)),
    };
    let options: u128 = heaps
        .iter()
        .map(|&h| rule.option_count_bound(h))
        .fold(0u128, u128::saturating_add);
    values.saturating_add(options.saturating_mul(4))
}

/// Refuses a request whose cost estimate is above [`Limits::max_operations`]: it could not end
/// within the deadline, and the engines' checks of the deadline may be far apart in such work.
pub(super) fn check_cost(cost: u128, limits: &Limits) -> Result<(), ApiError> {
    if cost != UNKNOWN_COST && cost > limits.max_operations {
        return Err(ApiError::bad(format!(
            "this request may visit up to {cost} options, above the limit of {} for the \
             playground: ask for fewer values or smaller heaps, or use the grundy command line",
            limits.max_operations
        )));
    }
    Ok(())
}

/// Checks the game of a request: the notation parses; a script comes as source text within the
/// limit, never as a path.
pub(super) fn check_game(
    game: &str,
    script: Option<&str>,
    limits: &Limits,
) -> Result<CheckedGame, ApiError> {
    let script_operations = limits.script_operations;
    if game == "script" {
        let Some(src) = script else {
            return Err(ApiError::bad(
                "game \"script\" needs the field \"script\": the Rhai source defining fn options(n)",
            ));
        };
        if src.len() > limits.script_bytes {
            return Err(ApiError::bad(format!(
                "the script has {} bytes, above the limit of {}",
                src.len(),
                limits.script_bytes
            )));
        }
        return Ok(CheckedGame {
            spec: GameSpec::Script(PathBuf::from("script")),
            script: Some(src.to_string()),
            script_operations,
        });
    }
    if script.is_some() {
        return Err(ApiError::bad(
            "the field \"script\" is only for game \"script\"",
        ));
    }
    if game.len() > limits.game_bytes {
        return Err(ApiError::bad(format!(
            "game: the notation has {} bytes, above the limit of {}",
            game.len(),
            limits.game_bytes
        )));
    }
    if game.starts_with("script:") {
        return Err(ApiError::bad(
            "scripts are not read from the server's disk: send game \"script\" and the source \
             text in the field \"script\"",
        ));
    }
    let spec = parse_game(game).map_err(|e| ApiError::bad(e.in_source("game").to_string()))?;
    Ok(CheckedGame {
        spec,
        script: None,
        script_operations,
    })
}

/// The most values a request may need of `spec`: [`Limits::three_heap_values`] for codes whose
/// moves may leave three heaps, `otherwise` for the rest.
pub(super) fn values_limit(spec: &GameSpec, limits: &Limits, otherwise: u64) -> u64 {
    match spec.take_break() {
        Some(c) if c.max_heaps() >= 3 => otherwise.min(limits.three_heap_values),
        _ => otherwise,
    }
}

/// Checks heaps against the limits: at least one, at most [`Limits::heaps`], each at most
/// [`Limits::heap_size`] (less for three-heap codes, see [`values_limit`]).
pub(super) fn check_heaps(
    game: &CheckedGame,
    heaps: &[u64],
    limits: &Limits,
) -> Result<(), ApiError> {
    let heap_size = values_limit(&game.spec, limits, limits.heap_size);
    if heaps.is_empty() {
        return Err(ApiError::bad("heaps: expected at least one heap"));
    }
    if heaps.len() > limits.heaps {
        return Err(ApiError::bad(format!(
            "heaps: {} heaps, above the limit of {}",
            heaps.len(),
            limits.heaps
        )));
    }
    if let Some((i, h)) = heaps.iter().enumerate().find(|(_, &h)| h > heap_size) {
        return Err(ApiError::bad(format!(
            "heaps[{i}] has {h} tokens, above the limit of {heap_size} for this game",
        )));
    }
    if game.script.is_none() {
        let rule = HeapGame::from_spec(game.spec.clone())?;
        if let Some((i, h, m)) = heaps
            .iter()
            .enumerate()
            .map(|(i, &h)| (i, h, rule.option_count_bound(h)))
            .find(|&(_, _, m)| m > limits.moves_per_heap)
        {
            return Err(ApiError::bad(format!(
                "heaps[{i}] ({h} tokens) may have up to {m} moves in this game, above the \
                 limit of {} moves a heap; use smaller heaps",
                limits.moves_per_heap
            )));
        }
    }
    Ok(())
}

/// `GET /api/games`: the named games and the notation, for the page's menu and help.
pub async fn games() -> Json<Value> {
    Json(json!({
        "games": [
            {"game": "nim", "name": "Nim", "about": "take any number of tokens from one heap"},
            {"game": "kayles", "name": "Kayles", "about": "knock down one pin or two adjacent pins (octal 0.77)"},
            {"game": "dawsons-kayles", "name": "Dawson's Kayles", "about": "knock down two adjacent pins (octal 0.07)"},
            {"game": "dawsons-chess", "name": "Dawson's Chess", "about": "octal 0.137"},
            {"game": "officers", "name": "Officers", "about": "octal 0.6"},
            {"game": "grundys-game", "name": "Grundy's game", "about": "split a heap into two unequal heaps"},
            {"game": "sub:1,3,4", "name": "Subtraction {1, 3, 4}", "about": "take 1, 3 or 4 tokens"},
            {"game": "squares", "name": "Subtract a square", "about": "take a positive square number of tokens"},
            {"game": "divide:2,3,4,5,6", "name": "Divide by 2..6", "about": "replace n by floor(n/d), d from 2 to 6"},
            {"game": "script", "name": "Script", "about": "your own rule in Rhai: fn options(n) returns the options of heap n as an array of arrays of heaps"}
        ],
        "notation": [
            "nim",
            "sub:S, e.g. sub:1,3,4 or sub:1-3,5 (take k tokens, k in S)",
            "octal:CODE, e.g. octal:0.77 (take-and-break; hexadecimal digits 8-F may leave three heaps)",
            "kayles, dawsons-kayles, dawsons-chess, officers (octal aliases)",
            "grundys-game",
            "divide:D, e.g. divide:2,3 (n becomes floor(n/d), d in D)",
            "squares",
            "script (with the field \"script\": Rhai source defining fn options(n))"
        ],
        "graph_format": "one line per vertex, V: W1 W2 ... (V's options); names are letters, digits, _ . -; lines starting with # are comments; cycles allowed. Or format \"arcs\": one arc U V per line, U and V numbers."
    }))
}
