//! A large, valid SPIR-V module made at bench time: many functions of arithmetic, extended
//! instructions, constants of several widths, selections with OpPhi and switches. The text is
//! generated here and assembled by spirv-as (the reference tool), then cached under target/.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;

/// The generated module's text, with `functions` functions.
pub fn text(functions: usize) -> String {
    let mut s = String::with_capacity(functions * 3000);
    s.push_str(
        "OpCapability Shader\nOpCapability Int64\nOpCapability Float64\n%glsl = OpExtInstImport \"GLSL.std.450\"\n\
         OpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n\
         OpSource GLSL 450\nOpName %main \"main\"\n",
    );
    for f in 0..functions {
        let _ = writeln!(s, "OpName %f{f} \"function_{f}(f1;i1;\"");
    }
    s.push_str(
        "%void = OpTypeVoid\n%bool = OpTypeBool\n%float = OpTypeFloat 32\n%double = OpTypeFloat 64\n\
         %int = OpTypeInt 32 1\n%long = OpTypeInt 64 1\n%v4float = OpTypeVector %float 4\n\
         %fn_void = OpTypeFunction %void\n%fn = OpTypeFunction %float %float %int\n\
         %float_0 = OpConstant %float 0\n%float_1 = OpConstant %float 1\n%float_2 = OpConstant %float 2.5\n\
         %float_tiny = OpConstant %float 1.00000001e-30\n%double_pi = OpConstant %double 3.14159265358979\n\
         %int_0 = OpConstant %int 0\n%int_1 = OpConstant %int 1\n%int_m7 = OpConstant %int -7\n\
         %long_big = OpConstant %long -81985529216486895\n\
         %v4_1 = OpConstantComposite %v4float %float_1 %float_2 %float_0 %float_1\n",
    );
    for f in 0..functions {
        let _ = write!(
            s,
            "%f{f} = OpFunction %float None %fn\n%p{f} = OpFunctionParameter %float\n%q{f} = OpFunctionParameter %int\n\
             %entry{f} = OpLabel\n"
        );
        let mut prev = format!("%p{f}");
        for k in 0..12 {
            let _ = write!(
                s,
                "%a{f}x{k} = OpFAdd %float {prev} %float_1\n%b{f}x{k} = OpFMul %float %a{f}x{k} %float_2\n\
                 %c{f}x{k} = OpExtInst %float %glsl Sin %b{f}x{k}\n%i{f}x{k} = OpIMul %int %q{f} %int_m7\n\
                 %v{f}x{k} = OpCompositeInsert %v4float %c{f}x{k} %v4_1 2\n%e{f}x{k} = OpCompositeExtract %float %v{f}x{k} 2\n"
            );
            prev = format!("%e{f}x{k}");
        }
        let _ = write!(
            s,
            "%cmp{f} = OpFOrdLessThan %bool {prev} %float_0\nOpSelectionMerge %merge{f} None\n\
             OpBranchConditional %cmp{f} %neg{f} %merge{f}\n%neg{f} = OpLabel\n%n{f} = OpFNegate %float {prev}\n\
             OpBranch %merge{f}\n%merge{f} = OpLabel\n%phi{f} = OpPhi %float %n{f} %neg{f} {prev} %entry{f}\n\
             OpSelectionMerge %sw_end{f} None\nOpSwitch %q{f} %sw_end{f} 0 %case0_{f} -7 %case1_{f}\n\
             %case0_{f} = OpLabel\nOpBranch %sw_end{f}\n%case1_{f} = OpLabel\nOpBranch %sw_end{f}\n\
             %sw_end{f} = OpLabel\nOpReturnValue %phi{f}\nOpFunctionEnd\n"
        );
    }
    s.push_str("%main = OpFunction %void None %fn_void\n%main_entry = OpLabel\n");
    for f in (0..functions).step_by((functions / 16).max(1)) {
        let _ = writeln!(s, "%call{f} = OpFunctionCall %float %f{f} %float_1 %int_1");
    }
    s.push_str("OpReturn\nOpFunctionEnd\n");
    s
}

/// The assembled module (by spirv-as), at least `min_bytes` large, cached in the target dir.
pub fn binary(min_bytes: usize) -> (PathBuf, Vec<u8>) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/bench-data");
    std::fs::create_dir_all(&dir).expect("creating target/bench-data");
    let functions = min_bytes / 1800 + 1;
    let spv = dir.join(format!("big_{functions}.spv"));
    if !spv.exists() {
        let asm = dir.join(format!("big_{functions}.spvasm"));
        std::fs::write(&asm, text(functions)).expect("writing the generated text");
        let st = Command::new("spirv-as")
            .args(["--target-env", "vulkan1.0", "-o"])
            .arg(&spv)
            .arg(&asm)
            .status()
            .expect("spirv-as is needed (bash scripts/setup.sh)");
        assert!(st.success(), "spirv-as failed on the generated module");
    }
    let bytes = std::fs::read(&spv).expect("reading the generated module");
    assert!(
        bytes.len() >= min_bytes,
        "generated module is {} bytes, wanted {min_bytes}",
        bytes.len()
    );
    (spv, bytes)
}
