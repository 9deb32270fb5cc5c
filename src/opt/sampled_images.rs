//! Combined image samplers (spirv-opt's `--convert-to-sampled-image`): a texture and a sampler
//! declared at the same descriptor set and binding become one variable of the texture's
//! sampled-image type there. Why: HLSL has no combined image sampler, and
//! `[[vk::combinedImageSampler]]` pairs a texture and a sampler for APIs that bind them as one
//! descriptor (SDL's GPU API, engines ported from OpenGL).
//!
//! It runs on a legalized module, where every texture and sampler is loaded straight from its
//! variable: the texture's variable takes the sampled-image type, each load of it becomes
//! `OpImage` of a load of the combined value, and each `OpSampledImage` of the pair becomes the
//! combined value itself. The sampler then goes. A sampler used with another texture, or any
//! other way, has no variable left: that is an error naming it.

use super::replace::replace_uses;
use crate::grammar::{Decoration, Id, Instruction, OpImage, OpLoad, StorageClass};
use crate::ir::analysis::visit_operands;
use crate::ir::{Function, GlobalVariable, Handle, Module, Op, Type, Value};
use std::collections::{HashMap, HashSet};

/// Combines the texture and sampler at each `(set, binding)` of `places`.
pub fn combine(m: &mut Module, places: &[(u32, u32)]) -> Result<(), String> {
    let mut removed = HashSet::new();
    for &(set, binding) in places {
        let at = |g: &GlobalVariable| {
            g.storage_class == StorageClass::UniformConstant
                && g.decorations.contains(&Decoration::Binding(binding))
                && g.decorations.iter().any(|d| match d {
                    Decoration::DescriptorSet(s) => *s == set,
                    _ => false,
                })
        };
        let pointee = |g: &GlobalVariable| match m.types.get(g.ty) {
            Some(Type::Pointer { pointee, .. }) => Some(*pointee),
            _ => None,
        };
        let mut texture = None;
        let mut sampler = None;
        for (h, g) in m.globals.iter().filter(|(_, g)| at(g)) {
            match pointee(g).and_then(|p| m.types.get(p).map(|t| (p, t))) {
                Some((p, Type::Image(_))) => texture = Some((h, p)),
                Some((_, Type::Sampler)) => sampler = Some(h),
                _ => {}
            }
        }
        let Some((texture, image)) = texture else {
            // The texture went (nothing used it); a sampler left alone must be unused too.
            if let Some(s) = sampler.filter(|&s| used(m, s)) {
                return Err(format!(
                    "the sampler '{}' of a [[vk::combinedImageSampler]] pair is used without \
                     its texture",
                    m.globals[s].name.clone().unwrap_or_default()
                ));
            }
            removed.extend(sampler);
            continue;
        };
        let sampled = m.types.insert(Type::SampledImage { image });
        m.type_names
            .entry(sampled)
            .or_insert_with(|| "type.sampled.image".to_owned());
        let pointer = m.types.insert(Type::Pointer {
            storage_class: StorageClass::UniformConstant,
            pointee: sampled,
            stride: None,
        });
        m.globals[texture].ty = pointer;
        let handles: Vec<_> = m.functions.handles().collect();
        for fh in handles {
            let placeholder =
                Function::new(m.functions[fh].ty, crate::grammar::FunctionControl::None);
            let mut f = std::mem::replace(&mut m.functions[fh], placeholder);
            let combined = rewrite(m, &mut f, texture, sampler, sampled);
            m.functions[fh] = f;
            if !combined {
                let name =
                    |h: Handle<GlobalVariable>| m.globals[h].name.clone().unwrap_or_default();
                return Err(format!(
                    "the sampler '{}' of a [[vk::combinedImageSampler]] pair is used other \
                     than with its texture '{}' (it has no descriptor of its own)",
                    sampler.map(name).unwrap_or_default(),
                    name(texture)
                ));
            }
        }
        removed.extend(sampler);
    }
    let keep: Vec<bool> = m.globals.handles().map(|h| !removed.contains(&h)).collect();
    super::dead_variables::keep_only(m, &keep);
    // The sampler types and pointers nothing declares any more.
    super::dead_declarations::run(m);
    Ok(())
}

/// Whether a function uses `g`.
fn used(m: &Module, g: Handle<GlobalVariable>) -> bool {
    m.functions.iter().any(|(_, f)| {
        f.blocks.iter().any(|(_, b)| {
            let mut found = false;
            for &h in &b.ops {
                visit_operands(m, &f.ops[h].inst, &mut |v| found |= v == Value::Global(g));
            }
            found
        })
    })
}

/// Rewrites `f`'s loads of `texture` (now of the combined type `sampled`) and its sampled
/// images of `texture` with `sampler`; false when the sampler is used any other way.
fn rewrite(
    m: &Module,
    f: &mut Function,
    texture: Handle<GlobalVariable>,
    sampler: Option<Handle<GlobalVariable>>,
    sampled: Handle<Type>,
) -> bool {
    let is = |id: Id, g: Handle<GlobalVariable>| Value::from_id(id) == Some(Value::Global(g));
    // The texture's loads: a load of the combined value, then `OpImage` of it.
    let mut combined_of: HashMap<Value, Value> = HashMap::new();
    let blocks: Vec<_> = f.blocks.handles().collect();
    for &b in &blocks {
        let mut k = 0;
        while k < f.blocks[b].ops.len() {
            let h = f.blocks[b].ops[k];
            let texture_load = match &f.ops[h].inst {
                Instruction::Load(l) if is(l.pointer, texture) => Some((l.pointer, l.result_type)),
                _ => None,
            };
            if let Some((pointer, result_type)) = texture_load {
                {
                    let loc = f.ops[h].loc;
                    let load = f.ops.append(Op {
                        inst: Instruction::Load(OpLoad {
                            result_type: Value::Type(sampled).to_id(),
                            result_id: Id(0),
                            pointer,
                            memory_access: None,
                        }),
                        loc,
                        attrs: None,
                    });
                    if let Instruction::Load(l) = &mut f.ops[load].inst {
                        l.result_id = Value::Op(load).to_id();
                    }
                    f.ops[h].inst = Instruction::Image(OpImage {
                        result_type,
                        result_id: Value::Op(h).to_id(),
                        sampled_image: Value::Op(load).to_id(),
                    });
                    combined_of.insert(Value::Op(h), Value::Op(load));
                    f.blocks[b].ops.insert(k, load);
                    k += 1;
                }
            }
            k += 1;
        }
    }
    let Some(sampler) = sampler else {
        return true;
    };
    // The sampler's loads, and the sampled images of the pair.
    let mut sampler_loads: HashSet<Value> = HashSet::new();
    for &b in &blocks {
        for &h in &f.blocks[b].ops {
            if let Instruction::Load(l) = &f.ops[h].inst {
                if is(l.pointer, sampler) {
                    sampler_loads.insert(Value::Op(h));
                }
            }
        }
    }
    let mut forward: HashMap<Value, Value> = HashMap::new();
    for &b in &blocks {
        for &h in &f.blocks[b].ops {
            let Instruction::SampledImage(s) = &f.ops[h].inst else {
                continue;
            };
            let (Some(image), Some(with)) = (Value::from_id(s.image), Value::from_id(s.sampler))
            else {
                continue;
            };
            if !sampler_loads.contains(&with) {
                continue;
            }
            match combined_of.get(&image) {
                Some(&c) if Value::from_id(s.result_type) == Some(Value::Type(sampled)) => {
                    forward.insert(Value::Op(h), c);
                }
                _ => return false,
            }
        }
    }
    for (_, bl) in f.blocks.iter_mut() {
        bl.ops.retain(|h| {
            !forward.contains_key(&Value::Op(*h)) && !sampler_loads.contains(&Value::Op(*h))
        });
    }
    replace_uses(m, f, &forward);
    // Nothing else may use the sampler.
    let mut other = false;
    for (_, bl) in f.blocks.iter() {
        for &h in &bl.ops {
            visit_operands(m, &f.ops[h].inst, &mut |v| {
                other |= sampler_loads.contains(&v) || v == Value::Global(sampler);
            });
        }
        bl.terminator.visit_values(|v| {
            other |= sampler_loads.contains(&v) || v == Value::Global(sampler);
        });
    }
    !other
}
