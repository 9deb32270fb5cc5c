//! Hand-written lowerings: the SPIR-V ops whose LLVM form is not one instruction or intrinsic
//! of the generated pattern table, one module per concern, each saying why.
//!
//! Every op lowering has one signature: the builder positioned where the code goes, the SPIR-V
//! operands in order (already lowered), and the LLVM result type. Scalars and fixed vectors of
//! every integer and float width are accepted, scalar operands are broadcast where SPIR-V
//! allows it, and every input gives a defined result (never poison or immediate UB); each
//! module documents the results it chose where SPIR-V leaves them undefined. Operands whose
//! types do not fit the op give `BuilderError::NotSameType`; a builder with no position gives
//! `BuilderError::UnsetPosition`.

mod bitfield;
mod common;
mod convert;
mod function_control;
mod modulo;
mod not;
mod shift;
mod trig;

pub use bitfield::{bit_field_insert, bit_field_s_extract, bit_field_u_extract};
pub use convert::{f_convert, s_convert, u_convert};
pub use function_control::{apply_function_control, function_control_attributes};
pub use modulo::{f_mod, s_mod};
pub use not::{logical_not, not};
pub use shift::{shift_left_logical, shift_right_arithmetic, shift_right_logical};
pub use trig::{tan, tanh};
