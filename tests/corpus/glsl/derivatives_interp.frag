#version 450
// Derivatives (fine/coarse) and interpolation functions (centroid/sample/offset).
layout(location = 0) in vec2 vUV;
layout(location = 1) centroid in vec3 vCentroid;
layout(location = 2) sample in vec4 vSample;
layout(location = 3) noperspective in float vLinear;
layout(location = 4) flat in ivec2 vFlat;
layout(location = 0) out vec4 outColor;

void main() {
    vec2 dx = dFdx(vUV), dy = dFdy(vUV);
    vec2 fdx = dFdxFine(vUV), fdy = dFdyFine(vUV);
    vec2 cdx = dFdxCoarse(vUV), cdy = dFdyCoarse(vUV);
    vec2 fw = fwidth(vUV) + fwidthFine(vUV) + fwidthCoarse(vUV);
    vec2 atCentroid = interpolateAtCentroid(vUV);
    vec2 atSample = interpolateAtSample(vUV, gl_SampleID);
    vec2 atOffset = interpolateAtOffset(vUV, vec2(0.25, -0.25));
    float grid = step(0.98, fract(vUV.x * 10.0 + fw.x)) + step(0.98, fract(vUV.y * 10.0 + fw.y));
    outColor = vec4(dx + dy + fdx + fdy + cdx + cdy, grid, vLinear)
             + vec4(atCentroid + atSample + atOffset, vCentroid.xy) + vSample + vec4(vFlat, 0, 0);
}
