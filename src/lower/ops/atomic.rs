//! Atomics: `atomicrmw` and `cmpxchg`, atomic loads and stores, with LLVM orderings from the
//! memory-semantics operand (Acquire, Release, AcquireRelease, SequentiallyConsistent; none:
//! monotonic), weakened where LLVM forbids an ordering (a load cannot release, a store cannot
//! acquire, a failure ordering neither releases).

use super::super::error::{LowerError, Result};
use super::super::function::FnCx;
use super::super::Lowerer;
use crate::grammar::{Id, Instruction};
use crate::ir::Op;
use inkwell::types::BasicTypeEnum;
use inkwell::values::{BasicValue, BasicValueEnum, PointerValue};
use inkwell::{AtomicOrdering as A, AtomicRMWBinOp as R};

/// The ordering a memory-semantics mask asks for.
pub(crate) fn ordering(semantics: u64) -> A {
    use crate::grammar::MemorySemantics as M;
    let has = |m: M| semantics & u64::from(m.0) != 0;
    if has(M::SequentiallyConsistent) {
        A::SequentiallyConsistent
    } else if has(M::AcquireRelease) || (has(M::Acquire) && has(M::Release)) {
        A::AcquireRelease
    } else if has(M::Acquire) {
        A::Acquire
    } else if has(M::Release) {
        A::Release
    } else {
        A::Monotonic
    }
}

fn for_load(o: A) -> A {
    match o {
        A::Release => A::Monotonic,
        A::AcquireRelease => A::Acquire,
        o => o,
    }
}

fn for_store(o: A) -> A {
    match o {
        A::Acquire => A::Monotonic,
        A::AcquireRelease => A::Release,
        o => o,
    }
}

impl<'a, 'ctx> Lowerer<'a, 'ctx> {
    fn atomic_ptr(&mut self, fx: &mut FnCx<'_, 'ctx>, id: Id) -> Result<PointerValue<'ctx>> {
        match self.id(fx, id)? {
            BasicValueEnum::PointerValue(p) => Ok(p),
            _ => Err(LowerError::malformed("an atomic on a non-pointer")),
        }
    }

    fn rmw(
        &mut self,
        fx: &mut FnCx<'_, 'ctx>,
        op: R,
        ptr: Id,
        sem: Id,
        value: Option<Id>,
        r: BasicTypeEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>> {
        let p = self.atomic_ptr(fx, ptr)?;
        let o = ordering(self.const_operand(fx, sem)?);
        let v = match value {
            Some(v) => self.id(fx, v)?,
            None => r.into_int_type().const_int(1, false).into(),
        };
        let BasicValueEnum::IntValue(v) = v else {
            return Err(LowerError::unsupported("a non-integer atomic operation"));
        };
        Ok(self.b.build_atomicrmw(op, p, v, o)?.into())
    }
}

/// Lowers an atomic op.
pub(crate) fn lower<'a, 'ctx>(
    l: &mut Lowerer<'a, 'ctx>,
    fx: &mut FnCx<'_, 'ctx>,
    op: &Op,
    result: Option<BasicTypeEnum<'ctx>>,
) -> Result<Option<BasicValueEnum<'ctx>>> {
    use Instruction as I;
    let r = || result.ok_or_else(|| LowerError::malformed("an atomic without a result type"));
    let int = |t: BasicTypeEnum<'ctx>| -> Result<BasicTypeEnum<'ctx>> {
        if t.is_int_type() {
            Ok(t)
        } else {
            Err(LowerError::unsupported("a non-integer atomic operation"))
        }
    };
    Ok(Some(match &op.inst {
        I::AtomicLoad(a) => {
            let p = l.atomic_ptr(fx, a.pointer)?;
            let o = for_load(ordering(l.const_operand(fx, a.semantics)?));
            let t = r()?;
            let v = l.b.build_load(t, p, "")?;
            if let Some(i) = v.as_instruction_value() {
                i.set_atomic_ordering(o)
                    .map_err(|e| LowerError::malformed(format!("atomic load: {e}")))?;
                let align = l.td.get_abi_size(&t) as u32;
                if align.is_power_of_two() {
                    let _ = i.set_alignment(align);
                }
            }
            v
        }
        I::AtomicStore(a) => {
            let p = l.atomic_ptr(fx, a.pointer)?;
            let o = for_store(ordering(l.const_operand(fx, a.semantics)?));
            let v = l.id(fx, a.value)?;
            let i = l.b.build_store(p, v)?;
            i.set_atomic_ordering(o)
                .map_err(|e| LowerError::malformed(format!("atomic store: {e}")))?;
            let align = l.td.get_abi_size(&v.get_type()) as u32;
            if align.is_power_of_two() {
                let _ = i.set_alignment(align);
            }
            return Ok(None);
        }
        I::AtomicExchange(a) if r()?.is_float_type() => {
            // A float exchange is the exchange of its bits.
            let ft = r()?.into_float_type();
            let it = match l.td.get_bit_size(&ft) {
                16 => l.cx.i16_type(),
                32 => l.cx.i32_type(),
                64 => l.cx.i64_type(),
                _ => return Err(LowerError::unsupported("an exchange of this float width")),
            };
            let p = l.atomic_ptr(fx, a.pointer)?;
            let o = ordering(l.const_operand(fx, a.semantics)?);
            let BasicValueEnum::FloatValue(v) = l.id(fx, a.value)? else {
                return Err(LowerError::malformed("a float exchange of a non-float"));
            };
            let bits = l.b.build_bit_cast(v, it, "")?.into_int_value();
            let old = l.b.build_atomicrmw(R::Xchg, p, bits, o)?;
            l.b.build_bit_cast(old, ft, "")?
        }
        I::AtomicExchange(a) => l.rmw(
            fx,
            R::Xchg,
            a.pointer,
            a.semantics,
            Some(a.value),
            int(r()?)?,
        )?,
        I::AtomicIAdd(a) => l.rmw(
            fx,
            R::Add,
            a.pointer,
            a.semantics,
            Some(a.value),
            int(r()?)?,
        )?,
        I::AtomicISub(a) => l.rmw(
            fx,
            R::Sub,
            a.pointer,
            a.semantics,
            Some(a.value),
            int(r()?)?,
        )?,
        I::AtomicSMin(a) => l.rmw(
            fx,
            R::Min,
            a.pointer,
            a.semantics,
            Some(a.value),
            int(r()?)?,
        )?,
        I::AtomicUMin(a) => l.rmw(
            fx,
            R::UMin,
            a.pointer,
            a.semantics,
            Some(a.value),
            int(r()?)?,
        )?,
        I::AtomicSMax(a) => l.rmw(
            fx,
            R::Max,
            a.pointer,
            a.semantics,
            Some(a.value),
            int(r()?)?,
        )?,
        I::AtomicUMax(a) => l.rmw(
            fx,
            R::UMax,
            a.pointer,
            a.semantics,
            Some(a.value),
            int(r()?)?,
        )?,
        I::AtomicAnd(a) => l.rmw(
            fx,
            R::And,
            a.pointer,
            a.semantics,
            Some(a.value),
            int(r()?)?,
        )?,
        I::AtomicOr(a) => l.rmw(fx, R::Or, a.pointer, a.semantics, Some(a.value), int(r()?)?)?,
        I::AtomicXor(a) => l.rmw(
            fx,
            R::Xor,
            a.pointer,
            a.semantics,
            Some(a.value),
            int(r()?)?,
        )?,
        I::AtomicIIncrement(a) => l.rmw(fx, R::Add, a.pointer, a.semantics, None, int(r()?)?)?,
        I::AtomicIDecrement(a) => l.rmw(fx, R::Sub, a.pointer, a.semantics, None, int(r()?)?)?,
        I::AtomicCompareExchange(crate::grammar::OpAtomicCompareExchange {
            pointer,
            equal,
            unequal,
            value,
            comparator,
            ..
        })
        | I::AtomicCompareExchangeWeak(crate::grammar::OpAtomicCompareExchangeWeak {
            pointer,
            equal,
            unequal,
            value,
            comparator,
            ..
        }) => {
            let p = l.atomic_ptr(fx, *pointer)?;
            let mut success = ordering(l.const_operand(fx, *equal)?);
            let failure = for_load(ordering(l.const_operand(fx, *unequal)?));
            if success == A::Monotonic && failure != A::Monotonic {
                success = failure;
            }
            let v = l.id(fx, *value)?;
            let c = l.id(fx, *comparator)?;
            if !v.is_int_value() || v.get_type() != c.get_type() {
                return Err(LowerError::unsupported("a non-integer compare-exchange"));
            }
            let s = l.b.build_cmpxchg(p, c, v, success, failure)?;
            l.b.build_extract_value(s, 0, "")?
        }
        I::AtomicFlagTestAndSet(a) => {
            let p = l.atomic_ptr(fx, a.pointer)?;
            let o = ordering(l.const_operand(fx, a.semantics)?);
            let i32t = l.cx.i32_type();
            let old =
                l.b.build_atomicrmw(R::Xchg, p, i32t.const_int(1, false), o)?;
            l.b.build_int_compare(inkwell::IntPredicate::NE, old, i32t.const_zero(), "")?
                .into()
        }
        I::AtomicFlagClear(a) => {
            let p = l.atomic_ptr(fx, a.pointer)?;
            let o = for_store(ordering(l.const_operand(fx, a.semantics)?));
            let i = l.b.build_store(p, l.cx.i32_type().const_zero())?;
            i.set_atomic_ordering(o)
                .map_err(|e| LowerError::malformed(format!("atomic store: {e}")))?;
            let _ = i.set_alignment(4);
            return Ok(None);
        }
        I::AtomicFAddEXT(a) => float_rmw(l, fx, FloatRmw::Add, a.pointer, a.semantics, a.value)?,
        I::AtomicFMinEXT(a) => float_rmw(l, fx, FloatRmw::Min, a.pointer, a.semantics, a.value)?,
        I::AtomicFMaxEXT(a) => float_rmw(l, fx, FloatRmw::Max, a.pointer, a.semantics, a.value)?,
        _ => return Err(LowerError::unsupported("this atomic op")),
    }))
}

/// A floating-point read-modify-write.
#[derive(Clone, Copy)]
enum FloatRmw {
    Add,
    Min,
    Max,
}

/// `atomicrmw fadd/fmin/fmax` (inkwell builds integer ones only).
fn float_rmw<'a, 'ctx>(
    l: &mut Lowerer<'a, 'ctx>,
    fx: &mut FnCx<'_, 'ctx>,
    op: FloatRmw,
    ptr: Id,
    sem: Id,
    value: Id,
) -> Result<BasicValueEnum<'ctx>> {
    use inkwell::llvm_sys::LLVMAtomicRMWBinOp as B;
    use inkwell::values::AsValueRef;
    let p = l.atomic_ptr(fx, ptr)?;
    let o = ordering(l.const_operand(fx, sem)?);
    let v = l.id(fx, value)?;
    if !v.is_float_value() {
        return Err(LowerError::malformed("a float atomic of a non-float"));
    }
    if l.b.get_insert_block().is_none() {
        return Err(LowerError::malformed("no insertion point"));
    }
    let bin = match op {
        FloatRmw::Add => B::LLVMAtomicRMWBinOpFAdd,
        FloatRmw::Min => B::LLVMAtomicRMWBinOpFMin,
        FloatRmw::Max => B::LLVMAtomicRMWBinOpFMax,
    };
    // SAFETY: a positioned builder, a pointer and a float value of this context.
    let r = unsafe {
        inkwell::llvm_sys::core::LLVMBuildAtomicRMW(
            l.b.as_mut_ptr(),
            bin,
            p.as_value_ref(),
            v.as_value_ref(),
            o.into(),
            0,
        )
    };
    // SAFETY: LLVMBuildAtomicRMW returns the old value, of the float's type.
    Ok(unsafe { BasicValueEnum::new(r) })
}
