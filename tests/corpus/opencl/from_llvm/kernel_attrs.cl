// Kernel attributes: reqd_work_group_size, work_group_size_hint, vec_type_hint.
__kernel __attribute__((reqd_work_group_size(4, 1, 1)))
__attribute__((vec_type_hint(float4)))
void kernel_attrs(__global float *out) {
    out[get_global_id(0)] = (float)get_local_id(0) + 10.0f * (float)get_group_id(0);
}
