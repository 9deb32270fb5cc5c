//! The functions a body may call, by name, before types are known: a method call names every
//! struct's method of that name (`*.m`), an operator on a struct its `operator` (`*.operator+`),
//! a call of a buffer's counter method names the buffer (after [`COUNTER_USE`]), and an
//! assignment to a whole variable names it (after [`ASSIGNED`]). [`call_order`] finds the
//! functions the entry point reaches from it; [`crate::hlsl::sema::globals`] finds the buffers
//! that need a counter.

use crate::hlsl::ast::{
    Block, Expr, ExprKind, FunctionDecl, Initializer, Item, Stmt, StmtKind, TranslationUnit,
};
use crate::hlsl::diag::Diagnostic;
use crate::hlsl::hir::{GlobalKind, Module};
use crate::hlsl::source::Span;
use std::collections::HashMap;

/// The prefix [`collect_calls_block`] puts before the name of a buffer whose counter method
/// is called (no function has such a name).
pub const COUNTER_USE: &str = "#counter ";

/// The prefix [`collect_calls_block`] puts before the name of a variable assigned as a whole
/// (`x = ...`; no function has such a name).
pub const ASSIGNED: &str = "#assign ";

/// Calls `f` with `e` and every expression inside it that is evaluated (not `sizeof`'s
/// operand), outermost first.
pub fn walk_expr(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    f(e);
    match &e.kind {
        ExprKind::Call { args, .. }
        | ExprKind::Construct { args, .. }
        | ExprKind::InitList(args) => args.iter().for_each(|a| walk_expr(a, f)),
        ExprKind::Unary { operand, .. } | ExprKind::Cast { operand, .. } => walk_expr(operand, f),
        ExprKind::Binary { lhs, rhs, .. }
        | ExprKind::Assign { lhs, rhs, .. }
        | ExprKind::Comma(lhs, rhs) => {
            walk_expr(lhs, f);
            walk_expr(rhs, f);
        }
        ExprKind::Conditional {
            cond,
            then,
            otherwise,
        } => {
            walk_expr(cond, f);
            walk_expr(then, f);
            walk_expr(otherwise, f);
        }
        ExprKind::MethodCall { receiver, args, .. } => {
            walk_expr(receiver, f);
            args.iter().for_each(|a| walk_expr(a, f));
        }
        ExprKind::Member { base, .. } => walk_expr(base, f),
        ExprKind::Index { base, index } => {
            walk_expr(base, f);
            walk_expr(index, f);
        }
        // Unevaluated, or nothing inside.
        ExprKind::SizeOf(_)
        | ExprKind::Scoped { .. }
        | ExprKind::Literal(_)
        | ExprKind::Ident(_) => {}
    }
}

/// [`walk_expr`] over an initializer.
pub fn walk_init(i: &Initializer, f: &mut dyn FnMut(&Expr)) {
    match i {
        Initializer::Expr(e) => walk_expr(e, f),
        Initializer::List(items, _) => items.iter().for_each(|i| walk_init(i, f)),
    }
}

/// [`walk_expr`] over every expression of a statement.
pub fn walk_stmt(s: &Stmt, f: &mut dyn FnMut(&Expr)) {
    match &s.kind {
        StmtKind::Block(b) => walk_block(b, f),
        StmtKind::Expr(e) => walk_expr(e, f),
        StmtKind::Decl(d) => d
            .declarators
            .iter()
            .filter_map(|x| x.init.as_ref())
            .for_each(|i| walk_init(i, f)),
        StmtKind::If {
            cond,
            then,
            otherwise,
        } => {
            walk_expr(cond, f);
            walk_stmt(then, f);
            if let Some(o) = otherwise {
                walk_stmt(o, f);
            }
        }
        StmtKind::For {
            init,
            cond,
            step,
            body,
        } => {
            if let Some(i) = init {
                walk_stmt(i, f);
            }
            cond.iter().chain(step.iter()).for_each(|e| walk_expr(e, f));
            walk_stmt(body, f);
        }
        StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
            walk_expr(cond, f);
            walk_stmt(body, f);
        }
        StmtKind::Switch { selector, cases } => {
            walk_expr(selector, f);
            cases
                .iter()
                .flat_map(|c| &c.body)
                .for_each(|s| walk_stmt(s, f));
        }
        StmtKind::Return(Some(e)) => walk_expr(e, f),
        _ => {}
    }
}

/// [`walk_expr`] over every expression of a block.
pub fn walk_block(b: &Block, f: &mut dyn FnMut(&Expr)) {
    b.stmts.iter().for_each(|s| walk_stmt(s, f));
}

/// The calls one expression node makes (not those of the expressions inside it).
fn calls_of(e: &Expr, out: &mut Vec<(String, Span)>) {
    match &e.kind {
        ExprKind::Call { callee, .. } => {
            out.push((callee.name.clone(), callee.span));
            // `s()` on a struct variable calls its `operator()`.
            out.push(("*.operator()".to_owned(), callee.span));
        }
        // A struct operand calls its `operator`.
        ExprKind::Binary { op, .. } => out.push((format!("*.operator{}", op.symbol()), e.span)),
        ExprKind::Assign { lhs, .. } => {
            if let ExprKind::Ident(name) = &lhs.kind {
                out.push((format!("{ASSIGNED}{}", name.name), name.span));
            }
        }
        ExprKind::MethodCall {
            receiver, method, ..
        } => {
            if let (ExprKind::Ident(r), "IncrementCounter" | "DecrementCounter") =
                (&receiver.kind, method.name.as_str())
            {
                out.push((format!("{COUNTER_USE}{}", r.name), method.span));
            }
            // The receiver's type is not known here: every struct's method of that name.
            out.push((format!("*.{}", method.name), method.span));
        }
        ExprKind::Index { .. } => out.push(("*.operator[]".to_owned(), e.span)),
        _ => {}
    }
}

/// The calls in an initializer, with where each is.
pub fn collect_calls_init(i: &Initializer, out: &mut Vec<(String, Span)>) {
    walk_init(i, &mut |e| calls_of(e, out));
}

/// The calls in a block, with where each is.
pub fn collect_calls_block(b: &Block, out: &mut Vec<(String, Span)>) {
    walk_block(b, &mut |e| calls_of(e, out));
}

/// The functions the static initializers and then the entry point reach, callees first (the
/// order code generation emits them in); `None` after an error: no entry point, or a
/// recursive call.
pub fn call_order(
    unit: &TranslationUnit,
    m: &Module,
    entry: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<String>> {
    if m.functions.get(entry).is_none_or(Vec::is_empty) {
        // About the file, not a place in it: no line or caret.
        diags.push(Diagnostic::error(
            Span::whole_file(Default::default()),
            format!("missing entry point definition '{entry}'"),
        ));
        return None;
    }
    let mut g = CallGraph {
        unit,
        m,
        state: HashMap::new(),
        order: Vec::new(),
        recursion: false,
        diags,
    };
    // What static initializers call runs first, in the entry point's wrapper.
    let mut init_calls = Vec::new();
    for global in &m.globals {
        if let GlobalKind::Static {
            init: Some((idx, k)),
            ..
        } = global.kind
        {
            if let Some(Item::Variables(v)) = unit.items.get(idx) {
                if let Some(init) = v.declarators.get(k).and_then(|d| d.init.as_ref()) {
                    collect_calls_init(init, &mut init_calls);
                }
            }
        }
    }
    g.callees(init_calls);
    g.visit(entry);
    (!g.recursion).then_some(g.order)
}

/// A depth-first walk of the call graph by name.
struct CallGraph<'a> {
    unit: &'a TranslationUnit,
    m: &'a Module<'a>,
    /// False while a function is on the stack, true once visited.
    state: HashMap<String, bool>,
    order: Vec<String>,
    recursion: bool,
    diags: &'a mut Vec<Diagnostic>,
}

impl CallGraph<'_> {
    fn visit(&mut self, name: &str) {
        self.state.insert(name.to_owned(), false);
        let mut calls = Vec::new();
        for sig in self.m.functions.get(name).into_iter().flatten() {
            if let Some(Item::Function(FunctionDecl { body: Some(b), .. })) =
                self.unit.items.get(sig.item)
            {
                collect_calls_block(b, &mut calls);
            }
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
