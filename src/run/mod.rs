//! Execution of lowered compute entry points on the CPU (`spvkit run`): [`run_spirv`] (or
//! [`run_lowered`] for a module already lowered) runs the entry point a [`Job`] names with
//! [`RunOptions`] and returns a [`RunOutput`]; errors are [`RunError`]s. The machinery inside
//! (job binding, the JIT, the grid across cores, barriers and fibers, hidden from these docs)
//! implements the lowering's contract, `docs/lowering-abi.md`.

#[doc(hidden)]
pub mod barrier;
#[doc(hidden)]
pub mod bind;
#[doc(hidden)]
pub mod context;
#[doc(hidden)]
pub mod dispatch;
#[doc(hidden)]
pub mod error;
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
#[doc(hidden)]
pub mod fiber;
#[doc(hidden)]
pub mod group;
#[doc(hidden)]
pub mod hooks;
#[doc(hidden)]
pub mod jit;
#[doc(hidden)]
pub mod job;
mod json_data;
#[doc(hidden)]
pub mod layout;
#[doc(hidden)]
pub mod memory;
#[doc(hidden)]
pub mod output;

pub use context::InvocationContext;
pub use dispatch::BarrierMode;
pub use error::RunError;
pub use jit::OptLevel;
pub use job::TypedBytes;
pub use job::{Job, JobError};
pub use output::{BufferId, OutputBuffer, RunOutput};

use crate::lower::{LowerOptions, LoweredModule};
use dispatch::{Dispatch, SharedPtr};
use job::SpecType;

/// How to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunOptions {
    /// Worker threads (default: `std::thread::available_parallelism`).
    pub threads: usize,
    /// LLVM optimisation before code generation.
    pub opt: OptLevel,
    /// How workgroups with barriers run (fibers where available).
    pub barrier_mode: BarrierMode,
}

impl Default for RunOptions {
    fn default() -> RunOptions {
        RunOptions {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            opt: OptLevel::default(),
            barrier_mode: BarrierMode::default(),
        }
    }
}

/// Runs a SPIR-V binary's compute entry point as `job` says and returns every buffer.
pub fn run_spirv(words: &[u32], job: &Job, options: &RunOptions) -> Result<RunOutput, RunError> {
    let t = std::time::Instant::now();
    let module = crate::ir::deserialize(words).map_err(RunError::Input)?;
    let cx = inkwell::context::Context::create();
    let lowered = lower_for_job(&cx, &module, job)?;
    phase("lower", t);
    run_lowered(&lowered, job, options)
}

/// Runs an already lowered module (the entry the job names) and returns every buffer.
pub fn run_lowered(
    lowered: &LoweredModule<'_>,
    job: &Job,
    options: &RunOptions,
) -> Result<RunOutput, RunError> {
    let t = std::time::Instant::now();
    let entry = bind::select_entry(&lowered.entries, job)?;
    let bound = bind::bind(entry, job)?;
    phase("bind", t);
    let t = std::time::Instant::now();
    let compiled = jit::Jit::compile(&lowered.module, options.opt)?;
    let function = compiled.entry(&entry.symbol)?;
    phase("optimise + JIT", t);
    let t = std::time::Instant::now();
    let global_memory: Vec<_> = bound
        .buffers
        .iter()
        .map(|(_, _, b)| b.as_ptr() as usize..b.as_ptr() as usize + b.len())
        .collect();
    Dispatch {
        entry: function,
        num_workgroups: bound.num_workgroups,
        local_size: bound.local_size,
        global_offset: bound.global_offset,
        work_dim: bound.work_dim,
        resources: &bound.resources,
        resource_sizes: &bound.resource_sizes,
        push_constants: SharedPtr(
            bound
                .push_constants
                .as_ref()
                .map_or(std::ptr::null_mut(), |b| b.as_ptr()),
        ),
        workgroup_memory: &entry.workgroup_memory,
        private_memory: &entry.private_memory,
        args: &bound.args,
        global_memory: &global_memory,
        uses_barrier: entry.uses_barrier,
        threads: options.threads,
        barrier_mode: options.barrier_mode,
    }
    .run()?;
    phase("dispatch", t);
    let t = std::time::Instant::now();
    let out = RunOutput {
        buffers: bound.results(),
    };
    phase("read back", t);
    Ok(out)
}

#[doc(hidden)]
/// Reports the end of a phase of a run to the [`crate::phase`] hook, if one is installed.
pub fn phase(name: &str, since: std::time::Instant) {
    crate::phase::report("run", name, since);
}

#[doc(hidden)]
/// The lowering options a job asks for: its spec-constant overrides, converted to each
/// constant's type in `module` (the job writes values, the lowering wants bits).
pub fn lower_options(module: &crate::ir::Module, job: &Job) -> Result<LowerOptions, RunError> {
    use crate::ir::Type;
    let mut options = LowerOptions::default();
    for (&id, &value) in &job.spec_constants {
        let path = format!("spec_constants.{id}");
        let Some((_, constant)) = module
            .spec_constants
            .iter()
            .find(|(_, c)| c.spec_id == Some(id))
        else {
            return Err(JobError::new(&path, "the module has no constant with this SpecId").into());
        };
        let ty = match module.types.get(constant.ty) {
            Some(Type::Bool) => SpecType::Bool,
            Some(&Type::Int { width, signed }) => SpecType::Int { width, signed },
            Some(&Type::Float { width }) => SpecType::Float { width },
            other => {
                return Err(JobError::new(
                    &path,
                    format!("the constant is not a scalar ({other:?})"),
                )
                .into())
            }
        };
        options.spec_constants.insert(id, value.bits(ty, &path)?);
    }
    Ok(options)
}

#[doc(hidden)]
/// Lowers `module` for `job` (spec constants applied). The one place `spvkit run` calls the
/// lowering.
pub fn lower_for_job<'ctx>(
    cx: &'ctx inkwell::context::Context,
    module: &crate::ir::Module,
    job: &Job,
) -> Result<LoweredModule<'ctx>, RunError> {
    let options = lower_options(module, job)?;
    crate::lower::lower(cx, module, &options).map_err(RunError::Lower)
}
