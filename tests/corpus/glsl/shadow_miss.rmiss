#version 460
// args: --target-env vulkan1.2
// Shadow miss shader: the ray escaped, so the point is lit.
#extension GL_EXT_ray_tracing : require
layout(location = 1) rayPayloadInEXT bool shadowed;

void main() {
    shadowed = false;
}
