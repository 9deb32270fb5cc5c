//! The HLSL front end: preprocessor, lexer, parser and diagnostic rendering.
#![cfg(feature = "hlsl")]

use spvkit::hlsl::ast::*;
use spvkit::hlsl::diag::render;
use spvkit::hlsl::{parse, parse_with, Options, Parsed, Profile};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Options for a compute shader's `main`.
fn opts() -> Options {
    Options::new("main", "cs_6_0".parse::<Profile>().expect("profile"))
}

/// Parses `src` as `test.hlsl` with no includes available.
fn parse_str(src: &str) -> Parsed {
    parse_mem(src, &opts(), &HashMap::new())
}

/// Parses `src` with in-memory include files.
fn parse_mem(src: &str, options: &Options, files: &HashMap<PathBuf, String>) -> Parsed {
    let mut loader = |p: &Path| files.get(p).cloned();
    parse_with("test.hlsl", src, options, &mut loader)
}

/// Parses `src`, which must have no diagnostics.
fn ok(src: &str) -> TranslationUnit {
    let p = parse_str(src);
    assert!(
        p.diagnostics.is_empty(),
        "unexpected diagnostics:\n{}",
        render(&p.diagnostics, &p.sources)
    );
    p.unit
}

/// Every `.hlsl` file under tests/corpus.
fn corpus_files() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus")];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "hlsl") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The `-I`/`-D` options of a corpus file's `// ARGS:` lines (paths relative to
/// tests/corpus/hlsl, as the corpus harness reads them) and its `// ERROR: line:col: text` lines.
fn corpus_header(src: &str) -> (Options, Vec<(u32, u32, String)>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/hlsl");
    let mut o = opts();
    let mut errors = Vec::new();
    for line in src.lines() {
        if let Some(args) = line.strip_prefix("// ARGS:") {
            let words: Vec<&str> = args.split_whitespace().collect();
            let mut i = 0;
            while let Some(w) = words.get(i) {
                let next = words.get(i + 1).copied().unwrap_or("");
                match *w {
                    "-I" => {
                        o.include_dirs.push(root.join(next));
                        i += 1;
                    }
                    "-D" => {
                        let (k, v) = next.split_once('=').unwrap_or((next, ""));
                        o.defines.push((k.to_owned(), v.to_owned()));
                        i += 1;
                    }
                    _ => {}
                }
                i += 1;
            }
        } else if let Some(e) = line.strip_prefix("// ERROR:") {
            let mut parts = e.trim().splitn(3, ':');
            let l = parts.next().and_then(|x| x.trim().parse().ok());
            let c = parts.next().and_then(|x| x.trim().parse().ok());
            if let (Some(l), Some(c), Some(m)) = (l, c, parts.next()) {
                errors.push((l, c, m.trim().to_owned()));
            }
        }
    }
    (o, errors)
}

#[test]
fn corpus_parses_without_errors() {
    let files = corpus_files();
    assert!(!files.is_empty());
    let mut failures = String::new();
    for f in &files {
        let src = std::fs::read_to_string(f).expect("read");
        let (o, expected) = corpus_header(&src);
        if !expected.is_empty() {
            continue;
        }
        let p = parse(&f.display().to_string(), &src, &o);
        if !p.diagnostics.is_empty() {
            failures.push_str(&render(&p.diagnostics, &p.sources));
        }
    }
    assert!(failures.is_empty(), "{failures}");
}

/// Invalid corpus programs (`// ERROR:` lines): when the front end rejects one, it does so with
/// one of the expected errors (the others are semantic errors, found later).
#[test]
fn corpus_invalid_programs_fail_where_expected() {
    let mut failures = String::new();
    for f in &corpus_files() {
        let src = std::fs::read_to_string(f).expect("read");
        let (o, expected) = corpus_header(&src);
        if expected.is_empty() {
            continue;
        }
        let p = parse(&f.display().to_string(), &src, &o);
        let Some(first) = p.diagnostics.first() else {
            continue;
        };
        let (l, c) = p.sources.line_col(first.span);
        if !expected
            .iter()
            .any(|(el, ec, m)| (*el, *ec) == (l, c) && first.message.contains(m.as_str()))
        {
            failures.push_str(&format!(
                "{}: expected {expected:?}\n{}",
                f.display(),
                render(&p.diagnostics, &p.sources)
            ));
        }
    }
    assert!(failures.is_empty(), "{failures}");
}

// ---- helpers for the preprocessor -------------------------------------------------------------

/// The preprocessed tokens of `src` joined by spaces, and the rendered diagnostics.
fn pp_with(src: &str, options: &Options, files: &HashMap<PathBuf, String>) -> (String, String) {
    let mut loader = |p: &Path| files.get(p).cloned();
    let (tokens, sources, diags) =
        spvkit::hlsl::preprocess_with("test.hlsl", src, options, &mut loader);
    let text = tokens
        .iter()
        .filter(|t| t.kind != spvkit::hlsl::token::TokenKind::Eof)
        .map(|t| t.text.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    (text, render(&diags, &sources))
}

/// The preprocessed tokens of `src`, which must preprocess without diagnostics.
fn pp(src: &str) -> String {
    let (text, diags) = pp_with(src, &opts(), &HashMap::new());
    assert!(diags.is_empty(), "unexpected diagnostics:\n{diags}");
    text
}

#[test]
fn pp_object_and_function_macros() {
    assert_eq!(pp("#define N 4\nint a[N];"), "int a [ 4 ] ;");
    assert_eq!(
        pp("#define SQ(x) ((x) * (x))\nSQ(a + 1)"),
        "( ( a + 1 ) * ( a + 1 ) )"
    );
    assert_eq!(
        pp("#define ADD(a, b) a + b\nADD((1, 2), f(3, 4))"),
        "( 1 , 2 ) + f ( 3 , 4 )"
    );
    assert_eq!(pp("#define F() 7\nF() F ( )"), "7 7");
    // A function-like macro's name without `(` is left alone.
    assert_eq!(pp("#define F(x) x\nint F;"), "int F ;");
    // Arguments are fully expanded before substitution.
    assert_eq!(pp("#define ONE 1\n#define ID(x) x\nID(ONE)"), "1");
    assert_eq!(pp("#define f(x) x\n#define g f\ng(2)"), "2");
    // Line continuations inside a definition.
    assert_eq!(pp("#define LONG 1 + \\\n 2\nLONG"), "1 + 2");
}

#[test]
fn pp_recursion_guard() {
    assert_eq!(pp("#define x x + 1\nx"), "x + 1");
    assert_eq!(pp("#define a b\n#define b a\na b"), "a b");
    // The C standard's example: f(2)(9) is 2*9*g.
    assert_eq!(
        pp("#define f(a) a*g\n#define g(a) f(a)\nf(2)(9)"),
        "2 * 9 * g"
    );
}

#[test]
fn pp_stringize_and_paste() {
    assert_eq!(
        pp("#define S(x) #x\nS(a   +  \"b\\n\")"),
        r#""a + \"b\\n\"""#
    );
    assert_eq!(pp("#define CAT(a, b) a ## b\nCAT(foo, bar)"), "foobar");
    assert_eq!(
        pp("#define CAT(a, b) a##b\nCAT(, x) CAT(y, ) CAT(1, 2u)"),
        "x y 12u"
    );
    assert_eq!(pp("#define CAT(a, b) a##b\nCAT(<<, =)"), "<<=");
    // Operands of ## are not expanded first; the result is rescanned.
    assert_eq!(
        pp("#define AB done\n#define A nope\n#define CAT(a, b) a##b\nCAT(A, B)"),
        "done"
    );
}

#[test]
fn pp_variadic() {
    assert_eq!(
        pp("#define V(f, ...) f(__VA_ARGS__)\nV(g, 1, 2, 3) V(h)"),
        "g ( 1 , 2 , 3 ) h ( )"
    );
}

#[test]
fn pp_conditionals() {
    let src = "#define A 1\n#if A\n#if 0\nno1\n#elif defined(B) || defined A\nyes1\n#else\nno2\n#endif\n#else\nno3\n#endif\n";
    assert_eq!(pp(src), "yes1");
    assert_eq!(pp("#ifdef A\nno\n#else\nyes\n#endif"), "yes");
    assert_eq!(pp("#ifndef A\nyes\n#endif"), "yes");
    assert_eq!(
        pp("#if (1 << 3) == 8 && !defined(FOO) && (2 + 3 * 4 == 14) && (7 % 4 == 3)\nyes\n#endif"),
        "yes"
    );
    assert_eq!(pp("#if -1 > 0u\nyes\n#endif"), "yes");
    assert_eq!(pp("#if -1 > 0\nno\n#else\nyes\n#endif"), "yes");
    assert_eq!(pp("#if 0 ? 1 : 2 == 2\nyes\n#endif"), "yes");
    assert_eq!(
        pp("#if UNDEFINED_NAME\nno\n#elif 0x10 == 16 && 010 == 8\nyes\n#endif"),
        "yes"
    );
    // Skipped groups may hold anything, including bad directives and stray characters.
    assert_eq!(
        pp("#if 0\n#bogus\n@ 'x\n#if 1\n#endif\n#else\nyes\n#endif"),
        "yes"
    );
    assert_eq!(
        pp("#undef X\n#define X 1\n#undef X\n#ifdef X\nno\n#endif"),
        ""
    );
    assert_eq!(
        pp("#if __HLSL_VERSION >= 2021 && __spirv__\nyes\n#endif"),
        "yes"
    );
    assert_eq!(
        pp("#if __SHADER_TARGET_STAGE == __SHADER_STAGE_COMPUTE && __SHADER_TARGET_MAJOR == 6\nyes\n#endif"),
        "yes"
    );
}

/// `__SPIRV_MAJOR_VERSION__`/`__SPIRV_MINOR_VERSION__` give the target environment's SPIR-V
/// version, as DXC's (`vk/khr/cooperative_matrix.h` tests them with `#error`).
#[test]
fn pp_spirv_version_macros() {
    for (env, want) in [
        (spvkit::target_env::TargetEnv::Vulkan1_0, "1 0"),
        (spvkit::target_env::TargetEnv::Vulkan1_1, "1 3"),
        (spvkit::target_env::TargetEnv::Vulkan1_1Spirv1_4, "1 4"),
        (spvkit::target_env::TargetEnv::Vulkan1_2, "1 5"),
        (spvkit::target_env::TargetEnv::Vulkan1_3, "1 6"),
    ] {
        let mut o = opts();
        o.target_env = env;
        let (text, diags) = pp_with(
            "__SPIRV_MAJOR_VERSION__ __SPIRV_MINOR_VERSION__",
            &o,
            &HashMap::new(),
        );
        assert_eq!(diags, "");
        assert_eq!(text, want, "{env:?}");
    }
}

#[test]
fn pp_command_line_defines() {
    let mut o = opts();
    o.defines = vec![
        ("FOO".into(), String::new()),
        ("BAR".into(), "2 + 3".into()),
    ];
    let (text, diags) = pp_with("FOO BAR\n#if FOO == 1\nyes\n#endif", &o, &HashMap::new());
    assert_eq!(diags, "");
    assert_eq!(text, "1 2 + 3 yes");
}

#[test]
fn pp_line_and_file() {
    assert_eq!(pp("\n\n__LINE__ __FILE__"), "3 \"test.hlsl\"");
}

/// Pragmas that say nothing about the code are ignored (`pack_matrix`, which changes buffer
/// layouts, is the parser's: `tests/hlsl_compile.rs`).
#[test]
fn pp_pragmas_are_ignored() {
    assert_eq!(
        pp("#pragma warning(disable: 1)\n#pragma message(\"hi\")\nx"),
        "x"
    );
}

#[test]
fn pp_macro_tokens_carry_the_use_site_span() {
    let p = parse_str("#define BAD (1 +)\nvoid main() {\n  int x = BAD;\n}\n");
    assert_eq!(
        p.diagnostics.len(),
        1,
        "{}",
        render(&p.diagnostics, &p.sources)
    );
    assert_eq!(p.sources.line_col(p.diagnostics[0].span), (3, 11));
}

/// A fresh directory under the system temp dir.
fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("spvkit-hlsl-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

#[test]
fn pp_includes_from_files() {
    let root = temp_dir("inc");
    let src_dir = root.join("src");
    let inc_dir = root.join("inc");
    std::fs::create_dir_all(&src_dir).expect("mkdir");
    std::fs::create_dir_all(&inc_dir).expect("mkdir");
    // The including file's directory wins over -I for quoted includes.
    std::fs::write(
        src_dir.join("common.hlsli"),
        "static const int LOCAL = 1;\n",
    )
    .expect("write");
    std::fs::write(
        inc_dir.join("common.hlsli"),
        "static const int FROM_I = 1;\n",
    )
    .expect("write");
    std::fs::write(
        inc_dir.join("once.hlsli"),
        "#pragma once\nstruct Once { float a; };\n",
    )
    .expect("write");
    std::fs::write(
        inc_dir.join("sub.hlsli"),
        "#include \"once.hlsli\"\n#define SUB 3\n",
    )
    .expect("write");
    let main = src_dir.join("main.hlsl");
    let text = "#include \"common.hlsli\"\n#include <common.hlsli>\n#include \"once.hlsli\"\n#include <once.hlsli>\n#include \"sub.hlsli\"\nstatic const int s = SUB;\n";
    std::fs::write(&main, text).expect("write");
    let mut o = opts();
    o.include_dirs = vec![inc_dir.clone()];
    let p = parse(&main.display().to_string(), text, &o);
    assert!(
        p.diagnostics.is_empty(),
        "{}",
        render(&p.diagnostics, &p.sources)
    );
    let names: Vec<String> = p
        .unit
        .items
        .iter()
        .map(|i| match i {
            Item::Variables(v) => v.declarators[0].name.name.clone(),
            Item::Struct(s) => s.name.as_ref().map_or(String::new(), |n| n.name.clone()),
            _ => "?".into(),
        })
        .collect();
    assert_eq!(names, ["LOCAL", "FROM_I", "Once", "s"]);
    // A missing include is an error at the directive.
    let bad = "\n#include \"missing.hlsli\"\n";
    let p = parse(&main.display().to_string(), bad, &o);
    let r = render(&p.diagnostics, &p.sources);
    assert!(
        r.contains("main.hlsl:2:10: error: 'missing.hlsli' file not found"),
        "{r}"
    );
    // Angled includes do not look next to the including file.
    let p = parse(
        &main.display().to_string(),
        "#include <sub2.hlsli>\n",
        &opts(),
    );
    assert_eq!(p.diagnostics.len(), 1);
    // Errors inside an included file point into it.
    std::fs::write(inc_dir.join("broken.hlsli"), "int x = ;\n").expect("write");
    let p = parse(
        &main.display().to_string(),
        "#include \"broken.hlsli\"\n",
        &o,
    );
    let r = render(&p.diagnostics, &p.sources);
    assert!(
        r.contains("broken.hlsli:1:9: error: expected an expression"),
        "{r}"
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn pp_include_recursion_is_an_error() {
    let mut files = HashMap::new();
    files.insert(
        PathBuf::from("self.h"),
        "#include \"self.h\"\n#include \"self.h\"\n".to_owned(),
    );
    let p = parse_mem("#include \"self.h\"\n", &opts(), &files);
    let r = render(&p.diagnostics, &p.sources);
    assert!(r.contains("nested too deeply"), "{r}");
}

// ---- parser: AST shape --------------------------------------------------------------------------

/// The body of `void main() { <body> }`.
fn body(stmts: &str) -> Vec<Stmt> {
    let unit = ok(&format!("void main() {{\n{stmts}\n}}"));
    match unit.items.into_iter().next() {
        Some(Item::Function(f)) => f.body.expect("body").stmts,
        other => panic!("not a function: {other:?}"),
    }
}

/// The expression of `x = <e>;`'s right-hand side, shown as a string.
fn expr(e: &str) -> String {
    let mut stmts = body(&format!("{e};"));
    match stmts.pop().map(|s| s.kind) {
        Some(StmtKind::Expr(e)) => show(&e),
        other => panic!("not an expression: {other:?}"),
    }
}

/// A compact, fully parenthesised rendering of an expression.
fn show(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Literal(Literal::Int { value, suffix }) => format!("{value}{suffix}"),
        ExprKind::Literal(Literal::Float { value, suffix }) => format!("{value:?}{suffix}"),
        ExprKind::Literal(Literal::Bool(b)) => b.to_string(),
        ExprKind::Literal(Literal::String(s)) => format!("{s:?}"),
        ExprKind::Ident(i) => i.name.clone(),
        ExprKind::Unary { op, operand } => format!("({op:?} {})", show(operand)),
        ExprKind::Binary { op, lhs, rhs } => format!("({} {op:?} {})", show(lhs), show(rhs)),
        ExprKind::Assign { op, lhs, rhs } => format!("({} ={op:?} {})", show(lhs), show(rhs)),
        ExprKind::Conditional {
            cond,
            then,
            otherwise,
        } => format!("({} ? {} : {})", show(cond), show(then), show(otherwise)),
        ExprKind::Comma(a, b) => format!("({}, {})", show(a), show(b)),
        ExprKind::Call { callee, args, .. } => format!("{}({})", callee.name, list(args)),
        ExprKind::Construct { ty, args } => format!("new {}({})", ty_str(ty), list(args)),
        ExprKind::MethodCall {
            receiver,
            method,
            args,
            type_arg,
        } => {
            let targ = type_arg.as_ref().map_or(String::new(), |t| {
                format!("<{}{}>", ty_str(&t.ty), "[]".repeat(t.array_dims.len()))
            });
            format!("{}.{}{targ}({})", show(receiver), method.name, list(args))
        }
        ExprKind::Cast {
            ty,
            array_dims,
            operand,
        } => format!(
            "cast<{}{}>({})",
            ty_str(ty),
            "[]".repeat(array_dims.len()),
            show(operand)
        ),
        ExprKind::Member { base, member } => format!("{}.{}", show(base), member.name),
        ExprKind::Index { base, index } => format!("{}[{}]", show(base), show(index)),
        ExprKind::Scoped { scope, member } => format!("{}::{}", ty_str(scope), member.name),
        ExprKind::InitList(items) => format!("{{{}}}", list(items)),
        ExprKind::SizeOf(x) => format!("sizeof({})", show(x)),
    }
}

/// Expressions shown and comma-separated.
fn list(args: &[Expr]) -> String {
    args.iter().map(show).collect::<Vec<_>>().join(", ")
}

/// A type shown with its template arguments.
fn ty_str(t: &TypeExpr) -> String {
    if t.args.is_empty() {
        return t.name.name.clone();
    }
    let args: Vec<String> = t
        .args
        .iter()
        .map(|a| match a {
            TemplateArg::Type(t) => ty_str(t),
            TemplateArg::Expr(e) => show(e),
        })
        .collect();
    format!("{}<{}>", t.name.name, args.join(","))
}

#[test]
fn precedence_and_associativity() {
    assert_eq!(expr("a + b * c"), "(a Add (b Mul c))");
    assert_eq!(expr("a - b - c"), "((a Sub b) Sub c)");
    assert_eq!(expr("a = b = c"), "(a =None (b =None c))");
    assert_eq!(expr("a += b -= 2"), "(a =Some(Add) (b =Some(Sub) 2))");
    assert_eq!(expr("a ? b : c ? d : e"), "(a ? b : (c ? d : e))");
    assert_eq!(
        expr("a || b && c | d ^ e & f"),
        "(a Or (b And (c BitOr (d BitXor (e BitAnd f)))))"
    );
    assert_eq!(expr("a & b == c"), "(a BitAnd (b Eq c))");
    assert_eq!(expr("a < b == c > d"), "((a Lt b) Eq (c Gt d))");
    assert_eq!(expr("x << 1 + 2"), "(x Shl (1 Add 2))");
    assert_eq!(expr("a <<= b >>= 1"), "(a =Some(Shl) (b =Some(Shr) 1))");
    assert_eq!(expr("-a * !b"), "((Neg a) Mul (Not b))");
    assert_eq!(expr("~a++ + --b"), "((BitNot (PostInc a)) Add (PreDec b))");
    assert_eq!(expr("a, b = c"), "(a, (b =None c))");
    assert_eq!(expr("a % b / c"), "((a Rem b) Div c)");
    assert_eq!(expr("a ? b, c : d = e"), "(a ? (b, c) : (d =None e))");
}

#[test]
fn casts_versus_parentheses() {
    assert_eq!(expr("(float3)x"), "cast<float3>(x)");
    assert_eq!(expr("(x) + 1"), "(x Add 1)");
    assert_eq!(expr("(x)-1"), "(x Sub 1)");
    assert_eq!(expr("(float)-x"), "cast<float>((Neg x))");
    assert_eq!(expr("(int)a.x"), "cast<int>(a.x)");
    assert_eq!(expr("(float4)(a + b)"), "cast<float4>((a Add b))");
    // The majorness of a cast's type is skipped: a value has none.
    assert_eq!(expr("(row_major float2x2)v"), "cast<float2x2>(v)");
    // `sizeof(T)` holds the type as a cast of 0; `sizeof x`'s operand is an expression.
    assert_eq!(expr("sizeof(int[2]) * n"), "(sizeof(cast<int[]>(0)) Mul n)");
    assert_eq!(expr("sizeof(x) + 1"), "(sizeof(x) Add 1)");
    // A templated method's type argument, arrays included.
    assert_eq!(expr("b.Load<float2[2]>(a)"), "b.Load<float2[]>(a)");
    assert_eq!(expr("b.Store<float4>(0, v)"), "b.Store<float4>(0, v)");
    assert_eq!(expr("(float4(1, 2, 3, 4)).x"), "new float4(1, 2, 3, 4).x");
    assert_eq!(expr("(vector<float, 2>)v"), "cast<vector<float,2>>(v)");
    assert_eq!(expr("(float[2])v"), "cast<float[]>(v)");
    assert_eq!(expr("(unsigned int)v"), "cast<uint>(v)");
    // Struct and typedef names declared earlier are types.
    let unit =
        ok("struct S { float a; };\ntypedef float2 F2;\nvoid main() { S s = (S)0; F2 f = (F2)1; }");
    let Some(Item::Function(f)) = unit.items.get(2) else {
        panic!("no function")
    };
    let shown: Vec<String> = f
        .body
        .as_ref()
        .expect("body")
        .stmts
        .iter()
        .map(|s| match &s.kind {
            StmtKind::Decl(d) => match &d.declarators[0].init {
                Some(Initializer::Expr(e)) => show(e),
                _ => String::new(),
            },
            _ => String::new(),
        })
        .collect();
    assert_eq!(shown, ["cast<S>(0)", "cast<F2>(1)"]);
}

#[test]
fn literals() {
    assert_eq!(
        expr("1 + 0x1Fu + 017 + 5l + 6UL + 7ll"),
        "(((((1 Add 31u) Add 15) Add 5l) Add 6ul) Add 7ll)"
    );
    assert_eq!(
        expr("1.5f + .5 + 1. + 1e3 + 2.5e-1h + 1.0L"),
        "(((((1.5f Add 0.5) Add 1.0) Add 1000.0) Add 0.25h) Add 1.0l)"
    );
    assert_eq!(expr("true && false"), "(true And false)");
    assert_eq!(expr("0"), "0");
}

#[test]
fn postfix_calls_and_constructors() {
    assert_eq!(expr("tex.Sample(s, uv).xyz"), "tex.Sample(s, uv).xyz");
    assert_eq!(expr("buf[id.x][2]"), "buf[id.x][2]");
    assert_eq!(expr("f(1, g(2))"), "f(1, g(2))");
    assert_eq!(expr("float4(v.xyz, 1)"), "new float4(v.xyz, 1)");
    assert_eq!(expr("vector<int, 2>(1, 2)"), "new vector<int,2>(1, 2)");
    assert_eq!(expr("vk::RawBufferLoad(addr)"), "vk::RawBufferLoad(addr)");
    assert_eq!(expr("m._m00_m11"), "m._m00_m11");
}

#[test]
fn templates_and_globals() {
    let unit = ok("RWStructuredBuffer<float4> a : register(u0, space1);\n\
         StructuredBuffer<vector<float, 4>> b;\n\
         matrix<float, 2, 2> m;\n\
         Texture2D<float4> t : register(t3);\n\
         [[vk::binding(0, 1)]] ConstantBuffer<S> cb;\n\
         [[vk::push_constant]] ConstantBuffer<P> pc;\n\
         [[vk::constant_id(3)]] const int spec = 4;\n\
         static const float arr[2][3] = { {1, 2, 3}, {4, 5, 6} }, one = 1;\n\
         groupshared float gs[64];\n\
         RWTexture2D<uint> img[];\n");
    let vars: Vec<&VarDecl> = unit
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Variables(v) => Some(v),
            _ => None,
        })
        .collect();
    assert_eq!(vars.len(), 10);
    let types: Vec<String> = vars.iter().map(|v| ty_str(&v.ty)).collect();
    assert_eq!(
        types,
        [
            "RWStructuredBuffer<float4>",
            "StructuredBuffer<vector<float,4>>",
            "matrix<float,2,2>",
            "Texture2D<float4>",
            "ConstantBuffer<S>",
            "ConstantBuffer<P>",
            "int",
            "float",
            "float",
            "RWTexture2D<uint>"
        ]
    );
    assert_eq!(
        vars[0].declarators[0].annotations,
        [Annotation::Register(Register {
            class: 'u',
            index: 0,
            space: Some(1),
            span: vars[0].declarators[0]
                .annotations
                .first()
                .map_or_else(Default::default, |a| match a {
                    Annotation::Register(r) => r.span,
                    _ => Default::default(),
                }),
        })]
    );
    let attr = &vars[4].attributes[0];
    assert_eq!(attr.namespace.as_ref().map(|n| n.name.as_str()), Some("vk"));
    assert_eq!(attr.name.name, "binding");
    assert_eq!(list(&attr.args), "0, 1");
    assert_eq!(vars[5].attributes[0].name.name, "push_constant");
    assert_eq!(list(&vars[6].attributes[0].args), "3");
    assert_eq!(vars[6].modifiers[0].modifier, Modifier::Const);
    assert_eq!(vars[7].declarators.len(), 2);
    assert_eq!(vars[7].declarators[0].array_dims.len(), 2);
    assert!(matches!(
        &vars[7].declarators[0].init,
        Some(Initializer::List(rows, _)) if rows.len() == 2
    ));
    assert_eq!(vars[8].modifiers[0].modifier, Modifier::GroupShared);
    assert_eq!(vars[9].declarators[0].array_dims, [None]);
}

#[test]
fn template_arguments_are_constant_expressions_closed_by_a_top_level_angle() {
    // Every operator but an unparenthesized `>` / `>>` (C++ [temp.names]).
    let unit = ok("void f(RayQuery<A | B> q);\n\
         vector<float, 1 + 2 * 1> a;\n\
         vector<float, (5 > 3) + 1> b;\n\
         vector<float, N ? 2 : 3> c;\n\
         vector<float, (8 >> 1)> d;\n\
         vector<float, 1 << 1> e;\n\
         vector<vector<float, 2>, 2> g;\n");
    let mut types = Vec::new();
    for item in &unit.items {
        match item {
            Item::Function(f) => types.push(ty_str(&f.params[0].ty)),
            Item::Variables(v) => types.push(ty_str(&v.ty)),
            _ => {}
        }
    }
    assert_eq!(
        types,
        [
            "RayQuery<(A BitOr B)>",
            "vector<float,(1 Add (2 Mul 1))>",
            "vector<float,((5 Gt 3) Add 1)>",
            "vector<float,(N ? 2 : 3)>",
            "vector<float,(8 Shr 1)>",
            "vector<float,(1 Shl 1)>",
            "vector<vector<float,2>,2>",
        ]
    );
}

#[test]
fn builtin_type_names_as_variables_and_empty_member_declarations() {
    // HLSL lets a builtin type's name (`Texture`, `Buffer`) name a variable or a field; only
    // `(` or `<` after it makes it a type.
    let stmts = body(
        "Texture.Sample(S, uv);\nx = Buffer.Load(0) + Texture2D(y).z;\n\
         RayQuery<0> q;\nRayQuery<RAY_FLAG_NONE | 4> r = RayQuery<0>();",
    );
    let shown: Vec<String> = stmts
        .iter()
        .map(|s| match &s.kind {
            StmtKind::Expr(e) => show(e),
            StmtKind::Decl(v) => format!(
                "{} {}{}",
                ty_str(&v.ty),
                v.declarators[0].name.name,
                match &v.declarators[0].init {
                    Some(Initializer::Expr(e)) => format!(" = {}", show(e)),
                    _ => String::new(),
                }
            ),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(
        shown,
        [
            "Texture.Sample(S, uv)",
            "(x =None (Buffer.Load(0) Add new Texture2D(y).z))",
            "RayQuery<0> q",
            "RayQuery<(RAY_FLAG_NONE BitOr 4)> r = new RayQuery<0>()",
        ]
    );
    let unit = ok("struct S { void f() {}; int a;; };");
    let Item::Struct(s) = &unit.items[0] else {
        panic!("{:?}", unit.items[0])
    };
    assert_eq!((s.methods.len(), s.fields.len()), (1, 1));
}

#[test]
fn qualified_vk_types_and_function_templates() {
    let unit = ok("typedef vk::BufferPointer<S, 32> P;\n\
         using T = vk::SpirvType<21, 1, 1, vk::Literal<vk::integral_constant<uint, 16> > >;\n\
         void f(vk::ext_type<2> q, vk::BufferPointer<float> p);\n\
         struct H { vk::BufferPointer<int> m; };\n\
         void g() {\n\
           float x = vk::RawBufferLoad<float>(addr, 8);\n\
           vk::RawBufferStore<S>(addr, s);\n\
           uint y = vk::RawBufferLoad(addr);\n\
           z = vk::BufferPointer<float>(w);\n\
         }\n");
    let Item::Typedef(t) = &unit.items[0] else {
        panic!("{:?}", unit.items[0])
    };
    assert_eq!(ty_str(&t.ty), "vk::BufferPointer<S,32>");
    let Item::Typedef(t) = &unit.items[1] else {
        panic!("{:?}", unit.items[1])
    };
    assert_eq!(
        ty_str(&t.ty),
        "vk::SpirvType<21,1,1,vk::Literal<vk::integral_constant<uint,16>>>"
    );
    let Item::Function(f) = &unit.items[2] else {
        panic!("{:?}", unit.items[2])
    };
    let params: Vec<String> = f.params.iter().map(|p| ty_str(&p.ty)).collect();
    assert_eq!(params, ["vk::ext_type<2>", "vk::BufferPointer<float>"]);
    let Item::Struct(h) = &unit.items[3] else {
        panic!("{:?}", unit.items[3])
    };
    assert_eq!(ty_str(&h.fields[0].ty), "vk::BufferPointer<int>");
    let Item::Function(g) = &unit.items[4] else {
        panic!("{:?}", unit.items[4])
    };
    let shown: Vec<String> = g
        .body
        .as_ref()
        .expect("body")
        .stmts
        .iter()
        .map(|s| match &s.kind {
            StmtKind::Expr(e) => show(e),
            StmtKind::Decl(v) => match &v.declarators[0].init {
                Some(Initializer::Expr(e)) => show(e),
                other => format!("{other:?}"),
            },
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(
        shown,
        [
            "vk::RawBufferLoad(addr, 8)",
            "vk::RawBufferStore(addr, s)",
            "vk::RawBufferLoad(addr)",
            "(z =None new vk::BufferPointer<float>(w))",
        ]
    );
    // The template arguments of the calls are kept.
    let StmtKind::Decl(v) = &g.body.as_ref().expect("body").stmts[0].kind else {
        panic!()
    };
    let Some(Initializer::Expr(Expr {
        kind: ExprKind::Call { template_args, .. },
        ..
    })) = &v.declarators[0].init
    else {
        panic!("{v:?}")
    };
    assert!(matches!(&template_args[..], [TemplateArg::Type(t)] if t.name.name == "float"));
}

#[test]
fn structs_typedefs_and_buffers() {
    let unit = ok("struct VSOut { float4 pos : SV_Position; nointerpolation float2 uv : TEXCOORD0; } g_out;\n\
         typedef float4 color_t[2];\n\
         cbuffer Globals : register(b0, space2) { float4x4 mvp; float3 light : packoffset(c4); };\n\
         tbuffer T { uint n; }\n\
         struct Empty {};\n");
    assert!(matches!(&unit.items[0], Item::Struct(s) if s.fields.len() == 2));
    let Item::Struct(s) = &unit.items[0] else {
        panic!()
    };
    assert_eq!(s.fields[1].modifiers[0].modifier, Modifier::NoInterpolation);
    assert!(matches!(
        &s.fields[0].declarators[0].annotations[0],
        Annotation::Semantic(i) if i.name == "SV_Position"
    ));
    assert!(
        matches!(&unit.items[1], Item::Variables(v) if v.ty.name.name == "VSOut" && v.declarators[0].name.name == "g_out")
    );
    assert!(
        matches!(&unit.items[2], Item::Typedef(t) if t.name.name == "color_t" && t.array_dims.len() == 1)
    );
    let Item::Buffer(b) = &unit.items[3] else {
        panic!("{:?}", unit.items[3])
    };
    assert_eq!(b.kind, BufferKind::CBuffer);
    assert_eq!(b.members.len(), 2);
    assert!(
        matches!(&b.annotations[0], Annotation::Register(r) if r.class == 'b' && r.space == Some(2))
    );
    assert!(matches!(
        &b.members[1].declarators[0].annotations[0],
        Annotation::PackOffset(64, _)
    ));
    assert!(matches!(&unit.items[4], Item::Buffer(b) if b.kind == BufferKind::TBuffer));
    assert!(matches!(&unit.items[5], Item::Struct(s) if s.fields.is_empty()));
}

#[test]
fn functions_params_and_entry_attributes() {
    let unit = ok("[numthreads(8, 8, 1)]\n[shader(\"compute\")]\n\
         void main(uint3 id : SV_DispatchThreadID, in uint gi : SV_GroupIndex) {}\n\
         float4 ps(noperspective float2 uv : TEXCOORD0, out float depth : SV_Depth, inout int k, uniform float scale = 2.0) : SV_Target { return uv.xyxy; }\n\
         float helper(float);\n\
         void nothing(void);\n\
         static inline float sq(float x[2]) { return x[0] * x[0]; }\n\
         [[vk::location(2)]] float4 vs([[vk::location(1)]] float3 p : POSITION) : SV_Position { return float4(p, 1); }\n");
    let fs: Vec<&FunctionDecl> = unit
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Function(f) => Some(f),
            _ => None,
        })
        .collect();
    assert_eq!(fs.len(), 6);
    assert_eq!(fs[0].attributes.len(), 2);
    assert_eq!(list(&fs[0].attributes[0].args), "8, 8, 1");
    assert_eq!(list(&fs[0].attributes[1].args), "\"compute\"");
    assert_eq!(fs[0].params[1].modifiers[0].modifier, Modifier::In);
    let p = &fs[1].params;
    assert_eq!(p.len(), 4);
    assert_eq!(p[0].modifiers[0].modifier, Modifier::NoPerspective);
    assert_eq!(p[1].modifiers[0].modifier, Modifier::Out);
    assert_eq!(p[2].modifiers[0].modifier, Modifier::InOut);
    assert_eq!(p[3].modifiers[0].modifier, Modifier::Uniform);
    assert!(p[3].default.is_some());
    assert!(matches!(&fs[1].annotations[0], Annotation::Semantic(s) if s.name == "SV_Target"));
    assert!(fs[2].body.is_none());
    assert!(fs[2].params[0].name.is_none());
    assert!(fs[3].params.is_empty());
    assert_eq!(fs[4].modifiers.len(), 2);
    assert_eq!(fs[4].params[0].array_dims.len(), 1);
    assert_eq!(fs[5].attributes[0].name.name, "location");
    assert_eq!(fs[5].params[0].attributes[0].name.name, "location");
}

#[test]
fn statements_and_statement_attributes() {
    let stmts = body(
        "[unroll(4)] for (int i = 0, j = 1; i < 4; ++i, j++) { continue; }\n\
         [loop] while (x) { break; }\n\
         [branch] if (a) b = 1; else if (c) b = 2; else { b = 3; }\n\
         [flatten] if (a) {}\n\
         [fastopt] do { x--; } while (x > 0);\n\
         [allow_uav_condition] for (;;) { discard; }\n\
         [unroll] for (i = 0; i < 2; i++) ;\n\
         return;",
    );
    assert_eq!(stmts.len(), 8);
    let names: Vec<String> = stmts
        .iter()
        .map(|s| {
            s.attributes
                .iter()
                .map(|a| format!("{}({})", a.name.name, list(&a.args)))
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    assert_eq!(
        names,
        [
            "unroll(4)",
            "loop()",
            "branch()",
            "flatten()",
            "fastopt()",
            "allow_uav_condition()",
            "unroll()",
            ""
        ]
    );
    assert!(
        matches!(&stmts[0].kind, StmtKind::For { init: Some(i), cond: Some(_), step: Some(_), .. } if matches!(&i.kind, StmtKind::Decl(d) if d.declarators.len() == 2))
    );
    assert!(
        matches!(&stmts[2].kind, StmtKind::If { otherwise: Some(o), .. } if matches!(o.kind, StmtKind::If { .. }))
    );
    assert!(matches!(&stmts[4].kind, StmtKind::DoWhile { .. }));
    assert!(matches!(
        &stmts[5].kind,
        StmtKind::For {
            init: None,
            cond: None,
            step: None,
            ..
        }
    ));
    assert!(matches!(&stmts[7].kind, StmtKind::Return(None)));
}

#[test]
fn switch_cases_are_grouped() {
    let stmts = body(
        "switch (x) {\n case 0:\n case 1: a = 1;\n b = 2;\n case 2: { a = 3; break; }\n default: case 4: break;\n }",
    );
    let StmtKind::Switch { cases, .. } = &stmts[0].kind else {
        panic!("{:?}", stmts[0])
    };
    let shape: Vec<(Vec<String>, usize)> = cases
        .iter()
        .map(|c| {
            (
                c.labels
                    .iter()
                    .map(|(l, _)| l.as_ref().map_or("default".to_owned(), show))
                    .collect(),
                c.body.len(),
            )
        })
        .collect();
    assert_eq!(
        shape,
        [
            (vec!["0".to_owned(), "1".to_owned()], 2),
            (vec!["2".to_owned()], 1),
            (vec!["default".to_owned(), "4".to_owned()], 1)
        ]
    );
}

#[test]
fn locals_and_init_lists() {
    let stmts = body(
        "float4 c = {1, 2, 3, 4};\n\
         const uint n = 3, m[2] = {1, 2};\n\
         float4x4 mat;\n\
         S s;\n\
         precise float p = 1;\n\
         vector<float, 3> v3 = 0;\n\
         float sample = 1; sample += 2;\n\
         x = float2(1, 2).y;",
    );
    let kinds: Vec<&str> = stmts
        .iter()
        .map(|s| match s.kind {
            StmtKind::Decl(_) => "decl",
            StmtKind::Expr(_) => "expr",
            _ => "other",
        })
        .collect();
    assert_eq!(
        kinds,
        ["decl", "decl", "decl", "decl", "decl", "decl", "decl", "expr", "expr"]
    );
}

// ---- malformed input: diagnostics ----------------------------------------------------------------

/// Parses `src` and checks that its FIRST diagnostic is at `line:col` and contains `message`;
/// returns the rendering.
fn first_error(src: &str, line: u32, col: u32, message: &str) -> String {
    let p = parse_str(src);
    let rendered = render(&p.diagnostics, &p.sources);
    let d = p
        .diagnostics
        .first()
        .unwrap_or_else(|| panic!("no diagnostic for {src:?}"));
    assert!(
        d.message.contains(message),
        "{src:?}: expected {message:?} in:\n{rendered}"
    );
    assert_eq!(
        p.sources.line_col(d.span),
        (line, col),
        "{src:?}: wrong place:\n{rendered}"
    );
    assert!(
        rendered.starts_with(&format!("test.hlsl:{line}:{col}: error: ")),
        "{rendered}"
    );
    rendered
}

#[test]
fn malformed_syntax() {
    let cases: &[(&str, u32, u32, &str)] = &[
        (
            "void main() { int x = 1 }",
            1,
            24,
            "expected ';' after the declaration",
        ),
        (
            "void main() {\n  x = 1\n}",
            2,
            8,
            "expected ';' after the expression",
        ),
        (
            "void main() {\n  if (x { }\n}",
            2,
            9,
            "expected ')' after the 'if' condition",
        ),
        (
            "void main() { y = (1 + 2; }",
            1,
            25,
            "expected ')' to close the parenthesis",
        ),
        (
            "void main() { y = * 2; }",
            1,
            19,
            "expected an expression, found '*'",
        ),
        (
            "void main() {\n  return;\n",
            3,
            1,
            "expected '}' to end the block, found end of input",
        ),
        (
            "void main() { case 1: ; }",
            1,
            15,
            "'case' label outside a switch",
        ),
        (
            "void main() { else x = 1; }",
            1,
            15,
            "'else' without a matching 'if'",
        ),
        (
            "RWBuffer<float> b : register(q0);",
            1,
            30,
            "invalid register 'q0'",
        ),
        (
            "RWBuffer<float> b : register(u0, spaceX);",
            1,
            34,
            "invalid register space",
        ),
        (
            "RWStructuredBuffer<float4 b;",
            1,
            27,
            "expected '>' to close the template argument list",
        ),
        (
            "void main() { switch (x) { x = 1; case 0: break; } }",
            1,
            28,
            "expected 'case' or 'default'",
        ),
        (
            "void main() { float y = 1.0q; }",
            1,
            25,
            "invalid suffix 'q'",
        ),
        (
            "void main() { int y = 09; }",
            1,
            23,
            "invalid digit in octal literal",
        ),
        (
            "void main() { int y = 99999999999999999999999; }",
            1,
            23,
            "is too large",
        ),
        (
            "void main() { int y = 'a'; }",
            1,
            23,
            "character literals are not supported",
        ),
        ("interface I { }", 1, 1, "not supported yet: 'interface'"),
        (
            "struct A : B, C { };",
            1,
            13,
            "not supported yet: more than one base struct",
        ),
        (
            "void main() { do { } until (x); }",
            1,
            22,
            "expected 'while'",
        ),
        (
            "float4 main() : { }",
            1,
            17,
            "expected a semantic after ':'",
        ),
        (
            "void main() { float4 v = float4; }",
            1,
            32,
            "expected '(' after the type 'float4'",
        ),
        (
            "void main() { x = a ? b; }",
            1,
            24,
            "expected ':' in the conditional expression",
        ),
        (
            "void main(float a b) {}",
            1,
            19,
            "expected ')' after the parameters",
        ),
        ("int 3x;", 1, 5, "expected a name after the type"),
        (
            "[numthreads(1, 1, 1) void main() {}",
            1,
            22,
            "expected ']' to close the attribute",
        ),
        (
            "void main() { s.; }",
            1,
            17,
            "expected a member name after '.'",
        ),
        (
            "RWTexture2D<unorm float4> t;",
            1,
            13,
            "not supported yet: 'unorm'",
        ),
        (
            "void main() { float4 v = b.Load<float4, int>(0); }",
            1,
            39,
            "not supported yet: more than one template argument on the method 'Load'",
        ),
        (
            "struct S { float a; }\nstatic float b;",
            1,
            22,
            "expected ';' after the struct",
        ),
        (
            "void main() { a[1; }",
            1,
            18,
            "expected ']' after the index",
        ),
        ("void f() {} @", 1, 13, "stray '@' in program"),
        (
            "void main() { string s = \"abc; }",
            1,
            26,
            "missing terminating '\"' character",
        ),
    ];
    for (src, line, col, msg) in cases {
        first_error(src, *line, *col, msg);
    }
    assert!(cases.len() >= 25);
}

#[test]
fn malformed_preprocessing() {
    let cases: &[(&str, u32, u32, &str)] = &[
        (
            "/* never closed\nvoid main() {}",
            1,
            1,
            "unterminated '/*' comment",
        ),
        ("#foo\n", 1, 1, "invalid preprocessing directive '#foo'"),
        (
            "\n#include \"nope.hlsli\"\n",
            2,
            10,
            "'nope.hlsli' file not found",
        ),
        ("#include\n", 1, 2, "expected \"FILENAME\" or <FILENAME>"),
        (
            "#if 1\nint x;\n",
            1,
            1,
            "unterminated conditional directive",
        ),
        ("#else\n", 1, 1, "'#else' without '#if'"),
        ("#endif\n", 1, 1, "'#endif' without '#if'"),
        ("#elif 1\n", 1, 1, "'#elif' without '#if'"),
        (
            "#if 1\n#else\n#else\n#endif\n",
            3,
            1,
            "'#else' after '#else'",
        ),
        (
            "#define F(a, b) a\nint x = F(1, 2;\n",
            2,
            9,
            "unterminated argument list invoking macro 'F'",
        ),
        (
            "#define F(a, b) a\nint x = F(1);\n",
            2,
            9,
            "macro 'F' requires 2 arguments, but 1 given",
        ),
        ("#error stop here\n", 1, 1, "stop here"),
        (
            "#pragma pack_matrix(sideways)\n",
            1,
            1,
            "expected '(row_major)' or '(column_major)' after #pragma pack_matrix",
        ),
        (
            "#if 1 +\n#endif\n",
            1,
            2,
            "expected a value in '#if' expression",
        ),
        ("#if 1 / 0\n#endif\n", 1, 7, "division by zero"),
        ("#if 1.5\n#endif\n", 1, 5, "floating-point literal in '#if'"),
        ("#if (1\n#endif\n", 1, 2, "expected ')' in '#if' expression"),
        (
            "#if 1 2\n#endif\n",
            1,
            7,
            "unexpected '2' in '#if' expression",
        ),
        ("#define\n", 1, 2, "macro name must be an identifier"),
        ("#define 3 x\n", 1, 9, "macro name must be an identifier"),
        ("#define F(a a) a\n", 1, 13, "invalid macro parameter list"),
        (
            "#define F(a) #b\n",
            1,
            14,
            "'#' is not followed by a macro parameter",
        ),
        ("#define F(a) ## a\n", 1, 2, "'##' cannot be at either end"),
        (
            "#define CAT(a, b) a ## b\nint x = CAT(+, /);\n",
            2,
            9,
            "pasting formed '+/'",
        ),
        ("#ifdef\n#endif\n", 1, 2, "macro name must be an identifier"),
        (
            "#if defined(\n#endif\n",
            1,
            5,
            "'defined' requires an identifier",
        ),
        (
            "#define defined 1\n",
            1,
            9,
            "'defined' cannot be used as a macro name",
        ),
    ];
    for (src, line, col, msg) in cases {
        first_error(src, *line, *col, msg);
    }
}

#[test]
fn several_errors_in_one_run() {
    let src = "void a() { x = ; }\nvoid b() { y = 1 }\nint c = ;\nvoid d() { if x; }\nfloat ok1;\n";
    let p = parse_str(src);
    let places: Vec<(u32, u32)> = p
        .diagnostics
        .iter()
        .map(|d| p.sources.line_col(d.span))
        .collect();
    assert_eq!(
        places,
        [(1, 16), (2, 17), (3, 9), (4, 15)],
        "{}",
        render(&p.diagnostics, &p.sources)
    );
    // The declarations after the errors are still parsed.
    assert!(p
        .unit
        .items
        .iter()
        .any(|i| matches!(i, Item::Variables(v) if v.declarators[0].name.name == "ok1")));
}

#[test]
fn errors_are_capped() {
    let src = "void main() {\n".to_owned() + &"x = ;\n".repeat(200) + "}\n";
    let p = parse_str(&src);
    assert_eq!(p.diagnostics.len(), spvkit::hlsl::parser::MAX_ERRORS);
    let src = "@\n".repeat(200);
    let p = parse_str(&src);
    assert!(p.diagnostics.len() <= spvkit::hlsl::parser::MAX_ERRORS);
    // Preprocessor and parser errors share the cap.
    let src = "#foo\n".repeat(40) + &"int x = ;\n".repeat(40);
    let p = parse_str(&src);
    assert_eq!(p.diagnostics.len(), spvkit::hlsl::parser::MAX_ERRORS);
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    for (open, close) in [
        ("(", ")"),
        ("{", "}"),
        ("-", ""),
        ("a = ", ""),
        ("(float)", ""),
        ("c ? d : ", ""),
    ] {
        let src = format!(
            "void main() {{ x = {}1{}; }}",
            open.repeat(20_000),
            close.repeat(20_000)
        );
        let p = parse_str(&src);
        let r = render(&p.diagnostics, &p.sources);
        assert!(
            r.contains("nesting is too deep"),
            "{open}: {}",
            &r[..r.len().min(300)]
        );
    }
    let src = format!("void main() {}{}", "{".repeat(20_000), "}".repeat(20_000));
    let p = parse_str(&src);
    assert!(!p.diagnostics.is_empty());
    let src = format!(
        "#if {}1{}\n#endif\n",
        "(".repeat(20_000),
        ")".repeat(20_000)
    );
    let p = parse_str(&src);
    assert!(render(&p.diagnostics, &p.sources).contains("nested too deeply"));
    let src = format!(
        "#define F(x) x\nint y = {}1{};",
        "F(".repeat(20_000),
        ")".repeat(20_000)
    );
    let p = parse_str(&src);
    let r = render(&p.diagnostics, &p.sources);
    assert!(
        r.contains("nested too deeply") || r.contains("limit reached"),
        "{r}"
    );
    let src = format!("#if {}1\n#endif\n", "!".repeat(20_000));
    let p = parse_str(&src);
    assert!(render(&p.diagnostics, &p.sources).contains("nested too deeply"));
}

#[test]
fn exponential_macros_stop() {
    let mut src = String::from("#define A0 x x\n");
    for i in 1..40 {
        src.push_str(&format!("#define A{i} A{} A{}\n", i - 1, i - 1));
    }
    src.push_str("int y = A39;\n");
    let p = parse_str(&src);
    assert!(render(&p.diagnostics, &p.sources).contains("limit reached"));
    let src = "#define D(x) x x\nint y = D(D(D(D(D(D(D(D(D(D(D(D(D(D(D(D(D(D(D(D(D(D(D(D(D(1)))))))))))))))))))))))));";
    let p = parse_str(src);
    assert!(render(&p.diagnostics, &p.sources).contains("limit reached"));
}

#[test]
fn rendering_with_caret_and_tabs() {
    let r = first_error("void main() {\n  int value = 1\n}\n", 2, 16, "expected ';'");
    assert_eq!(
        r,
        "test.hlsl:2:16: error: expected ';' after the declaration, found '}'\n  int value = 1\n               ^\n"
    );
    let r = first_error(
        "void main() {\n\t\tx = * 2;\n}\n",
        2,
        7,
        "expected an expression",
    );
    assert_eq!(
        r,
        "test.hlsl:2:7: error: expected an expression, found '*'\n\t\tx = * 2;\n\t\t    ^\n"
    );
    // A multi-character span gets tildes; columns count characters, not bytes.
    let r = first_error("// héllo\n  interface I {}", 2, 3, "interface");
    assert!(r.ends_with("\n  interface I {}\n  ^~~~~~~~~\n"), "{r}");
    let r = first_error("float é = 1; @", 1, 7, "stray 'é' in program");
    assert!(r.contains("\nfloat é = 1; @\n      ^\n"), "{r}");
}

#[test]
fn render_notes_and_warnings() {
    use spvkit::hlsl::diag::Diagnostic;
    use spvkit::hlsl::source::{SourceMap, Span};
    let mut sm = SourceMap::new();
    let f = sm.add("a.hlsl", "int x;\n\tint x;\n");
    let d = Diagnostic::error(Span::new(f, 12, 13), "redefinition of 'x'")
        .with_note(Span::new(f, 4, 5), "previous definition is here");
    let w = Diagnostic::warning(Span::new(f, 0, 3), "unused");
    assert_eq!(
        render(&[d, w], &sm),
        "a.hlsl:2:6: error: redefinition of 'x'\n\tint x;\n\t    ^\n\
         a.hlsl:1:5: note: previous definition is here\nint x;\n    ^\n\
         a.hlsl:1:1: warning: unused\nint x;\n^~~\n"
    );
    assert_eq!(sm.line_text(Span::new(f, 8, 8)), "\tint x;");
    assert_eq!(sm.name(f), "a.hlsl");
    assert_eq!(sm.line_col(Span::new(f, 100, 100)), (3, 1));
}

#[test]
fn pp_error_directive_and_warning() {
    let p = parse_str("#warning careful\nint x;\n#error \"stop\" now\n");
    let r = render(&p.diagnostics, &p.sources);
    assert!(r.contains("test.hlsl:1:1: warning: careful"), "{r}");
    assert!(r.contains("test.hlsl:3:1: error: \"stop\" now"), "{r}");
}

// ---- robustness ----------------------------------------------------------------------------------

/// Fragments spliced into corpus shaders: openers without closers, directives, odd tokens.
const SPLICES: &[&str] = &[
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    "<",
    ">>",
    ";",
    ",",
    "\"",
    "'",
    "/*",
    "*/",
    "\\\n",
    "#if 1\n",
    "#endif\n",
    "#else\n",
    "\n#define X(a, b) a ## b #a\n",
    "X(",
    "#include \"x\"\n",
    "@",
    "float4(",
    "(float)",
    "[[vk::binding(",
    "[unroll",
    "case 1:",
    "switch (x) {",
    "::",
    "0x",
    "1e",
    "1.0.",
    "struct S {",
    "cbuffer B {",
    "typedef ",
    "register(",
    "?",
    ":",
    "=",
    "++",
    "__LINE__",
    "\n#",
    "#define R R R\nR",
    "#undef",
    "defined",
    "packoffset(",
    "template<",
    "\t",
    "é",
];

/// A tiny deterministic generator (xorshift64*), so the test needs no crates and is repeatable.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// The largest char boundary of `s` at or before `i`.
fn floor_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[test]
fn truncated_and_mutated_corpus_shaders_do_not_panic() {
    let mut rng = Rng(0x5eed_1234_abcd_ef01);
    let mut parses = 0;
    for f in corpus_files() {
        let src = std::fs::read_to_string(&f).expect("read");
        // Truncations at 16 points through the file.
        for k in 0..16 {
            let cut = floor_boundary(&src, src.len() * k / 16);
            let _ = parse_str(&src[..cut]);
            parses += 1;
        }
        // Random splices, deletions and duplications, several per mutant.
        for _ in 0..24 {
            let mut m = src.clone();
            for _ in 0..1 + rng.below(4) {
                let at = floor_boundary(&m, rng.below(m.len() + 1));
                match rng.below(3) {
                    0 => m.insert_str(at, SPLICES[rng.below(SPLICES.len())]),
                    1 => {
                        let end = floor_boundary(&m, at + rng.below(40));
                        m.replace_range(at..end.max(at), "");
                    }
                    _ => {
                        let end = floor_boundary(&m, at + rng.below(80));
                        let piece = m[at..end.max(at)].to_owned();
                        m.insert_str(at, &piece);
                    }
                }
            }
            let p = parse_str(&m);
            let _ = render(&p.diagnostics, &p.sources);
            parses += 1;
        }
    }
    assert!(parses > 0);
}

#[test]
fn fuzz_regressions() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz-regressions/hlsl");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    for e in entries.flatten() {
        let bytes = std::fs::read(e.path()).expect("read");
        let text = String::from_utf8_lossy(&bytes);
        let p = parse_str(&text);
        let _ = render(&p.diagnostics, &p.sources);
    }
}

#[test]
fn pp_computed_and_in_memory_includes() {
    let mut files = HashMap::new();
    files.insert(PathBuf::from("defs.h"), "#define FROM_DEFS 5\n".to_owned());
    files.insert(PathBuf::from("open.h"), "#if 1\nint x;\n".to_owned());
    let (text, diags) = pp_with(
        "#define HEADER \"defs.h\"\n#include HEADER\nFROM_DEFS",
        &opts(),
        &files,
    );
    assert_eq!(diags, "");
    assert_eq!(text, "5");
    // A conditional left open in an included file is reported there.
    let (_, diags) = pp_with("#include \"open.h\"\n", &opts(), &files);
    assert!(
        diags.starts_with("open.h:1:1: error: unterminated conditional directive"),
        "{diags}"
    );
}

#[test]
fn empty_items_and_stray_semicolons() {
    let unit = ok(";\nstruct S { float a; };;\nvoid main() { ; }\n");
    assert!(matches!(unit.items[0], Item::Empty(_)));
    assert!(matches!(unit.items[2], Item::Empty(_)));
}

#[test]
fn full_vertex_and_pixel_shader() {
    let src = r#"
#define PI 3.14159265f
struct VSIn {
    [[vk::location(0)]] float3 pos : POSITION;
    [[vk::location(1)]] float2 uv : TEXCOORD0;
};
struct VSOut {
    float4 pos : SV_Position;
    float2 uv : TEXCOORD0;
};
cbuffer Camera : register(b0) {
    row_major float4x4 view_proj;
    float time;
};
Texture2D<float4> albedo : register(t0);
SamplerState samp : register(s0);

VSOut vs_main(VSIn input) {
    VSOut o = (VSOut)0;
    o.pos = mul(float4(input.pos, 1.0), view_proj);
    o.uv = input.uv * float2(cos(time * PI), 1);
    return o;
}

float4 ps_main(VSOut input, bool front : SV_IsFrontFace) : SV_Target0 {
    float4 c = albedo.Sample(samp, input.uv);
    [branch] if (c.a < 0.5) discard;
    c.rgb = front ? c.rgb : 1.0 - c.rgb;
    return c;
}
"#;
    let unit = ok(src);
    let kinds: Vec<&str> = unit
        .items
        .iter()
        .map(|i| match i {
            Item::Function(_) => "fn",
            Item::Struct(_) => "struct",
            Item::Typedef(_) => "typedef",
            Item::Variables(_) => "var",
            Item::Buffer(_) => "buffer",
            Item::Empty(_) => "empty",
            Item::StructForward(_) => "forward",
            Item::Namespace { .. } => "namespace",
            Item::Using { .. } => "using",
            Item::Template { .. } => "template",
        })
        .collect();
    assert_eq!(
        kinds,
        ["struct", "struct", "buffer", "var", "var", "fn", "fn"]
    );
}

#[test]
fn attribute_using_namespace() {
    let unit = ok("[[using Vulkan: set(1), binding(2)]]\ntbuffer T { [[using Vulkan: offset(4)]] float4 f; };\n[[vk::binding(0), vk::counter_binding(1)]] RWStructuredBuffer<uint> b;");
    let Item::Buffer(b) = &unit.items[0] else {
        panic!("{:?}", unit.items[0])
    };
    let attrs: Vec<String> = b
        .attributes
        .iter()
        .chain(&b.members[0].attributes)
        .map(|a| {
            format!(
                "{}::{}({})",
                a.namespace.as_ref().map_or("", |n| n.name.as_str()),
                a.name.name,
                list(&a.args)
            )
        })
        .collect();
    assert_eq!(
        attrs,
        ["Vulkan::set(1)", "Vulkan::binding(2)", "Vulkan::offset(4)"]
    );
    let Item::Variables(v) = &unit.items[1] else {
        panic!()
    };
    assert_eq!(v.attributes.len(), 2);
    assert_eq!(v.attributes[1].name.name, "counter_binding");
}

#[test]
fn typedef_struct() {
    let unit = ok("typedef struct { float a; } A;\ntypedef struct B_ { int b; } B;\nvoid main() { A a = (A)0; B b = (B)0; }");
    assert!(
        matches!(&unit.items[0], Item::Struct(s) if s.name.as_ref().is_some_and(|n| n.name == "A"))
    );
    assert!(
        matches!(&unit.items[1], Item::Struct(s) if s.name.as_ref().is_some_and(|n| n.name == "B_"))
    );
    assert!(
        matches!(&unit.items[2], Item::Typedef(t) if t.name.name == "B" && t.ty.name.name == "B_")
    );
}

#[test]
fn byte_order_mark_and_crlf() {
    let unit =
        ok("\u{feff}#define N 2\r\nfloat a[N];\r\n#if N == 2 \\\r\n && 1\r\nint b;\r\n#endif\r\n");
    assert_eq!(unit.items.len(), 2);
    let p = parse_str("int x;\r\nint y = ;\r\n");
    assert_eq!(
        render(&p.diagnostics, &p.sources),
        "test.hlsl:2:9: error: expected an expression, found ';'\nint y = ;\n        ^\n"
    );
}

/// Language constructs name resolution and code generation must survive when mangled.
const COMPILE_SPLICES: &[&str] = &[
    "namespace N { ",
    "} ",
    "using namespace N; ",
    "template<typename T> ",
    "template<> ",
    "struct S : S { int x; }; ",
    "struct Q { int f() { return f(); } }; ",
    "::",
    "this.",
    " operator+",
    "<int>",
    "S<S<int> > ",
    " : 3",
    "static ",
];

/// Whole compilations (name resolution, templates, code generation) of truncated and
/// mutated corpus shaders end in output or errors, never a panic, hang or stack overflow.
#[test]
fn mutated_corpus_shaders_compile_or_fail_cleanly() {
    let mut rng = Rng(0x0dd_ba11_5eed_c0de);
    let mut compiles = 0;
    for f in corpus_files() {
        let src = std::fs::read_to_string(&f).expect("read");
        let path = f.to_string_lossy().into_owned();
        let profile = if path.contains("/vertex/") {
            "vs_6_0"
        } else if path.contains("/pixel/") {
            "ps_6_0"
        } else {
            "cs_6_0"
        };
        let options = Options::new("main", profile.parse::<Profile>().expect("profile"));
        for _ in 0..6 {
            let mut m = src.clone();
            for _ in 0..1 + rng.below(3) {
                let at = floor_boundary(&m, rng.below(m.len() + 1));
                if rng.below(2) == 0 {
                    m.insert_str(at, COMPILE_SPLICES[rng.below(COMPILE_SPLICES.len())]);
                } else {
                    let end = floor_boundary(&m, at + rng.below(30));
                    m.replace_range(at..end.max(at), "");
                }
            }
            let _ = spvkit::hlsl::compile_source("mutant.hlsl", &m, &options);
            compiles += 1;
        }
    }
    assert!(compiles > 0);
    // Recursive templates stop at the instantiation limit, quickly.
    let t = std::time::Instant::now();
    let e = spvkit::hlsl::compile_source(
        "rec.hlsl",
        "template<typename T> struct R { T v; R<R<T> > inner; };
         RWStructuredBuffer<float> o;
         [numthreads(1, 1, 1)] void main() { R<float> r; o[0] = 1; }",
        &opts(),
    )
    .expect_err("a recursive template");
    assert!(
        e.rendered.contains("a recursive template?"),
        "{}",
        e.rendered
    );
    assert!(t.elapsed() < std::time::Duration::from_secs(10));
}

/// Struct forward declarations and member type aliases as the parser writes them:
/// `struct S;` and the `struct S` of `typedef struct S T;` are `StructForward` items; a
/// `using T = type;` inside a struct is a member typedef.
#[test]
fn forward_structs_and_member_aliases_parse() {
    let unit = ok(
        "struct A;\ntypedef struct B C;\ntypedef struct D { int x; } E;\n\
                   struct S { using V = float2; V v; };",
    );
    let kinds: Vec<String> = unit
        .items
        .iter()
        .map(|i| match i {
            Item::StructForward(n) => format!("forward {}", n.name),
            Item::Typedef(t) => format!("typedef {} {}", t.ty.name.name, t.name.name),
            Item::Struct(s) => format!(
                "struct {} {:?}",
                s.name.as_ref().map_or("", |n| n.name.as_str()),
                s.typedefs
                    .iter()
                    .map(|t| format!("{}={}", t.name.name, t.ty.name.name))
                    .collect::<Vec<_>>()
            ),
            _ => "other".to_owned(),
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "forward A",
            "forward B",
            "typedef B C",
            "struct D []",
            "typedef D E",
            "struct S [\"V=float2\"]"
        ]
    );
}
