//! The Itanium demangler against llvm-cxxfilt (LLVM 19's demangler), on every mangled name the
//! SPIRV-LLVM-Translator test suite declares or defines: where spvkit reads a name, its
//! qualified name and parameter count are llvm-cxxfilt's; and it reads nearly all of them.
#![cfg(feature = "llvm")]

use spvkit::from_llvm::mangle::demangle;
use std::collections::BTreeSet;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

const SUITE: &str = "../shared/conformance/spirv-llvm-translator";

/// Every `@_Z...` name in the suite's `.ll` files.
fn suite_names() -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut stack = vec![Path::new(SUITE).to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "ll") {
                let text = std::fs::read_to_string(&p).unwrap_or_default();
                for (i, _) in text.match_indices("@_Z") {
                    let rest = &text[i + 1..];
                    let end = rest
                        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
                        .unwrap_or(rest.len());
                    names.insert(rest[..end].to_owned());
                }
            }
        }
    }
    names
}

/// The name and parameter count of llvm-cxxfilt's `ret name<args>(params) quals`, with
/// template arguments removed from the name; `None` for non-functions.
fn cxxfilt_shape(s: &str) -> Option<(String, usize)> {
    let s = s.trim_end_matches(" const").trim_end_matches(" volatile");
    if !s.ends_with(')') {
        return None;
    }
    // The '(' matching the final ')'.
    let bytes = s.as_bytes();
    let mut depth = 0i32;
    let mut open = None;
    for i in (0..bytes.len()).rev() {
        match bytes[i] {
            b')' => depth += 1,
            b'(' => {
                depth -= 1;
                if depth == 0 {
                    open = Some(i);
                    break;
                }
            }
            _ => {}
        }
    }
    let open = open?;
    let params = &s[open + 1..s.len() - 1];
    let count = if params.is_empty() {
        0
    } else {
        let mut d = 0i32;
        1 + params
            .bytes()
            .filter(|&b| {
                match b {
                    b'(' | b'<' | b'[' => d += 1,
                    b')' | b'>' | b']' => d -= 1,
                    _ => {}
                }
                b == b',' && d == 0
            })
            .count()
    };
    // The name: template arguments removed, then what follows the return type.
    let mut name = String::new();
    let mut d = 0i32;
    for c in s[..open].chars() {
        match c {
            '<' => d += 1,
            '>' => d -= 1,
            _ if d == 0 => name.push(c),
            _ => {}
        }
    }
    let name = name.rsplit(' ').next()?.to_owned();
    Some((name, count))
}

#[test]
fn demangler_agrees_with_llvm_cxxfilt() {
    if !Path::new(SUITE).is_dir() {
        panic!("{SUITE} is missing: the demangler's oracle test reads the translator's suite");
    }
    let names: Vec<String> = suite_names().into_iter().collect();
    assert!(names.len() > 1500, "{} names", names.len());
    let mut child = Command::new("/usr/lib/llvm-19/bin/llvm-cxxfilt")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("llvm-cxxfilt (llvm-19) is the demangler's oracle; run scripts/setup.sh");
    {
        let mut stdin = child.stdin.take().unwrap();
        for n in &names {
            writeln!(stdin, "{n}").unwrap();
        }
    }
    let out = child.wait_with_output().unwrap();
    let lines: Vec<&str> = std::str::from_utf8(&out.stdout).unwrap().lines().collect();
    assert_eq!(lines.len(), names.len());
    let (mut compared, mut unread, mut disagree) = (0, Vec::new(), Vec::new());
    for (n, line) in names.iter().zip(&lines) {
        let special = ["typeinfo", "vtable", "guard variable"]
            .iter()
            .any(|p| line.starts_with(p));
        let oracle = cxxfilt_shape(line).filter(|_| line != n && !special);
        match (demangle(n), oracle) {
            (Some(d), Some((name, count))) => {
                // spvkit spells lambdas, constructors and other unnamed entities its own way.
                if d.name.contains('{') || name.contains('{') || name.contains('\'') {
                    continue;
                }
                compared += 1;
                if d.name != name || d.params.len() != count {
                    disagree.push(format!(
                        "{n}: spvkit {}({} params), llvm-cxxfilt {line}",
                        d.name,
                        d.params.len()
                    ));
                }
            }
            (None, Some(_)) => unread.push(format!("{n} = {line}")),
            _ => {}
        }
    }
    assert!(disagree.is_empty(), "{}", disagree.join("\n"));
    eprintln!(
        "demangler: {compared} names agree with llvm-cxxfilt, {} unread",
        unread.len()
    );
    assert!(
        unread.len() * 50 <= compared,
        "spvkit cannot read {} of the names llvm-cxxfilt reads:\n{}",
        unread.len(),
        unread.join("\n")
    );
}
