//! The `spvkit` command line: files and standard streams, exit codes, and error locations.
#![cfg(feature = "cli")]

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn spvkit(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_spvkit"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
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
