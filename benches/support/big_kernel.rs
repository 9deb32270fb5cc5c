//! A large OpenCL kernel module made at bench time: many kernels of integer and float
//! arithmetic, loops, OpenCL.std math, vectors, local memory with barriers and atomics. The
//! OpenCL C is generated here, compiled by clang-15 and translated by llvm-spirv-15 (the
//! reference tools), and cached under target/.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;

/// The generated OpenCL C, with `kernels` kernels.
pub fn source(kernels: usize) -> String {
    let mut s = String::with_capacity(kernels * 1500);
    for k in 0..kernels {
        let _ = write!(
            s,
            r#"
__kernel void k{k}(__global float *out, __global const float *in, __global int *counts,
                   __local float *tile, float scale, int n) {{
    size_t gid = get_global_id(0);
    size_t lid = get_local_id(0);
    float x = in[gid] * scale + {k}.5f;
    float4 v = (float4)(x, x + 1.0f, x * 2.0f, x - 3.0f);
    for (int i = 0; i < n; ++i) {{
        v = fma(v, (float4)(0.5f), (float4)(i));
        x += sin(v.x) * cos(v.y) + sqrt(fabs(v.z)) - exp(-fabs(v.w));
        if (x > 1000.0f) {{ x = fmod(x, 7.0f); }} else {{ x = x * 0.25f + {k}; }}
    }}
    int bits = (int)x ^ (int)gid;
    bits = (bits << 3) | (bits >> 2);
    bits += popcount(bits) + clz(bits + 1);
    tile[lid] = x + (float)bits;
    barrier(CLK_LOCAL_MEM_FENCE);
    float sum = tile[lid] + tile[(lid + 1) % get_local_size(0)];
    atomic_add(&counts[{k} % 16], bits & 7);
    switch (bits & 3) {{
        case 0: sum *= 2.0f; break;
        case 1: sum = -sum; break;
        case 2: sum = max(sum, v.x); break;
        default: sum = min(sum, dot(v, v)); break;
    }}
    out[gid] = sum + length(v.xyz) + convert_float(convert_int_sat(sum * 1e6f));
}}
"#
        );
    }
    s
}

/// The path of the compiled module with `kernels` kernels, compiled on first use.
pub fn path(kernels: usize) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/bench-data");
    std::fs::create_dir_all(&dir).expect("bench-data dir");
    let spv = dir.join(format!("big_kernel_{kernels}.spv"));
    if spv.exists() {
        return spv;
    }
    let cl = dir.join(format!("big_kernel_{kernels}.cl"));
    let bc = dir.join(format!("big_kernel_{kernels}.bc"));
    std::fs::write(&cl, source(kernels)).expect("write .cl");
    let st = Command::new("clang-15")
        .args(["-cc1", "-triple", "spir64-unknown-unknown", "-cl-std=CL2.0"])
        .args([
            "-emit-llvm-bc",
            "-finclude-default-header",
            "-no-opaque-pointers",
            "-O0",
        ])
        .arg("-o")
        .arg(&bc)
        .arg(&cl)
        .status()
        .expect("clang-15 runs (scripts/setup.sh installs it)");
    assert!(st.success(), "clang-15 failed on {}", cl.display());
    let st = Command::new("llvm-spirv-15")
        .arg(&bc)
        .arg("-o")
        .arg(&spv)
        .status()
        .expect("llvm-spirv-15 runs (scripts/setup.sh installs it)");
    assert!(st.success(), "llvm-spirv-15 failed on {}", bc.display());
    spv
}
