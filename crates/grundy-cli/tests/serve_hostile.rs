//! Hostile HTTP input, over a real connection to 127.0.0.1: requests for another host,
//! bodies that are not JSON, half-sent heads and bodies, idle and flooding connections, and
//! requests whose work would run on past the deadline. Each test asserts the answer, how long
//! it took, and that the server answers normally afterwards.

#[path = "support/server.rs"]
mod support;

use grundy_cli::serve::allowed_host;
use grundy_cli::serve::limits::Limits;
use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};
use support::{exchange, parse_answer, post, post_raw, Server};

const WAIT: Duration = Duration::from_secs(10);

fn get(port: u16, host_line: &str) -> u16 {
    let raw = format!("GET /api/games HTTP/1.1\r\n{host_line}Connection: close\r\n\r\n");
    exchange(port, raw.as_bytes(), WAIT).0
}

#[test]
fn the_host_must_be_this_machine_and_port() {
    let server = Server::start(Limits::default());
    let p = server.port;
    for host in [
        format!("127.0.0.1:{p}"),
        format!("localhost:{p}"),
        format!("LocalHost:{p}"),
        format!("[::1]:{p}"),
    ] {
        assert_eq!(get(p, &format!("Host: {host}\r\n")), 200, "{host}");
    }
    for host in [
        format!("evil.example:{p}"),
        format!("127.0.0.1.evil.example:{p}"),
        format!("localhost.:{p}"),
        format!("127.0.0.1:{}", p.wrapping_add(1)),
        format!("127.0.0.1:{p}0"),
        format!("127.0.0.1:+{p}"),
        "127.0.0.1".to_string(),
        "localhost".to_string(),
        format!("[::2]:{p}"),
        format!("[::1:{p}"),
        String::new(),
    ] {
        assert_eq!(get(p, &format!("Host: {host}\r\n")), 421, "{host:?}");
    }
    // No Host at all (HTTP/1.0 allows it).
    let (status, body) = exchange(p, b"GET /api/games HTTP/1.0\r\n\r\n", WAIT);
    assert!(status == 421 || status == 400, "no Host: {status} {body}");
    // An absolute request target names the host too.
    let raw = format!(
        "GET http://evil.example/api/games HTTP/1.1\r\nHost: 127.0.0.1:{p}\r\nConnection: close\r\n\r\n"
    );
    assert_eq!(exchange(p, raw.as_bytes(), WAIT).0, 421);
    // A POST for another host does no work and says why.
    let raw = post_raw(
        "rebound.example",
        "/api/hint",
        Some("application/json"),
        r#"{"game":"nim","heaps":[3,5]}"#,
    );
    let (status, body) = exchange(p, &raw, WAIT);
    assert_eq!(status, 421);
    assert!(
        body.contains("Host") && body.contains(&p.to_string()),
        "{body}"
    );
}

#[test]
fn allowed_hosts_name_the_loopback_with_the_port() {
    assert!(allowed_host("127.0.0.1:7357", 7357));
    assert!(allowed_host("localhost:7357", 7357));
    assert!(allowed_host("[::1]:7357", 7357));
    assert!(!allowed_host("[::1]", 7357));
    assert!(!allowed_host("127.0.0.1", 7357));
    // A browser leaves the default port out.
    assert!(allowed_host("localhost", 80));
    assert!(allowed_host("[::1]", 80));
    assert!(!allowed_host("localhost:", 80));
    assert!(!allowed_host("0.0.0.0:7357", 7357));
    assert!(!allowed_host("127.0.0.2:7357", 7357));
    assert!(!allowed_host("localhost:7357:7357", 7357));
    assert!(!allowed_host("[::1]x:7357", 7357));
}

#[test]
fn a_post_needs_a_json_content_type() {
    let server = Server::start(Limits::default());
    let body = r#"{"game":"nim","heaps":[3,5]}"#;
    for ct in [
        Some("text/plain"),
        Some("application/x-www-form-urlencoded"),
        Some("multipart/form-data; boundary=x"),
        Some("application/jsonp"),
        None,
    ] {
        let raw = post_raw(&server.host(), "/api/hint", ct, body);
        let (status, answer) = exchange(server.port, &raw, WAIT);
        assert_eq!(status, 415, "{ct:?}: {answer}");
        assert!(answer.contains("application/json"), "{answer}");
    }
    for ct in [
        "application/json",
        "application/json; charset=utf-8",
        "Application/JSON",
    ] {
        let raw = post_raw(&server.host(), "/api/hint", Some(ct), body);
        assert_eq!(exchange(server.port, &raw, WAIT).0, 200, "{ct}");
    }
}

/// Reads from `stream` until the server closes it (or `wait` passes): the bytes and the time.
fn read_until_closed(stream: &mut TcpStream, wait: Duration) -> (Vec<u8>, Duration, bool) {
    let start = Instant::now();
    stream.set_read_timeout(Some(wait)).unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => return (got, start.elapsed(), true),
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == ErrorKind::ConnectionReset => {
                return (got, start.elapsed(), true)
            }
            Err(_) => return (got, start.elapsed(), false),
        }
    }
}

#[test]
fn half_sent_heads_and_idle_connections_are_closed_after_the_header_timeout() {
    let timeout = Duration::from_millis(500);
    let server = Server::start(Limits {
        header_timeout: timeout,
        ..Limits::default()
    });
    // A head cut short.
    let mut half = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    write!(
        half,
        "GET /api/games HTTP/1.1\r\nHost: {}\r\nX-Slow:",
        server.host()
    )
    .unwrap();
    // A connection that sends nothing.
    let mut silent = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    // A keep-alive connection, idle after one answer.
    let mut idle = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    write!(
        idle,
        "GET /api/games HTTP/1.1\r\nHost: {}\r\n\r\n",
        server.host()
    )
    .unwrap();
    for (name, stream) in [
        ("half-sent", &mut half),
        ("silent", &mut silent),
        ("idle", &mut idle),
    ] {
        let (got, took, closed) = read_until_closed(stream, WAIT);
        assert!(closed, "{name}: still open after {took:?}");
        assert!(
            took < timeout + Duration::from_secs(2),
            "{name}: closed after {took:?}"
        );
        if name == "idle" {
            assert_eq!(
                parse_answer(&got).0,
                200,
                "{name}: the first request is answered"
            );
        }
    }
    // The server goes on answering.
    assert_eq!(
        get(server.port, &format!("Host: {}\r\n", server.host())),
        200
    );
}

#[test]
fn a_body_that_does_not_arrive_in_time_is_answered_408() {
    let timeout = Duration::from_millis(500);
    let server = Server::start(Limits {
        body_timeout: timeout,
        ..Limits::default()
    });
    let mut s = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    write!(
        s,
        "POST /api/hint HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
         Content-Length: 100\r\nConnection: close\r\n\r\n{{\"game\":",
        server.host()
    )
    .unwrap();
    let start = Instant::now();
    let (got, took, _) = read_until_closed(&mut s, WAIT);
    let (status, body) = parse_answer(&got);
    assert_eq!(status, 408, "{body}");
    assert!(
        took < timeout + Duration::from_secs(2),
        "answered after {took:?}"
    );
    assert!(start.elapsed() >= timeout);
}

#[test]
fn a_connection_flood_does_not_keep_a_real_client_out() {
    // A long header timeout, so that only the cap and its eviction of idle connections help.
    let cap = 32;
    let server = Server::start(Limits {
        connections: cap,
        header_timeout: Duration::from_secs(30),
        ..Limits::default()
    });
    let flood: Vec<TcpStream> = (0..400)
        .map(|i| {
            let mut s = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
            if i % 2 == 0 {
                let _ = s.write_all(b"GET /api/games HTTP/1.1\r\nHost: 127.0");
            }
            s
        })
        .collect();
    for _ in 0..3 {
        let start = Instant::now();
        let status = get(server.port, &format!("Host: {}\r\n", server.host()));
        assert_eq!(status, 200);
        assert!(
            start.elapsed() < Duration::from_secs(2),
            "a real request behind the flood took {:?}",
            start.elapsed()
        );
    }
    // The server holds at most `cap` connections: the rest of the flood was closed.
    std::thread::sleep(Duration::from_millis(300));
    let open = flood
        .iter()
        .filter(|s| {
            s.set_nonblocking(true).unwrap();
            let mut b = [0u8; 1];
            matches!((&**s).read(&mut b), Err(e) if e.kind() == ErrorKind::WouldBlock)
        })
        .count();
    assert!(
        open <= cap,
        "{open} flood connections still open, cap {cap}"
    );
}

/// A quick request of the heavy lane (a script's cost is unknown): answered 200 only when a
/// heavy worker is free within the busy wait.
const HEAVY_QUICK: &str = r#"{"game":"script","script":"fn options(n) { let r = []; for k in 1..=n { r.push([n - k]); } r }","heaps":[3,5]}"#;

#[test]
fn hostile_jobs_stop_at_their_deadline_and_free_their_workers() {
    let deadline = Duration::from_secs(1);
    let server = Server::start(Limits {
        deadline,
        busy_wait: Duration::from_millis(500),
        ..Limits::default()
    });
    let sevens = format!(r#"{{"game":"octal:0.{}","n":100}}"#, "7".repeat(30_000));
    let fs = format!(r#"{{"game":"octal:0.{}","n":5000}}"#, "F".repeat(200));
    let heaps200 = format!("[{}]", vec!["200"; 32].join(","));
    let cases: Vec<(&str, String, &[u16])> = vec![
        // Codes too long to parse within the limits: refused before any work.
        ("/api/seq", sevens, &[400]),
        ("/api/seq", fs, &[400]),
        // Games leaving three heaps, near their limits.
        ("/api/seq", r#"{"game":"octal:0.F","n":5000}"#.into(), &[200, 503]),
        ("/api/hint", r#"{"game":"octal:0.FFFF","heaps":[5000]}"#.into(), &[400, 503]),
        // Misère searches.
        (
            "/api/hint",
            format!(r#"{{"game":"grundys-game","heaps":{heaps200},"misere":true}}"#),
            &[503, 422],
        ),
        (
            "/api/move",
            // Not octal:0.F: its misère quotient (Z/2) is proved and answers at once.
            format!(r#"{{"game":"octal:0.FFFFFFFF","heaps":{heaps200},"misere":true}}"#),
            &[503, 422],
        ),
        // Scripts that sleep or loop.
        (
            "/api/seq",
            r#"{"game":"script","script":"fn options(n) { sleep(1000); [[n - 1]] }","n":10}"#.into(),
            &[400],
        ),
        (
            "/api/seq",
            r#"{"game":"script","script":"fn options(n) { sleep(1000.0); [[n - 1]] }","n":10}"#.into(),
            &[400],
        ),
        (
            "/api/seq",
            r#"{"game":"script","script":"fn options(n) { let a = []; loop { a.push(n); } }","n":10}"#.into(),
            &[400, 503],
        ),
    ];
    for (path, body, statuses) in &cases {
        // Two at once fill the heavy lane: a job running on past its answer would keep the
        // next heavy request waiting beyond the busy wait (503).
        let answers: Vec<(u16, String, Duration)> = std::thread::scope(|s| {
            let a = s.spawn(|| post(&server, path, body));
            let b = s.spawn(|| post(&server, path, body));
            vec![a.join().unwrap(), b.join().unwrap()]
        });
        let short = &body[..body.len().min(80)];
        for (status, answer, took) in answers {
            assert!(
                statuses.contains(&status),
                "{path} {short}: {status} {answer}"
            );
            assert!(
                took < deadline + Duration::from_secs(1),
                "{path} {short}: answered after {took:?}"
            );
        }
        let (status, answer, _) = post(&server, "/api/hint", HEAVY_QUICK);
        assert_eq!(status, 200, "after {path} {short}: {answer}");
    }
}

#[tokio::test]
async fn every_job_gets_the_memory_budget_and_going_over_it_is_422() {
    use grundy_cli::serve::limits::Lane;
    let limits = Limits {
        job_memory: 64 << 20,
        ..Limits::default()
    };
    for lane in [Lane::heavy(&limits), Lane::fast(&limits)] {
        let budget = lane.run(|ctl| Ok(ctl.memory().limit())).await.unwrap();
        assert_eq!(budget, 64 << 20);
        // An engine's reservation beyond the budget is a memory limit: 422, with the numbers.
        let over = lane
            .run(|ctl| {
                let _table = ctl.reserve(100 << 20, "the table of positions")?;
                Ok(())
            })
            .await
            .unwrap_err();
        assert_eq!(over.status.as_u16(), 422, "{}", over.message);
        assert!(
            over.message.contains("the table of positions"),
            "{}",
            over.message
        );
        assert!(over.message.contains("--memory"), "{}", over.message);
        // Within the budget, the same job runs.
        lane.run(|ctl| {
            let _table = ctl.reserve(10 << 20, "the table of positions")?;
            Ok(())
        })
        .await
        .unwrap();
    }
}

#[test]
fn two_host_headers_are_refused() {
    let server = Server::start(Limits::default());
    let good = server.host();
    for (first, second) in [
        (good.as_str(), "evil.example"),
        ("evil.example", &good),
        (&good, &good),
    ] {
        let raw = format!(
            "GET /api/games HTTP/1.1\r\nHost: {first}\r\nHost: {second}\r\nConnection: close\r\n\r\n"
        );
        let (status, body) = exchange(server.port, raw.as_bytes(), WAIT);
        assert_eq!(status, 400, "{first}, {second}: {body}");
        assert!(body.contains("more than one Host"), "{body}");
    }
}

/// 300 connections that send a whole head and then trickle their bodies, one byte a second
/// (more than the 256 connections allowed), do not keep a real client out: each of its requests
/// is answered within a second.
#[test]
fn trickled_bodies_do_not_keep_a_real_client_out() {
    let server = Server::start(Limits::default());
    let head = format!(
        "POST /api/hint HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
         Content-Length: 4000\r\n\r\n{{",
        server.host()
    );
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let trickle = {
        let stop = stop.clone();
        let port = server.port;
        std::thread::spawn(move || {
            let mut flood: Vec<TcpStream> = (0..300)
                .filter_map(|_| {
                    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
                    s.write_all(head.as_bytes()).ok()?;
                    Some(s)
                })
                .collect();
            // A bounded time: at most 20 s of trickling.
            let start = Instant::now();
            while !stop.load(std::sync::atomic::Ordering::Relaxed)
                && start.elapsed() < Duration::from_secs(20)
            {
                flood.retain_mut(|s| s.write_all(b" ").is_ok());
                // The server closed some: open new ones in their place.
                while flood.len() < 300 {
                    let Ok(mut s) = TcpStream::connect(("127.0.0.1", port)) else {
                        break;
                    };
                    if s.write_all(head.as_bytes()).is_err() {
                        break;
                    }
                    flood.push(s);
                }
                std::thread::sleep(Duration::from_millis(200));
            }
        })
    };
    std::thread::sleep(Duration::from_millis(1500));
    for round in 0..5 {
        let start = Instant::now();
        let raw = post_raw(
            &server.host(),
            "/api/hint",
            Some("application/json"),
            r#"{"game":"nim","heaps":[3,5]}"#,
        );
        let (status, body) = exchange(server.port, &raw, WAIT);
        let took = start.elapsed();
        assert_eq!(status, 200, "round {round}: {body}");
        assert!(
            took < Duration::from_secs(1),
            "round {round}: answered after {took:?}"
        );
        std::thread::sleep(Duration::from_millis(300));
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    trickle.join().unwrap();
}

/// A script that builds an array nested 12 000 levels deep (Rhai's size limits count the arrays,
/// and allow it) is answered, not the end of the server.
#[test]
fn deeply_nested_script_values_do_not_kill_the_server() {
    let deadline = Duration::from_secs(3);
    let server = Server::start(Limits {
        deadline,
        ..Limits::default()
    });
    let body = r#"{"game":"script","script":"fn options(n) { let a = []; for i in 0..12000 { a = [a]; } [] }","n":3}"#;
    let start = Instant::now();
    let (status, answer, _) = post(&server, "/api/seq", body);
    assert!([200, 503].contains(&status), "{status} {answer}");
    assert!(start.elapsed() < deadline + Duration::from_secs(2));
    let (status, answer, _) = post(&server, "/api/hint", HEAVY_QUICK);
    assert_eq!(status, 200, "{answer}");
}
