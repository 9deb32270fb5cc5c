#version 450
// Nested loops, do-while, break/continue, early return, short-circuit logic, ternaries.
layout(local_size_x = 16) in;

layout(std430, binding = 0) buffer Grid { int cells[]; };
layout(std430, binding = 1) buffer Result { int paths[16]; } res;

bool blocked(int x, int y) {
    return x < 0 || y < 0 || x >= 16 || y >= 16 || cells[y * 16 + x] != 0;
}

int walk(int sx, int sy) {
    int steps = 0;
    int x = sx, y = sy;
    for (int iter = 0; iter < 256; ++iter) {
        bool moved = false;
        for (int dir = 0; dir < 4; ++dir) {
            int nx = x + (dir == 0 ? 1 : dir == 1 ? -1 : 0);
            int ny = y + (dir == 2 ? 1 : dir == 3 ? -1 : 0);
            if (blocked(nx, ny)) {
                continue;
            }
            if (nx == 15 && ny == 15) {
                return steps + 1;
            }
            x = nx;
            y = ny;
            moved = true;
            break;
        }
        if (!moved) {
            break;
        }
        ++steps;
    }
    int k = 0;
    do {
        k += 2;
        if ((k & 7) == 6) continue;
        steps ^= k;
    } while (k < 20 && steps > 0);
    return -steps;
}

void main() {
    int id = int(gl_GlobalInvocationID.x);
    if (id >= 16) return;
    int r = walk(id, 0);
    res.paths[id] = (r > 0 && r < 100) ? r : (r == 0 || id == 3) ? 0 : -1;
}
