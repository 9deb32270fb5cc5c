//! Dead-code elimination: removes the ops whose result nothing uses and that have no other
//! effect, and the block arguments nothing uses (with the values branches pass them), until
//! none is left. Why: code generators (the HLSL frontend among them) leave loads, conversions
//! and access chains whose values are never read.

use crate::grammar::{Instruction, MemoryAccess};
use crate::ir::analysis::UseCounts;
use crate::ir::{Function, Module, Op, Value};

/// Runs the pass on every function; whether anything was removed.
pub fn run(m: &mut Module) -> bool {
    super::each_function(m, |m, f| in_function(m, f))
}

/// Whether `op` may go when its result is unused: the grammar's pure ops (see
/// `Opcode::is_pure`), less a volatile load and an extended instruction other than
/// GLSL.std.450's value computations (non-semantic ones, `DebugPrintf` and debug information,
/// and OpenCL.std, whose `printf` and `vstore`s write, are kept).
fn removable(m: &Module, op: &Op) -> bool {
    if !op.has_result() || !op.inst.opcode().is_some_and(|o| o.is_pure()) {
        return false;
    }
    match &op.inst {
        Instruction::Load(load) => !load
            .memory_access
            .as_ref()
            .is_some_and(|a| a.effective_mask().contains(MemoryAccess::Volatile)),
        // GLSL.std.450 computes values, but `Modf` and `Frexp` also write through a pointer;
        // OpenCL.std has `printf`, `prefetch` and the `vstore`s.
        Instruction::ExtInst(e) => match Value::from_id(e.set) {
            Some(Value::ExtInstSet(s)) => {
                use crate::grammar::ext::glsl_std_450::Opcode as Glsl;
                let writes = [Glsl::Modf as u32, Glsl::Frexp as u32];
                m.ext_inst_imports
                    .get(s)
                    .is_some_and(|i| i.name == "GLSL.std.450")
                    && !writes.contains(&e.instruction)
            }
            _ => false,
        },
        _ => true,
    }
}

fn in_function(m: &Module, f: &mut Function) -> bool {
    if f.is_declaration() {
        return false;
    }
    let mut uses = UseCounts::new(m, f);
    let mut changed = false;
    loop {
        let mut removed = false;
        // Ops, last to first in each block, so a chain of dead ops goes in one sweep.
        for b in f.blocks.handles().collect::<Vec<_>>() {
            let ops = std::mem::take(&mut f.blocks[b].ops);
            let mut kept = Vec::with_capacity(ops.len());
            for &h in ops.iter().rev() {
                let op = &f.ops[h];
                if uses.of_op(h) == 0 && removable(m, op) {
                    uses.remove_uses(m, &op.inst);
                    removed = true;
                } else {
                    kept.push(h);
                }
            }
            kept.reverse();
            f.blocks[b].ops = kept;
        }
        // Block arguments nothing reads, and the values passed to them.
        for b in f.blocks.handles().collect::<Vec<_>>() {
            let dead: Vec<usize> = f.blocks[b]
                .args
                .iter()
                .enumerate()
                .filter(|(_, &a)| uses.of_arg(a) == 0)
                .map(|(i, _)| i)
                .collect();
            if dead.is_empty() {
                continue;
            }
            removed = true;
            for p in f.blocks.handles().collect::<Vec<_>>() {
                for s in f.blocks[p].terminator.successors_mut() {
                    if s.block != b {
                        continue;
                    }
                    for &i in dead.iter().rev() {
                        if i < s.args.len() {
                            let v = s.args.remove(i);
                            uses.remove_value(v);
                        }
                    }
                }
            }
            let args = &mut f.blocks[b].args;
            for &i in dead.iter().rev() {
                args.remove(i);
            }
        }
        if !removed {
            break;
        }
        changed = true;
    }
    changed
}
