//! Hand-written lowerings executed: composites, matrices, wide arithmetic, float classes,
//! GLSL.std.450 and OpenCL.std math that is not one LLVM instruction, and subgroup operations
//! under the one-invocation model; each from a small module, JIT-compiled, against Rust.
#![cfg(feature = "llvm")]

#[path = "lower/harness.rs"]
mod harness;

use harness::{call, close, inputs, jit, module_body, words, Flavour, V};
use inkwell::context::Context;

type Ref = fn(&[V], usize) -> Option<V>;

extern "C" {
    fn lgammaf_r(x: f32, sign: *mut i32) -> f32;
    fn remquof(x: f32, y: f32, quo: *mut i32) -> f32;
}

/// One case: flavour, argument kinds, result kind, body (defining `%r`; `{i}` is replaced by
/// the component index), how many components to check, the reference and ulps.
struct Case {
    name: &'static str,
    flavour: Flavour,
    kinds: &'static str,
    ret: char,
    body: &'static str,
    comps: usize,
    reference: Ref,
    ulps: u32,
}

const S: Flavour = Flavour::Shader;
const K: Flavour = Flavour::Kernel;

fn f(x: f32) -> Option<V> {
    Some(V::F(x))
}
fn u(x: u32) -> Option<V> {
    Some(V::U(x))
}
fn fin(a: &[V]) -> bool {
    a.iter().all(|v| match v {
        V::F(x) => x.is_finite() && x.abs() < 1e6,
        _ => true,
    })
}

macro_rules! case {
    ($name:expr, $fl:expr, $k:expr, $r:expr, $body:expr, $n:expr, $ulps:expr, $f:expr) => {
        Case {
            name: $name,
            flavour: $fl,
            kinds: $k,
            ret: $r,
            body: $body,
            comps: $n,
            reference: $f,
            ulps: $ulps,
        }
    };
}

fn cases() -> Vec<Case> {
    vec![
        // Composites.
        case!("VectorShuffle (undef lane)", S, "ff", 'f',
            "%v = OpCompositeConstruct %v2float %a0 %a1\n%w = OpCompositeConstruct %v3float %f1 %f2 %fh\n%s = OpVectorShuffle %v4float %v %w 4 0xFFFFFFFF 1 2\n%r = OpCompositeExtract %float %s {i}\n",
            4, 0, |a, i| match i { 0 => f(0.5), 1 => None, 2 => f(a[1].f()), _ => f(1.0) }),
        case!("VectorExtractDynamic/InsertDynamic", S, "fu", 'f',
            "%v = OpCompositeConstruct %v4float %a0 %f1 %f2 %fh\n%w = OpVectorInsertDynamic %v4float %v %fm1 %a1\n%r = OpVectorExtractDynamic %float %w %u{i}\n",
            4, 0, |a, i| {
                let idx = a[1].u() as usize;
                if idx > 3 { return None; }
                let mut v = [a[0].f(), 1.0, 2.0, 0.5];
                v[idx] = -1.0;
                f(v[i])
            }),
        case!("CompositeInsert into a struct", S, "uu", 'u',
            "%s0 = OpCompositeConstruct %su %a0 %a0\n%s1 = OpCompositeInsert %su %a1 %s0 1\n%r = OpCompositeExtract %uint %s1 {i}\n",
            2, 0, |a, i| u(if i == 0 { a[0].u() } else { a[1].u() })),
        // Matrices.
        case!("Dot", S, "fff", 'f',
            "%x = OpCompositeConstruct %v3float %a0 %a1 %a2\n%y = OpCompositeConstruct %v3float %f2 %fm1 %fh\n%r = OpDot %float %x %y\n",
            1, 0, |a, _| f(a[0].f() * 2.0 - a[1].f() + a[2].f() * 0.5)),
        case!("MatrixTimesMatrix and Transpose", S, "fff", 'f',
            "%c0 = OpCompositeConstruct %v2float %a0 %a1\n%c1 = OpCompositeConstruct %v2float %a2 %f2\n%m = OpCompositeConstruct %mat2 %c0 %c1\n%t = OpTranspose %mat2 %m\n%p = OpMatrixTimesMatrix %mat2 %m %t\n%col = OpCompositeExtract %v2float %p {i}\n%r = OpCompositeExtract %float %col 1\n",
            2, 0, |a, i| {
                // m = [[a0 a2] [a1 2]] (rows); m * m^T, element (1, i).
                let m = [[a[0].f(), a[2].f()], [a[1].f(), 2.0]];
                f(m[1][0] * m[i][0] + m[1][1] * m[i][1])
            }),
        case!("VectorTimesMatrix, MatrixTimesVector, OuterProduct", S, "ff", 'f',
            "%v = OpCompositeConstruct %v2float %a0 %a1\n%w = OpCompositeConstruct %v3float %f1 %f2 %fm1\n%o = OpOuterProduct %mat2x3 %w %v\n%vm = OpVectorTimesMatrix %v2float %w %o\n%mv = OpMatrixTimesVector %v3float %o %v\n%x = OpCompositeExtract %float %vm {i}\n%y = OpCompositeExtract %float %mv {i}\n%r = OpFAdd %float %x %y\n",
            2, 4, |a, i| {
                let v = [a[0].f(), a[1].f()];
                let w = [1.0f32, 2.0, -1.0];
                // o column j = w * v[j]; vm[j] = dot(w, o_j) = 6 v[j]; mv = w * dot(v, v).
                let vv = v[0] * v[0] + v[1] * v[1];
                Some(V::F(6.0 * v[i] + w[i] * vv)).filter(|_| fin(a))
            }),
        case!("MatrixTimesScalar, VectorTimesScalar", S, "ff", 'f',
            "%c = OpCompositeConstruct %v2float %a0 %f2\n%m = OpCompositeConstruct %mat2 %c %c\n%s = OpMatrixTimesScalar %mat2 %m %a1\n%col = OpCompositeExtract %v2float %s 1\n%t = OpVectorTimesScalar %v2float %col %a1\n%r = OpCompositeExtract %float %t {i}\n",
            2, 0, |a, i| f([a[0].f(), 2.0][i] * a[1].f() * a[1].f())),
        // Wide arithmetic and float classes.
        case!("IAddCarry", S, "uu", 'u', "%s = OpIAddCarry %su %a0 %a1\n%r = OpCompositeExtract %uint %s {i}\n",
            2, 0, |a, i| { let (s, c) = a[0].u().overflowing_add(a[1].u()); u(if i == 0 { s } else { c as u32 }) }),
        case!("ISubBorrow", S, "uu", 'u', "%s = OpISubBorrow %su %a0 %a1\n%r = OpCompositeExtract %uint %s {i}\n",
            2, 0, |a, i| { let (s, c) = a[0].u().overflowing_sub(a[1].u()); u(if i == 0 { s } else { c as u32 }) }),
        case!("UMulExtended", S, "uu", 'u', "%s = OpUMulExtended %su %a0 %a1\n%r = OpCompositeExtract %uint %s {i}\n",
            2, 0, |a, i| { let p = u64::from(a[0].u()) * u64::from(a[1].u()); u(if i == 0 { p as u32 } else { (p >> 32) as u32 }) }),
        case!("SMulExtended", S, "ii", 'i', "%s = OpSMulExtended %si %a0 %a1\n%r = OpCompositeExtract %int %s {i}\n",
            2, 0, |a, i| { let p = i64::from(a[0].i()) * i64::from(a[1].i()); u(if i == 0 { p as u32 } else { (p >> 32) as u32 }) }),
        case!("IsInf", S, "f", 'b', "%r = OpIsInf %bool %a0\n", 1, 0, |a, _| u(a[0].f().is_infinite() as u32)),
        case!("IsFinite", K, "f", 'b', "%r = OpIsFinite %bool %a0\n", 1, 0, |a, _| u(a[0].f().is_finite() as u32)),
        case!("IsNormal", K, "f", 'b', "%r = OpIsNormal %bool %a0\n", 1, 0, |a, _| u(a[0].f().is_normal() as u32)),
        case!("SignBitSet", K, "f", 'b', "%r = OpSignBitSet %bool %a0\n", 1, 0, |a, _| u(a[0].f().is_sign_negative() as u32)),
        case!("LessOrGreater", K, "ff", 'b', "%r = OpLessOrGreater %bool %a0 %a1\n", 1, 0, |a, _| u((a[0].f() < a[1].f() || a[0].f() > a[1].f()) as u32)),
        case!("QuantizeToF16", S, "f", 'f', "%r = OpQuantizeToF16 %float %a0\n", 1, 0,
            |a, _| Some(a[0].f()).filter(|x| x.abs() < 6e4 || !x.is_finite()).map(|x| V::F(round_f16(x)))),
        // GLSL.std.450 by hand.
        case!("FSign", S, "f", 'f', "%r = OpExtInst %float %ext FSign %a0\n", 1, 0,
            |a, _| { let x = a[0].f(); Some(V::F(if x > 0.0 { 1.0 } else if x < 0.0 { -1.0 } else { 0.0 })).filter(|_| !x.is_nan()) }),
        case!("SSign", S, "i", 'i', "%r = OpExtInst %int %ext SSign %a0\n", 1, 0, |a, _| u(a[0].i().signum() as u32)),
        case!("Fract", S, "f", 'f', "%r = OpExtInst %float %ext Fract %a0\n", 1, 0, |a, _| Some(V::F(a[0].f() - a[0].f().floor())).filter(|_| a[0].f().is_finite())),
        case!("Radians", S, "f", 'f', "%r = OpExtInst %float %ext Radians %a0\n", 1, 2, |a, _| f(a[0].f() * (std::f32::consts::PI / 180.0))),
        case!("Degrees", S, "f", 'f', "%r = OpExtInst %float %ext Degrees %a0\n", 1, 2, |a, _| f(a[0].f() * (180.0 / std::f32::consts::PI))),
        case!("InverseSqrt", S, "f", 'f', "%r = OpExtInst %float %ext InverseSqrt %a0\n", 1, 1, |a, _| f(1.0 / a[0].f().sqrt())),
        case!("FClamp", S, "fff", 'f', "%r = OpExtInst %float %ext FClamp %a0 %a1 %a2\n", 1, 0,
            |a, _| Some(V::F(a[0].f().max(a[1].f()).min(a[2].f()))).filter(|_| a[1].f() <= a[2].f())),
        case!("UClamp", S, "uuu", 'u', "%r = OpExtInst %uint %ext UClamp %a0 %a1 %a2\n", 1, 0,
            |a, _| Some(V::U(a[0].u().max(a[1].u()).min(a[2].u()))).filter(|_| a[1].u() <= a[2].u())),
        case!("SClamp", S, "iii", 'i', "%r = OpExtInst %int %ext SClamp %a0 %a1 %a2\n", 1, 0,
            |a, _| Some(V::U(a[0].i().max(a[1].i()).min(a[2].i()) as u32)).filter(|_| a[1].i() <= a[2].i())),
        case!("FMix", S, "fff", 'f', "%r = OpExtInst %float %ext FMix %a0 %a1 %a2\n", 1, 2,
            |a, _| Some(V::F(a[0].f() + (a[1].f() - a[0].f()) * a[2].f())).filter(|_| fin(a))),
        case!("Step", S, "ff", 'f', "%r = OpExtInst %float %ext Step %a0 %a1\n", 1, 0,
            |a, _| Some(V::F(if a[1].f() < a[0].f() { 0.0 } else { 1.0 })).filter(|_| !a[0].f().is_nan() && !a[1].f().is_nan())),
        case!("SmoothStep", S, "f", 'f', "%r = OpExtInst %float %ext SmoothStep %fm1 %f2 %a0\n", 1, 4,
            |a, _| { let t = ((a[0].f() + 1.0) / 3.0).clamp(0.0, 1.0); Some(V::F(t * t * (3.0 - 2.0 * t))).filter(|_| !a[0].f().is_nan()) }),
        case!("FindILsb", S, "u", 'i', "%r = OpExtInst %int %ext FindILsb %a0\n", 1, 0,
            |a, _| u(if a[0].u() == 0 { u32::MAX } else { a[0].u().trailing_zeros() })),
        case!("FindUMsb", S, "u", 'i', "%r = OpExtInst %int %ext FindUMsb %a0\n", 1, 0,
            |a, _| u(if a[0].u() == 0 { u32::MAX } else { 31 - a[0].u().leading_zeros() })),
        case!("FindSMsb", S, "i", 'i', "%r = OpExtInst %int %ext FindSMsb %a0\n", 1, 0,
            |a, _| { let x = a[0].i(); let y = if x < 0 { !x } else { x } as u32; u(if y == 0 { u32::MAX } else { 31 - y.leading_zeros() }) }),
        case!("Length, Distance", S, "ff", 'f',
            "%v = OpCompositeConstruct %v2float %a0 %a1\n%w = OpCompositeConstruct %v2float %f1 %f2\n%l = OpExtInst %float %ext Length %v\n%d = OpExtInst %float %ext Distance %v %w\n%r = OpFAdd %float %l %d\n",
            1, 2, |a, _| { let (x, y) = (a[0].f(), a[1].f()); Some(V::F((x * x + y * y).sqrt() + ((x - 1.0).powi(2) + (y - 2.0).powi(2)).sqrt())).filter(|_| fin(a)) }),
        case!("Normalize", S, "ff", 'f',
            "%v = OpCompositeConstruct %v2float %a0 %a1\n%n = OpExtInst %v2float %ext Normalize %v\n%r = OpCompositeExtract %float %n {i}\n",
            2, 2, |a, i| { let (x, y) = (a[0].f(), a[1].f()); let l = (x * x + y * y).sqrt(); Some(V::F([x, y][i] / l)).filter(|_| fin(a) && l > 0.0) }),
        case!("Cross", S, "fff", 'f',
            "%x = OpCompositeConstruct %v3float %a0 %a1 %a2\n%y = OpCompositeConstruct %v3float %f1 %fm1 %f2\n%c = OpExtInst %v3float %ext Cross %x %y\n%r = OpCompositeExtract %float %c {i}\n",
            3, 0, |a, i| { let (x, y) = ([a[0].f(), a[1].f(), a[2].f()], [1.0f32, -1.0, 2.0]);
                let c = [x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]];
                Some(V::F(c[i])).filter(|_| fin(a)) }),
        case!("Reflect", S, "ff", 'f',
            "%v = OpCompositeConstruct %v2float %a0 %a1\n%n = OpCompositeConstruct %v2float %f0 %f1\n%x = OpExtInst %v2float %ext Reflect %v %n\n%r = OpCompositeExtract %float %x {i}\n",
            2, 0, |a, i| Some(V::F([a[0].f(), -a[1].f()][i])).filter(|_| fin(a))),
        case!("Refract", S, "fff", 'f',
            "%v = OpCompositeConstruct %v2float %a0 %a1\n%n = OpCompositeConstruct %v2float %f0 %f1\n%x = OpExtInst %v2float %ext Refract %v %n %a2\n%r = OpCompositeExtract %float %x {i}\n",
            2, 4, |a, i| { let (iv, eta) = ([a[0].f(), a[1].f()], a[2].f()); let d = iv[1];
                let k = 1.0 - eta * eta * (1.0 - d * d);
                let r = if k < 0.0 { [0.0, 0.0] } else { [eta * iv[0], eta * iv[1] - (eta * d + k.sqrt())] };
                Some(V::F(r[i])).filter(|_| fin(a)) }),
        case!("FaceForward", S, "ff", 'f',
            "%n = OpCompositeConstruct %v2float %f1 %f2\n%i = OpCompositeConstruct %v2float %a0 %a1\n%x = OpExtInst %v2float %ext FaceForward %n %i %n\n%r = OpCompositeExtract %float %x {i}\n",
            2, 0, |a, i| { let d = a[0].f() + 2.0 * a[1].f(); Some(V::F(if d < 0.0 { [1.0, 2.0][i] } else { [-1.0, -2.0][i] })).filter(|_| !d.is_nan()) }),
        case!("ModfStruct", S, "f", 'f', "%s = OpExtInst %sf %ext ModfStruct %a0\n%r = OpCompositeExtract %float %s {i}\n",
            2, 0, |a, i| Some(V::F(if i == 0 { a[0].f().fract() } else { a[0].f().trunc() })).filter(|_| a[0].f().is_finite())),
        case!("Determinant, MatrixInverse", S, "fff", 'f',
            "%c0 = OpCompositeConstruct %v2float %a0 %a1\n%c1 = OpCompositeConstruct %v2float %a2 %f2\n%m = OpCompositeConstruct %mat2 %c0 %c1\n%d = OpExtInst %float %ext Determinant %m\n%inv = OpExtInst %mat2 %ext MatrixInverse %m\n%col = OpCompositeExtract %v2float %inv {i}\n%e = OpCompositeExtract %float %col 0\n%r = OpFAdd %float %d %e\n",
            2, 4, |a, i| { let (p, q, r, s) = (a[0].f(), a[1].f(), a[2].f(), 2.0f32); let d = p * s - r * q;
                // inverse columns: [s, -q]/d, [-r, p]/d
                let e = [s / d, -r / d][i];
                Some(V::F(d + e)).filter(|_| fin(a) && d.abs() > 1e-3) }),
        case!("PackHalf2x16/UnpackHalf2x16", S, "ff", 'f',
            "%v = OpCompositeConstruct %v2float %a0 %a1\n%p = OpExtInst %uint %ext PackHalf2x16 %v\n%w = OpExtInst %v2float %ext UnpackHalf2x16 %p\n%r = OpCompositeExtract %float %w {i}\n",
            2, 0, |a, i| { let x = a[i].f(); Some(V::F(round_f16(x))).filter(|_| x.is_nan() || x.abs() < 6e4 || x.is_infinite()) }),
        case!("PackUnorm4x8", S, "ff", 'u',
            "%v = OpCompositeConstruct %v4float %a0 %a1 %fh %f2\n%r = OpExtInst %uint %ext PackUnorm4x8 %v\n",
            1, 0, |a, _| { let c = |x: f32| (x.clamp(0.0, 1.0) * 255.0).round_ties_even() as u32;
                Some(V::U(c(a[0].f()) | c(a[1].f()) << 8 | 128 << 16 | 255 << 24)).filter(|_| !a[0].f().is_nan() && !a[1].f().is_nan()) }),
        case!("UnpackSnorm4x8", S, "u", 'f',
            "%v = OpExtInst %v4float %ext UnpackSnorm4x8 %a0\n%r = OpCompositeExtract %float %v {i}\n",
            4, 0, |a, i| f(((a[0].u() >> (8 * i)) as u8 as i8 as f32 / 127.0).max(-1.0))),
        // OpenCL.std by hand.
        case!("rsqrt", K, "f", 'f', "%r = OpExtInst %float %ext rsqrt %a0\n", 1, 1, |a, _| f(1.0 / a[0].f().sqrt())),
        case!("native_recip", K, "f", 'f', "%r = OpExtInst %float %ext native_recip %a0\n", 1, 0, |a, _| f(1.0 / a[0].f())),
        case!("mix", K, "fff", 'f', "%r = OpExtInst %float %ext mix %a0 %a1 %a2\n", 1, 2,
            |a, _| Some(V::F(a[0].f() + (a[1].f() - a[0].f()) * a[2].f())).filter(|_| fin(a))),
        case!("rotate", K, "uu", 'u', "%r = OpExtInst %uint %ext rotate %a0 %a1\n", 1, 0, |a, _| u(a[0].u().rotate_left(a[1].u() % 32))),
        case!("s_mul_hi", K, "uu", 'u', "%r = OpExtInst %uint %ext s_mul_hi %a0 %a1\n", 1, 0,
            |a, _| u(((i64::from(a[0].i()) * i64::from(a[1].i())) >> 32) as u32)),
        case!("u_mul_hi", K, "uu", 'u', "%r = OpExtInst %uint %ext u_mul_hi %a0 %a1\n", 1, 0,
            |a, _| u(((u64::from(a[0].u()) * u64::from(a[1].u())) >> 32) as u32)),
        case!("u_hadd", K, "uu", 'u', "%r = OpExtInst %uint %ext u_hadd %a0 %a1\n", 1, 0,
            |a, _| u(((u64::from(a[0].u()) + u64::from(a[1].u())) >> 1) as u32)),
        case!("s_rhadd", K, "uu", 'u', "%r = OpExtInst %uint %ext s_rhadd %a0 %a1\n", 1, 0,
            |a, _| u(((i64::from(a[0].i()) + i64::from(a[1].i()) + 1) >> 1) as u32)),
        case!("sinpi", K, "f", 'f', "%r = OpExtInst %float %ext sinpi %a0\n", 1, 8,
            |a, _| Some(V::F((a[0].f() * std::f32::consts::PI).sin())).filter(|_| a[0].f().abs() < 100.0)),
        case!("acospi", K, "f", 'f', "%r = OpExtInst %float %ext acospi %a0\n", 1, 2, |a, _| f(a[0].f().acos() / std::f32::consts::PI)),
        case!("atan2pi", K, "ff", 'f', "%r = OpExtInst %float %ext atan2pi %a0 %a1\n", 1, 2, |a, _| f(a[0].f().atan2(a[1].f()) / std::f32::consts::PI)),
        case!("degrees", K, "f", 'f', "%r = OpExtInst %float %ext degrees %a0\n", 1, 2, |a, _| f(a[0].f() * (180.0 / std::f32::consts::PI))),
        case!("u_mad24", K, "uuu", 'u', "%r = OpExtInst %uint %ext u_mad24 %a0 %a1 %a2\n", 1, 0,
            |a, _| Some(V::U(a[0].u().wrapping_mul(a[1].u()).wrapping_add(a[2].u()))).filter(|_| a[0].u() < 1 << 24 && a[1].u() < 1 << 24)),
        // Subgroups of one invocation.
        case!("GroupNonUniformIAdd Reduce/ExclusiveScan", S, "u", 'u',
            "%s = OpGroupNonUniformIAdd %uint %u3 Reduce %a0\n%e = OpGroupNonUniformIAdd %uint %u3 ExclusiveScan %a0\n%r = OpIAdd %uint %s %e\n",
            1, 0, |a, _| u(a[0].u())),
        case!("GroupNonUniformFMin ExclusiveScan", S, "f", 'f',
            "%r = OpGroupNonUniformFMin %float %u3 ExclusiveScan %a0\n", 1, 0, |_, _| f(f32::INFINITY)),
        case!("GroupNonUniformElect/Broadcast", S, "u", 'u',
            "%e = OpGroupNonUniformElect %bool %u3\n%b = OpGroupNonUniformBroadcastFirst %uint %u3 %a0\n%r = OpSelect %uint %e %b %u0\n",
            1, 0, |a, _| u(a[0].u())),
        case!("GroupNonUniformBallot", S, "u", 'u',
            "%p = OpINotEqual %bool %a0 %u0\n%b = OpGroupNonUniformBallot %v4uint %u3 %p\n%r = OpCompositeExtract %uint %b {i}\n",
            4, 0, |a, i| u(if i == 0 { (a[0].u() != 0) as u32 } else { 0 })),
        // More OpenCL.std.
        case!("bitselect", K, "uuu", 'u', "%r = OpExtInst %uint %ext bitselect %a0 %a1 %a2\n", 1, 0,
            |a, _| u((a[0].u() & !a[2].u()) | (a[1].u() & a[2].u()))),
        case!("select", K, "uuu", 'u', "%r = OpExtInst %uint %ext select %a0 %a1 %a2\n", 1, 0,
            |a, _| u(if a[2].u() != 0 { a[1].u() } else { a[0].u() })),
        case!("maxmag", K, "ff", 'f', "%r = OpExtInst %float %ext maxmag %a0 %a1\n", 1, 0,
            |a, _| { let (x, y) = (a[0].f(), a[1].f());
                Some(V::F(if x.abs() > y.abs() { x } else if y.abs() > x.abs() { y } else { x.max(y) })) }),
        case!("minmag", K, "ff", 'f', "%r = OpExtInst %float %ext minmag %a0 %a1\n", 1, 0,
            |a, _| { let (x, y) = (a[0].f(), a[1].f());
                Some(V::F(if x.abs() < y.abs() { x } else if y.abs() < x.abs() { y } else { x.min(y) })) }),
        case!("u_abs_diff", K, "uu", 'u', "%r = OpExtInst %uint %ext u_abs_diff %a0 %a1\n", 1, 0, |a, _| u(a[0].u().abs_diff(a[1].u()))),
        case!("s_abs_diff", K, "uu", 'u', "%r = OpExtInst %uint %ext s_abs_diff %a0 %a1\n", 1, 0, |a, _| u(a[0].i().abs_diff(a[1].i()))),
        case!("u_mad_sat", K, "uuu", 'u', "%r = OpExtInst %uint %ext u_mad_sat %a0 %a1 %a2\n", 1, 0,
            |a, _| u((u128::from(a[0].u()) * u128::from(a[1].u()) + u128::from(a[2].u())).min(u128::from(u32::MAX)) as u32)),
        case!("s_mad_sat", K, "uuu", 'u', "%r = OpExtInst %uint %ext s_mad_sat %a0 %a1 %a2\n", 1, 0,
            |a, _| u((i128::from(a[0].i()) * i128::from(a[1].i()) + i128::from(a[2].i())).clamp(i128::from(i32::MIN), i128::from(i32::MAX)) as i32 as u32)),
        case!("pown", K, "fu", 'f', "%r = OpExtInst %float %ext pown %a0 %a1\n", 1, 4,
            |a, _| Some(V::F(a[0].f().powf(a[1].i() as f32))).filter(|_| a[1].i().unsigned_abs() < 64)),
        case!("rootn", K, "fu", 'f', "%r = OpExtInst %float %ext rootn %a0 %a1\n", 1, 4,
            |a, _| { let (x, n) = (a[0].f(), a[1].i()); if n == 0 || n.unsigned_abs() > 64 { return None; }
                let p = x.abs().powf(1.0 / n as f32);
                Some(V::F(if x < 0.0 { if n % 2 != 0 { -p } else { f32::NAN } } else { p })) }),
        case!("fract", K, "f", 'f', "%v = OpVariable %pf Function\n%x = OpExtInst %float %ext fract %a0 %v\n%fl = OpLoad %float %v\n%p = OpCompositeConstruct %v2float %x %fl\n%r = OpCompositeExtract %float %p {i}\n", 2, 0,
            |a, i| { let x = a[0].f(); let fl = x.floor();
                Some(V::F(if i == 0 { (x - fl).min(1.0 - f32::EPSILON / 2.0) } else { fl })).filter(|_| x.is_finite()) }),
        case!("sincos", K, "f", 'f', "%v = OpVariable %pf Function\n%s = OpExtInst %float %ext sincos %a0 %v\n%c = OpLoad %float %v\n%p = OpCompositeConstruct %v2float %s %c\n%r = OpCompositeExtract %float %p {i}\n", 2, 2,
            |a, i| f(if i == 0 { a[0].f().sin() } else { a[0].f().cos() })),
        case!("lgamma_r", K, "f", 'f', "%v = OpVariable %pu Function\n%x = OpExtInst %float %ext lgamma_r %a0 %v\n%s = OpLoad %uint %v\n%sg = OpConvertSToF %float %s\n%p = OpCompositeConstruct %v2float %x %sg\n%r = OpCompositeExtract %float %p {i}\n", 2, 0,
            |a, i| { let mut sign = 0i32; let v = unsafe { lgammaf_r(a[0].f(), &mut sign) }; f(if i == 0 { v } else { sign as f32 }) }),
        case!("remquo", K, "ff", 'f', "%v = OpVariable %pu Function\n%x = OpExtInst %float %ext remquo %a0 %a1 %v\n%q = OpLoad %uint %v\n%qf = OpConvertSToF %float %q\n%p = OpCompositeConstruct %v2float %x %qf\n%r = OpCompositeExtract %float %p {i}\n", 2, 0,
            |a, i| { let mut q = 0i32; let v = unsafe { remquof(a[0].f(), a[1].f(), &mut q) };
                // The quotient is unspecified when the result is NaN.
                if i == 1 && v.is_nan() { return None; }
                f(if i == 0 { v } else { q as f32 }) }),
        case!("PtrDiff, PtrEqual, ExpectKHR", K, "u", 'u', "%v = OpVariable %pu Function\n%q = OpPtrAccessChain %pu %v %a0\n%d = OpPtrDiff %uint %q %v\n%e = OpPtrEqual %bool %q %v\n%eu = OpSelect %uint %e %u1 %u0\n%x = OpExpectKHR %uint %d %u0\n%p = OpCompositeConstruct %v2uint %x %eu\n%r = OpCompositeExtract %uint %p {i}\n", 2, 0,
            |a, i| Some(V::U(if i == 0 { a[0].u() } else { (a[0].u() == 0) as u32 })).filter(|_| a[0].u() < 1 << 20)),
        // Atomics on a function variable (kernel flavour), Device scope, relaxed.
        case!("AtomicCompareExchange", K, "uu", 'u', "%v = OpVariable %pu Function\nOpStore %v %a0\n%old = OpAtomicCompareExchange %uint %v %u1 %u0 %u0 %a1 %u2\n%new = OpLoad %uint %v\n%p = OpCompositeConstruct %v2uint %old %new\n%r = OpCompositeExtract %uint %p {i}\n", 2, 0,
            |a, i| u(if i == 0 { a[0].u() } else if a[0].u() == 2 { a[1].u() } else { a[0].u() })),
        case!("AtomicUMax", K, "uu", 'u', "%v = OpVariable %pu Function\nOpStore %v %a0\n%old = OpAtomicUMax %uint %v %u1 %u0 %a1\n%new = OpLoad %uint %v\n%p = OpCompositeConstruct %v2uint %old %new\n%r = OpCompositeExtract %uint %p {i}\n", 2, 0,
            |a, i| u(if i == 0 { a[0].u() } else { a[0].u().max(a[1].u()) })),
        case!("AtomicSMin", K, "uu", 'u', "%v = OpVariable %pu Function\nOpStore %v %a0\n%old = OpAtomicSMin %uint %v %u1 %u0 %a1\n%new = OpLoad %uint %v\n%p = OpCompositeConstruct %v2uint %old %new\n%r = OpCompositeExtract %uint %p {i}\n", 2, 0,
            |a, i| u(if i == 0 { a[0].u() } else { a[0].i().min(a[1].i()) as u32 })),
        case!("AtomicExchange, AtomicIIncrement", K, "uu", 'u', "%v = OpVariable %pu Function\nOpStore %v %a0\n%old = OpAtomicExchange %uint %v %u1 %u0 %a1\n%inc = OpAtomicIIncrement %uint %v %u1 %u0\n%new = OpLoad %uint %v\n%p = OpCompositeConstruct %v2uint %old %new\n%r = OpCompositeExtract %uint %p {i}\n", 2, 0,
            |a, i| u(if i == 0 { a[0].u() } else { a[1].u().wrapping_add(1) })),
        case!("AtomicFlagTestAndSet/Clear", K, "u", 'u', "%v = OpVariable %pu Function\nOpStore %v %a0\n%t = OpAtomicFlagTestAndSet %bool %v %u1 %u0\n%t2 = OpAtomicFlagTestAndSet %bool %v %u1 %u0\nOpAtomicFlagClear %v %u1 %u0\n%c = OpLoad %uint %v\n%x = OpSelect %uint %t %u1 %u0\n%y = OpSelect %uint %t2 %u1 %u0\n%p = OpCompositeConstruct %v4uint %x %y %c %c\n%r = OpCompositeExtract %uint %p {i}\n", 3, 0,
            |a, i| u([(a[0].u() != 0) as u32, 1, 0][i])),
    ]
}

/// `x` rounded to the nearest half-precision value (ties to even), as a float.
fn round_f16(x: f32) -> f32 {
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    let e = x.abs().log2().floor().max(-14.0);
    let q = 2f32.powf(e - 10.0);
    let r = (x / q).round_ties_even() * q;
    if r.abs() > 65504.0 {
        f32::INFINITY.copysign(x)
    } else {
        r
    }
}

#[test]
fn hand_written_lowerings_execute_correctly() {
    let mut calls = 0;
    let all = cases();
    for c in &all {
        for i in 0..c.comps {
            let body = c.body.replace("{i}", &i.to_string());
            let text = module_body(c.flavour, c.kinds, c.ret, &body);
            let w = words(&text);
            let cx = Context::create();
            let (ee, ll) = jit(&cx, &w);
            let addr = ee.get_function_address("f").unwrap();
            for args in inputs(c.kinds) {
                let Some(want) = (c.reference)(&args, i) else {
                    continue;
                };
                // SAFETY: `f` has the signature `module_body` gave it.
                let got = unsafe { call(addr, c.kinds, c.ret, &args) };
                let ok = match (got, want) {
                    (V::F(g), V::F(w)) => close(g, w, c.ulps),
                    (g, w) => g == w,
                };
                assert!(
                    ok,
                    "{} [{i}]: f{args:?} = {got:?}, expected {want:?}\n{ll}",
                    c.name
                );
                calls += 1;
            }
        }
    }
    eprintln!("hand-written cases: {}, {calls} calls", all.len());
}
