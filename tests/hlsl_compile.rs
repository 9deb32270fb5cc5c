//! The HLSL frontend end to end: shaders covering each feature compile, pass spirv-val in their
//! environment (with `--relax-block-layout` for Vulkan 1.0, as DXC's relaxed layouts need), and,
//! for compute shaders, run on lavapipe with their buffers checked against values computed here
//! in Rust. Invalid programs report their errors with `file:line:col`.
#![cfg(all(feature = "hlsl", feature = "cli"))]

#[cfg(feature = "run")]
#[path = "support/compute.rs"]
mod compute;
#[cfg(feature = "run")]
#[path = "support/vulkan.rs"]
mod vulkan;

use spvkit::hlsl::{compile_source, LanguageVersion, Options, Profile};
use spvkit::target_env::TargetEnv;
use std::path::PathBuf;
use std::process::Command;

fn options(profile: &str, env: TargetEnv, hv: LanguageVersion) -> Options {
    let mut o = Options::new("main", profile.parse::<Profile>().expect("profile"));
    o.target_env = env;
    o.version = hv;
    o
}

fn compile_with(name: &str, src: &str, o: &Options) -> Vec<u32> {
    match compile_source(&format!("{name}.hlsl"), src, o) {
        Ok(c) => c.words,
        Err(e) => panic!("{name} does not compile:\n{}", e.rendered),
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("hlsl-compile");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir.join(format!("{name}.spv"))
}

fn spirv_val(name: &str, words: &[u32], env: TargetEnv) {
    let path = scratch(name);
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&path, bytes).expect("write module");
    let mut cmd = Command::new("spirv-val");
    if env == TargetEnv::Vulkan1_0 {
        cmd.arg("--relax-block-layout");
    }
    let out = cmd
        .arg("--target-env")
        .arg(env.to_string())
        .arg(&path)
        .output()
        .expect("spirv-val runs (apt-get install spirv-tools)");
    assert!(
        out.status.success(),
        "{name}: spirv-val --target-env {env}:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Compiles and validates; returns the module.
fn check(name: &str, src: &str, profile: &str) -> Vec<u32> {
    check_env(
        name,
        src,
        profile,
        TargetEnv::Vulkan1_0,
        LanguageVersion::V2021,
    )
}

fn check_env(
    name: &str,
    src: &str,
    profile: &str,
    env: TargetEnv,
    hv: LanguageVersion,
) -> Vec<u32> {
    let words = compile_with(name, src, &options(profile, env, hv));
    spirv_val(name, &words, env);
    words
}

/// Compiles without legalization (`-fcgl`) and validates: the module as code generation
/// makes it, for tests of what it emits before inlining (it must be valid all the same).
fn check_unlegalized(name: &str, src: &str, profile: &str) -> Vec<u32> {
    check(name, src, profile);
    let mut o = options(profile, TargetEnv::Vulkan1_0, LanguageVersion::V2021);
    o.legalize = false;
    let words = compile_with(name, src, &o);
    spirv_val(name, &words, TargetEnv::Vulkan1_0);
    words
}

fn disassemble(words: &[u32]) -> String {
    spvkit::text::disassemble_to_string(words, &spvkit::text::DisassembleOptions::default())
        .expect("disassembles")
}

/// The rendered errors of a program that must not compile.
fn errors(src: &str, profile: &str) -> String {
    match compile_source(
        "bad.hlsl",
        src,
        &options(profile, TargetEnv::Vulkan1_0, LanguageVersion::V2021),
    ) {
        Ok(_) => panic!("compiled, but should not:\n{src}"),
        Err(e) => e.rendered,
    }
}

#[cfg(feature = "run")]
mod run {
    use spvkit::run::output::BufferId;
    use spvkit::run::{Job, RunOutput};
    use std::sync::OnceLock;

    fn device() -> &'static std::sync::Mutex<super::vulkan::Vulkan> {
        static VK: OnceLock<std::sync::Mutex<super::vulkan::Vulkan>> = OnceLock::new();
        VK.get_or_init(|| {
            std::sync::Mutex::new(
                super::vulkan::Vulkan::new()
                    .expect("a Vulkan device (apt-get install mesa-vulkan-drivers)"),
            )
        })
    }

    /// Runs a compute module on lavapipe with `job` (JSON).
    pub fn lavapipe(words: &[u32], job: &str) -> RunOutput {
        let job = Job::from_json(job).expect("job");
        let vk = device().lock().unwrap_or_else(|e| e.into_inner());
        vk.run(words, &job).expect("runs on lavapipe")
    }

    /// Runs a compute module that uses 16-bit arithmetic and storage on lavapipe: a device
    /// without those features fails the test instead of skipping it.
    pub fn lavapipe_16bit(words: &[u32], job: &str) -> RunOutput {
        let missing = device()
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .missing_16bit_features();
        assert!(
            missing.is_empty(),
            "the Vulkan device lacks {missing:?}, which this 16-bit test needs"
        );
        lavapipe(words, job)
    }

    /// Runs the module under `spvkit run` (the in-process runner).
    pub fn spvkit(words: &[u32], job: &str) -> RunOutput {
        let job = Job::from_json(job).expect("job");
        spvkit::run::run_spirv(words, &job, &Default::default()).expect("runs under spvkit run")
    }

    /// The bytes of buffer `binding` (set 0).
    pub fn bytes(out: &RunOutput, binding: u32) -> Vec<u8> {
        out.buffers
            .iter()
            .find(|b| b.id == BufferId::Binding { set: 0, binding })
            .map(|b| b.data.bytes.clone())
            .expect("the buffer is in the output")
    }

    /// The 32-bit words of buffer `binding` (set 0).
    pub fn words(out: &RunOutput, binding: u32) -> Vec<u32> {
        bytes(out, binding)
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    }

    /// Buffer `binding` as floats.
    pub fn floats(out: &RunOutput, binding: u32) -> Vec<f32> {
        words(out, binding)
            .into_iter()
            .map(f32::from_bits)
            .collect()
    }

    /// Buffer `binding` as signed integers.
    pub fn ints(out: &RunOutput, binding: u32) -> Vec<i32> {
        words(out, binding).into_iter().map(|w| w as i32).collect()
    }
}

const COMPUTE_BASICS: &str = r#"
RWStructuredBuffer<float> Out : register(u0);
StructuredBuffer<float> In : register(t1);

float twice(float x) { return x * 2; }
void addto(inout float a, float b) { a += b; }
void split(float v, out int whole, out float rest) { whole = (int)v; rest = v - whole; }

[numthreads(8, 1, 1)]
void main(uint3 tid : SV_DispatchThreadID) {
    float v = In[tid.x];
    float acc = 0;
    for (int i = 0; i < 4; i++) {
        if (i % 2 == 0) acc += v; else acc -= 1.0;
    }
    addto(acc, twice(v));
    uint k = tid.x + 16;
    while (k > 3) { k = k >> 1; }
    int w; float r;
    split(v, w, r);
    Out[tid.x] = acc + k + w * 100 + r;
}
"#;

#[cfg(feature = "run")]
fn compute_basics_expected(v: f32, x: u32) -> f32 {
    let mut acc = 0.0f32;
    for i in 0..4 {
        if i % 2 == 0 {
            acc += v
        } else {
            acc -= 1.0
        }
    }
    acc += v * 2.0;
    let mut k = x + 16;
    while k > 3 {
        k >>= 1;
    }
    let w = v as i32;
    let r = v - w as f32;
    acc + k as f32 + (w * 100) as f32 + r
}

#[test]
fn compute_functions_loops_and_out_parameters() {
    let words = check("compute_basics", COMPUTE_BASICS, "cs_6_0");
    let dis = disassemble(&words);
    for want in [
        "OpEntryPoint GLCompute %main \"main\"",
        "OpName %src_main \"src.main\"",
        "OpLoopMerge",
        "OpSelectionMerge",
        "LocalSize 8 1 1",
        "BufferBlock",
        "NonWritable",
    ] {
        assert!(dis.contains(want), "missing {want}:\n{dis}");
    }
    #[cfg(feature = "run")]
    {
        let input: Vec<f32> = (0..16).map(|i| i as f32 * 1.25 - 4.0).collect();
        let job = format!(
            r#"{{"dispatch": [2, 1, 1], "buffers": [
                {{"binding": 1, "layout": ["f32"], "data": {input:?}}},
                {{"binding": 0, "layout": ["f32"], "size_words": 16}}]}}"#
        );
        let out = run::lavapipe(&words, &job);
        let got = run::floats(&out, 0);
        for (x, v) in input.iter().enumerate() {
            assert_eq!(got[x], compute_basics_expected(*v, x as u32), "element {x}");
        }
    }
}

const INTEGER_OPS: &str = r#"
RWStructuredBuffer<int> Out : register(u0);
RWStructuredBuffer<uint> UOut : register(u1);

[numthreads(1, 1, 1)]
void main() {
    int a = -7, b = 3;
    uint u = 0xF0000001u;
    Out[0] = a % b;          // OpSRem: -1
    Out[1] = a / b;          // -2
    Out[2] = a >> 1;         // arithmetic: -4
    Out[3] = 1 << 33;        // shift masked to 5 bits: 2
    Out[4] = ~a & 0xFF;
    int c = 5;
    Out[5] = c++ + ++c;      // 5 + 7
    Out[6] = c--;            // 7
    c *= 3; c -= 1; c <<= 2; c |= 1; c ^= 3;
    Out[7] = c;
    UOut[0] = u >> 4;        // logical
    UOut[1] = u % 10u;       // OpUMod
    UOut[2] = (uint)a;
    UOut[3] = countbits(u) + reversebits(1u) + firstbithigh(u) + firstbitlow(8u);
}
"#;

#[test]
fn integer_operators_follow_dxc() {
    let words = check("integer_ops", INTEGER_OPS, "cs_6_0");
    let dis = disassemble(&words);
    assert!(
        dis.contains("OpSRem") && dis.contains("OpUMod") && dis.contains("OpShiftRightArithmetic")
    );
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1, 1, 1], "buffers": [
            {"binding": 0, "layout": ["i32"], "size_words": 8},
            {"binding": 1, "layout": ["u32"], "size_words": 4}]}"#;
        let out = run::lavapipe(&words, job);
        let mut c: i32 = 7;
        c -= 1;
        c = ((c * 3 - 1) << 2 | 1) ^ 3;
        assert_eq!(
            run::ints(&out, 0),
            vec![-1, -2, -4, 2, !(-7) & 0xFF, 12, 7, c]
        );
        let u: u32 = 0xF000_0001;
        let bits = u.count_ones() + 1u32.reverse_bits() + (31 - u.leading_zeros()) + 3;
        assert_eq!(
            run::words(&out, 1),
            vec![u >> 4, u % 10, (-7i32) as u32, bits]
        );
    }
}

const STRUCTS_ARRAYS_MATRICES: &str = r#"
struct Particle { float3 pos; float mass; int id[2]; };
typedef float4 color_t;
RWStructuredBuffer<Particle> Parts : register(u0);
RWStructuredBuffer<float> Out : register(u1);
static const int N = 4;
static float table[N] = { 1, 2, 3, 4 };

[numthreads(1, 1, 1)]
void main() {
    Particle p = Parts[0];
    p.pos.zx = float2(10, 20);
    p.id[1] = p.id[0] * 2;
    p.mass *= 2;
    Parts[1] = p;
    float sum = 0;
    [unroll] for (int i = 0; i < N; ++i) sum += table[i];
    float2x3 m = float2x3(1, 2, 3, 4, 5, 6);
    float3 v = float3(1, 0, -1);
    float2 mv = mul(m, v);              // (1-3, 4-6)
    float3 vm = mul(float2(1, 1), m);   // (5, 7, 9)
    float2x2 mm = mul(m, transpose(m)); // [[14, 32], [32, 77]]
    color_t c = color_t(1, 2, 3, 4);
    vector<float, 2> hv = c.wy;
    matrix<float, 2, 2> h = mm * 2;
    Out[0] = sum; Out[1] = mv.x; Out[2] = mv.y; Out[3] = vm.z;
    Out[4] = mm[0][1]; Out[5] = mm._m11; Out[6] = hv.x + hv.y; Out[7] = h[1][0];
    float2x2 cw = float2x2(1, 2, 3, 4) * float2x2(2, 2, 2, 2);
    Out[8] = cw._22 + determinant(float2x2(1, 2, 3, 4));
}
"#;

#[test]
fn structs_arrays_and_matrices() {
    let words = check("structs_arrays_matrices", STRUCTS_ARRAYS_MATRICES, "cs_6_0");
    let dis = disassemble(&words);
    assert!(dis.contains("OpMatrixTimesVector") || dis.contains("OpVectorTimesMatrix"));
    assert!(dis.contains("OpMatrixTimesMatrix") && dis.contains("OpMatrixTimesScalar"));
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1, 1, 1], "buffers": [
            {"binding": 0, "layout": ["f32", "f32", "f32", "f32", "i32", "i32", "u32", "u32"],
             "data": [1, 2, 3, 5, 21, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]},
            {"binding": 1, "layout": ["f32"], "size_words": 9}]}"#;
        let out = run::lavapipe(&words, job);
        let parts = run::words(&out, 0);
        assert_eq!(f32::from_bits(parts[8]), 20.0);
        assert_eq!(f32::from_bits(parts[10]), 10.0);
        assert_eq!(f32::from_bits(parts[11]), 10.0);
        assert_eq!(parts[13] as i32, 42);
        assert_eq!(
            run::floats(&out, 1),
            vec![10.0, -2.0, -2.0, 9.0, 32.0, 77.0, 6.0, 64.0, 8.0 - 2.0]
        );
    }
}

const RESOURCES_AND_SYNC: &str = r#"
cbuffer Params : register(b0) { float scale; float3 offset; row_major float2x2 rm; };
struct Light { float4 color; float intensity; };
ConstantBuffer<Light> light : register(b1);
float loose;                          // $Globals
uint looseCount;
RWByteAddressBuffer Raw : register(u2);
RWStructuredBuffer<uint> Counters : register(u3);
groupshared uint shared_sum;
groupshared float tile[64];
[[vk::binding(7, 1)]] RWStructuredBuffer<float> Bound;
[[vk::constant_id(3)]] const int SPEC = 5;

[numthreads(64, 1, 1)]
void main(uint gi : SV_GroupIndex, uint3 gid : SV_GroupID, uint3 lid : SV_GroupThreadID) {
    if (gi == 0) shared_sum = 0;
    GroupMemoryBarrierWithGroupSync();
    tile[gi] = scale * gi + offset.y + light.intensity + loose + rm._12;
    InterlockedAdd(shared_sum, gi);
    GroupMemoryBarrierWithGroupSync();
    uint prev;
    InterlockedMax(Counters[0], gi, prev);
    InterlockedCompareExchange(Counters[1], 0u, gid.x + 1, prev);
    InterlockedOr(Counters[2], 1u << (gi & 31));
    Raw.InterlockedAdd(16, 1u);
    if (gi == 0) {
        uint4 q = Raw.Load4(0);
        Raw.Store2(8, q.xy + uint2(shared_sum, looseCount));
        Raw.Store(20, Raw.Load(4) + (uint)SPEC);
        Raw.Store3(24, Raw.Load3(0));
    }
    uint n, stride;
    Counters.GetDimensions(n, stride);
    Bound[gi] = tile[63 - gi] + n + lid.x;
    AllMemoryBarrier();
    DeviceMemoryBarrierWithGroupSync();
}
"#;

#[test]
fn buffers_groupshared_atomics_barriers_bindings() {
    for env in [
        TargetEnv::Vulkan1_0,
        TargetEnv::Vulkan1_1,
        TargetEnv::Vulkan1_2,
        TargetEnv::Vulkan1_3,
    ] {
        let words = check_env(
            "resources_sync",
            RESOURCES_AND_SYNC,
            "cs_6_0",
            env,
            LanguageVersion::V2021,
        );
        let dis = disassemble(&words);
        for want in [
            "OpName %type_Params \"type.Params\"",
            "OpName %type_ConstantBuffer_Light \"type.ConstantBuffer.Light\"",
            "OpName %_Globals \"$Globals\"",
            "OpDecorate %Bound DescriptorSet 1",
            "OpDecorate %Bound Binding 7",
            "OpDecorate %SPEC SpecId 3",
            "OpControlBarrier",
            "OpAtomicIAdd",
            "OpAtomicUMax",
            "OpAtomicCompareExchange",
            "Workgroup",
            "ColMajor",
        ] {
            assert!(dis.contains(want), "{env}: missing {want}:\n{dis}");
        }
        let storage_buffer = matches!(env, TargetEnv::Vulkan1_2 | TargetEnv::Vulkan1_3);
        assert_eq!(
            dis.contains("OpTypePointer StorageBuffer"),
            storage_buffer,
            "{env}"
        );
        assert_eq!(dis.contains("BufferBlock"), !storage_buffer, "{env}");
    }
}

const PUSH_AND_SWITCH: &str = r#"
struct PC { float gain; uint mode; };
[[vk::push_constant]] PC pc;
RWStructuredBuffer<float> Out : register(u0);
int pick(int m) {
    int r = 0;
    switch (m) {
    case 0: r = 10; break;
    case 1:
    case 2: r = 20;
    case 3: r += 1; break;
    default: r = -1; break;
    }
    return r;
}
[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    int x = 0;
    do { x += pick((int)id.x); if (x > 100) break; } while (x < 0);
    Out[id.x] = x * pc.gain + pc.mode;
}
"#;

#[test]
fn push_constants_and_switch() {
    let words = check("push_switch", PUSH_AND_SWITCH, "cs_6_0");
    let dis = disassemble(&words);
    assert!(
        dis.contains("OpSwitch") && dis.contains("PushConstant"),
        "{dis}"
    );
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1, 1, 1], "push_constants": {"layout": ["f32", "u32"], "data": [0.5, 3]},
            "buffers": [{"binding": 0, "layout": ["f32"], "size_words": 4}]}"#;
        let out = run::lavapipe(&words, job);
        assert_eq!(run::floats(&out, 0), vec![8.0, 13.5, 13.5, 3.5]);
    }
}

const SHORT_CIRCUIT: &str = r#"
RWStructuredBuffer<int> Out : register(u0);
static int calls = 0;
bool touch(bool v) { calls++; return v; }
[numthreads(1, 1, 1)]
void main() {
    bool a = touch(false) && touch(true);
    bool b = touch(true) || touch(false);
    int c = touch(true) ? 1 : (touch(false) ? 2 : 3);
    bool2 v = and(bool2(true, false), bool2(true, true));
    Out[0] = calls;
    Out[1] = a + b * 2 + c * 4 + v.x * 8 + v.y * 16;
}
"#;

#[test]
fn short_circuit_in_2021_but_not_in_2018() {
    let w21 = check_env(
        "short_2021",
        SHORT_CIRCUIT,
        "cs_6_0",
        TargetEnv::Vulkan1_0,
        LanguageVersion::V2021,
    );
    let w18 = check_env(
        "short_2018",
        SHORT_CIRCUIT,
        "cs_6_0",
        TargetEnv::Vulkan1_0,
        LanguageVersion::V2018,
    );
    assert!(disassemble(&w21).contains("OpPhi"));
    assert!(disassemble(&w18).contains("OpSelect"));
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1, 1, 1], "buffers": [{"binding": 0, "layout": ["i32"], "size_words": 2}]}"#;
        assert_eq!(run::ints(&run::lavapipe(&w21, job), 0), vec![3, 2 + 4 + 8]);
        assert_eq!(run::ints(&run::lavapipe(&w18, job), 0), vec![6, 2 + 4 + 8]);
    }
}

const VERTEX: &str = r#"
cbuffer Camera : register(b0) { float4x4 viewProj; row_major float4x4 world; };
struct VSIn { float3 pos : POSITION; float3 normal : NORMAL; float2 uv : TEXCOORD0; uint tag : TAG; };
struct VSOut {
    float4 pos : SV_Position;
    float2 uv : TEXCOORD0;
    nointerpolation uint tag : TAG;
    noperspective float3 n : NORMAL;
    centroid float depth : DEPTH;
};
VSOut main(VSIn v, uint vid : SV_VertexID, uint iid : SV_InstanceID) {
    VSOut o;
    float4 wp = mul(float4(v.pos, 1), world);
    o.pos = mul(viewProj, wp);
    o.uv = v.uv + float2(vid, iid) * 0.001;
    o.tag = v.tag;
    o.n = normalize(v.normal);
    o.depth = o.pos.z / o.pos.w;
    return o;
}
"#;

#[test]
fn vertex_shader_interface() {
    let words = check("vertex", VERTEX, "vs_6_0");
    let dis = disassemble(&words);
    for want in [
        "OpEntryPoint Vertex %main \"main\"",
        "OpName %in_var_POSITION \"in.var.POSITION\"",
        "OpName %out_var_TEXCOORD0 \"out.var.TEXCOORD0\"",
        "OpDecorate %gl_Position BuiltIn Position",
        "OpDecorate %gl_VertexIndex BuiltIn VertexIndex",
        "OpDecorate %gl_InstanceIndex BuiltIn InstanceIndex",
        "OpDecorate %in_var_POSITION Location 0",
        "OpDecorate %in_var_TAG Location 3",
        "OpDecorate %out_var_TAG Flat",
        "OpDecorate %out_var_NORMAL NoPerspective",
        "OpDecorate %out_var_DEPTH Centroid",
        "RowMajor",
        "ColMajor",
    ] {
        assert!(dis.contains(want), "missing {want}:\n{dis}");
    }
}

const PIXEL: &str = r#"
Texture2D<float4> Albedo : register(t0);
Texture2D Plain : register(t3);
TextureCube<float4> Env : register(t1);
Texture3D<float> Volume : register(t2);
Texture1D<float2> Ramp : register(t4);
Buffer<float4> Lut : register(t5);
RWTexture2D<float4> Debug : register(u0);
RWBuffer<uint> Hits : register(u1);
SamplerState Linear : register(s0);
struct PSIn { float4 pos : SV_Position; float2 uv : TEXCOORD0; sample float3 dir : DIR; };
struct PSOut { float4 color : SV_Target0; float4 extra : SV_Target2; float depth : SV_Depth; };
PSOut main(PSIn i, bool front : SV_IsFrontFace) {
    PSOut o;
    float4 c = Albedo.Sample(Linear, i.uv);
    c += Env.SampleLevel(Linear, i.dir, 2.0);
    c.x += Volume.SampleLevel(Linear, i.dir, 0);
    c.yz += Ramp.Sample(Linear, i.uv.x);
    c += Albedo.Load(int3(i.pos.xy, 0)) + Plain[int2(1, 2)] + Lut.Load(3) + Lut[4];
    uint w, h, levels;
    Albedo.GetDimensions(0, w, h, levels);
    uint dw, dh;
    Debug.GetDimensions(dw, dh);
    Debug[uint2(i.pos.xy)] = c;
    InterlockedAdd(Hits[0], 1);
    clip(c.w - 0.01);
    if (!front) discard;
    o.color = c * (w + h + levels + dw + dh);
    o.extra = Debug[uint2(0, 0)];
    o.depth = saturate(i.pos.z);
    return o;
}
"#;

#[test]
fn pixel_shader_textures_samplers_discard_depth() {
    for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2] {
        let words = check_env("pixel", PIXEL, "ps_6_0", env, LanguageVersion::V2021);
        let dis = disassemble(&words);
        for want in [
            "OpEntryPoint Fragment %main \"main\"",
            "OpExecutionMode %main OriginUpperLeft",
            "OpExecutionMode %main DepthReplacing",
            "OpDecorate %gl_FragCoord BuiltIn FragCoord",
            "OpDecorate %gl_FrontFacing BuiltIn FrontFacing",
            "OpDecorate %gl_FragDepth BuiltIn FragDepth",
            "OpDecorate %out_var_SV_Target2 Location 2",
            "OpDecorate %in_var_DIR Sample",
            "OpImageSampleImplicitLod",
            "OpImageSampleExplicitLod",
            "OpImageFetch",
            "OpImageWrite",
            "OpImageRead",
            "OpImageQuerySizeLod",
            "OpImageTexelPointer",
            "OpKill",
        ] {
            assert!(dis.contains(want), "{env}: missing {want}:\n{dis}");
        }
    }
}

#[test]
fn intrinsics_of_the_issue_compile_and_validate() {
    let src = r#"
RWStructuredBuffer<float4> Out : register(u0);
RWStructuredBuffer<int4> IOut : register(u1);
[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    float3 a = float3(id) + float3(0.5, -1.5, 2.0);
    float3 b = float3(1, 2, 3);
    float s = dot(a, b) + length(a) + distance(a, b);
    float3 c = cross(a, b) + normalize(b) + lerp(a, b, 0.25) + saturate(a) + clamp(a, -1, 1);
    c += min(a, b) + max(a, 1.0) + abs(a) + floor(a) + ceil(a) + frac(a) + round(a) + trunc(a);
    c += sqrt(abs(a)) + rsqrt(b) + pow(b, 2) + exp(a) + exp2(a) + log(b) + log2(b);
    c += sin(a) + cos(a) + tan(a) + asin(a / 10) + acos(a / 10) + atan(a) + atan2(a, b);
    c += fmod(a, b) + step(a, b) + smoothstep(0, 1, a) + reflect(a, b) + mad(a, b, a);
    int3 i = int3(a) ;
    int3 si = sign(a) + sign(i) + abs(i) + min(i, 2) + max(i, -2) + clamp(i, -1, 1) + mad(i, i, i);
    uint3 u = asuint(a) + countbits(uint3(id)) + reversebits(uint3(7, 8, 9)) + firstbithigh(uint3(id)) + firstbitlow(uint3(id));
    int di = dot(i, int3(1, 2, 3));
    bool ok = all(a > 0) || any(i == 0) || all(true);
    Out[id.x] = float4(c + asfloat(u & 0x3F800000u), s + di + ok);
    IOut[id.x] = int4(si + asint(b), firstbithigh(-5));
}
"#;
    let words = check("intrinsics", src, "cs_6_0");
    let dis = disassemble(&words);
    for want in [
        "OpDot",
        "Cross",
        "Length",
        "Normalize",
        "FMix",
        "FClamp",
        "SClamp",
        "NMin",
        "FMin",
        "SMin",
        "FMax",
        "SMax",
        "FAbs",
        "SAbs",
        "Floor",
        "Ceil",
        "Fract",
        "RoundEven",
        "Trunc",
        "Sqrt",
        "InverseSqrt",
        "Pow",
        "Exp2",
        "Log2",
        "Atan2",
        "OpFRem",
        "Step",
        "SmoothStep",
        "Reflect",
        "Fma",
        "FSign",
        "SSign",
        "OpBitCount",
        "OpBitReverse",
        "FindUMsb",
        "FindSMsb",
        "FindILsb",
        "OpAll",
        "OpAny",
        "OpBitcast",
    ] {
        if want == "NMin" {
            assert!(!dis.contains(want), "DXC uses FMin, not NMin");
            continue;
        }
        assert!(dis.contains(want), "missing {want}");
    }
}

/// Invalid programs: each error with its place and reason; several per run.
#[test]
fn invalid_programs_report_errors_with_places() {
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "[numthreads(1,1,1)] void main() { x = 1; }",
            "cs_6_0",
            &["bad.hlsl:1:35: error: use of undeclared identifier 'x'"],
        ),
        (
            "[numthreads(1,1,1)] void main() { float2 v = float3(1,2); }",
            "cs_6_0",
            &["bad.hlsl:1:46: error: 'float3' takes 3 components, 2 given"],
        ),
        (
            "int f(int a) { return f(a); }\n[numthreads(1,1,1)] void main() { f(1); }",
            "cs_6_0",
            &["bad.hlsl:1:23: error: recursive call to 'f'"],
        ),
        (
            "[numthreads(1,1,1)] void main() { const int c = 1; c = 2; }",
            "cs_6_0",
            &["error: cannot assign to a constant"],
        ),
        (
            "void main() { }",
            "cs_6_0",
            &["error: compute entry point needs a [numthreads(x, y, z)] attribute"],
        ),
        (
            "[numthreads(1,1,1)] void other() { }",
            "cs_6_0",
            &["error: missing entry point definition 'main'"],
        ),
        (
            "int f(int a, int b) { return a; }\n[numthreads(1,1,1)] void main() { f(1); }",
            "cs_6_0",
            &["bad.hlsl:2:35: error: no overload of 'f' takes 1 arguments"],
        ),
        (
            "[numthreads(1,1,1)] void main() { float4 v; v.q = 1; }",
            "cs_6_0",
            &["error: invalid swizzle 'q'"],
        ),
        (
            "[numthreads(1,1,1)] void main() { Foo f; }",
            "cs_6_0",
            &["bad.hlsl:1:35: error: unknown type name 'Foo'"],
        ),
        (
            "[numthreads(1,1,1)] void main() { int a[2]; a[5] = 1; }",
            "cs_6_0",
            &["error: index 5 is out of bounds"],
        ),
        (
            "[numthreads(1,1,1)] void main() { break; }",
            "cs_6_0",
            &["error: 'break' outside a loop or switch"],
        ),
        (
            "[numthreads(1,1,1)] void main() { discard; }",
            "cs_6_0",
            &["error: 'discard' is only allowed in pixel shaders"],
        ),
        (
            "StructuredBuffer<float> B; [numthreads(1,1,1)] void main() { B[0] = 1; }",
            "cs_6_0",
            &["error: cannot assign to a constant or read-only value"],
        ),
        (
            "[numthreads(1,1,1)] void main() { int x = undefined1 + undefined2; }",
            "cs_6_0",
            &[
                "use of undeclared identifier 'undefined1'",
                "use of undeclared identifier 'undefined2'",
            ],
        ),
        (
            "[numthreads(1,1,1)] void main() { float x = lerp(1, 2); }",
            "cs_6_0",
            &["error: wrong number of arguments to 'lerp'"],
        ),
        (
            "float4 main(float4 p : SV_Position) : SV_Target { return WaveReadLaneFirst(p); }",
            "ps_6_0",
            &["bad.hlsl:1:58: error: Vulkan 1.1 is required for Wave Operation"],
        ),
        (
            "[numthreads(1,1,1)] void main() { switch (1) { case 1: break; case 1: break; } }",
            "cs_6_0",
            &["error: duplicate case value 1"],
        ),
        (
            "[numthreads(1,1,1)] void main(float x) { }",
            "cs_6_0",
            &["error: an entry point parameter needs a semantic"],
        ),
        (
            "[numthreads(1,1,1)] void main() { int a; int a; }",
            "cs_6_0",
            &["error: redefinition of 'a'"],
        ),
        (
            "[numthreads(1,1,1)] void main() { float3 v; v.xx = float2(1, 2); }",
            "cs_6_0",
            &["error: a swizzle with a repeated component cannot be assigned"],
        ),
    ];
    let mut failures = Vec::new();
    for (src, profile, wants) in cases {
        let rendered = errors(src, profile);
        for want in *wants {
            if !rendered.contains(want) {
                failures.push(format!("{src}\nwant: {want}\ngot:\n{rendered}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

const BOOLS_IN_BUFFERS: &str = r#"
struct S { bool flag; float v; bool2 m; };
RWStructuredBuffer<S> Data : register(u0);
cbuffer C : register(b1) { bool enabled; bool3 mask; };
[numthreads(1, 1, 1)] void main() {
    S s = Data[0];
    s.flag = !s.flag && enabled;
    s.m = mask.xy;
    Data[1] = s;
    Data[2].flag = mask.z;
    if (Data[0].m.y) Data[3].v = 1;
}
"#;

#[test]
fn booleans_in_buffers_are_uints() {
    let words = check("bools_in_buffers", BOOLS_IN_BUFFERS, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1, 1, 1], "buffers": [
            {"binding": 0, "layout": ["u32", "f32", "u32", "u32"], "data": [0, 2.5, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]},
            {"binding": 1, "kind": "uniform", "layout": ["u32"], "data": [1, 1, 0, 1]}]}"#;
        let out = run::lavapipe(&words, job);
        let f = |x: f32| x.to_bits();
        assert_eq!(
            run::words(&out, 0),
            vec![
                0,
                f(2.5),
                0,
                1,
                1,
                f(2.5),
                1,
                0,
                1,
                0,
                0,
                0,
                0,
                f(1.0),
                0,
                0
            ]
        );
    }
    let _ = words;
}

#[test]
fn overloads_pick_the_closest_match_and_defaults_fill_in() {
    let src = r#"
RWStructuredBuffer<float> Out : register(u0);
float f(float x) { return 1; }
float f(int x) { return 2; }
float f(float2 x) { return 3; }
float g(float x, int y) { return 4; }
float g(int x, float y) { return 5; }
float h(float a, float b = 2, int c = 3) { return a + b * c; }
[numthreads(1, 1, 1)] void main() {
    Out[0] = f(1.0) + f(1) * 10 + f(float2(1, 2)) * 100;
    Out[1] = g(1.0, 2);
    Out[2] = h(1) + h(1, 1) * 10;
}
"#;
    let words = check("overloads", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1, 1, 1], "buffers": [{"binding": 0, "layout": ["f32"], "size_words": 3}]}"#;
        assert_eq!(
            run::floats(&run::lavapipe(&words, job), 0),
            vec![321.0, 4.0, 47.0]
        );
    }
    let _ = words;
    let bad = "float g(float x, int y) { return 4; }\nfloat g(int x, float y) { return 5; }\n[numthreads(1,1,1)] void main() { g(1, 2); }";
    assert!(errors(bad, "cs_6_0").contains("bad.hlsl:3:35: error: call to 'g' is ambiguous"));
}

#[test]
fn static_locals_keep_their_values() {
    let src = r#"
RWStructuredBuffer<int> Out : register(u0);
int next() { static int counter = 5; static float3 v; counter++; v.x += 1; return counter + (int)v.x; }
[numthreads(1, 1, 1)] void main() {
    static const int table[3] = { 1, 2, 3 };
    int a = next();
    int b = next();
    Out[0] = a * 100 + b + table[2];
}
"#;
    let words = check("static_locals", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1, 1, 1], "buffers": [{"binding": 0, "layout": ["i32"], "size_words": 1}]}"#;
        assert_eq!(run::ints(&run::lavapipe(&words, job), 0), vec![712]);
    }
    let _ = words;
}

#[test]
fn static_locals_with_runtime_initializers_run_them_once() {
    // DXC initializes such a local the first time control reaches it: 3 * 10 + 1, then + 1
    // without re-running the initializer; a constant initializer leaves no guard behind.
    let src = r#"
RWStructuredBuffer<uint> Out : register(u0);
uint bump(uint x) { static uint first = x * 10 + Out[2]; first += 1; return first; }
uint fixed() { static uint k = 7; return k++; }
[numthreads(1, 1, 1)] void main() {
    Out[0] = bump(3);
    Out[1] = bump(5);
    Out[3] = fixed() + fixed();
}
"#;
    let words = check("static_locals_runtime_init", src, "cs_6_0");
    let dis = disassemble(&words);
    assert_eq!(
        dis.matches("OpSelectionMerge").count(),
        1,
        "one guard, for the runtime initializer only:\n{dis}"
    );
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1, 1, 1], "buffers": [{"binding": 0, "layout": ["u32"], "data": [0, 0, 4, 0]}]}"#;
        assert_eq!(
            run::ints(&run::lavapipe(&words, job), 0),
            vec![35, 36, 4, 15]
        );
    }
}

#[test]
fn logical_not_of_a_matrix_is_component_wise() {
    let src = r#"
RWStructuredBuffer<uint> Out : register(u0);
[numthreads(1, 1, 1)] void main() {
    float2x3 m = float2x3(0, 1.5, 0, -2, 0, 0.25);
    int2x2 k = int2x2(Out[6], 0, 3, Out[7]);
    bool2x3 n = !m;
    bool2x2 j = !k;
    Out[0] = n._m00; Out[1] = n._m01; Out[2] = n._m12; Out[3] = n._m11;
    Out[4] = j._m00; Out[5] = j._m01; Out[6] = j._m10; Out[7] = j._m11;
}
"#;
    let words = check("not_matrix", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1, 1, 1], "buffers": [{"binding": 0, "layout": ["u32"], "data": [9, 9, 9, 9, 9, 9, 0, 5]}]}"#;
        assert_eq!(
            run::ints(&run::lavapipe(&words, job), 0),
            vec![1, 0, 0, 1, 1, 1, 0, 0]
        );
    }
}

#[test]
fn and_or_select_are_component_wise_in_every_version() {
    // HLSL 2021's replacements for vector `&&`, `||` and `?:`, which it short-circuits.
    let src = r#"
RWStructuredBuffer<int> Out : register(u0);
[numthreads(1, 1, 1)] void main() {
    int2 a = int2(Out[0], Out[1]);
    bool2 x = and(a, bool2(true, false));
    bool2 y = or(a > 5, false);
    int2 s = select(a > 1, a * 10, int2(-1, -2));
    float2x2 m = select(float2x2(1, 0, 0, 1), float2x2(2, 3, 4, 5), 7.0);
    Out[0] = x.x; Out[1] = x.y; Out[2] = y.x; Out[3] = y.y; Out[4] = s.x; Out[5] = s.y;
    Out[6] = (int)(m._m00 + m._m01 * 10 + m._m10 * 100 + m._m11 * 1000);
}
"#;
    for hv in [LanguageVersion::V2021, LanguageVersion::V2018] {
        let words = check_env("and_or_select", src, "cs_6_0", TargetEnv::Vulkan1_0, hv);
        #[cfg(feature = "run")]
        {
            let job = r#"{"dispatch": [1, 1, 1], "buffers": [{"binding": 0, "layout": ["i32"], "data": [3, 9, 0, 0, 0, 0, 0]}]}"#;
            assert_eq!(
                run::ints(&run::lavapipe(&words, job), 0),
                vec![1, 0, 0, 1, 30, 90, 2 + 70 + 700 + 5000],
                "{hv:?}"
            );
        }
        let _ = words;
    }
}

#[test]
fn arrays_of_one_by_n_matrices_index_each_element_as_a_matrix() {
    // `m[i][0][k]`: the array index, then the ignored row index of the 1xN element, then the
    // component; in locals, statics, cbuffer members, struct fields, parameters, groupshared.
    let src = r#"
struct S { float1x3 rows[2]; };
cbuffer C : register(b0) { float1x3 cm[2]; };
StructuredBuffer<S> In : register(t1);
RWStructuredBuffer<float> Out : register(u2);
static float1x2 sm[2] = { float1x2(1, 2), float1x2(3, 4) };
groupshared float1x2 gm[2];
float pick(float1x3 p[2], int i) { return p[i][0][2] + p[1]._m00; }
[numthreads(1, 1, 1)]
void main() {
    float1x3 m[2];
    m[0] = float1x3(1, 2, 3);
    m[1] = float1x3(4, 5, 6);
    m[1][0][2] += 1;
    m[0]._m01 = 9;
    gm[1][0][1] = 11;
    Out[0] = m[0][0][1]; Out[1] = m[1]._m02; Out[2] = m[1][0].z;
    Out[3] = cm[1][0][2]; Out[4] = cm[0]._m01;
    Out[5] = sm[1][0][0] + sm[0]._m01;
    Out[6] = In[0].rows[1][0][1];
    S s = In[0];
    Out[7] = s.rows[0]._m02;
    Out[8] = pick(m, 0);
    Out[9] = gm[1]._m01;
}
"#;
    let words = check("one_by_n_arrays", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1, 1, 1], "buffers": [
            {"binding": 0, "kind": "uniform", "layout": ["f32"], "data": [10, 20, 30, 0, 40, 50, 60, 0]},
            {"binding": 1, "layout": ["f32"], "data": [100, 200, 300, 0, 500, 600, 700, 0]},
            {"binding": 2, "layout": ["f32"], "size_words": 10}]}"#;
        let out = run::lavapipe(&words, job);
        assert_eq!(
            run::floats(&out, 2),
            vec![9.0, 7.0, 7.0, 60.0, 20.0, 5.0, 600.0, 300.0, 7.0, 11.0]
        );
    }
    let _ = words;
}

#[test]
fn constant_buffer_values_pass_as_their_struct() {
    let src = r#"
struct Light { float4 color; float intensity; };
ConstantBuffer<Light> light : register(b1);
RWStructuredBuffer<float> Out : register(u0);
float lum(Light l) { return l.color.y * l.intensity; }
[numthreads(1, 1, 1)] void main() {
    Light l = light;
    Out[0] = lum(light) + l.intensity + light.color.w;
}
"#;
    let words = check("constant_buffer_struct", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1, 1, 1], "buffers": [
            {"binding": 0, "layout": ["f32"], "size_words": 1},
            {"binding": 1, "kind": "uniform", "layout": ["f32"], "data": [1, 2, 3, 4, 0.5, 0, 0, 0]}]}"#;
        assert_eq!(run::floats(&run::lavapipe(&words, job), 0), vec![5.5]);
    }
    let _ = words;
}

#[test]
fn command_lines_take_dxc_flags() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("hlsl-cli");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let src = dir.join("k.hlsl");
    std::fs::write(&src, "RWStructuredBuffer<float> O;\n[numthreads(N, 1, 1)] void go(uint3 i : SV_DispatchThreadID) { O[i.x] = SCALE; }\n")
        .expect("write source");
    let out = dir.join("k.spv");
    let run = |exe: &str, pre: &[&str], args: &[&str]| {
        Command::new(exe)
            .args(pre)
            .args(args)
            .output()
            .expect("runs")
    };
    let flags = [
        "-T",
        "cs_6_0",
        "-E",
        "go",
        "-DN=4",
        "-D",
        "SCALE=2.5",
        "-HV",
        "2018",
        "-fspv-target-env=vulkan1.1",
        "-spirv",
    ];
    let mut args: Vec<&str> = vec![src.to_str().unwrap_or_default()];
    args.extend(flags);
    let text = run(env!("CARGO_BIN_EXE_hlsl2spirv"), &[], &args);
    assert!(
        text.status.success(),
        "{}",
        String::from_utf8_lossy(&text.stderr)
    );
    let text = String::from_utf8_lossy(&text.stdout).into_owned();
    assert!(
        text.contains("OpEntryPoint GLCompute %go \"go\"") && text.contains("LocalSize 4 1 1"),
        "{text}"
    );
    args.extend(["-Fo", out.to_str().unwrap_or_default()]);
    let bin = run(env!("CARGO_BIN_EXE_hlsl2spirv"), &[], &args);
    assert!(bin.status.success() && bin.stdout.is_empty());
    let words: Vec<u32> = std::fs::read(&out)
        .expect("output written")
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    spirv_val("cli", &words, TargetEnv::Vulkan1_1);
    let sub = run(
        env!("CARGO_BIN_EXE_spvkit"),
        &["hlsl"],
        &args[..args.len() - 2],
    );
    assert_eq!(String::from_utf8_lossy(&sub.stdout), text);
    // Errors: rendered on standard error, exit code 1.
    std::fs::write(&src, "[numthreads(1,1,1)] void go() { y = 1; }\n").expect("write source");
    let bad = run(env!("CARGO_BIN_EXE_hlsl2spirv"), &[], &args);
    assert_eq!(bad.status.code(), Some(1));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(
        err.contains("k.hlsl:1:33: error: use of undeclared identifier 'y'"),
        "{err}"
    );
    let usage = run(
        env!("CARGO_BIN_EXE_hlsl2spirv"),
        &[],
        &["k.hlsl", "-Tbogus"],
    );
    assert_eq!(usage.status.code(), Some(1));
}

#[test]
fn booleans_and_vertex_positions_cross_stages_as_dxc_passes_them() {
    let vs = "struct V { float4 p : SV_Position; bool2 f : FLAGS; };\nV main(float4 p : SV_Position, bool b : BOOLIN) { V o; o.p = p; o.f = bool2(b, !b); return o; }\n";
    let dis = disassemble(&check("bool_vs", vs, "vs_6_0"));
    assert!(
        dis.contains("OpDecorate %in_var_SV_Position Location 0"),
        "{dis}"
    );
    assert!(
        dis.contains("%_ptr_Output_v2uint = OpTypePointer Output %v2uint"),
        "{dis}"
    );
    let ps = "float4 main(float4 p : SV_Position, bool2 f : FLAGS) : SV_Target { return f.x ? p : 0; }\n";
    let dis = disassemble(&check("bool_ps", ps, "ps_6_0"));
    assert!(dis.contains("OpDecorate %in_var_FLAGS Flat"), "{dis}");
}

#[test]
fn texel_offsets_are_constant_offsets() {
    let src = r#"
Texture2D<float4> T : register(t0);
SamplerState S : register(s0);
float4 main(float4 p : SV_Position, float2 uv : UV) : SV_Target {
    return T.Sample(S, uv, int2(1, -1)) + T.SampleLevel(S, uv, 0, int2(0, 2)) + T.Load(int3(p.xy, 0), int2(1, 1));
}
"#;
    let dis = disassemble(&check("offsets", src, "ps_6_0"));
    assert_eq!(dis.matches("ConstOffset").count(), 3, "{dis}");
    let bad = "Texture2D T; SamplerState S;\nfloat4 main(float2 uv : UV, int k : K) : SV_Target { return T.Sample(S, uv, int2(k, 0)); }";
    assert!(errors(bad, "ps_6_0").contains(
        "bad.hlsl:2:77: error: a texel offset outside a gather must be a constant, and this one \
         is not one even after inlining, unrolling [unroll] loops and folding"
    ));
    // A fetch's offset must be a constant before legalization, as in DXC.
    let fetch = "Texture2D T;\nfloat4 main(float4 p : SV_Position) : SV_Target { return T.Load(int3(0, 0, 0), int2(p.xy)); }";
    assert!(errors(fetch, "ps_6_0").contains(
        "bad.hlsl:2:80: error: Offsets to texture access operations must be immediate values"
    ));
}

/// A sample's offset may be a value that legalization makes constant, as DXC allows: a loop
/// counter of an `[unroll]` loop, a parameter of an inlined function given constants. Without
/// legalization (`-fcgl`) it stays a variable `Offset`, which only spirv-val's
/// `--before-hlsl-legalization` accepts.
#[test]
fn texel_offsets_that_legalization_makes_constant() {
    let src = r#"
Texture2D<float4> T : register(t0);
SamplerState S : register(s0);
float4 at(float2 uv, int2 o) { return T.SampleLevel(S, uv, 0, o); }
float4 main(float2 uv : UV) : SV_Target {
    float4 r = 0;
    [unroll] for (int i = 0; i < 3; ++i)
        r += T.Sample(S, uv, int2(i, -i));
    return r + at(uv, int2(5, 7));
}
"#;
    let dis = disassemble(&check("offsets_legalized", src, "ps_6_0"));
    assert_eq!(dis.matches("ConstOffset").count(), 4, "{dis}");
    assert!(
        !dis.contains("|Offset") && !dis.contains(" Offset "),
        "{dis}"
    );
    assert!(!dis.contains("ImageGatherExtended"), "{dis}");
    for (x, y) in [(0, 0), (1, -1), (2, -2), (5, 7)] {
        let name = |v: i32| {
            if v < 0 {
                format!("%int_n{}", -v)
            } else {
                format!("%int_{v}")
            }
        };
        let pair = format!("OpConstantComposite %v2int {} {}", name(x), name(y));
        assert!(dis.contains(&pair), "no offset ({x}, {y}): {dis}");
    }
    let mut o = options("ps_6_0", TargetEnv::Vulkan1_0, LanguageVersion::V2021);
    o.legalize = false;
    let words = compile_with("offsets_fcgl", src, &o);
    let dis = disassemble(&words);
    assert!(dis.contains("Offset %"), "{dis}");
    let path = scratch("offsets_fcgl");
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&path, bytes).unwrap();
    let val = |extra: &[&str]| {
        Command::new("spirv-val")
            .args(extra)
            .arg(&path)
            .output()
            .expect("spirv-val runs")
            .status
            .success()
    };
    assert!(
        !val(&["--target-env", "vulkan1.0"]),
        "a variable Offset outside a gather is not Vulkan SPIR-V"
    );
    assert!(val(&[
        "--target-env",
        "vulkan1.0",
        "--before-hlsl-legalization"
    ]));
}

/// The ids decorated `RelaxedPrecision` in a disassembly, and the instruction defining each
/// (`OpLoad`, `OpIAdd`, ...; `OpVariable` for variables).
fn relaxed_ids(dis: &str) -> (Vec<String>, Vec<String>) {
    let ids: Vec<String> = dis
        .lines()
        .filter_map(|l| {
            let l = l.trim();
            let rest = l.strip_prefix("OpDecorate ")?;
            let (id, deco) = rest.split_once(' ')?;
            (deco == "RelaxedPrecision").then(|| id.to_owned())
        })
        .collect();
    let ops = ids
        .iter()
        .map(|id| {
            dis.lines()
                .find_map(|l| {
                    let (lhs, rhs) = l.trim().split_once(" = ")?;
                    (lhs == id).then(|| rhs.split(' ').next().unwrap_or("").to_owned())
                })
                .unwrap_or_default()
        })
        .collect();
    (ids, ops)
}

#[test]
fn min_precision_is_relaxed_where_dxc_decorates_it() {
    // DXC's CodeGenSPIRV test of min-precision decorations (struct members, locals, the
    // argument copy, loads, arithmetic on two min-precision operands, the call, the function
    // and its parameter), with a static, a groupshared and a `$Globals` member added.
    let src = r#"
struct S {
  int a;
  min12int b;
  min16int c;
  min16float d;
  min10float e;
  float f;
};
RWStructuredBuffer<float> Out : register(u0);
static min16float gs;
groupshared min16int shared_v;
min16float2 scale;
min16uint foo(min12int param) {
  return param + 1;
}
[numthreads(1, 1, 1)]
void main() {
  S s;
  s.a = 1; s.b = 2; s.c = 3; s.d = 4; s.e = 5; s.f = 6;
  int g = s.a + s.b;
  min16int h = s.b + s.c;
  min16float i = s.d + s.e;
  min16uint j = foo(s.b);
  shared_v = h;
  gs = -i;
  Out[0] = g + j + gs + shared_v + scale.y;
}
"#;
    let words = check("relaxed_precision", src, "cs_6_0");
    let dis = disassemble(&words);
    for k in 1..=4 {
        assert!(
            dis.contains(&format!("OpMemberDecorate %S {k} RelaxedPrecision")),
            "member {k}:\n{dis}"
        );
    }
    for k in [0, 5] {
        assert!(
            !dis.contains(&format!("OpMemberDecorate %S {k} RelaxedPrecision")),
            "member {k}:\n{dis}"
        );
    }
    assert!(
        dis.contains("OpMemberDecorate %type__Globals 0 RelaxedPrecision"),
        "{dis}"
    );
    let (ids, ops) = relaxed_ids(&dis);
    for v in [
        "%h",
        "%i",
        "%j",
        "%param_var_param",
        "%foo",
        "%param",
        "%gs",
        "%shared_v",
    ] {
        assert_eq!(ids.iter().filter(|id| *id == v).count(), 1, "{v}:\n{dis}");
    }
    for v in ["%g", "%s", "%main", "%src_main"] {
        assert!(!ids.iter().any(|id| id == v), "{v}:\n{dis}");
    }
    let count = |op: &str| ops.iter().filter(|o| *o == op).count();
    // s.b (three times), s.c, s.d, s.e, param, h, i, j, gs, shared_v and scale are loaded as
    // min precision; s.a and g are not.
    assert_eq!(count("OpLoad"), 13, "{dis}");
    // The component of `scale.y`.
    assert_eq!(count("OpCompositeExtract"), 1, "{dis}");
    // h = s.b + s.c and param + 1, but not g = s.a + s.b.
    assert_eq!(count("OpIAdd"), 2, "{dis}");
    // i = s.d + s.e.
    assert_eq!(count("OpFAdd"), 1, "{dis}");
    assert_eq!(count("OpFNegate"), 1, "{dis}");
    assert_eq!(count("OpFunctionCall"), 1, "{dis}");
    assert_eq!(dis.matches("OpIAdd").count(), 4, "{dis}");
}

#[test]
// The expected products index rows and columns as the shader does.
#[allow(clippy::needless_range_loop)]
fn integer_matrix_mul_expands_to_dot_products() {
    let src = r#"
RWStructuredBuffer<int> Out : register(u0);
RWStructuredBuffer<uint> UOut : register(u1);
StructuredBuffer<int> In : register(t2);
[numthreads(1, 1, 1)]
void main() {
    int k = In[0];
    int2x3 a = int2x3(1, 2, 3, 4, 5, 6) * k;
    int3x2 b = int3x2(7, 8, 9, 10, 11, 12);
    int2x2 c = mul(a, b);
    int2 mv = mul(a, int3(1, -1, 2));
    int3 vm = mul(int2(2, -3), a);
    int2x3 s = mul(3, a);
    int2x3 t = mul(a, -2);
    Out[0] = c[0][0]; Out[1] = c[0][1]; Out[2] = c[1][0]; Out[3] = c[1][1];
    Out[4] = mv.x; Out[5] = mv.y;
    Out[6] = vm.x; Out[7] = vm.y; Out[8] = vm.z;
    Out[9] = s[0][0]; Out[10] = s[1][2]; Out[11] = t._m12;
    uint3x3 p = uint3x3(1, 2, 3, 4, 5, 6, 7, 8, 9);
    uint3x3 q = mul(p, p);
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            UOut[i * 3 + j] = q[i][j];
        }
    }
}
"#;
    let words = check("int_matrix_mul", src, "cs_6_0");
    let dis = disassemble(&words);
    assert!(!dis.contains("OpMatrixTimes"), "{dis}");
    assert!(!dis.contains("OpVectorTimesMatrix"), "{dis}");
    assert!(dis.contains("OpIMul %v3int"), "{dis}");
    #[cfg(feature = "run")]
    {
        let k = 1i32;
        let a = [[k, 2 * k, 3 * k], [4 * k, 5 * k, 6 * k]];
        let b = [[7, 8], [9, 10], [11, 12]];
        let mut want = Vec::new();
        for row in &a {
            for j in 0..2 {
                want.push((0..3).map(|x| row[x] * b[x][j]).sum::<i32>());
            }
        }
        let v = [1, -1, 2];
        for row in &a {
            want.push((0..3).map(|x| row[x] * v[x]).sum::<i32>());
        }
        let u = [2, -3];
        for j in 0..3 {
            want.push((0..2).map(|x| u[x] * a[x][j]).sum::<i32>());
        }
        want.extend([3 * a[0][0], 3 * a[1][2], -2 * a[1][2]]);
        let p = [[1u32, 2, 3], [4, 5, 6], [7, 8, 9]];
        let mut uwant = Vec::new();
        for row in &p {
            for j in 0..3 {
                uwant.push((0..3).map(|x| row[x] * p[x][j]).sum::<u32>());
            }
        }
        let job = r#"{"dispatch": [1, 1, 1], "buffers": [
            {"binding": 0, "layout": ["i32"], "size_words": 12},
            {"binding": 1, "layout": ["u32"], "size_words": 9},
            {"binding": 2, "layout": ["i32"], "data": [1]}]}"#;
        let out = run::lavapipe(&words, job);
        assert_eq!(run::ints(&out, 0), want);
        assert_eq!(run::words(&out, 1), uwant);
    }
}

#[test]
fn one_by_n_matrices_index_as_matrices_everywhere() {
    // A 1xN matrix is a vector whose row index is ignored, an Nx1 one a vector indexed by its
    // row; both also take `_mRC` members: on globals, cbuffer members, struct fields (in
    // buffers and locals), groupshared variables and parameters.
    let src = r#"
struct R { float1x3 m; float3x1 n; };
cbuffer C : register(b0) { float1x3 cm; float2 pad; };
StructuredBuffer<R> In : register(t1);
RWStructuredBuffer<float> Out : register(u2);
static float1x3 sm = float1x3(7, 8, 9);
groupshared float1x2 gm;
float first(float1x3 p) { return p[0][1] + p._m02; }
[numthreads(1, 1, 1)]
void main() {
    gm[0][1] = 5;
    gm._m00 = 4;
    Out[0] = cm[0][0]; Out[1] = cm[0].z; Out[2] = cm._m01;
    Out[3] = sm[0][2]; Out[4] = gm[0][1] + gm._m00;
    R r = In[0];
    Out[5] = r.m[0][1]; Out[6] = In[0].m[0][2]; Out[7] = In[0].n[2][0]; Out[8] = r.n._m10;
    Out[9] = first(r.m);
    Out[10] = ((R)r).m[0][2];
}
"#;
    let words = check("one_by_n", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1, 1, 1], "buffers": [
            {"binding": 0, "kind": "uniform", "layout": ["f32"], "data": [10, 20, 30, 0, 0, 0, 0, 0]},
            {"binding": 1, "layout": ["f32"], "data": [1, 2, 3, 0, 4, 5, 6, 0]},
            {"binding": 2, "layout": ["f32"], "size_words": 11}]}"#;
        assert_eq!(
            run::floats(&run::lavapipe(&words, job), 2),
            vec![10.0, 30.0, 20.0, 9.0, 9.0, 2.0, 3.0, 6.0, 5.0, 5.0, 3.0]
        );
    }
    let _ = words;
}

/// Row-major bool matrices in buffers are rows of uints (DXC refuses column-major non-float
/// matrices there: `vulkan_interface_and_declaration_errors`).
#[test]
fn bool_matrices_in_buffers_are_uint_rows() {
    let src = r#"
struct B { row_major bool2x2 m; float f; };
cbuffer C : register(b0) { row_major bool2x3 cm; };
RWStructuredBuffer<B> Buf : register(u1);
[numthreads(1, 1, 1)]
void main() {
    B b = Buf[0];
    b.m[0] = !b.m[0];
    b.m[1][0] = cm[1][2];
    b.f = cm._m00 ? 1.0 : 2.0;
    Buf[1] = b;
    Buf[2].m = bool2x2(cm[0].xy, cm[1].yz);
}
"#;
    let words = check("bool_matrices", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1, 1, 1], "buffers": [
            {"binding": 0, "kind": "uniform", "layout": ["u32"], "data": [1, 0, 1, 0, 0, 1, 1, 0]},
            {"binding": 1, "layout": ["u32"], "data": [1, 0, 7, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]}]}"#;
        let out = run::words(&run::lavapipe(&words, job), 1);
        let f = |x: f32| x.to_bits();
        // Buf[0] is left alone; Buf[1] (words 6..12: two uint2 rows, f, padding) holds the
        // negated first row, cm[1][2] in m[1][0], m[1][1] = true stored as 1, and f = 1.0.
        assert_eq!(&out[..6], &[1, 0, 7, 7, 0, 0][..]);
        assert_eq!(&out[6..12], &[0, 1, 1, 1, f(1.0), 0][..]);
        assert_eq!(&out[12..16], &[1, 0, 1, 1][..]);
    }
    let _ = words;
}

/// A non-float matrix in a buffer is an array of rows with an ArrayStride, a type of its own:
/// copying it to a local rebuilds it row by row (it was an OpStore of mismatched types, which
/// DXC's `vk.layout.cbuffer.zpc.hlsl` showed). Both on lavapipe and under `spvkit run`.
#[test]
fn integer_matrices_copy_out_of_buffers_row_by_row() {
    let src = "cbuffer C { row_major int2x3 ms[3]; row_major uint3x2 u; };
               RWStructuredBuffer<int> o : register(u0);
               [numthreads(1, 1, 1)]
               void main() {
                   int2x3 m = ms[2];
                   uint3x2 v = u;
                   o[0] = m[1][2]; o[1] = m[0][0]; o[2] = (int)v[2][1]; o[3] = (int)v[0][1];
               }";
    let words = check("int_matrix_copy", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        // ms: 3 matrices of 2 rows, each row a 16-byte slot; u: 3 rows of uint2 at offset 96.
        let mut cb = [0u32; 36];
        cb[16..19].copy_from_slice(&[1, 2, 3]);
        cb[20..23].copy_from_slice(&[4, 5, 6]);
        cb[24..26].copy_from_slice(&[7, 8]);
        cb[32..34].copy_from_slice(&[9, 10]);
        let data: Vec<String> = cb.iter().map(u32::to_string).collect();
        let job = format!(
            r#"{{"dispatch": [1], "buffers": [
                {{"binding": 0, "layout": ["i32"], "size_words": 4}},
                {{"binding": 1, "kind": "uniform", "layout": ["u32"], "data": [{}]}}]}}"#,
            data.join(", ")
        );
        assert_eq!(run::words(&run::lavapipe(&words, &job), 0), [6, 1, 10, 8]);
        assert_eq!(run::words(&run::spvkit(&words, &job), 0), [6, 1, 10, 8]);
    }
    let _ = words;
}

/// Code after `break`, `continue` and `return` inside loops (DXC's `cf.*` tests): it is still
/// type-checked, but it ends in `OpUnreachable` instead of branching to a continue target or
/// merge from outside the loop's construct (spirv-val rejected that), and it never runs.
#[test]
fn code_after_jumps_inside_loops_is_valid_and_dead() {
    let src = "RWStructuredBuffer<int> o : register(u0);
               int first(int a) {
                   for (int i = 0; i < 4; ++i) { if (i == a) { return i * 10; } }
                   return -1;
                   return 7;
               }
               int early() { for (int i = 0; i < 4; ++i) { return 3; i += 5; } return 9; }
               [numthreads(1, 1, 1)]
               void main() {
                   int x = 0;
                   for (int i = 0; i < 10; ++i) {
                       x += i;
                       if (i == 3) { break; x = 100; }
                       continue;
                       x += 1000;
                   }
                   int y = 0;
                   while (y < 5) { y++; if (y > 2) { continue; y = 50; } }
                   do { y += 10; break; y = 7; { break; } } while (true);
                   for (int k = 0; k < 2; ++k) {
                       switch (k) { case 0: y += 1; break; y += 100; default: y += 2; }
                       break;
                       while (true) { y = -1; }
                   }
                   o[0] = x; o[1] = y; o[2] = first(2); o[3] = first(9); o[4] = early();
               }";
    let words = check("dead_after_jumps", src, "cs_6_0");
    let dis = disassemble(&words);
    assert!(dis.contains("OpUnreachable"), "{dis}");
    // A type error in dead code is still reported.
    let e = errors(
        "[numthreads(1, 1, 1)] void main() { for (;;) { break; int x = undeclared; } }",
        "cs_6_0",
    );
    assert!(e.contains("undeclared"), "{e}");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["i32"], "size_words": 5}]}"#;
        let want = [6, 16, 20, -1, 3].map(|v: i32| v as u32);
        assert_eq!(run::words(&run::lavapipe(&words, job), 0), want);
        assert_eq!(run::words(&run::spvkit(&words, job), 0), want);
    }
}

/// DXC's own layout table for 64-bit members (`vk.layout.64bit-types.std140.hlsl`): a 64-bit
/// 3-vector keeps its 32-byte alignment under the relaxed rule, and a double matrix aligns to
/// its 32-byte stride. The module validates, and a compute shader reads the members back.
#[test]
fn sixty_four_bit_members_follow_dxcs_layout() {
    let src = "cbuffer MyCBuffer {
                   float f1; uint64_t f2; double f3[3]; float f4; int64_t3 f5;
                   double3x2 f6; double2x1 f7; float f8; row_major double2x3 f9[2];
                   int64_t2 f10[1];
               };
               RWStructuredBuffer<int> o : register(u0);
               [numthreads(1, 1, 1)]
               void main() {
                   o[0] = (int)f5.z; o[1] = (int)f6[2][1]; o[2] = (int)f8;
                   o[3] = (int)f9[1][1][2]; o[4] = (int)f10[0].y;
               }";
    let words = check("layout64", src, "cs_6_0");
    let dis = disassemble(&words);
    for (member, offset) in [
        (0, 0),
        (1, 8),
        (2, 16),
        (3, 64),
        (4, 96),
        (5, 128),
        (6, 192),
        (7, 208),
        (8, 224),
        (9, 352),
    ] {
        let want = format!("OpMemberDecorate %type_MyCBuffer {member} Offset {offset}\n");
        assert!(dis.contains(&want), "{want}{dis}");
    }
    #[cfg(feature = "run")]
    {
        // f5.z at 96 + 16; f6 (3x2, SPIR-V RowMajor: 2 columns of 3 doubles, stride 32):
        // [2][1] at 128 + 32 + 16; f8 at 208; f9[1] row 1 col 2 at 224 + 64 + 32 + 16;
        // f10[0].y at 352 + 8.
        let mut cb = [0u8; 384];
        cb[112..120].copy_from_slice(&5i64.to_le_bytes());
        cb[176..184].copy_from_slice(&6.0f64.to_le_bytes());
        cb[208..212].copy_from_slice(&7.0f32.to_le_bytes());
        cb[336..344].copy_from_slice(&8.0f64.to_le_bytes());
        cb[360..368].copy_from_slice(&9i64.to_le_bytes());
        let data: Vec<String> = cb.iter().map(u8::to_string).collect();
        let job = format!(
            r#"{{"dispatch": [1], "buffers": [
                {{"binding": 0, "layout": ["i32"], "size_words": 5}},
                {{"binding": 1, "kind": "uniform", "layout": ["u8"], "data": [{}]}}]}}"#,
            data.join(", ")
        );
        let want = [5u32, 6, 7, 8, 9];
        assert_eq!(run::words(&run::lavapipe(&words, &job), 0), want);
        assert_eq!(run::words(&run::spvkit(&words, &job), 0), want);
    }
}

/// HLSL 2018's `?:` with a vector condition and scalar arms selects per component (DXC's
/// `literal.constant-composite.hlsl` gave a scalar OpSelect under a vector condition).
#[test]
fn a_vector_condition_selects_per_component_in_hlsl_2018() {
    let src = "RWStructuredBuffer<float> o : register(u0);
               [numthreads(1, 1, 1)]
               void main() {
                   float3 v = float3(-1, 2, 0);
                   float3 r = v > 0 ? 0.5 : 0;
                   o[0] = r.x; o[1] = r.y; o[2] = r.z;
               }";
    let words = check_env(
        "vector_ternary",
        src,
        "cs_6_0",
        TargetEnv::Vulkan1_0,
        LanguageVersion::V2018,
    );
    assert!(disassemble(&words).contains("OpSelect %v3float"));
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["f32"], "size_words": 3}]}"#;
        assert_eq!(run::floats(&run::lavapipe(&words, job), 0), [0.0, 0.5, 0.0]);
    }
}

/// `[[vk::location(N)]]` on an entry point places its return value (it was dropped, and the
/// output clashed with another at location 0), and a 64-bit integer image declares
/// `Int64ImageEXT`, as spirv-val requires.
#[test]
fn return_locations_and_64_bit_images() {
    let src = "[[vk::location(2)]]
               float main([[vk::location(0)]] out float n : N, out float4 pos : SV_Position) : R {
                   n = 1; pos = 0; return 1.0;
               }";
    let dis = disassemble(&check("return_location", src, "vs_6_0"));
    assert!(dis.contains("OpDecorate %out_var_R Location 2"), "{dis}");
    assert!(dis.contains("OpDecorate %out_var_N Location 0"), "{dis}");
    let src = "RWTexture2D<int64_t> t : register(u0);
               [numthreads(1, 1, 1)] void main() { t[uint2(0, 0)] = 5; }";
    let dis = disassemble(&check("int64_image", src, "cs_6_0"));
    assert!(dis.contains("OpCapability Int64ImageEXT"), "{dis}");
    assert!(
        dis.contains("OpExtension \"SPV_EXT_shader_image_int64\""),
        "{dis}"
    );
}

/// Attributes and modifiers are implemented or refused, never dropped: `[noinline]` is
/// `DontInline`, `[earlydepthstencil]` is `EarlyFragmentTests`, `globallycoherent` is
/// `Coherent`, `precise` puts `NoContraction` on the arithmetic; a `[[vk::...]]` attribute not
/// implemented is an error naming it, and an attribute nobody knows is DXC's warning.
#[test]
fn attributes_and_modifiers_are_implemented_or_refused() {
    let src = "globallycoherent RWStructuredBuffer<float> o : register(u0);
               [noinline] float twice(float x) { return x * 2; }
               [numthreads(1, 1, 1)]
               void main() { precise float y = o[1] * o[2] + o[3]; o[0] = twice(y); }";
    let dis = disassemble(&check("attributes", src, "cs_6_0"));
    assert!(dis.contains("OpDecorate %o Coherent"), "{dis}");
    assert!(dis.contains("OpFunction %float DontInline"), "{dis}");
    assert!(dis.contains("NoContraction"), "{dis}");
    let src = "[earlydepthstencil] float4 main() : SV_Target { return 1; }";
    let dis = disassemble(&check("early_depth", src, "ps_6_0"));
    assert!(
        dis.contains("OpExecutionMode %main EarlyFragmentTests"),
        "{dis}"
    );
    let e = errors(
        "struct S { [[vk::builtin(\"PointSizes\")]] float p : PSIZE; };
         [numthreads(1, 1, 1)] void main() {}",
        "cs_6_0",
    );
    assert!(e.contains("unknown built-in 'PointSizes'"), "{e}");
    let e = errors(
        "[[vk::ext_decorate(1, 0)]] [numthreads(1, 1, 1)] void main() {}",
        "cs_6_0",
    );
    assert!(e.contains("[[vk::ext_decorate]]"), "{e}");
    let out = compile_source(
        "w.hlsl",
        "[frobnicate] [numthreads(1, 1, 1)] void main() {}",
        &options("cs_6_0", TargetEnv::Vulkan1_0, LanguageVersion::V2021),
    )
    .unwrap();
    assert!(
        out.warnings
            .contains("unknown attribute 'frobnicate' ignored"),
        "{}",
        out.warnings
    );
}

/// `(S)0` and `(T[n])x`: DXC's flat conversion of a scalar sets every scalar of the struct or
/// array to it, converted to each member's type (178 real-world shaders used `(S)0`).
#[test]
fn scalar_casts_to_structs_and_arrays_fill_every_member() {
    let src = "struct Inner { float2 v; bool b; };
               struct S { float a; int2 i; float2x2 m; Inner n[2]; uint u; };
               RWStructuredBuffer<float> o : register(u0);
               [numthreads(1, 1, 1)]
               void main() {
                   S z = (S)0;
                   S t = (S)3;
                   float f[3] = (float[3])2.5;
                   o[0] = z.a + z.i.y + z.m[1][1] + z.n[1].v.x + (z.n[0].b ? 100 : 0) + z.u;
                   o[1] = t.a; o[2] = t.i.x; o[3] = t.m[0][1]; o[4] = t.n[1].v.y;
                   o[5] = t.n[0].b ? 1 : 0; o[6] = t.u; o[7] = f[2];
               }";
    let words = check("flat_cast", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["f32"], "size_words": 8}]}"#;
        let want = [0.0, 3.0, 3.0, 3.0, 3.0, 1.0, 3.0, 2.5];
        assert_eq!(run::floats(&run::lavapipe(&words, job), 0), want);
        assert_eq!(run::floats(&run::spvkit(&words, job), 0), want);
    }
    let e = errors(
        "struct R { RWStructuredBuffer<float> b; }; [numthreads(1, 1, 1)] void main() { R r = (R)0; }",
        "cs_6_0",
    );
    assert!(e.contains("not supported yet"), "{e}");
}

/// Swizzles on literals: `0.xxxx` is the integer literal 0 splatted (so `3.xx / 2` divides
/// integers, as clang's HLSL front end types it), `2.5.rr` the float; the lexer ends the number
/// before a dot that starts a swizzle.
#[test]
fn swizzles_on_literals() {
    let src = "RWStructuredBuffer<float4> o : register(u0);
               [numthreads(1, 1, 1)]
               void main() {
                   o[0] = 0.xxxx;
                   o[1] = float4(2.5.rr, 3.xx / 2);
                   o[2] = 1u.xxxx;
                   o[3] = float4(1.5.x, 7.r, 0.5e1.xx);
               }";
    let words = check("literal_swizzles", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["f32"], "size_words": 16}]}"#;
        let want = [
            0.0, 0.0, 0.0, 0.0, 2.5, 2.5, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.5, 7.0, 5.0, 5.0,
        ];
        assert_eq!(run::floats(&run::lavapipe(&words, job), 0), want);
        assert_eq!(run::floats(&run::spvkit(&words, job), 0), want);
    }
}

/// Enums, unscoped and scoped (`enum class`), with and without an underlying type: an
/// enumerator without a value is the previous one plus one; unscoped ones are named with and
/// without their enum, scoped ones only with it; the enum's type is its underlying type.
#[test]
fn enums_as_constants_and_types() {
    let src = "enum Color { Red, Green = 5, Blue };
               enum class Mode : uint { Off, On = 3, Auto };
               RWStructuredBuffer<int> o : register(u0);
               int pick(Color c) { return c == Green ? 1 : 2; }
               static const int table[Blue - Green + 1] = { 7, 8 };
               [numthreads(1, 1, 1)]
               void main() {
                   Color c = Blue;
                   Mode m = Mode::Auto;
                   o[0] = Red; o[1] = Color::Green; o[2] = c; o[3] = (int)m;
                   o[4] = pick(Green); o[5] = (int)Mode::On; o[6] = table[1];
               }";
    let words = check("enums", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["i32"], "size_words": 7}]}"#;
        let want = [0u32, 5, 6, 4, 1, 3, 8];
        assert_eq!(run::words(&run::lavapipe(&words, job), 0), want);
        assert_eq!(run::words(&run::spvkit(&words, job), 0), want);
    }
    let e = errors(
        "enum class E { A }; [numthreads(1, 1, 1)] void main() { int x = A; }",
        "cs_6_0",
    );
    assert!(e.contains("'A'"), "{e}");
}

/// Arithmetic on bools promotes them to int (`true + true` is 2), and `all`/`any` take
/// matrices (every component, row by row).
#[test]
fn bool_arithmetic_and_all_any_of_matrices() {
    let src = "RWStructuredBuffer<int> o : register(u0);
               [numthreads(1, 1, 1)]
               void main() {
                   bool t = true, f = false;
                   bool2 bb = bool2(true, true);
                   o[0] = t + t; o[1] = t * 5 - f; int2 s = bb + bb; o[2] = s.y;
                   float2x2 z = 0, m = float2x2(0, 0, 0, 3), a = float2x2(1, 2, 3, 4);
                   int3x2 h = int3x2(1, 1, 1, 0, 1, 1);
                   o[3] = any(z); o[4] = any(m); o[5] = all(m); o[6] = all(a); o[7] = all(h);
               }";
    let words = check("bool_arith", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["i32"], "size_words": 8}]}"#;
        let want = [2u32, 5, 2, 0, 1, 0, 1, 0];
        assert_eq!(run::words(&run::lavapipe(&words, job), 0), want);
        assert_eq!(run::words(&run::spvkit(&words, job), 0), want);
    }
}

/// Namespaces (nested, `using namespace`, `using` declarations and aliases, out-of-line
/// definitions), member functions (`this`, implicit members, methods calling methods, static
/// methods and members, out-of-line static definitions, calls through an object), struct
/// inheritance (base members and methods, `(Base)d` as a value and as an lvalue) and a local
/// struct: each result is a different number, so a wrong lookup shows.
#[test]
fn namespaces_methods_and_inheritance() {
    let src = "namespace A {
                   float three() { return 3; }
                   float later();
                   namespace B { typedef float f1; float three() { return 30; } }
                   struct Counter {
                       int n;
                       static const int STEP = 2;
                       static int made;
                       void bump(int k) { n += k * STEP; }
                       int get() { return n; }
                       int twice() { return get() + this.get(); }
                       static int scale(int x) { return x * STEP; }
                   };
               }
               int A::Counter::made = 7;
               float A::later() { return 300; }
               using namespace A;
               using B::three;
               using real = B::f1;
               struct Base { float b; float halved() { return b / 2; } };
               struct Derived : Base { float d; float sum() { return b + d + halved(); } };
               RWStructuredBuffer<float> o : register(u0);
               [numthreads(1, 1, 1)]
               void main() {
                   real r = three() + A::three() + later();
                   Counter c; c.n = 1;
                   c.bump(3);
                   Derived d; d.b = 4; d.d = 5;
                   (Base)d = (Base)d;
                   Base copy = (Base)d;
                   struct Local { float v; float plus(float w) { return v + w; } } l;
                   l.v = 0.25;
                   o[0] = r; o[1] = c.get(); o[2] = c.twice(); o[3] = Counter::scale(5);
                   o[4] = c.made + Counter::made; o[5] = d.sum(); o[6] = d.halved();
                   o[7] = copy.b; o[8] = l.plus(1);
               }";
    let words = check("namespaces_methods", src, "cs_6_0");
    let dis = disassemble(&words);
    for name in [
        "\"A::Counter.bump\"",
        "\"A::B::three\"",
        "\"Base.halved\"",
        "\"Derived.sum\"",
    ] {
        assert!(dis.contains(name), "{name} missing:\n{dis}");
    }
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["f32"], "size_words": 9}]}"#;
        let want = [333.0f32, 7.0, 14.0, 10.0, 14.0, 11.0, 2.0, 4.0, 1.25];
        assert_eq!(run::floats(&run::lavapipe(&words, job), 0), want);
        assert_eq!(run::floats(&run::spvkit(&words, job), 0), want);
    }
    // A method that writes its object cannot run on a constant one; a non-static member needs
    // an object; a `using` must name something.
    let e = errors(
        "struct S { int n; void set() { n = 1; } };
         cbuffer C { S s; };
         [numthreads(1, 1, 1)] void main() { s.set(); }",
        "cs_6_0",
    );
    assert!(e.contains("constant"), "{e}");
    let e = errors(
        "struct S { int n; static int f() { return n; } };
         [numthreads(1, 1, 1)] void main() { S::f(); }",
        "cs_6_0",
    );
    assert!(e.contains("static member function"), "{e}");
    let e = errors(
        "using namespace Nope; [numthreads(1, 1, 1)] void main() { }",
        "cs_6_0",
    );
    assert!(e.contains("no namespace named 'Nope'"), "{e}");
}

/// Template misuse is an error naming the place: too few arguments, template arguments on a
/// non-template, an argument that cannot be deduced, specializations not supported yet.
#[test]
fn template_errors() {
    let cases = [
        (
            "template<typename T, typename U> T f(float x) { return x; }
             [numthreads(1, 1, 1)] void main() { float y = f<float>(1); }",
            "cannot deduce the template argument 'U' of 'f'",
        ),
        (
            "template<int N> int g(int x) { return x * N; }
             [numthreads(1, 1, 1)] void main() { int y = g<float>(1); }",
            "the template argument for 'N' of 'g' must be a value",
        ),
        (
            "template<typename T> T id(T x) { return x; }
             [numthreads(1, 1, 1)] void main() { int a[2][2] = { 1, 2, 3, 4 }; int y = id(a[0] + a[1]).x; }",
            "deducing the template argument 'T'",
        ),
        (
            "template<> struct Q { int w; };
             [numthreads(1, 1, 1)] void main() { }",
            "not supported yet: explicit specialization of anything but a struct template",
        ),
    ];
    for (src, want) in cases {
        let e = errors(src, "cs_6_0");
        assert!(e.contains(want), "{want}:\n{e}");
    }
}

/// Every lvalue DXC accepts: `++a` and `a op= b` are lvalues (an assignment evaluates its
/// right side first, as DXC does), matrix element lists
/// (`m._m00_m11`, `m._21_12`) and size-1 swizzles (`f1.x`) are assignable, and a component of
/// a texel (`buf[i].y = ...`) is written by reading, inserting and writing the texel.
#[test]
fn lvalues_dxc_accepts() {
    let src = "RWStructuredBuffer<float> o : register(u0);
               RWBuffer<float4> texels : register(u1);
               [numthreads(1, 1, 1)]
               void main() {
                   int a = 1, b = 10;
                   ++a = b + a;            // the right side first: a = 11
                   (a += 3) = a * 2;       // a = 22
                   float2x3 m = 0;
                   m._m00_m12 = float2(1, 2);
                   m._21_13 = float2(3, 4);
                   m._22 += 5;
                   float1 f1 = 1;
                   f1.x = 7;
                   float s = 2;
                   s.x *= 4;
                   o[0] = a; o[1] = m[0][0]; o[2] = m[1][2]; o[3] = m[1][0]; o[4] = m[0][2];
                   o[5] = m[1][1]; o[6] = f1; o[7] = s;
                   texels[0].y = 9;
               }";
    let words = check("lvalues", src, "cs_6_0");
    let dis = disassemble(&words);
    let read = dis.find("OpImageRead").expect("the texel is read");
    let write = dis.find("OpImageWrite").expect("the texel is written");
    assert!(read < write && dis.contains("OpCompositeInsert"), "{dis}");
    #[cfg(feature = "run")]
    {
        // Only the structured buffer is checked here; the texel store is checked above.
        let src = src
            .replace("texels[0].y = 9;", "")
            .replace("RWBuffer<float4> texels : register(u1);", "");
        let words = check("lvalues_run", &src, "cs_6_0");
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["f32"], "size_words": 8}]}"#;
        let want = [22.0f32, 1.0, 2.0, 3.0, 4.0, 5.0, 7.0, 8.0];
        assert_eq!(run::floats(&run::lavapipe(&words, job), 0), want);
        assert_eq!(run::floats(&run::spvkit(&words, job), 0), want);
    }
    let e = errors(
        "[numthreads(1, 1, 1)] void main() { float2x2 m = 0; m._11_11 = float2(1, 2); }",
        "cs_6_0",
    );
    assert!(e.contains("repeated component"), "{e}");
}

/// Bit-fields pack into one field of their type while they fit (a new one starts when the
/// type changes or the bits run out); reads extract (signed ones sign-extend), writes insert,
/// also through a structured buffer whose element holds them.
#[test]
fn bit_fields() {
    let src = "struct Packed { uint lo : 4; uint mid : 12; uint hi : 16; int s : 3; float f; };
               RWStructuredBuffer<Packed> p : register(u1);
               RWStructuredBuffer<int> o : register(u0);
               [numthreads(1, 1, 1)]
               void main() {
                   Packed x;
                   x.lo = 0x1F;          // 5 bits into 4: 0xF
                   x.mid = 0x123;
                   x.hi = 0xBEEF;
                   x.s = -2;
                   x.f = 1.5;
                   x.mid += 1;
                   o[0] = x.lo; o[1] = x.mid; o[2] = x.hi; o[3] = x.s;
                   p[0] = x;
                   p[0].s = 3;
                   o[4] = p[0].s; o[5] = p[0].hi;
               }";
    let words = check("bit_fields", src, "cs_6_0");
    let dis = disassemble(&words);
    // lo, mid and hi share one uint; s starts an int; f is a float: three members.
    assert!(
        dis.contains("%Packed = OpTypeStruct %uint %int %float"),
        "{dis}"
    );
    for op in [
        "OpBitFieldInsert",
        "OpBitFieldUExtract",
        "OpBitFieldSExtract",
    ] {
        assert!(dis.contains(op), "{op} missing:\n{dis}");
    }
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["i32"], "size_words": 6},
            {"binding": 1, "layout": ["u32", "i32", "f32"], "size_words": 3}]}"#;
        let want = [15u32, 0x124, 0xBEEF, (-2i32) as u32, 3, 0xBEEF];
        assert_eq!(run::words(&run::lavapipe(&words, job), 0), want);
        assert_eq!(run::words(&run::spvkit(&words, job), 0), want);
    }
    // 64-bit holders: shifts and masks (Vulkan's bit-field instructions take 32 bits only).
    let src = "struct W { uint64_t lo : 40; int64_t hi : 24; };
               RWStructuredBuffer<uint> o : register(u0);
               [numthreads(1, 1, 1)]
               void main() {
                   W w;
                   w.lo = 0x12345678ABull;
                   w.hi = -5;
                   w.lo += 1;
                   o[0] = (uint)(w.lo >> 8); o[1] = (uint)w.hi; o[2] = (uint)(w.lo & 0xFF);
               }";
    let words = check("bit_fields_64", src, "cs_6_0");
    assert!(!disassemble(&words).contains("OpBitField"));
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["u32"], "size_words": 3}]}"#;
        let want = [0x1234_5678u32, (-5i32) as u32, 0xAC];
        assert_eq!(run::words(&run::lavapipe(&words, job), 0), want);
        assert_eq!(run::words(&run::spvkit(&words, job), 0), want);
    }
    let e = errors(
        "struct B { float f : 3; }; [numthreads(1, 1, 1)] void main() { B b; b.f = 1; }",
        "cs_6_0",
    );
    assert!(e.contains("a bit-field must have an integer type"), "{e}");
    // Too few values for the bit-fields is an error.
    let e = errors(
        "struct B { uint a : 2; uint b : 2; };
         [numthreads(1, 1, 1)] void main() { B b = { 1 }; }",
        "cs_6_0",
    );
    assert!(e.contains("too few initializers"), "{e}");
}

/// `-enable-16bit-types`: `half`, `int16_t` and `uint16_t` compute and are stored in 16 bits
/// (products wrap at 16 bits), convert to and from the 32-bit types, and lay out buffers with
/// 2-byte scalars; lavapipe and `spvkit run` agree with values computed by hand.
#[test]
fn sixteen_bit_types_compute_convert_and_fill_buffers() {
    let src = r#"
        struct R { half h; int16_t i; uint16_t u; float f; int w; uint x; half3 v; float g; };
        StructuredBuffer<half4> In : register(t1);
        StructuredBuffer<int16_t2> Ints : register(t2);
        cbuffer C : register(b3) { half2 scale; uint16_t bias; };
        RWStructuredBuffer<R> Out : register(u0);
        #if __HLSL_ENABLE_16_BIT != 1
        #error the macro is missing
        #endif
        [numthreads(2, 1, 1)]
        void main(uint3 tid : SV_DispatchThreadID) {
            half4 a = In[tid.x];
            int16_t2 n = Ints[tid.x];
            R r;
            r.h = a.x * a.y + 0.5h;
            r.i = n.x * n.y - (int16_t)3;
            r.u = (uint16_t)n.x + bias;
            r.f = a.z / a.w;
            r.w = n.x;
            r.x = (uint16_t)n.y;
            r.v = a.xyz * scale.x + max(a.www, scale.y);
            r.g = (float)(half)(a.z / 9.0f);
            Out[tid.x] = r;
        }
    "#;
    let mut o = options("cs_6_2", TargetEnv::Vulkan1_0, LanguageVersion::V2021);
    o.enable_16bit_types = true;
    let words = compile_with("sixteen", src, &o);
    spirv_val("sixteen", &words, TargetEnv::Vulkan1_0);
    let dis = disassemble(&words);
    for want in [
        "OpCapability Float16",
        "OpCapability Int16",
        "OpCapability UniformAndStorageBuffer16BitAccess",
        "OpExtension \"SPV_KHR_16bit_storage\"",
        "%half = OpTypeFloat 16",
        "%short = OpTypeInt 16 1",
        "%ushort = OpTypeInt 16 0",
        "OpIMul %short",
        "OpIAdd %ushort",
        "OpVectorTimesScalar %v3half",
        "OpFDiv %half",
        "OpSConvert %int",
        "OpBitcast %ushort",
        "OpUConvert %uint",
        "OpFConvert %float",
        "OpFConvert %half",
        "OpExtInst %v3half %1 FMax",
        "OpMemberDecorate %R 2 Offset 4",
        "OpMemberDecorate %R 3 Offset 8",
        "OpMemberDecorate %R 6 Offset 20",
        "OpMemberDecorate %R 7 Offset 28",
        "OpDecorate %_runtimearr_R ArrayStride 32",
        "OpMemberDecorate %type_C 1 Offset 4",
    ] {
        assert!(dis.contains(want), "{want}\n{dis}");
    }
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["u32"], "size_words": 16},
            {"binding": 1, "layout": ["f16"], "data": [1.5, 2, 3, 4, -2, 0.25, 10, -8]},
            {"binding": 2, "layout": ["i16"], "data": [-3, 7, 300, -200]},
            {"binding": 3, "kind": "uniform", "layout": ["u8"],
             "data": [0, 56, 0, 60, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]}]}"#;
        // Per thread: h, i, u, f, w, x, v (three halves), g.
        let h = |x: f64| spvkit::binary::f64_to_f16_bits(x).to_le_bytes();
        let mut want = Vec::new();
        for (hh, i, u, f, w, x, v, g) in [
            (
                3.5,
                -24i16,
                2u16,
                0.75f32,
                -3i32,
                7u32,
                [4.75, 5.0, 5.5],
                0.333_251_95f32,
            ),
            // 300 * -200 - 3 wraps to 5533 in 16 bits; -200 as a uint16_t is 65336.
            (
                0.0,
                5533,
                305,
                -1.25,
                300,
                65336,
                [0.0, 1.125, 6.0],
                1.111_328_1,
            ),
        ] {
            let mut rec = Vec::new();
            rec.extend(h(hh));
            rec.extend(i.to_le_bytes());
            rec.extend(u.to_le_bytes());
            rec.extend([0, 0]);
            rec.extend(f.to_le_bytes());
            rec.extend(w.to_le_bytes());
            rec.extend(x.to_le_bytes());
            for c in v {
                rec.extend(h(c));
            }
            rec.extend([0, 0]);
            rec.extend(g.to_le_bytes());
            assert_eq!(rec.len(), 32);
            want.push(rec);
        }
        for (who, out) in [
            ("lavapipe", run::lavapipe_16bit(&words, job)),
            ("spvkit run", run::spvkit(&words, job)),
        ] {
            let got = run::bytes(&out, 0);
            for (t, rec) in want.iter().enumerate() {
                // Padding bytes (6..8 and 26..28) are whatever the store left: compare the rest.
                let g = &got[t * 32..t * 32 + 32];
                for (k, (a, b)) in g.iter().zip(rec).enumerate() {
                    if !(6..8).contains(&k) && !(26..28).contains(&k) {
                        assert_eq!(a, b, "{who}: thread {t}, byte {k}: {g:?} vs {rec:?}");
                    }
                }
            }
        }
    }
}

/// Without `-enable-16bit-types` `half` stays a 32-bit float and the 16-bit names are errors,
/// as DXC; the flag needs shader model 6.2; 16-bit textures and built-ins are refused.
#[test]
fn sixteen_bit_types_need_the_flag_and_shader_model_6_2() {
    let plain = check(
        "half32",
        "RWStructuredBuffer<half> o; [numthreads(1,1,1)] void main() { o[0] = 1.5h; }",
        "cs_6_2",
    );
    let dis = disassemble(&plain);
    assert!(
        !dis.contains("OpTypeFloat 16") && !dis.contains("Float16"),
        "{dis}"
    );
    let e = errors(
        "RWStructuredBuffer<float> o; [numthreads(1,1,1)] void main() { int16_t3 x = 1; o[0] = x.y; }",
        "cs_6_2",
    );
    assert!(
        e.contains(
            "bad.hlsl:1:64: error: int16_t is only supported with -enable-16bit-types option"
        ),
        "{e}"
    );
    let with_flag = |src: &str, profile: &str| {
        let mut o = options(profile, TargetEnv::Vulkan1_0, LanguageVersion::V2021);
        o.enable_16bit_types = true;
        match compile_source("bad.hlsl", src, &o) {
            Ok(_) => panic!("compiled, but should not:\n{src}"),
            Err(e) => e.rendered,
        }
    };
    let ok = "[numthreads(1,1,1)] void main() {}";
    assert!(with_flag(ok, "cs_6_0").contains("needs shader model 6.2"));
    let e = with_flag(
        "Buffer<half4> b; [numthreads(1,1,1)] void main() {}",
        "cs_6_2",
    );
    assert!(
        e.contains("cannot be a floating point type smaller than 32-bits"),
        "{e}"
    );
    let e = with_flag(
        "RWStructuredBuffer<uint16_t> o; [numthreads(1,1,1)] void main() { o[0] = firstbithigh(o[1]); }",
        "cs_6_2",
    );
    assert!(
        e.contains("not supported yet: firstbithigh of 16-bit integers"),
        "{e}"
    );
    let e = with_flag("half4 main() : SV_Position { return 0; }", "vs_6_2");
    assert!(
        e.contains("SV_Position must be a 4-component 32-bit float vector"),
        "{e}"
    );
}

/// DXC's Vulkan-specific interface and declaration checks are errors: a semantic used twice
/// in one direction (`SV_Target` is `SV_Target0`), a location taken twice (a `double4` takes
/// two), explicit and implicit locations mixed, interpolated integer pixel inputs, two push
/// constant blocks, `vk::binding` on a push constant or a `$Globals` member, unsupported
/// specialization constants, and column-major integer matrices in buffers.
#[test]
fn vulkan_interface_and_declaration_errors() {
    let cases = [
        (
            "float4 main(float4 a : ABC, float4 b : abc) : SV_Target { return a + b; }",
            "ps_6_0",
            "input semantic 'abc' used more than once",
        ),
        (
            "void main(out float4 x : SV_Target, out float4 y : SV_Target0) { x = 0; y = 0; }",
            "ps_6_0",
            "output semantic 'SV_Target0' used more than once",
        ),
        (
            "struct I { [[vk::location(0)]] double4 a : A; [[vk::location(1)]] double4 b : B; };
             float4 main(I i) : SV_Target { return 0; }",
            "ps_6_0",
            "stage input location #1 already consumed by semantic 'A'",
        ),
        (
            "float main([[vk::location(5)]] int a : A, float b : B) : R { return b; }",
            "vs_6_0",
            "partial explicit stage input location assignment",
        ),
        (
            "float4 main(linear int a : A) : SV_Target { return a; }",
            "ps_6_0",
            "only nointerpolation mode allowed for integer input parameters",
        ),
        (
            "struct S { float4 f; }; [[vk::push_constant]] S a; [[vk::push_constant]] S b;
             float4 main() : SV_Position { return a.f + b.f; }",
            "vs_6_0",
            "cannot have more than one push constant block",
        ),
        (
            "struct S { float f; }; [[vk::push_constant, vk::binding(5)]] S a;
             float4 main() : SV_Position { return a.f; }",
            "vs_6_0",
            "cannot be used together with vk::binding",
        ),
        (
            "[[vk::binding(10, 2)]] float4 g;
             float4 main() : SV_Position { return g; }",
            "vs_6_0",
            "will be placed in $Globals so cannot have vk::binding",
        ),
        (
            "[[vk::constant_id(2)]] const double d = 42;
             float4 main() : SV_Position { return d; }",
            "vs_6_0",
            "unsupported specialization constant type",
        ),
        (
            "[[vk::constant_id(5)]] static const int k = 1;
             float4 main() : SV_Position { return k; }",
            "vs_6_0",
            "specialization constant must be externally visible",
        ),
        (
            "struct A { uint2x3 m; }; StructuredBuffer<A> b;
             float4 main() : SV_Position { return b[0].m[0][0]; }",
            "vs_6_0",
            "non-floating-point column-major matrices",
        ),
    ];
    for (src, profile, want) in cases {
        let e = errors(src, profile);
        assert!(e.contains(want), "{want}:\n{e}");
    }
    // A row-major integer matrix is fine in a buffer.
    check(
        "int_matrix_row_major",
        "struct A { row_major uint2x3 m; }; StructuredBuffer<A> b;
         float4 main() : SV_Position { return b[0].m[1][2]; }",
        "vs_6_0",
    );
}

/// HLSL 2021 member operators: binary (`a * b`, `a == b`), `operator[]` and `operator()`,
/// defined in the struct or out of line, chosen by the right operand's type.
#[test]
fn operator_overloading() {
    let src = "struct V2 {
                   float x, y;
                   V2 operator+(V2 o) { V2 r; r.x = x + o.x; r.y = y + o.y; return r; }
                   V2 operator*(float k) { V2 r; r.x = x * k; r.y = y * k; return r; }
                   float operator*(V2 o) { return x * o.x + y * o.y; }
                   bool operator==(V2 o) { return x == o.x && y == o.y; }
                   float operator[](int i) { return i == 0 ? x : y; }
                   float operator()();
               };
               float V2::operator()() { return x - y; }
               RWStructuredBuffer<float> o : register(u0);
               [numthreads(1, 1, 1)]
               void main() {
                   V2 a; a.x = 1; a.y = 2;
                   V2 b; b.x = 3; b.y = 5;
                   V2 c = (a + b) * 2.0;
                   o[0] = c.x; o[1] = c.y; o[2] = a * b; o[3] = (a == a) ? 1 : 0;
                   o[4] = (a == b) ? 1 : 0; o[5] = c[1]; o[6] = b();
               }";
    let words = check_env(
        "operators",
        src,
        "cs_6_0",
        TargetEnv::Vulkan1_0,
        LanguageVersion::V2021,
    );
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["f32"], "size_words": 7}]}"#;
        let want = [8.0f32, 14.0, 13.0, 1.0, 0.0, 14.0, -2.0];
        assert_eq!(run::floats(&run::lavapipe(&words, job), 0), want);
        assert_eq!(run::floats(&run::spvkit(&words, job), 0), want);
    }
    let e = errors(
        "struct S { float v; }; [numthreads(1, 1, 1)] void main() { S a, b; S c = a + b; }",
        "cs_6_0",
    );
    assert!(e.contains("invalid operands of types 'S' and 'S'"), "{e}");
}

/// Comparing matrices compares row by row into a bool matrix.
#[test]
fn matrix_comparisons() {
    let src = "RWStructuredBuffer<int> o : register(u0);
               [numthreads(1, 1, 1)]
               void main() {
                   float2x3 a = float2x3(1, 2, 3, 4, 5, 6);
                   float2x3 b = float2x3(1, 0, 3, 9, 5, 0);
                   // Indexed as values: a bool vector element read through a pointer to
                   // Function memory is miscompiled by llvmpipe and by spvkit run's LLVM
                   // lowering alike (vectors of i1 are bit-packed in LLVM memory; a known
                   // issue of the lowering, see the README on running compute shaders).
                   o[0] = (a < b)[1][0]; o[1] = (a < b)[0][1];
                   o[2] = (a == b)[0][0]; o[3] = (a == b)[1][2];
                   o[4] = all(a == a); o[5] = any(a > b);
               }";
    let words = check("matrix_compare", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["i32"], "size_words": 6}]}"#;
        let want = [1u32, 0, 1, 0, 1, 1];
        assert_eq!(run::words(&run::lavapipe(&words, job), 0), want);
        assert_eq!(run::words(&run::spvkit(&words, job), 0), want);
    }
}

const MATH_INTRINSICS: &str = r#"
RWStructuredBuffer<float> F : register(u0);
RWStructuredBuffer<uint> U : register(u1);

[numthreads(1, 1, 1)]
void main() {
    float ip;
    F[0] = rcp(4.0);
    F[1] = log10(1024.0);
    F[2] = ldexp(3.0, 4.0);
    F[3] = modf(2.75, ip);
    F[4] = ip;
    float e;
    F[5] = frexp(12.0, e);
    F[6] = e;
    float s, c;
    sincos(0.0, s, c);
    F[7] = s;
    F[8] = c;
    float4 l = lit(0.5, 0.25, 2.0);
    float4 l2 = lit(-1.0, 0.5, 2.0);
    F[9] = l.x + 10 * l.y + 100 * l.z + 1000 * l.w;
    F[10] = l2.x + 10 * l2.y + 100 * l2.z + 1000 * l2.w;
    float4 d = dst(float4(1, 2, 3, 4), float4(5, 6, 7, 8));
    F[11] = d.x; F[12] = d.y; F[13] = d.z; F[14] = d.w;
    float3 r = refract(float3(0, -1, 0), float3(0, 1, 0), 1.0);
    F[15] = r.y;
    float3 ff = faceforward(float3(1, 2, 3), float3(0, 0, 1), float3(0, 0, 1));
    F[16] = ff.x + ff.y + ff.z;
    float2 h = f16tof32(uint2(0x3C00, 0xC000));
    F[17] = h.x;
    F[18] = h.y;
    int m = -7;
    int mi;
    F[19] = modf(m, mi);
    F[20] = mi;
    U[0] = f32tof16(1.5);
    uint2 hh = f32tof16(float2(-2.0, 0.5));
    U[1] = hh.x;
    U[2] = hh.y;
    float2x2 mm = rcp(float2x2(1, 2, 4, 8));
    F[21] = mm._11 + mm._12 + mm._21 + mm._22;
}
"#;

/// DXC's log10(2), deliberately not `f32::consts::LOG10_2`.
#[allow(clippy::approx_constant)]
const DXC_LOG10_2: f32 = 0.30103;

#[test]
fn math_intrinsics_lower_as_dxc_and_compute_exactly() {
    let words = check("math_intrinsics", MATH_INTRINSICS, "cs_6_0");
    let dis = disassemble(&words);
    for op in [
        "ModfStruct",
        "FrexpStruct",
        "PackHalf2x16",
        "UnpackHalf2x16",
        "Exp2",
    ] {
        assert!(dis.contains(op), "{op} missing:\n{dis}");
    }
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1, 1, 1], "buffers": [
            {"binding": 0, "layout": ["f32"], "size_words": 22},
            {"binding": 1, "layout": ["u32"], "size_words": 3}]}"#;
        let want_f: Vec<f32> = vec![
            0.25,
            10.0f32 * DXC_LOG10_2,
            48.0,
            0.75,
            2.0,
            0.75,
            4.0,
            0.0,
            1.0,
            1.0 + 10.0 * 0.5 + 100.0 * 0.5 + 1000.0,
            1.0 + 1000.0,
            1.0,
            12.0,
            3.0,
            8.0,
            -1.0,
            -6.0,
            1.0,
            -2.0,
            0.0,
            -7.0,
            1.0 + 0.5 + 0.25 + 0.125,
        ];
        let want_u = vec![0x3E00, 0xC000, 0x3800];
        for (runner, out) in [
            ("lavapipe", run::lavapipe(&words, job)),
            ("spvkit run", run::spvkit(&words, job)),
        ] {
            assert_eq!(run::floats(&out, 0), want_f, "{runner}");
            assert_eq!(run::words(&out, 1), want_u, "{runner}");
        }
    }
}

const DOUBLE_INTRINSICS: &str = r#"
RWStructuredBuffer<float> F : register(u0);

[numthreads(1, 1, 1)]
void main() {
    double a = asdouble(0u, 0x40090000u);
    F[0] = (float)a;
    double2 b = asdouble(uint2(0, 0), uint2(0x3FF00000, 0xC0000000));
    F[1] = (float)b.x;
    F[2] = (float)b.y;
    F[3] = (float)fma(2.0l, 3.0l, 1.0l);
}
"#;

#[test]
fn asdouble_and_fma_of_doubles() {
    let words = check("double_intrinsics", DOUBLE_INTRINSICS, "cs_6_0");
    let dis = disassemble(&words);
    assert!(
        dis.contains("Fma") && dis.contains("OpBitcast %double"),
        "{dis}"
    );
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1, 1, 1], "buffers": [
            {"binding": 0, "layout": ["f32"], "size_words": 4}]}"#;
        let want = vec![3.125f32, 1.0, -2.0, 7.0];
        assert_eq!(run::floats(&run::lavapipe(&words, job), 0), want);
        assert_eq!(run::floats(&run::spvkit(&words, job), 0), want);
    }
}

/// Every invocation reports its lane and the wave size, then wave operations on values made
/// from its lane: the expectations follow from those two, so they hold for any subgroup size
/// (lavapipe's depends on the host's vector width; `spvkit run` models one-invocation
/// subgroups) as long as every subgroup is full, which 64 invocations give.
const WAVE_INTRINSICS: &str = r#"
RWStructuredBuffer<uint> O : register(u0);

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint lane = WaveGetLaneIndex();
    uint n = WaveGetLaneCount();
    uint base = id.x * 16;
    O[base + 0] = lane;
    O[base + 1] = n;
    O[base + 2] = WaveActiveSum(lane + 1);
    O[base + 3] = WavePrefixSum(lane + 1);
    O[base + 4] = WaveActiveMin(lane) + 100 * WaveActiveMax(lane);
    O[base + 5] = WaveActiveCountBits(true) + 100 * WavePrefixCountBits(lane % 2 == 1);
    O[base + 6] = WaveIsFirstLane() ? 1 : 0;
    O[base + 7] = WaveReadLaneFirst(lane * 3 + 5) + 1000 * WaveReadLaneAt(lane * 3, n - 1);
    O[base + 8] = (WaveActiveAllEqual(n) ? 1 : 0) + (WaveActiveAnyTrue(lane == n - 1) ? 2 : 0)
        + (WaveActiveAllTrue(lane < n) ? 4 : 0) + (WaveActiveAllTrue(lane == 0) ? 8 : 0);
    O[base + 9] = WaveActiveBallot(true).x;
    O[base + 10] = WaveActiveBitOr(1u << (lane % 32));
    O[base + 11] = WaveActiveBitAnd(0xF0u | (1u << (lane % 4)));
    O[base + 12] = WavePrefixProduct(2u);
    O[base + 13] = (uint)WaveActiveSum(1.5f * lane) * 2;
    O[base + 14] = (uint)(WaveActiveMax(-(int)lane) + 1000);
    O[base + 15] = WaveActiveBitXor(lane == 0 ? 5u : 0u);
}
"#;

fn wave_expected(lane: u32, n: u32) -> Vec<u32> {
    let ones = |k: u32| if k >= 32 { u32::MAX } else { (1u32 << k) - 1 };
    vec![
        lane,
        n,
        n * (n + 1) / 2,
        lane * (lane + 1) / 2,
        100 * (n - 1),
        n + 100 * (lane / 2),
        u32::from(lane == 0),
        5 + 1000 * 3 * (n - 1),
        1 + 2 + 4 + if n == 1 { 8 } else { 0 },
        ones(n),
        ones(n),
        0xF0 | if n == 1 { 1 } else { 0 },
        if lane < 32 { 1 << lane } else { 0 },
        (n * (n - 1) / 2) * 3,
        1000,
        5,
    ]
}

#[test]
fn wave_intrinsics_give_each_lane_its_answer() {
    let words = check_env(
        "wave_intrinsics",
        WAVE_INTRINSICS,
        "cs_6_0",
        TargetEnv::Vulkan1_1,
        LanguageVersion::V2021,
    );
    let dis = disassemble(&words);
    for op in [
        "OpGroupNonUniformIAdd %uint %uint_3 Reduce",
        "OpGroupNonUniformIAdd %uint %uint_3 ExclusiveScan",
        "OpGroupNonUniformUMin",
        "OpGroupNonUniformSMax",
        "OpGroupNonUniformFAdd",
        "OpGroupNonUniformBallotBitCount %uint %uint_3 ExclusiveScan",
        "OpGroupNonUniformElect",
        "OpGroupNonUniformShuffle",
        "OpGroupNonUniformBroadcastFirst",
        "OpGroupNonUniformAllEqual",
        "BuiltIn SubgroupSize",
        "BuiltIn SubgroupLocalInvocationId",
    ] {
        assert!(dis.contains(op), "{op} missing:\n{dis}");
    }
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1, 1, 1], "buffers": [
            {"binding": 0, "layout": ["u32"], "size_words": 1024}]}"#;
        for (runner, out) in [
            ("lavapipe", run::lavapipe(&words, job)),
            ("spvkit run", run::spvkit(&words, job)),
        ] {
            let got = run::words(&out, 0);
            eprintln!("{runner}: subgroup size {}", got[1]);
            for (i, row) in got.chunks(16).enumerate() {
                let (lane, n) = (row[0], row[1]);
                assert!(
                    (1..=64).contains(&n) && 64 % n == 0 && lane < n,
                    "{runner}: invocation {i} reports lane {lane} of {n}"
                );
                assert_eq!(row, wave_expected(lane, n), "{runner}: invocation {i}");
            }
        }
    }
}

#[test]
fn wave_quad_and_derivative_intrinsics_validate_where_dxc_allows_them() {
    // Pixel shaders: quad reads, derivatives (coarse and fine need DerivativeControl), helper
    // lanes, wave ops.
    let src = r#"
float4 main(float4 p : TEXCOORD0) : SV_Target {
    float4 a = ddx(p) + ddy(p) + fwidth(p) + ddx_coarse(p) + ddy_fine(p);
    float2x2 m = float2x2(p);
    float2x2 dm = ddx(m);
    a += QuadReadAcrossX(p) + QuadReadAcrossY(p) + QuadReadAcrossDiagonal(p);
    a += QuadReadLaneAt(p, 2);
    a.x += dm._11 + WaveGetLaneIndex() + WaveActiveSum(p.x);
    return IsHelperLane() ? a : -a;
}
"#;
    let words = check_env(
        "quad_derivatives",
        src,
        "ps_6_0",
        TargetEnv::Vulkan1_1,
        LanguageVersion::V2021,
    );
    let dis = disassemble(&words);
    for op in [
        "OpCapability DerivativeControl",
        "OpDPdxCoarse",
        "OpDPdyFine",
        "OpFwidth",
        "OpGroupNonUniformQuadSwap %v4float %uint_3 %",
        "OpGroupNonUniformQuadBroadcast",
        "OpIsHelperInvocationEXT",
        "BuiltIn SubgroupLocalInvocationId",
        "Flat",
    ] {
        assert!(dis.contains(op), "{op} missing:\n{dis}");
    }
    // Vulkan 1.3 reads HelperInvocation instead.
    let words = check_env(
        "helper_lane_13",
        "float4 main() : SV_Target { return IsHelperLane() ? 1 : 0; }",
        "ps_6_0",
        TargetEnv::Vulkan1_3,
        LanguageVersion::V2021,
    );
    assert!(disassemble(&words).contains("BuiltIn HelperInvocation"));
    // dot4add: OpUDot / OpSDot with the packed format.
    let words = check_env(
        "dot4add",
        "RWStructuredBuffer<uint> U; RWStructuredBuffer<int> I;
         [numthreads(1, 1, 1)] void main() {
             U[0] = dot4add_u8packed(U[1], U[2], U[3]);
             I[0] = dot4add_i8packed(U[1], U[2], I[3]);
         }",
        "cs_6_4",
        TargetEnv::Vulkan1_1,
        LanguageVersion::V2021,
    );
    let dis = disassemble(&words);
    assert!(dis.contains("OpUDot %uint") && dis.contains("PackedVectorFormat4x8Bit"));
}

#[test]
fn wave_quad_and_derivative_intrinsics_are_refused_where_dxc_refuses_them() {
    // Vulkan 1.0 (the default target) has no wave operations: DXC's error.
    let e = errors(
        "RWStructuredBuffer<uint> O; [numthreads(32, 1, 1)] void main() { O[0] = WaveIsFirstLane(); }",
        "cs_6_0",
    );
    assert!(
        e.contains("bad.hlsl:1:73: error: Vulkan 1.1 is required for Wave Operation"),
        "{e}"
    );
    for (src, profile, msg) in [
        (
            "float4 main(float4 p : P) : SV_Position { return ddx(p); }",
            "vs_6_0",
            "ddx is only available in pixel and compute shaders",
        ),
        (
            "RWStructuredBuffer<float> O; [numthreads(4, 1, 1)] void main() { O[0] = ddx(O[1]); }",
            "cs_6_0",
            "'ddx' in a compute shader needs shader model 6.6 or above",
        ),
        (
            "RWStructuredBuffer<uint> O; [numthreads(4, 1, 1)] void main() { O[0] = WaveActiveBitAnd(1); }",
            "cs_6_0",
            "Vulkan 1.1 is required",
        ),
        (
            "float4 main() : SV_Target { float f = 1; return fma(f, f, f); }",
            "ps_6_0",
            "not supported yet: fma of 'float'",
        ),
        (
            "float4 main() : SV_Target { return WaveMatch(1).x; }",
            "ps_6_5",
            "Vulkan 1.1 is required for Wave Operation",
        ),
    ] {
        let e = errors(src, profile);
        assert!(e.contains(msg), "{src}: {e}");
    }
    // On Vulkan 1.1: quad reads in a compute shader are over its derivative groups (as DXC,
    // whatever the shader model).
    let quads = "RWStructuredBuffer<uint> O; [numthreads(4, 1, 1)] void main() { O[0] = QuadReadAcrossX(O[1]); }";
    let o = options("cs_6_0", TargetEnv::Vulkan1_1, LanguageVersion::V2021);
    let dis = disassemble(&compile_with("cs_quad", quads, &o));
    for want in [
        "OpExecutionMode %main DerivativeGroupLinearNV",
        "OpGroupNonUniformQuadSwap %uint %uint_3",
    ] {
        assert!(dis.contains(want), "missing {want}:\n{dis}");
    }
    // Signed bitwise reductions.
    for (src, msg) in [
        (
            "RWStructuredBuffer<int> O; [numthreads(4, 1, 1)] void main() { O[0] = WaveActiveBitAnd(O[1]); }",
            "WaveActiveBitAnd needs unsigned integer arguments, not 'int'",
        ),
        (
            "RWStructuredBuffer<uint> O; [numthreads(4, 1, 1)] void main() { O[0] = QuadReadLaneAt(O[1], O[2]); }",
            "not supported yet: QuadReadLaneAt with a lane index that is not a constant",
        ),
    ] {
        let o = options("cs_6_0", TargetEnv::Vulkan1_1, LanguageVersion::V2021);
        match compile_source("bad.hlsl", src, &o) {
            Ok(_) => panic!("compiled, but should not:\n{src}"),
            Err(e) => assert!(e.rendered.contains(msg), "{src}: {}", e.rendered),
        }
    }
}

/// `WaveMatch` and `WaveMultiPrefix*` use SPV_NV_shader_subgroup_partitioned, as DXC does.
/// lavapipe has no partitioned subgroups, and `spvkit run` refuses partitioned group
/// operations (a runner limitation: `src/lower/ops/subgroup.rs` models one-invocation
/// subgroups and implements Reduce, scans and ClusteredReduce only), so these compile and
/// validate here, and the runner's refusal is asserted.
#[test]
fn wave_match_and_multiprefix_use_partitioned_operations() {
    let src = r#"
RWStructuredBuffer<uint4> O : register(u0);
[numthreads(1, 1, 1)]
void main() {
    uint4 mask = WaveMatch(O[1].x);
    O[0] = WaveMultiPrefixSum(O[2], mask) + WaveMultiPrefixProduct(O[3], mask)
        + WaveMultiPrefixBitAnd(O[4], mask) + WaveMultiPrefixBitOr(O[4], mask)
        + WaveMultiPrefixBitXor(O[4], mask);
}
"#;
    let words = check_env(
        "wave_multiprefix",
        src,
        "cs_6_5",
        TargetEnv::Vulkan1_1,
        LanguageVersion::V2021,
    );
    let dis = disassemble(&words);
    for op in [
        "OpExtension \"SPV_NV_shader_subgroup_partitioned\"",
        "OpGroupNonUniformPartitionNV %v4uint",
        "OpGroupNonUniformIAdd %v4uint %uint_3 PartitionedExclusiveScanNV",
        "OpGroupNonUniformBitwiseXor %v4uint %uint_3 PartitionedExclusiveScanNV",
    ] {
        assert!(dis.contains(op), "{op} missing:\n{dis}");
    }
    #[cfg(feature = "run")]
    {
        let job = spvkit::run::Job::from_json(
            r#"{"dispatch": [1, 1, 1], "buffers": [
                {"binding": 0, "layout": ["u32"], "size_words": 20}]}"#,
        )
        .expect("job");
        // Each separately: WaveMatch alone, then a partitioned scan alone.
        for (what, body, refusal) in [
            (
                "WaveMatch",
                "O[0] = WaveMatch(O[1].x);",
                "OpGroupNonUniformPartitionNV is not lowered",
            ),
            (
                "WaveMultiPrefixSum",
                "O[0] = WaveMultiPrefixSum(O[2], O[1]);",
                "this group operation",
            ),
        ] {
            let src = format!(
                "RWStructuredBuffer<uint4> O : register(u0);\n\
                 [numthreads(1, 1, 1)] void main() {{ {body} }}"
            );
            let words = check_env(
                "wave_partitioned",
                &src,
                "cs_6_5",
                TargetEnv::Vulkan1_1,
                LanguageVersion::V2021,
            );
            let e = spvkit::run::run_spirv(&words, &job, &Default::default())
                .expect_err("spvkit run has no partitioned subgroup operations")
                .to_string();
            assert!(
                e.contains(refusal),
                "spvkit run should refuse {what} explicitly, not: {e}"
            );
            eprintln!("spvkit run refuses {what} (runner limitation): {e}");
        }
    }
    // WaveMultiPrefixCountBits has no SPIR-V lowering in DXC either.
    let o = options("ps_6_5", TargetEnv::Vulkan1_1, LanguageVersion::V2021);
    let e = compile_source(
        "bad.hlsl",
        "uint main(uint i : I) : SV_Target { return WaveMultiPrefixCountBits(i == 1, uint4(1, 0, 0, 0)).x; }",
        &o,
    )
    .expect_err("refused");
    assert!(
        e.rendered
            .contains("not supported yet: the intrinsic 'WaveMultiPrefixCountBits'"),
        "{}",
        e.rendered
    );
}

#[test]
fn texture_arrays_multisampling_and_depth_comparisons() {
    let src = r#"
Texture2DArray<float4> TA : register(t0);
TextureCubeArray<float> TCA : register(t1);
Texture2DMS<float4, 4> TMS : register(t2);
Texture2DMSArray<uint2> TMSA : register(t3);
Texture1DArray<int> T1A : register(t4);
Texture2D<float> Depth : register(t5);
RWTexture2DArray<float4> RWA : register(u0);
SamplerState S : register(s0);
SamplerComparisonState C : register(s1);
float4 main(float4 p : SV_Position) : SV_Target {
    uint status, w, h, e, n, levels;
    float4 r = TA.Sample(S, p.xyz, int2(1, 2), 0.5, status);
    r += TA.SampleBias(S, p.xyz, 1.0);
    r += TA.SampleGrad(S, p.xyz, p.xy, p.zw, int2(0, 1));
    r += TCA.SampleLevel(S, p, 2.0);
    r += Depth.SampleCmp(C, p.xy, 0.5);
    r += Depth.SampleCmpLevelZero(C, p.xy, 0.5, int2(1, 1));
    r += TA.GatherGreen(S, p.xyz, int2(1, 2), int2(3, 4), int2(5, 6), int2(7, 8));
    r += TA.GatherRed(S, p.xyz, int2(1, 2), int2(p.xy), int2(1, 2), int2(3, 4));
    r += Depth.GatherCmp(C, p.xy, 0.5, int2(p.xy));
    r += TMS.Load(int2(1, 2), 3);
    r += TMSA.Load(int3(1, 2, 3), 1, int2(1, 1), status).xyxy;
    r += T1A.Load(int3(1, 2, 0));
    r += RWA.Load(int3(1, 2, 3)) + RWA[int3(3, 2, 1)];
    r += TA.mips[2][int3(1, 2, 3)] + TMS.sample[1][int2(4, 5)];
    r.x += TA.CalculateLevelOfDetail(S, p.xy) + TA.CalculateLevelOfDetailUnclamped(S, p.xy);
    TA.GetDimensions(1, w, h, e, levels);
    float fw, fh, fn;
    TMS.GetDimensions(fw, fh, fn);
    TMSA.GetDimensions(w, h, e, n);
    TCA.GetDimensions(w, h, e);
    return r + w + h + e + n + levels + fw + fh + fn;
}
"#;
    let dis = disassemble(&check("tex_arrays", src, "ps_6_0"));
    for cap in [
        "SampledCubeArray",
        "MinLod",
        "SparseResidency",
        "ImageGatherExtended",
        "ImageQuery",
        "Sampled1D",
    ] {
        assert!(
            dis.contains(&format!("OpCapability {cap}\n")),
            "{cap}: {dis}"
        );
    }
    for want in [
        "OpTypeImage %float 2D 2 1 0 1 Unknown",
        "OpTypeImage %float Cube 2 1 0 1 Unknown",
        "OpTypeImage %float 2D 2 0 1 1 Unknown",
        "OpTypeImage %uint 2D 2 1 1 1 Unknown",
        "OpTypeImage %int 1D 2 1 0 1 Unknown",
        "OpTypeImage %float 2D 2 1 0 2 Rgba32f",
        "OpTypeStruct %uint %v4float",
        "OpImageSparseSampleImplicitLod %SparseResidencyStruct",
        "ConstOffset|MinLod",
        "OpImageSampleImplicitLod %v4float",
        "Bias %float_1",
        "Grad|ConstOffset",
        "OpImageSampleExplicitLod %v4float",
        "Lod %float_2",
        "OpImageSampleDrefImplicitLod %float",
        "OpImageSampleDrefExplicitLod %float",
        "Lod|ConstOffset %float_0",
        "ConstOffsets",
        "OpImageDrefGather %v4float",
        "Sample %int_3",
        "OpImageSparseFetch",
        "ConstOffset|Sample",
        "OpImageRead %v4float",
        "OpImageQueryLod %v2float",
        "OpImageQuerySizeLod %v3uint",
        "OpImageQueryLevels %uint",
        "OpImageQuerySize %v2uint",
        "OpImageQuerySamples %uint",
        "OpConvertUToF %float",
    ] {
        assert!(dis.contains(want), "{want}: {dis}");
    }
    // GatherGreen takes channel 1; four variable offsets are four gathers, one texel each.
    assert!(dis.contains("%int_1 ConstOffsets"), "{dis}");
    assert_eq!(dis.matches("%int_0 Offset ").count(), 4, "{dis}");
    // `.mips[2]` fetches at level 2, `.sample[1]` sample 1.
    assert!(dis.contains("Lod %uint_2"), "{dis}");
    assert!(dis.contains("Sample %uint_1"), "{dis}");
}

#[test]
fn sampled_textures_are_combined_image_samplers() {
    let src = r#"
vk::SampledTexture2D<float4> T : register(t0);
vk::SampledTextureCUBEArray TC : register(t1);
vk::SampledTexture2DArray<uint> TU : register(t2);
float4 main(float4 p : SV_Position) : SV_Target {
    uint w, h, levels;
    float4 r = T.Sample(p.xy) + T.SampleLevel(p.xy, 1.0, int2(1, 1));
    r += TC.SampleLevel(p, 0.5) + T.Load(int3(1, 2, 0)) + T.Gather(p.xy);
    r += T.SampleCmp(p.xy, 0.5) + TU.Load(int4(1, 2, 3, 0));
    r.x += T.CalculateLevelOfDetail(p.xy);
    T.GetDimensions(0, w, h, levels);
    return r + w + h + levels;
}
"#;
    let dis = disassemble(&check("sampled_tex", src, "ps_6_0"));
    assert!(
        dis.contains("OpTypeImage %float 2D 0 0 0 1 Unknown"),
        "{dis}"
    );
    assert!(
        dis.contains("OpTypeImage %float Cube 0 1 0 1 Unknown"),
        "{dis}"
    );
    assert!(
        dis.contains("OpTypeImage %uint 2D 0 1 0 1 Unknown"),
        "{dis}"
    );
    assert_eq!(dis.matches("OpTypeSampledImage").count(), 3, "{dis}");
    // The variables hold sampled images: sampling uses them directly, image reads and queries
    // take their image out.
    assert!(!dis.contains("OpSampledImage "), "{dis}");
    assert!(!dis.contains("OpTypeSampler"), "{dis}");
    assert_eq!(dis.matches("OpImage %").count(), 3, "{dis}");
    assert!(dis.contains("OpImageSampleDrefImplicitLod %float"), "{dis}");
    assert!(dis.contains("OpCapability SampledCubeArray\n"), "{dis}");
}

#[test]
fn texture_methods_in_compute_and_vertex_shaders() {
    let src = r#"
Texture2DArray<float4> TA : register(t0);
vk::SampledTexture2D<float4> ST : register(t1);
TextureCube<float4> TC : register(t2);
SamplerState S : register(s0);
RWStructuredBuffer<float4> Out : register(u0);
[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint w, h, e, levels;
    TA.GetDimensions(0, w, h, e, levels);
    float4 r = TA.SampleLevel(S, float3(0.5, 0.5, id.x), 0) + TA.Load(int4(id.x, 0, 1, 0));
    r += TA.Gather(S, float3(0.5, 0.5, 1)) + ST.SampleLevel(float2(0.5, 0.5), 0);
    r += ST.Gather(float2(0.5, 0.5), int2(1, 0)) + TC.SampleGrad(S, float3(1, 0, 0), 0, 0);
    Out[id.x] = r + w + h + e + levels;
}
"#;
    let dis = disassemble(&check("tex_cs", src, "cs_6_0"));
    assert!(dis.contains("OpImageSampleExplicitLod"), "{dis}");
    assert!(dis.contains("OpImageGather"), "{dis}");
    // Implicit LODs need derivatives: refused outside pixel shaders.
    let vs = "Texture2DArray T; SamplerState S;\nfloat4 main(float3 uv : UV) : SV_Position { return T.Sample(S, uv); }";
    assert!(
        errors(vs, "vs_6_0").contains(
            "bad.hlsl:2:52: error: sampling with implicit lod is only allowed in fragment and compute shaders"
        ),
        "{}",
        errors(vs, "vs_6_0")
    );
    // In compute shaders from shader model 6.6 (`compute_shader_derivatives`).
    let cs = "Texture2D T; SamplerState S; RWBuffer<float> B;\n[numthreads(1, 1, 1)] void main() { B[0] = T.SampleBias(S, 0.5, 1).x; }";
    assert!(errors(cs, "cs_6_0")
        .contains("'SampleBias' in a compute shader needs shader model 6.6 or above"));
    let cs = "Texture2D T; SamplerState S; RWBuffer<float> B;\n[numthreads(1, 1, 1)] void main() { B[0] = T.CalculateLevelOfDetail(S, 0.5); }";
    assert!(errors(cs, "cs_6_6").contains("derivatives in a compute shader need numthreads"));
}

#[test]
fn texture_method_misuse_is_reported() {
    let cases = [
        (
            "Texture2D<float> T; SamplerState S;\nfloat4 main(float2 uv : UV) : SV_Target { return T.SampleCmp(S, uv, 0.5); }",
            "must be a SamplerComparisonState",
        ),
        (
            "Texture2D<float> T; SamplerComparisonState S;\nfloat4 main(float2 uv : UV) : SV_Target { return T.GatherCmpGreen(S, uv, 0.5); }",
            "no equivalent for GatherCmpGreen intrinsic method in Vulkan",
        ),
        (
            "TextureCube T; SamplerState S;\nfloat4 main(float3 uv : UV) : SV_Target { return T.Sample(S, uv, int3(1, 1, 1), 0.5, 1); }",
            "wrong number of arguments to 'Sample'",
        ),
        (
            "TextureCube T;\nfloat4 main(float3 uv : UV) : SV_Target { return T.Load(int4(1, 1, 1, 0)); }",
            "no method 'Load' on cube textures",
        ),
        (
            "TextureCube T;\nfloat4 main(float3 uv : UV) : SV_Target { return T.mips[0][int3(1, 1, 1)]; }",
            "this texture has no member '.mips'",
        ),
        (
            "Texture2DMS<float4> T; SamplerState S;\nfloat4 main(float2 uv : UV) : SV_Target { return T.SampleLevel(S, uv, 0); }",
            "no method 'SampleLevel' on this texture",
        ),
        (
            "Texture2D T; SamplerComparisonState S;\nfloat4 main(float2 uv : UV) : SV_Target { return T.SampleCmpLevel(S, uv, 0.5, 0); }",
            "'SampleCmpLevel' needs shader model 6.7 or above",
        ),
        (
            "Texture2D T; SamplerState S;\nfloat4 main(float2 uv : UV, int2 o : O) : SV_Target { return T.SampleLevel(S, uv, 0, o); }",
            "a texel offset outside a gather must be a constant",
        ),
        (
            "Texture2DMSArray<float4> T;\nfloat4 main(float2 uv : UV) : SV_Target { return T[int3(0, 0, 0)]; }",
            "a Texture2DMSArray cannot be indexed (use Load)",
        ),
        (
            "Texture2DMS<float4> T;\nfloat4 main(float2 uv : UV) : SV_Target { T[int2(0, 0)] = 1; return 0; }",
            "cannot write to a read-only resource",
        ),
        (
            "Texture2DMS<float4> T;\nfloat4 main(float2 uv : UV) : SV_Target { return T.GetSamplePosition(1, 2).xyxy; }",
            "wrong number of arguments to 'GetSamplePosition'",
        ),
    ];
    for (src, want) in cases {
        let e = errors(src, "ps_6_0");
        assert!(e.contains(want), "{want}:\n{e}");
    }
}

/// A semantic on a struct-typed parameter or return value overrides its fields' semantics,
/// the index counting up through the flattened fields (as DXC); SV_Position must be a float4.
#[test]
fn struct_semantics_are_inherited() {
    let src = "struct P { float4 x; };
               struct V { float4 a : A; float2 b : B; };
               P main(V v : TEXCOORD3) : SV_Position { P p; p.x = v.a + v.b.xyxy; return p; }";
    let dis = disassemble(&check("inherited_semantics", src, "vs_6_0"));
    for want in [
        "OpDecorate %gl_Position BuiltIn Position",
        "OpName %in_var_TEXCOORD3 \"in.var.TEXCOORD3\"",
        "OpName %in_var_TEXCOORD4 \"in.var.TEXCOORD4\"",
    ] {
        assert!(dis.contains(want), "{want}:\n{dis}");
    }
    for ty in ["double4", "int4", "float3", "float1x4"] {
        let e = errors(
            &format!("struct P {{ {ty} x; }}; P main() : SV_Position {{ P p = (P)0; return p; }}"),
            "vs_6_0",
        );
        assert!(
            e.contains("SV_Position must be a 4-component 32-bit float"),
            "{ty}: {e}"
        );
    }
}

const INLINE_SPIRV: &str = r#"
template <typename R> [[vk::ext_instruction(128)]] R spv_iadd(R a, R b);
template <typename R> [[vk::ext_instruction(127)]] R spv_fneg(R a);
template <typename R, typename A> [[vk::ext_instruction(124)]] R spv_bitcast(A a);

template <class T> class Ops;
template <> class Ops<int> {
    template <class R, class S> static R Add(S a, S b) { return spv_iadd<R>(a, b); }
};
template <> class Ops<float> {
    template <class R, class S> static R Neg(S a) { return spv_fneg<R>(a); }
};

RWStructuredBuffer<int> In : register(u0);
RWStructuredBuffer<uint> Out : register(u1);

[numthreads(1, 1, 1)]
void main() {
    int s = Ops<int>::Add<int>(In[0], In[1]);
    float f = Ops<float>::Neg<float>((float)s);
    Out[0] = spv_bitcast<uint>(f);
    Out[1] = spv_bitcast<uint, int>(Ops<int>::Add<int>(s, -10));
}
"#;

#[test]
fn explicit_specializations_member_templates_and_inline_spirv() {
    let words = check("inline_spirv", INLINE_SPIRV, "cs_6_0");
    let dis = disassemble(&words);
    for want in ["OpIAdd %int", "OpFNegate %float", "OpBitcast %uint"] {
        assert!(dis.contains(want), "missing {want}:\n{dis}");
    }
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1, 1, 1], "buffers": [
                {"binding": 0, "layout": ["i32"], "data": [5, 2]},
                {"binding": 1, "layout": ["u32"], "size_words": 2}]}"#;
        let want = vec![(-7.0f32).to_bits(), (-3i32) as u32];
        assert_eq!(run::words(&run::lavapipe(&words, job), 1), want);
        assert_eq!(run::words(&run::spvkit(&words, job), 1), want);
    }
}

#[test]
fn missing_specializations_and_unknown_opcodes_are_errors() {
    let e = errors(
        r#"
template <class T> class Sel;
template <> class Sel<int> { template <class R> static R Get(R a) { return a; } };
RWStructuredBuffer<float> Out : register(u0);
[numthreads(1, 1, 1)] void main() { Out[0] = Sel<float>::Get<float>(1.0); }
"#,
        "cs_6_0",
    );
    assert!(
        e.contains("implicit instantiation of undefined template 'Sel<float>'"),
        "{e}"
    );
    let e = errors(
        r#"
template <typename R> [[vk::ext_instruction(9999)]] R nothing(R a);
RWStructuredBuffer<float> Out : register(u0);
[numthreads(1, 1, 1)] void main() { Out[0] = nothing<float>(1.0); }
"#,
        "cs_6_0",
    );
    assert!(
        e.contains("no SPIR-V instruction has the opcode 9999"),
        "{e}"
    );
    assert!(e.contains(":2:"), "{e}");
}

const SPECIALIZATION_KEYS: &str = r#"
template <class T> struct Sel { static int f() { return 1; } };
template <> struct Sel<uint> { static int f() { return 2; } };
template <> struct Sel<vector<float, 3> > { static int f() { return 3; } };
typedef uint32_t MyU;
template <class T> int g() { return Sel<T>::f(); }
RWStructuredBuffer<int> Out : register(u0);
[numthreads(1, 1, 1)] void main() {
    Out[0] = Sel<int>::f();
    Out[1] = Sel<MyU>::f();
    Out[2] = g<dword>();
    Out[3] = Sel<float3>::f();
}
"#;

#[test]
fn specializations_match_through_typedefs_and_aliases() {
    let words = check("specialization_keys", SPECIALIZATION_KEYS, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1, 1, 1], "buffers": [
                {"binding": 0, "layout": ["i32"], "size_words": 4}]}"#;
        assert_eq!(run::ints(&run::lavapipe(&words, job), 0), vec![1, 2, 2, 3]);
        assert_eq!(run::ints(&run::spvkit(&words, job), 0), vec![1, 2, 2, 3]);
    }
    let _ = words;
}

const OPCODE_SELECTOR_USE: &str = r#"
#include <vk/opcode_selector.h>
RWStructuredBuffer<float> F : register(u0);
RWStructuredBuffer<int> I : register(u1);
[numthreads(1, 1, 1)] void main() {
    F[0] = vk::util::ArithmeticSelector<float>::Add(F[1], F[2]);
    I[0] = vk::util::ArithmeticSelector<int>::Div<int>(I[1], I[2]);
    I[3] = vk::util::ArithmeticSelector<int>::Negate(I[1]);
    uint u = vk::util::ArithmeticSelector<uint>::Div(5u, 2u);
    F[3] = vk::util::ConversionSelector<uint, float>::Convert<float>(u);
}
"#;

/// DXC's `vk/opcode_selector.h` (from the conformance suite's include directory): its
/// selectors match `int`/`uint` to their `int32_t`/`uint32_t` specializations.
#[test]
fn dxc_opcode_selector_header_selects_and_runs() {
    let mut o = options("cs_6_0", TargetEnv::Vulkan1_0, LanguageVersion::V2021);
    o.include_dirs
        .push(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance/dxc/include"));
    if !o.include_dirs[0].join("vk/opcode_selector.h").exists() {
        eprintln!(
            "skipped: no DXC include directory at {:?}",
            o.include_dirs[0]
        );
        return;
    }
    let words = compile_with("opcode_selector_use", OPCODE_SELECTOR_USE, &o);
    spirv_val("opcode_selector_use", &words, TargetEnv::Vulkan1_0);
    let dis = disassemble(&words);
    for want in ["OpFAdd", "OpSDiv", "OpSNegate", "OpUDiv", "OpConvertUToF"] {
        assert!(dis.contains(want), "missing {want}:\n{dis}");
    }
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1, 1, 1], "buffers": [
                {"binding": 0, "layout": ["f32"], "data": [0.0, 1.5, 2.25, 0.0]},
                {"binding": 1, "layout": ["i32"], "data": [0, -7, 2, 0]}]}"#;
        for out in [run::lavapipe(&words, job), run::spvkit(&words, job)] {
            assert_eq!(run::floats(&out, 0), vec![3.75, 1.5, 2.25, 2.0]);
            assert_eq!(run::ints(&out, 1), vec![-3, -7, 2, 7]);
        }
    }
}

/// Declarations in `if`, `while` and `for` conditions: the variable is visible in both
/// branches (or the body) and tested each iteration; `continue` still runs the step.
#[test]
fn declarations_in_conditions() {
    let src = "RWStructuredBuffer<int> o : register(u0);
               [numthreads(1, 1, 1)]
               void main() {
                   if (int k = 5) { o[0] = k; } else { o[0] = -1; }
                   if (int z = 0) { o[1] = 1; } else { o[1] = z + 2; }
                   int i = 3, sum = 0;
                   while (int j = i) { sum += j; i--; }
                   o[2] = sum;
                   int t = 0;
                   for (int a = 0; int b = 4 - a; a++) { if (b == 2) continue; t += b; }
                   o[3] = t;
               }";
    let words = check("condition_declarations", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["i32"], "size_words": 4}]}"#;
        let want = [5u32, 2, 6, 8];
        assert_eq!(run::words(&run::lavapipe(&words, job), 0), want);
        assert_eq!(run::words(&run::spvkit(&words, job), 0), want);
    }
    let e = errors(
        "[numthreads(1, 1, 1)] void main() { if (int k) { } }",
        "cs_6_0",
    );
    assert!(
        e.contains("to initialize the variable declared in a condition"),
        "{e}"
    );
}

/// Structs defined inside structs and cbuffers (named or anonymous, with declarators or not)
/// are declared before the enclosing declaration; their declarators are members.
#[test]
fn nested_struct_definitions() {
    let src = "cbuffer C : register(b0) {
                   struct X { float4 a; float b; } x1;
                   struct { float2 c; } y1;
               };
               struct Outer {
                   int k;
                   struct { int p; int q; } inner[2];
                   struct Named { float z; } named;
               };
               RWStructuredBuffer<float> o : register(u1);
               [numthreads(1, 1, 1)]
               void main() {
                   Outer t; t.k = 1; t.inner[1].q = 7; t.inner[0].p = 2; t.named.z = 0.5;
                   Named n = t.named;
                   X copy = x1;
                   o[0] = t.inner[1].q + t.inner[0].p + n.z + t.k;
                   o[1] = x1.b + y1.c.y + copy.a.x;
               }";
    let words = check("nested_structs", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        // cbuffer: x1.a (16 bytes), x1.b at 16, y1 at 32 (c.y at 36).
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "kind": "uniform", "layout": ["f32"],
             "data": [1, 0, 0, 0, 2, 0, 0, 0, 0, 4, 0, 0]},
            {"binding": 1, "layout": ["f32"], "size_words": 2}]}"#;
        let want = [10.5f32, 7.0];
        assert_eq!(run::floats(&run::lavapipe(&words, job), 1), want);
        assert_eq!(run::floats(&run::spvkit(&words, job), 1), want);
    }
}

/// Matrices and arrays cross stages as DXC passes them: one location per SPIR-V column
/// (an HLSL `RxC` matrix is R vectors of C) or element; bool matrices are refused.
#[test]
fn matrix_and_array_stage_variables() {
    let src = "struct VIn { float3 p : POSITION; float4x3 m : TEXCOORD4; float2 a[3] : COLOR; \
                            float4 t : TEXCOORD9; };
               float4 main(VIn v) : SV_Position { return float4(v.m[3] + v.a[2].x, v.t.x); }";
    let dis = disassemble(&check("stage_matrix", src, "vs_6_0"));
    for want in [
        "OpDecorate %in_var_POSITION Location 0",
        "OpDecorate %in_var_TEXCOORD4 Location 1",
        "OpDecorate %in_var_COLOR Location 5",
        "OpDecorate %in_var_TEXCOORD9 Location 8",
        "%in_var_TEXCOORD4 = OpVariable %_ptr_Input_mat4v3float Input",
    ] {
        assert!(dis.contains(want), "missing {want}:\n{dis}");
    }
    let e = errors(
        "float4 main(bool2x2 b : B) : SV_Position { return b[0].x; }",
        "vs_6_0",
    );
    assert!(
        e.contains("not supported yet: stage variables of type 'bool2x2'"),
        "{e}"
    );
}

/// What `sizeof`, flat conversions and `switch` refuse, with the place.
#[test]
fn sizeof_casts_and_switch_errors() {
    let e = errors(
        "RWStructuredBuffer<uint> o; [numthreads(1,1,1)] void main() { o[0] = sizeof(o); }",
        "cs_6_0",
    );
    assert!(
        e.contains("1:70: error: invalid application of 'sizeof' to the resource 'o'"),
        "{e}"
    );
    let e = errors(
        "struct S { float4 a; float b; }; RWStructuredBuffer<float> o; \
         [numthreads(1,1,1)] void main() { float4 v = o[0]; S s = (S)v; o[1] = s.b; }",
        "cs_6_0",
    );
    assert!(e.contains("cannot convert from 'float4' to 'S'"), "{e}");
    let e = errors(
        "RWStructuredBuffer<uint> o; [numthreads(1,1,1)] void main() { \
         switch (o[0]) { case 1: while (o[2] > 0) { case 2: o[1] = 1; } break; } }",
        "cs_6_0",
    );
    assert!(
        e.contains("not supported yet: a 'case' label inside a statement nested in the switch"),
        "{e}"
    );
    // A non-const local or a variable shadowing a constant does not size an array.
    let e = errors(
        "static const uint n = 2; RWStructuredBuffer<uint> o; [numthreads(1,1,1)] void main() \
         { uint n = o[0]; float a[n]; o[1] = a[0]; }",
        "cs_6_0",
    );
    assert!(
        e.contains("array size must be an integer constant expression"),
        "{e}"
    );
}

/// `Load<T>` of a matrix reads it column by column, as DXC; with
/// `-fspv-use-legacy-buffer-matrix-order` row by row. `Store<T>` writes the same order back.
#[test]
fn templated_raw_buffer_matrix_order() {
    let src = "ByteAddressBuffer b : register(t1); RWByteAddressBuffer o : register(u0);
               [numthreads(1, 1, 1)]
               void main() {
                   float2x3 m = b.Load<float2x3>(0);
                   o.Store(0, m._m01);
                   o.Store<float2x3>(4, m);
               }";
    let mut opts = options("cs_6_0", TargetEnv::Vulkan1_0, LanguageVersion::V2021);
    let column = compile_with("raw_matrix_column", src, &opts);
    spirv_val("raw_matrix_column", &column, TargetEnv::Vulkan1_0);
    opts.legacy_buffer_matrix_order = true;
    let row = compile_with("raw_matrix_row", src, &opts);
    spirv_val("raw_matrix_row", &row, TargetEnv::Vulkan1_0);
    assert_ne!(column, row);
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 1, "layout": ["f32"], "data": [1, 2, 3, 4, 5, 6]},
            {"binding": 0, "layout": ["f32"], "size_words": 7}]}"#;
        // Column-major storage: m = [[1, 3, 5], [2, 4, 6]], so _m01 = 3; stored back as read.
        let want = [3.0f32, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        assert_eq!(run::floats(&run::lavapipe(&column, job), 0), want);
        assert_eq!(run::floats(&run::spvkit(&column, job), 0), want);
        // Row-major: m = [[1, 2, 3], [4, 5, 6]], so _m01 = 2.
        let want = [2.0f32, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        assert_eq!(run::floats(&run::lavapipe(&row, job), 0), want);
        assert_eq!(run::floats(&run::spvkit(&row, job), 0), want);
    }
    let e = errors(
        "ByteAddressBuffer b; RWStructuredBuffer<float> o;
         [numthreads(1, 1, 1)] void main() { uint s; o[0] = b.Load<float>(0, s); }",
        "cs_6_0",
    );
    assert!(
        e.contains("not supported yet: Load<T> with a residency status"),
        "{e}"
    );
}

// ---- name resolution: member types, static members, templates (names branch) ----------------

/// A static member read through an object is the static (`s.a` is `S::a`), also when the object
/// is a push-constant block, whose type is a copy of `S`.
#[test]
fn static_member_through_push_constant_block() {
    let src = "struct S { const static uint a = 7; uint b; };
               [[vk::push_constant]] S s;
               RWStructuredBuffer<uint> o;
               [numthreads(1, 1, 1)]
               void main() { o[0] = s.a; o[1] = S::a + s.b; }";
    let words = check("static_through_push_constant", src, "cs_6_0");
    let dis = disassemble(&words);
    // The block has only `b`; `a` is the constant 7.
    assert!(
        dis.contains("OpMemberName %type_PushConstant_S 0 \"b\""),
        "{dis}"
    );
    assert!(
        !dis.contains("OpMemberName %type_PushConstant_S 1"),
        "{dis}"
    );
    assert!(dis.contains("OpConstant %uint 7"), "{dis}");
}

/// Member types: a nested struct is `Outer::Inner`, an enum inside a struct gives the member
/// type `S::E` and the static members `S::A` (and `S::E::A`), a `typedef` inside a struct is
/// `S::T`; a name from the file scope is written `::N`.
#[test]
fn member_types_and_nested_statics() {
    let src = "struct A {
                   struct B { static const uint value = 6u; };
                   enum Mode { Off, On = 5, Next };
                   typedef float2 Pair;
                   static const Mode initial = On;
                   Pair p;
               };
               enum Number { Zero, One };
               static ::Number one = One;
               RWStructuredBuffer<int> o;
               A::Mode pick(A::Mode m) { return m == A::On ? A::Mode::Next : A::Off; }
               [numthreads(1, 1, 1)]
               void main() {
                   o[0] = A::B::value;
                   o[1] = pick(A::initial);
                   A a; a.p = A::Pair(1, 2);
                   A::Pair q = a.p;
                   o[2] = (int)q.y;
                   ::Number n = one;
                   o[3] = n;
               }";
    let words = check("member_types", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["i32"], "size_words": 4}]}"#;
        let want = [6u32, 6, 2, 1];
        assert_eq!(run::words(&run::lavapipe(&words, job), 0), want);
        assert_eq!(run::words(&run::spvkit(&words, job), 0), want);
    }
    // Member types are not visible outside their struct unqualified.
    let e = errors(
        "struct S { enum E { X }; };
         [numthreads(1, 1, 1)] void main() { E e = S::X; }",
        "cs_6_0",
    );
    assert!(e.contains("bad.hlsl:2:46"), "{e}");
}

/// Function declarations inside function bodies (a plain function's and a method's) declare the
/// file-level function that is defined later.
#[test]
fn function_declarations_inside_functions() {
    let src = "struct Foo {
                   float k;
                   float scaled() { float mulBy3(float f); return mulBy3(k); }
               };
               RWStructuredBuffer<float> o;
               [numthreads(1, 1, 1)]
               void main() {
                   float mulBy2(float f);
                   Foo foo; foo.k = 1.5;
                   o[0] = mulBy2(0.25);
                   o[1] = foo.scaled();
               }
               float mulBy2(float f) { return f * 2; }
               float mulBy3(float f) { return f * 3; }";
    let words = check("local_function_declarations", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["f32"], "size_words": 2}]}"#;
        let want = [0.5f32, 4.5];
        assert_eq!(run::floats(&run::lavapipe(&words, job), 0), want);
        assert_eq!(run::floats(&run::spvkit(&words, job), 0), want);
    }
    let e = errors(
        "[numthreads(1, 1, 1)] void main() { float f(float x) { return x; } }",
        "cs_6_0",
    );
    assert!(
        e.contains("bad.hlsl:1:43") && e.contains("not allowed inside a function"),
        "{e}"
    );
}

/// A function defined inside a cbuffer is an ordinary function that reads the block's members.
#[test]
fn functions_defined_inside_a_cbuffer() {
    let src = "cbuffer C : register(b0) {
                   float4 scale;
                   float4 scaled(float4 v) { return v * scale; }
               };
               RWStructuredBuffer<float4> o : register(u1);
               [numthreads(1, 1, 1)]
               void main() { o[0] = scaled(float4(1, 2, 3, 4)); }";
    let words = check("cbuffer_functions", src, "cs_6_0");
    let dis = disassemble(&words);
    assert!(dis.contains("%type_C = OpTypeStruct %v4float"), "{dis}");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "kind": "uniform", "layout": ["f32"], "data": [2, 3, 4, 5]},
            {"binding": 1, "layout": ["f32"], "size_words": 4}]}"#;
        let want = [2.0f32, 6.0, 12.0, 20.0];
        assert_eq!(run::floats(&run::lavapipe(&words, job), 1), want);
        assert_eq!(run::floats(&run::spvkit(&words, job), 1), want);
    }
}

/// An anonymous enum declares only its enumerators, of its underlying type (`uint` here, so
/// `UB - 3` wraps instead of being negative).
#[test]
fn anonymous_enums_have_their_underlying_type() {
    let src = "enum : uint { UA = 1, UB };
               enum { SA = -3 };
               RWStructuredBuffer<float> o;
               [numthreads(1, 1, 1)]
               void main() { o[0] = UA; o[1] = SA; o[2] = (UB - 3) > 0 ? 1 : 0; }";
    let words = check("anonymous_enums", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["f32"], "size_words": 3}]}"#;
        let want = [1.0f32, -3.0, 1.0];
        assert_eq!(run::floats(&run::lavapipe(&words, job), 0), want);
        assert_eq!(run::floats(&run::spvkit(&words, job), 0), want);
    }
}

/// Partial specializations of struct templates are chosen by matching their pattern against the
/// arguments however spelled (`float32_t4x4` is `matrix<float, 4, 4>`); `S<args>::m` names a
/// static member; a value parameter may have a parameter as its type, and an alias template
/// passes its own value parameter on.
#[test]
fn partial_specializations_and_scoped_static_members() {
    let src = "template <typename M> struct traits { static const uint rows = 0; };
               template <typename T, int N, int K> struct traits<matrix<T, N, K> > {
                   static const uint rows = N; static const uint cols = K;
               };
               template <typename T, int N> struct traits<vector<T, N> > {
                   static const uint rows = 100 + N;
               };
               template <typename M> uint count() { return traits<M>::rows * traits<M>::cols; }
               template <class T, T v> struct constant { static const T value = v; };
               template <int v> using int_constant = constant<int, v>;
               RWStructuredBuffer<uint> o;
               [numthreads(1, 1, 1)]
               void main() {
                   o[0] = count<float32_t4x4>();
                   o[1] = count<float3x2>();
                   o[2] = traits<float3>::rows;
                   o[3] = traits<float>::rows;
                   int_constant<9> nine;
                   o[4] = nine.value + int_constant<-2>::value;
               }";
    let words = check("partial_specializations", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["i32"], "size_words": 5}]}"#;
        let want = [16u32, 6, 103, 0, 7];
        assert_eq!(run::words(&run::lavapipe(&words, job), 0), want);
        assert_eq!(run::words(&run::spvkit(&words, job), 0), want);
    }
    let e = errors(
        "template <typename A, typename B> struct P { };
         template <typename T> struct P<T, T> { static const int v = 1; };
         template <typename T> struct P<T, int> { static const int v = 2; };
         RWStructuredBuffer<int> o;
         [numthreads(1, 1, 1)] void main() { o[0] = P<int, int>::v; }",
        "cs_6_0",
    );
    assert!(
        e.contains("bad.hlsl:5:53") && e.contains("most specialized"),
        "{e}"
    );
}

/// A constant static member declared in a struct and never defined has no value: a use is an
/// error (as in DXC), not a zero.
#[test]
fn undefined_constant_static_member_is_an_error() {
    let e = errors(
        "template <uint N> struct G { const static float w[N]; };
         float main() : SV_Target { return G<2>::w[1]; }",
        "ps_6_0",
    );
    assert!(
        e.contains("bad.hlsl:2:44") && e.contains("'G<2>::w' is used but never defined"),
        "{e}"
    );
}

/// `-fspv-use-vulkan-memory-model`: the Vulkan memory model as DXC writes it (spirv-opt's
/// upgrade): coherent buffer accesses visible/available at queue-family scope, groupshared
/// ones at workgroup scope, atomics at queue-family instead of device scope, no Coherent
/// decoration; the shader computes the same on lavapipe and under `spvkit run`.
#[test]
fn vulkan_memory_model() {
    let src = "globallycoherent RWStructuredBuffer<uint> Out : register(u0);
               groupshared uint sums[4];
               [numthreads(4, 1, 1)]
               void main(uint3 id : SV_GroupThreadID) {
                   sums[id.x] = id.x * 10;
                   GroupMemoryBarrierWithGroupSync();
                   uint prev;
                   InterlockedAdd(Out[0], sums[3 - id.x], prev);
                   Out[1 + id.x] = sums[(id.x + 1) % 4] + 1;
               }";
    let mut o = options("cs_6_0", TargetEnv::Vulkan1_2, LanguageVersion::V2021);
    o.vulkan_memory_model = true;
    let words = compile_with("vmm", src, &o);
    spirv_val("vmm", &words, TargetEnv::Vulkan1_2);
    let dis = disassemble(&words);
    for want in [
        "OpCapability VulkanMemoryModel",
        "OpMemoryModel Logical Vulkan",
        "MakePointerAvailable|NonPrivatePointer %uint_2",
        "MakePointerVisible|NonPrivatePointer %uint_2",
        "MakePointerAvailable|NonPrivatePointer %uint_5",
        "OpAtomicIAdd %uint",
    ] {
        assert!(dis.contains(want), "missing {want}:\n{dis}");
    }
    assert!(!dis.contains("Coherent"), "{dis}");
    assert!(
        dis.lines()
            .filter(|l| l.contains("OpAtomicIAdd"))
            .all(|l| l.contains(" %uint_5 ") && !l.contains(" %uint_1 ")),
        "{dis}"
    );
    // Vulkan 1.0 (SPIR-V 1.0) gets the extension.
    let mut o = options("cs_6_0", TargetEnv::Vulkan1_0, LanguageVersion::V2021);
    o.vulkan_memory_model = true;
    let old = disassemble(&compile_with("vmm10", src, &o));
    assert!(
        old.contains("OpExtension \"SPV_KHR_vulkan_memory_model\""),
        "{old}"
    );
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["u32"], "size_words": 5}]}"#;
        let want = [60u32, 11, 21, 31, 1];
        assert_eq!(run::words(&run::lavapipe(&words, job), 0), want);
        assert_eq!(run::words(&run::spvkit(&words, job), 0), want);
    }
}

/// `printf` is NonSemantic.DebugPrintf (with SPV_KHR_non_semantic_info before SPIR-V 1.6),
/// its format an `OpString` from a literal or a global `string` (one per text); drivers and
/// `spvkit run` skip it and the shader computes as without it.
#[test]
fn printf_and_strings() {
    let src = r#"string fmt = "v = %d";
                 const string again = "v = %d";
                 RWStructuredBuffer<int> o : register(u0);
                 [numthreads(1, 1, 1)]
                 void main() {
                     int v = o[0] + 5;
                     printf(fmt, v);
                     printf("two: %f %u", 1.5f, 2u);
                     o[1] = v;
                 }"#;
    let words = check("printf", src, "cs_6_0");
    let dis = disassemble(&words);
    for want in [
        "OpExtension \"SPV_KHR_non_semantic_info\"",
        "OpExtInstImport \"NonSemantic.DebugPrintf\"",
        "OpString \"two: %f %u\"",
        "%float_1_5 %uint_2",
    ] {
        assert!(dis.contains(want), "missing {want}:\n{dis}");
    }
    assert_eq!(dis.matches("OpString \"v = %d\"").count(), 1, "{dis}");
    assert_eq!(dis.matches("OpExtInst %void").count(), 2, "{dis}");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["i32"], "data": [7, 0]}]}"#;
        assert_eq!(run::ints(&run::lavapipe(&words, job), 0), [7, 12]);
        assert_eq!(run::ints(&run::spvkit(&words, job), 0), [7, 12]);
    }
    let e = errors(
        "RWStructuredBuffer<int> o; [numthreads(1,1,1)] void main() { printf(o[0]); }",
        "cs_6_0",
    );
    assert!(
        e.contains("printf's format must be a string literal or a string variable"),
        "{e}"
    );
    let e = errors(
        "string s = 3; [numthreads(1,1,1)] void main() { printf(s); }",
        "cs_6_0",
    );
    assert!(
        e.contains("1:8: error: the string 's' needs a string literal as its initializer"),
        "{e}"
    );
}

/// Bit-fields in lists of values: an initializer list or `(S)x` sets each bit-field (masked to
/// its width); a flat conversion from such a struct takes the whole holding field per
/// bit-field, as DXC's does.
#[test]
fn bitfield_structs_as_lists_of_values() {
    let src = "struct BF { uint R : 8; uint G : 8; uint B : 8; uint A : 8; };
               struct Two { uint lo : 4; int hi : 4; float f; };
               RWStructuredBuffer<uint> o : register(u0);
               [numthreads(1, 1, 1)]
               void main() {
                   BF bf = { 3, 2, 1, 0x1FF };
                   o[0] = bf.R + bf.G * 10 + bf.B * 100;
                   o[1] = bf.A;
                   BF z = (BF)0;
                   o[2] = z.R + z.A;
                   BF s = (BF)7;
                   o[3] = s.G;
                   Two t = { 5, -3, 2.5 };
                   o[4] = t.lo;
                   o[5] = (uint)(t.hi + 10);
                   o[6] = (uint)t.f;
                   o[7] = (uint)bf;
               }";
    let words = check("bitfield_lists", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["u32"], "size_words": 8}]}"#;
        let want = [123u32, 255, 0, 7, 5, 7, 2, 0xFF01_0203];
        assert_eq!(run::words(&run::lavapipe(&words, job), 0), want);
        assert_eq!(run::words(&run::spvkit(&words, job), 0), want);
    }
}

/// Variable templates (with unnamed parameters and partial specializations) and out-of-line
/// definitions of struct templates' static members.
#[test]
fn variable_templates_and_template_statics() {
    let src = "template <class, class> static const bool is_same_v = false;
               template <class T> static const bool is_same_v<T, T> = true;
               template <typename T> static const T twice_v = (T)2 * 3;
               template <typename T> struct Table { const static T values[3]; };
               template <typename T> const static T Table<T>::values[3] = { 4, 5, 6 };
               RWStructuredBuffer<uint> o : register(u0);
               [numthreads(1, 1, 1)]
               void main() {
                   o[0] = is_same_v<int, bool>;
                   o[1] = is_same_v<int, int>;
                   o[2] = twice_v<uint>;
                   o[3] = Table<uint>::values[2] + Table<int>::values[0];
               }";
    let words = check("variable_templates", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["u32"], "size_words": 4}]}"#;
        let want = [0u32, 1, 6, 10];
        assert_eq!(run::words(&run::lavapipe(&words, job), 0), want);
        assert_eq!(run::words(&run::spvkit(&words, job), 0), want);
    }
    let e = errors(
        "template <class T> struct S { static const T m; };
         template <class T> const static T S<T>::missing = 1;
         [numthreads(1, 1, 1)] void main() {}",
        "cs_6_0",
    );
    assert!(e.contains("no static member named 'missing' in 'S'"), "{e}");
    // Parameters renamed in the definition are not followed yet: refused, not guessed.
    let e = errors(
        "template <class T> struct S { static const T m; };
         template <class U> const static U S<U>::m = 1;
         [numthreads(1, 1, 1)] void main() {}",
        "cs_6_0",
    );
    assert!(
        e.contains("template arguments are not the template's parameters"),
        "{e}"
    );
}

/// `static const` arrays size arrays and fold into constants; `mul(Mx1, 1xN)` is the outer
/// product (the 1xN operand is known from its declaration; both are vectors to the types).
#[test]
fn const_array_sizes_and_outer_product() {
    let src = "static const uint sizes[2] = { 3, 4 };
               static const uint N = sizes[1] * 2;
               RWStructuredBuffer<uint> o : register(u0);
               [numthreads(1, 1, 1)]
               void main() {
                   float a[sizes[1]];
                   uint b[N];
                   a[3] = 1; b[7] = 2;
                   o[0] = a[3] + b[7] + sizeof(b);
                   float3x1 c = float3x1(1, 2, 3);
                   float1x4 r = float1x4(1, 2, 3, 4);
                   float3x4 outer = mul(c, r);
                   o[1] = outer._m21 * 10 + outer._m13;
               }";
    let words = check("const_array_sizes", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["u32"], "size_words": 2}]}"#;
        let want = [35u32, 68];
        assert_eq!(run::words(&run::lavapipe(&words, job), 0), want);
        assert_eq!(run::words(&run::spvkit(&words, job), 0), want);
    }
}

/// `#pragma pack_matrix` gives the declarations after it their majorness (over `-Zpr` or
/// `-Zpc`, under a spelled `row_major`/`column_major`), changing as often as the file says:
/// cbuffer members, struct fields, loose uniforms and structured buffers' matrix elements
/// (`StructuredBuffer<row_major float2x3>` spells it), as DXC decorates them.
#[test]
fn pragma_pack_matrix() {
    let body = "cbuffer C : register(b0) { float2x3 m; float4 v; };
                float4 main() : SV_Target { return float4(m[0], 1) + v; }";
    let dis = |src: &str| disassemble(&check("pack_matrix", src, "ps_6_0"));
    // HLSL row-major is SPIR-V ColMajor (DXC's transposition), and the reverse.
    let plain = dis(body);
    assert!(
        plain.contains("OpMemberDecorate %type_C 0 RowMajor"),
        "{plain}"
    );
    let row = dis(&format!("#pragma pack_matrix(row_major)\n{body}"));
    assert!(row.contains("OpMemberDecorate %type_C 0 ColMajor"), "{row}");
    let back = dis(&format!(
        "#pragma pack_matrix(row_major)\n#pragma pack_matrix(column_major)\n{body}"
    ));
    assert!(
        back.contains("OpMemberDecorate %type_C 0 RowMajor"),
        "{back}"
    );
    let mixed = dis("#pragma pack_matrix(row_major)
                     struct R { float2x3 a; column_major float2x3 b; };
                     StructuredBuffer<R> r;
                     float2x2 g1;
                     #pragma pack_matrix(column_major)
                     struct K { float2x3 a; row_major float2x3 b; };
                     StructuredBuffer<K> k;
                     float2x2 g2;
                     StructuredBuffer<float3x2> sc;
                     StructuredBuffer<row_major float3x3> sr;
                     float4 main() : SV_Target {
                         return r[0].a[0].x + k[0].b[0].x + g1[0].x + g2[0].x + sc[0][0].x
                              + sr[0][0].x;
                     }");
    for want in [
        "OpMemberDecorate %R 0 ColMajor",
        "OpMemberDecorate %R 1 RowMajor",
        "OpMemberDecorate %K 0 RowMajor",
        "OpMemberDecorate %K 1 ColMajor",
        "OpMemberDecorate %type__Globals 0 ColMajor",
        "OpMemberDecorate %type__Globals 1 RowMajor",
        "OpMemberDecorate %type_StructuredBuffer_mat3v2float 0 RowMajor",
        "OpMemberDecorate %type_StructuredBuffer_mat3v3float 0 ColMajor",
    ] {
        assert!(mixed.contains(want), "missing {want}:\n{mixed}");
    }
    let e = errors(
        "StructuredBuffer<row_major float4> b;\nfloat4 main() : SV_Target { return b[0]; }",
        "ps_6_0",
    );
    assert!(
        e.contains("'row_major' and 'column_major' apply to matrices"),
        "{e}"
    );
}

/// `S(x)` is a functional cast, `(S)x`: a scalar set into every field, or a flat conversion.
#[test]
fn struct_functional_casts() {
    let src = "struct One { float f; };
               struct Pair { float a; float b; };
               RWStructuredBuffer<float> o : register(u0);
               [numthreads(1, 1, 1)]
               void main() {
                   One one = One(2.5);
                   Pair p = Pair(float2(3, 4));
                   Pair q = Pair(1);
                   o[0] = one.f + p.b * 10 + q.a * 100;
               }";
    let words = check("functional_casts", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["f32"], "size_words": 1}]}"#;
        assert_eq!(run::floats(&run::lavapipe(&words, job), 0), [142.5f32]);
        assert_eq!(run::floats(&run::spvkit(&words, job), 0), [142.5f32]);
    }
}

/// `D3DCOLORtoUBYTE4` (`int4(c.zyxw * 255.002)`), `asuint(double, out low, out high)`, and
/// `vk::ReadClock(scope)` (OpReadClockKHR, 64 bits, with its capability).
#[test]
fn color_double_split_and_clock_intrinsics() {
    let src = "RWStructuredBuffer<uint> o : register(u0);
               [numthreads(1, 1, 1)]
               void main() {
                   int4 c = D3DCOLORtoUBYTE4(float4(0.5, 0.25, 1.0, 0.0));
                   o[0] = c.x; o[1] = c.y; o[2] = c.z; o[3] = c.w;
                   uint lo, hi;
                   asuint(-2.5l, lo, hi);
                   o[4] = lo; o[5] = hi;
                   uint2 los, his;
                   asuint(double2(1.0, 0.5), los, his);
                   o[6] = his.x; o[7] = his.y;
               }";
    let words = check("color_split", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["u32"], "size_words": 8}]}"#;
        // z, y, x, w scaled by 255.002 and truncated; -2.5 is 0xC004000000000000.
        let want = [255u32, 63, 127, 0, 0, 0xC004_0000, 0x3FF0_0000, 0x3FE0_0000];
        assert_eq!(run::words(&run::lavapipe(&words, job), 0), want);
        assert_eq!(run::words(&run::spvkit(&words, job), 0), want);
    }
    let clock = "RWStructuredBuffer<uint64_t> o : register(u0);
                 [numthreads(1, 1, 1)]
                 void main() { o[0] = vk::ReadClock(vk::SubgroupScope); }";
    let dis = disassemble(&check("read_clock", clock, "cs_6_0"));
    assert!(dis.contains("OpCapability ShaderClockKHR"), "{dis}");
    assert!(dis.contains("OpReadClockKHR %ulong %uint_3"), "{dis}");
}

/// Append/ConsumeStructuredBuffer and RWStructuredBuffer counters: a counter buffer per
/// buffer (`counter.var.<name>`, at `[[vk::counter_binding]]` or the lowest free binding of
/// the buffer's set), atomically incremented or decremented as DXC does; run on lavapipe and
/// under `spvkit run`.
#[test]
fn append_consume_and_counters() {
    let src = "[[vk::binding(0)]] [[vk::counter_binding(1)]] AppendStructuredBuffer<float> Out;
               [[vk::binding(2)]] [[vk::counter_binding(3)]] ConsumeStructuredBuffer<float> In;
               [[vk::binding(4)]] RWStructuredBuffer<uint> Misc;
               [numthreads(1, 1, 1)]
               void main() {
                   for (int i = 0; i < 3; i++) {
                       float v = In.Consume();
                       Out.Append(v * 2);
                   }
                   uint k0 = Misc.IncrementCounter();
                   uint k1 = Misc.IncrementCounter();
                   uint d = Misc.DecrementCounter();
                   Misc[0] = k0 * 100 + k1 * 10 + d;
               }";
    let words = check("append_consume", src, "cs_6_0");
    let dis = disassemble(&words);
    for want in [
        "OpDecorate %counter_var_Misc Binding 5",
        "OpDecorate %counter_var_In Binding 3",
        "%type_AppendStructuredBuffer_float = OpTypeStruct",
    ] {
        assert!(dis.contains(want), "missing {want}:\n{dis}");
    }
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["f32"], "size_words": 4},
            {"binding": 1, "layout": ["i32"], "data": [0]},
            {"binding": 2, "layout": ["f32"], "data": [1, 2, 3, 4]},
            {"binding": 3, "layout": ["i32"], "data": [4]},
            {"binding": 4, "layout": ["u32"], "size_words": 1},
            {"binding": 5, "layout": ["i32"], "data": [5]}]}"#;
        for out in [run::lavapipe(&words, job), run::spvkit(&words, job)] {
            assert_eq!(run::floats(&out, 0), [8.0f32, 6.0, 4.0, 0.0]);
            assert_eq!(run::ints(&out, 1), [3]);
            assert_eq!(run::ints(&out, 3), [1]);
            assert_eq!(run::words(&out, 4), [566]);
            assert_eq!(run::ints(&out, 5), [6]);
        }
    }
    let e = errors(
        "[[vk::counter_binding(1)]] StructuredBuffer<float> b;
         [numthreads(1, 1, 1)] void main() {}",
        "cs_6_0",
    );
    assert!(e.contains("on a resource without a counter"), "{e}");
}

/// `tbuffer` and `TextureBuffer<T>`: read-only storage blocks with the structured-buffer
/// (std430) layout and NonWritable members, as DXC declares them; read on lavapipe and
/// under `spvkit run`.
#[test]
fn tbuffers() {
    let src = "struct T { float3 a; float b; float c[2]; };
               tbuffer Params : register(t0) { float2 scale; float3 bias; };
               TextureBuffer<T> More : register(t1);
               RWStructuredBuffer<float> o : register(u2);
               [numthreads(1, 1, 1)]
               void main() {
                   o[0] = scale.y * 10 + bias.z;
                   o[1] = More.a.y + More.b * 10 + More.c[1] * 100;
               }";
    let words = check("tbuffers", src, "cs_6_0");
    let dis = disassemble(&words);
    for want in [
        "OpDecorate %type_Params BufferBlock",
        "OpMemberDecorate %type_Params 0 NonWritable",
        // std430: a float3 after a float2 is at 16, a float array's stride is 4.
        "OpMemberDecorate %type_Params 1 Offset 16",
        "OpMemberDecorate %type_TextureBuffer_T 2 Offset 16",
    ] {
        assert!(dis.contains(want), "missing {want}:\n{dis}");
    }
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["f32"], "data": [1, 2, 0, 0, 3, 4, 5, 0]},
            {"binding": 1, "layout": ["f32"], "data": [6, 7, 8, 9, 10, 11]},
            {"binding": 2, "layout": ["f32"], "size_words": 2}]}"#;
        let want = [25.0f32, 7.0 + 90.0 + 1100.0];
        assert_eq!(run::floats(&run::lavapipe(&words, job), 2), want);
        assert_eq!(run::floats(&run::spvkit(&words, job), 2), want);
    }
}

/// Fixed-size arrays of resources: one variable (an array of the resource type) at one
/// binding, as DXC; `bufs[i]` picks an element (dynamically uniform index). Arrays of
/// constant buffers or of buffers with counters are refused.
#[test]
fn arrays_of_resources() {
    let src = "RWStructuredBuffer<float> bufs[3] : register(u0);
               RWStructuredBuffer<float> o : register(u1);
               [numthreads(1, 1, 1)]
               void main() {
                   float s = 0;
                   for (uint i = 0; i < 3; i++)
                       s += bufs[i][0] * (i + 1);
                   bufs[2][1] = 7;
                   o[0] = s;
               }";
    let words = check("resource_arrays", src, "cs_6_0");
    let dis = disassemble(&words);
    assert!(dis.contains("OpDecorate %bufs Binding 0"), "{dis}");
    assert!(dis.contains("OpDecorate %o Binding 1"), "{dis}");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "index": 0, "layout": ["f32"], "data": [1, 0]},
            {"binding": 0, "index": 1, "layout": ["f32"], "data": [2, 0]},
            {"binding": 0, "index": 2, "layout": ["f32"], "data": [3, 0]},
            {"binding": 1, "layout": ["f32"], "size_words": 1}]}"#;
        for out in [run::lavapipe(&words, job), run::spvkit(&words, job)] {
            assert_eq!(run::floats(&out, 1), [14.0f32]);
            let third = out
                .buffers
                .iter()
                .find(|b| {
                    b.id == spvkit::run::output::BufferId::ArrayElement {
                        set: 0,
                        binding: 0,
                        index: 2,
                    }
                })
                .map(|b| b.data.bytes.clone())
                .expect("element 2 is in the output");
            let floats: Vec<f32> = third
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
            assert_eq!(floats, [3.0f32, 7.0]);
        }
    }
    // Arrays of push-constant blocks have no meaning: refused.
    let e = errors(
        "struct P { float4 v; }; [[vk::push_constant]] ConstantBuffer<P> cbs[2]; \
         [numthreads(1,1,1)] void main() {}",
        "cs_6_0",
    );
    assert!(
        e.contains("not supported yet: arrays of push-constant blocks"),
        "{e}"
    );
}

/// SV_ClipDistance / SV_CullDistance (DXC's CHECK lines in `spirv.interface.*sv_clipdistance`):
/// every semantic of a direction shares one `float[K]` built-in array, taking consecutive
/// elements in the order of the semantic indices; a vertex input is an ordinary located one.
#[test]
fn clip_and_cull_distances_share_one_array() {
    let vs = "struct O { float4 pos : SV_Position; float2 b : SV_ClipDistance1;
                         float a : SV_ClipDistance0; float3 c : SV_CullDistance0;
                         float2 d[2] : SV_CullDistance1; };
              O main(float k : SV_ClipDistance) {
                  O o = (O)k; return o;
              }";
    let dis = disassemble(&check("clip_vs", vs, "vs_6_0"));
    for want in [
        "OpCapability ClipDistance",
        "OpCapability CullDistance",
        "OpDecorate %gl_ClipDistance BuiltIn ClipDistance",
        "OpDecorate %gl_CullDistance BuiltIn CullDistance",
        // 1 + 2 clip floats; 3 + 2 * 2 cull floats.
        "%gl_ClipDistance = OpVariable %_ptr_Output__arr_float_uint_3 Output",
        "%gl_CullDistance = OpVariable %_ptr_Output__arr_float_uint_7 Output",
        "OpDecorate %in_var_SV_ClipDistance Location 0",
    ] {
        assert!(dis.contains(want), "{want}:\n{dis}");
    }
    let ps = "struct I { float2 b : SV_ClipDistance1; float a : SV_ClipDistance0; };
              float4 main(I i) : SV_Target { return float4(i.b, i.a, 1); }";
    let dis = disassemble(&check("clip_ps", ps, "ps_6_0"));
    assert!(
        dis.contains("%gl_ClipDistance = OpVariable %_ptr_Input__arr_float_uint_3 Input"),
        "{dis}"
    );
    // `b` (index 1) follows `a` (index 0): elements 1 and 2.
    let b = dis.find("%gl_ClipDistance %uint_1").expect(&dis);
    let a = dis.find("%gl_ClipDistance %uint_0").expect(&dis);
    assert!(b < a && dis.contains("%gl_ClipDistance %uint_2"), "{dis}");
    let e = errors(
        "struct O { int3 f[2] : SV_ClipDistance0; };
         O main() { return (O)0; }",
        "vs_6_0",
    );
    assert!(
        e.contains("elements for SV_ClipDistance variable must be scalar, vector, or array"),
        "{e}"
    );
    let e = errors(
        "float4 main(float a : SV_ClipDistance, float b : SV_ClipDistance0) : SV_Target
         { return a + b; }",
        "ps_6_0",
    );
    assert!(e.contains("bad.hlsl:1:"), "{e}");
    assert!(
        e.contains("input semantic 'SV_ClipDistance0' used more than once"),
        "{e}"
    );
}

/// Pixel-shader system values (DXC's `semantic.*.ps` CHECK lines): SampleMask arrays of one
/// uint, flat integer built-ins, FullyCoveredEXT as a bool, FragStencilRefEXT, and
/// conservative depth with its execution modes.
#[test]
fn pixel_shader_system_values() {
    let src = "float4 main(uint cov : SV_Coverage, uint s : SV_SampleIndex,
                          uint p : SV_PrimitiveID, uint l : SV_RenderTargetArrayIndex,
                          uint v : SV_ViewportArrayIndex, uint inner : SV_InnerCoverage,
                          int inst : SV_InstanceID,
                          out uint ocov : SV_Coverage, out uint stencil : SV_StencilRef,
                          out float d : SV_DepthLessEqual) : SV_Target {
                   ocov = cov; stencil = s; d = 0.5;
                   return float4(p + l, v, inner, inst);
               }";
    let dis = disassemble(&check("ps_system_values", src, "ps_6_0"));
    for want in [
        "OpCapability SampleRateShading",
        // MultiViewport implies the Geometry capability Layer and PrimitiveId need.
        "OpCapability MultiViewport",
        "OpCapability FragmentFullyCoveredEXT",
        "OpCapability StencilExportEXT",
        "OpExtension \"SPV_EXT_fragment_fully_covered\"",
        "OpExtension \"SPV_EXT_shader_stencil_export\"",
        "OpExecutionMode %main DepthReplacing",
        "OpExecutionMode %main DepthLess",
        "%gl_SampleMask = OpVariable %_ptr_Input__arr_uint_uint_1 Input",
        "%gl_SampleMask_0 = OpVariable %_ptr_Output__arr_uint_uint_1 Output",
        "OpDecorate %gl_SampleID BuiltIn SampleId",
        "OpDecorate %gl_SampleID Flat",
        "OpDecorate %gl_PrimitiveID BuiltIn PrimitiveId",
        "OpDecorate %gl_Layer BuiltIn Layer",
        "OpDecorate %gl_Layer Flat",
        "OpDecorate %gl_ViewportIndex BuiltIn ViewportIndex",
        "BuiltIn FullyCoveredEXT",
        "OpVariable %_ptr_Input_bool Input",
        "BuiltIn FragStencilRefEXT",
        "OpDecorate %gl_FragDepth BuiltIn FragDepth",
        // SV_InstanceID past the vertex input is an ordinary (flat) located input.
        "OpDecorate %in_var_SV_InstanceID Location 0",
        "OpDecorate %in_var_SV_InstanceID Flat",
        // The coverage mask is the array's one element, read and written in place.
        "OpCompositeExtract %uint",
        "OpAccessChain %_ptr_Output_uint %gl_SampleMask_0 %uint_0",
        // FullyCoveredEXT's bool becomes the declared uint.
        "OpSelect %uint",
    ] {
        assert!(dis.contains(want), "{want}:\n{dis}");
    }
    let e = errors(
        "float4 main(float c : SV_InnerCoverage) : SV_Target { return c; }",
        "ps_6_0",
    );
    assert!(e.contains("SV_InnerCoverage must be of uint type."), "{e}");
    let greater = "float main(float x : A) : SV_DepthGreaterEqual { return x; }";
    let dis = disassemble(&check("depth_greater", greater, "ps_6_0"));
    assert!(dis.contains("OpExecutionMode %main DepthGreater"), "{dis}");
}

/// Vertex-shader system values: integer built-ins in the declared signedness, draw
/// parameters, view index, Layer and ViewportIndex outputs (by extension before SPIR-V 1.5,
/// core capabilities from Vulkan 1.2), and the shading rate.
#[test]
fn vertex_shader_system_values() {
    let src = "struct O { float4 pos : SV_Position; uint layer : SV_RenderTargetArrayIndex;
                         uint vp : SV_ViewportArrayIndex; int inst : SV_InstanceID;
                         uint rate : SV_ShadingRate; };
               O main(int v : SV_VertexID, int i : SV_InstanceID, uint view : SV_ViewID,
                      int bv : SV_StartVertexLocation, uint bi : SV_StartInstanceLocation,
                      uint l : SV_RenderTargetArrayIndex) {
                   O o = (O)0; o.layer = l + view; o.vp = bi; o.inst = v + i + bv;
                   return o;
               }";
    let dis = disassemble(&check("vs_system_values", src, "vs_6_1"));
    for want in [
        "%gl_VertexIndex = OpVariable %_ptr_Input_int Input",
        "%gl_InstanceIndex = OpVariable %_ptr_Input_int Input",
        "%gl_BaseVertex = OpVariable %_ptr_Input_int Input",
        "%gl_BaseInstance = OpVariable %_ptr_Input_uint Input",
        "OpDecorate %gl_ViewIndex BuiltIn ViewIndex",
        "OpCapability MultiView",
        "OpExtension \"SPV_KHR_multiview\"",
        "OpCapability DrawParameters",
        "OpCapability ShaderViewportIndexLayerEXT",
        "OpExtension \"SPV_EXT_shader_viewport_index_layer\"",
        "%gl_Layer = OpVariable %_ptr_Output_uint Output",
        "%gl_ViewportIndex = OpVariable %_ptr_Output_uint Output",
        "BuiltIn PrimitiveShadingRateKHR",
        "OpExtension \"SPV_KHR_fragment_shading_rate\"",
        // A vertex input SV_RenderTargetArrayIndex and an output SV_InstanceID are located.
        "OpDecorate %in_var_SV_RenderTargetArrayIndex Location 0",
        "OpDecorate %out_var_SV_InstanceID Location 0",
    ] {
        assert!(dis.contains(want), "{want}:\n{dis}");
    }
    let core = "uint main(uint l : A) : SV_RenderTargetArrayIndex { return l; }";
    let dis = disassemble(&check_env(
        "layer_core",
        core,
        "vs_6_0",
        TargetEnv::Vulkan1_2,
        LanguageVersion::V2021,
    ));
    assert!(dis.contains("OpCapability ShaderLayer"), "{dis}");
    assert!(
        !dis.contains("SPV_EXT_shader_viewport_index_layer"),
        "{dis}"
    );
}

/// SV_Barycentrics (DXC's `semantic.barycentrics.ps.*`): the interpolation picks
/// BaryCoordKHR or BaryCoordNoPerspKHR, centroid and sample stay decorations, and the third
/// weight is rebuilt as 1 - x - y.
#[test]
fn barycentrics_follow_the_interpolation() {
    let src = "float4 main(noperspective centroid float3 b : SV_Barycentrics) : SV_Target {
                   return float4(b, 1);
               }";
    let dis = disassemble(&check("bary_np_c", src, "ps_6_1"));
    for want in [
        "OpCapability FragmentBarycentricKHR",
        "OpExtension \"SPV_KHR_fragment_shader_barycentric\"",
        "BuiltIn BaryCoordNoPerspKHR",
        "Centroid",
        "OpVariable %_ptr_Input_v3float Input",
        "OpFSub %float %float_1",
    ] {
        assert!(dis.contains(want), "{want}:\n{dis}");
    }
    let smooth = "float4 main(sample float3 b : SV_Barycentrics) : SV_Target { return b.x; }";
    let dis = disassemble(&check("bary_s_s", smooth, "ps_6_1"));
    assert!(dis.contains("BuiltIn BaryCoordKHR"), "{dis}");
    assert!(dis.contains(" Sample\n"), "{dis}");
    let e = errors(
        "float4 main(float2 b : SV_Barycentrics) : SV_Target { return b.x; }",
        "ps_6_1",
    );
    assert!(
        e.contains("not supported yet: the semantic 'SV_Barycentrics' of type 'float2'"),
        "{e}"
    );
}

/// A method of `S` called on a `ConstantBuffer<S>` (its block is a copy of `S`): `this` is a
/// copy of the block's value.
#[test]
fn methods_on_constant_buffers() {
    let src = "struct A { float a; float twice() { return a * 2; } };
               ConstantBuffer<A> cb : register(b0);
               RWStructuredBuffer<float> o : register(u1);
               [numthreads(1, 1, 1)]
               void main() { o[0] = cb.twice() + 1; }";
    let words = check("cbuffer_method", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "kind": "uniform", "layout": ["f32"], "data": [2.5, 0, 0, 0]},
            {"binding": 1, "layout": ["f32"], "size_words": 1}]}"#;
        assert_eq!(run::floats(&run::lavapipe(&words, job), 1), [6.0f32]);
        assert_eq!(run::floats(&run::spvkit(&words, job), 1), [6.0f32]);
    }
}

/// `transpose` of an integer matrix (an array of rows in SPIR-V, no OpTranspose) rebuilds it
/// column by column.
#[test]
fn integer_transpose() {
    let src = "RWStructuredBuffer<int> o : register(u0);
               [numthreads(1, 1, 1)]
               void main() {
                   int2x3 m = int2x3(1, 2, 3, 4, 5, 6);
                   int3x2 t = transpose(m);
                   o[0] = t._m00 * 100000 + t._m01 * 10000 + t._m10 * 1000 + t._m11 * 100
                        + t._m20 * 10 + t._m21;
               }";
    let words = check("int_transpose", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["i32"], "size_words": 1}]}"#;
        assert_eq!(run::ints(&run::lavapipe(&words, job), 0), [142536]);
        assert_eq!(run::ints(&run::spvkit(&words, job), 0), [142536]);
    }
}

/// `countbits` and `reversebits` of 64-bit integers work on the two 32-bit halves (the bit
/// instructions take 32 bits in Vulkan).
#[test]
fn bit_intrinsics_of_64_bit_integers() {
    let src = "RWStructuredBuffer<uint64_t> o : register(u0);
               RWStructuredBuffer<uint> n : register(u1);
               [numthreads(1, 1, 1)]
               void main() {
                   uint64_t x = o[0];
                   n[0] = countbits(x);
                   o[1] = reversebits(x);
                   int64_t y = -1;
                   n[1] = countbits(y);
               }";
    let words = check("bits64", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        // 0x8000_0000_0000_0003: 3 bits set; reversed 0xC000_0000_0000_0001.
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["u32"], "data": [3, 2147483648, 0, 0]},
            {"binding": 1, "layout": ["u32"], "size_words": 2}]}"#;
        for out in [run::lavapipe(&words, job), run::spvkit(&words, job)] {
            assert_eq!(run::words(&out, 0), [3, 0x8000_0000, 1, 0xC000_0000]);
            assert_eq!(run::words(&out, 1), [3, 64]);
        }
    }
}

/// Interlocked operations on 64-bit buffer elements (Int64Atomics).
#[test]
fn interlocked_64_bit() {
    let src = "RWStructuredBuffer<uint64_t> b : register(u0);
               RWStructuredBuffer<int64_t> s : register(u1);
               [numthreads(4, 1, 1)]
               void main(uint3 id : SV_DispatchThreadID) {
                   InterlockedAdd(b[0], 0x100000000ull + id.x);
                   InterlockedMin(s[0], -(int64_t)id.x * 0x100000000ll);
               }";
    let words = check("interlocked64", src, "cs_6_0");
    let dis = disassemble(&words);
    assert!(dis.contains("OpCapability Int64Atomics"), "{dis}");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["u32"], "data": [0, 0]},
            {"binding": 1, "layout": ["u32"], "data": [0, 0]}]}"#;
        // 4 * 2^32 + (0+1+2+3); the minimum is -3 * 2^32.
        for out in [run::lavapipe(&words, job), run::spvkit(&words, job)] {
            assert_eq!(run::words(&out, 0), [6, 4]);
            assert_eq!(run::words(&out, 1), [0, 0xFFFF_FFFD]);
        }
    }
}

/// `tex[uv]` of a Texture2DMS fetches sample 0, as DXC.
#[test]
fn multisampled_texture_index() {
    let src = "Texture2DMS<float4> T;
               float4 main(float4 p : SV_Position) : SV_Target { return T[int2(p.xy)]; }";
    let dis = disassemble(&check("ms_index", src, "ps_6_0"));
    assert!(dis.contains("OpImageFetch %v4float"), "{dis}");
    assert!(dis.contains(" Sample %uint_0"), "{dis}");
}

/// `CheckAccessFullyMapped(status)`: OpImageSparseTexelsResident of the residency code a
/// sparse `Load`/`Sample` wrote to `status`.
#[test]
fn check_access_fully_mapped() {
    let src = "Texture2D<float4> T; SamplerState S;
               float4 main(float2 uv : UV) : SV_Target {
                   uint status;
                   float4 c = T.Sample(S, uv, int2(0, 0), 0.5, status);
                   return CheckAccessFullyMapped(status) ? c : 0;
               }";
    let dis = disassemble(&check("fully_mapped", src, "ps_6_0"));
    assert!(dis.contains("OpCapability SparseResidency"), "{dis}");
    assert!(dis.contains("OpImageSparseTexelsResident %bool"), "{dis}");
}

/// `register(spaceM)` names only the descriptor set: the resource takes the lowest free
/// binding of set M once the explicit ones are placed, and its counter the next one, as DXC
/// binds them; `[[vk::counter_binding]]` on a RWStructuredBuffer whose counter is never used
/// binds nothing.
#[test]
fn space_only_registers() {
    let src = "SamplerState s1 : register(space1);
               Texture2D<float4> t1 : register(space1);
               Texture2D<float4> t0 : register(t0, space1);
               ConsumeStructuredBuffer<float> c : register(space2);
               [[vk::counter_binding(7)]] RWStructuredBuffer<float> o : register(u0);
               float4 main(float2 uv : TEXCOORD) : SV_Target {
                   o[0] = c.Consume();
                   return t1.Sample(s1, uv) + t0.Sample(s1, uv);
               }";
    let dis = disassemble(&check("space_only", src, "ps_6_0"));
    for want in [
        "OpDecorate %s1 DescriptorSet 1\n               OpDecorate %s1 Binding 1",
        "OpDecorate %t1 DescriptorSet 1\n               OpDecorate %t1 Binding 2",
        "OpDecorate %t0 DescriptorSet 1\n               OpDecorate %t0 Binding 0",
        "OpDecorate %c DescriptorSet 2\n               OpDecorate %c Binding 0",
        "OpDecorate %counter_var_c DescriptorSet 2\n               OpDecorate %counter_var_c Binding 1",
    ] {
        assert!(dis.contains(want), "missing {want}:\n{dis}");
    }
    assert!(!dis.contains("counter_var_o"), "{dis}");
}

/// Buffers of an array flattened by `-fspv-flatten-resource-arrays` are separate bindings the
/// shader reads and writes by element, on lavapipe and under `spvkit run`.
#[test]
fn flattened_buffer_arrays_run() {
    let src = "StructuredBuffer<float> inp : register(t0);
               RWStructuredBuffer<float> outs[2] : register(u1);
               [numthreads(1, 1, 1)]
               void main() {
                   outs[0][0] = inp[0] * 2;
                   outs[1][0] = inp[1] + 1;
               }";
    let mut o = options("cs_6_0", TargetEnv::Vulkan1_0, LanguageVersion::V2021);
    o.bindings.flatten_arrays = true;
    let words = compile_with("flattened_run", src, &o);
    spirv_val("flattened_run", &words, TargetEnv::Vulkan1_0);
    let dis = disassemble(&words);
    assert!(dis.contains("OpDecorate %outs_1_ Binding 2"), "{dis}");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["f32"], "data": [1.5, 4]},
            {"binding": 1, "layout": ["f32"], "size_words": 1},
            {"binding": 2, "layout": ["f32"], "size_words": 1}]}"#;
        for out in [run::lavapipe(&words, job), run::spvkit(&words, job)] {
            assert_eq!(run::floats(&out, 1), [3.0f32]);
            assert_eq!(run::floats(&out, 2), [5.0f32]);
        }
    }
}

/// `register(cN)` on a loose uniform places it at 16 × N bytes of `$Globals`; the others
/// follow the last byte of those placed, in declaration order (DXC's offsets); the shader
/// reads them there on lavapipe and under `spvkit run`. Overlapping registers are an error,
/// and `register()` on a member is refused rather than ignored.
#[test]
fn register_c_places_global_constants() {
    let src = "float a;
               float b : register(c2);
               float2 c : register(c0);
               float d;
               RWStructuredBuffer<float> o : register(u0);
               [numthreads(1, 1, 1)]
               void main() { o[0] = a; o[1] = b; o[2] = c.y; o[3] = d; }";
    let words = check("register_c", src, "cs_6_0");
    let dis = disassemble(&words);
    for (member, offset) in [(0, 36), (1, 32), (2, 0), (3, 40)] {
        let want = format!("OpMemberDecorate %type__Globals {member} Offset {offset}\n");
        assert!(dis.contains(&want), "missing {want}:\n{dis}");
    }
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["f32"], "size_words": 4},
            {"binding": 1, "kind": "uniform", "layout": ["f32"],
             "data": [1, 2, 0, 0, 0, 0, 0, 0, 3, 4, 5, 0]}]}"#;
        for out in [run::lavapipe(&words, job), run::spvkit(&words, job)] {
            assert_eq!(run::floats(&out, 0), [4.0f32, 3.0, 2.0, 5.0]);
        }
    }
    let e = errors(
        "float4 a : register(c0);\nfloat b : register(c0);\n[numthreads(1, 1, 1)] void main() {}",
        "cs_6_0",
    );
    assert!(
        e.contains("2:11: error: this register(cN) overlaps another global constant"),
        "{e}"
    );
    let e = errors(
        "cbuffer C { float x : register(c1); };\n[numthreads(1, 1, 1)] void main() {}",
        "cs_6_0",
    );
    assert!(
        e.contains("not supported yet: register() on a member"),
        "{e}"
    );
}

/// Shader model 6.6's packed bytes, as DXC lowers them: `int8_t4_packed`/`uint8_t4_packed` are
/// `uint`s; packing truncates four integers to bytes (`OpSConvert`/`OpUConvert` by the operand's
/// signedness, after `SClamp` for the clamping forms) and bitcasts them to a `uint`; unpacking
/// bitcasts the `uint` to four bytes and sign- or zero-extends them. Run on lavapipe: byte 0 is
/// the least significant.
#[test]
fn packed_8bit_intrinsics() {
    let src = "RWStructuredBuffer<uint> O; StructuredBuffer<int4> I;
        [numthreads(1, 1, 1)] void main() {
            int4 v = I[0];
            uint8_t4_packed p = pack_u8(v);
            int8_t4_packed q = pack_s8(asuint(v));
            O[0] = p;
            O[1] = q;
            O[2] = pack_clamp_s8(v);
            O[3] = pack_clamp_u8(v);
            int4 s = unpack_s8s32(p);
            uint4 z = unpack_u8u32(q);
            O[4] = s.x; O[5] = s.y; O[6] = s.z; O[7] = s.w;
            O[8] = z.x; O[9] = z.y; O[10] = z.z; O[11] = z.w;
        }";
    let words = check("packed_bytes", src, "cs_6_6");
    let dis = disassemble(&words);
    for want in [
        "OpCapability Int8",
        "OpSConvert %v4char",
        "OpUConvert %v4uchar",
        "SClamp",
        "OpBitcast %uint",
        "OpBitcast %v4char",
        "OpSConvert %v4int",
        "OpBitcast %v4uchar",
        "OpUConvert %v4uint",
    ] {
        assert!(dis.contains(want), "{want}\n{dis}");
    }
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["u32"], "size_words": 12},
            {"binding": 1, "layout": ["i32"], "data": [300, -5, 127, -200]}]}"#;
        let out = run::lavapipe(&words, job);
        assert_eq!(
            run::words(&out, 0),
            [
                0x387f_fb2c,
                0x387f_fb2c,
                0x807f_fb7f,
                0x007f_00ff,
                44,
                (-5i32) as u32,
                127,
                56,
                44,
                251,
                127,
                56
            ]
        );
    }
    // 16-bit forms with -enable-16bit-types, and without it the 16-bit results are refused.
    let src16 = "float4 main(int16_t4 a : A, uint16_t4 b : B) : SV_Target {
            uint8_t4_packed p = pack_u8(b);
            int8_t4_packed q = pack_clamp_s8(a);
            int16_t4 s = unpack_s8s16(q);
            uint16_t4 u = unpack_u8u16(p);
            return float4(s.x, u.y, 0, 0);
        }";
    let mut o = options("ps_6_6", TargetEnv::Vulkan1_0, LanguageVersion::V2021);
    o.enable_16bit_types = true;
    let words = compile_with("packed_bytes16", src16, &o);
    spirv_val("packed_bytes16", &words, TargetEnv::Vulkan1_0);
    let dis = disassemble(&words);
    for want in [
        "OpUConvert %v4uchar",
        "OpExtInst %v4short %1 SClamp",
        "OpSConvert %v4short",
        "OpUConvert %v4ushort",
    ] {
        assert!(dis.contains(want), "{want}\n{dis}");
    }
    for (src, profile, msg) in [
        (
            "RWStructuredBuffer<uint> O; [numthreads(1, 1, 1)] void main() { O[0] = pack_u8(uint4(1, 2, 3, 4)); }",
            "cs_6_5",
            "bad.hlsl:1:72: error: 'pack_u8' needs shader model 6.6 or above",
        ),
        (
            "RWStructuredBuffer<uint> O; [numthreads(1, 1, 1)] void main() { O[0] = pack_clamp_u8(uint4(1, 2, 3, 4)); }",
            "cs_6_6",
            "error: 'pack_clamp_u8' takes signed integers (int16_t4 or int4), not 'uint4'",
        ),
        (
            "RWStructuredBuffer<uint> O; [numthreads(1, 1, 1)] void main() { O[0] = pack_s8(float4(1, 2, 3, 4)); }",
            "cs_6_6",
            "error: 'pack_s8' takes four 16- or 32-bit integers, not 'float4'",
        ),
        (
            "RWStructuredBuffer<uint> O; [numthreads(1, 1, 1)] void main() { O[0] = unpack_s8s16(O[1]).x; }",
            "cs_6_6",
            "error: 'unpack_s8s16' returns 16-bit integers: it needs -enable-16bit-types",
        ),
        (
            "int8_t4_packed2 v; RWStructuredBuffer<uint> O; [numthreads(1, 1, 1)] void main() { O[0] = 0; }",
            "cs_6_6",
            "int8_t4_packed2",
        ),
    ] {
        let e = errors(src, profile);
        assert!(e.contains(msg), "{msg}\n{e}");
    }
}

/// `DebugBreak()` (shader model 6.10): NonSemantic.DebugBreak's instruction 1, as DXC.
#[test]
fn debug_break() {
    let src = "RWStructuredBuffer<uint> O;
        [numthreads(8, 1, 1)] void main(uint3 id : SV_DispatchThreadID) {
            if (id.x == 0) { DebugBreak(); }
            O[id.x] = id.x;
        }";
    let dis = disassemble(&check("debug_break", src, "cs_6_10"));
    assert!(
        dis.contains("OpExtension \"SPV_KHR_non_semantic_info\""),
        "{dis}"
    );
    assert!(
        dis.contains("%1 = OpExtInstImport \"NonSemantic.DebugBreak\"")
            || dis.contains("OpExtInstImport \"NonSemantic.DebugBreak\""),
        "{dis}"
    );
    assert!(dis.contains("OpExtInst %void"), "{dis}");
    let e = errors(
        "[numthreads(1, 1, 1)] void main() { DebugBreak(); }",
        "cs_6_6",
    );
    assert!(
        e.contains("bad.hlsl:1:37: error: 'DebugBreak' needs shader model 6.10 or above"),
        "{e}"
    );
}

/// `vk::RawBufferLoad<T>(address[, alignment])` and `vk::RawBufferStore<T>(address, value[,
/// alignment])`: the address bitcast to a PhysicalStorageBuffer pointer to `T` in the
/// structured-buffer layout, loaded or stored `Aligned` (4 by default), under the
/// PhysicalStorageBuffer64 addressing model; a bool is a uint in memory.
#[test]
fn raw_buffer_load_and_store() {
    let src = "struct S { float f; float3 v; bool b; };
        uint64_t Address;
        RWStructuredBuffer<float4> O;
        [numthreads(1, 1, 1)] void main() {
            float x = vk::RawBufferLoad<float>(Address);
            double y = vk::RawBufferLoad<double>(Address + 8, 8);
            bool z = vk::RawBufferLoad<bool>(Address, 4);
            uint w = vk::RawBufferLoad(Address);
            S s = vk::RawBufferLoad<S>(Address + 16);
            vk::RawBufferStore<float2>(Address + 64, float2(x, y), 8);
            vk::RawBufferStore<S>(Address + 128, s);
            vk::RawBufferStore(Address, w + 1);
            O[0] = float4(s.v, z ? 1 : 0);
        }";
    let words = check("raw_buffer", src, "cs_6_0");
    let dis = disassemble(&words);
    for want in [
        "OpCapability PhysicalStorageBufferAddresses",
        "OpExtension \"SPV_KHR_physical_storage_buffer\"",
        "OpMemoryModel PhysicalStorageBuffer64 GLSL450",
        "OpTypePointer PhysicalStorageBuffer %float",
        "OpTypePointer PhysicalStorageBuffer %double",
        "OpTypePointer PhysicalStorageBuffer %uint",
        "OpTypePointer PhysicalStorageBuffer %v2float",
        "OpLoad %float %",
        "Aligned 4",
        "Aligned 8",
        "OpINotEqual %bool",
        "OpSelect %uint",
        "OpMemberDecorate %S_0 1 Offset 4",
        "OpMemberDecorate %S_0 2 Offset 16",
    ] {
        assert!(dis.contains(want), "{want}\n{dis}");
    }
    // Vulkan 1.2 has the addressing model in core SPIR-V 1.5.
    check_env(
        "raw_buffer_vk12",
        src,
        "cs_6_0",
        TargetEnv::Vulkan1_2,
        LanguageVersion::V2021,
    );
    for (src, msg) in [
        (
            "uint64_t A; float4 main() : SV_Target { return vk::RawBufferLoad<float4>(A, -16); }",
            "bad.hlsl:1:77: error: alignment argument must be a constant unsigned integer (a power of two)",
        ),
        (
            "uint64_t A; float4 main() : SV_Target { return vk::RawBufferLoad<float4>(A, 4, 4); }",
            "error: wrong number of arguments to 'vk::RawBufferLoad': 3 given",
        ),
        (
            "uint64_t A; float4 main() : SV_Target { return vk::RawBufferLoad<3>(A); }",
            "error: vk::RawBufferLoad's template argument must be a type",
        ),
        (
            "uint64_t A; float4 main() : SV_Target { vk::RawBufferStore<float4>(A); return 0; }",
            "error: wrong number of arguments to 'vk::RawBufferStore': 1 given",
        ),
    ] {
        let e = errors(src, "ps_6_0");
        assert!(e.contains(msg), "{msg}\n{e}");
    }
}

/// DXC's builtin types spvkit does not implement are refused by name, wherever a type may be
/// written (the parser takes qualified `vk::` types with template arguments).
#[test]
fn unimplemented_builtin_types_are_refused_by_name() {
    for (src, msg) in [
        (
            "typedef vk::BufferPointer<float, 32> P; [numthreads(1, 1, 1)] void main() { P p; }",
            "bad.hlsl:1:9: error: not supported yet: the type 'vk::BufferPointer'",
        ),
        (
            "using I = vk::SpirvType<21, 1, 1, vk::Literal<vk::integral_constant<uint, 16> > >; \
             [numthreads(1, 1, 1)] void main() { I i; }",
            "error: not supported yet: the type 'vk::SpirvType'",
        ),
        (
            "RasterizerOrderedTexture2DMS<float> B; [numthreads(1, 1, 1)] void main() {}",
            "error: not supported yet: the type 'RasterizerOrderedTexture2DMS'",
        ),
        (
            "[numthreads(1, 1, 1)] void main() { vk::ext_type<2> t; }",
            "error: not supported yet: the type 'vk::ext_type'",
        ),
        (
            "struct B { int a; }; [numthreads(1, 1, 1)] void main() { \
             vk::BufferPointer<B> p = vk::static_pointer_cast<B>(q); }",
            "error: not supported yet: the type 'vk::BufferPointer'",
        ),
    ] {
        let e = errors(src, "cs_6_6");
        assert!(e.contains(msg), "{msg}\n{e}");
        assert!(!e.contains("expected"), "a parse error:\n{e}");
    }
}

/// A global resource with an initializer (`= ResourceDescriptorHeap[3]`, `= Other`) is that
/// resource, not one of its own binding: refused rather than bound on its own, unless it is a
/// `static` name for a module-scope resource (`static_resource_aliases`).
#[test]
fn global_resources_with_initializers_are_refused() {
    // (`static Texture2D T = ResourceDescriptorHeap[3];` is an element of the heap, since
    // session 12: `static_elements_of_heaps_and_resource_arrays`.)
    for src in [
        "Texture2D A; Texture2D B = A; SamplerState S;
         float4 main() : SV_Target { return B.Sample(S, float2(0, 0)); }",
        "Texture2D A[2]; static Texture2D B[2] = A; SamplerState S;
         float4 main() : SV_Target { return B[0].Sample(S, float2(0, 0)); }",
    ] {
        let e = errors(src, "ps_6_6");
        assert!(
            e.contains("error: not supported yet: a global resource variable with an initializer"),
            "{e}"
        );
    }
}

/// A structured buffer of `row_major` or `column_major` matrices reads each element where
/// that layout puts it (rows or columns of the matrix as vectors), on lavapipe and under
/// `spvkit run`.
#[test]
fn structured_buffer_matrix_majorness_runs() {
    let src = "StructuredBuffer<row_major float2x3> a : register(t0);
               StructuredBuffer<column_major float2x3> b : register(t1);
               RWStructuredBuffer<float> o : register(u2);
               [numthreads(1, 1, 1)]
               void main() {
                   o[0] = a[0][1][2];
                   o[1] = a[0][0][1];
                   o[2] = b[0][1][2];
                   o[3] = b[0][0][1];
               }";
    let words = check("sb_majorness", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        // Row-major: two rows of float3, 16 bytes apart; column-major: three float2 columns.
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["f32"], "data": [1, 2, 3, 0, 4, 5, 6, 0]},
            {"binding": 1, "layout": ["f32"], "data": [1, 2, 3, 4, 5, 6]},
            {"binding": 2, "layout": ["f32"], "size_words": 4}]}"#;
        for out in [run::lavapipe(&words, job), run::spvkit(&words, job)] {
            assert_eq!(run::floats(&out, 2), [6.0f32, 2.0, 6.0, 3.0]);
        }
    }
    let _ = words;
}

/// Images, samplers and texel buffers pass to functions as pointers to the resource the
/// caller names (its variable, an element of an array of them, or the caller's own
/// parameter), which SPIR-V allows a call to pass; a buffer (whose pointer may not be passed
/// without VariablePointers) other than a module-scope one named directly, and out or inout
/// resource parameters, are refused (`buffer_parameters` for the buffers).
#[test]
fn image_and_sampler_parameters() {
    let src = "Texture2D<float4> texs[3] : register(t0);
               SamplerState smp : register(s0);
               RWBuffer<float4> rw : register(u1);
               float4 samp(Texture2D<float4> t, SamplerState s, float2 uv) {
                   return t.SampleLevel(s, uv, 0);
               }
               float4 twice(Texture2D<float4> t, SamplerState s) { return samp(t, s, 0.5) * 2; }
               void put(RWBuffer<float4> b, uint i, float4 v) { b[i] = v; }
               [numthreads(1, 1, 1)]
               void main(uint3 id : SV_DispatchThreadID) {
                   put(rw, id.x, twice(texs[id.x % 3], smp) + samp(texs[1], smp, 0.25));
               }";
    let dis = disassemble(&check_unlegalized("resource_params", src, "cs_6_0"));
    for want in [
        "%t = OpFunctionParameter %_ptr_UniformConstant_type_2d_image",
        "%s = OpFunctionParameter %_ptr_UniformConstant_type_sampler",
        "%b = OpFunctionParameter %_ptr_UniformConstant_type_buffer_image",
        "OpFunctionCall %void %put %rw",
    ] {
        assert!(dis.contains(want), "missing {want}:\n{dis}");
    }
    // The dynamically indexed element is passed as its access chain.
    assert!(
        dis.lines()
            .any(|l| l.contains("OpFunctionCall %v4float %twice %") && l.contains("%smp")),
        "{dis}"
    );
    for (src, want) in [
        (
            "StructuredBuffer<float> g[2];\nfloat f(StructuredBuffer<float> b) { return b[0]; }
             [numthreads(1, 1, 1)] void main(uint3 id : SV_DispatchThreadID) { f(g[id.x]); }",
            "not supported yet: a buffer argument other than a module-scope buffer named directly",
        ),
        (
            "Texture2D g;\nvoid f(out Texture2D t) { t = g; }
             [numthreads(1, 1, 1)] void main() { Texture2D x = g; f(x); }",
            "2:12: error: not supported yet: out and inout resource parameters",
        ),
        (
            "Texture2D g[2];\nfloat4 f(Texture2D t) { return t.Load(0); }
             [numthreads(1, 1, 1)] void main() { f(g); }",
            "no matching overload of 'f' for these argument types",
        ),
    ] {
        let e = errors(src, "cs_6_0");
        assert!(e.contains(want), "{want}:\n{e}");
    }
}

/// A local resource variable initialized with a resource is a name for it (what DXC's
/// legalization makes of it): reads and writes through it reach the resource, on lavapipe and
/// under `spvkit run`. One that a condition not constant assigns is an error at its
/// declaration (legalization cannot make it one resource), as is an initializer of another
/// resource type.
#[test]
fn local_resource_aliases() {
    let src = "RWStructuredBuffer<float> o0 : register(u0);
               RWStructuredBuffer<float> o1 : register(u1);
               StructuredBuffer<float> inp : register(t2);
               [numthreads(1, 1, 1)]
               void main() {
                   RWStructuredBuffer<float> dst = o1;
                   const StructuredBuffer<float> src = inp;
                   dst[0] = src[0] * 3;
                   for (int i = 0; i < 2; i++) {
                       RWStructuredBuffer<float> d = o0;
                       d[i] = src[i] + i;
                   }
               }";
    let words = check("resource_alias", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["f32"], "size_words": 2},
            {"binding": 1, "layout": ["f32"], "size_words": 1},
            {"binding": 2, "layout": ["f32"], "data": [1.5, 4]}]}"#;
        for out in [run::lavapipe(&words, job), run::spvkit(&words, job)] {
            assert_eq!(run::floats(&out, 0), [1.5f32, 5.0]);
            assert_eq!(run::floats(&out, 1), [4.5f32]);
        }
    }
    let _ = words;
    // (Assigned by statements of its own block it is rebound since session 12:
    // `local_resources_rebound_by_statements`.)
    for (body, want) in [
        (
            "StructuredBuffer<float> b = g; if (g[0] > 0) b = h; float x = b[0];",
            "bad.hlsl:2:74: error: the resource variable 'b' does not name one resource \
             wherever it is used",
        ),
        (
            "StructuredBuffer<float> b[2];",
            "not supported yet: local arrays of resources",
        ),
        (
            "RWStructuredBuffer<float> b = g;",
            "cannot initialize a 'RWStructuredBuffer<float>' with a 'StructuredBuffer<float>'",
        ),
    ] {
        let src = format!(
            "StructuredBuffer<float> g; StructuredBuffer<float> h;
             [numthreads(1, 1, 1)] void main() {{ {body} }}"
        );
        let e = errors(&src, "cs_6_0");
        assert!(e.contains(want), "{want}:\n{e}");
    }
}

/// `static R r = g;` for a module-scope resource `g`, at module scope or in a function, is a
/// second name for `g` while nothing assigns `r` (DXC's legal example 01): reads and writes
/// reach `g` on lavapipe and under `spvkit run`; `= ResourceDescriptorHeap[i]` or an
/// assigned one is refused rather than bound to a resource of its own.
#[test]
fn static_resource_aliases() {
    let src = "StructuredBuffer<float> g : register(t0);
               RWStructuredBuffer<float> o : register(u1);
               static StructuredBuffer<float> s = g;
               static StructuredBuffer<float> s2 = s;
               float twice(uint i) {
                   static RWStructuredBuffer<float> out = o;
                   out[i + 1] = s2[i] * 2;
                   return s[i];
               }
               [numthreads(1, 1, 1)]
               void main() { o[0] = twice(0) + twice(1); }";
    let words = check("static_alias", src, "cs_6_0");
    let dis = disassemble(&words);
    assert_eq!(dis.matches("OpDecorate %g Binding").count(), 1, "{dis}");
    assert!(!dis.contains("%s = OpVariable"), "{dis}");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["f32"], "data": [1.5, 4]},
            {"binding": 1, "layout": ["f32"], "size_words": 3}]}"#;
        for out in [run::lavapipe(&words, job), run::spvkit(&words, job)] {
            assert_eq!(run::floats(&out, 1), [5.5f32, 3.0, 8.0]);
        }
    }
    let e = errors(
        "StructuredBuffer<float> g; StructuredBuffer<float> h;
         static StructuredBuffer<float> s = g;
         [numthreads(1, 1, 1)] void main() { s = h; }",
        "cs_6_0",
    );
    assert!(
        e.contains("not supported yet: a global resource variable with an initializer"),
        "{e}"
    );
}

/// Derivatives in compute shaders (shader model 6.6): `ddx` and implicit-LOD sampling add the
/// derivative group DXC picks from `numthreads`: linear for a one-dimensional multiple of 4,
/// 2x2 quads for even X and Y; another size, or an older shader model, is an error.
#[test]
fn compute_shader_derivatives() {
    let body = "Texture2D<float4> t : register(t0);
                SamplerState s : register(s1);
                RWStructuredBuffer<float> o : register(u2);
                [numthreads(NT)]
                void main(uint3 id : SV_DispatchThreadID) {
                    float x = id.x;
                    o[id.x] = ddx(x * x) + t.Sample(s, float2(x, 0)).x;
                }";
    let with = |nt: &str| body.replace("NT", nt);
    let quads = disassemble(&check("cs_quads", &with("2, 2, 1"), "cs_6_6"));
    for want in [
        "OpCapability ComputeDerivativeGroupQuadsNV",
        "OpExecutionMode %main DerivativeGroupQuadsNV",
        "OpDPdx %float",
        "OpImageSampleImplicitLod %v4float",
    ] {
        assert!(quads.contains(want), "missing {want}:\n{quads}");
    }
    let linear = disassemble(&check("cs_linear", &with("16, 1, 1"), "cs_6_6"));
    assert!(
        linear.contains("OpExecutionMode %main DerivativeGroupLinearNV"),
        "{linear}"
    );
    assert_eq!(linear.matches("DerivativeGroup").count(), 2, "{linear}");
    let e = errors(&with("3, 1, 1"), "cs_6_6");
    assert!(
        e.contains("derivatives in a compute shader need numthreads with even X and Y"),
        "{e}"
    );
    let e = errors(&with("2, 2, 1"), "cs_6_5");
    assert!(
        e.contains("'ddx' in a compute shader needs shader model 6.6 or above"),
        "{e}"
    );
}

/// Unsized arrays of resources are runtime arrays of descriptors, and
/// `NonUniformResourceIndex` makes the index a `NonUniform` copy whose access chain, loaded
/// image or sampler and sampled image are `NonUniform` too (as DXC decorates them), with the
/// array's non-uniform indexing capability and SPV_EXT_descriptor_indexing below SPIR-V 1.5;
/// an index without it decorates nothing.
#[test]
fn non_uniform_resource_indices() {
    let src = "Texture2D gTextures[32] : register(t0);
               SamplerState gSamplers[] : register(s0, space1);
               RWTexture2D<float4> gRW[8] : register(u0, space2);
               Buffer<float4> gBufs[] : register(t0, space3);
               RWStructuredBuffer<float> outs[4] : register(u0, space4);
               float4 main(uint index : A, float2 loc : B) : SV_Target {
                   float4 a = gTextures[NonUniformResourceIndex(index)]
                                  .Sample(gSamplers[NonUniformResourceIndex(index + 1)], loc);
                   float4 b = gRW[NonUniformResourceIndex(index)][uint2(0, 0)];
                   float4 c = gBufs[NonUniformResourceIndex(index)].Load(0);
                   outs[NonUniformResourceIndex(index)][0] = 1;
                   float4 d = gTextures[index].Sample(gSamplers[0], loc);
                   return a + b + c + d;
               }";
    let dis = disassemble(&check("non_uniform", src, "ps_6_0"));
    for want in [
        "OpCapability RuntimeDescriptorArray",
        "OpCapability SampledImageArrayNonUniformIndexing",
        "OpCapability StorageImageArrayNonUniformIndexing",
        "OpCapability UniformTexelBufferArrayNonUniformIndexing",
        "OpCapability StorageBufferArrayNonUniformIndexing",
        "OpExtension \"SPV_EXT_descriptor_indexing\"",
        "OpTypeRuntimeArray %type_sampler",
        "OpTypeRuntimeArray %type_buffer_image",
    ] {
        assert!(dis.contains(want), "missing {want}:\n{dis}");
    }
    // What each decorated id is.
    let decorated: Vec<&str> = dis
        .lines()
        .filter_map(|l| l.trim().strip_prefix("OpDecorate "))
        .filter_map(|l| l.strip_suffix(" NonUniform"))
        .collect();
    let op_of = |id: &str| {
        dis.lines()
            .find_map(|l| l.trim().strip_prefix(&format!("{id} = ")))
            .and_then(|r| r.split_whitespace().next())
            .unwrap_or("?")
            .to_owned()
    };
    let mut ops: Vec<String> = decorated.iter().map(|id| op_of(id)).collect();
    ops.sort();
    ops.dedup();
    assert_eq!(
        ops,
        ["OpAccessChain", "OpCopyObject", "OpLoad", "OpSampledImage"],
        "{dis}"
    );
    // Five indices, two loads for the texture and sampler, one for the texel buffer and the
    // storage image each, one sampled image.
    assert_eq!(
        decorated
            .iter()
            .filter(|id| op_of(id) == "OpCopyObject")
            .count(),
        5
    );
    assert_eq!(
        decorated
            .iter()
            .filter(|id| op_of(id) == "OpSampledImage")
            .count(),
        1
    );
}

/// Case labels inside `{ }` blocks nested in a switch's body (DXC's
/// `cf.switch.ifstmt.hlsl`): the blocks are flattened, as C and DXC's SPIR-V backend do, so
/// `case 6: { case 7: ... }` falls through from 6 into 7. Run on lavapipe and under
/// `spvkit run` for every selector value; a label inside an `if`, or a declaration in a
/// flattened block, is refused with its place.
#[test]
fn case_labels_in_nested_blocks_of_a_switch() {
    let src = r#"
RWStructuredBuffer<int> Out : register(u0);
int pick(int m) {
    int r = 0;
    switch (m) {
    case 0:
        r = 1;
        {
            r += 10;
    case 1:
            r += 100;
            { int local = 3; r += local; }
            {
    case 2:
                r += 1000;
                break;
            }
        }
    case 3: {
        r += 20000;
    default:
        r += 5;
    }
    case 4:
        r += 300000;
    }
    return r;
}
[numthreads(6, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    Out[id.x] = pick((int)id.x);
}
"#;
    let words = check("switch_nested_labels", src, "cs_6_0");
    assert!(disassemble(&words).contains("OpSwitch"));
    #[cfg(feature = "run")]
    {
        let job =
            r#"{"dispatch": [1], "buffers": [{"binding": 0, "layout": ["i32"], "size_words": 6}]}"#;
        let want = vec![1114, 1103, 1000, 320005, 300000, 300005];
        assert_eq!(run::ints(&run::lavapipe(&words, job), 0), want);
        assert_eq!(run::ints(&run::spvkit(&words, job), 0), want);
    }
    let e = errors(
        "[numthreads(1,1,1)] void main() { int r = 0; switch (r) { case 0: if (r > 0) { case 1: r = 2; } } }",
        "cs_6_0",
    );
    assert!(
        e.contains(
            "bad.hlsl:1:80: error: not supported yet: a 'case' label inside a statement nested \
             in the switch other than a '{ }' block (an 'if', a loop)"
        ),
        "{e}"
    );
    let e = errors(
        "[numthreads(1,1,1)] void main() { int r = 0; switch (r) { case 0: { int k = 1; case 1: r = 2; } } }",
        "cs_6_0",
    );
    assert!(
        e.contains(
            "bad.hlsl:1:69: error: not supported yet: a declaration in a '{ }' block that holds \
             a case label of the enclosing switch"
        ),
        "{e}"
    );
}

/// Legacy effect-framework annotation blocks after a declarator (DXC's `spirv.string.hlsl`):
/// parsed and ignored with DXC's warning; the declarations around them compile as without.
#[test]
fn effect_annotations_are_parsed_and_ignored() {
    let src = r#"
string g_fill < string arg1 = "WIREFRAME"; int n = (1 + 2); float2 v = {1, 2}; > = "";
cbuffer C { float4 tint : COLOR0 < string UIName = "Tint"; >; };
Texture2D tex : register(t0) < string file = "a.png"; >;
SamplerState smp;
float4 main(float2 uv : TEXCOORD0) : SV_Target {
    float k < int x = 1; > = 2.0;
    return tex.Sample(smp, uv) * tint * k;
}
"#;
    let o = options("ps_6_0", TargetEnv::Vulkan1_0, LanguageVersion::V2021);
    let out = compile_source("fx.hlsl", src, &o).unwrap_or_else(|e| panic!("{}", e.rendered));
    spirv_val("effect_annotations", &out.words, TargetEnv::Vulkan1_0);
    assert_eq!(
        out.warnings
            .matches("warning: possible effect annotation ignored - effect syntax is deprecated")
            .count(),
        4,
        "{}",
        out.warnings
    );
    assert!(
        out.warnings.contains("fx.hlsl:2:15: warning"),
        "{}",
        out.warnings
    );
    assert!(disassemble(&out.words).contains("OpString \"\""));
    let e = errors("float x < int a = 1; = 2; void main() {}", "ps_6_0");
    assert!(
        e.contains(
            "bad.hlsl:1:22: error: expected '>' or an annotation such as 'int name = 1;' in the \
             annotation block, found '='"
        ),
        "{e}"
    );
    let e = errors("float x < int a = 1 > = 2; void main() {}", "ps_6_0");
    assert!(
        e.contains(
            "bad.hlsl:1:42: error: expected ';' and '>' to end the annotation block, found end \
             of input"
        ),
        "{e}"
    );
}

/// Forward declarations of structs (DXC's `vk.buffer-pointer.linked-list.hlsl` starts with
/// `typedef struct block_s block_t;`): `struct S;` and `typedef struct S T;` declare `S`, and
/// the typedef takes effect with `S`'s definition, in a namespace too; using the incomplete
/// type before that is an error with its place.
#[test]
fn forward_declared_structs_and_their_typedefs() {
    let src = r#"
typedef struct pair_s pair_t;
struct later;
class counted;
typedef pair_t pair2_t;
namespace N { struct inner; typedef struct inner inner_t; struct inner { int k; }; }
struct pair_s { float a; float b; };
struct later { pair2_t p; N::inner_t i; };
typedef struct pair_s again_t;
RWStructuredBuffer<float> Out : register(u0);
[numthreads(1, 1, 1)]
void main() {
    pair_t p = { 1.5, 2.0 };
    later l;
    l.p = p;
    l.i.k = 3;
    again_t q = l.p;
    Out[0] = q.a * q.b + l.i.k;
}
"#;
    let words = check("forward_structs", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job =
            r#"{"dispatch": [1], "buffers": [{"binding": 0, "layout": ["f32"], "size_words": 1}]}"#;
        assert_eq!(run::floats(&run::lavapipe(&words, job), 0), vec![6.0]);
        assert_eq!(run::floats(&run::spvkit(&words, job), 0), vec![6.0]);
    }
    let e = errors(
        "typedef struct S T;\nstruct V { T t; };\nstruct S { int a; };\nstruct W;\n\
         [numthreads(1,1,1)] void main() { W w; }",
        "cs_6_0",
    );
    assert!(
        e.contains("bad.hlsl:2:12: error: incomplete type 'T': struct 'S' is not defined here"),
        "{e}"
    );
    assert!(
        e.contains("bad.hlsl:5:35: error: incomplete type 'W': struct 'W' is not defined here"),
        "{e}"
    );
}

/// Member type aliases (`using T = type;` inside a struct, as in DXC's
/// `vk/khr/cooperative_matrix.h`): member types `S::T`, usable in the struct's fields and
/// methods, in struct templates (where they name the instance's arguments) and through a
/// typedef of an instance (`BI::Elem`). Computed on lavapipe and under `spvkit run`.
#[test]
fn member_type_aliases() {
    let src = r#"
struct S {
    using V = float2;
    using Arr = int[3];
    V v;
    Arr a;
    V twice() { V r = v * 2; return r; }
};
template <typename T, int N>
struct Box {
    using Elem = T;
    using Vec = vector<T, N>;
    Vec data;
    Elem first() { Elem e = data.x; return e; }
    static Elem make(Elem x) { return x + 1; }
};
typedef Box<int, 2> BI;
typedef Box<float, 3> BF;
RWStructuredBuffer<float> Out : register(u0);
[numthreads(1, 1, 1)]
void main() {
    S s;
    s.v = S::V(1.5, 2.5);
    S::Arr arr = { 1, 2, 3 };
    s.a = arr;
    Box<float, 3> b;
    b.data = float3(4, 5, 6);
    BI::Elem k = Box<int, 2>::make(6);
    BF::Vec w = b.data;
    Out[0] = s.twice().y + s.a[2] + b.first() + k + w.z;
}
"#;
    let words = check("member_using", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job =
            r#"{"dispatch": [1], "buffers": [{"binding": 0, "layout": ["f32"], "size_words": 1}]}"#;
        // twice().y = 5, a[2] = 3, first() = 4, make(6) = 7, w.z = 6.
        assert_eq!(run::floats(&run::lavapipe(&words, job), 0), vec![25.0]);
        assert_eq!(run::floats(&run::spvkit(&words, job), 0), vec![25.0]);
    }
    let e = errors(
        "struct B { int f() { return 1; } };\nstruct D : B { using B::f; };\n\
         [numthreads(1,1,1)] void main() {}",
        "cs_6_0",
    );
    assert!(
        e.contains(
            "bad.hlsl:2:16: error: not supported yet: 'using' declarations inside a struct \
             other than type aliases ('using T = type;')"
        ),
        "{e}"
    );
    // A member type of an instance as a parameter's type (refused before session 12).
    check(
        "member_using_param",
        "template <class T> struct S { using E = T; };\nint f(S<int>::E x) { return x; }\n\
         RWStructuredBuffer<int> o;\n[numthreads(1,1,1)] void main() { o[0] = f(3); }",
        "cs_6_0",
    );
}

/// Non-static member function templates (DXC's
/// `use.rvalue.for.member-expr.of.array-subscript.hlsl`): `obj.f<T>(x)` with written or
/// deduced arguments, through fields and bases, and `f<T>()`/`this.f<T>()` inside the
/// struct's methods, each instance a method `S.f<T>` taking `this` (written back when the
/// body changes it). Computed on lavapipe and under `spvkit run`.
#[test]
fn non_static_member_function_templates() {
    let src = r#"
RWStructuredBuffer<int> Out : register(u0);
struct Base {
    int b;
    template <typename T> T scaled(T x) { return x * (T)b; }
};
struct Acc : Base {
    int total;
    template <typename T> void add(T v) { total += (int)v; }
    template <typename T> T get() { return (T)total; }
    template <typename T> T twice_get() { return get<T>() + this.get<T>(); }
    void bump() { add(10); add<float>(0.5); }
};
struct Holder { Acc acc; };
[numthreads(1, 1, 1)]
void main() {
    Acc a;
    a.total = 1;
    a.b = 3;
    a.add(5);
    a.add<float>(2.75);
    a.bump();
    Holder h;
    h.acc = a;
    Out[0] = a.get<int>();
    Out[1] = (int)(a.get<float>() * 2);
    Out[2] = h.acc.twice_get<int>();
    Out[3] = a.scaled(7) + (int)a.scaled(1.5);
}
"#;
    let words = check("member_templates", src, "cs_6_0");
    assert!(disassemble(&words).contains("OpName %Acc_get_int_ \"Acc.get<int>\""));
    #[cfg(feature = "run")]
    {
        let job =
            r#"{"dispatch": [1], "buffers": [{"binding": 0, "layout": ["i32"], "size_words": 4}]}"#;
        let want = vec![18, 36, 36, 25];
        assert_eq!(run::ints(&run::lavapipe(&words, job), 0), want);
        assert_eq!(run::ints(&run::spvkit(&words, job), 0), want);
    }
    let e = errors(
        "struct S { int v; template <typename T> T get() { return (T)v; } };\n\
         [numthreads(1,1,1)] void main() { S s; int a = S::get<int>(); }",
        "cs_6_0",
    );
    assert!(
        e.contains(
            "bad.hlsl:2:48: error: call to non-static member function 'S::get' without an object"
        ),
        "{e}"
    );
    let e = errors(
        "struct S { int v; template <typename T> T get() { return (T)v; } };\n\
         S make() { S s; s.v = 1; return s; }\n\
         [numthreads(1,1,1)] void main() { S s; bool c = true;\n\
         int b = (c ? s : make()).get<int>(); }",
        "cs_6_0",
    );
    assert!(
        e.contains(
            "bad.hlsl:4:26: error: not supported yet: calling the member function template \
             'get' on an object whose struct is known only when type checking"
        ),
        "{e}"
    );
}

/// A constant index past the end of a struct's last field that is a one-element array
/// (DXC's `vk.layout.cbuffer.boolean.hlsl` reads `t.boolArray[2]` of `bool boolArray[1]`):
/// clang takes such a field for C89's flexible array member and does not check the index,
/// so it is an access chain with that index, as DXC emits it. Any other array keeps the
/// bounds check.
#[test]
fn tail_one_element_arrays_are_not_bounds_checked() {
    let src = r#"
struct T { float head; bool flags[1]; };
cbuffer C { T t; };
T make() { T r; r.head = 1; r.flags[0] = true; return r; }
float4 main() : SV_Target {
    bool a = t.flags[2];
    T local = make();
    bool b = local.flags[3];
    bool c = make().flags[1];
    return float4(a, b, c, 1);
}
"#;
    let words = check("tail_array", src, "ps_6_0");
    let dis = disassemble(&words);
    for k in ["%int_2", "%int_3", "%int_1"] {
        assert!(
            dis.lines()
                .any(|l| l.contains("OpAccessChain") && l.trim_end().ends_with(k)),
            "no access chain with index {k}:\n{dis}"
        );
    }
    let e = errors(
        "struct T { bool flags[1]; float after; };\nstruct U { float x; int two[2]; };\n\
         cbuffer C { T t; U u; };\n\
         float4 main() : SV_Target { bool a = t.flags[1];\n int b = u.two[2]; return 1; }",
        "ps_6_0",
    );
    assert!(
        e.contains("bad.hlsl:4:46: error: index 1 is out of bounds (size 1)"),
        "{e}"
    );
    assert!(
        e.contains("bad.hlsl:5:16: error: index 2 is out of bounds (size 2)"),
        "{e}"
    );
}

/// `NonUniformResourceIndex`'s mark follows the index through variables, arithmetic and
/// calls (`opt::nonuniform`): every descriptor selected with a value computed from it is
/// decorated, one selected with the plain index is not.
#[test]
fn non_uniform_marks_follow_the_index() {
    let src = "Texture2D t[] : register(t0);
               SamplerState s : register(s0);
               float4 fetch(uint k, float2 uv) { return t[k].Sample(s, uv); }
               float4 main(uint i : I, float2 uv : UV) : SV_Target {
                   uint j = NonUniformResourceIndex(i);
                   uint k = j + 1;
                   return t[k].Sample(s, uv) + fetch(j, uv) + t[i].Sample(s, uv);
               }";
    let dis = disassemble(&check("non_uniform_flow", src, "ps_6_0"));
    let decorated: Vec<&str> = dis
        .lines()
        .filter_map(|l| l.trim().strip_prefix("OpDecorate "))
        .filter_map(|l| l.strip_suffix(" NonUniform"))
        .collect();
    let count = |op: &str| {
        dis.lines()
            .filter(|l| l.contains(&format!("= {op} ")))
            .filter(|l| {
                let id = l.trim().split(" = ").next().unwrap_or("");
                decorated.contains(&id)
            })
            .count()
    };
    let all_chains = dis
        .lines()
        .filter(|l| l.contains("OpAccessChain %_ptr_UniformConstant_type_2d_image %t"))
        .count();
    assert_eq!(all_chains, 3, "{dis}");
    assert_eq!(count("OpAccessChain"), 2, "{dis}");
    assert_eq!(count("OpSampledImage"), 2, "{dis}");
}

/// `GetSamplePosition` of a multisampled texture: the sample count from
/// `OpImageQuerySamples` picks one of D3D's standard patterns (2, 4, 8, 16 samples; `(0, 0)`
/// otherwise), kept in one table of every pattern; other textures have no such method.
#[test]
fn get_sample_position() {
    let src = "Texture2DMS<float> t : register(t0);
               float4 main(int index : INDEX) : SV_Target {
                   return t.GetSamplePosition(index).xyxy;
               }";
    let dis = disassemble(&check("sample_position", src, "ps_6_0"));
    for want in [
        "OpCapability ImageQuery",
        "OpImageQuerySamples %uint",
        "%_arr_v2float_uint_31 = OpTypeArray %v2float %uint_31",
        // The 16-sample pattern's corners, as DXC tables them.
        "OpConstantComposite %v2float %float_n0_4375 %float_n0_5",
        "OpConstantComposite %v2float %float_n0_5 %float_0",
    ] {
        assert!(dis.contains(want), "missing {want}:\n{dis}");
    }
    let e = errors(
        "Texture2D t; float4 main() : SV_Target { return t.GetSamplePosition(0).xyxy; }",
        "ps_6_0",
    );
    assert!(
        e.contains("GetSamplePosition is a method of multisampled textures only"),
        "{e}"
    );
}

/// Structured-buffer parameters: each distinct list of module-scope buffers a function's
/// calls pass makes an instance of it that names those buffers (what DXC's legalization
/// makes by inlining), a parameter passing its buffer on; on lavapipe and under `spvkit run`.
#[test]
fn buffer_parameters() {
    let src = "StructuredBuffer<float> src : register(t0);
               RWStructuredBuffer<float> a : register(u1);
               RWStructuredBuffer<float> b : register(u2);
               void copy(RWStructuredBuffer<float> dst, StructuredBuffer<float> from, uint k,
                         float scale) {
                   dst[k] = from[k] * scale;
               }
               void twice(RWStructuredBuffer<float> dst, uint k) { copy(dst, src, k, 2); }
               [numthreads(1, 1, 1)]
               void main() { copy(a, src, 0, 1); twice(b, 1); twice(a, 1); }";
    let words = check("buffer_params", src, "cs_6_0");
    let dis = disassemble(&words);
    // Two instances of each: (a, src) and (b, src); (a) and (b).
    assert_eq!(dis.matches("OpName %copy").count(), 2, "{dis}");
    assert_eq!(dis.matches("OpName %twice").count(), 2, "{dis}");
    assert!(!dis.contains("OpFunctionParameter %_ptr_Uniform"), "{dis}");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["f32"], "data": [3, 5]},
            {"binding": 1, "layout": ["f32"], "size_words": 2},
            {"binding": 2, "layout": ["f32"], "size_words": 2}]}"#;
        for out in [run::lavapipe(&words, job), run::spvkit(&words, job)] {
            assert_eq!(run::floats(&out, 1), [3.0f32, 10.0]);
            assert_eq!(run::floats(&out, 2), [0.0f32, 10.0]);
        }
    }
}

/// `[[vk::image_format("...")]]` gives a storage image or texel buffer (arrays of them too)
/// its format, in DXC's spellings (`ImageFormat` names in lower case, `r11g11b10f`); on a
/// sampled texture, with a format SPIR-V lacks, or with one whose texels are not the element
/// type (Vulkan's format-type matching, as DXC checks it), it is an error.
#[test]
fn image_format_attribute() {
    let src = "[[vk::image_format(\"rgba16f\")]] RWTexture2D<float4> t : register(u0);
               [[vk::image_format(\"r11g11b10f\")]] RWTexture2D<float3> small[2] : register(u1);
               [[vk::image_format(\"rgba8ui\")]] Buffer<uint4> bytes : register(t2);
               [[vk::image_format(\"r32f\")]] RWBuffer<float> rw : register(u3);
               RWTexture2D<float2> plain : register(u4);
               [numthreads(1, 1, 1)]
               void main() {
                   t[uint2(0, 0)] = small[1][uint2(0, 0)].xyzz + bytes[0] + rw[0] + plain[uint2(0, 0)].x;
               }";
    let dis = disassemble(&check("image_format", src, "cs_6_0"));
    for want in [
        "OpTypeImage %float 2D 2 0 0 2 Rgba16f",
        "OpTypeImage %float 2D 2 0 0 2 R11fG11fB10f",
        "OpTypeImage %uint Buffer 2 0 0 1 Rgba8ui",
        "OpTypeImage %float Buffer 2 0 0 2 R32f",
        "OpTypeImage %float 2D 2 0 0 2 Rg32f",
    ] {
        assert!(dis.contains(want), "missing {want}:\n{dis}");
    }
    for (decl, want) in [
        (
            "[[vk::image_format(\"rgba8\")]] Texture2D t;",
            "vk::image_format applies to storage images (RWTexture*) and texel buffers",
        ),
        (
            "[[vk::image_format(\"rgb8\")]] RWTexture2D<float4> t;",
            "unknown image format 'rgb8'",
        ),
        (
            "[[vk::image_format(\"rgba32i\")]] RWTexture2D<uint4> t;",
            "The image format and the sampled type are not compatible.",
        ),
    ] {
        let e = errors(
            &format!("{decl}\n[numthreads(1, 1, 1)] void main() {{}}"),
            "cs_6_0",
        );
        assert!(e.contains(want), "{want}:\n{e}");
    }
}

/// SPV_AMD_shader_early_and_late_fragment_tests from the pixel entry point's attributes:
/// `[[vk::early_and_late_tests]]`, `[[vk::depth_unchanged]]` and one stencil-reference mode
/// per face (two for a face is DXC's error); on another function they are an error rather
/// than ignored.
#[test]
fn early_and_late_fragment_tests() {
    let src = "[[vk::early_and_late_tests]] [[vk::depth_unchanged]]
               [[vk::stencil_ref_less_equal_front]] [[vk::stencil_ref_unchanged_back]]
               float4 main() : SV_Target { return 1; }";
    let dis = disassemble(&check("early_late", src, "ps_6_0"));
    for want in [
        "OpExtension \"SPV_AMD_shader_early_and_late_fragment_tests\"",
        "OpExecutionMode %main EarlyAndLateFragmentTestsAMD",
        "OpExecutionMode %main DepthUnchanged",
        "OpExecutionMode %main StencilRefLessFrontAMD",
        "OpExecutionMode %main StencilRefUnchangedBackAMD",
    ] {
        assert!(dis.contains(want), "missing {want}:\n{dis}");
    }
    for (src, want) in [
        (
            "[[vk::stencil_ref_less_equal_front]] [[vk::stencil_ref_unchanged_front]]
             float4 main() : SV_Target { return 1; }",
            "Shaders must not specify more than one of stencil_ref_unchanged_front",
        ),
        (
            "[[vk::early_and_late_tests]] float4 f() { return 1; }
             float4 main() : SV_Target { return f(); }",
            "[[vk::early_and_late_tests]] applies to a pixel shader's entry point only",
        ),
    ] {
        let e = errors(src, "ps_6_0");
        assert!(e.contains(want), "{want}:\n{e}");
    }
}

/// `[[vk::builtin("...")]]` on an entry parameter, return value or stage struct field makes
/// the stage variable that built-in where DXC allows it (PointSize out of a vertex shader,
/// the draw parameters into one, HelperInvocation into a pixel shader, DeviceIndex into any);
/// elsewhere, with the wrong type, or with `[[vk::location]]`, it is an error.
#[test]
fn builtin_attribute() {
    let vs = "struct Out { float4 pos : SV_Position; [[vk::builtin(\"PointSize\")]] float size : PSIZE; };
              Out main([[vk::builtin(\"BaseVertex\")]] int base : A,
                       [[vk::builtin(\"DrawIndex\")]] uint draw : B,
                       [[vk::builtin(\"DeviceIndex\")]] int device : C) {
                  Out o;
                  o.pos = float4(base, draw, device, 1);
                  o.size = 2;
                  return o;
              }";
    let dis = disassemble(&check("vk_builtin_vs", vs, "vs_6_0"));
    for want in [
        "OpDecorate %gl_PointSize BuiltIn PointSize",
        "OpDecorate %gl_BaseVertex BuiltIn BaseVertex",
        "OpDecorate %gl_DrawID BuiltIn DrawIndex",
        "OpDecorate %gl_DeviceIndex BuiltIn DeviceIndex",
        "%gl_PointSize = OpVariable %_ptr_Output_float Output",
        "%gl_DrawID = OpVariable %_ptr_Input_uint Input",
        "OpCapability DrawParameters",
    ] {
        assert!(dis.contains(want), "missing {want}:\n{dis}");
    }
    let ps = "float4 main([[vk::builtin(\"HelperInvocation\")]] bool helper : H) : SV_Target {
                  return helper ? 1 : 0;
              }";
    let dis = disassemble(&check("vk_builtin_ps", ps, "ps_6_0"));
    assert!(
        dis.contains("OpDecorate %gl_HelperInvocation BuiltIn HelperInvocation"),
        "{dis}"
    );
    for (src, profile, want) in [
        (
            "float4 main([[vk::builtin(\"PointSize\")]] float s : S) : SV_Target { return s; }",
            "ps_6_0",
            "the pixel shader reads its [[vk::builtin(\"PointSize\")]] input",
        ),
        (
            "void main([[vk::builtin(\"PointSize\")]] float s : S) {}",
            "vs_6_0",
            "not supported yet: [[vk::builtin(\"PointSize\")]] as an input of this stage",
        ),
        (
            "float4 main([[vk::builtin(\"BaseVertex\")]] float b : B) : SV_Position { return b; }",
            "vs_6_0",
            "[[vk::builtin(\"BaseVertex\")]] cannot be of type 'float'",
        ),
        (
            "float4 main([[vk::builtin(\"BaseVertex\"), vk::location(2)]] int b : B) : SV_Position { return b; }",
            "vs_6_0",
            "cannot use vk::builtin and vk::location together",
        ),
    ] {
        let e = errors(src, profile);
        assert!(e.contains(want), "{want}:\n{e}");
    }
}

/// `SubpassInput<T>`/`SubpassInputMS<T>`: SubpassData images at
/// `[[vk::input_attachment_index(N)]]`, read by `SubpassLoad()` (with a sample for the MS
/// form) at coordinate (0, 0) and trimmed to `T`, passed to functions and named by locals like
/// any image; in a static variable, of a struct element, or outside pixel shaders, errors.
#[test]
fn subpass_inputs() {
    let src = "[[vk::input_attachment_index(0)]] SubpassInput color : register(t0);
               [[vk::input_attachment_index(1)]] SubpassInput<int2> ids : register(t1);
               [[vk::input_attachment_index(2)]] SubpassInputMS<float> depth : register(t2);
               float4 read(SubpassInput s) { return s.SubpassLoad(); }
               float4 main() : SV_Target {
                   SubpassInput c = color;
                   return read(c) + ids.SubpassLoad().xyxy + depth.SubpassLoad(3);
               }";
    let dis = disassemble(&check_unlegalized("subpass", src, "ps_6_0"));
    for want in [
        "OpCapability InputAttachment",
        "OpDecorate %color InputAttachmentIndex 0",
        "OpDecorate %depth InputAttachmentIndex 2",
        "OpTypeImage %float SubpassData 2 0 0 2 Unknown",
        "OpTypeImage %int SubpassData 2 0 0 2 Unknown",
        "OpTypeImage %float SubpassData 2 0 1 2 Unknown",
        "Sample %int_3",
        "OpFunctionParameter %_ptr_UniformConstant_type_subpass_image",
    ] {
        assert!(dis.contains(want), "missing {want}:\n{dis}");
    }
    for (src, profile, want) in [
        (
            "[[vk::input_attachment_index(0)]] static SubpassInput s;\nfloat4 main() : SV_Target { return 0; }",
            "ps_6_0",
            "SubpassInput(MS) must be externally visible",
        ),
        (
            "struct S { float a; };\n[[vk::input_attachment_index(0)]] SubpassInput<S> s;\nfloat4 main() : SV_Target { return 0; }",
            "ps_6_0",
            "only scalar/vector types allowed as SubpassInput(MS) parameter type",
        ),
        (
            "[[vk::input_attachment_index(0)]] SubpassInput s; RWBuffer<float4> o;\n[numthreads(1, 1, 1)] void main() { o[0] = s.SubpassLoad(); }",
            "cs_6_0",
            "SubpassInput(MS) only allowed in pixel shader",
        ),
        (
            "[[vk::input_attachment_index(0)]] Texture2D t;\nfloat4 main() : SV_Target { return 0; }",
            "ps_6_0",
            "vk::input_attachment_index applies to SubpassInput(MS) only",
        ),
    ] {
        let e = errors(src, profile);
        assert!(e.contains(want), "{want}:\n{e}");
    }
}

/// Rasterizer-ordered views are their `RW` types; a pixel shader declaring one runs in a
/// fragment shader interlock entered and left once around the source entry point, ordered
/// per pixel (per sample when it reads SV_SampleIndex, as DXC picks).
#[test]
fn rasterizer_ordered_views() {
    let body = "RasterizerOrderedTexture2D<float4> img : register(u0);
                typedef RasterizerOrderedStructuredBuffer<uint> Counts;
                Counts counts : register(u1);
                float4 main(float4 pos : SV_Position IN) : SV_Target {
                    uint2 p = uint2(pos.xy);
                    img[p] = img[p] * 0.5 + 0.5;
                    counts[p.x] += 1;
                    return img[p];
                }";
    let dis = disassemble(&check("rov", &body.replace(" IN", ""), "ps_6_0"));
    for want in [
        "OpCapability FragmentShaderPixelInterlockEXT",
        "OpExtension \"SPV_EXT_fragment_shader_interlock\"",
        "OpExecutionMode %main PixelInterlockOrderedEXT",
        "OpTypeImage %float 2D 2 0 0 2 Rgba32f",
    ] {
        assert!(dis.contains(want), "missing {want}:\n{dis}");
    }
    // Once each, around the call of the source entry point.
    let lines: Vec<&str> = dis.lines().map(str::trim).collect();
    let at = |what: &str| lines.iter().position(|l| l.contains(what)).unwrap();
    assert_eq!(
        dis.matches("OpBeginInvocationInterlockEXT").count(),
        1,
        "{dis}"
    );
    assert_eq!(
        dis.matches("OpEndInvocationInterlockEXT").count(),
        1,
        "{dis}"
    );
    let call = at("OpFunctionCall %v4float %src_main");
    assert!(at("OpBeginInvocationInterlockEXT") < call && call < at("OpEndInvocationInterlockEXT"));
    let per_sample = body.replace(" IN", ", uint s : SV_SampleIndex");
    let dis = disassemble(&check("rov_sample", &per_sample, "ps_6_0"));
    assert!(
        dis.contains("OpExecutionMode %main SampleInterlockOrderedEXT"),
        "{dis}"
    );
}

/// A function returning a resource with one `return r;` is evaluated where it is called (what
/// DXC's legalization makes of it by inlining): its body sees the module's names and its
/// parameters, never the caller's locals; the resources it names are read and written on
/// lavapipe and under `spvkit run`. Another body is refused.
#[test]
fn functions_returning_resources() {
    let src = "RWStructuredBuffer<float> a : register(u0);
               RWStructuredBuffer<float> b : register(u1);
               RWStructuredBuffer<float> first() { return a; }
               RWStructuredBuffer<float> same(RWStructuredBuffer<float> x) { return x; }
               RWStructuredBuffer<float> second() { return same(b); }
               [numthreads(1, 1, 1)]
               void main() {
                   RWStructuredBuffer<float> a = b;
                   first()[0] = 7;
                   same(a)[1] = 3;
                   RWStructuredBuffer<float> s = second();
                   s[0] = 5;
               }";
    let words = check("resource_return", src, "cs_6_0");
    let dis = disassemble(&words);
    assert!(
        !dis.contains("OpFunction %type_RWStructuredBuffer"),
        "{dis}"
    );
    #[cfg(feature = "run")]
    {
        // `first()` is the module's `a`, not the caller's local `a` (which is `b`).
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["f32"], "size_words": 2},
            {"binding": 1, "layout": ["f32"], "size_words": 2}]}"#;
        for out in [run::lavapipe(&words, job), run::spvkit(&words, job)] {
            assert_eq!(run::floats(&out, 0), [7.0f32, 0.0]);
            assert_eq!(run::floats(&out, 1), [5.0f32, 3.0]);
        }
    }
    // `return`s chosen by conditions constant at the call (DXC's legalization folds them).
    let src = "RWStructuredBuffer<uint> a : register(u0); RWStructuredBuffer<uint> b : register(u1);
         RWStructuredBuffer<uint> pick(int which, bool other) {
           if (which == 0) { return a; } else if (other) return b; return a;
         }
         [numthreads(1, 1, 1)] void main() { pick(0, true)[0] = 1; pick(1, true)[0] = 2; pick(1, false)[1] = 3; }";
    let words = check("resource-returns", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["u32"], "size_words": 2},
            {"binding": 1, "layout": ["u32"], "size_words": 2}]}"#;
        for out in [run::lavapipe(&words, job), run::spvkit(&words, job)] {
            assert_eq!(run::words(&out, 0), [1, 3]);
            assert_eq!(run::words(&out, 1), [2, 0]);
        }
    }
    let _ = words;
    // A condition the call does not make constant, or a statement other than `if` and
    // `return`, is refused.
    for body in [
        "if (c) return a; return b;",
        "if (true) { c = !c; return a; } return b;",
    ] {
        let e = errors(
            &format!(
                "Texture2D a; Texture2D b;
                 Texture2D pick(bool c) {{ {body} }}
                 float4 main(bool k : K) : SV_Target {{ return pick(k).Load(0); }}"
            ),
            "ps_6_0",
        );
        assert!(
            e.contains("not supported yet: a function returning a resource other than through `return` statements chosen by conditions constant at the call"),
            "{e}"
        );
    }
}

/// A counter method called through a buffer parameter of a RWStructuredBuffer that has no
/// counter of its own (none is called by its name) is refused as such, not as a missing
/// method.
#[test]
fn counter_methods_through_parameters_are_refused_as_such() {
    let e = errors(
        "RWStructuredBuffer<float> g;
         void bump(RWStructuredBuffer<float> p) { p.IncrementCounter(); }
         [numthreads(1, 1, 1)] void main() { bump(g); }",
        "cs_6_0",
    );
    assert!(
        e.contains("not supported yet: 'IncrementCounter' through a parameter or another name"),
        "{e}"
    );
}

/// A method call reaches only the method of the receiver's struct (or its nearest base):
/// another struct's method of the same name is neither compiled nor checked, as in DXC, where
/// the receiver's type is known (variables, members, elements, parameters, `this`, buffer
/// elements, constant buffers). Where it is not (an `auto` local), every method of that name
/// is compiled.
#[test]
fn method_calls_reach_only_the_receivers_method() {
    let src = "struct A { float m(float x) { return ddx(x); } };
         struct Base { float k; float m(float x) { return x + k; } };
         struct B : Base { float n(float x) { return m(x) * 2; } };
         struct H { B b[2]; };
         struct C { float m(float x) { return ddy(x); } float w; };
         ConstantBuffer<Base> cb;
         StructuredBuffer<B> bs;
         float use(H h, float v) { return h.b[1].n(v) + bs[0].m(v) + cb.m(v); }
         float4 main(float4 p : POSITION) : SV_Position { H h = (H)0; return p * use(h, p.x); }";
    let words = check("method-receivers", src, "vs_6_0");
    let text = disassemble(&words);
    assert!(text.contains("OpName %Base_m \"Base.m\""), "{text}");
    assert!(text.contains("OpName %B_n \"B.n\""), "{text}");
    assert!(
        !text.contains("\"A.m\"") && !text.contains("\"C.m\""),
        "{text}"
    );
    // An `auto` local has its initializer's type: its methods are the struct's too.
    let mut o = options("vs_6_0", TargetEnv::Vulkan1_0, LanguageVersion::V202x);
    o.entry = "main".into();
    let auto_src = src.replace("H h = (H)0;", "H h = (H)0; auto a = h.b[0]; a.m(1);");
    let words = match compile_source("auto.hlsl", &auto_src, &o) {
        Ok(c) => c.words,
        Err(e) => panic!("{}", e.rendered),
    };
    let text = disassemble(&words);
    assert!(
        !text.contains("\"A.m\"") && !text.contains("\"C.m\""),
        "{text}"
    );
}

/// A member type of a template instance, `S<A>::T` (and `typename S<T>::U` inside a
/// template, and one reached through a namespace's template): the instance's member, as a
/// local's type, a static member function's scope and an alias's target.
#[test]
fn member_types_of_template_instances() {
    let src = "template<typename T, int N> struct S { typedef vector<T, N> V; T x;
             static V make(T a) { return (V)a; } };
         template<typename T> struct Holder { typedef T Elem; };
         namespace ns { template<typename T> struct W { typedef S<T, 2> Inner; }; }
         template<typename T> T twice(T x) { typename Holder<T>::Elem y = x; return y * 2; }
         RWStructuredBuffer<float4> o : register(u0);
         [numthreads(1, 1, 1)] void main() {
           S<float, 4>::V v = 1;
           ns::W<int>::Inner s;
           s.x = 3;
           S<int, 2>::V w = S<int, 2>::make(5);
           o[0] = v + float4(s.x, w, twice(0.25));
         }";
    let words = check("instance-member-types", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["f32"], "size_words": 4}]}"#;
        for out in [run::lavapipe(&words, job), run::spvkit(&words, job)] {
            assert_eq!(run::floats(&out, 0), [4.0f32, 6.0, 6.0, 1.5]);
        }
    }
    let _ = words;
}

/// Out-of-line definitions of struct templates' member functions (DXC's
/// `vk/khr/cooperative_matrix.impl` defines its `CooperativeMatrix` methods so): a plain
/// method, a static one, a member function template (`template <..> template <class V>`),
/// operators told apart by their parameter's type (`operator*(S)`, `operator*(T)`), outer
/// and inner parameters named differently from the declaration's, and a template in a
/// namespace (defined in the reopened namespace and from the file scope, with a static data
/// member). The plain `S` inside the template is the instance. Computed on lavapipe and
/// under `spvkit run`; then the errors, with their places.
#[test]
fn out_of_line_members_of_struct_templates() {
    let src = r#"
template <class T, uint N> struct S {
    T v;
    T get();
    template <class U> S<U, N> cast();
    S operator+(S o);
    S operator*(S o);
    S operator*(T k);
    static S make(T x);
};
template <class T, uint N> T S<T, N>::get() { return v * N; }
template <class X, uint M> template <class V> S<V, M> S<X, M>::cast() {
    S<V, M> r;
    r.v = (V)v + M;
    return r;
}
template <class T, uint N> S<T, N> S<T, N>::operator+(S o) { S r; r.v = v + o.v; return r; }
template <class T, uint N> S<T, N> S<T, N>::operator*(S<T, N> o) { S r; r.v = v * o.v; return r; }
template <class A, uint B> S<A, B> S<A, B>::operator*(A k) { S<A, B> r; r.v = v * k + B; return r; }
template <class T, uint N> S<T, N> S<T, N>::make(T x) { S r; r.v = x; return r; }
namespace outer { namespace inner {
template <class T, uint N> struct W {
    T x[N];
    static const T base;
    T sum();
    template <class U> U dot(vector<U, N> w);
};
} }
namespace outer { namespace inner {
template <class T, uint N> const T W<T, N>::base = 100;
template <class T, uint N> T W<T, N>::sum() {
    T s = base;
    for (uint i = 0; i < N; i++) s += x[i];
    return s;
}
} }
template <class T, uint N> template <class U> U outer::inner::W<T, N>::dot(vector<U, N> w) {
    U s = 0;
    for (uint i = 0; i < N; i++) s += (U)x[i] * w[i];
    return s;
}
RWStructuredBuffer<float> o : register(u0);
[numthreads(1, 1, 1)]
void main() {
    S<float, 2> a = S<float, 2>::make(1.5);
    S<float, 2> b = S<float, 2>::make(2.0);
    o[0] = a.get();
    o[1] = (a + b).v;
    o[2] = (a * b).v;
    o[3] = (a * 3.0).v;
    o[4] = a.cast<int>().v;
    outer::inner::W<int, 3> w;
    w.x[0] = 2; w.x[1] = 3; w.x[2] = 4;
    o[5] = w.sum();
    o[6] = w.dot<float>(float3(1, 10, 100));
}
"#;
    let words = check("out_of_line_template_members", src, "cs_6_0");
    let dis = disassemble(&words);
    // Both `operator*`s are methods of the instance, and so is the member template's.
    assert_eq!(dis.matches("\"S<float, 2>.operator*\"").count(), 2, "{dis}");
    assert!(dis.contains("\"S<float, 2>.cast<int>\""), "{dis}");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["f32"], "size_words": 7}]}"#;
        // 1.5 * 2; 1.5 + 2; 1.5 * 2; 1.5 * 3 + 2; (int)1.5 + 2; 100 + 2 + 3 + 4;
        // 2 + 30 + 400.
        let want = [3.0f32, 3.5, 3.0, 6.5, 3.0, 109.0, 432.0];
        for out in [run::lavapipe(&words, job), run::spvkit(&words, job)] {
            assert_eq!(run::floats(&out, 0), want);
        }
    }
    let e = errors(
        "template <class T, uint N> struct S { T v; T get(); T get(int k); };\n\
         template <class T, uint N> T S<N, T>::get() { return v; }\n\
         template <class T, uint N> T S<T, N>::get(float k) { return v; }\n\
         template <class T, uint N> T S<T, N>::get(int k) { return v; }\n\
         template <class T, uint N> T S<T, N>::get(int j) { return v; }\n\
         template <class T, uint N> template <class U> T S<T, N>::get() { return v; }\n\
         template <uint N> int S<N>::get() { return 0; }\n\
         template <class T, uint N> T S<T, N>::get();\n\
         [numthreads(1,1,1)] void main() {}",
        "cs_6_0",
    );
    for want in [
        "bad.hlsl:2:31: error: not supported yet: a member function definition whose template \
         arguments are not the template's parameters, in order ('S<...>::get')",
        "bad.hlsl:3:39: error: no member function 'get' in 'S' matches this definition",
        "bad.hlsl:5:39: error: redefinition of 'S::get'",
        "bad.hlsl:6:58: error: no member function 'get' in 'S' matches this definition",
        "bad.hlsl:7:23: error: the template parameters of this definition of 'S::get' do not \
         match those of 'S'",
        "bad.hlsl:8:39: error: an out-of-line declaration of the member function 'S::get' \
         must be a definition",
    ] {
        assert!(e.contains(want), "missing {want}:\n{e}");
    }
    // The definition with `int k` matched its declaration: no error names line 4.
    assert!(!e.contains("bad.hlsl:4:"), "{e}");
}

/// Local type aliases (`using T = type;`, `typedef type T;`), scoped to their block: an
/// inner one shadows an outer one and ends with its block; one of an array type; the alias
/// as a local's type, in a cast, a constructor, `sizeof`, a template argument (the same
/// instance as the type spelled out) and for a struct's static member, member type and
/// method; aliases in a function template, in a member function template of a struct
/// template (`cooperative_matrix.impl`'s `cast`: `using R = Box<U, N>;`) and in a method
/// naming its own instance through a member type (`typename Self::Vec`). Computed on
/// lavapipe and under `spvkit run`; then the errors: an alias used after its block,
/// redefinitions in one scope (alias and alias, variable then alias, alias then variable),
/// an alias whose type uses a local, a local `using namespace`.
#[test]
fn local_type_aliases() {
    let src = r#"
struct P { int v; static const int K = 7; typedef float2 Pair; int get() { return v * 2; } };
template <class T> struct Wrap { T x; };
template <class T, uint N> struct Box {
    T x;
    typedef vector<T, N> Vec;
    template <class U> Box<U, N> cast() { using R = Box<U, N>; R r; r.x = (U)x + N; return r; }
    T total() {
        typedef Box<T, N> Self;
        Self s;
        s.x = x;
        using V = typename Self::Vec;
        V v = (V)s.x;
        return dot(v, (V)1);
    }
};
template <class T> T addOne(T a) { using U = T; typedef U W; W w = (W)1; return a + w; }
template <class T> uint words() { return sizeof(T) / 4; }
RWStructuredBuffer<float> o : register(u0);
[numthreads(1, 1, 1)] void main() {
    using F = float;
    typedef int I;
    F a = 1.5;
    I b = I(3.7);
    {
        using F = int;
        F c = (F)2.7;
        o[0] = c + b;
        typedef float V2[2];
        V2 arr = {4.0, 5.5};
        o[1] = arr[1];
        {
            o[2] = (F)9.9 / 2;
        }
    }
    F d = a + sizeof(I);
    o[3] = d;
    using PP = P;
    PP p;
    p.v = 4;
    PP::Pair q = float2(1, 2);
    o[4] = p.get() + PP::K + q.y;
    using BF = Box<float, 3>;
    BF bf;
    bf.x = 2.5;
    using BI = Box<int, 3>;
    BI bi = bf.cast<int>();
    o[5] = bi.x;
    o[6] = addOne<F>(1.25) + addOne(2);
    o[7] = bf.total();
    o[8] = words<BF>() + words<I>() * 2;
    Wrap<BI> nested;
    nested.x.x = 6;
    Wrap<Box<int, 3> > same = nested;
    o[9] = same.x.x;
}
"#;
    let words = check("local_type_aliases", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["f32"], "size_words": 10}]}"#;
        // 2 + 3; 5.5; (int)9.9 / 2; 1.5 + sizeof(int); 8 + 7 + 2; (int)2.5 + 3; 2.25 + 3;
        // 3 * 2.5; 1 + 1 * 2; 6.
        let want = [5.0f32, 5.5, 4.0, 5.5, 17.0, 5.0, 5.25, 7.5, 3.0, 6.0];
        for out in [run::lavapipe(&words, job), run::spvkit(&words, job)] {
            assert_eq!(run::floats(&out, 0), want);
        }
    }
    let _ = words;
    let e = errors(
        "RWStructuredBuffer<float> o;\n[numthreads(1,1,1)] void main() {\n  \
         { using F = float; F a = 1; o[0] = a; }\n  F b = 2;\n  o[1] = b;\n}",
        "cs_6_0",
    );
    assert!(
        e.contains("bad.hlsl:4:3: error: unknown type name 'F'"),
        "{e}"
    );
    let e = errors(
        "RWStructuredBuffer<float> o;\n[numthreads(1,1,1)] void main() {\n  using F = float;\n  \
         typedef int F;\n  int x;\n  using x = float;\n  using G = int;\n  float G;\n  \
         { using F = int; F y = 1; o[0] = y; }\n}",
        "cs_6_0",
    );
    for want in [
        "bad.hlsl:4:15: error: redefinition of 'F'",
        "bad.hlsl:6:9: error: redefinition of 'x'",
        "bad.hlsl:8:9: error: redefinition of 'G'",
    ] {
        assert!(e.contains(want), "missing {want}:\n{e}");
    }
    // The inner `F` shadows the outer one: no error on line 9.
    assert!(!e.contains("bad.hlsl:9:"), "{e}");
    let e = errors(
        "RWStructuredBuffer<float> o;\n[numthreads(1,1,1)] void main() {\n  const int n = 2;\n  \
         typedef float A[n];\n  using V = vector<float, n>;\n}",
        "cs_6_0",
    );
    for line in [4, 5] {
        let want = format!(
            "bad.hlsl:{line}:3: error: not supported yet: a local type alias whose type uses a \
             local variable"
        );
        assert!(e.contains(&want), "missing {want}:\n{e}");
    }
    let e = errors(
        "[numthreads(1,1,1)] void main() {\n  using namespace N;\n}",
        "cs_6_0",
    );
    assert!(
        e.contains(
            "bad.hlsl:2:3: error: not supported yet: local 'using' declarations other than a \
             type alias"
        ),
        "{e}"
    );
}

/// Enumerators as template value arguments (`template <vk::Scope s>` given
/// `vk::ScopeSubgroup`, as `cooperative_matrix.h` is used): an unscoped enum's `A` and
/// `E::A`, a scoped `enum class` with an underlying type, and constant expressions of them
/// (`A | B`, `(int)Color::Green + 1`), each keying its instance as the literal of its value
/// does (`M<3>` is `M<vk::ScopeSubgroup>`), also through a local alias and in a member
/// function template of a struct template. Computed on lavapipe and under `spvkit run`; an
/// argument that does not fold to a value in `0..2^31` (`A - B`) is refused by name.
#[test]
fn enumerators_as_template_arguments() {
    let src = r#"
namespace vk { enum Scope { ScopeDevice = 1, ScopeWorkgroup = 2, ScopeSubgroup = 3 }; }
enum class Color : uint { Red = 1, Green = 2, Blue = 4 };
enum Flags { A = 1, B = 2, C };
template <vk::Scope s> struct M { static const uint scope = s; uint get() { return s * 10; } };
template <Color c, uint n> uint pick() { return (uint)c * 100 + n; }
template <int f> int fl() { return f; }
template <class T, vk::Scope s, uint R> struct Mat {
    T v;
    template <class U> Mat<U, s, R> cast() { using Result = Mat<U, s, R>; Result r; r.v = (U)v * R + s; return r; }
};
RWStructuredBuffer<uint> o : register(u0);
[numthreads(1, 1, 1)] void main() {
    M<vk::ScopeSubgroup> m;
    o[0] = m.get() + M<vk::ScopeWorkgroup>::scope;
    o[1] = pick<Color::Blue, 3>();
    o[2] = fl<A | B>() + fl<Flags::C>() * 10;
    o[3] = fl<(int)Color::Green + 1>();
    M<3> m3;
    M<vk::ScopeSubgroup> m4 = m3;
    using Sub = M<vk::ScopeDevice>;
    o[4] = m4.get() + Sub::scope;
    Mat<float, vk::ScopeSubgroup, 2> a;
    a.v = 1.5;
    o[5] = a.cast<int>().v;
}
"#;
    let words = check("enum_template_args", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["u32"], "size_words": 6}]}"#;
        // 30 + 2; 4 * 100 + 3; 3 + 3 * 10; 2 + 1; 30 + 1; (int)1.5 * 2 + 3.
        for out in [run::lavapipe(&words, job), run::spvkit(&words, job)] {
            assert_eq!(run::words(&out, 0), [32u32, 403, 33, 3, 31, 5]);
        }
    }
    let _ = words;
    let e = errors(
        "enum E { A = 1, B = 2 };\ntemplate <int f> int fl() { return f; }\n\
         RWStructuredBuffer<int> o;\n[numthreads(1,1,1)] void main() {\n  o[0] = fl<A - B>();\n}",
        "cs_6_0",
    );
    assert!(
        e.contains(
            "bad.hlsl:5:10: error: not supported yet: this argument for the template parameter \
             'f'"
        ),
        "{e}"
    );
}

/// C++'s `template` before a dependent member template (`S<T>::template f<U>(x)`) and
/// `typename` in a call's template arguments, as `cooperative_matrix.impl` writes them.
/// Computed on lavapipe and under `spvkit run`.
#[test]
fn template_keyword_and_typename_in_calls() {
    let src = "template <class T> struct Conv {
                   template <class U> static U to(T x) { return (U)x * 2; }
               };
               template <class T> struct Box { typedef T Elem; };
               template <class T> T first(T x) { return x; }
               template <class T> float call(T x) {
                   return Conv<T>::template to<float>(x) + first<typename Box<float>::Elem>(1.25);
               }
               RWStructuredBuffer<float> o : register(u0);
               [numthreads(1, 1, 1)] void main() {
                   o[0] = Conv<int>::template to<float>(3);
                   o[1] = first<typename Box<float>::Elem>(1.5);
                   o[2] = call(4);
               }";
    let words = check("template_keyword", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["f32"], "size_words": 3}]}"#;
        for out in [run::lavapipe(&words, job), run::spvkit(&words, job)] {
            assert_eq!(run::floats(&out, 0), [6.0f32, 1.5, 9.25]);
        }
    }
    let _ = words;
}

/// An array of RWStructuredBuffers with counters: an array of counter blocks at the counter
/// binding, indexed with the buffer (`bufs[k].IncrementCounter()`). Each of four workgroups
/// takes a slot of buffer `k = id % 2`; computed on lavapipe and under `spvkit run`.
#[test]
fn arrays_of_buffers_with_counters() {
    let src = "[[vk::binding(0), vk::counter_binding(1)]] RWStructuredBuffer<uint> bufs[2];
         [[vk::binding(2)]] RWStructuredBuffer<uint> o;
         [numthreads(1, 1, 1)] void main(uint id : SV_GroupID) {
           uint k = id % 2;
           uint slot = bufs[k].IncrementCounter();
           bufs[k][slot] = id + 10;
           o[id] = slot;
         }";
    let words = check("counter-arrays", src, "cs_6_0");
    let text = disassemble(&words);
    assert!(
        text.contains("OpName %counter_var_bufs \"counter.var.bufs\""),
        "{text}"
    );
    #[cfg(feature = "run")]
    {
        use spvkit::run::BufferId;
        // One invocation per workgroup: the index into the array is dynamically uniform.
        let job = r#"{"dispatch": [4], "buffers": [
            {"set": 0, "binding": 0, "layout": ["u32"], "size_words": 4},
            {"set": 0, "binding": 0, "index": 1, "layout": ["u32"], "size_words": 4},
            {"set": 0, "binding": 1, "layout": ["i32"], "data": [0]},
            {"set": 0, "binding": 1, "index": 1, "layout": ["i32"], "data": [0]},
            {"set": 0, "binding": 2, "layout": ["u32"], "size_words": 4}]}"#;
        for out in [run::lavapipe(&words, job), run::spvkit(&words, job)] {
            let element = |binding: u32, index: u32| -> Vec<u32> {
                let id = if index == 0 {
                    BufferId::Binding { set: 0, binding }
                } else {
                    BufferId::ArrayElement {
                        set: 0,
                        binding,
                        index,
                    }
                };
                let b = out.buffers.iter().find(|b| b.id == id).expect("buffer");
                b.data
                    .bytes
                    .chunks_exact(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect()
            };
            // Both counters reach 2; each buffer holds its two invocations' values.
            assert_eq!(element(1, 0), [2]);
            assert_eq!(element(1, 1), [2]);
            let mut b0 = element(0, 0)[..2].to_vec();
            let mut b1 = element(0, 1)[..2].to_vec();
            b0.sort();
            b1.sort();
            assert_eq!((b0, b1), (vec![10, 12], vec![11, 13]));
            let slots = run::words(&out, 2);
            assert!(slots.iter().all(|&s| s < 2), "{slots:?}");
        }
    }
}

/// Shader model 6.6 descriptor heaps: `R r = ResourceDescriptorHeap[i];` (and the sampler
/// heap) is element `i` of a runtime array of `R` at the heap's binding, one array per type
/// used, all sharing the binding: after every other resource's (the resource heap's first,
/// then its buffers' counters, then the sampler heap's), or where `-fvk-bind-*-heap` says.
#[test]
fn descriptor_heaps() {
    let src = "Texture2D t0;
         float4 main(float2 uv : TEXCOORD) : SV_Target {
           SamplerState s = SamplerDescriptorHeap[1];
           Texture2D a = ResourceDescriptorHeap[NonUniformResourceIndex(uint(uv.x))];
           Texture2D b = ResourceDescriptorHeap[3];
           RWStructuredBuffer<uint> c = ResourceDescriptorHeap[4];
           uint slot = c.IncrementCounter();
           c[slot] = 1;
           return a.Sample(s, uv) + b.Sample(s, uv) + t0.Sample(s, uv);
         }";
    let words = check("descriptor-heaps", src, "ps_6_6");
    let text = disassemble(&words);
    let decorations = |name: &str| -> Vec<String> {
        let id = text
            .lines()
            .find_map(|l| {
                l.trim()
                    .strip_prefix("OpName ")
                    .filter(|r| r.ends_with(&format!("\"{name}\"")))
                    .map(|r| r.split(' ').next().unwrap().to_owned())
            })
            .unwrap_or_else(|| panic!("no {name}:\n{text}"));
        text.lines()
            .filter_map(|l| l.trim().strip_prefix(&format!("OpDecorate {id} ")))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(decorations("t0"), ["DescriptorSet 0", "Binding 0"]);
    assert_eq!(
        decorations("ResourceDescriptorHeap"),
        ["DescriptorSet 0", "Binding 1"]
    );
    assert_eq!(
        decorations("counter.var.ResourceDescriptorHeap"),
        ["DescriptorSet 0", "Binding 2"]
    );
    assert_eq!(
        decorations("SamplerDescriptorHeap"),
        ["DescriptorSet 0", "Binding 3"]
    );
    // One runtime array per type: the two Texture2D views are one variable.
    assert_eq!(
        text.matches("OpName %ResourceDescriptorHeap").count(),
        2,
        "{text}"
    );
    assert!(
        text.contains("OpCapability RuntimeDescriptorArray"),
        "{text}"
    );
    assert!(text.contains("NonUniform"), "{text}");
    // Placed by the flags; with -fvk-bind-register, a heap must be placed by its flag.
    let mut o = options("ps_6_6", TargetEnv::Vulkan1_0, LanguageVersion::V2021);
    o.bindings.resource_heap = Some((4, 7));
    o.bindings.counter_heap = Some((5, 7));
    o.bindings.sampler_heap = Some((4, 7));
    let placed = disassemble(&compile_with("heaps-placed", src, &o));
    assert!(placed.contains("DescriptorSet 7"), "{placed}");
    o.bindings.registers.push(spvkit::hlsl::RegisterBinding {
        class: 't',
        index: 0,
        space: 0,
        binding: 0,
        set: 0,
    });
    o.bindings.sampler_heap = None;
    let e = match compile_source(
        "heaps.hlsl",
        &src.replace("Texture2D t0;", "Texture2D t0 : register(t0);"),
        &o,
    ) {
        Ok(_) => panic!("compiled"),
        Err(e) => e.rendered,
    };
    assert!(
        e.contains("-fvk-bind-sampler-heap is required when using -fvk-bind-register"),
        "{e}"
    );
    // Not yet: constant buffers from a heap, static resources from one, SPV_EXT_descriptor_heap.
    for (what, body) in [
        ("a ConstantBuffer or TextureBuffer from a descriptor heap",
         "struct S { float4 v; }; float4 main() : SV_Target { ConstantBuffer<S> c = ResourceDescriptorHeap[0]; return c.v; }"),
        ("a static resource initialized from a descriptor heap",
         "float4 main() : SV_Target { static Texture2D t = ResourceDescriptorHeap[0]; return t.Load(0); }"),
    ] {
        let e = errors(body, "ps_6_6");
        assert!(e.contains(&format!("not supported yet: {what}")), "{e}");
    }
}

/// `msad4` (masked sums of absolute byte differences over a sliding window of the source)
/// and `dot2add`, computed on lavapipe and under `spvkit run` against the definitions
/// computed here.
#[test]
fn msad4_and_dot2add_compute_their_definitions() {
    let src = "StructuredBuffer<uint4> inp : register(t0);
         RWStructuredBuffer<uint4> o : register(u1);
         RWStructuredBuffer<float> f : register(u2);
         [numthreads(4, 1, 1)] void main(uint i : SV_DispatchThreadID) {
           uint4 x = inp[i];
           o[i] = msad4(x.x, x.yz, uint4(i, 1, 2, x.w));
           f[i] = dot2add(float2(i, 2), float2(3, 0.5), 0.25);
         }";
    let words = check("msad4", src, "cs_6_4");
    fn msad4(reference: u32, source: [u32; 2], accum: [u32; 4]) -> [u32; 4] {
        let src = u64::from(source[0]) | (u64::from(source[1]) << 32);
        let mut out = accum;
        for (k, o) in out.iter_mut().enumerate() {
            for j in 0..4 {
                let r = (reference >> (8 * j)) & 0xff;
                let s = ((src >> (8 * (k + j))) & 0xff) as u32;
                if r != 0 {
                    *o = o.wrapping_add(r.abs_diff(s));
                }
            }
        }
        out
    }
    // The model reproduces the worked example of Microsoft's msad4 page (x = 153, y = 6).
    let doc = msad4(0xA100_B2C3, [0xD7B0_C372, 0x4F57_C2A3], [1, 2, 3, 4]);
    assert_eq!(doc[..2], [153, 6]);
    let data: [[u32; 4]; 4] = [
        [0xA100_B2C3, 0xD7B0_C372, 0x4F57_C2A3, 4],
        [0x0102_0304, 0x0506_0708, 0x090a_0b0c, 7],
        [0xff00_ff00, 0x00ff_00ff, 0xdead_beef, 0],
        [0x8000_0001, 0xffff_ffff, 0x0000_0000, 100],
    ];
    let mut expected = Vec::new();
    for (i, d) in data.iter().enumerate() {
        expected.extend(msad4(d[0], [d[1], d[2]], [i as u32, 1, 2, d[3]]));
    }
    let flat: Vec<String> = data.iter().flatten().map(|w| w.to_string()).collect();
    let job = format!(
        r#"{{"dispatch": [1], "buffers": [
            {{"binding": 0, "layout": ["u32"], "data": [{}]}},
            {{"binding": 1, "layout": ["u32"], "size_words": 16}},
            {{"binding": 2, "layout": ["f32"], "size_words": 4}}]}}"#,
        flat.join(", ")
    );
    #[cfg(feature = "run")]
    for out in [run::lavapipe(&words, &job), run::spvkit(&words, &job)] {
        assert_eq!(run::words(&out, 1), expected);
        assert_eq!(run::floats(&out, 2), [1.25f32, 4.25, 7.25, 10.25]);
    }
    let _ = (words, job, expected);
}

/// `QuadAny`/`QuadAll` (shader model 6.7): the value or'ed / and'ed over the quad with
/// `OpGroupNonUniformQuadSwap` in the three directions (compute quads are derivative
/// groups). Run under `spvkit run`: lane 0 of each quad of four sets its flag.
#[test]
fn quad_any_and_all() {
    let src = "RWStructuredBuffer<uint2> o : register(u0);
         [numthreads(8, 1, 1)] void main(uint i : SV_DispatchThreadID) {
           bool first = (i % 4) == 0;
           o[i] = uint2(QuadAny(first) ? 1 : 0, QuadAll(first) ? 1 : 0);
         }";
    let words = check_env(
        "quad-any-all",
        src,
        "cs_6_7",
        TargetEnv::Vulkan1_1,
        LanguageVersion::V2021,
    );
    let text = disassemble(&words);
    assert_eq!(
        text.matches("OpGroupNonUniformQuadSwap %bool").count(),
        6,
        "{text}"
    );
    assert!(
        text.contains("OpLogicalOr") && text.contains("OpLogicalAnd"),
        "{text}"
    );
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["u32"], "size_words": 16}]}"#;
        let out = run::lavapipe(&words, job);
        assert_eq!(run::words(&out, 0), [1, 0].repeat(8));
        // `spvkit run`'s subgroups have one invocation: it has no quads, and says so rather
        // than answer with the lane's own value.
        let job = spvkit::run::Job::from_json(job).unwrap();
        let e = spvkit::run::run_spirv(&words, &job, &Default::default()).unwrap_err();
        assert!(e.to_string().contains("OpGroupNonUniformQuadSwap"), "{e}");
    }
}

/// `InterlockedExchange` on a float (OpAtomicExchange takes floats) and `firstbithigh` of a
/// float (converted to `int`, FindSMsb typed `uint`), as DXC compiles them.
#[test]
fn float_exchange_and_firstbithigh_of_a_float() {
    let src = "RWStructuredBuffer<float> b : register(u0);
         groupshared float g;
         [numthreads(1, 1, 1)] void main() {
           float old;
           g = 1.5;
           InterlockedExchange(b[0], 2.5, old);
           InterlockedExchange(g, old, old);
           b[1] = firstbithigh(old * 4) + g;
         }";
    let words = check("float-exchange", src, "cs_6_0");
    let text = disassemble(&words);
    assert_eq!(text.matches("OpAtomicExchange %float").count(), 2, "{text}");
    assert!(text.contains("OpConvertFToS %int"), "{text}");
    assert!(text.contains("OpExtInst %uint %1 FindSMsb"), "{text}");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["f32"], "data": [7.0, 0.0]}]}"#;
        for out in [run::lavapipe(&words, job), run::spvkit(&words, job)] {
            // old = 7, then g = 7 and old = 1.5: firstbithigh(int(6)) + 7 = 9.
            assert_eq!(run::floats(&out, 0), [2.5f32, 9.0]);
        }
    }
}

/// A constant `uint` texel offset (`uint2(-5, 7)`) is the `int` constant of its bits, so it
/// stays a ConstOffset (a variable offset outside gathers is still refused).
#[test]
fn constant_uint_texel_offsets() {
    let src = "SamplerComparisonState s; Texture2D<float4> t;
         float4 main(float2 uv : UV, float c : C) : SV_Target {
           return t.SampleCmpBias(s, uv, c, 0.5, uint2(-5, 7));
         }";
    let words = check_env(
        "uint-offsets",
        src,
        "ps_6_8",
        TargetEnv::Vulkan1_1,
        LanguageVersion::V2021,
    );
    let text = disassemble(&words);
    assert!(text.contains("Bias|ConstOffset"), "{text}");
    assert!(
        text.contains("OpConstantComposite %v2int %int_n5 %int_7"),
        "{text}"
    );
}

/// Arrays of `ConstantBuffer<T>` (fixed and unsized): an array of blocks, one descriptor each,
/// indexed dynamically; computed on lavapipe and under `spvkit run`.
#[test]
fn arrays_of_constant_buffers() {
    let src = "struct P { float4 v; float s; };
         ConstantBuffer<P> cbs[2] : register(b0);
         RWStructuredBuffer<float> o : register(u1);
         [numthreads(1, 1, 1)] void main(uint i : SV_GroupID) {
           P p = cbs[1 - i];
           o[i] = cbs[i].v.y * cbs[i].s + p.s;
         }";
    // One invocation per workgroup: the index is dynamically uniform, as Vulkan requires of
    // an index into an array of uniform buffers without NonUniformResourceIndex.
    let words = check("cbuffer-arrays", src, "cs_6_0");
    let text = disassemble(&words);
    assert!(
        text.contains("OpTypeArray %type_ConstantBuffer_P %uint_2"),
        "{text}"
    );
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [2], "buffers": [
            {"set": 0, "binding": 0, "kind": "uniform", "layout": ["f32"],
             "data": [1, 2, 3, 4, 10, 0, 0, 0]},
            {"set": 0, "binding": 0, "index": 1, "kind": "uniform", "layout": ["f32"],
             "data": [5, 6, 7, 8, 100, 0, 0, 0]},
            {"set": 0, "binding": 1, "layout": ["f32"], "size_words": 2}]}"#;
        for out in [run::lavapipe(&words, job), run::spvkit(&words, job)] {
            assert_eq!(
                run::floats(&out, 1),
                [2.0f32 * 10.0 + 100.0, 6.0 * 100.0 + 10.0]
            );
        }
    }
    // Unsized: a runtime array of blocks (descriptor indexing), any constant index allowed.
    let words = check(
        "cbuffer-runtime-array",
        "struct P { float4 v; }; ConstantBuffer<P> cbs[] : register(b0, space1);
         float4 main(uint i : I) : SV_Target { return cbs[NonUniformResourceIndex(i)].v + cbs[7].v; }",
        "ps_6_0",
    );
    let text = disassemble(&words);
    assert!(
        text.contains("OpTypeRuntimeArray %type_ConstantBuffer_P"),
        "{text}"
    );
    assert!(
        text.contains("OpCapability RuntimeDescriptorArray"),
        "{text}"
    );
}

/// `static R r = Heap[i];` and `static R r = rs[i];` (a module-scope array of resources), the
/// index read from constants and constant-buffer members only: element `i`, the index
/// evaluated where `r` is used (with the module's names, whatever a function declares), as
/// the static initializer would have given it. Run on lavapipe and under `spvkit run` for
/// the array form.
#[test]
fn static_elements_of_heaps_and_resource_arrays() {
    let src = "cbuffer C : register(b0) { uint which; };
         RWStructuredBuffer<uint> bufs[2] : register(u1);
         static RWStructuredBuffer<uint> chosen = bufs[which + 0];
         [numthreads(1, 1, 1)] void main() {
           uint which = 7;  // a local of the index's name does not change it
           chosen[0] = which;
         }";
    let words = check("static-array-element", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"set": 0, "binding": 0, "kind": "uniform", "layout": ["u32"], "data": [1, 0, 0, 0]},
            {"set": 0, "binding": 1, "layout": ["u32"], "data": [0]},
            {"set": 0, "binding": 1, "index": 1, "layout": ["u32"], "data": [0]}]}"#;
        for out in [run::lavapipe(&words, job), run::spvkit(&words, job)] {
            let second = out
                .buffers
                .iter()
                .find(|b| {
                    b.id == spvkit::run::BufferId::ArrayElement {
                        set: 0,
                        binding: 1,
                        index: 1,
                    }
                })
                .expect("element 1");
            assert_eq!(second.data.bytes, 7u32.to_le_bytes());
            assert_eq!(run::words(&out, 1), [0]);
        }
    }
    // From a heap: the view's element, at the heap's binding.
    let words = check(
        "static-heap-element",
        "static SamplerState s = SamplerDescriptorHeap[2];
         static Texture2D t = ResourceDescriptorHeap[3];
         float4 main(float2 uv : UV) : SV_Target { return t.Sample(s, uv); }",
        "ps_6_6",
    );
    let text = disassemble(&words);
    assert!(
        text.contains(
            "OpAccessChain %_ptr_UniformConstant_type_2d_image %ResourceDescriptorHeap %uint_3"
        ),
        "{text}"
    );
    // An index that could change (a static variable) is refused.
    let e = errors(
        "static uint k = 1; static Texture2D t = ResourceDescriptorHeap[k];
         float4 main() : SV_Target { return t.Load(0); }",
        "ps_6_6",
    );
    assert!(
        e.contains("not supported yet: a static resource from a descriptor heap at an index"),
        "{e}"
    );
}

/// `[[vk::offset(N)]]` places a field; the fields after it follow it by the usual rules
/// (DXC's `vk.layout.attr.offset` figures), in every buffer holding the struct. An offset
/// the buffer's layout cannot align is an error (DXC warns, then its SPIR-V does not
/// validate). Read on lavapipe and under `spvkit run`.
#[test]
fn vk_offset_places_fields() {
    let src = "struct S { float a; [[vk::offset(16)]] float b; float c; };
         StructuredBuffer<S> s : register(t0);
         RWStructuredBuffer<float> o : register(u1);
         [numthreads(1, 1, 1)] void main() { o[0] = s[0].a + s[0].b * 10 + s[0].c * 100; }";
    let words = check("vk-offset", src, "cs_6_0");
    let text = disassemble(&words);
    for want in [
        "OpMemberDecorate %S 0 Offset 0",
        "OpMemberDecorate %S 1 Offset 16",
        "OpMemberDecorate %S 2 Offset 20",
    ] {
        assert!(text.contains(want), "missing {want}:\n{text}");
    }
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["f32"], "data": [1, 0, 0, 0, 2, 3, 0, 0]},
            {"binding": 1, "layout": ["f32"], "size_words": 1}]}"#;
        for out in [run::lavapipe(&words, job), run::spvkit(&words, job)] {
            assert_eq!(run::floats(&out, 1), [321.0f32]);
        }
    }
    // DXC's figures for a cbuffer and a structured buffer of the same struct (dx layout).
    let o = {
        let mut o = options("vs_6_0", TargetEnv::Vulkan1_0, LanguageVersion::V2021);
        o.layout = spvkit::hlsl::BufferLayout::Dx;
        o
    };
    let text = disassemble(&compile_with(
        "vk-offset-dx",
        "struct S { float a; [[vk::offset(32)]] float2 b; [[vk::offset(64)]] float3 c; float d[2]; };
         struct T { [[vk::offset(4)]] float a; S s; float b; };
         ConstantBuffer<T> MyCBuffer; StructuredBuffer<T> MySBuffer;
         float4 main() : A { return MyCBuffer.s.a + MySBuffer[0].s.a; }",
        &o,
    ));
    for want in [
        "OpMemberDecorate %S 3 Offset 80",
        "OpMemberDecorate %type_ConstantBuffer_T 2 Offset 116",
        "OpMemberDecorate %S_0 3 Offset 76",
        "OpMemberDecorate %T 2 Offset 92",
    ] {
        assert!(text.contains(want), "missing {want}:\n{text}");
    }
    let e = errors(
        "struct C { float r; float i; }; struct E { float2 a; [[vk::offset(8)]] C b; };
         cbuffer Stuff { E e; }; float4 main() : SV_Target { return e.a.x; }",
        "ps_6_0",
    );
    assert!(
        e.contains("the offset provided in the attribute should be 16-byte aligned"),
        "{e}"
    );
}

/// `[[vk::location(N), vk::index(I)]]` on pixel outputs (dual-source blending: two outputs
/// at one location with different indices; `vk::location` on an `SV_Target` is honoured,
/// as DXC does), `[[vk::post_depth_coverage]]` (PostDepthCoverage), and `[WaveSize(N)]`
/// (DXC's warning: Vulkan sets the subgroup size at pipeline creation).
#[test]
fn dual_source_blending_post_depth_coverage_and_wave_size() {
    let words = check(
        "dual-blend",
        "struct PSOut {
             [[vk::location(0), vk::index(0)]] float4 a : SV_Target0;
             [[vk::location(0), vk::index(1)]] float4 b : SV_Target1;
         };
         [[vk::post_depth_coverage]]
         PSOut main() { PSOut o = (PSOut)0; return o; }",
        "ps_6_0",
    );
    let text = disassemble(&words);
    for want in [
        "OpDecorate %out_var_SV_Target0 Location 0",
        "OpDecorate %out_var_SV_Target0 Index 0",
        "OpDecorate %out_var_SV_Target1 Location 0",
        "OpDecorate %out_var_SV_Target1 Index 1",
        "OpExecutionMode %main PostDepthCoverage",
        "OpCapability SampleMaskPostDepthCoverage",
        "OpExtension \"SPV_KHR_post_depth_coverage\"",
    ] {
        assert!(text.contains(want), "missing {want}:\n{text}");
    }
    // DXC's dual-source blending checks.
    let e = errors(
        "struct PSOut { [[vk::location(1), vk::index(1)]] float4 a : SV_Target0; };
         PSOut main() { PSOut o = (PSOut)0; return o; }",
        "ps_6_0",
    );
    assert!(
        e.contains("dual-source blending should use vk::location 0"),
        "{e}"
    );
    let e = errors(
        "float4 main([[vk::index(1)]] float4 a : A) : SV_Target { return a; }",
        "ps_6_0",
    );
    assert!(
        e.contains("vk::index only allowed in pixel shader outputs"),
        "{e}"
    );
    // Two outputs at one location and index clash.
    let e = errors(
        "struct PSOut { [[vk::location(0)]] float4 a : SV_Target0; [[vk::location(0)]] float4 b : SV_Target1; };
         PSOut main() { PSOut o = (PSOut)0; return o; }",
        "ps_6_0",
    );
    assert!(e.contains("location #0 already consumed"), "{e}");
    let o = options("cs_6_6", TargetEnv::Vulkan1_0, LanguageVersion::V2021);
    let c = compile_source(
        "wave.hlsl",
        "[WaveSize(32)] [numthreads(1, 1, 1)] void main() {}",
        &o,
    )
    .expect("compiles");
    assert!(
        c.warnings
            .contains("warning: Wave size is not supported by Vulkan SPIR-V"),
        "{}",
        c.warnings
    );
}

/// `Buffer.Load(location, status)` and `RWBuffer.Load(location, status)`: the sparse fetch
/// (read) with its residency code stored to `status`, as DXC.
#[test]
fn texel_buffer_load_with_status() {
    let words = check(
        "buffer-load-status",
        "Buffer<float> b; RWBuffer<float2> w;
         float4 main(int i : I) : SV_Target {
           uint s1, s2;
           float x = b.Load(i, s1);
           float2 y = w.Load(i, s2);
           return float4(x, y, CheckAccessFullyMapped(s1) && CheckAccessFullyMapped(s2));
         }",
        "ps_6_0",
    );
    let text = disassemble(&words);
    assert!(
        text.contains("OpImageSparseFetch %SparseResidencyStruct"),
        "{text}"
    );
    assert!(
        text.contains("OpImageSparseRead %SparseResidencyStruct"),
        "{text}"
    );
    assert!(text.contains("OpCapability SparseResidency"), "{text}");
}

/// `ConstantBuffer<S> local = cb;` (and `TextureBuffer`): a second name for the block, read
/// through it; computed on lavapipe and under `spvkit run`.
#[test]
fn local_constant_buffer_aliases() {
    let src = "struct Inner { float field; }; struct CBS { Inner entry; float4 pad; };
         ConstantBuffer<CBS> input : register(b0);
         RWStructuredBuffer<float> o : register(u1);
         float foo() { ConstantBuffer<CBS> local = input; CBS copy = local; return copy.entry.field + local.pad.y; }
         [numthreads(1, 1, 1)] void main() { o[0] = foo(); }";
    let words = check("cbuffer-alias", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"set": 0, "binding": 0, "kind": "uniform", "layout": ["f32"], "data": [1.5, 0, 0, 0, 0, 2, 0, 0]},
            {"set": 0, "binding": 1, "layout": ["f32"], "size_words": 1}]}"#;
        for out in [run::lavapipe(&words, job), run::spvkit(&words, job)] {
            assert_eq!(run::floats(&out, 1), [3.5f32]);
        }
    }
    let e = errors(
        "struct A { float x; }; struct B { float x; }; ConstantBuffer<A> a;
         float4 main() : SV_Target { ConstantBuffer<B> b = a; return b.x; }",
        "ps_6_0",
    );
    assert!(
        e.contains("cannot initialize a 'ConstantBuffer<B>' with a buffer of 'A'"),
        "{e}"
    );
}

/// `ConstantBuffer<S>` / `TextureBuffer<S>` parameters and arrays of resources as parameters
/// (`R rs[]` takes any array of them): like buffer parameters, an instance of the function
/// per module-scope object passed, its body naming that object. Computed on lavapipe and
/// under `spvkit run`.
#[test]
fn constant_buffer_and_resource_array_parameters() {
    let src = "struct P { float4 v; };
         ConstantBuffer<P> cb : register(b0);
         RWStructuredBuffer<float> bufs[2] : register(u1);
         RWStructuredBuffer<float> o : register(u2);
         float read(ConstantBuffer<P> c) { return c.v.z; }
         void put(RWStructuredBuffer<float> arr[], uint i, float x) { arr[i][0] = x; }
         [numthreads(1, 1, 1)] void main() { put(bufs, 1, read(cb)); o[0] = bufs[1][0] + 1; }";
    let words = check("cb-array-params", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"set": 0, "binding": 0, "kind": "uniform", "layout": ["f32"], "data": [1, 2, 3, 4]},
            {"set": 0, "binding": 1, "layout": ["f32"], "data": [0]},
            {"set": 0, "binding": 1, "index": 1, "layout": ["f32"], "data": [0]},
            {"set": 0, "binding": 2, "layout": ["f32"], "data": [0]}]}"#;
        for out in [run::lavapipe(&words, job), run::spvkit(&words, job)] {
            assert_eq!(run::floats(&out, 2), [4.0f32]);
        }
    }
    // A block of another struct does not fit the parameter.
    let e = errors(
        "struct A { float x; }; struct B { float x; }; ConstantBuffer<A> a;
         float f(ConstantBuffer<B> b) { return b.x; }
         float4 main() : SV_Target { return f(a); }",
        "ps_6_0",
    );
    assert!(e.contains("no matching overload of 'f'"), "{e}");
}

/// A local resource variable assigned by statements of its own block (with or without an
/// initializer) names, after each, what was assigned; assigned anywhere else (an `if`, a
/// loop, a nested block) it is a variable that legalization resolves, an error where a
/// condition not constant chooses it; used before its first assignment it is an error.
/// Computed on lavapipe and under `spvkit run`.
#[test]
fn local_resources_rebound_by_statements() {
    let src =
        "RWStructuredBuffer<uint> a : register(u0); RWStructuredBuffer<uint> b : register(u1);
         [numthreads(1, 1, 1)] void main() {
           RWStructuredBuffer<uint> x;
           x = a; x[0] = 1;
           x = b; x[0] = 2;
           RWStructuredBuffer<uint> y = b; y[1] = 3; y = a; y[1] = 4;
         }";
    let words = check("resource-rebinding", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["u32"], "size_words": 2},
            {"binding": 1, "layout": ["u32"], "size_words": 2}]}"#;
        for out in [run::lavapipe(&words, job), run::spvkit(&words, job)] {
            assert_eq!(run::words(&out, 0), [1, 4]);
            assert_eq!(run::words(&out, 1), [2, 3]);
        }
    }
    let _ = words;
    for (body, want) in [
        (
            "RWStructuredBuffer<uint> x; if (k) x = a; else x = b; x[0] = 1;",
            "bad.hlsl:2:79: error: the resource variable 'x' does not name one resource \
             wherever it is used (legalization could not resolve it",
        ),
        (
            "RWStructuredBuffer<uint> x; x[0] = 1; x = a;",
            "the resource variable 'x' is used before it is assigned",
        ),
    ] {
        let e = errors(
            &format!(
                "RWStructuredBuffer<uint> a; RWStructuredBuffer<uint> b; uint k;
                 [numthreads(1, 1, 1)] void main() {{ {body} }}"
            ),
            "cs_6_0",
        );
        assert!(e.contains(want), "{body}:\n{e}");
    }
}

/// Textures and texel buffers of `half` (with `-enable-16bit-types`): DXC's error in a Vulkan
/// environment, images of 16-bit floats in a universal one (as DXC's universal targets).
#[test]
fn half_textures_outside_vulkan() {
    let src = "Buffer<half> b; Texture2D<half4> t; SamplerState s; RWBuffer<float> o;
         [numthreads(1, 1, 1)] void main() {
           o[0] = b[0] + b.Load(1) + t.SampleLevel(s, float2(0, 0), 0).y;
         }";
    let mut o = options("cs_6_6", TargetEnv::Universal1_5, LanguageVersion::V2021);
    o.enable_16bit_types = true;
    let words = compile_with("half-textures", src, &o);
    spirv_val("half-textures", &words, TargetEnv::Universal1_5);
    let text = disassemble(&words);
    assert!(text.contains("OpTypeImage %half Buffer"), "{text}");
    o.target_env = TargetEnv::Vulkan1_1;
    let e = match compile_source("half.hlsl", src, &o) {
        Ok(_) => panic!("compiled for Vulkan"),
        Err(e) => e.rendered,
    };
    assert!(
        e.contains("The sampled type for textures cannot be a floating point type smaller than 32-bits when targeting a Vulkan environment."),
        "{e}"
    );
}

/// A refused local resource declaration is reported once: its later uses are not reported
/// again as undeclared names; each error semantic analysis finds is reported once, and code
/// generation (which would meet them again) does not run after one.
#[test]
fn refused_declarations_and_expression_errors_are_reported_once() {
    let e = errors(
        "RWStructuredBuffer<float> a; RWStructuredBuffer<float> b; uint i;
         RWStructuredBuffer<float> pick(uint k) { if (k == 0) { return a; } else { return b; } }
         [numthreads(1, 1, 1)] void main() { RWStructuredBuffer<float> r = pick(i); r[0] = 1; }",
        "cs_6_0",
    );
    assert!(
        e.contains("not supported yet: a function returning a resource"),
        "{e}"
    );
    assert!(!e.contains("undeclared identifier 'r'"), "{e}");
    let e = errors(
        "[numthreads(1, 1, 1)] void main() { float3 v = 1; v = v << 1; nothere(v); }",
        "cs_6_0",
    );
    assert_eq!(
        e.matches("shift of a non-integer 'float3'").count(),
        1,
        "{e}"
    );
    assert_eq!(
        e.matches("use of undeclared function 'nothere'").count(),
        1,
        "{e}"
    );
}

/// A function template's argument deduced from an element of an array (module-scope,
/// `groupshared`, local, parameter; indexed as deep as declared); the array itself, or an
/// element not indexed deep enough, is not deduced from.
#[test]
fn template_arguments_deduced_from_array_elements() {
    let src = "template <typename T> T twice(T x) { return x + x; }
         RWStructuredBuffer<float> o : register(u0);
         static const int k[2] = { 3, 4 };
         groupshared uint g[4];
         float last(float a[2][3]) { return twice(a[1][2]); }
         [numthreads(1, 1, 1)] void main() {
           g[1] = 5;
           GroupMemoryBarrierWithGroupSync();
           half2 h[2] = { half2(1, 2), half2(3, 4) };
           float m[2][3] = { { 0, 0, 0 }, { 0, 0, 6.5 } };
           o[0] = twice(k[1]); o[1] = twice(g[1]); o[2] = twice(h[1]).y; o[3] = last(m); }";
    let words = check("deduce-array-elements", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job =
            r#"{"dispatch": [1], "buffers": [{"binding": 0, "layout": ["f32"], "size_words": 4}]}"#;
        for out in [run::lavapipe(&words, job), run::spvkit(&words, job)] {
            assert_eq!(run::floats(&out, 0), [8.0, 10.0, 8.0, 13.0]);
        }
    }
    let e = errors(
        "template <typename T> T twice(T x) { return x + x; }
         [numthreads(1, 1, 1)] void main() { float m[2][3]; float r = twice(m[1]).x; }",
        "cs_6_0",
    );
    assert!(
        e.contains("not supported yet: deducing the template argument 'T'"),
        "{e}"
    );
}

/// A `const` typedef makes its variables `const` (DXC's checks), locally and at module scope,
/// where a `static` one is a constant (an array size).
#[test]
fn const_typedefs_make_constants() {
    for body in ["C c = 1; c = 2;", "g = 3;", "D d = 1; d += 1;"] {
        let e = errors(
            &format!(
                "typedef const int C; typedef C D; static C g = 4;
                 [numthreads(1, 1, 1)] void main() {{ {body} }}"
            ),
            "cs_6_0",
        );
        assert!(
            e.contains("cannot assign to a constant or read-only value"),
            "{body}: {e}"
        );
    }
    let src = "typedef const uint N; static N n = 3; RWStructuredBuffer<float> o : register(u0);
         [numthreads(1, 1, 1)] void main() { float a[n]; for (uint i = 0; i < n; i++) { a[i] = i; }
           o[0] = a[2] + n; }";
    let words = check("const-typedef", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job =
            r#"{"dispatch": [1], "buffers": [{"binding": 0, "layout": ["f32"], "size_words": 1}]}"#;
        for out in [run::lavapipe(&words, job), run::spvkit(&words, job)] {
            assert_eq!(run::floats(&out, 0), [5.0f32]);
        }
    }
}

/// Near misses a 300-per-shader mutant sweep of the corpus found: a location past `u32::MAX`
/// (it panicked), a texture of doubles (invalid SPIR-V for Vulkan), a `double` pixel input
/// (invalid without `Flat`).
#[test]
fn mutant_sweep_regressions() {
    let e = errors(
        "float4 main([[vk::location(4294967295)]] float4 c : COLOR0, float4 d : COLOR1)
           : SV_Target { return c + d; }",
        "ps_6_0",
    );
    assert!(e.contains("location 4294967295 is out of range"), "{e}");
    let e = errors(
        "Texture2D<double> t; SamplerState s;
         float4 main(float2 uv : UV) : SV_Target { return (float)t.SampleLevel(s, uv, 0); }",
        "ps_6_0",
    );
    assert!(e.contains("cannot be a 64-bit floating point type"), "{e}");
    let words = check(
        "double_input",
        "float4 main(double n : NORMAL) : SV_Target { return float4((float)n, 0, 0, 1); }",
        "ps_6_0",
    );
    let dis = disassemble(&words);
    assert!(
        dis.lines()
            .any(|l| l.contains("OpDecorate %in_var_NORMAL Flat")),
        "{dis}"
    );
}

/// A function with buffer parameters is emitted once per buffer it is called with, in the
/// buffers' declaration order: the same source gives the same module every time (the order
/// once followed a hash table's).
#[test]
fn function_instances_are_emitted_in_a_fixed_order() {
    let src = "RWStructuredBuffer<float> a; RWStructuredBuffer<float> b;
         RWStructuredBuffer<float> c; RWStructuredBuffer<float> d;
         void put(RWStructuredBuffer<float> o, float v) { o[0] = v; }
         [numthreads(1, 1, 1)] void main() { put(d, 1); put(b, 2); put(a, 3); put(c, 4); }";
    let first = check("instances_order", src, "cs_6_0");
    for _ in 0..16 {
        assert_eq!(check("instances_order", src, "cs_6_0"), first);
    }
}

/// `RaytracingAccelerationStructure` is a resource type as in DXC: an
/// `OpTypeAccelerationStructureKHR` handle in a UniformConstant variable (arrays, parameters
/// and local names of it too), which declares SPV_KHR_ray_query and its capability outside
/// the ray tracing stages and so needs SPIR-V 1.4.
#[test]
fn acceleration_structures_are_resources() {
    let src = "RaytracingAccelerationStructure scenes[2] : register(t0);
               RaytracingAccelerationStructure one : register(t4, space1);
               RWStructuredBuffer<uint> o : register(u0);
               uint use(RaytracingAccelerationStructure s) { return 7; }
               [numthreads(1, 1, 1)]
               void main(uint3 id : SV_DispatchThreadID) {
                   RaytracingAccelerationStructure local = one;
                   o[0] = use(scenes[id.x]) + use(local);
               }";
    let mut o = options("cs_6_5", TargetEnv::Vulkan1_2, LanguageVersion::V2021);
    o.legalize = false;
    let words = compile_with("accel", src, &o);
    spirv_val("accel", &words, TargetEnv::Vulkan1_2);
    let dis = disassemble(&words);
    for want in [
        "OpCapability RayQueryKHR",
        "OpExtension \"SPV_KHR_ray_query\"",
        "%accelerationStructureNV = OpTypeAccelerationStructureKHR",
        "OpDecorate %scenes Binding 0",
        "OpDecorate %one DescriptorSet 1",
        "OpDecorate %one Binding 4",
        "%one = OpVariable %_ptr_UniformConstant_accelerationStructureNV UniformConstant",
    ] {
        assert!(dis.contains(want), "missing {want}:\n{dis}");
    }
    // Legalized (the calls inlined), it is valid too.
    let words = compile_with(
        "accel_o",
        src,
        &options("cs_6_5", TargetEnv::Vulkan1_2, LanguageVersion::V2021),
    );
    spirv_val("accel_o", &words, TargetEnv::Vulkan1_2);
    // Below SPIR-V 1.4 the type is declared through SPV_KHR_ray_query, as DXC does (and
    // spirv-val accepts for Vulkan 1.0); only ray queries themselves need SPIR-V 1.4.
    let words = check(
        "accel_vk10",
        "RaytracingAccelerationStructure a;\nfloat4 main() : SV_Target { return 0; }",
        "ps_6_0",
    );
    let dis = disassemble(&words);
    assert!(
        dis.contains("OpCapability RayQueryKHR")
            && dis.contains("OpExtension \"SPV_KHR_ray_query\"")
            && dis.contains("OpTypeAccelerationStructureKHR"),
        "{dis}"
    );
}

/// A local resource variable assigned in nested blocks (an `if` on a constant, a nested
/// block, a loop that runs once) or again is a Function variable of a pointer to the
/// resource, as DXC emits it (`-fcgl`), which legalization turns into direct accesses of the
/// chosen resources: the buffers it writes are right on lavapipe and under `spvkit run`.
#[test]
fn local_resource_variables_that_legalization_resolves() {
    let src = "RWStructuredBuffer<uint> a : register(u0);
               RWStructuredBuffer<uint> b : register(u1);
               Texture2D<float4> ta : register(t2);
               Texture2D<float4> tb : register(t3);
               #define PICK 1
               [numthreads(1, 1, 1)]
               void main() {
                   RWStructuredBuffer<uint> x;
                   Texture2D<float4> t;
                   if (PICK > 0) { x = b; t = tb; } else { x = a; t = ta; }
                   x[0] = 5;
                   { x = a; }
                   x[1] = 6;
                   [unroll] for (int i = 0; i < 1; i++) { x = b; }
                   x[1] = 7;
               }";
    let mut o = options("cs_6_0", TargetEnv::Vulkan1_0, LanguageVersion::V2021);
    o.legalize = false;
    let raw = disassemble(&compile_with("resource_vars_fcgl", src, &o));
    assert!(
        raw.contains("%x = OpVariable %_ptr_Function__ptr_Uniform_type_RWStructuredBuffer_uint"),
        "{raw}"
    );
    assert!(
        raw.contains("%t = OpVariable %_ptr_Function__ptr_UniformConstant_type_2d_image"),
        "{raw}"
    );
    let words = check("resource_vars", src, "cs_6_0");
    let dis = disassemble(&words);
    assert!(!dis.contains("OpVariable %_ptr_Function__ptr"), "{dis}");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["u32"], "size_words": 2},
            {"binding": 1, "layout": ["u32"], "size_words": 2}]}"#;
        for out in [run::lavapipe(&words, job), run::spvkit(&words, job)] {
            assert_eq!(run::words(&out, 0), [0, 6]);
            assert_eq!(run::words(&out, 1), [5, 7]);
        }
    }
    let _ = words;
}

/// HLSL 2018's `?:` of matrices: a scalar condition takes the branch form before SPIR-V 1.4
/// (whose OpSelect takes no matrix), a bool matrix selects row by row; computed right on
/// lavapipe and under `spvkit run`.
#[test]
fn matrix_conditionals_of_hlsl_2018() {
    let src = "RWStructuredBuffer<float> o : register(u0);
               StructuredBuffer<float> k : register(t1);
               [numthreads(1, 1, 1)]
               void main() {
                   float2x3 a = float2x3(1, 2, 3, 4, 5, 6);
                   float2x3 b = float2x3(10, 20, 30, 40, 50, 60);
                   bool2x3 pick = bool2x3(true, false, true, false, true, false);
                   float2x3 m = k[0] > 0 ? a : b;
                   float2x3 r = pick ? a : b;
                   o[0] = m[1][2];
                   o[1] = r[0][1] + r[1][1] + r[0][0];
               }";
    let words = check_env(
        "matrix_ternary",
        src,
        "cs_6_0",
        TargetEnv::Vulkan1_0,
        LanguageVersion::V2018,
    );
    let dis = disassemble(&words);
    assert!(!dis.contains("OpSelect %mat"), "{dis}");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["f32"], "size_words": 2},
            {"binding": 1, "layout": ["f32"], "data": [1.0]}]}"#;
        for out in [run::lavapipe(&words, job), run::spvkit(&words, job)] {
            assert_eq!(run::floats(&out, 0), [6.0f32, 20.0 + 5.0 + 1.0]);
        }
    }
    let _ = words;
}

/// Structs holding resources, as locals and `in` parameters: each member holds a pointer to
/// its resource, and legalization makes every use a direct access to the global, whatever
/// the nesting (a base class, a member struct, a copy of the whole struct, a call); a member
/// that a non-constant condition chooses is an error at the variable. Globals, buffers and
/// arrays of such structs, and append, consume and constant-buffer members, are refused where
/// written.
#[test]
fn structs_holding_resources_as_locals_and_parameters() {
    let decls = "struct S { float4 f; };
                 struct Buffers { StructuredBuffer<S> ro; RWStructuredBuffer<S> rw; };
                 struct Outer : Buffers { Texture2D<float4> tex; float x; };
                 StructuredBuffer<S> g_ro;
                 RWStructuredBuffer<S> g_rw;
                 Texture2D<float4> g_tex;";
    let src = format!(
        "{decls}
         float4 read(Outer o, uint i) {{ return o.ro[i].f + o.tex.Load(int3(i, 0, 0)) * o.x; }}
         [numthreads(1, 1, 1)]
         void main(uint3 id : SV_DispatchThreadID) {{
             Buffers b;
             b.ro = g_ro;
             b.rw = g_rw;
             Outer o;
             o.ro = b.ro; o.rw = b.rw; o.tex = g_tex; o.x = 2;
             Outer copy = o;
             copy.rw[id.x].f = read(copy, id.x);
         }}"
    );
    let words = check("resource_struct_locals", &src, "cs_6_0");
    let dis = disassemble(&words);
    // No variable of pointers is left; the accesses name the globals.
    assert!(!dis.contains("OpVariable %_ptr_Function"), "{dis}");
    for want in [
        "OpAccessChain %_ptr_Uniform_S %g_ro",
        "OpAccessChain %_ptr_Uniform_S %g_rw",
        "OpLoad %type_2d_image %g_tex",
    ] {
        assert!(dis.contains(want), "missing {want}:\n{dis}");
    }
    // Before legalization (`-fcgl`), as DXC: the members are pointers, valid for spirv-val
    // before legalization.
    let mut o = options("cs_6_0", TargetEnv::Vulkan1_0, LanguageVersion::V2021);
    o.legalize = false;
    let fcgl = compile_with("resource_struct_fcgl", &src, &o);
    let path = scratch("resource_struct_fcgl");
    let bytes: Vec<u8> = fcgl.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&path, bytes).unwrap();
    let val = Command::new("spirv-val")
        .args(["--before-hlsl-legalization", "--target-env", "vulkan1.0"])
        .arg(&path)
        .output()
        .expect("spirv-val runs");
    assert!(
        val.status.success(),
        "{}",
        String::from_utf8_lossy(&val.stderr)
    );
    let dis = disassemble(&fcgl);
    assert!(
        dis.contains("OpTypeStruct %_ptr_Uniform_type_StructuredBuffer_S"),
        "{dis}"
    );
    // A member chosen by a condition that is not constant: an error at the variable.
    let e = errors(
        &format!(
            "{decls}
             [numthreads(1, 1, 1)]
             void main(uint3 id : SV_DispatchThreadID) {{
                 Buffers b;
                 if (id.x > 3) b.ro = g_ro; else b.ro = g_ro;
                 b.rw = g_rw;
                 StructuredBuffer<S> other = g_ro;
                 if (id.y > 1) b.ro = other;
                 Buffers c;
                 if (id.x > 2) c = b;
                 g_rw[0] = c.ro[id.x];
             }}"
        ),
        "cs_6_0",
    );
    assert!(
        e.contains(":14:26: error: a resource held in 'c' does not name one resource"),
        "{e}"
    );
    for (bad, why) in [
        (
            "static Buffers s;",
            "'static' as a module-scope struct holding resources",
        ),
        (
            "Buffers global;",
            "global structures containing buffers are not supported",
        ),
        (
            "StructuredBuffer<Outer> nested;",
            "the struct 'Outer' holds a resource",
        ),
        (
            "struct A { AppendStructuredBuffer<S> app; }; void f(A a) {}",
            "the member 'app' of struct 'A': append and consume buffers",
        ),
        (
            "struct R { StructuredBuffer<S> bs[2]; }; void f(R r) {}",
            "arrays of buffers or of structs holding resources inside structs",
        ),
        (
            "void f() { Buffers many[2]; } void g() { f(); }",
            "arrays of structs holding resources",
        ),
    ] {
        let bad = bad.replace("void g()", "[numthreads(1, 1, 1)] void main()");
        let main = if bad.contains("void main()") {
            ""
        } else {
            "[numthreads(1, 1, 1)] void main() {}"
        };
        let e = errors(&format!("{decls} {bad} {main}"), "cs_6_0");
        assert!(e.contains(why) && e.contains(":6:"), "{bad}: {e}");
    }
}

/// A module-scope struct of images and samplers (or an array of them) becomes one variable per
/// resource it holds, named and bound as DXC's descriptor scalar replacement leaves them: from
/// the struct's binding on, in declaration order, an array of resources taking one binding per
/// element (as every array of resources does once such a struct is declared). Passing one to a
/// function passes its resources; what DXC refuses, or a non-constant index into an array of
/// such structs, is an error.
#[test]
fn module_scope_structs_of_resources_are_split_per_resource() {
    let decls = "struct T { SamplerState s[3]; };
                 struct S { Texture2D t[2]; T tt[2]; };
                 Texture2D before[4];
                 S first[2][2];
                 S second;
                 [[vk::binding(5, 1)]] S explicit;
                 Texture2D after;";
    let src = format!(
        "{decls}
         float4 tex2D(S x, float2 v) {{
             return x.t[0].Sample(x.tt[0].s[1], v) + x.t[1].Sample(x.tt[1].s[2], v);
         }}
         float4 main(float2 uv : TEXCOORD0) : SV_Target {{
             return tex2D(first[1][0], uv) + second.t[1].Sample(second.tt[1].s[2], uv)
                 + explicit.t[0].Sample(explicit.tt[0].s[0], uv) + after.Sample(second.tt[0].s[0], uv)
                 + before[3].Sample(first[0][1].tt[1].s[0], uv);
         }}"
    );
    let words = check("resource_struct_globals", &src, "ps_6_0");
    let dis = disassemble(&words);
    // Each S takes 2 + 3 + 3 bindings; `before` takes 4; `first[1][0]` is element 2.
    for (name, binding, set) in [
        ("before", 0, 0),
        ("first_2__t", 4 + 16, 0),
        ("first_2__tt_0__s", 4 + 18, 0),
        ("first_2__tt_1__s", 4 + 21, 0),
        ("first_1__tt_1__s", 4 + 13, 0),
        ("second_t", 36, 0),
        ("second_tt_0__s", 38, 0),
        ("second_tt_1__s", 41, 0),
        ("explicit_t", 5, 1),
        ("explicit_tt_0__s", 7, 1),
        ("after", 44, 0),
    ] {
        for want in [
            format!("OpDecorate %{name} DescriptorSet {set}\n"),
            format!("OpDecorate %{name} Binding {binding}\n"),
        ] {
            assert!(dis.contains(&want), "missing {want}{dis}");
        }
    }
    for want in [
        "OpName %first_2__tt_1__s \"first[2].tt[1].s\"",
        "%second_tt_1__s = OpVariable %_ptr_UniformConstant__arr_type_sampler_uint_3 UniformConstant",
        "%first_2__t = OpVariable %_ptr_UniformConstant__arr_type_2d_image_uint_2 UniformConstant",
    ] {
        assert!(dis.contains(want), "missing {want}:\n{dis}");
    }
    // The struct is passed as its resources: no variable of images is left.
    assert!(!dis.contains("OpVariable %_ptr_Function"), "{dis}");
    // Unused resources keep their place but get no variable.
    assert!(!dis.contains("%first_3__t ="), "{dis}");
    for (bad, why) in [
        (
            "struct M { Texture2D t; float f; }; M m; float4 use() { return m.f; }",
            "global structures containing both resources and non-resources are not supported",
        ),
        (
            "struct B { Texture2D t; StructuredBuffer<float> b; }; B b; float4 use() { return 0; }",
            "global structures containing buffers are not supported",
        ),
        (
            "static S s; float4 use() { return 0; }",
            "not supported yet: 'static' as a module-scope struct holding resources",
        ),
        (
            "cbuffer C { uint k; }; float4 use() { return tex2D(first[k][0], 0); }",
            "not supported yet: a non-constant index into a module-scope array of structs",
        ),
    ] {
        let src = format!(
            "{decls}
             float4 tex2D(S x, float2 v) {{ return x.t[0].Sample(x.tt[0].s[1], v); }}
             {bad}
             float4 main() : SV_Target {{ return use(); }}"
        );
        let e = errors(&src, "ps_6_0");
        assert!(e.contains(why) && e.contains(":9:"), "{bad}: {e}");
    }
}

/// `[[vk::ext_builtin_input(b)]] static const` and `[[vk::ext_builtin_output(b)]] static`
/// variables are the stage's built-in `b` itself (in the entry point's interface, an integer
/// pixel input flat, every name for one built-in sharing it); a compute shader reading
/// `NumWorkgroups` that way sees the dispatch's size on lavapipe and under `spvkit run`.
/// DXC's errors: not static, an input not const, both attributes, one built-in as an input
/// and an output.
#[test]
fn ext_builtin_variables_are_the_stage_built_ins() {
    let src = "RWStructuredBuffer<uint> Out : register(u0);
               enum class BuiltIn { NumWorkgroups = 24 };
               [[vk::ext_builtin_input(BuiltIn::NumWorkgroups)]]
               static const uint3 groups;
               [[vk::ext_builtin_input(/* NumWorkgroups */ 24)]]
               static const uint3 again;
               uint volume(uint3 v) { return v.x * v.y * v.z; }
               [numthreads(1, 1, 1)]
               void main(uint3 id : SV_GroupID) {
                   uint i = id.x + groups.x * (id.y + groups.y * id.z);
                   Out[i] = volume(groups) * 100 + again.y * 10 + i;
               }";
    let words = check("ext_builtin_input", src, "cs_6_0");
    let dis = disassemble(&words);
    assert!(
        dis.contains("OpDecorate %groups BuiltIn NumWorkgroups"),
        "{dis}"
    );
    assert!(
        dis.contains("OpEntryPoint GLCompute %main \"main\" %groups"),
        "{dis}"
    );
    assert!(
        !dis.contains("%again"),
        "one variable for one built-in:\n{dis}"
    );
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [3, 2, 1], "buffers": [
            {"binding": 0, "layout": ["u32"], "size_words": 6}]}"#;
        let want: Vec<u32> = (0..6).map(|i| 6 * 100 + 2 * 10 + i).collect();
        assert_eq!(run::words(&run::lavapipe(&words, job), 0), want);
        assert_eq!(run::words(&run::spvkit(&words, job), 0), want);
    }
    let ps = "[[vk::ext_builtin_input(/* SampleId */ 18)]]
              static const int sample_id;
              [[vk::ext_extension(\"SPV_EXT_shader_stencil_export\")]]
              [[vk::ext_builtin_output(/* FragStencilRefEXT */ 5014)]]
              static int stencil;
              void set(out int v, int x) { v = x; }
              float4 main() : SV_Target { set(stencil, sample_id + 1); return 1; }";
    let words = check("ext_builtin_output", ps, "ps_6_0");
    let dis = disassemble(&words);
    for want in [
        "OpDecorate %sample_id BuiltIn SampleId",
        "OpDecorate %sample_id Flat",
        "OpDecorate %stencil BuiltIn FragStencilRefEXT",
        "%stencil = OpVariable %_ptr_Output_int Output",
        "OpCapability StencilExportEXT",
    ] {
        assert!(dis.contains(want), "missing {want}:\n{dis}");
    }
    for (bad, why) in [
        (
            "[[vk::ext_builtin_input(24)]] uint3 g;",
            "vk::ext_builtin_input and vk::ext_builtin_output can only be applied to a static variable",
        ),
        (
            "[[vk::ext_builtin_output(24)]] uint3 g;",
            "vk::ext_builtin_input and vk::ext_builtin_output can only be applied to a static variable",
        ),
        (
            "[[vk::ext_builtin_input(24)]] static uint3 g;",
            "vk::ext_builtin_input can only be applied to a const-qualified variable",
        ),
        (
            "[[vk::ext_builtin_input(24)]] [[vk::ext_builtin_output(24)]] static uint3 g;",
            "vk::ext_builtin_input cannot be used together with vk::ext_builtin_output",
        ),
        (
            "[[vk::ext_builtin_input(24)]] static const uint3 g; [[vk::ext_builtin_output(24)]] static uint3 h;",
            "cannot redefine builtin 24 as an output",
        ),
        (
            "[[vk::ext_builtin_input(123456)]] static const uint3 g;",
            "takes one constant, a SPIR-V built-in's number",
        ),
    ] {
        let e = errors(&format!("{bad}\n[numthreads(1, 1, 1)] void main() {{}}"), "cs_6_0");
        assert!(e.contains(why) && e.contains("bad.hlsl:1:"), "{bad}: {e}");
    }
}

/// `packoffset(cN.c)` places a constant buffer's member at 16 × N + 4 × c bytes (the members
/// after it follow it); the shader reads the bytes placed there on lavapipe and under `spvkit
/// run`. DXC's errors: a member placed over those before it, and packoffset outside a
/// buffer's members; a placement off the member's alignment is an error too.
#[test]
fn packoffset_places_constant_buffer_members() {
    let src = "cbuffer B : register(b0) {
                   float a : packoffset(c0);
                   float3 v : packoffset(c0.y);
                   float b;
                   float2 w : packoffset(c2.z);
                   float4 far : packoffset(c4);
               };
               RWStructuredBuffer<float> Out : register(u1);
               [numthreads(1, 1, 1)]
               void main() {
                   Out[0] = a; Out[1] = v.x; Out[2] = v.z; Out[3] = b; Out[4] = w.y;
                   Out[5] = far.w;
               }";
    let words = check("packoffset", src, "cs_6_0");
    let dis = disassemble(&words);
    for (member, offset) in [(0, 0), (1, 4), (2, 16), (3, 40), (4, 64)] {
        let want = format!("OpMemberDecorate %type_B {member} Offset {offset}\n");
        assert!(dis.contains(&want), "missing {want}{dis}");
    }
    #[cfg(feature = "run")]
    {
        // The uniform buffer's bytes: word k holds 100 + k.
        let data: Vec<String> = (0..20).map(|k| (100 + k).to_string()).collect();
        let job = format!(
            r#"{{"dispatch": [1, 1, 1], "buffers": [
                {{"binding": 0, "kind": "uniform", "layout": ["f32"], "data": [{}]}},
                {{"binding": 1, "layout": ["f32"], "size_words": 6}}]}}"#,
            data.join(", ")
        );
        // a: word 0; v: words 1..4; b: word 4; w: words 10..12; far: words 16..20.
        let want = vec![100.0, 101.0, 103.0, 104.0, 111.0, 119.0];
        assert_eq!(run::floats(&run::lavapipe(&words, &job), 1), want);
        assert_eq!(run::floats(&run::spvkit(&words, &job), 1), want);
    }
    for (bad, at, why) in [
        (
            "cbuffer C { float4 x : packoffset(c2); float y : packoffset(c1); };",
            "1:50:",
            "packoffset caused overlap with previous members",
        ),
        (
            "cbuffer C { float x : packoffset(c0); float4 y : packoffset(c0.y); };",
            "1:50:",
            "packoffset caused overlap with previous members",
        ),
        (
            "cbuffer C { float4 y : packoffset(c1.y); };",
            "1:1:",
            "should be 16-byte aligned",
        ),
        (
            "float4 g : packoffset(c1);",
            "1:12:",
            "packoffset is only allowed on the members of a cbuffer or tbuffer",
        ),
        (
            "struct S { float4 g : packoffset(c1); };",
            "1:23:",
            "packoffset is only allowed on the members of a cbuffer or tbuffer",
        ),
        (
            "cbuffer C { float4 y : packoffset(t1); };",
            "1:24:",
            "packoffset takes a constant register",
        ),
    ] {
        let e = errors(
            &format!("{bad}\n[numthreads(1, 1, 1)] void main() {{}}"),
            "cs_6_0",
        );
        assert!(
            e.contains(why) && e.contains(&format!("bad.hlsl:{at}")),
            "{bad}: {e}"
        );
    }
}

/// `[[vk::ext_decorate(d, ...)]]` and `[[vk::ext_decorate_string(d, "...")]]` decorate the
/// function, parameter, local or module-scope variable they are written on, the operands
/// decoded by the grammar's decoration `d` (a wrong count or an unknown number is an error at
/// the attribute). Ids (`ext_decorate_id`), struct and buffer members, the entry point's
/// stage variables are refused; DXC's errors for string and id decorations on functions.
#[test]
fn ext_decorate_decorates_what_it_is_written_on() {
    let src = "RWStructuredBuffer<uint> buf : register(u0);
               [[vk::ext_decorate(/* Aliased */ 20)]] static uint counter;
               [[vk::ext_decorate_string(/* UserSemantic */ 5635, \"shared one\")]]
               groupshared uint tile[4];
               [[vk::ext_decorate(/* RelaxedPrecision */ 0)]]
               [noinline] uint bump([[vk::ext_decorate(20)]] inout uint a, uint b) {
                   a += b;
                   return a;
               }
               [numthreads(4, 1, 1)]
               void main(uint3 id : SV_DispatchThreadID) {
                   [[vk::ext_decorate(20)]] uint x = id.x;
                   tile[id.x] = bump(x, 2);
                   counter = x;
                   buf[id.x] = tile[id.x] + counter;
               }";
    let words = check("ext_decorate", src, "cs_6_0");
    let dis = disassemble(&words);
    for want in [
        "OpDecorate %counter Aliased",
        "OpDecorateString %tile UserSemantic \"shared one\"",
        "OpDecorate %bump RelaxedPrecision",
        "OpDecorate %a Aliased",
        "OpDecorate %x Aliased",
    ] {
        assert!(dis.contains(want), "missing {want}:\n{dis}");
    }
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1, 1, 1], "buffers": [
            {"binding": 0, "layout": ["u32"], "size_words": 4}]}"#;
        // Each thread's x becomes id + 2, and so does its own (Private) `counter`.
        let want: Vec<u32> = (0..4).map(|i| 2 * (i + 2)).collect();
        assert_eq!(run::words(&run::lavapipe(&words, job), 0), want);
        assert_eq!(run::words(&run::spvkit(&words, job), 0), want);
    }
    for (bad, at, why) in [
        (
            "[[vk::ext_decorate(99999)]] static uint g;",
            "1:1:",
            "no decoration of the SPIR-V grammar takes these operands",
        ),
        (
            "[[vk::ext_decorate(/* SpecId */ 1)]] static uint g;",
            "1:1:",
            "no decoration of the SPIR-V grammar takes these operands",
        ),
        (
            "[[vk::ext_decorate(/* Aliased */ 20, 7)]] static uint g;",
            "1:1:",
            "no decoration of the SPIR-V grammar takes these operands",
        ),
        (
            "[[vk::ext_decorate_id(/* UniformId */ 27, 13)]] static uint g;",
            "1:1:",
            "not supported yet: the attribute [[vk::ext_decorate_id]] here",
        ),
        (
            "[[vk::ext_decorate_string(5635, \"s\")]] uint f() { return 0; }",
            "1:1:",
            "vk::ext_decorate_string is not supported on functions",
        ),
        (
            "struct S { [[vk::ext_decorate(20)]] uint m; };",
            "1:12:",
            "not supported yet: the attribute [[vk::ext_decorate]] here",
        ),
        (
            "[[vk::ext_decorate(20)]] uint loose;",
            "1:1:",
            "not supported yet: [[vk::ext_decorate]] on a variable of this kind",
        ),
    ] {
        let e = errors(
            &format!("{bad}\n[numthreads(1, 1, 1)] void main() {{}}"),
            "cs_6_0",
        );
        assert!(
            e.contains(why) && e.contains(&format!("bad.hlsl:{at}")),
            "{bad}: {e}"
        );
    }
    let e = errors(
        "[numthreads(1, 1, 1)] void main([[vk::ext_decorate(20)]] uint3 id : SV_GroupID) {}",
        "cs_6_0",
    );
    assert!(e.contains("[[vk::ext_decorate]] on the entry point"), "{e}");
}

/// `[[vk::spvexecutionmode(m)]]` on the entry point and `vk::ext_execution_mode(m, ...)`
/// anywhere the entry point reaches (a template's argument included) add execution modes to
/// the entry point, decoded by the grammar; an unknown mode, ids, or the attribute on another
/// function are errors.
#[test]
fn inline_execution_modes_reach_the_entry_point() {
    let src = "template<uint width> struct Denorm {
                   static void declare() { vk::ext_execution_mode(/* DenormFlushToZero */ 4460, width); }
               };
               [[vk::spvexecutionmode(/* PostDepthCoverage */ 4446), vk::spvexecutionmode(/* DepthLess */ 15)]]
               float4 main(float4 c : COLOR) : SV_Target {
                   Denorm<32>::declare();
                   return c;
               }";
    let words = check("inline_execution_modes", src, "ps_6_0");
    let dis = disassemble(&words);
    for want in [
        "OpExecutionMode %main PostDepthCoverage",
        "OpExecutionMode %main DepthLess",
        "OpExecutionMode %main DenormFlushToZero 32",
        "OpCapability SampleMaskPostDepthCoverage",
        "OpCapability DenormFlushToZero",
    ] {
        assert!(dis.contains(want), "missing {want}:\n{dis}");
    }
    for (bad, why) in [
        (
            "[[vk::spvexecutionmode(99999)]] float4 main() : SV_Target { return 0; }",
            "no execution mode of the SPIR-V grammar takes these constant operands",
        ),
        (
            "float4 main() : SV_Target { vk::ext_execution_mode(/* LocalSizeId */ 38, 1, 1, 1); return 0; }",
            "ids, vk::ext_execution_mode_id, are not supported yet",
        ),
        (
            "[[vk::spvexecutionmode(15)]] void f() {} float4 main() : SV_Target { f(); return 0; }",
            "[[vk::spvexecutionmode]] on a function other than the entry point",
        ),
    ] {
        let e = errors(bad, "ps_6_0");
        assert!(e.contains(why) && e.contains("bad.hlsl:1:"), "{bad}: {e}");
    }
}

/// `[[vk::ext_literal]]` parameters of an inline SPIR-V declaration give their constant
/// value (a `static const`, an enumerator, a macro) as the operand's literal word: the group
/// operation of `OpGroupNonUniformBallotBitCount` here, whose results lavapipe and `spvkit run`
/// compute. A non-constant argument, or the attribute on an ordinary function, is an error.
#[test]
fn ext_literal_operands_of_inline_spirv() {
    let src = "static const uint Reduce = 0;
               #define InclusiveScan 1
               enum { ExclusiveScan = 2 };
               [[vk::ext_capability(/* GroupNonUniformBallot */ 64)]]
               [[vk::ext_instruction(/* OpGroupNonUniformBallotBitCount */ 342)]]
               uint BitCount(uint scope, [[vk::ext_literal]] uint op, uint4 ballot);
               RWStructuredBuffer<uint> Out : register(u0);
               [numthreads(4, 1, 1)]
               void main(uint3 id : SV_GroupThreadID) {
                   uint4 b = uint4(1, 0, 0, 0);
                   Out[id.x * 3 + 0] = BitCount(3, Reduce, b);
                   Out[id.x * 3 + 1] = BitCount(3, InclusiveScan, b);
                   Out[id.x * 3 + 2] = BitCount(3, ExclusiveScan, b);
               }";
    let words = check_env(
        "ext_literal",
        src,
        "cs_6_6",
        TargetEnv::Vulkan1_1,
        LanguageVersion::V2021,
    );
    let dis = disassemble(&words);
    for want in ["Reduce", "InclusiveScan", "ExclusiveScan"] {
        let want = format!("OpGroupNonUniformBallotBitCount %uint %uint_3 {want}");
        assert!(dis.contains(&want), "missing {want}:\n{dis}");
    }
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1, 1, 1], "buffers": [
            {"binding": 0, "layout": ["u32"], "size_words": 12}]}"#;
        // Bit 0 only: every invocation counts it in the whole ballot and in its inclusive
        // prefix; the exclusive prefix of invocation 0 is empty.
        let want = vec![1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1];
        assert_eq!(run::words(&run::lavapipe(&words, job), 0), want);
    }
    for (bad, why) in [
        (
            "[[vk::ext_instruction(342)]] uint BitCount(uint scope, [[vk::ext_literal]] uint op, uint4 b);
             [numthreads(1, 1, 1)] void main(uint3 id : SV_GroupThreadID) { BitCount(3, id.x, 0); }",
            "vk::ext_literal may only be applied to parameters that can be evaluated to a literal value",
        ),
        (
            "uint f([[vk::ext_literal]] uint op) { return op; }
             [numthreads(1, 1, 1)] void main() { f(1); }",
            "[[vk::ext_literal]] is only meaningful on a parameter of an inline SPIR-V declaration",
        ),
    ] {
        let e = errors(bad, "cs_6_6");
        assert!(e.contains(why), "{bad}: {e}");
    }
}

/// `[[vk::ext_capability(n)]]` and `[[vk::ext_extension("name")]]` on variables, fields and
/// functions declare what they name, needed or not, at every optimization level (a
/// capability with the extension that enables it); a number that is no capability, or an
/// argument of the wrong kind, is an error at the attribute.
#[test]
fn requested_capabilities_and_extensions_are_declared() {
    let src = "[[vk::ext_extension(\"SPV_KHR_post_depth_coverage\")]]
               [[vk::ext_capability(/* SampleMaskPostDepthCoverage */ 4447)]]
               int val;
               struct T { [[vk::ext_extension(\"SPV_EXT_some_vendor_thing\")]] int v; };
               [[vk::ext_capability(/* Int8 */ 39)]]
               float4 main(float4 c : COLOR) : SV_Target { T t; t.v = val; return c * t.v; }";
    for fcgl in [false, true] {
        let mut o = options("ps_6_0", TargetEnv::Vulkan1_0, LanguageVersion::V2021);
        o.legalize = !fcgl;
        let words = compile_with("requested", src, &o);
        spirv_val("requested", &words, TargetEnv::Vulkan1_0);
        let dis = disassemble(&words);
        for want in [
            "OpCapability SampleMaskPostDepthCoverage",
            "OpCapability Int8",
            "OpExtension \"SPV_KHR_post_depth_coverage\"",
            "OpExtension \"SPV_EXT_some_vendor_thing\"",
        ] {
            assert!(dis.contains(want), "missing {want}:\n{dis}");
        }
    }
    // Through the command line, whose -O3 recomputes the requirements after optimizing.
    let output = scratch("requested_o3");
    let input = output.with_extension("hlsl");
    std::fs::write(&input, src).unwrap();
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_hlsl2spirv"))
        .args(["-T", "ps_6_0", "-E", "main", "-O3"])
        .arg(&input)
        .arg("-Fo")
        .arg(&output)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let bytes = std::fs::read(&output).unwrap();
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let dis = disassemble(&words);
    assert!(dis.contains("OpCapability Int8"), "{dis}");
    assert!(
        dis.contains("OpExtension \"SPV_KHR_post_depth_coverage\""),
        "{dis}"
    );
    for (attr, why) in [
        (
            "[[vk::ext_capability(99999)]]",
            "no SPIR-V capability has this number",
        ),
        (
            "[[vk::ext_capability(\"Int8\")]]",
            "takes one integer literal",
        ),
        ("[[vk::ext_extension(7)]]", "takes one string literal"),
    ] {
        let e = errors(
            &format!("{attr} int val; float4 main() : SV_Target {{ return val; }}"),
            "ps_6_0",
        );
        assert!(e.contains(why) && e.contains(":1:1:"), "{attr}: {e}");
    }
}

/// A struct holding a resource: a method of it (`this` in and out), a function returning one
/// and an `inout` parameter of one compile to direct accesses of the globals; a member never
/// given a resource is an error after legalization (DXC emits an undefined pointer).
#[test]
fn structs_of_resources_through_methods_returns_and_inout() {
    let src = "StructuredBuffer<uint> a : register(t0); StructuredBuffer<uint> b : register(t1);
         RWStructuredBuffer<uint> o : register(u2);
         struct S { StructuredBuffer<uint> buf; uint k;
           uint get(uint i) { return buf[i] + k; }
           void toB() { buf = b; } };
         S make() { S s; s.buf = a; s.k = 1; return s; }
         void flip(inout S s) { s.toB(); s.k = 2; }
         [numthreads(1, 1, 1)] void main() {
           S s = make(); o[0] = s.get(0); flip(s); o[1] = s.get(0);
         }";
    let words = check("resource-struct-methods", src, "cs_6_0");
    let text = disassemble(&words);
    // Every access reaches a global: no Function variable holds a pointer any more.
    assert!(!text.contains("%_ptr_Function__ptr"), "{text}");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["u32"], "data": [10]},
            {"binding": 1, "layout": ["u32"], "data": [20]},
            {"binding": 2, "layout": ["u32"], "size_words": 2}]}"#;
        for out in [run::lavapipe(&words, job), run::spvkit(&words, job)] {
            assert_eq!(run::words(&out, 2), [11, 22]);
        }
    }
    let e = errors(
        "ByteAddressBuffer g; RWStructuredBuffer<float> o;
         struct Base { ByteAddressBuffer buffer; };
         struct Child : Base { float load(uint at) { return asfloat(buffer.Load(at)); } };
         [numthreads(1, 1, 1)] void main() { Child c; o[0] = c.load(0); }",
        "cs_6_0",
    );
    assert!(
        e.starts_with("bad.hlsl: error: a resource (a struct member, a variable or a parameter holding one) is used before it is assigned"),
        "{e}"
    );
    // An `out` parameter gives the caller's struct its resources.
    let words = check(
        "resource-struct-out",
        "StructuredBuffer<uint> a : register(t0); RWStructuredBuffer<uint> o : register(u1);
         struct S { StructuredBuffer<uint> buf; uint k; };
         void init(out S s) { s.buf = a; s.k = 5; }
         [numthreads(1, 1, 1)] void main() { S s; init(s); o[0] = s.buf[0] + s.k; }",
        "cs_6_0",
    );
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["u32"], "data": [7]},
            {"binding": 1, "layout": ["u32"], "size_words": 1}]}"#;
        for out in [run::lavapipe(&words, job), run::spvkit(&words, job)] {
            assert_eq!(run::words(&out, 1), [12]);
        }
    }
    let _ = words;
}

/// `mul` of a matrix and a longer vector (either side) truncates the vector to the matrix's
/// side, with DXC's warning, as real shaders write `mul((float3x3)m, v4)`. Computed on
/// lavapipe and under `spvkit run` against sums done here.
#[test]
fn mul_truncates_a_longer_vector() {
    let src = "RWStructuredBuffer<float> o : register(u0);
         cbuffer C : register(b1) { float4x4 M; float4 v; };
         [numthreads(1, 1, 1)] void main() {
           float3 a = mul((float3x3)M, v);
           float3 b = mul(v, (float3x3)M);
           o[0] = a.x; o[1] = a.y; o[2] = a.z; o[3] = b.x; o[4] = b.y; o[5] = b.z;
         }";
    let words = check("mul-truncation", src, "cs_6_0");
    let warnings = match compile_source(
        "mul.hlsl",
        src,
        &options("cs_6_0", TargetEnv::Vulkan1_0, LanguageVersion::V2021),
    ) {
        Ok(out) => out.warnings,
        Err(e) => panic!("{}", e.rendered),
    };
    assert_eq!(
        warnings
            .matches("warning: implicit truncation of vector type (float4 to float3)")
            .count(),
        2,
        "{warnings}"
    );
    // M[i][j] = 1 + 4i + j, held column by column (HLSL's default packing).
    let m = |i: usize, j: usize| (1 + 4 * i + j) as f32;
    let v = [0.5f32, -2.0, 3.0, 100.0];
    let mut data = Vec::new();
    for j in 0..4 {
        for i in 0..4 {
            data.push(m(i, j));
        }
    }
    data.extend(v);
    let a: Vec<f32> = (0..3)
        .map(|i| (0..3).map(|j| m(i, j) * v[j]).sum())
        .collect();
    let b: Vec<f32> = (0..3)
        .map(|j| (0..3).map(|i| v[i] * m(i, j)).sum())
        .collect();
    #[cfg(feature = "run")]
    {
        let job = format!(
            r#"{{"dispatch": [1], "buffers": [
            {{"binding": 0, "layout": ["f32"], "size_words": 6}},
            {{"binding": 1, "kind": "uniform", "layout": ["f32"], "data": {data:?}}}]}}"#
        );
        for out in [run::lavapipe(&words, &job), run::spvkit(&words, &job)] {
            let got: Vec<f32> = run::words(&out, 0)
                .iter()
                .map(|w| f32::from_bits(*w))
                .collect();
            assert_eq!(got, [a.clone(), b.clone()].concat());
        }
    }
    let _ = (words, a, b);
}

/// A `[[vk::builtin("PointSize")]]` member of a struct the pixel shader shares with the vertex
/// shader is accepted as a pixel input, as DXC does, where the pixel shader never reads it
/// (the module is valid for Vulkan, which has no point size in fragment shaders); reading it
/// is an error. `texture` is a name, not a type (`Texture2D texture;`).
#[test]
fn point_size_pixel_inputs_and_texture_as_a_name() {
    let decls = "struct VSOutput { float4 Pos : SV_POSITION;
           [[vk::builtin(\"PointSize\")]] float PSize : PSIZE; float4 Color : COLOR0; };
         Texture2D texture : register(t0); SamplerState s : register(s1);";
    let words = check(
        "point-size-pixel-input",
        &format!(
            "{decls} float4 main(VSOutput input) : SV_TARGET {{
             return input.Color * texture.Sample(s, input.Pos.xy); }}"
        ),
        "ps_6_0",
    );
    let text = disassemble(&words);
    assert!(text.contains("BuiltIn PointSize"), "{text}");
    let e = errors(
        &format!(
            "{decls} float4 main(VSOutput input) : SV_TARGET {{
             return input.Color * input.PSize; }}"
        ),
        "ps_6_0",
    );
    assert!(
        e.contains("error: the pixel shader reads its [[vk::builtin(\"PointSize\")]] input"),
        "{e}"
    );
}

/// Ray queries (`RayQuery<FLAGS>`, shader model 6.5) as DXC lowers them: a Function variable
/// of `OpTypeRayQueryKHR`, `TraceRayInline` as `OpRayQueryInitializeKHR` with the template's
/// flags or-ed in and the `RayDesc` taken apart, each method one `OpRayQuery*KHR` (candidate
/// intersection 0, committed 1; the 3x4 matrices transposed from SPIR-V's 4x3, the
/// non-opaque query negated), a ray query parameter a reference to the caller's; what is not
/// supported yet, and a target below SPIR-V 1.4, are errors.
#[test]
fn ray_queries() {
    let src = "RaytracingAccelerationStructure scene : register(t0);
         RWStructuredBuffer<float> o : register(u1);
         RayDesc ray(float3 at) {
           RayDesc r; r.Origin = at; r.TMin = 0.25; r.Direction = float3(0, 0, 1); r.TMax = 100;
           return r;
         }
         void trace(RayQuery<RAY_FLAG_FORCE_OPAQUE> query, uint flags) {
           query.TraceRayInline(scene, flags, 0x0F, ray(float3(1, 2, 3)));
         }
         [numThreads(1, 1, 1)] void main() {
           RayQuery<RAY_FLAG_FORCE_OPAQUE> q;
           trace(q, RAY_FLAG_CULL_BACK_FACING_TRIANGLES);
           float sum = 0;
           while (q.Proceed()) {
             if (q.CandidateType() == CANDIDATE_PROCEDURAL_PRIMITIVE) {
               if (q.CandidateProceduralPrimitiveNonOpaque()) q.CommitProceduralPrimitiveHit(2.5);
             } else {
               float3x4 m = q.CandidateObjectToWorld3x4();
               sum += m[0][3] + q.CandidateTriangleRayT() + q.CandidateTriangleBarycentrics().y;
               q.CommitNonOpaqueTriangleHit();
             }
           }
           if (q.CommittedStatus() == COMMITTED_TRIANGLE_HIT) {
             float4x3 w = q.CommittedWorldToObject4x3();
             sum += w[3][2] + q.CommittedRayT() + q.CommittedInstanceID() + q.CommittedInstanceIndex()
                  + q.CommittedGeometryIndex() + q.CommittedPrimitiveIndex()
                  + q.CommittedInstanceContributionToHitGroupIndex()
                  + q.CommittedObjectRayOrigin().x + q.CommittedObjectRayDirection().z
                  + (q.CommittedTriangleFrontFace() ? 1 : 0);
           }
           sum += q.RayTMin() + q.RayFlags() + q.WorldRayOrigin().y + q.WorldRayDirection().z;
           q.Abort();
           o[0] = sum;
         }";
    let words = check_env(
        "ray-queries",
        src,
        "cs_6_5",
        TargetEnv::Vulkan1_2,
        LanguageVersion::V2021,
    );
    let text = disassemble(&words);
    for want in [
        "OpCapability RayQueryKHR",
        "OpExtension \"SPV_KHR_ray_query\"",
        // The template's FORCE_OPAQUE (1) or-ed into the flags passed (CULL_BACK_FACING, 16).
        "OpBitwiseOr %uint %uint_1 ",
        "OpStore %param_var_flags %uint_16",
        "OpRayQueryProceedKHR %bool %q",
        "OpRayQueryGetIntersectionTypeKHR %uint %q %uint_0",
        "OpRayQueryGetIntersectionTypeKHR %uint %q %uint_1",
        "OpRayQueryGetIntersectionCandidateAABBOpaqueKHR %bool %q",
        "OpRayQueryGenerateIntersectionKHR %q %float_2_5",
        "OpRayQueryGetIntersectionObjectToWorldKHR %mat4v3float %q %uint_0",
        "OpTranspose %mat3v4float",
        "OpRayQueryConfirmIntersectionKHR %q",
        "OpRayQueryGetIntersectionWorldToObjectKHR %mat4v3float %q %uint_1",
        "OpRayQueryGetIntersectionTKHR %float %q %uint_0",
        "OpRayQueryGetIntersectionTKHR %float %q %uint_1",
        "OpRayQueryGetIntersectionBarycentricsKHR %v2float %q %uint_0",
        "OpRayQueryGetIntersectionInstanceCustomIndexKHR %uint %q %uint_1",
        "OpRayQueryGetIntersectionInstanceIdKHR %uint %q %uint_1",
        "OpRayQueryGetIntersectionGeometryIndexKHR %uint %q %uint_1",
        "OpRayQueryGetIntersectionPrimitiveIndexKHR %uint %q %uint_1",
        "OpRayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetKHR %uint %q %uint_1",
        "OpRayQueryGetIntersectionObjectRayOriginKHR %v3float %q %uint_1",
        "OpRayQueryGetIntersectionObjectRayDirectionKHR %v3float %q %uint_1",
        "OpRayQueryGetIntersectionFrontFaceKHR %bool %q %uint_1",
        "OpRayQueryGetRayTMinKHR %float %q",
        "OpRayQueryGetRayFlagsKHR %uint %q",
        "OpRayQueryGetWorldRayOriginKHR %v3float %q",
        "OpRayQueryGetWorldRayDirectionKHR %v3float %q",
        "OpRayQueryTerminateKHR %q",
    ] {
        assert!(text.contains(want), "{want}:\n{text}");
    }
    // The non-opaque query is the opaque one negated.
    let opaque = text
        .lines()
        .find(|l| l.contains("CandidateAABBOpaqueKHR"))
        .and_then(|l| l.split_whitespace().next())
        .expect("the opaque query");
    assert!(
        text.contains(&format!("OpLogicalNot %bool {opaque}")),
        "{text}"
    );
    // The ray's members, in RayDesc's order: origin (1, 2, 3), TMin 0.25, direction, TMax 100.
    assert!(text.contains("%float_0_25 "), "{text}");
    for (body, want) in [
        ("RayQuery<0> q[2];", "not supported yet: arrays of RayQuery"),
        (
            "static RayQuery<0> q;",
            "not supported yet: a 'static' RayQuery",
        ),
        (
            "RayQuery<0> q; RayQuery<0> r; q = r;",
            "not supported yet: assigning a RayQuery",
        ),
        (
            "RayQuery<0> q; q.Trace();",
            "no method 'Trace' on a RayQuery",
        ),
        (
            "RayQuery<0> q; q.Proceed(1);",
            "'Proceed' takes 0 arguments, 1 given",
        ),
        (
            "RayQuery<0> q; q.TraceRayInline(scene, 0, 1, float4(0, 0, 0, 0));",
            "TraceRayInline's ray is a RayDesc",
        ),
        (
            "RayQuery<1, 1> q;",
            "not supported yet: RayQuery's second template argument",
        ),
    ] {
        let e = match compile_source(
            "bad.hlsl",
            &format!(
                "RaytracingAccelerationStructure scene; [numthreads(1, 1, 1)] void main() {{ {body} }}"
            ),
            &options("cs_6_5", TargetEnv::Vulkan1_2, LanguageVersion::V2021),
        ) {
            Ok(_) => panic!("compiled: {body}"),
            Err(e) => e.rendered,
        };
        assert!(e.contains(want), "{body}: {e}");
    }
    for (src, want) in [
        (
            "struct S { RayQuery<0> q; }; [numthreads(1, 1, 1)] void main() { S s; }",
            "not supported yet: a RayQuery in a struct",
        ),
        (
            "RayQuery<0> g; [numthreads(1, 1, 1)] void main() {}",
            "not supported yet: a RayQuery at module scope",
        ),
    ] {
        let e = match compile_source(
            "bad.hlsl",
            src,
            &options("cs_6_5", TargetEnv::Vulkan1_2, LanguageVersion::V2021),
        ) {
            Ok(_) => panic!("compiled: {src}"),
            Err(e) => e.rendered,
        };
        assert!(e.contains(want), "{src}: {e}");
    }
    let e = errors(
        "[numthreads(1, 1, 1)] void main() { RayQuery<0> q; }",
        "cs_6_5",
    );
    assert!(e.contains("RayQuery needs SPIR-V 1.4 or later"), "{e}");
}

/// `c ? r1 : r2` of resources in HLSL 2018, as DXC: a sampler or read-only texture held by
/// value in a Function variable (valid before legalization), which legalization resolves where
/// `c` is constant; where it is not, an error at the expression. HLSL 2021's short-circuiting
/// form takes no resource (DXC's error).
#[test]
fn resource_conditionals() {
    let src = "Texture2D a : register(t0); Texture2D b : register(t1);
         SamplerState s1 : register(s2); SamplerState s2 : register(s3);
         RWStructuredBuffer<float> o : register(u4); RWStructuredBuffer<float> p : register(u5);
         static const bool FIRST = false;
         [numthreads(1, 1, 1)] void main() {
           SamplerState s = FIRST ? s1 : s2;
           float4 c = (FIRST ? a : b).SampleLevel(s, float2(0.5, 0.5), 0);
           (FIRST ? o : p)[0] = c.x;
         }";
    // (Images and samplers only: a buffer is held by its pointer, which only legalization
    // makes valid.)
    let by_value = src.replace("(FIRST ? o : p)[0]", "o[0]");
    let hv2018 = |legalize: bool| {
        let mut o = options("cs_6_0", TargetEnv::Vulkan1_0, LanguageVersion::V2018);
        o.legalize = legalize;
        o
    };
    let words = compile_with("resource-conditionals", &by_value, &hv2018(false));
    spirv_val("resource-conditionals", &words, TargetEnv::Vulkan1_0);
    let text = disassemble(&words);
    assert!(text.contains("%temp_var_ternary"), "{text}");
    let words = compile_with("resource-conditionals-legal", src, &hv2018(true));
    spirv_val("resource-conditionals-legal", &words, TargetEnv::Vulkan1_0);
    let legal = disassemble(&words);
    assert!(!legal.contains("%temp_var_ternary"), "{legal}");
    // The chosen resources, directly: b, s2 and p.
    for want in ["OpLoad %type_2d_image %b", "OpLoad %type_sampler %s2"] {
        assert!(legal.contains(want), "{want}:\n{legal}");
    }
    assert!(
        legal.contains("OpAccessChain %_ptr_Uniform_float %p"),
        "{legal}"
    );
    let bad = "Texture2D a; Texture2D b; SamplerState s; RWStructuredBuffer<float> o; uint k;
         [numthreads(1, 1, 1)] void main() { o[0] = (k > 1 ? a : b).SampleLevel(s, 0.5, 0).x; }";
    let e = match compile_source("bad.hlsl", bad, &hv2018(true)) {
        Ok(_) => panic!("compiled:\n{bad}"),
        Err(e) => e.rendered,
    };
    assert!(
        e.contains(
            "bad.hlsl:2:53: error: the resource this '?:' chooses does not stay one resource"
        ),
        "{e}"
    );
    // HLSL 2021's short-circuiting '?:' takes no resource, as in DXC.
    let e = errors(bad, "cs_6_0");
    assert!(
        e.contains("error: casting to type 'Texture2D<float4>' unimplemented"),
        "{e}"
    );
}

/// Initializer lists of structs holding resources (DXC's flat initialization): a resource
/// initializes the member of its type (a buffer as its pointer, an image or sampler as its
/// handle, as such a struct holds them), nested lists and whole structs included; anything
/// else in a resource's place is an error. Computed on lavapipe and under `spvkit run`.
#[test]
fn initializer_lists_of_structs_holding_resources() {
    let src = "StructuredBuffer<uint> a : register(t0); StructuredBuffer<uint> b : register(t1);
         RWStructuredBuffer<uint> o : register(u2);
         struct P { StructuredBuffer<uint> buf; uint k; };
         struct Q { P first; P second; };
         [numthreads(1, 1, 1)] void main() {
           P p = { a, 3 };
           Q q = { p, { b, 5 } };
           o[0] = p.buf[0] + p.k;
           o[1] = q.second.buf[0] * q.second.k + q.first.buf[0];
         }";
    let words = check("resource-init-lists", src, "cs_6_0");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["u32"], "data": [10]},
            {"binding": 1, "layout": ["u32"], "data": [20]},
            {"binding": 2, "layout": ["u32"], "size_words": 2}]}"#;
        for out in [run::lavapipe(&words, job), run::spvkit(&words, job)] {
            assert_eq!(run::words(&out, 2), [13, 110]);
        }
    }
    let _ = words;
    // Images and samplers, held by value.
    check(
        "resource-init-lists-images",
        "Texture2D t : register(t0); SamplerState s : register(s1);
         RWStructuredBuffer<float4> o : register(u2);
         struct T { Texture2D tex; SamplerState smp; };
         [numthreads(1, 1, 1)] void main() {
           T x = { t, s };
           o[0] = x.tex.SampleLevel(x.smp, float2(0.5, 0.5), 0);
         }",
        "cs_6_0",
    );
    let e = errors(
        "StructuredBuffer<uint> a; RWStructuredBuffer<uint> o;
         struct P { StructuredBuffer<uint> buf; uint k; };
         [numthreads(1, 1, 1)] void main() { P p = { 3, a }; o[0] = p.k; }",
        "cs_6_0",
    );
    assert!(
        e.contains(
            "error: cannot initialize 'StructuredBuffer<uint>' with 'int' in this initializer list"
        ),
        "{e}"
    );
}

/// A derivative in a vertex shader is an error only where legalization keeps it, as DXC's
/// validator sees the legalized module: a branch constant conditions never take compiles.
#[test]
fn vertex_derivatives_only_in_dead_branches() {
    let src = |cond: &str| {
        format!(
            "float4 main(float4 p : POSITION) : SV_Position {{
               float4 o = p;
               if ({cond}) {{ o += ddx(p) + fwidth(p); }}
               return o;
             }}"
        )
    };
    let words = check("vs-dead-derivative", &src("false"), "vs_6_0");
    let text = disassemble(&words);
    assert!(
        !text.contains("OpDPdx") && !text.contains("DerivativeControl"),
        "{text}"
    );
    let e = errors(&src("p.x > 0"), "vs_6_0");
    assert!(
        e.contains("bad.hlsl:3:36: error: ddx is only available in pixel and compute shaders")
            && e.contains("error: fwidth is only available in pixel and compute shaders"),
        "{e}"
    );
}

/// `-fspv-flatten-resource-arrays` with indices that are not constants: legalization gives
/// each element its binding and a switch over the index picks the element's copy of the code
/// that uses it (the loop is not unrolled, so the index stays variable). The buffers computed
/// on lavapipe and under `spvkit run` are the ones the indices select.
#[test]
fn flattened_arrays_with_variable_indices() {
    let src = "RWStructuredBuffer<uint> bufs[3] : register(u0);
               RWStructuredBuffer<uint> o : register(u3);
               [numthreads(1, 1, 1)]
               void main() {
                   [loop] for (uint i = 0; i < 3; i++) {
                       uint k = o[i];
                       o[i] = bufs[k][0] * 10 + bufs[2 - k][1];
                   }
               }";
    let mut o = options("cs_6_0", TargetEnv::Vulkan1_0, LanguageVersion::V2021);
    o.bindings.flatten_arrays = true;
    let words = compile_with("flattened_variable", src, &o);
    spirv_val("flattened_variable", &words, TargetEnv::Vulkan1_0);
    let dis = disassemble(&words);
    for want in [
        "OpDecorate %bufs_0_ Binding 0",
        "OpDecorate %bufs_2_ Binding 2",
        "OpDecorate %o Binding 3",
        "OpSwitch",
    ] {
        assert!(dis.contains(want), "missing {want}:\n{dis}");
    }
    assert!(!dis.contains("%bufs = "), "{dis}");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "layout": ["u32"], "data": [1, 2]},
            {"binding": 1, "layout": ["u32"], "data": [3, 4]},
            {"binding": 2, "layout": ["u32"], "data": [5, 6]},
            {"binding": 3, "layout": ["u32"], "data": [2, 0, 1]}]}"#;
        for out in [run::lavapipe(&words, job), run::spvkit(&words, job)] {
            assert_eq!(run::words(&out, 3), [52, 16, 34]);
        }
    }
    // A texture picked by a variable index in one block and sampled in others; buffers with
    // counters, whose counters are flattened beside them (after the buffers' bindings).
    let src = "Texture2D t[2] : register(t0); SamplerState s : register(s2);
               RWStructuredBuffer<uint> c[2] : register(u3);
               float4 main(uint i : I, float2 uv : UV) : SV_Target {
                   Texture2D x = t[i];
                   c[i][c[i].IncrementCounter()] = 7;
                   if (uv.x > 0) return x.Sample(s, uv);
                   return x.Load(int3(0, 0, 0));
               }";
    let mut o = options("ps_6_0", TargetEnv::Vulkan1_0, LanguageVersion::V2021);
    o.bindings.flatten_arrays = true;
    let words = compile_with("flattened_blocks", src, &o);
    spirv_val("flattened_blocks", &words, TargetEnv::Vulkan1_0);
    let dis = disassemble(&words);
    for want in [
        "OpDecorate %t_1_ Binding 1",
        "OpDecorate %c_1_ Binding 4",
        "OpDecorate %counter_var_c_0_ Binding 5",
        "OpDecorate %counter_var_c_1_ Binding 6",
    ] {
        assert!(dis.contains(want), "missing {want}:\n{dis}");
    }
    // Arrays of constant buffers too: each element block at its binding.
    let cbs = "struct P { float4 v; };
               ConstantBuffer<P> cbs[3] : register(b0);
               RWStructuredBuffer<float4> out4 : register(u3);
               [numthreads(2, 1, 1)]
               void main(uint3 id : SV_DispatchThreadID) { out4[id.x] = cbs[id.x].v + cbs[2].v; }";
    let mut co = options("cs_6_0", TargetEnv::Vulkan1_0, LanguageVersion::V2021);
    co.bindings.flatten_arrays = true;
    let words = compile_with("flattened_cbuffers", cbs, &co);
    spirv_val("flattened_cbuffers", &words, TargetEnv::Vulkan1_0);
    let dis = disassemble(&words);
    assert!(
        dis.contains("OpDecorate %cbs_1_ Binding 1")
            && dis.contains("OpDecorate %cbs_2_ Binding 2"),
        "{dis}"
    );
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "kind": "uniform", "layout": ["f32"], "data": [1, 2, 3, 4]},
            {"binding": 1, "kind": "uniform", "layout": ["f32"], "data": [10, 20, 30, 40]},
            {"binding": 2, "kind": "uniform", "layout": ["f32"], "data": [100, 200, 300, 400]},
            {"binding": 3, "layout": ["f32"], "size_words": 8}]}"#;
        for out in [run::lavapipe(&words, job), run::spvkit(&words, job)] {
            assert_eq!(
                run::floats(&out, 3),
                [101.0f32, 202.0, 303.0, 404.0, 110.0, 220.0, 330.0, 440.0]
            );
        }
    }
    // Without legalization (`-fcgl`) the arrays stay, at the bindings flattening gives.
    o.legalize = false;
    let dis = disassemble(&compile_with("flattened_fcgl", src, &o));
    assert!(
        dis.contains("OpDecorate %c Binding 3")
            && dis.contains("OpDecorate %counter_var_c Binding 5"),
        "{dis}"
    );
}

/// A local array of resources initialized with a module-scope array is a name for it, and a
/// buffer's counter used through a local name (of it, or of what a function returns) is the
/// buffer's: the buffers computed on
/// lavapipe and under `spvkit run` are the named ones. Another length, element assignment
/// and reassignment are errors.
#[test]
fn local_resource_arrays_and_counters_through_local_names() {
    let src = "RWStructuredBuffer<uint> bufs[2] : register(u0);
               RWStructuredBuffer<uint> o : register(u2);
               RWStructuredBuffer<uint> pick() { return o; }
               [numthreads(1, 1, 1)]
               void main() {
                   RWStructuredBuffer<uint> l[2] = bufs;
                   RWStructuredBuffer<uint> c = o;
                   uint k = c.IncrementCounter();
                   RWStructuredBuffer<uint> d = pick();
                   o[0] = d.IncrementCounter();
                   o[1] = l[1][0] + l[0][0] * 10 + k;
               }";
    let words = check("local-resource-arrays", src, "cs_6_0");
    let dis = disassemble(&words);
    assert!(dis.contains("OpDecorate %counter_var_o Binding 1"), "{dis}");
    #[cfg(feature = "run")]
    {
        let job = r#"{"dispatch": [1], "buffers": [
            {"binding": 0, "index": 0, "layout": ["u32"], "data": [3]},
            {"binding": 0, "index": 1, "layout": ["u32"], "data": [4]},
            {"binding": 2, "layout": ["u32"], "size_words": 2},
            {"binding": 1, "layout": ["u32"], "data": [5]}]}"#;
        for out in [run::lavapipe(&words, job), run::spvkit(&words, job)] {
            assert_eq!(run::words(&out, 2), [6, 39]);
            assert_eq!(run::words(&out, 1), [7]);
        }
    }
    let decls = "Texture2D g[3]; SamplerState s;\n";
    for (body, want) in [
        (
            "Texture2D m[2] = g;",
            "error: cannot initialize a variable of type 'Texture2D<float4>[2]' with an lvalue \
             of type 'Texture2D<float4>[3]'",
        ),
        (
            "Texture2D l[3] = g; l[0] = g[2];",
            "error: not supported yet: assigning to an element of an array of resources",
        ),
        (
            "Texture2D k[3] = g; k = g;",
            "error: not supported yet: local arrays of resources other than a name for a \
             module-scope array",
        ),
    ] {
        let e = errors(
            &format!("{decls}float4 main() : SV_Target {{ {body} return 0; }}"),
            "ps_6_0",
        );
        assert!(e.contains(want), "{body}: {e}");
    }
}

/// `[[vk::combinedImageSampler]]`: a texture and a sampler at the same binding (the sampler
/// shifted as a texture) become one combined image sampler once legalized, as DXC's
/// `--convert-to-sampled-image` makes them; `-fcgl` keeps them apart at that binding. A
/// missing partner, a sampler used with another texture and the attribute on an array are
/// errors.
#[test]
fn combined_image_samplers() {
    let src = "[[vk::combinedImageSampler]] Texture2D<float4> tex : register(t1);
               [[vk::combinedImageSampler]] SamplerState smp : register(s1);
               [[vk::combinedImageSampler]] [[vk::binding(4, 2)]] Texture2D<float> depth;
               [[vk::combinedImageSampler]] [[vk::binding(4, 2)]] SamplerComparisonState cmp;
               Texture2D<float4> plain : register(t0);
               float4 sample_it(Texture2D<float4> t, SamplerState s, float2 uv) {
                   return t.Sample(s, uv);
               }
               float4 main(float2 uv : UV) : SV_Target {
                   return sample_it(tex, smp, uv) + tex.Load(int3(0, 0, 0))
                        + depth.SampleCmp(cmp, uv, 0.5) + plain.Load(int3(1, 1, 0));
               }";
    let words = check("combined-image-samplers", src, "ps_6_0");
    let dis = disassemble(&words);
    for want in [
        "OpDecorate %tex Binding 1",
        "OpDecorate %depth DescriptorSet 2",
        "OpDecorate %depth Binding 4",
        "OpDecorate %plain Binding 0",
        "%tex = OpVariable %_ptr_UniformConstant_type_sampled_image UniformConstant",
    ] {
        assert!(dis.contains(want), "missing {want}:\n{dis}");
    }
    assert!(
        !dis.contains("%smp") && !dis.contains("%cmp") && !dis.contains("OpTypeSampler"),
        "{dis}"
    );
    // Without legalization both stay, at the texture's binding.
    let mut o = options("ps_6_0", TargetEnv::Vulkan1_0, LanguageVersion::V2021);
    o.legalize = false;
    let dis = disassemble(&compile_with("combined-fcgl", src, &o));
    assert!(
        dis.contains("OpDecorate %smp Binding 1") && dis.contains("OpDecorate %tex Binding 1"),
        "{dis}"
    );
    for (src, want) in [
        (
            "Texture2D t : register(t1);
             [[vk::combinedImageSampler]] SamplerState s : register(s1);
             float4 main(float2 uv : UV) : SV_Target { return t.Sample(s, uv); }",
            "error: Texture or Sampler with [[vk::combinedImageSampler]] attribute is missing \
             for descriptor set and binding: 0, 1",
        ),
        (
            "[[vk::combinedImageSampler]] Texture2D t : register(t1);
             [[vk::combinedImageSampler]] SamplerState s : register(s1);
             Texture2D other : register(t2);
             float4 main(float2 uv : UV) : SV_Target { return other.Sample(s, uv); }",
            "error: the sampler 's' of a [[vk::combinedImageSampler]] pair is used other than \
             with its texture 't'",
        ),
        (
            "[[vk::combinedImageSampler]] Texture2D t[2];
             float4 main() : SV_Target { return 0; }",
            "error: not supported yet: [[vk::combinedImageSampler]] other than on a texture \
             or sampler variable",
        ),
        (
            "[[vk::combinedImageSampler]] RWTexture2D<float4> t;
             float4 main() : SV_Target { return 0; }",
            "error: vk::combinedImageSampler applies to sampled textures and samplers",
        ),
    ] {
        let e = errors(src, "ps_6_0");
        assert!(e.contains(want), "{src}: {e}");
    }
}
