//! The runtime functions the lowered code calls (`spvkit_rt_*`, `docs/lowering-abi.md`). The
//! JIT maps each declared hook symbol to the Rust function here.

use super::barrier::WorkgroupBarrier;
use super::context::InvocationContext;
use crate::grammar::StorageClass;
use crate::lower::abi::NO_STORAGE_CLASS;
use std::ffi::c_void;
use std::ops::Range;

/// What `ctx.runtime` points to: how this invocation waits at a barrier, and where its memory
/// lies (for `spvkit_rt_storage_class`).
#[repr(C)]
#[derive(Debug)]
pub struct Runtime {
    kind: u64,
    target: *mut c_void,
    /// The top of the stack the invocation runs on (an address above every frame of the
    /// lowered code), or 0 when unknown.
    stack_top: usize,
    /// The memory of the invocation's executor, or null.
    memory: *const MemoryMap,
}

/// The memory a worker (or a barrier team) runs invocations on, by address range: what
/// `spvkit_rt_storage_class` classifies besides the invocation's stack.
#[derive(Debug, Default, Clone)]
pub struct MemoryMap {
    /// Global memory: every job buffer (descriptor-bound or a kernel's buffer argument).
    pub global: Vec<Range<usize>>,
    /// Local memory: this executor's Workgroup block and local-argument blocks.
    pub local: Vec<Range<usize>>,
    /// The size of each invocation's Private block, which lies at `ctx.private_memory`.
    pub private_size: usize,
}

impl MemoryMap {
    /// The storage class of the memory at `address` among these ranges and the Private block
    /// at `private`, or [`NO_STORAGE_CLASS`].
    pub fn classify(&self, address: usize, private: usize) -> u32 {
        if (private..private.saturating_add(self.private_size)).contains(&address) {
            StorageClass::Private as u32
        } else if self.local.iter().any(|r| r.contains(&address)) {
            StorageClass::Workgroup as u32
        } else if self.global.iter().any(|r| r.contains(&address)) {
            StorageClass::CrossWorkgroup as u32
        } else {
            NO_STORAGE_CLASS
        }
    }
}

const THREADS: u64 = 1;
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
const FIBER: u64 = 2;

impl Runtime {
    /// Invocations on threads, meeting at `barrier`.
    pub fn threads(barrier: &WorkgroupBarrier) -> Runtime {
        Runtime {
            kind: THREADS,
            target: barrier as *const WorkgroupBarrier as *mut c_void,
            stack_top: 0,
            memory: std::ptr::null(),
        }
    }

    /// An invocation on a fiber, whose scheduler state is `slot`.
    #[cfg(all(target_arch = "x86_64", target_os = "linux"))]
    pub fn fiber(slot: *mut c_void) -> Runtime {
        Runtime {
            kind: FIBER,
            target: slot,
            stack_top: 0,
            memory: std::ptr::null(),
        }
    }

    /// The same runtime, for an invocation whose stack lies below `stack_top` and whose
    /// executor's memory `memory` describes (it must outlive the invocations).
    pub fn with_memory(self, memory: &MemoryMap, stack_top: usize) -> Runtime {
        Runtime {
            stack_top,
            memory,
            ..self
        }
    }

    /// The address to store in `ctx.runtime`.
    pub fn as_ctx_ptr(&self) -> *mut c_void {
        self as *const Runtime as *mut c_void
    }
}

/// `void spvkit_rt_control_barrier(ptr %ctx)`: OpControlBarrier with Workgroup execution scope.
///
/// # Safety
/// `ctx` is null or the context the runner passed to the entry point, whose `runtime` is null or
/// a live [`Runtime`].
pub unsafe extern "C" fn spvkit_rt_control_barrier(ctx: *mut InvocationContext) {
    // SAFETY: per the contract above.
    let Some(ctx) = (unsafe { ctx.as_ref() }) else {
        return;
    };
    // SAFETY: per the contract above.
    let Some(rt) = (unsafe { (ctx.runtime as *const Runtime).as_ref() }) else {
        return;
    };
    match rt.kind {
        THREADS => {
            // SAFETY: `threads` stored a live barrier.
            if let Some(b) = unsafe { (rt.target as *const WorkgroupBarrier).as_ref() } {
                b.wait();
            }
        }
        #[cfg(all(target_arch = "x86_64", target_os = "linux"))]
        FIBER => {
            // SAFETY: `fiber` stored the slot of the fiber running this code.
            unsafe { super::fiber::barrier(rt.target) }
        }
        _ => {}
    }
}

/// `i64 spvkit_rt_group(ptr %ctx, i32 %op, i64 %value, i64 %x, i64 %y, i64 %z)`: a
/// work-group collective (see [`super::group`] for `op`); `x, y, z` is a broadcast's source.
/// Every invocation of the workgroup must make the same call, as for a barrier.
///
/// # Safety
/// As [`spvkit_rt_control_barrier`]; `ctx.group_scratch` is null or has a slot for every
/// invocation of the workgroup.
pub unsafe extern "C" fn spvkit_rt_group(
    ctx: *mut InvocationContext,
    op: u32,
    value: u64,
    x: u64,
    y: u64,
    z: u64,
) -> u64 {
    // SAFETY: per the contract above.
    let Some(c) = (unsafe { ctx.as_ref() }) else {
        return value;
    };
    let size = c.workgroup_size;
    let n = usize::try_from(size[0] * size[1] * size[2]).unwrap_or(0);
    let me = usize::try_from(c.local_index).unwrap_or(usize::MAX);
    if c.group_scratch.is_null() || me >= n {
        // No group to meet (a lone invocation run by hand): the group is this invocation.
        return super::group::result(op, &[value], 0, [x, y, z], [1, 1, 1]);
    }
    let scratch = c.group_scratch;
    // SAFETY: the slot is this invocation's own; the others write theirs.
    unsafe { scratch.add(me).write_volatile(value) };
    // SAFETY: per the contract above.
    unsafe { spvkit_rt_control_barrier(ctx) };
    // SAFETY: every slot was written before the barrier and none is written until the next.
    let slots = unsafe { std::slice::from_raw_parts(scratch as *const u64, n) };
    let r = super::group::result(op, slots, me, [x, y, z], size);
    // SAFETY: per the contract above.
    unsafe { spvkit_rt_control_barrier(ctx) };
    r
}

/// `i32 spvkit_rt_storage_class(ptr %ctx, ptr %p)`: where `p` points (`docs/lowering-abi.md`):
/// `Function` between this call's frame and the invocation's stack top, else what the
/// executor's [`MemoryMap`] says, else [`NO_STORAGE_CLASS`].
///
/// # Safety
/// As [`spvkit_rt_control_barrier`]; the runtime's memory map is null or live. `p` is only
/// compared, never read.
pub unsafe extern "C" fn spvkit_rt_storage_class(ctx: *mut InvocationContext, p: *const u8) -> u32 {
    // This frame lies below every frame of the invocation's lowered code, which all lie below
    // the stack top the runner recorded before calling the entry point.
    let here = 0u8;
    let sp = std::hint::black_box(&here) as *const u8 as usize;
    let address = p as usize;
    // SAFETY: per the contract above.
    let Some(c) = (unsafe { ctx.as_ref() }) else {
        return NO_STORAGE_CLASS;
    };
    // SAFETY: per the contract above.
    let Some(rt) = (unsafe { (c.runtime as *const Runtime).as_ref() }) else {
        return NO_STORAGE_CLASS;
    };
    if address == 0 {
        return NO_STORAGE_CLASS;
    }
    if (sp..rt.stack_top).contains(&address) {
        return StorageClass::Function as u32;
    }
    // SAFETY: per the contract above.
    match unsafe { rt.memory.as_ref() } {
        Some(m) => m.classify(address, c.private_memory as usize),
        None => NO_STORAGE_CLASS,
    }
}

/// Every hook: its symbol and address.
pub fn hooks() -> [(&'static str, usize); 3] {
    [
        (
            crate::lower::abi::CONTROL_BARRIER_HOOK,
            spvkit_rt_control_barrier as unsafe extern "C" fn(*mut InvocationContext) as usize,
        ),
        (
            crate::lower::abi::GROUP_HOOK,
            spvkit_rt_group
                as unsafe extern "C" fn(*mut InvocationContext, u32, u64, u64, u64, u64) -> u64
                as usize,
        ),
        (
            crate::lower::abi::STORAGE_CLASS_HOOK,
            spvkit_rt_storage_class
                as unsafe extern "C" fn(*mut InvocationContext, *const u8) -> u32
                as usize,
        ),
    ]
}
