//! The playground under load on 127.0.0.1: cheap requests alone, then mixed with eight clients
//! of expensive requests that keep the heavy lane full. Prints, for each group, the requests
//! answered, the rate, the median and 99th percentile latency and the share answered 503.
//! Bounded: each client stops after the run's time or 20 000 requests.
//!
//! Run: `cargo bench -p grundy-cli --bench serve_load` (default limits; the run takes about
//! 40 s). `tests/serve_load.rs` is a short version of the mixed run that asserts the 99th
//! percentile.

#[path = "../tests/support/server.rs"]
mod support;

use grundy_cli::serve::limits::Limits;
use std::time::Duration;
use support::{load, Load, Server};

fn main() {
    let server = Server::start(Limits::default());
    let cheap_clients = 4;
    let (alone, _) = load(
        server.port,
        &Load {
            cheap_clients,
            expensive_clients: 0,
            duration: Duration::from_secs(10),
            max_per_client: 20_000,
        },
    );
    let (cheap, expensive) = load(
        server.port,
        &Load {
            cheap_clients,
            expensive_clients: 8,
            duration: Duration::from_secs(20),
            max_per_client: 20_000,
        },
    );
    println!(
        "| {cheap_clients} cheap clients | requests | req/s | p50 ms | p99 ms | answered 503 |"
    );
    println!("|---|---|---|---|---|---|");
    println!("{}", alone.row("cheap, alone"));
    println!("{}", cheap.row("cheap, with 8 expensive clients"));
    println!("{}", expensive.row("expensive (8 clients, 2 workers)"));
}
