//! Running an entry point over the dispatch grid.
//!
//! Workgroups are independent, so they are spread over `threads` worker threads that take
//! workgroup numbers from a shared counter (in chunks, to keep the counter cold).
//!
//! - Without barriers, a worker runs a workgroup's invocations one after another; it owns one
//!   Workgroup block and one Private block and resets them from their images before each
//!   workgroup / invocation. Cost: one indirect call per invocation plus the resets.
//! - With barriers (`LoweredEntry::uses_barrier`) on x86-64 Linux ([`BarrierMode::Fibers`], the
//!   default there), a worker runs each workgroup's invocations as fibers ([`super::fiber`]):
//!   one stack per invocation, created once per worker and reused for every workgroup, and a
//!   barrier is a user-space switch back to the worker's round-robin scheduler. Cost: 256 KiB of
//!   (lazily committed) stack per invocation per worker, and two register-file switches per
//!   invocation per barrier.
//! - With barriers elsewhere, or with [`BarrierMode::Threads`], every invocation of a workgroup
//!   must be able to wait for the others, so a workgroup runs on a *team* of OS threads, one per
//!   invocation.
//!   Teams are created once per dispatch and reused for every workgroup they take (no thread per
//!   workgroup); each team owns a Workgroup block and a [`WorkgroupBarrier`] that
//!   `spvkit_rt_control_barrier` waits on. Between two workgroups the team meets twice on a
//!   second barrier (all done, then memory reset and next workgroup chosen by the team's first
//!   thread). Cost: `teams × local_size` threads (teams = min(threads, workgroups), fewer when
//!   that would pass [`MAX_BARRIER_THREADS`]), and every barrier is a mutex/condvar rendezvous of
//!   the whole team, i.e. context switches when a team is larger than the core count.
//!   Coroutines would avoid the switches; the ABI allows swapping them in later.

use super::barrier::WorkgroupBarrier;
use super::context::InvocationContext;
use super::error::RunError;
use super::hooks::{MemoryMap, Runtime};
use super::jit::EntryFn;
use super::memory::AlignedBuf;
use crate::lower::MemoryBlock;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex};

/// The most threads all barrier teams of one dispatch may use together.
pub const MAX_BARRIER_THREADS: usize = 4096;

/// Stack size of the threads running invocations (Function-storage arrays live there).
const STACK_SIZE: usize = 4 << 20;

/// A pointer that may cross threads: the memory behind it is shared with the lowered code,
/// which synchronises (or races) as a GPU shader would.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(transparent)]
pub struct SharedPtr(pub *mut u8);

// SAFETY: see the type's documentation; the runner itself only reads the memory after the
// threads have been joined.
unsafe impl Send for SharedPtr {}
// SAFETY: as above.
unsafe impl Sync for SharedPtr {}

/// How one kernel argument is passed (`ctx.args[i]` points to the argument's value).
#[derive(Debug, Clone, Copy)]
pub enum ArgBinding {
    /// A buffer: the value is this pointer.
    Pointer(SharedPtr),
    /// By value: the bytes at this pointer are the value.
    Value(SharedPtr),
    /// A Workgroup-local block of this many bytes, one per workgroup: the value is its address.
    Local(usize),
}

/// How the invocations of a workgroup with barriers run concurrently.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BarrierMode {
    /// Fibers on the worker thread (x86-64 Linux; falls back to threads elsewhere).
    Fibers,
    /// One OS thread per invocation, in teams reused across workgroups.
    Threads,
}

impl Default for BarrierMode {
    fn default() -> BarrierMode {
        if cfg!(all(target_arch = "x86_64", target_os = "linux")) {
            BarrierMode::Fibers
        } else {
            BarrierMode::Threads
        }
    }
}

/// Everything one dispatch needs, resolved from the job and the entry point.
#[derive(Debug)]
pub struct Dispatch<'a> {
    /// The compiled entry wrapper.
    pub entry: EntryFn,
    /// Workgroups in x, y, z.
    pub num_workgroups: [u32; 3],
    /// Invocations per workgroup in x, y, z.
    pub local_size: [u32; 3],
    /// Added to GlobalInvocationId (kernels).
    pub global_offset: [u64; 3],
    /// WorkDim (kernels).
    pub work_dim: u64,
    /// One pointer per descriptor slot, in slot order.
    pub resources: &'a [SharedPtr],
    /// The byte size of each slot's buffer, in slot order.
    pub resource_sizes: &'a [u64],
    /// The push-constant block, or null.
    pub push_constants: SharedPtr,
    /// The Workgroup block (size, alignment, image).
    pub workgroup_memory: &'a MemoryBlock,
    /// The Private block.
    pub private_memory: &'a MemoryBlock,
    /// Kernel arguments in parameter order.
    pub args: &'a [ArgBinding],
    /// Global memory, by address range: every job buffer (`OpGenericCastToPtrExplicit`).
    pub global_memory: &'a [std::ops::Range<usize>],
    /// Whether invocations must run concurrently.
    pub uses_barrier: bool,
    /// Worker threads (for barrier dispatches on threads: teams).
    pub threads: usize,
    /// How workgroups with barriers run.
    pub barrier_mode: BarrierMode,
}

impl Dispatch<'_> {
    fn total_workgroups(&self) -> u64 {
        self.num_workgroups.iter().map(|&n| u64::from(n)).product()
    }

    fn invocations_per_workgroup(&self) -> u64 {
        self.local_size.iter().map(|&n| u64::from(n)).product()
    }

    fn workgroup_id(&self, linear: u64) -> [u64; 3] {
        let [nx, ny, _] = self.num_workgroups.map(u64::from);
        [linear % nx, (linear / nx) % ny, linear / (nx * ny)]
    }

    fn local_id(&self, index: u64) -> [u64; 3] {
        let [lx, ly, _] = self.local_size.map(u64::from);
        [index % lx, (index / lx) % ly, index / (lx * ly)]
    }

    /// Runs the grid; returns once every invocation has finished.
    pub fn run(&self) -> Result<(), RunError> {
        if self.total_workgroups() == 0 || self.invocations_per_workgroup() == 0 {
            return Ok(());
        }
        if self.uses_barrier {
            #[cfg(all(target_arch = "x86_64", target_os = "linux"))]
            if self.barrier_mode == BarrierMode::Fibers {
                return self.run_fibers();
            }
            self.run_teams()
        } else {
            self.run_sequential()
        }
    }

    fn run_sequential(&self) -> Result<(), RunError> {
        let total = self.total_workgroups();
        let workers = (self.threads.max(1) as u64).min(total);
        let chunk = (total / (workers * 8)).clamp(1, 64);
        let next = AtomicU64::new(0);
        let solo = WorkgroupBarrier::new(1);
        let mut executors = Vec::new();
        for _ in 0..workers {
            executors.push(Executor::new(self)?);
        }
        spawn_all(executors.iter(), |ex| {
            let private = ex.private_block(self)?;
            // Every frame of the invocations this thread runs lies below this one.
            let top = 0u8;
            let stack_top = std::hint::black_box(&top) as *const u8 as usize;
            let runtime = Runtime::threads(&solo).with_memory(&ex.memory, stack_top);
            let mut ctx = ex.context(self, &private, &runtime);
            loop {
                let start = next.fetch_add(chunk, Ordering::Relaxed);
                if start >= total {
                    return Ok(());
                }
                for linear in start..(start + chunk).min(total) {
                    ex.reset(self);
                    let wg = self.workgroup_id(linear);
                    let ls = self.local_size.map(u64::from);
                    let base: [u64; 3] =
                        std::array::from_fn(|k| wg[k] * ls[k] + self.global_offset[k]);
                    ctx.workgroup_id = wg;
                    // Nested loops rather than `set_ids`: no divisions on the hot path.
                    let mut index = 0;
                    for z in 0..ls[2] {
                        for y in 0..ls[1] {
                            for x in 0..ls[0] {
                                if !private.is_empty() {
                                    private.fill_from(&self.private_memory.init);
                                }
                                ctx.local_id = [x, y, z];
                                ctx.global_id = [base[0] + x, base[1] + y, base[2] + z];
                                ctx.local_index = index;
                                index += 1;
                                // SAFETY: the context follows docs/lowering-abi.md and every
                                // pointer in it outlives the call.
                                unsafe { (self.entry)(&mut ctx) };
                            }
                        }
                    }
                }
            }
        })
    }

    fn run_teams(&self) -> Result<(), RunError> {
        let total = self.total_workgroups();
        let size = self.invocations_per_workgroup();
        let size = usize::try_from(size)
            .ok()
            .filter(|&n| n <= MAX_BARRIER_THREADS)
            .ok_or_else(|| {
                RunError::Resources(format!(
                    "a workgroup of {size} invocations with barriers needs one thread each; at most {MAX_BARRIER_THREADS}"
                ))
            })?;
        let teams = (self.threads.max(1) as u64)
            .min(total)
            .min((MAX_BARRIER_THREADS / size).max(1) as u64) as usize;
        let next = AtomicU64::new(0);
        let abort = AtomicBool::new(false);
        let mut states = Vec::new();
        for _ in 0..teams {
            states.push(Team {
                executor: Executor::new(self)?,
                barrier: WorkgroupBarrier::new(size),
                phase: WorkgroupBarrier::new(size),
                current: AtomicU64::new(0),
            });
        }
        let members = states
            .iter()
            .flat_map(|team| (0..size as u64).map(move |index| (team, index)));
        spawn_all(members, |(team, index)| {
            let private = match team.executor.private_block(self) {
                Ok(p) => p,
                Err(e) => {
                    // Before the first rendezvous: leaving it lets the others see `abort`.
                    abort.store(true, Ordering::SeqCst);
                    team.phase.leave();
                    return Err(e);
                }
            };
            // As in `run_sequential`.
            let top = 0u8;
            let stack_top = std::hint::black_box(&top) as *const u8 as usize;
            let runtime =
                Runtime::threads(&team.barrier).with_memory(&team.executor.memory, stack_top);
            let mut ctx = team.executor.context(self, &private, &runtime);
            loop {
                team.phase.wait();
                if index == 0 {
                    let linear = if abort.load(Ordering::SeqCst) {
                        total
                    } else {
                        next.fetch_add(1, Ordering::Relaxed)
                    };
                    team.current.store(linear, Ordering::Relaxed);
                    if linear < total {
                        team.executor.reset(self);
                        team.barrier.reset(size);
                    }
                }
                team.phase.wait();
                let linear = team.current.load(Ordering::Relaxed);
                // `abort` covers a failed first thread, which then never picks a workgroup.
                if linear >= total || abort.load(Ordering::SeqCst) {
                    return Ok(());
                }
                private.fill_from(&self.private_memory.init);
                self.set_ids(&mut ctx, self.workgroup_id(linear), index);
                // SAFETY: as in `run_sequential`; `ctx.runtime` is the team's barrier.
                unsafe { (self.entry)(&mut ctx) };
                team.barrier.leave();
            }
        })
    }

    #[cfg(all(target_arch = "x86_64", target_os = "linux"))]
    fn run_fibers(&self) -> Result<(), RunError> {
        let total = self.total_workgroups();
        let size = usize::try_from(self.invocations_per_workgroup())
            .map_err(|_| RunError::Resources("too many invocations per workgroup".into()))?;
        let workers = (self.threads.max(1) as u64).min(total);
        let chunk = (total / (workers * 8)).clamp(1, 64);
        let next = AtomicU64::new(0);
        let mut executors = Vec::new();
        for _ in 0..workers {
            executors.push(Executor::new(self)?);
        }
        spawn_all(executors.iter(), |ex| {
            let unused_private = AlignedBuf::zeroed(0, 0)
                .ok_or_else(|| RunError::Resources("out of memory".into()))?;
            let solo = WorkgroupBarrier::new(1);
            let placeholder = Runtime::threads(&solo);
            let base = ex.context(self, &unused_private, &placeholder);
            let mut team =
                super::fiber::Team::new(size, self.entry, &base, self.private_memory, &ex.memory)
                    .ok_or_else(|| {
                    RunError::Resources(format!("cannot allocate {size} fiber stacks"))
                })?;
            loop {
                let start = next.fetch_add(chunk, Ordering::Relaxed);
                if start >= total {
                    return Ok(());
                }
                for linear in start..(start + chunk).min(total) {
                    ex.reset(self);
                    let wg = self.workgroup_id(linear);
                    team.run_workgroup(&self.private_memory.init, |index, ctx| {
                        self.set_ids(ctx, wg, index)
                    });
                }
            }
        })
    }

    fn set_ids(&self, ctx: &mut InvocationContext, wg: [u64; 3], index: u64) {
        let local = self.local_id(index);
        for k in 0..3 {
            ctx.workgroup_id[k] = wg[k];
            ctx.local_id[k] = local[k];
            ctx.global_id[k] =
                wg[k] * u64::from(self.local_size[k]) + local[k] + self.global_offset[k];
        }
        ctx.local_index = index;
    }
}

/// A barrier team's shared state.
struct Team {
    executor: Executor,
    /// What `OpControlBarrier` waits on.
    barrier: WorkgroupBarrier,
    /// The team's own rendezvous between workgroups.
    phase: WorkgroupBarrier,
    /// The workgroup the team runs now.
    current: AtomicU64,
}

/// What one worker (or one team) owns: its Workgroup block, its local-argument blocks and the
/// argument array pointing at them.
struct Executor {
    workgroup: AlignedBuf,
    /// One 8-byte slot per invocation of a workgroup, for work-group collectives.
    group_scratch: AlignedBuf,
    locals: Vec<AlignedBuf>,
    /// The argument values that are addresses (buffers, local blocks); boxed so that `arg_ptrs`
    /// can point into it.
    arg_values: Box<[SharedPtr]>,
    /// `ctx.args`: per argument, the address of its value.
    arg_ptrs: Box<[SharedPtr]>,
    /// The memory its invocations see, by address range (`spvkit_rt_storage_class`).
    memory: MemoryMap,
}

impl Executor {
    fn new(d: &Dispatch<'_>) -> Result<Executor, RunError> {
        let oom = |what: &str| RunError::Resources(format!("cannot allocate {what}"));
        let wg = d.workgroup_memory;
        let workgroup = AlignedBuf::from_bytes(&wg.init, to_usize(wg.size)?, wg.align)
            .ok_or_else(|| oom("Workgroup memory"))?;
        let invocations = d.local_size.iter().map(|&n| n as usize).product::<usize>();
        let group_scratch = AlignedBuf::zeroed(invocations.max(1) * 8, 8)
            .ok_or_else(|| oom("the work-group collectives' scratch"))?;
        let mut locals = Vec::new();
        let mut arg_values = Vec::with_capacity(d.args.len());
        for a in d.args {
            arg_values.push(match *a {
                ArgBinding::Pointer(p) => p,
                ArgBinding::Value(p) => p,
                ArgBinding::Local(n) => {
                    let block = AlignedBuf::zeroed(n, 0).ok_or_else(|| oom("a local argument"))?;
                    let p = SharedPtr(block.as_ptr());
                    locals.push(block);
                    p
                }
            });
        }
        let arg_values = arg_values.into_boxed_slice();
        let arg_ptrs = d
            .args
            .iter()
            .zip(arg_values.iter())
            .map(|(a, v)| match a {
                ArgBinding::Value(p) => *p,
                _ => SharedPtr(v as *const SharedPtr as *mut u8),
            })
            .collect();
        let range = |b: &AlignedBuf| b.as_ptr() as usize..b.as_ptr() as usize + b.len();
        let memory = MemoryMap {
            global: d.global_memory.to_vec(),
            local: std::iter::once(&workgroup)
                .chain(&locals)
                .map(range)
                .collect(),
            private_size: to_usize(d.private_memory.size)?,
        };
        Ok(Executor {
            workgroup,
            group_scratch,
            locals,
            arg_values,
            arg_ptrs,
            memory,
        })
    }

    fn private_block(&self, d: &Dispatch<'_>) -> Result<AlignedBuf, RunError> {
        let p = d.private_memory;
        AlignedBuf::from_bytes(&p.init, to_usize(p.size)?, p.align)
            .ok_or_else(|| RunError::Resources("cannot allocate Private memory".into()))
    }

    /// Resets the per-workgroup memory for the next workgroup.
    fn reset(&self, d: &Dispatch<'_>) {
        if !self.workgroup.is_empty() {
            self.workgroup.fill_from(&d.workgroup_memory.init);
        }
        for l in &self.locals {
            l.fill_from(&[]);
        }
    }

    /// A context with everything but the invocation's ids.
    fn context(
        &self,
        d: &Dispatch<'_>,
        private: &AlignedBuf,
        runtime: &Runtime,
    ) -> InvocationContext {
        let ls = d.local_size.map(u64::from);
        let nw = d.num_workgroups.map(u64::from);
        debug_assert_eq!(self.arg_values.len(), d.args.len());
        InvocationContext {
            global_id: [0; 3],
            local_id: [0; 3],
            workgroup_id: [0; 3],
            num_workgroups: nw,
            workgroup_size: ls,
            global_size: [nw[0] * ls[0], nw[1] * ls[1], nw[2] * ls[2]],
            global_offset: d.global_offset,
            local_index: 0,
            work_dim: d.work_dim,
            resources: d.resources.as_ptr() as *const *mut u8,
            push_constants: d.push_constants.0,
            workgroup_memory: self.workgroup.as_ptr(),
            private_memory: private.as_ptr(),
            args: self.arg_ptrs.as_ptr() as *const *mut u8,
            runtime: runtime.as_ctx_ptr(),
            resource_sizes: d.resource_sizes.as_ptr(),
            group_scratch: self.group_scratch.as_ptr() as *mut u64,
        }
    }
}

fn to_usize(n: u64) -> Result<usize, RunError> {
    usize::try_from(n).map_err(|_| RunError::Resources(format!("{n} bytes do not fit memory")))
}

/// Runs `work` once per item, each on its own scoped thread. Threads wait on a gate until all
/// have been spawned, so that a failed spawn (which would leave a barrier team short) stops them
/// all before any invocation runs.
fn spawn_all<T: Send, I: Iterator<Item = T>>(
    items: I,
    work: impl Fn(T) -> Result<(), RunError> + Sync,
) -> Result<(), RunError> {
    let gate = Gate::default();
    let failed = AtomicBool::new(false);
    let mut first_error = None;
    std::thread::scope(|s| {
        let mut handles = Vec::new();
        for item in items {
            let spawned = std::thread::Builder::new()
                .name("spvkit-run".into())
                .stack_size(STACK_SIZE)
                .spawn_scoped(s, {
                    let (gate, work) = (&gate, &work);
                    move || {
                        if gate.wait() {
                            work(item)
                        } else {
                            Ok(())
                        }
                    }
                });
            match spawned {
                Ok(h) => handles.push(h),
                Err(e) => {
                    failed.store(true, Ordering::Relaxed);
                    first_error = Some(RunError::Resources(format!("cannot start a thread: {e}")));
                    break;
                }
            }
        }
        gate.open(!failed.load(Ordering::Relaxed));
        for h in handles {
            let result = h
                .join()
                .unwrap_or_else(|_| Err(RunError::Resources("a worker thread panicked".into())));
            if let Err(e) = result {
                first_error.get_or_insert(e);
            }
        }
    });
    first_error.map_or(Ok(()), Err)
}

/// A one-shot gate: threads wait until it opens (true: go, false: stop).
#[derive(Default)]
struct Gate {
    state: Mutex<Option<bool>>,
    opened: Condvar,
}

impl Gate {
    fn wait(&self) -> bool {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(go) = *s {
                return go;
            }
            s = self.opened.wait(s).unwrap_or_else(|e| e.into_inner());
        }
    }

    fn open(&self, go: bool) {
        *self.state.lock().unwrap_or_else(|e| e.into_inner()) = Some(go);
        self.opened.notify_all();
    }
}
