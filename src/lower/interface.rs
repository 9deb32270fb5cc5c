//! What the lowering hands to its users next to the LLVM module: per entry point, the interface
//! the runner must provide (descriptor slots, push constants, memory blocks, kernel parameters).
//! The contract is `docs/lowering-abi.md`.

use crate::grammar::{ExecutionModel, StorageClass};
use std::collections::HashMap;

/// Options of a lowering.
#[derive(Debug, Clone, Default)]
pub struct LowerOptions {
    /// Specialization-constant overrides: SpecId → value bits (in the constant's width; booleans
    /// 0 or 1). Missing ids keep their defaults.
    pub spec_constants: HashMap<u32, u64>,
    /// The shape of the output: the direct lowering (the default) or SPIR-V-friendly LLVM IR.
    pub style: LowerStyle,
    /// spv-ir style: builtin variables as `__spirv_BuiltIn*` globals rather than calls.
    pub builtins_as_globals: bool,
}

/// The shape of the lowered LLVM IR.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum LowerStyle {
    /// The direct lowering: entry wrappers and the invocation context of `docs/lowering-abi.md`.
    #[default]
    Direct,
    /// SPIR-V-friendly LLVM IR (the SPIRV-LLVM-Translator convention, `docs/spv-ir.md`):
    /// `spir`/`spir64` triples, `spir_kernel` functions, `__spirv_*` builtin calls, `!spirv.*`
    /// metadata.
    SpvIr,
}

/// A lowered module: the LLVM module and one [`LoweredEntry`] per entry point.
pub struct LoweredModule<'ctx> {
    /// The LLVM module; it passes the LLVM verifier.
    pub module: inkwell::module::Module<'ctx>,
    /// The entry points, in `OpEntryPoint` order.
    pub entries: Vec<LoweredEntry>,
}

/// One entry point's interface to the runner.
#[derive(Debug, Clone, PartialEq)]
pub struct LoweredEntry {
    /// The entry point's SPIR-V name.
    pub name: String,
    /// The external LLVM symbol of its wrapper, `spvkit.entry.<name>`.
    pub symbol: String,
    /// The SPIR-V execution model.
    pub execution_model: ExecutionModel,
    /// The fixed workgroup size, when the module fixes one (after spec-constant overrides).
    pub local_size: Option<[u32; 3]>,
    /// Descriptor-bound resources, in slot order (`ctx.resources[i]` is slot `i`).
    pub resources: Vec<ResourceSlot>,
    /// Size in bytes of the push-constant block the entry point reads, if any.
    pub push_constant_size: Option<u64>,
    /// Workgroup-storage block: its size and initial bytes (empty: zero-filled).
    pub workgroup_memory: MemoryBlock,
    /// Private-storage block (per invocation): its size and initial bytes.
    pub private_memory: MemoryBlock,
    /// Kernel parameters in order (empty for shaders).
    pub kernel_params: Vec<KernelParam>,
    /// Whether the entry point can reach an `OpControlBarrier` (its invocations must then run
    /// concurrently).
    pub uses_barrier: bool,
}

/// A descriptor-bound resource variable.
#[derive(Debug, Clone, PartialEq)]
pub struct ResourceSlot {
    /// DescriptorSet decoration (0 when absent).
    pub set: u32,
    /// Binding decoration (0 when absent).
    pub binding: u32,
    /// The element of an array of blocks bound there (0 otherwise): one slot per element.
    pub array_index: u32,
    /// The variable's storage class (StorageBuffer, Uniform, UniformConstant).
    pub storage_class: StorageClass,
    /// Size in bytes of the pointee when it has no runtime array (None: runtime-sized).
    pub size_bytes: Option<u64>,
}

/// A block of Workgroup or Private memory.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MemoryBlock {
    /// Size in bytes.
    pub size: u64,
    /// Alignment in bytes the block's start needs.
    pub align: u64,
    /// Initial contents (`size` bytes), or empty for zero-filled.
    pub init: Vec<u8>,
}

/// How a kernel parameter is passed.
#[derive(Debug, Clone, PartialEq)]
pub enum KernelParam {
    /// A pointer to CrossWorkgroup/Generic/UniformConstant memory: a buffer.
    Buffer {
        /// The pointer's storage class.
        storage_class: StorageClass,
    },
    /// A pointer to Workgroup memory: the runner allocates the bytes per workgroup.
    Local,
    /// A scalar or vector passed by value, of this many bytes.
    Scalar {
        /// Size in bytes.
        size_bytes: u64,
    },
    /// A struct passed by value (`ByVal` pointer or aggregate), of this many bytes.
    Struct {
        /// Size in bytes.
        size_bytes: u64,
    },
    /// A sampler, image or other opaque handle.
    Opaque,
}
