// triangleadj input with PointStream output.
struct V { float4 pos : SV_Position; };

[maxvertexcount(3)]
void main(triangleadj V input[6], inout PointStream<V> points) {
    for (int i = 0; i < 6; i += 2) {
        V o = input[i];
        o.pos.xy += (input[i + 1].pos.xy - input[i].pos.xy) * 0.1;
        points.Append(o);
    }
}
