//! Moves a `Logical GLSL450` module to the Vulkan memory model, as spirv-opt's
//! `--upgrade-memory-model` (and DXC's `-fspv-use-vulkan-memory-model`) do: `Coherent` and
//! `Volatile` variables lose their decorations and every load, store, image read and image
//! write through them says so in its operands instead (`NonPrivatePointer` with
//! `MakePointerVisible`/`MakePointerAvailable` at queue-family scope, `Volatile`);
//! `Workgroup` memory is coherent at workgroup scope; `Device` scopes become `QueueFamily`,
//! the Vulkan model's scope for what GLSL450 called device memory.

use crate::binary::{decode_operands, encode_operands, OperandReader, TypeTracker};
use crate::grammar::tables::core_instruction;
use crate::grammar::{
    Decoration, Id, ImageOperands, ImageOperandsArgs, Instruction, LiteralNumber, MemoryAccess,
    MemoryAccessArgs, MemoryModel, Scope, StorageClass,
};
use crate::ir::{self, Constant, ConstantValue, Handle, Type, Value};

/// Why a module cannot be moved to the Vulkan memory model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoryModelError(pub String);

impl core::fmt::Display for MemoryModelError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.0)
    }
}

/// What a pointer's memory is, for the operands its accesses need.
#[derive(Clone, Copy, Default)]
struct Access {
    /// The scope at which it is coherent, if it is.
    coherent: Option<Scope>,
    volatile: bool,
}

/// Upgrades `module` to the Vulkan memory model; a module already in another model than
/// `GLSL450` is left as it is. Member decorations `Coherent`/`Volatile` and `OpCopyMemory`
/// through such memory are refused (spvkit does not write them).
pub fn upgrade_memory_model(module: &mut ir::Module) -> Result<(), MemoryModelError> {
    if module.memory_model != MemoryModel::GLSL450 {
        return Ok(());
    }
    let marked = |d: &Decoration| matches!(d, Decoration::Coherent | Decoration::Volatile);
    for (_, t) in module.types.iter() {
        if let Type::Struct(s) = t {
            if s.members.iter().any(|m| m.decorations.iter().any(marked)) {
                return Err(MemoryModelError(
                    "not supported yet: Coherent or Volatile struct members in the Vulkan memory \
                     model"
                        .into(),
                ));
            }
        }
    }
    let uint = module.types.insert(Type::Int {
        width: 32,
        signed: false,
    });
    let scope_constant = |module: &mut ir::Module, s: Scope| -> Id {
        let c = Constant::new(uint, ConstantValue::Scalar(LiteralNumber::Word(s.value())));
        Value::Constant(module.constants.insert(c)).to_id()
    };
    let queue_family = scope_constant(module, Scope::QueueFamily);
    let workgroup = scope_constant(module, Scope::Workgroup);
    let globals: Vec<Access> = module
        .globals
        .iter()
        .map(|(_, g)| Access {
            coherent: if g.storage_class == StorageClass::Workgroup {
                Some(Scope::Workgroup)
            } else if g.decorations.contains(&Decoration::Coherent) {
                Some(Scope::QueueFamily)
            } else {
                None
            },
            volatile: g.decorations.contains(&Decoration::Volatile),
        })
        .collect();
    let scope_id = |s: Scope| {
        if s == Scope::Workgroup {
            workgroup
        } else {
            queue_family
        }
    };
    let device: Vec<Id> = module
        .constants
        .iter()
        .filter(|(_, c)| {
            matches!(module.types.get(c.ty), Some(Type::Int { width: 32, .. }))
                && c.value == ConstantValue::Scalar(LiteralNumber::Word(Scope::Device.value()))
        })
        .map(|(h, _)| Value::Constant(h).to_id())
        .collect();
    let types = TypeTracker::new(0);
    for (_, f) in module.functions.iter_mut() {
        let handles: Vec<Handle<ir::Op>> = f.ops.iter().map(|(h, _)| h).collect();
        for h in handles {
            let access = |v: Id| pointer_access(f, &globals, v);
            let inst = &f.ops[h].inst;
            let upgraded = match inst {
                Instruction::Load(op) => {
                    let a = access(op.pointer);
                    let mut op = op.clone();
                    op.memory_access = memory_access(op.memory_access, a, true, scope_id);
                    Some(Instruction::Load(op))
                }
                Instruction::Store(op) => {
                    let a = access(op.pointer);
                    let mut op = op.clone();
                    op.memory_access = memory_access(op.memory_access, a, false, scope_id);
                    Some(Instruction::Store(op))
                }
                Instruction::ImageRead(op) => {
                    let a = access(op.image);
                    let mut op = op.clone();
                    op.image_operands = image_operands(op.image_operands, a, true, scope_id);
                    Some(Instruction::ImageRead(op))
                }
                Instruction::ImageSparseRead(op) => {
                    let a = access(op.image);
                    let mut op = op.clone();
                    op.image_operands = image_operands(op.image_operands, a, true, scope_id);
                    Some(Instruction::ImageSparseRead(op))
                }
                Instruction::ImageWrite(op) => {
                    let a = access(op.image);
                    let mut op = op.clone();
                    op.image_operands = image_operands(op.image_operands, a, false, scope_id);
                    Some(Instruction::ImageWrite(op))
                }
                Instruction::CopyMemory(op) => {
                    let (t, s) = (access(op.target), access(op.source));
                    if t.coherent.is_some() || t.volatile || s.coherent.is_some() || s.volatile {
                        return Err(MemoryModelError(
                            "not supported yet: OpCopyMemory of coherent or volatile memory in \
                             the Vulkan memory model"
                                .into(),
                        ));
                    }
                    None
                }
                inst => device_to_queue_family(inst, &device, queue_family, &types),
            };
            if let Some(new) = upgraded {
                f.ops[h].inst = new;
            }
        }
    }
    for (_, g) in module.globals.iter_mut() {
        g.decorations.retain(|d| !marked(d));
    }
    module.memory_model = MemoryModel::Vulkan;
    // The capability (and, before SPIR-V 1.5, the extension) follow from the memory model:
    // the requirements pass adds them.
    Ok(())
}

/// What the memory `pointer` (or image) points into is: traced back through access chains,
/// copies, texel pointers and image loads to its variable.
fn pointer_access(f: &ir::Function, globals: &[Access], pointer: Id) -> Access {
    let mut v = Value::from_id(pointer);
    for _ in 0..64 {
        match v {
            Some(Value::Global(g)) => return globals.get(g.index()).copied().unwrap_or_default(),
            Some(Value::Op(h)) => {
                let next = match f.ops.get(h).map(|o| &o.inst) {
                    Some(Instruction::AccessChain(op)) => op.base,
                    Some(Instruction::InBoundsAccessChain(op)) => op.base,
                    Some(Instruction::PtrAccessChain(op)) => op.base,
                    Some(Instruction::CopyObject(op)) => op.operand,
                    Some(Instruction::ImageTexelPointer(op)) => op.image,
                    Some(Instruction::Load(op)) => op.pointer,
                    Some(Instruction::SampledImage(op)) => op.image,
                    Some(Instruction::Image(op)) => op.sampled_image,
                    _ => return Access::default(),
                };
                v = Value::from_id(next);
            }
            _ => return Access::default(),
        }
    }
    Access::default()
}

/// A load's (`read`) or store's memory operands for memory `a`.
fn memory_access(
    old: Option<MemoryAccessArgs>,
    a: Access,
    read: bool,
    scope_id: impl Fn(Scope) -> Id,
) -> Option<MemoryAccessArgs> {
    if a.coherent.is_none() && !a.volatile {
        return old;
    }
    let mut m = old.unwrap_or_default();
    if let Some(s) = a.coherent {
        m.mask |= MemoryAccess::NonPrivatePointer;
        if read {
            m.mask |= MemoryAccess::MakePointerVisible;
            m.make_pointer_visible = Some(scope_id(s));
        } else {
            m.mask |= MemoryAccess::MakePointerAvailable;
            m.make_pointer_available = Some(scope_id(s));
        }
    }
    if a.volatile {
        m.mask |= MemoryAccess::Volatile;
    }
    Some(m)
}

/// An image read's (`read`) or write's image operands for image memory `a`.
fn image_operands(
    old: Option<ImageOperandsArgs>,
    a: Access,
    read: bool,
    scope_id: impl Fn(Scope) -> Id,
) -> Option<ImageOperandsArgs> {
    if a.coherent.is_none() && !a.volatile {
        return old;
    }
    let mut m = old.unwrap_or_default();
    if let Some(s) = a.coherent {
        m.mask |= ImageOperands::NonPrivateTexel;
        if read {
            m.mask |= ImageOperands::MakeTexelVisible;
            m.make_texel_visible = Some(scope_id(s));
        } else {
            m.mask |= ImageOperands::MakeTexelAvailable;
            m.make_texel_available = Some(scope_id(s));
        }
    }
    if a.volatile {
        m.mask |= ImageOperands::VolatileTexel;
    }
    Some(m)
}

/// `inst` with every `Device` scope operand (atomics, barriers) made `QueueFamily`; `None`
/// when it has none. The operands are found from the grammar's descriptors, so every
/// instruction with a scope is covered.
fn device_to_queue_family(
    inst: &Instruction,
    device: &[Id],
    queue_family: Id,
    types: &TypeTracker,
) -> Option<Instruction> {
    let desc = core_instruction(inst.opcode_value())?;
    if device.is_empty() || !desc.operands.iter().any(|o| o.kind.name == "IdScope") {
        return None;
    }
    let mut words = Vec::new();
    encode_operands(inst, &mut words);
    let mut changed = false;
    crate::ir::operands::walk(desc.operands, &words.clone(), 1, &mut |kind, range| {
        if kind.name == "IdScope" {
            for w in &mut words[range] {
                if device.contains(&Id(*w)) {
                    *w = queue_family.0;
                    changed = true;
                }
            }
        }
    });
    if !changed {
        return None;
    }
    let mut r = OperandReader::new(&words, 0, u32::MAX, types);
    decode_operands(inst.opcode_value(), &mut r).ok()
}
