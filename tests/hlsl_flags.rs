//! DXC's code-generation flags end to end (`hlsl2spirv`'s options as `spvkit::hlsl::Options`):
//! each shader compiles under the option, the observable result (offsets, strides, emitted
//! instructions) is asserted in the disassembly, and the module passes spirv-val with the
//! matching block-layout rule.
#![cfg(all(feature = "hlsl", feature = "cli"))]

use spvkit::hlsl::{compile_source, BufferLayout, Options, Profile};
use spvkit::target_env::TargetEnv;
use std::path::PathBuf;
use std::process::Command;

fn options(profile: &str) -> Options {
    Options::new("main", profile.parse::<Profile>().expect("profile"))
}

/// Compiles, validates with `val_flags` and returns the disassembly.
fn compile(name: &str, src: &str, o: &Options, val_flags: &[&str]) -> String {
    let words = match compile_source(&format!("{name}.hlsl"), src, o) {
        Ok(c) => c.words,
        Err(e) => panic!("{name} does not compile:\n{}", e.rendered),
    };
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("hlsl-flags");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let path = dir.join(format!("{name}.spv"));
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&path, bytes).expect("write module");
    let out = Command::new("spirv-val")
        .args(val_flags)
        .arg("--target-env")
        .arg(o.target_env.to_string())
        .arg(&path)
        .output()
        .expect("spirv-val runs (apt-get install spirv-tools)");
    assert!(
        out.status.success(),
        "{name}: spirv-val {val_flags:?}:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    spvkit::text::disassemble_to_string(&words, &spvkit::text::DisassembleOptions::default())
        .expect("disassembles")
}

/// The rendered errors of a program that must not compile.
fn errors(src: &str, o: &Options) -> String {
    match compile_source("bad.hlsl", src, o) {
        Ok(_) => panic!("compiled, but should not:\n{src}"),
        Err(e) => e.rendered,
    }
}

/// The `Offset`s of `ty`'s members, in member order, and the `ArrayStride` of `arr`.
fn offsets(dis: &str, ty: &str) -> Vec<u32> {
    let prefix = format!("OpMemberDecorate %{ty} ");
    dis.lines()
        .filter_map(|l| l.trim().strip_prefix(&prefix))
        .filter_map(|rest| rest.split_once(" Offset "))
        .map(|(_, v)| v.trim().parse().expect("an offset"))
        .collect()
}

fn decoration(dis: &str, target: &str, deco: &str) -> Option<u32> {
    let prefix = format!("OpDecorate %{target} {deco} ");
    dis.lines()
        .find_map(|l| l.trim().strip_prefix(&prefix))
        .map(|v| v.trim().parse().expect("a number"))
}

fn member_decoration(dis: &str, ty: &str, member: u32, deco: &str) -> Option<u32> {
    let prefix = format!("OpMemberDecorate %{ty} {member} {deco} ");
    dis.lines()
        .find_map(|l| l.trim().strip_prefix(&prefix))
        .map(|v| v.trim().parse().expect("a number"))
}

const LAYOUTS: &str = r#"
struct S { float a; float3 b; float2 c; float d[2]; float3x2 m; float e; };
cbuffer CB { float x; float3 y; float2 z; float w[2]; float e; };
RWStructuredBuffer<S> buf;
[numthreads(1, 1, 1)] void main() { buf[0].a = x + y.x + z.x + w[1] + e + buf[1].m[0][0]; }
"#;

/// A layout, spirv-val's rule for it, the cbuffer's offsets, S's offsets, S's `MatrixStride`,
/// and the stride of an array of S.
type LayoutCase = (
    BufferLayout,
    &'static [&'static str],
    [u32; 5],
    [u32; 6],
    u32,
    u32,
);

#[test]
fn buffer_layouts_follow_the_layout_flag() {
    let cases: [LayoutCase; 4] = [
        // Relaxed: float3 packs after a float; arrays start on 16 in std140.
        (
            BufferLayout::Relaxed,
            &["--relax-block-layout"],
            [0, 4, 16, 32, 64],
            [0, 4, 16, 24, 32, 64],
            16,
            80,
        ),
        // Strict std140/std430: a float3 is aligned to 16.
        (
            BufferLayout::Gl,
            &[],
            [0, 16, 32, 48, 80],
            [0, 16, 32, 40, 48, 80],
            16,
            96,
        ),
        // Scalar: everything aligned to its component, arrays and matrices tight.
        (
            BufferLayout::Scalar,
            &["--scalar-block-layout"],
            [0, 4, 16, 24, 32],
            [0, 4, 16, 24, 32, 56],
            12,
            60,
        ),
        // DirectX: fxc's 16-byte registers in the cbuffer (the array's last element is not
        // padded: `e` takes the rest of its register), tight structured buffers.
        (
            BufferLayout::Dx,
            &["--skip-block-layout"],
            [0, 4, 16, 32, 52],
            [0, 4, 16, 24, 32, 56],
            12,
            60,
        ),
    ];
    for (layout, val, cb, s, mstride, sstride) in cases {
        let mut o = options("cs_6_0");
        o.layout = layout;
        let dis = compile(&format!("layout_{layout:?}"), LAYOUTS, &o, val);
        assert_eq!(offsets(&dis, "type_CB"), cb, "{layout:?} cbuffer:\n{dis}");
        assert_eq!(offsets(&dis, "S"), s, "{layout:?} struct:\n{dis}");
        assert_eq!(
            member_decoration(&dis, "S", 4, "MatrixStride"),
            Some(mstride),
            "{layout:?}"
        );
        assert_eq!(
            decoration(&dis, "_runtimearr_S", "ArrayStride"),
            Some(sstride),
            "{layout:?}"
        );
    }
}

#[test]
fn dx_layout_packs_matrices_and_structs_into_registers() {
    // fxc: a matrix's last vector is not padded, nor is a struct's end; the next member may
    // use the rest of the register, but a vector never straddles one.
    let src = r#"
struct T { float2 p; };
cbuffer CB { float a; float2x3 m; float b; T t; float c; float3 d; float4 e; };
float4 main() : SV_Target { return a + m[0].x + b + t.p.x + c + d.x + e; }
"#;
    let mut o = options("ps_6_0");
    o.layout = BufferLayout::Dx;
    let dis = compile("dx_registers", src, &o, &["--skip-block-layout"]);
    // m: 3 columns of 2 (column-major): 16 * 2 + 8 = 40 bytes from 16; t (8 bytes) starts a
    // register and c follows it; d at 76 would straddle 80, so it moves there.
    assert_eq!(
        offsets(&dis, "type_CB"),
        [0, 16, 56, 64, 72, 80, 96],
        "{dis}"
    );
    assert_eq!(
        member_decoration(&dis, "type_CB", 1, "MatrixStride"),
        Some(16)
    );
}

#[test]
fn dx_layout_refuses_what_it_cannot_lay_out_yet() {
    let mut o = options("ps_6_0");
    o.layout = BufferLayout::Dx;
    let e = errors(
        "cbuffer CB { float1x2 m; };\nfloat4 main() : SV_Target { return m.x; }",
        &o,
    );
    assert!(
        e.contains("bad.hlsl:1:14: error: not supported yet: a 1xN or Nx1 matrix"),
        "{e}"
    );
    // Without the flag, a 1xN matrix is a vector in every layout.
    let src = "cbuffer CB { float1x2 m; };\nfloat4 main() : SV_Target { return m.x; }";
    compile(
        "vector_matrix",
        src,
        &options("ps_6_0"),
        &["--relax-block-layout"],
    );
}

/// `register(cN)` under `-fvk-use-dx-layout`: DXC's own example (`vk.layout.register-c.mixed`)
/// with the offsets DXC gives every member of `$Globals`.
#[test]
fn register_c_places_globals_as_dxc_does() {
    let src = "float x;
float y : register(c0);
float z : register(c2);
float w : register(c1);
float2 xy : register(c9);
float3 xyz : register(c3);
float4 xyzw;
float4 arr4[3] : register(c4);
float2 arr2[3] : register(c10);
float3 arr3[3];
float s;
float4 main() : SV_Target { return x + y + z + w + xy.x + xyz.x + xyzw + arr4[0] + arr2[0].x + arr3[0].x + s; }";
    let mut o = options("ps_6_0");
    o.layout = BufferLayout::Dx;
    let dis = compile("register-c", src, &o, &["--skip-block-layout"]);
    assert_eq!(
        offsets(&dis, "type__Globals"),
        [200, 0, 32, 16, 144, 48, 208, 64, 160, 224, 268]
    );
}

#[test]
fn the_default_target_is_vulkan_1_0() {
    assert_eq!(options("cs_6_0").target_env, TargetEnv::Vulkan1_0);
    assert_eq!(options("cs_6_0").layout, BufferLayout::Relaxed);
}

#[test]
fn zpr_makes_undecorated_matrices_row_major() {
    let src = r#"
typedef column_major float2x3 CM;
cbuffer CB { float2x3 a; column_major float2x3 b; CM c; row_major float2x3 d; };
StructuredBuffer<float2x3> sb;
float4 main() : SV_Target { return a[0].x + b[0].x + c[0].x + d[0].x + sb[0][0].x; }
"#;
    // HLSL row-major is SPIR-V ColMajor (DXC's transposed representation).
    let majorness = |dis: &str, ty: &str, member: u32| {
        let has = |d: &str| dis.contains(&format!("OpMemberDecorate %{ty} {member} {d}\n"));
        match (has("RowMajor"), has("ColMajor")) {
            (true, false) => "RowMajor",
            (false, true) => "ColMajor",
            _ => "none",
        }
    };
    let dis = compile("zpc", src, &options("ps_6_0"), &["--relax-block-layout"]);
    assert_eq!(majorness(&dis, "type_CB", 0), "RowMajor");
    assert_eq!(
        majorness(&dis, "type_StructuredBuffer_mat2v3float", 0),
        "RowMajor"
    );
    let mut o = options("ps_6_0");
    o.row_major = true;
    let dis = compile("zpr", src, &o, &["--relax-block-layout"]);
    let cb: Vec<_> = (0..4).map(|m| majorness(&dis, "type_CB", m)).collect();
    assert_eq!(
        cb,
        ["ColMajor", "RowMajor", "RowMajor", "ColMajor"],
        "{dis}"
    );
    assert_eq!(
        majorness(&dis, "type_StructuredBuffer_mat2v3float", 0),
        "ColMajor"
    );
    // Row-major 2x3: two rows of 3, each 16 bytes apart; column-major: three of 2.
    assert_eq!(offsets(&dis, "type_CB"), [0, 32, 80, 128], "{dis}");
}

/// The instructions of the wrapper `main` (the entry point), trimmed.
fn wrapper(dis: &str) -> Vec<String> {
    let start = dis.find("%main = OpFunction").expect("the wrapper");
    dis[start..]
        .lines()
        .map(|l| l.trim().to_owned())
        .take_while(|l| l != "OpFunctionEnd")
        .collect()
}

#[test]
fn invert_y_negates_the_position_written() {
    let src = "float4 main(float4 a : A) : SV_Position { return a; }";
    let mut o = options("vs_6_0");
    o.invert_y = true;
    let dis = compile("invert_y", src, &o, &[]);
    let body = wrapper(&dis).join("\n");
    let want = [
        "OpCompositeExtract %float",
        "OpFNegate %float",
        "OpCompositeInsert %v4float",
        "OpStore %gl_Position",
    ];
    let mut at = 0;
    for w in want {
        let i = body[at..]
            .find(w)
            .unwrap_or_else(|| panic!("{w} after the call:\n{body}"));
        at += i + w.len();
    }
    assert!(body.contains(" 1\n"), "y is component 1:\n{body}");
    let plain = compile("no_invert_y", src, &options("vs_6_0"), &[]);
    assert!(!plain.contains("OpFNegate"));
}

#[test]
fn dx_position_w_reciprocates_the_fragment_w() {
    let src = "float4 main(float4 pos : SV_Position) : SV_Target { return pos; }";
    let mut o = options("ps_6_0");
    o.dx_position_w = true;
    let dis = compile("dx_position_w", src, &o, &[]);
    let body = wrapper(&dis);
    let load = body
        .iter()
        .position(|l| l.contains("OpLoad %v4float %gl_FragCoord"))
        .expect("FragCoord is loaded");
    assert!(body[load + 1].contains("OpCompositeExtract %float") && body[load + 1].ends_with(" 3"));
    assert!(
        body[load + 2].contains("OpFDiv %float %float_1 "),
        "{body:?}"
    );
    assert!(
        body[load + 3].contains("OpCompositeInsert %v4float") && body[load + 3].ends_with(" 3")
    );
    let plain = compile("no_dx_position_w", src, &options("ps_6_0"), &[]);
    assert!(!plain.contains("OpFDiv"));
}

/// `(set, binding)` of each named variable.
fn bindings_of(dis: &str, names: &[&str]) -> Vec<(u32, u32)> {
    names
        .iter()
        .map(|n| {
            let set = decoration(dis, n, "DescriptorSet").expect("a set");
            let binding = decoration(dis, n, "Binding").expect("a binding");
            (set, binding)
        })
        .collect()
}

const BINDINGS: &str = r#"
struct S { float4 f; };
[[vk::binding(42)]] ConstantBuffer<S> fixed : register(b10, space2);
ConstantBuffer<S> cb0 : register(b0);
ConstantBuffer<S> cb2 : register(b0, space2);
Texture2D<float4> tex : register(t1);
SamplerState smp : register(s0, space1);
RWBuffer<float4> rw : register(u3);
ConstantBuffer<S> implicit;
Texture2D<float4> implicit_tex;
float4 g;
float4 main() : SV_Target { return cb0.f + cb2.f + fixed.f + implicit.f + g + rw[0] + tex.Sample(smp, 0.5) + implicit_tex.Sample(smp, 0.5); }
"#;

const BOUND: [&str; 9] = [
    "fixed",
    "cb0",
    "cb2",
    "tex",
    "smp",
    "rw",
    "implicit",
    "implicit_tex",
    "_Globals",
];

#[test]
fn bindings_follow_registers_shifts_and_the_default_space() {
    let dis = compile("bindings", BINDINGS, &options("ps_6_0"), &[]);
    assert_eq!(
        bindings_of(&dis, &BOUND),
        [
            (0, 42),
            (0, 0),
            (2, 0),
            (0, 1),
            (1, 0),
            (0, 3),
            (0, 2),
            (0, 4),
            (0, 5)
        ]
    );
    // Shifts move registers (per space, or in all); vk::binding and implicit ones stay.
    let mut o = options("ps_6_0");
    o.bindings.shifts = vec![
        ('b', Some(0), 100),
        ('b', Some(2), 200),
        ('t', None, 10),
        ('u', Some(0), 700),
    ];
    let dis = compile("bindings_shifted", BINDINGS, &o, &[]);
    assert_eq!(
        bindings_of(&dis, &BOUND),
        [
            (0, 42),
            (0, 100),
            (2, 200),
            (0, 11),
            (1, 0),
            (0, 703),
            (0, 0),
            (0, 1),
            (0, 2)
        ]
    );
    // -auto-binding-space: registers and vk::binding without a space, and implicit ones, go
    // to that set; -fvk-auto-shift-bindings shifts the implicit ones by their class;
    // -fvk-bind-globals places $Globals.
    o.bindings.shifts = vec![('b', Some(7), 50), ('t', Some(7), 20)];
    o.bindings.default_space = 7;
    o.bindings.auto_shift = true;
    o.bindings.globals = Some((9, 3));
    let dis = compile("bindings_space", BINDINGS, &o, &[]);
    assert_eq!(
        bindings_of(&dis, &BOUND),
        [
            (7, 42),
            (7, 50),
            (2, 0),
            (7, 21),
            (1, 0),
            (7, 3),
            (7, 51),
            (7, 20),
            // Shifted by the `b` shift of set 3: none.
            (3, 9)
        ]
    );
}

#[test]
fn bind_register_places_every_resource_from_its_table() {
    use spvkit::hlsl::RegisterBinding;
    let src = r#"
Texture2D<float4> tex : register(t5);
SamplerState smp : register(s3, space1);
float4 g;
float4 main() : SV_Target { return g + tex.Sample(smp, 0.5); }
"#;
    let entry = |class, index, space, binding, set| RegisterBinding {
        class,
        index,
        space,
        binding,
        set,
    };
    let mut o = options("ps_6_0");
    o.bindings.registers = vec![entry('t', 5, 0, 1, 2), entry('s', 3, 1, 3, 4)];
    o.bindings.globals = Some((7, 8));
    let dis = compile("bind_register", src, &o, &[]);
    assert_eq!(
        bindings_of(&dis, &["tex", "smp", "_Globals"]),
        [(2, 1), (4, 3), (8, 7)]
    );
    // Without -fvk-bind-globals, $Globals has no register: an error; so is a register the
    // table lacks.
    o.bindings.globals = None;
    let e = errors(src, &o);
    assert!(
        e.contains("error: -fvk-bind-register requires register annotations"),
        "{e}"
    );
    o.bindings.registers.pop();
    o.bindings.globals = Some((7, 8));
    let e = errors(src, &o);
    assert!(
        e.contains("bad.hlsl:3:14: error: missing -fvk-bind-register for resource"),
        "{e}"
    );
}

/// `-fspv-flatten-resource-arrays`: an array of resources becomes one variable per element
/// (`t[0]`, `t[1]`...), at consecutive bindings that later implicit bindings skip, as DXC's
/// legalized output has them (elements nothing uses go); without arrays nothing changes. A
/// non-constant index is a switch over the elements.
#[test]
fn flattening_resource_arrays_gives_each_element_a_binding() {
    let mut o = options("ps_6_0");
    o.bindings.flatten_arrays = true;
    let plain = compile("unflattened", BINDINGS, &options("ps_6_0"), &[]);
    assert_eq!(compile("flattened", BINDINGS, &o, &[]), plain);
    let src = "Texture2D t[3] : register(t0);
               Texture2D next;
               Texture2D other : register(t3);
               SamplerState s[2];
               float4 main(float2 uv : UV) : SV_Target {
                   return t[0].Sample(s[0], uv) + t[2].Sample(s[1], uv)
                        + next.Sample(s[1], uv) + other.Sample(s[0], uv);
               }";
    let dis = compile("flattened-arrays", src, &o, &[]);
    assert_eq!(
        bindings_of(&dis, &["t_0_", "t_2_", "other", "next", "s_0_", "s_1_"]),
        [(0, 0), (0, 2), (0, 3), (0, 4), (0, 5), (0, 6)]
    );
    assert!(!dis.contains("%t_1_"), "{dis}");
    assert!(dis.contains("OpName %t_2_ \"t[2]\""), "{dis}");
    assert!(!dis.contains("OpTypeArray"), "{dis}");
    // The sampled texture is the element's own variable.
    assert!(dis.contains("= OpLoad %type_2d_image %t_2_"), "{dis}");
    let dis = compile(
        "flattened-variable-index",
        "Texture2D<float4> t[2];\nfloat4 main(uint i : I) : SV_Target { return t[i].Load(0); }",
        &o,
        &[],
    );
    assert_eq!(bindings_of(&dis, &["t_0_", "t_1_"]), [(0, 0), (0, 1)]);
    assert!(dis.contains("OpSwitch"), "{dis}");
}

/// The lines of `dis` that contain `what`, trimmed.
fn lines_with<'a>(dis: &'a str, what: &str) -> Vec<&'a str> {
    dis.lines()
        .map(str::trim)
        .filter(|l| l.contains(what))
        .collect()
}

const PIXEL: &str = "float4 main(float4 col : COL) : SV_Target { return col * 2; }";

#[test]
fn denorm_modes_set_the_32_bit_execution_mode() {
    use spvkit::hlsl::Denorm;
    let mut o = options("ps_6_2");
    let plain = compile("denorm-any", PIXEL, &o, &[]);
    assert!(lines_with(&plain, "Denorm").is_empty(), "{plain}");
    assert!(lines_with(&plain, "float_controls").is_empty(), "{plain}");
    o.denorm = Denorm::Preserve;
    let dis = compile("denorm-preserve", PIXEL, &o, &[]);
    assert!(dis.contains("OpCapability DenormPreserve"), "{dis}");
    assert!(
        dis.contains("OpExtension \"SPV_KHR_float_controls\""),
        "{dis}"
    );
    assert!(
        dis.contains("OpExecutionMode %main DenormPreserve 32"),
        "{dis}"
    );
    // SPIR-V 1.5 has float controls in core: no extension.
    o.target_env = TargetEnv::Vulkan1_2;
    let dis = compile("denorm-preserve-vk12", PIXEL, &o, &[]);
    assert!(
        dis.contains("OpExecutionMode %main DenormPreserve 32"),
        "{dis}"
    );
    assert!(dis.contains("; Version: 1.5"), "{dis}");
    assert!(lines_with(&dis, "OpExtension").is_empty(), "{dis}");
    o.target_env = TargetEnv::Vulkan1_0;
    o.denorm = Denorm::FlushToZero;
    let dis = compile("denorm-ftz", PIXEL, &o, &[]);
    assert!(dis.contains("OpCapability DenormFlushToZero"), "{dis}");
    assert!(
        dis.contains("OpExtension \"SPV_KHR_float_controls\""),
        "{dis}"
    );
    assert!(
        dis.contains("OpExecutionMode %main DenormFlushToZero 32"),
        "{dis}"
    );
    assert!(dis.contains("; Version: 1.0"), "{dis}");
}

const IDS: &str = r#"
struct Out { float4 pos : SV_Position; uint v : VID; uint i : IID; };
Out main(uint v : SV_VertexID, uint i : SV_InstanceID) {
    Out o; o.pos = float4(0, 0, 0, 1); o.v = v; o.i = i; return o;
}
"#;

#[test]
fn nonzero_base_vertex_and_instance_subtract_the_draws_base() {
    let mut o = options("vs_6_0");
    let plain = compile("base-zero", IDS, &o, &[]);
    assert!(lines_with(&plain, "OpISub").is_empty(), "{plain}");
    assert!(lines_with(&plain, "DrawParameters").is_empty(), "{plain}");
    o.nonzero_base_vertex = true;
    let dis = compile("base-vertex", IDS, &o, &[]);
    assert!(
        dis.contains("OpDecorate %gl_BaseVertex BuiltIn BaseVertex"),
        "{dis}"
    );
    assert!(!dis.contains("BaseInstance"), "{dis}");
    assert_eq!(lines_with(&dis, "OpISub %uint").len(), 1, "{dis}");
    o.nonzero_base_instance = true;
    let dis = compile("base-both", IDS, &o, &[]);
    assert!(
        dis.contains("OpDecorate %gl_BaseInstance BuiltIn BaseInstance"),
        "{dis}"
    );
    assert!(dis.contains("OpCapability DrawParameters"), "{dis}");
    assert!(
        dis.contains("OpExtension \"SPV_KHR_shader_draw_parameters\""),
        "{dis}"
    );
    // VertexIndex - BaseVertex, InstanceIndex - BaseInstance.
    let vi = lines_with(&dis, "OpLoad %uint %gl_VertexIndex")[0];
    let bv = lines_with(&dis, "OpLoad %uint %gl_BaseVertex")[0];
    let id = |l: &str| l.split(' ').next().unwrap().to_owned();
    assert!(
        dis.contains(&format!("OpISub %uint {} {}", id(vi), id(bv))),
        "{dis}"
    );
    let entry = lines_with(&dis, "OpEntryPoint")[0];
    assert!(entry.contains("%gl_BaseVertex") && entry.contains("%gl_BaseInstance"));
    // Vulkan 1.1 (SPIR-V 1.3) has DrawParameters in core.
    o.target_env = TargetEnv::Vulkan1_1;
    let dis = compile("base-both-vk11", IDS, &o, &[]);
    assert!(dis.contains("OpCapability DrawParameters"), "{dis}");
    assert!(lines_with(&dis, "OpExtension").is_empty(), "{dis}");
}

#[test]
fn alphabetical_stage_io_order_sorts_locations_by_semantic() {
    let src = r#"
struct S { float c : C; float a : A; };
struct T { float e : E; S s; float d : D; };
void main(in float n : N, in T t, in float m : M, out T o, out float q : Q, out float p : P,
          out float4 pos : SV_Position) { o = t; q = n; p = m; pos = 0; }
"#;
    let mut o = options("vs_6_0");
    let decl = compile("io-decl", src, &o, &[]);
    let loc = |dis: &str, v: &str| decoration(dis, v, "Location");
    assert_eq!(loc(&decl, "in_var_N"), Some(0));
    assert_eq!(loc(&decl, "in_var_A"), Some(3));
    o.stage_io_alpha = true;
    let dis = compile("io-alpha", src, &o, &[]);
    for (k, s) in ["A", "C", "D", "E", "M", "N"].iter().enumerate() {
        assert_eq!(loc(&dis, &format!("in_var_{s}")), Some(k as u32), "{dis}");
    }
    for (k, s) in ["A", "C", "D", "E", "P", "Q"].iter().enumerate() {
        assert_eq!(loc(&dis, &format!("out_var_{s}")), Some(k as u32), "{dis}");
    }
}

#[test]
fn unknown_image_format_drops_the_deduced_format() {
    let src = r#"
RWTexture2D<float4> img;
RWBuffer<uint> texels;
[numthreads(1, 1, 1)] void main() { img[uint2(0, 0)] = img[uint2(1, 1)] + texels[0]; texels[1] = 2; }
"#;
    let mut o = options("cs_6_0");
    let dis = compile("format-deduced", src, &o, &[]);
    assert!(
        dis.contains("OpTypeImage %float 2D 2 0 0 2 Rgba32f"),
        "{dis}"
    );
    assert!(
        dis.contains("OpTypeImage %uint Buffer 2 0 0 2 R32ui"),
        "{dis}"
    );
    assert!(!dis.contains("WithoutFormat"), "{dis}");
    o.unknown_image_format = true;
    let dis = compile("format-unknown", src, &o, &[]);
    assert!(
        dis.contains("OpTypeImage %float 2D 2 0 0 2 Unknown"),
        "{dis}"
    );
    assert!(
        dis.contains("OpTypeImage %uint Buffer 2 0 0 2 Unknown"),
        "{dis}"
    );
    assert!(
        dis.contains("OpCapability StorageImageReadWithoutFormat"),
        "{dis}"
    );
    assert!(
        dis.contains("OpCapability StorageImageWriteWithoutFormat"),
        "{dis}"
    );
}

#[test]
fn hlsl_202x_types_literals_as_c_and_deduces_auto() {
    use spvkit::hlsl::LanguageVersion;
    let src = r#"
RWStructuredBuffer<double> d;
RWStructuredBuffer<min16float> m;
static const double K = 0.1;
[numthreads(1, 1, 1)] void main() {
    auto x = d[0];
    d[1] = x * 0.1;
    d[2] = K;
    min16float h = m[0];
    m[1] = h * 0.5;
    auto v = float4(1, 2, 3, 4);
    auto n = 3;
    d[3] = v.y + n + __HLSL_VERSION;
}
"#;
    let mut o = options("cs_6_0");
    o.version = LanguageVersion::V202x;
    let dis = compile("hv-202x", src, &o, &[]);
    // An unsuffixed float literal is a 32-bit float, converted to double where needed.
    assert!(
        dis.contains("%double_0_10000000149011612 = OpConstant %double 0.10000000149011612"),
        "{dis}"
    );
    assert!(!dis.contains("0.10000000000000001"), "{dis}");
    assert!(dis.contains("OpConstant %int 2029"), "{dis}");
    assert!(
        dis.contains("%x = OpVariable %_ptr_Function_double Function"),
        "{dis}"
    );
    assert!(
        dis.contains("%v = OpVariable %_ptr_Function_v4float Function"),
        "{dis}"
    );
    assert!(
        dis.contains("%n = OpVariable %_ptr_Function_int Function"),
        "{dis}"
    );
    // min16float * float is float: the product is not RelaxedPrecision.
    let mul = lines_with(&dis, "OpFMul %float")[0];
    let id = mul.split(' ').next().unwrap();
    assert!(
        !dis.contains(&format!("OpDecorate {id} RelaxedPrecision")),
        "{dis}"
    );
    // HLSL 2021: the literal takes the other operand's type.
    o.version = LanguageVersion::V2021;
    let src21 = src
        .replace("auto x", "double x")
        .replace("auto v", "float4 v")
        .replace("auto n", "int n");
    let dis = compile("hv-2021", &src21, &o, &[]);
    assert!(
        dis.contains("OpConstant %double 0.10000000000000001"),
        "{dis}"
    );
    assert!(dis.contains("OpConstant %int 2021"), "{dis}");
    let mul = lines_with(&dis, "OpFMul %float")[0];
    let id = mul.split(' ').next().unwrap();
    assert!(
        dis.contains(&format!("OpDecorate {id} RelaxedPrecision")),
        "{dis}"
    );
    // `auto` is 202x's; a literal beyond int's range is refused in 202x (C types it by radix).
    let e = errors(src, &o);
    assert!(e.contains("unknown type name 'auto'"), "{e}");
    o.version = LanguageVersion::V202x;
    let e = errors(
        "RWStructuredBuffer<uint> b;\n[numthreads(1,1,1)] void main() { b[0] = 0x80000000; }",
        &o,
    );
    assert!(
        e.contains("not supported yet: an unsuffixed integer literal"),
        "{e}"
    );
    // A lone literal still folds (a specialization constant's default). Specialization
    // constants are bool or 32-bit (DXC refuses `double` ones).
    let dis = compile(
        "hv-202x-spec",
        "[[vk::constant_id(1)]] const float s = 0.1;\n\
         [[vk::constant_id(2)]] const int t = -7;\n\
         RWStructuredBuffer<float> d;\n\
         [numthreads(1, 1, 1)] void main() { d[0] = s + t; }",
        &o,
        &[],
    );
    assert!(dis.contains("OpSpecConstant %float 0.100000001"), "{dis}");
    assert!(dis.contains("OpSpecConstant %int -7"), "{dis}");
}

#[test]
fn descriptor_heap_flags_change_nothing_while_the_heaps_are_refused() {
    let mut o = options("ps_6_0");
    o.bindings.resource_heap = Some((1, 2));
    o.bindings.sampler_heap = Some((3, 4));
    o.bindings.counter_heap = Some((5, 6));
    o.descriptor_heap = true;
    o.legacy_buffer_matrix_order = true;
    let plain = compile("no-heaps", BINDINGS, &options("ps_6_0"), &[]);
    assert_eq!(compile("heaps", BINDINGS, &o, &[]), plain);
    for heap in ["ResourceDescriptorHeap", "SamplerDescriptorHeap"] {
        let e = errors(
            &format!("float4 main() : SV_Target {{ return {heap}[0]; }}"),
            &o,
        );
        assert!(e.contains(&format!("not supported yet: '{heap}'")), "{e}");
    }
}

#[test]
fn reflection_decorates_semantics_and_resource_types() {
    let src = r#"
StructuredBuffer<float4> sb;
Texture2D<float4> tex;
Texture2D bare;
SamplerState smp;
cbuffer CB { float x; };
struct S { float f; };
ConstantBuffer<S> cb;
float4 main(float4 c : COLOR3, float4 pos : SV_Position) : SV_Target {
    return c + sb[0] + tex.Sample(smp, pos.xy) + bare.Sample(smp, pos.xy) + x + cb.f;
}
"#;
    let mut o = options("ps_6_0");
    let plain = compile("no-reflect", src, &o, &[]);
    assert!(
        !plain.contains("GOOGLE") && !plain.contains("UserSemantic"),
        "{plain}"
    );
    o.reflect = true;
    for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2] {
        o.target_env = env;
        let dis = compile(&format!("reflect-{env}"), src, &o, &[]);
        for line in [
            "OpExtension \"SPV_GOOGLE_hlsl_functionality1\"",
            "OpExtension \"SPV_GOOGLE_user_type\"",
            "OpDecorateString %in_var_COLOR3 UserSemantic \"COLOR3\"",
            "OpDecorateString %gl_FragCoord UserSemantic \"SV_Position\"",
            "OpDecorateString %out_var_SV_Target UserSemantic \"SV_Target\"",
            "OpDecorateString %sb UserTypeGOOGLE \"structuredbuffer:<float4>\"",
            "OpDecorateString %tex UserTypeGOOGLE \"texture2d:<float4>\"",
            "OpDecorateString %bare UserTypeGOOGLE \"texture2d\"",
            "OpDecorateString %CB UserTypeGOOGLE \"cbuffer\"",
            "OpDecorateString %cb UserTypeGOOGLE \"constantbuffer:<S>\"",
        ] {
            assert!(dis.contains(line), "{env}: {line}\n{dis}");
        }
    }
}
