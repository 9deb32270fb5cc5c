#!/usr/bin/env python3
"""Writes ../invalid/*.hlsl: each program with its ARGS line and the ERROR lines whose
line:col are computed here from the offending token (so editing a program keeps them right).

    python3 tests/corpus/hlsl/tools/invalid_programs.py

A needle marks where each error is reported: its first character (the construct's start), its
end ("end": just after the last token, where a missing `;` belongs), its last character
("second"), or a fixed "=@line:col" (errors with no place in the source, reported at 1:1).
"""
import os
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "invalid")
CS = "-T cs_6_0 -E main"
PS = "-T ps_6_0 -E main"
VS = "-T vs_6_0 -E main"
E = []
def inv(stem, args, desc, body, errors):
    E.append((stem, args, desc, body, errors))

inv("missing_semicolon_decl", CS, "A declaration without its `;`: reported just after the last token.",
"""RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    int a = 1
    int b = 2;
    Out[0] = a + b;
}
""", [("int a = 1", 1, "expected ';'", "end")])

inv("missing_semicolon_return", PS, "A return statement without its `;`.",
"""float4 main() : SV_Target
{
    float4 c = float4(1, 0, 0, 1);
    return c
}
""", [("return c", 1, "expected ';'", "end")])

inv("missing_semicolon_struct", CS, "A struct definition without the `;` after its `}` (the next declaration starts with a keyword, so the `}` cannot be followed by a declarator).",
"""struct S
{
    int a;
}

static const int kOne = 1;
RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = 1;
}
""", [("    int a;\n}", 1, "expected ';'", "end")])

inv("stray_closing_brace", CS, "An extra `}` after a function.",
"""RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = 1;
}
}
""", [("}\n}", 1, "'}'", "second")])

inv("unbalanced_paren_if", CS, "An if condition missing its `)`.",
"""RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    int a = Out[0];
    if ((a > 0) {
        Out[1] = a;
    }
}
""", [("{\n        Out[1]", 1, "expected ')'", None)])

inv("unbalanced_paren_call", CS, "A call missing its `)`.",
"""RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = max(1.0, 2.0;
}
""", [(";\n}", 1, "expected ')'", None)])

inv("stray_character", CS, "A character that is no HLSL token.",
"""RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = 3 @ 4;
}
""", [("@", 1, "'@'", None)])

inv("unterminated_comment", PS, "A block comment that never ends.",
"""float4 main() : SV_Target
{
    return 1;
}
/* this comment
   runs to the end of the file
""", [("/*", 1, "unterminated", None)])

inv("else_without_if", CS, "An `else` with no `if` before it.",
"""RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = 1;
    else
        Out[0] = 2;
}
""", [("else", 1, "else", None)])

inv("missing_include", CS + " -I include", "#include of a file in neither the file's directory nor -I.",
"""#include "does_not_exist.hlsli"

RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = 1;
}
""", [('"does_not_exist.hlsli"', 1, "not found", None)])

inv("unterminated_if", CS, "An #if without #endif.",
"""#define LEVEL 2
#if LEVEL > 1
RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = LEVEL;
}
""", [("#if", 1, "unterminated", None)])

inv("bad_define_name", CS, "#define of something that is not an identifier.",
"""#define 123 456

RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = 1;
}
""", [("123", 1, "macro name", None)])

inv("endif_without_if", PS, "#endif with no open conditional.",
"""float4 main() : SV_Target
{
    return 0.5;
}
#endif
""", [("#endif", 1, "#endif", None)])

inv("error_directive", CS, "#error stops the compilation with its message.",
"""#ifndef REQUIRED_SETTING
#error REQUIRED_SETTING must be defined
#endif

RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = 1;
}
""", [("#error", 1, "REQUIRED_SETTING must be defined", None)])

inv("unterminated_macro_call", CS, "A function-like macro invocation whose argument list never closes.",
"""#define ADD(a, b) ((a) + (b))

RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = ADD(1, 2;
}
""", [("ADD(1", 1, "unterminated", None)])

inv("elif_after_else", CS, "#elif after the #else of the same conditional.",
"""#if 0
#define X 1
#else
#define X 2
#elif 1
#define X 3
#endif

RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = X;
}
""", [("#elif", 1, "#elif", None)])

inv("undeclared_identifier", CS, "Use of a variable that was never declared.",
"""RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    int a = 1;
    Out[0] = a + missing;
}
""", [("missing", 1, "undeclared identifier", None)])

inv("undeclared_function", PS, "Call of a function that was never declared.",
"""float4 main(float2 uv : TEXCOORD0) : SV_Target
{
    return float4(brighten(uv), 0, 1);
}
""", [("brighten", 1, "undeclared", None)])

inv("out_of_scope_variable", CS, "A variable used after the block that declared it.",
"""RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    for (int i = 0; i < 4; i++)
    {
        int inner = i * 2;
        Out[i] = inner;
    }
    Out[4] = inner;
}
""", [("inner;\n}", 1, "undeclared identifier", None)])

inv("unknown_type", CS, "A misspelt type name.",
"""RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    flaot4 v = 1;
    Out[0] = v.x;
}
""", [("flaot4", 1, "unknown type", None)])

inv("struct_to_float", CS, "Initialising a float from a struct.",
"""struct Pair
{
    float a;
    float b;
};

RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Pair p;
    p.a = 1;
    p.b = 2;
    float f = p;
    Out[0] = f;
}
""", [("p;\n    Out", 1, "cannot convert", None)])

inv("return_type_mismatch", PS, "Returning a struct from a function declared to return float4.",
"""struct Color
{
    float4 rgba;
};

float4 main() : SV_Target
{
    Color c;
    c.rgba = 1;
    return c;
}
""", [("c;\n}", 1, "cannot convert", None)])

inv("invalid_operands", CS, "Adding an int to a struct.",
"""struct S
{
    int v;
};

RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    S s;
    s.v = 1;
    Out[0] = s + 1;
}
""", [("s + 1", 1, "invalid operands", None)])

inv("intrinsic_too_few_args", CS, "dot() with one argument.",
"""RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    float3 a = float3(1, 2, 3);
    Out[0] = dot(a);
}
""", [("dot", 1, "dot", None)])

inv("intrinsic_too_many_args", PS, "lerp() with four arguments.",
"""float4 main(float4 a : COLOR0, float4 b : COLOR1) : SV_Target
{
    return lerp(a, b, 0.5, 1.0);
}
""", [("lerp", 1, "lerp", None)])

inv("intrinsic_wrong_type", CS, "cross() on float2 vectors (it takes float3).",
"""RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    float2 a = float2(1, 0);
    float2 b = float2(0, 1);
    Out[0] = cross(a, b).x;
}
""", [("cross", 1, "cross", None)])

inv("intrinsic_struct_arg", CS, "sqrt() of a struct.",
"""struct S
{
    float x;
};

RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    S s;
    s.x = 4;
    Out[0] = sqrt(s);
}
""", [("sqrt", 1, "sqrt", None)])

inv("function_wrong_arg_count", CS, "A user function called with too many arguments.",
"""RWStructuredBuffer<int> Out : register(u0);

int scale(int x)
{
    return x * 3;
}

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = scale(1, 2);
}
""", [("scale(1", 1, "scale", None)])

inv("assign_to_const_local", CS, "Assignment to a const local.",
"""RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    const int k = 3;
    k = 4;
    Out[0] = k;
}
""", [("k = 4", 1, "assign", None)])

inv("assign_to_static_const", CS, "Compound assignment to a static const global.",
"""static const float kPi = 3.14159;
RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    kPi += 1.0;
    Out[0] = kPi;
}
""", [("kPi +=", 1, "assign", None)])

inv("assign_to_cbuffer_member", PS, "Writing a cbuffer member (cbuffer contents are read-only).",
"""cbuffer Params : register(b0)
{
    float4 tint;
};

float4 main() : SV_Target
{
    tint = float4(1, 1, 1, 1);
    return tint;
}
""", [("tint = ", 1, "assign", None)])

inv("assign_to_readonly_buffer", CS, "Writing a StructuredBuffer (read-only).",
"""StructuredBuffer<float> In : register(t0);
RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    In[0] = 1.0;
    Out[0] = In[0];
}
""", [("In[0] = ", 1, "assign", None)])

inv("increment_const", CS, "++ on a const parameter.",
"""RWStructuredBuffer<int> Out : register(u0);

int next(const int x)
{
    x++;
    return x;
}

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = next(1);
}
""", [("x++", 1, "assign", None)])

inv("recursion_direct", CS, "A function that calls itself (HLSL has no recursion).",
"""RWStructuredBuffer<int> Out : register(u0);

int factorial(int n)
{
    if (n <= 1)
        return 1;
    return n * factorial(n - 1);
}

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = factorial(5);
}
""", [("factorial(n - 1)", 1, "recursi", None)])

inv("missing_entry_point", CS, "-E main but no function named main: reported at 1:1.",
"""RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void compute_main()
{
    Out[0] = 1;
}
""", [("=@1:1", 1, "entry point", None)])

inv("wrong_entry_name", PS.replace("-E main", "-E PSMain"), "-E names a function that does not exist.",
"""float4 main() : SV_Target
{
    return 1;
}
""", [("=@1:1", 1, "entry point", None)])

inv("numthreads_zero", CS, "[numthreads] with a zero dimension.",
"""RWStructuredBuffer<int> Out : register(u0);

[numthreads(0, 1, 1)]
void main()
{
    Out[0] = 1;
}
""", [("[numthreads", 1, "numthreads", None)])

inv("numthreads_missing", CS, "A compute entry point without [numthreads].",
"""RWStructuredBuffer<int> Out : register(u0);

void main()
{
    Out[0] = 1;
}
""", [("main", 1, "numthreads", None)])

inv("numthreads_not_constant", CS, "[numthreads] with a non-constant argument.",
"""RWStructuredBuffer<int> Out : register(u0);
int width;

[numthreads(width, 1, 1)]
void main()
{
    Out[0] = 1;
}
""", [("[numthreads", 1, "numthreads", None)])

inv("duplicate_function", CS, "The same function defined twice.",
"""RWStructuredBuffer<float> Out : register(u0);

float half_of(float x)
{
    return x * 0.5;
}

float half_of(float x)
{
    return x / 2.0;
}

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = half_of(3.0);
}
""", [("half_of", 2, "redefinition", None)])

inv("duplicate_local", CS, "A local declared twice in one scope.",
"""RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    int a = 1;
    int a = 2;
    Out[0] = a;
}
""", [("a = 2", 1, "redefinition", None)])

inv("duplicate_struct", PS, "Two structs with the same name.",
"""struct Light
{
    float3 dir;
};

struct Light
{
    float3 color;
};

float4 main() : SV_Target
{
    return 1;
}
""", [("Light", 2, "redefinition", None)])

inv("duplicate_global", CS, "Two static globals with the same name.",
"""static float gScale = 1.0;
static float gScale = 2.0;
RWStructuredBuffer<float> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = gScale;
}
""", [("gScale", 2, "redefinition", None)])

inv("geometry_profile", "-T gs_6_0 -E main", "The geometry shader profile is outside this frontend's scope (reported at 1:1).",
"""struct GSOut
{
    float4 pos : SV_Position;
};

[maxvertexcount(3)]
void main(triangle float4 pos[3] : SV_Position, inout TriangleStream<GSOut> stream)
{
    GSOut o;
    o.pos = pos[0];
    stream.Append(o);
}
""", [("=@1:1", 1, "not supported yet", None)])

inv("hull_profile", "-T hs_6_0 -E main", "The hull shader profile is outside this frontend's scope (reported at 1:1).",
"""float4 main() : SV_Position
{
    return 0;
}
""", [("=@1:1", 1, "not supported yet", None)])

inv("template_function", CS, "User templates are outside this frontend's scope.",
"""RWStructuredBuffer<int> Out : register(u0);

template<typename T>
T twice(T x)
{
    return x * 2;
}

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = twice<int>(3);
}
""", [("template", 1, "not supported yet", None)])

inv("struct_with_method", CS, "Member functions are outside this frontend's scope: reported at the method's name.",
"""struct Counter
{
    int n;
    int next()
    {
        return n + 1;
    }
};

RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Counter c;
    c.n = 1;
    Out[0] = c.next();
}
""", [("next()", 1, "not supported yet", None)])

inv("wave_intrinsic", CS, "Wave intrinsics are outside this frontend's scope.",
"""RWStructuredBuffer<uint> Out : register(u0);

[numthreads(32, 1, 1)]
void main(uint id : SV_DispatchThreadID)
{
    Out[id] = WaveActiveSum(id);
}
""", [("WaveActiveSum", 1, "not supported yet", None)])

inv("texture_array", PS, "Texture2DArray is outside this frontend's scope.",
"""Texture2DArray layers : register(t0);
SamplerState samp : register(s0);

float4 main(float3 uvw : TEXCOORD0) : SV_Target
{
    return layers.Sample(samp, uvw);
}
""", [("Texture2DArray", 1, "not supported yet", None)])

inv("break_outside_loop", CS, "break outside any loop or switch.",
"""RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    Out[0] = 1;
    break;
}
""", [("break", 1, "break", None)])

inv("continue_outside_loop", CS, "continue outside any loop.",
"""RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    int a = Out[0];
    if (a > 0)
        continue;
    Out[0] = a;
}
""", [("continue", 1, "continue", None)])

inv("void_variable", CS, "A variable of type void.",
"""RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    void nothing;
    Out[0] = 1;
}
""", [("nothing", 1, "void", None)])

inv("entry_param_without_semantic", VS, "An entry point parameter without a semantic.",
"""float4 main(float4 pos : POSITION, float scale) : SV_Position
{
    return pos * scale;
}
""", [("scale)", 1, "semantic", None)])

inv("several_errors", CS, "Three independent errors in one file: all are reported.",
"""RWStructuredBuffer<int> Out : register(u0);

struct S
{
    int v;
};

int first()
{
    return undefined_a;
}

[numthreads(1, 1, 1)]
void main()
{
    const int k = 1;
    k = 2;
    S s;
    s.v = 1;
    int x = s;
    Out[0] = first() + k + x + undefined_b;
}
""", [("undefined_a", 1, "undeclared identifier", None), ("k = 2", 1, "assign", None),
      ("s;\n    Out", 1, "cannot convert", None), ("undefined_b", 1, "undeclared identifier", None)])

inv("several_undeclared", PS, "Undeclared names in two functions: both reported.",
"""float3 shade(float3 n)
{
    return n * lightColor;
}

float4 main(float3 n : NORMAL) : SV_Target
{
    return float4(shade(n), opacity);
}
""", [("lightColor", 1, "undeclared identifier", None), ("opacity", 1, "undeclared identifier", None)])

inv("case_not_constant", CS, "A switch case label that is not a constant.",
"""RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    int x = Out[0];
    int y = Out[1];
    switch (x)
    {
    case y:
        Out[2] = 1;
        break;
    }
}
""", [("y:", 1, "case", None)])

inv("array_size_not_constant", CS, "A local array whose size is not a constant.",
"""RWStructuredBuffer<int> Out : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    int n = Out[0];
    int values[n];
    values[0] = 1;
    Out[1] = values[0];
}
""", [("n];", 1, "array size", None)])

def locate(text, needle, occ, mode):
    if needle.startswith("=@"):
        l, c = needle[2:].split(":")
        return int(l), int(c)
    idx = -1
    for _ in range(occ):
        idx = text.index(needle, idx + 1)
    if mode == "end":
        idx += len(needle)
    elif mode == "second":
        idx += len(needle) - 1
    line = text.count("\n", 0, idx) + 1
    col = idx - (text.rfind("\n", 0, idx) + 1) + 1
    return line, col

os.makedirs(OUT, exist_ok=True)
for stem, args, desc, body, errors in E:
    n_header = 1 + len(errors) + 1
    # header lines are fixed first; compute positions in the body then shift by the header
    header = [f"// ARGS: {args}"]
    errs = []
    for needle, occ, msg, mode in errors:
        if needle.startswith("=@"):
            l, c = locate(body, needle, occ, mode)
        else:
            l, c = locate(body, needle, occ, mode)
            l += n_header
        errs.append(f"// ERROR: {l}:{c}: {msg}")
    text = "\n".join(header + errs + [f"// {desc}"]) + "\n" + body
    # sanity: recompute from the final text
    for (needle, occ, msg, mode), e in zip(errors, errs):
        if needle.startswith("=@"):
            continue
        hl = len(header) + len(errs) + 1
        l, c = locate(text, needle, occ + text[: len("\n".join(header + errs + [f"// {desc}"]))].count(needle), mode)
        assert e.startswith(f"// ERROR: {l}:{c}:"), (stem, e, l, c)
    with open(os.path.join(OUT, stem + ".hlsl"), "w") as f:
        f.write(text)
print(len(E))
