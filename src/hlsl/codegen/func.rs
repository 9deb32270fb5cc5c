//! The function context: the builder of the function being emitted, its variable block, jump
//! targets, and the value helpers every expression uses (constants, locals, loads, stores,
//! layout changes).

use super::types::ir_ty;
use super::{Place, State, Val};
use crate::grammar::{LiteralNumber, StorageClass};
use crate::hlsl::sema::consteval::ConstVal;
use crate::hlsl::sema::layout::LayoutRule;
use crate::hlsl::sema::types::{Scalar, Ty};
use crate::hlsl::source::Span;
use crate::ir::{Block, ConstantValue, FunctionBuilder, Handle, Type, Value};

/// Where `break` and `continue` go.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Jump {
    /// A loop: `break` to its merge, `continue` to its continue target.
    Loop {
        merge: Handle<Block>,
        cont: Handle<Block>,
    },
    /// A switch: `break` to its merge.
    Switch { merge: Handle<Block> },
}

/// The state of the function being emitted.
pub(crate) struct FnCx<'a, 'u> {
    pub f: FunctionBuilder<'a>,
    pub st: &'a mut State<'u>,
    /// The entry block, which holds only the function's `OpVariable`s and branches to the body.
    pub vars: Handle<Block>,
    /// Whether the current block already ended (code after `return`, `break`, ...).
    pub terminated: bool,
    /// Whether the current block can be reached: false in the code after a `return`,
    /// `break`, `continue` or `discard`, which is still emitted (and so type-checked) but
    /// ends in `OpUnreachable` instead of branching into a construct it is not part of.
    pub reachable: bool,
    /// The statement-level blocks a reachable block branches to.
    pub reached: std::collections::HashSet<Handle<Block>>,
    pub jumps: Vec<Jump>,
    /// The return type.
    pub ret: Ty,
    /// The exact values of float literals (emitted as 32-bit constants), so a conversion to
    /// `double` keeps the literal's precision.
    pub literals: std::collections::HashMap<Value, f64>,
    /// Pointers to 1xN matrices (collapsed to vectors) or arrays of them, with the array
    /// indices to the matrix: the matrix's row index selects the whole vector, as DXC does.
    pub row_matrices: std::collections::HashMap<Value, u8>,
    /// Local resource variables (their types), which a statement `x = r;` rebinds
    /// (`sema::body` allows that only for statements of the declaring block).
    pub resource_locals: std::collections::HashMap<String, Ty>,
    /// Values and pointers of a minimum-precision type: their loads, and the arithmetic on
    /// them, are decorated `RelaxedPrecision` as DXC does.
    pub relaxed: std::collections::HashSet<Value>,

    /// Pointers to (and values of) a struct's last field when it is an array of one element:
    /// clang takes it for C89's flexible array member and does not check constant indices
    /// into it against its size, so DXC accepts `s.tail[2]` (an access chain with index 2).
    pub tail_arrays: std::collections::HashSet<Value>,
}

impl<'a, 'u> FnCx<'a, 'u> {
    /// A context for a function whose builder was just created: its entry block becomes the
    /// variable block and a body block is made current.
    pub fn new(mut f: FunctionBuilder<'a>, st: &'a mut State<'u>, ret: Ty) -> Self {
        let vars = f.current_block();
        let body = f.block();
        f.switch_to(body);
        FnCx {
            f,
            st,
            vars,
            terminated: false,
            reachable: true,
            reached: std::collections::HashSet::new(),
            jumps: Vec::new(),
            ret,
            literals: std::collections::HashMap::new(),
            row_matrices: std::collections::HashMap::new(),
            resource_locals: std::collections::HashMap::new(),
            relaxed: std::collections::HashSet::new(),
            tail_arrays: std::collections::HashSet::new(),
        }
    }

    /// Ends the function: the variable block branches to the first body block; a body that
    /// falls off its end returns.
    pub fn finish(mut self) -> Handle<crate::ir::Function> {
        if !self.terminated {
            if self.ret == Ty::Void {
                self.f.ret();
            } else {
                self.f.unreachable();
            }
        }
        let vars = self.vars;
        let first = self.f.function().blocks.handles().nth(1).unwrap_or(vars);
        self.f.switch_to(vars);
        self.f.branch(first, &[]);
        let h = self.f.handle();
        let precise = self.st.precise;
        if let Some(func) = self.st_module_function(h) {
            reorder_blocks(func);
            if precise {
                no_contraction(func);
            }
        }
        self.f.finish()
    }

    fn st_module_function(
        &mut self,
        h: Handle<crate::ir::Function>,
    ) -> Option<&mut crate::ir::Function> {
        self.f.module_mut().functions.get_mut(h)
    }

    /// The IR type of `ty` without layout.
    pub fn ty(&mut self, ty: &Ty) -> Handle<Type> {
        ir_ty(&mut self.f, self.st, ty, LayoutRule::None, false)
    }

    /// The IR type of `ty` in a layout.
    pub fn ty_in(&mut self, ty: &Ty, layout: LayoutRule, row_major: bool) -> Handle<Type> {
        ir_ty(&mut self.f, self.st, ty, layout, row_major)
    }

    /// A pointer type.
    pub fn ptr_ty(
        &mut self,
        sc: StorageClass,
        ty: &Ty,
        layout: LayoutRule,
        rm: bool,
    ) -> Handle<Type> {
        let t = self.ty_in(ty, layout, rm);
        self.f.type_pointer(sc, t)
    }

    /// Starts a fresh (unreachable) block if the current one has ended.
    pub fn live(&mut self) {
        if self.terminated {
            let b = self.f.block();
            self.f.switch_to(b);
            self.terminated = false;
            self.reachable = false;
        }
    }

    /// Ends the current block with a branch, unless it has ended already. Unreachable code
    /// ends in `OpUnreachable` instead: a branch from it to a loop's continue target or merge
    /// would come from outside the loop's construct, which SPIR-V forbids.
    pub fn branch_to(&mut self, target: Handle<Block>) {
        if !self.terminated {
            if self.reachable {
                self.f.branch(target, &[]);
                self.reached.insert(target);
            } else {
                self.f.terminate(crate::ir::Terminator::Unreachable);
            }
        }
        self.terminated = true;
    }

    /// Records that the current block branches to `targets` (when it is reachable itself).
    pub fn reach(&mut self, targets: &[Handle<Block>]) {
        if self.reachable {
            self.reached.extend(targets.iter().copied());
        }
    }

    /// Makes a statement-level block current: reachable if a reachable block branches to it.
    pub fn enter(&mut self, b: Handle<Block>) {
        self.f.switch_to(b);
        self.terminated = false;
        self.reachable = self.reached.contains(&b);
    }

    /// A Function-storage variable of `ty`, declared in the variable block.
    pub fn local(&mut self, ty: &Ty, name: &str) -> Value {
        let p = self.ptr_ty(StorageClass::Function, ty, LayoutRule::None, false);
        let cur = self.f.current_block();
        self.f.switch_to(self.vars);
        let v = self.f.variable(p, StorageClass::Function, None);
        self.f.switch_to(cur);
        if !name.is_empty() {
            self.f.name(v, name);
        }
        v
    }

    /// Decorates `v` (a variable, parameter or instruction result) `RelaxedPrecision` and
    /// records it as minimum precision.
    pub fn relax(&mut self, v: Value) {
        if self.relaxed.insert(v) && !matches!(v, Value::Constant(_)) {
            self.f
                .decorate(v, crate::grammar::Decoration::RelaxedPrecision);
        }
    }

    /// A load of a resource's handle (image, sampler).
    pub fn load_handle(&mut self, r: &super::Resource) -> Value {
        let t = self.ty(&Ty::Resource(r.kind, Box::new(r.elem.clone())));
        self.f.load(t, r.ptr, None)
    }

    /// Records a pointer into minimum-precision storage (an access chain, not decorated).
    pub fn mark_relaxed(&mut self, v: Value) {
        self.relaxed.insert(v);
    }

    /// Whether `v` is a minimum-precision value or points to minimum-precision storage.
    pub fn is_relaxed(&self, v: Value) -> bool {
        match v {
            Value::Global(g) => self.st.relaxed_globals.contains(&g),
            _ => self.relaxed.contains(&v),
        }
    }

    /// Whether the result of an operation on `operands` is minimum precision: at least one is,
    /// and every other one is too or is a constant (a literal takes the other side's type).
    pub fn relaxed_operands(&self, operands: &[Value]) -> bool {
        // In HLSL 202x a literal is a `float` or an `int`, which is not minimum precision.
        let literals_adapt = self.st.opts.version < crate::hlsl::LanguageVersion::V202x;
        operands.iter().any(|&v| self.is_relaxed(v))
            && operands
                .iter()
                .all(|&v| self.is_relaxed(v) || (literals_adapt && matches!(v, Value::Constant(_))))
    }

    /// A Function-storage place of `ty`.
    pub fn local_place(&mut self, ty: &Ty, name: &str) -> Place {
        let ptr = self.local(ty, name);
        Place {
            ptr,
            ty: ty.clone(),
            sc: StorageClass::Function,
            layout: LayoutRule::None,
            row_major: false,
            konst: false,
        }
    }

    /// A 32-bit unsigned constant.
    pub fn u32c(&mut self, v: u32) -> Value {
        Value::Constant(self.f.constant_u32(v))
    }

    /// A 32-bit signed constant.
    pub fn i32c(&mut self, v: i32) -> Value {
        Value::Constant(self.f.constant_i32(v))
    }

    /// A scalar constant of kind `s` holding `c` (converted as C would).
    pub fn scalar_const(&mut self, s: Scalar, c: ConstVal) -> Value {
        let h = match s {
            Scalar::Bool => self.f.constant_bool(c.as_bool()),
            Scalar::Int16 | Scalar::UInt16 | Scalar::Half => {
                // A 16-bit literal fills the low half of its word: sign-extended for a signed
                // integer, zero-extended otherwise (the SPIR-V spec's literal rule).
                let word = match s {
                    Scalar::Int16 => int_of(c) as i16 as i32 as u32,
                    Scalar::UInt16 => u32::from(int_of(c) as u16),
                    _ => u32::from(crate::binary::f64_to_f16_bits(c.as_float())),
                };
                let t = match s {
                    Scalar::Half => self.f.type_float(16),
                    _ => self.f.type_int(16, s == Scalar::Int16),
                };
                self.f
                    .constant(t, ConstantValue::Scalar(LiteralNumber::Word(word)))
            }
            Scalar::Int => self.f.constant_i32(int_of(c) as i32),
            Scalar::UInt => self.f.constant_u32(int_of(c) as u32),
            Scalar::Int64 => {
                let t = self.f.type_int(64, true);
                self.f.constant(
                    t,
                    ConstantValue::Scalar(LiteralNumber::DoubleWord(int_of(c) as u64)),
                )
            }
            Scalar::UInt64 => self.f.constant_u64(int_of(c) as u64),
            Scalar::Float => self.f.constant_f32(c.as_float() as f32),
            Scalar::Double => self.f.constant_f64(c.as_float()),
        };
        Value::Constant(h)
    }

    /// A constant of a numeric type with every component `c`.
    pub fn splat_const(&mut self, ty: &Ty, c: ConstVal) -> Value {
        let Some(s) = ty.component() else {
            return self.scalar_const(Scalar::Int, c);
        };
        let one = self.scalar_const(s, c);
        match ty {
            Ty::Vector(_, n) => {
                let t = self.ty(ty);
                Value::Constant(self.f.constant_composite(t, &vec![one; *n as usize]))
            }
            Ty::Matrix(_, r, cols) => {
                let row = self.splat_const(&Ty::Vector(s, *cols), c);
                let t = self.ty(ty);
                Value::Constant(self.f.constant_composite(t, &vec![row; *r as usize]))
            }
            _ => one,
        }
    }

    /// The scalar value of a constant, if `v` is a scalar constant.
    pub fn const_of(&self, v: Value) -> Option<ConstVal> {
        let Value::Constant(h) = v else { return None };
        let m = self.f.module();
        let c = m.constants.get(h)?;
        let ty = m.types.get(c.ty)?;
        match (&c.value, ty) {
            (ConstantValue::Bool(b), _) => Some(ConstVal::Bool(*b)),
            (ConstantValue::Scalar(LiteralNumber::Word(w)), Type::Float { width: 16 }) => {
                Some(ConstVal::Float(crate::binary::f16_bits_to_f64(*w as u16)))
            }
            (ConstantValue::Scalar(LiteralNumber::Word(w)), Type::Int { signed, .. }) => {
                Some(ConstVal::Int(if *signed {
                    i64::from(*w as i32)
                } else {
                    i64::from(*w)
                }))
            }
            (ConstantValue::Scalar(LiteralNumber::Word(w)), Type::Float { .. }) => {
                Some(ConstVal::Float(f64::from(f32::from_bits(*w))))
            }
            (ConstantValue::Scalar(LiteralNumber::DoubleWord(w)), Type::Int { .. }) => {
                Some(ConstVal::Int(*w as i64))
            }
            (ConstantValue::Scalar(LiteralNumber::DoubleWord(w)), Type::Float { .. }) => {
                Some(ConstVal::Float(f64::from_bits(*w)))
            }
            _ => None,
        }
    }

    /// Makes a vector of `n` copies of scalar `v` (of component `s`).
    pub fn splat(&mut self, v: Value, s: Scalar, n: u32) -> Value {
        let t = self.ty(&Ty::Vector(s, n));
        if let Value::Constant(_) = v {
            return Value::Constant(self.f.constant_composite(t, &vec![v; n as usize]));
        }
        self.f.composite_construct(t, &vec![v; n as usize])
    }

    /// Loads the value of an expression result (in no layout); reports non-values.
    pub fn load(&mut self, v: &Val, span: Span) -> Option<(Value, Ty)> {
        match v {
            Val::R(v, t) => Some((*v, t.clone())),
            Val::P(p) => {
                let t = self.ty_in(&p.ty, p.layout, p.row_major);
                let val = self.f.load(t, p.ptr, None);
                let val = self.relayout(val, &p.ty, p.layout, p.row_major);
                if self.is_relaxed(p.ptr) {
                    self.relax(val);
                }
                Some((val, p.ty.clone()))
            }
            Val::Swz(p, comps) => {
                let vt = self.ty_in(&p.ty, p.layout, false);
                let whole = self.f.load(vt, p.ptr, None);
                if self.is_relaxed(p.ptr) {
                    self.relax(whole);
                }
                let whole = self.relayout(whole, &p.ty, p.layout, false);
                let s = p.ty.component()?;
                let rt = Ty::vector(s, comps.len() as u32);
                let t = self.ty(&rt);
                let r = if comps.len() == 1 {
                    self.f.composite_extract(t, whole, vec![comps[0]])
                } else {
                    self.f.vector_shuffle(t, whole, whole, comps.clone())
                };
                if self.is_relaxed(whole) {
                    self.relax(r);
                }
                Some((r, rt))
            }
            Val::Texel(r, coord) => {
                let (r, coord) = (r.clone(), *coord);
                self.texel_load(&r, coord)
            }
            Val::Bits(holder, ty, offset, width) => {
                let (whole, _) = self.load(holder, span)?;
                let v = self.extract_bits(whole, ty, *offset, *width)?;
                Some((v, ty.clone()))
            }
            Val::Elems(base, ty, paths) => {
                let (whole, _) = self.load(base, span)?;
                let s = ty.component()?;
                let et = self.ty(&Ty::Scalar(s));
                let parts: Vec<Value> = paths
                    .iter()
                    .map(|p| self.f.composite_extract(et, whole, p.clone()))
                    .collect();
                if let [one] = parts.as_slice() {
                    return Some((*one, ty.clone()));
                }
                let t = self.ty(ty);
                Some((self.f.composite_construct(t, &parts), ty.clone()))
            }
            Val::Bundle(ty, leaves) => {
                let (ty, leaves) = (ty.clone(), leaves.clone());
                let v = self.bundle_value(&ty, &leaves, span)?;
                Some((v, ty))
            }
            Val::Res(_) | Val::Mips(..) | Val::Held(_) => {
                self.st.error(span, "a resource object is not a value here");
                None
            }
            Val::Err => None,
        }
    }

    /// Rebuilds a struct or array value loaded in `from` layout as its layout-free type.
    pub fn relayout(&mut self, v: Value, ty: &Ty, from: LayoutRule, rm: bool) -> Value {
        if from == LayoutRule::None {
            return v;
        }
        self.convert_layout(v, ty, from, rm, LayoutRule::None, false)
    }

    /// Rebuilds a composite of `ty` from layout `from` to layout `to`.
    pub fn convert_layout(
        &mut self,
        v: Value,
        ty: &Ty,
        from: LayoutRule,
        from_rm: bool,
        to: LayoutRule,
        to_rm: bool,
    ) -> Value {
        let a = self.ty_in(ty, from, from_rm);
        let b = self.ty_in(ty, to, to_rm);
        if a == b {
            return v;
        }
        match ty {
            Ty::Array(e, n) => {
                let mut parts = Vec::new();
                for i in 0..*n {
                    let et = self.ty_in(e, from, from_rm);
                    let x = self.f.composite_extract(et, v, vec![i]);
                    parts.push(self.convert_layout(x, e, from, from_rm, to, to_rm));
                }
                self.f.composite_construct(b, &parts)
            }
            Ty::Struct(i) => {
                let fields = self
                    .st
                    .types
                    .structs
                    .get(*i)
                    .map(|d| d.fields.clone())
                    .unwrap_or_default();
                let mut parts = Vec::new();
                for (k, fd) in fields.iter().enumerate() {
                    let ft = self.ty_in(&fd.ty, from, fd.row_major);
                    let x = self.f.composite_extract(ft, v, vec![k as u32]);
                    parts.push(self.convert_layout(
                        x,
                        &fd.ty,
                        from,
                        fd.row_major,
                        to,
                        fd.row_major,
                    ));
                }
                self.f.composite_construct(b, &parts)
            }
            Ty::Matrix(s, r, c) if !s.is_float() => {
                // A non-float matrix is an array of row vectors, with an ArrayStride in a
                // layout (so a type of its own) and, for bools, uint rows in buffers: each
                // row converts as a vector.
                let row = Ty::Vector(*s, *c);
                let mut parts = Vec::new();
                for i in 0..*r {
                    let rt = self.ty_in(&row, from, from_rm);
                    let x = self.f.composite_extract(rt, v, vec![i]);
                    parts.push(self.convert_layout(x, &row, from, from_rm, to, to_rm));
                }
                self.f.composite_construct(b, &parts)
            }
            t if t.component() == Some(Scalar::Bool) => {
                // Booleans live in buffers as uints.
                let ut = t.with_component(Scalar::UInt);
                match (from == LayoutRule::None, to == LayoutRule::None) {
                    (false, true) => {
                        let zero = self.splat_const(&ut, ConstVal::Int(0));
                        let bt = self.ty(t);
                        self.f.i_not_equal(bt, v, zero)
                    }
                    (true, false) => {
                        let one = self.splat_const(&ut, ConstVal::Int(1));
                        let zero = self.splat_const(&ut, ConstVal::Int(0));
                        let it = self.ty(&ut);
                        self.f.select(it, v, one, zero)
                    }
                    _ => v,
                }
            }
            _ => v,
        }
    }

    /// Stores `v` (of `ty`, no layout) through an lvalue.
    pub fn store(&mut self, dst: &Val, v: Value, ty: &Ty, span: Span) {
        match dst {
            Val::P(p) => {
                if p.konst {
                    self.st
                        .error(span, "cannot assign to a constant or read-only value");
                    return;
                }
                let Some(v) = self.convert(v, ty, &p.ty, span) else {
                    return;
                };
                let v =
                    self.convert_layout(v, &p.ty, LayoutRule::None, false, p.layout, p.row_major);
                self.f.store(p.ptr, v, None);
            }
            Val::Swz(p, comps) => {
                if p.konst {
                    self.st
                        .error(span, "cannot assign to a constant or read-only value");
                    return;
                }
                let Some(s) = p.ty.component() else { return };
                let part_ty = Ty::vector(s, comps.len() as u32);
                let Some(v) = self.convert(v, ty, &part_ty, span) else {
                    return;
                };
                let mut seen = Vec::new();
                for c in comps {
                    if seen.contains(c) {
                        self.st.error(
                            span,
                            "a swizzle with a repeated component cannot be assigned",
                        );
                        return;
                    }
                    seen.push(*c);
                }
                let vt = self.ty(&p.ty);
                let lt = self.ty_in(&p.ty, p.layout, false);
                let whole = self.f.load(lt, p.ptr, None);
                let whole = self.relayout(whole, &p.ty, p.layout, false);
                let Ty::Vector(_, n) = p.ty else { return };
                let mut sel: Vec<u32> = (0..n).collect();
                let new = if comps.len() == 1 {
                    self.f.composite_insert(vt, v, whole, vec![comps[0]])
                } else {
                    for (k, c) in comps.iter().enumerate() {
                        if let Some(slot) = sel.get_mut(*c as usize) {
                            *slot = n + k as u32;
                        }
                    }
                    self.f.vector_shuffle(vt, whole, v, sel)
                };
                let new = self.convert_layout(new, &p.ty, LayoutRule::None, false, p.layout, false);
                self.f.store(p.ptr, new, None);
            }
            Val::Err => {}
            _ => self.st.error(span, "expression is not assignable"),
        }
    }
}

/// Lays blocks out in structured order: each header, then its construct's blocks, its continue
/// target, and its merge block (so every block follows its dominators); blocks that nothing
/// reaches go last.
pub(crate) fn reorder_blocks(f: &mut crate::ir::Function) {
    let n = f.blocks.len();
    let Some(entry) = f.entry() else { return };
    let mut visited = vec![false; n];
    let mut post: Vec<Handle<Block>> = Vec::with_capacity(n);
    let children = |f: &crate::ir::Function, h: Handle<Block>| -> Vec<Handle<Block>> {
        let Some(b) = f.blocks.get(h) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        if let Some(s) = &b.structure {
            out.push(s.merge());
            if let crate::ir::Structure::Loop {
                continue_target, ..
            } = s
            {
                out.push(*continue_target);
            }
        }
        let succ: Vec<Handle<Block>> = b.terminator.successors().map(|s| s.block).collect();
        out.extend(succ.into_iter().rev());
        out
    };
    // Iterative depth-first search; children are visited in the order given.
    let mut stack: Vec<(Handle<Block>, Vec<Handle<Block>>)> = Vec::new();
    visited[entry.index()] = true;
    stack.push((entry, children(f, entry)));
    while let Some((h, kids)) = stack.last_mut() {
        let h = *h;
        if let Some(k) = kids.first().copied() {
            kids.remove(0);
            if k.index() < n && !visited[k.index()] {
                visited[k.index()] = true;
                let c = children(f, k);
                stack.push((k, c));
            }
        } else {
            post.push(h);
            stack.pop();
        }
    }
    let mut order: Vec<Handle<Block>> = post.into_iter().rev().collect();
    order.extend(f.blocks.handles().filter(|h| !visited[h.index()]));
    let mut map = vec![0usize; n];
    for (new, old) in order.iter().enumerate() {
        map[old.index()] = new;
    }
    let remap = |h: &mut Handle<Block>| *h = Handle::new(map[h.index()]);
    let mut blocks = crate::ir::Arena::with_capacity(n);
    for old in order {
        let Some(b) = f.blocks.get(old) else { continue };
        let mut b = b.clone();
        for s in b.terminator.successors_mut() {
            remap(&mut s.block);
        }
        match &mut b.structure {
            Some(crate::ir::Structure::Selection { merge, .. }) => remap(merge),
            Some(crate::ir::Structure::Loop {
                merge,
                continue_target,
                ..
            }) => {
                remap(merge);
                remap(continue_target);
            }
            None => {}
        }
        blocks.append(b);
    }
    f.blocks = blocks;
}

fn int_of(c: ConstVal) -> i64 {
    match c {
        ConstVal::Float(f) => f as i64,
        c => c.as_int().unwrap_or(0),
    }
}

/// `NoContraction` on every arithmetic instruction of `func` (for `precise`).
fn no_contraction(func: &mut crate::ir::Function) {
    use crate::grammar::InstructionClass;
    for (_, op) in func.ops.iter_mut() {
        let arithmetic = op
            .inst
            .opcode()
            .is_some_and(|o| o.class() == InstructionClass::Arithmetic);
        if arithmetic {
            let attrs = op.attrs.get_or_insert_with(Default::default);
            if !attrs
                .decorations
                .contains(&crate::grammar::Decoration::NoContraction)
            {
                attrs
                    .decorations
                    .push(crate::grammar::Decoration::NoContraction);
            }
        }
    }
}
