#version 450
// Integer bit manipulation builtins and extended arithmetic.
layout(local_size_x = 64) in;

layout(std430, binding = 0) buffer Words { uvec4 words[]; };
layout(std430, binding = 1) buffer IWords { ivec4 iwords[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uvec4 w = words[i];
    ivec4 s = iwords[i];

    uint ex = bitfieldExtract(w.x, 3, 7);
    int sex = bitfieldExtract(s.x, 5, 9);
    uint ins = bitfieldInsert(w.y, 0x15u, 8, 5);
    uint rev = bitfieldReverse(w.z);
    int cnt = bitCount(w.w);
    int lsb = findLSB(w.x);
    int msb = findMSB(s.y);
    int umsb = findMSB(w.y);

    uint carry, borrow;
    uint sum = uaddCarry(w.x, w.y, carry);
    uint diff = usubBorrow(w.z, w.w, borrow);
    uint hi, lo;
    umulExtended(w.x, w.z, hi, lo);
    int shi, slo;
    imulExtended(s.x, s.w, shi, slo);

    words[i] = uvec4(ex ^ ins, rev + carry, sum - borrow + diff, hi ^ lo);
    iwords[i] = ivec4(sex + cnt, lsb + msb + umsb, shi, slo) >> ivec4(1, 2, 3, 4);
    iwords[i] = ~iwords[i] % 17 * sign(s) + abs(s) / max(s, ivec4(1));
}
