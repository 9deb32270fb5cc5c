// Barriers and fences with different flags and scopes (OpControlBarrier / OpMemoryBarrier).
__kernel void barriers(__global int *g, __local int *l) {
    size_t lid = get_local_id(0);
    l[lid] = g[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    int v = l[(lid + 1) % get_local_size(0)];
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    work_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_device);
    work_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_work_group);
    work_group_barrier(CLK_IMAGE_MEM_FENCE);
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    read_mem_fence(CLK_LOCAL_MEM_FENCE);
    write_mem_fence(CLK_GLOBAL_MEM_FENCE);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_all_svm_devices);
    atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_acq_rel, memory_scope_work_item);
    g[get_global_id(0)] = v;
}
