#version 450
// AMD extensions: trinary min/max, gcn_shader and shader_ballot extended instruction sets.
#extension GL_AMD_shader_trinary_minmax : require
#extension GL_AMD_gcn_shader : require
#extension GL_AMD_shader_ballot : require
#extension GL_ARB_shader_ballot : require
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = 64) in;

layout(std430, binding = 0) buffer Data { vec4 v[]; } data;
layout(std430, binding = 1) buffer Ints { ivec4 iv[]; } ints;

void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 v = data.v[i];
    ivec4 iv = ints.iv[i];
    float mn = min3(v.x, v.y, v.z);
    float mx = max3(v.x, v.y, v.z);
    float md = mid3(v.x, v.y, v.z);
    int imn = min3(iv.x, iv.y, iv.z);
    uint umx = max3(uint(iv.x), uint(iv.y), uint(iv.w));
    float face = cubeFaceIndexAMD(v.xyz);
    vec2 fc = cubeFaceCoordAMD(v.xyz);
    uint64_t t = timeAMD();
    float sw = swizzleInvocationsAMD(v.x, uvec4(1, 0, 3, 2));
    float swm = swizzleInvocationsMaskedAMD(v.y, uvec3(0x1f, 0, 1));
    float wi = writeInvocationAMD(v.z, 1.0, 0u);
    uint mbc = mbcntAMD(uint64_t(0xFFFFFFFFFFFFFFFFul));
    float rd = readInvocationARB(v.w, 0u);
    float minInv = minInvocationsAMD(v.x);
    float addInv = addInvocationsInclusiveScanAMD(v.y);
    data.v[i] = vec4(mn + mx + md + face, fc.x + sw + swm, wi + rd + minInv + addInv, float(t & 1ul) + float(mbc) + fc.y);
    ints.iv[i] = ivec4(imn, int(umx), 0, 0);
}
