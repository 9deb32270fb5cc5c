//! Instruction framing: the one loop that splits a module's words into instructions by their
//! word counts. Every walker of binary words (the decoder, the disassembler and its name
//! table, the validator, the IR reader, requirements) frames through here, so a malformed
//! word count is found, and reported, the same way everywhere.

use super::error::{DecodeError, DecodeErrorKind};

/// One instruction's words, undecoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawInstruction<'a> {
    /// Word offset of the instruction in the module.
    pub offset: usize,
    /// The opcode.
    pub opcode: u16,
    /// The words after the opcode word.
    pub operands: &'a [u32],
}

/// The instructions of `words` from a word offset on, each checked only for a word count that
/// is not zero and does not run past the end. After an error the iterator is done.
#[derive(Clone, Debug)]
pub struct Frames<'a> {
    words: &'a [u32],
    pos: usize,
}

impl<'a> Frames<'a> {
    /// The instructions starting at word offset `pos` (usually [`super::HEADER_WORDS`]).
    #[inline]
    pub fn new(words: &'a [u32], pos: usize) -> Self {
        Frames { words, pos }
    }

    /// The word offset of the next instruction (the end once done).
    #[inline]
    pub fn position(&self) -> usize {
        self.pos
    }
}

impl<'a> Iterator for Frames<'a> {
    type Item = Result<RawInstruction<'a>, DecodeError>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let offset = self.pos;
        let first = *self.words.get(offset)?;
        let count = (first >> 16) as usize;
        let left = self.words.len() - offset;
        if count == 0 || count > left {
            self.pos = self.words.len();
            let kind = if count == 0 {
                DecodeErrorKind::ZeroWordCount
            } else {
                DecodeErrorKind::WordCountPastEnd {
                    count: count as u32,
                    left,
                }
            };
            return Some(Err(DecodeError { offset, kind }));
        }
        self.pos += count;
        Some(Ok(RawInstruction {
            offset,
            opcode: first as u16,
            operands: &self.words[offset + 1..offset + count],
        }))
    }
}

/// The instruction at word offset `offset`, if a well-formed one starts there.
#[inline]
pub fn frame_at(words: &[u32], offset: usize) -> Option<RawInstruction<'_>> {
    Frames::new(words, offset).next()?.ok()
}
