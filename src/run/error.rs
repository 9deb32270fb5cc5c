//! The errors of `spvkit run`: the job, the module, the interface between them, the JIT.

use super::job::JobError;
use std::fmt;

/// Why a run failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunError {
    /// The job is malformed.
    Job(JobError),
    /// The SPIR-V could not be read as IR.
    Input(crate::ir::IrError),
    /// The SPIR-V could not be lowered.
    Lower(crate::lower::LowerError),
    /// The job does not fit the entry point (a missing buffer, a wrong argument kind, ...).
    Interface(String),
    /// LLVM could not compile the module.
    Jit(String),
    /// The host refused threads or memory.
    Resources(String),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Job(e) => write!(f, "job: {e}"),
            RunError::Input(e) => write!(f, "lowering: {e}"),
            RunError::Lower(e) => write!(f, "lowering: {e}"),
            RunError::Interface(m) => write!(f, "job and module disagree: {m}"),
            RunError::Jit(m) => write!(f, "JIT: {m}"),
            RunError::Resources(m) => write!(f, "resources: {m}"),
        }
    }
}

impl std::error::Error for RunError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RunError::Job(e) => Some(e),
            RunError::Input(e) => Some(e),
            RunError::Lower(e) => Some(e),
            _ => None,
        }
    }
}

impl From<JobError> for RunError {
    fn from(e: JobError) -> RunError {
        RunError::Job(e)
    }
}
