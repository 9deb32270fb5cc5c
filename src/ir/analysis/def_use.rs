//! The uses of a function's values: by ops (extended instructions' operands included),
//! terminators and the values branches pass to block arguments. [`DefUse`] lists the users
//! of each value (def-use chains); [`UseCounts`] only counts them, and is cheap to update
//! while a pass removes ops.

use crate::grammar::Instruction;
use crate::ir::{Block, BlockArg, Function, Handle, Module, Op, Value};

/// What uses a value: an op (of a block or of the function's header) or a block's
/// terminator (its condition, selector, return value or the arguments its branches pass).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum User {
    /// An op, by handle.
    Op(Handle<Op>),
    /// The terminator of a block.
    Terminator(Handle<Block>),
}

/// Def-use chains of one function: the users of each op result, block argument and
/// parameter, in layout order, one entry per operand naming the value. Stored as one flat
/// list with an offset per value, so building it is two walks and no allocation per value.
#[derive(Clone, Debug, Default)]
pub struct DefUse {
    /// Where each value's users start in `users`: ops, then block arguments, then parameters,
    /// with one more entry closing the last range.
    start: Vec<u32>,
    users: Vec<User>,
    ops: usize,
    args: usize,
}

impl DefUse {
    /// The def-use chains of `f` as it is (a pass that rewrites uses builds them again).
    pub fn new(m: &Module, f: &Function) -> Self {
        let (ops, args) = (f.ops.len(), f.block_args.len());
        let slots = ops + args + f.params.len();
        let slot = |v: Value| -> Option<usize> {
            match v {
                Value::Op(h) if h.index() < ops => Some(h.index()),
                Value::BlockArg(h) if h.index() < args => Some(ops + h.index()),
                Value::Param(i) if (i as usize) < slots - ops - args => {
                    Some(ops + args + i as usize)
                }
                _ => None,
            }
        };
        let listed = || {
            f.header
                .iter()
                .chain(f.blocks.iter().flat_map(|(_, b)| b.ops.iter()))
                .filter_map(|&h| f.ops.get(h).map(|op| (h, op)))
        };
        // First walk: how many users each value has.
        let mut start = vec![0u32; slots + 1];
        for (_, op) in listed() {
            visit_operands(m, &op.inst, &mut |v| {
                if let Some(s) = slot(v) {
                    start[s + 1] += 1;
                }
            });
        }
        for (_, b) in f.blocks.iter() {
            b.terminator.visit_values(|v| {
                if let Some(s) = slot(v) {
                    start[s + 1] += 1;
                }
            });
        }
        for i in 1..start.len() {
            start[i] += start[i - 1];
        }
        // Second walk: the users, each into the next free place of its value's range.
        let mut next: Vec<u32> = start[..slots].to_vec();
        let mut users = vec![User::Op(Handle::new(0)); start[slots] as usize];
        let mut place = |s: usize, user: User| {
            users[next[s] as usize] = user;
            next[s] += 1;
        };
        for (h, op) in listed() {
            visit_operands(m, &op.inst, &mut |v| {
                if let Some(s) = slot(v) {
                    place(s, User::Op(h));
                }
            });
        }
        for (b, block) in f.blocks.iter() {
            block.terminator.visit_values(|v| {
                if let Some(s) = slot(v) {
                    place(s, User::Terminator(b));
                }
            });
        }
        DefUse {
            start,
            users,
            ops,
            args,
        }
    }

    /// The users of `v` (empty for module-level values, which functions share).
    pub fn users(&self, v: Value) -> &[User] {
        let params = self.start.len() - 1 - self.ops - self.args;
        let s = match v {
            Value::Op(h) if h.index() < self.ops => h.index(),
            Value::BlockArg(h) if h.index() < self.args => self.ops + h.index(),
            Value::Param(i) if (i as usize) < params => self.ops + self.args + i as usize,
            _ => return &[],
        };
        &self.users[self.start[s] as usize..self.start[s + 1] as usize]
    }
}

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
