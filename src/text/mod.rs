//! The SPIR-V assembly text form (spirv-dis / spirv-as compatible).

pub mod assemble;
pub mod lexer;
pub mod literal;
