//! `spvkit::run` on hand-written LLVM modules that follow docs/lowering-abi.md, so that the
//! runner (JIT, binding, grid, barriers, kernel arguments) is tested without the lowering.
#![cfg(feature = "run")]

use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use spvkit::grammar::{ExecutionModel, StorageClass};
use spvkit::lower::{KernelParam, LoweredEntry, LoweredModule, MemoryBlock, ResourceSlot};
use spvkit::run::{run_lowered, BarrierMode, Job, RunError, RunOptions};

fn module<'c>(cx: &'c Context, ir: &str, entries: Vec<LoweredEntry>) -> LoweredModule<'c> {
    let buf = MemoryBuffer::create_from_memory_range_copy(ir.as_bytes(), "test");
    let module = cx.create_module_from_ir(buf).expect("test IR parses");
    LoweredModule { module, entries }
}

fn shader(name: &str, local_size: [u32; 3], bindings: &[(u32, u32)]) -> LoweredEntry {
    LoweredEntry {
        name: name.into(),
        symbol: format!("spvkit.entry.{name}"),
        execution_model: ExecutionModel::GLCompute,
        local_size: Some(local_size),
        resources: bindings
            .iter()
            .map(|&(set, binding)| ResourceSlot {
                set,
                binding,
                array_index: 0,
                storage_class: StorageClass::StorageBuffer,
                size_bytes: None,
            })
            .collect(),
        push_constant_size: None,
        workgroup_memory: MemoryBlock::default(),
        private_memory: MemoryBlock::default(),
        kernel_params: Vec::new(),
        uses_barrier: false,
    }
}

fn u32s(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn options(threads: usize) -> RunOptions {
    RunOptions {
        threads,
        ..RunOptions::default()
    }
}

/// Loads of context fields, shared by the modules below.
const BUILTINS: &str = r#"
define internal i64 @field(ptr %ctx, i64 %off) alwaysinline {
  %p = getelementptr i8, ptr %ctx, i64 %off
  %v = load i64, ptr %p
  ret i64 %v
}
define internal ptr @resource(ptr %ctx, i64 %slot) alwaysinline {
  %rp = getelementptr i8, ptr %ctx, i64 184
  %res = load ptr, ptr %rp
  %p = getelementptr ptr, ptr %res, i64 %slot
  %v = load ptr, ptr %p
  ret ptr %v
}
"#;

const IDS: &str = r#"
define void @"spvkit.entry.ids"(ptr %ctx) {
  %out = call ptr @resource(ptr %ctx, i64 0)
  %gx = call i64 @field(ptr %ctx, i64 0)
  %gy = call i64 @field(ptr %ctx, i64 8)
  %gz = call i64 @field(ptr %ctx, i64 16)
  %nx = call i64 @field(ptr %ctx, i64 72)
  %ny = call i64 @field(ptr %ctx, i64 80)
  %sx = call i64 @field(ptr %ctx, i64 96)
  %sy = call i64 @field(ptr %ctx, i64 104)
  %w = mul i64 %nx, %sx
  %h = mul i64 %ny, %sy
  %row = mul i64 %gy, %w
  %plane = mul i64 %w, %h
  %layer = mul i64 %gz, %plane
  %a = add i64 %gx, %row
  %lin = add i64 %a, %layer
  %rec = mul i64 %lin, 10
  br label %loop
loop:
  %i = phi i64 [0, %0], [%i1, %loop]
  ; fields 0..8: global_id, local_id, workgroup_id (offsets 0..64); 9: local_index (168)
  %off = mul i64 %i, 8
  %pick = icmp ult i64 %i, 9
  %fo = select i1 %pick, i64 %off, i64 168
  %v = call i64 @field(ptr %ctx, i64 %fo)
  %v32 = trunc i64 %v to i32
  %idx = add i64 %rec, %i
  %p = getelementptr i32, ptr %out, i64 %idx
  store i32 %v32, ptr %p
  %i1 = add i64 %i, 1
  %more = icmp ult i64 %i1, 10
  br i1 %more, label %loop, label %done
done:
  ret void
}
"#;

#[test]
fn builtins_follow_the_grid() {
    let cx = Context::create();
    let ir = format!("{BUILTINS}{IDS}");
    let local = [4u32, 2, 2];
    let groups = [3u32, 2, 2];
    let n: u32 = local.iter().chain(&groups).product();
    let job = Job::from_json(&format!(
        r#"{{"dispatch": [3, 2, 2],
            "buffers": [{{"binding": 0, "layout": ["u32"], "size_words": {}}}]}}"#,
        n * 10
    ))
    .unwrap();
    for threads in [1, 3] {
        let lowered = module(&cx, &ir, vec![shader("ids", local, &[(0, 0)])]);
        let out = run_lowered(&lowered, &job, &options(threads)).unwrap();
        let got = u32s(&out.binding(0, 0).unwrap().bytes);
        let mut want = vec![0u32; got.len()];
        for wz in 0..2 {
            for wy in 0..2 {
                for wx in 0..3 {
                    for lz in 0..2 {
                        for ly in 0..2 {
                            for lx in 0..4 {
                                let g = [wx * 4 + lx, wy * 2 + ly, wz * 2 + lz];
                                let lin = (g[0] + g[1] * 12 + g[2] * 12 * 4) as usize;
                                let rec = [
                                    g[0],
                                    g[1],
                                    g[2],
                                    lx,
                                    ly,
                                    lz,
                                    wx,
                                    wy,
                                    wz,
                                    lx + ly * 4 + lz * 8,
                                ];
                                want[lin * 10..lin * 10 + 10].copy_from_slice(&rec);
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(got, want, "threads = {threads}");
    }
}

const SAXPY_PC: &str = r#"
define void @"spvkit.entry.main"(ptr %ctx) {
  %gid = load i64, ptr %ctx
  %x = call ptr @resource(ptr %ctx, i64 0)
  %y = call ptr @resource(ptr %ctx, i64 1)
  %pcp = getelementptr i8, ptr %ctx, i64 192
  %pc = load ptr, ptr %pcp
  %a = load float, ptr %pc
  %np = getelementptr i8, ptr %pc, i64 4
  %n = load i32, ptr %np
  %n64 = zext i32 %n to i64
  %in = icmp ult i64 %gid, %n64
  br i1 %in, label %body, label %done
body:
  %xp = getelementptr float, ptr %x, i64 %gid
  %yp = getelementptr float, ptr %y, i64 %gid
  %xv = load float, ptr %xp
  %yv = load float, ptr %yp
  %m = fmul float %a, %xv
  %r = fadd float %m, %yv
  store float %r, ptr %yp
  br label %done
done:
  ret void
}
"#;

#[test]
fn push_constants_and_two_sets_reach_the_shader() {
    let cx = Context::create();
    let mut entry = shader("main", [8, 1, 1], &[(1, 3), (0, 0)]);
    entry.push_constant_size = Some(8);
    let lowered = module(&cx, &format!("{BUILTINS}{SAXPY_PC}"), vec![entry]);
    let xs: Vec<String> = (0..20).map(|i| format!("{:?}", i as f32 * 0.5)).collect();
    let job = Job::from_json(&format!(
        r#"{{"dispatch": [3], "push_constants": {{"layout": ["f32", "u32"], "data": [2.5, 19]}},
            "buffers": [{{"binding": 0, "layout": ["f32"], "size_words": 24, "data": ["inf"]}},
                        {{"set": 1, "binding": 3, "layout": ["f32"], "data": [{}]}}]}}"#,
        xs.join(", ")
    ))
    .unwrap();
    let out = run_lowered(&lowered, &job, &RunOptions::default()).unwrap();
    let y = &out.binding(0, 0).unwrap().bytes;
    for i in 0..24usize {
        let got = f32::from_le_bytes(y[i * 4..i * 4 + 4].try_into().unwrap());
        let init = if i == 0 { f32::INFINITY } else { 0.0 };
        let want = if i < 19 {
            2.5 * (i as f32 * 0.5) + init
        } else {
            init
        };
        assert_eq!(got.to_bits(), want.to_bits(), "y[{i}]");
    }
    let x_out = out.binding(1, 3).unwrap();
    assert_eq!(
        x_out.layout.to_json(&x_out.bytes),
        format!("[{}]", xs.join(", "))
    );
    let json = out.to_json();
    assert!(
        json.starts_with(
            "{\"buffers\": [\n  {\"set\": 0, \"binding\": 0, \"data\": [\"inf\", 1.25, 2.5"
        ),
        "{json}"
    );
}

const REDUCE: &str = r#"
declare void @spvkit_rt_control_barrier(ptr)

define void @"spvkit.entry.reduce"(ptr %ctx) {
entry:
  %gid = load i64, ptr %ctx
  %lid = call i64 @field(ptr %ctx, i64 24)
  %wg = call i64 @field(ptr %ctx, i64 48)
  %in = call ptr @resource(ptr %ctx, i64 0)
  %out = call ptr @resource(ptr %ctx, i64 1)
  %shp = getelementptr i8, ptr %ctx, i64 200
  %sh = load ptr, ptr %shp
  %xp = getelementptr i32, ptr %in, i64 %gid
  %x = load i32, ptr %xp
  %slot = getelementptr i32, ptr %sh, i64 %lid
  store i32 %x, ptr %slot
  call void @spvkit_rt_control_barrier(ptr %ctx)
  br label %loop
loop:
  %stride = phi i64 [32, %entry], [%next, %cont]
  %active = icmp ult i64 %lid, %stride
  br i1 %active, label %add, label %cont
add:
  %oi = add i64 %lid, %stride
  %op = getelementptr i32, ptr %sh, i64 %oi
  %a = load i32, ptr %slot
  %b = load i32, ptr %op
  %s = add i32 %a, %b
  store i32 %s, ptr %slot
  br label %cont
cont:
  call void @spvkit_rt_control_barrier(ptr %ctx)
  %next = lshr i64 %stride, 1
  %done = icmp eq i64 %next, 0
  br i1 %done, label %fin, label %loop
fin:
  %is0 = icmp eq i64 %lid, 0
  br i1 %is0, label %write, label %ret
write:
  %r = load i32, ptr %sh
  %rp = getelementptr i32, ptr %out, i64 %wg
  store i32 %r, ptr %rp
  br label %ret
ret:
  ret void
}
"#;

fn reduce_entry(uses_barrier: bool) -> LoweredEntry {
    let mut e = shader("reduce", [64, 1, 1], &[(0, 0), (0, 1)]);
    e.workgroup_memory = MemoryBlock {
        size: 256,
        align: 16,
        init: Vec::new(),
    };
    e.uses_barrier = uses_barrier;
    e
}

#[test]
fn workgroup_reduction_needs_and_gets_real_barriers() {
    let cx = Context::create();
    let groups = 12usize;
    let input: Vec<u32> = (0..groups as u32 * 64).map(|i| i * 7 % 1000 + 1).collect();
    let want: Vec<u32> = input.chunks(64).map(|c| c.iter().sum()).collect();
    let data: Vec<String> = input.iter().map(u32::to_string).collect();
    let job = Job::from_json(&format!(
        r#"{{"dispatch": [{groups}],
            "buffers": [{{"binding": 0, "layout": ["u32"], "data": [{}]}},
                        {{"binding": 1, "layout": ["u32"], "size_words": {groups}}}]}}"#,
        data.join(",")
    ))
    .unwrap();
    for threads in [1, 2, 5] {
        let lowered = module(
            &cx,
            &format!("{BUILTINS}{REDUCE}"),
            vec![reduce_entry(true)],
        );
        let out = run_lowered(&lowered, &job, &options(threads)).unwrap();
        assert_eq!(
            u32s(&out.binding(0, 1).unwrap().bytes),
            want,
            "threads = {threads}"
        );
    }
    // Run one invocation after another and the same module computes something else: the test
    // above passes only because the barriers really wait.
    let lowered = module(
        &cx,
        &format!("{BUILTINS}{REDUCE}"),
        vec![reduce_entry(false)],
    );
    let out = run_lowered(&lowered, &job, &options(2)).unwrap();
    assert_ne!(u32s(&out.binding(0, 1).unwrap().bytes), want);
}

const EARLY_EXIT: &str = r#"
declare void @spvkit_rt_control_barrier(ptr)

define void @"spvkit.entry.early"(ptr %ctx) {
  %lid = call i64 @field(ptr %ctx, i64 24)
  %gid = load i64, ptr %ctx
  %out = call ptr @resource(ptr %ctx, i64 0)
  %odd = and i64 %lid, 1
  %quit = icmp eq i64 %odd, 1
  br i1 %quit, label %ret, label %work
work:
  call void @spvkit_rt_control_barrier(ptr %ctx)
  %p = getelementptr i32, ptr %out, i64 %gid
  store i32 1, ptr %p
  br label %ret
ret:
  ret void
}
"#;

#[test]
fn invocations_that_return_before_a_barrier_do_not_hang_the_rest() {
    let cx = Context::create();
    let mut e = shader("early", [8, 1, 1], &[(0, 0)]);
    e.uses_barrier = true;
    let job = Job::from_json(
        r#"{"dispatch": [4], "buffers": [{"binding": 0, "layout": ["u32"], "size_words": 32}]}"#,
    )
    .unwrap();
    for mode in [BarrierMode::Fibers, BarrierMode::Threads] {
        let lowered = module(&cx, &format!("{BUILTINS}{EARLY_EXIT}"), vec![e.clone()]);
        let opts = RunOptions {
            barrier_mode: mode,
            ..options(2)
        };
        let out = run_lowered(&lowered, &job, &opts).unwrap();
        let want: Vec<u32> = (0..32).map(|i| u32::from(i % 2 == 0)).collect();
        assert_eq!(u32s(&out.binding(0, 0).unwrap().bytes), want, "{mode:?}");
    }
}

const MEMORY_IMAGES: &str = r#"
define void @"spvkit.entry.mem"(ptr %ctx) {
  %gid = load i64, ptr %ctx
  %out = call ptr @resource(ptr %ctx, i64 0)
  %pp = getelementptr i8, ptr %ctx, i64 208
  %priv = load ptr, ptr %pp
  %wp = getelementptr i8, ptr %ctx, i64 200
  %wg = load ptr, ptr %wp
  %c = load i32, ptr %priv
  %c1 = add i32 %c, 1
  store i32 %c1, ptr %priv
  %counter = getelementptr i8, ptr %wg, i64 4
  %old = atomicrmw add ptr %counter, i32 1 seq_cst
  %sum = add i32 %old, %c1
  %p = getelementptr i32, ptr %out, i64 %gid
  store i32 %sum, ptr %p
  ret void
}
"#;

#[test]
fn private_and_workgroup_blocks_start_from_their_images() {
    let cx = Context::create();
    let mut e = shader("mem", [5, 1, 1], &[(0, 0)]);
    e.private_memory = MemoryBlock {
        size: 4,
        align: 4,
        init: 41u32.to_le_bytes().to_vec(),
    };
    e.workgroup_memory = MemoryBlock {
        size: 8,
        align: 8,
        init: [0u32.to_le_bytes(), 100u32.to_le_bytes()].concat(),
    };
    let job = Job::from_json(
        r#"{"dispatch": [6], "buffers": [{"binding": 0, "layout": ["u32"], "size_words": 30}]}"#,
    )
    .unwrap();
    // Private restarts at 41 for every invocation; the workgroup counter at 100 per workgroup.
    let want: Vec<u32> = (0..30).map(|i| 42 + 100 + i % 5).collect();
    for (uses_barrier, mode) in [
        (false, BarrierMode::Fibers),
        (true, BarrierMode::Fibers),
        (true, BarrierMode::Threads),
    ] {
        e.uses_barrier = uses_barrier;
        let lowered = module(&cx, &format!("{BUILTINS}{MEMORY_IMAGES}"), vec![e.clone()]);
        let opts = RunOptions {
            barrier_mode: mode,
            ..options(2)
        };
        let out = run_lowered(&lowered, &job, &opts).unwrap();
        let got = u32s(&out.binding(0, 0).unwrap().bytes);
        // With concurrent invocations the counter order varies; the multiset does not.
        let mut sorted = got.clone();
        for c in sorted.chunks_mut(5) {
            c.sort();
        }
        assert_eq!(sorted, want, "barrier {uses_barrier}, {mode:?}");
    }
}

const KERNEL: &str = r#"
define void @"spvkit.entry.k"(ptr %ctx) {
  %gid = load i64, ptr %ctx
  %lid = call i64 @field(ptr %ctx, i64 24)
  %wd = call i64 @field(ptr %ctx, i64 176)
  %gs = call i64 @field(ptr %ctx, i64 120)
  %argsp = getelementptr i8, ptr %ctx, i64 216
  %args = load ptr, ptr %argsp
  %a0 = load ptr, ptr %args
  %buf = load ptr, ptr %a0
  %a1pp = getelementptr ptr, ptr %args, i64 1
  %a1 = load ptr, ptr %a1pp
  %k = load i32, ptr %a1
  %a2pp = getelementptr ptr, ptr %args, i64 2
  %a2 = load ptr, ptr %a2pp
  %loc = load ptr, ptr %a2
  %a3pp = getelementptr ptr, ptr %args, i64 3
  %s = load ptr, ptr %a3pp
  %sbp = getelementptr i8, ptr %s, i64 1
  %sb = load i32, ptr %sbp, align 1
  %lslot = getelementptr i32, ptr %loc, i64 %lid
  store i32 %k, ptr %lslot
  %k2 = load i32, ptr %lslot
  %ep = getelementptr float, ptr %buf, i64 %gid
  %e = load float, ptr %ep
  %kf = sitofp i32 %k2 to float
  %sbf = uitofp i32 %sb to float
  %m = fmul float %e, %kf
  %r0 = fadd float %m, %sbf
  %wgs = mul i64 %wd, 1000
  %extra = add i64 %wgs, %gs
  %xf = uitofp i64 %extra to float
  %r = fadd float %r0, %xf
  store float %r, ptr %ep
  ret void
}
"#;

fn kernel_entry() -> LoweredEntry {
    LoweredEntry {
        name: "k".into(),
        symbol: "spvkit.entry.k".into(),
        execution_model: ExecutionModel::Kernel,
        local_size: None,
        resources: Vec::new(),
        push_constant_size: None,
        workgroup_memory: MemoryBlock::default(),
        private_memory: MemoryBlock::default(),
        kernel_params: vec![
            KernelParam::Buffer {
                storage_class: StorageClass::CrossWorkgroup,
            },
            KernelParam::Scalar { size_bytes: 4 },
            KernelParam::Local,
            KernelParam::Struct { size_bytes: 5 },
        ],
        uses_barrier: false,
    }
}

#[test]
fn kernel_arguments_offsets_and_work_dim() {
    let cx = Context::create();
    let lowered = module(&cx, &format!("{BUILTINS}{KERNEL}"), vec![kernel_entry()]);
    let job = Job::from_json(
        r#"{"dispatch": [2], "local_size": [4], "global_offset": [2],
            "args": [{"kind": "buffer", "layout": ["f32"], "data": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]},
                     {"kind": "scalar", "type": "i32", "value": -3},
                     {"kind": "local", "size_bytes": 16},
                     {"kind": "struct", "layout": ["u8", "u32"], "value": [9, 7]}]}"#,
    )
    .unwrap();
    let out = run_lowered(&lowered, &job, &options(2)).unwrap();
    let buf = out.arg(0).unwrap();
    let got: Vec<f32> = buf
        .bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let want: Vec<f32> = (0..12)
        .map(|i| {
            let x = i as f32;
            if (2..10).contains(&i) {
                x * -3.0 + 7.0 + 1008.0
            } else {
                x
            }
        })
        .collect();
    assert_eq!(got, want);
    assert!(out
        .to_json()
        .contains("{\"arg\": 0, \"data\": [0.0, 1.0, 1009.0"));
}

#[test]
fn mismatches_between_job_and_entry_are_errors() {
    let cx = Context::create();
    let run = |entry: LoweredEntry, ir: &str, job: &str| {
        let lowered = module(&cx, &format!("{BUILTINS}{ir}"), vec![entry]);
        run_lowered(&lowered, &Job::from_json(job).unwrap(), &options(1)).unwrap_err()
    };
    let err = run(
        shader("main", [8, 1, 1], &[(0, 0), (0, 1)]),
        SAXPY_PC,
        r#"{"dispatch": [1], "buffers": [{"binding": 0, "layout": ["f32"], "size_words": 8}]}"#,
    );
    assert!(
        matches!(&err, RunError::Interface(m) if m.contains("set 0 binding 1") && m.contains("no buffer")),
        "{err}"
    );
    let mut e = shader("main", [8, 1, 1], &[(0, 0), (0, 1)]);
    e.push_constant_size = Some(8);
    let err = run(
        e,
        SAXPY_PC,
        r#"{"dispatch": [1], "buffers": [{"binding": 0, "layout": ["f32"], "size_words": 8},
                                          {"binding": 1, "layout": ["f32"], "size_words": 8}]}"#,
    );
    assert!(err.to_string().contains("push-constant"), "{err}");
    let err = run(
        shader("main", [8, 1, 1], &[]),
        SAXPY_PC,
        r#"{"entry": "other", "dispatch": [1]}"#,
    );
    assert!(
        err.to_string().contains("no entry point \"other\""),
        "{err}"
    );
    let mut e = shader("main", [8, 1, 1], &[(0, 0)]);
    e.resources[0].size_bytes = Some(64);
    let err = run(
        e,
        SAXPY_PC,
        r#"{"dispatch": [1], "buffers": [{"binding": 0, "layout": ["f32"], "size_words": 8}]}"#,
    );
    assert!(err.to_string().contains("needs 64"), "{err}");
    let err = run(
        kernel_entry(),
        KERNEL,
        r#"{"dispatch": [1], "local_size": [1], "args": [{"kind": "local", "size_bytes": 4},
            {"kind": "scalar", "type": "i32", "value": 1}, {"kind": "local", "size_bytes": 4},
            {"kind": "struct", "layout": ["u8"], "value": [1]}]}"#,
    );
    assert!(
        err.to_string()
            .contains("args[0]: kernel \"k\" takes a buffer"),
        "{err}"
    );
    let err = run(kernel_entry(), KERNEL, r#"{"dispatch": [1], "args": []}"#);
    assert!(err.to_string().contains("local_size"), "{err}");
}
