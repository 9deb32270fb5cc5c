//! What each operand kind is in Rust: its type, and how it is decoded.

use super::ident;
use crate::model::{Category, Grammar, Instruction, Operand, OperandKind, Quantifier};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// The Rust shape of an operand kind.
#[derive(Clone, Copy)]
pub enum Shape<'g> {
    /// Any `<id>` kind.
    Id,
    /// One literal word (`LiteralInteger`, `LiteralExtInstInteger`).
    Word,
    /// A 32-bit float literal, kept as its bits.
    FloatBits,
    /// A nul-terminated UTF-8 string.
    String,
    /// A number whose width is that of the instruction's result type.
    ContextNumber,
    /// `OpSpecConstantOp`'s embedded opcode and its operands.
    SpecConstantOperation,
    /// `OpSwitch`'s literal/label pair: the literal's width is the selector's.
    SwitchTarget,
    /// A two-part composite.
    Pair(&'g str, &'g str),
    /// A value enum.
    ValueEnum(&'g OperandKind),
    /// A bit enum.
    BitEnum(&'g OperandKind),
}

/// Where kinds are looked up: an extended set's own kinds first, then the core's.
pub struct Scope<'g> {
    /// The core grammar.
    pub grammar: &'g Grammar,
    /// The extended set's kinds, if any.
    pub local: &'g [OperandKind],
}

impl<'g> Scope<'g> {
    /// Resolves a kind name.
    pub fn kind(&self, name: &str) -> Option<&'g OperandKind> {
        self.local
            .iter()
            .find(|k| k.name == name)
            .or_else(|| self.grammar.kind(name))
    }

    /// The shape of a kind.
    pub fn shape(&self, name: &str) -> Result<Shape<'g>, String> {
        let k = self
            .kind(name)
            .ok_or_else(|| format!("unknown operand kind {name:?}"))?;
        Ok(match k.category {
            Category::Id => Shape::Id,
            Category::ValueEnum => Shape::ValueEnum(k),
            Category::BitEnum => Shape::BitEnum(k),
            Category::Literal => match name {
                "LiteralInteger" | "LiteralExtInstInteger" => Shape::Word,
                "LiteralFloat" => Shape::FloatBits,
                "LiteralString" => Shape::String,
                "LiteralContextDependentNumber" => Shape::ContextNumber,
                "LiteralSpecConstantOpInteger" => Shape::SpecConstantOperation,
                other => {
                    return Err(format!(
                        "literal kind {other:?} needs a codec in the generator"
                    ))
                }
            },
            Category::Composite => match (name, k.bases.as_slice()) {
                ("PairLiteralIntegerIdRef", _) => Shape::SwitchTarget,
                (_, [a, b]) => Shape::Pair(a, b),
                _ => return Err(format!("composite kind {name:?} is not a pair")),
            },
        })
    }

    /// The Rust type of one occurrence of a kind.
    pub fn ty(&self, name: &str) -> Result<TokenStream, String> {
        Ok(match self.shape(name)? {
            Shape::Id => quote!(Id),
            Shape::Word | Shape::FloatBits => quote!(u32),
            Shape::String => quote!(String),
            Shape::ContextNumber => quote!(LiteralNumber),
            Shape::SpecConstantOperation => quote!(SpecConstantOperation),
            Shape::SwitchTarget => quote!((LiteralNumber, Id)),
            Shape::Pair(a, b) => {
                let (a, b) = (self.ty(a)?, self.ty(b)?);
                quote!((#a, #b))
            }
            Shape::ValueEnum(k) => {
                let i = ident(&k.name);
                quote!(#i)
            }
            Shape::BitEnum(k) => {
                if has_parameters(k) {
                    let i = format_ident!("{}Args", k.name);
                    quote!(#i)
                } else {
                    let i = ident(&k.name);
                    quote!(#i)
                }
            }
        })
    }

    /// The Rust type of an operand, quantifier applied.
    pub fn operand_ty(&self, o: &Operand) -> Result<TokenStream, String> {
        let t = self.ty(&o.kind)?;
        Ok(match o.quantifier {
            Quantifier::One => t,
            Quantifier::Optional => quote!(Option<#t>),
            Quantifier::Many => quote!(Vec<#t>),
        })
    }

    /// The Rust type of an instruction's operand. `OpExtInst`'s trailing operands are words:
    /// the imported set's grammar, not the core's, says which are ids and which literals.
    pub fn field_ty(&self, inst: &Instruction, o: &Operand) -> Result<TokenStream, String> {
        if is_ext_operands(inst, o) {
            return Ok(quote!(Vec<u32>));
        }
        self.operand_ty(o)
    }

    /// The expression that decodes an operand of `inst` from the reader `r`.
    pub fn decode_expr(&self, inst: &Instruction, o: &Operand) -> Result<TokenStream, String> {
        if is_ext_operands(inst, o) {
            return Ok(quote!(r.read_many::<u32>()?));
        }
        let shape = self.shape(&o.kind)?;
        let q = o.quantifier;
        Ok(match shape {
            Shape::ContextNumber if q == Quantifier::One => {
                let ty = field_of_kind(inst, "IdResultType")?;
                quote!(r.read_number_of_type(#ty)?)
            }
            Shape::SwitchTarget if q == Quantifier::Many => {
                let sel = field_of_kind(inst, "IdRef")?;
                quote!(r.read_switch_targets(#sel)?)
            }
            Shape::SpecConstantOperation if q == Quantifier::One => {
                quote!(r.read_spec_constant_operation()?)
            }
            Shape::ContextNumber | Shape::SwitchTarget | Shape::SpecConstantOperation => {
                return Err(format!(
                    "{}: context-dependent operand {} in an unsupported position",
                    inst.opname, o.kind
                ))
            }
            _ => match q {
                Quantifier::One => quote!(r.read()?),
                Quantifier::Optional => quote!(r.read_optional()?),
                Quantifier::Many => quote!(r.read_many()?),
            },
        })
    }
}

/// The first already-decoded field of a kind, for context-dependent operands.
fn field_of_kind(inst: &Instruction, kind: &str) -> Result<TokenStream, String> {
    let o = inst
        .operands
        .iter()
        .find(|o| o.kind == kind)
        .ok_or_else(|| format!("{}: context-dependent operand without {kind}", inst.opname))?;
    let f = ident(&o.field);
    Ok(quote!(#f))
}

/// Whether `o` is the trailing operand list of an extended instruction (it follows a
/// `LiteralExtInstInteger`).
pub fn is_ext_operands(inst: &Instruction, o: &Operand) -> bool {
    o.quantifier == Quantifier::Many
        && inst
            .operands
            .iter()
            .any(|p| p.kind == "LiteralExtInstInteger")
}

/// Instructions whose struct is estimated larger than this many bytes are boxed in
/// `Instruction`, so that the enum (and every IR op holding one) stays small: a few rare,
/// large instructions (image sampling with its operands, loop merges, two-mask copies) would
/// otherwise set the size of all of them.
pub const BOX_OVER_BYTES: usize = 64;

impl Scope<'_> {
    /// The estimated size in bytes of an instruction's struct (Rust's layout is not known
    /// here; the estimate counts each field's payload, which is what decides the boxing).
    pub fn size_estimate(&self, inst: &Instruction) -> usize {
        inst.operands
            .iter()
            .map(|o| {
                if is_ext_operands(inst, o) || o.quantifier == Quantifier::Many {
                    return 24;
                }
                let one = self.kind_size(&o.kind, 0);
                match o.quantifier {
                    Quantifier::Optional if one <= 4 => 8,
                    _ => one,
                }
            })
            .sum()
    }

    /// The estimated size of one occurrence of a kind (`depth` bounds recursion).
    fn kind_size(&self, name: &str, depth: u32) -> usize {
        let Ok(shape) = self.shape(name) else {
            return 4;
        };
        match shape {
            Shape::Id | Shape::Word | Shape::FloatBits => 4,
            Shape::String | Shape::SwitchTarget | Shape::SpecConstantOperation => 24,
            Shape::ContextNumber => 16,
            Shape::Pair(a, b) => self.kind_size(a, depth) + self.kind_size(b, depth),
            _ if depth > 2 => 4,
            Shape::ValueEnum(k) => {
                4 + k
                    .enumerants
                    .iter()
                    .map(|e| {
                        e.parameters
                            .iter()
                            .map(|p| self.kind_size(&p.kind, depth + 1))
                            .sum::<usize>()
                    })
                    .max()
                    .unwrap_or(0)
            }
            Shape::BitEnum(k) => {
                4 + k
                    .enumerants
                    .iter()
                    .filter(|e| !e.parameters.is_empty())
                    .map(|e| {
                        4 + e
                            .parameters
                            .iter()
                            .map(|p| self.kind_size(&p.kind, depth + 1))
                            .sum::<usize>()
                    })
                    .sum::<usize>()
            }
        }
    }

    /// Whether `inst` is boxed in `Instruction` (see [`BOX_OVER_BYTES`]).
    pub fn boxed(&self, inst: &Instruction) -> bool {
        self.size_estimate(inst) > BOX_OVER_BYTES
    }
}

/// Whether any enumerant of a kind takes parameters.
pub fn has_parameters(k: &OperandKind) -> bool {
    k.enumerants.iter().any(|e| !e.parameters.is_empty())
}
