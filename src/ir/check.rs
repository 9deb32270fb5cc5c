//! [`check`]: that a module refers only to what it has. A module built in memory (with the
//! [`super::Builder`] or struct literals) can hold a handle past the end of its arena, which
//! [`super::serialize`] and the lowering would otherwise index with; [`super::deserialize`]
//! never makes one.

use super::arena::Handle;
use super::constants::{Constant, ConstantValue, SpecConstant, SpecValue};
use super::error::{IrError, IrErrorKind};
use super::function::{Block, BlockArg, Function, Op, Terminator};
use super::module::{ExtInst, GlobalVariable, Loc, Module};
use super::operands::{ExtOperands, ImportSet};
use super::types::Type;
use super::value::{Value, INDEX_MASK, TAG_SHIFT};
use crate::grammar::{Decoration, Id, Ids, Instruction, OpExtInst};
use core::fmt;

/// Where in a module [`check`] found a problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A type, its name or its decorations.
    Type(Handle<Type>),
    /// A constant.
    Constant(Handle<Constant>),
    /// A specialization constant.
    SpecConstant(Handle<SpecConstant>),
    /// A global variable.
    Global(Handle<GlobalVariable>),
    /// A module-level extended instruction.
    ExtInst(Handle<ExtInst>),
    /// An entry point, by position in [`Module::entry_points`].
    EntryPoint(usize),
    /// An execution mode, by position in [`Module::execution_modes`].
    ExecutionMode(usize),
    /// A source description, by position in [`Module::sources`].
    Source(usize),
    /// A function itself: its type, decorations and location.
    Function(Handle<Function>),
    /// A parameter of a function.
    Param(Handle<Function>, u32),
    /// A block argument of a function.
    BlockArg(Handle<Function>, Handle<BlockArg>),
    /// A block of a function: its lists of arguments and ops, structure and terminator.
    Block(Handle<Function>, Handle<Block>),
    /// An op of a function, with the block that lists it (`None` for the function's header).
    Op(Handle<Function>, Option<Handle<Block>>, Handle<Op>),
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let fun = |h: &Handle<Function>| Value::Function(*h);
        match self {
            Place::Type(h) => write!(f, "type {}", Value::Type(*h)),
            Place::Constant(h) => write!(f, "constant {}", Value::Constant(*h)),
            Place::SpecConstant(h) => write!(f, "spec constant {}", Value::SpecConstant(*h)),
            Place::Global(h) => write!(f, "global {}", Value::Global(*h)),
            Place::ExtInst(h) => write!(f, "extended instruction {}", Value::ExtInst(*h)),
            Place::EntryPoint(i) => write!(f, "entry point {i}"),
            Place::ExecutionMode(i) => write!(f, "execution mode {i}"),
            Place::Source(i) => write!(f, "source {i}"),
            Place::Function(h) => write!(f, "function {}", fun(h)),
            Place::Param(h, i) => write!(f, "function {}, parameter {i}", fun(h)),
            Place::BlockArg(h, a) => write!(f, "function {}, {}", fun(h), Value::BlockArg(*a)),
            Place::Block(h, b) => write!(f, "function {}, block {}", fun(h), Value::Block(*b)),
            Place::Op(h, b, op) => {
                write!(f, "function {}, ", fun(h))?;
                match b {
                    Some(b) => write!(f, "block {}, ", Value::Block(*b))?,
                    None => f.write_str("header, ")?,
                }
                write!(f, "op {}", Value::Op(*op))
            }
        }
    }
}

/// Checks that every handle and packed [`Value`] of `m` is in range for its arena (function
/// values for their function's), that result types, variable, constant and member types are
/// types, that a function's type is a function type, and that branches go to blocks of the
/// same function with one value per argument of the target. The error (offset 0) names the
/// place. Every module that [`super::deserialize`] returns passes.
pub fn check(m: &Module) -> Result<(), IrError> {
    let mut cx = Cx::new(m);
    cx.module()?;
    for (h, f) in m.functions.iter() {
        cx.function(h, f)?;
    }
    Ok(())
}

/// Checks function `h` of `m` alone (for [`super::StreamingSerializer`]).
pub(crate) fn check_function(m: &Module, h: Handle<Function>) -> Result<(), IrError> {
    let mut cx = Cx::new(m);
    match m.functions.get(h) {
        Some(f) => cx.function(h, f),
        None => {
            cx.place = Place::Function(h);
            cx.value(Value::Function(h))
        }
    }
}

/// The checker's state: where it is, and the function whose values are in scope.
struct Cx<'m> {
    m: &'m Module,
    f: Option<&'m Function>,
    place: Place,
    /// The length of the arena of each packed kind tag (0 for tags of no kind, and for
    /// function values outside a function): a packed value is in range when its index is
    /// below its tag's length, the one test of the common path.
    lens: [usize; 16],
    /// The set of each import.
    sets: Vec<ImportSet>,
}

/// The kind tag of a packed value.
fn tag(v: Value) -> usize {
    (Value::to_id(v).0 >> TAG_SHIFT) as usize
}

impl<'m> Cx<'m> {
    fn new(m: &'m Module) -> Self {
        let mut lens = [0; 16];
        for (v, n) in [
            (Value::Constant(Handle::new(0)), m.constants.len()),
            (Value::SpecConstant(Handle::new(0)), m.spec_constants.len()),
            (Value::Global(Handle::new(0)), m.globals.len()),
            (Value::Function(Handle::new(0)), m.functions.len()),
            (Value::Type(Handle::new(0)), m.types.len()),
            (Value::String(Handle::new(0)), m.strings.len()),
            (Value::ExtInstSet(Handle::new(0)), m.ext_inst_imports.len()),
            (Value::ExtInst(Handle::new(0)), m.ext_insts.len()),
        ] {
            lens[tag(v)] = n;
        }
        Cx {
            m,
            f: None,
            place: Place::Source(0),
            lens,
            sets: m
                .ext_inst_imports
                .iter()
                .map(|(_, i)| ImportSet::of(i))
                .collect(),
        }
    }

    /// Puts the values of `f` (or of no function) in scope.
    fn enter(&mut self, f: Option<&'m Function>) {
        self.f = f;
        let n = |g: fn(&Function) -> usize| f.map_or(0, g);
        for (v, len) in [
            (Value::Op(Handle::new(0)), n(|f| f.ops.len())),
            (Value::Param(0), n(|f| f.params.len())),
            (Value::BlockArg(Handle::new(0)), n(|f| f.block_args.len())),
            (Value::Block(Handle::new(0)), n(|f| f.blocks.len())),
        ] {
            self.lens[tag(v)] = len;
        }
    }

    fn fail(&self, what: String) -> IrError {
        IrError::new(
            0,
            IrErrorKind::Invalid {
                place: self.place,
                what,
            },
        )
    }

    /// Whether a packed id is a value in range.
    #[inline]
    fn fits(&self, id: Id) -> bool {
        ((id.0 & INDEX_MASK) as usize) < self.lens[(id.0 >> TAG_SHIFT) as usize]
    }

    /// `v` in range (function values in the current function's arenas).
    fn value(&self, v: Value) -> Result<(), IrError> {
        match v.try_to_id() {
            Some(id) if self.fits(id) => Ok(()),
            _ => Err(self.dangling(v)),
        }
    }

    /// Why `v` is not in range.
    fn dangling(&self, v: Value) -> IrError {
        if v.is_local() && self.f.is_none() {
            return self.fail(format!("{v} is function-local, used outside a function"));
        }
        let (n, what) = match v {
            Value::Op(_) => (self.f.map_or(0, |f| f.ops.len()), "ops"),
            Value::Param(_) => (self.f.map_or(0, |f| f.params.len()), "parameters"),
            Value::BlockArg(_) => (self.f.map_or(0, |f| f.block_args.len()), "block arguments"),
            Value::Block(_) => (self.f.map_or(0, |f| f.blocks.len()), "blocks"),
            Value::Constant(_) => (self.m.constants.len(), "constants"),
            Value::SpecConstant(_) => (self.m.spec_constants.len(), "spec constants"),
            Value::Global(_) => (self.m.globals.len(), "globals"),
            Value::Function(_) => (self.m.functions.len(), "functions"),
            Value::Type(_) => (self.m.types.len(), "types"),
            Value::String(_) => (self.m.strings.len(), "strings"),
            Value::ExtInstSet(_) => (self.m.ext_inst_imports.len(), "imports"),
            Value::ExtInst(_) => (self.m.ext_insts.len(), "extended instructions"),
        };
        self.fail(format!("{v} is out of range ({n} {what})"))
    }

    fn ty(&self, t: Handle<Type>) -> Result<(), IrError> {
        self.value(Value::Type(t))
    }

    /// A packed value in range (`Id(0)` and other unpacked ids only where `raw_ok`).
    fn id(&self, id: Id, raw_ok: bool) -> Result<(), IrError> {
        if self.fits(id) {
            return Ok(());
        }
        match Value::from_id(id) {
            Some(v) => Err(self.dangling(v)),
            None if raw_ok => Ok(()),
            None => Err(self.fail(format!("id {} is not a packed value", id.0))),
        }
    }

    /// Calls `visit` with a function that tests an id, then reports the first that fails.
    fn each_id(&self, raw_ok: bool, visit: impl FnOnce(&mut dyn FnMut(Id))) -> Result<(), IrError> {
        let mut bad = None;
        visit(&mut |id| {
            if bad.is_none() && !self.fits(id) && !(raw_ok && Value::from_id(id).is_none()) {
                bad = Some(id);
            }
        });
        bad.map_or(Ok(()), |id| self.id(id, raw_ok))
    }

    /// Every id of `inst` (as [`Module::visit_values`] finds them).
    fn ids(&self, inst: &Instruction, raw_ok: bool) -> Result<(), IrError> {
        match inst {
            Instruction::ExtInst(op) => self.ext_ids(op),
            inst => self.each_id(raw_ok, |f| inst.visit_ids(f)),
        }
    }

    /// Every id of an `OpExtInst`: those its set's grammar says are ids.
    fn ext_ids(&self, op: &OpExtInst) -> Result<(), IrError> {
        let mode = match Value::from_id(op.set) {
            Some(Value::ExtInstSet(h)) => self
                .sets
                .get(h.index())
                .map_or(ExtOperands::Unknown, |s| s.operands(op.instruction)),
            _ => ExtOperands::Unknown,
        };
        self.each_id(false, |f| {
            f(op.result_type);
            f(op.result_id);
            f(op.set);
            mode.visit_ids(&op.operands, f);
        })
    }

    /// An instruction that stands in a function: its ids, its result type (a type) and its
    /// result (`own`).
    fn inst(&self, inst: &Instruction, own: Option<Value>) -> Result<(), IrError> {
        self.ids(inst, false)?;
        self.results(inst.result_type(), inst.result_id(), own)
    }

    /// The result type is a type, and the result is `own`.
    fn results(
        &self,
        ty: Option<Id>,
        result: Option<Id>,
        own: Option<Value>,
    ) -> Result<(), IrError> {
        let show = |id: Id| Value::from_id(id).map_or(format!("id {}", id.0), |v| v.to_string());
        if let Some(t) = ty.filter(|&t| !matches!(Value::from_id(t), Some(Value::Type(_)))) {
            return Err(self.fail(format!("the result type {} is not a type", show(t))));
        }
        if let Some(r) = result.filter(|&r| Some(r) != own.and_then(Value::try_to_id)) {
            return Err(self.fail(format!("the result id {} is not its own", show(r))));
        }
        Ok(())
    }

    fn decorations(&self, ds: &[Decoration]) -> Result<(), IrError> {
        ds.iter()
            .try_for_each(|d| self.each_id(false, |f| d.visit_ids(f)))
    }

    fn loc(&self, loc: Option<Loc>) -> Result<(), IrError> {
        loc.map_or(Ok(()), |l| self.value(Value::String(l.file)))
    }

    /// A struct of `operands` members must fit one instruction's 65,535 words (larger needs
    /// SPV_INTEL_long_composites' `OpTypeStructContinuedINTEL`, which spvkit does not write
    /// yet); it would otherwise be left out of the binary. Constant composites continue.
    fn fits_instruction(&self, operands: usize, op: &str) -> Result<(), IrError> {
        const MAX: usize = 0xffff - 3;
        if operands > MAX {
            return Err(self.fail(format!(
                "not supported yet: {op} of {operands} operands, more than one instruction \
                 holds ({MAX}); SPV_INTEL_long_composites' continuations are not written"
            )));
        }
        Ok(())
    }

    fn module(&mut self) -> Result<(), IrError> {
        let m = self.m;
        for (i, e) in m.entry_points.iter().enumerate() {
            self.place = Place::EntryPoint(i);
            self.value(Value::Function(e.function))?;
            for &g in &e.interface {
                self.value(Value::Global(g))?;
            }
        }
        for (i, e) in m.execution_modes.iter().enumerate() {
            self.place = Place::ExecutionMode(i);
            self.value(Value::Function(e.function))?;
            self.each_id(false, |f| e.mode.visit_ids(f))?;
        }
        for (i, s) in m.sources.iter().enumerate() {
            self.place = Place::Source(i);
            if let Some(file) = s.file {
                self.value(Value::String(file))?;
            }
        }
        for (h, t) in m.types.iter() {
            self.place = Place::Type(h);
            let mut r = Ok(());
            t.referenced_types(|t| {
                if r.is_ok() {
                    r = self.ty(t);
                }
            });
            r?;
            match t {
                Type::Array { length, .. } => self.value(*length)?,
                Type::Struct(s) => {
                    self.fits_instruction(s.members.len(), "OpTypeStruct")?;
                    self.decorations(&s.decorations)?;
                    for mem in &s.members {
                        self.decorations(&mem.decorations)?;
                    }
                }
                Type::Other(inst) => self.ids(inst, true)?,
                _ => {}
            }
        }
        for &h in m.type_names.keys() {
            self.place = Place::Type(h);
            self.ty(h)?;
        }
        for (&h, ds) in &m.type_decorations {
            self.place = Place::Type(h);
            self.ty(h)?;
            self.decorations(ds)?;
        }
        for (h, c) in m.constants.iter() {
            self.place = Place::Constant(h);
            self.ty(c.ty)?;
            match &c.value {
                ConstantValue::Composite(vs) => vs.iter().try_for_each(|&v| self.value(v))?,
                ConstantValue::Other(inst) => self.ids(inst, true)?,
                _ => {}
            }
            self.decorations(&c.decorations)?;
        }
        for (h, s) in m.spec_constants.iter() {
            self.place = Place::SpecConstant(h);
            self.ty(s.ty)?;
            match &s.value {
                SpecValue::Composite(vs) => vs.iter().try_for_each(|&v| self.value(v))?,
                SpecValue::Op(op) => self.each_id(false, |f| op.visit_ids(f))?,
                _ => {}
            }
            self.decorations(&s.decorations)?;
            self.loc(s.loc)?;
        }
        for (h, g) in m.globals.iter() {
            self.place = Place::Global(h);
            self.ty(g.ty)?;
            if let Some(i) = g.initializer {
                self.value(i)?;
            }
            self.decorations(&g.decorations)?;
            self.loc(g.loc)?;
        }
        for (h, e) in m.ext_insts.iter() {
            self.place = Place::ExtInst(h);
            let own = Some(Value::ExtInst(h));
            self.ext_ids(&e.inst)?;
            self.results(Some(e.inst.result_type), Some(e.inst.result_id), own)?;
            self.loc(e.loc)?;
        }
        Ok(())
    }

    fn function(&mut self, h: Handle<Function>, f: &'m Function) -> Result<(), IrError> {
        self.enter(None);
        self.place = Place::Function(h);
        self.ty(f.ty)?;
        if !matches!(self.m.types.get(f.ty), Some(Type::Function { .. })) {
            let t = Value::Type(f.ty);
            return Err(self.fail(format!("its type {t} is not a function type")));
        }
        self.enter(Some(f));
        self.decorations(&f.decorations)?;
        self.loc(f.loc)?;
        for (i, p) in f.params.iter().enumerate() {
            self.place = Place::Param(h, i as u32);
            self.ty(p.ty)?;
            self.decorations(&p.decorations)?;
            self.loc(p.loc)?;
        }
        for (a, arg) in f.block_args.iter() {
            self.place = Place::BlockArg(h, a);
            self.ty(arg.ty)?;
            self.decorations(&arg.decorations)?;
            self.loc(arg.loc)?;
        }
        for &op in &f.header {
            self.place = Place::Op(h, None, op);
            self.op(f, op)?;
        }
        for (bh, b) in f.blocks.iter() {
            self.place = Place::Block(h, bh);
            for &a in &b.args {
                self.value(Value::BlockArg(a))?;
            }
            for &op in &b.ops {
                self.place = Place::Op(h, Some(bh), op);
                self.op(f, op)?;
            }
            self.place = Place::Block(h, bh);
            if let Some(s) = &b.structure {
                self.value(Value::Block(s.merge()))?;
                if let super::Structure::Loop {
                    continue_target, ..
                } = s
                {
                    self.value(Value::Block(*continue_target))?;
                }
            }
            match &b.terminator {
                Terminator::BranchConditional { condition: v, .. }
                | Terminator::Switch { selector: v, .. }
                | Terminator::ReturnValue(v) => self.value(*v)?,
                Terminator::Other(inst) => self.inst(inst, None)?,
                _ => {}
            }
            for s in b.terminator.successors() {
                self.value(Value::Block(s.block))?;
                let takes = f.blocks[s.block].args.len();
                if s.args.len() != takes {
                    let (n, to) = (s.args.len(), Value::Block(s.block));
                    return Err(
                        self.fail(format!("it passes {n} values to {to}, which takes {takes}"))
                    );
                }
                s.args.iter().try_for_each(|&v| self.value(v))?;
            }
            self.loc(b.terminator_loc)?;
        }
        Ok(())
    }

    fn op(&self, f: &Function, h: Handle<Op>) -> Result<(), IrError> {
        self.value(Value::Op(h))?;
        let op = &f.ops[h];
        self.inst(&op.inst, Some(Value::Op(h)))?;
        self.loc(op.loc)?;
        self.decorations(op.decorations())
    }
}
