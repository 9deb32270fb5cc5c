//! Barriers. `OpControlBarrier` with Workgroup (or wider) execution scope calls the runner's
//! `@spvkit_rt_control_barrier(ptr %ctx)` between two `fence acq_rel`s when it has memory
//! semantics; with Subgroup scope (subgroups of one invocation) only the fences remain.
//! `OpMemoryBarrier` is a fence (`seq_cst` when asked, else `acq_rel`), none for empty semantics.

use super::super::error::{LowerError, Result};
use super::super::function::FnCx;
use super::super::Lowerer;
use crate::grammar::Instruction;
use crate::ir::Op;
use inkwell::AddressSpace;
use inkwell::AtomicOrdering as A;

use crate::lower::abi::CONTROL_BARRIER_HOOK;

fn fence_ordering(semantics: u64) -> Option<A> {
    if semantics == 0 {
        None
    } else if semantics & u64::from(crate::grammar::MemorySemantics::SequentiallyConsistent.0) != 0
    {
        Some(A::SequentiallyConsistent)
    } else {
        Some(A::AcquireRelease)
    }
}

/// Lowers a barrier.
pub(crate) fn lower<'a, 'ctx>(
    l: &mut Lowerer<'a, 'ctx>,
    fx: &mut FnCx<'_, 'ctx>,
    op: &Op,
) -> Result<()> {
    match &op.inst {
        Instruction::ControlBarrier(c) => {
            let exec = l.const_operand(fx, c.execution)?;
            let sem = l.const_operand(fx, c.semantics)?;
            let fence = fence_ordering(sem);
            if let Some(o) = fence {
                l.b.build_fence(o, false, "")?;
            }
            // Workgroup or wider (CrossDevice 0, Device 1, Workgroup 2).
            if exec <= crate::grammar::Scope::Workgroup as u64 {
                let ptr = l.cx.ptr_type(AddressSpace::default());
                let hook = super::super::llvm::external(
                    &l.llm,
                    CONTROL_BARRIER_HOOK,
                    l.cx.void_type().fn_type(&[ptr.into()], false),
                )?;
                l.b.build_call(hook, &[fx.ctx.into()], "")?;
                if let Some(slot) = l.barrier_fns.get_mut(fx.fh.index()) {
                    *slot = true;
                }
                if let Some(o) = fence {
                    l.b.build_fence(o, false, "")?;
                }
            }
            Ok(())
        }
        Instruction::MemoryBarrier(m) => {
            let sem = l.const_operand(fx, m.semantics)?;
            if let Some(o) = fence_ordering(sem) {
                l.b.build_fence(o, false, "")?;
            }
            Ok(())
        }
        _ => Err(LowerError::unsupported("this barrier")),
    }
}
