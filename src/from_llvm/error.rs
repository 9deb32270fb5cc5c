//! Errors of the LLVM → SPIR-V translation.

use std::fmt;

/// Why a module could not be translated: where (function, instruction) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FromLlvmError {
    /// The function the construct is in, if any.
    pub function: Option<String>,
    /// The LLVM instruction (or value) as LLVM prints it, if any.
    pub instruction: Option<String>,
    /// What is wrong.
    pub message: String,
    /// The decoder's error, when spvkit's own output could not be read back (a bug).
    pub cause: Option<crate::binary::DecodeError>,
}

impl FromLlvmError {
    /// An error with only a message.
    pub fn new(message: impl Into<String>) -> Self {
        FromLlvmError {
            function: None,
            instruction: None,
            message: message.into(),
            cause: None,
        }
    }
}

impl fmt::Display for FromLlvmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(func) = &self.function {
            write!(f, "in function '{func}': ")?;
        }
        if let Some(inst) = &self.instruction {
            write!(f, "'{}': ", inst.trim())?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for FromLlvmError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.cause
            .as_ref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

/// The result type of this module.
pub type Result<T> = std::result::Result<T, FromLlvmError>;

/// An error with only a message.
pub(crate) fn err<T>(message: impl Into<String>) -> Result<T> {
    Err(FromLlvmError::new(message))
}
