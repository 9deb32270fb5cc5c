//! `availability.rs`: versions, capabilities, extensions and provisional status of every
//! instruction and enumerant, and `Requires` for every operand and instruction, so that a
//! module's requirements follow from its typed instructions, enum operands and parameters.

use super::ops::variant;
use super::shape::{has_parameters, Scope};
use super::{extension_variant, ident, variant_name};
use crate::model::{Availability, Category, Grammar, Instruction, OperandKind};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use std::collections::BTreeMap;

/// Interns availability records as `static`s so that equal ones are shared.
pub struct Interner<'g> {
    grammar: &'g Grammar,
    /// The path of the generated `Capability`/`Extension` types.
    path: TokenStream,
    seen: BTreeMap<String, proc_macro2::Ident>,
    /// The `static` definitions.
    pub statics: Vec<TokenStream>,
    prefix: &'static str,
}

impl<'g> Interner<'g> {
    /// An interner whose statics are named `<prefix>_<n>`.
    pub fn new(grammar: &'g Grammar, path: TokenStream, prefix: &'static str) -> Self {
        Interner {
            grammar,
            path,
            seen: BTreeMap::new(),
            statics: Vec::new(),
            prefix,
        }
    }

    /// A reference expression to the static for `a`.
    pub fn get(&mut self, a: &Availability, what: &str) -> Result<TokenStream, String> {
        let path = &self.path;
        let cap_kind = self
            .grammar
            .kind("Capability")
            .ok_or("the grammar has no Capability kind")?;
        let mut caps = Vec::new();
        for c in &a.capabilities {
            let e = cap_kind
                .enumerants
                .iter()
                .find(|e| &e.name == c || e.aliases.contains(c))
                .ok_or_else(|| format!("{what}: unknown capability {c:?}"))?;
            let v = ident(&variant_name("Capability", &e.name));
            caps.push(quote!(#path::Capability::#v));
        }
        let exts: Vec<_> = a
            .extensions
            .iter()
            .map(|e| {
                let v = ident(&extension_variant(e));
                quote!(#path::Extension::#v)
            })
            .collect();
        let version = opt_version(a.version.map(|v| (v.0, v.1)), path);
        let last = opt_version(a.last_version.map(|v| (v.0, v.1)), path);
        let provisional = a.provisional;
        let value = quote! {
            #path::Availability {
                version: #version,
                last_version: #last,
                capabilities: &[#(#caps),*],
                extensions: &[#(#exts),*],
                provisional: #provisional,
            }
        };
        let key = value.to_string();
        let n = self.seen.len();
        let prefix = self.prefix;
        let name = self
            .seen
            .entry(key)
            .or_insert_with(|| format_ident!("{prefix}_{n}"))
            .clone();
        if self.statics.len() < self.seen.len() {
            self.statics
                .push(quote!(static #name: #path::Availability = #value;));
        }
        Ok(quote!(&#name))
    }
}

fn opt_version(v: Option<(u8, u8)>, path: &TokenStream) -> TokenStream {
    match v {
        Some((a, b)) => quote!(Some(#path::Version(#a, #b))),
        None => quote!(None),
    }
}

/// Everything in `availability.rs`.
pub fn emit(g: &Grammar) -> Result<TokenStream, String> {
    let scope = Scope {
        grammar: g,
        local: &[],
    };
    let path = quote!(crate::grammar);
    let mut interner = Interner::new(g, path.clone(), "AVAIL");
    let mut arms = Vec::new();
    for i in &g.instructions {
        let v = variant(i);
        let a = interner.get(&i.availability, &i.opname)?;
        arms.push(quote!(Opcode::#v => #a));
    }
    let mut out = quote! {
        impl Opcode {
            /// When this instruction is available.
            pub fn availability(self) -> &'static Availability {
                match self { #(#arms,)* }
            }
        }
    };
    for k in &g.operand_kinds {
        out.extend(kind(&scope, k, &mut interner, &path)?);
    }
    let mut inst_arms = Vec::new();
    for i in &g.instructions {
        out.extend(op_requires(i, &ident(&i.opname), &path));
        let v = variant(i);
        inst_arms.push(quote!(Instruction::#v(op) => { f(Opcode::#v.availability()); op.visit_requirements(f) }));
    }
    let statics = &interner.statics;
    out.extend(quote! {
        impl Requires for Instruction {
            fn visit_requirements(&self, f: &mut dyn FnMut(&'static Availability)) {
                match self {
                    #(#inst_arms,)*
                    Instruction::Unknown(_) => {}
                }
            }
        }
        #(#statics)*
    });
    Ok(out)
}

/// `Requires` for an instruction struct: the requirements of its operands.
pub fn op_requires(i: &Instruction, name: &proc_macro2::Ident, path: &TokenStream) -> TokenStream {
    let fields: Vec<_> = i.operands.iter().map(|o| ident(&o.field)).collect();
    let f = if fields.is_empty() {
        quote!(_f)
    } else {
        quote!(f)
    };
    quote! {
        impl Requires for #path::#name {
            fn visit_requirements(&self, #f: &mut dyn FnMut(&'static Availability)) {
                #(self.#fields.visit_requirements(f);)*
            }
        }
    }
}

/// Availability accessors and `Requires` for one enum kind.
pub fn kind(
    scope: &Scope,
    k: &OperandKind,
    interner: &mut Interner,
    path: &TokenStream,
) -> Result<TokenStream, String> {
    let name = ident(&k.name);
    let _ = scope;
    match k.category {
        Category::ValueEnum => {
            let plain = !has_parameters(k);
            let mut arms = Vec::new();
            let mut visit = Vec::new();
            for e in &k.enumerants {
                let v = ident(&variant_name(&k.name, &e.name));
                let a = interner.get(&e.availability, &format!("{}::{}", k.name, e.name))?;
                if plain || e.parameters.is_empty() {
                    arms.push(quote!(Self::#v => #a));
                    if !plain {
                        visit.push(quote!(Self::#v => {}));
                    }
                } else {
                    arms.push(quote!(Self::#v(..) => #a));
                    let binds: Vec<_> = (0..e.parameters.len())
                        .map(|n| format_ident!("p{n}"))
                        .collect();
                    visit.push(
                        quote!(Self::#v(#(#binds),*) => { #(#binds.visit_requirements(f);)* }),
                    );
                }
            }
            let self_ref = if plain { quote!(self) } else { quote!(&self) };
            let params = if plain {
                quote!()
            } else {
                quote!(match self { #(#visit,)* })
            };
            Ok(quote! {
                impl #path::#name {
                    /// When this enumerant is available.
                    pub fn availability(#self_ref) -> &'static Availability {
                        match self { #(#arms,)* }
                    }
                }
                impl Requires for #path::#name {
                    fn visit_requirements(&self, f: &mut dyn FnMut(&'static Availability)) {
                        f(self.availability());
                        #params
                    }
                }
            })
        }
        Category::BitEnum => {
            let mut arms = Vec::new();
            for e in k.enumerants.iter().filter(|e| e.value != 0) {
                let a = interner.get(&e.availability, &format!("{}::{}", k.name, e.name))?;
                let bit = e.value;
                arms.push(quote!(#bit => Some(#a)));
            }
            let mut out = quote! {
                impl #path::#name {
                    /// When the flag `bit` (a single bit) is available.
                    pub fn bit_availability(bit: u32) -> Option<&'static Availability> {
                        match bit { #(#arms,)* _ => None }
                    }
                }
                impl Requires for #path::#name {
                    fn visit_requirements(&self, f: &mut dyn FnMut(&'static Availability)) {
                        visit_bits(self.0, Self::bit_availability, f);
                    }
                }
            };
            if has_parameters(k) {
                let args = format_ident!("{}Args", k.name);
                let fields: Vec<_> = k
                    .enumerants
                    .iter()
                    .filter(|e| !e.parameters.is_empty())
                    .map(|e| ident(&crate::model::snake_case(&e.name)))
                    .collect();
                out.extend(quote! {
                    impl Requires for #path::#args {
                        fn visit_requirements(&self, f: &mut dyn FnMut(&'static Availability)) {
                            self.effective_mask().visit_requirements(f);
                            #(self.#fields.visit_requirements(f);)*
                        }
                    }
                });
            }
            Ok(out)
        }
        _ => Ok(TokenStream::new()),
    }
}
