//! The SPIR-V binary form: header, a streaming decoder of typed instructions, and an encoder.
//!
//! Decoding is one pass over the words. The only state kept is what context-dependent operands
//! need ([`TypeTracker`]): numeric types, each value's type, and extended-set imports.
//! Unknown opcodes and enumerants decode to [`crate::grammar::Instruction::Unknown`] with their
//! raw words, and encode back unchanged.

mod codec;
mod decoration_literals;
mod error;
mod frame;
mod half;
mod header;
mod ids;
pub(crate) mod number_text;
mod numeric;
pub(crate) mod print;
mod reader;
mod stream;
mod types;
mod writer;

pub use codec::{decode_ext_operands, decode_operands, encode_ext_operands, encode_operands};
pub use decoration_literals::{decoration_from_literals, decoration_literals, DecorationLiteral};
pub use error::{DecodeError, DecodeErrorKind};
pub use frame::{frame_at, Frames, RawInstruction};
pub use half::{f16_bits_to_f64, f64_to_f16_bits};
pub use header::{words_from_bytes, Header, HEADER_WORDS};
pub use ids::IdMap;
pub use numeric::{NumericType, NumericTypes};
pub use print::instruction_texts;
pub use reader::{string_in, Decode, Encode, OperandReader};
pub use stream::{decode_module, Decoder};
pub use types::TypeTracker;
pub use writer::{encode_instruction, encode_module, EncodeError};
