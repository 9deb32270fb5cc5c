//! Entry-point interfaces from SPIR-V 1.4 on: an `OpEntryPoint` lists every global variable
//! (of any storage class but `Function`) that its static call tree uses, each once. Before,
//! it lists only the `Input` and `Output` variables, possibly more than once. A module whose
//! version [`super::update_vce`] raises to 1.4 or later gets its interfaces completed here.
//!
//! "Uses" is spirv-val's: an instruction of a function that names the variable, or names a
//! module-level result (another variable's initializer, a specialization-constant operation,
//! a non-semantic instruction) that does, transitively; the call tree follows
//! `OpFunctionCall`. Operands of `OpExtInst` count as ids where one equals a variable's id
//! (an extended set's literal that happens to equal one only lists a variable more).

use crate::grammar::{Ids, Instruction, StorageClass};
use std::collections::{HashMap, HashSet};

/// Completes every `OpEntryPoint`'s interface as SPIR-V 1.4 asks (duplicates dropped, every
/// variable its call tree uses added in declaration order); whether anything changed.
pub fn complete_interfaces(insts: &mut [Instruction]) -> bool {
    let mut globals: Vec<u32> = Vec::new();
    let mut is_global: HashSet<u32> = HashSet::new();
    // Module-level results that (transitively) name global variables.
    let mut deps: HashMap<u32, Vec<u32>> = HashMap::new();
    let mut function_index: HashMap<u32, usize> = HashMap::new();
    let mut uses: Vec<HashSet<u32>> = Vec::new();
    let mut calls: Vec<Vec<u32>> = Vec::new();
    let mut current: Option<usize> = None;
    for inst in insts.iter() {
        match inst {
            Instruction::Function(f) => {
                function_index.insert(f.result_id.0, uses.len());
                current = Some(uses.len());
                uses.push(HashSet::new());
                calls.push(Vec::new());
                continue;
            }
            Instruction::FunctionEnd(_) => {
                current = None;
                continue;
            }
            _ => {}
        }
        let (result, result_type) = (inst.result_id(), inst.result_type());
        let mut named: Vec<u32> = Vec::new();
        inst.visit_ids(&mut |id| {
            if Some(id) != result && Some(id) != result_type {
                named.push(id.0)
            }
        });
        if let Instruction::ExtInst(e) = inst {
            named.extend(e.operands.iter().copied());
        }
        let reached = |named: &[u32], deps: &HashMap<u32, Vec<u32>>, is_global: &HashSet<u32>| {
            let mut out: Vec<u32> = Vec::new();
            for x in named {
                if is_global.contains(x) {
                    out.push(*x);
                }
                if let Some(d) = deps.get(x) {
                    out.extend(d.iter().copied());
                }
            }
            out
        };
        match current {
            None => {
                if let Instruction::Variable(v) = inst {
                    if v.storage_class != StorageClass::Function {
                        globals.push(v.result_id.0);
                        is_global.insert(v.result_id.0);
                    }
                }
                if let Some(r) = result {
                    let d = reached(&named, &deps, &is_global);
                    if !d.is_empty() {
                        deps.insert(r.0, d);
                    }
                }
            }
            Some(f) => {
                let d = reached(&named, &deps, &is_global);
                uses[f].extend(d);
                if let Instruction::FunctionCall(c) = inst {
                    calls[f].push(c.function.0);
                }
            }
        }
    }
    let mut changed = false;
    for inst in insts.iter_mut() {
        let Instruction::EntryPoint(e) = inst else {
            continue;
        };
        // The call tree's uses.
        let mut needed: HashSet<u32> = HashSet::new();
        let mut seen: HashSet<usize> = HashSet::new();
        let mut stack: Vec<usize> = function_index
            .get(&e.entry_point.0)
            .copied()
            .into_iter()
            .collect();
        while let Some(f) = stack.pop() {
            if !seen.insert(f) {
                continue;
            }
            needed.extend(uses[f].iter().copied());
            stack.extend(
                calls[f]
                    .iter()
                    .filter_map(|c| function_index.get(c).copied()),
            );
        }
        let mut listed: HashSet<u32> = HashSet::new();
        let before = e.interfaces.len();
        e.interfaces.retain(|v| listed.insert(v.0));
        changed |= e.interfaces.len() != before;
        for &v in &globals {
            if needed.contains(&v) && listed.insert(v) {
                e.interfaces.push(crate::grammar::Id(v));
                changed = true;
            }
        }
    }
    changed
}
