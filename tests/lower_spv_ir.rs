//! The spv-ir style of `spvkit lower` (SPIR-V-friendly LLVM IR, the SPIRV-LLVM-Translator
//! convention) against the oracle `llvm-spirv-15 -r --spirv-target-env=SPV-IR`.
//!
//! OpenCL C kernels of `tests/corpus/opencl-spvir/` are compiled at test time (clang-15 and
//! llvm-spirv-15, into `CARGO_TARGET_TMPDIR`), lowered by spvkit and by the oracle, and the two
//! outputs are compared on parsed facts (so LLVM 15's typed pointers and LLVM 19's opaque
//! pointers spell the same, and spvkit's target extension types `target("spirv.Image", void,
//! 1, ...)` the same as llvm-spirv-15's `%spirv.Image._void_1_... addrspace(1)*`): the triple,
//! the kernels with their calling convention and parameter kinds, the `__spirv_*` builtins called, and the named metadata. Every
//! spvkit output also passes `opt-19 -passes=verify`. Where llvm-spirv-15 is wrong, a test says
//! what it does and that spvkit does right.
#![cfg(all(feature = "llvm", feature = "cli"))]

use inkwell::context::Context;
use spvkit::lower::{lower_binary, LowerOptions, LowerStyle};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

fn tmp(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("lower-spv-ir");
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Compiles an OpenCL C file to SPIR-V (clang-15, typed pointers, then llvm-spirv-15).
fn compile(cl: &Path) -> PathBuf {
    let stem = cl.file_stem().unwrap().to_string_lossy().into_owned();
    let bc = tmp(&format!("{stem}.bc"));
    let spv = tmp(&format!("{stem}.spv"));
    let r = Command::new("clang-15")
        .args(["-cc1", "-triple", "spir64-unknown-unknown", "-cl-std=CL2.0"])
        .args([
            "-emit-llvm-bc",
            "-finclude-default-header",
            "-no-opaque-pointers",
        ])
        .args(["-O0", "-o"])
        .arg(&bc)
        .arg(cl)
        .output()
        .expect("clang-15");
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let r = Command::new("llvm-spirv-15")
        .arg(&bc)
        .arg("-o")
        .arg(&spv)
        .output()
        .expect("llvm-spirv-15");
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    spv
}

fn assemble(name: &str, text: &str) -> PathBuf {
    let opts = spvkit::text::AssembleOptions {
        target_env: "spv1.0".parse().unwrap(),
        ..Default::default()
    };
    let w = spvkit::text::assemble(text, &opts).unwrap();
    let p = tmp(&format!("{name}.spv"));
    std::fs::write(
        &p,
        w.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>(),
    )
    .unwrap();
    p
}

/// Asserts that `spirv-val --target-env opencl2.0` accepts the module at `p`.
fn spirv_val_ok(p: &Path) {
    let r = Command::new("spirv-val")
        .args(["--target-env", "opencl2.0"])
        .arg(p)
        .output()
        .expect("spirv-val");
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
}

/// `spvkit from-llvm input -o out`, which must succeed, then spirv-val of the result.
fn from_llvm_valid(input: &Path, out: &Path) {
    let r = Command::new(env!("CARGO_BIN_EXE_spvkit"))
        .arg("from-llvm")
        .arg(input)
        .arg("-o")
        .arg(out)
        .output()
        .expect("spvkit from-llvm");
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    spirv_val_ok(out);
}

/// spvkit's spv-ir of a binary, checked by the in-process verifier and by `opt-19`.
fn spvkit_ir(spv: &Path, builtins_as_globals: bool) -> String {
    let w = words(&std::fs::read(spv).unwrap());
    let cx = Context::create();
    let opts = LowerOptions {
        style: LowerStyle::SpvIr,
        builtins_as_globals,
        ..Default::default()
    };
    let l = lower_binary(&cx, &w, &opts).unwrap_or_else(|e| panic!("{}: {e}", spv.display()));
    l.module.verify().unwrap();
    let text = l.module.print_to_string().to_string();
    let ll = spv.with_extension(if builtins_as_globals { "g.ll" } else { "ll" });
    std::fs::write(&ll, &text).unwrap();
    let r = Command::new("opt-19")
        .args(["-passes=verify", "-disable-output"])
        .arg(&ll)
        .output()
        .expect("opt-19");
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    text
}

/// The oracle's SPV-IR as text, or its error output.
fn oracle_ir(spv: &Path) -> Result<String, String> {
    let bc = spv.with_extension("oracle.bc");
    let r = Command::new("llvm-spirv-15")
        .args(["-r", "--spirv-target-env=SPV-IR"])
        .arg(spv)
        .arg("-o")
        .arg(&bc)
        .output()
        .expect("llvm-spirv-15");
    if !r.status.success() {
        return Err(format!(
            "exit {:?}: {}",
            r.status.code(),
            String::from_utf8_lossy(&r.stderr)
        ));
    }
    let r = Command::new("llvm-dis-15")
        .arg(&bc)
        .arg("-o")
        .arg("-")
        .output()
        .expect("llvm-dis-15");
    assert!(r.status.success());
    Ok(String::from_utf8_lossy(&r.stdout).into_owned())
}

/// The facts the comparison looks at.
#[derive(Debug, Default)]
struct Facts {
    triple: String,
    /// Kernel name → kind of each parameter ([`param_kind`]).
    kernels: BTreeMap<String, Vec<String>>,
    /// Every `spir_func` / plain defined function name.
    funcs_cc: BTreeMap<String, String>,
    /// Mangled names of the `__spirv_*` functions called.
    mangled: BTreeSet<String>,
    /// Their unmangled names.
    builtins: BTreeSet<String>,
    /// Named metadata.
    named_md: BTreeSet<String>,
}

/// The parameter list that starts at byte `i` (after the `(`), up to its matching `)`.
fn balanced(s: &str, i: usize) -> &str {
    let mut depth = 1;
    for (j, c) in s[i..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return &s[i..i + j];
                }
            }
            _ => {}
        }
    }
    &s[i..]
}

/// Splits on top-level commas.
fn split_params(s: &str) -> Vec<&str> {
    let (mut out, mut depth, mut start) = (Vec::new(), 0, 0);
    for (i, c) in s.char_indices() {
        match c {
            '(' | '<' | '{' | '[' => depth += 1,
            ')' | '>' | '}' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !s[start..].trim().is_empty() {
        out.push(s[start..].trim());
    }
    out
}

fn param_space(p: &str) -> Option<u32> {
    if let Some(i) = p.find("addrspace(") {
        let rest = &p[i + 10..];
        return rest[..rest.find(')')?].parse().ok();
    }
    (p.starts_with("ptr") || p.contains('*')).then_some(0)
}

/// A parameter's kind: an opaque SPIR-V type by llvm-spirv-15's struct name
/// (`spirv.Image._void_1_0_0_0_0_0_0`, `spirv.Sampler`, `spirv.Pipe._0`), from spvkit's target
/// extension type or the oracle's pointer to that struct; otherwise the pointer's address
/// space, or `value`.
fn param_kind(p: &str) -> String {
    if let Some(rest) = p.strip_prefix("target(") {
        let inner = balanced(rest, 0);
        let mut parts = split_params(inner).into_iter();
        let mut name = parts.next().unwrap_or("").trim_matches('"').to_string();
        let params: Vec<String> = parts
            .map(|q| match q {
                "i32" => "int".to_string(),
                q => q.to_string(),
            })
            .collect();
        if !params.is_empty() {
            name.push_str("._");
            name.push_str(&params.join("_"));
        }
        return name;
    }
    if let Some(rest) = p.strip_prefix('%') {
        if rest.starts_with("spirv.") || rest.starts_with("opencl.") {
            return rest
                .chars()
                .take_while(|c| !c.is_whitespace() && *c != '*')
                .collect();
        }
    }
    match param_space(p) {
        Some(a) => format!("addrspace({a})"),
        None => "value".to_string(),
    }
}

/// The unmangled name of `_Z<len><name>...`.
fn demangle_name(m: &str) -> Option<String> {
    let rest = m.strip_prefix("_Z")?;
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    let n: usize = digits.parse().ok()?;
    rest.get(digits.len()..digits.len() + n).map(str::to_string)
}

fn facts(text: &str) -> Facts {
    let mut f = Facts::default();
    for line in text.lines() {
        if let Some(t) = line.strip_prefix("target triple = \"") {
            f.triple = t.trim_end_matches('"').to_string();
        }
        if line.starts_with("define ") {
            let at = line.find('@').unwrap();
            let open = at + line[at..].find('(').unwrap();
            let name = line[at + 1..open].trim_matches('"').to_string();
            let cc = if line[..at].contains("spir_kernel") {
                "spir_kernel"
            } else if line[..at].contains("spir_func") {
                "spir_func"
            } else {
                "ccc"
            };
            if cc == "spir_kernel" {
                let params = split_params(balanced(line, open + 1));
                f.kernels
                    .insert(name.clone(), params.iter().map(|p| param_kind(p)).collect());
            }
            f.funcs_cc.insert(name, cc.to_string());
        }
        if line.starts_with('!') {
            if let Some((name, _)) = line.split_once(" = !{") {
                let name = &name[1..];
                if name.chars().next().is_some_and(|c| c.is_ascii_alphabetic()) {
                    f.named_md.insert(name.to_string());
                }
            }
        }
        let mut rest = line;
        while let Some(i) = rest.find("call ") {
            rest = &rest[i + 5..];
            if let Some(j) = rest.find("@_Z") {
                let sym: String = rest[j + 1..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if let Some(n) = demangle_name(&sym) {
                    if n.starts_with("__spirv_") {
                        f.builtins.insert(n);
                        f.mangled.insert(sym);
                    }
                }
            }
        }
    }
    f
}

/// The document spells the vload forms `__spirv_ocl_vloadn__R<T>`; llvm-spirv-15 writes one
/// underscore. Compared without the difference.
fn normalize(name: &str) -> String {
    name.replace("__R", "_R")
}

/// Builtins the oracle calls where spvkit emits a plain LLVM instruction by design (the
/// pattern table maps the op to an LLVM instruction or intrinsic).
const PLAIN_BY_DESIGN: &[&str] = &["__spirv_BitCount"];

/// Named metadata spvkit adds that llvm-spirv-15 leaves out of SPV-IR (the document lists
/// them as the form of the module-level instructions).
const EXTRA_BY_DESIGN: &[&str] = &[
    "spirv.Capability",
    "spirv.EntryPoint",
    "spirv.ExecutionMode",
    "spirv.Extension",
    "spirv.SourceExtension",
];

fn corpus() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/opencl-spvir");
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cl"))
        .collect();
    v.sort();
    v
}

#[test]
fn the_corpus_agrees_with_llvm_spirv_15() {
    let (mut modules, mut kernels, mut same_mangled, mut all_mangled) = (0, 0, 0, 0);
    let mut report = String::new();
    for cl in corpus() {
        let spv = compile(&cl);
        let name = cl.file_stem().unwrap().to_string_lossy().into_owned();
        let ours = facts(&spvkit_ir(&spv, false));
        let theirs = facts(&oracle_ir(&spv).unwrap());
        modules += 1;
        assert_eq!(ours.triple, theirs.triple, "{name}: triple");
        assert_eq!(
            ours.kernels, theirs.kernels,
            "{name}: kernels and parameter kinds"
        );
        kernels += ours.kernels.len();
        for (f, cc) in &theirs.funcs_cc {
            if let Some(ours_cc) = ours.funcs_cc.get(f) {
                assert_eq!(ours_cc, cc, "{name}: calling convention of {f}");
            }
        }
        let ob: BTreeSet<String> = ours.builtins.iter().map(|n| normalize(n)).collect();
        let tb: BTreeSet<String> = theirs
            .builtins
            .iter()
            .map(|n| normalize(n))
            .filter(|n| !PLAIN_BY_DESIGN.contains(&n.as_str()))
            .collect();
        assert_eq!(ob, tb, "{name}: __spirv_* builtins called");
        let om: BTreeSet<String> = ours.mangled.iter().map(|n| normalize(n)).collect();
        let tm: BTreeSet<String> = theirs.mangled.iter().map(|n| normalize(n)).collect();
        same_mangled += om.intersection(&tm).count();
        all_mangled += om.union(&tm).count();
        for md in &theirs.named_md {
            assert!(
                ours.named_md.contains(md),
                "{name}: named metadata !{md} missing"
            );
        }
        for md in ours.named_md.difference(&theirs.named_md) {
            assert!(
                EXTRA_BY_DESIGN.contains(&md.as_str()),
                "{name}: extra !{md}"
            );
        }
        report.push_str(&format!(
            "{name}: {} kernels, {} builtins\n",
            ours.kernels.len(),
            ob.len()
        ));
    }
    // Mangled names differ only where the vload postfix is spelled differently (normalized)
    // or the oracle's builtin is a plain instruction here.
    eprintln!(
        "{report}{modules} modules, {kernels} kernels; mangled builtin names identical: \
         {same_mangled}/{all_mangled}"
    );
    assert!(modules >= 10);
}

#[test]
fn builtins_as_globals() {
    let spv = compile(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/opencl-spvir/workitem.cl"),
    );
    let ir = spvkit_ir(&spv, true);
    assert!(
        ir.contains(
            "@__spirv_BuiltInGlobalInvocationId = external addrspace(1) constant <3 x i64>"
        ),
        "{ir}"
    );
    assert!(!ir.contains("call spir_func i64 @_Z33__spirv_BuiltInGlobalInvocationIdi"));
    let calls = spvkit_ir(&spv, false);
    assert!(calls.contains("call spir_func i64 @_Z33__spirv_BuiltInGlobalInvocationIdi(i32 0)"));
    assert!(calls.contains("call spir_func i32 @_Z22__spirv_BuiltInWorkDimv()"));
}

#[test]
fn kernel_argument_metadata_and_attributes() {
    let spv = compile(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/opencl-spvir/attributes.cl"),
    );
    let ir = spvkit_ir(&spv, false);
    let oracle = oracle_ir(&spv).unwrap();
    for needle in [
        "!{!\"float*\", !\"float*\", !\"int*\", !\"float\"}",
        "!{i32 8, i32 4, i32 1}",
        "!{i32 16, i32 1, i32 1}",
    ] {
        assert!(oracle.contains(needle), "oracle: {needle}");
        assert!(ir.contains(needle), "spvkit: {needle}\n{ir}");
    }
    assert!(ir.contains("!reqd_work_group_size"));
    assert!(ir.contains("!work_group_size_hint"));
    assert!(ir.contains("define spir_func float @helper("));
}

const BUG_HEAD: &str = "
OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k \"k\"
OpSource OpenCL_C 200000
%void = OpTypeVoid
%float = OpTypeFloat 32
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%v2float = OpTypeVector %float 2
%ptr_v2f = OpTypePointer CrossWorkgroup %v2float
%ptr_ul = OpTypePointer CrossWorkgroup %ulong
%fptr_uint = OpTypePointer Function %uint
%uint_7 = OpConstant %uint 7
%kty = OpTypeFunction %void %ptr_v2f %ptr_ul %float %float %ulong %uint
%hty = OpTypeFunction %uint %uint
%h = OpFunction %uint Pure %hty
%hx = OpFunctionParameter %uint
%hl = OpLabel
OpReturnValue %hx
OpFunctionEnd
%c = OpFunction %uint Const %hty
%cx = OpFunctionParameter %uint
%cl = OpLabel
OpReturnValue %cx
OpFunctionEnd
%k = OpFunction %void None %kty
%o = OpFunctionParameter %ptr_v2f
%p = OpFunctionParameter %ptr_ul
%a = OpFunctionParameter %float
%b = OpFunctionParameter %float
%x = OpFunctionParameter %ulong
%y = OpFunctionParameter %uint
%l = OpLabel
%var = OpVariable %fptr_uint Function %uint_7
";

fn bug_module(name: &str, body: &str) -> PathBuf {
    assemble(
        name,
        &format!("{BUG_HEAD}{body}\nOpReturn\nOpFunctionEnd\n"),
    )
}

#[test]
fn llvm_spirv_crashes_on_composite_construct_of_runtime_values() {
    let spv = bug_module(
        "composite",
        "%v = OpCompositeConstruct %v2float %a %b\nOpStore %o %v",
    );
    let err = oracle_ir(&spv).unwrap_err();
    assert!(err.contains("ConstantVector"), "{err}");
    let ir = spvkit_ir(&spv, false);
    assert!(ir.contains("insertelement <2 x float>"), "{ir}");
}

#[test]
fn llvm_spirv_makes_invalid_ir_for_a_narrow_shift_amount() {
    let spv = bug_module(
        "shift",
        "%s = OpShiftLeftLogical %ulong %x %y\nOpStore %p %s",
    );
    let err = oracle_ir(&spv).unwrap_err();
    assert!(err.contains("shl i64 %4, i32 %5"), "{err}");
    let ir = spvkit_ir(&spv, false);
    assert!(ir.contains("zext i32"), "{ir}");
    assert!(ir.contains("shl i64"), "{ir}");
}

#[test]
fn llvm_spirv_globalizes_function_variables_and_swaps_pure_and_const() {
    let spv = bug_module(
        "var_pure_const",
        "%lv = OpLoad %uint %var\n%r1 = OpFunctionCall %uint %h %lv\n\
         %r2 = OpFunctionCall %uint %c %r1\nOpStore %var %r2",
    );
    let oracle = oracle_ir(&spv).unwrap();
    // The initialised Function variable became a module global, shared by every invocation.
    assert!(oracle.contains("internal global i32 7"), "{oracle}");
    // Pure (reads memory) became readnone and Const (reads nothing) readonly.
    let attrs_of = |text: &str, f: &str| -> String {
        let line = text
            .lines()
            .find(|l| l.starts_with("define") && l.contains(f))
            .unwrap();
        let group = line.rsplit(" #").next().unwrap().split(' ').next().unwrap();
        text.lines()
            .find(|l| l.starts_with(&format!("attributes #{group} ")))
            .unwrap()
            .to_string()
    };
    assert!(attrs_of(&oracle, "@1(").contains("readnone"));
    assert!(attrs_of(&oracle, "@2(").contains("readonly"));
    let ir = spvkit_ir(&spv, false);
    assert!(!ir.contains("global i32 7"), "{ir}");
    assert!(ir.contains("alloca i32"), "{ir}");
    assert!(ir.contains("store i32 7"), "{ir}");
    assert!(
        attrs_of(&ir, "@spv.func.0(").contains("memory(read)"),
        "{ir}"
    );
    assert!(
        attrs_of(&ir, "@spv.func.1(").contains("memory(none)"),
        "{ir}"
    );
}

#[test]
fn shaders_are_an_error_not_a_panic() {
    let spv = assemble(
        "shader",
        "OpCapability Shader\nOpMemoryModel Logical GLSL450\n\
         OpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n\
         %void = OpTypeVoid\n%fn = OpTypeFunction %void\n\
         %main = OpFunction %void None %fn\n%l = OpLabel\nOpReturn\nOpFunctionEnd\n",
    );
    let w = words(&std::fs::read(&spv).unwrap());
    let cx = Context::create();
    let opts = LowerOptions {
        style: LowerStyle::SpvIr,
        ..Default::default()
    };
    let e = lower_binary(&cx, &w, &opts).err().expect("an error");
    assert!(e.to_string().contains("Kernel"), "{e}");
}

#[test]
fn the_cli_takes_the_style() {
    let spv = compile(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/opencl-spvir/local_barrier.cl"),
    );
    let out = Command::new(env!("CARGO_BIN_EXE_spvkit"))
        .args(["lower", "--style", "spv-ir"])
        .arg(&spv)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("target triple = \"spir64-unknown-unknown\""));
    assert!(text.contains("define spir_kernel void @reverse(ptr addrspace(1)"));
    let out = Command::new(env!("CARGO_BIN_EXE_spvkit"))
        .args(["lower", "--style", "nonsense"])
        .arg(&spv)
        .output()
        .unwrap();
    assert!(!out.status.success());
}

/// The `{...}` annotation strings of a module's `llvm.ptr.annotation` calls, each as its set
/// of `{...}` items (the document does not order them; llvm-spirv-15 sorts its own way).
fn annotation_strings(text: &str) -> BTreeSet<BTreeSet<String>> {
    text.lines()
        .filter_map(|l| {
            let i = l.find("c\"{")?;
            let rest = &l[i + 2..];
            let s = &rest[..rest.find("\\00\"")?];
            Some(
                s.split_inclusive('}')
                    .map(str::to_string)
                    .collect::<BTreeSet<String>>(),
            )
        })
        .collect()
}

#[test]
fn member_decorations_are_pointer_annotations_as_llvm_spirv_writes_them() {
    let spv = assemble(
        "member",
        "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n\
         OpCapability FPGAMemoryAttributesINTEL\n\
         OpExtension \"SPV_INTEL_fpga_memory_attributes\"\n\
         OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %k \"k\"\n\
         OpSource OpenCL_C 200000\nOpName %S \"struct.S\"\n\
         OpMemberDecorate %S 0 RegisterINTEL\nOpMemberDecorate %S 1 NumbanksINTEL 4\n\
         OpMemberDecorate %S 1 BankwidthINTEL 8\n\
         %void = OpTypeVoid\n%uint = OpTypeInt 32 0\n%S = OpTypeStruct %uint %uint\n\
         %pS = OpTypePointer Function %S\n%pu = OpTypePointer Function %uint\n\
         %uint_0 = OpConstant %uint 0\n%uint_1 = OpConstant %uint 1\n\
         %kty = OpTypeFunction %void %uint\n%k = OpFunction %void None %kty\n\
         %x = OpFunctionParameter %uint\n%l = OpLabel\n%v = OpVariable %pS Function\n\
         %m0 = OpAccessChain %pu %v %uint_0\nOpStore %m0 %x\n\
         %m1 = OpAccessChain %pu %v %uint_1\nOpStore %m1 %x\nOpReturn\nOpFunctionEnd\n",
    );
    let ours = spvkit_ir(&spv, false);
    let theirs = oracle_ir(&spv).unwrap();
    let expected = annotation_strings("c\"{register:1}\\00\"\nc\"{numbanks:4}{bankwidth:8}\\00\"");
    assert_eq!(expected.len(), 2);
    assert_eq!(annotation_strings(&theirs), expected, "{theirs}");
    assert_eq!(annotation_strings(&ours), expected, "{ours}");
    assert_eq!(
        ours.matches("call ptr @llvm.ptr.annotation.p0.p0(").count(),
        2
    );
}

/// The decorations of a module as spirv-dis prints them, targets left out (ids differ after a
/// round trip), `*DecorateString` spelled as `*Decorate`.
fn decoration_set(spv: &Path) -> BTreeSet<String> {
    let out = Command::new("spirv-dis")
        .arg(spv)
        .output()
        .expect("spirv-dis");
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            let op = words.next()?;
            let op = op.strip_suffix("String").unwrap_or(op);
            if op != "OpDecorate" && op != "OpMemberDecorate" {
                return None;
            }
            words.next()?;
            Some(
                std::iter::once(op)
                    .chain(words)
                    .collect::<Vec<_>>()
                    .join(" "),
            )
        })
        .collect()
}

/// spv → spvkit's spv-ir → `from-llvm` → spv, validated at both ends; the decorations of the
/// input must all come back.
fn decoration_round_trip(name: &str, text: &str) -> (String, BTreeSet<String>) {
    let spv = assemble(name, text);
    spirv_val_ok(&spv);
    let ir = spvkit_ir(&spv, false);
    let back = spvkit::from_llvm::from_llvm(ir.as_bytes(), name, &Default::default())
        .unwrap_or_else(|e| panic!("{e}\n{ir}"));
    let back_path = tmp(&format!("{name}.back.spv"));
    std::fs::write(
        &back_path,
        back.iter()
            .flat_map(|w| w.to_le_bytes())
            .collect::<Vec<u8>>(),
    )
    .unwrap();
    spirv_val_ok(&back_path);
    let (before, after) = (decoration_set(&spv), decoration_set(&back_path));
    let lost: Vec<_> = before.difference(&after).collect();
    assert!(
        lost.is_empty(),
        "lost {lost:?}\nbefore {before:?}\nafter {after:?}\n{ir}"
    );
    (ir, after)
}

#[test]
fn instruction_and_parameter_decorations_survive_spv_ir_and_back() {
    let (ir, after) = decoration_round_trip(
        "decorations",
        "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n\
         OpExtension \"SPV_KHR_no_integer_wrap_decoration\"\n\
         OpExtension \"SPV_GOOGLE_decorate_string\"\n\
         OpExtension \"SPV_GOOGLE_hlsl_functionality1\"\n\
         OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %k \"k\"\n\
         OpSource OpenCL_C 200000\n\
         OpDecorate %sum FPFastMathMode NotNaN|NotInf\nOpDecorate %add NoSignedWrap\n\
         OpDecorate %add NoUnsignedWrap\n\
         OpDecorate %var Alignment 16\nOpDecorate %var Volatile\nOpDecorate %var Restrict\n\
         OpDecorate %mul UserSemantic \"hello\"\n\
         OpDecorate %o FuncParamAttr NoAlias\nOpDecorate %o FuncParamAttr NoCapture\n\
         OpDecorate %o Volatile\n\
         %void = OpTypeVoid\n%uint = OpTypeInt 32 0\n%float = OpTypeFloat 32\n\
         %pf = OpTypePointer CrossWorkgroup %float\n%pu = OpTypePointer Function %uint\n\
         %uint_1 = OpConstant %uint 1\n%kty = OpTypeFunction %void %pf %float %uint\n\
         %k = OpFunction %void None %kty\n%o = OpFunctionParameter %pf\n\
         %a = OpFunctionParameter %float\n%x = OpFunctionParameter %uint\n%l = OpLabel\n\
         %var = OpVariable %pu Function\n%sum = OpFAdd %float %a %a\n\
         %mul = OpFMul %float %sum %a\n%gep = OpPtrAccessChain %pf %o %uint_1\n\
         OpStore %gep %mul\n%add = OpIAdd %uint %x %uint_1\nOpStore %var %add\n\
         OpReturn\nOpFunctionEnd\n",
    );
    // The LLVM forms where LLVM has one, the document's metadata otherwise.
    for want in [
        "fadd nnan ninf float",
        "add nuw nsw i32",
        "alloca i32, align 16, !spirv.Decorations",
        "!spirv.Decorations",
        "!\"hello\"",
        "ptr addrspace(1) noalias nocapture",
        "!spirv.ParameterDecorations",
    ] {
        assert!(ir.contains(want), "missing {want}:\n{ir}");
    }
    assert!(
        after.contains("OpDecorate FPFastMathMode NotNaN|NotInf"),
        "{after:?}"
    );
}

#[test]
fn member_decorations_survive_spv_ir_and_back() {
    let (ir, after) = decoration_round_trip(
        "member_back",
        "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n\
         OpCapability FPGAMemoryAttributesINTEL\n\
         OpExtension \"SPV_INTEL_fpga_memory_attributes\"\n\
         OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %k \"k\"\n\
         OpSource OpenCL_C 200000\nOpName %S \"struct.S\"\n\
         OpMemberDecorate %S 0 RegisterINTEL\nOpMemberDecorate %S 1 NumbanksINTEL 4\n\
         OpMemberDecorate %S 1 BankwidthINTEL 8\n\
         OpMemberDecorate %S 1 MergeINTEL \"foo\" \"depth\"\n\
         OpMemberDecorate %S 1 MemoryINTEL \"DEFAULT\"\n\
         OpMemberDecorate %S 1 DoublepumpINTEL\n\
         %void = OpTypeVoid\n%uint = OpTypeInt 32 0\n%S = OpTypeStruct %uint %uint\n\
         %pS = OpTypePointer Function %S\n%pu = OpTypePointer Function %uint\n\
         %uint_0 = OpConstant %uint 0\n%uint_1 = OpConstant %uint 1\n\
         %kty = OpTypeFunction %void %uint\n%k = OpFunction %void None %kty\n\
         %x = OpFunctionParameter %uint\n%l = OpLabel\n%v = OpVariable %pS Function\n\
         %m0 = OpAccessChain %pu %v %uint_0\nOpStore %m0 %x\n\
         %m1 = OpAccessChain %pu %v %uint_1\nOpStore %m1 %x\nOpReturn\nOpFunctionEnd\n",
    );
    assert!(ir.contains("{merge:foo:depth}"), "{ir}");
    assert!(
        after.contains("OpMemberDecorate 1 NumbanksINTEL 4"),
        "{after:?}"
    );
}

/// The opaque SPIR-V types of a kernel with images, samplers, pipes, a reservation and an
/// event as LLVM 19 target extension types (the form of current SPIRV-LLVM-Translator), valid
/// for `llvm-as-19`; and `spvkit from-llvm` of that spv-ir gives back the same opaque types,
/// which `spirv-val` accepts.
#[test]
fn opaque_types_are_target_extension_types_and_come_back() {
    let spv = compile(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/opencl-spvir/opaque_types.cl"),
    );
    let ir = spvkit_ir(&spv, false);
    let ll = spv.with_extension("ll");
    let bc = spv.with_extension("spvkit.bc");
    let r = Command::new("llvm-as-19")
        .arg(&ll)
        .arg("-o")
        .arg(&bc)
        .output()
        .expect("llvm-as-19");
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let r = Command::new("llvm-dis-19")
        .arg(&bc)
        .arg("-o")
        .arg("-")
        .output()
        .expect("llvm-dis-19");
    assert!(r.status.success());
    let dis = String::from_utf8_lossy(&r.stdout);
    for want in [
        "define spir_kernel void @opaque_types(target(\"spirv.Image\", void, 1, 0, 0, 0, 0, 0, 0) \
         %0, target(\"spirv.Image\", void, 2, 0, 0, 0, 0, 0, 1) %1, target(\"spirv.Image\", \
         void, 0, 0, 0, 0, 0, 0, 2) %2, target(\"spirv.Sampler\") %3, target(\"spirv.Pipe\", 0) \
         %4, target(\"spirv.Pipe\", 1) %5, ptr addrspace(1)",
        // OpConstantSampler Repeat 1 Linear: 3 << 1 | 1 | (1 + 1) << 4.
        "call target(\"spirv.Sampler\") @__translate_sampler_initializer(i32 39)",
        "call spir_func target(\"spirv.SampledImage\", void, 1, 0, 0, 0, 0, 0, 0) \
         @_Z20__spirv_SampledImagePU3AS133__spirv_Image__void_1_0_0_0_0_0_0PU3AS215__spirv_Sampler(",
        "call spir_func target(\"spirv.ReserveId\") \
         @_Z31__spirv_ReserveWritePipePacketsPU3AS115__spirv_Pipe__1iii(target(\"spirv.Pipe\", 1)",
        "call spir_func target(\"spirv.Event\") @_Z22__spirv_GroupAsyncCopy",
        "alloca target(\"spirv.Event\")",
    ] {
        assert!(ir.contains(want), "spvkit: {want}\n{ir}");
        assert!(dis.contains(want), "llvm-dis-19: {want}\n{dis}");
    }
    let back = spv.with_extension("back.spv");
    from_llvm_valid(&bc, &back);
    // The opaque types and the literal sampler, without their result ids.
    let opaque = |p: &Path| -> BTreeSet<String> {
        let r = Command::new("spirv-dis")
            .arg(p)
            .output()
            .expect("spirv-dis");
        assert!(r.status.success());
        String::from_utf8_lossy(&r.stdout)
            .lines()
            .filter_map(|l| {
                let (_, rhs) = l.split_once(" = ")?;
                let mut words = rhs.split_whitespace();
                let op = words.next()?;
                let keep = matches!(
                    op,
                    "OpTypeImage"
                        | "OpTypeSampledImage"
                        | "OpTypeSampler"
                        | "OpTypePipe"
                        | "OpTypeReserveId"
                        | "OpTypeEvent"
                        | "OpConstantSampler"
                );
                // Operand ids differ; the image's sampled type is `%void` in both.
                keep.then(|| {
                    std::iter::once(op)
                        .chain(words.filter(|w| !w.starts_with('%') || *w == "%void"))
                        .collect::<Vec<_>>()
                        .join(" ")
                })
            })
            .collect()
    };
    let want = opaque(&spv);
    assert!(
        want.contains("OpTypeImage %void 3D 0 0 0 0 Unknown WriteOnly"),
        "{want:?}"
    );
    assert_eq!(opaque(&back), want);
}

/// A UniformConstant variable initialized with `OpConstantSampler`: LLVM can only zero a
/// `target("spirv.Sampler")` global, so spv-ir has no global and every load is the sampler's
/// initializer call; from-llvm turns that back into the same `OpConstantSampler`.
#[test]
fn sampler_variables_load_as_their_initializer_call() {
    let spv = assemble(
        "sampler_variable",
        "OpCapability Addresses\nOpCapability Kernel\nOpCapability ImageBasic\n\
         OpCapability LiteralSampler\nOpMemoryModel Physical64 OpenCL\n\
         OpEntryPoint Kernel %k \"k\"\nOpDecorate %smp Constant\n\
         %void = OpTypeVoid\n%float = OpTypeFloat 32\n%v4float = OpTypeVector %float 4\n\
         %v2float = OpTypeVector %float 2\n\
         %img = OpTypeImage %void 2D 0 0 0 0 Unknown ReadOnly\n%sampler = OpTypeSampler\n\
         %si = OpTypeSampledImage %img\n%psmp = OpTypePointer UniformConstant %sampler\n\
         %pout = OpTypePointer CrossWorkgroup %v4float\n%fn = OpTypeFunction %void %img %pout\n\
         %cs = OpConstantSampler %sampler ClampToEdge 0 Nearest\n\
         %smp = OpVariable %psmp UniformConstant %cs\n%zero = OpConstant %float 0\n\
         %half = OpConstant %float 0.5\n%coord = OpConstantComposite %v2float %half %half\n\
         %k = OpFunction %void None %fn\n%i = OpFunctionParameter %img\n\
         %o = OpFunctionParameter %pout\n%l = OpLabel\n%s = OpLoad %sampler %smp\n\
         %c = OpSampledImage %si %i %s\n\
         %t = OpImageSampleExplicitLod %v4float %c %coord Lod %zero\n\
         OpStore %o %t\nOpReturn\nOpFunctionEnd\n",
    );
    let ir = spvkit_ir(&spv, false);
    // ClampToEdge (1) << 1 | unnormalized | (Nearest (0) + 1) << 4.
    assert!(
        ir.contains("call target(\"spirv.Sampler\") @__translate_sampler_initializer(i32 18)"),
        "{ir}"
    );
    assert!(!ir.contains("zeroinitializer"), "{ir}");
    let back = spv.with_extension("back.spv");
    from_llvm_valid(&spv.with_extension("ll"), &back);
    let r = Command::new("spirv-dis")
        .arg(&back)
        .output()
        .expect("spirv-dis");
    let dis = String::from_utf8_lossy(&r.stdout);
    assert!(
        dis.contains("OpConstantSampler %") && dis.contains(" ClampToEdge 0 Nearest"),
        "{dis}"
    );
}

/// An op that forwards its operand (`OpCopyObject`) makes no instruction: its decorations are
/// dropped, not hung on the instruction of the value it copies.
#[test]
fn decorations_of_a_forwarded_value_stay_off_its_source() {
    let spv = assemble(
        "forwarded_decoration",
        "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n\
         OpExtension \"SPV_GOOGLE_decorate_string\"\n\
         OpExtension \"SPV_GOOGLE_hlsl_functionality1\"\n\
         OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %k \"k\"\n\
         OpDecorate %mul UserSemantic \"source\"\nOpDecorate %cp UserSemantic \"copy\"\n\
         %void = OpTypeVoid\n%float = OpTypeFloat 32\n\
         %pf = OpTypePointer CrossWorkgroup %float\n%kty = OpTypeFunction %void %pf %float\n\
         %k = OpFunction %void None %kty\n%o = OpFunctionParameter %pf\n\
         %a = OpFunctionParameter %float\n%l = OpLabel\n%mul = OpFMul %float %a %a\n\
         %cp = OpCopyObject %float %mul\nOpStore %o %cp\nOpReturn\nOpFunctionEnd\n",
    );
    let ir = spvkit_ir(&spv, false);
    assert!(ir.contains("!\"source\""), "{ir}");
    assert!(!ir.contains("!\"copy\""), "{ir}");
}

/// A Kernel module's structs have C's natural layout: spv-ir writes them as named, unpacked
/// LLVM structs, as the translator does, and from-llvm gives back the same struct (its name,
/// no `CPacked`); a `CPacked` struct stays packed both ways. InBounds chains stay InBounds
/// (`getelementptr inbounds`).
#[test]
fn kernel_structs_are_named_natural_structs_both_ways() {
    let spv = assemble(
        "named_structs",
        "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int8\n\
         OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %k \"k\"\n\
         OpName %pair \"struct.pair\"\nOpName %tight \"struct.tight\"\n\
         OpDecorate %tight CPacked\n\
         %void = OpTypeVoid\n%uchar = OpTypeInt 8 0\n%uint = OpTypeInt 32 0\n\
         %float = OpTypeFloat 32\n%pair = OpTypeStruct %uchar %float\n\
         %tight = OpTypeStruct %uchar %uint\n%pp = OpTypePointer CrossWorkgroup %pair\n\
         %pt = OpTypePointer CrossWorkgroup %tight\n%pf = OpTypePointer CrossWorkgroup %float\n\
         %pu = OpTypePointer CrossWorkgroup %uint\n%fn = OpTypeFunction %void %pp %pt\n\
         %uint_1 = OpConstant %uint 1\n%k = OpFunction %void None %fn\n\
         %a = OpFunctionParameter %pp\n%b = OpFunctionParameter %pt\n%l = OpLabel\n\
         %f = OpInBoundsPtrAccessChain %pf %a %uint_1 %uint_1\n\
         %u = OpInBoundsPtrAccessChain %pu %b %uint_1 %uint_1\n\
         %x = OpLoad %uint %u\n%y = OpConvertUToF %float %x\nOpStore %f %y\n\
         OpReturn\nOpFunctionEnd\n",
    );
    let ir = spvkit_ir(&spv, false);
    assert!(ir.contains("%struct.pair = type { i8, float }"), "{ir}");
    assert!(ir.contains("getelementptr inbounds %struct.pair"), "{ir}");
    assert!(ir.contains("<{ i8, i32 }>"), "{ir}");
    let back = spv.with_extension("back.spv");
    from_llvm_valid(&spv.with_extension("ll"), &back);
    let r = Command::new("spirv-dis")
        .arg(&back)
        .output()
        .expect("spirv-dis");
    let dis = String::from_utf8_lossy(&r.stdout);
    assert!(dis.contains("\"struct.pair\""), "{dis}");
    assert_eq!(dis.matches("CPacked").count(), 1, "{dis}");
    assert_eq!(dis.matches("OpInBoundsPtrAccessChain").count(), 2, "{dis}");
}

/// An `OpType*` with no operand but its id that the IR keeps raw (here the AVC
/// motion-estimation payload) is an opaque handle: `target("spirv.AvcMcePayloadINTEL")` in
/// spv-ir as the translator names it (valid for `opt-19`), a pointer in the direct style. An
/// op on it is refused by the direct style, naming the op; spv-ir writes it as its
/// `__spirv_` call, which `from-llvm` reads back to the same op and types.
#[test]
fn parameterless_opaque_types_are_handles_in_both_styles() {
    let head = "OpCapability Addresses\nOpCapability Kernel\nOpCapability Linkage\n\
                OpCapability Groups\nOpCapability SubgroupAvcMotionEstimationINTEL\n\
                OpExtension \"SPV_INTEL_device_side_avc_motion_estimation\"\n\
                OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %k \"k\"\n\
                %void = OpTypeVoid\n%fn = OpTypeFunction %void\n\
                %pay = OpTypeAvcMcePayloadINTEL\n%ppay = OpTypePointer Function %pay\n\
                %uchar = OpTypeInt 8 0\n%null = OpConstantNull %pay\n";
    let spv = assemble(
        "avc_types",
        &format!(
            "{head}%k = OpFunction %void None %fn\n%e = OpLabel\n\
             %v = OpVariable %ppay Function\nOpStore %v %null\nOpReturn\nOpFunctionEnd\n"
        ),
    );
    // No spirv-val here: SPIRV-Tools 2023.1 takes the AVC types (grammar class `@exclude`)
    // for instructions that must appear in a block; the translator's own test of these types
    // (`subgroup_avc_intel_types.spt`) does not validate either.
    let ir = spvkit_ir(&spv, false);
    assert!(
        ir.contains("alloca target(\"spirv.AvcMcePayloadINTEL\")"),
        "{ir}"
    );
    assert!(
        ir.contains("store target(\"spirv.AvcMcePayloadINTEL\") zeroinitializer"),
        "{ir}"
    );
    let cx = Context::create();
    let w = words(&std::fs::read(&spv).unwrap());
    let direct = lower_binary(&cx, &w, &LowerOptions::default()).unwrap();
    direct.module.verify().unwrap();
    let text = direct.module.print_to_string().to_string();
    assert!(text.contains("store ptr null"), "{text}");

    let spv = assemble(
        "avc_op",
        &format!(
            "{head}%one = OpConstant %uchar 1\n%k = OpFunction %void None %fn\n%e = OpLabel\n\
             %p = OpSubgroupAvcMceSetInterShapePenaltyINTEL %pay %one %null\n\
             OpReturn\nOpFunctionEnd\n"
        ),
    );
    let w = words(&std::fs::read(&spv).unwrap());
    let err = match lower_binary(&cx, &w, &LowerOptions::default()) {
        Ok(_) => panic!("the direct style lowered an AVC op"),
        Err(e) => e.to_string(),
    };
    assert!(
        err.contains("OpSubgroupAvcMceSetInterShapePenaltyINTEL"),
        "{err}"
    );
    let ir = spvkit_ir(&spv, false);
    assert!(
        ir.contains("__spirv_SubgroupAvcMceSetInterShapePenaltyINTEL"),
        "{ir}"
    );
    let back = spv.with_extension("back.spv");
    let r = Command::new(env!("CARGO_BIN_EXE_spvkit"))
        .arg("from-llvm")
        .arg(spv.with_extension("ll"))
        .arg("-o")
        .arg(&back)
        .output()
        .expect("spvkit from-llvm");
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let text = spvkit::text::disassemble_to_string(
        &words(&std::fs::read(&back).unwrap()),
        &Default::default(),
    )
    .unwrap();
    assert!(text.contains("= OpTypeAvcMcePayloadINTEL"), "{text}");
    assert!(
        text.contains("= OpSubgroupAvcMceSetInterShapePenaltyINTEL %"),
        "{text}"
    );
}
