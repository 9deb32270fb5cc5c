// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// typedef of scalars, vectors, matrices and structs, used for locals, parameters and returns.
typedef float real;
typedef vector<float, 3> real3;
typedef int Count;
struct Point
{
    real3 p;
    Count n;
};
typedef Point Sample;
typedef float2x2 Rot;

RWStructuredBuffer<float> Out : register(u0);

real3 scaled(real3 v, real s) { return v * s; }

[numthreads(1, 1, 1)]
void main()
{
    real r = 1.5;
    real3 v = scaled(real3(1, 2, 3), r);
    Count c = 4;
    Sample s;
    s.p = v;
    s.n = c;
    Rot m = Rot(0, -1, 1, 0);
    float2 q = mul(m, float2(2, 3));
    Out[0] = s.p.z;
    Out[1] = (real)s.n;
    Out[2] = q.x;
    Out[3] = q.y;
}
