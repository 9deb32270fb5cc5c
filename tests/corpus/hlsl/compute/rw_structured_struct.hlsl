// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// RWStructuredBuffer of structs, read-modify-write per invocation (std430 layout: float3 at 0,
// float at 12, float3 at 16, uint at 28, stride 32).
struct Particle
{
    float3 position;
    float mass;
    float3 velocity;
    uint id;
};

RWStructuredBuffer<Particle> Particles : register(u0);

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    Particle p = Particles[id.x];
    p.position += p.velocity * 0.5;
    p.mass *= 2.0;
    p.id = p.id * 10 + id.x;
    Particles[id.x] = p;
    Particles[id.x].velocity.y = -p.velocity.y;
}
