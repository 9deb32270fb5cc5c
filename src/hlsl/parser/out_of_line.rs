//! Out-of-line definitions of struct templates' members: a static data member
//! (`template <class T> const static T S<T>::m[2] = {...};`) and a member function or member
//! function template (`template <class T> T S<T>::get() {...}`,
//! `template <class T> template <class U> U S<T>::cast() {...}`), in a namespace or not.
//!
//! The parser keeps each definition aside and, once the file is parsed, gives it to the
//! member's declaration in the struct template ([`Parser::define_template_members`]), so every
//! instance has it as if it had been defined in the struct. A definition whose template
//! parameters are named differently from the template's is renamed to the template's names
//! first; a member function's declaration is found by name, by its template parameters (for a
//! member function template) and by its parameters' written types.

use super::*;
use std::collections::HashMap;

/// An out-of-line definition of a struct template's static data member.
pub(super) struct TemplateStatic {
    /// The namespaces the definition is in, outermost first.
    ns: Vec<String>,
    /// The struct template's name as written (`S`, `N::S`).
    owner: Ident,
    /// The template arguments after the owner's name.
    args: Vec<TemplateArg>,
    /// The member's name.
    member: Ident,
    /// The member's array dimensions, as the definition writes them.
    array_dims: Vec<Option<Expr>>,
    /// The member's value.
    init: Initializer,
    /// Whole definition.
    span: Span,
}

/// An out-of-line definition of a struct template's member function (or member function
/// template).
pub(super) struct TemplateMethod {
    /// The namespaces the definition is in, outermost first.
    ns: Vec<String>,
    /// The struct template's name as written (`S`, `N::S`).
    owner: Ident,
    /// The definition's own template parameters (`template <class T, uint N>`), which the
    /// template arguments after the owner's name repeat in order.
    outer: Vec<TemplateParam>,
    /// A member function template's parameters (the second `template <class U>`).
    inner: Option<Vec<TemplateParam>>,
    /// The function, named as the member (`get`, `operator+`).
    f: FunctionDecl,
}

impl Parser {
    /// The definition of a member of struct template `owner` (at the `<` after its name),
    /// after `template <outer>` (and `template <inner>` for a member function template), its
    /// modifiers and its type: a member function's definition or a static data member's,
    /// given to the member's declaration once the file is parsed
    /// ([`Parser::define_template_members`]).
    pub(super) fn out_of_line_member(
        &mut self,
        owner: Ident,
        outer: &[TemplateParam],
        inner: Option<Vec<TemplateParam>>,
        modifiers: Vec<ModifierSpan>,
        return_ty: TypeExpr,
        start: Span,
    ) -> PResult<()> {
        let args_start = self.span();
        let args = self.template_args()?;
        let args_span = args_start.to(self.prev_span());
        self.expect("::", "after the struct template's arguments")?;
        let member = if self.at_word("operator") {
            self.operator_name()?
        } else {
            self.ident("a member name")?
        };
        if self.at("(") {
            let f = self.function(Vec::new(), modifiers, return_ty, member, start)?;
            if f.body.is_none() {
                self.error(
                    f.name.span,
                    format!(
                        "an out-of-line declaration of the member function '{}::{}' must be a \
                         definition",
                        owner.name, f.name.name
                    ),
                );
                return Ok(());
            }
            if !own_params(&args, outer) {
                self.error(
                    args_span,
                    format!(
                        "not supported yet: a member function definition whose template \
                         arguments are not the template's parameters, in order \
                         ('{}<...>::{}')",
                        owner.name, f.name.name
                    ),
                );
                return Ok(());
            }
            self.template_methods.push(TemplateMethod {
                ns: self.ns_path.clone(),
                owner,
                outer: outer.to_vec(),
                inner,
                f,
            });
            return Ok(());
        }
        if inner.is_some() {
            return self.fail(format!(
                "not supported yet: a member template of '{}' other than a member function \
                 template ('{}<...>::{}')",
                owner.name, owner.name, member.name
            ));
        }
        let array_dims = self.array_dims()?;
        self.expect("=", "to define the static member")?;
        let init = self.initializer()?;
        self.expect(";", "after the static member's definition")?;
        let span = start.to(self.prev_span());
        self.template_statics.push(TemplateStatic {
            ns: self.ns_path.clone(),
            owner,
            args,
            member,
            array_dims,
            init,
            span,
        });
        Ok(())
    }

    /// `template <outer> template <inner> R S<outer>::f(...) {...}` (at the second
    /// `template`): the out-of-line definition of a member function template.
    pub(super) fn member_template_definition(
        &mut self,
        outer: Vec<TemplateParam>,
        start: Span,
    ) -> PResult<Vec<Item>> {
        let inner = self.template_params()?;
        if inner.is_empty() {
            return self.fail("not supported yet: explicit specialization of a member template");
        }
        let mut added = self.add_type_params(&outer);
        added.extend(self.add_type_params(&inner));
        let r = (|| {
            let modifiers = self.modifiers();
            let ty = self.type_expr()?;
            let (end, owner) = self.qualified_end(0);
            if self.tok().kind != TokenKind::Ident
                || !self.peek_at(end).is_punct("<")
                || !self.templates.contains(&owner)
                || self.var_templates.contains(&owner)
            {
                return self.fail(
                    "not supported yet: 'template <...> template <...>' other than the \
                     out-of-line definition of a struct template's member function template",
                );
            }
            let owner = self.qualified_ident("a struct template's name")?;
            self.out_of_line_member(owner, &outer, Some(inner), modifiers, ty, start)
        })();
        for a in &added {
            self.types.remove(a);
        }
        r?;
        Ok(Vec::new())
    }

    /// Gives each out-of-line member definition of a struct template to the member's
    /// declaration in the template (whose instances then all have it).
    pub(super) fn define_template_members(&mut self, items: &mut [Item]) {
        let mut names = HashSet::new();
        struct_template_names(items, &mut Vec::new(), &mut names);
        for def in std::mem::take(&mut self.template_statics) {
            let found = resolve_owner(&names, &def.ns, &def.owner.name)
                .and_then(|q| find_struct_template(items, &mut Vec::new(), &q));
            let Some((params, s)) = found else {
                self.error(
                    def.owner.span,
                    format!(
                        "not supported yet: a static member definition for '{}' (not a struct \
                         template declared before)",
                        def.owner.name
                    ),
                );
                continue;
            };
            // The arguments must be the template's own parameters, in order.
            if !own_params(&def.args, params) {
                self.error(
                    def.span,
                    "not supported yet: a static member definition whose template arguments \
                     are not the template's parameters, in order",
                );
                continue;
            }
            let decl = s
                .statics
                .iter_mut()
                .flat_map(|v| v.declarators.iter_mut())
                .find(|d| d.name.name == def.member.name);
            match decl {
                Some(d) if d.init.is_some() => self.error(
                    def.member.span,
                    format!("redefinition of '{}::{}'", def.owner.name, def.member.name),
                ),
                Some(d) => {
                    if d.array_dims.iter().all(Option::is_none) && !def.array_dims.is_empty() {
                        d.array_dims = def.array_dims;
                    }
                    d.init = Some(def.init);
                }
                None => self.error(
                    def.member.span,
                    format!(
                        "no static member named '{}' in '{}'",
                        def.member.name, def.owner.name
                    ),
                ),
            }
        }
        for def in std::mem::take(&mut self.template_methods) {
            let q = resolve_owner(&names, &def.ns, &def.owner.name);
            let found = q
                .as_deref()
                .and_then(|q| find_struct_template(items, &mut Vec::new(), q));
            let (Some(q), Some((params, s))) = (q.as_deref(), found) else {
                self.error(
                    def.owner.span,
                    format!(
                        "not supported yet: a member function definition for '{}' (not a \
                         struct template declared before)",
                        def.owner.name
                    ),
                );
                continue;
            };
            if let Err((span, msg)) = define_method(q, params, s, def) {
                self.error(span, msg);
            }
        }
    }
}

/// Whether template arguments `args` are parameters `params` by name, in order.
fn own_params(args: &[TemplateArg], params: &[TemplateParam]) -> bool {
    args.len() == params.len()
        && args
            .iter()
            .zip(params)
            .all(|(a, p)| names_param(a, &p.name.name))
}

/// Whether template argument `a` is the bare name `name`.
fn names_param(a: &TemplateArg, name: &str) -> bool {
    match a {
        TemplateArg::Type(t) => t.args.is_empty() && t.name.name == name,
        TemplateArg::Expr(Expr {
            kind: ExprKind::Ident(i),
            ..
        }) => i.name == name,
        _ => false,
    }
}

/// Whether two template parameter lists have the same kinds (type or value) in order.
fn same_kinds(a: &[TemplateParam], b: &[TemplateParam]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x.value_ty.is_some() == y.value_ty.is_some())
}

/// The qualified names (from the file scope) of the struct templates defined in `items`.
fn struct_template_names(items: &[Item], prefix: &mut Vec<String>, out: &mut HashSet<String>) {
    for it in items {
        match it {
            Item::Namespace { name, items, .. } => {
                let depth = prefix.len();
                prefix.extend(name.name.split("::").map(str::to_owned));
                struct_template_names(items, prefix, out);
                prefix.truncate(depth);
            }
            Item::Template {
                item,
                defined: true,
                ..
            } => {
                if let Item::Struct(s) = item.as_ref() {
                    if let (Some(n), true) = (&s.name, s.spec_args.is_empty()) {
                        out.insert(join_path(prefix, &n.name));
                    }
                }
            }
            _ => {}
        }
    }
}

/// The struct template that `written` names from namespace `ns` (the innermost enclosing
/// namespace first, as name lookup goes), by its qualified name.
fn resolve_owner(names: &HashSet<String>, ns: &[String], written: &str) -> Option<String> {
    if let Some(rooted) = written.strip_prefix("::") {
        return names.contains(rooted).then(|| rooted.to_owned());
    }
    (0..=ns.len())
        .rev()
        .map(|k| join_path(&ns[..k], written))
        .find(|q| names.contains(q))
}

/// The definition of the struct template named `q` (qualified from the file scope) among
/// `items`, with its parameters.
fn find_struct_template<'a>(
    items: &'a mut [Item],
    prefix: &mut Vec<String>,
    q: &str,
) -> Option<(&'a [TemplateParam], &'a mut StructDecl)> {
    for it in items.iter_mut() {
        match it {
            Item::Namespace { name, items, .. } => {
                let depth = prefix.len();
                prefix.extend(name.name.split("::").map(str::to_owned));
                let found = find_struct_template(items, prefix, q);
                prefix.truncate(depth);
                if found.is_some() {
                    return found;
                }
            }
            Item::Template {
                params,
                item,
                defined: true,
                ..
            } => {
                if let Item::Struct(s) = item.as_mut() {
                    let named = s
                        .name
                        .as_ref()
                        .is_some_and(|n| join_path(prefix, &n.name) == q);
                    if named && s.spec_args.is_empty() {
                        return Some((params.as_slice(), s));
                    }
                }
            }
            _ => {}
        }
    }
    None
}

/// Gives member function definition `def` to its declaration in struct template `s` (named
/// `q` from the file scope, with parameters `params`); the error and its place otherwise.
fn define_method(
    q: &str,
    params: &[TemplateParam],
    s: &mut StructDecl,
    def: TemplateMethod,
) -> Result<(), (Span, String)> {
    let TemplateMethod {
        ns,
        owner,
        outer,
        inner,
        mut f,
    } = def;
    let name = f.name.clone();
    if !same_kinds(&outer, params) {
        return Err((
            owner.span,
            format!(
                "the template parameters of this definition of '{}::{}' do not match those of \
                 '{}'",
                owner.name, name.name, owner.name
            ),
        ));
    }
    // The definition's parameter names, as the template's declaration names them.
    let mut rename: HashMap<String, String> = outer
        .iter()
        .zip(params)
        .filter(|(d, p)| d.name.name != p.name.name)
        .map(|(d, p)| (d.name.name.clone(), p.name.name.clone()))
        .collect();
    let canon = Canon::new(q, &ns, params);
    let matches = |decl: &FunctionDecl, rename: &HashMap<String, String>| {
        decl.name.name == name.name
            && decl.params.len() == f.params.len()
            && decl.params.iter().zip(&f.params).all(|(d, p)| {
                d.array_dims.len() == p.array_dims.len()
                    && canon.ty(&d.ty, &HashMap::new()) == canon.ty(&p.ty, rename)
            })
    };
    let decl = match &inner {
        None => {
            let found: Vec<usize> = (0..s.methods.len())
                .filter(|&k| matches(&s.methods[k], &rename))
                .collect();
            let k = found
                .iter()
                .copied()
                .find(|&k| s.methods[k].body.is_none())
                .or(found.first().copied());
            k.map(|k| &mut s.methods[k])
        }
        Some(inner) => {
            let mut found = Vec::new();
            for (k, (tparams, decl)) in s.member_templates.iter().enumerate() {
                if !same_kinds(tparams, inner) {
                    continue;
                }
                let mut both = rename.clone();
                for (d, p) in inner.iter().zip(tparams) {
                    if d.name.name != p.name.name {
                        both.insert(d.name.name.clone(), p.name.name.clone());
                    }
                }
                if matches(decl, &both) {
                    found.push((k, both));
                }
            }
            let pick = found
                .iter()
                .position(|(k, _)| s.member_templates[*k].1.body.is_none())
                .unwrap_or(0);
            if found.len() > pick {
                let (k, both) = found.swap_remove(pick);
                rename = both;
                Some(&mut s.member_templates[k].1)
            } else {
                None
            }
        }
    };
    let Some(decl) = decl else {
        return Err((
            name.span,
            format!(
                "no member function '{}' in '{}' matches this definition",
                name.name, owner.name
            ),
        ));
    };
    if decl.body.is_some() {
        return Err((
            name.span,
            format!("redefinition of '{}::{}'", owner.name, name.name),
        ));
    }
    // The definition, in the declaration's parameter names.
    let rw = Rewrite {
        rename: &rename,
        span: None,
    };
    for p in &mut f.params {
        rw.param(p);
    }
    if let Some(b) = &mut f.body {
        rw.block(b);
    }
    // The declaration's types, modifiers, attributes and defaults, the definition's parameter
    // names (which its body uses) and body.
    for (d, p) in decl.params.iter_mut().zip(f.params) {
        for m in p.modifiers {
            if !d.modifiers.iter().any(|x| x.modifier == m.modifier) {
                d.modifiers.push(m);
            }
        }
        d.attributes.extend(p.attributes);
        if d.annotations.is_empty() {
            d.annotations = p.annotations;
        }
        if d.default.is_none() {
            d.default = p.default;
        }
        if p.name.is_some() {
            d.name = p.name;
        }
        d.span = p.span;
    }
    for m in f.modifiers {
        if !decl.modifiers.iter().any(|x| x.modifier == m.modifier) {
            decl.modifiers.push(m);
        }
    }
    decl.attributes.extend(f.attributes);
    if decl.annotations.is_empty() {
        decl.annotations = f.annotations;
    }
    decl.body = f.body;
    decl.span = f.span;
    Ok(())
}

/// Written types made comparable: names qualified by the struct template's enclosing
/// namespaces or the template itself lose those qualifiers (`vk::P` and `P` inside namespace
/// `vk`), the template with its own parameters as arguments is its plain name (`S<T, N>` and
/// `S` inside `S`), and places are dropped.
struct Canon {
    /// The qualifiers that may be dropped.
    strip: HashSet<String>,
    /// The template's name (unqualified).
    owner: String,
    /// The template's parameters.
    params: Vec<TemplateParam>,
}

impl Canon {
    /// For struct template `q` (qualified from the file scope) with parameters `params`, in a
    /// definition inside namespaces `ns`.
    fn new(q: &str, ns: &[String], params: &[TemplateParam]) -> Canon {
        let parts: Vec<&str> = q.split("::").collect();
        let short = parts.last().copied().unwrap_or_default().to_owned();
        let mut strip: HashSet<String> = parts.iter().map(|p| (*p).to_owned()).collect();
        strip.extend(ns.iter().cloned());
        Canon {
            strip,
            owner: short,
            params: params.to_vec(),
        }
    }

    /// `t` renamed by `rename`, made comparable.
    fn ty(&self, t: &TypeExpr, rename: &HashMap<String, String>) -> TypeExpr {
        let mut t = t.clone();
        Rewrite {
            rename,
            span: Some(Span::default()),
        }
        .ty(&mut t);
        self.canon(&mut t);
        t
    }

    fn canon(&self, t: &mut TypeExpr) {
        for a in &mut t.args {
            if let TemplateArg::Type(inner) = a {
                self.canon(inner);
            }
        }
        let mut name = t.name.name.trim_start_matches("::").to_owned();
        while let Some((head, rest)) = name.split_once("::") {
            if !self.strip.contains(head) {
                break;
            }
            name = rest.to_owned();
        }
        t.name.name = name;
        if t.name.name == self.owner && own_params(&t.args, &self.params) {
            t.args.clear();
        }
    }
}

/// Renames template parameters (a whole name, or the first part of a qualified one) in a piece
/// of a definition, and with `span` set, replaces every place with it.
struct Rewrite<'a> {
    /// Old name to new.
    rename: &'a HashMap<String, String>,
    /// The place every span becomes, if any.
    span: Option<Span>,
}

impl Rewrite<'_> {
    fn span(&self, s: &mut Span) {
        if let Some(x) = self.span {
            *s = x;
        }
    }

    /// A name that may be a template parameter.
    fn name(&self, i: &mut Ident) {
        let (head, rest) = match i.name.split_once("::") {
            Some((h, r)) => (h, Some(r)),
            None => (i.name.as_str(), None),
        };
        if let Some(new) = self.rename.get(head) {
            i.name = match rest {
                Some(r) => format!("{new}::{r}"),
                None => new.clone(),
            };
        }
        self.span(&mut i.span);
    }

    /// A member's or local's name: never a template parameter.
    fn member(&self, i: &mut Ident) {
        self.span(&mut i.span);
    }

    fn ty(&self, t: &mut TypeExpr) {
        self.name(&mut t.name);
        for a in &mut t.args {
            self.arg(a);
        }
        self.span(&mut t.span);
    }

    fn arg(&self, a: &mut TemplateArg) {
        match a {
            TemplateArg::Type(t) => self.ty(t),
            TemplateArg::Expr(e) => self.expr(e),
        }
    }

    fn dims(&self, dims: &mut [Option<Expr>]) {
        for d in dims.iter_mut().flatten() {
            self.expr(d);
        }
    }

    fn attributes(&self, attributes: &mut [Attribute]) {
        for a in attributes {
            for e in &mut a.args {
                self.expr(e);
            }
        }
    }

    fn param(&self, p: &mut Param) {
        self.attributes(&mut p.attributes);
        self.ty(&mut p.ty);
        if let Some(n) = &mut p.name {
            self.member(n);
        }
        self.dims(&mut p.array_dims);
        if let Some(d) = &mut p.default {
            self.expr(d);
        }
    }

    fn block(&self, b: &mut Block) {
        for s in &mut b.stmts {
            self.stmt(s);
        }
    }

    fn var_decl(&self, v: &mut VarDecl) {
        self.attributes(&mut v.attributes);
        self.ty(&mut v.ty);
        for d in &mut v.declarators {
            self.member(&mut d.name);
            self.dims(&mut d.array_dims);
            if let Some(i) = &mut d.init {
                self.init(i);
            }
        }
    }

    fn init(&self, i: &mut Initializer) {
        match i {
            Initializer::Expr(e) => self.expr(e),
            Initializer::List(list, _) => {
                for i in list {
                    self.init(i);
                }
            }
        }
    }

    fn stmt(&self, s: &mut Stmt) {
        self.attributes(&mut s.attributes);
        match &mut s.kind {
            StmtKind::Block(b) => self.block(b),
            StmtKind::Expr(e) => self.expr(e),
            StmtKind::Decl(v) => self.var_decl(v),
            StmtKind::Typedef(t) => {
                self.ty(&mut t.ty);
                self.member(&mut t.name);
                self.dims(&mut t.array_dims);
                self.span(&mut t.span);
            }
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                self.expr(cond);
                self.stmt(then);
                if let Some(o) = otherwise {
                    self.stmt(o);
                }
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                if let Some(i) = init {
                    self.stmt(i);
                }
                if let Some(c) = cond {
                    self.expr(c);
                }
                if let Some(s) = step {
                    self.expr(s);
                }
                self.stmt(body);
            }
            StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
                self.expr(cond);
                self.stmt(body);
            }
            StmtKind::Switch { selector, cases } => {
                self.expr(selector);
                for c in cases {
                    for (label, _) in &mut c.labels {
                        if let Some(l) = label {
                            self.expr(l);
                        }
                    }
                    for s in &mut c.body {
                        self.stmt(s);
                    }
                }
            }
            StmtKind::Return(Some(e)) => self.expr(e),
            StmtKind::Return(None)
            | StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Discard
            | StmtKind::Empty => {}
        }
    }

    fn expr(&self, e: &mut Expr) {
        self.span(&mut e.span);
        match &mut e.kind {
            ExprKind::Literal(_) => {}
            ExprKind::Ident(i) => self.name(i),
            ExprKind::Unary { operand, .. } => self.expr(operand),
            ExprKind::Binary { lhs, rhs, .. }
            | ExprKind::Assign { lhs, rhs, .. }
            | ExprKind::Comma(lhs, rhs) => {
                self.expr(lhs);
                self.expr(rhs);
            }
            ExprKind::Index { base, index } => {
                self.expr(base);
                self.expr(index);
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
            ExprKind::Call {
                callee,
                template_args,
                scope,
                args,
            } => {
                self.name(callee);
                for a in template_args {
                    self.arg(a);
                }
                if let Some(s) = scope {
                    self.ty(s);
                }
                for a in args {
                    self.expr(a);
                }
            }
            ExprKind::Construct { ty, args } => {
                self.ty(ty);
                for a in args {
                    self.expr(a);
                }
            }
            ExprKind::MethodCall {
                receiver,
                method,
                type_arg,
                args,
            } => {
                self.expr(receiver);
                self.member(method);
                if let Some(t) = type_arg {
                    self.ty(&mut t.ty);
                    self.dims(&mut t.array_dims);
                }
                for a in args {
                    self.expr(a);
                }
            }
            ExprKind::Cast {
                ty,
                array_dims,
                operand,
            } => {
                self.ty(ty);
                self.dims(array_dims);
                self.expr(operand);
            }
            ExprKind::Member { base, member } => {
                self.expr(base);
                self.member(member);
            }
            ExprKind::Scoped { scope, member } => {
                self.ty(scope);
                self.member(member);
            }
            ExprKind::InitList(list) => {
                for e in list {
                    self.expr(e);
                }
            }
            ExprKind::SizeOf(e) => self.expr(e),
        }
    }
}
