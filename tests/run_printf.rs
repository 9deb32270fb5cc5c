//! OpenCL `printf` under `spvkit run`: scalars and vectors (`%.2v4hlf`, `%v2hld`, `%v3hhu`,
//! `%#v2hlx`, elements separated by commas as OpenCL prints them), strings and `%%`, from
//! clang-15's SPIR-V through llvm-spirv-15 and through spvkit's from-llvm, print what the OpenCL
//! specification says, one line per work-item.

#![cfg(all(feature = "run", feature = "cli"))]

#[path = "support/opencl.rs"]
mod opencl;

use opencl::{clang, run_ok as run};

use std::path::Path;
use std::process::Command;

const SOURCE: &str = r#"
kernel void p(global float4 *f, global int *n) {
    int i = get_global_id(0);
    float4 v = f[i];
    int2 w = (int2)(n[i], -n[i]);
    uchar3 u = (uchar3)(1, 200, 3);
    printf("i=%d v=%.2v4hlf w=%v2hld u=%v3hhu x=%#v2hlx %s %%\n", i, v, w, u, as_uint2(w), "end");
}
"#;

#[test]
fn printf_prints_vectors_element_by_element() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("run_printf");
    std::fs::create_dir_all(&dir).unwrap();
    let cl = dir.join("p.cl");
    std::fs::write(&cl, SOURCE).unwrap();
    // Typed pointers for llvm-spirv-15, which asserts on opaque ones; opaque for spvkit.
    let (typed, bc) = (dir.join("p.typed.bc"), dir.join("p.bc"));
    clang(
        &cl,
        "spir64-unknown-unknown",
        ["-O2", "-no-opaque-pointers"],
        &typed,
    )
    .unwrap();
    clang(&cl, "spir64-unknown-unknown", ["-O2"], &bc).unwrap();
    let theirs = dir.join("p.llvm-spirv.spv");
    run(Command::new("llvm-spirv-15")
        .arg(&typed)
        .arg("-o")
        .arg(&theirs));
    let spvkit = || Command::new(env!("CARGO_BIN_EXE_spvkit"));
    let ours = dir.join("p.spvkit.spv");
    run(spvkit().arg("from-llvm").arg(&bc).arg("-o").arg(&ours));
    let job = dir.join("p.json");
    std::fs::write(
        &job,
        r#"{"entry": "p", "dispatch": [1, 1, 1], "local_size": [2, 1, 1], "work_dim": 1,
            "args": [{"kind": "buffer", "layout": ["f32"], "data": [1, 2, 3, 4, 5.5, 6.25, 7, 8]},
                     {"kind": "buffer", "layout": ["i32"], "data": [10, 255]}]}"#,
    )
    .unwrap();
    let want = "i=0 v=1.00,2.00,3.00,4.00 w=10,-10 u=1,200,3 x=0xa,0xfffffff6 end %\n\
                i=1 v=5.50,6.25,7.00,8.00 w=255,-255 u=1,200,3 x=0xff,0xffffff01 end %\n";
    for spv in [&theirs, &ours] {
        let out = run(spvkit()
            .arg("run")
            .arg(spv)
            .arg("--job")
            .arg(&job)
            .args(["--threads", "1", "-o"])
            .arg(dir.join("buffers.json")));
        assert_eq!(String::from_utf8_lossy(&out), want, "{}", spv.display());
    }
}
