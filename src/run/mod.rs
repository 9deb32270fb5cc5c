//! Execution of lowered compute entry points on the CPU: a JIT over [`crate::lower`]'s output,
//! the dispatch grid across cores, and the job description of `spvkit run`.

pub mod context;
pub use context::InvocationContext;
