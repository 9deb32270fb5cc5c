#version 450
// args: --target-env vulkan1.1
// NV cooperative matrix tile multiply-accumulate.
#extension GL_NV_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 32) in;

layout(std430, binding = 0) readonly buffer A { float16_t a[]; };
layout(std430, binding = 1) readonly buffer B { float16_t b[]; };
layout(std430, binding = 2) buffer C { float c[]; };

layout(constant_id = 0) const uint LDA = 16;

void main() {
    fcoopmatNV<16, gl_ScopeSubgroup, 16, 16> ma;
    fcoopmatNV<16, gl_ScopeSubgroup, 16, 16> mb;
    fcoopmatNV<32, gl_ScopeSubgroup, 16, 16> mc;
    coopMatLoadNV(ma, a, 0, LDA, false);
    coopMatLoadNV(mb, b, 0, LDA, true);
    coopMatLoadNV(mc, c, 0, 16, false);
    mc = coopMatMulAddNV(ma, mb, mc);
    mc = mc * 2.0;
    coopMatStoreNV(mc, c, 0, 16, false);
}
