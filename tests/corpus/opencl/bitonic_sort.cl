// Bitonic sort step in local memory with compare-and-swap helpers.
static inline void cas(__local uint *a, uint i, uint j, bool dir) {
    uint x = a[i], y = a[j];
    if ((x > y) == dir) { a[i] = y; a[j] = x; }
}

__kernel void bitonic_local(__global uint *data, __local uint *buf) {
    uint lid = get_local_id(0);
    uint n = get_local_size(0) * 2;
    uint base = get_group_id(0) * n;
    buf[lid] = data[base + lid];
    buf[lid + n / 2] = data[base + lid + n / 2];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint size = 2; size <= n; size <<= 1) {
        bool dir = ((lid & (size / 2)) == 0);
        for (uint stride = size / 2; stride > 0; stride >>= 1) {
            uint pos = 2 * lid - (lid & (stride - 1));
            cas(buf, pos, pos + stride, dir);
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }
    data[base + lid] = buf[lid];
    data[base + lid + n / 2] = buf[lid + n / 2];
}
