//! `spvkit from-llvm` on LLVM IR that was never meant for SPIR-V: whatever it is given, it
//! writes SPIR-V that spirv-val accepts or fails with an error naming the function and the
//! instruction, never a panic. The inputs are made at test time: spvkit's own direct-style
//! lowering of every GLSL compute shader of the corpus (glslang → `spvkit lower`), and plain C
//! (not OpenCL) compiled by clang-15 for `spir64`, one construct per module.

#![cfg(all(feature = "run", feature = "cli"))]

#[path = "support/opencl.rs"]
mod opencl;

use opencl::run;
use std::path::{Path, PathBuf};
use std::process::Command;

fn spvkit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_spvkit"))
}

fn scratch() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("from_llvm_foreign");
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// What `from-llvm` did with one input.
enum Outcome {
    /// Valid SPIR-V.
    Valid,
    /// A clean error naming its place.
    Refused,
}

/// Runs `from-llvm` on `ll`; panics on a crash, an error without its place, or invalid
/// output.
fn translate(ll: &Path) -> Outcome {
    let spv = ll.with_extension("back.spv");
    let out = spvkit()
        .arg("from-llvm")
        .arg(ll)
        .arg("-o")
        .arg(&spv)
        .output()
        .expect("spvkit runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    match out.status.code() {
        Some(0) => {
            let val = Command::new("spirv-val")
                .args(["--target-env", "opencl2.0"])
                .arg(&spv)
                .output()
                .expect("spirv-val runs (apt-get install spirv-tools)");
            let vulkan = Command::new("spirv-val")
                .args(["--target-env", "vulkan1.1"])
                .arg(&spv)
                .output()
                .expect("spirv-val runs");
            assert!(
                val.status.success() || vulkan.status.success(),
                "{}: from-llvm wrote invalid SPIR-V:\n{}",
                ll.display(),
                String::from_utf8_lossy(&val.stderr)
            );
            Outcome::Valid
        }
        Some(1) => {
            // The place: the function (and instruction, or its signature), or the global.
            assert!(
                stderr.contains("error: in function '") || stderr.contains("@"),
                "{}: the error does not name its place:\n{stderr}",
                ll.display()
            );
            eprintln!("{}", stderr.trim());
            Outcome::Refused
        }
        code => panic!("{}: from-llvm crashed ({code:?}):\n{stderr}", ll.display()),
    }
}

#[test]
fn direct_style_lowering_of_glsl_compute_shaders() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut shaders: Vec<PathBuf> = ["compute", "glsl"]
        .iter()
        .flat_map(|d| std::fs::read_dir(root.join(d)).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "comp"))
        .collect();
    shaders.sort();
    let (mut valid, mut refused) = (0, 0);
    for src in &shaders {
        let stem = src.file_stem().unwrap().to_string_lossy();
        let dir = src.parent().unwrap().file_name().unwrap().to_string_lossy();
        let spv = scratch().join(format!("{dir}_{stem}.spv"));
        let ll = spv.with_extension("ll");
        let compiled = run(Command::new("glslangValidator")
            .args(["-V", "--target-env", "vulkan1.1", "-o"])
            .arg(&spv)
            .arg(src));
        if compiled.is_err() {
            continue; // shaders glslang rejects are covered by other tests
        }
        if run(spvkit().arg("lower").arg(&spv).arg("-o").arg(&ll)).is_err() {
            continue;
        }
        // from-llvm refuses non-SPIR triples; the host's is replaced so that the code itself,
        // never meant for SPIR-V, is what it meets.
        let text = std::fs::read_to_string(&ll).unwrap();
        let text: String = text
            .lines()
            .map(|l| {
                if l.starts_with("target triple") {
                    "target triple = \"spir64-unknown-unknown\"\n".to_owned()
                } else if l.starts_with("target datalayout") {
                    String::new()
                } else {
                    format!("{l}\n")
                }
            })
            .collect();
        std::fs::write(&ll, text).unwrap();
        match translate(&ll) {
            Outcome::Valid => valid += 1,
            Outcome::Refused => refused += 1,
        }
    }
    eprintln!("direct-style LLVM of {} shaders: {valid} translated, {refused} refused with a placed error", valid + refused);
    assert!(valid + refused >= 40, "too few shaders reached from-llvm");
}

/// Plain C, one construct per module: each translates or is refused with its place.
const C_SNIPPETS: &[(&str, &str)] = &[
    ("varargs", "int f(int n, ...) { __builtin_va_list a; __builtin_va_start(a, n); int x = __builtin_va_arg(a, int); __builtin_va_end(a); return x; }"),
    ("function_pointer", "int g(int x) { return x + 1; } int f(int (*p)(int), int x) { return p(x); }"),
    ("bitint48", "unsigned _BitInt(48) f(unsigned _BitInt(48) a, unsigned _BitInt(48) b) { return a * b; }"),
    ("flexible_array", "struct S { int n; int v[]; }; int f(struct S *s, int i) { return s->v[i]; }"),
    ("recursion", "int f(int n) { return n < 2 ? n : f(n - 1) + f(n - 2); }"),
    ("switch_table", "int f(int x) { switch (x) { case 0: return 7; case 1: return 9; case 5: return 2; default: return -1; } }"),
    ("struct_by_value", "struct P { float x, y; }; struct P f(struct P a, struct P b) { struct P r = { a.x + b.x, a.y * b.y }; return r; }"),
    ("bitfields", "struct B { unsigned a : 3, b : 7, c : 22; }; unsigned f(struct B *p) { p->b = p->a + 1; return p->c; }"),
    ("memcpy_loop", "void f(char *d, const char *s, unsigned long n) { for (unsigned long i = 0; i < n; i++) d[i] = s[i]; }"),
    ("float_math", "double f(double x) { return __builtin_sqrt(x) + __builtin_fabs(x) + __builtin_floor(x); }"),
    ("popcount_clz", "int f(unsigned x) { return __builtin_popcount(x) + __builtin_clz(x | 1) + __builtin_ctz(x | 8); }"),
    ("overflow_add", "int f(int a, int b) { int r; return __builtin_add_overflow(a, b, &r) ? 0 : r; }"),
    ("c11_atomics", "int f(int *p, int v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST) + __atomic_load_n(p, __ATOMIC_ACQUIRE); }"),
    ("global_initializers", "static int table[4] = { 3, 1, 4, 1 }; int *p = &table[2]; int f(int i) { return table[i & 3] + *p; }"),
    ("select_min_max", "int f(int a, int b) { return (a < b ? a : b) + (a > b ? a : b); }"),
    ("unreachable", "int f(int x) { if (x > 3) __builtin_unreachable(); return x; }"),
    ("long_double", "long double f(long double a) { return a * 2; }"),
];

#[test]
fn plain_c_for_spir64() {
    let (mut valid, mut refused) = (0, 0);
    for (name, code) in C_SNIPPETS {
        let c = scratch().join(format!("{name}.c"));
        let ll = c.with_extension("ll");
        std::fs::write(&c, code).unwrap();
        run(Command::new("clang-15")
            .args(["-target", "spir64", "-O1", "-S", "-emit-llvm", "-o"])
            .arg(&ll)
            .arg(&c))
        .unwrap_or_else(|e| panic!("clang-15 (scripts/setup.sh installs it): {e}"));
        match translate(&ll) {
            Outcome::Valid => valid += 1,
            Outcome::Refused => refused += 1,
        }
    }
    eprintln!("plain C: {valid} translated, {refused} refused with a placed error");
    assert!(valid > 0, "nothing in plain C translates");
}

/// `__builtin_*_overflow` in OpenCL C: clang-15 makes `llvm.{s,u}{add,sub,mul}.with.overflow`,
/// which llvm-spirv-15 refuses ("Unexpected llvm intrinsic"); spvkit translates them and
/// `spvkit run` gives what Rust's overflowing arithmetic gives.
#[test]
fn overflow_intrinsics_translate_and_compute() {
    let cl = scratch().join("overflow.cl");
    std::fs::write(
        &cl,
        r#"
__kernel void ovf(__global const int *a, __global const int *b, __global const uint *c,
                  __global const uint *d, __global int *out) {
    size_t g = get_global_id(0);
    int r; uint u;
    out[6 * g + 0] = __builtin_sadd_overflow(a[g], b[g], &r) * 1000 + (r & 255);
    out[6 * g + 1] = __builtin_ssub_overflow(a[g], b[g], &r) * 1000 + (r & 255);
    out[6 * g + 2] = __builtin_smul_overflow(a[g], b[g], &r) * 1000 + (r & 255);
    out[6 * g + 3] = __builtin_uadd_overflow(c[g], d[g], &u) * 1000 + (u & 255);
    out[6 * g + 4] = __builtin_usub_overflow(c[g], d[g], &u) * 1000 + (u & 255);
    out[6 * g + 5] = __builtin_umul_overflow(c[g], d[g], &u) * 1000 + (u & 255);
}
"#,
    )
    .unwrap();
    let bc = cl.with_extension("bc");
    run(Command::new("clang-15")
        .args(["-cc1", "-triple", "spir64-unknown-unknown", "-cl-std=CL2.0"])
        .args(["-emit-llvm-bc", "-finclude-default-header", "-O2", "-o"])
        .arg(&bc)
        .arg(&cl))
    .unwrap();
    let theirs = run(Command::new("llvm-spirv-15")
        .arg(&bc)
        .arg("-o")
        .arg(cl.with_extension("ref.spv")));
    assert!(
        theirs
            .as_ref()
            .is_err_and(|e| e.contains("Unexpected llvm intrinsic")),
        "llvm-spirv-15 now translates overflow intrinsics: {theirs:?}"
    );
    let spv = cl.with_extension("spv");
    run(spvkit().arg("from-llvm").arg(&bc).arg("-o").arg(&spv)).unwrap();
    opencl::spirv_val(&spv, "opencl2.0").unwrap();
    let a: [i32; 4] = [i32::MAX, -5, i32::MIN, 70000];
    let b: [i32; 4] = [1, 7, 1, 70000];
    let c: [u32; 4] = [u32::MAX, 3, 0, 70000];
    let d: [u32; 4] = [1, 5, 0, 70000];
    let job = scratch().join("overflow.job.json");
    let list = |v: &[i64]| {
        v.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let widen_i = |v: &[i32]| v.iter().map(|&x| i64::from(x)).collect::<Vec<_>>();
    let widen_u = |v: &[u32]| v.iter().map(|&x| i64::from(x)).collect::<Vec<_>>();
    std::fs::write(
        &job,
        format!(
            r#"{{"entry": "ovf", "local_size": [2], "global_size": [4], "args": [
                {{"kind": "buffer", "layout": ["i32"], "data": [{}]}},
                {{"kind": "buffer", "layout": ["i32"], "data": [{}]}},
                {{"kind": "buffer", "layout": ["u32"], "data": [{}]}},
                {{"kind": "buffer", "layout": ["u32"], "data": [{}]}},
                {{"kind": "buffer", "layout": ["i32"], "size_words": 24}}]}}"#,
            list(&widen_i(&a)),
            list(&widen_i(&b)),
            list(&widen_u(&c)),
            list(&widen_u(&d))
        ),
    )
    .unwrap();
    let out = run(spvkit()
        .arg("run")
        .arg(&spv)
        .arg("--job")
        .arg(&job)
        .args(["--threads", "1"]))
    .unwrap();
    let text = String::from_utf8_lossy(&out);
    let last = text
        .lines()
        .rev()
        .find(|l| l.contains("\"data\""))
        .expect("a buffer line");
    let got: Vec<i64> = last[last.find('[').unwrap() + 1..last.rfind(']').unwrap()]
        .split(',')
        .map(|x| x.trim().parse().unwrap())
        .collect();
    let code = |(r, o): (i32, bool)| i64::from(o) * 1000 + i64::from(r & 255);
    let ucode = |(r, o): (u32, bool)| i64::from(o) * 1000 + i64::from(r & 255);
    let mut want = Vec::new();
    for g in 0..4 {
        want.push(code(a[g].overflowing_add(b[g])));
        want.push(code(a[g].overflowing_sub(b[g])));
        want.push(code(a[g].overflowing_mul(b[g])));
        want.push(ucode(c[g].overflowing_add(d[g])));
        want.push(ucode(c[g].overflowing_sub(d[g])));
        want.push(ucode(c[g].overflowing_mul(d[g])));
    }
    assert_eq!(got, want);
}

/// A `select` between samplers: OpSelect takes no opaque operands, so it is refused with its
/// place instead of becoming SPIR-V that spirv-val rejects.
#[test]
fn select_of_samplers_is_refused() {
    let ll = scratch().join("select_sampler.ll");
    std::fs::write(
        &ll,
        "target triple = \"spir64-unknown-unknown\"\n\
         define spir_kernel void @k(target(\"spirv.Sampler\") %a, target(\"spirv.Sampler\") %b, i1 %c) {\n\
         \x20 %s = select i1 %c, target(\"spirv.Sampler\") %a, target(\"spirv.Sampler\") %b\n\
         \x20 ret void\n}\n",
    )
    .unwrap();
    let out = spvkit()
        .arg("from-llvm")
        .arg(&ll)
        .arg("-o")
        .arg(ll.with_extension("spv"))
        .output()
        .expect("spvkit runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("in function 'k'") && stderr.contains("a select of images, samplers"),
        "{stderr}"
    );
}
