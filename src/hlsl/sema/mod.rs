//! Semantic analysis: name resolution ([`names`]: namespaces, members, operators, templates,
//! run on the whole tree before code generation), the attribute check ([`attributes`]),
//! HLSL's types ([`types`]), buffer layouts ([`layout`]), constant folding ([`consteval`]),
//! the intrinsic table ([`intrinsics`]), where intrinsics and methods are available
//! ([`availability`]) and scopes ([`scope`]); then the HIR: module-scope
//! declarations ([`decls`], [`globals`]), the call graph ([`calls`]) and function bodies as
//! statement trees ([`body`]), with the type of each expression whose rules it knows
//! ([`rules`], shared with the emitter, which still types the others as it walks them); last
//! every resource's descriptor binding ([`bindings`]), the entry point's stage interface
//! ([`interface`]) and execution modes ([`modes`]).

pub mod attributes;
pub mod availability;
pub mod bindings;
pub mod body;
pub mod calls;
pub mod consteval;
pub mod decls;
pub mod globals;
pub mod interface;
pub mod intrinsics;
pub mod layout;
pub mod modes;
pub mod names;
pub mod ray_query;
pub mod rules;
pub mod scope;
pub mod types;
