//! Function bodies as statement trees ([`Body`]): each local declaration's type resolved and
//! its constant value folded, `break`/`continue`/`return`/`discard` checked where they stand,
//! loop and selection attributes read into their controls, case labels folded and checked.
//! Only the functions the entry point reaches are lowered, in [`Module::order`].

use super::calls::walk_expr;
use super::consteval::ConstVal;
use super::decls::{row_depth, written_matrix_shape, TypeEnv, TypeResolver};
use super::names::BASE_FIELD;
use super::scope::Scopes;
use super::types::Ty;
use super::types::{ResourceKind, SbFlavor};
use crate::grammar::{LoopControl, SelectionControl};
use crate::hlsl::ast::{
    Attribute, Block, Expr, ExprKind, Initializer, Item, Modifier, Stmt as AstStmt, StmtKind,
    TranslationUnit, VarDecl,
};
use crate::hlsl::diag::Diagnostic;
use crate::hlsl::hir::{Body, Case, ExprMap, GlobalKind, Heap, Local, LocalKind, Module, Stmt};
use crate::hlsl::source::Span;
use crate::hlsl::{LanguageVersion, Options, Stage};
use std::collections::{HashMap, HashSet};

mod intrinsic_args;
mod resource_checks;
mod shape_checks;
mod typeck;

/// Walks the call graph from the static initializers and the entry point, lowering each
/// function reached into `m.bodies` and recording in `m.order` the functions reached, callees
/// first (`None` after an error: no entry point, or a recursive call).
pub fn lower_reached<'u>(
    unit: &'u TranslationUnit,
    m: &mut Module<'u>,
    opts: &Options,
    diags: &mut Vec<Diagnostic>,
) {
    let entry = opts.entry.as_str();
    if m.functions.get(entry).is_none_or(Vec::is_empty) {
        // About the file, not a place in it: no line or caret.
        diags.push(Diagnostic::error(
            Span::whole_file(Default::default()),
            format!("missing entry point definition '{entry}'"),
        ));
        return;
    }
    let (global_rows, global_assignable) = module_facts(m);
    let mut g = CallGraph {
        unit,
        m,
        opts,
        diags,
        globals: module_symbols(m),
        global_rows,
        global_assignable,
        state: HashMap::new(),
        order: Vec::new(),
        bodies: HashMap::new(),
        expr_types: ExprMap::default(),
        callees: ExprMap::default(),
        conversions: ExprMap::default(),
        derivative_use: None,
        stage_bound: Vec::new(),
        recursion: false,
        heaps: Vec::new(),
    };
    // The views `static R r = Heap[i];` use.
    let mut alias_views = Vec::new();
    for (k, global) in m.globals.iter().enumerate() {
        if let GlobalKind::HeapAlias {
            heap: Some(heap),
            coherent,
            ..
        } = global.kind
        {
            let view = HeapView {
                heap,
                ty: global.ty.clone(),
                coherent,
                counter: false,
                span: global.span,
            };
            alias_views.push((k, add_view(&mut g.heaps, view)));
        }
    }
    // What static initializers call runs first, in the entry point's wrapper, where only
    // the module's names are in scope.
    let inits: Vec<(&Initializer, &Ty)> = m
        .globals
        .iter()
        .filter_map(|global| match global.kind {
            GlobalKind::Static {
                init: Some((idx, k)),
                ..
            } => match unit.items.get(idx) {
                Some(Item::Variables(v)) => {
                    Some((v.declarators.get(k)?.init.as_ref()?, &global.ty))
                }
                _ => None,
            },
            _ => None,
        })
        .collect();
    // A `static` resource that is an element of a heap or resource array is indexed where it
    // is used, with the module's names.
    let element_inits: Vec<&Expr> = m
        .globals
        .iter()
        .filter_map(|global| match global.kind {
            GlobalKind::HeapAlias { init: (idx, k), .. } => match unit.items.get(idx) {
                Some(Item::Variables(v)) => match v.declarators.get(k)?.init.as_ref()? {
                    Initializer::Expr(e) => Some(e),
                    Initializer::List(..) => None,
                },
                _ => None,
            },
            _ => None,
        })
        .collect();
    let init_calls = g.at_module_scope(|l| {
        for (init, ty) in inits {
            l.find_calls_init(init);
            l.init_list(init, ty);
        }
        for e in element_inits {
            l.check(e);
        }
        std::mem::take(&mut l.calls)
    });
    g.callees(init_calls);
    g.visit(entry);
    // Default arguments are typed in the module's scope too.
    let reached: Vec<String> = g.order.clone();
    g.at_module_scope(|l| {
        for name in &reached {
            for sig in l.m.functions.get(name).into_iter().flatten() {
                if let Some(Item::Function(d)) = unit.items.get(sig.item) {
                    for (p, (pt, _)) in d.params.iter().zip(&sig.params) {
                        let Some(e) = &p.default else { continue };
                        if let Some(t) = l.check(e) {
                            l.converted(e, &t, pt, e.span);
                        }
                    }
                }
            }
        }
    });
    let (order, bodies, recursion, heaps) = (g.order, g.bodies, g.recursion, g.heaps);
    let (expr_types, callees, conversions) = (g.expr_types, g.callees, g.conversions);
    let (derivative_use, stage_bound) = (g.derivative_use, g.stage_bound);
    m.expr_types = expr_types;
    m.callees = callees;
    m.conversions = conversions;
    m.derivative_use = derivative_use;
    m.stage_bound = stage_bound;
    for (k, v) in alias_views {
        if let Some(GlobalKind::HeapAlias { view, .. }) = m.globals.get_mut(k).map(|g| &mut g.kind)
        {
            *view = HeapView::global_name(&heaps, v);
        }
    }
    if opts.descriptor_heap {
        if let Some(v) = heaps.first() {
            diags.push(Diagnostic::error(
                v.span,
                "not supported yet: -fspv-use-descriptor-heap (SPV_EXT_descriptor_heap); \
                 without it, each heap is a runtime array of descriptors",
            ));
        }
    }
    for (k, v) in heaps.iter().enumerate() {
        m.globals.push(crate::hlsl::hir::Global {
            name: HeapView::global_name(&heaps, k),
            span: v.span,
            ty: v.ty.clone(),
            relaxed: false,
            kind: GlobalKind::Resource {
                binding: crate::hlsl::hir::Binding::Heap(v.heap),
                coherent: v.coherent,
                user_type: None,
                counter: v.counter.then_some(None),
                array: Some(0),
                input_attachment: None,
            },
            descriptor: Default::default(),
            decorations: Vec::new(),
        });
    }
    m.bodies = bodies;
    m.order = (!recursion).then_some(order);
}

/// The types of the module-scope names a body may use: variables, buffers' members, static
/// resources' aliases (an array of resources is an array type, 0 elements when unsized).
fn module_symbols(m: &Module) -> HashMap<String, Ty> {
    let mut out = HashMap::new();
    for g in &m.globals {
        match &g.kind {
            GlobalKind::Block {
                def, as_var: false, ..
            } => {
                for f in &def.fields {
                    out.insert(f.name.clone(), f.ty.clone());
                }
            }
            // `ConstantBuffer<S> b;` is a variable of (a copy of) `S`.
            GlobalKind::Block {
                as_var: true,
                array,
                ..
            } => {
                let ty = match &g.ty {
                    Ty::Resource(_, elem) => (**elem).clone(),
                    t => t.clone(),
                };
                let ty = match array {
                    Some(n) => Ty::Array(Box::new(ty), *n),
                    None => ty,
                };
                out.insert(g.name.clone(), ty);
            }
            GlobalKind::Resource { array: Some(n), .. } => {
                out.insert(g.name.clone(), Ty::Array(Box::new(g.ty.clone()), *n));
            }
            GlobalKind::String(_) | GlobalKind::Alias(_) => {}
            GlobalKind::HeapAlias { .. } => {
                out.insert(g.name.clone(), g.ty.clone());
            }
            _ => {
                out.insert(g.name.clone(), g.ty.clone());
            }
        }
    }
    for g in &m.globals {
        if let GlobalKind::Alias(target) = &g.kind {
            if let Some(t) = out.get(target).cloned() {
                out.insert(g.name.clone(), t);
            }
        }
    }
    out
}

/// What bodies need to know of module-scope names beyond their types: the row depths of
/// those declared as 1xN matrices (or arrays of them), and whether each that is not a
/// resource may be assigned (`static` and `groupshared` variables may; constants,
/// specialization constants, constant-buffer members and `ConstantBuffer<S>` variables may
/// not).
fn module_facts(m: &Module) -> (HashMap<String, u8>, HashMap<String, bool>) {
    let (mut rows, mut assignable) = (HashMap::new(), HashMap::new());
    for g in &m.globals {
        match &g.kind {
            GlobalKind::Block {
                def, as_var: false, ..
            } => {
                for f in &def.fields {
                    if let Some(d) = f.row_depth {
                        rows.insert(f.name.clone(), d);
                    }
                    assignable.insert(f.name.clone(), false);
                }
            }
            GlobalKind::Block { as_var: true, .. }
            | GlobalKind::Constant(_)
            | GlobalKind::SpecConstant { .. } => {
                assignable.insert(g.name.clone(), false);
            }
            GlobalKind::Static {
                konst, row_depth, ..
            } => {
                assignable.insert(g.name.clone(), !konst);
                if let Some(d) = row_depth {
                    rows.insert(g.name.clone(), *d);
                }
            }
            GlobalKind::BuiltInVar { output, .. } => {
                assignable.insert(g.name.clone(), *output);
            }
            GlobalKind::GroupShared { row_depth } => {
                assignable.insert(g.name.clone(), true);
                if let Some(d) = row_depth {
                    rows.insert(g.name.clone(), *d);
                }
            }
            _ => {}
        }
    }
    (rows, assignable)
}

/// A depth-first walk of the call graph, lowering each function as it is reached.
struct CallGraph<'a, 'u> {
    unit: &'u TranslationUnit,
    m: &'a Module<'u>,
    opts: &'a Options,
    diags: &'a mut Vec<Diagnostic>,
    globals: HashMap<String, Ty>,
    /// The module-scope names declared as 1xN matrices: their row depths.
    global_rows: HashMap<String, u8>,
    /// Which module-scope names may be assigned ([`module_assignable`]).
    global_assignable: HashMap<String, bool>,
    /// False while a function is on the stack, true once visited.
    state: HashMap<String, bool>,
    order: Vec<String>,
    bodies: HashMap<usize, Body<'u>>,
    /// The types of the bodies' expressions (see [`Module::expr_types`]).
    expr_types: ExprMap<Ty>,
    /// The overloads their calls call (see [`Module::callees`]).
    callees: ExprMap<usize>,
    /// Their implicit conversions (see [`Module::conversions`]).
    conversions: ExprMap<Ty>,
    /// Their first use of derivatives (see [`Module::derivative_use`]).
    derivative_use: Option<Span>,
    /// Their errors that legalization may make moot (see [`Module::stage_bound`]).
    stage_bound: Vec<Diagnostic>,
    recursion: bool,
    heaps: Vec<HeapView>,
}

impl<'u> CallGraph<'_, 'u> {
    /// Runs `f` with a lowerer that sees only the module's names (static initializers,
    /// default arguments).
    fn at_module_scope<T>(&mut self, f: impl FnOnce(&mut Lowerer) -> T) -> T {
        let (void, none, counts) = (Ty::Void, HashSet::new(), HashMap::new());
        self.lowerer(&void, &none, &counts, f)
    }

    /// Runs `f` with a lowerer for a body returning `ret` that assigns the names
    /// `reassigned` as wholes, `assign_counts` times each.
    fn lowerer<T>(
        &mut self,
        ret: &Ty,
        reassigned: &HashSet<String>,
        assign_counts: &HashMap<String, usize>,
        f: impl FnOnce(&mut Lowerer) -> T,
    ) -> T {
        let mut l = Lowerer {
            unit: self.unit,
            m: self.m,
            globals: &self.globals,
            global_rows: &self.global_rows,
            global_assignable: &self.global_assignable,
            rows: ExprMap::default(),
            opts: self.opts,
            diags: &mut *self.diags,
            scopes: Scopes::default(),
            jumps: Vec::new(),
            ret,
            reassigned,
            calls: Vec::new(),
            heaps: &mut self.heaps,
            assign_counts,
            direct: Vec::new(),
            types: &mut self.expr_types,
            callees: &mut self.callees,
            conversions: &mut self.conversions,
            derivative_use: &mut self.derivative_use,
            stage_bound: &mut self.stage_bound,
        };
        f(&mut l)
    }

    fn visit(&mut self, name: &str) {
        self.state.insert(name.to_owned(), false);
        let mut calls = Vec::new();
        for sig in self.m.functions.get(name).into_iter().flatten() {
            let Some(Item::Function(decl)) = self.unit.items.get(sig.item) else {
                continue;
            };
            let Some(block) = &decl.body else { continue };
            let mut assigned = Vec::new();
            super::calls::collect_calls_block(block, &mut assigned);
            let mut assign_counts: HashMap<String, usize> = HashMap::new();
            for (c, _) in &assigned {
                if let Some(n) = c.strip_prefix(super::calls::ASSIGNED) {
                    *assign_counts.entry(n.to_owned()).or_default() += 1;
                }
            }
            let reassigned: HashSet<String> = assign_counts.keys().cloned().collect();
            let (stmts, mut found) = self.lowerer(&sig.ret, &reassigned, &assign_counts, |l| {
                for (k, (p, (ty, _))) in decl.params.iter().zip(&sig.params).enumerate() {
                    if let Some(n) = &p.name {
                        // (An unsized array of resources takes each call's array: code
                        // generation emits an instance per size.)
                        let mut sym = LocalSym::typed(ty.clone());
                        sym.konst = l.m.types.is_const(&p.modifiers, &p.ty);
                        sym.row_depth = sig.row_params.get(k).copied().flatten();
                        l.scopes.declare(&n.name, sym);
                    }
                }
                l.direct.push(direct_assignments(&block.stmts));
                let stmts: Vec<Stmt<'u>> = block.stmts.iter().map(|s| l.stmt(s)).collect();
                (stmts, std::mem::take(&mut l.calls))
            });
            calls.append(&mut found);
            self.bodies.insert(sig.item, Body { stmts, reassigned });
        }
        self.callees(calls);
        self.state.insert(name.to_owned(), true);
        self.order.push(name.to_owned());
    }

    fn callees(&mut self, calls: Vec<(String, Span)>) {
        for (callee, span) in calls {
            if let Some(method) = callee.strip_prefix('*') {
                let mut methods: Vec<String> = self
                    .m
                    .functions
                    .keys()
                    .filter(|n| n.ends_with(method))
                    .cloned()
                    .collect();
                methods.sort();
                for m in methods {
                    // Over-approximated edges: a method on the stack is not a recursion here
                    // (a real one fails when its call finds the callee not yet emitted).
                    if !self.state.contains_key(&m) {
                        self.visit(&m);
                    }
                }
                continue;
            }
            if !self.m.functions.contains_key(&callee) {
                continue;
            }
            match self.state.get(&callee) {
                Some(false) => {
                    self.recursion = true;
                    self.diags.push(Diagnostic::error(
                        span,
                        format!("recursive call to '{callee}': recursion is not allowed"),
                    ));
                }
                Some(true) => {}
                None => self.visit(&callee),
            }
        }
    }
}

/// What a body knows of a local name: its type (unless `auto`), and for a `const` local its
/// value or elements (a variable without them shadows any module constant of its name).
#[derive(Clone, Default)]
struct LocalSym {
    ty: Option<Ty>,
    /// `const`: not assignable.
    konst: bool,
    /// Array indices to a 1xN matrix (collapsed to a vector), if declared as one.
    row_depth: Option<u8>,
    value: Option<ConstVal>,
    elements: Option<Vec<ConstVal>>,
    /// A resource variable declared without an initializer, not assigned yet.
    unset: bool,
}

impl LocalSym {
    fn typed(ty: Ty) -> Self {
        LocalSym {
            ty: Some(ty),
            ..LocalSym::default()
        }
    }
}

/// The value of constant `n` (`a[k]` for an element of a constant array) as a body sees it.
fn constant(scopes: &Scopes<LocalSym>, env: &TypeEnv, n: &str) -> Option<ConstVal> {
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
    unit: &'a TranslationUnit,
    m: &'a Module<'a>,
    /// The module-scope names' types.
    globals: &'a HashMap<String, Ty>,
    /// The module-scope names declared as 1xN matrices: their row depths.
    global_rows: &'a HashMap<String, u8>,
    /// Which module-scope names may be assigned.
    global_assignable: &'a HashMap<String, bool>,
    /// The expressions that are 1xN matrices (collapsed to vectors) or arrays of them: the
    /// array indices to the matrix (its row index then selects the whole vector).
    rows: ExprMap<u8>,
    opts: &'a Options,
    diags: &'a mut Vec<Diagnostic>,
    scopes: Scopes<LocalSym>,
    /// The enclosing breakable statements, innermost last: true for a loop, false for a
    /// switch.
    jumps: Vec<bool>,
    ret: &'a Ty,
    reassigned: &'a HashSet<String>,
    /// The functions the body calls, in order, with where (see [`Lowerer::find_calls`]).
    calls: Vec<(String, Span)>,
    /// The descriptor heap views it uses, as [`HeapView`]s.
    heaps: &'a mut Vec<HeapView>,
    /// How many times the body assigns each name as a whole (`x = ...`).
    assign_counts: &'a HashMap<String, usize>,
    /// Per enclosing block, innermost last: how many of its own statements are `x = e;`, by
    /// name (a local resource assigned only so is rebound where it is assigned).
    direct: Vec<HashMap<String, usize>>,
    /// The types of the expressions checked so far ([`Lowerer::check`]).
    types: &'a mut ExprMap<Ty>,
    /// The overload each call checked so far calls, by item (see [`Module::callees`]).
    callees: &'a mut ExprMap<usize>,
    /// The implicit conversions found so far (see [`Module::conversions`]).
    conversions: &'a mut ExprMap<Ty>,
    /// The first use of derivatives found so far (see [`Module::derivative_use`]).
    derivative_use: &'a mut Option<Span>,
    /// The errors found so far that legalization may make moot (see [`Module::stage_bound`]).
    stage_bound: &'a mut Vec<Diagnostic>,
}

/// How many of `stmts` (not the statements inside them) are `x = e;`, by name.
fn direct_assignments(stmts: &[AstStmt]) -> HashMap<String, usize> {
    let mut out = HashMap::new();
    for s in stmts {
        if let StmtKind::Expr(Expr {
            kind: ExprKind::Assign { op: None, lhs, .. },
            ..
        }) = &s.kind
        {
            if let ExprKind::Ident(id) = &lhs.kind {
                *out.entry(id.name.clone()).or_default() += 1;
            }
        }
    }
    out
}

/// One resource type a descriptor heap is used as (each is a runtime array of that type at the
/// heap's binding).
#[derive(Clone, Debug, PartialEq)]
struct HeapView {
    heap: Heap,
    ty: Ty,
    coherent: bool,
    /// Its buffers have counters (an array of them at the counter heap's binding).
    counter: bool,
    /// Where it is first used.
    span: Span,
}

/// The index of `view` among `views`, added if no view of its heap, type and coherence is
/// there yet (one view serves all the heap's buffers of a type: with a counter if any needs
/// it).
fn add_view(views: &mut Vec<HeapView>, view: HeapView) -> usize {
    let same = |v: &HeapView| (v.heap, &v.ty, v.coherent) == (view.heap, &view.ty, view.coherent);
    match views.iter().position(same) {
        Some(k) => {
            views[k].counter |= view.counter;
            k
        }
        None => {
            views.push(view);
            views.len() - 1
        }
    }
}

impl HeapView {
    /// The module-scope name of the view: the heap's name and its index among the views
    /// (`#` keeps it from any source name; SPIR-V names the variable after the heap).
    fn global_name(views: &[HeapView], k: usize) -> String {
        format!("{}#{k}", views[k].heap.name())
    }
}

impl<'a> Lowerer<'a> {
    fn error(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::error(span, msg));
    }

    /// Runs `f` with a type resolver that sees the names in scope.
    fn with_resolver<T>(&mut self, f: impl FnOnce(&mut TypeResolver) -> T) -> T {
        let (consts, env) = (&self.scopes, &self.m.types);
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
    fn declare(&mut self, name: &crate::hlsl::ast::Ident, c: LocalSym) {
        if !self.scopes.declare(&name.name, c) {
            self.error(name.span, format!("redefinition of '{}'", name.name));
        }
    }

    /// The functions `e` calls, into `self.calls`: a method or operator of a struct the
    /// receiver is known to be resolves to that struct's (or a base's) member function; one
    /// whose receiver's type is not known yet names every struct's method of that name.
    fn find_calls(&mut self, e: &Expr) {
        self.check(e);
        let mut found = Vec::new();
        walk_expr(e, &mut |x| self.calls_of(x, &mut found));
        self.calls.append(&mut found);
    }

    fn find_calls_init(&mut self, i: &Initializer) {
        self.check_init(i);
        let mut found = Vec::new();
        super::calls::walk_init(i, &mut |x| self.calls_of(x, &mut found));
        self.calls.append(&mut found);
    }

    /// The calls one expression node makes (not those of the expressions inside it).
    fn calls_of(&self, e: &Expr, out: &mut Vec<(String, Span)>) {
        // A member function of the struct `t` is, or of every struct when `t` is unknown.
        let member = |t: Option<Ty>, name: &str, span: Span, out: &mut Vec<(String, Span)>| match t
        {
            Some(Ty::Struct(i)) => {
                if let Some(f) = self.method(i, name) {
                    out.push((f, span));
                }
            }
            Some(_) => {}
            None => out.push((format!("*.{name}"), span)),
        };
        match &e.kind {
            // `s()` on a struct variable calls its `operator()`; on any other name, the function.
            ExprKind::Call { callee, .. } => match self.variable(&callee.name) {
                Some(Some(t @ Ty::Struct(_))) => member(Some(t), "operator()", callee.span, out),
                Some(None) => {
                    out.push((callee.name.clone(), callee.span));
                    member(None, "operator()", callee.span, out);
                }
                _ => out.push((callee.name.clone(), callee.span)),
            },
            ExprKind::Binary { op, lhs, .. } => {
                let name = format!("operator{}", op.symbol());
                member(self.typed(lhs), &name, e.span, out);
            }
            ExprKind::Index { base, .. } => member(self.typed(base), "operator[]", e.span, out),
            ExprKind::MethodCall {
                receiver, method, ..
            } => member(self.typed(receiver), &method.name, method.span, out),
            _ => {}
        }
    }

    /// The module-scope name of `heap`'s view as the resource type `ty` that the local `decl`
    /// initializes from (`R r = Heap[i];`); `None` (reported) for what the heaps do not
    /// support yet.
    fn heap_view(
        &mut self,
        d: &VarDecl,
        decl: &crate::hlsl::ast::Declarator,
        ty: &Ty,
        heap: Heap,
        is_static: bool,
        span: Span,
    ) -> Option<String> {
        let counted = match ty {
            Ty::Resource(ResourceKind::StructuredBuffer { flavor, rw, .. }, _) => {
                *flavor != super::types::SbFlavor::Plain
                    || (*rw && self.m.counter_users.contains(&decl.name.name))
            }
            _ => false,
        };
        let why = match ty {
            _ if is_static => Some("a static resource initialized from a descriptor heap"),
            Ty::Resource(ResourceKind::ConstantBuffer | ResourceKind::TextureBuffer, _) => {
                Some("a ConstantBuffer or TextureBuffer from a descriptor heap")
            }
            _ => None,
        };
        if let Some(why) = why {
            self.error(span, format!("not supported yet: {why}"));
            return None;
        }
        let view = HeapView {
            heap,
            ty: ty.clone(),
            coherent: d
                .modifiers
                .iter()
                .any(|m| m.modifier == Modifier::GloballyCoherent),
            counter: counted,
            span,
        };
        let k = add_view(self.heaps, view);
        Some(HeapView::global_name(self.heaps, k))
    }

    /// The member function `name` of struct `i` or of its nearest base that has one, as code
    /// generation calls it (a block's copy of a struct has the struct's methods).
    fn method(&self, i: usize, name: &str) -> Option<String> {
        self.method_in(i, name).map(|(f, _)| f)
    }

    /// [`Lowerer::method`], with the struct (`i` or the base) that has it.
    fn method_in(&self, mut i: usize, name: &str) -> Option<(String, usize)> {
        for _ in 0..32 {
            let def = self.m.types.structs.get(i)?;
            let owner = def.origin.as_ref().unwrap_or(&def.name);
            let f = format!("{owner}.{name}");
            if self.m.functions.contains_key(&f) {
                return Some((f, i));
            }
            match def.fields.first() {
                Some(f) if f.name == BASE_FIELD => {
                    let Ty::Struct(b) = f.ty else { return None };
                    i = b;
                }
                _ => return None,
            }
        }
        None
    }

    /// The variable `name` as the body sees it: `Some(None)` when its type is not known here
    /// (`auto`), `None` when it is not a variable.
    fn variable(&self, name: &str) -> Option<Option<Ty>> {
        match self.scopes.lookup(name) {
            Some(local) => Some(local.ty.clone()),
            None => self.globals.get(name).cloned().map(Some),
        }
    }

    /// Whether `f` is a non-static member function (its first parameter is `this`).
    fn has_this(&self, f: &crate::hlsl::hir::Signature) -> bool {
        match self.unit.items.get(f.item) {
            Some(Item::Function(d)) => d
                .params
                .first()
                .and_then(|p| p.name.as_ref())
                .is_some_and(|n| n.name == "this"),
            _ => false,
        }
    }

    fn block<'u>(&mut self, b: &'u Block) -> Stmt<'u> {
        self.scopes.push();
        self.direct.push(direct_assignments(&b.stmts));
        let stmts = b.stmts.iter().map(|s| self.stmt(s)).collect();
        self.direct.pop();
        self.scopes.pop();
        Stmt::Block(stmts)
    }

    /// Whether every assignment of the whole name `n` in the body is a statement `n = e;` of
    /// the innermost block (where a local declared now lives): such a local resource is
    /// rebound, in order, where it is assigned. (A statement of a nested block, an `if` or
    /// a loop could run or not, which only a legalizer could follow.)
    fn assigned_directly(&self, n: &str) -> bool {
        let direct = self
            .direct
            .last()
            .and_then(|d| d.get(n))
            .copied()
            .unwrap_or(0);
        direct > 0 && self.assign_counts.get(n).copied() == Some(direct)
    }

    /// A statement in a scope of its own (an `if` arm, a loop body).
    fn scoped<'u>(&mut self, s: &'u AstStmt) -> Box<Stmt<'u>> {
        self.scopes.push();
        let s = self.stmt(s);
        self.scopes.pop();
        Box::new(s)
    }

    fn stmt<'u>(&mut self, s: &'u AstStmt) -> Stmt<'u> {
        match &s.kind {
            StmtKind::Block(b) => self.block(b),
            StmtKind::Expr(e) => {
                self.find_calls(e);
                Stmt::Expr(e)
            }
            StmtKind::Decl(d) => Stmt::Locals(self.locals(d, &s.attributes)),
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => Stmt::If {
                cond: {
                    self.find_calls(cond);
                    self.condition(cond);
                    cond
                },
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
                self.scopes.push();
                let init = init.as_deref().map(|i| self.stmt(i));
                let lp = self.loop_stmt(&s.attributes, cond.as_ref(), step.as_ref(), body, false);
                self.scopes.pop();
                Stmt::Block(init.into_iter().chain([lp]).collect())
            }
            StmtKind::While { cond, body } => {
                self.loop_stmt(&s.attributes, Some(cond), None, body, false)
            }
            StmtKind::DoWhile { body, cond } => {
                self.loop_stmt(&s.attributes, Some(cond), None, body, true)
            }
            StmtKind::Switch { selector, cases } => {
                self.find_calls(selector);
                self.jumps.push(false);
                self.scopes.push();
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
                self.scopes.pop();
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
                if let Some(v) = value {
                    self.find_calls(v);
                    let ret = self.ret.clone();
                    if let Some(t) = self.typed(v) {
                        if ret != Ty::Void && !ret.is_resource() && !t.is_resource() {
                            self.converted(v, &t, &ret, v.span);
                        }
                        // A resource (other than a constant buffer, a value of its struct
                        // here) returns a resource of its type.
                        let buffer = matches!(
                            ret,
                            Ty::Resource(
                                ResourceKind::ConstantBuffer | ResourceKind::TextureBuffer,
                                _
                            )
                        );
                        if ret.is_resource() && !buffer && t != ret {
                            let (f, to) = (self.m.types.show(&t), self.m.types.show(&ret));
                            self.error(v.span, format!("cannot convert from '{f}' to '{to}'"));
                        }
                    }
                }
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
            // Name resolution replaces local aliases by what they stand for.
            StmtKind::Typedef(t) => {
                self.error(
                    t.span,
                    "internal: a local type alias reached code generation unresolved",
                );
                Stmt::Block(Vec::new())
            }
        }
    }

    fn loop_stmt<'u>(
        &mut self,
        attrs: &[Attribute],
        cond: Option<&'u Expr>,
        step: Option<&'u Expr>,
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
        // In evaluation order: a `do`'s body before its condition, a `for`'s step last.
        if !do_while {
            cond.into_iter().for_each(|c| {
                self.find_calls(c);
                self.condition(c);
            });
        }
        self.jumps.push(true);
        let body = self.scoped(body);
        self.jumps.pop();
        if do_while {
            cond.into_iter().for_each(|c| {
                self.find_calls(c);
                self.condition(c);
            });
        }
        step.into_iter().for_each(|c| self.find_calls(c));
        Stmt::Loop {
            cond,
            step,
            body,
            do_while,
            control,
        }
    }

    /// The variables of a local declaration, checking `[[vk::ext_decorate*]]` on them (code
    /// generation decorates the Function variables).
    fn locals<'u>(
        &mut self,
        d: &'u VarDecl,
        stmt_attrs: &[crate::hlsl::ast::Attribute],
    ) -> Vec<Local<'u>> {
        let decorations = {
            let (consts, env, opts) = (&self.scopes, &self.m.types, self.opts);
            let lookup = |n: &str| constant(consts, env, n);
            let value = |e: &crate::hlsl::ast::Expr| {
                crate::hlsl::sema::decls::fold(e, opts, &lookup).and_then(ConstVal::as_int)
            };
            let attrs: Vec<_> = stmt_attrs.iter().chain(&d.attributes).cloned().collect();
            crate::hlsl::sema::attributes::ext_decorations(&attrs, &value)
        };
        let decorations = decorations.unwrap_or_else(|e| {
            self.diags.push(e);
            Vec::new()
        });
        let mut out = self.locals_of(d);
        let decorated = !decorations.is_empty();
        for l in &mut out {
            l.decorations = decorations.clone();
        }
        if decorated
            && out
                .iter()
                .any(|l| !matches!(l.kind, LocalKind::Var { .. } | LocalKind::Refused))
        {
            self.error(
                d.span,
                "not supported yet: [[vk::ext_decorate]] on a local other than a plain variable \
                 (a static, auto or resource local)",
            );
        }
        out
    }

    /// [`Self::locals`] less the decorations.
    fn locals_of<'u>(&mut self, d: &'u VarDecl) -> Vec<Local<'u>> {
        let has = |m: Modifier| d.modifiers.iter().any(|x| x.modifier == m);
        let konst = self.m.types.is_const(&d.modifiers, &d.ty);
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
                let mut sym = LocalSym::default();
                if let Some(init) = &decl.init {
                    self.find_calls_init(init);
                    if let Initializer::Expr(e) = init {
                        sym.ty = self.typed(e);
                    }
                }
                self.declare(&decl.name, sym);
                out.push(Local {
                    decorations: Vec::new(),
                    decl: d,
                    declarator: decl,
                    kind: LocalKind::Auto { konst },
                });
            }
            return out;
        }
        let resolved = if is_static {
            self.with_resolver(|r| r.resolve_type(&d.ty))
        } else {
            self.with_resolver(|r| r.resolve_local_type(&d.ty))
        };
        let Some((base, relaxed)) = resolved else {
            // (Reported; the names are declared refused, so their uses report nothing more.)
            return d
                .declarators
                .iter()
                .map(|decl| self.refused(d, decl))
                .collect();
        };
        if base.is_resource() {
            return self.resource_aliases(d, base, is_static);
        }
        // A ray query is one Function variable of its own, declared without an initializer.
        if base.is_ray_query() {
            let why = if is_static {
                Some("not supported yet: a 'static' RayQuery")
            } else if d.declarators.iter().any(|x| !x.array_dims.is_empty()) {
                Some("not supported yet: arrays of RayQuery")
            } else if d.declarators.iter().any(|x| x.init.is_some()) {
                Some("not supported yet: a RayQuery with an initializer")
            } else {
                None
            };
            if let Some(why) = why {
                self.error(d.ty.span, why);
                return d
                    .declarators
                    .iter()
                    .map(|decl| self.refused(d, decl))
                    .collect();
            }
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
        let resource_struct =
            matches!(&base, Ty::Struct(i) if self.m.types.resource_structs.contains(i));
        for decl in &d.declarators {
            if resource_struct && !decl.array_dims.is_empty() {
                self.error(
                    decl.name.span,
                    "not supported yet: arrays of structs holding resources",
                );
                out.push(self.refused(d, decl));
                continue;
            }
            let Some(ty) = self.with_resolver(|r| {
                r.array_type(&base, &decl.array_dims, decl.init.as_ref(), decl.name.span)
            }) else {
                out.push(self.refused(d, decl));
                continue;
            };
            // The name is in scope in its own initializer, as in C++ (and not a constant
            // there).
            self.declare(&decl.name, LocalSym::typed(ty.clone()));
            if let Some(init) = &decl.init {
                self.find_calls_init(init);
                self.init_list(init, &ty);
                // (A 1xN matrix's initializer is truncated to its written shape first.)
                let shape = written_matrix_shape(&d.ty).filter(|_| decl.array_dims.is_empty());
                let shaped = shape.is_some();
                if let (Initializer::Expr(e), Some((a, b))) = (init, shape) {
                    if let Some(t @ Ty::Matrix(_, r, c)) = self.typed(e) {
                        if a * b < r * c {
                            let msg =
                                format!("implicit truncation of matrix type ({t} to {a}x{b})");
                            self.diags
                                .push(crate::hlsl::diag::Diagnostic::warning(e.span, msg));
                        }
                    }
                }
                if let (Initializer::Expr(e), false) = (init, shaped) {
                    let list = matches!(e.kind, ExprKind::InitList(_));
                    if let (Some(t), false) = (self.typed(e), list) {
                        self.converted(e, &t, &ty, e.span);
                    }
                }
            }
            if is_static {
                out.push(Local {
                    decorations: Vec::new(),
                    decl: d,
                    declarator: decl,
                    kind: LocalKind::Static { ty, konst },
                });
                continue;
            }
            let mut c = LocalSym::typed(ty.clone());
            c.row_depth = row_depth(&d.ty, decl.array_dims.len());
            c.konst = konst;
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
                    // (DXC accepts one of a `const` typedef without: it is then only
                    // never assigned.)
                    None if has(Modifier::Const) => self.error(
                        decl.span,
                        format!("const variable '{}' needs an initializer", decl.name.name),
                    ),
                    None => {}
                }
            }
            self.scopes.declare(&decl.name.name, c.clone());
            out.push(Local {
                decorations: Vec::new(),
                decl: d,
                declarator: decl,
                kind: LocalKind::Var {
                    row_depth: c.row_depth,
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

    /// A local whose declaration was refused (reported): declared, untyped, so that its
    /// uses report nothing more.
    fn refused<'u>(&mut self, d: &'u VarDecl, decl: &'u crate::hlsl::ast::Declarator) -> Local<'u> {
        self.declare(&decl.name, LocalSym::default());
        Local {
            decorations: Vec::new(),
            decl: d,
            declarator: decl,
            kind: LocalKind::Refused,
        }
    }

    /// Local resource variables: names for the resources their initializers name, which they
    /// stay (HLSL resources are handles; SPIR-V has no variables of them outside the
    /// legalizer's reach). One assigned again, or without an initializer, would need the
    /// legalizer.
    fn resource_aliases<'u>(
        &mut self,
        d: &'u VarDecl,
        base: Ty,
        is_static: bool,
    ) -> Vec<Local<'u>> {
        let mut out = Vec::new();
        for decl in &d.declarators {
            let ty = if decl.array_dims.is_empty() {
                base.clone()
            } else {
                let span = decl.name.span;
                let dims = &decl.array_dims;
                match self.with_resolver(|r| r.array_type(&base, dims, decl.init.as_ref(), span)) {
                    Some(t) => t,
                    None => {
                        out.push(self.refused(d, decl));
                        continue;
                    }
                }
            };
            let direct = !is_static && self.assigned_directly(&decl.name.name);
            // An array is a name for a whole module-scope array it is initialized with.
            let array_alias = !decl.array_dims.is_empty()
                && matches!(decl.init, Some(Initializer::Expr(_)))
                && !is_static
                && !self.reassigned.contains(&decl.name.name)
                && !direct;
            let why = if !decl.array_dims.is_empty() && !array_alias {
                Some("local arrays of resources other than a name for a module-scope array")
            } else if !matches!(decl.init, Some(Initializer::Expr(_))) && !direct {
                Some(
                    "a local resource variable without an initializer, other than assigned \
                     only by statements of its own block",
                )
            } else if self.reassigned.contains(&decl.name.name) && !direct {
                Some(
                    "assigning to a local resource variable other than by statements of its \
                     own block",
                )
            } else {
                None
            };
            // A buffer's counter, an array's elements or a `static` lifetime would not
            // follow the resource through a variable; any other resource does.
            // (Nor does a constant or texture buffer, which code generation reaches as a block
            // of members rather than as one resource.)
            let counted = match &ty {
                Ty::Resource(ResourceKind::StructuredBuffer { flavor, rw, .. }, _) => {
                    *flavor != SbFlavor::Plain
                        || (*rw && self.m.counter_users.contains(&decl.name.name))
                }
                Ty::Resource(ResourceKind::ConstantBuffer | ResourceKind::TextureBuffer, _) => true,
                _ => false,
            };
            let held = why.is_some() && decl.array_dims.is_empty() && !is_static && !counted;
            if let Some(why) = why.filter(|_| !held) {
                self.error(decl.name.span, format!("not supported yet: {why}"));
                out.push(self.refused(d, decl));
                continue;
            }
            let from_heap = match &decl.init {
                _ if held => None,
                Some(Initializer::Expr(Expr {
                    kind: ExprKind::Index { base, .. },
                    span,
                })) => match &base.kind {
                    ExprKind::Ident(h) if self.variable(&h.name).is_none() => {
                        match Heap::by_name(&h.name) {
                            Some(heap) => {
                                match self.heap_view(d, decl, &ty, heap, is_static, *span) {
                                    Some(name) => Some(name),
                                    None => {
                                        out.push(self.refused(d, decl));
                                        continue;
                                    }
                                }
                            }
                            None => None,
                        }
                    }
                    _ => None,
                },
                _ => None,
            };
            if let Some(init) = &decl.init {
                self.find_calls_init(init);
                self.resource_init(init, &ty);
                // `R l[n] = g;` names an array of the same length.
                if let (true, Initializer::Expr(e)) = (array_alias, init) {
                    match self.typed(e) {
                        Some(t) if t == ty => {}
                        Some(t) => {
                            let (f, to) = (self.m.types.show(&t), self.m.types.show(&ty));
                            self.error(
                                e.span,
                                format!(
                                    "cannot initialize a variable of type '{to}' with an \
                                     lvalue of type '{f}'"
                                ),
                            );
                            out.push(self.refused(d, decl));
                            continue;
                        }
                        None => {
                            out.push(self.refused(d, decl));
                            continue;
                        }
                    }
                }
            }
            let sym = LocalSym {
                unset: decl.init.is_none(),
                ..LocalSym::typed(ty.clone())
            };
            self.declare(&decl.name, sym);
            out.push(Local {
                decorations: Vec::new(),
                decl: d,
                declarator: decl,
                kind: if held {
                    LocalKind::ResourceVar { ty: ty.clone() }
                } else {
                    LocalKind::ResourceAlias {
                        ty: ty.clone(),
                        is_static,
                        from_heap,
                    }
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

    fn lower(src: &str, profile: &str) -> (Module<'static>, Vec<String>) {
        let (m, diags) = crate::hlsl::sema::globals::declare_for_test(src, profile);
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
        // Callers are lowered before their callees.
        assert_eq!(
            diags,
            [
                "'break' outside a loop or switch",
                "'continue' outside a loop",
                "'discard' is only allowed in pixel shaders",
                "redefinition of 'x'",
                "non-void function must return a value",
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
