//! Diagnostics: what went wrong, where, and why. Every layer (preprocessor, parser, semantic
//! analysis, emission) reports through [`Diagnostic`] so a run can report several errors, each
//! rendered as `file:line:col: error: reason`, the source line and a caret.

use super::source::{SourceMap, Span};

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

/// Renders diagnostics the way clang/DXC print them: `file:line:col: error: message`, the source
/// line, and a caret line (`^~~~` under the span's part on that line), then each note the same
/// way. Tabs before the span are copied into the caret line so the caret stays aligned whatever
/// the terminal's tab width. A [`Span::whole_file`] diagnostic is the line `file: error: message`
/// alone.
pub fn render(diagnostics: &[Diagnostic], sources: &SourceMap) -> String {
    let mut out = String::new();
    for d in diagnostics {
        let label = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        };
        render_one(&mut out, sources, d.span, label, &d.message);
        for (span, note) in &d.notes {
            render_one(&mut out, sources, *span, "note", note);
        }
    }
    out
}

/// One `file:line:col: label: message` block with its source line and caret.
fn render_one(out: &mut String, sources: &SourceMap, span: Span, label: &str, message: &str) {
    if span.is_whole_file() {
        let name = sources.name(span.file);
        out.push_str(&format!("{name}: {label}: {message}\n"));
        return;
    }
    let (line, col) = sources.line_col(span);
    let name = sources.name(span.file);
    out.push_str(&format!("{name}:{line}:{col}: {label}: {message}\n"));
    let text = sources.line_text(span);
    out.push_str(text);
    out.push('\n');
    let mut caret = String::new();
    let before = (col as usize).saturating_sub(1);
    for c in text.chars().take(before) {
        caret.push(if c == '\t' { '\t' } else { ' ' });
    }
    let line_chars = text.chars().count();
    let available = line_chars.saturating_sub(before);
    let file_text = sources.text(span.file);
    let spanned = file_text
        .get(span.start as usize..(span.end.max(span.start) as usize).min(file_text.len()))
        .map_or(1, |s| s.chars().count());
    let width = spanned.min(available).max(1);
    caret.push('^');
    for _ in 1..width {
        caret.push('~');
    }
    out.push_str(&caret);
    out.push('\n');
}
