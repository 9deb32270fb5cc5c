//! Constants and global variables: integers, floats, vectors, arrays, structs, null, undef
//! and poison as uniqued IR constants; global variables with their storage class from the
//! address space, initializers, alignment, `Constant` decoration and linkage; builtin
//! variables (`__spirv_BuiltIn*` globals) as decorated Input variables.

use super::error::{err, Result};
use super::module::{State, Val};
use super::read;
use super::types::storage_class;
use crate::grammar::{BuiltIn, Decoration, LinkageType, LiteralNumber, StorageClass};
use crate::ir::{Builder, ConstantValue, GlobalVariable, Type, Value};
use inkwell::llvm_sys::core as llc;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::{LLVMLinkage, LLVMOpcode, LLVMValueKind as VK};

/// Whether a value is a constant this module turns into an IR constant (not a global or a
/// constant expression).
pub fn is_plain_constant(v: LLVMValueRef) -> bool {
    matches!(
        read::value_kind(v),
        VK::LLVMConstantIntValueKind
            | VK::LLVMConstantFPValueKind
            | VK::LLVMConstantAggregateZeroValueKind
            | VK::LLVMConstantDataArrayValueKind
            | VK::LLVMConstantDataVectorValueKind
            | VK::LLVMConstantArrayValueKind
            | VK::LLVMConstantStructValueKind
            | VK::LLVMConstantVectorValueKind
            | VK::LLVMUndefValueValueKind
            | VK::LLVMPoisonValueKind
            | VK::LLVMConstantPointerNullValueKind
            | VK::LLVMConstantTargetNoneValueKind
    )
}

/// An IR constant for an LLVM constant.
pub fn constant(st: &mut State, b: &mut Builder, v: LLVMValueRef) -> Result<Val> {
    let lt = read::type_of(v);
    let ty = st.ty(b, lt)?;
    let value = match read::value_kind(v) {
        VK::LLVMConstantIntValueKind => {
            // SAFETY: `v` is a ConstantInt.
            let x = unsafe { llc::LLVMConstIntGetZExtValue(v) };
            match b.module().types.get(ty) {
                Some(Type::Bool) => ConstantValue::Bool(x & 1 != 0),
                Some(Type::Int { width: 64, .. }) => {
                    ConstantValue::Scalar(LiteralNumber::DoubleWord(x))
                }
                Some(Type::Int { width, .. }) => {
                    let mask = if *width >= 32 {
                        u32::MAX
                    } else {
                        (1u32 << width) - 1
                    };
                    ConstantValue::Scalar(LiteralNumber::Word(x as u32 & mask))
                }
                _ => return err("an integer constant of a non-integer type"),
            }
        }
        VK::LLVMConstantFPValueKind => {
            let mut loses = 0;
            // SAFETY: `v` is a ConstantFP.
            let d = unsafe { llc::LLVMConstRealGetDouble(v, &mut loses) };
            match b.module().types.get(ty) {
                Some(Type::Float { width: 64 }) => {
                    ConstantValue::Scalar(LiteralNumber::DoubleWord(d.to_bits()))
                }
                Some(Type::Float { width: 32 }) => {
                    ConstantValue::Scalar(LiteralNumber::Word((d as f32).to_bits()))
                }
                Some(Type::Float { width: 16 }) => {
                    ConstantValue::Scalar(LiteralNumber::Word(f64_to_f16(d) as u32))
                }
                _ => return err("a float constant of an unsupported type"),
            }
        }
        // `target("spirv.Event") zeroinitializer` is a ConstantTargetNone.
        VK::LLVMConstantAggregateZeroValueKind
        | VK::LLVMConstantPointerNullValueKind
        | VK::LLVMConstantTargetNoneValueKind => ConstantValue::Null,
        VK::LLVMUndefValueValueKind | VK::LLVMPoisonValueKind => ConstantValue::Undef,
        VK::LLVMConstantDataArrayValueKind
        | VK::LLVMConstantDataVectorValueKind
        | VK::LLVMConstantArrayValueKind
        | VK::LLVMConstantStructValueKind
        | VK::LLVMConstantVectorValueKind => {
            let n = element_count(lt);
            let mut parts = Vec::with_capacity(n as usize);
            for i in 0..n {
                // SAFETY: `i` is below the aggregate's element count.
                let e = unsafe { llc::LLVMGetAggregateElement(v, i) };
                if e.is_null() {
                    return err("an aggregate constant element is missing");
                }
                let ev = if is_plain_constant(e) {
                    constant(st, b, e)?.v
                } else if let Some(g) = st.globals.get(&(e as usize)) {
                    g.v
                } else if is_null_cast(e) {
                    // `addrspacecast (ptr null to ptr addrspace(4))`: a null of the cast's type.
                    let et = st.ty(b, read::type_of(e))?;
                    Value::Constant(b.constant(et, ConstantValue::Null))
                } else if st.block_literal && is_function_address(e) {
                    // A global block literal's invoke function: SPIR-V has no function
                    // addresses, and OpEnqueueKernel names the invoke kernel itself, so the
                    // field is null (as llvm-spirv writes it).
                    let et = st.ty(b, read::type_of(e))?;
                    Value::Constant(b.constant(et, ConstantValue::Null))
                } else {
                    return err(format!(
                        "constant {} has no SPIR-V form inside an aggregate",
                        read::print(e)
                    ));
                };
                parts.push(ev);
            }
            ConstantValue::Composite(parts)
        }
        _ => return err(format!("constant {} has no SPIR-V form", read::print(v))),
    };
    let h = b.constant(ty, value);
    Ok(Val {
        v: Value::Constant(h),
        ty,
    })
}

/// Whether `v` is a pointer cast of a null pointer.
fn is_null_cast(v: LLVMValueRef) -> bool {
    read::value_kind(v) == VK::LLVMConstantExprValueKind
        && matches!(
            read::const_opcode(v),
            LLVMOpcode::LLVMAddrSpaceCast | LLVMOpcode::LLVMBitCast
        )
        && read::value_kind(read::operand(v, 0)) == VK::LLVMConstantPointerNullValueKind
}

/// Whether `v` is a function or a pointer cast of one.
fn is_function_address(v: LLVMValueRef) -> bool {
    match read::value_kind(v) {
        VK::LLVMFunctionValueKind => true,
        VK::LLVMConstantExprValueKind => {
            matches!(
                read::const_opcode(v),
                LLVMOpcode::LLVMAddrSpaceCast | LLVMOpcode::LLVMBitCast
            ) && is_function_address(read::operand(v, 0))
        }
        _ => false,
    }
}

fn element_count(t: LLVMTypeRef) -> u32 {
    use inkwell::llvm_sys::LLVMTypeKind as K;
    match read::type_kind(t) {
        K::LLVMVectorTypeKind => read::vector_size(t),
        K::LLVMArrayTypeKind => read::array_length(t) as u32,
        K::LLVMStructTypeKind => read::struct_members(t).len() as u32,
        _ => 0,
    }
}

/// IEEE half bits of a double (round to nearest even).
pub fn f64_to_f16(d: f64) -> u16 {
    let f = d as f32;
    let bits = f.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exp = ((bits >> 23) & 0xff) as i32;
    let man = bits & 0x7f_ffff;
    if exp == 0xff {
        return sign | 0x7c00 | if man != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        let m = man | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = 1u32 << (shift - 1);
        let mut r = m >> shift;
        let rem = m & ((1 << shift) - 1);
        if rem > half || (rem == half && r & 1 == 1) {
            r += 1;
        }
        return sign | r as u16;
    }
    let mut r = ((e as u32) << 10) | (man >> 13);
    let rem = man & 0x1fff;
    if rem > 0x1000 || (rem == 0x1000 && r & 1 == 1) {
        r += 1;
    }
    sign | r as u16
}

/// A global variable: a `__spirv_BuiltIn*` global becomes the builtin's Input variable; the
/// others keep their storage class, initializer, alignment and linkage.
pub fn global(st: &mut State, b: &mut Builder, g: LLVMValueRef) -> Result<()> {
    let name = read::name(g);
    if let Some(bi) = name.strip_prefix("__spirv_BuiltIn") {
        let Ok(builtin) = bi.parse::<BuiltIn>() else {
            return err(format!("unknown builtin variable {name}"));
        };
        let v = st.builtin(b, builtin);
        st.globals.insert(g as usize, v);
        return Ok(());
    }
    if name.starts_with("llvm.") {
        return Ok(());
    }
    let lt = read::type_of(g);
    let sc = storage_class(read::address_space(lt))?;
    if sc == StorageClass::Function {
        // As SPIRV-LLVM-Translator: no module-scope variable has Function storage, and
        // choosing another storage class would change who shares the variable.
        return err(format!(
            "global @{name} is in address space 0 (private), which SPIR-V has no \
             module-scope form for: give it an address space (1 global, 2 constant, 3 local)"
        ));
    }
    // SAFETY: `g` is a global variable.
    let value_t = unsafe { llc::LLVMGlobalGetValueType(g) };
    // SAFETY: `g` is a global variable.
    let init_global = unsafe { llc::LLVMGetInitializer(g) };
    // A global initialized with another's address (`@c = global ptr addrspace(1) @a`) holds a
    // pointer to that global's type: SPIR-V takes the variable itself as the initializer.
    let address_of = (!init_global.is_null())
        .then(|| st.globals.get(&(init_global as usize)).copied())
        .flatten();
    let pointee = match address_of {
        Some(target) => target.ty,
        None => st.ty(b, value_t)?,
    };
    let pty = b.type_pointer(sc, pointee);
    // SAFETY: `g` is a global variable.
    let (init, is_const, align, linkage) = unsafe {
        (
            llc::LLVMGetInitializer(g),
            llc::LLVMIsGlobalConstant(g) != 0,
            llc::LLVMGetAlignment(g),
            llc::LLVMGetLinkage(g),
        )
    };
    let mut decorations = Vec::new();
    if is_const && sc != StorageClass::Workgroup {
        decorations.push(Decoration::Constant);
    }
    if align > 0 {
        decorations.push(Decoration::Alignment(align));
    }
    let initializer = if init.is_null() || sc == StorageClass::Workgroup {
        if init.is_null() && !name.is_empty() && sc != StorageClass::Workgroup {
            decorations.push(Decoration::LinkageAttributes(
                name.clone(),
                LinkageType::Import,
            ));
        }
        None
    } else if let Some(target) = address_of {
        Some(target.v)
    } else if is_plain_constant(init) {
        // Clang's global blocks (`__block_literal_global`, `__block_literal_global.1`, ...).
        st.block_literal = name.starts_with("__block_literal_global");
        let c = constant(st, b, init);
        st.block_literal = false;
        let c = c?;
        let undef = matches!(c.v, Value::Constant(h)
            if matches!(b.module().constants.get(h).map(|c| &c.value), Some(ConstantValue::Undef)));
        if undef {
            None
        } else {
            Some(c.v)
        }
    } else {
        return err(format!(
            "the initializer of global @{name} ({}) has no SPIR-V form",
            read::print(init)
        ));
    };
    if linkage == LLVMLinkage::LLVMExternalLinkage && initializer.is_some() {
        decorations.push(Decoration::LinkageAttributes(
            name.clone(),
            LinkageType::Export,
        ));
    }
    let h = b.global(GlobalVariable {
        name: if name.is_empty() { None } else { Some(name) },
        initializer,
        decorations,
        ..GlobalVariable::new(pty, sc)
    });
    st.globals.insert(
        g as usize,
        Val {
            v: Value::Global(h),
            ty: pty,
        },
    );
    Ok(())
}
