//! `spvkit run` on the command line: argument and job errors, reported with their place.
#![cfg(all(feature = "run", feature = "cli"))]

use std::process::Command;

fn spvkit_run(spv: &str, job_text: &str) -> (i32, String, String) {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-run");
    std::fs::create_dir_all(&dir).unwrap();
    let job = dir.join(format!("{}.job.json", job_text.len()));
    std::fs::write(&job, job_text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_spvkit"))
        .args(["run", spv, "--job"])
        .arg(&job)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn saxpy_spv() -> String {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-run");
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("saxpy.spv");
    let src = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/corpus/compute/saxpy.comp"
    );
    let status = Command::new("glslangValidator")
        .args(["-V", "--target-env", "vulkan1.1", src, "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(status.status.success());
    out.to_string_lossy().into_owned()
}

#[test]
fn job_errors_name_the_file_key_and_index() {
    let spv = saxpy_spv();
    let (code, stdout, stderr) = spvkit_run(
        &spv,
        r#"{"dispatch": [1], "buffers": [{"binding": 0, "layout": ["f32"], "data": [1, "one"]}]}"#,
    );
    assert_eq!(code, 1);
    assert!(stdout.is_empty());
    assert!(
        stderr.contains(".job.json: error: buffers[0].data[1]: expected a number, \"nan\", \"inf\" or \"-inf\", found \"one\""),
        "{stderr}"
    );
    let (code, _, stderr) = spvkit_run(&spv, r#"{"dispatch": [1], "spec_constants": {"9": 1}}"#);
    assert_eq!(code, 1);
    assert!(
        stderr.contains("spec_constants.9: the module has no constant with this SpecId"),
        "{stderr}"
    );
}

#[test]
fn a_missing_input_is_an_error() {
    let (code, _, stderr) = spvkit_run("/nonexistent.spv", r#"{"dispatch": [1]}"#);
    assert_eq!(code, 1);
    assert!(stderr.starts_with("/nonexistent.spv: error:"), "{stderr}");
}
