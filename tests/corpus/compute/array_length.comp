#version 450
// OpArrayLength: the element count of a runtime array comes from the size of the bound buffer
// (after a 16-byte header in the first buffer; the whole buffer in the second).
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uvec4 header; float data[]; };
layout(std430, set = 0, binding = 1) buffer Out { uint r[]; };
void main() {
    r[0] = uint(data.length());
    r[1] = uint(r.length());
    r[2] = header.x + uint(data.length()) * 100u;
}
