//! `codec.rs`: decode and encode for every enum kind and instruction. Each operand is read with
//! the reader's generic `read` (quantifiers handled by `Option`/`Vec` impls); the three
//! context-dependent operands call dedicated reader methods that consult the type tracker.

use super::ops::variant;
use super::shape::{has_parameters, Scope};
use super::{ident, variant_name};
use crate::model::{Category, Grammar, Instruction, OperandKind};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// Everything in `codec.rs`.
pub fn emit(g: &Grammar) -> Result<TokenStream, String> {
    let scope = Scope {
        grammar: g,
        local: &[],
    };
    let mut out = TokenStream::new();
    for k in &g.operand_kinds {
        out.extend(kind(&scope, k, &quote!(crate::grammar))?);
    }
    for i in &g.instructions {
        out.extend(op(&scope, i, &ident(&i.opname), &quote!(crate::grammar))?);
    }
    let mut decode_arms = Vec::new();
    let mut encode_arms = Vec::new();
    for i in &g.instructions {
        let v = variant(i);
        let code = i.opcode as u16;
        decode_arms.push(quote!(#code => Instruction::#v(r.read()?)));
        encode_arms.push(quote!(Instruction::#v(op) => op.encode(out)));
    }
    out.extend(quote! {
        /// Decodes the operands of a core instruction (everything after the opcode word).
        /// An opcode this grammar does not know yields [`Instruction::Unknown`].
        pub fn decode_operands(opcode: u16, r: &mut OperandReader<'_>) -> Result<Instruction, DecodeError> {
            Ok(match opcode {
                #(#decode_arms,)*
                _ => Instruction::Unknown(UnknownInstruction { opcode, operands: r.take_rest().to_vec() }),
            })
        }

        /// Encodes the operands of a core instruction (everything after the opcode word).
        pub fn encode_operands(inst: &Instruction, out: &mut Vec<u32>) {
            match inst {
                #(#encode_arms,)*
                Instruction::Unknown(u) => out.extend_from_slice(&u.operands),
            }
        }
    });
    out.extend(super::ext::codec(g)?);
    Ok(out)
}

/// Decode/Encode for one instruction struct at `path::name`.
pub fn op(
    scope: &Scope,
    i: &Instruction,
    name: &proc_macro2::Ident,
    path: &TokenStream,
) -> Result<TokenStream, String> {
    let fields: Vec<_> = i.operands.iter().map(|o| ident(&o.field)).collect();
    let exprs = i
        .operands
        .iter()
        .map(|o| scope.decode_expr(i, o))
        .collect::<Result<Vec<_>, _>>()?;
    let out_param = if fields.is_empty() {
        quote!(_out)
    } else {
        quote!(out)
    };
    let r_param = if fields.is_empty() {
        quote!(_r)
    } else {
        quote!(r)
    };
    Ok(quote! {
        impl Decode for #path::#name {
            fn decode(#r_param: &mut OperandReader<'_>) -> Result<Self, DecodeError> {
                #(let #fields = #exprs;)*
                Ok(Self { #(#fields),* })
            }
        }
        impl Encode for #path::#name {
            fn encode(&self, #out_param: &mut Vec<u32>) {
                #(self.#fields.encode(out);)*
            }
        }
    })
}

/// Decode/Encode for one enum kind at `path::Kind`.
pub fn kind(scope: &Scope, k: &OperandKind, path: &TokenStream) -> Result<TokenStream, String> {
    let name = ident(&k.name);
    let kname = &k.name;
    match k.category {
        Category::ValueEnum => {
            let mut dec = Vec::new();
            let mut enc = Vec::new();
            for e in &k.enumerants {
                let v = ident(&variant_name(&k.name, &e.name));
                let val = e.value;
                if e.parameters.is_empty() {
                    dec.push(quote!(#val => Self::#v));
                    enc.push(quote!(Self::#v => out.push(#val)));
                } else {
                    let reads: Vec<_> = e.parameters.iter().map(|_| quote!(r.read()?)).collect();
                    let binds: Vec<_> = (0..e.parameters.len())
                        .map(|n| format_ident!("p{n}"))
                        .collect();
                    dec.push(quote!(#val => Self::#v(#(#reads),*)));
                    enc.push(quote!(Self::#v(#(#binds),*) => { out.push(#val); #(#binds.encode(out);)* }));
                }
            }
            let _ = scope;
            Ok(quote! {
                impl Decode for #path::#name {
                    fn decode(r: &mut OperandReader<'_>) -> Result<Self, DecodeError> {
                        let value = r.word()?;
                        Ok(match value {
                            #(#dec,)*
                            _ => return Err(r.unknown_enumerant(#kname, value)),
                        })
                    }
                }
                impl Encode for #path::#name {
                    fn encode(&self, out: &mut Vec<u32>) {
                        match self { #(#enc,)* }
                    }
                }
            })
        }
        Category::BitEnum => {
            let known: u32 = k.enumerants.iter().fold(0, |m, e| m | e.value);
            let mut out = quote! {
                impl Decode for #path::#name {
                    fn decode(r: &mut OperandReader<'_>) -> Result<Self, DecodeError> {
                        let mask = r.word()?;
                        r.check_bits(#kname, mask, #known)?;
                        Ok(Self(mask))
                    }
                }
                impl Encode for #path::#name {
                    fn encode(&self, out: &mut Vec<u32>) { out.push(self.0) }
                }
            };
            if has_parameters(k) {
                let args = format_ident!("{}Args", k.name);
                let mut dec = Vec::new();
                let mut enc = Vec::new();
                for e in k.enumerants.iter().filter(|e| !e.parameters.is_empty()) {
                    let f = ident(&crate::model::snake_case(&e.name));
                    let bit = e.value;
                    let reads: Vec<_> = e.parameters.iter().map(|_| quote!(r.read()?)).collect();
                    let value = if reads.len() == 1 {
                        quote!(#(#reads)*)
                    } else {
                        quote!((#(#reads),*))
                    };
                    dec.push(quote!(if mask & #bit != 0 { args.#f = Some(#value); }));
                    enc.push(quote!(if let Some(p) = &self.#f { p.encode(out); }));
                }
                out.extend(quote! {
                    impl Decode for #path::#args {
                        fn decode(r: &mut OperandReader<'_>) -> Result<Self, DecodeError> {
                            let mask = r.word()?;
                            r.check_bits(#kname, mask, #known)?;
                            let mut args = Self { mask: #path::#name(mask), ..Default::default() };
                            #(#dec)*
                            Ok(args)
                        }
                    }
                    impl Encode for #path::#args {
                        fn encode(&self, out: &mut Vec<u32>) {
                            out.push(self.effective_mask().0);
                            #(#enc)*
                        }
                    }
                });
            }
            Ok(out)
        }
        _ => Ok(TokenStream::new()),
    }
}
