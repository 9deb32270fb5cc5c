//! Dead-variable elimination (spirv-opt's `--eliminate-dead-variables`): removes the
//! module-scope variables nothing refers to. Why: front ends declare resources and constants
//! the entry point never reads (the HLSL `$Globals` of unused uniforms, descriptors of other
//! entry points), and the other passes leave more. A variable an entry point lists as its
//! interface (the pipeline's stage interface) or that is exported is kept.

use super::replace::{remap_module_values, visit_module_level_values};
use crate::grammar::{Decoration, LinkageType};
use crate::ir::analysis::visit_operands;
use crate::ir::{Arena, Module, Value};

/// Runs the pass; whether any variable was removed.
pub fn run(m: &mut Module) -> bool {
    let n = m.globals.len();
    let mut used = vec![false; n];
    let mut mark = |v: Value| {
        if let Value::Global(g) = v {
            if let Some(u) = used.get_mut(g.index()) {
                *u = true;
            }
        }
    };
    for (_, f) in m.functions.iter() {
        for &o in f
            .header
            .iter()
            .chain(f.blocks.iter().flat_map(|(_, b)| b.ops.iter()))
        {
            visit_operands(m, &f.ops[o].inst, &mut mark);
        }
        for (_, b) in f.blocks.iter() {
            b.terminator.visit_values(&mut mark);
        }
    }
    visit_module_level_values(m, &mut mark);
    for e in &m.entry_points {
        e.interface.iter().for_each(|&g| mark(Value::Global(g)));
    }
    for (h, g) in m.globals.iter() {
        let exported = g
            .decorations
            .iter()
            .any(|d| matches!(d, Decoration::LinkageAttributes(_, LinkageType::Export)));
        if exported {
            mark(Value::Global(h));
        }
    }
    if used.iter().all(|&u| u) {
        return false;
    }
    keep_only(m, &used);
    true
}

/// Removes every global variable whose `used` entry is false (nothing may refer to it) and
/// renumbers the references to the others, entry point interfaces included.
pub(super) fn keep_only(m: &mut Module, used: &[bool]) {
    let n = m.globals.len();
    let mut new_index = vec![None; n];
    let mut kept = Arena::new();
    for (h, g) in std::mem::take(&mut m.globals).iter() {
        if used.get(h.index()).copied().unwrap_or(true) {
            new_index[h.index()] = Some(kept.append(g.clone()));
        }
    }
    m.globals = kept;
    remap_module_values(m, &|v| match v {
        Value::Global(g) => new_index
            .get(g.index())
            .copied()
            .flatten()
            .map(Value::Global),
        _ => None,
    });
    for e in &mut m.entry_points {
        e.interface = e
            .interface
            .iter()
            .filter_map(|g| new_index.get(g.index()).copied().flatten())
            .collect();
    }
}
