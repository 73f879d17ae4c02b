//! One function a fuzz target: each takes arbitrary bytes, runs a parser on them, and checks
//! what must hold of every answer (a canonical form parses back to the same value, two readers
//! of one format agree, a fast reader agrees with a plain one). A panic is a bug: libFuzzer
//! reports it with the input, and the replay test fails on it.

use grundy::control::Control;
use grundy::game::spec::GameSpec;
use grundy::heap::script::ScriptRule;
use grundy::heap::{HeapGame, Options};
use grundy::nimber::product_io::{format_lines, parse_products};
use grundy::notation::game::parse_game;
use grundy::notation::graph::{parse_arcs_stream, parse_graph, GraphFormat};
use grundy::notation::ordinal::{
    parse_heap_graph, parse_matrix, parse_ordinal, parse_row, parse_token_heap,
};
use grundy::transfinite::games::{FreeSet, LevelGame};
use grundy_cli::serve::api::check_request;
use grundy_cli::serve::limits::Limits;
use std::time::{Duration, Instant};

/// The memory budget of the graph readers: far above what a fuzz input (a few KB) needs, so an
/// input that reaches it has found a blow-up.
const GRAPH_MEMORY: u64 = 1 << 24;

/// A control whose only part is a budget of [`GRAPH_MEMORY`] bytes.
fn graph_budget() -> grundy::Control<'static> {
    grundy::Control::none().with_memory(grundy::MemoryBudget::new(GRAPH_MEMORY))
}

/// GAME notation: the canonical form of every accepted game parses back to the same game, and
/// the rule it names can be built.
pub fn game(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(spec) = parse_game(text) else {
        return;
    };
    let canonical = spec.to_string();
    let again = parse_game(&canonical)
        .unwrap_or_else(|e| panic!("{canonical:?}, the form of {text:?}, does not parse: {e}"));
    assert_eq!(again, spec, "{text:?} and its form {canonical:?} differ");
    // A script is read from disk: only the notation is the parser's.
    if !matches!(spec, GameSpec::Script(_)) {
        if let Ok(rule) = HeapGame::from_spec(spec) {
            rule.option_count_bound(1 << 20);
        }
    }
}

/// Graph files (first byte even: adjacency lines `V: W1 W2`) and arc lists (`--edges`, odd: `U V`
/// lines), the latter both whole and streamed through a small buffer: the two readers agree.
pub fn graph(data: &[u8]) {
    let Some((&mode, input)) = data.split_first() else {
        return;
    };
    if mode % 2 == 0 {
        let _ = parse_graph(input, GraphFormat::Adjacency, &graph_budget());
        return;
    }
    let whole = parse_graph(input, GraphFormat::Arcs, &graph_budget());
    let reader = std::io::BufReader::with_capacity(1 + usize::from(mode / 2), input);
    let streamed = parse_arcs_stream(reader, &graph_budget());
    match (whole, streamed) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a.graph, b.graph, "whole and streamed arc lists differ");
            assert_eq!(a.names, b.names, "whole and streamed names differ");
        }
        (Err(_), Err(_)) => {}
        (a, b) => panic!("whole read {a:?}, streamed read {b:?}"),
    }
}

/// Ordinal notation and the ordinal games' inputs, by the first byte: an ordinal (its printed
/// form parses back to it), a row, a token heap `N:T`, a matrix (then its value and winning move)
/// or a heap graph (then both level games on it).
pub fn ordinal(data: &[u8]) {
    let Some((&mode, input)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(input) else {
        return;
    };
    match mode % 5 {
        0 => {
            if let Ok(x) = parse_ordinal(text) {
                let printed = x.to_string();
                let again = parse_ordinal(&printed)
                    .unwrap_or_else(|e| panic!("{printed:?}, from {text:?}, does not parse: {e}"));
                assert_eq!(again, x, "{text:?} printed as {printed:?}");
            }
        }
        1 => {
            let _ = parse_row(text);
        }
        2 => {
            let _ = parse_token_heap(text);
        }
        3 => {
            if let Ok(rows) = parse_matrix(text) {
                if let Ok(game) = LevelGame::grid(rows.len(), rows[0].len()) {
                    let heaps: Vec<_> = rows.into_iter().flatten().collect();
                    level_game(&game, &heaps);
                }
            }
        }
        _ => {
            if let Ok(g) = parse_heap_graph(text) {
                for rule in [FreeSet::Path, FreeSet::Successors] {
                    if let Ok(game) = LevelGame::new(g.succ.clone(), rule) {
                        level_game(&game, &g.heaps);
                    }
                }
            }
        }
    }
}

/// The value of a level game, and a winning move exactly when the value is not 0.
fn level_game(game: &LevelGame, heaps: &[num_bigint::BigUint]) {
    let value = game.value(heaps).expect("a parsed position fits its game");
    let mv = game.winning_move(heaps).expect("a winning move search");
    assert_eq!(
        mv.is_some(),
        !value.is_zero(),
        "value {value} and move {mv:?}"
    );
}

/// The Library Checker input of `nimber product`: whatever the fast reader accepts, a plain
/// reader (whitespace-separated decimal or `0x` numbers) reads the same; the printed products
/// read back.
pub fn product_io(data: &[u8]) {
    let Ok(input) = parse_products(data) else {
        return;
    };
    assert_eq!(input.a.len(), input.b.len());
    let numbers: Vec<u64> = data
        .split(u8::is_ascii_whitespace)
        .filter(|t| !t.is_empty())
        .map(|t| {
            let s = std::str::from_utf8(t).expect("an accepted token is ASCII");
            match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
                Some(h) => u64::from_str_radix(h, 16),
                None => s.parse(),
            }
            .unwrap_or_else(|e| panic!("accepted token {s:?} is no number: {e}"))
        })
        .collect();
    assert_eq!(numbers.len(), 1 + 2 * input.a.len(), "tokens of {data:?}");
    assert_eq!(numbers[0], input.a.len() as u64);
    for (i, (a, b)) in input.a.iter().zip(&input.b).enumerate() {
        assert_eq!(
            (a.0, b.0),
            (numbers[1 + 2 * i], numbers[2 + 2 * i]),
            "line {i}"
        );
    }
    let printed = format_lines(&input.a);
    let back: Vec<u64> = std::str::from_utf8(&printed)
        .expect("printed numbers are ASCII")
        .lines()
        .map(|l| l.parse().expect("a printed number"))
        .collect();
    assert_eq!(back, input.a.iter().map(|a| a.0).collect::<Vec<_>>());
}

/// A heap-rule script: compiled in the playground's sandbox (a small operation budget and a
/// deadline), then `options(n)` called once.
pub fn script(data: &[u8]) {
    let Ok(source) = std::str::from_utf8(data) else {
        return;
    };
    let ctl = Control::none().with_deadline(Instant::now() + Duration::from_secs(2));
    let Ok(rule) = ScriptRule::compile_limited(source, "fuzz", 20_000, &ctl) else {
        return;
    };
    let mut out = Options::default();
    let _ = rule.options(1 + data.len() as u64 % 16, &mut out);
}

/// The playground's API: the first byte picks the endpoint, the rest is the request body, run
/// through the checks that come before any job.
pub fn api(data: &[u8]) {
    const ENDPOINTS: [&str; 6] = ["seq", "analyze", "hint", "move", "moves", "graph"];
    let Some((&k, body)) = data.split_first() else {
        return;
    };
    let _ = check_request(
        ENDPOINTS[usize::from(k) % ENDPOINTS.len()],
        body,
        &Limits::default(),
    );
}
