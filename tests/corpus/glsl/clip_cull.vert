#version 450
// User clip and cull distances plus point size.
layout(location = 0) in vec3 inPosition;
layout(binding = 0) uniform Planes { vec4 clipPlanes[3]; mat4 mvp; float pointSize; } u;

out gl_PerVertex {
    vec4 gl_Position;
    float gl_PointSize;
    float gl_ClipDistance[3];
    float gl_CullDistance[1];
};

void main() {
    vec4 p = vec4(inPosition, 1.0);
    for (int i = 0; i < 3; ++i) {
        gl_ClipDistance[i] = dot(u.clipPlanes[i], p);
    }
    gl_CullDistance[0] = p.z - 100.0;
    gl_PointSize = u.pointSize;
    gl_Position = u.mvp * p;
}
