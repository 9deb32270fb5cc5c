//! The disassembler against SPIRV-Tools' `spirv-dis` (2023.1): modules are built at test time
//! with `glslangValidator` and `spirv-as` (or generated from the grammar tables), then
//! disassembled by both in all sixteen option combinations; the texts must be identical.
//! Tests that need a tool that is not installed say so and pass.
//!
//! Malformed modules must give a decode error with the right word offset and reason.

use spvkit::binary::{words_from_bytes, DecodeError, DecodeErrorKind};
use spvkit::grammar::tables::{self, CORE_INSTRUCTIONS, EXT_INST_SETS};
use spvkit::grammar::{KindClass, KindDesc, OperandDesc, Quantifier};
use spvkit::text::{disassemble, disassemble_to_string, DisassembleError, DisassembleOptions};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

// ---------------------------------------------------------------------------------------------
// Tools

/// The oracle tools are required: a missing one fails the test (run `bash scripts/setup.sh`).
fn have(tool: &str) -> bool {
    let ok = Command::new(tool)
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    assert!(ok, "{tool} is not installed: run `bash scripts/setup.sh`");
    ok
}

fn scratch(ext: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!("spvkit-dis-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(format!("{}.{ext}", N.fetch_add(1, Ordering::Relaxed)))
}

fn to_words(bytes: &[u8]) -> Vec<u32> {
    words_from_bytes(bytes)
        .expect("a SPIR-V binary")
        .into_owned()
}

fn to_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Assembles SPIR-V assembly with `spirv-as`.
fn spirv_as(text: &str, env: &str) -> Vec<u32> {
    let src = scratch("spvasm");
    let out = scratch("spv");
    std::fs::write(&src, text).unwrap();
    let o = Command::new("spirv-as")
        .args(["--target-env", env])
        .arg(&src)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "spirv-as failed: {}\n{text}",
        String::from_utf8_lossy(&o.stderr)
    );
    to_words(&std::fs::read(&out).unwrap())
}

/// Compiles GLSL or HLSL with `glslangValidator -V`; `stage` is the `-S` stage.
fn glslang(source: &str, stage: &str, args: &[&str]) -> Vec<u32> {
    let src = scratch(stage);
    let out = scratch("spv");
    std::fs::write(&src, source).unwrap();
    let o = Command::new("glslangValidator")
        .arg("-V")
        .args(["-S", stage])
        .args(args)
        .arg(&src)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "glslangValidator failed: {}\n{source}",
        String::from_utf8_lossy(&o.stdout)
    );
    to_words(&std::fs::read(&out).unwrap())
}

/// `spirv-dis`'s text, or `None` when it rejects the module.
fn spirv_dis(path: &Path, flags: &[&str]) -> Option<Vec<u8>> {
    let o = Command::new("spirv-dis")
        .arg("--no-color")
        .args(flags)
        .arg(path)
        .output()
        .unwrap();
    o.status.success().then_some(o.stdout)
}

/// The sixteen combinations of `spirv-dis` flags and the matching options.
fn option_sets() -> Vec<(Vec<&'static str>, DisassembleOptions)> {
    let mut v = Vec::new();
    for bits in 0..16u32 {
        let mut flags = Vec::new();
        let opts = DisassembleOptions {
            friendly_names: bits & 1 == 0,
            header: bits & 2 == 0,
            indent: bits & 4 == 0,
            offsets: bits & 8 != 0,
        };
        for (bit, flag) in [
            (1, "--raw-id"),
            (2, "--no-header"),
            (4, "--no-indent"),
            (8, "--offsets"),
        ] {
            if bits & bit != 0 {
                flags.push(flag);
            }
        }
        v.push((flags, opts));
    }
    v
}

/// Disassembles `words` with both tools in every option combination and compares.
fn check(name: &str, words: &[u32]) {
    let path = scratch("spv");
    std::fs::write(&path, to_bytes(words)).unwrap();
    for (flags, opts) in option_sets() {
        let expected = spirv_dis(&path, &flags);
        let mut ours = Vec::new();
        let got = disassemble(words, &opts, &mut ours);
        match (expected, got) {
            (Some(e), Ok(())) => {
                if e != ours {
                    let (e, o) = (String::from_utf8_lossy(&e), String::from_utf8_lossy(&ours));
                    let line = e
                        .lines()
                        .zip(o.lines())
                        .position(|(a, b)| a != b)
                        .unwrap_or(0);
                    panic!(
                        "{name} {flags:?}: first difference at line {}:\n spirv-dis: {:?}\n ours:      {:?}",
                        line + 1,
                        e.lines().nth(line),
                        o.lines().nth(line)
                    );
                }
            }
            (None, Err(_)) => {}
            (e, g) => panic!(
                "{name} {flags:?}: spirv-dis ok: {}, ours: {g:?}",
                e.is_some()
            ),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Modules from sources

const GLSL_COMPUTE: &str = r#"#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 64, local_size_y = 2) in;
layout(constant_id = 0) const int SPEC = -7;
layout(constant_id = 1) const float SPECF = 0.25;
layout(constant_id = 2) const bool SPECB = true;
struct Item { vec4 pos; float16_t h; int64_t big; uint8_t small; int16_t mid; };
layout(std430, binding = 0) buffer Data { uint counter; Item items[]; } data;
layout(std430, binding = 1) readonly buffer In { double d[4]; mat3x4 m; } inp;
shared float tile[64];
uint hash(uint x) { x ^= x >> 16u; x *= 0x7feb352du; x ^= x >> 15u; return x; }
void main() {
    uint i = gl_GlobalInvocationID.x;
    tile[gl_LocalInvocationIndex] = float(i) * 0.1 - 1e-5 + 3.4028235e38 * 0.0;
    barrier();
    memoryBarrierShared();
    float acc = 0.0;
    for (int k = 0; k < SPEC + 20; ++k) { acc += tile[(gl_LocalInvocationIndex + k) & 63u] * SPECF; }
    switch (int(i) % 5) { case -1: acc = -acc; break; case 0: case 3: acc *= 2.0; break; default: acc += 1.5; }
    int64_t b = data.items[i].big;
    if (b == 0x100000000l) acc += 1.0; else if (b < -5l) acc -= 1.0;
    data.items[i].pos = vec4(acc, sin(acc), inversesqrt(abs(acc) + 1.0), float(inp.d[i & 3u]));
    data.items[i].h = float16_t(acc) + float16_t(0.5);
    data.items[i].small = uint8_t(hash(i));
    data.items[i].mid = int16_t(-3) * int16_t(i);
    if (SPECB) atomicAdd(data.counter, 1u);
    data.items[i].pos += inp.m * vec3(1.0, 2.0, 3.0);
}
"#;

const GLSL_FRAGMENT: &str = r#"#version 450
layout(location = 0) in vec2 uv;
layout(location = 1) flat in int layer;
layout(location = 0) out vec4 color;
layout(binding = 0) uniform sampler2D tex;
layout(binding = 1) uniform sampler2DArrayShadow shadow;
layout(binding = 2) uniform texture3D vol;
layout(binding = 3) uniform sampler smp;
layout(binding = 4, rgba8) uniform readonly image2D img;
layout(binding = 5) uniform UBO { mat4 mvp; vec4 tint; bool flag; } ubo;
void main() {
    vec4 c = texture(tex, uv, 0.5) + textureLod(tex, uv, 2.0) + textureGrad(tex, uv, vec2(0.1), vec2(0.2));
    c += textureOffset(tex, uv, ivec2(1, -1)) + texelFetch(tex, ivec2(uv * 16.0), 0);
    c.r += texture(shadow, vec4(uv, float(layer), 0.5));
    c += texture(sampler3D(vol, smp), vec3(uv, 0.5)) + imageLoad(img, ivec2(3, 4));
    if (c.a < 0.01) discard;
    color = ubo.flag ? c * ubo.tint : vec4(dFdx(uv.x), fwidth(uv.y), 0.0, 1.0);
}
"#;

const GLSL_GEOMETRY: &str = r#"#version 450
layout(triangles) in;
layout(line_strip, max_vertices = 6) out;
layout(location = 0) in vec3 n[];
void main() {
    for (int i = 0; i < 3; ++i) {
        gl_Position = gl_in[i].gl_Position; EmitVertex();
        gl_Position = gl_in[i].gl_Position + vec4(n[i], 0.0); gl_PrimitiveID = gl_PrimitiveIDIn; EmitVertex();
        EndPrimitive();
    }
}
"#;

const GLSL_TESC: &str = r#"#version 450
layout(vertices = 3) out;
layout(location = 0) in vec3 p[];
layout(location = 0) out vec3 q[];
void main() {
    q[gl_InvocationID] = p[gl_InvocationID];
    if (gl_InvocationID == 0) { gl_TessLevelOuter[0] = 4.0; gl_TessLevelOuter[1] = 4.0; gl_TessLevelOuter[2] = 4.0; gl_TessLevelInner[0] = 2.0; }
}
"#;

const GLSL_RAYGEN: &str = r#"#version 460
#extension GL_EXT_ray_tracing : require
layout(binding = 0) uniform accelerationStructureEXT tlas;
layout(binding = 1, rgba32f) uniform image2D outImg;
layout(location = 0) rayPayloadEXT vec3 payload;
void main() {
    vec2 d = (vec2(gl_LaunchIDEXT.xy) + 0.5) / vec2(gl_LaunchSizeEXT.xy);
    traceRayEXT(tlas, gl_RayFlagsOpaqueEXT | gl_RayFlagsTerminateOnFirstHitEXT, 0xff, 0, 0, 0, vec3(d, 0), 0.001, vec3(0, 0, 1), 1e4, 0);
    imageStore(outImg, ivec2(gl_LaunchIDEXT.xy), vec4(payload, 1.0));
}
"#;

const GLSL_MESH: &str = r#"#version 460
#extension GL_EXT_mesh_shader : require
layout(local_size_x = 32) in;
layout(triangles, max_vertices = 64, max_primitives = 126) out;
layout(location = 0) out vec4 col[];
void main() {
    SetMeshOutputsEXT(3, 1);
    if (gl_LocalInvocationIndex < 3) {
        gl_MeshVerticesEXT[gl_LocalInvocationIndex].gl_Position = vec4(float(gl_LocalInvocationIndex), 0, 0, 1);
        col[gl_LocalInvocationIndex] = vec4(1);
    }
    if (gl_LocalInvocationIndex == 0) gl_PrimitiveTriangleIndicesEXT[0] = uvec3(0, 1, 2);
}
"#;

const GLSL_PRINTF: &str = r#"#version 450
#extension GL_EXT_debug_printf : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer B { uint v[]; };
void main() {
    uint x = subgroupAdd(v[gl_GlobalInvocationID.x]);
    uvec4 b = subgroupBallot(x > 3u);
    debugPrintfEXT("x=%u ballot=%v4u \"quoted\" \\ end", x, b);
    v[gl_GlobalInvocationID.x] = subgroupBroadcastFirst(x) + subgroupBallotBitCount(b);
}
"#;

const HLSL_PIXEL: &str = r#"
Texture2D<float4> tex : register(t0);
SamplerState smp : register(s0);
cbuffer Params : register(b0) { float4x4 xf; float gamma; int mode; };
struct PSIn { float4 pos : SV_Position; float2 uv : TEXCOORD0; nointerpolation uint id : ID; };
float4 main(PSIn i) : SV_Target {
    float4 c = tex.Sample(smp, i.uv) * mul(xf, float4(i.uv, 0, 1));
    [branch] if (mode == 2) c = pow(abs(c), gamma);
    [unroll] for (int k = 0; k < 3; ++k) c.rgb += ddx(c.rgb) * k;
    switch (i.id & 3) { case 1: c.r = 1; break; case 2: c.g = 0.5; break; default: break; }
    return saturate(c);
}
"#;

#[test]
fn glsl_and_hlsl_modules_match_spirv_dis() {
    if !have("spirv-dis") || !have("glslangValidator") {
        return;
    }
    let cases: &[(&str, &str, &str, &[&str])] = &[
        ("compute", GLSL_COMPUTE, "comp", &[]),
        ("compute -g", GLSL_COMPUTE, "comp", &["-g"]),
        (
            "compute -gVS",
            GLSL_COMPUTE,
            "comp",
            &["-gVS", "--target-env", "vulkan1.1"],
        ),
        (
            "compute 1.3",
            GLSL_COMPUTE,
            "comp",
            &["--target-env", "vulkan1.3"],
        ),
        ("fragment", GLSL_FRAGMENT, "frag", &[]),
        ("fragment -g", GLSL_FRAGMENT, "frag", &["-g"]),
        ("geometry", GLSL_GEOMETRY, "geom", &[]),
        ("tessellation control", GLSL_TESC, "tesc", &[]),
        (
            "raygen",
            GLSL_RAYGEN,
            "rgen",
            &["--target-env", "vulkan1.2"],
        ),
        ("mesh", GLSL_MESH, "mesh", &["--target-env", "vulkan1.2"]),
        (
            "printf",
            GLSL_PRINTF,
            "comp",
            &["--target-env", "vulkan1.1"],
        ),
        ("hlsl pixel", HLSL_PIXEL, "frag", &["-D", "-e", "main"]),
        (
            "hlsl pixel -gVS",
            HLSL_PIXEL,
            "frag",
            &["-D", "-e", "main", "-gVS", "--target-env", "vulkan1.1"],
        ),
    ];
    for (name, src, stage, args) in cases {
        check(name, &glslang(src, stage, args));
    }
}

const ASM_CONSTANTS: &str = r#"
               OpCapability Shader
               OpCapability Linkage
               OpCapability Float16
               OpCapability Float64
               OpCapability Int64
               OpCapability Int16
               OpCapability Int8
               OpMemoryModel Logical GLSL450
               OpName %c_name "a b\"c\\d"
               OpName %dup1 "dup"
               OpName %dup2 "dup"
               OpName %dup3 "dup_0"
               OpName %num "5"
               OpName %empty ""
               OpName %utf "héllo wörld"
               OpName %long_name "a_rather_long_identifier_name_for_alignment"
       %void = OpTypeVoid
       %bool = OpTypeBool
        %f16 = OpTypeFloat 16
        %f32 = OpTypeFloat 32
        %f64 = OpTypeFloat 64
        %i8 = OpTypeInt 8 1
        %u8 = OpTypeInt 8 0
        %i16 = OpTypeInt 16 1
        %u16 = OpTypeInt 16 0
        %i32 = OpTypeInt 32 1
        %u32 = OpTypeInt 32 0
        %i64 = OpTypeInt 64 1
        %u64 = OpTypeInt 64 0
         %h1 = OpConstant %f16 1.0
         %h2 = OpConstant %f16 -2.5
         %h3 = OpConstant %f16 0x1p-24
         %h4 = OpConstant %f16 -0.0
         %h5 = OpConstant %f16 0x1p+16
         %h6 = OpConstant %f16 0x1.8p+16
         %f1 = OpConstant %f32 1
         %f2 = OpConstant %f32 3.14159274
         %f3 = OpConstant %f32 6.02214076e23
         %f4 = OpConstant %f32 -1.5e-10
         %f5 = OpConstant %f32 0x1.fffffep+127
         %f6 = OpConstant %f32 0x1p-126
         %f7 = OpConstant %f32 0x1p-149
         %f8 = OpConstant %f32 0x1.8p-140
         %f9 = OpConstant %f32 0
        %f10 = OpConstant %f32 -0.0
        %f11 = OpConstant %f32 0x1p+128
        %f12 = OpConstant %f32 -0x1p+128
        %f13 = OpConstant %f32 0x1.8p+128
        %f14 = OpConstant %f32 0x1.0002p+128
        %f15 = OpConstant %f32 0.1
        %f16v = OpConstant %f32 1234567.125
        %f17 = OpConstant %f32 100000
        %f18 = OpConstant %f32 1e9
        %f19 = OpConstant %f32 0.0001
        %f20 = OpConstant %f32 0.00001
         %d1 = OpConstant %f64 1.0
         %d2 = OpConstant %f64 3.1415926535897931
         %d3 = OpConstant %f64 0x1.fffffffffffffp+1023
         %d4 = OpConstant %f64 0x1p-1074
         %d5 = OpConstant %f64 -0.0
         %d6 = OpConstant %f64 0x1p+1024
         %d7 = OpConstant %f64 0x1.8p+1024
         %d8 = OpConstant %f64 1e100
         %b1 = OpConstant %i8 -128
         %b2 = OpConstant %u8 255
         %s1 = OpConstant %i16 -32768
         %s2 = OpConstant %u16 65535
         %i1 = OpConstant %i32 -2147483648
         %i2 = OpConstant %i32 2147483647
         %u1 = OpConstant %u32 4294967295
         %l1 = OpConstant %i64 -9223372036854775808
         %l2 = OpConstant %u64 18446744073709551615
         %l3 = OpConstant %u64 4294967296
     %c_name = OpConstant %u32 1
       %dup1 = OpConstant %u32 2
       %dup2 = OpConstant %u32 3
       %dup3 = OpConstant %u32 4
        %num = OpConstant %u32 5
          %5 = OpConstant %u32 6
      %empty = OpConstant %u32 7
        %utf = OpConstant %u32 8
  %long_name = OpConstant %u32 9
          %t = OpConstantTrue %bool
          %f = OpConstantFalse %bool
        %sc1 = OpSpecConstant %i32 -3
        %sc2 = OpSpecConstant %f32 0.5
        %sc3 = OpSpecConstant %i64 -4294967296
        %sct = OpSpecConstantTrue %bool
        %sco = OpSpecConstantOp %i32 IAdd %sc1 %i2
       %sco2 = OpSpecConstantOp %i32 CompositeExtract %vc 1
        %v2 = OpTypeVector %i32 2
         %vc = OpConstantComposite %v2 %i1 %i2
        %nul = OpConstantNull %v2
"#;

const ASM_TYPES_AND_CODE: &str = r#"
               OpCapability Shader
               OpCapability Int64
               OpCapability Int8
               OpCapability Int16
               OpCapability ImageQuery
          %1 = OpExtInstImport "GLSL.std.450"
          %2 = OpExtInstImport "NonSemantic.Made.Up"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %gid %lid
               OpExecutionMode %main LocalSize 8 4 1
               OpSource GLSL 450 %file "// source \"text\"\n"
               OpSourceExtension "GL_EXT_anything"
       %file = OpString "dir\\file.comp"
               OpName %main "main"
               OpName %S "S"
               OpMemberName %S 0 "member"
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %lid BuiltIn LocalInvocationId
               OpDecorate %arr ArrayStride 16
               OpMemberDecorate %S 0 Offset 0
               OpDecorate %S Block
               OpDecorate %buf DescriptorSet 0
               OpDecorate %buf Binding 1
       %void = OpTypeVoid
       %bool = OpTypeBool
        %u32 = OpTypeInt 32 0
        %i32 = OpTypeInt 32 1
        %u64 = OpTypeInt 64 0
         %u8 = OpTypeInt 8 0
        %i16 = OpTypeInt 16 1
        %f32 = OpTypeFloat 32
      %v3u32 = OpTypeVector %u32 3
      %v4f32 = OpTypeVector %f32 4
      %m4f32 = OpTypeMatrix %v4f32 4
      %u32_4 = OpConstant %u32 4
        %arr = OpTypeArray %v4f32 %u32_4
         %rt = OpTypeRuntimeArray %u32
          %S = OpTypeStruct %rt
      %ptr_S = OpTypePointer StorageBuffer %S
        %buf = OpVariable %ptr_S StorageBuffer
    %ptr_in = OpTypePointer Input %v3u32
        %gid = OpVariable %ptr_in Input
        %lid = OpVariable %ptr_in Input
   %ptr_fn_f = OpTypePointer Function %f32
   %ptr_sb_u = OpTypePointer StorageBuffer %u32
        %img = OpTypeImage %f32 2D 0 0 0 1 Rgba8
        %smp = OpTypeSampler
         %si = OpTypeSampledImage %img
         %fn = OpTypeFunction %void
       %fnff = OpTypeFunction %f32 %f32 %ptr_fn_f
     %u32_0 = OpConstant %u32 0
     %u32_1 = OpConstant %u32 1
     %u64_b = OpConstant %u64 0x100000001
      %u8_3 = OpConstant %u8 3
     %i16_m = OpConstant %i16 -2
      %f32_1 = OpConstant %f32 1
       %helper = OpFunction %f32 Inline|Pure %fnff
          %x = OpFunctionParameter %f32
          %p = OpFunctionParameter %ptr_fn_f
         %hl = OpLabel
         %ld = OpLoad %f32 %p Volatile|Aligned 4
         %s1 = OpExtInst %f32 %1 Sin %x
         %s2 = OpExtInst %f32 %1 FMix %x %s1 %ld
         %s3 = OpExtInst %void %2 42 %x %s2
               OpStore %p %s2 Nontemporal
               OpReturnValue %s2
               OpFunctionEnd
       %main = OpFunction %void None %fn
      %entry = OpLabel
        %var = OpVariable %ptr_fn_f Function
        %idv = OpLoad %v3u32 %gid
         %id = OpCompositeExtract %u32 %idv 0
        %cmp = OpULessThan %bool %id %u32_4
               OpSelectionMerge %merge Flatten
               OpBranchConditional %cmp %then %merge 10 20
       %then = OpLabel
               OpLoopMerge %lmerge %lcont Unroll|DependencyLength 4
               OpBranch %lbody
      %lbody = OpLabel
               OpSwitch %id %lcont 0 %c0 1 %c1 4294967295 %c0
         %c0 = OpLabel
               OpSwitch %u64_b %lcont 0 %lcont 0x100000001 %c1
         %c1 = OpLabel
               OpSwitch %u8_3 %lcont 3 %lcont
     %lcont = OpLabel
               OpSwitch %i16_m %lmerge -2 %lmerge 7 %lmerge
     %lmerge = OpLabel
               OpBranch %merge
      %merge = OpLabel
        %phi = OpPhi %u32 %u32_0 %entry %u32_1 %lmerge
         %ac = OpAccessChain %ptr_sb_u %buf %u32_0 %phi
               OpAtomicStore %ac %u32_1 %u32_0 %u32_0
         %cl = OpFunctionCall %f32 %helper %f32_1 %var
               OpControlBarrier %u32_1 %u32_1 %u32_0
               OpReturn
               OpFunctionEnd
"#;

const ASM_KERNEL: &str = r#"
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability Pipes
               OpCapability DeviceEnqueue
               OpCapability Int8
          %1 = OpExtInstImport "OpenCL.std"
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k" %gid
               OpExecutionMode %k ContractionOff
               OpSource OpenCL_C 200000
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %gid Constant
               OpDecorate %gid LinkageAttributes "__spirv_BuiltInGlobalInvocationId" Import
               OpDecorate %p FuncParamAttr NoCapture
               OpDecorate %grp Restrict
        %grp = OpDecorationGroup
               OpGroupDecorate %grp %p
       %void = OpTypeVoid
        %u64 = OpTypeInt 64 0
        %u32 = OpTypeInt 32 0
         %u8 = OpTypeInt 8 0
        %f32 = OpTypeFloat 32
      %v3u64 = OpTypeVector %u64 3
    %ptr_in = OpTypePointer Input %v3u64
   %ptr_glob = OpTypePointer CrossWorkgroup %f32
      %event = OpTypeEvent
      %queue = OpTypeQueue
       %pipe = OpTypePipe ReadOnly
     %opaque = OpTypeOpaque "struct.Foo"
     %opaqu2 = OpTypeOpaque ""
       %rsv = OpTypeReserveId
        %fnk = OpTypeFunction %void %ptr_glob
        %gid = OpVariable %ptr_in Input
      %f32_2 = OpConstant %f32 2
      %u32_0 = OpConstant %u32 0
          %k = OpFunction %void None %fnk
          %p = OpFunctionParameter %ptr_glob
          %e = OpLabel
          %g = OpLoad %v3u64 %gid Aligned 32
         %g0 = OpCompositeExtract %u64 %g 0
         %pp = OpInBoundsPtrAccessChain %ptr_glob %p %g0
          %v = OpLoad %f32 %pp Aligned 4
          %r = OpExtInst %f32 %1 fma %v %f32_2 %v
         %r2 = OpExtInst %f32 %1 native_sqrt %r
               OpStore %pp %r2 Aligned 4
               OpReturn
               OpFunctionEnd
"#;

#[test]
fn spirv_as_modules_match_spirv_dis() {
    if !have("spirv-dis") || !have("spirv-as") {
        return;
    }
    check("constants", &spirv_as(ASM_CONSTANTS, "spv1.0"));
    check("constants 1.6", &spirv_as(ASM_CONSTANTS, "spv1.6"));
    check("types and code", &spirv_as(ASM_TYPES_AND_CODE, "spv1.4"));
    check("kernel", &spirv_as(ASM_KERNEL, "spv1.2"));
}

/// Every file of `tests/dis/` (`.spvasm`, assembled for the environment named on a
/// `; target-env:` line, default `spv1.5`).
#[test]
fn dis_directory_matches_spirv_dis() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/dis");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    if !have("spirv-dis") || !have("spirv-as") {
        return;
    }
    let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "spvasm"))
    {
        let text = std::fs::read_to_string(p).unwrap();
        let env = text
            .lines()
            .find_map(|l| l.strip_prefix("; target-env:"))
            .map(|s| s.trim().to_owned())
            .unwrap_or_else(|| "spv1.5".into());
        check(&p.display().to_string(), &spirv_as(&text, &env));
    }
}

// ---------------------------------------------------------------------------------------------
// Modules generated from the grammar: every instruction, every enumerant

struct ModuleBuilder {
    words: Vec<u32>,
    next_id: u32,
}

impl ModuleBuilder {
    fn inst(&mut self, opcode: u16, operands: &[u32]) {
        self.words
            .push(((operands.len() as u32 + 1) << 16) | u32::from(opcode));
        self.words.extend_from_slice(operands);
    }

    fn fresh(&mut self) -> u32 {
        self.next_id += 1;
        self.next_id
    }

    fn finish(mut self) -> Vec<u32> {
        let mut w = vec![
            tables::MAGIC_NUMBER,
            0x0001_0500,
            7 << 16,
            self.next_id + 1,
            0,
        ];
        w.append(&mut self.words);
        w
    }
}

fn string_words(s: &str, out: &mut Vec<u32>) {
    let mut b = s.as_bytes().to_vec();
    b.push(0);
    while !b.len().is_multiple_of(4) {
        b.push(0);
    }
    out.extend(
        b.chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
    );
}

/// Values SPIRV-Tools 2023.1 (SPIR-V 1.5) rejects although the grammar has them.
fn rejected(kind: &KindDesc, value: u32) -> bool {
    (kind.name == "Capability" && value == 71) || (kind.name == "ImageOperands" && value == 0x4000)
}

struct OperandGen {
    /// Ids usable as generic operands.
    ids: Vec<u32>,
    /// `u32` type id.
    uint: u32,
    /// Rotates through enumerants.
    pick: usize,
    strings: usize,
}

impl OperandGen {
    fn operands(&mut self, descs: &[OperandDesc], result: u32, out: &mut Vec<u32>) {
        for d in descs {
            let n = match d.quantifier {
                Quantifier::One | Quantifier::Optional => 1,
                Quantifier::Many => 2,
            };
            for _ in 0..n {
                self.operand(d.kind, result, out);
            }
        }
    }

    fn operand(&mut self, kind: &'static KindDesc, result: u32, out: &mut Vec<u32>) {
        match kind.class {
            KindClass::ResultType => out.push(self.uint),
            KindClass::Result => out.push(result),
            KindClass::Id => out.push(self.ids[(self.pick + out.len()) % self.ids.len()]),
            KindClass::Integer | KindClass::ExtInstNumber | KindClass::Float => out.push(42),
            KindClass::ContextNumber => out.push(0x8000_0001),
            KindClass::String => {
                const S: [&str; 5] = ["", "abcd", "q\"uote\\back", "ünï", "spaces and\ttabs"];
                self.strings += 1;
                string_words(S[self.strings % S.len()], out);
            }
            KindClass::SpecConstantOpcode => {
                out.extend_from_slice(&[128 /* OpIAdd */, self.ids[0], self.ids[1]]);
            }
            KindClass::Composite => {
                for b in kind.bases {
                    self.operand(b, result, out);
                }
            }
            KindClass::ValueEnum => {
                let usable: Vec<_> = kind
                    .enumerants
                    .iter()
                    .filter(|e| !rejected(kind, e.value))
                    .collect();
                let e = usable[self.pick % usable.len()];
                out.push(e.value);
                for p in e.parameters {
                    self.operand(p.kind, result, out);
                }
            }
            KindClass::BitEnum => {
                let usable: Vec<_> = kind
                    .enumerants
                    .iter()
                    .filter(|e| e.value != 0 && !rejected(kind, e.value))
                    .collect();
                // Zero, then single bits, then pairs of neighbours.
                let k = self.pick % (usable.len() * 2 + 1);
                let chosen: Vec<_> = match k {
                    0 => Vec::new(),
                    k if k <= usable.len() => vec![usable[k - 1]],
                    k => {
                        let i = (k - usable.len() - 1) % usable.len();
                        let mut v = vec![usable[i], usable[(i + 1) % usable.len()]];
                        v.sort_by_key(|e| e.value);
                        v.dedup_by_key(|e| e.value);
                        v
                    }
                };
                out.push(chosen.iter().fold(0, |m, e| m | e.value));
                for e in chosen {
                    for p in e.parameters {
                        self.operand(p.kind, result, out);
                    }
                }
            }
        }
    }
}

fn enumerant_count(descs: &[OperandDesc]) -> usize {
    descs
        .iter()
        .map(|d| match d.kind.class {
            KindClass::ValueEnum => d.kind.enumerants.len(),
            KindClass::BitEnum => d.kind.enumerants.len() * 2 + 1,
            _ => 1,
        })
        .max()
        .unwrap_or(1)
}

/// A module with every core instruction (once per enumerant of its enum operands) and every
/// extended instruction of every set; it is not valid SPIR-V, but well formed.
fn grammar_module() -> Vec<u32> {
    let mut m = ModuleBuilder {
        words: Vec::new(),
        next_id: 100,
    };
    m.inst(17, &[1]);
    let mut sets = Vec::new();
    for (i, s) in EXT_INST_SETS.iter().enumerate() {
        let mut w = vec![10 + i as u32];
        string_words(s.name, &mut w);
        m.inst(11, &w);
        sets.push((10 + i as u32, s));
    }
    let mut w = vec![40];
    string_words("NonSemantic.Unknown.Set", &mut w);
    m.inst(11, &w);
    m.inst(14, &[0, 1]);
    // Names, some colliding with each other and with numbers.
    for (id, name) in [
        (2, "uint"),
        (3, "x"),
        (4, "x"),
        (5, "101"),
        (102, "x_0"),
        (103, ""),
        (104, "a.b"),
    ] {
        let mut w = vec![id];
        string_words(name, &mut w);
        m.inst(5, &w);
    }
    m.inst(71, &[105, 11, 28]);
    m.inst(21, &[2, 32, 0]); // %uint
    m.inst(21, &[3, 32, 1]);
    m.inst(22, &[4, 32]);
    m.inst(23, &[5, 4, 4]);
    m.inst(43, &[2, 6, 7]);
    m.inst(43, &[3, 7, 0xffff_fff9]);
    m.inst(43, &[4, 8, 0x3fc0_0000]);
    let mut g = OperandGen {
        ids: vec![6, 7, 8, 5, 2],
        uint: 2,
        pick: 0,
        strings: 0,
    };
    for desc in CORE_INSTRUCTIONS.iter() {
        // Instructions the module structure depends on are covered separately.
        if matches!(desc.opcode, 11 | 12 | 21 | 22 | 43 | 50 | 251) {
            continue;
        }
        for k in 0..enumerant_count(desc.operands) {
            g.pick = k;
            let result = m.fresh();
            let mut w = Vec::new();
            g.operands(desc.operands, result, &mut w);
            m.inst(desc.opcode as u16, &w);
        }
    }
    // Typed literals and switches of every width.
    for (width, signed) in [(8, 0), (8, 1), (16, 0), (16, 1), (32, 0), (64, 0), (64, 1)] {
        let t = m.fresh();
        m.inst(21, &[t, width, signed]);
        for v in [0u64, 1, u64::MAX, 1 << 63, 0x1234_5678_9abc] {
            let c = m.fresh();
            let lo = if width <= 32 && signed == 1 && v >> (width - 1) & 1 == 1 {
                (v as u32) | (u32::MAX << (width - 1))
            } else {
                v as u32
            };
            let lo = if width < 32 && signed == 0 {
                lo & ((1 << width) - 1)
            } else {
                lo
            };
            if width == 64 {
                m.inst(43, &[t, c, v as u32, (v >> 32) as u32]);
            } else {
                m.inst(50, &[t, c, lo]);
            }
            if v == 1 {
                let mut w = vec![c, 6];
                for lit in [0u32, 7] {
                    w.push(lit);
                    if width == 64 {
                        w.push(lit);
                    }
                    w.push(8);
                }
                m.inst(251, &w);
            }
        }
    }
    for width in [16u32, 32, 64] {
        let t = m.fresh();
        m.inst(22, &[t, width]);
        let values: &[u64] = match width {
            16 => &[0x3c00, 0x8000, 0x0001, 0x7c00, 0xfe00, 0x3555],
            32 => &[
                0x3f80_0000,
                0x8000_0000,
                1,
                0x7f80_0000,
                0xffc0_0000,
                0x3dcc_cccd,
                0x4e6e_6b28,
            ],
            _ => &[
                0x3ff0_0000_0000_0000,
                1,
                0x7ff8_0000_0000_0000,
                0x3fb9_9999_9999_999a,
                0xc415_af1d_78b5_8c40,
            ],
        };
        for &v in values {
            let c = m.fresh();
            if width == 64 {
                m.inst(43, &[t, c, v as u32, (v >> 32) as u32]);
            } else {
                m.inst(43, &[t, c, v as u32]);
            }
        }
    }
    // Every extended instruction.
    for (set_id, set) in sets {
        for i in set.instructions {
            let result = m.fresh();
            let mut w = vec![2, result, set_id, i.opcode];
            g.pick = i.opcode as usize;
            g.operands(i.operands, result, &mut w);
            m.inst(12, &w);
        }
        let result = m.fresh();
        if set.name.starts_with("NonSemantic.") && set.name != "NonSemantic.DebugPrintf" {
            m.inst(12, &[2, result, set_id, 9999, 6, 7]);
        }
    }
    for n in [0u32, 1, 77] {
        let result = m.fresh();
        m.inst(12, &[2, result, 40, n, 6, 7, 8]);
    }
    m.finish()
}

#[test]
fn every_instruction_and_enumerant_matches_spirv_dis() {
    let words = grammar_module();
    // Ours must succeed whatever happens below.
    disassemble_to_string(&words, &DisassembleOptions::default()).unwrap();
    if !have("spirv-dis") {
        return;
    }
    check("grammar module", &words);
}

// ---------------------------------------------------------------------------------------------
// The API

fn minimal() -> Vec<u32> {
    let mut m = ModuleBuilder {
        words: Vec::new(),
        next_id: 0,
    };
    m.inst(17, &[1]); // OpCapability Shader
    m.inst(14, &[0, 1]); // OpMemoryModel Logical GLSL450
    m.inst(21, &[1, 32, 0]); // %uint
    m.inst(43, &[1, 2, 7]); // %uint_7
    m.next_id = 2;
    m.finish()
}

#[test]
fn options_and_output() {
    let words = minimal();
    let text = disassemble_to_string(&words, &DisassembleOptions::default()).unwrap();
    assert_eq!(
        text,
        "; SPIR-V\n; Version: 1.5\n; Generator: Khronos SPIR-V Tools Assembler; 0\n; Bound: 3\n; Schema: 0\n\
         \x20              OpCapability Shader\n\
         \x20              OpMemoryModel Logical GLSL450\n\
         \x20      %uint = OpTypeInt 32 0\n\
         \x20    %uint_7 = OpConstant %uint 7\n"
    );
    let raw = DisassembleOptions {
        friendly_names: false,
        header: false,
        indent: false,
        offsets: true,
    };
    let text = disassemble_to_string(&words, &raw).unwrap();
    assert_eq!(
        text,
        "OpCapability Shader ; 0x00000014\nOpMemoryModel Logical GLSL450 ; 0x0000001c\n\
         %1 = OpTypeInt 32 0 ; 0x00000028\n%2 = OpConstant %1 7 ; 0x00000038\n"
    );
    // Byte-swapped input is accepted.
    let swapped: Vec<u32> = words.iter().map(|w| w.swap_bytes()).collect();
    assert_eq!(
        disassemble_to_string(&swapped, &raw).unwrap(),
        disassemble_to_string(&words, &raw).unwrap()
    );
    let mut sink = Vec::new();
    disassemble(&words, &DisassembleOptions::default(), &mut sink).unwrap();
    assert_eq!(
        sink,
        disassemble_to_string(&words, &DisassembleOptions::default())
            .unwrap()
            .into_bytes()
    );
}

#[test]
fn io_errors_are_reported() {
    struct Fail;
    impl std::io::Write for Fail {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("disk full"))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let e = disassemble(&minimal(), &DisassembleOptions::default(), &mut Fail).unwrap_err();
    assert!(matches!(e, DisassembleError::Io(_)));
    assert!(e.to_string().contains("disk full"));
}

// ---------------------------------------------------------------------------------------------
// Malformed modules

fn decode_error(words: &[u32]) -> DecodeError {
    for opts in option_sets().into_iter().map(|(_, o)| o) {
        match disassemble_to_string(words, &opts) {
            Err(DisassembleError::Decode(e)) => {
                if !opts.friendly_names {
                    return e;
                }
            }
            other => panic!("expected a decode error, got {other:?}"),
        }
    }
    unreachable!()
}

/// `minimal()` with its instructions replaced by `insts` (starting at word 5).
fn module(bound: u32, insts: &[u32]) -> Vec<u32> {
    let mut w = vec![tables::MAGIC_NUMBER, 0x0001_0000, 0, bound, 0];
    w.extend_from_slice(insts);
    w
}

#[test]
fn malformed_headers() {
    let e = decode_error(&[tables::MAGIC_NUMBER, 0x10000, 0]);
    assert_eq!((e.offset, e.kind), (0, DecodeErrorKind::HeaderTooShort(3)));
    let e = decode_error(&[0x1234_5678, 0x10000, 0, 1, 0]);
    assert_eq!(
        (e.offset, e.kind),
        (0, DecodeErrorKind::BadMagic(0x1234_5678))
    );
    let e = decode_error(&[tables::MAGIC_NUMBER, 0x0001_0700, 0, 1, 0]);
    assert_eq!(e.offset, 1);
    assert!(matches!(
        e.kind,
        DecodeErrorKind::UnknownEnumerant {
            value: 0x0001_0700,
            ..
        }
    ));
    // A header alone is a module.
    let text = disassemble_to_string(&module(1, &[]), &DisassembleOptions::default()).unwrap();
    assert!(text.ends_with("; Schema: 0\n"));
}

#[test]
fn malformed_instructions() {
    let cap = [2 << 16 | 17, 1];
    // Word count zero.
    let e = decode_error(&module(10, &[cap[0], cap[1], 17]));
    assert_eq!((e.offset, e.kind), (7, DecodeErrorKind::ZeroWordCount));
    // Word count past the end.
    let e = decode_error(&module(10, &[cap[0], cap[1], 3 << 16 | 17, 1]));
    assert_eq!(
        (e.offset, e.kind),
        (7, DecodeErrorKind::WordCountPastEnd { count: 3, left: 2 })
    );
    // Unknown opcode.
    let e = decode_error(&module(10, &[1 << 16 | 999]));
    assert_eq!(
        (e.offset, e.kind),
        (
            5,
            DecodeErrorKind::UnknownEnumerant {
                kind: "opcode",
                value: 999
            }
        )
    );
    // Missing operand: OpCapability without its capability.
    let e = decode_error(&module(10, &[1 << 16 | 17]));
    assert_eq!(e.offset, 6);
    assert!(matches!(e.kind, DecodeErrorKind::MissingOperand(_)));
    // Extra operand.
    let e = decode_error(&module(10, &[3 << 16 | 17, 1, 1]));
    assert_eq!((e.offset, e.kind), (7, DecodeErrorKind::ExtraOperands(1)));
    // Unknown enumerants: a capability, a mask bit, an unavailable capability.
    let e = decode_error(&module(10, &[2 << 16 | 17, 9999]));
    assert_eq!(
        (e.offset, e.kind),
        (
            6,
            DecodeErrorKind::UnknownEnumerant {
                kind: "Capability",
                value: 9999
            }
        )
    );
    let e = decode_error(&module(10, &[2 << 16 | 17, 71]));
    assert_eq!(
        (e.offset, e.kind),
        (
            6,
            DecodeErrorKind::UnknownEnumerant {
                kind: "Capability",
                value: 71
            }
        )
    );
    // OpLoopMerge %1 %2 with an unknown loop-control bit.
    let e = decode_error(&module(10, &[4 << 16 | 246, 1, 2, 1 << 30]));
    assert_eq!(
        (e.offset, e.kind),
        (
            8,
            DecodeErrorKind::UnknownEnumerant {
                kind: "LoopControl",
                value: 1 << 30
            }
        )
    );
    // Ids: zero, at the bound, as a result.
    let e = decode_error(&module(10, &[2 << 16 | 19, 0]));
    assert_eq!(
        (e.offset, e.kind),
        (6, DecodeErrorKind::IdOutOfBound { id: 0, bound: 10 })
    );
    let e = decode_error(&module(10, &[3 << 16 | 5, 10, 0]));
    assert_eq!(
        (e.offset, e.kind),
        (6, DecodeErrorKind::IdOutOfBound { id: 10, bound: 10 })
    );
    // Unterminated string: OpName %1 "abcd" without a nul.
    let e = decode_error(&module(10, &[3 << 16 | 5, 1, u32::from_le_bytes(*b"abcd")]));
    assert_eq!((e.offset, e.kind), (7, DecodeErrorKind::UnterminatedString));
    // OpConstant whose type is not numeric, or not a type.
    let e = decode_error(&module(10, &[2 << 16 | 20, 1, 4 << 16 | 43, 1, 2, 0]));
    assert_eq!(
        (e.offset, e.kind),
        (10, DecodeErrorKind::NotNumericType { id: 1 })
    );
    // OpConstant of a 64-bit type with one word.
    let e = decode_error(&module(
        10,
        &[4 << 16 | 21, 1, 64, 0, 4 << 16 | 43, 1, 2, 0],
    ));
    assert_eq!(e.offset, 12);
    assert!(matches!(e.kind, DecodeErrorKind::MissingOperand(_)));
    // OpSwitch on a float selector.
    let e = decode_error(&module(
        10,
        &[
            3 << 16 | 22,
            1,
            32,
            4 << 16 | 43,
            1,
            2,
            0,
            5 << 16 | 251,
            2,
            3,
            0,
            3,
        ],
    ));
    assert_eq!(
        (e.offset, e.kind),
        (15, DecodeErrorKind::NotNumericType { id: 2 })
    );
    // OpExtInst of a set that was not imported, of an unknown set, of an unknown instruction.
    let e = decode_error(&module(10, &[2 << 16 | 19, 1, 5 << 16 | 12, 1, 2, 3, 0]));
    assert_eq!(
        (e.offset, e.kind),
        (10, DecodeErrorKind::UnknownExtInstSet(3))
    );
    let mut w = vec![0, 3];
    string_words("Not.A.Set", &mut w);
    w[0] = (w.len() as u32) << 16 | 11;
    let e = decode_error(&module(10, &w));
    assert_eq!(
        (e.offset, e.kind),
        (7, DecodeErrorKind::UnknownExtInstSet(3))
    );
    let mut w = vec![0, 3];
    string_words("GLSL.std.450", &mut w);
    w[0] = (w.len() as u32) << 16 | 11;
    w.extend_from_slice(&[2 << 16 | 19, 1, 5 << 16 | 12, 1, 2, 3, 999]);
    let e = decode_error(&module(10, &w));
    assert_eq!(
        (e.offset, e.kind),
        (
            w.len() + 4,
            DecodeErrorKind::UnknownEnumerant {
                kind: "GLSL.std.450",
                value: 999
            }
        )
    );
    // An OpSpecConstantOp operation that is not allowed.
    let e = decode_error(&module(
        10,
        &[2 << 16 | 19, 1, 4 << 16 | 52, 1, 2, 5 /* OpName */],
    ));
    assert_eq!(e.offset, 10);
    assert!(matches!(
        e.kind,
        DecodeErrorKind::UnknownEnumerant { value: 5, .. }
    ));
    // The error text names the word.
    assert!(DisassembleError::Decode(e)
        .to_string()
        .starts_with("word 10: "));
}

/// Truncations and word flips of a real module never panic.
#[test]
fn mutations_never_panic() {
    let words = grammar_module();
    let opts = DisassembleOptions::default();
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for len in (0..words.len()).step_by(97) {
        let _ = disassemble_to_string(&words[..len], &opts);
    }
    for _ in 0..300 {
        let mut w = words.clone();
        for _ in 0..4 {
            let i = 5 + (next() as usize) % (w.len() - 5);
            w[i] = match next() % 4 {
                0 => next() as u32,
                1 => w[i] ^ (1 << (next() % 32)),
                2 => (w[i] & 0xffff) | ((next() as u32 % 8) << 16),
                _ => u32::MAX,
            };
        }
        let _ = disassemble_to_string(&w, &opts);
        let _ = disassemble_to_string(
            &w,
            &DisassembleOptions {
                friendly_names: false,
                ..opts.clone()
            },
        );
    }
}

#[test]
fn an_id_defined_twice_is_an_error_as_in_spirv_dis() {
    // %1 = OpTypeVoid, then %1 = OpTypeBool.
    let words = [
        0x0723_0203,
        0x0001_0000,
        0,
        3,
        0,
        0x0002_0013,
        1,
        0x0002_0014,
        1,
    ];
    let e = disassemble_to_string(&words, &DisassembleOptions::default()).unwrap_err();
    assert_eq!(e.to_string(), "word 8: Id 1 is defined more than once");
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let path = scratch("spv");
    std::fs::write(&path, bytes).unwrap();
    let out = Command::new("spirv-dis").arg(&path).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("Id 1 is defined more than once"));
}
