//! Lowering of SPIR-V (through [`crate::ir`]) to LLVM 19 IR.
//!
//! One-to-one conversions come from the generated pattern table (`grammar/lowering.json`);
//! everything a table cannot say is a small hand-written module here. The shape of the output
//! (entry wrappers, the invocation context, storage classes) is the contract in
//! `docs/lowering-abi.md`, shared with [`crate::run`].

pub mod interface;
pub mod special;
pub use interface::{
    KernelParam, LowerOptions, LoweredEntry, LoweredModule, MemoryBlock, ResourceSlot,
};
