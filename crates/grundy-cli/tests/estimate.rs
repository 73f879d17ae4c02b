//! The estimate of long work (`grundy: computing N values: about X s of CPU time more`) is not
//! wildly off: on a run of a few seconds, the CPU time it forecasts is within a factor of 3 of
//! the CPU time the run takes (measured by the kernel for the child process).

use std::process::Command;

/// The user and system CPU seconds of the children waited for so far.
fn children_cpu() -> f64 {
    // SAFETY: getrusage writes one plain struct that lives on this stack frame.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    assert_eq!(
        unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut ru) },
        0
    );
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(ru.ru_utime) + secs(ru.ru_stime)
}

/// `X` and `used` from `... about X s of CPU time more (D done in used s)`.
fn forecast(stderr: &str) -> Option<(f64, f64)> {
    let line = stderr.lines().find(|l| l.contains("s of CPU time more"))?;
    let more = line
        .split("about ")
        .nth(1)?
        .split(' ')
        .next()?
        .parse()
        .ok()?;
    let used = line
        .split(" done in ")
        .nth(1)?
        .split(' ')
        .next()?
        .parse()
        .ok()?;
    Some((more, used))
}

#[test]
fn the_estimate_of_a_run_of_seconds_is_within_a_factor_of_three() {
    let before = children_cpu();
    // Officers to 3·10^6: a few seconds of CPU time, linear in the number of values.
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["seq", "officers", "-n", "3000000"])
        .output()
        .unwrap();
    let actual = children_cpu() - before;
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    match forecast(&stderr) {
        Some((more, used)) => {
            let ratio = (more + used) / actual;
            assert!(
                (1.0 / 3.0..=3.0).contains(&ratio),
                "forecast {more} s more after {used} s, the run took {actual:.2} s: {stderr}"
            );
        }
        // Said nothing: only a run that ends early or stays short may.
        None => assert!(actual < 10.0, "{actual:.2} s unannounced: {stderr}"),
    }
    assert!(
        !stderr.contains("about") || forecast(&stderr).is_some(),
        "{stderr}"
    );
}

#[test]
fn the_forecast_line_reads_back() {
    assert_eq!(
        forecast(
            "grundy: computing 3000000 values: about 6 s of CPU time more (409600 done in 1.2 s)\n"
        ),
        Some((6.0, 1.2))
    );
}
