//! Inlining (spirv-opt's `--inline-entry-points-exhaustive`, and a size heuristic): a call is
//! replaced by a copy of the callee's body. Why: HLSL legalization needs resources passed to
//! functions to reach their globals, the other passes see across calls, and drivers and
//! readers get straight-line code.
//!
//! The caller's block is split at the call: the ops before it branch to the copied entry, the
//! ops after it, with the block's terminator, form a continuation block. Returns branch to the
//! continuation (a value through a block argument). A callee whose only return ends its body
//! outside any construct is copied as it is; one with several returns, or a return inside a
//! selection, is wrapped in a loop that runs once (its merge is the continuation), so every
//! return is a structured break, as spirv-opt's merge-return arranges. A callee with a return
//! inside a loop is not inlined. Function variables move to the caller's entry block; an
//! initializer becomes a store where the copy starts, since a call in a loop initializes again.

use super::replace::{relayout_blocks, replace_uses, resolve};
use crate::grammar::ext::nonsemantic_shader_debuginfo_100::Opcode as DebugInfo;
use crate::grammar::{FunctionControl, Id, Instruction, LoopControlArgs, StorageClass};
use crate::ir::analysis::{CallGraph, Cfg, DomTree};
use crate::ir::operands::{visit_ids_mut, ExtOperands};
use crate::ir::{
    Block, BlockArg, Constant, ConstantValue, Function, Handle, Module, Op, Structure, Successor,
    Terminator, Type, Value,
};
use std::collections::HashMap;

/// Which calls a run inlines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Every call that can be (spirv-opt's `--inline-entry-points-exhaustive`).
    All,
    /// Calls of small functions ([`SMALL`] ops or fewer), of functions called once, and of
    /// functions that take or return pointers or opaque handles (which legalization needs
    /// gone): the code grows little.
    Heuristic,
}

/// The size, in ops, up to which [`Mode::Heuristic`] inlines a function called more than once.
pub const SMALL: usize = 32;

/// A caller growing past this many ops is left with its remaining calls (a guard against
/// exponential growth; no shader comes near it).
const MAX_CALLER_OPS: usize = 4_000_000;

/// Inlines every call that can be; whether anything changed.
pub fn run(m: &mut Module) -> bool {
    inline(m, Mode::All)
}

/// Inlines the calls [`Mode::Heuristic`] picks; whether anything changed.
pub fn run_heuristic(m: &mut Module) -> bool {
    inline(m, Mode::Heuristic)
}

/// How a callee's returns reach the continuation.
#[derive(Clone, Debug)]
struct Shape {
    /// The blocks ending in `OpReturn`/`OpReturnValue`.
    returns: Vec<Handle<Block>>,
    /// Whether the body goes in a loop that runs once (several returns, or one inside a
    /// construct).
    wrap: bool,
    /// The number of ops (for the heuristic).
    size: usize,
    /// Whether a parameter or the result is a pointer or an opaque handle.
    opaque: bool,
}

/// How `f` may be inlined; `None` if it may not (a declaration, `DontInline`, a return
/// inside a loop).
fn shape(m: &Module, f: &Function) -> Option<Shape> {
    if f.is_declaration() || f.control.contains(FunctionControl::DontInline) {
        return None;
    }
    let cfg = Cfg::new(f);
    let dom = DomTree::dominators(&cfg);
    let returns: Vec<Handle<Block>> = f
        .blocks
        .iter()
        .filter(|(_, b)| {
            matches!(
                b.terminator,
                Terminator::Return | Terminator::ReturnValue(_)
            )
        })
        .map(|(h, _)| h)
        .collect();
    let merge_header: HashMap<Handle<Block>, Handle<Block>> = f
        .blocks
        .iter()
        .filter_map(|(h, b)| Some((b.structure.as_ref()?.merge(), h)))
        .collect();
    let mut inside_construct = false;
    for &r in &returns {
        if !cfg.is_reachable(r) {
            inside_construct = true;
            continue;
        }
        // Each construct whose header dominates the return and whose merge does not holds it.
        // A merge block on the way up leaves its header's construct, and everything nested
        // in it: the walk goes on above that header.
        let mut a = Some(r);
        // (A merge that dominates its own header, in an invalid module, would send the walk
        // round a cycle: more steps than blocks is no answer.)
        let mut steps = 0;
        while let Some(h) = a {
            steps += 1;
            if steps > f.blocks.len() {
                return None;
            }
            if let Some(s) = &f.blocks[h].structure {
                let merge = s.merge();
                if !(cfg.is_reachable(merge) && dom.dominates(merge, r)) {
                    if matches!(s, Structure::Loop { .. }) {
                        return None;
                    }
                    inside_construct = true;
                }
            }
            a = match merge_header.get(&h) {
                Some(&header) if header != h => dom.idom(header),
                _ => dom.idom(h),
            };
        }
    }
    let opaque_ty = |t: Handle<Type>| {
        !matches!(
            m.types.get(t),
            Some(
                Type::Void
                    | Type::Bool
                    | Type::Int { .. }
                    | Type::Float { .. }
                    | Type::Vector { .. }
                    | Type::Matrix { .. }
                    | Type::Array { .. }
                    | Type::Struct(_)
            )
        )
    };
    let opaque = match m.types.get(f.ty) {
        Some(Type::Function { ret, params }) => {
            opaque_ty(*ret) || params.iter().any(|&p| opaque_ty(p))
        }
        _ => true,
    };
    Some(Shape {
        wrap: returns.len() > 1 || inside_construct,
        returns,
        size: f.blocks.iter().map(|(_, b)| b.ops.len() + 1).sum(),
        opaque,
    })
}

fn inline(m: &mut Module, mode: Mode) -> bool {
    let graph = CallGraph::new(m);
    let (order, recursive) = graph.callee_first();
    let mut calls_of = vec![0usize; m.functions.len()];
    if mode == Mode::Heuristic {
        for (_, f) in m.functions.iter() {
            for (_, b) in f.blocks.iter() {
                for &h in &b.ops {
                    if let Instruction::FunctionCall(c) = &f.ops[h].inst {
                        if let Some(Value::Function(g)) = Value::from_id(c.function) {
                            if let Some(n) = calls_of.get_mut(g.index()) {
                                *n += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    // Shapes are taken once a function's own calls are inlined (callees come first).
    let mut shapes: Vec<Option<Shape>> = vec![None; m.functions.len()];
    let mut changed = false;
    for h in order {
        let placeholder = Function::new(m.functions[h].ty, FunctionControl::None);
        let mut f = std::mem::replace(&mut m.functions[h], placeholder);
        let pick = |g: Handle<Function>, s: &Shape| match mode {
            Mode::All => true,
            Mode::Heuristic => s.size <= SMALL || calls_of[g.index()] == 1 || s.opaque,
        };
        changed |= inline_calls(m, h, &mut f, &shapes, &recursive, &pick);
        if !recursive[h.index()] {
            shapes[h.index()] = shape(m, &f);
        }
        m.functions[h] = f;
    }
    changed
}

/// Inlines the calls in `f` (function `me`) of functions that have a shape and that `pick`
/// accepts; whether any was.
fn inline_calls(
    m: &mut Module,
    me: Handle<Function>,
    f: &mut Function,
    shapes: &[Option<Shape>],
    recursive: &[bool],
    pick: &dyn Fn(Handle<Function>, &Shape) -> bool,
) -> bool {
    if f.is_declaration() {
        return false;
    }
    // Blocks still to look at (a stack, next on top) and the layout built so far: a block
    // split by a call is followed by the copy, and its continuation is looked at next.
    let mut pending: Vec<Handle<Block>> = f.blocks.handles().collect();
    pending.reverse();
    let mut layout: Vec<Handle<Block>> = Vec::with_capacity(pending.len());
    let mut results: HashMap<Value, Value> = HashMap::new();
    let mut changed = false;
    while let Some(b) = pending.pop() {
        let found = f.blocks[b].ops.iter().enumerate().find_map(|(k, &o)| {
            let op = &f.ops[o];
            let Instruction::FunctionCall(call) = &op.inst else {
                return None;
            };
            let Some(Value::Function(g)) = Value::from_id(call.function) else {
                return None;
            };
            let s = shapes.get(g.index())?.as_ref()?;
            // RelaxedPrecision on the result may be dropped (it only permits less
            // precision); any other decoration of the call stays with a call.
            let inlinable = g != me
                && !recursive[g.index()]
                && op
                    .decorations()
                    .iter()
                    .all(|d| matches!(d, crate::grammar::Decoration::RelaxedPrecision))
                && call.arguments.len() == m.functions.get(g)?.params.len()
                && pick(g, s);
            inlinable.then_some((k, g, s))
        });
        // A loop header keeps its merge instruction: only one that branches on is split.
        let splittable = !matches!(f.blocks[b].structure, Some(Structure::Loop { .. }))
            || matches!(f.blocks[b].terminator, Terminator::Branch(_));
        let Some((k, g, s)) = found.filter(|_| splittable && f.ops.len() <= MAX_CALLER_OPS) else {
            layout.push(b);
            continue;
        };
        let placeholder = Function::new(m.functions[g].ty, FunctionControl::None);
        let callee = std::mem::replace(&mut m.functions[g], placeholder);
        let mut added = inline_call(m, f, b, k, &callee, s, &mut results);
        m.functions[g] = callee;
        layout.push(b);
        let cont = added.pop().expect("a continuation");
        layout.extend(added);
        pending.push(cont);
        changed = true;
    }
    if changed {
        // Void results: an undefined value where something uses one, else nothing.
        let void: Vec<Value> = results
            .iter()
            .filter(|(_, v)| matches!(v, Value::Type(_)))
            .map(|(&k, _)| k)
            .collect();
        if !void.is_empty() {
            let mut used = std::collections::HashSet::new();
            for (_, b) in f.blocks.iter() {
                for &h in &b.ops {
                    crate::ir::analysis::visit_operands(m, &f.ops[h].inst, &mut |v| {
                        used.insert(v);
                    });
                }
                b.terminator.visit_values(|v| {
                    used.insert(v);
                });
            }
            for k in void {
                let Some(Value::Type(ty)) = results.remove(&k) else {
                    continue;
                };
                if used.contains(&k) {
                    let undef = m.constants.insert(Constant::new(ty, ConstantValue::Undef));
                    results.insert(k, Value::Constant(undef));
                }
            }
        }
        let resolved: HashMap<Value, Value> =
            results.keys().map(|&k| (k, resolve(&results, k))).collect();
        replace_uses(m, f, &resolved);
        relayout_blocks(m, f, &layout);
    }
    changed
}

/// Replaces the call at op `k` of block `b` by a copy of `callee`; the blocks added, in
/// layout order, the continuation last. The call's result goes in `results`.
fn inline_call(
    m: &mut Module,
    f: &mut Function,
    b: Handle<Block>,
    k: usize,
    callee: &Function,
    shape: &Shape,
    results: &mut HashMap<Value, Value>,
) -> Vec<Handle<Block>> {
    let call_h = f.blocks[b].ops[k];
    let call_op = f.ops[call_h].clone();
    let Instruction::FunctionCall(call) = &call_op.inst else {
        unreachable!("inline_call is given a call");
    };
    let args: Vec<Value> = call
        .arguments
        .iter()
        .map(|&id| Value::from_id(id).unwrap_or(Value::Param(u32::MAX)))
        .collect();
    let result_ty = call_op
        .result_type()
        .filter(|&t| !matches!(m.types.get(t), Some(Type::Void)));

    // New blocks, block arguments and ops for the callee's.
    let cont = f.blocks.append(Block::new(Terminator::Unreachable));
    let wrap = shape.wrap.then(|| {
        let header = f.blocks.append(Block::new(Terminator::Unreachable));
        let cont_target = f
            .blocks
            .append(Block::new(Terminator::Branch(Successor::new(header))));
        (header, cont_target)
    });
    let block_map: Vec<Handle<Block>> = callee
        .blocks
        .iter()
        .map(|_| f.blocks.append(Block::new(Terminator::Unreachable)))
        .collect();
    let arg_map: Vec<Handle<BlockArg>> = callee
        .block_args
        .iter()
        .map(|(_, a)| f.block_args.append(a.clone()))
        .collect();
    let mut op_map: Vec<Option<Handle<Op>>> = vec![None; callee.ops.len()];
    let listed = callee
        .header
        .iter()
        .chain(callee.blocks.iter().flat_map(|(_, bl)| bl.ops.iter()));
    for &h in listed {
        if let Some(op) = callee.ops.get(h) {
            op_map[h.index()] = Some(f.ops.append(op.clone()));
        }
    }
    let map_value = |v: Value| -> Value {
        match v {
            Value::Op(h) => op_map
                .get(h.index())
                .copied()
                .flatten()
                .map_or(v, Value::Op),
            Value::Param(i) => args.get(i as usize).copied().unwrap_or(v),
            Value::BlockArg(h) => arg_map.get(h.index()).map_or(v, |&a| Value::BlockArg(a)),
            Value::Block(h) => block_map.get(h.index()).map_or(v, |&x| Value::Block(x)),
            _ => v,
        }
    };
    let map_block = |h: Handle<Block>| block_map.get(h.index()).copied().unwrap_or(h);
    let ext = |set: Id, number: u32| match Value::from_id(set) {
        Some(Value::ExtInstSet(s)) => m
            .ext_inst_imports
            .get(s)
            .map_or(ExtOperands::Unknown, |i| ExtOperands::of(i, number)),
        _ => ExtOperands::Unknown,
    };
    let remap_inst = |inst: &mut Instruction| {
        visit_ids_mut(inst, ext, &mut |id: &mut Id| {
            if let Some(v) = Value::from_id(*id) {
                *id = map_value(v).to_id();
            }
        })
    };
    for &new in op_map.iter().flatten() {
        remap_inst(&mut f.ops[new].inst);
    }

    // The caller's block splits at the call.
    let after = f.blocks[b].ops.split_off(k + 1);
    f.blocks[b].ops.pop();
    let start = wrap.map_or(map_block(callee.entry().expect("a body")), |(w, _)| w);
    let old_term = std::mem::replace(
        &mut f.blocks[b].terminator,
        Terminator::Branch(Successor::new(start)),
    );
    let term_loc = std::mem::replace(&mut f.blocks[b].terminator_loc, call_op.loc);
    let moved_structure = match f.blocks[b].structure {
        Some(Structure::Selection { .. }) => f.blocks[b].structure.take(),
        _ => None,
    };
    {
        let c = &mut f.blocks[cont];
        c.ops = after;
        c.terminator = old_term;
        c.terminator_loc = term_loc;
        c.structure = moved_structure;
    }
    let via_arg = shape.wrap || shape.returns.len() > 1;
    let result_arg = result_ty.filter(|_| via_arg).map(|ty| {
        let a = f.block_args.append(BlockArg {
            ty,
            name: None,
            decorations: Vec::new(),
            loc: None,
        });
        f.blocks[cont].args.push(a);
        a
    });
    if let Some((header, cont_target)) = wrap {
        let w = &mut f.blocks[header];
        w.terminator =
            Terminator::Branch(Successor::new(map_block(callee.entry().expect("a body"))));
        w.terminator_loc = call_op.loc;
        w.structure = Some(Structure::Loop {
            merge: cont,
            continue_target: cont_target,
            control: LoopControlArgs::default(),
            loc: None,
        });
    }

    // The callee's blocks, copied.
    let debug_info = |inst: &Instruction| match inst {
        Instruction::ExtInst(e) => match Value::from_id(e.set) {
            Some(Value::ExtInstSet(s)) => m.ext_inst_imports.get(s).is_some_and(|i| {
                i.name == "NonSemantic.Shader.DebugInfo.100"
                    && e.instruction == DebugInfo::DebugFunctionDefinition as u32
            }),
            _ => false,
        },
        _ => false,
    };
    let mut variables = Vec::new();
    let mut initial_stores = Vec::new();
    let mut returned = None;
    for (cb, block) in callee.blocks.iter() {
        let nb = map_block(cb);
        let mut ops = Vec::with_capacity(block.ops.len());
        if Some(cb) == callee.entry() {
            ops.extend(callee.header.iter().filter_map(|h| op_map[h.index()]));
        }
        for &h in &block.ops {
            let Some(new) = op_map.get(h.index()).copied().flatten() else {
                continue;
            };
            // A function definition's debug record stays with the callee.
            if debug_info(&f.ops[new].inst) {
                continue;
            }
            if let Instruction::Variable(v) = &mut f.ops[new].inst {
                if v.storage_class == StorageClass::Function {
                    if let Some(init) = v.initializer.take() {
                        let store = crate::grammar::OpStore {
                            pointer: Value::Op(new).to_id(),
                            object: init,
                            memory_access: None,
                        };
                        let mut op = Op::new(Instruction::Store(store));
                        op.loc = f.ops[new].loc;
                        initial_stores.push(f.ops.append(op));
                    }
                    variables.push(new);
                    continue;
                }
            }
            ops.push(new);
        }
        let terminator = match &block.terminator {
            Terminator::Return => Terminator::Branch(Successor::new(cont)),
            Terminator::ReturnValue(v) => {
                let v = map_value(*v);
                if result_arg.is_some() {
                    Terminator::Branch(Successor {
                        block: cont,
                        args: vec![v],
                    })
                } else {
                    returned = Some(v);
                    Terminator::Branch(Successor::new(cont))
                }
            }
            t => {
                let mut t = t.clone();
                match &mut t {
                    Terminator::BranchConditional { condition, .. } => {
                        *condition = map_value(*condition)
                    }
                    Terminator::Switch { selector, .. } => *selector = map_value(*selector),
                    Terminator::Other(inst) => remap_inst(inst),
                    _ => {}
                }
                for s in t.successors_mut() {
                    s.block = map_block(s.block);
                    s.args.iter_mut().for_each(|v| *v = map_value(*v));
                }
                t
            }
        };
        let structure = block.structure.clone().map(|s| s.map_blocks(map_block));
        let target = &mut f.blocks[nb];
        target.name = block.name.clone();
        target.args = block.args.iter().map(|a| arg_map[a.index()]).collect();
        target.ops = ops;
        target.structure = structure;
        target.terminator = terminator;
        target.terminator_loc = block.terminator_loc;
    }
    // Initializers run where the copy starts; variables join the caller's entry block.
    let entry_copy = map_block(callee.entry().expect("a body"));
    if !initial_stores.is_empty() {
        let ops = &mut f.blocks[entry_copy].ops;
        let at = ops
            .iter()
            .position(|h| !matches!(f.ops[*h].inst, Instruction::ExtInst(_)))
            .unwrap_or(ops.len());
        ops.splice(at..at, initial_stores);
    }
    let entry = f.entry().expect("the caller has a body");
    let at = f.blocks[entry]
        .ops
        .iter()
        .position(|h| !matches!(f.ops[*h].inst, Instruction::Variable(_)))
        .unwrap_or(f.blocks[entry].ops.len());
    f.blocks[entry].ops.splice(at..at, variables);

    // The call's value.
    if let Some(ty) = result_ty {
        let value = match (result_arg, returned) {
            (Some(a), _) => Value::BlockArg(a),
            (None, Some(v)) => v,
            (None, None) => Value::Constant(m.constants.insert(Constant {
                ty,
                value: ConstantValue::Undef,
                name: None,
                decorations: Vec::new(),
            })),
        };
        results.insert(Value::Op(call_h), value);
    } else if let Some(ty) = call_op.result_type() {
        // A void call's result names nothing a valid module uses; should an invalid one use
        // it, it gets an undefined value rather than a dangling reference (made only then).
        results.insert(Value::Op(call_h), Value::Type(ty));
    }
    let mut added = Vec::with_capacity(block_map.len() + 3);
    if let Some((header, _)) = wrap {
        added.push(header);
    }
    added.extend(callee.blocks.handles().map(map_block));
    if let Some((_, cont_target)) = wrap {
        added.push(cont_target);
    }
    added.push(cont);
    added
}
