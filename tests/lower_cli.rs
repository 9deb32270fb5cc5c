//! `spvkit lower`: its LLVM text is accepted by LLVM 19's `opt -passes=verify` and runs under
//! `lli`; the other output kinds and optimization levels work.
#![cfg(all(feature = "llvm", feature = "cli"))]

use std::path::PathBuf;
use std::process::Command;

const LLVM_BIN: &str = "/usr/lib/llvm-19/bin";

/// A function `compute` (exported) that sums 1..=n with a loop (block arguments → phis) and
/// calls a helper; `compute(9)` is 45 + 2 = 47.
const MODULE: &str = r#"
OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
OpDecorate %compute LinkageAttributes "compute" Export
%void = OpTypeVoid
%bool = OpTypeBool
%int = OpTypeInt 32 1
%i0 = OpConstant %int 0
%i1 = OpConstant %int 1
%i2 = OpConstant %int 2
%fn1 = OpTypeFunction %int %int
%ptr = OpTypePointer Function %int
%helper = OpFunction %int None %fn1
%x = OpFunctionParameter %int
%h0 = OpLabel
%v = OpVariable %ptr Function %i2
%two = OpLoad %int %v
%r = OpIAdd %int %x %two
OpReturnValue %r
OpFunctionEnd
%compute = OpFunction %int None %fn1
%n = OpFunctionParameter %int
%entry = OpLabel
OpBranch %head
%head = OpLabel
%i = OpPhi %int %i1 %entry %inext %body
%acc = OpPhi %int %i0 %entry %accnext %body
%done = OpSGreaterThan %bool %i %n
OpLoopMerge %exit %body None
OpBranchConditional %done %exit %body
%body = OpLabel
%accnext = OpIAdd %int %acc %i
%inext = OpIAdd %int %i %i1
OpBranch %head
%exit = OpLabel
%res = OpFunctionCall %int %helper %acc
OpReturnValue %res
OpFunctionEnd
"#;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("spvkit-lower-cli-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

fn spvkit(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_spvkit"))
        .args(args)
        .output()
        .unwrap()
}

fn input() -> PathBuf {
    let words = spvkit::text::assemble(MODULE, &Default::default()).unwrap();
    let p = tmp("in.spv");
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&p, bytes).unwrap();
    p
}

#[test]
fn lowered_text_passes_opt_and_runs_under_lli() {
    let spv = input();
    let ll = tmp("out.ll");
    let o = spvkit(&["lower", spv.to_str().unwrap(), "-o", ll.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let opt = Command::new(format!("{LLVM_BIN}/opt"))
        .args(["-passes=verify", "-disable-output", ll.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        opt.status.success(),
        "opt: {}",
        String::from_utf8_lossy(&opt.stderr)
    );
    // lli runs `main`; the lowered function takes the invocation context first.
    let mut text = std::fs::read_to_string(&ll).unwrap();
    text.push_str(
        "\ndefine i32 @main() {\n  %r = call i32 @compute(ptr null, i32 9)\n  ret i32 %r\n}\n",
    );
    let with_main = tmp("main.ll");
    std::fs::write(&with_main, text).unwrap();
    let lli = Command::new(format!("{LLVM_BIN}/lli"))
        .arg(&with_main)
        .output()
        .unwrap();
    assert_eq!(
        lli.status.code(),
        Some(47),
        "lli: {}",
        String::from_utf8_lossy(&lli.stderr)
    );
}

#[test]
fn other_outputs_and_levels() {
    let spv = input();
    for (emit, magic) in [
        ("bc", &b"BC"[..]),
        ("obj", &b"\x7fELF"[..]),
        ("asm", &b""[..]),
    ] {
        for level in ["-O0", "-O3"] {
            let out = tmp(&format!("out.{emit}{level}"));
            let o = spvkit(&[
                "lower",
                spv.to_str().unwrap(),
                "--emit",
                emit,
                level,
                "-o",
                out.to_str().unwrap(),
            ]);
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            let bytes = std::fs::read(&out).unwrap();
            assert!(
                !bytes.is_empty() && bytes.starts_with(magic),
                "{emit} {level}"
            );
        }
    }
    let o = spvkit(&["lower", spv.to_str().unwrap(), "-O2"]);
    assert!(o.status.success());
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("define i32 @compute(ptr"), "{text}");
}

#[test]
fn an_unsupported_op_is_an_error_naming_it() {
    // OpImageQuerySize is not lowered: the error names it and its word offset.
    let text = "OpCapability Shader\nOpCapability Linkage\nOpCapability ImageQuery\nOpMemoryModel Logical GLSL450\n\
        OpDecorate %f LinkageAttributes \"f\" Export\n%float = OpTypeFloat 32\n%int = OpTypeInt 32 1\n\
        %img = OpTypeImage %float 2D 0 0 0 2 Rgba8\n%v2 = OpTypeVector %int 2\n%fnty = OpTypeFunction %v2 %img\n\
        %f = OpFunction %v2 None %fnty\n%i = OpFunctionParameter %img\n%e = OpLabel\n%s = OpImageQuerySize %v2 %i\n\
        OpReturnValue %s\nOpFunctionEnd\n";
    let words = spvkit::text::assemble(text, &Default::default()).unwrap();
    let p = tmp("bad.spv");
    std::fs::write(
        &p,
        words
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect::<Vec<u8>>(),
    )
    .unwrap();
    let o = spvkit(&["lower", p.to_str().unwrap()]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("OpImageQuerySize") && err.contains("word "),
        "{err}"
    );
}

#[test]
fn a_bool_vector_component_pointer_is_loaded_and_stored_through_its_vector_or_refused() {
    // A component of a bool vector has no address of its own in LLVM (`<N x i1>` is packed
    // as bits): loads and stores go through the vector; a copy through such a pointer is
    // refused with the op named, not lowered to a wrong address.
    let text = "OpCapability Shader\nOpCapability Linkage\nOpMemoryModel Logical GLSL450\n\
        OpDecorate %f LinkageAttributes \"f\" Export\n%bool = OpTypeBool\n%uint = OpTypeInt 32 0\n\
        %v4 = OpTypeVector %bool 4\n%pv = OpTypePointer Function %v4\n%pb = OpTypePointer Function %bool\n\
        %fnty = OpTypeFunction %bool %uint\n%t = OpConstantTrue %bool\n%null = OpConstantNull %v4\n\
        %f = OpFunction %bool None %fnty\n%i = OpFunctionParameter %uint\n%e = OpLabel\n\
        %v = OpVariable %pv Function %null\n%b = OpVariable %pb Function\n\
        %lane = OpAccessChain %pb %v %i\nOpStore %lane %t\n%x = OpLoad %bool %lane\n\
        OpCopyMemory %b %lane\nOpReturnValue %x\nOpFunctionEnd\n";
    let words = spvkit::text::assemble(text, &Default::default()).unwrap();
    let p = tmp("bool-lane.spv");
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&p, &bytes).unwrap();
    let o = spvkit(&["lower", p.to_str().unwrap()]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("OpCopyMemory") && err.contains("component of a bool vector"),
        "{err}"
    );
    // Without the copy it lowers: the store and load go through the whole vector.
    let text = text.replace("OpCopyMemory %b %lane\n", "");
    let words = spvkit::text::assemble(&text, &Default::default()).unwrap();
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&p, &bytes).unwrap();
    let o = spvkit(&["lower", p.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let ll = String::from_utf8_lossy(&o.stdout);
    assert!(ll.contains("insertelement <4 x i1>"), "{ll}");
    assert!(ll.contains("extractelement <4 x i1>"), "{ll}");
}
