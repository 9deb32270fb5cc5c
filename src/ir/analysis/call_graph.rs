//! The module's call graph: which functions each function calls, and which the entry points
//! reach.

use crate::grammar::Instruction;
use crate::ir::{Function, Handle, Module, Value};

/// Callees by function.
#[derive(Clone, Debug, Default)]
pub struct CallGraph {
    callees: Vec<Vec<Handle<Function>>>,
}

impl CallGraph {
    /// The graph of `m`'s `OpFunctionCall`s.
    pub fn new(m: &Module) -> Self {
        let callees = m
            .functions
            .iter()
            .map(|(_, f)| {
                let mut out: Vec<Handle<Function>> = Vec::new();
                for (_, block) in f.blocks.iter() {
                    for &h in &block.ops {
                        if let Some(Instruction::FunctionCall(call)) = f.ops.get(h).map(|o| &o.inst)
                        {
                            if let Some(Value::Function(callee)) = Value::from_id(call.function) {
                                if !out.contains(&callee) {
                                    out.push(callee);
                                }
                            }
                        }
                    }
                }
                out
            })
            .collect();
        CallGraph { callees }
    }

    /// The functions `f` calls, each once, in the order of their first call.
    pub fn callees(&self, f: Handle<Function>) -> &[Handle<Function>] {
        self.callees.get(f.index()).map_or(&[], Vec::as_slice)
    }

    /// Which functions `roots` reach through calls (themselves included), by function index.
    pub fn reached_from(&self, roots: impl IntoIterator<Item = Handle<Function>>) -> Vec<bool> {
        let mut seen = vec![false; self.callees.len()];
        let mut stack: Vec<Handle<Function>> = roots.into_iter().collect();
        while let Some(f) = stack.pop() {
            match seen.get_mut(f.index()) {
                Some(s) if !*s => *s = true,
                _ => continue,
            }
            stack.extend_from_slice(self.callees(f));
        }
        seen
    }

    /// Every function, callees before their callers, and which functions are on a cycle of
    /// calls (recursion, which shaders and kernels may not have; such calls cannot be
    /// inlined), by function index.
    pub fn callee_first(&self) -> (Vec<Handle<Function>>, Vec<bool>) {
        let n = self.callees.len();
        // 0: not seen, 1: on the stack, 2: done.
        let mut state = vec![0u8; n];
        let mut recursive = vec![false; n];
        let mut order = Vec::with_capacity(n);
        let mut stack: Vec<(usize, usize)> = Vec::new();
        for root in 0..n {
            if state[root] != 0 {
                continue;
            }
            state[root] = 1;
            stack.push((root, 0));
            while let Some(&mut (f, ref mut next)) = stack.last_mut() {
                if let Some(&g) = self.callees[f].get(*next) {
                    *next += 1;
                    let g = g.index();
                    match state.get(g) {
                        Some(0) => {
                            state[g] = 1;
                            stack.push((g, 0));
                        }
                        Some(1) => {
                            // A cycle: every function on the stack from `g` up.
                            let from = stack.iter().rposition(|&(x, _)| x == g).unwrap_or(0);
                            for &(x, _) in &stack[from..] {
                                recursive[x] = true;
                            }
                        }
                        _ => {}
                    }
                } else {
                    state[f] = 2;
                    order.push(Handle::new(f));
                    stack.pop();
                }
            }
        }
        (order, recursive)
    }
}
