// printf with many format specifiers and vector formats (OpenCL.std printf).
__kernel void print_things(__global const float4 *v, __global const long *l) {
    size_t i = get_global_id(0);
    float4 f = v[i];
    printf("work-item %zu of %zu\n", i, get_global_size(0));
    printf("float %f exp %e hex %a short %g\n", f.x, f.y, f.z, f.w);
    printf("vector %v4hlf\n", f);
    printf("long %ld unsigned %lu hex %lx octal %o char %c string %s\n", l[i], (ulong)l[i], l[i], (uint)i, 'A', "tail");
    printf("%%-escape, width %8.3f, quote \"ok\", tab\tend\n", f.x);
}
