//! `enums.rs`: a Rust enum per value-enum kind, a flags type per bit-enum kind (plus an `…Args`
//! struct carrying the parameters of the bits that take some), and the `Extension` enum.

use super::shape::{has_parameters, Scope};
use super::{extension_variant, ident, variant_name};
use crate::model::{Category, Enumerant, Grammar, OperandKind};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// Every core operand kind's type.
pub fn emit(g: &Grammar) -> Result<TokenStream, String> {
    let scope = Scope {
        grammar: g,
        local: &[],
    };
    let mut out = TokenStream::new();
    for k in &g.operand_kinds {
        out.extend(kind(&scope, k)?);
    }
    out.extend(extensions(g));
    out.extend(values(g));
    Ok(out)
}

/// `values::<kind>::<Enumerant>`: each value-enum enumerant's number as a constant, for
/// `match` patterns on raw words (the enums with parameters cannot be cast).
fn values(g: &Grammar) -> TokenStream {
    let mut mods = Vec::new();
    for k in g
        .operand_kinds
        .iter()
        .filter(|k| k.category == Category::ValueEnum)
    {
        let m = format_ident!("{}", crate::model::snake_case(&k.name));
        let mut seen = std::collections::BTreeSet::new();
        let mut items = Vec::new();
        for e in &k.enumerants {
            for name in names_with_aliases(e) {
                let c = variant_name(&k.name, name);
                if seen.insert(c.clone()) {
                    let c = ident(&c);
                    let v = e.value;
                    let doc = format!("`{}::{name}`.", k.name);
                    items.push(quote!(#[doc = #doc] pub const #c: u32 = #v;));
                }
            }
        }
        let doc = format!("The values of `{}`.", k.name);
        mods.push(quote! {
            #[doc = #doc]
            pub mod #m { #(#items)* }
        });
    }
    quote! {
        /// Value-enum enumerants as numbers, by kind (`values::decoration::BuiltIn`).
        #[allow(non_upper_case_globals)]
        pub mod values { #(#mods)* }
    }
}

/// The type(s) of one enum kind; nothing for ids, literals and composites.
pub fn kind(scope: &Scope, k: &OperandKind) -> Result<TokenStream, String> {
    match k.category {
        Category::ValueEnum => value_enum(scope, k),
        Category::BitEnum => bit_enum(scope, k),
        _ => Ok(TokenStream::new()),
    }
}

/// The Rust type of an enumerant's parameters: one type, or a tuple of several.
pub fn parameter_types(scope: &Scope, e: &Enumerant) -> Result<Vec<TokenStream>, String> {
    e.parameters.iter().map(|p| scope.operand_ty(p)).collect()
}

fn names_with_aliases(e: &Enumerant) -> Vec<&str> {
    std::iter::once(e.name.as_str())
        .chain(e.aliases.iter().map(|a| a.as_str()))
        .collect()
}

fn value_enum(scope: &Scope, k: &OperandKind) -> Result<TokenStream, String> {
    let name = ident(&k.name);
    let doc = format!("The `{}` operand kind of the SPIR-V grammar.", k.name);
    let variants: Vec<_> = k
        .enumerants
        .iter()
        .map(|e| ident(&variant_name(&k.name, &e.name)))
        .collect();
    let spellings: Vec<&str> = k.enumerants.iter().map(|e| e.name.as_str()).collect();
    let values: Vec<u32> = k.enumerants.iter().map(|e| e.value).collect();
    let mut defs = Vec::new();
    let mut patterns = Vec::new();
    let mut from_str_arms = Vec::new();
    for (e, v) in k.enumerants.iter().zip(&variants) {
        let edoc = format!("`{}` ({}).", e.name, e.value);
        let params = parameter_types(scope, e)?;
        if params.is_empty() {
            defs.push(quote!(#[doc = #edoc] #v));
            patterns.push(quote!(Self::#v));
            let names = names_with_aliases(e);
            from_str_arms.push(quote!(#(#names)|* => Ok(Self::#v)));
        } else {
            defs.push(quote!(#[doc = #edoc] #v(#(#params),*)));
            patterns.push(quote!(Self::#v(..)));
        }
    }
    let is_plain = !has_parameters(k);
    let derives = if is_plain {
        quote!(#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)] #[repr(u32)])
    } else {
        quote!(#[derive(Clone, Debug, PartialEq, Eq, Hash)])
    };
    let body = if is_plain {
        quote!(#(#defs = #values),*)
    } else {
        quote!(#(#defs),*)
    };
    let self_ref = if is_plain {
        quote!(self)
    } else {
        quote!(&self)
    };
    let from_value = if is_plain {
        quote! {
            /// The enumerant with this value, if the grammar has one.
            pub fn from_value(value: u32) -> Option<Self> {
                match value { #(#values => Some(Self::#variants),)* _ => None }
            }
        }
    } else {
        TokenStream::new()
    };
    // Aliases as associated constants, so that code naming an enumerant compiles against
    // grammars that made the alias canonical (`RayPayloadNV` → `RayPayloadKHR`); in a kind
    // with parameters, for the enumerants without any (`DerivativeGroupQuadsNV`).
    let mut alias_consts = Vec::new();
    {
        let variant_names: Vec<String> = k
            .enumerants
            .iter()
            .map(|e| variant_name(&k.name, &e.name))
            .collect();
        for (e, v) in k.enumerants.iter().zip(&variants) {
            if !e.parameters.is_empty() {
                continue;
            }
            for a in &e.aliases {
                let an = variant_name(&k.name, a);
                let valid = an.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                if valid && !variant_names.contains(&an) && an != *v.to_string() {
                    let c = ident(&an);
                    let adoc = format!("Alias of `{}`.", e.name);
                    alias_consts.push(quote!(#[doc = #adoc] pub const #c: Self = Self::#v;));
                }
            }
        }
    }
    let alias_block = if alias_consts.is_empty() {
        TokenStream::new()
    } else {
        quote!(#[allow(non_upper_case_globals)] impl #name { #(#alias_consts)* })
    };
    let err = format!("not a {} enumerant without parameters", k.name);
    Ok(quote! {
        #[doc = #doc]
        #derives
        pub enum #name { #body }

        impl #name {
            /// The enumerant's value in the binary form.
            pub fn value(#self_ref) -> u32 {
                match self { #(#patterns => #values,)* }
            }
            /// The enumerant's name in the grammar's spelling.
            pub fn name(#self_ref) -> &'static str {
                match self { #(#patterns => #spellings,)* }
            }
            #from_value
        }

        #alias_block

        impl core::fmt::Display for #name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl core::str::FromStr for #name {
            type Err = UnknownName;
            /// Parses a parameterless enumerant by its name or an alias.
            fn from_str(s: &str) -> Result<Self, UnknownName> {
                match s { #(#from_str_arms,)* _ => Err(UnknownName { kind: #err, name: s.to_string() }) }
            }
        }
    })
}

fn bit_enum(scope: &Scope, k: &OperandKind) -> Result<TokenStream, String> {
    let name = ident(&k.name);
    let doc = format!(
        "The `{}` bit-enum kind of the SPIR-V grammar: a set of flags.",
        k.name
    );
    let mut consts = Vec::new();
    let mut display_bits = Vec::new();
    let mut parse_arms = Vec::new();
    let mut zero_name = "None".to_string();
    let const_names: Vec<String> = k
        .enumerants
        .iter()
        .map(|e| variant_name(&k.name, &e.name))
        .collect();
    let mut alias_names = std::collections::HashSet::new();
    for e in &k.enumerants {
        let c = ident(&variant_name(&k.name, &e.name));
        let v = e.value;
        let edoc = format!("`{}` (0x{:x}).", e.name, e.value);
        consts.push(quote!(#[doc = #edoc] pub const #c: Self = Self(#v);));
        // Aliases too, so that code naming a bit compiles against grammars that made the
        // alias canonical (`OptNoneINTEL` → `OptNoneEXT`).
        for a in &e.aliases {
            let an = variant_name(&k.name, a);
            let valid = an.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if valid && !const_names.contains(&an) && alias_names.insert(an.clone()) {
                let ac = ident(&an);
                let adoc = format!("Alias of `{}`.", e.name);
                consts.push(quote!(#[doc = #adoc] pub const #ac: Self = Self(#v);));
            }
        }
        let names = names_with_aliases(e);
        parse_arms.push(quote!(#(#names)|* => #v));
        if v == 0 {
            zero_name = e.name.clone();
        } else {
            let n = &e.name;
            display_bits.push(quote!((#v, #n)));
        }
    }
    let err = format!("not a {} flag", k.name);
    let mut out = quote! {
        #[doc = #doc]
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
        pub struct #name(pub u32);

        #[allow(non_upper_case_globals)]
        impl #name {
            #(#consts)*
            /// Named bits in ascending order, for printing.
            pub const NAMED_BITS: &'static [(u32, &'static str)] = &[#(#display_bits),*];
            /// The raw mask.
            pub fn bits(self) -> u32 { self.0 }
            /// Whether every bit of `other` is set.
            pub fn contains(self, other: Self) -> bool { self.0 & other.0 == other.0 }
            /// Whether no bit is set.
            pub fn is_empty(self) -> bool { self.0 == 0 }
        }

        impl core::ops::BitOr for #name {
            type Output = Self;
            fn bitor(self, o: Self) -> Self { Self(self.0 | o.0) }
        }
        impl core::ops::BitOrAssign for #name {
            fn bitor_assign(&mut self, o: Self) { self.0 |= o.0 }
        }
        impl core::ops::BitAnd for #name {
            type Output = Self;
            fn bitand(self, o: Self) -> Self { Self(self.0 & o.0) }
        }

        impl core::fmt::Display for #name {
            /// `Bias|Lod` in the grammar's spelling; unnamed bits in hex.
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                write_flags(f, self.0, Self::NAMED_BITS, #zero_name)
            }
        }
        impl core::fmt::Debug for #name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                core::fmt::Display::fmt(self, f)
            }
        }

        impl core::str::FromStr for #name {
            type Err = UnknownName;
            /// Parses `A|B|C` (names, aliases or numbers).
            fn from_str(s: &str) -> Result<Self, UnknownName> {
                let mut mask = 0u32;
                for part in s.split('|') {
                    let part = part.trim();
                    mask |= match part {
                        #(#parse_arms,)*
                        other => parse_u32(other).ok_or_else(|| UnknownName { kind: #err, name: other.to_string() })?,
                    };
                }
                Ok(Self(mask))
            }
        }
    };
    if has_parameters(k) {
        let args = format_ident!("{}Args", k.name);
        let adoc = format!(
            "A `{}` operand with the parameters of its bits. On encoding, the bits that take \
             parameters are set exactly when their parameter is present.",
            k.name
        );
        let mut fields = Vec::new();
        let mut param_bits = 0u32;
        let mut set_bits = Vec::new();
        for e in k.enumerants.iter().filter(|e| !e.parameters.is_empty()) {
            let f = ident(&crate::model::snake_case(&e.name));
            let t = param_field_ty(scope, e)?;
            let fdoc = format!("Parameters of `{}`.", e.name);
            fields.push(quote!(#[doc = #fdoc] pub #f: Option<#t>));
            let bit = e.value;
            param_bits |= bit;
            set_bits.push(quote!(if self.#f.is_some() { mask |= #bit; }));
        }
        out.extend(quote! {
            #[doc = #adoc]
            #[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
            pub struct #args {
                /// All the bits; on encoding, a bit that takes parameters is set exactly when its field is.
                pub mask: #name,
                #(#fields,)*
            }

            impl #args {
                /// The mask as encoded: `mask`'s bits without parameters, plus the bit of every
                /// present parameter.
                pub fn effective_mask(&self) -> #name {
                    let mut mask = self.mask.0 & !#param_bits;
                    #(#set_bits)*
                    #name(mask)
                }
            }
        });
    }
    Ok(out)
}

/// The type of a bit's parameters inside an `…Args` struct.
pub fn param_field_ty(scope: &Scope, e: &Enumerant) -> Result<TokenStream, String> {
    let ts = parameter_types(scope, e)?;
    Ok(if ts.len() == 1 {
        ts[0].clone()
    } else {
        quote!((#(#ts),*))
    })
}

fn extensions(g: &Grammar) -> TokenStream {
    let variants: Vec<_> = g
        .extensions
        .iter()
        .map(|e| ident(&extension_variant(e)))
        .collect();
    let names = &g.extensions;
    quote! {
        /// Every extension the grammar names, in its spelling.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[allow(non_camel_case_types)]
        pub enum Extension { #(#[doc = #names] #variants),* }

        impl Extension {
            /// The extension's name.
            pub fn name(self) -> &'static str { match self { #(Self::#variants => #names,)* } }
            /// Every extension, sorted by name.
            pub const ALL: &'static [Extension] = &[#(Self::#variants),*];
        }

        impl core::fmt::Display for Extension {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result { f.write_str(self.name()) }
        }

        impl core::str::FromStr for Extension {
            type Err = UnknownName;
            fn from_str(s: &str) -> Result<Self, UnknownName> {
                match s { #(#names => Ok(Self::#variants),)* _ => Err(UnknownName { kind: "not an extension the grammar knows", name: s.to_string() }) }
            }
        }
    }
}
