//! Function bodies as statement trees ([`Body`]): each local declaration's type resolved and
//! its constant value folded, `break`/`continue`/`return`/`discard` checked where they stand,
//! loop and selection attributes read into their controls, case labels folded and checked.
//! Only the functions the entry point reaches are lowered, in [`Module::order`].

use super::consteval::ConstVal;
use super::decls::{row_depth, written_matrix_shape, TypeEnv, TypeResolver};
use super::scope::Scopes;
use super::types::Ty;
use crate::grammar::{LoopControl, SelectionControl};
use crate::hlsl::ast::{
    Attribute, Block, Initializer, Item, Modifier, Stmt as AstStmt, StmtKind, TranslationUnit,
    VarDecl,
};
use crate::hlsl::diag::Diagnostic;
use crate::hlsl::hir::{Body, Case, Local, LocalKind, Module, Stmt};
use crate::hlsl::source::Span;
use crate::hlsl::{LanguageVersion, Options, Stage};
use std::collections::HashSet;

/// Lowers the bodies of the functions in `m.order` into `m.bodies`.
pub fn lower_bodies<'u>(
    unit: &'u TranslationUnit,
    m: &mut Module<'u>,
    opts: &Options,
    diags: &mut Vec<Diagnostic>,
) {
    let Some(order) = &m.order else { return };
    let mut bodies = std::collections::HashMap::new();
    for name in order {
        for sig in m.functions.get(name).into_iter().flatten() {
            let Some(Item::Function(decl)) = unit.items.get(sig.item) else {
                continue;
            };
            let Some(block) = &decl.body else { continue };
            let mut calls = Vec::new();
            super::calls::collect_calls_block(block, &mut calls);
            let reassigned: HashSet<String> = calls
                .into_iter()
                .filter_map(|(c, _)| c.strip_prefix(super::calls::ASSIGNED).map(str::to_owned))
                .collect();
            let mut l = Lowerer {
                env: &m.types,
                opts,
                diags: &mut *diags,
                consts: Scopes::default(),
                jumps: Vec::new(),
                ret: &sig.ret,
                reassigned: &reassigned,
            };
            for p in &decl.params {
                if let Some(n) = &p.name {
                    l.consts.declare(&n.name, LocalConst::default());
                }
            }
            let stmts = block.stmts.iter().map(|s| l.stmt(s)).collect();
            bodies.insert(sig.item, Body { stmts, reassigned });
        }
    }
    m.bodies = bodies;
}

/// What a local name says to constant folding: a `const` local's value or elements, or
/// nothing (a variable that shadows any module constant of its name).
#[derive(Clone, Default)]
struct LocalConst {
    value: Option<ConstVal>,
    elements: Option<Vec<ConstVal>>,
}

/// The value of constant `n` (`a[k]` for an element of a constant array) as a body sees it.
fn constant(scopes: &Scopes<LocalConst>, env: &TypeEnv, n: &str) -> Option<ConstVal> {
    if let Some((array, k)) = n.strip_suffix(']').and_then(|n| n.split_once('[')) {
        if let Some(local) = scopes.lookup(array) {
            let k: usize = k.parse().ok()?;
            return local.elements.as_ref()?.get(k).copied();
        }
        return env.constant(n);
    }
    match scopes.lookup(n) {
        Some(local) => local.value,
        None => env.constant(n),
    }
}

/// Whether `attrs` has one of `names`.
fn has_attr(attrs: &[Attribute], names: &[&str]) -> bool {
    attrs.iter().any(|a| names.contains(&a.name.name.as_str()))
}

/// `[flatten]` / `[branch]`.
fn selection_control(attrs: &[Attribute]) -> SelectionControl {
    if has_attr(attrs, &["flatten"]) {
        SelectionControl::Flatten
    } else if has_attr(attrs, &["branch"]) {
        SelectionControl::DontFlatten
    } else {
        SelectionControl::None
    }
}

struct Lowerer<'a> {
    env: &'a TypeEnv,
    opts: &'a Options,
    diags: &'a mut Vec<Diagnostic>,
    consts: Scopes<LocalConst>,
    /// The enclosing breakable statements, innermost last: true for a loop, false for a
    /// switch.
    jumps: Vec<bool>,
    ret: &'a Ty,
    reassigned: &'a HashSet<String>,
}

impl<'a> Lowerer<'a> {
    fn error(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::error(span, msg));
    }

    /// Runs `f` with a type resolver that sees the names in scope.
    fn with_resolver<T>(&mut self, f: impl FnOnce(&mut TypeResolver) -> T) -> T {
        let (consts, env) = (&self.consts, self.env);
        let lookup = |n: &str| constant(consts, env, n);
        let mut r = TypeResolver {
            env,
            opts: self.opts,
            consts: &lookup,
            diags: &mut *self.diags,
            pack: None,
        };
        f(&mut r)
    }

    /// Declares a local name; a second one in the same scope is an error.
    fn declare(&mut self, name: &crate::hlsl::ast::Ident, c: LocalConst) {
        if !self.consts.declare(&name.name, c) {
            self.error(name.span, format!("redefinition of '{}'", name.name));
        }
    }

    fn block<'u>(&mut self, b: &'u Block) -> Stmt<'u> {
        self.consts.push();
        let stmts = b.stmts.iter().map(|s| self.stmt(s)).collect();
        self.consts.pop();
        Stmt::Block(stmts)
    }

    /// A statement in a scope of its own (an `if` arm, a loop body).
    fn scoped<'u>(&mut self, s: &'u AstStmt) -> Box<Stmt<'u>> {
        self.consts.push();
        let s = self.stmt(s);
        self.consts.pop();
        Box::new(s)
    }

    fn stmt<'u>(&mut self, s: &'u AstStmt) -> Stmt<'u> {
        match &s.kind {
            StmtKind::Block(b) => self.block(b),
            StmtKind::Expr(e) => Stmt::Expr(e),
            StmtKind::Decl(d) => Stmt::Locals(self.locals(d)),
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => Stmt::If {
                cond,
                then: self.scoped(then),
                otherwise: otherwise.as_deref().map(|o| self.scoped(o)),
                control: selection_control(&s.attributes),
            },
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                self.consts.push();
                let init = init.as_deref().map(|i| self.stmt(i));
                let lp = self.loop_stmt(&s.attributes, cond.as_ref(), step.as_ref(), body, false);
                self.consts.pop();
                Stmt::Block(init.into_iter().chain([lp]).collect())
            }
            StmtKind::While { cond, body } => {
                self.loop_stmt(&s.attributes, Some(cond), None, body, false)
            }
            StmtKind::DoWhile { body, cond } => {
                self.loop_stmt(&s.attributes, Some(cond), None, body, true)
            }
            StmtKind::Switch { selector, cases } => {
                self.jumps.push(false);
                self.consts.push();
                let mut seen = Vec::new();
                let mut has_default = false;
                let mut out = Vec::new();
                for case in cases {
                    let mut values = Vec::new();
                    let mut default = false;
                    for (label, lspan) in &case.labels {
                        let Some(e) = label else {
                            if has_default {
                                self.error(*lspan, "multiple default labels in one switch");
                            }
                            has_default = true;
                            default = true;
                            continue;
                        };
                        let c = self
                            .with_resolver(|r| r.const_eval(e))
                            .and_then(ConstVal::as_int);
                        let Some(c) = c else {
                            self.error(e.span, "case label must be an integer constant expression");
                            continue;
                        };
                        if seen.contains(&c) {
                            self.error(e.span, format!("duplicate case value {c}"));
                            continue;
                        }
                        seen.push(c);
                        values.push(c);
                    }
                    let body = case.body.iter().map(|s| self.stmt(s)).collect();
                    out.push(Case {
                        values,
                        default,
                        body,
                    });
                }
                self.consts.pop();
                self.jumps.pop();
                Stmt::Switch {
                    selector,
                    cases: out,
                    control: selection_control(&s.attributes),
                }
            }
            StmtKind::Break => {
                if self.jumps.is_empty() {
                    self.error(s.span, "'break' outside a loop or switch");
                }
                Stmt::Break
            }
            StmtKind::Continue => {
                if !self.jumps.contains(&true) {
                    self.error(s.span, "'continue' outside a loop");
                }
                Stmt::Continue
            }
            StmtKind::Return(value) => {
                if value.is_none() && *self.ret != Ty::Void {
                    self.error(s.span, "non-void function must return a value");
                }
                Stmt::Return(value.as_ref())
            }
            StmtKind::Discard => {
                if self.opts.profile.stage != Stage::Pixel {
                    self.error(s.span, "'discard' is only allowed in pixel shaders");
                    return Stmt::Block(Vec::new());
                }
                Stmt::Discard
            }
            StmtKind::Empty => Stmt::Block(Vec::new()),
        }
    }

    fn loop_stmt<'u>(
        &mut self,
        attrs: &[Attribute],
        cond: Option<&'u crate::hlsl::ast::Expr>,
        step: Option<&'u crate::hlsl::ast::Expr>,
        body: &'u AstStmt,
        do_while: bool,
    ) -> Stmt<'u> {
        let control = if has_attr(attrs, &["unroll"]) {
            LoopControl::Unroll
        } else if has_attr(attrs, &["loop", "fastopt"]) {
            LoopControl::DontUnroll
        } else {
            LoopControl::None
        };
        self.jumps.push(true);
        let body = self.scoped(body);
        self.jumps.pop();
        Stmt::Loop {
            cond,
            step,
            body,
            do_while,
            control,
        }
    }

    /// The variables of a local declaration.
    fn locals<'u>(&mut self, d: &'u VarDecl) -> Vec<Local<'u>> {
        let has = |m: Modifier| d.modifiers.iter().any(|x| x.modifier == m);
        let konst = has(Modifier::Const);
        if has(Modifier::GroupShared) {
            self.error(d.span, "not supported yet: groupshared local variables");
            return Vec::new();
        }
        let is_static = has(Modifier::Static);
        if !is_static
            && d.ty.name.name == "auto"
            && d.ty.args.is_empty()
            && self.opts.version >= LanguageVersion::V202x
        {
            let mut out = Vec::new();
            for decl in &d.declarators {
                if !matches!(decl.init, Some(Initializer::Expr(_))) || !decl.array_dims.is_empty() {
                    self.error(
                        decl.name.span,
                        format!(
                            "not supported yet: 'auto' for '{}' without a single initializer \
                             expression",
                            decl.name.name
                        ),
                    );
                    continue;
                }
                self.declare(&decl.name, LocalConst::default());
                out.push(Local {
                    decl: d,
                    declarator: decl,
                    kind: LocalKind::Auto { konst },
                });
            }
            return out;
        }
        let Some((base, relaxed)) = self.with_resolver(|r| r.resolve_type(&d.ty)) else {
            return Vec::new();
        };
        if base.is_resource() {
            return self.resource_aliases(d, base, is_static);
        }
        if base == Ty::Void {
            if is_static {
                self.error(d.ty.span, "not supported yet: static locals of this type");
            } else {
                for decl in &d.declarators {
                    self.error(
                        decl.name.span,
                        format!("variable '{}' has incomplete type 'void'", decl.name.name),
                    );
                }
            }
            return Vec::new();
        }
        let mut out = Vec::new();
        for decl in &d.declarators {
            let Some(ty) = self.with_resolver(|r| {
                r.array_type(&base, &decl.array_dims, decl.init.as_ref(), decl.name.span)
            }) else {
                continue;
            };
            // The name is in scope in its own initializer, as in C++ (and not a constant
            // there).
            self.declare(&decl.name, LocalConst::default());
            if is_static {
                out.push(Local {
                    decl: d,
                    declarator: decl,
                    kind: LocalKind::Static { ty, konst },
                });
                continue;
            }
            let mut c = LocalConst::default();
            if konst {
                match &decl.init {
                    Some(init) => {
                        c.elements = self.with_resolver(|r| r.const_elements(&ty, init));
                        if let (Ty::Scalar(s), Initializer::Expr(e)) = (&ty, init) {
                            c.value = self
                                .with_resolver(|r| r.const_eval(e))
                                .filter(|_| s.is_int())
                                .filter(|c| matches!(c, ConstVal::Int(_) | ConstVal::Bool(_)));
                        }
                    }
                    None => self.error(
                        decl.span,
                        format!("const variable '{}' needs an initializer", decl.name.name),
                    ),
                }
            }
            self.consts.declare(&decl.name.name, c.clone());
            out.push(Local {
                decl: d,
                declarator: decl,
                kind: LocalKind::Var {
                    row_depth: row_depth(&d.ty, decl.array_dims.len()),
                    shape: if decl.array_dims.is_empty() {
                        written_matrix_shape(&d.ty)
                    } else {
                        None
                    },
                    ty,
                    konst,
                    relaxed,
                    value: c.value,
                    elements: c.elements,
                },
            });
        }
        out
    }

    /// Local resource variables: names for the resources their initializers name, which they
    /// stay (HLSL resources are handles; SPIR-V has no variables of them outside the
    /// legalizer's reach). One assigned again, or without an initializer, would need the
    /// legalizer.
    fn resource_aliases<'u>(&mut self, d: &'u VarDecl, ty: Ty, is_static: bool) -> Vec<Local<'u>> {
        let mut out = Vec::new();
        for decl in &d.declarators {
            let why = if !decl.array_dims.is_empty() {
                Some("local arrays of resources")
            } else if !matches!(decl.init, Some(Initializer::Expr(_))) {
                Some("a local resource variable without an initializer")
            } else if self.reassigned.contains(&decl.name.name) {
                Some("assigning to a local resource variable")
            } else {
                None
            };
            if let Some(why) = why {
                self.error(decl.name.span, format!("not supported yet: {why}"));
                continue;
            }
            self.declare(&decl.name, LocalConst::default());
            out.push(Local {
                decl: d,
                declarator: decl,
                kind: LocalKind::ResourceAlias {
                    ty: ty.clone(),
                    is_static,
                },
            });
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::hlsl::hir::{LocalKind, Module, Stmt};
    use crate::hlsl::sema::consteval::ConstVal;
    use crate::hlsl::sema::types::{Scalar, Ty};
    use crate::hlsl::Options;

    fn lower(src: &str, profile: &str) -> (Module<'static>, Vec<String>) {
        let opts = Options::new("main", profile.parse().unwrap());
        let parsed = crate::hlsl::parse("t.hlsl", src, &opts);
        assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
        let mut diags = Vec::new();
        // The bodies borrow the unit for as long as the test runs.
        let unit = Box::leak(Box::new(crate::hlsl::sema::names::resolve(
            parsed.unit,
            &mut diags,
        )));
        let m = crate::hlsl::sema::globals::declare_module(unit, &opts, &mut diags);
        (m, diags.into_iter().map(|d| d.message).collect())
    }

    /// The body of the (only overload of) function `name`.
    fn body<'m>(m: &'m Module<'static>, name: &str) -> &'m [Stmt<'static>] {
        let item = m.functions[name][0].item;
        &m.bodies[&item].stmts
    }

    #[test]
    fn locals_get_types_sized_by_local_constants_and_their_values() {
        let (m, diags) = lower(
            "[numthreads(1,1,1)] void main() { const uint n = 2 + 1; float a[n * 2]; \
             const int k[2] = { 4, 5 }; int b[k[1]]; }",
            "cs_6_0",
        );
        assert!(diags.is_empty(), "{diags:?}");
        let locals: Vec<_> = body(&m, "main")
            .iter()
            .flat_map(|s| match s {
                Stmt::Locals(l) => l.iter().collect::<Vec<_>>(),
                _ => Vec::new(),
            })
            .collect();
        let kinds: Vec<_> = locals.iter().map(|l| &l.kind).collect();
        match kinds.as_slice() {
            [LocalKind::Var {
                ty: Ty::Scalar(Scalar::UInt),
                value: Some(ConstVal::Int(3)),
                ..
            }, LocalKind::Var { ty: a, .. }, LocalKind::Var {
                elements: Some(k), ..
            }, LocalKind::Var { ty: b, .. }] => {
                assert_eq!(*a, Ty::Array(Box::new(Ty::Scalar(Scalar::Float)), 6));
                assert_eq!(k, &[ConstVal::Int(4), ConstVal::Int(5)]);
                assert_eq!(*b, Ty::Array(Box::new(Ty::Scalar(Scalar::Int)), 5));
            }
            other => panic!("unexpected locals: {other:?}"),
        }
    }

    #[test]
    fn a_local_variable_shadows_a_module_constant_in_sizes() {
        let (_, diags) = lower(
            "static const int n = 2; [numthreads(1,1,1)] void main() { int n = 3; float a[n]; }",
            "cs_6_0",
        );
        assert_eq!(diags.len(), 1, "{diags:?}");
    }

    #[test]
    fn jumps_returns_and_discard_are_checked_where_they_stand() {
        let (_, diags) = lower(
            "int f() { return; } [numthreads(1,1,1)] void main() { break; \
             switch (1) { case 1: continue; } f(); discard; int x; float x; }",
            "cs_6_0",
        );
        assert_eq!(
            diags,
            [
                "non-void function must return a value",
                "'break' outside a loop or switch",
                "'continue' outside a loop",
                "'discard' is only allowed in pixel shaders",
                "redefinition of 'x'",
            ]
        );
    }

    #[test]
    fn case_labels_are_folded_and_checked() {
        let (m, diags) = lower(
            "[numthreads(1,1,1)] void main() { const int a = 3; int s = 0; \
             switch (s) { case a: case a + 1: break; default: case 1 + 1: break; \
             case 4: break; default: break; } }",
            "cs_6_0",
        );
        assert_eq!(
            diags,
            [
                "duplicate case value 4",
                "multiple default labels in one switch"
            ]
        );
        let cases = body(&m, "main")
            .iter()
            .find_map(|s| match s {
                Stmt::Switch { cases, .. } => Some(cases),
                _ => None,
            })
            .unwrap();
        let shape: Vec<_> = cases
            .iter()
            .map(|c| (c.values.clone(), c.default))
            .collect();
        assert_eq!(
            shape,
            [
                (vec![3, 4], false),
                (vec![2], true),
                (vec![], false),
                (vec![], true)
            ]
        );
    }

    #[test]
    fn only_reached_functions_are_lowered_callees_first() {
        let (m, diags) = lower(
            "void unused() { break; } float g() { return 1; } float f() { return g(); } \
             float4 main() : SV_Target { return f(); }",
            "ps_6_0",
        );
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(
            m.order.as_deref(),
            Some(&["g", "f", "main"].map(String::from)[..])
        );
        assert_eq!(m.bodies.len(), 3);
    }

    #[test]
    fn recursion_and_a_missing_entry_point_stop_the_call_graph() {
        let (m, diags) = lower(
            "void f(); void g() { f(); } void f() { g(); } [numthreads(1,1,1)] void main() { f(); }",
            "cs_6_0",
        );
        assert!(m.order.is_none());
        assert!(diags[0].starts_with("recursive call to"), "{diags:?}");
        let (m, diags) = lower("void f() {}", "cs_6_0");
        assert!(m.order.is_none() && m.bodies.is_empty());
        assert_eq!(diags, ["missing entry point definition 'main'"]);
    }
}
