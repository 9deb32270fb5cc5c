//! The arguments each intrinsic takes: how many, and the shapes and component types its
//! definition needs, reported with DXC's (or spvkit's refusal) words before any type is
//! given to the call.

use super::{Lowerer, Ty};
use crate::hlsl::ast::Expr;
use crate::hlsl::sema::intrinsics::{lookup, Intrinsic};
use crate::hlsl::sema::rules;
use crate::hlsl::sema::types::Scalar;

impl Lowerer<'_> {
    /// Whether the intrinsic `name` (a known one) takes `args`, of types `tys`, at `site`;
    /// reports why not.
    pub(super) fn intrinsic_args(
        &mut self,
        site: &Expr,
        name: &str,
        args: &[Expr],
        tys: &[Ty],
    ) -> bool {
        match self.intrinsic_args_error(name, args, tys) {
            None => true,
            Some(why) => {
                self.report(site.span, why);
                false
            }
        }
    }

    /// Which of `args` are untyped literals (float or integer ones).
    fn lits(&self, args: &[Expr]) -> Vec<Option<bool>> {
        args.iter().map(|a| self.lit(a)).collect()
    }

    fn intrinsic_args_error(&self, name: &str, args: &[Expr], tys: &[Ty]) -> Option<String> {
        let (lo, hi, component_wise) = match lookup(name)? {
            Intrinsic::ComponentWise(c) => (c.args, c.args, true),
            Intrinsic::Special(lo, hi) => (lo, hi, false),
        };
        let n = tys.len();
        if n < lo || n > hi {
            return Some(format!(
                "wrong number of arguments to '{name}': expected {lo}, got {n}"
            ));
        }
        let numeric = component_wise
            || matches!(
                name,
                "dot" | "cross" | "length" | "normalize" | "distance" | "reflect" | "determinant"
            );
        if numeric {
            if let Some(t) = tys.iter().find(|t| !t.is_numeric()) {
                let t = self.m.types.show(t);
                return Some(format!("'{name}' needs numeric arguments, not '{t}'"));
            }
        }
        let first = tys.first()?;
        let component = first.component();
        match name {
            "countbits" | "reversebits" | "firstbithigh" | "firstbitlow" => {
                // firstbithigh takes a float as an `int`.
                let s = match component? {
                    Scalar::Float if name == "firstbithigh" => Scalar::Int,
                    s => s,
                };
                let counts = matches!(name, "countbits" | "reversebits");
                match (s.is_int(), s.bits()) {
                    (true, 16) if counts && matches!(first, Ty::Matrix(..)) => {
                        Some(format!("not supported yet: {name} of a matrix"))
                    }
                    (true, 16 | 64) if counts => None,
                    (true, 32) => None,
                    (true, 16) => Some(format!("not supported yet: {name} of 16-bit integers")),
                    _ => Some(format!("{name} needs a 32-bit integer argument")),
                }
            }
            "asuint" if n == 3 => (component != Some(Scalar::Double)).then(|| {
                let t = self.m.types.show(first);
                format!("asuint with three arguments splits doubles, not '{t}'")
            }),
            "asuint" | "asint" | "asfloat" | "asuint16" | "asint16" | "asfloat16" => {
                let bits = if name.ends_with("16") { 16 } else { 32 };
                let ok = component.is_some_and(|s| s.bits() == bits && s != Scalar::Bool);
                (!ok).then(|| format!("{name} needs a {bits}-bit numeric argument"))
            }
            "cross" => {
                let t = rules::args_common(tys, &self.lits(args))?;
                let float3 = matches!(t, Ty::Vector(s, 3) if !s.is_float() || matches!(s, Scalar::Float | Scalar::Half));
                (!float3).then(|| "cross needs float3 arguments".to_owned())
            }
            "length" | "normalize" => {
                matches!(rules::args_common(tys, &self.lits(args))?, Ty::Matrix(..))
                    .then(|| format!("{name} needs a vector argument"))
            }
            "dot" => matches!(rules::args_common(tys, &self.lits(args))?, Ty::Matrix(..))
                .then(|| "dot needs vector arguments".to_owned()),
            "pack_s8" | "pack_u8" | "pack_clamp_s8" | "pack_clamp_u8" => {
                let t = self.m.types.show(first);
                match first {
                    Ty::Vector(s, 4) if s.is_int() && s.bits() <= 32 => {
                        (name.starts_with("pack_clamp") && !s.is_signed()).then(|| {
                            format!("'{name}' takes signed integers (int16_t4 or int4), not '{t}'")
                        })
                    }
                    _ => Some(format!(
                        "'{name}' takes four 16- or 32-bit integers, not '{t}'"
                    )),
                }
            }
            // DXC's bitwise wave operations take unsigned integers only.
            "WaveActiveBitAnd"
            | "WaveActiveBitOr"
            | "WaveActiveBitXor"
            | "WaveMultiPrefixBitAnd"
            | "WaveMultiPrefixBitOr"
            | "WaveMultiPrefixBitXor" => {
                let ok = component.is_some_and(|s| s.is_int() && !s.is_signed());
                (!ok).then(|| {
                    let t = self.m.types.show(first);
                    format!("{name} needs unsigned integer arguments, not '{t}'")
                })
            }
            "determinant" => match first {
                Ty::Matrix(_, r, c) if r == c => None,
                _ => Some("determinant needs a square matrix".to_owned()),
            },
            "transpose" => match first {
                Ty::Matrix(..) | Ty::Scalar(_) | Ty::Vector(..) => None,
                _ => Some("transpose needs a matrix".to_owned()),
            },
            _ => None,
        }
    }
}
