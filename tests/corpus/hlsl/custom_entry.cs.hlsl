// entry: CSMain
// Non-default entry point name selected via the `entry:` header.
RWStructuredBuffer<uint> Out : register(u0);

uint helper(uint x) { return x * x + 1; }

[numthreads(32, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) {
    Out[id.x] = helper(id.x);
}
