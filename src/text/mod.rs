//! The SPIR-V assembly text form (spirv-dis / spirv-as compatible).

pub mod assemble;
pub mod disassemble;
pub mod lexer;
pub mod literal;
mod names;

pub use assemble::{assemble, AssembleError, AssembleOptions};
pub use disassemble::{
    disassemble, disassemble_to_string, instruction_texts, DisassembleError, DisassembleOptions,
};
