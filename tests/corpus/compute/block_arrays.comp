#version 450
// Arrays of blocks (descriptor arrays): each element is a buffer of its own, bound at the same
// set and binding with its array index; indexed by a constant and by a dynamic index, with
// OpArrayLength through the element.
layout(local_size_x = 4) in;
layout(std430, set = 0, binding = 0) buffer B { uint n; uint data[]; } bufs[3];
layout(std430, set = 0, binding = 1) buffer Out { uint r[]; } outb;
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint k = gl_WorkGroupID.x % 2u;  // dynamically uniform, as Vulkan requires without nonuniformEXT
    outb.r[i] = bufs[k].data[i] + bufs[k].n * 100u + uint(bufs[k].data.length()) * 10000u;
    bufs[2].data[i] = i * 3u + bufs[2].n;
}
