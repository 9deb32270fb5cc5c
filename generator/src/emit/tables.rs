//! `tables.rs`: static descriptor tables (names, operand lists, enumerants, parameters) that
//! the table-driven text codec walks, for the core grammar and every extended set, plus the
//! generator-tool registry of `spir-v.xml`.

use super::ident;
use super::shape::{Scope, Shape};
use crate::model::{Grammar, Instruction, Operand, OperandKind, Quantifier};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

fn upper(s: &str) -> String {
    crate::model::snake_case(s)
        .trim_start_matches('_')
        .trim_end_matches('_')
        .to_uppercase()
}

/// The static holding a kind's descriptor; extended-set kinds are prefixed by their set.
fn kind_static(scope: &Scope, set: Option<&str>, kind: &str) -> proc_macro2::Ident {
    match set {
        Some(s) if scope.local.iter().any(|k| k.name == kind) => {
            format_ident!("KIND_{}_{}", upper(s), upper(kind))
        }
        _ => format_ident!("KIND_{}", upper(kind)),
    }
}

fn operand_desc(scope: &Scope, set: Option<&str>, o: &Operand) -> TokenStream {
    let k = kind_static(scope, set, &o.kind);
    let q = match o.quantifier {
        Quantifier::One => quote!(Quantifier::One),
        Quantifier::Optional => quote!(Quantifier::Optional),
        Quantifier::Many => quote!(Quantifier::Many),
    };
    let name = &o.name;
    quote!(OperandDesc { kind: &#k, quantifier: #q, name: #name })
}

fn kind_desc(scope: &Scope, set: Option<&str>, k: &OperandKind) -> Result<TokenStream, String> {
    let st = kind_static(scope, set, &k.name);
    let class = match scope.shape(&k.name)? {
        Shape::Id => match k.name.as_str() {
            "IdResultType" => quote!(KindClass::ResultType),
            "IdResult" => quote!(KindClass::Result),
            _ => quote!(KindClass::Id),
        },
        Shape::Word => match k.name.as_str() {
            "LiteralExtInstInteger" => quote!(KindClass::ExtInstNumber),
            _ => quote!(KindClass::Integer),
        },
        Shape::FloatBits => quote!(KindClass::Float),
        Shape::String => quote!(KindClass::String),
        Shape::ContextNumber => quote!(KindClass::ContextNumber),
        Shape::SpecConstantOperation => quote!(KindClass::SpecConstantOpcode),
        Shape::SwitchTarget | Shape::Pair(..) => quote!(KindClass::Composite),
        Shape::ValueEnum(_) => quote!(KindClass::ValueEnum),
        Shape::BitEnum(_) => quote!(KindClass::BitEnum),
    };
    let mut enumerants = Vec::new();
    for e in &k.enumerants {
        let name = &e.name;
        let aliases = &e.aliases;
        let value = e.value;
        let params: Vec<_> = e
            .parameters
            .iter()
            .map(|p| operand_desc(scope, set, p))
            .collect();
        enumerants.push(quote!(EnumerantDesc { name: #name, aliases: &[#(#aliases),*], value: #value, parameters: &[#(#params),*] }));
    }
    let bases: Vec<_> = k.bases.iter().map(|b| kind_static(scope, set, b)).collect();
    let name = &k.name;
    let doc = format!("The `{}` operand kind.", k.name);
    Ok(quote! {
        #[doc = #doc]
        pub static #st: KindDesc = KindDesc { name: #name, class: #class, enumerants: &[#(#enumerants),*], bases: &[#(&#bases),*] };
    })
}

fn instruction_desc(scope: &Scope, set: Option<&str>, i: &Instruction) -> TokenStream {
    let name = &i.opname;
    let aliases = &i.aliases;
    let opcode = i.opcode;
    let class = &i.class;
    let ops: Vec<_> = i
        .operands
        .iter()
        .map(|o| operand_desc(scope, set, o))
        .collect();
    quote!(InstructionDesc { name: #name, aliases: &[#(#aliases),*], opcode: #opcode, class: #class, operands: &[#(#ops),*] })
}

/// Everything in `tables.rs`.
pub fn emit(g: &Grammar) -> Result<TokenStream, String> {
    let core = Scope {
        grammar: g,
        local: &[],
    };
    let mut out = TokenStream::new();
    for k in &g.operand_kinds {
        out.extend(kind_desc(&core, None, k)?);
    }
    let insts: Vec<_> = g
        .instructions
        .iter()
        .map(|i| instruction_desc(&core, None, i))
        .collect();
    let n = insts.len();
    let codes: Vec<u16> = g.instructions.iter().map(|i| i.opcode as u16).collect();
    let idx: Vec<usize> = (0..n).collect();
    let mut name_arms = Vec::new();
    for (k, i) in g.instructions.iter().enumerate() {
        let names: Vec<&str> = std::iter::once(i.opname.as_str())
            .chain(i.aliases.iter().map(|s| s.as_str()))
            .collect();
        name_arms.push(quote!(#(#names)|* => Some(&CORE_INSTRUCTIONS[#k])));
    }
    let kind_names: Vec<&str> = g.operand_kinds.iter().map(|k| k.name.as_str()).collect();
    let kind_statics: Vec<_> = g
        .operand_kinds
        .iter()
        .map(|k| kind_static(&core, None, &k.name))
        .collect();
    let mut sets = Vec::new();
    for s in &g.ext_sets {
        let scope = Scope {
            grammar: g,
            local: &s.operand_kinds,
        };
        let stem = Some(s.file_stem.as_str());
        for k in &s.operand_kinds {
            out.extend(kind_desc(&scope, stem, k)?);
        }
        let insts: Vec<_> = s
            .instructions
            .iter()
            .map(|i| instruction_desc(&scope, stem, i))
            .collect();
        let name = &s.import_name;
        sets.push(quote!(ExtInstSetDesc { name: #name, instructions: &[#(#insts),*] }));
    }
    let tools: Vec<_> = g
        .tools
        .iter()
        .map(|t| {
            let id = t.id;
            let vendor = &t.vendor;
            let tool = match &t.tool {
                Some(s) => quote!(Some(#s)),
                None => quote!(None),
            };
            quote!(GeneratorTool { id: #id, vendor: #vendor, tool: #tool })
        })
        .collect();
    let version = |v: Option<crate::model::Version>| match v {
        Some(crate::model::Version(a, b)) => quote!(Some(Version(#a, #b))),
        None => quote!(None),
    };
    let core_only: Vec<_> = g
        .core_only_names
        .iter()
        .map(|c| {
            let kind = c.kind.as_deref().unwrap_or("");
            let name = &c.name;
            let (first, last) = (version(c.version), version(c.last_version));
            quote!((#kind, #name) => Some((#first, #last)))
        })
        .collect();
    let (major, minor, rev, magic) = (g.version.0, g.version.1, g.revision, g.magic);
    let _ = ident("x");
    out.extend(quote! {
        /// The grammar's SPIR-V version (`major`, `minor`).
        pub const GRAMMAR_VERSION: (u8, u8) = (#major, #minor);
        /// The grammar's revision.
        pub const GRAMMAR_REVISION: u32 = #rev;
        /// The SPIR-V magic number.
        pub const MAGIC_NUMBER: u32 = #magic;

        /// Every core instruction, ascending by opcode.
        pub static CORE_INSTRUCTIONS: [InstructionDesc; #n] = [#(#insts),*];

        /// The descriptor of a core opcode.
        pub fn core_instruction(opcode: u16) -> Option<&'static InstructionDesc> {
            match opcode { #(#codes => Some(&CORE_INSTRUCTIONS[#idx]),)* _ => None }
        }

        /// The descriptor of a core instruction by name or alias.
        pub fn core_instruction_by_name(name: &str) -> Option<&'static InstructionDesc> {
            match name { #(#name_arms,)* _ => None }
        }

        /// A core operand kind by name.
        pub fn kind_by_name(name: &str) -> Option<&'static KindDesc> {
            match name { #(#kind_names => Some(&#kind_statics),)* _ => None }
        }

        /// For a core name whose value no capability or extension enables (under any of its
        /// names) and that some core version lacks: the first and last versions with it.
        /// `kind` is the operand kind's name, or empty for an instruction name. A
        /// version-aware assembler such as `spirv-as` knows such a name only when assembling
        /// for one of those versions.
        pub fn core_only_name_versions(kind: &str, name: &str) -> Option<(Option<Version>, Option<Version>)> {
            match (kind, name) { #(#core_only,)* _ => None }
        }

        /// Every extended instruction set of the grammar directory, by import name.
        pub static EXT_INST_SETS: &[ExtInstSetDesc] = &[#(#sets),*];

        /// Generator ids registered in `spir-v.xml`.
        pub static GENERATOR_TOOLS: &[GeneratorTool] = &[#(#tools),*];
    });
    Ok(out)
}
