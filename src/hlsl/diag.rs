//! Diagnostics: what went wrong, where, and why. Every layer (preprocessor, parser, semantic
//! analysis, emission) reports through [`Diagnostic`] so a run can report several errors, each
//! rendered as `file:line:col: error: reason`, the source line and a caret.

use super::source::Span;

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The program is rejected.
    Error,
    /// The program compiles, but something looks wrong.
    Warning,
    /// Extra context attached to another diagnostic.
    Note,
}

/// One message about one place in the source.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    /// Error, warning or note.
    pub severity: Severity,
    /// Where: the caret goes under this range.
    pub span: Span,
    /// Why, in one sentence without a trailing period. Constructs outside the supported subset
    /// say `not supported yet: ...`.
    pub message: String,
    /// Related places (e.g. "previous definition is here").
    pub notes: Vec<(Span, String)>,
}

impl Diagnostic {
    /// An error at `span`.
    pub fn error(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            span,
            message: message.into(),
            notes: Vec::new(),
        }
    }

    /// A warning at `span`.
    pub fn warning(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            span,
            message: message.into(),
            notes: Vec::new(),
        }
    }

    /// The same diagnostic with a note at another place.
    pub fn with_note(mut self, span: Span, note: impl Into<String>) -> Diagnostic {
        self.notes.push((span, note.into()));
        self
    }
}
