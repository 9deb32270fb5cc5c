//! Executes every hand-written special case of `spvkit::lower::special` with the LLVM JIT, over
//! edge cases and a deterministic pseudo-random sweep, against values computed here from the
//! SPIR-V semantics (plus the defined results the modules document for SPIR-V's undefined
//! cases).
//!
//! Each case is built into a tiny function `void k(ptr a0, ptr a1, ptr a2, ptr a3, ptr out)` that
//! loads its operands, calls the special case and stores the result; the module must pass the
//! verifier, and runs both as built and after LLVM's O2 pipeline (which is where poison would
//! show). Edge cases are also built with constant operands and folded by O2: the folded function
//! must not contain `poison` or `undef`.

#![cfg(feature = "llvm")]

use inkwell::builder::{Builder, BuilderError};
use inkwell::context::Context;
use inkwell::execution_engine::JitFunction;
use inkwell::module::Module;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{CodeModel, InitializationConfig, RelocMode, Target, TargetMachine};
use inkwell::types::{BasicTypeEnum, VectorType};
use inkwell::values::{BasicValue, BasicValueEnum, PointerValue};
use inkwell::{AddressSpace, OptimizationLevel};
use spvkit::grammar::FunctionControl;
use spvkit::lower::special;

// ---------------------------------------------------------------------------------------------
// Types and values

type Special = for<'ctx> fn(
    &'ctx Context,
    &Builder<'ctx>,
    &[BasicValueEnum<'ctx>],
    BasicTypeEnum<'ctx>,
) -> Result<BasicValueEnum<'ctx>, BuilderError>;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Elem {
    I(u32),
    F(u32),
}

/// A test type: an element and a lane count (0 = scalar).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Ty {
    elem: Elem,
    lanes: u32,
}

fn int(w: u32) -> Ty {
    Ty {
        elem: Elem::I(w),
        lanes: 0,
    }
}
fn vint(w: u32, n: u32) -> Ty {
    Ty {
        elem: Elem::I(w),
        lanes: n,
    }
}
fn float(w: u32) -> Ty {
    Ty {
        elem: Elem::F(w),
        lanes: 0,
    }
}
fn vfloat(w: u32, n: u32) -> Ty {
    Ty {
        elem: Elem::F(w),
        lanes: n,
    }
}

impl Ty {
    fn bits(self) -> u32 {
        match self.elem {
            Elem::I(w) | Elem::F(w) => w,
        }
    }
    fn lane_count(self) -> usize {
        self.lanes.max(1) as usize
    }
    /// Bytes per lane in the test buffers (booleans take a byte).
    fn lane_bytes(self) -> usize {
        (self.bits() as usize / 8).max(1)
    }
    fn mask(self) -> u64 {
        mask(self.bits())
    }
    fn with_lanes(self, lanes: u32) -> Ty {
        Ty { lanes, ..self }
    }
    fn elem_llvm<'c>(self, cx: &'c Context) -> BasicTypeEnum<'c> {
        match self.elem {
            Elem::I(1) => cx.bool_type().into(),
            Elem::I(8) => cx.i8_type().into(),
            Elem::I(16) => cx.i16_type().into(),
            Elem::I(32) => cx.i32_type().into(),
            Elem::I(_) => cx.i64_type().into(),
            Elem::F(16) => cx.f16_type().into(),
            Elem::F(32) => cx.f32_type().into(),
            Elem::F(_) => cx.f64_type().into(),
        }
    }
    fn llvm<'c>(self, cx: &'c Context) -> BasicTypeEnum<'c> {
        vector_of(self.elem_llvm(cx), self.lanes)
    }
    /// The type in memory: booleans as bytes.
    fn mem<'c>(self, cx: &'c Context) -> BasicTypeEnum<'c> {
        if self.elem == Elem::I(1) {
            vector_of(cx.i8_type().into(), self.lanes)
        } else {
            self.llvm(cx)
        }
    }
}

fn vector_of(elem: BasicTypeEnum<'_>, lanes: u32) -> BasicTypeEnum<'_> {
    match (elem, lanes) {
        (e, 0) => e,
        (BasicTypeEnum::IntType(t), n) => t.vec_type(n).into(),
        (BasicTypeEnum::FloatType(t), n) => t.vec_type(n).into(),
        _ => unreachable!("test types are ints and floats"),
    }
}

fn mask(w: u32) -> u64 {
    if w >= 64 {
        u64::MAX
    } else {
        (1u64 << w) - 1
    }
}

/// Sign-extends the low `w` bits.
fn sx(v: u64, w: u32) -> i64 {
    let s = 64 - w;
    ((v << s) as i64) >> s
}

// ---------------------------------------------------------------------------------------------
// Floats by bit pattern (half included, which Rust has no stable type for)

fn f16_to_f64(h: u64) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = ((h >> 10) & 0x1f) as i32;
    let m = (h & 0x3ff) as f64;
    let mag = match e {
        0 => m * 2f64.powi(-24),
        31 if m == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (1024.0 + m) * 2f64.powi(e - 25),
    };
    sign * mag
}

/// Round to nearest even, with subnormals, overflow to infinity and a quiet NaN.
fn f64_to_f16(x: f64) -> u64 {
    let sign: u64 = if x.is_sign_negative() { 0x8000 } else { 0 };
    if x.is_nan() {
        return sign | 0x7e00;
    }
    let a = x.abs();
    if a >= 65520.0 {
        return sign | 0x7c00;
    }
    let min_normal = 2f64.powi(-14);
    let exponent = |v: f64| ((v.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let quantum = if a < min_normal {
        2f64.powi(-24)
    } else {
        2f64.powi(exponent(a) - 10)
    };
    let n = (a / quantum).round_ties_even();
    let v = n * quantum;
    let bits = if v < min_normal {
        n as u64
    } else {
        let e = exponent(v);
        let m = ((v / 2f64.powi(e) - 1.0) * 1024.0) as u64;
        (((e + 15) as u64) << 10) | m
    };
    sign | bits
}

fn to_f64(w: u32, bits: u64) -> f64 {
    match w {
        16 => f16_to_f64(bits),
        32 => f64::from(f32::from_bits(bits as u32)),
        _ => f64::from_bits(bits),
    }
}

/// `x` rounded once to the format of width `w`.
fn from_f64(w: u32, x: f64) -> u64 {
    match w {
        16 => f64_to_f16(x),
        32 => u64::from((x as f32).to_bits()),
        _ => x.to_bits(),
    }
}

fn is_nan(w: u32, bits: u64) -> bool {
    to_f64(w, bits).is_nan()
}

/// Distance in units in the last place, for non-NaN values of width `w` (±0 are one point).
fn ulps(w: u32, a: u64, b: u64) -> u64 {
    let key = |v: u64| {
        let mag = (v & (mask(w) >> 1)) as i64;
        if v >> (w - 1) & 1 == 1 {
            -mag
        } else {
            mag
        }
    };
    key(a).abs_diff(key(b))
}

/// Bitwise equality, with any NaN equal to any NaN.
fn same_float(w: u32) -> impl Fn(u64, u64) -> bool {
    move |got, want| got == want || (is_nan(w, got) && is_nan(w, want))
}

/// Within `n` ulps, NaN only for NaN.
fn near_float(w: u32, n: u64) -> impl Fn(u64, u64) -> bool {
    move |got, want| match (is_nan(w, got), is_nan(w, want)) {
        (true, true) => true,
        (false, false) => ulps(w, got, want) <= n,
        _ => false,
    }
}

fn exact(got: u64, want: u64) -> bool {
    got == want
}

// ---------------------------------------------------------------------------------------------
// Building, verifying and running kernels

type Kernel = unsafe extern "C" fn(*const u8, *const u8, *const u8, *const u8, *mut u8);

fn init_native() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        Target::initialize_native(&InitializationConfig::default()).expect("native target");
    });
}

fn load<'c>(cx: &'c Context, b: &Builder<'c>, t: Ty, p: PointerValue<'c>) -> BasicValueEnum<'c> {
    let v = b.build_load(t.mem(cx), p, "").unwrap();
    v.as_instruction_value().unwrap().set_alignment(1).unwrap();
    if t.elem != Elem::I(1) {
        return v;
    }
    match (v, t.llvm(cx)) {
        (BasicValueEnum::IntValue(x), BasicTypeEnum::IntType(to)) => {
            b.build_int_truncate(x, to, "").unwrap().into()
        }
        (BasicValueEnum::VectorValue(x), BasicTypeEnum::VectorType(to)) => {
            b.build_int_truncate(x, to, "").unwrap().into()
        }
        _ => unreachable!(),
    }
}

fn store<'c>(cx: &'c Context, b: &Builder<'c>, t: Ty, v: BasicValueEnum<'c>, p: PointerValue<'c>) {
    let v = match (t.elem, v, t.mem(cx)) {
        (Elem::I(1), BasicValueEnum::IntValue(x), BasicTypeEnum::IntType(to)) => {
            b.build_int_z_extend(x, to, "").unwrap().into()
        }
        (Elem::I(1), BasicValueEnum::VectorValue(x), BasicTypeEnum::VectorType(to)) => {
            b.build_int_z_extend(x, to, "").unwrap().into()
        }
        _ => v,
    };
    let st = b.build_store(p, v).unwrap();
    st.set_alignment(1).unwrap();
}

fn constant<'c>(cx: &'c Context, t: Ty, lanes: &[u64]) -> BasicValueEnum<'c> {
    let one = |bits: u64| -> BasicValueEnum<'c> {
        match (t.elem, t.elem_llvm(cx)) {
            (Elem::I(_), BasicTypeEnum::IntType(it)) => it.const_int(bits, false).into(),
            (Elem::F(w), BasicTypeEnum::FloatType(ft)) => ft.const_float(to_f64(w, bits)).into(),
            _ => unreachable!(),
        }
    };
    if t.lanes == 0 {
        one(lanes[0])
    } else {
        let vals: Vec<BasicValueEnum<'c>> = lanes.iter().map(|&l| one(l)).collect();
        VectorType::const_vector(&vals).into()
    }
}

/// Adds `void name(ptr, ptr, ptr, ptr, ptr out)` computing `op` on operands loaded from the
/// pointers, or on the constants `consts` when given.
fn add_kernel<'c>(
    cx: &'c Context,
    module: &Module<'c>,
    name: &str,
    op: Special,
    args: &[Ty],
    res: Ty,
    consts: Option<&[Vec<u64>]>,
) {
    let ptr = cx.ptr_type(AddressSpace::default());
    let fn_ty = cx.void_type().fn_type(&[ptr.into(); 5], false);
    let f = module.add_function(name, fn_ty, None);
    let b = cx.create_builder();
    b.position_at_end(cx.append_basic_block(f, "entry"));
    let param = |i: u32| f.get_nth_param(i).unwrap().into_pointer_value();
    let vals: Vec<BasicValueEnum<'c>> = args
        .iter()
        .enumerate()
        .map(|(i, &t)| match consts {
            Some(c) => constant(cx, t, &c[i]),
            None => load(cx, &b, t, param(i as u32)),
        })
        .collect();
    let r = op(cx, &b, &vals, res.llvm(cx)).expect("the special case builds");
    assert_eq!(r.get_type(), res.llvm(cx), "{name}: result type");
    store(cx, &b, res, r, param(4));
    b.build_return(None).unwrap();
}

fn verify(module: &Module<'_>, what: &str) {
    if let Err(e) = module.verify() {
        panic!(
            "{what}: module does not verify: {}\n{}",
            e.to_string(),
            module.print_to_string().to_string()
        );
    }
}

fn optimize(module: &Module<'_>) {
    let triple = TargetMachine::get_default_triple();
    let target = Target::from_triple(&triple).unwrap();
    let tm = target
        .create_target_machine(
            &triple,
            &TargetMachine::get_host_cpu_name().to_string(),
            &TargetMachine::get_host_cpu_features().to_string(),
            OptimizationLevel::Default,
            RelocMode::Default,
            CodeModel::JITDefault,
        )
        .unwrap();
    module
        .run_passes("default<O2>", &tm, PassBuilderOptions::create())
        .unwrap();
}

fn encode(t: Ty, lanes: &[u64]) -> Vec<u8> {
    let mut out = Vec::new();
    for &l in lanes.iter().take(t.lane_count()) {
        out.extend_from_slice(&(l & t.mask()).to_le_bytes()[..t.lane_bytes()]);
    }
    out
}

fn decode(t: Ty, bytes: &[u8]) -> Vec<u64> {
    bytes
        .chunks(t.lane_bytes())
        .map(|c| {
            let mut w = [0u8; 8];
            w[..c.len()].copy_from_slice(c);
            u64::from_le_bytes(w) & t.mask()
        })
        .collect()
}

/// One operand tuple: per operand, its lanes (one for a scalar).
type Input = Vec<Vec<u64>>;

/// Results of `op` over `inputs`, as built and after O2 (in that order).
fn run(name: &str, op: Special, args: &[Ty], res: Ty, inputs: &[Input]) -> [Vec<Vec<u64>>; 2] {
    init_native();
    let mut modes = [Vec::new(), Vec::new()];
    for (mode, results) in modes.iter_mut().enumerate() {
        let cx = Context::create();
        let module = cx.create_module(name);
        add_kernel(&cx, &module, "k", op, args, res, None);
        verify(&module, name);
        if mode == 1 {
            optimize(&module);
            verify(&module, name);
        }
        let ee = module
            .create_jit_execution_engine(OptimizationLevel::None)
            .unwrap();
        let k: JitFunction<Kernel> = unsafe { ee.get_function("k") }.unwrap();
        for input in inputs {
            let bufs: Vec<Vec<u8>> = args.iter().zip(input).map(|(&t, l)| encode(t, l)).collect();
            let p = |i: usize| bufs.get(i).map_or(std::ptr::null(), |b| b.as_ptr());
            let mut out = vec![0u8; res.lane_count() * res.lane_bytes()];
            unsafe { k.call(p(0), p(1), p(2), p(3), out.as_mut_ptr()) };
            results.push(decode(res, &out));
        }
    }
    modes
}

/// Results of `op` with each input as constant operands, folded by O2; the folded module must
/// verify and hold no `poison` or `undef`.
fn run_folded(name: &str, op: Special, args: &[Ty], res: Ty, inputs: &[Input]) -> Vec<Vec<u64>> {
    init_native();
    let cx = Context::create();
    let module = cx.create_module(name);
    for (i, input) in inputs.iter().enumerate() {
        add_kernel(&cx, &module, &format!("k{i}"), op, args, res, Some(input));
    }
    verify(&module, name);
    optimize(&module);
    verify(&module, name);
    let text = module.print_to_string().to_string();
    assert!(
        !text.contains("poison") && !text.contains("undef"),
        "{name}: constant folding met poison:\n{text}"
    );
    let ee = module
        .create_jit_execution_engine(OptimizationLevel::None)
        .unwrap();
    (0..inputs.len())
        .map(|i| {
            let k: JitFunction<Kernel> = unsafe { ee.get_function(&format!("k{i}")) }.unwrap();
            let null = std::ptr::null();
            let mut out = vec![0u8; res.lane_count() * res.lane_bytes()];
            unsafe { k.call(null, null, null, null, out.as_mut_ptr()) };
            decode(res, &out)
        })
        .collect()
}

/// Lane `l` of every operand, scalars broadcast, masked to their widths.
fn lane_args(args: &[Ty], input: &Input, l: usize) -> Vec<u64> {
    args.iter()
        .zip(input)
        .map(|(t, v)| v[if t.lanes == 0 { 0 } else { l }] & t.mask())
        .collect()
}

/// Runs `op` over `inputs` (and, when `fold`, over the same inputs as constants) and compares
/// every lane with `want` under `same`. Returns how many lanes were checked.
#[allow(clippy::too_many_arguments)]
fn check(
    name: &str,
    op: Special,
    args: &[Ty],
    res: Ty,
    inputs: &[Input],
    fold: bool,
    want: impl Fn(&[u64]) -> u64,
    same: impl Fn(u64, u64) -> bool,
) -> usize {
    let [built, optimized] = run(name, op, args, res, inputs);
    let mut runs = vec![("as built", built), ("after O2", optimized)];
    if fold {
        runs.push(("folded", run_folded(name, op, args, res, inputs)));
    }
    let mut checked = 0;
    for (how, results) in runs {
        for (input, got) in inputs.iter().zip(results) {
            for (l, &g) in got.iter().enumerate() {
                let operands = lane_args(args, input, l);
                let w = want(&operands) & res.mask();
                assert!(
                    same(g, w),
                    "{name} {how} {args:?} -> {res:?}: lane {l} of {operands:#x?}: got {g:#x}, want {w:#x}"
                );
                checked += 1;
            }
        }
    }
    checked
}

/// splitmix64: small, deterministic, good enough to spread test inputs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// `n` random inputs; `lane(rng, operand index, operand type)` draws one lane.
fn random_inputs(
    rng: &mut Rng,
    args: &[Ty],
    n: usize,
    mut lane: impl FnMut(&mut Rng, usize, Ty) -> u64,
) -> Vec<Input> {
    (0..n)
        .map(|_| {
            args.iter()
                .enumerate()
                .map(|(i, &t)| (0..t.lane_count()).map(|_| lane(rng, i, t)).collect())
                .collect()
        })
        .collect()
}

/// Inputs with the same values in every lane, from per-operand scalar tuples.
fn splat_inputs(args: &[Ty], tuples: &[Vec<u64>]) -> Vec<Input> {
    tuples
        .iter()
        .map(|tuple| {
            args.iter()
                .zip(tuple)
                .map(|(t, &v)| vec![v; t.lane_count()])
                .collect()
        })
        .collect()
}

/// Every combination of one value per operand.
fn product(choices: &[Vec<u64>]) -> Vec<Vec<u64>> {
    choices.iter().fold(vec![Vec::new()], |acc, options| {
        acc.iter()
            .flat_map(|prefix| {
                options.iter().map(move |&o| {
                    let mut next = prefix.clone();
                    next.push(o);
                    next
                })
            })
            .collect()
    })
}

/// A single run of `op` on scalar or vector constants given lane by lane, loaded at run time.
fn eval(op: Special, args: &[Ty], res: Ty, input: &[&[u64]]) -> Vec<u64> {
    let input: Input = input.iter().map(|l| l.to_vec()).collect();
    let [built, optimized] = run("eval", op, args, res, std::slice::from_ref(&input));
    assert_eq!(built, optimized, "as built and after O2 differ");
    built.into_iter().next().unwrap()
}

const WIDTHS: [u32; 4] = [8, 16, 32, 64];

// ---------------------------------------------------------------------------------------------
// Bitfields

/// The field [o, min(o + c, w)) of the module doc, for saturated o and c.
fn field(w: u32, o: u64, c: u64) -> (u64, u64) {
    let o = o.min(u64::from(w));
    let c = c.min(u64::from(w) - o);
    (o, c)
}

fn ref_insert(w: u32, base: u64, ins: u64, o: u64, c: u64) -> u64 {
    let (o, c) = field(w, o, c);
    if o >= u64::from(w) {
        return base;
    }
    let f = (mask(c as u32) << o) & mask(w);
    (base & !f) | ((ins << o) & f)
}

fn ref_u_extract(w: u32, base: u64, o: u64, c: u64) -> u64 {
    let (o, c) = field(w, o, c);
    if o >= u64::from(w) {
        return 0;
    }
    (base >> o) & mask(c as u32)
}

fn ref_s_extract(w: u32, base: u64, o: u64, c: u64) -> u64 {
    let (o, c) = field(w, o, c);
    if o >= u64::from(w) || c == 0 {
        return 0;
    }
    (sx(base >> o, c as u32) as u64) & mask(w)
}

#[derive(Clone, Copy)]
enum Bf {
    Insert,
    SExtract,
    UExtract,
}

fn bitfield_sweep(kind: Bf) -> usize {
    let mut rng = Rng(0xb17f_1e1d ^ kind as u64);
    let mut checked = 0;
    let (op, name): (Special, &str) = match kind {
        Bf::Insert => (special::bit_field_insert, "bit_field_insert"),
        Bf::SExtract => (special::bit_field_s_extract, "bit_field_s_extract"),
        Bf::UExtract => (special::bit_field_u_extract, "bit_field_u_extract"),
    };
    for w in WIDTHS {
        for lanes in [0, 4] {
            // Offset/Count: same width, narrower/wider scalars, and a same-lanes vector.
            let mut amount_tys = vec![int(w), int(8), int(64), int(32)];
            if lanes != 0 {
                amount_tys.push(vint(16, lanes));
            }
            for at in amount_tys {
                let base = Ty {
                    elem: Elem::I(w),
                    lanes,
                };
                let mut args = vec![base];
                if let Bf::Insert = kind {
                    args.push(base);
                }
                args.push(at);
                args.push(at);
                let n = args.len();
                let want = |a: &[u64]| match kind {
                    Bf::Insert => ref_insert(w, a[0], a[1], a[2], a[3]),
                    Bf::SExtract => ref_s_extract(w, a[0], a[1], a[2]),
                    Bf::UExtract => ref_u_extract(w, a[0], a[1], a[2]),
                };
                // Edge cases: every interesting offset and count, a few bases.
                let wb = u64::from(w);
                let amounts = vec![0, 1, wb / 2, wb - 1, wb, wb + 1, 255, mask(at.bits())];
                let values = vec![0, u64::MAX, 0x5555_5555_5555_5555, 0x8000_0000_0000_0001];
                let mut choices = vec![values.clone()];
                if let Bf::Insert = kind {
                    choices.push(vec![u64::MAX, 0x0123_4567_89ab_cdef]);
                }
                choices.push(amounts.clone());
                choices.push(amounts);
                let edges = splat_inputs(&args, &product(&choices));
                checked += check(name, op, &args, base, &edges, lanes == 0, want, exact);
                // Random sweep, amounts mostly around the width.
                let inputs = random_inputs(&mut rng, &args, 2000, |r, i, t| {
                    if i < n - 2 || r.below(4) == 0 {
                        r.next() & t.mask()
                    } else {
                        r.below(wb + 2)
                    }
                });
                checked += check(name, op, &args, base, &inputs, false, want, exact);
            }
        }
    }
    checked
}

#[test]
fn bit_field_insert_matches_spirv_on_edges_and_sweep() {
    assert!(bitfield_sweep(Bf::Insert) > 100_000);
}

#[test]
fn bit_field_s_extract_matches_spirv_on_edges_and_sweep() {
    assert!(bitfield_sweep(Bf::SExtract) > 100_000);
}

#[test]
fn bit_field_u_extract_matches_spirv_on_edges_and_sweep() {
    assert!(bitfield_sweep(Bf::UExtract) > 100_000);
}

#[test]
fn bit_field_named_cases() {
    let (t, t8) = (int(32), int(8));
    let ins = |base: u64, i: u64, o: u64, c: u64| {
        eval(
            special::bit_field_insert,
            &[t, t, t, t],
            t,
            &[&[base], &[i], &[o], &[c]],
        )[0]
    };
    let ux = |base: u64, o: u64, c: u64| {
        eval(
            special::bit_field_u_extract,
            &[t, t8, t8],
            t,
            &[&[base], &[o], &[c]],
        )[0]
    };
    let sxt = |base: u64, o: u64, c: u64| {
        eval(
            special::bit_field_s_extract,
            &[t, t8, t8],
            t,
            &[&[base], &[o], &[c]],
        )[0]
    };
    // Count 0: Insert keeps Base, extracts give 0.
    assert_eq!(ins(0x1234_5678, 0xffff_ffff, 4, 0), 0x1234_5678);
    assert_eq!(ux(0xffff_ffff, 4, 0), 0);
    assert_eq!(sxt(0xffff_ffff, 4, 0), 0);
    // Count = width at offset 0: Insert gives Insert, extracts give Base.
    assert_eq!(ins(0x1234_5678, 0x8765_4321, 0, 32), 0x8765_4321);
    assert_eq!(ux(0x8765_4321, 0, 32), 0x8765_4321);
    assert_eq!(sxt(0x8765_4321, 0, 32), 0x8765_4321);
    // Offset = width selects nothing.
    assert_eq!(ins(0x1234_5678, 0xffff_ffff, 32, 0), 0x1234_5678);
    assert_eq!(ux(0xffff_ffff, 32, 0), 0);
    // Insert wider than Count: only Count bits land.
    assert_eq!(ins(0, 0xff, 4, 4), 0xf0);
    assert_eq!(ins(0xffff_ffff, 0, 4, 4), 0xffff_ff0f);
    // Ordinary fields.
    assert_eq!(ux(0xf0f0_1234, 4, 8), 0x23);
    assert_eq!(sxt(0x0000_0f00, 8, 4), 0xffff_ffff);
    assert_eq!(sxt(0x0000_0700, 8, 4), 0x7);
    assert_eq!(sxt(0x8000_0000, 31, 1), 0xffff_ffff);
    // A vector Base with scalar Offset and Count.
    let v = vint(16, 3);
    let got = eval(
        special::bit_field_u_extract,
        &[v, int(32), int(32)],
        v,
        &[&[0xabcd, 0x1234, 0xffff], &[4], &[8]],
    );
    assert_eq!(got, vec![0xbc, 0x23, 0xff]);
    let got = eval(
        special::bit_field_insert,
        &[v, v, int(8), int(8)],
        v,
        &[&[0, 0xffff, 0x1234], &[0xff, 0, 0xf], &[12], &[4]],
    );
    assert_eq!(got, vec![0xf000, 0x0fff, 0xf234]);
}

// ---------------------------------------------------------------------------------------------
// Shifts

#[derive(Clone, Copy)]
enum Sh {
    Left,
    RightLogical,
    RightArithmetic,
}

fn ref_shift(kind: Sh, w: u32, x: u64, amount: u64) -> u64 {
    let wb = u64::from(w);
    match kind {
        Sh::Left if amount >= wb => 0,
        Sh::Left => (x << amount) & mask(w),
        Sh::RightLogical if amount >= wb => 0,
        Sh::RightLogical => (x & mask(w)) >> amount,
        Sh::RightArithmetic => (sx(x, w) >> amount.min(wb - 1)) as u64 & mask(w),
    }
}

fn shift_sweep(kind: Sh) -> usize {
    let (op, name): (Special, &str) = match kind {
        Sh::Left => (special::shift_left_logical, "shift_left_logical"),
        Sh::RightLogical => (special::shift_right_logical, "shift_right_logical"),
        Sh::RightArithmetic => (special::shift_right_arithmetic, "shift_right_arithmetic"),
    };
    let mut rng = Rng(0x5417_u64 + kind as u64);
    let mut checked = 0;
    for w in WIDTHS {
        for lanes in [0, 4] {
            let base = Ty {
                elem: Elem::I(w),
                lanes,
            };
            let mut amount_tys = vec![int(w), int(8), int(64)];
            if lanes != 0 {
                amount_tys = vec![vint(w, lanes), vint(8, lanes), vint(64, lanes), int(32)];
            } else {
                amount_tys.push(int(16));
            }
            for at in amount_tys {
                let args = [base, at];
                let want = |a: &[u64]| ref_shift(kind, w, a[0], a[1]);
                let wb = u64::from(w);
                let amounts = vec![0, 1, wb - 1, wb, wb + 1, 2 * wb, 256, mask(at.bits())];
                let values = vec![0, 1, u64::MAX, 0x8000_0000_0000_0000 >> (64 - w), 0x5a5a];
                let edges = splat_inputs(&args, &product(&[values, amounts]));
                checked += check(name, op, &args, base, &edges, lanes == 0, want, exact);
                let inputs = random_inputs(&mut rng, &args, 3000, |r, i, t| {
                    if i == 0 || r.below(4) == 0 {
                        r.next() & t.mask()
                    } else {
                        r.below(2 * wb + 2)
                    }
                });
                checked += check(name, op, &args, base, &inputs, false, want, exact);
            }
        }
    }
    checked
}

#[test]
fn shift_left_logical_defined_for_all_amounts() {
    assert!(shift_sweep(Sh::Left) > 100_000);
}

#[test]
fn shift_right_logical_defined_for_all_amounts() {
    assert!(shift_sweep(Sh::RightLogical) > 100_000);
}

#[test]
fn shift_right_arithmetic_defined_for_all_amounts() {
    assert!(shift_sweep(Sh::RightArithmetic) > 100_000);
}

#[test]
fn shift_named_cases() {
    let t = int(32);
    let shl = |x: u64, s: u64| eval(special::shift_left_logical, &[t, t], t, &[&[x], &[s]])[0];
    let lshr = |x: u64, s: u64| eval(special::shift_right_logical, &[t, t], t, &[&[x], &[s]])[0];
    let ashr = |x: u64, s: u64| eval(special::shift_right_arithmetic, &[t, t], t, &[&[x], &[s]])[0];
    assert_eq!(shl(1, 31), 0x8000_0000);
    assert_eq!(shl(1, 32), 0);
    assert_eq!(shl(1, 0xffff_ffff), 0);
    assert_eq!(lshr(0x8000_0000, 31), 1);
    assert_eq!(lshr(0x8000_0000, 32), 0);
    assert_eq!(ashr(0x8000_0000, 31), 0xffff_ffff);
    assert_eq!(ashr(0xffff_fff8, 100), 0xffff_ffff);
    assert_eq!(ashr(8, 100), 0);
    assert_eq!(ashr(0xffff_fff8, 1), 0xffff_fffc);
    // A wide amount saturates instead of wrapping: 256 is not 0 for an i8 Base.
    let got = eval(
        special::shift_left_logical,
        &[int(8), int(32)],
        int(8),
        &[&[1], &[256]],
    );
    assert_eq!(got, vec![0]);
    // A scalar amount with a vector Base; a narrower vector amount.
    let v = vint(16, 4);
    let got = eval(
        special::shift_right_arithmetic,
        &[v, int(8)],
        v,
        &[&[0x8000, 0x7fff, 0xff00, 4], &[4]],
    );
    assert_eq!(got, vec![0xf800, 0x07ff, 0xfff0, 0]);
    let got = eval(
        special::shift_left_logical,
        &[v, vint(8, 4)],
        v,
        &[&[1, 1, 1, 1], &[0, 15, 16, 255]],
    );
    assert_eq!(got, vec![1, 0x8000, 0, 0]);
}

// ---------------------------------------------------------------------------------------------
// Conversions

#[test]
fn s_convert_and_u_convert_all_widths() {
    let mut rng = Rng(0xc0);
    let mut checked = 0;
    for from in WIDTHS {
        for to in WIDTHS {
            for lanes in [0, 3] {
                let (a, r) = (int(from).with_lanes(lanes), int(to).with_lanes(lanes));
                let edges = splat_inputs(
                    &[a],
                    &[0, 1, 0x7f, 0x80, 0xff, 0x8000, 0x7fff_ffff, u64::MAX].map(|v| vec![v]),
                );
                let mut inputs = random_inputs(&mut rng, &[a], 500, |r, _, t| r.next() & t.mask());
                inputs.extend(edges);
                let sref = |x: &[u64]| sx(x[0], from) as u64;
                let uref = |x: &[u64]| x[0];
                checked += check(
                    "s_convert",
                    special::s_convert,
                    &[a],
                    r,
                    &inputs,
                    false,
                    sref,
                    exact,
                );
                checked += check(
                    "u_convert",
                    special::u_convert,
                    &[a],
                    r,
                    &inputs,
                    false,
                    uref,
                    exact,
                );
            }
        }
    }
    assert!(checked > 50_000);
    assert_eq!(
        eval(special::s_convert, &[int(8)], int(32), &[&[0x80]]),
        vec![0xffff_ff80]
    );
    assert_eq!(
        eval(special::u_convert, &[int(8)], int(32), &[&[0x80]]),
        vec![0x80]
    );
    assert_eq!(
        eval(special::s_convert, &[int(64)], int(16), &[&[0x1_2345_8765]]),
        vec![0x8765]
    );
}

/// Interesting float bit patterns of width `w`.
fn float_edges(w: u32) -> Vec<u64> {
    let all = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        1.5,
        3.0,
        -3.0,
        0.1,
        1e10,
        -1e10,
        1e-30,
        65504.0,
        65520.0,
        2f64.powi(-24),
        2f64.powi(-25),
        3.0 * 2f64.powi(-26),
        2f64.powi(-149),
        f64::from(f32::MAX),
        f64::MAX,
        f64::MIN_POSITIVE,
        1.0 + 2f64.powi(-11),
        1.0 + 3.0 * 2f64.powi(-12),
        1.0 + 2f64.powi(-24),
        1.0 + 2f64.powi(-53),
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ];
    let mut out: Vec<u64> = all.iter().map(|&x| from_f64(w, x)).collect();
    out.push(mask(w) >> 1); // a NaN with every payload bit
    out.push(1); // the smallest subnormal
    out
}

#[test]
fn f_convert_all_widths_round_to_nearest_even() {
    let mut rng = Rng(0xfc);
    let mut checked = 0;
    for from in [16, 32, 64] {
        for to in [16, 32, 64] {
            for lanes in [0, 4] {
                let (a, r) = (float(from).with_lanes(lanes), float(to).with_lanes(lanes));
                let mut inputs = random_inputs(&mut rng, &[a], 2000, |r, _, t| r.next() & t.mask());
                let edges: Vec<u64> = float_edges(from);
                inputs.extend(splat_inputs(
                    &[a],
                    &edges.iter().map(|&e| vec![e]).collect::<Vec<_>>(),
                ));
                // Values near the target's rounding boundaries, from the wider source.
                inputs.extend(random_inputs(&mut rng, &[a], 500, |r, _, _| {
                    from_f64(
                        from,
                        to_f64(to, r.next() & mask(to))
                            * (1.0 + (r.below(5) as f64 - 2.0) * 2f64.powi(-30)),
                    )
                }));
                let want = |x: &[u64]| from_f64(to, to_f64(from, x[0]));
                checked += check(
                    "f_convert",
                    special::f_convert,
                    &[a],
                    r,
                    &inputs,
                    lanes == 0 && from != to,
                    want,
                    same_float(to),
                );
            }
        }
    }
    assert!(checked > 50_000);
    // 1 + 2^-11 is a tie between two halfs: to even.
    let one_plus = u64::from((1.0f32 + 2f32.powi(-11)).to_bits());
    assert_eq!(
        eval(special::f_convert, &[float(32)], float(16), &[&[one_plus]]),
        vec![0x3c00]
    );
    assert_eq!(
        eval(special::f_convert, &[float(16)], float(64), &[&[0xc000]]),
        vec![(-2.0f64).to_bits()]
    );
}

// ---------------------------------------------------------------------------------------------
// Not, LogicalNot

#[test]
fn not_and_logical_not() {
    let mut rng = Rng(0x707);
    let mut checked = 0;
    for w in WIDTHS {
        for lanes in [0, 2, 4] {
            let t = int(w).with_lanes(lanes);
            let inputs = random_inputs(&mut rng, &[t], 1000, |r, _, t| r.next() & t.mask());
            checked += check(
                "not",
                special::not,
                &[t],
                t,
                &inputs,
                lanes == 0,
                |x| !x[0],
                exact,
            );
        }
    }
    for lanes in [0, 3] {
        let t = int(1).with_lanes(lanes);
        let inputs = random_inputs(&mut rng, &[t], 64, |r, _, _| r.below(2));
        checked += check(
            "logical_not",
            special::logical_not,
            &[t],
            t,
            &inputs,
            true,
            |x| x[0] ^ 1,
            exact,
        );
    }
    assert!(checked > 20_000);
    assert_eq!(
        eval(special::not, &[int(32)], int(32), &[&[0x0f0f_0000]]),
        vec![0xf0f0_ffff]
    );
    assert_eq!(
        eval(special::logical_not, &[vint(1, 2)], vint(1, 2), &[&[0, 1]]),
        vec![1, 0]
    );
}

// ---------------------------------------------------------------------------------------------
// SMod, FMod

fn ref_s_mod(w: u32, x: u64, y: u64) -> u64 {
    let (x, y) = (i128::from(sx(x, w)), i128::from(sx(y, w)));
    if y == 0 {
        return 0;
    }
    let r = x % y;
    let r = if r != 0 && (r < 0) != (y < 0) {
        r + y
    } else {
        r
    };
    r as u64 & mask(w)
}

#[test]
fn s_mod_divisor_sign_all_widths() {
    let mut rng = Rng(0x5309);
    let mut checked = 0;
    for w in WIDTHS {
        for lanes in [0, 2] {
            let t = int(w).with_lanes(lanes);
            let min = 1u64 << (w - 1);
            let values = vec![0, 1, 2, 3, 7, mask(w), mask(w) - 2, min, min + 1, min - 1];
            let edges = splat_inputs(&[t, t], &product(&[values.clone(), values]));
            let want = |a: &[u64]| ref_s_mod(w, a[0], a[1]);
            checked += check(
                "s_mod",
                special::s_mod,
                &[t, t],
                t,
                &edges,
                lanes == 0,
                want,
                exact,
            );
            let inputs = random_inputs(&mut rng, &[t, t], 3000, |r, i, t| {
                // Small divisors often, so that remainders are small too.
                if i == 1 && r.below(2) == 0 {
                    (r.below(21) as i64 - 10) as u64 & t.mask()
                } else {
                    r.next() & t.mask()
                }
            });
            checked += check(
                "s_mod",
                special::s_mod,
                &[t, t],
                t,
                &inputs,
                false,
                want,
                exact,
            );
        }
    }
    assert!(checked > 50_000);
    let t = int(32);
    let m = |x: i32, y: i32| {
        eval(
            special::s_mod,
            &[t, t],
            t,
            &[&[x as u32 as u64], &[y as u32 as u64]],
        )[0] as u32 as i32
    };
    assert_eq!(m(-7, 3), 2);
    assert_eq!(m(7, -3), -2);
    assert_eq!(m(-7, -3), -1);
    assert_eq!(m(7, 3), 1);
    assert_eq!(m(i32::MIN, -1), 0);
    assert_eq!(m(5, 0), 0);
    assert_eq!(m(i32::MIN, i32::MAX), i32::MAX - 1);
}

/// FMod in f64 arithmetic: exact remainder, then one correctly rounded addition (f64 holds the
/// sum of two halfs exactly, and rounding f64 to f32 after an f32 sum is innocuous).
fn ref_f_mod(w: u32, x: u64, y: u64) -> u64 {
    let (xf, yf) = (to_f64(w, x), to_f64(w, y));
    let r = match w {
        32 => f64::from((xf as f32) % (yf as f32)),
        _ => xf % yf,
    };
    if r.is_nan() {
        return from_f64(w, f64::NAN);
    }
    if r == 0.0 {
        return from_f64(w, if yf < 0.0 { -0.0 } else { 0.0 });
    }
    if (r < 0.0) != (yf < 0.0) {
        from_f64(w, r + yf)
    } else {
        from_f64(w, r)
    }
}

#[test]
fn f_mod_divisor_sign_exact() {
    let mut rng = Rng(0xf30d);
    let mut checked = 0;
    for w in [16, 32, 64] {
        for lanes in [0, 4] {
            let t = float(w).with_lanes(lanes);
            let edges = float_edges(w);
            let want = |a: &[u64]| ref_f_mod(w, a[0], a[1]);
            let inputs = splat_inputs(&[t, t], &product(&[edges.clone(), edges]));
            checked += check(
                "f_mod",
                special::f_mod,
                &[t, t],
                t,
                &inputs,
                false,
                want,
                same_float(w),
            );
            // Random bit patterns, and ordinary magnitudes with either sign.
            let inputs = random_inputs(&mut rng, &[t, t], 3000, |r, i, t| {
                if r.below(3) == 0 {
                    r.next() & t.mask()
                } else {
                    let mag = (r.below(1 << 20) as f64 + 1.0)
                        * 2f64.powi(r.below(24) as i32 - if i == 0 { 4 } else { 12 });
                    from_f64(w, if r.below(2) == 0 { mag } else { -mag })
                }
            });
            checked += check(
                "f_mod",
                special::f_mod,
                &[t, t],
                t,
                &inputs,
                false,
                want,
                same_float(w),
            );
        }
    }
    assert!(checked > 50_000);
    let t = float(32);
    let m = |x: f32, y: f32| {
        let got = eval(
            special::f_mod,
            &[t, t],
            t,
            &[&[u64::from(x.to_bits())], &[u64::from(y.to_bits())]],
        )[0];
        f32::from_bits(got as u32)
    };
    assert_eq!(m(1e10, 3.0), 1.0);
    assert_eq!(m(-1.0, 3.0), 2.0);
    assert_eq!(m(1.0, -3.0), -2.0);
    assert_eq!(m(-5.5, -2.0), -1.5);
    assert_eq!(m(5.5, f32::INFINITY), 5.5);
    assert_eq!(m(-5.5, f32::INFINITY), f32::INFINITY);
    assert_eq!(m(-1e-30, 3.0), 3.0);
    assert_eq!(m(-3.0, 3.0).to_bits(), 0.0f32.to_bits());
    assert_eq!(m(3.0, -3.0).to_bits(), (-0.0f32).to_bits());
    assert!(m(5.0, 0.0).is_nan());
    assert!(m(f32::INFINITY, 2.0).is_nan());
    assert!(m(f32::NAN, 2.0).is_nan());
    assert!(m(2.0, f32::NAN).is_nan());
    let v = vfloat(64, 2);
    let got = eval(
        special::f_mod,
        &[v, v],
        v,
        &[
            &[(-7.5f64).to_bits(), 7.5f64.to_bits()],
            &[2.0f64.to_bits(), (-2.0f64).to_bits()],
        ],
    );
    assert_eq!(got, vec![0.5f64.to_bits(), (-0.5f64).to_bits()]);
}

// ---------------------------------------------------------------------------------------------
// Tan, Tanh

fn trig_sweep(op: Special, name: &str, f: fn(f64) -> f64) -> usize {
    let mut rng = Rng(0x7a9);
    let mut checked = 0;
    for w in [16, 32, 64] {
        for lanes in [0, 4] {
            let t = float(w).with_lanes(lanes);
            let mut inputs = splat_inputs(
                &[t],
                &float_edges(w).iter().map(|&e| vec![e]).collect::<Vec<_>>(),
            );
            inputs.extend(random_inputs(&mut rng, &[t], 2000, |r, _, t| {
                r.next() & t.mask()
            }));
            inputs.extend(random_inputs(&mut rng, &[t], 2000, |r, _, _| {
                let x = (r.below(1 << 24) as f64 / (1u64 << 24) as f64 - 0.5) * 40.0;
                from_f64(w, x)
            }));
            let want = |a: &[u64]| from_f64(w, f(to_f64(w, a[0])));
            let tolerance = if w == 16 { 1 } else { 2 };
            checked += check(
                name,
                op,
                &[t],
                t,
                &inputs,
                false,
                want,
                near_float(w, tolerance),
            );
        }
    }
    checked
}

#[test]
fn tan_within_two_ulps() {
    assert!(trig_sweep(special::tan, "tan", f64::tan) > 30_000);
    let t = float(32);
    let tan = |x: f32| {
        f32::from_bits(eval(special::tan, &[t], t, &[&[u64::from(x.to_bits())]])[0] as u32)
    };
    assert_eq!(tan(0.0).to_bits(), 0.0f32.to_bits());
    assert_eq!(tan(-0.0).to_bits(), (-0.0f32).to_bits());
    assert!(tan(f32::INFINITY).is_nan());
    assert!(tan(f32::NAN).is_nan());
    // Far from the origin the argument reduction must be exact.
    let want = (f64::from(1e10f32)).tan() as f32;
    assert!(
        ulps(
            32,
            u64::from(tan(1e10).to_bits()),
            u64::from(want.to_bits())
        ) <= 2
    );
}

#[test]
fn tanh_within_two_ulps_and_saturates() {
    assert!(trig_sweep(special::tanh, "tanh", f64::tanh) > 30_000);
    for w in [16, 32, 64] {
        let t = vfloat(w, 4);
        let lanes = [
            0.0,
            -0.0,
            100.0,
            -1e30,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            1e-300,
        ]
        .map(|x| from_f64(w, x));
        let got = eval(special::tanh, &[t], t, &[&lanes[..4]]);
        assert_eq!(
            got,
            [0.0, -0.0, 1.0, -1.0].map(|x| from_f64(w, x)).to_vec(),
            "f{w}"
        );
        let got = eval(special::tanh, &[t], t, &[&lanes[4..]]);
        assert_eq!(got[0], from_f64(w, 1.0), "tanh(inf), f{w}");
        assert_eq!(got[1], from_f64(w, -1.0), "tanh(-inf), f{w}");
        assert!(is_nan(w, got[2]), "tanh(NaN), f{w}");
        // Tiny arguments: tanh(x) = x, not 0 (the exp formula's cancellation).
        assert_eq!(got[3], from_f64(w, 1e-300), "tanh(tiny), f{w}");
    }
    let t = float(32);
    let tiny = u64::from(1e-10f32.to_bits());
    assert_eq!(eval(special::tanh, &[t], t, &[&[tiny]]), vec![tiny]);
}

// ---------------------------------------------------------------------------------------------
// Function control

#[test]
fn function_control_attributes_verify_in_llvm_and_opt() {
    let fc = |bits: u32| FunctionControl(bits);
    let cases: Vec<(FunctionControl, Vec<&str>, Vec<&str>)> = vec![
        (
            fc(0),
            vec![],
            vec!["alwaysinline", "noinline", "memory", "optnone"],
        ),
        (
            FunctionControl::Inline,
            vec!["alwaysinline"],
            vec!["noinline"],
        ),
        (
            FunctionControl::DontInline,
            vec!["noinline"],
            vec!["alwaysinline"],
        ),
        (
            FunctionControl::Pure,
            vec!["memory(read)"],
            vec!["readonly"],
        ),
        (
            FunctionControl::Const,
            vec!["memory(none)"],
            vec!["readnone"],
        ),
        (
            FunctionControl::Inline | FunctionControl::DontInline,
            vec!["noinline"],
            vec!["alwaysinline"],
        ),
        (
            FunctionControl::Pure | FunctionControl::Const,
            vec!["memory(none)"],
            vec!["memory(read)"],
        ),
        (
            FunctionControl::Inline | FunctionControl::Pure,
            vec!["alwaysinline", "memory(read)"],
            vec![],
        ),
        (
            FunctionControl::DontInline | FunctionControl::Const,
            vec!["noinline", "memory(none)"],
            vec![],
        ),
        (
            FunctionControl::OptNoneINTEL | FunctionControl::Inline,
            vec!["optnone", "noinline"],
            vec!["alwaysinline"],
        ),
        (fc(0x8000_0000), vec![], vec!["memory"]),
    ];
    for (control, present, absent) in cases {
        let cx = Context::create();
        let module = cx.create_module("fc");
        let i32t = cx.i32_type();
        let f = module.add_function("f", i32t.fn_type(&[i32t.into()], false), None);
        let b = cx.create_builder();
        b.position_at_end(cx.append_basic_block(f, "entry"));
        let x = f.get_nth_param(0).unwrap().into_int_value();
        let y = b.build_int_add(x, i32t.const_int(1, false), "").unwrap();
        b.build_return(Some(&y)).unwrap();
        special::apply_function_control(&cx, f, control);
        assert_eq!(
            special::function_control_attributes(&cx, control).len(),
            present.len(),
            "{control:?}"
        );
        verify(&module, &format!("{control:?}"));
        let text = module.print_to_string().to_string();
        let attrs: String = text
            .lines()
            .filter(|l| l.starts_with("attributes #"))
            .collect();
        for p in present {
            assert!(attrs.contains(p), "{control:?}: missing {p} in {text}");
        }
        for a in absent {
            assert!(!attrs.contains(a), "{control:?}: unexpected {a} in {text}");
        }
        opt_accepts(&text, &format!("{control:?}"));
    }
}

/// LLVM 19's `opt -passes=verify` parses and verifies the printed module.
fn opt_accepts(text: &str, what: &str) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let opt = "/usr/lib/llvm-19/bin/opt";
    if !std::path::Path::new(opt).exists() {
        eprintln!("{opt} not installed; skipping the textual check of {what}");
        return;
    }
    let mut child = Command::new(opt)
        .args(["-passes=verify", "-disable-output", "-"])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{what}: opt rejects\n{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

// ---------------------------------------------------------------------------------------------
// Misfits are errors, not crashes

#[test]
fn misfit_operands_are_errors() {
    let cx = Context::create();
    let module = cx.create_module("misfit");
    let f = module.add_function("f", cx.void_type().fn_type(&[], false), None);
    let b = cx.create_builder();
    let (i32t, i8t, f32t) = (cx.i32_type(), cx.i8_type(), cx.f32_type());
    let x = i32t.const_int(5, false).as_basic_value_enum();
    let h = i8t.const_int(5, false).as_basic_value_enum();
    let fl = f32t.const_float(1.0).as_basic_value_enum();
    let v2 = i32t.vec_type(2).const_zero().as_basic_value_enum();
    let v3 = i32t.vec_type(3).const_zero().as_basic_value_enum();
    // No position yet.
    assert!(special::not(&cx, &b, &[x], i32t.into()).is_err());
    b.position_at_end(cx.append_basic_block(f, "entry"));
    let all: [(Special, usize); 17] = [
        (special::bit_field_insert, 4),
        (special::bit_field_s_extract, 3),
        (special::bit_field_u_extract, 3),
        (special::shift_left_logical, 2),
        (special::shift_right_logical, 2),
        (special::shift_right_arithmetic, 2),
        (special::s_convert, 1),
        (special::u_convert, 1),
        (special::f_convert, 1),
        (special::not, 1),
        (special::logical_not, 1),
        (special::s_mod, 2),
        (special::f_mod, 2),
        (special::tan, 1),
        (special::tanh, 1),
        (special::tan, 1),
        (special::tanh, 1),
    ];
    for (i, (op, n)) in all.into_iter().enumerate() {
        // Too few operands.
        assert!(
            op(&cx, &b, &vec![x; n - 1], i32t.into()).is_err(),
            "case {i}: too few"
        );
        // A struct operand.
        let s = cx
            .struct_type(&[], false)
            .const_zero()
            .as_basic_value_enum();
        assert!(
            op(&cx, &b, &vec![s; n], i32t.into()).is_err(),
            "case {i}: struct"
        );
        // Vector lanes that disagree.
        let mut mixed = vec![v2; n];
        mixed[n - 1] = v3;
        assert!(
            op(&cx, &b, &mixed, v2.get_type()).is_err() || n == 1,
            "case {i}: lanes"
        );
    }
    // Kind and width mismatches.
    assert!(special::s_mod(&cx, &b, &[x, h], i32t.into()).is_err());
    assert!(special::f_mod(&cx, &b, &[x, x], i32t.into()).is_err());
    assert!(special::shift_left_logical(&cx, &b, &[fl, x], f32t.into()).is_err());
    assert!(special::tan(&cx, &b, &[x], i32t.into()).is_err());
    assert!(special::f_convert(&cx, &b, &[x], f32t.into()).is_err());
    assert!(special::s_convert(&cx, &b, &[fl], i32t.into()).is_err());
    assert!(special::logical_not(&cx, &b, &[x], i32t.into()).is_err());
    assert!(special::not(&cx, &b, &[x], i8t.into()).is_err());
    assert!(special::shift_left_logical(&cx, &b, &[x, v2], i32t.into()).is_err());
    // What was built before each error still verifies once the block is closed.
    b.build_return(None).unwrap();
    verify(&module, "misfit");
}
