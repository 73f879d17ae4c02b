//! The playground in a real headless Chromium (fantoccini over chromedriver). The page opens on
//! games in progress; a whole game of Nim 3 4 5 is won by clicking the token each hint outlines
//! (one move by the keyboard); a Kayles click offers the two ways of leaving 2 of 4 tokens, and a
//! misère hint shows the misère quotient; a Chomp board is won and a Cram domino placed by clicks;
//! the sum of a Nim heap, a Chomp and a Cram board is won following the hints, its nim-sum shown;
//! the sequence plot answers the mouse and a game graph is drawn. axe-core (downloaded from the
//! npm registry into `target/axe`, never kept in the repository) finds no serious or critical
//! accessibility violation, on a desktop window and on a 390×844 phone, where the page must not
//! be wider than the screen. Screenshots go to `target/e2e/`; the three that the docs show are
//! written to `docs/` as well (`playground.png`, `playground-boards.png`,
//! `playground-phone.png`).
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
        Trial::test(
            "the_playground_in_chromium_is_played_by_clicks_and_passes_axe",
            || {
                tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(2)
                    .enable_all()
                    .build()?
                    .block_on(the_playground_in_chromium())
            },
        )
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

/// A child process killed when the test ends, however it ends, and the temporary directory it
/// was given (removed after it).
struct Guard(Child, #[allow(dead_code)] Option<tempfile::TempDir>);

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
    (Guard(child, None), port)
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
        // Chromium keeps its profile and scratch directories under TMPDIR: a directory of the
        // test's own, removed when the guard is dropped, leaves nothing behind.
        let tmp = tempfile::tempdir().expect("a temporary directory");
        let child = Command::new(chromedriver())
            .arg(format!("--port={port}"))
            .env("TMPDIR", tmp.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let mut guard = Guard(child, Some(tmp));
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

async fn the_playground_in_chromium() -> Result<(), Failed> {
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

async fn click(c: &Client, css: &str) {
    find(c, css).await.click().await.unwrap();
}

/// Opens a closed `<details>` holding `css`, so that WebDriver can type into it.
async fn open_details(c: &Client, css: &str) {
    c.execute(
        "const d = document.querySelector(arguments[0]).closest('details'); if (d) d.open = true;",
        vec![json!(css)],
    )
    .await
    .unwrap();
}

/// Waits until `css` matches at least one element.
async fn wait_some(c: &Client, css: &str) -> Result<(), String> {
    let start = Instant::now();
    while count(c, css).await == 0 {
        if start.elapsed() > Duration::from_secs(20) {
            let errors = c
                .execute(
                    "return [...document.querySelectorAll('.error, [data-state]')].map((e) => \
                     `${e.id}: ${e.dataset.state ?? ''} ${e.textContent}`).join('; ');",
                    vec![],
                )
                .await
                .unwrap_or_default();
            return Err(format!("nothing matches {css} after 20 s ({errors})"));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Ok(())
}

/// axe-core, downloaded from the npm registry into `target/axe` (it is not kept in the
/// repository). Under CI a failed download fails the test.
fn axe_source() -> Option<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/axe");
    let file = dir.join("node_modules/axe-core/axe.min.js");
    if !file.exists() {
        let _ = Command::new("npm")
            .args(["install", "--no-audit", "--no-fund", "--prefix"])
            .arg(&dir)
            .arg(AXE)
            .status();
    }
    match std::fs::read_to_string(&file) {
        Ok(s) => Some(s),
        Err(e) if std::env::var_os("CI").is_some() => panic!("{}: {e}", file.display()),
        Err(e) => {
            eprintln!(
                "accessibility check skipped: {} ({e}); `npm install --prefix target/axe {AXE}`",
                file.display()
            );
            None
        }
    }
}

/// The version of axe-core the accessibility check runs.
const AXE: &str = "axe-core@4.10.3";

/// Runs axe-core on the page as it is and fails on any serious or critical violation.
async fn accessibility_check(c: &Client, axe: &str, when: &str) -> Result<(), String> {
    c.execute(
        "if (!window.axe) { const s = document.createElement('script'); \
         s.textContent = arguments[0]; document.head.appendChild(s); } return typeof axe;",
        vec![json!(axe)],
    )
    .await
    .map_err(|e| e.to_string())?;
    let found = c
        .execute_async(
            "const done = arguments[arguments.length - 1]; \
             axe.run(document, {resultTypes: ['violations']}).then((r) => done({ \
               checked: r.passes.length + r.violations.length + r.incomplete.length, \
               bad: r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical') \
                 .map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.nodes.slice(0, 4) \
                   .map((n) => n.target.join(' ')).join(', ')}`)})) \
             .catch((e) => done({checked: 0, bad: ['axe failed: ' + e]}));",
            vec![],
        )
        .await
        .map_err(|e| e.to_string())?;
    let bad = found["bad"].as_array().cloned().unwrap_or_default();
    if !bad.is_empty() {
        return Err(format!("axe-core ({when}): {bad:#?}"));
    }
    assert!(found["checked"].as_u64().unwrap_or(0) > 10, "{found}");
    Ok(())
}

async fn scenario(c: &Client, port: u16) -> Result<(), String> {
    let url = format!("http://127.0.0.1:{port}/");
    c.goto(&url).await.map_err(|e| e.to_string())?;
    wait_attr(c, "body", "data-ready", |v| v == "1").await;
    // The page opens on games in progress: Nim 3 4 5, a Chomp board and a sum, each with a
    // line saying what to do.
    wait_attr(c, "#board", "data-ready", |v| v == "1").await;
    assert_eq!(count(c, "#board .token").await, 12);
    assert_eq!(
        attr(c, "#status", "data-state").await.as_deref(),
        Some("human")
    );
    wait_attr(c, "#boards-grid", "data-ready", |v| v == "1").await;
    assert_eq!(count(c, "#boards-grid .board-cell").await, 20);
    wait_attr(c, "#sum-parts", "data-ready", |v| v == "1").await;
    assert_eq!(count(c, "#sum-parts .sum-part").await, 3);
    assert_eq!(count(c, "section .todo").await, 5);
    if let Some(axe) = axe_source() {
        accessibility_check(c, &axe, "desktop, on opening").await?;
    }
    play_nim_by_clicking_tokens(c).await?;
    split_a_heap_and_explain_misere_by_the_quotient(c).await?;
    play_chomp_by_clicks_following_the_hints(c).await?;
    play_the_sum_following_the_hints(c).await?;
    sequence_and_graph(c).await?;

    // A phone: the page fits 390 pixels across and still opens on a game to touch.
    // The window's frame, if any, is added so that the page itself gets 390×844.
    let frame = c
        .execute(
            "return [window.outerWidth - window.innerWidth, window.outerHeight - window.innerHeight];",
            vec![],
        )
        .await
        .unwrap();
    let frame = |i: usize| frame[i].as_u64().unwrap_or(0).min(400) as u32;
    c.set_window_size(390 + frame(0), 844 + frame(1))
        .await
        .map_err(|e| e.to_string())?;
    c.goto(&url).await.map_err(|e| e.to_string())?;
    wait_attr(c, "body", "data-ready", |v| v == "1").await;
    wait_attr(c, "#board", "data-ready", |v| v == "1").await;
    let fit = c
        .execute(
            "return [window.innerWidth, document.documentElement.scrollWidth];",
            vec![],
        )
        .await
        .unwrap();
    let (inner, scroll) = (fit[0].as_u64().unwrap(), fit[1].as_u64().unwrap());
    assert!(
        inner <= 400,
        "the window is {inner} pixels wide, not a phone's"
    );
    assert!(
        scroll <= inner,
        "the page is {scroll} pixels wide in a {inner}-pixel window"
    );
    let png = c.screenshot().await.unwrap();
    std::fs::write(e2e_dir().join("playground-phone.png"), &png).unwrap();
    docs_screenshot("playground-phone.png", &png);
    if let Some(axe) = axe_source() {
        accessibility_check(c, &axe, "phone").await?;
    }
    Ok(())
}

/// The opening game, Nim 3 4 5, played to the end by clicking the token each hint outlines
/// (once with the keyboard: the token focused and Enter pressed); the human wins.
async fn play_nim_by_clicking_tokens(c: &Client) -> Result<(), String> {
    let mut moves = 0;
    loop {
        click(c, "#hint-button").await;
        wait_attr(c, "#hint", "data-ready", |v| v == "1").await;
        if moves == 0 {
            // The binary columns and their xor: 3 ^ 4 ^ 5 = 2.
            assert_eq!(attr(c, "#hint", "data-nim-sum").await.as_deref(), Some("2"));
            let table = find(c, "#columns").await.text().await.unwrap();
            assert!(table.contains("nim-sum"), "{table}");
            assert_eq!(count(c, "#columns tr").await, 5);
            let png = c.screenshot().await.unwrap();
            std::fs::write(e2e_dir().join("playground.png"), &png).unwrap();
            docs_screenshot("playground.png", &png);
        }
        let heap = attr(c, "#hint", "data-heap")
            .await
            .ok_or("the hint has no winning move: the human should never be in a P position")?;
        let to = attr(c, "#hint", "data-to").await.unwrap_or_default();
        // The outlined token is the one that leaves what the move leaves.
        let token = find(c, "#board .token[data-hint='1']").await;
        assert_eq!(token.attr("data-heap").await.unwrap(), Some(heap));
        let left: u64 = to.split(',').filter_map(|t| t.parse::<u64>().ok()).sum();
        assert_eq!(token.attr("data-k").await.unwrap(), Some(left.to_string()));
        let logged = count(c, "#log li").await;
        if moves == 1 {
            c.execute(
                "document.querySelector(\"#board .token[data-hint='1']\").focus();",
                vec![],
            )
            .await
            .unwrap();
            let focused = c.active_element().await.unwrap();
            assert_eq!(
                focused.attr("data-hint").await.unwrap().as_deref(),
                Some("1")
            );
            focused
                .send_keys(&char::from(fantoccini::key::Key::Enter).to_string())
                .await
                .unwrap();
        } else {
            token.click().await.unwrap();
        }
        let state = wait_attr(c, "#status", "data-state", |v| v == "human" || v == "over").await;
        wait_attr(c, "#board", "data-ready", |v| v == "1").await;
        assert!(
            count(c, "#log li").await > logged,
            "the move was not played"
        );
        moves += 1;
        if state == "over" {
            break;
        }
        assert!(moves < 20, "the game does not end");
    }
    assert_eq!(
        attr(c, "#status", "data-winner").await.as_deref(),
        Some("human")
    );
    let status = find(c, "#status").await.text().await.unwrap();
    assert!(status.contains("You win"), "{status}");
    assert_eq!(count(c, "#board .token").await, 0);
    let png = c.screenshot().await.unwrap();
    std::fs::write(e2e_dir().join("playground-end.png"), png).unwrap();
    Ok(())
}

/// Kayles: a click that leaves 2 of 4 tokens can take the end pair or the middle pair, and the
/// page offers both; Grundy's game, whose moves only split; then misère play of Kayles, whose
/// hint shows the misère quotient.
async fn split_a_heap_and_explain_misere_by_the_quotient(c: &Client) -> Result<(), String> {
    open_details(c, "#game-notation").await;
    set_text(c, "#game-notation", "kayles").await;
    set_text(c, "#heaps", "4 3").await;
    click(c, "#new-game").await;
    wait_attr(c, "#status", "data-state", |v| v == "human").await;
    click(c, "#board .token[data-heap='0'][data-k='2']").await;
    wait_some(c, "#choices button").await?;
    assert_eq!(count(c, "#choices button").await, 2);
    click(c, "#choices button[data-to='1,1']").await;
    let state = wait_attr(c, "#status", "data-state", |v| v == "human" || v == "over").await;
    assert_eq!(state, "human");
    let log = find(c, "#log").await.text().await.unwrap();
    assert!(log.contains("you: heap 1: 4 → 1 + 1"), "{log}");
    // Grundy's game splits a heap without taking tokens: a click offers the heap's moves, and
    // the hint outlines the whole heap.
    set_text(c, "#game-notation", "grundys-game").await;
    set_text(c, "#heaps", "5").await;
    click(c, "#new-game").await;
    wait_attr(c, "#status", "data-state", |v| v == "human").await;
    click(c, "#board .token[data-heap='0'][data-k='0']").await;
    wait_some(c, "#choices button").await?;
    let offered = find(c, "#choices").await.text().await.unwrap();
    assert!(offered.contains("its moves are"), "{offered}");
    assert_eq!(count(c, "#choices button").await, 2);
    click(c, "#hint-button").await;
    wait_attr(c, "#hint", "data-ready", |v| v == "1").await;
    assert_eq!(count(c, "#board .heap[data-hint='1']").await, 1);
    click(c, "#choices button[data-to='1,4']").await;
    wait_attr(c, "#status", "data-state", |v| v == "human" || v == "over").await;
    // Misère play of a Kayles position, switched on in the panel.
    set_text(c, "#game-notation", "kayles").await;
    set_text(c, "#heaps", "1 1 3").await;
    click(c, "#new-game").await;
    wait_attr(c, "#status", "data-state", |v| v == "human").await;
    click(c, "#misere").await;
    click(c, "#hint-button").await;
    wait_attr(c, "#hint", "data-ready", |v| v == "1").await;
    let quotient = find(c, "#quotient").await.text().await.unwrap();
    assert!(
        quotient.starts_with("Misère quotient of octal:0.77"),
        "{quotient}"
    );
    click(c, "#misere").await;
    Ok(())
}

/// The sum of a Nim heap of 5, Chomp 3×4 and Cram 3×3 (values 5, 9 and 0, nim-sum 12), the human
/// first, clicking what each hint outlines until nothing is left to move.
async fn play_the_sum_following_the_hints(c: &Client) -> Result<(), String> {
    click(c, "#sum-new").await;
    wait_attr(c, "#sum-status", "data-state", |v| v == "playing").await;
    wait_attr(c, "#sum-parts", "data-ready", |v| v == "1").await;
    assert_eq!(
        attr(c, "#sum-values", "data-nim-sum").await.as_deref(),
        Some("12")
    );
    let values: Vec<String> = {
        let mut v = Vec::new();
        for e in c
            .find_all(Locator::Css("#sum-parts .part-value"))
            .await
            .unwrap()
        {
            v.push(e.attr("data-value").await.unwrap().unwrap_or_default());
        }
        v
    };
    assert_eq!(values, ["5", "9", "0"]);
    let mut moves = 0;
    let mut parts_moved = std::collections::BTreeSet::new();
    loop {
        click(c, "#sum-hint").await;
        wait_some(c, "#sum-parts [data-hint='1']").await?;
        let hinted = c
            .execute(
                "return [...document.querySelectorAll(\"#sum-parts [data-hint='1']\")].map((e) => \
                 [e.closest('.sum-part').dataset.part, e.className, e.dataset.heap ?? e.dataset.r, \
                  e.dataset.k ?? e.dataset.c]);",
                vec![],
            )
            .await
            .unwrap();
        for h in hinted.as_array().unwrap() {
            let (part, class) = (h[0].as_str().unwrap(), h[1].as_str().unwrap());
            parts_moved.insert(part.to_string());
            let css = if class == "token" {
                format!(
                    "#sum-parts .sum-part[data-part='{part}'] .token[data-heap='{}'][data-k='{}']",
                    h[2].as_str().unwrap(),
                    h[3].as_str().unwrap()
                )
            } else {
                format!(
                    "#sum-parts .sum-part[data-part='{part}'] .board-cell[data-r='{}'][data-c='{}']",
                    h[2].as_str().unwrap(),
                    h[3].as_str().unwrap()
                )
            };
            click(c, &css).await;
        }
        let state = wait_attr(c, "#sum-status", "data-state", |v| {
            v == "playing" || v == "won" || v == "lost"
        })
        .await;
        wait_attr(c, "#sum-parts", "data-ready", |v| v == "1").await;
        moves += 1;
        if state != "playing" {
            assert_eq!(state, "won");
            break;
        }
        // After the human's move and the engine's reply, the human faces nim-sum != 0 again.
        assert_ne!(
            attr(c, "#sum-values", "data-nim-sum").await.as_deref(),
            Some("0")
        );
        assert!(moves < 40, "the sum does not end");
    }
    let status = find(c, "#sum-status").await.text().await.unwrap();
    assert!(status.contains("you win"), "{status}");
    assert!(parts_moved.len() >= 2, "{parts_moved:?}");
    Ok(())
}

/// The sequence of Dawson's Kayles with its proved period marked, hovering reads G(n), and the
/// default game graph: P red, N blue, D grey.
async fn sequence_and_graph(c: &Client) -> Result<(), String> {
    open_details(c, "#game-notation").await;
    set_text(c, "#game-notation", "dawsons-kayles").await;
    click(c, "#plot-button").await;
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
    click(c, "#graph-button").await;
    wait_attr(c, "#graph-svg", "data-ready", |v| v == "1").await;
    for (outcome, colour) in [("P", "#dc2626"), ("N", "#2563eb"), ("D", "#9ca3af")] {
        let css = format!("#graph-svg g[data-outcome={outcome}] circle");
        assert!(count(c, &css).await >= 1, "no {outcome} vertex");
        assert_eq!(attr(c, &css, "fill").await.as_deref(), Some(colour));
    }
    // Misère play of the same graph: the terminal position d is won by the player to move.
    let outcomes = "return [...document.querySelectorAll('#graph-table tr')].slice(1) \
                    .map((r) => r.cells[0].textContent + r.cells[1].textContent).join(' ');";
    let normal = c.execute(outcomes, vec![]).await.unwrap();
    assert!(normal.as_str().unwrap().contains("dP"), "{normal}");
    // Values as the command line writes them, from the graph document's `value` and
    // `infinite_options`: c moves to d (0) and to the e-f cycle, e and f only to each other.
    let rows = "return [...document.querySelectorAll('#graph-table tr')].slice(1) \
                .map((r) => [...r.cells].map((c) => c.textContent).join(' ')).join('; ');";
    let table = c.execute(rows, vec![]).await.unwrap();
    let table = table.as_str().unwrap();
    for row in [
        "a P 2 0",
        "b N 1 1",
        "c N 1 inf{0}",
        "d P 0 0",
        "e D - inf{}",
    ] {
        assert!(table.contains(row), "{row} not in {table}");
    }
    click(c, "#graph-misere").await;
    wait_attr(c, "#graph-svg", "data-misere", |v| v == "1").await;
    wait_attr(c, "#graph-svg", "data-ready", |v| v == "1").await;
    let misere = c.execute(outcomes, vec![]).await.unwrap();
    assert!(misere.as_str().unwrap().contains("dN"), "{misere}");
    click(c, "#graph-misere").await;
    Ok(())
}

/// Chomp 2×3 in the Boards section, the human first (an N-position), clicking the cells the
/// hint outlines until the engine is left with the poisoned corner alone.
async fn play_chomp_by_clicks_following_the_hints(c: &Client) -> Result<(), String> {
    open_details(c, "#boards-kind").await;
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
    click(c, "#boards-new").await;
    wait_attr(c, "#boards-status", "data-state", |v| v == "playing").await;
    wait_attr(c, "#boards-grid", "data-ready", |v| v == "1").await;
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
