// async_work_group_copy into __local memory, wait, compute, copy back.
__kernel void async_copy(__global const float *in, __global float *out) {
    __local float tile[8];
    size_t base = get_group_id(0) * 8;
    event_t e = async_work_group_copy(tile, in + base, 8, 0);
    wait_group_events(1, &e);
    size_t l = get_local_id(0);
    tile[l] = tile[l] * 3.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    event_t e2 = async_work_group_copy(out + base, tile, 8, 0);
    wait_group_events(1, &e2);
}
