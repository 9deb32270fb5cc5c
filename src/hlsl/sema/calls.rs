//! The functions a body may call, by name, before types are known: a method call names every
//! struct's method of that name (`*.m`), an operator on a struct its `operator` (`*.operator+`),
//! a call of a buffer's counter method names the buffer (after [`COUNTER_USE`]), and an
//! assignment to a whole variable names it (after [`ASSIGNED`]). Code
//! generation orders the functions it emits by it; [`crate::hlsl::sema::globals`] finds the
//! buffers that need a counter.

use crate::hlsl::ast::{Block, Expr, ExprKind, Initializer, Stmt, StmtKind};
use crate::hlsl::source::Span;

/// The prefix [`collect_calls_expr`] puts before the name of a buffer whose counter method
/// is called (no function has such a name).
pub const COUNTER_USE: &str = "#counter ";

/// The prefix [`collect_calls_expr`] puts before the name of a variable assigned as a whole
/// (`x = ...`; no function has such a name).
pub const ASSIGNED: &str = "#assign ";

/// The calls in `e`, with where each is.
pub fn collect_calls_expr(e: &Expr, out: &mut Vec<(String, Span)>) {
    match &e.kind {
        ExprKind::Call { callee, args, .. } => {
            out.push((callee.name.clone(), callee.span));
            // `s()` on a struct variable calls its `operator()`.
            out.push(("*.operator()".to_owned(), callee.span));
            args.iter().for_each(|a| collect_calls_expr(a, out));
        }
        ExprKind::Unary { operand, .. } => collect_calls_expr(operand, out),
        ExprKind::Binary { lhs, rhs, op } => {
            // A struct operand calls its `operator`.
            out.push((format!("*.operator{}", op.symbol()), e.span));
            collect_calls_expr(lhs, out);
            collect_calls_expr(rhs, out);
        }
        ExprKind::Assign { lhs, rhs, .. } => {
            if let ExprKind::Ident(name) = &lhs.kind {
                out.push((format!("{ASSIGNED}{}", name.name), name.span));
            }
            collect_calls_expr(lhs, out);
            collect_calls_expr(rhs, out);
        }
        ExprKind::Comma(lhs, rhs) => {
            collect_calls_expr(lhs, out);
            collect_calls_expr(rhs, out);
        }
        ExprKind::Conditional {
            cond,
            then,
            otherwise,
        } => {
            collect_calls_expr(cond, out);
            collect_calls_expr(then, out);
            collect_calls_expr(otherwise, out);
        }
        ExprKind::Construct { args, .. } | ExprKind::InitList(args) => {
            args.iter().for_each(|a| collect_calls_expr(a, out))
        }
        ExprKind::MethodCall {
            receiver,
            method,
            args,
            ..
        } => {
            if let (ExprKind::Ident(r), "IncrementCounter" | "DecrementCounter") =
                (&receiver.kind, method.name.as_str())
            {
                out.push((format!("{COUNTER_USE}{}", r.name), method.span));
            }
            // The receiver's type is not known here: every struct's method of that name.
            out.push((format!("*.{}", method.name), method.span));
            collect_calls_expr(receiver, out);
            args.iter().for_each(|a| collect_calls_expr(a, out));
        }
        ExprKind::Cast { operand, .. } => collect_calls_expr(operand, out),
        // Unevaluated: calls nothing.
        ExprKind::SizeOf(_) => {}
        ExprKind::Scoped { .. } => {}
        ExprKind::Member { base, .. } => collect_calls_expr(base, out),
        ExprKind::Index { base, index } => {
            out.push(("*.operator[]".to_owned(), e.span));
            collect_calls_expr(base, out);
            collect_calls_expr(index, out);
        }
        ExprKind::Literal(_) | ExprKind::Ident(_) => {}
    }
}

/// The calls in an initializer.
pub fn collect_calls_init(i: &Initializer, out: &mut Vec<(String, Span)>) {
    match i {
        Initializer::Expr(e) => collect_calls_expr(e, out),
        Initializer::List(items, _) => items.iter().for_each(|i| collect_calls_init(i, out)),
    }
}

/// The calls in a statement.
pub fn collect_calls_stmt(s: &Stmt, out: &mut Vec<(String, Span)>) {
    match &s.kind {
        StmtKind::Block(b) => collect_calls_block(b, out),
        StmtKind::Expr(e) => collect_calls_expr(e, out),
        StmtKind::Decl(d) => d
            .declarators
            .iter()
            .filter_map(|x| x.init.as_ref())
            .for_each(|i| collect_calls_init(i, out)),
        StmtKind::If {
            cond,
            then,
            otherwise,
        } => {
            collect_calls_expr(cond, out);
            collect_calls_stmt(then, out);
            if let Some(o) = otherwise {
                collect_calls_stmt(o, out);
            }
        }
        StmtKind::For {
            init,
            cond,
            step,
            body,
        } => {
            if let Some(i) = init {
                collect_calls_stmt(i, out);
            }
            cond.iter()
                .chain(step.iter())
                .for_each(|e| collect_calls_expr(e, out));
            collect_calls_stmt(body, out);
        }
        StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
            collect_calls_expr(cond, out);
            collect_calls_stmt(body, out);
        }
        StmtKind::Switch { selector, cases } => {
            collect_calls_expr(selector, out);
            cases
                .iter()
                .flat_map(|c| &c.body)
                .for_each(|s| collect_calls_stmt(s, out));
        }
        StmtKind::Return(Some(e)) => collect_calls_expr(e, out),
        _ => {}
    }
}

/// The calls in a block.
pub fn collect_calls_block(b: &Block, out: &mut Vec<(String, Span)>) {
    b.stmts.iter().for_each(|s| collect_calls_stmt(s, out));
}
