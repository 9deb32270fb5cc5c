//! `ext.rs`: a module per extended instruction set, with its own enum kinds, a struct per
//! instruction, an `Instruction` enum over them and their availability; and `ExtInstSet`, the
//! enum of sets, recognized by their `OpExtInstImport` names.

use super::availability::{self, Interner};
use super::shape::Scope;
use super::{camel, enums, ident, ops};
use crate::model::{ExtInstSet, Grammar};
use proc_macro2::TokenStream;
use quote::quote;

/// The Rust module name of a set (`glsl.std.450` → `glsl_std_450`).
pub fn module_name(s: &ExtInstSet) -> proc_macro2::Ident {
    ident(&crate::model::snake_case(&s.file_stem))
}

/// The `ExtInstSet` variant of a set (`GlslStd450`).
pub fn set_variant(s: &ExtInstSet) -> proc_macro2::Ident {
    ident(&camel(&s.file_stem))
}

/// The struct name of an extended instruction (`fmax_common` → `OpFmaxCommon`), prefixed like
/// core ops so that it cannot collide with the set's operand kinds (`DebugOperation`).
pub fn struct_name(opname: &str) -> proc_macro2::Ident {
    ident(&format!("Op{}", camel(opname)))
}

/// The `Instruction` variant of an extended instruction (`fmax_common` → `FmaxCommon`).
pub fn variant_name(opname: &str) -> proc_macro2::Ident {
    let c = camel(opname);
    if c.starts_with(|c: char| c.is_ascii_digit()) {
        ident(&format!("Op{c}"))
    } else {
        ident(&c)
    }
}

/// Everything in `ext.rs`.
pub fn emit(g: &Grammar) -> Result<TokenStream, String> {
    let mut out = TokenStream::new();
    let mut set_variants = Vec::new();
    let mut set_names = Vec::new();
    let mut set_mods = Vec::new();
    for s in &g.ext_sets {
        let scope = Scope {
            grammar: g,
            local: &s.operand_kinds,
        };
        let m = module_name(s);
        let mut items = TokenStream::new();
        let path = quote!(self);
        let mut interner = Interner::new(g, quote!(crate::grammar), "AVAIL");
        for k in &s.operand_kinds {
            items.extend(enums::kind(&scope, k)?);
            items.extend(availability::kind(&scope, k, &mut interner, &path)?);
            items.extend(super::ids::kind(k));
        }
        let mut names = std::collections::BTreeSet::new();
        let mut variants = Vec::new();
        let mut structs = Vec::new();
        let mut numbers = Vec::new();
        let mut opnames = Vec::new();
        let mut avail = Vec::new();
        for i in &s.instructions {
            let n = struct_name(&i.opname);
            if !names.insert(n.to_string()) {
                return Err(format!("{}: two instructions named {n}", s.import_name));
            }
            let doc = format!("`{}` ({}).", i.opname, i.opcode);
            items.extend(ops::op_struct(&scope, i, &n, &doc)?);
            items.extend(availability::op_requires(i, &n, &path));
            items.extend(super::ids::op(i, &n));
            avail.push(interner.get(&i.availability, &i.opname)?);
            structs.push(n);
            variants.push(variant_name(&i.opname));
            numbers.push(i.opcode);
            opnames.push(i.opname.as_str());
        }
        // The opcode enum: one variant per instruction number (the first name of a number).
        let mut seen = std::collections::BTreeMap::new();
        for (v, n) in variants.iter().zip(&numbers) {
            seen.entry(*n).or_insert_with(|| v.clone());
        }
        let op_variants: Vec<_> = seen.values().cloned().collect();
        let op_numbers: Vec<u32> = seen.keys().copied().collect();
        let op_names: Vec<&str> = op_numbers
            .iter()
            .map(|n| {
                let i = numbers.iter().position(|m| m == n).unwrap_or(0);
                opnames[i]
            })
            .collect();
        let inst_opcodes: Vec<_> = numbers.iter().map(|n| seen[n].clone()).collect();
        let statics = &interner.statics;
        let import = &s.import_name;
        let doc = format!("The `{}` extended instruction set.", s.import_name);
        out.extend(quote! {
            #[doc = #doc]
            pub mod #m {
                #![allow(unused_imports)]
                use crate::grammar::*;
                use crate::grammar::support::*;

                /// The name `OpExtInstImport` uses for this set.
                pub const IMPORT_NAME: &str = #import;

                #items

                /// One instruction of this set.
                #[derive(Clone, Debug, PartialEq, Eq, Hash)]
                pub enum Instruction { #(#[doc = #opnames] #variants(#structs),)* }

                /// The instructions of this set by number, for code that emits or matches them
                /// without building the typed struct.
                #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
                #[repr(u32)]
                pub enum Opcode { #(#[doc = #op_names] #op_variants = #op_numbers,)* }

                impl Opcode {
                    /// Every instruction number of the set, ascending.
                    pub const ALL: &'static [Opcode] = &[#(Self::#op_variants),*];
                    /// The instruction with this number, if the set has one.
                    pub fn from_u32(n: u32) -> Option<Self> {
                        match n { #(#op_numbers => Some(Self::#op_variants),)* _ => None }
                    }
                    /// The instruction number (`OpExtInst`'s `Instruction` operand).
                    pub fn value(self) -> u32 { self as u32 }
                    /// The grammar's name.
                    pub fn name(self) -> &'static str { match self { #(Self::#op_variants => #op_names,)* } }
                }

                impl Instruction {
                    /// The instruction's opcode in this set.
                    pub fn opcode(&self) -> Opcode { match self { #(Self::#variants(_) => Opcode::#inst_opcodes,)* } }
                    /// The instruction number (`OpExtInst`'s `Instruction` operand).
                    pub fn number(&self) -> u32 { match self { #(Self::#variants(_) => #numbers,)* } }
                    /// The grammar's name.
                    pub fn name(&self) -> &'static str { match self { #(Self::#variants(_) => #opnames,)* } }
                    /// When this instruction is available.
                    pub fn availability(&self) -> &'static Availability { match self { #(Self::#variants(_) => #avail,)* } }
                }

                impl Requires for Instruction {
                    fn visit_requirements(&self, f: &mut dyn FnMut(&'static Availability)) {
                        f(self.availability());
                        match self { #(Self::#variants(op) => op.visit_requirements(f),)* }
                    }
                }

                impl Ids for Instruction {
                    fn visit_ids(&self, f: &mut dyn FnMut(Id)) {
                        match self { #(Self::#variants(op) => op.visit_ids(f),)* }
                    }
                    fn visit_ids_mut(&mut self, f: &mut dyn FnMut(&mut Id)) {
                        match self { #(Self::#variants(op) => op.visit_ids_mut(f),)* }
                    }
                }

                #(#statics)*
            }
        });
        set_variants.push(set_variant(s));
        set_names.push(import.clone());
        set_mods.push(m);
    }
    out.extend(quote! {
        /// The extended instruction sets this grammar directory defines.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum ExtInstSet { #(#[doc = #set_names] #set_variants),* }

        impl ExtInstSet {
            /// Recognizes an `OpExtInstImport` name.
            pub fn from_import_name(name: &str) -> Option<Self> {
                match name { #(#set_names => Some(Self::#set_variants),)* _ => None }
            }
            /// The `OpExtInstImport` name.
            pub fn import_name(self) -> &'static str {
                match self { #(Self::#set_variants => #set_names,)* }
            }
        }

        /// An extended instruction of any known set.
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub enum ExtInstruction { #(#[doc = #set_names] #set_variants(#set_mods::Instruction)),* }

        impl Requires for ExtInstruction {
            fn visit_requirements(&self, f: &mut dyn FnMut(&'static Availability)) {
                match self { #(Self::#set_variants(i) => i.visit_requirements(f),)* }
            }
        }

        impl Ids for ExtInstruction {
            fn visit_ids(&self, f: &mut dyn FnMut(Id)) {
                match self { #(Self::#set_variants(i) => i.visit_ids(f),)* }
            }
            fn visit_ids_mut(&mut self, f: &mut dyn FnMut(&mut Id)) {
                match self { #(Self::#set_variants(i) => i.visit_ids_mut(f),)* }
            }
        }
    });
    Ok(out)
}

/// Decode/Encode for every extended set, for `codec.rs`.
pub fn codec(g: &Grammar) -> Result<TokenStream, String> {
    let mut out = TokenStream::new();
    let mut set_arms = Vec::new();
    let mut enc_arms = Vec::new();
    for s in &g.ext_sets {
        let scope = Scope {
            grammar: g,
            local: &s.operand_kinds,
        };
        let m = module_name(s);
        let path = quote!(crate::grammar::ext::#m);
        for k in &s.operand_kinds {
            out.extend(super::codec::kind(&scope, k, &path)?);
        }
        let mut arms = Vec::new();
        let mut earms = Vec::new();
        for i in &s.instructions {
            let n = struct_name(&i.opname);
            let v = variant_name(&i.opname);
            out.extend(super::codec::op(&scope, i, &n, &path)?);
            let num = i.opcode;
            arms.push(quote!(#num => #path::Instruction::#v(r.read()?)));
            earms.push(quote!(#path::Instruction::#v(op) => op.encode(out)));
        }
        let v = set_variant(s);
        let what = format!("{} instruction", s.import_name);
        set_arms.push(quote!(ExtInstSet::#v => ExtInstruction::#v(match number {
            #(#arms,)*
            _ => return Err(r.unknown_enumerant(#what, number)),
        })));
        enc_arms.push(quote!(ExtInstruction::#v(i) => match i { #(#earms,)* }));
    }
    out.extend(quote! {
        /// Decodes the operands of an extended instruction (after `OpExtInst`'s `Instruction`).
        pub fn decode_ext_operands(set: ExtInstSet, number: u32, r: &mut OperandReader<'_>) -> Result<ExtInstruction, DecodeError> {
            Ok(match set { #(#set_arms,)* })
        }

        /// Encodes the operands of an extended instruction (after `OpExtInst`'s `Instruction`).
        pub fn encode_ext_operands(inst: &ExtInstruction, out: &mut Vec<u32>) {
            match inst { #(#enc_arms,)* }
        }
    });
    Ok(out)
}
