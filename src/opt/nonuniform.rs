//! Propagates `NonUniform` from the values decorated with it to every value computed from
//! them, as DXC's SPIR-V backend does for `NonUniformResourceIndex`: through arithmetic,
//! conversions and selections, through the variables they are stored in (a load from a
//! variable a non-uniform value was stored in is non-uniform), through block arguments, and
//! through calls (a parameter given a non-uniform value, a return value computed from one).
//! Then every access chain, image or sampler load, sampled image and texel pointer among those
//! values is decorated `NonUniform`, which Vulkan requires of the operand that selects a
//! descriptor non-uniformly. The taint is conservative (flow-insensitive per variable): a
//! decoration too many costs speed, one too few gives wrong results.

use crate::grammar::{Decoration, Id, Ids, Instruction};
use crate::ir::{self, Function, Handle, Terminator, Value};
use std::collections::HashSet;

/// What the whole module knows: tainted values per function, variables holding tainted
/// values, parameters given them, functions returning them.
#[derive(Default)]
struct Taint {
    values: HashSet<(Handle<Function>, Value)>,
    /// Variables (by root pointer) a tainted value was stored in.
    vars: HashSet<(Handle<Function>, Value)>,
    params: HashSet<(Handle<Function>, u32)>,
    /// Pointer parameters a function stores a tainted value through (`out` parameters).
    out_params: HashSet<(Handle<Function>, u32)>,
    returns: HashSet<Handle<Function>>,
}

impl Taint {
    fn size(&self) -> usize {
        self.values.len()
            + self.vars.len()
            + self.params.len()
            + self.out_params.len()
            + self.returns.len()
    }
}

/// Propagates and decorates `NonUniform` in `module` (nothing to do without a decorated op).
pub fn propagate_nonuniform(module: &mut ir::Module) {
    let mut taint = Taint::default();
    for (fh, f) in module.functions.iter() {
        for (h, op) in f.ops.iter() {
            if op.decorations().contains(&Decoration::NonUniform) {
                taint.values.insert((fh, Value::Op(h)));
            }
        }
    }
    if taint.values.is_empty() {
        return;
    }
    let handles: Vec<Handle<Function>> = module.functions.handles().collect();
    loop {
        let before = taint.size();
        for &fh in &handles {
            if let Some(f) = module.functions.get(fh) {
                spread(fh, f, &mut taint);
            }
        }
        if taint.size() == before {
            break;
        }
    }
    for &fh in &handles {
        let Some(f) = module.functions.get_mut(fh) else {
            continue;
        };
        let tainted: Vec<Handle<ir::Op>> = f
            .ops
            .iter()
            .filter(|(h, op)| {
                taint.values.contains(&(fh, Value::Op(*h))) && selects_resource(&op.inst)
            })
            .map(|(h, _)| h)
            .collect();
        for h in tainted {
            if let Some(op) = f.ops.get_mut(h) {
                let decorations = &mut op.attrs_mut().decorations;
                if !decorations.contains(&Decoration::NonUniform) {
                    decorations.push(Decoration::NonUniform);
                }
            }
        }
    }
}

/// Whether the result of `inst` is what selects a descriptor (or an element reached through
/// one): where Vulkan wants the `NonUniform` decoration.
fn selects_resource(inst: &Instruction) -> bool {
    matches!(
        inst,
        Instruction::AccessChain(_)
            | Instruction::InBoundsAccessChain(_)
            | Instruction::PtrAccessChain(_)
            | Instruction::Load(_)
            | Instruction::SampledImage(_)
            | Instruction::Image(_)
            | Instruction::ImageTexelPointer(_)
            | Instruction::CopyObject(_)
    )
}

/// The variable (or parameter, global) a pointer is into: the base of its access chains.
fn root(f: &Function, mut v: Value) -> Value {
    while let Value::Op(h) = v {
        let base = match f.ops.get(h).map(|op| &op.inst) {
            Some(Instruction::AccessChain(a)) => a.base,
            Some(Instruction::InBoundsAccessChain(a)) => a.base,
            Some(Instruction::PtrAccessChain(a)) => a.base,
            _ => break,
        };
        match Value::from_id(base) {
            Some(b) => v = b,
            None => break,
        }
    }
    v
}

/// One pass over `f`, spreading the taint it can see.
fn spread(fh: Handle<Function>, f: &Function, taint: &mut Taint) {
    let is = |taint: &Taint, v: Value| match v {
        Value::Param(k) => taint.values.contains(&(fh, v)) || taint.params.contains(&(fh, k)),
        _ => taint.values.contains(&(fh, v)),
    };
    let held = |taint: &Taint, ptr: Value| {
        let r = root(f, ptr);
        taint.vars.contains(&(fh, r))
            || matches!(r, Value::Param(k) if taint.params.contains(&(fh, k)))
            || taint
                .vars
                .iter()
                .any(|&(_, v)| v == r && matches!(r, Value::Global(_)))
    };
    for (_, block) in f.blocks.iter() {
        for &h in &block.ops {
            let Some(op) = f.ops.get(h) else { continue };
            let this = Value::Op(h);
            match &op.inst {
                Instruction::Store(s) => {
                    let object = Value::from_id(s.object);
                    let pointer = Value::from_id(s.pointer);
                    if let (Some(o), Some(p)) = (object, pointer) {
                        if is(taint, o) {
                            // A global holds it for every function; a parameter's pointee
                            // for the caller too.
                            let r = root(f, p);
                            taint.vars.insert((fh, r));
                            if let Value::Param(k) = r {
                                taint.out_params.insert((fh, k));
                            }
                        }
                    }
                }
                Instruction::Load(l) => {
                    if let Some(p) = Value::from_id(l.pointer) {
                        if is(taint, p) || held(taint, p) {
                            taint.values.insert((fh, this));
                        }
                    }
                }
                Instruction::FunctionCall(c) => {
                    let Some(Value::Function(callee)) = Value::from_id(c.function) else {
                        continue;
                    };
                    for (k, &a) in c.arguments.iter().enumerate() {
                        let Some(a) = Value::from_id(a) else { continue };
                        if is(taint, a) || held(taint, a) {
                            taint.params.insert((callee, k as u32));
                        }
                        if taint.out_params.contains(&(callee, k as u32)) {
                            taint.vars.insert((fh, root(f, a)));
                        }
                    }
                    if taint.returns.contains(&callee) {
                        taint.values.insert((fh, this));
                    }
                }
                inst => {
                    if inst.result_id().is_none() {
                        continue;
                    }
                    let (result, result_type) = (inst.result_id(), inst.result_type());
                    let mut any = false;
                    inst.visit_ids(&mut |id: Id| {
                        if Some(id) == result || Some(id) == result_type {
                            return;
                        }
                        if let Some(v) = Value::from_id(id) {
                            any |= is(taint, v);
                        }
                    });
                    if any {
                        taint.values.insert((fh, this));
                    }
                }
            }
        }
        match &block.terminator {
            Terminator::ReturnValue(v) if is(taint, *v) => {
                taint.returns.insert(fh);
            }
            t => {
                for s in t.successors() {
                    let Some(target) = f.blocks.get(s.block) else {
                        continue;
                    };
                    for (&a, &arg) in s.args.iter().zip(&target.args) {
                        if is(taint, a) {
                            taint.values.insert((fh, Value::BlockArg(arg)));
                        }
                    }
                }
            }
        }
    }
}
