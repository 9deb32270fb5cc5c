//! `lowering.rs`: the table of `grammar/lowering.json` as plain data: a `Pattern` per pattern
//! entry, a `match` from opcode (or extended instruction number) to pattern, and the whole
//! table (the special and hand-written entries too) as `const` slices for tests and reports.
//! The names are the table's own strings; `src/lower/` maps them to LLVM.
//!
//! `lowering_dispatch.rs`: the calls of the special cases, for `src/lower/` alone (it names
//! `crate::lower::special`'s functions and inkwell's types, so it is included only where the
//! `llvm` feature is on).

use super::{camel, ident};
use crate::lowering::{Checked, HAND_WRITTEN, SPECIAL};
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
    let llvm = &c.target;
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

/// The `Opcode` variant of a core entry.
fn opcode(g: &Grammar, c: &Checked) -> Result<TokenStream, String> {
    let i = g
        .instructions
        .iter()
        .find(|i| i.opname == c.name)
        .ok_or_else(|| format!("lowering.json: `{}` vanished", c.name))?;
    let v = super::ops::variant(i);
    Ok(quote!(Opcode::#v))
}

/// Which list a special (0) or hand-written (1) entry goes to; `None` for patterns.
fn routed(c: &Checked) -> Option<usize> {
    [SPECIAL, HAND_WRITTEN].iter().position(|k| *k == c.kind)
}

/// A `Handler` of a special or hand-written entry.
fn handler(c: &Checked) -> TokenStream {
    let (name, code) = (&c.name, &c.target);
    quote!(Handler { name: #name, code: #code })
}

/// Everything in `lowering.rs`.
pub fn emit(g: &Grammar) -> Result<TokenStream, String> {
    let table = g.lowering.clone().unwrap_or_default();
    let mut core_arms = Vec::new();
    let mut core_list = Vec::new();
    let mut core_by_kind = [Vec::new(), Vec::new()];
    let mut core_module_arms = Vec::new();
    for c in &table.core {
        let op = opcode(g, c)?;
        if let Some(k) = routed(c) {
            let h = handler(c);
            core_by_kind[k].push(quote!((#op, #h)));
            if c.kind == HAND_WRITTEN {
                let m = &c.target;
                core_module_arms.push(quote!(#op => Some(#m)));
            }
            continue;
        }
        let p = pattern(c)?;
        core_arms.push(quote!(#op => Some(#p)));
        core_list.push(quote!((#op, #p)));
    }
    let [core_special, core_hand_written] = core_by_kind;
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
        /// An op the table routes to code rather than a pattern.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub struct Handler {
            /// The SPIR-V op or extended instruction name as the grammar spells it.
            pub name: &'static str,
            /// The function of `spvkit::lower::special` (special cases) or the module of
            /// `src/lower/` (hand-written ops) that lowers it.
            pub code: &'static str,
        }
        /// Every core op lowered by a special case, in table order.
        pub const CORE_SPECIAL: &[(Opcode, Handler)] = &[#(#core_special),*];
        /// Every core op lowered by hand-written code, in table order.
        pub const CORE_HAND_WRITTEN: &[(Opcode, Handler)] = &[#(#core_hand_written),*];
        /// The module of `src/lower/` whose hand-written code lowers a core op, if any: the
        /// dispatch asks the table rather than keeping its own list.
        pub fn core_hand_written(op: Opcode) -> Option<&'static str> {
            #[allow(unreachable_patterns)]
            match op { #(#core_module_arms,)* _ => None }
        }
    };
    let mut set_arms = Vec::new();
    let mut set_list = Vec::new();
    let mut set_by_kind = [Vec::new(), Vec::new()];
    let mut set_module_arms = Vec::new();
    for (set, entries) in &table.ext {
        let f = format_ident!("{}_pattern", set_ident(set));
        let list = format_ident!("{}_PATTERNS", set_ident(set).to_ascii_uppercase());
        let mut arms = Vec::new();
        let mut items = Vec::new();
        let mut by_kind = [Vec::new(), Vec::new()];
        let mut module_arms = Vec::new();
        for c in entries {
            let n = c.number;
            if let Some(k) = routed(c) {
                let h = handler(c);
                by_kind[k].push(quote!((#n, #h)));
                if c.kind == HAND_WRITTEN {
                    let m = &c.target;
                    module_arms.push(quote!(#n => Some(#m)));
                }
                continue;
            }
            let p = pattern(c)?;
            arms.push(quote!(#n => Some(#p)));
            items.push(quote!((#n, #p)));
        }
        for (k, items) in by_kind.into_iter().enumerate() {
            set_by_kind[k].push(quote!((#set, &[#(#items),*])));
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
        set_module_arms.push(quote!(#set => match number { #(#module_arms,)* _ => None }));
        set_list.push(quote!((#set, #list)));
    }
    out.extend(quote! {
        /// The pattern of instruction `number` of the extended set imported as `set`.
        pub fn ext_pattern(set: &str, number: u32) -> Option<Pattern> {
            match set { #(#set_arms,)* _ => None }
        }
        /// Every extended set of the table with its patterns.
        pub const EXT_PATTERNS: &[(&str, &[(u32, Pattern)])] = &[#(#set_list),*];
        /// The module of `src/lower/` whose hand-written code lowers instruction `number` of
        /// the extended set imported as `set`, if any.
        pub fn ext_hand_written(set: &str, number: u32) -> Option<&'static str> {
            #[allow(clippy::match_single_binding)]
            match set { #(#set_module_arms,)* _ => None }
        }
    });
    let [ext_special, ext_hand_written] = set_by_kind;
    out.extend(quote! {
        /// Every extended set of the table with its instructions lowered by special cases.
        pub const EXT_SPECIAL: &[(&str, &[(u32, Handler)])] = &[#(#ext_special),*];
        /// Every extended set of the table with its instructions lowered by hand-written code.
        pub const EXT_HAND_WRITTEN: &[(&str, &[(u32, Handler)])] = &[#(#ext_hand_written),*];
    });
    Ok(out)
}

/// Everything in `lowering_dispatch.rs`: a `Special` variant per handler of the table's special
/// entries, the lookups from core op and extended instruction to it, and `call`, which calls
/// `crate::lower::special::<handler>`.
pub fn emit_dispatch(g: &Grammar) -> Result<TokenStream, String> {
    let table = g.lowering.clone().unwrap_or_default();
    let special = |c: &&Checked| c.kind == SPECIAL;
    let mut handlers: Vec<&str> = Vec::new();
    let mut core_arms = Vec::new();
    for c in table.core.iter().filter(special) {
        let (op, v) = (opcode(g, c)?, ident(&camel(&c.target)));
        core_arms.push(quote!(#op => Some(Special::#v)));
        handlers.push(&c.target);
    }
    let mut set_arms = Vec::new();
    for (set, entries) in &table.ext {
        let mut arms = Vec::new();
        for c in entries.iter().filter(special) {
            let (n, v) = (c.number, ident(&camel(&c.target)));
            arms.push(quote!(#n => Some(Special::#v)));
            handlers.push(&c.target);
        }
        if !arms.is_empty() {
            set_arms.push(quote!(#set => match number { #(#arms,)* _ => None }));
        }
    }
    // Two ops may share a handler: one variant each.
    let mut seen = std::collections::BTreeSet::new();
    handlers.retain(|h| seen.insert(*h));
    let variants: Vec<_> = handlers.iter().map(|h| ident(&camel(h))).collect();
    let docs = handlers
        .iter()
        .map(|h| format!("`crate::lower::special::{h}`."));
    let fns: Vec<_> = handlers.iter().map(|h| ident(h)).collect();
    Ok(quote! {
        /// A special case of `crate::lower::special`, one per handler of the table.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Special { #(#[doc = #docs] #variants,)* }
        impl Special {
            /// The handler's name in `crate::lower::special`.
            pub fn handler(self) -> &'static str {
                match self { #(Special::#variants => #handlers,)* }
            }
        }
        /// The special case of a core op, if the table has one.
        pub fn core_special(op: Opcode) -> Option<Special> {
            #[allow(unreachable_patterns)]
            match op { #(#core_arms,)* _ => None }
        }
        /// The special case of instruction `number` of the extended set imported as `set`.
        pub fn ext_special(set: &str, number: u32) -> Option<Special> {
            #[allow(clippy::match_single_binding)]
            match set { #(#set_arms,)* _ => None }
        }
        /// Calls the special case's lowering.
        pub fn call<'ctx>(
            cx: &'ctx inkwell::context::Context,
            b: &inkwell::builder::Builder<'ctx>,
            which: Special,
            args: &[inkwell::values::BasicValueEnum<'ctx>],
            result: inkwell::types::BasicTypeEnum<'ctx>,
        ) -> crate::lower::error::Result<inkwell::values::BasicValueEnum<'ctx>> {
            use crate::lower::special as s;
            Ok(match which { #(Special::#variants => s::#fns(cx, b, args, result),)* }?)
        }
    })
}
