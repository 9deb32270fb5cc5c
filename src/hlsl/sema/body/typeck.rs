//! The types of a body's expressions, worked out as its statements are lowered (the names in
//! scope are the statement's) by the rules of [`crate::hlsl::sema::rules`], and recorded in
//! [`crate::hlsl::hir::Module::expr_types`], with each call's callee and each implicit
//! conversion. The checker reports the language errors of expressions (names, operands,
//! conversions, lvalues, overloads, intrinsic arguments, where intrinsics and methods are
//! available, resource indices); code generation runs only when it found none. An expression
//! whose rule is not here yet gets no type, and neither does anything built on it; code
//! generation types those itself and checks that it agrees with every type recorded here.

use super::resource_checks::no_method;
use super::{Lowerer, Ty};
use crate::hlsl::ast::{BinaryOp, Expr, ExprKind, Initializer, TypeExpr, UnaryOp};
use crate::hlsl::diag::Diagnostic;
use crate::hlsl::hir::ExprId;
use crate::hlsl::sema::decls::TypeResolver;
use crate::hlsl::sema::names::BASE_FIELD;
use crate::hlsl::sema::types::{ResourceKind, Scalar, TexDim};
use crate::hlsl::sema::{availability, rules};
use crate::hlsl::{LanguageVersion, Stage};

/// Whether an expression may be assigned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Assignable {
    /// An lvalue.
    Yes,
    /// A constant or read-only lvalue.
    Const,
    /// Not an lvalue.
    No,
    /// A swizzle naming a component twice.
    Repeated,
    /// A texel of a read-only texture or buffer.
    ReadOnlyTexel,
    /// Code generation decides (resources, texels, calls...).
    Unknown,
}

/// Whether the swizzle `name` of a value of type `t` names one of its components twice.
fn repeats_a_component(t: &Ty, name: &str) -> bool {
    let mut seen = Vec::new();
    let fresh = |k: (u32, u32), seen: &mut Vec<(u32, u32)>| {
        let new = !seen.contains(&k);
        seen.push(k);
        new
    };
    match t {
        Ty::Scalar(_) | Ty::Vector(..) => {
            let n = if let Ty::Vector(_, n) = t { *n } else { 1 };
            rules::vector_swizzle(name, n)
                .is_some_and(|comps| !comps.iter().all(|&c| fresh((c, 0), &mut seen)))
        }
        Ty::Matrix(_, r, c) => rules::matrix_swizzle(name, *r, *c)
            .is_some_and(|elems| !elems.iter().all(|&e| fresh((e.0, e.1), &mut seen))),
        _ => false,
    }
}

impl Lowerer<'_> {
    /// Types `e` and the expressions inside it, recording each type found.
    pub(super) fn check(&mut self, e: &Expr) -> Option<Ty> {
        let id = ExprId::of(e);
        if let Some(t) = self.types.get(&id) {
            return Some(t.clone());
        }
        let t = self.check_kind(e)?;
        self.types.insert(id, t.clone());
        Some(t)
    }

    /// Types the expressions of an initializer (a list is not an expression of a type).
    pub(super) fn check_init(&mut self, i: &Initializer) {
        match i {
            Initializer::Expr(e) => {
                self.check(e);
            }
            Initializer::List(items, _) => items.iter().for_each(|i| self.check_init(i)),
        }
    }

    /// The recorded type of `e` (checked before).
    pub(super) fn typed(&self, e: &Expr) -> Option<Ty> {
        self.types.get(&ExprId::of(e)).cloned()
    }

    /// Types each of `es` (all of them, whatever the others give).
    fn check_all(&mut self, es: &[Expr]) -> Vec<Option<Ty>> {
        es.iter().map(|e| self.check(e)).collect()
    }

    pub(super) fn lit(&self, e: &Expr) -> Option<bool> {
        rules::literal_kind_in(self.opts.version, e)
    }

    fn check_kind(&mut self, e: &Expr) -> Option<Ty> {
        match &e.kind {
            ExprKind::Literal(l) => {
                // (`printf`'s format, the one place a string literal is allowed, is not
                // checked as a value.)
                if let crate::hlsl::ast::Literal::String(_) = l {
                    self.report(e.span, "a string is not a value");
                    return None;
                }
                let t = rules::literal_type(l, self.opts.version, self.opts.enable_16bit_types);
                if t.is_none() {
                    // 202x types it as C does (by radix: `long` or `unsigned int`), which
                    // spvkit does not track.
                    self.report(
                        e.span,
                        "not supported yet: an unsuffixed integer literal beyond int's range in \
                         HLSL 202x",
                    );
                }
                t
            }
            ExprKind::Ident(id) => match self.variable(&id.name) {
                Some(_) if self.scopes.lookup(&id.name).is_some_and(|l| l.unset) => {
                    let msg = format!(
                        "the resource variable '{}' is used before it is assigned",
                        id.name
                    );
                    self.report(id.span, msg);
                    None
                }
                Some(t) => {
                    let depth = match self.scopes.lookup(&id.name) {
                        Some(local) => local.row_depth,
                        None => self.global_rows.get(&id.name).copied(),
                    };
                    if let Some(d) = depth {
                        self.rows.insert(ExprId::of(e), d);
                    }
                    // A `ConstantBuffer<S>` (or `TextureBuffer<S>`) is a variable of `S`.
                    match t? {
                        Ty::Resource(
                            ResourceKind::ConstantBuffer | ResourceKind::TextureBuffer,
                            elem,
                        ) => Some(*elem),
                        t => Some(t),
                    }
                }
                // `vk::DeviceScope` and friends: the SPIR-V `Scope` values, as `uint`.
                None => {
                    if rules::scope_constant(&id.name).is_some() {
                        return Some(Ty::Scalar(Scalar::UInt));
                    }
                    // The descriptor heaps are only indexed into a resource's initializer
                    // (code generation refuses any other use).
                    // (A `string` global is a name without a value type.)
                    // (A `cbuffer`'s own name names no variable: its members are.)
                    let declared = self.m.globals.iter().any(|g| {
                        g.name == id.name
                            && !matches!(
                                g.kind,
                                crate::hlsl::hir::GlobalKind::Block { as_var: false, .. }
                            )
                    });
                    if !declared && crate::hlsl::hir::Heap::by_name(&id.name).is_none() {
                        let msg = format!("use of undeclared identifier '{}'", id.name);
                        self.report(id.span, msg);
                    }
                    None
                }
            },
            ExprKind::Unary { op, operand } => {
                let t = self.check(operand)?;
                let s = t.component();
                let why = match op {
                    UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec
                        if s.is_none_or(|s| s == Scalar::Bool) =>
                    {
                        Some(format!(
                            "cannot increment or decrement '{}'",
                            self.m.types.show(&t)
                        ))
                    }
                    UnaryOp::Neg if s.is_none() => {
                        Some(format!("cannot negate '{}'", self.m.types.show(&t)))
                    }
                    UnaryOp::BitNot if !s.is_some_and(Scalar::is_int) => Some(format!(
                        "'~' needs an integer operand, not '{}'",
                        self.m.types.show(&t)
                    )),
                    _ => None,
                };
                if let Some(why) = why {
                    self.report(e.span, why);
                    return None;
                }
                let steps = matches!(
                    op,
                    UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec
                );
                if steps && !self.check_assignable(operand, e.span, false) {
                    return None;
                }
                // Negation computes bools as ints, `!` any number as a bool.
                let operand_ty = match op {
                    UnaryOp::Neg if s == Some(Scalar::Bool) => t.with_component(Scalar::Int),
                    UnaryOp::Not if s.is_some() => t.with_component(Scalar::Bool),
                    UnaryOp::Not => return None,
                    _ => t.clone(),
                };
                self.record(operand, &t, &operand_ty);
                Some(operand_ty)
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let (at, _) = (self.check(lhs), self.check(rhs));
                self.binary(e, *op, lhs, at?, rhs)
            }
            ExprKind::Assign { op, lhs, rhs } => {
                if self.is_string(lhs) {
                    self.report(e.span, "string variables are immutable in SPIR-V.");
                    return None;
                }
                let rt = self.check(rhs);
                // `x = r;` binds a resource variable declared without one.
                if let (None, ExprKind::Ident(id)) = (op, &lhs.kind) {
                    if let Some(local) = self.scopes.lookup_mut(&id.name) {
                        local.unset = false;
                    }
                }
                let lt = self.check(lhs)?;
                if lt.is_ray_query() {
                    self.report(e.span, "not supported yet: assigning a RayQuery");
                    return None;
                }
                // An array of resources is a set of descriptors: no element is a variable.
                if lt.is_resource() && matches!(lhs.kind, ExprKind::Index { .. }) {
                    self.report(
                        e.span,
                        "not supported yet: assigning to an element of an array of resources",
                    );
                    return None;
                }
                if !self.check_assignable(lhs, e.span, false) {
                    return None;
                }
                match (op, rt) {
                    (Some(_), Some(rt)) if lt.is_resource() || rt.is_resource() => {
                        let at = if lt.is_resource() { lhs } else { rhs };
                        self.report(at.span, "a resource object is not a value here");
                        return None;
                    }
                    (Some(_), Some(rt)) if !lt.is_numeric() || !rt.is_numeric() => {
                        self.invalid_operands(e, &lt, &rt);
                        return None;
                    }
                    (None, Some(rt)) if lt.is_resource() && !rt.is_resource() => {
                        let (f, t) = (self.m.types.show(&rt), self.m.types.show(&lt));
                        self.report(e.span, format!("cannot convert from '{f}' to '{t}'"));
                        return None;
                    }
                    (Some(op), Some(rt)) if lt.is_numeric() && rt.is_numeric() => {
                        let lr = self.lit(rhs);
                        let t = self.operator(e, *op, &lt, None, &rt, lr)?;
                        if !rules::converts(&self.m.types.structs, &t, &lt, false) {
                            let (f, to) = (self.m.types.show(&t), self.m.types.show(&lt));
                            self.report(e.span, format!("cannot convert from '{f}' to '{to}'"));
                            return None;
                        }
                        // The current value and the right side are converted as for `lhs op
                        // rhs` (the left side's value is keyed by the left side, which is
                        // otherwise a place); the result back to the left side's type.
                        if let Some((ta, tb)) = rules::operand_types(*op, &lt, None, &rt, lr) {
                            self.record(lhs, &lt, &ta);
                            self.record(rhs, &rt, &tb);
                        }
                        self.warn_truncation(e, &t, &lt);
                    }
                    (None, Some(rt))
                        if !lt.is_resource() && !self.converted(rhs, &rt, &lt, e.span) =>
                    {
                        return None
                    }
                    _ => {}
                }
                Some(lt)
            }
            ExprKind::Conditional {
                cond,
                then,
                otherwise,
            } => {
                let ct = self.check(cond);
                let (tt, et) = (self.check(then), self.check(otherwise));
                let (ct, tt, et) = (ct?, tt?, et?);
                // `c ? r1 : r2` of one resource type chooses a resource (which legalization
                // resolves where `c` is constant); HLSL 2021's short-circuiting form does not
                // take resources in DXC.
                if matches!(tt, Ty::Resource(..))
                    && tt == et
                    && self.opts.version >= LanguageVersion::V2021
                {
                    let msg = format!("casting to type '{}' unimplemented", self.m.types.show(&tt));
                    self.report(e.span, msg);
                    return None;
                }
                if matches!(tt, Ty::Resource(..)) && tt == et && matches!(ct, Ty::Scalar(_)) {
                    self.record(cond, &ct, &Ty::Scalar(Scalar::Bool));
                    return Some(tt);
                }
                if tt.is_resource() || et.is_resource() {
                    self.report(e.span, "a resource object is not a value here");
                    return None;
                }
                let common = if tt == et {
                    tt.clone()
                } else {
                    let (lt, le) = (self.lit(then), self.lit(otherwise));
                    rules::common_type(&tt, &et, lt, le).ty()?
                };
                let result = if self.opts.version >= LanguageVersion::V2021 {
                    if !matches!(ct, Ty::Scalar(_)) {
                        self.report(
                            e.span,
                            "condition for short-circuiting ternary operator must be scalar, \
                             for non-scalar types use 'select'",
                        );
                        return None;
                    }
                    common
                } else {
                    // A vector condition selects per component: scalar arms are splatted to
                    // its size.
                    match (&ct, &common) {
                        (Ty::Vector(_, n), Ty::Scalar(s)) => Ty::Vector(*s, *n),
                        _ => common,
                    }
                };
                if ct.is_numeric() {
                    self.record(cond, &ct, &ct.with_component(Scalar::Bool));
                }
                self.record(then, &tt, &result);
                self.record(otherwise, &et, &result);
                Some(result)
            }
            ExprKind::Comma(a, b) => {
                self.check(a);
                self.check(b)
            }
            ExprKind::Call {
                callee,
                args,
                template_args,
                ..
            } => {
                let format = usize::from(
                    callee.name == "printf"
                        && args.first().is_some_and(|a| {
                            matches!(
                                a.kind,
                                ExprKind::Literal(crate::hlsl::ast::Literal::String(_))
                            )
                        }),
                );
                self.check_all(&args[format..]);
                if crate::hlsl::parser::is_builtin_function_template(&callee.name) {
                    return self.raw_buffer_call(e, callee, template_args, args);
                }
                if !template_args.is_empty() {
                    return None;
                }
                // Inline SPIR-V: an execution mode of the entry point (code generation reads
                // its constant operands).
                if callee.name == "vk::ext_execution_mode" && self.variable(&callee.name).is_none()
                {
                    return Some(Ty::Void);
                }
                let known = self.variable(&callee.name).is_some()
                    || self.m.functions.contains_key(&callee.name)
                    || crate::hlsl::sema::intrinsics::lookup(&callee.name).is_some();
                if !known {
                    let msg = if crate::hlsl::sema::intrinsics::is_out_of_scope(&callee.name) {
                        format!("not supported yet: the intrinsic '{}'", callee.name)
                    } else {
                        format!("use of undeclared function '{}'", callee.name)
                    };
                    self.report(callee.span, msg);
                    return None;
                }
                match self.variable(&callee.name) {
                    Some(Some(Ty::Struct(i))) => self.member_call(e, i, "operator()", args),
                    Some(Some(_)) => {
                        let msg = format!("use of undeclared function '{}'", callee.name);
                        self.report(callee.span, msg);
                        None
                    }
                    Some(None) => None,
                    None if self.m.functions.contains_key(&callee.name) => {
                        let tys = args.iter().map(|a| self.typed(a)).collect::<Option<_>>()?;
                        self.overload(e, &callee.name, args, tys)
                    }
                    // Its format is a string, which has no value type.
                    None if callee.name == "printf" => self.printf(args),
                    None => {
                        if let Err(why) = availability::intrinsic(&callee.name, self.opts) {
                            // As DXC, whose validator sees the legalized module: a derivative
                            // in a stage without them is an error only if it survives
                            // dead-branch removal.
                            if !availability::is_derivative(&callee.name)
                                || matches!(self.opts.profile.stage, Stage::Pixel | Stage::Compute)
                            {
                                self.report(e.span, why);
                                return None;
                            }
                            self.stage_bound.push(Diagnostic::error(e.span, why));
                        }
                        if availability::uses_derivatives(None, &callee.name) {
                            self.derivative_use.get_or_insert(e.span);
                        }
                        let tys: Vec<Ty> =
                            args.iter().map(|a| self.typed(a)).collect::<Option<_>>()?;
                        if let Some((a, _)) = args.iter().zip(&tys).find(|(_, t)| t.is_resource()) {
                            self.report(a.span, "a resource object is not a value here");
                            return None;
                        }
                        if !self.intrinsic_args(e, &callee.name, args, &tys) {
                            return None;
                        }
                        if callee.name.starts_with("Interlocked") {
                            if !self.atomic_destination(e, &callee.name, &args[0], &tys[0]) {
                                return None;
                            }
                            // The compared and stored values take the destination's type.
                            let values = match callee.name.as_str() {
                                "InterlockedCompareExchange" | "InterlockedCompareStore" => 1..3,
                                _ => 1..2,
                            };
                            for (a, t) in args.iter().zip(&tys).take(values.end).skip(values.start)
                            {
                                self.record(a, t, &tys[0]);
                            }
                        }
                        // The original value goes to the last argument, where one is given.
                        let with_original = match callee.name.as_str() {
                            "InterlockedCompareExchange" => args.len() == 4,
                            "InterlockedCompareStore" => false,
                            n => n.starts_with("Interlocked") && args.len() == 3,
                        };
                        if with_original {
                            let a = &args[args.len() - 1];
                            if self.typed(a).is_some_and(|t| t.is_resource()) {
                                self.report(a.span, "expression is not assignable");
                            } else {
                                self.check_assignable(a, a.span, false);
                            }
                        }
                        if callee.name == "mul" {
                            let t = self.mul(args, &tys);
                            if t.is_none() {
                                let (a, b) =
                                    (self.m.types.show(&tys[0]), self.m.types.show(&tys[1]));
                                let msg = if tys.iter().all(Ty::is_numeric) {
                                    format!("mul of mismatched shapes '{a}' and '{b}'")
                                } else {
                                    "mul needs numeric arguments".to_owned()
                                };
                                self.report(e.span, msg);
                            }
                            return t;
                        }
                        let lits: Vec<Option<bool>> = args.iter().map(|a| self.lit(a)).collect();
                        let t = rules::intrinsic_type(&callee.name, &tys, &lits)?;
                        let to = rules::intrinsic_operands(
                            &callee.name,
                            &tys,
                            &lits,
                            self.opts.enable_16bit_types,
                        );
                        for ((a, at), to) in args.iter().zip(&tys).zip(to.iter().flatten()) {
                            if let Some(to) = to {
                                self.record(a, at, to);
                            }
                        }
                        Some(t)
                    }
                }
            }
            ExprKind::Construct { ty, args } => {
                self.check_all(args);
                let t = self.resolve(ty, &[])?;
                self.construct(e, &t, args).then_some(t)
            }
            ExprKind::MethodCall {
                receiver,
                method,
                type_arg,
                args,
            } => {
                let rt = self.check(receiver);
                self.check_all(args);
                match (rt?, type_arg) {
                    (Ty::Struct(i), None) => self.member_call(e, i, &method.name, args),
                    (Ty::Resource(ResourceKind::RayQuery { .. }, _), None) => {
                        self.ray_query_call(e, receiver, &method.name, args)
                    }
                    (Ty::Resource(kind, elem), None) => {
                        if let Err(why) = availability::method(&kind, &method.name, self.opts) {
                            self.report(e.span, why);
                            return None;
                        }
                        if availability::uses_derivatives(Some(&kind), &method.name) {
                            self.derivative_use.get_or_insert(e.span);
                        }
                        if let Some(why) = no_method(&kind, &method.name) {
                            self.report(e.span, why);
                            return None;
                        }
                        if !self.sampler_argument(&kind, &method.name, args) {
                            return None;
                        }
                        let sampler = usize::from(rules::texture_sampler(&method.name).is_some());
                        let values = args.iter().skip(sampler);
                        if let Some(a) = values
                            .clone()
                            .find(|a| self.typed(a).is_some_and(|t| t.is_resource()))
                        {
                            self.report(a.span, "a resource object is not a value here");
                            return None;
                        }
                        match rules::method_out_args(&kind, &method.name, args.len()) {
                            Err(why) => {
                                self.report(e.span, why);
                                return None;
                            }
                            Ok(outs) => {
                                for a in &args[outs] {
                                    self.check_assignable(a, a.span, false);
                                }
                            }
                        }
                        let t = rules::resource_method_type(&kind, &elem, &method.name)?;
                        let params = rules::method_params(&kind, &elem, &method.name, args.len());
                        for (a, to) in args.iter().zip(params) {
                            if let (Some(to), Some(at)) = (to, self.typed(a)) {
                                if !self.converted(a, &at, &to, a.span) {
                                    return None;
                                }
                            }
                        }
                        Some(t)
                    }
                    // `buf.Load<T>(address)`, `buf.Store<T>(address, value)`.
                    (Ty::Resource(ResourceKind::ByteAddressBuffer { rw }, _), Some(t)) => {
                        let name = method.name.as_str();
                        let n = args.len();
                        match (name, n) {
                            ("Load", 1) | ("Store", 2) => {
                                // The address is a `uint`.
                                if let Some(at) = self.typed(&args[0]) {
                                    let uint = Ty::Scalar(Scalar::UInt);
                                    if !self.converted(&args[0], &at, &uint, args[0].span) {
                                        return None;
                                    }
                                }
                                self.byte_address_template(e, name, rw, t, args)
                            }
                            ("Load", 2) => {
                                let msg = "not supported yet: Load<T> with a residency status";
                                self.report(e.span, msg);
                                None
                            }
                            ("Load" | "Store", _) => {
                                let msg =
                                    format!("wrong number of arguments to '{name}': {n} given");
                                self.report(e.span, msg);
                                None
                            }
                            _ => None,
                        }
                    }
                    (t, _) if !t.is_resource() && !matches!(t, Ty::Struct(_)) => {
                        let msg = format!("no method '{}' on this value", method.name);
                        self.report(method.span, msg);
                        None
                    }
                    _ => None,
                }
            }
            ExprKind::Cast {
                ty,
                array_dims,
                operand,
            } => {
                let from = self.check(operand);
                let to = self.resolve(ty, array_dims)?;
                if from.as_ref().is_some_and(Ty::is_resource) && !to.is_resource() {
                    self.report(operand.span, "a resource object is not a value here");
                    return None;
                }
                if let Some(from) = from {
                    if !self.casts(&from, &to) {
                        let (f, t) = (self.m.types.show(&from), self.m.types.show(&to));
                        self.report(e.span, format!("cannot convert from '{f}' to '{t}'"));
                        return None;
                    }
                }
                Some(to)
            }
            ExprKind::Member { base, member } => {
                let bt = self.check(base)?;
                let Some((t, depth)) = self.member(bt.clone(), &member.name) else {
                    self.no_member(&bt, &member.name, member.span);
                    return None;
                };
                if let Some(d) = depth {
                    self.rows.insert(ExprId::of(e), d);
                }
                Some(t)
            }
            ExprKind::Index { base, index } => {
                if let Some(t) = self.mip_texel(base, index) {
                    return Some(t);
                }
                let bt = self.check(base);
                let it = self.check(index);
                // `ResourceDescriptorHeap[i]` (a resource variable's initializer, typed by the
                // variable): the index is a `uint`.
                if let (None, ExprKind::Ident(id), Some(it)) = (&bt, &base.kind, &it) {
                    if self.variable(&id.name).is_none()
                        && crate::hlsl::hir::Heap::by_name(&id.name).is_some()
                    {
                        self.converted(index, it, &Ty::Scalar(Scalar::UInt), index.span);
                        return None;
                    }
                }
                match self.rows.get(&ExprId::of(base)) {
                    // `m[i]` of a 1xN matrix is its only row: the whole (collapsed) vector.
                    Some(0) => {
                        self.element_index(index, 1, true)?;
                        return bt;
                    }
                    Some(&d) => {
                        self.rows.insert(ExprId::of(e), d - 1);
                    }
                    None => {}
                }
                let bt = bt?;
                if let Ty::Array(_, len) | Ty::Vector(_, len) | Ty::Matrix(_, len, _) = bt {
                    let tail = self.is_tail_array(base);
                    self.element_index(index, len, tail)?;
                }
                // One resource of an array of them is chosen by a `uint`.
                if let (Ty::Array(elem, _), Some(it)) = (&bt, self.typed(index)) {
                    if elem.is_resource() {
                        self.record(index, &it, &Ty::Scalar(Scalar::UInt));
                    }
                }
                match bt {
                    Ty::Array(elem, _) => Some(*elem),
                    Ty::Vector(s, _) => Some(Ty::Scalar(s)),
                    Ty::Matrix(s, _, c) => Some(Ty::vector(s, c)),
                    // A scalar is its own only component.
                    t @ Ty::Scalar(_) => {
                        self.element_index(index, 1, true)?;
                        Some(t)
                    }
                    Ty::Resource(kind, elem) => self.resource_index(e, kind, index).map(|_| *elem),
                    Ty::Struct(i) => {
                        self.member_call(e, i, "operator[]", std::slice::from_ref(index))
                    }
                    t => {
                        let msg = format!(
                            "subscripted value of type '{}' is not an array, vector or matrix",
                            self.m.types.show(&t)
                        );
                        self.report(e.span, msg);
                        None
                    }
                }
            }
            ExprKind::SizeOf(operand) => {
                if let ExprKind::Ident(id) = &operand.kind {
                    // (A `ConstantBuffer<T>` is a variable of `T`.)
                    let resource = self.variable(&id.name).flatten().is_some_and(|t| {
                        t.is_resource()
                            && !matches!(
                                t,
                                Ty::Resource(
                                    ResourceKind::ConstantBuffer | ResourceKind::TextureBuffer,
                                    _
                                )
                            )
                    });
                    if resource {
                        let msg = format!(
                            "invalid application of 'sizeof' to the resource '{}'",
                            id.name
                        );
                        self.report(e.span, msg);
                        return None;
                    }
                }
                Some(Ty::Scalar(Scalar::UInt))
            }
            ExprKind::InitList(es) => {
                self.check_all(es);
                None
            }
            ExprKind::Scoped { .. } => None,
        }
    }

    /// The last struct of `i`'s chain of bases (`i` itself when it has none).
    fn last_base(&self, mut i: usize) -> usize {
        for _ in 0..32 {
            match self.m.types.structs.get(i).and_then(|d| d.fields.first()) {
                Some(f) if f.name == BASE_FIELD => match f.ty {
                    Ty::Struct(b) => i = b,
                    _ => break,
                },
                _ => break,
            }
        }
        i
    }

    /// Whether the member function defined by item `item` assigns (a part of) its object.
    fn writes_this(&self, item: usize) -> bool {
        let Some(crate::hlsl::ast::Item::Function(f)) = self.unit.items.get(item) else {
            return false;
        };
        let Some(body) = &f.body else {
            return false;
        };
        fn rooted_at_this(e: &Expr) -> bool {
            match &e.kind {
                ExprKind::Ident(id) => id.name == "this",
                ExprKind::Member { base, .. } | ExprKind::Index { base, .. } => {
                    rooted_at_this(base)
                }
                _ => false,
            }
        }
        let mut writes = false;
        crate::hlsl::sema::calls::walk_block(body, &mut |e| {
            writes |= match &e.kind {
                ExprKind::Assign { lhs, .. } => rooted_at_this(lhs),
                ExprKind::Unary {
                    op: UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec,
                    operand,
                } => rooted_at_this(operand),
                _ => false,
            };
        });
        writes
    }

    /// Whether `e` names a module-scope `string` (a name for a literal, not a variable).
    pub(super) fn is_string(&self, e: &Expr) -> bool {
        let ExprKind::Ident(id) = &e.kind else {
            return false;
        };
        self.scopes.lookup(&id.name).is_none()
            && self.m.globals.iter().any(|g| {
                g.name == id.name && matches!(g.kind, crate::hlsl::hir::GlobalKind::String(_))
            })
    }

    /// Whether `e` is a struct's last member and a one-element array (a "tail array",
    /// indexed past its end as clang allows).
    fn is_tail_array(&self, e: &Expr) -> bool {
        let ExprKind::Member { base, member } = &e.kind else {
            return false;
        };
        let Some(Ty::Struct(i)) = self.typed(base) else {
            return false;
        };
        let Some(def) = self.m.types.structs.get(self.owner_of(i, &member.name)) else {
            return false;
        };
        def.fields
            .last()
            .is_some_and(|f| f.name == member.name && matches!(f.ty, Ty::Array(_, 1)))
    }

    /// The struct of `i`'s chain of bases that has the field `name` (`i` when none has).
    fn owner_of(&self, mut i: usize, name: &str) -> usize {
        for _ in 0..32 {
            let Some(def) = self.m.types.structs.get(i) else {
                break;
            };
            if def.fields.iter().any(|f| f.name == name) {
                break;
            }
            match def.fields.first() {
                Some(f) if f.name == BASE_FIELD => match f.ty {
                    Ty::Struct(b) => i = b,
                    _ => break,
                },
                _ => break,
            }
        }
        i
    }

    /// Checks the index of an element of an array, vector or matrix of `len` elements: a
    /// scalar, in bounds where it is a constant (past the end of a `tail` array, or of an
    /// unsized one, is not checked).
    fn element_index(&mut self, index: &Expr, len: u32, tail: bool) -> Option<()> {
        let it = self.typed(index)?;
        if !matches!(it, Ty::Scalar(_)) {
            let msg = format!(
                "index must be an integer scalar, not '{}'",
                self.m.types.show(&it)
            );
            self.report(index.span, msg);
            return None;
        }
        let (consts, env) = (&self.scopes, &self.m.types);
        let lookup = |n: &str| super::constant(consts, env, n);
        // A comma expression's value is its last operand's.
        let mut last = index;
        while let ExprKind::Comma(_, b) = &last.kind {
            last = b;
        }
        // (A float index is converted to `int`: truncated.)
        let k = crate::hlsl::sema::decls::fold(last, self.opts, &lookup).and_then(|c| match c {
            crate::hlsl::sema::consteval::ConstVal::Float(f) => Some(f as i64),
            c => c.as_int(),
        });
        if let Some(k) = k.filter(|&k| k < 0 || (!tail && len > 0 && k >= i64::from(len))) {
            self.report(
                index.span,
                format!("index {k} is out of bounds (size {len})"),
            );
            return None;
        }
        // An index that is not an integer is converted to `int`.
        if !it.component().is_some_and(Scalar::is_int) {
            self.record(index, &it, &Ty::Scalar(Scalar::Int));
        }
        Some(())
    }

    /// Calls the member function `name` of struct `i` (or of its nearest base that has
    /// one) with `args` at `site`: a non-static one with the object (the struct that has it)
    /// as `this`; a static one, when the struct has only static ones of that name, without.
    fn member_call(&mut self, site: &Expr, i: usize, name: &str, args: &[Expr]) -> Option<Ty> {
        let Some((f, owner)) = self.method_in(i, name) else {
            // Reported against the last base searched, as code generation does.
            let last = self.m.types.structs.get(self.last_base(i))?;
            let msg = format!("no member function named '{name}' in '{}'", last.name);
            self.report(site.span, msg);
            return None;
        };
        let mut tys: Vec<Ty> = args.iter().map(|a| self.typed(a)).collect::<Option<_>>()?;
        let non_static = self.m.functions.get(&f)?.iter().any(|s| self.has_this(s));
        if non_static {
            tys.insert(0, Ty::Struct(owner));
        }
        let ret = self.overload(site, &f, args, tys);
        // A method that writes its object cannot be called on a read-only one (a constant
        // buffer's struct).
        if let (Some(_), ExprKind::MethodCall { receiver, .. }) = (&ret, &site.kind) {
            let callee = self.callees.get(&ExprId::of(site)).copied();
            if self.assignable(receiver) == Assignable::Const
                && callee.is_some_and(|item| self.writes_this(item))
            {
                self.report(site.span, "cannot assign to a constant or read-only value");
                return None;
            }
        }
        ret
    }

    /// Picks the overload of function `name` that arguments of types `tys` call at `site`
    /// (only member functions when the first is `this`), records it, and gives its return
    /// type.
    fn overload(&mut self, site: &Expr, name: &str, args: &[Expr], tys: Vec<Ty>) -> Option<Ty> {
        let all = self.m.functions.get(name)?;
        let with_this: Vec<_> = all.iter().filter(|s| self.has_this(s)).collect();
        let cands: Vec<_> = if with_this.is_empty() {
            all.iter().collect()
        } else {
            with_this
        };
        let sigs: Vec<_> = cands
            .iter()
            .map(|c| (c.params.as_slice(), c.required))
            .collect();
        let k = match rules::pick_overload(&self.m.types.structs, &sigs, &tys) {
            Ok(k) => k,
            Err(why) => {
                let n = tys.len();
                let msg = match why {
                    rules::NoOverload::Arity => {
                        format!("no overload of '{name}' takes {n} arguments")
                    }
                    rules::NoOverload::Ambiguous => format!("call to '{name}' is ambiguous"),
                    rules::NoOverload::Types => {
                        format!("no matching overload of '{name}' for these argument types")
                    }
                };
                self.report(site.span, msg);
                return None;
            }
        };
        let chosen = cands[k];
        self.callees.insert(ExprId::of(site), chosen.item);
        if chosen.inline_op.is_some() {
            self.literal_arguments(chosen.item, args);
        }
        // Arguments convert to their parameters' types; `out` and `inout` ones are assigned
        // (after `this`, which is the object).
        let skip = tys.len() - args.len();
        for ((a, at), (pt, dir)) in args
            .iter()
            .zip(&tys[skip..])
            .zip(chosen.params.iter().skip(skip))
        {
            let value = at.is_numeric() || matches!(at, Ty::Struct(_) | Ty::Array(..));
            if *dir != crate::hlsl::hir::ParamDir::Out && value && !pt.is_resource() {
                self.converted(a, at, pt, a.span);
            }
            // An `out` argument's variable is the parameter's too (converted both ways, as
            // an `inout` one's value is).
            let out = value && !pt.is_resource() && *dir != crate::hlsl::hir::ParamDir::In;
            let structs = &self.m.types.structs;
            let bad = if !out {
                None
            } else if *dir == crate::hlsl::hir::ParamDir::Out
                && !rules::converts(structs, at, pt, false)
            {
                // (An `inout` argument's value was converted above.)
                Some((at, pt))
            } else if !rules::converts(structs, pt, at, false) {
                Some((pt, at))
            } else {
                None
            };
            if let Some((from, to)) = bad {
                let (f, t) = (self.m.types.show(from), self.m.types.show(to));
                self.report(a.span, format!("cannot convert from '{f}' to '{t}'"));
            }
            if *dir != crate::hlsl::hir::ParamDir::In {
                self.check_assignable(a, a.span, true);
            }
        }
        // A `ConstantBuffer<S>` returned is a value of `S`, as a variable of one is.
        Some(match &chosen.ret {
            Ty::Resource(ResourceKind::ConstantBuffer | ResourceKind::TextureBuffer, elem) => {
                (**elem).clone()
            }
            t => t.clone(),
        })
    }

    /// The arguments of an inline SPIR-V call for its `[[vk::ext_literal]]` parameters, which
    /// must be constants (code generation writes their values as the operands' words).
    fn literal_arguments(&mut self, item: usize, args: &[Expr]) {
        let Some(crate::hlsl::ast::Item::Function(f)) = self.unit.items.get(item) else {
            return;
        };
        for (p, a) in f.params.iter().zip(args) {
            let literal = p.attributes.iter().any(|x| {
                x.name.name == "ext_literal" && x.namespace.as_ref().is_some_and(|n| n.name == "vk")
            });
            if !literal {
                continue;
            }
            let (consts, env) = (&self.scopes, &self.m.types);
            let lookup = |n: &str| super::constant(consts, env, n);
            let value = crate::hlsl::sema::decls::fold(a, self.opts, &lookup)
                .and_then(|c| c.as_int())
                .filter(|v| (i64::from(i32::MIN)..=i64::from(u32::MAX)).contains(v));
            if value.is_none() {
                self.report(
                    a.span,
                    "vk::ext_literal may only be applied to parameters that can be evaluated to a \
                     literal value",
                );
            }
        }
    }

    /// The type of `mul(args)`, the arguments of types `tys`: two vectors of different sizes
    /// multiply as a column and a row (an outer product) when the second is a 1xN matrix.
    /// `q.name(args)` on the ray query `q` (a variable: the object is not a value).
    fn ray_query_call(
        &mut self,
        e: &Expr,
        receiver: &Expr,
        name: &str,
        args: &[Expr],
    ) -> Option<Ty> {
        use crate::hlsl::sema::ray_query::{self, RayQueryOp};
        let Some((op, params, result)) = ray_query::method(name) else {
            self.report(e.span, format!("no method '{name}' on a RayQuery"));
            return None;
        };
        if !matches!(receiver.kind, ExprKind::Ident(_)) {
            self.report(
                receiver.span,
                "not supported yet: a ray query other than a variable named directly",
            );
            return None;
        }
        if args.len() != params.len() {
            let msg = format!(
                "'{name}' takes {} argument{}, {} given",
                params.len(),
                if params.len() == 1 { "" } else { "s" },
                args.len()
            );
            self.report(e.span, msg);
            return None;
        }
        if op == RayQueryOp::TraceRayInline {
            if !matches!(
                self.typed(&args[0]),
                Some(Ty::Resource(ResourceKind::AccelerationStructure, _))
            ) {
                self.report(
                    args[0].span,
                    "TraceRayInline traces a RaytracingAccelerationStructure",
                );
                return None;
            }
            let is_ray = |t: &Ty| {
                matches!(t, Ty::Struct(i) if self.m.types.structs.get(*i)
                    .is_some_and(|d| d.name == "RayDesc"))
            };
            if !self.typed(&args[3]).is_some_and(|t| is_ray(&t)) {
                self.report(args[3].span, "TraceRayInline's ray is a RayDesc");
                return None;
            }
        }
        for (a, to) in args.iter().zip(params) {
            if let (Some(to), Some(at)) = (to, self.typed(a)) {
                if !self.converted(a, &at, &to, a.span) {
                    return None;
                }
            }
        }
        Some(result)
    }

    fn mul(&mut self, args: &[Expr], tys: &[Ty]) -> Option<Ty> {
        let [at, bt] = tys else { return None };
        // A vector longer than the matrix's side it meets is truncated to it, with DXC's
        // warning (`mul((float3x3)m, v4)`, `mul(v4, (float3x3)m)`).
        match (at, bt) {
            (Ty::Matrix(_, _, c), Ty::Vector(s, n)) if n > c => {
                let to = Ty::Vector(*s, *c);
                self.record(&args[1], bt, &to);
                return rules::mul_type(at, &to);
            }
            (Ty::Vector(s, n), Ty::Matrix(_, r, _)) if n > r => {
                let to = Ty::Vector(*s, *r);
                self.record(&args[0], at, &to);
                return rules::mul_type(&to, bt);
            }
            _ => {}
        }
        if let (Ty::Vector(a, m), Ty::Vector(b, n)) = (at, bt) {
            if m != n {
                // (Only a name is known to be one, as code generation finds it.)
                let row = args
                    .get(1)
                    .filter(|e| matches!(e.kind, ExprKind::Ident(_)))
                    .and_then(|e| self.rows.get(&ExprId::of(e)));
                let comp = if a.rank() >= b.rank() { *a } else { *b };
                return (row == Some(&0)).then(|| Ty::matrix(comp, *m, *n));
            }
        }
        rules::mul_type(at, bt)
    }

    /// The type of `lhs op rhs` given the operands' (`bt` is `None` when the right side's is
    /// not known).
    fn binary(&mut self, e: &Expr, op: BinaryOp, lhs: &Expr, at: Ty, rhs: &Expr) -> Option<Ty> {
        let bt = self.typed(rhs);
        if let Ty::Struct(i) = at {
            // An overloaded operator (HLSL 2021): a member function of the left operand.
            let name = format!("operator{}", op.symbol());
            if self.method(i, &name).is_some() {
                return self.member_call(e, i, &name, std::slice::from_ref(rhs));
            }
        }
        if matches!(op, BinaryOp::And | BinaryOp::Or) && self.opts.version >= LanguageVersion::V2021
        {
            if !matches!(at, Ty::Scalar(_)) {
                self.report(e.span, rules::non_scalar_logical(op));
                return None;
            }
            let b = Ty::Scalar(Scalar::Bool);
            self.record(lhs, &at, &b);
            if let Some(bt) = &bt {
                self.record(rhs, bt, &b);
            }
            return Some(b);
        }
        let bt = bt?;
        if matches!(op, BinaryOp::And | BinaryOp::Or) {
            let Some(common) = rules::common_type(&at, &bt, None, None).ty() else {
                self.invalid_operands(e, &at, &bt);
                return None;
            };
            let b = common.with_component(Scalar::Bool);
            self.record(lhs, &at, &b);
            self.record(rhs, &bt, &b);
            return Some(b);
        }
        let (la, lb) = (self.lit(lhs), self.lit(rhs));
        let t = self.operator(e, op, &at, la, &bt, lb)?;
        if let Some((ta, tb)) = rules::operand_types(op, &at, la, &bt, lb) {
            self.record(lhs, &at, &ta);
            self.record(rhs, &bt, &tb);
        }
        Some(t)
    }

    /// Records the conversion of a statement's condition to `bool` (a scalar; code
    /// generation reports any other).
    pub(super) fn condition(&mut self, e: &Expr) {
        match self.typed(e) {
            Some(t @ Ty::Scalar(_)) => self.record(e, &t, &Ty::Scalar(Scalar::Bool)),
            Some(t) => {
                let msg = format!(
                    "condition must be a scalar, not '{}'",
                    self.m.types.show(&t)
                );
                self.report(e.span, msg);
            }
            None => {}
        }
    }

    /// Records that `e`'s value, of type `from`, is converted to `to` where it is used (a
    /// conversion that exists by the operator's rule).
    pub(super) fn record(&mut self, e: &Expr, from: &Ty, to: &Ty) {
        if from != to {
            self.warn_truncation(e, from, to);
            self.conversions.insert(ExprId::of(e), to.clone());
        }
    }

    /// DXC's warning when an implicit conversion of `e` drops components.
    pub(super) fn warn_truncation(&mut self, e: &Expr, from: &Ty, to: &Ty) {
        let count = |t: &Ty| match t {
            Ty::Scalar(_) => Some(1),
            Ty::Vector(_, n) => Some(*n),
            Ty::Matrix(_, r, c) => Some(r * c),
            _ => None,
        };
        let kind = match from {
            Ty::Vector(..) => "vector",
            Ty::Matrix(..) => "matrix",
            _ => return,
        };
        let (Some(kept), Some(had)) = (count(to), count(from)) else {
            return;
        };
        if kept >= had {
            return;
        }
        let msg = format!("implicit truncation of {kind} type ({from} to {to})");
        self.diags
            .push(crate::hlsl::diag::Diagnostic::warning(e.span, msg));
    }

    /// The type of `op` on operands of types `at` and `bt` (numeric, or reported).
    fn operator(
        &mut self,
        e: &Expr,
        op: BinaryOp,
        at: &Ty,
        lit_a: Option<bool>,
        bt: &Ty,
        lit_b: Option<bool>,
    ) -> Option<Ty> {
        let t = rules::binary_type(op, at, lit_a, bt, lit_b);
        let ordered = matches!(
            op,
            BinaryOp::Lt | BinaryOp::Gt | BinaryOp::Le | BinaryOp::Ge
        );
        let common = rules::common_type(at, bt, lit_a, lit_b).ty();
        if ordered && common.as_ref().and_then(Ty::component) == Some(Scalar::Bool) {
            self.report(e.span, "ordered comparison of bool operands");
            return None;
        }
        let bitwise = matches!(op, BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor);
        if bitwise
            && t.as_ref()
                .and_then(Ty::component)
                .is_some_and(Scalar::is_float)
        {
            self.report(e.span, "bitwise operators need integer operands");
            return None;
        }
        if t.is_none() {
            if matches!(op, BinaryOp::Shl | BinaryOp::Shr) {
                let msg = format!("shift of a non-integer '{}'", self.m.types.show(at));
                self.report(e.span, msg);
            } else if rules::common_type(at, bt, lit_a, lit_b) == rules::Common::Invalid {
                self.invalid_operands(e, at, bt);
            }
        }
        t
    }

    fn invalid_operands(&mut self, e: &Expr, at: &Ty, bt: &Ty) {
        let (a, b) = (self.m.types.show(at), self.m.types.show(bt));
        self.report(e.span, format!("invalid operands of types '{a}' and '{b}'"));
    }

    /// Reports an error in an expression.
    pub(super) fn report(&mut self, span: crate::hlsl::source::Span, msg: impl Into<String>) {
        self.diags
            .push(crate::hlsl::diag::Diagnostic::error(span, msg));
    }

    /// The type of member `name` of a value of type `bt`, and its row depth if it is a 1xN
    /// matrix.
    fn member(&self, bt: Ty, name: &str) -> Option<(Ty, Option<u8>)> {
        match bt {
            Ty::Struct(mut i) => {
                for _ in 0..32 {
                    let def = self.m.types.structs.get(i)?;
                    if let Some(bf) = def.bitfields.iter().find(|b| b.name == name) {
                        return Some((def.fields.get(bf.field as usize)?.ty.clone(), None));
                    }
                    if let Some(f) = def.fields.iter().find(|f| f.name == name) {
                        return Some((f.ty.clone(), f.row_depth));
                    }
                    // A static member through an object (`t.M` is `T::M`).
                    let owner = def.origin.as_ref().unwrap_or(&def.name);
                    let qualified = format!("{owner}::{name}");
                    if let Some(t) = self.variable(&qualified) {
                        return Some((t?, self.global_rows.get(&qualified).copied()));
                    }
                    match def.fields.first() {
                        Some(f) if f.name == BASE_FIELD => match f.ty {
                            Ty::Struct(b) => i = b,
                            _ => return None,
                        },
                        _ => return None,
                    }
                }
                None
            }
            Ty::Scalar(s) | Ty::Vector(s, _) => {
                let n = if let Ty::Vector(_, n) = bt { n } else { 1 };
                let comps = rules::vector_swizzle(name, n)?;
                Some((Ty::vector(s, comps.len() as u32), None))
            }
            Ty::Matrix(s, r, c) => {
                let elems = rules::matrix_swizzle(name, r, c)?;
                Some((Ty::vector(s, elems.len() as u32), None))
            }
            _ => None,
        }
    }

    /// Records that `e`'s value (of type `from`) is implicitly converted to `to` where it is
    /// used, or reports at `span` that it does not convert.
    pub(super) fn converted(
        &mut self,
        e: &Expr,
        from: &Ty,
        to: &Ty,
        span: crate::hlsl::source::Span,
    ) -> bool {
        if from == to {
            return true;
        }
        if !rules::converts(&self.m.types.structs, from, to, false) {
            let (f, t) = (self.m.types.show(from), self.m.types.show(to));
            self.report(span, format!("cannot convert from '{f}' to '{t}'"));
            return false;
        }
        self.warn_truncation(e, from, to);
        self.conversions.insert(ExprId::of(e), to.clone());
        true
    }

    /// Whether `e` may be assigned; reports it where it may not (at `span`, for an argument
    /// of an `out` or `inout` parameter when `argument`).
    fn check_assignable(
        &mut self,
        e: &Expr,
        span: crate::hlsl::source::Span,
        argument: bool,
    ) -> bool {
        let msg = match self.assignable(e) {
            Assignable::Yes | Assignable::Unknown => return true,
            Assignable::Const => "cannot assign to a constant or read-only value",
            Assignable::No if argument => "an out or inout argument must be an lvalue",
            Assignable::No => "expression is not assignable",
            Assignable::Repeated => "a swizzle with a repeated component cannot be assigned",
            Assignable::ReadOnlyTexel => "cannot write to a read-only resource",
        };
        self.report(span, msg);
        false
    }

    /// Whether the (typed) expression `e` may be assigned.
    fn assignable(&self, e: &Expr) -> Assignable {
        match &e.kind {
            ExprKind::Ident(id) => {
                if let Some(local) = self.scopes.lookup(&id.name) {
                    return match &local.ty {
                        Some(t) if !t.is_resource() => {
                            if local.konst {
                                Assignable::Const
                            } else {
                                Assignable::Yes
                            }
                        }
                        _ => Assignable::Unknown,
                    };
                }
                match self.global_assignable.get(&id.name) {
                    Some(true) => Assignable::Yes,
                    Some(false) => Assignable::Const,
                    None => Assignable::Unknown,
                }
            }
            ExprKind::Member { base, member } => match self.typed(base) {
                Some(Ty::Struct(_)) => self.assignable(base),
                Some(t @ (Ty::Scalar(_) | Ty::Vector(..) | Ty::Matrix(..))) => {
                    if repeats_a_component(&t, &member.name) {
                        return Assignable::Repeated;
                    }
                    self.assignable(base)
                }
                _ => Assignable::Unknown,
            },
            ExprKind::Index { base, .. } => match self.typed(base) {
                Some(Ty::Array(..) | Ty::Vector(..) | Ty::Matrix(..) | Ty::Scalar(_)) => {
                    self.assignable(base)
                }
                Some(Ty::Resource(ResourceKind::StructuredBuffer { rw, .. }, _)) => {
                    if rw {
                        Assignable::Yes
                    } else {
                        Assignable::Const
                    }
                }
                Some(Ty::Resource(
                    ResourceKind::Texture { rw: false, .. }
                    | ResourceKind::TexelBuffer { rw: false, .. },
                    _,
                )) => Assignable::ReadOnlyTexel,
                _ => Assignable::Unknown,
            },
            ExprKind::Assign { lhs, .. } => self.assignable(lhs),
            ExprKind::Unary {
                op: UnaryOp::PreInc | UnaryOp::PreDec,
                operand,
            } => self.assignable(operand),
            ExprKind::Comma(_, b) => self.assignable(b),
            ExprKind::Literal(_)
            | ExprKind::Call { .. }
            | ExprKind::MethodCall { .. }
            | ExprKind::Binary { .. }
            | ExprKind::Conditional { .. }
            | ExprKind::Construct { .. }
            | ExprKind::SizeOf(_)
            | ExprKind::Unary { .. } => Assignable::No,
            _ => Assignable::Unknown,
        }
    }

    /// Reports that a value of type `bt` has no member `name` (one whose members this
    /// checker knows).
    fn no_member(&mut self, bt: &Ty, name: &str, span: crate::hlsl::source::Span) {
        let msg = match bt {
            Ty::Struct(i) => {
                // Reported against the last base searched, as code generation does.
                let mut i = *i;
                for _ in 0..32 {
                    match self.m.types.structs.get(i).and_then(|d| d.fields.first()) {
                        Some(f) if f.name == BASE_FIELD => match f.ty {
                            Ty::Struct(b) => i = b,
                            _ => return,
                        },
                        _ => break,
                    }
                }
                let Some(def) = self.m.types.structs.get(i) else {
                    return;
                };
                format!("no member named '{name}' in '{}'", def.name)
            }
            Ty::Scalar(_) | Ty::Vector(..) => {
                format!("invalid swizzle '{name}' on '{}'", self.m.types.show(bt))
            }
            Ty::Matrix(..) => format!("invalid matrix member '{name}'"),
            // `.mips` of a sampled texture, `.sample` of a multisampled one (typed by code
            // generation).
            Ty::Resource(ResourceKind::Texture { dim, rw, ms, .. }, _)
                if matches!(name, "mips" | "sample") =>
            {
                if !rw && *ms == (name == "sample") && *dim != TexDim::Cube {
                    return;
                }
                format!("this texture has no member '.{name}'")
            }
            Ty::Resource(..) => {
                format!("member reference '.{name}' on '{}'", self.m.types.show(bt))
            }
            _ => return,
        };
        self.report(span, msg);
    }

    /// `buf.Load<T>(address)` (a `T`) and `buf.Store<T>(address, value)` (the value
    /// converted to `T`).
    fn byte_address_template(
        &mut self,
        e: &Expr,
        name: &str,
        rw: bool,
        t: &crate::hlsl::ast::ArrayedType,
        args: &[Expr],
    ) -> Option<Ty> {
        let to = self.resolve(&t.ty, &t.array_dims)?;
        if name == "Load" {
            return Some(to);
        }
        if !rw {
            self.report(e.span, "cannot store to a read-only ByteAddressBuffer");
            return None;
        }
        let vt = self.typed(&args[1])?;
        self.converted(&args[1], &vt, &to, args[1].span)
            .then_some(Ty::Void)
    }

    /// The type `ty` (with array dimensions) names here; its problems are reported.
    pub(super) fn resolve(&mut self, ty: &TypeExpr, dims: &[Option<Expr>]) -> Option<Ty> {
        let (consts, env) = (&self.scopes, &self.m.types);
        let lookup = |n: &str| super::constant(consts, env, n);
        let mut r = TypeResolver {
            env,
            opts: self.opts,
            consts: &lookup,
            diags: &mut *self.diags,
            pack: None,
        };
        let (t, _) = r.resolve_type(ty)?;
        if dims.is_empty() || t == Ty::Void {
            return Some(t);
        }
        r.array_type(&t, dims, None, ty.span)
    }
}

#[cfg(test)]
mod tests {
    use crate::hlsl::hir::{ExprId, Module, Stmt};
    use crate::hlsl::sema::types::{Scalar, Ty};

    /// The types of the expression statements of `main` (none where it has none), after
    /// declaring `decls` at module scope and `locals` in `main`.
    fn statement_types(decls: &str, locals: &str, stmts: &[&str]) -> Vec<Option<Ty>> {
        let (types, errors) = typed_with_errors(decls, locals, stmts);
        assert!(errors.is_empty(), "{errors:?}");
        types
    }

    /// [`statement_types`] and the errors reported.
    fn typed_with_errors(
        decls: &str,
        locals: &str,
        stmts: &[&str],
    ) -> (Vec<Option<Ty>>, Vec<String>) {
        let src = format!(
            "{decls}\n[numthreads(1,1,1)] void main() {{ {locals} {} }}",
            stmts.join(" ")
        );
        let (m, diags) = crate::hlsl::sema::globals::declare_for_test(&src, "cs_6_0");
        let errors = diags.into_iter().map(|d| d.message).collect();
        let m: &Module<'static> = &m;
        let item = m.functions["main"][0].item;
        let types = m.bodies[&item]
            .stmts
            .iter()
            .filter_map(|s| match s {
                Stmt::Expr(e) => Some(m.expr_types.get(&ExprId::of(e)).cloned()),
                _ => None,
            })
            .collect();
        (types, errors)
    }

    #[test]
    fn operators_follow_the_usual_conversions_and_literals_take_the_other_side() {
        let f = |n| Some(Ty::vector(Scalar::Float, n));
        let types = statement_types(
            "",
            "float3 v; int i; uint u; half h; bool b; double d; float2x2 m;",
            &[
                "v * 2;",
                "i + u;",
                "i + 1.5;",
                "u - 1;",
                "b + b;",
                "v < 1;",
                "h * 2.0;",
                "d * i;",
                "i << 2u;",
                "v * d;",
                "m * 2;",
                "v.xy + v.zx;",
                "b ? v : 0;",
                "i = 2.5;",
                "-b;",
                "!v;",
            ],
        );
        let sc = |s| Some(Ty::Scalar(s));
        assert_eq!(
            types,
            vec![
                f(3),
                sc(Scalar::UInt),
                f(1),
                sc(Scalar::UInt),
                sc(Scalar::Int),
                Some(Ty::Vector(Scalar::Bool, 3)),
                // `half` is 32-bit without -enable-16bit-types.
                f(1),
                sc(Scalar::Double),
                sc(Scalar::Int),
                // A double scalar times a float vector widens (not an untyped literal).
                Some(Ty::Vector(Scalar::Double, 3)),
                Some(Ty::Matrix(Scalar::Float, 2, 2)),
                f(2),
                f(3),
                sc(Scalar::Int),
                sc(Scalar::Int),
                Some(Ty::Vector(Scalar::Bool, 3)),
            ]
        );
    }

    #[test]
    fn names_members_indices_and_one_row_matrices() {
        let types = statement_types(
            "struct B { int k; }; struct S : B { float4 p[2]; uint f : 3; };
             cbuffer C { float1x3 row; float4x3 tall; };
             RWStructuredBuffer<S> sb;",
            "S s; float1x3 lr[2];",
            &[
                "s.k;",
                "s.p[1].w;",
                "s.f;",
                "sb[0].p;",
                "row[0];",
                "row[0][1];",
                "lr[1][0];",
                "tall[3];",
                "tall._m01_m12;",
                "vk::DeviceScope;",
                "(int2)s.p[0].xy;",
                "sizeof(S);",
            ],
        );
        let f = |n| Some(Ty::vector(Scalar::Float, n));
        assert_eq!(
            types,
            vec![
                Some(Ty::Scalar(Scalar::Int)),
                f(1),
                Some(Ty::Scalar(Scalar::UInt)),
                Some(Ty::Array(Box::new(Ty::Vector(Scalar::Float, 4)), 2)),
                // `m[0]` of a 1xN matrix is the whole row.
                f(3),
                f(1),
                f(3),
                f(3),
                f(2),
                Some(Ty::Scalar(Scalar::UInt)),
                Some(Ty::Vector(Scalar::Int, 2)),
                Some(Ty::Scalar(Scalar::UInt)),
            ]
        );
    }

    #[test]
    fn texels_read_through_mip_and_sample_views_are_typed() {
        let types = statement_types(
            "Texture2D<float4> t; Texture2DMS<int2> ms;",
            "",
            &["t.mips[1][uint2(0, 0)];", "ms.sample[2][int2(0, 0)];"],
        );
        assert_eq!(
            types,
            [
                Some(Ty::Vector(Scalar::Float, 4)),
                Some(Ty::Vector(Scalar::Int, 2))
            ]
        );
    }

    #[test]
    fn calls_resolve_overloads_by_conversion_cost() {
        let (types, errors) = typed_with_errors(
            "struct V { float x; V operator+(V o) { V r; r.x = x + o.x; return r; }
                        float get() { return x; } };
             int one(int a) { return a; } float two(float a) { return a; }
             float two(int a, int b) { return a; } uint two(uint a) { return a; }",
            "V a; V b; V c = a + b;",
            &[
                "a + b;",
                "a.get();",
                "one(2);",
                "two(1, 2);",
                "two(1.0);",
                "c.get();",
                "two(2u);",
                "two(true);",
            ],
        );
        assert_eq!(
            types[0].as_ref().map(|t| matches!(t, Ty::Struct(_))),
            Some(true),
            "{types:?}"
        );
        assert_eq!(
            types[1..],
            [
                Some(Ty::Scalar(Scalar::Float)),
                Some(Ty::Scalar(Scalar::Int)),
                Some(Ty::Scalar(Scalar::Float)),
                // `two(float)`, the exact one of the one-argument overloads.
                Some(Ty::Scalar(Scalar::Float)),
                Some(Ty::Scalar(Scalar::Float)),
                Some(Ty::Scalar(Scalar::UInt)),
                // A bool converts to either at the same cost: ambiguous, reported.
                None,
            ]
        );
        assert_eq!(errors, ["call to 'two' is ambiguous"]);
    }
}

#[cfg(test)]
mod error_tests {
    /// The errors the checker reports for `main`'s statements `stmts`.
    fn errors(decls: &str, stmts: &str) -> Vec<String> {
        let src = format!("{decls}\n[numthreads(1,1,1)] void main() {{ {stmts} }}");
        let (_, diags) = crate::hlsl::sema::globals::declare_for_test(&src, "cs_6_0");
        diags.into_iter().map(|d| d.message).collect()
    }

    #[test]
    fn expression_errors_are_reported_by_semantic_analysis() {
        let e = errors(
            "struct B { int k; }; struct S : B { float f; }; float g(float x) { return x; }",
            "S s; float2x2 m; float3 v; bool b; nope + 1; s + 1; v << 1; b++; -s; ~v; s.q; v.xq; \
             m._m22; g(1, 2); g(s);",
        );
        assert_eq!(
            e,
            [
                "use of undeclared identifier 'nope'",
                "invalid operands of types 'S' and 'int'",
                "shift of a non-integer 'float3'",
                "cannot increment or decrement 'bool'",
                "cannot negate 'S'",
                "'~' needs an integer operand, not 'float3'",
                // Searched through the base: reported against it, as code generation does.
                "no member named 'q' in 'B'",
                "invalid swizzle 'xq' on 'float3'",
                "invalid matrix member '_m22'",
                "no overload of 'g' takes 2 arguments",
                "no matching overload of 'g' for these argument types",
            ]
        );
    }

    /// The errors of a `main` of `profile` whose body is `stmts`.
    fn errors_in(profile: &str, decls: &str, stmts: &str) -> Vec<String> {
        let src = format!("{decls}\nvoid main() {{ {stmts} }}");
        let (_, diags) = crate::hlsl::sema::globals::declare_for_test(&src, profile);
        diags.into_iter().map(|d| d.message).collect()
    }

    #[test]
    fn intrinsics_methods_and_indices_are_checked_by_semantic_analysis() {
        let decls = "Texture2D<float4> t; Texture3D<float4> t3; TextureCube<float4> tc;
                     SamplerState s; SubpassInput<float4> sp; string msg = \"hi\";
                     struct S { int a; };";
        let e = errors_in(
            "vs_6_0",
            decls,
            "float2 uv = 0; S x = (S)0; uint64_t w = 0; t.Sample(s, uv); clip(1); \
             WaveGetLaneIndex(); t.GatherCmpAlpha(s, uv, 0); sp.SubpassLoad(); t3[x]; \
             t3[int2(1, 2)]; tc[0]; firstbithigh(w); cross(float4(0, 0, 0, 0), 1); \
             length(float2x2(0, 0, 0, 0)); asint(1.0L); countbits(1, 2); \
             float4 c = true ? t : t; msg = \"no\";",
        );
        assert_eq!(
            e,
            [
                "sampling with implicit lod is only allowed in fragment and compute shaders",
                "clip is only allowed in pixel shaders",
                "Vulkan 1.1 is required for Wave Operation but not permitted to use; please \
                 specify your target environment via command line option -fspv-target-env=",
                "no equivalent for GatherCmpAlpha intrinsic method in Vulkan",
                "SubpassInput(MS) only allowed in pixel shader",
                "cannot convert from 'S' to 'int3'",
                "cannot convert from 'int2' to 'int3'",
                "a cube texture cannot be indexed",
                "firstbithigh needs a 32-bit integer argument",
                "cross needs float3 arguments",
                "length needs a vector argument",
                "asint needs a 32-bit numeric argument",
                "wrong number of arguments to 'countbits': expected 1, got 2",
                "casting to type 'Texture2D<float4>' unimplemented",
                "string variables are immutable in SPIR-V.",
            ]
        );
        // Compute shaders take derivatives from shader model 6.6.
        let cs = format!("{decls} [numthreads(2, 2, 1)]");
        let e = errors_in("cs_6_5", &cs, "float2 uv = 0; ddx(uv.x); t.Sample(s, uv);");
        assert_eq!(
            e,
            [
                "'ddx' in a compute shader needs shader model 6.6 or above",
                "'Sample' in a compute shader needs shader model 6.6 or above",
            ]
        );
        assert_eq!(
            errors_in("cs_6_6", &cs, "ddx(1.0); t.Sample(s, 0.5);"),
            [""; 0]
        );
        // Their derivative groups are 2x2 quads or lines of 4.
        let odd = format!("{decls} [numthreads(3, 1, 1)]");
        assert_eq!(
            errors_in("cs_6_6", &odd, "ddx(1.0);"),
            [
                "derivatives in a compute shader need numthreads with even X and Y, or X a \
              multiple of 4 and Y and Z of 1"
            ]
        );
        // Shader model 6.6's packed intrinsics.
        let e = errors_in("cs_6_5", &cs, "pack_u8(uint4(1, 2, 3, 4)); DebugBreak();");
        assert_eq!(
            e,
            [
                "'pack_u8' needs shader model 6.6 or above",
                "'DebugBreak' needs shader model 6.10 or above",
            ]
        );
        let e = errors_in(
            "cs_6_6",
            &cs,
            "unpack_s8s16(1u); pack_s8(float4(0, 0, 0, 0)); pack_clamp_u8(uint4(0, 0, 0, 0));",
        );
        assert_eq!(
            e,
            [
                "'unpack_s8s16' returns 16-bit integers: it needs -enable-16bit-types",
                "'pack_s8' takes four 16- or 32-bit integers, not 'float4'",
                "'pack_clamp_u8' takes signed integers (int16_t4 or int4), not 'uint4'",
            ]
        );
        // Methods' arities and out arguments; atomics' destinations.
        let decls = "Texture2D<float4> t; RWTexture2D<uint> rt; RWTexture2D<uint2> rt2;
                     ByteAddressBuffer b; RWStructuredBuffer<float> f; StructuredBuffer<int> ro;
                     groupshared uint g; static uint p; [numthreads(1, 1, 1)]";
        let e = errors_in(
            "cs_6_0",
            decls,
            "uint w, h, l, o; t.GetDimensions(w); t.GetDimensions(0, w, h, 1); t.Frob(); \
             b.Store(0, 1); t.Load(int3(0, 0, 0), int2(0, 0), 1); \
             InterlockedAdd(g, 1, o); InterlockedAdd(rt[uint2(0, 0)].x, 1); \
             InterlockedAdd(p, 1); InterlockedAdd(rt2[uint2(0, 0)].x, 1); InterlockedAdd(f[0], 1); \
             InterlockedAdd(ro[0], 1); InterlockedAdd(g, 1, 2);",
        );
        assert_eq!(
            e,
            [
                "GetDimensions takes 2 (or 4) arguments here",
                "expression is not assignable",
                "no method 'Frob' on this texture",
                "cannot store to a read-only ByteAddressBuffer",
                "expression is not assignable",
                "the destination of InterlockedAdd must be a buffer element or groupshared variable",
                "the destination of InterlockedAdd must be a buffer element or groupshared variable",
                "InterlockedAdd needs a 32- or 64-bit integer destination",
                "the destination of InterlockedAdd is read-only",
                "expression is not assignable",
            ]
        );
    }

    #[test]
    fn sampling_methods_and_resource_members_are_checked() {
        let decls = "Texture2D<float4> t; Texture2DMS<float4> ms; RWTexture2D<float4> rw;
                     TextureCube<float4> tc; SamplerState s; SamplerComparisonState c;
                     RWStructuredBuffer<float> b; [numthreads(2, 2, 1)]";
        let e = errors_in(
            "cs_6_6",
            decls,
            "float2 uv = 0; uint st; t.Sample(uv, uv); t.SampleCmp(s, uv, 0.5); \
             t.Sample(s, uv, int2(0, 0), 1.0, st, 1); rw.SampleLevel(s, uv, 0); \
             t.GetSamplePosition(0); tc.Gather(s, float3(0, 0, 1), st, st); \
             t.Sample(s, uv, int2(0, 0), 1.0, 2); t.GatherRed(s, uv, int2(0, 0), int2(0, 0), \
             int2(0, 0), int2(0, 0), st); t.mips[0][uint2(0, 0)]; tc.mips; ms.mips; b.x; \
             t.xy;",
        );
        assert_eq!(
            e,
            [
                "the first argument of 'Sample' must be a sampler",
                "the sampler argument of 'SampleCmp' must be a SamplerComparisonState",
                "wrong number of arguments to 'Sample': 6 given",
                "no method 'SampleLevel' on this texture",
                "GetSamplePosition is a method of multisampled textures only",
                "wrong number of arguments to 'Gather': 4 given",
                "expression is not assignable",
                "this texture has no member '.mips'",
                "this texture has no member '.mips'",
                "member reference '.x' on 'RWStructuredBuffer<float>'",
                "member reference '.xy' on 'Texture2D<float4>'",
            ]
        );
    }

    #[test]
    fn resource_aliases_printf_sizeof_and_inline_spirv_are_checked() {
        let e = errors(
            "struct A { float x; }; struct B { float x; }; ConstantBuffer<A> a;
             StructuredBuffer<float> g; RWStructuredBuffer<float> o; float f;
             [[vk::ext_instruction(9999)]] float nope(float x);",
            "ConstantBuffer<B> b = a; ConstantBuffer<A> c = a; RWStructuredBuffer<float> r = g; \
             printf(f); printf(\"%d\", o); sizeof(o); sizeof(a); float t = \"text\"; \
             printf(\"%f\", f);",
        );
        assert_eq!(
            e,
            [
                "[[vk::ext_instruction(9999)]]: no SPIR-V instruction has the opcode 9999",
                "cannot initialize a 'ConstantBuffer<B>' with a buffer of 'A'",
                "cannot initialize a 'RWStructuredBuffer<float>' with a \
                 'StructuredBuffer<float>'",
                "printf's format must be a string literal or a string variable",
                "not supported yet: printf of 'RWStructuredBuffer<float>'",
                "invalid application of 'sizeof' to the resource 'o'",
                "a string is not a value",
            ]
        );
    }

    #[test]
    fn near_misses_are_semantic_errors() {
        let e = errors(
            "cbuffer Blk { float4 tint; }; RWByteAddressBuffer bab; RWStructuredBuffer<float> o;
             int pick(int a) { return a; } void fill(out uint4 x) { x = 0; }",
            "int a[2]; int b[2]; float f = 1; bool p = true; int3 v = 0; b += a; \
             f.min(1); Blk.x; p < p; pick(1) = 2; fill(v); abs(o); (float4)float2(1, 2); \
             bab.Load3(); bab.Store(0); o = 1; f[0]; bab.Load<float>(); \
             bab.Store<float3>(0, int2(1, 1)); (float3)o; InterlockedAdd(8, 1); a[2.5];",
        );
        assert_eq!(
            e,
            [
                "invalid operands of types 'int[2]' and 'int[2]'",
                "no method 'min' on this value",
                "use of undeclared identifier 'Blk'",
                "ordered comparison of bool operands",
                "expression is not assignable",
                "cannot convert from 'int3' to 'uint4'",
                "a resource object is not a value here",
                "cannot convert from 'float2' to 'float4'",
                "wrong number of arguments to 'Load3': 0 given",
                "wrong number of arguments to 'Store': 1 given",
                "cannot convert from 'int' to 'RWStructuredBuffer<float>'",
                "wrong number of arguments to 'Load': 0 given",
                "cannot convert from 'int2' to 'float3'",
                "a resource object is not a value here",
                "the destination of InterlockedAdd must be a buffer element or groupshared variable",
                "index 2 is out of bounds (size 2)",
            ]
        );
    }

    #[test]
    fn constructors_indices_and_calls_are_checked() {
        let e = errors(
            "struct P { float2 a; float b; }; struct Q : P { }; struct T { float x; float1 t[1]; };",
            "float4 v = 0; float a[2]; P p = (P)0; Q q = (Q)0; T t = (T)0; float f = 1; \
             float4(1, 2, 3); float4(p, 1); float4(p, 1, 2); float2x2(v, 1); v & 1.0; \
             v[int2(0, 0)]; a[2]; v[-1]; t.t[3]; q.go(); f(2);",
        );
        assert_eq!(
            e,
            [
                "'float4' takes 4 components, 3 given",
                "'float4' takes 4 components, 5 given",
                "'float2x2' takes 4 components, 5 given",
                "bitwise operators need integer operands",
                "index must be an integer scalar, not 'int2'",
                "index 2 is out of bounds (size 2)",
                "index -1 is out of bounds (size 4)",
                "no member function named 'go' in 'P'",
                "use of undeclared function 'f'",
            ]
        );
        let e = errors(
            "RWStructuredBuffer<int> buf; groupshared int g; static const int table[3] = { 1, 2 };
             struct B { uint a : 4; uint b : 4; float c; };",
            "int i = 0; float3 v = 0; bool2 m = true; float4x4 w = 0; B b = { 1, 2, 3 }; \
             B c = { 1, 2 }; int2 d = { 1, 2, 3 }; false[0] = 1; i |= buf; buf += 1; \
             v.xy += m; mul(v, w); InterlockedAdd(g, 1, buf);",
        );
        assert_eq!(
            e,
            [
                "too few initializers",
                "too few initializers",
                "too many initializers",
                "expression is not assignable",
                "a resource object is not a value here",
                "a resource object is not a value here",
                "mul of mismatched shapes 'float3' and 'float4x4'",
                "a resource object is not a value here",
            ]
        );
        let src = "[numthreads(1,1,1)] void main() { float4 v = 0; bool2 c = true;
                   float2 r = c ? v.xy : v.zw; }";
        let mut opts = crate::hlsl::Options::new("main", "cs_6_0".parse().unwrap());
        opts.version = crate::hlsl::LanguageVersion::V2021;
        let e = crate::hlsl::compile_source("t.hlsl", src, &opts).unwrap_err();
        let msgs: Vec<&str> = e.diagnostics.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            msgs,
            [
                "condition for short-circuiting ternary operator must be scalar, for non-scalar \
              types use 'select'"
            ]
        );
    }

    #[test]
    fn implicit_conversions_are_recorded_or_reported() {
        let src = "void f(float2 x) { }
             [numthreads(1,1,1)] void main() { float a; int i; float2x2 m; float3 v;
               a = i; f(i); v = m; a = a; }";
        let (m, diags) = crate::hlsl::sema::globals::declare_for_test(src, "cs_6_0");
        let errors: Vec<String> = diags.into_iter().map(|d| d.message).collect();
        assert_eq!(errors, ["cannot convert from 'float2x2' to 'float3'"]);
        let mut conv: Vec<String> = m.conversions.values().map(|t| t.to_string()).collect();
        conv.sort();
        // `a = i` converts `i` to float, `f(i)` splats it to float2; `a = a` converts nothing.
        assert_eq!(conv, ["float", "float2"]);
    }

    #[test]
    fn operands_and_conditions_record_their_conversions() {
        let src = "[numthreads(1,1,1)] void main() { int i; float f; float3 v; uint u;
               i + f; v * 2; i << u; if (i) { } bool b = u ? v.x : i; }";
        let (m, diags) = crate::hlsl::sema::globals::declare_for_test(src, "cs_6_0");
        assert!(diags.is_empty(), "{diags:?}");
        let mut conv: Vec<String> = m.conversions.values().map(|t| t.to_string()).collect();
        conv.sort();
        // `i` to float (`i + f`), `2` to float (`v * 2`), `u` to int (`i << u`), `i` to
        // bool (`if`), `u` to bool and `i` to float (`?:`), the `?:` to bool (the local).
        assert_eq!(
            conv,
            ["bool", "bool", "bool", "float", "float", "float", "int"]
        );
    }

    #[test]
    fn unary_and_compound_operands_record_their_conversions_and_truncations_warn() {
        let src = "[numthreads(1,1,1)] void main() { bool b; int i; float4 v; float2 w;
               -b; !i; i += 1.5; w = v; w + v; float1x2 m = float2x2(1, 2, 3, 4); }";
        let (m, diags) = crate::hlsl::sema::globals::declare_for_test(src, "cs_6_0");
        let (warnings, errors): (Vec<_>, Vec<_>) = diags
            .into_iter()
            .partition(|d| matches!(d.severity, crate::hlsl::diag::Severity::Warning));
        assert!(errors.is_empty(), "{errors:?}");
        let warnings: Vec<String> = warnings.into_iter().map(|d| d.message).collect();
        assert_eq!(
            warnings,
            [
                "implicit truncation of vector type (float4 to float2)",
                "implicit truncation of vector type (float4 to float2)",
                "implicit truncation of matrix type (float2x2 to 1x2)",
            ]
        );
        let mut conv: Vec<String> = m.conversions.values().map(|t| t.to_string()).collect();
        conv.sort();
        // `b` to int (`-b`), `i` to bool (`!i`), `i` to float (`i += 1.5`), `v` to float2
        // (`w = v` and `w + v`).
        assert_eq!(conv, ["bool", "float", "float2", "float2", "int"]);
    }

    #[test]
    fn assignments_need_assignable_lvalues() {
        let e = errors(
            "cbuffer C { float4 tint; }; StructuredBuffer<float> ro; RWStructuredBuffer<float> rw;
             static const int K = 2; void set(out int x) { x = 1; }
             Texture2D<float> tx; Buffer<float> bf; float2x2 m;",
            "const int c = 1; int a = 0; float4 v; c = 2; c++; (a + 1) = 3; tint.x = 1; \
             ro[0] = 1; K = 3; set(4); set(c); rw[0] = 1; v.yx = 2; ++a = 5; set(a); \
             v.xyx = 1; tx[uint2(0, 0)] = 1; bf[0] = 2; if (v.xy) { } v.zw = 0;",
        );
        assert_eq!(
            e,
            [
                "cannot assign to a constant or read-only value",
                "cannot assign to a constant or read-only value",
                "expression is not assignable",
                "cannot assign to a constant or read-only value",
                "cannot assign to a constant or read-only value",
                "cannot assign to a constant or read-only value",
                "an out or inout argument must be an lvalue",
                "cannot assign to a constant or read-only value",
                "a swizzle with a repeated component cannot be assigned",
                "cannot write to a read-only resource",
                "cannot write to a read-only resource",
                "condition must be a scalar, not 'float2'",
            ]
        );
    }
}
