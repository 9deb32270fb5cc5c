//! The assembler against `spirv-as` (SPIRV-Tools 2023.1): the same words for every module it
//! accepts, the same message for every text it rejects.
//!
//! Modules come from inline assembly, from the grammar tables (every instruction and
//! enumerant), and from shaders compiled at test time (glslangValidator for GLSL and HLSL,
//! clang-15 and llvm-spirv-15 for OpenCL C) and disassembled by `spirv-dis` with friendly names,
//! raw ids and comments, and from the shared corpus (`tests/support/corpus.rs`). The oracle
//! tools are required, as in the other suites: a missing one fails the tests that need it (run
//! `bash scripts/setup.sh`); the error tests and the expected-words tests need none.

#[path = "support/corpus.rs"]
mod corpus;

use spvkit::grammar::tables::{self, CORE_INSTRUCTIONS};
use spvkit::grammar::{KindClass, KindDesc, Quantifier};
use spvkit::target_env::TargetEnv;
use spvkit::text::assemble::{assemble, AssembleError, AssembleOptions};
use spvkit::text::lexer::Lexer;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

// ---------------------------------------------------------------------------------------------
// Tools.

/// The oracle tools are required: a missing one fails the test (run `bash scripts/setup.sh`).
fn have(tool: &str) -> bool {
    let ok = Command::new(tool)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok();
    assert!(ok, "{tool} is not installed: run `bash scripts/setup.sh`");
    ok
}

fn have_spirv_as() -> bool {
    have("spirv-as")
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "spvkit-asm-{}-{}-{}",
        std::process::id(),
        name,
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn words_of(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn as_args(opts: &AssembleOptions) -> Vec<String> {
    let mut v = vec!["--target-env".to_string(), opts.target_env.to_string()];
    if opts.preserve_numeric_ids {
        v.push("--preserve-numeric-ids".into());
    }
    v
}

/// What `spirv-as` makes of `text`: the words, or its message (`line:col: error: message`).
fn spirv_as(text: &str, opts: &AssembleOptions) -> Result<Vec<u32>, String> {
    let mut child = Command::new("spirv-as")
        .args(as_args(opts))
        .args(["-o", "-", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spirv-as runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = text.as_bytes().to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("spirv-as output");
    let _ = writer.join();
    if out.status.success() {
        return Ok(words_of(&out.stdout));
    }
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    // `error: 2: 1: message` → `2:1: error: message`.
    let line = err.strip_prefix("error: ").unwrap_or(&err);
    let mut parts = line.splitn(3, ": ");
    match (parts.next(), parts.next(), parts.next()) {
        (Some(l), Some(c), Some(m)) if l.parse::<usize>().is_ok() && c.parse::<usize>().is_ok() => {
            Err(format!("{l}:{c}: error: {}", m.trim_end_matches('\n')))
        }
        _ => Err(err.trim_end().to_string()),
    }
}

/// Whether a word of the text spans lines (a string with a newline): `spirv-as` does not count
/// those newlines, so its line numbers after one are off.
fn has_multiline_word(text: &str) -> bool {
    let mut lx = Lexer::new(text);
    while let Some(t) = lx.next() {
        if t.text(text).contains('\n') {
            return true;
        }
    }
    false
}

fn message_of(e: &str) -> &str {
    e.split_once(": error: ").map_or(e, |(_, m)| m)
}

/// Asserts that `assemble` and `spirv-as` agree on `text`.
fn check(what: &str, text: &str, opts: &AssembleOptions) {
    let mine = assemble(text, opts).map_err(|e| e.to_string());
    let theirs = spirv_as(text, opts);
    match (&mine, &theirs) {
        (Ok(a), Ok(b)) => {
            if a != b {
                let at = a
                    .iter()
                    .zip(b)
                    .position(|(x, y)| x != y)
                    .unwrap_or(a.len().min(b.len()));
                panic!(
                    "{what} ({}): words differ at {at} (lengths {} and {}): mine {:x?}, spirv-as {:x?}",
                    as_args(opts).join(" "),
                    a.len(),
                    b.len(),
                    a.get(at..(at + 6).min(a.len())),
                    b.get(at..(at + 6).min(b.len()))
                );
            }
        }
        (Err(a), Err(b)) => {
            if has_multiline_word(text) {
                assert_eq!(message_of(a), message_of(b), "{what}: different messages");
            } else {
                assert_eq!(a, b, "{what}: different errors");
            }
        }
        _ => panic!(
            "{what} ({}): mine {:?}, spirv-as {:?}",
            as_args(opts).join(" "),
            mine.as_ref().map(|w| w.len()),
            theirs.as_ref().map(|w| w.len())
        ),
    }
}

fn opts(env: TargetEnv, preserve: bool) -> AssembleOptions {
    AssembleOptions {
        target_env: env,
        preserve_numeric_ids: preserve,
    }
}

fn default_opts() -> AssembleOptions {
    AssembleOptions::default()
}

// ---------------------------------------------------------------------------------------------
// Expected words and errors: no tool needed.

fn asm(text: &str) -> Vec<u32> {
    match assemble(text, &default_opts()) {
        Ok(w) => w,
        Err(e) => panic!("{text:?}: {e}"),
    }
}

fn asm_err(text: &str) -> String {
    match assemble(text, &default_opts()) {
        Ok(_) => panic!("{text:?} assembled"),
        Err(e) => e.to_string(),
    }
}

fn body(text: &str) -> Vec<u32> {
    asm(text)[5..].to_vec()
}

#[test]
fn header() {
    let w = asm("OpCapability Shader\n");
    assert_eq!(&w[..5], &[0x0723_0203, 0x0001_0600, 0x0007_0000, 1, 0]);
    let w = assemble(";\n", &opts(TargetEnv::Vulkan1_1, false)).unwrap();
    assert_eq!(w, vec![0x0723_0203, 0x0001_0300, 0x0007_0000, 1, 0]);
}

#[test]
fn target_env_versions() {
    let expect = [
        ("vulkan1.1spv1.4", 0x0001_0400),
        ("vulkan1.0", 0x0001_0000),
        ("vulkan1.1", 0x0001_0300),
        ("vulkan1.2", 0x0001_0500),
        ("vulkan1.3", 0x0001_0600),
        ("spv1.0", 0x0001_0000),
        ("spv1.1", 0x0001_0100),
        ("spv1.2", 0x0001_0200),
        ("spv1.3", 0x0001_0300),
        ("spv1.4", 0x0001_0400),
        ("spv1.5", 0x0001_0500),
        ("spv1.6", 0x0001_0600),
        ("opencl1.2embedded", 0x0001_0000),
        ("opencl1.2", 0x0001_0000),
        ("opencl2.0embedded", 0x0001_0000),
        ("opencl2.0", 0x0001_0000),
        ("opencl2.1embedded", 0x0001_0000),
        ("opencl2.1", 0x0001_0000),
        ("opencl2.2embedded", 0x0001_0200),
        ("opencl2.2", 0x0001_0200),
        ("opengl4.0", 0x0001_0000),
        ("opengl4.1", 0x0001_0000),
        ("opengl4.2", 0x0001_0000),
        ("opengl4.3", 0x0001_0000),
        ("opengl4.5", 0x0001_0000),
    ];
    // Every environment spirv-as knows; `level-zero` is spvkit's own (validation only).
    let spirv_as_envs = TargetEnv::ALL
        .iter()
        .filter(|e| **e != TargetEnv::LevelZero)
        .count();
    assert_eq!(expect.len(), spirv_as_envs);
    for (name, word) in expect {
        let env: TargetEnv = name.parse().unwrap();
        assert_eq!(env.to_string(), name);
        assert_eq!(env.spirv_version().word(), word, "{name}");
        let w = assemble("OpCapability Shader", &opts(env, false)).unwrap();
        assert_eq!(w[1], word, "{name}");
    }
    assert!("universal1.0".parse::<TargetEnv>().is_err());
    assert!("webgpu0".parse::<TargetEnv>().is_err());
    assert!("opengl4.4".parse::<TargetEnv>().is_err());
}

#[test]
fn ids_in_order_of_first_appearance() {
    let w = asm("%5 = OpTypeVoid\n%a = OpTypeBool\n%2 = OpTypeFunction %5\n%b = OpTypeFunction %a\n%1 = OpTypeFunction %b\n");
    assert_eq!(w[3], 6);
    assert_eq!(
        &w[5..],
        &[
            0x0002_0013,
            1,
            0x0002_0014,
            2,
            0x0003_0021,
            3,
            1,
            0x0003_0021,
            4,
            2,
            0x0003_0021,
            5,
            4
        ]
    );
    // The result type is numbered before the result.
    let w = body("%x = OpUndef %t\n");
    assert_eq!(w, vec![0x0003_0001, 1, 2]);
    // `%1` and `%01` are different names.
    let w = body("%1 = OpTypeVoid\n%01 = OpTypeBool\n");
    assert_eq!(w, vec![0x0002_0013, 1, 0x0002_0014, 2]);
}

#[test]
fn preserve_numeric_ids() {
    let o = opts(TargetEnv::default(), true);
    let w = assemble(
        "%5 = OpTypeVoid\n%a = OpTypeBool\n%2 = OpTypeFunction %5\n%b = OpTypeFunction %a\n%1 = OpTypeFunction %b\n",
        &o,
    )
    .unwrap();
    assert_eq!(w[3], 6);
    assert_eq!(
        &w[5..],
        &[
            0x0002_0013,
            5,
            0x0002_0014,
            3,
            0x0003_0021,
            2,
            5,
            0x0003_0021,
            4,
            3,
            0x0003_0021,
            1,
            4
        ]
    );
    // Hex and octal spellings are numbers too; ids in comments and strings are not.
    let w = assemble(
        "%0x10 = OpTypeVoid\n%a = OpTypeBool\n%010 = OpTypeBool\n; %1\nOpName %a \"%2\"\n",
        &o,
    )
    .unwrap();
    assert_eq!(w[3], 17);
    assert_eq!(
        &w[5..11],
        &[0x0002_0013, 16, 0x0002_0014, 1, 0x0002_0014, 8]
    );
    // Errors come from a first pass that numbers ids in order, as spirv-as's do.
    let e = assemble("%3 = OpTypeVoid\n%4 = OpTypeBool\n%3 = OpTypeVoid\n", &o).unwrap_err();
    assert_eq!(
        e.message,
        "Value 1 has already been used to generate a type"
    );
}

#[test]
fn operands() {
    // Enumerants with parameters, masks with parameters in bit order, optional operands.
    assert_eq!(
        body("OpExecutionMode %m LocalSize 8 4 1\n"),
        vec![0x0006_0010, 1, 17, 8, 4, 1]
    );
    assert_eq!(
        body("%r = OpLoad %t %p Volatile|Aligned 16\n"),
        vec![0x0006_003d, 1, 2, 3, 3, 16]
    );
    assert_eq!(
        body("OpLoopMerge %a %b DependencyLength|MaxIterations 4 5\n"),
        vec![0x0006_00f6, 1, 2, 0x28, 4, 5]
    );
    assert_eq!(body("OpSource GLSL 450\n"), vec![0x0003_0003, 2, 450]);
    assert_eq!(
        body("OpMemberDecorate %s 1 Offset 16\n"),
        vec![0x0005_0048, 1, 1, 35, 16]
    );
    // Aliases.
    assert_eq!(
        body("OpDecorateStringGOOGLE %x HlslSemanticGOOGLE \"A\"\n"),
        vec![0x0004_1600, 1, 5635, 0x41]
    );
    // Strings with escapes.
    assert_eq!(
        body("OpName %a \"x\\\"y\\\\z\\n\"\n"),
        vec![0x0004_0005, 1, 0x5c79_2278, 0x6e7a]
    );
    assert_eq!(
        body("OpName %a \"abc;d\"\n"),
        vec![0x0004_0005, 1, 0x3b63_6261, 0x64]
    );
    // OpPhi's pairs are ids, read one by one.
    assert_eq!(
        body("%r = OpPhi %t %a %b %c\n"),
        vec![0x0006_00f5, 1, 2, 3, 4, 5]
    );
}

#[test]
fn numbers() {
    let ints = "%i32 = OpTypeInt 32 1\n%u32 = OpTypeInt 32 0\n%i16 = OpTypeInt 16 1\n%u64 = OpTypeInt 64 0\n%i64 = OpTypeInt 64 1\n";
    let w = body(&format!(
        "{ints}%a = OpConstant %i32 -1\n%b = OpConstant %i32 010\n%c = OpConstant %i16 0xffff\n%d = OpConstant %u64 0x123456789\n%e = OpConstant %i64 -2\n%f = OpConstant %u32 +7\n"
    ));
    assert_eq!(&w[20..24], &[0x0004_002b, 1, 6, 0xffff_ffff]);
    assert_eq!(&w[24..28], &[0x0004_002b, 1, 7, 8]);
    assert_eq!(&w[28..32], &[0x0004_002b, 3, 8, 0xffff_ffff]);
    assert_eq!(&w[32..37], &[0x0005_002b, 4, 9, 0x2345_6789, 1]);
    assert_eq!(&w[37..42], &[0x0005_002b, 5, 10, 0xffff_fffe, 0xffff_ffff]);
    assert_eq!(&w[42..46], &[0x0004_002b, 2, 11, 7]);
    let floats = "%h = OpTypeFloat 16\n%f = OpTypeFloat 32\n%d = OpTypeFloat 64\n";
    let w = body(&format!(
        "{floats}%a = OpConstant %f 0x1.8p+3\n%b = OpConstant %f -0x1p-128\n%c = OpConstant %f 0x1p+128\n%e = OpConstant %h 1.5\n%g = OpConstant %d 0.1\n%k = OpConstant %f 0x1.0000018p0\n"
    ));
    assert_eq!(&w[9..13], &[0x0004_002b, 2, 4, 0x4140_0000]);
    assert_eq!(&w[13..17], &[0x0004_002b, 2, 5, 0x8020_0000]);
    assert_eq!(&w[17..21], &[0x0004_002b, 2, 6, 0x7f80_0000]);
    assert_eq!(&w[21..25], &[0x0004_002b, 1, 7, 0x3e00]);
    assert_eq!(&w[25..30], &[0x0005_002b, 3, 8, 0x9999_999a, 0x3fb9_9999]);
    assert_eq!(&w[30..34], &[0x0004_002b, 2, 9, 0x3f80_0000]);
}

#[test]
fn switch_spec_constant_op_ext_inst_and_immediates() {
    let w = body("%l = OpTypeInt 64 1\n%s = OpUndef %l\nOpSwitch %s %d 1 %a -1 %b\n");
    assert_eq!(
        &w[7..],
        &[0x0009_00fb, 2, 3, 1, 0, 4, 0xffff_ffff, 0xffff_ffff, 5]
    );
    let w = body("%i = OpTypeInt 32 1\n%r = OpSpecConstantOp %i IAdd %a %b\n");
    assert_eq!(&w[4..], &[0x0006_0034, 1, 2, 128, 3, 4]);
    let w = body("%g = OpExtInstImport \"GLSL.std.450\"\n%r = OpExtInst %t %g Sqrt %x\n");
    assert_eq!(&w[6..], &[0x0006_000c, 2, 3, 1, 31, 4]);
    let w = body("%n = OpExtInstImport \"NonSemantic.Foo\"\n%r = OpExtInst %t %n 7 %a %b\n");
    assert_eq!(&w[6..], &[0x0007_000c, 2, 3, 1, 7, 4, 5]);
    // `!<n>` words: a whole instruction, or an operand after which words are free-form.
    assert_eq!(body("!0x00020011 !1\n"), vec![0x0002_0011, 1]);
    assert_eq!(
        body("!0x00020011 1 2.5 \"ab\" %x -1\n"),
        vec![0x0002_0011, 1, 0x4020_0000, 0x6261, 1, 0xffff_ffff]
    );
    assert_eq!(
        body("OpCapability !5 6 \"x\" %y\n"),
        vec![0x0005_0011, 5, 6, 0x78, 1]
    );
    assert_eq!(
        body("%2 = OpConstant %1 !5 6\n"),
        vec![0x0005_002b, 1, 2, 5, 6]
    );
}

#[test]
fn comments_whitespace_and_nul() {
    assert_eq!(
        body("OpCapability Shader;c\nOpCapability Shader\r\n\tOpCapability\tShader ; x\n"),
        vec![0x0002_0011, 1, 0x0002_0011, 1, 0x0002_0011, 1]
    );
    // Text stops at a NUL.
    assert_eq!(body("OpCapability Shader\n\0garbage"), vec![0x0002_0011, 1]);
    assert_eq!(asm("\n\n  ; nothing\n").len(), 5);
}

#[test]
fn version_gated_names() {
    let e = assemble(
        "%1 = OpCopyLogical %2 %3\n",
        &opts(TargetEnv::Universal1_3, false),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "1:6: error: Invalid Opcode name 'OpCopyLogical'"
    );
    assert!(assemble(
        "%1 = OpCopyLogical %2 %3\n",
        &opts(TargetEnv::Universal1_4, false)
    )
    .is_ok());
    let e = assemble(
        "OpCapability GroupNonUniform\n",
        &opts(TargetEnv::Universal1_2, false),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "1:14: error: Invalid capability 'GroupNonUniform'."
    );
    // Enabled by an extension under its other name: always known.
    assert!(assemble(
        "OpCapability VulkanMemoryModel\n",
        &opts(TargetEnv::Universal1_0, false)
    )
    .is_ok());
    let e = assemble(
        "%1 = OpImageRead %2 %3 %4 SignExtend\n",
        &opts(TargetEnv::Vulkan1_1, false),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "1:27: error: Invalid image operand 'SignExtend'."
    );
}

/// Bad input: the 1-based position of the offending word and spirv-as's message.
#[test]
fn errors() {
    let cases: &[(&str, &str)] = &[
        ("", "1:1: error: Missing assembly text."),
        ("OpCapability Shader\nOpFoo\n", "2:1: error: Invalid Opcode name 'OpFoo'"),
        ("OpCapability Shaderx\n", "1:14: error: Invalid capability 'Shaderx'."),
        ("OpCapability 1\n", "1:14: error: Invalid capability '1'."),
        ("OpCapability\n", "2:1: error: Expected operand for OpCapability instruction, but found the end of the stream."),
        (
            "OpMemoryModel Logical\n%1 = OpTypeVoid",
            "2:1: error: Expected operand for OpMemoryModel instruction, but found the next instruction instead.",
        ),
        ("%1 OpTypeVoid\n", "1:4: error: '=' expected after result id."),
        ("%a=OpTypeVoid\n", "2:1: error: Expected '=', found end of stream."),
        ("%1 =\n", "2:1: error: Expected opcode, found end of stream."),
        ("%1 = Foo\n", "1:6: error: Invalid Opcode prefix 'Foo'."),
        ("foo\n", "1:1: error: Expected <opcode> or <result-id> at the beginning of an instruction, found 'foo'."),
        ("OpLoad %1 %2\n", "1:1: error: Expected <result-id> at the beginning of an instruction, found 'OpLoad'."),
        (
            "OpCapability Shader\n%1 = OpCapability Shader\n",
            "2:6: error: Cannot set ID %1 because OpCapability does not produce a result ID.",
        ),
        (
            "OpMemoryModel Logical GLSL450 extra\n",
            "1:31: error: Expected <opcode> or <result-id> at the beginning of an instruction, found 'extra'.",
        ),
        ("OpName a \"x\"\n", "1:8: error: Expected id to start with %."),
        ("OpName %a.b \"x\"\n", "1:8: error: Invalid ID a.b"),
        ("OpName %a \"abc\n", "1:11: error: Invalid literal string '\"abc\n'."),
        ("OpName %a 12\n", "1:11: error: Expected literal string, found literal number '12'."),
        (
            "%1 = OpTypeInt 32 1\n%2 = OpConstant %1 4294967296\n",
            "2:20: error: Integer 4294967296 does not fit in a 32-bit signed integer",
        ),
        (
            "%1 = OpTypeInt 16 1\n%2 = OpConstant %1 0x1ffff\n",
            "2:20: error: Integer 0x1ffff does not fit in a 16-bit signed integer",
        ),
        ("%1 = OpTypeInt 32 0\n%2 = OpConstant %1 -1\n", "2:20: error: Cannot put a negative number in an unsigned literal"),
        ("%1 = OpTypeInt 32 0\n%2 = OpConstant %1 08\n", "2:20: error: Invalid unsigned integer literal: 08"),
        ("%1 = OpTypeFloat 32\n%2 = OpConstant %1 1e39\n", "2:20: error: Invalid 32-bit float literal: 1e39"),
        ("%1 = OpTypeFloat 16\n%2 = OpConstant %1 65536\n", "2:20: error: Invalid 16-bit float literal: 65536"),
        ("%1 = OpTypeFloat 32\n%2 = OpConstant %1 0x1p\n", "2:20: error: Invalid 32-bit float literal: 0x1p"),
        ("%1 = OpTypeInt 128 1\n%2 = OpConstant %1 1\n", "2:20: error: Unsupported 128-bit integer literals"),
        (
            "%1 = OpTypeVoid\n%2 = OpConstant %1 1\n",
            "2:20: error: Type for Constant must be a scalar floating point or integer type",
        ),
        (
            "OpSwitch %2 %3 1 %4\n",
            "1:16: error: The selector operand for OpSwitch must be the result of an instruction that generates an integer scalar",
        ),
        ("OpSource GLSL -1\n", "1:15: error: Cannot put a negative number in an unsigned literal"),
        ("%1 = OpLoad %2 %3 2\n", "1:19: error: Invalid memory access operand '2'."),
        ("OpLoopMerge %1 %2 Unroll|\n", "1:19: error: Invalid loop control operand 'Unroll|'."),
        ("%1 = OpTypeImage %2 2D 0 0 0 1 Unknown Foo\n", "1:40: error: Invalid access qualifier 'Foo'."),
        ("%1 = OpTypeInt 32 1\n%2 = OpSpecConstantOp %1 Load %3\n", "2:26: error: Invalid OpSpecConstantOp opcode 'Load'."),
        ("%1 = OpExtInstImport \"Foo\"\n", "1:22: error: Invalid extended instruction import 'Foo'"),
        ("%2 = OpExtInst %3 %1 Sqrt %4\n", "1:19: error: Invalid extended instruction import Id 2"),
        (
            "%1 = OpExtInstImport \"GLSL.std.450\"\n%2 = OpExtInst %3 %1 Sqrtx %4\n",
            "2:22: error: Invalid extended instruction name 'Sqrtx'.",
        ),
        (
            "%1 = OpExtInstImport \"NonSemantic.Foo\"\n%2 = OpExtInst %3 %1 Bar %4\n",
            "2:22: error: Couldn't translate unknown extended instruction name 'Bar' to unsigned integer.",
        ),
        (
            "%1 = OpExtInstImport \"GLSL.std.450\"\n%1 = OpExtInstImport \"GLSL.std.450\"\n",
            "2:22: error: Import Id is being defined a second time",
        ),
        ("OpCapability !x\n", "1:14: error: Invalid immediate integer: !x"),
        ("OpCapability !5 abc\n", "1:17: error: Invalid word following !<integer>: abc"),
        ("!0x00020011 = 1\n", "1:13: error: !0x00020011 not allowed before =."),
        ("%1 = OpTypeVoid\n%1 = OpTypeVoid\n", "2:1: error: Value 1 has already been used to generate a type"),
        ("%1 = OpTypeInt !32 1 9\n", "1:6: error: Invalid OpTypeInt instruction"),
        ("\0OpCapability Shader", "1:1: error: Expected <opcode> or <result-id> at the beginning of an instruction, found ''."),
        // spirv-as reports a bad result id at the end of the opcode; this at the id.
        ("%a\\ b = OpTypeVoid\n", "1:1: error: Invalid ID a\\ b"),
        // Unlike spirv-as, a value defined twice is an error.
        (
            "%1 = OpTypeInt 32 1\n%2 = OpConstant %1 1\n%2 = OpConstant %1 2\n",
            "3:1: error: ID %2 (id 2) is being defined a second time",
        ),
    ];
    for (text, want) in cases {
        assert_eq!(&asm_err(text), want, "{text:?}");
    }
}

#[test]
fn error_type() {
    let e = assemble("OpFoo", &default_opts()).unwrap_err();
    assert_eq!((e.line, e.column), (1, 1));
    let dynamic: Box<dyn std::error::Error> = Box::new(e.clone());
    assert_eq!(
        dynamic.to_string(),
        "1:1: error: Invalid Opcode name 'OpFoo'"
    );
    assert_eq!(
        e,
        AssembleError {
            line: 1,
            column: 1,
            message: "Invalid Opcode name 'OpFoo'".into()
        }
    );
}

// ---------------------------------------------------------------------------------------------
// Against spirv-as: inline assembly.

const INLINE: &[&str] = &[
    "OpCapability Shader\nOpCapability Float16\nOpCapability Float64\nOpCapability Int64\nOpCapability Int16\nOpCapability Int8\n\
     OpMemoryModel Logical GLSL450\n%void = OpTypeVoid\n%h = OpTypeFloat 16\n%f = OpTypeFloat 32\n%d = OpTypeFloat 64\n\
     %i8 = OpTypeInt 8 1\n%u8 = OpTypeInt 8 0\n%i16 = OpTypeInt 16 1\n%u16 = OpTypeInt 16 0\n%i32 = OpTypeInt 32 1\n%u32 = OpTypeInt 32 0\n\
     %i64 = OpTypeInt 64 1\n%u64 = OpTypeInt 64 0\n\
     %c1 = OpConstant %i8 -128\n%c2 = OpConstant %u8 255\n%c3 = OpConstant %i8 0x80\n%c4 = OpConstant %i16 -32768\n%c5 = OpConstant %u16 0xffff\n\
     %c6 = OpConstant %i32 -2147483648\n%c7 = OpConstant %u32 4294967295\n%c8 = OpConstant %i64 -9223372036854775808\n\
     %c9 = OpConstant %u64 18446744073709551615\n%c10 = OpConstant %i64 0x8000000000000000\n%c11 = OpConstant %i32 0777\n\
     %f1 = OpConstant %h 0x1.ffcp+15\n%f2 = OpConstant %h -0x1p-24\n%f3 = OpConstant %h 0.1\n%f4 = OpConstant %h 65504\n%f5 = OpConstant %h -0x1p+16\n\
     %f6 = OpConstant %f 3.4028234663852886e38\n%f7 = OpConstant %f 1.4e-45\n%f8 = OpConstant %f -0x1.8p+128\n%f9 = OpConstant %f 0x1.fffffep+127\n\
     %f10 = OpConstant %d 2.2250738585072014e-308\n%f11 = OpConstant %d -0x1.8p+1024\n%f12 = OpConstant %d 4.9e-324\n%f13 = OpConstant %f .5\n\
     %f14 = OpConstant %f 5.\n%f15 = OpConstant %f -0.0\n%f16 = OpConstant %f 1E+2\n%f17 = OpConstant %d 0x1.23456789abcdefp-1022\n\
     %f18 = OpConstant %f 0x1.8p-127\n%f19 = OpConstant %h 0x1.8p-17\n%f20 = OpSpecConstant %d -1e-320\n%f21 = OpConstant %f 0X1P0\n",
    "OpCapability Kernel\nOpCapability Addresses\nOpMemoryModel Physical64 OpenCL\n%ocl = OpExtInstImport \"OpenCL.std\"\n\
     OpEntryPoint Kernel %k \"k\"\nOpExecutionMode %k LocalSize 1 1 1\nOpExecutionMode %k ContractionOff\n\
     OpSource OpenCL_C 200000\nOpName %k \"k\"\nOpDecorate %k LinkageAttributes \"k\" Export\nOpDecorate %fp FuncParamAttr NoAlias\n\
     %void = OpTypeVoid\n%f = OpTypeFloat 32\n%u = OpTypeInt 32 0\n%fn = OpTypeFunction %void %f\n\
     %k = OpFunction %void Inline|Pure %fn\n%fp = OpFunctionParameter %f\n%l = OpLabel\n\
     %x = OpExtInst %f %ocl fmax %fp %fp\n%y = OpExtInst %f %ocl printf %fp %fp %x\n\
     OpReturn\nOpFunctionEnd\n",
    "OpCapability Shader\nOpMemoryModel Logical GLSL450\n%i = OpTypeInt 32 1\n%b = OpTypeBool\n%s = OpSpecConstant %i 3\n\
     %t = OpSpecConstantTrue %b\n%v2 = OpTypeVector %i 2\n%c = OpSpecConstantComposite %v2 %s %s\n\
     %o1 = OpSpecConstantOp %i IAdd %s %s\n%o2 = OpSpecConstantOp %i CompositeExtract %c 1\n\
     %o3 = OpSpecConstantOp %v2 VectorShuffle %c %c 3 0xFFFFFFFF\n%o4 = OpSpecConstantOp %i Select %t %s %o1\n\
     %o5 = OpSpecConstantOp %b SLessThan %s %o1\n",
    "OpCapability Shader\nOpMemoryModel Logical GLSL450\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%i = OpTypeInt 32 1\n\
     %u64 = OpTypeInt 64 0\n%x = OpUndef %i\n%y = OpUndef %u64\n%main = OpFunction %void None %fn\n%e = OpLabel\n\
     OpSelectionMerge %m Flatten\nOpSwitch %x %m -1 %a 0x7fffffff %a 3 %b\n%a = OpLabel\nOpBranch %m\n%b = OpLabel\n\
     OpLoopMerge %m %b Unroll|PeelCount|PartialCount 3 4\nOpSwitch %y %m 18446744073709551615 %a 0 %b\n\
     %m = OpLabel\nOpReturn\nOpFunctionEnd\n",
    "!0x00020011 !1\n!0x0003000e 0 1\n%void = OpTypeVoid\n!0x00020013 %foo\n%i = OpTypeInt !32 !1\n\
     %c = OpConstant %i !7\n%d = OpConstant !2 %e 9 \"s\" 1.25 -3\nOpName %c !0x63 \"x\" 2\n%x = OpUndef !2\n",
    "OpCapability Shader\n%d = OpExtInstImport \"NonSemantic.Shader.DebugInfo.100\"\n%p = OpExtInstImport \"NonSemantic.DebugPrintf\"\n\
     %c = OpExtInstImport \"NonSemantic.ClspvReflection.5\"\n%u = OpExtInstImport \"NonSemantic.Unknown.7\"\n\
     OpMemoryModel Logical GLSL450\n%void = OpTypeVoid\n%s = OpString \"main\"\n\
     %1 = OpExtInst %void %d DebugInfoNone\n%2 = OpExtInst %void %d DebugSource %s %s\n%3 = OpExtInst %void %d 2 %s\n\
     %4 = OpExtInst %void %p 1 %s %s %s\n%5 = OpExtInst %void %c Kernel %s %s\n%6 = OpExtInst %void %u 0\n\
     %7 = OpExtInst %void %u 4294967295 %1 %2\n",
    "OpCapability Shader\nOpCapability Linkage\nOpMemoryModel Logical GLSL450\n\
     OpDecorateString %x UserSemantic \"a b\\\\c\"\nOpMemberDecorateStringGOOGLE %s 0 HlslSemanticGOOGLE \"POS\"\n\
     OpDecorateId %x CounterBuffer %y\nOpDecorate %x HlslCounterBufferGOOGLE %y\nOpDecorate %x SpecId 7\n\
     OpDecorate %x BuiltIn Position\nOpDecorate %x LinkageAttributes \"n\\\"q\" Import\nOpMemberDecorate %s 1 Offset 8\n\
     OpGroupMemberDecorate %g %s 0 %s 1\nOpGroupDecorate %g %x %y\n%g = OpDecorationGroup\n\
     OpSourceContinued \"\"\nOpSourceExtension \"GL_x\"\nOpModuleProcessed \"p\"\nOpLine %s 1 2\nOpNoLine\n",
    "OpCapability Shader\n;comment only\n  OpMemoryModel\tLogical\tGLSL450 ; trailing\r\n\
     %a = OpTypeVoid\n",
];

#[test]
fn inline_against_spirv_as() {
    if !have_spirv_as() {
        return;
    }
    for (i, text) in INLINE.iter().enumerate() {
        for env in [
            TargetEnv::Universal1_6,
            TargetEnv::Universal1_0,
            TargetEnv::Vulkan1_1,
            TargetEnv::OpenCl2_2,
        ] {
            for preserve in [false, true] {
                check(&format!("inline #{i}"), text, &opts(env, preserve));
            }
        }
    }
}

/// Small malformed inputs: both reject, with the same message at the same place.
#[test]
fn errors_against_spirv_as() {
    if !have_spirv_as() {
        return;
    }
    let prelude = "%i = OpTypeInt 32 1\n%u = OpTypeInt 32 0\n%h = OpTypeFloat 16\n%f = OpTypeFloat 32\n%d = OpTypeFloat 64\n%s = OpUndef %i\n%g = OpExtInstImport \"GLSL.std.450\"\n";
    let lines = [
        "%c = OpConstant %u 0x100000000",
        "%c = OpConstant %i -2147483649",
        "%c = OpConstant %u 1.5",
        "%c = OpConstant %f inf",
        "%c = OpConstant %f 1e",
        "%c = OpConstant %f --1",
        "%c = OpConstant %f 0x1p1-",
        "%c = OpConstant %f 0x1P1",
        "%c = OpConstant %h 1e10",
        "%c = OpConstant %d 1e309",
        "%c = OpConstant %i",
        "%c = OpConstant %i 1 2",
        "OpSwitch %s %d 1",
        "OpSwitch %s %d 1 %a x",
        "OpSwitch %s %d 4294967296 %a",
        "%r = OpExtInst %i %g 31 %x",
        "%r = OpExtInst %i %g Sqrt",
        "%r = OpExtInst %i %g Sqrt %x %y",
        "%r = OpSpecConstantOp %i OpIAdd %a %b",
        "%r = OpSpecConstantOp %i 128 %a %b",
        "OpCapability !-1",
        "OpCapability !4294967296",
        "OpCapability !5 4294967296",
        "OpCapability !5 Op",
        "%r = !0x00020011",
        "OpName %a \"x\"y\"",
        "OpName %a a\"x y\"",
        "OpName %a\\ b \"x\"",
        "OpName % \"x\"",
        "OpEntryPoint Fragment %1 main",
        "OpSource GLSL 450 \"foo\"",
        "OpSource GLSL 450 %1 foo",
        "OpSource GLSL 450 %1 123",
        "OpDecorate %1 ArrayStride 1.5",
        "OpLoopMerge %1 %2 0x1",
        "OpLoopMerge %1 %2 |Unroll",
        "OpGroupMemberDecorate %1 %2 3 %4",
        "%1 = OpLoad %2 %3 Aligned",
        "OpExecutionMode %1 LocalSize 1 2",
        "OpCapabilit Shader",
        "opCapability Shader",
        "Op",
        "OpFoo;bar",
        "OpCapability Shader,",
        "OpDecorateStringGOOGLE %1",
    ];
    for line in lines {
        let text = format!("{prelude}{line}\n");
        let theirs = spirv_as(&text, &default_opts());
        assert!(theirs.is_err(), "spirv-as accepts {line:?}");
        check(line, &text, &default_opts());
    }
}

// ---------------------------------------------------------------------------------------------
// Against spirv-as: the whole grammar.

/// A plausible operand list for a kind (ids are fresh names; enums their `n`-th enumerant).
fn sample(kind: &'static KindDesc, n: usize, out: &mut Vec<String>) {
    match kind.class {
        KindClass::ResultType => out.push("%int".into()),
        KindClass::Result => {}
        KindClass::Id => out.push(format!("%a{}", out.len())),
        KindClass::Integer => out.push("7".into()),
        KindClass::Float => out.push("1.5".into()),
        KindClass::String => out.push("\"s\"".into()),
        KindClass::ContextNumber => out.push("-3".into()),
        KindClass::ExtInstNumber => out.push("Sqrt".into()),
        KindClass::SpecConstantOpcode => out.push("IAdd".into()),
        KindClass::Composite => match kind.name {
            "PairLiteralIntegerIdRef" => out.extend(["5".to_string(), "%l".to_string()]),
            _ => {
                for b in kind.bases {
                    sample(b, n, out);
                }
            }
        },
        KindClass::ValueEnum | KindClass::BitEnum => {
            let e = &kind.enumerants[n % kind.enumerants.len()];
            out.push(e.name.to_string());
            for p in e.parameters {
                sample(p.kind, 0, out);
            }
        }
    }
}

const SWEEP_PRELUDE: &str = "%int = OpTypeInt 32 1\n%uint = OpTypeInt 32 0\n%float = OpTypeFloat 32\n%sel = OpUndef %int\n%set = OpExtInstImport \"GLSL.std.450\"\n";

/// Runs `check` over many texts on a few threads.
fn check_all(cases: Vec<(String, String)>, o: AssembleOptions) {
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some((what, text)) = cases.get(i) else {
                    break;
                };
                check(what, text, &o);
            });
        }
    });
}

#[test]
fn every_instruction_against_spirv_as() {
    if !have_spirv_as() {
        return;
    }
    let mut cases = Vec::new();
    for d in CORE_INSTRUCTIONS.iter() {
        for variant in 0..2 {
            let mut words = Vec::new();
            let mut result = false;
            for o in d.operands {
                if o.kind.class == KindClass::Result {
                    result = true;
                    continue;
                }
                if o.quantifier != Quantifier::One && variant == 0 {
                    continue;
                }
                sample(o.kind, variant, &mut words);
            }
            match d.name {
                "OpExtInst" => words = ["%int", "%set", "Sqrt", "%x"].map(String::from).to_vec(),
                "OpSwitch" => {
                    words = ["%sel", "%d", "1", "%a", "-2", "%b"]
                        .map(String::from)
                        .to_vec()
                }
                _ => {}
            }
            let line = format!(
                "{}{} {}",
                if result { "%r = " } else { "" },
                d.name,
                words.join(" ")
            );
            cases.push((line.clone(), format!("{SWEEP_PRELUDE}{line}\n")));
        }
    }
    check_all(cases, default_opts());
}

#[test]
fn every_enumerant_against_spirv_as() {
    if !have_spirv_as() {
        return;
    }
    let hosts: &[(&str, &str)] = &[
        ("Decoration", "OpDecorate %x {}"),
        ("ExecutionMode", "OpExecutionMode %x {}"),
        ("Capability", "OpCapability {}"),
        ("BuiltIn", "OpDecorate %x BuiltIn {}"),
        ("StorageClass", "%r = OpTypePointer {} %int"),
        ("ImageOperands", "%r = OpImageFetch %int %i %c {}"),
        ("MemoryAccess", "%r = OpLoad %int %p {}"),
        ("LoopControl", "OpLoopMerge %m %c {}"),
        ("SelectionControl", "OpSelectionMerge %m {}"),
        ("FunctionControl", "%r = OpFunction %int {} %ft"),
        ("SourceLanguage", "OpSource {} 100"),
        ("ExecutionModel", "OpEntryPoint {} %f \"m\""),
        ("AddressingModel", "OpMemoryModel {} GLSL450"),
        ("MemoryModel", "OpMemoryModel Logical {}"),
        ("Dim", "%r = OpTypeImage %float {} 0 0 0 1 Unknown"),
        ("ImageFormat", "%r = OpTypeImage %float 2D 0 0 0 2 {}"),
        (
            "AccessQualifier",
            "%r = OpTypeImage %float 2D 0 0 0 2 Unknown {}",
        ),
        (
            "SamplerAddressingMode",
            "%r = OpConstantSampler %s {} 0 Nearest",
        ),
        ("SamplerFilterMode", "%r = OpConstantSampler %s None 0 {}"),
        ("GroupOperation", "%r = OpGroupIAdd %int %sc {} %v"),
        ("PackedVectorFormat", "%r = OpSDot %int %a %b {}"),
        ("FPFastMathMode", "OpDecorate %x FPFastMathMode {}"),
        ("LinkageType", "OpDecorate %x LinkageAttributes \"n\" {}"),
        (
            "FunctionParameterAttribute",
            "OpDecorate %x FuncParamAttr {}",
        ),
        ("FPRoundingMode", "OpDecorate %x FPRoundingMode {}"),
    ];
    let mut cases = Vec::new();
    for &(kind, host) in hosts {
        let k = tables::kind_by_name(kind).expect("core kind");
        for (i, e) in k.enumerants.iter().enumerate() {
            for name in std::iter::once(&e.name).chain(e.aliases) {
                let mut words = vec![name.to_string()];
                for p in e.parameters {
                    sample(p.kind, 0, &mut words);
                }
                let line = host.replace("{}", &words.join(" "));
                cases.push((line.clone(), format!("{SWEEP_PRELUDE}{line}\n")));
            }
            if i == 0 {
                let line = host.replace("{}", "Bogus");
                cases.push((line.clone(), format!("{SWEEP_PRELUDE}{line}\n")));
            }
        }
    }
    for env in [
        TargetEnv::Universal1_6,
        TargetEnv::Universal1_0,
        TargetEnv::Universal1_3,
    ] {
        check_all(cases.clone(), opts(env, false));
    }
}

// ---------------------------------------------------------------------------------------------
// Against spirv-as: modules compiled at test time, disassembled by spirv-dis.

const GLSL: &[(&str, &str)] = &[
    (
        "vert",
        "#version 450\nlayout(location=0) in vec4 pos; layout(location=1) in vec2 uv;\n\
         layout(location=0) out vec2 vuv; layout(set=0, binding=0) uniform UBO { mat4 mvp; vec4 tint[4]; int mode; } ubo;\n\
         out gl_PerVertex { vec4 gl_Position; float gl_PointSize; };\n\
         void main() { vuv = uv * 0.5 + vec2(-1.0e-3, 3.5); gl_Position = ubo.mvp * pos; gl_PointSize = 1.0;\n\
           if (ubo.mode == 2) gl_Position.x += ubo.tint[gl_VertexIndex & 3].y; }\n",
    ),
    (
        "frag",
        "#version 450\nlayout(location=0) in vec2 uv; layout(location=0) out vec4 color;\n\
         layout(set=0, binding=1) uniform sampler2D tex; layout(push_constant) uniform PC { uint sel; float bias; } pc;\n\
         void main() { vec4 c = texture(tex, uv, pc.bias); switch (pc.sel) { case 0u: c.r = 1.0; break;\n\
           case 7u: c = textureLod(tex, uv, 2.0); break; case 4000000000u: c.g = -0.0; break; default: discard; }\n\
           for (int i = 0; i < 4; ++i) { if (c.a < 0.125 * float(i)) continue; c.rgb = fract(c.rgb * 1.5); }\n\
           color = c * vec4(dFdx(uv.x), dFdy(uv.y), 1e-7, 3.4e38); }\n",
    ),
    (
        "comp",
        "#version 450\n#extension GL_EXT_shader_explicit_arithmetic_types : require\n#extension GL_KHR_shader_subgroup_arithmetic : require\n\
         layout(local_size_x = 64) in; layout(std430, binding = 0) buffer B { int64_t a[]; } b;\n\
         layout(std430, binding = 1) buffer C { float16_t h[]; } c; layout(std430, binding = 2) buffer D { double d[]; } dd;\n\
         shared uint s[64];\n\
         layout(constant_id = 3) const int K = 5; const int K2 = K * 2 + 1;\n\
         void main() { uint i = gl_LocalInvocationID.x; s[i] = atomicAdd(s[(i + 1) & 63], 3u); barrier();\n\
           b.a[i] = int64_t(-9000000000l) + int64_t(subgroupAdd(int(s[i]))) + K2; c.h[i] = float16_t(0.333) * c.h[i];\n\
           dd.d[i] = 1.0000000000000002lf + dd.d[i]; memoryBarrierShared(); }\n",
    ),
    (
        "geom",
        "#version 450\nlayout(triangles) in; layout(line_strip, max_vertices = 4) out;\n\
         layout(location=0) in vec3 n[]; layout(location=0) out vec3 o;\n\
         void main() { for (int i = 0; i < 3; ++i) { o = normalize(n[i]); gl_Position = gl_in[i].gl_Position; EmitVertex(); } EndPrimitive(); }\n",
    ),
    (
        "tesc",
        "#version 450\nlayout(vertices = 3) out; layout(location=0) in vec3 p[]; layout(location=0) out vec3 q[];\n\
         void main() { q[gl_InvocationID] = p[gl_InvocationID]; gl_TessLevelInner[0] = 2.0; gl_TessLevelOuter[gl_InvocationID] = 3.0; }\n",
    ),
    (
        "rgen",
        "#version 460\n#extension GL_EXT_ray_tracing : require\nlayout(binding = 0) uniform accelerationStructureEXT tlas;\n\
         layout(location = 0) rayPayloadEXT vec4 payload;\nlayout(binding = 1, rgba8) uniform image2D img;\n\
         void main() { traceRayEXT(tlas, gl_RayFlagsOpaqueEXT, 0xff, 0, 0, 0, vec3(0), 0.001, vec3(0, 0, 1), 1e4, 0);\n\
           imageStore(img, ivec2(gl_LaunchIDEXT.xy), payload); }\n",
    ),
];

const HLSL: &str = "struct VSOut { float4 pos : SV_Position; float2 uv : TEXCOORD0; };\n\
    cbuffer CB : register(b0) { float4x4 mvp; float4 tint; };\n\
    VSOut main(float3 p : POSITION, float2 uv : TEXCOORD0) { VSOut o; o.pos = mul(mvp, float4(p, 1)); o.uv = uv * tint.xy; return o; }\n";

const OPENCL: &str =
    "kernel void k(global float *a, global const int *b, local float *t, float s, int n) {\n\
    size_t i = get_global_id(0); t[get_local_id(0)] = a[i];\n\
    barrier(CLK_LOCAL_MEM_FENCE);\n\
    if (b[i] > 3) a[i] = fma(a[i], s, t[0]) + native_sin(s); else a[i] = (float)b[i] / 3.0f;\n\
    switch (n) { case 1: a[i] *= 2.0f; break; case 100000: a[i] = -0.0f; break; default: break; }\n\
    atomic_add((global int *)b, 1); printf(\"%d %f\\n\", n, s); }\n";

fn run(cmd: &mut Command) -> bool {
    match cmd.output() {
        Ok(o) if o.status.success() => true,
        Ok(o) => {
            eprintln!(
                "note: {cmd:?} failed: {}",
                String::from_utf8_lossy(&o.stdout)
            );
            false
        }
        Err(_) => false,
    }
}

/// Compiles the test shaders into `dir`; returns the modules built.
fn build_modules(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if have("glslangValidator") && have("clang-15") && have("llvm-spirv-15") {
        for (stage, src) in GLSL {
            let input = dir.join(format!("s.{stage}"));
            std::fs::write(&input, src).expect("write shader");
            for (env, g) in [
                ("vulkan1.0", false),
                ("vulkan1.2", true),
                ("vulkan1.3", false),
            ] {
                if env == "vulkan1.0" && matches!(*stage, "comp" | "rgen") {
                    continue;
                }
                let spv = dir.join(format!("{stage}.{env}.spv"));
                let mut cmd = Command::new("glslangValidator");
                cmd.args(["-V", "--target-env", env]);
                if g {
                    cmd.arg("-g");
                }
                cmd.arg(&input).arg("-o").arg(&spv);
                if run(&mut cmd) {
                    out.push(spv);
                }
            }
        }
        let input = dir.join("s.hlsl");
        std::fs::write(&input, HLSL).expect("write hlsl");
        let spv = dir.join("hlsl.spv");
        if run(Command::new("glslangValidator")
            .args(["-V", "-D", "-e", "main", "-S", "vert"])
            .arg(&input)
            .arg("-o")
            .arg(&spv))
        {
            out.push(spv);
        }

        let input = dir.join("k.cl");
        std::fs::write(&input, OPENCL).expect("write OpenCL C");
        let bc = dir.join("k.bc");
        let spv = dir.join("k.cl.spv");
        if run(Command::new("clang-15")
            .args(["-c", "-target", "spir64", "-O1", "-emit-llvm", "-o"])
            .arg(&bc)
            .arg(&input))
            && run(Command::new("llvm-spirv-15").arg(&bc).arg("-o").arg(&spv))
        {
            out.push(spv);
        }
    }
    out
}

fn disassemble(spv: &Path, flags: &[&str]) -> Option<String> {
    let o = Command::new("spirv-dis")
        .args(flags)
        .arg(spv)
        .args(["-o", "-"])
        .output()
        .ok()?;
    o.status
        .success()
        .then(|| String::from_utf8_lossy(&o.stdout).into_owned())
}

#[test]
fn compiled_modules_against_spirv_as() {
    if !have_spirv_as() || !have("spirv-dis") {
        return;
    }
    let dir = scratch("compiled");
    let modules = build_modules(&dir);
    let mut texts = 0;
    for spv in &modules {
        let original = words_of(&std::fs::read(spv).expect("module"));
        for flags in [
            &[][..],
            &["--raw-id"],
            &["--comment", "--no-indent"],
            &["--raw-id", "--no-header"],
        ] {
            let Some(text) = disassemble(spv, flags) else {
                continue;
            };
            texts += 1;
            let what = format!("{} {}", spv.display(), flags.join(" "));
            // With raw ids kept, the module comes back exactly (but for the generator word).
            if flags.contains(&"--raw-id") {
                let mine = assemble(&text, &opts(TargetEnv::Universal1_6, true))
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                assert_eq!(
                    &mine[5..],
                    &original[5..],
                    "{what}: not the original module"
                );
                assert_eq!(mine[3], original[3], "{what}: not the original bound");
            }
            for env in [
                TargetEnv::Universal1_6,
                TargetEnv::Universal1_0,
                TargetEnv::Vulkan1_1,
                TargetEnv::OpenCl2_2,
            ] {
                check(&what, &text, &opts(env, false));
            }
            check(&what, &text, &opts(TargetEnv::Vulkan1_2, true));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!(
        "compared {texts} disassemblies of {} modules",
        modules.len()
    );
}

/// Every corpus module, disassembled by spirv-dis with friendly names and with raw ids, in its
/// target environment: assembled as spirv-as assembles it (and, from raw ids with ids kept,
/// back to the module itself).
#[test]
fn corpus_against_spirv_as() {
    if !have_spirv_as() || !have("spirv-dis") {
        return;
    }
    let modules = corpus::build_all();
    let failures = std::sync::Mutex::new(Vec::new());
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(m) = modules.get(i) else { break };
                let env: TargetEnv = match m.target_env.parse() {
                    Ok(e) => e,
                    Err(e) => panic!("{}: {e}", m.name),
                };
                for flags in [&[][..], &["--raw-id"]] {
                    let Some(text) = disassemble(&m.path, flags) else {
                        failures
                            .lock()
                            .unwrap()
                            .push(format!("{}: spirv-dis failed", m.name));
                        continue;
                    };
                    let what = format!("{} {}", m.name, flags.join(" "));
                    for o in [opts(env, false), opts(env, true)] {
                        let r = std::panic::catch_unwind(|| check(&what, &text, &o));
                        if let Err(p) = r {
                            let msg = p
                                .downcast_ref::<String>()
                                .cloned()
                                .unwrap_or_else(|| "panic".into());
                            failures.lock().unwrap().push(msg);
                        }
                    }
                    if flags.contains(&"--raw-id") {
                        let original = m.words();
                        match assemble(&text, &opts(env, true)) {
                            Ok(w) if w[3..] == original[3..] => {}
                            Ok(_) => failures
                                .lock()
                                .unwrap()
                                .push(format!("{what}: not the original module")),
                            Err(e) => failures.lock().unwrap().push(format!("{what}: {e}")),
                        }
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    eprintln!(
        "corpus: {} modules, {} failures",
        modules.len(),
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The corpus's hand-written assembly sources assemble to what spirv-as made of them.
#[test]
fn corpus_sources_assemble_like_spirv_as() {
    let modules = corpus::build_all();
    let mut n = 0;
    for m in modules
        .iter()
        .filter(|m| m.source == corpus::Source::SpvAsm)
    {
        let text = std::fs::read_to_string(m.source_path()).expect("corpus source");
        let preserve = text
            .lines()
            .take_while(|l| l.trim().is_empty() || l.starts_with(';'))
            .any(|l| l.starts_with("; args:") && l.contains("--preserve-numeric-ids"));
        let env: TargetEnv = m.target_env.parse().expect("corpus target env");
        let words =
            assemble(&text, &opts(env, preserve)).unwrap_or_else(|e| panic!("{}: {e}", m.name));
        assert!(words == m.words(), "{}: differs from spirv-as", m.name);
        n += 1;
    }
    assert!(n > 0, "no assembly sources in the corpus");
}

// ---------------------------------------------------------------------------------------------
// Throughput (ignored by default: `cargo test --release --test asm -- --ignored --nocapture`).

/// A large GLSL compute shader: `n` functions of branches, loops, switches and texture reads.
fn big_glsl(n: usize) -> String {
    let mut s = String::from(
        "#version 450\nlayout(local_size_x=64) in;\nlayout(std430, binding=0) buffer B { vec4 data[]; } b;\n\
         layout(binding=1) uniform sampler2D tex;\nstruct S { vec4 a; ivec2 b; float c[4]; };\nshared float sh[64];\n",
    );
    for i in 0..n {
        s += &format!("vec4 fn{i}(vec4 x, int k, S s) {{\n  vec4 acc = x * 0.{i}5 + vec4({i}.0, 0.25, -0.125, 1e-3);\n");
        for j in 0..6 {
            s += &format!(
                "  if (k > {}) {{ acc = acc * sin(acc.yzwx) * {}.{j}7; acc.x += float(k ^ {}); }}\n  else {{ acc = mix(acc, textureLod(tex, acc.xy, {j}.0), 0.{}); acc.w = clamp(acc.w, -{j}.5, {j}.25) + s.c[{}]; }}\n",
                j * 7 + i % 13,
                j + 1,
                i * 7919 + j,
                j + 1,
                j % 4
            );
        }
        s += &format!(
            "  switch (k & 7) {{ case 0: acc += 1.0; break; case {}: acc *= 2.0; break; default: acc = normalize(acc); }}\n  for (int q = 0; q < k % 5; ++q) {{ acc += vec4(s.b.xyxy) * float(q) + sh[q & 63]; }}\n  return acc;\n}}\n",
            1 + i % 5
        );
    }
    s += "void main() { uint id = gl_GlobalInvocationID.x; vec4 v = b.data[id]; S s; s.a = v; s.b = ivec2(id); s.c = float[4](1,2,3,4); int k = int(id);\n";
    for i in 0..n {
        s += &format!("  v = fn{i}(v, k + {i}, s);\n");
    }
    s += "  b.data[id] = v; }\n";
    s
}

#[test]
#[ignore]
fn throughput_against_spirv_as() {
    if !have_spirv_as() || !have("spirv-dis") || !have("glslangValidator") {
        return;
    }
    let dir = scratch("throughput");
    let src = dir.join("big.comp");
    let spv = dir.join("big.spv");
    std::fs::write(&src, big_glsl(1500)).expect("write shader");
    assert!(run(Command::new("glslangValidator")
        .arg("-V")
        .arg(&src)
        .arg("-o")
        .arg(&spv)));
    for flags in [&[][..], &["--raw-id"]] {
        let text = disassemble(&spv, flags).expect("spirv-dis");
        let path = dir.join("big.spvasm");
        std::fs::write(&path, &text).expect("write text");
        let t = std::time::Instant::now();
        let status = Command::new("spirv-as")
            .arg(&path)
            .arg("-o")
            .arg(dir.join("ref.spv"))
            .status()
            .expect("spirv-as");
        let theirs = t.elapsed();
        assert!(status.success());
        let reference = words_of(&std::fs::read(dir.join("ref.spv")).expect("ref"));
        let mut best = std::time::Duration::MAX;
        let mut words = Vec::new();
        for _ in 0..5 {
            let t = std::time::Instant::now();
            words = assemble(&text, &default_opts()).expect("assembles");
            best = best.min(t.elapsed());
        }
        assert_eq!(words, reference);
        let mb = (words.len() * 4) as f64 / 1e6;
        eprintln!(
            "{} ({:.1} MB text, {mb:.1} MB binary): spirv-as {:.0} ms ({:.1} MB/s, process included), spvkit {:.0} ms ({:.1} MB/s): {:.1}x",
            if flags.is_empty() { "friendly names" } else { "raw ids" },
            text.len() as f64 / 1e6,
            theirs.as_secs_f64() * 1e3,
            mb / theirs.as_secs_f64(),
            best.as_secs_f64() * 1e3,
            mb / best.as_secs_f64(),
            theirs.as_secs_f64() / best.as_secs_f64()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fuzz_regressions_assemble_without_panicking() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz-regressions/assemble");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        if let Ok(text) = std::str::from_utf8(&bytes) {
            let _ = spvkit::text::assemble(text, &spvkit::text::AssembleOptions::default());
        }
        n += 1;
    }
    assert!(n > 0);
}
