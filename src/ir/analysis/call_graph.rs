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
}
