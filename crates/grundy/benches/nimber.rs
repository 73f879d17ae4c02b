//! Nim products: ns per product for every path, each beside a simple logarithm-table product in
//! the same run; and the whole `grundy nimber product` process on a 10^6-line input.
//!
//! Run with `cargo bench -p grundy --bench nimber`. The naive method is the common contest
//! approach: logarithm/exponential tables of the `2^16` subfield and the plain recursion on
//! halves (four half products a level, no Karatsuba).

mod common;

use common::{header, median_time};
use grundy::nimber::{batch, kernel, reference, Nim128, Nim64};
use rand::{Rng, SeedableRng};
use std::hint::black_box;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The naive product: log/exp tables below 2^16 (reduced with `%`), then on halves
/// `(ah·T+al)(bh·T+bl) = ((ah⊕al)(bh⊕bl) ⊕ al bl)·T ⊕ al bl ⊕ (ah bh)⊗(T/2)`: three half
/// products and one by `T/2` at each level, all by the same recursion.
struct Naive {
    log: Vec<u32>,
    exp: Vec<u16>,
}

impl Naive {
    fn new() -> Naive {
        // A generator of the 2^16 field: orders divide 65535; test by walking the powers.
        for g in 256u16.. {
            let mut exp = Vec::with_capacity(65535);
            let mut x = 1u16;
            loop {
                exp.push(x);
                x = reference::mul_u16(x, g);
                if x == 1 {
                    break;
                }
            }
            if exp.len() == 65535 {
                let mut log = vec![0u32; 65536];
                for (e, &v) in exp.iter().enumerate() {
                    log[v as usize] = e as u32;
                }
                return Naive { log, exp };
            }
        }
        unreachable!("F_4 has a generator")
    }

    fn mul16(&self, a: u64, b: u64) -> u64 {
        if a == 0 || b == 0 {
            return 0;
        }
        self.exp[((self.log[a as usize] + self.log[b as usize]) % 65535) as usize] as u64
    }

    fn mul_level(&self, a: u64, b: u64, half: u32) -> u64 {
        if half == 8 {
            return self.mul16(a, b);
        }
        let h = half / 2;
        let mask = (1u64 << h) - 1;
        let (ah, al, bh, bl) = (a >> h, a & mask, b >> h, b & mask);
        let hh = self.mul_level(ah, bh, h);
        let ll = self.mul_level(al, bl, h);
        let hi = self.mul_level(ah ^ al, bh ^ bl, h) ^ ll;
        let lo = ll ^ self.mul_level(hh, 1 << (h - 1), h);
        (hi << h) | lo
    }

    fn mul64(&self, a: u64, b: u64) -> u64 {
        self.mul_level(a, b, 64)
    }

    fn mul128(&self, a: u128, b: u128) -> u128 {
        let (ah, al, bh, bl) = ((a >> 64) as u64, a as u64, (b >> 64) as u64, b as u64);
        let hh = self.mul64(ah, bh);
        let hi = hh ^ self.mul64(ah, bl) ^ self.mul64(al, bh);
        let lo = self.mul64(al, bl) ^ self.mul64(hh, 1 << 63);
        ((hi as u128) << 64) | lo as u128
    }
}

/// Precise ns per item of the rows of the current table (the shared table rounds to whole ns).
static PRECISE: std::sync::Mutex<Vec<(String, f64, Option<f64>)>> =
    std::sync::Mutex::new(Vec::new());

/// Prints a table row and remembers its exact ns per item for [`precise_table`].
fn row(what: &str, items: u64, fast: Duration, naive: Option<Duration>) {
    common::row(what, items, fast, naive);
    let ns = |d: Duration| d.as_secs_f64() * 1e9 / items.max(1) as f64;
    PRECISE
        .lock()
        .unwrap()
        .push((what.to_string(), ns(fast), naive.map(ns)));
}

/// Prints ns per item with two decimals for the rows since the last call.
fn precise_table() {
    println!(
        "
| what | ns per item | naive ns per item |\n|---|---|---|"
    );
    for (what, ns, naive) in PRECISE.lock().unwrap().drain(..) {
        let naive = naive.map_or("—".to_string(), |n| format!("{n:.2}"));
        println!("| {what} | {ns:.2} | {naive} |");
    }
}

const N: usize = 1 << 16;
const RUNS: usize = 9;

/// Times a throughput loop (independent products) and a latency loop (each product feeds the
/// next) of `f`, and the same for `naive`.
fn single(
    what: &str,
    a: &[u64],
    b: &[u64],
    f: impl Fn(u64, u64) -> u64,
    naive: impl Fn(u64, u64) -> u64,
) {
    let thr = |g: &dyn Fn(u64, u64) -> u64| {
        median_time(RUNS, || {
            let mut acc = 0u64;
            for i in 0..a.len() {
                acc ^= g(black_box(a[i]), black_box(b[i]));
            }
            acc
        })
    };
    let lat = |g: &dyn Fn(u64, u64) -> u64| {
        median_time(RUNS, || {
            let mut x = 1u64;
            for &y in b {
                x = g(x, y) | 1;
            }
            x
        })
    };
    row(
        &format!("{what}, throughput"),
        a.len() as u64,
        thr(&f),
        Some(thr(&naive)),
    );
    row(
        &format!("{what}, latency (dependent chain)"),
        a.len() as u64,
        lat(&f),
        Some(lat(&naive)),
    );
}

fn words(xs: &[u64]) -> Vec<Nim64> {
    xs.iter().map(|&x| Nim64(x)).collect()
}

/// The `grundy` release binary, built by this benchmark if needed.
fn grundy_binary() -> PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .args([
            "build",
            "--release",
            "-q",
            "-p",
            "grundy-cli",
            "--bin",
            "grundy",
        ])
        .status()
        .expect("cargo runs");
    assert!(status.success(), "building grundy failed");
    // This benchmark is target/release/deps/nimber-HASH; the binary is target/release/grundy.
    let exe = std::env::current_exe().expect("own path");
    exe.parent()
        .and_then(|d| d.parent())
        .expect("target/release")
        .join("grundy")
}

/// The naive pipeline for the whole problem: line-by-line reading, `str::parse`, the naive
/// product, `writeln!` into a buffered writer.
fn naive_process(naive: &Naive, input: &[u8]) -> Vec<u8> {
    let mut lines = input.lines();
    let t: usize = lines.next().unwrap().unwrap().trim().parse().unwrap();
    let mut out = std::io::BufWriter::new(Vec::new());
    for _ in 0..t {
        let line = lines.next().unwrap().unwrap();
        let mut it = line.split_whitespace();
        let a: u64 = it.next().unwrap().parse().unwrap();
        let b: u64 = it.next().unwrap().parse().unwrap();
        writeln!(out, "{}", naive.mul64(a, b)).unwrap();
    }
    out.into_inner().unwrap()
}

/// The user + system CPU time of the finished child processes (Linux: `/proc/self/stat` fields
/// 16 and 17, in clock ticks of 10 ms), so that a loaded machine's waiting is not counted.
fn children_cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesised command name start at field 3.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields.get(13)?.parse::<u64>().ok()? + fields.get(14)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

fn main() {
    let naive = Naive::new();
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let a: Vec<u64> = (0..N).map(|_| rng.gen()).collect();
    let b: Vec<u64> = (0..N).map(|_| rng.gen()).collect();
    for i in (0..N).step_by(257) {
        assert_eq!(
            kernel::mul64(a[i], b[i]),
            naive.mul64(a[i], b[i]),
            "paths disagree"
        );
    }

    header(&format!(
        "Nim products below 2^64 ({N} random pairs; scalar path: {}, batch path: {})",
        kernel::path(),
        batch::path()
    ));
    single(
        "Nim64 `*` (fastest scalar path)",
        &a,
        &b,
        |x, y| (Nim64(x) * Nim64(y)).0,
        |x, y| naive.mul64(x, y),
    );
    single(
        "portable fallback (log tables + Karatsuba)",
        &a,
        &b,
        kernel::portable::mul64,
        |x, y| naive.mul64(x, y),
    );
    let naive_all = median_time(RUNS, || {
        a.iter()
            .zip(&b)
            .map(|(&x, &y)| naive.mul64(x, y))
            .fold(0, |s, v| s ^ v)
    });
    let (na, nb) = (words(&a), words(&b));
    let mut out = vec![Nim64(0); N];
    let t = median_time(RUNS, || batch::mul_slice(&na, &nb, &mut out));
    row(
        "batch `mul_slice`, one thread",
        N as u64,
        t,
        Some(naive_all),
    );
    let t = median_time(RUNS, || batch::mul_slice_scalar(&na, &nb, &mut out));
    row(
        "batch, scalar loop (no vector path)",
        N as u64,
        t,
        Some(naive_all),
    );
    let (ba, bb) = (
        words(&[a.clone(), a.clone(), a.clone(), a.clone()].concat()),
        words(&[b.clone(), b.clone(), b.clone(), b.clone()].concat()),
    );
    let mut big_out = vec![Nim64(0); ba.len()];
    let t = median_time(RUNS, || batch::par_mul_slice(&ba, &bb, &mut big_out));
    row(
        &format!(
            "batch `par_mul_slice`, {} threads",
            rayon::current_num_threads()
        ),
        ba.len() as u64,
        t,
        Some(naive_all * 4),
    );
    let c = Nim64(a[0]);
    let t = median_time(RUNS, || batch::mul_scalar_slice(c, &na, &mut out));
    let naive_c = median_time(RUNS, || {
        b.iter().map(|&y| naive.mul64(c.0, y)).fold(0, |s, v| s ^ v)
    });
    row(
        "batch `mul_scalar_slice` (constant × slice)",
        N as u64,
        t,
        Some(naive_c),
    );

    let fermat = median_time(RUNS, || {
        na.iter().fold(Nim64(0), |s, &x| {
            s + grundy::nimber::algebra::inv_by_fermat(&x).unwrap_or_default()
        })
    });
    let conj = median_time(RUNS, || {
        na.iter()
            .fold(Nim64(0), |s, &x| s + x.inv().unwrap_or_default())
    });
    row(
        "`Nim64::inv` (conjugate + log tables; naive: Fermat a^(2^64-2))",
        N as u64,
        conj,
        Some(fermat),
    );
    precise_table();

    // 128-bit.
    let a2: Vec<u128> = (0..N / 4).map(|_| rng.gen()).collect();
    let b2: Vec<u128> = (0..N / 4).map(|_| rng.gen()).collect();
    header("Nim products below 2^128");
    let thr = |g: &dyn Fn(u128, u128) -> u128| {
        median_time(RUNS, || {
            a2.iter()
                .zip(&b2)
                .fold(0u128, |s, (&x, &y)| s ^ g(black_box(x), black_box(y)))
        })
    };
    let naive128 = thr(&|x, y| naive.mul128(x, y));
    row(
        "Nim128 `*`, throughput",
        a2.len() as u64,
        thr(&|x, y| (Nim128(x) * Nim128(y)).0),
        Some(naive128),
    );
    row(
        "portable 128-bit fallback, throughput",
        a2.len() as u64,
        thr(&kernel::portable::mul128),
        Some(naive128),
    );

    precise_table();

    // The whole process on a 10^6-line input.
    let lines = 1_000_000usize;
    let mut input = format!("{lines}\n").into_bytes();
    for _ in 0..lines {
        writeln!(input, "{} {}", rng.gen::<u64>(), rng.gen::<u64>()).unwrap();
    }
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let path = dir.join("nim_product_input.txt");
    std::fs::write(&path, &input).unwrap();
    let grundy = grundy_binary();
    let expect = naive_process(&naive, &input);
    let run_process = || {
        let t = Instant::now();
        let out = Command::new(&grundy)
            .args(["nimber", "product"])
            .stdin(Stdio::from(std::fs::File::open(&path).unwrap()))
            .output()
            .expect("grundy runs");
        let d = t.elapsed();
        assert!(out.status.success());
        (d, out.stdout)
    };
    let (_, got) = run_process();
    assert!(
        got == expect,
        "grundy nimber product disagrees with the naive pipeline"
    );
    let cpu_before = children_cpu_time();
    let mut times: Vec<Duration> = (0..5).map(|_| run_process().0).collect();
    let cpu = children_cpu_time()
        .zip(cpu_before)
        .map(|(after, before)| (after - before) / 5);
    times.sort();
    let naive_t = median_time(3, || naive_process(&naive, &input));
    header(&format!(
        "`grundy nimber product`, whole process, {lines} lines ({:.1} MB in)",
        input.len() as f64 / 1e6
    ));
    row(
        "release binary, wall clock (median of 5)",
        lines as u64,
        times[2],
        Some(naive_t),
    );
    if let Some(cpu) = cpu {
        row(
            "release binary, CPU time user+sys (mean of 5)",
            lines as u64,
            cpu,
            None,
        );
    }
    precise_table();
}
