//! The shapes values must have: constructors' component counts, initializer lists, and casts
//! to and from structs and arrays (DXC's flat conversion).

use super::{Lowerer, Ty};
use crate::hlsl::ast::{Expr, ExprKind, Initializer};
use crate::hlsl::sema::types::Scalar;

impl Lowerer<'_> {
    /// Whether `T(args)` (at `site`) builds a `t`: a struct from one value (a cast), or a
    /// scalar, vector or matrix from exactly its number of components, which the arguments
    /// give in order (structs and arrays theirs); reports why not.
    pub(super) fn construct(&mut self, site: &Expr, t: &Ty, args: &[Expr]) -> bool {
        if matches!((t, args), (Ty::Struct(_), [_])) {
            return true;
        }
        if !t.is_numeric() {
            let msg = format!("not supported yet: constructing '{}'", self.m.types.show(t));
            self.report(site.span, msg);
            return false;
        }
        let Some(tys) = args
            .iter()
            .map(|a| self.typed(a))
            .collect::<Option<Vec<_>>>()
        else {
            return false;
        };
        if let [one] = tys.as_slice() {
            if matches!(one, Ty::Scalar(_))
                || one.with_component(Scalar::Float) == t.with_component(Scalar::Float)
            {
                return true;
            }
        }
        let mut given = 0;
        for a in &tys {
            match self.scalar_count(a) {
                Ok(n) => given += n,
                Err(()) => {
                    let msg = format!("cannot take components of '{}'", self.m.types.show(a));
                    self.report(site.span, msg);
                    return false;
                }
            }
        }
        if given != t.count() {
            let msg = format!(
                "'{}' takes {} components, {given} given",
                self.m.types.show(t),
                t.count()
            );
            self.report(site.span, msg);
            return false;
        }
        true
    }

    /// The number of scalars in a value of type `t` (a struct's and an array's in order);
    /// `Err` where one of its leaves is not numeric.
    fn scalar_count(&self, t: &Ty) -> Result<u32, ()> {
        match t {
            _ if t.is_numeric() => Ok(t.count()),
            Ty::Array(e, n) => Ok(self.scalar_count(e)? * n),
            Ty::Struct(i) => {
                let def = self.m.types.structs.get(*i).ok_or(())?;
                def.fields.iter().map(|f| self.scalar_count(&f.ty)).sum()
            }
            _ => Err(()),
        }
    }

    /// Checks that the initializer list `init` (if it is one) gives a `ty` exactly the
    /// values it is made of: its values' scalars (a struct's and an array's in order, one
    /// value per bit-field) fill `ty`'s in order.
    pub(super) fn init_list(&mut self, init: &Initializer, ty: &Ty) {
        let span = match init {
            Initializer::List(_, span) => *span,
            Initializer::Expr(e) if matches!(e.kind, ExprKind::InitList(_)) => e.span,
            Initializer::Expr(_) => return,
        };
        let mut given = 0;
        if self.init_leaves(init, &mut given).is_none() {
            return;
        }
        let why = match self.leaves(ty, true) {
            None => "not supported yet: this initializer",
            Some(need) if given < need => "too few initializers",
            Some(need) if given > need => "too many initializers",
            Some(_) => {
                // A resource leaf takes a resource of its type, and only it.
                let mut want = Vec::new();
                self.leaf_types(ty, &mut want);
                let mut got = Vec::new();
                if want.iter().any(Ty::is_resource) && self.init_leaf_types(init, &mut got) {
                    let clash = want
                        .iter()
                        .zip(&got)
                        .find(|(w, g)| (w.is_resource() || g.is_resource()) && w != g);
                    if let Some((w, g)) = clash {
                        let msg = format!(
                            "cannot initialize '{}' with '{}' in this initializer list",
                            self.m.types.show(w),
                            self.m.types.show(g)
                        );
                        self.report(span, msg);
                    }
                }
                return;
            }
        };
        self.report(span, why);
    }

    /// The types of the values a `t` is made of, in an initializer list's order (a
    /// bit-field's field once per bit-field).
    fn leaf_types(&self, t: &Ty, out: &mut Vec<Ty>) {
        match t {
            Ty::Array(e, n) => {
                for _ in 0..*n {
                    self.leaf_types(e, out);
                }
            }
            Ty::Struct(i) => {
                let Some(def) = self.m.types.structs.get(*i) else {
                    return;
                };
                for (k, f) in def.fields.iter().enumerate() {
                    let bits = def.bitfields.iter().filter(|b| b.field == k as u32).count();
                    for _ in 0..bits.max(usize::from(bits == 0)) {
                        if bits > 0 {
                            out.push(f.ty.clone());
                        } else {
                            self.leaf_types(&f.ty, out);
                        }
                    }
                }
            }
            Ty::Scalar(_) | Ty::Vector(..) | Ty::Matrix(..) => {
                let s = Ty::Scalar(t.component().unwrap_or(Scalar::Float));
                out.extend(std::iter::repeat_n(s, t.count() as usize));
            }
            t => out.push(t.clone()),
        }
    }

    /// The leaf types an initializer gives, in order; false where one is not known.
    fn init_leaf_types(&self, init: &Initializer, out: &mut Vec<Ty>) -> bool {
        match init {
            Initializer::List(items, _) => items.iter().all(|i| self.init_leaf_types(i, out)),
            Initializer::Expr(e) => match &e.kind {
                ExprKind::InitList(items) => items
                    .iter()
                    .all(|i| self.init_leaf_types(&Initializer::Expr(i.clone()), out)),
                _ => match self.typed(e) {
                    Some(t) => {
                        self.leaf_types(&t, out);
                        true
                    }
                    None => false,
                },
            },
        }
    }

    /// Adds the number of values the (typed) initializer `init` gives to `n`.
    fn init_leaves(&self, init: &Initializer, n: &mut u32) -> Option<()> {
        match init {
            Initializer::List(items, _) => {
                for i in items {
                    self.init_leaves(i, n)?;
                }
            }
            Initializer::Expr(e) => match &e.kind {
                ExprKind::InitList(items) => {
                    for i in items {
                        self.init_leaves(&Initializer::Expr(i.clone()), n)?;
                    }
                }
                _ => *n += self.leaves(&self.typed(e)?, false)?,
            },
        }
        Some(())
    }

    /// The number of values a `t` is made of, as an initializer list flattens it (`target`:
    /// as one builds it, where only scalars, vectors, matrices, arrays and structs are built;
    /// `None` for another).
    fn leaves(&self, t: &Ty, target: bool) -> Option<u32> {
        match t {
            Ty::Scalar(_) | Ty::Vector(..) | Ty::Matrix(..) => Some(t.count()),
            // (An array of resources is not built from a list yet.)
            Ty::Array(e, _) if target && e.is_resource() => None,
            Ty::Array(e, n) => Some(self.leaves(e, target)? * n),
            Ty::Struct(i) => {
                let def = self.m.types.structs.get(*i)?;
                let mut n = 0;
                for (k, f) in def.fields.iter().enumerate() {
                    let bits = def.bitfields.iter().filter(|b| b.field == k as u32).count();
                    n += if bits > 0 {
                        bits as u32
                    } else {
                        self.leaves(&f.ty, target)?
                    };
                }
                Some(n)
            }
            // A resource (in a struct held as its pointer) is one value.
            Ty::Resource(..) if t.is_resource() => Some(1),
            _ if target => None,
            _ => Some(1),
        }
    }

    /// Whether a value of type `from` may be cast to `to`: a vector to one no wider; where
    /// one of them is a struct or an array, a scalar is splatted, otherwise DXC's flat
    /// conversion takes the source's scalars in order and needs at least as many as the
    /// target has.
    pub(super) fn casts(&self, from: &Ty, to: &Ty) -> bool {
        let aggregate = |t: &Ty| matches!(t, Ty::Struct(_) | Ty::Array(..));
        // A cast does not widen a vector.
        if let (Ty::Vector(_, n), Ty::Vector(_, m)) = (from, to) {
            return m <= n;
        }
        if from == to || !(aggregate(from) || aggregate(to)) || from.is_resource() {
            return true;
        }
        if matches!(from, Ty::Scalar(_)) {
            return true;
        }
        match (self.leaves(from, true), self.leaves(to, true)) {
            (Some(have), Some(need)) => have >= need,
            _ => false,
        }
    }
}
