#version 450
// Bool vectors in Function, Private and Workgroup memory, read and written one component at a
// time through dynamic indices (LLVM packs <N x i1> in memory as bits: a component has no
// address of its own).
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer In { uint seed[]; };
layout(set = 0, binding = 1) buffer Out { uint result[]; };

bvec4 priv = bvec4(true, false, true, false);
shared bvec3 wg[4];

void main() {
    uint i = gl_LocalInvocationID.x;
    bvec4 local = bvec4(seed[i] & 1u, seed[i] & 2u, seed[i] & 4u, seed[i] & 8u);
    wg[i] = bvec3(local.x, local.z, !local.y);
    barrier();
    uint k = seed[i] % 4u;
    local[k] = !local[k];
    priv[(k + 1u) % 4u] = local[(k + 2u) % 4u];
    wg[i][k % 3u] = priv[k];
    barrier();
    uint base = i * 12u;
    for (uint c = 0u; c < 4u; c++) {
        result[base + c] = local[c] ? 1u : 0u;
        result[base + 4u + c] = priv[c] ? 1u : 0u;
    }
    for (uint c = 0u; c < 3u; c++) {
        result[base + 8u + c] = wg[(i + 1u) % 4u][c] ? 1u : 0u;
    }
    result[base + 11u] = uint(any(local)) + 2u * uint(all(priv));
}
