//! SSA rewrite (mem2reg; spirv-opt's `--ssa-rewrite`): a Function-storage variable that is only
//! loaded and stored whole becomes values: each load is replaced by the value the last store
//! on every path gave, with block arguments (phis) where paths meet, and the variable, its
//! stores and its loads go. Why: front ends (DXC, glslang, spvkit's HLSL frontend) keep every
//! local in memory; drivers, the other passes and readers want values.
//!
//! The construction is Braun et al.'s ("Simple and Efficient Construction of Static Single
//! Assignment Form", 2013): blocks in reverse postorder, a read looking up the definition in
//! its block and else in its predecessors, a block argument where they may differ (left open
//! until the block's predecessors are all done, for loops), and the arguments that turn out to
//! take one value replaced by it. A load the entry reaches before any store reads `OpUndef`.

use super::replace::{replace_uses, resolve};
use crate::grammar::{Instruction, MemoryAccess, StorageClass};
use crate::ir::analysis::{visit_operands, Cfg};
use crate::ir::{
    Block, BlockArg, Constant, ConstantValue, Function, Handle, Module, Op, Type, Value,
};
use std::collections::{HashMap, HashSet};

/// Deeper than this, a function is left as it is (the construction recurses through the
/// joins of the control-flow graph).
const MAX_DEPTH: usize = 2_000;

/// Runs the pass on every function; whether anything changed.
pub fn run(m: &mut Module) -> bool {
    super::each_function(m, in_function)
}

/// A value of the construction: one that exists, or a block argument it may add.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Val {
    Old(Value),
    New(usize),
}

/// The variables to promote: Function-storage `OpVariable`s used only as the pointer of
/// non-volatile whole loads and stores, other than `excluded`; by op, with their pointee
/// type.
fn promotable(
    m: &Module,
    f: &Function,
    excluded: &HashSet<Handle<Op>>,
) -> HashMap<Handle<Op>, Handle<Type>> {
    let mut vars = HashMap::new();
    for (_, b) in f.blocks.iter() {
        for &h in &b.ops {
            let op = &f.ops[h];
            let Instruction::Variable(v) = &op.inst else {
                continue;
            };
            if v.storage_class != StorageClass::Function {
                continue;
            }
            let pointee = op.result_type().and_then(|t| match m.types.get(t) {
                Some(Type::Pointer { pointee, .. }) => Some(*pointee),
                _ => None,
            });
            if let Some(p) = pointee.filter(|&p| plain_data(m, p, 0) || handle(m, p)) {
                if !excluded.contains(&h) {
                    vars.insert(h, p);
                }
            }
        }
    }
    let volatile = |a: &Option<crate::grammar::MemoryAccessArgs>| {
        a.as_ref()
            .is_some_and(|a| a.effective_mask().contains(MemoryAccess::Volatile))
    };
    let listed = f
        .header
        .iter()
        .chain(f.blocks.iter().flat_map(|(_, b)| b.ops.iter()));
    for &h in listed {
        let inst = &f.ops[h].inst;
        let allowed: Option<Value> = match inst {
            Instruction::Load(l) if !volatile(&l.memory_access) => Value::from_id(l.pointer),
            Instruction::Store(s) if !volatile(&s.memory_access) => Value::from_id(s.pointer),
            _ => None,
        };
        visit_operands(m, inst, &mut |v| {
            if let Value::Op(o) = v {
                if Some(v) != allowed {
                    vars.remove(&o);
                }
            }
        });
        // A store of the variable's own address is no store to it.
        if let Instruction::Store(s) = inst {
            if let Some(Value::Op(o)) = Value::from_id(s.object) {
                vars.remove(&o);
            }
        }
    }
    for (_, b) in f.blocks.iter() {
        b.terminator.visit_values(|v| {
            if let Value::Op(o) = v {
                vars.remove(&o);
            }
        });
    }
    vars
}

/// Whether values of `t` may flow through block arguments anywhere: numbers, booleans and
/// aggregates of them (not pointers, which need variable pointers, nor images, samplers and
/// other opaque handles, which Vulkan keeps out of `OpPhi`).
pub(crate) fn plain_data(m: &Module, t: Handle<Type>, depth: usize) -> bool {
    if depth > 64 {
        return false;
    }
    match m.types.get(t) {
        Some(Type::Bool | Type::Int { .. } | Type::Float { .. }) => true,
        Some(Type::Vector { .. } | Type::Matrix { .. }) => true,
        Some(Type::Array { element, .. }) => plain_data(m, *element, depth + 1),
        Some(Type::Struct(s)) => s.members.iter().all(|mb| plain_data(m, mb.ty, depth + 1)),
        _ => false,
    }
}

/// Whether `t` is a handle (an image, sampler, sampled image, acceleration structure or
/// pointer): a variable holding one is promoted only where no block argument is needed, as
/// Vulkan keeps handles out of `OpPhi` (this is how HLSL resources held in locals reach
/// their globals).
fn handle(m: &Module, t: Handle<Type>) -> bool {
    match m.types.get(t) {
        Some(Type::Image(_) | Type::Sampler | Type::SampledImage { .. } | Type::Pointer { .. }) => {
            true
        }
        Some(Type::Other(inst)) => {
            inst.opcode() == Some(crate::grammar::Opcode::TypeAccelerationStructureKHR)
        }
        _ => false,
    }
}

/// The type of `v` in `f`, where it has one.
pub(crate) fn value_type(m: &Module, f: &Function, v: Value) -> Option<Handle<Type>> {
    match v {
        Value::Op(h) => f.ops.get(h)?.result_type(),
        Value::BlockArg(h) => Some(f.block_args.get(h)?.ty),
        Value::Param(i) => Some(f.params.get(i as usize)?.ty),
        Value::Constant(h) => Some(m.constants.get(h)?.ty),
        Value::SpecConstant(h) => Some(m.spec_constants.get(h)?.ty),
        Value::Global(h) => Some(m.globals.get(h)?.ty),
        _ => None,
    }
}

/// The construction's state for one function.
struct Ssa<'a> {
    cfg: &'a Cfg,
    /// The variables' pointee types, by variable number.
    types: Vec<Handle<Type>>,
    /// The current definition of each (variable, block).
    defs: HashMap<(usize, Handle<Block>), Val>,
    sealed: Vec<bool>,
    filled: Vec<bool>,
    /// Arguments added to a block before all its predecessors were done.
    incomplete: Vec<Vec<(usize, usize)>>,
    /// The added arguments: block, variable, and the value from each predecessor (in
    /// `Cfg::predecessors` order) once known.
    args: Vec<(Handle<Block>, usize, Vec<Val>)>,
    depth: usize,
    too_deep: bool,
}

impl Ssa<'_> {
    fn new_arg(&mut self, b: Handle<Block>, var: usize) -> usize {
        self.args.push((b, var, Vec::new()));
        self.args.len() - 1
    }

    fn read(&mut self, var: usize, b: Handle<Block>) -> Val {
        // A chain of single predecessors is walked, not recursed through.
        let mut path = Vec::new();
        let mut cur = b;
        let v = loop {
            if let Some(&v) = self.defs.get(&(var, cur)) {
                break v;
            }
            let preds = self.cfg.predecessors(cur);
            if self.sealed[cur.index()] && preds.len() == 1 && self.cfg.is_reachable(preds[0]) {
                path.push(cur);
                cur = preds[0];
                if path.len() > self.cfg.len() {
                    self.too_deep = true;
                    break Val::Old(Value::Param(u32::MAX));
                }
                continue;
            }
            break self.read_at_join(var, cur);
        };
        for p in path {
            self.defs.insert((var, p), v);
        }
        v
    }

    /// A read in a block where the definition may come from several places.
    fn read_at_join(&mut self, var: usize, b: Handle<Block>) -> Val {
        let v = if !self.sealed[b.index()] {
            let a = self.new_arg(b, var);
            self.incomplete[b.index()].push((var, a));
            Val::New(a)
        } else if self.cfg.predecessors(b).is_empty() {
            Val::New(usize::MAX) // no definition: undefined
        } else {
            let a = self.new_arg(b, var);
            self.defs.insert((var, b), Val::New(a));
            self.fill(var, a, b);
            Val::New(a)
        };
        self.defs.insert((var, b), v);
        v
    }

    /// Gives argument `a` of `b` its value from each predecessor.
    fn fill(&mut self, var: usize, a: usize, b: Handle<Block>) {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.too_deep = true;
        }
        let preds = self.cfg.predecessors(b).to_vec();
        let mut vals = Vec::with_capacity(preds.len());
        for p in preds {
            vals.push(if self.too_deep || !self.cfg.is_reachable(p) {
                Val::New(usize::MAX)
            } else {
                self.read(var, p)
            });
        }
        self.args[a].2 = vals;
        self.depth -= 1;
    }

    fn write(&mut self, var: usize, b: Handle<Block>, v: Val) {
        self.defs.insert((var, b), v);
    }

    /// Seals `b` once every reachable predecessor is done.
    fn try_seal(&mut self, b: Handle<Block>) {
        if self.sealed[b.index()] {
            return;
        }
        let ready = self
            .cfg
            .predecessors(b)
            .iter()
            .all(|p| !self.cfg.is_reachable(*p) || self.filled[p.index()]);
        if !ready {
            return;
        }
        self.sealed[b.index()] = true;
        for (var, a) in std::mem::take(&mut self.incomplete[b.index()]) {
            self.fill(var, a, b);
        }
    }
}

fn in_function(m: &mut Module, f: &mut Function) -> bool {
    if f.is_declaration() {
        return false;
    }
    // Variables of handles that would need a block argument are left in memory, and the
    // rest promoted again without them.
    let mut excluded = HashSet::new();
    loop {
        match attempt(m, f, &excluded) {
            Attempt::Done(changed) => return changed,
            Attempt::Without(vars) => excluded.extend(vars),
        }
    }
}

/// How one try at promoting went.
enum Attempt {
    /// Finished; whether anything changed.
    Done(bool),
    /// These variables (of handles) would need block arguments: nothing changed yet.
    Without(Vec<Handle<Op>>),
}

fn attempt(m: &mut Module, f: &mut Function, excluded: &HashSet<Handle<Op>>) -> Attempt {
    let vars = promotable(m, f, excluded);
    if vars.is_empty() {
        return Attempt::Done(false);
    }
    let mut var_list: Vec<Handle<Op>> = vars.keys().copied().collect();
    var_list.sort();
    let number: HashMap<Handle<Op>, usize> =
        var_list.iter().enumerate().map(|(i, &h)| (h, i)).collect();
    let cfg = Cfg::new(f);
    let n = f.blocks.len();
    let mut ssa = Ssa {
        cfg: &cfg,
        types: var_list.iter().map(|h| vars[h]).collect(),
        defs: HashMap::new(),
        sealed: vec![false; n],
        filled: vec![false; n],
        incomplete: vec![Vec::new(); n],
        args: Vec::new(),
        depth: 0,
        too_deep: false,
    };
    // What each load reads, and the ops that go.
    let mut loads: Vec<(Handle<Op>, Val)> = Vec::new();
    let mut gone: Vec<Handle<Op>> = Vec::new();
    let var_of = |id| match Value::from_id(id) {
        Some(Value::Op(o)) => number.get(&o).copied(),
        _ => None,
    };
    for &b in cfg.reverse_postorder() {
        ssa.try_seal(b);
        for &h in &f.blocks[b].ops {
            match &f.ops[h].inst {
                Instruction::Variable(v) if number.contains_key(&h) => {
                    if let Some(init) = v.initializer.and_then(Value::from_id) {
                        if value_type(m, f, init) != Some(ssa.types[number[&h]]) {
                            return Attempt::Done(false);
                        }
                        ssa.write(number[&h], b, Val::Old(init));
                    }
                    gone.push(h);
                }
                Instruction::Load(l) => {
                    if let Some(var) = var_of(l.pointer) {
                        if f.ops[h].result_type() != Some(ssa.types[var]) {
                            return Attempt::Done(false);
                        }
                        let v = ssa.read(var, b);
                        loads.push((h, v));
                        gone.push(h);
                    }
                }
                Instruction::Store(s) => {
                    if let (Some(var), Some(v)) = (var_of(s.pointer), Value::from_id(s.object)) {
                        // (A value of another type, in an invalid module, cannot replace a
                        // load: the function is left as it is.)
                        if value_type(m, f, v) != Some(ssa.types[var]) {
                            return Attempt::Done(false);
                        }
                        ssa.write(var, b, Val::Old(v));
                        gone.push(h);
                    }
                }
                _ => {}
            }
        }
        ssa.filled[b.index()] = true;
        for &s in cfg.successors(b) {
            ssa.try_seal(s);
        }
    }
    if ssa.too_deep {
        return Attempt::Done(false);
    }
    // Loads and stores in unreachable blocks go too (loads read undefined values).
    for (b, block) in f.blocks.iter() {
        if cfg.is_reachable(b) {
            continue;
        }
        for &h in &block.ops {
            match &f.ops[h].inst {
                Instruction::Load(l) if var_of(l.pointer).is_some() => {
                    loads.push((h, Val::New(usize::MAX)));
                    gone.push(h);
                }
                Instruction::Store(s) if var_of(s.pointer).is_some() => gone.push(h),
                Instruction::Variable(_) if number.contains_key(&h) => gone.push(h),
                _ => {}
            }
        }
    }
    // Arguments that take one value (besides themselves) are that value.
    let mut same: HashMap<usize, Val> = HashMap::new();
    let find = |same: &HashMap<usize, Val>, mut v: Val| {
        while let Val::New(a) = v {
            match same.get(&a) {
                Some(&w) => v = w,
                None => break,
            }
        }
        v
    };
    loop {
        let mut progress = false;
        for a in 0..ssa.args.len() {
            if same.contains_key(&a) {
                continue;
            }
            let mut only: Option<Val> = None;
            let mut trivial = true;
            for &v in &ssa.args[a].2 {
                let v = find(&same, v);
                if v == Val::New(a) || Some(v) == only {
                    continue;
                }
                if only.is_some() {
                    trivial = false;
                    break;
                }
                only = Some(v);
            }
            if trivial {
                same.insert(a, only.unwrap_or(Val::New(usize::MAX)));
                progress = true;
            }
        }
        if !progress {
            break;
        }
    }
    // A load whose value is (through other loads) itself only happens in a module that uses
    // a value before defining it; such a function is left as it is.
    let load_val: HashMap<Handle<Op>, Val> = loads.iter().copied().collect();
    for &(h, v) in &loads {
        let mut v = find(&same, v);
        let mut steps = 0;
        while let Val::Old(Value::Op(x)) = v {
            let Some(&next) = load_val.get(&x) else { break };
            if x == h || steps > load_val.len() {
                return Attempt::Done(false);
            }
            v = find(&same, next);
            steps += 1;
        }
    }
    // Handles may not pass through block arguments.
    let phi_handles: Vec<Handle<Op>> = ssa
        .args
        .iter()
        .enumerate()
        .filter(|(a, (_, var, _))| !same.contains_key(a) && !plain_data(m, ssa.types[*var], 0))
        .map(|(_, (_, var, _))| var_list[*var])
        .collect();
    if !phi_handles.is_empty() {
        return Attempt::Without(phi_handles);
    }
    // Materialize: undefined values, the arguments that stay, the replacements.
    let mut undef = HashMap::new();
    let mut undef_of = |m: &mut Module, ty: Handle<Type>| {
        *undef.entry(ty).or_insert_with(|| {
            Value::Constant(m.constants.insert(Constant {
                ty,
                value: ConstantValue::Undef,
                name: None,
                decorations: Vec::new(),
            }))
        })
    };
    let mut arg_handles: HashMap<usize, Handle<BlockArg>> = HashMap::new();
    for (a, (b, var, _)) in ssa.args.iter().enumerate() {
        if same.contains_key(&a) {
            continue;
        }
        let h = f.block_args.append(BlockArg {
            ty: ssa.types[*var],
            name: None,
            decorations: Vec::new(),
            loc: None,
        });
        f.blocks[*b].args.push(h);
        arg_handles.insert(a, h);
    }
    let mut value_of = |m: &mut Module, v: Val, var: usize| -> Value {
        match find(&same, v) {
            Val::Old(v) => v,
            Val::New(usize::MAX) => undef_of(m, ssa.types[var]),
            Val::New(a) => match arg_handles.get(&a) {
                Some(&h) => Value::BlockArg(h),
                None => undef_of(m, ssa.types[var]),
            },
        }
    };
    // The values each predecessor passes to the new arguments, in their order.
    let mut passes: Vec<(Handle<Block>, Handle<Block>, Value)> = Vec::new();
    for (a, (b, var, vals)) in ssa.args.iter().enumerate() {
        if !arg_handles.contains_key(&a) {
            continue;
        }
        for (p, &v) in cfg.predecessors(*b).iter().zip(vals) {
            let v = value_of(m, v, *var);
            passes.push((*p, *b, v));
        }
    }
    for (p, b, v) in passes {
        for s in f.blocks[p].terminator.successors_mut() {
            if s.block == b {
                s.args.push(v);
            }
        }
    }
    let load_var: HashMap<Handle<Op>, usize> = loads
        .iter()
        .filter_map(|&(h, _)| match &f.ops[h].inst {
            Instruction::Load(l) => var_of(l.pointer).map(|v| (h, v)),
            _ => None,
        })
        .collect();
    let mut map: HashMap<Value, Value> = HashMap::new();
    for (h, v) in loads {
        let var = load_var[&h];
        map.insert(Value::Op(h), value_of(m, v, var));
    }
    let resolved: HashMap<Value, Value> = map.keys().map(|&k| (k, resolve(&map, k))).collect();
    let gone: HashSet<Handle<Op>> = gone.into_iter().collect();
    for (_, block) in f.blocks.iter_mut() {
        block.ops.retain(|h| !gone.contains(h));
    }
    replace_uses(m, f, &resolved);
    Attempt::Done(true)
}
