//! `spvkit from-llvm`: LLVM IR → SPIR-V. For every kernel of the OpenCL corpus
//! (`tests/corpus/opencl/from_llvm`): clang-15's bitcode, and llvm-spirv-15's SPV-IR
//! (`-r --spirv-target-env=SPV-IR`) of its SPIR-V, translate to SPIR-V that spirv-val accepts
//! and `spvkit val --target-env level-zero` accept, and that `spvkit run` executes to the same
//! buffers as llvm-spirv-15's own SPIR-V; so does spvkit's own spv-ir (`spvkit lower --style
//! spv-ir`) of llvm-spirv-15's SPIR-V, the spv → spv-ir → spv round trip. Errors name the
//! function and the instruction.

#![cfg(all(feature = "run", feature = "cli"))]

#[path = "support/opencl.rs"]
mod opencl;

use opencl::{kernels, out_dir, run, spirv_val, Kernel};
use std::path::{Path, PathBuf};
use std::process::Command;

fn spvkit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_spvkit"))
}

fn from_llvm(input: &Path, out: &Path) -> Result<(), String> {
    run(spvkit().arg("from-llvm").arg(input).arg("-o").arg(out)).map(|_| ())
}

fn run_job(spv: &Path, job: &Path) -> Result<String, String> {
    let out = run(spvkit()
        .arg("run")
        .arg(spv)
        .arg("--job")
        .arg(job)
        .args(["--threads", "1"]))?;
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// Translates `input` (from kernel `k`), validates, and runs against the reference.
fn check(k: &Kernel, input: &Path, tag: &str) -> Result<(), String> {
    let ours: PathBuf = out_dir().join(format!("{}.{tag}.spv", k.name));
    from_llvm(input, &ours)?;
    spirv_val(&ours, "opencl2.0").map_err(|e| format!("spirv-val: {e}"))?;
    run(spvkit()
        .args(["val", "--target-env", "level-zero"])
        .arg(&ours))
    .map_err(|e| format!("spvkit val --target-env level-zero: {e}"))?;
    if let Some(job) = &k.job {
        let want = run_job(&k.reference, job).map_err(|e| format!("reference run: {e}"))?;
        let got = run_job(&ours, job).map_err(|e| format!("our run: {e}"))?;
        if want != got {
            return Err(format!(
                "buffers differ:\nllvm-spirv-15: {want}\nspvkit:        {got}"
            ));
        }
    }
    Ok(())
}

/// (direction, kernel, reason): kernels a direction does not carry through yet. Each entry
/// is checked to still fail, so a fix shows up as a test failure that asks to remove it.
const KNOWN: &[(&str, &str, &str)] = &[];

fn all(tag: &str, input: impl Fn(&Kernel) -> Result<PathBuf, String>) {
    let ks = kernels();
    let mut failures = Vec::new();
    let mut passed = 0;
    for k in &ks {
        let r = input(k).and_then(|i| check(k, &i, tag));
        match r {
            Ok(()) => passed += 1,
            Err(e) => {
                if !KNOWN.iter().any(|(t, n, _)| *t == tag && *n == k.name) {
                    failures.push(format!("{}: {e}", k.name));
                }
            }
        }
    }
    for (t, n, why) in KNOWN.iter().filter(|(t, _, _)| *t == tag) {
        let k = ks
            .iter()
            .find(|k| k.name == *n)
            .expect("known kernel exists");
        if input(k).and_then(|i| check(k, &i, tag)).is_ok() {
            failures.push(format!("{t}/{n} passes now; remove it from KNOWN ({why})"));
        }
    }
    eprintln!("from-llvm {tag}: {passed}/{} kernels pass", ks.len());
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn clang_bitcode_translates_validates_and_computes_the_same() {
    all("clang", |k| Ok(k.bitcode.clone()));
}

#[test]
fn spv_ir_from_llvm_spirv_translates_validates_and_computes_the_same() {
    all("spvir", |k| {
        let bc = out_dir().join(format!("{}.spvir.bc", k.name));
        run(Command::new("llvm-spirv-15")
            .args(["-r", "--spirv-target-env=SPV-IR"])
            .arg(&k.reference)
            .arg("-o")
            .arg(&bc))?;
        Ok(bc)
    });
}

fn translate_text(name: &str, ll: &str) -> Result<(), String> {
    let p = out_dir().join(format!("{name}.ll"));
    std::fs::write(&p, ll).unwrap();
    from_llvm(&p, &out_dir().join(format!("{name}.spv")))
}

#[test]
fn invoke_is_an_error_naming_function_and_instruction() {
    let e = translate_text(
        "invoke",
        r#"target triple = "spir64-unknown-unknown"
declare spir_func void @may_throw()
declare i32 @__gxx_personality_v0(...)
define spir_func void @thrower() personality ptr @__gxx_personality_v0 {
entry:
  invoke spir_func void @may_throw() to label %ok unwind label %lp
ok:
  ret void
lp:
  %x = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %x
}
"#,
    )
    .unwrap_err();
    assert!(e.contains("thrower"), "{e}");
    assert!(e.contains("invoke spir_func void @may_throw()"), "{e}");
}

#[test]
fn unsupported_intrinsic_is_an_error_naming_function_and_instruction() {
    let e = translate_text(
        "intrinsic",
        r#"target triple = "spir64-unknown-unknown"
declare ptr @llvm.returnaddress(i32)
define spir_kernel void @k(ptr addrspace(1) %out) {
  %r = call ptr @llvm.returnaddress(i32 0)
  %i = ptrtoint ptr %r to i64
  store i64 %i, ptr addrspace(1) %out
  ret void
}
"#,
    )
    .unwrap_err();
    assert!(e.contains("in function 'k'"), "{e}");
    assert!(e.contains("@llvm.returnaddress"), "{e}");
    assert!(e.contains("llvm.returnaddress has no SPIR-V form"), "{e}");
}

#[test]
fn integers_wider_than_64_bits_are_errors_not_panics() {
    let e = translate_text(
        "i128",
        r#"target triple = "spir64-unknown-unknown"
define spir_kernel void @wide(ptr addrspace(1) %out, i64 %x) {
  %a = zext i64 %x to i128
  %b = mul i128 %a, %a
  %c = trunc i128 %b to i64
  store i64 %c, ptr addrspace(1) %out
  ret void
}
"#,
    )
    .unwrap_err();
    assert!(e.contains("wide") && e.contains("i128"), "{e}");
}

/// A user's own `atomic_cmpxchg` with two arguments is not OpenCL's three-argument function: an
/// error naming the call (it panicked on the missing operand).
#[test]
fn an_atomic_declared_with_too_few_arguments_is_an_error() {
    let e = translate_text(
        "atomic_arity",
        r#"target triple = "spir64-unknown-unknown"
declare spir_func i32 @_Z14atomic_cmpxchgPU3AS1Vii(ptr addrspace(1), i32)
define spir_kernel void @k(ptr addrspace(1) %p) {
  %r = call spir_func i32 @_Z14atomic_cmpxchgPU3AS1Vii(ptr addrspace(1) %p, i32 1)
  store i32 %r, ptr addrspace(1) %p
  ret void
}
"#,
    )
    .unwrap_err();
    assert!(e.contains("in function 'k'"), "{e}");
    assert!(e.contains("atomic_cmpxchg takes 3 arguments"), "{e}");
}

/// What SPIR-V cannot say is refused, not translated into something else: module-level inline
/// assembly, a kernel without a name, and a call of a variadic function other than printf.
#[test]
fn module_asm_unnamed_kernels_and_variadic_calls_are_refused() {
    let cases = [
        (
            "module_asm",
            "module asm \"nop\"\ndefine spir_kernel void @k() {\n  ret void\n}\n",
            "module-level inline assembly",
        ),
        (
            "unnamed_kernel",
            "define spir_kernel void @0() {\n  ret void\n}\n",
            "a kernel without a name",
        ),
        (
            "variadic",
            "declare spir_func void @report(i32, ...)\n\
             define spir_kernel void @k() {\n  call spir_func void (i32, ...) @report(i32 1, i32 2)\n  ret void\n}\n",
            "variadic function @report",
        ),
    ];
    for (name, body, expected) in cases {
        let e = translate_text(
            name,
            &format!("target triple = \"spir64-unknown-unknown\"\n{body}"),
        )
        .unwrap_err();
        assert!(e.contains(expected), "{name}: {e}");
    }
}

/// `__spirv_Store(p, v, 3, 4)`: the memory-access mask (Volatile | Aligned) is followed by the
/// alignment literal 4, not by the id of a constant 4 (it wrote alignment 1342177281).
#[test]
fn spirv_call_enumerant_parameters_are_literals() {
    let dis = translate_and_dis(
        "spirv_store_aligned",
        r#"target triple = "spir64-unknown-unknown"
declare spir_func void @_Z13__spirv_StorePU3AS1iiii(ptr addrspace(1), i32, i32, i32)
define spir_kernel void @k(ptr addrspace(1) %p) {
  call spir_func void @_Z13__spirv_StorePU3AS1iiii(ptr addrspace(1) %p, i32 7, i32 3, i32 4)
  ret void
}
"#,
    );
    assert!(dis.contains("%uint_7 Volatile|Aligned 4\n"), "{dis}");
    // A literal given as a value that is not a constant is refused, not passed as an id.
    let e = translate_text(
        "spirv_store_variable_mask",
        r#"target triple = "spir64-unknown-unknown"
declare spir_func void @_Z13__spirv_StorePU3AS1iii(ptr addrspace(1), i32, i32)
define spir_kernel void @k(ptr addrspace(1) %p, i32 %mask) {
  call spir_func void @_Z13__spirv_StorePU3AS1iii(ptr addrspace(1) %p, i32 7, i32 %mask)
  ret void
}
"#,
    )
    .unwrap_err();
    assert!(e.contains("not a constant"), "{e}");
}

/// `atomic_compare_exchange_strong` on an `atomic_float`: exchanged as the integers of its bits
/// (a float OpAtomicCompareExchange is invalid), checked by spirv-val and by running it.
#[test]
fn float_compare_exchange_runs_on_the_bits() {
    let dir = out_dir();
    let (cl, bc, spv) = (
        dir.join("float_cas.cl"),
        dir.join("float_cas.bc"),
        dir.join("float_cas.spv"),
    );
    std::fs::write(
        &cl,
        "__kernel void cas(__global atomic_float *a, __global float *expected,\n\
         __global const float *desired, __global int *ok) {\n\
           size_t g = get_global_id(0);\n\
           float e = expected[g];\n\
           ok[g] = atomic_compare_exchange_strong(&a[g], &e, desired[g]);\n\
           expected[g] = e;\n\
         }\n",
    )
    .unwrap();
    opencl::clang(&cl, "spir64-unknown-unknown", ["-O0"], &bc).unwrap();
    from_llvm(&bc, &spv).unwrap();
    spirv_val(&spv, "opencl2.0").unwrap();
    let job = dir.join("float_cas.json");
    std::fs::write(
        &job,
        r#"{"entry": "cas", "dispatch": [2, 1, 1], "local_size": [1, 1, 1], "work_dim": 1,
            "args": [
              {"kind": "buffer", "layout": ["f32"], "data": [1.5, 2.5]},
              {"kind": "buffer", "layout": ["f32"], "data": [1.5, 9.0]},
              {"kind": "buffer", "layout": ["f32"], "data": [7.0, 8.0]},
              {"kind": "buffer", "layout": ["i32"], "data": [5, 5]}]}"#,
    )
    .unwrap();
    let out = run(spvkit().arg("run").arg(&spv).arg("--job").arg(&job)).unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let data = |i: usize| v["buffers"][i]["data"].to_string();
    assert_eq!(data(0), "[7.0,2.5]", "{v}");
    assert_eq!(data(1), "[1.5,2.5]", "{v}");
    assert_eq!(data(3), "[1,0]", "{v}");
}

/// Integers SPIR-V has no type for (`i5`, `i2`, `i33`, as optimized LLVM makes them; llvm-spirv-15
/// refuses them) are held in the next wider integer: wrapping arithmetic, signed division,
/// remainder, shifts and comparisons, extensions, a switch on an `i2` and an `i33` product
/// compute what those widths compute, here in Rust.
#[test]
fn narrow_integers_compute_at_their_own_width() {
    let ll = r#"target triple = "spir64-unknown-unknown"
declare spir_func i64 @_Z13get_global_idj(i32)
define spir_kernel void @narrow(ptr addrspace(1) %out, ptr addrspace(1) %in) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %ip = getelementptr i32, ptr addrspace(1) %in, i64 %gid
  %x = load i32, ptr addrspace(1) %ip
  %y = mul i32 %x, 7
  %a = trunc i32 %x to i5
  %b = trunc i32 %y to i5
  %base = mul i64 %gid, 16
  %add = add i5 %a, %b
  %sub = sub i5 %a, %b
  %mul = mul i5 %a, %b
  %shl = shl i5 %a, 3
  %sdiv = sdiv i5 %a, -3
  %srem = srem i5 %a, 3
  %ashr = ashr i5 %a, 2
  %lshr = lshr i5 %a, 2
  %slt = icmp slt i5 %a, %b
  %ult = icmp ult i5 %a, %b
  %r0 = zext i5 %add to i32
  %r1 = zext i5 %sub to i32
  %r2 = zext i5 %mul to i32
  %r3 = zext i5 %shl to i32
  %r4 = sext i5 %sdiv to i32
  %r5 = sext i5 %srem to i32
  %r6 = sext i5 %ashr to i32
  %r7 = zext i5 %lshr to i32
  %r8 = zext i1 %slt to i32
  %r9 = zext i1 %ult to i32
  %s3 = sext i1 %slt to i3
  %r10 = zext i3 %s3 to i32
  %w = zext i32 %x to i33
  %w2 = mul i33 %w, %w
  %w3 = lshr i33 %w2, 1
  %r11 = trunc i33 %w3 to i32
  %t = trunc i32 %x to i2
  switch i2 %t, label %other [ i2 0, label %zero
                               i2 -1, label %three ]
zero:
  br label %join
three:
  br label %join
other:
  br label %join
join:
  %r12 = phi i32 [ 100, %zero ], [ 300, %three ], [ -1, %other ]
  %sx = sext i5 %a to i64
  %r13 = trunc i64 %sx to i32
  %p0 = getelementptr i32, ptr addrspace(1) %out, i64 %base
  store i32 %r0, ptr addrspace(1) %p0
  %o1 = add i64 %base, 1
  %p1 = getelementptr i32, ptr addrspace(1) %out, i64 %o1
  store i32 %r1, ptr addrspace(1) %p1
  %o2 = add i64 %base, 2
  %p2 = getelementptr i32, ptr addrspace(1) %out, i64 %o2
  store i32 %r2, ptr addrspace(1) %p2
  %o3 = add i64 %base, 3
  %p3 = getelementptr i32, ptr addrspace(1) %out, i64 %o3
  store i32 %r3, ptr addrspace(1) %p3
  %o4 = add i64 %base, 4
  %p4 = getelementptr i32, ptr addrspace(1) %out, i64 %o4
  store i32 %r4, ptr addrspace(1) %p4
  %o5 = add i64 %base, 5
  %p5 = getelementptr i32, ptr addrspace(1) %out, i64 %o5
  store i32 %r5, ptr addrspace(1) %p5
  %o6 = add i64 %base, 6
  %p6 = getelementptr i32, ptr addrspace(1) %out, i64 %o6
  store i32 %r6, ptr addrspace(1) %p6
  %o7 = add i64 %base, 7
  %p7 = getelementptr i32, ptr addrspace(1) %out, i64 %o7
  store i32 %r7, ptr addrspace(1) %p7
  %o8 = add i64 %base, 8
  %p8 = getelementptr i32, ptr addrspace(1) %out, i64 %o8
  store i32 %r8, ptr addrspace(1) %p8
  %o9 = add i64 %base, 9
  %p9 = getelementptr i32, ptr addrspace(1) %out, i64 %o9
  store i32 %r9, ptr addrspace(1) %p9
  %o10 = add i64 %base, 10
  %p10 = getelementptr i32, ptr addrspace(1) %out, i64 %o10
  store i32 %r10, ptr addrspace(1) %p10
  %o11 = add i64 %base, 11
  %p11 = getelementptr i32, ptr addrspace(1) %out, i64 %o11
  store i32 %r11, ptr addrspace(1) %p11
  %o12 = add i64 %base, 12
  %p12 = getelementptr i32, ptr addrspace(1) %out, i64 %o12
  store i32 %r12, ptr addrspace(1) %p12
  %o13 = add i64 %base, 13
  %p13 = getelementptr i32, ptr addrspace(1) %out, i64 %o13
  store i32 %r13, ptr addrspace(1) %p13
  ret void
}
"#;
    let src = out_dir().join("narrow.ll");
    let spv = out_dir().join("narrow.spv");
    std::fs::write(&src, ll).unwrap();
    from_llvm(&src, &spv).unwrap();
    spirv_val(&spv, "opencl2.0").unwrap();
    let xs: Vec<i32> = (-40..40).map(|k| k * 13 + 5).collect();
    let job = out_dir().join("narrow.json");
    let data: Vec<String> = xs.iter().map(i32::to_string).collect();
    std::fs::write(
        &job,
        format!(
            r#"{{"entry": "narrow", "dispatch": [{}, 1, 1], "local_size": [1, 1, 1],
               "work_dim": 1, "args": [
               {{"kind": "buffer", "layout": ["i32"], "size_words": {}}},
               {{"kind": "buffer", "layout": ["i32"], "data": [{}]}}]}}"#,
            xs.len(),
            xs.len() * 16,
            data.join(", ")
        ),
    )
    .unwrap();
    let got = run_job(&spv, &job).unwrap();
    let got: serde_json::Value = serde_json::from_str(&got).unwrap();
    let got: Vec<i64> = got["buffers"][0]["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    // i5 arithmetic: the low 5 bits, read as signed where the operation is signed.
    let wrap = |v: i64| v & 31;
    let signed = |v: i64| ((wrap(v) << 59) >> 59) as i32;
    for (g, &x) in xs.iter().enumerate() {
        let (a, b) = (wrap(i64::from(x)), wrap(i64::from(x) * 7));
        let (sa, sb) = (i64::from(signed(a)), i64::from(signed(b)));
        let slt = sa < sb;
        let w = u64::from(x as u32);
        let want: Vec<i64> = vec![
            wrap(a + b),
            wrap(a - b),
            wrap(a * b),
            wrap(a << 3),
            i64::from(signed(sa / -3)),
            i64::from(signed(sa % 3)),
            i64::from(signed(sa >> 2)),
            a >> 2,
            i64::from(slt),
            i64::from(a < b),
            if slt { 7 } else { 0 },
            i64::from((((w * w) & ((1 << 33) - 1)) >> 1) as u32 as i32),
            match x & 3 {
                0 => 100,
                3 => 300,
                _ => -1,
            },
            sa,
        ];
        assert_eq!(&got[g * 16..g * 16 + 14], &want[..], "x = {x}");
    }
}

#[test]
fn spv_ir_text_with_builtin_globals_and_metadata() {
    let ll = r#"target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"
target triple = "spir64-unknown-unknown"
@__spirv_BuiltInGlobalInvocationId = external addrspace(7) global <3 x i64>
define spir_kernel void @scale(ptr addrspace(1) %buf, float %s) !reqd_work_group_size !0 {
entry:
  %id = load <3 x i64>, ptr addrspace(7) @__spirv_BuiltInGlobalInvocationId
  %x = extractelement <3 x i64> %id, i32 0
  %p = getelementptr inbounds float, ptr addrspace(1) %buf, i64 %x
  %v = load float, ptr addrspace(1) %p
  %m = call spir_func float @_Z16__spirv_ocl_fmaxff(float %v, float 0.0)
  %r = fmul float %m, %s
  %c = call spir_func i32 @_Z24__spirv_ConvertFToS_Rintf(float %r)
  %f = call spir_func float @_Z26__spirv_ConvertSToF_Rfloati(i32 %c)
  store float %f, ptr addrspace(1) %p
  call spir_func void @_Z22__spirv_ControlBarrieriii(i32 2, i32 2, i32 272)
  ret void
}
declare spir_func float @_Z16__spirv_ocl_fmaxff(float, float)
declare spir_func i32 @_Z24__spirv_ConvertFToS_Rintf(float)
declare spir_func float @_Z26__spirv_ConvertSToF_Rfloati(i32)
declare spir_func void @_Z22__spirv_ControlBarrieriii(i32, i32, i32)
!0 = !{i32 4, i32 1, i32 1}
"#;
    let p = out_dir().join("spv_ir_text.ll");
    std::fs::write(&p, ll).unwrap();
    let spv = out_dir().join("spv_ir_text.spv");
    from_llvm(&p, &spv).unwrap();
    spirv_val(&spv, "opencl2.0").unwrap();
    let dis = run(Command::new("spirv-dis").arg(&spv)).unwrap();
    let dis = String::from_utf8_lossy(&dis);
    for want in [
        "OpEntryPoint Kernel",
        "OpExecutionMode %scale LocalSize 4 1 1",
        "BuiltIn GlobalInvocationId",
        "fmax",
        "OpConvertFToS",
        "OpControlBarrier",
        "Physical64",
    ] {
        assert!(dis.contains(want), "missing {want}:\n{dis}");
    }
    let job = out_dir().join("spv_ir_text.job.json");
    std::fs::write(
        &job,
        r#"{"entry": "scale", "local_size": [4], "global_size": [4],
            "args": [{"kind": "buffer", "layout": ["f32"], "data": [1.5, -2, 3.7, 10]},
                     {"kind": "scalar", "type": "f32", "value": 2}]}"#,
    )
    .unwrap();
    let out = run_job(&spv, &job).unwrap();
    assert!(out.contains("[3.0, 0.0, 7.0, 20.0]"), "{out}");
}

#[test]
fn spv_to_spvkit_spv_ir_and_back_validates_and_computes_the_same() {
    all("roundtrip", |k| {
        let bc = out_dir().join(format!("{}.spvkit-spvir.bc", k.name));
        run(spvkit()
            .args(["lower", "--style", "spv-ir", "--emit", "bc"])
            .arg(&k.reference)
            .arg("-o")
            .arg(&bc))?;
        Ok(bc)
    });
}

/// The disassembly of a translation of hand-written LLVM IR, validated.
fn translate_and_dis(name: &str, ll: &str) -> String {
    translate_and_dis_in("opencl2.0", name, ll)
}

/// [`translate_and_dis`], validated for `env` (`spv1.0` where OpenCL 2.0's profile forbids a
/// capability the module needs, as `Float16`).
fn translate_and_dis_in(env: &str, name: &str, ll: &str) -> String {
    let p = out_dir().join(format!("{name}.ll"));
    std::fs::write(&p, ll).unwrap();
    let spv = out_dir().join(format!("{name}.spv"));
    from_llvm(&p, &spv).unwrap();
    spirv_val(&spv, env).unwrap();
    let dis = run(Command::new("spirv-dis").arg(&spv)).unwrap();
    String::from_utf8_lossy(&dis).into_owned()
}

#[test]
fn decoration_metadata_and_member_annotations_become_decorations() {
    let dis = translate_and_dis(
        "decorations",
        r#"target triple = "spir64-unknown-unknown"
%struct.S = type { i32, i32 }
@g = addrspace(1) global i32 0, align 4, !spirv.Decorations !0
@.str = private unnamed_addr constant [26 x i8] c"{register:1}{numbanks:4}\00\00", section "llvm.metadata"
@.file = private unnamed_addr constant [1 x i8] zeroinitializer, section "llvm.metadata"
define spir_kernel void @k(ptr addrspace(1) noalias nocapture %out, float %a, i32 %x) !spirv.ParameterDecorations !4 !spirv.Decorations !8 {
entry:
  %s = alloca %struct.S, align 4
  %m = getelementptr inbounds %struct.S, ptr %s, i32 0, i32 1
  %ann = call ptr @llvm.ptr.annotation.p0.p0(ptr %m, ptr @.str, ptr @.file, i32 0, ptr null)
  store i32 %x, ptr %ann, align 4
  %f = fmul nnan float %a, %a, !spirv.Decorations !10
  store float %f, ptr addrspace(1) %out, align 4
  %v = load i32, ptr %ann, align 4
  store i32 %v, ptr addrspace(1) @g, align 4
  ret void
}
declare ptr @llvm.ptr.annotation.p0.p0(ptr, ptr, ptr, i32, ptr)
!spirv.Extension = !{!13, !14}
!0 = !{!1, !2}
!1 = !{i32 21}
!2 = !{i32 44, i32 4}
!4 = !{!5, !6, !6}
!5 = !{!1}
!6 = !{}
!8 = !{!9}
!9 = !{i32 5602}
!10 = !{!11, !12}
!11 = !{i32 5635, !"product"}
!12 = !{i32 40, i32 2}
!13 = !{!"SPV_GOOGLE_decorate_string"}
!14 = !{!"SPV_GOOGLE_hlsl_functionality1"}
"#,
    );
    for want in [
        "OpDecorate %g Volatile",
        "OpDecorate %g Alignment 4",
        "OpDecorate %k ReferencedIndirectlyINTEL",
        "FuncParamAttr NoAlias",
        "FuncParamAttr NoCapture",
        "Volatile",
        "UserSemantic \"product\"",
        "FPFastMathMode NotNaN|NotInf",
        "OpMemberDecorate %struct_S 1 RegisterINTEL",
        "OpMemberDecorate %struct_S 1 NumbanksINTEL 4",
        "SPV_INTEL_fpga_memory_attributes",
    ] {
        assert!(dis.contains(want), "missing {want}:\n{dis}");
    }
    // Alignment 4 is derived from `align 4` and in the metadata: written once.
    assert_eq!(dis.matches("OpDecorate %g Alignment").count(), 1, "{dis}");
    // The annotation strings are not globals of the output.
    assert!(!dis.contains("numbanks"), "{dis}");
}

#[test]
fn malformed_decoration_metadata_is_an_error_naming_its_place() {
    let e = translate_text(
        "bad_decoration",
        r#"target triple = "spir64-unknown-unknown"
define spir_kernel void @k(ptr addrspace(1) %out, float %a) {
  %f = fmul float %a, %a, !spirv.Decorations !0
  store float %f, ptr addrspace(1) %out
  ret void
}
!0 = !{!1}
!1 = !{i32 40, !"fast"}
"#,
    )
    .unwrap_err();
    assert!(e.contains("in function 'k'") && e.contains("fmul"), "{e}");
    assert!(e.contains("must be an integer"), "{e}");
    let e = translate_text(
        "bad_global_decoration",
        r#"target triple = "spir64-unknown-unknown"
@g = addrspace(1) global i32 0, !spirv.Decorations !0
!0 = !{i32 21}
"#,
    )
    .unwrap_err();
    assert!(e.contains("global @g"), "{e}");
}

/// How often each instruction of interest occurs in a module's disassembly: the op of every
/// line whose text matches one of `keys` (`OpExtInst` lines keep their instruction name).
fn op_counts(spv: &Path, keys: &[&str]) -> std::collections::BTreeMap<String, usize> {
    let dis = run(Command::new("spirv-dis").arg(spv)).unwrap();
    let mut m = std::collections::BTreeMap::new();
    for l in String::from_utf8_lossy(&dis).lines() {
        let body = l.split_once(" = ").map_or(l.trim(), |(_, r)| r);
        let mut words = body.split_whitespace();
        let Some(op) = words.next() else { continue };
        let op = if op == "OpExtInst" {
            words.nth(2).unwrap_or(op).to_string()
        } else {
            op.to_string()
        };
        if keys.iter().any(|k| op.contains(k)) && !op.starts_with("OpType") {
            *m.entry(op).or_insert(0) += 1;
        }
    }
    m
}

/// clang-15 bitcode of an OpenCL C file of `tests/corpus/opencl/from_llvm_ops/` (kernels
/// `spvkit run` cannot execute) through `from-llvm`, llvm-spirv-15's SPV-IR of the same
/// through `from-llvm`, and the spv → spv-ir → spv round trip: all validate, and the
/// instructions of interest are those of llvm-spirv-15's SPIR-V, as many times.
fn same_ops_as_llvm_spirv(file: &str, keys: &[&str]) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus/opencl/from_llvm_ops")
        .join(file);
    let k = opencl::compile(&src).unwrap();
    let want = op_counts(&k.reference, keys);
    assert!(
        !want.is_empty(),
        "{file}: llvm-spirv-15 wrote none of {keys:?}"
    );
    let spvir = out_dir().join(format!("{}.spvir.bc", k.name));
    run(Command::new("llvm-spirv-15")
        .args(["-r", "--spirv-target-env=SPV-IR"])
        .arg(&k.reference)
        .arg("-o")
        .arg(&spvir))
    .unwrap();
    let roundtrip = out_dir().join(format!("{}.spvkit-spvir.bc", k.name));
    run(spvkit()
        .args(["lower", "--style", "spv-ir", "--emit", "bc"])
        .arg(&k.reference)
        .arg("-o")
        .arg(&roundtrip))
    .unwrap();
    for (tag, input) in [
        ("clang", &k.bitcode),
        ("spvir", &spvir),
        ("roundtrip", &roundtrip),
    ] {
        let ours = out_dir().join(format!("{}.{tag}.spv", k.name));
        from_llvm(input, &ours).unwrap_or_else(|e| panic!("{file} {tag}: {e}"));
        spirv_val(&ours, "opencl2.0").unwrap_or_else(|e| panic!("{file} {tag}: {e}"));
        assert_eq!(op_counts(&ours, keys), want, "{file} {tag}");
    }
}

#[test]
fn printf_is_the_opencl_std_printf_as_llvm_spirv_writes_it() {
    same_ops_as_llvm_spirv("printf.cl", &["printf"]);
}

#[test]
fn pipes_are_the_pipe_instructions_as_llvm_spirv_writes_them() {
    same_ops_as_llvm_spirv("pipes.cl", &["Pipe", "ReserveId"]);
}

#[test]
fn float_atomicrmw_is_atomic_float_ext_and_computes() {
    // llvm-spirv-15 rejects `atomicrmw fadd` ("Atomic fadd is not supported"), so the
    // buffers are checked against their known values: small integers sum exactly in any order.
    let ll = r#"target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"
define spir_kernel void @fatom(ptr addrspace(1) %acc, ptr addrspace(1) %in) {
entry:
  %id = call spir_func i64 @_Z13get_global_idj(i32 0)
  %p = getelementptr inbounds float, ptr addrspace(1) %in, i64 %id
  %v = load float, ptr addrspace(1) %p, align 4
  %a0 = atomicrmw fadd ptr addrspace(1) %acc, float %v seq_cst
  %acc1 = getelementptr inbounds float, ptr addrspace(1) %acc, i64 1
  %a1 = atomicrmw fsub ptr addrspace(1) %acc1, float %v monotonic
  %acc2 = getelementptr inbounds float, ptr addrspace(1) %acc, i64 2
  %a2 = atomicrmw fmin ptr addrspace(1) %acc2, float %v seq_cst
  %acc3 = getelementptr inbounds float, ptr addrspace(1) %acc, i64 3
  %a3 = atomicrmw fmax ptr addrspace(1) %acc3, float %v seq_cst
  ret void
}
declare spir_func i64 @_Z13get_global_idj(i32)
"#;
    let dis = translate_and_dis("fatom", ll);
    for want in [
        "OpCapability AtomicFloat32AddEXT",
        "OpCapability AtomicFloat32MinMaxEXT",
        "OpExtension \"SPV_EXT_shader_atomic_float_add\"",
        "OpExtension \"SPV_EXT_shader_atomic_float_min_max\"",
        "OpFNegate",
        "OpAtomicFMinEXT",
        "OpAtomicFMaxEXT",
    ] {
        assert!(dis.contains(want), "missing {want}:\n{dis}");
    }
    assert_eq!(dis.matches("OpAtomicFAddEXT").count(), 2, "{dis}");
    let job = out_dir().join("fatom.job.json");
    std::fs::write(
        &job,
        r#"{"entry": "fatom", "local_size": [4], "global_size": [8],
            "args": [{"kind": "buffer", "layout": ["f32"], "data": [0, 0, 100, -100]},
                     {"kind": "buffer", "layout": ["f32"], "data": [3, -1, 4, 1, -5, 9, 2, 6]}]}"#,
    )
    .unwrap();
    let out = run_job(&out_dir().join("fatom.spv"), &job).unwrap();
    assert!(out.contains("[19.0, -19.0, -5.0, 9.0]"), "{out}");
}

#[test]
fn device_enqueue_is_enqueue_kernel_as_llvm_spirv_writes_it() {
    same_ops_as_llvm_spirv(
        "enqueue.cl",
        &["Enqueue", "NDRange", "DefaultQueue", "Event", "GetKernel"],
    );
}

/// SPV-IR as current SPIRV-LLVM-Translator and other LLVM 19 producers write it: images,
/// samplers, pipes and events as `target("spirv.*")` types, passed by value, a literal sampler
/// from `__translate_sampler_initializer`, an event null as `zeroinitializer`.
const TARGET_TYPES_LL: &str = r#"target triple = "spir64-unknown-unknown"
@tile = internal addrspace(3) global [4 x float] undef
define spir_kernel void @tex(target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 0) %src, target("spirv.Image", void, 2, 0, 0, 0, 0, 0, 1) %dst, target("spirv.Sampler") %s, target("spirv.Pipe", 0) %pin, ptr addrspace(1) %out) {
entry:
  %ev = alloca target("spirv.Event")
  %v = alloca i32
  %lit = call target("spirv.Sampler") @__translate_sampler_initializer(i32 39)
  %si = call spir_func target("spirv.SampledImage", void, 1, 0, 0, 0, 0, 0, 0) @_Z20__spirv_SampledImagePU3AS133__spirv_Image__void_1_0_0_0_0_0_0PU3AS215__spirv_Sampler(target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 0) %src, target("spirv.Sampler") %s)
  %a = call spir_func <4 x float> @_Z38__spirv_ImageSampleExplicitLod_Rfloat4PU3AS140__spirv_SampledImage__void_1_0_0_0_0_0_0Dv2_fif(target("spirv.SampledImage", void, 1, 0, 0, 0, 0, 0, 0) %si, <2 x float> zeroinitializer, i32 2, float 0.0)
  %si2 = call spir_func target("spirv.SampledImage", void, 1, 0, 0, 0, 0, 0, 0) @_Z20__spirv_SampledImagePU3AS133__spirv_Image__void_1_0_0_0_0_0_0PU3AS215__spirv_Sampler(target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 0) %src, target("spirv.Sampler") %lit)
  %b = call spir_func <4 x float> @_Z38__spirv_ImageSampleExplicitLod_Rfloat4PU3AS140__spirv_SampledImage__void_1_0_0_0_0_0_0Dv2_fif(target("spirv.SampledImage", void, 1, 0, 0, 0, 0, 0, 0) %si2, <2 x float> zeroinitializer, i32 2, float 0.0)
  %c = fadd <4 x float> %a, %b
  call spir_func void @_Z18__spirv_ImageWritePU3AS133__spirv_Image__void_2_0_0_0_0_0_1Dv4_iDv4_f(target("spirv.Image", void, 2, 0, 0, 0, 0, 0, 1) %dst, <4 x i32> zeroinitializer, <4 x float> %c)
  %sz = call spir_func <2 x i32> @_Z31__spirv_ImageQuerySizeLod_Rint2PU3AS133__spirv_Image__void_1_0_0_0_0_0_0i(target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 0) %src, i32 0)
  %w = extractelement <2 x i32> %sz, i32 0
  %vg = addrspacecast ptr %v to ptr addrspace(4)
  %r = call spir_func i32 @_Z16__spirv_ReadPipePU3AS115__spirv_Pipe__0PU3AS4cii(target("spirv.Pipe", 0) %pin, ptr addrspace(4) %vg, i32 4, i32 4)
  %x = add i32 %w, %r
  store i32 %x, ptr addrspace(1) %out
  %e = call spir_func target("spirv.Event") @_Z22__spirv_GroupAsyncCopyiPU3AS3fPU3AS1fllP13__spirv_Event(i32 2, ptr addrspace(3) @tile, ptr addrspace(1) %out, i64 4, i64 1, target("spirv.Event") zeroinitializer)
  store target("spirv.Event") %e, ptr %ev
  %evg = addrspacecast ptr %ev to ptr addrspace(4)
  call spir_func void @_Z23__spirv_GroupWaitEventsiiPU3AS4P13__spirv_Event(i32 2, i32 1, ptr addrspace(4) %evg)
  ret void
}
declare target("spirv.Sampler") @__translate_sampler_initializer(i32)
declare spir_func target("spirv.SampledImage", void, 1, 0, 0, 0, 0, 0, 0) @_Z20__spirv_SampledImagePU3AS133__spirv_Image__void_1_0_0_0_0_0_0PU3AS215__spirv_Sampler(target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 0), target("spirv.Sampler"))
declare spir_func <4 x float> @_Z38__spirv_ImageSampleExplicitLod_Rfloat4PU3AS140__spirv_SampledImage__void_1_0_0_0_0_0_0Dv2_fif(target("spirv.SampledImage", void, 1, 0, 0, 0, 0, 0, 0), <2 x float>, i32, float)
declare spir_func void @_Z18__spirv_ImageWritePU3AS133__spirv_Image__void_2_0_0_0_0_0_1Dv4_iDv4_f(target("spirv.Image", void, 2, 0, 0, 0, 0, 0, 1), <4 x i32>, <4 x float>)
declare spir_func <2 x i32> @_Z31__spirv_ImageQuerySizeLod_Rint2PU3AS133__spirv_Image__void_1_0_0_0_0_0_0i(target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 0), i32)
declare spir_func i32 @_Z16__spirv_ReadPipePU3AS115__spirv_Pipe__0PU3AS4cii(target("spirv.Pipe", 0), ptr addrspace(4), i32, i32)
declare spir_func target("spirv.Event") @_Z22__spirv_GroupAsyncCopyiPU3AS3fPU3AS1fllP13__spirv_Event(i32, ptr addrspace(3), ptr addrspace(1), i64, i64, target("spirv.Event"))
declare spir_func void @_Z23__spirv_GroupWaitEventsiiPU3AS4P13__spirv_Event(i32, i32, ptr addrspace(4))
"#;

#[test]
fn target_extension_types_translate_to_opaque_spirv_types() {
    let p = out_dir().join("target_types.ll");
    std::fs::write(&p, TARGET_TYPES_LL).unwrap();
    // LLVM 19 itself accepts the module.
    run(Command::new("llvm-as-19")
        .arg(&p)
        .arg("-o")
        .arg(out_dir().join("target_types.bc")))
    .unwrap();
    let spv = out_dir().join("target_types.spv");
    from_llvm(&p, &spv).unwrap();
    spirv_val(&spv, "opencl2.0").unwrap();
    let dis = run(Command::new("spirv-dis").arg(&spv)).unwrap();
    let dis = String::from_utf8_lossy(&dis);
    for want in [
        "OpTypeImage %void 2D 0 0 0 0 Unknown ReadOnly",
        "OpTypeImage %void 3D 0 0 0 0 Unknown WriteOnly",
        "OpTypeSampledImage",
        "OpTypeSampler",
        "OpTypePipe ReadOnly",
        "OpTypeEvent",
        "OpConstantSampler %",
        "Repeat 1 Linear",
        "OpSampledImage",
        "OpImageSampleExplicitLod",
        "OpImageWrite",
        "OpImageQuerySizeLod",
        "OpReadPipe",
        "OpGroupAsyncCopy",
        "OpGroupWaitEvents",
    ] {
        assert!(dis.contains(want), "missing {want}:\n{dis}");
    }
    assert!(dis.contains("OpConstantNull %"), "the event null:\n{dis}");
}

#[test]
fn unknown_target_types_are_errors_naming_the_place() {
    let e = translate_text(
        "bogus_target",
        r#"target triple = "spir64-unknown-unknown"
declare spir_func void @ext(target("spirv.Bogus"))
define spir_kernel void @k(ptr addrspace(1) %out) {
  %e = alloca target("spirv.Bogus")
  %v = load target("spirv.Bogus"), ptr %e
  call spir_func void @ext(target("spirv.Bogus") %v)
  ret void
}
"#,
    )
    .unwrap_err();
    assert!(e.contains("in function 'k'"), "{e}");
    assert!(e.contains("alloca target(\"spirv.Bogus\")"), "{e}");
    assert!(e.contains("has no SPIR-V form"), "{e}");
    // An image with the wrong number of parameters, as a kernel parameter.
    let e = translate_text(
        "short_image",
        r#"target triple = "spir64-unknown-unknown"
define spir_kernel void @k2(target("spirv.Image", void, 1) %img, ptr addrspace(1) %out) {
  ret void
}
"#,
    )
    .unwrap_err();
    assert!(e.contains("in function 'k2'"), "{e}");
    assert!(e.contains("target(\"spirv.Image\", void, 1) %img"), "{e}");
}

/// A call of a function the module only declares is an error unless `--allow-imports` asks
/// for an import; a builtin spvkit cannot translate is an error even then, whatever its
/// mangling (a template here), since an imported builtin would compute nothing.
#[test]
fn declared_functions_are_imported_only_when_asked_and_builtins_never() {
    let user = "target triple = \"spir64-unknown-unknown\"\n\
        declare spir_func i32 @_Z6helperi(i32)\n\
        define spir_kernel void @k(ptr addrspace(1) %out) {\n\
          %r = call spir_func i32 @_Z6helperi(i32 3)\n\
          store i32 %r, ptr addrspace(1) %out\n  ret void\n}\n";
    let e = translate_text("import_refused", user).unwrap_err();
    assert!(
        e.contains("@_Z6helperi") && e.contains("--allow-imports"),
        "{e}"
    );
    let p = out_dir().join("import_allowed.ll");
    std::fs::write(&p, user).unwrap();
    let spv = out_dir().join("import_allowed.spv");
    run(spvkit()
        .args(["from-llvm", "--allow-imports"])
        .arg(&p)
        .arg("-o")
        .arg(&spv))
    .unwrap();
    spirv_val(&spv, "opencl2.0").unwrap();
    let dis =
        String::from_utf8_lossy(&run(Command::new("spirv-dis").arg(&spv)).unwrap()).into_owned();
    assert!(
        dis.contains("LinkageAttributes \"_Z6helperi\" Import"),
        "{dis}"
    );
    // `void __spirv_AbortKHR<int>(int)`: a SPIR-V builtin spvkit does not know.
    let builtin = "target triple = \"spir64-unknown-unknown\"\n\
        declare spir_func void @_Z16__spirv_AbortKHRIiEvT_(i32)\n\
        define spir_kernel void @k(i32 %m) {\n\
          call spir_func void @_Z16__spirv_AbortKHRIiEvT_(i32 %m)\n  ret void\n}\n";
    let p = out_dir().join("import_builtin.ll");
    std::fs::write(&p, builtin).unwrap();
    let e = run(spvkit()
        .args(["from-llvm", "--allow-imports"])
        .arg(&p)
        .arg("-o")
        .arg(out_dir().join("import_builtin.spv")))
    .unwrap_err();
    assert!(e.contains("__spirv_AbortKHR"), "{e}");
    assert!(!e.contains("only under --allow-imports"), "{e}");
}

/// Builtins whose mangled names use `_Float16` (`DF16_`), templates and SYCL's enum types are
/// read, so they become their instructions instead of calls of nothing.
#[test]
fn builtins_with_float16_templates_and_enum_types_become_instructions() {
    let dis = translate_and_dis_in(
        "spv1.0",
        "demangled_builtins",
        "target triple = \"spir64-unknown-unknown\"\n\
         declare spir_func i1 @_Z13__spirv_IsNanDF16_(half)\n\
         declare spir_func i32 @_Z18__spirv_AtomicIAddPU3AS1iN5__spv5Scope4FlagENS1_19MemorySemanticsMask4FlagEi(ptr addrspace(1), i32, i32, i32)\n\
         declare spir_func half @_Z5fractDF16_PU3AS1DF16_(half, ptr addrspace(1))\n\
         define spir_kernel void @k(half %h, ptr addrspace(1) %p, ptr addrspace(1) %q, ptr addrspace(1) %out) {\n\
           %n = call spir_func i1 @_Z13__spirv_IsNanDF16_(half %h)\n\
           %z = zext i1 %n to i32\n\
           %a = call spir_func i32 @_Z18__spirv_AtomicIAddPU3AS1iN5__spv5Scope4FlagENS1_19MemorySemanticsMask4FlagEi(ptr addrspace(1) %p, i32 1, i32 0, i32 %z)\n\
           %f = call spir_func half @_Z5fractDF16_PU3AS1DF16_(half %h, ptr addrspace(1) %q)\n\
           store i32 %a, ptr addrspace(1) %out\n\
           store half %f, ptr addrspace(1) %q\n  ret void\n}\n",
    );
    assert!(dis.contains("OpIsNan"), "{dis}");
    assert!(dis.contains("OpAtomicIAdd"), "{dis}");
    assert!(dis.contains("fract"), "{dis}");
    assert!(!dis.contains("LinkageAttributes"), "{dis}");
}

/// LLVM IR for another target (its types, calling conventions and intrinsics) is refused with
/// the triple named, not translated as if it were SPIR.
#[test]
fn non_spir_triples_are_refused() {
    let e = translate_text(
        "x86_triple",
        "target triple = \"x86_64-pc-linux-gnu\"\n\
         define spir_kernel void @k() {\n  ret void\n}\n",
    )
    .unwrap_err();
    assert!(e.contains("x86_64-pc-linux-gnu"), "{e}");
}

/// Runs kernel `entry` of LLVM text `ll` (saved as `name`) over `n` work items with two `i32`
/// buffers: `out` (`out_words` words, zeroed) and `input`; returns `out`.
fn run_ll(name: &str, ll: &str, n: usize, out_words: usize, input: &[i32]) -> Vec<i64> {
    let src = out_dir().join(format!("{name}.ll"));
    let spv = out_dir().join(format!("{name}.spv"));
    std::fs::write(&src, ll).unwrap();
    from_llvm(&src, &spv).unwrap();
    spirv_val(&spv, "opencl2.0").unwrap();
    let job = out_dir().join(format!("{name}.json"));
    let data: Vec<String> = input.iter().map(i32::to_string).collect();
    std::fs::write(
        &job,
        format!(
            r#"{{"entry": "{name}", "dispatch": [{n}, 1, 1], "local_size": [1, 1, 1],
               "work_dim": 1, "args": [
               {{"kind": "buffer", "layout": ["i32"], "size_words": {out_words}}},
               {{"kind": "buffer", "layout": ["i32"], "data": [{}]}}]}}"#,
            data.join(", ")
        ),
    )
    .unwrap();
    let got: serde_json::Value = serde_json::from_str(&run_job(&spv, &job).unwrap()).unwrap();
    got["buffers"][0]["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect()
}

/// The LLVM text of a kernel `name(ptr out, ptr in)` whose work item g reads `<4 x i32> %v`
/// from `in[4g..]` and stores each `(i32 value, name)` of `body`'s results at
/// `out[stride * g + k]`.
fn per_item_kernel(name: &str, decls: &str, body: &str, results: &[&str], stride: usize) -> String {
    let mut s = format!(
        "target triple = \"spir64-unknown-unknown\"\n\
         declare spir_func i64 @_Z13get_global_idj(i32)\n{decls}\n\
         define spir_kernel void @{name}(ptr addrspace(1) %out, ptr addrspace(1) %in) {{\n\
         entry:\n\
         \x20 %gid = call spir_func i64 @_Z13get_global_idj(i32 0)\n\
         \x20 %vp = getelementptr <4 x i32>, ptr addrspace(1) %in, i64 %gid\n\
         \x20 %v = load <4 x i32>, ptr addrspace(1) %vp\n\
         \x20 %v0 = extractelement <4 x i32> %v, i32 0\n\
         \x20 %v1 = extractelement <4 x i32> %v, i32 1\n\
         \x20 %v2 = extractelement <4 x i32> %v, i32 2\n\
         \x20 %v3 = extractelement <4 x i32> %v, i32 3\n\
         \x20 %base = mul i64 %gid, {stride}\n{body}\n"
    );
    for (k, r) in results.iter().enumerate() {
        s += &format!(
            "  %o{k} = add i64 %base, {k}\n\
             \x20 %p{k} = getelementptr i32, ptr addrspace(1) %out, i64 %o{k}\n\
             \x20 store i32 {r}, ptr addrspace(1) %p{k}\n"
        );
    }
    s + "  ret void\n}\n"
}

/// Integer intrinsics LLVM has and SPIR-V lacks, built from core ops: the vector reductions,
/// bswap (16, 32, 64 bits), fshl/fshr (shift amounts past the width), scmp/ucmp,
/// ushl.sat/sshl.sat, `mul i1` and is.constant compute what LLVM defines, here in Rust.
#[test]
fn integer_intrinsics_compute_llvm_semantics() {
    let decls = "declare i32 @llvm.vector.reduce.add.v4i32(<4 x i32>)
declare i32 @llvm.vector.reduce.mul.v4i32(<4 x i32>)
declare i32 @llvm.vector.reduce.and.v4i32(<4 x i32>)
declare i32 @llvm.vector.reduce.or.v4i32(<4 x i32>)
declare i32 @llvm.vector.reduce.xor.v4i32(<4 x i32>)
declare i32 @llvm.vector.reduce.smax.v4i32(<4 x i32>)
declare i32 @llvm.vector.reduce.smin.v4i32(<4 x i32>)
declare i32 @llvm.vector.reduce.umax.v4i32(<4 x i32>)
declare i32 @llvm.vector.reduce.umin.v4i32(<4 x i32>)
declare i1 @llvm.vector.reduce.or.v4i1(<4 x i1>)
declare i32 @llvm.bswap.i32(i32)
declare i16 @llvm.bswap.i16(i16)
declare i64 @llvm.bswap.i64(i64)
declare i32 @llvm.fshl.i32(i32, i32, i32)
declare i32 @llvm.fshr.i32(i32, i32, i32)
declare i16 @llvm.fshl.i16(i16, i16, i16)
declare <2 x i16> @llvm.fshr.v2i16(<2 x i16>, <2 x i16>, <2 x i16>)
declare i8 @llvm.scmp.i8.i32(i32, i32)
declare i32 @llvm.ucmp.i32.i32(i32, i32)
declare i32 @llvm.ushl.sat.i32(i32, i32)
declare i32 @llvm.sshl.sat.i32(i32, i32)
declare i1 @llvm.is.constant.i32(i32)";
    let body = "  %add = call i32 @llvm.vector.reduce.add.v4i32(<4 x i32> %v)
  %mul = call i32 @llvm.vector.reduce.mul.v4i32(<4 x i32> %v)
  %and = call i32 @llvm.vector.reduce.and.v4i32(<4 x i32> %v)
  %or = call i32 @llvm.vector.reduce.or.v4i32(<4 x i32> %v)
  %xor = call i32 @llvm.vector.reduce.xor.v4i32(<4 x i32> %v)
  %smax = call i32 @llvm.vector.reduce.smax.v4i32(<4 x i32> %v)
  %smin = call i32 @llvm.vector.reduce.smin.v4i32(<4 x i32> %v)
  %umax = call i32 @llvm.vector.reduce.umax.v4i32(<4 x i32> %v)
  %umin = call i32 @llvm.vector.reduce.umin.v4i32(<4 x i32> %v)
  %neg = icmp slt <4 x i32> %v, zeroinitializer
  %anyneg = call i1 @llvm.vector.reduce.or.v4i1(<4 x i1> %neg)
  %anyneg32 = zext i1 %anyneg to i32
  %bs32 = call i32 @llvm.bswap.i32(i32 %v0)
  %t16 = trunc i32 %v0 to i16
  %bs16 = call i16 @llvm.bswap.i16(i16 %t16)
  %bs16w = zext i16 %bs16 to i32
  %hi64 = zext i32 %v0 to i64
  %hi64s = shl i64 %hi64, 32
  %lo64 = zext i32 %v1 to i64
  %w64 = or i64 %hi64s, %lo64
  %bs64 = call i64 @llvm.bswap.i64(i64 %w64)
  %bs64lo = trunc i64 %bs64 to i32
  %bs64h = lshr i64 %bs64, 32
  %bs64hi = trunc i64 %bs64h to i32
  %fshl = call i32 @llvm.fshl.i32(i32 %v0, i32 %v1, i32 %v2)
  %fshr = call i32 @llvm.fshr.i32(i32 %v0, i32 %v1, i32 %v2)
  %a16 = trunc i32 %v0 to i16
  %b16 = trunc i32 %v1 to i16
  %s16 = trunc i32 %v2 to i16
  %fshl16 = call i16 @llvm.fshl.i16(i16 %a16, i16 %b16, i16 %s16)
  %fshl16w = zext i16 %fshl16 to i32
  %va = insertelement <2 x i16> poison, i16 %a16, i32 0
  %vb = insertelement <2 x i16> poison, i16 %b16, i32 0
  %vs = insertelement <2 x i16> poison, i16 %s16, i32 0
  %va2 = insertelement <2 x i16> %va, i16 %b16, i32 1
  %vb2 = insertelement <2 x i16> %vb, i16 %a16, i32 1
  %vs2 = insertelement <2 x i16> %vs, i16 %s16, i32 1
  %fshrv = call <2 x i16> @llvm.fshr.v2i16(<2 x i16> %va2, <2 x i16> %vb2, <2 x i16> %vs2)
  %fshrv1 = extractelement <2 x i16> %fshrv, i32 1
  %fshrv1w = zext i16 %fshrv1 to i32
  %scmp8 = call i8 @llvm.scmp.i8.i32(i32 %v0, i32 %v1)
  %scmp = sext i8 %scmp8 to i32
  %ucmp = call i32 @llvm.ucmp.i32.i32(i32 %v0, i32 %v1)
  %sh = and i32 %v3, 31
  %ushl = call i32 @llvm.ushl.sat.i32(i32 %v0, i32 %sh)
  %sshl = call i32 @llvm.sshl.sat.i32(i32 %v0, i32 %sh)
  %n0 = icmp slt i32 %v0, 0
  %n1 = icmp slt i32 %v1, 0
  %both = mul i1 %n0, %n1
  %bothw = zext i1 %both to i32
  %isc = call i1 @llvm.is.constant.i32(i32 %v0)
  %iscw = zext i1 %isc to i32
  %isk = call i1 @llvm.is.constant.i32(i32 7)
  %iskw = zext i1 %isk to i32";
    let results = [
        "%add",
        "%mul",
        "%and",
        "%or",
        "%xor",
        "%smax",
        "%smin",
        "%umax",
        "%umin",
        "%anyneg32",
        "%bs32",
        "%bs16w",
        "%bs64lo",
        "%bs64hi",
        "%fshl",
        "%fshr",
        "%fshl16w",
        "%fshrv1w",
        "%scmp",
        "%ucmp",
        "%ushl",
        "%sshl",
        "%bothw",
        "%iscw",
        "%iskw",
    ];
    let stride = 32;
    let ll = per_item_kernel("int_intrinsics", decls, body, &results, stride);
    let cases: [[i32; 4]; 9] = [
        [0x1234_5678, 0x9abc_def0_u32 as i32, 4, 3],
        [-1, 1, 36, 31],
        [0, -5, 0, 1],
        [7, 7, 16, 29],
        [i32::MIN, i32::MAX, 63, 1],
        [-100, 100, 33, 30],
        [0x4000_0000, 3, 17, 2],
        [5, -7, 1, 28],
        [0x0102_0304, 0x0506_0708, 15, 4],
    ];
    let input: Vec<i32> = cases.iter().flatten().copied().collect();
    let got = run_ll(
        "int_intrinsics",
        &ll,
        cases.len(),
        cases.len() * stride,
        &input,
    );
    for (g, v) in cases.iter().enumerate() {
        let u = v.map(|x| x as u32);
        let (a, b, s) = (u[0], u[1], u[2]);
        // Funnel shifts: the double-width concatenation shifted by s mod width.
        let cat = (u64::from(a) << 32) | u64::from(b);
        let fshl = ((cat << (s % 32)) >> 32) as u32;
        let fshr = (cat >> (s % 32)) as u32;
        let cat16 = |hi: u32, lo: u32| ((hi & 0xffff) << 16) | (lo & 0xffff);
        let fshl16 = ((cat16(a, b) << (s % 16)) >> 16) & 0xffff;
        let fshr16 = (cat16(b, a) >> (s % 16)) & 0xffff;
        let sh = u[3] & 31;
        let ushl = (u64::from(a) << sh).min(u64::from(u32::MAX)) as u32;
        let sshl = (i64::from(v[0]) << sh).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
        let w64 = cat.swap_bytes();
        let want: Vec<i64> = vec![
            v.iter().fold(0i32, |x, y| x.wrapping_add(*y)).into(),
            v.iter().fold(1i32, |x, y| x.wrapping_mul(*y)).into(),
            v.iter().fold(-1i32, |x, y| x & y).into(),
            v.iter().fold(0i32, |x, y| x | y).into(),
            v.iter().fold(0i32, |x, y| x ^ y).into(),
            (*v.iter().max().unwrap()).into(),
            (*v.iter().min().unwrap()).into(),
            (*u.iter().max().unwrap() as i32).into(),
            (*u.iter().min().unwrap() as i32).into(),
            v.iter().any(|x| *x < 0).into(),
            (a.swap_bytes() as i32).into(),
            (a as u16).swap_bytes().into(),
            (w64 as u32 as i32).into(),
            ((w64 >> 32) as u32 as i32).into(),
            (fshl as i32).into(),
            (fshr as i32).into(),
            fshl16.into(),
            fshr16.into(),
            match v[0].cmp(&v[1]) {
                std::cmp::Ordering::Less => -1,
                std::cmp::Ordering::Equal => 0,
                std::cmp::Ordering::Greater => 1,
            },
            match a.cmp(&b) {
                std::cmp::Ordering::Less => -1,
                std::cmp::Ordering::Equal => 0,
                std::cmp::Ordering::Greater => 1,
            },
            (ushl as i32).into(),
            sshl.into(),
            (v[0] < 0 && v[1] < 0).into(),
            0,
            1,
        ];
        assert_eq!(
            &got[g * stride..g * stride + want.len()],
            &want[..],
            "case {v:?}"
        );
    }
}

/// Float intrinsics: the ordered fadd/fmul reductions from their start values, fmax/fmin
/// reductions (maxnum: a NaN loses), fmaximum/fminimum reductions and llvm.maximum/minimum
/// (a NaN wins, -0 < +0), on bit patterns so NaN and the sign of zero show.
#[test]
fn float_intrinsics_compute_llvm_semantics() {
    let decls = "declare float @llvm.vector.reduce.fadd.v4f32(float, <4 x float>)
declare float @llvm.vector.reduce.fmul.v4f32(float, <4 x float>)
declare float @llvm.vector.reduce.fmax.v4f32(<4 x float>)
declare float @llvm.vector.reduce.fmin.v4f32(<4 x float>)
declare float @llvm.vector.reduce.fmaximum.v4f32(<4 x float>)
declare float @llvm.vector.reduce.fminimum.v4f32(<4 x float>)
declare float @llvm.maximum.f32(float, float)
declare float @llvm.minimum.f32(float, float)";
    let body = "  %f = bitcast <4 x i32> %v to <4 x float>
  %f0 = bitcast i32 %v0 to float
  %f1 = bitcast i32 %v1 to float
  %fadd = call float @llvm.vector.reduce.fadd.v4f32(float 1.0e+08, <4 x float> %f)
  %fmul = call float @llvm.vector.reduce.fmul.v4f32(float 3.0, <4 x float> %f)
  %fmax = call float @llvm.vector.reduce.fmax.v4f32(<4 x float> %f)
  %fmin = call float @llvm.vector.reduce.fmin.v4f32(<4 x float> %f)
  %fmaximum = call float @llvm.vector.reduce.fmaximum.v4f32(<4 x float> %f)
  %fminimum = call float @llvm.vector.reduce.fminimum.v4f32(<4 x float> %f)
  %maximum = call float @llvm.maximum.f32(float %f0, float %f1)
  %minimum = call float @llvm.minimum.f32(float %f0, float %f1)";
    let names = [
        "fadd", "fmul", "fmax", "fmin", "fmaximum", "fminimum", "maximum", "minimum",
    ];
    let body = names.iter().fold(body.to_owned(), |b, n| {
        format!("{b}\n  %{n}.i = bitcast float %{n} to i32")
    });
    let results: Vec<String> = names.iter().map(|n| format!("%{n}.i")).collect();
    let results: Vec<&str> = results.iter().map(String::as_str).collect();
    let stride = 8;
    let ll = per_item_kernel("float_intrinsics", decls, &body, &results, stride);
    let nan = f32::NAN;
    let inf = f32::INFINITY;
    let cases: [[f32; 4]; 10] = [
        [1.5, -2.0, 3.25, 0.5],
        [-0.0, 0.0, -0.0, 0.0],
        [0.0, -0.0, -0.0, -0.0],
        [-0.0, -0.0, 0.0, -0.0],
        [0.0, -0.0, 1.0, nan],
        [nan, 2.0, -3.0, 4.0],
        [1.0e8, -1.0e8, 1.0, 0.25],
        [0.1, 0.2, 0.3, -inf],
        [2.0, 2.0, -2.0, -0.0],
        [inf, -inf, nan, 1.0],
    ];
    let input: Vec<i32> = cases.iter().flatten().map(|x| x.to_bits() as i32).collect();
    let got = run_ll(
        "float_intrinsics",
        &ll,
        cases.len(),
        cases.len() * stride,
        &input,
    );
    // LLVM's maximum/minimum: NaN if either is; else by IEEE totalOrder, where -0 < +0.
    let maximum = |a: f32, b: f32| match (a.is_nan() || b.is_nan(), a.total_cmp(&b)) {
        (true, _) => nan,
        (_, std::cmp::Ordering::Less) => b,
        _ => a,
    };
    let minimum = |a: f32, b: f32| match (a.is_nan() || b.is_nan(), a.total_cmp(&b)) {
        (true, _) => nan,
        (_, std::cmp::Ordering::Greater) => b,
        _ => a,
    };
    for (g, v) in cases.iter().enumerate() {
        let got: Vec<f32> = got[g * stride..g * stride + names.len()]
            .iter()
            .map(|&x| f32::from_bits(x as u32))
            .collect();
        let want = [
            v.iter().fold(1.0e8f32, |x, y| x + y),
            v.iter().fold(3.0f32, |x, y| x * y),
            v.iter().copied().fold(nan, f32::max),
            v.iter().copied().fold(nan, f32::min),
            v[1..].iter().fold(v[0], |x, y| maximum(x, *y)),
            v[1..].iter().fold(v[0], |x, y| minimum(x, *y)),
            maximum(v[0], v[1]),
            minimum(v[0], v[1]),
        ];
        for (k, (g, w)) in got.iter().zip(&want).enumerate() {
            // fmax/fmin (maxnum/minnum) may give either zero of ±0; the others are exact.
            let same = (g.is_nan() && w.is_nan())
                || g.to_bits() == w.to_bits()
                || ((k == 2 || k == 3) && *g == 0.0 && *w == 0.0);
            assert!(same, "{}: case {v:?}: got {g:?}, want {w:?}", names[k]);
        }
    }
}

/// `__spirv_IAddCarry`/`UMulExtended` returning through an `sret` pointer (as SYCL compiles
/// them) compute the instruction's two results into the caller's struct; `__spirv_IEqual`
/// mangled without its parameters (`_Z14__spirv_IEqual`) takes the call's operands.
#[test]
fn sret_carry_ops_and_unparameterized_spirv_names_compute() {
    let decls = "%pair = type { i32, i32 }\n\
        declare spir_func void @_Z17__spirv_IAddCarryjj(ptr sret(%pair), i32, i32)\n\
        declare spir_func void @_Z20__spirv_UMulExtendedjj(ptr sret(%pair), i32, i32)\n\
        declare spir_func i1 @_Z14__spirv_IEqual(i32, i32)";
    let body = "  %c = alloca %pair\n\
        \x20 %m = alloca %pair\n\
        \x20 call spir_func void @_Z17__spirv_IAddCarryjj(ptr sret(%pair) %c, i32 %v0, i32 %v1)\n\
        \x20 call spir_func void @_Z20__spirv_UMulExtendedjj(ptr sret(%pair) %m, i32 %v0, i32 %v1)\n\
        \x20 %c0 = load i32, ptr %c\n\
        \x20 %c1p = getelementptr %pair, ptr %c, i32 0, i32 1\n\
        \x20 %c1 = load i32, ptr %c1p\n\
        \x20 %m0 = load i32, ptr %m\n\
        \x20 %m1p = getelementptr %pair, ptr %m, i32 0, i32 1\n\
        \x20 %m1 = load i32, ptr %m1p\n\
        \x20 %same = call spir_func i1 @_Z14__spirv_IEqual(i32 %v2, i32 %v3)\n\
        \x20 %s = zext i1 %same to i32";
    let ll = per_item_kernel("carry", decls, body, &["%c0", "%c1", "%m0", "%m1", "%s"], 5);
    let input: [i32; 8] = [-1, 2, 5, 5, 0x10000, 0x30000, 5, 6];
    let got = run_ll("carry", &ll, 2, 10, &input);
    let mut want = Vec::new();
    for v in input.chunks(4) {
        let (a, b) = (v[0] as u32, v[1] as u32);
        let (sum, carry) = a.overflowing_add(b);
        let prod = u64::from(a) * u64::from(b);
        for x in [
            sum,
            u32::from(carry),
            prod as u32,
            (prod >> 32) as u32,
            u32::from(v[2] == v[3]),
        ] {
            want.push(i64::from(x as i32));
        }
    }
    assert_eq!(got, want);
}

/// A global initialized with another global's address holds that variable as its
/// initializer (SPIR-V allows a module-scope OpVariable there), with the pointee it points to.
#[test]
fn a_global_initialized_with_a_global_address_validates() {
    let dis = translate_and_dis(
        "global_address",
        "target triple = \"spir64-unknown-unknown\"\n\
         @a = addrspace(1) global i16 7\n\
         @c = addrspace(1) global ptr addrspace(1) @a\n\
         define spir_kernel void @k(ptr addrspace(1) %out) {\n\
           %p = load ptr addrspace(1), ptr addrspace(1) @c\n\
           %v = load i16, ptr addrspace(1) %p\n\
           store i16 %v, ptr addrspace(1) %out\n  ret void\n}\n",
    );
    assert!(
        dis.contains("%c = OpVariable") && dis.contains("CrossWorkgroup %a"),
        "{dis}"
    );
}

/// A constant array longer than one OpConstantComposite holds (70,000 elements, 65,532 fit)
/// continues in SPV_INTEL_long_composites' OpConstantCompositeContinuedINTEL, with the
/// capability and extension declared; `spvkit val` accepts it (spirv-val 2023.1 does not know
/// the continuation; the translator's own test skips it too), and a kernel reading elements
/// on both sides of the split computes them under `spvkit run`.
#[test]
fn long_constant_arrays_continue_and_compute() {
    const N: usize = 70_000;
    let elems: Vec<String> = (0..N).map(|i| format!("i32 {}", i * 7 + 3)).collect();
    let ll = format!(
        "target triple = \"spir64-unknown-unknown\"\n\
         @table = internal addrspace(2) constant [{N} x i32] [{}], align 4\n\
         declare spir_func i64 @_Z13get_global_idj(i32)\n\
         define spir_kernel void @long_table(ptr addrspace(1) %out, ptr addrspace(1) %in) {{\n\
         entry:\n\
         \x20 %g = call spir_func i64 @_Z13get_global_idj(i32 0)\n\
         \x20 %ip = getelementptr i32, ptr addrspace(1) %in, i64 %g\n\
         \x20 %i = load i32, ptr addrspace(1) %ip\n\
         \x20 %i64 = zext i32 %i to i64\n\
         \x20 %tp = getelementptr [{N} x i32], ptr addrspace(2) @table, i64 0, i64 %i64\n\
         \x20 %t = load i32, ptr addrspace(2) %tp\n\
         \x20 %op = getelementptr i32, ptr addrspace(1) %out, i64 %g\n\
         \x20 store i32 %t, ptr addrspace(1) %op\n\
         \x20 ret void\n}}\n",
        elems.join(", ")
    );
    let src = out_dir().join("long_table.ll");
    let spv = out_dir().join("long_table.spv");
    std::fs::write(&src, ll).unwrap();
    from_llvm(&src, &spv).unwrap();
    run(spvkit()
        .args(["val", "--target-env", "opencl2.0"])
        .arg(&spv))
    .unwrap();
    let dis = String::from_utf8_lossy(&run(spvkit().arg("dis").arg(&spv)).unwrap()).into_owned();
    assert!(dis.contains("OpCapability LongConstantCompositeINTEL"));
    assert!(dis.contains("OpExtension \"SPV_INTEL_long_constant_composite\""));
    assert_eq!(dis.matches("OpConstantCompositeContinuedINTEL").count(), 1);
    let input = [0usize, 1, 65_531, 65_532, 65_533, 69_999];
    let job = out_dir().join("long_table.json");
    let data: Vec<String> = input.iter().map(usize::to_string).collect();
    std::fs::write(
        &job,
        format!(
            r#"{{"entry": "long_table", "dispatch": [{}, 1, 1], "local_size": [1, 1, 1],
               "work_dim": 1, "args": [
               {{"kind": "buffer", "layout": ["i32"], "size_words": {}}},
               {{"kind": "buffer", "layout": ["i32"], "data": [{}]}}]}}"#,
            input.len(),
            input.len(),
            data.join(", ")
        ),
    )
    .unwrap();
    let got: serde_json::Value = serde_json::from_str(&run_job(&spv, &job).unwrap()).unwrap();
    let got: Vec<i64> = got["buffers"][0]["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    let want: Vec<i64> = input.iter().map(|&i| (i * 7 + 3) as i64).collect();
    assert_eq!(got, want);
}
