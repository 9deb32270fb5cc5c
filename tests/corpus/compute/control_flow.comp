#version 450
// Control flow: a while loop with break (Collatz steps), a for loop with continue, a switch with
// fall-through and default, nested conditionals and a do-while.
layout(local_size_x = 16) in;
layout(std430, binding = 0) buffer Out { int r[]; };
int classify(int x) {
    int k = 0;
    switch (x % 6) {
    case 0:
        k += 100;
    case 1:
        k += 10;
        break;
    case 3:
    case 4:
        k = -x;
        break;
    default:
        k = x * x;
    }
    return k;
}
void main() {
    int n = int(gl_GlobalInvocationID.x) + 1;
    int steps = 0;
    int c = n;
    while (true) {
        if (c == 1) break;
        c = (c % 2 == 0) ? c / 2 : 3 * c + 1;
        steps++;
        if (steps > 1000) break;
    }
    int odd = 0;
    for (int j = 0; j < n; j++) {
        if (j % 2 == 0) continue;
        odd += j;
        if (odd > 200) break;
    }
    int d = 0;
    int t = n;
    do {
        d++;
        t /= 3;
    } while (t > 0);
    uint o = gl_GlobalInvocationID.x * 4u;
    r[o] = steps;
    r[o + 1u] = odd;
    r[o + 2u] = classify(n);
    r[o + 3u] = n > 20 ? (n > 40 ? d * 2 : d) : -d;
}
