//! How many times each value of a function is used: by ops (extended instructions' operands
//! included), terminators and the values branches pass to block arguments.

use crate::grammar::Instruction;
use crate::ir::{BlockArg, Function, Handle, Module, Op, Value};

/// Use counts of a function's ops and block arguments.
#[derive(Clone, Debug, Default)]
pub struct UseCounts {
    ops: Vec<u32>,
    args: Vec<u32>,
}

impl UseCounts {
    /// Counts the uses in `f` (an op of a block, or of the function's header, counts once per
    /// operand naming the value; an op's own result is no use).
    pub fn new(m: &Module, f: &Function) -> Self {
        let mut counts = UseCounts {
            ops: vec![0; f.ops.len()],
            args: vec![0; f.block_args.len()],
        };
        let listed = f
            .header
            .iter()
            .chain(f.blocks.iter().flat_map(|(_, b)| b.ops.iter()));
        for &h in listed {
            let Some(op) = f.ops.get(h) else { continue };
            visit_operands(m, &op.inst, &mut |v| counts.add(v));
        }
        for (_, b) in f.blocks.iter() {
            b.terminator.visit_values(|v| counts.add(v));
        }
        counts
    }

    fn add(&mut self, v: Value) {
        let slot = match v {
            Value::Op(h) => self.ops.get_mut(h.index()),
            Value::BlockArg(h) => self.args.get_mut(h.index()),
            _ => None,
        };
        if let Some(n) = slot {
            *n += 1;
        }
    }

    /// How many times the result of op `h` is used.
    pub fn of_op(&self, h: Handle<Op>) -> u32 {
        self.ops.get(h.index()).copied().unwrap_or(0)
    }

    /// How many times block argument `h` is used.
    pub fn of_arg(&self, h: Handle<BlockArg>) -> u32 {
        self.args.get(h.index()).copied().unwrap_or(0)
    }

    /// Takes the uses of `inst`'s operands away (after the op is removed).
    pub fn remove_uses(&mut self, m: &Module, inst: &Instruction) {
        visit_operands(m, inst, &mut |v| self.remove_value(v));
    }

    /// Takes one use of `v` away.
    pub fn remove_value(&mut self, v: Value) {
        let slot = match v {
            Value::Op(h) => self.ops.get_mut(h.index()),
            Value::BlockArg(h) => self.args.get_mut(h.index()),
            _ => None,
        };
        if let Some(n) = slot {
            *n = n.saturating_sub(1);
        }
    }
}

/// Calls `f` with every value `inst` uses ([`Module::visit_values`] without its own result).
pub fn visit_operands(m: &Module, inst: &Instruction, f: &mut dyn FnMut(Value)) {
    let result = inst.result_id().and_then(Value::from_id);
    m.visit_values(inst, |v| {
        if Some(v) != result {
            f(v)
        }
    });
}
