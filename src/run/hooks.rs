//! The runtime functions the lowered code calls (`spvkit_rt_*`, `docs/lowering-abi.md`). The
//! JIT maps each declared hook symbol to the Rust function here.

use super::barrier::WorkgroupBarrier;
use super::context::InvocationContext;

/// `void spvkit_rt_control_barrier(ptr %ctx)`: OpControlBarrier with Workgroup execution scope.
/// `ctx.runtime` points to the workgroup's [`WorkgroupBarrier`].
///
/// # Safety
/// `ctx` is null or the context the runner passed to the entry point, whose `runtime` is null or
/// a live `WorkgroupBarrier`.
pub unsafe extern "C" fn spvkit_rt_control_barrier(ctx: *mut InvocationContext) {
    // SAFETY: per the contract above.
    let Some(ctx) = (unsafe { ctx.as_ref() }) else {
        return;
    };
    // SAFETY: per the contract above.
    if let Some(barrier) = unsafe { (ctx.runtime as *const WorkgroupBarrier).as_ref() } {
        barrier.wait();
    }
}

/// Every hook: its symbol and address.
pub fn hooks() -> [(&'static str, usize); 1] {
    [(
        "spvkit_rt_control_barrier",
        spvkit_rt_control_barrier as unsafe extern "C" fn(*mut InvocationContext) as usize,
    )]
}
