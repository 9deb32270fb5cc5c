//! Dead-function elimination (spirv-opt's `--eliminate-dead-functions`): removes the functions
//! no entry point reaches through calls and that are not exported (`LinkageAttributes ...
//! Export`). Why: libraries of helpers, and what inlining leaves behind. A function named
//! anywhere but as a call's callee (debug information, a function-pointer constant, a global's
//! initializer) is kept.

use super::replace::{remap_module_values, visit_module_level_values};
use crate::grammar::{Decoration, Instruction, LinkageType};
use crate::ir::analysis::{visit_operands, CallGraph};
use crate::ir::{Arena, Function, Handle, Module, Value};

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
    visit_module_level_values(m, &mut root);
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
    m.functions = kept;
    remap_module_values(m, &|v| match v {
        Value::Function(f) => new_index
            .get(f.index())
            .copied()
            .flatten()
            .map(Value::Function),
        _ => None,
    });
    for e in &mut m.entry_points {
        if let Some(Some(k)) = new_index.get(e.function.index()) {
            e.function = *k;
        }
    }
    // (An execution mode of a function that is no entry point, in an invalid module, goes
    // with its function.)
    m.execution_modes
        .retain_mut(|e| match new_index.get(e.function.index()) {
            Some(Some(k)) => {
                e.function = *k;
                true
            }
            _ => false,
        });
    true
}
