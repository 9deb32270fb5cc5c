//! Operand structure from the grammar's descriptor tables: which operand words of an
//! instruction are ids, enumerants, literals or strings. The generated [`Ids`] visitor covers
//! every core instruction; this module adds the operands the generated structs keep as words:
//! those of `OpExtInst`, whose meaning depends on the imported set.

use super::module::ExtInstImport;
use crate::grammar::tables::EXT_INST_SETS;
use crate::grammar::{
    ExtInstSetDesc, Id, Ids, Instruction, InstructionDesc, KindClass, KindDesc, OperandDesc,
    Quantifier,
};
use core::ops::Range;

/// How to find the ids among an `OpExtInst`'s operand words.
#[derive(Clone, Copy, Debug)]
pub enum ExtOperands {
    /// Every operand is an id (non-semantic sets).
    AllIds,
    /// As the set's grammar says.
    Grammar(&'static InstructionDesc),
    /// The set or instruction is unknown: ids cannot be told from literals.
    Unknown,
}

impl ExtOperands {
    /// The operand structure of instruction `number` of an import.
    pub fn of(import: &ExtInstImport, number: u32) -> ExtOperands {
        ImportSet::of(import).operands(number)
    }

    /// Calls `f` with every operand word that is an id.
    pub fn visit_ids(&self, words: &[u32], f: &mut dyn FnMut(Id)) {
        match self {
            ExtOperands::AllIds => words.iter().for_each(|&w| f(Id(w))),
            ExtOperands::Grammar(desc) => {
                walk(desc.operands, words, 1, &mut |kind, range| {
                    if kind.class == KindClass::Id {
                        let ids = words.get(range).unwrap_or(&[]);
                        ids.iter().for_each(|&w| f(Id(w)));
                    }
                });
            }
            ExtOperands::Unknown => {}
        }
    }

    /// Calls `f` with a mutable reference to every operand word that is an id.
    pub fn visit_ids_mut(&self, words: &mut [u32], f: &mut dyn FnMut(&mut Id)) {
        let mut each = |w: &mut u32| {
            let mut id = Id(*w);
            f(&mut id);
            *w = id.0;
        };
        match self {
            ExtOperands::AllIds => words.iter_mut().for_each(&mut each),
            ExtOperands::Grammar(desc) => {
                let mut ids = Vec::new();
                walk(desc.operands, words, 1, &mut |kind, range| {
                    if kind.class == KindClass::Id {
                        ids.extend(range);
                    }
                });
                for i in ids {
                    if let Some(w) = words.get_mut(i) {
                        each(w);
                    }
                }
            }
            ExtOperands::Unknown => {}
        }
    }
}

/// An import's set, looked up once (for walks over many of its instructions; the lookup
/// compares set names).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ImportSet {
    set: Option<&'static ExtInstSetDesc>,
    non_semantic: bool,
}

impl ImportSet {
    /// The set of `import`.
    pub(crate) fn of(import: &ExtInstImport) -> Self {
        ImportSet {
            set: EXT_INST_SETS.iter().find(|s| s.name == import.name),
            non_semantic: import.is_non_semantic(),
        }
    }

    /// The operand structure of instruction `number`.
    pub(crate) fn operands(self, number: u32) -> ExtOperands {
        match self.set {
            _ if self.non_semantic => ExtOperands::AllIds,
            Some(s) => s
                .instruction(number)
                .map_or(ExtOperands::Unknown, ExtOperands::Grammar),
            None => ExtOperands::Unknown,
        }
    }
}

/// Calls `f` with every id of an instruction, mutably: the generated visitor, plus the id
/// operands of an `OpExtInst` as `ext` describes them (`ext` gets the set operand before `f`
/// sees it).
pub fn visit_ids_mut(
    inst: &mut Instruction,
    ext: impl FnOnce(Id, u32) -> ExtOperands,
    f: &mut dyn FnMut(&mut Id),
) {
    if let Instruction::ExtInst(op) = inst {
        let mode = ext(op.set, op.instruction);
        f(&mut op.result_type);
        f(&mut op.result_id);
        f(&mut op.set);
        mode.visit_ids_mut(&mut op.operands, f);
    } else {
        inst.visit_ids_mut(f);
    }
}

/// Walks operand words as the descriptors say, calling `f` with the kind and word range of
/// every operand (enumerant parameters and pair components included, after their operand).
/// `context_words` is the width of context-dependent literals. Returns the number of words
/// consumed; words left over when the descriptors run out are not reported.
pub fn walk(
    operands: &'static [OperandDesc],
    words: &[u32],
    context_words: usize,
    f: &mut dyn FnMut(&'static KindDesc, Range<usize>),
) -> usize {
    let mut pos = 0;
    for o in operands {
        match o.quantifier {
            Quantifier::One => pos = one(o.kind, words, pos, context_words, f),
            Quantifier::Optional => {
                if pos < words.len() {
                    pos = one(o.kind, words, pos, context_words, f)
                }
            }
            Quantifier::Many => {
                while pos < words.len() {
                    let before = pos;
                    pos = one(o.kind, words, pos, context_words, f);
                    if pos == before {
                        break;
                    }
                }
            }
        }
    }
    pos
}

/// Walks the words of one operand of `kind` (with its enumerant parameters), as [`walk`] does.
pub fn walk_kind(
    kind: &'static KindDesc,
    words: &[u32],
    f: &mut dyn FnMut(&'static KindDesc, Range<usize>),
) -> usize {
    one(kind, words, 0, 1, f)
}

fn one(
    kind: &'static KindDesc,
    words: &[u32],
    pos: usize,
    context_words: usize,
    f: &mut dyn FnMut(&'static KindDesc, Range<usize>),
) -> usize {
    if pos >= words.len() {
        return pos;
    }
    match kind.class {
        KindClass::Composite => {
            let mut p = pos;
            for b in kind.bases {
                p = one(b, words, p, context_words, f);
            }
            p
        }
        KindClass::String => {
            let end = match string_words(&words[pos..]) {
                Some(n) => pos + n,
                None => words.len(),
            };
            f(kind, pos..end);
            end
        }
        KindClass::ContextNumber => {
            let end = (pos + context_words.max(1)).min(words.len());
            f(kind, pos..end);
            end
        }
        KindClass::SpecConstantOpcode => {
            f(kind, pos..words.len());
            words.len()
        }
        KindClass::ValueEnum => {
            f(kind, pos..pos + 1);
            let mut p = pos + 1;
            if let Some(e) = kind.enumerant(words[pos]) {
                for param in e.parameters {
                    p = one(param.kind, words, p, context_words, f);
                }
            }
            p
        }
        KindClass::BitEnum => {
            f(kind, pos..pos + 1);
            let mut p = pos + 1;
            let mask = words[pos];
            for e in kind.enumerants {
                if e.value != 0 && mask & e.value == e.value {
                    for param in e.parameters {
                        p = one(param.kind, words, p, context_words, f);
                    }
                }
            }
            p
        }
        _ => {
            f(kind, pos..pos + 1);
            pos + 1
        }
    }
}

/// Words a nul-terminated string occupies at the start of `words`, if it ends there.
fn string_words(words: &[u32]) -> Option<usize> {
    words
        .iter()
        .position(|w| w.to_le_bytes().contains(&0))
        .map(|i| i + 1)
}
