//! The runtime functions the lowered code calls (`spvkit_rt_*`, `docs/lowering-abi.md`). The
//! JIT maps each declared hook symbol to the Rust function here.

use super::barrier::WorkgroupBarrier;
use super::context::InvocationContext;
use std::ffi::c_void;

/// What `ctx.runtime` points to: how this invocation waits at a barrier.
#[repr(C)]
#[derive(Debug)]
pub struct Runtime {
    kind: u64,
    target: *mut c_void,
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
        }
    }

    /// An invocation on a fiber, whose scheduler state is `slot`.
    #[cfg(all(target_arch = "x86_64", target_os = "linux"))]
    pub fn fiber(slot: *mut c_void) -> Runtime {
        Runtime {
            kind: FIBER,
            target: slot,
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

/// Every hook: its symbol and address.
pub fn hooks() -> [(&'static str, usize); 2] {
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
    ]
}
