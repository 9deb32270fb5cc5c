//! The functions a body may call, by name, before types are known: a method call names every
//! struct's method of that name (`*.m`), an operator on a struct its `operator` (`*.operator+`),
//! a call of a buffer's counter method names the buffer (after [`COUNTER_USE`]), and an
//! assignment to a whole variable names it (after [`ASSIGNED`]).
//! [`crate::hlsl::sema::globals`] finds the buffers that need a counter by it, and
//! [`crate::hlsl::sema::body`] the names a body assigns (its calls are found with the types
//! its lowering knows).

use crate::hlsl::ast::{Block, Expr, ExprKind, Initializer, Stmt, StmtKind};
use crate::hlsl::source::Span;

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
            // The buffer's name, or an array of buffers' (`bufs[i].IncrementCounter()`).
            let named = match &receiver.kind {
                ExprKind::Index { base, .. } => base,
                _ => receiver,
            };
            if let (ExprKind::Ident(r), "IncrementCounter" | "DecrementCounter") =
                (&named.kind, method.name.as_str())
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

/// The calls in a block, with where each is.
pub fn collect_calls_block(b: &Block, out: &mut Vec<(String, Span)>) {
    walk_block(b, &mut |e| calls_of(e, out));
}

/// The name an expression names a resource by: `g` for `g` and `g[i]`, `f` for a call of
/// `f` (a function returning a resource names what its `return`s name).
fn root_name(e: &Expr) -> Option<&str> {
    match &e.kind {
        ExprKind::Ident(id) => Some(&id.name),
        ExprKind::Call { callee, .. } => Some(&callee.name),
        ExprKind::Index { base, .. } => match &base.kind {
            ExprKind::Ident(id) => Some(&id.name),
            _ => None,
        },
        _ => None,
    }
}

/// The names a block makes other names for (`R a = g;`, `R a = g[i];`, `a = g;`, `R a =
/// f();`, and `return g;` in the body of `function`), as `(a, g)` pairs: a buffer whose
/// counter is used through `a` needs one as `g`.
pub fn alias_edges(b: &Block, function: Option<&str>, out: &mut Vec<(String, String)>) {
    fn stmt(s: &Stmt, function: Option<&str>, out: &mut Vec<(String, String)>) {
        match &s.kind {
            StmtKind::Block(b) => b.stmts.iter().for_each(|s| stmt(s, function, out)),
            StmtKind::Decl(d) => {
                for x in &d.declarators {
                    if let Some(Initializer::Expr(e)) = &x.init {
                        if let Some(g) = root_name(e) {
                            out.push((x.name.name.clone(), g.to_owned()));
                        }
                    }
                }
            }
            StmtKind::If {
                then, otherwise, ..
            } => {
                stmt(then, function, out);
                if let Some(o) = otherwise {
                    stmt(o, function, out);
                }
            }
            StmtKind::For { init, body, .. } => {
                if let Some(i) = init {
                    stmt(i, function, out);
                }
                stmt(body, function, out);
            }
            StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } => {
                stmt(body, function, out)
            }
            StmtKind::Switch { cases, .. } => cases
                .iter()
                .flat_map(|c| &c.body)
                .for_each(|s| stmt(s, function, out)),
            StmtKind::Return(Some(e)) => {
                if let (Some(f), Some(g)) = (function, root_name(e)) {
                    out.push((f.to_owned(), g.to_owned()));
                }
            }
            _ => {}
        }
    }
    b.stmts.iter().for_each(|s| stmt(s, function, out));
    walk_block(b, &mut |e| {
        if let ExprKind::Assign {
            op: None, lhs, rhs, ..
        } = &e.kind
        {
            if let (ExprKind::Ident(a), Some(g)) = (&lhs.kind, root_name(rhs)) {
                out.push((a.name.clone(), g.to_owned()));
            }
        }
    });
}
