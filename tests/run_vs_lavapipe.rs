//! `spvkit run` against lavapipe: every shader of `tests/corpus/compute/` runs on both with its
//! job, and every buffer must agree (integers exactly, floats bit for bit unless the job's
//! `"x-compare"` gives a tolerance, see `tests/support/compute.rs`).
#![cfg(feature = "run")]

#[path = "support/compute.rs"]
mod compute;
#[path = "support/vulkan.rs"]
mod vulkan;

use spvkit::run::{run_spirv, BarrierMode, RunOptions};

#[test]
fn spvkit_run_agrees_with_lavapipe_on_the_compute_corpus() {
    let vk = vulkan::Vulkan::new().expect("a Vulkan device (apt-get install mesa-vulkan-drivers)");
    let mut failures = Vec::new();
    let shaders = compute::load_all();
    for s in &shaders {
        let want = match vk.run(&s.words, &s.job) {
            Ok(out) => out,
            Err(e) => {
                failures.push(format!("{}: lavapipe: {e}", s.name));
                continue;
            }
        };
        let modes = [
            (1, BarrierMode::Fibers),
            (4, BarrierMode::Fibers),
            (2, BarrierMode::Threads),
        ];
        for (threads, barrier_mode) in modes {
            let options = RunOptions {
                threads,
                barrier_mode,
                ..RunOptions::default()
            };
            match run_spirv(&s.words, &s.job, &options) {
                Ok(got) => {
                    let diffs = compute::differences(&want, &got, s.tolerance);
                    if !diffs.is_empty() {
                        failures.push(format!(
                            "{} ({threads} threads, {barrier_mode:?}):\n    {}",
                            s.name,
                            diffs.join("\n    ")
                        ));
                    }
                }
                Err(e) => failures.push(format!(
                    "{} ({threads} threads, {barrier_mode:?}): {e}",
                    s.name
                )),
            }
        }
    }
    let failing: std::collections::BTreeSet<&str> = failures
        .iter()
        .map(|f| f.split([' ', ':']).next().unwrap_or(""))
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} shaders disagree:\n{}",
        failing.len(),
        shaders.len(),
        failures.join("\n")
    );
}
