//! The syntax tree the parser builds and semantic analysis reads: HLSL as written, with a span on
//! every node and no meaning attached yet (whether `a.xy` is a swizzle or a field, or `f(x)` an
//! intrinsic or a user function, is decided by sema).

use super::source::Span;

/// A name as written, with where it was written.
#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    /// The name.
    pub name: String,
    /// Where.
    pub span: Span,
}

/// A whole preprocessed source file.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct TranslationUnit {
    /// Top-level declarations in source order.
    pub items: Vec<Item>,
    /// The matrix majorness `#pragma pack_matrix` sets for the whole file (`true`: row-major);
    /// `None` without the pragma. Only a pragma before the first declaration is accepted.
    pub pack_row_major: Option<bool>,
}

/// A top-level declaration.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// A function declaration or definition.
    Function(FunctionDecl),
    /// `struct S { ... };` (possibly followed by declarators, which become a `Variables` item
    /// right after it).
    Struct(StructDecl),
    /// `struct S;` (also the `struct S` of `typedef struct S T;`): `S` is a struct type
    /// defined later, an incomplete type until its definition.
    StructForward(Ident),
    /// `typedef T name[dims];`
    Typedef(Typedef),
    /// Global variables: resources, `static` and `groupshared` variables, loose uniforms that go
    /// to `$Globals`, `ConstantBuffer<T>` declarations.
    Variables(VarDecl),
    /// `cbuffer` / `tbuffer` blocks.
    Buffer(BufferBlock),
    /// A stray `;`.
    Empty(Span),
    /// `namespace N { items }` (flattened by [`crate::hlsl::sema::names`] into qualified names).
    Namespace {
        /// `N` (qualified when written `namespace A::B`).
        name: Ident,
        /// The declarations inside.
        items: Vec<Item>,
        /// Whole declaration.
        span: Span,
    },
    /// `template <params> item`: a function, struct or alias template, instantiated by
    /// [`crate::hlsl::sema::names`] for each distinct argument list it is used with.
    Template {
        /// The parameters.
        params: Vec<TemplateParam>,
        /// The templated declaration (for an explicit specialization, `template <>`, a struct
        /// whose `spec_args` are set and `params` is empty).
        item: Box<Item>,
        /// Whether the template is defined (`false`: only declared, `template <class T> class S;`).
        defined: bool,
        /// Whole declaration.
        span: Span,
    },
    /// `using namespace N;` (`namespace` true: every name of `N` becomes visible unqualified)
    /// or `using N::x;` (`x` becomes visible).
    Using {
        /// `N` or `N::x`.
        target: Ident,
        /// Whether it is a using-directive.
        namespace: bool,
        /// Whole declaration.
        span: Span,
    },
}

/// `[name(args)]` or `[[ns::name(args)]]`, on a declaration, parameter, statement or entry point.
#[derive(Clone, Debug, PartialEq)]
pub struct Attribute {
    /// `vk` in `[[vk::binding(0)]]`; `None` for `[numthreads(...)]`.
    pub namespace: Option<Ident>,
    /// `binding`, `numthreads`, `unroll`, ...
    pub name: Ident,
    /// The arguments (constant expressions, or identifiers/strings for some attributes).
    pub args: Vec<Expr>,
    /// The whole attribute including brackets.
    pub span: Span,
}

/// A keyword that qualifies a declaration, parameter or type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Modifier {
    /// `static`
    Static,
    /// `const`
    Const,
    /// `groupshared`
    GroupShared,
    /// `uniform`
    Uniform,
    /// `extern`
    Extern,
    /// `volatile`
    Volatile,
    /// `precise`
    Precise,
    /// `shared`
    Shared,
    /// `inline`
    Inline,
    /// `row_major`
    RowMajor,
    /// `column_major`
    ColumnMajor,
    /// `nointerpolation`
    NoInterpolation,
    /// `linear`
    Linear,
    /// `centroid`
    Centroid,
    /// `noperspective`
    NoPerspective,
    /// `sample`
    Sample,
    /// `in`
    In,
    /// `out`
    Out,
    /// `inout`
    InOut,
    /// `unorm`
    Unorm,
    /// `snorm`
    Snorm,
    /// `globallycoherent`
    GloballyCoherent,
    /// `point` (geometry-shader input primitive; parsed so such files parse, stage unsupported)
    Point,
    /// `line` (geometry-shader input primitive)
    Line,
    /// `triangle` (geometry-shader input primitive)
    Triangle,
    /// `lineadj` (geometry-shader input primitive)
    LineAdj,
    /// `triangleadj` (geometry-shader input primitive)
    TriangleAdj,
    /// Not a keyword: the majorness a `#pragma pack_matrix` before the declaration gives its
    /// matrices (`true`: row-major) unless it or its typedef spells one.
    PackMatrix(bool),
}

/// A modifier and where it was written.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ModifierSpan {
    /// Which modifier.
    pub modifier: Modifier,
    /// Where.
    pub span: Span,
}

/// A type as written: `float`, `float4`, `float4x4`, `vector<int, 2>`, `matrix<float, 2, 3>`,
/// `RWStructuredBuffer<float4>`, `Texture2D<float4>`, `SamplerState`, `MyStruct`, `uint`.
/// Builtin scalar/vector/matrix names are not resolved here: sema does that, so the parser stays
/// a plain grammar.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeExpr {
    /// The type's name (`float4`, `RWTexture2D`, `S`, ...).
    pub name: Ident,
    /// Template arguments, `<...>`; empty when none were written.
    pub args: Vec<TemplateArg>,
    /// Whole type including template arguments.
    pub span: Span,
}

/// A type with array dimensions, as a method's template argument names it (`S[2]` in
/// `buf.Load<S[2]>(a)`).
#[derive(Clone, Debug, PartialEq)]
pub struct ArrayedType {
    /// The element type.
    pub ty: TypeExpr,
    /// Array dimensions, outermost first.
    pub array_dims: Vec<Option<Expr>>,
}

/// One parameter of a template: `typename T` / `class T` (a type) or `int N` (a value).
#[derive(Clone, Debug, PartialEq)]
pub struct TemplateParam {
    /// `T`.
    pub name: Ident,
    /// The value's type for a non-type parameter; `None` for a type parameter.
    pub value_ty: Option<TypeExpr>,
    /// `= default`.
    pub default: Option<TemplateArg>,
}

/// One template argument of a [`TypeExpr`].
#[derive(Clone, Debug, PartialEq)]
pub enum TemplateArg {
    /// A type (`float4` in `StructuredBuffer<float4>`).
    Type(TypeExpr),
    /// A constant expression (`4` in `vector<float, 4>`).
    Expr(Expr),
}

/// Something after a `:` following a declarator, parameter list or parameter.
#[derive(Clone, Debug, PartialEq)]
pub enum Annotation {
    /// `: SV_Target0`, `: TEXCOORD`; the name as written, sema splits a trailing index.
    Semantic(Ident),
    /// `: register(u1, space2)`.
    Register(Register),
    /// `: register(spaceM)`: no register, only the space (descriptor set) M.
    RegisterSpace(u32, Span),
    /// `: packoffset(c3.y)`: the byte offset it names (16 per register, 4 per component) in
    /// its constant buffer.
    PackOffset(u32, Span),
    /// `: 8` after a struct field: a bit-field of that width.
    BitField(u32, Span),
}

/// `register(xN[, spaceM])`.
#[derive(Clone, Debug, PartialEq)]
pub struct Register {
    /// The register class letter: `b`, `t`, `u`, `s` (lower case; `c` for loose constants).
    pub class: char,
    /// N.
    pub index: u32,
    /// M, when written.
    pub space: Option<u32>,
    /// Whole `register(...)`.
    pub span: Span,
}

/// An initializer: an expression, or a brace list `{ a, { b, c } }`.
#[derive(Clone, Debug, PartialEq)]
pub enum Initializer {
    /// `= expr`.
    Expr(Expr),
    /// `= { ... }`, possibly nested.
    List(Vec<Initializer>, Span),
}

/// One name declared in a [`VarDecl`]: `name[4][2] : SEMANTIC : register(t0) = init`.
#[derive(Clone, Debug, PartialEq)]
pub struct Declarator {
    /// The name.
    pub name: Ident,
    /// Array dimensions, outermost first; `None` for `[]` (unsized).
    pub array_dims: Vec<Option<Expr>>,
    /// Semantics, registers, packoffsets.
    pub annotations: Vec<Annotation>,
    /// `= ...`.
    pub init: Option<Initializer>,
    /// From the name to the end of the initializer.
    pub span: Span,
}

/// A declaration of one or more variables (or struct fields) sharing a type:
/// `[[vk::binding(1)]] static const float a = 1, b[2] = { 1, 2 };`.
#[derive(Clone, Debug, PartialEq)]
pub struct VarDecl {
    /// Attributes before the declaration.
    pub attributes: Vec<Attribute>,
    /// Modifiers before (or mixed with) the type.
    pub modifiers: Vec<ModifierSpan>,
    /// The shared type.
    pub ty: TypeExpr,
    /// The declared names.
    pub declarators: Vec<Declarator>,
    /// The whole declaration including the `;`.
    pub span: Span,
}

/// `struct Name : Base { fields methods };` (or `class`).
#[derive(Clone, Debug, PartialEq)]
pub struct StructDecl {
    /// The struct's name (`None` for an anonymous struct).
    pub name: Option<Ident>,
    /// The base struct (`struct D : B`); it becomes the first member, as DXC lays it out.
    pub base: Option<TypeExpr>,
    /// Field declarations in order (a field declaration may declare several fields).
    pub fields: Vec<VarDecl>,
    /// Member functions (with `static` among their modifiers for static ones), as written:
    /// [`crate::hlsl::sema::names`] turns them into free functions taking `this`.
    pub methods: Vec<FunctionDecl>,
    /// `static` data members: globals named `S::x`.
    pub statics: Vec<VarDecl>,
    /// Member types: `typedef`s, a nested enum's type, a nested struct's name (an alias of the
    /// struct, which is declared before the enclosing one): types named `S::T`.
    pub typedefs: Vec<Typedef>,
    /// Member function templates (`template <class T> static T f(T x)`), with their parameters.
    pub member_templates: Vec<(Vec<TemplateParam>, FunctionDecl)>,
    /// The arguments of an explicit specialization (`class S<int, float>`); empty otherwise.
    pub spec_args: Vec<TemplateArg>,
    /// Whole declaration.
    pub span: Span,
}

/// `typedef [modifiers] T name[dims];`
#[derive(Clone, Debug, PartialEq)]
pub struct Typedef {
    /// Modifiers written in the typedef (`const`, `row_major`, ...).
    pub modifiers: Vec<ModifierSpan>,
    /// The aliased type.
    pub ty: TypeExpr,
    /// The new name.
    pub name: Ident,
    /// Array dimensions of the alias.
    pub array_dims: Vec<Option<Expr>>,
    /// Whole declaration.
    pub span: Span,
}

/// Whether a [`BufferBlock`] is a `cbuffer` or a `tbuffer`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BufferKind {
    /// `cbuffer`: Uniform storage, Block, std140.
    CBuffer,
    /// `tbuffer`: StorageBuffer read-only, std430.
    TBuffer,
}

/// `cbuffer Name : register(b0) { members };`
#[derive(Clone, Debug, PartialEq)]
pub struct BufferBlock {
    /// cbuffer or tbuffer.
    pub kind: BufferKind,
    /// Attributes before the keyword (`[[vk::binding(0, 1)]]`).
    pub attributes: Vec<Attribute>,
    /// The block's name.
    pub name: Ident,
    /// Annotations after the name (`: register(b0, space1)`).
    pub annotations: Vec<Annotation>,
    /// Members, visible as globals.
    pub members: Vec<VarDecl>,
    /// Whole block.
    pub span: Span,
}

/// A function parameter: `[attrs] [in|out|inout|uniform|interp...] T name[dims] : SEM = default`.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// Attributes (`[[vk::location(1)]]`).
    pub attributes: Vec<Attribute>,
    /// Modifiers (direction, interpolation, `const`, matrix majorness).
    pub modifiers: Vec<ModifierSpan>,
    /// The parameter's type.
    pub ty: TypeExpr,
    /// The parameter's name (HLSL allows unnamed parameters in declarations).
    pub name: Option<Ident>,
    /// Array dimensions.
    pub array_dims: Vec<Option<Expr>>,
    /// Semantics etc.
    pub annotations: Vec<Annotation>,
    /// Default value.
    pub default: Option<Expr>,
    /// Whole parameter.
    pub span: Span,
}

/// A function declaration (body `None`) or definition.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionDecl {
    /// `[numthreads(8, 8, 1)]`, `[shader("compute")]`, ...
    pub attributes: Vec<Attribute>,
    /// `static`, `inline`, `precise`, ...
    pub modifiers: Vec<ModifierSpan>,
    /// The return type (`void` is a [`TypeExpr`] named `void`).
    pub return_ty: TypeExpr,
    /// The function's name.
    pub name: Ident,
    /// Parameters in order.
    pub params: Vec<Param>,
    /// Annotations after the parameter list (`: SV_Target`).
    pub annotations: Vec<Annotation>,
    /// The body, for a definition.
    pub body: Option<Block>,
    /// Whole declaration.
    pub span: Span,
}

/// `{ statements }`.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// Statements in order.
    pub stmts: Vec<Stmt>,
    /// From `{` to `}`.
    pub span: Span,
}

/// A statement with its attributes (`[unroll(4)]`, `[loop]`, `[branch]`, `[flatten]`, ...).
#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    /// Attributes before the statement.
    pub attributes: Vec<Attribute>,
    /// What the statement is.
    pub kind: StmtKind,
    /// Whole statement.
    pub span: Span,
}

/// The kinds of statement.
#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    /// `{ ... }`.
    Block(Block),
    /// `expr;`.
    Expr(Expr),
    /// A local declaration (also `static` locals are reported by sema).
    Decl(VarDecl),
    /// A local `typedef` or type alias (`using T = type;`), visible to the end of its block:
    /// name resolution (`sema::names`) replaces its uses and leaves an empty statement.
    Typedef(Typedef),
    /// `if (cond) then else otherwise`.
    If {
        /// The condition.
        cond: Expr,
        /// Taken when true.
        then: Box<Stmt>,
        /// Taken when false.
        otherwise: Option<Box<Stmt>>,
    },
    /// `for (init; cond; step) body`.
    For {
        /// A declaration or expression statement, if any.
        init: Option<Box<Stmt>>,
        /// The loop condition; `None` loops until `break`.
        cond: Option<Expr>,
        /// The increment expression.
        step: Option<Expr>,
        /// The body.
        body: Box<Stmt>,
    },
    /// `while (cond) body`.
    While {
        /// The loop condition.
        cond: Expr,
        /// The body.
        body: Box<Stmt>,
    },
    /// `do body while (cond);`.
    DoWhile {
        /// The body.
        body: Box<Stmt>,
        /// The loop condition.
        cond: Expr,
    },
    /// `switch (selector) { case ...: ... }`, grouped by the parser into cases.
    Switch {
        /// The value switched on.
        selector: Expr,
        /// Cases in source order; fallthrough is from one case to the next.
        cases: Vec<SwitchCase>,
    },
    /// `break;`.
    Break,
    /// `continue;`.
    Continue,
    /// `return [expr];`.
    Return(Option<Expr>),
    /// `discard;`.
    Discard,
    /// `;`.
    Empty,
}

/// One group of `case` labels and the statements after them.
#[derive(Clone, Debug, PartialEq)]
pub struct SwitchCase {
    /// `case expr:` (Some) and `default:` (None) labels.
    pub labels: Vec<(Option<Expr>, Span)>,
    /// Statements up to the next label.
    pub body: Vec<Stmt>,
    /// From the first label to the last statement.
    pub span: Span,
}

/// An expression with its span.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// What the expression is.
    pub kind: ExprKind,
    /// Whole expression.
    pub span: Span,
}

/// A literal as written.
#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    /// An integer: decimal, hex (`0x`) or octal (leading `0`); `suffix` is the lower-cased suffix
    /// (`""`, `"u"`, `"l"`, `"ul"`, `"ll"`, `"ull"`).
    Int {
        /// The value (literals that do not fit 64 bits are a parse error).
        value: u64,
        /// The suffix.
        suffix: String,
    },
    /// A floating-point literal; `suffix` is `""`, `"f"`, `"h"` or `"l"`.
    Float {
        /// The value, parsed as f64.
        value: f64,
        /// The suffix.
        suffix: String,
    },
    /// `true` / `false`.
    Bool(bool),
    /// A string literal (only in attributes such as `[shader("compute")]`).
    String(String),
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    /// `-x`
    Neg,
    /// `+x`
    Plus,
    /// `!x`
    Not,
    /// `~x`
    BitNot,
    /// `++x`
    PreInc,
    /// `--x`
    PreDec,
    /// `x++`
    PostInc,
    /// `x--`
    PostDec,
}

/// Binary operators (the logical ones short-circuit or not depending on `-HV`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// `<`
    Lt,
    /// `>`
    Gt,
    /// `<=`
    Le,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `&`
    BitAnd,
    /// `^`
    BitXor,
    /// `|`
    BitOr,
    /// `&&`
    And,
    /// `||`
    Or,
}

impl BinaryOp {
    /// How the operator is written (`operator` names are made of it).
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Rem => "%",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Shl => "<<",
            BinaryOp::Shr => ">>",
            BinaryOp::Lt => "<",
            BinaryOp::Gt => ">",
            BinaryOp::Le => "<=",
            BinaryOp::Ge => ">=",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::BitAnd => "&",
            BinaryOp::BitXor => "^",
            BinaryOp::BitOr => "|",
            BinaryOp::And => "&&",
            BinaryOp::Or => "||",
        }
    }
}

/// The kinds of expression.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// A literal.
    Literal(Literal),
    /// A name: variable, parameter, enum-like constant.
    Ident(Ident),
    /// `op operand` or `operand op` (post-increment/decrement).
    Unary {
        /// The operator.
        op: UnaryOp,
        /// The operand.
        operand: Box<Expr>,
    },
    /// `lhs op rhs`.
    Binary {
        /// The operator.
        op: BinaryOp,
        /// Left operand.
        lhs: Box<Expr>,
        /// Right operand.
        rhs: Box<Expr>,
    },
    /// `lhs = rhs` (`op` None) or `lhs op= rhs`.
    Assign {
        /// The compound operator, if any.
        op: Option<BinaryOp>,
        /// The target.
        lhs: Box<Expr>,
        /// The value.
        rhs: Box<Expr>,
    },
    /// `cond ? then : otherwise`.
    Conditional {
        /// The condition.
        cond: Box<Expr>,
        /// Value when true.
        then: Box<Expr>,
        /// Value when false.
        otherwise: Box<Expr>,
    },
    /// `lhs, rhs`.
    Comma(Box<Expr>, Box<Expr>),
    /// `name(args)`: a user function or an intrinsic (sema decides).
    Call {
        /// The callee's name.
        callee: Ident,
        /// Explicit template arguments (`f<int>(x)`); empty when none were written.
        template_args: Vec<TemplateArg>,
        /// The type the callee is a member of, when written with template arguments
        /// (`S<int>::f(x)`); name resolution folds it into `callee`.
        scope: Option<Box<TypeExpr>>,
        /// Arguments.
        args: Vec<Expr>,
    },
    /// `T(args)`: a constructor of a builtin vector/matrix/scalar type, e.g. `float4(v.xyz, 1)`.
    Construct {
        /// The constructed type.
        ty: TypeExpr,
        /// Arguments.
        args: Vec<Expr>,
    },
    /// `receiver.method(args)`: resource methods (`tex.Sample(s, uv)`, `buf.GetDimensions(n)`).
    MethodCall {
        /// The object.
        receiver: Box<Expr>,
        /// The method's name.
        method: Ident,
        /// The type argument of a templated method (`buf.Load<S[2]>(a)`), if written.
        type_arg: Option<Box<ArrayedType>>,
        /// Arguments.
        args: Vec<Expr>,
    },
    /// `(T)expr` or `(T[n])expr`.
    Cast {
        /// The target type.
        ty: TypeExpr,
        /// Array dimensions in the cast, if any.
        array_dims: Vec<Option<Expr>>,
        /// The converted value.
        operand: Box<Expr>,
    },
    /// `base.member`: a struct field or a swizzle (`v.xyz`, `m._m00_m11`).
    Member {
        /// The object.
        base: Box<Expr>,
        /// The member or swizzle.
        member: Ident,
    },
    /// `base[index]`.
    Index {
        /// The indexed value.
        base: Box<Expr>,
        /// The index.
        index: Box<Expr>,
    },
    /// `S<args>::m`: a static member of a template instance (or, with the member `#var`, the
    /// variable template `S<args>` itself); name resolution rewrites it into the member's
    /// qualified name.
    Scoped {
        /// `S<args>`.
        scope: Box<TypeExpr>,
        /// `m`.
        member: Ident,
    },
    /// `{ a, b }` where an expression is expected (only valid in initializers; sema reports
    /// others).
    InitList(Vec<Expr>),
    /// `sizeof(x)`, unevaluated; `sizeof(T)` is held as `sizeof((T)0)`, whose type is `T`.
    SizeOf(Box<Expr>),
}
