// ARGS: -T cs_6_0 -E main
// GLSLANG: same
// Prefix and postfix ++ and -- on ints, floats, vector components, array elements and
// buffer elements; the value of the expression is the new (prefix) or old (postfix) value.
RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    int i = 5;
    int a = i++;
    int b = ++i;
    int c = i--;
    int d = --i;
    Out[0] = a;
    Out[1] = b;
    Out[2] = c;
    Out[3] = d;
    Out[4] = i;
    float f = 1.5;
    f++;
    ++f;
    Out[5] = (int)(f * 2.0);
    int3 v = int3(1, 2, 3);
    v.y++;
    --v.z;
    Out[6] = v.x + v.y * 10 + v.z * 100;
    int arr[3] = { 7, 8, 9 };
    int k = 1;
    arr[k++]++;
    Out[7] = arr[1] * 10 + k;
    Out[8] = 40;
    Out[8]++;
    Out[9] = Out[8]--;
    Out[10] = Out[8];
}
