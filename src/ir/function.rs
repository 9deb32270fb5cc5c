//! Functions: isolated (operands are [`Value`]s, never module ids), made of blocks that take
//! arguments instead of `OpPhi`, with structured control flow recorded on header blocks.

use super::arena::{Arena, Handle};
use super::types::Type;
use super::value::Value;
use super::Loc;
use crate::grammar::{
    Decoration, FunctionControl, Id, Instruction, LiteralNumber, LoopControlArgs, Opcode,
    SelectionControl,
};

/// Whether an opcode ends a block (the spec's block termination instructions; the
/// `block_terminator` group of `grammar/opcode_groups.json`).
pub fn is_block_terminator(op: Opcode) -> bool {
    op.is_block_terminator()
}

/// A function definition or declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    /// The debug name (`OpName`).
    pub name: Option<String>,
    /// `OpFunction`'s function control.
    pub control: FunctionControl,
    /// The function type ([`Type::Function`]).
    pub ty: Handle<Type>,
    /// Decorations of the function (`LinkageAttributes`, ...).
    pub decorations: Vec<Decoration>,
    /// The parameters, referred to as [`Value::Param`] by position.
    pub params: Vec<Param>,
    /// Every op of the function; blocks list theirs in order.
    pub ops: Arena<Op>,
    /// Ops before the entry block: non-semantic extended instructions (such as
    /// `DebugNoLine`) that the binary places between the parameters and the first label.
    pub header: Vec<Handle<Op>>,
    /// Every block argument of the function; blocks list theirs in order.
    pub block_args: Arena<BlockArg>,
    /// The blocks in layout order; the first is the entry block. Empty for a declaration.
    pub blocks: Arena<Block>,
    /// The source location in effect at `OpFunction`.
    pub loc: Option<Loc>,
}

impl Function {
    /// The blocks named as values rather than as branch targets: by an op, a terminator's
    /// condition, selector or return value, or an argument a branch passes. Only invalid
    /// modules have them; passes that remove or merge blocks keep these, so no reference is
    /// left dangling.
    pub fn blocks_named_as_values(
        &self,
        m: &super::Module,
    ) -> std::collections::HashSet<Handle<Block>> {
        let mut named = std::collections::HashSet::new();
        let mut note = |v: Option<Value>| {
            if let Some(Value::Block(b)) = v {
                named.insert(b);
            }
        };
        for (_, op) in self.ops.iter() {
            // The module's view, which reads an `OpExtInst`'s operands by its set.
            m.visit_values(&op.inst, |v| note(Some(v)));
        }
        for (_, b) in self.blocks.iter() {
            b.terminator.visit_values(|v| note(Some(v)));
        }
        named
    }

    /// A function with no parameters or blocks.
    pub fn new(ty: Handle<Type>, control: FunctionControl) -> Self {
        Function {
            name: None,
            control,
            ty,
            decorations: Vec::new(),
            params: Vec::new(),
            ops: Arena::new(),
            header: Vec::new(),
            block_args: Arena::new(),
            blocks: Arena::new(),
            loc: None,
        }
    }

    /// The entry block, unless this is a declaration.
    pub fn entry(&self) -> Option<Handle<Block>> {
        self.blocks.handles().next()
    }

    /// Whether the function has no body (an imported declaration).
    pub fn is_declaration(&self) -> bool {
        self.blocks.is_empty()
    }
}

/// A function parameter (`OpFunctionParameter`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// The type.
    pub ty: Handle<Type>,
    /// The debug name.
    pub name: Option<String>,
    /// Decorations (`FuncParamAttr`, `Alignment`, ...).
    pub decorations: Vec<Decoration>,
    /// The source location in effect at its declaration.
    pub loc: Option<Loc>,
}

/// A block argument: an `OpPhi` of the binary form. Predecessors pass its value in their
/// terminator's [`Successor::args`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockArg {
    /// The type.
    pub ty: Handle<Type>,
    /// The debug name.
    pub name: Option<String>,
    /// Decorations.
    pub decorations: Vec<Decoration>,
    /// The source location in effect at the `OpPhi`.
    pub loc: Option<Loc>,
}

/// One instruction of a block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Op {
    /// The generated instruction struct. Its `Id` fields hold packed [`Value`]s: `result_type`
    /// a [`Value::Type`], `result_id` the op's own [`Value::Op`], operands the values used.
    pub inst: Instruction,
    /// The source location (`OpLine`) in effect at the op.
    pub loc: Option<Loc>,
    /// The result's debug name and decorations; `None` when it has neither (most ops), which
    /// keeps ops small.
    pub attrs: Option<Box<Attrs>>,
}

/// The debug name and decorations of an op's result.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Attrs {
    /// The debug name (`OpName`).
    pub name: Option<String>,
    /// Decorations (`RelaxedPrecision`, `NoContraction`, ...).
    pub decorations: Vec<Decoration>,
}

impl Attrs {
    /// The attributes, boxed, unless there are none.
    pub fn boxed(name: Option<String>, decorations: Vec<Decoration>) -> Option<Box<Attrs>> {
        if name.is_none() && decorations.is_empty() {
            None
        } else {
            Some(Box::new(Attrs { name, decorations }))
        }
    }
}

impl Op {
    /// An op with no name, decorations or location.
    pub fn new(inst: Instruction) -> Self {
        Op {
            inst,
            loc: None,
            attrs: None,
        }
    }

    /// The result's debug name.
    pub fn name(&self) -> Option<&str> {
        self.attrs.as_ref()?.name.as_deref()
    }

    /// The result's decorations.
    pub fn decorations(&self) -> &[Decoration] {
        self.attrs.as_ref().map_or(&[], |a| &a.decorations)
    }

    /// The name and decorations, mutably (created empty if there are none).
    pub fn attrs_mut(&mut self) -> &mut Attrs {
        self.attrs.get_or_insert_with(Box::default)
    }

    /// The result type, if the op has one.
    pub fn result_type(&self) -> Option<Handle<Type>> {
        self.inst
            .result_type()
            .and_then(Value::from_id)
            .and_then(Value::as_type)
    }

    /// Whether the op defines a value.
    pub fn has_result(&self) -> bool {
        self.inst.result_id().is_some()
    }
}

/// A basic block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// The debug name of its label.
    pub name: Option<String>,
    /// The arguments (from `OpPhi`), in order.
    pub args: Vec<Handle<BlockArg>>,
    /// The ops, in order.
    pub ops: Vec<Handle<Op>>,
    /// The structured construct this block heads (from a merge instruction).
    pub structure: Option<Structure>,
    /// The terminator.
    pub terminator: Terminator,
    /// The source location in effect at the terminator.
    pub terminator_loc: Option<Loc>,
}

impl Block {
    /// An empty block ending in `terminator`.
    pub fn new(terminator: Terminator) -> Self {
        Block {
            name: None,
            args: Vec::new(),
            ops: Vec::new(),
            structure: None,
            terminator,
            terminator_loc: None,
        }
    }
}

/// A structured control-flow construct, recorded on its header block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Structure {
    /// A selection (`OpSelectionMerge`).
    Selection {
        /// The merge block.
        merge: Handle<Block>,
        /// Selection control.
        control: SelectionControl,
        /// The source location in effect at the merge instruction.
        loc: Option<Loc>,
    },
    /// A loop (`OpLoopMerge`).
    Loop {
        /// The merge block.
        merge: Handle<Block>,
        /// The continue target.
        continue_target: Handle<Block>,
        /// Loop control and its parameters.
        control: LoopControlArgs,
        /// The source location in effect at the merge instruction.
        loc: Option<Loc>,
    },
}

impl Structure {
    /// The merge block.
    pub fn merge(&self) -> Handle<Block> {
        match self {
            Structure::Selection { merge, .. } | Structure::Loop { merge, .. } => *merge,
        }
    }

    /// The same construct with its merge block and continue target renamed by `rename` (for
    /// passes that copy blocks).
    pub fn map_blocks(self, rename: impl Fn(Handle<Block>) -> Handle<Block>) -> Structure {
        match self {
            Structure::Selection {
                merge,
                control,
                loc,
            } => Structure::Selection {
                merge: rename(merge),
                control,
                loc,
            },
            Structure::Loop {
                merge,
                continue_target,
                control,
                loc,
            } => Structure::Loop {
                merge: rename(merge),
                continue_target: rename(continue_target),
                control,
                loc,
            },
        }
    }
}

/// A branch target and the values it passes to the target's arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Successor {
    /// The target block.
    pub block: Handle<Block>,
    /// One value per argument of the target.
    pub args: Vec<Value>,
}

impl Successor {
    /// A successor passing no arguments.
    pub fn new(block: Handle<Block>) -> Self {
        Successor {
            block,
            args: Vec::new(),
        }
    }
}

/// How a block ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Terminator {
    /// `OpBranch`.
    Branch(Successor),
    /// `OpBranchConditional`.
    BranchConditional {
        /// The condition (a bool).
        condition: Value,
        /// Where to go when it is true.
        true_target: Successor,
        /// Where to go when it is false.
        false_target: Successor,
        /// Branch weights (none or two).
        weights: Vec<u32>,
    },
    /// `OpSwitch`.
    Switch {
        /// The selector (a scalar integer).
        selector: Value,
        /// The default target.
        default: Successor,
        /// Case literals (as wide as the selector) and targets.
        cases: Vec<(LiteralNumber, Successor)>,
    },
    /// `OpReturn`.
    Return,
    /// `OpReturnValue`.
    ReturnValue(Value),
    /// `OpUnreachable`.
    Unreachable,
    /// `OpKill`.
    Kill,
    /// Any other instruction that ends a block (`OpTerminateInvocation`,
    /// `OpIgnoreIntersectionKHR`, `OpTerminateRayKHR`, `OpEmitMeshTasksEXT`): the generated
    /// struct, its ids packed [`Value`]s.
    Other(Instruction),
}

impl Terminator {
    /// The successors, in operand order (a target may occur more than once).
    pub fn successors(&self) -> impl Iterator<Item = &Successor> {
        let (a, b, rest): (
            Option<&Successor>,
            Option<&Successor>,
            &[(LiteralNumber, Successor)],
        ) = match self {
            Terminator::Branch(s) => (Some(s), None, &[]),
            Terminator::BranchConditional {
                true_target,
                false_target,
                ..
            } => (Some(true_target), Some(false_target), &[]),
            Terminator::Switch { default, cases, .. } => (Some(default), None, cases),
            _ => (None, None, &[]),
        };
        a.into_iter().chain(b).chain(rest.iter().map(|(_, s)| s))
    }

    /// The successors, mutably, in operand order.
    pub fn successors_mut(&mut self) -> impl Iterator<Item = &mut Successor> {
        type Parts<'a> = (
            Option<&'a mut Successor>,
            Option<&'a mut Successor>,
            &'a mut [(LiteralNumber, Successor)],
        );
        let (a, b, rest): Parts<'_> = match self {
            Terminator::Branch(s) => (Some(s), None, &mut []),
            Terminator::BranchConditional {
                true_target,
                false_target,
                ..
            } => (Some(true_target), Some(false_target), &mut []),
            Terminator::Switch { default, cases, .. } => (Some(default), None, cases),
            _ => (None, None, &mut []),
        };
        a.into_iter()
            .chain(b)
            .chain(rest.iter_mut().map(|(_, s)| s))
    }

    /// Calls `f` with every value the terminator uses (successor arguments included).
    pub fn visit_values(&self, mut f: impl FnMut(Value)) {
        match self {
            Terminator::BranchConditional { condition, .. } => f(*condition),
            Terminator::Switch { selector, .. } => f(*selector),
            Terminator::ReturnValue(v) => f(*v),
            Terminator::Other(inst) => {
                use crate::grammar::Ids;
                inst.visit_ids(&mut |id: Id| {
                    if let Some(v) = Value::from_id(id) {
                        f(v)
                    }
                })
            }
            _ => {}
        }
        for s in self.successors() {
            s.args.iter().for_each(|&v| f(v));
        }
    }
}
