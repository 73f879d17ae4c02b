//! The playground in a real headless Chromium (fantoccini over chromedriver): the page loads,
//! the sequence plot answers the mouse, a game graph is drawn, and a full game of Nim from the
//! 27 16 8 2 7 of the docs in which the human always plays the hint's move ends with the human's
//! win. Screenshots go to `target/e2e/` (`playground.png`, `playground-end.png`); the two that the
//! docs show are written to `docs/` as well (`playground.png`, `playground-boards.png`).
//!
//! Needs `/usr/bin/chromedriver` and Chromium (Debian `chromium chromium-driver`, installed by
//! `.ci/run`): without them the Chromium test is reported as *ignored*, except under `CI`, where
//! it runs and fails. `GRUNDY_CHROMEDRIVER` names another chromedriver binary.
//!
//! The binary has its own `main` (`harness = false`, libtest-mimic) so that whether the test
//! is ignored is decided when it runs, not when it is compiled; it takes the usual test
//! arguments (a name filter, `--ignored`, `--nocapture`, ...).

use fantoccini::{elements::Element, Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::json;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Where chromedriver is looked for, unless `GRUNDY_CHROMEDRIVER` names another binary.
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

fn chromedriver() -> PathBuf {
    std::env::var_os("GRUNDY_CHROMEDRIVER")
        .map_or_else(|| PathBuf::from(CHROMEDRIVER), PathBuf::from)
}

fn main() {
    let args = Arguments::from_args();
    let driver = chromedriver();
    // Outside CI a missing driver makes the test ignored; under CI it runs and fails.
    let cannot_run = !driver.exists() && std::env::var_os("CI").is_none();
    let trials = vec![
        Trial::test("play_nim_in_chromium_following_the_hints_and_win", || {
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()?
                .block_on(play_nim_in_chromium_following_the_hints_and_win())
        })
        .with_ignored_flag(cannot_run),
        Trial::test("serve_says_where_it_listens_and_answers_there", || {
            serve_says_where_it_listens_and_answers_there();
            Ok(())
        }),
        Trial::test("a_port_in_use_is_bad_usage_naming_the_port", || {
            a_port_in_use_is_bad_usage_naming_the_port();
            Ok(())
        }),
    ];
    libtest_mimic::run(&args, trials).exit();
}

/// A child process killed when the test ends, however it ends.
struct Guard(Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `grundy serve --port 0` and reads the port it printed.
fn start_server() -> (Guard, u16) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["serve", "--port", "0"])
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("start grundy serve");
    let mut line = String::new();
    BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port = line
        .trim()
        .strip_prefix("listening on http://127.0.0.1:")
        .unwrap_or_else(|| panic!("unexpected first line: {line:?}"))
        .parse()
        .unwrap();
    (Guard(child), port)
}

/// A free port (bound, read, released).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Starts chromedriver and waits until it answers `GET /status`. The port comes from
/// [`free_port`], so another process (or a test of this file running in parallel) may bind it
/// first; chromedriver then exits, or the port answers as something else, and the next attempt
/// takes another port. (A CI run once failed here: a bare TCP probe was answered, then the
/// session was refused.)
fn start_chromedriver() -> (Guard, u16) {
    for _ in 0..5 {
        let port = free_port();
        let child = Command::new(chromedriver())
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let mut guard = Guard(child);
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(20) {
            if !matches!(guard.0.try_wait(), Ok(None)) {
                break;
            }
            if chromedriver_ready(port) {
                return (guard, port);
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    panic!("chromedriver did not start (5 ports tried, 20 s each)");
}

/// Whether a WebDriver server on `port` answers its status request with 200 and says it is
/// ready.
fn chromedriver_ready(port: u16) -> bool {
    use std::io::{Read, Write};
    let Ok(mut stream) = std::net::TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
    let request =
        format!("GET /status HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n");
    if stream.write_all(request.as_bytes()).is_err() {
        return false;
    }
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    answer.starts_with("HTTP/1.1 200") && answer.contains("\"ready\"")
}

async fn find(c: &Client, css: &str) -> Element {
    c.find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
}

async fn attr(c: &Client, css: &str, name: &str) -> Option<String> {
    find(c, css).await.attr(name).await.unwrap()
}

/// Polls until `css`'s attribute `name` satisfies `ok`; returns its value.
async fn wait_attr(c: &Client, css: &str, name: &str, ok: impl Fn(&str) -> bool) -> String {
    let start = Instant::now();
    loop {
        if let Some(v) = attr(c, css, name).await {
            if ok(&v) {
                return v;
            }
        }
        if start.elapsed() > Duration::from_secs(20) {
            let err = find(c, "#error").await.text().await.unwrap_or_default();
            panic!(
                "{css}[{name}] = {:?} after 20 s (page error: {err:?})",
                attr(c, css, name).await
            );
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn count(c: &Client, css: &str) -> usize {
    c.find_all(Locator::Css(css)).await.unwrap().len()
}

async fn set_text(c: &Client, css: &str, text: &str) {
    let e = find(c, css).await;
    e.clear().await.unwrap();
    e.send_keys(text).await.unwrap();
}

fn e2e_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/e2e");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes a screenshot that the docs show (`docs/NAME`), so that the pages always show the
/// playground as it is.
fn docs_screenshot(name: &str, png: &[u8]) {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs");
    std::fs::write(docs.join(name), png).unwrap();
}

async fn play_nim_in_chromium_following_the_hints_and_win() -> Result<(), Failed> {
    let driver = chromedriver();
    if !driver.exists() {
        return Err(format!(
            "{} is missing (under CI the test must run: .ci/run installs chromium \
             chromium-driver)",
            driver.display()
        )
        .into());
    }
    let (_server, port) = start_server();
    let (_driver, driver_port) = start_chromedriver();
    let mut caps = serde_json::Map::new();
    let mut chrome = json!({"args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                                     "--disable-dev-shm-usage", "--window-size=1400,1750"]});
    if Path::new("/usr/bin/chromium").exists() {
        chrome["binary"] = json!("/usr/bin/chromium");
    }
    caps.insert("goog:chromeOptions".into(), chrome);
    let c = ClientBuilder::new(HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{driver_port}"))
        .await
        .expect("a chromedriver session");
    let result = scenario(&c, port).await;
    c.close().await.unwrap();
    result.map_err(Failed::from)
}

async fn scenario(c: &Client, port: u16) -> Result<(), String> {
    c.goto(&format!("http://127.0.0.1:{port}/"))
        .await
        .map_err(|e| e.to_string())?;
    wait_attr(c, "body", "data-ready", |v| v == "1").await;
    assert!(count(c, "#game-select option").await >= 9);

    // The sequence of Dawson's Kayles with its proved period marked; hovering reads G(n).
    set_text(c, "#game-notation", "dawsons-kayles").await;
    find(c, "#plot-button").await.click().await.unwrap();
    wait_attr(c, "#plot", "data-ready", |v| v == "1").await;
    let pattern = find(c, "#pattern").await.text().await.unwrap();
    assert!(
        pattern.contains("period") && pattern.ends_with("[proved]"),
        "{pattern}"
    );
    assert!(count(c, "#plot line[stroke-dasharray]").await >= 2);
    let tip = c
        .execute(
            "const r = document.querySelector('#plot svg rect[fill=transparent]'); \
             const b = r.getBoundingClientRect(); \
             r.dispatchEvent(new MouseEvent('mousemove', {clientX: b.left, \
               clientY: b.top + 5, bubbles: true})); \
             return document.getElementById('plot-tip').textContent;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(tip, json!("n = 0, G(n) = 0"));

    // The default graph: P red, N blue, D grey.
    find(c, "#graph-button").await.click().await.unwrap();
    wait_attr(c, "#graph-svg", "data-ready", |v| v == "1").await;
    for (outcome, colour) in [("P", "#dc2626"), ("N", "#2563eb"), ("D", "#9ca3af")] {
        let css = format!("#graph-svg g[data-outcome={outcome}] circle");
        assert!(count(c, &css).await >= 1, "no {outcome} vertex");
        assert_eq!(attr(c, &css, "fill").await.as_deref(), Some(colour));
    }

    // Nim from 27 16 8 2 7, the human first, always playing the hint's move.
    find(c, "#game-select")
        .await
        .select_by_value("sub:1,3,4")
        .await
        .unwrap();
    find(c, "#game-select")
        .await
        .select_by_value("nim")
        .await
        .unwrap();
    assert_eq!(
        find(c, "#game-notation")
            .await
            .prop("value")
            .await
            .unwrap()
            .as_deref(),
        Some("nim")
    );
    set_text(c, "#heaps", "27 16 8 2 7").await;
    find(c, "#first")
        .await
        .select_by_value("human")
        .await
        .unwrap();
    find(c, "#new-game").await.click().await.unwrap();
    wait_attr(c, "#status", "data-state", |v| v == "human").await;
    let mut moves = 0;
    loop {
        find(c, "#hint-button").await.click().await.unwrap();
        wait_attr(c, "#hint", "data-ready", |v| v == "1").await;
        let heap = attr(c, "#hint", "data-heap")
            .await
            .ok_or("the hint has no winning move: the human should never be in a P position")?;
        let to = attr(c, "#hint", "data-to").await.unwrap_or_default();
        if moves == 0 {
            // The worked example of the docs: the binary columns and their xor, 27^16^8^2^7 = 6.
            let x = [27u64, 16, 8, 2, 7].iter().fold(0, |a, h| a ^ h);
            assert_eq!(attr(c, "#hint", "data-nim-sum").await, Some(x.to_string()));
            let table = find(c, "#columns").await.text().await.unwrap();
            assert!(table.contains("nim-sum"), "{table}");
            assert_eq!(count(c, "#columns tr").await, 7);
            let png = c.screenshot().await.unwrap();
            std::fs::write(e2e_dir().join("playground.png"), &png).unwrap();
            docs_screenshot("playground.png", &png);
        }
        find(c, "#heap-select")
            .await
            .select_by_value(&heap)
            .await
            .unwrap();
        wait_attr(c, "#move-select", "data-loaded", |v| v == "1").await;
        wait_attr(c, "#move-select", "data-heap", |v| v == heap).await;
        find(c, "#move-select")
            .await
            .select_by_value(&to)
            .await
            .unwrap();
        let logged = count(c, "#log li").await;
        find(c, "#play-move").await.click().await.unwrap();
        let state = wait_attr(c, "#status", "data-state", |v| v == "human" || v == "over").await;
        assert!(
            count(c, "#log li").await > logged,
            "the move was not played"
        );
        moves += 1;
        if state == "over" {
            break;
        }
        assert!(moves < 100, "the game does not end");
    }
    assert_eq!(
        attr(c, "#status", "data-winner").await.as_deref(),
        Some("human")
    );
    let status = find(c, "#status").await.text().await.unwrap();
    assert!(status.contains("You win"), "{status}");
    let png = c.screenshot().await.unwrap();
    std::fs::write(e2e_dir().join("playground-end.png"), png).unwrap();
    play_chomp_by_clicks_following_the_hints(c).await
}

/// Chomp 2×3 in the Boards section, the human first (an N-position), clicking the cells the
/// hint outlines until the engine is left with the poisoned corner alone.
async fn play_chomp_by_clicks_following_the_hints(c: &Client) -> Result<(), String> {
    find(c, "#boards-kind")
        .await
        .select_by_value("chomp")
        .await
        .unwrap();
    set_text(c, "#boards-rows", "2").await;
    set_text(c, "#boards-cols", "3").await;
    find(c, "#boards-first")
        .await
        .select_by_value("human")
        .await
        .unwrap();
    find(c, "#boards-new").await.click().await.unwrap();
    wait_attr(c, "#boards-status", "data-state", |v| v == "playing").await;
    assert_eq!(count(c, "#boards-grid .board-cell").await, 6);
    assert_eq!(count(c, "#boards-grid [data-poison='1']").await, 1);
    let outcome = find(c, "#boards-outcome").await.text().await.unwrap();
    assert!(outcome.starts_with("N, value 4"), "{outcome}");
    let mut moves = 0;
    loop {
        find(c, "#boards-hint").await.click().await.unwrap();
        let start = Instant::now();
        while count(c, "#boards-grid [data-hint='1']").await == 0 {
            if start.elapsed() > Duration::from_secs(20) {
                return Err("the hint outlined no cell".into());
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        if moves == 0 {
            // The winning first move eats the top right cell.
            let cell = find(c, "#boards-grid [data-hint='1']").await;
            assert_eq!(cell.attr("data-r").await.unwrap().as_deref(), Some("1"));
            assert_eq!(cell.attr("data-c").await.unwrap().as_deref(), Some("2"));
        }
        find(c, "#boards-grid [data-hint='1']")
            .await
            .click()
            .await
            .unwrap();
        let state = wait_attr(c, "#boards-status", "data-state", |v| {
            v == "playing" || v == "won" || v == "lost"
        })
        .await;
        moves += 1;
        if state != "playing" {
            assert_eq!(state, "won");
            break;
        }
        assert!(moves < 10, "the game does not end");
    }
    let status = find(c, "#boards-status").await.text().await.unwrap();
    assert!(status.contains("you win"), "{status}");
    let png = c.screenshot().await.unwrap();
    std::fs::write(e2e_dir().join("playground-boards.png"), &png).unwrap();
    docs_screenshot("playground-boards.png", &png);

    // Cram 2×2, the human first: a domino by two clicks, the engine places the parallel one
    // and the human, left without a move, loses.
    find(c, "#boards-kind")
        .await
        .select_by_value("cram")
        .await
        .unwrap();
    set_text(c, "#boards-rows", "2").await;
    set_text(c, "#boards-cols", "2").await;
    find(c, "#boards-new").await.click().await.unwrap();
    wait_attr(c, "#boards-status", "data-state", |v| v == "playing").await;
    let outcome = find(c, "#boards-outcome").await.text().await.unwrap();
    assert!(outcome.starts_with("P, value 0"), "{outcome}");
    find(c, "#boards-grid [data-r='0'][data-c='0']")
        .await
        .click()
        .await
        .unwrap();
    assert_eq!(count(c, "#boards-grid [data-selected='1']").await, 1);
    find(c, "#boards-grid [data-r='0'][data-c='1']")
        .await
        .click()
        .await
        .unwrap();
    let state = wait_attr(c, "#boards-status", "data-state", |v| {
        v == "playing" || v == "won" || v == "lost"
    })
    .await;
    assert_eq!(state, "lost");
    assert_eq!(count(c, "#boards-grid [data-state='human']").await, 2);
    assert_eq!(count(c, "#boards-grid [data-state='engine']").await, 2);
    Ok(())
}

fn serve_says_where_it_listens_and_answers_there() {
    let (_server, port) = start_server();
    assert!(std::net::TcpStream::connect(("127.0.0.1", port)).is_ok());
}

fn a_port_in_use_is_bad_usage_naming_the_port() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["serve", "--port", &port])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(&format!("--port {port}")), "{stderr}");
    // A port that is not a number is a usage error too (clap).
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["serve", "--port", "70000"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
