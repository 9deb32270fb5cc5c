// args: -O2
// llvm-spirv: --spirv-max-version=1.4
// target-env: spv1.4
// Mandelbrot set at -O2: loops, phis and selects in optimized form.
__kernel void mandelbrot(__global uchar4 *out, int width, int height, float x0, float y0, float scale, int max_iter) {
    int px = (int)get_global_id(0);
    int py = (int)get_global_id(1);
    if (px >= width || py >= height) return;
    float cx = x0 + px * scale;
    float cy = y0 + py * scale;
    float zx = 0.0f, zy = 0.0f;
    int it = 0;
    while (zx * zx + zy * zy < 4.0f && it < max_iter) {
        float t = zx * zx - zy * zy + cx;
        zy = 2.0f * zx * zy + cy;
        zx = t;
        ++it;
    }
    float n = (float)it / (float)max_iter;
    uchar r = convert_uchar_sat(n * 255.0f);
    uchar g = convert_uchar_sat(sqrt(n) * 255.0f);
    uchar b = it == max_iter ? 0 : 255;
    out[py * width + px] = (uchar4)(r, g, b, 255);
}
