//! Binding a job to an entry point's interface: choose the entry point, match job buffers to
//! descriptor slots by (set, binding), lay out push constants and kernel arguments, and settle
//! the grid. Everything that can disagree between a job and a module is checked here, before
//! any code runs, so that mismatches are errors rather than out-of-bounds accesses.

use super::dispatch::{ArgBinding, SharedPtr};
use super::error::RunError;
use super::job::{Job, KernelArg, TypedBytes};
use super::layout::Layout;
use super::memory::AlignedBuf;
use super::output::{BufferId, OutputBuffer};
use crate::grammar::ExecutionModel;
use crate::lower::{KernelParam, LoweredEntry};

/// The job's data in runner-owned memory, ready to dispatch.
#[derive(Debug)]
pub struct Bound {
    /// Every job buffer and kernel buffer argument, with its layout.
    pub buffers: Vec<(BufferId, Layout, AlignedBuf)>,
    /// Slot order → buffer address.
    pub resources: Vec<SharedPtr>,
    /// Slot order → buffer size in bytes.
    pub resource_sizes: Vec<u64>,
    /// The push-constant block.
    pub push_constants: Option<AlignedBuf>,
    /// Bytes of by-value kernel arguments (kept alive for `args`).
    pub values: Vec<AlignedBuf>,
    /// Kernel arguments.
    pub args: Vec<ArgBinding>,
    /// Workgroups.
    pub num_workgroups: [u32; 3],
    /// Workgroup size.
    pub local_size: [u32; 3],
    /// WorkDim.
    pub work_dim: u64,
    /// GlobalOffset.
    pub global_offset: [u64; 3],
}

impl Bound {
    /// The buffers' final contents (call after the dispatch has finished).
    pub fn results(&self) -> Vec<OutputBuffer> {
        self.buffers
            .iter()
            .map(|(id, layout, buf)| OutputBuffer {
                id: *id,
                data: TypedBytes {
                    layout: layout.clone(),
                    bytes: buf.to_vec(),
                },
            })
            .collect()
    }
}

/// The entry point the job names, or the only compute entry point.
pub fn select_entry<'a>(
    entries: &'a [LoweredEntry],
    job: &Job,
) -> Result<&'a LoweredEntry, RunError> {
    let compute = |e: &&LoweredEntry| {
        matches!(
            e.execution_model,
            ExecutionModel::GLCompute | ExecutionModel::Kernel
        )
    };
    let entry = match &job.entry {
        Some(name) => entries.iter().find(|e| &e.name == name).ok_or_else(|| {
            let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
            RunError::Interface(format!(
                "no entry point {name:?} (the module has {names:?})"
            ))
        })?,
        None => {
            let mut found = entries.iter().filter(compute);
            match (found.next(), found.next()) {
                (Some(e), None) => e,
                (None, _) => {
                    return Err(RunError::Interface(
                        "the module has no GLCompute or Kernel entry point".into(),
                    ))
                }
                (Some(_), Some(_)) => {
                    return Err(RunError::Interface(
                        "the module has several compute entry points; name one with \"entry\""
                            .into(),
                    ))
                }
            }
        }
    };
    if !compute(&entry) {
        return Err(RunError::Interface(format!(
            "entry point {:?} is {:?}, not GLCompute or Kernel",
            entry.name, entry.execution_model
        )));
    }
    Ok(entry)
}

/// Allocates and fills everything the job gives to `entry`.
pub fn bind(entry: &LoweredEntry, job: &Job) -> Result<Bound, RunError> {
    let oom = || RunError::Resources("cannot allocate a buffer".into());
    let kernel = entry.execution_model == ExecutionModel::Kernel;
    let local_size = match (entry.local_size, job.local_size) {
        (Some(fixed), Some(asked)) if fixed != asked => {
            return Err(RunError::Interface(format!(
                "the module fixes the workgroup size {fixed:?}; the job asks for {asked:?}"
            )))
        }
        (Some(fixed), _) => fixed,
        (None, Some(asked)) => asked,
        (None, None) => {
            return Err(RunError::Interface(
                "the module does not fix a workgroup size; give \"local_size\"".into(),
            ))
        }
    };
    if local_size.contains(&0) {
        return Err(RunError::Interface(format!(
            "workgroup size {local_size:?} has a zero component"
        )));
    }
    let mut bound = Bound {
        buffers: Vec::new(),
        resources: Vec::new(),
        resource_sizes: Vec::new(),
        push_constants: None,
        values: Vec::new(),
        args: Vec::new(),
        num_workgroups: job.dispatch,
        local_size,
        work_dim: u64::from(
            job.work_dim
                .unwrap_or_else(|| default_work_dim(job, local_size)),
        ),
        global_offset: if kernel { job.global_offset } else { [0; 3] },
    };
    for b in &job.buffers {
        let buf = AlignedBuf::from_bytes(&b.data.bytes, b.data.bytes.len(), 0).ok_or_else(oom)?;
        bound.buffers.push((
            BufferId::descriptor(b.set, b.binding, b.index),
            b.data.layout.clone(),
            buf,
        ));
    }
    for slot in &entry.resources {
        let id = BufferId::descriptor(slot.set, slot.binding, slot.array_index);
        let found = bound.buffers.iter().find(|(b, ..)| *b == id);
        let element = match slot.array_index {
            0 => String::new(),
            i => format!(" index {i}"),
        };
        let Some((_, _, buf)) = found else {
            return Err(RunError::Interface(format!(
                "entry point {:?} uses set {} binding {}{element} ({:?}); the job has no buffer \
                 for it",
                entry.name, slot.set, slot.binding, slot.storage_class
            )));
        };
        if let Some(need) = slot.size_bytes {
            if (buf.len() as u64) < need {
                return Err(RunError::Interface(format!(
                    "set {} binding {}{element} holds {} bytes; the shader's block needs {need}",
                    slot.set,
                    slot.binding,
                    buf.len()
                )));
            }
        }
        bound.resources.push(SharedPtr(buf.as_ptr()));
        bound.resource_sizes.push(buf.len() as u64);
    }
    if let Some(need) = entry.push_constant_size {
        let pc = job.push_constants.as_ref().ok_or_else(|| {
            RunError::Interface(format!(
                "entry point {:?} reads a {need}-byte push-constant block; the job has no \"push_constants\"",
                entry.name
            ))
        })?;
        // Bytes the job leaves out read as zero; the block is never shorter than the shader's.
        let len = usize::try_from(need)
            .map_err(|_| oom())?
            .max(pc.bytes.len());
        bound.push_constants = Some(AlignedBuf::from_bytes(&pc.bytes, len, 0).ok_or_else(oom)?);
    }
    if !kernel {
        if !job.args.is_empty() {
            return Err(RunError::Interface(format!(
                "entry point {:?} is a shader; \"args\" are for Kernel entry points",
                entry.name
            )));
        }
        return Ok(bound);
    }
    if job.args.len() != entry.kernel_params.len() {
        return Err(RunError::Interface(format!(
            "kernel {:?} takes {} arguments; the job gives {}",
            entry.name,
            entry.kernel_params.len(),
            job.args.len()
        )));
    }
    for (i, (param, arg)) in entry.kernel_params.iter().zip(&job.args).enumerate() {
        let mismatch = |want: &str| {
            RunError::Interface(format!(
                "args[{i}]: kernel {:?} takes {want} ({param:?})",
                entry.name
            ))
        };
        let by_value =
            |bytes: &[u8], size: u64, bound: &mut Bound| -> Result<ArgBinding, RunError> {
                if bytes.len() as u64 != size {
                    return Err(RunError::Interface(format!(
                        "args[{i}]: kernel {:?} takes {size} bytes here; the job gives {}",
                        entry.name,
                        bytes.len()
                    )));
                }
                let buf = AlignedBuf::from_bytes(bytes, bytes.len(), 0).ok_or_else(oom)?;
                let p = SharedPtr(buf.as_ptr());
                bound.values.push(buf);
                Ok(ArgBinding::Value(p))
            };
        let binding = match (param, arg) {
            (KernelParam::Buffer { .. }, KernelArg::Buffer(data)) => {
                let buf =
                    AlignedBuf::from_bytes(&data.bytes, data.bytes.len(), 0).ok_or_else(oom)?;
                let p = SharedPtr(buf.as_ptr());
                bound
                    .buffers
                    .push((BufferId::Arg(i), data.layout.clone(), buf));
                ArgBinding::Pointer(p)
            }
            (KernelParam::Buffer { .. }, _) => return Err(mismatch("a buffer")),
            (KernelParam::Local, KernelArg::Local { size_bytes }) => {
                ArgBinding::Local(usize::try_from(*size_bytes).map_err(|_| oom())?)
            }
            (KernelParam::Local, _) => return Err(mismatch("a local buffer")),
            (KernelParam::Scalar { size_bytes }, KernelArg::Scalar { bytes, .. }) => {
                by_value(bytes, *size_bytes, &mut bound)?
            }
            (KernelParam::Scalar { .. }, _) => return Err(mismatch("a scalar")),
            (KernelParam::Struct { size_bytes }, KernelArg::Struct(data)) => {
                by_value(&data.bytes, *size_bytes, &mut bound)?
            }
            (KernelParam::Struct { .. }, _) => return Err(mismatch("a struct")),
            (KernelParam::Opaque, _) => {
                return Err(mismatch(
                    "an image, sampler or other handle, which run does not support",
                ))
            }
        };
        bound.args.push(binding);
    }
    Ok(bound)
}

/// The smallest WorkDim covering every dimension with more than one invocation.
fn default_work_dim(job: &Job, local_size: [u32; 3]) -> u32 {
    (0..3)
        .rev()
        .find(|&k| u64::from(job.dispatch[k]) * u64::from(local_size[k]) > 1)
        .map_or(1, |k| k as u32 + 1)
}
