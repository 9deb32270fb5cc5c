//! Hand-written lowering executed: GLSL compute shaders and an OpenCL kernel compiled at test
//! time, lowered, JIT-compiled and run through their `spvkit.entry.<name>` wrappers with a
//! real invocation context (resources, builtins, kernel arguments), against values computed in
//! Rust; and the `LoweredEntry` the runner gets (local size, slots, memory blocks, parameters).
#![cfg(feature = "run")]

use inkwell::context::Context;
use inkwell::OptimizationLevel;
use spvkit::lower::{lower_binary, KernelParam, LowerOptions, LoweredEntry};
use spvkit::run::context::InvocationContext;
use std::path::PathBuf;
use std::process::Command;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("spvkit-lower-exec-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

fn words(path: &PathBuf) -> Vec<u32> {
    std::fs::read(path)
        .unwrap()
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn glsl(name: &str, src: &str) -> Vec<u32> {
    let s = tmp(&format!("{name}.comp"));
    let o = tmp(&format!("{name}.spv"));
    std::fs::write(&s, src).unwrap();
    let r = Command::new("glslangValidator")
        .args(["-V", "--target-env", "vulkan1.1", "-o"])
        .arg(&o)
        .arg(&s)
        .output()
        .expect("glslangValidator");
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stdout));
    words(&o)
}

fn opencl(name: &str, src: &str) -> Vec<u32> {
    let s = tmp(&format!("{name}.cl"));
    let bc = tmp(&format!("{name}.bc"));
    let o = tmp(&format!("{name}.spv"));
    std::fs::write(&s, src).unwrap();
    let r = Command::new("clang-15")
        .args([
            "-cc1",
            "-triple",
            "spir64-unknown-unknown",
            "-cl-std=CL2.0",
            "-emit-llvm-bc",
        ])
        .args([
            "-finclude-default-header",
            "-no-opaque-pointers",
            "-O0",
            "-o",
        ])
        .arg(&bc)
        .arg(&s)
        .output()
        .expect("clang-15");
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let r = Command::new("llvm-spirv-15")
        .arg("--spirv-max-version=1.0")
        .arg(&bc)
        .arg("-o")
        .arg(&o)
        .output()
        .expect("llvm-spirv-15");
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    words(&o)
}

fn context() -> InvocationContext {
    InvocationContext {
        global_id: [0; 3],
        local_id: [0; 3],
        workgroup_id: [0; 3],
        num_workgroups: [1; 3],
        workgroup_size: [1; 3],
        global_size: [1; 3],
        global_offset: [0; 3],
        local_index: 0,
        work_dim: 1,
        resources: std::ptr::null(),
        push_constants: std::ptr::null(),
        workgroup_memory: std::ptr::null_mut(),
        private_memory: std::ptr::null_mut(),
        args: std::ptr::null(),
        runtime: std::ptr::null_mut(),
        resource_sizes: std::ptr::null(),
        group_scratch: std::ptr::null_mut(),
    }
}

/// Runs entry `main` over `n` invocations of one-dimensional workgroups of `local` (no
/// barriers: one after another), with `buffers` bound to slots in order.
fn dispatch(words: &[u32], opts: &LowerOptions, n: u64, buffers: &mut [Vec<u8>]) -> LoweredEntry {
    let cx = Context::create();
    let l = lower_binary(&cx, words, opts).unwrap_or_else(|e| panic!("{e}"));
    l.module.verify().unwrap();
    let entry = l.entries[0].clone();
    let local = u64::from(entry.local_size.expect("a fixed local size")[0]);
    let ee = l
        .module
        .create_jit_execution_engine(OptimizationLevel::None)
        .unwrap();
    let addr = ee.get_function_address(&entry.symbol).unwrap();
    // SAFETY: the wrapper's ABI: `void (ptr %ctx)`.
    let f: extern "C" fn(*mut InvocationContext) = unsafe { std::mem::transmute(addr) };
    let slots: Vec<*mut u8> = buffers.iter_mut().map(|b| b.as_mut_ptr()).collect();
    let mut wg = vec![0u8; entry.workgroup_memory.size as usize + 16];
    for g in 0..n {
        let mut private = vec![0u8; entry.private_memory.size as usize + 16];
        private[..entry.private_memory.init.len()].copy_from_slice(&entry.private_memory.init);
        let mut c = context();
        c.global_id = [g, 0, 0];
        c.local_id = [g % local, 0, 0];
        c.workgroup_id = [g / local, 0, 0];
        c.local_index = g % local;
        c.workgroup_size = [local, 1, 1];
        c.num_workgroups = [n.div_ceil(local), 1, 1];
        c.resources = slots.as_ptr();
        c.private_memory = private.as_mut_ptr();
        c.workgroup_memory = wg.as_mut_ptr();
        f(&mut c);
    }
    entry
}

fn put_f32(b: &mut [u8], at: usize, v: f32) {
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
}
fn get_f32(b: &[u8], at: usize) -> f32 {
    f32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}
fn get_u32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

const SHADER: &str = r#"
#version 450
layout(local_size_x = 2) in;
layout(constant_id = 0) const int K = 3;
layout(std430, set = 0, binding = 1) buffer Data {
    vec4 a[4];      // 0
    mat3 m;         // 64, columns 16 apart
    float o[4];     // 112
    vec3 v3;        // 128
    float after;    // 140: inside vec3's 16-byte LLVM allocation
    uint counter;   // 144
} d;
layout(std430, set = 0, binding = 0) buffer Scale { float scale; } sc;
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 x = d.a[i];
    vec3 y = d.m * x.xyz;
    float s = dot(y, vec3(1.0)) + length(x) * sc.scale;
    for (int k = 0; k < K; k++) {
        s += clamp(x.w, 0.0, 1.0);
    }
    if (x.x > 1.0) {
        s = -s;
    }
    switch (i) {
        case 0: s += 100.0; break;
        case 2: s += 200.0; break;
        default: break;
    }
    d.o[i] = s + d.v3.z + d.after + cross(x.xyz, d.v3).x;
    atomicAdd(d.counter, 1u);
}
"#;

/// The buffer bytes, `a`, `m` (columns), `v3` and `after`.
type ShaderData = (Vec<u8>, [[f32; 4]; 4], [[f32; 3]; 3], [f32; 3], f32);

fn shader_data() -> ShaderData {
    let a = [
        [0.5, 1.0, -2.0, 0.25],
        [2.0, -1.0, 0.5, 3.0],
        [-1.5, 0.0, 4.0, -0.5],
        [1.25, 2.5, -0.75, 0.75],
    ];
    let m = [[1.0, 2.0, 3.0], [0.0, -1.0, 0.5], [2.0, 0.0, 1.0]];
    let v3 = [0.5, -1.5, 2.0];
    let after = 10.0;
    let mut b = vec![0u8; 148];
    for (i, v) in a.iter().enumerate() {
        for (j, x) in v.iter().enumerate() {
            put_f32(&mut b, 16 * i + 4 * j, *x);
        }
    }
    for (c, col) in m.iter().enumerate() {
        for (r, x) in col.iter().enumerate() {
            put_f32(&mut b, 64 + 16 * c + 4 * r, *x);
        }
    }
    for (j, x) in v3.iter().enumerate() {
        put_f32(&mut b, 128 + 4 * j, *x);
    }
    put_f32(&mut b, 140, after);
    (b, a, m, v3, after)
}

fn shader_expected(i: usize, k: i32, scale: f32) -> f32 {
    let (_, a, m, v3, after) = shader_data();
    let x = a[i];
    let mut y = [0f32; 3];
    for (c, col) in m.iter().enumerate() {
        for r in 0..3 {
            y[r] += col[r] * x[c];
        }
    }
    let len = (x[0] * x[0] + x[1] * x[1] + x[2] * x[2] + x[3] * x[3]).sqrt();
    let mut s = y[0] + y[1] + y[2] + len * scale;
    for _ in 0..k {
        s += x[3].clamp(0.0, 1.0);
    }
    if x[0] > 1.0 {
        s = -s;
    }
    match i {
        0 => s += 100.0,
        2 => s += 200.0,
        _ => {}
    }
    let cross_x = x[1] * v3[2] - x[2] * v3[1];
    s + v3[2] + after + cross_x
}

#[test]
fn a_compute_shader_runs_and_matches_rust() {
    let w = glsl("shader", SHADER);
    for (k, opts) in [
        (3, LowerOptions::default()),
        (
            5,
            LowerOptions {
                spec_constants: [(0, 5)].into_iter().collect(),
                ..Default::default()
            },
        ),
    ] {
        let (data, ..) = shader_data();
        let mut buffers = vec![2.0f32.to_le_bytes().to_vec(), data];
        let entry = dispatch(&w, &opts, 4, &mut buffers);
        assert_eq!(entry.local_size, Some([2, 1, 1]));
        assert_eq!(entry.resources.len(), 2);
        assert_eq!((entry.resources[0].set, entry.resources[0].binding), (0, 0));
        assert_eq!((entry.resources[1].set, entry.resources[1].binding), (0, 1));
        assert_eq!(entry.resources[0].size_bytes, Some(4));
        assert!(!entry.uses_barrier);
        for i in 0..4 {
            let got = get_f32(&buffers[1], 112 + 4 * i);
            let want = shader_expected(i, k, 2.0);
            assert!(
                (got - want).abs() <= want.abs() * 1e-6,
                "K={k} o[{i}] = {got}, expected {want}"
            );
        }
        assert_eq!(get_u32(&buffers[1], 144), 4, "atomic counter");
    }
}

#[test]
fn entry_description_for_barriers_workgroup_memory_and_spec_sized_groups() {
    let src = r#"
#version 450
layout(local_size_x_id = 3, local_size_y = 2) in;
layout(push_constant) uniform PC { float k; uint n; } pc;
layout(std430, set = 1, binding = 2) buffer B { float v[]; } b;
shared float tile[64];
void main() {
    tile[gl_LocalInvocationIndex] = b.v[gl_GlobalInvocationID.x] * pc.k;
    barrier();
    b.v[gl_GlobalInvocationID.x] = tile[0];
}
"#;
    let w = glsl("barrier", src);
    let cx = Context::create();
    let opts = LowerOptions {
        spec_constants: [(3, 16)].into_iter().collect(),
        ..Default::default()
    };
    let l = lower_binary(&cx, &w, &opts).unwrap();
    l.module.verify().unwrap();
    let e = &l.entries[0];
    assert_eq!(e.local_size, Some([16, 2, 1]));
    assert!(e.uses_barrier);
    assert_eq!(e.workgroup_memory.size, 256);
    assert_eq!(e.push_constant_size, Some(8));
    assert_eq!(e.resources.len(), 1);
    assert_eq!((e.resources[0].set, e.resources[0].binding), (1, 2));
    assert_eq!(e.resources[0].size_bytes, None);
    let text = l.module.print_to_string().to_string();
    assert!(
        text.contains("call void @spvkit_rt_control_barrier(ptr"),
        "{text}"
    );
    assert!(text.contains("fence acq_rel"), "{text}");
    // Default spec value.
    let cx2 = Context::create();
    let l2 = lower_binary(&cx2, &w, &LowerOptions::default()).unwrap();
    assert_eq!(l2.entries[0].local_size, Some([1, 2, 1]));
}

#[test]
fn an_opencl_kernel_reads_its_arguments_from_the_context() {
    let src = r#"
kernel void saxpy(global float* y, global const float* x, float a, local float* scratch) {
    size_t i = get_global_id(0);
    scratch[0] = a;
    y[i] = a * x[i] + y[i];
}
"#;
    let w = opencl("saxpy", src);
    let cx = Context::create();
    let l = lower_binary(&cx, &w, &LowerOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    l.module.verify().unwrap();
    let e = l.entries[0].clone();
    assert_eq!(e.name, "saxpy");
    assert_eq!(e.kernel_params.len(), 4);
    assert!(matches!(e.kernel_params[0], KernelParam::Buffer { .. }));
    assert!(matches!(e.kernel_params[1], KernelParam::Buffer { .. }));
    assert_eq!(e.kernel_params[2], KernelParam::Scalar { size_bytes: 4 });
    assert_eq!(e.kernel_params[3], KernelParam::Local);
    let ee = l
        .module
        .create_jit_execution_engine(OptimizationLevel::None)
        .unwrap();
    let addr = ee.get_function_address(&e.symbol).unwrap();
    // SAFETY: the wrapper's ABI.
    let f: extern "C" fn(*mut InvocationContext) = unsafe { std::mem::transmute(addr) };
    let mut y: Vec<f32> = (0..8).map(|i| i as f32).collect();
    let x: Vec<f32> = (0..8).map(|i| 0.5 * i as f32 - 1.0).collect();
    let a = 3.0f32;
    let mut scratch = [0f32; 4];
    let mut yp = y.as_mut_ptr();
    let mut xp = x.as_ptr();
    let mut ap = a;
    let mut sp = scratch.as_mut_ptr();
    let args: [*mut u8; 4] = [
        &mut yp as *mut _ as *mut u8,
        &mut xp as *mut _ as *mut u8,
        &mut ap as *mut _ as *mut u8,
        &mut sp as *mut _ as *mut u8,
    ];
    for i in 0..8u64 {
        let mut c = context();
        c.global_id = [i, 0, 0];
        c.global_size = [8, 1, 1];
        c.args = args.as_ptr();
        f(&mut c);
    }
    for i in 0..8 {
        assert_eq!(y[i], a * x[i] + i as f32, "y[{i}]");
    }
    assert_eq!(scratch[0], 3.0);
}

#[test]
fn function_names_never_capture_library_or_intrinsic_symbols() {
    // Internal functions named like the C functions the lowering calls (`asinf`) or like LLVM
    // intrinsics are renamed; the call of GLSL `Asin` still reaches the C library.
    let text = r#"
OpCapability Shader
OpCapability Linkage
%ext = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpName %helper "asinf"
OpName %other "llvm.sqrt.f32"
OpDecorate %f LinkageAttributes "f" Export
%float = OpTypeFloat 32
%fnty = OpTypeFunction %float %float
%helper = OpFunction %float None %fnty
%x = OpFunctionParameter %float
%h = OpLabel
%y = OpFAdd %float %x %x
OpReturnValue %y
OpFunctionEnd
%other = OpFunction %float None %fnty
%x2 = OpFunctionParameter %float
%o = OpLabel
OpReturnValue %x2
OpFunctionEnd
%f = OpFunction %float None %fnty
%a = OpFunctionParameter %float
%e = OpLabel
%s = OpExtInst %float %ext Asin %a
%t = OpFunctionCall %float %helper %s
%u = OpFunctionCall %float %other %t
OpReturnValue %u
OpFunctionEnd
"#;
    let w = spvkit::text::assemble(text, &Default::default()).unwrap();
    let cx = Context::create();
    let l = lower_binary(&cx, &w, &LowerOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    l.module.verify().unwrap();
    let ee = l
        .module
        .create_jit_execution_engine(OptimizationLevel::None)
        .unwrap();
    let addr = ee.get_function_address("f").unwrap();
    // SAFETY: f is (ptr, float) -> float.
    let f: extern "C" fn(*const u8, f32) -> f32 = unsafe { std::mem::transmute(addr) };
    for x in [0.0f32, 0.5, -0.25, 1.0] {
        assert_eq!(f(std::ptr::null(), x), 2.0 * x.asin());
    }
}

#[test]
fn initializers_private_images_and_program_scope_addresses() {
    // Private variables with initializers become the entry's initial private image; a
    // program-scope variable may be initialized with another one's address.
    let shader = r#"
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 8 1 1
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v2 = OpTypeVector %float 2
%c42 = OpConstant %uint 42
%f1 = OpConstant %float 1.5
%f2 = OpConstant %float -2
%cv = OpConstantComposite %v2 %f1 %f2
%pu = OpTypePointer Private %uint
%pv = OpTypePointer Private %v2
%a = OpVariable %pu Private %c42
%b = OpVariable %pv Private %cv
%fnty = OpTypeFunction %void
%main = OpFunction %void None %fnty
%e = OpLabel
%x = OpLoad %uint %a
OpStore %a %x
OpReturn
OpFunctionEnd
"#;
    let w = spvkit::text::assemble(shader, &Default::default()).unwrap();
    let cx = Context::create();
    let l = lower_binary(&cx, &w, &LowerOptions::default()).unwrap();
    l.module.verify().unwrap();
    let e = &l.entries[0];
    assert_eq!(e.local_size, Some([8, 1, 1]));
    assert_eq!(e.private_memory.size, 16);
    let init = &e.private_memory.init;
    assert_eq!(init.len(), 16);
    assert_eq!(get_u32(init, 0), 42);
    assert_eq!(get_f32(init, 8), 1.5);
    assert_eq!(get_f32(init, 12), -2.0);

    let kernel = r#"
OpCapability Addresses
OpCapability Linkage
OpCapability Kernel
OpCapability Int64
OpMemoryModel Physical64 OpenCL
OpDecorate %f LinkageAttributes "f" Export
%uint = OpTypeInt 32 0
%c7 = OpConstant %uint 7
%pg = OpTypePointer CrossWorkgroup %uint
%ppg = OpTypePointer CrossWorkgroup %pg
%g1 = OpVariable %pg CrossWorkgroup %c7
%g2 = OpVariable %ppg CrossWorkgroup %g1
%fnty = OpTypeFunction %uint
%f = OpFunction %uint None %fnty
%e = OpLabel
%p = OpLoad %pg %g2
%v = OpLoad %uint %p
OpReturnValue %v
OpFunctionEnd
"#;
    let w = spvkit::text::assemble(kernel, &Default::default()).unwrap();
    let cx = Context::create();
    let l = lower_binary(&cx, &w, &LowerOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    l.module.verify().unwrap();
    let ee = l
        .module
        .create_jit_execution_engine(OptimizationLevel::None)
        .unwrap();
    let addr = ee.get_function_address("f").unwrap();
    // SAFETY: f is (ptr) -> i32.
    let f: extern "C" fn(*const u8) -> u32 = unsafe { std::mem::transmute(addr) };
    assert_eq!(f(std::ptr::null()), 7);
}

#[test]
fn async_work_group_copies_are_synchronous_copies() {
    let src = r#"
kernel void k(global float* out, global const float* in, local float* tmp) {
    event_t e = async_work_group_strided_copy(tmp, in, 8, 2, 0);
    wait_group_events(1, &e);
    out[get_global_id(0)] = tmp[get_local_id(0)] * 2.0f;
}
"#;
    let w = opencl("async", src);
    let cx = Context::create();
    let l = lower_binary(&cx, &w, &LowerOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    l.module.verify().unwrap();
    let e = l.entries[0].clone();
    let ee = l
        .module
        .create_jit_execution_engine(OptimizationLevel::None)
        .unwrap();
    let addr = ee.get_function_address(&e.symbol).unwrap();
    // SAFETY: the wrapper's ABI.
    let f: extern "C" fn(*mut InvocationContext) = unsafe { std::mem::transmute(addr) };
    let mut out = [0f32; 8];
    let input: Vec<f32> = (0..16).map(|i| i as f32).collect();
    let mut tmp = [0f32; 8];
    let mut op = out.as_mut_ptr();
    let mut ip = input.as_ptr();
    let mut tp = tmp.as_mut_ptr();
    let args: [*mut u8; 3] = [
        &mut op as *mut _ as *mut u8,
        &mut ip as *mut _ as *mut u8,
        &mut tp as *mut _ as *mut u8,
    ];
    for i in 0..8u64 {
        let mut c = context();
        c.global_id = [i, 0, 0];
        c.local_id = [i, 0, 0];
        c.workgroup_size = [8, 1, 1];
        c.args = args.as_ptr();
        f(&mut c);
    }
    for (i, o) in out.iter().enumerate() {
        assert_eq!(*o, 2.0 * input[2 * i], "out[{i}]");
    }
}

#[test]
fn row_major_matrices_load_store_and_elements() {
    let src = r#"
#version 450
layout(local_size_x = 1) in;
struct S { mat2x3 m; };
layout(std430, set = 0, binding = 0, row_major) buffer B {
    S s;        // m: 2 columns of 3 rows, stored as 3 rows of 2 floats
    vec3 v;     // at 32
    float e;    // at 44
    mat2x3 copy; // at 48
    vec3 col;   // at 80
    float e2;   // at 92
} b;
void main() {
    b.v = b.s.m * vec2(1.0, 2.0);
    b.e = b.s.m[1][2];
    b.copy = b.s.m * 2.0;
    S whole = b.s;              // a whole-struct load, then member extraction
    b.col = whole.m[1];
    b.e2 = whole.m[0][1];
}
"#;
    let w = glsl("rowmajor", src);
    let mut data = vec![0u8; 96];
    // Rows: (1, 2), (3, 4), (5, 6): column 0 = (1, 3, 5), column 1 = (2, 4, 6).
    for (i, x) in [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0].iter().enumerate() {
        put_f32(&mut data, 4 * i, *x);
    }
    let mut buffers = vec![data];
    dispatch(&w, &LowerOptions::default(), 1, &mut buffers);
    let b = &buffers[0];
    let v: Vec<f32> = (0..3).map(|i| get_f32(b, 32 + 4 * i)).collect();
    assert_eq!(v, [1.0 + 2.0 * 2.0, 3.0 + 2.0 * 4.0, 5.0 + 2.0 * 6.0]);
    assert_eq!(get_f32(b, 44), 6.0);
    let copy: Vec<f32> = (0..6).map(|i| get_f32(b, 48 + 4 * i)).collect();
    assert_eq!(copy, [2.0, 4.0, 6.0, 8.0, 10.0, 12.0]);
    let col: Vec<f32> = (0..3).map(|i| get_f32(b, 80 + 4 * i)).collect();
    assert_eq!(col, [2.0, 4.0, 6.0]);
    assert_eq!(get_f32(b, 92), 3.0);
}

#[test]
fn padded_and_row_major_matrix_arrays_leave_the_padding_alone() {
    let src = r#"
#version 450
layout(local_size_x = 1) in;
layout(std140, set = 0, binding = 0) buffer B {
    mat2 a;                       // 0: columns at 0 and 16 (8 bytes of padding after each)
    layout(row_major) mat2 r[2];  // 32: r[i]'s rows at 32 + 32i and 48 + 32i
    vec2 out0;                    // 96
    vec2 out1;                    // 104
    mat2 w;                       // 112: columns at 112 and 128
    layout(row_major) mat2 wr[2]; // 144: rows at 144, 160; 176, 192
} b;
void main() {
    b.out0 = b.a * vec2(1.0, 10.0);
    b.out1 = b.r[1] * vec2(1.0, 10.0);
    b.w = b.a;
    b.w[1][0] = 7.0;
    b.wr[1] = b.a;
    b.wr[0][1] = vec2(8.0, 9.0);
}
"#;
    let w = glsl("matrix_layouts", src);
    let mut data = vec![0u8; 208];
    for i in 0..52 {
        put_f32(&mut data, 4 * i, 99.0);
    }
    for (at, x) in [(0, 1.0), (4, 2.0), (16, 3.0), (20, 4.0)] {
        put_f32(&mut data, at, x);
    }
    // r[1]: rows (5, 6) and (7, 8), so columns (5, 7) and (6, 8).
    for (at, x) in [(64, 5.0), (68, 6.0), (80, 7.0), (84, 8.0)] {
        put_f32(&mut data, at, x);
    }
    let mut buffers = vec![data];
    dispatch(&w, &LowerOptions::default(), 1, &mut buffers);
    let b = &buffers[0];
    let at = |o: usize| get_f32(b, o);
    assert_eq!([at(96), at(100)], [31.0, 42.0]);
    assert_eq!([at(104), at(108)], [65.0, 87.0]);
    // w = a, then w[1][0] = 7; the padding keeps its 99s.
    let w_words: Vec<f32> = (0..8).map(|i| at(112 + 4 * i)).collect();
    assert_eq!(w_words, [1.0, 2.0, 99.0, 99.0, 7.0, 4.0, 99.0, 99.0]);
    // wr[0]: only component 1 of each row (column 1) written.
    let wr0: Vec<f32> = (0..8).map(|i| at(144 + 4 * i)).collect();
    assert_eq!(wr0, [99.0, 8.0, 99.0, 99.0, 99.0, 9.0, 99.0, 99.0]);
    // wr[1] = a, stored as rows (1, 3) and (2, 4).
    let wr1: Vec<f32> = (0..8).map(|i| at(176 + 4 * i)).collect();
    assert_eq!(wr1, [1.0, 3.0, 99.0, 99.0, 2.0, 4.0, 99.0, 99.0]);
}
