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
use crate::hlsl::sema::consteval::{eval_sign_agnostic, ConstVal};
use crate::hlsl::source::Span;
use std::collections::{HashMap, HashSet};

/// How deep instantiations may nest inside one another.
const MAX_INSTANTIATION_DEPTH: usize = 64;

/// How many instances one unit may make.
const MAX_INSTANCES: usize = 4096;

/// The name of the hidden first member that holds a derived struct's base (empty, so no
/// source name can reach it by accident).
pub const BASE_FIELD: &str = "";

/// The static member a variable template is made of (`template <class T> static const
/// bool v = ...;` is a struct template `v` with this member; no source can spell it).
pub const VAR_MEMBER: &str = "#var";

/// What a global name is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Namespace,
    Type,
    Value,
    Function,
    /// A struct or alias template.
    TypeTemplate,
    /// A function template.
    FunctionTemplate,
}

/// A template as declared, with the namespace it was declared in.
#[derive(Clone, Debug)]
struct TemplateDef {
    params: Vec<TemplateParam>,
    item: Item,
    ns: Vec<String>,
    /// Whether it has a definition (`template <class T> class S;` has none).
    defined: bool,
    /// The struct a member function template belongs to.
    owner: Option<String>,
}

/// A struct's members, for implicit `this`.
#[derive(Clone, Debug, Default)]
struct StructInfo {
    fields: HashSet<String>,
    /// Method name → whether it is static.
    methods: HashMap<String, bool>,
    /// Field types as written, for deduction.
    field_types: HashMap<String, TypeExpr>,
    statics: HashSet<String>,
    /// Member function template name → whether it is static.
    method_templates: HashMap<String, bool>,
    /// The qualified name of the base struct.
    base: Option<String>,
}

/// One scope of a function body: its variables and its local type aliases.
#[derive(Clone, Debug, Default)]
struct LocalScope {
    /// Variables and parameters with their declared type (`None` for arrays: deduction does
    /// not look inside).
    vars: HashMap<String, Option<TypeExpr>>,
    /// The arrays among them: element type and number of dimensions (deduction looks at
    /// an element indexed as deep as declared).
    arrays: HashMap<String, (TypeExpr, usize)>,
    /// Local type aliases (`using T = type;`, `typedef type T;`) and the type each stands
    /// for, already rewritten, so a use is exactly the aliased type (one instance key, as a
    /// template's type parameter).
    types: HashMap<String, TypeExpr>,
}

/// Flattens namespaces, qualifies names and turns methods into functions; problems go to
/// `diags`.
pub fn resolve(unit: TranslationUnit, diags: &mut Vec<Diagnostic>) -> TranslationUnit {
    let mut r = Resolver::default();
    let pack_row_major = unit.pack_row_major;
    r.collect(&unit.items, &mut Vec::new());
    let mut out = Vec::with_capacity(unit.items.len());
    r.usings.push(Vec::new());
    r.items(unit.items, &mut out);
    // Static members never defined out of line keep their in-struct declaration, except
    // constant ones: a constant has no value without its definition (DXC rejects a use).
    let mut pending: Vec<_> = r.pending_statics.drain().collect();
    pending.sort_by_key(|(_, (k, _))| *k);
    let mut n = 0;
    for (name, (k, v)) in pending {
        if v.modifiers.iter().any(|m| m.modifier == Modifier::Const) {
            if let Some(&at) = r.static_uses.get(&name) {
                r.diags.push(Diagnostic::error(
                    at,
                    format!("the constant static member '{name}' is used but never defined"),
                ));
            }
            continue;
        }
        out.insert((k + n).min(out.len()), Item::Variables(v));
        n += 1;
    }
    diags.append(&mut r.diags);
    TranslationUnit {
        items: out,
        pack_row_major,
    }
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
    locals: Vec<LocalScope>,
    /// File-level typedefs made of the local aliases of the function being rewritten that
    /// have array dimensions or modifiers (a type expression cannot carry them): they go just
    /// before the function.
    alias_items: Vec<Item>,
    /// How many such typedefs were made, for their unique names.
    alias_count: usize,
    /// Values of the integer and bool `static const` scalars folded so far (enumerators among
    /// them), by qualified name: a template's value argument may name them.
    consts: HashMap<String, ConstVal>,
    /// The struct whose method is being rewritten.
    cur_struct: Option<String>,
    /// Whether that method has `this` (is not static).
    has_this: bool,
    /// Templates by qualified name.
    templates: HashMap<String, TemplateDef>,
    /// Explicit specializations of struct templates: template → canonical argument key →
    /// the specialized struct.
    specs: HashMap<String, HashMap<String, StructDecl>>,
    /// Partial specializations of struct templates: template → (parameters, the struct with
    /// its pattern in `spec_args`), in declaration order.
    partials: HashMap<String, Vec<(Vec<TemplateParam>, StructDecl)>>,
    /// Template value parameters in scope of an instance (`S<4>::N`), with their argument.
    value_params: HashMap<String, Expr>,
    /// Typedefs (template parameters included) by qualified name: whether they add array
    /// dimensions, and the (rewritten) type they name.
    typedefs: HashMap<String, (bool, TypeExpr)>,
    /// Instantiations made (`square<int>`).
    instances: HashSet<String>,
    /// How many instantiations are being made inside one another.
    depth: usize,
    /// Template type parameters in scope of an instance (`S<float>::T`), with their argument.
    type_params: HashMap<String, TypeExpr>,
    /// Instantiations made while rewriting the current top-level item: they go before it.
    pending: Vec<Item>,
    /// The namespace each struct was declared in (its methods' bodies see it).
    struct_ns: HashMap<String, Vec<String>>,
    /// Declared types of global variables, for template argument deduction.
    var_types: HashMap<String, TypeExpr>,
    /// Element types and dimensions of global arrays, for deduction from their elements.
    array_types: HashMap<String, (TypeExpr, usize)>,
    /// Declared return types of functions (every overload), for deduction.
    returns: HashMap<String, Vec<TypeExpr>>,
    /// Static data members declared without a value (`static float4 M;`), by qualified name,
    /// with where they go if no out-of-line definition (`float4 S::M = ...;`) replaces them.
    pending_statics: HashMap<String, (usize, VarDecl)>,
    /// Where each static member was first used, for the error on one never defined.
    static_uses: HashMap<String, Span>,
    diags: Vec<Diagnostic>,
}

/// The expressions among `t`'s template arguments, at any depth, into `out`.
fn type_exprs<'a>(t: &'a TypeExpr, out: &mut Vec<&'a Expr>) {
    for a in &t.args {
        match a {
            TemplateArg::Type(t) => type_exprs(t, out),
            TemplateArg::Expr(e) => out.push(e),
        }
    }
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
                    self.struct_info(&q, s, ns);
                }
                Item::Template {
                    item,
                    params,
                    defined,
                    ..
                } => {
                    let partial = matches!(&**item, Item::Struct(s) if !s.spec_args.is_empty());
                    if params.is_empty() || partial {
                        // A specialization: recorded when pass 2 reaches it.
                        continue;
                    }
                    let (name, kind) = match &**item {
                        Item::Function(f) => (f.name.name.clone(), Kind::FunctionTemplate),
                        Item::Typedef(t) => (t.name.name.clone(), Kind::TypeTemplate),
                        Item::Struct(s) => (
                            s.name.as_ref().map_or(String::new(), |n| n.name.clone()),
                            Kind::TypeTemplate,
                        ),
                        _ => continue,
                    };
                    let q = join(ns, &name);
                    self.declare(q.clone(), kind);
                    self.templates.insert(
                        q,
                        TemplateDef {
                            params: params.clone(),
                            item: (**item).clone(),
                            ns: ns.clone(),
                            defined: *defined,
                            owner: None,
                        },
                    );
                }
                Item::Typedef(t) => self.declare(join(ns, &t.name.name), Kind::Type),
                Item::StructForward(n) => self.declare(join(ns, &n.name), Kind::Type),
                Item::Variables(v) => {
                    for d in &v.declarators {
                        let q = join(ns, &d.name.name);
                        if d.array_dims.is_empty() {
                            self.var_types.insert(q.clone(), v.ty.clone());
                        } else {
                            let elem = (v.ty.clone(), d.array_dims.len());
                            self.array_types.insert(q.clone(), elem);
                        }
                        self.declare(q, Kind::Value);
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
                        self.returns
                            .entry(q.clone())
                            .or_default()
                            .push(f.return_ty.clone());
                        self.declare(q, Kind::Function);
                    }
                }
                Item::Using { .. } | Item::Empty(_) => {}
            }
        }
    }

    /// Records what implicit-`this` rewriting needs of struct `q` (declared in `ns`).
    fn struct_info(&mut self, q: &str, s: &StructDecl, ns: &[String]) {
        self.declare(q.to_owned(), Kind::Type);
        self.struct_ns.insert(q.to_owned(), ns.to_vec());
        let mut info = StructInfo::default();
        for f in &s.fields {
            for d in &f.declarators {
                info.fields.insert(d.name.name.clone());
                if d.array_dims.is_empty() {
                    info.field_types.insert(d.name.name.clone(), f.ty.clone());
                }
            }
        }
        for v in &s.statics {
            for d in &v.declarators {
                info.statics.insert(d.name.name.clone());
                self.declare(format!("{q}::{}", d.name.name), Kind::Value);
            }
        }
        for t in &s.typedefs {
            self.declare(format!("{q}::{}", t.name.name), Kind::Type);
        }
        for m in &s.methods {
            let is_static = m.modifiers.iter().any(|m| m.modifier == Modifier::Static);
            info.methods.insert(m.name.name.clone(), is_static);
            self.record_outs(&format!("{q}.{}", m.name.name), m, !is_static);
            self.returns
                .entry(format!("{q}.{}", m.name.name))
                .or_default()
                .push(m.return_ty.clone());
        }
        for (params, f) in &s.member_templates {
            let is_static = f.modifiers.iter().any(|m| m.modifier == Modifier::Static);
            info.method_templates.insert(f.name.name.clone(), is_static);
            let mq = format!("{q}::{}", f.name.name);
            self.declare(mq.clone(), Kind::FunctionTemplate);
            self.templates.insert(
                mq,
                TemplateDef {
                    params: params.clone(),
                    item: Item::Function(f.clone()),
                    ns: ns.to_vec(),
                    defined: true,
                    owner: Some(q.to_owned()),
                },
            );
        }
        info.base = s.base.as_ref().and_then(|b| {
            let saved = std::mem::replace(&mut self.ns, ns.to_vec());
            let found = self.lookup(&b.name.name, |k| k == Kind::Type);
            self.ns = saved;
            found
        });
        self.structs.insert(q.to_owned(), info);
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
        self.lookup_dyn(name, &want)
    }

    /// [`Resolver::lookup`], not generic (it recurses).
    fn lookup_dyn(&self, name: &str, want: &dyn Fn(Kind) -> bool) -> Option<String> {
        if let Some(abs) = name.strip_prefix("::") {
            return self
                .globals
                .get(abs)
                .filter(|k| want(**k))
                .map(|_| abs.to_owned());
        }
        // `T::m` where `T` is a local type alias: a member of the type it stands for.
        if let Some((head, rest)) = name.split_once("::") {
            if let Some(t) = self.local_type(head) {
                return if t.args.is_empty() {
                    self.lookup_dyn(&format!("{}::{rest}", t.name.name), want)
                } else {
                    None
                };
            }
        }
        // Inside a struct, its members (and its bases') come first: static members, member
        // types, member templates.
        let mut cur = self.cur_struct.clone();
        for _ in 0..32 {
            let Some(s) = cur else { break };
            let cand = format!("{s}::{name}");
            if self.globals.get(&cand).is_some_and(|k| want(*k)) {
                return Some(cand);
            }
            cur = self.structs.get(&s).and_then(|i| i.base.clone());
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
        // `T::m` where `T` names a struct through an alias (`typedef S T;`, a member type,
        // a template's type parameter): a member of that struct or of its bases.
        let (owner, member) = split_last(name)?;
        let t = self.lookup_dyn(owner, &|k| k == Kind::Type)?;
        let mut cur = Some(self.aliased(&t));
        for _ in 0..32 {
            let s = cur?;
            let cand = format!("{s}::{member}");
            if self.globals.get(&cand).is_some_and(|k| want(*k)) {
                return Some(cand);
            }
            cur = self.structs.get(&s).and_then(|i| i.base.clone());
        }
        None
    }

    /// The type alias `t` (qualified) stands for, followed through aliases; `t` itself when it
    /// is not an alias.
    fn aliased(&self, t: &str) -> String {
        let mut cur = t.to_owned();
        for _ in 0..64 {
            match self.typedefs.get(&cur) {
                Some((false, ty)) if ty.args.is_empty() && ty.name.name != cur => {
                    cur = ty.name.name.clone();
                }
                _ => break,
            }
        }
        cur
    }

    fn is_local(&self, name: &str) -> bool {
        self.locals.iter().any(|s| s.vars.contains_key(name))
    }

    /// The type the local alias `name` stands for, if one is in scope and not hidden by an
    /// inner local variable of that name.
    fn local_type(&self, name: &str) -> Option<TypeExpr> {
        for s in self.locals.iter().rev() {
            if let Some(t) = s.types.get(name) {
                return Some(t.clone());
            }
            if s.vars.contains_key(name) {
                return None;
            }
        }
        None
    }

    /// Declares a local of type `ty` (`None`: not known) with `dims` array dimensions
    /// (`ty` is then the element type).
    fn declare_local(&mut self, name: &str, ty: Option<TypeExpr>, dims: usize) {
        if let Some(s) = self.locals.last_mut() {
            match (ty, dims) {
                (Some(t), 1..) => {
                    s.arrays.insert(name.to_owned(), (t, dims));
                    s.vars.insert(name.to_owned(), None);
                }
                (ty, _) => {
                    s.arrays.remove(name);
                    s.vars.insert(name.to_owned(), ty);
                }
            }
        }
    }

    /// A local `typedef` or `using T = type;`: `T` stands for the rewritten type to the end of
    /// the block. One with array dimensions or modifiers, which a type expression cannot
    /// carry, becomes a file-level typedef under a name no source can spell, placed before the
    /// function. The type may not use a local (`vector<float, n>`): where the alias is used,
    /// or at file level, that name could mean another variable.
    fn local_alias(&mut self, mut t: Typedef) {
        let name = t.name.name.clone();
        if self
            .locals
            .last()
            .is_some_and(|s| s.vars.contains_key(&name) || s.types.contains_key(&name))
        {
            self.diags.push(Diagnostic::error(
                t.name.span,
                format!("redefinition of '{name}'"),
            ));
            return;
        }
        self.type_expr(&mut t.ty);
        for d in t.array_dims.iter_mut().flatten() {
            self.expr(d);
        }
        let mut exprs: Vec<&Expr> = t.array_dims.iter().flatten().collect();
        type_exprs(&t.ty, &mut exprs);
        let mut local = false;
        for e in exprs {
            crate::hlsl::sema::calls::walk_expr(e, &mut |x| {
                if let ExprKind::Ident(id) = &x.kind {
                    local |= self.is_local(&id.name);
                }
            });
        }
        if local {
            self.diags.push(Diagnostic::error(
                t.span,
                "not supported yet: a local type alias whose type uses a local variable",
            ));
            return;
        }
        let stands_for = if t.array_dims.is_empty() && t.modifiers.is_empty() {
            t.ty.clone()
        } else {
            self.alias_count += 1;
            let hidden = format!("{name}#{}", self.alias_count);
            self.declare(hidden.clone(), Kind::Type);
            self.typedefs
                .insert(hidden.clone(), (!t.array_dims.is_empty(), t.ty.clone()));
            let span = t.name.span;
            t.name.name = hidden.clone();
            self.alias_items.push(Item::Typedef(t));
            TypeExpr {
                name: ident(&hidden, span),
                args: Vec::new(),
                span,
            }
        };
        if let Some(s) = self.locals.last_mut() {
            s.types.insert(name, stands_for);
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
            let mark = out.len();
            self.item(item, out);
            // Instantiations the item needed come before it.
            if !self.pending.is_empty() {
                let made = std::mem::take(&mut self.pending);
                out.splice(mark..mark, made);
            }
        }
    }

    fn item(&mut self, item: Item, out: &mut Vec<Item>) {
        {
            match item {
                // An explicit specialization is recorded; templates are instantiated where
                // used.
                Item::Template {
                    params, item, span, ..
                } if params.is_empty() => {
                    if let Item::Struct(s) = *item {
                        self.specialization(s, span);
                    }
                }
                Item::Template {
                    params, item, span, ..
                } => {
                    if let Item::Struct(s) = *item {
                        if !s.spec_args.is_empty() {
                            self.partial_specialization(params, s, span);
                        }
                    }
                }
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
                    self.typedefs.insert(
                        t.name.name.clone(),
                        (!t.array_dims.is_empty(), t.ty.clone()),
                    );
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
                    self.record_constants(&v);
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
                Item::StructForward(mut n) => {
                    n.name = join(&self.ns, &n.name);
                    out.push(Item::StructForward(n));
                }
            }
        }
    }

    /// The qualified name of the static member an out-of-line definition names, if it does.
    fn static_definition(&self, written: &str) -> Option<String> {
        let (owner, member) = written.rsplit_once("::")?;
        let s = self.aliased(&self.lookup(owner, |k| k == Kind::Type)?);
        let q = format!("{s}::{member}");
        self.pending_statics.contains_key(&q).then_some(q)
    }

    fn struct_item(&mut self, s: StructDecl, out: &mut Vec<Item>) {
        if !s.spec_args.is_empty() {
            self.diags.push(Diagnostic::error(
                s.span,
                "template specialization requires 'template<>'",
            ));
            return;
        }
        let q = s.name.as_ref().map(|n| join(&self.ns, &n.name));
        self.struct_named(s, q, out);
    }

    /// A struct under its qualified name `q` (an instantiation's is `S<int>`).
    fn struct_named(&mut self, mut s: StructDecl, q: Option<String>, out: &mut Vec<Item>) {
        if let Some(b) = &mut s.base {
            self.type_expr(b);
        }
        // Field types and array sizes see the struct's static members and member types.
        self.cur_struct = q.clone();
        let mut member_types = std::mem::take(&mut s.typedefs);
        for t in &mut member_types {
            self.type_expr(&mut t.ty);
            if let Some(q) = &q {
                t.name.name = format!("{q}::{}", t.name.name);
                self.typedefs.insert(
                    t.name.name.clone(),
                    (!t.array_dims.is_empty(), t.ty.clone()),
                );
            }
        }
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
            if let Some(t) = member_types.first() {
                self.diags.push(Diagnostic::error(
                    t.name.span,
                    "not supported yet: member types of an anonymous struct",
                ));
            }
            if let Some(m) = methods.first() {
                self.diags.push(Diagnostic::error(
                    m.name.span,
                    "not supported yet: member functions of an anonymous struct",
                ));
            }
            return;
        };
        // Member types come first (statics may have them as types).
        out.extend(member_types.into_iter().map(Item::Typedef));
        // Statics come before the struct (its array sizes may use them), except those of the
        // struct's own type, which need it declared.
        let mut after = Vec::new();
        for mut v in statics {
            for d in &mut v.declarators {
                d.name.name = format!("{q}::{}", d.name.name);
            }
            self.record_constants(&v);
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
        self.ns = self.struct_ns.get(q).cloned().unwrap_or_default();
        let aliases = self.function_body(&mut f);
        out.extend(aliases);
        self.ns = saved_ns;
        self.cur_struct = None;
        self.has_this = false;
        if !is_static {
            self.add_this(q, &mut f, span);
        }
        out.push(Item::Function(f));
    }

    /// Gives method `f` of struct `q` its first parameter, `this`: `inout` when the body may
    /// change it, `const` otherwise.
    fn add_this(&self, q: &str, f: &mut FunctionDecl, span: Span) {
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

    fn function_item(&mut self, mut f: FunctionDecl, out: &mut Vec<Item>) {
        let written = f.name.name.clone();
        if let Some((owner, method)) = written.rsplit_once("::") {
            // `R S::m(...) { }`: an out-of-line method definition.
            if let Some(s) = self
                .lookup(owner, |k| k == Kind::Type)
                .map(|t| self.aliased(&t))
            {
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
        let aliases = self.function_body(&mut f);
        out.extend(aliases);
        out.push(Item::Function(f));
    }

    /// Rewrites a function's signature and body; returns the typedefs its local aliases need
    /// (see [`Resolver::local_alias`]), which go just before it.
    #[must_use]
    fn function_body(&mut self, f: &mut FunctionDecl) -> Vec<Item> {
        let outer = std::mem::take(&mut self.alias_items);
        self.type_expr(&mut f.return_ty);
        self.locals.push(LocalScope::default());
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
                self.declare_local(&n, Some(p.ty.clone()), p.array_dims.len());
            }
        }
        if let Some(b) = &mut f.body {
            self.block(b);
        }
        self.locals.pop();
        std::mem::replace(&mut self.alias_items, outer)
    }

    fn type_expr(&mut self, t: &mut TypeExpr) {
        if let Some(alias) = self.local_type(&t.name.name).filter(|_| t.args.is_empty()) {
            // A local alias is the type it stands for, as a template's type parameter is.
            let span = t.span;
            *t = alias;
            t.span = span;
            return;
        }
        if let Some(member) = t
            .name
            .name
            .strip_prefix(crate::hlsl::parser::INSTANCE_MEMBER)
            .and_then(|m| m.strip_prefix("::"))
        {
            // `S<A>::T`: the member `T` of the instance `S<A>`.
            if let [TemplateArg::Type(instance)] = t.args.as_mut_slice() {
                self.type_expr(instance);
                let name = format!("{}::{member}", instance.name.name);
                *t = TypeExpr {
                    name: Ident {
                        name,
                        span: t.name.span,
                    },
                    args: Vec::new(),
                    span: t.span,
                };
            }
        }
        for a in &mut t.args {
            match a {
                TemplateArg::Type(t) => self.type_expr(t),
                TemplateArg::Expr(e) => self.expr(e),
            }
        }
        if let Some(q) = self.lookup(&t.name.name, |k| k == Kind::Type) {
            // A template's type parameter is its argument, spelled as the user wrote it, so
            // that `S<T>` inside `S<float>` is `S<float>` again (one instance, one key).
            match self.type_params.get(&q).filter(|_| t.args.is_empty()) {
                Some(arg) => {
                    let span = t.span;
                    *t = arg.clone();
                    t.span = span;
                }
                None => t.name.name = q,
            }
        } else if let Some(q) = self.lookup(&t.name.name, |k| k == Kind::TypeTemplate) {
            if let Some(key) = self.current_instance(&q).filter(|_| t.args.is_empty()) {
                // Inside an instance of `S`, a plain `S` is that instance (C++'s injected
                // class name).
                t.name.name = key;
                return;
            }
            let args = std::mem::take(&mut t.args);
            if let Some(key) = self.instantiate(&q, args, t.span) {
                t.name.name = key;
            }
        }
    }

    /// The instance of template `q` (qualified) being rewritten, if the current scope is inside
    /// one: the scope `ns::S<args>` of an instance of `ns::S`.
    fn current_instance(&self, q: &str) -> Option<String> {
        let (prefix, short) = q.rsplit_once("::").unwrap_or(("", q));
        (0..self.ns.len()).rev().find_map(|i| {
            let inner = self.ns[i].strip_prefix(short)?;
            (inner.starts_with('<') && self.ns[..i].join("::") == prefix)
                .then(|| self.ns[..=i].join("::"))
        })
    }

    // ---- templates ---------------------------------------------------------------------

    /// Records `template <params> struct S<pattern> { ... };` under its template.
    fn partial_specialization(&mut self, params: Vec<TemplateParam>, s: StructDecl, span: Span) {
        let Some(name) = s.name.clone() else { return };
        let Some(q) = self.lookup(&name.name, |k| k == Kind::TypeTemplate) else {
            self.diags.push(Diagnostic::error(
                name.span,
                format!("no struct template named '{}' to specialize", name.name),
            ));
            return;
        };
        let nparams = self.templates.get(&q).map_or(0, |d| d.params.len());
        if s.spec_args.len() != nparams {
            self.diags.push(Diagnostic::error(
                span,
                format!(
                    "not supported yet: a partial specialization of '{q}' with {} of its {nparams} template arguments",
                    s.spec_args.len()
                ),
            ));
            return;
        }
        self.partials.entry(q).or_default().push((params, s));
    }

    /// The partial specialization of `q` that `args` match, with its parameters' arguments;
    /// `Err` when that cannot be told.
    #[allow(clippy::type_complexity)]
    fn match_partial(
        &self,
        q: &str,
        args: &[TemplateArg],
    ) -> Result<Option<(Vec<TemplateParam>, Vec<TemplateArg>, StructDecl)>, String> {
        let mut found = Vec::new();
        for (params, s) in self.partials.get(q).into_iter().flatten() {
            let mut bound = HashMap::new();
            let mut all = true;
            for (pat, a) in s.spec_args.iter().zip(args) {
                if !self.match_arg(pat, a, params, &mut bound)? {
                    all = false;
                    break;
                }
            }
            if !all {
                continue;
            }
            let mut out = Vec::new();
            for p in params {
                match bound.remove(&p.name.name) {
                    Some(a) => out.push(a),
                    None => {
                        return Err(format!(
                            "not supported yet: a partial specialization of '{q}' whose parameter '{}' its pattern does not determine",
                            p.name.name
                        ))
                    }
                }
            }
            found.push((params.clone(), out, s.clone()));
        }
        match found.len() {
            0 => Ok(None),
            1 => Ok(found.pop()),
            _ => Err(format!(
                "not supported yet: choosing the most specialized of {} partial specializations of '{q}' that match",
                found.len()
            )),
        }
    }

    /// Whether argument `a` matches pattern `pat` (whose free names are `params`), binding them.
    fn match_arg(
        &self,
        pat: &TemplateArg,
        a: &TemplateArg,
        params: &[TemplateParam],
        bound: &mut HashMap<String, TemplateArg>,
    ) -> Result<bool, String> {
        let param = |n: &str, value: bool| {
            params
                .iter()
                .any(|p| p.name.name == n && p.value_ty.is_some() == value)
        };
        let bind = |bound: &mut HashMap<String, TemplateArg>, n: &str, a: &TemplateArg| {
            let key = self.canonical_arg_key(a);
            match bound.get(n) {
                Some(prev) => Ok(key.is_some() && self.canonical_arg_key(prev) == key),
                None if key.is_none() => Err(format!(
                    "not supported yet: matching this argument against a partial specialization of '{n}'"
                )),
                None => {
                    bound.insert(n.to_owned(), a.clone());
                    Ok(true)
                }
            }
        };
        match (pat, a) {
            (TemplateArg::Expr(p), TemplateArg::Expr(_)) => match &p.kind {
                ExprKind::Ident(id) if param(&id.name, true) => bind(bound, &id.name, a),
                _ => match (Self::arg_key(pat), Self::arg_key(a)) {
                    (Some(x), Some(y)) => Ok(x == y),
                    _ => Err("not supported yet: this pattern of a partial specialization (a parameter or a literal)".into()),
                },
            },
            (TemplateArg::Type(p), TemplateArg::Type(t)) => {
                if p.args.is_empty() && param(&p.name.name, false) {
                    return bind(bound, &p.name.name, a);
                }
                if p.args.is_empty() {
                    let mut p = p.clone();
                    let saved = self.lookup(&p.name.name, |k| k == Kind::Type);
                    if let Some(q) = saved {
                        p.name.name = q;
                    }
                    return Ok(self.canonical_type(&p, 0).is_some()
                        && self.canonical_type(&p, 0) == self.canonical_type(t, 0));
                }
                let shape = match p.name.name.as_str() {
                    "vector" | "matrix" => self.builtin_shape(t),
                    _ => {
                        return Err(format!(
                            "not supported yet: the pattern '{}<...>' of a partial specialization (vector<...> and matrix<...> are)",
                            p.name.name
                        ))
                    }
                };
                let Some((scalar, dims)) = shape else {
                    return Ok(false);
                };
                let want = if p.name.name == "vector" { 1 } else { 2 };
                if dims.len() != want || p.args.len() != want + 1 {
                    return Ok(false);
                }
                let span = t.span;
                let mut parts = vec![TemplateArg::Type(TypeExpr {
                    name: ident(&scalar, span),
                    args: Vec::new(),
                    span,
                })];
                parts.extend(dims.iter().map(|&d| {
                    TemplateArg::Expr(expr(
                        ExprKind::Literal(Literal::Int {
                            value: u64::from(d),
                            suffix: String::new(),
                        }),
                        span,
                    ))
                }));
                for (pp, aa) in p.args.iter().zip(&parts) {
                    if !self.match_arg(pp, aa, params, bound)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// `("float", [4, 4])` for a matrix type however spelled (`float4x4`, `float32_t4x4`,
    /// `matrix<float, 4, 4>`, an alias), `("float", [4])` for a vector; `None` otherwise.
    fn builtin_shape(&self, t: &TypeExpr) -> Option<(String, Vec<u32>)> {
        let c = self.canonical_type(t, 0)?;
        let digits_at = c.find(|ch: char| ch.is_ascii_digit())?;
        let (scalar, shape) = c.split_at(digits_at);
        if ![
            "bool", "int", "uint", "float", "half", "double", "int16_t", "uint16_t",
        ]
        .contains(&scalar)
            && !["int64_t", "uint64_t", "min16float", "min16int", "min16uint"].contains(&scalar)
        {
            return None;
        }
        let dims: Option<Vec<u32>> = shape.split('x').map(|d| d.parse().ok()).collect();
        let dims = dims?;
        (!dims.is_empty() && dims.len() <= 2 && dims.iter().all(|d| (1..=4).contains(d)))
            .then(|| (scalar.to_owned(), dims))
    }

    /// Records `template <> class S<args> { ... };` under its template and canonical key.
    fn specialization(&mut self, mut s: StructDecl, span: Span) {
        let Some(name) = s.name.clone() else { return };
        let Some(q) = self.lookup(&name.name, |k| k == Kind::TypeTemplate) else {
            self.diags.push(Diagnostic::error(
                name.span,
                format!("no struct template named '{}' to specialize", name.name),
            ));
            return;
        };
        let mut args = std::mem::take(&mut s.spec_args);
        for a in &mut args {
            match a {
                TemplateArg::Type(t) => self.type_expr(t),
                TemplateArg::Expr(e) => self.expr(e),
            }
        }
        let nparams = self.templates.get(&q).map_or(0, |d| d.params.len());
        if args.len() != nparams {
            self.diags.push(Diagnostic::error(
                span,
                format!("not supported yet: a specialization of '{q}' with {} of its {nparams} template arguments", args.len()),
            ));
            return;
        }
        let Some(keys) = args
            .iter()
            .map(|a| self.canonical_arg_key(a))
            .collect::<Option<Vec<_>>>()
        else {
            self.diags.push(Diagnostic::error(
                span,
                "not supported yet: these specialization arguments (types, or integer or bool literals)",
            ));
            return;
        };
        let key = keys.join(", ");
        let short = q.rsplit("::").next().unwrap_or(&q).to_owned();
        let written: Vec<String> = args.iter().filter_map(Self::arg_key).collect();
        let instance = join(
            &self
                .templates
                .get(&q)
                .map(|d| d.ns.clone())
                .unwrap_or_default(),
            &format!("{short}<{}>", written.join(", ")),
        );
        if self.instances.contains(&instance) {
            self.diags.push(Diagnostic::error(
                span,
                format!("explicit specialization of '{instance}' after instantiation"),
            ));
            return;
        }
        let table = self.specs.entry(q.clone()).or_default();
        if table.contains_key(&key) {
            self.diags.push(Diagnostic::error(
                span,
                format!("redefinition of '{short}<{key}>'"),
            ));
            return;
        }
        table.insert(key, s);
    }

    /// A template argument's key for matching explicit specializations: typedefs (template
    /// parameters included) followed to the type they name, builtin aliases spelled one way
    /// (`uint32_t` is `uint`, `vector<float, 4>` is `float4`). `None` when that cannot be
    /// told exactly.
    fn canonical_arg_key(&self, a: &TemplateArg) -> Option<String> {
        match a {
            TemplateArg::Type(t) => self.canonical_type(t, 0),
            TemplateArg::Expr(_) => Self::arg_key(a),
        }
    }

    fn canonical_type(&self, t: &TypeExpr, depth: usize) -> Option<String> {
        if depth > 64 {
            return None;
        }
        let n = t.name.name.as_str();
        if t.args.is_empty() {
            if let Some((dims, target)) = self.typedefs.get(n) {
                return if *dims {
                    None
                } else {
                    self.canonical_type(target, depth + 1)
                };
            }
            let alias = |b: &str| -> String {
                match b {
                    "uint32_t" | "dword" => "uint",
                    "int32_t" => "int",
                    "float32_t" => "float",
                    "float64_t" => "double",
                    "float16_t" => "half",
                    b => b,
                }
                .to_owned()
            };
            // `float4`, `uint32_t2x3`: the scalar, then the shape.
            let shape_at = n
                .char_indices()
                .find(|(i, _)| {
                    let rest = &n[*i..];
                    !rest.is_empty()
                        && rest.chars().next().is_some_and(|c| c.is_ascii_digit())
                        && rest.chars().all(|c| c.is_ascii_digit() || c == 'x')
                        && split_vector_name(&format!("{}2", &n[..*i])).is_some()
                })
                .map(|(i, _)| i);
            return Some(match shape_at {
                Some(i) => format!("{}{}", alias(&n[..i]), &n[i..]),
                None => alias(n),
            });
        }
        let value = |a: &TemplateArg| match a {
            TemplateArg::Expr(_) => Self::arg_key(a),
            TemplateArg::Type(_) => None,
        };
        match (n, t.args.as_slice()) {
            ("vector", [TemplateArg::Type(e), k]) => Some(format!(
                "{}{}",
                self.canonical_type(e, depth + 1)?,
                value(k)?
            )),
            ("matrix", [TemplateArg::Type(e), r, c]) => Some(format!(
                "{}{}x{}",
                self.canonical_type(e, depth + 1)?,
                value(r)?,
                value(c)?
            )),
            _ => {
                let mut args = Vec::new();
                for a in &t.args {
                    args.push(match a {
                        TemplateArg::Type(t) => self.canonical_type(t, depth + 1)?,
                        TemplateArg::Expr(_) => Self::arg_key(a)?,
                    });
                }
                Some(format!("{n}<{}>", args.join(", ")))
            }
        }
    }

    /// The spelling of a (rewritten) type, as instantiation names use it.
    fn type_key(t: &TypeExpr) -> String {
        if t.args.is_empty() {
            return t.name.name.clone();
        }
        let args: Vec<String> = t.args.iter().filter_map(Self::arg_key).collect();
        format!("{}<{}>", t.name.name, args.join(", "))
    }

    /// The spelling of a template argument: a type, or a literal value.
    fn arg_key(a: &TemplateArg) -> Option<String> {
        match a {
            TemplateArg::Type(t) => Some(Self::type_key(t)),
            TemplateArg::Expr(e) => match &e.kind {
                ExprKind::Literal(Literal::Int { value, .. }) => Some(value.to_string()),
                ExprKind::Literal(Literal::Bool(b)) => Some(b.to_string()),
                ExprKind::Unary {
                    op: UnaryOp::Neg,
                    operand,
                } => match &operand.kind {
                    ExprKind::Literal(Literal::Int { value, .. }) => Some(format!("-{value}")),
                    _ => None,
                },
                _ => None,
            },
        }
    }

    /// Records the values of `v`'s integer and bool `static const` scalars (names already
    /// qualified) whose initializers fold whatever their types ([`eval_sign_agnostic`]), so
    /// that a template's value argument may name them (enumerators are such constants).
    fn record_constants(&mut self, v: &VarDecl) {
        let has = |m| v.modifiers.iter().any(|x| x.modifier == m);
        if !has(Modifier::Static)
            || !has(Modifier::Const)
            || has(Modifier::GroupShared)
            || !v.attributes.is_empty()
        {
            return;
        }
        let Some(base) = self.canonical_type(&v.ty, 0) else {
            return;
        };
        let boolean = match base.as_str() {
            "bool" => true,
            "int" | "uint" | "int64_t" | "uint64_t" => false,
            _ => return,
        };
        for d in &v.declarators {
            let (true, Some(Initializer::Expr(e))) = (d.array_dims.is_empty(), &d.init) else {
                continue;
            };
            let Some(c) = eval_sign_agnostic(e, &|n| self.consts.get(n).copied()) else {
                continue;
            };
            let c = if boolean {
                ConstVal::Bool(c.as_bool())
            } else {
                match c.as_int() {
                    Some(i) => ConstVal::Int(i),
                    None => continue,
                }
            };
            self.consts.insert(d.name.name.clone(), c);
        }
    }

    /// A template's value argument that is not a literal (`vk::ScopeSubgroup`, `E::A | E::B`,
    /// `N + 1` in an instance) folded to one, so it keys its instance as the literal would;
    /// `None` when it does not fold. A local's name never folds (a global of that name is
    /// hidden).
    fn fold_arg(&self, e: &Expr) -> Option<Expr> {
        let lookup = |n: &str| {
            if self.is_local(n) {
                return None;
            }
            self.consts.get(n).copied().or_else(|| {
                self.value_params
                    .get(n)
                    .and_then(|v| eval_sign_agnostic(v, &|_| None))
            })
        };
        let lit = match eval_sign_agnostic(e, &lookup)? {
            ConstVal::Bool(b) => Literal::Bool(b),
            ConstVal::Int(i) => Literal::Int {
                value: u64::try_from(i).ok()?,
                suffix: String::new(),
            },
            ConstVal::Float(_) => return None,
        };
        Some(expr(ExprKind::Literal(lit), e.span))
    }

    /// Instantiates template `q` with `args` (rewritten, in the user's context) and returns the
    /// instance's name (`S<int>`); the instance's items go to `pending`.
    fn instantiate(&mut self, q: &str, args: Vec<TemplateArg>, span: Span) -> Option<String> {
        // A template whose instance needs a bigger instance (`S<T>` holding an `S<S<T>>`)
        // would instantiate forever: clang's limit is 1024, HLSL programs need few levels.
        if self.depth >= MAX_INSTANTIATION_DEPTH || self.instances.len() >= MAX_INSTANCES {
            self.diags.push(Diagnostic::error(
                span,
                format!(
                    "template instantiation nested more than {MAX_INSTANTIATION_DEPTH} deep or \
                     more than {MAX_INSTANCES} instances (a recursive template?)"
                ),
            ));
            return None;
        }
        self.depth += 1;
        let r = self.instantiate_here(q, args, span);
        self.depth -= 1;
        r
    }

    /// [`Resolver::instantiate`] inside its depth guard.
    fn instantiate_here(
        &mut self,
        q: &str,
        mut args: Vec<TemplateArg>,
        span: Span,
    ) -> Option<String> {
        let def = self.templates.get(q)?.clone();
        // A value parameter of an enclosing instance stands for its argument.
        for a in &mut args {
            if let TemplateArg::Expr(e) = a {
                if let ExprKind::Ident(id) = &e.kind {
                    if let Some(v) = self.value_params.get(&id.name) {
                        let span = e.span;
                        *e = v.clone();
                        e.span = span;
                    }
                }
            }
        }
        for a in &mut args {
            if Self::arg_key(a).is_some() {
                continue;
            }
            if let TemplateArg::Expr(e) = a {
                if let Some(lit) = self.fold_arg(e) {
                    *e = lit;
                }
            }
        }
        if args.len() > def.params.len() {
            self.diags.push(Diagnostic::error(
                span,
                format!("too many template arguments for '{q}'"),
            ));
            return None;
        }
        for p in def.params.iter().skip(args.len()) {
            match &p.default {
                Some(d) => args.push(d.clone()),
                None => {
                    self.diags.push(Diagnostic::error(
                        span,
                        format!("too few template arguments for '{q}'"),
                    ));
                    return None;
                }
            }
        }
        let mut keys = Vec::new();
        for (p, a) in def.params.iter().zip(&args) {
            let ok = matches!(
                (p.value_ty.is_some(), a),
                (false, TemplateArg::Type(_)) | (true, TemplateArg::Expr(_))
            );
            if !ok {
                let what = if p.value_ty.is_some() {
                    "a value"
                } else {
                    "a type"
                };
                self.diags.push(Diagnostic::error(
                    span,
                    format!(
                        "the template argument for '{}' of '{q}' must be {what}",
                        p.name.name
                    ),
                ));
                return None;
            }
            match Self::arg_key(a) {
                Some(k) => keys.push(k),
                None => {
                    self.diags.push(Diagnostic::error(
                        span,
                        format!(
                            "not supported yet: this argument for the template parameter '{}' (a type, or a constant of literals, enumerators and integer 'static const's whose every value is in 0..2^31)",
                            p.name.name
                        ),
                    ));
                    return None;
                }
            }
        }
        let short = q.rsplit("::").next().unwrap_or(q);
        let key = match &def.owner {
            Some(o) => format!("{o}::{short}<{}>", keys.join(", ")),
            None => join(&def.ns, &format!("{short}<{}>", keys.join(", "))),
        };
        if !self.instances.insert(key.clone()) {
            return Some(key);
        }
        let spec = match self.specs.get(q) {
            None => None,
            Some(table) => {
                let canon: Option<Vec<String>> =
                    args.iter().map(|a| self.canonical_arg_key(a)).collect();
                let Some(canon) = canon else {
                    self.instances.remove(&key);
                    self.diags.push(Diagnostic::error(
                        span,
                        format!("not supported yet: telling whether '{key}' is one of the explicit specializations of '{q}'"),
                    ));
                    return None;
                };
                table.get(&canon.join(", ")).cloned()
            }
        };
        let partial = if spec.is_some() {
            None
        } else {
            match self.match_partial(q, &args) {
                Ok(p) => p,
                Err(msg) => {
                    self.instances.remove(&key);
                    self.diags.push(Diagnostic::error(span, msg));
                    return None;
                }
            }
        };
        if spec.is_none() && partial.is_none() && !def.defined {
            self.diags.push(Diagnostic::error(
                span,
                format!("implicit instantiation of undefined template '{key}'"),
            ));
            return None;
        }
        // The instance is rewritten in its own scope, `ns::S<int>`, where the parameters are
        // a typedef (`T`) or a constant (`N`).
        let saved = (
            std::mem::replace(&mut self.ns, def.ns.clone()),
            std::mem::take(&mut self.locals),
            self.cur_struct.take(),
            std::mem::replace(&mut self.has_this, false),
            std::mem::take(&mut self.pending),
            std::mem::take(&mut self.usings),
        );
        self.usings.push(Vec::new());
        self.ns.push(format!("{short}<{}>", keys.join(", ")));
        if let Some(o) = &def.owner {
            // A member function template: its body sees the struct's members.
            self.ns = self.struct_ns.get(o).cloned().unwrap_or_default();
            let prefix = self.ns.join("::");
            let rest = if prefix.is_empty() {
                key.as_str()
            } else {
                key.strip_prefix(&format!("{prefix}::")).unwrap_or(&key)
            };
            self.ns.push(rest.to_owned());
            self.cur_struct = Some(o.clone());
        }
        let mut made = Vec::new();
        if let Some(s) = spec {
            // A full specialization: its own definition, with no parameters in scope.
            let ns = self.ns.clone();
            self.struct_info(&key, &s, &ns);
            self.struct_named(s, Some(key.clone()), &mut made);
            let nested = std::mem::take(&mut self.pending);
            self.ns = saved.0;
            self.locals = saved.1;
            self.cur_struct = saved.2;
            self.has_this = saved.3;
            self.pending = saved.4;
            self.usings = saved.5;
            self.pending.extend(nested);
            self.pending.extend(made);
            return Some(key);
        }
        // A partial specialization: its own parameters, bound by matching, and its definition.
        let (params, args, item) = match partial {
            Some((params, args, mut s)) => {
                s.spec_args.clear();
                (params, args, Item::Struct(s))
            }
            None => (def.params.clone(), args, def.item.clone()),
        };
        for (p, a) in params.iter().zip(args) {
            let name = ident(&format!("{key}::{}", p.name.name), p.name.span);
            match (a, &p.value_ty) {
                (TemplateArg::Type(ty), _) => {
                    self.declare(name.name.clone(), Kind::Type);
                    self.typedefs.insert(name.name.clone(), (false, ty.clone()));
                    self.type_params.insert(name.name.clone(), ty.clone());
                    made.push(Item::Typedef(Typedef {
                        modifiers: Vec::new(),
                        ty,
                        name,
                        array_dims: Vec::new(),
                        span: p.name.span,
                    }));
                }
                (TemplateArg::Expr(e), Some(ty)) => {
                    self.declare(name.name.clone(), Kind::Value);
                    self.value_params.insert(name.name.clone(), e.clone());
                    let m = |modifier| ModifierSpan {
                        modifier,
                        span: p.name.span,
                    };
                    let mut ty = ty.clone();
                    self.type_expr(&mut ty);
                    made.push(Item::Variables(VarDecl {
                        attributes: Vec::new(),
                        modifiers: vec![m(Modifier::Static), m(Modifier::Const)],
                        ty,
                        declarators: vec![Declarator {
                            span: p.name.span,
                            name,
                            array_dims: Vec::new(),
                            annotations: Vec::new(),
                            init: Some(Initializer::Expr(e)),
                        }],
                        span: p.name.span,
                    }));
                }
                (TemplateArg::Expr(_), None) => return None,
            }
        }
        // The parameters come before the instances the body needs (which may name them).
        let nparams = made.len();
        match item {
            Item::Function(mut f) => {
                let is_static = f.modifiers.iter().any(|m| m.modifier == Modifier::Static);
                match def.owner.clone() {
                    // A non-static member function template: a method of the owner named
                    // `S.f<args>`, with `this`.
                    Some(o) if !is_static => {
                        self.cur_struct = Some(o.clone());
                        self.has_this = true;
                        let aliases = self.function_body(&mut f);
                        made.extend(aliases);
                        self.has_this = false;
                        let rest = key.strip_prefix(&format!("{o}::")).unwrap_or(&key);
                        f.name.name = format!("{o}.{rest}");
                        let span = f.name.span;
                        self.add_this(&o, &mut f, span);
                    }
                    owner => {
                        if owner.is_some() {
                            self.cur_struct = owner;
                        }
                        let aliases = self.function_body(&mut f);
                        made.extend(aliases);
                        f.name.name = key.clone();
                    }
                }
                made.push(Item::Function(f));
            }
            Item::Typedef(mut t) => {
                self.type_expr(&mut t.ty);
                t.name.name = key.clone();
                // `A<args>::m` reaches the members of what the alias names.
                self.declare(key.clone(), Kind::Type);
                self.typedefs
                    .insert(key.clone(), (!t.array_dims.is_empty(), t.ty.clone()));
                made.push(Item::Typedef(t));
            }
            Item::Struct(s) => {
                let ns = self.ns.clone();
                self.struct_info(&key, &s, &ns);
                self.struct_named(s, Some(key.clone()), &mut made);
            }
            _ => {}
        }
        let nested = std::mem::take(&mut self.pending);
        self.ns = saved.0;
        self.locals = saved.1;
        self.cur_struct = saved.2;
        self.has_this = saved.3;
        self.pending = saved.4;
        self.usings = saved.5;
        let rest = made.split_off(nparams);
        self.pending.extend(made);
        self.pending.extend(nested);
        self.pending.extend(rest);
        Some(key)
    }

    /// `obj.f<T>(x)` (or `obj.f(x)`, `T` deduced) where `f` is a member function template of
    /// `obj`'s struct: the instance `S.f<T>` is made and the call names it (`obj.f<T>`, a
    /// method the emitter finds by `obj`'s type); a static one is called directly. `None`
    /// when the receiver is not known to be such a struct (a resource's `Load<T>`...).
    fn member_template_call(
        &mut self,
        receiver: &mut Expr,
        method: &Ident,
        type_arg: &mut Option<Box<ArrayedType>>,
        args: &mut Vec<Expr>,
    ) -> Option<ExprKind> {
        if !self
            .structs
            .values()
            .any(|i| i.method_templates.contains_key(&method.name))
        {
            return None;
        }
        let t = self.infer(receiver)?;
        let s = self.struct_of(&t)?;
        let (owner, _) =
            self.member_owner(&s, |i| i.method_templates.contains_key(&method.name))?;
        let is_static = self.structs[&owner].method_templates[&method.name];
        let q = format!("{owner}::{}", method.name);
        let def = self.templates.get(&q)?.clone();
        let mut explicit = Vec::new();
        if let Some(t) = type_arg.take() {
            if !t.array_dims.is_empty() {
                self.diags.push(Diagnostic::error(
                    t.ty.span,
                    "not supported yet: an array type as a member function template's argument",
                ));
                return None;
            }
            explicit.push(TemplateArg::Type(t.ty));
        }
        let targs = if explicit.len() >= def.params.len() {
            explicit
        } else {
            match self.deduce(&def, explicit, args) {
                Ok(a) => a,
                Err(msg) => {
                    self.diags.push(Diagnostic::error(method.span, msg));
                    return None;
                }
            }
        };
        let key = self.instantiate(&q, targs, method.span)?;
        if is_static {
            return Some(ExprKind::Call {
                callee: ident(&key, method.span),
                template_args: Vec::new(),
                scope: None,
                args: std::mem::take(args),
            });
        }
        let rest = key.strip_prefix(&format!("{owner}::")).unwrap_or(&key);
        Some(ExprKind::MethodCall {
            receiver: Box::new(receiver.clone()),
            method: ident(rest, method.span),
            type_arg: None,
            args: std::mem::take(args),
        })
    }

    /// The qualified struct a written type names (through aliases; a `ConstantBuffer<S>` or
    /// `TextureBuffer<S>` is `S`), if it is one.
    fn struct_of(&self, t: &TypeExpr) -> Option<String> {
        let short = t.name.name.rsplit("::").next().unwrap_or("");
        if let ("ConstantBuffer" | "TextureBuffer", [TemplateArg::Type(inner)]) =
            (short, t.args.as_slice())
        {
            return self.struct_of(inner);
        }
        if self.structs.contains_key(&t.name.name) {
            return Some(t.name.name.clone());
        }
        let s = self.aliased(&self.lookup(&t.name.name, |k| k == Kind::Type)?);
        self.structs.contains_key(&s).then_some(s)
    }

    /// The type of an expression as far as it can be told without type checking (literals,
    /// variables, fields, casts, constructors, calls of non-template functions, arithmetic on
    /// equal types): enough to deduce template arguments in the common cases.
    fn infer(&self, e: &Expr) -> Option<TypeExpr> {
        let named = |n: &str| TypeExpr {
            name: ident(n, e.span),
            args: Vec::new(),
            span: e.span,
        };
        match &e.kind {
            ExprKind::Literal(Literal::Int { suffix, .. }) => Some(named(match suffix.as_str() {
                "u" => "uint",
                "l" | "ll" => "int64_t",
                "ul" | "ull" => "uint64_t",
                _ => "int",
            })),
            ExprKind::Literal(Literal::Float { suffix, .. }) => {
                Some(named(match suffix.as_str() {
                    "h" => "half",
                    "l" => "double",
                    _ => "float",
                }))
            }
            ExprKind::Literal(Literal::Bool(_)) => Some(named("bool")),
            ExprKind::Ident(id) if id.name == "this" && self.has_this => {
                self.cur_struct.as_deref().map(named)
            }
            ExprKind::Ident(id) => {
                for scope in self.locals.iter().rev() {
                    if let Some(t) = scope.vars.get(&id.name) {
                        return t.clone();
                    }
                }
                self.var_types.get(&id.name).cloned()
            }
            ExprKind::Member { base, member } => {
                let bt = self.infer(base)?;
                if let Some(s) = self.struct_of(&bt) {
                    // A field of the struct or of a base.
                    let (owner, _) =
                        self.member_owner(&s, |i| i.field_types.contains_key(&member.name))?;
                    return self.structs[&owner].field_types.get(&member.name).cloned();
                }
                // A swizzle of a builtin vector: the component type, as many as named.
                let (scalar, _) = split_vector_name(&bt.name.name)?;
                let n = member.name.len();
                let swizzle = member.name.chars().all(|c| "xyzw".contains(c))
                    || member.name.chars().all(|c| "rgba".contains(c));
                (swizzle && (1..=4).contains(&n)).then(|| {
                    if n == 1 {
                        named(scalar)
                    } else {
                        named(&format!("{scalar}{n}"))
                    }
                })
            }
            // An element of an array variable, indexed as deep as it is declared, or of a
            // structured buffer whose declaration names the element type.
            ExprKind::Index { base, .. } => {
                let (mut root, mut depth) = (&**base, 1);
                while let ExprKind::Index { base: b, .. } = &root.kind {
                    root = b;
                    depth += 1;
                }
                if let ExprKind::Ident(id) = &root.kind {
                    if let Some((t, dims)) = self.array_var(&id.name) {
                        return (*dims == depth).then(|| t.clone());
                    }
                }
                let bt = self.infer(base)?;
                let short = bt.name.name.rsplit("::").next().unwrap_or("");
                match (short, bt.args.as_slice()) {
                    ("RWStructuredBuffer" | "StructuredBuffer", [TemplateArg::Type(t)]) => {
                        Some(t.clone())
                    }
                    _ => None,
                }
            }
            ExprKind::Cast { ty, array_dims, .. } if array_dims.is_empty() => Some(ty.clone()),
            ExprKind::Construct { ty, .. } => Some(ty.clone()),
            ExprKind::Call { callee, .. } => match self.returns.get(&callee.name)?.as_slice() {
                [one] => Some(one.clone()),
                _ => None,
            },
            ExprKind::Unary {
                op: UnaryOp::Neg | UnaryOp::Plus | UnaryOp::BitNot,
                operand,
            } => self.infer(operand),
            ExprKind::Binary {
                op: BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem,
                lhs,
                rhs,
            } => {
                let (a, b) = (self.infer(lhs)?, self.infer(rhs)?);
                (a == b || Self::type_key(&a) == Self::type_key(&b)).then_some(a)
            }
            _ => None,
        }
    }

    /// The element type and dimensions of the array variable `name` in scope, if it is one.
    fn array_var(&self, name: &str) -> Option<&(TypeExpr, usize)> {
        for scope in self.locals.iter().rev() {
            if scope.vars.contains_key(name) {
                return scope.arrays.get(name);
            }
        }
        self.array_types.get(name)
    }

    /// Deduces a function template's arguments from the call's: each parameter written as a
    /// bare template parameter (`T x`) takes the argument's type.
    fn deduce(
        &self,
        def: &TemplateDef,
        explicit: Vec<TemplateArg>,
        args: &[Expr],
    ) -> Result<Vec<TemplateArg>, String> {
        let Item::Function(f) = &def.item else {
            return Err("not a function template".into());
        };
        let mut bound: HashMap<&str, TemplateArg> = HashMap::new();
        let written = explicit.len();
        for (tp, a) in def.params.iter().zip(explicit) {
            bound.insert(&tp.name.name, a);
        }
        for (p, a) in f.params.iter().zip(args) {
            let Some(tp) = def
                .params
                .iter()
                .skip(written)
                .find(|t| t.value_ty.is_none() && t.name.name == p.ty.name.name)
            else {
                continue;
            };
            if !p.ty.args.is_empty() || !p.array_dims.is_empty() {
                continue;
            }
            let Some(t) = self.infer(a) else {
                return Err(format!(
                    "not supported yet: deducing the template argument '{}' from this argument (write it: {}<...>(...))",
                    tp.name.name, f.name.name
                ));
            };
            match bound.get(tp.name.name.as_str()) {
                Some(TemplateArg::Type(prev)) if Self::type_key(prev) != Self::type_key(&t) => {
                    return Err(format!(
                        "conflicting types deduced for the template parameter '{}'",
                        tp.name.name
                    ));
                }
                _ => {
                    bound.insert(&tp.name.name, TemplateArg::Type(t));
                }
            }
        }
        let mut out = Vec::new();
        for tp in &def.params {
            match bound.remove(tp.name.name.as_str()) {
                Some(a) => out.push(a),
                None if tp.default.is_some() => break,
                None => {
                    return Err(format!(
                        "cannot deduce the template argument '{}' of '{}'",
                        tp.name.name, f.name.name
                    ))
                }
            }
        }
        Ok(out)
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
                if self.locals.last().is_some_and(|s| s.types.contains_key(&n)) {
                    self.diags.push(Diagnostic::error(
                        d.name.span,
                        format!("redefinition of '{n}'"),
                    ));
                }
                // An `auto` local (HLSL 202x) has no type to deduce template arguments from.
                let typed = v.ty.name.name != "auto" || !v.ty.args.is_empty();
                self.declare_local(&n, typed.then(|| v.ty.clone()), d.array_dims.len());
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
        self.locals.push(LocalScope::default());
        for s in &mut b.stmts {
            self.stmt(s);
        }
        self.locals.pop();
    }

    fn stmt(&mut self, s: &mut Stmt) {
        if let StmtKind::Typedef(_) = s.kind {
            if let StmtKind::Typedef(t) = std::mem::replace(&mut s.kind, StmtKind::Empty) {
                self.local_alias(t);
            }
            return;
        }
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
                self.locals.push(LocalScope::default());
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
                self.locals.push(LocalScope::default());
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
            | StmtKind::Typedef(_)
            | StmtKind::Empty => {}
        }
    }

    fn scoped_stmt(&mut self, s: &mut Stmt) {
        self.locals.push(LocalScope::default());
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
            ExprKind::Call {
                callee,
                args,
                template_args,
                scope,
            } => {
                args.iter_mut().for_each(|a| self.expr(a));
                if let Some(mut ty) = scope.take() {
                    // `S<args>::f(...)`: the instance's member `f`.
                    self.type_expr(&mut ty);
                    if !self.structs.contains_key(&ty.name.name) {
                        self.diags.push(Diagnostic::error(
                            ty.span,
                            format!("'{}' is not a struct", Self::type_key(&ty)),
                        ));
                        return;
                    }
                    callee.name = format!("{}::{}", ty.name.name, callee.name);
                }
                for a in template_args.iter_mut() {
                    match a {
                        TemplateArg::Type(t) => self.type_expr(t),
                        TemplateArg::Expr(e) => self.expr(e),
                    }
                }
                if !callee.name.contains("::") && self.is_local(&callee.name) {
                    return;
                }
                if let Some(new) = self.call_expr(callee, template_args, args, span) {
                    e.kind = new;
                }
            }
            ExprKind::MethodCall {
                receiver,
                args,
                type_arg,
                method,
            } => {
                self.expr(receiver);
                if let Some(t) = type_arg {
                    self.type_expr(&mut t.ty);
                    t.array_dims.iter_mut().flatten().for_each(|d| self.expr(d));
                }
                args.iter_mut().for_each(|a| self.expr(a));
                if let Some(new) = self.member_template_call(receiver, method, type_arg, args) {
                    e.kind = new;
                }
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
            ExprKind::Scoped { scope, member } => {
                // `S<args>::m`: the instance's static member `m`.
                self.type_expr(scope);
                if member.name == VAR_MEMBER {
                    let name = format!("{}::{VAR_MEMBER}", scope.name.name);
                    if self.globals.get(&name) == Some(&Kind::Value) {
                        e.kind = ExprKind::Ident(ident(&name, span));
                    } else {
                        self.diags.push(Diagnostic::error(
                            span,
                            format!(
                                "'{}' is not a variable template, so '{}' is not a value",
                                scope.name.name,
                                Self::type_key(scope)
                            ),
                        ));
                    }
                    return;
                }
                let written = format!("{}::{}", scope.name.name, member.name);
                match self.lookup(&written, |k| k == Kind::Value) {
                    Some(q) => {
                        self.static_uses.entry(q.clone()).or_insert(span);
                        e.kind = ExprKind::Ident(ident(&q, span));
                    }
                    None => self.diags.push(Diagnostic::error(
                        member.span,
                        format!(
                            "no static member named '{}' in '{}'",
                            member.name,
                            Self::type_key(scope)
                        ),
                    )),
                }
            }
            ExprKind::Member { base, .. } | ExprKind::SizeOf(base) => self.expr(base),
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
                    let q = format!("{owner}::{name}");
                    self.static_uses.entry(q.clone()).or_insert(span);
                    return Some(ExprKind::Ident(ident(&q, span)));
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
        self.static_uses.entry(q.clone()).or_insert(span);
        (q != id.name).then(|| ExprKind::Ident(ident(&q, span)))
    }

    /// What a call means, when it is not a call of the name as written.
    fn call_expr(
        &mut self,
        callee: &Ident,
        template_args: &mut Vec<TemplateArg>,
        args: &mut Vec<Expr>,
        span: Span,
    ) -> Option<ExprKind> {
        let name = callee.name.clone();
        if let Some(q) = self.lookup(&name, |k| k == Kind::FunctionTemplate) {
            if template_args.is_empty() && self.lookup(&name, |k| k == Kind::Function).is_some() {
                self.diags.push(Diagnostic::error(
                    callee.span,
                    format!(
                        "not supported yet: overloading the function template '{name}' with a function"
                    ),
                ));
                return None;
            }
            let def = self.templates[&q].clone();
            let targs = if template_args.len() >= def.params.len() {
                std::mem::take(template_args)
            } else {
                // The arguments not written are deduced from the call's.
                match self.deduce(&def, std::mem::take(template_args), args) {
                    Ok(a) => a,
                    Err(msg) => {
                        self.diags.push(Diagnostic::error(callee.span, msg));
                        return None;
                    }
                }
            };
            let non_static = match &def.item {
                Item::Function(f) => !f.modifiers.iter().any(|m| m.modifier == Modifier::Static),
                _ => false,
            };
            if let (Some(o), true) = (def.owner.clone(), non_static) {
                // `f<T>(x)` inside a method: `this.f<T>(x)`.
                let hops = self
                    .cur_struct
                    .clone()
                    .filter(|_| self.has_this)
                    .and_then(|s| {
                        self.member_owner(&s, |i| {
                            i.method_templates
                                .contains_key(q.rsplit("::").next().unwrap_or(&q))
                        })
                    })
                    .filter(|(owner, _)| *owner == o)
                    .map(|(_, hops)| hops);
                let Some(hops) = hops else {
                    self.diags.push(Diagnostic::error(
                        callee.span,
                        format!("call to non-static member function '{name}' without an object"),
                    ));
                    return None;
                };
                let key = self.instantiate(&q, targs, callee.span)?;
                let rest = key.strip_prefix(&format!("{o}::")).unwrap_or(&key);
                return Some(ExprKind::MethodCall {
                    receiver: Box::new(Self::this_base(span, hops)),
                    method: ident(rest, callee.span),
                    type_arg: None,
                    args: std::mem::take(args),
                });
            }
            let key = self.instantiate(&q, targs, callee.span)?;
            return Some(ExprKind::Call {
                callee: ident(&key, callee.span),
                template_args: Vec::new(),
                scope: None,
                args: std::mem::take(args),
            });
        }
        if crate::hlsl::parser::is_builtin_function_template(&name) {
            // `vk::RawBufferLoad<T>(a)`: an intrinsic, its template arguments kept.
            return None;
        }
        if !template_args.is_empty() {
            self.diags.push(Diagnostic::error(
                callee.span,
                format!("'{name}' is not a template"),
            ));
            return None;
        }
        if let Some(s) = self.cur_struct.clone() {
            if !name.contains("::") {
                if let Some((owner, hops)) =
                    self.member_owner(&s, |i| i.methods.contains_key(&name))
                {
                    if self.structs[&owner].methods[&name] {
                        return Some(ExprKind::Call {
                            callee: ident(&format!("{owner}.{name}"), callee.span),
                            template_args: Vec::new(),
                            scope: None,
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
                        type_arg: None,
                        args: std::mem::take(args),
                    });
                }
            }
        }
        if let Some((owner, method)) = name.rsplit_once("::") {
            if let Some(s) = self
                .lookup(owner, |k| k == Kind::Type)
                .map(|t| self.aliased(&t))
            {
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
                        template_args: Vec::new(),
                        scope: None,
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
                    type_arg: None,
                    args: std::mem::take(args),
                });
            }
        }
        let q = self.lookup(&name, |k| k == Kind::Function)?;
        (q != name).then(|| ExprKind::Call {
            callee: ident(&q, callee.span),
            template_args: Vec::new(),
            scope: None,
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
            ExprKind::Call { callee, args, .. } => {
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
            ExprKind::Scoped { .. } => false,
            ExprKind::Member { base, .. } => m(base),
            ExprKind::Index { base, index } => m(base) || m(index),
            ExprKind::Literal(_) | ExprKind::Ident(_) | ExprKind::SizeOf(_) => false,
        }
    }
}

/// `("A::B", "c")` for `A::B::c`, splitting at the last `::` outside template arguments.
fn split_last(name: &str) -> Option<(&str, &str)> {
    let mut depth = 0i32;
    let bytes = name.as_bytes();
    let mut at = None;
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'<' => depth += 1,
            b'>' => depth -= 1,
            b':' if depth == 0 && bytes.get(i + 1) == Some(&b':') && i > 0 => at = Some(i),
            _ => {}
        }
    }
    let i = at?;
    (bytes.get(i.wrapping_sub(1)) != Some(&b':')).then(|| (&name[..i], &name[i + 2..]))
}

/// Whether an lvalue expression is `this` or a part of it.
fn rooted_at_this(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Ident(id) => id.name == "this",
        ExprKind::Member { base, .. } | ExprKind::Index { base, .. } => rooted_at_this(base),
        _ => false,
    }
}

/// `("float", 4)` for `float4`; `None` for a name that is not a builtin vector.
fn split_vector_name(name: &str) -> Option<(&str, u32)> {
    let n = name.chars().last()?.to_digit(10)?;
    let scalar = &name[..name.len() - 1];
    let known = [
        "bool",
        "int",
        "uint",
        "float",
        "half",
        "double",
        "min16float",
        "min16int",
        "min16uint",
        "int16_t",
        "uint16_t",
        "int64_t",
        "uint64_t",
        "float16_t",
        "float32_t",
        "float64_t",
        "int32_t",
        "uint32_t",
        "dword",
    ];
    ((2..=4).contains(&n) && known.contains(&scalar)).then_some((scalar, n))
}
