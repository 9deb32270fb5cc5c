//! spvkit: a grammar-driven SPIR-V toolkit.
//!
//! - [`grammar`]: typed ops, enums, availability and descriptor tables generated from the
//!   Khronos grammar at build time;
//! - [`binary`]: the binary form (streaming decoder, encoder);
//! - [`text`]: the assembly text form, byte-for-byte compatible with SPIRV-Tools.

#![warn(missing_docs)]

pub mod binary;
pub mod grammar;
pub mod target_env;
pub mod text;
pub mod validate;
