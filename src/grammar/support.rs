//! Hand-written types the generated grammar code is written against.

use super::{Capability, Extension, Opcode};
use core::fmt;

/// A SPIR-V `<id>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Id(pub u32);

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "%{}", self.0)
    }
}

/// A SPIR-V version, `major.minor`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Version(pub u8, pub u8);

impl Version {
    /// The version word of a module header (`0x00MMmm00`).
    pub fn word(self) -> u32 {
        (u32::from(self.0) << 16) | (u32::from(self.1) << 8)
    }

    /// The version in a header word, if the word is well formed.
    pub fn from_word(w: u32) -> Option<Version> {
        if w & 0xff00_00ff != 0 {
            return None;
        }
        Some(Version((w >> 16) as u8, (w >> 8) as u8))
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.0, self.1)
    }
}

/// When an instruction or enumerant may be used.
#[derive(Debug, PartialEq, Eq)]
pub struct Availability {
    /// The first core version with it; `None` when only extensions enable it.
    pub version: Option<Version>,
    /// The last core version with it.
    pub last_version: Option<Version>,
    /// Declaring any one of these capabilities enables it (none: no capability needed).
    pub capabilities: &'static [Capability],
    /// Any one of these extensions enables it (none: no extension needed).
    pub extensions: &'static [Extension],
    /// It belongs to a provisional extension.
    pub provisional: bool,
}

/// Things that may need versions, capabilities or extensions: instructions and operands.
pub trait Requires {
    /// Calls `f` with the availability of everything this value uses.
    fn visit_requirements(&self, _f: &mut dyn FnMut(&'static Availability)) {}

    /// The availability of everything this value uses: the instruction's own, then that of
    /// each enum operand and of their parameters, in operand order.
    fn requirements(&self) -> Vec<&'static Availability> {
        let mut v = Vec::new();
        self.visit_requirements(&mut |a| v.push(a));
        v
    }
}

impl Requires for Id {}
impl Requires for u32 {}
impl Requires for String {}
impl Requires for LiteralNumber {}
impl<T: Requires> Requires for Option<T> {
    fn visit_requirements(&self, f: &mut dyn FnMut(&'static Availability)) {
        if let Some(v) = self {
            v.visit_requirements(f)
        }
    }
}
impl<T: Requires> Requires for Vec<T> {
    fn visit_requirements(&self, f: &mut dyn FnMut(&'static Availability)) {
        for v in self {
            v.visit_requirements(f)
        }
    }
}
impl<A: Requires, B: Requires> Requires for (A, B) {
    fn visit_requirements(&self, f: &mut dyn FnMut(&'static Availability)) {
        self.0.visit_requirements(f);
        self.1.visit_requirements(f);
    }
}
impl<A: Requires, B: Requires, C: Requires> Requires for (A, B, C) {
    fn visit_requirements(&self, f: &mut dyn FnMut(&'static Availability)) {
        self.0.visit_requirements(f);
        self.1.visit_requirements(f);
        self.2.visit_requirements(f);
    }
}
impl Requires for SpecConstantOperation {
    fn visit_requirements(&self, f: &mut dyn FnMut(&'static Availability)) {
        f(self.opcode.availability())
    }
}

/// Things that mention `<id>`s: instructions and operands.
pub trait Ids {
    /// Calls `f` with every id, in operand order (result type and result id included).
    fn visit_ids(&self, _f: &mut dyn FnMut(Id)) {}
    /// Calls `f` with a mutable reference to every id, in operand order.
    fn visit_ids_mut(&mut self, _f: &mut dyn FnMut(&mut Id)) {}
}

impl Ids for Id {
    fn visit_ids(&self, f: &mut dyn FnMut(Id)) {
        f(*self)
    }
    fn visit_ids_mut(&mut self, f: &mut dyn FnMut(&mut Id)) {
        f(self)
    }
}
impl Ids for u32 {}
impl Ids for String {}
impl Ids for LiteralNumber {}
impl<T: Ids> Ids for Option<T> {
    fn visit_ids(&self, f: &mut dyn FnMut(Id)) {
        if let Some(v) = self {
            v.visit_ids(f)
        }
    }
    fn visit_ids_mut(&mut self, f: &mut dyn FnMut(&mut Id)) {
        if let Some(v) = self {
            v.visit_ids_mut(f)
        }
    }
}
impl<T: Ids> Ids for Vec<T> {
    fn visit_ids(&self, f: &mut dyn FnMut(Id)) {
        for v in self {
            v.visit_ids(f)
        }
    }
    fn visit_ids_mut(&mut self, f: &mut dyn FnMut(&mut Id)) {
        for v in self {
            v.visit_ids_mut(f)
        }
    }
}
impl<A: Ids, B: Ids> Ids for (A, B) {
    fn visit_ids(&self, f: &mut dyn FnMut(Id)) {
        self.0.visit_ids(f);
        self.1.visit_ids(f);
    }
    fn visit_ids_mut(&mut self, f: &mut dyn FnMut(&mut Id)) {
        self.0.visit_ids_mut(f);
        self.1.visit_ids_mut(f);
    }
}
impl<A: Ids, B: Ids, C: Ids> Ids for (A, B, C) {
    fn visit_ids(&self, f: &mut dyn FnMut(Id)) {
        self.0.visit_ids(f);
        self.1.visit_ids(f);
        self.2.visit_ids(f);
    }
    fn visit_ids_mut(&mut self, f: &mut dyn FnMut(&mut Id)) {
        self.0.visit_ids_mut(f);
        self.1.visit_ids_mut(f);
        self.2.visit_ids_mut(f);
    }
}
impl Ids for SpecConstantOperation {
    /// The embedded operation's id operands, per the grammar's operand list of its opcode
    /// (its literal indices are not ids).
    fn visit_ids(&self, f: &mut dyn FnMut(Id)) {
        for (i, w) in self.operands.iter().enumerate() {
            if self.operand_is_id(i) {
                f(Id(*w))
            }
        }
    }
    fn visit_ids_mut(&mut self, f: &mut dyn FnMut(&mut Id)) {
        for i in 0..self.operands.len() {
            if self.operand_is_id(i) {
                let mut id = Id(self.operands[i]);
                f(&mut id);
                self.operands[i] = id.0;
            }
        }
    }
}

impl SpecConstantOperation {
    /// Whether operand word `i` is an id, per the embedded opcode's grammar entry.
    pub fn operand_is_id(&self, i: usize) -> bool {
        let Some(desc) = super::tables::core_instruction(self.opcode.value()) else {
            return false;
        };
        let mut ops = desc
            .operands
            .iter()
            .filter(|o| !matches!(o.kind.class, KindClass::ResultType | KindClass::Result));
        let mut last = None;
        for _ in 0..=i {
            last = ops
                .next()
                .or(last.filter(|o: &&OperandDesc| o.quantifier == Quantifier::Many));
        }
        last.is_some_and(|o| o.kind.class == KindClass::Id)
    }
}

/// Calls `f` with the availability of every set bit of a flags mask.
pub fn visit_bits(
    mask: u32,
    of: fn(u32) -> Option<&'static Availability>,
    f: &mut dyn FnMut(&'static Availability),
) {
    let mut m = mask;
    while m != 0 {
        let bit = m & m.wrapping_neg();
        if let Some(a) = of(bit) {
            f(a);
        }
        m &= m - 1;
    }
}

/// A literal number whose width is given by a type (`OpConstant`, `OpSwitch` labels): one word
/// up to 32 bits, two up to 64, more for wider integers. Narrower values sit in the low bits.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum LiteralNumber {
    /// One word.
    Word(u32),
    /// Two words, low word first in the binary.
    DoubleWord(u64),
    /// More words, low word first.
    Words(Vec<u32>),
}

impl LiteralNumber {
    /// The low 64 bits.
    pub fn low_u64(&self) -> u64 {
        match self {
            LiteralNumber::Word(w) => u64::from(*w),
            LiteralNumber::DoubleWord(d) => *d,
            LiteralNumber::Words(ws) => {
                u64::from(ws.first().copied().unwrap_or(0))
                    | u64::from(ws.get(1).copied().unwrap_or(0)) << 32
            }
        }
    }
}

/// `OpSpecConstantOp`'s operation: the embedded opcode and its operand words (every operand of
/// the opcodes it allows is one word: an id or a literal index).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SpecConstantOperation {
    /// The embedded opcode.
    pub opcode: Opcode,
    /// Its operands, without result type and result id.
    pub operands: Vec<u32>,
}

/// An instruction the grammar does not know, or with an enumerant it does not know: kept as
/// raw words so that encoding reproduces it exactly.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct UnknownInstruction {
    /// The opcode.
    pub opcode: u16,
    /// Every word after the opcode word.
    pub operands: Vec<u32>,
}

/// A name that is not an enumerant, flag, opcode or extension of the grammar.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownName {
    /// What was expected.
    pub kind: &'static str,
    /// What was given.
    pub name: String,
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}: {}", self.name, self.kind)
    }
}

impl std::error::Error for UnknownName {}

/// Writes a flags mask as `A|B`, the zero name when empty, unnamed bits in hex.
pub fn write_flags(
    f: &mut fmt::Formatter<'_>,
    mask: u32,
    named: &[(u32, &str)],
    zero: &str,
) -> fmt::Result {
    if mask == 0 {
        return f.write_str(zero);
    }
    let mut rest = mask;
    let mut first = true;
    for &(bit, name) in named {
        if mask & bit == bit {
            if !first {
                f.write_str("|")?;
            }
            f.write_str(name)?;
            first = false;
            rest &= !bit;
        }
    }
    if rest != 0 {
        if !first {
            f.write_str("|")?;
        }
        write!(f, "0x{rest:x}")?;
    }
    Ok(())
}

/// Parses a decimal or `0x` hexadecimal word.
pub fn parse_u32(s: &str) -> Option<u32> {
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u32::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    }
}

/// How many times an operand occurs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantifier {
    /// Exactly once.
    One,
    /// Zero or once.
    Optional,
    /// Zero or more.
    Many,
}

/// What a table-driven tool must do with an operand kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KindClass {
    /// `IdResultType`.
    ResultType,
    /// `IdResult`.
    Result,
    /// Any other `<id>` (`IdRef`, `IdScope`, `IdMemorySemantics`).
    Id,
    /// One literal word.
    Integer,
    /// `LiteralExtInstInteger`: an instruction number of the imported set.
    ExtInstNumber,
    /// A 32-bit float word.
    Float,
    /// A nul-terminated string.
    String,
    /// A number as wide as the result type (`OpConstant`).
    ContextNumber,
    /// `OpSpecConstantOp`'s embedded opcode.
    SpecConstantOpcode,
    /// A value enum.
    ValueEnum,
    /// A bit enum.
    BitEnum,
    /// A pair of other kinds (see `bases`); `PairLiteralIntegerIdRef`'s literal is as wide as
    /// `OpSwitch`'s selector.
    Composite,
}

/// A grammar operand kind.
#[derive(Debug)]
pub struct KindDesc {
    /// The grammar's name.
    pub name: &'static str,
    /// How to handle it.
    pub class: KindClass,
    /// Enumerants, ascending by value (enum kinds).
    pub enumerants: &'static [EnumerantDesc],
    /// Components (composite kinds).
    pub bases: &'static [&'static KindDesc],
}

impl KindDesc {
    /// The enumerant with this value.
    pub fn enumerant(&self, value: u32) -> Option<&'static EnumerantDesc> {
        self.enumerants
            .binary_search_by_key(&value, |e| e.value)
            .ok()
            .map(|i| &self.enumerants[i])
    }

    /// The enumerant with this name or alias.
    pub fn enumerant_by_name(&self, name: &str) -> Option<&'static EnumerantDesc> {
        self.enumerants
            .iter()
            .find(|e| e.name == name || e.aliases.contains(&name))
    }
}

/// A grammar enumerant.
#[derive(Debug)]
pub struct EnumerantDesc {
    /// Canonical name.
    pub name: &'static str,
    /// Other names.
    pub aliases: &'static [&'static str],
    /// Value (the bit, for bit enums).
    pub value: u32,
    /// Parameters that follow when it is chosen.
    pub parameters: &'static [OperandDesc],
}

/// An operand in a descriptor.
#[derive(Debug)]
pub struct OperandDesc {
    /// Its kind.
    pub kind: &'static KindDesc,
    /// How often it occurs.
    pub quantifier: Quantifier,
    /// The grammar's (cleaned) name, possibly empty.
    pub name: &'static str,
}

/// An instruction descriptor.
#[derive(Debug)]
pub struct InstructionDesc {
    /// Canonical name.
    pub name: &'static str,
    /// Other names.
    pub aliases: &'static [&'static str],
    /// Opcode, or instruction number within an extended set.
    pub opcode: u32,
    /// The grammar's class (empty for extended sets).
    pub class: &'static str,
    /// Operands in order.
    pub operands: &'static [OperandDesc],
}

/// An extended instruction set descriptor.
#[derive(Debug)]
pub struct ExtInstSetDesc {
    /// The `OpExtInstImport` name.
    pub name: &'static str,
    /// Instructions, ascending by number.
    pub instructions: &'static [InstructionDesc],
}

impl ExtInstSetDesc {
    /// The instruction with this number.
    pub fn instruction(&self, number: u32) -> Option<&'static InstructionDesc> {
        self.instructions
            .binary_search_by_key(&number, |i| i.opcode)
            .ok()
            .map(|i| &self.instructions[i])
    }

    /// The instruction with this name.
    pub fn instruction_by_name(&self, name: &str) -> Option<&'static InstructionDesc> {
        self.instructions
            .iter()
            .find(|i| i.name == name || i.aliases.contains(&name))
    }
}

/// A generator id of the `spir-v.xml` registry.
#[derive(Debug)]
pub struct GeneratorTool {
    /// The id (upper half of the generator word).
    pub id: u32,
    /// The vendor.
    pub vendor: &'static str,
    /// The tool, when registered.
    pub tool: Option<&'static str>,
}
