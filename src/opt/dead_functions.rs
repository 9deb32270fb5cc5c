//! Dead-function elimination (spirv-opt's `--eliminate-dead-functions`): removes the functions
//! no entry point reaches through calls and that are not exported (`LinkageAttributes ...
//! Export`). Why: libraries of helpers, and what inlining leaves behind. A function named
//! anywhere but as a call's callee (debug information, a function-pointer constant, a global's
//! initializer) is kept.

use crate::grammar::{Decoration, Id, Instruction, LinkageType};
use crate::ir::analysis::{visit_operands, CallGraph};
use crate::ir::operands::{visit_ids_mut, ExtOperands};
use crate::ir::{Arena, Function, Handle, Module, Terminator, Value};

/// Runs the pass; whether any function was removed.
pub fn run(m: &mut Module) -> bool {
    let n = m.functions.len();
    let mut roots: Vec<Handle<Function>> = m.entry_points.iter().map(|e| e.function).collect();
    let mut root = |v: Value| {
        if let Value::Function(f) = v {
            roots.push(f);
        }
    };
    for (h, f) in m.functions.iter() {
        let exported = f
            .decorations
            .iter()
            .any(|d| matches!(d, Decoration::LinkageAttributes(_, LinkageType::Export)));
        if exported {
            root(Value::Function(h));
        }
        for &o in f
            .header
            .iter()
            .chain(f.blocks.iter().flat_map(|(_, b)| b.ops.iter()))
        {
            let inst = &f.ops[o].inst;
            let callee = match inst {
                Instruction::FunctionCall(c) => Value::from_id(c.function),
                _ => None,
            };
            visit_operands(m, inst, &mut |v| {
                if Some(v) != callee {
                    root(v)
                }
            });
        }
    }
    for (_, e) in m.ext_insts.iter() {
        visit_operands(m, &Instruction::ExtInst(e.inst.clone()), &mut root);
    }
    for (_, g) in m.globals.iter() {
        if let Some(v) = g.initializer {
            root(v);
        }
    }
    let reached = CallGraph::new(m).reached_from(roots);
    if reached.iter().all(|&r| r) {
        return false;
    }
    // The kept functions, renumbered, and every reference to them rewritten.
    let mut new_index = vec![None; n];
    let mut kept = Arena::new();
    for (h, f) in std::mem::take(&mut m.functions).iter() {
        if reached[h.index()] {
            new_index[h.index()] = Some(kept.append(f.clone()));
        }
    }
    let remap = |id: &mut Id| {
        if let Some(Value::Function(f)) = Value::from_id(*id) {
            if let Some(Some(k)) = new_index.get(f.index()) {
                *id = Value::Function(*k).to_id();
            }
        }
    };
    let imports = &m.ext_inst_imports;
    let ext = |set: Id, number: u32| match Value::from_id(set) {
        Some(Value::ExtInstSet(s)) => imports
            .get(s)
            .map_or(ExtOperands::Unknown, |i| ExtOperands::of(i, number)),
        _ => ExtOperands::Unknown,
    };
    for (_, f) in kept.iter_mut() {
        for (_, op) in f.ops.iter_mut() {
            visit_ids_mut(&mut op.inst, ext, &mut |id| remap(id));
        }
        for (_, b) in f.blocks.iter_mut() {
            if let Terminator::Other(inst) = &mut b.terminator {
                visit_ids_mut(inst, ext, &mut |id| remap(id));
            }
        }
    }
    for (_, e) in m.ext_insts.iter_mut() {
        let mut inst = Instruction::ExtInst(e.inst.clone());
        visit_ids_mut(&mut inst, ext, &mut |id| remap(id));
        if let Instruction::ExtInst(op) = inst {
            e.inst = op;
        }
    }
    for (_, g) in m.globals.iter_mut() {
        if let Some(Value::Function(f)) = g.initializer {
            if let Some(Some(k)) = new_index.get(f.index()) {
                g.initializer = Some(Value::Function(*k));
            }
        }
    }
    for e in &mut m.entry_points {
        if let Some(Some(k)) = new_index.get(e.function.index()) {
            e.function = *k;
        }
    }
    for e in &mut m.execution_modes {
        if let Some(Some(k)) = new_index.get(e.function.index()) {
            e.function = *k;
        }
    }
    m.functions = kept;
    true
}
