//! `spvkit run in.spv --job job.json`: parse, call [`crate::run::run_spirv`], print the buffers.

use super::io::{read_input, write_output, Input};
use crate::run::{Job, OptLevel, RunOptions};

/// The arguments of `spvkit run`.
#[derive(clap::Args)]
pub struct RunArgs {
    /// The SPIR-V binary, or `-` for standard input.
    input: String,
    /// The job: entry point, dispatch, buffers, push and spec constants (JSON).
    #[arg(long)]
    job: String,
    /// Where to write the buffers as JSON (default: standard output).
    #[arg(short = 'o')]
    output: Option<String>,
    /// Worker threads (default: the number of cores).
    #[arg(long)]
    threads: Option<usize>,
    /// LLVM optimisation level before JIT compilation (0 to 3).
    #[arg(short = 'O', default_value_t = 2, value_parser = clap::value_parser!(u8).range(0..=3))]
    opt: u8,
}

/// Runs the command.
pub fn run(args: RunArgs) -> Result<(), String> {
    let t = std::time::Instant::now();
    let Input { name, bytes } = read_input(&args.input)?;
    let words = crate::binary::words_from_bytes(&bytes)
        .map_err(|e| format!("{name}: word {}: error: {}", e.offset, e.kind))?;
    let job_text =
        std::fs::read_to_string(&args.job).map_err(|e| format!("{}: error: {e}", args.job))?;
    crate::run::phase("read", t);
    let t = std::time::Instant::now();
    let job = Job::from_json(&job_text).map_err(|e| format!("{}: error: {e}", args.job))?;
    drop(job_text);
    crate::run::phase("parse job", t);
    let mut options = RunOptions {
        opt: match args.opt {
            0 => OptLevel::O0,
            1 => OptLevel::O1,
            2 => OptLevel::O2,
            _ => OptLevel::O3,
        },
        ..RunOptions::default()
    };
    if let Some(t) = args.threads {
        options.threads = t.max(1);
    }
    let out =
        crate::run::run_spirv(&words, &job, &options).map_err(|e| format!("{name}: error: {e}"))?;
    let t = std::time::Instant::now();
    let json = out.to_json();
    drop(out);
    crate::run::phase("format output", t);
    let t = std::time::Instant::now();
    write_output(args.output.as_deref().unwrap_or("-"), json.as_bytes())?;
    crate::run::phase("write output", t);
    Ok(())
}
