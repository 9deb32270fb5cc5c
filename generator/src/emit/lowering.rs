//! `lowering.rs`: the pattern table of `grammar/lowering.json` as plain data: a `Pattern` per
//! table entry, a `match` from opcode (or extended instruction number) to pattern, and the
//! whole table as `const` slices for tests and reports. The names are the table's own strings;
//! `src/lower/` maps them to LLVM.

use super::ident;
use crate::lowering::Checked;
use crate::model::Grammar;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

fn kind(k: &str) -> Result<proc_macro2::Ident, String> {
    Ok(ident(match k {
        "binop" => "BinOp",
        "unop" => "UnOp",
        "cast" => "Cast",
        "icmp" => "ICmp",
        "fcmp" => "FCmp",
        "fcmp_self" => "FCmpSelf",
        "select" => "Select",
        "intrinsic" => "Intrinsic",
        "libm" => "LibM",
        _ => return Err(format!("lowering.json: unknown kind `{k}`")),
    }))
}

fn pattern(c: &Checked) -> Result<TokenStream, String> {
    let name = &c.name;
    let k = kind(&c.kind)?;
    let llvm = &c.llvm;
    let overload = c.overload.iter().map(|o| match o {
        None => quote!(None),
        Some(i) => quote!(Some(#i)),
    });
    let trailing = match c.trailing_i1 {
        None => quote!(None),
        Some(b) => quote!(Some(#b)),
    };
    Ok(quote! {
        Pattern { name: #name, kind: PatternKind::#k, llvm: #llvm, overload: &[#(#overload),*], trailing_i1: #trailing }
    })
}

/// The Rust identifier part for a set's import name (`GLSL.std.450` → `glsl_std_450`).
fn set_ident(import: &str) -> String {
    import
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect()
}

/// Everything in `lowering.rs`.
pub fn emit(g: &Grammar) -> Result<TokenStream, String> {
    let table = g.lowering.clone().unwrap_or_default();
    let mut core_arms = Vec::new();
    let mut core_list = Vec::new();
    for c in &table.core {
        let i = g
            .instructions
            .iter()
            .find(|i| i.opname == c.name)
            .ok_or_else(|| format!("lowering.json: `{}` vanished", c.name))?;
        let v = super::ops::variant(i);
        let p = pattern(c)?;
        core_arms.push(quote!(Opcode::#v => Some(#p)));
        core_list.push(quote!((Opcode::#v, #p)));
    }
    let mut out = quote! {
        /// How a table pattern lowers (the table's `kind`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum PatternKind {
            /// A two-operand instruction (`add`, `fmul`, ...).
            BinOp,
            /// A one-operand instruction (`fneg`, or `neg`: `sub 0, x`).
            UnOp,
            /// A conversion (`fptosi`, `bitcast`, ...) to the result type.
            Cast,
            /// An integer comparison with the named predicate.
            ICmp,
            /// A floating-point comparison with the named predicate.
            FCmp,
            /// A floating-point comparison of the one operand with itself (`uno`: is NaN).
            FCmpSelf,
            /// `select` of the three operands.
            Select,
            /// A call of the named LLVM intrinsic.
            Intrinsic,
            /// A call of the named C math library function (its `double` spelling; `f`
            /// appended for `float`), component by component for vectors.
            LibM,
        }
        /// One entry of the lowering table.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub struct Pattern {
            /// The SPIR-V op or extended instruction name as the grammar spells it.
            pub name: &'static str,
            /// How it lowers.
            pub kind: PatternKind,
            /// The instruction, predicate, intrinsic or function name.
            pub llvm: &'static str,
            /// Intrinsics: the overloaded types, `None` for the result, `Some(i)` for operand
            /// `i`.
            pub overload: &'static [Option<u8>],
            /// Intrinsics: a constant `i1` argument appended after the operands.
            pub trailing_i1: Option<bool>,
        }
        /// The pattern of a core op, if the table has one.
        pub fn core_pattern(op: Opcode) -> Option<Pattern> {
            #[allow(unreachable_patterns)]
            match op { #(#core_arms,)* _ => None }
        }
        /// Every core pattern, in table order.
        pub const CORE_PATTERNS: &[(Opcode, Pattern)] = &[#(#core_list),*];
    };
    let mut set_arms = Vec::new();
    let mut set_list = Vec::new();
    for (set, entries) in &table.ext {
        let f = format_ident!("{}_pattern", set_ident(set));
        let list = format_ident!("{}_PATTERNS", set_ident(set).to_ascii_uppercase());
        let mut arms = Vec::new();
        let mut items = Vec::new();
        for c in entries {
            let n = c.number;
            let p = pattern(c)?;
            arms.push(quote!(#n => Some(#p)));
            items.push(quote!((#n, #p)));
        }
        let doc = format!("The pattern of `{set}` instruction `number`, if the table has one.");
        let ldoc = format!("Every `{set}` pattern, in table order.");
        out.extend(quote! {
            #[doc = #doc]
            pub fn #f(number: u32) -> Option<Pattern> {
                match number { #(#arms,)* _ => None }
            }
            #[doc = #ldoc]
            pub const #list: &[(u32, Pattern)] = &[#(#items),*];
        });
        set_arms.push(quote!(#set => #f(number)));
        set_list.push(quote!((#set, #list)));
    }
    out.extend(quote! {
        /// The pattern of instruction `number` of the extended set imported as `set`.
        pub fn ext_pattern(set: &str, number: u32) -> Option<Pattern> {
            match set { #(#set_arms,)* _ => None }
        }
        /// Every extended set of the table with its patterns.
        pub const EXT_PATTERNS: &[(&str, &[(u32, Pattern)])] = &[#(#set_list),*];
    });
    Ok(out)
}
