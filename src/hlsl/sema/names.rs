//! Name resolution for namespaces, `using` and member functions: the parser's tree, with its
//! nested namespaces and methods, becomes a flat tree where every global name is written fully
//! qualified (`A::B::f`), every method is a free function `S.m` whose first parameter is `this`,
//! and every implicit member reference inside a method is explicit (`x` → `this.x`,
//! `g()` → `this.g()`, a static member `n` → `S::n`). Code generation then looks names up
//! exactly, without knowing about scopes of namespaces or structs.
//!
//! Lookup follows C++: an unqualified name is searched from the innermost enclosing namespace
//! outwards, then through the `using` declarations in force; a local variable or parameter
//! hides them all.

use crate::hlsl::ast::*;
use crate::hlsl::diag::Diagnostic;
use crate::hlsl::source::Span;
use std::collections::{HashMap, HashSet};

/// The name of the hidden first member that holds a derived struct's base (empty, so no
/// source name can reach it by accident).
pub const BASE_FIELD: &str = "";

/// What a global name is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Namespace,
    Type,
    Value,
    Function,
}

/// A struct's members, for implicit `this`.
#[derive(Clone, Debug, Default)]
struct StructInfo {
    fields: HashSet<String>,
    /// Method name → whether it is static.
    methods: HashMap<String, bool>,
    statics: HashSet<String>,
    /// The qualified name of the base struct.
    base: Option<String>,
}

/// Flattens namespaces, qualifies names and turns methods into functions; problems go to
/// `diags`.
pub fn resolve(unit: TranslationUnit, diags: &mut Vec<Diagnostic>) -> TranslationUnit {
    let mut r = Resolver::default();
    r.collect(&unit.items, &mut Vec::new());
    let mut out = Vec::with_capacity(unit.items.len());
    r.usings.push(Vec::new());
    r.items(unit.items, &mut out);
    // Static members never defined out of line keep their in-struct declaration.
    let mut pending: Vec<_> = r.pending_statics.drain().collect();
    pending.sort_by_key(|(_, (k, _))| *k);
    for (n, (_, (k, v))) in pending.into_iter().enumerate() {
        out.insert((k + n).min(out.len()), Item::Variables(v));
    }
    diags.append(&mut r.diags);
    TranslationUnit { items: out }
}

#[derive(Default)]
struct Resolver {
    globals: HashMap<String, Kind>,
    structs: HashMap<String, StructInfo>,
    /// Functions' parameters that are `out` or `inout` (any overload), for the mutation check.
    outs: HashMap<String, Vec<bool>>,
    ns: Vec<String>,
    /// Per namespace level: `(target, is_directive)` of the `using`s in force.
    usings: Vec<Vec<(String, bool)>>,
    /// Local names of the function being rewritten, innermost scope last.
    locals: Vec<HashSet<String>>,
    /// The struct whose method is being rewritten.
    cur_struct: Option<String>,
    /// Whether that method has `this` (is not static).
    has_this: bool,
    /// Static data members declared without a value (`static float4 M;`), by qualified name,
    /// with where they go if no out-of-line definition (`float4 S::M = ...;`) replaces them.
    pending_statics: HashMap<String, (usize, VarDecl)>,
    diags: Vec<Diagnostic>,
}

/// `prefix::name`, or `name` at file level.
fn join(prefix: &[String], name: &str) -> String {
    if prefix.is_empty() {
        name.to_owned()
    } else {
        format!("{}::{name}", prefix.join("::"))
    }
}

fn ident(name: &str, span: Span) -> Ident {
    Ident {
        name: name.to_owned(),
        span,
    }
}

fn expr(kind: ExprKind, span: Span) -> Expr {
    Expr { kind, span }
}

impl Resolver {
    // ---- pass 1: what every qualified name is --------------------------------------------

    fn declare(&mut self, name: String, kind: Kind) {
        // A type and a value may share a name only as a struct and its forward declaration;
        // the first kind wins (types before values), which is what lookups need.
        self.globals.entry(name).or_insert(kind);
    }

    fn collect(&mut self, items: &[Item], ns: &mut Vec<String>) {
        for item in items {
            match item {
                Item::Namespace { name, items, .. } => {
                    let depth = ns.len();
                    for part in name.name.split("::") {
                        ns.push(part.to_owned());
                        self.declare(ns.join("::"), Kind::Namespace);
                    }
                    self.collect(items, ns);
                    ns.truncate(depth);
                }
                Item::Struct(s) => {
                    let Some(n) = &s.name else { continue };
                    let q = join(ns, &n.name);
                    self.declare(q.clone(), Kind::Type);
                    let mut info = StructInfo::default();
                    for f in &s.fields {
                        info.fields
                            .extend(f.declarators.iter().map(|d| d.name.name.clone()));
                    }
                    for v in &s.statics {
                        for d in &v.declarators {
                            info.statics.insert(d.name.name.clone());
                            self.declare(format!("{q}::{}", d.name.name), Kind::Value);
                        }
                    }
                    for m in &s.methods {
                        let is_static = m.modifiers.iter().any(|m| m.modifier == Modifier::Static);
                        info.methods.insert(m.name.name.clone(), is_static);
                        self.record_outs(&format!("{q}.{}", m.name.name), m, !is_static);
                    }
                    info.base = s.base.as_ref().and_then(|b| {
                        let saved = std::mem::replace(&mut self.ns, ns.clone());
                        let found = self.lookup(&b.name.name, |k| k == Kind::Type);
                        self.ns = saved;
                        found
                    });
                    self.structs.insert(q, info);
                }
                Item::Typedef(t) => self.declare(join(ns, &t.name.name), Kind::Type),
                Item::Variables(v) => {
                    for d in &v.declarators {
                        self.declare(join(ns, &d.name.name), Kind::Value);
                    }
                }
                Item::Buffer(b) => {
                    for m in &b.members {
                        for d in &m.declarators {
                            self.declare(join(ns, &d.name.name), Kind::Value);
                        }
                    }
                }
                Item::Function(f) => {
                    if !f.name.name.contains("::") {
                        let q = join(ns, &f.name.name);
                        self.record_outs(&q, f, false);
                        self.declare(q, Kind::Function);
                    }
                }
                Item::Using { .. } | Item::Empty(_) => {}
            }
        }
    }

    fn record_outs(&mut self, name: &str, f: &FunctionDecl, this: bool) {
        let mut outs: Vec<bool> = f
            .params
            .iter()
            .map(|p| {
                p.modifiers
                    .iter()
                    .any(|m| matches!(m.modifier, Modifier::Out | Modifier::InOut))
            })
            .collect();
        if this {
            outs.insert(0, false);
        }
        let entry = self.outs.entry(name.to_owned()).or_default();
        for (k, o) in outs.into_iter().enumerate() {
            if k < entry.len() {
                entry[k] |= o;
            } else {
                entry.push(o);
            }
        }
    }

    // ---- lookup ------------------------------------------------------------------------

    /// The qualified name `name` (as written, maybe qualified) refers to from the current
    /// namespace, if it is a global of a wanted kind.
    fn lookup(&self, name: &str, want: impl Fn(Kind) -> bool) -> Option<String> {
        if let Some(abs) = name.strip_prefix("::") {
            return self
                .globals
                .get(abs)
                .filter(|k| want(**k))
                .map(|_| abs.to_owned());
        }
        for k in (0..=self.ns.len()).rev() {
            let cand = join(&self.ns[..k], name);
            if self.globals.get(&cand).is_some_and(|k| want(*k)) {
                return Some(cand);
            }
        }
        let (first, rest) = match name.split_once("::") {
            Some((f, r)) => (f, Some(r)),
            None => (name, None),
        };
        for level in self.usings.iter().rev() {
            for (target, directive) in level.iter().rev() {
                let cand = if *directive {
                    format!("{target}::{name}")
                } else if target.rsplit("::").next() == Some(first) {
                    match rest {
                        Some(r) => format!("{target}::{r}"),
                        None => target.clone(),
                    }
                } else {
                    continue;
                };
                if self.globals.get(&cand).is_some_and(|k| want(*k)) {
                    return Some(cand);
                }
            }
        }
        None
    }

    fn is_local(&self, name: &str) -> bool {
        self.locals.iter().any(|s| s.contains(name))
    }

    fn declare_local(&mut self, name: &str) {
        if let Some(s) = self.locals.last_mut() {
            s.insert(name.to_owned());
        }
    }

    /// The struct (this one or a base) that declares member `name` of `s`, with the path of
    /// base hops to it.
    fn member_owner(
        &self,
        s: &str,
        mut has: impl FnMut(&StructInfo) -> bool,
    ) -> Option<(String, usize)> {
        let mut cur = s.to_owned();
        for hops in 0..32 {
            let info = self.structs.get(&cur)?;
            if has(info) {
                return Some((cur, hops));
            }
            cur = info.base.clone()?;
        }
        None
    }

    // ---- pass 2: rewriting -------------------------------------------------------------

    fn items(&mut self, items: Vec<Item>, out: &mut Vec<Item>) {
        for item in items {
            match item {
                Item::Namespace { name, items, .. } => {
                    let depth = self.ns.len();
                    self.ns.extend(name.name.split("::").map(str::to_owned));
                    self.usings.push(Vec::new());
                    self.items(items, out);
                    self.usings.pop();
                    self.ns.truncate(depth);
                }
                Item::Using {
                    target,
                    namespace,
                    span,
                } => {
                    let want = |k| {
                        if namespace {
                            k == Kind::Namespace
                        } else {
                            k != Kind::Namespace
                        }
                    };
                    match self.lookup(&target.name, want) {
                        Some(q) => {
                            if let Some(level) = self.usings.last_mut() {
                                level.push((q, namespace));
                            }
                        }
                        None => {
                            let what = if namespace { "namespace" } else { "name" };
                            self.diags.push(Diagnostic::error(
                                span,
                                format!("no {what} named '{}'", target.name),
                            ));
                        }
                    }
                }
                Item::Struct(s) => self.struct_item(s, out),
                Item::Typedef(mut t) => {
                    self.type_expr(&mut t.ty);
                    t.name.name = join(&self.ns, &t.name.name);
                    out.push(Item::Typedef(t));
                }
                Item::Variables(mut v) => {
                    self.var_decl(&mut v, false);
                    for d in &mut v.declarators {
                        d.name.name = self
                            .static_definition(&d.name.name)
                            .unwrap_or_else(|| join(&self.ns, &d.name.name));
                    }
                    // `float4 S::M = ...;` defines a static member: it keeps the member's
                    // `static` (and `const`).
                    if let [d] = v.declarators.as_slice() {
                        if let Some((_, decl)) = self.pending_statics.remove(&d.name.name) {
                            for m in decl.modifiers {
                                if !v.modifiers.iter().any(|x| x.modifier == m.modifier) {
                                    v.modifiers.push(m);
                                }
                            }
                        }
                    }
                    out.push(Item::Variables(v));
                }
                Item::Buffer(mut b) => {
                    for m in &mut b.members {
                        self.var_decl(m, false);
                        for d in &mut m.declarators {
                            d.name.name = join(&self.ns, &d.name.name);
                        }
                    }
                    out.push(Item::Buffer(b));
                }
                Item::Function(f) => self.function_item(f, out),
                Item::Empty(s) => out.push(Item::Empty(s)),
            }
        }
    }

    /// The qualified name of the static member an out-of-line definition names, if it does.
    fn static_definition(&self, written: &str) -> Option<String> {
        let (owner, member) = written.rsplit_once("::")?;
        let s = self.lookup(owner, |k| k == Kind::Type)?;
        let q = format!("{s}::{member}");
        self.pending_statics.contains_key(&q).then_some(q)
    }

    fn struct_item(&mut self, mut s: StructDecl, out: &mut Vec<Item>) {
        let q = s.name.as_ref().map(|n| join(&self.ns, &n.name));
        if let Some(b) = &mut s.base {
            self.type_expr(b);
        }
        // Field types and array sizes see the struct's static members.
        self.cur_struct = q.clone();
        for f in &mut s.fields {
            self.var_decl(f, false);
        }
        let methods = std::mem::take(&mut s.methods);
        let mut statics = std::mem::take(&mut s.statics);
        for v in &mut statics {
            self.var_decl(v, false);
        }
        self.cur_struct = None;
        let own_name = s.name.as_ref().map(|n| n.name.clone());
        if let (Some(n), Some(q)) = (&mut s.name, &q) {
            n.name = q.clone();
        }
        let Some(q) = q else {
            out.push(Item::Struct(s));
            if let Some(m) = methods.first() {
                self.diags.push(Diagnostic::error(
                    m.name.span,
                    "not supported yet: member functions of an anonymous struct",
                ));
            }
            return;
        };
        // Statics come before the struct (its array sizes may use them), except those of the
        // struct's own type, which need it declared.
        let mut after = Vec::new();
        for mut v in statics {
            for d in &mut v.declarators {
                d.name.name = format!("{q}::{}", d.name.name);
            }
            let own = [Some(&q), own_name.as_ref()].contains(&Some(&v.ty.name.name));
            let undefined = v.declarators.len() == 1 && v.declarators[0].init.is_none();
            if undefined {
                let at = out.len() + usize::from(own);
                self.pending_statics
                    .insert(v.declarators[0].name.name.clone(), (at, v));
            } else if own {
                after.push(Item::Variables(v));
            } else {
                out.push(Item::Variables(v));
            }
        }
        out.push(Item::Struct(s));
        out.extend(after);
        for m in methods {
            self.method(&q, m, out);
        }
    }

    /// A method of struct `q` as the free function `q.name`, with `this` first unless static.
    fn method(&mut self, q: &str, mut f: FunctionDecl, out: &mut Vec<Item>) {
        let is_static = f.modifiers.iter().any(|m| m.modifier == Modifier::Static);
        let span = f.name.span;
        f.name.name = format!("{q}.{}", f.name.name);
        self.cur_struct = Some(q.to_owned());
        self.has_this = !is_static;
        let saved_ns = self.ns.clone();
        // A method's body sees the struct's namespace (for an out-of-line definition too).
        if let Some((ns, _)) = q.rsplit_once("::") {
            self.ns = ns.split("::").map(str::to_owned).collect();
        } else {
            self.ns.clear();
        }
        self.function_body(&mut f);
        self.ns = saved_ns;
        self.cur_struct = None;
        self.has_this = false;
        if !is_static {
            let mutating = f.body.as_ref().is_some_and(|b| self.block_mutates(b));
            let modifier = |modifier| ModifierSpan { modifier, span };
            f.params.insert(
                0,
                Param {
                    attributes: Vec::new(),
                    modifiers: vec![modifier(if mutating {
                        Modifier::InOut
                    } else {
                        Modifier::Const
                    })],
                    ty: TypeExpr {
                        name: ident(q, span),
                        args: Vec::new(),
                        span,
                    },
                    name: Some(ident("this", span)),
                    array_dims: Vec::new(),
                    annotations: Vec::new(),
                    default: None,
                    span,
                },
            );
        }
        out.push(Item::Function(f));
    }

    fn function_item(&mut self, mut f: FunctionDecl, out: &mut Vec<Item>) {
        let written = f.name.name.clone();
        if let Some((owner, method)) = written.rsplit_once("::") {
            // `R S::m(...) { }`: an out-of-line method definition.
            if let Some(s) = self.lookup(owner, |k| k == Kind::Type) {
                if self
                    .structs
                    .get(&s)
                    .is_some_and(|i| i.methods.contains_key(method))
                {
                    let is_static = self.structs[&s].methods[method];
                    if is_static && !f.modifiers.iter().any(|m| m.modifier == Modifier::Static) {
                        f.modifiers.push(ModifierSpan {
                            modifier: Modifier::Static,
                            span: f.name.span,
                        });
                    }
                    f.name.name = method.to_owned();
                    self.method(&s, f, out);
                    return;
                }
            }
            match self.lookup(&written, |k| k == Kind::Function) {
                Some(q) => f.name.name = q,
                None => {
                    self.diags.push(Diagnostic::error(
                        f.name.span,
                        format!("no function named '{written}' was declared"),
                    ));
                    return;
                }
            }
        } else {
            f.name.name = join(&self.ns, &written);
        }
        self.function_body(&mut f);
        out.push(Item::Function(f));
    }

    fn function_body(&mut self, f: &mut FunctionDecl) {
        self.type_expr(&mut f.return_ty);
        self.locals.push(HashSet::new());
        for p in &mut f.params {
            self.type_expr(&mut p.ty);
            for d in p.array_dims.iter_mut().flatten() {
                self.expr(d);
            }
            if let Some(d) = &mut p.default {
                self.expr(d);
            }
            if let Some(n) = &p.name {
                let n = n.name.clone();
                self.declare_local(&n);
            }
        }
        if let Some(b) = &mut f.body {
            self.block(b);
        }
        self.locals.pop();
    }

    fn type_expr(&mut self, t: &mut TypeExpr) {
        for a in &mut t.args {
            match a {
                TemplateArg::Type(t) => self.type_expr(t),
                TemplateArg::Expr(e) => self.expr(e),
            }
        }
        if let Some(q) = self.lookup(&t.name.name, |k| k == Kind::Type) {
            t.name.name = q;
        }
    }

    /// Rewrites a declaration's type and initializers; `local` declares its names as locals
    /// (after their initializers, as C++ scopes them).
    fn var_decl(&mut self, v: &mut VarDecl, local: bool) {
        self.type_expr(&mut v.ty);
        for d in &mut v.declarators {
            for e in d.array_dims.iter_mut().flatten() {
                self.expr(e);
            }
            if let Some(i) = &mut d.init {
                self.initializer(i);
            }
            if local {
                let n = d.name.name.clone();
                self.declare_local(&n);
            }
        }
    }

    fn initializer(&mut self, i: &mut Initializer) {
        match i {
            Initializer::Expr(e) => self.expr(e),
            Initializer::List(items, _) => items.iter_mut().for_each(|i| self.initializer(i)),
        }
    }

    fn block(&mut self, b: &mut Block) {
        self.locals.push(HashSet::new());
        for s in &mut b.stmts {
            self.stmt(s);
        }
        self.locals.pop();
    }

    fn stmt(&mut self, s: &mut Stmt) {
        match &mut s.kind {
            StmtKind::Block(b) => self.block(b),
            StmtKind::Expr(e) => self.expr(e),
            StmtKind::Decl(v) => self.var_decl(v, true),
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                self.expr(cond);
                self.scoped_stmt(then);
                if let Some(o) = otherwise {
                    self.scoped_stmt(o);
                }
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                self.locals.push(HashSet::new());
                if let Some(i) = init {
                    self.stmt(i);
                }
                if let Some(c) = cond {
                    self.expr(c);
                }
                if let Some(st) = step {
                    self.expr(st);
                }
                self.scoped_stmt(body);
                self.locals.pop();
            }
            StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
                self.expr(cond);
                self.scoped_stmt(body);
            }
            StmtKind::Switch { selector, cases } => {
                self.expr(selector);
                self.locals.push(HashSet::new());
                for c in cases {
                    for (l, _) in &mut c.labels {
                        if let Some(l) = l {
                            self.expr(l);
                        }
                    }
                    for s in &mut c.body {
                        self.stmt(s);
                    }
                }
                self.locals.pop();
            }
            StmtKind::Return(Some(e)) => self.expr(e),
            StmtKind::Return(None)
            | StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Discard
            | StmtKind::Empty => {}
        }
    }

    fn scoped_stmt(&mut self, s: &mut Stmt) {
        self.locals.push(HashSet::new());
        self.stmt(s);
        self.locals.pop();
    }

    fn this(span: Span) -> Expr {
        expr(ExprKind::Ident(ident("this", span)), span)
    }

    /// `this` reaching the base `hops` levels up.
    fn this_base(span: Span, hops: usize) -> Expr {
        let mut e = Self::this(span);
        for _ in 0..hops {
            e = expr(
                ExprKind::Member {
                    base: Box::new(e),
                    member: ident(BASE_FIELD, span),
                },
                span,
            );
        }
        e
    }

    fn expr(&mut self, e: &mut Expr) {
        let span = e.span;
        match &mut e.kind {
            ExprKind::Ident(id) => {
                if id.name.contains("::") || !self.is_local(&id.name) {
                    if let Some(new) = self.name_expr(id) {
                        e.kind = new;
                    }
                }
            }
            ExprKind::Call { callee, args } => {
                args.iter_mut().for_each(|a| self.expr(a));
                if !callee.name.contains("::") && self.is_local(&callee.name) {
                    return;
                }
                if let Some(new) = self.call_expr(callee, args, span) {
                    e.kind = new;
                }
            }
            ExprKind::MethodCall { receiver, args, .. } => {
                self.expr(receiver);
                args.iter_mut().for_each(|a| self.expr(a));
            }
            ExprKind::Construct { ty, args } => {
                self.type_expr(ty);
                args.iter_mut().for_each(|a| self.expr(a));
            }
            ExprKind::Cast {
                ty,
                array_dims,
                operand,
            } => {
                self.type_expr(ty);
                array_dims.iter_mut().flatten().for_each(|d| self.expr(d));
                self.expr(operand);
            }
            ExprKind::Member { base, .. } => self.expr(base),
            ExprKind::Index { base, index } => {
                self.expr(base);
                self.expr(index);
            }
            ExprKind::Unary { operand, .. } => self.expr(operand),
            ExprKind::Binary { lhs, rhs, .. }
            | ExprKind::Assign { lhs, rhs, .. }
            | ExprKind::Comma(lhs, rhs) => {
                self.expr(lhs);
                self.expr(rhs);
            }
            ExprKind::Conditional {
                cond,
                then,
                otherwise,
            } => {
                self.expr(cond);
                self.expr(then);
                self.expr(otherwise);
            }
            ExprKind::InitList(items) => items.iter_mut().for_each(|i| self.expr(i)),
            ExprKind::Literal(_) => {}
        }
    }

    /// What a (non-local) name in an expression means, when it is not what is written.
    fn name_expr(&mut self, id: &Ident) -> Option<ExprKind> {
        let span = id.span;
        if let Some(s) = self.cur_struct.clone().filter(|_| !id.name.contains("::")) {
            let name = id.name.clone();
            if let Some((owner, hops)) = self.member_owner(&s, |i| {
                i.fields.contains(&name) || i.statics.contains(&name)
            }) {
                if self.structs[&owner].statics.contains(&name) {
                    return Some(ExprKind::Ident(ident(&format!("{owner}::{name}"), span)));
                }
                if !self.has_this {
                    self.diags.push(Diagnostic::error(
                        span,
                        format!("invalid use of member '{name}' in a static member function"),
                    ));
                    return None;
                }
                return Some(ExprKind::Member {
                    base: Box::new(Self::this_base(span, hops)),
                    member: id.clone(),
                });
            }
        }
        let q = self.lookup(&id.name, |k| k == Kind::Value)?;
        (q != id.name).then(|| ExprKind::Ident(ident(&q, span)))
    }

    /// What a call means, when it is not a call of the name as written.
    fn call_expr(&mut self, callee: &Ident, args: &mut Vec<Expr>, span: Span) -> Option<ExprKind> {
        let name = callee.name.clone();
        if let Some(s) = self.cur_struct.clone() {
            if !name.contains("::") {
                if let Some((owner, hops)) =
                    self.member_owner(&s, |i| i.methods.contains_key(&name))
                {
                    if self.structs[&owner].methods[&name] {
                        return Some(ExprKind::Call {
                            callee: ident(&format!("{owner}.{name}"), callee.span),
                            args: std::mem::take(args),
                        });
                    }
                    if !self.has_this {
                        self.diags.push(Diagnostic::error(
                            callee.span,
                            format!(
                                "call to non-static member function '{name}' without an object"
                            ),
                        ));
                        return None;
                    }
                    return Some(ExprKind::MethodCall {
                        receiver: Box::new(Self::this_base(span, hops)),
                        method: callee.clone(),
                        args: std::mem::take(args),
                    });
                }
            }
        }
        if let Some((owner, method)) = name.rsplit_once("::") {
            if let Some(s) = self.lookup(owner, |k| k == Kind::Type) {
                let Some(&is_static) = self.structs.get(&s).and_then(|i| i.methods.get(method))
                else {
                    self.diags.push(Diagnostic::error(
                        callee.span,
                        format!("no member function named '{method}' in '{s}'"),
                    ));
                    return None;
                };
                if is_static {
                    return Some(ExprKind::Call {
                        callee: ident(&format!("{s}.{method}"), callee.span),
                        args: std::mem::take(args),
                    });
                }
                // `Base::m()` inside a derived struct's method: `m` of the base part of `this`.
                let this = self.cur_struct.clone().filter(|_| self.has_this);
                let hops = this.and_then(|t| {
                    let mut cur = t;
                    for hops in 0..32 {
                        if cur == s {
                            return Some(hops);
                        }
                        cur = self.structs.get(&cur)?.base.clone()?;
                    }
                    None
                });
                let Some(hops) = hops else {
                    self.diags.push(Diagnostic::error(
                        callee.span,
                        format!("call to non-static member function '{name}' without an object"),
                    ));
                    return None;
                };
                return Some(ExprKind::MethodCall {
                    receiver: Box::new(Self::this_base(span, hops)),
                    method: ident(method, callee.span),
                    args: std::mem::take(args),
                });
            }
        }
        let q = self.lookup(&name, |k| k == Kind::Function)?;
        (q != name).then(|| ExprKind::Call {
            callee: ident(&q, callee.span),
            args: std::mem::take(args),
        })
    }

    // ---- does a method write `this`? ---------------------------------------------------

    /// Whether a method body may change `this` (conservatively). A method that does not is
    /// given a `const` `this`, so a write the check missed is still an error, never lost.
    fn block_mutates(&self, b: &Block) -> bool {
        b.stmts.iter().any(|s| self.stmt_mutates(s))
    }

    fn stmt_mutates(&self, s: &Stmt) -> bool {
        let e = |x: &Expr| self.expr_mutates(x);
        match &s.kind {
            StmtKind::Block(b) => self.block_mutates(b),
            StmtKind::Expr(x) | StmtKind::Return(Some(x)) => e(x),
            StmtKind::Decl(v) => v
                .declarators
                .iter()
                .any(|d| d.init.as_ref().is_some_and(|i| self.init_mutates(i))),
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                e(cond)
                    || self.stmt_mutates(then)
                    || otherwise.as_ref().is_some_and(|o| self.stmt_mutates(o))
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                init.as_ref().is_some_and(|i| self.stmt_mutates(i))
                    || cond.as_ref().is_some_and(e)
                    || step.as_ref().is_some_and(e)
                    || self.stmt_mutates(body)
            }
            StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
                e(cond) || self.stmt_mutates(body)
            }
            StmtKind::Switch { selector, cases } => {
                e(selector)
                    || cases
                        .iter()
                        .flat_map(|c| &c.body)
                        .any(|s| self.stmt_mutates(s))
            }
            _ => false,
        }
    }

    fn init_mutates(&self, i: &Initializer) -> bool {
        match i {
            Initializer::Expr(e) => self.expr_mutates(e),
            Initializer::List(items, _) => items.iter().any(|i| self.init_mutates(i)),
        }
    }

    fn expr_mutates(&self, e: &Expr) -> bool {
        let m = |x: &Expr| self.expr_mutates(x);
        match &e.kind {
            ExprKind::Assign { lhs, rhs, .. } => rooted_at_this(lhs) || m(lhs) || m(rhs),
            ExprKind::Unary { op, operand } => {
                (matches!(
                    op,
                    UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec
                ) && rooted_at_this(operand))
                    || m(operand)
            }
            ExprKind::Call { callee, args } => {
                let outs = self.outs.get(&callee.name);
                let intrinsic_out = outs.is_none()
                    && (callee.name.starts_with("Interlocked")
                        || matches!(callee.name.as_str(), "sincos" | "modf" | "frexp" | "asuint"));
                args.iter().enumerate().any(|(k, a)| {
                    let out =
                        intrinsic_out || outs.is_some_and(|o| o.get(k).copied().unwrap_or(false));
                    (out && rooted_at_this(a)) || m(a)
                })
            }
            ExprKind::MethodCall { receiver, args, .. } => {
                rooted_at_this(receiver)
                    || m(receiver)
                    || args.iter().any(|a| m(a) || rooted_at_this(a))
            }
            ExprKind::Binary { lhs, rhs, .. } | ExprKind::Comma(lhs, rhs) => m(lhs) || m(rhs),
            ExprKind::Conditional {
                cond,
                then,
                otherwise,
            } => m(cond) || m(then) || m(otherwise),
            ExprKind::Construct { args, .. } | ExprKind::InitList(args) => args.iter().any(m),
            ExprKind::Cast { operand, .. } => m(operand),
            ExprKind::Member { base, .. } => m(base),
            ExprKind::Index { base, index } => m(base) || m(index),
            ExprKind::Literal(_) | ExprKind::Ident(_) => false,
        }
    }
}

/// Whether an lvalue expression is `this` or a part of it.
fn rooted_at_this(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Ident(id) => id.name == "this",
        ExprKind::Member { base, .. } | ExprKind::Index { base, .. } => rooted_at_this(base),
        _ => false,
    }
}
