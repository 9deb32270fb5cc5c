// Kernel attributes: reqd_work_group_size, work_group_size_hint, vec_type_hint, and a kernel calling a kernel.
__kernel __attribute__((reqd_work_group_size(64, 1, 1))) __attribute__((vec_type_hint(float4)))
void fixed_size(__global float4 *data) {
    data[get_global_id(0)] *= 2.0f;
}

__kernel __attribute__((work_group_size_hint(16, 16, 1))) __attribute__((vec_type_hint(int)))
void hinted(__global int *data) {
    data[get_global_id(1) * get_global_size(0) + get_global_id(0)] += 1;
}

__kernel __attribute__((reqd_work_group_size(8, 8, 4))) __attribute__((vec_type_hint(double2)))
void volume(__global float *v, int pitch, int slice) {
    size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    v[z * slice + y * pitch + x] = (float)(x + y + z);
}

__kernel __attribute__((vec_type_hint(uchar16))) void calls_other(__global float4 *data) {
    fixed_size(data);
}
