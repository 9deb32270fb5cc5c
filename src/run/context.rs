//! The invocation context: what one invocation's lowered code reads its builtins and resources
//! from. The layout is the contract of `docs/lowering-abi.md`; the lowering hard-codes the field
//! offsets, so the struct is `#[repr(C)]` and a test pins them.

use std::ffi::c_void;

/// Per-invocation state handed to `spvkit.entry.<name>(ptr %ctx)`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct InvocationContext {
    /// GlobalInvocationId (for kernels, including the global offset).
    pub global_id: [u64; 3],
    /// LocalInvocationId.
    pub local_id: [u64; 3],
    /// WorkgroupId.
    pub workgroup_id: [u64; 3],
    /// NumWorkgroups.
    pub num_workgroups: [u64; 3],
    /// WorkgroupSize (EnqueuedWorkgroupSize for kernels).
    pub workgroup_size: [u64; 3],
    /// GlobalSize (kernels).
    pub global_size: [u64; 3],
    /// GlobalOffset (kernels).
    pub global_offset: [u64; 3],
    /// LocalInvocationIndex.
    pub local_index: u64,
    /// WorkDim (kernels).
    pub work_dim: u64,
    /// One pointer per descriptor slot, in the lowering's slot order.
    pub resources: *const *mut u8,
    /// The push-constant block, or null.
    pub push_constants: *const u8,
    /// This workgroup's Workgroup-storage block.
    pub workgroup_memory: *mut u8,
    /// This invocation's Private-storage block.
    pub private_memory: *mut u8,
    /// Kernel arguments: one pointer per parameter, to the argument's value.
    pub args: *const *mut u8,
    /// Opaque runner state passed back to the `spvkit_rt_*` hooks.
    pub runtime: *mut c_void,
    /// The size in bytes of each descriptor slot's buffer, in slot order (`OpArrayLength`).
    pub resource_sizes: *const u64,
    /// This workgroup's scratch for work-group collectives: one 8-byte slot per invocation
    /// (`spvkit_rt_group`).
    pub group_scratch: *mut u64,
}

#[cfg(test)]
mod tests {
    use super::InvocationContext;
    use crate::lower::abi::offsets;
    use std::mem::offset_of;

    #[test]
    fn field_offsets_match_the_abi() {
        assert_eq!(
            offset_of!(InvocationContext, global_id) as u64,
            offsets::GLOBAL_ID
        );
        assert_eq!(
            offset_of!(InvocationContext, local_id) as u64,
            offsets::LOCAL_ID
        );
        assert_eq!(
            offset_of!(InvocationContext, workgroup_id) as u64,
            offsets::WORKGROUP_ID
        );
        assert_eq!(
            offset_of!(InvocationContext, num_workgroups) as u64,
            offsets::NUM_WORKGROUPS
        );
        assert_eq!(
            offset_of!(InvocationContext, workgroup_size) as u64,
            offsets::WORKGROUP_SIZE
        );
        assert_eq!(
            offset_of!(InvocationContext, global_size) as u64,
            offsets::GLOBAL_SIZE
        );
        assert_eq!(
            offset_of!(InvocationContext, global_offset) as u64,
            offsets::GLOBAL_OFFSET
        );
        assert_eq!(
            offset_of!(InvocationContext, local_index) as u64,
            offsets::LOCAL_INDEX
        );
        assert_eq!(
            offset_of!(InvocationContext, work_dim) as u64,
            offsets::WORK_DIM
        );
        assert_eq!(
            offset_of!(InvocationContext, resources) as u64,
            offsets::RESOURCES
        );
        assert_eq!(
            offset_of!(InvocationContext, push_constants) as u64,
            offsets::PUSH_CONSTANTS
        );
        assert_eq!(
            offset_of!(InvocationContext, workgroup_memory) as u64,
            offsets::WORKGROUP_MEMORY
        );
        assert_eq!(
            offset_of!(InvocationContext, private_memory) as u64,
            offsets::PRIVATE_MEMORY
        );
        assert_eq!(offset_of!(InvocationContext, args) as u64, offsets::ARGS);
        assert_eq!(
            offset_of!(InvocationContext, runtime) as u64,
            offsets::RUNTIME
        );
        assert_eq!(
            offset_of!(InvocationContext, resource_sizes) as u64,
            offsets::RESOURCE_SIZES
        );
        assert_eq!(
            offset_of!(InvocationContext, group_scratch) as u64,
            offsets::GROUP_SCRATCH
        );
        assert_eq!(std::mem::size_of::<InvocationContext>(), 248);
    }
}
