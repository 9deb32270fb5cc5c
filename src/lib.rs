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
//! - `run` (feature `run`): JIT execution of compute entry points on the CPU;
//! - `hlsl` (feature `hlsl`): HLSL to Vulkan SPIR-V;
//! - `cli` (feature `cli`): the `spvkit` and `hlsl2spirv` command lines, a thin layer over
//!   the above;
//! - [`phase`]: a hook for per-phase timings of long commands.
//!
//! Without default features only the codec, text, IR, requirements and validator are built,
//! with no LLVM, CLI or JSON dependency (the layers: `docs/architecture.md`).

#![warn(missing_docs)]

pub mod binary;
#[cfg(feature = "cli")]
pub mod cli;
#[cfg(feature = "llvm")]
pub mod from_llvm;
pub mod grammar;
#[cfg(feature = "hlsl")]
pub mod hlsl;
pub mod ir;
#[cfg(feature = "llvm")]
pub mod lower;
pub mod opt;
pub mod phase;
pub mod requirements;
#[cfg(feature = "run")]
pub mod run;
pub mod target_env;
pub mod text;
pub mod validate;
