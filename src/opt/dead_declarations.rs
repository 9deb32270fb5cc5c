//! Dead type and constant elimination (spirv-opt's `--eliminate-dead-const`, and the type
//! removal of its aggressive dead-code elimination): types and constants that nothing in the
//! module refers to go, with their names and decorations. Why: folding, inlining and the other
//! passes leave constants and types that no op uses any more, each an instruction in the
//! binary.
//!
//! Everything that may name a type or a constant is walked (`visit_references`): ops and
//! terminators (extended-instruction operands included), functions, parameters, block
//! arguments, global variables, specialization constants, module-level extended instructions,
//! execution modes, decorations; the types and constants kept are renumbered in their order.

use crate::grammar::{Id, Ids, Instruction};
use crate::ir::operands::{visit_ids_mut, ExtOperands};
use crate::ir::{Constant, ConstantValue, Handle, Module, Type, UniqueArena, Value};
use std::collections::BTreeMap;

/// Runs the pass; whether anything went.
pub fn run(m: &mut Module) -> bool {
    let (nt, nc) = (m.types.len(), m.constants.len());
    let mut used_t = vec![false; nt];
    let mut used_c = vec![false; nc];
    let mut work: Vec<Value> = Vec::new();
    visit_references(m, &mut |v| {
        work.push(*v);
    });
    while let Some(v) = work.pop() {
        match v {
            Value::Type(t) if t.index() < nt && !used_t[t.index()] => {
                used_t[t.index()] = true;
                let mut ty = m.types[t].clone();
                type_references(&mut ty, &mut |x| work.push(*x));
                for d in m.type_decorations.get(&t).into_iter().flatten() {
                    d.visit_ids(&mut |id| work.extend(Value::from_id(id)));
                }
            }
            Value::Constant(c) if c.index() < nc && !used_c[c.index()] => {
                used_c[c.index()] = true;
                let mut k = m.constants[c].clone();
                constant_references(&mut k, &mut |x| work.push(*x));
            }
            _ => {}
        }
    }
    if used_t.iter().all(|&u| u) && used_c.iter().all(|&u| u) {
        return false;
    }
    let renumber = |used: &[bool]| -> Vec<Option<usize>> {
        let mut next = 0;
        used.iter()
            .map(|&u| {
                u.then(|| {
                    next += 1;
                    next - 1
                })
            })
            .collect()
    };
    let (new_t, new_c) = (renumber(&used_t), renumber(&used_c));
    let map = |v: &mut Value| match *v {
        Value::Type(t) => {
            if let Some(Some(n)) = new_t.get(t.index()) {
                *v = Value::Type(Handle::new(*n));
            }
        }
        Value::Constant(c) => {
            if let Some(Some(n)) = new_c.get(c.index()) {
                *v = Value::Constant(Handle::new(*n));
            }
        }
        _ => {}
    };
    let mut types = UniqueArena::new();
    for (t, ty) in m.types.iter() {
        if used_t[t.index()] {
            let mut ty = ty.clone();
            type_references(&mut ty, &mut |x| map(x));
            types.append(ty);
        }
    }
    let mut constants = UniqueArena::new();
    for (c, k) in m.constants.iter() {
        if used_c[c.index()] {
            let mut k = k.clone();
            constant_references(&mut k, &mut |x| map(x));
            constants.append(k);
        }
    }
    let retype = |t: Handle<Type>| new_t[t.index()].map(Handle::new);
    m.type_names = std::mem::take(&mut m.type_names)
        .into_iter()
        .filter_map(|(t, n)| Some((retype(t)?, n)))
        .collect();
    let mut decorations = BTreeMap::new();
    for (t, mut ds) in std::mem::take(&mut m.type_decorations) {
        if let Some(n) = retype(t) {
            for d in &mut ds {
                d.visit_ids_mut(&mut |id| remap_id(id, &mut |x| map(x)));
            }
            decorations.insert(n, ds);
        }
    }
    m.type_decorations = decorations;
    visit_references(m, &mut |v| map(v));
    m.types = types;
    m.constants = constants;
    true
}

/// Applies `f` to the value packed in `id`, if it is one.
fn remap_id(id: &mut Id, f: &mut dyn FnMut(&mut Value)) {
    if let Some(mut v) = Value::from_id(*id) {
        f(&mut v);
        *id = v.to_id();
    }
}

/// Applies `f` to a type handle as a [`Value::Type`].
fn remap_type(t: &mut Handle<Type>, f: &mut dyn FnMut(&mut Value)) {
    let mut v = Value::Type(*t);
    f(&mut v);
    if let Value::Type(n) = v {
        *t = n;
    }
}

/// The types and values a type names.
fn type_references(ty: &mut Type, f: &mut dyn FnMut(&mut Value)) {
    match ty {
        Type::Vector { component: t, .. }
        | Type::Matrix { column: t, .. }
        | Type::RuntimeArray { element: t, .. }
        | Type::Pointer { pointee: t, .. }
        | Type::SampledImage { image: t } => remap_type(t, f),
        Type::Array {
            element, length, ..
        } => {
            remap_type(element, f);
            f(length);
        }
        Type::Struct(s) => {
            for mb in &mut s.members {
                remap_type(&mut mb.ty, f);
                for d in &mut mb.decorations {
                    d.visit_ids_mut(&mut |id| remap_id(id, f));
                }
            }
            for d in &mut s.decorations {
                d.visit_ids_mut(&mut |id| remap_id(id, f));
            }
        }
        Type::Image(i) => remap_type(&mut i.sampled_type, f),
        Type::Function { ret, params } => {
            remap_type(ret, f);
            params.iter_mut().for_each(|p| remap_type(p, f));
        }
        Type::Other(inst) => inst.visit_ids_mut(&mut |id| remap_id(id, f)),
        _ => {}
    }
}

/// The types and values a constant names.
fn constant_references(k: &mut Constant, f: &mut dyn FnMut(&mut Value)) {
    remap_type(&mut k.ty, f);
    match &mut k.value {
        ConstantValue::Composite(parts) => parts.iter_mut().for_each(&mut *f),
        ConstantValue::Other(inst) => inst.visit_ids_mut(&mut |id| remap_id(id, f)),
        _ => {}
    }
    for d in &mut k.decorations {
        d.visit_ids_mut(&mut |id| remap_id(id, f));
    }
}

/// Calls `f` with every value the module names outside the type and constant arenas (the
/// ops listed in blocks, not ops removed from them), mutably.
pub(crate) fn visit_references(m: &mut Module, f: &mut dyn FnMut(&mut Value)) {
    let imports = m.ext_inst_imports.clone();
    let ext = |set: Id, number: u32| match Value::from_id(set) {
        Some(Value::ExtInstSet(s)) => imports
            .get(s)
            .map_or(ExtOperands::Unknown, |i| ExtOperands::of(i, number)),
        _ => ExtOperands::Unknown,
    };
    let decorations = |ds: &mut Vec<crate::grammar::Decoration>, f: &mut dyn FnMut(&mut Value)| {
        for d in ds {
            d.visit_ids_mut(&mut |id| remap_id(id, f));
        }
    };
    for (_, func) in m.functions.iter_mut() {
        remap_type(&mut func.ty, f);
        decorations(&mut func.decorations, f);
        for p in &mut func.params {
            remap_type(&mut p.ty, f);
            decorations(&mut p.decorations, f);
        }
        for (_, a) in func.block_args.iter_mut() {
            remap_type(&mut a.ty, f);
            decorations(&mut a.decorations, f);
        }
        let listed: Vec<Handle<crate::ir::Op>> = func
            .header
            .iter()
            .copied()
            .chain(func.blocks.iter().flat_map(|(_, b)| b.ops.iter().copied()))
            .collect();
        for h in listed {
            let op = &mut func.ops[h];
            visit_ids_mut(&mut op.inst, ext, &mut |id| remap_id(id, f));
            if let Some(a) = op.attrs.as_mut() {
                decorations(&mut a.decorations, f);
            }
        }
        for (_, b) in func.blocks.iter_mut() {
            use crate::ir::Terminator as T;
            match &mut b.terminator {
                T::BranchConditional { condition: v, .. }
                | T::Switch { selector: v, .. }
                | T::ReturnValue(v) => f(v),
                T::Other(inst) => visit_ids_mut(inst, ext, &mut |id| remap_id(id, f)),
                _ => {}
            }
            for s in b.terminator.successors_mut() {
                s.args.iter_mut().for_each(&mut *f);
            }
        }
    }
    for (_, g) in m.globals.iter_mut() {
        remap_type(&mut g.ty, f);
        if let Some(v) = g.initializer.as_mut() {
            f(v);
        }
        decorations(&mut g.decorations, f);
    }
    for (_, s) in m.spec_constants.iter_mut() {
        remap_type(&mut s.ty, f);
        match &mut s.value {
            crate::ir::SpecValue::Composite(parts) => parts.iter_mut().for_each(&mut *f),
            crate::ir::SpecValue::Op(op) => op.visit_ids_mut(&mut |id| remap_id(id, f)),
            _ => {}
        }
        decorations(&mut s.decorations, f);
    }
    for (_, e) in m.ext_insts.iter_mut() {
        let mut inst = Instruction::ExtInst(e.inst.clone());
        visit_ids_mut(&mut inst, ext, &mut |id| remap_id(id, f));
        if let Instruction::ExtInst(op) = inst {
            e.inst = op;
        }
    }
    for e in &mut m.execution_modes {
        e.mode.visit_ids_mut(&mut |id| remap_id(id, f));
    }
}
