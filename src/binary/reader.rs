//! Reading and writing operands: the [`Decode`]/[`Encode`] traits the generated codec is
//! written against, and [`OperandReader`], a cursor over one instruction's operand words.

use super::error::{DecodeError, DecodeErrorKind};
use super::types::TypeTracker;
use crate::grammar::{Id, LiteralNumber, Opcode, SpecConstantOperation};

/// Values that can be read from operand words.
pub trait Decode: Sized {
    /// Reads one value.
    fn decode(r: &mut OperandReader<'_>) -> Result<Self, DecodeError>;
}

/// A boxed value decodes as the value (large instructions are boxed in `Instruction`).
impl<T: Decode> Decode for Box<T> {
    fn decode(r: &mut OperandReader<'_>) -> Result<Self, DecodeError> {
        T::decode(r).map(Box::new)
    }
}

/// Values that can be written as operand words.
pub trait Encode {
    /// Appends the value's words.
    fn encode(&self, out: &mut Vec<u32>);
}

/// A cursor over the operand words of one instruction.
pub struct OperandReader<'a> {
    words: &'a [u32],
    pos: usize,
    /// Word offset of `words[0]` in the module, for error messages.
    base: usize,
    bound: u32,
    types: &'a TypeTracker,
}

/// Reads a nul-terminated string from the start of `words`: the string and the words it used.
pub fn string_in(words: &[u32]) -> Result<(&str, usize), DecodeErrorKind> {
    let bytes: &[u8] = bytemuck_bytes(words);
    let nul = bytes
        .iter()
        .position(|&b| b == 0)
        .ok_or(DecodeErrorKind::UnterminatedString)?;
    let used = nul / 4 + 1;
    if bytes[nul..used * 4].iter().any(|&b| b != 0) {
        return Err(DecodeErrorKind::StringPadding);
    }
    let s = core::str::from_utf8(&bytes[..nul]).map_err(|_| DecodeErrorKind::InvalidUtf8)?;
    Ok((s, used))
}

/// The bytes of native words in memory order, which is the string order on little-endian
/// hosts; big-endian hosts are not supported by this helper (SPIR-V strings are little-endian
/// packed), see the static assertion below.
fn bytemuck_bytes(words: &[u32]) -> &[u8] {
    bytemuck::cast_slice(words)
}

const _: () = assert!(
    cfg!(target_endian = "little"),
    "spvkit's string decoding assumes a little-endian host"
);

impl<'a> OperandReader<'a> {
    /// A reader over `words`, which start at word `base` of a module with id bound `bound`.
    pub fn new(words: &'a [u32], base: usize, bound: u32, types: &'a TypeTracker) -> Self {
        OperandReader {
            words,
            pos: 0,
            base,
            bound,
            types,
        }
    }

    /// An error at the current word.
    pub fn error(&self, kind: DecodeErrorKind) -> DecodeError {
        DecodeError {
            offset: self.base + self.pos,
            kind,
        }
    }

    /// Whether every word was read.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.pos >= self.words.len()
    }

    /// The unread words, consumed.
    pub fn take_rest(&mut self) -> &'a [u32] {
        let rest = &self.words[self.pos.min(self.words.len())..];
        self.pos = self.words.len();
        rest
    }

    /// Fails if words are left.
    pub fn finish(&self) -> Result<(), DecodeError> {
        if self.is_empty() {
            Ok(())
        } else {
            Err(self.error(DecodeErrorKind::ExtraOperands(self.words.len() - self.pos)))
        }
    }

    /// One word.
    #[inline]
    pub fn word(&mut self) -> Result<u32, DecodeError> {
        match self.words.get(self.pos) {
            Some(&w) => {
                self.pos += 1;
                Ok(w)
            }
            None => Err(self.error(DecodeErrorKind::MissingOperand("a word"))),
        }
    }

    /// One value of any decodable type.
    #[inline]
    pub fn read<T: Decode>(&mut self) -> Result<T, DecodeError> {
        T::decode(self)
    }

    /// An optional trailing operand: `None` when no words are left.
    #[inline]
    pub fn read_optional<T: Decode>(&mut self) -> Result<Option<T>, DecodeError> {
        if self.is_empty() {
            Ok(None)
        } else {
            T::decode(self).map(Some)
        }
    }

    /// A trailing list: values until no words are left.
    pub fn read_many<T: Decode>(&mut self) -> Result<Vec<T>, DecodeError> {
        let mut v = Vec::with_capacity(self.words.len().saturating_sub(self.pos).min(64));
        while !self.is_empty() {
            v.push(T::decode(self)?);
        }
        Ok(v)
    }

    /// An unknown-enumerant error for `value` of `kind`, at the word just read.
    pub fn unknown_enumerant(&self, kind: &'static str, value: u32) -> DecodeError {
        DecodeError {
            offset: self.base + self.pos.saturating_sub(1),
            kind: DecodeErrorKind::UnknownEnumerant { kind, value },
        }
    }

    /// Fails (as an unknown enumerant) when `mask` has bits outside `known`.
    pub fn check_bits(&self, kind: &'static str, mask: u32, known: u32) -> Result<(), DecodeError> {
        if mask & !known != 0 {
            Err(self.unknown_enumerant(kind, mask & !known))
        } else {
            Ok(())
        }
    }

    fn words_for_width(&self, of: u32) -> Result<usize, DecodeError> {
        let width = self
            .types
            .numeric_type(of)
            .ok_or_else(|| self.error(DecodeErrorKind::NotNumericType { id: of }))?
            .width();
        Ok((width.max(1) as usize).div_ceil(32))
    }

    fn number(&mut self, n: usize) -> Result<LiteralNumber, DecodeError> {
        if self.words.len() - self.pos.min(self.words.len()) < n {
            return Err(self.error(DecodeErrorKind::MissingOperand("a literal number")));
        }
        let w = &self.words[self.pos..self.pos + n];
        self.pos += n;
        Ok(match n {
            1 => LiteralNumber::Word(w[0]),
            2 => LiteralNumber::DoubleWord(u64::from(w[0]) | u64::from(w[1]) << 32),
            _ => LiteralNumber::Words(w.to_vec()),
        })
    }

    /// A literal as wide as the numeric type `ty` (`OpConstant`, `OpSpecConstant`).
    pub fn read_number_of_type(&mut self, ty: Id) -> Result<LiteralNumber, DecodeError> {
        let n = self.words_for_width(ty.0)?;
        self.number(n)
    }

    /// `OpSwitch`'s (literal, label) pairs, literals as wide as the selector's type.
    pub fn read_switch_targets(
        &mut self,
        selector: Id,
    ) -> Result<Vec<(LiteralNumber, Id)>, DecodeError> {
        if self.is_empty() {
            return Ok(Vec::new());
        }
        let ty = self
            .types
            .type_of(selector.0)
            .ok_or_else(|| self.error(DecodeErrorKind::NotNumericType { id: selector.0 }))?;
        let n = self.words_for_width(ty)?;
        let mut v = Vec::new();
        while !self.is_empty() {
            let lit = self.number(n)?;
            v.push((lit, self.read()?));
        }
        Ok(v)
    }

    /// `OpSpecConstantOp`'s embedded opcode and operand words.
    pub fn read_spec_constant_operation(&mut self) -> Result<SpecConstantOperation, DecodeError> {
        let w = self.word()?;
        let opcode = u16::try_from(w)
            .ok()
            .and_then(Opcode::from_u16)
            .ok_or_else(|| self.unknown_enumerant("opcode", w))?;
        Ok(SpecConstantOperation {
            opcode,
            operands: self.take_rest().to_vec(),
        })
    }
}

impl Decode for Id {
    #[inline]
    fn decode(r: &mut OperandReader<'_>) -> Result<Self, DecodeError> {
        let at = r.pos;
        let id = r.word()?;
        if id == 0 || id >= r.bound {
            return Err(DecodeError {
                offset: r.base + at,
                kind: DecodeErrorKind::IdOutOfBound { id, bound: r.bound },
            });
        }
        Ok(Id(id))
    }
}

impl Decode for u32 {
    #[inline]
    fn decode(r: &mut OperandReader<'_>) -> Result<Self, DecodeError> {
        r.word()
    }
}

impl Decode for String {
    fn decode(r: &mut OperandReader<'_>) -> Result<Self, DecodeError> {
        let rest = &r.words[r.pos.min(r.words.len())..];
        let (s, used) = string_in(rest).map_err(|k| r.error(k))?;
        let s = s.to_owned();
        r.pos += used;
        Ok(s)
    }
}

impl<T: Decode> Decode for Option<T> {
    fn decode(r: &mut OperandReader<'_>) -> Result<Self, DecodeError> {
        r.read_optional()
    }
}

impl<T: Decode> Decode for Vec<T> {
    fn decode(r: &mut OperandReader<'_>) -> Result<Self, DecodeError> {
        r.read_many()
    }
}

impl<A: Decode, B: Decode> Decode for (A, B) {
    fn decode(r: &mut OperandReader<'_>) -> Result<Self, DecodeError> {
        Ok((A::decode(r)?, B::decode(r)?))
    }
}

impl<A: Decode, B: Decode, C: Decode> Decode for (A, B, C) {
    fn decode(r: &mut OperandReader<'_>) -> Result<Self, DecodeError> {
        Ok((A::decode(r)?, B::decode(r)?, C::decode(r)?))
    }
}

impl Encode for Id {
    #[inline]
    fn encode(&self, out: &mut Vec<u32>) {
        out.push(self.0)
    }
}

impl Encode for u32 {
    #[inline]
    fn encode(&self, out: &mut Vec<u32>) {
        out.push(*self)
    }
}

impl Encode for String {
    fn encode(&self, out: &mut Vec<u32>) {
        encode_str(self, out)
    }
}

/// Appends a string nul-terminated and padded to whole words.
pub fn encode_str(s: &str, out: &mut Vec<u32>) {
    let bytes = s.as_bytes();
    let mut chunks = bytes.chunks_exact(4);
    for c in &mut chunks {
        out.push(u32::from_le_bytes([c[0], c[1], c[2], c[3]]));
    }
    let mut last = [0u8; 4];
    last[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
    out.push(u32::from_le_bytes(last));
}

impl Encode for LiteralNumber {
    fn encode(&self, out: &mut Vec<u32>) {
        match self {
            LiteralNumber::Word(w) => out.push(*w),
            LiteralNumber::DoubleWord(d) => {
                out.push(*d as u32);
                out.push((*d >> 32) as u32);
            }
            LiteralNumber::Words(ws) => out.extend_from_slice(ws),
        }
    }
}

impl Encode for SpecConstantOperation {
    fn encode(&self, out: &mut Vec<u32>) {
        out.push(u32::from(self.opcode.value()));
        out.extend_from_slice(&self.operands);
    }
}

impl<T: Encode> Encode for Option<T> {
    fn encode(&self, out: &mut Vec<u32>) {
        if let Some(v) = self {
            v.encode(out)
        }
    }
}

impl<T: Encode> Encode for Vec<T> {
    fn encode(&self, out: &mut Vec<u32>) {
        for v in self {
            v.encode(out)
        }
    }
}

impl<A: Encode, B: Encode> Encode for (A, B) {
    fn encode(&self, out: &mut Vec<u32>) {
        self.0.encode(out);
        self.1.encode(out);
    }
}

impl<A: Encode, B: Encode, C: Encode> Encode for (A, B, C) {
    fn encode(&self, out: &mut Vec<u32>) {
        self.0.encode(out);
        self.1.encode(out);
        self.2.encode(out);
    }
}
