//! The parser: preprocessed tokens to the [`ast`](super::ast), by recursive descent with C's
//! operator precedence. HLSL's one context-sensitive spot, `(T)x` (a cast) versus `(x)` (a
//! parenthesised expression), is decided by whether `T` names a type: a builtin type name, or a
//! struct or typedef declared earlier in the file.
//!
//! On a syntax error the parser records a diagnostic and skips to the next `;`, `}` or top-level
//! declaration, so one run reports several errors (up to [`MAX_ERRORS`]). Nesting deeper than
//! [`MAX_DEPTH`] is an error rather than a stack overflow.

use super::ast::*;
use super::diag::Diagnostic;
use super::lexer::parse_number;
use super::source::Span;
use super::token::{Token, TokenKind};
use out_of_line::{TemplateMethod, TemplateStatic};
use std::collections::HashSet;

mod out_of_line;

/// Errors after which parsing stops (clang's `-ferror-limit` default).
pub const MAX_ERRORS: usize = 50;
/// Deepest nesting of expressions, statements and types accepted (clang's bracket depth is 256;
/// this is lower so debug builds on small thread stacks stay safe).
pub const MAX_DEPTH: usize = 200;

/// The type name the parser gives a member type of a template instance, `S<A>::T`: the type
/// `<member>::T<S<A>>` (no source can spell it).
pub const INSTANCE_MEMBER: &str = "<member>";

/// Parses a token stream (ending with an end-of-input token) into a translation unit and the
/// syntax errors found.
pub fn parse_tokens(tokens: Vec<Token>) -> (TranslationUnit, Vec<Diagnostic>) {
    let mut p = Parser::new(tokens);
    let unit = p.unit();
    (unit, p.diags)
}

/// Stack for the front end's thread: recursive descent to [`MAX_DEPTH`] levels needs several MiB
/// in debug builds (frames of 10-20 KiB per statement level), more than a test thread's 2 MiB.
const STACK_SIZE: usize = 256 << 20;

/// Runs `f` on a thread with a `STACK_SIZE` stack (reserved, not committed, so cheap), so the
/// nesting limits, not the caller's stack, bound the recursion; runs it here if no thread can be
/// started.
pub fn on_big_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    thread_local! {
        /// Whether this thread is one `on_big_stack` started: nested calls run in place (one
        /// thread per compilation, not per phase).
        static ON_BIG_STACK: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }
    if ON_BIG_STACK.with(std::cell::Cell::get) {
        return f();
    }
    let mut f = Some(f);
    let result = std::thread::scope(|scope| {
        let spawned = std::thread::Builder::new()
            .name("hlsl-front".to_owned())
            .stack_size(STACK_SIZE)
            .spawn_scoped(scope, || {
                ON_BIG_STACK.with(|b| b.set(true));
                f.take().map(|f| f())
            });
        match spawned {
            Ok(handle) => match handle.join() {
                Ok(r) => r,
                Err(panic) => std::panic::resume_unwind(panic),
            },
            Err(_) => None,
        }
    });
    match result {
        Some(r) => r,
        None => match f.take() {
            Some(f) => f(),
            None => unreachable_after_take(),
        },
    }
}

/// `f` is taken exactly once: either the thread ran it (and returned `Some`) or it is still
/// here. Kept as a function so the impossible arm needs no `unwrap`.
fn unreachable_after_take<T>() -> T {
    panic!("on_big_stack: closure neither ran nor stayed")
}

/// Whether `name` is a builtin HLSL type name the parser must know to tell casts from
/// parenthesised expressions: scalars, vectors (`float4`), matrices (`half2x3`), the `vector`
/// and `matrix` templates, and resource and sampler types.
pub fn is_builtin_type(name: &str) -> bool {
    const SCALARS: &[&str] = &[
        "bool",
        "int",
        "uint",
        "dword",
        "half",
        "float",
        "double",
        "min16float",
        "min10float",
        "min16int",
        "min12int",
        "min16uint",
        "int16_t",
        "int32_t",
        "int64_t",
        "uint16_t",
        "uint32_t",
        "uint64_t",
        "float16_t",
        "float32_t",
        "float64_t",
        "int8_t4_packed",
        "uint8_t4_packed",
    ];
    const OTHERS: &[&str] = &[
        "void",
        "vector",
        "matrix",
        "Buffer",
        "RWBuffer",
        "ByteAddressBuffer",
        "RWByteAddressBuffer",
        "StructuredBuffer",
        "RWStructuredBuffer",
        "AppendStructuredBuffer",
        "ConsumeStructuredBuffer",
        "ConstantBuffer",
        "TextureBuffer",
        "Texture1D",
        "Texture1DArray",
        "Texture2D",
        "Texture2DArray",
        "Texture2DMS",
        "Texture2DMSArray",
        "Texture3D",
        "TextureCube",
        "TextureCubeArray",
        "RWTexture1D",
        "RWTexture1DArray",
        "RWTexture2D",
        "RWTexture2DArray",
        "RWTexture3D",
        "SamplerState",
        "SamplerComparisonState",
        "vk::SampledTexture1D",
        "vk::SampledTexture1DArray",
        "vk::SampledTexture2D",
        "vk::SampledTexture2DArray",
        "vk::SampledTexture2DMS",
        "vk::SampledTexture2DMSArray",
        "vk::SampledTexture3D",
        "vk::SampledTextureCUBE",
        "vk::SampledTextureCUBEArray",
        "vk::BufferPointer",
        "vk::SpirvType",
        "vk::SpirvOpaqueType",
        "vk::Literal",
        "vk::integral_constant",
        "vk::ext_type",
        "vk::ext_result_id",
        "sampler",
        "sampler1D",
        "sampler2D",
        "sampler3D",
        "samplerCUBE",
        // (Not `texture`: DXC takes it as a name, `Texture2D texture;`.)
        "Texture",
        "RasterizerOrderedBuffer",
        "RasterizerOrderedByteAddressBuffer",
        "RasterizerOrderedStructuredBuffer",
        "RasterizerOrderedTexture1D",
        "RasterizerOrderedTexture1DArray",
        "RasterizerOrderedTexture2D",
        "RasterizerOrderedTexture2DArray",
        "RasterizerOrderedTexture3D",
        "SubpassInput",
        "SubpassInputMS",
        "InputPatch",
        "OutputPatch",
        "PointStream",
        "LineStream",
        "TriangleStream",
        "RaytracingAccelerationStructure",
        "RayQuery",
        "string",
    ];
    if SCALARS.contains(&name) || OTHERS.contains(&name) {
        return true;
    }
    // `float4`, `int1`, `half3x4`: a scalar name then 1-4, optionally `x` and 1-4.
    let b = name.as_bytes();
    let dim = |i: usize| b.get(i).is_some_and(|c| (b'1'..=b'4').contains(c));
    let n = b.len();
    let base_len = if n >= 3 && b.get(n - 2) == Some(&b'x') && dim(n - 1) && dim(n - 3) {
        n - 3
    } else if n >= 2 && dim(n - 1) {
        n - 1
    } else {
        return false;
    };
    name.get(..base_len)
        .is_some_and(|s| SCALARS.contains(&s) && s != "dword" && !s.ends_with("_packed"))
}

/// Whether `name` is one of DXC's builtin function templates in the `vk` namespace, so
/// `vk::RawBufferLoad<float>(a)` parses as a call with template arguments.
pub fn is_builtin_function_template(name: &str) -> bool {
    matches!(
        name,
        "vk::RawBufferLoad"
            | "vk::RawBufferStore"
            | "vk::static_pointer_cast"
            | "vk::reinterpret_pointer_cast"
    )
}

/// The keyword a modifier is spelled with, if `name` is one.
fn modifier(name: &str) -> Option<Modifier> {
    Some(match name {
        "static" => Modifier::Static,
        "const" => Modifier::Const,
        "groupshared" => Modifier::GroupShared,
        "uniform" => Modifier::Uniform,
        "extern" => Modifier::Extern,
        "volatile" => Modifier::Volatile,
        "precise" => Modifier::Precise,
        "shared" => Modifier::Shared,
        "inline" => Modifier::Inline,
        "row_major" => Modifier::RowMajor,
        "column_major" => Modifier::ColumnMajor,
        "nointerpolation" => Modifier::NoInterpolation,
        "linear" => Modifier::Linear,
        "centroid" => Modifier::Centroid,
        "noperspective" => Modifier::NoPerspective,
        "sample" => Modifier::Sample,
        "in" => Modifier::In,
        "out" => Modifier::Out,
        "inout" => Modifier::InOut,
        "unorm" => Modifier::Unorm,
        "snorm" => Modifier::Snorm,
        "globallycoherent" => Modifier::GloballyCoherent,
        "point" => Modifier::Point,
        "line" => Modifier::Line,
        "triangle" => Modifier::Triangle,
        "lineadj" => Modifier::LineAdj,
        "triangleadj" => Modifier::TriangleAdj,
        _ => return None,
    })
}

/// Words that start a statement or declaration of their own and so are never names.
const RESERVED: &[&str] = &[
    "if", "else", "for", "while", "do", "switch", "case", "default", "break", "continue", "return",
    "discard", "struct", "typedef", "cbuffer", "tbuffer", "true", "false",
];

/// The binary operator a punctuator spells and its precedence (higher binds tighter).
fn binary_op(p: &str) -> Option<(BinaryOp, u8)> {
    Some(match p {
        "||" => (BinaryOp::Or, 1),
        "&&" => (BinaryOp::And, 2),
        "|" => (BinaryOp::BitOr, 3),
        "^" => (BinaryOp::BitXor, 4),
        "&" => (BinaryOp::BitAnd, 5),
        "==" => (BinaryOp::Eq, 6),
        "!=" => (BinaryOp::Ne, 6),
        "<" => (BinaryOp::Lt, 7),
        ">" => (BinaryOp::Gt, 7),
        "<=" => (BinaryOp::Le, 7),
        ">=" => (BinaryOp::Ge, 7),
        "<<" => (BinaryOp::Shl, 8),
        ">>" => (BinaryOp::Shr, 8),
        "+" => (BinaryOp::Add, 9),
        "-" => (BinaryOp::Sub, 9),
        "*" => (BinaryOp::Mul, 10),
        "/" => (BinaryOp::Div, 10),
        "%" => (BinaryOp::Rem, 10),
        _ => return None,
    })
}

/// The compound operator of an assignment punctuator (`Some(None)` for plain `=`).
fn assign_op(p: &str) -> Option<Option<BinaryOp>> {
    Some(match p {
        "=" => None,
        "+=" => Some(BinaryOp::Add),
        "-=" => Some(BinaryOp::Sub),
        "*=" => Some(BinaryOp::Mul),
        "/=" => Some(BinaryOp::Div),
        "%=" => Some(BinaryOp::Rem),
        "<<=" => Some(BinaryOp::Shl),
        ">>=" => Some(BinaryOp::Shr),
        "&=" => Some(BinaryOp::BitAnd),
        "|=" => Some(BinaryOp::BitOr),
        "^=" => Some(BinaryOp::BitXor),
        _ => return None,
    })
}

/// A parse failure whose diagnostic is already recorded; the caller resynchronises.
#[derive(Debug)]
struct Stop;

/// A label or a statement of a switch's body, before grouping into cases.
enum SwitchItem {
    /// `case e:` (Some) or `default:` (None), with its span.
    Label(Option<Expr>, Span),
    /// A statement.
    Stmt(Stmt),
}

/// What every parsing function returns.
type PResult<T> = Result<T, Stop>;

/// The parser's state.
struct Parser {
    toks: Vec<Token>,
    pos: usize,
    diags: Vec<Diagnostic>,
    /// Struct and typedef names declared so far (also qualified: `N::S` and `S` for a struct
    /// `S` in namespace `N`).
    types: HashSet<String>,
    /// The namespaces being parsed, outermost first.
    ns_path: Vec<String>,
    /// Structs declared inside functions, hoisted to file level before the function.
    hoisted: Vec<Item>,
    /// Names of templates declared so far (also qualified), so `f<int>(x)` parses as a call
    /// with template arguments.
    templates: HashSet<String>,
    depth: usize,
    /// Set when parsing must end (error limit or nesting limit).
    fatal: bool,
    /// Set when the nesting limit was hit (never rolled back by a speculative parse).
    too_deep: bool,
    /// Token positions where `(` was found not to start a cast, so nested speculation stays
    /// linear instead of exponential.
    not_casts: HashSet<usize>,
    /// How many switch bodies enclose the current statement.
    switch_depth: u32,
    /// Names of variable templates: `v<args>` in an expression is the variable of an instance.
    var_templates: HashSet<String>,
    /// Out-of-line definitions of struct templates' static members, given to the templates
    /// at the end of the file.
    template_statics: Vec<TemplateStatic>,
    /// Out-of-line definitions of struct templates' member functions, given to the templates
    /// at the end of the file.
    template_methods: Vec<TemplateMethod>,
    /// `#pragma pack_matrix`s: the token position they came before, row-major or not, where.
    pack_matrix: Vec<(usize, bool, Span)>,
    /// Set while parsing an expression template argument outside any parenthesis or bracket:
    /// a `>` or `>>` there closes the list instead of being an operator.
    angle_closes: bool,
    /// Names that local type aliases made type names, innermost last: each is dropped from
    /// `types` at the end of its block, so the alias parses as a type only where it is seen.
    local_types: Vec<String>,
}

impl Parser {
    /// A parser over `tokens`; an end-of-input token is added when missing.
    fn new(tokens: Vec<Token>) -> Parser {
        // `#pragma pack_matrix` arrives as a token; kept aside with its place in the stream.
        let mut pack_matrix = Vec::new();
        let mut kept = Vec::with_capacity(tokens.len());
        for t in tokens {
            match t.text.strip_prefix(super::preprocess::PACK_MATRIX) {
                Some(m) if t.kind == TokenKind::Other => {
                    pack_matrix.push((kept.len(), m == "row_major", t.span))
                }
                _ => kept.push(t),
            }
        }
        let mut tokens = kept;
        if tokens.last().is_none_or(|t| t.kind != TokenKind::Eof) {
            let span = tokens.last().map_or(Span::default(), |t| t.span);
            tokens.push(Token::new(
                TokenKind::Eof,
                "",
                Span::new(span.file, span.end, span.end),
            ));
        }
        Parser {
            toks: tokens,
            pos: 0,
            diags: Vec::new(),
            types: HashSet::new(),
            ns_path: Vec::new(),
            hoisted: Vec::new(),
            templates: HashSet::new(),
            depth: 0,
            fatal: false,
            too_deep: false,
            not_casts: HashSet::new(),
            switch_depth: 0,
            var_templates: HashSet::new(),
            template_statics: Vec::new(),
            template_methods: Vec::new(),
            pack_matrix,
            angle_closes: false,
            local_types: Vec::new(),
        }
    }

    // ---- token access -------------------------------------------------------------------

    /// The token `k` places ahead (the end-of-input token past the end).
    fn peek_at(&self, k: usize) -> &Token {
        let i = (self.pos + k).min(self.toks.len().saturating_sub(1));
        // `new` guarantees at least the end-of-input token.
        &self.toks[i]
    }

    /// The current token.
    fn tok(&self) -> &Token {
        self.peek_at(0)
    }

    /// The current token's span.
    fn span(&self) -> Span {
        self.tok().span
    }

    /// The span of the last token taken (the current one at the start).
    fn prev_span(&self) -> Span {
        match self.pos.checked_sub(1).and_then(|i| self.toks.get(i)) {
            Some(t) => t.span,
            None => self.span(),
        }
    }

    /// Takes the current token.
    fn bump(&mut self) -> Token {
        let t = self.tok().clone();
        if self.pos < self.toks.len().saturating_sub(1) {
            self.pos += 1;
        }
        t
    }

    /// Whether the current token is the punctuator `p`.
    fn at(&self, p: &str) -> bool {
        self.tok().is_punct(p)
    }

    /// Whether the current token is the word `w`.
    fn at_word(&self, w: &str) -> bool {
        self.tok().is_ident(w)
    }

    /// Whether the input is used up.
    fn at_eof(&self) -> bool {
        self.tok().kind == TokenKind::Eof
    }

    /// Takes the punctuator `p` if it is next.
    fn eat(&mut self, p: &str) -> bool {
        if self.at(p) {
            self.bump();
            true
        } else {
            false
        }
    }

    // ---- diagnostics --------------------------------------------------------------------

    /// Records an error; past [`MAX_ERRORS`] parsing stops.
    fn error(&mut self, span: Span, message: impl Into<String>) {
        if self.fatal {
            return;
        }
        self.diags.push(Diagnostic::error(span, message));
        if self.diags.len() >= MAX_ERRORS {
            self.fatal = true;
        }
    }

    /// Records an error at the current token and fails.
    fn fail<T>(&mut self, message: impl Into<String>) -> PResult<T> {
        let span = self.span();
        self.error(span, message);
        Err(Stop)
    }

    /// Requires punctuator `p`: "expected `p` `what`" otherwise, pointing just after the
    /// previous token, where the missing token belongs.
    fn expect(&mut self, p: &str, what: &str) -> PResult<Token> {
        if self.at(p) {
            return Ok(self.bump());
        }
        if matches!(self.tok().kind, TokenKind::Other | TokenKind::Char) {
            return self.stray();
        }
        let prev = self.prev_span();
        let span = if self.pos > 0 && prev.file == self.span().file && p == ";" {
            Span::new(prev.file, prev.end, prev.end)
        } else {
            self.span()
        };
        let found = self.tok().describe();
        self.error(span, format!("expected '{p}' {what}, found {found}"));
        Err(Stop)
    }

    /// Requires an identifier (not a reserved word).
    fn ident(&mut self, what: &str) -> PResult<Ident> {
        let t = self.tok();
        if t.kind == TokenKind::Ident && !RESERVED.contains(&t.text.as_str()) {
            let t = self.bump();
            return Ok(Ident {
                name: t.text,
                span: t.span,
            });
        }
        if matches!(t.kind, TokenKind::Other | TokenKind::Char) {
            return self.stray();
        }
        let found = t.describe();
        self.fail(format!("expected {what}, found {found}"))
    }

    /// Enters one nesting level; past [`MAX_DEPTH`] parsing stops.
    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            let span = self.span();
            self.error(
                span,
                format!("nesting is too deep (the limit is {MAX_DEPTH} levels)"),
            );
            self.fatal = true;
            self.too_deep = true;
            return Err(Stop);
        }
        Ok(())
    }

    /// Leaves a nesting level entered by [`Parser::enter`].
    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Skips to just after the next `;` or `}` at this nesting level (a statement's end), or to
    /// an unmatched `}` (left in place for the enclosing block).
    fn sync_stmt(&mut self) {
        let mut depth = 0usize;
        while !self.at_eof() && !self.fatal {
            if self.at(";") && depth == 0 {
                self.bump();
                return;
            }
            if self.at("{") {
                depth += 1;
            } else if self.at("}") {
                if depth == 0 {
                    return;
                }
                depth -= 1;
                if depth == 0 {
                    self.bump();
                    return;
                }
            }
            self.bump();
        }
    }

    /// Skips to the start of the next top-level declaration: past a `;` or a balanced `}` at
    /// file level.
    fn sync_top(&mut self) {
        let mut depth = 0usize;
        while !self.at_eof() && !self.fatal {
            let t = self.bump();
            if t.is_punct("{") {
                depth += 1;
            } else if t.is_punct("}") {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    self.eat(";");
                    return;
                }
            } else if t.is_punct(";") && depth == 0 {
                return;
            }
        }
    }

    // ---- classification -----------------------------------------------------------------

    /// Whether `t` names a type (builtin, or a struct/typedef declared so far).
    fn is_type(&self, t: &Token) -> bool {
        t.kind == TokenKind::Ident
            && (is_builtin_type(&t.text) || self.types.contains(&t.text) || t.text == "unsigned")
    }

    /// Records a type name declared in the current namespace under every spelling that can
    /// reach it (`S`, `B::S`, `A::B::S` inside `namespace A { namespace B {`).
    fn declare_type(&mut self, name: &str) {
        self.types.insert(name.to_owned());
        for k in (0..self.ns_path.len()).rev() {
            let q = format!("{}::{name}", self.ns_path[k..].join("::"));
            self.types.insert(q);
        }
    }

    /// Makes `name` a type name to the end of the current block (a local type alias); one
    /// that already is (an outer alias, a global type it shadows) stays one after the block.
    fn declare_local_type(&mut self, name: &str) {
        if self.types.insert(name.to_owned()) {
            self.local_types.push(name.to_owned());
        }
    }

    /// Ends the scope of the local type names declared since `mark`.
    fn end_local_types(&mut self, mark: usize) {
        for name in self.local_types.drain(mark.min(self.local_types.len())..) {
            self.types.remove(&name);
        }
    }

    /// The offset just past a qualified name (`A::B::c`) starting at offset `k`, and its
    /// spelling; `k + 1` for a plain name.
    fn qualified_end(&self, k: usize) -> (usize, String) {
        let mut name = self.peek_at(k).text.clone();
        let mut i = k + 1;
        while self.peek_at(i).is_punct("::") && self.peek_at(i + 1).kind == TokenKind::Ident {
            name.push_str("::");
            name.push_str(&self.peek_at(i + 1).text);
            i += 2;
        }
        (i, name)
    }

    /// Whether the (possibly qualified) name at offset `k` is a declared type.
    fn is_type_at(&self, k: usize) -> bool {
        let t = self.peek_at(k);
        if t.is_punct("::") {
            // `::N::T`: a name from the file scope.
            return self.peek_at(k + 1).kind == TokenKind::Ident && self.is_type_at(k + 1);
        }
        if t.kind != TokenKind::Ident {
            return false;
        }
        let (end, name) = self.qualified_end(k);
        if end == k + 1 {
            return self.is_type(t);
        }
        // Builtin qualified types (`vk::SampledTexture2D`).
        self.types.contains(&name) || is_builtin_type(&name)
    }

    /// A name, qualified or not (`f`, `A::B::f`).
    fn qualified_ident(&mut self, what: &str) -> PResult<Ident> {
        let mut name = self.ident(what)?;
        while self.at("::") && self.peek_at(1).kind == TokenKind::Ident {
            self.bump();
            let part = self.bump();
            name.name = format!("{}::{}", name.name, part.text);
            if part.text == "operator" {
                // `S::operator+`: an out-of-line member operator.
                let symbol = self.operator_symbol()?;
                name.name.push_str(&symbol);
            }
            name.span = name.span.to(self.prev_span());
        }
        Ok(name)
    }

    /// Whether the token `k` ahead is a modifier keyword used as one (followed by a name, so
    /// `sample = 1;` stays an expression).
    fn is_modifier_at(&self, k: usize) -> bool {
        let t = self.peek_at(k);
        t.kind == TokenKind::Ident
            && modifier(&t.text).is_some()
            && (self.peek_at(k + 1).kind == TokenKind::Ident
                || (self.peek_at(k + 1).is_punct("::") && self.is_type_at(k + 1)))
    }

    /// Whether a statement starting here is a declaration: modifiers, or a type followed by a
    /// name, or two names in a row (an unknown type, which sema reports).
    fn at_declaration(&self) -> bool {
        if self.is_modifier_at(0) {
            return true;
        }
        if self.at("::") && self.is_type_at(0) {
            return self.peek_at(self.qualified_end(1).0).kind == TokenKind::Ident;
        }
        let t = self.tok();
        if t.kind != TokenKind::Ident || RESERVED.contains(&t.text.as_str()) {
            return false;
        }
        let (end, _) = self.qualified_end(0);
        let next = self.peek_at(end);
        if next.kind == TokenKind::Ident {
            return true;
        }
        if !(self.is_type_at(0) && next.is_punct("<")) {
            return false;
        }
        match self.after_template(end) {
            Some(k) if self.peek_at(k).kind == TokenKind::Ident => true,
            // `S<A>::T x`: a member type of the instance.
            Some(k)
                if self.peek_at(k).is_punct("::")
                    && self.peek_at(k + 1).kind == TokenKind::Ident =>
            {
                let (end, _) = self.qualified_end(k + 1);
                self.peek_at(end).kind == TokenKind::Ident
            }
            _ => false,
        }
    }

    /// The offset just past the template argument list starting with the `<` at offset `k`
    /// (counting `>>` as two closers; a `>` inside parentheses or brackets is an operator),
    /// if it closes before a `;`, `{` or `}`.
    fn after_template(&self, k: usize) -> Option<usize> {
        let mut depth = 0usize;
        let mut parens = 0usize;
        let mut i = k;
        loop {
            let t = self.peek_at(i);
            match t.text.as_str() {
                _ if t.kind == TokenKind::Eof => return None,
                _ if t.kind != TokenKind::Punct => {}
                "(" | "[" => parens += 1,
                ")" | "]" if parens == 0 => return None,
                ")" | "]" => parens -= 1,
                _ if parens > 0 => {}
                "<" => depth += 1,
                ">" | ">>" => {
                    let n = t.text.len();
                    if depth <= n {
                        return Some(i + 1);
                    }
                    depth -= n;
                }
                ";" | "{" | "}" => return None,
                _ => {}
            }
            i += 1;
        }
    }

    // ---- top level ----------------------------------------------------------------------

    /// The whole file.
    fn unit(&mut self) -> TranslationUnit {
        let mut unit = TranslationUnit::default();
        let mut first_declaration = None;
        while !self.at_eof() && !self.fatal {
            let start = self.pos;
            if !self.at(";") {
                first_declaration.get_or_insert(start);
            }
            match self.item() {
                Ok(items) => {
                    unit.items.append(&mut self.hoisted);
                    unit.items.extend(items);
                }
                Err(Stop) => {
                    self.sync_top();
                    if self.pos == start {
                        self.bump();
                    }
                }
            }
        }
        self.define_template_members(&mut unit.items);
        // `#pragma pack_matrix` before every declaration is also the file's default
        // majorness (for matrices outside declarations, as `-Zpr`/`-Zpc`); each declaration
        // takes the one in force where it is (`Modifier::PackMatrix`).
        let first = first_declaration.unwrap_or(usize::MAX);
        if let Some(&(_, row_major, _)) = self.pack_matrix.iter().rev().find(|p| p.0 <= first) {
            unit.pack_row_major = Some(row_major);
        }
        unit
    }

    /// One top-level declaration (a struct with declarators gives two items).
    fn item(&mut self) -> PResult<Vec<Item>> {
        let start = self.span();
        if self.at(";") {
            self.bump();
            return Ok(vec![Item::Empty(start)]);
        }
        if self.tok().kind == TokenKind::Other || self.tok().kind == TokenKind::Char {
            self.stray()?;
        }
        let attributes = self.attributes()?;
        let is_struct = self.at_word("struct") || self.at_word("class");
        if is_struct && self.peek_at(1).kind == TokenKind::Ident && self.peek_at(2).is_punct(";") {
            // `struct S;`: a forward declaration.
            self.bump();
            let name = self.ident("a struct name")?;
            self.declare_type(&name.name);
            self.bump();
            return Ok(vec![Item::StructForward(name)]);
        }
        if is_struct
            && self.peek_at(1).kind == TokenKind::Ident
            && !self.peek_at(2).is_punct("{")
            && !self.peek_at(2).is_punct(":")
            && !(self.peek_at(2).is_punct("<") && self.templates.contains(&self.peek_at(1).text))
        {
            // `struct S x;`: an elaborated type.
            self.bump();
        } else if is_struct {
            return self.struct_item(attributes);
        }
        if self.at_word("typedef") && self.peek_at(1).is_ident("struct") {
            return self.typedef_struct();
        }
        if self.at_word("typedef") {
            return Ok(vec![Item::Typedef(self.typedef()?)]);
        }
        if self.at_word("cbuffer") || self.at_word("tbuffer") {
            // Functions defined inside the block are ordinary functions after it.
            let (block, functions) = self.buffer(attributes)?;
            let mut items = vec![Item::Buffer(block)];
            items.extend(functions.into_iter().map(Item::Function));
            return Ok(items);
        }
        if self.at_word("enum") {
            return self.enum_decl();
        }
        if self.at_word("namespace") {
            return self.namespace();
        }
        if self.at_word("using") {
            return self.using();
        }
        if self.at_word("template") {
            return self.template();
        }
        for word in ["interface"] {
            if self.at_word(word) {
                return self.fail(format!("not supported yet: '{word}' declarations"));
            }
        }
        let modifiers = self.modifiers();
        let ty = self.type_expr()?;
        let name = self.qualified_ident("a name after the type")?;
        if self.at("(") {
            return Ok(vec![Item::Function(
                self.function(attributes, modifiers, ty, name, start)?,
            )]);
        }
        let decl = self.var_rest(attributes, modifiers, ty, name, start)?;
        Ok(vec![Item::Variables(decl)])
    }

    /// Reports a stray character or a bad literal at the current token and fails.
    fn stray<T>(&mut self) -> PResult<T> {
        let t = self.tok().clone();
        let msg = match t.kind {
            TokenKind::Char => "character literals are not supported in HLSL".to_owned(),
            _ if t.text.starts_with('"') => "missing terminating '\"' character".to_owned(),
            _ if t.text.starts_with('\'') => "missing terminating ' character".to_owned(),
            _ => format!("stray '{}' in program", t.text),
        };
        self.fail(msg)
    }

    /// `[name(args)]` and `[[ns::name(args), ...]]`, any number of them.
    fn attributes(&mut self) -> PResult<Vec<Attribute>> {
        let mut out = Vec::new();
        while self.at("[") {
            let start = self.span();
            self.bump();
            let double = self.eat("[");
            // C++17 `[[using NS: a, b]]` (the 2017 design document's `[[using Vulkan: set(0)]]`)
            // gives every attribute in the list the namespace NS.
            let using = if double && self.at_word("using") {
                self.bump();
                let ns = self.ident("an attribute namespace after 'using'")?;
                self.expect(":", "after the attribute namespace")?;
                Some(ns)
            } else {
                None
            };
            loop {
                let first = self.ident("an attribute name")?;
                let (namespace, mut name) = if self.eat("::") {
                    (Some(first), self.ident("an attribute name after '::'")?)
                } else {
                    (using.clone(), first)
                };
                // HLSL's own `[attributes]` are case-insensitive in DXC (`[numThreads]`,
                // `[UNROLL]`, `[Branch]`).
                if !double && namespace.is_none() {
                    name.name.make_ascii_lowercase();
                }
                let mut args = Vec::new();
                if self.eat("(") {
                    if !self.at(")") {
                        loop {
                            args.push(self.assignment()?);
                            if !self.eat(",") {
                                break;
                            }
                        }
                    }
                    self.expect(")", "after the attribute's arguments")?;
                }
                let span = start.to(self.prev_span());
                out.push(Attribute {
                    namespace,
                    name,
                    args,
                    span,
                });
                if !(double && self.eat(",")) {
                    break;
                }
            }
            self.expect("]", "to close the attribute")?;
            if double {
                self.expect("]", "to close the attribute")?;
            }
            if let Some(last) = out.last_mut() {
                last.span = start.to(self.prev_span());
            }
        }
        Ok(out)
    }

    /// Modifier keywords, in any order.
    fn modifiers(&mut self) -> Vec<ModifierSpan> {
        let mut out = Vec::new();
        // The `#pragma pack_matrix` in force here, if any, gives the declaration its default.
        if let Some(&(_, row_major, span)) = self.pack_matrix.iter().rev().find(|p| p.0 <= self.pos)
        {
            out.push(ModifierSpan {
                modifier: Modifier::PackMatrix(row_major),
                span,
            });
        }
        while self.is_modifier_at(0) {
            let t = self.bump();
            if let Some(modifier) = modifier(&t.text) {
                out.push(ModifierSpan {
                    modifier,
                    span: t.span,
                });
            }
        }
        out
    }

    /// A type: a name with optional template arguments (`RWStructuredBuffer<float4>`,
    /// `vector<float, 3>`; `>>` closes two lists).
    fn type_expr(&mut self) -> PResult<TypeExpr> {
        self.enter()?;
        let r = self.type_expr_inner();
        self.leave();
        r
    }

    /// [`Parser::type_expr`] inside its nesting guard.
    fn type_expr_inner(&mut self) -> PResult<TypeExpr> {
        let start = self.span();
        if self.at_word("unsigned") {
            self.bump();
            let base = if self.tok().kind == TokenKind::Ident
                && self.tok().text.starts_with("int")
                && is_builtin_type(&self.tok().text)
            {
                let t = self.bump();
                format!("u{}", t.text)
            } else {
                "uint".to_owned()
            };
            let span = start.to(self.prev_span());
            return Ok(TypeExpr {
                name: Ident { name: base, span },
                args: Vec::new(),
                span,
            });
        }
        if self.at("::") && self.is_type_at(0) {
            // `::N::T`: looked up from the file scope.
            self.bump();
            let mut t = self.type_expr_inner()?;
            t.name.name = format!("::{}", t.name.name);
            t.name.span = start.to(t.name.span);
            t.span = start.to(t.span);
            return Ok(t);
        }
        if self.at_word("typename")
            && (self.peek_at(1).kind == TokenKind::Ident || self.peek_at(1).is_punct("::"))
        {
            // C++'s `typename` before a dependent name: the name is a type anyway.
            self.bump();
            let t = self.type_expr_inner()?;
            if self.at("::") && self.peek_at(1).kind == TokenKind::Ident {
                return self.instance_member_type(t);
            }
            return Ok(t);
        }
        let t = self.tok();
        if t.kind != TokenKind::Ident || RESERVED.contains(&t.text.as_str()) {
            let found = t.describe();
            return self.fail(format!("expected a type, found {found}"));
        }
        // `A::T` in a type's place is a qualified type even when `A` is an alias the parser
        // cannot see through (`typedef S<int> A;`): name resolution finds `T`.
        let name = if self.is_type_at(0)
            || self.peek_at(1).is_punct("::") && self.peek_at(2).kind == TokenKind::Ident
        {
            self.qualified_ident("a type")?
        } else {
            self.ident("a type")?
        };
        let args = if self.at("<") {
            self.template_args()?
        } else {
            Vec::new()
        };
        if !args.is_empty()
            && self.at("::")
            && self.peek_at(1).kind == TokenKind::Ident
            && !self.peek_at(1).is_ident("template")
            && self.peek_at(2).kind == TokenKind::Ident
        {
            // `S<A>::T x` (in an expression, `S<A>::m` is a static member).
            let instance = TypeExpr {
                name,
                args,
                span: start.to(self.prev_span()),
            };
            return self.instance_member_type(instance);
        }
        Ok(TypeExpr {
            name,
            args,
            span: start.to(self.prev_span()),
        })
    }

    /// `S<args>::T` as a type (at the `::`): a member type of a template instance, written
    /// as the type [`INSTANCE_MEMBER`]`::T` whose one argument is the instance (name resolution
    /// instantiates it and names the member).
    fn instance_member_type(&mut self, instance: TypeExpr) -> PResult<TypeExpr> {
        let start = instance.span;
        self.bump();
        let member = self.qualified_ident("a member type")?;
        Ok(TypeExpr {
            name: Ident {
                name: format!("{INSTANCE_MEMBER}::{}", member.name),
                span: member.span,
            },
            args: vec![TemplateArg::Type(instance)],
            span: start.to(self.prev_span()),
        })
    }

    /// `<args>`: types and constant expressions (at the `<`).
    fn template_args(&mut self) -> PResult<Vec<TemplateArg>> {
        self.bump();
        let mut args = Vec::new();
        loop {
            if (self.at_word("row_major") || self.at_word("column_major")) && self.is_modifier_at(0)
            {
                // `row_major T`: the type `row_major<T>` (see `sema::decls::ROW_MAJOR`).
                let word = self.bump();
                let inner = self.type_expr()?;
                args.push(TemplateArg::Type(TypeExpr {
                    span: word.span.to(inner.span),
                    name: Ident {
                        name: word.text.clone(),
                        span: word.span,
                    },
                    args: vec![TemplateArg::Type(inner)],
                }));
                if !self.eat(",") {
                    break;
                }
                continue;
            }
            if (self.at_word("unorm") || self.at_word("snorm")) && self.is_modifier_at(0) {
                let word = self.tok().text.clone();
                return self.fail(format!("not supported yet: '{word}' in template arguments"));
            }
            if self.at_word("typename")
                || self.is_type_at(0) && !self.peek_at(self.qualified_end(0).0).is_punct("(")
            {
                args.push(TemplateArg::Type(self.type_expr()?));
            } else {
                // A constant expression with every operator but an unparenthesized `>` or
                // `>>`, which closes the list (C++ [temp.names]).
                let outer = std::mem::replace(&mut self.angle_closes, true);
                let arg = self.conditional();
                self.angle_closes = outer;
                args.push(TemplateArg::Expr(arg?));
            }
            if !self.eat(",") {
                break;
            }
        }
        self.close_angle()?;
        Ok(args)
    }

    /// `template <typename T, int N = 4> item`: a function, struct or alias template.
    fn template(&mut self) -> PResult<Vec<Item>> {
        let start = self.span();
        let params = self.template_params()?;
        if params.is_empty() {
            return self.specialization(start);
        }
        if self.at_word("template") {
            // `template <class T> template <class U> R S<T>::f() {...}`.
            return self.member_template_definition(params, start);
        }
        // `template <class T> class S;`: a declaration without a definition.
        if (self.at_word("class") || self.at_word("struct"))
            && self.peek_at(1).kind == TokenKind::Ident
            && self.peek_at(2).is_punct(";")
        {
            self.bump();
            let name = self.ident("a struct name")?;
            self.bump();
            let span = start.to(self.prev_span());
            self.declare_type(&name.name);
            self.templates.insert(name.name.clone());
            for k in (0..self.ns_path.len()).rev() {
                self.templates
                    .insert(format!("{}::{}", self.ns_path[k..].join("::"), name.name));
            }
            let decl = StructDecl {
                name: Some(name),
                base: None,
                fields: Vec::new(),
                methods: Vec::new(),
                statics: Vec::new(),
                typedefs: Vec::new(),
                member_templates: Vec::new(),
                spec_args: Vec::new(),
                span,
            };
            return Ok(vec![Item::Template {
                params,
                item: Box::new(Item::Struct(decl)),
                defined: false,
                span,
            }]);
        }
        self.template_rest(params, start)
    }

    /// `template <> class S<args> { ... };`: an explicit (full) specialization of a struct
    /// template (at what follows `template <>`).
    fn specialization(&mut self, start: Span) -> PResult<Vec<Item>> {
        let mut items = self.item()?;
        let span = start.to(self.prev_span());
        match (items.pop(), items.is_empty()) {
            (Some(Item::Struct(s)), true) if !s.spec_args.is_empty() => Ok(vec![Item::Template {
                params: Vec::new(),
                item: Box::new(Item::Struct(s)),
                defined: true,
                span,
            }]),
            _ => {
                self.error(
                    span,
                    "not supported yet: explicit specialization of anything but a struct template",
                );
                Err(Stop)
            }
        }
    }

    /// `S<args>::f<targs>(args)` or `S<args>::m`, at the `::` after the type: a call of a
    /// static member (function template) of a template instance, or its static data member.
    fn scoped_call(&mut self, scope: TypeExpr) -> PResult<Expr> {
        self.expect("::", "after the type")?;
        if self.at_word("template") && self.peek_at(1).kind == TokenKind::Ident {
            // `S<T>::template f<U>(x)`: C++'s `template` before a dependent member template.
            self.bump();
        }
        let callee = self.ident("a member name after '::'")?;
        let template_args = if self.at("<") {
            self.template_args()?
        } else {
            Vec::new()
        };
        if !self.at("(") {
            if !template_args.is_empty() {
                let found = self.tok().describe();
                return self.fail(format!(
                    "expected '(' after '{}<...>::{}<...>', found {found}",
                    scope.name.name, callee.name
                ));
            }
            let span = scope.span.to(callee.span);
            return Ok(Expr {
                kind: ExprKind::Scoped {
                    scope: Box::new(scope),
                    member: callee,
                },
                span,
            });
        }
        let args = self.call_args()?;
        let span = scope.span.to(self.prev_span());
        Ok(Expr {
            kind: ExprKind::Call {
                callee,
                template_args,
                scope: Some(Box::new(scope)),
                args,
            },
            span,
        })
    }

    /// After `template <params>`: a variable template (`static const bool v = false;`, or a
    /// partial specialization `static const bool v<T, T> = true;`), held as a struct template
    /// whose one static member ([`crate::hlsl::sema::names::VAR_MEMBER`]) is the variable;
    /// `v<args>` in an expression names that member of the instance. `None` (nothing taken)
    /// when what follows is not a variable. An out-of-line definition of a member of a struct
    /// template (`T S<T>::m = ...;`, `T S<T>::f() {...}`) is taken and kept aside
    /// (`Some(None)`).
    fn variable_template(
        &mut self,
        params: &[TemplateParam],
        start: Span,
    ) -> PResult<Option<Option<StructDecl>>> {
        let saved = (self.pos, self.diags.len(), self.fatal);
        let mut k = 0;
        while self.is_modifier_at(k) {
            k += 1;
        }
        if !self.is_type_at(k) {
            return Ok(None);
        }
        // The type may take template arguments (`vector<T, 2> v = ...`): the head is parsed
        // speculatively and rolled back when it is not a variable's.
        let attempt = (|| -> PResult<Option<(Vec<ModifierSpan>, TypeExpr, Ident)>> {
            let modifiers = self.modifiers();
            let ty = self.type_expr()?;
            if self.tok().kind != TokenKind::Ident {
                return Ok(None);
            }
            // `N::S<T>::f`: a member of a struct template named with its namespace.
            let (end, qualified) = self.qualified_end(0);
            let name = if end > 1
                && self.peek_at(end).is_punct("<")
                && self.templates.contains(&qualified)
            {
                self.qualified_ident("a struct template's name")?
            } else {
                self.ident("a variable name")?
            };
            let next = self.tok().text.clone();
            if next == "(" || next == "::" || next == "[" {
                return Ok(None);
            }
            if !matches!(next.as_str(), "=" | "<" | ";") {
                return Ok(None);
            }
            Ok(Some((modifiers, ty, name)))
        })();
        let (modifiers, ty, name) = match attempt {
            Ok(Some(head)) => head,
            Ok(None) | Err(Stop) if !self.too_deep => {
                self.pos = saved.0;
                self.diags.truncate(saved.1);
                self.fatal = saved.2;
                return Ok(None);
            }
            Ok(None) => return Ok(None),
            Err(Stop) => return Err(Stop),
        };
        let spec_args = if self.at("<") {
            if self.templates.contains(&name.name) && !self.var_templates.contains(&name.name) {
                self.out_of_line_member(name, params, None, modifiers, ty, start)?;
                return Ok(Some(None));
            }
            if !self.var_templates.contains(&name.name) {
                return self.fail(format!(
                    "'{}' is not a variable template, so it cannot be specialized",
                    name.name
                ));
            }
            self.template_args()?
        } else {
            Vec::new()
        };
        let init = if self.eat("=") {
            Some(self.initializer()?)
        } else {
            None
        };
        self.expect(";", "after the variable template")?;
        let span = start.to(self.prev_span());
        self.declare_type(&name.name);
        self.templates.insert(name.name.clone());
        self.var_templates.insert(name.name.clone());
        let member = Declarator {
            span: name.span,
            name: Ident {
                name: crate::hlsl::sema::names::VAR_MEMBER.to_owned(),
                span: name.span,
            },
            array_dims: Vec::new(),
            annotations: Vec::new(),
            init,
        };
        let mut modifiers = modifiers;
        if !modifiers.iter().any(|m| m.modifier == Modifier::Static) {
            modifiers.push(ModifierSpan {
                modifier: Modifier::Static,
                span: name.span,
            });
        }
        Ok(Some(Some(StructDecl {
            name: Some(name),
            base: None,
            fields: Vec::new(),
            methods: Vec::new(),
            statics: vec![VarDecl {
                attributes: Vec::new(),
                modifiers,
                ty,
                declarators: vec![member],
                span,
            }],
            typedefs: Vec::new(),
            member_templates: Vec::new(),
            spec_args,
            span,
        })))
    }

    /// `template <params>` (at `template`); empty for `template <>`.
    fn template_params(&mut self) -> PResult<Vec<TemplateParam>> {
        self.bump();
        self.expect("<", "after 'template'")?;
        let mut params = Vec::new();
        if self.eat(">") {
            return Ok(params);
        }
        loop {
            let (name, value_ty) = if self.at_word("typename") || self.at_word("class") {
                let kw = self.bump();
                if matches!(self.tok().text.as_str(), "," | ">" | "=") {
                    // `template <class, class>`: an unnamed parameter, under a name no source
                    // can spell.
                    let name = Ident {
                        name: format!("#param{}", params.len()),
                        span: kw.span,
                    };
                    (name, None)
                } else {
                    (self.ident("a template parameter name")?, None)
                }
            } else {
                let ty = self.type_expr()?;
                (self.ident("a template parameter name")?, Some(ty))
            };
            let default = if self.eat("=") {
                Some(if value_ty.is_none() {
                    TemplateArg::Type(self.type_expr()?)
                } else {
                    TemplateArg::Expr(self.binary(9)?)
                })
            } else {
                None
            };
            params.push(TemplateParam {
                name,
                value_ty,
                default,
            });
            if !self.eat(",") {
                break;
            }
        }
        self.close_angle()?;
        Ok(params)
    }

    /// The type parameters of `params` that are not type names yet, made type names (inside
    /// the templated declaration only: the caller removes them).
    fn add_type_params(&mut self, params: &[TemplateParam]) -> Vec<String> {
        let added: Vec<String> = params
            .iter()
            .filter(|p| p.value_ty.is_none() && !self.types.contains(&p.name.name))
            .map(|p| p.name.name.clone())
            .collect();
        self.types.extend(added.iter().cloned());
        added
    }

    /// The templated declaration after `template <params>`.
    fn template_rest(&mut self, params: Vec<TemplateParam>, start: Span) -> PResult<Vec<Item>> {
        let added = self.add_type_params(&params);
        let parsed = match self.variable_template(&params, start) {
            Ok(Some(None)) => {
                for a in &added {
                    self.types.remove(a);
                }
                return Ok(Vec::new());
            }
            Ok(Some(Some(item))) => {
                for a in &added {
                    self.types.remove(a);
                }
                return Ok(vec![Item::Template {
                    params,
                    item: Box::new(Item::Struct(item)),
                    defined: true,
                    span: start.to(self.prev_span()),
                }]);
            }
            Ok(None) => self.item(),
            Err(e) => Err(e),
        };
        for a in &added {
            self.types.remove(a);
        }
        let mut items = parsed?;
        let span = start.to(self.prev_span());
        let item = match (items.pop(), items.is_empty()) {
            (Some(item @ (Item::Function(_) | Item::Typedef(_))), true) => item,
            (Some(Item::Struct(s)), true) if s.name.is_some() => Item::Struct(s),
            (Some(Item::Variables(_)), _) => {
                self.error(span, "not supported yet: variable templates");
                return Err(Stop);
            }
            _ => {
                self.error(span, "not supported yet: this kind of template");
                return Err(Stop);
            }
        };
        let name = match &item {
            Item::Function(f) => f.name.name.clone(),
            Item::Typedef(t) => t.name.name.clone(),
            Item::Struct(s) => s.name.as_ref().map_or(String::new(), |n| n.name.clone()),
            _ => String::new(),
        };
        if let Item::Struct(s) = &item {
            if !s.spec_args.is_empty() {
                // `template <class T> struct S<vector<T, 4> > { };`: a partial specialization,
                // chosen by name resolution where an argument list matches it.
                return Ok(vec![Item::Template {
                    params,
                    item: Box::new(item),
                    defined: true,
                    span,
                }]);
            }
        }
        if self.templates.contains(&name) && !matches!(item, Item::Function(_)) {
            self.error(span, "not supported yet: template specialization");
            return Err(Stop);
        }
        let before = self.types.clone();
        self.declare_type(&name);
        let names: Vec<String> = self.types.difference(&before).cloned().collect();
        if matches!(item, Item::Function(_)) {
            // A function template's name is not a type.
            for n in &names {
                self.types.remove(n);
            }
        }
        self.templates.insert(name.clone());
        self.templates.extend(names);
        for k in (0..self.ns_path.len()).rev() {
            self.templates
                .insert(format!("{}::{name}", self.ns_path[k..].join("::")));
        }
        Ok(vec![Item::Template {
            params,
            item: Box::new(item),
            defined: true,
            span,
        }])
    }

    /// Takes a `>` closing a template argument list; a `>>` (or `>=`, `>>=`) is split so the
    /// rest closes the enclosing list.
    fn close_angle(&mut self) -> PResult<()> {
        let t = self.tok().clone();
        if t.kind == TokenKind::Punct && t.text.starts_with('>') {
            if t.text == ">" {
                self.bump();
            } else if let Some(cur) = self.toks.get_mut(self.pos) {
                cur.text.remove(0);
                let mid = if cur.span.end > cur.span.start {
                    cur.span.start + 1
                } else {
                    cur.span.start
                };
                cur.span.start = mid;
            }
            return Ok(());
        }
        let found = t.describe();
        self.fail(format!(
            "expected '>' to close the template argument list, found {found}"
        ))
    }

    /// `operator+`, `operator[]`, `operator()` (HLSL 2021 member operators) as a method name.
    fn operator_name(&mut self) -> PResult<Ident> {
        let start = self.bump().span;
        let symbol = self.operator_symbol()?;
        Ok(Ident {
            name: format!("operator{symbol}"),
            span: start.to(self.prev_span()),
        })
    }

    /// The operator after `operator`: `+`, `[]`, `()`...
    fn operator_symbol(&mut self) -> PResult<String> {
        let t = self.tok().clone();
        let symbol = match t.text.as_str() {
            "(" | "[" if t.kind == TokenKind::Punct => {
                self.bump();
                let close = if t.text == "(" { ")" } else { "]" };
                self.expect(close, "after 'operator' and the bracket")?;
                format!("{}{close}", t.text)
            }
            "+" | "-" | "*" | "/" | "%" | "<<" | ">>" | "<" | ">" | "<=" | ">=" | "==" | "!="
            | "&" | "|" | "^"
                if t.kind == TokenKind::Punct =>
            {
                self.bump();
                t.text.clone()
            }
            _ => {
                let found = t.describe();
                return self.fail(format!("not supported yet: overloading operator {found}"));
            }
        };
        Ok(symbol)
    }

    /// `namespace N { items }` (also `namespace A::B { }`).
    fn namespace(&mut self) -> PResult<Vec<Item>> {
        let start = self.bump().span;
        let name = self.qualified_ident("a namespace name")?;
        self.expect("{", "to open the namespace")?;
        let depth = self.ns_path.len();
        self.ns_path
            .extend(name.name.split("::").map(str::to_owned));
        let mut items = Vec::new();
        while !self.at("}") && !self.at_eof() && !self.fatal {
            let before = self.pos;
            match self.item() {
                Ok(more) => {
                    items.append(&mut self.hoisted);
                    items.extend(more);
                }
                Err(Stop) => {
                    self.sync_top();
                    if self.pos == before {
                        self.bump();
                    }
                }
            }
        }
        self.ns_path.truncate(depth);
        self.expect("}", "to close the namespace")?;
        self.eat(";");
        Ok(vec![Item::Namespace {
            name,
            items,
            span: start.to(self.prev_span()),
        }])
    }

    /// `using namespace N;`, `using N::x;` or the alias `using T = type;` (a typedef).
    fn using(&mut self) -> PResult<Vec<Item>> {
        let start = self.bump().span;
        if self.at_word("namespace") {
            self.bump();
            let target = self.qualified_ident("a namespace name")?;
            self.expect(";", "after the using-directive")?;
            return Ok(vec![Item::Using {
                target,
                namespace: true,
                span: start.to(self.prev_span()),
            }]);
        }
        let name = self.qualified_ident("a name after 'using'")?;
        if self.eat(";") {
            return Ok(vec![Item::Using {
                target: name,
                namespace: false,
                span: start.to(self.prev_span()),
            }]);
        }
        Ok(vec![Item::Typedef(self.alias_rest(name, start)?)])
    }

    /// The rest of a type alias after `using name` (`= [modifiers] type [dims];`), declared
    /// as a type name; `start` is where the declaration starts.
    fn alias_rest(&mut self, name: Ident, start: Span) -> PResult<Typedef> {
        let t = self.alias_decl(name, start)?;
        self.declare_type(&t.name.name);
        Ok(t)
    }

    /// [`Parser::alias_rest`] without declaring the name (a local one is scoped to its block).
    fn alias_decl(&mut self, name: Ident, start: Span) -> PResult<Typedef> {
        if self.at("[") {
            return self.fail("not supported yet: attributes on a type alias");
        }
        self.expect("=", "after the alias name")?;
        let modifiers = self.modifiers();
        let ty = self.type_expr()?;
        let array_dims = self.array_dims()?;
        self.expect(";", "after the type alias")?;
        Ok(Typedef {
            modifiers,
            ty,
            name,
            array_dims,
            span: start.to(self.prev_span()),
        })
    }

    /// Whether a struct definition starts here (`struct [Name] {` or `struct Name :`).
    fn at_nested_struct(&self) -> bool {
        (self.at_word("struct") || self.at_word("class"))
            && (self.peek_at(1).is_punct("{")
                || (self.peek_at(1).kind == TokenKind::Ident
                    && (self.peek_at(2).is_punct("{") || self.peek_at(2).is_punct(":"))))
    }

    /// A struct defined inside a struct or a buffer: declared at file level before the
    /// enclosing declaration (an anonymous one under a name no source can spell), and its
    /// declarators, if any, as members of the enclosing one. Inside struct `outer`, its name
    /// is also a member type of `outer` (`Outer::Inner`), returned as an alias.
    fn nested_struct(
        &mut self,
        attributes: Vec<Attribute>,
        start: Span,
        outer: Option<&str>,
    ) -> PResult<(Option<Typedef>, Option<VarDecl>)> {
        let mut decl = self.struct_decl()?;
        let name = match &decl.name {
            Some(n) => n.clone(),
            None => {
                let n = Ident {
                    name: format!("anon#{}", self.pos),
                    span: decl.span,
                };
                self.declare_type(&n.name);
                decl.name = Some(n.clone());
                n
            }
        };
        let alias = match outer {
            Some(outer) if !name.name.starts_with("anon#") => {
                self.declare_type(&format!("{outer}::{}", name.name));
                // Written from the file scope, so that it names the struct declared there and
                // not the alias itself.
                let target = Ident {
                    name: format!("::{}", join_path(&self.ns_path, &name.name)),
                    span: name.span,
                };
                Some(Typedef {
                    modifiers: Vec::new(),
                    ty: TypeExpr {
                        name: target,
                        args: Vec::new(),
                        span: name.span,
                    },
                    name: name.clone(),
                    array_dims: Vec::new(),
                    span: decl.span,
                })
            }
            _ => None,
        };
        self.hoisted.push(Item::Struct(decl));
        if self.eat(";") {
            return Ok((alias, None));
        }
        let ty = TypeExpr {
            span: name.span,
            name: name.clone(),
            args: Vec::new(),
        };
        let var = self.ident("a member name after the struct")?;
        let v = self.var_rest(attributes, Vec::new(), ty, var, start)?;
        Ok((alias, Some(v)))
    }

    /// `struct Name { fields } [declarators];`
    fn struct_item(&mut self, attributes: Vec<Attribute>) -> PResult<Vec<Item>> {
        let start = self.span();
        let mut decl = self.struct_decl()?;
        let mut items = Vec::new();
        let ty_name = match decl.name.clone() {
            Some(n) => n,
            None if self.at(";") => Ident {
                name: String::new(),
                span: decl.span,
            },
            None => {
                // `struct { ... } s;`: the type gets a name no source can spell.
                let n = Ident {
                    name: format!("anon#{}", self.pos),
                    span: decl.span,
                };
                self.declare_type(&n.name);
                decl.name = Some(n.clone());
                n
            }
        };
        if self.eat(";") {
            items.push(Item::Struct(decl));
            return Ok(items);
        }
        // `struct S { } s;` declares `s`; a keyword or type after the `}` means the `;` is
        // missing (the next declaration has started).
        let t = self.tok();
        if t.kind != TokenKind::Ident
            || RESERVED.contains(&t.text.as_str())
            || self.is_modifier_at(0)
            || self.is_type(t)
        {
            // Recorded without failing, so the struct and the next declaration both survive.
            let prev = self.prev_span();
            let found = t.describe();
            self.error(
                Span::new(prev.file, prev.end, prev.end),
                format!("expected ';' after the struct, found {found}"),
            );
            return Ok(vec![Item::Struct(decl)]);
        }
        let ty = TypeExpr {
            span: ty_name.span,
            name: ty_name,
            args: Vec::new(),
        };
        items.push(Item::Struct(decl));
        let name = self.ident("a name or ';' after the struct")?;
        let vars = self.var_rest(attributes, Vec::new(), ty, name, start)?;
        items.push(Item::Variables(vars));
        Ok(items)
    }

    /// `struct [Name] { fields }` (without what follows).
    fn struct_decl(&mut self) -> PResult<StructDecl> {
        let start = self.bump().span;
        let name = if self.tok().kind == TokenKind::Ident {
            let n = self.ident("a struct name")?;
            self.declare_type(&n.name);
            Some(n)
        } else {
            None
        };
        let spec_args = match &name {
            Some(n) if self.at("<") && self.templates.contains(&n.name) => self.template_args()?,
            _ => Vec::new(),
        };
        let base = if self.eat(":") {
            for access in ["public", "private", "protected"] {
                if self.at_word(access) {
                    self.bump();
                }
            }
            let base = self.type_expr()?;
            if self.at(",") {
                return self.fail("not supported yet: more than one base struct");
            }
            Some(base)
        } else {
            None
        };
        self.expect("{", "to start the struct's fields")?;
        let (mut fields, mut methods, mut statics) = (Vec::new(), Vec::new(), Vec::new());
        let (mut member_templates, mut typedefs) = (Vec::new(), Vec::new());
        while !self.at("}") && !self.at_eof() && !self.fatal {
            // `public:` and friends: HLSL ignores access control.
            if ["public", "private", "protected"]
                .iter()
                .any(|w| self.at_word(w))
                && self.peek_at(1).is_punct(":")
            {
                self.bump();
                self.bump();
                continue;
            }
            // An empty member declaration (`void f() {};`).
            if self.eat(";") {
                continue;
            }
            let fstart = self.span();
            let r = (|| {
                let attributes = self.attributes()?;
                if self.at_word("template") && attributes.is_empty() {
                    let params = self.template_params()?;
                    if params.is_empty() {
                        return self
                            .fail("not supported yet: explicit specialization inside a struct");
                    }
                    let added = self.add_type_params(&params);
                    let owner = name.as_ref().map(|n| n.name.clone());
                    let r = (|| {
                        let fstart = self.span();
                        let attributes = self.attributes()?;
                        let modifiers = self.modifiers();
                        let ty = self.type_expr()?;
                        let name = self.ident("a member function template name")?;
                        if !self.at("(") {
                            return self
                                .fail("not supported yet: member templates other than functions");
                        }
                        // `f<T>(x)` in the struct's later methods calls it, `S::f<T>(x)`
                        // anywhere.
                        self.templates.insert(name.name.clone());
                        if let Some(o) = &owner {
                            self.templates.insert(format!("{o}::{}", name.name));
                        }
                        self.function(attributes, modifiers, ty, name, fstart)
                    })();
                    for a in &added {
                        self.types.remove(a);
                    }
                    member_templates.push((params, r?));
                    return Ok(());
                }
                if self.at_nested_struct() {
                    let outer = name.as_ref().map(|n| n.name.clone());
                    let (alias, f) = self.nested_struct(attributes, fstart, outer.as_deref())?;
                    typedefs.extend(alias);
                    fields.extend(f);
                    return Ok(());
                }
                if self.at_word("enum") && attributes.is_empty() {
                    // Its type is a member type, its enumerators static members.
                    for item in self.enum_decl()? {
                        match item {
                            Item::Typedef(t) => {
                                if let Some(n) = &name {
                                    self.declare_type(&format!("{}::{}", n.name, t.name.name));
                                }
                                typedefs.push(t)
                            }
                            Item::Variables(v) => statics.push(v),
                            _ => {}
                        }
                    }
                    return Ok(());
                }
                if self.at_word("typedef")
                    && attributes.is_empty()
                    && !self.peek_at(1).is_ident("struct")
                {
                    let t = self.typedef()?;
                    if let Some(n) = &name {
                        self.declare_type(&format!("{}::{}", n.name, t.name.name));
                    }
                    typedefs.push(t);
                    return Ok(());
                }
                if self.at_word("using")
                    && attributes.is_empty()
                    && self.peek_at(1).kind == TokenKind::Ident
                    && self.peek_at(2).is_punct("=")
                {
                    // `using T = type;`: a member type alias, as a member typedef.
                    let start = self.bump().span;
                    let alias = self.ident("a name after 'using'")?;
                    let t = self.alias_rest(alias, start)?;
                    if let Some(n) = &name {
                        self.declare_type(&format!("{}::{}", n.name, t.name.name));
                    }
                    typedefs.push(t);
                    return Ok(());
                }
                if self.at_word("using") {
                    return self.fail(
                        "not supported yet: 'using' declarations inside a struct other than \
                         type aliases ('using T = type;')",
                    );
                }
                for word in ["struct", "class", "typedef", "enum", "template"] {
                    if self.at_word(word) {
                        return self.fail(format!(
                            "not supported yet: '{word}' declarations inside a struct"
                        ));
                    }
                }
                let modifiers = self.modifiers();
                let ty = self.type_expr()?;
                let name = if self.at_word("operator") {
                    self.operator_name()?
                } else {
                    self.ident("a field name")?
                };
                if self.at("(") {
                    let f = self.function(attributes, modifiers, ty, name, fstart)?;
                    methods.push(f);
                    return Ok(());
                }
                let decl = self.var_rest(attributes, modifiers, ty, name, fstart)?;
                if decl
                    .modifiers
                    .iter()
                    .any(|m| m.modifier == Modifier::Static)
                {
                    statics.push(decl);
                } else {
                    fields.push(decl);
                }
                Ok(())
            })();
            if r.is_err() {
                self.sync_stmt();
            }
        }
        self.expect("}", "to end the struct")?;
        Ok(StructDecl {
            name,
            base,
            fields,
            methods,
            statics,
            typedefs,
            member_templates,
            spec_args,
            span: start.to(self.prev_span()),
        })
    }

    /// C's `typedef struct [T] { ... } S;`: an anonymous struct takes the name `S`; a named one
    /// is declared and `S` becomes an alias of it. `typedef struct T S;` declares `T` (which
    /// may be defined later) and makes `S` its alias.
    fn typedef_struct(&mut self) -> PResult<Vec<Item>> {
        let start = self.bump().span;
        if self.peek_at(1).kind == TokenKind::Ident
            && !self.peek_at(2).is_punct("{")
            && !self.peek_at(2).is_punct(":")
        {
            // `typedef struct S T;`: `S` may be defined later (a forward declaration).
            self.bump();
            let target = self.ident("a struct name")?;
            self.declare_type(&target.name);
            let name = self.ident("a name for the typedef")?;
            let array_dims = self.array_dims()?;
            self.expect(";", "after the typedef")?;
            self.declare_type(&name.name);
            let ty = TypeExpr {
                span: target.span,
                name: target.clone(),
                args: Vec::new(),
            };
            return Ok(vec![
                Item::StructForward(target),
                Item::Typedef(Typedef {
                    modifiers: Vec::new(),
                    ty,
                    name,
                    array_dims,
                    span: start.to(self.prev_span()),
                }),
            ]);
        }
        let mut decl = self.struct_decl()?;
        let name = self.ident("a name for the typedef")?;
        let array_dims = self.array_dims()?;
        self.expect(";", "after the typedef")?;
        self.declare_type(&name.name);
        let span = start.to(self.prev_span());
        match decl.name.clone() {
            None if array_dims.is_empty() => {
                decl.name = Some(name);
                decl.span = span;
                Ok(vec![Item::Struct(decl)])
            }
            existing => {
                let target = existing.unwrap_or_else(|| Ident {
                    name: String::new(),
                    span: decl.span,
                });
                let ty = TypeExpr {
                    span: target.span,
                    name: target,
                    args: Vec::new(),
                };
                Ok(vec![
                    Item::Struct(decl),
                    Item::Typedef(Typedef {
                        modifiers: Vec::new(),
                        ty,
                        name,
                        array_dims,
                        span,
                    }),
                ])
            }
        }
    }

    /// `enum [class] [E] [: T] { A, B = 3, C };`, written as what it means: `E` a typedef of its
    /// underlying type (`int` by default) and each enumerator a `static const` of it named
    /// `E::A` (and `A` as well for an unscoped enum), an enumerator without a value being the
    /// previous one plus one. An anonymous enum declares only its enumerators.
    fn enum_decl(&mut self) -> PResult<Vec<Item>> {
        let start = self.bump().span;
        let scoped = self.at_word("class") || self.at_word("struct");
        if scoped {
            self.bump();
        }
        // `enum : uint { A };`: an anonymous enum has no type name of its own; its enumerators
        // have its underlying type.
        let anonymous = !scoped && (self.at(":") || self.at("{"));
        let name = if anonymous {
            Ident {
                name: String::new(),
                span: start,
            }
        } else {
            self.ident("a name for the enum")?
        };
        let underlying = if self.eat(":") {
            self.type_expr()?
        } else {
            TypeExpr {
                name: Ident {
                    name: "int".into(),
                    span: name.span,
                },
                args: Vec::new(),
                span: name.span,
            }
        };
        self.expect("{", "to open the enum's enumerators")?;
        let mut items = Vec::new();
        if !anonymous {
            self.declare_type(&name.name);
            items.push(Item::Typedef(Typedef {
                modifiers: Vec::new(),
                ty: underlying.clone(),
                name: name.clone(),
                array_dims: Vec::new(),
                span: start.to(name.span),
            }));
        }
        let mut prev: Option<Ident> = None;
        while !self.at("}") {
            let e = self.ident("an enumerator")?;
            let value = if self.eat("=") {
                self.conditional()?
            } else {
                let one = |value| Expr {
                    kind: ExprKind::Literal(Literal::Int {
                        value,
                        suffix: String::new(),
                    }),
                    span: e.span,
                };
                match &prev {
                    None => one(0),
                    Some(p) => Expr {
                        kind: ExprKind::Binary {
                            op: BinaryOp::Add,
                            lhs: Box::new(Expr {
                                kind: ExprKind::Ident(p.clone()),
                                span: e.span,
                            }),
                            rhs: Box::new(one(1)),
                        },
                        span: e.span,
                    },
                }
            };
            let qualified = Ident {
                name: if anonymous {
                    e.name.clone()
                } else {
                    format!("{}::{}", name.name, e.name)
                },
                span: e.span,
            };
            let constant = |name: Ident, init: Expr| {
                let modifier = |modifier| ModifierSpan {
                    modifier,
                    span: name.span,
                };
                Item::Variables(VarDecl {
                    attributes: Vec::new(),
                    modifiers: vec![modifier(Modifier::Static), modifier(Modifier::Const)],
                    ty: underlying.clone(),
                    declarators: vec![Declarator {
                        span: name.span,
                        name,
                        array_dims: Vec::new(),
                        annotations: Vec::new(),
                        init: Some(Initializer::Expr(init)),
                    }],
                    span: e.span,
                })
            };
            items.push(constant(qualified.clone(), value));
            if !scoped && !anonymous {
                let alias = Expr {
                    kind: ExprKind::Ident(qualified.clone()),
                    span: e.span,
                };
                items.push(constant(e.clone(), alias));
            }
            prev = Some(qualified);
            if !self.eat(",") {
                break;
            }
        }
        self.expect("}", "to close the enum")?;
        self.expect(";", "after the enum")?;
        Ok(items)
    }

    /// `typedef [modifiers] T name[dims];`, its name declared as a type.
    fn typedef(&mut self) -> PResult<Typedef> {
        let t = self.typedef_decl()?;
        self.declare_type(&t.name.name);
        Ok(t)
    }

    /// [`Parser::typedef`] without declaring the name (a local one is scoped to its block).
    fn typedef_decl(&mut self) -> PResult<Typedef> {
        let start = self.bump().span;
        let modifiers = self.modifiers();
        let ty = self.type_expr()?;
        let name = self.ident("a name for the typedef")?;
        let array_dims = self.array_dims()?;
        self.expect(";", "after the typedef")?;
        Ok(Typedef {
            modifiers,
            ty,
            name,
            array_dims,
            span: start.to(self.prev_span()),
        })
    }

    /// `cbuffer Name : register(b0) { members }` (the trailing `;` is optional), with the
    /// functions defined inside it.
    fn buffer(&mut self, attributes: Vec<Attribute>) -> PResult<(BufferBlock, Vec<FunctionDecl>)> {
        let start = attributes.first().map_or(self.span(), |a| a.span);
        let kw = self.bump();
        let kind = if kw.text == "cbuffer" {
            BufferKind::CBuffer
        } else {
            BufferKind::TBuffer
        };
        let name = self.ident("a buffer name")?;
        let annotations = self.annotations()?;
        self.expect("{", "to start the buffer's members")?;
        let (mut members, mut functions) = (Vec::new(), Vec::new());
        while !self.at("}") && !self.at_eof() && !self.fatal {
            let mstart = self.span();
            let r = (|| {
                let attributes = self.attributes()?;
                if self.at_nested_struct() {
                    return Ok(self.nested_struct(attributes, mstart, None)?.1);
                }
                let modifiers = self.modifiers();
                let ty = self.type_expr()?;
                let name = self.ident("a member name")?;
                if self.at("(") {
                    let f = self.function(attributes, modifiers, ty, name, mstart)?;
                    functions.push(f);
                    return Ok(None);
                }
                self.var_rest(attributes, modifiers, ty, name, mstart)
                    .map(Some)
            })();
            match r {
                Ok(Some(m)) => members.push(m),
                Ok(None) => {}
                Err(Stop) => self.sync_stmt(),
            }
        }
        self.expect("}", "to end the buffer")?;
        self.eat(";");
        let block = BufferBlock {
            kind,
            attributes,
            name,
            annotations,
            members,
            span: start.to(self.prev_span()),
        };
        Ok((block, functions))
    }

    /// `[n]` dimensions; `[]` is unsized.
    fn array_dims(&mut self) -> PResult<Vec<Option<Expr>>> {
        let mut dims = Vec::new();
        while self.eat("[") {
            if self.eat("]") {
                dims.push(None);
                continue;
            }
            dims.push(Some(self.expr()?));
            self.expect("]", "after the array size")?;
        }
        Ok(dims)
    }

    /// `: SEMANTIC`, `: register(...)`, `: packoffset(...)`, any number of them.
    fn annotations(&mut self) -> PResult<Vec<Annotation>> {
        let mut out = Vec::new();
        while self.eat(":") {
            let start = self.span();
            if self.at_word("register") && self.peek_at(1).is_punct("(") {
                self.bump();
                self.bump();
                let reg = self.ident("a register such as 'u0'")?;
                // `register(spaceM)`: an implicit binding in descriptor set M.
                if let Some(space) = reg
                    .name
                    .strip_prefix("space")
                    .and_then(|d| d.parse::<u32>().ok())
                {
                    self.expect(")", "after the register space")?;
                    out.push(Annotation::RegisterSpace(space, start.to(self.prev_span())));
                    continue;
                }
                let mut class = reg.name.chars().next().unwrap_or('?').to_ascii_lowercase();
                let digits = reg.name.get(1..).unwrap_or("");
                let mut index = digits.parse::<u32>().ok();
                if !"btusc".contains(class) || index.is_none() {
                    self.error(reg.span, format!("invalid register '{}'", reg.name));
                    class = 'b';
                    index = Some(0);
                }
                let mut space = None;
                if self.eat(",") {
                    let s = self.ident("a register space such as 'space1'")?;
                    match s
                        .name
                        .strip_prefix("space")
                        .and_then(|d| d.parse::<u32>().ok())
                    {
                        Some(n) => space = Some(n),
                        None => self.error(s.span, format!("invalid register space '{}'", s.name)),
                    }
                }
                self.expect(")", "after the register")?;
                out.push(Annotation::Register(Register {
                    class,
                    index: index.unwrap_or(0),
                    space,
                    span: start.to(self.prev_span()),
                }));
            } else if self.at_word("packoffset") && self.peek_at(1).is_punct("(") {
                self.bump();
                self.bump();
                // `cN` or `cN.x` (`x`, `y`, `z`, `w` or `r`, `g`, `b`, `a`).
                let reg = self.bump();
                let register = reg
                    .text
                    .strip_prefix('c')
                    .and_then(|n| n.parse::<u32>().ok())
                    .filter(|_| reg.kind == TokenKind::Ident);
                let mut component = Some(0);
                if self.at(".") {
                    self.bump();
                    let c = self.bump();
                    component = match c.text.as_str() {
                        "x" | "r" => Some(0),
                        "y" | "g" => Some(1),
                        "z" | "b" => Some(2),
                        "w" | "a" => Some(3),
                        _ => None,
                    };
                }
                self.expect(")", "after the packoffset")?;
                let span = start.to(self.prev_span());
                match (register, component) {
                    (Some(r), Some(c)) if r < (1 << 24) => {
                        out.push(Annotation::PackOffset(r * 16 + c * 4, span))
                    }
                    _ => self.error(
                        span,
                        "packoffset takes a constant register and an optional component: \
                         packoffset(c3) or packoffset(c3.y)",
                    ),
                }
            } else if self.tok().kind == TokenKind::Number {
                let t = self.bump();
                match parse_number(&t.text) {
                    Ok(Literal::Int { value, .. }) if value <= 64 => {
                        out.push(Annotation::BitField(value as u32, t.span))
                    }
                    _ => self.error(t.span, "a bit-field width must be an integer up to 64"),
                }
            } else {
                out.push(Annotation::Semantic(self.ident("a semantic after ':'")?));
            }
        }
        Ok(out)
    }

    /// Skips a legacy effect-framework annotation block after a declarator's semantics,
    /// `< string UIName = "x"; int n = 1; >`: each item runs to its `;`. DXC parses such blocks
    /// and ignores them ("possible effect annotation ignored - effect syntax is deprecated");
    /// they carry nothing for code generation, so dropping them here (with DXC's warning) is
    /// faithful to DXC.
    fn effect_annotations(&mut self) -> PResult<()> {
        if !self.at("<") {
            return Ok(());
        }
        let at = self.bump().span;
        self.diags.push(Diagnostic::warning(
            at,
            "possible effect annotation ignored - effect syntax is deprecated",
        ));
        while !self.eat(">") {
            if self.tok().kind != TokenKind::Ident {
                let found = self.tok().describe();
                return self.fail(format!(
                    "expected '>' or an annotation such as 'int name = 1;' in the annotation \
                     block, found {found}"
                ));
            }
            let mut depth = 0usize;
            loop {
                if self.at_eof() || self.fatal || depth == 0 && self.at("}") {
                    let found = self.tok().describe();
                    return self.fail(format!(
                        "expected ';' and '>' to end the annotation block, found {found}"
                    ));
                }
                if depth == 0 && self.eat(";") {
                    break;
                }
                if self.at("(") || self.at("{") || self.at("[") {
                    depth += 1;
                } else if self.at(")") || self.at("}") || self.at("]") {
                    depth = depth.saturating_sub(1);
                }
                self.bump();
            }
        }
        Ok(())
    }

    /// The rest of a variable declaration after its first name: dimensions, annotations,
    /// initializer, more declarators, `;`.
    fn var_rest(
        &mut self,
        attributes: Vec<Attribute>,
        modifiers: Vec<ModifierSpan>,
        ty: TypeExpr,
        first: Ident,
        start: Span,
    ) -> PResult<VarDecl> {
        let mut declarators = Vec::new();
        let mut name = first;
        loop {
            let array_dims = self.array_dims()?;
            let annotations = self.annotations()?;
            self.effect_annotations()?;
            let init = if self.eat("=") {
                Some(self.initializer()?)
            } else {
                None
            };
            declarators.push(Declarator {
                span: name.span.to(self.prev_span()),
                name,
                array_dims,
                annotations,
                init,
            });
            if !self.eat(",") {
                break;
            }
            name = self.ident("a name after ','")?;
        }
        self.expect(";", "after the declaration")?;
        Ok(VarDecl {
            attributes,
            modifiers,
            ty,
            declarators,
            span: start.to(self.prev_span()),
        })
    }

    /// `expr` or `{ ... }` after `=`.
    fn initializer(&mut self) -> PResult<Initializer> {
        if !self.at("{") {
            return Ok(Initializer::Expr(self.assignment()?));
        }
        self.enter()?;
        let r = (|| {
            let start = self.bump().span;
            let mut items = Vec::new();
            while !self.at("}") {
                items.push(self.initializer()?);
                if !self.eat(",") {
                    break;
                }
            }
            self.expect("}", "to end the initializer list")?;
            Ok(Initializer::List(items, start.to(self.prev_span())))
        })();
        self.leave();
        r
    }

    /// A function after its name: parameters, annotations, then `;` or a body.
    fn function(
        &mut self,
        attributes: Vec<Attribute>,
        modifiers: Vec<ModifierSpan>,
        return_ty: TypeExpr,
        name: Ident,
        start: Span,
    ) -> PResult<FunctionDecl> {
        self.bump();
        let mut params = Vec::new();
        if self.at_word("void") && self.peek_at(1).is_punct(")") {
            self.bump();
        }
        if !self.at(")") {
            loop {
                params.push(self.param()?);
                if !self.eat(",") {
                    break;
                }
            }
        }
        self.expect(")", "after the parameters")?;
        let annotations = self.annotations()?;
        let body = if self.eat(";") {
            None
        } else if self.at("{") {
            Some(self.block()?)
        } else {
            let found = self.tok().describe();
            return self.fail(format!(
                "expected '{{' or ';' after the function's parameters, found {found}"
            ));
        };
        Ok(FunctionDecl {
            attributes,
            modifiers,
            return_ty,
            name,
            params,
            annotations,
            body,
            span: start.to(self.prev_span()),
        })
    }

    /// One parameter.
    fn param(&mut self) -> PResult<Param> {
        let start = self.span();
        let attributes = self.attributes()?;
        let mut modifiers = self.modifiers();
        // `in`/`out`/`inout` may also come alone before the type: `out float4 c`.
        let ty = self.type_expr()?;
        modifiers.extend(self.modifiers());
        let name = if self.tok().kind == TokenKind::Ident
            && !RESERVED.contains(&self.tok().text.as_str())
        {
            Some(self.ident("a parameter name")?)
        } else {
            None
        };
        let array_dims = self.array_dims()?;
        let annotations = self.annotations()?;
        let default = if self.eat("=") {
            Some(self.assignment()?)
        } else {
            None
        };
        Ok(Param {
            attributes,
            modifiers,
            ty,
            name,
            array_dims,
            annotations,
            default,
            span: start.to(self.prev_span()),
        })
    }

    // ---- statements ---------------------------------------------------------------------

    /// `{ statements }`, recovering from errors inside.
    fn block(&mut self) -> PResult<Block> {
        let mark = self.local_types.len();
        let r = self.block_inner();
        self.end_local_types(mark);
        r
    }

    /// [`Parser::block`] before its local type names go out of scope.
    fn block_inner(&mut self) -> PResult<Block> {
        let start = self.expect("{", "to start a block")?.span;
        let mut stmts = Vec::new();
        while !self.at("}") && !self.at_eof() && !self.fatal {
            let before = self.pos;
            match self.stmt() {
                Ok(s) => stmts.push(s),
                Err(Stop) => {
                    if self.fatal {
                        return Err(Stop);
                    }
                    self.sync_stmt();
                    if self.pos == before {
                        self.bump();
                    }
                }
            }
        }
        if self.fatal {
            return Err(Stop);
        }
        self.expect("}", "to end the block")?;
        Ok(Block {
            stmts,
            span: start.to(self.prev_span()),
        })
    }

    /// One statement with its attributes.
    fn stmt(&mut self) -> PResult<Stmt> {
        self.enter()?;
        let r = self.stmt_inner();
        self.leave();
        r
    }

    /// [`Parser::stmt`] inside its nesting guard.
    fn stmt_inner(&mut self) -> PResult<Stmt> {
        let start = self.span();
        let attributes = self.attributes()?;
        let t = self.tok().clone();
        let kind = if t.is_punct("{") {
            StmtKind::Block(self.block()?)
        } else if t.is_punct(";") {
            self.bump();
            StmtKind::Empty
        } else if t.kind == TokenKind::Ident {
            match t.text.as_str() {
                "if" => {
                    self.bump();
                    let cond = self.cond_or_decl("if")?;
                    let then = Box::new(self.stmt()?);
                    let otherwise = if self.at_word("else") {
                        self.bump();
                        Some(Box::new(self.stmt()?))
                    } else {
                        None
                    };
                    match cond {
                        Ok(cond) => StmtKind::If {
                            cond,
                            then,
                            otherwise,
                        },
                        // `if (T x = e) a else b` is `{ T x = e; if (x) a else b }`.
                        Err(decl) => {
                            let (decl, cond) = decl_cond(decl);
                            let span = decl.span;
                            let kind = StmtKind::If {
                                cond,
                                then,
                                otherwise,
                            };
                            StmtKind::Block(Block {
                                stmts: vec![stmt(StmtKind::Decl(decl), span), stmt(kind, span)],
                                span,
                            })
                        }
                    }
                }
                "for" => self.for_stmt()?,
                "while" => {
                    self.bump();
                    let cond = self.cond_or_decl("while")?;
                    let body = Box::new(self.stmt()?);
                    match cond {
                        Ok(cond) => StmtKind::While { cond, body },
                        // `while (T x = e) s` declares and tests `x` before each iteration.
                        Err(decl) => {
                            let span = decl.span;
                            let yes = Expr {
                                kind: ExprKind::Literal(Literal::Bool(true)),
                                span,
                            };
                            StmtKind::While {
                                cond: yes,
                                body: Box::new(stmt(guarded_body(decl, body), span)),
                            }
                        }
                    }
                }
                "do" => {
                    self.bump();
                    let body = Box::new(self.stmt()?);
                    if !self.at_word("while") {
                        let found = self.tok().describe();
                        return self.fail(format!(
                            "expected 'while' after the do-loop's body, found {found}"
                        ));
                    }
                    self.bump();
                    let cond = self.paren_cond("while")?;
                    self.expect(";", "after the do-while loop")?;
                    StmtKind::DoWhile { body, cond }
                }
                "switch" => self.switch_stmt()?,
                "break" | "continue" | "discard" => {
                    self.bump();
                    self.expect(";", &format!("after '{}'", t.text))?;
                    match t.text.as_str() {
                        "break" => StmtKind::Break,
                        "continue" => StmtKind::Continue,
                        _ => StmtKind::Discard,
                    }
                }
                "return" => {
                    self.bump();
                    let value = if self.at(";") {
                        None
                    } else {
                        Some(self.expr()?)
                    };
                    self.expect(";", "after the return statement")?;
                    StmtKind::Return(value)
                }
                "case" | "default" if self.switch_depth > 0 => {
                    return self.fail(format!(
                        "not supported yet: a '{}' label inside a statement nested in the \
                         switch other than a '{{ }}' block (an 'if', a loop)",
                        t.text
                    ));
                }
                "case" | "default" => {
                    return self.fail(format!("'{}' label outside a switch", t.text));
                }
                "else" => return self.fail("'else' without a matching 'if'"),
                "struct" | "class"
                    if self.peek_at(1).is_punct("{")
                        || self.peek_at(1).kind == TokenKind::Ident
                            && (self.peek_at(2).is_punct("{") || self.peek_at(2).is_punct(":")) =>
                {
                    // A local struct is declared at file level (its name stays visible after
                    // the function, which only accepts more programs than C++ does).
                    let mut items = self.struct_item(Vec::new())?;
                    let decl = match items.pop() {
                        Some(Item::Variables(v)) => StmtKind::Decl(v),
                        Some(other) => {
                            items.push(other);
                            StmtKind::Empty
                        }
                        None => StmtKind::Empty,
                    };
                    self.hoisted.extend(items);
                    decl
                }
                "typedef"
                    if !self.peek_at(1).is_ident("struct")
                        && !self.peek_at(1).is_ident("class") =>
                {
                    let alias = self.typedef_decl()?;
                    self.declare_local_type(&alias.name.name);
                    StmtKind::Typedef(alias)
                }
                "using"
                    if self.peek_at(1).kind == TokenKind::Ident
                        && self.peek_at(2).is_punct("=") =>
                {
                    let start = self.bump().span;
                    let name = self.ident("a name after 'using'")?;
                    let alias = self.alias_decl(name, start)?;
                    self.declare_local_type(&alias.name.name);
                    StmtKind::Typedef(alias)
                }
                "typedef" | "struct" | "class" => {
                    return self.fail(format!(
                        "not supported yet: local '{}' declarations",
                        t.text
                    ));
                }
                "using" if self.peek_at(1).kind == TokenKind::Ident => {
                    return self.fail(
                        "not supported yet: local 'using' declarations other than a type alias \
                         ('using T = type;')",
                    );
                }
                _ if self.at_declaration() => self.local_stmt()?,
                _ => self.expr_stmt()?,
            }
        } else if self.at_declaration() {
            // `::N x;`
            self.local_stmt()?
        } else {
            self.expr_stmt()?
        };
        // `[branch] if (T x = e)` became `{ T x = e; if (x) ... }`: the attributes are the
        // `if`'s.
        let (attributes, kind) = match kind {
            StmtKind::Block(mut b)
                if !attributes.is_empty()
                    && matches!(t.text.as_str(), "if" | "switch")
                    && b.stmts.len() == 2 =>
            {
                if let Some(last) = b.stmts.last_mut() {
                    last.attributes = attributes;
                }
                (Vec::new(), StmtKind::Block(b))
            }
            kind => (attributes, kind),
        };
        Ok(Stmt {
            attributes,
            kind,
            span: start.to(self.prev_span()),
        })
    }

    /// `expr;`.
    fn expr_stmt(&mut self) -> PResult<StmtKind> {
        let e = self.expr()?;
        self.expect(";", "after the expression")?;
        Ok(StmtKind::Expr(e))
    }

    /// A local declaration, or a function's declaration (`float f(float x);`): the function
    /// is declared at file level (it names a function of the enclosing namespace, as in C++;
    /// its name stays visible after the block, which only accepts more programs).
    fn local_stmt(&mut self) -> PResult<StmtKind> {
        let start = self.span();
        let modifiers = self.modifiers();
        let ty = self.type_expr()?;
        let name = self.ident("a variable name")?;
        if !self.at("(") {
            let decl = self.var_rest(Vec::new(), modifiers, ty, name, start)?;
            return Ok(StmtKind::Decl(decl));
        }
        let f = self.function(Vec::new(), modifiers, ty, name, start)?;
        if f.body.is_some() {
            self.error(
                f.name.span,
                "a function definition is not allowed inside a function",
            );
            return Err(Stop);
        }
        self.hoisted.push(Item::Function(f));
        Ok(StmtKind::Empty)
    }

    /// A local declaration up to its `;`.
    fn local_decl(&mut self) -> PResult<VarDecl> {
        let start = self.span();
        let modifiers = self.modifiers();
        let ty = self.type_expr()?;
        let name = self.ident("a variable name")?;
        self.var_rest(Vec::new(), modifiers, ty, name, start)
    }

    /// `( expr )` or `( T x = e )` after `if` and `while`.
    fn cond_or_decl(&mut self, what: &str) -> PResult<Result<Expr, VarDecl>> {
        self.expect("(", &format!("after '{what}'"))?;
        let r = if self.at_declaration() {
            Err(self.cond_decl()?)
        } else {
            Ok(self.expr()?)
        };
        self.expect(")", &format!("after the '{what}' condition"))?;
        Ok(r)
    }

    /// `T x = e` in a condition (no `;`).
    fn cond_decl(&mut self) -> PResult<VarDecl> {
        let start = self.span();
        let modifiers = self.modifiers();
        let ty = self.type_expr()?;
        let name = self.ident("a variable name")?;
        self.expect("=", "to initialize the variable declared in a condition")?;
        let init = self.assignment()?;
        let span = start.to(self.prev_span());
        Ok(VarDecl {
            attributes: Vec::new(),
            modifiers,
            ty,
            declarators: vec![Declarator {
                span: name.span.to(init.span),
                name,
                array_dims: Vec::new(),
                annotations: Vec::new(),
                init: Some(Initializer::Expr(init)),
            }],
            span,
        })
    }

    /// `( expr )` after `if`, `while`, `switch`.
    fn paren_cond(&mut self, what: &str) -> PResult<Expr> {
        self.expect("(", &format!("after '{what}'"))?;
        let e = self.expr()?;
        self.expect(")", &format!("after the '{what}' condition"))?;
        Ok(e)
    }

    /// `for (init; cond; step) body`.
    fn for_stmt(&mut self) -> PResult<StmtKind> {
        self.bump();
        self.expect("(", "after 'for'")?;
        let init_start = self.span();
        let init = if self.eat(";") {
            None
        } else {
            let kind = if self.at_declaration() {
                StmtKind::Decl(self.local_decl()?)
            } else {
                self.expr_stmt()?
            };
            Some(Box::new(Stmt {
                attributes: Vec::new(),
                kind,
                span: init_start.to(self.prev_span()),
            }))
        };
        let cond = if self.at(";") {
            None
        } else if self.at_declaration() {
            Some(Err(self.cond_decl()?))
        } else {
            Some(Ok(self.expr()?))
        };
        self.expect(";", "after the for-loop's condition")?;
        let step = if self.at(")") {
            None
        } else {
            Some(self.expr()?)
        };
        self.expect(")", "after the for-loop's header")?;
        let body = Box::new(self.stmt()?);
        Ok(match cond {
            // `for (i; T x = e; s) b` declares and tests `x` before each iteration.
            Some(Err(decl)) => {
                let span = decl.span;
                StmtKind::For {
                    init,
                    cond: None,
                    step,
                    body: Box::new(stmt(guarded_body(decl, body), span)),
                }
            }
            Some(Ok(cond)) => StmtKind::For {
                init,
                cond: Some(cond),
                step,
                body,
            },
            None => StmtKind::For {
                init,
                cond: None,
                step,
                body,
            },
        })
    }

    /// `switch (e) { case ...: ... }` grouped into cases: consecutive labels share one case,
    /// whose body runs up to the next label.
    fn switch_stmt(&mut self) -> PResult<StmtKind> {
        self.bump();
        let (decl, selector) = match self.cond_or_decl("switch")? {
            Ok(e) => (None, e),
            Err(decl) => {
                let (decl, cond) = decl_cond(decl);
                (Some(decl), cond)
            }
        };
        self.switch_depth += 1;
        let kind = self.switch_body(selector);
        self.switch_depth -= 1;
        let kind = kind?;
        // `switch (T x = e) {...}` is `{ T x = e; switch (x) {...} }`.
        Ok(match decl {
            None => kind,
            Some(decl) => {
                let span = decl.span;
                StmtKind::Block(Block {
                    stmts: vec![stmt(StmtKind::Decl(decl), span), stmt(kind, span)],
                    span,
                })
            }
        })
    }

    /// The `{ case ...: ... }` of a switch on `selector`.
    ///
    /// A `{ }` block nested in the body (at any depth of blocks) may hold labels too, as in C:
    /// such a block is flattened into the body, the way DXC's SPIR-V backend flattens it
    /// (`case 6: { case 7: break; }` is `case 6: case 7: break;`). A declaration directly in a
    /// flattened block is refused (its scope would end at the block's `}`); a label inside any
    /// other nested statement (`if`, a loop) is refused as not supported yet.
    fn switch_body(&mut self, selector: Expr) -> PResult<StmtKind> {
        self.expect("{", "to start the switch's body")?;
        let mut items = Vec::new();
        self.switch_items(&mut items, true)?;
        self.expect("}", "to end the switch")?;
        let mut cases: Vec<SwitchCase> = Vec::new();
        for item in items {
            match item {
                SwitchItem::Label(label, lspan) => match cases.last_mut() {
                    Some(c) if c.body.is_empty() => {
                        c.labels.push((label, lspan));
                        c.span = c.span.to(lspan);
                    }
                    _ => cases.push(SwitchCase {
                        labels: vec![(label, lspan)],
                        body: Vec::new(),
                        span: lspan,
                    }),
                },
                SwitchItem::Stmt(s) => {
                    if let Some(c) = cases.last_mut() {
                        c.span = c.span.to(s.span);
                        c.body.push(s);
                    }
                }
            }
        }
        Ok(StmtKind::Switch { selector, cases })
    }

    /// The labels and statements of a switch's body (`top`) or of a block nested in it, up to
    /// the closing `}` (left in place), with nested blocks that hold labels flattened.
    fn switch_items(&mut self, items: &mut Vec<SwitchItem>, top: bool) -> PResult<()> {
        self.enter()?;
        let mark = self.local_types.len();
        let r = self.switch_items_inner(items, top);
        self.end_local_types(mark);
        self.leave();
        r
    }

    /// [`Parser::switch_items`] inside its nesting guard.
    fn switch_items_inner(&mut self, items: &mut Vec<SwitchItem>, top: bool) -> PResult<()> {
        while !self.at("}") && !self.at_eof() && !self.fatal {
            if self.at_word("case") || self.at_word("default") {
                let lstart = self.span();
                let label = if self.at_word("case") {
                    self.bump();
                    Some(self.conditional()?)
                } else {
                    self.bump();
                    None
                };
                self.expect(":", "after the case label")?;
                items.push(SwitchItem::Label(label, lstart.to(self.prev_span())));
                continue;
            }
            let before = self.pos;
            if top && items.is_empty() {
                return self.fail("expected 'case' or 'default' in the switch's body");
            }
            if self.at("{") {
                let start = self.span();
                self.bump();
                let mut inner = Vec::new();
                self.switch_items(&mut inner, false)?;
                self.expect("}", "to end the block")?;
                let span = start.to(self.prev_span());
                if inner.iter().any(|i| matches!(i, SwitchItem::Label(..))) {
                    for i in &inner {
                        if let SwitchItem::Stmt(s) = i {
                            if matches!(s.kind, StmtKind::Decl(_) | StmtKind::Typedef(_)) {
                                self.error(
                                    s.span,
                                    "not supported yet: a declaration in a '{ }' block that \
                                     holds a case label of the enclosing switch",
                                );
                            }
                        }
                    }
                    items.extend(inner);
                } else {
                    let stmts = inner
                        .into_iter()
                        .filter_map(|i| match i {
                            SwitchItem::Stmt(s) => Some(s),
                            SwitchItem::Label(..) => None,
                        })
                        .collect();
                    items.push(SwitchItem::Stmt(stmt(
                        StmtKind::Block(Block { stmts, span }),
                        span,
                    )));
                }
                continue;
            }
            match self.stmt() {
                Ok(s) => items.push(SwitchItem::Stmt(s)),
                Err(Stop) => {
                    if self.fatal {
                        return Err(Stop);
                    }
                    self.sync_stmt();
                    if self.pos == before {
                        self.bump();
                    }
                }
            }
        }
        if self.fatal {
            return Err(Stop);
        }
        Ok(())
    }

    // ---- expressions --------------------------------------------------------------------

    /// A full expression, commas included.
    fn expr(&mut self) -> PResult<Expr> {
        let mut lhs = self.assignment()?;
        while self.at(",") {
            self.bump();
            let rhs = self.assignment()?;
            let span = lhs.span.to(rhs.span);
            lhs = Expr {
                kind: ExprKind::Comma(Box::new(lhs), Box::new(rhs)),
                span,
            };
        }
        Ok(lhs)
    }

    /// An assignment (right-associative) or a conditional expression.
    fn assignment(&mut self) -> PResult<Expr> {
        self.enter()?;
        let r = (|| {
            let lhs = self.conditional()?;
            let t = self.tok();
            if t.kind == TokenKind::Punct {
                if let Some(op) = assign_op(&t.text) {
                    self.bump();
                    let rhs = self.assignment()?;
                    let span = lhs.span.to(rhs.span);
                    return Ok(Expr {
                        kind: ExprKind::Assign {
                            op,
                            lhs: Box::new(lhs),
                            rhs: Box::new(rhs),
                        },
                        span,
                    });
                }
            }
            Ok(lhs)
        })();
        self.leave();
        r
    }

    /// `cond ? a : b` (the false branch is an assignment expression, as in C++).
    fn conditional(&mut self) -> PResult<Expr> {
        let cond = self.binary(1)?;
        if !self.eat("?") {
            return Ok(cond);
        }
        let then = self.expr()?;
        self.expect(":", "in the conditional expression")?;
        let otherwise = self.assignment()?;
        let span = cond.span.to(otherwise.span);
        Ok(Expr {
            kind: ExprKind::Conditional {
                cond: Box::new(cond),
                then: Box::new(then),
                otherwise: Box::new(otherwise),
            },
            span,
        })
    }

    /// Binary operators of precedence `min` and tighter, left-associative.
    fn binary(&mut self, min: u8) -> PResult<Expr> {
        let mut lhs = self.unary()?;
        loop {
            let t = self.tok();
            if t.kind != TokenKind::Punct {
                break;
            }
            let Some((op, prec)) = binary_op(&t.text) else {
                break;
            };
            if self.angle_closes && (t.text == ">" || t.text == ">>") {
                break;
            }
            if prec < min {
                break;
            }
            self.bump();
            let rhs = self.binary(prec + 1)?;
            let span = lhs.span.to(rhs.span);
            lhs = Expr {
                kind: ExprKind::Binary {
                    op,
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                },
                span,
            };
        }
        Ok(lhs)
    }

    /// Prefix operators and casts, then a postfix expression.
    fn unary(&mut self) -> PResult<Expr> {
        self.enter()?;
        let r = self.unary_inner();
        self.leave();
        r
    }

    /// [`Parser::unary`] inside its nesting guard.
    fn unary_inner(&mut self) -> PResult<Expr> {
        let t = self.tok().clone();
        if t.kind == TokenKind::Punct {
            let op = match t.text.as_str() {
                "-" => Some(UnaryOp::Neg),
                "+" => Some(UnaryOp::Plus),
                "!" => Some(UnaryOp::Not),
                "~" => Some(UnaryOp::BitNot),
                "++" => Some(UnaryOp::PreInc),
                "--" => Some(UnaryOp::PreDec),
                _ => None,
            };
            if let Some(op) = op {
                self.bump();
                let operand = self.unary()?;
                let span = t.span.to(operand.span);
                return Ok(Expr {
                    kind: ExprKind::Unary {
                        op,
                        operand: Box::new(operand),
                    },
                    span,
                });
            }
            if t.text == "(" {
                if let Some(cast) = self.try_cast()? {
                    return Ok(cast);
                }
            }
        }
        let primary = self.primary()?;
        self.postfix(primary)
    }

    /// `(T)x` or `(T[n])x` when the parenthesis holds a type; `None` (nothing taken) otherwise.
    fn try_cast(&mut self) -> PResult<Option<Expr>> {
        // `(row_major float2x2)v`: the majorness of a value's type says nothing about the
        // value, so it is skipped.
        let majorness = matches!(self.peek_at(1).text.as_str(), "row_major" | "column_major");
        let at = 1 + usize::from(majorness);
        let next = self.peek_at(at).clone();
        if !self.is_type_at(at) || self.not_casts.contains(&self.pos) {
            return Ok(None);
        }
        let after = self.peek_at(self.qualified_end(at).0);
        let simple = after.is_punct(")");
        if !simple && !after.is_punct("<") && !after.is_punct("[") && next.text != "unsigned" {
            return Ok(None);
        }
        // Parse the type speculatively; roll back when it turns out not to be a cast.
        let saved = (self.pos, self.diags.len(), self.fatal);
        let start = self.bump().span;
        if majorness {
            self.bump();
        }
        let attempt = (|| {
            let ty = self.type_expr()?;
            let dims = self.array_dims()?;
            if !self.at(")") {
                return Err(Stop);
            }
            self.bump();
            Ok((ty, dims))
        })();
        match attempt {
            Ok((ty, array_dims)) => {
                let operand = self.unary()?;
                let span = start.to(operand.span);
                Ok(Some(Expr {
                    kind: ExprKind::Cast {
                        ty,
                        array_dims,
                        operand: Box::new(operand),
                    },
                    span,
                }))
            }
            Err(Stop) if self.too_deep => Err(Stop),
            Err(Stop) => {
                self.pos = saved.0;
                self.diags.truncate(saved.1);
                self.fatal = saved.2;
                self.not_casts.insert(saved.0);
                Ok(None)
            }
        }
    }

    /// Postfix operators: `.member`, `.method(args)`, `[index]`, `++`, `--`.
    fn postfix(&mut self, mut e: Expr) -> PResult<Expr> {
        loop {
            if self.eat(".") {
                let member = self.ident("a member name after '.'")?;
                // `buf.Load<S[2]>(a)`: a templated method's one type argument.
                let type_arg = if self.at("<") && self.is_type(self.peek_at(1)) {
                    self.bump();
                    let ty = self.type_expr()?;
                    let array_dims = self.array_dims()?;
                    if self.at(",") {
                        return self.fail(format!(
                            "not supported yet: more than one template argument on the method \
                             '{}'",
                            member.name
                        ));
                    }
                    self.close_angle()?;
                    if !self.at("(") {
                        let found = self.tok().describe();
                        return self.fail(format!(
                            "expected '(' after the template arguments of '{}', found {found}",
                            member.name
                        ));
                    }
                    Some(Box::new(ArrayedType { ty, array_dims }))
                } else {
                    None
                };
                if self.at("(") {
                    let args = self.call_args()?;
                    let span = e.span.to(self.prev_span());
                    e = Expr {
                        kind: ExprKind::MethodCall {
                            receiver: Box::new(e),
                            method: member,
                            type_arg,
                            args,
                        },
                        span,
                    };
                } else {
                    let span = e.span.to(member.span);
                    e = Expr {
                        kind: ExprKind::Member {
                            base: Box::new(e),
                            member,
                        },
                        span,
                    };
                }
            } else if self.eat("[") {
                let index = self.unangled(Self::expr)?;
                self.expect("]", "after the index")?;
                let span = e.span.to(self.prev_span());
                e = Expr {
                    kind: ExprKind::Index {
                        base: Box::new(e),
                        index: Box::new(index),
                    },
                    span,
                };
            } else if self.at("++") || self.at("--") {
                let t = self.bump();
                let op = if t.text == "++" {
                    UnaryOp::PostInc
                } else {
                    UnaryOp::PostDec
                };
                let span = e.span.to(t.span);
                e = Expr {
                    kind: ExprKind::Unary {
                        op,
                        operand: Box::new(e),
                    },
                    span,
                };
            } else {
                return Ok(e);
            }
        }
    }

    /// Runs `f` with `>` an operator again (inside parentheses, brackets or braces).
    fn unangled<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        let outer = std::mem::replace(&mut self.angle_closes, false);
        let r = f(self);
        self.angle_closes = outer;
        r
    }

    /// `( args )` of a call.
    fn call_args(&mut self) -> PResult<Vec<Expr>> {
        self.unangled(Self::call_args_inner)
    }

    /// [`Parser::call_args`] with `>` an operator.
    fn call_args_inner(&mut self) -> PResult<Vec<Expr>> {
        self.expect("(", "to start the arguments")?;
        let mut args = Vec::new();
        if !self.at(")") {
            loop {
                args.push(self.assignment()?);
                if !self.eat(",") {
                    break;
                }
            }
        }
        self.expect(")", "after the arguments")?;
        Ok(args)
    }

    /// Literals, names, calls, constructors, `( expr )` and `{ ... }`.
    fn primary(&mut self) -> PResult<Expr> {
        let t = self.tok().clone();
        match t.kind {
            TokenKind::Number => {
                self.bump();
                let lit = match parse_number(&t.text) {
                    Ok(l) => l,
                    Err(msg) => {
                        self.error(t.span, msg);
                        Literal::Int {
                            value: 0,
                            suffix: String::new(),
                        }
                    }
                };
                Ok(Expr {
                    kind: ExprKind::Literal(lit),
                    span: t.span,
                })
            }
            TokenKind::Str => {
                let mut text = String::new();
                let mut span = t.span;
                while self.tok().kind == TokenKind::Str {
                    let s = self.bump();
                    span = span.to(s.span);
                    text.push_str(&unescape(&s.text));
                }
                Ok(Expr {
                    kind: ExprKind::Literal(Literal::String(text)),
                    span,
                })
            }
            TokenKind::Punct if t.text == "(" => {
                self.bump();
                let inner = self.unangled(Self::expr)?;
                self.expect(")", "to close the parenthesis")?;
                let span = t.span.to(self.prev_span());
                Ok(Expr {
                    kind: inner.kind,
                    span,
                })
            }
            TokenKind::Punct if t.text == "{" => {
                self.enter()?;
                let r = self.unangled(|this| {
                    this.bump();
                    let mut items = Vec::new();
                    while !this.at("}") {
                        items.push(this.assignment()?);
                        if !this.eat(",") {
                            break;
                        }
                    }
                    this.expect("}", "to end the initializer list")?;
                    Ok(Expr {
                        kind: ExprKind::InitList(items),
                        span: t.span.to(this.prev_span()),
                    })
                });
                self.leave();
                r
            }
            TokenKind::Ident if t.text == "true" || t.text == "false" => {
                self.bump();
                Ok(Expr {
                    kind: ExprKind::Literal(Literal::Bool(t.text == "true")),
                    span: t.span,
                })
            }
            TokenKind::Ident if t.text == "sizeof" && self.peek_at(1).is_punct("(") => {
                self.bump();
                let inner = if self.is_type_at(1)
                    && matches!(
                        self.peek_at(self.qualified_end(1).0).text.as_str(),
                        ")" | "[" | "<"
                    ) {
                    // `sizeof(T)` / `sizeof(T[2])`: a type, held as `(T)0`.
                    let open = self.bump().span;
                    let ty = self.type_expr()?;
                    let array_dims = self.array_dims()?;
                    self.expect(")", "to close 'sizeof'")?;
                    let span = open.to(self.prev_span());
                    let zero = Expr {
                        kind: ExprKind::Literal(Literal::Int {
                            value: 0,
                            suffix: String::new(),
                        }),
                        span,
                    };
                    Expr {
                        kind: ExprKind::Cast {
                            ty,
                            array_dims,
                            operand: Box::new(zero),
                        },
                        span,
                    }
                } else {
                    self.primary()?
                };
                Ok(Expr {
                    span: t.span.to(inner.span),
                    kind: ExprKind::SizeOf(Box::new(inner)),
                })
            }
            // `E::A`: an enumerator of a (type-named) enum is a qualified name. A builtin
            // object type's name (not a keyword: `Texture`, `Buffer`) followed by neither `(`
            // nor `<` is a variable's (`Texture.Sample(...)`, `Buffer.IncrementCounter()`).
            TokenKind::Ident
                if self.is_type(&t)
                    && !(self.peek_at(1).text == "::"
                        && self.peek_at(2).kind == TokenKind::Ident)
                    && !(is_builtin_type(&t.text)
                        && t.text.starts_with(|c: char| c.is_ascii_uppercase())
                        && !self.types.contains(&t.text)
                        && !self.peek_at(1).is_punct("(")
                        && !self.peek_at(1).is_punct("<")) =>
            {
                let ty = self.type_expr()?;
                if !ty.args.is_empty() && self.at("::") {
                    return self.scoped_call(ty);
                }
                if self.var_templates.contains(&ty.name.name) && !self.at("(") {
                    // `v<args>`: the variable of a variable template's instance.
                    let span = ty.span;
                    let member = Ident {
                        name: crate::hlsl::sema::names::VAR_MEMBER.to_owned(),
                        span,
                    };
                    return Ok(Expr {
                        kind: ExprKind::Scoped {
                            scope: Box::new(ty),
                            member,
                        },
                        span,
                    });
                }
                if !self.at("(") {
                    let found = self.tok().describe();
                    return self.fail(format!(
                        "expected '(' after the type '{}' to construct a value, found {found}",
                        ty.name.name
                    ));
                }
                let args = self.call_args()?;
                let span = ty.span.to(self.prev_span());
                Ok(Expr {
                    kind: ExprKind::Construct { ty, args },
                    span,
                })
            }
            // `vk::BufferPointer<T>(a)`: a builtin qualified type constructing a value.
            TokenKind::Ident
                if self.peek_at(1).is_punct("::") && is_builtin_type(&self.qualified_end(0).1) =>
            {
                let ty = self.type_expr()?;
                if !self.at("(") {
                    let found = self.tok().describe();
                    return self.fail(format!(
                        "expected '(' after the type '{}' to construct a value, found {found}",
                        ty.name.name
                    ));
                }
                let args = self.call_args()?;
                let span = ty.span.to(self.prev_span());
                Ok(Expr {
                    kind: ExprKind::Construct { ty, args },
                    span,
                })
            }
            TokenKind::Ident if !RESERVED.contains(&t.text.as_str()) => {
                let mut name = self.ident("a name")?;
                while self.at("::") && self.peek_at(1).kind == TokenKind::Ident {
                    self.bump();
                    let part = self.bump();
                    name.name = format!("{}::{}", name.name, part.text);
                    name.span = name.span.to(part.span);
                }
                let template_args = if self.at("<")
                    && (self.templates.contains(&name.name)
                        || is_builtin_function_template(&name.name))
                {
                    self.template_args()?
                } else {
                    Vec::new()
                };
                if !template_args.is_empty() && self.at("::") {
                    let span = name.span.to(self.prev_span());
                    return self.scoped_call(TypeExpr {
                        name,
                        args: template_args,
                        span,
                    });
                }
                if self.at("(") && template_args.is_empty() && self.types.contains(&name.name) {
                    // `S::T(args)`: a member type constructed.
                    let ty = TypeExpr {
                        span: name.span,
                        name,
                        args: Vec::new(),
                    };
                    let args = self.call_args()?;
                    let span = ty.span.to(self.prev_span());
                    return Ok(Expr {
                        kind: ExprKind::Construct { ty, args },
                        span,
                    });
                }
                if self.at("(") || !template_args.is_empty() {
                    let args = self.call_args()?;
                    let span = name.span.to(self.prev_span());
                    return Ok(Expr {
                        kind: ExprKind::Call {
                            callee: name,
                            template_args,
                            scope: None,
                            args,
                        },
                        span,
                    });
                }
                Ok(Expr {
                    span: name.span,
                    kind: ExprKind::Ident(name),
                })
            }
            TokenKind::Other | TokenKind::Char => self.stray(),
            _ => {
                let found = t.describe();
                self.fail(format!("expected an expression, found {found}"))
            }
        }
    }
}

/// `a::b::name` for the path `[a, b]`.
fn join_path(path: &[String], name: &str) -> String {
    path.iter()
        .map(String::as_str)
        .chain([name])
        .collect::<Vec<_>>()
        .join("::")
}

/// A statement without attributes.
fn stmt(kind: StmtKind, span: Span) -> Stmt {
    Stmt {
        attributes: Vec::new(),
        kind,
        span,
    }
}

/// The declaration of a condition and the test of the variable it declares.
fn decl_cond(decl: VarDecl) -> (VarDecl, Expr) {
    let name = decl.declarators[0].name.clone();
    let cond = Expr {
        span: name.span,
        kind: ExprKind::Ident(name),
    };
    (decl, cond)
}

/// `{ T x = e; if (x) body else break; }`: a loop body that declares its condition's variable
/// each iteration and leaves the loop when it is false.
fn guarded_body(decl: VarDecl, body: Box<Stmt>) -> StmtKind {
    let span = decl.span;
    let (decl, cond) = decl_cond(decl);
    let test = StmtKind::If {
        cond,
        then: body,
        otherwise: Some(Box::new(stmt(StmtKind::Break, span))),
    };
    StmtKind::Block(Block {
        stmts: vec![stmt(StmtKind::Decl(decl), span), stmt(test, span)],
        span,
    })
}

/// A string literal's contents with C escapes resolved.
fn unescape(lit: &str) -> String {
    let inner = lit
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .unwrap_or(lit);
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('0') => out.push('\0'),
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}
