//! The encoder: typed instructions back to words.

use super::codec::encode_operands;
use super::header::Header;
use crate::grammar::Instruction;
use core::fmt;

/// Why encoding failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EncodeError {
    /// An instruction needs more than 65535 words.
    TooLong {
        /// The instruction's index in the input.
        index: usize,
        /// Its word count.
        words: usize,
    },
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeError::TooLong { index, words } => {
                write!(
                    f,
                    "instruction {index} needs {words} words; the limit is 65535"
                )
            }
        }
    }
}

impl std::error::Error for EncodeError {}

/// Appends one instruction. On error `out` is left as it was.
#[inline]
pub fn encode_instruction(inst: &Instruction, out: &mut Vec<u32>) -> Result<(), usize> {
    let start = out.len();
    out.push(0);
    encode_operands(inst, out);
    let count = out.len() - start;
    if count > 0xffff {
        out.truncate(start);
        return Err(count);
    }
    out[start] = (count as u32) << 16 | u32::from(inst.opcode_value());
    Ok(())
}

/// Encodes a module.
pub fn encode_module(header: &Header, insts: &[Instruction]) -> Result<Vec<u32>, EncodeError> {
    let mut out = Vec::with_capacity(5 + insts.len() * 4);
    out.extend_from_slice(&header.words());
    for (index, inst) in insts.iter().enumerate() {
        encode_instruction(inst, &mut out)
            .map_err(|words| EncodeError::TooLong { index, words })?;
    }
    Ok(out)
}
