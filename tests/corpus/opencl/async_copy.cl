// async_work_group_copy / strided copy / wait_group_events / prefetch.
#define TILE 64
__kernel void async_copy(__global const float4 *src, __global float4 *dst, __local float4 *tile) {
    size_t group = get_group_id(0);
    event_t e = async_work_group_copy(tile, src + group * TILE, TILE, 0);
    wait_group_events(1, &e);
    size_t lid = get_local_id(0);
    tile[lid] = tile[lid] * 2.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    event_t e2 = async_work_group_strided_copy(dst + group, tile, TILE, get_num_groups(0), 0);
    event_t e3 = async_work_group_copy(dst + get_global_size(0) + group * TILE, tile, TILE, e2);
    wait_group_events(1, &e3);
    prefetch(src + (group + 1) * TILE, TILE);
}
