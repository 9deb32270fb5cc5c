//! `docs/job.schema.json` describes the job format of `spvkit run`: every job in the tests and
//! the README passes both the schema (checked by Python's `jsonschema`, Draft 2020-12) and the
//! parser (`Job::from_json`), and malformed jobs fail both.
#![cfg(feature = "run")]

use spvkit::run::Job;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every `*job*.json` under `dir`.
fn job_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            job_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "json")
            && p.file_name().unwrap().to_string_lossy().contains("job")
        {
            out.push(p);
        }
    }
}

/// The README's ```json blocks that are jobs (they name `dispatch` or `global_size`).
fn readme_jobs() -> Vec<String> {
    let md = std::fs::read_to_string(root().join("README.md")).unwrap();
    let mut jobs = Vec::new();
    let mut cur: Option<String> = None;
    for line in md.lines() {
        match &mut cur {
            None if line.starts_with("```json") => cur = Some(String::new()),
            Some(b) if line.starts_with("```") => {
                if b.contains("\"dispatch\"") || b.contains("\"global_size\"") {
                    jobs.push(std::mem::take(b));
                }
                cur = None;
            }
            Some(b) => {
                b.push_str(line);
                b.push('\n');
            }
            None => {}
        }
    }
    jobs
}

/// The schema's verdict on each text: `None` if valid, else the first error.
fn schema_verdicts(tag: &str, texts: &[String]) -> Vec<Option<String>> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("job_schema")
        .join(tag);
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = Vec::new();
    for (i, t) in texts.iter().enumerate() {
        let p = dir.join(format!("{i}.json"));
        std::fs::write(&p, t).unwrap();
        files.push(p);
    }
    let script = "import json, sys, jsonschema\n\
                  schema = json.load(open(sys.argv[1]))\n\
                  jsonschema.Draft202012Validator.check_schema(schema)\n\
                  v = jsonschema.Draft202012Validator(schema)\n\
                  for f in sys.argv[2:]:\n\
                  \x20   e = next(iter(v.iter_errors(json.load(open(f)))), None)\n\
                  \x20   print('ok' if e is None else 'error: ' + e.message.replace('\\n', ' '))\n";
    let out = Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(root().join("docs/job.schema.json"))
        .args(&files)
        .output()
        .expect("python3 (scripts/setup.sh installs jsonschema)");
    assert!(
        out.status.success(),
        "the schema check failed (is Python's jsonschema installed? scripts/setup.sh):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let verdicts: Vec<Option<String>> = text
        .lines()
        .map(|l| (l != "ok").then(|| l.to_owned()))
        .collect();
    assert_eq!(verdicts.len(), texts.len());
    verdicts
}

#[test]
fn every_job_of_the_tests_and_readme_fits_schema_and_parser() {
    let mut files = Vec::new();
    job_files(&root().join("tests"), &mut files);
    files.sort();
    assert!(files.len() > 100, "only {} job files", files.len());
    let mut names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    let mut texts: Vec<String> = files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    for (i, j) in readme_jobs().into_iter().enumerate() {
        names.push(format!("README job {i}"));
        texts.push(j);
    }
    assert!(names.iter().any(|n| n.starts_with("README")));
    let verdicts = schema_verdicts("all", &texts);
    let mut problems = Vec::new();
    for ((name, text), verdict) in names.iter().zip(&texts).zip(&verdicts) {
        if let Some(e) = verdict {
            problems.push(format!("{name}: schema: {e}"));
        }
        if let Err(e) = Job::from_json(text) {
            problems.push(format!("{name}: parser: {e}"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn malformed_jobs_fail_schema_and_parser_alike() {
    let buffer = r#"{"set": 0, "binding": 0, "layout": ["u32"], "data": [1]}"#;
    let good = [
        format!(r#"{{"dispatch": [1], "buffers": [{buffer}]}}"#),
        format!(r#"{{"dispatch": [2, 1], "x-note": "annotation", "buffers": [{buffer}]}}"#),
        r#"{"global_size": [8], "local_size": [4], "args": [
            {"kind": "buffer", "layout": ["f32"], "data": [1.5, "nan"]},
            {"kind": "scalar", "type": "i32", "value": -3},
            {"kind": "local", "size_bytes": 64},
            {"kind": "struct", "layout": ["u8", "u32"], "value": [1, 2]}]}"#
            .to_owned(),
    ];
    let bad = [
        // A misspelt key.
        format!(r#"{{"dispatch": [1], "lokal_size": [4], "buffers": [{buffer}]}}"#),
        // An unknown key in a buffer.
        r#"{"dispatch": [1], "buffers": [{"binding": 0, "layout": ["u32"], "size": 4}]}"#
            .to_owned(),
        // A buffer without its binding.
        r#"{"dispatch": [1], "buffers": [{"layout": ["u32"], "data": [1]}]}"#.to_owned(),
        // Both ways of giving the grid.
        r#"{"dispatch": [1], "global_size": [4], "local_size": [4]}"#.to_owned(),
        // Neither.
        format!(r#"{{"buffers": [{buffer}]}}"#),
        // A layout type that does not exist.
        r#"{"dispatch": [1], "buffers": [{"binding": 0, "layout": ["u33"], "data": [1]}]}"#
            .to_owned(),
        // Four grid components.
        format!(r#"{{"dispatch": [1, 1, 1, 1], "buffers": [{buffer}]}}"#),
        // A local argument without its size.
        r#"{"global_size": [4], "local_size": [4], "args": [{"kind": "local"}]}"#.to_owned(),
        // An argument kind that does not exist.
        r#"{"global_size": [4], "local_size": [4], "args": [{"kind": "image"}]}"#.to_owned(),
    ];
    let all: Vec<String> = good.iter().chain(&bad).cloned().collect();
    let verdicts = schema_verdicts("malformed", &all);
    for (i, text) in all.iter().enumerate() {
        let schema_ok = verdicts[i].is_none();
        let parser = Job::from_json(text);
        let want = i < good.len();
        assert_eq!(schema_ok, want, "schema on {text}: {:?}", verdicts[i]);
        assert_eq!(parser.is_ok(), want, "parser on {text}: {:?}", parser.err());
    }
}
