//! The definition index: one pass over the raw instruction stream that records where every
//! instruction starts, which instruction defines each id, and the module-level facts the rules
//! need (capabilities, extensions, imports, memory model, entry points, decorations,
//! functions). Everything else is read back from the words on demand ([`super::query`]), so
//! the index costs a few bytes per instruction and per id.

use crate::binary::{DecodeError, Frames, Header, IdMap, RawInstruction, HEADER_WORDS};
use crate::grammar::{Capability, Opcode, Version};
use rustc_hash::FxHashMap as HashMap;

/// One instruction: where it is and its words.
#[derive(Clone, Copy, Debug)]
pub(super) struct Inst<'a> {
    /// Its index in the instruction list.
    pub index: u32,
    /// Word offset in the module.
    pub offset: usize,
    /// The opcode word's low half.
    pub opcode: u16,
    /// The words after the opcode word.
    pub ops: &'a [u32],
}

impl<'a> Inst<'a> {
    /// The opcode, if the grammar knows it.
    pub fn op(&self) -> Option<Opcode> {
        Opcode::from_u16(self.opcode)
    }

    /// Operand word `i` (after the opcode word), if present.
    pub fn word(&self, i: usize) -> u32 {
        self.ops.get(i).copied().unwrap_or(0)
    }

    /// The words from operand `i` on.
    pub fn rest(&self, i: usize) -> &'a [u32] {
        self.ops.get(i..).unwrap_or(&[])
    }

    /// The result type id, for instructions that have one.
    pub fn result_type(&self) -> Option<u32> {
        match self.op() {
            Some(op) if op.has_result_type() => self.ops.first().copied(),
            _ => None,
        }
    }

    /// The result id, for instructions that have one.
    pub fn result_id(&self) -> Option<u32> {
        let op = self.op()?;
        if !op.has_result_id() {
            return None;
        }
        self.ops.get(usize::from(op.has_result_type())).copied()
    }
}

/// A decoration, flattened: decoration groups are expanded onto their targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Deco {
    /// The decorated id.
    pub target: u32,
    /// The member index, or `u32::MAX` for the whole target.
    pub member: u32,
    /// The decoration's value.
    pub kind: u32,
    /// Its first parameter word (zero when it has none).
    pub arg: u32,
    /// The decorating instruction.
    pub inst: u32,
}

/// A function: its `OpFunction` and `OpFunctionEnd` instruction indices.
#[derive(Clone, Copy, Debug)]
pub(super) struct Func {
    /// The function id.
    pub id: u32,
    /// Index of `OpFunction`.
    pub start: u32,
    /// Index of `OpFunctionEnd` (or of the last instruction when it is missing).
    pub end: u32,
    /// Whether it has blocks (a definition, not a declaration).
    pub has_body: bool,
}

/// The index of a module.
pub(super) struct Module<'a> {
    /// The module's words.
    pub words: &'a [u32],
    /// The header.
    pub header: Header,
    /// The header's version (1.0 when malformed; the version rule reports it).
    pub version: Version,
    /// Word offset of each instruction.
    insts: Vec<u32>,
    /// Id → index of its defining instruction, plus one.
    /// Instruction index plus one of each id's definition (zero: not defined).
    defs: IdMap<u32>,
    /// Ids defined more than once: (the later definition, the id).
    pub redefinitions: Vec<(u32, u32)>,
    /// Declared capabilities, in order, with their instruction.
    pub declared_capabilities: Vec<(u32, Capability)>,
    /// Declared and implicitly declared capabilities.
    pub capabilities: CapabilitySet,
    /// `OpExtension` names with their instruction.
    pub extensions: Vec<(u32, String)>,
    /// `OpExtInstImport`s: id and set name.
    pub imports: Vec<(u32, String)>,
    /// `OpMemoryModel` instructions.
    pub memory_models: Vec<u32>,
    /// `OpEntryPoint` instructions.
    pub entry_points: Vec<u32>,
    /// `OpExecutionMode` and `OpExecutionModeId` instructions.
    pub execution_modes: Vec<u32>,
    /// Decorations sorted by target, member, kind.
    pub decorations: Vec<Deco>,
    /// Functions in module order.
    pub functions: Vec<Func>,
    /// Ids named by `OpTypeForwardPointer`.
    pub forward_pointers: Vec<u32>,
}

/// A set of capabilities.
#[derive(Clone, Debug, Default)]
pub(super) struct CapabilitySet(Vec<u32>);

impl CapabilitySet {
    /// Whether `c` is in the set.
    pub fn has(&self, c: Capability) -> bool {
        self.0.binary_search(&c.value()).is_ok()
    }

    /// Whether any of `cs` is in the set; true for an empty list.
    pub fn any(&self, cs: &[Capability]) -> bool {
        cs.is_empty() || cs.iter().any(|&c| self.has(c))
    }

    /// Adds `c` and what it implicitly declares.
    fn insert_closed(&mut self, c: Capability) {
        let mut stack = vec![c];
        while let Some(c) = stack.pop() {
            if let Err(at) = self.0.binary_search(&c.value()) {
                self.0.insert(at, c.value());
                stack.extend_from_slice(c.availability().capabilities);
            }
        }
    }
}

impl<'a> Module<'a> {
    /// Indexes a module. Fails on a malformed header or word count (the only errors that
    /// stop the walk over instructions).
    pub fn index(words: &'a [u32]) -> Result<Module<'a>, DecodeError> {
        let header = Header::parse(words)?;
        let version = Version::from_word(header.version).unwrap_or(Version(1, 0));
        let mut m = Module {
            words,
            header,
            version,
            insts: Vec::with_capacity(words.len() / 4),
            defs: IdMap::preallocated(
                (header.bound as usize).min(words.len().saturating_mul(2) + 64),
            ),
            redefinitions: Vec::new(),
            declared_capabilities: Vec::new(),
            capabilities: CapabilitySet::default(),
            extensions: Vec::new(),
            imports: Vec::new(),
            memory_models: Vec::new(),
            entry_points: Vec::new(),
            execution_modes: Vec::new(),
            decorations: Vec::new(),
            functions: Vec::new(),
            forward_pointers: Vec::new(),
        };
        let mut groups: Vec<(u32, u32)> = Vec::new(); // OpGroup(Member)Decorate instructions
        for raw in Frames::new(words, HEADER_WORDS) {
            let raw = raw?;
            let index = m.insts.len() as u32;
            m.insts.push(raw.offset as u32);
            let inst = Inst {
                index,
                offset: raw.offset,
                opcode: raw.opcode,
                ops: raw.operands,
            };
            m.observe(inst, &mut groups);
        }
        if let Some(f) = m.functions.last_mut() {
            if f.end == u32::MAX {
                f.end = m.insts.len().saturating_sub(1) as u32;
            }
        }
        m.expand_groups(&groups);
        m.decorations.sort_unstable();
        Ok(m)
    }

    fn observe(&mut self, inst: Inst<'a>, groups: &mut Vec<(u32, u32)>) {
        let Some(op) = inst.op() else { return };
        if let Some(id) = inst.result_id() {
            if id != 0 {
                if self.defs.get(id) != 0 {
                    self.redefinitions.push((inst.index, id));
                } else {
                    self.defs.set(id, inst.index + 1);
                }
            }
        }
        match op {
            Opcode::Capability => {
                if let Some(c) = Capability::from_value(inst.word(0)) {
                    self.declared_capabilities.push((inst.index, c));
                    self.capabilities.insert_closed(c);
                }
            }
            Opcode::Extension => {
                self.extensions.push((inst.index, string_at(inst.ops)));
            }
            Opcode::ExtInstImport => {
                self.imports.push((inst.word(0), string_at(inst.rest(1))));
            }
            Opcode::MemoryModel => self.memory_models.push(inst.index),
            Opcode::EntryPoint => self.entry_points.push(inst.index),
            Opcode::ExecutionMode | Opcode::ExecutionModeId => {
                self.execution_modes.push(inst.index)
            }
            Opcode::Decorate | Opcode::DecorateId | Opcode::DecorateString => {
                self.decorations.push(Deco {
                    target: inst.word(0),
                    member: u32::MAX,
                    kind: inst.word(1),
                    arg: inst.word(2),
                    inst: inst.index,
                });
            }
            Opcode::MemberDecorate | Opcode::MemberDecorateString => {
                self.decorations.push(Deco {
                    target: inst.word(0),
                    member: inst.word(1),
                    kind: inst.word(2),
                    arg: inst.word(3),
                    inst: inst.index,
                });
            }
            Opcode::GroupDecorate | Opcode::GroupMemberDecorate => {
                groups.push((inst.index, u32::from(op == Opcode::GroupMemberDecorate)));
            }
            Opcode::TypeForwardPointer => self.forward_pointers.push(inst.word(0)),
            Opcode::Function => {
                if let Some(f) = self.functions.last_mut() {
                    if f.end == u32::MAX {
                        f.end = inst.index.saturating_sub(1);
                    }
                }
                self.functions.push(Func {
                    id: inst.word(1),
                    start: inst.index,
                    end: u32::MAX,
                    has_body: false,
                });
            }
            Opcode::Label => {
                if let Some(f) = self.functions.last_mut() {
                    if f.end == u32::MAX {
                        f.has_body = true;
                    }
                }
            }
            Opcode::FunctionEnd => {
                if let Some(f) = self.functions.last_mut() {
                    if f.end == u32::MAX {
                        f.end = inst.index;
                    }
                }
            }
            _ => {}
        }
    }

    /// Copies the decorations of each group onto the targets of `OpGroupDecorate` and
    /// `OpGroupMemberDecorate`.
    fn expand_groups(&mut self, groups: &[(u32, u32)]) {
        if groups.is_empty() {
            return;
        }
        let mut by_group: HashMap<u32, Vec<Deco>> = HashMap::default();
        for d in &self.decorations {
            if self.def(d.target).map(|i| i.opcode) == Some(Opcode::DecorationGroup as u16) {
                by_group.entry(d.target).or_default().push(*d);
            }
        }
        let mut added = Vec::new();
        for &(i, member) in groups {
            // Expanded decorations keep the decorating instruction of the group.
            let inst = self.inst(i);
            let Some(decos) = by_group.get(&inst.word(0)) else {
                continue;
            };
            let rest = inst.rest(1);
            let step = if member == 1 { 2 } else { 1 };
            for t in rest.chunks(step) {
                for d in decos {
                    added.push(Deco {
                        target: t[0],
                        member: if member == 1 {
                            t.get(1).copied().unwrap_or(0)
                        } else {
                            u32::MAX
                        },
                        ..*d
                    });
                }
            }
        }
        self.decorations.extend(added);
    }

    /// Number of instructions.
    pub fn len(&self) -> usize {
        self.insts.len()
    }

    /// Instruction `i` (`i` must be below [`Module::len`]).
    #[inline]
    pub fn inst(&self, i: u32) -> Inst<'a> {
        let offset = self.insts[i as usize] as usize;
        // Framed when the module was read.
        let raw = crate::binary::frame_at(self.words, offset).unwrap_or(RawInstruction {
            offset,
            opcode: 0,
            operands: &[],
        });
        Inst {
            index: i,
            offset,
            opcode: raw.opcode,
            ops: raw.operands,
        }
    }

    /// Index of the instruction defining `id`.
    #[inline]
    pub fn def_index(&self, id: u32) -> Option<u32> {
        self.defs.get(id).checked_sub(1)
    }

    /// The instruction defining `id`.
    #[inline]
    pub fn def(&self, id: u32) -> Option<Inst<'a>> {
        self.def_index(id).map(|i| self.inst(i))
    }

    /// The opcode of the instruction defining `id`.
    #[inline]
    pub fn def_op(&self, id: u32) -> Option<Opcode> {
        self.def(id).and_then(|i| i.op())
    }

    /// The type of a value (its defining instruction's result type).
    #[inline]
    pub fn type_of(&self, id: u32) -> Option<u32> {
        self.def(id).and_then(|i| i.result_type())
    }

    /// The decorations of `target` (whole and members).
    pub fn decorations_of(&self, target: u32) -> &[Deco] {
        let lo = self.decorations.partition_point(|d| d.target < target);
        let hi = self.decorations.partition_point(|d| d.target <= target);
        &self.decorations[lo..hi]
    }

    /// Whether `target` (not a member) has decoration `kind`.
    pub fn has_decoration(&self, target: u32, kind: u32) -> bool {
        self.decorations_of(target)
            .iter()
            .any(|d| d.member == u32::MAX && d.kind == kind)
    }

    /// The first parameter of decoration `kind` on `target`'s member `member`
    /// (`u32::MAX`: the target itself).
    pub fn decoration_arg(&self, target: u32, member: u32, kind: u32) -> Option<u32> {
        self.decorations_of(target)
            .iter()
            .find(|d| d.member == member && d.kind == kind)
            .map(|d| d.arg)
    }

    /// The function whose instruction range holds instruction `i`.
    pub fn function_at(&self, i: u32) -> Option<&Func> {
        let k = self.functions.partition_point(|f| f.start <= i);
        let f = self.functions.get(k.checked_sub(1)?)?;
        (i <= f.end).then_some(f)
    }

    /// Whether the module declares extension `name`.
    pub fn has_extension(&self, name: &str) -> bool {
        self.extensions.iter().any(|(_, e)| e == name)
    }

    /// The set an `OpExtInstImport` id imports.
    pub fn import_name(&self, id: u32) -> Option<&str> {
        self.imports
            .iter()
            .find(|(i, _)| *i == id)
            .map(|(_, n)| n.as_str())
    }
}

/// The nul-terminated string at the start of `words` (lossy; empty when malformed).
pub(super) fn string_at(words: &[u32]) -> String {
    let mut bytes = Vec::new();
    'outer: for w in words {
        for b in w.to_le_bytes() {
            if b == 0 {
                break 'outer;
            }
            bytes.push(b);
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Decoration values the rules look up in the index (generated from the grammar).
pub(super) use crate::grammar::values::decoration as deco;
