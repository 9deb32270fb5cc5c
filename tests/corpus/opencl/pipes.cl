// OpenCL 2.0 pipes: read/write, reservations, work-group reservations, pipe queries.
__kernel void producer(__write_only pipe int out_pipe, __global const int *src) {
    size_t i = get_global_id(0);
    int v = src[i];
    write_pipe(out_pipe, &v);
    reserve_id_t rid = reserve_write_pipe(out_pipe, 2);
    if (is_valid_reserve_id(rid)) {
        write_pipe(out_pipe, rid, 0, &v);
        write_pipe(out_pipe, rid, 1, &v);
        commit_write_pipe(out_pipe, rid);
    }
    reserve_id_t wg = work_group_reserve_write_pipe(out_pipe, get_local_size(0));
    if (is_valid_reserve_id(wg)) {
        write_pipe(out_pipe, wg, get_local_id(0), &v);
        work_group_commit_write_pipe(out_pipe, wg);
    }
}

__kernel void consumer(__read_only pipe int in_pipe, __global int *dst) {
    int v = 0;
    if (read_pipe(in_pipe, &v) == 0) {
        dst[get_global_id(0)] = v + (int)get_pipe_num_packets(in_pipe) + (int)get_pipe_max_packets(in_pipe);
    }
    reserve_id_t rid = reserve_read_pipe(in_pipe, 1);
    if (is_valid_reserve_id(rid)) {
        read_pipe(in_pipe, rid, 0, &v);
        commit_read_pipe(in_pipe, rid);
    }
}
