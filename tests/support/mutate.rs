//! Deterministic mutations of valid modules, to probe a validator with near-miss inputs:
//! drop or swap instructions, change an id operand, a type's width or component count, a
//! storage class, an opcode, a decoration or index literal, a memory or execution model;
//! remove a capability or extension; break a merge; reuse a result id.
//!
//! Every mutant keeps a well-formed word stream (instruction word counts are rewritten), so
//! that what is probed is validation, not decoding. Randomness is a fixed xorshift stream
//! seeded by the module name and mutation number: the same corpus gives the same mutants.
#![allow(dead_code)]

use spvkit::binary::{encode_instruction, Decoder};
use spvkit::grammar::{Ids, Instruction, Opcode};

/// A small, reproducible pseudo-random stream (xorshift64*).
pub struct Rng(u64);

impl Rng {
    /// A stream seeded by text and a number.
    pub fn new(seed: &str, n: u64) -> Rng {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in seed.bytes().chain(n.to_le_bytes()) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        Rng(h | 1)
    }

    /// The next number.
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// One of `items`.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> Option<T> {
        if items.is_empty() {
            None
        } else {
            Some(items[self.below(items.len())])
        }
    }
}

/// The kinds of mutation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    DropInstruction,
    SwapInstructions,
    ChangeId,
    TypeWidth,
    DropCapability,
    BreakMerge,
    VectorSize,
    StorageClass,
    SwapOpcode,
    DecorationLiteral,
    CompositeIndex,
    DropExtension,
    Models,
    ReuseResultId,
    MoveInstruction,
    DuplicateInstruction,
    ChangeEnum,
    ChangeBranchTarget,
    DropLastWord,
}

impl Kind {
    /// Every kind, in the order mutations cycle through them.
    pub const ALL: [Kind; 19] = [
        Kind::DropInstruction,
        Kind::ChangeId,
        Kind::SwapInstructions,
        Kind::TypeWidth,
        Kind::DropCapability,
        Kind::BreakMerge,
        Kind::ChangeId,
        Kind::VectorSize,
        Kind::StorageClass,
        Kind::SwapOpcode,
        Kind::DecorationLiteral,
        Kind::CompositeIndex,
        Kind::Models,
        Kind::ReuseResultId,
        Kind::MoveInstruction,
        Kind::DuplicateInstruction,
        Kind::ChangeEnum,
        Kind::ChangeBranchTarget,
        Kind::DropLastWord,
    ];
}

/// A module split into instructions, with each one's typed form.
struct Split {
    header: Vec<u32>,
    insts: Vec<Vec<u32>>,
    typed: Vec<Instruction>,
}

fn split(words: &[u32]) -> Option<Split> {
    let mut d = Decoder::new(words).ok()?;
    let mut insts = Vec::new();
    let mut typed = Vec::new();
    while let Some(raw) = d.next_raw() {
        let raw = raw.ok()?;
        let t = d.decode(raw).ok()?;
        let mut w = Vec::with_capacity(raw.operands.len() + 1);
        w.push(((raw.operands.len() as u32 + 1) << 16) | u32::from(raw.opcode));
        w.extend_from_slice(raw.operands);
        insts.push(w);
        typed.push(t);
    }
    Some(Split {
        header: words[..5].to_vec(),
        insts,
        typed,
    })
}

fn join(s: &Split) -> Vec<u32> {
    let mut out = s.header.clone();
    for i in &s.insts {
        let mut i = i.clone();
        i[0] = ((i.len() as u32) << 16) | (i[0] & 0xffff);
        out.extend_from_slice(&i);
    }
    out
}

fn opcode(s: &Split, i: usize) -> Option<Opcode> {
    s.typed[i].opcode()
}

fn indices(s: &Split, f: impl Fn(Opcode) -> bool) -> Vec<usize> {
    (0..s.insts.len())
        .filter(|&i| opcode(s, i).is_some_and(&f))
        .collect()
}

/// Re-encodes instruction `i` from a changed typed form.
fn set_typed(s: &mut Split, i: usize, t: Instruction) -> bool {
    let mut w = Vec::new();
    if encode_instruction(&t, &mut w).is_err() {
        return false;
    }
    s.insts[i] = w;
    s.typed[i] = t;
    true
}

/// One mutation of `words` of the given kind; `None` when the kind does not apply or the
/// result would equal the input. The string says what was done.
pub fn mutate(words: &[u32], kind: Kind, rng: &mut Rng) -> Option<(Vec<u32>, String)> {
    let mut s = split(words)?;
    let n = s.insts.len();
    if n < 2 {
        return None;
    }
    let defined: Vec<u32> = s
        .typed
        .iter()
        .filter_map(|t| t.result_id().map(|i| i.0))
        .collect();
    let labels: Vec<u32> = s
        .typed
        .iter()
        .filter_map(|t| match t {
            Instruction::Label(l) => Some(l.result_id.0),
            _ => None,
        })
        .collect();
    let what = match kind {
        Kind::DropInstruction => {
            let i = rng.below(n);
            let name = opcode(&s, i).map_or("?".into(), |o| o.to_string());
            s.insts.remove(i);
            s.typed.remove(i);
            format!("drop instruction {i} ({name})")
        }
        Kind::SwapInstructions => {
            let i = rng.below(n - 1);
            s.insts.swap(i, i + 1);
            s.typed.swap(i, i + 1);
            format!("swap instructions {i} and {}", i + 1)
        }
        Kind::ChangeId => {
            let candidates: Vec<usize> = (0..n)
                .filter(|&i| {
                    let mut c = 0;
                    s.typed[i].visit_ids(&mut |_| c += 1);
                    c > usize::from(s.typed[i].result_id().is_some())
                })
                .collect();
            let i = rng.pick(&candidates)?;
            let mut t = s.typed[i].clone();
            let result_slot = t
                .result_id()
                .map(|_| usize::from(t.result_type().is_some()));
            let mut slots = Vec::new();
            let mut k = 0;
            t.visit_ids(&mut |_| {
                if Some(k) != result_slot {
                    slots.push(k);
                }
                k += 1;
            });
            let slot = rng.pick(&slots)?;
            let new = rng.pick(&defined)?;
            let mut k = 0;
            let mut old = 0;
            t.visit_ids_mut(&mut |id| {
                if k == slot {
                    old = id.0;
                    id.0 = new;
                }
                k += 1;
            });
            if old == new || !set_typed(&mut s, i, t) {
                return None;
            }
            format!("instruction {i}: id operand {slot} %{old} -> %{new}")
        }
        Kind::TypeWidth => {
            let c = indices(&s, |o| matches!(o, Opcode::TypeInt | Opcode::TypeFloat));
            let i = rng.pick(&c)?;
            let w = s.insts[i].get(2).copied()?;
            let choices: &[u32] = if opcode(&s, i) == Some(Opcode::TypeInt) {
                &[8, 16, 32]
            } else {
                &[16, 32]
            };
            if w > 32 {
                return None;
            }
            let new = rng.pick(choices)?;
            if new == w {
                return None;
            }
            s.insts[i][2] = new;
            format!("instruction {i}: width {w} -> {new}")
        }
        Kind::DropCapability => {
            let c = indices(&s, |o| o == Opcode::Capability);
            let i = rng.pick(&c)?;
            let cap = match &s.typed[i] {
                Instruction::Capability(c) => c.capability.name(),
                _ => "?",
            };
            s.insts.remove(i);
            s.typed.remove(i);
            format!("drop OpCapability {cap}")
        }
        Kind::DropExtension => {
            let c = indices(&s, |o| o == Opcode::Extension);
            let i = rng.pick(&c)?;
            s.insts.remove(i);
            s.typed.remove(i);
            format!("drop extension instruction {i}")
        }
        Kind::BreakMerge => {
            let c = indices(&s, |o| {
                matches!(o, Opcode::SelectionMerge | Opcode::LoopMerge)
            });
            let i = rng.pick(&c)?;
            if rng.below(3) == 0 {
                s.insts.remove(i);
                s.typed.remove(i);
                format!("drop merge instruction {i}")
            } else {
                let new = rng.pick(&labels)?;
                let slot = if opcode(&s, i) == Some(Opcode::LoopMerge) {
                    1 + rng.below(2)
                } else {
                    1
                };
                let old = s.insts[i][slot];
                if old == new {
                    return None;
                }
                s.insts[i][slot] = new;
                format!("instruction {i}: merge operand {slot} %{old} -> %{new}")
            }
        }
        Kind::VectorSize => {
            let c = indices(&s, |o| o == Opcode::TypeVector);
            let i = rng.pick(&c)?;
            let old = s.insts[i].get(3).copied()?;
            let new = rng.pick(&[2u32, 3, 4])?;
            if old == new {
                return None;
            }
            s.insts[i][3] = new;
            format!("instruction {i}: vector size {old} -> {new}")
        }
        Kind::StorageClass => {
            let c = indices(&s, |o| matches!(o, Opcode::Variable | Opcode::TypePointer));
            let i = rng.pick(&c)?;
            let slot = if opcode(&s, i) == Some(Opcode::Variable) {
                3
            } else {
                2
            };
            let old = s.insts[i].get(slot).copied()?;
            // Function, Private, Workgroup, Uniform, StorageBuffer, Input, Output,
            // CrossWorkgroup, UniformConstant, PushConstant, Generic.
            let new = rng.pick(&[7u32, 6, 4, 2, 12, 1, 3, 5, 0, 9, 8])?;
            if old == new {
                return None;
            }
            s.insts[i][slot] = new;
            format!("instruction {i}: storage class {old} -> {new}")
        }
        Kind::SwapOpcode => {
            use Opcode as O;
            const PAIRS: &[(Opcode, Opcode)] = &[
                (O::IAdd, O::FAdd),
                (O::ISub, O::FSub),
                (O::IMul, O::FMul),
                (O::UDiv, O::FDiv),
                (O::SDiv, O::FDiv),
                (O::IEqual, O::FOrdEqual),
                (O::INotEqual, O::FOrdNotEqual),
                (O::SLessThan, O::FOrdLessThan),
                (O::ULessThan, O::FOrdLessThan),
                (O::SGreaterThan, O::FOrdGreaterThan),
                (O::BitwiseAnd, O::LogicalAnd),
                (O::BitwiseOr, O::LogicalOr),
                (O::ConvertFToS, O::ConvertSToF),
                (O::ConvertFToU, O::ConvertUToF),
                (O::Load, O::CopyObject),
                (O::SNegate, O::FNegate),
                (O::ShiftLeftLogical, O::IAdd),
                (O::LogicalNot, O::Not),
            ];
            let c = indices(&s, |o| PAIRS.iter().any(|&(a, b)| a == o || b == o));
            let i = rng.pick(&c)?;
            let op = opcode(&s, i)?;
            let other: Vec<Opcode> = PAIRS
                .iter()
                .filter_map(|&(a, b)| {
                    if a == op {
                        Some(b)
                    } else if b == op {
                        Some(a)
                    } else {
                        None
                    }
                })
                .collect();
            let new = rng.pick(&other)?;
            s.insts[i][0] = (s.insts[i][0] & 0xffff_0000) | u32::from(new.value());
            format!("instruction {i}: {op} -> {new}")
        }
        Kind::DecorationLiteral => {
            // OpMemberDecorate Offset, OpDecorate ArrayStride / Location / Binding.
            let c: Vec<usize> = (0..n)
                .filter(|&i| match opcode(&s, i) {
                    Some(Opcode::MemberDecorate) => s.insts[i].get(3) == Some(&35),
                    Some(Opcode::Decorate) => {
                        matches!(s.insts[i].get(2), Some(&6) | Some(&30) | Some(&33))
                    }
                    _ => false,
                })
                .collect();
            let i = rng.pick(&c)?;
            let slot = s.insts[i].len() - 1;
            let old = s.insts[i][slot];
            let new = match rng.below(3) {
                0 => old + 4,
                1 => old.saturating_sub(4),
                _ => old + 1,
            };
            if old == new {
                return None;
            }
            s.insts[i][slot] = new;
            format!("instruction {i}: decoration literal {old} -> {new}")
        }
        Kind::CompositeIndex => {
            let c = indices(&s, |o| {
                matches!(o, Opcode::CompositeExtract | Opcode::CompositeInsert)
            });
            let i = rng.pick(&c)?;
            let first = if opcode(&s, i) == Some(Opcode::CompositeExtract) {
                4
            } else {
                5
            };
            let len = s.insts[i].len();
            if len <= first {
                return None;
            }
            let slot = first + rng.below(len - first);
            let old = s.insts[i][slot];
            let new = if rng.below(2) == 0 { old + 1 } else { old + 7 };
            s.insts[i][slot] = new;
            format!("instruction {i}: literal index {old} -> {new}")
        }
        Kind::Models => {
            let c = indices(&s, |o| {
                matches!(o, Opcode::MemoryModel | Opcode::EntryPoint)
            });
            let i = rng.pick(&c)?;
            if opcode(&s, i) == Some(Opcode::MemoryModel) {
                let slot = 1 + rng.below(2);
                let old = s.insts[i][slot];
                let new = if slot == 1 {
                    rng.pick(&[0u32, 1, 2, 5348])? // Logical, Physical32/64, PhysicalStorageBuffer64
                } else {
                    rng.pick(&[0u32, 1, 2, 3])? // Simple, GLSL450, OpenCL, Vulkan
                };
                if old == new {
                    return None;
                }
                s.insts[i][slot] = new;
                format!("memory model operand {slot}: {old} -> {new}")
            } else {
                let old = s.insts[i][1];
                let new = rng.pick(&[0u32, 1, 3, 4, 5, 6])?; // Vertex..GLCompute, Kernel
                if old == new {
                    return None;
                }
                s.insts[i][1] = new;
                format!("execution model {old} -> {new}")
            }
        }
        Kind::ReuseResultId => {
            let c: Vec<usize> = (0..n)
                .filter(|&i| s.typed[i].result_id().is_some())
                .collect();
            let i = rng.pick(&c)?;
            let new = rng.pick(&defined)?;
            let mut t = s.typed[i].clone();
            let has_type = t.result_type().is_some();
            let mut k = 0;
            let mut old = 0;
            t.visit_ids_mut(&mut |id| {
                if k == usize::from(has_type) {
                    old = id.0;
                    id.0 = new;
                }
                k += 1;
            });
            if old == new || !set_typed(&mut s, i, t) {
                return None;
            }
            format!("instruction {i}: result id %{old} -> %{new}")
        }
        Kind::MoveInstruction => {
            let i = rng.below(n);
            let j = rng.below(n);
            if i == j {
                return None;
            }
            let w = s.insts.remove(i);
            let t = s.typed.remove(i);
            s.insts.insert(j, w);
            s.typed.insert(j, t);
            format!("move instruction {i} to {j}")
        }
        Kind::DuplicateInstruction => {
            let i = rng.below(n);
            let j = rng.below(n + 1);
            s.insts.insert(j, s.insts[i].clone());
            s.typed.insert(j, s.typed[i].clone());
            format!("copy instruction {i} to {j}")
        }
        Kind::ChangeEnum => {
            // The first value-enum operand word of an instruction, per the grammar tables.
            use spvkit::grammar::{tables::core_instruction, KindClass};
            let c: Vec<(usize, usize, &'static spvkit::grammar::KindDesc)> = (0..n)
                .filter_map(|i| {
                    let desc = core_instruction(s.insts[i][0] as u16)?;
                    let mut pos = 1;
                    for o in desc.operands {
                        match o.kind.class {
                            KindClass::ValueEnum => return Some((i, pos, o.kind)),
                            KindClass::Id
                            | KindClass::ResultType
                            | KindClass::Result
                            | KindClass::Integer => pos += 1,
                            _ => return None,
                        }
                    }
                    None
                })
                .filter(|&(i, pos, _)| pos < s.insts[i].len())
                .collect();
            let (i, pos, kind) = rng.pick(&c)?;
            let e = kind
                .enumerants
                .get(rng.below(kind.enumerants.len().max(1)))?;
            let old = s.insts[i][pos];
            if e.value == old || !e.parameters.is_empty() {
                return None;
            }
            s.insts[i][pos] = e.value;
            format!(
                "instruction {i}: {} {old} -> {} ({})",
                kind.name, e.value, e.name
            )
        }
        Kind::ChangeBranchTarget => {
            let c = indices(&s, |o| {
                matches!(o, Opcode::Branch | Opcode::BranchConditional)
            });
            let i = rng.pick(&c)?;
            let slot = if opcode(&s, i) == Some(Opcode::Branch) {
                1
            } else {
                2 + rng.below(2)
            };
            let new = rng.pick(&labels)?;
            let old = *s.insts[i].get(slot)?;
            if old == new {
                return None;
            }
            s.insts[i][slot] = new;
            format!("instruction {i}: branch target %{old} -> %{new}")
        }
        Kind::DropLastWord => {
            let c: Vec<usize> = (0..n).filter(|&i| s.insts[i].len() > 2).collect();
            let i = rng.pick(&c)?;
            s.insts[i].pop();
            format!("instruction {i}: drop the last word")
        }
    };
    let out = join(&s);
    if out == words {
        return None;
    }
    Some((out, what))
}
