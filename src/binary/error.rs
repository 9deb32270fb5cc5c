//! Decoding errors: always a word offset and a reason.

use core::fmt;

/// Why decoding failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeErrorKind {
    /// The byte length is not a multiple of four.
    ByteLength(usize),
    /// Fewer than five header words.
    HeaderTooShort(usize),
    /// The first word is not the SPIR-V magic number in either byte order.
    BadMagic(u32),
    /// An instruction's word count is zero.
    ZeroWordCount,
    /// An instruction's word count runs past the end of the module.
    WordCountPastEnd {
        /// The claimed word count.
        count: u32,
        /// The words left.
        left: usize,
    },
    /// An operand the grammar requires is missing.
    MissingOperand(&'static str),
    /// Words are left after the last operand.
    ExtraOperands(usize),
    /// A string has no nul terminator within its instruction.
    UnterminatedString,
    /// A string is not UTF-8 (the instruction is kept raw).
    InvalidUtf8,
    /// A string's padding after its nul is not zero (the instruction is kept raw, so that
    /// re-encoding reproduces those bytes).
    StringPadding,
    /// An id is zero or not below the header's bound.
    IdOutOfBound {
        /// The id.
        id: u32,
        /// The header's bound.
        bound: u32,
    },
    /// A value that is not an enumerant of its kind (the instruction is kept raw).
    UnknownEnumerant {
        /// The operand kind.
        kind: &'static str,
        /// The value.
        value: u32,
    },
    /// A context-dependent literal whose type is not a known numeric type.
    NotNumericType {
        /// The id whose type was needed.
        id: u32,
    },
    /// A result id defined by a second instruction.
    DuplicateId(u32),
    /// An extended instruction of a set that was not imported.
    UnknownExtInstSet(u32),
}

/// A decoding error at a word offset from the start of the module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    /// The word offset where the problem is.
    pub offset: usize,
    /// What is wrong.
    pub kind: DecodeErrorKind,
}

impl DecodeError {
    /// Whether the instruction can still be kept as raw words (an unknown enumerant or set).
    pub fn is_unknown_value(&self) -> bool {
        matches!(
            self.kind,
            DecodeErrorKind::UnknownEnumerant { .. }
                | DecodeErrorKind::InvalidUtf8
                | DecodeErrorKind::StringPadding
        )
    }
}

impl fmt::Display for DecodeErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::ByteLength(n) => write!(f, "file length {n} is not a multiple of 4 bytes"),
            Self::HeaderTooShort(n) => {
                write!(f, "module has {n} words, fewer than the 5-word header")
            }
            Self::BadMagic(m) => write!(f, "bad magic number 0x{m:08x}"),
            Self::ZeroWordCount => write!(f, "instruction word count is zero"),
            Self::WordCountPastEnd { count, left } => {
                write!(
                    f,
                    "instruction word count {count} runs past the end ({left} words left)"
                )
            }
            Self::MissingOperand(k) => write!(f, "missing operand ({k})"),
            Self::ExtraOperands(n) => write!(f, "{n} word(s) left after the last operand"),
            Self::UnterminatedString => {
                write!(f, "string is not nul-terminated within the instruction")
            }
            Self::InvalidUtf8 => write!(f, "string is not valid UTF-8"),
            Self::StringPadding => write!(f, "string padding after the nul is not zero"),
            Self::IdOutOfBound { id, bound } => {
                write!(f, "id {id} is not in 1..{bound} (the bound)")
            }
            Self::UnknownEnumerant { kind, value } => write!(f, "{value} is not a {kind} value"),
            Self::NotNumericType { id } => {
                write!(f, "the type of %{id} is not a scalar integer or float type")
            }
            Self::DuplicateId(id) => write!(f, "Id {id} is defined more than once"),
            Self::UnknownExtInstSet(id) => {
                write!(f, "%{id} is not an extended instruction set import")
            }
        }
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "word {}: {}", self.offset, self.kind)
    }
}

impl std::error::Error for DecodeError {}
