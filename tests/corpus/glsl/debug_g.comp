// args: -g
#version 450
// Compiled with -g: OpSource with text, OpString, OpLine, OpName, OpModuleProcessed.
layout(local_size_x = 16, local_size_y = 16) in;

struct Particle {
    vec3 position;
    float mass;
    vec3 velocity;
    float age;
};

layout(std430, binding = 0) buffer Particles { Particle particles[]; };
layout(std140, binding = 1) uniform Sim { vec3 gravity; float dt; vec4 bounds; } sim;

vec3 integrate(inout Particle p, vec3 force) {
    vec3 accel = force / max(p.mass, 1e-4);
    p.velocity += accel * sim.dt;
    p.position += p.velocity * sim.dt;
    return accel;
}

void bounce(inout Particle p) {
    if (p.position.y < sim.bounds.y) {
        p.position.y = sim.bounds.y;
        p.velocity.y = -p.velocity.y * 0.8;
    }
}

void main() {
    uint idx = gl_GlobalInvocationID.y * 256u + gl_GlobalInvocationID.x;
    Particle p = particles[idx];
    vec3 a = integrate(p, sim.gravity * p.mass);
    bounce(p);
    p.age += sim.dt + length(a) * 0.0;
    particles[idx] = p;
}
