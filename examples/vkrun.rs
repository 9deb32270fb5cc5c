//! `vkrun in.spv --job job.json [-o out.json]`: runs a compute shader on lavapipe (the Vulkan
//! runner of the tests, `tests/support/vulkan.rs`) with the job model of `spvkit run`, and
//! prints the buffers in the same JSON. It exists so that `spvkit run` and lavapipe can be
//! timed the same way, as whole processes on the same files (`scripts/bench-run.sh`).
//!
//! `vkrun --bench-jobs DIR` writes the benchmark jobs (`saxpy.job.json`: 16M floats,
//! `matmul.job.json`: 512 × 512) into DIR, with the data of `benches/run.rs`.

#[path = "../tests/support/vulkan.rs"]
mod vulkan;

use spvkit::run::Job;
use std::fmt::Write as _;
use std::process::ExitCode;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("vkrun: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, dir] = args.as_slice() {
        if flag == "--bench-jobs" {
            return bench_jobs(std::path::Path::new(dir));
        }
    }
    let usage = "usage: vkrun in.spv --job job.json [-o out.json] | vkrun --bench-jobs DIR";
    let (mut input, mut job, mut output) = (None, None, None);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--job" => job = it.next(),
            "-o" => output = it.next(),
            _ if input.is_none() => input = Some(a),
            _ => return Err(usage.into()),
        }
    }
    let (Some(input), Some(job)) = (input, job) else {
        return Err(usage.into());
    };
    let bytes = std::fs::read(input).map_err(|e| format!("{input}: {e}"))?;
    let words = spvkit::binary::words_from_bytes(&bytes)
        .map_err(|e| format!("{input}: word {}: {}", e.offset, e.kind))?;
    let text = std::fs::read_to_string(job).map_err(|e| format!("{job}: {e}"))?;
    let job = Job::from_json(&text).map_err(|e| format!("{job}: {e}"))?;
    let vk = vulkan::Vulkan::new()?;
    let out = vk.run(&words, &job)?;
    let json = out.to_json();
    match output {
        Some(path) => std::fs::write(path, json).map_err(|e| format!("{path}: {e}")),
        None => {
            use std::io::Write as _;
            std::io::stdout()
                .lock()
                .write_all(json.as_bytes())
                .map_err(|e| e.to_string())
        }
    }
}

fn floats(out: &mut String, values: impl Iterator<Item = f32>) {
    out.push('[');
    for (i, v) in values.enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "{v:?}");
    }
    out.push(']');
}

/// The jobs of `benches/run.rs` as JSON files.
fn bench_jobs(dir: &std::path::Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let n: u32 = 16 << 20;
    let mut s = format!(
        "{{\"dispatch\": [{}], \"push_constants\": {{\"layout\": [\"f32\", \"u32\"], \"data\": [2.5, {n}]}},\n \"buffers\": [\n  {{\"binding\": 0, \"layout\": [\"f32\"], \"data\": ",
        n.div_ceil(256)
    );
    floats(&mut s, (0..n).map(|i| (i % 1000) as f32 * 0.5));
    s.push_str("},\n  {\"binding\": 1, \"layout\": [\"f32\"], \"data\": ");
    floats(&mut s, (0..n).map(|i| (i % 7) as f32));
    s.push_str("}\n ]}\n");
    let path = dir.join("saxpy.job.json");
    std::fs::write(&path, s).map_err(|e| format!("{}: {e}", path.display()))?;

    let m: u32 = 512;
    let mut s = format!(
        "{{\"dispatch\": [{}, {}], \"push_constants\": {{\"layout\": [\"u32\"], \"data\": [{m}]}},\n \"buffers\": [\n  {{\"binding\": 0, \"layout\": [\"f32\"], \"data\": ",
        m / 16,
        m / 16
    );
    floats(&mut s, (0..m * m).map(|i| ((i * 7 + 3) % 13) as f32 - 6.0));
    s.push_str("},\n  {\"binding\": 1, \"layout\": [\"f32\"], \"data\": ");
    floats(&mut s, (0..m * m).map(|i| ((i * 5 + 1) % 9) as f32 * 0.5));
    let _ = write!(
        s,
        "}},\n  {{\"binding\": 2, \"layout\": [\"f32\"], \"size_words\": {}}}\n ]}}\n",
        m * m
    );
    let path = dir.join("matmul.job.json");
    std::fs::write(&path, s).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(())
}
