//! Statements and structured control flow: blocks and scopes, local declarations, if/else,
//! for/while/do-while loops (header, condition, body, continue and merge blocks), switch
//! (OpSwitch with fallthrough), break/continue/return/discard, and the loop and selection
//! control attributes.

use super::func::{FnCx, Jump};
use super::{Place, Sym, Val};
use crate::grammar::{LiteralNumber, LoopControl, SelectionControl, StorageClass};
use crate::hlsl::ast::{Declarator, Expr, Initializer};
use crate::hlsl::hir::{Case, Local, LocalKind, Stmt};
use crate::hlsl::sema::consteval::ConstVal;
use crate::hlsl::sema::layout::LayoutRule;
use crate::hlsl::sema::types::{ResourceKind, Scalar, Ty};
use crate::hlsl::source::Span;
use crate::ir::{Successor, Terminator, Value};

impl FnCx<'_, '_> {
    /// Emits statements in a scope of their own.
    fn block(&mut self, stmts: &[Stmt]) {
        self.st.scopes.push();
        for s in stmts {
            self.stmt(s);
        }
        self.st.scopes.pop();
    }

    /// Emits a statement.
    pub fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Block(b) => self.block(b),
            Stmt::Expr(e) => {
                if !self.rebind_resource(e) {
                    let _ = self.expr(e);
                }
            }
            Stmt::Locals(locals) => {
                for l in locals {
                    self.declare_local(l);
                }
            }
            Stmt::If {
                cond,
                then,
                otherwise,
                control,
            } => self.if_stmt(*control, cond, then, otherwise.as_deref()),
            Stmt::Loop {
                cond,
                step,
                body,
                do_while,
                control,
            } => self.loop_stmt(*control, *cond, *step, body, *do_while),
            Stmt::Switch {
                selector,
                cases,
                control,
            } => self.switch_stmt(*control, selector, cases),
            Stmt::Break => {
                if let Some(Jump::Loop { merge, .. } | Jump::Switch { merge }) = self.jumps.last() {
                    let m = *merge;
                    self.live();
                    self.branch_to(m);
                }
            }
            Stmt::Continue => {
                let target = self.jumps.iter().rev().find_map(|j| match j {
                    Jump::Loop { cont, .. } => Some(*cont),
                    Jump::Switch { .. } => None,
                });
                if let Some(c) = target {
                    self.live();
                    self.branch_to(c);
                }
            }
            Stmt::Return(value) => {
                self.live();
                match (value, self.ret.clone()) {
                    (None, _) => self.f.ret(),
                    (Some(e), Ty::Void) => {
                        // `return f();` with a void `f` is allowed, as in C++.
                        let v = self.expr(e);
                        match self.val_ty(&v) {
                            Some(Ty::Void) => self.f.ret(),
                            Some(_) => self
                                .st
                                .error(e.span, "a void function cannot return a value"),
                            None => {}
                        }
                    }
                    (Some(e), rt) => {
                        if let Some(v) = self.rvalue_as(e, &rt) {
                            self.f.ret_value(v);
                        }
                    }
                }
                self.terminated = true;
            }
            Stmt::Discard => {
                self.live();
                self.f.terminate(Terminator::Kill);
                self.terminated = true;
            }
        }
    }

    /// Declares a local variable.
    fn declare_local(&mut self, l: &Local) {
        let decl = l.declarator;
        match &l.kind {
            LocalKind::Var {
                ty,
                konst,
                relaxed,
                row_depth,
                shape,
                value,
                elements,
            } => {
                self.live();
                let ptr = self.local(ty, &decl.name.name);
                for d in &l.decorations {
                    self.f.decorate(ptr, d.clone());
                }
                if matches!(ty, Ty::Struct(i) if self.st.types.resource_structs.contains(i)) {
                    // Vulkan has no such variable: legalization must make every use of its
                    // resources read one resource.
                    self.st.needs_legalization(
                        decl.name.span,
                        Some(&decl.name.name),
                        format!(
                            "a resource held in '{}' does not name one resource wherever it \
                             is used (legalization could not resolve it: a condition that is \
                             not constant chooses it)",
                            decl.name.name
                        ),
                    );
                }
                if let Some(depth) = row_depth {
                    self.row_matrices.insert(ptr, *depth);
                }
                if *relaxed {
                    self.relax(ptr);
                }
                let place = Place {
                    ptr,
                    ty: ty.clone(),
                    sc: StorageClass::Function,
                    layout: LayoutRule::None,
                    row_major: false,
                    konst: *konst,
                };
                // The name is in scope in its own initializer, as in C++ (`float2x2 b =
                // float2x2(1, b._m00, ...)` reads the new, uninitialized `b`).
                self.st.scopes.declare(&decl.name.name, Sym::Var(place));
                if let Some(elems) = elements {
                    self.st.const_arrays.insert(ptr, elems.clone());
                }
                if let Some(c) = value {
                    self.st.const_locals.insert(ptr, *c);
                }
                if let Some(init) = &decl.init {
                    if let Some(v) = self.initializer_shaped(init, ty, *shape) {
                        self.f.store(ptr, v, None);
                    }
                }
            }
            LocalKind::Refused => {
                self.st.scopes.declare(&decl.name.name, Sym::Refused);
            }
            LocalKind::Static { ty, konst } => self.static_local(decl, ty, *konst),
            LocalKind::Auto { konst } => self.auto_local(decl, *konst),
            LocalKind::ResourceAlias {
                ty,
                is_static,
                from_heap,
            } => self.resource_alias(decl, ty, *is_static, from_heap.as_deref()),
            LocalKind::ResourceVar { ty } => self.resource_var(decl, ty),
        }
    }

    /// A local resource variable held in memory: a Function variable of a pointer to the
    /// resource (`None` for a type that is no single resource).
    fn resource_var(&mut self, decl: &Declarator, ty: &Ty) {
        self.live();
        let Ty::Resource(kind, _) = ty else {
            self.st.scopes.declare(&decl.name.name, Sym::Refused);
            return;
        };
        let sc = super::decls::resource_class(self.st, *kind);
        let pointee = self.ty(ty);
        let held = self.f.type_pointer(sc, pointee);
        let ptr_ty = self.f.type_pointer(StorageClass::Function, held);
        let cur = self.f.current_block();
        self.f.switch_to(self.vars);
        let var = self.f.variable(ptr_ty, StorageClass::Function, None);
        self.f.switch_to(cur);
        self.f.name(var, &decl.name.name);
        self.resource_locals
            .insert(decl.name.name.clone(), ty.clone());
        self.st.scopes.declare(
            &decl.name.name,
            Sym::ResourceVar {
                var,
                ty: ty.clone(),
            },
        );
        // Vulkan has no such variable: legalization must make every use read one resource.
        self.st.needs_legalization(
            decl.name.span,
            Some(&decl.name.name),
            format!(
                "the resource variable '{}' does not name one resource wherever it is used \
                 (legalization could not resolve it: a condition that is not constant \
                 chooses its value)",
                decl.name.name
            ),
        );
        if let Some(Initializer::Expr(init)) = &decl.init {
            self.store_resource(var, init, ty);
        }
    }

    /// Stores the resource `init` (of type `ty`) into the resource variable `var`.
    fn store_resource(&mut self, var: Value, init: &Expr, ty: &Ty) {
        let resource = match self.expr(init) {
            super::Val::Res(r) => r,
            super::Val::Err => return,
            _ => {
                self.st
                    .error(init.span, "a resource variable needs a resource");
                return;
            }
        };
        let Ty::Resource(kind, elem) = ty else { return };
        if resource.kind != *kind || resource.elem != **elem || resource.array.is_some() {
            self.st.error(
                init.span,
                format!(
                    "cannot assign a '{}' to a '{}'",
                    self.show(&Ty::Resource(
                        resource.kind,
                        Box::new(resource.elem.clone())
                    )),
                    self.show(ty)
                ),
            );
            return;
        }
        if resource.counter.is_some() {
            self.st.error(
                init.span,
                "not supported yet: a buffer with a counter in a local resource variable \
                 assigned in a nested block or again",
            );
            return;
        }
        self.f.store(var, resource.ptr, None);
    }

    /// A local resource variable: a name for the resource its initializer names (for
    /// `Heap[i]`, element `i` of the heap's view `from_heap`).
    fn resource_alias(
        &mut self,
        decl: &Declarator,
        ty: &Ty,
        is_static: bool,
        from_heap: Option<&str>,
    ) {
        self.resource_locals
            .insert(decl.name.name.clone(), ty.clone());
        let Some(Initializer::Expr(init)) = &decl.init else {
            // Assigned by a later statement of its block (`sema::body` checked).
            self.st.scopes.declare(&decl.name.name, Sym::UnsetResource);
            return;
        };
        self.bind_resource(&decl.name.name, init, ty, is_static, from_heap);
    }

    /// `x = r;` for a local resource variable `x`: `x` names `r` from here on (in the
    /// declaring block, as `sema::body` allows it). False when `e` is not such a statement.
    fn rebind_resource(&mut self, e: &Expr) -> bool {
        let crate::hlsl::ast::ExprKind::Assign { op: None, lhs, rhs } = &e.kind else {
            return false;
        };
        let crate::hlsl::ast::ExprKind::Ident(id) = &lhs.kind else {
            return false;
        };
        let Some(ty) = self.resource_locals.get(&id.name).cloned() else {
            return false;
        };
        if let Some(Sym::ResourceVar { var, .. }) = self.st.scopes.lookup(&id.name).cloned() {
            self.live();
            self.store_resource(var, rhs, &ty);
            return true;
        }
        if !matches!(
            self.st.scopes.lookup(&id.name),
            Some(Sym::Resource(_) | Sym::UnsetResource | Sym::Var(Place { konst: true, .. }))
        ) {
            return false;
        }
        self.live();
        self.bind_resource(&id.name, rhs, &ty, false, None);
        true
    }

    /// Names `init` (a resource, or element `i` of the heap view `from_heap`) `name`.
    fn bind_resource(
        &mut self,
        name: &str,
        init: &Expr,
        ty: &Ty,
        is_static: bool,
        from_heap: Option<&str>,
    ) {
        let element = match (from_heap, &init.kind) {
            (Some(view), crate::hlsl::ast::ExprKind::Index { index, .. }) => {
                let Some(Sym::Resource(heap)) = self.st.scopes.lookup(view).cloned() else {
                    self.st.scopes.declare(name, Sym::Refused);
                    return;
                };
                self.resource_index(heap, index, init.span)
                    .unwrap_or(super::Val::Err)
            }
            _ => self.expr(init),
        };
        // Until bound below: a refused binding is reported once, not at every use.
        self.st.scopes.declare(name, Sym::Refused);
        let resource = match element {
            super::Val::Res(r) => r,
            super::Val::Err => return,
            // `ConstantBuffer<S> local = cb;`: a second name for the block `cb` (one of the
            // same `S`, which a block's copy of `S` records as its origin).
            super::Val::P(place)
                if matches!(
                    ty,
                    Ty::Resource(
                        ResourceKind::ConstantBuffer | ResourceKind::TextureBuffer,
                        _
                    )
                ) =>
            {
                let (Ty::Resource(_, elem), Ty::Struct(got)) = (ty, &place.ty) else {
                    self.st
                        .error(init.span, "a resource variable needs a resource");
                    return;
                };
                let origin = self
                    .st
                    .types
                    .structs
                    .get(*got)
                    .and_then(|d| d.origin.clone());
                let want = match &**elem {
                    Ty::Struct(i) => self.st.types.structs.get(*i).map(|d| d.name.clone()),
                    _ => None,
                };
                match (&origin, place.konst) {
                    (Some(o), true) if origin == want => {}
                    (Some(o), true) => {
                        let buffer = match ty {
                            Ty::Resource(ResourceKind::TextureBuffer, _) => "TextureBuffer",
                            _ => "ConstantBuffer",
                        };
                        let msg = format!(
                            "cannot initialize a '{buffer}<{}>' with a buffer of '{o}'",
                            want.as_deref().unwrap_or("?")
                        );
                        self.st.error(init.span, msg);
                        return;
                    }
                    _ => {
                        self.st
                            .error(init.span, "a resource variable needs a resource");
                        return;
                    }
                }
                if is_static && !matches!(place.ptr, Value::Global(_)) {
                    self.st.error(
                        init.span,
                        "not supported yet: a static local resource that is not a module-scope \
                         one",
                    );
                    return;
                }
                self.st.scopes.declare(name, Sym::Var(place));
                return;
            }
            _ => {
                self.st
                    .error(init.span, "a resource variable needs a resource");
                return;
            }
        };
        // `R l[n] = g;`: a name for the whole array `g`.
        if let Ty::Array(inner, n) = ty {
            match &**inner {
                Ty::Resource(kind, elem)
                    if resource.kind == *kind
                        && resource.elem == **elem
                        && resource.array == Some(*n) =>
                {
                    self.st.scopes.declare(name, Sym::Resource(resource));
                }
                _ => self.st.error(
                    init.span,
                    format!("cannot initialize a '{}' with this array", self.show(ty)),
                ),
            }
            return;
        }
        let Ty::Resource(kind, elem) = ty else { return };
        if is_static && !matches!(resource.ptr, Value::Global(_)) {
            self.st.error(
                init.span,
                "not supported yet: a static local resource that is not a module-scope one",
            );
            return;
        }
        if resource.kind != *kind || resource.elem != **elem || resource.array.is_some() {
            self.st.error(
                init.span,
                format!(
                    "cannot initialize a '{}' with a '{}'",
                    self.show(ty),
                    self.show(&Ty::Resource(
                        resource.kind,
                        Box::new(resource.elem.clone())
                    ))
                ),
            );
            return;
        }
        self.st.scopes.declare(name, Sym::Resource(resource));
    }

    /// HLSL 202x's `auto x = e;`: a local of the type of `e` (minimum precision when `e` is).
    fn auto_local(&mut self, decl: &Declarator, konst: bool) {
        self.live();
        let Some(Initializer::Expr(init)) = &decl.init else {
            return;
        };
        let Some((v, ty)) = self.rvalue(init) else {
            return;
        };
        if ty == Ty::Void || ty.is_resource() {
            self.st.error(
                init.span,
                format!("not supported yet: 'auto' deducing '{}'", self.show(&ty)),
            );
            return;
        }
        let relaxed = self.is_relaxed(v);
        let ptr = self.local(&ty, &decl.name.name);
        if relaxed {
            self.relax(ptr);
        }
        self.f.store(ptr, v, None);
        let place = Place {
            ptr,
            ty,
            sc: StorageClass::Function,
            layout: LayoutRule::None,
            row_major: false,
            konst,
        };
        self.st.scopes.declare(&decl.name.name, Sym::Var(place));
    }

    /// A `static` local: a Private variable initialized once. A constant initializer (or none:
    /// zero) becomes the variable's; any other runs the first time control reaches the
    /// declaration, guarded by a Private `init.done` flag, as DXC does.
    fn static_local(&mut self, decl: &Declarator, ty: &Ty, konst: bool) {
        self.live();
        let t = self.ty(ty);
        let p = self.f.type_pointer(StorageClass::Private, t);
        let (init, guarded) = match &decl.init {
            None => (Some(Value::Constant(self.f.constant_null(t))), None),
            Some(i) => {
                // Evaluate into a block of its own; keep it only if the value is not a
                // constant.
                let outer = self.f.current_block();
                let first = self.f.block();
                self.f.switch_to(first);
                let v = self.initializer(i, ty);
                let last = self.f.current_block();
                match v {
                    Some(v @ Value::Constant(_)) if last == first => {
                        self.f.switch_to(outer);
                        if self.f.discard_block(first) {
                            (Some(v), None)
                        } else {
                            self.f.switch_to(first);
                            (None, Some((outer, first, v)))
                        }
                    }
                    Some(v) => (None, Some((outer, first, v))),
                    None => {
                        self.f.switch_to(outer);
                        return;
                    }
                }
            }
        };
        let init = match init {
            Some(v) => v,
            None => Value::Constant(self.f.constant_null(t)),
        };
        let g = self.f.global(crate::ir::GlobalVariable {
            name: Some(decl.name.name.clone()),
            initializer: Some(init),
            ..crate::ir::GlobalVariable::new(p, StorageClass::Private)
        });
        if let Some((outer, first, v)) = guarded {
            self.guard_once(g, v, outer, first, &decl.name.name);
        }
        let place = Place {
            ptr: Value::Global(g),
            ty: ty.clone(),
            sc: StorageClass::Private,
            layout: LayoutRule::None,
            row_major: false,
            konst,
        };
        self.st.scopes.declare(&decl.name.name, Sym::Var(place));
    }

    /// Finishes a guarded static-local initialization: the initializer's code runs from
    /// `first` and has computed `v` in the current block; `outer` branches there only while a
    /// fresh Private flag is false.
    fn guard_once(
        &mut self,
        var: crate::ir::Handle<crate::ir::GlobalVariable>,
        v: Value,
        outer: crate::ir::Handle<crate::ir::Block>,
        first: crate::ir::Handle<crate::ir::Block>,
        name: &str,
    ) {
        let bool_t = self.f.type_bool();
        let flag_p = self.f.type_pointer(StorageClass::Private, bool_t);
        let no = self.f.constant_bool(false);
        let yes = self.f.constant_bool(true);
        let flag = self.f.global(crate::ir::GlobalVariable {
            name: Some(format!("init.done.{name}")),
            initializer: Some(Value::Constant(no)),
            ..crate::ir::GlobalVariable::new(flag_p, StorageClass::Private)
        });
        self.f.store(Value::Global(var), v, None);
        self.f
            .store(Value::Global(flag), Value::Constant(yes), None);
        let merge = self.f.block();
        self.f.branch(merge, &[]);
        self.f.switch_to(outer);
        let done = self.f.load(bool_t, Value::Global(flag), None);
        self.f.selection_merge(merge, SelectionControl::None);
        self.f.branch_conditional(done, (merge, &[]), (first, &[]));
        self.f.switch_to(merge);
        self.terminated = false;
    }

    /// A composite of `parts`: a constant when every part is one.
    fn composite(&mut self, t: crate::ir::Handle<crate::ir::Type>, parts: &[Value]) -> Value {
        if parts.iter().all(|p| matches!(p, Value::Constant(_))) {
            return Value::Constant(self.f.constant_composite(t, parts));
        }
        self.f.composite_construct(t, parts)
    }

    /// The value of an initializer for a variable of `ty`.
    pub fn initializer(&mut self, init: &Initializer, ty: &Ty) -> Option<Value> {
        self.initializer_shaped(init, ty, None)
    }

    /// [`Self::initializer`] for a variable declared as a one-row or one-column matrix of
    /// `shape` (its type is a vector): a matrix initializer is truncated to that corner.
    pub fn initializer_shaped(
        &mut self,
        init: &Initializer,
        ty: &Ty,
        shape: Option<(u32, u32)>,
    ) -> Option<Value> {
        if let (Some(shape), Initializer::Expr(e)) = (shape, init) {
            if !matches!(e.kind, crate::hlsl::ast::ExprKind::InitList(_)) {
                let (v, t) = self.rvalue(e)?;
                if let Ty::Matrix(s, ..) = t {
                    let v = self.truncate_matrix(v, &t, shape, e.span)?;
                    let cut = Ty::vector(s, shape.0 * shape.1);
                    return self.convert(v, &cut, ty, e.span);
                }
                return self.convert(v, &t, ty, e.span);
            }
        }
        match init {
            Initializer::Expr(e) => {
                if let crate::hlsl::ast::ExprKind::InitList(items) = &e.kind {
                    let list: Vec<Initializer> =
                        items.iter().cloned().map(Initializer::Expr).collect();
                    return self.initializer(&Initializer::List(list, e.span), ty);
                }
                let (v, t) = self.rvalue(e)?;
                if t == *ty {
                    return Some(v);
                }
                #[cfg(debug_assertions)]
                self.check_conversion(e, &t, ty);
                self.convert(v, &t, ty, e.span)
            }
            Initializer::List(items, span) => {
                let mut leaves = Vec::new();
                self.flatten_init(items, &mut leaves)?;
                let mut it = leaves.into_iter();
                let v = self.build_from(ty, &mut it, *span)?;
                if it.next().is_some() {
                    self.st.error(*span, "too many initializers");
                    return None;
                }
                Some(v)
            }
        }
    }

    fn flatten_init(
        &mut self,
        items: &[Initializer],
        out: &mut Vec<(Value, Ty, Span)>,
    ) -> Option<()> {
        for i in items {
            match i {
                Initializer::List(inner, _) => self.flatten_init(inner, out)?,
                Initializer::Expr(e) => {
                    if let crate::hlsl::ast::ExprKind::InitList(inner) = &e.kind {
                        let list: Vec<Initializer> =
                            inner.iter().cloned().map(Initializer::Expr).collect();
                        self.flatten_init(&list, out)?;
                        continue;
                    }
                    // A resource is one value, as a struct holding it keeps it: an image's or
                    // sampler's handle, a buffer's pointer.
                    let val = self.expr(e);
                    if let Val::Res(r) = &val {
                        if r.array.is_none() {
                            let t = Ty::Resource(r.kind, Box::new(r.elem.clone()));
                            let v = if self.held_as_handle(&t) {
                                self.load_handle(r)
                            } else {
                                r.ptr
                            };
                            out.push((v, t, e.span));
                            continue;
                        }
                    }
                    let (v, t) = self.load_val(&val, e.span)?;
                    self.flatten_value(v, &t, e.span, out);
                }
            }
        }
        Some(())
    }

    pub(super) fn flatten_value(
        &mut self,
        v: Value,
        t: &Ty,
        span: Span,
        out: &mut Vec<(Value, Ty, Span)>,
    ) {
        match t {
            Ty::Vector(s, _) | Ty::Matrix(s, _, _) => {
                let mut comps = Vec::new();
                if self.scalars_of(v, t, *s, span, &mut comps).is_some() {
                    out.extend(comps.into_iter().map(|c| (c, Ty::Scalar(*s), span)));
                }
            }
            Ty::Array(e, n) => {
                let et = self.ty(e);
                for i in 0..*n {
                    let x = self.f.composite_extract(et, v, vec![i]);
                    self.flatten_value(x, e, span, out);
                }
            }
            Ty::Struct(i) => {
                let Some(def) = self.st.types.structs.get(*i) else {
                    return;
                };
                let (fields, bitfields) = (def.fields.clone(), def.bitfields.clone());
                for (k, f) in fields.iter().enumerate() {
                    // (A buffer member is held as its pointer.)
                    let ft = if f.ty.is_resource() && !self.held_as_handle(&f.ty) {
                        self.held_pointer_type(&f.ty)
                    } else {
                        self.ty(&f.ty)
                    };
                    let x = self.f.composite_extract(ft, v, vec![k as u32]);
                    let bits: Vec<_> = bitfields.iter().filter(|b| b.field == k as u32).collect();
                    if bits.is_empty() {
                        self.flatten_value(x, &f.ty, span, out);
                        continue;
                    }
                    // A field holding bit-fields gives, for each bit-field, the whole field: what
                    // DXC's flat conversion takes (its test `cast.struct-to-int` says so).
                    for _ in bits {
                        out.push((x, f.ty.clone(), span));
                    }
                }
            }
            _ => out.push((v, t.clone(), span)),
        }
    }

    pub(super) fn build_from(
        &mut self,
        ty: &Ty,
        it: &mut std::vec::IntoIter<(Value, Ty, Span)>,
        span: Span,
    ) -> Option<Value> {
        match ty {
            Ty::Scalar(_) | Ty::Vector(..) | Ty::Matrix(..) => {
                let s = ty.component()?;
                let mut comps = Vec::new();
                for _ in 0..ty.count() {
                    let Some((v, t, sp)) = it.next() else {
                        self.st.error(span, "too few initializers");
                        return None;
                    };
                    comps.push(self.convert(v, &t, &Ty::Scalar(s), sp)?);
                }
                Some(self.compose_scalars(ty, &comps))
            }
            Ty::Array(e, n) => {
                let mut parts = Vec::new();
                for _ in 0..*n {
                    parts.push(self.build_from(e, it, span)?);
                }
                let t = self.ty(ty);
                Some(self.composite(t, &parts))
            }
            Ty::Struct(i) => {
                let def = self.st.types.structs.get(*i)?;
                let (fields, bitfields) = (def.fields.clone(), def.bitfields.clone());
                let mut parts = Vec::new();
                for (k, f) in fields.iter().enumerate() {
                    let bits: Vec<_> = bitfields.iter().filter(|b| b.field == k as u32).collect();
                    if bits.is_empty() {
                        parts.push(self.build_from(&f.ty, it, span)?);
                        continue;
                    }
                    // A field holding bit-fields takes one value per bit-field.
                    let s = f.ty.component()?;
                    let mut whole = self.scalar_const(s, ConstVal::Int(0));
                    for b in bits {
                        let Some((v, t, sp)) = it.next() else {
                            self.st.error(span, "too few initializers");
                            return None;
                        };
                        let v = self.convert(v, &t, &f.ty, sp)?;
                        whole = self.insert_bits(whole, v, &f.ty, b.offset, b.width)?;
                    }
                    parts.push(whole);
                }
                let t = self.ty(ty);
                Some(self.composite(t, &parts))
            }
            Ty::Resource(..) if ty.is_resource() => {
                let Some((v, t, sp)) = it.next() else {
                    self.st.error(span, "too few initializers");
                    return None;
                };
                if t != *ty {
                    self.st
                        .internal(sp, "a resource initializer of another type");
                    return None;
                }
                Some(v)
            }
            _ => {
                self.st.error(span, "not supported yet: this initializer");
                None
            }
        }
    }

    fn if_stmt(
        &mut self,
        control: SelectionControl,
        cond: &Expr,
        then: &Stmt,
        otherwise: Option<&Stmt>,
    ) {
        let Some(c) = self.condition(cond) else {
            return;
        };
        let then_b = self.f.block();
        let merge = self.f.block();
        let else_b = if otherwise.is_some() {
            self.f.block()
        } else {
            merge
        };
        self.f.selection_merge(merge, control);
        self.f.branch_conditional(c, (then_b, &[]), (else_b, &[]));
        self.reach(&[then_b, else_b]);
        self.enter(then_b);
        self.scoped_stmt(then);
        self.branch_to(merge);
        if let Some(o) = otherwise {
            self.enter(else_b);
            self.scoped_stmt(o);
            self.branch_to(merge);
        }
        self.enter(merge);
    }

    fn scoped_stmt(&mut self, s: &Stmt) {
        self.st.scopes.push();
        self.stmt(s);
        self.st.scopes.pop();
    }

    fn loop_stmt(
        &mut self,
        control: LoopControl,
        cond: Option<&Expr>,
        step: Option<&Expr>,
        body: &Stmt,
        do_while: bool,
    ) {
        self.live();
        let header = self.f.block();
        let body_b = self.f.block();
        let cont = self.f.block();
        let merge = self.f.block();
        // The header, its condition and the back edge are emitted even when the loop is
        // unreachable: a loop construct needs them whatever else is dead.
        self.f.branch(header, &[]);
        self.reach(&[header]);
        self.enter(header);
        self.f.loop_merge(merge, cont, control);
        if do_while {
            self.f.branch(body_b, &[]);
            self.reach(&[body_b]);
        } else {
            let check = self.f.block();
            self.f.branch(check, &[]);
            self.reach(&[check]);
            self.enter(check);
            let c = match cond {
                Some(c) => self.condition(c),
                None => Some(self.scalar_const(Scalar::Bool, ConstVal::Bool(true))),
            };
            let c = c.unwrap_or_else(|| self.scalar_const(Scalar::Bool, ConstVal::Bool(false)));
            self.f.branch_conditional(c, (body_b, &[]), (merge, &[]));
            self.reach(&[body_b, merge]);
        }
        self.enter(body_b);
        self.jumps.push(Jump::Loop { merge, cont });
        self.scoped_stmt(body);
        self.jumps.pop();
        self.branch_to(cont);
        self.enter(cont);
        if let Some(s) = step {
            let _ = self.expr(s);
        }
        if do_while {
            let c = cond.and_then(|c| self.condition(c));
            let c = c.unwrap_or_else(|| self.scalar_const(Scalar::Bool, ConstVal::Bool(false)));
            self.f.branch_conditional(c, (header, &[]), (merge, &[]));
            self.reach(&[merge]);
        } else {
            self.f.branch(header, &[]);
        }
        self.enter(merge);
    }

    fn switch_stmt(&mut self, control: SelectionControl, selector: &Expr, cases: &[Case]) {
        let Some((sv, st)) = self.rvalue(selector) else {
            return;
        };
        // A 64-bit selector stays 64-bit (its labels are two-word literals); a float one is
        // converted to `int`, as DXC.
        let sel_ty = match st {
            Ty::Scalar(s @ (Scalar::UInt | Scalar::Int64 | Scalar::UInt64)) => Ty::Scalar(s),
            Ty::Scalar(s) if s.is_int() || s.is_float() || s == Scalar::Bool => {
                Ty::Scalar(Scalar::Int)
            }
            _ => {
                self.st.error(
                    selector.span,
                    format!(
                        "switch selector must be an integer, not '{}'",
                        self.show(&st)
                    ),
                );
                return;
            }
        };
        let Some(sv) = self.convert(sv, &st, &sel_ty, selector.span) else {
            return;
        };
        let wide = sel_ty.component().is_some_and(|s| s.bits() == 64);
        let merge = self.f.block();
        let blocks: Vec<_> = cases.iter().map(|_| self.f.block()).collect();
        let mut default = None;
        let mut labels: Vec<(LiteralNumber, Successor)> = Vec::new();
        for (case, &blk) in cases.iter().zip(&blocks) {
            if case.default {
                default = Some(blk);
            }
            for &c in &case.values {
                let literal = if wide {
                    LiteralNumber::DoubleWord(c as u64)
                } else {
                    LiteralNumber::Word(c as u32)
                };
                labels.push((
                    literal,
                    Successor {
                        block: blk,
                        args: Vec::new(),
                    },
                ));
            }
        }
        self.f.selection_merge(merge, control);
        let targets: Vec<_> = labels.iter().map(|(_, s)| s.block).collect();
        self.reach(&targets);
        self.reach(&[default.unwrap_or(merge)]);
        self.f.terminate(Terminator::Switch {
            selector: sv,
            default: Successor {
                block: default.unwrap_or(merge),
                args: Vec::new(),
            },
            cases: labels,
        });
        self.jumps.push(Jump::Switch { merge });
        self.st.scopes.push();
        for (i, case) in cases.iter().enumerate() {
            self.enter(blocks[i]);
            for s in &case.body {
                self.stmt(s);
            }
            let next = blocks.get(i + 1).copied().unwrap_or(merge);
            self.branch_to(next);
        }
        self.st.scopes.pop();
        self.jumps.pop();
        self.enter(merge);
    }
}
