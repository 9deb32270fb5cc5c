//! Module-level metadata maps back in `spvkit from-llvm`: what `spvkit lower --style spv-ir`
//! writes as `!spirv.*`/`!opencl.*` named metadata becomes the module-level instructions it
//! came from (checked with spirv-dis and spirv-val, on modules assembled by spirv-as), and
//! clang-15's `!opencl.ocl.version` gives the OpSource llvm-spirv-15 writes.

#![cfg(all(feature = "run", feature = "cli"))]

#[path = "support/opencl.rs"]
mod opencl;

use opencl::run;
use std::path::{Path, PathBuf};
use std::process::Command;

fn spvkit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_spvkit"))
}

fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("from_llvm_metadata");
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

fn dis(spv: &Path) -> String {
    let out = run(Command::new("spirv-dis").arg("--raw-id").arg(spv))
        .unwrap_or_else(|e| panic!("spirv-dis (apt-get install spirv-tools): {e}"));
    String::from_utf8(out).unwrap()
}

fn from_llvm(ll: &Path) -> Result<PathBuf, String> {
    let spv = ll.with_extension("back.spv");
    run(spvkit().arg("from-llvm").arg(ll).arg("-o").arg(&spv))?;
    Ok(spv)
}

const MODULE: &str = r#"
OpCapability Addresses
OpCapability Kernel
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "renamed_kernel"
OpExecutionMode %k LocalSize 8 4 1
OpExecutionMode %k ContractionOff
OpExecutionMode %k VecTypeHint 131077
%file = OpString "kernel.cl"
OpSource OpenCL_C 200000 %file
OpSourceExtension "cl_khr_fp64"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%k = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
"#;

#[test]
fn module_level_instructions_survive_spv_ir() {
    let asm = scratch("module.spvasm");
    let spv = asm.with_extension("spv");
    std::fs::write(&asm, MODULE).unwrap();
    run(Command::new("spirv-as")
        .args(["--target-env", "opencl2.0", "-o"])
        .arg(&spv)
        .arg(&asm))
    .unwrap();
    let ll = asm.with_extension("ll");
    run(spvkit()
        .args(["lower", "--style", "spv-ir"])
        .arg(&spv)
        .arg("-o")
        .arg(&ll))
    .unwrap();
    let back = from_llvm(&ll).unwrap();
    opencl::spirv_val(&back, "opencl2.0").unwrap();
    let text = dis(&back);
    for want in [
        "; Generator: Khronos SPIR-V Tools Assembler",
        "OpMemoryModel Physical64 OpenCL",
        "\"renamed_kernel\"",
        "LocalSize 8 4 1",
        "ContractionOff",
        "VecTypeHint 131077",
        "OpString \"kernel.cl\"",
        "OpSource OpenCL_C 200000 %",
        "OpSourceExtension \"cl_khr_fp64\"",
    ] {
        assert!(text.contains(want), "missing {want:?} in:\n{text}");
    }
}

#[test]
fn opencl_version_gives_llvm_spirv_15s_source() {
    let cl = scratch("version.cl");
    std::fs::write(
        &cl,
        "__kernel void k(__global int *p) { p[get_global_id(0)] = 1; }\n",
    )
    .unwrap();
    for std in ["CL1.2", "CL2.0", "CL3.0"] {
        let bc = cl.with_extension(format!("{std}.bc"));
        run(Command::new("clang-15")
            .args(["-cc1", "-triple", "spir64-unknown-unknown"])
            .arg(format!("-cl-std={std}"))
            .args(["-emit-llvm-bc", "-finclude-default-header", "-O2", "-o"])
            .arg(&bc)
            .arg(&cl))
        .unwrap();
        let theirs = bc.with_extension("ref.spv");
        run(Command::new("llvm-spirv-15")
            .arg(&bc)
            .arg("-o")
            .arg(&theirs))
        .unwrap();
        let ours = from_llvm(&bc).unwrap();
        let source = |t: &str| -> String {
            t.lines()
                .find(|l| l.contains("OpSource "))
                .unwrap_or("")
                .trim()
                .to_owned()
        };
        assert_eq!(source(&dis(&ours)), source(&dis(&theirs)), "{std}");
    }
}

/// Hand-written LLVM IR around one kernel, with extra named metadata.
fn kernel_ll(name: &str, metadata: &str) -> PathBuf {
    let ll = scratch(&format!("{name}.ll"));
    std::fs::write(
        &ll,
        format!(
            "target triple = \"spir64-unknown-unknown\"\n\
             define spir_kernel void @impl() {{\n  ret void\n}}\n{metadata}\n"
        ),
    )
    .unwrap();
    ll
}

#[test]
fn entry_point_names_and_modes_come_from_the_metadata() {
    let ll = kernel_ll(
        "entry_name",
        "!spirv.EntryPoint = !{!0}\n!spirv.ExecutionMode = !{!1}\n\
         !0 = !{i32 6, ptr @impl, !\"public_name\"}\n!1 = !{ptr @impl, i32 18, i32 2, i32 2, i32 1}",
    );
    let spv = from_llvm(&ll).unwrap();
    opencl::spirv_val(&spv, "opencl2.0").unwrap();
    let text = dis(&spv);
    assert!(
        text.contains("OpEntryPoint Kernel %") && text.contains("\"public_name\""),
        "{text}"
    );
    assert!(text.contains("LocalSizeHint 2 2 1"), "{text}");
}

#[test]
fn malformed_metadata_is_an_error() {
    for (name, md, want) in [
        (
            "bad_mode",
            "!spirv.ExecutionMode = !{!0}\n!0 = !{ptr @impl, i32 17, i32 1}",
            "is not an execution mode",
        ),
        (
            "bad_model",
            "!spirv.MemoryModel = !{!0}\n!0 = !{i32 1, i32 2}",
            "!spirv.MemoryModel says Physical32, the target triple Physical64",
        ),
    ] {
        let e = from_llvm(&kernel_ll(name, md)).unwrap_err();
        assert!(e.contains(want), "{name}: {e}");
    }
}
