//! Private-to-local (spirv-opt's `--private-to-local`): a Private variable that only one entry
//! point function uses (and no function calls that entry point) becomes a Function variable
//! of it. Why: HLSL `static` globals and glslang's globals are Private; as locals, the SSA
//! rewrite and scalar replacement see them (and HLSL's `static` resource aliases become
//! locals the legalizer can remove).
//!
//! Each invocation runs its entry point once, so a variable only it touches lives exactly as
//! long as a local would; a Private variable of a function called more than once keeps its
//! value between calls and stays. Every use must be a load, a store or an access chain (whose
//! result pointers move to the Function storage class with it).

use crate::grammar::{Id, Instruction, OpVariable, StorageClass};
use crate::ir::analysis::visit_operands;
use crate::ir::{Function, GlobalVariable, Handle, Module, Op, Type, Value};
use std::collections::{HashMap, HashSet};

/// Runs the pass; whether any variable moved.
pub fn run(m: &mut Module) -> bool {
    // Which function uses each Private variable, and whether any other place does.
    let n = m.globals.len();
    let mut user: Vec<Option<Handle<Function>>> = vec![None; n];
    let mut shared = vec![false; n];
    let private: Vec<bool> = m
        .globals
        .iter()
        .map(|(_, g)| g.storage_class == StorageClass::Private && g.decorations.is_empty())
        .collect();
    for (fh, f) in m.functions.iter() {
        let mut note = |v: Value| {
            if let Value::Global(g) = v {
                if let Some(u) = user.get_mut(g.index()) {
                    match u {
                        Some(x) if *x != fh => shared[g.index()] = true,
                        _ => *u = Some(fh),
                    }
                }
            }
        };
        for (_, b) in f.blocks.iter() {
            for &h in &b.ops {
                visit_operands(m, &f.ops[h].inst, &mut note);
            }
            b.terminator.visit_values(&mut note);
        }
        for &h in &f.header {
            visit_operands(m, &f.ops[h].inst, &mut note);
        }
    }
    super::replace::visit_module_level_values(m, &mut |v| {
        if let Value::Global(g) = v {
            if let Some(s) = shared.get_mut(g.index()) {
                *s = true;
            }
        }
    });
    let mut called: HashSet<Handle<Function>> = HashSet::new();
    for (_, f) in m.functions.iter() {
        for (_, b) in f.blocks.iter() {
            for &h in &b.ops {
                if let Instruction::FunctionCall(c) = &f.ops[h].inst {
                    if let Some(Value::Function(g)) = Value::from_id(c.function) {
                        called.insert(g);
                    }
                }
            }
        }
    }
    let entries: HashSet<Handle<Function>> = m.entry_points.iter().map(|e| e.function).collect();
    let mut moved: HashMap<Handle<Function>, Vec<Handle<GlobalVariable>>> = HashMap::new();
    for g in m.globals.handles() {
        let i = g.index();
        if let (true, false, Some(f)) = (private[i], shared[i], user[i]) {
            if entries.contains(&f) && !called.contains(&f) {
                moved.entry(f).or_default().push(g);
            }
        }
    }
    let mut changed = false;
    for (fh, vars) in moved {
        let placeholder = Function::new(m.functions[fh].ty, crate::grammar::FunctionControl::None);
        let mut f = std::mem::replace(&mut m.functions[fh], placeholder);
        for g in vars {
            changed |= localize(m, &mut f, g);
        }
        m.functions[fh] = f;
    }
    changed
}

/// Moves global `g` into `f` if every use is a load, store or access chain; whether it did.
fn localize(m: &mut Module, f: &mut Function, g: Handle<GlobalVariable>) -> bool {
    let Some(entry) = f.entry() else { return false };
    let var = Value::Global(g);
    // The pointers derived from the variable: it and the chains on it (transitively).
    let mut derived: HashSet<Value> = HashSet::from([var]);
    let listed: Vec<Handle<Op>> = f.blocks.iter().flat_map(|(_, b)| b.ops.clone()).collect();
    let mut chains = Vec::new();
    for &h in &listed {
        let base = match &f.ops[h].inst {
            Instruction::AccessChain(a) => Value::from_id(a.base),
            Instruction::InBoundsAccessChain(a) => Value::from_id(a.base),
            _ => None,
        };
        if base.is_some_and(|b| derived.contains(&b)) {
            derived.insert(Value::Op(h));
            chains.push(h);
        }
    }
    for &h in &listed {
        let inst = &f.ops[h].inst;
        let allowed = match inst {
            Instruction::Load(l) => Value::from_id(l.pointer),
            Instruction::Store(s) => Value::from_id(s.pointer),
            Instruction::AccessChain(a) => Value::from_id(a.base),
            Instruction::InBoundsAccessChain(a) => Value::from_id(a.base),
            _ => None,
        };
        let mut ok = true;
        visit_operands(m, inst, &mut |v| {
            if derived.contains(&v) && Some(v) != allowed {
                ok = false;
            }
        });
        if let Instruction::Store(s) = inst {
            if Value::from_id(s.object).is_some_and(|o| derived.contains(&o)) {
                ok = false;
            }
        }
        if !ok {
            return false;
        }
    }
    for (_, b) in f.blocks.iter() {
        let mut ok = true;
        b.terminator.visit_values(|v| ok &= !derived.contains(&v));
        if !ok {
            return false;
        }
    }
    // Retype the variable and its chains to Function pointers.
    let function_ptr = |m: &mut Module, t: Handle<Type>| -> Option<Handle<Type>> {
        match m.types.get(t)?.clone() {
            Type::Pointer {
                storage_class: StorageClass::Private,
                pointee,
                stride,
            } => Some(m.types.insert(Type::Pointer {
                storage_class: StorageClass::Function,
                pointee,
                stride,
            })),
            _ => None,
        }
    };
    let gv = m.globals[g].clone();
    let Some(ty) = function_ptr(m, gv.ty) else {
        return false;
    };
    let mut retyped = Vec::with_capacity(chains.len());
    for &h in &chains {
        match f.ops[h].result_type().and_then(|t| function_ptr(m, t)) {
            Some(t) => retyped.push((h, t)),
            None => return false,
        }
    }
    for (h, t) in retyped {
        match &mut f.ops[h].inst {
            Instruction::AccessChain(a) => a.result_type = Value::Type(t).to_id(),
            Instruction::InBoundsAccessChain(a) => a.result_type = Value::Type(t).to_id(),
            _ => {}
        }
    }
    let local = f.ops.append(Op {
        inst: Instruction::Variable(OpVariable {
            result_type: Value::Type(ty).to_id(),
            result_id: Id(0),
            storage_class: StorageClass::Function,
            initializer: gv.initializer.map(Value::to_id),
        }),
        loc: gv.loc,
        attrs: crate::ir::Attrs::boxed(gv.name.clone(), Vec::new()),
    });
    if let Instruction::Variable(v) = &mut f.ops[local].inst {
        v.result_id = Value::Op(local).to_id();
    }
    let at = f.blocks[entry]
        .ops
        .iter()
        .position(|h| !matches!(f.ops[*h].inst, Instruction::Variable(_)))
        .unwrap_or(f.blocks[entry].ops.len());
    f.blocks[entry].ops.insert(at, local);
    let map = HashMap::from([(var, Value::Op(local))]);
    super::replace::replace_uses(m, f, &map);
    for e in &mut m.entry_points {
        e.interface.retain(|&x| x != g);
    }
    // The global stays declared until dead-variable elimination removes it.
    true
}
