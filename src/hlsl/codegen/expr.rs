//! Expressions: names, literals, operators (with HLSL 2021 short-circuiting), member access and
//! swizzles, indexing, constructors, casts, assignments and calls.

use super::func::FnCx;
use super::{ParamDir, Place, Sym, Val};
use crate::grammar::StorageClass;
use crate::hlsl::ast::{BinaryOp, Expr, ExprKind, Ident, Literal, UnaryOp};
use crate::hlsl::hir::ExprId;
use crate::hlsl::sema::consteval::ConstVal;
use crate::hlsl::sema::layout::{size_align, LayoutRule};
use crate::hlsl::sema::names::BASE_FIELD;
use crate::hlsl::sema::types::{ResourceKind, SbFlavor, Scalar, Ty};
use crate::hlsl::source::Span;
use crate::hlsl::LanguageVersion;
use crate::ir::Value;
use crate::ir::{Block, Handle};

/// An arm of a selection: its result and the block it ends in.
type Arm<T> = (T, Handle<Block>);

use crate::hlsl::sema::rules::matrix_swizzle;

impl FnCx<'_, '_> {
    /// The value of `e`, loaded.
    pub fn rvalue(&mut self, e: &Expr) -> Option<(Value, Ty)> {
        let v = self.expr(e);
        self.load_val(&v, e.span)
    }

    /// Loads any expression result (texels included).
    pub fn load_val(&mut self, v: &Val, span: Span) -> Option<(Value, Ty)> {
        match v {
            Val::Texel(r, coord) => self.texel_load(r, *coord),
            v => self.load(v, span),
        }
    }

    /// The value of `e`, converted where it is used as semantic analysis recorded, which is
    /// `ty` (an internal error otherwise: code generation converts no type on its own, only
    /// layouts).
    pub fn rvalue_as(&mut self, e: &Expr, ty: &Ty) -> Option<Value> {
        let (v, t) = self.operand(e)?;
        if t == *ty {
            return Some(v);
        }
        if !self.same_type(&t, ty) {
            let msg = format!(
                "internal: semantic analysis gives this value the type '{}' where code \
                 generation needs '{}'",
                self.show(&t),
                self.show(ty)
            );
            self.st.error(e.span, msg);
            return None;
        }
        // A struct in a buffer's layout, copied into the struct itself.
        self.convert(v, &t, ty, e.span)
    }

    /// The type semantic analysis gave `e` (an internal error when it gave none: code
    /// generation types nothing itself).
    pub fn sema_type(&mut self, e: &Expr) -> Option<Ty> {
        if let Some(t) = self.st.expr_types.get(&ExprId::of(e)) {
            return Some(t.clone());
        }
        self.st.error(
            e.span,
            "internal: semantic analysis left this expression untyped",
        );
        None
    }

    /// The value of `e`, loaded and implicitly converted where semantic analysis recorded a
    /// conversion for where it is used ([`crate::hlsl::hir::Module::conversions`]).
    pub fn operand(&mut self, e: &Expr) -> Option<(Value, Ty)> {
        let (v, t) = self.rvalue(e)?;
        self.implicitly_converted(e, v, t)
    }

    /// `v`, the value of `e` of type `t`, converted as semantic analysis recorded.
    fn implicitly_converted(&mut self, e: &Expr, v: Value, t: Ty) -> Option<(Value, Ty)> {
        match self.st.conversions.get(&ExprId::of(e)) {
            Some(to) if *to != t => {
                let to = to.clone();
                Some((self.convert(v, &t, &to, e.span)?, to))
            }
            _ => Some((v, t)),
        }
    }

    /// [`Self::implicitly_converted`], the converted value minimum precision when `relaxed`.
    fn relaxed_conversion(
        &mut self,
        e: &Expr,
        v: Value,
        t: Ty,
        relaxed: bool,
    ) -> Option<(Value, Ty)> {
        let (c, ct) = self.implicitly_converted(e, v, t)?;
        if relaxed && c != v {
            self.relax(c);
        }
        Some((c, ct))
    }

    /// A scalar condition.
    pub fn condition(&mut self, e: &Expr) -> Option<Value> {
        self.operand(e).map(|(v, _)| v)
    }

    /// Emits an expression.
    pub fn expr(&mut self, e: &Expr) -> Val {
        self.live();
        let v = match self.expr_inner(e) {
            // A resource read from the struct member holding it.
            Some(Val::Held(p)) => self.member_resource(p),
            Some(v) => v,
            None => Val::Err,
        };
        #[cfg(debug_assertions)]
        self.check_agrees(e, &v);
        v
    }

    /// Checks that the type semantic analysis gave `e`, if it gave one, is the type of what
    /// was emitted for it (debug builds: the test suites run every expression through this
    /// while types move from code generation to semantic analysis).
    #[cfg(debug_assertions)]
    fn check_agrees(&mut self, e: &Expr, v: &Val) {
        let id = crate::hlsl::hir::ExprId::of(e);
        let (Some(want), Some(got)) = (self.st.expr_types.get(&id), self.val_ty(v)) else {
            return;
        };
        if !self.same_type(want, &got) {
            let msg = format!(
                "internal: semantic analysis typed this expression '{}', code generation '{}'",
                self.show(want),
                self.show(&got)
            );
            self.st.error(e.span, msg);
        }
    }

    /// Checks that a conversion semantic analysis recorded for `e` (of type `from`), if it
    /// recorded one, is to `to` (debug builds).
    #[cfg(debug_assertions)]
    pub fn check_conversion(&mut self, e: &Expr, from: &Ty, to: &Ty) {
        let Some(want) = self.st.conversions.get(&crate::hlsl::hir::ExprId::of(e)) else {
            return;
        };
        if from != to && !self.same_type(want, to) {
            let msg = format!(
                "internal: semantic analysis converts this value to '{}', code generation to \
                 '{}'",
                self.show(want),
                self.show(to)
            );
            self.st.error(e.span, msg);
        }
    }

    /// Whether `a` and `b` are the same type, a buffer block's copy of a struct being the
    /// struct.
    fn same_type(&self, a: &Ty, b: &Ty) -> bool {
        match (a, b) {
            (Ty::Struct(i), Ty::Struct(j)) => {
                let name = |k: usize| {
                    self.st
                        .types
                        .structs
                        .get(k)
                        .map(|d| d.origin.clone().unwrap_or_else(|| d.name.clone()))
                };
                i == j || name(*i) == name(*j)
            }
            // (An unsized array parameter of resources is each call's array.)
            (Ty::Array(x, n), Ty::Array(y, m)) => {
                (n == m || (x.is_resource() && (*n == 0 || *m == 0))) && self.same_type(x, y)
            }
            (Ty::Resource(k, x), Ty::Resource(l, y)) => k == l && self.same_type(x, y),
            _ => a == b,
        }
    }

    fn expr_inner(&mut self, e: &Expr) -> Option<Val> {
        let span = e.span;
        let site = ExprId::of(e);
        Some(match &e.kind {
            ExprKind::Literal(l) => self.literal(e, l)?,
            ExprKind::Ident(id) => match self.st.scopes.lookup(&id.name).cloned() {
                // Semantic analysis reports a use before the assignment.
                Some(Sym::UnsetResource) => {
                    self.st
                        .internal(id.span, "a resource used before it is assigned");
                    return None;
                }
                Some(sym) => self.symbol(sym),
                None if matches!(
                    id.name.as_str(),
                    "ResourceDescriptorHeap" | "SamplerDescriptorHeap"
                ) =>
                {
                    // Shader model 6.6's descriptor heaps. `-fvk-bind-resource-heap`,
                    // `-fvk-bind-sampler-heap`, `-fvk-bind-counter-heap` and
                    // `-fspv-use-descriptor-heap` are accepted because of this refusal (they
                    // only say how the heaps are bound): an implementation of the heaps must
                    // honour them (`Options::bindings.resource_heap`...,
                    // `Options::descriptor_heap`).
                    self.st.error(
                        id.span,
                        format!("not supported yet: '{}' (descriptor heaps)", id.name),
                    );
                    return None;
                }
                None => {
                    // `vk::DeviceScope` and friends: the SPIR-V `Scope` values, as `uint`.
                    if let Some(scope) = crate::hlsl::sema::rules::scope_constant(&id.name) {
                        let c = self.f.constant_u32(scope.value());
                        return Some(Val::R(Value::Constant(c), Ty::Scalar(Scalar::UInt)));
                    }
                    self.st
                        .internal(id.span, "a name semantic analysis did not resolve");
                    return None;
                }
            },
            // Name resolution rewrites every one (semantic analysis reports one left).
            ExprKind::Scoped { member, .. } => {
                self.st
                    .internal(member.span, "a qualified name left unresolved");
                return None;
            }
            ExprKind::Unary { op, operand } => self.unary(*op, operand, span)?,
            ExprKind::Binary { op, lhs, rhs } => self.binary(site, *op, lhs, rhs, span)?,
            ExprKind::Assign { op: None, lhs, rhs }
                if matches!(lhs.kind, ExprKind::Member { .. })
                    && self.sema_type(lhs).is_some_and(|t| t.is_resource()) =>
            {
                self.assign_held(lhs, rhs, span)?
            }
            ExprKind::Assign { op, lhs, rhs } => {
                // The right side is evaluated first, then the left (as DXC, after clang).
                let (r, rt) = self.rvalue(rhs)?;
                let dst = self.expr(lhs);
                if matches!(dst, Val::Err) {
                    return None;
                }
                let dst_ty = self.val_ty(&dst)?;
                #[cfg(debug_assertions)]
                if op.is_none() {
                    self.check_conversion(rhs, &rt, &dst_ty);
                }
                let (v, t) = match op {
                    None => (r, rt),
                    Some(op) => {
                        let cur = self.load_val(&dst, lhs.span)?;
                        let (cur, r) = (cur.0, (cur.1, r));
                        let relaxed = self.relaxed_operands(&[cur, r.1]);
                        let a = self.relaxed_conversion(lhs, cur, r.0, relaxed)?;
                        let b = self.relaxed_conversion(rhs, r.1, rt, relaxed)?;
                        self.emit_binary(*op, a, b, relaxed, span)?
                    }
                };
                let v = self.convert(v, &t, &dst_ty, span)?;
                self.assign(&dst, v, &dst_ty, span);
                // An assignment is its left side, an lvalue (`(a += b) = c`).
                match dst {
                    Val::P(_) | Val::Swz(..) => dst,
                    _ => Val::R(v, dst_ty),
                }
            }
            ExprKind::Conditional {
                cond,
                then,
                otherwise,
            } => self.conditional(e, cond, then, otherwise)?,
            ExprKind::Comma(a, b) => {
                let _ = self.expr(a);
                self.expr(b)
            }
            ExprKind::Call {
                callee,
                args,
                template_args,
                ..
            } => {
                if crate::hlsl::parser::is_builtin_function_template(&callee.name) {
                    return self.builtin_template_call(callee, template_args, args, span);
                }
                if !template_args.is_empty() {
                    // Name resolution instantiates templates; what is left is not a template.
                    self.st
                        .error(callee.span, format!("'{}' is not a template", callee.name));
                    return None;
                }
                self.call(site, &callee.name, callee.span, args, span)?
            }
            ExprKind::Construct { args, .. } => {
                let t = self.sema_type(e)?;
                self.construct(&t, args, span)?
            }
            ExprKind::MethodCall {
                receiver,
                method,
                type_arg,
                args,
            } => {
                let r = self.expr(receiver);
                if let (Some(t), Val::Res(res)) = (type_arg, &r) {
                    return self.templated_method(res, &method.name, t, args, span);
                }
                if type_arg.is_some() && !matches!(r, Val::Err) {
                    let msg = if matches!(self.val_ty(&r), Some(Ty::Struct(_))) {
                        // Name resolution instantiates member templates where it can tell
                        // the object's struct without type checking.
                        format!(
                            "not supported yet: calling the member function template '{}' on \
                             an object whose struct is known only when type checking (call it \
                             on a variable)",
                            method.name
                        )
                    } else {
                        format!(
                            "not supported yet: template arguments on the method '{}'",
                            method.name
                        )
                    };
                    self.st.error(method.span, msg);
                    return None;
                }
                match r {
                    Val::Res(res) => self.method(&res, &method.name, args, span)?,
                    Val::Err => return None,
                    r if matches!(self.val_ty(&r), Some(Ty::Struct(_))) => {
                        self.member_call(site, r, method, args, span)?
                    }
                    r if matches!(
                        self.val_ty(&r),
                        Some(Ty::Resource(ResourceKind::RayQuery { .. }, _))
                    ) =>
                    {
                        self.ray_query_call(r, &method.name, args, span)?
                    }
                    _ => {
                        self.st.error(
                            method.span,
                            format!("no method '{}' on this value", method.name),
                        );
                        return None;
                    }
                }
            }
            ExprKind::Cast { ty, operand, .. } => {
                let t = self.sema_type(e)?;
                if t == Ty::Void {
                    // `(void)x`: evaluated for its effects, the value discarded.
                    let _ = self.expr(operand);
                    return Some(self.void_val());
                }
                // `(Base)derived` is the base part, an lvalue when `derived` is one.
                let evaluated = if let Ty::Struct(target) = t {
                    let v = self.expr(operand);
                    let mut part = v.clone();
                    while let Some(Ty::Struct(cur)) = self.val_ty(&part) {
                        if cur == target {
                            return Some(part);
                        }
                        let def = self.st.types.structs.get(cur)?;
                        if def.fields.first().is_none_or(|f| f.name != BASE_FIELD) {
                            break;
                        }
                        part = self.member(part, BASE_FIELD, span)?;
                    }
                    Some(v)
                } else {
                    None
                };
                let (v, vt) = match evaluated {
                    Some(v) => self.load_val(&v, operand.span)?,
                    None => self.rvalue(operand)?,
                };
                if !t.is_numeric() || !vt.is_numeric() {
                    let r = self.aggregate_cast(v, &vt, &t, span)?;
                    return Some(Val::R(r, t));
                }
                if let (Ty::Matrix(..), Ty::Vector(..) | Ty::Scalar(_)) = (&vt, &t) {
                    if let Some(shape) = crate::hlsl::sema::decls::written_matrix_shape(ty) {
                        let v = self.truncate_matrix(v, &vt, shape, span)?;
                        let cut = Ty::vector(vt.component()?, shape.0 * shape.1);
                        let v = self.convert(v, &cut, &t, span)?;
                        return Some(Val::R(v, t));
                    }
                }
                let v = self.convert(v, &vt, &t, span)?;
                Val::R(v, t)
            }
            ExprKind::Member { base, member } => {
                let b = self.expr(base);
                self.member(b, &member.name, member.span)?
            }
            ExprKind::Index { base, index } => {
                let b = self.expr(base);
                if let Some(Ty::Struct(_)) = self.val_ty(&b) {
                    let name = Ident {
                        name: "operator[]".into(),
                        span,
                    };
                    return self.member_call(site, b, &name, std::slice::from_ref(index), span);
                }
                self.index(b, index, span)?
            }
            ExprKind::InitList(_) => {
                self.st
                    .error(span, "an initializer list is only allowed in a declaration");
                return None;
            }
            ExprKind::SizeOf(operand) => self.size_of(operand, span)?,
        })
    }

    /// `whole` (an integer of type `ht`) with `width` bits from `offset` replaced by `v`'s low
    /// bits.
    pub fn insert_bits(
        &mut self,
        whole: Value,
        v: Value,
        ht: &Ty,
        offset: u32,
        width: u32,
    ) -> Option<Value> {
        let t = self.ty(ht);
        let s = ht.component()?;
        Some(if s.bits() == 32 {
            let (o, w) = (self.u32c(offset), self.u32c(width));
            self.f.bit_field_insert(t, whole, v, o, w)
        } else {
            // Vulkan allows OpBitFieldInsert on 32-bit integers only: clear the field's bits,
            // shift the value into place, mask it, and combine.
            let ones = if width >= 64 {
                u64::MAX
            } else {
                (1u64 << width) - 1
            };
            let mask = ones << offset;
            let keep = self.scalar_const(s, ConstVal::Int(!mask as i64));
            let field = self.scalar_const(s, ConstVal::Int(mask as i64));
            let kept = self.f.bitwise_and(t, whole, keep);
            let o = self.u32c(offset);
            let moved = self.f.shift_left_logical(t, v, o);
            let part = self.f.bitwise_and(t, moved, field);
            self.f.bitwise_or(t, kept, part)
        })
    }

    /// `width` bits from `offset` of `whole` (an integer of type `ty`), sign-extended when
    /// `ty` is signed.
    pub fn extract_bits(
        &mut self,
        whole: Value,
        ty: &Ty,
        offset: u32,
        width: u32,
    ) -> Option<Value> {
        let t = self.ty(ty);
        let s = ty.component()?;
        Some(if s.bits() == 32 {
            let (o, w) = (self.u32c(offset), self.u32c(width));
            if s.is_signed() {
                self.f.bit_field_s_extract(t, whole, o, w)
            } else {
                self.f.bit_field_u_extract(t, whole, o, w)
            }
        } else {
            // Vulkan allows the bit-field instructions on 32-bit integers only: shift the field
            // to the top, then back down (arithmetically when signed).
            let up = self.u32c(s.bits() - offset - width);
            let down = self.u32c(s.bits() - width);
            let top = self.f.shift_left_logical(t, whole, up);
            if s.is_signed() {
                self.f.shift_right_arithmetic(t, top, down)
            } else {
                self.f.shift_right_logical(t, top, down)
            }
        })
    }

    /// The type of an expression result.
    pub fn val_ty(&self, v: &Val) -> Option<Ty> {
        match v {
            Val::R(_, t) => Some(t.clone()),
            Val::P(p) => Some(p.ty.clone()),
            Val::Swz(p, c) => Some(Ty::vector(p.ty.component()?, c.len() as u32)),
            Val::Texel(r, _) => Some(r.elem.clone()),
            Val::Elems(_, t, _) | Val::Bits(_, t, ..) => Some(t.clone()),
            Val::Res(r) => {
                let t = Ty::Resource(r.kind, Box::new(r.elem.clone()));
                Some(match r.array {
                    // An array of resources not indexed yet.
                    Some(n) => Ty::Array(Box::new(t), n),
                    None => t,
                })
            }
            Val::Mips(r, ..) => Some(Ty::Resource(r.kind, Box::new(r.elem.clone()))),
            Val::Held(p) => Some(p.ty.clone()),
            Val::Bundle(t, _) => Some(t.clone()),
            Val::Err => None,
        }
    }

    /// Stores into an lvalue (texels included).
    pub fn assign(&mut self, dst: &Val, v: Value, ty: &Ty, span: Span) {
        match dst {
            Val::Texel(r, coord) => {
                let (r, coord) = (r.clone(), *coord);
                self.texel_store(&r, coord, v, ty, span)
            }
            Val::Bits(holder, ht, offset, width) => {
                let Some(v) = self.convert(v, ty, ht, span) else {
                    return;
                };
                let Some((whole, _)) = self.load_val(holder, span) else {
                    return;
                };
                let Some(new) = self.insert_bits(whole, v, ht, *offset, *width) else {
                    return;
                };
                self.assign(holder, new, ht, span);
            }
            Val::Elems(base, et, paths) => {
                let mut seen = Vec::new();
                for p in paths {
                    if seen.contains(&p) {
                        self.st.error(
                            span,
                            "a swizzle with a repeated component cannot be assigned",
                        );
                        return;
                    }
                    seen.push(p);
                }
                let Some(v) = self.convert(v, ty, et, span) else {
                    return;
                };
                let Some((mut whole, wt)) = self.load_val(base, span) else {
                    return;
                };
                let Some(s) = et.component() else { return };
                let st = self.ty(&Ty::Scalar(s));
                let wty = self.ty(&wt);
                for (k, p) in paths.iter().enumerate() {
                    let part = if paths.len() == 1 {
                        v
                    } else {
                        self.f.composite_extract(st, v, vec![k as u32])
                    };
                    whole = self.f.composite_insert(wty, part, whole, p.clone());
                }
                self.assign(base, whole, &wt, span);
            }
            d => self.store(d, v, ty, span),
        }
    }

    fn symbol(&mut self, sym: Sym) -> Val {
        match sym {
            Sym::Var(p) => Val::P(p),
            Sym::Member {
                block,
                index,
                ty,
                sc,
                layout,
                row_major,
                relaxed,
                row_depth,
            } => {
                let pt = self.ptr_ty(sc, &ty, layout, row_major);
                let i = self.i32c(index as i32);
                let ptr = self.f.access_chain(pt, Value::Global(block), &[i]);
                if relaxed {
                    self.mark_relaxed(ptr);
                }
                if let Some(depth) = row_depth {
                    self.row_matrices.insert(ptr, depth);
                }
                Val::P(Place {
                    ptr,
                    ty,
                    sc,
                    layout,
                    row_major,
                    konst: true,
                })
            }
            Sym::Resource(r) => Val::Res(r),
            Sym::ResourceStruct { ty, leaves } => Val::Bundle(ty, leaves),
            Sym::ResourceVar { var, ty } => self.held_resource(var, &ty),
            Sym::Const(c, t) => {
                let v = match &t {
                    Ty::Scalar(s) => self.scalar_const(*s, c),
                    t => self.splat_const(t, c),
                };
                Val::R(v, t)
            }
            Sym::Spec(h, t) => Val::R(Value::SpecConstant(h), t),
            Sym::HeapElement { view, item, decl } => {
                self.heap_element(&view, item, decl).unwrap_or(Val::Err)
            }
            // (`expr` reports it.)
            Sym::UnsetResource => Val::Err,
            // Reported where it is declared.
            Sym::Refused => Val::Err,
        }
    }

    /// `s.r = x` for a struct member `r` holding a resource: the member points to `x` from
    /// now on (one resource, not an element of a flattened array, without a counter).
    fn assign_held(&mut self, lhs: &Expr, rhs: &Expr, span: Span) -> Option<Val> {
        let resource = match self.expr(rhs) {
            Val::Res(r) => r,
            Val::Err => return None,
            _ => {
                self.st
                    .error(rhs.span, "a resource member needs a resource");
                return None;
            }
        };
        let Some(Val::Held(slot)) = self.expr_inner(lhs) else {
            self.st
                .internal(span, "a resource member that is not held in memory");
            return None;
        };
        let Ty::Resource(kind, elem) = &slot.ty else {
            return None;
        };
        if resource.kind != *kind || resource.elem != **elem || resource.array.is_some() {
            let (to, from) = (
                self.show(&slot.ty),
                self.show(&Ty::Resource(
                    resource.kind,
                    Box::new(resource.elem.clone()),
                )),
            );
            self.st
                .error(span, format!("cannot assign a '{from}' to a '{to}'"));
            return None;
        }
        if resource.counter.is_some() {
            self.st.error(
                rhs.span,
                "not supported yet: a buffer with a counter in a struct member",
            );
            return None;
        }
        if self.held_as_handle(&slot.ty) {
            let t = self.ty(&slot.ty);
            let handle = self.f.load(t, resource.ptr, None);
            self.f.store(slot.ptr, handle, None);
        } else {
            self.f.store(slot.ptr, resource.ptr, None);
        }
        Some(Val::Res(resource))
    }

    /// How many resources ([`Val::Bundle`] entries) a value of type `ty` holds: an array of
    /// resources is one.
    fn bundle_len(&self, ty: &Ty) -> usize {
        match ty {
            Ty::Resource(..) => 1,
            Ty::Array(e, _) if matches!(**e, Ty::Resource(..)) => 1,
            Ty::Array(e, n) => *n as usize * self.bundle_len(e),
            Ty::Struct(i) => self
                .st
                .types
                .structs
                .get(*i)
                .map_or(0, |d| d.fields.iter().map(|f| self.bundle_len(&f.ty)).sum()),
            _ => 0,
        }
    }

    /// The value of a struct of resources (or an array of them) of type `ty` made of
    /// `leaves`, as a local holds it: images and samplers as handles, buffers as pointers.
    pub(crate) fn bundle_value(
        &mut self,
        ty: &Ty,
        leaves: &[super::Resource],
        span: Span,
    ) -> Option<Value> {
        match ty {
            Ty::Resource(..) => {
                let r = leaves.first()?;
                if self.held_as_handle(ty) {
                    let t = self.ty(ty);
                    Some(self.f.load(t, r.ptr, None))
                } else {
                    Some(r.ptr)
                }
            }
            Ty::Struct(i) => {
                let fields = self.st.types.structs.get(*i)?.fields.clone();
                let mut parts = Vec::with_capacity(fields.len());
                let mut at = 0;
                for f in &fields {
                    let n = self.bundle_len(&f.ty);
                    parts.push(self.bundle_value(&f.ty, leaves.get(at..at + n)?, span)?);
                    at += n;
                }
                let t = self.ty(ty);
                Some(self.f.composite_construct(t, &parts))
            }
            Ty::Array(e, n) if !matches!(**e, Ty::Resource(..)) => {
                let per = self.bundle_len(e);
                let parts = (0..*n as usize)
                    .map(|k| self.bundle_value(e, leaves.get(k * per..(k + 1) * per)?, span))
                    .collect::<Option<Vec<_>>>()?;
                let t = self.ty(ty);
                Some(self.f.composite_construct(t, &parts))
            }
            Ty::Array(e, n) if self.held_as_handle(e) => {
                // The handles of an array of images or samplers.
                let r = leaves.first()?;
                let et = self.ty(e);
                let pt = self.f.type_pointer(StorageClass::UniformConstant, et);
                let parts = (0..*n)
                    .map(|k| {
                        let i = self.i32c(k as i32);
                        let ptr = self.f.access_chain(pt, r.ptr, &[i]);
                        self.f.load(et, ptr, None)
                    })
                    .collect::<Vec<_>>();
                let t = self.ty(ty);
                Some(self.f.composite_construct(t, &parts))
            }
            _ => {
                self.st.error(
                    span,
                    "not supported yet: an array of buffers inside a struct used as a value",
                );
                None
            }
        }
    }

    /// The resource a struct member holds: an image or sampler is the member itself (a
    /// handle in memory, loaded where it is used); a buffer is the pointer the member holds.
    fn member_resource(&mut self, p: Place) -> Val {
        if self.held_as_handle(&p.ty) {
            return match self.resource_at(p.ptr, &p.ty) {
                Val::Res(mut r) => {
                    r.sc = p.sc;
                    Val::Res(r)
                }
                other => other,
            };
        }
        self.held_resource(p.ptr, &p.ty)
    }

    /// Whether a struct member holds a resource of type `ty` as its handle (images and
    /// samplers) rather than as a pointer (buffers).
    pub(super) fn held_as_handle(&self, ty: &Ty) -> bool {
        matches!(ty, Ty::Resource(kind, _)
            if super::decls::resource_class(self.st, *kind) == StorageClass::UniformConstant)
    }

    /// The pointer to a resource of type `ty` that `slot` (a Function variable or a struct
    /// member) holds, read now.
    fn held_resource(&mut self, slot: Value, ty: &Ty) -> Val {
        let ptr_ty = self.held_pointer_type(ty);
        let ptr = self.f.load(ptr_ty, slot, None);
        self.resource_at(ptr, ty)
    }

    /// The type of a pointer to a resource of type `ty`.
    pub(crate) fn held_pointer_type(&mut self, ty: &Ty) -> crate::ir::Handle<crate::ir::Type> {
        let sc = match ty {
            Ty::Resource(kind, _) => super::decls::resource_class(self.st, *kind),
            _ => StorageClass::Function,
        };
        let pointee = self.ty(ty);
        self.f.type_pointer(sc, pointee)
    }

    /// The resource of type `ty` that pointer `ptr` points to.
    fn resource_at(&mut self, ptr: Value, ty: &Ty) -> Val {
        let Ty::Resource(kind, elem) = ty else {
            return Val::Err;
        };
        Val::Res(super::Resource {
            kind: *kind,
            elem: (**elem).clone(),
            sc: super::decls::resource_class(self.st, *kind),
            counter: None,
            ptr,
            array: None,
        })
    }

    /// `static R r = Heap[i];` used: element `i` of the view, `i` evaluated here with only
    /// the module's names in scope.
    fn heap_element(&mut self, view: &str, item: usize, decl: usize) -> Option<Val> {
        let unit = self.st.unit;
        let Some(crate::hlsl::ast::Item::Variables(v)) = unit.items.get(item) else {
            return None;
        };
        let Some(crate::hlsl::ast::Initializer::Expr(init)) =
            v.declarators.get(decl).and_then(|d| d.init.as_ref())
        else {
            return None;
        };
        let ExprKind::Index { index, .. } = &init.kind else {
            return None;
        };
        let Some(Sym::Resource(heap)) = self.st.scopes.lookup(view).cloned() else {
            return None;
        };
        let saved = self.st.scopes.set_aside();
        let r = self.resource_index(heap, index, init.span);
        self.st.scopes.restore(saved);
        r
    }

    fn literal(&mut self, e: &Expr, l: &Literal) -> Option<Val> {
        let Ty::Scalar(s) = self.sema_type(e)? else {
            self.st
                .error(e.span, "internal: a literal typed as a non-scalar");
            return None;
        };
        let c = match l {
            Literal::Int { value, .. } => ConstVal::Int(*value as i64),
            Literal::Float { value, .. } => ConstVal::Float(*value),
            Literal::Bool(b) => ConstVal::Bool(*b),
            Literal::String(_) => return None,
        };
        let v = self.scalar_const(s, c);
        if let Literal::Float { value, suffix } = l {
            if suffix.is_empty() && self.st.opts.version < LanguageVersion::V202x {
                self.literals.insert(v, *value);
            }
        }
        Some(Val::R(v, Ty::Scalar(s)))
    }

    fn unary(&mut self, op: UnaryOp, operand: &Expr, span: Span) -> Option<Val> {
        match op {
            UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec => {
                let dst = self.expr(operand);
                let (v, t) = self.load_val(&dst, operand.span)?;
                let s = t.component().filter(|s| *s != Scalar::Bool);
                if s.is_none() {
                    self.st.error(
                        span,
                        format!("cannot increment or decrement '{}'", self.show(&t)),
                    );
                    return None;
                }
                let one = self.splat_const(&t, ConstVal::Int(1));
                let bop = if matches!(op, UnaryOp::PreInc | UnaryOp::PostInc) {
                    BinaryOp::Add
                } else {
                    BinaryOp::Sub
                };
                let nv = self.arith(bop, v, one, &t, span)?;
                if self.is_relaxed(v) {
                    self.relax(nv);
                }
                self.assign(&dst, nv, &t, span);
                if matches!(op, UnaryOp::PreInc | UnaryOp::PreDec) {
                    // `++a` is `a` itself, an lvalue (`++a = b` is valid HLSL).
                    if matches!(dst, Val::P(_) | Val::Swz(..)) {
                        return Some(dst);
                    }
                    return Some(Val::R(nv, t));
                }
                Some(Val::R(v, t))
            }
            UnaryOp::Plus => {
                let (v, t) = self.rvalue(operand)?;
                Some(Val::R(v, t))
            }
            UnaryOp::Neg => {
                let (v, t) = self.rvalue(operand)?;
                if let (Some(c), Ty::Scalar(_)) = (self.const_of(v), &t) {
                    let n = match c {
                        ConstVal::Float(f) => ConstVal::Float(-f),
                        c => ConstVal::Int(c.as_int().unwrap_or(0).wrapping_neg()),
                    };
                    let to = self.st.conversions.get(&ExprId::of(operand));
                    let s = to.unwrap_or(&t).component()?;
                    return Some(Val::R(self.scalar_const(s, n), Ty::Scalar(s)));
                }
                let (v, t) = self.implicitly_converted(operand, v, t)?;
                if let Ty::Matrix(..) = t {
                    let zero = self.splat_const(&t, ConstVal::Int(0));
                    let r = self.arith(BinaryOp::Sub, zero, v, &t, span)?;
                    return Some(Val::R(r, t));
                }
                let it = self.ty(&t);
                let r = if t.component().is_some_and(Scalar::is_float) {
                    self.f.f_negate(it, v)
                } else {
                    self.f.s_negate(it, v)
                };
                if self.is_relaxed(v) {
                    self.relax(r);
                }
                Some(Val::R(r, t))
            }
            UnaryOp::Not => {
                let (v, t) = self.operand(operand)?;
                if let Ty::Matrix(_, r, c) = t {
                    // Row by row, as DXC does: a bool matrix is an array of bool vectors.
                    let rt = self.ty(&Ty::Vector(Scalar::Bool, c));
                    let rows: Vec<Value> = (0..r)
                        .map(|i| {
                            let row = self.f.composite_extract(rt, v, vec![i]);
                            self.f.logical_not(rt, row)
                        })
                        .collect();
                    let mt = self.ty(&t);
                    return Some(Val::R(self.f.composite_construct(mt, &rows), t));
                }
                let it = self.ty(&t);
                Some(Val::R(self.f.logical_not(it, v), t))
            }
            UnaryOp::BitNot => {
                let (v, t) = self.rvalue(operand)?;
                let it = self.ty(&t);
                Some(Val::R(self.f.not(it, v), t))
            }
        }
    }

    fn binary(
        &mut self,
        site: ExprId,
        op: BinaryOp,
        lhs: &Expr,
        rhs: &Expr,
        span: Span,
    ) -> Option<Val> {
        if matches!(op, BinaryOp::And | BinaryOp::Or) {
            let (a, at) = self.operand(lhs)?;
            if self.st.opts.version >= LanguageVersion::V2021 {
                return self.short_circuit(op, a, rhs);
            }
            let (b, _) = self.operand(rhs)?;
            let t = self.ty(&at);
            let r = if op == BinaryOp::And {
                self.f.logical_and(t, a, b)
            } else {
                self.f.logical_or(t, a, b)
            };
            return Some(Val::R(r, at));
        }
        // Both sides are evaluated even when the first has an error, so both are reported.
        let av = self.expr(lhs);
        if let Some(Ty::Struct(i)) = self.val_ty(&av) {
            // An overloaded operator (HLSL 2021): a member function of the left operand.
            let name = format!("operator{}", op.symbol());
            if self.has_method(i, &name) {
                let name = Ident { name, span };
                return self.member_call(site, av, &name, std::slice::from_ref(rhs), span);
            }
        }
        let a = match av {
            Val::Err => None,
            v => self.load_val(&v, lhs.span),
        };
        let b = self.rvalue(rhs);
        let ((a, at), (b, bt)) = (a?, b?);
        // Both sides minimum precision (or literals): so are the conversions and the result.
        let relaxed = self.relaxed_operands(&[a, b]);
        let a = self.relaxed_conversion(lhs, a, at, relaxed)?;
        let b = self.relaxed_conversion(rhs, b, bt, relaxed)?;
        let (v, t) = self.emit_binary(op, a, b, relaxed, span)?;
        Some(Val::R(v, t))
    }

    /// Emits a (non-logical) binary operator on operands converted as semantic analysis
    /// said: of one type, or a float vector or matrix and a scalar of its component type
    /// (DXC's dedicated instructions), or an integer vector and a scalar (splatted). `relaxed`
    /// marks the converted operands and the result minimum precision.
    pub fn emit_binary(
        &mut self,
        op: BinaryOp,
        (a, at): (Value, Ty),
        (b, bt): (Value, Ty),
        relaxed: bool,
        span: Span,
    ) -> Option<(Value, Ty)> {
        let (mut a, mut b, mut ty) = (a, b, at.clone());
        if at != bt {
            let (vt, scalar_first) = match (&at, &bt) {
                (Ty::Scalar(_), Ty::Vector(..) | Ty::Matrix(..)) => (bt.clone(), true),
                (Ty::Vector(..) | Ty::Matrix(..), Ty::Scalar(_)) => (at.clone(), false),
                _ => {
                    let msg = format!(
                        "internal: operands of '{}' of types '{}' and '{}'",
                        op.symbol(),
                        self.show(&at),
                        self.show(&bt)
                    );
                    self.st.error(span, msg);
                    return None;
                }
            };
            let float = vt.component().is_some_and(Scalar::is_float);
            if op == BinaryOp::Mul && float {
                let (vec, sc) = if scalar_first { (b, a) } else { (a, b) };
                let t = self.ty(&vt);
                let r = match vt {
                    Ty::Matrix(..) => self.f.matrix_times_scalar(t, vec, sc),
                    _ => self.f.vector_times_scalar(t, vec, sc),
                };
                return Some((r, vt));
            }
            let (st, sv) = if scalar_first { (&at, a) } else { (&bt, b) };
            let splat = self.convert(sv, st, &vt, span)?;
            if scalar_first {
                a = splat;
            } else {
                b = splat;
            }
            ty = vt;
        }
        if crate::hlsl::sema::rules::is_comparison(op) {
            return self.compare(op, a, b, &ty, span);
        }
        let r = self.arith(op, a, b, &ty, span)?;
        if relaxed {
            self.relax(r);
        }
        Some((r, ty))
    }

    /// `a && b` / `a || b` with scalar operands under HLSL 2021: the right side runs only when
    /// needed, in a selection construct whose merge block takes the result.
    fn short_circuit(&mut self, op: BinaryOp, a: Value, rhs: &Expr) -> Option<Val> {
        let bool_ty = Ty::Scalar(Scalar::Bool);
        let bt = self.ty(&bool_ty);
        let rhs_block = self.f.block();
        let merge = self.f.block();
        let result = self.f.block_arg(merge, bt);
        let short = self.scalar_const(Scalar::Bool, ConstVal::Bool(op == BinaryOp::Or));
        self.f
            .selection_merge(merge, crate::grammar::SelectionControl::None);
        if op == BinaryOp::And {
            self.f
                .branch_conditional(a, (rhs_block, &[]), (merge, &[short]));
        } else {
            self.f
                .branch_conditional(a, (merge, &[short]), (rhs_block, &[]));
        }
        self.f.switch_to(rhs_block);
        let r = self.operand(rhs).map_or(short, |(b, _)| b);
        self.f.branch(merge, &[r]);
        self.f.switch_to(merge);
        Some(Val::R(result, bool_ty))
    }

    /// `cond ? then : otherwise`: in HLSL 2021 only the chosen arm runs, each in its own
    /// block storing into a variable of the result type; before, both run and a (per
    /// component, for a vector condition) OpSelect picks.
    /// The branch form of `c ? then : otherwise`: a selection on `c` whose arms `arm`
    /// evaluates; each arm's result with the block it ends in (neither branches yet), and the
    /// merge block.
    fn selection_arms<T>(
        &mut self,
        c: Value,
        then: &Expr,
        otherwise: &Expr,
        mut arm: impl FnMut(&mut Self, &Expr) -> T,
    ) -> (Arm<T>, Arm<T>, Handle<Block>) {
        let then_b = self.f.block();
        let else_b = self.f.block();
        let merge = self.f.block();
        self.f
            .selection_merge(merge, crate::grammar::SelectionControl::None);
        self.f.branch_conditional(c, (then_b, &[]), (else_b, &[]));
        self.f.switch_to(then_b);
        let tv = arm(self, then);
        let then_end = self.f.current_block();
        self.f.switch_to(else_b);
        let ev = arm(self, otherwise);
        let else_end = self.f.current_block();
        ((tv, then_end), (ev, else_end), merge)
    }

    /// `c ? r1 : r2` of resources, as DXC emits it: a Function variable holding a pointer to
    /// the resource, stored in each branch, which legalization resolves where `c` is constant
    /// (an error at the expression otherwise).
    fn resource_conditional(
        &mut self,
        e: &Expr,
        cond: &Expr,
        then: &Expr,
        otherwise: &Expr,
    ) -> Option<Val> {
        let (c, _) = self.operand(cond)?;
        let ((tv, then_end), (ev, else_end), merge) =
            self.selection_arms(c, then, otherwise, |cx, e| cx.expr(e));
        let (Val::Res(tr), Val::Res(er)) = (tv, ev) else {
            self.st.error(
                e.span,
                "not supported yet: '?:' of resources other than named ones",
            );
            return None;
        };
        if tr.counter.is_some() || er.counter.is_some() || tr.array.is_some() || er.array.is_some()
        {
            self.st.error(
                e.span,
                "not supported yet: '?:' of buffers with counters or of arrays of resources",
            );
            return None;
        }
        let pointee = self.ty(&Ty::Resource(tr.kind, Box::new(tr.elem.clone())));
        // A sampler or read-only texture is held by value, as DXC holds it (valid before
        // legalization); another resource by its pointer.
        let by_value = matches!(
            tr.kind,
            ResourceKind::Sampler { .. } | ResourceKind::Texture { rw: false, .. }
        );
        let held = if by_value {
            pointee
        } else {
            self.f.type_pointer(tr.sc, pointee)
        };
        let ptr_ty = self.f.type_pointer(StorageClass::Function, held);
        let cur = self.f.current_block();
        self.f.switch_to(self.vars);
        let var = self.f.variable(ptr_ty, StorageClass::Function, None);
        self.f.switch_to(cur);
        const NAME: &str = "temp.var.ternary";
        self.f.name(var, NAME);
        for (end, r) in [(then_end, &tr), (else_end, &er)] {
            self.f.switch_to(end);
            let v = if by_value { self.load_handle(r) } else { r.ptr };
            self.f.store(var, v, None);
            self.f.branch(merge, &[]);
        }
        self.f.switch_to(merge);
        self.st.needs_legalization(
            e.span,
            Some(NAME),
            "the resource this '?:' chooses does not stay one resource (legalization could not \
             resolve it: its condition is not constant)",
        );
        if by_value {
            return Some(Val::Res(super::Resource {
                ptr: var,
                sc: StorageClass::Function,
                ..tr
            }));
        }
        let ptr = self.f.load(held, var, None);
        Some(Val::Res(super::Resource { ptr, ..tr }))
    }

    fn conditional(&mut self, e: &Expr, cond: &Expr, then: &Expr, otherwise: &Expr) -> Option<Val> {
        let ty = self.sema_type(e)?;
        if ty.is_resource() {
            return self.resource_conditional(e, cond, then, otherwise);
        }
        let (c, ct) = self.operand(cond)?;
        // Before SPIR-V 1.4, OpSelect takes no composite other than a vector: a matrix,
        // struct or array chosen by a scalar takes the branch form, as DXC.
        let composite = matches!(ty, Ty::Matrix(..) | Ty::Struct(_) | Ty::Array(..))
            && matches!(ct, Ty::Scalar(_))
            && self.st.opts.target_env.spirv_version() < crate::grammar::Version(1, 4);
        if self.st.opts.version >= LanguageVersion::V2021 || composite {
            let ((tv, then_end), (ev, else_end), merge) =
                self.selection_arms(c, then, otherwise, |cx, e| cx.operand(e));
            let ((tv, _), (ev, _)) = (tv?, ev?);
            let var = self.local(&ty, "temp.var.ternary");
            for (end, v) in [(then_end, tv), (else_end, ev)] {
                self.f.switch_to(end);
                self.f.store(var, v, None);
                self.f.branch(merge, &[]);
            }
            self.f.switch_to(merge);
            let t = self.ty(&ty);
            let v = self.f.load(t, var, None);
            return Some(Val::R(v, ty));
        }
        let (tv, _) = self.operand(then)?;
        let (ev, _) = self.operand(otherwise)?;
        // A bool matrix (an array of bool vectors) selects row by row.
        if let (Ty::Matrix(_, rows, _), Ty::Matrix(s, _, cols)) = (&ct, &ty) {
            let row = Ty::vector(*s, *cols);
            let (rt, bt) = (self.ty(&row), self.ty(&Ty::vector(Scalar::Bool, *cols)));
            let mut parts = Vec::with_capacity(*rows as usize);
            for i in 0..*rows {
                let ci = self.f.composite_extract(bt, c, vec![i]);
                let ti = self.f.composite_extract(rt, tv, vec![i]);
                let ei = self.f.composite_extract(rt, ev, vec![i]);
                parts.push(self.f.select(rt, ci, ti, ei));
            }
            let t = self.ty(&ty);
            return Some(Val::R(self.f.composite_construct(t, &parts), ty));
        }
        let c = match (&ct, &ty) {
            (Ty::Scalar(_), Ty::Vector(_, n)) => self.splat(c, Scalar::Bool, *n),
            _ => c,
        };
        let t = self.ty(&ty);
        Some(Val::R(self.f.select(t, c, tv, ev), ty))
    }

    /// The struct or array `target` whose every scalar is the scalar `v` (of `vt`), converted;
    /// `None` (with an error) for a member that holds no numbers (a resource).
    fn splat_aggregate(&mut self, v: Value, vt: &Ty, target: &Ty, span: Span) -> Option<Value> {
        match target {
            Ty::Array(e, n) => {
                let part = self.splat_aggregate(v, vt, e, span)?;
                let parts = vec![part; *n as usize];
                let t = self.ty(target);
                Some(self.f.composite_construct(t, &parts))
            }
            Ty::Struct(i) if self.st.types.structs.get(*i)?.bitfields.is_empty() => {
                let fields = self.st.types.structs.get(*i)?.fields.clone();
                let mut parts = Vec::with_capacity(fields.len());
                for f in &fields {
                    parts.push(self.splat_aggregate(v, vt, &f.ty, span)?);
                }
                let t = self.ty(target);
                Some(self.f.composite_construct(t, &parts))
            }
            Ty::Struct(_) => {
                // With bit-fields: the scalar for each of them, and each other scalar.
                let n = self.flat_len(target)?;
                let leaves = vec![(v, vt.clone(), span); n as usize];
                self.build_from(target, &mut leaves.into_iter(), span)
            }
            t if t.is_numeric() => self.convert(v, vt, t, span),
            t => {
                self.st.error(
                    span,
                    format!(
                        "not supported yet: cast from '{}' to a struct holding '{}'",
                        self.show(vt),
                        self.show(t)
                    ),
                );
                None
            }
        }
    }

    /// `sizeof(x)`: the bytes a value of x's type takes, as C packs it (scalar layout, a
    /// struct rounded up to its alignment), a `uint` constant. The operand is not evaluated:
    /// its type comes from a cast (`sizeof(T)` is parsed as `sizeof((T)0)`) or a variable.
    fn size_of(&mut self, operand: &Expr, span: Span) -> Option<Val> {
        let ty = match &operand.kind {
            ExprKind::Cast { ty, array_dims, .. } => {
                let (t, _) = self.st.resolve_type(ty)?;
                if array_dims.is_empty() {
                    t
                } else {
                    self.st.array_type(&t, array_dims, None, ty.span)?
                }
            }
            ExprKind::Ident(id) => match self.st.scopes.lookup(&id.name) {
                Some(Sym::Refused) => return None,
                Some(Sym::Var(Place { ty, .. }) | Sym::Member { ty, .. })
                | Some(Sym::Const(_, ty) | Sym::Spec(_, ty)) => ty.clone(),
                Some(
                    Sym::Resource(_)
                    | Sym::HeapElement { .. }
                    | Sym::UnsetResource
                    | Sym::ResourceVar { .. }
                    | Sym::ResourceStruct { .. },
                ) => {
                    self.st.error(
                        span,
                        format!(
                            "invalid application of 'sizeof' to the resource '{}'",
                            id.name
                        ),
                    );
                    return None;
                }
                None => {
                    self.st.error(
                        operand.span,
                        format!("use of undeclared identifier '{}'", id.name),
                    );
                    return None;
                }
            },
            _ => {
                self.st.error(
                    operand.span,
                    "not supported yet: sizeof of an expression other than a type or a variable",
                );
                return None;
            }
        };
        let Some(size) = self.c_size(&ty) else {
            self.st.error(
                span,
                format!("invalid application of 'sizeof' to '{}'", self.show(&ty)),
            );
            return None;
        };
        let c = self.f.constant_u32(size);
        Some(Val::R(Value::Constant(c), Ty::Scalar(Scalar::UInt)))
    }

    /// The C size of `t`: scalar layout, arrays of tightly packed elements (an empty struct
    /// takes no room, unlike in a buffer's array stride); `None` for resources and `void`.
    fn c_size(&self, t: &Ty) -> Option<u32> {
        match t {
            Ty::Void | Ty::Resource(..) => None,
            Ty::Array(e, n) => self.c_size(e)?.checked_mul(*n),
            Ty::Struct(i) => {
                let def = self.st.types.structs.get(*i)?;
                for f in &def.fields {
                    self.c_size(&f.ty)?;
                }
                Some(size_align(t, LayoutRule::Scalar, false, &self.st.types.structs).0)
            }
            _ => Some(size_align(t, LayoutRule::Scalar, false, &self.st.types.structs).0),
        }
    }

    /// An explicit cast where either side is a struct or an array: the value itself for the
    /// same type; a scalar set into every scalar of the target (`(S)0`, `(float[4])1`); else
    /// DXC's flat conversion.
    fn aggregate_cast(&mut self, v: Value, vt: &Ty, t: &Ty, span: Span) -> Option<Value> {
        if t == vt {
            return Some(v);
        }
        if let (Ty::Scalar(_), Ty::Struct(_) | Ty::Array(..)) = (vt, t) {
            return self.splat_aggregate(v, vt, t, span);
        }
        self.flat_convert(v, vt, t, span)
    }

    /// DXC's flat conversion (`(S)v`, `(float[4])s.data`, `(uint)s`): the source's scalars in
    /// order, converted, fill the target's; the source may have more (truncation), never fewer.
    fn flat_convert(&mut self, v: Value, from: &Ty, to: &Ty, span: Span) -> Option<Value> {
        let (have, need) = match (self.flat_len(from), self.flat_len(to)) {
            (Some(have), Some(need)) if have >= need => (have, need),
            _ => (0, 1),
        };
        if have < need {
            return self.cannot_convert(from, to, span);
        }
        let mut leaves = Vec::new();
        self.flatten_value(v, from, span, &mut leaves);
        if leaves.len() as u64 != have {
            // A bit-field struct, already reported.
            return None;
        }
        self.build_from(to, &mut leaves.into_iter(), span)
    }

    /// How many scalars a value of `t` holds (its flat conversion's length); `None` for
    /// resources and other opaque types.
    fn flat_len(&self, t: &Ty) -> Option<u64> {
        Some(match t {
            Ty::Scalar(_) | Ty::Vector(..) | Ty::Matrix(..) => u64::from(t.count()),
            Ty::Array(e, n) => self.flat_len(e)? * u64::from(*n),
            Ty::Struct(i) => {
                let def = self.st.types.structs.get(*i)?;
                let mut total = 0;
                for (k, f) in def.fields.iter().enumerate() {
                    // A field holding bit-fields counts one per bit-field.
                    let bits = def.bitfields.iter().filter(|b| b.field == k as u32).count();
                    total += if bits > 0 {
                        bits as u64
                    } else {
                        self.flat_len(&f.ty)?
                    };
                }
                total
            }
            _ => return None,
        })
    }

    /// The `rows`×`cols` corner of a matrix as a vector in row order (a cast to `float3x1`
    /// takes the first column, to `float1x3` the first row), as DXC truncates.
    pub(super) fn truncate_matrix(
        &mut self,
        v: Value,
        from: &Ty,
        (rows, cols): (u32, u32),
        span: Span,
    ) -> Option<Value> {
        let Ty::Matrix(s, r, c) = *from else {
            return None;
        };
        if rows > r || cols > c {
            self.st.error(
                span,
                format!(
                    "cannot convert from '{}' to a {rows}x{cols} matrix",
                    self.show(from)
                ),
            );
            return None;
        }
        let et = self.ty(&Ty::Scalar(s));
        let mut comps = Vec::new();
        for i in 0..rows {
            for j in 0..cols {
                comps.push(self.f.composite_extract(et, v, vec![i, j]));
            }
        }
        Some(self.compose_scalars(&Ty::vector(s, rows * cols), &comps))
    }

    /// `base.name`: a struct field, a vector swizzle or a matrix element.
    fn member(&mut self, base: Val, name: &str, span: Span) -> Option<Val> {
        let bt = self.val_ty(&base)?;
        match &bt {
            Ty::Struct(i) => {
                let def = self.st.types.structs.get(*i)?;
                if let Some(bf) = def.bitfields.iter().find(|b| b.name == name).cloned() {
                    // A bit-field: bits of the field that holds it.
                    let holder = self.field_at(base, *i, bf.field as usize, span)?;
                    let ty = self.val_ty(&holder)?;
                    return Some(Val::Bits(Box::new(holder), ty, bf.offset, bf.width));
                }
                let Some(k) = def.fields.iter().position(|f| f.name == name) else {
                    // A static member through an object (`t.M` is `T::M`).
                    let owner = def.origin.as_ref().unwrap_or(&def.name);
                    let qualified = format!("{owner}::{name}");
                    if let Some(sym) = self.st.scopes.lookup(&qualified).cloned() {
                        return Some(self.symbol(sym));
                    }
                    // A member of the base struct (the hidden first member).
                    if def.fields.first().is_some_and(|f| f.name == BASE_FIELD) {
                        let b = self.member(base, BASE_FIELD, span)?;
                        return self.member(b, name, span);
                    }
                    let sn = def.name.clone();
                    self.st
                        .error(span, format!("no member named '{name}' in '{sn}'"));
                    return None;
                };
                let tail = k + 1 == def.fields.len() && matches!(def.fields[k].ty, Ty::Array(_, 1));
                let v = self.field_at(base, *i, k, span)?;
                if tail {
                    match &v {
                        Val::P(p) => {
                            self.tail_arrays.insert(p.ptr);
                        }
                        Val::R(r, _) => {
                            self.tail_arrays.insert(*r);
                        }
                        _ => {}
                    }
                }
                Some(v)
            }
            Ty::Scalar(_) | Ty::Vector(..) => {
                let n = if let Ty::Vector(_, n) = bt { n } else { 1 };
                // `_m01` on a collapsed 1xN or Nx1 matrix names one component.
                let comps = crate::hlsl::sema::rules::vector_swizzle(name, n);
                let Some(comps) = comps else {
                    self.st.error(
                        span,
                        format!("invalid swizzle '{name}' on '{}'", self.show(&bt)),
                    );
                    return None;
                };
                let s = bt.component()?;
                match base {
                    Val::P(p) if n > 1 => Some(Val::Swz(p, comps)),
                    // `s.x` of a scalar (or a collapsed size-1 vector) is the scalar itself.
                    Val::P(p) if comps == [0] => Some(Val::P(p)),
                    Val::Texel(..) | Val::Elems(..) => {
                        let rt = if comps.len() == 1 {
                            Ty::Scalar(s)
                        } else {
                            Ty::vector(s, comps.len() as u32)
                        };
                        let paths = if n > 1 {
                            comps.iter().map(|&c| vec![c]).collect()
                        } else {
                            comps.iter().map(|_| Vec::new()).collect()
                        };
                        if n == 1 && comps == [0] {
                            return Some(base);
                        }
                        if n == 1 {
                            // Components of a scalar texel: the texel itself, repeated.
                            let (v, _) = self.load_val(&base, span)?;
                            let r = if comps.len() == 1 {
                                v
                            } else {
                                self.splat(v, s, comps.len() as u32)
                            };
                            return Some(Val::R(r, rt));
                        }
                        Some(Val::Elems(Box::new(base), rt, paths))
                    }
                    Val::Swz(p, inner) => {
                        let c: Option<Vec<u32>> = comps
                            .iter()
                            .map(|&c| inner.get(c as usize).copied())
                            .collect();
                        Some(Val::Swz(p, c?))
                    }
                    other => {
                        let (v, _) = self.load_val(&other, span)?;
                        let rt = Ty::vector(s, comps.len() as u32);
                        let t = self.ty(&rt);
                        let r = if n == 1 {
                            if comps.len() == 1 {
                                v
                            } else {
                                self.splat(v, s, comps.len() as u32)
                            }
                        } else if comps.len() == 1 {
                            self.f.composite_extract(t, v, vec![comps[0]])
                        } else {
                            self.f.vector_shuffle(t, v, v, comps)
                        };
                        if self.is_relaxed(v) {
                            self.relax(r);
                        }
                        Some(Val::R(r, rt))
                    }
                }
            }
            Ty::Matrix(s, r, c) => {
                let Some(elems) = matrix_swizzle(name, *r, *c) else {
                    self.st
                        .error(span, format!("invalid matrix member '{name}'"));
                    return None;
                };
                let st_ = Ty::Scalar(*s);
                if let (Val::P(p), [(i, j)]) = (&base, elems.as_slice()) {
                    let pt = self.ptr_ty(p.sc, &st_, p.layout, false);
                    let (i, j) = (self.u32c(*i), self.u32c(*j));
                    let ptr = self.f.access_chain(pt, p.ptr, &[i, j]);
                    if self.is_relaxed(p.ptr) {
                        self.mark_relaxed(ptr);
                    }
                    return Some(Val::P(Place {
                        ptr,
                        ty: st_,
                        ..p.clone()
                    }));
                }
                if matches!(base, Val::P(_) | Val::Texel(..) | Val::Elems(..)) {
                    let rt = if elems.len() == 1 {
                        st_
                    } else {
                        Ty::vector(*s, elems.len() as u32)
                    };
                    let paths = elems.iter().map(|&(i, j)| vec![i, j]).collect();
                    return Some(Val::Elems(Box::new(base), rt, paths));
                }
                let (v, _) = self.load_val(&base, span)?;
                let et = self.ty(&st_);
                let parts: Vec<Value> = elems
                    .iter()
                    .map(|(i, j)| self.f.composite_extract(et, v, vec![*i, *j]))
                    .collect();
                if parts.len() == 1 {
                    return Some(Val::R(parts[0], st_));
                }
                let rt = Ty::vector(*s, parts.len() as u32);
                let t = self.ty(&rt);
                Some(Val::R(self.f.composite_construct(t, &parts), rt))
            }
            Ty::Resource(kind @ ResourceKind::Texture { .. }, _)
                if matches!(name, "mips" | "sample") =>
            {
                let Val::Res(r) = base else { return None };
                let sample = name == "sample";
                if !self.mips_allowed(*kind, sample, span) {
                    return None;
                }
                Some(Val::Mips(r, sample, None))
            }
            _ => {
                self.st.error(
                    span,
                    format!("member reference '.{name}' on '{}'", self.show(&bt)),
                );
                None
            }
        }
    }

    /// Field `k` of a value of struct `i`: a pointer into it for an lvalue, else extracted.
    fn field_at(&mut self, base: Val, i: usize, k: usize, span: Span) -> Option<Val> {
        let f = self.st.types.structs.get(i)?.fields.get(k)?.clone();
        if let Val::Bundle(_, leaves) = base {
            let def = self.st.types.structs.get(i)?;
            let at: usize = def.fields[..k].iter().map(|f| self.bundle_len(&f.ty)).sum();
            let n = self.bundle_len(&f.ty);
            let part = leaves.get(at..at + n)?.to_vec();
            return Some(match (&f.ty, part.as_slice()) {
                (Ty::Resource(..), [r]) => Val::Res(r.clone()),
                (Ty::Array(e, _), [r]) if matches!(**e, Ty::Resource(..)) => Val::Res(r.clone()),
                _ => Val::Bundle(f.ty, part),
            });
        }
        if let Ty::Array(..) = &f.ty {
            if f.ty.is_resource() {
                // An array of images or samplers: their handles, indexed next.
                return match base {
                    Val::P(p) => {
                        let pt = self.ptr_ty(p.sc, &f.ty, LayoutRule::None, false);
                        let idx = self.i32c(k as i32);
                        let ptr = self.f.access_chain(pt, p.ptr, &[idx]);
                        Some(Val::P(Place { ptr, ty: f.ty, ..p }))
                    }
                    other => {
                        let (v, _) = self.load_val(&other, span)?;
                        let t = self.ty(&f.ty);
                        let r = self.f.composite_extract(t, v, vec![k as u32]);
                        Some(Val::R(r, f.ty))
                    }
                };
            }
        }
        if f.ty.is_resource() {
            // A member holding a resource: its handle (images, samplers) or a pointer to it.
            let handle = self.held_as_handle(&f.ty);
            let held = if handle {
                self.ty(&f.ty)
            } else {
                self.held_pointer_type(&f.ty)
            };
            let idx = self.i32c(k as i32);
            return match base {
                Val::P(p) => {
                    let pt = self.f.type_pointer(p.sc, held);
                    let ptr = self.f.access_chain(pt, p.ptr, &[idx]);
                    Some(Val::Held(Place { ptr, ty: f.ty, ..p }))
                }
                other => {
                    let (v, _) = self.load_val(&other, span)?;
                    let r = self.f.composite_extract(held, v, vec![k as u32]);
                    if handle {
                        // A handle out of a value: through a variable, as resources are
                        // reached through pointers.
                        let tmp = self.local_place(&f.ty, "temp.var.resource");
                        self.f.store(tmp.ptr, r, None);
                        return Some(self.member_resource(tmp));
                    }
                    Some(self.resource_at(r, &f.ty))
                }
            };
        }
        match base {
            Val::P(p) => {
                let pt = self.ptr_ty(p.sc, &f.ty, p.layout, f.row_major);
                let idx = self.i32c(k as i32);
                let ptr = self.f.access_chain(pt, p.ptr, &[idx]);
                if f.relaxed || self.is_relaxed(p.ptr) {
                    self.mark_relaxed(ptr);
                }
                if let Some(depth) = f.row_depth {
                    self.row_matrices.insert(ptr, depth);
                }
                Some(Val::P(Place {
                    ptr,
                    ty: f.ty,
                    row_major: f.row_major,
                    ..p
                }))
            }
            other => {
                let (v, _) = self.load_val(&other, span)?;
                let t = self.ty(&f.ty);
                let r = self.f.composite_extract(t, v, vec![k as u32]);
                if f.relaxed {
                    self.relax(r);
                }
                if let Some(depth) = f.row_depth {
                    // Indexed as a 1xN matrix: through a temporary, as a variable.
                    let tmp = self.local_place(&f.ty, "temp.var.row");
                    self.f.store(tmp.ptr, r, None);
                    self.row_matrices.insert(tmp.ptr, depth);
                    return Some(Val::P(tmp));
                }
                Some(Val::R(r, f.ty))
            }
        }
    }

    /// `base[index]`.
    fn index(&mut self, base: Val, index: &Expr, span: Span) -> Option<Val> {
        if let Val::Res(r) = &base {
            return self.resource_index(r.clone(), index, span);
        }
        if let Val::Bundle(Ty::Array(elem, n), leaves) = &base {
            // An element of an array of structs of resources: their variables are split by
            // element, so the index must be known here.
            let (iv, _) = self.operand(index)?;
            let k = match self.const_of(iv) {
                Some(ConstVal::Int(k)) if (0..i64::from(*n)).contains(&k) => k as usize,
                Some(ConstVal::Int(k)) => {
                    self.st.error(
                        index.span,
                        format!("array index {k} is out of bounds (the array has {n} elements)"),
                    );
                    return None;
                }
                _ => {
                    self.st.error(
                        index.span,
                        "not supported yet: a non-constant index into a module-scope array of \
                         structs holding resources",
                    );
                    return None;
                }
            };
            let per = self.bundle_len(elem);
            let part = leaves.get(k * per..(k + 1) * per)?.to_vec();
            return Some(Val::Bundle((**elem).clone(), part));
        }
        if let Val::Mips(r, sample, level) = &base {
            return self.mips_index(r, *sample, *level, index);
        }
        if let Some(Ty::Array(elem, _)) = self.val_ty(&base) {
            if let Ty::Resource(..) = &*elem {
                // An element of an array of handles a struct holds: held in its element.
                let p = match base {
                    Val::P(p) => p,
                    Val::R(v, t) => {
                        let tmp = self.local_place(&t, "temp.var.resources");
                        self.f.store(tmp.ptr, v, None);
                        tmp
                    }
                    _ => return None,
                };
                let (iv, _) = self.operand(index)?;
                let pt = self.ptr_ty(p.sc, &elem, LayoutRule::None, false);
                let ptr = self.f.access_chain(pt, p.ptr, &[iv]);
                return Some(Val::Held(Place {
                    ptr,
                    ty: *elem,
                    ..p
                }));
            }
        }
        let bt = self.val_ty(&base)?;
        let (iv, it) = self.rvalue(index)?;
        let mut row_below = None;
        if let Val::P(p) = &base {
            let depth = match p.ptr {
                Value::Global(g) => self.st.row_globals.get(&g).copied(),
                ptr => self.row_matrices.get(&ptr).copied(),
            };
            row_below = depth.and_then(|d| d.checked_sub(1));
            if depth == Some(0) {
                // `m[i]` of a 1xN matrix is its only row: the whole (collapsed) vector (a new
                // pointer to it, so a second index selects a component).
                let pt = self.ptr_ty(p.sc, &p.ty, p.layout, p.row_major);
                let ptr = self.f.access_chain(pt, p.ptr, &[]);
                if self.is_relaxed(p.ptr) {
                    self.mark_relaxed(ptr);
                }
                return Some(Val::P(Place { ptr, ..p.clone() }));
            }
        }
        if !matches!(it, Ty::Scalar(_)) {
            self.st.error(
                index.span,
                format!("index must be an integer scalar, not '{}'", self.show(&it)),
            );
            return None;
        }
        let iv = match it {
            Ty::Scalar(s) if s.is_int() => iv,
            _ => self.convert(iv, &it, &Ty::Scalar(Scalar::Int), index.span)?,
        };
        let (elem, len) = match &bt {
            Ty::Array(e, n) => ((**e).clone(), *n),
            Ty::Vector(s, n) => (Ty::Scalar(*s), *n),
            Ty::Matrix(s, r, c) => (Ty::Vector(*s, *c), *r),
            Ty::Scalar(_) => return Some(base),
            _ => {
                self.st.error(
                    span,
                    format!(
                        "subscripted value of type '{}' is not an array, vector or matrix",
                        self.show(&bt)
                    ),
                );
                return None;
            }
        };
        let tail = match &base {
            Val::P(p) if self.st.unsized_globals.contains(&p.ptr) => true,
            Val::P(p) => self.tail_arrays.contains(&p.ptr),
            Val::R(r, _) => self.tail_arrays.contains(r),
            _ => false,
        };
        let mut past_end = false;
        if let Some(c) = self.const_of(iv).and_then(ConstVal::as_int) {
            if c >= i64::from(len) && tail {
                // Past the end of a one-element tail array: not checked, as clang (above).
                past_end = true;
            } else if c < 0 || c >= i64::from(len) {
                self.st.error(
                    index.span,
                    format!("index {c} is out of bounds (size {len})"),
                );
                return None;
            }
        }
        match base {
            Val::P(p) => {
                let pt = self.ptr_ty(p.sc, &elem, p.layout, p.row_major);
                let ptr = self.f.access_chain(pt, p.ptr, &[iv]);
                if self.is_relaxed(p.ptr) {
                    self.mark_relaxed(ptr);
                }
                if let Some(depth) = row_below {
                    self.row_matrices.insert(ptr, depth);
                }
                Some(Val::P(Place { ptr, ty: elem, ..p }))
            }
            other => {
                let (v, _) = self.load_val(&other, span)?;
                let et = self.ty(&elem);
                if let Some(c) = self
                    .const_of(iv)
                    .and_then(ConstVal::as_int)
                    .filter(|_| !past_end)
                {
                    return Some(Val::R(
                        self.f.composite_extract(et, v, vec![c as u32]),
                        elem,
                    ));
                }
                if let Ty::Vector(..) = bt {
                    return Some(Val::R(self.f.vector_extract_dynamic(et, v, iv), elem));
                }
                // A dynamic index into a value: through a temporary.
                let tmp = self.local_place(&bt, "temp.var.index");
                self.f.store(tmp.ptr, v, None);
                let pt = self.ptr_ty(StorageClass::Function, &elem, LayoutRule::None, false);
                let ptr = self.f.access_chain(pt, tmp.ptr, &[iv]);
                Some(Val::P(Place {
                    ptr,
                    ty: elem,
                    ..tmp
                }))
            }
        }
    }

    /// `T(args)`: a scalar, vector or matrix built from the components of its arguments.
    pub fn construct(&mut self, ty: &Ty, args: &[Expr], span: Span) -> Option<Val> {
        if let (Ty::Struct(_), [arg]) = (ty, args) {
            // `S(x)`: a functional cast, as `(S)x`.
            let (v, vt) = self.rvalue(arg)?;
            let r = self.aggregate_cast(v, &vt, ty, span)?;
            return Some(Val::R(r, ty.clone()));
        }
        let Some(s) = ty.component() else {
            self.st.error(
                span,
                format!("not supported yet: constructing '{}'", self.show(ty)),
            );
            return None;
        };
        let mut vals = Vec::new();
        for a in args {
            vals.push(self.rvalue(a)?);
        }
        if let [(v, t)] = vals.as_slice() {
            if matches!(t, Ty::Scalar(_)) || t.count() == ty.count() && t.with_component(s) == *ty {
                let v = self.convert(*v, t, ty, span)?;
                return Some(Val::R(v, ty.clone()));
            }
        }
        let mut comps = Vec::new();
        for (v, t) in &vals {
            if t.is_numeric() {
                self.scalars_of(*v, t, s, span, &mut comps)?;
                continue;
            }
            // A struct or array argument gives its scalars in order (`float2x2(1, 2, s)`).
            let mut leaves = Vec::new();
            self.flatten_value(*v, t, span, &mut leaves);
            for (x, xt, sp) in leaves {
                if !xt.is_numeric() {
                    self.st
                        .error(sp, format!("cannot take components of '{}'", self.show(t)));
                    return None;
                }
                self.scalars_of(x, &xt, s, sp, &mut comps)?;
            }
        }
        if comps.len() as u32 != ty.count() {
            self.st.error(
                span,
                format!(
                    "'{}' takes {} components, {} given",
                    self.show(ty),
                    ty.count(),
                    comps.len()
                ),
            );
            return None;
        }
        Some(Val::R(self.compose_scalars(ty, &comps), ty.clone()))
    }

    /// Appends the components of `v` converted to `s`.
    pub fn scalars_of(
        &mut self,
        v: Value,
        t: &Ty,
        s: Scalar,
        span: Span,
        out: &mut Vec<Value>,
    ) -> Option<()> {
        let Some(vs) = t.component() else {
            self.st.error(
                span,
                format!("cannot take components of '{}'", self.show(t)),
            );
            return None;
        };
        let et = self.ty(&Ty::Scalar(vs));
        match t {
            Ty::Scalar(_) => out.push(self.convert(v, t, &Ty::Scalar(s), span)?),
            Ty::Vector(_, n) => {
                for i in 0..*n {
                    let x = self.f.composite_extract(et, v, vec![i]);
                    out.push(self.convert(x, &Ty::Scalar(vs), &Ty::Scalar(s), span)?);
                }
            }
            Ty::Matrix(_, r, c) => {
                for i in 0..*r {
                    for j in 0..*c {
                        let x = self.f.composite_extract(et, v, vec![i, j]);
                        out.push(self.convert(x, &Ty::Scalar(vs), &Ty::Scalar(s), span)?);
                    }
                }
            }
            _ => return None,
        }
        Some(())
    }

    /// Builds a scalar, vector or matrix from its components in row order.
    pub fn compose_scalars(&mut self, ty: &Ty, comps: &[Value]) -> Value {
        match ty {
            Ty::Vector(..) => {
                let t = self.ty(ty);
                if comps.iter().all(|c| matches!(c, Value::Constant(_))) {
                    return Value::Constant(self.f.constant_composite(t, comps));
                }
                self.f.composite_construct(t, comps)
            }
            Ty::Matrix(s, _, c) => {
                let rt = Ty::Vector(*s, *c);
                let rows: Vec<Value> = comps
                    .chunks(*c as usize)
                    .map(|ch| self.compose_scalars(&rt, ch))
                    .collect();
                let t = self.ty(ty);
                self.f.composite_construct(t, &rows)
            }
            _ => comps
                .first()
                .copied()
                .unwrap_or(Value::Constant(self.f.constant_i32(0))),
        }
    }

    /// A call of a user function or an intrinsic.
    fn call(
        &mut self,
        site: ExprId,
        name: &str,
        name_span: Span,
        args: &[Expr],
        span: Span,
    ) -> Option<Val> {
        // `s(args)` on a struct variable: its `operator()`.
        if let Some(
            sym @ Sym::Var(Place {
                ty: Ty::Struct(_), ..
            }),
        ) = self.st.scopes.lookup(name).cloned()
        {
            let object = self.symbol(sym);
            let op = Ident {
                name: "operator()".into(),
                span: name_span,
            };
            return self.member_call(site, object, &op, args, span);
        }
        if let Some(cands) = self.st.functions.get(name).cloned() {
            return self.user_call(site, name, &cands, args, span);
        }
        if crate::hlsl::sema::intrinsics::lookup(name).is_some() {
            return self.intrinsic(name, args, span);
        }
        if name == "vk::ext_execution_mode" {
            // An execution mode of the entry point, with literal operands.
            let words: Option<Vec<u32>> = args
                .iter()
                .map(|e| {
                    self.st
                        .const_eval(e)
                        .and_then(crate::hlsl::sema::consteval::ConstVal::as_int)
                        .and_then(|v| u32::try_from(v).ok())
                })
                .collect();
            let mode = words
                .filter(|w| !w.is_empty())
                .map(|w| crate::hlsl::sema::attributes::literal_operands(&w));
            let Some(Ok(mode)) = mode else {
                self.st.error(
                    span,
                    "vk::ext_execution_mode: no execution mode of the SPIR-V grammar takes these \
                     constant operands (ids, vk::ext_execution_mode_id, are not supported yet)",
                );
                return None;
            };
            if !self.st.extra_modes.contains(&mode) {
                self.st.extra_modes.push(mode);
            }
            return Some(self.void_val());
        }
        if crate::hlsl::sema::intrinsics::is_out_of_scope(name) {
            self.st.error(
                name_span,
                format!("not supported yet: the intrinsic '{name}'"),
            );
        } else {
            self.st
                .error(name_span, format!("use of undeclared function '{name}'"));
        }
        None
    }

    /// Whether struct `i` (or a base) has a member function `name`.
    fn has_method(&self, mut i: usize, name: &str) -> bool {
        for _ in 0..32 {
            let Some(def) = self.st.types.structs.get(i) else {
                return false;
            };
            if self
                .st
                .functions
                .contains_key(&format!("{}.{name}", def.name))
            {
                return true;
            }
            match def.fields.first() {
                Some(f) if f.name == BASE_FIELD => {
                    let Ty::Struct(b) = f.ty else { return false };
                    i = b;
                }
                _ => return false,
            }
        }
        false
    }

    /// `object.method(args)` on a struct: the function `S.method` (of `S` or a base) with the
    /// object as `this`.
    fn member_call(
        &mut self,
        site: ExprId,
        mut object: Val,
        method: &Ident,
        args: &[Expr],
        span: Span,
    ) -> Option<Val> {
        for _ in 0..32 {
            let Some(Ty::Struct(i)) = self.val_ty(&object) else {
                return None;
            };
            let def = self.st.types.structs.get(i)?;
            // A `ConstantBuffer<S>` or push-constant block's copy of `S` has `S`'s methods.
            let owner = def.origin.as_ref().unwrap_or(&def.name);
            let fname = format!("{owner}.{}", method.name);
            let has_base = def.fields.first().is_some_and(|f| f.name == BASE_FIELD);
            let sname = def.name.clone();
            if let Some(cands) = self.st.functions.get(&fname).cloned() {
                let with_this: Vec<super::FuncSym> = cands
                    .iter()
                    .filter(|c| {
                        self.st
                            .param_names(c.item)
                            .first()
                            .is_some_and(|n| n == "this")
                    })
                    .cloned()
                    .collect();
                if with_this.is_empty() {
                    // A static method called through an object: the object is not used.
                    return self.user_call(site, &fname, &cands, args, span);
                }
                if let Val::R(v, t) = &object {
                    // A method of a temporary (`getS().inc()`): `this` points at a copy.
                    let ptr = self.local(t, "temp.var");
                    self.f.store(ptr, *v, None);
                    object = Val::P(Place {
                        ptr,
                        ty: t.clone(),
                        sc: StorageClass::Function,
                        layout: LayoutRule::None,
                        row_major: false,
                        konst: false,
                    });
                }
                let mut vals = vec![(object, span)];
                for a in args {
                    let v = self.expr(a);
                    if matches!(v, Val::Err) {
                        return None;
                    }
                    vals.push((v, a.span));
                }
                return self.call_values(site, &fname, &with_this, vals, span);
            }
            if !has_base {
                self.st.error(
                    method.span,
                    format!("no member function named '{}' in '{sname}'", method.name),
                );
                return None;
            }
            object = self.member(object, BASE_FIELD, span)?;
        }
        None
    }

    fn user_call(
        &mut self,
        site: ExprId,
        name: &str,
        cands: &[super::FuncSym],
        args: &[Expr],
        span: Span,
    ) -> Option<Val> {
        let mut vals = Vec::new();
        for a in args {
            let v = self.expr(a);
            if matches!(v, Val::Err) {
                return None;
            }
            vals.push((v, a.span));
        }
        self.call_values(site, name, cands, vals, span)
    }

    /// A call of a function that returns a resource: SPIR-V has no resource values, so the
    /// function's one `return r;` is evaluated here with the parameters bound to the arguments
    /// (what DXC's legalization makes of it by inlining); any other body is refused.
    fn resource_call(
        &mut self,
        fsym: &super::FuncSym,
        vals: Vec<(Val, Span)>,
        span: Span,
    ) -> Option<Val> {
        let decl = match self.st.unit.items.get(fsym.item) {
            Some(crate::hlsl::ast::Item::Function(d)) => d,
            _ => return None,
        };
        let bodies = self.st.bodies;
        let body = bodies.get(&fsym.item)?;
        if vals.len() < decl.params.len() {
            self.st.error(
                span,
                "not supported yet: default arguments of a function returning a resource",
            );
            return None;
        }
        // The arguments first, in the caller's scopes; then the body sees only module-scope
        // names and the parameters.
        let mut syms = Vec::new();
        for ((p, (pt, dir)), (v, a_span)) in decl.params.iter().zip(&fsym.params).zip(vals) {
            let Some(n) = &p.name else { continue };
            let sym = match (pt, v) {
                (Ty::Resource(..), Val::Res(r)) => Sym::Resource(r),
                (Ty::Resource(..), _) => {
                    self.st
                        .error(a_span, "a resource argument must name a resource");
                    return None;
                }
                (_, v) if *dir == ParamDir::In => {
                    let (x, xt) = self.load_val(&v, a_span)?;
                    let x = self.convert(x, &xt, pt, a_span)?;
                    // A constant argument is a constant in the body (so that it may choose
                    // the `return`).
                    match (pt, self.const_of(x)) {
                        (Ty::Scalar(_), Some(c)) => Sym::Const(c, pt.clone()),
                        _ => {
                            let place = self.local_place(pt, &format!("param.var.{}", n.name));
                            self.f.store(place.ptr, x, None);
                            Sym::Var(place)
                        }
                    }
                }
                _ => {
                    self.st.error(
                        a_span,
                        "not supported yet: out or inout parameters of a function returning a \
                         resource",
                    );
                    return None;
                }
            };
            syms.push((n.name.clone(), sym));
        }
        let saved = self.st.scopes.set_aside();
        for (n, sym) in syms {
            self.st.scopes.declare(&n, sym);
        }
        let Ok(Some(ret)) = self.chosen_return(&body.stmts) else {
            self.st.scopes.restore(saved);
            self.st.error(
                span,
                "not supported yet: a function returning a resource other than through \
                 `return` statements chosen by conditions constant at the call",
            );
            return None;
        };
        let r = self.expr(ret);
        self.st.scopes.restore(saved);
        match r {
            Val::Res(res) => Some(Val::Res(res)),
            Val::Err => None,
            _ => {
                self.st.error(
                    ret.span,
                    "not supported yet: returning this expression as a resource",
                );
                None
            }
        }
    }

    /// The `return` a body of `if`s and `return`s reaches, its conditions folded with the
    /// constants in scope (the call's constant arguments): `Ok(Some(e))` for the return,
    /// `Ok(None)` when the statements end without one, `Err` when a condition is not constant
    /// or a statement is anything else.
    fn chosen_return<'e>(
        &self,
        stmts: &[crate::hlsl::hir::Stmt<'e>],
    ) -> Result<Option<&'e Expr>, ()> {
        use crate::hlsl::hir::Stmt;
        for s in stmts {
            let found = match s {
                Stmt::Return(Some(e)) => Some(*e),
                Stmt::If {
                    cond,
                    then,
                    otherwise,
                    ..
                } => {
                    let taken = match self.st.const_eval(cond).ok_or(())? {
                        ConstVal::Bool(b) => b,
                        ConstVal::Int(i) => i != 0,
                        ConstVal::Float(f) => f != 0.0,
                    };
                    match if taken {
                        Some(&**then)
                    } else {
                        otherwise.as_deref()
                    } {
                        Some(b) => self.chosen_return(std::slice::from_ref(b))?,
                        None => None,
                    }
                }
                Stmt::Block(inner) => self.chosen_return(inner)?,
                _ => return Err(()),
            };
            if found.is_some() {
                return Ok(found);
            }
        }
        Ok(None)
    }

    /// Calls the best of `cands` with arguments already evaluated (with their spans).
    fn call_values(
        &mut self,
        site: ExprId,
        name: &str,
        cands: &[super::FuncSym],
        vals: Vec<(Val, Span)>,
        span: Span,
    ) -> Option<Val> {
        let nargs = vals.len();
        // Semantic analysis chose the overload (it resolves every call it reaches).
        let chosen = self
            .st
            .callees
            .get(&site)
            .and_then(|item| cands.iter().find(|c| c.item == *item));
        let Some(fsym) = chosen.cloned() else {
            let msg = format!("internal: semantic analysis chose no overload of '{name}' here");
            self.st.error(span, msg);
            return None;
        };
        if let Some((opcode, at)) = fsym.inline_op {
            return self.inline_spirv(name, &fsym, opcode, at, vals, span);
        }
        if let Ty::Resource(..) = fsym.ret {
            return self.resource_call(&fsym, vals, span);
        }
        // A function with buffer parameters is called as its instance for the buffers passed
        // (`decls::plan_instances`), which takes the other arguments only.
        let buffers: Vec<usize> = (0..fsym.params.len().min(vals.len()))
            .filter(|&k| super::decls::is_buffer(&fsym.params[k].0))
            .collect();
        let instance = if buffers.is_empty() {
            None
        } else {
            let mut key = Vec::new();
            for &k in &buffers {
                let sym = match &vals[k].0 {
                    Val::Res(r) => Some(Sym::Resource(r.clone())),
                    Val::P(p) => Some(Sym::Var(p.clone())),
                    _ => None,
                };
                match sym.and_then(|s| super::decls::bound_variable(self.st, &fsym.params[k].0, &s))
                {
                    Some(g) => key.push(g),
                    None => {
                        key.clear();
                        break;
                    }
                }
            }
            let found = self
                .st
                .instances
                .get(&(fsym.item, key))
                .and_then(|(_, h)| *h);
            if found.is_none() {
                self.st.error(
                    span,
                    "not supported yet: a buffer argument other than a module-scope buffer \
                     named directly (or a parameter standing for one)",
                );
                return None;
            }
            found
        };
        let Some(handle) = instance.or(fsym.handle) else {
            if fsym.failed {
                return None;
            }
            self.st
                .error(span, format!("'{name}' is declared but not defined"));
            return None;
        };
        let pnames = self.st.param_names(fsym.item);
        let mut ptrs = Vec::new();
        let mut copies = Vec::new();
        for (k, ((pt, dir), (v, a_span))) in fsym.params.iter().zip(vals.iter()).enumerate() {
            let a_span = *a_span;
            if instance.is_some() && buffers.contains(&k) {
                continue;
            }
            if pt.is_ray_query() {
                // A ray query passes by reference, as DXC: the caller's variable itself.
                let Val::P(place) = v else {
                    self.st
                        .internal(a_span, "a ray query argument that is not a variable");
                    return None;
                };
                ptrs.push(place.ptr);
                continue;
            }
            if let Ty::Resource(..) = pt {
                // An image or sampler passes as its pointer: its variable, an element of an
                // array of them, or the caller's own parameter.
                let Val::Res(r) = v else {
                    self.st
                        .error(a_span, "a resource argument must name a resource");
                    return None;
                };
                if r.array.is_some() {
                    self.st.error(
                        a_span,
                        "not supported yet: an array of resources as an argument",
                    );
                    return None;
                }
                ptrs.push(r.ptr);
                continue;
            }
            let pname = format!("param.var.{}", pnames.get(k).map_or("", |s| s.as_str()));
            let tmp = self.local(pt, &pname);
            let relaxed = fsym.relaxed_params.get(k).copied().unwrap_or(false);
            if relaxed {
                self.relax(tmp);
            }
            if *dir != ParamDir::Out {
                let (x, xt) = self.load_val(v, a_span)?;
                let x0 = x;
                let x = self.convert(x, &xt, pt, a_span)?;
                if relaxed && x != x0 {
                    self.relax(x);
                }
                self.f.store(tmp, x, None);
            }
            if *dir != ParamDir::In {
                if !matches!(
                    v,
                    Val::P(_) | Val::Swz(..) | Val::Texel(..) | Val::Elems(..) | Val::Bits(..)
                ) {
                    self.st
                        .error(a_span, "an out or inout argument must be an lvalue");
                    return None;
                }
                copies.push((tmp, pt.clone(), v.clone(), a_span));
            }
            ptrs.push(tmp);
        }
        // Parameters left out take their default values.
        let unit = self.st.unit;
        let defaults: Vec<Option<&Expr>> = match unit.items.get(fsym.item) {
            Some(crate::hlsl::ast::Item::Function(d)) => d
                .params
                .iter()
                .skip(nargs)
                .map(|p| p.default.as_ref())
                .collect(),
            _ => Vec::new(),
        };
        for (k, (pt, _)) in fsym.params.iter().enumerate().skip(nargs) {
            let Some(Some(e)) = defaults.get(k - nargs) else {
                return None;
            };
            let v = self.rvalue_as(e, pt)?;
            let pname = format!("param.var.{}", pnames.get(k).map_or("", |s| s.as_str()));
            let tmp = self.local(pt, &pname);
            self.f.store(tmp, v, None);
            ptrs.push(tmp);
        }
        let rt = self.ty(&fsym.ret);
        let r = self.f.function_call(rt, Value::Function(handle), &ptrs);
        if fsym.relaxed_ret {
            self.relax(r);
        }
        for (tmp, t, dst, sp) in copies {
            let it = self.ty(&t);
            let x = self.f.load(it, tmp, None);
            self.assign(&dst, x, &t, sp);
        }
        Some(Val::R(r, fsym.ret.clone()))
    }

    /// Pushes the instruction `opcode` with result type `rt`, a fresh result and the id
    /// `operands`, decoded through the grammar: the instruction stays typed whatever name this
    /// grammar gives it (`OpGroupNonUniformPartitionNV` is `...EXT` in newer ones). `None`
    /// when the operands do not decode as that instruction's.
    pub(crate) fn push_by_opcode(
        &mut self,
        opcode: u16,
        rt: crate::ir::Handle<crate::ir::Type>,
        operands: &[Value],
    ) -> Option<Value> {
        let mut words = vec![Value::Type(rt).to_id().0, self.f.next_result_id().0];
        for v in operands {
            words.push(v.try_to_id()?.0);
        }
        let tracker = crate::binary::TypeTracker::new(0);
        let mut r = crate::binary::OperandReader::new(&words, 0, u32::MAX, &tracker);
        let inst = crate::binary::decode_operands(opcode, &mut r)
            .and_then(|i| r.finish().map(|()| i))
            .ok()?;
        if matches!(inst, crate::grammar::Instruction::Unknown(_)) {
            return None;
        }
        Some(Value::Op(self.f.push(inst)))
    }

    /// A call of an inline SPIR-V function (`[[vk::ext_instruction(opcode)]] R f(A a, ...)`):
    /// the instruction `opcode` with the call's return type as result type, a fresh result and
    /// the arguments (converted to the parameter types) as operands. It is built as words and
    /// decoded through the grammar, so only an instruction the grammar knows whose operands
    /// are a result type, a result and ids is accepted.
    fn inline_spirv(
        &mut self,
        name: &str,
        fsym: &super::FuncSym,
        opcode: u32,
        at: Span,
        vals: Vec<(Val, Span)>,
        span: Span,
    ) -> Option<Val> {
        use crate::grammar::{KindClass, Quantifier};
        let Some(desc) = u16::try_from(opcode)
            .ok()
            .and_then(crate::grammar::tables::core_instruction)
        else {
            self.st.error(
                at,
                format!("[[vk::ext_instruction({opcode})]]: no SPIR-V instruction has the opcode {opcode}"),
            );
            return None;
        };
        let ops = desc.operands;
        // `[[vk::ext_literal]]` parameters give their constant value as the operand's word.
        let literal: Vec<bool> = match self.st.unit.items.get(fsym.item) {
            Some(crate::hlsl::ast::Item::Function(d)) => d
                .params
                .iter()
                .map(|p| {
                    p.attributes.iter().any(|a| {
                        a.name.name == "ext_literal"
                            && a.namespace.as_ref().is_some_and(|n| n.name == "vk")
                    })
                })
                .collect(),
            _ => Vec::new(),
        };
        let shape = ops.len() >= 2
            && ops[0].kind.class == KindClass::ResultType
            && ops[1].kind.class == KindClass::Result
            && ops[2..].iter().enumerate().all(|(k, o)| {
                (o.kind.class == KindClass::Id) != literal.get(k).copied().unwrap_or(false)
            });
        let fixed = ops[2.min(ops.len())..]
            .iter()
            .filter(|o| o.quantifier == Quantifier::One)
            .count();
        let variadic = ops.iter().any(|o| o.quantifier != Quantifier::One);
        if !shape || fsym.ret == Ty::Void || variadic {
            self.st.error(
                at,
                format!(
                    "not supported yet: [[vk::ext_instruction]] with {} (only instructions with a result type, a result and a fixed number of operands, each an id or, for a [[vk::ext_literal]] parameter, one literal word)",
                    desc.name
                ),
            );
            return None;
        }
        if fsym.params.len() != fixed || vals.len() != fixed {
            self.st.error(
                span,
                format!(
                    "'{name}' declares {} operands but {} takes {fixed}",
                    fsym.params.len(),
                    desc.name
                ),
            );
            return None;
        }
        let mut operands = Vec::new();
        for (k, ((pt, dir), (v, a_span))) in fsym.params.iter().zip(vals.iter()).enumerate() {
            if *dir != ParamDir::In || pt.is_resource() {
                self.st.error(
                    *a_span,
                    "not supported yet: out, inout or resource operands of inline SPIR-V",
                );
                return None;
            }
            let (x, xt) = self.load_val(v, *a_span)?;
            let x = self.convert(x, &xt, pt, *a_span)?;
            if literal.get(k).copied().unwrap_or(false) {
                let word = match self.const_of(x) {
                    Some(ConstVal::Int(i)) => u32::try_from(i)
                        .ok()
                        .or(i32::try_from(i).ok().map(|i| i as u32)),
                    Some(ConstVal::Bool(b)) => Some(u32::from(b)),
                    _ => None,
                };
                let Some(word) = word else {
                    self.st.error(
                        *a_span,
                        "a [[vk::ext_literal]] operand must be a 32-bit integer constant",
                    );
                    return None;
                };
                operands.push(Err(word));
            } else {
                operands.push(Ok(x));
            }
        }
        let rt = self.ty(&fsym.ret);
        let mut words = vec![
            crate::ir::Value::Type(rt).to_id().0,
            self.f.next_result_id().0,
        ];
        for v in &operands {
            let v = match v {
                Ok(v) => v,
                Err(word) => {
                    words.push(*word);
                    continue;
                }
            };
            match v.try_to_id() {
                Some(id) => words.push(id.0),
                None => {
                    self.st
                        .error(span, "inline SPIR-V: too many values in the function");
                    return None;
                }
            }
        }
        let tracker = crate::binary::TypeTracker::new(0);
        let mut r = crate::binary::OperandReader::new(&words, 0, u32::MAX, &tracker);
        let inst = crate::binary::decode_operands(desc.opcode as u16, &mut r)
            .and_then(|i| r.finish().map(|()| i));
        match inst {
            Ok(crate::grammar::Instruction::Unknown(_)) | Err(_) => {
                self.st.error(
                    at,
                    format!(
                        "[[vk::ext_instruction({opcode})]]: the operands of {} do not decode",
                        desc.name
                    ),
                );
                None
            }
            Ok(inst) => {
                let h = self.f.push(inst);
                Some(Val::R(crate::ir::Value::Op(h), fsym.ret.clone()))
            }
        }
    }

    /// `buf[i]`, `tex[uv]`.
    pub(super) fn resource_index(
        &mut self,
        r: super::Resource,
        index: &Expr,
        span: Span,
    ) -> Option<Val> {
        if let Some(n) = r.array {
            // `textures[i]`: one resource of an array of them.
            let i = self.rvalue_as(index, &Ty::Scalar(Scalar::UInt))?;
            if let Some(ConstVal::Int(k)) = self.const_of(i) {
                if k < 0 || (n > 0 && k >= i64::from(n)) {
                    self.st
                        .error(index.span, format!("index {k} is out of bounds (size {n})"));
                    return None;
                }
            }
            let rt = Ty::Resource(r.kind, Box::new(r.elem.clone()));
            let pt = self.ptr_ty(r.sc, &rt, LayoutRule::None, false);
            let ptr = self.f.access_chain(pt, r.ptr, &[i]);
            // An array of buffers with counters has an array of counters: the element's.
            let counter = r.counter.map(|c| {
                let ct = self.st.counter_type.map(|t| self.f.type_pointer(r.sc, t));
                match ct {
                    Some(ct) => self.f.access_chain(ct, c, &[i]),
                    None => c,
                }
            });
            return Some(Val::Res(super::Resource {
                ptr,
                counter,
                array: None,
                ..r
            }));
        }
        match r.kind {
            ResourceKind::StructuredBuffer { flavor, .. } if flavor != SbFlavor::Plain => {
                self.st.error(
                    span,
                    "an Append/ConsumeStructuredBuffer is not indexed: Append and Consume \
                     reach its elements",
                );
                None
            }
            ResourceKind::StructuredBuffer { rw, row_major, .. } => {
                let i = self.rvalue_as(index, &Ty::Scalar(Scalar::UInt))?;
                let rm = row_major;
                let pt = self.ptr_ty(r.sc, &r.elem, self.st.sbuffer_rule(), rm);
                let zero = self.i32c(0);
                let ptr = self.f.access_chain(pt, r.ptr, &[zero, i]);
                Some(Val::P(Place {
                    ptr,
                    ty: r.elem.clone(),
                    sc: r.sc,
                    layout: self.st.sbuffer_rule(),
                    row_major: rm,
                    konst: !rw,
                }))
            }
            ResourceKind::TexelBuffer { .. } => {
                let i = self.rvalue_as(index, &Ty::Scalar(Scalar::Int))?;
                Some(Val::Texel(r, i))
            }
            ResourceKind::Texture {
                dim, ms, arrayed, ..
            } => {
                if dim == crate::hlsl::sema::types::TexDim::Cube {
                    self.st.error(span, "a cube texture cannot be indexed");
                    return None;
                }
                if ms && arrayed {
                    // HLSL has no operator[] for Texture2DMSArray.
                    self.st
                        .error(span, "a Texture2DMSArray cannot be indexed (use Load)");
                    return None;
                }
                let n = super::textures::Shape::of(r.kind)?.coords();
                let i = self.rvalue_as(index, &Ty::vector(Scalar::Int, n))?;
                Some(Val::Texel(r, i))
            }
            _ => {
                self.st.error(span, "this resource cannot be indexed");
                None
            }
        }
    }
}
