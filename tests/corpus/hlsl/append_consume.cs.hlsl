// AppendStructuredBuffer / ConsumeStructuredBuffer with counters.
struct Particle { float3 pos; float life; };
ConsumeStructuredBuffer<Particle> Alive : register(u0);
AppendStructuredBuffer<Particle> NextAlive : register(u1);
AppendStructuredBuffer<uint> Dead : register(u2);

cbuffer Sim : register(b0) { float dt; uint aliveCount; };

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    if (id.x >= aliveCount) return;
    Particle p = Alive.Consume();
    p.life -= dt;
    p.pos.y -= 9.81 * dt * dt;
    if (p.life > 0.0) {
        NextAlive.Append(p);
    } else {
        Dead.Append(id.x);
    }
}
