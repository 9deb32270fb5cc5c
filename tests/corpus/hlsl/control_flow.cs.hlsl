// Switch (with [branch]/[flatten]/[forcecase] attributes), loops and early exits.
RWStructuredBuffer<int> Data : register(u0);

int op(int code, int a, int b) {
    [forcecase]
    switch (code) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    case -1: return -a;
    default: return a;
    }
}

[numthreads(32, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    int acc = Data[id.x];
    [loop]
    for (int i = 0; i < 16; ++i) {
        [branch]
        if (acc > 10000) break;
        [flatten]
        if ((i & 1) == 0) continue;
        acc = op(i % 4 - 1, acc, i);
    }
    int k = 0;
    [allow_uav_condition]
    while (k < acc && k < 100) {
        k += 3;
    }
    do {
        k--;
    } while (k > 50);
    Data[id.x] = acc + k;
}
