// work_group_size_hint only.
__kernel __attribute__((work_group_size_hint(8, 1, 1)))
void size_hint(__global int *out) {
    out[get_global_id(0)] = (int)get_local_size(0);
}
