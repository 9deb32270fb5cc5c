//! Phase reports for profiling whole commands: with `SPVKIT_TIMES` set in the environment,
//! each phase prints how long it took and, on Linux, the resident memory after it and the peak
//! so far (`spvkit lower: read: 12.3 ms, rss 61.0 MB, peak 61.2 MB`), so that time and memory
//! can be attributed without a profiler.

use std::time::Instant;

/// Whether `SPVKIT_TIMES` is set (read once).
pub fn enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("SPVKIT_TIMES").is_some())
}

/// Prints to standard error how long phase `name` of command `cmd` took since `since`, with
/// the memory figures where the platform gives them; nothing unless [`enabled`].
pub fn report(cmd: &str, name: &str, since: Instant) {
    if !enabled() {
        return;
    }
    let ms = since.elapsed().as_secs_f64() * 1e3;
    match memory() {
        Some((rss, peak)) => eprintln!(
            "spvkit {cmd}: {name}: {ms:.1} ms, rss {:.1} MB, peak {:.1} MB",
            rss as f64 / 1e6,
            peak as f64 / 1e6
        ),
        None => eprintln!("spvkit {cmd}: {name}: {ms:.1} ms"),
    }
}

/// The resident set size and its peak (`VmRSS`, `VmHWM`), in bytes, from `/proc/self/status`.
fn memory() -> Option<(u64, u64)> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let field = |key: &str| -> Option<u64> {
        let line = status.lines().find(|l| l.starts_with(key))?;
        let kb: u64 = line[key.len()..]
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .ok()?;
        Some(kb * 1024)
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}
