//! Errors of building the IR from a binary (a word offset and a reason), and of
//! [`super::check`]ing a module built in memory (a place in the module and a reason).

use super::check::Place;
use crate::binary::DecodeError;
use core::fmt;

/// Why a binary could not be turned into IR.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IrErrorKind {
    /// The binary could not be decoded (the decoder's error, kept as the source).
    Decode(DecodeError),
    /// An id is used but never defined (or not defined before a use that needs it).
    UndefinedId(u32),
    /// An id is defined twice.
    Redefined(u32),
    /// An operand refers to the wrong kind of entity.
    WrongKind {
        /// The id.
        id: u32,
        /// What was expected there.
        expected: &'static str,
    },
    /// An instruction is not allowed where it is.
    Misplaced(&'static str),
    /// A literal operand has a value the IR cannot represent.
    BadLiteral(&'static str),
    /// An instruction the IR cannot represent faithfully (such as an unknown opcode, whose
    /// ids cannot be told from literals).
    Unsupported(&'static str),
    /// A construct of the module structure is broken.
    Malformed(&'static str),
    /// A module built in memory refers to what it does not have, or has something other than
    /// a type or function type where the IR needs one ([`super::check`]); the error's offset
    /// is 0.
    Invalid {
        /// Where.
        place: Place,
        /// What is wrong.
        what: String,
    },
}

/// An error at a word offset of the binary, or at a place of a module in memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IrError {
    /// The word offset of the offending instruction or operand (0 for
    /// [`IrErrorKind::Invalid`], which names its place instead).
    pub offset: usize,
    /// What is wrong.
    pub kind: IrErrorKind,
}

impl IrError {
    /// An error at `offset`.
    pub fn new(offset: usize, kind: IrErrorKind) -> Self {
        IrError { offset, kind }
    }
}

impl From<DecodeError> for IrError {
    fn from(e: DecodeError) -> Self {
        IrError {
            offset: e.offset,
            kind: IrErrorKind::Decode(e),
        }
    }
}

impl fmt::Display for IrErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IrErrorKind::Decode(e) => e.kind.fmt(f),
            IrErrorKind::UndefinedId(id) => write!(f, "%{id} is not defined"),
            IrErrorKind::Redefined(id) => write!(f, "%{id} is defined twice"),
            IrErrorKind::WrongKind { id, expected } => write!(f, "%{id} is not {expected}"),
            IrErrorKind::Misplaced(what) => write!(f, "misplaced instruction: {what}"),
            IrErrorKind::BadLiteral(what) => write!(f, "bad literal: {what}"),
            IrErrorKind::Unsupported(what) => write!(f, "unsupported: {what}"),
            IrErrorKind::Malformed(what) => write!(f, "malformed module: {what}"),
            IrErrorKind::Invalid { place, what } => write!(f, "{place}: {what}"),
        }
    }
}

impl fmt::Display for IrError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            IrErrorKind::Invalid { .. } => self.kind.fmt(f),
            _ => write!(f, "word {}: {}", self.offset, self.kind),
        }
    }
}

impl std::error::Error for IrError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            IrErrorKind::Decode(e) => Some(e),
            _ => None,
        }
    }
}
