//! Wave and quad intrinsics (shader model 6.0 and later) as DXC lowers them: the
//! `OpGroupNonUniform*` instructions with Subgroup scope, and the built-ins `SubgroupSize`,
//! `SubgroupLocalInvocationId`, `NumSubgroups` and `SubgroupId` (one Input variable each,
//! created on first use). They need SPIR-V 1.3: on a Vulkan 1.0 target DXC refuses them with
//! "Vulkan 1.1 is required for Wave Operation", and so does this module. `IsHelperLane` is
//! here too, as it reads the same kind of built-in state.
//!
//! The capabilities (`GroupNonUniform`, `...Vote`, `...Ballot`, `...Arithmetic`,
//! `...Shuffle`, `...Quad`) follow from the instructions: the requirements pass
//! (`crate::opt::update_vce`) declares them.

use super::func::FnCx;
use super::Val;
use crate::grammar::{BuiltIn, Decoration, GroupOperation, Scope, StorageClass};
use crate::hlsl::ast::Expr;
use crate::hlsl::sema::types::{Scalar, Ty};
use crate::hlsl::source::Span;
use crate::hlsl::Stage;
use crate::ir::{GlobalVariable, Handle, Value};

/// The arithmetic of `WaveActive*` / `WavePrefix*` reductions.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Arith {
    Sum,
    Product,
    Min,
    Max,
    BitAnd,
    BitOr,
    BitXor,
}

impl FnCx<'_, '_> {
    /// The Subgroup scope constant.
    fn subgroup(&mut self) -> Value {
        self.u32c(Scope::Subgroup as u32)
    }

    /// The Input variable of the built-in `bi` of type `ty` (created on first use, named as
    /// DXC names it, `Flat` in a pixel shader when it is an integer, as DXC decorates it).
    pub(super) fn builtin_input(
        &mut self,
        bi: BuiltIn,
        ty: &Ty,
        name: &str,
    ) -> Handle<GlobalVariable> {
        if let Some((_, g)) = self.st.builtins.iter().find(|(b, _)| *b == bi) {
            return *g;
        }
        let t = self.ty(ty);
        let p = self.f.type_pointer(StorageClass::Input, t);
        let mut decorations = vec![Decoration::BuiltIn(bi)];
        if self.st.opts.profile.stage == Stage::Pixel && ty.component().is_some_and(|s| s.is_int())
        {
            decorations.push(Decoration::Flat);
        }
        let g = self.f.global(GlobalVariable {
            name: Some(name.to_owned()),
            decorations,
            ..GlobalVariable::new(p, StorageClass::Input)
        });
        if bi != BuiltIn::HelperInvocation {
            // The subgroup built-ins are also Kernel's: declaring GroupNonUniform makes the
            // requirements pass keep that one, as DXC declares it.
            self.f
                .capability(crate::grammar::Capability::GroupNonUniform);
        }
        self.st.builtins.push((bi, g));
        self.st.interface.push(g);
        g
    }

    /// Loads a `uint` built-in.
    fn load_builtin_uint(&mut self, bi: BuiltIn, name: &str) -> Val {
        let ty = Ty::Scalar(Scalar::UInt);
        let g = self.builtin_input(bi, &ty, name);
        let t = self.ty(&ty);
        Val::R(self.f.load(t, Value::Global(g), None), ty)
    }

    /// A `bool` argument (converted as HLSL converts to `bool`).
    fn bool_arg(&mut self, name: &str, e: &Expr, span: Span) -> Option<Value> {
        let (v, t) = self.rvalue(e)?;
        if !matches!(t, Ty::Scalar(_)) {
            self.st.error(
                span,
                format!(
                    "{name} needs a bool scalar argument, not '{}'",
                    self.show(&t)
                ),
            );
            return None;
        }
        self.convert(v, &t, &Ty::Scalar(Scalar::Bool), span)
    }

    /// A numeric scalar or vector argument (matrices are refused: DXC's lowering of them is not
    /// reproduced here).
    fn wave_value(
        &mut self,
        name: &str,
        e: &Expr,
        span: Span,
        numeric: bool,
    ) -> Option<(Value, Ty)> {
        let (v, t) = self.rvalue(e)?;
        match &t {
            Ty::Scalar(s) | Ty::Vector(s, _) if !numeric || *s != Scalar::Bool => Some((v, t)),
            Ty::Matrix(..) => {
                self.st
                    .error(span, format!("not supported yet: {name} of a matrix"));
                None
            }
            _ => {
                self.st.error(
                    span,
                    format!(
                        "{name} needs a numeric scalar or vector, not '{}'",
                        self.show(&t)
                    ),
                );
                None
            }
        }
    }

    /// A wave, quad or helper-lane intrinsic.
    pub(super) fn wave_intrinsic(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Val> {
        if name == "IsHelperLane" {
            return self.is_helper_lane();
        }
        let bool_t = Ty::Scalar(Scalar::Bool);
        let uint_t = Ty::Scalar(Scalar::UInt);
        match name {
            "WaveGetLaneCount" => {
                Some(self.load_builtin_uint(BuiltIn::SubgroupSize, "SubgroupSize"))
            }
            "WaveGetLaneIndex" => Some(self.load_builtin_uint(
                BuiltIn::SubgroupLocalInvocationId,
                "SubgroupLocalInvocationId",
            )),
            "GetGroupWaveCount" | "GetGroupWaveIndex" => Some(if name == "GetGroupWaveCount" {
                self.load_builtin_uint(BuiltIn::NumSubgroups, "NumSubgroups")
            } else {
                self.load_builtin_uint(BuiltIn::SubgroupId, "SubgroupId")
            }),
            "WaveIsFirstLane" => {
                let sc = self.subgroup();
                let t = self.ty(&bool_t);
                Some(Val::R(self.f.group_non_uniform_elect(t, sc), bool_t))
            }
            "WaveActiveAnyTrue" | "WaveActiveAllTrue" => {
                let b = self.bool_arg(name, &args[0], span)?;
                let sc = self.subgroup();
                let t = self.ty(&bool_t);
                let r = if name == "WaveActiveAnyTrue" {
                    self.f.group_non_uniform_any(t, sc, b)
                } else {
                    self.f.group_non_uniform_all(t, sc, b)
                };
                Some(Val::R(r, bool_t))
            }
            "WaveActiveBallot" | "WaveActiveCountBits" | "WavePrefixCountBits" => {
                let b = self.bool_arg(name, &args[0], span)?;
                let sc = self.subgroup();
                let u4 = Ty::Vector(Scalar::UInt, 4);
                let t4 = self.ty(&u4);
                let ballot = self.f.group_non_uniform_ballot(t4, sc, b);
                if name == "WaveActiveBallot" {
                    return Some(Val::R(ballot, u4));
                }
                let op = if name == "WaveActiveCountBits" {
                    GroupOperation::Reduce
                } else {
                    GroupOperation::ExclusiveScan
                };
                let t = self.ty(&uint_t);
                let sc = self.subgroup();
                Some(Val::R(
                    self.f.group_non_uniform_ballot_bit_count(t, sc, op, ballot),
                    uint_t,
                ))
            }
            "WaveActiveAllEqual" => self.wave_all_equal(&args[0]),
            "WaveReadLaneFirst" => {
                let (v, t) = self.wave_value(name, &args[0], span, false)?;
                let sc = self.subgroup();
                let it = self.ty(&t);
                Some(Val::R(
                    self.f.group_non_uniform_broadcast_first(it, sc, v),
                    t,
                ))
            }
            "WaveReadLaneAt" => {
                let (v, t) = self.wave_value(name, &args[0], span, false)?;
                let lane = self.rvalue_as(&args[1], &uint_t)?;
                let sc = self.subgroup();
                let it = self.ty(&t);
                Some(Val::R(self.f.group_non_uniform_shuffle(it, sc, v, lane), t))
            }
            "WaveActiveSum" | "WaveActiveProduct" | "WaveActiveMin" | "WaveActiveMax"
            | "WaveActiveBitAnd" | "WaveActiveBitOr" | "WaveActiveBitXor" | "WavePrefixSum"
            | "WavePrefixProduct" => {
                let arith = match name {
                    "WaveActiveSum" | "WavePrefixSum" => Arith::Sum,
                    "WaveActiveProduct" | "WavePrefixProduct" => Arith::Product,
                    "WaveActiveMin" => Arith::Min,
                    "WaveActiveMax" => Arith::Max,
                    "WaveActiveBitAnd" => Arith::BitAnd,
                    "WaveActiveBitOr" => Arith::BitOr,
                    _ => Arith::BitXor,
                };
                let op = if name.starts_with("WavePrefix") {
                    GroupOperation::ExclusiveScan
                } else {
                    GroupOperation::Reduce
                };
                let (v, t) = self.wave_value(name, &args[0], span, true)?;
                self.wave_arith(name, arith, (op, None), v, t, span)
            }
            "WaveMatch" => {
                // OpGroupNonUniformPartitionNV (PartitionEXT in newer grammars; one opcode,
                // reached by its opcode so both grammars build it).
                let (v, _) = self.wave_value(name, &args[0], span, false)?;
                let u4 = Ty::Vector(Scalar::UInt, 4);
                let t4 = self.ty(&u4);
                let opcode = crate::grammar::op::GroupNonUniformPartitionNV;
                let Some(r) = self.push_by_opcode(opcode, t4, &[v]) else {
                    self.st
                        .error(span, "internal: OpGroupNonUniformPartition does not decode");
                    return None;
                };
                Some(Val::R(r, u4))
            }
            "WaveMultiPrefixSum"
            | "WaveMultiPrefixProduct"
            | "WaveMultiPrefixBitAnd"
            | "WaveMultiPrefixBitOr"
            | "WaveMultiPrefixBitXor" => {
                let arith = match name {
                    "WaveMultiPrefixSum" => Arith::Sum,
                    "WaveMultiPrefixProduct" => Arith::Product,
                    "WaveMultiPrefixBitAnd" => Arith::BitAnd,
                    "WaveMultiPrefixBitOr" => Arith::BitOr,
                    _ => Arith::BitXor,
                };
                let (v, t) = self.wave_value(name, &args[0], span, true)?;
                let mask = self.rvalue_as(&args[1], &Ty::Vector(Scalar::UInt, 4))?;
                let op = GroupOperation::PartitionedExclusiveScanNV;
                self.wave_arith(name, arith, (op, Some(mask)), v, t, span)
            }
            "QuadReadLaneAt"
            | "QuadReadAcrossX"
            | "QuadReadAcrossY"
            | "QuadReadAcrossDiagonal"
            | "QuadAny"
            | "QuadAll" => {
                if matches!(name, "QuadAny" | "QuadAll") {
                    return self.quad_any_all(name == "QuadAny", &args[0]);
                }
                let (v, t) = self.wave_value(name, &args[0], span, false)?;
                let it = self.ty(&t);
                if name == "QuadReadLaneAt" {
                    let idx = self.rvalue_as(&args[1], &uint_t)?;
                    if self.const_of(idx).is_none() {
                        self.st.error(
                            span,
                            "not supported yet: QuadReadLaneAt with a lane index that is not a \
                             constant",
                        );
                        return None;
                    }
                    let sc = self.subgroup();
                    return Some(Val::R(
                        self.f.group_non_uniform_quad_broadcast(it, sc, v, idx),
                        t,
                    ));
                }
                let dir = match name {
                    "QuadReadAcrossX" => 0,
                    "QuadReadAcrossY" => 1,
                    _ => 2,
                };
                let d = self.u32c(dir);
                let sc = self.subgroup();
                Some(Val::R(self.f.group_non_uniform_quad_swap(it, sc, v, d), t))
            }
            _ => {
                self.st
                    .error(span, format!("not supported yet: the intrinsic '{name}'"));
                None
            }
        }
    }

    /// `QuadAny(b)` / `QuadAll(b)` (shader model 6.7): `b` or'ed (and'ed) with its value in
    /// each other lane of the quad, read by `OpGroupNonUniformQuadSwap` in the three
    /// directions: DXC's form without SPV_KHR_quad_control (newer than the bundled grammar).
    fn quad_any_all(&mut self, any: bool, arg: &Expr) -> Option<Val> {
        let bool_t = Ty::Scalar(Scalar::Bool);
        let v = self.rvalue_as(arg, &bool_t)?;
        let bt = self.ty(&bool_t);
        let mut acc = v;
        for dir in 0..3 {
            let d = self.u32c(dir);
            let sc = self.subgroup();
            let other = self.f.group_non_uniform_quad_swap(bt, sc, v, d);
            acc = if any {
                self.f.logical_or(bt, acc, other)
            } else {
                self.f.logical_and(bt, acc, other)
            };
        }
        Some(Val::R(acc, bool_t))
    }

    /// `WaveActiveAllEqual`: `OpGroupNonUniformAllEqual` of each component (each element of a
    /// matrix, row by row), the answers composed into a `bool` of the argument's shape, as DXC.
    fn wave_all_equal(&mut self, arg: &Expr) -> Option<Val> {
        let (v, t) = self.rvalue(arg)?;
        let bool_t = Ty::Scalar(Scalar::Bool);
        let bt = self.ty(&bool_t);
        let Some(s) = t.component() else {
            self.st.error(
                arg.span,
                format!(
                    "WaveActiveAllEqual needs a numeric argument, not '{}'",
                    self.show(&t)
                ),
            );
            return None;
        };
        let st = self.ty(&Ty::Scalar(s));
        let all_equal = |cx: &mut Self, x: Value| {
            let sc = cx.subgroup();
            cx.f.group_non_uniform_all_equal(bt, sc, x)
        };
        let r = match t {
            Ty::Scalar(_) => all_equal(self, v),
            Ty::Vector(_, n) => {
                let parts: Vec<Value> = (0..n)
                    .map(|i| {
                        let x = self.f.composite_extract(st, v, vec![i]);
                        all_equal(self, x)
                    })
                    .collect();
                let vt = self.ty(&Ty::Vector(Scalar::Bool, n));
                self.f.composite_construct(vt, &parts)
            }
            Ty::Matrix(_, r, c) => {
                let rt = self.ty(&Ty::Vector(s, c));
                let brt = self.ty(&Ty::Vector(Scalar::Bool, c));
                let rows: Vec<Value> = (0..r)
                    .map(|i| {
                        let row = self.f.composite_extract(rt, v, vec![i]);
                        let parts: Vec<Value> = (0..c)
                            .map(|j| {
                                let x = self.f.composite_extract(st, row, vec![j]);
                                all_equal(self, x)
                            })
                            .collect();
                        self.f.composite_construct(brt, &parts)
                    })
                    .collect();
                let mt = self.ty(&Ty::matrix(Scalar::Bool, r, c));
                self.f.composite_construct(mt, &rows)
            }
            _ => return None,
        };
        Some(Val::R(r, t.with_component(Scalar::Bool)))
    }

    /// A reduction or exclusive scan: `OpGroupNonUniform{I,F}{Add,Mul}`, `{S,U,F}{Min,Max}`
    /// or `Bitwise{And,Or,Xor}` by the component kind, as DXC picks them; `op` is the group
    /// operation and, for a partitioned one, the partition's ballot (`WaveMultiPrefix*`'s mask,
    /// in the ClusterSize operand's place).
    fn wave_arith(
        &mut self,
        name: &str,
        arith: Arith,
        (op, mask): (GroupOperation, Option<Value>),
        v: Value,
        t: Ty,
        span: Span,
    ) -> Option<Val> {
        let s = t.component()?;
        let bitwise = matches!(arith, Arith::BitAnd | Arith::BitOr | Arith::BitXor);
        if bitwise && (!s.is_int() || s.is_signed()) {
            // DXC's WaveActiveBit* take unsigned integers only.
            self.st.error(
                span,
                format!(
                    "{name} needs unsigned integer arguments, not '{}'",
                    self.show(&t)
                ),
            );
            return None;
        }
        let it = self.ty(&t);
        let sc = self.subgroup();
        let f = s.is_float();
        let r = match arith {
            Arith::Sum if f => self.f.group_non_uniform_f_add(it, sc, op, v, mask),
            Arith::Sum => self.f.group_non_uniform_i_add(it, sc, op, v, mask),
            Arith::Product if f => self.f.group_non_uniform_f_mul(it, sc, op, v, mask),
            Arith::Product => self.f.group_non_uniform_i_mul(it, sc, op, v, mask),
            Arith::Min if f => self.f.group_non_uniform_f_min(it, sc, op, v, mask),
            Arith::Min if s.is_signed() => self.f.group_non_uniform_s_min(it, sc, op, v, mask),
            Arith::Min => self.f.group_non_uniform_u_min(it, sc, op, v, mask),
            Arith::Max if f => self.f.group_non_uniform_f_max(it, sc, op, v, mask),
            Arith::Max if s.is_signed() => self.f.group_non_uniform_s_max(it, sc, op, v, mask),
            Arith::Max => self.f.group_non_uniform_u_max(it, sc, op, v, mask),
            Arith::BitAnd => self.f.group_non_uniform_bitwise_and(it, sc, op, v, mask),
            Arith::BitOr => self.f.group_non_uniform_bitwise_or(it, sc, op, v, mask),
            Arith::BitXor => self.f.group_non_uniform_bitwise_xor(it, sc, op, v, mask),
        };
        Some(Val::R(r, t))
    }

    /// `IsHelperLane()` in a pixel shader: the `HelperInvocation` built-in from SPIR-V 1.6
    /// (Vulkan 1.3), `OpIsHelperInvocationEXT` before, as DXC.
    fn is_helper_lane(&mut self) -> Option<Val> {
        let bool_t = Ty::Scalar(Scalar::Bool);
        let t = self.ty(&bool_t);
        if self.st.opts.target_env.spirv_version() >= crate::grammar::Version(1, 6) {
            let g = self.builtin_input(BuiltIn::HelperInvocation, &bool_t, "gl_HelperInvocation");
            return Some(Val::R(self.f.load(t, Value::Global(g), None), bool_t));
        }
        // Offered, not forced: the requirements pass uses the extension rather than SPIR-V 1.6.
        self.f.extension("SPV_EXT_demote_to_helper_invocation");
        Some(Val::R(self.f.is_helper_invocation_ext(t), bool_t))
    }
}
