//! The `spvkit` command line: files and standard streams, exit codes, and error locations.
#![cfg(feature = "cli")]

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn spvkit(args: &[&str], stdin: &[u8]) -> Output {
    run(env!("CARGO_BIN_EXE_spvkit"), args, stdin)
}

fn hlsl2spirv(args: &[&str], stdin: &[u8]) -> Output {
    run(env!("CARGO_BIN_EXE_hlsl2spirv"), args, stdin)
}

/// Runs `program` with `args`, `stdin` on its standard input, collecting its output.
fn run(program: &str, args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A command that fails before reading its input closes the pipe: not an error here.
    let _ = child.stdin.take().unwrap().write_all(stdin);
    child.wait_with_output().unwrap()
}

fn example() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/hello.spvasm"
    ))
    .unwrap()
}

fn scratch() -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("spvkit-cli-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn as_and_dis_through_standard_streams_match_spirv_tools() {
    let text = example();
    let out = spvkit(
        &["as", "--target-env", "vulkan1.0", "-", "-o", "-"],
        text.as_bytes(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dir = scratch();
    std::fs::write(dir.join("x.spvasm"), &text).unwrap();
    let st = Command::new("spirv-as")
        .args(["--target-env", "vulkan1.0", "-o"])
        .arg(dir.join("ref.spv"))
        .arg(dir.join("x.spvasm"))
        .status()
        .expect("spirv-as is needed (bash scripts/setup.sh)");
    assert!(st.success());
    assert_eq!(out.stdout, std::fs::read(dir.join("ref.spv")).unwrap());

    let dis = spvkit(&["dis", "-"], &out.stdout);
    assert!(dis.status.success());
    let reference = Command::new("spirv-dis")
        .arg(dir.join("ref.spv"))
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(dis.stdout).unwrap(),
        String::from_utf8(reference.stdout).unwrap()
    );

    let raw = spvkit(
        &[
            "dis",
            "--raw-id",
            "--no-header",
            "-",
            "-o",
            dir.join("raw.txt").to_str().unwrap(),
        ],
        &out.stdout,
    );
    assert!(raw.status.success());
    let reference = Command::new("spirv-dis")
        .args(["--raw-id", "--no-header"])
        .arg(dir.join("ref.spv"))
        .output()
        .unwrap();
    assert_eq!(
        std::fs::read(dir.join("raw.txt")).unwrap(),
        reference.stdout
    );
}

#[test]
fn text_errors_name_file_line_and_column() {
    let dir = scratch();
    let path = dir.join("bad.spvasm");
    std::fs::write(
        &path,
        "OpCapability Shader\n     OpMemoryModel Logical GLSL451\n",
    )
    .unwrap();
    let out = spvkit(&["as", path.to_str().unwrap(), "-o", "-"], b"");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with(&format!("{}:2:", path.display())), "{err}");
    assert!(err.contains("error:") && err.contains("GLSL451"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn binary_errors_name_file_and_word() {
    // A header, then an instruction whose word count runs past the end.
    let words: [u32; 6] = [0x0723_0203, 0x0001_0000, 0, 5, 0, 0x0009_0011];
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let out = spvkit(&["dis", "-"], &bytes);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with("<stdin>: word 5: error:"), "{err}");
    let out = spvkit(&["dis", "/nonexistent/x.spv"], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .starts_with("/nonexistent/x.spv: error:"));
}

#[test]
fn bad_usage_exits_with_one_and_help_with_zero() {
    assert_eq!(spvkit(&["frobnicate"], b"").status.code(), Some(1));
    assert_eq!(
        spvkit(&["as", "--target-env", "vulkan9.9", "-"], b"")
            .status
            .code(),
        Some(1)
    );
    let help = spvkit(&["--help"], b"");
    assert_eq!(help.status.code(), Some(0));
    assert!(String::from_utf8(help.stdout).unwrap().contains("dis"));
}

#[test]
fn ir_prints_a_binary_as_ir() {
    let bin = spvkit(
        &["as", "--target-env", "vulkan1.0", "-", "-o", "-"],
        example().as_bytes(),
    );
    assert!(bin.status.success());
    let out = spvkit(&["ir", "-"], &bin.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {"),
        "{text}"
    );
    assert!(text.contains("spirv.func @main() -> void"), "{text}");
    assert!(
        text.contains("spirv.EntryPoint \"GLCompute\" @main"),
        "{text}"
    );
    // A truncated module: exit code 1 and the word where it breaks.
    let bad = spvkit(&["ir", "-"], &bin.stdout[..bin.stdout.len() - 8]);
    assert_eq!(bad.status.code(), Some(1));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("<stdin>: word "), "{err}");
}

#[test]
fn opt_round_trips_through_the_ir_and_update_vce_trims_the_header() {
    // hello.spvasm declares only what it needs; add an unused capability and a newer version.
    let text = example().replacen(
        "OpCapability Shader",
        "OpCapability Shader\nOpCapability Int64",
        1,
    );
    let bin = spvkit(
        &["as", "--target-env", "spv1.3", "-", "-o", "-"],
        text.as_bytes(),
    );
    assert!(
        bin.status.success(),
        "{}",
        String::from_utf8_lossy(&bin.stderr)
    );
    let dir = scratch();
    let input = dir.join("opt-in.spv");
    std::fs::write(&input, &bin.stdout).unwrap();

    let plain = dir.join("opt-plain.spv");
    let out = spvkit(
        &[
            "opt",
            input.to_str().unwrap(),
            "-o",
            plain.to_str().unwrap(),
        ],
        b"",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dis = |p: &std::path::Path| {
        let o = Command::new("spirv-dis").arg(p).output().unwrap();
        assert!(o.status.success());
        String::from_utf8(o.stdout).unwrap()
    };
    let val = |p: &std::path::Path| {
        let o = Command::new("spirv-val").arg(p).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    val(&plain);
    let plain_text = dis(&plain);
    assert!(plain_text.contains("OpCapability Int64"), "{plain_text}");
    assert!(plain_text.contains("; Version: 1.3"), "{plain_text}");

    let trimmed = dir.join("opt-vce.spv");
    let out = spvkit(
        &[
            "opt",
            "--update-vce",
            input.to_str().unwrap(),
            "-o",
            trimmed.to_str().unwrap(),
        ],
        b"",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    val(&trimmed);
    let trimmed_text = dis(&trimmed);
    assert!(
        !trimmed_text.contains("OpCapability Int64"),
        "{trimmed_text}"
    );
    assert!(
        trimmed_text.contains("OpCapability Shader"),
        "{trimmed_text}"
    );
    assert!(trimmed_text.contains("; Version: 1.0"), "{trimmed_text}");

    // Bad input: exit 1 with the word offset.
    let bad = spvkit(
        &["opt", "-", "-o", "-"],
        &bin.stdout[..bin.stdout.len() - 8],
    );
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("<stdin>: word "));
}

#[test]
fn opt_recipes_run_in_command_line_order_and_unknown_levels_are_refused() {
    let bin = spvkit(
        &["as", "--target-env", "spv1.3", "-", "-o", "-"],
        example().as_bytes(),
    );
    assert!(bin.status.success());
    let dir = scratch();
    let input = dir.join("opt-recipe-in.spv");
    std::fs::write(&input, &bin.stdout).unwrap();
    for flags in [
        &["-O"][..],
        &["-Os"],
        &["--legalize-hlsl"],
        &["--legalize-hlsl", "-O", "--eliminate-dead-code"],
    ] {
        let out_path = dir.join("opt-recipe-out.spv");
        let mut args = vec!["opt", "--print-pass-times"];
        args.extend_from_slice(flags);
        args.extend([input.to_str().unwrap(), "-o", out_path.to_str().unwrap()]);
        let out = spvkit(&args, b"");
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{flags:?}: {err}");
        let o = Command::new("spirv-val").arg(&out_path).output().unwrap();
        assert!(
            o.status.success(),
            "{flags:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        // Each pass of the recipes reports its time, in order: -O starts by inlining.
        let first = err.lines().next().unwrap_or_default();
        assert!(
            first.starts_with("inline-entry-points-exhaustive: "),
            "{flags:?}: {err}"
        );
        let count = err.lines().count();
        let want = match flags {
            ["-O"] => spvkit::opt::PERFORMANCE.len(),
            ["-Os"] => spvkit::opt::SIZE.len(),
            ["--legalize-hlsl"] => spvkit::opt::LEGALIZE_HLSL.len(),
            _ => spvkit::opt::LEGALIZE_HLSL.len() + spvkit::opt::PERFORMANCE.len() + 1,
        };
        assert_eq!(count, want, "{flags:?}: {err}");
        assert!(
            err.lines().last().unwrap().starts_with(match flags.last() {
                Some(&"--eliminate-dead-code") => "eliminate-dead-code: ",
                _ => "eliminate-dead-types-and-constants: ",
            }),
            "{flags:?}: {err}"
        );
    }
    let out = spvkit(&["opt", "-O3", input.to_str().unwrap(), "-o", "-"], b"");
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

const COMPUTE: &str = "RWStructuredBuffer<uint> buf;\n\
[numthreads(4, 1, 1)] void main(uint3 id : SV_DispatchThreadID) { buf[id.x] = id.x * 2; }\n";

#[test]
fn hlsl2spirv_reads_standard_input_and_writes_standard_output() {
    let out = hlsl2spirv(
        &["-", "-T", "cs_6_0", "-E", "main", "-Fo", "-"],
        COMPUTE.as_bytes(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(&out.stdout[..4], &0x0723_0203u32.to_le_bytes());
    let dir = scratch();
    let spv = dir.join("stdin.spv");
    std::fs::write(&spv, &out.stdout).unwrap();
    let val = Command::new("spirv-val").arg(&spv).output().unwrap();
    assert!(
        val.status.success(),
        "{}",
        String::from_utf8_lossy(&val.stderr)
    );
    // No file named `-` was written.
    assert!(!std::path::Path::new("-").exists());
    // Diagnostics about standard input name it `<stdin>`.
    let bad = hlsl2spirv(
        &["-", "-T", "cs_6_0"],
        b"[numthreads(1,1,1)] void main() { y = 1; }\n",
    );
    assert_eq!(bad.status.code(), Some(1));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(
        err.starts_with("<stdin>:1:35: error: use of undeclared identifier 'y'"),
        "{err}"
    );
    // `spvkit hlsl` is the same program.
    let sub = spvkit(
        &["hlsl", "-", "-T", "cs_6_0", "-Fo", "-"],
        COMPUTE.as_bytes(),
    );
    assert!(sub.status.success());
    assert_eq!(sub.stdout, out.stdout);
}

#[test]
fn hlsl2spirv_help_lists_dxc_groups_and_version_prints() {
    for flag in ["-help", "--help", "-h", "-?"] {
        let out = hlsl2spirv(&[flag], b"");
        assert_eq!(out.status.code(), Some(0), "{flag}");
        let help = String::from_utf8(out.stdout).unwrap();
        for group in [
            "Common Options:",
            "Compilation Options:",
            "Optimization Options:",
            "SPIR-V CodeGen Options:",
            "Utility Options:",
        ] {
            assert!(help.contains(group), "{flag}: {help}");
        }
        for f in [
            "-Fo <file>",
            "-fspv-target-env=",
            "-fvk-use-scalar-layout",
            "-O3",
            "-Zi",
        ] {
            assert!(help.contains(f), "{f}: {help}");
        }
    }
    // `spvkit hlsl --help` is the same help, not clap's.
    let sub = spvkit(&["hlsl", "--help"], b"");
    assert_eq!(sub.status.code(), Some(0));
    assert_eq!(sub.stdout, hlsl2spirv(&["-help"], b"").stdout);
    for flag in ["--version", "-version"] {
        let out = hlsl2spirv(&[flag], b"");
        assert_eq!(out.status.code(), Some(0));
        assert_eq!(
            String::from_utf8(out.stdout).unwrap(),
            format!("hlsl2spirv (spvkit) {}\n", env!("CARGO_PKG_VERSION"))
        );
    }
}

#[test]
fn hlsl2spirv_accepts_flags_that_keep_the_spir_v_and_refuses_the_others() {
    let plain = hlsl2spirv(&["-", "-T", "cs_6_0", "-Fo", "-"], COMPUTE.as_bytes());
    assert!(plain.status.success());
    // -O3 (the default), -Zi, -nologo: same binary; a note for each flag with no effect.
    let noted = hlsl2spirv(
        &["-", "-T", "cs_6_0", "-O3", "-Zi", "-nologo", "-Fo", "-"],
        COMPUTE.as_bytes(),
    );
    assert!(noted.status.success());
    assert_eq!(noted.stdout, plain.stdout);
    let err = String::from_utf8(noted.stderr).unwrap();
    assert!(!err.contains("-O3"), "{err}");
    assert!(err.contains("note: -Zi: "), "{err}");
    assert!(!err.contains("-nologo"), "{err}");
    // Flags that would change the output are refused, by name.
    for flag in ["-Lx", "-Cc"] {
        let out = hlsl2spirv(&["-", "-T", "cs_6_0", flag], COMPUTE.as_bytes());
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(
            String::from_utf8(out.stderr).unwrap(),
            format!("error: not supported yet: {flag}\n")
        );
        assert!(out.stdout.is_empty());
    }
    // The heap flags place only the descriptor heaps, which are refused: the same module,
    // and invalid or missing values are errors.
    let heaps = hlsl2spirv(
        &[
            "-",
            "-T",
            "cs_6_0",
            "-fvk-bind-counter-heap",
            "1",
            "0",
            "-Fo",
            "-",
        ],
        COMPUTE.as_bytes(),
    );
    assert!(heaps.status.success() && heaps.stderr.is_empty());
    assert_eq!(heaps.stdout, plain.stdout);
    for bad in [
        &["-fvk-bind-resource-heap", "a", "2"][..],
        &["-fvk-bind-sampler-heap", "1", "-1"],
        &["-fvk-bind-counter-heap", "1"],
    ] {
        let mut a = vec!["-", "-T", "cs_6_0"];
        a.extend_from_slice(bad);
        let out = hlsl2spirv(&a, COMPUTE.as_bytes());
        assert_eq!(out.status.code(), Some(1), "{bad:?}");
        assert!(
            String::from_utf8(out.stderr)
                .unwrap()
                .starts_with("error: "),
            "{bad:?}"
        );
    }
    // -fspv-preserve-interface: a note (every stage variable is kept already).
    let kept = hlsl2spirv(
        &["-", "-T", "cs_6_0", "-fspv-preserve-interface", "-Fo", "-"],
        COMPUTE.as_bytes(),
    );
    assert_eq!(kept.stdout, plain.stdout);
    assert!(String::from_utf8(kept.stderr)
        .unwrap()
        .starts_with("note: -fspv-preserve-interface: "));
    // A layout flag changes the output: -fvk-use-scalar-layout packs the buffer's uints the
    // same, so the binary is the same here, but it is accepted.
    let scalar = hlsl2spirv(
        &["-", "-T", "cs_6_0", "-fvk-use-scalar-layout", "-Fo", "-"],
        COMPUTE.as_bytes(),
    );
    assert!(scalar.status.success() && scalar.stderr.is_empty());
    // vulkan1.1spirv1.4 is a target environment; its output validates there.
    let v14 = hlsl2spirv(
        &[
            "-",
            "-T",
            "cs_6_0",
            "-fspv-target-env=vulkan1.1spirv1.4",
            "-Fo",
            "-",
        ],
        COMPUTE.as_bytes(),
    );
    assert!(
        v14.status.success(),
        "{}",
        String::from_utf8_lossy(&v14.stderr)
    );
    let dir = scratch();
    std::fs::write(dir.join("v14.spv"), &v14.stdout).unwrap();
    let val = Command::new("spirv-val")
        .args(["--target-env", "vulkan1.1spv1.4"])
        .arg(dir.join("v14.spv"))
        .output()
        .unwrap();
    assert!(
        val.status.success(),
        "{}",
        String::from_utf8_lossy(&val.stderr)
    );
    // universal1.5: SPIR-V 1.5, valid in spv1.5.
    let u15 = hlsl2spirv(
        &[
            "-",
            "-T",
            "cs_6_0",
            "-fspv-target-env=universal1.5",
            "-Fo",
            "-",
        ],
        COMPUTE.as_bytes(),
    );
    assert!(
        u15.status.success(),
        "{}",
        String::from_utf8_lossy(&u15.stderr)
    );
    assert_eq!(&u15.stdout[4..8], &0x0001_0500u32.to_le_bytes());
    std::fs::write(dir.join("u15.spv"), &u15.stdout).unwrap();
    let val = Command::new("spirv-val")
        .args(["--target-env", "spv1.5"])
        .arg(dir.join("u15.spv"))
        .output()
        .unwrap();
    assert!(
        val.status.success(),
        "{}",
        String::from_utf8_lossy(&val.stderr)
    );
    // -fspv-entrypoint-name renames the entry point; -Fc writes the listing.
    let listing = dir.join("listing.spvasm");
    let out = hlsl2spirv(
        &[
            "-",
            "-T",
            "cs_6_0",
            "-fspv-entrypoint-name=go",
            "-Fc",
            listing.to_str().unwrap(),
        ],
        COMPUTE.as_bytes(),
    );
    assert!(out.status.success() && out.stdout.is_empty());
    let text = std::fs::read_to_string(&listing).unwrap();
    assert!(
        text.contains("OpEntryPoint GLCompute %main \"go\""),
        "{text}"
    );
}

#[test]
fn a_missing_entry_point_names_the_file_without_a_caret() {
    let dir = scratch();
    let src = dir.join("entry.hlsl");
    std::fs::write(&src, COMPUTE).unwrap();
    let out = hlsl2spirv(&[src.to_str().unwrap(), "-T", "cs_6_0", "-E", "nope"], b"");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err,
        format!(
            "{}: error: missing entry point definition 'nope'\n",
            src.display()
        )
    );
    assert!(!err.contains(":1:1") && !err.contains('^'), "{err}");
}

#[test]
fn spvkit_without_arguments_prints_help_on_standard_output_and_exits_2() {
    let out = spvkit(&[], b"");
    assert_eq!(out.status.code(), Some(2));
    let help = String::from_utf8(out.stdout).unwrap();
    assert!(
        help.contains("Usage: spvkit") && help.contains("completions"),
        "{help}"
    );
    assert!(out.stderr.is_empty());
    let version = spvkit(&["--version"], b"");
    assert_eq!(version.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(version.stdout).unwrap(),
        format!("spvkit {}\n", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn completions_and_man_pages_come_from_the_command_line_definition() {
    let bash = spvkit(&["completions", "bash"], b"");
    assert_eq!(bash.status.code(), Some(0));
    let script = String::from_utf8(bash.stdout).unwrap();
    assert!(
        script.contains("spvkit") && script.contains("complete"),
        "{script}"
    );
    assert!(script.contains("--relax-block-layout"), "{script}");
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let out = spvkit(&["completions", shell], b"");
        assert!(out.status.success() && !out.stdout.is_empty(), "{shell}");
    }
    assert_eq!(spvkit(&["completions", "tcsh"], b"").status.code(), Some(1));

    let dir = scratch().join("man");
    let _ = std::fs::remove_dir_all(&dir);
    let out = spvkit(&["man", "-o", dir.to_str().unwrap()], b"");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let top = std::fs::read_to_string(dir.join("spvkit.1")).unwrap();
    assert!(
        top.starts_with(".ie") || top.contains(".TH spvkit"),
        "{top}"
    );
    assert!(top.contains(".TH spvkit"), "{top}");
    let val = std::fs::read_to_string(dir.join("spvkit-val.1")).unwrap();
    assert!(
        val.contains("spvkit\\-val") && val.contains("relax\\-block\\-layout"),
        "{val}"
    );
    assert!(dir.join("spvkit-dis.1").exists() && dir.join("spvkit-hlsl.1").exists());
}

/// `hello.spvasm` with a Vulkan 1.0 uniform block whose vec3 member sits at offset 4: valid
/// only under the relaxed (or scalar) block layout.
fn relaxed_block_module() -> Vec<u8> {
    let text = "OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main \"main\"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %S Block
OpMemberDecorate %S 0 Offset 0
OpMemberDecorate %S 1 Offset 4
OpDecorate %u DescriptorSet 0
OpDecorate %u Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v3 = OpTypeVector %float 3
%S = OpTypeStruct %float %v3
%ptr = OpTypePointer Uniform %S
%u = OpVariable %ptr Uniform
%main = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
";
    let out = spvkit(
        &["as", "--target-env", "vulkan1.0", "-", "-o", "-"],
        text.as_bytes(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
fn val_takes_spirv_vals_flags_and_agrees_with_it() {
    let bin = relaxed_block_module();
    let dir = scratch();
    let path = dir.join("relaxed.spv");
    std::fs::write(&path, &bin).unwrap();
    let reference = |flags: &[&str]| {
        Command::new("spirv-val")
            .args(["--target-env", "vulkan1.0"])
            .args(flags)
            .arg(&path)
            .output()
            .unwrap()
            .status
            .success()
    };
    // The flag, and whether the module is valid with it.
    for (flags, valid) in [
        (&[][..], false),
        (&["--relax-block-layout"], true),
        (&["--scalar-block-layout"], true),
        (&["--skip-block-layout"], true),
        (&["--uniform-buffer-standard-layout"], false),
        (&["--allow-localsizeid"], false),
    ] {
        assert_eq!(reference(flags), valid, "spirv-val {flags:?}");
        let mut args = vec!["val", "--target-env", "vulkan1.0"];
        args.extend(flags);
        args.push("-");
        let out = spvkit(&args, &bin);
        assert_eq!(
            out.status.success(),
            reference(flags),
            "{flags:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // Flags the validator cannot honour yet are refused by name, never ignored.
    for flag in [
        "--relax-struct-store",
        "--relax-logical-pointer",
        "--before-hlsl-legalization",
        "--max-struct-members=10",
        "--max-id-bound=100",
    ] {
        let out = spvkit(&["val", flag, "-"], &bin);
        assert_eq!(out.status.code(), Some(1));
        let name = flag.split('=').next().unwrap();
        assert_eq!(
            String::from_utf8(out.stderr).unwrap(),
            format!("error: not supported yet: {name}\n")
        );
    }
}

#[test]
fn text_given_to_dis_or_val_says_it_looks_like_assembly() {
    for cmd in ["dis", "val", "ir"] {
        let out = spvkit(&[cmd, "-"], example().as_bytes());
        assert_eq!(out.status.code(), Some(1));
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.starts_with("<stdin>: error: this looks like SPIR-V assembly text")
                && err.contains("spvkit as"),
            "{cmd}: {err}"
        );
    }
    // Binary garbage is still a bad magic number.
    let out = spvkit(&["dis", "-"], &[0xff, 0xfe, 0, 1, 2, 3, 4, 5]);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with("<stdin>: word 0: error:"), "{err}");
}

/// `-verify` checks the diagnostics against the source's `expected-*` comments, as DXC (after
/// clang) does: it succeeds when they match, and lists what differs when they do not.
#[test]
fn hlsl2spirv_verify_checks_expected_diagnostics() {
    let dir = scratch();
    let good = dir.join("verify-good.hlsl");
    std::fs::write(
        &good,
        "[numthreads(1, 1, 1)] void main() {\n\
         y = 1; // expected-error {{use of undeclared identifier 'y'}}\n\
         // expected-error@+1 {{invalid operands of types}}\n\
         float2 v; int2x2 m; v = v + m; }\n",
    )
    .unwrap();
    let out = hlsl2spirv(&[good.to_str().unwrap(), "-T", "cs_6_0", "-verify"], b"");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let quiet = dir.join("verify-quiet.hlsl");
    std::fs::write(&quiet, format!("// expected-no-diagnostics\n{COMPUTE}")).unwrap();
    let spv = dir.join("verify-quiet.spv");
    let args = [
        quiet.to_str().unwrap(),
        "-T",
        "cs_6_0",
        "-verify",
        "-Fo",
        spv.to_str().unwrap(),
    ];
    assert!(hlsl2spirv(&args, b"").status.success());
    assert!(spv.exists());
    let bad = dir.join("verify-bad.hlsl");
    std::fs::write(
        &bad,
        "[numthreads(1, 1, 1)] void main() {\n\
         y = 1; // expected-error {{something else}}\n}\n",
    )
    .unwrap();
    let out = hlsl2spirv(&[bad.to_str().unwrap(), "-T", "cs_6_0", "-verify"], b"");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("'error' diagnostics expected but not seen:")
            && err.contains("Line 2: something else")
            && err.contains("'error' diagnostics seen but not expected:")
            && err.contains("Line 2: use of undeclared identifier 'y'"),
        "{err}"
    );
}
