//! `ops.rs`: `Opcode`, one struct per instruction and the `Instruction` enum over them.

use super::ident;
use super::shape::Scope;
use crate::model::{Grammar, Instruction};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// The Rust variant name of a core instruction (`OpTypeInt` → `TypeInt`).
pub fn variant(i: &Instruction) -> proc_macro2::Ident {
    ident(i.opname.strip_prefix("Op").unwrap_or(&i.opname))
}

/// The struct for one instruction, named as given.
pub fn op_struct(
    scope: &Scope,
    i: &Instruction,
    name: &proc_macro2::Ident,
    doc: &str,
) -> Result<TokenStream, String> {
    let mut fields = Vec::new();
    for o in &i.operands {
        let f = ident(&o.field);
        let t = scope.field_ty(i, o)?;
        let fdoc = if o.name.is_empty() {
            format!("`{}`.", o.kind)
        } else {
            format!("{} (`{}`).", o.name, o.kind)
        };
        fields.push(quote!(#[doc = #fdoc] pub #f: #t));
    }
    // `new` takes the operands that always occur, so that code building instructions keeps
    // compiling when a newer grammar appends an optional operand.
    let mut params = Vec::new();
    let mut inits = Vec::new();
    for o in &i.operands {
        let f = ident(&o.field);
        match o.quantifier {
            crate::model::Quantifier::One => {
                let t = scope.field_ty(i, o)?;
                params.push(quote!(#f: #t));
                inits.push(quote!(#f));
            }
            crate::model::Quantifier::Optional => inits.push(quote!(#f: None)),
            crate::model::Quantifier::Many => inits.push(quote!(#f: Vec::new())),
        }
    }
    Ok(quote! {
        #[doc = #doc]
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub struct #name { #(#fields,)* }

        impl #name {
            /// The instruction with its required operands; optional ones absent, lists empty.
            #[allow(clippy::too_many_arguments, clippy::new_without_default)]
            pub fn new(#(#params),*) -> Self { Self { #(#inits),* } }
        }
    })
}

/// The field of the first operand of a kind, if any.
fn field(i: &Instruction, kind: &str) -> Option<proc_macro2::Ident> {
    i.operands
        .iter()
        .find(|o| o.kind == kind && o.quantifier == crate::model::Quantifier::One)
        .map(|o| ident(&o.field))
}

/// Everything in `ops.rs`.
pub fn emit(g: &Grammar) -> Result<TokenStream, String> {
    let scope = Scope {
        grammar: g,
        local: &[],
    };
    let variants: Vec<_> = g.instructions.iter().map(variant).collect();
    // Large instructions are boxed so that `Instruction` stays small.
    let structs: Vec<TokenStream> = g
        .instructions
        .iter()
        .map(|i| {
            let s = ident(&i.opname);
            if scope.boxed(i) {
                quote!(Box<#s>)
            } else {
                quote!(#s)
            }
        })
        .collect();
    let names: Vec<&str> = g.instructions.iter().map(|i| i.opname.as_str()).collect();
    let codes: Vec<u16> = g
        .instructions
        .iter()
        .map(|i| u16::try_from(i.opcode).map_err(|_| format!("{}: opcode over 16 bits", i.opname)))
        .collect::<Result<_, _>>()?;
    let mut parse_arms = Vec::new();
    let mut defs = Vec::new();
    let mut result_id_arms = Vec::new();
    let mut result_type_arms = Vec::new();
    let mut image_operand_arms = Vec::new();
    let mut image_operand_mut_arms = Vec::new();
    for (i, v) in g.instructions.iter().zip(&variants) {
        let all: Vec<&str> = std::iter::once(i.opname.as_str())
            .chain(i.aliases.iter().map(|s| s.as_str()))
            .collect();
        parse_arms.push(quote!(#(#all)|* => Ok(Self::#v)));
        let doc = format!("`{}` (opcode {}, class {}).", i.opname, i.opcode, i.class);
        defs.push(op_struct(&scope, i, &ident(&i.opname), &doc)?);
        if let Some(f) = field(i, "IdResult") {
            result_id_arms.push(quote!(Self::#v(op) => Some(op.#f)));
        }
        if let Some(f) = field(i, "IdResultType") {
            result_type_arms.push(quote!(Self::#v(op) => Some(op.#f)));
        }
        if let Some(o) = i.operands.iter().find(|o| o.kind == "ImageOperands") {
            let f = ident(&o.field);
            let one = o.quantifier == crate::model::Quantifier::One;
            image_operand_arms.push(if one {
                quote!(Self::#v(op) => Some(&op.#f))
            } else {
                quote!(Self::#v(op) => op.#f.as_ref())
            });
            image_operand_mut_arms.push(if one {
                quote!(Self::#v(op) => Some(&mut op.#f))
            } else {
                quote!(Self::#v(op) => op.#f.as_mut())
            });
        }
    }
    let has_result: Vec<bool> = g
        .instructions
        .iter()
        .map(|i| field(i, "IdResult").is_some())
        .collect();
    let has_type: Vec<bool> = g
        .instructions
        .iter()
        .map(|i| field(i, "IdResultType").is_some())
        .collect();
    let max = codes.iter().copied().max().unwrap_or(0);
    // A dense table, indexed by opcode, for the decoder's per-instruction lookups:
    // bit 0 known, bit 1 has a result type, bit 2 has a result id.
    let mut shape = vec![0u8; max as usize + 1];
    for ((c, t), r) in codes.iter().zip(&has_type).zip(&has_result) {
        shape[*c as usize] = 1 | (u8::from(*t) << 1) | (u8::from(*r) << 2);
    }
    let shape_len = shape.len();
    let _ = format_ident!("x");
    let classes = classes(g)?;
    // Aliases (`OpTypeAccelerationStructureKHR` of `...NV`), so that code can name an op the
    // same way against grammars that made a different spelling primary.
    let variant_names: std::collections::BTreeSet<String> =
        variants.iter().map(|v| v.to_string()).collect();
    let mut alias_names = Vec::new();
    let mut alias_targets = Vec::new();
    let mut alias_codes = Vec::new();
    let mut alias_docs = Vec::new();
    let mut seen_alias = std::collections::BTreeSet::new();
    for ((i, v), c) in g.instructions.iter().zip(&variants).zip(&codes) {
        for a in &i.aliases {
            let name = a.strip_prefix("Op").unwrap_or(a);
            if variant_names.contains(name) || !seen_alias.insert(name.to_string()) {
                continue;
            }
            alias_names.push(ident(name));
            alias_targets.push(v.clone());
            alias_codes.push(*c);
            alias_docs.push(format!("`{a}`, an alias of `{}`.", i.opname));
        }
    }
    Ok(quote! {
        /// Every core opcode of the grammar.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u16)]
        pub enum Opcode { #(#[doc = #names] #variants = #codes),* }

        impl Opcode {
            /// The largest opcode the grammar defines.
            pub const MAX: u16 = #max;
            /// Every opcode, ascending.
            pub const ALL: &'static [Opcode] = &[#(Self::#variants),*];
            /// The opcode with this number, if the grammar has one.
            pub fn from_u16(v: u16) -> Option<Self> {
                match v { #(#codes => Some(Self::#variants),)* _ => None }
            }
            /// The opcode's number.
            pub fn value(self) -> u16 { self as u16 }
            /// The grammar's name (`OpTypeInt`).
            pub fn name(self) -> &'static str { match self { #(Self::#variants => #names,)* } }
            /// Whether instructions of this opcode define a result id.
            pub fn has_result_id(self) -> bool { match self { #(Self::#variants => #has_result,)* } }
            /// Whether instructions of this opcode have a result type.
            pub fn has_result_type(self) -> bool { match self { #(Self::#variants => #has_type,)* } }
        }

        /// Opcode numbers as constants, named as [`Opcode`]'s variants, for `match` patterns on
        /// raw words (`op::TypeInt`).
        #[allow(non_upper_case_globals)]
        pub mod op {
            #(#[doc = #names] pub const #variants: u16 = #codes;)*
            #(#[doc = #alias_docs] pub const #alias_names: u16 = #alias_codes;)*
        }

        #[allow(non_upper_case_globals)]
        impl Opcode {
            #(#[doc = #alias_docs] pub const #alias_names: Opcode = Opcode::#alias_targets;)*
        }

        #classes

        /// Per opcode number: bit 0 known, bit 1 has a result type, bit 2 has a result id.
        static OPCODE_SHAPE: [u8; #shape_len] = [#(#shape),*];

        /// `(has result type, has result id)` of an opcode number; both false when unknown.
        #[inline]
        pub fn result_shape(opcode: u16) -> (bool, bool) {
            let s = OPCODE_SHAPE.get(opcode as usize).copied().unwrap_or(0);
            (s & 2 != 0, s & 4 != 0)
        }

        impl core::fmt::Display for Opcode {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result { f.write_str(self.name()) }
        }

        impl core::str::FromStr for Opcode {
            type Err = UnknownName;
            /// Parses an opcode name or alias (`OpSDotKHR`).
            fn from_str(s: &str) -> Result<Self, UnknownName> {
                match s { #(#parse_arms,)* _ => Err(UnknownName { kind: "not an opcode", name: s.to_string() }) }
            }
        }

        #(#defs)*

        /// One decoded instruction: a typed struct per opcode, or the raw words of an
        /// instruction this grammar does not know (kept so that re-encoding loses nothing).
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub enum Instruction {
            #(#[doc = #names] #variants(#structs),)*
            /// An opcode or enumerant this grammar does not know: its raw words.
            Unknown(UnknownInstruction),
        }

        impl Instruction {
            /// The opcode number.
            pub fn opcode_value(&self) -> u16 {
                match self { #(Self::#variants(_) => #codes,)* Self::Unknown(u) => u.opcode }
            }
            /// The opcode, unless the instruction is unknown.
            pub fn opcode(&self) -> Option<Opcode> { Opcode::from_u16(self.opcode_value()) }
            /// The result id, if the instruction defines one.
            pub fn result_id(&self) -> Option<Id> {
                match self { #(#result_id_arms,)* _ => None }
            }
            /// The result type, if the instruction has one.
            pub fn result_type(&self) -> Option<Id> {
                match self { #(#result_type_arms,)* _ => None }
            }
            /// The image operands of an image instruction that has them (what passes read
            /// without naming every image opcode).
            pub fn image_operands(&self) -> Option<&ImageOperandsArgs> {
                match self { #(#image_operand_arms,)* _ => None }
            }
            /// The image operands, to rewrite.
            pub fn image_operands_mut(&mut self) -> Option<&mut ImageOperandsArgs> {
                match self { #(#image_operand_mut_arms,)* _ => None }
            }
        }
    })
}

/// The lower_snake_case of a class or group name (`Type-Declaration` → `type_declaration`).
fn snake(s: &str) -> String {
    s.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|p| !p.is_empty())
        .map(|p| p.to_ascii_lowercase())
        .collect::<Vec<_>>()
        .join("_")
}

/// `InstructionClass`, `Opcode::class`, an `Opcode::is_<class>` per class of the grammar, and an
/// `Opcode::is_<group>` per group of `opcode_groups.json`.
fn classes(g: &Grammar) -> Result<TokenStream, String> {
    let mut names: Vec<&str> = g.instructions.iter().map(|i| i.class.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    let variant_of = |c: &str| {
        let v = super::camel(c);
        ident(if v.is_empty() { "Unclassified" } else { &v })
    };
    let class_variants: Vec<_> = names.iter().map(|c| variant_of(c)).collect();
    let class_docs: Vec<String> = names
        .iter()
        .map(|c| format!("The grammar's `{c}` class."))
        .collect();
    let op_variants: Vec<_> = g.instructions.iter().map(variant).collect();
    let op_classes: Vec<_> = g
        .instructions
        .iter()
        .map(|i| variant_of(&i.class))
        .collect();
    let mut predicates = Vec::new();
    for (c, v) in names.iter().zip(&class_variants) {
        if c.is_empty() || c.starts_with('@') || *c == "Reserved" {
            continue;
        }
        let f = format_ident!("is_{}", snake(c));
        let doc = format!("Whether the grammar classes this op as `{c}`.");
        predicates.push(quote! {
            #[doc = #doc]
            pub fn #f(self) -> bool { matches!(self.class(), InstructionClass::#v) }
        });
    }
    for group in g.groups.iter().flatten() {
        let f = format_ident!("is_{}", group.name);
        let doc = &group.doc;
        let members: Vec<_> = group
            .opcodes
            .iter()
            .filter_map(|&c| g.instructions.iter().find(|i| i.opcode == c))
            .map(variant)
            .collect();
        let body = if members.is_empty() {
            quote!({
                let _ = self;
                false
            })
        } else {
            quote!({ matches!(self, #(Self::#members)|*) })
        };
        predicates.push(quote! {
            #[doc = #doc]
            pub fn #f(self) -> bool #body
        });
    }
    Ok(quote! {
        /// The grammar's instruction classes (`class` of each instruction).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum InstructionClass { #(#[doc = #class_docs] #class_variants,)* }

        impl Opcode {
            /// The grammar's class of this op.
            pub fn class(self) -> InstructionClass {
                match self { #(Self::#op_variants => InstructionClass::#op_classes,)* }
            }
            #(#predicates)*
        }
    })
}
