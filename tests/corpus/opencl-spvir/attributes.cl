// Kernel attributes: required and hinted work-group sizes, vector type hints, and several
// kernels in one module calling a shared helper.
float helper(float x) { return x * x + 1.0f; }
__attribute__((reqd_work_group_size(8, 4, 1)))
kernel void fixed(global float *a) { a[get_global_id(0)] = helper(a[get_global_id(0)]); }
__attribute__((work_group_size_hint(16, 1, 1))) __attribute__((vec_type_hint(float4)))
kernel void hinted(global float *restrict a, const global float *b, volatile global int *c,
                   float s) {
  a[get_global_id(0)] = helper(b[get_global_id(0)]) * s;
  c[0] = 1;
}
