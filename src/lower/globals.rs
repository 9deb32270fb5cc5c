//! Global variables, placed as `docs/lowering-abi.md` says: Private and Workgroup variables at
//! offsets of per-invocation and per-workgroup blocks (with initial images), descriptor-bound
//! resources in slots of `ctx.resources`, the push-constant block at `ctx.push_constants`,
//! builtins loaded from context fields, and the rest (OpenCL program-scope variables) as LLVM
//! globals.

use super::error::{LowerError, Result};
use super::interface::{MemoryBlock, ResourceSlot};
use super::Lowerer;
use crate::grammar::{BuiltIn, Decoration, StorageClass};
use crate::ir::{ConstantValue, GlobalVariable, Handle, SpecValue, Type, Value};
use crate::lower::abi::offsets;
use inkwell::values::GlobalValue;

/// Where a global variable lives.
#[derive(Clone, Copy, Debug)]
pub enum Place<'ctx> {
    /// In the block at the context field `field` (`PRIVATE_MEMORY` or `WORKGROUP_MEMORY`), at
    /// `offset`.
    Block {
        /// The context field holding the block pointer.
        field: u64,
        /// The byte offset in the block.
        offset: u64,
    },
    /// `ctx.resources[slot]`.
    Resource(u32),
    /// An array of blocks (`buffer B { ... } b[4];`): element `i` is `ctx.resources[first + i]`.
    ResourceArray {
        /// The slot of element 0.
        first: u32,
        /// The element count.
        count: u32,
    },
    /// `ctx.push_constants`.
    PushConstant,
    /// A builtin, materialized per function from the context.
    BuiltIn(BuiltIn),
    /// An LLVM global.
    Global(GlobalValue<'ctx>),
}

/// Module-wide placement of every global.
#[derive(Default)]
pub struct Placement<'ctx> {
    /// Per global, in arena order.
    pub places: Vec<Option<Place<'ctx>>>,
    /// The resource slots, in slot order.
    pub resources: Vec<ResourceSlot>,
    /// The Private block.
    pub private: MemoryBlock,
    /// The Workgroup block.
    pub workgroup: MemoryBlock,
    /// The push-constant block's size, if any.
    pub push_constant_size: Option<u64>,
}

/// The largest Private or Workgroup block the lowering lays out (its initial image is held
/// in memory).
const MAX_BLOCK: u64 = 1 << 30;

fn builtin_of(g: &GlobalVariable) -> Option<BuiltIn> {
    g.decorations.iter().find_map(|d| match d {
        Decoration::BuiltIn(b) => Some(*b),
        _ => None,
    })
}

fn decoration_u32(g: &GlobalVariable, f: impl Fn(&Decoration) -> Option<u32>) -> Option<u32> {
    g.decorations.iter().find_map(f)
}

impl<'a, 'ctx> Lowerer<'a, 'ctx> {
    /// Places every global variable.
    pub(crate) fn place_globals(&mut self) -> Result<()> {
        // (set, binding, variable, array element count: None for a single block).
        let mut resources: Vec<(u32, u32, Handle<GlobalVariable>, Option<u32>)> = Vec::new();
        let mut private = MemoryBlock {
            align: 16,
            ..MemoryBlock::default()
        };
        let mut workgroup = private.clone();
        let mut places = vec![None; self.m.globals.len()];
        for (h, g) in self.m.globals.iter() {
            let name = g.name.clone().unwrap_or_default();
            let goff = self.offsets.and_then(|o| o.global(h));
            let at = |e: LowerError| e.at(&format!("OpVariable {name}"), goff);
            let pointee = match self.spv_type(g.ty).map_err(at)? {
                Type::Pointer { pointee, .. } => *pointee,
                _ => return Err(at(LowerError::malformed("a variable of non-pointer type"))),
            };
            let place = if let Some(b) = builtin_of(g) {
                Place::BuiltIn(b)
            } else {
                match g.storage_class {
                    StorageClass::Private
                    | StorageClass::Input
                    | StorageClass::Output
                    | StorageClass::Workgroup => {
                        let block = if g.storage_class == StorageClass::Workgroup {
                            &mut workgroup
                        } else {
                            &mut private
                        };
                        let info = self.ty(pointee).map_err(at)?;
                        let size = info.size.ok_or_else(|| {
                            at(LowerError::unsupported(
                                "a runtime-sized Private/Workgroup variable",
                            ))
                        })?;
                        let offset = block.size.div_ceil(info.align.max(1)) * info.align.max(1);
                        block.size = offset + size;
                        block.align = block.align.max(info.align);
                        let field = if g.storage_class == StorageClass::Workgroup {
                            offsets::WORKGROUP_MEMORY
                        } else {
                            offsets::PRIVATE_MEMORY
                        };
                        if block.size > MAX_BLOCK {
                            return Err(at(LowerError::unsupported(
                                "Private or Workgroup variables of more than 1 GiB",
                            )));
                        }
                        if let Some(init) = g.initializer {
                            let mut bytes = vec![0u8; size as usize];
                            self.const_bytes(init, pointee, &mut bytes).map_err(at)?;
                            let end = (offset + size) as usize;
                            if block.init.len() < end {
                                block.init.resize(end, 0);
                            }
                            block.init[offset as usize..end].copy_from_slice(&bytes);
                        }
                        Place::Block { field, offset }
                    }
                    StorageClass::StorageBuffer | StorageClass::Uniform => {
                        let count = self.block_array_count(pointee).map_err(at)?;
                        resources.push((self.set_of(g), self.binding_of(g), h, count));
                        Place::Resource(0)
                    }
                    StorageClass::UniformConstant
                        if g.initializer.is_none()
                            || g.decorations
                                .iter()
                                .any(|d| matches!(d, Decoration::Binding(_))) =>
                    {
                        resources.push((self.set_of(g), self.binding_of(g), h, None));
                        Place::Resource(0)
                    }
                    StorageClass::PushConstant => {
                        let info = self.ty(pointee).map_err(at)?;
                        self.push_constant_size = Some(info.size.unwrap_or(0));
                        Place::PushConstant
                    }
                    _ => {
                        let t = self.basic(pointee).map_err(at)?;
                        let gv = self
                            .llm
                            .add_global(t, None, &format!("spv.global.{}", h.index()));
                        gv.set_linkage(inkwell::module::Linkage::Internal);
                        let init = match g.initializer {
                            Some(v @ (Value::Constant(_) | Value::SpecConstant(_))) => {
                                self.module_value(v).map_err(at)?
                            }
                            // The address of an earlier program-scope variable.
                            Some(Value::Global(g2)) => {
                                match places.get(g2.index()) {
                                    Some(Some(Place::Global(gv2))) => gv2.as_pointer_value().into(),
                                    _ => return Err(at(LowerError::unsupported(
                                        "a variable initialized with the address of a variable \
                                         that is not a program-scope global",
                                    ))),
                                }
                            }
                            Some(_) => return Err(at(LowerError::malformed("a bad initializer"))),
                            None => super::llvm::null(t),
                        };
                        gv.set_initializer(&init);
                        if g.storage_class == StorageClass::UniformConstant {
                            gv.set_constant(true);
                        }
                        Place::Global(gv)
                    }
                }
            };
            places[h.index()] = Some(place);
        }
        resources.sort_by_key(|r| (r.0, r.1, r.2.index()));
        let mut slots = Vec::new();
        for &(set, binding, h, count) in &resources {
            let first = slots.len() as u32;
            let g = &self.m.globals[h];
            let pointee = match self.spv_type(g.ty)? {
                Type::Pointer { pointee, .. } => *pointee,
                _ => return Err(LowerError::malformed("a variable of non-pointer type")),
            };
            let block = match (count, self.spv_type(pointee)?) {
                (Some(_), Type::Array { element, .. }) => *element,
                _ => pointee,
            };
            let size = self.ty(block).ok().and_then(|t| t.size);
            for array_index in 0..count.unwrap_or(1) {
                slots.push(ResourceSlot {
                    set,
                    binding,
                    array_index,
                    storage_class: g.storage_class,
                    size_bytes: size,
                });
            }
            places[h.index()] = Some(match count {
                Some(count) => Place::ResourceArray { first, count },
                None => Place::Resource(first),
            });
        }
        if private.init.iter().all(|&b| b == 0) {
            private.init.clear();
        } else {
            private.init.resize(private.size as usize, 0);
        }
        if workgroup.init.iter().all(|&b| b == 0) {
            workgroup.init.clear();
        } else {
            workgroup.init.resize(workgroup.size as usize, 0);
        }
        self.placement = Placement {
            places,
            resources: slots,
            private,
            workgroup,
            push_constant_size: self.push_constant_size,
        };
        Ok(())
    }

    /// The element count of an array of blocks (a descriptor array), `None` for anything else.
    fn block_array_count(&self, pointee: Handle<Type>) -> Result<Option<u32>> {
        let Type::Array {
            element, length, ..
        } = self.spv_type(pointee)?
        else {
            return match self.spv_type(pointee)? {
                Type::RuntimeArray { element, .. }
                    if matches!(self.spv_type(*element)?, Type::Struct(_)) =>
                {
                    Err(LowerError::unsupported(
                        "a runtime-sized array of blocks (a descriptor array without a size)",
                    ))
                }
                _ => Ok(None),
            };
        };
        let Type::Struct(s) = self.spv_type(*element)? else {
            return Ok(None);
        };
        let is_block = s
            .decorations
            .iter()
            .any(|d| matches!(d, Decoration::Block | Decoration::BufferBlock));
        if !is_block {
            return Ok(None);
        }
        let n = match length {
            Value::Constant(c) => self.m.constants.get(*c).and_then(|c| match &c.value {
                ConstantValue::Scalar(n) => u32::try_from(n.low_u64()).ok(),
                _ => None,
            }),
            _ => None,
        };
        n.map(Some).ok_or_else(|| {
            LowerError::unsupported("an array of blocks whose length is not a constant")
        })
    }

    fn set_of(&self, g: &GlobalVariable) -> u32 {
        decoration_u32(g, |d| match d {
            Decoration::DescriptorSet(s) => Some(*s),
            _ => None,
        })
        .unwrap_or(0)
    }

    fn binding_of(&self, g: &GlobalVariable) -> u32 {
        decoration_u32(g, |d| match d {
            Decoration::Binding(s) => Some(*s),
            _ => None,
        })
        .unwrap_or(0)
    }

    /// Writes the bytes of constant `v` of type `ty` into `out` (as long as its size).
    pub(crate) fn const_bytes(&mut self, v: Value, ty: Handle<Type>, out: &mut [u8]) -> Result<()> {
        let parts: Vec<Value> = match v {
            Value::Constant(h) => {
                let c = self
                    .m
                    .constants
                    .get(h)
                    .ok_or_else(|| LowerError::malformed("constant out of range"))?;
                match &c.value {
                    ConstantValue::Bool(b) => return put(out, u64::from(*b), 1),
                    ConstantValue::Scalar(n) => {
                        let w = self.spv_type(ty)?.scalar_width().unwrap_or(32);
                        return put(out, n.low_u64(), (w / 8) as usize);
                    }
                    ConstantValue::Null | ConstantValue::Undef => return Ok(()),
                    ConstantValue::Composite(p) => p.clone(),
                    _ => return Err(LowerError::unsupported("this initializer")),
                }
            }
            Value::SpecConstant(h) => {
                let s = self
                    .m
                    .spec_constants
                    .get(h)
                    .ok_or_else(|| LowerError::malformed("spec constant out of range"))?;
                match &s.value {
                    SpecValue::Composite(p) => p.clone(),
                    _ => {
                        let c = self.module_value(v)?;
                        let bits = match c {
                            inkwell::values::BasicValueEnum::IntValue(i) => {
                                i.get_zero_extended_constant().unwrap_or(0)
                            }
                            inkwell::values::BasicValueEnum::FloatValue(f) => {
                                let (x, _) = f.get_constant().unwrap_or((0.0, false));
                                match self.spv_type(ty)?.scalar_width() {
                                    Some(64) => x.to_bits(),
                                    _ => u64::from((x as f32).to_bits()),
                                }
                            }
                            _ => 0,
                        };
                        let w = self.spv_type(ty)?.scalar_width().unwrap_or(8);
                        return put(out, bits, (w / 8).max(1) as usize);
                    }
                }
            }
            _ => {
                return Err(LowerError::unsupported(
                    "an initializer that is not a constant",
                ))
            }
        };
        let info = self.ty(ty)?;
        let t = self.spv_type(ty)?.clone();
        let elem_at = |this: &mut Self, i: usize, elem: Handle<Type>| -> Result<u64> {
            match info.llvm {
                Some(inkwell::types::BasicTypeEnum::StructType(st)) => {
                    let f = *info.fields.get(i).unwrap_or(&0);
                    Ok(this.td.offset_of_element(&st, f).unwrap_or(0))
                }
                Some(inkwell::types::BasicTypeEnum::ArrayType(at)) => {
                    Ok(this.td.get_abi_size(&at.get_element_type()) * i as u64)
                }
                _ => {
                    let e = this.ty(elem)?;
                    Ok(e.size.unwrap_or(0) * i as u64)
                }
            }
        };
        for (i, p) in parts.iter().enumerate() {
            let elem = match &t {
                Type::Vector { component, .. } => *component,
                Type::Matrix { column, .. } => *column,
                Type::Array { element, .. } | Type::RuntimeArray { element, .. } => *element,
                Type::Struct(s) => s
                    .members
                    .get(i)
                    .map(|m| m.ty)
                    .ok_or_else(|| LowerError::malformed("too many constituents"))?,
                _ => return Err(LowerError::malformed("a composite of a scalar type")),
            };
            let off = elem_at(self, i, elem)? as usize;
            if off <= out.len() {
                self.const_bytes(*p, elem, &mut out[off..])?;
            }
        }
        Ok(())
    }
}

fn put(out: &mut [u8], bits: u64, n: usize) -> Result<()> {
    let bytes = bits.to_le_bytes();
    let n = n.min(8).min(out.len());
    out[..n].copy_from_slice(&bytes[..n]);
    Ok(())
}
