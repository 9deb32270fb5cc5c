//! The streaming decoder: yields one instruction at a time, raw or typed, without building a
//! module.

use super::codec::{decode_ext_operands, decode_operands};
use super::error::{DecodeError, DecodeErrorKind};
use super::frame::{Frames, RawInstruction};
use super::header::{Header, HEADER_WORDS};
use super::reader::OperandReader;
use super::types::TypeTracker;
use crate::grammar::ext::ExtInstruction;
use crate::grammar::{Instruction, UnknownInstruction};

/// A streaming decoder over a module's words.
pub struct Decoder<'a> {
    frames: Frames<'a>,
    header: Header,
    types: TypeTracker,
}

impl<'a> Decoder<'a> {
    /// Starts decoding: reads and checks the header.
    pub fn new(words: &'a [u32]) -> Result<Self, DecodeError> {
        let header = Header::parse(words)?;
        Ok(Decoder {
            frames: Frames::new(words, HEADER_WORDS),
            header,
            types: TypeTracker::new(words.len()),
        })
    }

    /// The module header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// What the decoder has learned of types and imports so far.
    pub fn types(&self) -> &TypeTracker {
        &self.types
    }

    /// The next instruction's words; the type tracker is updated for it.
    #[inline]
    pub fn next_raw(&mut self) -> Option<Result<RawInstruction<'a>, DecodeError>> {
        let raw = match self.frames.next()? {
            Ok(raw) => raw,
            Err(e) => return Some(Err(e)),
        };
        self.types.observe(raw.opcode, raw.operands);
        Some(Ok(raw))
    }

    /// Decodes a raw instruction (from this decoder) into its typed form.
    pub fn decode(&self, raw: RawInstruction<'_>) -> Result<Instruction, DecodeError> {
        let mut r =
            OperandReader::new(raw.operands, raw.offset + 1, self.header.bound, &self.types);
        let result = decode_operands(raw.opcode, &mut r).and_then(|i| r.finish().map(|()| i));
        match result {
            Err(e) if e.is_unknown_value() => Ok(Instruction::Unknown(UnknownInstruction {
                opcode: raw.opcode,
                operands: raw.operands.to_vec(),
            })),
            r => r,
        }
    }

    /// Decodes the operands of an `OpExtInst` into the typed instruction of its set.
    /// `None` when the set is not one this grammar knows.
    pub fn decode_ext(
        &self,
        raw: RawInstruction<'_>,
    ) -> Option<Result<ExtInstruction, DecodeError>> {
        let [_, _, set, number, ..] = *raw.operands else {
            return Some(Err(DecodeError {
                offset: raw.offset,
                kind: DecodeErrorKind::MissingOperand("OpExtInst operands"),
            }));
        };
        let set = match self.types.ext_set(set) {
            None => {
                return Some(Err(DecodeError {
                    offset: raw.offset + 3,
                    kind: DecodeErrorKind::UnknownExtInstSet(set),
                }))
            }
            Some(s) => s?,
        };
        let mut r = OperandReader::new(
            &raw.operands[4..],
            raw.offset + 5,
            self.header.bound,
            &self.types,
        );
        Some(decode_ext_operands(set, number, &mut r).and_then(|i| r.finish().map(|()| i)))
    }
}

impl Iterator for Decoder<'_> {
    type Item = Result<Instruction, DecodeError>;

    /// The next typed instruction.
    fn next(&mut self) -> Option<Self::Item> {
        let raw = match self.next_raw()? {
            Ok(raw) => raw,
            Err(e) => return Some(Err(e)),
        };
        Some(self.decode(raw))
    }
}

/// Decodes a whole module into its header and typed instructions.
pub fn decode_module(words: &[u32]) -> Result<(Header, Vec<Instruction>), DecodeError> {
    let mut d = Decoder::new(words)?;
    let mut out = Vec::with_capacity(words.len() / 4);
    for inst in &mut d {
        out.push(inst?);
    }
    Ok((*d.header(), out))
}
