//! The instruction printer: one instruction's text, operand by operand against the grammar
//! tables, exactly as `spirv-dis` (SPIRV-Tools 2023.1, target SPIR-V 1.5) prints it. The text
//! layer's disassembler streams whole modules through it with friendly names and indentation;
//! the validator uses [`instruction_texts`] to name the instructions its errors are about,
//! without depending on the text layer.

use super::error::{DecodeError, DecodeErrorKind};
use super::frame::Frames;
use super::header::HEADER_WORDS;
use super::number_text::{write_f32, write_hex_padded, write_literal_number, write_u32};
use super::numeric::{NumericType, NumericTypes};
use crate::grammar::tables::{
    CORE_INSTRUCTIONS, EXT_INST_SETS, KIND_CAPABILITY, KIND_IMAGE_OPERANDS,
    KIND_PAIR_LITERAL_INTEGER_ID_REF,
};
use crate::grammar::{
    op, values, ExtInstSetDesc, ImageOperands, InstructionDesc, KindClass, KindDesc, Opcode,
    OperandDesc, Quantifier,
};
use rustc_hash::FxHashMap as HashMap;
use std::sync::OnceLock;

/// Friendly names of ids, for printers that have them (`%uint` instead of `%3`).
pub(crate) trait IdNames {
    /// The name of `id`; `None` prints its number.
    fn name(&self, id: u32) -> Option<&[u8]>;
}

/// No names: every id prints as its number.
pub(crate) struct RawIds;

impl IdNames for RawIds {
    #[inline]
    fn name(&self, _: u32) -> Option<&[u8]> {
        None
    }
}

/// The bytes of a nul-terminated literal string (without the nul).
pub(crate) fn c_string(words: &[u32]) -> &[u8] {
    let bytes: &[u8] = bytemuck::cast_slice(words);
    match bytes.iter().position(|&b| b == 0) {
        Some(n) => &bytes[..n],
        None => bytes,
    }
}

/// A core instruction and where its result type and result id are.
#[derive(Clone, Copy)]
pub(crate) struct OpInfo {
    pub(crate) desc: &'static InstructionDesc,
    pub(crate) has_type: bool,
    pub(crate) has_result: bool,
}

/// The core instruction with this opcode.
#[inline]
pub(crate) fn op_info(opcode: u16) -> Option<OpInfo> {
    static TABLE: OnceLock<Vec<u16>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let max = CORE_INSTRUCTIONS
            .iter()
            .map(|i| i.opcode)
            .max()
            .unwrap_or(0) as usize;
        let mut t = vec![u16::MAX; max + 1];
        for (k, i) in CORE_INSTRUCTIONS.iter().enumerate() {
            t[i.opcode as usize] = k as u16;
        }
        t
    });
    let k = *table.get(usize::from(opcode))?;
    let desc = CORE_INSTRUCTIONS.get(usize::from(k))?;
    let class = |i: usize| desc.operands.get(i).map(|o| o.kind.class);
    let has_type = class(0) == Some(KindClass::ResultType);
    let has_result = class(usize::from(has_type)) == Some(KindClass::Result);
    Some(OpInfo {
        desc,
        has_type,
        has_result,
    })
}

/// The name SPIRV-Tools prints for an instruction: its opcode table is sorted by opcode and
/// then name, so of the names sharing an opcode the smallest wins
/// (`OpTypeAccelerationStructureKHR`, not `...NV`).
pub(crate) fn opcode_name(desc: &'static InstructionDesc) -> &'static str {
    desc.aliases
        .iter()
        .copied()
        .fold(desc.name, |a, b| a.min(b))
}

/// Whether SPIRV-Tools (target SPIR-V 1.5) accepts an enumerant the grammar has: it rejects
/// those introduced after 1.5 that no capability or extension enables (aliases pool their
/// extensions, so only enumerants without aliases are affected).
fn available(kind: &KindDesc, value: u32) -> bool {
    !((std::ptr::eq(kind, &KIND_CAPABILITY) && value == values::capability::UniformDecoration)
        || (std::ptr::eq(kind, &KIND_IMAGE_OPERANDS) && value == ImageOperands::Nontemporal.0))
}

/// An `OpExtInstImport`ed set, as SPIRV-Tools 2023.1 knows it.
#[derive(Clone, Copy)]
enum ExtSet {
    /// A set with a grammar; unknown instructions are errors unless it is non-semantic.
    Known {
        desc: &'static ExtInstSetDesc,
        non_semantic: bool,
    },
    /// Another `NonSemantic.*` set: instruction numbers and id operands.
    UnknownNonSemantic,
}

fn ext_set(name: &[u8]) -> Option<ExtSet> {
    const CLSPV: &[u8] = b"NonSemantic.ClspvReflection.";
    let find = |n: &[u8]| {
        EXT_INST_SETS.iter().find(|s| {
            let s = s.name.as_bytes();
            if n == CLSPV {
                s.starts_with(CLSPV)
            } else {
                s == n
            }
        })
    };
    let (key, non_semantic): (&[u8], bool) = match name {
        b"GLSL.std.450"
        | b"OpenCL.std"
        | b"SPV_AMD_shader_explicit_vertex_parameter"
        | b"SPV_AMD_shader_trinary_minmax"
        | b"SPV_AMD_gcn_shader"
        | b"SPV_AMD_shader_ballot"
        | b"DebugInfo"
        | b"OpenCL.DebugInfo.100" => (name, false),
        b"NonSemantic.Shader.DebugInfo.100" => (name, true),
        _ if name.starts_with(CLSPV) => (CLSPV, true),
        _ if name.starts_with(b"NonSemantic.") => return Some(ExtSet::UnknownNonSemantic),
        _ => return None,
    };
    match find(key) {
        Some(desc) => Some(ExtSet::Known { desc, non_semantic }),
        None if non_semantic => Some(ExtSet::UnknownNonSemantic),
        None => None,
    }
}

/// Prints instructions one at a time into [`Printer::buf`], remembering what later operands
/// need (numeric types, extended-set imports, defined ids).
pub(crate) struct Printer<N> {
    bound: u32,
    /// Right-align result ids so that opcodes start at column 15.
    indent: bool,
    /// Prefix each instruction with its word offset.
    offsets: bool,
    names: N,
    /// The text printed so far (the caller flushes it).
    pub(crate) buf: Vec<u8>,
    types: NumericTypes,
    ext_sets: HashMap<u32, ExtSet>,
    /// Whether a second definition of an id is an error (not when printing single
    /// instructions for messages about possibly invalid modules).
    reject_redefinition: bool,
    /// Result ids seen so far: a bit per id below the dense limit, a set above it.
    defined: Vec<u64>,
    defined_sparse: rustc_hash::FxHashSet<u32>,
}

/// The instruction being printed.
struct Inst<'a> {
    opcode: u16,
    ops: &'a [u32],
    /// Next operand word.
    pos: usize,
    /// Word offset of `ops[0]` in the module.
    base: usize,
    result_type: u32,
    /// The operands of a known extended instruction were read: nothing else may follow.
    done: bool,
}

impl Inst<'_> {
    fn error(&self, kind: DecodeErrorKind) -> DecodeError {
        DecodeError {
            offset: self.base + self.pos,
            kind,
        }
    }

    #[inline]
    fn word(&mut self, what: &'static str) -> Result<u32, DecodeError> {
        match self.ops.get(self.pos) {
            Some(&w) => {
                self.pos += 1;
                Ok(w)
            }
            None => Err(self.error(DecodeErrorKind::MissingOperand(what))),
        }
    }

    fn at_end(&self) -> bool {
        self.pos >= self.ops.len()
    }
}

impl<N: IdNames> Printer<N> {
    /// A printer for a whole module of `words` words with id bound `bound`, as `spirv-dis`
    /// prints it: a second definition of an id is an error.
    pub(crate) fn new(
        bound: u32,
        words: usize,
        names: N,
        indent: bool,
        offsets: bool,
        buf: Vec<u8>,
    ) -> Self {
        let dense = (bound as usize).min(words + 1);
        Printer {
            bound,
            indent,
            offsets,
            names,
            buf,
            types: NumericTypes::new(dense),
            ext_sets: HashMap::default(),
            reject_redefinition: true,
            defined: vec![0; dense.div_ceil(64)],
            defined_sparse: rustc_hash::FxHashSet::default(),
        }
    }

    #[inline]
    fn write_id(&mut self, id: u32) {
        self.buf.push(b'%');
        match self.names.name(id) {
            Some(s) => self.buf.extend_from_slice(s),
            None => write_u32(&mut self.buf, id),
        }
    }

    /// Prints one instruction (a line) at word `offset`.
    pub(crate) fn instruction(
        &mut self,
        offset: usize,
        opcode: u16,
        ops: &[u32],
    ) -> Result<(), DecodeError> {
        let Some(info) = op_info(opcode) else {
            return Err(DecodeError {
                offset,
                kind: DecodeErrorKind::UnknownEnumerant {
                    kind: "opcode",
                    value: u32::from(opcode),
                },
            });
        };
        let mut inst = Inst {
            opcode,
            ops,
            pos: 0,
            base: offset + 1,
            result_type: 0,
            done: false,
        };
        let mut result = None;
        if info.has_result {
            let at = usize::from(info.has_type);
            let Some(&r) = ops.get(at) else {
                inst.pos = ops.len();
                return Err(inst.error(DecodeErrorKind::MissingOperand("IdResult")));
            };
            if r == 0 || r >= self.bound {
                inst.pos = at;
                return Err(inst.error(DecodeErrorKind::IdOutOfBound {
                    id: r,
                    bound: self.bound,
                }));
            }
            let fresh = !self.reject_redefinition
                || match self.defined.get_mut(r as usize / 64) {
                    Some(w) => {
                        let bit = 1u64 << (r % 64);
                        let fresh = *w & bit == 0;
                        *w |= bit;
                        fresh
                    }
                    None => self.defined_sparse.insert(r),
                };
            if !fresh {
                inst.pos = at;
                return Err(inst.error(DecodeErrorKind::DuplicateId(r)));
            }
            result = Some(r);
            let name_len = match self.names.name(r) {
                Some(s) => s.len(),
                None => decimal_len(r),
            };
            if self.indent && name_len < 11 {
                self.buf.extend_from_slice(&b"           "[..11 - name_len]);
            }
            self.write_id(r);
            self.buf.extend_from_slice(b" = ");
        } else if self.indent {
            self.buf.extend_from_slice(b"               ");
        }
        if info.has_type {
            inst.result_type = ops.first().copied().unwrap_or(0);
        }
        self.buf
            .extend_from_slice(opcode_name(info.desc).as_bytes());
        self.walk(&mut inst, info.desc.operands)?;
        if !inst.at_end() {
            return Err(inst.error(DecodeErrorKind::ExtraOperands(ops.len() - inst.pos)));
        }
        match (opcode, result) {
            (op::TypeInt | op::TypeFloat, Some(_)) => {
                if let Some((r, t)) = NumericType::declared(opcode, ops) {
                    self.types.define_type(r, t);
                }
            }
            (op::ExtInstImport, Some(r)) => {
                let name = c_string(ops.get(1..).unwrap_or(&[]));
                match ext_set(name) {
                    Some(set) => {
                        self.ext_sets.insert(r, set);
                    }
                    None => {
                        inst.pos = 1;
                        return Err(inst.error(DecodeErrorKind::UnknownExtInstSet(r)));
                    }
                }
            }
            (_, Some(r)) if info.has_type => self.types.define_value(r, inst.result_type),
            _ => {}
        }
        if self.offsets {
            self.buf.extend_from_slice(b" ; 0x");
            write_hex_padded(&mut self.buf, offset as u64 * 4, 8);
        }
        self.buf.push(b'\n');
        Ok(())
    }

    /// Reads and prints the operands described by `descs`.
    fn walk(
        &mut self,
        inst: &mut Inst<'_>,
        descs: &'static [OperandDesc],
    ) -> Result<(), DecodeError> {
        for d in descs {
            match d.quantifier {
                Quantifier::One => self.operand(inst, d.kind)?,
                Quantifier::Optional => {
                    if !inst.at_end() {
                        self.operand(inst, d.kind)?;
                    }
                }
                Quantifier::Many => {
                    while !inst.at_end() && !inst.done {
                        self.operand(inst, d.kind)?;
                    }
                }
            }
            if inst.done {
                break;
            }
        }
        Ok(())
    }

    /// Reads and prints an enumerant's parameters. SPIRV-Tools 2023.1 ignores their
    /// quantifiers: each occurs exactly once (`BankBitsINTEL` takes one literal).
    fn parameters(
        &mut self,
        inst: &mut Inst<'_>,
        params: &'static [OperandDesc],
    ) -> Result<(), DecodeError> {
        for p in params {
            self.operand(inst, p.kind)?;
        }
        Ok(())
    }

    fn id(&mut self, inst: &mut Inst<'_>, what: &'static str) -> Result<(), DecodeError> {
        let id = inst.word(what)?;
        if id == 0 || id >= self.bound {
            inst.pos -= 1;
            return Err(inst.error(DecodeErrorKind::IdOutOfBound {
                id,
                bound: self.bound,
            }));
        }
        self.buf.push(b' ');
        self.write_id(id);
        Ok(())
    }

    /// A literal of numeric type `ty` (missing: the error names `of`).
    fn typed_number(
        &mut self,
        inst: &mut Inst<'_>,
        ty: Option<NumericType>,
        of: u32,
    ) -> Result<(), DecodeError> {
        if inst.at_end() {
            return Err(inst.error(DecodeErrorKind::MissingOperand("a literal number")));
        }
        let t = match ty {
            Some(t) if t.width() > 0 => t,
            _ => return Err(inst.error(DecodeErrorKind::NotNumericType { id: of })),
        };
        let n = t.words();
        if inst.ops.len() - inst.pos < n {
            return Err(inst.error(DecodeErrorKind::MissingOperand("a literal number")));
        }
        self.buf.push(b' ');
        write_literal_number(&mut self.buf, t, &inst.ops[inst.pos..inst.pos + n]);
        inst.pos += n;
        Ok(())
    }

    fn operand(&mut self, inst: &mut Inst<'_>, kind: &'static KindDesc) -> Result<(), DecodeError> {
        match kind.class {
            KindClass::Result => {
                // Checked and printed before the opcode.
                inst.word(kind.name)?;
            }
            KindClass::ResultType | KindClass::Id => self.id(inst, kind.name)?,
            KindClass::Integer => {
                let w = inst.word(kind.name)?;
                self.buf.push(b' ');
                write_u32(&mut self.buf, w);
            }
            KindClass::Float => {
                let w = inst.word(kind.name)?;
                self.buf.push(b' ');
                write_f32(&mut self.buf, w);
            }
            KindClass::String => self.string(inst)?,
            KindClass::ContextNumber => {
                let ty = inst.result_type;
                self.typed_number(inst, self.types.numeric_type(ty), ty)?;
            }
            KindClass::Composite => {
                for (i, base) in kind.bases.iter().enumerate() {
                    if i == 0 && std::ptr::eq(kind, &KIND_PAIR_LITERAL_INTEGER_ID_REF) {
                        // OpSwitch: the literal is as wide as the selector's integer type.
                        let selector = inst.ops.first().copied().unwrap_or(0);
                        let ty = self.types.type_of_value(selector).filter(|t| !t.is_float());
                        self.typed_number(inst, ty, selector)?;
                    } else {
                        self.operand(inst, base)?;
                    }
                }
            }
            KindClass::ValueEnum => {
                let w = inst.word(kind.name)?;
                let e = match kind.enumerant(w) {
                    Some(e) if available(kind, w) => e,
                    _ => {
                        inst.pos -= 1;
                        return Err(inst.error(DecodeErrorKind::UnknownEnumerant {
                            kind: kind.name,
                            value: w,
                        }));
                    }
                };
                self.buf.push(b' ');
                self.buf.extend_from_slice(e.name.as_bytes());
                self.parameters(inst, e.parameters)?;
            }
            KindClass::BitEnum => self.mask(inst, kind)?,
            KindClass::ExtInstNumber => self.ext_inst_number(inst)?,
            KindClass::SpecConstantOpcode => {
                let w = inst.word(kind.name)?;
                // The operations SPIRV-Tools 2023.1 accepts (`opcode_groups.json`).
                let op = u16::try_from(w).ok().and_then(op_info).filter(|i| {
                    i.desc.operands.len() >= 2
                        && u16::try_from(i.desc.opcode)
                            .ok()
                            .and_then(Opcode::from_u16)
                            .is_some_and(Opcode::is_spec_constant_op)
                });
                let Some(op) = op else {
                    inst.pos -= 1;
                    return Err(inst.error(DecodeErrorKind::UnknownEnumerant {
                        kind: "OpSpecConstantOp opcode",
                        value: w,
                    }));
                };
                self.buf.push(b' ');
                let name = opcode_name(op.desc);
                self.buf
                    .extend_from_slice(name.strip_prefix("Op").unwrap_or(name).as_bytes());
                self.walk(inst, &op.desc.operands[2..])?;
            }
        }
        Ok(())
    }

    fn string(&mut self, inst: &mut Inst<'_>) -> Result<(), DecodeError> {
        let rest = &inst.ops[inst.pos.min(inst.ops.len())..];
        if rest.is_empty() {
            return Err(inst.error(DecodeErrorKind::MissingOperand("LiteralString")));
        }
        let bytes: &[u8] = bytemuck::cast_slice(rest);
        let Some(len) = bytes.iter().position(|&b| b == 0) else {
            return Err(inst.error(DecodeErrorKind::UnterminatedString));
        };
        self.buf.extend_from_slice(b" \"");
        let s = &bytes[..len];
        let mut from = 0;
        for (i, &c) in s.iter().enumerate() {
            if c == b'"' || c == b'\\' {
                self.buf.extend_from_slice(&s[from..i]);
                self.buf.push(b'\\');
                from = i;
            }
        }
        self.buf.extend_from_slice(&s[from..]);
        self.buf.push(b'"');
        inst.pos += len / 4 + 1;
        Ok(())
    }

    fn mask(&mut self, inst: &mut Inst<'_>, kind: &'static KindDesc) -> Result<(), DecodeError> {
        let w = inst.word(kind.name)?;
        let mut rest = w;
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            if kind.enumerant(bit).is_none() || !available(kind, bit) {
                inst.pos -= 1;
                return Err(inst.error(DecodeErrorKind::UnknownEnumerant {
                    kind: kind.name,
                    value: bit,
                }));
            }
            rest &= rest - 1;
        }
        self.buf.push(b' ');
        if w == 0 {
            if let Some(e) = kind.enumerant(0) {
                self.buf.extend_from_slice(e.name.as_bytes());
            }
            return Ok(());
        }
        let mut rest = w;
        let mut first = true;
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            rest &= rest - 1;
            if let Some(e) = kind.enumerant(bit) {
                if !first {
                    self.buf.push(b'|');
                }
                first = false;
                self.buf.extend_from_slice(e.name.as_bytes());
            }
        }
        let mut rest = w;
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            rest &= rest - 1;
            if let Some(e) = kind.enumerant(bit) {
                self.parameters(inst, e.parameters)?;
            }
        }
        Ok(())
    }

    fn ext_inst_number(&mut self, inst: &mut Inst<'_>) -> Result<(), DecodeError> {
        // OpExtInst: result type, result, set, number.
        let set_id = match (inst.opcode, inst.pos) {
            (12, 3) => inst.ops.get(2).copied().unwrap_or(0),
            _ => 0,
        };
        let Some(&set) = self.ext_sets.get(&set_id) else {
            inst.pos = inst.pos.saturating_sub(1);
            return Err(inst.error(DecodeErrorKind::UnknownExtInstSet(set_id)));
        };
        let number = inst.word("LiteralExtInstInteger")?;
        match set {
            ExtSet::Known { desc, non_semantic } => match desc.instruction(number) {
                Some(i) => {
                    self.buf.push(b' ');
                    self.buf.extend_from_slice(i.name.as_bytes());
                    self.walk(inst, i.operands)?;
                    inst.done = true;
                }
                None if non_semantic => {
                    self.buf.push(b' ');
                    write_u32(&mut self.buf, number);
                }
                None => {
                    inst.pos -= 1;
                    return Err(inst.error(DecodeErrorKind::UnknownEnumerant {
                        kind: desc.name,
                        value: number,
                    }));
                }
            },
            ExtSet::UnknownNonSemantic => {
                self.buf.push(b' ');
                write_u32(&mut self.buf, number);
            }
        }
        Ok(())
    }
}

fn decimal_len(mut v: u32) -> usize {
    let mut n = 1;
    while v >= 10 {
        v /= 10;
        n += 1;
    }
    n
}

/// The text of the instructions at the given word offsets, as `spirv-dis --raw-id
/// --no-indent --no-header` prints them (`%5 = OpIAdd %1 %3 %4`), for messages that name an
/// instruction. One pass over the module keeps the types literals need; an instruction that
/// cannot be printed (unknown opcode or enumerant) is shown as its opcode and raw words.
/// Offsets that are not the start of an instruction get an empty string.
pub fn instruction_texts(words: &[u32], offsets: &[usize]) -> Vec<String> {
    let mut out = vec![String::new(); offsets.len()];
    if words.len() < 5 || offsets.is_empty() {
        return out;
    }
    let mut wanted: Vec<(usize, usize)> = offsets.iter().copied().zip(0..).collect();
    wanted.sort_unstable();
    let mut p = Printer {
        bound: words[3],
        indent: false,
        offsets: false,
        names: RawIds,
        buf: Vec::with_capacity(256),
        types: NumericTypes::new((words[3] as usize).min(words.len() + 1)),
        ext_sets: HashMap::default(),
        reject_redefinition: false,
        defined: Vec::new(),
        defined_sparse: rustc_hash::FxHashSet::default(),
    };
    let mut next = 0;
    for raw in Frames::new(words, HEADER_WORDS).map_while(Result::ok) {
        if next >= wanted.len() {
            break;
        }
        let (pos, opcode, ops) = (raw.offset, raw.opcode, raw.operands);
        p.buf.clear();
        let printed = p.instruction(pos, opcode, ops).is_ok();
        while next < wanted.len() && wanted[next].0 <= pos {
            if wanted[next].0 == pos {
                let text = if printed {
                    String::from_utf8_lossy(p.buf.strip_suffix(b"\n").unwrap_or(&p.buf))
                        .into_owned()
                } else {
                    raw_instruction_text(opcode, ops)
                };
                out[wanted[next].1] = text;
            }
            next += 1;
        }
    }
    out
}

/// `OpName w1 w2 ...` (or `Op<n>` when the opcode is unknown), for instructions that cannot be
/// disassembled.
fn raw_instruction_text(opcode: u16, ops: &[u32]) -> String {
    let mut s = match op_info(opcode) {
        Some(info) => opcode_name(info.desc).to_string(),
        None => format!("Op<{opcode}>"),
    };
    for w in ops {
        s.push_str(&format!(" 0x{w:x}"));
    }
    s
}
