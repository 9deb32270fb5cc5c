// Device-side enqueue: the default queue, a 1D ndrange, two enqueued blocks (one with a
// returned event), the event released.
kernel void parent(global int* out, int n) {
  queue_t q = get_default_queue();
  ndrange_t r = ndrange_1D(n);
  enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, r, ^{ out[get_global_id(0)] = n; });
  clk_event_t e;
  enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_KERNEL, r, 0, NULL, &e, ^{ out[0] += 1; });
  release_event(e);
}

// Local-memory block arguments (__enqueue_kernel_varargs) and the user-event functions.
kernel void parent2(global int* out, int n) {
  queue_t q = get_default_queue();
  ndrange_t r = ndrange_1D(n);
  enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, r, ^(local void* a, local void* b){ ((local int*)a)[0] = n; out[0] = ((local int*)a)[0]; }, 16u, 32u);
  clk_event_t u = create_user_event();
  if (is_valid_event(u)) set_user_event_status(u, CL_COMPLETE);
  retain_event(u);
  release_event(u);
}

// Kernel queries on a block and a marker.
kernel void parent3(global uint* out, int n) {
  queue_t q = get_default_queue();
  ndrange_t r = ndrange_1D(n);
  void (^b)(void) = ^{ out[1] = n; };
  out[0] = get_kernel_work_group_size(b) + get_kernel_preferred_work_group_size_multiple(b)
         + get_kernel_max_sub_group_size_for_ndrange(r, b) + get_kernel_sub_group_count_for_ndrange(r, b);
  clk_event_t m;
  enqueue_marker(q, 0, NULL, &m);
  release_event(m);
}
