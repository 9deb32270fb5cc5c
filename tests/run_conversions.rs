//! Numeric conversions under `spvkit run`, bit for bit against a reference computed here with
//! exact integer arithmetic (no float conversion of Rust's is trusted for the rounding; `f16`
//! is decoded and encoded by hand).
//!
//! The sweep: for every source type (`i8`…`u64`, `f16`, `f32`, `f64`) one Kernel module,
//! assembled by spvkit's assembler and validated by spirv-val, converts every input to every
//! other type with every legal decoration: OpConvertFToS/FToU × {plain, `SaturatedConversion`}
//! × {no rounding mode, RTE, RTZ, RTP, RTN}; OpConvertSToF/UToF and OpFConvert × the five
//! rounding choices; OpSConvert/OpUConvert × {plain, saturated} (saturated also with RTP, which
//! changes nothing); OpSatConvertSToU/UToS; each as a scalar and as a 4-component vector. The
//! inputs are the edges: NaN, ±inf, ±0, ties of both parities and their neighbours, subnormals
//! of source and destination, the bounds of every type, powers of two near 2^24, 2^53, 2^63
//! and 2^64, plus pseudo-random values. Results SPIR-V leaves undefined (a float outside an
//! integer's range without saturation) are not compared, but must not crash the run. Each
//! module also goes through the spv-ir style and back (`lower --style spv-ir`, `from-llvm`) and
//! runs (at -O0; the sweep itself at -O2) to the same bits, and its `__spirv_*Convert*` builtin
//! names are llvm-spirv-15's (`-r --spirv-target-env=SPV-IR`).
//!
//! OpenCL C: the conversions of issue 13 (`convert_uchar_sat(-300.75f)`,
//! `convert_int_sat(3e9f)`, `convert_short_sat_rte`, `convert_char_sat_rtp`,
//! `convert_float_rt*` from `int`, `long`, `ulong` and `double`, `convert_half_rt*`,
//! `vstore_half_rt*`, a vector `convert_char4_sat_rtn`) compiled by clang-15, translated by
//! `spvkit from-llvm`, run by `spvkit run`, and the same after the spv-ir round trip.

#![cfg(feature = "run")]

use spvkit::run::job::{Job, KernelArg, TypedBytes};
use spvkit::run::layout::{Layout, ScalarType};
use spvkit::run::{run_spirv, OptLevel, RunOptions};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

// ---------------------------------------------------------------------------------------------
// The reference.

/// A rounding direction (`None` where a conversion has no `FPRoundingMode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Rte,
    Rtz,
    Rtp,
    Rtn,
}

const MODES: [Option<Mode>; 5] = [
    None,
    Some(Mode::Rte),
    Some(Mode::Rtz),
    Some(Mode::Rtp),
    Some(Mode::Rtn),
];

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Rte => "RTE",
            Mode::Rtz => "RTZ",
            Mode::Rtp => "RTP",
            Mode::Rtn => "RTN",
        }
    }
}

/// An IEEE binary format: width, precision (significand bits with the hidden one), largest
/// exponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Fmt {
    w: u32,
    p: u32,
    emax: i32,
}

const F16: Fmt = Fmt {
    w: 16,
    p: 11,
    emax: 15,
};
const F32: Fmt = Fmt {
    w: 32,
    p: 24,
    emax: 127,
};
const F64: Fmt = Fmt {
    w: 64,
    p: 53,
    emax: 1023,
};

impl Fmt {
    fn emin(self) -> i32 {
        1 - self.emax
    }
    fn sign(self) -> u64 {
        1 << (self.w - 1)
    }
    fn inf(self) -> u64 {
        ((1u64 << (self.w - self.p)) - 1) << (self.p - 1)
    }
    fn is_nan(self, bits: u64) -> bool {
        bits & !self.sign() > self.inf()
    }
}

/// A float's value: NaN, ±infinity, or (-1)^neg × mag × 2^exp.
#[derive(Clone, Copy, Debug)]
enum Val {
    Nan,
    Inf(bool),
    Fin(bool, u128, i32),
}

fn decode(bits: u64, f: Fmt) -> Val {
    let neg = bits & f.sign() != 0;
    let e = (bits >> (f.p - 1)) & ((1 << (f.w - f.p)) - 1);
    let frac = u128::from(bits & ((1 << (f.p - 1)) - 1));
    let all = (1 << (f.w - f.p)) - 1;
    let shift = f.p as i32 - 1;
    if e == all {
        if frac == 0 {
            Val::Inf(neg)
        } else {
            Val::Nan
        }
    } else if e == 0 {
        Val::Fin(neg, frac, f.emin() - shift)
    } else {
        Val::Fin(neg, frac | (1 << shift), e as i32 - f.emax - shift)
    }
}

/// Where a discarded remainder lies against half a unit of the kept digits.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Rest {
    Zero,
    BelowHalf,
    Half,
    AboveHalf,
}

/// The bits of `f`'s value nearest (-1)^neg × mag × 2^exp in `mode`'s direction, computed on
/// integers: the significand is cut at the format's quantum (subnormals included), the cut-off
/// part classified, the significand incremented as the mode says, overflow resolved last.
fn round_exact(neg: bool, mag: u128, exp: i32, f: Fmt, mode: Mode) -> u64 {
    let sign = if neg { f.sign() } else { 0 };
    if mag == 0 {
        return sign;
    }
    let p = f.p as i32;
    let n = 128 - mag.leading_zeros() as i32;
    let e = exp + n - 1;
    let mut q = (e - (p - 1)).max(f.emin() - (p - 1));
    let (mut m, rest) = if exp >= q {
        (mag << (exp - q), Rest::Zero)
    } else {
        let s = (q - exp) as u32;
        if s >= 128 {
            (0, Rest::BelowHalf)
        } else {
            let r = mag & ((1u128 << s) - 1);
            let half = 1u128 << (s - 1);
            let rest = if r == 0 {
                Rest::Zero
            } else if r < half {
                Rest::BelowHalf
            } else if r == half {
                Rest::Half
            } else {
                Rest::AboveHalf
            };
            (mag >> s, rest)
        }
    };
    let inexact = rest != Rest::Zero;
    let up = match mode {
        Mode::Rte => rest == Rest::AboveHalf || (rest == Rest::Half && m & 1 == 1),
        Mode::Rtz => false,
        Mode::Rtp => !neg && inexact,
        Mode::Rtn => neg && inexact,
    };
    if up {
        m += 1;
        if m == 1 << p {
            m >>= 1;
            q += 1;
        }
    }
    if q > f.emax - (p - 1) {
        let max = f.inf() - 1;
        let away = match mode {
            Mode::Rte => true,
            Mode::Rtz => false,
            Mode::Rtp => !neg,
            Mode::Rtn => neg,
        };
        return sign | if away { f.inf() } else { max };
    }
    if m < 1 << (p - 1) {
        // Subnormal or zero.
        return sign | m as u64;
    }
    let biased = (q + (p - 1) + f.emax) as u64;
    sign | (biased << (p - 1)) | (m as u64 & ((1 << (p - 1)) - 1))
}

/// An exact f64 of a finite value of a narrower-or-equal format.
fn to_f64(v: Val) -> f64 {
    match v {
        Val::Nan => f64::NAN,
        Val::Inf(neg) => {
            if neg {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            }
        }
        Val::Fin(neg, mag, exp) => {
            let bits = round_exact(neg, mag, exp, F64, Mode::Rtz);
            // Exact: the value has at most 53 significant bits in f64's range.
            assert_eq!(round_exact(neg, mag, exp, F64, Mode::Rtp), bits);
            f64::from_bits(bits)
        }
    }
}

/// A scalar type of the sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Ty {
    /// Width, signed.
    Int(u32, bool),
    Float(u32),
}

const TYPES: [Ty; 11] = [
    Ty::Int(8, true),
    Ty::Int(8, false),
    Ty::Int(16, true),
    Ty::Int(16, false),
    Ty::Int(32, true),
    Ty::Int(32, false),
    Ty::Int(64, true),
    Ty::Int(64, false),
    Ty::Float(16),
    Ty::Float(32),
    Ty::Float(64),
];

impl Ty {
    fn width(self) -> u32 {
        match self {
            Ty::Int(w, _) | Ty::Float(w) => w,
        }
    }
    fn fmt(self) -> Fmt {
        match self {
            Ty::Float(16) => F16,
            Ty::Float(32) => F32,
            _ => F64,
        }
    }
    fn mask(self) -> u64 {
        u64::MAX >> (64 - self.width())
    }
    fn range(self) -> (i128, i128) {
        match self {
            Ty::Int(w, true) => (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1),
            Ty::Int(w, false) => (0, (1i128 << w) - 1),
            Ty::Float(_) => unreachable!(),
        }
    }
    /// The integer value of bits of this integer type.
    fn int_value(self, bits: u64) -> i128 {
        match self {
            Ty::Int(w, true) => i128::from(((bits << (64 - w)) as i64) >> (64 - w)),
            _ => i128::from(bits & self.mask()),
        }
    }
    /// The SPIR-V type's id name (integers are signless).
    fn id(self) -> String {
        match self {
            Ty::Int(w, _) => format!("i{w}"),
            Ty::Float(w) => format!("f{w}"),
        }
    }
    /// The storage layout of a buffer of this type's bits.
    fn layout(self) -> ScalarType {
        match self.width() {
            8 => ScalarType::U8,
            16 => ScalarType::U16,
            32 => ScalarType::U32,
            _ => ScalarType::U64,
        }
    }
    fn name(self) -> String {
        match self {
            Ty::Int(w, true) => format!("i{w}"),
            Ty::Int(w, false) => format!("u{w}"),
            Ty::Float(w) => format!("f{w}"),
        }
    }
}

/// One conversion of the sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Variant {
    op: &'static str,
    to: Ty,
    sat: bool,
    mode: Option<Mode>,
}

impl Variant {
    fn describe(&self, from: Ty) -> String {
        format!(
            "Op{} {} → {}{}{}",
            self.op,
            from.name(),
            self.to.name(),
            if self.sat { " SaturatedConversion" } else { "" },
            self.mode
                .map(|m| format!(" FPRoundingMode {}", m.name()))
                .unwrap_or_default()
        )
    }
}

/// What a conversion must give.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    Bits(u64),
    /// Any NaN.
    Nan,
    /// Undefined by SPIR-V and OpenCL: not compared.
    Any,
}

/// The reference result of `v` on the bits `x` of type `from`.
fn reference(from: Ty, v: &Variant, x: u64) -> Expect {
    let mode = v.mode;
    match (from, v.to) {
        (Ty::Float(_), Ty::Int(..)) => {
            let f = to_f64(decode(x, from.fmt()));
            let r = match mode {
                None | Some(Mode::Rtz) => f.trunc(),
                Some(Mode::Rte) => f.round_ties_even(),
                Some(Mode::Rtp) => f.ceil(),
                Some(Mode::Rtn) => f.floor(),
            };
            let (min, max) = v.to.range();
            let value = if r.is_nan() {
                None
            } else if r.abs() >= 2f64.powi(100) {
                Some(if r < 0.0 { min - 1 } else { max + 1 })
            } else {
                Some(r as i128)
            };
            match value {
                Some(n) if (min..=max).contains(&n) => Expect::Bits(n as u64 & v.to.mask()),
                _ if !v.sat => Expect::Any,
                None => Expect::Bits(0),
                Some(n) => Expect::Bits(n.clamp(min, max) as u64 & v.to.mask()),
            }
        }
        (Ty::Int(..), Ty::Float(_)) => {
            let n = from.int_value(x);
            Expect::Bits(round_exact(
                n < 0,
                n.unsigned_abs(),
                0,
                v.to.fmt(),
                mode.unwrap_or(Mode::Rte),
            ))
        }
        (Ty::Float(_), Ty::Float(_)) => match decode(x, from.fmt()) {
            Val::Nan => Expect::Nan,
            Val::Inf(neg) => {
                let f = v.to.fmt();
                Expect::Bits(f.inf() | if neg { f.sign() } else { 0 })
            }
            Val::Fin(neg, mag, exp) => Expect::Bits(round_exact(
                neg,
                mag,
                exp,
                v.to.fmt(),
                mode.unwrap_or(Mode::Rte),
            )),
        },
        (Ty::Int(..), Ty::Int(..)) => {
            let n = from.int_value(x);
            let n = if v.sat {
                let (min, max) = v.to.range();
                n.clamp(min, max)
            } else {
                n
            };
            Expect::Bits(n as u64 & v.to.mask())
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The inputs.

/// xorshift64*: deterministic pseudo-random bits.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

/// The f64 bits of a value.
fn f64_val(x: f64) -> Val {
    decode(x.to_bits(), F64)
}

/// Rounds an f64 to the format's nearest (the format's bits).
fn to_fmt(x: f64, f: Fmt) -> u64 {
    match f64_val(x) {
        Val::Nan => f.inf() | (1 << (f.p - 2)),
        Val::Inf(neg) => f.inf() | if neg { f.sign() } else { 0 },
        Val::Fin(neg, mag, exp) => round_exact(neg, mag, exp, f, Mode::Rte),
    }
}

fn float_inputs(f: Fmt, rng: &mut Rng) -> Vec<u64> {
    let p2 = |k: i32| 2f64.powi(k);
    let mut keys = vec![
        0.0,
        0.25,
        0.5,
        0.75,
        1.0,
        1.5,
        2.0,
        2.5,
        3.5,
        0.1,
        1.0 / 3.0,
        126.5,
        127.5,
        128.0,
        128.5,
        129.5,
        254.5,
        255.5,
        256.0,
        256.5,
        300.75,
        32766.5,
        32767.5,
        32768.0,
        32768.5,
        65504.0,
        65519.0,
        65520.0,
        65534.5,
        65535.5,
        65536.0,
        65536.5,
        131008.0,
        2147483646.5,
        2147483647.5,
        2147483648.0,
        2147483648.5,
        2147483649.0,
        3e9,
        4294967294.5,
        4294967295.5,
        4294967296.0,
        4294967296.5,
        p2(24),
        p2(24) + 1.0,
        p2(24) + 2.0,
        p2(24) + 3.0,
        p2(53),
        p2(53) + 2.0,
        p2(62) * 3.0,
        p2(63),
        p2(64),
        p2(65),
        p2(-24),
        p2(-25),
        3.0 * p2(-25),
        p2(-14),
        p2(-14) - p2(-24),
        p2(-15),
        p2(-149),
        p2(-150),
        3.0 * p2(-150),
        p2(-126),
        f64::from(f32::MAX),
        f64::from(f32::MAX) + p2(103),
        1.0 + p2(-11),
        1.0 + 3.0 * p2(-11),
        1.0 + p2(-11) + p2(-24),
        1.0 + p2(-11) + p2(-40),
        1.0 + p2(-24),
        1.0 + 3.0 * p2(-24),
        1.0 + p2(-24) + p2(-53),
        1e10,
        1e20,
        1e30,
        1e40,
        1e300,
        f64::MAX,
        f64::MIN_POSITIVE,
        f64::from_bits(1),
        f64::INFINITY,
        f64::NAN,
    ];
    // Pseudo-random magnitudes from 2^-30 to 2^70.
    for _ in 0..150 {
        let m = (rng.next() >> 11) as f64 / p2(53);
        let e = (rng.next() % 100) as i32 - 30;
        keys.push((1.0 + m) * p2(e));
    }
    let mut out = BTreeSet::new();
    let mask = u64::MAX >> (64 - f.w);
    for k in keys {
        let b = to_fmt(k, f);
        for d in [0u64, 1, 2, mask, mask - 1] {
            let x = b.wrapping_add(d) & mask;
            out.insert(x);
            out.insert(x ^ f.sign());
        }
    }
    // Uniform bit patterns, and the format's own edges.
    for _ in 0..150 {
        out.insert(rng.next() & mask);
    }
    for b in [
        1,
        (1 << (f.p - 1)) - 1,
        1 << (f.p - 1),
        f.inf() - 1,
        f.inf(),
    ] {
        out.insert(b);
        out.insert(b | f.sign());
    }
    out.into_iter().collect()
}

fn int_inputs(t: Ty, rng: &mut Rng) -> Vec<u64> {
    let mut vals: Vec<i128> = vec![0, 1, 2, 3, 65504, 65519, 65520, 65535, 65536, 300];
    for k in 0..=64 {
        let b = 1i128 << k;
        vals.extend([b - 1, b, b + 1]);
        for p in [11, 24, 53] {
            if k > p {
                let half_ulp = 1i128 << (k - p);
                for j in 1..=3 {
                    for d in -1..=1 {
                        vals.push(b + j * half_ulp + d);
                    }
                }
            }
        }
    }
    for t2 in TYPES {
        if let Ty::Int(..) = t2 {
            let (min, max) = t2.range();
            vals.extend([min - 1, min, min + 1, max - 1, max, max + 1]);
        }
    }
    for _ in 0..200 {
        let r = rng.next();
        vals.push(i128::from(r >> (rng.next() % 64)));
    }
    let mut out = BTreeSet::new();
    for v in vals {
        for s in [v, -v] {
            out.insert((s as u64) & t.mask());
        }
    }
    out.into_iter().collect()
}

// ---------------------------------------------------------------------------------------------
// The modules.

/// The conversions from `from` the sweep runs.
fn variants(from: Ty) -> Vec<Variant> {
    let mut out = Vec::new();
    for to in TYPES {
        if to == from {
            continue;
        }
        match (from, to) {
            (Ty::Float(_), Ty::Int(_, signed)) => {
                for sat in [false, true] {
                    for mode in MODES {
                        let op = if signed { "ConvertFToS" } else { "ConvertFToU" };
                        out.push(Variant { op, to, sat, mode });
                    }
                }
            }
            (Ty::Int(_, signed), Ty::Float(_)) => {
                for mode in MODES {
                    let op = if signed { "ConvertSToF" } else { "ConvertUToF" };
                    out.push(Variant {
                        op,
                        to,
                        sat: false,
                        mode,
                    });
                }
            }
            (Ty::Float(a), Ty::Float(b)) if a != b => {
                for mode in MODES {
                    out.push(Variant {
                        op: "FConvert",
                        to,
                        sat: false,
                        mode,
                    });
                }
            }
            (Ty::Int(a, sa), Ty::Int(b, sb)) => {
                // S/UConvert: between widths, the result read as the operand is.
                if a != b && sa == sb {
                    let op = if sa { "SConvert" } else { "UConvert" };
                    for (sat, mode) in [(false, None), (true, None), (true, Some(Mode::Rtp))] {
                        out.push(Variant { op, to, sat, mode });
                    }
                }
                if sa && !sb {
                    out.push(Variant {
                        op: "SatConvertSToU",
                        to,
                        sat: true,
                        mode: None,
                    });
                }
                if !sa && sb {
                    out.push(Variant {
                        op: "SatConvertUToS",
                        to,
                        sat: true,
                        mode: None,
                    });
                }
            }
            _ => {}
        }
    }
    out
}

/// The storage type of `t`'s bits: one output buffer per width and kind.
fn storage(t: Ty) -> Ty {
    match t {
        Ty::Int(w, _) => Ty::Int(w, false),
        f => f,
    }
}

/// The sweep's module for `from`: `k(in, in4, out...)`; invocation `g` converts `in[g]` with
/// every variant into `out_T[slot * 5n + g]` and the vector `in4[4g..4g+4]` into
/// `out_T[slot * 5n + n + 4g ..]`, `out_T` the buffer of the result's storage type.
fn module_text(from: Ty, vs: &[Variant], outs: &[Ty], n: usize) -> String {
    let mut t = String::new();
    t.push_str(
        "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int8\nOpCapability Int16\n\
         OpCapability Int64\nOpCapability Float16\nOpCapability Float64\n\
         OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %k \"k\" %gid\n\
         OpDecorate %gid BuiltIn GlobalInvocationId\n",
    );
    for (j, v) in vs.iter().enumerate() {
        for r in [format!("%r{j}"), format!("%rv{j}")] {
            if v.sat && !v.op.starts_with("Sat") {
                writeln!(t, "OpDecorate {r} SaturatedConversion").unwrap();
            }
            if let Some(m) = v.mode {
                writeln!(t, "OpDecorate {r} FPRoundingMode {}", m.name()).unwrap();
            }
        }
    }
    t.push_str("%void = OpTypeVoid\n");
    for w in [8, 16, 32, 64] {
        writeln!(t, "%i{w} = OpTypeInt {w} 0").unwrap();
    }
    for w in [16, 32, 64] {
        writeln!(t, "%f{w} = OpTypeFloat {w}").unwrap();
    }
    for s in ["i8", "i16", "i32", "i64", "f16", "f32", "f64"] {
        writeln!(t, "%v4{s} = OpTypeVector %{s} 4").unwrap();
        writeln!(t, "%p{s} = OpTypePointer CrossWorkgroup %{s}").unwrap();
        writeln!(t, "%pv4{s} = OpTypePointer CrossWorkgroup %v4{s}").unwrap();
    }
    t.push_str(
        "%v3i64 = OpTypeVector %i64 3\n%pin = OpTypePointer Input %v3i64\n\
         %gid = OpVariable %pin Input\n",
    );
    let src = from.id();
    let params: String = outs.iter().map(|o| format!(" %p{}", o.id())).collect();
    writeln!(t, "%fnty = OpTypeFunction %void %p{src} %p{src}{params}").unwrap();
    let mut consts = BTreeMap::new();
    let mut c = |v: usize, t: &mut String| -> String {
        let name = format!("%c{v}");
        if consts.insert(v, ()).is_none() {
            writeln!(t, "{name} = OpConstant %i64 {v}").unwrap();
        }
        name
    };
    let c4 = c(4, &mut t);
    let mut bases = Vec::new();
    let mut slots: BTreeMap<Ty, usize> = BTreeMap::new();
    for v in vs {
        let slot = slots.entry(storage(v.to)).or_insert(0);
        bases.push((c(*slot * 5 * n, &mut t), c(*slot * 5 * n + n, &mut t)));
        *slot += 1;
    }
    writeln!(t, "%k = OpFunction %void None %fnty").unwrap();
    writeln!(t, "%in = OpFunctionParameter %p{src}").unwrap();
    writeln!(t, "%in4 = OpFunctionParameter %p{src}").unwrap();
    for o in outs {
        writeln!(t, "%out{} = OpFunctionParameter %p{}", o.id(), o.id()).unwrap();
    }
    t.push_str("%entry = OpLabel\n%g3 = OpLoad %v3i64 %gid\n%g = OpCompositeExtract %i64 %g3 0\n");
    writeln!(t, "%pi = OpInBoundsPtrAccessChain %p{src} %in %g").unwrap();
    writeln!(t, "%x = OpLoad %{src} %pi").unwrap();
    writeln!(t, "%g4 = OpIMul %i64 %g {c4}").unwrap();
    writeln!(t, "%piv = OpInBoundsPtrAccessChain %p{src} %in4 %g4").unwrap();
    writeln!(t, "%pivv = OpBitcast %pv4{src} %piv").unwrap();
    writeln!(t, "%xv = OpLoad %v4{src} %pivv").unwrap();
    for (j, v) in vs.iter().enumerate() {
        let d = v.to.id();
        let o = storage(v.to).id();
        let (bs, bv) = &bases[j];
        writeln!(t, "%r{j} = Op{} %{d} %x", v.op).unwrap();
        writeln!(t, "%a{j} = OpIAdd %i64 %g {bs}").unwrap();
        writeln!(t, "%pa{j} = OpInBoundsPtrAccessChain %p{d} %out{o} %a{j}").unwrap();
        writeln!(t, "OpStore %pa{j} %r{j}").unwrap();
        writeln!(t, "%rv{j} = Op{} %v4{d} %xv", v.op).unwrap();
        writeln!(t, "%b{j} = OpIAdd %i64 %g4 {bv}").unwrap();
        writeln!(t, "%pb{j} = OpInBoundsPtrAccessChain %p{d} %out{o} %b{j}").unwrap();
        writeln!(t, "%pbv{j} = OpBitcast %pv4{d} %pb{j}").unwrap();
        writeln!(t, "OpStore %pbv{j} %rv{j}").unwrap();
    }
    t.push_str("OpReturn\nOpFunctionEnd\n");
    t
}

fn tmp(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("run_conversions");
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Runs a command; panics with its output when it fails.
fn run_ok(cmd: &mut Command) -> Vec<u8> {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?}: {}\n{}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn spirv_val(path: &Path, env: &str) {
    run_ok(
        Command::new("spirv-val")
            .args(["--target-env", env])
            .arg(path),
    );
}

/// Packs `values` (bits) of `t` little-endian.
fn pack(t: Ty, values: &[u64]) -> Vec<u8> {
    let n = (t.width() / 8) as usize;
    values
        .iter()
        .flat_map(|v| v.to_le_bytes()[..n].to_vec())
        .collect()
}

fn unpack(t: Ty, bytes: &[u8]) -> Vec<u64> {
    let n = (t.width() / 8) as usize;
    bytes
        .chunks_exact(n)
        .map(|c| {
            let mut b = [0u8; 8];
            b[..n].copy_from_slice(c);
            u64::from_le_bytes(b)
        })
        .collect()
}

fn buffer(t: Ty, bytes: Vec<u8>) -> KernelArg {
    KernelArg::Buffer(TypedBytes {
        layout: Layout(vec![t.layout()]),
        bytes,
    })
}

/// Checks one run's output buffers against the reference; the first mismatches, described.
fn compare(
    from: Ty,
    vs: &[Variant],
    inputs: &[u64],
    n: usize,
    outs: &[Ty],
    got: &[Vec<u64>],
) -> Vec<String> {
    let mut errors = Vec::new();
    let mut slots: BTreeMap<Ty, usize> = BTreeMap::new();
    for v in vs {
        let o = outs.iter().position(|&t| t == storage(v.to)).unwrap();
        let slot = slots.entry(storage(v.to)).or_insert(0);
        let base = *slot * 5 * n;
        *slot += 1;
        let fmt = |b: u64| format!("{b:#x}");
        for (i, &x) in inputs.iter().enumerate() {
            let want = reference(from, v, x);
            for (form, at) in [("scalar", base + i), ("vector", base + n + i)] {
                let g = got[o][at];
                let ok = match want {
                    Expect::Any => true,
                    Expect::Nan => v.to.fmt().is_nan(g),
                    Expect::Bits(b) => g == b,
                };
                if !ok && errors.len() < 20 {
                    errors.push(format!(
                        "{} ({form}) of {} gives {}, expected {want:x?}",
                        v.describe(from),
                        fmt(x),
                        fmt(g)
                    ));
                }
            }
        }
    }
    errors
}

/// Runs `words` on `inputs`; the output buffers' bits.
fn run_module(
    words: &[u32],
    from: Ty,
    inputs: &[u64],
    outs: &[Ty],
    lens: &[usize],
    opt: OptLevel,
) -> Vec<Vec<u64>> {
    let n = inputs.len();
    // The vector input: element 4g + k is input (4g + k) mod n.
    let four: Vec<u64> = (0..4 * n).map(|i| inputs[i % n]).collect();
    let mut args = vec![
        buffer(from, pack(from, inputs)),
        buffer(from, pack(from, &four)),
    ];
    for (o, len) in outs.iter().zip(lens) {
        args.push(buffer(*o, vec![0; len * (o.width() / 8) as usize]));
    }
    let job = Job {
        entry: Some("k".into()),
        dispatch: [(n / 64) as u32, 1, 1],
        local_size: Some([64, 1, 1]),
        args,
        ..Job::default()
    };
    let options = RunOptions {
        opt,
        ..RunOptions::default()
    };
    let out = run_spirv(words, &job, &options).unwrap_or_else(|e| panic!("{e}"));
    outs.iter()
        .enumerate()
        .map(|(i, o)| unpack(*o, &out.arg(2 + i).unwrap().bytes))
        .collect()
}

/// The `__spirv_*Convert*` builtins an LLVM IR text calls, by unmangled name.
fn convert_builtins(ir: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (i, _) in ir.match_indices("__spirv_") {
        let name: String = ir[i..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !name.contains("Convert") {
            continue;
        }
        // `_Z<len>__spirv_...<params>`: the length before the name says where it ends.
        let digits: String = ir[..i]
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_digit())
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        match digits.parse::<usize>() {
            Ok(len) if len <= name.len() => out.insert(name[..len].to_string()),
            _ => out.insert(name),
        };
    }
    out
}

#[test]
fn every_conversion_matches_the_exact_reference() {
    let started = std::time::Instant::now();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut failures = Vec::new();
    let mut compared = 0usize;
    for from in TYPES {
        let vs = variants(from);
        let mut inputs = match from {
            Ty::Float(_) => float_inputs(from.fmt(), &mut rng),
            _ => int_inputs(from, &mut rng),
        };
        // A whole number of workgroups of 64.
        while inputs.len() % 64 != 0 {
            inputs.push(0);
        }
        let n = inputs.len();
        let outs: Vec<Ty> = vs
            .iter()
            .map(|v| storage(v.to))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let lens: Vec<usize> = outs
            .iter()
            .map(|o| vs.iter().filter(|v| storage(v.to) == *o).count() * 5 * n)
            .collect();
        let text = module_text(from, &vs, &outs, n);
        let opts = spvkit::text::AssembleOptions {
            target_env: "spv1.0".parse().unwrap(),
            ..Default::default()
        };
        let words = spvkit::text::assemble(&text, &opts)
            .unwrap_or_else(|e| panic!("assembling the {} module: {e}", from.name()));
        let spv = tmp(&format!("{}.spv", from.name()));
        std::fs::write(&spv, bytes_of(&words)).unwrap();
        spirv_val(&spv, "spv1.0");

        let got = run_module(&words, from, &inputs, &outs, &lens, OptLevel::O2);
        compared += vs.len() * n * 2;
        for e in compare(from, &vs, &inputs, n, &outs, &got) {
            failures.push(e);
        }

        // The spv-ir round trip: spvkit's SPIR-V-friendly LLVM IR, read back by from-llvm, run
        // unoptimised (so the lowering is checked before and after LLVM's optimiser too).
        let cx = inkwell::context::Context::create();
        let opts = spvkit::lower::LowerOptions {
            style: spvkit::lower::LowerStyle::SpvIr,
            ..Default::default()
        };
        let lowered = spvkit::lower::lower_binary(&cx, &words, &opts)
            .unwrap_or_else(|e| panic!("spv-ir of the {} module: {e}", from.name()));
        let ir = lowered.module.print_to_string().to_string();
        let back = spvkit::from_llvm::from_llvm_module(
            &lowered.module,
            &spvkit::from_llvm::FromLlvmOptions::default(),
        )
        .unwrap_or_else(|e| panic!("from-llvm of the {} spv-ir: {e}", from.name()));
        let back = spvkit::ir::serialize(&back).unwrap();
        let back_path = tmp(&format!("{}.spv-ir.spv", from.name()));
        std::fs::write(&back_path, bytes_of(&back)).unwrap();
        spirv_val(&back_path, "spv1.0");
        let again = run_module(&back, from, &inputs, &outs, &lens, OptLevel::O0);
        for (o, (a, b)) in outs.iter().zip(got.iter().zip(&again)) {
            if a != b {
                let i = a.iter().zip(b).position(|(x, y)| x != y).unwrap();
                failures.push(format!(
                    "{}: the spv-ir round trip changes {} output {i}: {:#x} → {:#x}",
                    from.name(),
                    o.name(),
                    a[i],
                    b[i]
                ));
            }
        }

        // The builtin names are llvm-spirv-15's.
        let oracle = tmp(&format!("{}.oracle.bc", from.name()));
        run_ok(
            Command::new("llvm-spirv-15")
                .args(["-r", "--spirv-target-env=SPV-IR"])
                .arg(&spv)
                .arg("-o")
                .arg(&oracle),
        );
        let oracle_ir = String::from_utf8(run_ok(
            Command::new("llvm-dis-15").arg(&oracle).arg("-o").arg("-"),
        ))
        .unwrap();
        let (ours, theirs) = (convert_builtins(&ir), convert_builtins(&oracle_ir));
        if ours != theirs {
            failures.push(format!(
                "{}: __spirv_ builtins differ from llvm-spirv-15's:\n only spvkit: {:?}\n only \
                 llvm-spirv-15: {:?}",
                from.name(),
                ours.difference(&theirs).collect::<Vec<_>>(),
                theirs.difference(&ours).collect::<Vec<_>>()
            ));
        }
    }
    eprintln!(
        "{compared} results compared in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A Kernel module `k(float *out)` with `decorations`, `constants` and `body` (which stores into
/// `%out` through `%p0`, `%p1`, ...), assembled and validated.
fn small_kernel(name: &str, decorations: &str, constants: &str, body: &str) -> Vec<u32> {
    let text = format!(
        "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\nOpCapability Float64\n\
         OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %k \"k\"\n{decorations}\
         %void = OpTypeVoid\n%i32 = OpTypeInt 32 0\n%i64 = OpTypeInt 64 0\n\
         %f32 = OpTypeFloat 32\n%f64 = OpTypeFloat 64\n%pf = OpTypePointer CrossWorkgroup %f32\n\
         %pi = OpTypePointer CrossWorkgroup %i32\n%fnty = OpTypeFunction %void %pf\n\
         %c0 = OpConstant %i64 0\n%c1 = OpConstant %i64 1\n%c2 = OpConstant %i64 2\n\
         %c3 = OpConstant %i64 3\n%f1 = OpConstant %f32 1.5\n{constants}\
         %k = OpFunction %void None %fnty\n%out = OpFunctionParameter %pf\n%entry = OpLabel\n\
         %p0 = OpInBoundsPtrAccessChain %pf %out %c0\n%p1 = OpInBoundsPtrAccessChain %pf %out %c1\n\
         %p2 = OpInBoundsPtrAccessChain %pf %out %c2\n%p3 = OpInBoundsPtrAccessChain %pf %out %c3\n\
         {body}OpReturn\nOpFunctionEnd\n"
    );
    let opts = spvkit::text::AssembleOptions {
        target_env: "spv1.0".parse().unwrap(),
        ..Default::default()
    };
    let words = spvkit::text::assemble(&text, &opts).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let path = tmp(&format!("{name}.spv"));
    std::fs::write(&path, bytes_of(&words)).unwrap();
    spirv_val(&path, "spv1.0");
    words
}

/// The lowering's error for `words`, if any.
fn lower_error(words: &[u32]) -> Option<spvkit::lower::LowerError> {
    let cx = inkwell::context::Context::create();
    spvkit::lower::lower_binary(&cx, words, &spvkit::lower::LowerOptions::default()).err()
}

#[test]
fn rounding_and_saturation_elsewhere_are_refused_by_name() {
    // A directed rounding mode on arithmetic: refused, naming the op (RTE is what LLVM does).
    let cases = [
        (
            "fadd_rtz",
            "OpDecorate %x FPRoundingMode RTZ\n",
            "%x = OpFAdd %f32 %f1 %f1\n",
            Some(("OpFAdd", "FPRoundingMode RTZ")),
        ),
        (
            "fmul_rtp",
            "OpDecorate %x FPRoundingMode RTP\n",
            "%x = OpFMul %f32 %f1 %f1\n",
            Some(("OpFMul", "FPRoundingMode RTP")),
        ),
        (
            "fdiv_rtn",
            "OpDecorate %x FPRoundingMode RTN\n",
            "%x = OpFDiv %f32 %f1 %f1\n",
            Some(("OpFDiv", "FPRoundingMode RTN")),
        ),
        (
            "fadd_rte",
            "OpDecorate %x FPRoundingMode RTE\n",
            "%x = OpFAdd %f32 %f1 %f1\n",
            None,
        ),
        (
            "fconvert_sat",
            "OpDecorate %y SaturatedConversion\n",
            "%d = OpFConvert %f64 %f1\n%y = OpFConvert %f32 %d\n%x = OpFAdd %f32 %y %y\n",
            Some(("OpFConvert", "SaturatedConversion")),
        ),
        (
            "stof_sat",
            "OpDecorate %y SaturatedConversion\n",
            "%i = OpConvertFToS %i32 %f1\n%y = OpConvertSToF %f32 %i\n%x = OpFAdd %f32 %y %y\n",
            Some(("OpConvertSToF", "SaturatedConversion")),
        ),
        (
            "fnegate_sat",
            "OpDecorate %x SaturatedConversion\n",
            "%x = OpFNegate %f32 %f1\n",
            Some(("OpFNegate", "SaturatedConversion")),
        ),
    ];
    for (name, decorations, body, want) in cases {
        let words = small_kernel(name, decorations, "", &format!("{body}OpStore %p0 %x\n"));
        match (lower_error(&words), want) {
            (None, None) => {}
            (Some(e), Some((op, what))) => {
                assert_eq!(e.op, op, "{name}: {e}");
                assert!(e.reason.contains(what), "{name}: {e}");
                assert!(e.offset.is_some(), "{name}: {e} has no offset");
            }
            (got, want) => panic!("{name}: lowering gave {got:?}, expected {want:?}"),
        }
        // The spv-ir style carries the decorations instead.
        let cx = inkwell::context::Context::create();
        let opts = spvkit::lower::LowerOptions {
            style: spvkit::lower::LowerStyle::SpvIr,
            ..Default::default()
        };
        let lowered = spvkit::lower::lower_binary(&cx, &words, &opts).map(|_| ());
        assert_eq!(lowered, Ok(()), "{name}: spv-ir");
    }
}

#[test]
fn specialization_constant_conversions_fold_exactly() {
    // 3e9 → int saturates; 2^24 + 1 → float rounds up (RTP); 1 + 2^-24 + 2^-50 → float toward
    // zero; 1 + 2^-24 → float to nearest even.
    let decorations = "OpDecorate %s1 FPRoundingMode RTP\nOpDecorate %s2 FPRoundingMode RTZ\n";
    let constants = "%big = OpConstant %f32 3e9\n%odd = OpConstant %i32 16777217\n\
                     %near = OpConstant %f64 0x1.0000010000004p+0\n\
                     %tie = OpConstant %f64 0x1.000001p+0\n\
                     %s0 = OpSpecConstantOp %i32 ConvertFToS %big\n\
                     %s1 = OpSpecConstantOp %f32 ConvertSToF %odd\n\
                     %s2 = OpSpecConstantOp %f32 FConvert %near\n\
                     %s3 = OpSpecConstantOp %f32 FConvert %tie\n";
    let body = "%q0 = OpBitcast %pi %p0\nOpStore %q0 %s0\nOpStore %p1 %s1\nOpStore %p2 %s2\n\
                OpStore %p3 %s3\n";
    let words = small_kernel("spec_ops", decorations, constants, body);
    let job = Job {
        entry: Some("k".into()),
        dispatch: [1, 1, 1],
        local_size: Some([1, 1, 1]),
        args: vec![buffer(Ty::Float(32), vec![0; 16])],
        ..Job::default()
    };
    let out = run_spirv(&words, &job, &RunOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let got = unpack(Ty::Float(32), &out.arg(0).unwrap().bytes);
    let p = |x: f64| f64_val(x);
    let rounded = |v: Val, mode: Mode| match v {
        Val::Fin(neg, mag, exp) => round_exact(neg, mag, exp, F32, mode),
        _ => unreachable!(),
    };
    assert_eq!(got[0], i32::MAX as u32 as u64, "ConvertFToS 3e9");
    assert_eq!(
        got[1],
        round_exact(false, 16777217, 0, F32, Mode::Rtp),
        "ConvertSToF RTP"
    );
    let near = 1.0 + 2f64.powi(-24) + 2f64.powi(-50);
    assert_eq!(got[2], rounded(p(near), Mode::Rtz), "FConvert RTZ");
    assert_eq!(
        got[3],
        rounded(p(1.0 + 2f64.powi(-24)), Mode::Rte),
        "FConvert"
    );
    // A directed float → integer rounding does not fold: refused, naming the op.
    let words = small_kernel(
        "spec_ftos_rtp",
        "OpDecorate %s0 FPRoundingMode RTP\n",
        "%big = OpConstant %f32 2.5\n%s0 = OpSpecConstantOp %i32 ConvertFToS %big\n",
        "%q0 = OpBitcast %pi %p0\nOpStore %q0 %s0\n",
    );
    let e = lower_error(&words).expect("an error");
    assert!(e.op.contains("ConvertFToS"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// OpenCL C.

/// The issue's conversions, one output slot each; `as_*` keeps the bits.
#[cfg(feature = "cli")]
const KERNEL: &str = r#"
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void conversions(__global const uint *fbits, __global const int *ints,
                          __global const long *longs, __global const ulong *ulongs,
                          __global const ulong *dbits, __global uchar *o_uc, __global int *o_i,
                          __global short *o_s, __global char *o_c, __global uint *o_f,
                          __global ushort *o_h, __global half *o_vh, __global char *o_c4) {
    size_t g = get_global_id(0);
    size_t n = get_global_size(0);
    float f = as_float(fbits[g]);
    double d = as_double(dbits[g]);
    o_uc[g] = convert_uchar_sat(f);
    o_i[g] = convert_int_sat(f);
    o_s[g] = convert_short_sat_rte(f);
    o_c[g] = convert_char_sat_rtp(f);
    o_f[12 * g + 0] = as_uint(convert_float_rtp(ints[g]));
    o_f[12 * g + 1] = as_uint(convert_float_rtn(ints[g]));
    o_f[12 * g + 2] = as_uint(convert_float_rtz(ints[g]));
    o_f[12 * g + 3] = as_uint(convert_float_rtp(longs[g]));
    o_f[12 * g + 4] = as_uint(convert_float_rtn(longs[g]));
    o_f[12 * g + 5] = as_uint(convert_float_rtz(longs[g]));
    o_f[12 * g + 6] = as_uint(convert_float_rtp(ulongs[g]));
    o_f[12 * g + 7] = as_uint(convert_float_rtn(ulongs[g]));
    o_f[12 * g + 8] = as_uint(convert_float_rtn(d));
    o_f[12 * g + 9] = as_uint(convert_float_rtp(d));
    o_f[12 * g + 10] = as_uint(convert_float_rtz(d));
    o_f[12 * g + 11] = as_uint(convert_float(d));
    o_h[8 * g + 0] = as_ushort(convert_half_rtp(f));
    o_h[8 * g + 1] = as_ushort(convert_half_rtn(f));
    o_h[8 * g + 2] = as_ushort(convert_half_rtz(f));
    o_h[8 * g + 3] = as_ushort(convert_half_rtp(d));
    o_h[8 * g + 4] = as_ushort(convert_half_rtn(d));
    o_h[8 * g + 5] = as_ushort(convert_half(d));
    o_h[8 * g + 6] = as_ushort(convert_half_rtp(ints[g]));
    o_h[8 * g + 7] = as_ushort(convert_half_rtn(longs[g]));
    vstore_half_rtp(f, 4 * g + 0, o_vh);
    vstore_half_rtn(f, 4 * g + 1, o_vh);
    vstore_half_rtz(d, 4 * g + 2, o_vh);
    vstore_half_rtp(d, 4 * g + 3, o_vh);
    float4 v = (float4)(f, as_float(fbits[(g + 1) % n]), as_float(fbits[(g + 2) % n]),
                        as_float(fbits[(g + 3) % n]));
    vstore4(convert_char4_sat_rtn(v), g, o_c4);
}
"#;

/// What each output of [`KERNEL`] computes: (output buffer, slots per invocation, slot, source
/// buffer, conversion).
#[cfg(feature = "cli")]
fn kernel_outputs() -> Vec<(usize, usize, usize, usize, Ty, Variant)> {
    let v = |op: &'static str, to: Ty, sat: bool, mode: Option<Mode>| Variant { op, to, sat, mode };
    let (f32t, f64t, f16t) = (Ty::Float(32), Ty::Float(64), Ty::Float(16));
    let (i32t, i64t, u64t) = (Ty::Int(32, true), Ty::Int(64, true), Ty::Int(64, false));
    let (rtp, rtn, rtz) = (Some(Mode::Rtp), Some(Mode::Rtn), Some(Mode::Rtz));
    let mut out = vec![
        (
            5,
            1,
            0,
            0,
            f32t,
            v("ConvertFToU", Ty::Int(8, false), true, None),
        ),
        (6, 1, 0, 0, f32t, v("ConvertFToS", i32t, true, None)),
        (
            7,
            1,
            0,
            0,
            f32t,
            v("ConvertFToS", Ty::Int(16, true), true, Some(Mode::Rte)),
        ),
        (
            8,
            1,
            0,
            0,
            f32t,
            v("ConvertFToS", Ty::Int(8, true), true, rtp),
        ),
    ];
    let to_f = [
        (1, i32t, rtp),
        (1, i32t, rtn),
        (1, i32t, rtz),
        (2, i64t, rtp),
        (2, i64t, rtn),
        (2, i64t, rtz),
        (3, u64t, rtp),
        (3, u64t, rtn),
        (4, f64t, rtn),
        (4, f64t, rtp),
        (4, f64t, rtz),
        (4, f64t, None),
    ];
    for (slot, &(src, from, mode)) in to_f.iter().enumerate() {
        let op = match from {
            Ty::Float(_) => "FConvert",
            Ty::Int(_, true) => "ConvertSToF",
            _ => "ConvertUToF",
        };
        out.push((9, 12, slot, src, from, v(op, f32t, false, mode)));
    }
    let to_h = [
        (0, f32t, rtp),
        (0, f32t, rtn),
        (0, f32t, rtz),
        (4, f64t, rtp),
        (4, f64t, rtn),
        (4, f64t, None),
        (1, i32t, rtp),
        (2, i64t, rtn),
    ];
    for (slot, &(src, from, mode)) in to_h.iter().enumerate() {
        let op = match from {
            Ty::Float(_) => "FConvert",
            _ => "ConvertSToF",
        };
        out.push((10, 8, slot, src, from, v(op, f16t, false, mode)));
    }
    for (slot, &(src, from, mode)) in [
        (0, f32t, rtp),
        (0, f32t, rtn),
        (4, f64t, rtz),
        (4, f64t, rtp),
    ]
    .iter()
    .enumerate()
    {
        out.push((11, 4, slot, src, from, v("FConvert", f16t, false, mode)));
    }
    out
}

/// The inputs of [`KERNEL`]: float bits, ints, longs, ulongs, double bits (32 of each).
#[cfg(feature = "cli")]
fn kernel_inputs() -> [Vec<u64>; 5] {
    let p2 = |k: i32| 2f64.powi(k);
    let floats: Vec<u64> = [
        -300.75,
        3e9,
        -3e9,
        2.5,
        -2.5,
        1.5,
        0.5,
        -0.5,
        127.5,
        128.0,
        -128.5,
        -129.0,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        1.0 + p2(-11),
        1.0 + p2(-11) + p2(-23),
        65519.0,
        65520.0,
        1e-8,
        -1e-8,
        6e-8,
        p2(-25),
        32767.5,
        -32768.5,
        2147483520.0,
        -2147483904.0,
        -0.0,
        1e30,
        3.4e38,
        254.5,
        255.5,
    ]
    .iter()
    .map(|&x| u64::from((x as f32).to_bits()))
    .collect();
    let ints: Vec<i64> = vec![
        16777217,
        -16777217,
        i32::MAX.into(),
        i32::MIN.into(),
        33554435,
        0,
        1,
        -1,
        65520,
        65519,
        -65520,
        2049,
        -2049,
        2051,
        100000,
        -100000,
        16777219,
        -16777219,
        1 << 30,
        (1 << 30) + 65,
        -(1 << 30) - 65,
        7,
        8193,
        -8195,
        123456789,
        -123456789,
        65504,
        65535,
        4095,
        4097,
        2147483583,
        -2147483583,
    ];
    let longs: Vec<i64> = vec![
        i64::MAX,
        i64::MIN,
        (1 << 53) + 1,
        -(1 << 53) - 1,
        (1 << 24) + 1,
        -(1 << 24) - 1,
        (1 << 56) + 1,
        -(1 << 56) - 1,
        0,
        1,
        -1,
        65519,
        65520,
        -65521,
        (1 << 40) + (1 << 16),
        (1 << 40) + (1 << 16) + 1,
        -(1 << 40) - (1 << 16) - 1,
        i64::MAX - 1,
        i64::MIN + 1,
        1 << 62,
        (1 << 62) + 1,
        123456789012345678,
        -123456789012345678,
        2049,
        -2049,
        4097,
        -4097,
        1 << 31,
        (1 << 32) + 1,
        -(1 << 32) - 1,
        9007199254740993,
        -9007199254740995,
    ];
    let ulongs: Vec<u64> = (0..32)
        .map(|i: u64| match i {
            0 => u64::MAX,
            1 => (1 << 63) + 1,
            2 => (1 << 63) - 1,
            3 => (1 << 24) + 1,
            4 => (1 << 40) + (1 << 16),
            5 => 0,
            _ => u64::MAX / (i * i + 1) + i,
        })
        .collect();
    let doubles: Vec<u64> = [
        1.0 + p2(-24),
        1.0 + p2(-24) + p2(-50),
        1.0 + 3.0 * p2(-24),
        0.1,
        -0.1,
        1e39,
        -1e39,
        1e-46,
        -1e-46,
        1.5 * p2(-149),
        f64::from(f32::MAX) + p2(103),
        f64::from(f32::MAX) + p2(102),
        1.0 + p2(-11) + p2(-24),
        1.0 + p2(-11),
        1.0 + p2(-11) - p2(-40),
        65520.0,
        65519.999,
        1e-8,
        p2(-25),
        p2(-25) + p2(-60),
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        -0.0,
        0.0,
        1.0 / 3.0,
        -2.0 / 3.0,
        1e300,
        -1e300,
        f64::MIN_POSITIVE,
        123456.789,
        -65504.5,
    ]
    .iter()
    .map(|x| x.to_bits())
    .collect();
    [
        floats,
        ints.iter().map(|&x| x as u32 as u64).collect(),
        longs.iter().map(|&x| x as u64).collect(),
        ulongs,
        doubles,
    ]
}

#[cfg(feature = "cli")]
fn spvkit_cli() -> Command {
    Command::new(env!("CARGO_BIN_EXE_spvkit"))
}

/// `spvkit run` of [`KERNEL`]'s SPIR-V at `spv`: every buffer's values (bits).
#[cfg(feature = "cli")]
fn run_kernel(spv: &Path, tag: &str) -> Vec<Vec<u64>> {
    use serde_json::{json, Value};
    const N: usize = 32;
    let inputs = kernel_inputs();
    let layouts = ["u32", "u32", "u64", "u64", "u64"];
    let mut args: Vec<Value> = inputs
        .iter()
        .zip(layouts)
        .map(|(d, l)| json!({"kind": "buffer", "layout": [l], "data": d}))
        .collect();
    for (layout, len) in [
        ("u8", N),
        ("u32", N),
        ("u16", N),
        ("u8", N),
        ("u32", 12 * N),
        ("u16", 8 * N),
        ("u16", 4 * N),
        ("u8", 4 * N),
    ] {
        args.push(json!({"kind": "buffer", "layout": [layout], "data": vec![0; len]}));
    }
    let job = json!({"entry": "conversions", "local_size": [N], "global_size": [N], "args": args});
    let job_path = tmp(&format!("{tag}.job.json"));
    std::fs::write(&job_path, job.to_string()).unwrap();
    let out = run_ok(spvkit_cli().arg("run").arg(spv).arg("--job").arg(&job_path));
    let v: Value = serde_json::from_slice(&out).unwrap();
    v["buffers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            b["data"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap())
                .collect()
        })
        .collect()
}

/// Checks [`KERNEL`]'s buffers against the reference.
#[cfg(feature = "cli")]
fn check_kernel(got: &[Vec<u64>], tag: &str) {
    let inputs = kernel_inputs();
    let mut errors = Vec::new();
    for (buf, per, slot, src, from, v) in kernel_outputs() {
        for (g, &x) in inputs[src].iter().enumerate() {
            let want = reference(from, &v, x & from.mask());
            let have = got[buf][per * g + slot];
            let ok = match want {
                Expect::Bits(b) => have == b,
                Expect::Nan => v.to.fmt().is_nan(have),
                Expect::Any => true,
            };
            if !ok {
                errors.push(format!(
                    "{tag}: {} of {x:#x} gives {have:#x}, expected {want:x?}",
                    v.describe(from)
                ));
            }
        }
    }
    // The vector: lane k of invocation g converts input g + k.
    let v = Variant {
        op: "ConvertFToS",
        to: Ty::Int(8, true),
        sat: true,
        mode: Some(Mode::Rtn),
    };
    let n = inputs[0].len();
    for g in 0..n {
        for k in 0..4 {
            let x = inputs[0][(g + k) % n];
            let want = reference(Ty::Float(32), &v, x);
            let have = got[12][4 * g + k];
            if want != Expect::Bits(have) {
                errors.push(format!(
                    "{tag}: convert_char4_sat_rtn lane {k} of {x:#x} gives {have:#x}, expected \
                     {want:x?}"
                ));
            }
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[cfg(feature = "cli")]
#[test]
fn opencl_c_conversions_from_clang_run_exactly() {
    let cl = tmp("conversions.cl");
    std::fs::write(&cl, KERNEL).unwrap();
    // The issue's examples, by value.
    let inputs = kernel_inputs();
    assert_eq!(f32::from_bits(inputs[0][0] as u32), -300.75);
    assert_eq!(f32::from_bits(inputs[0][1] as u32), 3e9);
    for (opt, pointers) in [("-O0", "-no-opaque-pointers"), ("-O2", "-opaque-pointers")] {
        let bc = tmp(&format!("conversions{opt}.bc"));
        run_ok(
            Command::new("clang-15")
                .args(["-cc1", "-triple", "spir64-unknown-unknown", "-cl-std=CL2.0"])
                .args(["-finclude-default-header", "-emit-llvm-bc", opt, pointers])
                .arg(&cl)
                .arg("-o")
                .arg(&bc),
        );
        // clang-15 → spvkit from-llvm → spvkit run.
        let spv = tmp(&format!("conversions{opt}.spv"));
        run_ok(spvkit_cli().arg("from-llvm").arg(&bc).arg("-o").arg(&spv));
        spirv_val(&spv, "spv1.0");
        let got = run_kernel(&spv, &format!("from-llvm{opt}"));
        assert_eq!(got[5][0], 0, "convert_uchar_sat(-300.75f)");
        assert_eq!(got[6][1], i32::MAX as u64, "convert_int_sat(3e9f)");
        check_kernel(&got, &format!("clang {opt} → from-llvm"));
        // The spv-ir round trip: spvkit lower --style spv-ir → from-llvm → run.
        let ll = tmp(&format!("conversions{opt}.spv-ir.ll"));
        run_ok(
            spvkit_cli()
                .args(["lower", "--style", "spv-ir"])
                .arg(&spv)
                .arg("-o")
                .arg(&ll),
        );
        let text = std::fs::read_to_string(&ll).unwrap();
        for name in [
            "__spirv_ConvertFToU_Ruchar_sat",
            "__spirv_ConvertFToS_Rshort_sat_rte",
            "__spirv_ConvertFToS_Rchar_sat_rtp",
            "__spirv_FConvert_Rhalf_rtp",
            "__spirv_ConvertSToF_Rfloat_rtn",
            "__spirv_ConvertUToF_Rfloat_rtp",
            "__spirv_ConvertFToS_Rchar4_sat_rtn",
        ] {
            assert!(text.contains(name), "spv-ir lacks {name}");
        }
        let back = tmp(&format!("conversions{opt}.spv-ir.spv"));
        run_ok(spvkit_cli().arg("from-llvm").arg(&ll).arg("-o").arg(&back));
        spirv_val(&back, "spv1.0");
        assert_eq!(run_kernel(&back, &format!("spv-ir{opt}")), got);
    }
    // llvm-spirv-15's SPIR-V of the same kernel runs to the same buffers.
    let bc = tmp("conversions-O0-no-opaque-pointers.bc");
    let spv = tmp("conversions.llvm-spirv.spv");
    run_ok(
        Command::new("clang-15")
            .args(["-cc1", "-triple", "spir64-unknown-unknown", "-cl-std=CL2.0"])
            .args(["-finclude-default-header", "-emit-llvm-bc", "-O0"])
            .arg("-no-opaque-pointers")
            .arg(&cl)
            .arg("-o")
            .arg(&bc),
    );
    run_ok(Command::new("llvm-spirv-15").arg(&bc).arg("-o").arg(&spv));
    check_kernel(&run_kernel(&spv, "llvm-spirv"), "clang → llvm-spirv-15");
}
