#version 450
// Double-precision linear algebra and packing helpers.
layout(local_size_x = 8, local_size_y = 8) in;

layout(std430, binding = 0) buffer Mats { dmat4 m[]; };
layout(std430, binding = 1) buffer Vecs { dvec4 v[]; } vecs;

double horner(double x, double c0, double c1, double c2, double c3) {
    return fma(fma(fma(c3, x, c2), x, c1), x, c0);
}

void main() {
    uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * 8u;
    dmat4 a = m[i];
    dvec4 x = vecs.v[i];
    dvec4 y = a * x;
    double n = length(y);
    double d = determinant(a);
    dmat3 sub = dmat3(a);
    dvec3 z = inverse(sub) * y.xyz;
    y.xyz = normalize(z) * horner(n, 1.0lf, -0.5lf, 0.125lf, 1.0e-300lf);
    y.w = d + floor(y.x) + fract(y.y) + sqrt(abs(y.z)) + inversesqrt(2.0lf) + modf(y.w, n);
    y = clamp(y, dvec4(-1.7976931348623157e308lf), dvec4(4.9e-324lf * 1e300lf));
    vecs.v[i] = y;
    vecs.v[i + 1u] = dvec4(ldexp(1.0lf, 3), double(packDouble2x32(unpackDouble2x32(y.x))), 0.0lf, 0.0lf);
    m[i] = transpose(a) * outerProduct(y, x);
}
