//! Functions: the function type, parameters matching it in number and type, calls (callee,
//! arity, argument and result types), returns matching the return type, function ids used
//! only where a function may be named, and the static call graph (recursion is reported by
//! the environments that forbid it, Vulkan and Level Zero).
//!
//! Hand-written because the grammar does not relate an `OpFunction` to its `OpTypeFunction`,
//! its parameters and its calls.

use super::module::Inst;
use super::query::Ty;
use super::Cx;
use crate::grammar::{Instruction, Opcode};
use std::collections::{HashMap, HashSet};

const RULE: &str = "core:function";

/// What the module-level function rules need.
#[derive(Debug, Default)]
pub(super) struct State {
    /// Parameters seen in the current function.
    params: usize,
    /// Call edges: (caller function id, callee id, call instruction).
    pub calls: Vec<(u32, u32, u32)>,
    /// Global variables used: (function id, variable id).
    pub globals: Vec<(u32, u32)>,
    /// The global variables the current function uses, to record each once.
    current_globals: HashSet<u32>,
}

impl State {
    /// Records that function `f` uses global variable `v`.
    pub fn use_global(&mut self, f: u32, v: u32) {
        if self.current_globals.insert(v) {
            self.globals.push((f, v));
        }
    }
}

/// The parameter types of function `f`'s type.
fn param_types<'a>(cx: &Cx<'a>, f: u32) -> Option<(u32, &'a [u32])> {
    let fty = cx.m.def(f)?.word(3);
    match cx.m.ty(fty)? {
        Ty::Function { ret, params } => Some((ret, params)),
        _ => None,
    }
}

/// Checks function-related instructions.
pub(super) fn instruction(cx: &mut Cx<'_>, inst: &Inst<'_>, typed: &Instruction) {
    let m = cx.m;
    let current = cx.func.map(|f| m.functions[f].id);
    match typed {
        Instruction::Function(f) => {
            cx.functions.params = 0;
            cx.functions.current_globals.clear();
            match m.ty(f.function_type.0) {
                Some(Ty::Function { ret, .. }) => {
                    if ret != f.result_type.0 {
                        cx.err(
                            inst,
                            RULE,
                            "the result type of OpFunction does not match its function type's \
                             return type",
                        );
                    }
                }
                _ => cx.err(
                    inst,
                    RULE,
                    format!("%{} is not a function type", f.function_type.0),
                ),
            }
            return;
        }
        Instruction::FunctionParameter(p) => {
            let Some(fid) = current else { return };
            let k = cx.functions.params;
            cx.functions.params += 1;
            if let Some((_, params)) = param_types(cx, fid) {
                match params.get(k) {
                    None => cx.err(
                        inst,
                        RULE,
                        format!(
                            "too many OpFunctionParameters: the function type has {}",
                            params.len()
                        ),
                    ),
                    Some(&t) if t != p.result_type.0 => cx.err(
                        inst,
                        RULE,
                        format!("parameter {k}'s type does not match the function type's"),
                    ),
                    _ => {}
                }
            }
            return;
        }
        _ => {}
    }
    // Fewer parameters than the type has are not reported: spirv-val accepts them.
    let Some(fid) = current else { return };
    match typed {
        Instruction::FunctionCall(c) => {
            cx.functions.calls.push((fid, c.function.0, inst.index));
            if m.def_op(c.function.0) != Some(Opcode::Function) {
                return cx.err(
                    inst,
                    RULE,
                    format!("OpFunctionCall: %{} is not a function", c.function.0),
                );
            }
            let Some((ret, params)) = param_types(cx, c.function.0) else {
                return;
            };
            if ret != c.result_type.0 {
                return cx.err(
                    inst,
                    RULE,
                    "OpFunctionCall: the result type does not match the callee's return type",
                );
            }
            if params.len() != c.arguments.len() {
                return cx.err(
                    inst,
                    RULE,
                    format!(
                        "OpFunctionCall: {} arguments for {} parameters",
                        c.arguments.len(),
                        params.len()
                    ),
                );
            }
            for (k, (a, &p)) in c.arguments.iter().zip(params).enumerate() {
                if m.type_of(a.0) != Some(p) {
                    return cx.err(
                        inst,
                        RULE,
                        format!(
                            "OpFunctionCall: argument {k}'s type does not match the parameter's"
                        ),
                    );
                }
            }
        }
        Instruction::Return(_) => {
            let ret = m.def(fid).and_then(|f| f.result_type()).unwrap_or(0);
            if m.ty(ret) != Some(Ty::Void) {
                cx.err(
                    inst,
                    RULE,
                    "OpReturn can only be used in a function with a void return type",
                );
            }
        }
        Instruction::ReturnValue(r) => {
            let ret = m.def(fid).and_then(|f| f.result_type()).unwrap_or(0);
            let Some(vt) = m.type_of(r.value.0) else {
                return cx.err(
                    inst,
                    RULE,
                    format!("OpReturnValue: %{} is not a value", r.value.0),
                );
            };
            if m.ty(ret) == Some(Ty::Void) {
                return cx.err(
                    inst,
                    RULE,
                    "OpReturnValue cannot be used in a function with a void return type",
                );
            }
            if vt != ret {
                return cx.err(
                    inst,
                    RULE,
                    "OpReturnValue: the value's type does not match the function's return type",
                );
            }
            if cx.logical
                && m.is_pointer(vt)
                && !m
                    .capabilities
                    .has(crate::grammar::Capability::VariablePointers)
                && !m
                    .capabilities
                    .has(crate::grammar::Capability::VariablePointersStorageBuffer)
            {
                cx.err(
                    inst,
                    RULE,
                    "OpReturnValue cannot return a pointer in the Logical addressing model",
                );
            }
        }
        _ => {}
    }
}

/// Whether instruction `op` may name a function as its id operand number `k` (counting the
/// result type and id).
pub(super) fn may_name_function(op: Opcode, k: usize) -> bool {
    use Opcode as O;
    match op {
        O::FunctionCall => k == 2,
        O::EntryPoint | O::ExecutionMode | O::ExecutionModeId => true,
        O::EnqueueKernel
        | O::GetKernelNDrangeSubGroupCount
        | O::GetKernelNDrangeMaxSubGroupSize
        | O::GetKernelWorkGroupSize
        | O::GetKernelPreferredWorkGroupSizeMultiple
        | O::GetKernelLocalSizeForSubgroupCount
        | O::GetKernelMaxNumSubgroups => true,
        _ => {
            op.is_annotation()
                || op.is_debug()
                || matches!(
                    op.name(),
                    "OpConstantFunctionPointerINTEL" | "OpFunctionPointerCallINTEL"
                )
        }
    }
}

/// Cycles in the static call graphs of the entry points: (a function on the cycle, the call
/// closing it).
pub(super) fn recursive_calls(cx: &Cx<'_>) -> Vec<(u32, u32)> {
    let mut graph: HashMap<u32, Vec<(u32, u32)>> = HashMap::new();
    for &(from, to, at) in &cx.functions.calls {
        graph.entry(from).or_default().push((to, at));
    }
    // Iterative DFS with colours; a back edge closes a cycle.
    let mut colour: HashMap<u32, u8> = HashMap::new();
    let mut found = Vec::new();
    let mut roots: Vec<u32> =
        cx.m.entry_points
            .iter()
            .map(|&i| cx.m.inst(i).word(1))
            .collect();
    roots.sort_unstable();
    for root in roots {
        if colour.contains_key(&root) {
            continue;
        }
        let mut stack: Vec<(u32, usize)> = vec![(root, 0)];
        colour.insert(root, 1);
        while let Some(&mut (f, ref mut next)) = stack.last_mut() {
            let edges = graph.get(&f).map_or(&[][..], |v| &v[..]);
            if *next < edges.len() {
                let (to, at) = edges[*next];
                *next += 1;
                match colour.get(&to) {
                    None => {
                        colour.insert(to, 1);
                        stack.push((to, 0));
                    }
                    Some(1) => found.push((to, at)),
                    _ => {}
                }
            } else {
                colour.insert(f, 2);
                stack.pop();
            }
        }
    }
    found
}

/// For each entry point function, the global variables its static call tree uses.
pub(super) fn entry_point_globals(cx: &Cx<'_>) -> Vec<(u32, HashSet<u32>)> {
    let mut callees: HashMap<u32, Vec<u32>> = HashMap::new();
    for &(from, to, _) in &cx.functions.calls {
        callees.entry(from).or_default().push(to);
    }
    let mut used: HashMap<u32, Vec<u32>> = HashMap::new();
    for &(f, v) in &cx.functions.globals {
        used.entry(f).or_default().push(v);
    }
    let mut out: Vec<(u32, HashSet<u32>)> = Vec::new();
    for &i in &cx.m.entry_points {
        let ep = cx.m.inst(i).word(1);
        if out.iter().any(|(f, _)| *f == ep) {
            continue;
        }
        let mut seen = HashSet::new();
        let mut globals = HashSet::new();
        let mut stack = vec![ep];
        while let Some(f) = stack.pop() {
            if !seen.insert(f) {
                continue;
            }
            if let Some(c) = callees.get(&f) {
                stack.extend_from_slice(c);
            }
            if let Some(v) = used.get(&f) {
                globals.extend(v.iter().copied());
            }
        }
        out.push((ep, globals));
    }
    out
}
