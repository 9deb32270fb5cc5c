//! Test harness for the lowering: builds a small SPIR-V module around one op (an exported
//! function `f` taking scalars and returning one), lowers it, JIT-compiles it with inkwell's
//! execution engine and calls it with a null context.
#![allow(dead_code)]

use inkwell::context::Context;
use inkwell::execution_engine::ExecutionEngine;
use inkwell::OptimizationLevel;
use spvkit::text::{assemble, AssembleOptions};

/// A scalar passed to or returned from a test function.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum V {
    /// A 32-bit integer (or a boolean, 0 or 1).
    U(u32),
    /// A 32-bit float.
    F(f32),
    /// A 64-bit float.
    D(f64),
}

impl V {
    pub fn u(self) -> u32 {
        match self {
            V::U(x) => x,
            _ => panic!("not an integer: {self:?}"),
        }
    }
    pub fn i(self) -> i32 {
        self.u() as i32
    }
    pub fn f(self) -> f32 {
        match self {
            V::F(x) => x,
            _ => panic!("not a float: {self:?}"),
        }
    }
}

/// Which flavour of module: a shader (GLSL.std.450) or a kernel (OpenCL.std).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flavour {
    Shader,
    Kernel,
}

/// The SPIR-V type name for an argument kind: `u` uint, `i` int, `f` float, `d` double,
/// `b` bool (passed as a uint), `B` bvec4 (four uints).
fn ty(flavour: Flavour, k: char) -> &'static str {
    match (flavour, k) {
        (Flavour::Kernel, 'i') => "%uint",
        (_, 'u') => "%uint",
        (_, 'i') => "%int",
        (_, 'f') => "%float",
        (_, 'd') => "%double",
        (_, 'b') => "%bool",
        (_, 'B') => "%v4bool",
        _ => panic!("kind {k}"),
    }
}

/// Assembly of a module whose function `f` applies `op` (`OpIAdd`, or `OpExtInst` through
/// `%ext` with `ext_name`) to arguments of `kinds`, returning `ret`.
pub fn module_text(
    flavour: Flavour,
    op: &str,
    ext_name: Option<&str>,
    kinds: &str,
    ret: char,
) -> String {
    let mut s = String::new();
    match flavour {
        Flavour::Shader => s.push_str(
            "OpCapability Shader\nOpCapability Linkage\nOpCapability Float64\n%ext = OpExtInstImport \"GLSL.std.450\"\nOpMemoryModel Logical GLSL450\n",
        ),
        Flavour::Kernel => s.push_str(
            "OpCapability Addresses\nOpCapability Linkage\nOpCapability Kernel\nOpCapability Float64\n%ext = OpExtInstImport \"OpenCL.std\"\nOpMemoryModel Physical64 OpenCL\n",
        ),
    }
    s.push_str("OpDecorate %f LinkageAttributes \"f\" Export\n");
    s.push_str("%void = OpTypeVoid\n%bool = OpTypeBool\n%uint = OpTypeInt 32 0\n");
    if flavour == Flavour::Shader {
        s.push_str("%int = OpTypeInt 32 1\n");
    }
    s.push_str(
        "%float = OpTypeFloat 32\n%double = OpTypeFloat 64\n%v4bool = OpTypeVector %bool 4\n",
    );
    s.push_str("%u0 = OpConstant %uint 0\n%u1 = OpConstant %uint 1\n");
    // Parameters as passed from Rust: booleans as uints, a bvec4 as four uints.
    let mut params = Vec::new();
    for k in kinds.chars() {
        match k {
            'b' => params.push("%uint"),
            'B' => params.extend(["%uint"; 4]),
            k => params.push(ty(flavour, k)),
        }
    }
    let rty = match ret {
        'b' => "%uint",
        k => ty(flavour, k),
    };
    s.push_str(&format!(
        "%fnty = OpTypeFunction {rty} {}\n",
        params.join(" ")
    ));
    s.push_str(&format!("%f = OpFunction {rty} None %fnty\n"));
    for (i, p) in params.iter().enumerate() {
        s.push_str(&format!("%p{i} = OpFunctionParameter {p}\n"));
    }
    s.push_str("%entry = OpLabel\n");
    let mut args = Vec::new();
    let mut p = 0;
    for (i, k) in kinds.chars().enumerate() {
        match k {
            'b' => {
                s.push_str(&format!("%a{i} = OpINotEqual %bool %p{p} %u0\n"));
                p += 1;
            }
            'B' => {
                for j in 0..4 {
                    s.push_str(&format!("%a{i}_{j} = OpINotEqual %bool %p{} %u0\n", p + j));
                }
                s.push_str(&format!(
                    "%a{i} = OpCompositeConstruct %v4bool %a{i}_0 %a{i}_1 %a{i}_2 %a{i}_3\n"
                ));
                p += 4;
            }
            _ => {
                s.push_str(&format!("%a{i} = OpCopyObject {} %p{p}\n", ty(flavour, k)));
                p += 1;
            }
        }
        args.push(format!("%a{i}"));
    }
    let inner_ty = ty(flavour, ret);
    match ext_name {
        Some(n) => s.push_str(&format!(
            "%r = OpExtInst {inner_ty} %ext {n} {}\n",
            args.join(" ")
        )),
        None => s.push_str(&format!("%r = {op} {inner_ty} {}\n", args.join(" "))),
    }
    if ret == 'b' {
        s.push_str("%rr = OpSelect %uint %r %u1 %u0\nOpReturnValue %rr\n");
    } else {
        s.push_str("OpReturnValue %r\n");
    }
    s.push_str("OpFunctionEnd\n");
    s
}

/// Assembles SPIR-V text.
pub fn words(text: &str) -> Vec<u32> {
    assemble(text, &AssembleOptions::default()).unwrap_or_else(|e| panic!("{e:?}\n{text}"))
}

/// Lowers `words`, verifies the module and JIT-compiles it.
pub fn jit<'ctx>(cx: &'ctx Context, words: &[u32]) -> (ExecutionEngine<'ctx>, String) {
    let lowered = spvkit::lower::lower_binary(cx, words, &Default::default())
        .unwrap_or_else(|e| panic!("lowering failed: {e}"));
    let text = lowered.module.print_to_string().to_string();
    lowered
        .module
        .verify()
        .unwrap_or_else(|e| panic!("LLVM verifier: {}\n{text}", e.to_string()));
    let ee = lowered
        .module
        .create_jit_execution_engine(OptimizationLevel::None)
        .unwrap_or_else(|e| panic!("JIT: {}", e.to_string()));
    (ee, text)
}

/// Calls the function at `addr` with signature `kinds` → `ret` (a null context first).
///
/// # Safety
/// `addr` must be a function of that signature.
pub unsafe fn call(addr: usize, kinds: &str, ret: char, a: &[V]) -> V {
    use std::mem::transmute;
    let ctx: *const u8 = std::ptr::null();
    let ints = |r: char| r == 'u' || r == 'i' || r == 'b';
    let flat: String = kinds
        .chars()
        .map(|k| match k {
            'i' | 'b' => 'u',
            'B' => 'U',
            k => k,
        })
        .collect();
    let r = if ints(ret) { 'u' } else { ret };
    macro_rules! sig {
        ($($arg:ty),* => $ret:ty; $wrap:expr; $($val:expr),*) => {{
            let f: extern "C" fn(*const u8 $(, $arg)*) -> $ret = transmute(addr);
            $wrap(f(ctx $(, $val)*))
        }};
    }
    match (flat.as_str(), r) {
        ("u", 'u') => sig!(u32 => u32; V::U; a[0].u()),
        ("uu", 'u') => sig!(u32, u32 => u32; V::U; a[0].u(), a[1].u()),
        ("uuu", 'u') => sig!(u32, u32, u32 => u32; V::U; a[0].u(), a[1].u(), a[2].u()),
        ("U", 'u') => sig!(u32, u32, u32, u32 => u32; V::U; a[0].u(), a[1].u(), a[2].u(), a[3].u()),
        ("f", 'f') => sig!(f32 => f32; V::F; a[0].f()),
        ("ff", 'f') => sig!(f32, f32 => f32; V::F; a[0].f(), a[1].f()),
        ("fff", 'f') => sig!(f32, f32, f32 => f32; V::F; a[0].f(), a[1].f(), a[2].f()),
        ("f", 'u') => sig!(f32 => u32; V::U; a[0].f()),
        ("ff", 'u') => sig!(f32, f32 => u32; V::U; a[0].f(), a[1].f()),
        ("u", 'f') => sig!(u32 => f32; V::F; a[0].u()),
        ("fu", 'f') => sig!(f32, u32 => f32; V::F; a[0].f(), a[1].u()),
        (s, r) => panic!("no calling harness for ({s}) -> {r}"),
    }
}

/// Integer inputs: small, negative, extremes, shift-width edges.
pub const INTS: &[u32] = &[
    0,
    1,
    2,
    7,
    31,
    32,
    0xFFFF_FFFF,
    0xFFFF_FFF9,
    0x8000_0000,
    0x7FFF_FFFF,
];

/// Float inputs: zeros, fractions, negatives, large, NaN, infinities.
pub const FLOATS: &[f32] = &[
    0.0,
    -0.0,
    0.1,
    0.5,
    1.5,
    -2.25,
    3.0,
    -7.0,
    1e10,
    f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
];

/// Every combination of inputs for `kinds`.
pub fn inputs(kinds: &str) -> Vec<Vec<V>> {
    let mut out: Vec<Vec<V>> = vec![Vec::new()];
    for k in kinds.chars() {
        let choices: Vec<Vec<V>> = match k {
            'u' | 'i' => INTS.iter().map(|&x| vec![V::U(x)]).collect(),
            'b' => vec![vec![V::U(0)], vec![V::U(1)]],
            'B' => (0..16)
                .map(|m| (0..4).map(|j| V::U((m >> j) & 1)).collect())
                .collect(),
            'f' => FLOATS.iter().map(|&x| vec![V::F(x)]).collect(),
            k => panic!("kind {k}"),
        };
        let mut next = Vec::new();
        for prefix in &out {
            for c in &choices {
                let mut v = prefix.clone();
                v.extend(c.iter().copied());
                next.push(v);
            }
        }
        out = next;
    }
    out
}

/// Whether two floats agree: both NaN, equal, or within `ulps` units in the last place
/// (`ulps` 0: bit-exact up to the sign of zero).
pub fn close(a: f32, b: f32, ulps: u32) -> bool {
    if a.is_nan() && b.is_nan() {
        return true;
    }
    if a == b {
        return true;
    }
    if a.is_nan() || b.is_nan() || a.is_infinite() || b.is_infinite() || ulps == 0 {
        return false;
    }
    let (x, y) = (a.to_bits() as i64, b.to_bits() as i64);
    if (x < 0x8000_0000) != (y < 0x8000_0000) {
        return (a - b).abs() < 1e-30;
    }
    (x - y).unsigned_abs() <= u64::from(ulps) || ((a - b) / b).abs() < 1e-6
}

/// Assembly of a module whose function `f` takes scalars of `kinds` (as `%a0`, `%a1`, ...)
/// and returns `%r` of kind `ret`, computed by `body`. Vector, matrix and struct types and a
/// few constants are declared for the body to use.
pub fn module_body(flavour: Flavour, kinds: &str, ret: char, body: &str) -> String {
    let mut s = String::new();
    match flavour {
        Flavour::Shader => s.push_str(
            "OpCapability Shader\nOpCapability Linkage\nOpCapability Float64\nOpCapability GroupNonUniform\nOpCapability GroupNonUniformArithmetic\nOpCapability GroupNonUniformBallot\n%ext = OpExtInstImport \"GLSL.std.450\"\nOpMemoryModel Logical GLSL450\n",
        ),
        Flavour::Kernel => s.push_str(
            "OpCapability Addresses\nOpCapability Linkage\nOpCapability Kernel\nOpCapability Float64\n%ext = OpExtInstImport \"OpenCL.std\"\nOpMemoryModel Physical64 OpenCL\n",
        ),
    }
    s.push_str("OpDecorate %f LinkageAttributes \"f\" Export\n");
    s.push_str("%void = OpTypeVoid\n%bool = OpTypeBool\n%uint = OpTypeInt 32 0\n");
    if flavour == Flavour::Shader {
        s.push_str(
            "%int = OpTypeInt 32 1\n%v2int = OpTypeVector %int 2\n%si = OpTypeStruct %int %int\n",
        );
    }
    s.push_str(
        "%float = OpTypeFloat 32\n%double = OpTypeFloat 64\n%v2float = OpTypeVector %float 2\n\
         %v3float = OpTypeVector %float 3\n%v4float = OpTypeVector %float 4\n%v2uint = OpTypeVector %uint 2\n\
         %v4uint = OpTypeVector %uint 4\n%v4bool = OpTypeVector %bool 4\n%su = OpTypeStruct %uint %uint\n\
         %sf = OpTypeStruct %float %float\n%pu = OpTypePointer Function %uint\n\
         %pf = OpTypePointer Function %float\n",
    );
    if flavour == Flavour::Shader {
        s.push_str("%mat2 = OpTypeMatrix %v2float 2\n%mat2x3 = OpTypeMatrix %v3float 2\n");
    }
    s.push_str(
        "%u0 = OpConstant %uint 0\n%u1 = OpConstant %uint 1\n%u2 = OpConstant %uint 2\n%u3 = OpConstant %uint 3\n\
         %f0 = OpConstant %float 0\n%f1 = OpConstant %float 1\n%f2 = OpConstant %float 2\n\
         %fh = OpConstant %float 0.5\n%fm1 = OpConstant %float -1\n%f1_5 = OpConstant %float 1.5\n",
    );
    let params: Vec<&str> = kinds
        .chars()
        .map(|k| if k == 'b' { "%uint" } else { ty(flavour, k) })
        .collect();
    let rty = if ret == 'b' {
        "%uint"
    } else {
        ty(flavour, ret)
    };
    s.push_str(&format!(
        "%fnty = OpTypeFunction {rty} {}\n",
        params.join(" ")
    ));
    s.push_str(&format!("%f = OpFunction {rty} None %fnty\n"));
    for (i, p) in params.iter().enumerate() {
        s.push_str(&format!("%a{i} = OpFunctionParameter {p}\n"));
    }
    s.push_str("%entry = OpLabel\n");
    s.push_str(body);
    if !body.ends_with('\n') {
        s.push('\n');
    }
    if ret == 'b' {
        s.push_str("%rr = OpSelect %uint %r %u1 %u0\nOpReturnValue %rr\n");
    } else {
        s.push_str("OpReturnValue %r\n");
    }
    s.push_str("OpFunctionEnd\n");
    s
}
