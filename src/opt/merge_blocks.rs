//! Block merging (spirv-opt's `--merge-blocks`): a block that is the only successor of its
//! only predecessor, which branches to it unconditionally, joins that predecessor. Why:
//! inlining, dead-branch elimination and front ends leave chains of blocks that only branch
//! on, each a label and a branch in the binary.
//!
//! A block named as a merge block stays (structured control flow needs it), as does the entry
//! block and a block an op names; a continue target joins its predecessor only when that
//! predecessor heads, merges and continues nothing (it becomes the continue target, as in
//! spirv-opt); a loop header takes its successor only when that successor heads nothing. The successor's block arguments become the values
//! the branch passed.

use super::replace::{relayout_blocks, replace_uses};
use crate::ir::analysis::Cfg;
use crate::ir::{Block, Function, Handle, Module, Structure, Terminator, Value};
use std::collections::{HashMap, HashSet};

/// Runs the pass on every function; whether anything changed.
pub fn run(m: &mut Module) -> bool {
    super::each_function(m, |m, f| in_function(m, f))
}

fn in_function(m: &Module, f: &mut Function) -> bool {
    if f.is_declaration() || f.blocks.len() < 2 {
        return false;
    }
    let cfg = Cfg::new(f);
    let mut pinned: HashSet<Handle<Block>> = HashSet::new();
    let mut merges: HashSet<Handle<Block>> = HashSet::new();
    // Continue target -> its loop header.
    let mut continues: HashMap<Handle<Block>, Handle<Block>> = HashMap::new();
    pinned.extend(f.entry());
    for (h, b) in f.blocks.iter() {
        if let Some(Structure::Loop {
            continue_target, ..
        }) = &b.structure
        {
            // A continue target of two loops (an invalid module's) stays where it is.
            if continues.insert(*continue_target, h).is_some() {
                pinned.insert(*continue_target);
            }
        }
        if let Some(s) = &b.structure {
            merges.insert(s.merge());
        }
    }
    pinned.extend(merges.iter().copied());
    pinned.extend(f.blocks_named_as_values(m));
    let mut gone: HashSet<Handle<Block>> = HashSet::new();
    let mut args: HashMap<Value, Value> = HashMap::new();
    let handles: Vec<Handle<Block>> = f.blocks.handles().collect();
    for b in handles {
        if gone.contains(&b) || !cfg.is_reachable(b) {
            continue;
        }
        // Follow the chain: b takes its successor while the successor qualifies.
        while let Terminator::Branch(next) = &f.blocks[b].terminator {
            let s = next.block;
            let single = cfg.predecessors(s).len() == 1;
            let loop_header = matches!(f.blocks[b].structure, Some(Structure::Loop { .. }));
            // A continue target joins a predecessor that heads, merges and continues nothing,
            // which becomes the continue target.
            let continue_of = continues.get(&s).copied();
            let continue_joins = f.blocks[b].structure.is_none()
                && !merges.contains(&b)
                && !continues.contains_key(&b)
                && continue_of.is_some_and(|h| h != s);
            if s == b
                || !single
                || pinned.contains(&s)
                || (continue_of.is_some() && !continue_joins)
                || gone.contains(&s)
                || (loop_header && f.blocks[s].structure.is_some())
                || next.args.len() != f.blocks[s].args.len()
            {
                break;
            }
            let passed = next.args.clone();
            if let Some(h) = continue_of {
                if let Some(Structure::Loop {
                    continue_target, ..
                }) = &mut f.blocks[h].structure
                {
                    *continue_target = b;
                }
                continues.remove(&s);
                continues.insert(b, h);
            }
            let taken = std::mem::replace(&mut f.blocks[s], Block::new(Terminator::Unreachable));
            for (&a, v) in taken.args.iter().zip(passed) {
                args.insert(Value::BlockArg(a), v);
            }
            let block = &mut f.blocks[b];
            block.ops.extend(taken.ops);
            block.terminator = taken.terminator;
            block.terminator_loc = taken.terminator_loc;
            if taken.structure.is_some() {
                // A loop header moved: its continue target's header is now `b`.
                if let Some(Structure::Loop {
                    continue_target, ..
                }) = &taken.structure
                {
                    continues.insert(*continue_target, b);
                }
                block.structure = taken.structure;
            }
            gone.insert(s);
        }
    }
    if gone.is_empty() {
        return false;
    }
    let resolved: HashMap<Value, Value> = args
        .keys()
        .map(|&k| (k, super::replace::resolve(&args, k)))
        .collect();
    replace_uses(m, f, &resolved);
    let keep: Vec<Handle<Block>> = f.blocks.handles().filter(|b| !gone.contains(b)).collect();
    relayout_blocks(m, f, &keep);
    true
}
