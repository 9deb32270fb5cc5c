//! Semantic analysis: HLSL's types ([`types`]), buffer layouts ([`layout`]), constant folding
//! ([`consteval`]), the intrinsic table ([`intrinsics`]) and scopes ([`scope`]). Type checking
//! of expressions happens as the emitter walks the tree (`crate::hlsl::emit`), with these rules.

pub mod attributes;
pub mod consteval;
pub mod intrinsics;
pub mod layout;
pub mod names;
pub mod scope;
pub mod types;
