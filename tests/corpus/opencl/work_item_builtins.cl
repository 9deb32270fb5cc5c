// Every work-item query builtin, written into an output record.
typedef struct {
    uint work_dim;
    ulong global_id[3];
    ulong local_id[3];
    ulong group_id[3];
    ulong global_size[3];
    ulong local_size[3];
    ulong enqueued_local_size[3];
    ulong num_groups[3];
    ulong global_offset[3];
    ulong global_linear_id;
    ulong local_linear_id;
} item_info;

__kernel void query(__global item_info *out) {
    item_info info;
    info.work_dim = get_work_dim();
    for (uint d = 0; d < 3; ++d) {
        info.global_id[d] = get_global_id(d);
        info.local_id[d] = get_local_id(d);
        info.group_id[d] = get_group_id(d);
        info.global_size[d] = get_global_size(d);
        info.local_size[d] = get_local_size(d);
        info.enqueued_local_size[d] = get_enqueued_local_size(d);
        info.num_groups[d] = get_num_groups(d);
        info.global_offset[d] = get_global_offset(d);
    }
    info.global_linear_id = get_global_linear_id();
    info.local_linear_id = get_local_linear_id();
    out[get_global_linear_id()] = info;
}
