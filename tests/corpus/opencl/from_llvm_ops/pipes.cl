// Pipes: reads and writes, reservations (work-item, work-group, sub-group), commits,
// packet counts; the packet size and alignment operands come from clang.
kernel void producer(write_only pipe int p, global const int* in) {
  size_t i = get_global_id(0);
  write_pipe(p, &in[i]);
  reserve_id_t r = reserve_write_pipe(p, 2);
  if (is_valid_reserve_id(r)) {
    write_pipe(p, r, 0, &in[i]);
    commit_write_pipe(p, r);
  }
}
kernel void consumer(read_only pipe int p, global int* out) {
  size_t i = get_global_id(0);
  read_pipe(p, &out[i]);
  reserve_id_t r = reserve_read_pipe(p, 1);
  read_pipe(p, r, 0, &out[i]);
  commit_read_pipe(p, r);
  out[0] = get_pipe_num_packets(p) + get_pipe_max_packets(p);
  reserve_id_t w = work_group_reserve_read_pipe(p, 1);
  work_group_commit_read_pipe(p, w);
  reserve_id_t s = sub_group_reserve_read_pipe(p, 1);
  sub_group_commit_read_pipe(p, s);
}
