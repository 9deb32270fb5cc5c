//! `ids.rs`: `Ids` for every operand kind and instruction: visit (or rewrite) every `<id>` an
//! instruction mentions, in operand order, including ids inside enum parameters
//! (`Decoration::UniformId`, `ImageOperands` Bias/Lod/...).

use super::ops::variant;
use super::shape::has_parameters;
use super::{ident, variant_name};
use crate::model::{Category, Grammar, Instruction, OperandKind};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// Everything in `ids.rs`.
pub fn emit(g: &Grammar) -> Result<TokenStream, String> {
    let mut out = TokenStream::new();
    for k in &g.operand_kinds {
        out.extend(kind(k));
    }
    let mut arms = Vec::new();
    let mut arms_mut = Vec::new();
    for i in &g.instructions {
        out.extend(op(i, &ident(&i.opname)));
        let v = variant(i);
        arms.push(quote!(Instruction::#v(op) => op.visit_ids(f)));
        arms_mut.push(quote!(Instruction::#v(op) => op.visit_ids_mut(f)));
    }
    out.extend(quote! {
        impl Ids for Instruction {
            fn visit_ids(&self, f: &mut dyn FnMut(Id)) {
                match self { #(#arms,)* Instruction::Unknown(_) => {} }
            }
            fn visit_ids_mut(&mut self, f: &mut dyn FnMut(&mut Id)) {
                match self { #(#arms_mut,)* Instruction::Unknown(_) => {} }
            }
        }
    });
    Ok(out)
}

/// `Ids` for one instruction struct.
pub fn op(i: &Instruction, name: &proc_macro2::Ident) -> TokenStream {
    let fields: Vec<_> = i.operands.iter().map(|o| ident(&o.field)).collect();
    let f = if fields.is_empty() {
        quote!(_f)
    } else {
        quote!(f)
    };
    quote! {
        impl Ids for #name {
            fn visit_ids(&self, #f: &mut dyn FnMut(Id)) { #(self.#fields.visit_ids(f);)* }
            fn visit_ids_mut(&mut self, #f: &mut dyn FnMut(&mut Id)) { #(self.#fields.visit_ids_mut(f);)* }
        }
    }
}

/// `Ids` for one enum kind (a no-op for kinds whose enumerants take no parameters).
pub fn kind(k: &OperandKind) -> TokenStream {
    let name = ident(&k.name);
    match k.category {
        Category::ValueEnum if has_parameters(k) => {
            let mut arms = Vec::new();
            let mut arms_mut = Vec::new();
            for e in &k.enumerants {
                let v = ident(&variant_name(&k.name, &e.name));
                if e.parameters.is_empty() {
                    arms.push(quote!(Self::#v => {}));
                    arms_mut.push(quote!(Self::#v => {}));
                } else {
                    let b: Vec<_> = (0..e.parameters.len())
                        .map(|n| format_ident!("p{n}"))
                        .collect();
                    arms.push(quote!(Self::#v(#(#b),*) => { #(#b.visit_ids(f);)* }));
                    arms_mut.push(quote!(Self::#v(#(#b),*) => { #(#b.visit_ids_mut(f);)* }));
                }
            }
            quote! {
                impl Ids for #name {
                    fn visit_ids(&self, f: &mut dyn FnMut(Id)) { match self { #(#arms,)* } }
                    fn visit_ids_mut(&mut self, f: &mut dyn FnMut(&mut Id)) { match self { #(#arms_mut,)* } }
                }
            }
        }
        Category::ValueEnum => quote!(impl Ids for #name {}),
        Category::BitEnum => {
            let mut out = quote!(impl Ids for #name {});
            if has_parameters(k) {
                let args = format_ident!("{}Args", k.name);
                let fields: Vec<_> = k
                    .enumerants
                    .iter()
                    .filter(|e| !e.parameters.is_empty())
                    .map(|e| ident(&crate::model::snake_case(&e.name)))
                    .collect();
                out.extend(quote! {
                    impl Ids for #args {
                        fn visit_ids(&self, f: &mut dyn FnMut(Id)) { #(self.#fields.visit_ids(f);)* }
                        fn visit_ids_mut(&mut self, f: &mut dyn FnMut(&mut Id)) { #(self.#fields.visit_ids_mut(f);)* }
                    }
                });
            }
            out
        }
        _ => TokenStream::new(),
    }
}
