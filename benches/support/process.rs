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
