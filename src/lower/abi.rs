//! The contract between lowered code and whoever runs it (`docs/lowering-abi.md`): where the
//! invocation context keeps each field, which `spvkit_rt_*` hooks the code calls, and how a
//! work-group collective is encoded. The lowering writes code against it; a runner (such as
//! `spvkit::run`) implements it. It lives here, below both, so that the lowering never depends
//! on a particular runner.

/// The symbol prefix of the entry wrappers: `void @"spvkit.entry.<name>"(ptr %ctx)`.
pub const ENTRY_PREFIX: &str = "spvkit.entry.";

/// `void @spvkit_rt_control_barrier(ptr %ctx)`: meets the workgroup's other invocations.
pub const CONTROL_BARRIER_HOOK: &str = "spvkit_rt_control_barrier";

/// `i64 @spvkit_rt_group(ptr %ctx, i32 %op, i64 %value, i64 %x, i64 %y, i64 %z)`: a work-group
/// collective; `%op` is [`group::encode`]d.
pub const GROUP_HOOK: &str = "spvkit_rt_group";

/// `i32 @spvkit_rt_storage_class(ptr %ctx, ptr %p)`: the SPIR-V storage class of the memory
/// `%p` points into, as the runner knows it: `Function` (the invocation's stack, where the
/// lowered code keeps Function-storage variables and by-value arguments), `Private` (its
/// Private block), `Workgroup` (its workgroup's Workgroup block and local-argument blocks),
/// `CrossWorkgroup` (the bound buffers), or [`NO_STORAGE_CLASS`]. The lowered code asks it for
/// `OpGenericCastToPtrExplicit` and `OpGenericPtrMemSemantics` only, after checking the
/// module's own `CrossWorkgroup` variables itself; a host that never runs those ops need not
/// define it.
pub const STORAGE_CLASS_HOOK: &str = "spvkit_rt_storage_class";

/// What [`STORAGE_CLASS_HOOK`] answers for memory of none of its classes (null, constant
/// memory, push constants, memory the runner does not know).
pub const NO_STORAGE_CLASS: u32 = u32::MAX;

/// Byte offsets of the invocation context's fields, as the lowered code addresses them. The
/// context is a `#[repr(C)]` struct of these fields in this order: eight-byte integers or
/// pointers, `[u64; 3]` for the vectors.
pub mod offsets {
    /// `global_id: [u64; 3]`: GlobalInvocationId (for kernels, with the global offset).
    pub const GLOBAL_ID: u64 = 0;
    /// `local_id: [u64; 3]`: LocalInvocationId.
    pub const LOCAL_ID: u64 = 24;
    /// `workgroup_id: [u64; 3]`: WorkgroupId.
    pub const WORKGROUP_ID: u64 = 48;
    /// `num_workgroups: [u64; 3]`: NumWorkgroups.
    pub const NUM_WORKGROUPS: u64 = 72;
    /// `workgroup_size: [u64; 3]`: WorkgroupSize (EnqueuedWorkgroupSize for kernels).
    pub const WORKGROUP_SIZE: u64 = 96;
    /// `global_size: [u64; 3]`: GlobalSize (kernels).
    pub const GLOBAL_SIZE: u64 = 120;
    /// `global_offset: [u64; 3]`: GlobalOffset (kernels).
    pub const GLOBAL_OFFSET: u64 = 144;
    /// `local_index: u64`: LocalInvocationIndex.
    pub const LOCAL_INDEX: u64 = 168;
    /// `work_dim: u64`: WorkDim (kernels).
    pub const WORK_DIM: u64 = 176;
    /// `resources: *const *mut u8`: one pointer per descriptor slot, in slot order.
    pub const RESOURCES: u64 = 184;
    /// `push_constants: *const u8`: the push-constant block, or null.
    pub const PUSH_CONSTANTS: u64 = 192;
    /// `workgroup_memory: *mut u8`: this workgroup's Workgroup-storage block.
    pub const WORKGROUP_MEMORY: u64 = 200;
    /// `private_memory: *mut u8`: this invocation's Private-storage block.
    pub const PRIVATE_MEMORY: u64 = 208;
    /// `args: *const *mut u8`: kernel arguments, one pointer per parameter to its value.
    pub const ARGS: u64 = 216;
    /// `runtime: *mut c_void`: opaque runner state passed back to the hooks.
    pub const RUNTIME: u64 = 224;
    /// `resource_sizes: *const u64`: each descriptor slot's buffer size (`OpArrayLength`).
    pub const RESOURCE_SIZES: u64 = 232;
    /// `group_scratch: *mut u64`: one slot per invocation for work-group collectives.
    pub const GROUP_SCRATCH: u64 = 240;
}

/// The operation word of [`crate::lower::abi::GROUP_HOOK`]:
/// `operation | group_operation << 4 | kind << 8 | width << 16`.
pub mod group {
    /// `operation`: the value of the invocation the local id names.
    pub const BROADCAST: u32 = 0;
    /// `operation`: whether every invocation's predicate (bit 0) is set.
    pub const ALL: u32 = 1;
    /// `operation`: whether any invocation's predicate (bit 0) is set.
    pub const ANY: u32 = 2;
    /// `operation`: the sum.
    pub const ADD: u32 = 3;
    /// `operation`: the minimum.
    pub const MIN: u32 = 4;
    /// `operation`: the maximum.
    pub const MAX: u32 = 5;

    /// `group_operation`: over the whole group.
    pub const REDUCE: u32 = 0;
    /// `group_operation`: over the invocations up to this one, itself included.
    pub const INCLUSIVE_SCAN: u32 = 1;
    /// `group_operation`: over the invocations before this one (the identity for the first).
    pub const EXCLUSIVE_SCAN: u32 = 2;

    /// `kind`: unsigned integers.
    pub const UNSIGNED: u32 = 0;
    /// `kind`: signed integers.
    pub const SIGNED: u32 = 1;
    /// `kind`: floating point (16, 32 or 64 bits).
    pub const FLOAT: u32 = 2;

    /// The operation word.
    pub const fn encode(operation: u32, group_operation: u32, kind: u32, width: u32) -> u32 {
        operation | group_operation << 4 | kind << 8 | width << 16
    }
}
