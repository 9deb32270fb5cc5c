//! Errors of the lowering: the op (its grammar name), its word offset in the input binary when
//! known, and the reason.

use core::fmt;

/// What kind of failure a [`LowerError`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LowerErrorKind {
    /// The op, type or feature is not lowered (yet).
    Unsupported,
    /// The module is not what SPIR-V allows (a wrong type, a missing operand, ...).
    Malformed,
    /// LLVM refused something (a builder error or a verifier failure).
    Llvm,
    /// The input binary could not be read as IR.
    Input,
}

/// Why a module could not be lowered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LowerError {
    /// The op's name (`OpIAdd`, `GLSL.std.450 Sqrt`, ...), or what was being lowered.
    pub op: String,
    /// The word offset of the op in the input binary, when known.
    pub offset: Option<usize>,
    /// The kind of failure.
    pub kind: LowerErrorKind,
    /// The reason.
    pub reason: String,
    /// The IR error this one reports, when the input could not be read as IR.
    pub input: Option<crate::ir::IrError>,
}

impl LowerError {
    /// An unsupported feature.
    pub fn unsupported(reason: impl Into<String>) -> Self {
        LowerError {
            op: String::new(),
            offset: None,
            kind: LowerErrorKind::Unsupported,
            reason: reason.into(),
            input: None,
        }
    }

    /// A malformed module.
    pub fn malformed(reason: impl Into<String>) -> Self {
        LowerError {
            op: String::new(),
            offset: None,
            kind: LowerErrorKind::Malformed,
            reason: reason.into(),
            input: None,
        }
    }

    /// Fills in the op and offset, unless already known.
    pub fn at(mut self, op: &str, offset: Option<usize>) -> Self {
        if self.op.is_empty() {
            self.op = op.to_string();
        }
        if self.offset.is_none() {
            self.offset = offset;
        }
        self
    }
}

impl From<inkwell::builder::BuilderError> for LowerError {
    fn from(e: inkwell::builder::BuilderError) -> Self {
        LowerError {
            op: String::new(),
            offset: None,
            kind: LowerErrorKind::Llvm,
            reason: format!("LLVM builder: {e}"),
            input: None,
        }
    }
}

impl From<crate::ir::IrError> for LowerError {
    fn from(e: crate::ir::IrError) -> Self {
        LowerError {
            op: "module".to_string(),
            // (A module in memory that `ir::check` rejects has no words.)
            offset: (!matches!(e.kind, crate::ir::IrErrorKind::Invalid { .. })).then_some(e.offset),
            kind: LowerErrorKind::Input,
            reason: e.kind.to_string(),
            input: Some(e),
        }
    }
}

impl fmt::Display for LowerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(o) = self.offset {
            write!(f, "word {o}: ")?;
        }
        if !self.op.is_empty() {
            write!(f, "{}: ", self.op)?;
        }
        let k = match self.kind {
            LowerErrorKind::Unsupported => "not lowered",
            LowerErrorKind::Malformed => "malformed",
            LowerErrorKind::Llvm => "LLVM",
            LowerErrorKind::Input => "input",
        };
        write!(f, "{k}: {}", self.reason)
    }
}

impl std::error::Error for LowerError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.input
            .as_ref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

/// The lowering's result type.
pub type Result<T> = core::result::Result<T, LowerError>;
