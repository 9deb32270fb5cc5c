//! OpenCL C's generic-pointer queries under `spvkit run` answer by where the pointer points, as
//! the OpenCL C 2.0 specification says (6.13.9): `to_global` / `to_local` / `to_private`
//! (`OpGenericCastToPtrExplicit`) return the pointer when it points into global, local or
//! private memory and null otherwise, and `get_fence` (`OpGenericPtrMemSemantics`, shifted as
//! llvm-spirv does) gives `CLK_GLOBAL_MEM_FENCE`, `CLK_LOCAL_MEM_FENCE` or 0. Pointers to a
//! global buffer's element, a program-scope global, a `__local` array, a `__local` argument, a
//! private array, a private scalar and a by-value struct argument's member; kernels from
//! clang-15 (-O0 and -O2) through `spvkit from-llvm`, from llvm-spirv-15, and through the
//! spv-ir round trip (`lower --style spv-ir` → `from-llvm`); invocations run one after another,
//! as fibers, and as thread teams.

#![cfg(all(feature = "run", feature = "cli"))]

#[path = "support/opencl.rs"]
mod opencl;

use opencl::{clang, run_ok as run, spirv_val};

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const SOURCE: &str = r#"
typedef struct { int a; int b; } Pair;
global int program_scope[4];

// 1: the query returns p itself; 0: null; 99: another pointer.
int same(generic void *q, generic int *p) {
    return q == 0 ? 0 : q == (generic void *)p ? 1 : 99;
}

void classify(generic int *p, global int *out) {
    out[0] = same(to_global(p), p);
    out[1] = same(to_local(p), p);
    out[2] = same(to_private(p), p);
    out[3] = (int)get_fence(p);
}

#define BODY                                                          \
    local int tmp[4];                                                 \
    int arr[4];                                                       \
    int x = 5;                                                        \
    size_t g = get_global_id(0);                                      \
    size_t l = get_local_id(0);                                       \
    tmp[l] = 1; arr[l] = 2; larg[l] = 3; program_scope[g] = 4;        \
    global int *o = out + g * 28;                                     \
    classify(&buf[g], o + 0);                                         \
    classify(&program_scope[g], o + 4);                               \
    classify(&tmp[l], o + 8);                                         \
    classify(&larg[l], o + 12);                                       \
    classify(&arr[l], o + 16);                                        \
    classify(&x, o + 20);                                             \
    classify(&pv.b, o + 24);

kernel void spaces(global int *buf, local int *larg, Pair pv, global int *out) {
    BODY
}

kernel void spaces_barrier(global int *buf, local int *larg, Pair pv, global int *out) {
    barrier(CLK_LOCAL_MEM_FENCE);
    BODY
    barrier(CLK_LOCAL_MEM_FENCE);
}
"#;

/// Per pointer, in `BODY`'s order: to_global, to_local, to_private, get_fence.
const EXPECTED: [[i64; 4]; 7] = [
    [1, 0, 0, 2], // a global buffer's element: CLK_GLOBAL_MEM_FENCE
    [1, 0, 0, 2], // a program-scope global
    [0, 1, 0, 1], // a __local array's element: CLK_LOCAL_MEM_FENCE
    [0, 1, 0, 1], // a __local argument's element
    [0, 0, 1, 0], // a private array's element
    [0, 0, 1, 0], // a private scalar
    [0, 0, 1, 0], // a by-value argument's member
];

const GLOBAL: usize = 4;

fn out_dir() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("run_generic_ptr");
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn spvkit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_spvkit"))
}

fn job(entry: &str) -> Value {
    serde_json::json!({
        "entry": entry, "local_size": [2], "global_size": [GLOBAL],
        "args": [
            {"kind": "buffer", "layout": ["i32"], "data": vec![0; GLOBAL]},
            {"kind": "local", "size_bytes": 16},
            {"kind": "struct", "layout": ["i32", "i32"], "value": [1, 2]},
            {"kind": "buffer", "layout": ["i32"], "data": vec![0; GLOBAL * 28]},
        ],
    })
}

/// The `out` buffer of a run through the CLI with `threads` workers.
fn run_cli(spv: &Path, entry: &str, threads: u32) -> Vec<i64> {
    let path = out_dir().join(format!("{entry}.job.json"));
    std::fs::write(&path, job(entry).to_string()).unwrap();
    let out = run(spvkit()
        .arg("run")
        .arg(spv)
        .arg("--job")
        .arg(&path)
        .args(["--threads", &threads.to_string()]));
    out_buffer(&serde_json::from_slice(&out).unwrap())
}

/// The same through the library, with barrier teams on threads.
fn run_teams(spv: &Path, entry: &str) -> Vec<i64> {
    let words: Vec<u32> = std::fs::read(spv)
        .unwrap()
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let job = spvkit::run::Job::from_json(&job(entry).to_string()).unwrap();
    let options = spvkit::run::RunOptions {
        threads: 2,
        barrier_mode: spvkit::run::BarrierMode::Threads,
        ..Default::default()
    };
    let out = spvkit::run::run_spirv(&words, &job, &options).unwrap();
    out_buffer(&serde_json::from_str(&out.to_json()).unwrap())
}

fn out_buffer(v: &Value) -> Vec<i64> {
    let buffers = v["buffers"].as_array().unwrap();
    let out = buffers.iter().find(|b| b["arg"] == 3).unwrap();
    out["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_i64().unwrap())
        .collect()
}

fn check(what: &str, got: &[i64]) {
    let names = [
        "global buffer",
        "program-scope global",
        "__local array",
        "__local argument",
        "private array",
        "private scalar",
        "by-value argument",
    ];
    for g in 0..GLOBAL {
        for (k, want) in EXPECTED.iter().enumerate() {
            let at = g * 28 + k * 4;
            assert_eq!(
                &got[at..at + 4],
                want,
                "{what}: invocation {g}, a pointer to a {}: [to_global, to_local, to_private, \
                 get_fence]",
                names[k]
            );
        }
    }
}

/// Runs both kernels of `spv` every way and checks the answers.
fn check_all(what: &str, spv: &Path) {
    spirv_val(spv, "opencl2.0").unwrap_or_else(|e| panic!("{what}: {e}"));
    check(
        &format!("{what}, sequential, 1 thread"),
        &run_cli(spv, "spaces", 1),
    );
    check(
        &format!("{what}, sequential, 2 threads"),
        &run_cli(spv, "spaces", 2),
    );
    check(
        &format!("{what}, fibers"),
        &run_cli(spv, "spaces_barrier", 2),
    );
    check(
        &format!("{what}, thread teams"),
        &run_teams(spv, "spaces_barrier"),
    );
}

#[test]
fn generic_pointer_queries_answer_by_address_space() {
    let dir = out_dir();
    let cl = dir.join("spaces.cl");
    std::fs::write(&cl, SOURCE).unwrap();
    for opt in ["-O0", "-O2"] {
        let bc = dir.join(format!("spaces{opt}.bc"));
        clang(&cl, "spir64-unknown-unknown", [opt], &bc).unwrap();
        let spv = dir.join(format!("spaces{opt}.spv"));
        run(spvkit().arg("from-llvm").arg(&bc).arg("-o").arg(&spv));
        let dis = String::from_utf8(run(Command::new("spirv-dis").arg(&spv))).unwrap();
        for op in ["OpGenericCastToPtrExplicit", "OpGenericPtrMemSemantics"] {
            assert!(dis.contains(op), "from-llvm {opt} wrote no {op}");
        }
        check_all(&format!("clang-15 {opt}, from-llvm"), &spv);

        // The spv-ir round trip: the translator's names, back to the same ops.
        let ll = dir.join(format!("spaces{opt}.spv-ir.ll"));
        run(spvkit()
            .args(["lower", "--style", "spv-ir"])
            .arg(&spv)
            .arg("-o")
            .arg(&ll));
        let text = std::fs::read_to_string(&ll).unwrap();
        for name in [
            "__spirv_GenericCastToPtrExplicit_ToGlobal",
            "__spirv_GenericCastToPtrExplicit_ToLocal",
            "__spirv_GenericCastToPtrExplicit_ToPrivate",
            "__spirv_GenericPtrMemSemantics",
        ] {
            assert!(text.contains(name), "spv-ir {opt}: no {name}");
        }
        let back = dir.join(format!("spaces{opt}.spv-ir.spv"));
        run(spvkit().arg("from-llvm").arg(&ll).arg("-o").arg(&back));
        check_all(&format!("clang-15 {opt}, spv-ir round trip"), &back);
    }

    // llvm-spirv-15's translation of the same source (typed pointers).
    let bc = dir.join("spaces.typed.bc");
    clang(
        &cl,
        "spir64-unknown-unknown",
        ["-O2", "-no-opaque-pointers"],
        &bc,
    )
    .unwrap();
    let spv = dir.join("spaces.llvm-spirv.spv");
    run(Command::new("llvm-spirv-15")
        .arg("--spirv-max-version=1.0")
        .arg(&bc)
        .arg("-o")
        .arg(&spv));
    check_all("llvm-spirv-15", &spv);
}

/// The translator's SPV-IR casts (`generic-cast-to-ptr.ll` of SPIRV-LLVM-Translator's tests):
/// `__spirv_GenericCastToPtr_To<Space>(p, storage)` is `OpGenericCastToPtr` (whose storage
/// class is its result type's: the argument must agree), `..Explicit_To<Space>` the query.
const SPV_IR_CASTS: &str = r#"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

define spir_kernel void @casts(ptr addrspace(1) %out, ptr addrspace(3) %loc) {
entry:
  %var = alloca i32
  store i32 7, ptr %var
  %g = addrspacecast ptr addrspace(1) %out to ptr addrspace(4)
  %l = addrspacecast ptr addrspace(3) %loc to ptr addrspace(4)
  %p = addrspacecast ptr %var to ptr addrspace(4)
  %G = call spir_func ptr addrspace(1) @_Z33__spirv_GenericCastToPtr_ToGlobalPvi(ptr addrspace(4) %g, i32 GLOBAL_SC)
  %L = call spir_func ptr addrspace(3) @_Z32__spirv_GenericCastToPtr_ToLocalPvi(ptr addrspace(4) %l, i32 4)
  %P = call spir_func ptr @_Z34__spirv_GenericCastToPtr_ToPrivatePvi(ptr addrspace(4) %p, i32 7)
  %PE = call spir_func ptr @_Z42__spirv_GenericCastToPtrExplicit_ToPrivatePvi(ptr addrspace(4) %p, i32 7)
  %LE = call spir_func ptr addrspace(3) @_Z40__spirv_GenericCastToPtrExplicit_ToLocalPvi(ptr addrspace(4) %p, i32 4)
  store i32 3, ptr addrspace(3) %L
  %v = load i32, ptr %P
  %w = load i32, ptr addrspace(3) %L
  %sum = add i32 %v, %w
  store i32 %sum, ptr addrspace(1) %G
  %pe = icmp eq ptr %PE, null
  %le = icmp eq ptr addrspace(3) %LE, null
  %pe32 = zext i1 %pe to i32
  %le32 = zext i1 %le to i32
  %o1 = getelementptr i32, ptr addrspace(1) %out, i64 1
  store i32 %pe32, ptr addrspace(1) %o1
  %o2 = getelementptr i32, ptr addrspace(1) %out, i64 2
  store i32 %le32, ptr addrspace(1) %o2
  ret void
}

declare spir_func ptr addrspace(1) @_Z33__spirv_GenericCastToPtr_ToGlobalPvi(ptr addrspace(4), i32)
declare spir_func ptr addrspace(3) @_Z32__spirv_GenericCastToPtr_ToLocalPvi(ptr addrspace(4), i32)
declare spir_func ptr @_Z34__spirv_GenericCastToPtr_ToPrivatePvi(ptr addrspace(4), i32)
declare spir_func ptr @_Z42__spirv_GenericCastToPtrExplicit_ToPrivatePvi(ptr addrspace(4), i32)
declare spir_func ptr addrspace(3) @_Z40__spirv_GenericCastToPtrExplicit_ToLocalPvi(ptr addrspace(4), i32)
"#;

#[test]
fn translator_spv_ir_generic_casts_translate_and_run() {
    let dir = out_dir();
    let ll = dir.join("casts.ll");
    std::fs::write(&ll, SPV_IR_CASTS.replace("GLOBAL_SC", "5")).unwrap();
    let spv = dir.join("casts.spv");
    run(spvkit().arg("from-llvm").arg(&ll).arg("-o").arg(&spv));
    spirv_val(&spv, "opencl2.0").unwrap();
    let dis = String::from_utf8(run(Command::new("spirv-dis").arg(&spv))).unwrap();
    let count = |op: &str| dis.matches(&format!("= {op} ")).count();
    assert_eq!(count("OpGenericCastToPtr"), 3, "{dis}");
    assert_eq!(count("OpGenericCastToPtrExplicit"), 2, "{dis}");
    let job = serde_json::json!({
        "entry": "casts", "local_size": [1], "global_size": [1],
        "args": [
            {"kind": "buffer", "layout": ["i32"], "data": [0, 0, 0]},
            {"kind": "local", "size_bytes": 4},
        ],
    });
    let path = dir.join("casts.job.json");
    std::fs::write(&path, job.to_string()).unwrap();
    let out = run(spvkit().arg("run").arg(&spv).arg("--job").arg(&path));
    let v: Value = serde_json::from_slice(&out).unwrap();
    // 7 + 3 through the casts; to_private of a private pointer is not null, to_local is.
    assert_eq!(v["buffers"][0]["data"], serde_json::json!([10, 0, 1]));

    // A storage argument that disagrees with the name is an error naming the call.
    let bad = dir.join("casts_bad.ll");
    std::fs::write(&bad, SPV_IR_CASTS.replace("GLOBAL_SC", "4")).unwrap();
    let out = spvkit()
        .arg("from-llvm")
        .arg(&bad)
        .arg("-o")
        .arg(dir.join("casts_bad.spv"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("__spirv_GenericCastToPtr_ToGlobal") && stderr.contains("CrossWorkgroup"),
        "{stderr}"
    );
}
