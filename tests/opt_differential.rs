//! The optimizer, differentially: random structured HLSL compute programs (a fixed seed per
//! program, so the same programs every run) compiled by spvkit's frontend compute the same
//! buffer unoptimized, after `-O` and after `--legalize-hlsl` under `spvkit run`, and every
//! optimized module passes spirv-val.
//!
//! The programs are well defined by construction, so any difference is the optimizer's:
//! integer arithmetic that wraps (no division), shifts masked below the width, every local
//! initialized, constant array indices in range, loops with constant trip counts. They mix
//! what the passes work on: helper functions with early returns (inlining, its one-trip
//! loops), struct, vector and array locals (scalar replacement, access-chain conversion),
//! `if`/`else`, `switch` with `break`s and loops (SSA phis, dead branches on constant
//! conditions, block merging), repeated subexpressions (redundancy elimination), constant
//! arithmetic (folding) and copies of buffer elements read at run-time indexes (copy
//! propagation of arrays and structs).

#![cfg(all(feature = "hlsl", feature = "run"))]

#[path = "support/compute.rs"]
mod compute;
#[path = "support/mutate.rs"]
mod mutate;

use mutate::Rng;
use spvkit::opt::{optimize, OptOptions};
use std::fmt::Write;

/// Programs checked per run.
const PROGRAMS: u64 = 200;

/// A random program's source and the words of its output buffer.
struct Gen {
    rng: Rng,
    out: String,
    /// Int locals in scope.
    vars: Vec<String>,
    /// Loop counters in scope: read, never assigned (every loop ends).
    counters: Vec<String>,
    next: usize,
    helpers: usize,
}

impl Gen {
    fn small(&mut self) -> i32 {
        self.rng.below(19) as i32 - 9
    }

    /// An int expression of depth at most `depth`.
    fn expr(&mut self, depth: usize) -> String {
        let leaf = depth == 0 || self.rng.below(3) == 0;
        if leaf {
            return match self.rng.below(4) {
                0 => self.small().to_string(),
                1 => {
                    let k = self.rng.below(8);
                    format!("In[{}].a[{}]", k / 4, k % 4)
                }
                2 if !self.counters.is_empty() => {
                    let i = self.rng.below(self.counters.len());
                    self.counters[i].clone()
                }
                _ => self.var().unwrap_or_else(|| "0".into()),
            };
        }
        let a = self.expr(depth - 1);
        let b = self.expr(depth - 1);
        match self.rng.below(12) {
            0 => format!("({a} + {b})"),
            1 => format!("({a} - {b})"),
            2 => format!("({a} * {b})"),
            3 => format!("({a} & {b})"),
            4 => format!("({a} | {b})"),
            5 => format!("({a} ^ {b})"),
            6 => format!("({a} << ({b} & 7))"),
            7 => format!("({a} >> ({b} & 7))"),
            8 => format!("(({a} < {b}) ? {a} : {b})"),
            9 => format!("max({a}, {b})"),
            10 if self.helpers > 0 => {
                let h = self.rng.below(self.helpers);
                format!("h{h}({a}, {b})")
            }
            _ => format!("abs({a})"),
        }
    }

    /// One of the locals in scope.
    fn var(&mut self) -> Option<String> {
        let i = self.rng.pick(&(0..self.vars.len()).collect::<Vec<_>>())?;
        Some(self.vars[i].clone())
    }

    fn line(&mut self, indent: usize, text: &str) {
        let _ = writeln!(self.out, "{}{text}", "    ".repeat(indent));
    }

    /// A block of statements; in a helper (`ret`), some return early.
    fn block(&mut self, indent: usize, depth: usize, ret: bool) {
        let n = 1 + self.rng.below(3);
        let scope = self.vars.len();
        for _ in 0..n {
            self.statement(indent, depth, ret);
        }
        self.vars.truncate(scope);
    }

    fn statement(&mut self, indent: usize, depth: usize, ret: bool) {
        let choice = if depth == 0 {
            self.rng.below(3)
        } else {
            self.rng.below(10)
        };
        match choice {
            0 => {
                let v = format!("v{}", self.next);
                self.next += 1;
                let e = self.expr(2);
                self.line(indent, &format!("int {v} = {e};"));
                self.vars.push(v);
            }
            1 | 2 => {
                if let Some(v) = self.var() {
                    let e = self.expr(2);
                    let op = self.rng.pick(&["=", "+=", "^=", "-="]).unwrap();
                    self.line(indent, &format!("{v} {op} {e};"));
                }
            }
            3 | 4 => {
                let c = self.expr(2);
                let k = self.small();
                // Sometimes a constant condition, for dead-branch elimination.
                let cond = if self.rng.below(4) == 0 {
                    format!("{} > 0", self.small())
                } else {
                    format!("{c} > {k}")
                };
                self.line(indent, &format!("if ({cond}) {{"));
                self.block(indent + 1, depth - 1, ret);
                if ret && self.rng.below(2) == 0 {
                    let e = self.expr(1);
                    self.line(indent + 1, &format!("return {e};"));
                }
                self.line(indent, "} else {");
                self.block(indent + 1, depth - 1, ret);
                self.line(indent, "}");
            }
            5 if !ret => {
                let i = format!("i{}", self.next);
                self.next += 1;
                let trips = 1 + self.rng.below(4);
                self.line(
                    indent,
                    &format!("for (int {i} = 0; {i} < {trips}; ++{i}) {{"),
                );
                self.counters.push(i);
                self.block(indent + 1, depth - 1, false);
                self.counters.pop();
                self.line(indent, "}");
            }
            6 => {
                let e = self.expr(2);
                self.line(indent, &format!("switch ({e} & 3) {{"));
                for case in ["case 0:", "case 2:", "default:"] {
                    self.line(indent + 1, &format!("{case} {{"));
                    self.block(indent + 2, depth - 1, false);
                    self.line(indent + 2, "break;");
                    self.line(indent + 1, "}");
                }
                self.line(indent, "}");
            }
            7 => {
                let (k, e) = (self.rng.below(4), self.expr(2));
                self.line(indent, &format!("arr[{k}] = {e};"));
                let v = format!("v{}", self.next);
                self.next += 1;
                let k2 = self.rng.below(4);
                self.line(indent, &format!("int {v} = arr[{k2}] + s.v.y;"));
                self.vars.push(v);
            }
            8 => {
                // A copy of read-only memory read at a run-time index (copy propagation).
                let (t, v) = (format!("t{}", self.next), format!("v{}", self.next + 1));
                self.next += 2;
                let (e, i) = (self.expr(1), self.expr(2));
                self.line(indent, &format!("T {t} = In[{e} & 1];"));
                self.line(indent, &format!("int {v} = {t}.a[{i} & 3];"));
                self.vars.push(v);
            }
            _ => {
                let e = self.expr(2);
                let f = self.rng.pick(&["s.x", "s.v.x", "s.v.y", "s.v"]).unwrap();
                if f == "s.v" {
                    self.line(indent, &format!("s.v = int2({e}, s.x);"));
                } else {
                    self.line(indent, &format!("{f} = {e};"));
                }
            }
        }
    }
}

/// Program `n`: its source (every `Out` word written once at the end).
fn program(n: u64) -> String {
    let mut g = Gen {
        rng: Rng::new("opt-differential", n),
        out: String::new(),
        vars: Vec::new(),
        counters: Vec::new(),
        next: 0,
        helpers: 0,
    };
    g.line(0, "struct T { int a[4]; };");
    g.line(0, "StructuredBuffer<T> In : register(t1);");
    g.line(0, "RWStructuredBuffer<int> Out : register(u0);");
    g.line(0, "struct S { int x; int2 v; };");
    for h in 0..2 {
        g.line(0, &format!("int h{h}(int a, int b) {{"));
        g.vars = vec!["a".into(), "b".into()];
        g.line(1, "S s = (S)0; int arr[4] = { a, b, 1, 2 };");
        g.block(1, 2, true);
        let e = g.expr(2);
        g.line(1, &format!("return {e} + arr[1] + s.x;"));
        g.line(0, "}");
        g.helpers += 1;
    }
    g.line(0, "[numthreads(1, 1, 1)]");
    g.line(0, "void main() {");
    g.vars = vec!["x0".into(), "x1".into()];
    g.line(1, "int x0 = In[0].a[0]; int x1 = In[0].a[1] * 3;");
    g.line(1, "S s = (S)0; s.x = x0; int arr[4] = { x1, 5, x0, 7 };");
    g.block(1, 3, false);
    g.line(
        1,
        "Out[0] = x0; Out[1] = x1; Out[2] = s.x; Out[3] = s.v.x; Out[4] = s.v.y;",
    );
    g.line(
        1,
        "Out[5] = arr[0]; Out[6] = arr[1]; Out[7] = arr[2]; Out[8] = arr[3];",
    );
    g.line(0, "}");
    g.out
}

const JOB: &str = r#"{"entry": "main", "dispatch": [1, 1, 1], "buffers": [
    {"set": 0, "binding": 1, "kind": "storage", "layout": ["i32"],
     "data": [7, -3, 2147483647, 12, -2147483648, 0, 100, -55]},
    {"set": 0, "binding": 0, "kind": "storage", "layout": ["i32"], "size_words": 9}]}"#;

/// spirv-val's verdict for Vulkan 1.0.
fn spirv_val(words: &[u32], n: u64) -> Result<(), String> {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("opt-differential");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{n}.spv"));
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&path, bytes).unwrap();
    let out = std::process::Command::new("spirv-val")
        .args(["--target-env", "vulkan1.0"])
        .arg(&path)
        .output()
        .expect("spirv-val runs (apt-get install spirv-tools)");
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

#[test]
fn random_programs_compute_the_same_buffer_before_and_after_optimization() {
    use spvkit::hlsl::{Options, Profile};
    use std::str::FromStr;
    let job = spvkit::run::Job::from_json(JOB).expect("the job parses");
    let options = Options::new("main", Profile::from_str("cs_6_0").unwrap());
    let run = spvkit::run::RunOptions::default();
    let mut failures = Vec::new();
    let mut compiled = 0;
    for n in 0..PROGRAMS {
        let src = program(n);
        if let Ok(dir) = std::env::var("OPT_DIFFERENTIAL_DUMP") {
            std::fs::write(format!("{dir}/program{n}.hlsl"), &src).unwrap();
        }
        let words = match spvkit::hlsl::compile_source("random.hlsl", &src, &options) {
            Ok(c) => c.words,
            Err(e) => {
                failures.push(format!(
                    "program {n} does not compile: {}\n{src}",
                    e.rendered
                ));
                continue;
            }
        };
        compiled += 1;
        let want = match spvkit::run::run_spirv(&words, &job, &run) {
            Ok(w) => w,
            Err(e) => {
                failures.push(format!("program {n}: unoptimized: {e}\n{src}"));
                continue;
            }
        };
        for (flag, recipe) in [
            ("-O", spvkit::opt::PERFORMANCE),
            ("--legalize-hlsl", spvkit::opt::LEGALIZE_HLSL),
        ] {
            let opt = OptOptions {
                passes: recipe.to_vec(),
                update_vce: false,
            };
            let out = match optimize(&words, &opt) {
                Ok(w) => w,
                Err(e) => {
                    failures.push(format!("program {n} {flag}: {e}\n{src}"));
                    continue;
                }
            };
            if let Err(e) = spirv_val(&out, n) {
                failures.push(format!("program {n} {flag}: invalid: {e}\n{src}"));
                continue;
            }
            match spvkit::run::run_spirv(&out, &job, &run) {
                Ok(got) => {
                    let d = compute::differences(&want, &got, compute::Tolerance::default());
                    if !d.is_empty() {
                        failures.push(format!("program {n} {flag}: {}\n{src}", d.join("; ")));
                    }
                }
                Err(e) => failures.push(format!("program {n} {flag}: {e}\n{src}")),
            }
        }
    }
    println!("optimizer differential: {compiled} random programs");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n---\n")
    );
}
