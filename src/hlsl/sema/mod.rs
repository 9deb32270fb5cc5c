//! Semantic analysis: name resolution ([`names`]: namespaces, members, operators, templates,
//! run on the whole tree before code generation), the attribute check ([`attributes`]),
//! HLSL's types ([`types`]), buffer layouts ([`layout`]), constant folding ([`consteval`]),
//! the intrinsic table ([`intrinsics`]) and scopes ([`scope`]); then the HIR: module-scope
//! declarations ([`decls`], [`globals`]), the call graph ([`calls`]) and function bodies as
//! statement trees ([`body`]). Type checking of expressions still happens as the emitter walks
//! them (`crate::hlsl::emit`), with these rules; a typed expression tree is the next step.

pub mod attributes;
pub mod body;
pub mod calls;
pub mod consteval;
pub mod decls;
pub mod globals;
pub mod intrinsics;
pub mod layout;
pub mod names;
pub mod scope;
pub mod types;
