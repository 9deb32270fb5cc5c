//! Whole-process measurement helpers shared by the benchmarks that compare spvkit's command
//! line with a reference tool: the bench-built `spvkit` binary, a checked run, and peak memory.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The `spvkit` binary built with the bench profile (benches run from the package root).
pub fn spvkit_bin() -> PathBuf {
    let exe = std::env::current_exe().expect("bench executable");
    let dir = exe.parent().and_then(Path::parent).expect("target dir");
    dir.join("spvkit")
}

/// Runs `cmd` and fails the benchmark when it fails, with its standard error.
pub fn run(cmd: &mut Command) {
    let out = cmd.output().expect("process runs");
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Peak resident set size of one run of `cmd`, in bytes (`/usr/bin/time -f %M` reports
/// kilobytes of the child alone).
pub fn peak_rss(cmd: &mut Command) -> u64 {
    let mut t = Command::new("/usr/bin/time");
    t.arg("-f")
        .arg("%M")
        .arg(cmd.get_program())
        .args(cmd.get_args());
    let out = t.output().expect("/usr/bin/time runs");
    let err = String::from_utf8_lossy(&out.stderr);
    err.lines()
        .last()
        .and_then(|l| l.trim().parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

/// Peak resident set size of the program of `cmd` run on a missing input: what loading it
/// (libLLVM, about 53 MB) costs before any work, subtracted by [`memory_report`].
#[allow(dead_code)] // not every bench that includes this file compares LLVM tools
pub fn startup_rss(program: &std::ffi::OsStr, args: &[&str]) -> u64 {
    peak_rss(
        Command::new(program)
            .args(args)
            .arg("/nonexistent/spvkit-bench-input"),
    )
}

/// Peak memory of spvkit and the reference tool on an input of `size` bytes: raw, as a
/// multiple of the input, and beyond each process's start-up as a multiple of the input
/// (the issue's ≤ 10× target read without the shared library both load).
#[allow(dead_code)] // not every bench that includes this file compares LLVM tools
pub fn memory_report(size: u64, ours: (u64, u64), theirs: (u64, u64)) -> String {
    let mb = |b: u64| b as f64 / 1e6;
    let x = |b: u64| b as f64 / size as f64;
    let net = |(peak, start): (u64, u64)| peak.saturating_sub(start);
    format!(
        "peak memory spvkit {:.1} MB ({:.1}x input; {:.1}x beyond its {:.1} MB start-up), \
         reference {:.1} MB ({:.1}x; {:.1}x beyond {:.1} MB)",
        mb(ours.0),
        x(ours.0),
        x(net(ours)),
        mb(ours.1),
        mb(theirs.0),
        x(theirs.0),
        x(net(theirs)),
        mb(theirs.1)
    )
}
