// OpenCL 1.x style atomic_* and atom_* builtins on global and local memory.
#pragma OPENCL EXTENSION cl_khr_global_int32_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_local_int32_extended_atomics : enable
__kernel void legacy_atomics(volatile __global int *counters, volatile __global uint *ucounters, __local int *scratch) {
    int gid = (int)get_global_id(0);
    if (get_local_id(0) == 0) scratch[0] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_add(&counters[0], 1);
    atomic_sub(&counters[1], 2);
    atomic_inc(&counters[2]);
    atomic_dec(&counters[3]);
    atomic_xchg(&counters[4], gid);
    atomic_cmpxchg(&counters[5], 0, gid);
    atomic_min(&counters[6], gid);
    atomic_max(&counters[7], gid);
    atomic_and(&counters[8], ~gid);
    atomic_or(&counters[9], gid);
    atomic_xor(&counters[10], gid);
    atomic_min(&ucounters[0], (uint)gid);
    atomic_max(&ucounters[1], (uint)gid);
    atom_add(&ucounters[2], 3u);
    atomic_add(&scratch[0], gid);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) atomic_add(&counters[11], scratch[0]);
}
