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

/// Every hook: its symbol and address.
pub fn hooks() -> [(&'static str, usize); 1] {
    [(
        "spvkit_rt_control_barrier",
        spvkit_rt_control_barrier as unsafe extern "C" fn(*mut InvocationContext) as usize,
    )]
}
