//! `spvkit from-llvm` on LLVM IR that was never meant for SPIR-V: whatever it is given, it
//! writes SPIR-V that spirv-val accepts or fails with an error naming the function and the
//! instruction, never a panic. The inputs are made at test time: spvkit's own direct-style
//! lowering of every GLSL compute shader of the corpus (glslang → `spvkit lower`), and plain C
//! (not OpenCL) compiled by clang-15 for `spir64`, one construct per module.

#![cfg(feature = "llvm")]

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
