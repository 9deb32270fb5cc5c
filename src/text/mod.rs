//! The SPIR-V assembly text form (spirv-dis / spirv-as compatible).

pub mod disassemble;
mod float;
mod names;

pub use disassemble::{
    disassemble, disassemble_to_string, instruction_texts, DisassembleError, DisassembleOptions,
};
