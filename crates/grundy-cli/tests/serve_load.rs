//! The fast lane under load, on 127.0.0.1: cheap requests (hints and moves of small positions,
//! the game list, a short sequence) keep a small 99th percentile while eight clients keep the
//! heavy lane full. A small, bounded version of `cargo bench -p grundy-cli --bench serve_load`
//! (whose figures are in docs/performance.md); the bound asserted here is generous for a busy
//! machine, but a cheap request queued behind the heavy jobs (up to the 2 s wait for a worker,
//! then 503) fails it.

#[path = "support/server.rs"]
mod support;

use grundy_cli::serve::limits::Limits;
use std::time::Duration;
use support::{load, Load, Server};

/// The 99th percentile a cheap request must stay under here (the target is 50 ms).
const CHEAP_P99: Duration = Duration::from_millis(250);

#[test]
fn cheap_requests_stay_fast_while_expensive_ones_fill_the_heavy_lane() {
    let server = Server::start(Limits {
        deadline: Duration::from_secs(2),
        ..Limits::default()
    });
    let alone = load(
        server.port,
        &Load {
            cheap_clients: 2,
            expensive_clients: 0,
            duration: Duration::from_secs(1),
            max_per_client: 2_000,
        },
    );
    let (cheap, expensive) = load(
        server.port,
        &Load {
            cheap_clients: 2,
            expensive_clients: 8,
            duration: Duration::from_secs(4),
            max_per_client: 2_000,
        },
    );
    eprintln!("| clients | requests | req/s | p50 ms | p99 ms | 503 |");
    eprintln!("{}", alone.0.row("cheap alone"));
    eprintln!("{}", cheap.row("cheap, mixed"));
    eprintln!("{}", expensive.row("expensive, mixed"));
    assert_eq!(alone.0.ok, alone.0.count, "cheap alone: {:?}", alone.0);
    assert!(
        alone.0.count > 50,
        "cheap alone: {} requests",
        alone.0.count
    );
    // The heavy lane was full: its eight clients for two workers were turned away or stopped.
    assert!(expensive.count >= 8, "{expensive:?}");
    assert!(
        expensive.busy > 0,
        "the heavy lane was never full: {expensive:?}"
    );
    // Every cheap request was answered, and quickly.
    assert_eq!(cheap.ok, cheap.count, "cheap, mixed: some not answered 200");
    assert!(cheap.count > 50, "cheap, mixed: {} requests", cheap.count);
    let p99 = cheap.quantile(0.99);
    assert!(
        p99 < CHEAP_P99,
        "cheap requests' p99 is {p99:?} while the heavy lane is full (limit {CHEAP_P99:?})"
    );
}
