//! spvkit: a grammar-driven SPIR-V toolkit.
//!
//! - [`grammar`]: typed ops, enums, availability and descriptor tables generated from the
//!   Khronos grammar at build time;
//! - [`binary`]: the binary form (streaming decoder, encoder);
//! - [`text`]: the assembly text form, byte-for-byte compatible with SPIRV-Tools;
//! - [`ir`]: a semantic model of a module (uniqued types and constants, symbols, isolated
//!   functions with block arguments and structured control flow), to and from binaries;
//! - [`opt`]: rewrites through the IR (`spvkit opt`, `--update-vce`);
//! - [`requirements`]: the version, capabilities and extensions a module needs;
//! - [`target_env`]: the target environments of spirv-val;
//! - `lower` (feature `llvm`): SPIR-V to LLVM 19 IR;
//! - `from_llvm` (feature `llvm`): SPIR-V-friendly and OpenCL LLVM IR to SPIR-V;
//! - `run` (feature `llvm`): JIT execution of compute entry points on the CPU;
//! - [`cli`]: the `spvkit` command line, a thin layer over the above.

#![warn(missing_docs)]

pub mod binary;
pub mod cli;
#[cfg(feature = "llvm")]
pub mod from_llvm;
pub mod grammar;
pub mod hlsl;
pub mod ir;
#[cfg(feature = "llvm")]
pub mod lower;
pub mod opt;
pub mod phase;
pub mod requirements;
#[cfg(feature = "llvm")]
pub mod run;
pub mod target_env;
pub mod text;
pub mod validate;
