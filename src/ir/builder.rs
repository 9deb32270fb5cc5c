//! Building IR from Rust.

/// Builds a module.
pub struct Builder;
