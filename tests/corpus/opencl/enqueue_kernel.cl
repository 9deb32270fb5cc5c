// Device-side enqueue with blocks, ndrange_t, events and queue queries (OpEnqueueKernel & friends).
__kernel void child_work(__global int *data, int offset) {
    data[get_global_id(0) + offset] *= 2;
}

__kernel void parent(__global int *data, int n) {
    queue_t q = get_default_queue();
    ndrange_t range = ndrange_1D(n);
    const size_t gsize[2] = {8, 8};
    const size_t lsize[2] = {4, 4};
    ndrange_t range2 = ndrange_2D(gsize, lsize);
    clk_event_t evt, marker;
    int err = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, range, 0, NULL, &evt,
                             ^{ data[get_global_id(0)] += 1; });
    err |= enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_KERNEL, range2, 1, &evt, NULL,
                          ^(__local void *scratch) { ((__local int *)scratch)[get_local_id(0)] = 0; }, 64u);
    err |= enqueue_marker(q, 1, &evt, &marker);
    void (^blk)(void) = ^{ data[0] = n; };
    uint wg = get_kernel_work_group_size(blk);
    uint pref = get_kernel_preferred_work_group_size_multiple(blk);
    err |= enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP, range, blk);
    if (is_valid_event(evt)) {
        retain_event(evt);
        set_user_event_status(evt, CL_COMPLETE);
        release_event(evt);
    }
    clk_event_t user = create_user_event();
    release_event(user);
    release_event(marker);
    data[1] = err + (int)wg + (int)pref;
}
