#!/usr/bin/env python3
"""Writes the job and the expected buffers of every compute shader in ../compute/.

For each shader `<stem>.hlsl` this script knows its inputs (the job: dispatch, buffers,
push and spec constants) and recomputes its outputs with DXC's semantics, independently of
any compiler: 32-bit wrapping integers, `%` as OpSRem/OpUMod/OpFRem, shift amounts masked to
the bit width, floats rounded to binary32 after every operation, round() to nearest even.

    python3 tests/corpus/hlsl/tools/expected.py          # (re)write the .job.json/.expected.json
    python3 tests/corpus/hlsl/tools/expected.py --check  # fail if a committed file differs

Only the buffers a shader writes are listed in `<stem>.expected.json`.
"""
import json
import math
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
COMPUTE = os.path.join(HERE, "..", "compute")
SHADERS = {}

NAN = float("nan")
INF = float("inf")


# ---------------------------------------------------------------- scalar semantics
def f32(x):
    """Rounds a Python float to binary32 (overflow gives an infinity)."""
    if math.isnan(x) or math.isinf(x):
        return x
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        return math.copysign(INF, x)


def i32(x):
    x &= 0xFFFFFFFF
    return x - (1 << 32) if x >= 1 << 31 else x


def u32(x):
    return x & 0xFFFFFFFF


def sdiv(a, b):
    """OpSDiv: truncates toward zero."""
    q = abs(a) // abs(b)
    return i32(q if (a < 0) == (b < 0) else -q)


def srem(a, b):
    """OpSRem: the sign of the dividend."""
    return i32(a - b * sdiv(a, b))


def frem(a, b):
    """OpFRem: the sign of the dividend (C fmod, exact)."""
    if b == 0 or math.isinf(a) or math.isnan(a) or math.isnan(b):
        return NAN
    return f32(math.fmod(a, b))


def shl(a, n, unsigned=False):
    r = (a << (n & 31)) & 0xFFFFFFFF
    return r if unsigned else i32(r)


def shr(a, n, unsigned=False):
    """>> masked: arithmetic for int, logical for uint."""
    n &= 31
    return u32(a) >> n if unsigned else i32(a) >> n


def fbits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def bitsf(u):
    return struct.unpack("<f", struct.pack("<I", u32(u)))[0]


def ftoi(x):
    """float to int: truncation toward zero."""
    return i32(int(x))


def round_even(x):
    return f32(float(round(x)))  # Python's round() is round-half-to-even


# ---------------------------------------------------------------- job helpers
def buf(binding, layout, data=None, size_words=None, set=0, kind="storage"):
    b = {"set": set, "binding": binding, "kind": kind,
         "layout": layout if isinstance(layout, list) else [layout]}
    if data is not None:
        b["data"] = [jsonable(v) for v in data]
    if size_words is not None:
        b["size_words"] = size_words
    return b


def out(n, layout="i32", binding=0, set=0):
    """An output buffer of n 32-bit words, zero-filled."""
    return buf(binding, layout, size_words=n, set=set)


def jsonable(v):
    if isinstance(v, bool):
        return 1 if v else 0
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
    return v


def shader(stem, buffers, dispatch=(1, 1, 1), push=None, spec=None, compare=None):
    """Registers `fn` as the model of `<stem>.hlsl`. fn(job) returns {(set, binding): data}
    or {binding: data} for set 0."""

    def register(fn):
        job = {"entry": "main", "dispatch": list(dispatch), "buffers": buffers}
        if push is not None:
            job["push_constants"] = {"layout": push[0], "data": [jsonable(v) for v in push[1]]}
        if spec is not None:
            job["spec_constants"] = {str(k): v for k, v in spec.items()}
        if compare is not None:
            job["x-compare"] = compare
        SHADERS[stem] = (job, fn)
        return fn

    return register


def input_of(job, binding, set=0):
    for b in job["buffers"]:
        if b["binding"] == binding and b["set"] == set:
            return [decode(v) for v in b.get("data", [])]
    raise KeyError((set, binding))


def decode(v):
    if v == "nan":
        return NAN
    if v == "inf":
        return INF
    if v == "-inf":
        return -INF
    return v


def render(stem, job, fn):
    result = fn(job)
    buffers = []
    for key in sorted(result, key=lambda k: k if isinstance(k, tuple) else (0, k)):
        set_, binding = key if isinstance(key, tuple) else (0, key)
        data = result[key]
        # pad to the job buffer's size so the whole buffer is checked
        for b in job["buffers"]:
            if b["set"] == set_ and b["binding"] == binding:
                words = b.get("size_words")
                if words is not None and len(data) < words and b["layout"] == [b["layout"][0]]:
                    width = 2 if b["layout"][0] in ("f64", "i64", "u64") else 1
                    data = list(data) + [0] * (words // width - len(data))
        buffers.append({"set": set_, "binding": binding, "data": [jsonable(v) for v in data]})
    return json.dumps(job) + "\n", json.dumps({"buffers": buffers}) + "\n"


def main():
    check = "--check" in sys.argv
    stale = []
    for stem, (job, fn) in sorted(SHADERS.items()):
        if not os.path.exists(os.path.join(COMPUTE, stem + ".hlsl")):
            stale.append(stem + ".hlsl is missing")
            continue
        job_text, expected_text = render(stem, job, fn)
        for suffix, text in ((".job.json", job_text), (".expected.json", expected_text)):
            path = os.path.join(COMPUTE, stem + suffix)
            if check:
                if not os.path.exists(path) or open(path).read() != text:
                    stale.append(stem + suffix)
            else:
                with open(path, "w") as f:
                    f.write(text)
    for name in sorted(os.listdir(COMPUTE)):
        if name.endswith(".hlsl") and name[:-5] not in SHADERS:
            stale.append(name + " has no model here")
    if stale:
        print("\n".join(stale))
        sys.exit(1)
    print(f"{len(SHADERS)} compute shaders")


# ================================================================= the shaders

@shader("int_arith", [buf(1, "i32", [7, -3, 2147483647]), out(11)])
def _(job):
    a, b, big = input_of(job, 1)
    return {0: [a + b, a - b, a * b, sdiv(a, b), sdiv(b, a), -a, i32(big + 1), i32(big * 2),
                sdiv(-a, 2), i32(-big - 2), i32(a * b * b - (a + b) * 4)]}


@shader("uint_arith", [buf(1, "u32", [5, 7, 0xFFFFFFFF]), out(9, "u32")])
def _(job):
    a, b, m = input_of(job, 1)
    return {0: [u32(a - b), u32(m + a), u32(m * 3), m // b, a // b, int(m > a),
                int(u32(a - b) > a), 0xFFFFFFFF, m // 16 + 7]}


@shader("float_arith", [buf(1, "f32", [6.0, 1.5, 0.0]), out(11, "f32")])
def _(job):
    a, b, z = input_of(job, 1)
    return {0: [f32(a + b), f32(a - b), f32(a * b), f32(a / b), INF, -INF, NAN, -0.0,
                f32(f32(1.0 / 3.0) * 3.0), f32(a * 0.5 + b), f32(16777216.0 + 1.0)]}


@shader("int_rem_negative", [buf(1, "i32", [7, -7, 3]), out(7)])
def _(job):
    p, n, d = input_of(job, 1)
    return {0: [srem(p, d), srem(n, d), srem(p, -d), srem(n, -d), srem(n, d), srem(p, -d),
                srem(n, 4)]}


@shader("uint_rem", [buf(1, "u32", [10, 4]), out(7, "u32")])
def _(job):
    a, b = input_of(job, 1)
    return {0: [a % b, 0xFFFFFFFF % b, b % a, a % 3, (a + 1) % 3, (a + 2) % 3, a % 5]}


@shader("float_rem_negative", [buf(1, "f32", [5.5, 2.0]), out(6, "f32")])
def _(job):
    a, b = input_of(job, 1)
    return {0: [frem(a, b), frem(-a, b), frem(a, -b), frem(-a, -b), frem(a, 2.0), frem(-a, 2.0)]}


@shader("fmod_intrinsic", [buf(1, "f32", [5.5, 2.0]), out(6, "f32")])
def _(job):
    a, b = input_of(job, 1)
    return {0: [frem(a, b), frem(-a, b), frem(a, -b), frem(-7.5, 2.0), frem(7.5, -2.0),
                frem(-1.0, 4.0)]}


@shader("shift_masked", [buf(1, "i32", [1, 32, 33, -8]), out(7)])
def _(job):
    one, n32, n33, neg = input_of(job, 1)
    return {0: [shl(one, n32), shl(one, n33), shr(neg, n33), i32(shr(neg, n33, True)),
                shl(one, n32 + 4), shl(3, n33, True), shl(5, 34, True)]}


@shader("shift_basic", [buf(1, "i32", [-20, 3]), out(9)])
def _(job):
    x, n = input_of(job, 1)
    return {0: [shl(x, n), shr(x, n), i32(shr(x, n, True)), shl(1, 31), shr(shl(1, 31), 31),
                shr(1 << 31, 31, True), shr(x, 1), shr(256, n), shr(shl(3, 4), 1)]}


@shader("bitwise", [buf(1, "u32", [0x12345678, 0x0000FFFF]), out(9, "u32")])
def _(job):
    a, b = input_of(job, 1)
    return {0: [a & b, a | b, a ^ b, u32(~a), u32(~-6), u32(-6 & 0xFF), a ^ 0xFFFF0000,
                b ^ 0x0F0F0F0F, ((a & 0xF0F0) | 1) ^ 0x100]}


@shader("compare_nan", [buf(1, "f32", [NAN, 1.0, INF]), out(12, "u32")])
def _(job):
    return {0: [0, 0, 0, 0, 0, 1, 1, 1, 1, 0, 1, 1]}


@shader("compare_int", [buf(1, "i32", [-1, 2]), out(11)])
def _(job):
    m, p = input_of(job, 1)
    return {0: [int(m < p), 1, int(m > p), int(m >= p), int(m == -1), int(m != p),
                int(u32(m) > u32(p)), int(u32(m) > u32(p)), int(m >= 0), int(p >= 0), 1]}


@shader("casts", [buf(1, "f32", [2.7, -2.7, 3.99]), out(9), out(8, "f32", binding=2)])
def _(job):
    a, b, c = [f32(x) for x in input_of(job, 1)]
    i = -7
    return {0: [ftoi(a), ftoi(b), ftoi(c), ftoi(c), 1, 0, 1, ftoi(a), ftoi(b)],
            2: [f32(float(0xFFFFFFFF)), -7.0, f32(16777217.0), float(sdiv(i, 2)), f32(i * 0.5),
                1.25, -2.0, float(int(c))]}


@shader("bool_ops", [buf(1, "i32", [1, 0]), out(11, "u32")])
def _(job):
    t, f = [x != 0 for x in input_of(job, 1)]
    return {0: [t and f, t or f, not t, t == f, t != f, (t and not f) or f, not t, not f, True,
                0 + 2 * 1, t]}


@shader("min_precision", [buf(1, "f32", [0.1, 1.5, 2.25]), out(8, "f32")],
        compare={"ulps": 1, "why": "dot() may be contracted to an fma"})
def _(job):
    h, m, t = [f32(x) for x in input_of(job, 1)]
    return {0: [f32(h + 1.0 / 4096.0), f32(m * 3.0), f32(t - 0.5), 60000.0, -15.0, 65536.0,
                f32(f32(h * h) + 4.0), f32(m + 2.0)]}


@shader("double_math", [buf(1, "f64", [2.1, 3.0]), out(14, "f64")],
        compare={"ulps": 2, "why": "Vulkan allows 2.5 ulp for division; lavapipe's a / 3.0 is 1 ulp off"})
def _(job):
    a, b = input_of(job, 1)
    return {0: [a + b, a * b, a / 3.0, f32(a / 3.0), float(int(-a * 1.5)), a * 2.0 - b * 2.0,
                16777217.0 + a]}


@shader("int64", [buf(1, "i32", [3]), out(8, "i64"), out(8, "u64", binding=2)])
def _(job):
    (a,) = input_of(job, 1)
    big = 5000000000
    q = -(big // a)  # big / -a, truncated toward zero (both exact here)
    low = big & 0xFFFFFFFF
    low = low - (1 << 32) if low >= 1 << 31 else low
    m64 = (1 << 64) - 1
    return {0: [a * big, q, low, -big >> 1],
            2: [(m64 + 2) & m64, m64 >> 60, 1 << 63, 1 << (65 & 63)]}


@shader("vector_types", [buf(1, "i32", [2]), out(10, "f32")])
def _(job):
    (k,) = input_of(job, 1)
    d = [1.0, 2.0, 3.0, 4.0]
    e = list(d)
    e[k] = 10.0
    return {0: [5.0, 2.0, 3.0, d[k], float(-1 + k), 3.0, 1.0, 8.0, sum(e), d[3] + 1.0]}


@shader("vector_construct", [buf(1, "f32", [0.5, 3.0, -1.0]), out(9, "f32")])
def _(job):
    s, px, py = input_of(job, 1)
    a = [px, py, s, 1.0]
    b = [s, py, px, 0.5]
    return {0: [a[0], a[2], b[1], b[3], 3 * s, s, a[2], a[3], 4.0]}


@shader("swizzle", [out(12, "f32")])
def _(job):
    return {0: [3.0, 1.0, 3.0, -1.0, 5.0, 3.0, 7.0, 3.0, 9.0, 1.0, 27.0, 18.0]}


@shader("compound_assign", [out(10), out(4, "f32", binding=1)])
def _(job):
    i = 10
    seq = []
    i += 5; seq.append(i)
    i -= 20; seq.append(i)
    i *= -3; seq.append(i)
    i = sdiv(i, 4); seq.append(i)
    i = srem(i, 2); seq.append(i)
    i = shl(i, 3); seq.append(i)
    i = shr(i, 1); seq.append(i)
    i = ((i | 0x30) & 0x3C) ^ 0x0F; seq.append(i)
    seq.append(4 * 10 + 5)
    seq.append(u32(7 - 9) >> 28)
    f = (1.5 * 4.0 - 0.5) / 2.0
    return {0: seq, 1: [f, 2.5, -5.5, 6.5]}


@shader("inc_dec", [out(11)])
def _(job):
    return {0: [5, 7, 7, 5, 5, 7, 231, 92, 40, 41, 40]}


def matmul(a, b):
    """Matrices as lists of rows (HLSL's view)."""
    return [[sum(a[i][k] * b[k][j] for k in range(len(b))) for j in range(len(b[0]))]
            for i in range(len(a))]


@shader("matrix_types", [out(13, "f32")])
def _(job):
    return {0: [3.0, 4.0, 5.0, 6.0, 4.0, 7.0, 8.0, -12.0, 6.0, 2.5, 8.0, 10.0, 29.0]}


@shader("matrix_componentwise_mul", [out(7, "f32")])
def _(job):
    return {0: [5.0, 12.0, 21.0, 32.0, 36.0, 6.0, 1.0]}


@shader("mul_matrix_vector", [buf(1, "f32", [1, 2, 3, 4, 5, 6]), out(6, "f32")])
def _(job):
    e = input_of(job, 1)
    m = [e[0:3], e[3:6]]
    r = [row[0] * 1 + row[1] * 10 + row[2] * 100 for row in m]
    return {0: r + [6.0, 8.0, 10.0, 1.0]}


@shader("mul_vector_matrix", [buf(1, "f32", [1, 2, 3, 4, 5, 6]), out(6, "f32")])
def _(job):
    e = input_of(job, 1)
    r = matmul([[1, 10]], [e[0:3], e[3:6]])[0]
    q = matmul([[1, 2, 3]], [[2, 0, 0], [0, 3, 0], [1, 1, 1]])[0]
    return {0: [float(x) for x in r + q]}


@shader("mul_matrix_matrix", [out(9, "f32")])
def _(job):
    a = [[1, 2, 3], [4, 5, 6]]
    b = [[7, 8], [9, 10], [11, 12]]
    p = matmul(a, b)
    q = matmul(b, a)
    r = matmul(p, [[0, 1], [1, 0]])
    return {0: [float(x) for x in
                [p[0][0], p[0][1], p[1][0], p[1][1], q[0][0], q[1][2], q[2][1], r[0][0], r[1][1]]]}


@shader("mul_scalar_forms", [out(8, "f32")])
def _(job):
    return {0: [7.5, 9.0, 1.0, 6.0, -2.0, 32.0, -14.0, -21.0]}


@shader("short_circuit_2021", [out(7)])
def _(job):
    return {0: [0, 0, 1, 2, 2, 2, 0 + 2 + 4 + 0 + 16 * 7 + 256 * 8]}


@shader("short_circuit_2018", [out(6)])
def _(job):
    return {0: [1, 2, 3, 103, 203, 0 + 2 + 4 + 16 * 7 + 256 * 8]}


@shader("ternary_vector", [buf(1, "f32", [3, -1, 0, 5]), out(8, "f32")])
def _(job):
    a = input_of(job, 1)
    b = [10, 20, 30, 40]
    r = [a[i] if a[i] > 0 else b[i] for i in range(4)]
    return {0: r + [3.0, -1.0, -1.0, 14.0]}


@shader("if_else", [buf(1, "i32", [-5, 0, 4, 7, 10, 60, 51, 2]), out(8)], dispatch=(1, 1, 1))
def _(job):
    def f(x):
        if x < 0:
            r = -1
        elif x == 0:
            r = 100
        elif x < 10:
            r = 2 if x % 2 == 0 else 3
        else:
            r = 4
        return r + 1000 if x > 50 else r
    return {0: [f(x) for x in input_of(job, 1)]}


@shader("for_loop", [buf(1, "i32", [10, 0]), out(6)])
def _(job):
    n, _zero = input_of(job, 1)
    a, b = 0, 10
    while a < b:
        a, b = a + 2, b - 1
    return {0: [sum(range(n)), 120, sum(x * y for y in range(3) for x in range(4)), 7, 1024,
                a * 100 + b]}


@shader("while_loop", [buf(1, "u32", [1, 2, 3, 6, 7, 27]), out(6, "u32")])
def _(job):
    def steps(n):
        s = 0
        while n != 1:
            n = n // 2 if n % 2 == 0 else 3 * n + 1
            s += 1
        return s
    return {0: [steps(n) for n in input_of(job, 1)]}


@shader("do_while", [buf(1, "u32", [0, 7, 1234, 4294967295]), out(4, "u32")])
def _(job):
    def f(n):
        digits = total = 0
        while True:
            total += n % 10
            n //= 10
            digits += 1
            if n == 0:
                break
        return digits * 1000 + total * 10 + 1
    return {0: [f(n) for n in input_of(job, 1)]}


@shader("switch_fallthrough", [buf(1, "i32", [0, 1, 2, 3, 4, -5, 7, -1]), out(8)])
def _(job):
    def f(x):
        r = 0
        if x in (0, 1):
            r = (1 if x == 0 else 0) + 10
        elif x in (2, 3):
            r = 100 if x == 3 else 1100
        elif x == -5:
            r = 55
        else:
            r = -1
        return r * 2 if x == 7 else r
    return {0: [f(x) for x in input_of(job, 1)]}


@shader("break_continue", [out(4)])
def _(job):
    s = sum(i for i in range(1, 11) if i % 3 != 0)
    pairs = sum(1 for a in range(5) for b in range(a + 1) if b != 1)
    w = sum(range(2, 11, 2))
    return {0: [s, pairs, w, 5]}


@shader("continue_in_switch", [out(1)])
def _(job):
    sw = 0
    for k in range(6):
        if k % 3 == 1:
            continue
        sw += 1 if k % 3 == 0 else 10
        sw += 100
    return {0: [sw]}


@shader("matrix_size_one", [out(5, "f32")])
def _(job):
    return {0: [8.0, 7.0, 6.0, 5.0, 5.0]}


@shader("early_return", [buf(1, "i32", [1, 2, 3, 4, 6, 8, 0, -3]), buf(0, "i32", [-100] * 8)])
def _(job):
    data = input_of(job, 1)

    def find(v):
        return data.index(v) if v in data else -1

    def classify(v):
        return -1 if v < 0 else (0 if v == 0 else 1)
    return {0: [find(data[i] * 2) * 10 + classify(data[i]) for i in range(6)] + [-100, -100]}


@shader("loop_attributes", [buf(1, "i32", [1, 2, 3, 4, 5]), out(5)])
def _(job):
    e = input_of(job, 1)
    c = 1
    while c < 1000:
        c *= 3
    return {0: [sum(e[:4]), sum(j * j for j in range(e[4])), c, 15, -2]}


@shader("branch_flatten", [buf(1, "i32", [0, 1, 2, 3]), out(4)])
def _(job):
    def f(x):
        r = 1 if x > 2 else 2
        if x == 1:
            r += 10
        r += 100 if x == 0 else 200
        if x == 3:
            r += 1000
        return r
    return {0: [f(x) for x in input_of(job, 1)]}


@shader("func_inout", [out(9)])
def _(job):
    return {0: [4, 41, 12, 34, 84, 8, -3, 21, 9]}


@shader("func_overloads", [out(9, "f32")])
def _(job):
    return {0: [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 1.0, 3.0, 1.5]}


@shader("func_calls_chain", [buf(1, "i32", [4, -2, 9, 0, 3]), out(6)])
def _(job):
    d = input_of(job, 1)

    def sq(x):
        return x * x

    def later(x):
        return sq(x) - 1
    return {0: [sq(3) + sq(4), later(3 - 4), min(d), max(d), sum(d),
                sum(d[:2]) + sq(1) + sq(later(2))]}


@shader("structs", [buf(1, ["f32", "f32", "i32", "i32"], [1.5, 2.5, 7, 0, 3.0, 4.0, 11, 0]),
                    out(6, "f32")])
def _(job):
    return {0: [1.5, 100.0, 8.0, 27.0, 3.75, 6.0]}


@shader("arrays_local", [buf(1, "i32", [2, 3]), out(8)])
def _(job):
    k, j = input_of(job, 1)
    a = [10, 20, 30, 40]
    b = list(a)
    b[k] = 0
    grid = [[1, 2, 3], [4, 5, 6]]
    pts = [(1, 2), (3, 4), (5, 6)]
    out0 = [a[k], b[k], sum(a), sum(b), grid[1][k], pts[k][1], j * j]
    grid[k - 1][0] = 100
    return {0: out0 + [grid[0][0] + grid[1][0]]}


@shader("typedefs", [out(4, "f32")])
def _(job):
    return {0: [4.5, 4.0, -3.0, 2.0]}


@shader("static_globals", [buf(1, "i32", [0, 1, 2, 3]), out(4)])
def _(job):
    table = [2, 3, 5, 7, 11]
    return {0: [(5 + v + 1) * 100 + table[i + 1] + 3 for i, v in enumerate(input_of(job, 1))]}


@shader("groupshared_reduction", [buf(1, "u32", [i * 3 + 1 for i in range(128)]), out(2, "u32")],
        dispatch=(2, 1, 1))
def _(job):
    d = input_of(job, 1)
    return {0: [sum(d[:64]), sum(d[64:])]}


@shader("groupshared_transpose", [buf(1, "f32", [i * 0.5 for i in range(64)]), out(64, "f32")])
def _(job):
    d = input_of(job, 1)
    return {0: [d[(i % 8) * 8 + i // 8] for i in range(64)]}


@shader("cbuffer_basic", [buf(2, ["f32"] * 5 + ["i32"] + ["f32"] * 5 + ["u32"],
                              [0.5, 2.0, 3.0, 4.5, 1.5, -3, 0.25, 0.5, 1.0, 2.0, 3.0, 0x1234],
                              kind="uniform"), out(6, "f32")])
def _(job):
    return {0: [3.0, -3.0, 0.75, 6.0, 4.0, 4.5]}


@shader("cbuffer_packing", [buf(1, "f32", [1, 2, 3, 4, 5, 6, 7, 0], kind="uniform"),
                            out(5, "f32")])
def _(job):
    return {0: [1.0, 2.0, 4.0, 6.0, 7.0]}


@shader("constant_buffer_template",
        [buf(0, ["f32"] * 8 + ["i32"] * 4, [3, 5, 1, 2, 0.25, 0.5, 0.75, 1.0, 1, 0, 0, 0], set=1,
             kind="uniform"), out(4, "f32")])
def _(job):
    return {0: [20.0, 4.0, 0.25, 1.0]}


def particles():
    data = []
    for i in range(4):
        data += [float(i), 2.0 * i, 3.0 * i, 1.0 + i, 2.0 * (i + 1), 4.0 * (i + 1), -2.0 * (i + 1),
                 7 + i]
    return data


@shader("rw_structured_struct", [buf(0, ["f32"] * 7 + ["u32"], particles())])
def _(job):
    d = input_of(job, 0)
    out_ = []
    for i in range(4):
        p = d[i * 8:(i + 1) * 8]
        pos = [f32(p[k] + p[4 + k] * 0.5) for k in range(3)]
        out_ += pos + [p[3] * 2.0, p[4], -p[5], p[6], p[7] * 10 + i]
    return {0: out_}


@shader("byte_address", [buf(1, "u32", [10, 20, 30, 40, 50, fbits(1.25), 70, 80]),
                         out(16, "u32")])
def _(job):
    i = input_of(job, 1)
    o = [0] * 16
    o[0] = i[1]
    o[2:4] = i[0:2]
    o[4:7] = i[2:5]
    o[8:12] = [u32(x + 1) for x in i[4:8]]
    o[12] = fbits(bitsf(i[5]) * 2.0)
    o[13] = u32(i[3] + o[0])
    o[14:16] = [o[3], o[2]]
    return {0: o}


@shader("rw_structured_in_out", [buf(0, "i32", [i * 3 - 5 for i in range(16)]), out(16, binding=1)],
        dispatch=(2, 1, 1))
def _(job):
    d = input_of(job, 0)
    return {0: [v * 2 + i for i, v in enumerate(d)], 1: list(reversed(d))}


@shader("vk_binding_sets", [out(2, set=1, binding=3), buf(0, "i32", [5, 6], set=2),
                            buf(1, "i32", [7, 8])])
def _(job):
    b, c = input_of(job, 0, set=2), input_of(job, 1)
    return {(1, 3): [b[0] + c[0], b[1] * c[1]]}


@shader("register_spaces", [out(2, "u32", binding=1, set=2), buf(4, "u32", [100, 200]),
                            buf(3, "u32", [1, 2, 3, 4], set=1, kind="uniform")])
def _(job):
    return {(2, 1): [101, 204]}


@shader("push_constants", [buf(0, "f32", [-1.0] * 8)],
        push=(["f32", "u32", "f32", "f32"], [0.5, 5, 3.0, 1.0]))
def _(job):
    return {0: [i * 0.5 + 3.0 - 1.0 if i < 5 else -1.0 for i in range(8)]}


@shader("spec_constants", [out(3, "f32")], spec={0: 3, 1: 0.25, 2: True})
def _(job):
    return {0: [-0.75, 3.0, 100.0]}


@shader("implicit_binding_single", [out(4, "u32")])
def _(job):
    return {0: [i * i + 1 for i in range(4)]}


@shader("implicit_bindings_multi", [buf(0, "i32", [10]), out(1, binding=1), out(1, binding=2),
                                    out(1, binding=3)])
def _(job):
    return {1: [12], 2: [11], 3: [13]}


@shader("system_values", [out(192, "u32")], dispatch=(2, 3, 1))
def _(job):
    o = [0] * 192
    for gy in range(3):
        for gx in range(2):
            for ty in range(2):
                for tx in range(4):
                    x, y = gx * 4 + tx, gy * 2 + ty
                    lin = y * 8 + x
                    o[lin * 4:lin * 4 + 4] = [gx + gy * 10, tx + ty * 10, ty * 4 + tx, x + y * 100]
    return {0: o}


@shader("numthreads_3d", [out(16, "u32")], dispatch=(1, 1, 2))
def _(job):
    o = [0] * 16
    for gz in range(2):
        for z in range(2):
            for y in range(2):
                for x in range(2):
                    o[z * 4 + y * 2 + x + 8 * gz] = x + y * 10 + (gz * 2 + z) * 100
    return {0: o}


@shader("target_vulkan12", [buf(1, "f32", [1.5, -2.0, 3.0, 0.5]), out(4, "f32"),
                            out(4, "u32", binding=2)])
def _(job):
    d = input_of(job, 1)
    return {0: [f32(x * x) for x in d], 2: [fbits(x) ^ 0x80000000 for x in d]}


@shader("target_vulkan11", [out(2), buf(1, "i32", [3, 5, 7, 11], kind="uniform")])
def _(job):
    return {0: [26, 33]}


@shader("row_column_major", [buf(1, "f32", [1, 2, 3, 0, 4, 5, 6, 0, 7, 10, 8, 11, 9, 12, 0, 0]),
                             out(13, "f32")])
def _(job):
    return {0: [float(x) for x in range(1, 13)] + [33.0]}


def cbuffer_matrix_data():
    model = [[r * 4 + c + 1 for c in range(4)] for r in range(4)]
    view = [[10 * r + c for c in range(4)] for r in range(4)]
    words = [model[r][c] for c in range(4) for r in range(4)]   # column_major: columns
    words += [view[r][c] for r in range(4) for c in range(4)]   # row_major: rows
    return model, view, words


@shader("cbuffer_matrix", [buf(1, "f32", cbuffer_matrix_data()[2], kind="uniform"),
                           out(5, "f32")])
def _(job):
    model, view, _ = cbuffer_matrix_data()
    mv = matmul(view, model)
    return {0: [float(x) for x in [model[1][2], view[1][2], model[1][0], view[1][2], mv[0][0]]]}


@shader("dot_intrinsic", [buf(1, "f32", [1, 2, 3]), out(6, "f32")])
def _(job):
    return {0: [32.0, 1.0, 16.0, -24.0, 38.0, 4.0]}


@shader("geometric", [out(11, "f32")],
        compare={"abs": 1e-6, "rel": 1e-6, "why": "normalize/length/distance: Vulkan bounds "
                 "sqrt and inversesqrt only to a few ulps"})
def _(job):
    return {0: [1.0, -3.0, 6.0, -3.0, 5.0, f32(0.6), f32(0.8), 7.0, 1.0, 1.0, 2.5]}


@shader("lerp_saturate_clamp", [buf(1, "f32", [2.0, 6.0]), out(11, "f32")],
        compare={"ulps": 1, "why": "lerp may be computed as x + (y - x) * a or contracted"})
def _(job):
    return {0: [3.0, 2.0, 17.5, 0.0, 1.0, 0.25, 5.0, 2.0, -3.0, 852.0, 1.5]}


@shader("min_max", [buf(1, "i32", [-5, 3]), out(8)])
def _(job):
    a, b = input_of(job, 1)
    return {0: [min(a, b), max(a, b), min(u32(a), u32(b)), i32(max(u32(a), u32(b))), -5, 3,
                max(a, 0) + max(b, 0) * 100, 12]}


@shader("abs_sign", [buf(1, "f32", [-3.5, 0.0]), out(9, "f32")])
def _(job):
    return {0: [3.5, 0.0, 7.0, -1.0, 0.0, 1.0, -1.0, -99.0, 4.0]}


@shader("rounding", [buf(1, "f32", [2.75, -2.25, 0.0]), out(13, "f32")])
def _(job):
    a, b, z = input_of(job, 1)
    return {0: [math.floor(a), math.floor(b), math.ceil(a), math.ceil(b), a - math.floor(a),
                b - math.floor(b), round_even(2.5 + z), round_even(3.5 + z), round_even(-2.5 + z),
                round_even(b), float(math.trunc(a)), float(math.trunc(b)),
                float(math.floor(a) + math.floor(b) + math.floor(-a) + math.floor(-b))]}


@shader("exp_log_pow", [buf(1, "f32", [2.0, 0.0]), out(9, "f32")],
        compare={"rel": 1e-5, "why": "Vulkan bounds transcendental precision only"})
def _(job):
    x, z = input_of(job, 1)
    return {0: [f32(v) for v in [math.sqrt(x), 1 / math.sqrt(x), x ** 1.5, math.exp(1 + z),
                                 2 ** x, math.log(x), math.log2(x), 7.0, 1024.0]]}


@shader("trig", [buf(1, "f32", [0.5, 0.0]), out(9, "f32")],
        compare={"abs": 1e-3, "why": "Vulkan allows 2^-11 absolute error for sin/cos"})
def _(job):
    x, z = input_of(job, 1)
    return {0: [f32(v) for v in [math.sin(x), math.cos(x), math.tan(x), math.asin(0.5),
                                 math.acos(0.5), math.atan(1.0), math.atan2(1.0, -1.0),
                                 math.atan2(-2.0, 0.0), math.sin(x)]]}


@shader("step_smoothstep_mad", [buf(1, "f32", [0.5, 0.0]), out(10, "f32")],
        compare={"ulps": 2, "why": "smoothstep's polynomial and mad may be contracted"})
def _(job):
    e, z = input_of(job, 1)

    def smooth(a, b, x):
        t = min(max((x - a) / (b - a), 0.0), 1.0)
        return t * t * (3 - 2 * t)
    return {0: [1.0, 0.0, 1.0, smooth(0, 1, 0.5), smooth(0, 2, e), smooth(1, 2, 0.5),
                smooth(1, 2, 3.0), 6.0 + e, -7.0, 6.5]}


@shader("all_any", [buf(1, "i32", [1, 0, 2]), out(7, "u32")])
def _(job):
    return {0: [0, 1, 1, 0, 1, 1, 0]}


@shader("intrinsics_glslang_rejects", [buf(1, "i32", [1, 0, 7]), out(7)])
def _(job):
    one, zero, seven = input_of(job, 1)
    return {0: [int(zero != 0), int(one != 0), 1, 1, 3 * -4 + 5, one * seven - 1,
                (1 * 3 + 5) * 100 + (2 * 4 + 6)]}


@shader("bitcasts", [buf(1, "u32", [fbits(1.5), 0xFFFFFFFE, fbits(0.25)]), out(8, "u32")])
def _(job):
    return {0: [fbits(3.0), fbits(-1.0), 0xFFFFFFFE, 0xFFFFFFFF, fbits(1.75), fbits(1.0),
                0x80000000, 0x7F800000]}


def reverse32(x):
    return int(format(x, "032b")[::-1], 2)


def msb(x):
    return x.bit_length() - 1 if x else 0xFFFFFFFF


def smsb(x):
    """FindSMsb: for negative values the highest 0 bit."""
    if x < 0:
        x = ~x
    return msb(x) if x else 0xFFFFFFFF


def lsb(x):
    return (x & -x).bit_length() - 1 if x else 0xFFFFFFFF


@shader("bit_intrinsics", [buf(1, "u32", [0x00F01000, 0]), out(11, "u32")])
def _(job):
    a, z = input_of(job, 1)
    return {0: [bin(a).count("1"), 0, reverse32(a), msb(a), msb(z), lsb(a), lsb(z),
                smsb(-8), smsb(-1), smsb(1000), 32 * 100 + 2]}


@shader("interlocked_buffer",
        [buf(0, "i32", [10, 3, -10, 1, 4, 1] + [0] * 10),
         buf(1, "u32", [0xFF, 0x1, 0xF0F0, 5, 5] + [0] * 11)])
def _(job):
    i = input_of(job, 0)
    u = input_of(job, 1)
    i2, u2 = list(i), list(u)
    i2[0], i2[8] = i[0] + 5, i[0]
    i2[1], i2[9] = min(i[1], -4), i[1]
    i2[2] = max(i[2], -4)
    i2[3], i2[10] = 77, i[3]
    i2[4], i2[11] = (40 if i[4] == 4 else i[4]), i[4]
    i2[5], i2[12] = (50 if i[5] == 0 else i[5]), i[5]
    u2[0], u2[8] = u[0] & 0x0F, u[0]
    u2[1] = u[1] | 0x100
    u2[2], u2[9] = u[2] ^ 0xFF, u[2]
    u2[3] = min(u[3], 0xFFFFFFFF)
    u2[4] = max(u[4], 0xFFFFFFFF)
    return {0: i2, 1: u2}


@shader("interlocked_groupshared", [out(3, "u32")])
def _(job):
    bits = 0
    for t in range(64):
        bits |= 1 << (t % 32)
    return {0: [sum(t + 1 for t in range(64)), max((t * 37) % 64 for t in range(64)), bits]}


@shader("barriers", [out(16, "u32"), out(16, "u32", binding=1)])
def _(job):
    return {0: [((t + 15) % 16) ** 2 + ((t + 1) % 16) ** 2 for t in range(16)],
            1: [t + 100 for t in range(16)]}


@shader("preprocessor_macros", [out(8)])
def _(job):
    return {0: [4, 10, 1 + 4 + 4, 12, 30, 30, 7, 9]}


@shader("preprocessor_include", [out(7, "u32")])
def _(job):
    return {0: [49, (3 << 16) | 4, 0xC0FFEE, (2 * 31) ^ 5, 5, 8, 8]}


@shader("preprocessor_defines", [out(2)])
def _(job):
    return {0: [115, 1]}


@shader("preprocessor_pragma_once", [out(7, "u32")])
def _(job):
    return {0: [49, (3 << 16) | 4, 0xC0FFEE, (2 * 31) ^ 5, 5, 8, 8]}
@shader("more_types", [out(9, "f32")])
def _(job):
    return {0: [7.0, 4.0, 3.0, 1.0, 0.0, 3.0, 3.0, 1.25, -6.0]}


@shader("interlocked_byte_address", [buf(0, "u32", [0, 0, 1000, 0, 0])])
def _(job):
    xor = 0
    for t in range(32):
        xor ^= 1 << (t % 4)
    return {0: [sum(range(32)), 31 * 3, 100 - 31, 0xFFFFFFFF, xor]}


@shader("min_precision_matrix", [out(3, "f32")])
def _(job):
    return {0: [3.0, 6.0, 5.0]}


@shader("push_constant_buffer", [out(4, "f32")],
        push=(["i32", "f32", "u32", "u32", "u32", "u32", "u32", "u32"],
              [-3, 0.5, 0, 0, 0x105, 0x2FF, 7, 0xF00]))
def _(job):
    base, factor = -3, 0.5
    mask = [0x105, 0x2FF, 7, 0xF00]
    return {0: [(base + (m & 0xFF)) * factor for m in mask]}


@shader("casts_sizeof", [buf(1, "f32", [1.0, 2.0, 3.0, 4.0, 1.0, 2.75]), out(21, "f32")])
def _(job):
    v = input_of(job, 1)[:4]
    big_hi, fs = input_of(job, 1)[4], input_of(job, 1)[5]
    # sizeof: Pair {float; float3} 16, Wide {uint64_t; int} 12 rounded to 8 -> 16,
    # float3[2] 24, float4 16, a 3-float local array 12, {int; float} 8.
    pair = (v[0], v[1:4])                                   # (Pair)v
    arr = [pair[0]] + list(pair[1])                         # (float[4])p
    m = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
    col = [m[0][0], m[1][0], m[2][0]]                       # (float3x1)m: first column
    row = m[0][:3]                                          # (float1x3)m: first row
    flat = list(reversed(v))                                # float2x2(v.wzyx) as float4
    big = int(big_hi) * 4294967296 + 5
    r = 2 if big == 4294967301 else (1 if big == 5 else 3)  # a truncated selector would give 1
    r2 = 20 if int(fs) == 2 else 30                         # float selector as int
    q = [v[0] * 1, v[1] * 1, v[2] * 2, v[3] * 2]            # v * float2x2(1,1,2,2), per element
    mm = [[1 * v[0], 1 * v[1]], [2 * v[2], 2 * v[3]]]       # float2x2(1,1,2,2) * v as a matrix
    t = 1 + 10 + 10                                         # bumpTwice
    return {0: [16.0, 16.0, 24.0, 16.0,
                pair[0] * 1000 + pair[1][0] * 100 + pair[1][1] * 10 + pair[1][2],
                arr[3] - arr[0], v[1],
                float(col[0] * 100 + col[1] * 10 + col[2]),
                float(row[0] * 100 + row[1] * 10 + row[2]),
                flat[0] * 1000 + flat[1] * 100 + flat[2] * 10 + flat[3],
                12.0, float(r), float(r2), q[2] + q[3], mm[1][0] * 10 + mm[1][1],
                7 + 0.5, 8.0, 42.0, 6.5, float(t), 2.0]}


def _words_f32(*xs):
    return [fbits(f32(x)) for x in xs]


def _words_f64(x):
    lo, hi = struct.unpack("<II", struct.pack("<d", x))
    return [lo, hi]


def _words_i64(x):
    return list(struct.unpack("<II", struct.pack("<q", x)))


@shader("raw_buffer_templated",
        [buf(1, "u32", _words_f32(1.5, 2.5, -3.0) + [0] + _words_f32(10.0, 20.0, 30.0)
             + [(6 << 16) | 5] + _words_f64(0.25) + _words_f32(1.0, 2.0, 3.0, 4.0)
             + _words_i64(-5)),
         out(10, "u32")])
def _(job):
    w = input_of(job, 1)
    v = [bitsf(x) for x in w[0:3]]
    a, b = w[7] & 0xFFFF, w[7] >> 16                          # Item.a, Item.b: halves of word 7
    d = struct.unpack("<d", struct.pack("<II", w[8], w[9]))[0]  # Item.d at byte 32 (offset 16)
    m = [bitsf(x) for x in w[10:14]]                          # float2x2, column-major
    m01 = m[2]
    big = struct.unpack("<q", struct.pack("<II", w[14], w[15]))[0]
    out_words = _words_f32(*(2 * x for x in v)) + [a + b * 1000] + _words_f32(d)
    out_words += [(9 << 16) | 7] + _words_f32(m01) + _words_i64(big + 1) + _words_f32(v[0] * 4)
    return {0: out_words}


@shader("struct_methods", [out(5, "i32")])
def _(job):
    n = 1
    nxt = n + 1
    after = nxt + nxt
    n += 5
    named_n, named_id = 4, 7
    return {0: [nxt, after, n, 3 * n, named_id * 100 + named_n + 1]}


@shader("resource_struct_methods",
        [buf(0, "i32", [3, -4, 5, 7]), buf(1, "i32", [20, 30, -40, 50]), out(12, binding=2)],
        dispatch=(1, 1, 1))
def _(job):
    small, large = input_of(job, 0), input_of(job, 1)
    scaled = [(small[i] + 10) * 3 for i in range(4)]
    pair = [(large[i] + 100) + small[i] for i in range(4)]
    swapped = [(large[i] - 1) * 1000 + small[i] for i in range(4)]
    return {2: scaled + pair + swapped}


@shader("templates", [out(6, "f32")])
def _(job):
    twice_int = sdiv(3 * 2, 4)                 # twice<int>(3) / 4 in int
    twice_float = f32(1.25 * 2)
    stack_float = f32(1.5 + 2.0)
    stack_int = sdiv(4 + 5, 2)
    return {0: [float(twice_int), twice_float, float(7 * 5), stack_float, float(stack_int),
                f32(0.5 + 0.25)]}


if __name__ == "__main__":
    main()
