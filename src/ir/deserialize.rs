//! Binary → IR.
//!
//! One pass over the module with the streaming decoder, plus cheap raw scans that number what
//! may be referred to before it is defined:
//!
//! - debug names and decorations (which precede their targets) are collected per id and folded
//!   into each entity as it is created; decoration groups are expanded;
//! - types and constants are uniqued as they are read (forward-declared pointers reserve their
//!   handle at `OpTypeForwardPointer`), so duplicates merge;
//! - `OpVariable`s and specialization constants at module scope become symbols;
//! - every function is scanned once to number its parameters, blocks, block arguments (from
//!   `OpPhi`) and ops, then decoded with ids replaced by packed [`Value`]s; merge instructions
//!   become [`Structure`]s, and each `OpPhi`'s (value, parent) pairs become the arguments its
//!   predecessors pass;
//! - `OpLine`/`OpNoLine` become the [`Loc`] of each entity and op they apply to;
//! - entry points, execution modes, module-level extended instructions and decorations with id
//!   operands are resolved at the end, since they may refer forward.

use super::arena::{FxHashMap, Handle, PushOne};
use super::constants::{Constant, ConstantValue, SpecConstant, SpecValue};
use super::error::{IrError, IrErrorKind};
use super::function::{
    is_block_terminator, Attrs, Block, BlockArg, Function, Op, Param, Structure, Successor,
    Terminator,
};
use super::module::{
    EntryPoint, ExecutionModeDecl, ExtInst, ExtInstImport, GlobalVariable, Loc, Module, Source,
};
use super::operands::{self, ExtOperands};
use super::types::{ImageDepth, ImageSampling, ImageType, Member, StructType, Type};
use super::value::{Value, MAX_PACKED_INDEX};
use crate::binary::{
    decode_operands, Decoder, Frames, OperandReader, RawInstruction, HEADER_WORDS,
};
use crate::grammar::tables::EXT_INST_SETS;
use crate::grammar::{
    result_shape, AddressingModel, Decoration, ExtInstSetDesc, Id, Ids, Instruction, MemoryModel,
    OpNop, Opcode, Version,
};

type Result<T> = core::result::Result<T, IrError>;

/// Builds the IR of a module from its words (native byte order; see
/// [`crate::binary::words_from_bytes`]).
pub fn deserialize(words: &[u32]) -> Result<Module> {
    Reader::new(words)?.run().map(|(m, _)| m)
}

/// Where the ops of a deserialized module were in the binary: for each function (in
/// [`Module::functions`] order), the word offset of each op (in op-arena order). Made by
/// [`deserialize_with_offsets`] for tools that report errors against the input, such as the
/// lowering.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WordOffsets {
    /// Per function, per op: the word offset of the op's instruction.
    pub ops: Vec<Vec<u32>>,
    /// Per function: the word offset of its `OpFunction`.
    pub functions: Vec<u32>,
    /// Per global variable (in [`Module::globals`] order): the word offset of its `OpVariable`.
    pub globals: Vec<u32>,
}

impl WordOffsets {
    /// The word offset of op `op` of function `function`.
    pub fn op(&self, function: Handle<Function>, op: Handle<Op>) -> Option<usize> {
        self.ops
            .get(function.index())?
            .get(op.index())
            .map(|&o| o as usize)
    }

    /// The word offset of global variable `global`'s `OpVariable`.
    pub fn global(&self, global: Handle<GlobalVariable>) -> Option<usize> {
        self.globals.get(global.index()).map(|&o| o as usize)
    }

    /// The word offset of function `function`'s `OpFunction`.
    pub fn function(&self, function: Handle<Function>) -> Option<usize> {
        self.functions.get(function.index()).map(|&o| o as usize)
    }
}

/// [`deserialize`], also recording the word offset of every op and function.
pub fn deserialize_with_offsets(words: &[u32]) -> Result<(Module, WordOffsets)> {
    let mut r = Reader::new(words)?;
    r.offsets = Some(WordOffsets::default());
    let (m, offsets) = r.run()?;
    Ok((m, offsets.unwrap_or_default()))
}

/// Id → u32 tables, allocated up front for the ids a module of this size can have.
type IdTable = crate::binary::IdMap<u32>;

fn id_table(bound: u32, words: usize) -> IdTable {
    let dense = (bound as usize).min(words.saturating_mul(2).saturating_add(1024));
    IdTable::preallocated(dense)
}

/// How many decorations and member names the module's debug and annotation sections hold at
/// most: the capacity of [`Reader::annots`], which otherwise doubles past the count.
fn annotation_count(words: &[u32]) -> usize {
    Frames::new(words, HEADER_WORDS)
        .map_while(|r| r.ok())
        .take_while(|raw| raw.opcode != OP_FUNCTION)
        .filter(|raw| {
            raw.opcode == OP_MEMBER_NAME
                || Opcode::from_u16(raw.opcode).is_some_and(Opcode::is_annotation)
        })
        .count()
}

/// Names and decorations collected for one id.
#[derive(Default)]
struct Annot {
    id: u32,
    offset: usize,
    name: Option<String>,
    member_names: Members<String>,
    decorations: Vec<Decoration>,
    member_decorations: Members<Decoration>,
    taken: bool,
}

/// Struct member names or decorations: boxed, as only struct types have them and there is an
/// [`Annot`] per named id (a large module has hundreds of thousands).
type Members<T> = Option<Box<Vec<(u32, T)>>>;

/// The members' list, created empty if need be.
fn members_mut<T>(m: &mut Members<T>) -> &mut Vec<(u32, T)> {
    m.get_or_insert_with(Box::default)
}

/// The members, taken.
fn members_into<T>(m: Members<T>) -> Vec<(u32, T)> {
    m.map(|b| *b).unwrap_or_default()
}

impl Annot {
    fn member_names_mut(&mut self) -> &mut Vec<(u32, String)> {
        members_mut(&mut self.member_names)
    }

    fn member_decorations_mut(&mut self) -> &mut Vec<(u32, Decoration)> {
        members_mut(&mut self.member_decorations)
    }

    fn is_empty(&self) -> bool {
        self.name.is_none()
            && self.member_names.is_none()
            && self.decorations.is_empty()
            && self.member_decorations.is_none()
    }
}

/// Where a decoration list with not-yet-defined id operands lives.
enum DecorationSite {
    Global(Handle<GlobalVariable>),
    Spec(Handle<SpecConstant>),
    Function(Handle<Function>),
    Param(Handle<Function>, usize),
    Op(Handle<Function>, Handle<Op>),
    BlockArg(Handle<Function>, Handle<BlockArg>),
}

struct Reader<'a> {
    words: &'a [u32],
    dec: Decoder<'a>,
    m: Module,
    ids: IdTable,
    annot_of: IdTable,
    annots: Vec<Annot>,
    /// Per id: the word offset + 1 of its `OpName` when it has no [`Annot`] (most named ids
    /// have a name only); the name is read from the words when the id's definition takes it.
    /// A large module names hundreds of thousands of ids: a table entry is 4 bytes where an
    /// `Annot` and its `String` are over 100.
    name_at: IdTable,
    import_sets: Vec<(Option<&'static ExtInstSetDesc>, bool)>,
    forward_pointers: FxHashMap<u32, (Handle<Type>, usize)>,
    loc: Option<Loc>,
    memory_model_seen: bool,
    functions_numbered: bool,
    definition_seen: bool,
    entry_points: Vec<(usize, crate::grammar::OpEntryPoint)>,
    execution_modes: Vec<(usize, Id, crate::grammar::ExecutionMode)>,
    ext_inst_offsets: Vec<usize>,
    decoration_fixups: Vec<(usize, DecorationSite)>,
    /// Reused per function: the `OpPhi`s read, resolved when the function ends.
    phis: Vec<PendingPhi>,
    /// Reused per function: the ids it defines, forgotten when it ends.
    local_ids: Vec<u32>,
    /// Reused per function: the number of ops of each block.
    block_sizes: Vec<u32>,
    /// Word offsets of functions and ops, when asked for.
    offsets: Option<WordOffsets>,
}

/// An `OpPhi` read: its block and its (value, parent) pairs, resolved when the function ends.
struct PendingPhi {
    block: Handle<Block>,
    pairs: Vec<(Id, Id)>,
    offset: usize,
}

/// The (parent, value) pairs of one block argument, and where its `OpPhi` was.
type Incoming = (Vec<(Handle<Block>, Value)>, usize);

/// A block being read.
struct OpenBlock {
    label: Handle<Block>,
    name: Option<String>,
    args: Vec<Handle<BlockArg>>,
    ops: Vec<Handle<Op>>,
    structure: Option<Structure>,
}

const OP_FUNCTION: u16 = Opcode::Function as u16;
const OP_NAME: u16 = Opcode::Name as u16;
const OP_MEMBER_NAME: u16 = Opcode::MemberName as u16;

impl<'a> Reader<'a> {
    fn new(words: &'a [u32]) -> Result<Self> {
        let dec = Decoder::new(words)?;
        let header = *dec.header();
        let version = Version::from_word(header.version).ok_or(IrError::new(
            1,
            IrErrorKind::BadLiteral("the header's version word"),
        ))?;
        let mut m = Module::new(version, AddressingModel::Logical, MemoryModel::GLSL450);
        m.generator = header.generator;
        Ok(Reader {
            words,
            dec,
            m,
            ids: id_table(header.bound, words.len()),
            annot_of: id_table(header.bound, words.len()),
            annots: Vec::with_capacity(annotation_count(words)),
            name_at: id_table(header.bound, words.len()),
            import_sets: Vec::new(),
            forward_pointers: FxHashMap::default(),
            loc: None,
            memory_model_seen: false,
            functions_numbered: false,
            definition_seen: false,
            entry_points: Vec::new(),
            execution_modes: Vec::new(),
            ext_inst_offsets: Vec::new(),
            decoration_fixups: Vec::new(),
            phis: Vec::new(),
            local_ids: Vec::new(),
            block_sizes: Vec::new(),
            offsets: None,
        })
    }

    fn run(mut self) -> Result<(Module, Option<WordOffsets>)> {
        while let Some(raw) = self.dec.next_raw() {
            let raw = raw?;
            if raw.opcode == OP_FUNCTION {
                if !self.functions_numbered {
                    self.number_functions(raw.offset)?;
                }
                self.function(raw)?;
                continue;
            }
            if raw.opcode == OP_NAME && self.name_only(&raw) {
                continue;
            }
            let inst = self.dec.decode(raw)?;
            self.module_inst(raw.offset, inst)?;
        }
        let offsets = self.offsets.take();
        self.finish().map(|m| (m, offsets))
    }

    // -----------------------------------------------------------------------------------------
    // Ids

    fn define(&mut self, id: Id, v: Value, offset: usize) -> Result<()> {
        if self.ids.get(id.0) != 0 {
            return Err(IrError::new(offset, IrErrorKind::Redefined(id.0)));
        }
        let packed = v.try_to_id().ok_or(IrError::new(
            offset,
            IrErrorKind::Unsupported("more than 2^28 entities of one kind"),
        ))?;
        self.ids.set(id.0, packed.0);
        Ok(())
    }

    #[inline]
    fn value(&self, id: Id, offset: usize) -> Result<Value> {
        Value::from_id(Id(self.ids.get(id.0)))
            .ok_or(IrError::new(offset, IrErrorKind::UndefinedId(id.0)))
    }

    fn ty(&self, id: Id, offset: usize) -> Result<Handle<Type>> {
        match self.value(id, offset)? {
            Value::Type(t) => Ok(t),
            _ => Err(wrong(id, "a type", offset)),
        }
    }

    fn block(&self, id: Id, offset: usize) -> Result<Handle<Block>> {
        match self.value(id, offset)? {
            Value::Block(b) => Ok(b),
            _ => Err(wrong(id, "a block label", offset)),
        }
    }

    fn string(&self, id: Id, offset: usize) -> Result<Handle<String>> {
        match self.value(id, offset)? {
            Value::String(s) => Ok(s),
            _ => Err(wrong(id, "an OpString", offset)),
        }
    }

    /// Replaces every id of `inst` (`OpExtInst` operands included) by its packed value.
    fn remap(&self, inst: &mut Instruction, offset: usize) -> Result<()> {
        let result_type = inst.result_type();
        let mut err = None;
        let import_sets = &self.import_sets;
        let ids = &self.ids;
        let mut unknown_ext = false;
        operands::visit_ids_mut(
            inst,
            |set, number| {
                let mode = match Value::from_id(Id(ids.get(set.0))) {
                    Some(Value::ExtInstSet(h)) => match import_sets.get(h.index()) {
                        Some(&(_, true)) => ExtOperands::AllIds,
                        Some(&(Some(desc), false)) => desc
                            .instruction(number)
                            .map_or(ExtOperands::Unknown, ExtOperands::Grammar),
                        _ => ExtOperands::Unknown,
                    },
                    _ => ExtOperands::Unknown,
                };
                unknown_ext = matches!(mode, ExtOperands::Unknown);
                mode
            },
            &mut |id: &mut Id| {
                let v = ids.get(id.0);
                if v == 0 {
                    err.get_or_insert(IrError::new(offset, IrErrorKind::UndefinedId(id.0)));
                }
                id.0 = v;
            },
        );
        if unknown_ext {
            return Err(IrError::new(
                offset,
                IrErrorKind::Unsupported(
                    "an extended instruction of a set the grammar does not know (its ids cannot be told from literals)",
                ),
            ));
        }
        err.map_or(Ok(()), Err)?;
        // A result type must be a type (as `ir::check` requires of every module).
        match (result_type, inst.result_type().map(Value::from_id)) {
            (Some(id), Some(v)) if !matches!(v, Some(Value::Type(_))) => {
                Err(wrong(id, "a type", offset))
            }
            _ => Ok(()),
        }
    }

    // -----------------------------------------------------------------------------------------
    // Annotations

    fn annot_mut(&mut self, id: Id, offset: usize) -> &mut Annot {
        let i = self.annot_of.get(id.0) as usize;
        if i == 0 {
            self.annots.push(Annot {
                id: id.0,
                offset,
                ..Annot::default()
            });
            self.annot_of.set(id.0, self.annots.len() as u32);
            let last = self.annots.len() - 1;
            &mut self.annots[last]
        } else {
            &mut self.annots[i - 1]
        }
    }

    /// The names and decorations of `id`, taken.
    #[inline]
    fn take_annot(&mut self, id: Id) -> Option<Annot> {
        let named = self.take_name(id);
        let i = self.annot_of.get(id.0) as usize;
        if i == 0 {
            return named.map(|name| Annot {
                id: id.0,
                name: Some(name),
                taken: true,
                ..Annot::default()
            });
        }
        let a = &mut self.annots[i - 1];
        a.taken = true;
        Some(Annot {
            id: a.id,
            offset: a.offset,
            // A name in the annotation came after the one in `name_at`.
            name: a.name.take().or(named),
            member_names: core::mem::take(&mut a.member_names),
            decorations: core::mem::take(&mut a.decorations),
            member_decorations: core::mem::take(&mut a.member_decorations),
            taken: true,
        })
    }

    /// Records a well-formed `OpName` of an id that has no [`Annot`] in `name_at`, without
    /// decoding its string (read when the id is defined); `false` leaves it to the full decode,
    /// which reports what is wrong with it.
    fn name_only(&mut self, raw: &RawInstruction<'_>) -> bool {
        let [target, ref string @ ..] = *raw.operands else {
            return false;
        };
        let well_formed = !self.functions_numbered
            && target != 0
            && target < self.dec.header().bound
            && crate::binary::string_in(string).is_ok_and(|(_, used)| used == string.len());
        match u32::try_from(raw.offset + 1) {
            Ok(at) if well_formed && self.annot_of.get(target) == 0 => {
                self.name_at.set(target, at);
                true
            }
            _ => false,
        }
    }

    /// The name `name_at` holds for `id`, read from its `OpName` (already decoded once, so
    /// valid), and forgotten.
    fn take_name(&mut self, id: Id) -> Option<String> {
        let at = self.name_at.get(id.0) as usize;
        if at == 0 {
            return None;
        }
        self.name_at.set(id.0, 0);
        let operands = crate::binary::frame_at(self.words, at - 1)?.operands;
        crate::binary::string_in(operands.get(1..)?)
            .ok()
            .map(|(s, _)| s.to_owned())
    }

    fn name_and_decorations(
        &mut self,
        id: Id,
        offset: usize,
    ) -> Result<(Option<String>, Vec<Decoration>)> {
        match self.take_annot(id) {
            None => Ok((None, Vec::new())),
            Some(a) => {
                if a.member_names.is_some() || a.member_decorations.is_some() {
                    return Err(IrError::new(
                        offset,
                        IrErrorKind::Malformed(
                            "member names or decorations on something that is not a struct",
                        ),
                    ));
                }
                Ok((a.name, a.decorations))
            }
        }
    }

    /// Remaps the id operands of decorations now if they are all defined; otherwise leaves
    /// them and returns `false` (to be fixed up at the end).
    fn remap_decorations_now(&self, decs: &mut [Decoration]) -> bool {
        let mut all = true;
        let mut any = false;
        for d in decs.iter() {
            d.visit_ids(&mut |id| {
                any = true;
                all &= self.ids.get(id.0) != 0;
            });
        }
        if !any {
            return true;
        }
        if !all {
            return false;
        }
        for d in decs.iter_mut() {
            d.visit_ids_mut(&mut |id| id.0 = self.ids.get(id.0));
        }
        true
    }

    /// Remaps decoration ids that must be defined already (decorations of types and
    /// constants, which are part of their identity).
    fn remap_decorations_strict(&self, decs: &mut [Decoration], offset: usize) -> Result<()> {
        if self.remap_decorations_now(decs) {
            Ok(())
        } else {
            Err(IrError::new(
                offset,
                IrErrorKind::Unsupported(
                    "a decoration of a type or constant that refers to a later id",
                ),
            ))
        }
    }

    fn fold_decorations(&mut self, decs: &mut [Decoration], site: DecorationSite, offset: usize) {
        if !self.remap_decorations_now(decs) {
            self.decoration_fixups.push((offset, site));
        }
    }

    // -----------------------------------------------------------------------------------------
    // Module-level instructions

    fn module_inst(&mut self, offset: usize, inst: Instruction) -> Result<()> {
        use Instruction as I;
        if self.functions_numbered {
            // After the first function only functions, line information and (non-semantic)
            // extended instructions may follow.
            return match inst {
                I::Line(_) | I::NoLine(_) => self.line(&inst, offset),
                I::Nop(_) => Ok(()),
                I::ExtInst(op) => self.module_ext_inst(op, offset, true),
                _ => Err(IrError::new(
                    offset,
                    IrErrorKind::Misplaced("a module-level instruction after the first function"),
                )),
            };
        }
        match inst {
            I::Nop(_) => {}
            I::Capability(op) => self.m.capabilities.push(op.capability),
            I::Extension(op) => self.m.extensions.push(op.name),
            I::ExtInstImport(op) => {
                let h = self
                    .m
                    .ext_inst_imports
                    .append(ExtInstImport { name: op.name });
                let import = &self.m.ext_inst_imports[h];
                let desc = EXT_INST_SETS.iter().find(|s| s.name == import.name);
                self.import_sets.push((desc, import.is_non_semantic()));
                self.define(op.result_id, Value::ExtInstSet(h), offset)?;
                self.take_annot(op.result_id);
            }
            I::MemoryModel(op) => {
                self.m.addressing_model = op.addressing_model;
                self.m.memory_model = op.memory_model;
                self.memory_model_seen = true;
            }
            I::EntryPoint(op) => self.entry_points.push((offset, op)),
            I::ExecutionMode(op) => self.execution_modes.push((offset, op.entry_point, op.mode)),
            I::ExecutionModeId(op) => self.execution_modes.push((offset, op.entry_point, op.mode)),
            I::String(op) => {
                let h = self.m.strings.append(op.string);
                self.define(op.result_id, Value::String(h), offset)?;
                self.take_annot(op.result_id);
            }
            I::Source(op) => {
                let file = match op.file {
                    Some(f) => Some(self.string(f, offset)?),
                    None => None,
                };
                self.m.sources.push(Source {
                    language: op.source_language,
                    version: op.version,
                    file,
                    text: op.source,
                });
            }
            I::SourceContinued(op) => match self.m.sources.last_mut() {
                Some(s) => s
                    .text
                    .get_or_insert_with(String::new)
                    .push_str(&op.continued_source),
                None => {
                    return Err(IrError::new(
                        offset,
                        IrErrorKind::Misplaced("OpSourceContinued without OpSource"),
                    ))
                }
            },
            I::SourceExtension(op) => self.m.source_extensions.push(op.extension),
            I::ModuleProcessed(op) => self.m.processes.push(op.process),
            I::Name(op) => {
                let at = u32::try_from(offset + 1).ok().filter(|_| {
                    self.annot_of.get(op.target.0) == 0 && self.words.get(offset + 2).is_some()
                });
                match at {
                    Some(at) => self.name_at.set(op.target.0, at),
                    None => self.annot_mut(op.target, offset).name = Some(op.name),
                }
            }
            I::MemberName(op) => self
                .annot_mut(op.type_, offset)
                .member_names_mut()
                .push((op.member, op.name)),
            I::Decorate(op) => self
                .annot_mut(op.target, offset)
                .decorations
                .push_one(op.decoration),
            I::DecorateId(op) => self
                .annot_mut(op.target, offset)
                .decorations
                .push_one(op.decoration),
            I::DecorateString(op) => self
                .annot_mut(op.target, offset)
                .decorations
                .push_one(op.decoration),
            I::MemberDecorate(op) => self
                .annot_mut(op.structure_type, offset)
                .member_decorations_mut()
                .push((op.member, op.decoration)),
            I::MemberDecorateString(op) => self
                .annot_mut(op.struct_type, offset)
                .member_decorations_mut()
                .push((op.member, op.decoration)),
            I::DecorationGroup(op) => {
                // The group's decorations stay under its id until OpGroupDecorate copies them.
                self.annot_mut(op.result_id, offset).taken = true;
            }
            I::GroupDecorate(op) => {
                let decs = self.group_decorations(op.decoration_group, offset)?;
                self.no_group_targets(op.targets.iter().copied(), offset)?;
                for t in op.targets {
                    self.annot_mut(t, offset)
                        .decorations
                        .extend(decs.iter().cloned());
                }
            }
            I::GroupMemberDecorate(op) => {
                let decs = self.group_decorations(op.decoration_group, offset)?;
                self.no_group_targets(op.targets.iter().map(|t| t.0), offset)?;
                for (t, member) in op.targets {
                    let a = self.annot_mut(t, offset);
                    if !decs.is_empty() {
                        a.member_decorations_mut()
                            .extend(decs.iter().map(|d| (member, d.clone())));
                    }
                }
            }
            I::Line(_) | I::NoLine(_) => self.line(&inst, offset)?,
            I::Variable(op) => {
                let ty = self.ty(op.result_type, offset)?;
                let initializer = match op.initializer {
                    Some(i) => Some(self.value(i, offset)?),
                    None => None,
                };
                let (name, mut decorations) = self.name_and_decorations(op.result_id, offset)?;
                let h = self.m.globals.next_handle();
                self.fold_decorations(&mut decorations, DecorationSite::Global(h), offset);
                if let Some(o) = self.offsets.as_mut() {
                    o.globals.push(offset as u32);
                }
                self.m.globals.append(GlobalVariable {
                    name,
                    ty,
                    storage_class: op.storage_class,
                    initializer,
                    decorations,
                    loc: self.loc,
                });
                self.define(op.result_id, Value::Global(h), offset)?;
            }
            I::ExtInst(op) => self.module_ext_inst(op, offset, false)?,
            I::TypeForwardPointer(op) => {
                if self.ids.get(op.pointer_type.0) != 0 {
                    return Err(IrError::new(
                        offset,
                        IrErrorKind::Redefined(op.pointer_type.0),
                    ));
                }
                let h = self.m.types.reserve(Type::Void);
                self.define(op.pointer_type, Value::Type(h), offset)?;
                self.forward_pointers.insert(op.pointer_type.0, (h, offset));
            }
            I::Unknown(_) => {
                return Err(IrError::new(
                    offset,
                    IrErrorKind::Unsupported(
                        "an instruction with an opcode or operand value the grammar does not know",
                    ),
                ))
            }
            inst => match DeclKind::of(&inst) {
                DeclKind::Type => self.type_decl(offset, inst)?,
                DeclKind::Constant => self.constant_decl(offset, inst)?,
                DeclKind::Other => {
                    return Err(IrError::new(
                        offset,
                        IrErrorKind::Misplaced("an instruction that belongs in a function"),
                    ))
                }
            },
        }
        Ok(())
    }

    fn module_ext_inst(
        &mut self,
        op: crate::grammar::OpExtInst,
        offset: usize,
        after_functions: bool,
    ) -> Result<()> {
        let set = self.value(op.set, offset)?;
        if !matches!(set, Value::ExtInstSet(_)) {
            return Err(wrong(op.set, "an extended instruction set import", offset));
        }
        let (name, decorations) = self.name_and_decorations(op.result_id, offset)?;
        if !decorations.is_empty() {
            return Err(IrError::new(
                offset,
                IrErrorKind::Unsupported("decorations of a module-level OpExtInst"),
            ));
        }
        let h = self.m.ext_insts.next_handle();
        self.define(op.result_id, Value::ExtInst(h), offset)?;
        self.m.ext_insts.append(ExtInst {
            inst: op,
            name,
            loc: self.loc,
            after_functions,
        });
        self.ext_inst_offsets.push(offset);
        Ok(())
    }

    /// Fails if a group decoration targets a decoration group, as SPIR-V forbids: groups
    /// decorating each other would copy their lists back and forth, doubling them each time.
    fn no_group_targets(&self, targets: impl Iterator<Item = Id>, offset: usize) -> Result<()> {
        for t in targets {
            let i = self.annot_of.get(t.0) as usize;
            // In the annotation section only a decoration group's annotation is taken yet.
            if self.annots.get(i.wrapping_sub(1)).is_some_and(|a| a.taken) {
                return Err(IrError::new(
                    offset,
                    IrErrorKind::Malformed("a group decoration targets a decoration group"),
                ));
            }
        }
        Ok(())
    }

    fn group_decorations(&mut self, group: Id, offset: usize) -> Result<Vec<Decoration>> {
        let i = self.annot_of.get(group.0) as usize;
        match self.annots.get(i.wrapping_sub(1)) {
            // Taken: made by OpDecorationGroup (see `no_group_targets`). Copying any other id's
            // decorations would let a module grow its lists exponentially.
            Some(a) if a.taken => Ok(a.decorations.clone()),
            Some(_) => Err(IrError::new(
                offset,
                IrErrorKind::WrongKind {
                    id: group.0,
                    expected: "a decoration group",
                },
            )),
            None => Err(IrError::new(offset, IrErrorKind::UndefinedId(group.0))),
        }
    }

    fn line(&mut self, inst: &Instruction, offset: usize) -> Result<()> {
        match inst {
            Instruction::Line(op) => {
                self.loc = Some(Loc {
                    file: self.string(op.file, offset)?,
                    line: op.line,
                    column: op.column,
                })
            }
            _ => self.loc = None,
        }
        Ok(())
    }

    // -----------------------------------------------------------------------------------------
    // Types

    fn type_decl(&mut self, offset: usize, inst: Instruction) -> Result<()> {
        use Instruction as I;
        let Some(id) = inst.result_id() else {
            return Err(IrError::new(
                offset,
                IrErrorKind::Unsupported("a type instruction without a result id"),
            ));
        };
        let annot = self.take_annot(id);
        let (mut name, mut decorations, member_names, member_decorations) = match annot {
            Some(a) => (
                a.name,
                a.decorations,
                members_into(a.member_names),
                members_into(a.member_decorations),
            ),
            None => (None, Vec::new(), Vec::new(), Vec::new()),
        };
        self.remap_decorations_strict(&mut decorations, offset)?;
        if !matches!(inst, I::TypeStruct(_))
            && (!member_names.is_empty() || !member_decorations.is_empty())
        {
            return Err(IrError::new(
                offset,
                IrErrorKind::Malformed(
                    "member names or decorations on a type that is not a struct",
                ),
            ));
        }
        let ty = match inst {
            I::TypeVoid(_) => Type::Void,
            I::TypeBool(_) => Type::Bool,
            I::TypeInt(op) => Type::Int {
                width: op.width,
                signed: match op.signedness {
                    0 => false,
                    1 => true,
                    _ => {
                        return Err(IrError::new(
                            offset,
                            IrErrorKind::BadLiteral("OpTypeInt signedness is not 0 or 1"),
                        ))
                    }
                },
            },
            I::TypeFloat(op) => Type::Float { width: op.width },
            I::TypeVector(op) => Type::Vector {
                component: self.ty(op.component_type, offset)?,
                count: op.component_count,
            },
            I::TypeMatrix(op) => Type::Matrix {
                column: self.ty(op.column_type, offset)?,
                count: op.column_count,
            },
            I::TypeImage(op) => Type::Image(ImageType {
                sampled_type: self.ty(op.sampled_type, offset)?,
                dim: op.dim,
                depth: ImageDepth::from_u32(op.depth).ok_or(IrError::new(
                    offset,
                    IrErrorKind::BadLiteral("OpTypeImage Depth is not 0, 1 or 2"),
                ))?,
                arrayed: bool_literal(op.arrayed, "OpTypeImage Arrayed", offset)?,
                multisampled: bool_literal(op.ms, "OpTypeImage MS", offset)?,
                sampled: ImageSampling::from_u32(op.sampled).ok_or(IrError::new(
                    offset,
                    IrErrorKind::BadLiteral("OpTypeImage Sampled is not 0, 1 or 2"),
                ))?,
                format: op.image_format,
                access: op.access_qualifier,
            }),
            I::TypeSampler(_) => Type::Sampler,
            I::TypeSampledImage(op) => Type::SampledImage {
                image: self.ty(op.image_type, offset)?,
            },
            I::TypeArray(op) => {
                let length = self.value(op.length, offset)?;
                if !matches!(length, Value::Constant(_) | Value::SpecConstant(_)) {
                    return Err(wrong(op.length, "a constant", offset));
                }
                Type::Array {
                    element: self.ty(op.element_type, offset)?,
                    length,
                    stride: take_stride(&mut decorations),
                }
            }
            I::TypeRuntimeArray(op) => Type::RuntimeArray {
                element: self.ty(op.element_type, offset)?,
                stride: take_stride(&mut decorations),
            },
            I::TypePointer(op) => Type::Pointer {
                storage_class: op.storage_class,
                pointee: self.ty(op.type_, offset)?,
                stride: take_stride(&mut decorations),
            },
            I::TypeStruct(op) => {
                let mut members = Vec::with_capacity(op.member_types.len());
                for &t in &op.member_types {
                    members.push(Member::new(self.ty(t, offset)?));
                }
                for (i, n) in member_names {
                    members
                        .get_mut(i as usize)
                        .ok_or(IrError::new(
                            offset,
                            IrErrorKind::Malformed(
                                "OpMemberName of a member the struct does not have",
                            ),
                        ))?
                        .name = Some(n);
                }
                for (i, mut d) in member_decorations {
                    self.remap_decorations_strict(core::slice::from_mut(&mut d), offset)?;
                    let m = members.get_mut(i as usize).ok_or(IrError::new(
                        offset,
                        IrErrorKind::Malformed(
                            "OpMemberDecorate of a member the struct does not have",
                        ),
                    ))?;
                    match d {
                        Decoration::Offset(o) if m.offset.is_none() => m.offset = Some(o),
                        d => m.decorations.push(d),
                    }
                }
                Type::Struct(StructType {
                    name: name.take(),
                    members,
                    decorations: core::mem::take(&mut decorations),
                })
            }
            I::TypeOpaque(op) => Type::Opaque {
                name: op.the_name_of_the_opaque_type,
            },
            I::TypeFunction(op) => {
                let ret = self.ty(op.return_type, offset)?;
                let mut params = Vec::with_capacity(op.parameter_types.len());
                for &p in &op.parameter_types {
                    params.push(self.ty(p, offset)?);
                }
                Type::Function { ret, params }
            }
            I::TypeEvent(_) => Type::Event,
            I::TypeDeviceEvent(_) => Type::DeviceEvent,
            I::TypeReserveId(_) => Type::ReserveId,
            I::TypeQueue(_) => Type::Queue,
            I::TypePipe(op) => Type::Pipe {
                access: op.qualifier,
            },
            I::TypePipeStorage(_) => Type::PipeStorage,
            I::TypeNamedBarrier(_) => Type::NamedBarrier,
            mut other => {
                self.remap_fresh(&mut other, offset)?;
                Type::Other(other)
            }
        };
        let h = if let Some((h, _)) = self.forward_pointers.remove(&id.0) {
            if !matches!(ty, Type::Pointer { .. }) {
                return Err(wrong(
                    id,
                    "a pointer type (it was forward-declared)",
                    offset,
                ));
            }
            self.m.types.replace(h, ty);
            h
        } else {
            // Structs have identity (two declarations are two types, as `OpCopyLogical`
            // between them shows); every other type is unique by structure.
            let h = if matches!(ty, Type::Struct(_)) {
                self.m.types.append(ty)
            } else {
                self.m.types.insert(ty)
            };
            self.define(id, Value::Type(h), offset)?;
            h
        };
        if let Some(n) = name {
            self.m.type_names.entry(h).or_insert(n);
        }
        if !decorations.is_empty() {
            self.m.type_decorations.entry(h).or_insert(decorations);
        }
        Ok(())
    }

    /// Remaps an instruction whose result id does not get a value of its own here (uniqued
    /// types and constants): the result type and result id become `Id(0)`.
    fn remap_fresh(&self, inst: &mut Instruction, offset: usize) -> Result<()> {
        let op = inst.opcode();
        let skip = op.map_or(0, |o| {
            usize::from(o.has_result_type()) + usize::from(o.has_result_id())
        });
        let mut n = 0;
        let mut err = None;
        inst.visit_ids_mut(&mut |id| {
            n += 1;
            if n <= skip {
                *id = Id(0);
            } else {
                let v = self.ids.get(id.0);
                if v == 0 {
                    err.get_or_insert(IrError::new(offset, IrErrorKind::UndefinedId(id.0)));
                }
                id.0 = v;
            }
        });
        err.map_or(Ok(()), Err)
    }

    // -----------------------------------------------------------------------------------------
    // Constants and specialization constants

    fn constant_decl(&mut self, offset: usize, inst: Instruction) -> Result<()> {
        use Instruction as I;
        let (Some(ty_id), Some(id)) = (inst.result_type(), inst.result_id()) else {
            return Err(IrError::new(
                offset,
                IrErrorKind::Unsupported("a constant instruction without a result type and id"),
            ));
        };
        let ty = self.ty(ty_id, offset)?;
        let spec = match inst {
            I::SpecConstantTrue(_) => Some(SpecValue::Bool(true)),
            I::SpecConstantFalse(_) => Some(SpecValue::Bool(false)),
            I::SpecConstant(ref op) => Some(SpecValue::Scalar(op.value.clone())),
            I::SpecConstantComposite(ref op) => {
                let mut ids = op.constituents.clone();
                ids.extend(self.continuations(offset, Opcode::SpecConstantCompositeContinuedINTEL));
                let mut vs = Vec::with_capacity(ids.len());
                for &c in &ids {
                    let v = self.value(c, offset)?;
                    if !matches!(v, Value::Constant(_) | Value::SpecConstant(_)) {
                        return Err(wrong(c, "a constant or specialization constant", offset));
                    }
                    vs.push(v);
                }
                Some(SpecValue::Composite(vs))
            }
            I::SpecConstantOp(ref op) => {
                let mut operation = op.opcode.clone();
                let mut err = None;
                operation.visit_ids_mut(&mut |id| {
                    let v = self.ids.get(id.0);
                    if v == 0 {
                        err.get_or_insert(IrError::new(offset, IrErrorKind::UndefinedId(id.0)));
                    }
                    id.0 = v;
                });
                if let Some(e) = err {
                    return Err(e);
                }
                Some(SpecValue::Op(operation))
            }
            _ => None,
        };
        if let Some(value) = spec {
            let (name, mut decorations) = self.name_and_decorations(id, offset)?;
            let spec_id = decorations
                .iter()
                .position(|d| matches!(d, Decoration::SpecId(_)))
                .and_then(|i| match decorations.remove(i) {
                    Decoration::SpecId(s) => Some(s),
                    _ => None,
                });
            let h = self.m.spec_constants.next_handle();
            self.fold_decorations(&mut decorations, DecorationSite::Spec(h), offset);
            self.m.spec_constants.append(SpecConstant {
                ty,
                value,
                spec_id,
                name,
                decorations,
                loc: self.loc,
            });
            return self.define(id, Value::SpecConstant(h), offset);
        }
        let value = match inst {
            I::ConstantTrue(_) => ConstantValue::Bool(true),
            I::ConstantFalse(_) => ConstantValue::Bool(false),
            I::Constant(op) => ConstantValue::Scalar(op.value),
            I::ConstantComposite(mut op) => {
                op.constituents
                    .extend(self.continuations(offset, Opcode::ConstantCompositeContinuedINTEL));
                let mut cs = Vec::with_capacity(op.constituents.len());
                for &c in &op.constituents {
                    let v = self.value(c, offset)?;
                    if !matches!(v, Value::Constant(_) | Value::SpecConstant(_)) {
                        return Err(wrong(c, "a constant", offset));
                    }
                    cs.push(v);
                }
                ConstantValue::Composite(cs)
            }
            I::ConstantNull(_) => ConstantValue::Null,
            I::Undef(_) => ConstantValue::Undef,
            I::ConstantSampler(op) => ConstantValue::Sampler {
                addressing: op.sampler_addressing_mode,
                normalized: bool_literal(op.param, "OpConstantSampler Param", offset)?,
                filter: op.sampler_filter_mode,
            },
            mut other => {
                self.remap_fresh(&mut other, offset)?;
                ConstantValue::Other(other)
            }
        };
        self.add_constant(id, ty, value, offset)
    }

    /// The constituents of the SPV_INTEL_long_composites continuations (`continued`) that
    /// follow the instruction at `offset`, which are consumed: a composite longer than one
    /// instruction holds is one constant here.
    fn continuations(&mut self, offset: usize, continued: Opcode) -> Vec<Id> {
        let mut ids = Vec::new();
        let mut frames = Frames::new(self.words, offset).map_while(|r| r.ok());
        frames.next();
        for raw in frames {
            if raw.opcode != continued as u16 {
                break;
            }
            ids.extend(raw.operands.iter().map(|&w| Id(w)));
            self.dec.next_raw();
        }
        ids
    }

    fn add_constant(
        &mut self,
        id: Id,
        ty: Handle<Type>,
        value: ConstantValue,
        offset: usize,
    ) -> Result<()> {
        let (name, mut decorations) = self.name_and_decorations(id, offset)?;
        self.remap_decorations_strict(&mut decorations, offset)?;
        let h = self.m.constants.insert(Constant {
            ty,
            value,
            name,
            decorations,
        });
        self.define(id, Value::Constant(h), offset)
    }

    // -----------------------------------------------------------------------------------------
    // Functions

    /// Numbers every function of the module (they may be called before they are defined).
    fn number_functions(&mut self, pos: usize) -> Result<()> {
        self.functions_numbered = true;
        let mut n = 0usize;
        // A malformed word count ends the walk: the decoder reports it.
        for raw in Frames::new(self.words, pos).map_while(|r| r.ok()) {
            if let (OP_FUNCTION, [_, id, ..]) = (raw.opcode, raw.operands) {
                self.define(Id(*id), Value::Function(Handle::new(n)), raw.offset)?;
                n += 1;
            }
        }
        Ok(())
    }

    /// Numbers the parameters, blocks, block arguments and ops of the function starting at
    /// `pos` (the word after `OpFunction`). Returns (ops, blocks).
    fn number_function_body(&mut self, start: usize) -> Result<(usize, usize)> {
        let (mut params, mut blocks, mut args, mut ops) = (0u32, 0usize, 0usize, 0usize);
        self.block_sizes.clear();
        for raw in Frames::new(self.words, start).map_while(|r| r.ok()) {
            let (pos, opcode, operands) = (raw.offset, raw.opcode, raw.operands);
            let (has_type, has_result) = result_shape(opcode);
            let result = if has_result {
                operands.get(usize::from(has_type)).copied().map(Id)
            } else {
                None
            };
            let value = match BodyKind::of(opcode) {
                BodyKind::FunctionEnd => break,
                BodyKind::Function => {
                    return Err(IrError::new(
                        pos,
                        IrErrorKind::Misplaced("OpFunction inside a function"),
                    ))
                }
                BodyKind::Param => {
                    params += 1;
                    Some(Value::Param(params - 1))
                }
                BodyKind::Label => {
                    blocks += 1;
                    self.block_sizes.push(0);
                    Some(Value::Block(Handle::new(blocks - 1)))
                }
                BodyKind::Phi => {
                    args += 1;
                    Some(Value::BlockArg(Handle::new(args - 1)))
                }
                BodyKind::Undef => {
                    // A function-local OpUndef is the module's undefined constant of its type.
                    if let [ty, id, ..] = *operands {
                        let ty = self.ty(Id(ty), pos)?;
                        self.add_constant(Id(id), ty, ConstantValue::Undef, pos)?;
                    }
                    None
                }
                BodyKind::Other => None,
                BodyKind::Op => {
                    ops += 1;
                    if let Some(n) = self.block_sizes.last_mut() {
                        *n += 1;
                    }
                    Some(Value::Op(Handle::new(ops - 1)))
                }
            };
            if let (Some(v), Some(id)) = (value, result) {
                if ops > MAX_PACKED_INDEX || blocks > MAX_PACKED_INDEX || args > MAX_PACKED_INDEX {
                    return Err(IrError::new(
                        pos,
                        IrErrorKind::Unsupported("more than 2^28 entities of one kind"),
                    ));
                }
                self.define(id, v, pos)?;
                self.local_ids.push(id.0);
            }
        }
        Ok((ops, blocks))
    }

    fn function(&mut self, raw: RawInstruction<'a>) -> Result<()> {
        let offset = raw.offset;
        let Instruction::Function(fop) = self.dec.decode(raw)? else {
            return Err(IrError::new(offset, IrErrorKind::Malformed("OpFunction")));
        };
        let handle = self.m.functions.next_handle();
        if let Some(o) = self.offsets.as_mut() {
            o.functions.push(offset as u32);
            o.ops.push(Vec::new());
        }
        let ty = self.ty(fop.function_type, offset)?;
        if !matches!(self.m.types.get(ty), Some(Type::Function { .. })) {
            return Err(wrong(fop.function_type, "a function type", offset));
        }
        let (name, mut decorations) = self.name_and_decorations(fop.result_id, offset)?;
        self.fold_decorations(&mut decorations, DecorationSite::Function(handle), offset);
        let (n_ops, n_blocks) = self.number_function_body(offset + raw.operands.len() + 1)?;
        let mut f = Function::new(ty, fop.function_control);
        f.name = name;
        f.decorations = decorations;
        f.loc = self.loc;
        f.ops = super::arena::Arena::with_capacity(n_ops);
        f.blocks = super::arena::Arena::with_capacity(n_blocks);
        self.phis.clear();

        let mut open: Option<OpenBlock> = None;
        let mut ended = false;
        while let Some(raw) = self.dec.next_raw() {
            let raw = raw?;
            let off = raw.offset;
            // The common case, an op inside a block, goes straight into the op arena and is
            // rewritten there.
            if let Some(b) = open.as_mut().filter(|b| b.structure.is_none()) {
                if BodyKind::of(raw.opcode) == BodyKind::Op {
                    let (has_type, has_result) = result_shape(raw.opcode);
                    let result = has_result
                        .then(|| raw.operands.get(usize::from(has_type)).copied())
                        .flatten();
                    // Decoded here rather than with `Decoder::decode`: the IR rejects what that
                    // would keep raw, and the instruction is moved once less.
                    let mut r = OperandReader::new(
                        raw.operands,
                        off + 1,
                        self.dec.header().bound,
                        self.dec.types(),
                    );
                    // The op's slot is made first and the instruction decoded into it, which
                    // saves moving the (large) instruction around.
                    let h = f.ops.append_with(|| Op::new(Instruction::Nop(OpNop {})));
                    b.ops.push(h);
                    if let Some(o) = self.offsets.as_mut().and_then(|o| o.ops.last_mut()) {
                        o.push(off as u32);
                    }
                    let op = &mut f.ops[h];
                    op.loc = self.loc;
                    op.inst = match decode_operands(raw.opcode, &mut r) {
                        Ok(Instruction::Unknown(_)) => {
                            return Err(IrError::new(
                                off,
                                IrErrorKind::Unsupported(
                                    "an instruction with an opcode the grammar does not know",
                                ),
                            ))
                        }
                        Ok(inst) => inst,
                        Err(e) if e.is_unknown_value() => return Err(IrError::new(
                            off,
                            IrErrorKind::Unsupported(
                                "an instruction with an operand value the grammar does not know",
                            ),
                        )),
                        Err(e) => return Err(e.into()),
                    };
                    r.finish()?;
                    self.remap(&mut op.inst, off)?;
                    if let Some(id) = result {
                        let (name, mut decorations) = self.name_and_decorations(Id(id), off)?;
                        if !decorations.is_empty() {
                            self.fold_decorations(
                                &mut decorations,
                                DecorationSite::Op(handle, h),
                                off,
                            );
                        }
                        f.ops[h].attrs = Attrs::boxed(name, decorations);
                    }
                    continue;
                }
            }
            let inst = self.dec.decode(raw)?;
            use Instruction as I;
            match inst {
                I::FunctionEnd(_) => {
                    if open.is_some() {
                        return Err(IrError::new(
                            off,
                            IrErrorKind::Malformed("a block without a terminator"),
                        ));
                    }
                    ended = true;
                    break;
                }
                I::Line(_) | I::NoLine(_) => self.line(&inst, off)?,
                I::Nop(_) | I::Undef(_) => {}
                I::FunctionParameter(op) => {
                    if !f.blocks.is_empty() || open.is_some() {
                        return Err(IrError::new(
                            off,
                            IrErrorKind::Misplaced("OpFunctionParameter after the first block"),
                        ));
                    }
                    let ty = self.ty(op.result_type, off)?;
                    let (name, mut decorations) = self.name_and_decorations(op.result_id, off)?;
                    self.fold_decorations(
                        &mut decorations,
                        DecorationSite::Param(handle, f.params.len()),
                        off,
                    );
                    f.params.push(Param {
                        ty,
                        name,
                        decorations,
                        loc: self.loc,
                    });
                }
                I::Label(op) => {
                    if open.is_some() {
                        return Err(IrError::new(
                            off,
                            IrErrorKind::Malformed("a block without a terminator"),
                        ));
                    }
                    let (name, decorations) = self.name_and_decorations(op.result_id, off)?;
                    if !decorations.is_empty() {
                        return Err(IrError::new(
                            off,
                            IrErrorKind::Unsupported("decorations of a block label"),
                        ));
                    }
                    let label = f.blocks.next_handle();
                    let size = self.block_sizes.get(label.index()).copied().unwrap_or(0);
                    open = Some(OpenBlock {
                        label,
                        name,
                        args: Vec::new(),
                        ops: Vec::with_capacity(size as usize),
                        structure: None,
                    });
                }
                I::Phi(op) => {
                    let b = open.as_mut().ok_or(IrError::new(
                        off,
                        IrErrorKind::Misplaced("OpPhi outside a block"),
                    ))?;
                    if !b.ops.is_empty() || b.structure.is_some() {
                        return Err(IrError::new(
                            off,
                            IrErrorKind::Misplaced("OpPhi after other instructions of its block"),
                        ));
                    }
                    let ty = self.ty(op.result_type, off)?;
                    let h = f.block_args.next_handle();
                    let (name, mut decorations) = self.name_and_decorations(op.result_id, off)?;
                    self.fold_decorations(
                        &mut decorations,
                        DecorationSite::BlockArg(handle, h),
                        off,
                    );
                    f.block_args.append(BlockArg {
                        ty,
                        name,
                        decorations,
                        loc: self.loc,
                    });
                    b.args.push(h);
                    self.phis.push(PendingPhi {
                        block: b.label,
                        pairs: op.variables,
                        offset: off,
                    });
                }
                I::SelectionMerge(op) => {
                    let s = Structure::Selection {
                        merge: self.block(op.merge_block, off)?,
                        control: op.selection_control,
                        loc: self.loc,
                    };
                    self.set_structure(&mut open, s, off)?;
                }
                I::LoopMerge(op) => {
                    let s = Structure::Loop {
                        merge: self.block(op.merge_block, off)?,
                        continue_target: self.block(op.continue_target, off)?,
                        control: op.loop_control,
                        loc: self.loc,
                    };
                    self.set_structure(&mut open, s, off)?;
                }
                inst if inst.opcode().is_some_and(is_block_terminator) => {
                    let b = open.take().ok_or(IrError::new(
                        off,
                        IrErrorKind::Misplaced("a terminator outside a block"),
                    ))?;
                    let terminator = self.terminator(inst, off)?;
                    f.blocks.append(Block {
                        name: b.name,
                        args: b.args,
                        ops: b.ops,
                        structure: b.structure,
                        terminator,
                        terminator_loc: self.loc,
                    });
                    self.loc = None;
                }
                I::Function(_) => {
                    return Err(IrError::new(
                        off,
                        IrErrorKind::Misplaced("OpFunction inside a function"),
                    ))
                }
                mut inst => {
                    let in_header = open.is_none() && f.blocks.is_empty();
                    if in_header && !matches!(inst, I::ExtInst(_)) {
                        return Err(IrError::new(
                            off,
                            IrErrorKind::Misplaced("an instruction outside a block"),
                        ));
                    }
                    let mut header_block = None;
                    let b = match open.as_mut() {
                        Some(b) => b,
                        None if in_header => header_block.insert(OpenBlock {
                            label: Handle::new(0),
                            name: None,
                            args: Vec::new(),
                            ops: Vec::new(),
                            structure: None,
                        }),
                        None => {
                            return Err(IrError::new(
                                off,
                                IrErrorKind::Misplaced("an instruction outside a block"),
                            ))
                        }
                    };
                    if b.structure.is_some() {
                        return Err(IrError::new(
                            off,
                            IrErrorKind::Misplaced(
                                "an instruction between a merge instruction and its branch",
                            ),
                        ));
                    }
                    if let I::Unknown(_) = inst {
                        return Err(IrError::new(
                            off,
                            IrErrorKind::Unsupported("an instruction with an opcode or operand value the grammar does not know"),
                        ));
                    }
                    let result = inst.result_id();
                    self.remap(&mut inst, off)?;
                    let h = f.ops.next_handle();
                    let (name, mut decorations) = match result {
                        Some(id) => self.name_and_decorations(id, off)?,
                        None => (None, Vec::new()),
                    };
                    if !decorations.is_empty() {
                        self.fold_decorations(&mut decorations, DecorationSite::Op(handle, h), off);
                    }
                    if let Some(o) = self.offsets.as_mut().and_then(|o| o.ops.last_mut()) {
                        o.push(off as u32);
                    }
                    f.ops.append(Op {
                        inst,
                        loc: self.loc,
                        attrs: Attrs::boxed(name, decorations),
                    });
                    b.ops.push(h);
                    if header_block.is_some() {
                        f.header.push(h);
                    }
                }
            }
        }
        if !ended {
            return Err(IrError::new(
                self.words.len(),
                IrErrorKind::Malformed("a function without OpFunctionEnd"),
            ));
        }
        self.loc = None;
        self.pass_block_args(&mut f)?;
        for id in self.local_ids.drain(..) {
            self.ids.set(id, 0);
        }
        // Declarations precede definitions in the binary form (and serialization writes them
        // so), so that the functions' order is what it was.
        if f.is_declaration() && self.definition_seen {
            return Err(IrError::new(
                offset,
                IrErrorKind::Misplaced("a function declaration after a function definition"),
            ));
        }
        self.definition_seen |= !f.is_declaration();
        self.m.functions.append(f);
        Ok(())
    }

    fn set_structure(&self, open: &mut Option<OpenBlock>, s: Structure, off: usize) -> Result<()> {
        let b = open.as_mut().ok_or(IrError::new(
            off,
            IrErrorKind::Misplaced("a merge instruction outside a block"),
        ))?;
        if b.structure.is_some() {
            return Err(IrError::new(
                off,
                IrErrorKind::Misplaced("two merge instructions in one block"),
            ));
        }
        b.structure = Some(s);
        Ok(())
    }

    fn successor(&self, label: Id, off: usize) -> Result<Successor> {
        Ok(Successor::new(self.block(label, off)?))
    }

    fn terminator(&self, inst: Instruction, off: usize) -> Result<Terminator> {
        use Instruction as I;
        Ok(match inst {
            I::Branch(op) => Terminator::Branch(self.successor(op.target_label, off)?),
            I::BranchConditional(op) => Terminator::BranchConditional {
                condition: self.value(op.condition, off)?,
                true_target: self.successor(op.true_label, off)?,
                false_target: self.successor(op.false_label, off)?,
                weights: op.branch_weights,
            },
            I::Switch(op) => {
                let mut cases = Vec::with_capacity(op.targets.len());
                for (lit, label) in op.targets {
                    cases.push((lit, self.successor(label, off)?));
                }
                Terminator::Switch {
                    selector: self.value(op.selector, off)?,
                    default: self.successor(op.default, off)?,
                    cases,
                }
            }
            I::Return(_) => Terminator::Return,
            I::ReturnValue(op) => Terminator::ReturnValue(self.value(op.value, off)?),
            I::Unreachable(_) => Terminator::Unreachable,
            I::Kill(_) => Terminator::Kill,
            mut other => {
                self.remap(&mut other, off)?;
                Terminator::Other(other)
            }
        })
    }

    /// Turns the `OpPhi` pairs of the function into the arguments its branches pass.
    fn pass_block_args(&mut self, f: &mut Function) -> Result<()> {
        if self.phis.is_empty() {
            return Ok(());
        }
        // Per target block: its phis' incoming (parent, value) pairs, in argument order.
        let mut incoming: Vec<Vec<Incoming>> = vec![Vec::new(); f.blocks.len()];
        let phis = core::mem::take(&mut self.phis);
        for phi in &phis {
            let mut v = Vec::with_capacity(phi.pairs.len());
            for &(value, parent) in &phi.pairs {
                v.push((
                    self.block(parent, phi.offset)?,
                    self.value(value, phi.offset)?,
                ));
            }
            incoming[phi.block.index()].push((v, phi.offset));
        }
        self.phis = phis;
        for (pred, block) in f.blocks.iter_mut() {
            for s in block.terminator.successors_mut() {
                let Some(target) = incoming.get(s.block.index()) else {
                    continue;
                };
                if target.is_empty() {
                    continue;
                }
                s.args.clear();
                for (pairs, off) in target {
                    let v = pairs
                        .iter()
                        .find(|(p, _)| *p == pred)
                        .map(|&(_, v)| v)
                        .ok_or(IrError::new(
                            *off,
                            IrErrorKind::Malformed(
                                "an OpPhi has no value for one of its predecessors",
                            ),
                        ))?;
                    s.args.push(v);
                }
            }
        }
        Ok(())
    }

    // -----------------------------------------------------------------------------------------
    // The end: what may refer forward

    fn finish(mut self) -> Result<Module> {
        if !self.memory_model_seen {
            return Err(IrError::new(
                self.words.len(),
                IrErrorKind::Malformed("no OpMemoryModel"),
            ));
        }
        if let Some((_, &(_, off))) = self.forward_pointers.iter().next() {
            return Err(IrError::new(
                off,
                IrErrorKind::Malformed("OpTypeForwardPointer without its OpTypePointer"),
            ));
        }
        for (off, op) in core::mem::take(&mut self.entry_points) {
            let function = self.function_ref(op.entry_point, off)?;
            let mut interface = Vec::with_capacity(op.interfaces.len());
            for i in op.interfaces {
                match self.value(i, off)? {
                    Value::Global(g) => interface.push(g),
                    _ => return Err(wrong(i, "a global variable", off)),
                }
            }
            self.m.entry_points.push(EntryPoint {
                execution_model: op.execution_model,
                function,
                name: op.name,
                interface,
            });
        }
        for (off, entry, mut mode) in core::mem::take(&mut self.execution_modes) {
            let function = self.function_ref(entry, off)?;
            let mut err = None;
            mode.visit_ids_mut(&mut |id| {
                let v = self.ids.get(id.0);
                if v == 0 {
                    err.get_or_insert(IrError::new(off, IrErrorKind::UndefinedId(id.0)));
                }
                id.0 = v;
            });
            if let Some(e) = err {
                return Err(e);
            }
            self.m
                .execution_modes
                .push(ExecutionModeDecl { function, mode });
        }
        let offsets = core::mem::take(&mut self.ext_inst_offsets);
        for (i, off) in offsets.into_iter().enumerate() {
            let h = Handle::new(i);
            let mut inst = Instruction::ExtInst(self.m.ext_insts[h].inst.clone());
            self.remap(&mut inst, off)?;
            if let Instruction::ExtInst(op) = inst {
                self.m.ext_insts[h].inst = op;
            }
        }
        for (off, site) in core::mem::take(&mut self.decoration_fixups) {
            let decs = match site {
                DecorationSite::Global(h) => &mut self.m.globals[h].decorations,
                DecorationSite::Spec(h) => &mut self.m.spec_constants[h].decorations,
                DecorationSite::Function(h) => &mut self.m.functions[h].decorations,
                DecorationSite::Param(h, i) => &mut self.m.functions[h].params[i].decorations,
                DecorationSite::Op(h, o) => &mut self.m.functions[h].ops[o].attrs_mut().decorations,
                DecorationSite::BlockArg(h, a) => {
                    &mut self.m.functions[h].block_args[a].decorations
                }
            };
            let mut err = None;
            for d in decs.iter_mut() {
                d.visit_ids_mut(&mut |id| {
                    let v = self.ids.get(id.0);
                    if v == 0 {
                        err.get_or_insert(IrError::new(off, IrErrorKind::UndefinedId(id.0)));
                    }
                    id.0 = v;
                });
            }
            if let Some(e) = err {
                return Err(e);
            }
        }
        // Names and decorations of ids nothing defined: the first in the module.
        let unnamed = self
            .annots
            .iter()
            .find(|a| !a.taken && !a.is_empty())
            .map(|a| (a.offset, a.id));
        let named = self
            .name_at
            .entries()
            .map(|(id, at)| (at as usize - 1, id))
            .min();
        if let Some((offset, id)) = unnamed.into_iter().chain(named).min() {
            return Err(IrError::new(offset, IrErrorKind::UndefinedId(id)));
        }
        Ok(self.m)
    }

    fn function_ref(&self, id: Id, off: usize) -> Result<Handle<Function>> {
        match self.value(id, off)? {
            Value::Function(h) if h.index() < self.m.functions.len() => Ok(h),
            _ => Err(wrong(id, "a function", off)),
        }
    }
}

/// Removes the `ArrayStride` decoration from a list and returns its stride.
fn take_stride(decorations: &mut Vec<Decoration>) -> Option<u32> {
    let i = decorations
        .iter()
        .position(|d| matches!(d, Decoration::ArrayStride(_)))?;
    match decorations.remove(i) {
        Decoration::ArrayStride(s) => Some(s),
        _ => None,
    }
}

/// What an instruction of a function body is to the reader, by opcode number.
#[derive(Clone, Copy, PartialEq, Eq)]
enum BodyKind {
    /// An op of a block.
    Op,
    FunctionEnd,
    Function,
    Param,
    Label,
    Phi,
    Undef,
    /// Line information, merges, terminators, `OpNop`.
    Other,
}

impl BodyKind {
    #[inline]
    fn of(opcode: u16) -> BodyKind {
        const FUNCTION_END: u16 = Opcode::FunctionEnd as u16;
        const FUNCTION: u16 = Opcode::Function as u16;
        const PARAM: u16 = Opcode::FunctionParameter as u16;
        const LABEL: u16 = Opcode::Label as u16;
        const PHI: u16 = Opcode::Phi as u16;
        const UNDEF: u16 = Opcode::Undef as u16;
        const LINE: u16 = Opcode::Line as u16;
        const NO_LINE: u16 = Opcode::NoLine as u16;
        const NOP: u16 = Opcode::Nop as u16;
        const SELECTION_MERGE: u16 = Opcode::SelectionMerge as u16;
        const LOOP_MERGE: u16 = Opcode::LoopMerge as u16;
        match opcode {
            FUNCTION_END => BodyKind::FunctionEnd,
            FUNCTION => BodyKind::Function,
            PARAM => BodyKind::Param,
            LABEL => BodyKind::Label,
            PHI => BodyKind::Phi,
            UNDEF => BodyKind::Undef,
            LINE | NO_LINE | NOP | SELECTION_MERGE | LOOP_MERGE => BodyKind::Other,
            o if Opcode::from_u16(o).is_some_and(Opcode::is_block_terminator) => BodyKind::Other,
            _ => BodyKind::Op,
        }
    }
}

/// What a module-level instruction declares, by the grammar's naming convention: the grammar's
/// classes do not say it (ray tracing and cooperative matrix types are in other classes).
enum DeclKind {
    Type,
    Constant,
    Other,
}

impl DeclKind {
    fn of(inst: &Instruction) -> DeclKind {
        let name = inst.opcode().map_or("", Opcode::name);
        if name.starts_with("OpType") {
            DeclKind::Type
        } else if name.starts_with("OpConstant")
            || name.starts_with("OpSpecConstant")
            || matches!(inst, Instruction::Undef(_))
        {
            DeclKind::Constant
        } else {
            DeclKind::Other
        }
    }
}

fn wrong(id: Id, expected: &'static str, offset: usize) -> IrError {
    IrError::new(offset, IrErrorKind::WrongKind { id: id.0, expected })
}

fn bool_literal(v: u32, what: &'static str, offset: usize) -> Result<bool> {
    match v {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(IrError::new(offset, IrErrorKind::BadLiteral(what))),
    }
}
