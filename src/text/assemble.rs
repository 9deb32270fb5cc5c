//! The assembler: SPIR-V assembly text to a binary module, word for word what `spirv-as`
//! (SPIRV-Tools 2023.1) writes, driven by the grammar's descriptor tables.
//!
//! What it follows from `spirv-as`:
//! - ids (`%name`, `%12`) are numbered from 1 in order of first appearance (a result id counts
//!   when its instruction's result-id operand is reached, after the result type); with
//!   [`AssembleOptions::preserve_numeric_ids`] numeric ids keep their value and names fill the
//!   gaps;
//! - the header has the target environment's version, generator word `0x00070000` and the id
//!   bound;
//! - names of instructions and enumerants that no capability or extension enables must exist in
//!   the target's SPIR-V version (`OpCopyLogical` needs 1.4);
//! - operands follow the grammar: enumerant parameters, bit-mask parameters in bit order,
//!   optional and variadic operands (an optional literal that does not parse ends the
//!   instruction), literal widths from `OpConstant`'s result type and `OpSwitch`'s selector,
//!   `OpSpecConstantOp` with an opcode name without `Op`, `OpExtInst` by instruction name of
//!   its imported set (or by number in non-semantic sets);
//! - `!<integer>` writes a word as is; after one, the rest of the instruction is free-form.
//!
//! Unlike `spirv-as`, defining a result id twice is an error.

use super::lexer::{until_nul, Lexer, Token};
use super::literal::{self, NumberError, NumberType};
use crate::binary::IdMap;
use crate::grammar::tables::{self, KIND_ID_REF, KIND_ID_RESULT};
use crate::grammar::{
    op, EnumerantDesc, ExtInstSetDesc, InstructionDesc, KindClass, KindDesc, Opcode, OperandDesc,
    Quantifier, Version,
};
use crate::target_env::TargetEnv;
use core::fmt;
use std::sync::OnceLock;

/// How to assemble.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct AssembleOptions {
    /// The environment: sets the header's version and which names exist. The default is
    /// `spv1.6`, as for `spirv-as` 2023.1.
    pub target_env: TargetEnv,
    /// Keep numeric ids (`%12` is id 12) and number named ids around them, like
    /// `spirv-as --preserve-numeric-ids`.
    pub preserve_numeric_ids: bool,
}

/// An assembly error: where (1-based line and byte column of the offending word, or of the end
/// of the text) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AssembleError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in bytes.
    pub column: usize,
    /// What is wrong, in `spirv-as`'s words where it has some.
    pub message: String,
}

impl fmt::Display for AssembleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: error: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for AssembleError {}

/// Assembles `text` into the words of a SPIR-V module.
pub fn assemble(text: &str, opts: &AssembleOptions) -> Result<Vec<u32>, AssembleError> {
    if text.is_empty() {
        return Err(AssembleError {
            line: 1,
            column: 1,
            message: "Missing assembly text.".into(),
        });
    }
    let full = text;
    let text = until_nul(text);
    if text.len() >= u32::MAX as usize {
        return Err(AssembleError {
            line: 1,
            column: 1,
            message: "Assembly text too long.".into(),
        });
    }
    if text.len() < full.len() {
        // `spirv-as` reads a NUL that comes before any instruction as an empty word.
        let mut lx = Lexer::new(text);
        if lx.peek(0).is_none() {
            let p = lx.position();
            return Err(AssembleError {
                line: p.line as usize,
                column: p.column as usize,
                message:
                    "Expected <opcode> or <result-id> at the beginning of an instruction, found ''."
                        .into(),
            });
        }
    }
    let version = opts.target_env.spirv_version();
    // Like `spirv-as`, find the numeric ids to keep with a dry run that numbers every id in
    // order; its errors (and their id numbers) are the ones reported.
    let mut preserve = None;
    if opts.preserve_numeric_ids {
        let mut dry = Asm::new(text, version, None);
        dry.run()?;
        preserve = dry.numeric_ids();
    }
    let mut asm = Asm::new(text, version, preserve);
    asm.run()?;
    Ok(asm.out)
}

// ---------------------------------------------------------------------------------------------
// Hashing and id-indexed tables.

type FxMap<K, V> = rustc_hash::FxHashMap<K, V>;

// ---------------------------------------------------------------------------------------------
// Grammar lookups, built once.

/// The core versions that have a name no capability or extension enables (see
/// [`tables::core_only_name_versions`]); `None` when every version has it.
type Gate = Option<(Option<Version>, Option<Version>)>;

fn gate_open(gate: Gate, v: Version) -> bool {
    match gate {
        None => true,
        Some((first, last)) => first.is_some_and(|f| v >= f) && last.is_none_or(|l| v <= l),
    }
}

struct Lookups {
    /// Core instructions by full name (`OpIAdd`) and alias.
    opcodes: FxMap<&'static str, (&'static InstructionDesc, Gate)>,
    /// Enumerants by (kind address, name or alias).
    enumerants: FxMap<(usize, &'static str), (&'static EnumerantDesc, Gate)>,
    /// Extended instructions by (set index in `EXT_INST_SETS`, name).
    ext: FxMap<(usize, &'static str), &'static InstructionDesc>,
}

fn kind_key(k: &'static KindDesc) -> usize {
    k as *const KindDesc as usize
}

fn collect_kinds(ops: &'static [OperandDesc], seen: &mut Vec<&'static KindDesc>) {
    for o in ops {
        visit_kind(o.kind, seen);
    }
}

fn visit_kind(k: &'static KindDesc, seen: &mut Vec<&'static KindDesc>) {
    if seen.iter().any(|s| core::ptr::eq(*s, k)) {
        return;
    }
    seen.push(k);
    for e in k.enumerants {
        collect_kinds(e.parameters, seen);
    }
    for b in k.bases {
        visit_kind(b, seen);
    }
}

fn lookups() -> &'static Lookups {
    static L: OnceLock<Lookups> = OnceLock::new();
    L.get_or_init(|| {
        let mut opcodes = FxMap::default();
        let mut kinds = Vec::new();
        for d in tables::CORE_INSTRUCTIONS.iter() {
            for n in core::iter::once(&d.name).chain(d.aliases) {
                opcodes
                    .entry(*n)
                    .or_insert((d, tables::core_only_name_versions("", n)));
            }
            collect_kinds(d.operands, &mut kinds);
        }
        let mut ext = FxMap::default();
        for (si, s) in tables::EXT_INST_SETS.iter().enumerate() {
            for d in s.instructions {
                for n in core::iter::once(&d.name).chain(d.aliases) {
                    ext.entry((si, *n)).or_insert(d);
                }
                collect_kinds(d.operands, &mut kinds);
            }
        }
        let mut enumerants = FxMap::default();
        for k in kinds {
            let core = tables::kind_by_name(k.name).is_some_and(|c| core::ptr::eq(c, k));
            for e in k.enumerants {
                for n in core::iter::once(&e.name).chain(e.aliases) {
                    let gate = if core {
                        tables::core_only_name_versions(k.name, n)
                    } else {
                        None
                    };
                    enumerants.entry((kind_key(k), *n)).or_insert((e, gate));
                }
            }
        }
        Lookups {
            opcodes,
            enumerants,
            ext,
        }
    })
}

/// The opcodes `OpSpecConstantOp` accepts, by name without `Op` (SPIRV-Tools' list, the
/// `spec_constant_op` group of `grammar/opcode_groups.json`).
fn spec_constant_opcode(name: &str) -> Option<u16> {
    let op: Opcode = format!("Op{name}").parse().ok()?;
    op.is_spec_constant_op().then_some(op as u16)
}

/// Whether `spirv-as` records the result of this opcode as a type (`spvOpcodeGeneratesType`).
fn generates_type(opcode: u32) -> bool {
    u16::try_from(opcode)
        .ok()
        .and_then(Opcode::from_u16)
        .is_some_and(Opcode::is_spirv_tools_type)
}

/// An imported extended instruction set, as SPIRV-Tools 2023.1 classifies import names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ExtSet {
    /// A set with a grammar: its index in `EXT_INST_SETS` and whether it is non-semantic.
    Known { index: usize, non_semantic: bool },
    /// A `NonSemantic.*` set without a grammar: instructions by number, operands all ids.
    UnknownNonSemantic,
}

fn ext_set_for_import(name: &[u8]) -> Option<ExtSet> {
    const KNOWN: [&str; 9] = [
        "GLSL.std.450",
        "OpenCL.std",
        "SPV_AMD_shader_explicit_vertex_parameter",
        "SPV_AMD_shader_trinary_minmax",
        "SPV_AMD_gcn_shader",
        "SPV_AMD_shader_ballot",
        "DebugInfo",
        "OpenCL.DebugInfo.100",
        "NonSemantic.Shader.DebugInfo.100",
    ];
    let find = |pred: &dyn Fn(&ExtInstSetDesc) -> bool| {
        tables::EXT_INST_SETS
            .iter()
            .position(pred)
            .map(|index| ExtSet::Known {
                index,
                non_semantic: name.starts_with(b"NonSemantic."),
            })
    };
    const CLSPV: &[u8] = b"NonSemantic.ClspvReflection.";
    let known = if KNOWN.iter().any(|k| k.as_bytes() == name) {
        find(&|s| s.name.as_bytes() == name)
    } else if name.starts_with(CLSPV) {
        find(&|s| s.name.as_bytes().starts_with(CLSPV))
    } else {
        None
    };
    match known {
        Some(k) => Some(k),
        None if name.starts_with(b"NonSemantic.") => Some(ExtSet::UnknownNonSemantic),
        None => None,
    }
}

/// SPIRV-Tools' name of an operand kind in messages (`spvOperandTypeStr`).
fn kind_str(k: &'static KindDesc) -> &'static str {
    let ocl = [
        (
            &tables::KIND_OPENCL_DEBUGINFO_100_DEBUG_INFO_FLAGS,
            "OpenCL.DebugInfo.100 debug info flags",
        ),
        (
            &tables::KIND_OPENCL_DEBUGINFO_100_DEBUG_BASE_TYPE_ATTRIBUTE_ENCODING,
            "OpenCL.DebugInfo.100 debug base type encoding",
        ),
        (
            &tables::KIND_OPENCL_DEBUGINFO_100_DEBUG_COMPOSITE_TYPE,
            "OpenCL.DebugInfo.100 debug composite type",
        ),
        (
            &tables::KIND_OPENCL_DEBUGINFO_100_DEBUG_TYPE_QUALIFIER,
            "OpenCL.DebugInfo.100 debug type qualifier",
        ),
        (
            &tables::KIND_OPENCL_DEBUGINFO_100_DEBUG_OPERATION,
            "OpenCL.DebugInfo.100 debug operation",
        ),
        (
            &tables::KIND_OPENCL_DEBUGINFO_100_DEBUG_IMPORTED_ENTITY,
            "OpenCL.DebugInfo.100 debug imported entity",
        ),
    ];
    if let Some((_, s)) = ocl.iter().find(|(d, _)| core::ptr::eq(*d, k)) {
        return s;
    }
    match k.name {
        "SourceLanguage" => "source language",
        "ExecutionModel" => "execution model",
        "AddressingModel" => "addressing model",
        "MemoryModel" => "memory model",
        "ExecutionMode" => "execution mode",
        "StorageClass" => "storage class",
        "Dim" => "dimensionality",
        "SamplerAddressingMode" => "sampler addressing mode",
        "SamplerFilterMode" => "sampler filter mode",
        "ImageFormat" => "image format",
        "FPFastMathMode" => "floating-point fast math mode",
        "FPRoundingMode" => "floating-point rounding mode",
        "LinkageType" => "linkage type",
        "AccessQualifier" => "access qualifier",
        "FunctionParameterAttribute" => "function parameter attribute",
        "Decoration" => "decoration",
        "BuiltIn" => "built-in",
        "SelectionControl" => "selection control",
        "LoopControl" => "loop control",
        "FunctionControl" => "function control",
        "MemoryAccess" => "memory access",
        "FragmentShadingRate" => "shading rate",
        "GroupOperation" => "group operation",
        "KernelEnqueueFlags" => "kernel enqeue flags",
        "KernelProfilingInfo" => "kernel profiling info",
        "Capability" => "capability",
        "RayFlags" => "ray flags",
        "RayQueryIntersection" => "ray query intersection",
        "RayQueryCommittedIntersectionType" => "ray query committed intersection type",
        "RayQueryCandidateIntersectionType" => "ray query candidate intersection type",
        "PackedVectorFormat" => "packed vector format",
        "ImageOperands" => "image",
        "ImageChannelOrder" => "image channel order",
        "ImageChannelDataType" => "image channel data type",
        "FPDenormMode" => "FP denorm mode",
        "FPOperationMode" => "FP operation mode",
        "QuantizationModes" => "quantization mode",
        "OverflowModes" => "overflow mode",
        "DebugInfoFlags" => "debug info flags",
        "DebugBaseTypeAttributeEncoding" => "debug base type encoding",
        "DebugCompositeType" => "debug composite type",
        "DebugTypeQualifier" => "debug type qualifier",
        "DebugOperation" => "debug operation",
        "DebugImportedEntity" => "debug imported entity",
        _ => "unknown",
    }
}

// ---------------------------------------------------------------------------------------------
// The assembler proper.

const OP_EXT_INST_IMPORT: u32 = op::ExtInstImport as u32;
const OP_EXT_INST: u32 = op::ExtInst as u32;
const OP_TYPE_INT: u32 = op::TypeInt as u32;
const OP_TYPE_FLOAT: u32 = op::TypeFloat as u32;
const OP_CONSTANT: u32 = op::Constant as u32;
const OP_SPEC_CONSTANT: u32 = op::SpecConstant as u32;
const OP_SWITCH: u32 = op::Switch as u32;
/// The opcode of an instruction written as `!<integer> ...` (no grammar applies).
const NO_OPCODE: u32 = u32::MAX;

/// A type as the assembler tracks it (SPIRV-Tools' `IdType`).
#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum TypeInfo {
    #[default]
    None,
    Int {
        width: u32,
        signed: bool,
    },
    Float {
        width: u32,
    },
    Other,
}

/// An operand still expected by the instruction being assembled.
#[derive(Clone, Copy)]
enum Expect {
    /// An operand of a grammar kind.
    Operand(&'static KindDesc, Quantifier),
    /// A literal as wide as `OpConstant`'s result type or `OpSwitch`'s selector.
    Typed { optional: bool },
    /// After `!<integer>`: a number, string or id, whatever the grammar expected.
    Civ,
}

/// What encoding an operand did.
enum Encoded {
    /// Encoded.
    Done,
    /// Encoded a `!<integer>` word: the rest of the instruction is free-form.
    Immediate,
    /// An optional literal did not parse: the instruction ends before this word.
    NoMatch,
}

/// The instruction being assembled.
struct Inst {
    /// Index of its first word in the output.
    start: usize,
    opcode: u32,
    /// The opcode word as written.
    name: Token,
    /// The `%result` word, for instructions written `%result = Op...`.
    result: Option<Token>,
    /// The result type's id (0 until seen), for `OpConstant`'s literal.
    result_type: u32,
    /// The set of `OpExtInst`, once its set operand is read.
    ext: Option<ExtSet>,
}

struct Asm<'a> {
    text: &'a str,
    src: &'a [u8],
    lx: Lexer<'a>,
    version: Version,
    out: Vec<u32>,
    names: FxMap<&'a str, u32>,
    /// Ids of canonical decimal names (`%12`) below `numeric.len()` limit, 0 when unassigned.
    numeric: Vec<u32>,
    numeric_limit: usize,
    next_id: u32,
    bound: u32,
    preserve: Option<IdMap<bool>>,
    types: IdMap<TypeInfo>,
    value_types: IdMap<u32>,
    defined: IdMap<bool>,
    imports: FxMap<u32, ExtSet>,
    stack: Vec<Expect>,
    lookups: &'static Lookups,
}

fn err_at(t: Token, message: impl Into<String>) -> AssembleError {
    AssembleError {
        line: t.line as usize,
        column: t.column as usize,
        message: message.into(),
    }
}

#[inline]
fn starts_with_op(b: &[u8]) -> bool {
    b.len() >= 3 && b[0] == b'O' && b[1] == b'p' && b[2].is_ascii_uppercase()
}

fn is_id_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b == b'_' || b.is_ascii_alphanumeric())
}

/// A canonical decimal (`12`, not `012`) below 10^9.
#[inline]
fn small_decimal(b: &[u8]) -> Option<u32> {
    if b.is_empty() || b.len() > 9 || (b[0] == b'0' && b.len() > 1) {
        return None;
    }
    let mut v = 0u32;
    for &c in b {
        if !c.is_ascii_digit() {
            return None;
        }
        v = v * 10 + u32::from(c - b'0');
    }
    Some(v)
}

/// How SPIRV-Tools' `spvTextToLiteral` sees a word meant as a string.
enum StringLiteral<'s> {
    /// A quoted string; the bytes between the quotes, escapes not yet removed.
    Quoted(&'s [u8]),
    /// A number.
    Number,
    /// Neither.
    Invalid,
}

fn string_literal(t: &[u8]) -> StringLiteral<'_> {
    let mut signed = false;
    let mut periods = 0;
    let mut is_string = false;
    for (i, &c) in t.iter().enumerate() {
        match c {
            b'0'..=b'9' => {}
            b'.' => periods += 1,
            b'-' if i == 0 => signed = true,
            _ => {
                is_string = true;
                break;
            }
        }
    }
    if is_string || periods > 1 || (signed && t.len() == 1) {
        if t.len() < 2 || t[0] != b'"' || t[t.len() - 1] != b'"' {
            return StringLiteral::Invalid;
        }
        StringLiteral::Quoted(&t[1..t.len() - 1])
    } else {
        StringLiteral::Number
    }
}

/// Iterates the bytes of a quoted string's contents with backslash escapes removed.
fn unescaped(raw: &[u8]) -> impl Iterator<Item = u8> + '_ {
    let mut escaping = false;
    raw.iter().filter_map(move |&c| {
        if c == b'\\' && !escaping {
            escaping = true;
            None
        } else {
            escaping = false;
            Some(c)
        }
    })
}

/// A plain decimal `spvTextToLiteral` reads as a 32-bit unsigned number.
fn literal_u32(t: &[u8]) -> Option<u32> {
    if t.is_empty() || !t.iter().all(u8::is_ascii_digit) {
        return None;
    }
    t.iter().try_fold(0u32, |v, &c| {
        v.checked_mul(10)?.checked_add(u32::from(c - b'0'))
    })
}

impl<'a> Asm<'a> {
    fn new(text: &'a str, version: Version, preserve: Option<IdMap<bool>>) -> Self {
        let limit = text.len() / 2 + 1024;
        Asm {
            text,
            src: text.as_bytes(),
            lx: Lexer::new(text),
            version,
            out: Vec::with_capacity(text.len() / 5 + 16),
            names: FxMap::default(),
            numeric: Vec::new(),
            numeric_limit: limit,
            next_id: 1,
            bound: 1,
            preserve,
            types: IdMap::with_limit(limit),
            value_types: IdMap::with_limit(limit),
            defined: IdMap::with_limit(limit),
            imports: FxMap::default(),
            stack: Vec::with_capacity(16),
            lookups: lookups(),
        }
    }

    /// The values of the numeric id names seen (`%12`, also `%0x10` and octal `%010`), if any.
    fn numeric_ids(&self) -> Option<IdMap<bool>> {
        let mut set = IdMap::with_limit(self.numeric_limit);
        let mut any = false;
        for (n, &id) in self.numeric.iter().enumerate() {
            if id != 0 {
                set.set(n as u32, true);
                any = true;
            }
        }
        for name in self.names.keys() {
            if let Some(n) = literal::parse_u32(name) {
                set.set(n, true);
                any = true;
            }
        }
        any.then_some(set)
    }

    fn run(&mut self) -> Result<(), AssembleError> {
        self.out
            .extend_from_slice(&[tables::MAGIC_NUMBER, self.version.word(), 0x0007_0000, 0, 0]);
        while let Some(first) = self.lx.peek(0) {
            self.instruction(first)?;
        }
        self.out[3] = self.bound;
        Ok(())
    }

    #[inline]
    fn word(&self, t: Token) -> &'a str {
        t.text(self.text)
    }

    fn eof_error(&mut self, message: impl Into<String>) -> AssembleError {
        let p = self.lx.position();
        AssembleError {
            line: p.line as usize,
            column: p.column as usize,
            message: message.into(),
        }
    }

    /// `isStartOfNewInst`: the next words are `Op...` or `%id = Op...`.
    #[inline]
    fn at_new_instruction(&mut self) -> bool {
        let src = self.src;
        let Some(t) = self.lx.peek(0) else {
            return false;
        };
        let b = t.bytes(src);
        if starts_with_op(b) {
            return true;
        }
        if b.first() != Some(&b'%') {
            return false;
        }
        match self.lx.peek(1) {
            Some(eq) if eq.bytes(src) == b"=" => {}
            _ => return false,
        }
        matches!(self.lx.peek(2), Some(op) if starts_with_op(op.bytes(src)))
    }

    // --- ids --------------------------------------------------------------------------------

    #[inline]
    fn fresh_id(&mut self) -> u32 {
        let mut id = self.next_id;
        self.next_id = self.next_id.wrapping_add(1);
        if let Some(p) = &self.preserve {
            while p.get(id) {
                id = self.next_id;
                self.next_id = self.next_id.wrapping_add(1);
            }
        }
        self.bound = self.bound.max(id.wrapping_add(1));
        id
    }

    /// The id of `%name` (without the `%`), numbering it if new.
    #[inline]
    fn id_of(&mut self, name: &'a str) -> u32 {
        if let Some(p) = &self.preserve {
            if let Some(n) = literal::parse_u32(name) {
                if p.get(n) {
                    self.bound = self.bound.max(n.wrapping_add(1));
                    return n;
                }
            }
        }
        if let Some(n) = small_decimal(name.as_bytes()) {
            let i = n as usize;
            if i < self.numeric_limit {
                if i >= self.numeric.len() {
                    let len = (i + 1)
                        .max(self.numeric.len() * 2)
                        .max(256)
                        .min(self.numeric_limit);
                    self.numeric.resize(len, 0);
                }
                let v = self.numeric[i];
                if v != 0 {
                    return v;
                }
                let id = self.fresh_id();
                // Id 0 never comes from `fresh_id` unless the counter wrapped; keep it unmapped.
                self.numeric[i] = id;
                return id;
            }
        }
        if let Some(&id) = self.names.get(name) {
            return id;
        }
        let id = self.fresh_id();
        self.names.insert(name, id);
        id
    }

    /// An `<id>` word: `%` and letters, digits or `_`.
    #[inline]
    fn id_word(&mut self, t: Token) -> Result<u32, AssembleError> {
        let w = self.word(t);
        let Some(name) = w.strip_prefix('%') else {
            return Err(err_at(t, "Expected id to start with %."));
        };
        if !is_id_name(name) {
            return Err(err_at(t, format!("Invalid ID {name}")));
        }
        Ok(self.id_of(name))
    }

    /// Encodes an id operand (also checks `OpExtInst`'s set once it is the instruction's fourth
    /// word).
    #[inline]
    fn id_operand(&mut self, inst: &mut Inst, t: Token) -> Result<u32, AssembleError> {
        let id = self.id_word(t)?;
        self.out.push(id);
        if inst.opcode == OP_EXT_INST && self.out.len() - inst.start == 4 {
            match self.imports.get(&id) {
                Some(&set) => inst.ext = Some(set),
                None => {
                    let result = self.out[inst.start + 2];
                    return Err(err_at(
                        t,
                        format!("Invalid extended instruction import Id {result}"),
                    ));
                }
            }
        }
        Ok(id)
    }

    // --- instructions -----------------------------------------------------------------------

    fn instruction(&mut self, first: Token) -> Result<(), AssembleError> {
        let src = self.src;
        let fb = first.bytes(src);
        if fb.first() == Some(&b'!') {
            return self.immediate_instruction(first);
        }
        self.lx.next();
        let (result, name) = if starts_with_op(fb) {
            (None, first)
        } else {
            if fb.first() != Some(&b'%') {
                return Err(err_at(
                    first,
                    format!(
                        "Expected <opcode> or <result-id> at the beginning of an instruction, found '{}'.",
                        self.word(first)
                    ),
                ));
            }
            let Some(eq) = self.lx.next() else {
                return Err(self.eof_error("Expected '=', found end of stream."));
            };
            if eq.bytes(src) != b"=" {
                return Err(err_at(eq, "'=' expected after result id."));
            }
            let Some(op) = self.lx.next() else {
                return Err(self.eof_error("Expected opcode, found end of stream."));
            };
            if !starts_with_op(op.bytes(src)) {
                return Err(err_at(
                    op,
                    format!("Invalid Opcode prefix '{}'.", self.word(op)),
                ));
            }
            (Some(first), op)
        };
        let op_name = self.word(name);
        let desc = match self.lookups.opcodes.get(op_name) {
            Some(&(d, gate)) if gate_open(gate, self.version) => d,
            _ => {
                return Err(err_at(name, format!("Invalid Opcode name '{op_name}'")));
            }
        };
        let has_result_type = desc
            .operands
            .first()
            .is_some_and(|o| o.kind.class == KindClass::ResultType);
        let has_result = desc
            .operands
            .iter()
            .take(2)
            .any(|o| o.kind.class == KindClass::Result);
        if has_result && result.is_none() {
            return Err(err_at(
                name,
                format!(
                    "Expected <result-id> at the beginning of an instruction, found '{}'.",
                    self.word(first)
                ),
            ));
        }
        if let (false, Some(r)) = (has_result, result) {
            return Err(err_at(
                name,
                format!(
                    "Cannot set ID {} because {op_name} does not produce a result ID.",
                    self.word(r)
                ),
            ));
        }
        let mut inst = Inst {
            start: self.out.len(),
            opcode: desc.opcode,
            name,
            result,
            result_type: 0,
            ext: None,
        };
        self.out.push(0);
        self.stack.clear();
        // `OpExtInst`'s trailing operands are those of the extended instruction, pushed once
        // its number is known.
        let operands = match desc.operands.split_last() {
            Some((last, rest))
                if desc.opcode == OP_EXT_INST && last.quantifier == Quantifier::Many =>
            {
                rest
            }
            _ => desc.operands,
        };
        self.push_operands(operands);
        self.operands(&mut inst, op_name)?;
        self.finish(&inst, desc, has_result_type, has_result)
    }

    /// Records what the instruction defines and writes its first word.
    fn finish(
        &mut self,
        inst: &Inst,
        desc: &'static InstructionDesc,
        has_result_type: bool,
        has_result: bool,
    ) -> Result<(), AssembleError> {
        let start = inst.start;
        let count = self.out.len() - start;
        let at = inst.result.unwrap_or(inst.name);
        if has_result {
            let at_index = start + 1 + usize::from(has_result_type);
            if let Some(&id) = self.out.get(at_index) {
                if generates_type(desc.opcode) {
                    if self.types.get(id) != TypeInfo::None {
                        return Err(err_at(
                            at,
                            format!("Value {id} has already been used to generate a type"),
                        ));
                    }
                    let info = match desc.opcode {
                        OP_TYPE_INT => {
                            if count != 4 {
                                return Err(err_at(inst.name, "Invalid OpTypeInt instruction"));
                            }
                            TypeInfo::Int {
                                width: self.out[start + 2],
                                signed: self.out[start + 3] != 0,
                            }
                        }
                        OP_TYPE_FLOAT => {
                            if count != 3 {
                                return Err(err_at(inst.name, "Invalid OpTypeFloat instruction"));
                            }
                            TypeInfo::Float {
                                width: self.out[start + 2],
                            }
                        }
                        _ => TypeInfo::Other,
                    };
                    self.types.set(id, info);
                } else if has_result_type {
                    if let Some(&ty) = self.out.get(start + 1) {
                        if self.value_types.get(id) == 0 {
                            self.value_types.set(id, ty);
                        }
                    }
                }
                if self.defined.get(id) {
                    let shown = inst.result.map(|r| self.word(r)).unwrap_or("");
                    return Err(err_at(
                        at,
                        format!("ID {shown} (id {id}) is being defined a second time"),
                    ));
                }
                self.defined.set(id, true);
            }
        }
        if count > 0xffff {
            return Err(err_at(
                inst.name,
                format!(
                    "{} Instruction too long: {count} words, but the limit is 65535",
                    self.word(inst.name)
                ),
            ));
        }
        self.out[start] = (count as u32) << 16 | desc.opcode;
        Ok(())
    }

    /// `!<integer>` at the start of an instruction: the words are written as they are.
    fn immediate_instruction(&mut self, first: Token) -> Result<(), AssembleError> {
        self.lx.next();
        self.immediate(first)?;
        let mut inst = Inst {
            start: self.out.len() - 1,
            opcode: NO_OPCODE,
            name: first,
            result: None,
            result_type: 0,
            ext: None,
        };
        while self.lx.peek(0).is_some() && !self.at_new_instruction() {
            let Some(t) = self.lx.next() else { break };
            if t.bytes(self.src) == b"=" {
                return Err(err_at(
                    t,
                    format!("{} not allowed before =.", self.word(first)),
                ));
            }
            if t.bytes(self.src).first() == Some(&b'!') {
                self.immediate(t)?;
            } else {
                self.civ(&mut inst, t)?;
            }
        }
        Ok(())
    }

    /// Encodes a `!<integer>` word.
    fn immediate(&mut self, t: Token) -> Result<(), AssembleError> {
        let w = self.word(t);
        match literal::parse_u32(&w[1..]) {
            Some(v) => {
                self.out.push(v);
                Ok(())
            }
            None => Err(err_at(t, format!("Invalid immediate integer: {w}"))),
        }
    }

    /// After `!<integer>` in an operand: only the result id (if still expected, at its place)
    /// keeps its meaning; every other word is a number, string or id.
    fn follow_immediate(&mut self) {
        let result_at = self
            .stack
            .iter()
            .rev()
            .position(|e| matches!(e, Expect::Operand(k, _) if k.class == KindClass::Result));
        self.stack.clear();
        self.stack.push(Expect::Civ);
        if let Some(d) = result_at {
            self.stack
                .push(Expect::Operand(&KIND_ID_RESULT, Quantifier::One));
            for _ in 0..d {
                self.stack.push(Expect::Civ);
            }
        }
    }

    fn push_operands(&mut self, ops: &'static [OperandDesc]) {
        for o in ops.iter().rev() {
            self.stack.push(Expect::Operand(o.kind, o.quantifier));
        }
    }

    fn operands(&mut self, inst: &mut Inst, op_name: &str) -> Result<(), AssembleError> {
        while let Some(e) = self.stack.pop() {
            let optional = match e {
                Expect::Operand(k, Quantifier::Many) => {
                    self.stack.push(e);
                    match k.name {
                        "PairIdRefIdRef" => {
                            self.stack.pop();
                            self.stack
                                .push(Expect::Operand(&KIND_ID_REF, Quantifier::Many));
                        }
                        "PairLiteralIntegerIdRef" => {
                            self.stack
                                .push(Expect::Operand(&KIND_ID_REF, Quantifier::One));
                            self.stack.push(Expect::Typed { optional: true });
                        }
                        _ if k.class == KindClass::Composite => {
                            if k.bases.is_empty() {
                                // Nothing to read: drop the list rather than loop.
                                self.stack.pop();
                            }
                            for (i, b) in k.bases.iter().enumerate().rev() {
                                let q = if i == 0 {
                                    Quantifier::Optional
                                } else {
                                    Quantifier::One
                                };
                                self.stack.push(Expect::Operand(b, q));
                            }
                        }
                        _ => self.stack.push(Expect::Operand(k, Quantifier::Optional)),
                    }
                    continue;
                }
                Expect::Operand(k, q) if k.class == KindClass::Composite => {
                    for (i, b) in k.bases.iter().enumerate().rev() {
                        let q = if i == 0 { q } else { Quantifier::One };
                        self.stack.push(Expect::Operand(b, q));
                    }
                    continue;
                }
                Expect::Operand(k, _) if k.class == KindClass::Result => {
                    if let Some(r) = inst.result {
                        let id = self.id_word(r)?;
                        self.out.push(id);
                        continue;
                    }
                    false
                }
                Expect::Operand(_, q) => q == Quantifier::Optional,
                Expect::Typed { optional } => optional,
                Expect::Civ => true,
            };
            let Some(t) = self.lx.peek(0) else {
                if optional {
                    break;
                }
                return Err(self.eof_error(format!(
                    "Expected operand for {op_name} instruction, but found the end of the stream."
                )));
            };
            if self.at_new_instruction() {
                if optional {
                    break;
                }
                return Err(err_at(
                    t,
                    format!("Expected operand for {op_name} instruction, but found the next instruction instead."),
                ));
            }
            match self.operand(inst, e, t)? {
                Encoded::Done => {
                    self.lx.next();
                }
                Encoded::Immediate => {
                    self.lx.next();
                    self.follow_immediate();
                }
                Encoded::NoMatch => break,
            }
        }
        Ok(())
    }

    /// Encodes one operand word `t`.
    fn operand(&mut self, inst: &mut Inst, e: Expect, t: Token) -> Result<Encoded, AssembleError> {
        let b = t.bytes(self.src);
        if b.first() == Some(&b'!') {
            self.immediate(t)?;
            return Ok(Encoded::Immediate);
        }
        let (k, optional) = match e {
            Expect::Civ => {
                self.civ(inst, t)?;
                if self.stack.is_empty() {
                    self.stack.push(Expect::Civ);
                }
                return Ok(Encoded::Done);
            }
            Expect::Typed { optional } => return self.typed_literal(inst, t, optional),
            Expect::Operand(k, q) => (k, q == Quantifier::Optional),
        };
        match k.class {
            KindClass::Id | KindClass::Result => {
                self.id_operand(inst, t)?;
            }
            KindClass::ResultType => {
                inst.result_type = self.id_operand(inst, t)?;
            }
            KindClass::Integer => {
                return self.number(
                    t,
                    NumberType::Int {
                        width: 32,
                        signed: false,
                    },
                    optional,
                );
            }
            KindClass::Float => {
                return self.number(t, NumberType::Float { width: 32 }, optional);
            }
            KindClass::ContextNumber => return self.typed_literal(inst, t, optional),
            KindClass::String => return self.string(inst, t, optional),
            KindClass::ExtInstNumber => self.ext_inst_number(inst, t)?,
            KindClass::SpecConstantOpcode => {
                let w = self.word(t);
                let d = spec_constant_opcode(w)
                    .and_then(tables::core_instruction)
                    .ok_or_else(|| err_at(t, format!("Invalid OpSpecConstantOp opcode '{w}'.")))?;
                self.out.push(d.opcode);
                self.push_operands(d.operands.get(2..).unwrap_or(&[]));
            }
            KindClass::ValueEnum => {
                let w = self.word(t);
                let e = self
                    .enumerant(k, w)
                    .ok_or_else(|| err_at(t, format!("Invalid {} '{w}'.", kind_str(k))))?;
                self.out.push(e.value);
                self.push_operands(e.parameters);
            }
            KindClass::BitEnum => {
                let w = self.word(t);
                let mut mask = 0u32;
                for part in w.split('|') {
                    match self.enumerant(k, part) {
                        Some(e) => mask |= e.value,
                        None => {
                            return Err(err_at(
                                t,
                                format!("Invalid {} operand '{w}'.", kind_str(k)),
                            ))
                        }
                    }
                }
                self.out.push(mask);
                for bit in (0..32).rev().map(|i| 1u32 << i) {
                    if mask & bit != 0 {
                        if let Some(e) = k.enumerant(bit) {
                            self.push_operands(e.parameters);
                        }
                    }
                }
            }
            KindClass::Composite => {
                // Expanded before reaching here; treat a stray one as its first component.
                if let Some(b) = k.bases.first() {
                    return self.operand(inst, Expect::Operand(b, Quantifier::One), t);
                }
            }
        }
        Ok(Encoded::Done)
    }

    #[inline]
    fn enumerant(&self, k: &'static KindDesc, name: &str) -> Option<&'static EnumerantDesc> {
        match self.lookups.enumerants.get(&(kind_key(k), name)) {
            Some(&(e, gate)) if gate_open(gate, self.version) => Some(e),
            _ => None,
        }
    }

    /// Encodes a number of type `ty`; an optional operand that does not parse is absent.
    #[inline]
    fn number(
        &mut self,
        t: Token,
        ty: NumberType,
        optional: bool,
    ) -> Result<Encoded, AssembleError> {
        match literal::encode_number(self.word(t), ty, &mut self.out) {
            Ok(()) => Ok(Encoded::Done),
            Err(NumberError::InvalidText(_)) if optional => Ok(Encoded::NoMatch),
            Err(e) => Err(err_at(t, e.message())),
        }
    }

    /// `OpConstant`/`OpSpecConstant`'s value or an `OpSwitch` label: as wide as the type.
    fn typed_literal(
        &mut self,
        inst: &Inst,
        t: Token,
        optional: bool,
    ) -> Result<Encoded, AssembleError> {
        let ty = match inst.opcode {
            OP_CONSTANT | OP_SPEC_CONSTANT => match self.types.get(inst.result_type) {
                TypeInfo::Int { width, signed } => NumberType::Int { width, signed },
                TypeInfo::Float { width } => NumberType::Float { width },
                _ => {
                    let name = if inst.opcode == OP_CONSTANT {
                        "Constant"
                    } else {
                        "SpecConstant"
                    };
                    return Err(err_at(
                        t,
                        format!("Type for {name} must be a scalar floating point or integer type"),
                    ));
                }
            },
            OP_SWITCH => {
                let selector = self.out.get(inst.start + 1).copied().unwrap_or(0);
                match self.types.get(self.value_types.get(selector)) {
                    TypeInfo::Int { width, signed } if self.value_types.get(selector) != 0 => {
                        NumberType::Int { width, signed }
                    }
                    _ => {
                        return Err(err_at(
                            t,
                            "The selector operand for OpSwitch must be the result of an instruction that generates an integer scalar",
                        ))
                    }
                }
            }
            _ => self.untyped(self.word(t)),
        };
        self.number(t, ty, optional)
    }

    /// The type a number is read as when nothing gives one: a 32-bit float if it has a `.`,
    /// else a 32-bit integer, signed if negative.
    fn untyped(&self, w: &str) -> NumberType {
        if w.contains('.') {
            NumberType::Float { width: 32 }
        } else {
            NumberType::Int {
                width: 32,
                signed: w.starts_with('-'),
            }
        }
    }

    /// A literal string operand.
    fn string(
        &mut self,
        inst: &mut Inst,
        t: Token,
        optional: bool,
    ) -> Result<Encoded, AssembleError> {
        let b = t.bytes(self.src);
        let raw = match string_literal(b) {
            StringLiteral::Quoted(raw) => raw,
            StringLiteral::Invalid if optional => return Ok(Encoded::NoMatch),
            StringLiteral::Invalid => {
                return Err(err_at(
                    t,
                    format!("Invalid literal string '{}'.", self.word(t)),
                ));
            }
            StringLiteral::Number => {
                return Err(err_at(
                    t,
                    format!(
                        "Expected literal string, found literal number '{}'.",
                        self.word(t)
                    ),
                ));
            }
        };
        self.encode_string(inst, t, raw)?;
        Ok(Encoded::Done)
    }

    fn encode_string(
        &mut self,
        inst: &mut Inst,
        t: Token,
        raw: &[u8],
    ) -> Result<(), AssembleError> {
        if inst.opcode == OP_EXT_INST_IMPORT {
            let name: Vec<u8> = unescaped(raw).collect();
            let Some(set) = ext_set_for_import(&name) else {
                return Err(err_at(
                    t,
                    format!(
                        "Invalid extended instruction import '{}'",
                        String::from_utf8_lossy(&name)
                    ),
                ));
            };
            let id = self.out.get(inst.start + 1).copied().unwrap_or(0);
            if self.imports.insert(id, set).is_some() {
                return Err(err_at(t, "Import Id is being defined a second time"));
            }
        }
        let before = self.out.len();
        let mut word = 0u32;
        let mut n = 0usize;
        for c in unescaped(raw) {
            word |= u32::from(c) << (8 * (n % 4));
            n += 1;
            if n.is_multiple_of(4) {
                self.out.push(word);
                word = 0;
            }
        }
        self.out.push(word);
        if self.out.len() - inst.start > 0xffff {
            self.out.truncate(before);
            return Err(err_at(t, "Instruction too long: more than 65535 words."));
        }
        Ok(())
    }

    /// `OpExtInst`'s instruction: a name of the imported set, or a number in a non-semantic set.
    fn ext_inst_number(&mut self, inst: &Inst, t: Token) -> Result<(), AssembleError> {
        let w = self.word(t);
        let non_semantic = match inst.ext {
            Some(ExtSet::Known {
                index,
                non_semantic,
            }) => {
                if let Some(d) = self.lookups.ext.get(&(index, w)) {
                    self.out.push(d.opcode);
                    self.push_operands(d.operands);
                    return Ok(());
                }
                non_semantic
            }
            Some(ExtSet::UnknownNonSemantic) => true,
            None => false,
        };
        if !non_semantic {
            return Err(err_at(
                t,
                format!("Invalid extended instruction name '{w}'."),
            ));
        }
        match literal_u32(t.bytes(self.src)) {
            Some(n) => {
                self.out.push(n);
                self.stack.push(Expect::Operand(&KIND_ID_REF, Quantifier::Many));
                Ok(())
            }
            None => Err(err_at(
                t,
                format!("Couldn't translate unknown extended instruction name '{w}' to unsigned integer."),
            )),
        }
    }

    /// A free-form word after `!<integer>`: a number, else a string, else an id.
    fn civ(&mut self, inst: &mut Inst, t: Token) -> Result<(), AssembleError> {
        let w = self.word(t);
        let fail = || err_at(t, format!("Invalid word following !<integer>: {w}"));
        let before = self.out.len();
        match literal::encode_number(w, self.untyped(w), &mut self.out) {
            Ok(()) => return Ok(()),
            Err(NumberError::InvalidText(_)) => self.out.truncate(before),
            Err(_) => return Err(fail()),
        }
        match string_literal(t.bytes(self.src)) {
            StringLiteral::Quoted(raw) => {
                return self.encode_string(inst, t, raw).map_err(|_| fail())
            }
            StringLiteral::Number => return Err(fail()),
            StringLiteral::Invalid => {}
        }
        self.id_operand(inst, t).map(|_| ()).map_err(|_| fail())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asm(s: &str) -> Vec<u32> {
        assemble(s, &AssembleOptions::default()).unwrap()
    }

    fn asm_err(s: &str) -> String {
        assemble(s, &AssembleOptions::default())
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn header_and_ids() {
        let w = asm("%5 = OpTypeVoid\n%a = OpTypeBool\n%2 = OpTypeFunction %5\n");
        assert_eq!(&w[..5], &[0x0723_0203, 0x0001_0600, 0x0007_0000, 4, 0]);
        assert_eq!(
            &w[5..],
            &[0x0002_0013, 1, 0x0002_0014, 2, 0x0003_0021, 3, 1]
        );
    }

    #[test]
    fn errors() {
        assert_eq!(
            asm_err("OpCapability Shader\nOpFoo\n"),
            "2:1: error: Invalid Opcode name 'OpFoo'"
        );
        assert_eq!(
            asm_err("OpCapability Shaderx\n"),
            "1:14: error: Invalid capability 'Shaderx'."
        );
        assert_eq!(
            asm_err("OpCapability\n"),
            "2:1: error: Expected operand for OpCapability instruction, but found the end of the stream."
        );
        assert_eq!(asm_err(""), "1:1: error: Missing assembly text.");
    }
}
