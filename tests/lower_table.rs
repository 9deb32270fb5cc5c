//! Every pattern of the generated lowering table (`grammar/lowering.json`), lowered from a
//! small module and executed with concrete inputs against values computed in Rust (or by the
//! C math library for the patterns that call it), edge cases included: negative operands of
//! the remainders, NaN for ordered and unordered comparisons, integer extremes.
#![cfg(feature = "llvm")]

#[path = "lower/harness.rs"]
mod harness;

use harness::{call, close, inputs, jit, module_text, words, Flavour, V};
use inkwell::context::Context;
use spvkit::grammar::lowering::{CORE_PATTERNS, EXT_PATTERNS};

type Ref = fn(&[V]) -> Option<V>;

/// How to test one pattern: argument kinds, result kind, the reference (`None`: the input is
/// outside the op's defined domain), and the tolerance in ulps for float results.
struct Spec {
    kinds: &'static str,
    ret: char,
    reference: Ref,
    ulps: u32,
}

fn s(kinds: &'static str, ret: char, reference: Ref) -> Spec {
    Spec {
        kinds,
        ret,
        reference,
        ulps: 0,
    }
}

fn approx(kinds: &'static str, ret: char, reference: Ref) -> Spec {
    Spec {
        kinds,
        ret,
        reference,
        ulps: 4,
    }
}

fn b(x: bool) -> Option<V> {
    Some(V::U(u32::from(x)))
}
fn u(x: u32) -> Option<V> {
    Some(V::U(x))
}
fn f(x: f32) -> Option<V> {
    Some(V::F(x))
}
/// Whether either operand is NaN (an unordered comparison is then true).
fn uno(a: &[V]) -> bool {
    a[0].f().is_nan() || a[1].f().is_nan()
}

mod libm {
    extern "C" {
        pub fn acosf(x: f32) -> f32;
        pub fn asinf(x: f32) -> f32;
        pub fn atanf(x: f32) -> f32;
        pub fn atan2f(y: f32, x: f32) -> f32;
        pub fn sinhf(x: f32) -> f32;
        pub fn coshf(x: f32) -> f32;
        pub fn tanhf(x: f32) -> f32;
        pub fn tanf(x: f32) -> f32;
        pub fn asinhf(x: f32) -> f32;
        pub fn acoshf(x: f32) -> f32;
        pub fn atanhf(x: f32) -> f32;
        pub fn cbrtf(x: f32) -> f32;
        pub fn erff(x: f32) -> f32;
        pub fn erfcf(x: f32) -> f32;
        pub fn exp10f(x: f32) -> f32;
        pub fn expm1f(x: f32) -> f32;
        pub fn fdimf(x: f32, y: f32) -> f32;
        pub fn hypotf(x: f32, y: f32) -> f32;
        pub fn lgammaf(x: f32) -> f32;
        pub fn log1pf(x: f32) -> f32;
        pub fn logbf(x: f32) -> f32;
        pub fn nextafterf(x: f32, y: f32) -> f32;
        pub fn remainderf(x: f32, y: f32) -> f32;
        pub fn tgammaf(x: f32) -> f32;
    }
}

macro_rules! lm1 {
    ($f:ident) => {
        approx("f", 'f', |a| f(unsafe { libm::$f(a[0].f()) }))
    };
}
macro_rules! lm2 {
    ($f:ident) => {
        approx("ff", 'f', |a| f(unsafe { libm::$f(a[0].f(), a[1].f()) }))
    };
}

fn core_spec(name: &str) -> Option<Spec> {
    Some(match name {
        "OpIAdd" => s("ii", 'i', |a| u(a[0].u().wrapping_add(a[1].u()))),
        "OpISub" => s("ii", 'i', |a| u(a[0].u().wrapping_sub(a[1].u()))),
        "OpIMul" => s("ii", 'i', |a| u(a[0].u().wrapping_mul(a[1].u()))),
        "OpUDiv" => s("uu", 'u', |a| a[0].u().checked_div(a[1].u()).map(V::U)),
        "OpSDiv" => s("ii", 'i', |a| {
            a[0].i().checked_div(a[1].i()).map(|x| V::U(x as u32))
        }),
        "OpUMod" => s("uu", 'u', |a| a[0].u().checked_rem(a[1].u()).map(V::U)),
        "OpSRem" => s("ii", 'i', |a| {
            a[0].i().checked_rem(a[1].i()).map(|x| V::U(x as u32))
        }),
        "OpFAdd" => s("ff", 'f', |a| f(a[0].f() + a[1].f())),
        "OpFSub" => s("ff", 'f', |a| f(a[0].f() - a[1].f())),
        "OpFMul" => s("ff", 'f', |a| f(a[0].f() * a[1].f())),
        "OpFDiv" => s("ff", 'f', |a| f(a[0].f() / a[1].f())),
        "OpFRem" => s("ff", 'f', |a| f(a[0].f() % a[1].f())),
        "OpBitwiseAnd" => s("uu", 'u', |a| u(a[0].u() & a[1].u())),
        "OpBitwiseOr" => s("uu", 'u', |a| u(a[0].u() | a[1].u())),
        "OpBitwiseXor" => s("uu", 'u', |a| u(a[0].u() ^ a[1].u())),
        "OpLogicalAnd" => s("bb", 'b', |a| b(a[0].u() & a[1].u() != 0)),
        "OpLogicalOr" => s("bb", 'b', |a| b(a[0].u() | a[1].u() != 0)),
        "OpLogicalEqual" => s("bb", 'b', |a| b(a[0].u() == a[1].u())),
        "OpLogicalNotEqual" => s("bb", 'b', |a| b(a[0].u() != a[1].u())),
        "OpFNegate" => s("f", 'f', |a| f(-a[0].f())),
        "OpSNegate" => s("i", 'i', |a| u(a[0].u().wrapping_neg())),
        "OpIEqual" => s("ii", 'b', |a| b(a[0].u() == a[1].u())),
        "OpINotEqual" => s("ii", 'b', |a| b(a[0].u() != a[1].u())),
        "OpUGreaterThan" => s("uu", 'b', |a| b(a[0].u() > a[1].u())),
        "OpSGreaterThan" => s("ii", 'b', |a| b(a[0].i() > a[1].i())),
        "OpUGreaterThanEqual" => s("uu", 'b', |a| b(a[0].u() >= a[1].u())),
        "OpSGreaterThanEqual" => s("ii", 'b', |a| b(a[0].i() >= a[1].i())),
        "OpULessThan" => s("uu", 'b', |a| b(a[0].u() < a[1].u())),
        "OpSLessThan" => s("ii", 'b', |a| b(a[0].i() < a[1].i())),
        "OpULessThanEqual" => s("uu", 'b', |a| b(a[0].u() <= a[1].u())),
        "OpSLessThanEqual" => s("ii", 'b', |a| b(a[0].i() <= a[1].i())),
        "OpFOrdEqual" => s("ff", 'b', |a| b(a[0].f() == a[1].f())),
        "OpFUnordEqual" => s("ff", 'b', |a| {
            b(a[0].f() == a[1].f() || a[0].f().is_nan() || a[1].f().is_nan())
        }),
        "OpFOrdNotEqual" => s("ff", 'b', |a| {
            b(a[0].f() != a[1].f() && !a[0].f().is_nan() && !a[1].f().is_nan())
        }),
        "OpFUnordNotEqual" => s("ff", 'b', |a| b(a[0].f() != a[1].f())),
        "OpFOrdLessThan" => s("ff", 'b', |a| b(a[0].f() < a[1].f())),
        "OpFUnordLessThan" => s("ff", 'b', |a| b(uno(a) || a[0].f() < a[1].f())),
        "OpFOrdGreaterThan" => s("ff", 'b', |a| b(a[0].f() > a[1].f())),
        "OpFUnordGreaterThan" => s("ff", 'b', |a| b(uno(a) || a[0].f() > a[1].f())),
        "OpFOrdLessThanEqual" => s("ff", 'b', |a| b(a[0].f() <= a[1].f())),
        "OpFUnordLessThanEqual" => s("ff", 'b', |a| b(uno(a) || a[0].f() <= a[1].f())),
        "OpFOrdGreaterThanEqual" => s("ff", 'b', |a| b(a[0].f() >= a[1].f())),
        "OpFUnordGreaterThanEqual" => s("ff", 'b', |a| b(uno(a) || a[0].f() >= a[1].f())),
        "OpOrdered" => s("ff", 'b', |a| b(!a[0].f().is_nan() && !a[1].f().is_nan())),
        "OpUnordered" => s("ff", 'b', |a| b(a[0].f().is_nan() || a[1].f().is_nan())),
        "OpIsNan" => s("f", 'b', |a| b(a[0].f().is_nan())),
        "OpBitcast" => s("f", 'u', |a| u(a[0].f().to_bits())),
        "OpSelect" => s("bii", 'i', |a| {
            u(if a[0].u() != 0 { a[1].u() } else { a[2].u() })
        }),
        "OpBitReverse" => s("u", 'u', |a| u(a[0].u().reverse_bits())),
        "OpBitCount" => s("u", 'u', |a| u(a[0].u().count_ones())),
        "OpAny" => s("B", 'b', |a| b(a.iter().any(|x| x.u() != 0))),
        "OpAll" => s("B", 'b', |a| b(a.iter().all(|x| x.u() != 0))),
        // Pointer conversions are covered by `pointer_round_trip` below.
        "OpConvertPtrToU" | "OpConvertUToPtr" => return None,
        _ => return None,
    })
}

fn glsl_spec(name: &str) -> Option<Spec> {
    Some(match name {
        "Round" => s("f", 'f', |a| f(a[0].f().round())),
        "RoundEven" => s("f", 'f', |a| f(a[0].f().round_ties_even())),
        "Trunc" => s("f", 'f', |a| f(a[0].f().trunc())),
        "FAbs" => s("f", 'f', |a| f(a[0].f().abs())),
        "SAbs" => s("i", 'i', |a| u(a[0].i().wrapping_abs() as u32)),
        "Floor" => s("f", 'f', |a| f(a[0].f().floor())),
        "Ceil" => s("f", 'f', |a| f(a[0].f().ceil())),
        "Sin" => approx("f", 'f', |a| f(a[0].f().sin())),
        "Cos" => approx("f", 'f', |a| f(a[0].f().cos())),
        "Pow" => approx("ff", 'f', |a| f(a[0].f().powf(a[1].f()))),
        "Exp" => approx("f", 'f', |a| f(a[0].f().exp())),
        "Log" => approx("f", 'f', |a| f(a[0].f().ln())),
        "Exp2" => approx("f", 'f', |a| f(a[0].f().exp2())),
        "Log2" => approx("f", 'f', |a| f(a[0].f().log2())),
        "Sqrt" => s("f", 'f', |a| f(a[0].f().sqrt())),
        "FMin" | "NMin" => s("ff", 'f', |a| f(a[0].f().min(a[1].f()))),
        "FMax" | "NMax" => s("ff", 'f', |a| f(a[0].f().max(a[1].f()))),
        "UMin" => s("uu", 'u', |a| u(a[0].u().min(a[1].u()))),
        "SMin" => s("ii", 'i', |a| u(a[0].i().min(a[1].i()) as u32)),
        "UMax" => s("uu", 'u', |a| u(a[0].u().max(a[1].u()))),
        "SMax" => s("ii", 'i', |a| u(a[0].i().max(a[1].i()) as u32)),
        "Fma" => s("fff", 'f', |a| f(a[0].f().mul_add(a[1].f(), a[2].f()))),
        "Ldexp" => s("fi", 'f', |a| {
            let e = a[1].i();
            (e.unsigned_abs() < 64).then(|| V::F((a[0].f() as f64 * 2f64.powi(e)) as f32))
        }),
        "Asin" => lm1!(asinf),
        "Acos" => lm1!(acosf),
        "Atan" => lm1!(atanf),
        "Sinh" => lm1!(sinhf),
        "Cosh" => lm1!(coshf),
        "Asinh" => lm1!(asinhf),
        "Acosh" => lm1!(acoshf),
        "Atanh" => lm1!(atanhf),
        "Atan2" => lm2!(atan2f),
        _ => return None,
    })
}

fn opencl_spec(name: &str) -> Option<Spec> {
    Some(match name {
        "ceil" => s("f", 'f', |a| f(a[0].f().ceil())),
        "copysign" => s("ff", 'f', |a| f(a[0].f().copysign(a[1].f()))),
        "cos" | "native_cos" | "half_cos" => approx("f", 'f', |a| f(a[0].f().cos())),
        "sin" | "native_sin" | "half_sin" => approx("f", 'f', |a| f(a[0].f().sin())),
        "exp" | "native_exp" | "half_exp" => approx("f", 'f', |a| f(a[0].f().exp())),
        "exp2" | "native_exp2" | "half_exp2" => approx("f", 'f', |a| f(a[0].f().exp2())),
        "log" | "native_log" | "half_log" => approx("f", 'f', |a| f(a[0].f().ln())),
        "log2" | "native_log2" | "half_log2" => approx("f", 'f', |a| f(a[0].f().log2())),
        "log10" | "native_log10" | "half_log10" => approx("f", 'f', |a| f(a[0].f().log10())),
        "sqrt" | "native_sqrt" | "half_sqrt" => s("f", 'f', |a| f(a[0].f().sqrt())),
        "pow" | "powr" | "native_powr" | "half_powr" => {
            approx("ff", 'f', |a| f(a[0].f().powf(a[1].f())))
        }
        "fabs" => s("f", 'f', |a| f(a[0].f().abs())),
        "floor" => s("f", 'f', |a| f(a[0].f().floor())),
        "fma" => s("fff", 'f', |a| f(a[0].f().mul_add(a[1].f(), a[2].f()))),
        "mad" => approx("fff", 'f', |a| f(a[0].f() * a[1].f() + a[2].f())),
        "fmax" | "fmax_common" => s("ff", 'f', |a| f(a[0].f().max(a[1].f()))),
        "fmin" | "fmin_common" => s("ff", 'f', |a| f(a[0].f().min(a[1].f()))),
        "rint" => s("f", 'f', |a| f(a[0].f().round_ties_even())),
        "round" => s("f", 'f', |a| f(a[0].f().round())),
        "trunc" => s("f", 'f', |a| f(a[0].f().trunc())),
        "s_max" => s("uu", 'u', |a| u(a[0].i().max(a[1].i()) as u32)),
        "u_max" => s("uu", 'u', |a| u(a[0].u().max(a[1].u()))),
        "s_min" => s("uu", 'u', |a| u(a[0].i().min(a[1].i()) as u32)),
        "u_min" => s("uu", 'u', |a| u(a[0].u().min(a[1].u()))),
        "popcount" => s("u", 'u', |a| u(a[0].u().count_ones())),
        "s_add_sat" => s("uu", 'u', |a| u(a[0].i().saturating_add(a[1].i()) as u32)),
        "u_add_sat" => s("uu", 'u', |a| u(a[0].u().saturating_add(a[1].u()))),
        "s_sub_sat" => s("uu", 'u', |a| u(a[0].i().saturating_sub(a[1].i()) as u32)),
        "u_sub_sat" => s("uu", 'u', |a| u(a[0].u().saturating_sub(a[1].u()))),
        "s_abs" => s("u", 'u', |a| u(a[0].i().wrapping_abs() as u32)),
        "clz" => s("u", 'u', |a| u(a[0].u().leading_zeros())),
        "ctz" => s("u", 'u', |a| u(a[0].u().trailing_zeros())),
        "ldexp" => s("fu", 'f', |a| {
            let e = a[1].i();
            (e.unsigned_abs() < 64).then(|| V::F((a[0].f() as f64 * 2f64.powi(e)) as f32))
        }),
        "fmod" => s("ff", 'f', |a| f(a[0].f() % a[1].f())),
        "native_divide" | "half_divide" => s("ff", 'f', |a| f(a[0].f() / a[1].f())),
        "acos" => lm1!(acosf),
        "acosh" => lm1!(acoshf),
        "asin" => lm1!(asinf),
        "asinh" => lm1!(asinhf),
        "atan" => lm1!(atanf),
        "atan2" => lm2!(atan2f),
        "atanh" => lm1!(atanhf),
        "cbrt" => lm1!(cbrtf),
        "cosh" => lm1!(coshf),
        "erf" => lm1!(erff),
        "erfc" => lm1!(erfcf),
        "exp10" | "native_exp10" | "half_exp10" => lm1!(exp10f),
        "expm1" => lm1!(expm1f),
        "fdim" => lm2!(fdimf),
        "hypot" => lm2!(hypotf),
        "lgamma" => lm1!(lgammaf),
        "log1p" => lm1!(log1pf),
        "logb" => lm1!(logbf),
        "nextafter" => lm2!(nextafterf),
        "remainder" => lm2!(remainderf),
        "sinh" => lm1!(sinhf),
        "tan" | "native_tan" | "half_tan" => lm1!(tanf),
        "tanh" => lm1!(tanhf),
        "tgamma" => lm1!(tgammaf),
        _ => return None,
    })
}

/// Runs one pattern over every input; returns the number of calls checked.
fn run_pattern(flavour: Flavour, op: &str, ext: Option<&str>, spec: &Spec) -> usize {
    let text = module_text(flavour, op, ext, spec.kinds, spec.ret);
    let w = words(&text);
    let cx = Context::create();
    let (ee, ll) = jit(&cx, &w);
    let addr = ee
        .get_function_address("f")
        .unwrap_or_else(|e| panic!("{op} {ext:?}: no f: {e:?}"));
    let mut n = 0;
    for args in inputs(spec.kinds) {
        let Some(want) = (spec.reference)(&args) else {
            continue;
        };
        // SAFETY: `f` has the signature `module_text` gave it.
        let got = unsafe { call(addr, spec.kinds, spec.ret, &args) };
        let ok = match (got, want) {
            (V::F(g), V::F(w)) => close(g, w, spec.ulps),
            (g, w) => g == w,
        };
        assert!(
            ok,
            "{op} {}: f{args:?} = {got:?}, expected {want:?}\n{ll}",
            ext.unwrap_or("")
        );
        n += 1;
    }
    n
}

#[test]
fn every_core_pattern_executes_correctly() {
    let mut tested = 0;
    let mut calls = 0;
    for (_, p) in CORE_PATTERNS {
        let Some(spec) = core_spec(p.name) else {
            assert!(
                p.name == "OpConvertPtrToU" || p.name == "OpConvertUToPtr",
                "no test for core pattern {}",
                p.name
            );
            continue;
        };
        calls += run_pattern(Flavour::Shader, p.name, None, &spec);
        tested += 1;
    }
    eprintln!(
        "core patterns tested: {tested} of {}, {calls} calls",
        CORE_PATTERNS.len()
    );
    assert_eq!(tested + 2, CORE_PATTERNS.len());
}

#[test]
fn every_extended_pattern_executes_correctly() {
    let mut tested = 0;
    let mut total = 0;
    let mut calls = 0;
    for (set, pats) in EXT_PATTERNS {
        for (_, p) in pats.iter() {
            total += 1;
            let (flavour, spec) = match *set {
                "GLSL.std.450" => (Flavour::Shader, glsl_spec(p.name)),
                "OpenCL.std" => (Flavour::Kernel, opencl_spec(p.name)),
                other => panic!("a table set without tests: {other}"),
            };
            let spec = spec.unwrap_or_else(|| panic!("no test for {set} {}", p.name));
            calls += run_pattern(flavour, "OpExtInst", Some(p.name), &spec);
            tested += 1;
        }
    }
    eprintln!("extended patterns tested: {tested} of {total}, {calls} calls");
    assert_eq!(tested, total);
}

#[test]
fn pointer_round_trip() {
    // OpConvertUToPtr then OpConvertPtrToU gives the integer back.
    let text = "OpCapability Addresses\nOpCapability Linkage\nOpCapability Kernel\nOpCapability Int64\n\
        OpMemoryModel Physical64 OpenCL\nOpDecorate %f LinkageAttributes \"f\" Export\n\
        %ulong = OpTypeInt 64 0\n%uchar = OpTypeInt 8 0\n%ptr = OpTypePointer CrossWorkgroup %uchar\n\
        %fnty = OpTypeFunction %ulong %ulong\n%f = OpFunction %ulong None %fnty\n%x = OpFunctionParameter %ulong\n\
        %e = OpLabel\n%p = OpConvertUToPtr %ptr %x\n%y = OpConvertPtrToU %ulong %p\nOpReturnValue %y\nOpFunctionEnd\n";
    let cx = Context::create();
    let (ee, _) = jit(&cx, &words(text));
    let addr = ee.get_function_address("f").unwrap();
    // SAFETY: f is (ptr, i64) -> i64.
    let f: extern "C" fn(*const u8, u64) -> u64 = unsafe { std::mem::transmute(addr) };
    for x in [0u64, 1, 0xdead_beef_0000_1234, u64::MAX] {
        assert_eq!(f(std::ptr::null(), x), x);
    }
}
